//! Proof hands and disproof hands: how much of the attacker's hand a
//! result really needs, so that one result serves many hands.
//!
//! A proof hand `P` of a position says: the attacker mates with any hand
//! that holds at least `P`. A disproof hand `D` says: the attacker fails
//! with any hand that holds at most `D`. Within one search the pieces out
//! of play never change, so a larger attacker hand always means a smaller
//! defender hand.
//!
//! The rules (Nagai 2002; Seo 1999), with the case public solvers got wrong
//! handled in [`and_proof_hand`]: when the defender could have interposed a
//! kind it does not hold, the proof needs every piece of that kind the
//! attacker holds (otherwise the defender would hold one).

use crate::core::{Hand, Move, PieceKind, Position};

/// Every hand kind.
const KINDS: [PieceKind; 7] = PieceKind::HAND;

/// The attacker hand before the attacker's move `m` that corresponds to
/// hand `child` after it: a dropped piece back in, a captured one out.
fn hand_before(pos: &Position, m: Move, child: Hand) -> Hand {
    let mut h = child;
    if let Some(k) = m.drop_kind() {
        h.add(k);
    } else if let Some(p) = pos.piece_at(m.to()) {
        let k = p.kind().unpromoted();
        if h.has(k) {
            h.remove(k);
        }
    }
    h
}

/// The proof hand of an OR node proved by `m`, from the proof hand of the
/// position after `m`.
pub fn or_proof_hand(pos: &Position, m: Move, child: Hand) -> Hand {
    // Never more than the attacker holds.
    hand_before(pos, m, child).min(pos.hand(pos.side_to_move()))
}

/// The proof hand of an AND node (the defender to move), given the maximum
/// of its children's proof hands (empty when it is mated): adds, for each
/// kind the defender does not hold, every piece of it the attacker holds,
/// when the defender could interpose a dropped piece.
pub fn and_proof_hand(pos: &Position, children_max: Hand) -> Hand {
    let defender = pos.side_to_move();
    let attacker = !defender;
    let mut h = children_max;
    if can_interpose_by_drop(pos) {
        let dh = pos.hand(defender);
        let ah = pos.hand(attacker);
        for k in KINDS {
            if !dh.has(k) && ah.count(k) > h.count(k) {
                h.set(k, ah.count(k));
            }
        }
    }
    h
}

/// Whether the side to move, in check, faces a single distant checker with
/// an empty square between it and the king.
pub fn can_interpose_by_drop(pos: &Position) -> bool {
    let checkers = pos.checkers();
    if checkers.is_empty() || checkers.more_than_one() {
        return false;
    }
    let Some(k) = pos.king_square(pos.side_to_move()) else {
        return false;
    };
    crate::core::attacks::between(k, checkers.lsb_unchecked()).is_nonempty()
}

/// The disproof hand of an OR node (the attacker to move) with no legal
/// check at all: more of a kind it already holds adds no move; a kind it
/// does not hold might.
pub fn or_disproof_hand_without_moves(pos: &Position) -> Hand {
    let attacker = pos.side_to_move();
    let ah = pos.hand(attacker);
    let dh = pos.hand(!attacker);
    let mut h = Hand::EMPTY;
    for k in KINDS {
        if ah.has(k) {
            h.set(k, ah.count(k) + dh.count(k));
        }
    }
    h
}

/// The part of an OR node's disproof hand that comes from the child after
/// `m`, whose disproof hand is `child`.
pub fn or_disproof_from_child(pos: &Position, m: Move, child: Hand) -> Hand {
    hand_before(pos, m, child)
}

/// Finishes an OR node's disproof hand (the minimum over its children):
/// kinds the attacker does not hold stay at zero, since holding one could
/// add a checking drop.
pub fn or_disproof_hand(pos: &Position, children_min: Hand) -> Hand {
    let ah = pos.hand(pos.side_to_move());
    let mut h = children_min;
    for k in KINDS {
        if !ah.has(k) {
            h.set(k, 0);
        }
    }
    // Never less than the attacker holds (the node itself is disproven).
    h.max(ah)
}

/// The disproof hand of an AND node refuted by the defender's move `m`,
/// from the disproof hand of the position after it.
pub fn and_disproof_hand(pos: &Position, m: Move, child: Hand) -> Hand {
    let mut h = child;
    if let Some(k) = m.drop_kind() {
        // The defender needs the piece it drops: the attacker may not hold
        // more of that kind than now.
        let ah = pos.hand(!pos.side_to_move());
        h.set(k, h.count(k).min(ah.count(k)));
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interposition_case_keeps_the_attackers_pieces() {
        // White king 1a in check from a rook on 1i, nothing between, White
        // holds nothing: the proof must keep the attacker's gold and pawns
        // so the defender cannot hold them.
        let pos: Position = "8k/9/9/9/9/9/9/9/8R w G2P 1".parse().unwrap();
        assert!(can_interpose_by_drop(&pos));
        let h = and_proof_hand(&pos, Hand::EMPTY);
        assert_eq!(h.count(PieceKind::Gold), 1);
        assert_eq!(h.count(PieceKind::Pawn), 2);
        // Adjacent check: no interposition, nothing to keep.
        let pos: Position = "8k/8R/9/9/9/9/9/9/9 w G2P 1".parse().unwrap();
        assert!(!can_interpose_by_drop(&pos));
        assert!(and_proof_hand(&pos, Hand::EMPTY).is_empty());
    }

    #[test]
    fn drops_and_captures_move_pieces_between_hands() {
        let pos: Position = "8k/9/9/9/9/9/9/9/9 b G 1".parse().unwrap();
        let m: Move = "G*1b".parse().unwrap();
        assert_eq!(
            or_proof_hand(&pos, m, Hand::EMPTY).count(PieceKind::Gold),
            1
        );
    }
}
