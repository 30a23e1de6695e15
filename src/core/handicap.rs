//! Handicap set-ups (駒落ち): the start positions of handicap games.
//!
//! In a handicap game the stronger player, 上手 (White, at the top of the
//! board), removes pieces from the initial position and moves first. "Left"
//! and "right" are as 上手 sees the board: 香落ち removes the lance on 1a,
//! 右香落ち the one on 9a. 歩三兵 is the extreme case: 上手 keeps only the
//! king, with three pawns in hand.
//!
//! The names are those of the 手合割 header of KIF records, and
//! [`Handicap::from_str`](std::str::FromStr) reads them (also without the
//! okurigana: `香落`, `飛落`).
//!
//! ```
//! use tsume::core::{Color, handicap::Handicap};
//!
//! let h: Handicap = "二枚落ち".parse().unwrap();
//! assert_eq!(h, Handicap::TwoPieces);
//! let pos = h.position();
//! assert_eq!(pos.side_to_move(), Color::White);
//! assert_eq!(pos.to_string(), "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
//! assert_eq!(h.to_string(), "二枚落ち");
//! ```

use std::fmt;
use std::str::FromStr;

use super::Position;

/// A start position: the even game or one of the usual handicaps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Handicap {
    /// 平手: no handicap; Black moves first.
    Even,
    /// 香落ち: 上手's left lance (1a).
    Lance,
    /// 右香落ち: 上手's right lance (9a).
    RightLance,
    /// 角落ち: the bishop.
    Bishop,
    /// 飛車落ち: the rook.
    Rook,
    /// 飛香落ち: the rook and the left lance.
    RookLance,
    /// 二枚落ち: rook and bishop.
    TwoPieces,
    /// 三枚落ち: rook, bishop and the left lance.
    ThreePieces,
    /// 四枚落ち: rook, bishop and both lances.
    FourPieces,
    /// 六枚落ち: rook, bishop, both lances and both knights.
    SixPieces,
    /// 八枚落ち: rook, bishop, lances, knights and silvers.
    EightPieces,
    /// 十枚落ち: rook, bishop, lances, knights, silvers and golds: the king
    /// and the nine pawns remain.
    TenPieces,
    /// 歩三兵: the king alone on the board, three pawns in hand.
    ThreePawns,
}

impl Handicap {
    /// Every set-up, the even game first.
    pub const ALL: [Handicap; 13] = [
        Handicap::Even,
        Handicap::Lance,
        Handicap::RightLance,
        Handicap::Bishop,
        Handicap::Rook,
        Handicap::RookLance,
        Handicap::TwoPieces,
        Handicap::ThreePieces,
        Handicap::FourPieces,
        Handicap::SixPieces,
        Handicap::EightPieces,
        Handicap::TenPieces,
        Handicap::ThreePawns,
    ];

    /// The SFEN of the start position.
    pub fn sfen(self) -> &'static str {
        match self {
            Handicap::Even => super::sfen::STARTPOS,
            Handicap::Lance => "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::RightLance => {
                "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
            }
            Handicap::Bishop => "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::Rook => "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::RookLance => "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::TwoPieces => "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::ThreePieces => "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::FourPieces => "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::SixPieces => "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::EightPieces => "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::TenPieces => "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::ThreePawns => "4k4/9/9/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w 3p 1",
        }
    }

    /// The start position.
    pub fn position(self) -> Position {
        self.sfen()
            .parse()
            .expect("the handicap SFENs are valid (tested)")
    }

    /// The name used in the 手合割 header of KIF records.
    pub fn japanese(self) -> &'static str {
        match self {
            Handicap::Even => "平手",
            Handicap::Lance => "香落ち",
            Handicap::RightLance => "右香落ち",
            Handicap::Bishop => "角落ち",
            Handicap::Rook => "飛車落ち",
            Handicap::RookLance => "飛香落ち",
            Handicap::TwoPieces => "二枚落ち",
            Handicap::ThreePieces => "三枚落ち",
            Handicap::FourPieces => "四枚落ち",
            Handicap::SixPieces => "六枚落ち",
            Handicap::EightPieces => "八枚落ち",
            Handicap::TenPieces => "十枚落ち",
            Handicap::ThreePawns => "歩三兵",
        }
    }

    /// The set-up whose start position this is, if any.
    pub fn of_position(pos: &Position) -> Option<Handicap> {
        let sfen = pos.to_string();
        Handicap::ALL.into_iter().find(|h| h.sfen() == sfen)
    }
}

impl fmt::Display for Handicap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.japanese())
    }
}

/// A name that is not a handicap this crate knows.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown handicap {0:?} (known: 平手, 香落ち, 右香落ち, 角落ち, 飛車落ち, 飛香落ち, 二枚落ち, 三枚落ち, 四枚落ち, 六枚落ち, 八枚落ち, 十枚落ち, 歩三兵)"
)]
pub struct UnknownHandicap(pub String);

impl FromStr for Handicap {
    type Err = UnknownHandicap;

    fn from_str(s: &str) -> Result<Handicap, UnknownHandicap> {
        let name = s.trim();
        // 落ち and 落 are both written; 飛落 is short for 飛車落.
        let stem = name.strip_suffix("ち").unwrap_or(name);
        let stem = stem.strip_suffix('落').unwrap_or(stem);
        let found = match stem {
            "平手" => Handicap::Even,
            "香" | "左香" => Handicap::Lance,
            "右香" => Handicap::RightLance,
            "角" => Handicap::Bishop,
            "飛" | "飛車" => Handicap::Rook,
            "飛香" | "飛車香" => Handicap::RookLance,
            "二枚" => Handicap::TwoPieces,
            "三枚" => Handicap::ThreePieces,
            "四枚" => Handicap::FourPieces,
            "六枚" => Handicap::SixPieces,
            "八枚" => Handicap::EightPieces,
            "十枚" => Handicap::TenPieces,
            "歩三兵" => Handicap::ThreePawns,
            _ => return Err(UnknownHandicap(crate::input::quote(name))),
        };
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Color, PieceKind};

    /// Counts 上手's pieces of one kind on the board.
    fn white_count(pos: &Position, kind: PieceKind) -> u32 {
        pos.pieces(Color::White, kind).count()
    }

    #[test]
    fn each_setup_removes_its_pieces_and_white_moves_first() {
        let even = Handicap::Even.position();
        assert_eq!(even.side_to_move(), Color::Black);
        for h in Handicap::ALL {
            let pos = h.position();
            // Black's side is never touched.
            assert_eq!(
                pos.pieces_of(Color::Black),
                even.pieces_of(Color::Black),
                "{h}"
            );
            if h != Handicap::Even {
                assert_eq!(pos.side_to_move(), Color::White, "{h}");
            }
            assert_eq!(Handicap::of_position(&pos), Some(h));
            assert_eq!(h.japanese().parse::<Handicap>(), Ok(h));
        }
        let removed = |h: Handicap| {
            even.pieces_of(Color::White).count() - h.position().pieces_of(Color::White).count()
        };
        assert_eq!(removed(Handicap::Lance), 1);
        assert_eq!(removed(Handicap::RookLance), 2);
        assert_eq!(removed(Handicap::FourPieces), 4);
        assert_eq!(removed(Handicap::SixPieces), 6);
        assert_eq!(removed(Handicap::TenPieces), 10);
        assert_eq!(
            white_count(&Handicap::Bishop.position(), PieceKind::Bishop),
            0
        );
        assert_eq!(
            white_count(&Handicap::Bishop.position(), PieceKind::Rook),
            1
        );
        assert_eq!(white_count(&Handicap::Rook.position(), PieceKind::Rook), 0);
        let pawns = Handicap::ThreePawns.position();
        assert_eq!(pawns.pieces_of(Color::White).count(), 1);
        assert_eq!(pawns.hand(Color::White).count(PieceKind::Pawn), 3);
    }

    #[test]
    fn short_names_and_unknown_names() {
        assert_eq!("香落".parse(), Ok(Handicap::Lance));
        assert_eq!("飛落ち".parse(), Ok(Handicap::Rook));
        assert_eq!(" 飛香落ち ".parse(), Ok(Handicap::RookLance));
        let err = "五枚落ち".parse::<Handicap>().unwrap_err();
        assert!(err.to_string().contains("五枚落ち"), "{err}");
    }
}
