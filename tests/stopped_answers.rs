//! Whatever stops a search, a mate it reports is a mate: the stop flag is
//! raised from another thread at many moments of the answer phase (after
//! the first proof, while the tsume answer is read), on several long
//! problems, and every line reported is replayed move by move and its last
//! position checked by the exhaustive reference (mated where it stands by
//! tsume counting).

mod common;

use std::sync::atomic::Ordering;
use std::thread;
use std::time::Duration;

use tsume::core::{Move, Position};
use tsume::solver::exhaustive::tsume_mated_within;
use tsume::solver::{Outcome, SolveOptions, Solver};

/// Replays `moves` from `pos` independently of the solver's own check:
/// every move legal, every attacker move a check, and at the end the
/// defender to move and mated within 0 plies by the exhaustive search.
fn assert_replays_as_mate(pos: &Position, moves: &[Move], what: &str) {
    let attacker = pos.side_to_move();
    let mut p = pos.clone();
    for (i, &m) in moves.iter().enumerate() {
        assert!(
            p.is_legal(m).is_ok(),
            "{what}: ply {} {m} is not legal",
            i + 1
        );
        let checking = p.side_to_move() == attacker;
        p.do_move(m);
        assert!(
            !checking || p.in_check(),
            "{what}: ply {} {m} gives no check",
            i + 1
        );
    }
    assert_ne!(p.side_to_move(), attacker, "{what}: ends on the attacker");
    assert!(
        tsume_mated_within(&p, 0),
        "{what}: the line {} does not end in mate ({p})",
        common::usi(moves)
    );
}

/// A small xorshift: the stop points are random, and the same each run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Solves `pos` (no limit of its own) while another thread raises the
/// stop flag once the search has passed `stop_at` nodes.
fn solve_stopped_at(
    solver: &mut Solver,
    pos: &Position,
    stop_at: u64,
) -> tsume::solver::SolveResult {
    let stop = solver.stop_flag();
    let progress = solver.progress();
    stop.store(false, Ordering::Relaxed);
    let done = std::sync::atomic::AtomicBool::new(false);
    thread::scope(|s| {
        let watcher = s.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                if progress.nodes() >= stop_at {
                    stop.store(true, Ordering::Relaxed);
                    return;
                }
                thread::sleep(Duration::from_micros(200));
            }
        });
        let r = solver.solve(pos, &SolveOptions::default()).unwrap();
        done.store(true, Ordering::Relaxed);
        watcher.join().unwrap();
        r
    })
}

#[test]
fn a_stop_anywhere_in_the_answer_leaves_a_line_that_mates() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    // (row, nodes of the first proof about, fixed stop points): on 002 a
    // stop at 0.3M nodes once gave a 15-ply line ending with the defender
    // able to drop on 2d, which counts there.
    let rows: [(&str, u64, &[u64]); 4] = [
        ("002", 215_000, &[300_000, 420_000]),
        ("003", 24_000, &[]),
        ("046", 314_000, &[]),
        ("075", 181_000, &[]),
    ];
    let mut mates = 0;
    for (row, first, fixed) in rows {
        let p = common::musou_row(row);
        let pos: Position = p.sfen.parse().unwrap();
        let mut solver = Solver::new(256);
        let random: Vec<u64> = (0..2).map(|_| first + rng.below(800_000)).collect();
        for &stop_at in fixed.iter().chain(&random) {
            solver.clear();
            let r = solve_stopped_at(&mut solver, &pos, stop_at);
            let what = format!("musou-{row} stopped at {stop_at} nodes");
            match &r.outcome {
                Outcome::Mate { moves } => {
                    assert_replays_as_mate(&pos, moves, &what);
                    mates += 1;
                }
                Outcome::Unknown(_) => {}
                Outcome::NoMate => panic!("{what}: no mate reported"),
            }
        }
    }
    // The stops fall after the first proof: most of them report a line.
    assert!(mates >= 8, "only {mates} stopped searches reported a mate");
}

/// musou row `row` stopped at `nodes` nodes (256 MB table), answered
/// not exactly: the length of the line printed (replayed as a mate) and
/// the bounds proven.
fn cut_short(row: &str, nodes: u64) -> (u32, u32, u32) {
    let p = common::musou_row(row);
    let pos: Position = p.sfen.parse().unwrap();
    let mut solver = Solver::new(256);
    let r = solver
        .solve(&pos, &SolveOptions::default().nodes(nodes))
        .unwrap();
    let what = format!("musou-{row} at {nodes} nodes");
    assert!(!r.exact, "{what}: answered exactly");
    let (Some(at_least), Some(at_most)) = (r.at_least, r.at_most) else {
        panic!("{what}: no bounds proven: {r:?}");
    };
    let Outcome::Mate { moves } = &r.outcome else {
        panic!("{what}: no line printed: {r:?}");
    };
    assert_replays_as_mate(&pos, moves, &what);
    (moves.len() as u32, at_least, at_most)
}

/// An answer cut short by a limit prints, of the lines the table knows,
/// the one nearest the lengths proven, here within them:
/// - musou-002 stopped at 500k nodes (350k to 800k alike) has at most 47
///   plies proven while the first proof's line has 49; the plain line the
///   table knows after the descent has 47.
/// - musou-026 (answer 29) stopped at 650k nodes has 17 to 29 proven; a
///   line of 29 plies is printed. (At stop 50 the stop was at 800k nodes,
///   with 29 proven from both sides and the main line not read yet; since
///   then its answer has grown cheaper, ending at about 793k nodes under a
///   node limit at stop 60, 772k at stop 61 and 704k at stop 62, and the
///   last bound and the main line come too close together to stop between
///   them. The line of the longest resistance then had 39 plies.)
#[test]
fn an_answer_cut_short_prints_a_line_within_the_lengths_proven() {
    for (row, nodes) in [("002", 500_000), ("026", 650_000)] {
        let (len, at_least, at_most) = cut_short(row, nodes);
        assert!(
            (at_least..=at_most).contains(&len),
            "musou-{row} at {nodes} nodes: a line of {len} plies printed, \
             {at_least} to {at_most} proven"
        );
    }
}

/// The line nearest the mate proven is printed: the lines the table
/// knows may cut a defence short (they pass over defences whose mates it
/// no longer holds), and fall far under it.
/// - musou-022 (answer 33) stopped at 300k nodes has 11 to 33 proven; the
///   line of the longest resistance had 11 plies and was printed, where
///   the plain line of 33 is the answer's length.
/// - musou-004 (answer 27) stopped at 300k nodes has 11 to 27 proven; a
///   line of 17 plies was printed (10 under), where one of 33 is known
///   (6 over).
#[test]
fn an_answer_cut_short_prints_the_line_nearest_the_mate_proven() {
    let (len, at_least, at_most) = cut_short("022", 300_000);
    assert!(at_least < at_most, "{at_least} to {at_most}");
    assert_eq!(
        len, at_most,
        "musou-022: a line of {len} plies printed, {at_least} to {at_most} proven"
    );
    let (len, at_least, at_most) = cut_short("004", 300_000);
    assert!(
        len.abs_diff(at_most) <= 6,
        "musou-004: a line of {len} plies printed, {at_least} to {at_most} proven"
    );
}
