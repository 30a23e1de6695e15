//! Reading problems as people give them: one reader for the command line,
//! the USI engine, `verify` and bindings.
//!
//! - A position as text ([`UsiPosition`], `FromStr` or
//!   [`UsiPosition::parse_relaxed`]): `startpos`, an SFEN, `sfen <SFEN>`,
//!   or a USI command `position startpos|sfen <SFEN> [moves ...]`; the
//!   problem is the position after the moves.
//! - A line of a problem file ([`ProblemLine`]): the position, then
//!   optionally, TAB-separated, the intended length and the intended
//!   solution in USI moves (as in `problems/*.tsv`; further columns are
//!   notes).
//! - The words of a command line ([`group_arguments`]): an argument holding
//!   spaces is one problem; words without spaces are grouped into problems
//!   by the SFEN and USI grammar, so that an SFEN may be given unquoted.
//! - Record files ([`read_record_file`]): KIF, KI2 or CSA by the file's
//!   extension, at most [`MAX_RECORD_BYTES`].
//! - Lines of a file or a stream ([`LineReader`]), in bounded memory: a
//!   line longer than [`MAX_LINE_BYTES`] is an error for that line.
//!
//! Errors name what is wrong and where (columns count characters from 1),
//! and quote at most [`QUOTE_CHARS`] characters of the text ([`quote`]).
//!
//! ```
//! use tsume::input::{Argument, ProblemLine, group_arguments};
//!
//! let line: ProblemLine = "position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1\t1\tG*5b"
//!     .parse()
//!     .unwrap();
//! assert_eq!(line.position.end.to_string(), "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
//! assert_eq!(line.length, Some(1));
//! assert_eq!(line.solution.unwrap()[0].to_string(), "G*5b");
//!
//! // An error names the column.
//! let e = "4k4/9/4P4/9/9/9/9/9/9 b G 1\t1\tG*5c".parse::<ProblemLine>().unwrap_err();
//! assert_eq!(e.column(), Some(31));
//!
//! // An unquoted SFEN on a command line, then a record file.
//! let args = ["4k4/9/4P4/9/9/9/9/9/9", "b", "G", "1", "problem.kif"];
//! assert_eq!(
//!     group_arguments(&args),
//!     [
//!         Argument::Problem("4k4/9/4P4/9/9/9/9/9/9 b G 1".to_string()),
//!         Argument::RecordFile("problem.kif".to_string()),
//!     ]
//! );
//! ```

use std::fmt;
use std::io::{self, BufRead, Read};
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use crate::core::{Move, MoveError, Position, UsiPosition, UsiPositionError};
use crate::record::{Format, Record, RecordError};
use crate::solver::defence::DefenceChoice;
use crate::solver::interposition::UselessRule;
use crate::verify::Convention;

/// The longest line read from a file, a stream or a record, in bytes (its
/// end of line aside). A longer line is an error for that line.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// How far a line longer than [`MAX_LINE_BYTES`] is read in search of its
/// end (the bytes are skipped, not kept); past this the input is given up
/// as not being lines of text.
pub const MAX_SKIPPED_BYTES: u64 = 64 << 20;

/// The largest record file read, in bytes.
pub const MAX_RECORD_BYTES: u64 = 4 << 20;

/// The most characters of a text an error quotes.
pub const QUOTE_CHARS: usize = 80;

/// `text` as an error quotes it: its first [`QUOTE_CHARS`] characters,
/// with `…` when it goes on, control and invisible characters escaped
/// (see [`escape`]).
///
/// ```
/// use tsume::input::{QUOTE_CHARS, quote};
/// assert_eq!(quote("7g7f"), "7g7f");
/// let long = "x".repeat(1000);
/// assert_eq!(quote(&long).chars().count(), QUOTE_CHARS + 1);
/// assert!(quote(&long).ends_with('…'));
/// assert_eq!(quote("x\u{1b}[31m\0"), "x\\x1b[31m\\0");
/// ```
pub fn quote(text: &str) -> String {
    match text.char_indices().nth(QUOTE_CHARS) {
        None => escape(text),
        Some((cut, _)) => format!("{}…", escape(&text[..cut])),
    }
}

/// Bytes as an error quotes them: as [`quote`], each byte that is not
/// part of UTF-8 text shown as `\xNN` (counted as one character).
///
/// ```
/// use tsume::input::quote_bytes;
/// assert_eq!(quote_bytes(b"ab\xff\x1b"), "ab\\xff\\x1b");
/// ```
pub fn quote_bytes(bytes: &[u8]) -> String {
    let mut out = String::new();
    let mut shown = 0;
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if shown == QUOTE_CHARS {
                out.push('…');
                return out;
            }
            push_shown(&mut out, c);
            shown += 1;
        }
        for b in chunk.invalid() {
            if shown == QUOTE_CHARS {
                out.push('…');
                return out;
            }
            out.push_str(&format!("\\x{b:02x}"));
            shown += 1;
        }
    }
    out
}

/// Whether an error shows `c` escaped: a control character (a terminal
/// escape, NUL, a TAB or an end of line), or one that shows nothing (a
/// byte-order mark, zero-width and direction marks).
fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{ad}' | '\u{feff}' | '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2060}'..='\u{2064}')
}

/// Pushes `c` as an error shows it.
fn push_shown(out: &mut String, c: char) {
    if !is_hidden(c) {
        out.push(c);
        return;
    }
    match c {
        '\0' => out.push_str("\\0"),
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        c if c.is_ascii() => out.push_str(&format!("\\x{:02x}", c as u32)),
        c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
    }
}

/// `text` with its control and invisible characters escaped, as an error
/// shows them (a quoted terminal escape must not colour the terminal, nor
/// a NUL reach a GUI): `\x1b`, `\0`, `\t`, `\u{feff}`.
///
/// ```
/// use tsume::input::escape;
/// assert_eq!(escape("a\u{1b}[0m\u{feff}b"), "a\\x1b[0m\\u{feff}b");
/// ```
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        push_shown(&mut out, c);
    }
    out
}

/// At most [`QUOTE_CHARS`] characters of `text` around `column` (characters
/// from 1; the start when `None`), with `…` where the text is cut, and the
/// column of the same character in the excerpt: what an error shows with a
/// caret under the column.
///
/// ```
/// use tsume::input::excerpt;
/// assert_eq!(excerpt("sfen 4k4 x", Some(10)), ("sfen 4k4 x".to_string(), Some(10)));
/// let long = format!("{}X{}", "a".repeat(500), "b".repeat(500));
/// let (shown, column) = excerpt(&long, Some(501));
/// assert!(shown.starts_with('…') && shown.ends_with('…'));
/// assert_eq!(shown.chars().nth(column.unwrap() - 1), Some('X'));
/// ```
pub fn excerpt(text: &str, column: Option<usize>) -> (String, Option<usize>) {
    let (shown, column) = excerpt_raw(text, column);
    // Escaped characters take more room: the caret moves with them.
    let column = column.map(|c| {
        let before = c.saturating_sub(1);
        let past_end = before.saturating_sub(shown.chars().count());
        1 + past_end
            + shown
                .chars()
                .take(before)
                .map(|ch| escape(ch.encode_utf8(&mut [0; 4])).chars().count())
                .sum::<usize>()
    });
    (escape(&shown), column)
}

/// [`excerpt`] before escaping.
fn excerpt_raw(text: &str, column: Option<usize>) -> (String, Option<usize>) {
    let chars = text.chars().count();
    if chars <= QUOTE_CHARS {
        return (text.to_string(), column);
    }
    let at = column.map_or(0, |c| c.saturating_sub(1).min(chars));
    // The window: the column a quarter of the way in, when it can be.
    let first = at.saturating_sub(QUOTE_CHARS / 4).min(chars - QUOTE_CHARS);
    let window: String = text.chars().skip(first).take(QUOTE_CHARS).collect();
    let before = if first > 0 { "…" } else { "" };
    let after = if first + QUOTE_CHARS < chars {
        "…"
    } else {
        ""
    };
    let shown = format!("{before}{window}{after}");
    let column = column.map(|_| at - first + 1 + usize::from(first > 0));
    (shown, column)
}

// ----------------------------------------------------------------------
// Lines of a problem file
// ----------------------------------------------------------------------

/// A line of a problem file: the position (`startpos`, an SFEN, `sfen
/// <SFEN>` or `position ... moves ...`), then optionally, TAB-separated,
/// the intended length in plies and the intended solution (USI moves from
/// the position after the moves). Further columns are notes, not read.
/// A length of `0` (unknown) or `-1` (no mate), as in `problems/*.tsv`,
/// or an empty column gives none; another negative length is an error.
#[derive(Clone, Debug)]
pub struct ProblemLine {
    pub position: UsiPosition,
    pub length: Option<u32>,
    pub solution: Option<Vec<Move>>,
}

/// What is wrong with a line of a problem file. Columns count characters
/// of the line from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProblemLineError {
    #[error("the position is empty: expected `startpos` or an SFEN")]
    Empty,
    #[error("{0}")]
    Position(UsiPositionError),
    #[error("the length `{found}` at column {column} is not a whole number of plies")]
    Length { found: String, column: usize },
    #[error(
        "the length `{found}` at column {column} is negative: give a number of plies, or `0` (unknown) or `-1` (no mate) for none"
    )]
    NegativeLength { found: String, column: usize },
    #[error("move {index} of the solution (column {column}): {error}")]
    Solution {
        index: usize,
        column: usize,
        error: MoveError,
    },
}

impl ProblemLineError {
    /// The column the error points at, when it points at one.
    pub fn column(&self) -> Option<usize> {
        match self {
            ProblemLineError::Empty => None,
            ProblemLineError::Position(e) => e.column(),
            ProblemLineError::Length { column, .. }
            | ProblemLineError::NegativeLength { column, .. }
            | ProblemLineError::Solution { column, .. } => Some(*column),
        }
    }
}

/// The position column of a line of a problem file: the text before the
/// first TAB.
pub fn position_column(line: &str) -> &str {
    line.split('\t').next().unwrap_or("")
}

/// `text`'s words with their 1-based character columns, counted from
/// `first` (the column of `text`'s first character).
fn words_from(text: &str, first: usize) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    for (i, (byte, c)) in text.char_indices().enumerate() {
        if c.is_whitespace() {
            if let Some((column, b)) = start.take() {
                out.push((column, &text[b..byte]));
            }
        } else if start.is_none() {
            start = Some((first + i, byte));
        }
    }
    if let Some((column, b)) = start {
        out.push((column, &text[b..]));
    }
    out
}

impl ProblemLine {
    /// Reads a line, the position as [`UsiPosition::parse_relaxed`] reads
    /// it when `relaxed`, else as `str::parse` does.
    pub fn parse(line: &str, relaxed: bool) -> Result<ProblemLine, ProblemLineError> {
        let mut columns = line.split('\t');
        let text = columns.next().unwrap_or("");
        if text.trim().is_empty() {
            return Err(ProblemLineError::Empty);
        }
        let position = if relaxed {
            UsiPosition::parse_relaxed(text)
        } else {
            text.parse()
        }
        .map_err(ProblemLineError::Position)?;
        // The column where the next TAB-separated field starts.
        let mut column = text.chars().count() + 2;
        let mut length = None;
        if let Some(field) = columns.next() {
            if let Some(&(at, word)) = words_from(field, column).first() {
                let n: i64 = word.parse().map_err(|_| ProblemLineError::Length {
                    found: quote(field.trim()),
                    column: at,
                })?;
                if words_from(field, column).len() > 1 {
                    return Err(ProblemLineError::Length {
                        found: quote(field.trim()),
                        column: at,
                    });
                }
                if n < -1 {
                    return Err(ProblemLineError::NegativeLength {
                        found: quote(word),
                        column: at,
                    });
                }
                if n > 0 {
                    length = Some(u32::try_from(n).map_err(|_| ProblemLineError::Length {
                        found: quote(word),
                        column: at,
                    })?);
                }
            }
            column += field.chars().count() + 1;
        }
        let mut solution = None;
        if let Some(field) = columns.next() {
            let words = words_from(field, column);
            if !words.is_empty() {
                let mut pos = position.end.clone();
                let mut moves = Vec::with_capacity(words.len());
                for (i, &(at, word)) in words.iter().enumerate() {
                    let m = pos
                        .parse_move(word)
                        .map_err(|error| ProblemLineError::Solution {
                            index: i + 1,
                            column: at,
                            error,
                        })?;
                    pos.do_move(m);
                    moves.push(m);
                }
                solution = Some(moves);
            }
        }
        Ok(ProblemLine {
            position,
            length,
            solution,
        })
    }
}

impl FromStr for ProblemLine {
    type Err = ProblemLineError;

    fn from_str(s: &str) -> Result<ProblemLine, ProblemLineError> {
        ProblemLine::parse(s, false)
    }
}

impl fmt::Display for ProblemLine {
    /// Writes the line back: the position (a bare SFEN when no moves lead
    /// to it, else the `position` command), then the length and the
    /// solution when given.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.position.moves.is_empty() {
            write!(f, "{}", self.position.start)?;
        } else {
            write!(f, "{}", self.position)?;
        }
        if self.length.is_some() || self.solution.is_some() {
            f.write_str("\t")?;
            if let Some(n) = self.length {
                write!(f, "{n}")?;
            }
        }
        if let Some(moves) = &self.solution {
            f.write_str("\t")?;
            let words: Vec<String> = moves.iter().map(Move::to_string).collect();
            f.write_str(&words.join(" "))?;
        }
        Ok(())
    }
}

// ----------------------------------------------------------------------
// Words of a command line
// ----------------------------------------------------------------------

/// What an argument (or a run of arguments) of a command line gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Argument {
    /// The text of one problem (a position; see [`UsiPosition`]).
    Problem(String),
    /// A lone `-`: read problems from standard input.
    Stdin,
    /// A record file, by its extension (see [`is_record_path`]).
    RecordFile(String),
}

/// What the next word of a problem given as separate words may be.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Expect {
    /// No problem open: the next word starts one.
    Start,
    /// After `position`: `sfen`, `startpos` or a board.
    AfterPosition,
    /// After `sfen`: the board.
    Board,
    /// After the board: the side to move.
    Side,
    /// After the side: the hands.
    Hands,
    /// After the hands: a move number, `moves`, or the next problem.
    Number,
    /// After the move number or `startpos`: `moves` or the next problem.
    Moves,
    /// After `moves`: moves, or the next problem.
    MoveList,
}

/// Groups command-line arguments into problems. An argument holding
/// whitespace (or blank) is one problem by itself; a record file name is
/// one; runs of single words are grouped by the grammar `[position]
/// [sfen] BOARD SIDE HANDS [NUMBER] [moves MOVE...]` (or `startpos`), a new
/// problem starting where the one before is complete, so that an SFEN may
/// be given unquoted. A lone `-` is standard input, except right after a
/// side `b`/`w`, where it is the empty hands.
pub fn group_arguments<S: AsRef<str>>(args: &[S]) -> Vec<Argument> {
    let mut out: Vec<Argument> = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    let mut expect = Expect::Start;
    let flush = |current: &mut Vec<&str>, out: &mut Vec<Argument>| {
        if !current.is_empty() {
            out.push(Argument::Problem(current.join(" ")));
            current.clear();
        }
    };
    for arg in args {
        let arg = arg.as_ref();
        if arg.split_whitespace().nth(1).is_some() || arg.trim().is_empty() {
            flush(&mut current, &mut out);
            expect = Expect::Start;
            out.push(Argument::Problem(arg.to_string()));
            continue;
        }
        let word = arg.trim();
        if is_record_path(word) {
            flush(&mut current, &mut out);
            expect = Expect::Start;
            out.push(Argument::RecordFile(word.to_string()));
            continue;
        }
        if word == "-" && expect != Expect::Hands {
            flush(&mut current, &mut out);
            expect = Expect::Start;
            out.push(Argument::Stdin);
            continue;
        }
        let is_number = word.bytes().all(|b| b.is_ascii_digit());
        let continues = match expect {
            Expect::Start => false,
            Expect::AfterPosition | Expect::Board | Expect::Side | Expect::Hands => true,
            Expect::Number => is_number || word == "moves",
            Expect::Moves => word == "moves",
            Expect::MoveList => {
                !word.contains('/') && !matches!(word, "position" | "sfen" | "startpos")
            }
        };
        if !continues {
            flush(&mut current, &mut out);
            expect = Expect::Start;
        }
        expect = match (expect, word) {
            (Expect::Start, "position") => Expect::AfterPosition,
            (Expect::Start | Expect::AfterPosition, "sfen") => Expect::Board,
            (Expect::Start | Expect::AfterPosition, "startpos") => Expect::Moves,
            (Expect::Start | Expect::AfterPosition | Expect::Board, _) => Expect::Side,
            (Expect::Side, _) => Expect::Hands,
            (Expect::Hands, _) => Expect::Number,
            (Expect::Number | Expect::Moves, "moves") => Expect::MoveList,
            (Expect::Number, _) => Expect::Moves,
            (Expect::Moves | Expect::MoveList, _) => Expect::MoveList,
        };
        current.push(word);
    }
    flush(&mut current, &mut out);
    out
}

// ----------------------------------------------------------------------
// Record files
// ----------------------------------------------------------------------

/// Whether `text` (one argument) names a record file by its extension
/// (`.kif`, `.kifu`, `.ki2`, `.ki2u`, `.csa`). An SFEN or a USI command
/// never does (it has no `.`).
pub fn is_record_path(text: &str) -> bool {
    let t = text.trim();
    !t.contains(char::is_whitespace) && Format::from_path(t).is_some()
}

/// Why a record file cannot be read. Each names the file.
#[derive(Debug, thiserror::Error)]
pub enum RecordFileError {
    #[error("{path}: not a record file (.kif, .kifu, .ki2, .ki2u, .csa)")]
    NotARecord { path: String },
    #[error("cannot read {path}: {error}")]
    Io { path: String, error: io::Error },
    #[error("{path}: more than {} MB: too large for a record", MAX_RECORD_BYTES >> 20)]
    TooLarge { path: String },
    #[error("{path}: {error}")]
    Record { path: String, error: RecordError },
}

/// Reads the record file `path` in the format its extension names (see
/// [`Record::read`]); a file over [`MAX_RECORD_BYTES`] is refused before
/// more than that is read.
pub fn read_record_file(path: impl AsRef<Path>) -> Result<Record, RecordFileError> {
    let path = path.as_ref();
    let name = path.display().to_string();
    let format = Format::from_path(path)
        .ok_or_else(|| RecordFileError::NotARecord { path: name.clone() })?;
    let io = |error| RecordFileError::Io {
        path: name.clone(),
        error,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::new();
    file.take(MAX_RECORD_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > MAX_RECORD_BYTES {
        return Err(RecordFileError::TooLarge { path: name });
    }
    Record::read(&bytes, format).map_err(|error| RecordFileError::Record { path: name, error })
}

/// A problem from a record: its start position, its moves as the intended
/// solution (none when it has no moves).
pub fn record_problem(record: &Record) -> ProblemLine {
    ProblemLine {
        position: UsiPosition {
            start: record.start.clone(),
            moves: Vec::new(),
            end: record.start.clone(),
        },
        length: None,
        solution: (!record.moves.is_empty()).then(|| record.moves.clone()),
    }
}

// ----------------------------------------------------------------------
// Lines in bounded memory
// ----------------------------------------------------------------------

/// One line of an input: its number (from 1) and its text without the end
/// of line (`\n`, `\r\n`), or why the text cannot be had.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub number: u64,
    pub text: Result<String, LineError>,
}

/// A line whose text cannot be had.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// Longer than [`MAX_LINE_BYTES`]: `bytes` in all (its end aside);
    /// `start` quotes its beginning.
    #[error(
        "the line is longer than {} bytes ({bytes} bytes): `{start}`",
        MAX_LINE_BYTES
    )]
    TooLong { bytes: u64, start: String },
    /// Not UTF-8 from byte `byte` (from 1).
    #[error("the line is not valid UTF-8 (byte {byte})")]
    NotUtf8 { byte: usize, start: String },
}

impl LineError {
    /// The beginning of the line, as an error quotes it.
    pub fn start(&self) -> &str {
        match self {
            LineError::TooLong { start, .. } | LineError::NotUtf8 { start, .. } => start,
        }
    }

    /// What a reader of problems reports for the line, its beginning
    /// ([`LineError::start`]) being shown apart as the problem's text.
    pub fn problem_message(&self) -> String {
        match self {
            LineError::TooLong { bytes, .. } => format!(
                "the line is longer than {} MB ({bytes} bytes): not read",
                MAX_LINE_BYTES >> 20
            ),
            LineError::NotUtf8 { .. } => self.to_string(),
        }
    }
}

/// Reads the lines of `input` in bounded memory: a line is kept up to
/// [`MAX_LINE_BYTES`]; the rest of a longer one is skipped (the line is
/// then an error, [`LineError::TooLong`]), and a line that goes on past
/// [`MAX_SKIPPED_BYTES`] ends the input with an error
/// ([`io::ErrorKind::InvalidData`]), as a stream of bytes that is not text.
/// A UTF-8 byte-order mark at the start of the input is skipped.
///
/// ```
/// use tsume::input::{LineError, LineReader};
/// let mut text = b"usi\r\n".to_vec();
/// text.extend(std::iter::repeat_n(b'x', tsume::input::MAX_LINE_BYTES + 5));
/// text.extend(b"\nisready");
/// let lines: Vec<_> = LineReader::new(&text[..]).map(Result::unwrap).collect();
/// assert_eq!(lines[0].text, Ok("usi".to_string()));
/// assert!(matches!(lines[1].text, Err(LineError::TooLong { .. })));
/// assert_eq!((lines[2].number, lines[2].text.as_deref()), (3, Ok("isready")));
/// ```
pub struct LineReader<R> {
    input: R,
    number: u64,
    failed: bool,
    /// Whether a UTF-8 byte-order mark may still start the next line (the
    /// first line of a whole input).
    bom: bool,
}

impl<R: BufRead> LineReader<R> {
    /// Lines of `input`, numbered from 1.
    pub fn new(input: R) -> LineReader<R> {
        LineReader::starting_at(input, 1)
    }

    /// Lines of `input`, the first numbered `first` (a shard cut from a
    /// larger file keeps that file's numbers).
    pub fn starting_at(input: R, first: u64) -> LineReader<R> {
        LineReader {
            input,
            number: first.saturating_sub(1),
            failed: false,
            bom: first <= 1,
        }
    }

    /// The number of the last line read (the one before the first, before
    /// any).
    pub fn number(&self) -> u64 {
        self.number
    }

    /// The next line: `Ok(None)` at the end of the input.
    fn read(&mut self) -> io::Result<Option<Line>> {
        let mut kept: Vec<u8> = Vec::new();
        let mut total: u64 = 0;
        let mut any = false;
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                if !any {
                    return Ok(None);
                }
                break;
            }
            any = true;
            let (part, end) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (&chunk[..i], Some(i + 1)),
                None => (chunk, None),
            };
            let room = (MAX_LINE_BYTES + 1).saturating_sub(kept.len());
            kept.extend_from_slice(&part[..part.len().min(room)]);
            total += part.len() as u64;
            let used = end.unwrap_or(chunk.len());
            self.input.consume(used);
            if end.is_some() {
                break;
            }
            if total > MAX_SKIPPED_BYTES {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "line {} goes on for more than {} MB without an end of line: the input is not lines of text",
                        self.number.saturating_add(1),
                        MAX_SKIPPED_BYTES >> 20
                    ),
                ));
            }
        }
        self.number = self.number.saturating_add(1);
        // A byte-order mark (some Windows editors write one) is not text.
        if std::mem::take(&mut self.bom) && kept.starts_with(b"\xef\xbb\xbf") {
            kept.drain(..3);
            total -= 3;
        }
        if kept.last() == Some(&b'\r') && total <= MAX_LINE_BYTES as u64 + 1 {
            kept.pop();
            total -= 1;
        }
        let start = |bytes: &[u8]| quote_bytes(&bytes[..bytes.len().min(4 * QUOTE_CHARS)]);
        let text = if total > MAX_LINE_BYTES as u64 {
            Err(LineError::TooLong {
                bytes: total,
                start: start(&kept),
            })
        } else {
            String::from_utf8(kept).map_err(|e| LineError::NotUtf8 {
                byte: e.utf8_error().valid_up_to() + 1,
                start: start(e.as_bytes()),
            })
        };
        Ok(Some(Line {
            number: self.number,
            text,
        }))
    }
}

impl<R: BufRead> Iterator for LineReader<R> {
    type Item = io::Result<Line>;

    /// The next line; after an error, nothing more.
    fn next(&mut self) -> Option<io::Result<Line>> {
        if self.failed {
            return None;
        }
        let item = self.read();
        self.failed = item.is_err();
        item.transpose()
    }
}

/// Reads a position given as text (see [`UsiPosition`]): `startpos`, an
/// SFEN, `sfen <SFEN>` or `position ... [moves ...]`, the SFEN relaxed
/// ([`crate::core::Position::from_sfen_relaxed`]) when `relaxed`.
pub fn read_position(text: &str, relaxed: bool) -> Result<UsiPosition, UsiPositionError> {
    if relaxed {
        UsiPosition::parse_relaxed(text)
    } else {
        text.parse()
    }
}

/// A rule for useless interpositions by its name (`--useless-rule`,
/// Python's `useless_rule=`), or a message naming the rules.
///
/// ```
/// use tsume::input::useless_rule;
/// assert_eq!(useless_rule(" none ").unwrap().name(), "none");
/// assert_eq!(
///     useless_rule("all").unwrap_err(),
///     "unknown rule for useless interpositions `all` \
///      (expected within-other-defences, piece-unused, checker-captures, within-or-checker, none)"
/// );
/// ```
pub fn useless_rule(name: &str) -> Result<UselessRule, String> {
    name.trim().parse().map_err(|_| {
        let names: Vec<&str> = UselessRule::ALL.iter().map(|r| r.name()).collect();
        format!(
            "unknown rule for useless interpositions `{}` (expected {})",
            quote(name),
            names.join(", ")
        )
    })
}

/// A choice of defence by its name (`--defence`, Python's `defence=`), or
/// a message naming the choices.
pub fn defence_choice(name: &str) -> Result<DefenceChoice, String> {
    name.trim().parse().map_err(|_| {
        let names: Vec<&str> = DefenceChoice::ALL.iter().map(|c| c.name()).collect();
        format!(
            "unknown choice of defence `{}` (expected {})",
            quote(name),
            names.join(", ")
        )
    })
}

/// A convention of `verify` by its name (`--convention`, Python's
/// `convention=`), or a message naming the conventions.
///
/// ```
/// use tsume::input::convention;
/// assert_eq!(convention(" classical ").unwrap().name(), "classical");
/// assert_eq!(
///     convention("edo").unwrap_err(),
///     "unknown convention `edo` (expected modern, classical)"
/// );
/// ```
pub fn convention(name: &str) -> Result<Convention, String> {
    name.trim().parse().map_err(|_| {
        let names: Vec<&str> = Convention::ALL.iter().map(|c| c.name()).collect();
        format!(
            "unknown convention `{}` (expected {})",
            quote(name),
            names.join(", ")
        )
    })
}

/// A time limit of `secs` seconds, which must be more than 0 (`shown`: how
/// the user wrote it, for the message).
///
/// ```
/// use tsume::input::seconds;
/// assert_eq!(seconds(0.5, "0.5").unwrap().as_millis(), 500);
/// assert_eq!(seconds(-1.0, "-1").unwrap_err(),
///            "`-1` is negative: the time must be more than 0 seconds");
/// assert!(seconds(f64::NAN, "nan").is_err() && seconds(1e30, "1e30").is_err());
/// ```
pub fn seconds(secs: f64, shown: &str) -> Result<Duration, String> {
    let shown = quote(shown.trim());
    if secs < 0.0 {
        return Err(format!(
            "`{shown}` is negative: the time must be more than 0 seconds"
        ));
    }
    if secs.is_nan() || secs == 0.0 {
        return Err(format!("`{shown}`: the time must be more than 0 seconds"));
    }
    Duration::try_from_secs_f64(secs).map_err(|_| format!("`{shown}`: too many seconds"))
}

/// Reads a problem given as text the way `tsume solve` reads one (the
/// position after the moves of a `position ... moves` command), with a
/// message for people when it cannot be read; `relaxed_option` names the
/// caller's switch for relaxed reading (see [`describe_position_error`]).
///
/// ```
/// use tsume::input::read_problem;
/// let (message, _column) = read_problem("9/9/9/9/9/9/9/P8/P8 b - 1", false, "--relaxed")
///     .unwrap_err();
/// assert!(message.ends_with("; --relaxed accepts this"), "{message}");
/// assert!(read_problem("9/9/9/9/9/9/9/P8/P8 b - 1", true, "--relaxed").is_ok());
/// assert_eq!(read_problem(" ", false, "--relaxed").unwrap_err().0, "empty: expected an SFEN");
/// ```
pub fn read_problem(
    text: &str,
    relaxed: bool,
    relaxed_option: &str,
) -> Result<Position, (String, Option<usize>)> {
    if text.trim().is_empty() {
        return Err(("empty: expected an SFEN".to_string(), None));
    }
    read_position(text, relaxed)
        .map(|usi| usi.end)
        .map_err(|e| describe_position_error(&e, (!relaxed).then_some(relaxed_option)))
}

/// A one-line message for a position that cannot be read, and its column:
/// the error, with `(column N)` when it has a column the message does not
/// name, and `; OPTION accepts this` when relaxed reading would accept the
/// position and `relaxed_option` (how the caller's user asks for it: the
/// CLI's `--relaxed`, Python's `relaxed=True`) is given. The CLI and the
/// Python package both report position errors through this, so their
/// messages agree.
pub fn describe_position_error(
    e: &UsiPositionError,
    relaxed_option: Option<&str>,
) -> (String, Option<usize>) {
    let column = e.column();
    let mut message = e.to_string();
    if let Some(c) = column
        && !message.contains("column")
    {
        message.push_str(&format!(" (column {c})"));
    }
    if let Some(option) = relaxed_option
        && matches!(e, UsiPositionError::Sfen(s) if s.accepted_when_relaxed())
    {
        message.push_str(&format!("; {option} accepts this"));
    }
    (message, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problem_lines_name_their_columns() {
        let line = "position startpos moves 7g7f\t3\t3c3d 8h2b+ 3a2b";
        let p: ProblemLine = line.parse().unwrap();
        assert_eq!(p.position.moves.len(), 1);
        assert_eq!(p.length, Some(3));
        assert_eq!(p.to_string(), line);
        let e = "startpos\tthree".parse::<ProblemLine>().unwrap_err();
        assert_eq!(e.column(), Some(10));
        let e = "startpos\t3\t7g7f 7g7f".parse::<ProblemLine>().unwrap_err();
        assert_eq!(e.column(), Some(17), "{e}");
        assert!(e.to_string().starts_with("move 2 of the solution"), "{e}");
        let e = "startpos\t99999999999".parse::<ProblemLine>().unwrap_err();
        assert!(matches!(e, ProblemLineError::Length { .. }), "{e}");
        // No length: empty, 0 (unknown) or -1 (no mate).
        for line in ["startpos", "startpos\t", "startpos\t0", "startpos\t-1\t"] {
            let p: ProblemLine = line.parse().unwrap();
            assert_eq!((p.length, p.solution), (None, None), "{line}");
        }
        assert_eq!(
            "\t3".parse::<ProblemLine>().unwrap_err(),
            ProblemLineError::Empty
        );
    }

    #[test]
    fn arguments_group_into_problems() {
        let a = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
        let b = "8k/9/9/9/9/9/9/9/9 b Rr2b4g4s4n4l18p";
        let problem = |s: &str| Argument::Problem(s.to_string());
        let words: Vec<&str> = a.split(' ').chain(b.split(' ')).collect();
        assert_eq!(group_arguments(&words), [problem(a), problem(b)]);
        assert_eq!(group_arguments(&[a, b]), [problem(a), problem(b)]);
        // `-` as the hands, then as stdin.
        assert_eq!(
            group_arguments(&["8k/9/9/9/9/9/9/9/9", "b", "-", "1", "-"]),
            [problem("8k/9/9/9/9/9/9/9/9 b - 1"), Argument::Stdin]
        );
        let words = [
            "position",
            "startpos",
            "moves",
            "7g7f",
            "3c3d",
            "sfen",
            "8k/9/9/9/9/9/9/9/9",
            "b",
            "R",
            "moves",
            "1a1b",
            "startpos",
        ];
        assert_eq!(
            group_arguments(&words),
            [
                problem("position startpos moves 7g7f 3c3d"),
                problem("sfen 8k/9/9/9/9/9/9/9/9 b R moves 1a1b"),
                problem("startpos")
            ]
        );
        assert_eq!(group_arguments(&["-"]), [Argument::Stdin]);
    }

    #[test]
    fn lines_are_bounded() {
        // A line just at the limit is kept; one byte more is an error.
        let mut text = vec![b'a'; MAX_LINE_BYTES];
        text.extend(b"\r\n");
        text.extend(vec![b'b'; MAX_LINE_BYTES + 1]);
        text.extend(b"\n\xffz\nlast");
        let lines: Vec<Line> = LineReader::starting_at(&text[..], 7)
            .map(Result::unwrap)
            .collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0].text.as_ref().map(String::len), Ok(MAX_LINE_BYTES));
        match &lines[1].text {
            Err(LineError::TooLong { bytes, start }) => {
                assert_eq!(*bytes, MAX_LINE_BYTES as u64 + 1);
                assert_eq!(start.chars().count(), QUOTE_CHARS + 1);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            lines[2].text,
            Err(LineError::NotUtf8 { byte: 1, .. })
        ));
        assert_eq!(
            (lines[3].number, lines[3].text.as_deref()),
            (10, Ok("last"))
        );
        // Bytes without an end of line: given up, in bounded memory.
        let endless = io::repeat(0).take(MAX_SKIPPED_BYTES + 10);
        let mut reader = LineReader::new(io::BufReader::new(endless));
        let e = reader.next().unwrap().unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert!(e.to_string().starts_with("line 1 goes on"), "{e}");
        assert!(reader.next().is_none());
    }

    #[test]
    fn excerpts_keep_the_column_in_view() {
        let text: String = (0..300)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        for column in [1, 2, 50, 150, 290, 300, 301] {
            let (shown, at) = excerpt(&text, Some(column));
            assert!(shown.chars().count() <= QUOTE_CHARS + 2, "{shown}");
            let at = at.unwrap();
            if column <= 300 {
                assert_eq!(
                    shown.chars().nth(at - 1),
                    text.chars().nth(column - 1),
                    "{column}: {shown} {at}"
                );
            }
        }
        assert_eq!(excerpt(&text, None).0.chars().count(), QUOTE_CHARS + 1);
    }
}
