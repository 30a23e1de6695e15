//! Where the generators put their moves: a [`MoveList`], or a plain count
//! (perft's last level needs only how many moves there are).
//!
//! The generators hand over move sets, not single moves: the moves of one
//! piece to a set of squares, the pushes of all pawns at once (each from
//! the square one step behind its destination), the drops of one kind. A
//! list writes them out; a counter adds up the sizes of the sets.

use crate::core::{Bitboard, Move, PieceKind, Square};

use super::MoveList;

const PROMOTE: u16 = 1 << 14;

pub(super) trait Sink {
    /// The moves from `from` to each square of `to`.
    fn moves_from(&mut self, from: Square, to: Bitboard, promote: bool);
    /// The moves to each square of `to` from the square `delta` indices
    /// away (origin index = destination index + `delta`).
    fn shifted(&mut self, to: Bitboard, delta: i8, promote: bool);
    /// The drops of `kind` on each square of `to`.
    fn drops(&mut self, kind: PieceKind, to: Bitboard);
    /// One move.
    fn one(&mut self, m: Move);
}

impl Sink for MoveList {
    #[inline(always)]
    fn moves_from(&mut self, from: Square, to: Bitboard, promote: bool) {
        let base = (from.index() as u16) << 7 | if promote { PROMOTE } else { 0 };
        self.push_each(to, base, 1);
    }

    #[inline(always)]
    fn shifted(&mut self, to: Bitboard, delta: i8, promote: bool) {
        // to | (to + delta) << 7 = to * 129 + delta * 128, in wrapping
        // arithmetic (delta may be negative; the sum is a valid move).
        let base = (((delta as i16) << 7) as u16).wrapping_add(if promote { PROMOTE } else { 0 });
        self.push_each(to, base, 129);
    }

    #[inline(always)]
    fn drops(&mut self, kind: PieceKind, to: Bitboard) {
        self.push_each(to, (80 + kind as u16) << 7, 1);
    }

    #[inline(always)]
    fn one(&mut self, m: Move) {
        self.push(m);
    }
}

/// A sink that only counts.
#[derive(Default)]
pub(super) struct Counter(pub(super) usize);

impl Sink for Counter {
    #[inline(always)]
    fn moves_from(&mut self, _from: Square, to: Bitboard, _promote: bool) {
        self.0 += to.count() as usize;
    }

    #[inline(always)]
    fn shifted(&mut self, to: Bitboard, _delta: i8, _promote: bool) {
        self.0 += to.count() as usize;
    }

    #[inline(always)]
    fn drops(&mut self, _kind: PieceKind, to: Bitboard) {
        self.0 += to.count() as usize;
    }

    #[inline(always)]
    fn one(&mut self, _m: Move) {
        self.0 += 1;
    }
}
