//! Evasions: the legal moves of a side in check. King moves to safe
//! squares; under a single check also captures of the checker and
//! interpositions by moving a piece or dropping one.

use crate::core::attacks;
use crate::core::{Bitboard, Move, PieceKind, Position, Square};

use super::MoveList;
use super::legal::{drop_ok, emit_piece, generate_drops, generate_piece_moves, pawn_files};
use super::sink::Sink;

/// Appends every legal move of the side to move, which must be in check.
pub fn generate_evasions(pos: &Position, list: &mut MoveList) {
    evasions(pos, list);
}

/// Every legal move of the side to move, which must be in check, into `s`.
#[inline(always)]
pub(super) fn evasions<S: Sink>(pos: &Position, s: &mut S) {
    debug_assert!(pos.in_check());
    let us = pos.side;
    let ok = pos.kings[us.index()].expect("in check means a king");
    for to in king_steps(pos, ok) {
        s.one(Move::new(ok, to, false));
    }
    if pos.checkers.more_than_one() {
        return;
    }
    let checker = pos.checkers.lsb_unchecked();
    let between = attacks::between(ok, checker);
    if between.is_nonempty() {
        generate_piece_moves(pos, between | pos.checkers, s);
        generate_drops(pos, between, s);
        return;
    }
    // A contact or knight check: only captures of the checker, by the
    // pieces attacking its square rather than by every piece.
    let pinned = pos.pinned();
    let king_bb = Bitboard::from_square(ok);
    for from in pos.attackers_to(us, checker, pos.occupied()) & !king_bb {
        if pinned.contains(from) && !attacks::aligned(from, checker, ok) {
            continue;
        }
        let kind = pos.board[from.index()].kind();
        emit_piece(s, kind, us, from, pos.checkers);
    }
}

/// The squares the king of the side to move, on `ok` and in check, may
/// step to: not its own pieces', attacked by none of the other side's with
/// the king gone from `ok` (a slider's line through it goes on).
#[inline(always)]
fn king_steps(pos: &Position, ok: Square) -> impl Iterator<Item = Square> {
    let us = pos.side;
    let occ = pos.occupied() ^ Bitboard::from_square(ok);
    let attackers = pos.attackers(!us);
    (attacks::king(ok) & !pos.by_color[us.index()])
        .into_iter()
        .filter(move |&to| !attackers.attack(to, occ))
}

/// The number of legal king moves of the side to move, which must be in
/// check: the king moves [`generate_evasions`] gives.
pub fn count_king_evasions(pos: &Position) -> u32 {
    pos.kings[pos.side.index()].map_or(0, |ok| king_steps(pos, ok).count() as u32)
}

/// Whether the side to move, which must be in check, has a legal move.
pub(crate) fn has_evasion(pos: &Position) -> bool {
    let us = pos.side;
    let them = !us;
    let Some(ok) = pos.kings[us.index()] else {
        return true;
    };
    if king_steps(pos, ok).next().is_some() {
        return true;
    }
    if pos.checkers.more_than_one() {
        return false;
    }
    let occ = pos.occupied();
    let checker = pos.checkers.lsb_unchecked();
    let between = attacks::between(ok, checker);
    let pinned = pos.pinned();
    let not_king = !Bitboard::from_square(ok);
    for to in between | pos.checkers {
        for from in pos.attackers_to(us, to, occ) & not_king {
            if !pinned.contains(from) || attacks::aligned(from, to, ok) {
                return true;
            }
        }
    }
    let hand = pos.hands[us.index()];
    if hand.is_empty() || between.is_empty() {
        return false;
    }
    for kind in PieceKind::HAND {
        if !hand.has(kind) {
            continue;
        }
        let mut t = between & drop_ok(kind, us);
        if kind == PieceKind::Pawn {
            t &= !pawn_files(pos, us);
            if let Some(tk) = pos.kings[them.index()] {
                let front = attacks::pawn(them, tk);
                if (t & front).is_nonempty() && pos.pawn_drop_mates(front.lsb_unchecked()) {
                    t &= !front;
                }
            }
        }
        if t.is_nonempty() {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Square;

    /// Every move `is_legal` accepts, by trying all encodings.
    fn brute_force(pos: &Position) -> Vec<Move> {
        let mut v = Vec::new();
        for to in Square::all() {
            for from in Square::all() {
                for promote in [false, true] {
                    let m = Move::new(from, to, promote);
                    if from != to && pos.is_legal(m).is_ok() {
                        v.push(m);
                    }
                }
            }
            for kind in PieceKind::HAND {
                let m = Move::new_drop(kind, to);
                if pos.is_legal(m).is_ok() {
                    v.push(m);
                }
            }
        }
        v.sort_unstable();
        v
    }

    #[test]
    fn evasions_are_the_legal_moves_in_check() {
        let sfens = [
            // Contact check by a gold; the silver that attacks it is pinned
            // by the rook on the rank, the bishop may capture it.
            "4k4/9/9/9/9/9/3B5/4g4/r2SK4 b - 1",
            // Knight check, captured by a gold, by a lance from afar.
            "4k4/9/9/9/9/9/3n5/2G6/3LK4 b - 1",
            // Distant check: interpositions by moves and drops.
            "4k4/4r4/9/9/9/9/9/1S7/4K4 b GP 1",
            // Double check: king moves only.
            "4k4/4r4/9/9/8b/9/9/9/4K4 b GSP 1",
        ];
        for sfen in sfens {
            let pos: Position = sfen.parse().unwrap();
            assert!(pos.in_check(), "{sfen}");
            let mut list = MoveList::new();
            generate_evasions(&pos, &mut list);
            let mut got = list.to_vec();
            got.sort_unstable();
            assert_eq!(got, brute_force(&pos), "{sfen}");
        }
    }
}
