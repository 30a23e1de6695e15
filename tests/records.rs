//! Records: the KIF files of `problems/kif/` read into the SFENs and
//! solutions of `problems/tsumemi_samples.tsv`; KIF and CSA written and
//! read back; KI2; `残り全部` / `P-00AL`; Shift-JIS and UTF-8; malformed
//! records with the line of the fault; `tsume solve` / `tsume verify` on
//! record files and `--rest-to-defender`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use tsume::core::handicap::Handicap;
use tsume::core::movegen::legal_moves;
use tsume::core::{Color, Move, PieceKind, Position};
use tsume::record::encoding::{Encoding, decode, encode};
use tsume::record::notation::japanese_line;
use tsume::record::{Format, Reason, Record, Termination, csa, ki2, kif};

mod common;

use common::usi;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The rows of tsumemi_samples.tsv: (file under problems/kif/, SFEN,
/// solution).
fn samples() -> Vec<(String, String, String)> {
    let text = std::fs::read_to_string(root().join("problems/tsumemi_samples.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let name = f[3].strip_prefix("tsumemi:").unwrap();
            let file = name.split_whitespace().next().unwrap().to_string();
            (file, f[0].to_string(), f[2].to_string())
        })
        .collect()
}

fn read_kif_file(rel: &str) -> Record {
    let bytes = std::fs::read(root().join("problems/kif").join(rel)).unwrap();
    Record::read(&bytes, Format::Kif).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn tsumemi_kif_files_read_into_their_sfens_and_solutions() {
    let rows = samples();
    assert_eq!(rows.len(), 18);
    for (file, sfen, solution) in &rows {
        let bytes = std::fs::read(root().join("problems/kif").join(file)).unwrap();
        // The files are Shift-JIS, not UTF-8: the decoder is exercised.
        assert!(std::str::from_utf8(&bytes).is_err(), "{file}");
        let record = read_kif_file(file);
        assert_eq!(record.start.to_string(), *sfen, "{file}");
        assert_eq!(usi(&record.moves), *solution, "{file}");
        assert_eq!(record.end, Some(Termination::Mate), "{file}");
        assert_eq!(record.header("先手"), Some(""), "{file}");
    }
    // The two files not in the set end in 中断 after a move or three.
    let r = read_kif_file("1te/10.kif");
    assert_eq!((r.moves.len(), r.end), (1, Some(Termination::Abort)));
    assert_eq!(usi(&r.moves), "4d5b+");
    let r = read_kif_file("3te/3.kif");
    assert_eq!((r.moves.len(), r.end), (3, Some(Termination::Abort)));
    assert_eq!(usi(&r.moves), "G*1b 1a1b 1c3a+");
}

/// Every KIF file of problems/kif/, read.
fn all_kif_records() -> Vec<(String, Record)> {
    let mut out = Vec::new();
    for dir in ["1te", "3te"] {
        for n in 1..=10 {
            let rel = format!("{dir}/{n}.kif");
            out.push((rel.clone(), read_kif_file(&rel)));
        }
    }
    out
}

/// A deterministic pseudo-random game of `plies` legal moves from `start`
/// (it stops early at mate).
fn random_game(start: &Position, plies: usize, mut seed: u64) -> Vec<Move> {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal: Vec<Move> = legal_moves(&pos).iter().copied().collect();
        if legal.is_empty() {
            break;
        }
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        // Prefer captures, drops and promotions, so that 同, 打 and 成
        // come often.
        let busy: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| m.is_drop() || m.is_promotion() || pos.piece_at(m.to()).is_some())
            .collect();
        let pool = if !busy.is_empty() && !(seed >> 40).is_multiple_of(3) {
            &busy
        } else {
            &legal
        };
        let m = pool[((seed >> 33) as usize) % pool.len()];
        pos.do_move(m);
        moves.push(m);
    }
    moves
}

/// Game-like records: even and handicap games, a problem with promoted
/// pieces and White to move, with headers, comments and ends.
fn game_records() -> Vec<Record> {
    let mut out = Vec::new();
    let mut even = Record::new(Position::startpos());
    even.headers = vec![
        ("開始日時".into(), "2024/01/02 10:00:00".into()),
        ("先手".into(), "A".into()),
        ("後手".into(), "B".into()),
    ];
    even.moves = random_game(&even.start, 120, 1);
    even.comments = vec![(0, "start".into()), (3, "after move 3".into())];
    even.end = Some(Termination::Resign);
    out.push(even);

    let mut named = Record::new(Position::startpos());
    named.handicap = Some(Handicap::Even);
    named.moves = random_game(&named.start, 40, 7);
    named.end = Some(Termination::Abort);
    out.push(named);

    for (h, seed) in [
        (Handicap::Lance, 2),
        (Handicap::TwoPieces, 3),
        (Handicap::ThreePawns, 4),
    ] {
        let mut r = Record::new(h.position());
        r.handicap = Some(h);
        r.headers = vec![("下手".into(), "C".into()), ("上手".into(), "D".into())];
        r.moves = random_game(&r.start, 80, seed);
        out.push(r);
    }

    let promoted: Position =
        "ln1g3+Rl/1ks1+P4/1ppp1p+Bp1/p3p1p2/9/2P5P/PPSPPPP2/1KG1+s2+r1/LN1G3NL w BGPsn 40"
            .parse()
            .unwrap();
    let mut r = Record::new(promoted);
    r.moves = random_game(&r.start, 60, 5);
    r.end = Some(Termination::IllegalWin);
    out.push(r);
    out
}

/// What CSA keeps of a record: the headers it has fields for.
fn csa_view(r: &Record) -> Record {
    let mut r = r.clone();
    r.headers
        .retain(|(k, _)| matches!(k.as_str(), "先手" | "後手" | "開始日時"));
    r
}

#[test]
fn games_use_same_square_drops_and_promotions() {
    let games = game_records();
    let mut drops = 0;
    let mut promotions = 0;
    let mut same = 0;
    for r in &games {
        let line = japanese_line(&r.start, &r.moves, None).unwrap();
        same += line.matches('同').count();
        drops += r.moves.iter().filter(|m| m.is_drop()).count();
        promotions += r.moves.iter().filter(|m| m.is_promotion()).count();
    }
    assert!(
        drops >= 5 && promotions >= 5 && same >= 10,
        "{drops} {promotions} {same}"
    );
}

#[test]
fn kif_write_then_read_gives_the_same_record() {
    let mut records: Vec<Record> = all_kif_records().into_iter().map(|(_, r)| r).collect();
    records.extend(game_records());
    for r in &records {
        let text = kif::write(r);
        let back = kif::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back, *r, "{text}");
        for encoding in [Encoding::Utf8, Encoding::ShiftJis] {
            let bytes = kif::write_bytes(r, encoding).unwrap();
            assert_eq!(Record::read(&bytes, Format::Kif).unwrap(), *r);
        }
    }
    // A diagram only when the start is not the preset.
    let even = &game_records()[0];
    assert!(!kif::write(even).contains("+---"));
    let text = kif::write(&game_records()[5]);
    assert!(text.contains("後手番"), "{text}");
    assert!(text.contains("v龍") || text.contains(" 龍"), "{text}");
    assert!(text.contains("v全"), "{text}");
}

#[test]
fn ki2_write_then_read_gives_the_same_record() {
    let mut records: Vec<Record> = all_kif_records().into_iter().map(|(_, r)| r).collect();
    records.extend(game_records());
    let mut marks = 0;
    for r in &records {
        let text = ki2::write(r);
        let back = ki2::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        // The header, diagram, moves, comments and the `まで` line's end.
        assert_eq!(back, *r, "{text}");
        marks += text.matches(['右', '左', '上', '引', '寄', '直']).count();
        // Six moves a line at most.
        for line in text.lines().filter(|l| l.starts_with(['▲', '△'])) {
            assert!(line.matches(['▲', '△']).count() <= 6, "{line}");
        }
    }
    assert!(marks >= 5, "{marks} moves with marks");
    let text = ki2::write(&game_records()[5]);
    assert!(text.contains("後手番"), "{text}");
}

#[test]
fn csa_write_then_read_gives_the_same_record() {
    let mut records: Vec<Record> = all_kif_records().into_iter().map(|(_, r)| r).collect();
    records.extend(game_records());
    for r in &records {
        let r = csa_view(r);
        let text = csa::write(&r);
        let back = csa::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back, r, "{text}");
    }
    // A handicap game starts from PI with the removed pieces.
    let text = csa::write(&game_records()[3]);
    assert!(text.contains("\nPI82HI22KA\n-\n"), "{text}");
}

#[test]
fn csa_all_rest_and_kif_rest_give_the_defender_every_piece() {
    let csa_text = "\
V2.2
N+
N-
P1 *  *  *  *  *  * -OU *  * 
P2 *  *  *  *  *  *  *  *  * 
P3 *  *  *  *  *  * +FU *  * 
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7 *  *  *  *  *  *  *  *  * 
P8 *  *  *  *  *  *  *  *  * 
P9 *  *  *  *  *  *  *  *  * 
P+00KI
P-00AL
+
+0032KI
%TSUMI
";
    let from_csa = csa::read(csa_text).unwrap();
    let from_kif = read_kif_file("1te/1.kif");
    assert_eq!(from_csa.start, from_kif.start);
    assert_eq!(from_csa.moves, from_kif.moves);
    // Rows trimmed of their trailing spaces read the same.
    let trimmed: String = csa_text
        .lines()
        .map(|l| l.trim_end().to_string() + "\n")
        .collect();
    assert_eq!(csa::read(&trimmed).unwrap().start, from_kif.start);
    // The same problem in KIF with 残り全部.
    let kif_text = String::from_utf8(kif::write(&from_kif).into_bytes())
        .unwrap()
        .replace(
            "後手の持駒：飛二　角二　金三　銀四　桂四　香四　歩十七",
            "後手の持駒：残り全部",
        );
    assert!(kif_text.contains("残り全部"), "{kif_text}");
    assert_eq!(kif::read(&kif_text).unwrap().start, from_kif.start);
    // Pieces placed with P-: the king and a gold; the rest in White's hand.
    let r = csa::read("P-11OU21KE\nP+13FU00KI00KI\nP-00AL\n+\n").unwrap();
    assert_eq!(
        r.start.to_string(),
        "7nk/9/8P/9/9/9/9/9/9 b 2G2r2b2g4s3n4l17p 1"
    );
}

#[test]
fn ki2_reads_the_moves_of_japanese_notation() {
    for r in game_records() {
        let mut text = String::new();
        if let Some(h) = r.handicap {
            text.push_str(&format!("手合割：{h}\n"));
        }
        if r.start != r.handicap.unwrap_or(Handicap::Even).position() {
            text.push_str(&kif::diagram(&r.start, false));
        }
        let line = japanese_line(&r.start, &r.moves, None).unwrap();
        // Several moves to a line, six to a line as KI2 files have them.
        let words: Vec<&str> = line.split(' ').collect();
        for chunk in words.chunks(6) {
            text.push_str(&chunk.join("    "));
            text.push('\n');
        }
        text.push_str(&format!("まで{}手で詰み\n", r.moves.len()));
        let back = ki2::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back.start, r.start);
        assert_eq!(back.moves, r.moves);
        assert_eq!(back.end, Some(Termination::Mate));
    }
    // A mark the position does not need is fine; one that fits no piece is
    // an error on its line.
    let r = ki2::read("▲７六歩 △３四歩 ▲６八銀 △８四歩\n▲７八金\n").unwrap();
    assert_eq!(r.moves.len(), 5);
    let err = ki2::read("▲７六歩 △３四歩 ▲６八銀 △８四歩\n\n▲５八金\n").unwrap_err();
    assert_eq!((err.line, err.column), (3, Some(4)), "{err}");
    assert!(
        matches!(err.reason, Reason::BadMove { number: 5, .. }),
        "{err}"
    );
}

#[test]
fn shift_jis_and_utf8_inputs_read_alike() {
    let r = read_kif_file("3te/1.kif");
    let text = kif::write(&r);
    let sjis = encode(&text, Encoding::ShiftJis).unwrap();
    let utf8 = text.as_bytes().to_vec();
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(&utf8);
    for bytes in [sjis, utf8, bom] {
        assert_eq!(Record::read(&bytes, Format::Kif).unwrap(), r);
    }
    // Bytes that are neither: the line is named.
    let mut bad = text.into_bytes();
    let third = bad
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'\n')
        .nth(1)
        .unwrap()
        .0;
    bad.insert(third + 1, 0xff);
    let err = Record::read(&bad, Format::Kif).unwrap_err();
    assert_eq!((err.line, err.reason), (3, Reason::Encoding));
    assert!(decode(&[0x82]).is_err());
}

/// The KIF of 1te/1.kif in UTF-8, line by line (line 1 is the first).
fn sample_lines() -> Vec<String> {
    let bytes = std::fs::read(root().join("problems/kif/1te/1.kif")).unwrap();
    decode(&bytes)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn read_lines(lines: &[String]) -> Result<Record, tsume::record::RecordError> {
    kif::read(&(lines.join("\n") + "\n"))
}

#[test]
fn malformed_kif_gives_the_line_of_the_fault() {
    let lines = sample_lines();
    assert_eq!(lines[4], "+---------------------------+");
    assert!(read_lines(&lines).is_ok());

    // The diagram cut after five ranks: the error is on the line where the
    // sixth should be.
    let mut cut = lines.clone();
    cut.drain(10..14);
    let err = read_lines(&cut).unwrap_err();
    assert_eq!(
        (err.line, err.reason.clone()),
        (11, Reason::TruncatedBoard(5)),
        "{err}"
    );
    // The file ends inside the diagram.
    let err = read_lines(&lines[..8]).unwrap_err();
    assert_eq!(
        (err.line, err.reason.clone()),
        (9, Reason::TruncatedBoard(3)),
        "{err}"
    );

    // An unknown piece: line and column.
    let mut bad = lines.clone();
    bad[7] = bad[7].replacen("歩", "象", 1);
    let err = read_lines(&bad).unwrap_err();
    assert_eq!((err.line, err.column), (8, Some(15)), "{err}");
    assert_eq!(err.reason, Reason::UnknownPiece("象".into()));

    // A bad header: an unknown handicap, then a line that is nothing.
    let mut bad = lines.clone();
    bad.insert(2, "手合割：五枚落ち".into());
    let err = read_lines(&bad).unwrap_err();
    assert_eq!(err.line, 3, "{err}");
    assert!(err.to_string().contains("五枚落ち"), "{err}");
    let mut bad = lines.clone();
    bad.insert(2, "先手の持駒 金".into());
    let err = read_lines(&bad).unwrap_err();
    assert_eq!((err.line, err.column), (3, Some(1)), "{err}");

    // A bad hand count.
    let mut bad = lines.clone();
    bad[2] = bad[2].replace("歩十七", "歩十九九");
    let err = read_lines(&bad).unwrap_err();
    assert_eq!(err.line, 3);
    assert_eq!(err.reason, Reason::BadCount("十九九".into()));

    // Too many pieces: the diagram's top line is named.
    let mut bad = lines.clone();
    bad[15] = "先手の持駒：金二".into();
    let err = read_lines(&bad).unwrap_err();
    assert_eq!(err.line, 5, "{err}");
    assert!(matches!(err.reason, Reason::Position(_)), "{err}");
}

#[test]
fn bad_moves_give_their_number_and_line() {
    let game = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(87)\n";
    let err = kif::read(game).unwrap_err();
    // The column of the origin (87), which fits no bishop.
    assert_eq!((err.line, err.column), (5, Some(10)), "{err}");
    assert!(
        matches!(&err.reason, Reason::BadMove { number: 3, text, .. } if text == "２二角成(87)"),
        "{err}"
    );
    // Out of sequence, after the end, on an unknown line.
    let err = kif::read("1 ７六歩(77)\n3 ３四歩(33)\n").unwrap_err();
    assert_eq!(
        err.reason,
        Reason::MoveNumber {
            expected: 2,
            found: 3
        }
    );
    let err = kif::read("1 ７六歩(77)\n2 投了\n3 ３四歩(33)\n").unwrap_err();
    assert_eq!((err.line, err.reason), (3, Reason::MoveAfterEnd(3)));
    let err = kif::read("99999999999999999999999 ７六歩(77)\n1 ３四歩(33)\n").unwrap_err();
    assert_eq!(err.line, 2);
    let err = kif::read("1 ７六歩(77)\nおわり\n").unwrap_err();
    assert_eq!(err.line, 2);
    assert!(kif::read("").is_err());
    assert!(kif::read("\n\n").is_err());

    // ASCII colons, as some programs write them.
    let r = kif::read("手合割:香落ち\n上手:D\n1 ５二金(61)\n").unwrap();
    assert_eq!(r.handicap, Some(Handicap::Lance));
    assert_eq!(r.header("上手"), Some("D"));
    // File numbers in ASCII digits above the diagram.
    let lines = sample_lines();
    let mut ascii = lines.clone();
    ascii[3] = "  9  8  7  6  5  4  3  2  1".into();
    assert_eq!(read_lines(&ascii).unwrap(), read_lines(&lines).unwrap());
    // A header after the moves is kept; その他 needs a diagram.
    let r = kif::read("1 ７六歩(77)\n終了日時：2024/01/01\n").unwrap();
    assert_eq!(r.header("終了日時"), Some("2024/01/01"));
    let err = kif::read("手合割：その他\n1 ７六歩(77)\n").unwrap_err();
    assert_eq!((err.line, err.reason), (1, Reason::MissingBoard));
    let lines = sample_lines();
    let mut other = lines.clone();
    other.insert(2, "手合割：その他".into());
    let r = read_lines(&other).unwrap();
    assert_eq!(
        (r.handicap, r.start),
        (None, read_lines(&lines).unwrap().start)
    );

    // Variations after the main line are not read.
    let r = kif::read("1 ７六歩(77)\n2 ３四歩(33)+\n3 投了\n\n変化：2手\n2 ８四歩(83)\n").unwrap();
    assert_eq!(r.moves.len(), 2);
    // A promoted piece moving, 不成, and 同.
    let r = kif::read("1 ７六歩(77)\n2 ３四歩(33)\n3 ２二角不成(88)\n4 同　銀(31)\n").unwrap();
    assert_eq!(usi(&r.moves), "7g7f 3c3d 8h2b 3a2b");

    // CSA: the third move is illegal, on line 5.
    let err = csa::read("V2.2\nPI\n+\n+7776FU\n-3334FU\n+2824HI\n").unwrap_err();
    assert_eq!(err.line, 6);
    assert!(err.to_string().contains("move 3"), "{err}");
    let err = csa::read("V2.2\nPI\n+\n+7776FU\n-3334FU\n+8822UM\n%TORYO\n+1716FU\n").unwrap_err();
    assert_eq!((err.line, err.reason), (8, Reason::MoveAfterEnd(4)));
    let err = csa::read("V2.2\nP1-KY *  *  *  *  *  *  *  * \nQ\n").unwrap_err();
    assert_eq!(err.line, 3);
    // A row of one square is an error of its own line.
    let err = csa::read("V2.2\nP1-KY\nQ\n").unwrap_err();
    assert_eq!(err.line, 2);
}

#[test]
fn rest_in_hand_for_a_side_to_move_problem() {
    let pos: Position = "4k4/9/4P4/9/9/9/9/9/9 b G 1".parse().unwrap();
    let full = pos.with_rest_in_hand(Color::White);
    assert_eq!(full.hand(Color::White).count(PieceKind::Gold), 3);
    assert_eq!(full.hand(Color::White).count(PieceKind::Pawn), 17);
    assert_eq!(full.hand(Color::Black).count(PieceKind::Gold), 1);
}

// ----------------------------------------------------------------------
// The binary
// ----------------------------------------------------------------------

fn tsume(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tsume"))
        .args(args)
        .args(["--hash", "16"])
        .current_dir(root())
        .stdin(Stdio::null())
        .output()
        .expect("the tsume binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn solve_reads_kif_and_csa_files() {
    let dir = std::env::temp_dir().join(format!("tsume-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = read_kif_file("3te/1.kif");
    let csa_path = dir.join("3te-1.csa");
    std::fs::write(&csa_path, csa::write(&record)).unwrap();
    let csa_arg = csa_path.to_str().unwrap();
    let o = tsume(&["solve", "problems/kif/3te/1.kif", csa_arg, "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    for (l, file) in lines.iter().zip(["problems/kif/3te/1.kif", csa_arg]) {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        assert_eq!(v["result"], "mate");
        assert_eq!(v["length"], 3);
        assert_eq!(v["sfen"], record.start.to_string());
        // Which file each result is for.
        assert_eq!(v["origin"], file, "{v}");
    }
    let o = tsume(&["solve", "problems/kif/3te/1.kif", csa_arg]);
    let text = stdout(&o);
    assert!(text.starts_with("== problems/kif/3te/1.kif ==\n"), "{text}");
    assert!(text.contains(&format!("\n== {csa_arg} ==\n")), "{text}");
    // --file with a record file works as an argument does.
    let o = tsume(&["solve", "--file", "problems/kif/1te/1.kif"]);
    assert!(stdout(&o).contains("mate in 1"), "{}", stdout(&o));
    // A bad record is an error naming the file and line; the others are
    // still solved.
    let bad = dir.join("bad.kif");
    std::fs::write(&bad, "手合割：平手\n1 ７六歩(77)\n2 ７六歩(77)\n").unwrap();
    let o = tsume(&["solve", bad.to_str().unwrap(), "problems/kif/1te/2.kif"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.kif: line 3"), "{err}");
    assert!(stdout(&o).contains("mate in 1"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn verify_takes_the_records_moves_as_the_solution() {
    let o = tsume(&["verify", "problems/kif/3te/1.kif", "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["verdict"], "sound");
    assert_eq!(v["origin"], "problems/kif/3te/1.kif");
    // 1te/10.kif ends in 中断, but its one move mates: sound, with that
    // move as the main line.
    let o = tsume(&["verify", "problems/kif/1te/10.kif", "--json"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["verdict"], "sound", "{v}");
    assert_eq!(v["main_line"], serde_json::json!(["4d5b+"]));
    // A solution that is not the record's: --solution wins.
    let o = tsume(&[
        "verify",
        "problems/kif/3te/1.kif",
        "--solution",
        "G*5c",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_ne!(v["verdict"], "sound", "{v}");
}

#[test]
fn rest_to_defender_fills_the_defenders_hand() {
    let o = tsume(&[
        "solve",
        "6k2/9/6P2/9/9/9/9/9/9 b G 1",
        "--rest-to-defender",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["sfen"], "6k2/9/6P2/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
    assert_eq!(v["result"], "mate");
    // Without it the defender holds nothing.
    let o = tsume(&["solve", "6k2/9/6P2/9/9/9/9/9/9 b G 1", "--json"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["sfen"], "6k2/9/6P2/9/9/9/9/9/9 b G 1");
    // verify too.
    let o = tsume(&[
        "verify",
        "6k2/9/6P2/9/9/9/9/9/9 b G 1",
        "--rest-to-defender",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["sfen"], "6k2/9/6P2/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
    assert!(Path::new(&root().join("problems/kif/1te/1.kif")).exists());
}

/// Cut or damaged anywhere, a record gives an error or a record, never a
/// panic.
#[test]
fn damaged_records_never_panic() {
    let kif_text = kif::write(&read_kif_file("3te/5.kif"));
    let game = &game_records()[3];
    let csa_text = csa::write(game);
    let ki2_text = format!(
        "手合割：香落ち\n{}\nまで3手で中断\n",
        japanese_line(&game.start, &game.moves[..12], None).unwrap()
    );
    let junk = [
        'x', '|', '+', '-', 'v', '：', '同', '(', ')', '0', ',', '\n', '歩',
    ];
    for (text, read) in [
        (&kif_text, kif::read as fn(&str) -> _),
        (&csa_text, csa::read),
        (&ki2_text, ki2::read),
    ] {
        let chars: Vec<char> = text.chars().collect();
        for i in 0..chars.len() {
            let cut: String = chars[..i].iter().collect();
            let _ = read(&cut);
            let mut damaged = chars.clone();
            damaged[i] = junk[i % junk.len()];
            let _ = read(&damaged.iter().collect::<String>());
            let mut dropped = chars.clone();
            dropped.remove(i);
            let _ = read(&dropped.iter().collect::<String>());
        }
    }
}

/// A CSA position of rows gives all nine and the side to move; a KIF
/// diagram its two edges and its nine ranks in order. Each error names
/// what is missing.
#[test]
fn incomplete_boards_are_errors_naming_what_is_missing() {
    let rows = [
        "P1 *  *  *  *  *  * -OU *  * ",
        "P2 *  *  *  *  *  *  *  *  * ",
        "P3 *  *  *  *  *  * +FU *  * ",
        "P4 *  *  *  *  *  *  *  *  * ",
        "P5 *  *  *  *  *  *  *  *  * ",
        "P6 *  *  *  *  *  *  *  *  * ",
        "P7 *  *  *  *  *  *  *  *  * ",
        "P8 *  *  *  *  *  *  *  *  * ",
        "P9 *  *  *  *  *  *  *  *  * ",
    ];
    let csa_with =
        |rows: &[&str], side: &str| format!("V2.2\n{}\nP+00KI\nP-00AL\n{side}", rows.join("\n"));
    assert!(csa::read(&csa_with(&rows, "+\n")).is_ok());
    // Only P1 to P4: was read as a board with empty ranks 5 to 9.
    let err = csa::read(&csa_with(&rows[..4], "+\n")).unwrap_err();
    assert_eq!(
        err.reason,
        Reason::MissingRows("rows P5, P6, P7, P8, P9".to_string()),
        "{err}"
    );
    // The line of the position's last statement.
    assert_eq!(err.line, 7, "{err}");
    let err = csa::read(&csa_with(&rows[..8], "+\n+0032KI\n")).unwrap_err();
    assert_eq!(
        err.reason,
        Reason::MissingRows("row P9".to_string()),
        "{err}"
    );
    assert!(err.to_string().contains("lacks row P9"), "{err}");
    // No side to move: at the first move, or at the end.
    let err = csa::read(&csa_with(&rows, "+0032KI\n")).unwrap_err();
    assert_eq!(
        (err.line, err.reason.clone()),
        (13, Reason::MissingSide),
        "{err}"
    );
    let err = csa::read(&csa_with(&rows, "")).unwrap_err();
    assert_eq!(
        (err.line, err.reason.clone()),
        (13, Reason::MissingSide),
        "{err}"
    );
    assert!(err.to_string().contains("side to move is missing"), "{err}");
    let err = csa::read("PI\n+7776FU\n").unwrap_err();
    assert_eq!(err.reason, Reason::MissingSide, "{err}");
    // A row twice, or rows after PI.
    let mut twice = rows.to_vec();
    twice[4] = rows[3];
    let err = csa::read(&csa_with(&twice, "+\n")).unwrap_err();
    assert_eq!(
        (err.line, err.reason.clone()),
        (6, Reason::Repeated("a row of the board"))
    );
    assert!(csa::read(&format!("PI\n{}\n+\n", rows[0])).is_err());

    // KIF: the sample without its top edge, without its bottom edge, with
    // a rank twice (五 missing), cut after five ranks.
    let lines = sample_lines();
    assert_eq!(lines[4], "+---------------------------+");
    assert_eq!(lines[14], "+---------------------------+");
    let mut no_top = lines.clone();
    no_top.remove(4);
    let err = read_lines(&no_top).unwrap_err();
    assert_eq!(
        (err.line, err.reason.clone()),
        (5, Reason::MissingBoardEdge("top")),
        "{err}"
    );
    let mut no_bottom = lines.clone();
    no_bottom.remove(14);
    let err = read_lines(&no_bottom).unwrap_err();
    assert_eq!(
        (err.line, err.reason.clone()),
        (15, Reason::MissingBoardEdge("bottom")),
        "{err}"
    );
    let mut skipped = lines.clone();
    skipped[9] = lines[9].replace('五', "六");
    let err = read_lines(&skipped).unwrap_err();
    assert_eq!(
        (err.line, err.reason.clone()),
        (
            10,
            Reason::RankOrder {
                expected: '五',
                found: '六'
            }
        ),
        "{err}"
    );
    let mut cut = lines.clone();
    cut.drain(10..14);
    let err = read_lines(&cut).unwrap_err();
    assert!(
        err.to_string()
            .ends_with("ends after 5 of its 9 ranks: ranks 6 to 9 are missing"),
        "{err}"
    );

    // Through the command line: an error, not a problem without mate.
    let dir = std::env::temp_dir().join(format!("tsume-boards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let four = dir.join("four-rows.csa");
    std::fs::write(&four, csa_with(&rows[..4], "+\n")).unwrap();
    let o = tsume(&["solve", four.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("lacks rows P5, P6, P7, P8, P9"),
        "{}",
        stdout(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A CSA row of fewer than nine squares is an error naming the row and
/// the squares it lacks (it was padded with empty squares, silently
/// dropping the pieces it lacked: a wrong answer; issue 31, audit F2).
/// A last `*` without its trailing space is still a whole row. KIF rows
/// of other than nine squares are errors too.
#[test]
fn short_csa_rows_are_errors_naming_the_row() {
    let rows = [
        "P1 *  *  *  *  *  * -OU *  * ",
        "P2 *  *  *  *  *  *  *  *  * ",
        "P3 *  *  *  *  *  * +FU *  * ",
        "P4 *  *  *  *  *  *  *  *  * ",
        "P5 *  *  *  *  *  *  *  *  * ",
        "P6 *  *  *  *  *  *  *  *  * ",
        "P7 *  *  *  *  *  *  *  *  * ",
        "P8 *  *  *  *  *  *  *  *  * ",
        "P9 *  *  *  *  *  *  *  *  * ",
    ];
    let csa_with = |row3: &str| {
        let mut r = rows.to_vec();
        r[2] = row3;
        format!("V2.2\n{}\nP+00KI\nP-00AL\n+\n", r.join("\n"))
    };
    assert!(csa::read(&csa_with(rows[2])).is_ok());
    // Trailing space lost on the last square: still nine squares.
    let trimmed = csa::read(&csa_with(rows[2].trim_end())).unwrap();
    assert_eq!(trimmed.start, csa::read(&csa_with(rows[2])).unwrap().start);
    for (row, squares, missing) in [
        ("P3 *  *  * ", 3, "the squares on files 6 to 1 are missing"),
        ("P3 * ", 1, "the squares on files 8 to 1 are missing"),
        ("P3", 0, "the squares on files 9 to 1 are missing"),
        (
            "P3 *  *  *  *  *  *  * +FU",
            8,
            "the square on file 1 is missing",
        ),
        (
            "P3 *  *  *  *  *  *  * +FU ",
            8,
            "the square on file 1 is missing",
        ),
    ] {
        let err = csa::read(&csa_with(row)).unwrap_err();
        assert_eq!(
            (err.line, err.reason.clone()),
            (4, Reason::ShortRow { rank: 3, squares }),
            "{row:?}: {err}"
        );
        let text = err.to_string();
        assert!(text.contains("row P3 stops after"), "{text}");
        assert!(text.contains(missing), "{text}");
    }
    // A blank square in the middle is not an empty square.
    let err = csa::read(&csa_with("P3 *     *  *  *  * +FU *  * ")).unwrap_err();
    assert_eq!(err.line, 4, "{err}");
    assert!(err.to_string().contains("` * `"), "{err}");

    // Through the command line: an error, not `nomate`.
    let dir = std::env::temp_dir().join(format!("tsume-short-row-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("short.csa");
    std::fs::write(&file, csa_with("P3 *  *  * ")).unwrap();
    let o = tsume(&["solve", file.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("row P3 stops after 3"),
        "{}",
        stdout(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);

    // KIF: a board row of 8 or 10 squares is an error.
    let lines = sample_lines();
    for (cut, len) in [(true, 8), (false, 10)] {
        let mut bad = lines.clone();
        let row = &lines[5];
        let bar = row.find('|').unwrap();
        let body: String = row[bar + 1..].chars().collect();
        let inner_end = body.find('|').unwrap();
        let inner: Vec<char> = body[..inner_end].chars().collect();
        let changed: String = if cut {
            inner[..16].iter().collect()
        } else {
            format!("{} ・", inner.iter().collect::<String>())
        };
        bad[5] = format!("{}|{}{}", &row[..bar], changed, &body[inner_end..]);
        let err = read_lines(&bad).unwrap_err();
        assert_eq!(err.reason, Reason::RowLength(len), "{err}");
    }
}

/// A record line over 1 MB is an error for the record, a record file over
/// 4 MB is refused before it is read whole, and an error quotes at most 80
/// characters of the text.
#[test]
fn records_are_read_in_bounded_memory_and_quoted_short() {
    let long = format!("手合割：平手\n1 {}\n", "歩".repeat(400_000));
    let err = kif::read(&long).unwrap_err();
    assert_eq!(
        (err.line, err.reason.clone()),
        (2, Reason::LineTooLong(1_200_002))
    );
    let junk = format!("V2.2\nPI\n+\n+{}\n", "7".repeat(500_000));
    let err = csa::read(&junk).unwrap_err();
    assert!(err.to_string().len() < 300, "{}", err.to_string().len());
    let dir = std::env::temp_dir().join(format!("tsume-big-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let big = dir.join("big.kif");
    std::fs::write(&big, "*\n".repeat(3 << 20)).unwrap();
    let err = tsume::input::read_record_file(&big).unwrap_err();
    assert!(
        err.to_string()
            .ends_with("more than 4 MB: too large for a record"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
