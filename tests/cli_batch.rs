//! `tsume solve` on many problems with several workers (`--jobs`): the
//! output is the same whatever the number of workers, in input order, bad
//! rows in their place; the summary; cores lent by idle workers;
//! `--start-line` for shards; Ctrl-C with two searches running; the
//! progress bar only on a terminal.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// Hard: the solver neither proves nor disproves these within a minute
/// (problems/nomate.tsv, cshogi's no-mate tests that hit its node limit).
const HARD: &str = "7nl/5Psk1/1+P1+P1p1pp/K3g4/6p1B/1SP4P1/PsS3P1P/1N7/+r6NL w GLrb2gnl6p 1";
const HARD2: &str = "l6GK/2p2+R1P1/p1nsp2+Sp/1p1p2s2/2+R2bk2/3P4P/P4+p1g1/2s6/L7L b B2GNL2n7p 1";
const NOMATE: &str = "8k/9/9/9/9/9/9/9/9 b Rr2b4g4s4n4l18p 1";
/// Mate in 1: G*5b.
const MATE1: &str = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";

fn tsume() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tsume"))
}

fn solve(args: &[&str]) -> Output {
    tsume()
        .arg("solve")
        .args(["--hash", "16"])
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the tsume binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// A file in the temporary directory, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, text: &str) -> TempFile {
        let path =
            std::env::temp_dir().join(format!("tsume-cli-batch-{}-{name}.tsv", std::process::id()));
        std::fs::write(&path, text).unwrap();
        TempFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Every 8th row of `problems/tanuki_generated.tsv` (mates in 1 to 11,
/// some rows with two pawns on a file, which are errors without
/// `--relaxed`), with a comment, a blank line, a malformed row, a position
/// without a king to mate and a no-mate row mixed in.
fn problem_file(name: &str) -> (TempFile, usize) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/tanuki_generated.tsv");
    let all = std::fs::read_to_string(path).expect("problems/tanuki_generated.tsv");
    let mut rows: Vec<String> = all.lines().step_by(8).map(str::to_string).collect();
    rows.insert(3, "# a comment".to_string());
    rows.insert(7, String::new());
    rows.insert(20, "4k4/9/4x4/9/9/9/9/9/9 b G 1\tbad".to_string());
    rows.insert(21, "9/9/9/9/9/9/9/9/4K4 b G 1\tno king".to_string());
    rows.insert(40, format!("{NOMATE}\t-1"));
    let problems = rows.len() - 2;
    (TempFile::new(name, &(rows.join("\n") + "\n")), problems)
}

/// The output with the timing fields zeroed: `"millis":N` in JSON records,
/// the `time` and `nps` lines of the text report.
fn without_timing(out: &str) -> String {
    out.lines()
        .filter(|l| !l.starts_with("time ") && !l.starts_with("nps "))
        .map(|l| match l.find("\"millis\":") {
            Some(at) => {
                let rest = &l[at + 9..];
                let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
                assert!(digits > 0, "{l}");
                format!("{}\"millis\":0{}", &l[..at], &rest[digits..])
            }
            None => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn records(out: &Output) -> Vec<Value> {
    text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

#[test]
fn output_is_the_same_whatever_the_jobs() {
    let (file, problems) = problem_file("jobs");
    for json in [true, false] {
        let mut outputs = Vec::new();
        for jobs in ["1", "2", "3"] {
            let mut args = vec!["--file", file.path(), "--jobs", jobs];
            if json {
                args.push("--json");
            }
            let out = solve(&args);
            let err = text(&out.stderr);
            // Bad rows: exit code 2 after solving the rest.
            assert_eq!(out.status.code(), Some(2), "{err}");
            assert!(err.contains(&format!(", jobs {jobs}\n")), "{err}");
            assert!(err.contains(" wall time "), "{err}");
            assert!(!err.contains('\r'), "no progress bar through a pipe");
            outputs.push(without_timing(&text(&out.stdout)));
            if json {
                let r = records(&out);
                assert_eq!(r.len(), problems);
                // In input order, bad rows in their place.
                let lines: Vec<u64> = r.iter().map(|r| r["line"].as_u64().unwrap()).collect();
                assert!(lines.windows(2).all(|w| w[0] < w[1]), "{lines:?}");
                let bad = r
                    .iter()
                    .position(|r| r["sfen"] == "4k4/9/4x4/9/9/9/9/9/9 b G 1");
                let bad = bad.expect("the malformed row is reported");
                assert_eq!(r[bad]["result"], "error");
                assert_eq!(r[bad + 1]["result"], "error");
                let error = r[bad + 1]["error"].as_str().unwrap();
                assert!(error.contains("no king"), "{error}");
                let nomate = r.iter().position(|r| r["sfen"] == NOMATE).unwrap();
                assert_eq!(r[nomate]["result"], "nomate");
                let count = |what: &str| r.iter().filter(|r| r["result"] == what).count();
                assert_eq!(count("unknown"), 0);
                let summary = format!(
                    "summary: solved {}, no mate 1, unknown 0, errors {}, nodes ",
                    count("mate"),
                    count("error")
                );
                assert!(err.contains(&summary), "{err}\nexpected {summary}");
                assert!(count("mate") > 200, "{}", count("mate"));
            }
        }
        assert_eq!(outputs[0], outputs[1], "jobs 1 and 2 (json {json})");
        assert_eq!(outputs[0], outputs[2], "jobs 1 and 3 (json {json})");
    }
}

/// The last long search of a file takes the core of the worker left
/// without a problem, and the summary says so; not with `--no-lending`.
#[test]
fn an_idle_worker_lends_its_core_unless_told_not_to() {
    let file = TempFile::new("lend", &format!("{HARD2}\n{MATE1}\n{MATE1}\n"));
    for (flag, lends) in [(None, true), (Some("--no-lending"), false)] {
        let mut args = vec!["--file", file.path(), "--jobs", "2", "--time", "1"];
        args.extend(flag);
        let err = text(&solve(&args).stderr);
        assert!(err.contains(", jobs 2"), "{err}");
        assert_eq!(err.contains(", helpers on lent cores 1\n"), lends, "{err}");
    }
}

#[test]
fn start_line_numbers_a_shard_as_in_the_whole_file() {
    let shard = TempFile::new(
        "shard",
        &format!("{NOMATE}\n\n4k4/9/4x4/9/9/9/9/9/9 b G 1\n"),
    );
    let out = solve(&["--file", shard.path(), "--json", "--start-line", "101"]);
    assert_eq!(out.status.code(), Some(2));
    let r = records(&out);
    assert_eq!(r.len(), 2);
    assert_eq!(r[0]["line"], 101);
    assert_eq!(r[1]["line"], 103);
    let error = r[1]["error"].as_str().unwrap();
    assert!(error.starts_with("line 103: "), "{error}");
    assert!(text(&out.stderr).contains("line 103"));
    let out = solve(&["--file", shard.path(), "--start-line", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    // Numbers that would overflow (or leave the integers JSON keeps exact)
    // are refused, not wrapped or saturated into repeated line numbers.
    for n in [
        "18446744073709551615",
        "4503599627370497",
        "99999999999999999999999",
    ] {
        let out = solve(&["--file", shard.path(), "--start-line", n]);
        assert_eq!(out.status.code(), Some(2), "{n}");
        assert!(out.stdout.is_empty(), "{n}");
        assert!(
            text(&out.stderr).contains("it must be at most 4503599627370496"),
            "{n}: {}",
            text(&out.stderr)
        );
    }
    let out = solve(&[
        "--file",
        shard.path(),
        "--json",
        "--start-line",
        "4503599627370496",
    ]);
    let r = records(&out);
    assert_eq!(r[1]["line"], 4503599627370498_u64);
}

#[test]
fn ctrl_c_stops_both_workers() {
    let mut child = tsume()
        .args([
            "solve", "--hash", "16", "--jobs", "2", "--json", HARD2, HARD, HARD2,
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tsume binary runs");
    // Long enough for both workers to start, even on a busy machine.
    std::thread::sleep(Duration::from_millis(1000));
    let sent = Instant::now();
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(kill.success());
    let mut status = None;
    while sent.elapsed() < Duration::from_secs(5) {
        if let Some(s) = child.try_wait().unwrap() {
            status = Some(s);
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let waited = sent.elapsed();
    if status.is_none() {
        let _ = child.kill();
    }
    let out = child.wait_with_output().unwrap();
    let err = text(&out.stderr);
    assert_eq!(status.and_then(|s| s.code()), Some(130), "{err}");
    assert!(waited < Duration::from_millis(500), "took {waited:?}");
    // Both running searches report what they know, in order; the third
    // problem never starts.
    let r = records(&out);
    assert_eq!(r.len(), 2, "{}", text(&out.stdout));
    for (record, sfen) in r.iter().zip([HARD2, HARD]) {
        assert_eq!(record["sfen"], sfen);
        assert_eq!(record["result"], "unknown");
        assert_eq!(record["limit"], "stopped");
    }
    assert!(
        err.contains("summary: solved 0, no mate 0, unknown 2, errors 0"),
        "{err}"
    );
    assert!(err.contains("jobs 2, interrupted"), "{err}");
}

#[test]
fn progress_bar_on_a_terminal_only() {
    // `script` runs the command on a pseudo-terminal.
    let (file, problems) = problem_file("progress");
    let command = format!(
        "{} solve --hash 16 --jobs 2 --json --file {} > /dev/null",
        env!("CARGO_BIN_EXE_tsume"),
        file.path()
    );
    let out = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("`script` (util-linux) runs");
    let screen = text(&out.stdout);
    // The first line is drawn at once, with the total counted beforehand.
    let first = format!("] 1/{problems} 0% ");
    assert!(screen.contains(&first), "{screen:?}");
    assert!(screen.contains("/s ETA "), "{screen:?}");
    // Taken off the screen before the summary.
    assert!(screen.contains("\r\x1b[2Ksummary: "), "{screen:?}");
    // Through a pipe (stdin closed too): no bar.
    let mut child = tsume()
        .args(["solve", "--hash", "16", "--json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    writeln!(child.stdin.take().unwrap(), "{NOMATE}").unwrap();
    let out = child.wait_with_output().unwrap();
    let err = text(&out.stderr);
    assert!(err.starts_with("summary: "), "{err:?}");
}

#[test]
fn results_stream_while_stdin_is_open() {
    let mut child = tsume()
        .args(["solve", "--hash", "16", "--jobs", "2", "--json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tsume binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if send.send(line.unwrap()).is_err() {
                return;
            }
        }
    });
    // Each answer comes out before the next line is written.
    for (sfen, result) in [(MATE1, "mate"), (NOMATE, "nomate"), (MATE1, "mate")] {
        writeln!(stdin, "{sfen}").unwrap();
        stdin.flush().unwrap();
        let line = receive
            .recv_timeout(Duration::from_secs(20))
            .expect("an answer while stdin is still open");
        let record: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(record["result"], result, "{line}");
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(receive.recv_timeout(Duration::from_secs(5)).is_err());
}

#[test]
fn one_long_search_shows_its_status_on_a_terminal() {
    // 将棋無双 第50番 (21 plies): the first proof's line, then the answer.
    let musou_050 = "9/4nR2g/9/7P+b/4p1s1P/6Bk1/6L+l1/9/6P1+R b 3S3g3n2l14p 1";
    let musou = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/problems/musou.tsv"))
        .unwrap();
    assert!(
        musou
            .lines()
            .any(|l| l.starts_with(musou_050) && l.contains("musou-050"))
    );
    let command = format!(
        "{} solve --hash 64 --nodes 1500000 '{musou_050}' > /dev/null",
        env!("CARGO_BIN_EXE_tsume")
    );
    let out = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("`script` (util-linux) runs");
    let screen = text(&out.stdout);
    assert!(screen.contains("elapsed 0:0"), "{screen:?}");
    assert!(screen.contains(" nodes, "), "{screen:?}");
    assert!(screen.contains(" nps, table "), "{screen:?}");
    // Once the first proof is found: its line, and the bound it gives
    // (then the bounds from below as the answer is read; the status is
    // drawn five times a second, so which of them show depends on the
    // machine's speed).
    assert!(screen.contains(", line "), "{screen:?}");
    assert!(
        screen.contains(", answer at most ") || screen.contains(" to "),
        "{screen:?}"
    );
    // Taken off the screen at the end; nothing drawn through a pipe.
    assert!(screen.ends_with("\r\x1b[2K"), "{screen:?}");
    let out = solve(&["--nodes", "200000", musou_050]);
    assert!(text(&out.stderr).is_empty(), "{}", text(&out.stderr));
}
