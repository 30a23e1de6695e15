//! All legal moves, and the pieces shared by every generator: board moves
//! with their promotion options, drops with their restrictions.

use crate::core::attacks;
use crate::core::position::must_promote;
use crate::core::{Bitboard, Color, Move, PieceKind, Position, Square};

use super::MoveList;
use super::evasions::generate_evasions;

/// The promotion zone of each colour.
pub(super) const ZONE: [Bitboard; 2] = [
    Bitboard(Bitboard::rank(1).0 | Bitboard::rank(2).0 | Bitboard::rank(3).0),
    Bitboard(Bitboard::rank(7).0 | Bitboard::rank(8).0 | Bitboard::rank(9).0),
];

/// Squares where a pawn or lance of each colour may stand (not the last rank).
const PAWN_LANCE_OK: [Bitboard; 2] = [
    Bitboard(!Bitboard::rank(1).0 & Bitboard::ALL.0),
    Bitboard(!Bitboard::rank(9).0 & Bitboard::ALL.0),
];

/// Squares where a knight of each colour may stand (not the last two ranks).
const KNIGHT_OK: [Bitboard; 2] = [
    Bitboard(!(Bitboard::rank(1).0 | Bitboard::rank(2).0) & Bitboard::ALL.0),
    Bitboard(!(Bitboard::rank(9).0 | Bitboard::rank(8).0) & Bitboard::ALL.0),
];

/// Squares where a dropped piece of `kind` and colour `c` could still move.
#[inline(always)]
pub(super) fn drop_ok(kind: PieceKind, c: Color) -> Bitboard {
    match kind {
        PieceKind::Pawn | PieceKind::Lance => PAWN_LANCE_OK[c.index()],
        PieceKind::Knight => KNIGHT_OK[c.index()],
        _ => Bitboard::ALL,
    }
}

/// The files (as whole-file masks) holding an unpromoted pawn of `c`.
#[inline(always)]
pub(super) fn pawn_files(pos: &Position, c: Color) -> Bitboard {
    const HIGH: u128 = {
        let mut m = 0u128;
        let mut f = 0;
        while f < 9 {
            m |= 0x100 << (9 * f);
            f += 1;
        }
        m
    };
    const LOW: u128 = HIGH >> 8;
    let x = pos.pieces(c, PieceKind::Pawn).0;
    // Bit 8 of each file's group: set when any of its nine bits is.
    let nonzero = (((x & !HIGH) + (HIGH - LOW)) | x) & HIGH;
    Bitboard((nonzero << 1) - (nonzero >> 8))
}

/// Pushes a board move with every promotion choice the rules allow.
#[inline(always)]
pub(super) fn push_board_move(
    list: &mut MoveList,
    kind: PieceKind,
    us: Color,
    from: Square,
    to: Square,
) {
    if kind.can_promote() && (from.in_promotion_zone(us) || to.in_promotion_zone(us)) {
        list.push(Move::new(from, to, true));
        if !must_promote(kind, us, to) {
            list.push(Move::new(from, to, false));
        }
    } else {
        list.push(Move::new(from, to, false));
    }
}

/// Moves of the side to move's pieces other than the king to squares in
/// `target`, keeping pinned pieces on their line.
#[inline(always)]
pub(super) fn generate_piece_moves(pos: &Position, target: Bitboard, list: &mut MoveList) {
    let us = pos.side;
    let occ = pos.occupied();
    let pinned = pos.pinned();
    let ok = pos.kings[us.index()];
    let pawns = pos.pieces(us, PieceKind::Pawn);
    let pawn_to = match us {
        Color::Black => Bitboard(pawns.0 >> 1),
        Color::White => Bitboard(pawns.0 << 1),
    } & target;
    for to in pawn_to {
        let from = match us {
            Color::Black => Square::new(to.index() as u8 + 1),
            Color::White => Square::new(to.index() as u8 - 1),
        };
        if pinned.contains(from)
            && !attacks::aligned(from, to, ok.expect("a pinned piece has a king"))
        {
            continue;
        }
        push_board_move(list, PieceKind::Pawn, us, from, to);
    }
    let others = pos.by_color[us.index()] & !pawns & !pos.by_kind[PieceKind::King as usize];
    for from in others {
        let kind = pos.board[from.index()].kind();
        let mut t = attacks::piece(kind, us, from, occ) & target;
        if pinned.contains(from) {
            t &= attacks::line(from, ok.expect("a pinned piece has a king"));
        }
        for to in t {
            push_board_move(list, kind, us, from, to);
        }
    }
}

/// Drops of every kind in hand on the squares of `to_mask` (which must be
/// empty), with all four drop restrictions.
#[inline(always)]
pub(super) fn generate_drops(pos: &Position, to_mask: Bitboard, list: &mut MoveList) {
    let us = pos.side;
    let hand = pos.hands[us.index()];
    if hand.is_empty() || to_mask.is_empty() {
        return;
    }
    for kind in PieceKind::HAND {
        if !hand.has(kind) {
            continue;
        }
        let mut t = to_mask & drop_ok(kind, us);
        if kind == PieceKind::Pawn {
            t &= !pawn_files(pos, us);
            if let Some(tk) = pos.kings[(!us).index()] {
                let front = attacks::pawn(!us, tk);
                if (t & front).is_nonempty() && pos.pawn_drop_mates(front.lsb_unchecked()) {
                    t &= !front;
                }
            }
        }
        for to in t {
            list.push(Move::new_drop(kind, to));
        }
    }
}

/// King moves to squares not attacked by the opponent.
#[inline(always)]
fn generate_king_moves(pos: &Position, list: &mut MoveList) {
    let us = pos.side;
    let Some(ok) = pos.kings[us.index()] else {
        return;
    };
    let occ = pos.occupied() ^ Bitboard::from_square(ok);
    for to in attacks::king(ok) & !pos.by_color[us.index()] {
        if !pos.is_attacked(!us, to, occ) {
            list.push(Move::new(ok, to, false));
        }
    }
}

/// Appends every legal move of the side to move.
pub fn generate_legal(pos: &Position, list: &mut MoveList) {
    if pos.in_check() {
        generate_evasions(pos, list);
        return;
    }
    let target = !pos.by_color[pos.side.index()];
    generate_piece_moves(pos, target, list);
    generate_king_moves(pos, list);
    generate_drops(pos, !pos.occupied(), list);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pawn_files_fills_whole_files() {
        let pos: Position = "4k4/9/9/9/9/9/P7P/4P4/9 b - 1".parse().unwrap();
        let f = pawn_files(&pos, Color::Black);
        assert_eq!(f, Bitboard::file(1) | Bitboard::file(5) | Bitboard::file(9));
        let pos: Position = "4k4/9/9/9/9/9/9/9/P7P w - 1".parse().unwrap();
        assert_eq!(
            pawn_files(&pos, Color::Black),
            Bitboard::file(1) | Bitboard::file(9)
        );
        assert!(pawn_files(&pos, Color::White).is_empty());
    }
}
