//! KI2: KIF's headers and board diagram, with the moves in plain Japanese
//! notation (no origins, no times), several to a line.
//!
//! ```text
//! 手合割：平手
//! 先手：A
//! 後手：B
//!
//! ▲７六歩    △３四歩    ▲２二角成  △同　銀
//! ▲４五角    △５二金右
//! まで6手で後手の勝ち
//! ```
//!
//! The moves need the marks of [`crate::record::notation`] (右, 左, 上, 引,
//! 寄, 直, 打) where two pieces could make them. The closing `まで` line
//! gives the end: 詰み, 中断, 千日手, 持将棋, ..., and `...の勝ち` for a
//! resignation. Comments (`*`) are kept; 変化 branches are not read.
//! [`write()`] writes a record back.
//!
//! ```
//! use tsume::record::{Termination, ki2};
//!
//! let record = ki2::read("▲７六歩 △３四歩 ▲２二角成\n△同　銀\nまで4手で先手の勝ち\n").unwrap();
//! assert_eq!(record.moves[3].to_string(), "3a2b");
//! assert_eq!(record.end, Some(Termination::Resign));
//! let err = ki2::read("▲７六歩 △３四歩\n▲２二飛 △同　銀\n").unwrap_err();
//! assert_eq!(err.line, 2);
//! assert!(err.to_string().contains("move 3"), "{err}");
//! ```

use crate::core::handicap::Handicap;
use crate::core::{Position, Square};
use crate::record::notation::{japanese, parse_japanese_line};

use super::kif::{Preamble, unexpected};
use super::{Reason, Record, RecordError, Termination, notation_column, numbered_lines};

fn is_mark(c: char) -> bool {
    matches!(c, '▲' | '△' | '☗' | '☖' | '▽')
}

/// Reads a KI2 record (text: see [`super::encoding::decode`] for bytes).
pub fn read(text: &str) -> Result<Record, RecordError> {
    super::check_line_lengths(text)?;
    let mut pre = Preamble::default();
    let mut record = Record::new(Position::startpos());
    let mut pos: Option<Position> = None;
    let mut prev: Option<Square> = None;
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
        if let Some(rest) = t.strip_prefix("まで") {
            if pos.is_none() {
                pos = Some(pre.finish(no, &mut record)?);
            }
            record.end = ending(rest);
            continue;
        }
        if t.starts_with(is_mark) {
            let p = match &mut pos {
                Some(p) => p,
                None => pos.insert(pre.finish(no, &mut record)?),
            };
            let done = record.moves.len();
            if record.end.is_some() {
                return Err(RecordError::new(no, None, Reason::MoveAfterEnd(done + 1)));
            }
            let moves = parse_japanese_line(p, line, prev).map_err(|e| {
                RecordError::new(
                    no,
                    notation_column(&e.error),
                    Reason::BadMove {
                        number: done + e.number,
                        text: token(line, e.number),
                        error: e.error,
                    },
                )
            })?;
            for m in moves {
                p.do_move(m);
                prev = Some(m.to());
                record.moves.push(m);
            }
            continue;
        }
        if pre.line(no, line, pos.is_some())? {
            continue;
        }
        return Err(unexpected(
            no,
            line,
            "a header `key：value`, a board diagram, a comment or moves `▲７六歩 △３四歩`",
        ));
    }
    pre.end(any, last, pos.is_none(), record)
}

/// The record in KI2: the header part and board diagram as in KIF, then
/// the moves in Japanese notation six to a line (comments on lines of
/// their own after the move they follow), and the closing `まで` line
/// (`まで9手で詰み`) when the record says how it ended.
pub fn write(record: &Record) -> String {
    /// Moves on a line.
    const PER_LINE: usize = 6;
    let mut s = super::kif::preamble(record);
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
    let mut on_line = 0;
    for (i, &m) in record.moves.iter().enumerate() {
        let text = japanese(&pos, m, prev);
        pos.do_move(m);
        prev = Some(m.to());
        let commented = record.comments.iter().any(|(p, _)| *p == i + 1);
        on_line += 1;
        if on_line == PER_LINE || commented || i + 1 == record.moves.len() {
            s.push_str(&text);
            s.push('\n');
            on_line = 0;
        } else {
            // Columns of ten (a full-width character is two).
            let width: usize = text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum();
            s.push_str(&text);
            s.push_str(&" ".repeat(10usize.saturating_sub(width).max(1)));
        }
        comments(&mut s, i + 1);
    }
    if let Some(end) = record.end {
        let handicap_game = matches!(record.handicap, Some(h) if h != Handicap::Even);
        s.push_str(&super::kif::closing(
            record.moves.len(),
            end,
            &pos,
            handicap_game,
        ));
    }
    s
}

/// The `n`-th move (from 1) of a KI2 line, for error messages.
fn token(line: &str, n: usize) -> String {
    let mut moves: Vec<String> = Vec::new();
    for word in line.split_whitespace() {
        match moves.last_mut() {
            Some(last) if last.trim_start_matches(is_mark) == "同" => last.push_str(word),
            _ => moves.push(word.to_string()),
        }
    }
    moves.get(n.wrapping_sub(1)).cloned().unwrap_or_default()
}

/// The end a `まで64手で後手の勝ち` line gives (the text after まで).
fn ending(rest: &str) -> Option<Termination> {
    let found = [
        ("不詰", Termination::NoMate),
        ("詰", Termination::Mate),
        ("中断", Termination::Abort),
        ("千日手", Termination::Repetition),
        ("持将棋", Termination::Impasse),
        ("切れ負け", Termination::TimeUp),
        ("時間切れ", Termination::TimeUp),
        ("反則勝ち", Termination::IllegalWin),
        ("反則負け", Termination::IllegalLoss),
        ("入玉勝ち", Termination::EnteringKingWin),
        ("引き分け", Termination::Draw),
        ("の勝ち", Termination::Resign),
    ];
    found
        .into_iter()
        .find(|(word, _)| rest.contains(word))
        .map(|(_, t)| t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endings_and_tokens() {
        assert_eq!(ending("3手で詰み"), Some(Termination::Mate));
        assert_eq!(ending("9手で不詰"), Some(Termination::NoMate));
        assert_eq!(ending("64手で後手の勝ち"), Some(Termination::Resign));
        assert_eq!(ending("64手"), None);
        assert_eq!(token("▲７六歩 △同　歩 ▲２二角", 2), "△同歩");
        assert_eq!(token("▲７六歩", 3), "");
    }
}
