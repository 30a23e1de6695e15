//! What a mating line shows (tags: drop mate, sacrifice, discovered check,
//! ...) and how hard it is to find (the difficulty figures).
//!
//! ```
//! use tsume::core::Position;
//! use tsume::generate::tags::{Tag, tags};
//! let pos: Position = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1".parse().unwrap();
//! let line = [pos.parse_move("G*5b").unwrap()];
//! assert_eq!(tags(&pos, &line), [Tag::Drop, Tag::DropMate]);
//! assert_eq!(Tag::DropMate.to_string(), "drop-mate");
//! ```

use std::fmt;

use crate::core::movegen::{check_moves, evasion_moves};
use crate::core::{Move, PieceKind, Position};

/// A feature of a mating line. The attacker is the side to move at the
/// start of the line.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tag {
    /// The attacker drops a piece (打).
    Drop,
    /// The mating move is a drop (打ち詰め of a piece other than a pawn, or
    /// any piece).
    DropMate,
    /// An attacker piece promotes (成).
    Promotion,
    /// An attacker piece that could promote does not (不成).
    NonPromotion,
    /// The defender captures the piece the attacker just moved or dropped
    /// (捨て駒).
    Sacrifice,
    /// The piece captured was dropped (打ち捨て).
    DropSacrifice,
    /// A check given by a piece other than the one that moved (開き王手).
    DiscoveredCheck,
    /// A check by two pieces at once (両王手).
    DoubleCheck,
    /// The defender blocks a check with a piece, moved or dropped (合駒).
    Interposition,
    /// The attacker captures a defender piece.
    Capture,
    /// The king moves at least once.
    KingMove,
}

impl Tag {
    /// Every tag, in the order they are reported.
    pub const ALL: [Tag; 11] = [
        Tag::Drop,
        Tag::DropMate,
        Tag::Promotion,
        Tag::NonPromotion,
        Tag::Sacrifice,
        Tag::DropSacrifice,
        Tag::DiscoveredCheck,
        Tag::DoubleCheck,
        Tag::Interposition,
        Tag::Capture,
        Tag::KingMove,
    ];

    /// The name used in text and JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Tag::Drop => "drop",
            Tag::DropMate => "drop-mate",
            Tag::Promotion => "promotion",
            Tag::NonPromotion => "non-promotion",
            Tag::Sacrifice => "sacrifice",
            Tag::DropSacrifice => "drop-sacrifice",
            Tag::DiscoveredCheck => "discovered-check",
            Tag::DoubleCheck => "double-check",
            Tag::Interposition => "interposition",
            Tag::Capture => "capture",
            Tag::KingMove => "king-move",
        }
    }

    /// The tsume-shogi term.
    pub fn japanese(self) -> &'static str {
        match self {
            Tag::Drop => "駒打",
            Tag::DropMate => "打ち詰め",
            Tag::Promotion => "成",
            Tag::NonPromotion => "不成",
            Tag::Sacrifice => "捨て駒",
            Tag::DropSacrifice => "打ち捨て",
            Tag::DiscoveredCheck => "開き王手",
            Tag::DoubleCheck => "両王手",
            Tag::Interposition => "合駒",
            Tag::Capture => "駒取り",
            Tag::KingMove => "玉移動",
        }
    }
}

impl fmt::Display for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The tags of `line` played from `pos` (the attacker to move), sorted,
/// each once. Stops at the first move that is not legal.
pub fn tags(pos: &Position, line: &[Move]) -> Vec<Tag> {
    let attacker = pos.side_to_move();
    let mut found = Vec::new();
    let mut p = pos.clone();
    let mut previous: Option<Move> = None;
    for (i, &m) in line.iter().enumerate() {
        if p.is_legal(m).is_err() {
            break;
        }
        let mover = p.piece_at(m.from().unwrap_or(m.to())).map(|pc| pc.kind());
        let captures = !m.is_drop() && p.piece_at(m.to()).is_some();
        if p.side_to_move() == attacker {
            if m.is_drop() {
                found.push(Tag::Drop);
                if i + 1 == line.len() {
                    found.push(Tag::DropMate);
                }
            }
            if m.is_promotion() {
                found.push(Tag::Promotion);
            } else if let Some(from) = m.from()
                && mover.is_some_and(PieceKind::can_promote)
                && p.is_legal(Move::new(from, m.to(), true)).is_ok()
            {
                found.push(Tag::NonPromotion);
            }
            if captures {
                found.push(Tag::Capture);
            }
            let after = p.after(m);
            let checkers = after.checkers();
            if checkers.more_than_one() {
                found.push(Tag::DoubleCheck);
            }
            if checkers.iter().any(|sq| sq != m.to()) {
                found.push(Tag::DiscoveredCheck);
            }
        } else {
            if mover == Some(PieceKind::King) {
                found.push(Tag::KingMove);
            }
            if let Some(prev) = previous
                && captures
                && m.to() == prev.to()
            {
                found.push(Tag::Sacrifice);
                if prev.is_drop() {
                    found.push(Tag::DropSacrifice);
                }
            }
            if mover != Some(PieceKind::King) && !captures {
                found.push(Tag::Interposition);
            }
        }
        p.do_move(m);
        previous = Some(m);
    }
    found.sort();
    found.dedup();
    found
}

/// How hard a line is to find.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Difficulty {
    /// Nodes the solver needed to prove the mate (from an empty table).
    pub nodes: u64,
    /// Checks the attacker could choose from, summed over its moves of the
    /// line.
    pub checks: u32,
    /// Legal replies the defender could choose from, summed over its moves.
    pub defences: u32,
    /// One figure: log2 of the nodes plus log2 of the product of the check
    /// counts (the bits needed to guess the attacker's moves), rounded to
    /// a tenth.
    pub score: f64,
}

/// The difficulty of `line` from `pos`, whose proof took `nodes` nodes.
pub fn difficulty(pos: &Position, line: &[Move], nodes: u64) -> Difficulty {
    let attacker = pos.side_to_move();
    let mut p = pos.clone();
    let (mut checks, mut defences, mut bits) = (0u32, 0u32, 0f64);
    for &m in line {
        if p.side_to_move() == attacker {
            let n = check_moves(&p).len() as u32;
            checks += n;
            bits += f64::from(n.max(1)).log2();
        } else {
            defences += evasion_moves(&p).len() as u32;
        }
        if p.is_legal(m).is_err() {
            break;
        }
        p.do_move(m);
    }
    let score = ((nodes.max(1) as f64).log2() + bits) * 10.0;
    Difficulty {
        nodes,
        checks,
        defences,
        score: score.round() / 10.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line_tags(sfen: &str, moves: &str) -> Vec<Tag> {
        let pos: Position = sfen.parse().unwrap();
        let mut p = pos.clone();
        let mut line = Vec::new();
        for w in moves.split_whitespace() {
            let m = p.parse_move(w).unwrap();
            p.do_move(m);
            line.push(m);
        }
        assert_eq!(line.len(), moves.split_whitespace().count());
        tags(&pos, &line)
    }

    #[test]
    fn drop_and_drop_mate() {
        let t = line_tags("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", "G*5b");
        assert_eq!(t, [Tag::Drop, Tag::DropMate]);
    }

    #[test]
    fn promotion() {
        let t = line_tags("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", "5c5b+");
        assert_eq!(t, [Tag::Promotion]);
    }

    #[test]
    fn non_promotion() {
        // The silver on 5c checks from 5b without promoting.
        let t = line_tags("3k5/9/4S4/9/9/9/9/9/9 b 2r2b4g3s4n4l18p 1", "5c5b");
        assert_eq!(t, [Tag::NonPromotion]);
        // A gold cannot promote: no tag.
        let t = line_tags("3k5/9/4G4/9/9/9/9/9/9 b 2r2b3g4s4n4l18p 1", "5c5b");
        assert_eq!(t, []);
    }

    #[test]
    fn sacrifice_and_drop_sacrifice() {
        let t = line_tags("4k4/9/9/9/9/9/9/9/9 b G2r2b3g4s4n4l18p 1", "G*5b 5a5b");
        assert_eq!(
            t,
            [Tag::Drop, Tag::Sacrifice, Tag::DropSacrifice, Tag::KingMove]
        );
        // A moved piece taken: a sacrifice, not a drop sacrifice.
        let t = line_tags("4k4/9/4G4/9/9/9/9/9/9 b 2r2b3g4s4n4l18p 1", "5c5b 5a5b");
        assert_eq!(t, [Tag::Sacrifice, Tag::KingMove]);
    }

    #[test]
    fn discovered_and_double_check() {
        // The silver leaves the rook's file: the rook gives check.
        let t = line_tags("4k4/9/9/9/4S4/9/9/9/4R4 b r2b4g3s4n4l18p 1", "5e4d");
        assert_eq!(t, [Tag::DiscoveredCheck]);
        // The knight leaves it and checks too (without promoting: a
        // promoted knight on 4c would not check).
        let t = line_tags("4k4/9/9/9/4N4/9/9/9/4R4 b r2b4g4s3n4l18p 1", "5e4c");
        assert_eq!(
            t,
            [Tag::NonPromotion, Tag::DiscoveredCheck, Tag::DoubleCheck]
        );
    }

    #[test]
    fn interposition_and_capture() {
        // A pawn dropped between rook and king, then taken.
        let t = line_tags("4k4/9/9/9/9/9/9/9/9 b Rr2b4g4s4n4l18p 1", "R*5i P*5b 5i5b+");
        assert_eq!(
            t,
            [Tag::Drop, Tag::Promotion, Tag::Interposition, Tag::Capture]
        );
    }

    #[test]
    fn difficulty_counts_choices() {
        let pos: Position = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"
            .parse()
            .unwrap();
        let line = [pos.parse_move("G*5b").unwrap()];
        let d = difficulty(&pos, &line, 16);
        // Seven checks (see the README's `moves --checks` example).
        assert_eq!(d.checks, 7);
        assert_eq!(d.defences, 0);
        assert_eq!(d.score, ((4.0 + 7f64.log2()) * 10.0).round() / 10.0);
    }
}
