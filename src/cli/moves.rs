//! `tsume moves`: list the legal moves of a position.

use std::io::{self, Write};

use tsume::core::{Position, movegen};

use super::CliError;

/// List the legal moves of a position (all, checks only, or evasions)
///
/// Output: one move per line in USI notation (`7g7f`, `8h2b+`, `P*5e`),
/// sorted by the move's text, then a last line `count <number of moves>`.
///
/// Examples:
///
///   tsume moves startpos
///   tsume moves "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1" --checks
///   tsume moves 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1 --checks
///   tsume moves position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1 moves G*4b --evasions
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The position: `startpos`, an SFEN, `sfen <SFEN>`, or
    /// `position startpos|sfen <SFEN> moves ...`; the words may be given as
    /// one argument or several
    #[arg(required = true, num_args = 1.., value_name = "SFEN")]
    position: Vec<String>,

    /// Only the legal moves that give check
    #[arg(long, conflicts_with = "evasions")]
    checks: bool,

    /// Only the legal moves out of check (none when not in check)
    #[arg(long)]
    evasions: bool,
}

pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let pos: Position = super::read_position(&args.position, "<SFEN>")?;
    let list = if args.checks {
        movegen::check_moves(&pos)
    } else if args.evasions {
        if !pos.in_check() {
            let _ = writeln!(
                io::stderr(),
                "note: the side to move is not in check, so there are no evasions"
            );
        }
        movegen::evasion_moves(&pos)
    } else {
        movegen::legal_moves(&pos)
    };
    let mut moves: Vec<String> = list.iter().map(|m| m.to_string()).collect();
    moves.sort();
    for m in &moves {
        writeln!(out, "{m}")?;
    }
    writeln!(out, "count {}", moves.len())?;
    Ok(())
}
