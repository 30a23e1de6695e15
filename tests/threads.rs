//! Several threads on one problem (`Solver::set_threads`, `--threads`):
//! the answers are those of one thread. Exact lengths, results and the
//! bounds proven are compared row by row on problem sets with 1, 2 and 4
//! threads, and every line is replayed. (The soundness, exhaustive and
//! repetition tests run again with `TSUME_TEST_THREADS` from `.ci/run`.)

mod common;

use common::{assert_sound_mate, problems};
use std::sync::Arc;
use tsume::core::Position;

use tsume::solver::{Outcome, SolveOptions, Solver, SpareCores, is_tsume_line};

/// What a search said of one row: its outcome, and for a mate the line's
/// length, whether it is proven the answer, and the bounds proven.
#[derive(Debug, PartialEq)]
enum Answer {
    Mate {
        len: u32,
        exact: bool,
        at_least: Option<u32>,
        at_most: Option<u32>,
    },
    NoMate,
    Unknown,
}

impl Answer {
    fn proven(&self) -> bool {
        matches!(self, Answer::Mate { exact: true, .. } | Answer::NoMate)
    }

    /// Whether the bounds proven here allow the exact length `len`.
    fn allows(&self, len: u32) -> bool {
        match self {
            Answer::Mate {
                at_least, at_most, ..
            } => at_least.is_none_or(|l| l <= len) && at_most.is_none_or(|m| len <= m),
            Answer::NoMate => false,
            Answer::Unknown => true,
        }
    }
}

/// What `threads` threads say of each row of `file` (rows of at most
/// `max_len` plies published), each row within `nodes` nodes; every line
/// found is replayed.
fn answers(file: &str, max_len: i32, threads: usize, nodes: u64) -> Vec<(String, Answer)> {
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
                Answer::Mate {
                    len: moves.len() as u32,
                    exact: r.exact,
                    at_least: r.at_least,
                    at_most: r.at_most,
                }
            }
            Outcome::NoMate => Answer::NoMate,
            _ => Answer::Unknown,
        };
        out.push((row.sfen.clone(), answer));
    }
    out
}

/// Rows proven with one thread and with 2 and 4 get the same answer; a
/// row proven by one count only has its answer within the bounds the
/// other proved (the node limit counts every thread's nodes, so either
/// may run out first).
fn same_with_threads(file: &str, max_len: i32, nodes: u64) {
    let one = answers(file, max_len, 1, nodes);
    for threads in [2, 4] {
        let many = answers(file, max_len, threads, nodes);
        let mut both = 0;
        for ((sfen, a), (_, b)) in one.iter().zip(&many) {
            let at = || format!("{file}: {sfen}: {a:?} with 1 thread, {b:?} with {threads}");
            match (a.proven(), b.proven()) {
                (true, true) => {
                    assert_eq!(a, b, "{}", at());
                    both += 1;
                }
                (true, false) | (false, true) => {
                    let (proven, other) = if a.proven() { (a, b) } else { (b, a) };
                    match proven {
                        Answer::Mate { len, .. } => assert!(other.allows(*len), "{}", at()),
                        _ => assert!(!matches!(other, Answer::Mate { .. }), "{}", at()),
                    }
                }
                (false, false) => {}
            }
        }
        assert!(
            both > 0,
            "{file}: no row proven with 1 and {threads} threads"
        );
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
    same_with_threads("nomate.tsv", 99, 300_000);
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

/// A search takes the cores lent to it for helpers as it goes, one each
/// 65,536 nodes, and gives them back when it
/// ends; the answer is one thread's.
#[test]
fn a_search_takes_spare_cores_and_gives_them_back() {
    let row = common::musou_row("020");
    let pos: Position = row.sfen.parse().unwrap();
    let alone = Solver::new(256)
        .solve(&pos, &SolveOptions::default())
        .unwrap();
    assert!(alone.exact && alone.nodes > 500_000, "{alone:?}");

    let spare = Arc::new(SpareCores::new());
    spare.lend(2);
    let mut solver = Solver::new(256);
    solver.set_spare_cores(Some(spare.clone()));
    let r = solver.solve(&pos, &SolveOptions::default()).unwrap();
    assert_eq!(spare.taken(), 2, "both cores taken");
    assert_eq!(spare.free(), 2, "both cores given back");
    // The same length (the line itself may differ: which main line the
    // table gives depends on the work done).
    assert!(r.exact, "{r:?}");
    let Outcome::Mate { moves } = &r.outcome else {
        panic!("{:?}", r.outcome)
    };
    assert!(is_tsume_line(&pos, moves, pos.side_to_move()));
    assert_eq!(moves.len() as i32, row.length);

    // Nothing lent, nothing taken.
    let none = Arc::new(SpareCores::new());
    solver.set_spare_cores(Some(none.clone()));
    solver.clear();
    let r = solver.solve(&pos, &SolveOptions::default()).unwrap();
    assert_eq!((none.taken(), r.nodes), (0, alone.nodes));
}

/// A node limit counts the nodes of helpers on lent cores too.
#[test]
fn a_node_limit_counts_the_helpers_on_lent_cores() {
    let row = common::musou_row("012");
    let pos: Position = row.sfen.parse().unwrap();
    let spare = Arc::new(SpareCores::new());
    spare.lend(1);
    let mut solver = Solver::new(64);
    solver.set_spare_cores(Some(spare.clone()));
    let r = solver
        .solve(&pos, &SolveOptions::default().nodes(400_000))
        .unwrap();
    assert!(matches!(r.outcome, Outcome::Unknown(_)), "{:?}", r.outcome);
    assert_eq!(spare.taken(), 1);
    assert_eq!(spare.free(), 1);
    assert!(r.nodes < 400_000 + 2 * 2 * 256, "{} nodes", r.nodes);
    assert!(r.nodes >= 400_000, "{} nodes", r.nodes);
}
