//! `tsume solve`, run as a user would: problems from arguments, files and
//! stdin, the JSON records, bad lines, the time limit and Ctrl-C.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use tsume::core::{Color, Move, Position, UsiPosition};
use tsume::record::notation::japanese_line;
use tsume::solver::is_mating_line;

/// Mate in 1: G*5b.
const MATE1: &str = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
/// Mate in 3: 9f5b+ 4a5b S*4b.
const MATE3: &str = "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1";
/// No mate: a lone rook in hand against a king in the corner.
const NOMATE: &str = "8k/9/9/9/9/9/9/9/9 b Rr2b4g4s4n4l18p 1";
/// Hard: the solver neither proves nor disproves these within a minute
/// (problems/nomate.tsv, cshogi's no-mate tests that hit its node limit).
const HARD: &str = "7nl/5Psk1/1+P1+P1p1pp/K3g4/6p1B/1SP4P1/PsS3P1P/1N7/+r6NL w GLrb2gnl6p 1";
const HARD2: &str = "l6GK/2p2+R1P1/p1nsp2+Sp/1p1p2s2/2+R2bk2/3P4P/P4+p1g1/2s6/L7L b B2GNL2n7p 1";

fn tsume() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tsume"))
}

/// Runs `tsume solve ARGS` with a small table, stdin closed.
fn solve(args: &[&str]) -> Output {
    tsume()
        .arg("solve")
        .args(["--hash", "16"])
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the tsume binary runs")
}

/// Runs `tsume solve ARGS` with `input` on stdin.
fn solve_stdin(args: &[&str], input: &str) -> Output {
    let mut child = tsume()
        .arg("solve")
        .args(["--hash", "16"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tsume binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("stderr is UTF-8")
}

/// The JSON records of a `--json` run, one per line.
fn records(out: &Output) -> Vec<Value> {
    stdout(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

/// The record's moves, read back in the position its `sfen` names.
fn moves_of(record: &Value) -> (Position, Vec<Move>) {
    let pos = Position::from_sfen_relaxed(record["sfen"].as_str().unwrap()).unwrap();
    let moves = record["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().parse::<Move>().unwrap())
        .collect();
    (pos, moves)
}

/// Checks a mate record: `length` plies that mate, the attacker to move.
fn assert_mate(record: &Value, length: usize) {
    assert_eq!(record["result"], "mate", "{record}");
    assert_eq!(record["length"], length, "{record}");
    let (pos, moves) = moves_of(record);
    assert_eq!(moves.len(), length, "{record}");
    assert!(
        is_mating_line(&pos, &moves, pos.side_to_move()),
        "not a mate: {record}"
    );
}

/// A file in the temporary directory, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, text: &str) -> TempFile {
        let path =
            std::env::temp_dir().join(format!("tsume-cli-solve-{}-{name}.tsv", std::process::id()));
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

#[test]
fn mate_in_one_as_json() {
    let out = solve(&[MATE1, "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let r = records(&out);
    assert_eq!(r.len(), 1);
    let rec = r[0].as_object().unwrap();
    let mut keys: Vec<&str> = rec.keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "exact", "length", "millis", "moves", "nodes", "result", "sfen"
        ],
        "{}",
        r[0]
    );
    assert_eq!(r[0]["exact"], true);
    assert_eq!(r[0]["sfen"], MATE1);
    assert_eq!(r[0]["result"], "mate");
    assert_eq!(r[0]["length"], 1);
    assert_eq!(r[0]["moves"], serde_json::json!(["G*5b"]));
    assert!(r[0]["nodes"].as_u64().unwrap() >= 1);
    assert!(r[0]["millis"].as_u64().is_some());
    assert_mate(&r[0], 1);
}

#[test]
fn mate_in_three_as_json() {
    let out = solve(&[MATE3, "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let r = records(&out);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0]["sfen"], MATE3);
    assert_mate(&r[0], 3);
    assert_eq!(r[0]["moves"][0], "9f5b+", "{}", r[0]);
    assert!(r[0].get("limit").is_none() && r[0].get("line").is_none());
}

#[test]
fn no_mate() {
    let out = solve(&[NOMATE, "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let r = records(&out);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0]["result"], "nomate");
    assert_eq!(r[0]["length"], Value::Null);
    assert_eq!(r[0]["moves"], serde_json::json!([]));
    assert!(r[0].get("limit").is_none());

    let out = solve(&[NOMATE]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.lines().any(|l| l == "no mate"), "{text}");
}

#[test]
fn text_report() {
    let out = solve(&[MATE3]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let pos: Position = MATE3.parse().unwrap();
    assert!(text.contains(&pos.diagram()), "{text}");
    let line = |key: &str| -> &str {
        text.lines()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix(' '))
            .unwrap_or_else(|| panic!("no `{key}` line in\n{text}"))
    };
    assert_eq!(line("sfen"), MATE3);
    assert!(text.lines().any(|l| l == "mate in 3"), "{text}");
    let moves: Vec<Move> = line("usi").split(' ').map(|m| m.parse().unwrap()).collect();
    assert!(is_mating_line(&pos, &moves, Color::Black));
    assert_eq!(
        line("japanese"),
        japanese_line(&pos, &moves, None).unwrap(),
        "{text}"
    );
    assert!(line("japanese").starts_with("▲５二角成"), "{text}");
    line("nodes").parse::<u64>().unwrap();
    assert!(line("time").ends_with(" s"));
    let nps = line("nps");
    assert!(nps == "-" || nps.parse::<f64>().is_ok(), "{text}");
}

#[test]
fn sfen_split_over_arguments() {
    let mut args: Vec<&str> = MATE1.split(' ').collect();
    args.extend(NOMATE.split(' '));
    args.push(MATE3);
    args.push("--json");
    let out = solve(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let r = records(&out);
    assert_eq!(r.len(), 3, "{}", stdout(&out));
    assert_mate(&r[0], 1);
    assert_eq!(r[1]["result"], "nomate");
    assert_mate(&r[2], 3);
    // Several problems: a summary on stderr.
    assert!(stderr(&out).contains("summary: solved 2, no mate 1"));
}

#[test]
fn file_with_a_bad_line_in_the_middle() {
    let bad = "4k4/9/4x4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
    let file = TempFile::new(
        "bad-line",
        &format!("# a comment\n{MATE1}\t1\tG*5b\tname\n\n{bad}\t1\n{NOMATE}\t-1\r\n{MATE3}\n"),
    );
    let out = solve(&["--file", file.path(), "--json"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let r = records(&out);
    assert_eq!(r.len(), 4, "{}", stdout(&out));
    assert_eq!(r[0]["line"], 2);
    assert_mate(&r[0], 1);
    assert_eq!(r[1]["line"], 4);
    assert_eq!(r[1]["result"], "error");
    assert_eq!(r[1]["sfen"], bad);
    let error = r[1]["error"].as_str().unwrap();
    assert!(error.starts_with("line 4: "), "{error}");
    assert!(error.contains("`x` at column 8"), "{error}");
    assert_eq!(r[2]["line"], 5);
    assert_eq!(r[2]["result"], "nomate");
    assert_eq!(r[3]["line"], 6);
    assert_mate(&r[3], 3);
    let err = stderr(&out);
    assert!(
        err.contains("summary: solved 2, no mate 1, unknown 0, errors 1, nodes "),
        "{err}"
    );

    // The text report: the error on stderr with a caret, the rest solved.
    let out = solve(&["--file", file.path()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("error: line 4: bad SFEN: unknown letter `x` at column 8"),
        "{err}"
    );
    assert!(err.contains(&format!("\n  {bad}\n  {:>8}\n", "^")), "{err}");
    let text = stdout(&out);
    assert_eq!(text.matches("\nsfen ").count(), 3, "{text}");
    assert!(text.contains("== line 6 =="), "{text}");
}

#[test]
fn problems_from_stdin() {
    let input = format!("{MATE1}\n# skipped\n   \nsfen {MATE3}\tthe rest\n");
    for args in [&["-", "--json"][..], &["--file", "-", "--json"][..]] {
        let out = solve_stdin(args, &input);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let r = records(&out);
        assert_eq!(r.len(), 2, "{}", stdout(&out));
        assert_eq!(r[0]["line"], 1);
        assert_mate(&r[0], 1);
        assert_eq!(r[1]["line"], 4);
        assert_mate(&r[1], 3);
    }
    let out = solve_stdin(&[], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("nothing to solve"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn usi_position_commands() {
    let usi = format!("position sfen {MATE3} moves 9f5b+ 4a5b");
    let input = format!("{usi}\nposition startpos moves 7g7f 3c3d\n");
    let out = solve_stdin(&["-", "--json"], &input);
    assert!(out.status.success(), "{}", stderr(&out));
    let r = records(&out);
    assert_eq!(r.len(), 2);
    // The problem is the position after the moves.
    let after = usi.parse::<UsiPosition>().unwrap().end;
    assert_eq!(r[0]["sfen"], after.to_string());
    assert_mate(&r[0], 1);
    assert_eq!(r[0]["moves"], serde_json::json!(["S*4b"]));
    assert_eq!(r[1]["result"], "nomate");

    // An illegal move is an error naming the move and its column.
    let out = solve(&[&format!("position sfen {MATE3} moves 9f5b+ 4a4b"), "--json"]);
    assert_eq!(out.status.code(), Some(2));
    let r = records(&out);
    let error = r[0]["error"].as_str().unwrap();
    assert!(error.contains("move 2 (column 70)"), "{error}");
}

#[test]
fn defender_to_move() {
    // After 9f5b+ White is in check, and mated in two more plies.
    let check = format!("position sfen {MATE3} moves 9f5b+");
    let out = solve(&[&check, "--defender", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let r = records(&out);
    assert_eq!(r[0]["result"], "mate");
    assert_eq!(r[0]["length"], 2, "{}", r[0]);
    let (pos, moves) = moves_of(&r[0]);
    assert!(is_mating_line(&pos, &moves, Color::Black));

    // Not in check: an error for that problem.
    let out = solve(&["startpos", "--defender", "--json"]);
    assert_eq!(out.status.code(), Some(2));
    let error = records(&out)[0]["error"].as_str().unwrap().to_string();
    assert!(error.contains("not in check"), "{error}");
}

#[test]
fn relaxed_positions() {
    // Two black pawns on file 9.
    let nifu = "k8/9/P8/9/9/9/P8/9/9 b G 1";
    let out = solve(&[nifu, "--json"]);
    assert_eq!(out.status.code(), Some(2));
    let error = records(&out)[0]["error"].as_str().unwrap().to_string();
    assert!(error.contains("--relaxed"), "{error}");
    let out = solve(&[nifu, "--json", "--relaxed"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_mate(&records(&out)[0], 1);
}

#[test]
fn node_limit() {
    let out = solve(&[HARD, "--nodes", "1000", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let r = records(&out);
    assert_eq!(r[0]["result"], "unknown");
    assert_eq!(r[0]["limit"], "nodes");
    assert_eq!(r[0]["length"], Value::Null);
    assert!(r[0]["nodes"].as_u64().unwrap() <= 1000 + 256, "{}", r[0]);
}

#[test]
fn time_limit_is_kept() {
    let start = Instant::now();
    let out = solve(&[HARD, "--time", "0.5", "--json"]);
    let wall = start.elapsed();
    assert!(out.status.success(), "{}", stderr(&out));
    let r = records(&out);
    assert_eq!(r[0]["result"], "unknown", "{}", r[0]);
    assert_eq!(r[0]["limit"], "time");
    let millis = r[0]["millis"].as_u64().unwrap();
    assert!((500..600).contains(&millis), "{}", r[0]);
    assert!(wall < Duration::from_millis(600), "took {wall:?}");

    let out = solve(&[HARD, "--time", "0.5"]);
    assert!(
        stdout(&out).lines().any(|l| l == "unknown (time limit)"),
        "{}",
        stdout(&out)
    );
}

/// Waits up to `limit` for the child to exit; kills it after that.
fn wait_at_most(child: &mut Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

#[test]
fn ctrl_c_stops_the_search() {
    let mut child = tsume()
        .args([
            "solve", "--hash", "16", "--jobs", "1", "--time", "60", "--json", HARD2, HARD,
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tsume binary runs");
    std::thread::sleep(Duration::from_millis(500));
    let sent = Instant::now();
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(kill.success());
    let status = wait_at_most(&mut child, Duration::from_secs(5));
    let waited = sent.elapsed();
    let out = child.wait_with_output().unwrap();
    let status = status.expect("tsume exits after SIGINT");
    assert_eq!(status.code(), Some(130), "{}", stderr(&out));
    assert!(waited < Duration::from_millis(500), "took {waited:?}");
    // The first search reports what it knows; the second never starts.
    let r = records(&out);
    assert_eq!(r.len(), 1, "{}", stdout(&out));
    assert_eq!(r[0]["result"], "unknown");
    assert_eq!(r[0]["limit"], "stopped");
    assert!(r[0]["nodes"].as_u64().unwrap() > 0);
    let err = stderr(&out);
    assert!(
        err.contains("summary: solved 0, no mate 0, unknown 1, errors 0"),
        "{err}"
    );
    assert!(err.contains("interrupted"), "{err}");
}

#[test]
fn ctrl_c_while_waiting_for_stdin() {
    let mut child = tsume()
        .args(["solve", "--hash", "16", "--json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tsume binary runs");
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "{MATE1}").unwrap();
    stdin.flush().unwrap();
    // The pipe stays open: tsume waits for the next line.
    std::thread::sleep(Duration::from_millis(300));
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(kill.success());
    let status = wait_at_most(&mut child, Duration::from_secs(5));
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(status.and_then(|s| s.code()), Some(130), "{}", stderr(&out));
    let r = records(&out);
    assert_eq!(r.len(), 1);
    assert_mate(&r[0], 1);
    let err = stderr(&out);
    assert!(err.contains("summary: solved 1, no mate 0"), "{err}");
}

#[test]
fn usage_errors() {
    for args in [
        &["--time", "0"][..],
        &["--time", "x", MATE1][..],
        &["--nodes", "0", MATE1][..],
        &["--file", "/nonexistent/problems.tsv"][..],
        &["--file", "x.tsv", "-"][..],
    ] {
        let out = solve(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(!stderr(&out).contains("panicked"), "{args:?}");
    }
    // Negative numbers are values said to be too small, not options to be
    // passed after `--`.
    for (args, said) in [
        (
            &["--nodes", "-1", MATE1][..],
            "`-1` is negative: it must be at least 1",
        ),
        (
            &["--time", "-1", MATE1][..],
            "`-1` is negative: the time must be more than 0 seconds",
        ),
        (
            &["--jobs", "-2", MATE1][..],
            "`-2` is negative: it must be at least 1",
        ),
    ] {
        let err = stderr(&solve(args));
        assert!(err.contains(said), "{args:?}: {err}");
        assert!(!err.contains("-- -"), "{args:?}: {err}");
    }
    for (args, said) in [
        (
            &["solve", "--hash", "-16", MATE1][..],
            "`-16` is negative: it must be at least 1",
        ),
        (
            &["verify", MATE1, "--nodes", "-5"][..],
            "`-5` is negative: it must be at least 1",
        ),
        (
            &["verify", MATE1, "--main-nodes", "-5"][..],
            "`-5` is negative: it must be at least 1",
        ),
        (
            &["verify", MATE1, "--time", "-0.5"][..],
            "`-0.5` is negative",
        ),
    ] {
        let out = tsume().args(args).stdin(Stdio::null()).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(said), "{args:?}: {}", stderr(&out));
    }
}

/// A file given without `--file` is not read as a position: the error says
/// to give it with `--file`.
#[test]
fn a_file_given_as_a_position_hints_at_file() {
    let file = TempFile::new("hint", &format!("{MATE1}\n"));
    let out = solve(&[file.path()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "is a file, not a position: to solve the problems in it, give `--file {}`",
            file.path()
        )),
        "{err}"
    );
    // A name that is no file is read as a position, as before.
    let err = stderr(&solve(&["no/such/problems.tsv"]));
    assert!(err.contains("bad SFEN"), "{err}");
}

/// A first proof's line is not the tsume answer: the text says so and gives
/// its plies, without claiming "mate in N".
#[test]
fn a_first_proof_line_is_not_reported_as_mate_in_n() {
    let out = solve(&[MATE3, "--first-line"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(!text.lines().any(|l| l.starts_with("mate in")), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("mate (the first proof's line, ") && l.contains(" plies;")),
        "{text}"
    );
}

/// `--useless-rule`: after L*1c the defender can only drop on 1b. The lance
/// takes the piece and the king takes the lance back, so by the default
/// rule (set aside, mated within the other defences: none here) the drop
/// counts and the knight mates after it (3 plies); by `piece-unused` the
/// mate after that capture is as quick without the piece, so the drop is
/// useless and L*1c mates at once. By `piece-unused` L*1d mates at once
/// too (the drops on 1c and 1b useless by mates after their capture): the
/// search finds it first, and the judge of a line's end confirms it within
/// its fixed number of positions since a test of a drop looks no further
/// than its own plies beyond the bound (before, it could not, and the
/// answer was L*1c). A rule it does not know is an error that names it.
#[test]
fn the_rule_for_useless_drops_can_be_chosen() {
    use tsume::solver::exhaustive::tsume_mated_within_by;
    use tsume::solver::interposition::UselessRule;
    let pos = "8k/6S2/9/6N2/8N/9/9/9/9 b L2r2b4g3s2n3l18p 1";
    for (rule, length) in [("within-other-defences", 3), ("piece-unused", 1)] {
        let out = solve(&[pos, "--json", "--useless-rule", rule]);
        assert!(out.status.success(), "{rule}: {}", stderr(&out));
        let r = records(&out);
        assert_eq!(r[0]["length"], length, "{rule}: {}", r[0]);
        assert_eq!(r[0]["exact"], true, "{rule}: {}", r[0]);
        if length == 3 {
            assert_eq!(r[0]["moves"][0], "L*1c", "{rule}: {}", r[0]);
            assert_mate(&r[0], length);
        } else {
            let (p, moves) = moves_of(&r[0]);
            assert!(["L*1c", "L*1d"].contains(&r[0]["moves"][0].as_str().unwrap()));
            let end = p.after(moves[0]);
            let mated = tsume_mated_within_by(&end, 0, UselessRule::PieceUnused, 1_000_000);
            assert_eq!(mated, Some(true), "{rule}: {}", r[0]);
        }
    }
    // After L*1c the defender has drops on 1b and nothing else.
    let (p, moves) = moves_of(&records(&solve(&[pos, "--json"]))[0]);
    let after = p.after(moves[0]);
    let evasions = tsume::core::movegen::evasion_moves(&after);
    assert!(!evasions.is_empty());
    assert!(
        evasions
            .iter()
            .all(|m| m.is_drop() && m.to().to_string() == "1b"),
        "{evasions:?}"
    );
    let out = solve(&[pos, "--useless-rule", "unused"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("'unused'"), "{}", stderr(&out));
}

/// The main line offers no mate in 1 whose end the judge of a line's end
/// cannot confirm: by `piece-unused` the search proves more than one lance
/// drop a mate in 1 here (every drop between checker and king useless by a
/// mate after its capture), and for one of them the judge, within its fixed
/// number of positions, does not see it. Offered, that mate would fail the
/// replay, and the answer would be a 7-ply line, not exact, with `at_most`
/// 1; the answer is the mate in 1 the judge confirms.
#[test]
fn a_mate_in_one_the_judge_cannot_confirm_is_not_offered() {
    use tsume::solver::exhaustive::tsume_mated_within_by;
    use tsume::solver::interposition::UselessRule;
    let pos = "8k/9/9/7L1/8N/9/9/9/9 b L2r2b4g4s3n2l18p 1";
    let out = solve(&[pos, "--json", "--useless-rule", "piece-unused"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let r = &records(&out)[0];
    assert_eq!(r["exact"], true, "{r}");
    assert_eq!(r["length"], 1, "{r}");
    let (p, moves) = moves_of(r);
    let end = p.after(moves[0]);
    let mated = tsume_mated_within_by(&end, 0, UselessRule::PieceUnused, 1_000_000);
    assert_eq!(mated, Some(true), "{r}");
}

#[test]
fn the_defence_can_follow_the_old_convention() {
    // After 4a3a 3b2b 3a2a the king's 2b1b lasts longest but leaves the
    // attacker the lance it takes on 1a; 2b3b is mated two plies sooner
    // with an empty hand (see tests/defence_choice.rs).
    let pos = "+R4G2l/6k2/4ppppp/9/9/9/9/9/9 b r2b3g4s4n3l13p 1";
    for (choice, line) in [
        ("longest", "4a3a 3b2b 3a2a 2b1b 2a1a 1b2b 9a2a"),
        ("empty-hand-first", "4a3a 3b2b 3a2a 2b3b 9a3a"),
    ] {
        let out = solve(&[pos, "--json", "--defence", choice]);
        assert!(out.status.success(), "{choice}: {}", stderr(&out));
        let r = records(&out);
        let moves: Vec<&str> = r[0]["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert_eq!(moves.join(" "), line, "{choice}: {}", r[0]);
        assert_eq!(r[0]["length"], moves.len(), "{choice}: {}", r[0]);
        assert_eq!(r[0]["exact"], true, "{choice}: {}", r[0]);
        assert_mate(&r[0], moves.len());
    }
    let out = solve(&[pos, "--defence", "shortest"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("'shortest'"), "{}", stderr(&out));
}

/// `--hash` at its most (1,048,576 MB) asks more than most machines map: the
/// run ends with an error naming the budget, never an abort. Where the
/// system does give it (memory overcommitted without limit), the problem is
/// solved.
#[test]
fn a_table_larger_than_the_memory_is_an_error_not_an_abort() {
    for command in ["solve", "verify"] {
        let out = tsume()
            .args([command, "--hash", "1048576", MATE1])
            .stdin(Stdio::null())
            .output()
            .expect("the tsume binary runs");
        assert!(
            out.status.code().is_some(),
            "{command}: killed by a signal: {}",
            stderr(&out)
        );
        if !out.status.success() {
            let err = stderr(&out);
            assert!(
                err.contains("cannot reserve a table of 1048576 MB") && err.contains("--hash"),
                "{command}: {err}"
            );
        } else {
            assert!(stdout(&out).contains("G*5b"), "{command}: {}", stdout(&out));
        }
    }
}

/// A node limit that stops the tsume answer after the proof: the record
/// says the line is not proven the answer, and bounds the answer from both
/// sides. 将棋無双 第50番: its answer is 21 plies (about 380,000 nodes); the
/// first proof takes under 20,000, a proof of 37 plies (counting every
/// interposition), and the descent to the shortest plain mate (27 plies)
/// about 45,000 more.
#[test]
fn an_answer_cut_short_is_bounded_from_both_sides() {
    const MUSOU_050: &str = "9/4nR2g/9/7P+b/4p1s1P/6Bk1/6L+l1/9/6P1+R b 3S3g3n2l14p 1";
    let out = solve(&[MUSOU_050, "--json", "--nodes", "100000"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let r = records(&out);
    assert_eq!(r[0]["result"], "mate", "{}", r[0]);
    assert_eq!(r[0]["exact"], false, "{}", r[0]);
    let at_least = r[0]["at_least"].as_u64().expect("at_least");
    let at_most = r[0]["at_most"].as_u64().expect("at_most");
    assert!(at_least <= 21 && 21 <= at_most, "{}", r[0]);
    assert_mate(&r[0], r[0]["length"].as_u64().unwrap() as usize);
    let text = stdout(&solve(&[MUSOU_050, "--nodes", "100000"]));
    assert!(
        text.contains(&format!("at least {at_least} and at most {at_most} plies")),
        "{text}"
    );
    // Proven: no bounds, the length is the answer.
    let full = records(&solve(&[MUSOU_050, "--json"]));
    assert_eq!(full[0]["exact"], true);
    assert_eq!(full[0]["length"], 21);
    assert!(full[0].get("at_most").is_none(), "{}", full[0]);
}

/// Lines are read in bounded memory: a line over 1 MB is an error for that
/// line (quoted short) and the rest are solved; bytes without an end of
/// line are given up after 64 MB, with an error, not an abort; an error in
/// a long line shows the part around its column.
#[test]
fn long_lines_are_errors_read_in_bounded_memory() {
    let long = format!("{MATE1} moves {}", "x".repeat(2 << 20));
    let file = TempFile::new("long-line", &format!("{MATE1}\n{long}\n{MATE3}\n"));
    let out = solve(&["--file", file.path(), "--json"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let r = records(&out);
    assert_eq!(r.len(), 3, "{}", stdout(&out));
    assert_mate(&r[0], 1);
    assert_eq!(
        (r[1]["line"].as_u64(), r[1]["result"].as_str()),
        (Some(2), Some("error"))
    );
    let error = r[1]["error"].as_str().unwrap();
    assert!(
        error.starts_with("line 2: the line is longer than 1 MB"),
        "{error}"
    );
    assert!(
        r[1]["sfen"].as_str().unwrap().chars().count() <= 81,
        "{}",
        r[1]
    );
    assert_mate(&r[2], 3);
    assert!(stderr(&out).len() < 1000, "{}", stderr(&out));

    let started = Instant::now();
    let out = solve(&["--file", "/dev/zero"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("cannot read the problem file /dev/zero: line 1 goes on for more than 64 MB without an end of line"),
        "{err}"
    );
    assert!(started.elapsed() < Duration::from_secs(30));

    // An illegal move far into a line: the excerpt around it, the caret
    // under it.
    let moves = "7g7f 3c3d ".repeat(20);
    let line = format!("position startpos moves 7g7f 3c3d 8h2b+ 3a2b {moves}");
    let bad_at = line.chars().count() - moves.len() + 1;
    let file = TempFile::new("long-moves", &format!("{line}\n"));
    let out = solve(&["--file", file.path()]);
    let err = stderr(&out);
    assert!(err.contains(&format!("move 5 (column {bad_at})")), "{err}");
    let shown: Vec<&str> = err.lines().skip(1).take(2).collect();
    let caret = shown[1].find('^').expect("a caret");
    let under: String = shown[0].chars().skip(caret).take(4).collect();
    assert_eq!(under, "7g7f", "{err}");
    assert!(shown[0].chars().count() <= 2 + 82, "{err}");
}

/// The default `--hash` takes the largest table the system will reserve
/// (as the USI engine does), so a mate in one is solved under a memory
/// limit below the default budget; a `--hash` the system refuses is still
/// an error. The limit is the default budget itself (at least 512 MB):
/// the table alone would take all of it.
#[test]
fn the_default_hash_gives_way_to_a_memory_limit() {
    let limit_mb = tsume::batch::default_hash_mb(1).max(512);
    let run = |args: &[&str]| {
        Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v {} && exec \"$0\" \"$@\"",
                limit_mb * 1024
            ))
            .arg(env!("CARGO_BIN_EXE_tsume"))
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("sh runs")
    };
    let hash = limit_mb.to_string();
    for (args, found) in [
        (&["solve", MATE1, "--jobs", "1"][..], "mate in 1"),
        (&["verify", MATE1][..], "verdict sound"),
    ] {
        let out = run(args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).contains(found), "{args:?}: {}", stdout(&out));
        let out = run(&[args, &["--hash", &hash]].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stdout(&out));
        assert!(
            stderr(&out).contains(&format!("cannot reserve a table of {limit_mb} MB")),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

/// An error quotes at most about 80 characters of the text it is about,
/// however long the argument.
#[test]
fn long_arguments_are_quoted_short() {
    let junk: String = (0..50_000)
        .map(|i| char::from(b"abcxyz/9+*-"[i % 11]))
        .collect();
    let moves = format!("position startpos moves 7g7f {junk}");
    for args in [
        &["solve", junk.as_str()][..],
        &["solve", MATE1, "--useless-rule", &junk],
        &["solve", MATE1, "--defence", &junk],
        &["solve", MATE1, "--nodes", &junk],
        &["solve", MATE1, "--time", &junk],
        &["verify", MATE1, "--solution", &junk],
        &["verify", junk.as_str()],
        &["moves", junk.as_str()],
        &["game", &moves],
        &["solve", &moves],
    ] {
        let out = tsume().args(args).stdin(Stdio::null()).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{:?}", &args[..1]);
        let err = stderr(&out);
        assert!(
            err.len() < 1200,
            "{:?}: {} bytes: {err}",
            &args[..1],
            err.len()
        );
    }
}

/// Negative and non-numeric values of generate's numbers, and `--time
/// -inf`, get our own messages (clap took `-1` for an option and said to
/// pass it after `--`; audit F8).
#[test]
fn generate_numbers_and_negative_infinity_get_clear_messages() {
    for (args, said) in [
        (
            &["generate", "--plies", "-1"][..],
            "`-1` is negative: it must be at least 1",
        ),
        (
            &["generate", "--count", "-1"][..],
            "`-1` is negative: it must be at least 0",
        ),
        (
            &["generate", "--seed", "-7"][..],
            "`-7` is negative: it must be at least 0",
        ),
        (
            &["generate", "--jobs", "-2"][..],
            "`-2` is negative: it must be at least 1",
        ),
        (
            &["generate", "--jobs", "-0"][..],
            "0 is too small: it must be at least 1",
        ),
        (
            &["generate", "--nodes", "-5"][..],
            "`-5` is negative: it must be at least 1",
        ),
        (
            &["generate", "--plies", "1e20"][..],
            "`1e20` is not a whole number",
        ),
        (
            &["generate", "--plies", "18446744073709551616"][..],
            "is too large: it must be at most 31",
        ),
        (
            &["generate", "--from", "-", "--max-plies", "-3"][..],
            "`-3` is negative",
        ),
        (
            &["solve", MATE1, "--time", "-inf"][..],
            "`-inf` is negative",
        ),
        (
            &["verify", MATE1, "--time", "-inf"][..],
            "`-inf` is negative",
        ),
    ] {
        let out = tsume().args(args).stdin(Stdio::null()).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert!(err.contains(said), "{args:?}: {err}");
        assert!(!err.contains("-- -"), "{args:?}: {err}");
        assert!(!err.contains("unexpected argument"), "{args:?}: {err}");
    }
}

/// Errors that quote bad text show its control characters and bytes that
/// are not UTF-8 escaped: a quoted terminal escape coloured the terminal,
/// NULs reached the GUI (audit F6). A byte-order mark at the start of the
/// input is skipped (audit F10).
#[test]
fn quoted_bad_text_is_escaped_and_a_byte_order_mark_skipped() {
    let out = solve_stdin(&["-"], "x\u{1b}[31mRED\u{1b}[0m b - 1\n");
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(!err.contains('\u{1b}'), "{err:?}");
    assert!(err.contains("\\x1b[31mRED"), "{err:?}");
    // In JSON too (the text, not JSON's own escape of a raw ESC).
    let out = solve_stdin(&["--json", "-"], "x\u{1b}[31m b - 1\n");
    assert!(!stdout(&out).contains("\\u001b"), "{}", stdout(&out));
    assert!(stdout(&out).contains("\\\\x1b"), "{}", stdout(&out));
    // Bytes that are not UTF-8, and NULs.
    let mut child = tsume()
        .args(["solve", "--hash", "16", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"ab\xff\xfecd\n\0\0x\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8(out.stderr).expect("stderr is UTF-8");
    assert!(err.contains("ab\\xff\\xfecd"), "{err:?}");
    assert!(!err.contains('\0') && err.contains("\\0\\0x"), "{err:?}");
    // USI `info string` lines: a bad position and a line over 1 MB of NULs.
    let mut session = b"usi\nposition sfen 4k4/9/9/9/9/9/9/9/\x1b8 b - 1\ngo mate 1000\n".to_vec();
    session.extend(std::iter::repeat_n(0u8, 2 << 20));
    session.extend(b"\nquit\n");
    let out = tsume::usi::run(std::io::Cursor::new(session), Vec::new()).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(!out.contains('\u{1b}') && !out.contains('\0'), "{out:?}");
    assert!(out.contains("unknown letter `\\x1b`"), "{out}");
    assert!(out.contains("`\\0\\0\\0"), "{out}");
    assert!(out.contains("checkmate timeout"), "{out}");
    // A byte-order mark: skipped, the problem is solved.
    let out = solve_stdin(&["--json", "-"], &format!("\u{feff}{MATE1}\n"));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(records(&out)[0]["result"], "mate");
}

/// A piece-count error gives every piece of the kind and says whether
/// --relaxed would accept the position (audit F7).
#[test]
fn piece_count_errors_count_them_all() {
    let err = stderr(&solve(&["4k4/9/4P4/9/9/9/9/9/9 b GGGGGGGGGG 1"]));
    assert!(err.contains("10 golds in all"), "{err}");
    assert!(!err.contains("--relaxed accepts this"), "{err}");
    let err = stderr(&solve(&["4k4/9/4P4/9/9/9/9/9/9 b 5G 1"]));
    assert!(err.contains("5 golds in all"), "{err}");
    assert!(err.contains("--relaxed accepts this"), "{err}");
    let err = stderr(&solve(&["4k4/9/4P4/9/9/9/9/9/9 b 19G 1", "--relaxed"]));
    assert!(
        err.contains("19 golds in all (board and hands), more than 7, the most a relaxed position may hold (a set has 4)"),
        "{err}"
    );
}
