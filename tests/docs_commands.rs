//! The commands shown in README.md and docs/*.md, run against the built
//! binary, so that none can go stale.
//!
//! Fenced blocks are read by their info string:
//!
//! - ```` ```console ````: usage examples, all run. A line `$ COMMAND`
//!   (continued on the next line after a trailing `\`) is run by bash in an
//!   empty directory where `problems/` and `examples/` are the repository's,
//!   with this build's `tsume` first on the PATH; `cargo run --release --`
//!   is run as that `tsume`. An optional line `? N` after the command is the
//!   exit code it must give (default 0). The lines after it, up to the next
//!   `$` line, are its stdout, compared line by line (a command shows its
//!   stderr with `2>&1`). In the shown output a line `...` stands for any
//!   number of lines and `[..]` for any text within a line: for times,
//!   rates and node counts that vary.
//! - ```` ```sh ````: setting up (installing, building, `.ci/run`) and the
//!   Dask examples of docs/python.md (their scripts are run by
//!   examples/distributed/test.sh and generate_test.sh), not run here; no
//!   line of one may start a `tsume` command, so no usage example hides
//!   there.
//! - ```` ```text ````: output, usage lines and, in docs/measurements.md
//!   only, measurement recipes on problem sets outside the repository, which
//!   take minutes to hours and are not run; elsewhere no line of one may
//!   start a `tsume` command.
//! - ```` ```python ````: doctests, run by python/tests/test_docs.py.
//!
//! Every option (`--name`) the pages name must be one a `tsume` command
//! lists in its `--help`, or one of the few of other tools listed below.
#![cfg(unix)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Options the pages name that belong to other tools: cargo, the Dask
/// examples' scripts, and the oracle scripts outside the repository that
/// docs/measurements.md cites.
const OTHER_TOOLS_OPTIONS: &[&str] = &[
    "--release",
    "--profile",
    "--path",
    "--bench",
    "--example",
    "--open",
    "--no-deps",
    "--all-targets",
    "--check",
    "--tsume",
    "--workers",
    "--scheduler",
    "--shard-lines",
    "--shards",
    "--engine",
    "--depth",
];

struct Block {
    page: String,
    /// The line of the opening fence, from 1.
    line: usize,
    info: String,
    lines: Vec<String>,
}

fn pages() -> Vec<PathBuf> {
    let mut pages = vec![Path::new(ROOT).join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(Path::new(ROOT).join("docs"))
        .expect("docs/")
        .map(|e| e.expect("a docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

fn page_name(path: &Path) -> String {
    path.strip_prefix(ROOT)
        .unwrap_or(path)
        .display()
        .to_string()
}

fn blocks(path: &Path) -> Vec<Block> {
    let text = std::fs::read_to_string(path).expect("a page");
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => {
                open = Some(Block {
                    page: page_name(path),
                    line: i + 1,
                    info: info.trim().to_string(),
                    lines: Vec::new(),
                });
            }
            (Some(_), Some("")) => out.push(open.take().expect("an open block")),
            (Some(block), _) => block.lines.push(line.to_string()),
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "{}: a block is not closed", page_name(path));
    out
}

/// One `$` command of a console block and what it must give.
struct Example {
    at: String,
    command: String,
    code: i32,
    expected: Vec<String>,
}

fn examples(block: &Block) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut lines = block.lines.iter().enumerate().peekable();
    while let Some((i, line)) = lines.next() {
        if let Some(command) = line.strip_prefix("$ ") {
            let mut command = command.to_string();
            while command.ends_with('\\') {
                command.pop();
                let (_, next) = lines.next().expect("a continued command goes on");
                command.push_str(next);
            }
            let mut code = 0;
            if let Some((_, l)) = lines.peek()
                && let Some(c) = l.strip_prefix("? ")
            {
                code = c.trim().parse().expect("`? N`: an exit code");
                lines.next();
            }
            out.push(Example {
                at: format!("{}:{}", block.page, block.line + 1 + i),
                command,
                code,
                expected: Vec::new(),
            });
        } else {
            let example = out.last_mut().unwrap_or_else(|| {
                panic!(
                    "{}:{}: a console block starts with `$ `",
                    block.page,
                    block.line + 1 + i
                )
            });
            example.expected.push(line.clone());
        }
    }
    out
}

/// Whether `line` matches `pattern`, where `[..]` is any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split("[..]").collect();
    if parts.len() == 1 {
        return pattern == line;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !line.starts_with(first) || line.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &line[first.len()..line.len() - last.len()];
    if !line.ends_with(last) {
        return false;
    }
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Whether `lines` match `pattern`, where a line `...` is any lines.
fn lines_match(pattern: &[String], lines: &[&str]) -> bool {
    match pattern.split_first() {
        None => lines.is_empty(),
        Some((p, rest)) if p == "..." => (0..=lines.len()).any(|k| lines_match(rest, &lines[k..])),
        Some((p, rest)) => lines
            .split_first()
            .is_some_and(|(l, more)| line_matches(p, l) && lines_match(rest, more)),
    }
}

/// Whether a line of a `sh` or `text` block starts a tsume command.
fn runs_tsume(line: &str) -> bool {
    let line = line.trim_start().trim_start_matches("$ ");
    line.starts_with("tsume ") || line.contains("| tsume ") || line.starts_with("cargo run")
}

/// A fresh directory to run the examples in: `problems/` and `examples/`
/// link to the repository's, files the examples write stay here.
fn workdir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tsume-docs-commands-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a work directory");
    for name in ["problems", "examples"] {
        std::os::unix::fs::symlink(Path::new(ROOT).join(name), dir.join(name))
            .expect("a link into the repository");
    }
    dir
}

fn run(example: &Example, dir: &Path) -> (i32, String) {
    let bin = Path::new(env!("CARGO_BIN_EXE_tsume"));
    let path = format!(
        "{}:{}",
        bin.parent().expect("the binary's directory").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let command = example.command.replace("cargo run --release --", "tsume");
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!("set -o pipefail; {command}"))
        .current_dir(dir)
        .env("PATH", path)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8(out.stdout).expect("stdout is UTF-8");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{}: {stderr}", example.at);
    (out.status.code().unwrap_or(-1), stdout)
}

#[test]
fn the_commands_shown_give_what_is_shown() {
    let started = Instant::now();
    let dir = workdir();
    let mut failures = Vec::new();
    let mut ran = BTreeSet::new();
    let mut count = 0;
    let mut slowest = Vec::new();
    for page in pages() {
        for block in blocks(&page).iter().filter(|b| b.info == "console") {
            for example in examples(block) {
                assert!(
                    example.command.contains("tsume") || example.command.contains("cargo run"),
                    "{}: `{}` does not run tsume",
                    example.at,
                    example.command
                );
                let began = Instant::now();
                let (code, stdout) = run(&example, &dir);
                slowest.push((began.elapsed().as_secs_f64(), example.at.clone()));
                count += 1;
                ran.insert(block.page.clone());
                let lines: Vec<&str> = stdout.lines().collect();
                if code != example.code || !lines_match(&example.expected, &lines) {
                    failures.push(format!(
                        "{}: `{}`\nexit code {code} (shown: {})\nstdout:\n{stdout}\nshown:\n{}\n",
                        example.at,
                        example.command,
                        example.code,
                        example.expected.join("\n")
                    ));
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for page in [
        "README.md",
        "docs/solve.md",
        "docs/verify.md",
        "docs/generate.md",
        "docs/usi.md",
    ] {
        assert!(ran.contains(page), "{page} shows no command: {ran:?}");
    }
    slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
    slowest.truncate(3);
    eprintln!(
        "{count} commands of {} pages in {:.1} s; the slowest: {slowest:.2?}",
        ran.len(),
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn no_usage_example_hides_in_a_block_that_is_not_run() {
    for page in pages() {
        for block in blocks(&page) {
            let allowed = match block.info.as_str() {
                "sh" => false,
                "text" => block.page == "docs/measurements.md",
                _ => continue,
            };
            for line in &block.lines {
                assert!(
                    allowed || !runs_tsume(line),
                    "{}:{}: `{line}` runs tsume in a ```{} block, which is not run: \
                     make it a ```console example",
                    block.page,
                    block.line,
                    block.info
                );
            }
        }
    }
}

#[test]
fn every_block_says_what_it_is() {
    for page in pages() {
        for block in blocks(&page) {
            assert!(
                ["console", "sh", "text", "python", "rust", "json"].contains(&block.info.as_str()),
                "{}:{}: a block with info string `{}`: use console (run), sh (set-up), \
                 text (output), python (doctests), rust or json",
                block.page,
                block.line,
                block.info
            );
        }
    }
}

/// The options `tsume` and its subcommands list in their `--help`.
fn known_options() -> BTreeSet<String> {
    let mut known = BTreeSet::new();
    for command in [
        "", "perft", "moves", "solve", "verify", "game", "usi", "generate",
    ] {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_tsume"));
        if !command.is_empty() {
            cmd.arg(command);
        }
        let out = cmd.arg("--help").output().expect("tsume --help runs");
        let help = String::from_utf8(out.stdout).expect("help is UTF-8");
        known.extend(options_in(&help));
    }
    assert!(known.contains("--useless-rule") && known.contains("--plies"));
    known
}

/// The `--name` words of `text`.
fn options_in(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("--") {
        let name: String = rest[at + 2..]
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-')
            .collect();
        let before = rest[..at].chars().last();
        if name.len() > 1
            && name.as_bytes()[0].is_ascii_lowercase()
            && !before.is_some_and(|c| c.is_alphanumeric() || c == '-')
        {
            out.push(format!("--{name}"));
        }
        rest = &rest[at + 2 + name.len()..];
    }
    out
}

#[test]
fn every_option_named_exists() {
    let known = known_options();
    let mut unknown = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("a page");
        for (i, line) in text.lines().enumerate() {
            for option in options_in(line) {
                if !known.contains(&option) && !OTHER_TOOLS_OPTIONS.contains(&option.as_str()) {
                    unknown.push(format!("{}:{}: {option}", page_name(&page), i + 1));
                }
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "options no command has:\n{}",
        unknown.join("\n")
    );
}

#[test]
fn the_matcher_elides_only_what_it_is_shown() {
    let p = |s: &[&str]| s.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(lines_match(&p(&["a", "...", "d"]), &["a", "b", "c", "d"]));
    assert!(lines_match(&p(&["a", "...", "d"]), &["a", "d"]));
    assert!(!lines_match(&p(&["a", "...", "d"]), &["a", "b"]));
    assert!(!lines_match(&p(&["a"]), &["a", "b"]));
    assert!(line_matches("time [..] s", "time 0.003 s"));
    assert!(!line_matches("time [..] s", "nodes 3"));
    assert!(line_matches("[..]x[..]y", "1x2y"));
    assert!(!line_matches("[..]x[..]y", "1y2x"));
    assert!(!line_matches("ab[..]ba", "aba"));
    assert_eq!(
        options_in("`--hash MB`, --no-defender-hand x--y a - --"),
        ["--hash", "--no-defender-hand"]
    );
}
