//! `tsume perft`: count the leaves of the legal move tree, timed.

use std::io::Write;
use std::time::{Duration, Instant};

use tsume::core::{Position, perft};

use super::CliError;

/// Count the leaf nodes of the legal move tree to a depth (perft), timed
///
/// Output, one `key value` per line:
///
///   nodes 19861490
///   time 105.123 ms
///   nps 188934512
///
/// With --divide, first one line `<move> <count>` per legal first move (USI,
/// sorted by the move's text), then `moves <number of first moves>`, then
/// the lines above (nodes is the sum of the counts).
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Depth in plies (0 counts the position itself: 1)
    depth: u32,

    /// The position (default: startpos): `startpos`, an SFEN, `sfen <SFEN>`,
    /// or `position startpos|sfen <SFEN> moves ...`; the words may be given
    /// as one argument or several (then after the depth, as the words up to
    /// the next option are taken)
    #[arg(long, num_args = 1.., value_name = "SFEN")]
    sfen: Vec<String>,

    /// Print the count below each legal first move, then the total
    #[arg(long)]
    divide: bool,
}

pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let mut pos = if args.sfen.is_empty() {
        Position::startpos()
    } else {
        super::read_position(&args.sfen, "--sfen")?
    };
    let nodes;
    let elapsed;
    if args.divide {
        if args.depth == 0 {
            return Err(CliError::Input(
                "--divide needs a depth of at least 1 (depth 0 has no first moves)".to_string(),
            ));
        }
        let start = Instant::now();
        let split = perft::divide(&mut pos, args.depth);
        elapsed = start.elapsed();
        let mut lines: Vec<(String, u64)> =
            split.iter().map(|&(m, n)| (m.to_string(), n)).collect();
        lines.sort();
        for (m, n) in &lines {
            writeln!(out, "{m} {n}")?;
        }
        writeln!(out, "moves {}", lines.len())?;
        nodes = lines.iter().map(|&(_, n)| n).sum();
    } else {
        let start = Instant::now();
        nodes = perft::perft(&mut pos, args.depth);
        elapsed = start.elapsed();
    }
    writeln!(out, "nodes {nodes}")?;
    write_timing(out, nodes, elapsed)?;
    Ok(())
}

fn write_timing(out: &mut dyn Write, nodes: u64, elapsed: Duration) -> std::io::Result<()> {
    let secs = elapsed.as_secs_f64();
    writeln!(out, "time {:.3} ms", secs * 1e3)?;
    if secs > 0.0 {
        writeln!(out, "nps {:.0}", nodes as f64 / secs)
    } else {
        writeln!(out, "nps -")
    }
}
