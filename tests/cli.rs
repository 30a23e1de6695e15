//! The `tsume` binary, run as a user would: perft numbers, divide, move
//! listings, the forms a position may take, errors and help.

use std::collections::BTreeSet;

mod common;

use common::cli::{bad, ok, tsume, value};
use tsume::core::{Position, movegen, perft::perft};

const TSUME: &str = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";

fn nodes(stdout: &str) -> u64 {
    value(stdout, "nodes").parse().unwrap()
}

/// The moves of a `tsume moves` listing, checked against its count line.
fn listed(stdout: &str) -> Vec<String> {
    let lines: Vec<&str> = stdout.lines().collect();
    let (last, moves) = lines.split_last().expect("some output");
    let count: usize = last
        .strip_prefix("count ")
        .expect("last line is the count")
        .parse()
        .unwrap();
    assert_eq!(count, moves.len());
    moves.iter().map(|m| m.to_string()).collect()
}

#[test]
fn perft_counts_from_the_start_position() {
    for (depth, expected) in [(0, 1), (1, 30), (2, 900), (3, 25470), (4, 719_731)] {
        let out = ok(&["perft", &depth.to_string()]);
        assert_eq!(nodes(&out), expected, "depth {depth}");
        assert!(value(&out, "time").ends_with(" ms"), "{out}");
        let nps = value(&out, "nps");
        assert!(nps == "-" || nps.parse::<f64>().is_ok(), "{out}");
    }
}

#[test]
fn perft_from_a_given_position() {
    let out = ok(&["perft", "3", "--sfen", TSUME]);
    let mut pos: Position = TSUME.parse().unwrap();
    assert_eq!(nodes(&out), perft(&mut pos, 3));

    let out = ok(&["perft", "3", "--sfen", "position startpos moves 7g7f 3c3d"]);
    let mut pos: Position = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
        .parse()
        .unwrap();
    assert_eq!(nodes(&out), perft(&mut pos, 3));
}

#[test]
fn divide_lists_each_first_move_and_sums_to_perft() {
    let out = ok(&["perft", "3", "--divide"]);
    let start = Position::startpos();
    let mut sum = 0;
    let mut moves = BTreeSet::new();
    for line in out.lines() {
        let (m, n) = line.split_once(' ').unwrap();
        if ["moves", "nodes", "time", "nps"].contains(&m) {
            continue;
        }
        let n: u64 = n.parse().unwrap();
        // Each count is the perft below that move.
        let mv = start.parse_move(m).expect("a legal move");
        assert_eq!(n, perft(&mut start.after(mv), 2), "{line}");
        moves.insert(m.to_string());
        sum += n;
    }
    assert_eq!(moves.len(), 30);
    assert!(moves.contains("7g7f") && moves.contains("2h1h"));
    assert_eq!(value(&out, "moves"), "30");
    assert_eq!(sum, 25470);
    assert_eq!(nodes(&out), 25470);
}

#[test]
fn moves_of_the_start_position() {
    let moves = listed(&ok(&["moves", "startpos"]));
    assert_eq!(moves.len(), 30);
    let mut sorted = moves.clone();
    sorted.sort();
    assert_eq!(moves, sorted, "sorted by text");
    for m in ["1g1f", "7g7f", "2h1h", "5i4h", "3i3h"] {
        assert!(moves.contains(&m.to_string()), "{m}");
    }
}

#[test]
fn checks_and_evasions_of_a_tsume_position() {
    let checks = listed(&ok(&["moves", TSUME, "--checks"]));
    assert_eq!(
        checks,
        ["5c5b", "5c5b+", "G*4a", "G*4b", "G*5b", "G*6a", "G*6b"]
    );
    // The same moves as the library gives.
    let pos: Position = TSUME.parse().unwrap();
    let lib: BTreeSet<String> = movegen::check_moves(&pos)
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(lib, checks.iter().cloned().collect());

    let after = format!("position sfen {TSUME} moves G*4b");
    let evasions = listed(&ok(&["moves", &after, "--evasions"]));
    assert_eq!(evasions, ["5a4b", "5a6a", "5a6b"]);
    // G*5b mates: in check with no evasion.
    let mate = format!("position sfen {TSUME} moves G*5b");
    assert!(listed(&ok(&["moves", &mate, "--evasions"])).is_empty());
    // Not in check: no evasions, and a note says why.
    let out = tsume(&["moves", "startpos", "--evasions"]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "count 0\n");
    assert!(String::from_utf8_lossy(&out.stderr).contains("not in check"));
}

#[test]
fn every_form_of_a_position_reads_the_same() {
    let expected = ok(&["moves", TSUME]);
    let words: Vec<&str> = TSUME.split(' ').collect();
    let sfen = format!("sfen {TSUME}");
    let position = format!("position sfen {TSUME}");
    let forms: Vec<Vec<&str>> = vec![
        words.clone(),
        vec![&sfen],
        ["sfen"].iter().chain(&words).copied().collect(),
        vec![&position],
        ["position", "sfen"].iter().chain(&words).copied().collect(),
    ];
    for form in forms {
        let args: Vec<&str> = ["moves"].iter().chain(&form).copied().collect();
        assert_eq!(ok(&args), expected, "{form:?}");
    }

    let start = ok(&["moves", "startpos"]);
    for form in [
        vec!["position startpos"],
        vec!["position", "startpos"],
        vec!["lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"],
    ] {
        let args: Vec<&str> = ["moves"].iter().chain(&form).copied().collect();
        assert_eq!(ok(&args), start, "{form:?}");
    }

    let moved = ok(&["moves", "position", "startpos", "moves", "7g7f", "3c3d"]);
    assert_eq!(
        moved,
        ok(&[
            "moves",
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
        ])
    );
    // Several words after --sfen, then another option.
    let out = ok(&[
        "perft", "2", "--sfen", "startpos", "moves", "7g7f", "--divide",
    ]);
    assert_eq!(value(&out, "moves"), "30");
}

#[test]
fn a_malformed_sfen_is_an_error_naming_the_column() {
    let err = bad(&[
        "moves",
        "lnsgkgsnl/1r5x1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    ]);
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains("`x`") && err.contains("column 14"), "{err}");
    // The input is echoed with a caret under column 14.
    assert!(err.contains("\n  lnsgkgsnl/1r5x1/"), "{err}");
    assert!(err.contains(&format!("\n  {}^", " ".repeat(13))), "{err}");

    // The same error when the SFEN comes as separate words.
    let err = bad(&[
        "perft",
        "1",
        "--sfen",
        "lnsgkgsnl/1r5x1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",
        "b",
        "-",
        "1",
    ]);
    assert!(err.contains("--sfen") && err.contains("column 14"), "{err}");

    let err = bad(&["moves", "4k4/9/9/9/9/9/9/9/9", "x", "-", "1"]);
    assert!(err.contains("column 21"), "{err}");
    let err = bad(&["moves", "4k4/9/9/9/9/9/9/9/9 b - 1 extra"]);
    assert!(err.contains("column 27") && err.contains("extra"), "{err}");
}

#[test]
fn other_bad_input_is_an_error() {
    // An illegal move in a USI move list: which move, and where.
    let err = bad(&["moves", "position startpos moves 7g7f 7g7f"]);
    assert!(err.contains("move 2") && err.contains("column 30"), "{err}");
    let err = bad(&["moves", "position", "startpos", "moves", "7g7x"]);
    assert!(err.contains("7g7x"), "{err}");
    // Rules broken by the position itself.
    let err = bad(&["moves", "4k4/9/9/9/9/9/9/9/4p4 b - 1"]);
    assert!(err.contains("5i"), "{err}");
    bad(&["moves", "4k4/9/9 b - 1"]);
    bad(&["moves", ""]);
    bad(&["moves", "startpos", "--checks", "--evasions"]);
    bad(&["moves"]);
    bad(&["perft"]);
    bad(&["perft", "x"]);
    bad(&["perft", "-1"]);
    bad(&["perft", "0", "--divide"]);
    bad(&["perft", "1", "--sfen"]);
    bad(&["frobnicate"]);
    bad(&[]);
}

#[test]
fn help_for_each_command() {
    let top = ok(&["--help"]);
    assert!(top.contains("Usage: tsume"), "{top}");
    assert!(top.contains("perft") && top.contains("moves"), "{top}");
    let perft = ok(&["perft", "--help"]);
    assert!(
        perft.contains("--divide") && perft.contains("--sfen"),
        "{perft}"
    );
    let moves = ok(&["moves", "--help"]);
    assert!(moves.contains("--checks") && moves.contains("--evasions"));
    assert_eq!(ok(&["help", "moves"]), moves);
}

/// `tsume verify --main-nodes N` bounds the main line's search: too few
/// nodes leave the verdict unknown (nothing is judged against an unproven
/// line), where the default (no bound) finds the main line.
#[test]
fn verify_main_nodes_bounds_the_main_lines_search() {
    // cshogi's 11-ply test position (problems/cshogi_tests.tsv, row 6).
    let sfen = "l6nl/3kPs3/5p2p/p1ppg2P1/7+r1/P1G3p1P/1pNbSP1GL/2+n1S1K2/L1r3P2 w BGS3Pn2p 110";
    let verdict = |extra: &[&str]| {
        let mut args = vec!["verify", sfen, "--json"];
        args.extend_from_slice(extra);
        let out = tsume(&args);
        let v: serde_json::Value =
            serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        (
            v["verdict"].as_str().unwrap().to_string(),
            v["nodes"].as_u64().unwrap(),
        )
    };
    let (default, _) = verdict(&[]);
    assert_ne!(default, "unknown");
    let (cut, nodes) = verdict(&["--main-nodes", "20"]);
    assert_eq!(cut, "unknown");
    assert!(nodes <= 20, "{nodes} nodes");
    // 0 is refused like any other bad value.
    assert!(bad(&["verify", sfen, "--main-nodes", "0"]).contains("--main-nodes"));
}
