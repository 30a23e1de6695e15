//! The solver's line is the shortest mate with every interposition counted.
//! On the short-problem sets it equals the published length, except where
//! the row says the published length is wrong or counts differently:
//! - "WRONG LENGTH" rows (tanuki): a shorter mate exists; we must find it;
//! - rows that do not count useless interpositions (無駄合): ours counts
//!   them, so it is longer (the tsume answer, issue 4, will not count them);
//! - cshogi's lengths are its PV lengths, not always shortest: ours is
//!   never longer.

mod common;

use common::problems;
use tsume::core::Position;
use tsume::solver::{Limits, Outcome, Solver};

/// Rows whose published length does not count an interposition that a
/// plain minimax counts, found by this test and checked by hand (the SFEN
/// begins so). Each line here ends in a piece interposed against a
/// distant check and captured or mated over at once:
/// - YaneuraOu mate11 line 3: ... B*4f P*5e S*5c (17 plies, published 11);
/// - antma tsume5: 4i4b+ L*3b S*3a 2b1b 4b3b L*2b 3a2b+ (7, published 5);
/// - antma tsume5: B*4c 3b4c G*5c 4c4d 6b4b P*4c 4b4c (7, published 5).
const COUNTS_DIFFERENTLY: &[&str] = &[
    "ln1g1k1nl/1r2Pgg2/p2p+Bs1pp/",
    "7nl/7k1/6ppp/9/9/9/9/9/5R3 ",
    "l6nl/3+R1pk2/3p3gp/",
];

fn check(file: &str) {
    let mut solver = Solver::new(64);
    let mut wrong = Vec::new();
    let mut equal = 0;
    for p in problems(file).iter().filter(|p| p.length > 0) {
        let pos = Position::from_sfen_relaxed(&p.sfen).unwrap();
        solver.clear();
        let r = solver
            .solve(
                &pos,
                &Limits {
                    nodes: Some(2_000_000),
                    ..Limits::default()
                },
            )
            .unwrap();
        let Outcome::Mate { moves } = r.outcome else {
            wrong.push(format!("{}: {:?}", p.name, r.outcome));
            continue;
        };
        let (ours, published) = (moves.len() as i32, p.length);
        let futile = p.name.contains("futile") || p.name.contains("無駄合");
        let ok = if p.name.contains("WRONG LENGTH") {
            ours < published
        } else if futile || COUNTS_DIFFERENTLY.iter().any(|s| p.sfen.starts_with(s)) {
            ours >= published
        } else if p.name.starts_with("cshogi") {
            ours <= published
        } else {
            ours == published
        };
        if ours == published {
            equal += 1;
        }
        if !ok {
            wrong.push(format!("{}: published {published}, ours {ours}", p.name));
        }
    }
    eprintln!("{file}: {equal} equal to the published length");
    assert!(wrong.is_empty(), "{file}:\n{}", wrong.join("\n"));
}

#[test]
fn tanuki_generated() {
    check("tanuki_generated.tsv");
}

#[test]
fn yaneuraou_mate_samples() {
    check("yaneuraou_mate_samples.tsv");
}

#[test]
fn antma_tests() {
    check("antma_tests.tsv");
}

#[test]
fn tsumemi_samples() {
    check("tsumemi_samples.tsv");
}

#[test]
fn cshogi_tests() {
    check("cshogi_tests.tsv");
}

#[test]
fn misc_small() {
    check("misc_small.tsv");
}
