//! A move in 16 bits, and its USI notation.
//!
//! Bits 0..7: destination; bits 7..14: origin square (0..81) or, for a
//! drop, `80 + kind` (pawn 81 .. gold 87); bit 14: promotion.
//!
//! ```
//! use tsume::core::{Move, PieceKind};
//! let m: Move = "7g7f".parse().unwrap();
//! assert_eq!(m.to_string(), "7g7f");
//! let d: Move = "P*5e".parse().unwrap();
//! assert_eq!(d.drop_kind(), Some(PieceKind::Pawn));
//! assert!("8h2b+".parse::<Move>().unwrap().is_promotion());
//! assert!("P*5e+".parse::<Move>().is_err());
//! ```

use std::fmt;
use std::str::FromStr;

use super::{PieceKind, Square};
use crate::input::quote;

/// A move: board move (with or without promotion) or drop.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

const PROMOTE: u16 = 1 << 14;

impl Move {
    /// A value that is no move (all bits zero: from 1a to 1a).
    pub const NONE: Move = Move(0);

    /// A board move.
    #[inline(always)]
    pub const fn new(from: Square, to: Square, promote: bool) -> Move {
        Move(to.index() as u16 | (from.index() as u16) << 7 | if promote { PROMOTE } else { 0 })
    }

    /// A drop of `kind` (a hand kind) on `to`.
    #[inline(always)]
    pub const fn new_drop(kind: PieceKind, to: Square) -> Move {
        Move(to.index() as u16 | (80 + kind as u16) << 7)
    }

    /// The move of a raw encoding the caller knows to be valid.
    #[inline(always)]
    pub(crate) const fn from_raw_unchecked(raw: u16) -> Move {
        debug_assert!((raw & 0x7f) < 81 && (raw >> 7) & 0x7f < 88 && raw >> 15 == 0);
        Move(raw)
    }

    /// The raw 16 bits.
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// The move with these raw bits, when they encode a move.
    pub fn from_raw(raw: u16) -> Option<Move> {
        let to = raw & 0x7f;
        let from = (raw >> 7) & 0x7f;
        let promote = raw & PROMOTE != 0;
        let ok = raw >> 15 == 0
            && to < 81
            && from < 88
            && (from < 81 || !promote)
            && (from >= 81 || from != to);
        if ok { Some(Move(raw)) } else { None }
    }

    /// The destination.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new((self.0 & 0x7f) as u8)
    }

    /// The origin, `None` for a drop.
    #[inline(always)]
    pub const fn from(self) -> Option<Square> {
        let f = (self.0 >> 7) & 0x7f;
        if f < 81 {
            Some(Square::new(f as u8))
        } else {
            None
        }
    }

    /// The origin of a board move (undefined for drops).
    #[inline(always)]
    pub(crate) const fn origin_unchecked(self) -> Square {
        Square::new(((self.0 >> 7) & 0x7f) as u8)
    }

    /// Whether this is a drop.
    #[inline(always)]
    pub const fn is_drop(self) -> bool {
        (self.0 >> 7) & 0x7f >= 81
    }

    /// The dropped kind, `None` for a board move.
    #[inline(always)]
    pub const fn drop_kind(self) -> Option<PieceKind> {
        let f = (self.0 >> 7) & 0x7f;
        if f >= 81 {
            PieceKind::from_u8((f - 80) as u8)
        } else {
            None
        }
    }

    /// Whether the moving piece promotes.
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & PROMOTE != 0
    }
}

impl fmt::Display for Move {
    /// USI notation: `7g7f`, `8h2b+`, `P*5e`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.drop_kind() {
            Some(k) => write!(f, "{}*{}", k.sfen_letter(), self.to()),
            None => write!(
                f,
                "{}{}{}",
                self.origin_unchecked(),
                self.to(),
                if self.is_promotion() { "+" } else { "" }
            ),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A string that is not a move in USI notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    #[error("empty move string")]
    Empty,
    #[error("`{}` is not a USI move: expected e.g. `7g7f`, `8h2b+` or `P*5e`", quote(.0))]
    Syntax(String),
    #[error("`{}`: `{}` cannot be dropped (only P, L, N, S, G, B, R)", quote(.0), quote(&.1.to_string()))]
    DropKind(String, char),
    #[error("`{}`: a piece does not move to the square it stands on", quote(.0))]
    NullMove(String),
}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let b = s.as_bytes();
        let syntax = || ParseMoveError::Syntax(crate::input::quote(s));
        if b.is_empty() {
            return Err(ParseMoveError::Empty);
        }
        if b.len() == 4 && b[1] == b'*' {
            let c = b[0] as char;
            let kind = match PieceKind::from_sfen_letter(c) {
                Some(k) if k.is_hand_kind() && c.is_ascii_uppercase() => k,
                _ if c.is_ascii_alphabetic() => {
                    return Err(ParseMoveError::DropKind(s.to_string(), c));
                }
                _ => return Err(syntax()),
            };
            let to: Square = s[2..4].parse().map_err(|_| syntax())?;
            return Ok(Move::new_drop(kind, to));
        }
        if (b.len() == 4 || (b.len() == 5 && b[4] == b'+')) && s.is_ascii() {
            let from: Square = s[0..2].parse().map_err(|_| syntax())?;
            let to: Square = s[2..4].parse().map_err(|_| syntax())?;
            if from == to {
                return Err(ParseMoveError::NullMove(s.to_string()));
            }
            return Ok(Move::new(from, to, b.len() == 5));
        }
        Err(syntax())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_of_every_encoding() {
        for raw in 0..=u16::MAX {
            if let Some(m) = Move::from_raw(raw) {
                assert_eq!(m.to_string().parse::<Move>(), Ok(m), "{raw}");
            }
        }
    }

    #[test]
    fn rejects_malformed_strings() {
        for s in [
            "", "7g", "7g7", "7g7f++", "7j7f", "0g7f", "K*5e", "+*5e", "P*5j", "7g7g", "p*5e",
            "７g7f",
        ] {
            assert!(s.parse::<Move>().is_err(), "{s}");
        }
    }
}
