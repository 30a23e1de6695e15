//! 入玉 (entering king): the piece points of an impasse (持将棋) and the
//! 27-point declaration rule (入玉宣言法).
//!
//! When both kings have entered the opponent's camp they can rarely be
//! mated, and the game is decided by counting pieces. Two rules are in use:
//!
//! * **Impasse (持将棋), the professional rule** of the Japan Shogi
//!   Association: when both kings are in the opponent's camp and the players
//!   agree that neither can be mated, each side counts its pieces on the
//!   board and in hand: rook and bishop (promoted or not) 5 points, every
//!   other piece 1, the king nothing. A side with fewer than 24 points
//!   loses; otherwise the game is a draw. Some texts of the rule say 27
//!   instead of 24, so the threshold is a parameter
//!   ([`IMPASSE_THRESHOLD`] is 24). In a handicap game the pieces the
//!   stronger player removed are counted as his ([`handicap_points`]).
//!   [`points`] counts; [`Game::impasse`](super::game::Game::impasse) judges.
//! * **Declaration (宣言法), the 27-point rule** of amateur tournaments and
//!   of computer shogi (the CSA protocol's `%KACHI`): the side to move may
//!   declare a win, without moving, when (a) its king is in the opponent's
//!   camp (the three far ranks), (b) it is not in check, (c) at least 10 of
//!   its other pieces are in that camp, and (d) its pieces in that camp
//!   (king excluded) and in hand are worth at least 28 points for Black
//!   (sente) or 27 for White (gote), with the same 5/1 points. A
//!   declaration that does not meet them all loses. (The rule also asks for
//!   time left on the clock; there is no clock here.) [`declaration`] tests
//!   the conditions; [`Game::declare`](super::game::Game::declare) declares.
//!
//! Sources: the JSA's rules for 持将棋 (24 points, the handicap count); the
//! JSA amateur and CSA tournament rules for 入玉宣言 (28/27 points, 10
//! pieces). The full set is worth 54 points, so under the 24-point rule
//! both sides can have enough, and under the 27-point declaration a side
//! needs half the set.
//!
//! ```
//! use tsume::core::{Color, Position, impasse};
//!
//! // Black's king on 5b with ten pieces in White's camp; 28 points in all.
//! let pos: Position = "+R+B7/4K4/GGGGSSSS1/9/9/9/9/9/4k4 b 4N4L2Prb16p 1".parse().unwrap();
//! assert_eq!(impasse::points(&pos, Color::Black), 28);
//! let d = impasse::declaration(&pos).unwrap();
//! assert_eq!((d.points, d.pieces), (28, 10));
//!
//! // One point fewer is not enough for Black (White would need only 27).
//! let pos: Position = "+R+B7/4K4/GGGGSSSS1/9/9/9/9/9/4k4 b 4N4LPrb17p 1".parse().unwrap();
//! assert_eq!(
//!     impasse::declaration(&pos),
//!     Err(impasse::DeclarationFault::TooFewPoints { points: 27, needed: 28 })
//! );
//! ```

use super::handicap::Handicap;
use super::{Color, PieceKind, Position};

/// The default threshold of the impasse rule: a side with fewer points
/// loses.
pub const IMPASSE_THRESHOLD: u32 = 24;

/// The points a declaration needs, indexed by colour: 28 for Black, 27 for
/// White.
pub const DECLARATION_POINTS: [u32; 2] = [28, 27];

/// The number of pieces other than the king a declaring side needs in the
/// opponent's camp.
pub const DECLARATION_PIECES: u32 = 10;

/// The points of a full set of pieces (two rooks and two bishops at 5, 34
/// other pieces at 1; kings nothing).
pub const FULL_SET_POINTS: u32 = 54;

/// The points of a piece of `kind`: 5 for rook, bishop, dragon and horse,
/// 0 for the king, 1 for the others (promotion does not count).
pub const fn piece_points(kind: PieceKind) -> u32 {
    match kind.unpromoted() {
        PieceKind::Rook | PieceKind::Bishop => 5,
        PieceKind::King => 0,
        _ => 1,
    }
}

/// `color`'s points on the whole board and in hand (the impasse count).
pub fn points(pos: &Position, color: Color) -> u32 {
    let board: u32 = pos
        .pieces_of(color)
        .into_iter()
        .filter_map(|sq| pos.piece_at(sq))
        .map(|p| piece_points(p.kind()))
        .sum();
    board + hand_points(pos, color)
}

/// The points of `color`'s pieces in hand.
fn hand_points(pos: &Position, color: Color) -> u32 {
    pos.hand(color)
        .iter()
        .map(|(k, n)| piece_points(k) * n)
        .sum()
}

/// The points of the pieces a handicap set-up removes: in an impasse they
/// count for the stronger player (White). 0 for the even game.
pub fn handicap_points(h: Handicap) -> u32 {
    let pos = h.position();
    FULL_SET_POINTS.saturating_sub(points(&pos, Color::Black) + points(&pos, Color::White))
}

/// Whether `color`'s king stands in the opponent's camp (the three far
/// ranks as `color` sees the board). `false` without a king.
pub fn king_entered(pos: &Position, color: Color) -> bool {
    pos.king_square(color)
        .is_some_and(|k| k.in_promotion_zone(color))
}

/// A declaration that meets the 27-point rule: what the declaring side
/// counted.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Declaration {
    /// Points of the pieces in the opponent's camp (king excluded) and in
    /// hand.
    pub points: u32,
    /// Pieces other than the king in the opponent's camp.
    pub pieces: u32,
}

/// Why a declaration fails (the first condition not met, in the order
/// king, check, pieces, points).
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeclarationFault {
    #[error("the declaring side has no king")]
    NoKing,
    #[error("the king is not in the opponent's camp")]
    KingNotEntered,
    #[error("the king is in check")]
    InCheck,
    #[error(
        "{pieces} pieces besides the king in the opponent's camp, {} needed",
        DECLARATION_PIECES
    )]
    TooFewPieces { pieces: u32 },
    #[error("{points} points, {needed} needed")]
    TooFewPoints { points: u32, needed: u32 },
}

impl DeclarationFault {
    /// A short Japanese description.
    pub fn japanese(self) -> &'static str {
        match self {
            DeclarationFault::NoKing => "玉がない",
            DeclarationFault::KingNotEntered => "玉が敵陣にない",
            DeclarationFault::InCheck => "王手がかかっている",
            DeclarationFault::TooFewPieces { .. } => "敵陣の駒が10枚未満",
            DeclarationFault::TooFewPoints { .. } => "点数不足",
        }
    }
}

/// Whether the side to move may declare a win under the 27-point rule
/// (see the module documentation); the count when it may, the first
/// condition it misses when not.
pub fn declaration(pos: &Position) -> Result<Declaration, DeclarationFault> {
    let us = pos.side_to_move();
    if pos.king_square(us).is_none() {
        return Err(DeclarationFault::NoKing);
    }
    if !king_entered(pos, us) {
        return Err(DeclarationFault::KingNotEntered);
    }
    if pos.in_check() {
        return Err(DeclarationFault::InCheck);
    }
    let mut pieces = 0;
    let mut points = hand_points(pos, us);
    for sq in pos.pieces_of(us) {
        if let Some(p) = pos.piece_at(sq)
            && p.kind() != PieceKind::King
            && sq.in_promotion_zone(us)
        {
            pieces += 1;
            points += piece_points(p.kind());
        }
    }
    if pieces < DECLARATION_PIECES {
        return Err(DeclarationFault::TooFewPieces { pieces });
    }
    let needed = DECLARATION_POINTS[us.index()];
    if points < needed {
        return Err(DeclarationFault::TooFewPoints { points, needed });
    }
    Ok(Declaration { points, pieces })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_set_is_worth_54_points() {
        let pos = Position::startpos();
        assert_eq!(points(&pos, Color::Black), 27);
        assert_eq!(points(&pos, Color::White), 27);
        assert_eq!(handicap_points(Handicap::Even), 0);
    }

    #[test]
    fn handicaps_give_white_the_points_of_the_removed_pieces() {
        // Counted by hand from the list of removed pieces.
        let expected = [
            (Handicap::Lance, 1),
            (Handicap::RightLance, 1),
            (Handicap::Bishop, 5),
            (Handicap::Rook, 5),
            (Handicap::RookLance, 6),
            (Handicap::TwoPieces, 10),
            (Handicap::ThreePieces, 11),
            (Handicap::FourPieces, 12),
            (Handicap::SixPieces, 14),
            (Handicap::EightPieces, 16),
            (Handicap::TenPieces, 18),
            // Everything but the king and three pawns: 27 - 3.
            (Handicap::ThreePawns, 24),
        ];
        for (h, n) in expected {
            assert_eq!(handicap_points(h), n, "{h}");
        }
    }

    #[test]
    fn promoted_pieces_count_as_unpromoted() {
        assert_eq!(piece_points(PieceKind::Dragon), 5);
        assert_eq!(piece_points(PieceKind::Horse), 5);
        assert_eq!(piece_points(PieceKind::ProPawn), 1);
        assert_eq!(piece_points(PieceKind::King), 0);
        let pos: Position = "4k4/9/9/9/9/9/9/+R+B+P6/4K4 b - 1".parse().unwrap();
        assert_eq!(points(&pos, Color::Black), 11);
        assert_eq!(points(&pos, Color::White), 0);
    }
}
