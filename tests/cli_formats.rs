//! `tsume solve --format`: each answer written as text, JSON, a USI
//! position line, or a KIF / KI2 / CSA record, and read back with the
//! crate's own readers (the cross-check with cshogi's parsers is
//! python/tests/test_records.py, run by `.ci/run`).

use std::process::{Command, Output, Stdio};

use serde_json::Value;
use tsume::core::{Move, Position};
use tsume::input;
use tsume::record::{Format, Record, Termination};
use tsume::solver::is_mating_line;

/// Mate in 1: G*5b.
const MATE1: &str = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
/// 将棋無双 第38番, a mate in 15 (by today's rule) with promotions, 同,
/// and a move that needs a mark in Japanese notation (△同　金引).
const MUSOU_038: &str = "2B3l2/5lg2/5p1n1/6k1g/5P2+B/5Sg1N/6N+l1/9/9 b SN2rg2sl16p 1";
/// No mate.
const NOMATE: &str = "8k/9/9/9/9/9/9/9/9 b Rr2b4g4s4n4l18p 1";
/// White attacks: a record whose diagram says 後手番.
const WHITE_MATE1: &str = "9/9/9/9/9/9/4p4/9/4K4 w g2r2b3g4s4n4l17p 1";

fn solve(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tsume"))
        .arg("solve")
        .args(["--hash", "16", "--jobs", "2"])
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the tsume binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// The answers as JSON, for what each record must say.
fn answers(problems: &[&str]) -> Vec<Value> {
    let mut args = vec!["--format", "json"];
    args.extend(problems);
    let out = solve(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn moves_of(answer: &Value) -> Vec<String> {
    answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

fn usi(moves: &[Move]) -> Vec<String> {
    moves.iter().map(Move::to_string).collect()
}

/// The SFEN without its move number (a record has none).
fn sfen_of(pos: &Position) -> String {
    let s = pos.to_string();
    s.rsplit_once(' ').unwrap().0.to_string()
}

/// Every record of `stdout` (one after another, split where the next one
/// starts) read back in `format`, checked against the JSON answers.
fn check_records(format: Format, stdout: &str, problems: &[&str]) {
    let answers = answers(problems);
    let parts: Vec<&str> = match format {
        Format::Csa => stdout.split("\n/\n").collect(),
        Format::Kif => stdout
            .split("#KIF version=2.0 encoding=UTF-8\n")
            .skip(1)
            .collect(),
        Format::Ki2 => stdout
            .split("#KI2 version=2.0 encoding=UTF-8\n")
            .skip(1)
            .collect(),
    };
    assert_eq!(parts.len(), problems.len(), "{stdout}");
    for ((part, problem), answer) in parts.iter().zip(problems).zip(&answers) {
        let record = Record::read(part.as_bytes(), format)
            .unwrap_or_else(|e| panic!("{format:?} not read back: {e}\n{part}"));
        let pos: Position = problem.parse().unwrap();
        assert_eq!(sfen_of(&record.start), sfen_of(&pos), "{part}");
        assert_eq!(usi(&record.moves), moves_of(answer), "{part}");
        match answer["result"].as_str().unwrap() {
            "mate" => {
                assert_eq!(record.end, Some(Termination::Mate), "{part}");
                assert!(is_mating_line(&pos, &record.moves, pos.side_to_move()));
                let n = record.moves.len();
                assert!(part.contains(&format!("tsume: mate in {n}, ")), "{part}");
                if format != Format::Csa {
                    assert!(part.contains(&format!("まで{n}手で詰み\n")), "{part}");
                    assert!(part.contains("手合割：平手\n"), "{part}");
                }
            }
            "nomate" => {
                assert_eq!(record.end, Some(Termination::NoMate), "{part}");
                assert!(part.contains("tsume: no mate, "), "{part}");
            }
            other => panic!("{other}"),
        }
    }
}

#[test]
fn kif_ki2_and_csa_records_read_back() {
    let problems = [MATE1, MUSOU_038, NOMATE, WHITE_MATE1];
    for (name, format) in [
        ("kif", Format::Kif),
        ("ki2", Format::Ki2),
        ("csa", Format::Csa),
    ] {
        let mut args = vec!["--format", name];
        args.extend(problems);
        let out = solve(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        check_records(format, &stdout, &problems);
        // The board and both hands: the KIF diagram of 将棋無双 第38番.
        if format != Format::Csa {
            assert!(
                stdout.contains(
                    "後手の持駒：飛二　金　銀二　香　歩十六\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n"
                ),
                "{stdout}"
            );
            assert!(
                stdout.contains("| ・ ・ ・ ・ ・ 銀v金 ・ 桂|六\n"),
                "{stdout}"
            );
            assert!(stdout.contains("先手の持駒：銀　桂\n"), "{stdout}");
            // White to move first.
            assert!(stdout.contains("先手の持駒：なし\n後手番\n"), "{stdout}");
        } else {
            assert!(
                stdout.contains("P6 *  *  *  *  * +GI-KI * +KE\n"),
                "{stdout}"
            );
            assert!(stdout.contains("P+00GI00KE\n"), "{stdout}");
        }
    }
    // The format's name in any case.
    let out = solve(&["--format", "KI2", MUSOU_038]);
    let ki2 = text(&out.stdout);
    check_records(Format::Ki2, &ki2, &[MUSOU_038]);
    // Moves with marks where two pieces could make them.
    assert!(ki2.contains("△同　金引 "), "{ki2}");
}

#[test]
fn a_single_problem_is_one_record_a_file_can_hold() {
    // Written to a file with its usual extension, the CLI reads it back as
    // a record file and solves the same problem.
    let dir = std::env::temp_dir().join(format!("tsume-formats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (format, ext) in [("kif", "kifu"), ("ki2", "ki2u"), ("csa", "csa")] {
        let out = solve(&["--format", format, MUSOU_038]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let path = dir.join(format!("musou-038.{ext}"));
        std::fs::write(&path, &out.stdout).unwrap();
        let again = solve(&["--format", "usi", path.to_str().unwrap()]);
        assert!(again.status.success(), "{}", text(&again.stderr));
        let line = text(&again.stdout);
        let read = input::read_position(line.trim_end(), false).unwrap();
        assert_eq!(sfen_of(&read.start), sfen_of(&MUSOU_038.parse().unwrap()));
        assert_eq!(read.moves.len(), 15, "{line}");
        let json = answers(&[MUSOU_038]);
        assert_eq!(usi(&read.moves), moves_of(&json[0]), "{line}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn usi_lines_hold_the_position_and_the_answer() {
    let out = solve(&["--format", "usi", MATE1, NOMATE, "--nodes", "100000"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        format!("position sfen {MATE1} moves G*5b\nposition sfen {NOMATE}\n")
    );
    // A search stopped by a limit: no moves, and the record says why.
    let hard = "9/4nR2g/9/7P+b/4p1s1P/6Bk1/6L+l1/9/6P1+R b 3S3g3n2l14p 1";
    let out = solve(&["--format", "usi", "--nodes", "1000", hard]);
    assert_eq!(text(&out.stdout), format!("position sfen {hard}\n"));
    let out = solve(&["--format", "kif", "--nodes", "1000", hard]);
    let kif = text(&out.stdout);
    assert!(kif.contains("*tsume: unknown (node limit), "), "{kif}");
    let record = Record::read(kif.as_bytes(), Format::Kif).unwrap();
    assert!(record.moves.is_empty() && record.end.is_none(), "{kif}");
}

#[test]
fn bad_rows_go_to_stderr_and_the_records_stay_readable() {
    let out = solve(&[
        "--format",
        "csa",
        MATE1,
        "4k4/9/4x4/9/9/9/9/9/9 b G 1",
        NOMATE,
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("error: problem 2: "), "{err}");
    check_records(Format::Csa, &text(&out.stdout), &[MATE1, NOMATE]);
    // An unknown format is named with the ones there are.
    let out = solve(&["--format", "pgn", MATE1]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("unknown format `pgn` (expected text, json, usi, kif, ki2, csa)"),
        "{err}"
    );
    // --json is --format json, and says so when both are given.
    let out = solve(&["--json", "--format", "kif", MATE1]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("cannot be used with"),
        "{}",
        text(&out.stderr)
    );
}
