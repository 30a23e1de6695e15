//! The commands a GUI sends to a USI engine, read from one line each.
//!
//! ```
//! use tsume::usi::command::{Command, CommandError, Go, MateTime};
//! let c: Command = "go mate 3000".parse().unwrap();
//! assert_eq!(c, Command::Go(Go::Mate(MateTime::Millis(3000))));
//! assert_eq!(c.to_string(), "go mate 3000");
//!
//! let c: Command = "position startpos moves 7g7f 3c3d".parse().unwrap();
//! let Command::Position(p) = &c else { panic!() };
//! assert_eq!(p.moves.len(), 2);
//!
//! // Errors say what and where (columns count characters from 1).
//! let e = "position startpos moves 7g7f 7g7f".parse::<Command>().unwrap_err();
//! assert!(e.to_string().starts_with("position: move 2 (column 30)"), "{e}");
//! // Commands the engine does not know are told apart, to be ignored.
//! assert!(matches!("debug on".parse::<Command>(), Err(CommandError::Unknown(_))));
//! ```

use std::fmt;
use std::str::FromStr;

use crate::core::{UsiPosition, UsiPositionError};
use crate::input::quote;

/// One command from the GUI.
#[derive(Clone, Debug)]
pub enum Command {
    Usi,
    IsReady,
    /// `setoption name NAME [value VALUE]` (both may hold spaces).
    SetOption {
        name: String,
        value: Option<String>,
    },
    UsiNewGame,
    /// `position startpos|sfen ... [moves ...]`, read and checked.
    Position(Box<UsiPosition>),
    Go(Go),
    Stop,
    PonderHit,
    Quit,
    /// `gameover win|lose|draw`.
    GameOver(String),
}

impl PartialEq for Command {
    /// Positions are equal when their start and moves are.
    fn eq(&self, other: &Command) -> bool {
        use Command::*;
        match (self, other) {
            (Position(a), Position(b)) => a.start == b.start && a.moves == b.moves,
            (SetOption { name: a, value: b }, SetOption { name: c, value: d }) => a == c && b == d,
            (Go(a), Go(b)) => a == b,
            (GameOver(a), GameOver(b)) => a == b,
            (Usi, Usi)
            | (IsReady, IsReady)
            | (UsiNewGame, UsiNewGame)
            | (Stop, Stop)
            | (PonderHit, PonderHit)
            | (Quit, Quit) => true,
            _ => false,
        }
    }
}

/// What a `go` asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Go {
    /// `go mate <ms>|infinite`: a mate search, answered by `checkmate`.
    Mate(MateTime),
    /// Any other `go`: a move, answered by `bestmove`.
    Play(Clock),
}

/// The time of a `go mate`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MateTime {
    Millis(u64),
    Infinite,
}

/// The parameters of a plain `go`: times in milliseconds, `nodes` a node
/// limit, `depth` the longest mate looked for, in plies.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub btime: Option<u64>,
    pub wtime: Option<u64>,
    pub binc: Option<u64>,
    pub winc: Option<u64>,
    pub byoyomi: Option<u64>,
    pub movetime: Option<u64>,
    pub nodes: Option<u64>,
    pub depth: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
}

/// A line that is not a command the engine can take. Columns count
/// characters from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    #[error("empty line")]
    Empty,
    /// Not a USI command (to be ignored, as the protocol says).
    #[error("unknown command `{0}`")]
    Unknown(String),
    #[error("position: {0}")]
    Position(#[from] UsiPositionError),
    #[error("setoption: expected `setoption name NAME [value VALUE]`{}", at(*.column))]
    SetOption { column: Option<usize> },
    /// A `go` that cannot be read. It is still answered
    /// ([`CommandError::answer`]): `checkmate timeout` for `go mate`
    /// (`mate`), else `bestmove resign`.
    #[error("go: {reason}")]
    Go { mate: bool, reason: GoError },
}

/// What is wrong with a `go` command. Columns count characters from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GoError {
    #[error("`{word}` at column {column} is not a go parameter")]
    Parameter { word: String, column: usize },
    #[error("`{word}` needs {} after it (column {column})", unit(word))]
    MissingValue { word: String, column: usize },
    #[error("`{value}` at column {column} is not {}", unit(word))]
    Value {
        word: String,
        value: String,
        column: usize,
    },
    #[error(
        "`{word} {value}` at column {column}: {} cannot be negative",
        unit(word)
    )]
    Negative {
        word: String,
        value: String,
        column: usize,
    },
}

/// What the number after a `go` parameter counts.
fn unit(word: &str) -> &'static str {
    match word {
        "nodes" => "a number of nodes",
        "depth" => "a number of plies",
        _ => "a number of milliseconds",
    }
}

impl CommandError {
    /// The answer a GUI waits for after this line: `Some` for a `go` that
    /// could not be read (every `go` is answered), `None` otherwise.
    pub fn answer(&self) -> Option<&'static str> {
        match self {
            CommandError::Go { mate: true, .. } => Some("checkmate timeout"),
            CommandError::Go { mate: false, .. } => Some("bestmove resign"),
            _ => None,
        }
    }
}

/// The answer a GUI waits for after a line that starts as `text` does
/// when the line cannot be read at all (too long, not UTF-8): `Some` when
/// it is a `go`.
pub fn answer_to_unreadable(text: &str) -> Option<&'static str> {
    let mut words = text.split_whitespace();
    if words.next() != Some("go") {
        return None;
    }
    Some(if words.next() == Some("mate") {
        "checkmate timeout"
    } else {
        "bestmove resign"
    })
}

fn at(column: Option<usize>) -> String {
    column.map_or(String::new(), |c| format!(" (column {c})"))
}

/// The words of a line with their 1-based character columns.
fn words(s: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    for (i, (byte, c)) in s.char_indices().enumerate() {
        if c.is_whitespace() {
            if let Some((column, b)) = start.take() {
                out.push((column, &s[b..byte]));
            }
        } else if start.is_none() {
            start = Some((i + 1, byte));
        }
    }
    if let Some((column, b)) = start {
        out.push((column, &s[b..]));
    }
    out
}

impl FromStr for Command {
    type Err = CommandError;

    fn from_str(s: &str) -> Result<Command, CommandError> {
        let w = words(s);
        let Some(&(_, first)) = w.first() else {
            return Err(CommandError::Empty);
        };
        Ok(match first {
            "usi" => Command::Usi,
            "isready" => Command::IsReady,
            "usinewgame" => Command::UsiNewGame,
            "stop" => Command::Stop,
            "ponderhit" => Command::PonderHit,
            "quit" => Command::Quit,
            "gameover" => Command::GameOver(w.get(1).map_or("", |&(_, r)| r).to_string()),
            "position" => Command::Position(Box::new(s.parse()?)),
            "setoption" => parse_setoption(&w)?,
            "go" => Command::Go(parse_go(&w[1..]).map_err(|reason| CommandError::Go {
                mate: w.get(1).is_some_and(|&(_, x)| x == "mate"),
                reason,
            })?),
            other => return Err(CommandError::Unknown(quote(other))),
        })
    }
}

fn parse_setoption(w: &[(usize, &str)]) -> Result<Command, CommandError> {
    match w.get(1) {
        Some(&(_, "name")) => {}
        other => {
            return Err(CommandError::SetOption {
                column: other.map(|&(c, _)| c),
            });
        }
    }
    let rest = &w[2..];
    let split = rest.iter().position(|&(_, x)| x == "value");
    let (name, value) = match split {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(CommandError::SetOption {
            column: rest.first().map(|&(c, _)| c),
        });
    }
    let join = |ws: &[(usize, &str)]| ws.iter().map(|&(_, x)| x).collect::<Vec<_>>().join(" ");
    Ok(Command::SetOption {
        name: join(name),
        value: value.map(join),
    })
}

/// The number after the parameter `w[i]`.
fn number(w: &[(usize, &str)], i: usize) -> Result<u64, GoError> {
    let &(column, word) = &w[i];
    let Some(&(vcol, value)) = w.get(i + 1) else {
        return Err(GoError::MissingValue {
            word: quote(word),
            column,
        });
    };
    if let Some(neg) = value.strip_prefix('-')
        && !neg.is_empty()
        && neg.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(GoError::Negative {
            word: word.to_string(),
            value: quote(value),
            column,
        });
    }
    value.parse().map_err(|_| GoError::Value {
        word: word.to_string(),
        value: quote(value),
        column: vcol,
    })
}

/// Reads the words after `go`.
fn parse_go(w: &[(usize, &str)]) -> Result<Go, GoError> {
    if let Some(&(column, "mate")) = w.first() {
        let time = match w.get(1) {
            Some(&(_, "infinite")) => MateTime::Infinite,
            Some(_) => MateTime::Millis(number(w, 0)?),
            None => {
                return Err(GoError::MissingValue {
                    word: "mate".to_string(),
                    column,
                });
            }
        };
        if let Some(&(column, word)) = w.get(2) {
            return Err(GoError::Parameter {
                word: quote(word),
                column,
            });
        }
        return Ok(Go::Mate(time));
    }
    let mut clock = Clock::default();
    let mut i = 0;
    while let Some(&(column, word)) = w.get(i) {
        let slot = match word {
            "infinite" => {
                clock.infinite = true;
                i += 1;
                continue;
            }
            "ponder" => {
                clock.ponder = true;
                i += 1;
                continue;
            }
            "btime" => &mut clock.btime,
            "wtime" => &mut clock.wtime,
            "binc" => &mut clock.binc,
            "winc" => &mut clock.winc,
            "byoyomi" => &mut clock.byoyomi,
            "movetime" => &mut clock.movetime,
            "nodes" => &mut clock.nodes,
            "depth" => &mut clock.depth,
            _ => {
                return Err(GoError::Parameter {
                    word: quote(word),
                    column,
                });
            }
        };
        *slot = Some(number(w, i)?);
        i += 2;
    }
    Ok(Go::Play(clock))
}

impl fmt::Display for MateTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MateTime::Millis(ms) => write!(f, "{ms}"),
            MateTime::Infinite => f.write_str("infinite"),
        }
    }
}

impl fmt::Display for Go {
    /// Writes the `go` command back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        let c = match self {
            Go::Mate(t) => return write!(f, " mate {t}"),
            Go::Play(c) => c,
        };
        if c.ponder {
            f.write_str(" ponder")?;
        }
        for (name, v) in [
            ("btime", c.btime),
            ("wtime", c.wtime),
            ("binc", c.binc),
            ("winc", c.winc),
            ("byoyomi", c.byoyomi),
            ("movetime", c.movetime),
            ("nodes", c.nodes),
            ("depth", c.depth),
        ] {
            if let Some(v) = v {
                write!(f, " {name} {v}")?;
            }
        }
        if c.infinite {
            f.write_str(" infinite")?;
        }
        Ok(())
    }
}

impl fmt::Display for Command {
    /// Writes the command as a GUI would send it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Usi => f.write_str("usi"),
            Command::IsReady => f.write_str("isready"),
            Command::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                match value {
                    Some(v) => write!(f, " value {v}"),
                    None => Ok(()),
                }
            }
            Command::UsiNewGame => f.write_str("usinewgame"),
            Command::Position(p) => write!(f, "{p}"),
            Command::Go(go) => write!(f, "{go}"),
            Command::Stop => f.write_str("stop"),
            Command::PonderHit => f.write_str("ponderhit"),
            Command::Quit => f.write_str("quit"),
            Command::GameOver(r) => write!(f, "gameover {r}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(s: &str) -> CommandError {
        s.parse::<Command>().unwrap_err()
    }

    #[test]
    fn commands_round_trip_through_display() {
        for s in [
            "usi",
            "isready",
            "setoption name USI_Hash value 16",
            "setoption name Some Button",
            "usinewgame",
            "position startpos",
            "position startpos moves 7g7f 3c3d",
            "position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1 moves G*5b",
            "go mate 1000",
            "go mate infinite",
            "go ponder btime 1000 wtime 2000 byoyomi 3000",
            "go btime 0 wtime 0 binc 10 winc 20",
            "go movetime 100 nodes 10 depth 3",
            "go infinite",
            "stop",
            "ponderhit",
            "quit",
            "gameover win",
        ] {
            let c: Command = s.parse().unwrap_or_else(|e| panic!("{s}: {e}"));
            assert_eq!(c.to_string(), s);
        }
    }

    #[test]
    fn setoption_names_and_values_may_hold_spaces() {
        let c: Command = "setoption  name Book File value my book.db"
            .parse()
            .unwrap();
        assert_eq!(
            c,
            Command::SetOption {
                name: "Book File".to_string(),
                value: Some("my book.db".to_string())
            }
        );
        assert_eq!(err("setoption"), CommandError::SetOption { column: None });
        assert_eq!(
            err("setoption value 3"),
            CommandError::SetOption { column: Some(11) }
        );
        assert_eq!(
            err("setoption name value 3"),
            CommandError::SetOption { column: Some(16) }
        );
    }

    #[test]
    fn go_errors_name_the_word_and_column_and_say_the_answer() {
        let go = |mate: bool, reason: GoError| CommandError::Go { mate, reason };
        let w = |s: &str| s.to_string();
        assert_eq!(
            err("go mate"),
            go(
                true,
                GoError::MissingValue {
                    word: w("mate"),
                    column: 4
                }
            )
        );
        let e = err("go mate soon");
        assert_eq!(
            e,
            go(
                true,
                GoError::Value {
                    word: w("mate"),
                    value: w("soon"),
                    column: 9
                }
            )
        );
        assert_eq!(e.answer(), Some("checkmate timeout"));
        let e = err("go btime 10 sometime 3");
        assert_eq!(
            e,
            go(
                false,
                GoError::Parameter {
                    word: w("sometime"),
                    column: 13
                }
            )
        );
        assert_eq!(e.answer(), Some("bestmove resign"));
        assert_eq!(
            err("go byoyomi"),
            go(
                false,
                GoError::MissingValue {
                    word: w("byoyomi"),
                    column: 4
                }
            )
        );
        assert_eq!(
            err("go mate 100 200"),
            go(
                true,
                GoError::Parameter {
                    word: w("200"),
                    column: 13
                }
            )
        );
        // Negative numbers are errors, answered as well.
        for (line, mate) in [("go mate -5", true), ("go btime -1 wtime 100", false)] {
            let e = err(line);
            assert!(
                matches!(&e, CommandError::Go { mate: m, reason: GoError::Negative { .. } } if *m == mate),
                "{line}: {e:?}"
            );
            assert!(e.to_string().contains("cannot be negative"), "{e}");
        }
        assert_eq!(
            err("go depth x").to_string(),
            "go: `x` at column 10 is not a number of plies"
        );
        // Errors of other commands wait for no answer.
        assert_eq!(err("setoption").answer(), None);
        // Long words are quoted short.
        let e = err(&format!("go mate {}", "9".repeat(5000)));
        assert!(e.to_string().len() < 200, "{e}");
        assert_eq!(
            answer_to_unreadable("go mate 10"),
            Some("checkmate timeout")
        );
        assert_eq!(answer_to_unreadable(" go nodes"), Some("bestmove resign"));
        assert_eq!(answer_to_unreadable("gomate"), None);
    }

    #[test]
    fn nodes_depth_and_movetime_are_read() {
        let c: Command = "go nodes 5000 depth 3 movetime 100".parse().unwrap();
        assert_eq!(
            c,
            Command::Go(Go::Play(Clock {
                nodes: Some(5000),
                depth: Some(3),
                movetime: Some(100),
                ..Clock::default()
            }))
        );
    }

    #[test]
    fn position_errors_are_the_sfen_and_move_errors() {
        let e = err("position sfen 4k4/9/4P4/9/9/9/9/9/9 x - 1");
        assert!(e.to_string().contains("column"), "{e}");
        assert!(matches!(
            e,
            CommandError::Position(UsiPositionError::Sfen(_))
        ));
        let e = err("position startpos moves 7g7f 8c8x");
        assert!(matches!(
            e,
            CommandError::Position(UsiPositionError::BadMove { index: 2, .. })
        ));
        assert_eq!(err("   "), CommandError::Empty);
        assert_eq!(err("hello"), CommandError::Unknown("hello".to_string()));
    }
}
