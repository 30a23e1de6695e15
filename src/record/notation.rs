//! Japanese move notation (棋譜の符号), as written in game records and
//! tsume books: `▲７六歩`, `△同　歩`, `▲２二角成`, `▲５八金右`, `▲５五銀打`.
//!
//! Writing follows the rules of the Japan Shogi Association:
//!
//! * the destination, then the name of the moving piece as it stands before
//!   the move (`角成`, not `馬`); `同`, a full-width space and the piece
//!   when the destination is that of the previous move;
//! * when two or more pieces of the same kind can move to the destination,
//!   a mark tells which one moved. The motion comes first: 上 (forward),
//!   引 (backward), 寄 (sideways). When the motion does not single the piece
//!   out, its place does: 右 or 左 as the mover sees the board (the piece
//!   furthest to that side), or 直 for a gold, silver or promoted minor
//!   piece moving straight forward (never for the others: two dragons or
//!   horses are told apart by 右 and 左). When neither alone is enough, both
//!   are written, place first: 右上, 左引, 左寄;
//! * `成` or `不成` when the piece could promote on this move (only `成`
//!   when it must), `打` for a drop only when a piece of the same kind on
//!   the board could also move to the square.
//!
//! With the pieces of one set these rules always name a single move. Only
//! in a position with more pieces than a set holds (three dragons, say) can
//! they fall short; the origin is then added as in KIF files: `５五龍(59)`.
//!
//! Reading accepts the same strings and more: ▲ △ ☗ ☖ ▽ or no mark;
//! full-width, ASCII or kanji numerals for file and rank (`７六`, `76`,
//! `七六`); `同` with or without a space (or after the square, `２四同歩`);
//! 竜 for 龍, 王 for 玉, 杏 圭 全 for 成香 成桂 成銀; 行 for 上, 生 for 不成;
//! marks that say more than needed (`５八金左上`); a KIF origin `(69)`. A
//! drop needs no `打` when no piece on the board of that kind can move to
//! the square. A move without `成` does not promote. Errors name what is
//! wrong and the column (counting characters from 1) where it is.
//!
//! ```
//! use tsume::core::Position;
//! use tsume::record::notation;
//!
//! let pos = Position::startpos();
//! let m = pos.parse_move("4i5h").unwrap();
//! assert_eq!(notation::japanese(&pos, m, None), "▲５八金右");
//! assert_eq!(notation::parse_japanese(&pos, "58金右", None), Ok(m));
//! // Two golds can reach ５八: without a mark the move is ambiguous.
//! assert!(notation::parse_japanese(&pos, "▲５八金", None).is_err());
//!
//! let line = "▲７六歩 △３四歩 ▲２二角成 △同　銀";
//! let moves = notation::parse_japanese_line(&pos, line, None).unwrap();
//! assert_eq!(moves[2].to_string(), "8h2b+");
//! assert_eq!(notation::japanese_line(&pos, &moves, None).unwrap(), line);
//! ```

use std::fmt::Write as _;

use crate::core::movegen::legal_moves;
use crate::core::{Color, IllegalMove, Move, PieceKind, Position, Square};

/// The full-width space written after 同.
const FULL_WIDTH_SPACE: char = '\u{3000}';

// ----------------------------------------------------------------------
// Marks
// ----------------------------------------------------------------------

/// How the piece moves, as its owner sees the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Motion {
    /// 上: forward (also sideways-forward).
    Up,
    /// 寄: along the rank.
    Sideways,
    /// 引: backward.
    Down,
}

impl Motion {
    fn of(us: Color, from: Square, to: Square) -> Motion {
        let (f, t) = (from.relative_rank(us), to.relative_rank(us));
        match t.cmp(&f) {
            std::cmp::Ordering::Less => Motion::Up,
            std::cmp::Ordering::Equal => Motion::Sideways,
            std::cmp::Ordering::Greater => Motion::Down,
        }
    }

    fn kanji(self) -> char {
        match self {
            Motion::Up => '上',
            Motion::Sideways => '寄',
            Motion::Down => '引',
        }
    }
}

/// Where the piece stands among those that can reach the square.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Place {
    /// 左: furthest to the mover's left.
    Left,
    /// 右: furthest to the mover's right.
    Right,
    /// 直: straight behind the destination, moving forward.
    Straight,
}

impl Place {
    fn kanji(self) -> char {
        match self {
            Place::Left => '左',
            Place::Right => '右',
            Place::Straight => '直',
        }
    }
}

/// How far to the left of `us` the square is: file 9 is Black's left and
/// White's right.
fn leftness(us: Color, sq: Square) -> u8 {
    match us {
        Color::Black => sq.file(),
        Color::White => 10 - sq.file(),
    }
}

/// Whether the piece on `from` moves straight forward to `to`.
fn is_straight(us: Color, from: Square, to: Square) -> bool {
    from.file() == to.file() && Motion::of(us, from, to) == Motion::Up
}

/// Whether 直 is used for this kind (gold, silver and the promoted minor
/// pieces).
fn uses_straight(kind: PieceKind) -> bool {
    kind == PieceKind::Silver || kind.moves_like_gold()
}

/// 左 when `from` is strictly further left than every other square of
/// `group`, 右 when strictly further right, else nothing.
fn extreme(us: Color, from: Square, group: &[Square]) -> Option<Place> {
    let l = leftness(us, from);
    let others = || group.iter().filter(|&&s| s != from);
    if others().next().is_none() {
        None
    } else if others().all(|&s| leftness(us, s) < l) {
        Some(Place::Left)
    } else if others().all(|&s| leftness(us, s) > l) {
        Some(Place::Right)
    } else {
        None
    }
}

/// What a board move needs to be told apart from the moves of the other
/// pieces of its kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Marks {
    Some(Option<Place>, Option<Motion>),
    /// The rules fall short (more pieces than a set holds): the origin.
    Origin,
}

/// The marks for moving the piece on `from` to `to`, given every square
/// (`from` included) whose piece of this kind can move there.
fn marks(us: Color, kind: PieceKind, from: Square, to: Square, candidates: &[Square]) -> Marks {
    if candidates.len() < 2 {
        return Marks::Some(None, None);
    }
    let motion = Motion::of(us, from, to);
    let same_motion: Vec<Square> = candidates
        .iter()
        .copied()
        .filter(|&s| Motion::of(us, s, to) == motion)
        .collect();
    if same_motion.len() == 1 {
        return Marks::Some(None, Some(motion));
    }
    if uses_straight(kind) && is_straight(us, from, to) {
        return Marks::Some(Some(Place::Straight), None);
    }
    if let Some(place) = extreme(us, from, candidates) {
        return Marks::Some(Some(place), None);
    }
    match extreme(us, from, &same_motion) {
        Some(place) => Marks::Some(Some(place), Some(motion)),
        None => Marks::Origin,
    }
}

/// The squares from which a piece of `kind` of the side to move can legally
/// move to `to`, each once.
fn board_candidates(pos: &Position, kind: PieceKind, to: Square) -> Vec<Square> {
    let mut out: Vec<Square> = Vec::new();
    for m in legal_moves(pos).iter() {
        if m.to() != to {
            continue;
        }
        if let Some(from) = m.from()
            && pos.piece_at(from).is_some_and(|p| p.kind() == kind)
            && !out.contains(&from)
        {
            out.push(from);
        }
    }
    out
}

// ----------------------------------------------------------------------
// Writing
// ----------------------------------------------------------------------

/// The move `m` of the side to move in `pos`, in Japanese notation with the
/// mark of the side to move: `▲７六歩`, `△同　歩`, `▲５八金右`.
///
/// `previous_to` is the destination of the move before (for 同). `m`
/// should be legal in `pos`; for a move that is not, the result describes
/// it as well as it can (with `？` for a missing piece) and does not read
/// back.
pub fn japanese(pos: &Position, m: Move, previous_to: Option<Square>) -> String {
    let mut s = String::new();
    s.push(pos.side_to_move().japanese_mark());
    write_move(pos, m, previous_to, &mut s);
    s
}

/// A move of a line that is not legal where it is played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {number} of the line ({mv}) is not legal: {reason}")]
pub struct IllegalLineMove {
    /// 1 for the first move of the line.
    pub number: usize,
    pub mv: Move,
    pub reason: IllegalMove,
}

/// The moves played one after the other from `pos`, each written as by
/// [`japanese`] and separated by spaces: `▲２四歩 △同　歩 ▲同　飛`.
/// `previous_to` is the destination of the move before the first.
pub fn japanese_line(
    pos: &Position,
    moves: &[Move],
    previous_to: Option<Square>,
) -> Result<String, IllegalLineMove> {
    let mut p = pos.clone();
    let mut prev = previous_to;
    let mut out = String::new();
    for (i, &m) in moves.iter().enumerate() {
        p.is_legal(m).map_err(|reason| IllegalLineMove {
            number: i + 1,
            mv: m,
            reason,
        })?;
        if i > 0 {
            out.push(' ');
        }
        out.push(p.side_to_move().japanese_mark());
        write_move(&p, m, prev, &mut out);
        p.do_move(m);
        prev = Some(m.to());
    }
    Ok(out)
}

/// Writes `m` without the side mark.
fn write_move(pos: &Position, m: Move, previous_to: Option<Square>, out: &mut String) {
    let us = pos.side_to_move();
    let to = m.to();
    if previous_to == Some(to) {
        out.push('同');
        out.push(FULL_WIDTH_SPACE);
    } else {
        out.push_str(&to.japanese());
    }
    if let Some(kind) = m.drop_kind() {
        out.push_str(kind.japanese());
        if !board_candidates(pos, kind, to).is_empty() {
            out.push('打');
        }
        return;
    }
    let Some(from) = m.from() else { return };
    let Some(piece) = pos.piece_at(from).filter(|p| p.color() == us) else {
        out.push('？');
        if m.is_promotion() {
            out.push('成');
        }
        let _ = write!(out, "({}{})", from.file(), from.rank());
        return;
    };
    let kind = piece.kind();
    out.push_str(kind.japanese());
    let mut candidates = board_candidates(pos, kind, to);
    if !candidates.contains(&from) {
        candidates.push(from);
    }
    let marks = marks(us, kind, from, to, &candidates);
    if let Marks::Some(place, motion) = marks {
        out.extend(place.map(Place::kanji));
        out.extend(motion.map(Motion::kanji));
    }
    if m.is_promotion() {
        out.push('成');
    } else if Position::promotion_options(kind, us, from, to).0 {
        out.push_str("不成");
    }
    if marks == Marks::Origin {
        let _ = write!(out, "({}{})", from.file(), from.rank());
    }
}

// ----------------------------------------------------------------------
// Reading
// ----------------------------------------------------------------------

/// Why a string is not a move in Japanese notation, or not a legal one.
/// Columns count characters from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("empty move")]
    Empty,
    #[error("`{mark}` at column {column} marks a move of {}, but {} is to move", side_name(!*.to_move), side_name(*.to_move))]
    WrongSide {
        column: usize,
        mark: char,
        to_move: Color,
    },
    #[error("expected the destination (such as ７六, 76 or 同) at column {column}, found {}", shown(*.found))]
    ExpectedSquare { column: usize, found: Option<char> },
    #[error("expected the rank (一 to 九, or 1 to 9) at column {column}, found {}", shown(*.found))]
    ExpectedRank { column: usize, found: Option<char> },
    #[error("同 at column {column}, but there is no previous move")]
    NoPreviousMove { column: usize },
    #[error("同 at column {column} after {}, but the previous move went to {}", .written.japanese(), .previous.japanese())]
    NotTheSameSquare {
        column: usize,
        written: Square,
        previous: Square,
    },
    #[error("expected a piece (歩 香 桂 銀 金 角 飛 玉 と 成香 成桂 成銀 馬 龍) at column {column}, found {}", shown(*.found))]
    ExpectedPiece { column: usize, found: Option<char> },
    #[error("expected 香, 桂 or 銀 after 成 at column {column}, found {}", shown(*.found))]
    BadPromotedName { column: usize, found: Option<char> },
    #[error("unexpected {} at column {column}", shown(Some(*.found)))]
    UnexpectedChar { column: usize, found: char },
    #[error("`{found}` at column {column} repeats or contradicts an earlier mark")]
    RepeatedMark { column: usize, found: char },
    #[error("expected an origin such as (77) at column {column}")]
    BadOrigin { column: usize },
    #[error("打 at column {column}: a {} cannot be dropped", .kind.japanese())]
    CannotDrop { column: usize, kind: PieceKind },
    #[error("`{found}` at column {column} cannot go with 打")]
    MarkOnDrop { column: usize, found: char },
    #[error("no {} can move to {} or be dropped there (column {column})", .kind.japanese(), .to.japanese())]
    NoPiece {
        column: usize,
        kind: PieceKind,
        to: Square,
    },
    #[error("no {} on the board can move to {} (column {column})", .kind.japanese(), .to.japanese())]
    NoBoardPiece {
        column: usize,
        kind: PieceKind,
        to: Square,
    },
    #[error("the marks at column {column} fit none of the {} that can move to {} (from {})", .kind.japanese(), .to.japanese(), squares(.candidates))]
    NoPieceFits {
        column: usize,
        kind: PieceKind,
        to: Square,
        candidates: Vec<Square>,
    },
    #[error("ambiguous at column {column}: the {} on {} can each move to {}; add 右, 左, 上, 引, 寄 or 直", .kind.japanese(), squares(.candidates), .to.japanese())]
    Ambiguous {
        column: usize,
        kind: PieceKind,
        to: Square,
        candidates: Vec<Square>,
    },
    #[error("the move at column {column} ({mv}) is not legal: {reason}")]
    Illegal {
        column: usize,
        mv: Move,
        reason: IllegalMove,
    },
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black (▲)",
        Color::White => "White (△)",
    }
}

fn shown(c: Option<char>) -> String {
    match c {
        Some(c) => format!("`{c}`"),
        None => "the end".to_string(),
    }
}

fn squares(v: &[Square]) -> String {
    v.iter()
        .map(|s| s.japanese())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A line that does not read as moves, with the number of the move at
/// fault (1 for the first). The columns inside count in the whole line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {number} of the line: {error}")]
pub struct LineError {
    pub number: usize,
    pub error: NotationError,
}

/// Reads one move of the side to move in `pos`. `previous_to` is the
/// destination of the move before (what 同 refers to). See the module
/// documentation for what is accepted; the move returned is legal.
pub fn parse_japanese(
    pos: &Position,
    s: &str,
    previous_to: Option<Square>,
) -> Result<Move, NotationError> {
    let chars: Vec<char> = s.chars().collect();
    parse_chars(pos, &chars, 0, previous_to)
}

/// Reads moves separated by white space (`▲２四歩 △同　歩 ▲同　飛`),
/// each played before the next is read. A ▲ or △ on a move must match the
/// side to move. The full-width space after 同 may be any white space.
pub fn parse_japanese_line(
    pos: &Position,
    s: &str,
    previous_to: Option<Square>,
) -> Result<Vec<Move>, LineError> {
    let chars: Vec<char> = s.chars().collect();
    // Runs of non-space characters, as [start, end) char ranges.
    let mut tokens: Vec<(usize, usize)> = Vec::new();
    let mut start = None;
    for (i, c) in chars.iter().enumerate() {
        match (c.is_whitespace(), start) {
            (true, Some(st)) => {
                tokens.push((st, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(st) = start {
        tokens.push((st, chars.len()));
    }
    // A lone 同 (with or without a side mark) belongs to the next token.
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let (st, mut end) = tokens[i];
        let body = match chars.get(st) {
            Some(&c) if side_of_mark(c).is_some() => &chars[st + 1..end],
            _ => &chars[st..end],
        };
        if matches!(body, ['同' | '仝']) && i + 1 < tokens.len() {
            i += 1;
            end = tokens[i].1;
        }
        spans.push((st, end));
        i += 1;
    }
    let mut p = pos.clone();
    let mut prev = previous_to;
    let mut moves = Vec::with_capacity(spans.len());
    for (n, &(st, end)) in spans.iter().enumerate() {
        let m = parse_chars(&p, &chars[st..end], st, prev).map_err(|error| LineError {
            number: n + 1,
            error,
        })?;
        p.do_move(m);
        prev = Some(m.to());
        moves.push(m);
    }
    Ok(moves)
}

fn side_of_mark(c: char) -> Option<Color> {
    match c {
        '▲' | '☗' => Some(Color::Black),
        '△' | '☖' | '▽' => Some(Color::White),
        _ => None,
    }
}

/// A file or rank numeral: ASCII, full-width or kanji.
fn numeral(c: char) -> Option<u8> {
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        '１'..='９' => Some((c as u32 - '０' as u32) as u8),
        _ => "一二三四五六七八九"
            .chars()
            .position(|k| k == c)
            .map(|i| i as u8 + 1),
    }
}

fn piece_kind(c: char) -> Option<PieceKind> {
    use PieceKind::*;
    Some(match c {
        '歩' => Pawn,
        '香' => Lance,
        '桂' => Knight,
        '銀' => Silver,
        '金' => Gold,
        '角' => Bishop,
        '飛' => Rook,
        '玉' | '王' => King,
        'と' => ProPawn,
        '杏' => ProLance,
        '圭' => ProKnight,
        '全' => ProSilver,
        '馬' => Horse,
        '龍' | '竜' => Dragon,
        _ => return None,
    })
}

/// A cursor over the characters of one move; `base` is the number of
/// characters before them in the whole input (for columns).
struct Cursor<'a> {
    chars: &'a [char],
    i: usize,
    base: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }
    fn peek2(&self) -> Option<char> {
        self.chars.get(self.i + 1).copied()
    }
    fn column(&self) -> usize {
        self.base + self.i + 1
    }
    fn bump(&mut self) {
        self.i += 1;
    }
    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.i += 1;
        }
    }
}

/// What follows the piece name.
#[derive(Default)]
struct Suffix {
    place: Option<Place>,
    motion: Option<Motion>,
    promote: Option<bool>,
    drop: bool,
    origin: Option<Square>,
    /// Column and character of the first of these, for errors.
    first_mark: Option<(usize, char)>,
    first_board_only: Option<(usize, char)>,
    drop_column: usize,
}

fn parse_chars(
    pos: &Position,
    chars: &[char],
    base: usize,
    previous_to: Option<Square>,
) -> Result<Move, NotationError> {
    let us = pos.side_to_move();
    let mut c = Cursor { chars, i: 0, base };
    c.skip_space();
    let Some(first) = c.peek() else {
        return Err(NotationError::Empty);
    };
    let move_column = c.column();
    if let Some(side) = side_of_mark(first) {
        if side != us {
            return Err(NotationError::WrongSide {
                column: c.column(),
                mark: first,
                to_move: us,
            });
        }
        c.bump();
        c.skip_space();
    }

    // The destination.
    let dest_column = c.column();
    let to = match c.peek() {
        Some('同' | '仝') => {
            c.bump();
            previous_to.ok_or(NotationError::NoPreviousMove {
                column: dest_column,
            })?
        }
        Some(ch) if let Some(file) = numeral(ch) => {
            c.bump();
            let rank_column = c.column();
            let Some(rank) = c.peek().and_then(numeral) else {
                return Err(NotationError::ExpectedRank {
                    column: rank_column,
                    found: c.peek(),
                });
            };
            c.bump();
            let Some(sq) = Square::from_file_rank(file, rank) else {
                return Err(NotationError::ExpectedSquare {
                    column: dest_column,
                    found: Some(ch),
                });
            };
            if let Some('同' | '仝') = c.peek() {
                let column = c.column();
                c.bump();
                match previous_to {
                    None => return Err(NotationError::NoPreviousMove { column }),
                    Some(p) if p != sq => {
                        return Err(NotationError::NotTheSameSquare {
                            column,
                            written: sq,
                            previous: p,
                        });
                    }
                    Some(_) => {}
                }
            }
            sq
        }
        found => {
            return Err(NotationError::ExpectedSquare {
                column: dest_column,
                found,
            });
        }
    };
    c.skip_space();

    // The piece.
    let piece_column = c.column();
    let kind = match c.peek() {
        Some('成') => {
            c.bump();
            let k = match c.peek() {
                Some('香') => PieceKind::ProLance,
                Some('桂') => PieceKind::ProKnight,
                Some('銀') => PieceKind::ProSilver,
                found => {
                    return Err(NotationError::BadPromotedName {
                        column: c.column(),
                        found,
                    });
                }
            };
            c.bump();
            k
        }
        Some(ch) if let Some(k) = piece_kind(ch) => {
            c.bump();
            k
        }
        found => {
            return Err(NotationError::ExpectedPiece {
                column: piece_column,
                found,
            });
        }
    };

    let suffix = parse_suffix(&mut c)?;

    if suffix.drop {
        return drop_move(pos, kind, to, &suffix, move_column);
    }
    let candidates = board_candidates(pos, kind, to);
    if candidates.is_empty() {
        if suffix.first_board_only.is_none() && kind.is_hand_kind() && pos.hand(us).has(kind) {
            return drop_move(pos, kind, to, &suffix, move_column);
        }
        return Err(if kind.is_hand_kind() && pos.hand(us).has(kind) {
            NotationError::NoBoardPiece {
                column: piece_column,
                kind,
                to,
            }
        } else {
            NotationError::NoPiece {
                column: piece_column,
                kind,
                to,
            }
        });
    }
    let mut fitting: Vec<Square> = candidates.clone();
    if let Some(origin) = suffix.origin {
        fitting.retain(|&s| s == origin);
    }
    if let Some(motion) = suffix.motion {
        fitting.retain(|&s| Motion::of(us, s, to) == motion);
    }
    match suffix.place {
        Some(Place::Straight) => fitting.retain(|&s| is_straight(us, s, to)),
        Some(place) => {
            // 左 and 右 compare with the pieces that move the same way when
            // a motion is given, with all of them otherwise.
            let group = fitting.clone();
            fitting.retain(|&s| extreme(us, s, &group) == Some(place));
        }
        None => {}
    }
    let from = match fitting.as_slice() {
        [from] => *from,
        [] => {
            let column = suffix.first_mark.map_or(piece_column, |(column, _)| column);
            return Err(NotationError::NoPieceFits {
                column,
                kind,
                to,
                candidates,
            });
        }
        _ => {
            return Err(NotationError::Ambiguous {
                column: piece_column,
                kind,
                to,
                candidates: fitting,
            });
        }
    };
    let m = Move::new(from, to, suffix.promote.unwrap_or(false));
    pos.is_legal(m).map_err(|reason| NotationError::Illegal {
        column: move_column,
        mv: m,
        reason,
    })?;
    Ok(m)
}

fn parse_suffix(c: &mut Cursor<'_>) -> Result<Suffix, NotationError> {
    let mut s = Suffix::default();
    let repeated = |column, found| NotationError::RepeatedMark { column, found };
    loop {
        let column = c.column();
        let Some(ch) = c.peek() else { break };
        if ch.is_whitespace() {
            c.skip_space();
            match c.peek() {
                None => break,
                Some(found) => {
                    return Err(NotationError::UnexpectedChar {
                        column: c.column(),
                        found,
                    });
                }
            }
        }
        let mut board_only = true;
        match ch {
            '右' | '左' | '直' => {
                if s.place.is_some() {
                    return Err(repeated(column, ch));
                }
                s.place = Some(match ch {
                    '右' => Place::Right,
                    '左' => Place::Left,
                    _ => Place::Straight,
                });
                s.first_mark.get_or_insert((column, ch));
                c.bump();
            }
            '上' | '行' | '引' | '寄' => {
                if s.motion.is_some() {
                    return Err(repeated(column, ch));
                }
                s.motion = Some(match ch {
                    '上' | '行' => Motion::Up,
                    '引' => Motion::Down,
                    _ => Motion::Sideways,
                });
                s.first_mark.get_or_insert((column, ch));
                c.bump();
            }
            '成' | '生' | '不' => {
                if ch == '不' && c.peek2() != Some('成') {
                    return Err(NotationError::UnexpectedChar { column, found: ch });
                }
                if s.promote.is_some() {
                    return Err(repeated(column, ch));
                }
                s.promote = Some(ch == '成');
                c.bump();
                if ch == '不' {
                    c.bump();
                }
            }
            '打' => {
                if s.drop {
                    return Err(repeated(column, ch));
                }
                s.drop = true;
                s.drop_column = column;
                board_only = false;
                c.bump();
            }
            '(' | '（' => {
                if s.origin.is_some() {
                    return Err(repeated(column, ch));
                }
                c.bump();
                let file = c.peek().and_then(numeral);
                c.bump();
                let rank = c.peek().and_then(numeral);
                c.bump();
                let close = matches!(c.peek(), Some(')' | '）'));
                c.bump();
                match (file, rank, close) {
                    (Some(f), Some(r), true) => s.origin = Square::from_file_rank(f, r),
                    _ => return Err(NotationError::BadOrigin { column }),
                }
                s.first_mark.get_or_insert((column, ch));
            }
            found => return Err(NotationError::UnexpectedChar { column, found }),
        }
        if board_only {
            s.first_board_only.get_or_insert((column, ch));
        }
    }
    Ok(s)
}

fn drop_move(
    pos: &Position,
    kind: PieceKind,
    to: Square,
    suffix: &Suffix,
    move_column: usize,
) -> Result<Move, NotationError> {
    if let Some((column, found)) = suffix.first_board_only.filter(|_| suffix.drop) {
        return Err(NotationError::MarkOnDrop { column, found });
    }
    if !kind.is_hand_kind() {
        return Err(NotationError::CannotDrop {
            column: suffix.drop_column,
            kind,
        });
    }
    let m = Move::new_drop(kind, to);
    pos.is_legal(m).map_err(|reason| NotationError::Illegal {
        column: move_column,
        mv: m,
        reason,
    })?;
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::SfenError;
    use std::collections::HashSet;

    /// A position from a list such as `"G6i +R2b k1a"` (upper case Black,
    /// lower case White, `+` for promoted, then the USI square).
    fn board(pieces: &str, side: &str, hands: &str) -> Position {
        try_board(pieces, side, hands).unwrap_or_else(|e| panic!("{pieces}: {e}"))
    }

    fn try_board(pieces: &str, side: &str, hands: &str) -> Result<Position, SfenError> {
        let mut grid: Vec<Vec<Option<String>>> = vec![vec![None; 9]; 9];
        for p in pieces.split_whitespace() {
            let (piece, sq) = p.split_at(p.len() - 2);
            let sq: Square = sq.parse().unwrap();
            grid[sq.rank() as usize - 1][9 - sq.file() as usize] = Some(piece.to_string());
        }
        let ranks: Vec<String> = grid
            .iter()
            .map(|row| {
                let mut s = String::new();
                let mut empty = 0;
                for cell in row {
                    match cell {
                        None => empty += 1,
                        Some(p) => {
                            if empty > 0 {
                                s.push_str(&empty.to_string());
                                empty = 0;
                            }
                            s.push_str(p);
                        }
                    }
                }
                if empty > 0 {
                    s.push_str(&empty.to_string());
                }
                s
            })
            .collect();
        format!("{} {side} {hands} 1", ranks.join("/")).parse()
    }

    /// Writes the USI move `usi`, checks that it reads back, and returns
    /// the string.
    fn w(pos: &Position, usi: &str, prev: Option<&str>) -> String {
        let m = pos.parse_move(usi).unwrap();
        let prev = prev.map(|p| p.parse::<Square>().unwrap());
        let s = japanese(pos, m, prev);
        assert_eq!(parse_japanese(pos, &s, prev), Ok(m), "{s}");
        s
    }

    /// Reads `s` and returns the move in USI.
    fn r(pos: &Position, s: &str, prev: Option<&str>) -> String {
        let prev = prev.map(|p| p.parse::<Square>().unwrap());
        match parse_japanese(pos, s, prev) {
            Ok(m) => m.to_string(),
            Err(e) => panic!("{s}: {e}"),
        }
    }

    fn err(pos: &Position, s: &str, prev: Option<&str>) -> NotationError {
        let prev = prev.map(|p| p.parse::<Square>().unwrap());
        let e = parse_japanese(pos, s, prev).unwrap_err();
        // Every error has a message.
        assert!(!e.to_string().is_empty());
        e
    }

    #[test]
    fn plain_moves_from_the_start() {
        let pos = Position::startpos();
        assert_eq!(w(&pos, "7g7f", None), "▲７六歩");
        assert_eq!(w(&pos, "6i7h", None), "▲７八金");
        assert_eq!(w(&pos, "5i5h", None), "▲５八玉");
        assert_eq!(w(&pos, "2h5h", None), "▲５八飛");
        assert_eq!(w(&pos, "1i1h", None), "▲１八香");
        let pos = pos.after("7g7f".parse().unwrap());
        assert_eq!(w(&pos, "3c3d", None), "△３四歩");
        assert_eq!(w(&pos, "5a4b", None), "△４二玉");
    }

    #[test]
    fn up_sideways_down() {
        // 上 and 寄.
        let pos = board("G5i G4h K9i k1a", "b", "-");
        assert_eq!(w(&pos, "5i5h", None), "▲５八金上");
        assert_eq!(w(&pos, "4h5h", None), "▲５八金寄");
        // 引 too, and 上 when the others are the only ones moving another way.
        let pos = board("G5g G4h G6i K9i k1a", "b", "-");
        assert_eq!(w(&pos, "5g5h", None), "▲５八金引");
        assert_eq!(w(&pos, "4h5h", None), "▲５八金寄");
        assert_eq!(w(&pos, "6i5h", None), "▲５八金上");
        // A move not written twice: the lone gold that can reach needs no mark.
        assert_eq!(w(&pos, "6i7h", None), "▲７八金");
    }

    #[test]
    fn right_left_straight() {
        let pos = board("G6i G4i K9i k1a", "b", "-");
        assert_eq!(w(&pos, "6i5h", None), "▲５八金左");
        assert_eq!(w(&pos, "4i5h", None), "▲５八金右");
        let pos = board("G6i G5i G4i K9i k1a", "b", "-");
        assert_eq!(w(&pos, "6i5h", None), "▲５八金左");
        assert_eq!(w(&pos, "5i5h", None), "▲５八金直");
        assert_eq!(w(&pos, "4i5h", None), "▲５八金右");
        // Promoted minor pieces count as golds for 直, each kind on its own.
        let pos = board("+P6i +P5i +S4i K9i k1a", "b", "-");
        assert_eq!(w(&pos, "6i5h", None), "▲５八と左");
        assert_eq!(w(&pos, "5i5h", None), "▲５八と直");
        assert_eq!(w(&pos, "4i5h", None), "▲５八成銀");
        // The start position: 58金右 and 58金左.
        let pos = Position::startpos();
        assert_eq!(w(&pos, "4i5h", None), "▲５八金右");
        assert_eq!(w(&pos, "6i5h", None), "▲５八金左");
        // Knights and bishops.
        let pos = board("N7i N5i K9i k1a", "b", "-");
        assert_eq!(w(&pos, "7i6g", None), "▲６七桂左");
        assert_eq!(w(&pos, "5i6g", None), "▲６七桂右");
        let pos = board("B7g B3g K9i k5a", "b", "-");
        assert_eq!(w(&pos, "7g5e", None), "▲５五角左");
        assert_eq!(w(&pos, "3g5e", None), "▲５五角右");
    }

    #[test]
    fn white_sees_left_and_right_from_its_side() {
        // File 9 is White's right.
        let pos = board("g6a g4a g5c k9a K1i", "w", "-");
        assert_eq!(w(&pos, "6a5b", None), "△５二金右");
        assert_eq!(w(&pos, "4a5b", None), "△５二金左");
        assert_eq!(w(&pos, "5c5b", None), "△５二金引");
        let pos = board("s6c s4c s6a s5a k9a K1i", "w", "-");
        assert_eq!(w(&pos, "6c5b", None), "△５二銀右引");
        assert_eq!(w(&pos, "4c5b", None), "△５二銀左");
        assert_eq!(w(&pos, "6a5b", None), "△５二銀右上");
        assert_eq!(w(&pos, "5a5b", None), "△５二銀直");
    }

    #[test]
    fn combined_marks() {
        // Four golds around ５八.
        let pos = board("G6i G4i G6h G4h K9i k1a", "b", "-");
        assert_eq!(w(&pos, "6i5h", None), "▲５八金左上");
        assert_eq!(w(&pos, "4i5h", None), "▲５八金右上");
        assert_eq!(w(&pos, "6h5h", None), "▲５八金左寄");
        assert_eq!(w(&pos, "4h5h", None), "▲５八金右寄");
        // Four silvers: the mark is as short as it can be.
        let pos = board("S6g S4g S6i S5i K9i k1a", "b", "-");
        assert_eq!(w(&pos, "6g5h", None), "▲５八銀左引");
        assert_eq!(w(&pos, "4g5h", None), "▲５八銀右");
        assert_eq!(w(&pos, "6i5h", None), "▲５八銀左上");
        assert_eq!(w(&pos, "5i5h", None), "▲５八銀直");
        // Three golds in a row and one beside the square: 上 is not enough,
        // 左 is.
        let pos = board("G6i G5i G4i G4h K9i k1a", "b", "-");
        assert_eq!(w(&pos, "6i5h", None), "▲５八金左");
        assert_eq!(w(&pos, "4i5h", None), "▲５八金右上");
        assert_eq!(w(&pos, "4h5h", None), "▲５八金寄");
        assert_eq!(w(&pos, "5i5h", None), "▲５八金直");
        // Marks and promotion together.
        let pos = board("S6d S4b K9i k1i", "b", "-");
        assert_eq!(w(&pos, "6d5c+", None), "▲５三銀上成");
        assert_eq!(w(&pos, "4b5c", None), "▲５三銀引不成");
    }

    #[test]
    fn dragons_and_horses() {
        // Both move backward: 右 and 左, with no 直 for the one on the file.
        let pos = board("+R1c +R2b K9i k9a", "b", "-");
        assert_eq!(w(&pos, "1c2d", None), "▲２四龍右");
        assert_eq!(w(&pos, "2b2d", None), "▲２四龍左");
        // On the same rank.
        let pos = board("+R9e +R1e K9i k5a", "b", "-");
        assert_eq!(w(&pos, "9e5e", None), "▲５五龍左");
        assert_eq!(w(&pos, "1e5e", None), "▲５五龍右");
        // Motion first.
        let pos = board("+R5i +R2e K9h k9a", "b", "-");
        assert_eq!(w(&pos, "5i5e", None), "▲５五龍上");
        assert_eq!(w(&pos, "2e5e", None), "▲５五龍寄");
        let pos = board("+B9a +B8a K9i k5i", "b", "-");
        assert_eq!(w(&pos, "9a8b", None), "▲８二馬左");
        assert_eq!(w(&pos, "8a8b", None), "▲８二馬右");
        // Bishops and rooks: motion, with promotion.
        let pos = board("B1a B9i K9h k5i", "b", "-");
        assert_eq!(w(&pos, "1a3c+", None), "▲３三角引成");
        assert_eq!(w(&pos, "1a3c", None), "▲３三角引不成");
        assert_eq!(w(&pos, "9i3c+", None), "▲３三角上成");
        let pos = board("R5i R5a K9i k1b", "b", "-");
        assert_eq!(w(&pos, "5i5e", None), "▲５五飛上");
        assert_eq!(w(&pos, "5a5e+", None), "▲５五飛引成");
        assert_eq!(w(&pos, "5a5e", None), "▲５五飛引不成");
        // 竜 and 王 read as 龍 and 玉.
        let pos = board("+R9e +R1e K8i k5a", "b", "-");
        assert_eq!(r(&pos, "５五竜左", None), "9e5e");
        assert_eq!(r(&pos, "☗55竜右", None), "1e5e");
    }

    #[test]
    fn same_square() {
        let pos = Position::startpos();
        let line = "▲２六歩 △８四歩 ▲２五歩 △８五歩 ▲２四歩 △同　歩 ▲同　飛";
        let moves = parse_japanese_line(&pos, line, None).unwrap();
        let usi: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(
            usi,
            ["2g2f", "8c8d", "2f2e", "8d8e", "2e2d", "2c2d", "2h2d"]
        );
        assert_eq!(japanese_line(&pos, &moves, None).unwrap(), line);
        // Every way of writing 同.
        let mut p = pos.clone();
        for &m in &moves[..5] {
            p.do_move(m);
        }
        for s in [
            "△同　歩",
            "同歩",
            "同 歩",
            "同　　歩",
            "△２四同歩",
            "２四歩",
            "△仝歩",
        ] {
            assert_eq!(r(&p, s, Some("2d")), "2c2d", "{s}");
        }
        assert_eq!(w(&p, "2c2d", Some("2d")), "△同　歩");
        // Without a previous move, or with another one.
        assert_eq!(
            err(&p, "同歩", None),
            NotationError::NoPreviousMove { column: 1 }
        );
        assert!(matches!(
            err(&p, "△２四同歩", Some("2e")),
            NotationError::NotTheSameSquare { column: 4, .. }
        ));
        // A line starting after a move: 同 refers to `previous_to`.
        let d: Square = "2d".parse().unwrap();
        let after = parse_japanese_line(&p, "△同　歩 ▲同　飛 △同 飛", Some(d));
        assert!(
            matches!(after, Err(LineError { number: 3, .. })),
            "{after:?}"
        );
        let ok = parse_japanese_line(&p, "△同　歩 ▲同　飛", Some(d)).unwrap();
        assert_eq!(ok.len(), 2);
        // A line with full-width spaces between the moves too.
        let ok = parse_japanese_line(&p, "同　歩　同　飛", Some(d)).unwrap();
        assert_eq!(ok.len(), 2);
    }

    #[test]
    fn promotion() {
        let pos = board("P2d P1b S3c S3e K9i k5a", "b", "-");
        assert_eq!(w(&pos, "2d2c+", None), "▲２三歩成");
        assert_eq!(w(&pos, "2d2c", None), "▲２三歩不成");
        // Must promote: no 不成 to tell apart.
        assert_eq!(w(&pos, "1b1a+", None), "▲１一歩成");
        // Out of the zone.
        assert_eq!(w(&pos, "3c4d+", None), "▲４四銀引成");
        assert_eq!(w(&pos, "3c4d", None), "▲４四銀引不成");
        assert_eq!(w(&pos, "3e4d", None), "▲４四銀上");
        // Cannot promote: nothing written.
        assert_eq!(w(&pos, "3e3d", None), "▲３四銀");
        // 生 for 不成; a missing 成 is a move without promotion.
        assert_eq!(r(&pos, "２三歩生", None), "2d2c");
        assert_eq!(r(&pos, "２三歩", None), "2d2c");
        assert!(matches!(
            err(&pos, "１一歩", None),
            NotationError::Illegal {
                column: 1,
                reason: IllegalMove::MissingPromotion(_),
                ..
            }
        ));
        assert!(matches!(
            err(&pos, "１一歩不成", None),
            NotationError::Illegal { .. }
        ));
        assert!(matches!(
            err(&pos, "▲３四銀成", None),
            NotationError::Illegal {
                reason: IllegalMove::IllegalPromotion,
                ..
            }
        ));
    }

    #[test]
    fn drops() {
        // A silver on the board can reach ５五: the drop needs 打.
        let pos = board("S4f K9i k1a", "b", "S");
        assert_eq!(w(&pos, "4f5e", None), "▲５五銀");
        assert_eq!(w(&pos, "S*5e", None), "▲５五銀打");
        assert_eq!(w(&pos, "S*5d", None), "▲５四銀");
        assert_eq!(r(&pos, "５四銀打", None), "S*5d");
        // A gold in hand, golds on the board.
        let pos = board("G6i G4i K9i k1a", "b", "G");
        assert_eq!(w(&pos, "G*5h", None), "▲５八金打");
        assert_eq!(w(&pos, "6i5h", None), "▲５八金左");
        // A piece of another kind that can reach does not matter.
        let pos = board("G6i K9i k1a", "b", "S");
        assert_eq!(w(&pos, "S*5h", None), "▲５八銀");
        assert_eq!(w(&pos, "6i5h", None), "▲５八金");
        // Drops that are not legal say why.
        let pos = board("P5g K9i k1a", "b", "PS");
        assert!(matches!(
            err(&pos, "５五歩", None),
            NotationError::Illegal {
                reason: IllegalMove::TwoPawns(5),
                ..
            }
        ));
        assert!(matches!(
            err(&pos, "５五馬打", None),
            NotationError::CannotDrop { column: 4, .. }
        ));
        assert!(matches!(
            err(&pos, "５五銀打成", None),
            NotationError::MarkOnDrop { column: 5, .. }
        ));
        assert!(matches!(
            err(&pos, "５五金", None),
            NotationError::NoPiece { column: 3, .. }
        ));
        assert!(matches!(
            err(&pos, "５五銀成", None),
            NotationError::NoBoardPiece { column: 3, .. }
        ));
    }

    #[test]
    fn lenient_reading() {
        let pos = Position::startpos();
        for s in [
            "▲７六歩",
            "７六歩",
            "76歩",
            "7六歩",
            "七六歩",
            "☗７六歩",
            "▲ ７六歩",
            " ７六歩 ",
            "７六歩(77)",
            "７六歩（７７）",
            "76歩直",
            "７六歩上",
        ] {
            assert_eq!(r(&pos, s, None), "7g7f", "{s}");
        }
        assert_eq!(r(&pos, "５八金左上", None), "6i5h");
        assert_eq!(r(&pos, "58金(49)", None), "4i5h");
        assert_eq!(r(&pos, "５八王", None), "5i5h");
        let pos = pos.after("7g7f".parse().unwrap());
        let pos = pos.after("3c3d".parse().unwrap());
        assert_eq!(r(&pos, "２二角成", None), "8h2b+");
        assert_eq!(r(&pos, "２二角行成", None), "8h2b+");
        assert_eq!(r(&pos, "２二角生", None), "8h2b");
        assert_eq!(r(&pos, "２二角不成(88)", None), "8h2b");
        // White's marks.
        let pos = pos.after("8h2b+".parse().unwrap());
        for s in ["△同　銀", "☖同銀", "▽同銀", "△２二銀"] {
            assert_eq!(r(&pos, s, Some("2b")), "3a2b", "{s}");
        }
        // Promoted pieces by their short names.
        let pos = board("+L6i +N4i +S5g K9i k1a", "b", "-");
        assert_eq!(r(&pos, "５八杏", None), "6i5h");
        assert_eq!(r(&pos, "５八成桂", None), "4i5h");
        assert_eq!(r(&pos, "５八全", None), "5g5h");
        assert_eq!(w(&pos, "6i5h", None), "▲５八成香");
    }

    #[test]
    fn errors_name_what_and_where() {
        let pos = Position::startpos();
        assert_eq!(err(&pos, "", None), NotationError::Empty);
        assert_eq!(err(&pos, " \u{3000}", None), NotationError::Empty);
        assert_eq!(
            err(&pos, "△７六歩", None),
            NotationError::WrongSide {
                column: 1,
                mark: '△',
                to_move: Color::Black
            }
        );
        assert_eq!(
            err(&pos, "▲x六歩", None),
            NotationError::ExpectedSquare {
                column: 2,
                found: Some('x')
            }
        );
        assert_eq!(
            err(&pos, "７歩", None),
            NotationError::ExpectedRank {
                column: 2,
                found: Some('歩')
            }
        );
        assert_eq!(
            err(&pos, "７六", None),
            NotationError::ExpectedPiece {
                column: 3,
                found: None
            }
        );
        assert_eq!(
            err(&pos, "７六成金", None),
            NotationError::BadPromotedName {
                column: 4,
                found: Some('金')
            }
        );
        assert_eq!(
            err(&pos, "７六歩x", None),
            NotationError::UnexpectedChar {
                column: 4,
                found: 'x'
            }
        );
        assert_eq!(
            err(&pos, "７六歩 ▲３四歩", None),
            NotationError::UnexpectedChar {
                column: 5,
                found: '▲'
            }
        );
        assert_eq!(
            err(&pos, "５八金右左", None),
            NotationError::RepeatedMark {
                column: 5,
                found: '左'
            }
        );
        assert_eq!(
            err(&pos, "７六歩(7", None),
            NotationError::BadOrigin { column: 4 }
        );
        assert_eq!(
            err(&pos, "７六歩不", None),
            NotationError::UnexpectedChar {
                column: 4,
                found: '不'
            }
        );
        let e = err(&pos, "▲５八金", None);
        assert!(
            matches!(&e, NotationError::Ambiguous { column: 4, candidates, .. } if candidates.len() == 2),
            "{e:?}"
        );
        assert!(e.to_string().contains("６九"), "{e}");
        assert!(matches!(
            err(&pos, "５八金直", None),
            NotationError::NoPieceFits { column: 4, .. }
        ));
        assert!(matches!(
            err(&pos, "５五角", None),
            NotationError::NoPiece { column: 3, .. }
        ));
        assert!(matches!(
            err(&pos, "７六歩成", None),
            NotationError::Illegal { column: 1, .. }
        ));
        // In a line, columns count in the whole line.
        let e = parse_japanese_line(&pos, "▲７六歩 △３四歩 ▲５八金", None).unwrap_err();
        assert_eq!(e.number, 3);
        assert!(
            matches!(e.error, NotationError::Ambiguous { column: 14, .. }),
            "{e:?}"
        );
        let e = parse_japanese_line(&pos, "▲７六歩 ▲３四歩", None).unwrap_err();
        assert_eq!(
            e.error,
            NotationError::WrongSide {
                column: 6,
                mark: '▲',
                to_move: Color::White
            }
        );
        assert!(parse_japanese_line(&pos, "", None).unwrap().is_empty());
        // A promoted kind that no piece can move with (once a panic: the
        // hand was asked about a kind it cannot hold).
        assert!(matches!(
            err(&pos, "六1圭", None),
            NotationError::NoPiece { column: 3, .. }
        ));
    }

    #[test]
    fn writing_moves_that_are_not_legal_does_not_panic() {
        let pos = Position::startpos();
        for usi in ["5e5d", "7g7e", "3c3d", "8h2b+", "P*5e", "1a1b+"] {
            let m: Move = usi.parse().unwrap();
            let s = japanese(&pos, m, None);
            assert!(parse_japanese(&pos, &s, None) != Ok(m) || pos.is_legal(m).is_ok());
        }
        let moves: Vec<Move> = ["7g7f", "7g7f"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        let e = japanese_line(&pos, &moves, None).unwrap_err();
        assert_eq!(e.number, 2);
    }

    /// A tiny xorshift generator, for reproducible random play.
    struct XorShift(u64);

    impl XorShift {
        fn next(&mut self) -> u64 {
            let mut x = self.0;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            self.0 = x;
            x
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// Start positions: the even game and tsume problems from the antma
    /// test set (big hands for drops, two horses, promoted pieces).
    const STARTS: [&str; 5] = [
        "startpos",
        "kb7/p8/9/9/9/9/8B/9/8K b 2R4G4S4N4L17P 1",
        "l6nl/3+R1pk2/3p3gp/p1p3p2/1p1nsN3/2P3P1P/PP1P1S3/1SG2GK2/LN6L b BGPrbs4p 1",
        "4k4/1+B4n+R1/4p1Sp1/2pps1l1g/1p3PR2/2P6/1GNPP+pN2/3S5/1+lBKG4 b GNL4Psl4p 1",
        "+B7l/3k5/pp2P1+B1p/2s3p2/1Ppp2s2/6l1P/Ps1P1+p1+r1/3K1GP2/LN1R4L b 2P2NG3pns2g 1",
    ];

    /// For every legal move of every position of seeded random games:
    /// the written strings are unique and read back to the move, also in
    /// a plainer spelling; whole games read back as lines.
    #[test]
    fn every_legal_move_round_trips() {
        let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
        let mut seen_marks: HashSet<char> = HashSet::new();
        let mut positions = 0;
        for start in STARTS {
            let start: Position = start.parse().unwrap();
            for _game in 0..6 {
                let mut pos = start.clone();
                let mut prev: Option<Square> = None;
                let mut played: Vec<Move> = Vec::new();
                for _ply in 0..120 {
                    let legal = legal_moves(&pos);
                    if legal.is_empty() {
                        break;
                    }
                    positions += 1;
                    let mut written: HashSet<String> = HashSet::new();
                    for &m in legal.iter() {
                        let s = japanese(&pos, m, prev);
                        assert!(!s.contains('('), "origin needed for {m}: {s}\n{pos}");
                        assert_eq!(parse_japanese(&pos, &s, prev), Ok(m), "{s}\n{pos}");
                        assert!(written.insert(s.clone()), "{s} twice\n{pos}");
                        seen_marks.extend(s.chars().filter(|c| "右左直上引寄打同".contains(*c)));
                        // The same without the side mark, in ASCII digits,
                        // with 竜 and 王 and without the space after 同.
                        let plain: String = s
                            .chars()
                            .skip(1)
                            .filter(|&c| c != FULL_WIDTH_SPACE)
                            .map(|c| match c {
                                '１'..='９' => char::from(b'0' + numeral(c).unwrap_or(0)),
                                '龍' => '竜',
                                '玉' => '王',
                                c => c,
                            })
                            .collect();
                        assert_eq!(parse_japanese(&pos, &plain, prev), Ok(m), "{plain}\n{pos}");
                    }
                    let m = legal[rng.below(legal.len())];
                    pos.do_move(m);
                    prev = Some(m.to());
                    played.push(m);
                }
                let line = japanese_line(&start, &played, None).unwrap();
                assert_eq!(parse_japanese_line(&start, &line, None), Ok(played));
            }
        }
        assert!(positions > 2000, "{positions}");
        for mark in "右左上引寄打同".chars() {
            assert!(seen_marks.contains(&mark), "{mark} never written");
        }
    }

    /// Marks in crowded positions: pieces of each kind dropped around a
    /// square, every move to it written uniquely and read back.
    #[test]
    fn crowded_squares_round_trip() {
        let mut rng = XorShift(12345);
        let kinds = ["G", "S", "+P", "+S", "N", "+R", "+B", "B", "R"];
        let mut seen: HashSet<String> = HashSet::new();
        for _ in 0..3000 {
            let kind = kinds[rng.below(kinds.len())];
            let mut pieces = vec!["K9i".to_string(), "k1a".to_string()];
            let mut used: HashSet<String> = ["9i", "1a"].iter().map(|s| s.to_string()).collect();
            let count = 2 + rng.below(3);
            let max = match kind {
                "+R" | "+B" | "B" | "R" => 2,
                _ => 4,
            };
            // Around a centre, so that several pieces reach the same squares.
            let (cf, cr) = (3 + rng.below(5) as i32, 3 + rng.below(5) as i32);
            for _ in 0..count.min(max) {
                let f = (cf + rng.below(5) as i32 - 2) as u8;
                let r = (cr + rng.below(5) as i32 - 2) as u8;
                let Some(sq) = Square::from_file_rank(f, r) else {
                    continue;
                };
                let sq = sq.to_string();
                if used.insert(sq.clone()) {
                    pieces.push(format!("{kind}{sq}"));
                }
            }
            let side = if rng.below(2) == 0 { "b" } else { "w" };
            let list = if side == "w" {
                pieces
                    .iter()
                    .map(|p| {
                        let (k, sq) = p.split_at(p.len() - 2);
                        let k = if k.chars().any(|c| c.is_ascii_uppercase()) {
                            k.to_ascii_lowercase()
                        } else {
                            k.to_ascii_uppercase()
                        };
                        format!("{k}{sq}")
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            } else {
                pieces.join(" ")
            };
            let Ok(pos) = try_board(&list, side, "-") else {
                continue;
            };
            let legal = legal_moves(&pos);
            let mut written: HashSet<String> = HashSet::new();
            for &m in legal.iter() {
                let s = japanese(&pos, m, None);
                assert!(!s.contains('('), "{s}\n{pos}");
                assert_eq!(parse_japanese(&pos, &s, None), Ok(m), "{s}\n{pos}");
                assert!(written.insert(s.clone()), "{s} twice\n{pos}");
                let marks: String = s.chars().filter(|c| "右左直上引寄".contains(*c)).collect();
                if !marks.is_empty() {
                    seen.insert(marks);
                }
            }
        }
        for marks in [
            "右", "左", "直", "上", "引", "寄", "右上", "左上", "右引", "左引",
        ] {
            assert!(seen.contains(marks), "{marks} never written: {seen:?}");
        }
    }

    #[test]
    fn more_pieces_than_a_set_fall_back_to_the_origin() {
        // Three dragons move forward to ５五: the middle one is neither the
        // left nor the right one, and 直 is not used for dragons.
        let pos = Position::from_sfen_relaxed("8k/9/9/9/9/3+R1+R3/9/9/K3+R4 b - 1").unwrap();
        assert_eq!(w(&pos, "6f5e", None), "▲５五龍左");
        assert_eq!(w(&pos, "4f5e", None), "▲５五龍右");
        assert_eq!(w(&pos, "5i5e", None), "▲５五龍(59)");
        assert!(matches!(
            err(&pos, "５五龍上", None),
            NotationError::Ambiguous { column: 3, .. }
        ));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        /// Reading never panics, whatever the input.
        #[test]
        fn reading_never_panics(s in "[▲△☗☖▽同仝 　1-9１-９一二三四五六七八九歩香桂銀金角飛玉王と杏圭全馬龍竜成不生打右左直上行引寄()（）x]{0,12}") {
            let positions = [Position::startpos(), STARTS[2].parse().unwrap()];
            for pos in &positions {
                for prev in [None, Some(Square::new(40))] {
                    let _ = parse_japanese(pos, &s, prev);
                    let _ = parse_japanese_line(pos, &s, prev);
                }
            }
        }

        #[test]
        fn reading_any_string_never_panics(s in "\\PC{0,20}") {
            let pos = Position::startpos();
            let _ = parse_japanese(&pos, &s, None);
            let _ = parse_japanese_line(&pos, &s, Some(Square::new(0)));
        }
    }
}
