//! A fixed-capacity list of moves on the stack.

use std::ops::{Deref, DerefMut};

use crate::core::Move;

/// More than the largest number of legal moves in any shogi position (593).
const CAPACITY: usize = 600;

/// A list of at most 600 moves, kept on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; CAPACITY],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::NONE; CAPACITY],
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
            self.moves[self.len] = m;
            self.len += 1;
        }
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
            if f(self.moves[i]) {
                self.moves[j] = self.moves[i];
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
        &self.moves[..self.len]
    }
}

impl DerefMut for MoveList {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
