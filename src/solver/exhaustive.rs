//! A plain AND/OR search over the legal moves, independent of the df-pn
//! machinery (no table, no hands, no estimates): the reference the tests
//! hold the solver to on short problems.
//!
//! ```
//! use tsume::core::Position;
//! use tsume::solver::exhaustive::shortest_mate;
//! let pos: Position = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1".parse().unwrap();
//! assert_eq!(shortest_mate(&pos, 5), Some(1));
//! ```

use super::interposition::{interposition_squares, set_aside};
use crate::core::movegen::{check_moves, evasion_moves};
use crate::core::{Bitboard, Position, Square};

/// Whether the side to move mates within `plies` (odd counts make sense),
/// with a repeated position counted as a failure of the attacker.
pub fn mates_within(pos: &Position, plies: u32) -> bool {
    let mut p = pos.clone();
    let mut path = vec![p.key()];
    or_node(&mut p, plies, &mut path)
}

/// The length of the shortest mate of at most `max_plies`, if any.
pub fn shortest_mate(pos: &Position, max_plies: u32) -> Option<u32> {
    (1..=max_plies).step_by(2).find(|&d| mates_within(pos, d))
}

/// Whether the side to move, in check, is mated within `plies` more plies.
pub fn mated_within(pos: &Position, plies: u32) -> bool {
    let mut p = pos.clone();
    let mut path = vec![p.key()];
    and_node(&mut p, plies, &mut path)
}

fn or_node(pos: &mut Position, plies: u32, path: &mut Vec<u64>) -> bool {
    if plies == 0 {
        return false;
    }
    for &m in check_moves(pos).iter() {
        let undo = pos.do_move(m);
        let key = pos.key();
        let ok = !path.contains(&key) && {
            path.push(key);
            let r = and_node(pos, plies - 1, path);
            path.pop();
            r
        };
        pos.undo_move(m, undo);
        if ok {
            return true;
        }
    }
    false
}

fn and_node(pos: &mut Position, plies: u32, path: &mut Vec<u64>) -> bool {
    let evasions = evasion_moves(pos);
    if evasions.is_empty() {
        return pos.in_check();
    }
    if plies == 0 {
        return false;
    }
    for &m in evasions.iter() {
        let undo = pos.do_move(m);
        let key = pos.key();
        let ok = !path.contains(&key) && {
            path.push(key);
            let r = or_node(pos, plies - 1, path);
            path.pop();
            r
        };
        pos.undo_move(m, undo);
        if !ok {
            return false;
        }
    }
    true
}

/// Tsume counting (useless interpositions are not counted, see
/// [`super::interposition`]): whether the side to move mates within `plies`.
pub fn tsume_mates_within(pos: &Position, plies: u32) -> bool {
    let mut p = pos.clone();
    let mut path = vec![p.key()];
    tsume_or(&mut p, plies, &mut path, 0)
}

/// Tsume counting: the length of the shortest mate of at most `max_plies`.
pub fn tsume_shortest_mate(pos: &Position, max_plies: u32) -> Option<u32> {
    (1..=max_plies)
        .step_by(2)
        .find(|&d| tsume_mates_within(pos, d))
}

/// Tsume counting: whether the side to move, in check, is mated within
/// `plies` more plies.
pub fn tsume_mated_within(pos: &Position, plies: u32) -> bool {
    let mut p = pos.clone();
    let mut path = vec![p.key()];
    tsume_and(&mut p, plies, &mut path, 0)
}

/// Nested useless-interposition tests, at most (as in the search).
const MAX_NEST: u32 = 8;

fn tsume_or(pos: &mut Position, plies: u32, path: &mut Vec<u64>, nest: u32) -> bool {
    if plies == 0 {
        return false;
    }
    for &m in check_moves(pos).iter() {
        let undo = pos.do_move(m);
        let key = pos.key();
        let ok = !path.contains(&key) && {
            path.push(key);
            let r = tsume_and(pos, plies - 1, path, nest);
            path.pop();
            r
        };
        pos.undo_move(m, undo);
        if ok {
            return true;
        }
    }
    false
}

fn tsume_and(pos: &mut Position, plies: u32, path: &mut Vec<u64>, nest: u32) -> bool {
    let evasions = evasion_moves(pos);
    if evasions.is_empty() {
        return pos.in_check();
    }
    let squares = if nest < MAX_NEST {
        interposition_squares(pos)
    } else {
        Bitboard::EMPTY
    };
    let king = pos.king_square(pos.side_to_move());
    for &m in evasions.iter() {
        let undo = pos.do_move(m);
        let key = pos.key();
        let counted = || plies > 0;
        let ok = !path.contains(&key) && {
            path.push(key);
            let r = (counted() && tsume_or(pos, plies - 1, path, nest))
                || (squares.contains(m.to())
                    && m.from() != king
                    && useless(pos, m.to(), plies, path, nest));
            path.pop();
            r
        };
        pos.undo_move(m, undo);
        if !ok {
            return false;
        }
    }
    true
}

/// Whether the interposition on `sq` just played (`pos`: attacker to move)
/// is useless with `plies` left at the defender's node before it.
fn useless(pos: &mut Position, sq: Square, plies: u32, path: &mut Vec<u64>, nest: u32) -> bool {
    let Some(piece) = pos.piece_at(sq) else {
        return false;
    };
    for &x in check_moves(pos).iter().filter(|x| x.to() == sq) {
        let undo = pos.do_move(x);
        let mut q0 = set_aside(pos, piece.kind());
        pos.undo_move(x, undo);
        let key = q0.key();
        if path.contains(&key) {
            continue;
        }
        path.push(key);
        let r = tsume_and(&mut q0, plies, path, nest + 1);
        path.pop();
        if r {
            return true;
        }
    }
    false
}
