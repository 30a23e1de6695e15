//! A set of squares: 81 bits of a `u128`, bit `i` for the square of index `i`.
//!
//! ```
//! use tsume::core::{Bitboard, Square};
//! let a: Square = "5e".parse().unwrap();
//! let bb = Bitboard::from_square(a) | Bitboard::file(1);
//! assert_eq!(bb.count(), 10);
//! assert!(bb.contains(a));
//! assert_eq!(bb.iter().next(), "1a".parse().ok());
//! ```

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::Square;

/// A set of squares.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub(crate) u128);

const ALL_BITS: u128 = (1u128 << 81) - 1;

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 81 squares.
    pub const ALL: Bitboard = Bitboard(ALL_BITS);

    /// The set holding only `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    /// The nine squares of `file` (1..=9).
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(0x1ffu128 << ((file as u32 - 1) * 9))
    }

    /// The nine squares of `rank` (1..=9).
    pub const fn rank(rank: u8) -> Bitboard {
        let mut bits = 0u128;
        let mut f = 0;
        while f < 9 {
            bits |= 1u128 << (f * 9 + rank as u32 - 1);
            f += 1;
        }
        Bitboard(bits)
    }

    /// The raw bits.
    #[inline(always)]
    pub const fn bits(self) -> u128 {
        self.0
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn is_nonempty(self) -> bool {
        self.0 != 0
    }

    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    #[inline(always)]
    pub fn set(&mut self, sq: Square) {
        self.0 |= 1u128 << sq.index();
    }

    #[inline(always)]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !(1u128 << sq.index());
    }

    #[inline(always)]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= 1u128 << sq.index();
    }

    /// Number of squares.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether more than one square is set.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The square of lowest index, if any.
    #[inline(always)]
    pub fn lsb(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new(lsb_index(self.0) as u8))
        }
    }

    /// The only square, or any one when several are set.
    #[inline(always)]
    pub fn lsb_unchecked(self) -> Square {
        debug_assert!(self.0 != 0);
        Square::new(lsb_index(self.0) as u8)
    }

    /// Removes and returns the square of lowest index.
    #[inline(always)]
    pub fn pop(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let i = lsb_index(self.0);
            self.0 &= self.0 - 1;
            Some(Square::new(i as u8))
        }
    }

    /// Iterates over the squares in index order.
    #[inline(always)]
    pub fn iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

#[inline(always)]
pub(crate) const fn lsb_index(x: u128) -> u32 {
    let lo = x as u64;
    if lo != 0 {
        lo.trailing_zeros()
    } else {
        64 + ((x >> 64) as u64).trailing_zeros()
    }
}

#[inline(always)]
pub(crate) const fn msb_index(x: u128) -> u32 {
    let hi = (x >> 64) as u64;
    if hi != 0 {
        127 - hi.leading_zeros()
    } else {
        63 - (x as u64).leading_zeros()
    }
}

/// Iterator over the squares of a [`Bitboard`].
pub struct BitboardIter(u128);

impl Iterator for BitboardIter {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let i = lsb_index(self.0);
            self.0 &= self.0 - 1;
            Some(Square::new(i as u8))
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;
    fn into_iter(self) -> BitboardIter {
        self.iter()
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for sq in iter {
            bb.set(sq);
        }
        bb
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & ALL_BITS)
    }
}

impl fmt::Debug for Bitboard {
    /// A 9x9 diagram as Black sees the board (file 9 on the left).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for rank in 1..=9 {
            for file in (1..=9).rev() {
                let sq = Square::from_file_rank(file, rank).unwrap();
                write!(f, "{}", if self.contains(sq) { 'x' } else { '.' })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
