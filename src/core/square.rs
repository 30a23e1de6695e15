//! Squares of the 9x9 board.
//!
//! Files are numbered 1 to 9 from Black's right to Black's left; ranks are
//! `a` (White's back rank, 一) to `i` (Black's back rank, 九), as in USI.
//! The index of a square is `(file - 1) * 9 + (rank - 1)`, so the nine
//! squares of a file are consecutive.
//!
//! ```
//! use tsume::core::Square;
//! let sq: Square = "7g".parse().unwrap();
//! assert_eq!((sq.file(), sq.rank()), (7, 7));
//! assert_eq!(sq.to_string(), "7g");
//! assert_eq!(sq.japanese(), "７七");
//! assert!("0a".parse::<Square>().is_err());
//! ```

use std::fmt;
use std::str::FromStr;

use super::Color;

/// One of the 81 squares.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// The full-width digits used for files in Japanese notation.
pub(crate) const FILE_JA: [&str; 9] = ["１", "２", "３", "４", "５", "６", "７", "８", "９"];
/// The kanji numerals used for ranks in Japanese notation.
pub(crate) const RANK_JA: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];

impl Square {
    /// Number of squares.
    pub const COUNT: usize = 81;

    /// The square with this index (0..81).
    ///
    /// # Panics
    /// When `index >= 81`.
    #[inline(always)]
    pub const fn new(index: u8) -> Square {
        assert!(index < 81);
        Square(index)
    }

    /// The square with this index, or `None` when out of range.
    #[inline(always)]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 81 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square at `file` (1..=9) and `rank` (1..=9), or `None`.
    #[inline(always)]
    pub const fn from_file_rank(file: u8, rank: u8) -> Option<Square> {
        if file >= 1 && file <= 9 && rank >= 1 && rank <= 9 {
            Some(Square((file - 1) * 9 + (rank - 1)))
        } else {
            None
        }
    }

    /// The index 0..81.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 1..=9.
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 / 9 + 1
    }

    /// The rank, 1..=9 (1 is `a`, White's back rank).
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 % 9 + 1
    }

    /// The rank as the player `color` sees it: 1 is the far rank.
    #[inline(always)]
    pub const fn relative_rank(self, color: Color) -> u8 {
        match color {
            Color::Black => self.rank(),
            Color::White => 10 - self.rank(),
        }
    }

    /// Whether the square is in the promotion zone of `color` (the three
    /// far ranks as `color` sees the board).
    #[inline(always)]
    pub const fn in_promotion_zone(self, color: Color) -> bool {
        self.relative_rank(color) <= 3
    }

    /// The same square seen from the other side (180° rotation).
    #[inline(always)]
    pub const fn flip(self) -> Square {
        Square(80 - self.0)
    }

    /// Every square, in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..81u8).map(Square)
    }

    /// Japanese coordinates, e.g. `７七`.
    pub fn japanese(self) -> String {
        format!(
            "{}{}",
            FILE_JA[self.file() as usize - 1],
            RANK_JA[self.rank() as usize - 1]
        )
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), (b'a' + self.rank() - 1) as char)
    }
}

/// A square name that is not a USI square such as `7g`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{}` is not a square (expected a file 1-9 and a rank a-i, such as `7g`)", crate::input::quote(.0))]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let b = s.as_bytes();
        if b.len() == 2 && (b'1'..=b'9').contains(&b[0]) && (b'a'..=b'i').contains(&b[1]) {
            Ok(Square((b[0] - b'1') * 9 + (b[1] - b'a')))
        } else {
            Err(ParseSquareError(s.to_string()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usi_round_trip_for_every_square() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            assert_eq!(Square::from_file_rank(sq.file(), sq.rank()), Some(sq));
        }
        assert!("1j".parse::<Square>().is_err());
        assert!("10a".parse::<Square>().is_err());
        assert!("".parse::<Square>().is_err());
    }

    #[test]
    fn promotion_zone_is_relative() {
        let s: Square = "5c".parse().unwrap();
        assert!(s.in_promotion_zone(Color::Black));
        assert!(!s.in_promotion_zone(Color::White));
        let s: Square = "5g".parse().unwrap();
        assert!(!s.in_promotion_zone(Color::Black));
        assert!(s.in_promotion_zone(Color::White));
    }
}
