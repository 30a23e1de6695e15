//! `tsume generate`: training puzzles, made up or cut from games.

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::time::Instant;

use serde::Serialize;
use tsume::generate::games::{FromConfig, FromStep, puzzles_from_games_with, read_games};
use tsume::generate::{Config, Generator, MAX_PLIES, Origin, Puzzle};

use tsume::batch;

use super::{CliError, progress};

/// Generate mate problems with a unique solution (training puzzles).
///
/// Made up: `--plies N --count K` writes K distinct puzzles, each a mate in
/// exactly N plies (odd, 1 to 31) by tsume rules: the attacker (Black) gives
/// check at every move and ends with an empty hand, the defender holds all
/// the other pieces (none with --no-defender-hand), and no other attacker
/// move mates at any point of the solution (not even at the last move; a
/// proven longer mate is allowed), nor does a defence last as long.
/// The same --seed gives the same puzzles, whatever --jobs.
///
/// From games: `--from FILE` reads one game a line (an SFEN, or a USI move
/// list such as `startpos moves 7g7f ...` or `position sfen <SFEN> moves
/// ...`) and writes, for every position where the side to move mates within
/// --min-plies..--max-plies with a unique solution, that position and the
/// shorter mates along its solution. The hands stay as in the game (the
/// attacker may end with pieces in hand).
///
/// Output: one puzzle a line, `SFEN <TAB> length <TAB> USI solution <TAB>
/// name` (the format of problems/*.tsv, readable by `tsume solve --file`
/// and `tsume verify --file`), or with --json one JSON object a line (sfen,
/// plies, solution_usi, solution_japanese, nodes, checks, defences, score,
/// tags, and seed/index or line/ply/cut; see docs/generate.md). A summary
/// goes to stderr.
///
/// Candidates are tried on --jobs threads (default: one per core). Exit
/// code 0 when --count puzzles were written, 3 when fewer were found (within
/// --max-candidates, or in the games of --from with --count given), 2 for
/// bad input.
///
/// Examples:
///
///   tsume generate --plies 3 --count 10 --seed 7
///   tsume generate --plies 7 --count 5 --jobs 2 --json --out mate7.jsonl
///   tsume generate --from games.txt --min-plies 3 --max-plies 9
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Length of each puzzle in plies (odd, 1 to 31)
    #[arg(long, value_name = "N", default_value_t = 3, conflicts_with = "from",
          value_parser = clap::value_parser!(u32).range(1..=MAX_PLIES as i64))]
    plies: u32,

    /// Number of puzzles [default: 10; with --from: all found]
    #[arg(long, value_name = "K")]
    count: Option<usize>,

    /// Seed of the random positions
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,

    /// Threads (the puzzles do not depend on it) [default: one per core]
    #[arg(long, short = 'j', value_name = "J", default_value_t = batch::default_jobs() as u64,
          hide_default_value = true, value_parser = clap::value_parser!(u64).range(1..=256))]
    jobs: u64,

    /// Write the puzzles to FILE instead of stdout
    #[arg(long, value_name = "FILE")]
    out: Option<String>,

    /// One JSON object per puzzle and line
    #[arg(long)]
    json: bool,

    /// Nodes for each search (more finds longer puzzles, slower)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,

    /// The defender holds no pieces (the pieces on neither the board nor
    /// the attacker's hand are out of play), instead of all of them
    #[arg(long, conflicts_with = "from")]
    no_defender_hand: bool,

    /// Give up after this many candidate positions
    #[arg(long, value_name = "N", conflicts_with = "from")]
    max_candidates: Option<u64>,

    /// Cut puzzles from the games in FILE (`-`: stdin)
    #[arg(long, value_name = "FILE")]
    from: Option<String>,

    /// With --from: the shortest puzzle in plies
    #[arg(long, value_name = "N", default_value_t = 3, requires = "from")]
    min_plies: u32,

    /// With --from: the longest puzzle in plies
    #[arg(long, value_name = "N", default_value_t = 15, requires = "from")]
    max_plies: u32,
}

#[derive(Serialize)]
struct JsonPuzzle<'a> {
    sfen: String,
    plies: usize,
    solution_usi: Vec<String>,
    solution_japanese: &'a str,
    nodes: u64,
    checks: u32,
    defences: u32,
    score: f64,
    tags: Vec<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    index: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ply: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cut: Option<usize>,
}

/// The name column of the text output.
fn name(p: &Puzzle) -> String {
    let origin = match p.origin {
        Origin::Generated { seed, index } => format!("gen-s{seed}-{}-{index}", p.plies()),
        Origin::Game { line, ply, cut } => format!("game-line{line}-ply{ply}-cut{cut}"),
    };
    let tags: Vec<&str> = p.tags.iter().map(|t| t.name()).collect();
    if tags.is_empty() {
        origin
    } else {
        format!("{origin} {}", tags.join(","))
    }
}

fn write_puzzle(out: &mut dyn Write, p: &Puzzle, json: bool) -> Result<(), CliError> {
    let usi: Vec<String> = p.moves.iter().map(|m| m.to_string()).collect();
    if json {
        let (seed, index, line, ply, cut) = match p.origin {
            Origin::Generated { seed, index } => (Some(seed), Some(index), None, None, None),
            Origin::Game { line, ply, cut } => (None, None, Some(line), Some(ply), Some(cut)),
        };
        let record = JsonPuzzle {
            sfen: p.position.to_string(),
            plies: p.plies(),
            solution_usi: usi,
            solution_japanese: &p.japanese,
            nodes: p.difficulty.nodes,
            checks: p.difficulty.checks,
            defences: p.difficulty.defences,
            score: p.difficulty.score,
            tags: p.tags.iter().map(|t| t.name()).collect(),
            seed,
            index,
            line,
            ply,
            cut,
        };
        let text = serde_json::to_string(&record)
            .map_err(|e| CliError::Io(io::Error::other(format!("JSON: {e}"))))?;
        writeln!(out, "{text}")?;
    } else {
        writeln!(
            out,
            "{}\t{}\t{}\t{}",
            p.position,
            p.plies(),
            usi.join(" "),
            name(p)
        )?;
    }
    Ok(())
}

pub fn run(args: &Args, stdout: &mut dyn Write) -> Result<(), CliError> {
    let mut file_out;
    let out: &mut dyn Write = match &args.out {
        Some(path) => {
            let f = File::create(path).map_err(|e| {
                CliError::Input(format!("cannot create the output file {path}: {e}"))
            })?;
            file_out = BufWriter::new(f);
            &mut file_out
        }
        None => stdout,
    };
    let start = Instant::now();
    let jobs = args.jobs as usize;
    // What was asked for: --count (10 made up; all found from games).
    let (written, wanted, within) = match &args.from {
        Some(path) => (
            from_games(args, path, jobs, out)?,
            args.count,
            String::new(),
        ),
        None => {
            let (written, candidates) = made_up(args, jobs, out)?;
            let s = if candidates == 1 { "" } else { "s" };
            let within = format!(" within {candidates} candidate{s}");
            (written, Some(args.count.unwrap_or(10)), within)
        }
    };
    out.flush()?;
    let secs = start.elapsed().as_secs_f64();
    let _ = writeln!(
        io::stderr(),
        "summary: {written} puzzles in {secs:.1} s ({:.1} per minute)",
        written as f64 * 60.0 / secs.max(1e-9)
    );
    match wanted {
        Some(wanted) if written < wanted => Err(CliError::Incomplete(format!(
            "only {written} of the {wanted} puzzles asked for were found{within}"
        ))),
        _ => Ok(()),
    }
}

/// Writes up to `--count` made-up puzzles; returns how many, and the
/// candidates tried.
fn made_up(args: &Args, jobs: usize, out: &mut dyn Write) -> Result<(usize, u64), CliError> {
    let config = Config {
        plies: args.plies,
        seed: args.seed,
        jobs,
        nodes: args.nodes.unwrap_or(Config::default().nodes),
        max_candidates: args.max_candidates,
        defender_holds_rest: !args.no_defender_hand,
    };
    let mut generator = Generator::new(config).map_err(|e| CliError::Input(e.to_string()))?;
    let count = args.count.unwrap_or(10);
    let bar = progress::Counter::new(Some(count as u64));
    let mut written = 0;
    while written < count {
        let Some(p) = generator.next() else { break };
        bar.suspend(|| write_puzzle(out, &p, args.json))?;
        // Each puzzle as it comes, for long runs.
        out.flush()?;
        written += 1;
        bar.set_note(format!("{} candidates", generator.candidates()));
        bar.inc();
    }
    bar.clear();
    Ok((written, generator.candidates()))
}

fn from_games(
    args: &Args,
    path: &str,
    jobs: usize,
    out: &mut dyn Write,
) -> Result<usize, CliError> {
    let mut bytes = Vec::new();
    let read = if path == "-" {
        io::stdin().read_to_end(&mut bytes)
    } else {
        File::open(path).and_then(|mut f| f.read_to_end(&mut bytes))
    };
    read.map_err(|e| CliError::Input(format!("cannot read {path}: {e}")))?;
    let games = read_games(&bytes).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(|e| format!("{path}: {e}")).collect();
        CliError::Input(lines.join("\n"))
    })?;
    let config = FromConfig {
        min_plies: args.min_plies,
        max_plies: args.max_plies,
        nodes: args.nodes.unwrap_or(FromConfig::default().nodes),
        jobs,
    };
    // A bar of the positions searched, then of the candidates judged.
    let bar = progress::Counter::new(None);
    let puzzles = puzzles_from_games_with(&games, &config, &|step| match step {
        FromStep::Positions(n) => bar.restart(n as u64, "positions searched for a mate"),
        FromStep::Candidates(n) => bar.restart(n as u64, "candidates judged"),
        FromStep::Done => bar.inc(),
    });
    bar.clear();
    let puzzles = puzzles.map_err(|e| CliError::Input(e.to_string()))?;
    let mut written = 0;
    for p in puzzles.iter().take(args.count.unwrap_or(usize::MAX)) {
        write_puzzle(out, p, args.json)?;
        written += 1;
    }
    Ok(written)
}
