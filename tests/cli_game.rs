//! `tsume game`, run as a user would: the outcome lines of a repetition, an
//! illegal move, a handicap game in progress, a declaration and an
//! impasse, and the errors (bad move with its column, a move after the
//! end, an unknown handicap, an impasse the kings do not allow).

mod common;

use common::cli::{self, value};

/// Runs `tsume game ...`, which must succeed; returns its stdout.
fn ok(args: &[&str]) -> String {
    cli::ok(&[&["game"], args].concat())
}

/// Runs `tsume game ...`, which must fail with exit code 2 and nothing on
/// stdout; returns its stderr.
fn bad(args: &[&str]) -> String {
    cli::bad(&[&["game"], args].concat())
}

const CYCLE: &str = "2h3h 8b7b 3h2h 7b8b";

#[test]
fn a_fourfold_repetition_is_a_draw() {
    let out = ok(&[&format!("position startpos moves {CYCLE} {CYCLE} {CYCLE}")]);
    assert_eq!(value(&out, "moves"), "12");
    assert_eq!(value(&out, "repetitions"), "4");
    assert_eq!(
        value(&out, "result"),
        "draw: fourfold repetition (sennichite)"
    );
    assert_eq!(value(&out, "japanese"), "引き分け（千日手）");
    // One cycle less: the game goes on, the position seen three times.
    let out = ok(&[&format!("position startpos moves {CYCLE} {CYCLE}")]);
    assert_eq!(value(&out, "repetitions"), "3");
    assert_eq!(value(&out, "result"), "in progress");
    assert_eq!(value(&out, "japanese"), "対局中");
}

#[test]
fn an_illegal_move_loses_and_a_move_after_the_end_is_an_error() {
    // The words may also come as separate arguments.
    let out = ok(&["position", "startpos", "moves", "7g7f", "3c3d", "2h2b"]);
    assert_eq!(value(&out, "moves"), "2");
    assert_eq!(
        value(&out, "result"),
        "White wins: illegal move 2h2b: the piece on 2h cannot move to 2b"
    );
    assert_eq!(
        value(&out, "japanese"),
        "後手の勝ち（反則負け：駒の動けない升への移動）"
    );
    let err = bad(&["position startpos moves 7g7f 3c3d 2h2b 8c8d"]);
    assert!(
        err.contains("move 4 `8c8d` (column 40) comes after the end of the game"),
        "{err}"
    );
    let err = bad(&["startpos moves 7g7f 3c3x"]);
    assert!(err.contains("move 2 `3c3x` (column 21)"), "{err}");
}

#[test]
fn a_handicap_game_starts_with_white() {
    let out = ok(&["--handicap", "二枚落ち", "moves", "5a4b", "7g7f"]);
    assert_eq!(
        value(&out, "sfen"),
        "lnsg1gsnl/5k3/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 3"
    );
    // The rook and bishop White gave up count for it in an impasse.
    assert_eq!(value(&out, "points"), "27 27");
    // White moves first: 7g7f would move a piece it does not have there,
    // and loses.
    let out = ok(&["--handicap", "飛香落ち", "7g7f"]);
    assert_eq!(
        value(&out, "result"),
        "Black wins: illegal move 7g7f: there is no piece of the side to move on 7g"
    );
    let err = bad(&["--handicap", "五枚落ち"]);
    assert!(err.contains("unknown handicap \"五枚落ち\""), "{err}");
    let err = bad(&["--handicap", "香落ち", "startpos", "moves", "5a4b"]);
    assert!(err.contains("not a position"), "{err}");
    let err = bad(&["--handicap", "香落ち", "startpos"]);
    assert!(err.contains("`startpos` is not a USI move"), "{err}");
}

#[test]
fn declaration_and_impasse_after_the_moves() {
    let out = ok(&[
        "+R+B7/4K4/GGGGSSSS1/9/9/9/9/9/4k4 b 4N4L2Prb16p 1",
        "--declare",
    ]);
    assert_eq!(value(&out, "points"), "28 26");
    assert_eq!(value(&out, "japanese"), "先手の勝ち（入玉宣言勝ち：28点）");
    // Both kings entered; 23 points against 31.
    let pos = "9/4K4/9/9/9/9/9/4k4/9 b RB4G4S4N1Prb4l17p 1";
    let out = ok(&[pos, "--impasse"]);
    assert_eq!(
        value(&out, "japanese"),
        "後手の勝ち（持将棋：先手23点、後手31点）"
    );
    let out = ok(&[pos, "--impasse", "20"]);
    assert!(value(&out, "result").starts_with("draw: impasse"));
    let err = bad(&["startpos", "--impasse", "27"]);
    assert!(
        err.contains("Black's king is not in the opponent's camp"),
        "{err}"
    );
}
