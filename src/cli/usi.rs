//! `tsume usi`: the USI mate engine on standard input and output (see
//! [`tsume::usi`]). A GUI starts an engine without arguments, so `tsume`
//! without a subcommand is the engine too when its first line of input is
//! `usi` (and its input is not a terminal).

use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::process::ExitCode;

/// Run as a USI mate engine for shogi GUIs (`go mate` on stdin/stdout)
///
/// ShogiHome, ShogiGUI and 将棋所 drive it with `go mate <ms>|infinite` over
/// standard input and output.
///
/// Commands: usi, isready, setoption, usinewgame, position, go mate, go,
/// stop, ponderhit, gameover, quit. `go mate` is answered by `checkmate
/// <moves>`, `checkmate nomate` or `checkmate timeout`; a plain `go` (btime,
/// wtime, binc, winc, byoyomi, movetime, nodes, depth, infinite, ponder) by
/// `bestmove <move>` when the side to move mates, else `bestmove resign`.
/// Every go is answered, in order, also one that cannot be read (then with
/// `info string error: ...` and `checkmate timeout` / `bestmove resign`).
/// A go, quit or the end of the input while a search runs waits for its
/// answer when it has a time or node limit, and stops it when it has none;
/// stop and gameover stop it, and it answers.
///
/// Options (`setoption name NAME value VALUE`):
///   USI_Hash        the table's most memory in MB (default 256)
///   USI_Ponder      name a ponder move after bestmove (default false)
///   MateNodes       a node limit per search, 0 = none (default 0)
///   ShortestAnswer  read the tsume answer after the proof (default true);
///                   false: the first proof's line at once
///   UselessRule     which interpositions count (combo; the values of
///                   `tsume solve --useless-rule`); default none: every
///                   interposition counts, so a mate ends in checkmate on
///                   the board (tsume solve keeps within-other-defences)
///   DefenceChoice   which defence the main line follows: longest (default)
///                   or empty-hand-first (as `tsume solve --defence`)
///
/// Lines that cannot be read (bad values, positions, lines over 1 MB, bytes
/// that are not UTF-8) are answered with `info string error: ...` and the
/// engine goes on.
///
/// GUIs start engines without arguments: `tsume` without a subcommand acts
/// as this engine when the first line it reads is `usi`.
///
/// Example:
///
///   printf 'usi\nposition sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1\ngo mate 1000\n' | tsume usi
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {}

/// Runs the engine with `args`.
pub fn main(_args: &Args) -> ExitCode {
    serve(None)
}

/// When `tsume` was started without arguments by a program (input not a
/// terminal) and the first line it reads is `usi`: runs the engine and
/// returns its exit code. Otherwise `None` (the line read is then lost; the
/// caller reports the missing subcommand).
pub fn without_subcommand() -> Option<ExitCode> {
    if std::env::args_os().len() != 1 || io::stdin().is_terminal() {
        return None;
    }
    let mut line = Vec::new();
    loop {
        line.clear();
        // The lock is let go before the engine takes stdin again. A line
        // longer than this is no `usi`: at most this much is read.
        let read = io::stdin().lock().take(256).read_until(b'\n', &mut line);
        let text = String::from_utf8_lossy(&line);
        match read {
            Ok(0) | Err(_) => return None,
            Ok(_) if !line.ends_with(b"\n") && line.len() == 256 => return None,
            Ok(_) if text.trim().is_empty() => continue,
            Ok(_) if text.trim() == "usi" => return Some(serve(Some(text.into_owned()))),
            Ok(_) => return None,
        }
    }
}

/// Runs the engine on stdin and stdout, `first` being a line already read.
fn serve(first: Option<String>) -> ExitCode {
    let input = io::Cursor::new(first.unwrap_or_default()).chain(io::stdin().lock());
    match tsume::usi::run(input, io::stdout()) {
        Ok(_) => ExitCode::SUCCESS,
        // The GUI went away: nothing to report to.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(io::stderr(), "error: USI engine: {e}");
            ExitCode::from(1)
        }
    }
}
