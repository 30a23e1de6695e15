//! `tsume usi` driven as a GUI drives it: the binary spawned with pipes,
//! whole sessions, answers awaited with deadlines (a hung engine fails the
//! test instead of hanging it).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use tsume::core::{Color, Move, Position};
use tsume::solver::interposition::UselessRule;
use tsume::solver::is_mating_line;
use tsume::usi::options::usi_default_useless_rule;

/// Mate in 5 (misc_small.tsv): G*5a 6a5a 2d5a+ 4a5a G*5b.
const FIVE: &str = "3g1ks2/6g2/4S4/7B1/9/9/9/9/9 b G2rbg2s4n4l18p 1";
/// Microcosmos, 1525 plies: far beyond a few seconds.
const LONG: &str =
    "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1";

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything read so far, for failure messages.
    seen: Vec<String>,
}

impl Engine {
    /// The engine with a small table (the machine running the tests is
    /// shared).
    fn start(args: &[&str]) -> Engine {
        let mut e = Engine::spawn(args);
        e.send("setoption name USI_Hash value 16");
        e
    }

    fn spawn(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tsume"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the tsume binary starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if send.send(line).is_err() {
                    return;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("the engine reads its input");
        stdin.flush().expect("the engine reads its input");
    }

    /// The lines up to and including the first that satisfies `done`,
    /// within `within`.
    fn until(&mut self, within: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + within;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    let end = done(&line);
                    got.push(line);
                    if end {
                        return got;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no answer within {within:?}; read so far: {:#?}", self.seen)
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the engine closed its output; read: {:#?}", self.seen)
                }
            }
        }
    }

    /// The `checkmate ...` / `bestmove ...` answer and the lines before it.
    fn answer(&mut self, within: Duration) -> (String, Vec<String>) {
        let mut lines = self.until(within, |l| {
            l.starts_with("checkmate") || l.starts_with("bestmove")
        });
        let last = lines.pop().expect("at least the answer");
        (last, lines)
    }

    /// Waits for the process to end.
    fn exit_within(&mut self, within: Duration) -> std::process::ExitStatus {
        let deadline = Instant::now() + within;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait works") {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the engine did not exit within {within:?}"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const SEC: Duration = Duration::from_secs(1);

/// The moves of a `checkmate` answer, checked as legal from `pos`.
fn checkmate_moves(pos: &Position, answer: &str) -> Vec<Move> {
    let text = answer
        .strip_prefix("checkmate ")
        .unwrap_or_else(|| panic!("not a checkmate answer: {answer}"));
    let mut p = pos.clone();
    text.split(' ')
        .map(|s| {
            let m = p.parse_move(s).unwrap_or_else(|e| panic!("{answer}: {e}"));
            p.do_move(m);
            m
        })
        .collect()
}

#[test]
fn handshake_and_a_mate_from_a_position_with_moves() {
    let mut e = Engine::start(&["usi"]);
    e.send("usi");
    let hello = e.until(SEC * 5, |l| l == "usiok");
    assert!(hello[0].starts_with("id name tsume "), "{hello:?}");
    assert!(hello.iter().any(|l| l.starts_with("id author ")));
    // Every rule of the solver is a value of UselessRule.
    let rules: Vec<String> = UselessRule::ALL
        .iter()
        .map(|r| format!("var {}", r.name()))
        .collect();
    let useless_rule = format!(
        "option name UselessRule type combo default {} {}",
        usi_default_useless_rule().name(),
        rules.join(" ")
    );
    for option in [
        "option name USI_Hash type spin default 256 min 1 max 65536",
        "option name Threads type spin default 1 min 1 max 256",
        "option name USI_Ponder type check default false",
        "option name MateNodes type spin default 0 min 0 max 2000000000",
        "option name ShortestAnswer type check default true",
        &useless_rule,
        "option name DefenceChoice type combo default longest var longest var empty-hand-first",
    ] {
        assert!(hello.iter().any(|l| l == option), "{option}: {hello:?}");
    }
    assert_eq!(
        hello
            .iter()
            .filter(|l| l.starts_with("option name "))
            .count(),
        7,
        "{hello:?}"
    );
    e.send("isready");
    e.until(SEC * 5, |l| l == "readyok");
    e.send("usinewgame");
    // The problem after its first two moves: mate in 3 is left.
    e.send(&format!("position sfen {FIVE} moves G*5a 6a5a"));
    e.send("go mate 10000");
    let (answer, info) = e.answer(SEC * 10);
    assert_eq!(answer, "checkmate 2d5a+ 4a5a G*5b");
    let last = info
        .iter()
        .rev()
        .find(|l| l.starts_with("info time"))
        .unwrap();
    assert!(last.ends_with(" score mate 3 pv 2d5a+ 4a5a G*5b"), "{last}");
    for word in [" nodes ", " nps ", " hashfull "] {
        assert!(last.contains(word), "{last}");
    }
    assert!(info.contains(&"info string mate in 3: the tsume answer".to_string()));

    // The whole problem, with go mate infinite: answered when found.
    e.send(&format!("position sfen {FIVE}"));
    e.send("go mate infinite");
    let (answer, _) = e.answer(SEC * 10);
    let pos: Position = FIVE.parse().unwrap();
    let moves = checkmate_moves(&pos, &answer);
    assert_eq!(moves.len(), 5, "{answer}");
    assert!(is_mating_line(&pos, &moves, Color::Black), "{answer}");

    e.send("quit");
    assert!(e.exit_within(SEC * 5).success());
}

#[test]
fn stop_during_a_long_search_answers_at_once_and_info_lines_come_meanwhile() {
    let mut e = Engine::start(&["usi"]);
    e.send(&format!("position sfen {LONG}"));
    e.send("go mate infinite");
    // About once a second, progress.
    let first = e.until(SEC * 5, |l| l.starts_with("info time"));
    let info = first.last().unwrap().clone();
    let nodes: u64 = info
        .split(' ')
        .skip_while(|w| *w != "nodes")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no node count in {info}"));
    assert!(nodes > 0, "{info}");
    assert!(
        info.contains(" nps ") && info.contains(" hashfull "),
        "{info}"
    );
    // isready is answered during the search.
    e.send("isready");
    e.until(SEC, |l| l == "readyok");
    let asked = Instant::now();
    e.send("stop");
    let (answer, _) = e.answer(SEC * 2);
    assert_eq!(answer, "checkmate timeout");
    assert!(asked.elapsed() < SEC, "stop took {:?}", asked.elapsed());
    // The engine goes on.
    e.send(&format!("position sfen {FIVE}"));
    e.send("go mate 10000");
    let (answer, _) = e.answer(SEC * 10);
    assert!(answer.starts_with("checkmate G*5a"), "{answer}");
}

/// `gameover` while a search runs stops it, and its `go` is answered as
/// after `stop` (it was dropped: a GUI or a script counting answers
/// waited; issue 31, audit F5). Plain `go`s get their `bestmove`.
#[test]
fn gameover_during_a_search_still_answers_its_go() {
    let mut e = Engine::start(&["usi"]);
    for (go, answer) in [
        ("go mate infinite", "checkmate timeout"),
        ("go mate 60000", "checkmate timeout"),
        ("go infinite", "bestmove resign"),
        ("go ponder", "bestmove resign"),
        ("go btime 600000 wtime 600000", "bestmove resign"),
    ] {
        e.send(&format!("position sfen {LONG}"));
        e.send(go);
        std::thread::sleep(Duration::from_millis(200));
        let asked = Instant::now();
        e.send("gameover win");
        let (got, info) = e.answer(SEC * 5);
        assert_eq!(got, answer, "{go}: {info:?}");
        assert!(asked.elapsed() < SEC * 2, "{go}: {:?}", asked.elapsed());
    }
    // Piped whole: the answer comes before the engine exits.
    let out = tsume::usi::run(
        std::io::Cursor::new(format!(
            "usi\nposition sfen {LONG}\ngo mate 60000\ngameover lose\nstop\nquit\n"
        )),
        Vec::new(),
    )
    .unwrap();
    let out = String::from_utf8(out).unwrap();
    let answers: Vec<&str> = out.lines().filter(|l| l.starts_with("checkmate")).collect();
    assert_eq!(answers, ["checkmate timeout"], "{out}");
}

#[test]
fn go_mate_honours_its_time() {
    let mut e = Engine::start(&["usi"]);
    e.send(&format!("position sfen {LONG}"));
    let asked = Instant::now();
    e.send("go mate 700");
    let (answer, info) = e.answer(SEC * 5);
    let took = asked.elapsed();
    assert_eq!(answer, "checkmate timeout", "{info:?}");
    assert!(
        took >= Duration::from_millis(700) && took < Duration::from_millis(1500),
        "go mate 700 took {took:?}"
    );
    assert!(
        info.contains(&"info string unknown: time limit".to_string()),
        "{info:?}"
    );
    // A node limit through MateNodes.
    e.send("setoption name MateNodes value 5000");
    e.send("go mate infinite");
    let (answer, info) = e.answer(SEC * 5);
    assert_eq!(answer, "checkmate timeout");
    assert!(
        info.contains(&"info string unknown: node limit".to_string()),
        "{info:?}"
    );
}

#[test]
fn quit_during_a_search_exits_promptly() {
    let mut e = Engine::start(&["usi"]);
    e.send(&format!("position sfen {LONG}"));
    e.send("go mate infinite");
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    e.send("quit");
    assert!(e.exit_within(SEC * 2).success());
    assert!(asked.elapsed() < SEC, "quit took {:?}", asked.elapsed());
}

#[test]
fn bad_input_is_reported_and_the_engine_goes_on() {
    let mut e = Engine::start(&["usi"]);
    e.send("this is not usi");
    e.send("setoption name MateNodes value many");
    e.send("position startpos moves 7g7f 3c3d 2b8h");
    e.send(&format!("position sfen {}", FIVE.replace(" b ", " x ")));
    e.send("isready");
    let lines = e.until(SEC * 5, |l| l == "readyok");
    let errors: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .collect();
    assert_eq!(errors.len(), 3, "{lines:?}");
    assert!(errors[0].contains("MateNodes: `many`"), "{}", errors[0]);
    // Which move, where, and why.
    assert!(
        errors[1].contains("move 3 (column 35)") && errors[1].contains("`2b8h` is not legal"),
        "{}",
        errors[1]
    );
    assert!(
        errors[2].contains("bad SFEN") && errors[2].contains("column"),
        "{}",
        errors[2]
    );
    // The last position could not be read: go does not search an old one.
    e.send("go mate 1000");
    let (answer, info) = e.answer(SEC * 5);
    assert_eq!(answer, "checkmate timeout");
    assert!(
        info.iter().any(|l| l.contains("no position to search")),
        "{info:?}"
    );
    // No king to mate.
    e.send("position sfen 9/9/9/9/9/9/9/9/9 b G 1");
    e.send("go mate 1000");
    let (answer, info) = e.answer(SEC * 5);
    assert_eq!(answer, "checkmate nomate");
    assert!(info.iter().any(|l| l.contains("no king")), "{info:?}");
}

#[test]
fn plain_go_answers_bestmove() {
    let mut e = Engine::start(&["usi"]);
    e.send("setoption name USI_Ponder value true");
    e.send(&format!("position sfen {FIVE}"));
    e.send("go btime 0 wtime 0 byoyomi 5000");
    let (answer, _) = e.answer(SEC * 10);
    assert!(answer.starts_with("bestmove G*5a ponder "), "{answer}");
    e.send("position startpos moves 7g7f");
    let asked = Instant::now();
    e.send("go btime 0 wtime 0 byoyomi 1000");
    let (answer, _) = e.answer(SEC * 5);
    assert_eq!(answer, "bestmove resign");
    assert!(asked.elapsed() < SEC * 2);
    // go infinite keeps its answer until stop, even when it knows it.
    e.send(&format!("position sfen {FIVE}"));
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(500));
    e.send("isready");
    let lines = e.until(SEC * 5, |l| l == "readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("stop");
    let (answer, _) = e.answer(SEC * 2);
    assert!(answer.starts_with("bestmove G*5a"), "{answer}");
    // go ponder: held until ponderhit.
    e.send("go ponder btime 0 wtime 0 byoyomi 1000");
    std::thread::sleep(Duration::from_millis(300));
    e.send("ponderhit");
    let (answer, _) = e.answer(SEC * 5);
    assert!(answer.starts_with("bestmove G*5a"), "{answer}");
}

#[test]
fn a_gui_may_start_the_engine_without_arguments() {
    let mut e = Engine::spawn(&[]);
    e.send("usi");
    let hello = e.until(SEC * 5, |l| l == "usiok");
    assert!(hello[0].starts_with("id name tsume "), "{hello:?}");
    e.send("setoption name USI_Hash value 16");
    e.send(&format!("position sfen {FIVE} moves G*5a 6a5a"));
    e.send("go mate 5000");
    let (answer, _) = e.answer(SEC * 5);
    assert_eq!(answer, "checkmate 2d5a+ 4a5a G*5b");
    e.send("quit");
    assert!(e.exit_within(SEC * 5).success());

    // Any other first line: the usual complaint about the missing
    // subcommand.
    let mut e = Engine::spawn(&[]);
    e.send("isready");
    let status = e.exit_within(SEC * 5);
    assert_eq!(status.code(), Some(2));
}

/// `UselessRule`: after L*1c the defender has only drops on 1b, counted by
/// the default rule (the knight mates after one) and useless by
/// `piece-unused` (the attacker does not use the captured piece); by that
/// rule L*1d mates at once too (tests/cli_solve.rs).
#[test]
fn the_rule_for_useless_drops_is_an_option() {
    let pos = "8k/6S2/9/6N2/8N/9/9/9/9 b L2r2b4g3s2n3l18p 1";
    let mut e = Engine::start(&["usi"]);
    e.send("usi");
    e.until(SEC * 5, |l| l == "usiok");
    e.send("setoption name UselessRule value within-other-defences");
    e.send(&format!("position sfen {pos}"));
    e.send("go mate 10000");
    assert_eq!(e.answer(SEC * 10).0, "checkmate L*1c P*1b 1e2c");
    e.send("setoption name UselessRule value piece-unused");
    e.send(&format!("position sfen {pos}"));
    e.send("go mate 10000");
    let answer = e.answer(SEC * 10).0;
    assert!(
        answer == "checkmate L*1c" || answer == "checkmate L*1d",
        "{answer}"
    );
}

/// `Threads`: several threads search each position; the answer is the
/// one thread's, and `stop` ends them all.
#[test]
fn threads_is_an_option() {
    let mut e = Engine::start(&["usi"]);
    e.send("setoption name Threads value 3");
    e.send(&format!("position sfen {FIVE}"));
    e.send("go mate 10000");
    let (answer, _) = e.answer(SEC * 10);
    assert!(answer.starts_with("checkmate G*5a"), "{answer}");
    e.send(&format!("position sfen {LONG}"));
    e.send("go mate infinite");
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    e.send("stop");
    let (answer, _) = e.answer(SEC * 2);
    assert_eq!(answer, "checkmate timeout");
    assert!(asked.elapsed() < SEC, "stop took {:?}", asked.elapsed());
    e.send("quit");
    assert!(e.exit_within(SEC * 2).success());
}

/// By default the engine counts every interposition, as GUIs and other
/// mate engines do: a mate ends in checkmate on the board. On
/// `problems/yaneuraou_mate_samples.tsv` line 2, 2h3i mates by tsume
/// counting (G*4i or R*4i are useless there), but the game goes on after
/// it; the source counts 3.
#[test]
fn by_default_a_mate_ends_in_checkmate_on_the_board() {
    let sfen = "l3kgsnl/9/p1pS+Bp3/7pp/6PP1/9/PPPPPPn1P/1B1GG2+r1/LNS1K3L w RG3Psnp 54";
    let mut e = Engine::start(&["usi"]);
    e.send(&format!("position sfen {sfen}"));
    e.send("go mate 10000");
    let (answer, _) = e.answer(SEC * 10);
    let pos: Position = sfen.parse().unwrap();
    let moves = checkmate_moves(&pos, &answer);
    assert_eq!(moves.len(), 3, "{answer}");
    let mut end = pos.clone();
    for &m in &moves {
        end.do_move(m);
    }
    assert!(
        end.in_check() && tsume::core::movegen::legal_moves(&end).is_empty(),
        "{answer}: not checkmate on the board"
    );
}

#[test]
fn the_choice_of_defence_is_an_option() {
    // See tests/defence_choice.rs: the longest defence leaves the attacker
    // a lance; by the old convention the king is mated two plies sooner
    // with an empty hand.
    let pos = "+R4G2l/6k2/4ppppp/9/9/9/9/9/9 b r2b3g4s4n3l13p 1";
    let mut e = Engine::start(&["usi"]);
    e.send("usi");
    let announced = e.until(SEC * 5, |l| l == "usiok");
    assert!(
        announced.iter().any(|l| l
            == "option name DefenceChoice type combo default longest var longest var empty-hand-first"),
        "{announced:?}"
    );
    e.send(&format!("position sfen {pos}"));
    e.send("go mate 10000");
    assert_eq!(
        e.answer(SEC * 10).0,
        "checkmate 4a3a 3b2b 3a2a 2b1b 2a1a 1b2b 9a2a"
    );
    e.send("setoption name DefenceChoice value empty-hand-first");
    e.send(&format!("position sfen {pos}"));
    e.send("go mate 10000");
    assert_eq!(e.answer(SEC * 10).0, "checkmate 4a3a 3b2b 3a2a 2b3b 9a3a");
}

/// `USI_Hash` at its most (65,536 MB) may be more than the machine gives:
/// the GUI is told and the engine goes on with a smaller table, never an
/// abort.
#[test]
fn a_hash_larger_than_the_memory_is_reported_and_the_engine_goes_on() {
    let mut e = Engine::spawn(&["usi"]);
    e.send("setoption name USI_Hash value 65536");
    e.send("isready");
    let lines = e.until(SEC * 10, |l| l == "readyok");
    if let Some(error) = lines.iter().find(|l| l.starts_with("info string error: ")) {
        assert!(
            error.contains("USI_Hash: cannot reserve a table of 65536 MB")
                && error.contains("using"),
            "{error}"
        );
    }
    e.send("position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
    e.send("go mate 5000");
    let (answer, _) = e.answer(SEC * 10);
    assert_eq!(answer, "checkmate G*5b");
}

/// Input that is not lines of text ends the session with an error, in
/// bounded memory: `tsume usi < /dev/zero`; `tsume` without arguments
/// reads at most a short first line before it decides it is no GUI.
#[test]
fn endless_bytes_end_the_session_with_an_error() {
    for args in [&["usi"][..], &[][..]] {
        let started = Instant::now();
        let out = Command::new(env!("CARGO_BIN_EXE_tsume"))
            .args(args)
            .stdin(std::fs::File::open("/dev/zero").expect("/dev/zero"))
            .output()
            .expect("the tsume binary runs");
        assert!(started.elapsed() < SEC * 30, "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        if args.is_empty() {
            assert_eq!(out.status.code(), Some(2), "{err}");
        } else {
            assert_eq!(out.status.code(), Some(1), "{err}");
            assert!(
                err.contains("line 1 goes on for more than 64 MB without an end of line"),
                "{err}"
            );
        }
    }
}
