//! KIF, the record format of Kifu for Windows (柿木将棋).
//!
//! A KIF record is header lines `key：value` (開始日時, 手合割, 先手, 後手
//! or 下手, 上手, ...), optionally a board diagram (BOD) with the pieces in
//! hand, then the move table:
//!
//! ```text
//! 手合割：平手
//! 先手：A
//! 後手：B
//! 手数----指手---------消費時間--
//!    1 ７六歩(77)   ( 0:00/00:00:00)
//!    2 ３四歩(33)   ( 0:00/00:00:00)
//!    3 ２二角成(88) ( 0:00/00:00:00)
//!    4 同　銀(31)   ( 0:00/00:00:00)
//!    5 投了
//! ```
//!
//! A board diagram sets up any position: nine rows `| ・v玉 歩 ...|一` (`v`
//! marks White's pieces), framed by `+---...---+` lines, with
//! `後手の持駒：飛二　角　歩十八` above and `先手の持駒：なし` below (上手 and
//! 下手 in handicap games); `残り全部` gives that side every piece placed
//! nowhere else, as mate problems do for the defender. A `後手番` line
//! means White moves first.
//!
//! Reading also takes: comments (`*`, kept with the move before them),
//! bookmarks (`&`) and `#` lines (skipped), the `まで...` summary line,
//! `手数＝N` lines of a diagram, the end of the record (投了, 中断, 詰み,
//! 千日手, 持将棋, 反則勝ち, 反則負け, 切れ負け, 入玉勝ち, 不詰, ...) in
//! the move table, and the 変化 branches after the main line (not read:
//! the main line ends where they start). Every move is checked to be
//! legal; an error names the line, the move number and what is wrong.
//!
//! Writing ([`write()`]) gives the standard form back: 手合割 when the record
//! names a preset, a board diagram when the start is not that preset, and
//! `( 0:00/00:00:00)` as the time of every move (times are not kept).
//!
//! ```
//! use tsume::record::kif;
//!
//! let record = kif::read("手合割：香落ち\n1 ５二金(61)\n2 ７六歩(77)\n").unwrap();
//! assert_eq!(record.start.to_string(), "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
//! assert_eq!(record.moves.len(), 2);
//! let err = kif::read("手合割：平手\n1 ７六歩(77)\n2 ３四歩(33)\n3 ７五歩(76)\n4 ７五歩(77)\n")
//!     .unwrap_err();
//! assert_eq!(err.line, 5);
//! assert!(err.to_string().contains("move 4"), "{err}");
//! ```

use crate::core::handicap::Handicap;
use crate::core::{Color, Move, Piece, PieceKind, Position, Square};
use crate::record::notation::parse_japanese;

use super::encoding::{EncodeError, Encoding, encode};
use super::{Reason, Record, RecordError, Setup, Termination, kanji_kind, numbered_lines};

/// Reads a KIF record (text: see [`super::encoding::decode`] for bytes).
pub fn read(text: &str) -> Result<Record, RecordError> {
    super::check_line_lengths(text)?;
    let mut pre = Preamble::default();
    let mut record = Record::new(Position::startpos());
    let mut pos: Option<Position> = None;
    let mut prev: Option<Square> = None;
    let mut next_number: Option<usize> = None;
    let mut last = 0;
    let mut any = false;
    for (no, raw) in numbered_lines(text) {
        last = no;
        let line = raw.trim_end();
        let t = line.trim_start();
        if t.is_empty() {
            continue;
        }
        any = true;
        if let Some(c) = t.strip_prefix('*') {
            record.comments.push((record.moves.len(), c.to_string()));
            continue;
        }
        if t.starts_with("変化：") || t.starts_with("変化:") {
            break;
        }
        if t.starts_with("まで") {
            continue;
        }
        if t.starts_with("手数----") || t.starts_with("手数－") {
            if pos.is_none() {
                pos = Some(pre.finish(no, &mut record)?);
            }
            continue;
        }
        if t.starts_with(|c: char| c.is_ascii_digit()) && !is_file_numbers(t) {
            let p = match &mut pos {
                Some(p) => p,
                None => pos.insert(pre.finish(no, &mut record)?),
            };
            let (number, body, column) = split_move_line(line);
            let expected = *next_number.get_or_insert(number);
            if number != expected {
                return Err(RecordError::new(
                    no,
                    Some(line.chars().count() - t.chars().count() + 1),
                    Reason::MoveNumber {
                        expected,
                        found: number,
                    },
                ));
            }
            next_number = Some(number.saturating_add(1));
            if record.end.is_some() {
                return Err(RecordError::new(no, None, Reason::MoveAfterEnd(number)));
            }
            if let Some(end) = Termination::from_japanese(body) {
                record.end = Some(end);
                continue;
            }
            let m = parse_japanese(p, body, prev).map_err(|error| {
                // The error's own column counts in the move's text.
                let at = super::notation_column(&error).map_or(column, |c| column + c - 1);
                RecordError::new(
                    no,
                    Some(at),
                    Reason::BadMove {
                        number,
                        text: body.to_string(),
                        error,
                    },
                )
            })?;
            p.do_move(m);
            prev = Some(m.to());
            record.moves.push(m);
            continue;
        }
        if pre.line(no, line, pos.is_some())? {
            continue;
        }
        return Err(unexpected(
            no,
            line,
            "a header `key：value`, a board diagram, a comment or a move",
        ));
    }
    pre.end(any, last, pos.is_none(), record)
}

/// The number, the move (or end) and the move's column of a move line
/// `   1 ７六歩(77)   ( 0:00/00:00:00)+`.
fn split_move_line(line: &str) -> (usize, &str, usize) {
    let t = line.trim_start();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    // At most a few digits: a longer run saturates and fails the number check.
    let number = t[..digits].parse().unwrap_or(usize::MAX);
    let rest = t[digits..].trim_start();
    let column = line.chars().count() - rest.chars().count() + 1;
    let mut body = rest.trim_end();
    // `+`: a variation branches off after this move.
    body = body.strip_suffix('+').unwrap_or(body).trim_end();
    if body.ends_with(')')
        && let Some(open) = body.rfind('(')
        && body[open..].contains([':', '/'])
    {
        body = body[..open].trim_end();
    }
    (number, body, column)
}

/// What a hands line gives a side.
#[derive(Clone, Debug)]
enum HandSpec {
    Pieces([u32; 15]),
    Rest,
}

/// The header part of a KIF or KI2 record: header fields, the preset, the
/// board diagram and the hands.
#[derive(Default)]
pub(crate) struct Preamble {
    handicap: Option<(usize, Handicap)>,
    hands: [Option<(usize, HandSpec)>; 2],
    /// The line of the top edge and the rows read so far.
    board: Option<(usize, Vec<[Option<Piece>; 9]>)>,
    board_done: bool,
    side: Option<Color>,
    headers: Vec<(String, String)>,
    /// The line of `手合割：その他`, which needs a diagram.
    other: Option<usize>,
}

const BOARD_EDGE: &str = "+---------------------------+";

/// The error for line `no`, which is none of what a KIF or KI2 record may
/// hold (`expected`), at its first non-blank column.
pub(crate) fn unexpected(no: usize, line: &str, expected: &'static str) -> RecordError {
    let found = line.trim_start();
    RecordError::new(
        no,
        Some(line.chars().count() - found.chars().count() + 1),
        Reason::Unexpected {
            expected,
            found: found.to_string(),
        },
    )
}

impl Preamble {
    /// Reads one line of the header part; `Ok(false)` when it is not one.
    /// `locked`: the position has been set up (the moves have started).
    pub(crate) fn line(
        &mut self,
        no: usize,
        line: &str,
        locked: bool,
    ) -> Result<bool, RecordError> {
        let t = line.trim();
        let lead = line.chars().count() - line.trim_start().chars().count();
        let setup_line = |locked: bool| {
            if locked {
                Err(RecordError::new(no, None, Reason::SetupAfterMoves))
            } else {
                Ok(())
            }
        };
        if let Some((_, rows)) = &mut self.board
            && !self.board_done
        {
            if t.starts_with('|') || t.starts_with('｜') {
                if rows.len() == 9 {
                    return Err(RecordError::new(
                        no,
                        Some(lead + 1),
                        Reason::Unexpected {
                            expected: "the bottom edge of the board after 9 ranks",
                            found: t.to_string(),
                        },
                    ));
                }
                rows.push(board_row(no, line, lead, rows.len() + 1)?);
                return Ok(true);
            }
            if t.starts_with("+-") && rows.len() == 9 {
                self.board_done = true;
                return Ok(true);
            }
            let reason = if rows.len() == 9 {
                Reason::MissingBoardEdge("bottom")
            } else {
                Reason::TruncatedBoard(rows.len())
            };
            return Err(RecordError::new(no, None, reason));
        }
        if t.starts_with('|') || t.starts_with('｜') {
            return Err(RecordError::new(
                no,
                Some(lead + 1),
                Reason::MissingBoardEdge("top"),
            ));
        }
        if t.starts_with("+-") {
            setup_line(locked)?;
            if self.board.is_some() {
                return Err(RecordError::new(
                    no,
                    None,
                    Reason::Repeated("the board diagram"),
                ));
            }
            self.board = Some((no, Vec::new()));
            return Ok(true);
        }
        if t.starts_with('#')
            || t.starts_with('&')
            || t.starts_with("手数＝")
            || t.starts_with("手数=")
        {
            return Ok(true);
        }
        if is_file_numbers(t) {
            return Ok(true);
        }
        match t {
            "後手番" | "上手番" => {
                setup_line(locked)?;
                self.side = Some(Color::White);
                return Ok(true);
            }
            "先手番" | "下手番" => {
                setup_line(locked)?;
                self.side = Some(Color::Black);
                return Ok(true);
            }
            _ => {}
        }
        // The colon is full-width; some programs write an ASCII one.
        let Some((key, value)) = line.split_once('：').or_else(|| line.split_once(':')) else {
            return Ok(false);
        };
        let key = key.trim();
        let value_column = line[..line.len() - value.len()].chars().count() + 1;
        let hand_side = match key {
            "先手の持駒" | "下手の持駒" | "先手の持ち駒" | "下手の持ち駒" => {
                Some(Color::Black)
            }
            "後手の持駒" | "上手の持駒" | "後手の持ち駒" | "上手の持ち駒" => {
                Some(Color::White)
            }
            _ => None,
        };
        if let Some(color) = hand_side {
            setup_line(locked)?;
            if self.hands[color.index()].is_some() {
                return Err(RecordError::new(
                    no,
                    None,
                    Reason::Repeated("the pieces in hand of a side"),
                ));
            }
            let spec = hand_spec(no, value, value_column)?;
            self.hands[color.index()] = Some((no, spec));
            return Ok(true);
        }
        if key == "手合割" {
            setup_line(locked)?;
            if self.handicap.is_some() || self.other.is_some() {
                return Err(RecordError::new(no, None, Reason::Repeated("手合割")));
            }
            // その他: a position of its own, which the diagram gives.
            if value.trim() == "その他" {
                self.other = Some(no);
                return Ok(true);
            }
            let h = value
                .trim()
                .parse::<Handicap>()
                .map_err(|e| RecordError::new(no, Some(value_column), Reason::Handicap(e)))?;
            self.handicap = Some((no, h));
            return Ok(true);
        }
        if key.is_empty() {
            return Ok(false);
        }
        self.headers
            .push((key.to_string(), value.trim().to_string()));
        Ok(true)
    }

    /// The record at the end of the text: `any` whether a line had
    /// anything, `last` the last line's number, `unset` whether the start
    /// position is still to be set up (no move was read).
    pub(crate) fn end(
        &mut self,
        any: bool,
        last: usize,
        unset: bool,
        mut record: Record,
    ) -> Result<Record, RecordError> {
        if !any {
            return Err(RecordError::new(1, None, Reason::Empty));
        }
        if unset {
            self.finish(last + 1, &mut record)?;
        }
        record.headers.append(&mut self.headers);
        Ok(record)
    }

    /// The start position (and the record's preset and headers, set in
    /// `record`). `no`: the line where the set-up ends.
    pub(crate) fn finish(
        &mut self,
        no: usize,
        record: &mut Record,
    ) -> Result<Position, RecordError> {
        record.handicap = self.handicap.map(|(_, h)| h);
        record.headers.append(&mut self.headers);
        let Some((top, rows)) = &self.board else {
            if let Some((line, _)) = self.hands.iter().flatten().find(|(_, spec)| {
                !matches!(spec, HandSpec::Pieces(counts) if counts.iter().all(|&n| n == 0))
            }) {
                return Err(RecordError::new(*line, None, Reason::HandWithoutBoard));
            }
            if let Some(line) = self.other {
                return Err(RecordError::new(line, None, Reason::MissingBoard));
            }
            let start = record.handicap.unwrap_or(Handicap::Even).position();
            record.start = start.clone();
            return Ok(start);
        };
        if !self.board_done {
            let reason = if rows.len() == 9 {
                Reason::MissingBoardEdge("bottom")
            } else {
                Reason::TruncatedBoard(rows.len())
            };
            return Err(RecordError::new(no, None, reason));
        }
        let mut setup = Setup::empty();
        for (r, row) in rows.iter().enumerate() {
            for (j, cell) in row.iter().enumerate() {
                let sq = Square::from_file_rank(9 - j as u8, r as u8 + 1).expect("on the board");
                setup.board[sq.index()] = *cell;
            }
        }
        for c in Color::ALL {
            match &self.hands[c.index()] {
                None => {}
                Some((_, HandSpec::Pieces(counts))) => setup.hands[c.index()] = *counts,
                Some((_, HandSpec::Rest)) => setup.rest = Some(c),
            }
        }
        setup.side = self.side.unwrap_or(Color::Black);
        let start = setup
            .position()
            .map_err(|e| RecordError::new(*top, None, Reason::Position(e)))?;
        record.start = start.clone();
        Ok(start)
    }
}

/// The file numbers above a diagram: `９ ８ ７ ６ ５ ４ ３ ２ １` (or in
/// ASCII digits).
fn is_file_numbers(t: &str) -> bool {
    t.chars().all(|c| c.is_whitespace() || numeral(c).is_some())
        && t.split_whitespace().count() == 9
}

/// A file or rank numeral: ASCII, full-width or kanji.
fn numeral(c: char) -> Option<u32> {
    match c {
        '1'..='9' => c.to_digit(10),
        '１'..='９' => Some(c as u32 - '０' as u32),
        _ => "一二三四五六七八九"
            .chars()
            .position(|k| k == c)
            .map(|i| i as u32 + 1),
    }
}

/// A count of pieces in hand: 二 ... 九, 十, 十一 ... 十八, or digits.
fn count(s: &str) -> Option<u32> {
    if s.is_empty() {
        return Some(1);
    }
    let digit = |c: char| match c {
        '0'..='9' => c.to_digit(10),
        '０'..='９' => Some(c as u32 - '０' as u32),
        _ => None,
    };
    if s.chars().all(|c| digit(c).is_some()) {
        let n = s
            .chars()
            .filter_map(digit)
            .try_fold(0u32, |n, d| n.checked_mul(10)?.checked_add(d))?;
        return Some(n).filter(|&n| n > 0);
    }
    let chars: Vec<char> = s.chars().collect();
    let kanji = |c: char| {
        "一二三四五六七八九"
            .chars()
            .position(|k| k == c)
            .map(|i| i as u32 + 1)
    };
    match chars.as_slice() {
        [c] if *c == '十' => Some(10),
        [c] => kanji(*c),
        ['十', c] => kanji(*c).map(|n| 10 + n),
        _ => None,
    }
}

/// Reads the pieces in hand of a `先手の持駒：` line; `column` is that of
/// the value's first character.
fn hand_spec(no: usize, value: &str, column: usize) -> Result<HandSpec, RecordError> {
    let v = value.trim();
    match v {
        "" | "なし" => return Ok(HandSpec::Pieces([0; 15])),
        "残り全部" | "残り" | "残り駒全部" => return Ok(HandSpec::Rest),
        _ => {}
    }
    let mut counts = [0u32; 15];
    let mut start: Option<usize> = None;
    let chars: Vec<char> = value.chars().collect();
    let mut tokens = Vec::new();
    for (i, &c) in chars.iter().enumerate() {
        match (c.is_whitespace() || c == '、', start) {
            (true, Some(s)) => {
                tokens.push((s, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        tokens.push((s, chars.len()));
    }
    for (s, e) in tokens {
        let token: String = chars[s..e].iter().collect();
        let col = column + s;
        let name: String = chars[s..s + 1].iter().collect();
        let kind = kanji_kind(&name)
            .filter(|k| k.is_hand_kind())
            .ok_or_else(|| RecordError::new(no, Some(col), Reason::UnknownPiece(token.clone())))?;
        let digits: String = chars[s + 1..e].iter().collect();
        let n = count(&digits)
            .ok_or_else(|| RecordError::new(no, Some(col + 1), Reason::BadCount(digits.clone())))?;
        counts[kind.index()] = counts[kind.index()].saturating_add(n);
    }
    Ok(HandSpec::Pieces(counts))
}

/// One rank of the diagram: `| ・v玉 歩 ...|一`. `lead`: the characters
/// before the first `|`; `rank`: the rank it must be (from 1), which the
/// label after the last `|` must name when there is one.
fn board_row(
    no: usize,
    line: &str,
    lead: usize,
    rank: usize,
) -> Result<[Option<Piece>; 9], RecordError> {
    let chars: Vec<char> = line.chars().skip(lead + 1).collect();
    let mut cells = Vec::with_capacity(9);
    let mut i = 0;
    while i < chars.len() && !matches!(chars[i], '|' | '｜') {
        let column = lead + 1 + i + 1;
        let color = match chars[i] {
            'v' | 'V' | '^' => Color::White,
            ' ' | '\u{3000}' | '+' => Color::Black,
            c => {
                return Err(RecordError::new(
                    no,
                    Some(column),
                    Reason::UnknownPiece(c.to_string()),
                ));
            }
        };
        let Some(&name) = chars.get(i + 1) else {
            return Err(RecordError::new(
                no,
                Some(column + 1),
                Reason::Unexpected {
                    expected: "a piece or ・",
                    found: String::new(),
                },
            ));
        };
        if name == '・' {
            cells.push(None);
        } else {
            let kind = kanji_kind(&name.to_string()).ok_or_else(|| {
                RecordError::new(no, Some(column + 1), Reason::UnknownPiece(name.to_string()))
            })?;
            cells.push(Some(Piece::new(color, kind)));
        }
        i += 2;
    }
    if i >= chars.len() {
        return Err(RecordError::new(
            no,
            Some(lead + 1 + chars.len() + 1),
            Reason::Unexpected {
                expected: "`|` at the end of the board row",
                found: String::new(),
            },
        ));
    }
    let row = <[Option<Piece>; 9]>::try_from(cells.as_slice())
        .map_err(|_| RecordError::new(no, Some(lead + 1), Reason::RowLength(cells.len())))?;
    let label = chars[i + 1..].iter().find(|c| !c.is_whitespace());
    if let Some(&found) = label
        && let Some(n) = numeral(found)
        && n as usize != rank
    {
        let expected = "一二三四五六七八九".chars().nth(rank - 1).unwrap_or('?');
        return Err(RecordError::new(
            no,
            Some(lead + 1 + i + 1 + 1),
            Reason::RankOrder { expected, found },
        ));
    }
    Ok(row)
}

// ----------------------------------------------------------------------
// Writing
// ----------------------------------------------------------------------

/// The record in KIF (see the module documentation).
pub fn write(record: &Record) -> String {
    let mut s = preamble(record);
    let handicap_game = is_handicap_game(record);
    s.push_str("手数----指手---------消費時間--\n");
    let comments = |s: &mut String, ply: usize| {
        for (_, c) in record.comments.iter().filter(|(p, _)| *p == ply) {
            s.push('*');
            s.push_str(c);
            s.push('\n');
        }
    };
    comments(&mut s, 0);
    let mut pos = record.start.clone();
    let mut prev = None;
    for (i, &m) in record.moves.iter().enumerate() {
        let text = move_text(&pos, m, prev);
        s.push_str(&format!("{:>4} {}", i + 1, text));
        let width: usize = text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum();
        s.push_str(&" ".repeat(14usize.saturating_sub(width)));
        s.push_str("( 0:00/00:00:00)\n");
        comments(&mut s, i + 1);
        pos.do_move(m);
        prev = Some(m.to());
    }
    if let Some(end) = record.end {
        s.push_str(&format!(
            "{:>4} {}\n",
            record.moves.len() + 1,
            end.japanese()
        ));
        if matches!(
            end,
            Termination::Resign | Termination::Mate | Termination::Abort | Termination::Repetition
        ) {
            s.push_str(&closing(record.moves.len(), end, &pos, handicap_game));
        }
    }
    s
}

/// Whether the record is a handicap game (its sides are 下手 and 上手).
fn is_handicap_game(record: &Record) -> bool {
    matches!(record.handicap, Some(h) if h != Handicap::Even)
}

/// The header part KIF and KI2 share: 手合割, the other fields, and the
/// board diagram with both hands when the start is not the preset's.
pub(crate) fn preamble(record: &Record) -> String {
    let mut s = String::new();
    if let Some(h) = record.handicap {
        s.push_str(&format!("手合割：{h}\n"));
    }
    for (k, v) in &record.headers {
        s.push_str(&format!("{k}：{v}\n"));
    }
    if record.start != record.handicap.unwrap_or(Handicap::Even).position() {
        s.push_str(&diagram(&record.start, is_handicap_game(record)));
    }
    s
}

/// The closing line, `まで9手で詰み` or `まで64手で後手の勝ち`, of a record
/// of `n` moves that ends in `end` at `pos`.
pub(crate) fn closing(n: usize, end: Termination, pos: &Position, handicap_game: bool) -> String {
    let (black, white) = if handicap_game {
        ("下手", "上手")
    } else {
        ("先手", "後手")
    };
    let winner = if pos.side_to_move() == Color::Black {
        white
    } else {
        black
    };
    match end {
        Termination::Resign => format!("まで{n}手で{winner}の勝ち\n"),
        Termination::IllegalWin | Termination::IllegalLoss | Termination::EnteringKingWin => {
            let side = if pos.side_to_move() == Color::Black {
                black
            } else {
                white
            };
            format!("まで{n}手で{side}の{}\n", end.japanese())
        }
        _ => format!("まで{n}手で{}\n", end.japanese()),
    }
}

/// The record in KIF as the bytes of a file: UTF-8 (with a first line
/// `#KIF version=2.0 encoding=UTF-8`, the `.kifu` convention) or Shift-JIS
/// (`.kif`).
pub fn write_bytes(record: &Record, encoding: Encoding) -> Result<Vec<u8>, EncodeError> {
    let text = write(record);
    match encoding {
        Encoding::Utf8 => Ok(format!("#KIF version=2.0 encoding=UTF-8\n{text}").into_bytes()),
        Encoding::ShiftJis => encode(&text, Encoding::ShiftJis),
    }
}

/// A move as the KIF move table writes it: `７六歩(77)`, `同　銀(31)`,
/// `２二角成(88)`, `３三桂不成(45)`, `５五角打`.
pub fn move_text(pos: &Position, m: Move, previous_to: Option<Square>) -> String {
    let mut s = if previous_to == Some(m.to()) {
        "同\u{3000}".to_string()
    } else {
        m.to().japanese()
    };
    match (m.drop_kind(), m.from()) {
        (Some(kind), _) => {
            s.push_str(kind.japanese());
            s.push('打');
        }
        (None, Some(from)) => {
            let kind = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind());
            s.push_str(kind.japanese());
            if m.is_promotion() {
                s.push('成');
            } else if Position::promotion_options(kind, pos.side_to_move(), from, m.to()).0 {
                s.push_str("不成");
            }
            s.push_str(&format!("({}{})", from.file(), from.rank()));
        }
        (None, None) => {}
    }
    s
}

/// The board diagram with both hands and, when White moves first, a
/// `後手番` line.
pub fn diagram(pos: &Position, handicap_game: bool) -> String {
    let (black, white) = if handicap_game {
        ("下手", "上手")
    } else {
        ("先手", "後手")
    };
    let mut s = format!("{white}の持駒：{}\n", hand_text(pos, Color::White));
    s.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n");
    s.push_str(BOARD_EDGE);
    s.push('\n');
    for rank in 1..=9u8 {
        s.push('|');
        for file in (1..=9u8).rev() {
            let sq = Square::from_file_rank(file, rank).expect("on the board");
            match pos.piece_at(sq) {
                None => s.push_str(" ・"),
                Some(p) => {
                    s.push(if p.color() == Color::White { 'v' } else { ' ' });
                    s.push_str(p.kind().japanese_short());
                }
            }
        }
        s.push('|');
        s.push(numeral_kanji(rank));
        s.push('\n');
    }
    s.push_str(BOARD_EDGE);
    s.push('\n');
    s.push_str(&format!(
        "{black}の持駒：{}\n",
        hand_text(pos, Color::Black)
    ));
    if pos.side_to_move() == Color::White {
        s.push_str(if handicap_game {
            "上手番\n"
        } else {
            "後手番\n"
        });
    }
    s
}

fn numeral_kanji(n: u8) -> char {
    "一二三四五六七八九"
        .chars()
        .nth(n as usize - 1)
        .unwrap_or('？')
}

/// `飛二　角　歩十八`, or `なし`.
fn hand_text(pos: &Position, color: Color) -> String {
    let hand = pos.hand(color);
    let mut parts = Vec::new();
    for k in PieceKind::HAND_SFEN_ORDER {
        let n = hand.count(k);
        if n == 0 {
            continue;
        }
        let mut part = k.japanese().to_string();
        if n >= 10 {
            part.push('十');
        }
        if n % 10 >= 2 || (n > 10 && n % 10 == 1) {
            part.push(numeral_kanji((n % 10) as u8));
        }
        parts.push(part);
    }
    if parts.is_empty() {
        "なし".to_string()
    } else {
        parts.join("\u{3000}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_in_kanji_and_digits() {
        assert_eq!(count(""), Some(1));
        assert_eq!(count("二"), Some(2));
        assert_eq!(count("十"), Some(10));
        assert_eq!(count("十一"), Some(11));
        assert_eq!(count("十八"), Some(18));
        assert_eq!(count("12"), Some(12));
        assert_eq!(count("１２"), Some(12));
        assert_eq!(count("0"), None);
        assert_eq!(count("二十"), None);
        assert_eq!(count("x"), None);
    }

    #[test]
    fn hands_read_and_write_back() {
        let pos: Position = "4k4/9/9/9/9/9/9/9/9 b R2G11Pb 1".parse().unwrap();
        assert_eq!(
            hand_text(&pos, Color::Black),
            "飛\u{3000}金二\u{3000}歩十一"
        );
        assert_eq!(hand_text(&pos, Color::White), "角");
        let HandSpec::Pieces(c) = hand_spec(1, "飛　金二 歩十一", 7).unwrap() else {
            panic!("pieces expected");
        };
        assert_eq!(
            (
                c[PieceKind::Rook.index()],
                c[PieceKind::Gold.index()],
                c[PieceKind::Pawn.index()]
            ),
            (1, 2, 11)
        );
        let err = hand_spec(4, "飛　象二", 7).unwrap_err();
        assert_eq!((err.line, err.column), (4, Some(9)));
        assert_eq!(err.reason, Reason::UnknownPiece("象二".into()));
        let err = hand_spec(4, "歩二十", 7).unwrap_err();
        assert_eq!(err.reason, Reason::BadCount("二十".into()));
    }

    #[test]
    fn move_lines_split() {
        assert_eq!(
            split_move_line("   1 ７六歩(77)   ( 0:00/00:00:00)"),
            (1, "７六歩(77)", 6)
        );
        assert_eq!(split_move_line("12 同　歩(23)+"), (12, "同　歩(23)", 4));
        assert_eq!(split_move_line("  3 投了"), (3, "投了", 5));
    }

    #[test]
    fn moves_written_as_kif() {
        let pos = Position::startpos();
        let m = pos.parse_move("7g7f").unwrap();
        assert_eq!(move_text(&pos, m, None), "７六歩(77)");
        let pos: Position = "4k4/9/9/9/9/9/9/9/9 b N 1".parse().unwrap();
        let d = pos.parse_move("N*5e").unwrap();
        assert_eq!(move_text(&pos, d, Some(d.to())), "同　桂打");
        let pos: Position = "4k4/9/9/4S4/9/9/9/9/4K4 b - 1".parse().unwrap();
        let m = pos.parse_move("5d5c").unwrap();
        assert_eq!(move_text(&pos, m, None), "５三銀不成(54)");
    }
}
