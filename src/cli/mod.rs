//! The command line of the `tsume` binary: the subcommands (one file each),
//! reading positions from arguments, and reporting errors.
//!
//! Exit codes: 0 on success (and for `--help` / `--version`), 2 for bad
//! input (unknown option, malformed SFEN or move, ...), 1 when writing the
//! output fails, 3 when `verify` finds a problem unsound or `generate`
//! finds fewer puzzles than asked for, 130 when `solve` is stopped by
//! Ctrl-C. Nothing here panics on user input.

mod game;
mod generate;
mod moves;
mod perft;
mod progress;
mod record;
mod solve;
mod usi;
mod verify;

use std::fmt;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tsume::core::{Position, UsiPositionError};
use tsume::input;
use tsume::solver::defence::DefenceChoice;
use tsume::solver::interposition::UselessRule;
use tsume::verify::Convention;

/// A tsume-shogi (shogi mate problem) solver.
///
/// Positions are given as `startpos`, an SFEN (one quoted argument, or its
/// fields as separate arguments), an SFEN after the word `sfen`, or a USI
/// command such as `position startpos moves 7g7f 3c3d` or
/// `position sfen <SFEN> moves ...`.
#[derive(Parser)]
#[command(name = "tsume", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Perft(perft::Args),
    Moves(moves::Args),
    Solve(solve::Args),
    Verify(verify::Args),
    Game(game::Args),
    Usi(usi::Args),
    Generate(generate::Args),
}

/// What went wrong in a subcommand.
#[derive(Debug)]
pub enum CliError {
    /// Bad input from the user; the message names what and where.
    Input(String),
    /// Writing the output failed.
    Io(io::Error),
    /// Stopped by Ctrl-C; what was done has been reported.
    Interrupted,
    /// The work ran to its end but gave less than asked for (`generate`
    /// found fewer puzzles than `--count`); what was found is written.
    Incomplete(String),
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> CliError {
        CliError::Io(e)
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Input(msg) | CliError::Incomplete(msg) => f.write_str(msg),
            CliError::Io(e) => write!(f, "cannot write the output: {e}"),
            CliError::Interrupted => f.write_str("interrupted"),
        }
    }
}

/// Exit code when the work gave less than asked for
/// ([`CliError::Incomplete`]); the same as `verify`'s for an unsound
/// problem: done, but not what was hoped for.
pub const INCOMPLETE_EXIT: u8 = 3;

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    if let Some(code) = usi::without_subcommand() {
        return code;
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with code 0, usage errors to
            // stderr with code 2; a closed stream is not worth a panic.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    if let Command::Usi(args) = &cli.command {
        return usi::main(args);
    }
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let result = match &cli.command {
        Command::Perft(args) => perft::run(args, &mut out),
        Command::Moves(args) => moves::run(args, &mut out),
        Command::Solve(args) => solve::run(args, &mut out),
        Command::Game(args) => game::run(args, &mut out),
        Command::Usi(_) => Ok(()),
        Command::Generate(args) => generate::run(args, &mut out),
        Command::Verify(args) => match verify::run(args, &mut out) {
            Ok(true) => Ok(()),
            Ok(false) => {
                return match out.flush() {
                    Ok(()) => ExitCode::from(verify::UNSOUND_EXIT),
                    Err(_) => ExitCode::from(1),
                };
            }
            Err(e) => Err(e),
        },
    };
    let result = result.and_then(|()| out.flush().map_err(CliError::from));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`tsume moves ... | head`): not an error.
        Err(CliError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        // The summary has been printed.
        Err(CliError::Interrupted) => ExitCode::from(solve::INTERRUPTED_EXIT),
        Err(e) => {
            let _ = writeln!(io::stderr(), "error: {e}");
            ExitCode::from(match e {
                CliError::Input(_) => 2,
                CliError::Io(_) => 1,
                CliError::Incomplete(_) => INCOMPLETE_EXIT,
                CliError::Interrupted => solve::INTERRUPTED_EXIT,
            })
        }
    }
}

/// A clap value parser from a function whose error says what is wrong:
/// the message quotes at most [`input::QUOTE_CHARS`] characters of the
/// value (clap's own would echo a 100 KB argument whole).
#[derive(Clone)]
pub struct Checked<F>(pub F);

impl<T, F> clap::builder::TypedValueParser for Checked<F>
where
    F: Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static,
    T: Clone + Send + Sync + 'static,
{
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        let name = arg.map_or_else(|| "the value".to_string(), |a| format!("'{a}'"));
        let text = value.to_string_lossy();
        (self.0)(&text).map_err(|why| {
            clap::Error::raw(
                clap::error::ErrorKind::ValueValidation,
                format!(
                    "invalid value '{}' for {name}: {why}\n",
                    input::quote(&text)
                ),
            )
            .with_cmd(cmd)
        })
    }
}

/// A clap parser of whole numbers from `min` to `max`, for an argument
/// with `allow_negative_numbers = true`: a negative number is read as a
/// value (clap would take `-1` for an option and suggest `-- -1`) and told
/// to be at least `min`.
pub fn whole(
    min: u64,
    max: u64,
) -> Checked<impl Fn(&str) -> Result<u64, String> + Clone + Send + Sync + 'static> {
    Checked(move |s: &str| whole_number(s, min, max))
}

pub fn whole_number(s: &str, min: u64, max: u64) -> Result<u64, String> {
    let mut t = s.trim();
    if let Some(digits) = t.strip_prefix('-')
        && !digits.is_empty()
        && digits.bytes().all(|b| b == b'0')
    {
        // `-0` is 0.
        t = digits;
    }
    if let Some(digits) = t.strip_prefix('-')
        && !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(format!(
            "`{}` is negative: it must be at least {min}",
            input::quote(t)
        ));
    }
    let n: u64 = t.parse().map_err(|_| {
        if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
            format!(
                "`{}` is too large: it must be at most {max}",
                input::quote(t)
            )
        } else {
            format!("`{}` is not a whole number", input::quote(t))
        }
    })?;
    if n < min {
        return Err(format!("{n} is too small: it must be at least {min}"));
    }
    if n > max {
        return Err(format!("{n} is too large: it must be at most {max}"));
    }
    Ok(n)
}

/// `--useless-rule`: one of the solver's rules, by name.
pub fn useless_rule(s: &str) -> Result<UselessRule, String> {
    input::useless_rule(s)
}

/// `--defence`: one of the choices of defence, by name.
pub fn defence_choice(s: &str) -> Result<DefenceChoice, String> {
    input::defence_choice(s)
}

/// `--convention`: one of verify's conventions, by name.
pub fn convention(s: &str) -> Result<Convention, String> {
    input::convention(s)
}

/// For an argument that is no position: when it names a file (one word
/// that looks like a path, `problems/x.tsv`), the message that says to
/// give it with `--file`.
pub fn file_hint(text: &str) -> Option<String> {
    let t = text.trim();
    let looks_like_a_path = !t.is_empty()
        && !t.contains(char::is_whitespace)
        && (t.contains(['/', '\\', '.']) || std::path::Path::new(t).extension().is_some());
    (looks_like_a_path && std::path::Path::new(t).is_file()).then(|| {
        format!(
            "`{}` is a file, not a position: to solve the problems in it, give `--file {}`",
            input::quote(t),
            input::quote(t)
        )
    })
}

/// Reads a position from command-line words (joined with single spaces):
/// `startpos`, a bare SFEN, `sfen <SFEN>`, or `[position] startpos|sfen
/// <SFEN> [moves ...]` (see [`tsume::input`]). `what` names the argument in
/// error messages.
pub fn read_position(words: &[String], what: &str) -> Result<Position, CliError> {
    let text = words.join(" ");
    if text.trim().is_empty() {
        return Err(CliError::Input(format!(
            "the position given as {what} is empty: expected `startpos` or an SFEN"
        )));
    }
    input::read_position(&text, false)
        .map(|usi| usi.end)
        .map_err(|e| CliError::Input(describe_position_error(what, &text, &e)))
}

/// The error message for an unreadable position: what is wrong, the input
/// (at most [`input::QUOTE_CHARS`] characters of it, around the column),
/// and a caret under the column when the error has one.
fn describe_position_error(what: &str, text: &str, e: &UsiPositionError) -> String {
    let mut msg = format!("cannot read the position given as {what}: {e}");
    msg.push_str(&show_text(text, e.column()));
    if let Some(column) = e.column()
        && !e.to_string().contains("column")
    {
        msg.push_str(&format!(" column {column}"));
    }
    msg
}

/// The lines that show an input under an error message: an excerpt of
/// `text` around `column` and a caret under the column when there is one.
pub fn show_text(text: &str, column: Option<usize>) -> String {
    // A TAB shown as one space keeps the caret under its column.
    let (shown, at) = input::excerpt(&text.trim_end().replace('\t', " "), column);
    let mut lines = format!("\n  {shown}");
    if let Some(at) = at {
        lines.push_str(&format!("\n  {:>1$}", "^", at));
    }
    lines
}
