//! Running the `tsume` binary as a user would.

use std::process::{Command, Output};

/// Runs `tsume` with `args`.
pub fn tsume(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tsume"))
        .args(args)
        .output()
        .expect("the tsume binary runs")
}

/// Runs a command that must succeed; returns its stdout.
pub fn ok(args: &[&str]) -> String {
    let out = tsume(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

/// Runs a command that must fail with exit code 2 and nothing on stdout;
/// returns its stderr.
pub fn bad(args: &[&str]) -> String {
    let out = tsume(args);
    let stderr = String::from_utf8(out.stderr).expect("stderr is UTF-8");
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    stderr
}

/// The value of the `key value` line with this key.
pub fn value(stdout: &str, key: &str) -> String {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(' '))
        .unwrap_or_else(|| panic!("no `{key}` line in\n{stdout}"))
        .to_string()
}

/// Runs `tsume` with `args` (shell words) on a pseudo-terminal (`script`,
/// from util-linux), its standard output thrown away: what a user sees on
/// the terminal (standard error, with its escape codes).
pub fn on_terminal(args: &str) -> String {
    let command = format!("{} {args} > /dev/null", env!("CARGO_BIN_EXE_tsume"));
    let out = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("`script` (util-linux) runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}
