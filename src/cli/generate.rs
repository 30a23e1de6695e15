//! `tsume generate`: training puzzles, made up or cut from games.

use std::collections::HashSet;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::time::Instant;

use serde::Serialize;
use tsume::core::Position;
use tsume::generate::games::{FromConfig, FromStep, ReadError, puzzles_from_games_with, read_game};
use tsume::generate::variety::{Related, Stats, canonical_key};
use tsume::generate::{Config, Generator, MAX_PLIES, Origin, Puzzle};
use tsume::input::{LineError, LineReader};

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
          allow_negative_numbers = true, value_parser = super::whole(1, u64::from(MAX_PLIES)))]
    plies: u64,

    /// Number of puzzles [default: 10; with --from: all found]
    #[arg(long, value_name = "K", allow_negative_numbers = true,
          value_parser = super::whole(0, u64::MAX))]
    count: Option<u64>,

    /// Seed of the random positions
    #[arg(long, value_name = "S", default_value_t = 1, allow_negative_numbers = true,
          value_parser = super::whole(0, u64::MAX))]
    seed: u64,

    /// Threads (the puzzles do not depend on it) [default: one per core]
    #[arg(long, short = 'j', value_name = "J", default_value_t = batch::default_jobs() as u64,
          hide_default_value = true, allow_negative_numbers = true,
          value_parser = super::whole(1, 256))]
    jobs: u64,

    /// Write the puzzles to FILE instead of stdout
    #[arg(long, value_name = "FILE")]
    out: Option<String>,

    /// One JSON object per puzzle and line
    #[arg(long)]
    json: bool,

    /// Nodes for each search (more finds longer puzzles, slower)
    #[arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = super::whole(1, u64::MAX))]
    nodes: Option<u64>,

    /// The defender holds no pieces (the pieces on neither the board nor
    /// the attacker's hand are out of play), instead of all of them
    #[arg(long, conflicts_with = "from")]
    no_defender_hand: bool,

    /// Give up after this many candidate positions
    #[arg(long, value_name = "N", conflicts_with = "from", allow_negative_numbers = true,
          value_parser = super::whole(0, u64::MAX))]
    max_candidates: Option<u64>,

    /// Cut puzzles from the games in FILE (`-`: stdin)
    #[arg(long, value_name = "FILE")]
    from: Option<String>,

    /// With --from: the shortest puzzle in plies
    #[arg(long, value_name = "N", default_value_t = 3, requires = "from",
          allow_negative_numbers = true, value_parser = super::whole(0, u64::from(MAX_PLIES)))]
    min_plies: u64,

    /// With --from: the longest puzzle in plies
    #[arg(long, value_name = "N", default_value_t = 15, requires = "from",
          allow_negative_numbers = true, value_parser = super::whole(0, u64::from(MAX_PLIES)))]
    max_plies: u64,

    /// Skip the positions of FILE (a problem file or this command's text
    /// or JSON output: the SFEN of each line), and their mirror images
    #[arg(long, value_name = "FILE")]
    exclude: Option<String>,

    /// Mark a puzzle related to an earlier one of the output when they are
    /// at least this similar (0 to 1: pieces placed alike around the king,
    /// mirror images alike, and the attacker's hand)
    #[arg(long, value_name = "X", default_value_t = 0.8, value_parser = similarity_value)]
    related: f64,

    /// Leave out the puzzles marked related instead of writing them
    #[arg(long)]
    drop_related: bool,

    /// Write a summary of the puzzles written to stderr (lengths, pieces,
    /// tags, king squares, first moves, related ones)
    #[arg(long)]
    stats: bool,
}

fn similarity_value(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!(
            "`{}` is not a number from 0 to 1",
            tsume::input::quote(s.trim())
        )),
    }
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
    /// The number (from 1) of the earlier puzzle of the output this one is
    /// related to, and how similar they are.
    #[serde(skip_serializing_if = "Option::is_none")]
    related_to: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    similarity: Option<f64>,
}

/// What the output says of a puzzle related to an earlier one: that one's
/// number in the output (from 1) and the similarity.
type Relation = Option<(usize, f64)>;

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

fn write_puzzle(
    out: &mut dyn Write,
    p: &Puzzle,
    json: bool,
    related: Relation,
) -> Result<(), CliError> {
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
            related_to: related.map(|(n, _)| n + 1),
            similarity: related.map(|(_, x)| (x * 100.0).round() / 100.0),
        };
        let text = serde_json::to_string(&record)
            .map_err(|e| CliError::Io(io::Error::other(format!("JSON: {e}"))))?;
        writeln!(out, "{text}")?;
    } else {
        let mut name = name(p);
        if let Some((n, _)) = related {
            name.push_str(&format!(" related-to-{}", n + 1));
        }
        writeln!(
            out,
            "{}\t{}\t{}\t{name}",
            p.position,
            p.plies(),
            usi.join(" "),
        )?;
    }
    Ok(())
}

/// Where puzzles go: marked or dropped when related to an earlier one,
/// counted for the summary, then written.
struct Sink<'a> {
    out: &'a mut dyn Write,
    json: bool,
    related: Related,
    drop_related: bool,
    stats: Stats,
    written: usize,
}

impl Sink<'_> {
    /// Writes `p` unless it is dropped as related; whether it was written.
    fn put(&mut self, p: &Puzzle) -> Result<bool, CliError> {
        let relation = self.related.most_similar(p);
        if relation.is_some() && self.drop_related {
            return Ok(false);
        }
        self.related.add(p);
        self.stats.add(p, relation.is_some());
        write_puzzle(self.out, p, self.json, relation)?;
        self.written += 1;
        Ok(true)
    }
}

/// The positions of a file to exclude: the SFEN of each line (the first
/// TAB-separated column, or the `sfen` field of a JSON line); blank lines
/// and `#` comments skipped.
fn excluded(path: &str) -> Result<Vec<Position>, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::Input(format!("cannot read {path}: {e}")))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let sfen = if line.starts_with('{') {
            let v: serde_json::Value = serde_json::from_str(line)
                .map_err(|e| CliError::Input(format!("{path}: line {}: JSON: {e}", i + 1)))?;
            match v.get("sfen").and_then(|s| s.as_str()) {
                Some(s) => s.to_string(),
                None => {
                    return Err(CliError::Input(format!(
                        "{path}: line {}: no \"sfen\" field",
                        i + 1
                    )));
                }
            }
        } else {
            let first = line.split('\t').next().unwrap_or("");
            first.strip_prefix("sfen ").unwrap_or(first).to_string()
        };
        let pos = Position::from_sfen_relaxed(&sfen)
            .map_err(|e| CliError::Input(format!("{path}: line {}: {e}", i + 1)))?;
        out.push(pos);
    }
    Ok(out)
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
    let exclude = match &args.exclude {
        Some(path) => excluded(path)?,
        None => Vec::new(),
    };
    let start = Instant::now();
    let jobs = args.jobs as usize;
    let mut sink = Sink {
        out,
        json: args.json,
        related: Related::new(args.related),
        drop_related: args.drop_related,
        stats: Stats::default(),
        written: 0,
    };
    // What was asked for: --count (10 made up; all found from games).
    let (wanted, within) = match &args.from {
        Some(path) => {
            from_games(args, path, jobs, &exclude, &mut sink)?;
            (args.count, String::new())
        }
        None => {
            let candidates = made_up(args, jobs, &exclude, &mut sink)?;
            let s = if candidates == 1 { "" } else { "s" };
            (
                Some(args.count.unwrap_or(10)),
                format!(" within {candidates} candidate{s}"),
            )
        }
    };
    let written = sink.written;
    sink.out.flush()?;
    if args.stats {
        for line in sink.stats.lines() {
            let _ = writeln!(io::stderr(), "{line}");
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let _ = writeln!(
        io::stderr(),
        "summary: {written} puzzles in {secs:.1} s ({:.1} per minute)",
        written as f64 * 60.0 / secs.max(1e-9)
    );
    match wanted {
        Some(wanted) if (written as u64) < wanted => Err(CliError::Incomplete(format!(
            "only {written} of the {wanted} puzzles asked for were found{within}"
        ))),
        _ => Ok(()),
    }
}

/// Writes up to `--count` made-up puzzles; returns the candidates tried.
fn made_up(
    args: &Args,
    jobs: usize,
    exclude: &[Position],
    sink: &mut Sink,
) -> Result<u64, CliError> {
    let config = Config {
        plies: args.plies as u32,
        seed: args.seed,
        jobs,
        nodes: args.nodes.unwrap_or(Config::default().nodes),
        max_candidates: args.max_candidates,
        defender_holds_rest: !args.no_defender_hand,
    };
    let mut generator = Generator::new(config).map_err(|e| CliError::Input(e.to_string()))?;
    for pos in exclude {
        generator.exclude(pos);
    }
    let count = args
        .count
        .map_or(10, |n| usize::try_from(n).unwrap_or(usize::MAX));
    let bar = progress::Counter::new(Some(count as u64));
    let mut written = 0;
    while written < count {
        let Some(p) = generator.next() else { break };
        if !bar.suspend(|| sink.put(&p))? {
            continue;
        }
        // Each puzzle as it comes, for long runs.
        sink.out.flush()?;
        written += 1;
        bar.set_note(format!("{} candidates", generator.candidates()));
        bar.inc();
    }
    bar.clear();
    Ok(generator.candidates())
}

fn from_games(
    args: &Args,
    path: &str,
    jobs: usize,
    exclude: &[Position],
    sink: &mut Sink,
) -> Result<(), CliError> {
    // Line by line, in bounded memory (a line over 1 MB is an error for
    // that line, as in solve and verify; issue 31, audit F1), every bad line
    // reported and the others read.
    let input: Box<dyn BufRead> = if path == "-" {
        Box::new(BufReader::new(io::stdin()))
    } else {
        Box::new(BufReader::new(File::open(path).map_err(|e| {
            CliError::Input(format!("cannot read {path}: {e}"))
        })?))
    };
    let mut games = Vec::new();
    let mut bad = 0usize;
    let mut read_error = None;
    for line in LineReader::new(input) {
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                read_error = Some(format!("cannot read {path}: {e}"));
                break;
            }
        };
        let number = usize::try_from(line.number).unwrap_or(usize::MAX);
        let error = match line.text {
            Ok(text) => match read_game(number, &text) {
                Ok(Some(game)) => {
                    games.push((number, game));
                    continue;
                }
                Ok(None) => continue,
                Err(e) => e.to_string(),
            },
            Err(LineError::NotUtf8 { byte, .. }) => ReadError::Encoding {
                line: number,
                column: byte,
            }
            .to_string(),
            Err(e) => format!("line {number}: {e}"),
        };
        bad += 1;
        let _ = writeln!(io::stderr(), "error: {path}: {error}");
    }
    let config = FromConfig {
        min_plies: args.min_plies as u32,
        max_plies: args.max_plies as u32,
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
    let skip: HashSet<u64> = exclude.iter().map(canonical_key).collect();
    let mut seen = HashSet::new();
    let count = args
        .count
        .map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX));
    for p in &puzzles {
        if sink.written >= count {
            break;
        }
        // A position and its mirror image once; excluded ones not at all.
        let key = canonical_key(&p.position);
        if skip.contains(&key) || !seen.insert(key) {
            continue;
        }
        sink.put(p)?;
    }
    sink.out.flush()?;
    if let Some(e) = read_error {
        return Err(CliError::Input(e));
    }
    if bad > 0 {
        return Err(CliError::Input(format!(
            "{bad} lines of {path} could not be read as games (the others were read)"
        )));
    }
    Ok(())
}
