//! Answers as records: the fields `tsume solve --format json` and `tsume
//! verify --json` write, in types that the command line serialises and the
//! Python package reads (the attributes and `to_dict()` of its
//! `SolveResult` and `VerifyReport`), so the two cannot drift apart.
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

use crate::core::{Move, Position};
use crate::input;
use crate::record::notation::japanese_line;
use crate::solver::{Limit, Outcome, SolveResult};
use crate::verify::{Finding, FindingKind, GivenSolution, LongerBy, Report, Verdict};

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

/// A verification's report: a line of `tsume verify --json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VerifyRecord {
    /// Where the problem came from: `argument`, the record file, or
    /// `FILE:LINE` (absent when the caller names it otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    pub sfen: String,
    /// `sound`, `flawed`, `no mate` or `unknown` ([`verdict_name`]).
    pub verdict: &'static str,
    /// With a given solution, when the main line is proven: whether it is
    /// the answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution_is_answer: Option<bool>,
    /// Why the given solution is not the answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution_note: Option<String>,
    /// Plies of the main line.
    pub length: usize,
    /// Whether the main line is proven the tsume answer.
    pub exact: bool,
    pub main_line: Vec<String>,
    pub main_line_japanese: String,
    pub findings: Vec<FindingRecord>,
    pub nodes: u64,
    pub millis: u64,
}

/// One finding of a report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FindingRecord {
    /// The finding's name ([`FindingKind::name`]).
    pub kind: &'static str,
    /// Its Japanese name (余詰, 変同, ...).
    pub japanese: &'static str,
    pub minor: bool,
    /// The move number where it happens.
    pub ply: usize,
    /// The moves involved, USI.
    pub moves: Vec<String>,
    /// The same in Japanese notation ([`finding_japanese`]).
    pub moves_japanese: String,
    pub length: Option<u32>,
    pub main_length: Option<u32>,
    pub note: String,
    /// For a departure at a shorter given defence, or a longer side line
    /// by the classical convention: by which rules the longer defence
    /// outlasts the given one ([`LongerBy::name`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub longer_by: Option<&'static str>,
    /// For such a departure: the longer defence leaves the attacker pieces
    /// in hand where the given one uses them up.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub longer_leaves_pieces: bool,
}

/// How a record names a verdict.
pub fn verdict_name(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Sound => "sound",
        Verdict::Flawed => "flawed",
        Verdict::NoMate => "no mate",
        Verdict::Unknown => "unknown",
    }
}

/// A finding's moves in Japanese notation, from the position before the
/// move it names (同 when the first goes where the move before went):
/// along the main line, or along the given `solution` for a departure
/// from it (the line the finding's moves start from).
pub fn finding_japanese(
    pos: &Position,
    solution: Option<&[Move]>,
    report: &Report,
    finding: &Finding,
) -> String {
    let line = match (solution, finding.kind) {
        (Some(given), FindingKind::DepartsFromSolution) => given,
        _ => &report.main_line[..],
    };
    let mut before = pos.clone();
    for &m in line.iter().take(finding.ply.saturating_sub(1)) {
        before.do_move(m);
    }
    // The move before it, for 同 (the same square).
    let previous_to = finding
        .ply
        .checked_sub(2)
        .and_then(|i| line.get(i))
        .map(|m| m.to());
    japanese_line(&before, &finding.moves, previous_to).unwrap_or_default()
}

fn usi(moves: &[Move]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}

impl VerifyRecord {
    /// The report of verifying `pos` (with the given `solution`, if one
    /// was), without an origin.
    pub fn new(pos: &Position, solution: Option<&[Move]>, report: &Report) -> VerifyRecord {
        VerifyRecord {
            origin: None,
            sfen: pos.to_string(),
            verdict: verdict_name(report.verdict),
            solution_is_answer: report
                .solution
                .as_ref()
                .map(|s| *s == GivenSolution::Answer),
            solution_note: match &report.solution {
                Some(GivenSolution::NotAnswer { reason }) => Some(reason.clone()),
                _ => None,
            },
            length: report.main_line.len(),
            exact: report.exact,
            main_line: usi(&report.main_line),
            main_line_japanese: japanese_line(pos, &report.main_line, None).unwrap_or_default(),
            findings: report
                .findings
                .iter()
                .map(|f| FindingRecord {
                    kind: f.kind.name(),
                    japanese: f.japanese(),
                    minor: f.kind.is_minor(),
                    ply: f.ply,
                    moves: usi(&f.moves),
                    moves_japanese: finding_japanese(pos, solution, report, f),
                    length: f.length,
                    main_length: f.main_length,
                    note: f.note.clone(),
                    longer_by: f.longer_by.map(LongerBy::name),
                    longer_leaves_pieces: f.longer_leaves_pieces,
                })
                .collect(),
            nodes: report.nodes,
            millis: u64::try_from(report.elapsed.as_millis()).unwrap_or(u64::MAX),
        }
    }

    /// The record naming where the problem came from.
    pub fn with_origin(mut self, origin: String) -> VerifyRecord {
        self.origin = Some(origin);
        self
    }

    /// The record as one line of JSON (without the end of line).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a record of strings and numbers serialises")
    }
}
