//! `tsume verify` as dependable as `solve`: problems from a file or stdin,
//! a bad row reported with its line number while the others are verified,
//! a summary, `--jobs`, `--length` checked, and what it says of a given
//! solution (issue 31 item 6).

mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// Mate in 1: G*5b.
const MATE1: &str = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
/// Mate in 5 (misc_small.tsv): G*5a 6a5a 2d5a+ 4a5a G*5b.
const MATE5: &str = "3g1ks2/6g2/4S4/7B1/9/9/9/9/9 b G2rbg2s4n4l18p 1";
/// G*5b mates in one (and leaves a gold); G*4b 5a6a G*6b mates in three.
const TWO_GOLDS: &str = "4k4/9/3PPP3/9/9/9/9/9/9 b 2G2r2b2g4s4n4l15p 1";

fn verify(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tsume"))
        .arg("verify")
        .args(["--hash", "16"])
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tsume binary runs");
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn records(out: &Output) -> Vec<Value> {
    text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

/// The rows of a problem file: sound, a bad SFEN, an even length, a given
/// solution that does not mate, a comment and a blank line, an illegal
/// move in the solution, sound again.
fn rows() -> String {
    format!(
        "{MATE1}\t1\tG*5b\n4k4/9/4x4/9/9/9/9/9/9 b G 1\t1\n{MATE1}\t2\n{MATE1}\t1\tG*4b\n\n\
         # a comment\n{MATE1}\t1\tG*5b 5a5b\n{MATE5}\t5\n"
    )
}

#[test]
fn rows_from_stdin_bad_rows_in_their_place_and_a_summary() {
    let out = verify(&["--file", "-", "--json"], Some(&rows()));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let r = records(&out);
    let summary: Vec<(&str, &str)> = r
        .iter()
        .map(|r| {
            (
                r["origin"].as_str().unwrap(),
                r["verdict"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("stdin:1", "sound"),
            ("stdin:2", "error"),
            ("stdin:3", "error"),
            ("stdin:4", "flawed"),
            ("stdin:7", "error"),
            ("stdin:8", "sound"),
        ]
    );
    let error = |i: usize| r[i]["error"].as_str().unwrap().to_string();
    assert!(
        error(1).contains("stdin:2: bad SFEN: unknown letter `x` at column 8"),
        "{}",
        error(1)
    );
    assert!(error(2).contains("the length 2 is even"), "{}", error(2));
    assert!(
        error(4).contains("move 2 of the solution (column 51): `5a5b` is not legal"),
        "{}",
        error(4)
    );
    let err = text(&out.stderr);
    assert!(
        err.contains("summary: sound 2, flawed 1, no mate 0, unknown 0, errors 3, nodes "),
        "{err}"
    );
    assert!(
        err.contains("3 of 6 problems could not be read or verified: stdin:2, stdin:3, stdin:7"),
        "{err}"
    );
}

#[test]
fn the_same_reports_whatever_the_jobs() {
    let dir = std::env::temp_dir().join(format!("tsume-cli-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("rows.tsv");
    std::fs::write(&file, rows().repeat(3)).unwrap();
    let path = file.to_str().unwrap();
    let strip = |out: &Output| {
        records(out)
            .into_iter()
            .map(|mut r| {
                r.as_object_mut().unwrap().remove("millis");
                r
            })
            .collect::<Vec<_>>()
    };
    let one = verify(&["--file", path, "--json", "--jobs", "1"], None);
    let two = verify(&["--file", path, "--json", "--jobs", "2"], None);
    assert_eq!(strip(&one).len(), 18);
    assert_eq!(strip(&one), strip(&two));
    assert!(
        text(&two.stderr).contains("jobs 2"),
        "{}",
        text(&two.stderr)
    );
    // The text report: errors on stderr with their line and a caret.
    let out = verify(&["--file", path], None);
    let err = text(&out.stderr);
    assert!(err.contains(&format!("error: {path}:2: bad SFEN")), "{err}");
    assert!(err.contains("\n         ^\n"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A worker with no problem left lends no core to verify's searches
/// (docs/verify.md): a helper joining would change where a node budget
/// ends, and a report would not repeat. After a mate in one, a problem
/// whose verification reads some 200,000 nodes (yaneuraou_mate_samples
/// line 4), so that a lent core would be taken: the same reports with
/// one job and with two.
#[test]
fn an_idle_worker_lends_no_core_to_verify() {
    let long = "lns+R4l/1p1p5/p1pkppB1p/6p2/1R7/6P1P/P1PPnPS2/2+b1G1g2/L3K1sNL b 2GS3Pnp 51";
    let rows = format!("{MATE1}\n{long}\n");
    let run = |jobs: &str| {
        let out = verify(&["--file", "-", "--json", "--jobs", jobs], Some(&rows));
        records(&out)
            .into_iter()
            .map(|mut r| {
                r.as_object_mut().unwrap().remove("millis");
                r
            })
            .collect::<Vec<_>>()
    };
    let one = run("1");
    assert_eq!(one.len(), 2);
    let nodes = one[1]["nodes"].as_u64().unwrap();
    assert!(nodes > 100_000, "{nodes} nodes");
    assert_eq!(one, run("2"));
}

#[test]
fn the_length_must_be_odd_and_positive() {
    for (length, said) in [
        ("0", "0 is too small: it must be at least 1"),
        ("2", "2 is even: a mate takes an odd number of plies"),
        ("-1", "`-1` is negative: it must be at least 1"),
    ] {
        let out = verify(&[MATE1, "--length", length], None);
        assert_eq!(out.status.code(), Some(2), "{length}");
        assert!(out.stdout.is_empty(), "{length}");
        assert!(
            text(&out.stderr).contains(said),
            "{length}: {}",
            text(&out.stderr)
        );
    }
    // An odd length longer than the mate: 早詰.
    let out = verify(&[MATE1, "--length", "3", "--json"], None);
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(records(&out)[0]["findings"][0]["kind"], "shorter-mate");
}

/// A length shorter than the answer: some defence outlasts the intended
/// line, so the problem is not as given (a departure, a flaw). By the
/// classical convention that defence may be 変長, which only the solution
/// tells: unchecked, the verdict unknown. The answer's own length: sound.
#[test]
fn a_length_shorter_than_the_answer_is_a_departure() {
    let p = "9/4k4/9/4S4/9/9/9/9/9 b GS2r2b3g2s4n4l18p 1";
    let kinds = |r: &Value| -> Vec<String> {
        r["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["kind"].as_str().unwrap().to_string())
            .collect()
    };
    let out = verify(&[p, "--length", "1", "--json"], None);
    assert_eq!(out.status.code(), Some(3));
    let r = &records(&out)[0];
    assert_eq!(r["verdict"], "flawed");
    assert_eq!(r["length"], 3);
    let f = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["kind"] == "departs-from-solution")
        .unwrap_or_else(|| panic!("{:?}", kinds(r)));
    assert_eq!(
        (&f["length"], &f["main_length"]),
        (&Value::from(3), &Value::from(1))
    );
    assert!(
        f["note"]
            .as_str()
            .unwrap()
            .contains("more than the 1 given")
    );

    let out = verify(
        &[p, "--length", "1", "--json", "--convention", "classical"],
        None,
    );
    assert_eq!(out.status.code(), Some(3));
    let r = &records(&out)[0];
    assert_eq!(r["verdict"], "unknown");
    assert!(
        kinds(r).contains(&"unchecked".to_string()),
        "{:?}",
        kinds(r)
    );
    assert!(!kinds(r).contains(&"departs-from-solution".to_string()));

    let out = verify(&[p, "--length", "3", "--json"], None);
    assert_eq!(out.status.code(), Some(0));
    let r = &records(&out)[0];
    assert_eq!(r["verdict"], "sound");
    assert!(!kinds(r).contains(&"departs-from-solution".to_string()));
}

/// A given solution that a shorter mate beats is "not the answer", with
/// the reason; the answer itself is "the answer".
#[test]
fn what_verify_says_of_a_given_solution() {
    let out = verify(&[TWO_GOLDS, "--solution", "G*4b 5a6a G*6b"], None);
    assert_eq!(out.status.code(), Some(3));
    let report = text(&out.stdout);
    assert!(
        report.contains(
            "the given solution is not the answer: a shorter mate (G*5b): mate in 1, shorter than the intended 3; \
             at move 1 (G*4b): the given move mates in 3, but G*5b mates in 1"
        ),
        "{report}"
    );
    assert!(report.contains("main line 1 ply\n"), "{report}");
    let out = verify(&[TWO_GOLDS, "--solution", "G*4b 5a6a G*6b", "--json"], None);
    let r = &records(&out)[0];
    assert_eq!(r["solution_is_answer"], false, "{r}");
    assert!(
        r["solution_note"]
            .as_str()
            .unwrap()
            .starts_with("a shorter mate (G*5b)"),
        "{r}"
    );
    let out = verify(
        &[MATE5, "--solution", "G*5a 6a5a 2d5a+ 4a5a G*5b", "--json"],
        None,
    );
    let r = &records(&out)[0];
    assert_eq!(r["solution_is_answer"], true, "{r}");
    assert!(r.get("solution_note").is_none(), "{r}");
    // No solution given: nothing said of one.
    let r = &records(&verify(&[MATE5, "--json"], None))[0];
    assert!(r.get("solution_is_answer").is_none(), "{r}");
}

/// A departure's moves are written in Japanese from the position where the
/// given solution leaves the main line (they were blank when the main line
/// had gone another way before), and a count of one is "1 ply".
#[test]
fn a_departure_shows_its_moves_in_japanese_and_counts_plies() {
    // tsumemi 3te/9.kif: the published G*3c is as good as 3a4b+ (both
    // mate in 5), so the line follows it; at move 2 the published 3b3c is
    // shorter than 3b3a.
    let sfen = "6B2/5pk1b/7P1/5R3/9/9/9/9/9 b Gr3g4s4n4l16p 1";
    let out = verify(
        &[
            sfen,
            "--solution",
            "G*3c 3b3c 3a2b+",
            "--json",
            "--nodes",
            "20000",
        ],
        None,
    );
    let r = &records(&out)[0];
    let departs = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["kind"] == "departs-from-solution")
        .unwrap_or_else(|| panic!("{r}"));
    assert_eq!(departs["ply"], 2, "{departs}");
    assert_eq!(departs["moves_japanese"], "△同　玉", "{departs}");
    // A given solution that stops short of the mate.
    let out = verify(&[MATE5, "--solution", "G*5a", "--json"], None);
    let r = &records(&out)[0];
    let note = r["findings"][0]["note"].as_str().unwrap();
    assert_eq!(
        note, "the given solution has 1 ply; following it, the mate takes 5 plies",
        "{r}"
    );
    assert_eq!(
        r["findings"][0]["moves_japanese"], "△同　金 ▲同　角成 △同　玉 ▲５二金",
        "{r}"
    );
}

/// A length given with a solution must agree with it: `--length 3` with
/// the mate in one `G*5b` was judged by the solution alone and called
/// sound (issue 31, audit F3). Now the two are an error naming both, on
/// the command line and in a file (where the other rows are verified).
#[test]
fn a_length_that_disagrees_with_the_solution_is_an_error() {
    const SILVER: &str = "9/4k4/9/4S4/9/9/9/9/9 b GS2r2b3g2s4n4l18p 1";
    for (pos, solution, length, said) in [
        (
            MATE1,
            "G*5b",
            "3",
            "the solution has 1 ply but the length given is 3",
        ),
        (
            SILVER,
            "S*5c 5b4a G*4b",
            "5",
            "the solution has 3 plies but the length given is 5",
        ),
        (
            SILVER,
            "S*5c 5b4a G*4b",
            "1",
            "the solution has 3 plies but the length given is 1",
        ),
    ] {
        let out = verify(&[pos, "--solution", solution, "--length", length], None);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{solution} {length}: {}",
            text(&out.stdout)
        );
        assert!(text(&out.stderr).contains(said), "{}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("disagree"),
            "{}",
            text(&out.stderr)
        );
    }
    // Agreeing, they are verified as before.
    let out = verify(&[MATE1, "--solution", "G*5b", "--length", "1"], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // In a file: the row is an error, the next is verified.
    let rows = format!("{SILVER}\t5\tS*5c 5b4a G*4b\n{MATE1}\t1\tG*5b\n");
    let out = verify(&["--file", "-", "--json"], Some(&rows));
    assert_eq!(out.status.code(), Some(2));
    let r = records(&out);
    assert_eq!(r.len(), 2, "{}", text(&out.stdout));
    assert_eq!(r[0]["verdict"], "error");
    assert!(
        r[0].to_string()
            .contains("the solution has 3 plies but the length given is 5"),
        "{}",
        r[0]
    );
    assert_eq!(r[1]["verdict"], "sound");
}

/// A solution whose attacker move gives no check is an error that names
/// the move, its text and its number (it said only that "the side to move
/// is not in check", as if --defender had been asked; audit F4).
#[test]
fn a_solution_move_that_gives_no_check_is_named() {
    const SILVER: &str = "9/4k4/9/4S4/9/9/9/9/9 b GS2r2b3g2s4n4l18p 1";
    for (solution, said) in [
        (
            "S*5c 5b4a G*4c",
            "move 3 `G*4c` of the solution gives no check",
        ),
        ("G*1a", "move 1 `G*1a` of the solution gives no check"),
    ] {
        let out = verify(&[SILVER, "--solution", solution], None);
        assert_eq!(out.status.code(), Some(2), "{solution}");
        let err = text(&out.stderr);
        assert!(err.contains(said), "{solution}: {err}");
        assert!(!err.contains("not in check"), "{solution}: {err}");
    }
    let rows = format!("{SILVER}\t3\tS*5c 5b4a G*4c\n");
    let out = verify(&["--file", "-"], Some(&rows));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("stdin:1: move 3 `G*4c` of the solution gives no check"),
        "{}",
        text(&out.stderr)
    );
}

/// A negative length column other than `-1` (no mate) is an error, as
/// `--length -3` is; it was taken as "no length" (audit F9). A UTF-8
/// byte-order mark at the start of the file is skipped (audit F10).
#[test]
fn negative_lengths_and_a_byte_order_mark_in_a_file() {
    let out = verify(
        &["--file", "-"],
        Some(&format!("{MATE1}\t-3\n{MATE1}\t-1\n{MATE1}\t0\n")),
    );
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("stdin:1: the length `-3` at column 44 is negative"),
        "{err}"
    );
    assert!(err.contains("sound 2,"), "{err}");
    let out = verify(
        &["--file", "-"],
        Some(&format!("\u{feff}{MATE1}\t1\tG*5b\n")),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

/// `--convention classical` (issue 34): 将棋無双 第55番's published line,
/// whose defence at move 10 is two plies shorter than a king move that
/// outlasts it by every rule, is sound with that king move a longer side
/// line (変長, minor, both lengths); by the default it departs. A
/// convention that is neither is an error naming it.
#[test]
fn the_classical_convention_accepts_a_longer_side_line() {
    let row = common::musou_row("055");
    let rows = format!("{}\t{}\t{}\n", row.sfen, row.length, row.solution.join(" "));
    let out = verify(
        &["--file", "-", "--json", "--convention", "classical"],
        Some(&rows),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let r = &records(&out)[0];
    assert_eq!(r["verdict"], "sound", "{r}");
    assert_eq!(r["solution_is_answer"], true, "{r}");
    assert_eq!(r["length"], 11, "{r}");
    let findings = r["findings"].as_array().unwrap();
    let longer: Vec<&Value> = findings
        .iter()
        .filter(|f| f["kind"] == "longer-side-line")
        .collect();
    assert_eq!(longer.len(), 1, "{r}");
    let f = longer[0];
    assert_eq!(f["japanese"], "変長", "{f}");
    assert_eq!(f["minor"], true, "{f}");
    assert_eq!(f["ply"], 10, "{f}");
    assert_eq!(f["moves"][0], "8e9d", "{f}");
    assert_eq!(
        (&f["length"], &f["main_length"]),
        (&4.into(), &2.into()),
        "{f}"
    );
    assert_eq!(f["longer_by"], "every-looser-rule", "{f}");
    // From the published line's position before move 10.
    assert!(
        f["moves_japanese"]
            .as_str()
            .unwrap()
            .starts_with("△９四玉 "),
        "{f}"
    );
    assert_eq!(f["moves"].as_array().unwrap().len(), 4, "{f}");
    assert!(
        findings
            .iter()
            .all(|f| f["kind"] != "departs-from-solution"),
        "{r}"
    );

    // The text report says why the solution is the answer.
    let out = verify(&["--file", "-", "--convention", "classical"], Some(&rows));
    assert!(
        text(&out.stdout).contains(
            "the given solution is the answer by the classical convention (a longer side line, 変長, at move 10)"
        ),
        "{}",
        text(&out.stdout)
    );
    assert!(
        text(&out.stdout).contains("minor 変長 (longer-side-line) at move 10: 8e9d lasts 4"),
        "{}",
        text(&out.stdout)
    );

    // By default (and by `modern`) it departs there.
    for args in [
        &["--file", "-", "--json"][..],
        &["--file", "-", "--json", "--convention", "modern"],
    ] {
        let out = verify(args, Some(&rows));
        assert_eq!(out.status.code(), Some(3), "{args:?}");
        let r = &records(&out)[0];
        assert_eq!(r["verdict"], "flawed", "{r}");
        let d = &r["findings"][0];
        assert_eq!(
            (&d["kind"], &d["ply"]),
            (&"departs-from-solution".into(), &10.into()),
            "{r}"
        );
        assert_eq!(d["longer_by"], "every-looser-rule", "{r}");
    }

    for bad in ["Classical", "edo", ""] {
        let out = verify(&[MATE1, "--convention", bad], None);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = text(&out.stderr);
        assert!(
            err.contains(&format!(
                "unknown convention `{bad}` (expected modern, classical)"
            )),
            "{bad}: {err}"
        );
    }
}

/// By `--convention classical` drops are judged by `within-or-checker`
/// unless `--useless-rule` says otherwise (issue 34). Here L*1d is met by
/// drops on 1c and 1b that the lance takes, and the attacker mates without
/// the piece, though in more plies than the king's other defences last:
/// useless by 定義1, so L*1d mates in one as given. By today's rule they
/// count, and L*1c's mate in three is the answer.
#[test]
fn the_classical_convention_judges_drops_by_either_definition() {
    let p = "8k/6S2/9/6N2/8N/9/9/9/9 b L2r2b4g3s2n3l18p 1";
    let judged = |extra: &[&str]| {
        let mut args = vec![p, "--solution", "L*1d", "--json"];
        args.extend_from_slice(extra);
        let out = verify(&args, None);
        let r = records(&out).remove(0);
        (out.status.code(), r)
    };
    for extra in [
        &["--convention", "classical"][..],
        &[
            "--convention",
            "classical",
            "--useless-rule",
            "within-or-checker",
        ],
        &["--useless-rule", "within-or-checker"],
    ] {
        let (code, r) = judged(extra);
        assert_eq!(code, Some(0), "{extra:?}: {r}");
        assert_eq!(r["verdict"], "sound", "{extra:?}: {r}");
        assert_eq!(r["solution_is_answer"], true, "{extra:?}: {r}");
        assert_eq!(
            r["main_line"],
            serde_json::json!(["L*1d"]),
            "{extra:?}: {r}"
        );
    }
    for extra in [
        &[][..],
        &["--convention", "modern"],
        &[
            "--convention",
            "classical",
            "--useless-rule",
            "within-other-defences",
        ],
    ] {
        let (code, r) = judged(extra);
        assert_eq!(code, Some(3), "{extra:?}: {r}");
        assert_eq!(r["verdict"], "flawed", "{extra:?}: {r}");
        assert_eq!(r["length"], 3, "{extra:?}: {r}");
        assert_eq!(r["main_line"][0], "L*1c", "{extra:?}: {r}");
    }
}

#[test]
fn a_bar_of_problems_on_a_terminal() {
    // `script` runs the command on a pseudo-terminal.
    let screen = common::cli::on_terminal(&format!(
        "verify --hash 16 --jobs 2 --json --file {}/problems/tsumemi_samples.tsv",
        env!("CARGO_MANIFEST_DIR")
    ));
    // The file's 18 problems, counted first.
    assert!(screen.contains("] 1/18 5% "), "{screen:?}");
    assert!(screen.contains("/s ETA "), "{screen:?}");
    assert!(screen.contains("\r\x1b[2Ksummary: sound "), "{screen:?}");
}
