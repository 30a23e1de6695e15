//! Zobrist hashing keys, generated at compile time.
//!
//! The board key (pieces on squares and the side to move) is kept apart
//! from the hand key so the solver can key its table by the board and
//! compare hands. The hand key is additive: adding a piece of kind `k` to
//! `c`'s hand adds `HAND[c][k]`.

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

const fn make_board() -> [[u64; 81]; 32] {
    let mut t = [[0u64; 81]; 32];
    let mut state = 0x7473_756d_6521_u64;
    let mut p = 0;
    while p < 32 {
        let mut sq = 0;
        while sq < 81 {
            let (s, v) = splitmix(state);
            state = s;
            t[p][sq] = v & !1;
            sq += 1;
        }
        p += 1;
    }
    t
}

const fn make_hand() -> [[u64; 8]; 2] {
    let mut t = [[0u64; 8]; 2];
    let mut state = 0x6861_6e64_u64;
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 8 {
            let (s, v) = splitmix(state);
            state = s;
            t[c][k] = v & !1;
            k += 1;
        }
        c += 1;
    }
    t
}

/// Key of each piece (indexed by `Piece::index`) on each square. The
/// lowest bit is always clear: it is reserved for the side to move.
pub(crate) static BOARD: [[u64; 81]; 32] = make_board();
/// Key added per piece in hand, indexed by colour and hand kind.
pub(crate) static HAND: [[u64; 8]; 2] = make_hand();
/// Xored into the board key when White is to move.
pub(crate) const SIDE: u64 = 1;
