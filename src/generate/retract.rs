//! Retraction: the positions one attacker check and one defender reply
//! before a tsume position, for growing puzzles backwards.
//!
//! A retraction takes back the defender's last move (a board move,
//! perhaps a capture or a promotion, or a drop) and then the attacker's
//! check before it (a board move, perhaps a capture or a promotion, or a
//! drop). Every retraction is checked by playing it forward with the rules
//! core: the check is legal and gives check, the reply is legal, and the
//! two moves lead back to the position, so a mistake here can only lose
//! retractions, never make a wrong one.
//!
//! ```
//! use tsume::core::Position;
//! use tsume::generate::retract::retractions;
//! // Mate in one: G*5b.
//! let pos: Position = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1".parse().unwrap();
//! let before = retractions(&pos);
//! assert!(!before.is_empty());
//! for r in &before {
//!     let mut p = r.position.clone();
//!     assert!(p.gives_check(r.check));
//!     p.do_move(r.check);
//!     p.do_move(r.reply);
//!     assert_eq!(p, pos);
//! }
//! ```

use crate::core::{Color, Hand, Move, Piece, PieceKind, Position, Square, attacks, sfen};

/// A position two plies before another: the attacker to move, `check`
/// then `reply` lead to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Retraction {
    pub position: Position,
    pub check: Move,
    pub reply: Move,
}

/// A position being set up: board, hands, side to move.
#[derive(Clone)]
struct Setup {
    board: [Option<Piece>; 81],
    hands: [Hand; 2],
    side: Color,
}

impl Setup {
    fn of(pos: &Position) -> Setup {
        let mut board = [None; 81];
        for sq in Square::all() {
            board[sq.index()] = pos.piece_at(sq);
        }
        Setup {
            board,
            hands: [pos.hand(Color::Black), pos.hand(Color::White)],
            side: pos.side_to_move(),
        }
    }

    fn position(&self) -> Position {
        let mut pos = Position::empty();
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                pos.put(sq, p);
            }
        }
        pos.set_hand(Color::Black, self.hands[0]);
        pos.set_hand(Color::White, self.hands[1]);
        pos.set_side(self.side);
        pos.refresh();
        pos
    }
}

/// The kinds a piece of `kind` had before moving: itself, and its
/// unpromoted kind when it may have promoted on the move (`true`).
fn kinds_before(kind: PieceKind) -> impl Iterator<Item = (PieceKind, bool)> {
    let promoted = kind.is_promoted().then(|| (kind.unpromoted(), true));
    std::iter::once((kind, false)).chain(promoted)
}

/// The board kinds whose capture puts `in_hand` pieces in a hand.
fn capturable(in_hand: Hand) -> impl Iterator<Item = PieceKind> {
    PieceKind::ALL
        .into_iter()
        .filter(move |k| *k != PieceKind::King && in_hand.has(k.unpromoted()))
}

/// The positions before `after` (whose side to move is `mover`'s
/// opponent) from which a move of `mover` leads to it, with that move.
/// Not checked here: the caller plays each forward.
fn unmoves(after: &Position, mover: Color) -> Vec<(Setup, Move)> {
    let mut out = Vec::new();
    let occ = after.occupied();
    for to in after.pieces_of(mover).iter() {
        let Some(piece) = after.piece_at(to) else {
            continue;
        };
        let kind = piece.kind();
        // A drop: the piece goes back to the hand.
        if kind.is_hand_kind() {
            let mut s = Setup::of(after);
            s.board[to.index()] = None;
            s.hands[mover.index()].add(kind);
            s.side = mover;
            out.push((s, Move::new_drop(kind, to)));
        }
        // A board move, perhaps a promotion, perhaps a capture.
        for (before, promote) in kinds_before(kind) {
            // The squares from which `before` reaches `to` are the squares
            // the same kind of the other colour reaches from `to`.
            let from_squares = attacks::piece(before, !mover, to, occ) & !occ;
            for from in from_squares.iter() {
                let mut s = Setup::of(after);
                s.board[from.index()] = Some(Piece::new(mover, before));
                s.board[to.index()] = None;
                s.side = mover;
                let m = Move::new(from, to, promote);
                out.push((s.clone(), m));
                for captured in capturable(after.hand(mover)) {
                    let mut c = s.clone();
                    c.board[to.index()] = Some(Piece::new(!mover, captured));
                    c.hands[mover.index()].remove(captured.unpromoted());
                    out.push((c, m));
                }
            }
        }
    }
    out
}

/// Whether `before` is a legal position from which `m` leads to `after`.
fn leads_to(before: &Position, m: Move, after: &Position) -> bool {
    before.is_legal(m).is_ok() && before.after(m) == *after
}

/// Whether a set-up position keeps the rules a position must keep (no two
/// pawns on a file, no piece that can never move, the side not to move not
/// in check), as the SFEN reader holds them.
fn well_formed(pos: &Position) -> bool {
    sfen::validate(pos, false).is_ok()
}

/// Every position (the attacker to move) from which a check and a reply
/// lead to `pos` (the attacker to move, the defender's king on the board),
/// each checked by playing it forward. Deterministic order.
pub fn retractions(pos: &Position) -> Vec<Retraction> {
    let attacker = pos.side_to_move();
    let defender = !attacker;
    if pos.king_square(defender).is_none() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (setup, reply) in unmoves(pos, defender) {
        let between = setup.position();
        // The attacker has just checked.
        if !between.in_check() || !leads_to(&between, reply, pos) || !well_formed(&between) {
            continue;
        }
        for (setup, check) in unmoves(&between, attacker) {
            let before = setup.position();
            if well_formed(&before)
                && leads_to(&before, check, &between)
                && before.gives_check(check)
            {
                out.push(Retraction {
                    position: before,
                    check,
                    reply,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts that `want` ("SFEN check reply") is among the retractions
    /// of `after`.
    fn assert_retracted(after: &str, want: &str) {
        let pos: Position = after.parse().unwrap();
        let all: Vec<String> = retractions(&pos)
            .iter()
            .map(|r| format!("{} {} {}", r.position, r.check, r.reply))
            .collect();
        assert!(all.iter().any(|r| r == want), "{all:#?}");
    }

    #[test]
    fn a_sacrifice_taken_by_the_king_is_retracted() {
        // The attacker dropped a gold on 4b and the king took it: the king
        // stands on 4b and the defender holds the gold.
        assert_retracted(
            "9/5k3/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
            "4k4/9/4P4/9/9/9/9/9/9 b 2G2r2b2g4s4n4l17p 1 G*4b 5a4b",
        );
    }

    #[test]
    fn promotions_and_captures_by_the_attacker_are_retracted() {
        // The attacker's silver took a defender pawn on 5b and promoted,
        // checking the king on 4a, which stepped to 3b.
        assert_retracted(
            "9/4+S1k2/9/9/9/9/9/9/9 b P2r2b4g3s4n4l16p 1",
            "5k3/4p4/3S5/9/9/9/9/9/9 b 2r2b4g3s4n4l16p 1 6c5b+ 4a3b",
        );
    }

    #[test]
    fn every_retraction_plays_forward_to_the_position() {
        let pos: Position = "3sks3/9/4S4/9/1B7/9/9/9/9 b GN2rb3gs3n4l18p 1"
            .parse()
            .unwrap();
        let all = retractions(&pos);
        assert!(all.len() > 10, "{}", all.len());
        for r in &all {
            assert!(!r.position.in_check());
            assert!(r.position.gives_check(r.check));
            let mut p = r.position.clone();
            p.do_move(r.check);
            assert!(p.is_legal(r.reply).is_ok());
            p.do_move(r.reply);
            assert_eq!(p, pos);
            // The piece count is kept: the defender holds the rest.
            let hands =
                r.position.hand(Color::Black).total() + r.position.hand(Color::White).total();
            assert_eq!(hands + r.position.occupied().count(), 39);
        }
    }

    #[test]
    fn no_king_no_retraction() {
        let pos: Position = "9/9/4P4/9/9/9/9/9/9 b G 1".parse().unwrap();
        assert!(retractions(&pos).is_empty());
    }
}
