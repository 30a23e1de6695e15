//! Shared helpers for the integration tests: problem files and checks.
#![allow(dead_code)]

pub mod cli;

use tsume::core::movegen::evasion_moves;
use tsume::core::{Color, Move, Position};
use tsume::solver::{Outcome, SolveOptions, SolveResult, Solver, is_tsume_line};

/// One row of a problem file.
pub struct Problem {
    pub sfen: String,
    pub length: i32,
    pub solution: Vec<String>,
    pub name: String,
}

/// The rows of `problems/<file>`.
pub fn problems(file: &str) -> Vec<Problem> {
    let path = format!("{}/problems/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Problem {
                sfen: f[0].to_string(),
                length: f.get(1).and_then(|s| s.parse().ok()).unwrap_or(0),
                solution: f
                    .get(2)
                    .map(|s| s.split_whitespace().map(String::from).collect())
                    .unwrap_or_default(),
                name: f.get(3).unwrap_or(&"").to_string(),
            }
        })
        .collect()
}

/// The row of 将棋無双 problem `number` (three digits) in
/// `problems/musou.tsv`.
pub fn musou_row(number: &str) -> Problem {
    let name = format!("(musou-{number})");
    problems("musou.tsv")
        .into_iter()
        .find(|r| r.name.contains(&name))
        .unwrap_or_else(|| panic!("musou-{number} in problems/musou.tsv"))
}

/// Solves `pos` with `solver` (tsume answer on) within `nodes` nodes.
pub fn solve_within(solver: &mut Solver, pos: &Position, nodes: u64) -> SolveResult {
    solver
        .solve(pos, &SolveOptions::default().nodes(nodes))
        .unwrap()
}

/// Checks that `moves` mates from `pos` by tsume counting
/// ([`is_tsume_line`]: the defender ends checkmated or with interpositions
/// only), that at every defender turn along it each other evasion is mated
/// too (solved again, line replayed), and that each interposition left at
/// the end is mated too (they are useless, so mated).
pub fn assert_sound_mate(solver: &mut Solver, pos: &Position, moves: &[Move], name: &str) {
    let attacker = pos.side_to_move();
    assert!(
        is_tsume_line(pos, moves, attacker),
        "{name}: line {moves:?} is not a mate"
    );
    let mut p = pos.clone();
    // Every defender turn along the line, and the end of it (where any
    // evasion left is an interposition that was not counted).
    for i in 0..=moves.len() {
        let played = moves.get(i).copied();
        if p.side_to_move() != attacker {
            for &alt in evasion_moves(&p).iter() {
                if Some(alt) == played {
                    continue;
                }
                let after = p.after(alt);
                let r = solver
                    .solve(&after, &SolveOptions::default().nodes(5_000_000))
                    .unwrap();
                match r.outcome {
                    Outcome::Mate { moves: alt_line } => {
                        assert!(
                            is_tsume_line(&after, &alt_line, attacker),
                            "{name}: ply {} defence {alt}: line {alt_line:?} is not a mate",
                            i + 1
                        );
                    }
                    other => panic!(
                        "{name}: ply {} defence {alt} is not mated: {other:?}",
                        i + 1
                    ),
                }
            }
        }
        if let Some(m) = played {
            p.do_move(m);
        }
    }
}

/// The side that attacks in `pos` (the side to move).
pub fn attacker(pos: &Position) -> Color {
    pos.side_to_move()
}

/// A line of moves in USI, space-separated.
pub fn usi(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Threads per problem for the solvers of a test (`TSUME_TEST_THREADS`,
/// default 1): `.ci/run` runs the soundness, exhaustive and repetition
/// tests again with several, whose answers must be the same.
pub fn test_threads() -> usize {
    std::env::var("TSUME_TEST_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1)
}

/// The threads for the `i`th search of a test that tries them all: 1, 2
/// and 4 in turn, or [`test_threads`] when `TSUME_TEST_THREADS` is set.
pub fn threads_in_turn(i: usize) -> usize {
    if std::env::var_os("TSUME_TEST_THREADS").is_some() {
        test_threads()
    } else {
        [1, 2, 4][i % 3]
    }
}

/// A solver with a table of `hash_mb` MB searching with
/// [`test_threads`] threads.
pub fn new_solver(hash_mb: usize) -> Solver {
    let mut solver = Solver::new(hash_mb);
    solver.set_threads(test_threads());
    solver
}
