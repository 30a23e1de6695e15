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

use crate::core::{Position, UsiPosition, UsiPositionError};

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

/// The parameters of a plain `go`, in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub btime: Option<u64>,
    pub wtime: Option<u64>,
    pub binc: Option<u64>,
    pub winc: Option<u64>,
    pub byoyomi: Option<u64>,
    pub movetime: Option<u64>,
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
    #[error("go: `{word}` at column {column} is not a go parameter")]
    GoParameter { word: String, column: usize },
    #[error("go: `{word}` needs a number of milliseconds after it (column {column})")]
    GoMissingValue { word: String, column: usize },
    #[error("go: `{value}` at column {column} is not a number of milliseconds")]
    GoValue { value: String, column: usize },
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
            "go" => Command::Go(parse_go(&w[1..])?),
            other => return Err(CommandError::Unknown(other.to_string())),
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

fn millis(w: &[(usize, &str)], i: usize) -> Result<u64, CommandError> {
    let &(column, word) = &w[i];
    let Some(&(vcol, value)) = w.get(i + 1) else {
        return Err(CommandError::GoMissingValue {
            word: word.to_string(),
            column,
        });
    };
    // Some GUIs send a negative remaining time when it has run out.
    if let Some(neg) = value.strip_prefix('-')
        && neg.parse::<u64>().is_ok()
    {
        return Ok(0);
    }
    value.parse().map_err(|_| CommandError::GoValue {
        value: value.to_string(),
        column: vcol,
    })
}

/// Reads the words after `go`.
fn parse_go(w: &[(usize, &str)]) -> Result<Go, CommandError> {
    if let Some(&(column, "mate")) = w.first() {
        let time = match w.get(1) {
            Some(&(_, "infinite")) => MateTime::Infinite,
            Some(_) => MateTime::Millis(millis(w, 0)?),
            None => {
                return Err(CommandError::GoMissingValue {
                    word: "mate".to_string(),
                    column,
                });
            }
        };
        if let Some(&(column, word)) = w.get(2) {
            return Err(CommandError::GoParameter {
                word: word.to_string(),
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
            _ => {
                return Err(CommandError::GoParameter {
                    word: word.to_string(),
                    column,
                });
            }
        };
        *slot = Some(millis(w, i)?);
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
            Command::Position(p) => {
                if p.start == Position::startpos() {
                    f.write_str("position startpos")?;
                } else {
                    write!(f, "position sfen {}", p.start)?;
                }
                if !p.moves.is_empty() {
                    f.write_str(" moves")?;
                    for m in &p.moves {
                        write!(f, " {m}")?;
                    }
                }
                Ok(())
            }
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
    fn go_errors_name_the_word_and_column() {
        assert_eq!(
            err("go mate"),
            CommandError::GoMissingValue {
                word: "mate".to_string(),
                column: 4
            }
        );
        assert_eq!(
            err("go mate soon"),
            CommandError::GoValue {
                value: "soon".to_string(),
                column: 9
            }
        );
        assert_eq!(
            err("go btime 10 sometime 3"),
            CommandError::GoParameter {
                word: "sometime".to_string(),
                column: 13
            }
        );
        assert_eq!(
            err("go byoyomi"),
            CommandError::GoMissingValue {
                word: "byoyomi".to_string(),
                column: 4
            }
        );
        assert_eq!(
            err("go mate 100 200"),
            CommandError::GoParameter {
                word: "200".to_string(),
                column: 13
            }
        );
        // A remaining time below zero is read as none left.
        let c: Command = "go btime -5 wtime 100".parse().unwrap();
        assert_eq!(
            c,
            Command::Go(Go::Play(Clock {
                btime: Some(0),
                wtime: Some(100),
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
