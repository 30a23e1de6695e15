//! Pieces in hand (持駒), packed in one `u32`.
//!
//! Each of the seven kinds has its own bit field with a spare bit above it,
//! so that "hand `a` holds at least as many of every kind as hand `b`" is
//! one subtraction and one mask: the test the solver's hand dominance needs.
//!
//! ```
//! use tsume::core::{Hand, PieceKind};
//! let mut a = Hand::EMPTY;
//! a.add(PieceKind::Pawn);
//! a.add(PieceKind::Rook);
//! let mut b = Hand::EMPTY;
//! b.add(PieceKind::Rook);
//! assert!(a.dominates(b));
//! assert!(!b.dominates(a));
//! assert_eq!(a.count(PieceKind::Pawn), 1);
//! ```

use std::fmt;

use super::PieceKind;

/// A player's pieces in hand.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Hand(u32);

/// Bit offset of each hand kind's field, indexed by `PieceKind as usize`
/// (pawn 1 .. gold 7); index 0 unused.
const SHIFT: [u32; 8] = [0, 0, 8, 12, 16, 24, 28, 20];
/// Field mask (before shifting) of each hand kind.
const MASK: [u32; 8] = [0, 0x1f, 0x7, 0x7, 0x7, 0x3, 0x3, 0x7];
/// The spare bit above each field: set after a subtraction when a field
/// went below zero.
const BORROW: u32 =
    (1 << 5) | (1 << 11) | (1 << 15) | (1 << 19) | (1 << 23) | (1 << 26) | (1 << 30);
/// The number of pieces of each hand kind in a full set.
pub(crate) const MAX_COUNT: [u8; 8] = [0, 18, 4, 4, 4, 2, 2, 4];

impl Hand {
    /// No pieces.
    pub const EMPTY: Hand = Hand(0);

    /// The raw packed value (for hashing and tables).
    #[inline(always)]
    pub const fn raw(self) -> u32 {
        self.0
    }

    /// The hand with these packed bits, as [`Hand::raw`] gave them.
    #[inline(always)]
    pub(crate) const fn from_raw(raw: u32) -> Hand {
        Hand(raw)
    }

    /// How many pieces of `kind` (a hand kind) the hand holds.
    #[inline(always)]
    pub const fn count(self, kind: PieceKind) -> u32 {
        let k = kind as usize;
        (self.0 >> SHIFT[k]) & MASK[k]
    }

    /// Whether the hand holds at least one `kind`.
    #[inline(always)]
    pub const fn has(self, kind: PieceKind) -> bool {
        let k = kind as usize;
        self.0 & (MASK[k] << SHIFT[k]) != 0
    }

    /// Adds one piece of `kind` (a hand kind).
    #[inline(always)]
    pub fn add(&mut self, kind: PieceKind) {
        debug_assert!(kind.is_hand_kind());
        self.0 += 1 << SHIFT[kind as usize];
    }

    /// Removes one piece of `kind`; the hand must hold one.
    #[inline(always)]
    pub fn remove(&mut self, kind: PieceKind) {
        debug_assert!(self.has(kind));
        self.0 -= 1 << SHIFT[kind as usize];
    }

    /// Sets the count of `kind`. Counts above a full set are clamped to the
    /// field size; callers validate before.
    pub fn set(&mut self, kind: PieceKind, n: u32) {
        let k = kind as usize;
        self.0 = (self.0 & !(MASK[k] << SHIFT[k])) | ((n & MASK[k]) << SHIFT[k]);
    }

    /// Whether the hand is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether this hand holds at least as many of every kind as `other`.
    #[inline(always)]
    pub const fn dominates(self, other: Hand) -> bool {
        self.0.wrapping_sub(other.0) & BORROW == 0
    }

    /// Total number of pieces held.
    pub fn total(self) -> u32 {
        PieceKind::HAND.iter().map(|&k| self.count(k)).sum()
    }

    /// The kinds held at least once, with their counts, in SFEN order.
    pub fn iter(self) -> impl Iterator<Item = (PieceKind, u32)> {
        PieceKind::HAND_SFEN_ORDER
            .into_iter()
            .map(move |k| (k, self.count(k)))
            .filter(|&(_, n)| n > 0)
    }

    /// Field-wise minimum.
    pub fn min(self, other: Hand) -> Hand {
        let mut h = Hand::EMPTY;
        for k in PieceKind::HAND {
            h.set(k, self.count(k).min(other.count(k)));
        }
        h
    }

    /// Field-wise maximum.
    pub fn max(self, other: Hand) -> Hand {
        let mut h = Hand::EMPTY;
        for k in PieceKind::HAND {
            h.set(k, self.count(k).max(other.count(k)));
        }
        h
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hand(")?;
        for (k, n) in self.iter() {
            if n > 1 {
                write!(f, "{n}")?;
            }
            write!(f, "{}", k.sfen_letter())?;
        }
        write!(f, ")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_counts_fit() {
        let mut h = Hand::EMPTY;
        for k in PieceKind::HAND {
            for _ in 0..MAX_COUNT[k as usize] {
                h.add(k);
            }
        }
        for k in PieceKind::HAND {
            assert_eq!(h.count(k), MAX_COUNT[k as usize] as u32);
        }
        assert_eq!(h.total(), 38);
        assert!(h.dominates(Hand::EMPTY));
        assert!(h.dominates(h));
    }

    #[test]
    fn dominance_is_field_wise() {
        for k in PieceKind::HAND {
            for j in PieceKind::HAND {
                let mut a = Hand::EMPTY;
                a.add(k);
                let mut b = Hand::EMPTY;
                b.add(j);
                assert_eq!(a.dominates(b), k == j, "{k:?} {j:?}");
            }
        }
        let mut a = Hand::EMPTY;
        a.set(PieceKind::Pawn, 18);
        let mut b = Hand::EMPTY;
        b.set(PieceKind::Pawn, 3);
        b.add(PieceKind::Lance);
        assert!(!a.dominates(b));
        a.add(PieceKind::Lance);
        assert!(a.dominates(b));
    }
}
