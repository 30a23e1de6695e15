//! SFEN: reading ([`std::str::FromStr`] for [`Position`]) and writing
//! ([`std::fmt::Display`]), and the USI `position` command forms.
//!
//! ```
//! use tsume::core::{Position, UsiPosition};
//! let pos: Position = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
//!     .parse()
//!     .unwrap();
//! assert_eq!(pos, Position::startpos());
//! assert_eq!(pos.to_string().parse::<Position>().unwrap(), pos);
//!
//! // A tsume position: only the defender's king, the rest in hands.
//! let t: Position = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1".parse().unwrap();
//! assert_eq!(t.hand(tsume::core::Color::Black).count(tsume::core::PieceKind::Gold), 1);
//!
//! let err = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL1 b - 1"
//!     .parse::<Position>()
//!     .unwrap_err();
//! assert!(err.to_string().contains("rank i"), "{err}");
//!
//! let usi: UsiPosition = "position startpos moves 7g7f 3c3d".parse().unwrap();
//! assert_eq!(usi.moves.len(), 2);
//! assert_eq!(usi.end.ply(), 3);
//! ```

use std::fmt;
use std::str::FromStr;

use super::hand::MAX_COUNT;
use super::position::{IllegalMove, must_promote};
use super::{Color, Hand, Move, ParseMoveError, Piece, PieceKind, Position, Square};
use crate::input::quote;

/// The SFEN of the initial position of an even game.
pub const STARTPOS: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// What is wrong with an SFEN. Columns count characters from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SfenError {
    #[error("empty SFEN")]
    Empty,
    #[error("the SFEN ends after the board: the side to move (`b` or `w`) is missing")]
    MissingSide,
    #[error("the SFEN ends after the side to move: the pieces in hand (`-` for none) are missing")]
    MissingHands,
    #[error("the board has {0} ranks separated by `/`, expected 9")]
    RankCount(usize),
    #[error("rank {rank} has {squares} squares, expected 9 (column {column})")]
    RankLength {
        rank: char,
        squares: usize,
        column: usize,
    },
    #[error("unknown letter `{}` at column {column}", quote(&.letter.to_string()))]
    UnknownLetter { letter: char, column: usize },
    #[error("`+{letter}` at column {column}: this piece cannot be promoted")]
    BadPromotion { letter: char, column: usize },
    #[error("`+` at column {column} is not followed by a piece letter")]
    DanglingPlus { column: usize },
    #[error("side to move `{found}` at column {column}: expected `b` or `w`")]
    BadSide { found: String, column: usize },
    #[error("pieces in hand at column {column}: {reason}")]
    BadHand { reason: String, column: usize },
    #[error("move number `{found}` at column {column}: expected a positive integer")]
    BadPly { found: String, column: usize },
    #[error("unexpected text `{found}` at column {column} after the move number")]
    TrailingText { found: String, column: usize },
    #[error("{count} {color} kings on the board; at most one each")]
    TooManyKings { color: ColorName, count: u32 },
    #[error("a {color} {kind} on {square} could never move again")]
    DeadPiece {
        color: ColorName,
        kind: KindName,
        square: Square,
    },
    #[error("two {color} unpromoted pawns on file {file} (nifu)")]
    TwoPawns { color: ColorName, file: u8 },
    /// More pieces of a kind than a set holds, or (`relaxed`) than a
    /// relaxed position may hold.
    #[error(
        "{count} {kind}s in all (board and hands), more than {}",
        if *.relaxed {
            format!("{max}, the most a relaxed position may hold (a set has {})", set_count(.kind.0))
        } else {
            format!("the {max} of a set")
        }
    )]
    TooManyPieces {
        kind: KindName,
        count: u32,
        max: u32,
        relaxed: bool,
    },
    #[error("the side not to move ({color}) is in check")]
    OpponentInCheck { color: ColorName },
}

/// A colour written out for error messages.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ColorName(pub Color);

impl fmt::Display for ColorName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// A piece kind written out for error messages.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct KindName(pub PieceKind);

impl fmt::Display for KindName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PieceKind::*;
        f.write_str(match self.0 {
            Pawn => "pawn",
            Lance => "lance",
            Knight => "knight",
            Silver => "silver",
            Gold => "gold",
            Bishop => "bishop",
            Rook => "rook",
            King => "king",
            ProPawn => "promoted pawn",
            ProLance => "promoted lance",
            ProKnight => "promoted knight",
            ProSilver => "promoted silver",
            Horse => "horse",
            Dragon => "dragon",
        })
    }
}

/// Splits on ASCII whitespace, keeping the 1-based character column of
/// each field.
fn fields(s: &str) -> Vec<(usize, &str)> {
    // (1-based character column, word), in one pass over the text.
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    for (column, (i, c)) in s.char_indices().enumerate() {
        if c.is_whitespace() {
            if let Some((col, st)) = start.take() {
                out.push((col, &s[st..i]));
            }
        } else if start.is_none() {
            start = Some((column + 1, i));
        }
    }
    if let Some((col, st)) = start {
        out.push((col, &s[st..]));
    }
    out
}

fn parse_board(pos: &mut Position, board: &str, col0: usize) -> Result<(), SfenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 9 {
        return Err(SfenError::RankCount(ranks.len()));
    }
    let mut column = col0;
    for (r, text) in ranks.iter().enumerate() {
        let rank_char = (b'a' + r as u8) as char;
        let rank_col = column;
        let mut file: i32 = 9;
        let mut squares = 0usize;
        let mut promoted = false;
        let mut plus_col = 0;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10).filter(|_| !promoted) {
                if d == 0 {
                    return Err(SfenError::UnknownLetter { letter: c, column });
                }
                squares += d as usize;
                file -= d as i32;
            } else if c == '+' && !promoted {
                promoted = true;
                plus_col = column;
            } else {
                let Some(piece) = Piece::from_sfen_char(c, promoted) else {
                    if promoted && PieceKind::from_sfen_letter(c).is_some() {
                        return Err(SfenError::BadPromotion { letter: c, column });
                    }
                    if promoted {
                        return Err(SfenError::DanglingPlus { column: plus_col });
                    }
                    return Err(SfenError::UnknownLetter { letter: c, column });
                };
                promoted = false;
                squares += 1;
                if file >= 1 {
                    let sq = Square::from_file_rank(file as u8, r as u8 + 1).expect("in range");
                    pos.put(sq, piece);
                }
                file -= 1;
            }
            column += 1;
        }
        if promoted {
            return Err(SfenError::DanglingPlus { column: plus_col });
        }
        if squares != 9 {
            return Err(SfenError::RankLength {
                rank: rank_char,
                squares,
                column: rank_col,
            });
        }
        column += 1; // the '/'
    }
    Ok(())
}

/// The pieces of a hand kind in a set.
fn set_count(kind: PieceKind) -> u32 {
    u32::from(MAX_COUNT[kind.index()])
}

impl SfenError {
    /// Whether the position would be read with relaxed limits (two
    /// unpromoted pawns on a file, more pieces than a set within what a
    /// relaxed position may hold).
    pub fn accepted_when_relaxed(&self) -> bool {
        match self {
            SfenError::TwoPawns { .. } => true,
            SfenError::TooManyPieces {
                kind,
                count,
                relaxed: false,
                ..
            } => *count <= count_limit(kind.0, true),
            _ => false,
        }
    }
}

/// The pieces of `kind` on the board, promoted or not.
fn on_board(pos: &Position, kind: PieceKind) -> u32 {
    (pos.pieces_of_kind(kind)
        | kind
            .promoted()
            .map_or(super::Bitboard::EMPTY, |p| pos.pieces_of_kind(p)))
    .count()
}

/// The most pieces of a hand kind a position may hold in all: a full set,
/// or (relaxed) what a hand field can store.
fn count_limit(kind: PieceKind, relaxed: bool) -> u32 {
    if relaxed {
        match kind {
            PieceKind::Pawn => 31,
            PieceKind::Bishop | PieceKind::Rook => 3,
            _ => 7,
        }
    } else {
        MAX_COUNT[kind.index()] as u32
    }
}

/// The hands of the hand field `text` (at column `col0`) of a position
/// whose board is `board`: the pieces of a kind, on the board and in the
/// hands, must be at most a set (or what a relaxed position may hold).
fn parse_hands(
    text: &str,
    col0: usize,
    relaxed: bool,
    board: &Position,
) -> Result<[Hand; 2], SfenError> {
    let mut hands = [Hand::EMPTY; 2];
    if text == "-" {
        return Ok(hands);
    }
    // The whole field is read before the counts are judged, so that an
    // error gives the count in all (`GGGGGGGGGG`: 10 golds, not 5).
    let mut counts = [[0u32; 8]; 2];
    let mut count: Option<u32> = None;
    let mut count_col = col0;
    for (i, c) in text.chars().enumerate() {
        let column = col0 + i;
        if let Some(d) = c.to_digit(10) {
            if count.is_none() {
                count_col = column;
            }
            let n = count.unwrap_or(0) * 10 + d;
            if n > count_limit(PieceKind::Pawn, relaxed) {
                return Err(SfenError::BadHand {
                    reason: format!("a count above {}", count_limit(PieceKind::Pawn, relaxed)),
                    column: count_col,
                });
            }
            count = Some(n);
            continue;
        }
        let Some(kind) = PieceKind::from_sfen_letter(c) else {
            return Err(SfenError::UnknownLetter { letter: c, column });
        };
        if !kind.is_hand_kind() {
            return Err(SfenError::BadHand {
                reason: format!("`{c}`: a king cannot be held in hand"),
                column,
            });
        }
        let n = count.take().unwrap_or(1);
        if n == 0 {
            return Err(SfenError::BadHand {
                reason: "a count of 0".to_string(),
                column: count_col,
            });
        }
        let color = if c.is_ascii_uppercase() {
            Color::Black
        } else {
            Color::White
        };
        let slot = &mut counts[color.index()][kind.index()];
        *slot = slot.saturating_add(n);
    }
    if count.is_some() {
        return Err(SfenError::BadHand {
            reason: "a count not followed by a piece letter".to_string(),
            column: count_col,
        });
    }
    for kind in PieceKind::HAND {
        let i = kind.index();
        let total = on_board(board, kind)
            .saturating_add(counts[0][i])
            .saturating_add(counts[1][i]);
        let max = count_limit(kind, relaxed);
        if total > max {
            return Err(SfenError::TooManyPieces {
                kind: KindName(kind),
                count: total,
                max,
                relaxed,
            });
        }
        for color in Color::ALL {
            hands[color.index()].set(kind, counts[color.index()][i]);
        }
    }
    Ok(hands)
}

/// The rules a position must keep, as the reader holds them: at most one
/// king a side, no piece that can never move, no two unpromoted pawns of a
/// side on a file (unless `relaxed`), at most a set of pieces, the side not
/// to move not in check.
pub(crate) fn validate(pos: &Position, relaxed: bool) -> Result<(), SfenError> {
    for color in Color::ALL {
        let kings = pos.pieces(color, PieceKind::King).count();
        if kings > 1 {
            return Err(SfenError::TooManyKings {
                color: ColorName(color),
                count: kings,
            });
        }
    }
    // Pieces that can never move again, from rank a down for readability.
    for rank in 1..=9u8 {
        for file in (1..=9u8).rev() {
            let sq = Square::from_file_rank(file, rank).expect("in range");
            if let Some(p) = pos.piece_at(sq)
                && must_promote(p.kind(), p.color(), sq)
            {
                return Err(SfenError::DeadPiece {
                    color: ColorName(p.color()),
                    kind: KindName(p.kind()),
                    square: sq,
                });
            }
        }
    }
    for color in Color::ALL {
        if relaxed {
            break;
        }
        for file in (1..=9u8).rev() {
            let pawns = pos.pieces(color, PieceKind::Pawn) & super::Bitboard::file(file);
            if pawns.more_than_one() {
                return Err(SfenError::TwoPawns {
                    color: ColorName(color),
                    file,
                });
            }
        }
    }
    for kind in PieceKind::HAND {
        let count = on_board(pos, kind)
            + pos.hand(Color::Black).count(kind)
            + pos.hand(Color::White).count(kind);
        let max = count_limit(kind, relaxed);
        if count > max {
            return Err(SfenError::TooManyPieces {
                kind: KindName(kind),
                count,
                max,
                relaxed,
            });
        }
    }
    let them = !pos.side_to_move();
    if let Some(k) = pos.king_square(them)
        && pos.is_attacked(pos.side_to_move(), k, pos.occupied())
    {
        return Err(SfenError::OpponentInCheck {
            color: ColorName(them),
        });
    }
    Ok(())
}

/// Parses the four SFEN fields starting at `fields[0]`; returns the
/// position and how many fields were used (3 or 4).
fn parse_fields(f: &[(usize, &str)], relaxed: bool) -> Result<(Position, usize), SfenError> {
    let Some(&(bcol, board)) = f.first() else {
        return Err(SfenError::Empty);
    };
    let mut pos = Position::empty();
    parse_board(&mut pos, board, bcol)?;
    let &(scol, side) = f.get(1).ok_or(SfenError::MissingSide)?;
    let side = match side {
        "b" => Color::Black,
        "w" => Color::White,
        _ => {
            return Err(SfenError::BadSide {
                found: quote(side),
                column: scol,
            });
        }
    };
    let &(hcol, hands) = f.get(2).ok_or(SfenError::MissingHands)?;
    let hands = parse_hands(hands, hcol, relaxed, &pos)?;
    let mut used = 3;
    let mut ply = 1;
    if let Some(&(pcol, p)) = f.get(3)
        && p != "moves"
    {
        ply = match p.parse::<u32>() {
            Ok(n) if n >= 1 => n,
            _ => {
                return Err(SfenError::BadPly {
                    found: quote(p),
                    column: pcol,
                });
            }
        };
        used = 4;
    }
    pos.set_hand(Color::Black, hands[0]);
    pos.set_hand(Color::White, hands[1]);
    pos.set_side(side);
    pos.set_ply(ply);
    validate(&pos, relaxed)?;
    pos.refresh();
    Ok((pos, used))
}

fn parse_sfen(s: &str, relaxed: bool) -> Result<Position, SfenError> {
    let mut f = fields(s);
    if f.first().is_some_and(|&(_, w)| w == "sfen") {
        f.remove(0);
    }
    if f.len() == 1 && f[0].1 == "startpos" {
        return STARTPOS.parse();
    }
    let (pos, used) = parse_fields(&f, relaxed)?;
    if let Some(&(column, extra)) = f.get(used) {
        return Err(SfenError::TrailingText {
            found: quote(extra),
            column,
        });
    }
    Ok(pos)
}

impl FromStr for Position {
    type Err = SfenError;

    /// Reads an SFEN (`<board> <side> <hands> [<move number>]`), or the
    /// word `startpos`. A leading `sfen ` is accepted.
    fn from_str(s: &str) -> Result<Position, SfenError> {
        parse_sfen(s, false)
    }
}

impl Position {
    /// Reads an SFEN like [`str::parse`], but accepts positions that cannot
    /// arise in a game yet are still playable: more pieces of a kind than a
    /// set holds (three rooks, say; up to what a hand can store: 31 pawns,
    /// 3 bishops or rooks, 7 of the others), and two unpromoted pawns of a
    /// side on one file (no pawn may then be dropped on that file). Some
    /// published perft positions and generated problem sets need this.
    /// Every other rule is still checked.
    pub fn from_sfen_relaxed(s: &str) -> Result<Position, SfenError> {
        parse_sfen(s, true)
    }
}

impl fmt::Display for Position {
    /// Writes the SFEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in 1..=9u8 {
            if rank > 1 {
                f.write_str("/")?;
            }
            let mut empty = 0;
            for file in (1..=9u8).rev() {
                let sq = Square::from_file_rank(file, rank).expect("in range");
                match self.piece_at(sq) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{p}")?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
        }
        write!(f, " {} ", self.side_to_move())?;
        let (b, w) = (self.hand(Color::Black), self.hand(Color::White));
        if b.is_empty() && w.is_empty() {
            f.write_str("-")?;
        }
        for (color, hand) in [(Color::Black, b), (Color::White, w)] {
            for (k, n) in hand.iter() {
                if n > 1 {
                    write!(f, "{n}")?;
                }
                let c = k.sfen_letter();
                write!(
                    f,
                    "{}",
                    if color == Color::White {
                        c.to_ascii_lowercase()
                    } else {
                        c
                    }
                )?;
            }
        }
        write!(f, " {}", self.ply())
    }
}

/// What is wrong with a USI `position` command or a move list.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UsiPositionError {
    #[error("expected `startpos` or `sfen <SFEN>`")]
    MissingPosition,
    #[error("bad SFEN: {0}")]
    Sfen(#[from] SfenError),
    #[error("expected `moves` at column {column}, found `{found}`")]
    ExpectedMoves { found: String, column: usize },
    #[error("move {index} (column {column}): {error}")]
    BadMove {
        index: usize,
        column: usize,
        error: MoveError,
    },
}

/// A move string that does not parse, or is not legal in the position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error(transparent)]
    Parse(#[from] ParseMoveError),
    #[error("`{mv}` is not legal here: {reason}")]
    Illegal { mv: String, reason: IllegalMove },
}

impl Position {
    /// Parses a USI move and checks that it is legal here.
    pub fn parse_move(&self, s: &str) -> Result<Move, MoveError> {
        let m: Move = s.parse()?;
        self.is_legal(m).map_err(|reason| MoveError::Illegal {
            mv: quote(s),
            reason,
        })?;
        Ok(m)
    }
}

/// A USI `position` command: the start position, the moves, and where
/// they lead.
#[derive(Clone, Debug)]
pub struct UsiPosition {
    pub start: Position,
    pub moves: Vec<Move>,
    pub end: Position,
}

impl FromStr for UsiPosition {
    type Err = UsiPositionError;

    /// Accepts `position startpos [moves ...]`, `position sfen <SFEN>
    /// [moves ...]`, the same without the word `position`, or a bare SFEN
    /// optionally followed by `moves ...`.
    fn from_str(s: &str) -> Result<UsiPosition, UsiPositionError> {
        parse_usi_position(s, false)
    }
}

impl UsiPosition {
    /// Reads the same forms as [`str::parse`], the SFEN as
    /// [`Position::from_sfen_relaxed`] reads it (positions a game cannot
    /// reach but that can be played).
    ///
    /// ```
    /// use tsume::core::UsiPosition;
    /// // Two black pawns on file 7.
    /// let text = "sfen 4k4/9/9/9/9/9/2P6/2P6/9 b G 1 moves G*5b";
    /// assert!(text.parse::<UsiPosition>().is_err());
    /// let p = UsiPosition::parse_relaxed(text).unwrap();
    /// assert_eq!(p.end.to_string(), "4k4/4G4/9/9/9/9/2P6/2P6/9 w - 2");
    /// ```
    pub fn parse_relaxed(s: &str) -> Result<UsiPosition, UsiPositionError> {
        parse_usi_position(s, true)
    }
}

impl fmt::Display for UsiPosition {
    /// Writes the `position` command that reads back to the same start and
    /// moves: `position startpos|sfen <SFEN> [moves ...]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.start == Position::startpos() {
            f.write_str("position startpos")?;
        } else {
            write!(f, "position sfen {}", self.start)?;
        }
        if !self.moves.is_empty() {
            f.write_str(" moves")?;
            for m in &self.moves {
                write!(f, " {m}")?;
            }
        }
        Ok(())
    }
}

impl SfenError {
    /// The column (characters from 1) the error points at, when it points
    /// at one.
    pub fn column(&self) -> Option<usize> {
        use SfenError::*;
        match self {
            RankLength { column, .. }
            | UnknownLetter { column, .. }
            | BadPromotion { column, .. }
            | DanglingPlus { column }
            | BadSide { column, .. }
            | BadHand { column, .. }
            | BadPly { column, .. }
            | TrailingText { column, .. } => Some(*column),
            _ => None,
        }
    }
}

impl UsiPositionError {
    /// The column (characters from 1) the error points at, when it points
    /// at one.
    pub fn column(&self) -> Option<usize> {
        match self {
            UsiPositionError::Sfen(e) => e.column(),
            UsiPositionError::ExpectedMoves { column, .. }
            | UsiPositionError::BadMove { column, .. } => Some(*column),
            UsiPositionError::MissingPosition => None,
        }
    }
}

fn parse_usi_position(s: &str, relaxed: bool) -> Result<UsiPosition, UsiPositionError> {
    let mut f = fields(s);
    if f.first().is_some_and(|&(_, w)| w == "position") {
        f.remove(0);
    }
    let (start, mut rest) = match f.first() {
        None => return Err(UsiPositionError::MissingPosition),
        Some(&(_, "startpos")) => (Position::startpos(), 1),
        Some(&(_, "sfen")) => {
            let (p, used) = parse_fields(&f[1..], relaxed)?;
            (p, used + 1)
        }
        Some(_) => parse_fields(&f, relaxed)?,
    };
    let mut moves = Vec::new();
    let mut end = start.clone();
    if let Some(&(column, w)) = f.get(rest) {
        if w != "moves" {
            return Err(UsiPositionError::ExpectedMoves {
                found: quote(w),
                column,
            });
        }
        rest += 1;
        for (i, &(column, ms)) in f[rest..].iter().enumerate() {
            let m = end
                .parse_move(ms)
                .map_err(|error| UsiPositionError::BadMove {
                    index: i + 1,
                    column,
                    error,
                })?;
            end.do_move(m);
            moves.push(m);
        }
    }
    Ok(UsiPosition { start, moves, end })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(s: &str) -> SfenError {
        s.parse::<Position>().unwrap_err()
    }

    /// The columns of a line's words are counted in one pass, not each
    /// word's from the start of the line (quadratic on a line of a
    /// megabyte with 300,000 words).
    #[test]
    fn a_long_line_is_read_in_linear_time() {
        let words = "x ".repeat(300_000);
        let text = format!("sfen 4k4/9/4P4/9/9/9/9/9/9 b G 1 moves 5c5b {words}");
        let start = std::time::Instant::now();
        let e = text.parse::<UsiPosition>().unwrap_err();
        assert!(start.elapsed() < std::time::Duration::from_secs(3));
        assert!(
            matches!(
                e,
                UsiPositionError::BadMove {
                    index: 2,
                    column: 45,
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn errors_name_what_and_where() {
        assert!(matches!(
            err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL1 b - 1"),
            SfenError::RankLength {
                rank: 'i',
                squares: 10,
                ..
            }
        ));
        assert_eq!(
            err("lnsgkgsnl/1r5x1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
            SfenError::UnknownLetter {
                letter: 'x',
                column: 14
            }
        );
        assert!(matches!(
            err("4k4/9/9/9/4K4/9/9/9/4K4 b - 1"),
            SfenError::TooManyKings { count: 2, .. }
        ));
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/4p4 b - 1").to_string(),
            "a white pawn on 5i could never move again"
        );
        assert!(matches!(
            err("4k4/9/9/9/9/9/2P6/2P6/9 b - 1"),
            SfenError::TwoPawns { file: 7, .. }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/9 b 18Pp 1"),
            SfenError::TooManyPieces { count: 19, .. }
        ));
        assert!(matches!(
            err("4k4/4R4/9/9/9/9/9/9/9 b - 1"),
            SfenError::OpponentInCheck { .. }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/9 x - 1"),
            SfenError::BadSide { .. }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/9 b"),
            SfenError::MissingHands
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/9 b 0P"),
            SfenError::BadHand { .. }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/9 b K"),
            SfenError::BadHand { .. }
        ));
        assert!(matches!(
            err("4+gk4/9/9/9/9/9/9/9/9 b -"),
            SfenError::BadPromotion { .. }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/9 b - 0"),
            SfenError::BadPly { .. }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/9 b - 1 x"),
            SfenError::TrailingText { .. }
        ));
        assert!(matches!(err(""), SfenError::Empty));
    }

    #[test]
    fn hand_counts_with_several_digits() {
        let p: Position = "4k4/9/9/9/9/9/9/9/9 b 10P8p 1".parse().unwrap();
        assert_eq!(p.hand(Color::Black).count(PieceKind::Pawn), 10);
        assert_eq!(p.hand(Color::White).count(PieceKind::Pawn), 8);
        assert_eq!(p.to_string(), "4k4/9/9/9/9/9/9/9/9 b 10P8p 1");
    }

    #[test]
    fn usi_position_with_illegal_move_is_an_error() {
        let e = "position startpos moves 7g7f 7g7f"
            .parse::<UsiPosition>()
            .unwrap_err();
        assert!(
            matches!(e, UsiPositionError::BadMove { index: 2, .. }),
            "{e}"
        );
        let e = "position startpos moves 7g7x"
            .parse::<UsiPosition>()
            .unwrap_err();
        assert!(
            matches!(e, UsiPositionError::BadMove { index: 1, .. }),
            "{e}"
        );
    }
}
