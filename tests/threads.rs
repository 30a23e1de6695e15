//! Several threads on one problem (`Solver::set_threads`, `--threads`):
//! the answers are those of one thread. Exact lengths, results and the
//! bounds proven are compared row by row on problem sets with 1, 2 and 4
//! threads, and every line is replayed. (The soundness, exhaustive and
//! repetition tests run again with `TSUME_TEST_THREADS` from `.ci/run`.)

mod common;

use common::{assert_sound_mate, problems};
use tsume::core::Position;
use tsume::solver::{Outcome, SolveOptions, Solver, is_tsume_line};

/// Result, exact length and exactness of each row of `file` (rows of at
/// most `max_len` plies published) with `threads` threads, each row
/// within `nodes` nodes; every line found is replayed.
fn answers(file: &str, max_len: i32, threads: usize, nodes: u64) -> Vec<(String, String)> {
    let mut solver = Solver::new(64);
    solver.set_threads(threads);
    let mut out = Vec::new();
    for row in problems(file).iter().filter(|r| r.length <= max_len) {
        let pos = Position::from_sfen_relaxed(&row.sfen).unwrap();
        solver.clear();
        let r = solver
            .solve(&pos, &SolveOptions::default().nodes(nodes))
            .unwrap();
        let answer = match &r.outcome {
            Outcome::Mate { moves } => {
                assert!(
                    is_tsume_line(&pos, moves, pos.side_to_move()),
                    "{} with {threads} threads: {moves:?} is not a mate",
                    row.sfen
                );
                format!(
                    "mate {} exact {} bounds {:?}..{:?}",
                    moves.len(),
                    r.exact,
                    r.at_least,
                    r.at_most
                )
            }
            Outcome::NoMate => "no mate".to_string(),
            other => format!("{other:?}"),
        };
        out.push((row.sfen.clone(), answer));
    }
    out
}

fn same_with_threads(file: &str, max_len: i32, nodes: u64) {
    let one = answers(file, max_len, 1, nodes);
    assert!(!one.is_empty(), "{file}: no rows");
    // A limit may end one search and not the other: only proven answers
    // are compared.
    let proven = |a: &String| a.contains("exact true") || a == "no mate";
    assert!(one.iter().any(|(_, a)| proven(a)), "{file}: nothing proven");
    for threads in [2, 4] {
        let many = answers(file, max_len, threads, nodes);
        for ((sfen, a), (_, b)) in one.iter().zip(&many) {
            if proven(a) {
                assert_eq!(a, b, "{file}: {sfen} with {threads} threads");
            }
        }
    }
}

#[test]
fn the_same_answers_on_the_sample_sets() {
    same_with_threads("tsumemi_samples.tsv", 99, 2_000_000);
    same_with_threads("yaneuraou_mate_samples.tsv", 99, 2_000_000);
}

#[test]
fn the_same_answers_on_short_classical_problems() {
    same_with_threads("musou.tsv", 13, 200_000);
}

#[test]
fn the_same_no_mates() {
    // The rows of nomate.tsv that are proven no mate alone.
    let one = answers("nomate.tsv", 99, 1, 300_000);
    let many = answers("nomate.tsv", 99, 2, 300_000);
    let mut compared = 0;
    for ((sfen, a), (_, b)) in one.iter().zip(&many) {
        if a == "no mate" || b == "no mate" {
            // A no mate from either is a proof: the other may only run
            // out of nodes, never find a mate.
            assert!(
                !a.starts_with("mate") && !b.starts_with("mate"),
                "{sfen}: {a} / {b}"
            );
            compared += 1;
        }
    }
    assert!(compared > 0);
}

/// The main line found with two threads holds: every other defence along
/// it is mated too (solved again, by one thread).
#[test]
fn a_line_found_by_two_threads_is_sound() {
    let row = common::musou_row("010");
    let pos: Position = row.sfen.parse().unwrap();
    let mut solver = Solver::new(64);
    solver.set_threads(2);
    let r = solver.solve(&pos, &SolveOptions::default()).unwrap();
    let Outcome::Mate { moves } = &r.outcome else {
        panic!("{:?}", r.outcome)
    };
    assert!(r.exact);
    assert_eq!(moves.len() as i32, row.length);
    let mut check = Solver::new(64);
    assert_sound_mate(&mut check, &pos, moves, "musou-010");
}

/// A node limit counts the nodes of every thread.
#[test]
fn a_node_limit_counts_every_thread() {
    let row = common::musou_row("012");
    let pos: Position = row.sfen.parse().unwrap();
    let mut solver = Solver::new(64);
    solver.set_threads(3);
    let r = solver
        .solve(&pos, &SolveOptions::default().nodes(20_000))
        .unwrap();
    assert!(matches!(r.outcome, Outcome::Unknown(_)), "{:?}", r.outcome);
    // Each thread looks at the count every 256 nodes of its own.
    assert!(r.nodes < 20_000 + 3 * 2 * 256, "{} nodes", r.nodes);
    assert!(r.nodes >= 20_000, "{} nodes", r.nodes);
}
