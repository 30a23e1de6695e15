//! Piece kinds (eight basic, six promoted) and coloured pieces.
//!
//! ```
//! use tsume::core::{Color, Piece, PieceKind};
//! assert_eq!(PieceKind::Silver.promoted(), Some(PieceKind::ProSilver));
//! assert_eq!(PieceKind::Horse.unpromoted(), PieceKind::Bishop);
//! let p = Piece::from_sfen_char('r', true).unwrap();
//! assert_eq!((p.color(), p.kind()), (Color::White, PieceKind::Dragon));
//! assert_eq!(p.to_string(), "+r");
//! ```

use std::fmt;

use super::Color;

/// The kind of a piece. The numbering is fixed: the promoted kind of a
/// promotable kind `k` (pawn to rook, 1..=6) is `k + 8`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    Pawn = 1,
    Lance = 2,
    Knight = 3,
    Silver = 4,
    Bishop = 5,
    Rook = 6,
    Gold = 7,
    King = 8,
    ProPawn = 9,
    ProLance = 10,
    ProKnight = 11,
    ProSilver = 12,
    Horse = 13,
    Dragon = 14,
}

use PieceKind::*;

impl PieceKind {
    /// All fourteen kinds in numbering order.
    pub const ALL: [PieceKind; 14] = [
        Pawn, Lance, Knight, Silver, Bishop, Rook, Gold, King, ProPawn, ProLance, ProKnight,
        ProSilver, Horse, Dragon,
    ];

    /// The seven kinds a hand can hold, in the order SFEN writes them
    /// (rook first).
    pub const HAND_SFEN_ORDER: [PieceKind; 7] = [Rook, Bishop, Gold, Silver, Knight, Lance, Pawn];

    /// The seven kinds a hand can hold, in numbering order.
    pub const HAND: [PieceKind; 7] = [Pawn, Lance, Knight, Silver, Bishop, Rook, Gold];

    /// The kind with this number (1..=14).
    #[inline(always)]
    pub const fn from_u8(v: u8) -> Option<PieceKind> {
        if v >= 1 && v <= 14 {
            Some(Self::ALL[v as usize - 1])
        } else {
            None
        }
    }

    /// The number of this kind (1..=14).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether pieces of this kind may promote.
    #[inline(always)]
    pub const fn can_promote(self) -> bool {
        (self as u8) <= 6
    }

    /// Whether this is a promoted kind.
    #[inline(always)]
    pub const fn is_promoted(self) -> bool {
        (self as u8) >= 9
    }

    /// The promoted kind, or `None` for gold, king and promoted kinds.
    #[inline(always)]
    pub const fn promoted(self) -> Option<PieceKind> {
        if self.can_promote() {
            PieceKind::from_u8(self as u8 + 8)
        } else {
            None
        }
    }

    /// The kind before promotion (the kind itself when not promoted).
    #[inline(always)]
    pub const fn unpromoted(self) -> PieceKind {
        if self.is_promoted() {
            match PieceKind::from_u8(self as u8 - 8) {
                Some(k) => k,
                None => self,
            }
        } else {
            self
        }
    }

    /// Whether a piece of this kind can be held in hand.
    #[inline(always)]
    pub const fn is_hand_kind(self) -> bool {
        (self as u8) <= 7
    }

    /// Whether it moves like a gold (gold and the four promoted minor pieces).
    #[inline(always)]
    pub const fn moves_like_gold(self) -> bool {
        matches!(self, Gold | ProPawn | ProLance | ProKnight | ProSilver)
    }

    /// The upper-case SFEN letter of the unpromoted kind.
    pub const fn sfen_letter(self) -> char {
        match self.unpromoted() {
            Pawn => 'P',
            Lance => 'L',
            Knight => 'N',
            Silver => 'S',
            Gold => 'G',
            Bishop => 'B',
            Rook => 'R',
            _ => 'K',
        }
    }

    /// The kind for an SFEN letter (either case), unpromoted.
    pub const fn from_sfen_letter(c: char) -> Option<PieceKind> {
        match c.to_ascii_uppercase() {
            'P' => Some(Pawn),
            'L' => Some(Lance),
            'N' => Some(Knight),
            'S' => Some(Silver),
            'G' => Some(Gold),
            'B' => Some(Bishop),
            'R' => Some(Rook),
            'K' => Some(King),
            _ => None,
        }
    }

    /// The usual one- or two-character Japanese name (歩, 成銀, 龍, ...).
    /// The king is written 玉.
    pub const fn japanese(self) -> &'static str {
        match self {
            Pawn => "歩",
            Lance => "香",
            Knight => "桂",
            Silver => "銀",
            Gold => "金",
            Bishop => "角",
            Rook => "飛",
            King => "玉",
            ProPawn => "と",
            ProLance => "成香",
            ProKnight => "成桂",
            ProSilver => "成銀",
            Horse => "馬",
            Dragon => "龍",
        }
    }

    /// The one-character Japanese name used in board diagrams (杏, 圭, 全
    /// for the promoted lance, knight and silver).
    pub const fn japanese_short(self) -> &'static str {
        match self {
            ProLance => "杏",
            ProKnight => "圭",
            ProSilver => "全",
            k => k.japanese(),
        }
    }
}

/// A piece of one colour: `kind | color << 4` in one byte; 0 is no piece.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece(u8);

impl Piece {
    /// The empty marker used inside the board array.
    pub(crate) const EMPTY: Piece = Piece(0);

    /// The piece of `color` and `kind`.
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece(kind as u8 | (color as u8) << 4)
    }

    #[inline(always)]
    pub(crate) const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The raw byte (0..32), for table indexing.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The colour.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 & 16 == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The kind.
    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        match PieceKind::from_u8(self.0 & 15) {
            Some(k) => k,
            None => panic!("kind() of an empty square"),
        }
    }

    /// The piece from an SFEN letter (upper case Black, lower case White),
    /// promoted when `promoted` is set. `None` for an unknown letter or a
    /// kind that cannot promote.
    pub const fn from_sfen_char(c: char, promoted: bool) -> Option<Piece> {
        let color = if c.is_ascii_lowercase() {
            Color::White
        } else {
            Color::Black
        };
        match PieceKind::from_sfen_letter(c) {
            Some(k) if !promoted => Some(Piece::new(color, k)),
            Some(k) => match k.promoted() {
                Some(p) => Some(Piece::new(color, p)),
                None => None,
            },
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    /// The SFEN form: `P`, `+r`, ...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return write!(f, ".");
        }
        let k = self.kind();
        let c = match self.color() {
            Color::Black => k.sfen_letter(),
            Color::White => k.sfen_letter().to_ascii_lowercase(),
        };
        if k.is_promoted() {
            write!(f, "+{c}")
        } else {
            write!(f, "{c}")
        }
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn promotion_pairs() {
        for k in PieceKind::ALL {
            if let Some(p) = k.promoted() {
                assert!(p.is_promoted());
                assert_eq!(p.unpromoted(), k);
            } else {
                assert!(matches!(k, Gold | King) || k.is_promoted());
            }
        }
    }

    #[test]
    fn sfen_letters_round_trip() {
        for c in Color::ALL {
            for k in PieceKind::ALL {
                let p = Piece::new(c, k);
                assert_eq!((p.color(), p.kind()), (c, k));
                let s = p.to_string();
                let (promo, letter) = match s.strip_prefix('+') {
                    Some(rest) => (true, rest.chars().next().unwrap()),
                    None => (false, s.chars().next().unwrap()),
                };
                assert_eq!(Piece::from_sfen_char(letter, promo), Some(p));
            }
        }
        assert_eq!(Piece::from_sfen_char('G', true), None);
        assert_eq!(Piece::from_sfen_char('x', false), None);
    }
}
