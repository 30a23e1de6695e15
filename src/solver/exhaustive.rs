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

use crate::core::Position;
use crate::core::movegen::{check_moves, evasion_moves};

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
