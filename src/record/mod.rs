//! Game and problem records: KIF (Kifu for Windows), KI2 and CSA.
//!
//! A [`Record`] is a start position (a preset such as a handicap, or a
//! board diagram), the header fields, the main line of moves, how it ended
//! and its comments. [`kif`] reads and writes KIF, [`csa`] reads and writes
//! CSA (V2.2 and V3.0), [`ki2`] reads and writes KI2; [`encoding`] turns the bytes of
//! a file, UTF-8 or Shift-JIS (cp932), into text and back; [`notation`]
//! reads and writes the Japanese notation of moves their lines use.
//!
//! For a mate problem the start position is the problem and the moves are
//! its published solution. A problem may give the defender "the rest of
//! the pieces" (KIF `残り全部`, CSA `P-00AL`);
//! [`Position::with_rest_in_hand`] does the same for any position.
//!
//! ```
//! use tsume::record::{Format, Record, Termination, kif};
//!
//! let text = "\
//! 後手の持駒：残り全部
//!   ９ ８ ７ ６ ５ ４ ３ ２ １
//! +---------------------------+
//! | ・ ・ ・ ・ ・ ・v玉 ・ ・|一
//! | ・ ・ ・ ・ ・ ・ ・ ・ ・|二
//! | ・ ・ ・ ・ ・ ・ 歩 ・ ・|三
//! | ・ ・ ・ ・ ・ ・ ・ ・ ・|四
//! | ・ ・ ・ ・ ・ ・ ・ ・ ・|五
//! | ・ ・ ・ ・ ・ ・ ・ ・ ・|六
//! | ・ ・ ・ ・ ・ ・ ・ ・ ・|七
//! | ・ ・ ・ ・ ・ ・ ・ ・ ・|八
//! | ・ ・ ・ ・ ・ ・ ・ ・ ・|九
//! +---------------------------+
//! 先手の持駒：金
//! 手数----指手---------消費時間--
//!    1 ３二金打      ( 0:00/00:00:00)
//!    2 詰み
//! ";
//! let record = Record::read(text.as_bytes(), Format::Kif).unwrap();
//! assert_eq!(record.start.to_string(), "6k2/9/6P2/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
//! assert_eq!(record.moves[0].to_string(), "G*3b");
//! assert_eq!(record.end, Some(Termination::Mate));
//! // Written back and read again, it is the same record.
//! assert_eq!(kif::read(&kif::write(&record)).unwrap(), record);
//! ```

pub mod csa;
pub mod encoding;
pub mod ki2;
pub mod kif;
pub mod notation;

use std::fmt;
use std::path::Path;

use crate::core::hand::MAX_COUNT;
use crate::core::handicap::{Handicap, UnknownHandicap};
use crate::core::{Color, IllegalMove, Move, Piece, PieceKind, Position, SfenError, Square};
use crate::input::{MAX_LINE_BYTES, quote};
use crate::solver::{Outcome, SolveResult};
use notation::NotationError;

/// A record: where the game or problem starts, its header fields, the main
/// line and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The start position.
    pub start: Position,
    /// The preset the record names (KIF 手合割, CSA `PI`), if any. The
    /// start position is that preset's unless the record also has a board.
    pub handicap: Option<Handicap>,
    /// Other header fields in the order read, with KIF names (先手, 後手,
    /// 開始日時, 棋戦, ...; CSA `N+`/`N-` and the `$` fields are read into
    /// these names).
    pub headers: Vec<(String, String)>,
    /// The main line, legal moves from `start`.
    pub moves: Vec<Move>,
    /// How the record ends, if it says so.
    pub end: Option<Termination>,
    /// Comments, each with the number of moves played before it (0: before
    /// the first move).
    pub comments: Vec<(usize, String)>,
}

impl Record {
    /// A record starting from `start`, with no moves.
    pub fn new(start: Position) -> Record {
        Record {
            start,
            handicap: None,
            headers: Vec::new(),
            moves: Vec::new(),
            end: None,
            comments: Vec::new(),
        }
    }

    /// Reads a record from the bytes of a file in `format` (UTF-8 or
    /// Shift-JIS, see [`encoding::decode`]).
    pub fn read(bytes: &[u8], format: Format) -> Result<Record, RecordError> {
        let text = encoding::decode(bytes)?;
        match format {
            Format::Kif => kif::read(&text),
            Format::Ki2 => ki2::read(&text),
            Format::Csa => csa::read(&text),
        }
    }

    /// The position after the main line.
    pub fn end_position(&self) -> Position {
        let mut pos = self.start.clone();
        for &m in &self.moves {
            pos.do_move(m);
        }
        pos
    }

    /// The record of a solved problem, for a GUI to open: the problem's
    /// position (a board diagram with both hands, under 手合割 平手), the
    /// answer's line as the main line, ending in 詰み (no moves and 不詰
    /// for no mate; no moves and no end when a limit stopped the search),
    /// and a comment before the first move that says what was found
    /// (`tsume: mate in 9, 1234 nodes`).
    ///
    /// ```
    /// use tsume::record::{Record, Termination, kif};
    /// use tsume::{Position, SolveOptions, Solver};
    ///
    /// let pos: Position = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1".parse().unwrap();
    /// let result = Solver::new(16).solve(&pos, &SolveOptions::default()).unwrap();
    /// let record = Record::of_answer(&pos, &result);
    /// assert_eq!(record.end, Some(Termination::Mate));
    /// let text = kif::write(&record);
    /// assert!(text.contains("手合割：平手\n後手の持駒：飛二　角二　金三"), "{text}");
    /// assert!(text.contains("   1 ５二金打"), "{text}");
    /// assert!(text.contains("まで1手で詰み"), "{text}");
    /// assert_eq!(kif::read(&text).unwrap(), record);
    /// ```
    pub fn of_answer(start: &Position, result: &SolveResult) -> Record {
        let mut record = Record::new(start.clone());
        record.handicap = Some(Handicap::Even);
        let nodes = result.nodes;
        let found = match &result.outcome {
            Outcome::Mate { moves } => {
                record.moves = moves.clone();
                record.end = Some(Termination::Mate);
                let n = moves.len();
                match result.answer_bounds() {
                    _ if result.exact => format!("mate in {n}"),
                    Some(bounds) => format!(
                        "a mating line of {n} plies, not proven the tsume answer, which is proven to be {bounds}"
                    ),
                    None => format!("a mating line of {n} plies, not proven the tsume answer"),
                }
            }
            Outcome::NoMate => {
                record.end = Some(Termination::NoMate);
                "no mate".to_string()
            }
            Outcome::Unknown(limit) => format!("unknown ({limit})"),
        };
        record
            .comments
            .push((0, format!("tsume: {found}, {nodes} nodes")));
        record
    }

    /// The value of the header field `key`, if present.
    pub fn header(&self, key: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// A record format.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// KIF, Kifu for Windows (`.kif` in Shift-JIS, `.kifu` in UTF-8).
    Kif,
    /// KI2: KIF headers, moves in plain Japanese notation (`.ki2`, `.ki2u`).
    Ki2,
    /// CSA (`.csa`).
    Csa,
}

impl Format {
    /// The format a file name's extension says (`.kif`, `.kifu`, `.ki2`,
    /// `.ki2u`, `.csa`, in any case), if any.
    pub fn from_path(path: impl AsRef<Path>) -> Option<Format> {
        let ext = path.as_ref().extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "kif" | "kifu" => Some(Format::Kif),
            "ki2" | "ki2u" => Some(Format::Ki2),
            "csa" => Some(Format::Csa),
            _ => None,
        }
    }
}

/// How a record ends.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// 投了, `%TORYO`: the side to move resigns.
    Resign,
    /// 中断, `%CHUDAN`: abandoned.
    Abort,
    /// 詰み, `%TSUMI`: the side to move is mated.
    Mate,
    /// 不詰, `%FUZUMI`: no mate (a problem record).
    NoMate,
    /// 千日手, `%SENNICHITE`: fourfold repetition.
    Repetition,
    /// 持将棋, `%JISHOGI`: impasse, a draw.
    Impasse,
    /// 入玉勝ち, `%KACHI`: the side to move declares a win by entering king.
    EnteringKingWin,
    /// 切れ負け, `%TIME_UP`: the side to move lost on time.
    TimeUp,
    /// 反則勝ち: the side to move wins by the opponent's foul.
    IllegalWin,
    /// 反則負け, `%ILLEGAL_MOVE`: the side to move loses by a foul.
    IllegalLoss,
    /// 引き分け, `%HIKIWAKE`: a draw.
    Draw,
    /// 待った, `%MATTA`.
    Matta,
}

impl Termination {
    /// Every termination.
    pub const ALL: [Termination; 12] = [
        Termination::Resign,
        Termination::Abort,
        Termination::Mate,
        Termination::NoMate,
        Termination::Repetition,
        Termination::Impasse,
        Termination::EnteringKingWin,
        Termination::TimeUp,
        Termination::IllegalWin,
        Termination::IllegalLoss,
        Termination::Draw,
        Termination::Matta,
    ];

    /// The KIF name: 投了, 中断, 詰み, ...
    pub fn japanese(self) -> &'static str {
        match self {
            Termination::Resign => "投了",
            Termination::Abort => "中断",
            Termination::Mate => "詰み",
            Termination::NoMate => "不詰",
            Termination::Repetition => "千日手",
            Termination::Impasse => "持将棋",
            Termination::EnteringKingWin => "入玉勝ち",
            Termination::TimeUp => "切れ負け",
            Termination::IllegalWin => "反則勝ち",
            Termination::IllegalLoss => "反則負け",
            Termination::Draw => "引き分け",
            Termination::Matta => "待った",
        }
    }

    /// The termination a KIF name stands for (also 詰, 不詰み, 時間切れ).
    pub fn from_japanese(s: &str) -> Option<Termination> {
        let found = Termination::ALL.into_iter().find(|t| t.japanese() == s);
        found.or(match s {
            "詰" => Some(Termination::Mate),
            "不詰み" => Some(Termination::NoMate),
            "時間切れ" => Some(Termination::TimeUp),
            "引分け" | "引分" => Some(Termination::Draw),
            _ => None,
        })
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.japanese())
    }
}

/// Why a record cannot be read: the line (from 1), the column (characters
/// from 1) when known, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}{}: {reason}", column_text(*.column))]
pub struct RecordError {
    pub line: usize,
    pub column: Option<usize>,
    pub reason: Reason,
}

fn column_text(column: Option<usize>) -> String {
    column.map(|c| format!(", column {c}")).unwrap_or_default()
}

impl RecordError {
    pub(crate) fn new(line: usize, column: Option<usize>, reason: Reason) -> RecordError {
        RecordError {
            line,
            column,
            reason,
        }
    }
}

/// What is wrong in a record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Reason {
    #[error("the record is empty")]
    Empty,
    #[error("the text is neither UTF-8 nor Shift-JIS (cp932)")]
    Encoding,
    #[error("the text is not valid UTF-8 (the file says encoding=UTF-8)")]
    NotUtf8,
    #[error("expected {expected}, found `{}`", quote(.found))]
    Unexpected {
        expected: &'static str,
        found: String,
    },
    #[error("{0}")]
    Handicap(UnknownHandicap),
    #[error("unknown piece `{}`", quote(&.0))]
    UnknownPiece(String),
    #[error("bad count `{}` of pieces in hand", quote(&.0))]
    BadCount(String),
    #[error("the board diagram ends after {} of its 9 ranks: {} missing", .0, missing_ranks(*.0))]
    TruncatedBoard(usize),
    #[error("the board diagram has no {0} edge `+---------------------------+`")]
    MissingBoardEdge(&'static str),
    #[error(
        "rank {found} where rank {expected} was expected: rank {expected} is missing or out of order"
    )]
    RankOrder { expected: char, found: char },
    #[error("the board lacks {0}: a board of rows gives all nine, P1 to P9")]
    MissingRows(String),
    #[error(
        "the side to move is missing: a line `+` (Black) or `-` (White) alone after the position"
    )]
    MissingSide,
    #[error("the line is longer than {} MB ({} bytes)", MAX_LINE_BYTES >> 20, .0)]
    LineTooLong(usize),
    #[error("a board row has {0} squares, expected 9")]
    RowLength(usize),
    #[error(
        "row P{rank} stops after {squares} of its 9 squares: {} missing (an empty square is ` * `)",
        missing_files(*.squares)
    )]
    ShortRow { rank: u8, squares: usize },
    #[error("{0} given twice")]
    Repeated(&'static str),
    #[error("pieces in hand without a board diagram")]
    HandWithoutBoard,
    #[error("手合割：その他 without a board diagram")]
    MissingBoard,
    #[error("the set-up is not a legal position: {0}")]
    Position(SfenError),
    #[error("expected move number {expected}, found {found}")]
    MoveNumber { expected: usize, found: usize },
    #[error("move {number} `{}`: {error}", quote(.text))]
    BadMove {
        number: usize,
        text: String,
        error: NotationError,
    },
    #[error("move {number} `{}` is not legal: {reason}", quote(.text))]
    IllegalMove {
        number: usize,
        text: String,
        reason: IllegalMove,
    },
    #[error("move {number} `{}`: {why}", quote(.text))]
    BadCsaMove {
        number: usize,
        text: String,
        why: String,
    },
    #[error("move {0} comes after the end of the record")]
    MoveAfterEnd(usize),
    #[error("the position is set up after the moves have started")]
    SetupAfterMoves,
}

/// `ranks 6 to 9 are`, `rank 9 is`: the ranks after the first `n`.
fn missing_ranks(n: usize) -> String {
    match n {
        8 => "rank 9 is".to_string(),
        n if n < 9 => format!("ranks {} to 9 are", n + 1),
        _ => "no rank is".to_string(),
    }
}

/// `files 6 to 1 are`, `file 1 is`: the files of a CSA row after its
/// first `n` squares (a row runs from file 9 to file 1).
fn missing_files(n: usize) -> String {
    match n {
        8 => "the square on file 1 is".to_string(),
        n if n < 8 => format!("the squares on files {} to 1 are", 9 - n),
        _ => "no square is".to_string(),
    }
}

/// The first line of `text` longer than [`MAX_LINE_BYTES`], as an error:
/// a record's lines are read whole, so their length is bounded.
pub(crate) fn check_line_lengths(text: &str) -> Result<(), RecordError> {
    match text
        .split('\n')
        .enumerate()
        .find(|(_, l)| l.len() > MAX_LINE_BYTES)
    {
        Some((i, l)) => Err(RecordError::new(i + 1, None, Reason::LineTooLong(l.len()))),
        None => Ok(()),
    }
}

// ----------------------------------------------------------------------
// Setting up a position
// ----------------------------------------------------------------------

/// A start position as a record describes it, piece by piece.
#[derive(Clone, Debug)]
pub(crate) struct Setup {
    /// Indexed by [`Square::index`].
    pub board: [Option<Piece>; 81],
    /// Counts by colour and [`PieceKind::index`].
    pub hands: [[u32; 15]; 2],
    /// The side that gets every piece not placed otherwise.
    pub rest: Option<Color>,
    pub side: Color,
}

impl Setup {
    pub fn empty() -> Setup {
        Setup {
            board: [None; 81],
            hands: [[0; 15]; 2],
            rest: None,
            side: Color::Black,
        }
    }

    pub fn from_position(pos: &Position) -> Setup {
        let mut s = Setup::empty();
        for sq in Square::all() {
            s.board[sq.index()] = pos.piece_at(sq);
        }
        for c in Color::ALL {
            for (k, n) in pos.hand(c).iter() {
                s.hands[c.index()][k.index()] = n;
            }
        }
        s.side = pos.side_to_move();
        s
    }

    /// The position, checked as an SFEN is (one king a side, no dead
    /// pieces, no two pawns on a file, at most a set of pieces).
    pub fn position(&self) -> Result<Position, SfenError> {
        let mut sfen = String::new();
        for rank in 1..=9u8 {
            let mut empty = 0;
            for file in (1..=9u8).rev() {
                let sq = Square::from_file_rank(file, rank).expect("on the board");
                match self.board[sq.index()] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            sfen.push_str(&empty.to_string());
                            empty = 0;
                        }
                        sfen.push_str(&p.to_string());
                    }
                }
            }
            if empty > 0 {
                sfen.push_str(&empty.to_string());
            }
            if rank < 9 {
                sfen.push('/');
            }
        }
        sfen.push(' ');
        sfen.push(self.side.sfen_char());
        sfen.push(' ');
        let mut hands = String::new();
        for c in Color::ALL {
            for k in PieceKind::HAND_SFEN_ORDER {
                let n = self.hands[c.index()][k.index()];
                if n > 1 {
                    hands.push_str(&n.to_string());
                }
                if n > 0 {
                    let letter = k.sfen_letter();
                    hands.push(match c {
                        Color::Black => letter,
                        Color::White => letter.to_ascii_lowercase(),
                    });
                }
            }
        }
        if hands.is_empty() {
            hands.push('-');
        }
        sfen.push_str(&hands);
        sfen.push_str(" 1");
        let pos: Position = sfen.parse()?;
        Ok(match self.rest {
            Some(c) => pos.with_rest_in_hand(c),
            None => pos,
        })
    }
}

impl Position {
    /// This position with every piece that is neither on the board nor in
    /// a hand added to `color`'s hand (kings aside): the defender's "rest
    /// of the pieces" (残り全部) of a mate problem.
    ///
    /// ```
    /// use tsume::core::{Color, Position};
    /// let pos: Position = "4k4/9/4P4/9/9/9/9/9/9 b G 1".parse().unwrap();
    /// let full = pos.with_rest_in_hand(Color::White);
    /// assert_eq!(full.to_string(), "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
    /// ```
    pub fn with_rest_in_hand(&self, color: Color) -> Position {
        let mut used = [0u32; 15];
        for sq in self.occupied() {
            if let Some(p) = self.piece_at(sq) {
                used[p.kind().unpromoted().index()] += 1;
            }
        }
        for c in Color::ALL {
            for (k, n) in self.hand(c).iter() {
                used[k.index()] += n;
            }
        }
        let mut hand = self.hand(color);
        for k in PieceKind::HAND {
            let rest = u32::from(MAX_COUNT[k.index()]).saturating_sub(used[k.index()]);
            hand.set(k, hand.count(k) + rest);
        }
        let mut pos = self.clone();
        pos.set_hand(color, hand);
        pos
    }
}

/// The piece named by one kanji of a board diagram or hand: 歩 香 桂 銀 金
/// 角 飛 玉 王 と 杏 圭 全 馬 龍 竜 (also 成香 成桂 成銀 in hands' style).
pub(crate) fn kanji_kind(s: &str) -> Option<PieceKind> {
    use PieceKind::*;
    Some(match s {
        "歩" => Pawn,
        "香" => Lance,
        "桂" => Knight,
        "銀" => Silver,
        "金" => Gold,
        "角" => Bishop,
        "飛" => Rook,
        "玉" | "王" => King,
        "と" => ProPawn,
        "杏" | "成香" => ProLance,
        "圭" | "成桂" => ProKnight,
        "全" | "成銀" => ProSilver,
        "馬" => Horse,
        "龍" | "竜" => Dragon,
        _ => return None,
    })
}

/// The column (characters from 1) a notation error points at, if any.
pub(crate) fn notation_column(e: &NotationError) -> Option<usize> {
    use NotationError::*;
    match e {
        WrongSide { column, .. }
        | ExpectedSquare { column, .. }
        | ExpectedRank { column, .. }
        | NoPreviousMove { column }
        | NotTheSameSquare { column, .. }
        | ExpectedPiece { column, .. }
        | BadPromotedName { column, .. }
        | UnexpectedChar { column, .. }
        | RepeatedMark { column, .. }
        | BadOrigin { column }
        | CannotDrop { column, .. }
        | MarkOnDrop { column, .. }
        | NoPiece { column, .. }
        | NoBoardPiece { column, .. }
        | NoPieceFits { column, .. }
        | Ambiguous { column, .. }
        | Illegal { column, .. } => Some(*column),
        _ => None,
    }
}

/// Splits text into lines numbered from 1, without their ends (`\n`,
/// `\r\n`).
pub(crate) fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rest_in_hand_fills_every_kind_and_keeps_the_other_hand() {
        let pos: Position = "4k4/9/4+P4/9/9/9/9/9/4K4 b 2G 1".parse().unwrap();
        let full = pos.with_rest_in_hand(Color::White);
        assert_eq!(full.hand(Color::Black).count(PieceKind::Gold), 2);
        assert_eq!(full.hand(Color::White).count(PieceKind::Gold), 2);
        assert_eq!(full.hand(Color::White).count(PieceKind::Pawn), 17);
        assert_eq!(full.hand(Color::White).count(PieceKind::Rook), 2);
        // Nothing left: the same position.
        assert_eq!(full.with_rest_in_hand(Color::Black), full);
    }

    #[test]
    fn formats_from_extensions() {
        assert_eq!(Format::from_path("a/b.KIF"), Some(Format::Kif));
        assert_eq!(Format::from_path("b.kifu"), Some(Format::Kif));
        assert_eq!(Format::from_path("b.ki2"), Some(Format::Ki2));
        assert_eq!(Format::from_path("b.csa"), Some(Format::Csa));
        assert_eq!(Format::from_path("b.tsv"), None);
        assert_eq!(Format::from_path("4k4/9/9"), None);
    }

    #[test]
    fn terminations_read_back() {
        for t in Termination::ALL {
            assert_eq!(Termination::from_japanese(t.japanese()), Some(t));
        }
        assert_eq!(Termination::from_japanese("詰"), Some(Termination::Mate));
        assert_eq!(Termination::from_japanese("７六歩"), None);
    }
}
