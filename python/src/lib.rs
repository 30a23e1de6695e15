//! The extension module `tsume._tsume`: the crate's solver, verifier,
//! puzzle generator and positions for Python (see python/tsume/__init__.pyi
//! for the documented API). Searches run with the GIL released.

use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use tsume::batch::{self, BatchAnswer, BatchError, BatchOptions};
use tsume::core::movegen::{check_moves, evasion_moves, is_checkmate, legal_moves};
use tsume::core::{Color, Move, Position};
use tsume::generate::{Config, Generator, Origin, Puzzle as RustPuzzle};
use tsume::input::{self, LineReader};
use tsume::output::{FindingRecord, SolveRecord, VerifyRecord};
use tsume::record::notation::{japanese, japanese_line};
use tsume::record::{Record, csa, ki2, kif};
use tsume::solver::defence::DefenceChoice;
use tsume::solver::interposition::UselessRule;
use tsume::solver::{Limits, Outcome, Rules, SolveOptions, SolveResult, Solver};
use tsume::verify::{Convention, VerifyOptions};

// ----------------------------------------------------------------------
// Errors: raised as the Python classes of tsume/__init__.py
// ----------------------------------------------------------------------

/// Raises `tsume.<class>(message, column)`.
fn raise(py: Python<'_>, class: &str, message: String, column: Option<usize>) -> PyErr {
    let made = py
        .import("tsume")
        .and_then(|m| m.getattr(class))
        .and_then(|c| c.call1((message.clone(), column)));
    match made {
        Ok(e) => PyErr::from_value(e),
        // The package is not importable (the module used on its own).
        Err(_) => PyValueError::new_err(message),
    }
}

/// How Python callers ask for relaxed reading, named in the hint of a
/// position error that relaxed reading accepts (the CLI says `--relaxed`).
const RELAXED_OPTION: &str = "relaxed=True";

/// A position as the CLI reads a problem: an SFEN, `sfen <SFEN>`,
/// `startpos`, or `position ... moves ...` (the position after the moves);
/// on error, the CLI's message and column (`input::read_problem`).
fn read_position_text(
    text: &str,
    relaxed: bool,
    rest_to_defender: bool,
    defender: bool,
) -> Result<Position, (String, Option<usize>)> {
    let pos = input::read_problem(text, relaxed, RELAXED_OPTION)?;
    Ok(if rest_to_defender {
        let defender = if defender {
            pos.side_to_move()
        } else {
            !pos.side_to_move()
        };
        pos.with_rest_in_hand(defender)
    } else {
        pos
    })
}

/// As [`read_position_text`], a bad position raised as `ParseError`.
fn read_problem(
    py: Python<'_>,
    text: &str,
    relaxed: bool,
    rest_to_defender: bool,
    defender: bool,
) -> PyResult<Position> {
    read_position_text(text, relaxed, rest_to_defender, defender)
        .map_err(|(message, column)| raise(py, "ParseError", message, column))
}

fn useless_rule(py: Python<'_>, name: &str) -> PyResult<UselessRule> {
    input::useless_rule(name).map_err(|message| raise(py, "ParseError", message, None))
}

fn defence_choice(py: Python<'_>, name: &str) -> PyResult<DefenceChoice> {
    input::defence_choice(name).map_err(|message| raise(py, "ParseError", message, None))
}

fn convention(py: Python<'_>, name: &str) -> PyResult<Convention> {
    input::convention(name).map_err(|message| raise(py, "ParseError", message, None))
}

fn seconds(py: Python<'_>, time: Option<f64>) -> PyResult<Option<Duration>> {
    time.map(|t| input::seconds(t, &t.to_string()))
        .transpose()
        .map_err(|message| raise(py, "ParseError", message, None))
}

fn at_least_one(py: Python<'_>, name: &str, value: Option<i64>) -> PyResult<Option<u64>> {
    match value {
        None => Ok(None),
        Some(v) if v < 1 => Err(raise(
            py,
            "ParseError",
            format!("{name}: `{v}` must be at least 1"),
            None,
        )),
        Some(v) => Ok(Some(v as u64)),
    }
}

fn usi(moves: &[Move]) -> Vec<String> {
    moves.iter().map(Move::to_string).collect()
}

// ----------------------------------------------------------------------
// solve, solve_many
// ----------------------------------------------------------------------

/// The answer to one problem: the fields of `tsume solve --format json`,
/// read from the library's record of it (`tsume::output::SolveRecord`,
/// which the CLI writes).
#[pyclass(module = "tsume", name = "SolveResult", frozen)]
#[derive(Clone)]
struct PySolveResult {
    record: SolveRecord,
    /// In Japanese notation (`▲５二金打`), "" without a mate.
    japanese: String,
    /// The problem and its answer, for the records of a GUI; None for a
    /// row that could not be read or asked.
    solved: Option<(Position, SolveResult)>,
}

impl PySolveResult {
    fn new(position: Position, answer: SolveResult) -> PySolveResult {
        let japanese = match &answer.outcome {
            Outcome::Mate { moves } => japanese_line(&position, moves, None).unwrap_or_default(),
            _ => String::new(),
        };
        PySolveResult {
            record: SolveRecord::answer(&position, &answer),
            japanese,
            solved: Some((position, answer)),
        }
    }

    fn unanswered(record: SolveRecord) -> PySolveResult {
        PySolveResult {
            record,
            japanese: String::new(),
            solved: None,
        }
    }

    /// The record of a GUI, or `tsume.Error` for a row without an answer.
    fn game_record(&self, py: Python<'_>) -> PyResult<Record> {
        match &self.solved {
            Some((position, answer)) => Ok(Record::of_answer(position, answer)),
            None => Err(raise(
                py,
                "Error",
                format!(
                    "no answer to write: {}",
                    self.record.error.as_deref().unwrap_or("not solved")
                ),
                None,
            )),
        }
    }
}

#[pymethods]
impl PySolveResult {
    #[getter]
    fn line(&self) -> Option<u64> {
        self.record.line
    }

    #[getter]
    fn sfen(&self) -> &str {
        &self.record.sfen
    }

    #[getter]
    fn result(&self) -> &'static str {
        self.record.result
    }

    #[getter]
    fn length(&self) -> Option<usize> {
        self.record.length
    }

    #[getter]
    fn moves(&self) -> Vec<String> {
        self.record.moves.clone()
    }

    #[getter]
    fn exact(&self) -> Option<bool> {
        self.record.exact
    }

    #[getter]
    fn at_least(&self) -> Option<u32> {
        self.record.at_least
    }

    #[getter]
    fn at_most(&self) -> Option<u32> {
        self.record.at_most
    }

    #[getter]
    fn nodes(&self) -> u64 {
        self.record.nodes
    }

    #[getter]
    fn millis(&self) -> u64 {
        self.record.millis
    }

    #[getter]
    fn limit(&self) -> Option<&'static str> {
        self.record.limit
    }

    #[getter]
    fn error(&self) -> Option<&str> {
        self.record.error.as_deref()
    }

    #[getter]
    fn japanese(&self) -> &str {
        &self.japanese
    }

    /// Whether the side to move is mated (result == "mate").
    #[getter]
    fn is_mate(&self) -> bool {
        self.record.result == "mate"
    }

    /// The JSON record of `tsume solve --format json` as a dict: the
    /// library's record serialised as the CLI serialises it (optional
    /// fields left out when absent).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py.import("json")?
            .call_method1("loads", (self.record.to_json(),))
    }

    /// The answer as a KIF record (UTF-8 text, as `--format kif`).
    fn kif(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "#KIF version=2.0 encoding=UTF-8\n{}",
            kif::write(&self.game_record(py)?)
        ))
    }

    /// The answer as a KI2 record (as `--format ki2`).
    fn ki2(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "#KI2 version=2.0 encoding=UTF-8\n{}",
            ki2::write(&self.game_record(py)?)
        ))
    }

    /// The answer as a CSA record (as `--format csa`).
    fn csa(&self, py: Python<'_>) -> PyResult<String> {
        Ok(csa::write(&self.game_record(py)?))
    }

    fn __repr__(&self) -> String {
        let r = &self.record;
        let line = r.line.map(|l| format!("line={l}, ")).unwrap_or_default();
        match (r.result, &r.error) {
            ("mate", _) => format!(
                "SolveResult({line}sfen={:?}, result='mate', length={}, moves={:?})",
                r.sfen,
                r.length.unwrap_or(0),
                r.moves.join(" ")
            ),
            (_, Some(error)) => format!(
                "SolveResult({line}sfen={:?}, result='error', error={error:?})",
                r.sfen
            ),
            (result, None) => format!("SolveResult({line}sfen={:?}, result={result:?})", r.sfen),
        }
    }
}

/// The threads of one problem's search (1 to 256, as the USI option
/// `Threads`; 1 when not given).
fn threads_of(py: Python<'_>, threads: Option<i64>) -> PyResult<usize> {
    match at_least_one(py, "threads", threads)? {
        Some(t) if t > 256 => Err(raise(
            py,
            "ParseError",
            format!("threads: `{t}` must be at most 256"),
            None,
        )),
        Some(t) => Ok(t as usize),
        None => Ok(1),
    }
}

/// The batch options of a solve call.
#[allow(clippy::too_many_arguments)]
fn asked(
    py: Python<'_>,
    jobs: usize,
    threads: usize,
    time: Option<f64>,
    nodes: Option<i64>,
    hash_mb: Option<i64>,
    useless_rule_name: &str,
    defence: &str,
    first_line: bool,
    defender: bool,
) -> PyResult<BatchOptions> {
    let hash = at_least_one(py, "hash_mb", hash_mb)?;
    Ok(BatchOptions {
        jobs,
        threads,
        hash_mb: hash.map_or_else(
            || batch::default_hash_mb(jobs),
            |mb| usize::try_from(mb).unwrap_or(usize::MAX),
        ),
        hash_fallback: hash.is_none(),
        solve: SolveOptions {
            limits: Limits {
                nodes: at_least_one(py, "nodes", nodes)?,
                time: seconds(py, time)?,
            },
            rules: Rules {
                useless_rule: useless_rule(py, useless_rule_name)?,
                defence: defence_choice(py, defence)?,
            },
            defender_to_move: defender,
            tsume_answer: !first_line,
        },
        watch: None,
        lend_idle_cores: true,
        unstarted_workers: 0,
    })
}

/// Solves positions on `asked.options.jobs` threads with the GIL released;
/// the answers in input order.
fn solve_positions(
    py: Python<'_>,
    positions: Vec<Position>,
    options: &BatchOptions,
) -> PyResult<Vec<PySolveResult>> {
    let inputs: Vec<(usize, Result<Position, ()>)> =
        positions.into_iter().map(Ok).enumerate().collect();
    let mut answers: Vec<Result<PySolveResult, String>> = Vec::with_capacity(inputs.len());
    let run = py.detach(|| {
        batch::solve_all(inputs, options, &AtomicBool::new(false), |i, answer| {
            answers.push(match answer {
                BatchAnswer::Solved { position, result } => {
                    Ok(PySolveResult::new(position, result))
                }
                BatchAnswer::Unaskable { error, .. } => Err(format!("problem {}: {error}", i + 1)),
                BatchAnswer::Unreadable(()) => Err(format!("problem {}: unreadable", i + 1)),
            });
            Ok::<(), std::convert::Infallible>(())
        })
    });
    match run {
        Ok(_) => {}
        Err(e @ BatchError::Table { .. }) => {
            return Err(raise(
                py,
                "Error",
                format!("{e} (try a smaller hash_mb or jobs)"),
                None,
            ));
        }
        Err(e) => return Err(raise(py, "Error", format!("{e}"), None)),
    }
    answers
        .into_iter()
        .map(|a| a.map_err(|message| raise(py, "Error", message, None)))
        .collect()
}

/// solve(sfen, *, time=None, nodes=None, hash_mb=None, threads=None, useless_rule=..., ...)
#[pyfunction]
#[pyo3(signature = (sfen, *, time=None, nodes=None, hash_mb=None, threads=None,
                    useless_rule="within-other-defences", defence="longest",
                    first_line=false, defender=false, relaxed=false,
                    rest_to_defender=false))]
#[allow(clippy::too_many_arguments)]
fn solve(
    py: Python<'_>,
    sfen: &str,
    time: Option<f64>,
    nodes: Option<i64>,
    hash_mb: Option<i64>,
    threads: Option<i64>,
    useless_rule: &str,
    defence: &str,
    first_line: bool,
    defender: bool,
    relaxed: bool,
    rest_to_defender: bool,
) -> PyResult<PySolveResult> {
    let threads = threads_of(py, threads)?;
    let asked = asked(
        py,
        1,
        threads,
        time,
        nodes,
        hash_mb,
        useless_rule,
        defence,
        first_line,
        defender,
    )?;
    let pos = read_problem(py, sfen, relaxed, rest_to_defender, defender)?;
    let mut results = solve_positions(py, vec![pos], &asked)?;
    results
        .pop()
        .ok_or_else(|| raise(py, "Error", "no answer".to_string(), None))
}

/// solve_many(sfens, *, jobs=None, ...): the answers in input order.
#[pyfunction]
#[pyo3(signature = (sfens, *, jobs=None, time=None, nodes=None, hash_mb=None, threads=None,
                    useless_rule="within-other-defences", defence="longest",
                    first_line=false, defender=false, relaxed=false,
                    rest_to_defender=false))]
#[allow(clippy::too_many_arguments)]
fn solve_many(
    py: Python<'_>,
    sfens: &Bound<'_, PyAny>,
    jobs: Option<i64>,
    time: Option<f64>,
    nodes: Option<i64>,
    hash_mb: Option<i64>,
    threads: Option<i64>,
    useless_rule: &str,
    defence: &str,
    first_line: bool,
    defender: bool,
    relaxed: bool,
    rest_to_defender: bool,
) -> PyResult<Vec<PySolveResult>> {
    if sfens.is_instance_of::<pyo3::types::PyString>() {
        return Err(PyTypeError::new_err(
            "solve_many takes a list of SFENs, not one string (use solve)",
        ));
    }
    let threads = threads_of(py, threads)?;
    let jobs = match at_least_one(py, "jobs", jobs)? {
        Some(j) => usize::try_from(j).unwrap_or(usize::MAX).min(1024),
        None => batch::default_jobs_for(threads),
    };
    let mut positions = Vec::new();
    for (i, item) in sfens.try_iter()?.enumerate() {
        let item = item?;
        let text: String = item.extract()?;
        let pos = read_problem(py, &text, relaxed, rest_to_defender, defender).map_err(|e| {
            // Which problem: the message and column stay the CLI's.
            let message = format!("problem {}: {}", i + 1, e.value(py));
            let column = e
                .value(py)
                .getattr("column")
                .ok()
                .and_then(|c| c.extract::<Option<usize>>().ok())
                .flatten();
            raise(py, "ParseError", message, column)
        })?;
        positions.push(pos);
    }
    let jobs = jobs.min(positions.len().max(1));
    let asked = asked(
        py,
        jobs,
        threads,
        time,
        nodes,
        hash_mb,
        useless_rule,
        defence,
        first_line,
        defender,
    )?;
    solve_positions(py, positions, &asked)
}

/// solve_lines(data, *, start_line=1, jobs=None, ...): the rows of a
/// problem file as `tsume solve --file` reads them, bad rows included.
#[pyfunction]
#[pyo3(signature = (data, *, start_line=1, jobs=None, time=None, nodes=None, hash_mb=None,
                    threads=None, useless_rule="within-other-defences", defence="longest",
                    first_line=false, defender=false, relaxed=false,
                    rest_to_defender=false))]
#[allow(clippy::too_many_arguments)]
fn solve_lines(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    start_line: i64,
    jobs: Option<i64>,
    time: Option<f64>,
    nodes: Option<i64>,
    hash_mb: Option<i64>,
    threads: Option<i64>,
    useless_rule: &str,
    defence: &str,
    first_line: bool,
    defender: bool,
    relaxed: bool,
    rest_to_defender: bool,
) -> PyResult<Vec<PySolveResult>> {
    let bytes: Vec<u8> = if let Ok(text) = data.cast::<pyo3::types::PyString>() {
        text.to_str()?.as_bytes().to_vec()
    } else if let Ok(bytes) = data.cast::<pyo3::types::PyBytes>() {
        bytes.as_bytes().to_vec()
    } else {
        return Err(PyTypeError::new_err(
            "solve_lines takes the text of a problem file (str or bytes)",
        ));
    };
    let first = match at_least_one(py, "start_line", Some(start_line))? {
        Some(n) if n <= 1 << 52 => n,
        _ => {
            return Err(raise(
                py,
                "ParseError",
                format!("start_line: `{start_line}` must be at most 2^52"),
                None,
            ));
        }
    };
    // Every row read first, as `tsume solve` reads them: a bad one becomes
    // its error record, in its place.
    let mut rows: Vec<(u64, Result<Position, SolveRecord>)> = Vec::new();
    for line in LineReader::starting_at(&bytes[..], first) {
        let line = line.map_err(|e| raise(py, "ParseError", e.to_string(), None))?;
        let number = line.number;
        let text = match line.text {
            Ok(text) => text,
            Err(e) => {
                let message = format!("line {number}: {}", e.problem_message());
                rows.push((number, Err(SolveRecord::error(e.start(), message))));
                continue;
            }
        };
        let trimmed = text.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let column = input::position_column(&text);
        let read = read_position_text(column, relaxed, rest_to_defender, defender).map_err(
            |(message, _)| SolveRecord::error(column.trim(), format!("line {number}: {message}")),
        );
        rows.push((number, read));
    }
    let threads = threads_of(py, threads)?;
    let jobs = match at_least_one(py, "jobs", jobs)? {
        Some(j) => usize::try_from(j).unwrap_or(usize::MAX).min(1024),
        None => batch::default_jobs_for(threads),
    }
    .min(rows.len().max(1));
    let asked = asked(
        py,
        jobs,
        threads,
        time,
        nodes,
        hash_mb,
        useless_rule,
        defence,
        first_line,
        defender,
    )?;
    let mut answers = Vec::with_capacity(rows.len());
    let run = py.detach(|| {
        batch::solve_all(rows, &asked, &AtomicBool::new(false), |number, answer| {
            answers.push(match answer {
                BatchAnswer::Solved { position, result } => {
                    let mut answer = PySolveResult::new(position, result);
                    answer.record.line = Some(number);
                    answer
                }
                BatchAnswer::Unaskable { position, error } => PySolveResult::unanswered(
                    SolveRecord::error(&position.to_string(), format!("line {number}: {error}"))
                        .at_line(Some(number)),
                ),
                BatchAnswer::Unreadable(record) => {
                    PySolveResult::unanswered(record.at_line(Some(number)))
                }
            });
            Ok::<(), std::convert::Infallible>(())
        })
    });
    match run {
        Ok(_) => Ok(answers),
        Err(e @ BatchError::Table { .. }) => Err(raise(
            py,
            "Error",
            format!("{e} (try a smaller hash_mb or jobs)"),
            None,
        )),
        Err(e) => Err(raise(py, "Error", format!("{e}"), None)),
    }
}

// ----------------------------------------------------------------------
// verify
// ----------------------------------------------------------------------

/// A finding of verify: the fields of `tsume verify --json`'s findings,
/// read from the library's record (`tsume::output::FindingRecord`).
#[pyclass(module = "tsume", name = "Finding", frozen)]
#[derive(Clone)]
struct PyFinding {
    record: FindingRecord,
}

#[pymethods]
impl PyFinding {
    #[getter]
    fn kind(&self) -> &'static str {
        self.record.kind
    }

    #[getter]
    fn japanese(&self) -> &'static str {
        self.record.japanese
    }

    #[getter]
    fn minor(&self) -> bool {
        self.record.minor
    }

    #[getter]
    fn ply(&self) -> usize {
        self.record.ply
    }

    #[getter]
    fn moves(&self) -> Vec<String> {
        self.record.moves.clone()
    }

    #[getter]
    fn moves_japanese(&self) -> &str {
        &self.record.moves_japanese
    }

    #[getter]
    fn length(&self) -> Option<u32> {
        self.record.length
    }

    #[getter]
    fn main_length(&self) -> Option<u32> {
        self.record.main_length
    }

    #[getter]
    fn note(&self) -> &str {
        &self.record.note
    }

    #[getter]
    fn longer_by(&self) -> Option<&'static str> {
        self.record.longer_by
    }

    #[getter]
    fn longer_leaves_pieces(&self) -> bool {
        self.record.longer_leaves_pieces
    }

    fn __repr__(&self) -> String {
        format!(
            "Finding(kind={:?}, ply={}, note={:?})",
            self.record.kind, self.record.ply, self.record.note
        )
    }
}

/// The report of verify: the fields of `tsume verify --json`, read from
/// the library's record (`tsume::output::VerifyRecord`), which the CLI
/// writes.
#[pyclass(module = "tsume", name = "VerifyReport", frozen)]
#[derive(Clone)]
struct PyVerifyReport {
    record: VerifyRecord,
}

#[pymethods]
impl PyVerifyReport {
    #[getter]
    fn sfen(&self) -> &str {
        &self.record.sfen
    }

    #[getter]
    fn verdict(&self) -> &'static str {
        self.record.verdict
    }

    #[getter]
    fn solution_is_answer(&self) -> Option<bool> {
        self.record.solution_is_answer
    }

    #[getter]
    fn solution_note(&self) -> Option<&str> {
        self.record.solution_note.as_deref()
    }

    #[getter]
    fn length(&self) -> usize {
        self.record.length
    }

    #[getter]
    fn exact(&self) -> bool {
        self.record.exact
    }

    #[getter]
    fn main_line(&self) -> Vec<String> {
        self.record.main_line.clone()
    }

    #[getter]
    fn main_line_japanese(&self) -> &str {
        &self.record.main_line_japanese
    }

    #[getter]
    fn findings(&self) -> Vec<PyFinding> {
        self.record
            .findings
            .iter()
            .map(|f| PyFinding { record: f.clone() })
            .collect()
    }

    #[getter]
    fn nodes(&self) -> u64 {
        self.record.nodes
    }

    #[getter]
    fn millis(&self) -> u64 {
        self.record.millis
    }

    /// The JSON record of `tsume verify --json` as a dict (without
    /// `origin`, which names where the CLI read the problem).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py.import("json")?
            .call_method1("loads", (self.record.to_json(),))
    }

    fn __repr__(&self) -> String {
        format!(
            "VerifyReport(sfen={:?}, verdict={:?}, length={}, findings={})",
            self.record.sfen,
            self.record.verdict,
            self.record.length,
            self.record.findings.len()
        )
    }
}

/// verify(sfen, *, solution=None, length=None, ...)
#[pyfunction]
#[pyo3(signature = (sfen, *, solution=None, length=None, nodes=None, time=None,
                    hash_mb=None, threads=None, useless_rule=None,
                    defence="longest", convention="modern", relaxed=false,
                    rest_to_defender=false))]
#[allow(clippy::too_many_arguments)]
fn verify(
    py: Python<'_>,
    sfen: &str,
    solution: Option<&Bound<'_, PyAny>>,
    length: Option<i64>,
    nodes: Option<i64>,
    time: Option<f64>,
    hash_mb: Option<i64>,
    threads: Option<i64>,
    useless_rule: Option<&str>,
    defence: &str,
    convention: &str,
    relaxed: bool,
    rest_to_defender: bool,
) -> PyResult<PyVerifyReport> {
    let pos = read_problem(py, sfen, relaxed, rest_to_defender, false)?;
    let threads = threads_of(py, threads)?;
    let convention = self::convention(py, convention)?;
    let mut options = VerifyOptions {
        time: seconds(py, time)?,
        rules: Rules {
            useless_rule: match useless_rule {
                Some(name) => self::useless_rule(py, name)?,
                None => convention.useless_rule(),
            },
            defence: defence_choice(py, defence)?,
        },
        convention,
        ..VerifyOptions::default()
    };
    if let Some(n) = at_least_one(py, "nodes", nodes)? {
        options.nodes_per_search = n;
    }
    if let Some(len) = length {
        if len < 1 || len % 2 == 0 {
            return Err(raise(
                py,
                "ParseError",
                format!("length: `{len}` must be odd and positive"),
                None,
            ));
        }
        options.length = Some(len as u32);
    }
    if let Some(solution) = solution {
        let words: Vec<String> = match solution.extract::<String>() {
            Ok(text) => text.split_whitespace().map(str::to_string).collect(),
            Err(_) => solution.extract()?,
        };
        let mut p = pos.clone();
        let mut moves = Vec::new();
        for (i, w) in words.iter().enumerate() {
            let m = p.parse_move(w).map_err(|e| {
                raise(
                    py,
                    "ParseError",
                    format!("solution move {} (`{}`): {e}", i + 1, input::quote(w)),
                    None,
                )
            })?;
            p.do_move(m);
            moves.push(m);
        }
        options.solution = Some(moves);
    }
    // As the CLI: without hash_mb the largest table the system gives, up
    // to the default; a hash_mb it refuses is an error.
    let hash = at_least_one(py, "hash_mb", hash_mb)?;
    let report = py.detach(|| {
        let mut solver = match hash {
            None => Solver::new(batch::default_hash_mb(1)),
            Some(mb) => Solver::try_new(usize::try_from(mb).unwrap_or(usize::MAX))
                .map_err(|e| e.to_string())?,
        };
        solver.set_threads(threads);
        tsume::verify::verify(&mut solver, &pos, &options).map_err(|e| e.to_string())
    });
    let report = report.map_err(|message| raise(py, "Error", message, None))?;
    Ok(PyVerifyReport {
        record: VerifyRecord::new(&pos, options.solution.as_deref(), &report),
    })
}

// ----------------------------------------------------------------------
// generate
// ----------------------------------------------------------------------

/// A generated puzzle: the fields of `tsume generate --json`.
#[pyclass(module = "tsume", name = "Puzzle", frozen, get_all)]
#[derive(Clone)]
struct PyPuzzle {
    sfen: String,
    plies: usize,
    solution_usi: Vec<String>,
    solution_japanese: String,
    nodes: u64,
    checks: u32,
    defences: u32,
    score: f64,
    tags: Vec<&'static str>,
    seed: u64,
    index: u64,
}

#[pymethods]
impl PyPuzzle {
    fn __repr__(&self) -> String {
        format!(
            "Puzzle(sfen={:?}, plies={}, solution_usi={:?})",
            self.sfen,
            self.plies,
            self.solution_usi.join(" ")
        )
    }
}

impl PyPuzzle {
    fn new(p: RustPuzzle) -> PyPuzzle {
        let (seed, index) = match p.origin {
            Origin::Generated { seed, index } => (seed, index),
            Origin::Game { .. } => (0, 0),
        };
        PyPuzzle {
            sfen: p.position.to_string(),
            plies: p.plies(),
            solution_usi: usi(&p.moves),
            solution_japanese: p.japanese.clone(),
            nodes: p.difficulty.nodes,
            checks: p.difficulty.checks,
            defences: p.difficulty.defences,
            score: p.difficulty.score,
            tags: p.tags.iter().map(|t| t.name()).collect(),
            seed,
            index,
        }
    }
}

/// The iterator generate() returns: each next() searches for the next
/// puzzle with the GIL released.
#[pyclass(module = "tsume", name = "PuzzleIterator")]
struct PyPuzzleIterator {
    generator: Mutex<Generator>,
    left: Option<u64>,
}

#[pymethods]
impl PyPuzzleIterator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> Option<PyPuzzle> {
        if self.left == Some(0) {
            return None;
        }
        let generator = &self.generator;
        let next = py.detach(|| generator.lock().unwrap_or_else(|e| e.into_inner()).next());
        if let Some(left) = &mut self.left {
            *left -= 1;
        }
        next.map(PyPuzzle::new)
    }

    /// Candidate positions tried so far.
    #[getter]
    fn candidates(&self) -> u64 {
        self.generator
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .candidates()
    }
}

/// generate(plies=3, count=None, seed=1, ...): an iterator of puzzles.
#[pyfunction]
#[pyo3(signature = (plies=3, count=None, *, seed=1, jobs=None, nodes=None,
                    max_candidates=None, defender_holds_rest=true))]
#[allow(clippy::too_many_arguments)]
fn generate(
    py: Python<'_>,
    plies: i64,
    count: Option<i64>,
    seed: u64,
    jobs: Option<i64>,
    nodes: Option<i64>,
    max_candidates: Option<i64>,
    defender_holds_rest: bool,
) -> PyResult<PyPuzzleIterator> {
    let defaults = Config::default();
    let config = Config {
        plies: u32::try_from(plies.max(0)).unwrap_or(u32::MAX),
        seed,
        jobs: match at_least_one(py, "jobs", jobs)? {
            Some(j) => usize::try_from(j).unwrap_or(usize::MAX).min(256),
            None => batch::default_jobs(),
        },
        nodes: at_least_one(py, "nodes", nodes)?.unwrap_or(defaults.nodes),
        max_candidates: at_least_one(py, "max_candidates", max_candidates)?,
        defender_holds_rest,
    };
    if count.is_some_and(|c| c < 0) {
        return Err(raise(
            py,
            "ParseError",
            "count: must be at least 0".to_string(),
            None,
        ));
    }
    let generator =
        Generator::new(config).map_err(|e| raise(py, "ParseError", e.to_string(), None))?;
    Ok(PyPuzzleIterator {
        generator: Mutex::new(generator),
        left: count.map(|c| c as u64),
    })
}

// ----------------------------------------------------------------------
// Position
// ----------------------------------------------------------------------

/// A shogi position: SFEN in and out, moves, checks, evasions, mate.
#[pyclass(module = "tsume", name = "Position")]
#[derive(Clone)]
struct PyPosition {
    pos: Position,
    /// Where the last move went (for 同 in Japanese notation).
    last_to: Option<tsume::core::Square>,
}

impl PyPosition {
    fn parse_move(&self, py: Python<'_>, text: &str) -> PyResult<Move> {
        self.pos
            .parse_move(text.trim())
            .map_err(|e| raise(py, "ParseError", e.to_string(), None))
    }
}

#[pymethods]
impl PyPosition {
    /// Position(sfen="startpos", *, relaxed=False): an SFEN, `sfen <SFEN>`,
    /// `startpos`, or `position ... moves ...` (the position after them).
    #[new]
    #[pyo3(signature = (sfen="startpos", *, relaxed=false))]
    fn new(py: Python<'_>, sfen: &str, relaxed: bool) -> PyResult<PyPosition> {
        let usi = input::read_position(sfen, relaxed).map_err(|e| {
            let (message, column) =
                input::describe_position_error(&e, (!relaxed).then_some(RELAXED_OPTION));
            raise(py, "ParseError", message, column)
        })?;
        Ok(PyPosition {
            last_to: usi.moves.last().map(|m| m.to()),
            pos: usi.end,
        })
    }

    /// The SFEN (with its move number).
    fn sfen(&self) -> String {
        self.pos.to_string()
    }

    fn __str__(&self) -> String {
        self.pos.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Position({:?})", self.pos.to_string())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .extract::<PyRef<'_, PyPosition>>()
            .is_ok_and(|o| o.pos == self.pos)
    }

    fn __hash__(&self) -> u64 {
        self.pos.key()
    }

    fn __copy__(&self) -> PyPosition {
        self.clone()
    }

    fn copy(&self) -> PyPosition {
        self.clone()
    }

    /// "b" (Black, sente) or "w" (White, gote).
    #[getter]
    fn side_to_move(&self) -> &'static str {
        match self.pos.side_to_move() {
            Color::Black => "b",
            Color::White => "w",
        }
    }

    /// The board as text (the CLI's diagram).
    fn diagram(&self) -> String {
        self.pos.diagram()
    }

    /// Every legal move, in USI notation.
    fn legal_moves(&self) -> Vec<String> {
        legal_moves(&self.pos)
            .iter()
            .map(|m| m.to_string())
            .collect()
    }

    /// The legal moves that give check.
    fn checks(&self) -> Vec<String> {
        check_moves(&self.pos)
            .iter()
            .map(|m| m.to_string())
            .collect()
    }

    /// The legal replies to a check (empty when not in check).
    fn evasions(&self) -> Vec<String> {
        if !self.pos.in_check() {
            return Vec::new();
        }
        evasion_moves(&self.pos)
            .iter()
            .map(|m| m.to_string())
            .collect()
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        self.pos.in_check()
    }

    /// Whether the side to move is checkmated.
    fn is_mate(&self) -> bool {
        is_checkmate(&self.pos)
    }

    /// Whether `move` (USI) is legal here.
    fn is_legal(&self, r#move: &str) -> bool {
        r#move
            .trim()
            .parse::<Move>()
            .is_ok_and(|m| self.pos.is_legal(m).is_ok())
    }

    /// Plays a legal move (USI); raises ParseError for a bad or illegal one.
    fn push(&mut self, py: Python<'_>, r#move: &str) -> PyResult<()> {
        let m = self.parse_move(py, r#move)?;
        self.pos.do_move(m);
        self.last_to = Some(m.to());
        Ok(())
    }

    /// The move in Japanese notation (`▲５二金打`, `△同　玉`).
    fn japanese(&self, py: Python<'_>, r#move: &str) -> PyResult<String> {
        let m = self.parse_move(py, r#move)?;
        Ok(japanese(&self.pos, m, self.last_to))
    }

    /// The moves played one after the other, in Japanese notation.
    fn japanese_line(&self, py: Python<'_>, moves: &Bound<'_, PyAny>) -> PyResult<String> {
        let words: Vec<String> = match moves.extract::<String>() {
            Ok(text) => text.split_whitespace().map(str::to_string).collect(),
            Err(_) => moves.extract()?,
        };
        let mut p = self.pos.clone();
        let mut parsed = Vec::new();
        for (i, w) in words.iter().enumerate() {
            let m = p.parse_move(w).map_err(|e| {
                raise(
                    py,
                    "ParseError",
                    format!("move {} of the line: {e}", i + 1),
                    None,
                )
            })?;
            p.do_move(m);
            parsed.push(m);
        }
        japanese_line(&self.pos, &parsed, self.last_to)
            .map_err(|e| raise(py, "ParseError", e.to_string(), None))
    }
}

// ----------------------------------------------------------------------

#[pymodule]
fn _tsume(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(solve_lines, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_class::<PySolveResult>()?;
    m.add_class::<PyVerifyReport>()?;
    m.add_class::<PyFinding>()?;
    m.add_class::<PyPuzzle>()?;
    m.add_class::<PyPuzzleIterator>()?;
    m.add_class::<PyPosition>()?;
    m.add("default_jobs", batch::default_jobs())?;
    Ok(())
}
