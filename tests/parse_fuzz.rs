//! Bad input never panics: SFEN, USI moves and USI `position` commands
//! from random strings, random ASCII, and mutations of valid input. Every
//! `Ok` must round-trip. Then one regression test per error kind, with
//! the expected variant and column, and one per finding.
//!
//! The property tests use a fixed seed (see `config`) so that CI runs are
//! reproducible; failures are not persisted to files:
//! each finding is kept below as a named test.

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::RngSeed;

use tsume::core::movegen;
use tsume::core::sfen::{ColorName, KindName};
use tsume::core::{
    Color, IllegalMove, Move, MoveError, ParseMoveError, PieceKind, Position, SfenError, Square,
    UsiPosition, UsiPositionError,
};

/// `cases` runs with a fixed seed; `TSUME_FUZZ_SEED` picks another seed
/// and `TSUME_FUZZ_SCALE` multiplies the number of cases, for longer hunts.
fn config(cases: u32) -> ProptestConfig {
    let env = |name: &str| std::env::var(name).ok().and_then(|s| s.parse::<u64>().ok());
    let seed = env("TSUME_FUZZ_SEED").unwrap_or(0x5f3e_2a17);
    let scale = env("TSUME_FUZZ_SCALE").map_or(1, |n| n.min(10_000) as u32);
    ProptestConfig {
        cases: cases.saturating_mul(scale),
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(seed),
        ..ProptestConfig::default()
    }
}

/// Valid SFENs to mutate: the start position, tsume positions (from the
/// shared problem sets), a relaxed-only one, and positions of a seeded
/// random game.
fn valid_sfens() -> Vec<String> {
    let mut v: Vec<String> = [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
        "3g1n1l1/2p1g1r2/5k2S/4p1N+R1/3+p5/7N1/B8/9/9 b 2GSNb2s3l15p 1",
        "ln1r4l/3k1gp2/pS1p1+P1+R1/6L1p/1pPP2S2/2S3P2/PP2p1+b1P/3K5/+b7L w 2GSN3Pg2n2p 118",
        "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1",
        "8k/9/9/9/9/9/9/9/9 b Rr2b4g4s4n4l18p 1",
        "sfen 7nk/7bl/9/9/6N2/9/9/9/9 b 2rb4g4s2n3l18p",
        "startpos",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut pos = Position::startpos();
    let mut x = 0x2545_f491u64;
    for _ in 0..60 {
        let moves = movegen::legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        pos.do_move(moves[(x % moves.len() as u64) as usize]);
        v.push(pos.to_string());
    }
    v
}

/// Valid `position` commands: prefixes of a seeded random game, in the
/// three accepted forms.
fn valid_commands() -> Vec<String> {
    let starts = [
        "startpos",
        "sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
        "sfen ln1r4l/3k1gp2/pS1p1+P1+R1/6L1p/1pPP2S2/2S3P2/PP2p1+b1P/3K5/+b7L w 2GSN3Pg2n2p 118",
    ];
    let mut out = Vec::new();
    let mut x = 0x9e37_79b9u64;
    for start in starts {
        let mut pos: Position = start.trim_start_matches("sfen ").parse().unwrap();
        let mut moves = Vec::new();
        for n in 0..25 {
            let list = movegen::legal_moves(&pos);
            if list.is_empty() {
                break;
            }
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let m = list[(x % list.len() as u64) as usize];
            pos.do_move(m);
            moves.push(m.to_string());
            if n % 6 == 0 {
                out.push(format!("position {start} moves {}", moves.join(" ")));
                out.push(format!("{start} moves {}", moves.join(" ")));
            }
        }
        out.push(format!("position {start}"));
    }
    out
}

/// Legal move strings of several positions, to mutate.
fn valid_moves() -> Vec<String> {
    let mut v = Vec::new();
    for s in valid_sfens().iter().step_by(5) {
        let p: Position = s.parse().unwrap();
        v.extend(movegen::legal_moves(&p).iter().map(|m| m.to_string()));
    }
    v.sort();
    v.dedup();
    v
}

/// Characters that matter to the parsers, and now and then any char.
fn interesting_char() -> impl Strategy<Value = char> {
    let alphabet: Vec<char> = "PLNSGBRKplnsgbrk+*/-0123456789 abcdefghijwx\t\u{3000}é"
        .chars()
        .collect();
    prop_oneof![
        8 => proptest::sample::select(alphabet),
        1 => any::<char>(),
    ]
}

#[derive(Clone, Debug)]
enum Mutation {
    Delete(Index),
    Insert(Index, char),
    Replace(Index, char),
    Truncate(Index),
    SwapFields(Index, Index),
    DuplicateField(Index),
    DropField(Index),
    ReplaceField(Index, String),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<Index>().prop_map(Mutation::Delete),
        (any::<Index>(), interesting_char()).prop_map(|(i, c)| Mutation::Insert(i, c)),
        (any::<Index>(), interesting_char()).prop_map(|(i, c)| Mutation::Replace(i, c)),
        any::<Index>().prop_map(Mutation::Truncate),
        (any::<Index>(), any::<Index>()).prop_map(|(i, j)| Mutation::SwapFields(i, j)),
        any::<Index>().prop_map(Mutation::DuplicateField),
        any::<Index>().prop_map(Mutation::DropField),
        (any::<Index>(), number()).prop_map(|(i, n)| Mutation::ReplaceField(i, n)),
    ]
}

/// Numbers, mostly near the edges of the integer types.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<u64>().prop_map(|n| n.to_string()),
        any::<i32>().prop_map(|n| n.to_string()),
        (0u64..40).prop_map(|d| (u32::MAX as u64 - 20 + d).to_string()),
        (0u64..40).prop_map(|d| (i32::MAX as u64 - 20 + d).to_string()),
        (0u32..40).prop_map(|n| n.to_string()),
        "[+-]?0*[0-9]{1,25}",
    ]
}

fn mutate(s: &str, mutations: &[Mutation]) -> String {
    let mut chars: Vec<char> = s.chars().collect();
    for m in mutations {
        let n = chars.len();
        match m {
            Mutation::Delete(i) if n > 0 => {
                chars.remove(i.index(n));
            }
            Mutation::Insert(i, c) => chars.insert(i.index(n + 1), *c),
            Mutation::Replace(i, c) if n > 0 => chars[i.index(n)] = *c,
            Mutation::Truncate(i) => chars.truncate(i.index(n + 1)),
            Mutation::SwapFields(..)
            | Mutation::DuplicateField(_)
            | Mutation::DropField(_)
            | Mutation::ReplaceField(..) => {
                let text: String = chars.iter().collect();
                let mut fields: Vec<String> = text.split(' ').map(|f| f.to_string()).collect();
                let k = fields.len();
                match m {
                    Mutation::SwapFields(i, j) => fields.swap(i.index(k), j.index(k)),
                    Mutation::DuplicateField(i) => {
                        let f = fields[i.index(k)].clone();
                        fields.insert(i.index(k), f);
                    }
                    Mutation::DropField(i) => {
                        fields.remove(i.index(k));
                    }
                    Mutation::ReplaceField(i, n) => fields[i.index(k)] = n.clone(),
                    _ => unreachable!(),
                }
                chars = fields.join(" ").chars().collect();
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

// ----- what every Ok must satisfy -----

fn check_position_text(s: &str) {
    if let Ok(p) = s.parse::<Position>() {
        let text = p.to_string();
        let q: Position = text
            .parse()
            .unwrap_or_else(|e| panic!("`{s}` parsed, its SFEN `{text}` does not: {e}"));
        assert_eq!(q, p, "`{s}` -> `{text}`");
        assert_eq!(q.to_string(), text);
        assert_eq!(q.key(), p.key());
        assert_eq!(q.ply(), p.ply());
        assert_eq!(q.checkers(), p.checkers());
        // A parsed position is one the generators can work on.
        let _ = movegen::legal_moves(&p);
        let _ = movegen::check_moves(&p);
        // The relaxed reader accepts whatever the strict one does.
        assert_eq!(Position::from_sfen_relaxed(s).as_ref(), Ok(&p), "`{s}`");
    }
    if let Ok(p) = Position::from_sfen_relaxed(s) {
        let text = p.to_string();
        let q = Position::from_sfen_relaxed(&text)
            .unwrap_or_else(|e| panic!("`{s}` parsed relaxed, `{text}` does not: {e}"));
        assert_eq!(q, p, "`{s}` -> `{text}`");
        assert_eq!(q.key(), p.key());
        let _ = movegen::legal_moves(&p);
    }
}

fn check_move_text(s: &str, positions: &[Position]) {
    if let Ok(m) = s.parse::<Move>() {
        assert_eq!(m.to_string().parse::<Move>(), Ok(m), "`{s}`");
        assert_eq!(Move::from_raw(m.raw()), Some(m));
    }
    for p in positions {
        if let Ok(m) = p.parse_move(s) {
            assert!(movegen::legal_moves(p).contains(&m), "`{s}` in {p}");
            let mut q = p.clone();
            let undo = q.do_move(m);
            check_position_text(&q.to_string());
            q.undo_move(m, undo);
            assert_eq!(&q, p);
        }
    }
}

fn check_command_text(s: &str) {
    if let Ok(u) = s.parse::<UsiPosition>() {
        let mut p = u.start.clone();
        for &m in &u.moves {
            assert_eq!(p.is_legal(m), Ok(()), "`{s}`");
            p.do_move(m);
        }
        assert_eq!(p, u.end, "`{s}`");
        assert_eq!(p.ply(), u.end.ply(), "`{s}`");
        check_position_text(&u.start.to_string());
        check_position_text(&u.end.to_string());
        // The canonical form of the command reads back the same.
        let moves: Vec<String> = u.moves.iter().map(|m| m.to_string()).collect();
        let canonical = if moves.is_empty() {
            format!("position sfen {}", u.start)
        } else {
            format!("position sfen {} moves {}", u.start, moves.join(" "))
        };
        let v: UsiPosition = canonical
            .parse()
            .unwrap_or_else(|e| panic!("`{s}` -> `{canonical}`: {e}"));
        assert_eq!(v.start, u.start);
        assert_eq!(v.moves, u.moves);
        assert_eq!(v.end, u.end);
        assert_eq!(v.end.to_string(), u.end.to_string());
    }
}

fn ascii_string(max: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(0u8..128, 0..max)
        .prop_map(|b| String::from_utf8(b).expect("ASCII is UTF-8"))
}

fn sfen_alphabet_string(max: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(interesting_char(), 0..max).prop_map(|c| c.into_iter().collect())
}

proptest! {
    #![proptest_config(config(10_000))]

    #[test]
    fn any_string_as_sfen(s in any::<String>()) {
        check_position_text(&s);
    }

    #[test]
    fn ascii_as_sfen(s in ascii_string(80)) {
        check_position_text(&s);
    }

    #[test]
    fn sfen_alphabet_as_sfen(s in sfen_alphabet_string(60)) {
        check_position_text(&s);
    }

    #[test]
    fn any_string_as_move(s in any::<String>()) {
        check_move_text(&s, &[Position::startpos()]);
    }

    #[test]
    fn short_ascii_as_move(s in ascii_string(7)) {
        check_move_text(&s, &[Position::startpos()]);
    }

    #[test]
    fn any_string_as_command(s in any::<String>()) {
        check_command_text(&s);
    }

    #[test]
    fn ascii_as_command(s in ascii_string(100)) {
        check_command_text(&s);
    }
}

proptest! {
    #![proptest_config(config(10_000))]

    #[test]
    fn mutated_sfens(
        s in proptest::sample::select(valid_sfens()),
        muts in proptest::collection::vec(mutation(), 1..5),
    ) {
        let bad = mutate(&s, &muts);
        check_position_text(&bad);
        check_command_text(&bad);
        check_command_text(&format!("position sfen {bad} moves 7g7f"));
    }

    #[test]
    fn mutated_moves(
        s in proptest::sample::select(valid_moves()),
        muts in proptest::collection::vec(mutation(), 1..3),
    ) {
        let positions: Vec<Position> =
            valid_sfens().iter().step_by(5).map(|s| s.parse().unwrap()).collect();
        check_move_text(&mutate(&s, &muts), &positions);
    }

    #[test]
    fn mutated_commands(
        s in proptest::sample::select(valid_commands()),
        muts in proptest::collection::vec(mutation(), 1..5),
    ) {
        check_command_text(&mutate(&s, &muts));
    }
}

// ----- one regression test per SFEN error kind, with its column -----

fn err(s: &str) -> SfenError {
    match s.parse::<Position>() {
        Ok(p) => panic!("`{s}` parsed as {p}"),
        Err(e) => e,
    }
}

/// A board of 19 characters: rank a at column 1, then two columns a rank
/// (rank e at 11, rank i at 19); the side at 21, the hands at 23, the
/// move number at 25.
const KING_ONLY: &str = "4k4/9/9/9/9/9/9/9/9";

#[test]
fn sfen_error_empty() {
    assert_eq!(err(""), SfenError::Empty);
    assert_eq!(err(" \t\n "), SfenError::Empty);
    assert_eq!(err("sfen"), SfenError::Empty);
}

#[test]
fn sfen_error_missing_side_and_hands() {
    assert_eq!(err(KING_ONLY), SfenError::MissingSide);
    assert_eq!(err(&format!("{KING_ONLY} b")), SfenError::MissingHands);
    assert_eq!(
        err(&format!("sfen {KING_ONLY} w ")),
        SfenError::MissingHands
    );
}

#[test]
fn sfen_error_rank_count() {
    assert_eq!(err("4k4/9/9 b - 1"), SfenError::RankCount(3));
    assert_eq!(err("4k4/9/9/9/9/9/9/9/9/9 b - 1"), SfenError::RankCount(10));
    assert_eq!(err("startpos moves"), SfenError::RankCount(1));
}

#[test]
fn sfen_error_rank_length() {
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/8 b - 1"),
        SfenError::RankLength {
            rank: 'i',
            squares: 8,
            column: 19
        }
    );
    assert_eq!(
        err("4k5/9/9/9/9/9/9/9/9 b - 1"),
        SfenError::RankLength {
            rank: 'a',
            squares: 10,
            column: 1
        }
    );
    assert_eq!(
        err("4k4//9/9/9/9/9/9/9 b - 1"),
        SfenError::RankLength {
            rank: 'b',
            squares: 0,
            column: 5
        }
    );
    // Columns count characters, not bytes, and start after leading blanks.
    assert_eq!(
        err("  4k4/9/9/9/+P+P+P+P+P+P+P+P+P+P/9/9/9/9 b - 1"),
        SfenError::RankLength {
            rank: 'e',
            squares: 10,
            column: 13
        }
    );
}

#[test]
fn sfen_error_unknown_letter() {
    assert_eq!(
        err("4k4/9/9/9/4x4/9/9/9/9 b - 1"),
        SfenError::UnknownLetter {
            letter: 'x',
            column: 12
        }
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/0 b - 1"),
        SfenError::UnknownLetter {
            letter: '0',
            column: 19
        }
    );
    assert_eq!(
        err("4ｋ4/9/9/9/9/9/9/9/9 b - 1"),
        SfenError::UnknownLetter {
            letter: 'ｋ',
            column: 2
        }
    );
    assert_eq!(
        err(&format!("{KING_ONLY} b 2Px 1")),
        SfenError::UnknownLetter {
            letter: 'x',
            column: 25
        }
    );
    assert_eq!(
        err(&format!("{KING_ONLY} b é 1")),
        SfenError::UnknownLetter {
            letter: 'é',
            column: 23
        }
    );
    assert_eq!(
        err(&format!("{KING_ONLY} b -P 1")),
        SfenError::UnknownLetter {
            letter: '-',
            column: 23
        }
    );
}

#[test]
fn sfen_error_bad_promotion() {
    assert_eq!(
        err("4+k4/9/9/9/9/9/9/9/9 b - 1"),
        SfenError::BadPromotion {
            letter: 'k',
            column: 3
        }
    );
    assert_eq!(
        err("4k4/9/9/9/4+G3/9/9/9/9 b - 1"),
        SfenError::BadPromotion {
            letter: 'G',
            column: 13
        }
    );
}

#[test]
fn sfen_error_dangling_plus() {
    assert_eq!(
        err("4k3+/9/9/9/9/9/9/9/9 b - 1"),
        SfenError::DanglingPlus { column: 4 }
    );
    assert_eq!(
        err("4k4/9/9/9/+18/9/9/9/9 b - 1"),
        SfenError::DanglingPlus { column: 11 }
    );
    assert_eq!(
        err("4k4/9/9/9/++P7/9/9/9/9 b - 1"),
        SfenError::DanglingPlus { column: 11 }
    );
    assert_eq!(
        err("4k4/9/9/9/+x8/9/9/9/9 b - 1"),
        SfenError::DanglingPlus { column: 11 }
    );
}

#[test]
fn sfen_error_bad_side() {
    for side in ["x", "B", "bw", "-"] {
        assert_eq!(
            err(&format!("{KING_ONLY} {side} - 1")),
            SfenError::BadSide {
                found: side.to_string(),
                column: 21
            }
        );
    }
}

#[test]
fn sfen_error_bad_hand() {
    let bad = |hand: &str| err(&format!("{KING_ONLY} b {hand} 1"));
    assert_eq!(
        bad("0P"),
        SfenError::BadHand {
            reason: "a count of 0".to_string(),
            column: 23
        }
    );
    assert_eq!(
        bad("P19p"),
        SfenError::BadHand {
            reason: "a count above 18".to_string(),
            column: 24
        }
    );
    assert!(matches!(bad("K"), SfenError::BadHand { column: 23, .. }));
    assert!(matches!(bad("Pk"), SfenError::BadHand { column: 24, .. }));
    // Columns further into the field.
    assert_eq!(
        bad("RB19P"),
        SfenError::BadHand {
            reason: "a count above 18".to_string(),
            column: 25
        }
    );
    assert!(matches!(
        bad("RBGSK"),
        SfenError::BadHand { column: 27, .. }
    ));
    assert_eq!(
        err(&format!("{KING_ONLY} b RB2G3Sx 1")),
        SfenError::UnknownLetter {
            letter: 'x',
            column: 29
        }
    );
    assert_eq!(
        bad("P3"),
        SfenError::BadHand {
            reason: "a count not followed by a piece letter".to_string(),
            column: 24
        }
    );
}

#[test]
fn sfen_error_bad_ply() {
    for ply in ["0", "-1", "x", "1.5", "4294967296", "99999999999999999999"] {
        assert_eq!(
            err(&format!("{KING_ONLY} b - {ply}")),
            SfenError::BadPly {
                found: ply.to_string(),
                column: 25
            },
            "{ply}"
        );
    }
}

#[test]
fn sfen_error_trailing_text() {
    assert_eq!(
        err(&format!("{KING_ONLY} b - 1 x")),
        SfenError::TrailingText {
            found: "x".to_string(),
            column: 27
        }
    );
    assert_eq!(
        err(&format!("{KING_ONLY} b - moves")),
        SfenError::TrailingText {
            found: "moves".to_string(),
            column: 25
        }
    );
}

#[test]
fn sfen_error_too_many_kings() {
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/K3K4 b - 1"),
        SfenError::TooManyKings {
            color: ColorName(Color::Black),
            count: 2
        }
    );
    assert_eq!(
        err("kkk6/9/9/9/9/9/9/9/9 b - 1"),
        SfenError::TooManyKings {
            color: ColorName(Color::White),
            count: 3
        }
    );
}

#[test]
fn sfen_error_dead_piece() {
    let dead = |board: &str, color, kind, square: &str| {
        assert_eq!(
            err(&format!("{board} b - 1")),
            SfenError::DeadPiece {
                color: ColorName(color),
                kind: KindName(kind),
                square: square.parse::<Square>().unwrap()
            },
            "{board}"
        );
    };
    dead("P3k4/9/9/9/9/9/9/9/9", Color::Black, PieceKind::Pawn, "9a");
    dead("4k3L/9/9/9/9/9/9/9/9", Color::Black, PieceKind::Lance, "1a");
    dead(
        "4k4/1N7/9/9/9/9/9/9/9",
        Color::Black,
        PieceKind::Knight,
        "8b",
    );
    dead("4k4/9/9/9/9/9/9/9/4p4", Color::White, PieceKind::Pawn, "5i");
    dead(
        "4k4/9/9/9/9/9/9/n8/9",
        Color::White,
        PieceKind::Knight,
        "9h",
    );
    dead("4k4/9/9/9/9/9/9/9/8l", Color::White, PieceKind::Lance, "1i");
}

#[test]
fn sfen_error_two_pawns() {
    assert_eq!(
        err("4k4/9/9/9/9/9/P8/P8/9 b - 1"),
        SfenError::TwoPawns {
            color: ColorName(Color::Black),
            file: 9
        }
    );
    assert_eq!(
        err("4k4/8p/8p/9/9/9/9/9/9 b - 1"),
        SfenError::TwoPawns {
            color: ColorName(Color::White),
            file: 1
        }
    );
    // A promoted pawn does not count.
    assert!("4k4/8p/8+p/9/9/9/9/9/9 b - 1".parse::<Position>().is_ok());
}

#[test]
fn sfen_error_too_many_pieces() {
    assert_eq!(
        err(&format!("{KING_ONLY} b 10P9p 1")),
        SfenError::TooManyPieces {
            kind: KindName(PieceKind::Pawn),
            count: 19,
            max: 18,
            relaxed: false
        }
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/R+R+r6 b - 1"),
        SfenError::TooManyPieces {
            kind: KindName(PieceKind::Rook),
            count: 3,
            max: 2,
            relaxed: false
        }
    );
    assert_eq!(
        err(&format!("{KING_ONLY} b 3G2g 1")),
        SfenError::TooManyPieces {
            kind: KindName(PieceKind::Gold),
            count: 5,
            max: 4,
            relaxed: false
        }
    );
    // The relaxed reader takes what a hand can hold, no more.
    assert!(Position::from_sfen_relaxed(&format!("{KING_ONLY} b 3G2g 1")).is_ok());
    assert!(matches!(
        Position::from_sfen_relaxed(&format!("{KING_ONLY} b 4G4g 1")),
        Err(SfenError::TooManyPieces {
            count: 8,
            max: 7,
            ..
        })
    ));
}

/// The count in a piece-count error is every piece of the kind, the
/// whole hand field read (it stopped at the first piece over the cap:
/// "5 golds" for ten), and the cap is named for what it is: a set's, or
/// the relaxed one (issue 31, audit F7).
#[test]
fn sfen_piece_count_errors_give_the_whole_count_and_the_right_cap() {
    let too_many = |sfen: &str, relaxed: bool| {
        let e = if relaxed {
            Position::from_sfen_relaxed(sfen).unwrap_err()
        } else {
            sfen.parse::<Position>().unwrap_err()
        };
        match e {
            SfenError::TooManyPieces { count, max, .. } => (count, max, e.to_string()),
            other => panic!("{sfen}: {other}"),
        }
    };
    let (count, max, text) = too_many("4k4/9/4P4/9/9/9/9/9/9 b GGGGGGGGGG 1", false);
    assert_eq!((count, max), (10, 4), "{text}");
    assert_eq!(
        text,
        "10 golds in all (board and hands), more than the 4 of a set"
    );
    assert_eq!(too_many("4k4/9/4P4/9/9/9/9/9/9 b 5G4G 1", false).0, 9);
    // Both hands and the board (a promoted silver is a silver).
    assert_eq!(too_many("4k4/9/4+S4/9/9/9/9/9/9 b 2S2s 1", false).0, 5);
    let (count, max, text) = too_many("4k4/9/4P4/9/9/9/9/9/9 b 19G 1", true);
    assert_eq!((count, max), (19, 7), "{text}");
    assert!(
        text.ends_with("more than 7, the most a relaxed position may hold (a set has 4)"),
        "{text}"
    );
    // What relaxed reading would accept, and what it would not.
    let accepted = |sfen: &str| {
        sfen.parse::<Position>()
            .unwrap_err()
            .accepted_when_relaxed()
    };
    assert!(accepted("4k4/9/4P4/9/9/9/9/9/9 b 5G 1"));
    assert!(!accepted("4k4/9/4P4/9/9/9/9/9/9 b GGGGGGGGGG 1"));
    assert!(accepted("4k4/9/9/9/9/9/2P6/2P6/9 b - 1"));
}

#[test]
fn sfen_error_opponent_in_check() {
    assert_eq!(
        err("4k4/4R4/9/9/9/9/9/9/9 b - 1"),
        SfenError::OpponentInCheck {
            color: ColorName(Color::White)
        }
    );
    assert_eq!(
        err("9/9/9/9/9/9/9/4r4/4K4 w - 1"),
        SfenError::OpponentInCheck {
            color: ColorName(Color::Black)
        }
    );
    // The side to move may be in check.
    assert!("9/9/9/9/9/9/9/4r4/4K4 b - 1".parse::<Position>().is_ok());
}

#[test]
fn lenient_but_canonical_forms_round_trip() {
    for (text, canonical) in [
        (
            "sfen 4k4/9/9/9/54/9/9/9/9 b - 1",
            "4k4/9/9/9/9/9/9/9/9 b - 1",
        ),
        (
            "4k4/9/9/9/9/9/9/9/9 b pP2G +7",
            "4k4/9/9/9/9/9/9/9/9 b 2GPp 7",
        ),
        ("4k4/9/9/9/9/9/9/9/9 w 01P", "4k4/9/9/9/9/9/9/9/9 w P 1"),
        ("startpos", tsume::core::sfen::STARTPOS),
    ] {
        let p: Position = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(p.to_string(), canonical);
        check_position_text(text);
    }
}

// ----- USI moves and position commands -----

#[test]
fn move_parse_errors() {
    assert_eq!("".parse::<Move>(), Err(ParseMoveError::Empty));
    assert_eq!(
        "7g7".parse::<Move>(),
        Err(ParseMoveError::Syntax("7g7".to_string()))
    );
    assert_eq!(
        "K*5e".parse::<Move>(),
        Err(ParseMoveError::DropKind("K*5e".to_string(), 'K'))
    );
    assert_eq!(
        "p*5e".parse::<Move>(),
        Err(ParseMoveError::DropKind("p*5e".to_string(), 'p'))
    );
    assert_eq!(
        "+*5e".parse::<Move>(),
        Err(ParseMoveError::Syntax("+*5e".to_string()))
    );
    assert_eq!(
        "5e5e".parse::<Move>(),
        Err(ParseMoveError::NullMove("5e5e".to_string()))
    );
    for s in ["P*5é", "é*5e", "7g7fé", "7g7f ", " 7g7f", "7g7f+\n"] {
        assert!(
            matches!(s.parse::<Move>(), Err(ParseMoveError::Syntax(_))),
            "{s}"
        );
    }
}

#[test]
fn usi_position_errors_with_columns() {
    assert!(matches!(
        "position".parse::<UsiPosition>(),
        Err(UsiPositionError::MissingPosition)
    ));
    assert!(matches!(
        "".parse::<UsiPosition>(),
        Err(UsiPositionError::MissingPosition)
    ));
    assert!(matches!(
        "position sfen".parse::<UsiPosition>(),
        Err(UsiPositionError::Sfen(SfenError::Empty))
    ));
    match "position sfen 4k4/9/9/9/4x4/9/9/9/9 b - 1".parse::<UsiPosition>() {
        Err(UsiPositionError::Sfen(e)) => assert_eq!(
            e,
            SfenError::UnknownLetter {
                letter: 'x',
                column: 26
            }
        ),
        other => panic!("{other:?}"),
    }
    match "position startpos 7g7f".parse::<UsiPosition>() {
        Err(UsiPositionError::ExpectedMoves { found, column }) => {
            assert_eq!((found.as_str(), column), ("7g7f", 19));
        }
        other => panic!("{other:?}"),
    }
    match "position startpos moves 7g7f 7g7f".parse::<UsiPosition>() {
        Err(UsiPositionError::BadMove {
            index,
            column,
            error,
        }) => {
            assert_eq!((index, column), (2, 30));
            assert_eq!(
                error,
                MoveError::Illegal {
                    mv: "7g7f".to_string(),
                    reason: IllegalMove::NoPiece("7g".parse().unwrap())
                }
            );
        }
        other => panic!("{other:?}"),
    }
    match "position startpos moves 7g7x".parse::<UsiPosition>() {
        Err(UsiPositionError::BadMove {
            index,
            column,
            error,
        }) => {
            assert_eq!((index, column), (1, 25));
            assert_eq!(
                error,
                MoveError::Parse(ParseMoveError::Syntax("7g7x".to_string()))
            );
        }
        other => panic!("{other:?}"),
    }
    // No move number before `moves`, and an empty move list.
    let u: UsiPosition = "position sfen 4k4/9/9/9/9/9/9/9/9 b G moves G*5b"
        .parse()
        .unwrap();
    assert_eq!(u.moves.len(), 1);
    assert_eq!(u.end.ply(), 2);
    let u: UsiPosition = "position startpos moves".parse().unwrap();
    assert!(u.moves.is_empty());
}

// ----- findings -----

/// Finding: a move number near `u32::MAX` followed by moves overflowed the
/// ply counter in `do_move` (a panic with overflow checks, a ply of 0 that
/// no longer parsed without them).
#[test]
fn finding_move_number_at_u32_max_then_a_move() {
    let text = format!("position sfen {KING_ONLY} b G 4294967295 moves G*5c");
    check_command_text(&text);
    if let Ok(u) = text.parse::<UsiPosition>() {
        assert!(u.end.to_string().parse::<Position>().is_ok());
    }
    let mut p: Position = format!("{KING_ONLY} b G 4294967295").parse().unwrap();
    let m: Move = "G*5c".parse().unwrap();
    let undo = p.do_move(m);
    check_position_text(&p.to_string());
    p.undo_move(m, undo);
    assert_eq!(p.ply(), 4294967295);
}
