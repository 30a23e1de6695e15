//! Repetition in the df-pn solver, on hand-made positions.
//!
//! Every attacker move is a check, so a position that comes back on the
//! path is a perpetual check: a failure for the attacker. That failure
//! holds on that path only; the same position reached by another path may
//! be a mate. These tests hold the solver to that: a perpetual check is no
//! mate (and is proved so quickly), a loop next to a real mate does not
//! hide the mate, and a failure that a repetition caused on one path is
//! not taken for a failure elsewhere, in the same search or in a later one
//! on the same solver (the graph-history interaction, GHI).
//!
//! (a) and (b) share one loop. The defender's king is in the bottom right
//! corner (1i), Black attacks, nothing is in the defender's hand:
//!
//! ```text
//!   3   2   1
//! +---+---+---+
//! |   | R |   | g     Black rooks on 2g and 4h (4h not drawn: it guards
//! +---+---+---+         1h, 2h and 3h along rank h), a White gold on 3i.
//! |   |   |   | h
//! +---+---+---+
//! | g |   | k | i
//! +---+---+---+
//! ```
//!
//! The rook on 2g checks from 1g (down file 1); the king's only move is to
//! 2i; the rook checks back from 2g (down file 2); the king's only move is
//! back to 1i: the starting position again, after four plies. With nothing
//! in hand no other check leads anywhere either: no mate (the exhaustive
//! search sees none within 15 plies). With a silver in hand there is a
//! mate (S*2h ...), and the loop is still there to be walked into.
//!
//! (c) is a transposition: two move orders to one position, a repetition
//! on one of them only (see `transposition_through_a_repetition`).

mod common;

use std::collections::HashMap;

use common::assert_sound_mate;
use tsume::core::movegen::{check_moves, evasion_moves};
use tsume::core::{Move, Position};
use tsume::solver::exhaustive::{mates_within, shortest_mate};
use tsume::solver::{Outcome, SolveOptions, Solver};

/// The loop position with nothing in hand: a perpetual check, no mate.
const PERPETUAL: &str = "9/9/9/9/9/9/7R1/5R3/6g1k b - 1";
/// The same with a silver in hand: mate in 5 (exhaustive), and the loop.
const LOOP_AND_MATE: &str = "9/9/9/9/9/9/7R1/5R3/6g1k b S 1";
/// `LOOP_AND_MATE` two plies into the loop (2g1g 1i2i): the rook on 1g,
/// the king on 2i. Its mates all go back through `LOOP_AND_MATE` (1g2g
/// 2i1i, then the silver), so in a search that reached it from there, it
/// fails by repetition; searched on its own, it is a mate.
const INSIDE_THE_LOOP: &str = "9/9/9/9/9/9/8R/5R3/6gk1 b S 1";

fn pos(sfen: &str) -> Position {
    sfen.parse().unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn limits(nodes: u64) -> SolveOptions {
    SolveOptions::default().nodes(nodes)
}

fn mv(pos: &Position, usi: &str) -> Move {
    pos.parse_move(usi).unwrap_or_else(|e| panic!("{usi}: {e}"))
}

/// Plays `line` from `start`, checking that every defender turn on it has
/// exactly one legal move (the line is forced on the defender) and that
/// every attacker move is a check. Returns the position reached.
fn play_forced(start: &Position, line: &[&str]) -> Position {
    let attacker = start.side_to_move();
    let mut p = start.clone();
    for &u in line {
        let m = mv(&p, u);
        if p.side_to_move() == attacker {
            assert!(check_moves(&p).contains(&m), "{u} is not a check in {p}");
        } else {
            let evasions: Vec<Move> = evasion_moves(&p).iter().copied().collect();
            assert_eq!(
                evasions,
                [m],
                "the defender has other moves than {u} in {p}"
            );
        }
        p.do_move(m);
    }
    p
}

/// Exhaustive AND/OR search (independent of the solver) for a mate within
/// `plies`, with the positions `avoid` counted as already on the path: a
/// line that reaches one of them is a repetition, a failure.
fn mates_avoiding(pos: &Position, plies: u32, avoid: &[u64]) -> bool {
    fn or(p: &mut Position, plies: u32, path: &mut Vec<u64>) -> bool {
        if plies == 0 {
            return false;
        }
        for &m in check_moves(p).iter() {
            let undo = p.do_move(m);
            let ok = !path.contains(&p.key()) && {
                path.push(p.key());
                let r = and(p, plies - 1, path);
                path.pop();
                r
            };
            p.undo_move(m, undo);
            if ok {
                return true;
            }
        }
        false
    }
    fn and(p: &mut Position, plies: u32, path: &mut Vec<u64>) -> bool {
        let evasions = evasion_moves(p);
        if evasions.is_empty() {
            return true;
        }
        if plies == 0 {
            return false;
        }
        for &m in evasions.iter() {
            let undo = p.do_move(m);
            let ok = !path.contains(&p.key()) && {
                path.push(p.key());
                let r = or(p, plies - 1, path);
                path.pop();
                r
            };
            p.undo_move(m, undo);
            if !ok {
                return false;
            }
        }
        true
    }
    let mut p = pos.clone();
    let mut path = avoid.to_vec();
    path.push(p.key());
    or(&mut p, plies, &mut path)
}

/// The solver's answer, which must be a mate whose every defence is mated
/// (the line mates, and each other evasion along it is solved again).
fn expect_sound_mate(solver: &mut Solver, p: &Position, name: &str) -> Vec<Move> {
    let r = solver.solve(p, &limits(1_000_000)).unwrap();
    match r.outcome {
        Outcome::Mate { moves } => {
            assert_sound_mate(solver, p, &moves, name);
            moves
        }
        other => panic!("{name} ({p}): {other:?}, expected a mate"),
    }
}

/// (a) A perpetual check and no mate: the attacker can check forever
/// (2g1g 1i2i 1g2g 2i1i, every defender move forced), but every such line
/// comes back to a position on it, and nothing else mates. The solver must
/// prove "no mate", and quickly, not give up at a limit.
#[test]
fn perpetual_check_is_no_mate() {
    let start = pos(PERPETUAL);
    let back = play_forced(&start, &["2g1g", "1i2i", "1g2g", "2i1i"]);
    assert_eq!(back.key(), start.key(), "the loop closes");
    assert!(!mates_within(&start, 15));
    let r = common::new_solver(16)
        .solve(&start, &limits(2_000))
        .unwrap();
    assert_eq!(r.outcome, Outcome::NoMate, "after {} nodes", r.nodes);
    // From inside the loop too.
    let inside = play_forced(&start, &["2g1g", "1i2i"]);
    let r = common::new_solver(16)
        .solve(&inside, &limits(2_000))
        .unwrap();
    assert_eq!(
        r.outcome,
        Outcome::NoMate,
        "{inside} after {} nodes",
        r.nodes
    );
}

/// (b) The loop is still there, but a silver in hand makes a mate
/// (exhaustive: 5 plies). The mate must be found, with a sound line, and
/// it may walk into the loop (2g1g 1i2i) on the way, as long as it does
/// not come back to a position of its own line.
#[test]
fn loop_next_to_a_real_mate() {
    let start = pos(LOOP_AND_MATE);
    let back = play_forced(&start, &["2g1g", "1i2i", "1g2g", "2i1i"]);
    assert_eq!(back.key(), start.key(), "the loop closes");
    assert_eq!(shortest_mate(&start, 9), Some(5));
    let mut solver = common::new_solver(16);
    let line = expect_sound_mate(&mut solver, &start, "loop and mate");
    // No position repeats along the line.
    let mut p = start.clone();
    let mut seen = vec![p.key()];
    for &m in &line {
        p.do_move(m);
        assert!(!seen.contains(&p.key()), "{line:?} repeats a position");
        seen.push(p.key());
    }
}

/// The same trap across two searches on one solver.
///
/// `INSIDE_THE_LOOP` (rook 1g, king 2i, silver in hand) is a mate, but
/// every mate from it goes back through `LOOP_AND_MATE` (1g2g 2i1i, then
/// the silver): with `LOOP_AND_MATE` on the path, it fails. A search of
/// `LOOP_AND_MATE` that steps into the loop (2g1g 1i2i) reaches it with
/// `LOOP_AND_MATE` on the path, and must record its failure as holding on
/// that path only. A solver that stored that failure as a plain "no mate"
/// answers "no mate" when `INSIDE_THE_LOOP` is reached by another path
/// later: here, as the root of the next search on the same solver, in
/// both orders and again after clearing. `NaiveTableSearch` (below) is
/// such a solver, and answers so.
#[test]
fn repetition_failure_does_not_leak_to_the_next_search() {
    let outer = pos(LOOP_AND_MATE);
    let inner = pos(INSIDE_THE_LOOP);
    assert_eq!(play_forced(&outer, &["2g1g", "1i2i"]).key(), inner.key());
    // The two facts that make the trap, by exhaustive search.
    assert_eq!(shortest_mate(&inner, 11), Some(7));
    assert!(
        !mates_avoiding(&inner, 11, &[outer.key()]),
        "with the outer position on the path, the inner one has no mate"
    );

    // A table that keeps repetition failures does fall into it.
    let mut naive = NaiveTableSearch::new(false);
    assert!(naive.mates(&outer, 9));
    assert!(!naive.mates(&inner, 9), "the naive search should be fooled");
    assert!(NaiveTableSearch::new(false).mates(&inner, 9));

    let mut solver = common::new_solver(16);
    for _ in 0..2 {
        expect_sound_mate(&mut solver, &outer, "outer");
        expect_sound_mate(&mut solver, &inner, "inner after outer");
        expect_sound_mate(&mut solver, &outer, "outer after inner");
    }
    solver.clear();
    expect_sound_mate(&mut solver, &inner, "inner after clear");
}

/// A deliberately wrong solver, to show that the positions above set the
/// trap they are meant to: an iterative-deepening AND/OR search with a
/// table that keeps every result not cut by the depth limit, including
/// failures caused by a repetition on the current path (the GHI mistake).
/// `reverse` tries the moves in the other order.
struct NaiveTableSearch {
    table: HashMap<u64, bool>,
    reverse: bool,
}

impl NaiveTableSearch {
    fn new(reverse: bool) -> NaiveTableSearch {
        NaiveTableSearch {
            table: HashMap::new(),
            reverse,
        }
    }

    /// Whether the side to move mates within `max_plies`, by deepening.
    fn mates(&mut self, pos: &Position, max_plies: u32) -> bool {
        (1..=max_plies).step_by(2).any(|d| {
            let mut p = pos.clone();
            self.node(&mut p, d, &mut vec![pos.key()], true).0
        })
    }

    /// (result, whether the depth limit cut it).
    fn node(
        &mut self,
        p: &mut Position,
        plies: u32,
        path: &mut Vec<u64>,
        or: bool,
    ) -> (bool, bool) {
        if let Some(&r) = self.table.get(&p.key()) {
            return (r, false);
        }
        let mut moves: Vec<Move> = if or {
            check_moves(p).iter().copied().collect()
        } else {
            evasion_moves(p).iter().copied().collect()
        };
        if moves.is_empty() {
            // No check: failure. No evasion: mate.
            self.table.insert(p.key(), !or);
            return (!or, false);
        }
        if plies == 0 {
            return (false, true);
        }
        if self.reverse {
            moves.reverse();
        }
        let mut cut = false;
        for m in moves {
            let undo = p.do_move(m);
            let (r, c) = if path.contains(&p.key()) {
                (false, false) // a repetition: failure
            } else {
                path.push(p.key());
                let r = self.node(p, plies - 1, path, !or);
                path.pop();
                r
            };
            p.undo_move(m, undo);
            cut |= c;
            if r == or {
                // A proven check, or a refuting evasion.
                if or || !c {
                    self.table.insert(p.key(), r);
                }
                return (r, c && !or);
            }
        }
        if !cut {
            self.table.insert(p.key(), !or);
        }
        (!or, cut)
    }
}

/// (c): two rooks (3e, 3f) and a knight in hand against the king on 2g.
/// Mate in 9 (exhaustive; the solver's line: N*1i 2g1g 3e1e 1g2h 1e2e
/// 2h1g 2e2g 1g1h 3f1f).
const TRANSPOSITION: &str = "9/9/9/9/6R2/6R2/7k1/9/9 b N 1";
/// Two move orders from `TRANSPOSITION` to one position (rook 1e, king 1h,
/// the defender to move): the king goes to 1h through 1g and 2h, or
/// straight from 2g.
const LONG_WAY: [&str; 7] = ["N*1i", "2g1g", "3e1e", "1g2h", "1e2e", "2h1h", "2e1e"];
const SHORT_WAY: [&str; 3] = ["N*1i", "2g1h", "3e1e"];

/// (c) One position, two move orders, a repetition on one of them only.
///
/// After `LONG_WAY` the king stands on 1h, in check from the rook on 1e;
/// its move 1h2h goes back to the position after the fourth ply of that
/// same path (rook 1e, king 2h): a repetition, so along `LONG_WAY` the
/// king escapes. After `SHORT_WAY`, the same position has no such escape
/// (2h was never visited) and is mated in 6 plies. A solver that keeps
/// the first verdict in its table as a plain "not mated" answers "no
/// mate" for `TRANSPOSITION`: `NaiveTableSearch` does, in one search.
/// The solver must find the mate, with a sound line.
#[test]
fn transposition_through_a_repetition() {
    let root = pos(TRANSPOSITION);
    assert_eq!(shortest_mate(&root, 9), Some(9));

    let play = |line: &[&str]| {
        let mut p = root.clone();
        let mut keys = vec![p.key()];
        for &u in line {
            p.do_move(mv(&p, u));
            keys.push(p.key());
        }
        (p, keys)
    };
    let (long, long_path) = play(&LONG_WAY);
    let (short, short_path) = play(&SHORT_WAY);
    assert_eq!(long.key(), short.key(), "the two orders meet");
    assert!(long.in_check());
    // The escape 1h2h repeats the position after ply 4 of the long way.
    let escape = long.after(mv(&long, "1h2h"));
    assert_eq!(escape.key(), long_path[4]);
    assert!(!short_path.contains(&escape.key()));
    // Mated in 6 on its own, or after the short way; not after the long.
    assert!(tsume::solver::exhaustive::mated_within(&long, 6));
    assert!(mated_avoiding(&long, 6, &short_path));
    assert!(!mated_avoiding(&long, 12, &long_path));

    // A table that keeps repetition failures answers "no mate".
    assert!(!NaiveTableSearch::new(false).mates(&root, 9));

    let mut solver = common::new_solver(16);
    expect_sound_mate(&mut solver, &root, "transposition");
    // And from the meeting point, asked as a defender-to-move root.
    let r = solver
        .solve(
            &long,
            &SolveOptions::default()
                .nodes(1_000_000)
                .defender_to_move(true),
        )
        .unwrap();
    match r.outcome {
        Outcome::Mate { moves } => {
            assert!(tsume::solver::is_tsume_line(
                &long,
                &moves,
                !long.side_to_move()
            ));
        }
        other => panic!("{long}: {other:?}"),
    }
}

/// Whether the side to move (in check) in `pos` is mated within `plies`,
/// with the positions `avoid` counted as already on the path.
fn mated_avoiding(pos: &Position, plies: u32, avoid: &[u64]) -> bool {
    evasion_moves(pos).iter().all(|&m| {
        let after = pos.after(m);
        !avoid.contains(&after.key())
            && after.key() != pos.key()
            && mates_avoiding(
                &after,
                plies.saturating_sub(1),
                &[avoid, &[pos.key()]].concat(),
            )
    }) && pos.in_check()
}

/// One solver across all the positions above and the positions along
/// their lines, in several orders: each answer must be the one a fresh
/// solver gives, and agree with the exhaustive search where it reaches. A
/// result that leaked from one search into the next (a repetition failure
/// kept in the table, say) shows up as a difference.
#[test]
fn one_solver_across_searches() {
    let mut positions: Vec<Position> = Vec::new();
    let mut push_line = |start: Position, line: &[&str]| {
        let mut p = start.clone();
        positions.push(p.clone());
        for &u in line {
            p.do_move(mv(&p, u));
            if p.side_to_move() == start.side_to_move() {
                positions.push(p.clone());
            }
        }
    };
    push_line(pos(PERPETUAL), &["2g1g", "1i2i", "1g2g", "2i1i"]);
    push_line(pos(LOOP_AND_MATE), &["2g1g", "1i2i", "1g2g", "2i1i"]);
    push_line(pos(TRANSPOSITION), &LONG_WAY[..6]);
    push_line(pos(TRANSPOSITION), &SHORT_WAY[..2]);
    push_line(
        pos(TRANSPOSITION),
        &[
            "N*1i", "2g1g", "3e1e", "1g2h", "1e2e", "2h1g", "2e2g", "1g1h",
        ],
    );

    // The verdict of a fresh solver for each, checked against exhaustive
    // search: a no-mate must have no mate within 11 plies, a mate must be
    // sound.
    let verdict = |solver: &mut Solver, p: &Position| -> bool {
        match solver.solve(p, &limits(1_000_000)).unwrap().outcome {
            Outcome::Mate { moves } => {
                assert!(
                    tsume::solver::is_tsume_line(p, &moves, p.side_to_move()),
                    "{p}: {moves:?}"
                );
                true
            }
            Outcome::NoMate => false,
            other => panic!("{p}: {other:?}"),
        }
    };
    let expected: Vec<bool> = positions
        .iter()
        .map(|p| {
            let mut fresh = common::new_solver(4);
            let v = verdict(&mut fresh, p);
            if v {
                expect_sound_mate(&mut fresh, p, "fresh");
            } else {
                assert!(
                    !mates_within(p, 11),
                    "{p}: a mate within 11, solver says none"
                );
            }
            v
        })
        .collect();
    assert!(expected.iter().any(|&v| v) && expected.iter().any(|&v| !v));

    let mut solver = common::new_solver(16);
    let n = positions.len();
    let orders: [Box<dyn Fn(usize) -> usize>; 3] = [
        Box::new(|i| i),
        Box::new(move |i| n - 1 - i),
        Box::new(move |i| (i * 7 + 3) % n),
    ];
    for _round in 0..2 {
        for order in &orders {
            for i in 0..n {
                let k = order(i);
                assert_eq!(
                    verdict(&mut solver, &positions[k]),
                    expected[k],
                    "{} on a shared solver",
                    positions[k]
                );
            }
        }
    }
}
