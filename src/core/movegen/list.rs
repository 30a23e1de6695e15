//! A fixed-capacity list of moves on the stack.

use std::mem::MaybeUninit;
use std::ops::{Deref, DerefMut};

use crate::core::{Bitboard, Move};

/// More than the largest number of legal moves in any shogi position (593).
const CAPACITY: usize = 600;

/// A list of at most 600 moves, kept on the stack.
///
/// The storage is left uninitialised: a list is made at every node of a
/// search or perft and usually holds a few dozen moves, and writing all 600
/// entries up front (a `memset` of 1,200 bytes per list) is a measurable
/// share of move generation. Only `moves[..len]` is ever read.
#[derive(Clone)]
pub struct MoveList {
    moves: [MaybeUninit<Move>; CAPACITY],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [const { MaybeUninit::uninit() }; CAPACITY],
            len: 0,
        }
    }

    /// Appends a move.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < CAPACITY);
        // Positions never have more than 593 legal moves; the generators
        // only push legal moves.
        if self.len < CAPACITY {
            self.moves[self.len].write(m);
            self.len += 1;
        }
    }

    /// Appends the move of raw encoding `base + step * i` for the index `i`
    /// of every square of `to`, in index order: the moves of one move set
    /// of the generators (one origin, or one drop kind, or one shift).
    ///
    /// The length is kept in a local while writing (moves past the
    /// capacity are dropped, as `push` drops them): pushing one by one
    /// stores and reloads `len` per move, which slows the listing of all
    /// legal moves markedly.
    #[inline(always)]
    pub(crate) fn push_each(&mut self, to: Bitboard, base: u16, step: u16) {
        let mut lo = to.0 as u64;
        let mut hi = (to.0 >> 64) as u64;
        let mut p = self.len;
        while lo != 0 {
            let i = lo.trailing_zeros() as u16;
            lo &= lo - 1;
            if let Some(slot) = self.moves.get_mut(p) {
                slot.write(Move::from_raw_unchecked(
                    base.wrapping_add(step.wrapping_mul(i)),
                ));
                p += 1;
            }
        }
        while hi != 0 {
            let i = 64 + hi.trailing_zeros() as u16;
            hi &= hi - 1;
            if let Some(slot) = self.moves.get_mut(p) {
                slot.write(Move::from_raw_unchecked(
                    base.wrapping_add(step.wrapping_mul(i)),
                ));
                p += 1;
            }
        }
        self.len = p;
    }

    /// Empties the list.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps only the moves for which `f` holds.
    pub fn retain(&mut self, mut f: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self[i];
            if f(m) {
                self.moves[j].write(m);
                j += 1;
            }
        }
        self.len = j;
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline(always)]
    fn deref(&self) -> &[Move] {
        let init = &self.moves[..self.len];
        // SAFETY: `moves[..len]` were all written: `len` only grows in
        // `push` and `push_each`, each time right after writing the slot it
        // grows over, and `retain` only shrinks it. `MaybeUninit<Move>` has
        // the layout of `Move`.
        unsafe { &*(init as *const [MaybeUninit<Move>] as *const [Move]) }
    }
}

impl DerefMut for MoveList {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [Move] {
        let init = &mut self.moves[..self.len];
        // SAFETY: as in `deref`: the first `len` entries are initialised.
        unsafe { &mut *(init as *mut [MaybeUninit<Move>] as *mut [Move]) }
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_sets_fill_up_to_the_capacity_and_no_further() {
        let mut list = MoveList::new();
        let drop = |to: u16| Move::from_raw_unchecked((80 + 1) << 7 | to);
        for i in 0..590 {
            list.push(drop(i % 81));
        }
        list.push_each(Bitboard::ALL, (80 + 1) << 7, 1);
        assert_eq!(list.len(), CAPACITY);
        assert!((0..590).all(|i| list[i] == drop(i as u16 % 81)));
        assert!((590..CAPACITY).all(|i| list[i] == drop(i as u16 - 590)));
        list.push_each(Bitboard::ALL, 0, 1);
        assert_eq!(list.len(), CAPACITY);
    }
}
