//! `tsume generate` and the generator library: the puzzles are what they
//! claim (solved and verified again here, from scratch), the same seed
//! gives the same puzzles whatever the number of threads, games yield
//! puzzles, and bad input is reported with its line.

mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use tsume::core::{Color, Move, PieceKind, Position};
use tsume::generate::games::{
    FromConfig, FromStep, puzzles_from_games, puzzles_from_games_with, read_games,
};
use tsume::generate::tags::tags;
use tsume::generate::{Config, Generator, Origin, Puzzle};
use tsume::solver::{Outcome, SolveOptions, Solver};
use tsume::verify::{FindingKind, Verdict, VerifyOptions, verify};

fn tsume(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tsume"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    {
        let mut input = child.stdin.take().expect("stdin");
        if let Some(bytes) = stdin {
            input.write_all(bytes).expect("write stdin");
        }
    }
    child.wait_with_output().expect("the binary ends")
}

fn temp_file(name: &str, contents: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("tsume-generate-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("write temp file");
    path.to_string_lossy().into_owned()
}

/// The attacker's hand after `moves` from `pos`.
fn hand_after(pos: &Position, moves: &[Move]) -> tsume::core::Hand {
    let mut p = pos.clone();
    for &m in moves {
        p.do_move(m);
    }
    p.hand(pos.side_to_move())
}

/// Solves and verifies `p` again with a fresh solver and no node limit on
/// the answer: the same line, exact, unique, as long as claimed.
fn check_puzzle(p: &Puzzle, plies: usize, tsume_rules: bool) {
    check_puzzle_with(p, plies, tsume_rules, true)
}

/// As [`check_puzzle`]; `rest`: whether the defender must hold the rest of
/// the set (else nothing).
fn check_puzzle_with(p: &Puzzle, plies: usize, tsume_rules: bool, rest: bool) {
    let pos = &p.position;
    let mut solver = Solver::new(16);
    let r = solver
        .solve(pos, &SolveOptions::default())
        .expect("a king to mate");
    let Outcome::Mate { moves } = r.outcome else {
        panic!("{pos}: no mate: {:?}", r.outcome)
    };
    assert!(r.exact, "{pos}");
    assert_eq!(moves.len(), plies, "{pos}");
    assert_eq!(moves, p.moves, "{pos}");
    let report = verify(&mut Solver::new(16), pos, &VerifyOptions::default()).expect("verifiable");
    for f in &report.findings {
        assert!(
            matches!(
                f.kind,
                FindingKind::LongerAlternativeMate | FindingKind::SideLineAlternative
            ) || (f.kind == FindingKind::PiecesLeft && !tsume_rules),
            "{pos}: {:?} {}",
            f.kind,
            f.note
        );
    }
    assert_eq!(report.main_line, p.moves);
    assert!(!p.japanese.is_empty());
    assert_eq!(p.japanese.split(' ').count(), plies);
    assert_eq!(p.tags, tags(pos, &p.moves));
    assert!(p.difficulty.nodes > 0 && p.difficulty.checks >= plies.div_ceil(2) as u32);
    if tsume_rules {
        assert_eq!(report.verdict, Verdict::Sound, "{pos}");
        // Tsume conventions: Black attacks without a king, ends with an
        // empty hand; White holds every piece not on the board nor in
        // Black's hand.
        assert_eq!(pos.side_to_move(), Color::Black);
        assert!(pos.king_square(Color::Black).is_none());
        assert!(hand_after(pos, &p.moves).is_empty(), "{pos}: pieces left");
        if !rest {
            assert!(pos.hand(Color::White).is_empty(), "{pos}");
            return;
        }
        for k in PieceKind::HAND {
            let on_board = pos.pieces_of_kind(k).count()
                + k.promoted().map_or(0, |pk| pos.pieces_of_kind(pk).count());
            let total =
                on_board + pos.hand(Color::Black).count(k) + pos.hand(Color::White).count(k);
            let set = match k {
                PieceKind::Pawn => 18,
                PieceKind::Rook | PieceKind::Bishop => 2,
                _ => 4,
            };
            assert_eq!(total, set, "{pos}: {k:?}");
        }
    }
}

#[test]
fn generated_puzzles_are_unique_mates_of_the_asked_length() {
    for (plies, count, seed) in [(1, 3, 1), (3, 2, 1), (5, 1, 1)] {
        let config = Config {
            plies,
            seed,
            jobs: 2,
            max_candidates: Some(200),
            ..Config::default()
        };
        let puzzles: Vec<Puzzle> = Generator::new(config).unwrap().take(count).collect();
        assert_eq!(puzzles.len(), count, "{plies} plies");
        let mut keys: Vec<u64> = puzzles.iter().map(|p| p.position.key()).collect();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), count, "distinct positions");
        let mut last = None;
        for p in &puzzles {
            check_puzzle(p, plies as usize, true);
            let Origin::Generated { seed: s, index } = p.origin else {
                panic!("{:?}", p.origin)
            };
            assert_eq!(s, seed);
            // In the order of the candidates.
            assert!(last < Some(index));
            last = Some(index);
        }
    }
}

#[test]
fn long_puzzles_are_grown_backwards_and_stay_unique() {
    // Nine plies: grown from a three-ply puzzle by three retractions.
    let config = |jobs| Config {
        plies: 9,
        seed: 1,
        jobs,
        max_candidates: Some(200),
        ..Config::default()
    };
    let puzzles: Vec<Puzzle> = Generator::new(config(2)).unwrap().take(2).collect();
    assert_eq!(puzzles.len(), 2);
    for p in &puzzles {
        check_puzzle(p, 9, true);
    }
    // The growth takes its random numbers from the candidate, not the
    // thread: one job gives the same puzzles.
    let one: Vec<Puzzle> = Generator::new(config(1)).unwrap().take(2).collect();
    assert_eq!(one, puzzles);
}

#[test]
fn the_defender_may_hold_nothing() {
    let config = Config {
        plies: 3,
        seed: 2,
        jobs: 2,
        max_candidates: Some(200),
        defender_holds_rest: false,
        ..Config::default()
    };
    let puzzles: Vec<Puzzle> = Generator::new(config).unwrap().take(1).collect();
    assert_eq!(puzzles.len(), 1);
    check_puzzle_with(&puzzles[0], 3, true, false);
}

#[test]
fn bad_configurations_are_refused() {
    for (config, text) in [
        (
            Config {
                plies: 4,
                ..Config::default()
            },
            "even",
        ),
        (
            Config {
                plies: 33,
                ..Config::default()
            },
            "1 to 31",
        ),
        (
            Config {
                jobs: 0,
                ..Config::default()
            },
            "jobs",
        ),
    ] {
        let e = Generator::new(config).err().expect("refused");
        assert!(e.to_string().contains(text), "{e}");
    }
    let bad = FromConfig {
        min_plies: 9,
        max_plies: 3,
        ..FromConfig::default()
    };
    let e = puzzles_from_games(&[], &bad).unwrap_err();
    assert!(e.to_string().contains("9..=3"), "{e}");
}

#[test]
fn same_seed_same_puzzles_whatever_the_jobs() {
    let run = |jobs: &str| {
        let out = tsume(
            &[
                "generate", "--plies", "1", "--count", "4", "--seed", "9", "--jobs", jobs, "--json",
            ],
            None,
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    let one = run("1");
    let two = run("2");
    assert_eq!(one, two);
    assert_eq!(one.lines().count(), 4);
    for line in one.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("JSON");
        assert_eq!(v["plies"], 1);
        assert_eq!(v["seed"], 9);
        assert_eq!(v["solution_usi"].as_array().map(|a| a.len()), Some(1));
        assert!(
            v["solution_japanese"]
                .as_str()
                .is_some_and(|s| s.starts_with('▲'))
        );
        assert!(v["index"].is_u64() && v["nodes"].is_u64() && v["score"].is_f64());
        assert!(v["tags"].is_array());
        let pos: Position = v["sfen"].as_str().unwrap().parse().expect("SFEN");
        assert_eq!(pos.side_to_move(), Color::Black);
    }
    // Another seed, other puzzles.
    let other = tsume(
        &[
            "generate", "--plies", "1", "--count", "4", "--seed", "10", "--json",
        ],
        None,
    );
    assert_ne!(String::from_utf8_lossy(&other.stdout), one);
}

#[test]
fn text_output_is_a_problem_file_the_verifier_accepts() {
    let path = temp_file("mate3.tsv", b"");
    let out = tsume(
        &[
            "generate", "--plies", "3", "--count", "2", "--seed", "1", "--jobs", "2", "--out",
            &path,
        ],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("summary: 2 puzzles"));
    let text = std::fs::read_to_string(&path).expect("written");
    assert_eq!(text.lines().count(), 2);
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 4, "{line}");
        assert_eq!(f[1], "3");
        assert_eq!(f[2].split(' ').count(), 3);
        assert!(f[3].starts_with("gen-s1-3-"), "{line}");
    }
    let verified = tsume(&["verify", "--file", &path], None);
    assert!(
        verified.status.success(),
        "{}",
        String::from_utf8_lossy(&verified.stdout)
    );
}

/// A mate in 3, played: its start, the position after the attacker's
/// first move (the defender to move: no puzzle), and the mate in 1 left.
const GAME: &str = "position sfen 6k2/8p/5+R1R1/5G3/9/9/9/9/9 b 2b3g4s4n4l17p 1 moves 2c3c+ 3a2a";

#[test]
fn games_yield_their_mates_and_the_mates_along_them() {
    let text = format!("# a game\n{GAME}\n\nstartpos moves 7g7f 3c3d 8h2b+\n");
    let games = read_games(text.as_bytes()).unwrap();
    assert_eq!(games.len(), 2);
    let config = FromConfig {
        min_plies: 1,
        max_plies: 5,
        jobs: 2,
        ..FromConfig::default()
    };
    let puzzles = puzzles_from_games(&games, &config).unwrap();
    let found: Vec<(usize, Origin)> = puzzles.iter().map(|p| (p.plies(), p.origin)).collect();
    assert_eq!(
        found,
        [
            (
                3,
                Origin::Game {
                    line: 2,
                    ply: 0,
                    cut: 0
                }
            ),
            (
                1,
                Origin::Game {
                    line: 2,
                    ply: 0,
                    cut: 2
                }
            ),
        ]
    );
    for p in &puzzles {
        check_puzzle(p, p.plies(), false);
    }
    // Within 3..=5 only the mate in 3.
    let config = FromConfig {
        min_plies: 3,
        ..config
    };
    assert_eq!(puzzles_from_games(&games, &config).unwrap().len(), 1);

    // The command: a file of games, JSON out.
    let path = temp_file("games.txt", text.as_bytes());
    let out = tsume(
        &[
            "generate",
            "--from",
            &path,
            "--min-plies",
            "1",
            "--max-plies",
            "5",
            "--json",
        ],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["plies"], 3);
    assert_eq!(lines[0]["line"], 2);
    assert_eq!(lines[1]["cut"], 2);
    assert_eq!(lines[1]["solution_usi"][0], "4c4a");
    // From stdin, with a TSV problem line.
    let out = tsume(
        &["generate", "--from", "-"],
        Some(b"6k2/8p/5+R1R1/5G3/9/9/9/9/9 b 2b3g4s4n4l17p 1\t3\t\tname\n"),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("6k2/8p/5+R1R1/5G3/9/9/9/9/9 b 2b3g4s4n4l17p 1\t3\t2c3c+ 3a2a 4c4a\tgame-line1-ply0-cut0"), "{stdout}");
}

#[test]
fn bad_game_files_are_reported_with_their_lines() {
    let path = temp_file(
        "bad.txt",
        b"startpos moves 7g7f\n4k4/9/9/9/9/9/9/9/9 b Q 1\nstartpos moves 7g7f 7g7f\n\xff\n",
    );
    let out = tsume(&["generate", "--from", &path], None);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 2: bad SFEN"), "{err}");
    assert!(err.contains("column 23"), "{err}");
    assert!(err.contains("line 3: move 2"), "{err}");
    assert!(err.contains("line 4: not UTF-8"), "{err}");
    assert!(!err.contains("line 1"), "{err}");
    assert!(out.stdout.is_empty());

    let out = tsume(&["generate", "--from", "/nonexistent/games.txt"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read /nonexistent/games.txt"));

    let out = tsume(&["generate", "--plies", "4"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("4 is even"));
    let out = tsume(&["generate", "--plies", "3", "--from", &path], None);
    assert_eq!(out.status.code(), Some(2));
}

/// `generate --from` reads its games line by line as solve does: a line
/// over 1 MB is an error for that line (the whole input was read into
/// memory: /dev/zero took the machine's memory; audit F1), and every bad
/// line is reported while the others are cut into puzzles (it stopped at
/// the first bad line). A byte-order mark at the start is skipped.
#[test]
fn games_are_read_line_by_line_in_bounded_memory() {
    let game = "position sfen 9/4k4/9/4S4/9/9/9/9/9 b GS2r2b3g2s4n4l18p 1";
    let mut input = b"\xef\xbb\xbfgarbage\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', 2 << 20));
    input.extend(format!("\n{game}\n").as_bytes());
    let out = tsume(
        &["generate", "--from", "-", "--min-plies", "1"],
        Some(&input),
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("error: -: line 1: bad SFEN"), "{err}");
    // The BOM is not shown as part of the bad line.
    assert!(!err.contains('\u{feff}') && !err.contains("feff"), "{err}");
    assert!(
        err.contains("line 2: the line is longer than 1048576 bytes (2097152 bytes)"),
        "{err}"
    );
    assert!(err.contains("2 lines of - could not be read"), "{err}");
    assert!(err.len() < 2000, "{err}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    // The game after the bad lines is cut into its puzzle (the mate in 1
    // at the end of its unique mate in 3).
    assert!(
        stdout.starts_with(
            "5k3/9/4S4/4S4/9/9/9/9/9 b G2r2b3g2s4n4l18p 3\t1\tG*4b\tgame-line3-ply0-cut2"
        ),
        "{stdout}\n{err}"
    );
}

/// The JSON lines of a `tsume generate` run that must succeed, and its
/// stderr.
fn generate_json(args: &[&str]) -> (Vec<serde_json::Value>, String) {
    let mut all = vec!["generate", "--json"];
    all.extend_from_slice(args);
    let out = tsume(&all, None);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{err}");
    let lines = String::from_utf8(out.stdout).expect("UTF-8");
    let values = lines
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    (values, err)
}

fn sfen_of(v: &serde_json::Value) -> Position {
    v["sfen"].as_str().expect("sfen").parse().expect("SFEN")
}

#[test]
fn stats_mirrors_exclusion_and_related_puzzles() {
    use tsume::generate::variety::{canonical_key, mirror};
    let (first, err) = generate_json(&["--plies", "1", "--count", "8", "--seed", "4", "--stats"]);
    assert_eq!(first.len(), 8);
    // No position twice, nor a position and its mirror image.
    let keys: std::collections::HashSet<u64> =
        first.iter().map(|v| canonical_key(&sfen_of(v))).collect();
    assert_eq!(keys.len(), 8);
    // The summary counts what was written.
    assert!(err.contains("stats: 8 puzzles"), "{err}");
    assert!(err.contains("stats: plies: 1=8"), "{err}");
    let mut tags = std::collections::BTreeMap::<String, usize>::new();
    for v in &first {
        let list = v["tags"].as_array().unwrap();
        for t in list {
            *tags.entry(t.as_str().unwrap().to_string()).or_default() += 1;
        }
        if list.is_empty() {
            *tags.entry("(none)".to_string()).or_default() += 1;
        }
    }
    let tag_line = err
        .lines()
        .find(|l| l.starts_with("stats: tags: "))
        .expect("a tags line");
    let counted: Vec<String> = tags.iter().map(|(t, n)| format!("{t}={n}")).collect();
    assert_eq!(tag_line, format!("stats: tags: {}", counted.join(" ")));
    let first_moves = err
        .lines()
        .find(|l| l.starts_with("stats: first moves: "))
        .expect("a first-moves line");
    let total: usize = first_moves["stats: first moves: ".len()..]
        .split(' ')
        .map(|kv| kv.rsplit('=').next().unwrap().parse::<usize>().unwrap())
        .sum();
    assert_eq!(total, 8, "{first_moves}");

    // The same seed again, the first set's mirror images excluded: other
    // puzzles only.
    let mirrored: String = first
        .iter()
        .map(|v| format!("{}\tmirrored\n", mirror(&sfen_of(v))))
        .collect();
    let path = temp_file("exclude.tsv", mirrored.as_bytes());
    let (second, _) = generate_json(&[
        "--plies",
        "1",
        "--count",
        "4",
        "--seed",
        "4",
        "--exclude",
        &path,
    ]);
    assert_eq!(second.len(), 4);
    for v in &second {
        assert!(!keys.contains(&canonical_key(&sfen_of(v))), "{v}");
    }
    // This command's JSON output excludes as well.
    let json_path = temp_file(
        "exclude.jsonl",
        first
            .iter()
            .map(|v| format!("{v}\n"))
            .collect::<String>()
            .as_bytes(),
    );
    let (third, _) = generate_json(&[
        "--plies",
        "1",
        "--count",
        "4",
        "--seed",
        "4",
        "--exclude",
        &json_path,
    ]);
    assert_eq!(
        third.iter().map(|v| v["sfen"].clone()).collect::<Vec<_>>(),
        second.iter().map(|v| v["sfen"].clone()).collect::<Vec<_>>()
    );

    // Every puzzle is related to itself moved a file: with a threshold of
    // 0, related means the same length and king square up to the mirror.
    let (loose, err) = generate_json(&[
        "--plies",
        "1",
        "--count",
        "8",
        "--seed",
        "4",
        "--related",
        "0",
        "--stats",
    ]);
    let king = |v: &serde_json::Value| {
        let k = sfen_of(v).king_square(Color::White).unwrap();
        (k.file().min(10 - k.file()), k.rank())
    };
    let mut marked = 0;
    for (i, v) in loose.iter().enumerate() {
        let earlier = loose[..i].iter().position(|e| king(e) == king(v));
        match v["related_to"].as_u64() {
            Some(n) => {
                marked += 1;
                assert!(earlier.is_some() && king(&loose[n as usize - 1]) == king(v));
                assert!(
                    v["similarity"]
                        .as_f64()
                        .is_some_and(|s| (0.0..=1.0).contains(&s))
                );
            }
            None => assert_eq!(earlier, None, "{v}"),
        }
    }
    assert!(
        err.contains(&format!("{marked} related to an earlier one")),
        "{err}"
    );
    // Dropped instead of marked: no two kings on one square.
    let (dropped, _) = generate_json(&[
        "--plies",
        "1",
        "--count",
        "3",
        "--seed",
        "4",
        "--related",
        "0",
        "--drop-related",
    ]);
    let squares: std::collections::HashSet<_> = dropped.iter().map(king).collect();
    assert_eq!(squares.len(), dropped.len());
    assert!(dropped.iter().all(|v| v.get("related_to").is_none()));
}

#[test]
fn fewer_puzzles_than_asked_is_an_error_after_writing_them() {
    // One candidate cannot give ten puzzles: what it found is written, and
    // the exit code says the count was not reached.
    let out = tsume(
        &[
            "generate",
            "--plies",
            "1",
            "--count",
            "10",
            "--seed",
            "3",
            "--max-candidates",
            "1",
        ],
        None,
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    let found = String::from_utf8_lossy(&out.stdout).lines().count();
    assert!(found < 10, "{found}");
    assert!(err.contains(&format!("summary: {found} puzzles")), "{err}");
    assert!(
        err.contains(&format!(
            "error: only {found} of the 10 puzzles asked for were found within 1 candidate"
        )),
        "{err}"
    );
    // Enough candidates: exit code 0.
    let out = tsume(
        &["generate", "--plies", "1", "--count", "2", "--seed", "3"],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn jobs_default_to_one_per_core() {
    let help = tsume(&["generate", "--help"], None);
    let text = String::from_utf8_lossy(&help.stdout);
    // The --jobs entry, up to the next option.
    let jobs = text
        .split("--jobs <J>")
        .nth(1)
        .and_then(|rest| rest.split("\n      --").next())
        .unwrap_or_else(|| panic!("no --jobs in {text}"));
    assert!(jobs.contains("[default: one per core]"), "{jobs}");
    assert!(!jobs.contains("[default: 1]"), "{jobs}");
}

#[test]
fn a_bar_of_puzzles_on_a_terminal() {
    // `script` runs the command on a pseudo-terminal.
    let screen = common::cli::on_terminal("generate --plies 1 --count 3 --seed 5");
    assert!(screen.contains("] 1/3 33% "), "{screen:?}");
    assert!(screen.contains(" candidates)"), "{screen:?}");
    assert!(screen.contains("\r\x1b[2Ksummary: 3 puzzles"), "{screen:?}");
}

#[test]
fn cutting_from_games_tells_how_far_it_has_gone() {
    let text = format!("{GAME}\nstartpos moves 7g7f 3c3d 8h2b+\n");
    let games = read_games(text.as_bytes()).unwrap();
    let config = FromConfig {
        min_plies: 1,
        max_plies: 5,
        jobs: 2,
        ..FromConfig::default()
    };
    let steps = std::sync::Mutex::new(Vec::new());
    let puzzles =
        puzzles_from_games_with(&games, &config, &|step| steps.lock().unwrap().push(step)).unwrap();
    assert_eq!(puzzles, puzzles_from_games(&games, &config).unwrap());
    let steps = steps.into_inner().unwrap();
    // The stages in order, each followed by one step per item.
    let starts: Vec<(usize, FromStep)> = steps
        .iter()
        .enumerate()
        .filter(|(_, s)| **s != FromStep::Done)
        .map(|(i, s)| (i, *s))
        .collect();
    let [
        (0, FromStep::Positions(positions)),
        (i, FromStep::Candidates(candidates)),
    ] = starts[..]
    else {
        panic!("{steps:?}");
    };
    // Three positions in the first game (the start, after each move), four
    // in the second.
    assert_eq!(positions, 7, "{steps:?}");
    assert_eq!(i, positions + 1, "{steps:?}");
    assert!(candidates >= puzzles.len() && candidates > 0, "{steps:?}");
    assert_eq!(steps.len(), 2 + positions + candidates, "{steps:?}");
}

#[test]
fn a_bar_of_positions_then_candidates_on_a_terminal() {
    let text = format!("{GAME}\nstartpos moves 7g7f 3c3d 8h2b+\n");
    let path = temp_file("games-bar.txt", text.as_bytes());
    let screen = common::cli::on_terminal(&format!(
        "generate --from {path} --min-plies 1 --max-plies 5"
    ));
    assert!(
        screen.contains("/7 ") && screen.contains("(positions searched for a mate)"),
        "{screen:?}"
    );
    // The candidates' stage may be over before the next redraw (ten a
    // second at most): cutting_from_games_tells_how_far_it_has_gone checks
    // that it is reported. The bar is erased before the summary: row by row
    // when its last drawing took two rows of the terminal (the cursor then
    // goes back up one).
    let at = screen
        .find("summary: 2 puzzles")
        .unwrap_or_else(|| panic!("{screen:?}"));
    let before = &screen[..at];
    assert!(
        before.ends_with("\r\x1b[2K") || before.ends_with("\r\x1b[2K\x1b[1A"),
        "{screen:?}"
    );
}
