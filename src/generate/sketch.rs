//! Random tsume positions and small changes to them: the raw material of
//! the generator.
//!
//! A sketch is a board and the attacker's hand; the attacker is Black (no
//! king), the defender White, and the defender holds every piece that is
//! neither on the board nor in the attacker's hand (玉方持駒は残り全部). The
//! defender's king stands near its edge (ranks 1 to 3) with some of its
//! pieces around it, the attacker's pieces are near the king, as in
//! composed problems.
//!
//! ```
//! use tsume::generate::sketch::{Rng, Sketch};
//! let mut rng = Rng::new(7);
//! let pos = (0..100).find_map(|_| Sketch::random(&mut rng, 3).position()).unwrap();
//! assert!(pos.king_square(tsume::core::Color::White).is_some());
//! assert!(pos.king_square(tsume::core::Color::Black).is_none());
//! ```

use crate::core::hand::MAX_COUNT;
use crate::core::{Color, Hand, Piece, PieceKind, Position, Square, sfen};

use PieceKind::*;

/// A small deterministic random number generator (splitmix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix(self.0)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: usize, den: usize) -> bool {
        self.below(den) < num
    }

    /// An index into `weights`, drawn with those weights (some positive).
    pub fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u32 = weights.iter().sum();
        let mut r = self.below(total.max(1) as usize) as u32;
        for (i, &w) in weights.iter().enumerate() {
            if r < w {
                return i;
            }
            r -= w;
        }
        weights.len() - 1
    }
}

/// The splitmix64 finaliser: a good 64-bit mix.
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The attacker is Black.
const ATTACKER: Color = Color::Black;
const DEFENDER: Color = Color::White;

/// A tsume position under construction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sketch {
    board: [Option<Piece>; 81],
    /// The attacker's hand; the defender's is the rest of the set, or
    /// nothing (the rest out of play) when `rest_in_hand` is false.
    hand: Hand,
    rest_in_hand: bool,
}

/// How much material a problem of `plies` gets: (defender pieces beside
/// the king, attacker pieces on the board, attacker pieces in hand), each
/// as a maximum.
fn material(plies: u32) -> (usize, usize, usize) {
    match plies {
        0..=1 => (3, 3, 2),
        2..=3 => (4, 3, 2),
        4..=7 => (5, 4, 3),
        _ => (6, 4, 4),
    }
}

/// Chebyshev distance between two squares.
fn distance(a: Square, b: Square) -> u8 {
    a.file().abs_diff(b.file()).max(a.rank().abs_diff(b.rank()))
}

impl Sketch {
    /// An empty board.
    fn empty() -> Sketch {
        Sketch {
            board: [None; 81],
            hand: Hand::EMPTY,
            rest_in_hand: true,
        }
    }

    /// The same sketch, the defender holding the rest of the set (true,
    /// the tsume convention and the default) or nothing (the rest out of
    /// play).
    pub fn with_rest_in_hand(mut self, yes: bool) -> Sketch {
        self.rest_in_hand = yes;
        self
    }

    /// A random position for a problem of about `plies` plies: the king on
    /// one of the first three ranks, up to a few of the defender's pieces
    /// next to it, attacker pieces within reach, a few pieces in hand.
    pub fn random(rng: &mut Rng, plies: u32) -> Sketch {
        let mut s = Sketch::empty();
        let (dmax, amax, hmax) = material(plies);
        let file = 1 + rng.below(9) as u8;
        let rank = [1, 1, 1, 2, 2, 3][rng.below(6)];
        let king = Square::from_file_rank(file, rank).unwrap_or(Square::new(0));
        s.board[king.index()] = Some(Piece::new(DEFENDER, King));
        for _ in 0..rng.below(dmax + 1) {
            let kind = [Gold, Silver, Pawn, Lance, Knight, Bishop, Rook, ProPawn]
                [rng.weighted(&[6, 5, 6, 2, 2, 1, 1, 1])];
            s.place_near(rng, DEFENDER, kind, 2);
        }
        for _ in 0..1 + rng.below(amax) {
            let kind = [
                Gold, Silver, Pawn, Knight, Lance, Rook, Bishop, Dragon, Horse, ProPawn,
            ][rng.weighted(&[5, 5, 3, 2, 2, 2, 2, 1, 1, 1])];
            let reach = if matches!(kind, Rook | Bishop | Dragon | Horse | Lance) {
                5
            } else {
                3
            };
            s.place_near(rng, ATTACKER, kind, reach);
        }
        for _ in 0..rng.below(hmax) + usize::from(plies > 1) {
            let kind = [Gold, Silver, Knight, Lance, Pawn, Rook, Bishop]
                [rng.weighted(&[6, 5, 3, 2, 2, 2, 2])];
            if s.free(kind) > 0 {
                s.hand.add(kind);
            }
        }
        s
    }

    /// The defender's king.
    fn king(&self) -> Option<Square> {
        Square::all().find(|sq| self.board[sq.index()] == Some(Piece::new(DEFENDER, King)))
    }

    /// How many pieces of the hand kind `kind` the defender holds (those in
    /// neither the board nor the attacker's hand).
    fn free(&self, kind: PieceKind) -> u32 {
        let used = self
            .board
            .iter()
            .flatten()
            .filter(|p| p.kind() != King && p.kind().unpromoted() == kind)
            .count() as u32
            + self.hand.count(kind);
        (MAX_COUNT[kind.index()] as u32).saturating_sub(used)
    }

    /// Puts a piece of `color` and `kind` on a random empty square within
    /// `reach` of the king (nothing when the set has no such piece left).
    fn place_near(&mut self, rng: &mut Rng, color: Color, kind: PieceKind, reach: u8) {
        let Some(king) = self.king() else { return };
        if self.free(kind.unpromoted()) == 0 {
            return;
        }
        let squares: Vec<Square> = Square::all()
            .filter(|&sq| {
                self.board[sq.index()].is_none()
                    && distance(sq, king) <= reach
                    && (color == ATTACKER || sq.rank() <= 4)
            })
            .collect();
        if !squares.is_empty() {
            let sq = squares[rng.below(squares.len())];
            self.board[sq.index()] = Some(Piece::new(color, kind));
        }
    }

    /// A copy changed in one random way: a defender piece added near the
    /// king, a piece removed, a piece moved, a piece given to or taken from
    /// the attacker's hand, the king moved by one square, a piece promoted
    /// or demoted.
    pub fn mutate(&self, rng: &mut Rng) -> Sketch {
        let mut s = self.clone();
        let Some(king) = self.king() else { return s };
        let others: Vec<Square> = Square::all()
            .filter(|&sq| self.board[sq.index()].is_some_and(|p| p.kind() != King))
            .collect();
        match rng.weighted(&[4, 3, 6, 3, 2, 1, 1]) {
            0 => {
                let kind = [Gold, Silver, Pawn, Lance, Knight, Bishop, Rook]
                    [rng.weighted(&[5, 5, 5, 2, 2, 1, 1])];
                s.place_near(rng, DEFENDER, kind, 2);
            }
            1 if !others.is_empty() => {
                let sq = others[rng.below(others.len())];
                s.board[sq.index()] = None;
            }
            2 if !others.is_empty() => {
                let sq = others[rng.below(others.len())];
                if let Some(p) = s.board[sq.index()].take() {
                    s.place_near(rng, p.color(), p.kind(), 3);
                    if s == *self {
                        s.board[sq.index()] = Some(p);
                    }
                }
            }
            3 => {
                let kind = PieceKind::HAND[rng.below(7)];
                if s.free(kind) > 0 {
                    s.hand.add(kind);
                }
            }
            4 => {
                let kind = PieceKind::HAND[rng.below(7)];
                if s.hand.count(kind) > 0 {
                    s.hand.remove(kind);
                }
            }
            5 => {
                let to: Vec<Square> = Square::all()
                    .filter(|&sq| distance(sq, king) == 1 && self.board[sq.index()].is_none())
                    .collect();
                if !to.is_empty() {
                    let sq = to[rng.below(to.len())];
                    s.board[king.index()] = None;
                    s.board[sq.index()] = Some(Piece::new(DEFENDER, King));
                }
            }
            6 if !others.is_empty() => {
                let sq = others[rng.below(others.len())];
                if let Some(p) = s.board[sq.index()] {
                    let kind = match p.kind().promoted() {
                        Some(k) => k,
                        None => p.kind().unpromoted(),
                    };
                    s.board[sq.index()] = Some(Piece::new(p.color(), kind));
                }
            }
            _ => {}
        }
        s
    }

    /// The sketch without the piece on `sq` (it goes to the defender's
    /// hand), if there is one other than the king.
    pub fn without(&self, sq: Square) -> Option<Sketch> {
        let p = self.board[sq.index()]?;
        if p.kind() == King {
            return None;
        }
        let mut s = self.clone();
        s.board[sq.index()] = None;
        Some(s)
    }

    /// The sketch of a tsume position: the attacker (Black) to move, no
    /// attacker king, one defender king, the defender holding the rest of
    /// the set or nothing. `None` otherwise.
    pub fn from_position(pos: &Position) -> Option<Sketch> {
        if pos.side_to_move() != ATTACKER
            || pos.king_square(ATTACKER).is_some()
            || pos.king_square(DEFENDER).is_none()
        {
            return None;
        }
        let mut s = Sketch::empty();
        for sq in Square::all() {
            s.board[sq.index()] = pos.piece_at(sq);
        }
        s.hand = pos.hand(ATTACKER);
        let mut rest = Hand::EMPTY;
        for k in PieceKind::HAND {
            rest.set(k, s.free(k));
        }
        if pos.hand(DEFENDER) == rest {
            Some(s)
        } else if pos.hand(DEFENDER).is_empty() {
            Some(s.with_rest_in_hand(false))
        } else {
            None
        }
    }

    /// The squares holding a piece other than the king, in index order.
    pub fn piece_squares(&self) -> Vec<Square> {
        Square::all()
            .filter(|&sq| self.board[sq.index()].is_some_and(|p| p.kind() != King))
            .collect()
    }

    /// The position (attacker to move, the defender holding the rest or
    /// nothing), or
    /// `None` when it breaks a rule: two pawns on a file, a piece that can
    /// never move, the king in check, the attacker with nothing to play.
    pub fn position(&self) -> Option<Position> {
        let mut pos = Position::empty();
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                pos.put(sq, p);
            }
        }
        let mut rest = Hand::EMPTY;
        if self.rest_in_hand {
            for k in PieceKind::HAND {
                rest.set(k, self.free(k));
            }
        }
        pos.set_hand(ATTACKER, self.hand);
        pos.set_hand(DEFENDER, rest);
        pos.set_side(ATTACKER);
        pos.refresh();
        if pos.pieces_of(ATTACKER).is_empty() && self.hand.is_empty() {
            return None;
        }
        // The rules a position must keep, as the SFEN reader holds them.
        sfen::validate(&pos, false).ok().map(|()| pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_is_deterministic_and_spread() {
        let a: Vec<u64> = {
            let mut r = Rng::new(1);
            (0..4).map(|_| r.next_u64()).collect()
        };
        let mut r = Rng::new(1);
        assert_eq!(a, (0..4).map(|_| r.next_u64()).collect::<Vec<_>>());
        let mut counts = [0usize; 4];
        for _ in 0..4000 {
            counts[r.below(4)] += 1;
        }
        assert!(
            counts.iter().all(|&c| (800..1200).contains(&c)),
            "{counts:?}"
        );
    }

    #[test]
    fn random_positions_are_tsume_positions() {
        let mut rng = Rng::new(3);
        let mut made = 0;
        for _ in 0..300 {
            let s = Sketch::random(&mut rng, 5);
            if let Some(pos) = s.position() {
                made += 1;
                assert_eq!(pos.side_to_move(), Color::Black);
                let king = pos.king_square(Color::White).unwrap();
                assert!(king.rank() <= 3);
                assert!(!pos.in_check());
                // Every piece of the set is somewhere (the attacker has no king).
                let hands = pos.hand(Color::Black).total() + pos.hand(Color::White).total();
                assert_eq!(hands + pos.occupied().count(), 39);
                assert_eq!(Sketch::from_position(&pos).as_ref(), Some(&s));
                let m = s.mutate(&mut rng);
                if let Some(p) = m.position() {
                    let n = p.hand(Color::White).total() + p.hand(Color::Black).total();
                    assert_eq!(p.occupied().count() + n, 39);
                }
            }
        }
        // Some draws break a rule (the king in check, two pawns on a file).
        assert!(made > 120, "{made}");
    }

    #[test]
    fn the_defender_holds_the_rest_or_nothing() {
        let rest: Position = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"
            .parse()
            .unwrap();
        let s = Sketch::from_position(&rest).unwrap();
        assert_eq!(s.position(), Some(rest));
        let none = s.with_rest_in_hand(false).position().unwrap();
        assert_eq!(none.to_string(), "4k4/9/4P4/9/9/9/9/9/9 b G 1");
        assert_eq!(
            Sketch::from_position(&none).and_then(|s| s.position()),
            Some(none)
        );
        // Some pieces in the defender's hand, not all: not a sketch.
        let some: Position = "4k4/9/4P4/9/9/9/9/9/9 b Gr 1".parse().unwrap();
        assert_eq!(Sketch::from_position(&some), None);
    }
}
