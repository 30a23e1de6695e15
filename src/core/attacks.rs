//! Precomputed attack tables, built at compile time.
//!
//! Step pieces (pawn, knight, silver, gold and the gold-movers, king) read a
//! table per colour and square. Sliders (lance, bishop, rook, horse, dragon)
//! use one ray table per direction: the attack along a ray is the ray up to
//! and including the first occupied square, found with one bit scan.
//!
//! ```
//! use tsume::core::{attacks, Bitboard, Color, Square};
//! let sq: Square = "5e".parse().unwrap();
//! assert_eq!(attacks::rook(sq, Bitboard::EMPTY).count(), 16);
//! assert_eq!(attacks::bishop(sq, Bitboard::EMPTY).count(), 16);
//! assert_eq!(attacks::knight(Color::Black, sq).count(), 2);
//! ```

use super::bitboard::msb_index;
use super::{Bitboard, Color, PieceKind, Square};

/// (file step, rank step) of the eight directions. 0..4 raise the square
/// index, 4..8 lower it.
const DIRS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < 9 && r >= 0 && r < 9
}

const fn bit(f: i32, r: i32) -> u128 {
    1u128 << (f * 9 + r)
}

const fn make_rays() -> [[u128; 81]; 8] {
    let mut t = [[0u128; 81]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 81 {
            let (mut f, mut r) = ((sq / 9) as i32, (sq % 9) as i32);
            let mut bits = 0u128;
            loop {
                f += DIRS[d].0;
                r += DIRS[d].1;
                if !on_board(f, r) {
                    break;
                }
                bits |= bit(f, r);
            }
            t[d][sq] = bits;
            sq += 1;
        }
        d += 1;
    }
    t
}

static RAYS: [[u128; 81]; 8] = make_rays();

/// Per square: the union of the rays of the directions in `dirs` (a bit
/// per direction).
const fn make_pseudo(dirs: u8) -> [u128; 81] {
    let rays = make_rays();
    let mut t = [0u128; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut d = 0;
        while d < 8 {
            if dirs >> d & 1 != 0 {
                t[sq] |= rays[d][sq];
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

static ROOK_PSEUDO: [u128; 81] = make_pseudo(0b0101_0101);
static BISHOP_PSEUDO: [u128; 81] = make_pseudo(0b1010_1010);
static QUEEN_PSEUDO: [u128; 81] = make_pseudo(0xff);

/// Step offsets for Black; White mirrors the rank step.
const PAWN_STEPS: &[(i32, i32)] = &[(0, -1)];
const KNIGHT_STEPS: &[(i32, i32)] = &[(-1, -2), (1, -2)];
const SILVER_STEPS: &[(i32, i32)] = &[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
const GOLD_STEPS: &[(i32, i32)] = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
const KING_STEPS: &[(i32, i32)] = &[
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

const fn make_steps(steps: &[(i32, i32)]) -> [[u128; 81]; 2] {
    let mut t = [[0u128; 81]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 81 {
            let (f, r) = ((sq / 9) as i32, (sq % 9) as i32);
            let mut bits = 0u128;
            let mut i = 0;
            while i < steps.len() {
                let (df, mut dr) = steps[i];
                if c == 1 {
                    dr = -dr;
                }
                if on_board(f + df, r + dr) {
                    bits |= bit(f + df, r + dr);
                }
                i += 1;
            }
            t[c][sq] = bits;
            sq += 1;
        }
        c += 1;
    }
    t
}

static PAWN: [[u128; 81]; 2] = make_steps(PAWN_STEPS);
static KNIGHT: [[u128; 81]; 2] = make_steps(KNIGHT_STEPS);
static SILVER: [[u128; 81]; 2] = make_steps(SILVER_STEPS);
static GOLD: [[u128; 81]; 2] = make_steps(GOLD_STEPS);
static KING: [[u128; 81]; 2] = make_steps(KING_STEPS);

/// For the kinds pawn, lance, knight, silver and gold (index 0..5), each
/// colour and each square of the enemy king: the squares from which a
/// piece of that kind and colour might give a direct check, promoting or
/// not (on an empty board: a superset with any occupancy).
const fn make_check_candidates() -> [[[u128; 81]; 2]; 5] {
    let rays = make_rays();
    let steps = [
        make_steps(PAWN_STEPS),
        [[0u128; 81]; 2],
        make_steps(KNIGHT_STEPS),
        make_steps(SILVER_STEPS),
        make_steps(GOLD_STEPS),
    ];
    let gold = make_steps(GOLD_STEPS);
    let zones = [
        0x7u128 * ((1u128 << 81) - 1) / 0x1ff,
        0x1c0u128 * ((1u128 << 81) - 1) / 0x1ff,
    ];
    let mut t = [[[0u128; 81]; 2]; 5];
    let mut k = 0;
    while k < 5 {
        let mut c = 0;
        while c < 2 {
            let mut tk = 0;
            while tk < 81 {
                // Where a piece of colour c attacks tk from: the attacks of
                // the other colour from tk.
                let direct = if k == 1 {
                    rays[if c == 0 { 0 } else { 4 }][tk]
                } else {
                    steps[k][1 - c][tk]
                };
                let as_gold = if k < 4 { gold[1 - c][tk] } else { 0 };
                let mut from = 0;
                while from < 81 {
                    let moves = if k == 1 {
                        rays[if c == 0 { 4 } else { 0 }][from]
                    } else {
                        steps[k][c][from]
                    };
                    let promo = if zones[c] >> from & 1 != 0 {
                        moves
                    } else {
                        moves & zones[c]
                    };
                    if moves & direct != 0 || promo & as_gold != 0 {
                        t[k][c][tk] |= 1u128 << from;
                    }
                    from += 1;
                }
                tk += 1;
            }
            c += 1;
        }
        k += 1;
    }
    t
}

static CHECK_CANDIDATES: [[[u128; 81]; 2]; 5] = make_check_candidates();

/// The squares from which a piece of `kind` (pawn, lance, knight, silver
/// or gold) and colour `c` might give a direct check to a king on `tk`,
/// promoting or not: every other square surely cannot.
#[inline(always)]
pub(crate) fn check_candidates(kind: PieceKind, c: Color, tk: Square) -> Bitboard {
    let k = match kind {
        PieceKind::Pawn => 0,
        PieceKind::Lance => 1,
        PieceKind::Knight => 2,
        PieceKind::Silver => 3,
        _ => 4,
    };
    Bitboard(CHECK_CANDIDATES[k][c.index()][tk.index()])
}

/// Direction from `a` to `b` plus one, 0 when not on one line.
const fn make_direction() -> [[u8; 81]; 81] {
    let mut t = [[0u8; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            let (mut f, mut r) = ((a / 9) as i32, (a % 9) as i32);
            loop {
                f += DIRS[d].0;
                r += DIRS[d].1;
                if !on_board(f, r) {
                    break;
                }
                t[a][(f * 9 + r) as usize] = d as u8 + 1;
            }
            d += 1;
        }
        a += 1;
    }
    t
}

static DIRECTION: [[u8; 81]; 81] = make_direction();

/// The attack along a ray of rising square index: the ray up to the first
/// blocker, which is its lowest set bit. `b ^ (b - 1)` sets every bit up to
/// that one (all bits when there is none), with no branch or look-up.
#[inline(always)]
fn ray_pos(d: usize, sq: Square, occ: Bitboard) -> u128 {
    let r = RAYS[d][sq.index()];
    let b = r & occ.0;
    r & (b ^ b.wrapping_sub(1))
}

/// The attack along a ray of falling square index: the ray minus what lies
/// beyond its first blocker, the highest set bit. Square 0 is added as a
/// blocker of last resort: no ray of falling index leaves it, so with no
/// real blocker nothing is removed, and no branch is needed.
#[inline(always)]
fn ray_neg(d: usize, sq: Square, occ: Bitboard) -> u128 {
    let r = RAYS[d][sq.index()];
    let b = r & occ.0 | 1;
    r ^ RAYS[d][msb_index(b) as usize]
}

/// Squares a pawn of `c` on `sq` attacks.
#[inline(always)]
pub fn pawn(c: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[c.index()][sq.index()])
}

/// Squares a knight of `c` on `sq` attacks.
#[inline(always)]
pub fn knight(c: Color, sq: Square) -> Bitboard {
    Bitboard(KNIGHT[c.index()][sq.index()])
}

/// Squares a silver of `c` on `sq` attacks.
#[inline(always)]
pub fn silver(c: Color, sq: Square) -> Bitboard {
    Bitboard(SILVER[c.index()][sq.index()])
}

/// Squares a gold (or promoted pawn, lance, knight, silver) of `c` on `sq`
/// attacks.
#[inline(always)]
pub fn gold(c: Color, sq: Square) -> Bitboard {
    Bitboard(GOLD[c.index()][sq.index()])
}

/// The eight neighbours of `sq`.
#[inline(always)]
pub fn king(sq: Square) -> Bitboard {
    Bitboard(KING[0][sq.index()])
}

/// Squares a lance of `c` on `sq` attacks, given the occupied squares.
#[inline(always)]
pub fn lance(c: Color, sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(match c {
        Color::Black => ray_neg(4, sq, occ),
        Color::White => ray_pos(0, sq, occ),
    })
}

/// The squares ahead of a lance of `c` on an empty board.
#[inline(always)]
pub fn lance_pseudo(c: Color, sq: Square) -> Bitboard {
    Bitboard(match c {
        Color::Black => RAYS[4][sq.index()],
        Color::White => RAYS[0][sq.index()],
    })
}

/// Squares a bishop on `sq` attacks, given the occupied squares.
#[inline(always)]
pub fn bishop(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(ray_pos(1, sq, occ) | ray_pos(3, sq, occ) | ray_neg(5, sq, occ) | ray_neg(7, sq, occ))
}

/// Squares a rook on `sq` attacks, given the occupied squares.
#[inline(always)]
pub fn rook(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(ray_pos(0, sq, occ) | ray_pos(2, sq, occ) | ray_neg(4, sq, occ) | ray_neg(6, sq, occ))
}

/// Squares a horse (promoted bishop) on `sq` attacks.
#[inline(always)]
pub fn horse(sq: Square, occ: Bitboard) -> Bitboard {
    bishop(sq, occ) | king(sq)
}

/// Squares a dragon (promoted rook) on `sq` attacks.
#[inline(always)]
pub fn dragon(sq: Square, occ: Bitboard) -> Bitboard {
    rook(sq, occ) | king(sq)
}

/// Bishop moves on an empty board.
#[inline(always)]
pub fn bishop_pseudo(sq: Square) -> Bitboard {
    Bitboard(BISHOP_PSEUDO[sq.index()])
}

/// Rook moves on an empty board.
#[inline(always)]
pub fn rook_pseudo(sq: Square) -> Bitboard {
    Bitboard(ROOK_PSEUDO[sq.index()])
}

/// The squares on a rank, file or diagonal through `sq` (not `sq`): where
/// a slider of any kind may attack it from.
#[inline(always)]
pub fn queen_pseudo(sq: Square) -> Bitboard {
    Bitboard(QUEEN_PSEUDO[sq.index()])
}

/// Squares a piece of `kind` and colour `c` on `sq` attacks.
#[inline(always)]
pub fn piece(kind: PieceKind, c: Color, sq: Square, occ: Bitboard) -> Bitboard {
    use PieceKind::*;
    match kind {
        Pawn => pawn(c, sq),
        Lance => lance(c, sq, occ),
        Knight => knight(c, sq),
        Silver => silver(c, sq),
        Gold | ProPawn | ProLance | ProKnight | ProSilver => gold(c, sq),
        Bishop => bishop(sq, occ),
        Rook => rook(sq, occ),
        King => king(sq),
        Horse => horse(sq, occ),
        Dragon => dragon(sq, occ),
    }
}

/// The squares strictly between `a` and `b` when they share a rank, file or
/// diagonal; empty otherwise.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    let d = DIRECTION[a.index()][b.index()];
    if d == 0 {
        return Bitboard::EMPTY;
    }
    let d = d as usize - 1;
    // The ray from a towards b, minus the ray from b onwards and b itself.
    Bitboard(RAYS[d][a.index()] & !RAYS[d][b.index()] & !(1u128 << b.index()))
}

/// Whether `a`, `b` and `c` lie on one rank, file or diagonal, in any order.
#[inline(always)]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    let d = DIRECTION[a.index()][b.index()];
    if d == 0 {
        return false;
    }
    let d = d as usize - 1;
    let opposite = (d + 4) % 8;
    let line = RAYS[d][a.index()] | RAYS[opposite][a.index()] | (1u128 << a.index());
    line >> c.index() & 1 != 0
}

/// The whole rank, file or diagonal through `a` and `b` (both included);
/// empty when they share none.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    let d = DIRECTION[a.index()][b.index()];
    if d == 0 {
        return Bitboard::EMPTY;
    }
    let d = d as usize - 1;
    Bitboard(RAYS[d][a.index()] | RAYS[(d + 4) % 8][a.index()] | (1u128 << a.index()))
}

/// Whether `a` and `b` share a rank, file or diagonal.
#[inline(always)]
pub fn on_a_line(a: Square, b: Square) -> bool {
    DIRECTION[a.index()][b.index()] != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn step_tables_match_the_rules() {
        assert_eq!(
            pawn(Color::Black, sq("7g")),
            Bitboard::from_square(sq("7f"))
        );
        assert_eq!(
            pawn(Color::White, sq("3c")),
            Bitboard::from_square(sq("3d"))
        );
        assert!(pawn(Color::Black, sq("5a")).is_empty());
        let k = knight(Color::Black, sq("8i"));
        assert_eq!(k, [sq("7g"), sq("9g")].into_iter().collect());
        assert_eq!(king(sq("1a")).count(), 3);
        assert_eq!(gold(Color::White, sq("5e")).count(), 6);
        assert!(gold(Color::White, sq("5e")).contains(sq("5f")));
        assert!(gold(Color::White, sq("5e")).contains(sq("5d")));
        assert!(!gold(Color::White, sq("5e")).contains(sq("4d")));
        assert!(silver(Color::Black, sq("5e")).contains(sq("4f")));
        assert!(!silver(Color::Black, sq("5e")).contains(sq("5f")));
    }

    #[test]
    fn sliders_stop_at_the_first_blocker() {
        let occ: Bitboard = [sq("5c"), sq("2e"), sq("5h")].into_iter().collect();
        let r = rook(sq("5e"), occ);
        assert!(r.contains(sq("5c")) && !r.contains(sq("5b")));
        assert!(r.contains(sq("2e")) && !r.contains(sq("1e")));
        assert!(r.contains(sq("5h")) && !r.contains(sq("5i")));
        assert!(r.contains(sq("9e")));
        assert_eq!(lance(Color::Black, sq("5e"), occ).count(), 2);
        assert_eq!(lance(Color::White, sq("5e"), occ).count(), 3);
        let b = bishop(sq("5e"), Bitboard::from_square(sq("3c")));
        assert!(b.contains(sq("3c")) && !b.contains(sq("2b")));
        assert!(b.contains(sq("1i")) && b.contains(sq("9a")) && b.contains(sq("9i")));
    }

    #[test]
    fn check_candidates_hold_every_checking_square() {
        use PieceKind::*;
        // Brute force on an empty board: a piece on `from` that can move to
        // a square attacking the king (as itself, or promoted where it may
        // promote) is a candidate.
        for kind in [Pawn, Lance, Knight, Silver, Gold] {
            for c in Color::ALL {
                for tk in Square::all() {
                    let cand = check_candidates(kind, c, tk);
                    for from in Square::all() {
                        let gives = piece(kind, c, from, Bitboard::EMPTY).iter().any(|to| {
                            let promo = kind != Gold
                                && (from.in_promotion_zone(c) || to.in_promotion_zone(c));
                            to != tk
                                && (piece(kind, c, to, Bitboard::EMPTY).contains(tk)
                                    || promo && gold(c, to).contains(tk))
                        });
                        assert_eq!(cand.contains(from), gives, "{kind:?} {c:?} {tk} {from}");
                    }
                }
            }
        }
    }

    #[test]
    fn no_falling_ray_leaves_square_0() {
        for ray in &RAYS[4..8] {
            assert_eq!(ray[0], 0);
        }
    }

    #[test]
    fn pseudo_tables_are_the_empty_board_attacks() {
        for sq in Square::all() {
            assert_eq!(rook_pseudo(sq), rook(sq, Bitboard::EMPTY));
            assert_eq!(bishop_pseudo(sq), bishop(sq, Bitboard::EMPTY));
            assert_eq!(queen_pseudo(sq), rook_pseudo(sq) | bishop_pseudo(sq));
        }
    }

    #[test]
    fn between_and_aligned() {
        assert_eq!(between(sq("5a"), sq("5e")).count(), 3);
        assert_eq!(between(sq("5e"), sq("5a")).count(), 3);
        assert_eq!(between(sq("1a"), sq("9i")).count(), 7);
        assert!(between(sq("1a"), sq("2c")).is_empty());
        assert!(between(sq("1a"), sq("1b")).is_empty());
        assert!(aligned(sq("1a"), sq("5e"), sq("9i")));
        assert!(aligned(sq("5e"), sq("9i"), sq("1a")));
        assert!(!aligned(sq("1a"), sq("5e"), sq("5f")));
    }
}
