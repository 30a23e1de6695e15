//! `tsume solve`: solve mate problems given as arguments, in a file, or on
//! standard input, on `--jobs` worker threads (one solver each, see
//! [`tsume::batch`]), the results written in input order.
//!
//! Problems come from the arguments first, then from the file (or stdin).
//! A problem that cannot be read or asked (a bad SFEN, an illegal move, no
//! king to mate, `--defender` when not in check) is reported in its place
//! with its line number and what is wrong, and the others are still solved;
//! the exit code is then 2. Ctrl-C stops the running searches, which report
//! `unknown (stopped)`; the problems not started are skipped, the summary is
//! printed, and the exit code is 130. A second Ctrl-C exits at once. When
//! stderr is a terminal, progress is drawn there (see [`super::progress`]):
//! for several problems a bar (done/total, rate, ETA), for one the status
//! of its search.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tsume::solver::defence::DefenceChoice;
use tsume::solver::interposition::UselessRule;

use tsume::batch::{self, BatchAnswer, BatchError, Watch};
use tsume::core::Position;
use tsume::input::{self, Argument, Line, LineReader};
use tsume::output::SolveRecord;
use tsume::record::notation::japanese_line;
use tsume::record::{Record, csa, ki2, kif};
use tsume::solver::{Limits, Outcome, Rules, SolveOptions, SolveResult};

use super::record::{is_record_path, read_record, rest_to_defender};
use super::{CliError, progress};

/// Exit code after Ctrl-C (128 + SIGINT, as shells report it).
pub const INTERRUPTED_EXIT: u8 = 130;

/// Solve mate problems (tsume-shogi): does the side to move mate by checks?
///
/// Problems are read from the arguments, then from --file FILE (or from
/// stdin with `-` or `--file -`): one problem per line, the position in the
/// first TAB-separated column; blank lines and lines starting with `#` are
/// skipped. A position is an SFEN, `sfen <SFEN>`, `startpos`, or a USI
/// command `position sfen <SFEN> moves ...` / `position startpos moves ...`
/// (the problem is then the position after the moves).
///
/// Record files: an argument (or --file) ending in .kif, .kifu, .ki2, .ki2u
/// or .csa is a KIF, KI2 or CSA record (UTF-8 or Shift-JIS); the problem is
/// its start position (the board diagram of a mate problem).
/// --rest-to-defender gives the defender every piece that is neither on the
/// board nor in the attacker's hand (for SFENs too).
///
/// Arguments: an argument holding spaces is one problem by itself. Arguments
/// without spaces are taken as the words of problems, a new problem starting
/// where the one before is complete (`[position] [sfen] BOARD SIDE HANDS
/// [NUMBER] [moves MOVE...]`), so an SFEN may also be given unquoted. A lone
/// `-` reads stdin, except right after a side `b`/`w` (it is then the empty
/// hands of an unquoted SFEN).
///
/// Problems are solved in parallel on --jobs threads (default: one per
/// core), each with its own table of at most --hash MB; the results are written in
/// input order, the same whatever --jobs (each problem starts from an empty
/// table). A worker with no problem left lends its core to the searches
/// still running (not with --no-lending or --nodes). When stderr is a terminal a progress bar shows problems done (of
/// the file's total), the rate and the time left; for a single problem, a
/// status line shows the time, nodes, nodes per second, the table's fill,
/// the length of the mating line found and the bounds proven on the
/// answer's length.
///
/// Output per problem: the board, the SFEN, the answer (`mate in N`, `no
/// mate`, `unknown (time limit)`, ...), the mating line in USI and Japanese
/// notation, nodes, time and nodes per second. With --format json (or
/// --json) one JSON object per line instead (fields: line, sfen, result,
/// length, moves, exact, at_least, at_most, nodes, millis, limit, error; see
/// docs/solve.md); with --format kif, ki2 or csa a record a shogi GUI
/// opens (UTF-8); with --format usi a `position sfen ... moves ...` line.
/// A summary goes to stderr at the end: solved, no mate, unknown, errors,
/// nodes, search time, wall time, jobs.
///
/// Ctrl-C stops the running searches, which are reported as `unknown
/// (stopped)`; the problems not started are skipped. A second Ctrl-C exits
/// at once.
///
/// Exit code: 0 when every problem could be read and asked, 2 when some
/// could not (the others are still solved), 130 after Ctrl-C.
///
/// Examples:
///
///   tsume solve "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"
///   tsume solve 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1 --json
///   tsume solve --file problems/misc_small.tsv --time 10
///   tsume solve --file problems/tanuki_generated.tsv --jobs 2 --json > out.jsonl
///   tsume solve problems/kif/3te/1.kif
///   tsume solve "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1" --format kif > answer.kifu
///   tsume solve "4k4/9/4P4/9/9/9/9/9/9 b G 1" --rest-to-defender
///   cut -f1 problems/tsumemi_samples.tsv | tsume solve - --json
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Problems: SFENs (quoted, or as separate words), record files
    /// (.kif .kifu .ki2 .ki2u .csa), or `-` for stdin
    #[arg(value_name = "SFEN")]
    problems: Vec<String>,

    /// Read problems from FILE (`-`: stdin), one per line
    #[arg(long, value_name = "FILE")]
    file: Option<String>,

    /// Most memory for each worker's table in megabytes (the total is
    /// --jobs times this; a table grows to it only as a search needs)
    /// [default: half the memory split among the workers, 64 to 4096 MB
    /// each]
    #[arg(long, value_name = "MB", allow_negative_numbers = true,
          value_parser = super::whole(1, 1 << 20))]
    hash: Option<u64>,

    /// Worker threads solving problems side by side [default: one per core,
    /// divided by --threads]
    #[arg(long, short = 'j', value_name = "J", allow_negative_numbers = true,
          value_parser = super::whole(1, MAX_JOBS))]
    jobs: Option<u64>,

    /// Threads searching each problem together over its worker's table
    /// (--jobs times this in all)
    #[arg(long, value_name = "N", default_value_t = 1, allow_negative_numbers = true,
          value_parser = super::whole(1, MAX_THREADS))]
    threads: u64,

    /// Workers keep their cores to themselves: by default (without
    /// --nodes) one with no problem left, or not started for want of
    /// problems, lends its cores to the searches still running, as helper
    /// threads (the same answers; node counts then vary from run to run)
    #[arg(long)]
    no_lending: bool,

    /// The number of the first line of the file or stdin, for a shard cut
    /// from a bigger file: lines are then reported as in the whole file
    /// (at most 2^52, so that line numbers stay exact in JSON)
    #[arg(long, value_name = "N", default_value_t = 1, allow_negative_numbers = true,
          value_parser = super::whole(1, MAX_START_LINE))]
    start_line: u64,

    /// Stop each search after this many nodes
    #[arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = super::whole(1, u64::MAX))]
    nodes: Option<u64>,

    /// Stop each search after this many seconds (a decimal, e.g. 0.5)
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = super::Checked(parse_seconds))]
    time: Option<Duration>,

    /// How each answer is written: text (the report), json (one object a
    /// line), usi (`position sfen SFEN moves ...`, one line), kif, ki2 or
    /// csa (a record a shogi GUI opens: the board, both hands, the answer's
    /// line, 詰み; several problems give one record after another, CSA's
    /// separated by `/` lines)
    #[arg(long, value_name = "FORMAT", default_value = "text",
          value_parser = super::Checked(parse_format))]
    format: Format,

    /// The same as --format json
    #[arg(long, conflicts_with = "format")]
    json: bool,

    /// Accept positions that break set limits but can be played (two pawns
    /// of a side on a file, more pieces of a kind than a set holds)
    #[arg(long)]
    relaxed: bool,

    /// Ask whether the side to move, which must be in check, is mated
    #[arg(long)]
    defender: bool,

    /// Report the first mate the search proves, without looking for the
    /// shortest one (faster; the line may be much longer than needed)
    #[arg(long)]
    first_line: bool,

    /// Which drops between checker and king are useless (not counted):
    /// within-other-defences (this solver's rule: captured and set aside,
    /// the attacker still mates within the defender's other defences),
    /// piece-unused (the looser rule: it mates as quickly with the piece
    /// set aside as with it in hand), checker-captures (定義1: the checking
    /// piece captures it and, the piece set aside, the attacker mates at
    /// all, within 16 plies), within-or-checker (useless by either of those
    /// two) or none (every interposition counts:
    /// a line ends in checkmate on the board, as in game analysis)
    #[arg(long, value_name = "RULE", default_value_t = UselessRule::WithinOtherDefences,
          value_parser = super::Checked(super::useless_rule))]
    useless_rule: UselessRule,

    /// Which defence the main line follows: longest (today's rule; among
    /// equally long ones, one that leaves the attacker no pieces) or
    /// empty-hand-first (the convention of old collections: the longest
    /// among the defences whose line ends with the attacker's hand empty,
    /// a longer one that leaves pieces in hand being a side line, 変長駒余り)
    #[arg(long, value_name = "CHOICE", default_value_t = DefenceChoice::Longest,
          value_parser = super::Checked(super::defence_choice))]
    defence: DefenceChoice,

    /// Give the defender every piece that is neither on the board nor in
    /// the attacker's hand
    #[arg(long)]
    rest_to_defender: bool,
}

/// The most worker threads.
const MAX_JOBS: u64 = 1024;

/// The most threads per problem accepted (far more than any machine has
/// cores, so a typo is an error rather than a swarm of threads).
pub(super) const MAX_THREADS: u64 = 256;

/// How answers are written (`--format`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Usi,
    Kif,
    Ki2,
    Csa,
}

impl Format {
    const ALL: [(&'static str, Format); 6] = [
        ("text", Format::Text),
        ("json", Format::Json),
        ("usi", Format::Usi),
        ("kif", Format::Kif),
        ("ki2", Format::Ki2),
        ("csa", Format::Csa),
    ];
}

fn parse_format(s: &str) -> Result<Format, String> {
    let t = s.trim().to_ascii_lowercase();
    Format::ALL
        .iter()
        .find(|(name, _)| *name == t)
        .map(|&(_, f)| f)
        .ok_or_else(|| {
            let names: Vec<&str> = Format::ALL.iter().map(|(n, _)| *n).collect();
            format!(
                "unknown format `{}` (expected {})",
                input::quote(s),
                names.join(", ")
            )
        })
}

/// The largest `--start-line`: with the lines of any file after it, line
/// numbers stay below 2^53, exact in JSON (and far from overflowing).
pub const MAX_START_LINE: u64 = 1 << 52;

pub(crate) fn parse_seconds(s: &str) -> Result<Duration, String> {
    let t = s.trim();
    let secs: f64 = t
        .parse()
        .map_err(|_| format!("`{}` is not a number of seconds", input::quote(t)))?;
    input::seconds(secs, t)
}

/// Where a problem came from.
#[derive(Copy, Clone, Debug)]
enum Origin {
    /// The n-th problem of the arguments (from 1).
    Arg(usize),
    /// A line of the file or stdin (from 1).
    Line(usize),
}

impl Origin {
    fn line(self) -> Option<usize> {
        match self {
            Origin::Line(n) => Some(n),
            Origin::Arg(_) => None,
        }
    }

    fn describe(self) -> String {
        match self {
            Origin::Arg(n) => format!("problem {n}"),
            Origin::Line(n) => format!("line {n}"),
        }
    }
}

/// A problem that could not be read or asked.
struct BadProblem {
    origin: Origin,
    /// The text as given (for a parse error) or the SFEN read.
    text: String,
    /// What is wrong, on one line, without the origin.
    message: String,
    /// 1-based character column in `text`, if the error has one.
    column: Option<usize>,
}

/// The bad problems seen, for the closing message.
#[derive(Default)]
struct Bad {
    count: u64,
    /// The first few origins.
    shown: Vec<String>,
}

pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let (mut arg_problems, stdin_from_args) = split_arguments(&args.problems);
    // A record file given with --file is one problem, as an argument is.
    let record_file = args.file.as_deref().filter(|f| is_record_path(f));
    if let Some(f) = record_file {
        arg_problems.push(f.to_string());
    }
    let file = match (&args.file, stdin_from_args) {
        (Some(_), true) => {
            return Err(CliError::Input(
                "give either --file FILE or `-` (stdin), not both".to_string(),
            ));
        }
        (Some(_), false) if record_file.is_some() => None,
        (Some(f), false) => Some(f.as_str()),
        (None, true) => Some("-"),
        (None, false) => None,
    };
    if arg_problems.is_empty() && file.is_none() {
        return Err(CliError::Input(
            "nothing to solve: give an SFEN, --file FILE, or `-` to read stdin".to_string(),
        ));
    }
    let open = |path: &str| {
        File::open(path)
            .map_err(|e| CliError::Input(format!("cannot open the problem file {path}: {e}")))
    };
    // Open the file before solving anything, so that a wrong name fails
    // at once.
    let reader: Option<Box<dyn BufRead + Send>> = match file {
        None => None,
        Some("-") => Some(Box::new(BufReader::new(io::stdin()))),
        Some(path) => Some(Box::new(BufReader::new(open(path)?))),
    };
    let show_progress = io::stderr().is_terminal();
    // The bar's total: known for a file (a first pass counts its problems),
    // not for stdin.
    let total = match file {
        _ if !show_progress => None,
        None => Some(arg_problems.len() as u64),
        Some("-") => None,
        Some(path) => count_problems(open(path)?)
            .ok()
            .map(|n| n + arg_problems.len() as u64),
    };

    // Ctrl-C is caught from here on; the batch stops its searches when it
    // sees `interrupted`.
    let interrupted = Arc::new(AtomicBool::new(false));
    install_interrupt_handler(interrupted.clone());

    let threads = usize::try_from(args.threads).unwrap_or(1);
    let jobs = args.jobs.map_or_else(
        || batch::default_jobs_for(threads),
        |j| usize::try_from(j).unwrap_or(1),
    );
    // No more workers than problems when they are all known; the cores of
    // the others are lent to the searches.
    let workers = if file.is_none() {
        jobs.min(arg_problems.len()).max(1)
    } else {
        jobs
    };
    let mut options = batch::BatchOptions {
        jobs: workers,
        unstarted_workers: jobs - workers,
        hash_mb: args.hash.map_or_else(
            || batch::default_hash_mb(jobs),
            |mb| usize::try_from(mb).unwrap_or(usize::MAX),
        ),
        threads,
        // The default takes what the system gives; a --hash it refuses is
        // an error.
        hash_fallback: args.hash.is_none(),
        lend_idle_cores: !args.no_lending,
        solve: SolveOptions {
            limits: Limits {
                nodes: args.nodes,
                time: args.time,
            },
            rules: Rules {
                useless_rule: args.useless_rule,
                defence: args.defence,
            },
            defender_to_move: args.defender,
            tsume_answer: !args.first_line,
        },
        watch: None,
    };
    // Set when the output fails, so that the input stops waiting for lines.
    let give_up = AtomicBool::new(false);
    let read_error = Mutex::new(None);
    let inputs = Inputs {
        args: arg_problems.iter(),
        arg_number: 0,
        // Lines are read on a thread of their own, so that Ctrl-C is seen
        // also while waiting for the next line of stdin.
        lines: reader.map(|r| read_lines(r, args.start_line)),
        line_number: args.start_line - 1,
        reading: Reading {
            relaxed: args.relaxed,
            rest_to_defender: args.rest_to_defender,
            defender_to_move: args.defender,
        },
        file: file.unwrap_or("-"),
        interrupted: &interrupted,
        give_up: &give_up,
        read_error: &read_error,
    };
    let mut bad = Bad::default();
    // One problem: a status line of its search; several: a bar of those
    // done.
    let single = file.is_none() && arg_problems.len() == 1;
    let search_line = (single && show_progress).then(|| {
        let watch = Arc::new(Watch::default());
        options.watch = Some(watch.clone());
        progress::SearchLine::start(watch)
    });
    let bar = if single {
        progress::Counter::hidden()
    } else {
        progress::Counter::new(total)
    };
    // With text results on a terminal the bar is taken off before each one.
    let format = if args.json { Format::Json } else { args.format };
    let text_on_terminal = format != Format::Json && io::stdout().is_terminal();
    let json = format == Format::Json;
    let mut writer = Writer {
        format,
        records: 0,
        bad: &mut bad,
    };
    let summary = batch::solve_all(inputs, &options, &interrupted, |origin, answer| {
        if let Some(line) = &search_line {
            line.clear();
        }
        // A record file's results say which file they are for.
        let record = match origin {
            Origin::Arg(n) => arg_problems
                .get(n - 1)
                .map(String::as_str)
                .filter(|t| is_record_path(t)),
            Origin::Line(_) => None,
        };
        let written = if text_on_terminal || !json && !matches!(answer, BatchAnswer::Solved { .. })
        {
            bar.suspend(|| writer.report(out, origin, record, answer))
        } else {
            writer.report(out, origin, record, answer)
        };
        if written.is_err() {
            give_up.store(true, Ordering::SeqCst);
        }
        written?;
        bar.inc();
        Ok::<(), CliError>(())
    });
    if let Some(line) = &search_line {
        line.clear();
    }
    bar.clear();
    let summary = match summary {
        Ok(summary) => summary,
        Err(BatchError::Callback(e)) => return Err(e),
        Err(e @ BatchError::Threads { .. }) => {
            return Err(CliError::Input(format!("{e} (try a smaller --jobs)")));
        }
        Err(e @ BatchError::Table { .. }) => {
            return Err(CliError::Input(format!(
                "{e} (try a smaller --hash or --jobs)"
            )));
        }
    };

    let was_interrupted = interrupted.load(Ordering::SeqCst);
    let read_error = read_error.into_inner().unwrap_or_else(|e| e.into_inner());
    let problems = arg_problems.len() > 1 || file.is_some();
    if problems || was_interrupted || read_error.is_some() {
        let mut line = format!("summary: {summary}");
        if was_interrupted {
            line.push_str(", interrupted: the remaining problems were not solved");
        }
        let _ = writeln!(io::stderr(), "{line}");
    }
    if let Some(e) = read_error {
        return Err(CliError::Input(e));
    }
    if was_interrupted {
        return Err(CliError::Interrupted);
    }
    if bad.count > 0 {
        let mut which = bad.shown.join(", ");
        if bad.count > bad.shown.len() as u64 {
            which.push_str(&format!(" and {} more", bad.count - bad.shown.len() as u64));
        }
        return Err(CliError::Input(format!(
            "{} of {} problems could not be read or asked: {which}",
            bad.count,
            summary.done()
        )));
    }
    Ok(())
}

/// Writes the answers in the format asked for.
struct Writer<'a> {
    format: Format,
    /// Records written so far (kif, ki2, csa: separated from the one
    /// before).
    records: u64,
    bad: &'a mut Bad,
}

impl Writer<'_> {
    /// Writes one problem's answer on `out`: the text report, a JSON
    /// record, a USI position line or a game record (a bad problem is
    /// reported on stderr, except in JSON, where it is a record of its
    /// own).
    fn report(
        &mut self,
        out: &mut dyn Write,
        origin: Origin,
        record: Option<&str>,
        answer: BatchAnswer<BadProblem>,
    ) -> Result<(), CliError> {
        let problem = match answer {
            BatchAnswer::Solved { position, result } => {
                self.solved(out, origin, record, &position, &result)?;
                None
            }
            BatchAnswer::Unreadable(problem) => Some(problem),
            BatchAnswer::Unaskable { position, error } => Some(BadProblem {
                origin,
                text: position.to_string(),
                message: error.to_string(),
                column: None,
            }),
        };
        if let Some(problem) = problem {
            const SHOWN: usize = 10;
            self.bad.count += 1;
            if self.bad.shown.len() < SHOWN {
                self.bad.shown.push(problem.origin.describe());
            }
            if self.format == Format::Json {
                let mut r = json_error(&problem);
                r.origin = record.map(str::to_string);
                write_json(out, &r)?;
            } else {
                report_error(&problem);
            }
        }
        // Results appear as they come, also through a pipe.
        out.flush()?;
        Ok(())
    }

    fn solved(
        &mut self,
        out: &mut dyn Write,
        origin: Origin,
        record: Option<&str>,
        position: &Position,
        result: &SolveResult,
    ) -> Result<(), CliError> {
        let game = || Record::of_answer(position, result);
        let text = match self.format {
            Format::Json => {
                let mut r = json_result(origin, position, result);
                r.origin = record.map(str::to_string);
                return write_json(out, &r);
            }
            Format::Text => {
                write_report(out, origin, record, position, result)?;
                return Ok(());
            }
            Format::Usi => {
                let mut line = format!("position sfen {position}");
                if let Outcome::Mate { moves } = &result.outcome {
                    line.push_str(" moves");
                    for m in moves {
                        line.push_str(&format!(" {m}"));
                    }
                }
                writeln!(out, "{line}")?;
                return Ok(());
            }
            // UTF-8, which the first line says (the `.kifu` convention).
            Format::Kif => format!("#KIF version=2.0 encoding=UTF-8\n{}", kif::write(&game())),
            Format::Ki2 => format!("#KI2 version=2.0 encoding=UTF-8\n{}", ki2::write(&game())),
            Format::Csa => csa::write(&game()),
        };
        if self.records > 0 {
            // CSA's separator of records in a file; a blank line for KIF.
            out.write_all(if self.format == Format::Csa {
                b"/\n"
            } else {
                b"\n"
            })?;
        }
        out.write_all(text.as_bytes())?;
        self.records += 1;
        Ok(())
    }
}

/// The number of problem lines in `file` (neither blank nor a comment;
/// lines that cannot be read count, as they are reported).
pub fn count_problems(file: File) -> io::Result<u64> {
    let mut n = 0;
    for line in LineReader::new(BufReader::new(file)) {
        let counts = match &line?.text {
            Ok(text) => {
                let t = text.trim();
                !t.is_empty() && !t.starts_with('#')
            }
            Err(_) => true,
        };
        n += u64::from(counts);
    }
    Ok(n)
}

/// The problems to solve: the arguments, then the lines of the file or
/// stdin, each read into a position (or the reason it cannot be).
struct Inputs<'a> {
    args: std::slice::Iter<'a, String>,
    arg_number: usize,
    lines: Option<Receiver<io::Result<Line>>>,
    /// The number of the last line read.
    line_number: u64,
    reading: Reading,
    /// The file's name, for a read error.
    file: &'a str,
    interrupted: &'a AtomicBool,
    give_up: &'a AtomicBool,
    read_error: &'a Mutex<Option<String>>,
}

impl Iterator for Inputs<'_> {
    type Item = (Origin, Result<Position, BadProblem>);

    fn next(&mut self) -> Option<Self::Item> {
        let stopped =
            || self.interrupted.load(Ordering::SeqCst) || self.give_up.load(Ordering::SeqCst);
        if let Some(text) = self.args.next() {
            self.arg_number += 1;
            let origin = Origin::Arg(self.arg_number);
            return Some((origin, read(origin, text, self.reading)));
        }
        loop {
            let line = match self.lines.as_ref()?.recv_timeout(Duration::from_millis(20)) {
                Ok(Ok(line)) => line,
                Ok(Err(e)) => {
                    let message = if e.kind() == io::ErrorKind::InvalidData {
                        // It names the line.
                        format!("cannot read the problem file {}: {e}", self.file)
                    } else {
                        format!(
                            "cannot read the problem file {} after line {}: {e}",
                            self.file, self.line_number
                        )
                    };
                    *self.read_error.lock().unwrap_or_else(|e| e.into_inner()) = Some(message);
                    return None;
                }
                Err(RecvTimeoutError::Timeout) if !stopped() => continue,
                Err(_) => return None,
            };
            if stopped() {
                return None;
            }
            self.line_number = line.number;
            let origin = Origin::Line(usize::try_from(line.number).unwrap_or(usize::MAX));
            let text = match line.text {
                Ok(text) => text,
                Err(e) => {
                    let bad = BadProblem {
                        origin,
                        text: e.start().to_string(),
                        message: e.problem_message(),
                        column: None,
                    };
                    return Some((origin, Err(bad)));
                }
            };
            let trimmed = text.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            return Some((
                origin,
                read(origin, input::position_column(&text), self.reading),
            ));
        }
    }
}

/// How problems are read.
#[derive(Clone, Copy)]
struct Reading {
    relaxed: bool,
    rest_to_defender: bool,
    /// Whether the side to move is the defender (`--defender`), for
    /// `rest_to_defender`.
    defender_to_move: bool,
}

/// Reads one problem's text: a position, or a record file.
fn read(origin: Origin, text: &str, reading: Reading) -> Result<Position, BadProblem> {
    let read = if is_record_path(text) {
        read_record(text)
            .map(|record| record.start)
            .map_err(|message| (message, None))
    } else {
        read_problem(text, reading.relaxed).map_err(|(message, column)| {
            match (origin, super::file_hint(text)) {
                (Origin::Arg(_), Some(hint)) => (hint, None),
                _ => (message, column),
            }
        })
    };
    let pos = read.map_err(|(message, column)| BadProblem {
        origin,
        text: text.trim().to_string(),
        message,
        column,
    })?;
    Ok(if reading.rest_to_defender {
        rest_to_defender(pos, reading.defender_to_move)
    } else {
        pos
    })
}

/// The lines of `reader`, read ahead on a thread in bounded memory (see
/// [`LineReader`]), numbered from `first`; a read error ends them.
fn read_lines(reader: Box<dyn BufRead + Send>, first: u64) -> Receiver<io::Result<Line>> {
    let (send, receive) = sync_channel(256);
    std::thread::spawn(move || {
        for item in LineReader::starting_at(reader, first) {
            if send.send(item).is_err() {
                return;
            }
        }
    });
    receive
}

/// Ctrl-C sets `interrupted`: the batch then stops the running searches,
/// which report `unknown (stopped)`, and starts no other problem. A second
/// Ctrl-C exits at once.
fn install_interrupt_handler(interrupted: Arc<AtomicBool>) {
    let result = ctrlc::set_handler(move || {
        if interrupted.swap(true, Ordering::SeqCst) {
            let _ = writeln!(io::stderr(), "interrupted again: exiting");
            std::process::exit(i32::from(INTERRUPTED_EXIT));
        }
        // Over the progress bar, if there is one.
        let clear = if io::stderr().is_terminal() {
            "\r\x1b[2K"
        } else {
            ""
        };
        let _ = writeln!(
            io::stderr(),
            "{clear}interrupted: stopping (Ctrl-C again to exit at once)"
        );
    });
    if let Err(e) = result {
        let _ = writeln!(
            io::stderr(),
            "note: cannot catch Ctrl-C ({e}); it will end the program without a report"
        );
    }
}

// ----------------------------------------------------------------------
// Reading problems
// ----------------------------------------------------------------------

/// Splits the arguments into problem texts (record file names among them),
/// and tells whether a lone `-` asked for stdin (see
/// [`input::group_arguments`]).
fn split_arguments(args: &[String]) -> (Vec<String>, bool) {
    let mut problems = Vec::new();
    let mut stdin = false;
    for argument in input::group_arguments(args) {
        match argument {
            Argument::Problem(text) | Argument::RecordFile(text) => problems.push(text),
            Argument::Stdin => stdin = true,
        }
    }
    (problems, stdin)
}

/// Reads a problem: `[position] startpos|[sfen] <SFEN> [moves ...]`, the
/// position after the moves. On error: the message and the column.
fn read_problem(text: &str, relaxed: bool) -> Result<Position, (String, Option<usize>)> {
    input::read_problem(text, relaxed, "--relaxed")
}

// ----------------------------------------------------------------------
// Writing results
// ----------------------------------------------------------------------

fn json_result(origin: Origin, pos: &Position, result: &SolveResult) -> SolveRecord {
    SolveRecord::answer(pos, result).at_line(origin.line().map(|l| l as u64))
}

fn json_error(bad: &BadProblem) -> SolveRecord {
    SolveRecord::error(
        &bad.text,
        format!("{}: {}", bad.origin.describe(), bad.message),
    )
    .at_line(bad.origin.line().map(|l| l as u64))
}

fn write_json(out: &mut dyn Write, record: &SolveRecord) -> Result<(), CliError> {
    writeln!(out, "{}", record.to_json())?;
    Ok(())
}

/// The text report of a problem solved; its header names the record file
/// it came from (`record`), else its place among the arguments or lines.
fn write_report(
    out: &mut dyn Write,
    origin: Origin,
    record: Option<&str>,
    pos: &Position,
    result: &SolveResult,
) -> io::Result<()> {
    match record {
        Some(path) => writeln!(out, "== {} ==", input::quote(path))?,
        None => writeln!(out, "== {} ==", origin.describe())?,
    }
    write!(out, "{}", pos.diagram())?;
    writeln!(out, "sfen {pos}")?;
    match &result.outcome {
        Outcome::Mate { moves } => {
            match result.answer_bounds() {
                _ if result.exact => writeln!(out, "mate in {}", moves.len())?,
                Some(bounds) if result.at_least.is_some_and(|least| least > 1) => writeln!(
                    out,
                    "mate (a line of {} plies; not proven the tsume answer, which is proven to be {bounds})",
                    moves.len(),
                )?,
                Some(bounds) => writeln!(
                    out,
                    "mate (the first proof's line, {} plies; not proven the tsume answer, which is proven to be {bounds})",
                    moves.len(),
                )?,
                None => writeln!(
                    out,
                    "mate (the first proof's line, {} plies; not proven the tsume answer, whose length may differ)",
                    moves.len()
                )?,
            }
            let usi: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
            writeln!(out, "usi {}", usi.join(" "))?;
            match japanese_line(pos, moves, None) {
                Ok(line) => writeln!(out, "japanese {line}")?,
                Err(e) => writeln!(out, "japanese (cannot be written: {e})")?,
            }
        }
        Outcome::NoMate => writeln!(out, "no mate")?,
        Outcome::Unknown(limit) => writeln!(out, "unknown ({limit})")?,
    }
    writeln!(out, "nodes {}", result.nodes)?;
    let secs = result.elapsed.as_secs_f64();
    writeln!(out, "time {secs:.3} s")?;
    if secs > 0.0 {
        writeln!(out, "nps {:.0}", result.nodes as f64 / secs)?;
    } else {
        writeln!(out, "nps -")?;
    }
    writeln!(out)
}

/// The text report of a bad problem, on stderr: what is wrong, and the
/// input (at most 80 characters of it, around the column) with a caret
/// under the column when there is one.
fn report_error(bad: &BadProblem) {
    let mut msg = format!("error: {}: {}", bad.origin.describe(), bad.message);
    if !bad.text.is_empty() {
        msg.push_str(&super::show_text(&bad.text, bad.column));
    }
    let _ = writeln!(io::stderr(), "{msg}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_read_with_columns() {
        let pos = read_problem(
            "position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1 moves G*5b",
            false,
        )
        .unwrap();
        assert_eq!(
            pos.to_string(),
            "4k4/4G4/4P4/9/9/9/9/9/9 w 2r2b3g4s4n4l17p 2"
        );
        let (msg, column) =
            read_problem("position sfen 4k4/9/4x4/9/9/9/9/9/9 b G 1", false).unwrap_err();
        assert_eq!(column, Some(22), "{msg}");
        assert!(msg.contains("column 22"), "{msg}");
        let (msg, column) = read_problem(
            "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1 moves G*5b 5a5b",
            false,
        )
        .unwrap_err();
        assert_eq!(column, Some(55), "{msg}");
        assert!(msg.starts_with("move 2 (column 55)"), "{msg}");
        let nifu = "4k4/9/9/9/9/9/2P6/2P6/9 b G 1";
        let (msg, _) = read_problem(nifu, false).unwrap_err();
        assert!(msg.contains("--relaxed"), "{msg}");
        assert!(read_problem(nifu, true).is_ok());
        assert!(read_problem("  ", false).is_err());
    }
}
