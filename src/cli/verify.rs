//! `tsume verify`: is a composed problem sound?

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Write};
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use tsume::solver::defence::DefenceChoice;
use tsume::solver::interposition::UselessRule;

use serde::Serialize;
use tsume::batch::{self, BatchError};
use tsume::core::{Move, Position};
use tsume::input::{Line, LineReader, ProblemLine};
use tsume::output::{VerifyRecord, finding_japanese, verdict_name};
use tsume::record::notation::japanese_line;
use tsume::solver::{Rules, Solver};
use tsume::verify::{
    Convention, FindingKind, GivenSolution, Report, Verdict, VerifyOptions, verify,
};

use super::record::{is_record_path, read_record, rest_to_defender};
use super::{CliError, progress, read_position};

/// Checks composed problems: unique solution, no shorter mate, no pieces
/// left, side lines; reports each finding with its move number.
///
/// The main line is the tsume-shogi answer. Findings: 余詰 (another
/// attacker move mates), 最終手余詰 (another mate in one at the last move,
/// minor), 早詰 (shorter than the given solution or length), 駒余り, 変同
/// and 変化別詰 (minor), 不詰, and where a given solution leaves the main
/// line. Exit code 0 when every problem is sound, 3 when one is not.
///
///   tsume verify "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"
///   tsume verify <SFEN> --solution "G*5b"
///   tsume verify --file problems/tsumemi_samples.tsv --json
///
/// A file (--file FILE, `-` for stdin) has one problem per line: the
/// position (an SFEN or `position ... moves ...`), then optionally a tab,
/// the intended length, a tab and the intended solution in USI moves; blank
/// lines and lines starting with `#` are skipped. A line that cannot be
/// read is reported with its line number and the others are verified
/// (exit code 2). Problems are verified side by side on --jobs threads, the
/// reports written in input order; a summary goes to stderr.
///
/// A record file (.kif .kifu .ki2 .ki2u .csa, as the argument or --file)
/// is one problem: its start position, with its moves as the intended
/// solution (unless --solution is given).
///
///   tsume verify problems/kif/3te/1.kif
///   tsume verify "4k4/9/4P4/9/9/9/9/9/9 b G 1" --rest-to-defender
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The problem: an SFEN (quoted, or as separate words)
    #[arg(value_name = "SFEN")]
    position: Vec<String>,

    /// Read problems from FILE (`-`: stdin), one per line
    #[arg(long, value_name = "FILE")]
    file: Option<String>,

    /// The intended solution, in USI moves separated by spaces
    #[arg(long, value_name = "MOVES")]
    solution: Option<String>,

    /// The intended length in plies (odd: the attacker mates)
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = super::Checked(parse_length))]
    length: Option<u32>,

    /// Most memory for each worker's table in megabytes (it grows to it
    /// only as the searches need) [default: half the memory split among the
    /// workers, 64 to 4096 MB each]
    #[arg(long, value_name = "MB", allow_negative_numbers = true,
          value_parser = super::whole(1, 1 << 20))]
    hash: Option<u64>,

    /// Nodes for each search of an alternative or a side line
    #[arg(long, value_name = "N", default_value_t = 2_000_000, allow_negative_numbers = true,
          value_parser = super::whole(1, u64::MAX))]
    nodes: u64,

    /// Nodes for the search of the main line (the proof and the tsume
    /// answer) [default: 20 per node of the first proof, at least 5M;
    /// with --time, what the time allows]
    #[arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = super::whole(1, u64::MAX))]
    main_nodes: Option<u64>,

    /// Seconds for each problem (a decimal, e.g. 0.5)
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true,
          value_parser = super::Checked(super::solve::parse_seconds))]
    time: Option<Duration>,

    /// One JSON object per problem instead of the text report
    #[arg(long)]
    json: bool,

    /// Which drops between checker and king are useless (not counted):
    /// within-other-defences (this solver's rule: captured and set aside,
    /// the attacker still mates within the defender's other defences),
    /// piece-unused (the looser rule: it mates as quickly with the piece
    /// set aside as with it in hand), checker-captures (定義1: the checking
    /// piece captures it and, the piece set aside, the attacker mates at
    /// all, within 16 plies), within-or-checker (useless by either of those
    /// two) or none (every interposition counts:
    /// a line ends in checkmate on the board, as in game analysis)
    /// [default: within-other-defences; within-or-checker with
    /// --convention classical]
    #[arg(long, value_name = "RULE", value_parser = super::Checked(super::useless_rule))]
    useless_rule: Option<UselessRule>,

    /// Which defence the main line follows: longest (today's rule) or
    /// empty-hand-first (old collections: a longer side line that leaves
    /// the attacker pieces in hand is reported as longer-side-line, 変長駒余り,
    /// and the main line keeps to the longest that uses every piece)
    #[arg(long, value_name = "CHOICE", default_value_t = DefenceChoice::Longest,
          value_parser = super::Checked(super::defence_choice))]
    defence: DefenceChoice,

    /// How a --solution whose defence is shorter than another is judged:
    /// modern (today's rule: it departs from the longest defence, a flaw)
    /// or classical (old works: where the longer defence is no
    /// interposition and outlasts it even with no drop between checker and
    /// king counted, it is a longer side line, longer-side-line 変長,
    /// minor, and the given line stays the main line; a lead that depends
    /// on which drops count still departs; and drops are judged by
    /// within-or-checker unless --useless-rule says otherwise)
    #[arg(long, value_name = "CONVENTION", default_value_t = Convention::Modern,
          value_parser = super::Checked(super::convention))]
    convention: Convention,

    /// Give the defender every piece that is neither on the board nor in
    /// the attacker's hand
    #[arg(long)]
    rest_to_defender: bool,

    /// Worker threads verifying problems side by side [default: one per
    /// core, divided by --threads]
    #[arg(long, short = 'j', value_name = "J", allow_negative_numbers = true,
          value_parser = super::whole(1, 1024))]
    jobs: Option<u64>,

    /// Threads searching each problem's main line together over its
    /// worker's table (--jobs times this in all)
    #[arg(long, value_name = "N", default_value_t = 1, allow_negative_numbers = true,
          value_parser = super::whole(1, super::solve::MAX_THREADS))]
    threads: u64,
}

/// `--length`: a whole number of plies, odd (the attacker mates) and
/// positive.
fn parse_length(s: &str) -> Result<u32, String> {
    let n = super::whole_number(s, 1, u64::from(u32::MAX))?;
    if n % 2 == 0 {
        return Err(format!(
            "{n} is even: a mate takes an odd number of plies (the attacker moves first and last)"
        ));
    }
    Ok(n as u32)
}

/// Exit code when a problem is not sound.
pub const UNSOUND_EXIT: u8 = 3;

struct Problem {
    origin: String,
    pos: Position,
    solution: Option<Vec<Move>>,
    length: Option<u32>,
}

/// A line of the file that cannot be read, or a problem that cannot be
/// verified (no king to mate).
struct Bad {
    origin: String,
    /// The text as given, or the SFEN read.
    text: String,
    message: String,
    /// 1-based character column in `text`, when the error has one.
    column: Option<usize>,
}

/// What became of one problem.
enum Verified {
    Report(Box<(Problem, Report)>),
    Bad(Bad),
}

/// The counts of a run, for the summary line.
#[derive(Default)]
struct Counts {
    sound: u64,
    flawed: u64,
    no_mate: u64,
    unknown: u64,
    errors: u64,
    nodes: u64,
    time: Duration,
    /// The origins of the first few bad problems.
    bad: Vec<String>,
}

impl Counts {
    fn done(&self) -> u64 {
        self.sound + self.flawed + self.no_mate + self.unknown + self.errors
    }
}

pub fn run(args: &Args, out: &mut dyn Write) -> Result<bool, CliError> {
    let mut problems = Vec::new();
    // A record file, given as the argument or with --file: its start is the
    // problem, its moves (if any) the intended solution unless --solution
    // gives one.
    let record_path = match (args.position.as_slice(), &args.file) {
        ([one], _) if is_record_path(one) => Some(one.as_str()),
        (_, Some(f)) if is_record_path(f) => Some(f.as_str()),
        _ => None,
    };
    if let Some(path) = record_path {
        let record = read_record(path).map_err(CliError::Input)?;
        let pos = record.start.clone();
        let solution = match &args.solution {
            Some(s) => Some(read_moves(&pos, s, "--solution")?),
            None if !record.moves.is_empty() => Some(record.moves.clone()),
            None => None,
        };
        problems.push(Problem {
            origin: path.to_string(),
            pos,
            solution,
            length: args.length,
        });
    } else if !args.position.is_empty() {
        let pos =
            read_position(&args.position, "the argument").map_err(|e| {
                match super::file_hint(&args.position.join(" ")) {
                    Some(hint) => CliError::Input(hint.replace("to solve", "to verify")),
                    None => e,
                }
            })?;
        let solution = match &args.solution {
            Some(s) => Some(read_moves(&pos, s, "--solution")?),
            None => None,
        };
        problems.push(Problem {
            origin: "argument".into(),
            pos,
            solution,
            length: args.length,
        });
    }
    let file = args.file.as_deref().filter(|&f| Some(f) != record_path);
    // Open the file before verifying anything, so that a wrong name fails
    // at once.
    let reader: Option<Box<dyn BufRead + Send>> = match file {
        None => None,
        Some("-") => Some(Box::new(BufReader::new(io::stdin()))),
        Some(path) => Some(Box::new(BufReader::new(File::open(path).map_err(|e| {
            CliError::Input(format!("cannot open the problem file {path}: {e}"))
        })?))),
    };
    if problems.is_empty() && reader.is_none() {
        return Err(CliError::Input(
            "no problem given: pass an SFEN, a record file, or --file FILE (`-`: stdin)".into(),
        ));
    }
    let several = problems.len() > 1 || file.is_some();
    let arg_count = problems.len() as u64;
    let name = match file {
        Some("-") => "stdin",
        Some(f) => f,
        None => "",
    };
    let read_error = Mutex::new(None);
    let rows = reader
        .into_iter()
        .flat_map(LineReader::new)
        .map_while(|line| match line {
            Ok(line) => Some(line),
            Err(e) => {
                *read_error.lock().unwrap_or_else(|e| e.into_inner()) =
                    Some(format!("cannot read the problem file {name}: {e}"));
                None
            }
        });
    let inputs = problems
        .into_iter()
        .map(Ok)
        .chain(rows.filter_map(|line| read_row(name, line)))
        .map(|input| ((), input));
    let rest = args.rest_to_defender;
    let threads = usize::try_from(args.threads).unwrap_or(1);
    let jobs = args.jobs.map_or_else(
        || batch::default_jobs_for(threads),
        |j| usize::try_from(j).unwrap_or(1),
    );
    let batch_options = batch::BatchOptions {
        jobs: if several { jobs } else { 1 },
        unstarted_workers: 0,
        threads,
        hash_mb: args.hash.map_or_else(
            || batch::default_hash_mb(jobs),
            |mb| usize::try_from(mb).unwrap_or(usize::MAX),
        ),
        // The default takes what the system gives; a --hash it refuses is
        // an error.
        hash_fallback: args.hash.is_none(),
        solve: Default::default(),
        watch: None,
        // Its searches run to node budgets, so that a report repeats:
        // helpers joining would change where each budget ends.
        lend_idle_cores: false,
    };
    // A bar of the problems done, with the file's total counted first (not
    // for stdin).
    let bar = match file {
        Some(path) if path != "-" && io::stderr().is_terminal() => {
            let rows = File::open(path)
                .ok()
                .and_then(|f| super::solve::count_problems(f).ok());
            progress::Counter::new(rows.map(|n| n + arg_count))
        }
        Some(_) => progress::Counter::new(None),
        None => progress::Counter::hidden(),
    };
    let text_on_terminal = !args.json && io::stdout().is_terminal();
    let work = |solver: &mut Solver, input: Result<Problem, Bad>| {
        let mut p = match input {
            Ok(p) => p,
            Err(bad) => return Verified::Bad(bad),
        };
        if rest {
            p.pos = rest_to_defender(p.pos.clone(), false);
        }
        if let Some(message) = solution_fault(&p) {
            return Verified::Bad(Bad {
                origin: p.origin,
                text: String::new(),
                message,
                column: None,
            });
        }
        solver.clear();
        let options = VerifyOptions {
            solution: p.solution.clone(),
            length: p.length,
            nodes_per_search: args.nodes,
            main_nodes: args.main_nodes,
            time: args.time,
            rules: Rules {
                useless_rule: args
                    .useless_rule
                    .unwrap_or_else(|| args.convention.useless_rule()),
                defence: args.defence,
            },
            convention: args.convention,
        };
        match verify(solver, &p.pos, &options) {
            Ok(report) => Verified::Report(Box::new((p, report))),
            Err(e) => Verified::Bad(Bad {
                origin: p.origin,
                text: p.pos.to_string(),
                message: e.to_string(),
                column: None,
            }),
        }
    };
    let mut counts = Counts::default();
    let json = args.json;
    let run = batch::run_all(
        inputs,
        &batch_options,
        &AtomicBool::new(false),
        work,
        |(), v| {
            match v {
                Verified::Report(done) => {
                    let (p, report) = *done;
                    counts.nodes += report.nodes;
                    counts.time += report.elapsed;
                    match report.verdict {
                        Verdict::Sound => counts.sound += 1,
                        Verdict::Flawed => counts.flawed += 1,
                        Verdict::NoMate => counts.no_mate += 1,
                        Verdict::Unknown => counts.unknown += 1,
                    }
                    if json {
                        write_json(out, &p, &report)?;
                    } else if text_on_terminal {
                        bar.suspend(|| write_text(out, &p, &report))?;
                    } else {
                        write_text(out, &p, &report)?;
                    }
                }
                Verified::Bad(bad) => {
                    counts.errors += 1;
                    if counts.bad.len() < 10 {
                        counts.bad.push(bad.origin.clone());
                    }
                    if json {
                        write_json_error(out, &bad)?;
                    } else {
                        let mut msg = format!("error: {}: {}", bad.origin, bad.message);
                        if !bad.text.is_empty() {
                            msg.push_str(&super::show_text(&bad.text, bad.column));
                        }
                        bar.suspend(|| {
                            let _ = writeln!(io::stderr(), "{msg}");
                        });
                    }
                }
            }
            out.flush()?;
            bar.inc();
            Ok::<(), CliError>(())
        },
    );
    bar.clear();
    let run = match run {
        Ok(run) => run,
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
    let read_error = read_error.into_inner().unwrap_or_else(|e| e.into_inner());
    if several || read_error.is_some() {
        let _ = writeln!(
            io::stderr(),
            "summary: sound {}, flawed {}, no mate {}, unknown {}, errors {}, nodes {}, search time {:.3} s, wall time {:.3} s, jobs {}",
            counts.sound,
            counts.flawed,
            counts.no_mate,
            counts.unknown,
            counts.errors,
            counts.nodes,
            counts.time.as_secs_f64(),
            run.wall_time.as_secs_f64(),
            run.jobs
        );
    }
    if let Some(e) = read_error {
        return Err(CliError::Input(e));
    }
    if counts.errors > 0 {
        let mut which = counts.bad.join(", ");
        if counts.errors > counts.bad.len() as u64 {
            which.push_str(&format!(
                " and {} more",
                counts.errors - counts.bad.len() as u64
            ));
        }
        return Err(CliError::Input(format!(
            "{} of {} problems could not be read or verified: {which}",
            counts.errors,
            counts.done()
        )));
    }
    Ok(counts.sound == counts.done())
}

/// A line of the problem file `name` as a problem: `None` for a blank line
/// or a comment.
fn read_row(name: &str, line: Line) -> Option<Result<Problem, Bad>> {
    let origin = format!("{name}:{}", line.number);
    let text = match line.text {
        Ok(text) => text,
        Err(e) => {
            return Some(Err(Bad {
                origin,
                text: e.start().to_string(),
                message: e.to_string(),
                column: None,
            }));
        }
    };
    let trimmed = text.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return None;
    }
    let bad = |message: String, column: Option<usize>| Bad {
        origin: origin.clone(),
        text: text.clone(),
        message,
        column,
    };
    let row = match ProblemLine::parse(&text, false) {
        Ok(row) => row,
        Err(e) => return Some(Err(bad(e.to_string(), e.column()))),
    };
    if let Some(n) = row.length
        && n % 2 == 0
    {
        return Some(Err(bad(
            format!("the length {n} is even: a mate takes an odd number of plies"),
            None,
        )));
    }
    Some(Ok(Problem {
        origin,
        pos: row.position.end,
        solution: row.solution,
        length: row.length,
    }))
}

/// What makes the given solution unfit to be judged, if anything: an
/// attacker move that gives no check (named by its number and text: the
/// search would only say that the side to move is not in check; audit F4),
/// or a length given as well that disagrees with the solution's (audit
/// F3: the length was ignored, and a mate in 1 given as a mate in 3 was
/// called sound). A composer who states both means both, so a
/// disagreement is an error rather than a guess at which one is meant.
fn solution_fault(p: &Problem) -> Option<String> {
    let moves = p.solution.as_ref()?;
    let mut pos = p.pos.clone();
    for (i, &m) in moves.iter().enumerate() {
        pos.do_move(m);
        if i % 2 == 0 && !pos.in_check() {
            return Some(format!(
                "move {} `{m}` of the solution gives no check: every attacker move of a tsume (moves 1, 3, 5, ...) must check",
                i + 1
            ));
        }
    }
    match p.length {
        Some(n) if n as usize != moves.len() => Some(format!(
            "the solution has {} but the length given is {n}: the two disagree (give the length of the solution, or only one of them)",
            plies(moves.len())
        )),
        _ => None,
    }
}

/// Reads USI moves played one after the other from `pos`.
fn read_moves(pos: &Position, text: &str, what: &str) -> Result<Vec<Move>, CliError> {
    let mut p = pos.clone();
    let mut moves = Vec::new();
    for (i, word) in text.split_whitespace().enumerate() {
        let m = p.parse_move(word).map_err(|e| {
            CliError::Input(format!(
                "{what}: move {} `{}` of the solution: {e}",
                i + 1,
                tsume::input::quote(word)
            ))
        })?;
        p.do_move(m);
        moves.push(m);
    }
    Ok(moves)
}

fn usi(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

/// `1 ply`, `3 plies`.
fn plies(n: usize) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}

fn write_text(out: &mut dyn Write, p: &Problem, report: &Report) -> Result<(), CliError> {
    writeln!(out, "== {} ==", p.origin)?;
    writeln!(out, "sfen {}", p.pos)?;
    writeln!(out, "verdict {}", verdict_name(report.verdict))?;
    match &report.solution {
        Some(GivenSolution::Answer) => {
            // By the classical convention, with the 変長 it accepts.
            let longer: Vec<String> = report
                .findings
                .iter()
                .filter(|f| f.kind == FindingKind::LongerSideLine && f.longer_by.is_some())
                .map(|f| f.ply.to_string())
                .collect();
            if longer.is_empty() {
                writeln!(out, "the given solution is the answer")?
            } else {
                writeln!(
                    out,
                    "the given solution is the answer by the classical convention (a longer side line, 変長, at move {})",
                    longer.join(", ")
                )?
            }
        }
        Some(GivenSolution::NotAnswer { reason }) => {
            writeln!(out, "the given solution is not the answer: {reason}")?
        }
        None => {}
    }
    if !report.main_line.is_empty() {
        writeln!(
            out,
            "main line {}{}",
            plies(report.main_line.len()),
            if report.exact {
                ""
            } else {
                " (not proven shortest: a limit was hit)"
            }
        )?;
        writeln!(out, "usi {}", usi(&report.main_line).join(" "))?;
        writeln!(
            out,
            "japanese {}",
            japanese_line(&p.pos, &report.main_line, None).unwrap_or_default()
        )?;
    }
    for f in &report.findings {
        writeln!(
            out,
            "{} {} ({}) at move {}: {}",
            if f.kind.is_minor() { "minor" } else { "FLAW" },
            f.japanese(),
            f.kind.name(),
            f.ply,
            f.note
        )?;
        if !f.moves.is_empty() {
            writeln!(
                out,
                "    usi {}\n    japanese {}",
                usi(&f.moves).join(" "),
                finding_japanese(&p.pos, p.solution.as_deref(), report, f)
            )?;
        }
    }
    writeln!(
        out,
        "nodes {}\ntime {:.3} s\n",
        report.nodes,
        report.elapsed.as_secs_f64()
    )?;
    Ok(())
}

/// A problem that could not be read or verified.
#[derive(Serialize)]
struct JsonError {
    origin: String,
    /// The text as given (at most 80 characters of it).
    sfen: String,
    verdict: &'static str,
    error: String,
}

fn write_json_error(out: &mut dyn Write, bad: &Bad) -> Result<(), CliError> {
    let record = JsonError {
        origin: bad.origin.clone(),
        sfen: tsume::input::quote(&bad.text),
        verdict: "error",
        error: format!("{}: {}", bad.origin, bad.message),
    };
    let text = serde_json::to_string(&record)
        .map_err(|e| CliError::Io(std::io::Error::other(format!("JSON: {e}"))))?;
    writeln!(out, "{text}")?;
    Ok(())
}

fn write_json(out: &mut dyn Write, p: &Problem, report: &Report) -> Result<(), CliError> {
    let record =
        VerifyRecord::new(&p.pos, p.solution.as_deref(), report).with_origin(p.origin.clone());
    writeln!(out, "{}", record.to_json())?;
    Ok(())
}
