//! Checking moves only, for the attacker of a mate search: direct checks,
//! checks by promotion, discovered checks, and checking drops.
//!
//! A move gives a direct check when the piece, after the move (promoted or
//! not), attacks the enemy king from its new square; those squares are the
//! attacks of the same kind of the other colour from the king's square. A
//! piece that alone blocks one of our sliders from the enemy king gives a
//! discovered check whenever it leaves that line.

use crate::core::attacks;
use crate::core::position::must_promote;
use crate::core::{Bitboard, Color, Move, PieceKind, Position};

use super::MoveList;
use super::evasions::generate_evasions;
use super::legal::{ZONE, drop_ok, pawn_files, push_board_move};

/// For each piece kind, the squares from which a piece of that kind of the
/// side to move would attack the enemy king.
struct CheckSquares {
    sq: [Bitboard; 15],
}

impl CheckSquares {
    fn new(pos: &Position, them: Color, tk: crate::core::Square) -> CheckSquares {
        use PieceKind::*;
        let occ = pos.occupied();
        let mut sq = [Bitboard::EMPTY; 15];
        let gold = attacks::gold(them, tk);
        let bishop = attacks::bishop(tk, occ);
        let rook = attacks::rook(tk, occ);
        sq[Pawn as usize] = attacks::pawn(them, tk);
        sq[Lance as usize] = attacks::lance(them, tk, occ);
        sq[Knight as usize] = attacks::knight(them, tk);
        sq[Silver as usize] = attacks::silver(them, tk);
        sq[Gold as usize] = gold;
        sq[ProPawn as usize] = gold;
        sq[ProLance as usize] = gold;
        sq[ProKnight as usize] = gold;
        sq[ProSilver as usize] = gold;
        sq[Bishop as usize] = bishop;
        sq[Rook as usize] = rook;
        sq[Horse as usize] = bishop | attacks::king(tk);
        sq[Dragon as usize] = rook | attacks::king(tk);
        CheckSquares { sq }
    }

    #[inline(always)]
    fn of(&self, kind: PieceKind) -> Bitboard {
        self.sq[kind as usize]
    }
}

/// Appends every legal move of the side to move that gives check.
pub fn generate_checks(pos: &Position, list: &mut MoveList) {
    if pos.in_check() {
        let mut evasions = MoveList::new();
        generate_evasions(pos, &mut evasions);
        for &m in evasions.iter() {
            if pos.gives_check(m) {
                list.push(m);
            }
        }
        return;
    }
    let us = pos.side;
    let them = !us;
    let Some(tk) = pos.kings[them.index()] else {
        return;
    };
    let occ = pos.occupied();
    let own = pos.by_color[us.index()];
    let target = !own;
    let ok = pos.kings[us.index()];
    let pinned = pos.pinned();
    let dc = pos.discovered_check_candidates();
    let cs = CheckSquares::new(pos, them, tk);

    // Pieces that may give a check: discovered-check candidates, sliders,
    // and step pieces near enough to reach a checking square.
    let candidates = {
        use PieceKind::*;
        let k = &pos.by_kind;
        let near = |kind: PieceKind| attacks::check_candidates(kind, us, tk);
        dc | k[Bishop as usize]
            | k[Rook as usize]
            | k[Horse as usize]
            | k[Dragon as usize]
            | (k[Pawn as usize] & near(Pawn))
            | (k[Lance as usize] & near(Lance))
            | (k[Knight as usize] & near(Knight))
            | (k[Silver as usize] & near(Silver))
            | (pos.golds() & near(Gold))
    };
    for from in own & candidates & !pos.by_kind[PieceKind::King as usize] {
        let kind = pos.board[from.index()].kind();
        let mut moves = attacks::piece(kind, us, from, occ) & target;
        if pinned.contains(from) {
            moves &= attacks::line(from, ok.expect("a pinned piece has a king"));
        }
        if moves.is_empty() {
            continue;
        }
        if dc.contains(from) {
            let line = attacks::line(from, tk);
            for to in moves & !line {
                push_board_move(list, kind, us, from, to);
            }
            moves &= line;
        }
        match kind.promoted() {
            Some(promoted) => {
                let zone = if from.in_promotion_zone(us) {
                    Bitboard::ALL
                } else {
                    ZONE[us.index()]
                };
                for to in moves & zone & cs.of(promoted) {
                    list.push(Move::new(from, to, true));
                }
                for to in moves & cs.of(kind) {
                    if !must_promote(kind, us, to) {
                        list.push(Move::new(from, to, false));
                    }
                }
            }
            None => {
                for to in moves & cs.of(kind) {
                    list.push(Move::new(from, to, false));
                }
            }
        }
    }

    // The king itself can only give a discovered check.
    if let Some(ok) = ok
        && dc.contains(ok)
    {
        let occ_no_king = occ ^ Bitboard::from_square(ok);
        let attackers = pos.attackers(them);
        for to in attacks::king(ok) & target & !attacks::line(ok, tk) {
            if !attackers.attack(to, occ_no_king) {
                list.push(Move::new(ok, to, false));
            }
        }
    }

    let hand = pos.hands[us.index()];
    if hand.is_empty() {
        return;
    }
    let empty = !occ;
    for kind in PieceKind::HAND {
        if !hand.has(kind) {
            continue;
        }
        let mut t = cs.of(kind) & empty & drop_ok(kind, us);
        if kind == PieceKind::Pawn {
            t &= !pawn_files(pos, us);
            if t.is_nonempty() && pos.pawn_drop_mates(t.lsb_unchecked()) {
                t = Bitboard::EMPTY;
            }
        }
        for to in t {
            list.push(Move::new_drop(kind, to));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::movegen::legal_moves;

    #[test]
    fn checks_are_the_legal_moves_that_check() {
        let sfens = [
            // Our king alone between our rook and theirs: its moves off the
            // file check, but not onto the squares the gold covers.
            "4k4/9/9/9/4K4/3g5/9/9/4R4 b - 1",
            // Step pieces near and far, promotions, a lance behind a pawn.
            "4k4/9/2N1P1S2/3G5/9/2P6/9/4L4/L3K3N b BGSrb2g2s2n2l15p 1",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        ];
        for sfen in sfens {
            let pos: Position = sfen.parse().unwrap();
            let mut checks: Vec<Move> = check_moves_of(&pos);
            let mut expected: Vec<Move> = legal_moves(&pos)
                .iter()
                .copied()
                .filter(|&m| pos.gives_check(m))
                .collect();
            checks.sort_unstable();
            expected.sort_unstable();
            assert_eq!(checks, expected, "{sfen}");
        }
    }

    fn check_moves_of(pos: &Position) -> Vec<Move> {
        let mut list = MoveList::new();
        generate_checks(pos, &mut list);
        list.to_vec()
    }
}
