//! CSA, the record format of the Computer Shogi Association (V2.2, V3.0).
//!
//! ```text
//! V2.2
//! N+Sente
//! N-Gote
//! $EVENT:Example
//! P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
//! P2 * -HI *  *  *  *  * -KA *
//! ...
//! P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
//! +
//! +7776FU,T12
//! -3334FU
//! %TORYO
//! ```
//!
//! The position: `PI` (the initial position) with pieces to remove
//! (`PI82HI22KA` is 二枚落ち), or the rows `P1` to `P9` (` * ` for an empty
//! square; all nine, a board with rows missing is an error naming them,
//! and so is a row of fewer than nine squares),
//! then `P+` / `P-` lines adding pieces square by square (`P-11OU21KE`, on
//! an empty board when neither `PI` nor rows came) or in hand (`P+00KI`);
//! `P-00AL` gives White every piece not placed yet (the defender's hand of
//! a mate problem). `+` or `-` alone is the side to move, which must come
//! before the moves. A move names the piece after it: `+8822UM` is the
//! bishop promoting. Statements may share a line, separated by `,`;
//! comments start with `'`. `N+`/`N-` are read into the headers 先手/後手,
//! `$EVENT`, `$SITE`, `$START_TIME`, `$END_TIME`, `$TIME_LIMIT` and
//! `$OPENING` into 棋戦, 場所, 開始日時, 終了日時, 持ち時間 and 戦型, other
//! `$` fields under their own name (`$NOTE`); times (`T12`) are skipped.
//!
//! Writing ([`write()`]) gives V2.2 with these same fields (other headers
//! are left out), `PI` when the record names a preset it starts from, the
//! rows otherwise.
//!
//! ```
//! use tsume::record::csa;
//!
//! let text = "V2.2\nP-31OU\nP+33FU\nP+00KI\nP-00AL\n+\n+0032KI\n%TSUMI\n";
//! let record = csa::read(text).unwrap();
//! assert_eq!(record.start.to_string(), "6k2/9/6P2/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
//! assert_eq!(record.moves[0].to_string(), "G*3b");
//! assert_eq!(csa::read(&csa::write(&record)).unwrap(), record);
//! let err = csa::read("PI\n+\n+7776FU\n-3334FU\n+7775KA\n").unwrap_err();
//! assert_eq!(err.line, 5);
//! ```

use crate::core::handicap::Handicap;
use crate::core::{Color, Move, Piece, PieceKind, Position, Square};

use super::{Reason, Record, RecordError, Setup, Termination, numbered_lines};

/// CSA field names and the KIF header names they are kept under.
const FIELDS: [(&str, &str); 6] = [
    ("EVENT", "棋戦"),
    ("SITE", "場所"),
    ("START_TIME", "開始日時"),
    ("END_TIME", "終了日時"),
    ("TIME_LIMIT", "持ち時間"),
    ("OPENING", "戦型"),
];

const CODES: [(&str, PieceKind); 14] = [
    ("FU", PieceKind::Pawn),
    ("KY", PieceKind::Lance),
    ("KE", PieceKind::Knight),
    ("GI", PieceKind::Silver),
    ("KI", PieceKind::Gold),
    ("KA", PieceKind::Bishop),
    ("HI", PieceKind::Rook),
    ("OU", PieceKind::King),
    ("TO", PieceKind::ProPawn),
    ("NY", PieceKind::ProLance),
    ("NK", PieceKind::ProKnight),
    ("NG", PieceKind::ProSilver),
    ("UM", PieceKind::Horse),
    ("RY", PieceKind::Dragon),
];

/// The kind a two-letter CSA code names.
pub fn kind_of_code(code: &str) -> Option<PieceKind> {
    CODES.iter().find(|(c, _)| *c == code).map(|&(_, k)| k)
}

/// The two-letter CSA code of a kind.
pub fn code_of_kind(kind: PieceKind) -> &'static str {
    CODES
        .iter()
        .find(|&&(_, k)| k == kind)
        .map_or("??", |&(c, _)| c)
}

fn sign_color(c: char) -> Option<Color> {
    match c {
        '+' => Some(Color::Black),
        '-' => Some(Color::White),
        _ => None,
    }
}

fn sign(color: Color) -> char {
    match color {
        Color::Black => '+',
        Color::White => '-',
    }
}

/// A square `77`, or `None` for `00` (a hand or a drop).
fn square(s: &str) -> Result<Option<Square>, ()> {
    let b = s.as_bytes();
    if b.len() != 2 || !b.iter().all(u8::is_ascii_digit) {
        return Err(());
    }
    if b == b"00" {
        return Ok(None);
    }
    Square::from_file_rank(b[0] - b'0', b[1] - b'0')
        .map(Some)
        .ok_or(())
}

/// The state of a record being read.
struct Reader {
    record: Record,
    setup: Setup,
    /// Whether `PI` or a `P1`..`P9` row came (the board is then set).
    board_given: bool,
    pi: bool,
    /// The rows `P1`..`P9` that came (all nine or none).
    rows: [bool; 9],
    side: Option<Color>,
    pos: Option<Position>,
    /// The line where the position was set up (for its errors).
    setup_line: usize,
}

/// Reads a CSA record (text: see [`super::encoding::decode`] for bytes).
pub fn read(text: &str) -> Result<Record, RecordError> {
    super::check_line_lengths(text)?;
    let mut r = Reader {
        record: Record::new(Position::startpos()),
        setup: Setup::empty(),
        board_given: false,
        pi: false,
        rows: [false; 9],
        side: None,
        pos: None,
        setup_line: 1,
    };
    let mut last = 0;
    let mut any = false;
    for (no, raw) in numbered_lines(text) {
        last = no;
        let line = raw.trim_end();
        if line.trim().is_empty() {
            continue;
        }
        any = true;
        if let Some(c) = line.strip_prefix('\'') {
            r.record
                .comments
                .push((r.record.moves.len(), c.to_string()));
            continue;
        }
        if line.starts_with(['N', '$']) {
            r.info(no, line)?;
            continue;
        }
        let mut column = 1;
        for statement in line.split(',') {
            r.statement(no, column, statement.trim_end())?;
            column += statement.chars().count() + 1;
        }
    }
    if !any {
        return Err(RecordError::new(1, None, Reason::Empty));
    }
    if r.pos.is_none() {
        r.set_up(last + 1)?;
    }
    Ok(r.record)
}

impl Reader {
    fn info(&mut self, no: usize, line: &str) -> Result<(), RecordError> {
        if let Some(name) = line.strip_prefix("N+") {
            self.record.headers.push(("先手".into(), name.into()));
        } else if let Some(name) = line.strip_prefix("N-") {
            self.record.headers.push(("後手".into(), name.into()));
        } else if let Some(field) = line.strip_prefix('$')
            && let Some((key, value)) = field.split_once(':')
        {
            let name = FIELDS
                .iter()
                .find(|(k, _)| *k == key)
                .map_or_else(|| format!("${key}"), |(_, n)| n.to_string());
            self.record.headers.push((name, value.to_string()));
        } else {
            return Err(RecordError::new(
                no,
                Some(1),
                Reason::Unexpected {
                    expected: "`N+name`, `N-name` or `$KEY:value`",
                    found: line.to_string(),
                },
            ));
        }
        Ok(())
    }

    fn statement(&mut self, no: usize, column: usize, s: &str) -> Result<(), RecordError> {
        let unexpected = |expected: &'static str| {
            RecordError::new(
                no,
                Some(column),
                Reason::Unexpected {
                    expected,
                    found: s.to_string(),
                },
            )
        };
        let Some(first) = s.chars().next() else {
            return Ok(());
        };
        match first {
            'V' => {
                if !matches!(s, "V1" | "V2" | "V2.1" | "V2.2" | "V3.0") {
                    return Err(unexpected("a version V2, V2.1, V2.2 or V3.0"));
                }
            }
            'P' => {
                if self.pos.is_some() {
                    return Err(RecordError::new(no, Some(column), Reason::SetupAfterMoves));
                }
                self.setup_line = no;
                self.position_line(no, column, s)?;
            }
            '+' | '-' if s.len() == 1 => {
                if self.pos.is_some() {
                    return Err(RecordError::new(no, Some(column), Reason::SetupAfterMoves));
                }
                self.side = sign_color(first);
                self.set_up(no)?;
            }
            '+' | '-' => {
                if self.pos.is_none() {
                    self.set_up(no)?;
                }
                self.play(no, column, s)?;
            }
            'T' => {
                if !s[1..]
                    .trim()
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == '.')
                {
                    return Err(unexpected("a time such as T12"));
                }
            }
            '%' => {
                if self.pos.is_none() {
                    self.set_up(no)?;
                }
                let to_move = self
                    .pos
                    .as_ref()
                    .map_or(Color::Black, Position::side_to_move);
                let end = match s {
                    "%TORYO" => Termination::Resign,
                    "%CHUDAN" => Termination::Abort,
                    "%SENNICHITE" => Termination::Repetition,
                    "%TIME_UP" => Termination::TimeUp,
                    "%ILLEGAL_MOVE" => Termination::IllegalLoss,
                    "%+ILLEGAL_ACTION" | "%-ILLEGAL_ACTION" => {
                        if sign_color(s.chars().nth(1).unwrap_or('+')) == Some(to_move) {
                            Termination::IllegalLoss
                        } else {
                            Termination::IllegalWin
                        }
                    }
                    "%JISHOGI" => Termination::Impasse,
                    "%KACHI" => Termination::EnteringKingWin,
                    "%HIKIWAKE" => Termination::Draw,
                    "%MATTA" => Termination::Matta,
                    "%TSUMI" => Termination::Mate,
                    "%FUZUMI" => Termination::NoMate,
                    _ => {
                        return Err(unexpected(
                            "%TORYO, %CHUDAN, %SENNICHITE, %TIME_UP, %ILLEGAL_MOVE, %+ILLEGAL_ACTION, %-ILLEGAL_ACTION, %JISHOGI, %KACHI, %HIKIWAKE, %MATTA, %TSUMI or %FUZUMI",
                        ));
                    }
                };
                if self.record.end.is_some() {
                    return Err(RecordError::new(
                        no,
                        Some(column),
                        Reason::Repeated("the end"),
                    ));
                }
                self.record.end = Some(end);
            }
            _ => {
                return Err(unexpected(
                    "a statement (V, N, $, P, +, -, a move, T, % or a ' comment)",
                ));
            }
        }
        Ok(())
    }

    /// `PI...`, `P1`..`P9`, `P+...`, `P-...`.
    fn position_line(&mut self, no: usize, column: usize, s: &str) -> Result<(), RecordError> {
        let bad = |offset: usize, expected: &'static str, found: &str| {
            RecordError::new(
                no,
                Some(column + offset),
                Reason::Unexpected {
                    expected,
                    found: found.to_string(),
                },
            )
        };
        let second = s[1..].chars().next().unwrap_or(' ');
        let rest = s.get(2..).unwrap_or("");
        if !rest.is_ascii() {
            return Err(bad(2, "ASCII piece codes", rest));
        }
        match second {
            'I' => {
                if self.board_given || self.rows.contains(&true) {
                    return Err(RecordError::new(
                        no,
                        Some(column),
                        Reason::Repeated("the board"),
                    ));
                }
                self.board_given = true;
                self.pi = true;
                self.setup.board = Setup::from_position(&Position::startpos()).board;
                for (i, group) in groups(rest).enumerate() {
                    let offset = 2 + 4 * i;
                    let sq = match square(&group[..2.min(group.len())]) {
                        Ok(Some(sq)) if group.len() == 4 => sq,
                        _ => return Err(bad(offset, "a square and a piece such as 82HI", group)),
                    };
                    let kind = kind_of_code(&group[2..]);
                    match (kind, self.setup.board[sq.index()]) {
                        (Some(k), Some(p)) if p.kind() == k => self.setup.board[sq.index()] = None,
                        _ => {
                            return Err(bad(
                                offset,
                                "a piece of the initial position to remove",
                                group,
                            ));
                        }
                    }
                }
            }
            '1'..='9' => {
                let rank = second as u8 - b'0';
                if rest.len() > 27 {
                    return Err(bad(29, "the end of the row after 9 squares", &rest[27..]));
                }
                if self.pi {
                    return Err(RecordError::new(
                        no,
                        Some(column),
                        Reason::Repeated("the board (PI, then a row)"),
                    ));
                }
                if std::mem::replace(&mut self.rows[usize::from(rank - 1)], true) {
                    return Err(RecordError::new(
                        no,
                        Some(column),
                        Reason::Repeated("a row of the board"),
                    ));
                }
                self.board_given = true;
                // Nine cells of three characters; the last may have lost
                // its trailing space (` *`), but a row that stops early
                // is an error: padding it would drop the pieces it lacks.
                let padded = format!("{rest:<27}");
                for j in 0..9 {
                    let cell = &padded[3 * j..3 * j + 3];
                    let sq = Square::from_file_rank(9 - j as u8, rank).expect("on the board");
                    self.setup.board[sq.index()] = if cell.trim() == "*" {
                        None
                    } else if padded[3 * j..].trim().is_empty() {
                        // The row stops here: padding it would drop the
                        // pieces it lacks (a last ` *` that lost its
                        // trailing space is whole).
                        return Err(RecordError::new(
                            no,
                            Some(column + 2 + rest.trim_end().len()),
                            Reason::ShortRow { rank, squares: j },
                        ));
                    } else if cell.trim().is_empty() {
                        return Err(bad(
                            2 + 3 * j,
                            "a square: ` * ` (empty) or a piece such as +FU",
                            cell,
                        ));
                    } else {
                        let color = sign_color(cell.chars().next().unwrap_or(' '));
                        let kind = kind_of_code(&cell[1..]);
                        match (color, kind) {
                            (Some(c), Some(k)) => Some(Piece::new(c, k)),
                            _ => {
                                return Err(RecordError::new(
                                    no,
                                    Some(column + 2 + 3 * j),
                                    Reason::UnknownPiece(cell.to_string()),
                                ));
                            }
                        }
                    };
                }
            }
            '+' | '-' => {
                // Pieces put on an empty board when no PI or rows came.
                self.board_given = true;
                let color = sign_color(second).unwrap_or(Color::Black);
                for (i, group) in groups(rest).enumerate() {
                    let offset = 2 + 4 * i;
                    let Ok(at) = square(&group[..2.min(group.len())]) else {
                        return Err(bad(
                            offset,
                            "a square (00 for the hand) and a piece such as 00KI",
                            group,
                        ));
                    };
                    let code = group.get(2..).unwrap_or("");
                    match (at, code) {
                        (None, "AL") => {
                            if self.setup.rest.is_some() {
                                return Err(RecordError::new(
                                    no,
                                    Some(column + offset),
                                    Reason::Repeated("00AL"),
                                ));
                            }
                            self.setup.rest = Some(color);
                        }
                        (None, _) => match kind_of_code(code).filter(|k| k.is_hand_kind()) {
                            Some(k) => self.setup.hands[color.index()][k.index()] += 1,
                            None => {
                                return Err(RecordError::new(
                                    no,
                                    Some(column + offset + 2),
                                    Reason::UnknownPiece(code.to_string()),
                                ));
                            }
                        },
                        (Some(sq), _) => match kind_of_code(code) {
                            Some(k) => self.setup.board[sq.index()] = Some(Piece::new(color, k)),
                            None => {
                                return Err(RecordError::new(
                                    no,
                                    Some(column + offset + 2),
                                    Reason::UnknownPiece(code.to_string()),
                                ));
                            }
                        },
                    }
                }
            }
            _ => return Err(bad(0, "PI, P1 to P9, P+ or P-", s)),
        }
        Ok(())
    }

    /// Sets the position up when the moves (or the end) start at line
    /// `no`: the rows, when given, must be all nine, and the side to move
    /// must have been given.
    fn set_up(&mut self, no: usize) -> Result<(), RecordError> {
        let line = if self.board_given {
            self.setup_line
        } else {
            no
        };
        if self.rows.contains(&true) && self.rows.contains(&false) {
            let missing: Vec<String> = (1..=9)
                .filter(|&r| !self.rows[r - 1])
                .map(|r| format!("P{r}"))
                .collect();
            let what = match missing.as_slice() {
                [one] => format!("row {one}"),
                _ => format!("rows {}", missing.join(", ")),
            };
            return Err(RecordError::new(line, None, Reason::MissingRows(what)));
        }
        let Some(side) = self.side else {
            return Err(RecordError::new(no, None, Reason::MissingSide));
        };
        if !self.board_given {
            self.setup.board = Setup::from_position(&Position::startpos()).board;
        }
        self.setup.side = side;
        let pos = self
            .setup
            .position()
            .map_err(|e| RecordError::new(line, None, Reason::Position(e)))?;
        if self.pi {
            self.record.handicap = Handicap::ALL.into_iter().find(|h| h.position() == pos);
        }
        self.record.start = pos.clone();
        self.pos = Some(pos);
        Ok(())
    }

    /// A move `+7776FU`.
    fn play(&mut self, no: usize, column: usize, s: &str) -> Result<(), RecordError> {
        let number = self.record.moves.len() + 1;
        let bad = |why: String| {
            RecordError::new(
                no,
                Some(column),
                Reason::BadCsaMove {
                    number,
                    text: s.to_string(),
                    why,
                },
            )
        };
        if self.record.end.is_some() {
            return Err(RecordError::new(
                no,
                Some(column),
                Reason::MoveAfterEnd(number),
            ));
        }
        let Some(pos) = self.pos.as_mut() else {
            return Err(bad("no position".into()));
        };
        if s.len() != 7 || !s.is_ascii() {
            return Err(bad(
                "expected a sign, two squares and a piece, as +7776FU".into()
            ));
        }
        let us = sign_color(s.as_bytes()[0] as char).unwrap_or(Color::Black);
        if us != pos.side_to_move() {
            return Err(bad(format!(
                "it is {}'s move",
                side_name(pos.side_to_move())
            )));
        }
        let (Ok(from), Ok(Some(to))) = (square(&s[1..3]), square(&s[3..5])) else {
            return Err(bad("a square is not 11 to 99 (00 for a drop)".into()));
        };
        let Some(kind) = kind_of_code(&s[5..]) else {
            return Err(bad(format!("unknown piece `{}`", &s[5..])));
        };
        let m = match from {
            None => {
                if !kind.is_hand_kind() {
                    return Err(bad(format!("a {} cannot be dropped", code_of_kind(kind))));
                }
                Move::new_drop(kind, to)
            }
            Some(from) => {
                let Some(piece) = pos.piece_at(from).filter(|p| p.color() == us) else {
                    return Err(bad(format!("{} has no piece on {from}", side_name(us))));
                };
                if piece.kind() == kind {
                    Move::new(from, to, false)
                } else if piece.kind().promoted() == Some(kind) {
                    Move::new(from, to, true)
                } else {
                    return Err(bad(format!(
                        "the piece on {} is {}, which cannot become {}",
                        &s[1..3],
                        code_of_kind(piece.kind()),
                        code_of_kind(kind)
                    )));
                }
            }
        };
        pos.is_legal(m).map_err(|reason| {
            RecordError::new(
                no,
                Some(column),
                Reason::IllegalMove {
                    number,
                    text: s.to_string(),
                    reason,
                },
            )
        })?;
        pos.do_move(m);
        self.record.moves.push(m);
        Ok(())
    }
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black (+)",
        Color::White => "White (-)",
    }
}

/// The four-character groups of a `P+`/`PI` line (the last may be short).
fn groups(s: &str) -> impl Iterator<Item = &str> {
    (0..s.len().div_ceil(4)).map(move |i| &s[4 * i..(4 * i + 4).min(s.len())])
}

// ----------------------------------------------------------------------
// Writing
// ----------------------------------------------------------------------

/// The record in CSA V2.2 (see the module documentation). The text is
/// ASCII except for names and comments; write it as UTF-8 (V3.0 and most
/// programs) or Shift-JIS with [`super::encoding::encode`].
pub fn write(record: &Record) -> String {
    let mut s = String::from("V2.2\n");
    for (key, value) in &record.headers {
        match key.as_str() {
            "先手" | "下手" => s.push_str(&format!("N+{value}\n")),
            "後手" | "上手" => s.push_str(&format!("N-{value}\n")),
            k if k.starts_with('$') => s.push_str(&format!("{k}:{value}\n")),
            k => {
                if let Some((field, _)) = FIELDS.iter().find(|(_, n)| *n == k) {
                    s.push_str(&format!("${field}:{value}\n"));
                }
            }
        }
    }
    let start = &record.start;
    match record.handicap.filter(|h| h.position() == *start) {
        Some(h) => {
            let initial = Position::startpos();
            s.push_str("PI");
            for sq in Square::all().collect::<Vec<_>>().into_iter().rev() {
                if initial.piece_at(sq).is_some() && h.position().piece_at(sq).is_none() {
                    let kind = initial.piece_at(sq).map_or(PieceKind::Pawn, |p| p.kind());
                    s.push_str(&format!("{}{}{}", sq.file(), sq.rank(), code_of_kind(kind)));
                }
            }
            s.push('\n');
        }
        None => {
            for rank in 1..=9u8 {
                s.push_str(&format!("P{rank}"));
                for file in (1..=9u8).rev() {
                    let sq = Square::from_file_rank(file, rank).expect("on the board");
                    match start.piece_at(sq) {
                        None => s.push_str(" * "),
                        Some(p) => {
                            s.push(sign(p.color()));
                            s.push_str(code_of_kind(p.kind()));
                        }
                    }
                }
                s.push('\n');
            }
        }
    }
    for c in Color::ALL {
        let hand = start.hand(c);
        if hand.is_empty() {
            continue;
        }
        s.push('P');
        s.push(sign(c));
        for k in PieceKind::HAND_SFEN_ORDER {
            for _ in 0..hand.count(k) {
                s.push_str("00");
                s.push_str(code_of_kind(k));
            }
        }
        s.push('\n');
    }
    s.push(sign(start.side_to_move()));
    s.push('\n');
    let comments = |s: &mut String, ply: usize| {
        for (_, c) in record.comments.iter().filter(|(p, _)| *p == ply) {
            s.push('\'');
            s.push_str(c);
            s.push('\n');
        }
    };
    comments(&mut s, 0);
    let mut pos = start.clone();
    for (i, &m) in record.moves.iter().enumerate() {
        s.push_str(&move_text(&pos, m));
        s.push('\n');
        comments(&mut s, i + 1);
        pos.do_move(m);
    }
    if let Some(end) = record.end {
        let us = pos.side_to_move();
        let text = match end {
            Termination::Resign => "%TORYO".to_string(),
            Termination::Abort => "%CHUDAN".to_string(),
            Termination::Mate => "%TSUMI".to_string(),
            Termination::NoMate => "%FUZUMI".to_string(),
            Termination::Repetition => "%SENNICHITE".to_string(),
            Termination::Impasse => "%JISHOGI".to_string(),
            Termination::EnteringKingWin => "%KACHI".to_string(),
            Termination::TimeUp => "%TIME_UP".to_string(),
            Termination::IllegalWin => format!("%{}ILLEGAL_ACTION", sign(!us)),
            Termination::IllegalLoss => format!("%{}ILLEGAL_ACTION", sign(us)),
            Termination::Draw => "%HIKIWAKE".to_string(),
            Termination::Matta => "%MATTA".to_string(),
        };
        s.push_str(&text);
        s.push('\n');
    }
    s
}

/// A move in CSA: `+7776FU`, `-0055KA`, `+8822UM` (the piece after the
/// move).
pub fn move_text(pos: &Position, m: Move) -> String {
    let us = pos.side_to_move();
    let (from, kind) = match (m.drop_kind(), m.from()) {
        (Some(k), _) => ("00".to_string(), k),
        (None, Some(from)) => {
            let k = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind());
            let k = if m.is_promotion() {
                k.promoted().unwrap_or(k)
            } else {
                k
            };
            (format!("{}{}", from.file(), from.rank()), k)
        }
        (None, None) => ("00".to_string(), PieceKind::Pawn),
    };
    format!(
        "{}{from}{}{}{}",
        sign(us),
        m.to().file(),
        m.to().rank(),
        code_of_kind(kind)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handicap_by_pi_and_hands() {
        let r = read("PI82HI22KA\n-\n-5142OU\n").unwrap();
        assert_eq!(r.handicap, Some(Handicap::TwoPieces));
        assert_eq!(r.moves.len(), 1);
        assert_eq!(read(&write(&r)).unwrap(), r);
        let mut pawns = Record::new(Handicap::ThreePawns.position());
        pawns.handicap = Some(Handicap::ThreePawns);
        let text = write(&pawns);
        assert!(text.contains("P-00FU00FU00FU"), "{text}");
        assert_eq!(read(&text).unwrap(), pawns);
    }

    #[test]
    fn statements_on_one_line_and_errors() {
        let r = read("PI,+,+7776FU,T3,-3334FU,T1\n'a comment\n%CHUDAN\n").unwrap();
        assert_eq!(r.moves.len(), 2);
        assert_eq!(r.comments, [(2, "a comment".to_string())]);
        assert_eq!(r.end, Some(Termination::Abort));
        let err = read("PI\n+\n+7776FU,-3334FX\n").unwrap_err();
        assert_eq!((err.line, err.column), (3, Some(9)));
        assert!(err.to_string().contains("unknown piece `FX`"), "{err}");
        let err = read("PI\n+\n-3334FU\n").unwrap_err();
        assert!(err.to_string().contains("Black (+)'s move"), "{err}");
        let err = read("P1 *  * -XX\n+\n").unwrap_err();
        assert_eq!((err.line, err.column), (1, Some(9)));
        let err = read("PI55KY\n").unwrap_err();
        assert_eq!(err.line, 1);
    }
}
