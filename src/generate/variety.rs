//! Variety of a puzzle set: a position and its left-right mirror as one
//! ([`canonical_key`]), how alike two puzzles are ([`similarity`], marked
//! by [`Related`]), and a summary of a set ([`Stats`]).
//!
//! ```
//! use tsume::core::Position;
//! use tsume::generate::variety::{canonical_key, mirror, similarity};
//! let pos: Position = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1".parse().unwrap();
//! let left: Position = "3k5/9/3P5/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1".parse().unwrap();
//! let right = mirror(&left);
//! assert_eq!(right.to_string(), "5k3/9/5P3/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
//! assert_eq!(canonical_key(&left), canonical_key(&right));
//! assert_ne!(canonical_key(&left), canonical_key(&pos));
//! // The same pieces a file apart: alike by their shape around the king.
//! assert_eq!(similarity(&left, &pos), 1.0);
//! ```

use std::collections::BTreeMap;

use hashbrown::HashMap;

use super::Puzzle;
use crate::core::{Color, Move, Position, Square};

/// `pos` mirrored left to right (file f to file 10 - f), hands and side
/// to move kept.
pub fn mirror(pos: &Position) -> Position {
    let mut m = Position::empty();
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            let to = Square::from_file_rank(10 - sq.file(), sq.rank()).expect("a square");
            m.put(to, p);
        }
    }
    for c in [Color::Black, Color::White] {
        m.set_hand(c, pos.hand(c));
    }
    m.set_side(pos.side_to_move());
    m.set_ply(pos.ply());
    m.refresh();
    m
}

/// A key shared by a position and its mirror image: the smaller of their
/// two keys (the side to move and hands are part of both).
pub fn canonical_key(pos: &Position) -> u64 {
    pos.key().min(mirror(pos).key())
}

/// The features two puzzles are compared by: every piece on the board as
/// (piece, file and rank relative to the defender's king, the file
/// folded so that mirror images agree), and the attacker's hand. A
/// puzzle moved a file or mirrored has the same features.
fn features(pos: &Position) -> Vec<(u8, i8, i8)> {
    let Some(king) = pos.king_square(Color::White) else {
        return Vec::new();
    };
    let mut plain = Vec::new();
    let mut flipped = Vec::new();
    for sq in Square::all() {
        let Some(p) = pos.piece_at(sq) else { continue };
        let df = sq.file() as i8 - king.file() as i8;
        let dr = sq.rank() as i8 - king.rank() as i8;
        plain.push((p.index() as u8, df, dr));
        flipped.push((p.index() as u8, -df, dr));
    }
    // The attacker's hand: one feature per piece, off the board.
    for (kind, n) in pos.hand(pos.side_to_move()).iter() {
        for copy in 0..n {
            let f = (u8::MAX - kind.index() as u8, copy as i8, 0);
            plain.push(f);
            flipped.push(f);
        }
    }
    plain.sort_unstable();
    flipped.sort_unstable();
    // One of the two, the same for a position and its mirror.
    plain.min(flipped)
}

/// How alike two positions are, 0 to 1: the Jaccard index of their
/// features (pieces placed relative to the defender's king, mirror images
/// alike, and the attacker's hand). 1 for the same position moved or
/// mirrored; variations of one base (a piece added, taken off or moved)
/// score high, unrelated puzzles low.
pub fn similarity(a: &Position, b: &Position) -> f64 {
    let (fa, fb) = (features(a), features(b));
    let (mut i, mut j, mut common) = (0, 0, 0usize);
    while i < fa.len() && j < fb.len() {
        match fa[i].cmp(&fb[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    let union = fa.len() + fb.len() - common;
    if union == 0 {
        1.0
    } else {
        common as f64 / union as f64
    }
}

/// Marks puzzles alike to earlier ones of a set: each puzzle is compared
/// with the earlier ones of its length whose king stands on the same
/// square up to the mirror (variations of one base mostly keep the king),
/// and related to the most similar one at or above the threshold.
pub struct Related {
    threshold: f64,
    /// Earlier puzzles by (length, king square folded), with their number
    /// in the set.
    buckets: HashMap<(usize, u8), Vec<(usize, Position)>>,
    count: usize,
}

impl Related {
    /// Marking at `threshold` (0 to 1).
    pub fn new(threshold: f64) -> Related {
        Related {
            threshold,
            buckets: HashMap::new(),
            count: 0,
        }
    }

    fn bucket(p: &Puzzle) -> (usize, u8) {
        let king = p.position.king_square(Color::White);
        let folded = king.map_or(0, |k| {
            let file = k.file().min(10 - k.file());
            file * 10 + k.rank()
        });
        (p.plies(), folded)
    }

    /// The most similar earlier puzzle at or above the threshold (its
    /// number in the set, from 0, and the similarity); `None` when there
    /// is none. Does not add `p`.
    pub fn most_similar(&self, p: &Puzzle) -> Option<(usize, f64)> {
        let earlier = self.buckets.get(&Self::bucket(p))?;
        let mut best: Option<(usize, f64)> = None;
        for (n, q) in earlier {
            let s = similarity(&p.position, q);
            if s >= self.threshold && best.is_none_or(|(_, b)| s > b) {
                best = Some((*n, s));
            }
        }
        best
    }

    /// Adds `p` as the next puzzle of the set; its number.
    pub fn add(&mut self, p: &Puzzle) -> usize {
        let n = self.count;
        self.count += 1;
        self.buckets
            .entry(Self::bucket(p))
            .or_default()
            .push((n, p.position.clone()));
        n
    }
}

/// What kind of move a puzzle starts with: `drop-金`, `capture-飛`,
/// `promotion-角`, `move-銀` (the piece as it stood, or dropped).
pub fn first_move_kind(pos: &Position, m: Move) -> String {
    let piece = m
        .drop_kind()
        .or_else(|| m.from().and_then(|f| pos.piece_at(f)).map(|p| p.kind()));
    let name = piece.map_or("?", |k| k.japanese_short());
    let how = if m.is_drop() {
        "drop"
    } else if pos.piece_at(m.to()).is_some() {
        "capture"
    } else if m.is_promotion() {
        "promotion"
    } else {
        "move"
    };
    format!("{how}-{name}")
}

/// A summary of a puzzle set: how many of each length, number of pieces
/// (on the board, and in the attacker's hand), tag, square of the
/// defender's king and kind of first move.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub puzzles: usize,
    pub lengths: BTreeMap<usize, usize>,
    pub board_pieces: BTreeMap<u32, usize>,
    pub hand_pieces: BTreeMap<u32, usize>,
    pub tags: BTreeMap<&'static str, usize>,
    pub king_squares: BTreeMap<String, usize>,
    pub first_moves: BTreeMap<String, usize>,
    /// Puzzles related to an earlier one (see [`Related`]).
    pub related: usize,
}

impl Stats {
    /// Counts `p`; `related` when it is marked related to an earlier one.
    pub fn add(&mut self, p: &Puzzle, related: bool) {
        self.puzzles += 1;
        *self.lengths.entry(p.plies()).or_default() += 1;
        let board = p.position.occupied().count();
        *self.board_pieces.entry(board).or_default() += 1;
        let hand = p.position.hand(p.position.side_to_move()).total();
        *self.hand_pieces.entry(hand).or_default() += 1;
        for t in &p.tags {
            *self.tags.entry(t.name()).or_default() += 1;
        }
        if p.tags.is_empty() {
            *self.tags.entry("(none)").or_default() += 1;
        }
        let king = p
            .position
            .king_square(!p.position.side_to_move())
            .map_or("-".to_string(), |k| format!("{}{}", k.file(), k.rank()));
        *self.king_squares.entry(king).or_default() += 1;
        if let Some(&m) = p.moves.first() {
            *self
                .first_moves
                .entry(first_move_kind(&p.position, m))
                .or_default() += 1;
        }
        if related {
            self.related += 1;
        }
    }

    /// The summary as lines of text (`key: value value ...`).
    pub fn lines(&self) -> Vec<String> {
        fn row<K: std::fmt::Display>(name: &str, m: &BTreeMap<K, usize>) -> String {
            let items: Vec<String> = m.iter().map(|(k, v)| format!("{k}={v}")).collect();
            format!("{name}: {}", items.join(" "))
        }
        let mut kings: Vec<(&String, &usize)> = self.king_squares.iter().collect();
        kings.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let kings: Vec<String> = kings.iter().map(|(k, v)| format!("{k}={v}")).collect();
        vec![
            format!(
                "stats: {} puzzles, {} related to an earlier one",
                self.puzzles, self.related
            ),
            row("stats: plies", &self.lengths),
            row("stats: pieces on the board", &self.board_pieces),
            row("stats: pieces in the attacker's hand", &self.hand_pieces),
            row("stats: tags", &self.tags),
            format!("stats: king squares (file rank): {}", kings.join(" ")),
            row("stats: first moves", &self.first_moves),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(s: &str) -> Position {
        s.parse().unwrap()
    }

    #[test]
    fn mirror_twice_is_the_position() {
        let p = pos("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
        let m = mirror(&p);
        assert_ne!(m, p);
        assert_eq!(mirror(&m).to_string(), p.to_string());
        assert_eq!(canonical_key(&m), canonical_key(&p));
        assert_ne!(canonical_key(&m), canonical_key(&Position::startpos()));
    }

    #[test]
    fn similarity_tells_variations_from_others() {
        let base = pos("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
        let moved = pos("5k3/9/5P3/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
        assert_eq!(similarity(&base, &moved), 1.0);
        // A silver added: three features of four shared.
        let more = pos("4k4/9/4P4/9/7S1/9/9/9/9 b G2r2b3g3s4n4l17p 1");
        let s = similarity(&base, &more);
        assert!((s - 0.75).abs() < 1e-9, "{s}");
        // Another shape and hand: nothing shared but the king.
        let other = pos("8k/9/7P1/9/9/9/9/9/9 b Rr2b4g4s4n4l17p 1");
        assert!(similarity(&base, &other) < 0.5);
    }
}
