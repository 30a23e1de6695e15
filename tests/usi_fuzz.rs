//! USI sessions from random and garbled commands: every `go` is answered
//! (one `checkmate ...` or `bestmove ...` per `go` before `quit`, in the
//! order of the `go`s, also for a `go` that cannot be read), every answer
//! is well formed, and a session never panics or hangs.
//!
//! The sessions run in-process ([`tsume::usi::run`] over a byte buffer),
//! with a watchdog: one that has not ended within a minute fails the test.
//! The seed is fixed (see `config`); `TSUME_FUZZ_SEED` and
//! `TSUME_FUZZ_SCALE` pick another seed and more cases, for longer hunts.

use std::io::Cursor;
use std::sync::mpsc::channel;
use std::time::Duration;

use proptest::prelude::*;
use proptest::sample::{Index, select};
use proptest::test_runner::RngSeed;

use tsume::core::{Move, Position};

fn config(cases: u32) -> ProptestConfig {
    let env = |name: &str| std::env::var(name).ok().and_then(|s| s.parse::<u64>().ok());
    let seed = env("TSUME_FUZZ_SEED").unwrap_or(0x0031_05a1);
    let scale = env("TSUME_FUZZ_SCALE").map_or(1, |n| n.min(10_000) as u32);
    ProptestConfig {
        cases: cases.saturating_mul(scale),
        failure_persistence: None,
        // A hang costs the watchdog's time at each shrinking step.
        max_shrink_iters: 32,
        rng_seed: RngSeed::Fixed(seed),
        ..ProptestConfig::default()
    }
}

/// Positions: mates in 1 and 5, no mate, the side to move in check, the
/// start position with moves, no king to mate, Microcosmos (1525 plies:
/// never decided here), and positions that cannot be read.
const POSITIONS: [&str; 10] = [
    "position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
    "position sfen 3g1ks2/6g2/4S4/7B1/9/9/9/9/9 b G2rbg2s4n4l18p 1",
    "position sfen 8k/9/9/9/9/9/9/9/9 b Rr2b4g4s4n4l18p 1",
    "position sfen 8k/6G2/4R3l/9/9/9/9/9/8K b - 1",
    "position startpos moves 7g7f 3c3d 8h2b+",
    "position sfen 9/9/9/9/9/9/9/9/9 b G 1",
    "position sfen g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1",
    "position startpos moves 7g7f 7g7f",
    "position sfen 4k4/9/4x4/9/9/9/9/9/9 b G 1",
    "position",
];

/// `go` commands, good and bad. Limits are short: a session takes a few
/// hundredths of a second (a garbled digit may make one a few seconds; the
/// numbers too large for the engine are in its unit tests, as cut short
/// they would be long limits).
const GOS: [&str; 24] = [
    "go mate 30",
    "go mate infinite",
    "go infinite",
    "go ponder btime 0 wtime 0 byoyomi 30",
    "go btime 0 wtime 0 byoyomi 20",
    "go btime 100 wtime 100 binc 10 winc 10",
    "go movetime 20",
    "go nodes 300",
    "go depth 3",
    "go depth 0 nodes 50",
    "go",
    "go mate abc",
    "go mate -5",
    "go mate",
    "go mate 1 2",
    "go byoyomi abc",
    "go btime -1 wtime 0",
    "go nodes -1",
    "go depth x",
    "go nodes 5 depth",
    "go sometime 3",
    "go mate 1e3",
    "go nodes 5x",
    "go mate 0",
];

/// Everything else a GUI (or a confused script) sends.
const OTHERS: [&str; 20] = [
    "usi",
    "isready",
    "usinewgame",
    "stop",
    "ponderhit",
    "gameover win",
    "setoption name USI_Hash value 2",
    "setoption name USI_Hash value 0",
    "setoption name MateNodes value 400",
    "setoption name MateNodes value -3",
    "setoption name ShortestAnswer value false",
    "setoption name UselessRule value piece-unused",
    "setoption name UselessRule value unknown",
    "setoption name DefenceChoice value empty-hand-first",
    "setoption name USI_Ponder value true",
    "setoption",
    "debug on",
    "",
    "   ",
    "quit",
];

#[derive(Clone, Debug)]
enum Garble {
    None,
    Insert(Index, char),
    Delete(Index),
    Truncate(Index),
    /// Bytes that are not UTF-8 at a place.
    BadByte(Index),
    Cr,
}

fn garble() -> impl Strategy<Value = Garble> {
    let chars: Vec<char> = " \t-0123456789abgmo\u{3000}é*+".chars().collect();
    prop_oneof![
        12 => Just(Garble::None),
        1 => (any::<Index>(), select(chars)).prop_map(|(i, c)| Garble::Insert(i, c)),
        1 => any::<Index>().prop_map(Garble::Delete),
        1 => any::<Index>().prop_map(Garble::Truncate),
        1 => any::<Index>().prop_map(Garble::BadByte),
        1 => Just(Garble::Cr),
    ]
}

fn apply(line: &str, g: &Garble) -> Vec<u8> {
    let mut chars: Vec<char> = line.chars().collect();
    let n = chars.len();
    match g {
        Garble::None => {}
        Garble::Insert(i, c) => chars.insert(i.index(n + 1), *c),
        Garble::Delete(i) if n > 0 => {
            chars.remove(i.index(n));
        }
        Garble::Delete(_) => {}
        Garble::Truncate(i) => chars.truncate(i.index(n + 1)),
        Garble::BadByte(i) => {
            let text: String = chars[..i.index(n + 1)].iter().collect();
            let rest: String = chars[i.index(n + 1)..].iter().collect();
            let mut bytes = text.into_bytes();
            bytes.push(0xff);
            bytes.extend(rest.into_bytes());
            return bytes;
        }
        Garble::Cr => chars.push('\r'),
    }
    chars.into_iter().collect::<String>().into_bytes()
}

fn command() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => select(POSITIONS.to_vec()).prop_map(str::to_string),
        3 => select(GOS.to_vec()).prop_map(str::to_string),
        2 => select(OTHERS.to_vec()).prop_map(str::to_string),
        // `go` followed by anything.
        1 => "go [ -~]{0,20}",
    ]
}

fn session() -> impl Strategy<Value = Vec<(String, Garble)>> {
    prop::collection::vec((command(), garble()), 1..14)
}

/// The answers a session is owed, as the engine owes them: one per line
/// whose first word is `go`, up to the first `quit`. `gameover` stops a
/// running search as `stop` does: its `go` is answered too.
fn owed(lines: &[Vec<u8>]) -> usize {
    let mut gos = 0;
    for line in lines {
        let text = String::from_utf8_lossy(line);
        match text.split_whitespace().next() {
            Some("go") => gos += 1,
            Some("quit") if std::str::from_utf8(line).is_ok() => break,
            _ => {}
        }
    }
    gos
}

/// Runs a session, failing when it has not ended within 20 seconds.
fn run(input: Vec<u8>) -> String {
    let (send, receive) = channel();
    let shown = String::from_utf8_lossy(&input).into_owned();
    std::thread::spawn(move || {
        let out = tsume::usi::run(Cursor::new(input), Vec::new());
        let _ = send.send(out.map(|o| String::from_utf8(o).expect("the engine writes UTF-8")));
    });
    receive
        .recv_timeout(Duration::from_secs(20))
        .unwrap_or_else(|_| panic!("the session did not end within 20 s:\n{shown}"))
        .expect("the session did not fail")
}

/// A `checkmate` or `bestmove` line is well formed.
fn check_answer(line: &str) {
    let words: Vec<&str> = line.split(' ').collect();
    let is_move = |w: &str| w.parse::<Move>().is_ok();
    match words[..] {
        ["checkmate", "nomate" | "timeout"] => {}
        ["checkmate", ref moves @ ..] => {
            assert!(
                !moves.is_empty() && moves.iter().all(|m| is_move(m)),
                "{line}"
            )
        }
        ["bestmove", "resign"] => {}
        ["bestmove", m] => assert!(is_move(m), "{line}"),
        ["bestmove", m, "ponder", p] => assert!(is_move(m) && is_move(p), "{line}"),
        _ => panic!("not an answer: {line}"),
    }
}

fn check_session(commands: &[(String, Garble)]) {
    let mut lines: Vec<Vec<u8>> = vec![b"setoption name USI_Hash value 1".to_vec()];
    lines.extend(commands.iter().map(|(c, g)| apply(c, g)));
    let mut input = Vec::new();
    for line in &lines {
        input.extend(line);
        input.push(b'\n');
    }
    let out = run(input);
    assert!(!out.contains("panicked"), "{out}");
    let answers: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("checkmate") || l.starts_with("bestmove"))
        .collect();
    for a in &answers {
        check_answer(a);
    }
    let gos = owed(&lines);
    let shown: Vec<String> = lines
        .iter()
        .map(|l| String::from_utf8_lossy(l).into_owned())
        .collect();
    assert_eq!(answers.len(), gos, "{shown:#?}\n{out}");
    for line in out.lines() {
        assert!(line.len() < 400, "a long output line: {line}");
    }
}

proptest! {
    #![proptest_config(config(400))]

    #[test]
    fn every_go_of_a_random_session_is_answered(commands in session()) {
        check_session(&commands);
    }
}

/// The engine's answer to a `go` after a `position` holds for that
/// position: the moves of `checkmate` are legal from it.
#[test]
fn a_checkmate_line_is_legal_from_the_position_searched() {
    for (position, go) in [
        (POSITIONS[0], "go mate 1000"),
        (POSITIONS[1], "go mate 1000"),
        (POSITIONS[3], "go mate infinite"),
    ] {
        let out = run(format!("{position}\n{go}\nstop\n").into_bytes());
        let answer = out
            .lines()
            .find(|l| l.starts_with("checkmate "))
            .expect("an answer");
        let mut pos: Position = position
            .strip_prefix("position sfen ")
            .unwrap()
            .parse()
            .unwrap();
        for word in answer.split(' ').skip(1) {
            let m = pos
                .parse_move(word)
                .unwrap_or_else(|e| panic!("{answer}: {e}"));
            pos.do_move(m);
        }
    }
}
