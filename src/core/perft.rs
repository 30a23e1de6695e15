//! Perft: the number of leaf nodes of the legal move tree to a depth, the
//! standard test of a move generator.
//!
//! ```
//! use tsume::core::{perft, Position};
//! assert_eq!(perft::perft(&mut Position::startpos(), 2), 900);
//! ```

use super::Position;
use super::movegen::{MoveList, count_legal, generate_legal};

/// Leaf count to `depth` (the last level is counted, not played).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        // The last level is counted from the move sets, not listed.
        return count_legal(pos) as u64;
    }
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    let mut total = 0;
    for &m in list.iter() {
        let undo = pos.do_move(m);
        total += perft(pos, depth - 1);
        pos.undo_move(m, undo);
    }
    total
}

/// Perft split by first move, in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(super::Move, u64)> {
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    let mut out = Vec::with_capacity(list.len());
    for &m in list.iter() {
        let undo = pos.do_move(m);
        let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
        pos.undo_move(m, undo);
        out.push((m, n));
    }
    out
}
