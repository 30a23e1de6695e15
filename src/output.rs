//! Answers as records: the fields `tsume solve --format json` writes, in
//! one type that the command line serialises and the Python package reads
//! (its `SolveResult` attributes and `to_dict()`), so the two cannot drift
//! apart.
//!
//! ```
//! use tsume::output::SolveRecord;
//! use tsume::{Position, SolveOptions, Solver};
//!
//! let pos: Position = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1".parse()?;
//! let result = Solver::new(16).solve(&pos, &SolveOptions::default())?;
//! let record = SolveRecord::answer(&pos, &result).at_line(Some(3));
//! assert_eq!(record.result, "mate");
//! assert_eq!(record.moves, ["G*5b"]);
//! assert!(record.to_json().starts_with(r#"{"line":3,"sfen":"4k4/9/4P4/"#));
//!
//! let bad = SolveRecord::error("4k4/9/4x4", "line 4: bad SFEN".to_string()).at_line(Some(4));
//! assert_eq!(bad.to_json(), concat!(
//!     r#"{"line":4,"sfen":"4k4/9/4x4","result":"error","length":null,"moves":[],"#,
//!     r#""nodes":0,"millis":0,"error":"line 4: bad SFEN"}"#));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde::Serialize;

use crate::core::Position;
use crate::input;
use crate::solver::{Limit, Outcome, SolveResult};

/// One problem's answer, or why it has none: a line of `tsume solve
/// --format json`. Optional fields are left out of the JSON when absent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SolveRecord {
    /// The line number in the problem file (absent for a problem given
    /// otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// The record file the problem was read from, as given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    /// The problem as an SFEN; for a problem that cannot be read, its text
    /// as errors quote it ([`input::quote`]).
    pub sfen: String,
    /// `mate`, `nomate`, `unknown` or `error`.
    pub result: &'static str,
    /// The mate's length in plies, for a mate.
    pub length: Option<usize>,
    /// The mating line in USI moves (empty unless a mate).
    pub moves: Vec<String>,
    /// For a mate: whether the line is the proven tsume answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<bool>,
    /// For a mate not proven the answer: the length the answer is proven
    /// to reach, when one is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at_least: Option<u32>,
    /// For a mate not proven the answer: the length the answer is proven
    /// not to exceed, when one is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at_most: Option<u32>,
    pub nodes: u64,
    pub millis: u64,
    /// For `unknown`: the limit reached ([`limit_name`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<&'static str>,
    /// For `error`: what is wrong, naming the problem.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// How a record names the limit a search reached.
pub fn limit_name(limit: Limit) -> &'static str {
    match limit {
        Limit::Nodes => "nodes",
        Limit::Time => "time",
        Limit::Stopped => "stopped",
        Limit::Depth => "depth",
    }
}

impl SolveRecord {
    /// The answer `result` to the problem `pos`.
    pub fn answer(pos: &Position, result: &SolveResult) -> SolveRecord {
        let (name, moves, limit) = match &result.outcome {
            Outcome::Mate { moves } => ("mate", Some(moves), None),
            Outcome::NoMate => ("nomate", None, None),
            Outcome::Unknown(limit) => ("unknown", None, Some(limit_name(*limit))),
        };
        SolveRecord {
            line: None,
            origin: None,
            sfen: pos.to_string(),
            result: name,
            length: moves.map(Vec::len),
            moves: moves
                .map(|m| m.iter().map(ToString::to_string).collect())
                .unwrap_or_default(),
            exact: moves.map(|_| result.exact),
            at_least: moves
                .and(result.at_least)
                .filter(|&least| !result.exact && least > 1),
            at_most: moves
                .and(result.at_most)
                .filter(|&most| !result.exact && most > 0),
            nodes: result.nodes,
            millis: u64::try_from(result.elapsed.as_millis()).unwrap_or(u64::MAX),
            limit,
            error: None,
        }
    }

    /// A problem that could not be read or asked: `text` as given (quoted
    /// as errors quote it), `message` what is wrong.
    pub fn error(text: &str, message: String) -> SolveRecord {
        SolveRecord {
            line: None,
            origin: None,
            sfen: input::quote(text),
            result: "error",
            length: None,
            moves: Vec::new(),
            exact: None,
            at_least: None,
            at_most: None,
            nodes: 0,
            millis: 0,
            limit: None,
            error: Some(message),
        }
    }

    /// The record with its line number in the problem file.
    pub fn at_line(mut self, line: Option<u64>) -> SolveRecord {
        self.line = line;
        self
    }

    /// The record as one line of JSON (without the end of line).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a record of strings and numbers serialises")
    }
}
