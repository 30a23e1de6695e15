//! The two players.
//!
//! ```
//! use tsume::core::Color;
//! assert_eq!(!Color::Black, Color::White);
//! assert_eq!(Color::White.to_string(), "w");
//! ```

use std::fmt;
use std::ops::Not;

/// A player: Black (先手, sente, moves first, at the bottom of a diagram) or
/// White (後手, gote).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// 0 for Black, 1 for White.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other player.
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The SFEN letter: `b` or `w`.
    pub const fn sfen_char(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }

    /// The mark used in Japanese move notation: ▲ for Black, △ for White.
    pub const fn japanese_mark(self) -> char {
        match self {
            Color::Black => '▲',
            Color::White => '△',
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.flip()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.sfen_char())
    }
}
