//! `tsume verify`: is a composed problem sound?

use std::io::Write;
use std::time::Duration;
use tsume::solver::defence::DefenceChoice;
use tsume::solver::interposition::UselessRule;

use serde::Serialize;
use tsume::core::{Move, Position};
use tsume::input::ProblemLine;
use tsume::record::notation::japanese_line;
use tsume::solver::Solver;
use tsume::verify::{Finding, LongerBy, Options, Report, Verdict, verify};

use super::record::{is_record_path, read_record, rest_to_defender};
use super::{CliError, read_position};

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
/// A file has one problem per line: SFEN, then optionally a tab, the
/// intended length, a tab and the intended solution in USI moves.
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

    /// Read problems from FILE, one per line
    #[arg(long, value_name = "FILE")]
    file: Option<String>,

    /// The intended solution, in USI moves separated by spaces
    #[arg(long, value_name = "MOVES")]
    solution: Option<String>,

    /// The intended length in plies
    #[arg(long, value_name = "N")]
    length: Option<u32>,

    /// Most memory for the solver's table in megabytes (it grows to it
    /// only as the searches need) [default: half the memory, 64 to 4096 MB]
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
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true,
          value_parser = super::solve::parse_seconds)]
    time: Option<Duration>,

    /// One JSON object per problem instead of the text report
    #[arg(long)]
    json: bool,

    /// Which drops between checker and king are useless (not counted):
    /// within-other-defences (this solver's rule: captured and set aside,
    /// the attacker still mates within the defender's other defences) or
    /// piece-unused (the looser rule: it mates as quickly with the piece
    /// set aside as with it in hand)
    #[arg(long, value_name = "RULE", default_value_t = UselessRule::WithinOtherDefences)]
    useless_rule: UselessRule,

    /// Which defence the main line follows: longest (today's rule) or
    /// empty-hand-first (old collections: a longer side line that leaves
    /// the attacker pieces in hand is reported as longer-side-line, 変長駒余り,
    /// and the main line keeps to the longest that uses every piece)
    #[arg(long, value_name = "CHOICE", default_value_t = DefenceChoice::Longest)]
    defence: DefenceChoice,

    /// Give the defender every piece that is neither on the board nor in
    /// the attacker's hand
    #[arg(long)]
    rest_to_defender: bool,
}

/// Exit code when a problem is not sound.
pub const UNSOUND_EXIT: u8 = 3;

struct Problem {
    origin: String,
    pos: Position,
    solution: Option<Vec<Move>>,
    length: Option<u32>,
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
        let pos = read_position(&args.position, "the argument")?;
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
    if let Some(file) = args
        .file
        .as_ref()
        .filter(|f| Some(f.as_str()) != record_path)
    {
        let text = std::fs::read_to_string(file)
            .map_err(|e| CliError::Input(format!("cannot read {file}: {e}")))?;
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let origin = format!("{file}:{}", i + 1);
            let row = ProblemLine::parse(line, false)
                .map_err(|e| CliError::Input(format!("{origin}: {e}")))?;
            problems.push(Problem {
                origin,
                pos: row.position.end,
                solution: row.solution,
                length: row.length,
            });
        }
    }
    if problems.is_empty() {
        return Err(CliError::Input(
            "no problem given: pass an SFEN or --file FILE".into(),
        ));
    }
    if args.rest_to_defender {
        for p in &mut problems {
            p.pos = rest_to_defender(p.pos.clone(), false);
        }
    }
    // The default takes what the system gives; a --hash it refuses is an
    // error.
    let mut solver = match args.hash {
        None => Solver::new(tsume::batch::default_hash_mb(1)),
        Some(mb) => Solver::try_new(usize::try_from(mb).unwrap_or(usize::MAX))
            .map_err(|e| CliError::Input(format!("{e} (try a smaller --hash)")))?,
    };
    let mut all_sound = true;
    for p in &problems {
        solver.clear();
        let options = Options {
            solution: p.solution.clone(),
            length: p.length,
            nodes_per_search: args.nodes,
            main_nodes: args.main_nodes,
            time: args.time,
            useless_rule: args.useless_rule,
            defence: args.defence,
        };
        let report = verify(&mut solver, &p.pos, &options)
            .map_err(|e| CliError::Input(format!("{}: {e}", p.origin)))?;
        all_sound &= report.verdict == Verdict::Sound;
        if args.json {
            write_json(out, p, &report)?;
        } else {
            write_text(out, p, &report)?;
        }
    }
    Ok(all_sound)
}

/// Reads USI moves played one after the other from `pos`.
fn read_moves(pos: &Position, text: &str, what: &str) -> Result<Vec<Move>, CliError> {
    let mut p = pos.clone();
    let mut moves = Vec::new();
    for (i, word) in text.split_whitespace().enumerate() {
        let m = p.parse_move(word).map_err(|e| {
            CliError::Input(format!(
                "{what}: move {} `{word}` of the solution: {e}",
                i + 1
            ))
        })?;
        p.do_move(m);
        moves.push(m);
    }
    Ok(moves)
}

fn verdict_text(v: Verdict) -> &'static str {
    match v {
        Verdict::Sound => "sound",
        Verdict::Flawed => "flawed",
        Verdict::NoMate => "no mate",
        Verdict::Unknown => "unknown",
    }
}

/// The position before move `ply` (1-based) of `line` from `root`.
fn position_before(root: &Position, line: &[Move], ply: usize) -> Position {
    let mut p = root.clone();
    for &m in line.iter().take(ply.saturating_sub(1)) {
        p.do_move(m);
    }
    p
}

fn usi(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

/// Where a finding's moves start: before the move it names, except for a
/// departure past the main line's end (then the moves are main-line moves).
fn finding_japanese(root: &Position, report: &Report, f: &Finding) -> String {
    let before = position_before(root, &report.main_line, f.ply);
    japanese_line(&before, &f.moves, None).unwrap_or_default()
}

fn write_text(out: &mut dyn Write, p: &Problem, report: &Report) -> Result<(), CliError> {
    writeln!(out, "== {} ==", p.origin)?;
    writeln!(out, "sfen {}", p.pos)?;
    writeln!(out, "verdict {}", verdict_text(report.verdict))?;
    if !report.main_line.is_empty() {
        writeln!(
            out,
            "main line {} plies{}",
            report.main_line.len(),
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
            f.kind.japanese(),
            f.kind.name(),
            f.ply,
            f.note
        )?;
        if !f.moves.is_empty() {
            writeln!(
                out,
                "    usi {}\n    japanese {}",
                usi(&f.moves).join(" "),
                finding_japanese(&p.pos, report, f)
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

#[derive(Serialize)]
struct JsonFinding {
    kind: &'static str,
    japanese: &'static str,
    minor: bool,
    ply: usize,
    moves: Vec<String>,
    moves_japanese: String,
    length: Option<u32>,
    main_length: Option<u32>,
    note: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    longer_by: Option<&'static str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    longer_leaves_pieces: bool,
}

#[derive(Serialize)]
struct JsonReport {
    origin: String,
    sfen: String,
    verdict: &'static str,
    length: usize,
    exact: bool,
    main_line: Vec<String>,
    main_line_japanese: String,
    findings: Vec<JsonFinding>,
    nodes: u64,
    millis: u64,
}

fn write_json(out: &mut dyn Write, p: &Problem, report: &Report) -> Result<(), CliError> {
    let record = JsonReport {
        origin: p.origin.clone(),
        sfen: p.pos.to_string(),
        verdict: verdict_text(report.verdict),
        length: report.main_line.len(),
        exact: report.exact,
        main_line: usi(&report.main_line),
        main_line_japanese: japanese_line(&p.pos, &report.main_line, None).unwrap_or_default(),
        findings: report
            .findings
            .iter()
            .map(|f| JsonFinding {
                kind: f.kind.name(),
                japanese: f.kind.japanese(),
                minor: f.kind.is_minor(),
                ply: f.ply,
                moves: usi(&f.moves),
                moves_japanese: finding_japanese(&p.pos, report, f),
                length: f.length,
                main_length: f.main_length,
                note: f.note.clone(),
                longer_by: f.longer_by.map(LongerBy::name),
                longer_leaves_pieces: f.longer_leaves_pieces,
            })
            .collect(),
        nodes: report.nodes,
        millis: u64::try_from(report.elapsed.as_millis()).unwrap_or(u64::MAX),
    };
    let text = serde_json::to_string(&record)
        .map_err(|e| CliError::Io(std::io::Error::other(format!("JSON: {e}"))))?;
    writeln!(out, "{text}")?;
    Ok(())
}
