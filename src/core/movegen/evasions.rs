//! Evasions: the legal moves of a side in check. King moves to safe
//! squares; under a single check also captures of the checker and
//! interpositions by moving a piece or dropping one.

use crate::core::attacks;
use crate::core::{Bitboard, Move, PieceKind, Position};

use super::MoveList;
use super::legal::{drop_ok, generate_drops, generate_piece_moves, pawn_files};
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
    let occ = pos.occupied() ^ Bitboard::from_square(ok);
    let attackers = pos.attackers(!us);
    for to in attacks::king(ok) & !pos.by_color[us.index()] {
        if !attackers.attack(to, occ) {
            s.one(Move::new(ok, to, false));
        }
    }
    if pos.checkers.more_than_one() {
        return;
    }
    let checker = pos.checkers.lsb_unchecked();
    let between = attacks::between(ok, checker);
    generate_piece_moves(pos, between | pos.checkers, s);
    generate_drops(pos, between, s);
}

/// Whether the side to move, which must be in check, has a legal move.
pub(crate) fn has_evasion(pos: &Position) -> bool {
    let us = pos.side;
    let them = !us;
    let Some(ok) = pos.kings[us.index()] else {
        return true;
    };
    let occ = pos.occupied();
    let occ_no_king = occ ^ Bitboard::from_square(ok);
    let attackers = pos.attackers(them);
    for to in attacks::king(ok) & !pos.by_color[us.index()] {
        if !attackers.attack(to, occ_no_king) {
            return true;
        }
    }
    if pos.checkers.more_than_one() {
        return false;
    }
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
