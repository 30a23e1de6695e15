//! All legal moves, and the pieces shared by every generator: board moves
//! with their promotion options, drops with their restrictions.

use crate::core::attacks;
use crate::core::position::must_promote;
use crate::core::{Bitboard, Color, Move, PieceKind, Position, Square};

use super::MoveList;
use super::evasions::evasions;
use super::sink::{Counter, Sink};

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

/// Emits the moves of a piece of `kind` and colour `us` from `from` to the
/// squares of `to`, with every promotion choice the rules allow.
#[inline(always)]
pub(super) fn emit_piece<S: Sink>(
    s: &mut S,
    kind: PieceKind,
    us: Color,
    from: Square,
    to: Bitboard,
) {
    use PieceKind::*;
    let zone = ZONE[us.index()];
    match kind {
        // Forward movers: from inside the zone they stay inside it.
        Pawn | Lance => {
            s.moves_from(from, to & zone, true);
            s.moves_from(from, to & PAWN_LANCE_OK[us.index()], false);
        }
        Knight => {
            s.moves_from(from, to & zone, true);
            s.moves_from(from, to & KNIGHT_OK[us.index()], false);
        }
        Silver | Bishop | Rook => emit_zone_promoter(s, us, from, to),
        _ => s.moves_from(from, to, false),
    }
}

/// For each colour and origin: where a piece may promote on arriving (the
/// whole board from inside the zone, else the zone).
static PROMOTION_TARGETS: [[Bitboard; 81]; 2] = {
    let mut t = [[Bitboard::EMPTY; 81]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 81 {
            t[c][sq] = if ZONE[c].0 >> sq & 1 != 0 {
                Bitboard::ALL
            } else {
                ZONE[c]
            };
            sq += 1;
        }
        c += 1;
    }
    t
};

/// Emits the moves from `from` to `to` of a piece of `us` that may promote
/// when it starts or ends in the zone and need never promote.
#[inline(always)]
fn emit_zone_promoter<S: Sink>(s: &mut S, us: Color, from: Square, to: Bitboard) {
    s.moves_from(from, to & PROMOTION_TARGETS[us.index()][from.index()], true);
    s.moves_from(from, to, false);
}

/// Moves of the side to move's pieces other than the king to squares in
/// `target`, keeping pinned pieces on their line.
#[inline(always)]
pub(super) fn generate_piece_moves<S: Sink>(pos: &Position, target: Bitboard, s: &mut S) {
    use PieceKind::*;
    let us = pos.side;
    let u = us.index();
    let occ = pos.occupied();
    let own = pos.by_color[u];
    let k = &pos.by_kind;
    let pinned = pos.pinned();
    let free = own & !pinned;
    let zone = ZONE[u];

    // Pawns and knights all at once, by shifting: no piece stands where it
    // could never move, so no step wraps around to another file. A pinned
    // knight cannot move; pinned pawns go with the other pinned pieces.
    let pawns = k[Pawn as usize] & free;
    let knights = k[Knight as usize] & free;
    let (to, delta, kn_a, d_a, kn_b, d_b) = match us {
        Color::Black => (
            Bitboard(pawns.0 >> 1),
            1,
            Bitboard(knights.0 >> 11),
            11,
            Bitboard(knights.0 << 7),
            -7,
        ),
        Color::White => (
            Bitboard(pawns.0 << 1),
            -1,
            Bitboard(knights.0 >> 7),
            7,
            Bitboard(knights.0 << 11),
            -11,
        ),
    };
    let to = to & target;
    s.shifted(to & zone, delta, true);
    s.shifted(to & PAWN_LANCE_OK[u], delta, false);
    for (t, d) in [(kn_a & target, d_a), (kn_b & target, d_b)] {
        s.shifted(t & zone, d, true);
        s.shifted(t & KNIGHT_OK[u], d, false);
    }

    for from in k[Lance as usize] & free {
        let t = attacks::lance(us, from, occ) & target;
        s.moves_from(from, t & zone, true);
        s.moves_from(from, t & PAWN_LANCE_OK[u], false);
    }
    for from in k[Silver as usize] & free {
        emit_zone_promoter(s, us, from, attacks::silver(us, from) & target);
    }
    for from in pos.golds() & free {
        s.moves_from(from, attacks::gold(us, from) & target, false);
    }
    for from in k[Bishop as usize] & free {
        emit_zone_promoter(s, us, from, attacks::bishop(from, occ) & target);
    }
    for from in k[Rook as usize] & free {
        emit_zone_promoter(s, us, from, attacks::rook(from, occ) & target);
    }
    for from in k[Horse as usize] & free {
        s.moves_from(from, attacks::horse(from, occ) & target, false);
    }
    for from in k[Dragon as usize] & free {
        s.moves_from(from, attacks::dragon(from, occ) & target, false);
    }

    // Pinned pieces move along the line through their king only.
    let pinned = pinned & !k[King as usize];
    if pinned.is_nonempty() {
        let ok = pos.kings[u].expect("a pinned piece has a king");
        for from in pinned {
            let kind = pos.board[from.index()].kind();
            let t = attacks::piece(kind, us, from, occ) & target & attacks::line(from, ok);
            emit_piece(s, kind, us, from, t);
        }
    }
}

/// Drops of every kind in hand on the squares of `to_mask` (which must be
/// empty), with all four drop restrictions.
#[inline(always)]
pub(super) fn generate_drops<S: Sink>(pos: &Position, to_mask: Bitboard, s: &mut S) {
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
        s.drops(kind, t);
    }
}

/// King moves to squares not attacked by the opponent.
#[inline(always)]
fn generate_king_moves<S: Sink>(pos: &Position, s: &mut S) {
    let us = pos.side;
    let Some(ok) = pos.kings[us.index()] else {
        return;
    };
    let occ = pos.occupied() ^ Bitboard::from_square(ok);
    let attackers = pos.attackers(!us);
    for to in attacks::king(ok) & !pos.by_color[us.index()] {
        if !attackers.attack(to, occ) {
            s.one(Move::new(ok, to, false));
        }
    }
}

/// Every legal move of the side to move, into `s`.
#[inline(always)]
pub(super) fn legal<S: Sink>(pos: &Position, s: &mut S) {
    if pos.in_check() {
        evasions(pos, s);
        return;
    }
    let target = !pos.by_color[pos.side.index()];
    generate_piece_moves(pos, target, s);
    generate_king_moves(pos, s);
    generate_drops(pos, !pos.occupied(), s);
}

/// Appends every legal move of the side to move.
pub fn generate_legal(pos: &Position, list: &mut MoveList) {
    legal(pos, list);
}

/// The number of legal moves of the side to move, without listing them.
pub fn count_legal(pos: &Position) -> usize {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has the POPCNT instruction, checked just above.
        return unsafe { count_legal_popcnt(pos) };
    }
    count_legal_portable(pos)
}

/// [`count_legal`] compiled for CPUs with a POPCNT instruction: the count
/// is a sum of set sizes, and without the instruction each size costs some
/// twenty instructions (the crate is built for the x86-64 baseline).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn count_legal_popcnt(pos: &Position) -> usize {
    let mut c = Counter::default();
    legal(pos, &mut c);
    c.0
}

#[inline(always)]
fn count_legal_portable(pos: &Position) -> usize {
    let mut c = Counter::default();
    legal(pos, &mut c);
    c.0
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

    #[test]
    fn counting_agrees_with_listing() {
        let sfens = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            // Promotions of every kind, pins, drops (pawn-drop mate too).
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
            "8k/9/8P/9/9/9/9/9/K8 b P 1",
            "4k4/4r4/9/9/4B4/9/9/4K4/9 b - 1",
            // In check: evasions.
            "4k4/9/9/9/9/9/9/4r4/4K4 b GSNLP 1",
            "k8/9/9/9/9/9/9/9/K3r3b b - 1",
        ];
        for sfen in sfens {
            let pos: Position = sfen.parse().unwrap();
            let mut list = MoveList::new();
            generate_legal(&pos, &mut list);
            assert_eq!(count_legal(&pos), list.len(), "{sfen}");
            assert_eq!(count_legal_portable(&pos), list.len(), "{sfen}");
            for &m in list.iter() {
                assert_eq!(pos.is_legal(m), Ok(()), "{m} in {sfen}");
            }
        }
    }
}
