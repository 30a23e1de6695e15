//! The `tsume` command line; see `tsume --help` and `src/cli/`.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
