//! The main line by the old convention ([`DefenceChoice::EmptyHandFirst`]):
//! a defence whose line ends with the attacker's hand empty is preferred
//! to a longer one that leaves pieces in hand (変長駒余り).

mod common;

use common::{problems, usi};
use tsume::core::{Color, Hand, Move, Position};
use tsume::solver::defence::DefenceChoice;
use tsume::solver::exhaustive::tsume_shortest_mate;
use tsume::solver::{Outcome, SolveOptions, SolveResult, Solver, is_tsume_line};

fn solve(solver: &mut Solver, pos: &Position, defence: DefenceChoice) -> SolveResult {
    solver
        .solve(
            pos,
            &SolveOptions::default().nodes(2_000_000).defence(defence),
        )
        .unwrap()
}

fn mate_line(r: &SolveResult) -> Option<Vec<Move>> {
    match &r.outcome {
        Outcome::Mate { moves } if r.exact => Some(moves.clone()),
        _ => None,
    }
}

fn final_hand(pos: &Position, line: &[Move], attacker: Color) -> Hand {
    let mut p = pos.clone();
    for &m in line {
        p.do_move(m);
    }
    p.hand(attacker)
}

fn line_of(pos: &Position, text: &str) -> Vec<Move> {
    let mut p = pos.clone();
    text.split_whitespace()
        .map(|t| {
            let m = p.parse_move(t).unwrap();
            p.do_move(m);
            m
        })
        .collect()
}

/// The dragon on 9a and the gold on 4a against the king on 3b, the
/// defender's lance on 1a. After 4a3a:
/// - 3b4b 9a4a mates at once (3 plies, hand empty);
/// - 3b2b 3a2a, then 2b1b 2a1a (taking the lance) 1b2b 9a2a lasts 7 plies
///   but leaves the lance in hand, while 2b3b 9a3a lasts 5 and uses every
///   piece.
///
/// Today's rule plays the longest defence at each turn (7 plies, a lance
/// left); the old convention plays 2b3b at ply 4 (an empty hand rather
/// than two plies more), and then 3b2b at ply 2, whose line by the
/// convention (5) is longer than 3b4b's (3).
#[test]
fn a_longer_defence_that_leaves_pieces_in_hand_is_a_side_line_by_the_old_convention() {
    let pos: Position = "+R4G2l/6k2/4ppppp/9/9/9/9/9/9 b r2b3g4s4n3l13p 1"
        .parse()
        .unwrap();
    let mut solver = Solver::new(16);
    let longest = mate_line(&solve(&mut solver, &pos, DefenceChoice::Longest)).unwrap();
    assert_eq!(usi(&longest), "4a3a 3b2b 3a2a 2b1b 2a1a 1b2b 9a2a");
    assert!(!final_hand(&pos, &longest, Color::Black).is_empty());
    let old = solve(&mut solver, &pos, DefenceChoice::EmptyHandFirst);
    let line = mate_line(&old).unwrap();
    assert_eq!(usi(&line), "4a3a 3b2b 3a2a 2b3b 9a3a");
    assert_eq!(old.at_least, Some(5), "the length reported is the line's");
    assert!(final_hand(&pos, &line, Color::Black).is_empty());

    // The lengths behind it, by the exhaustive reference: 7 in all; after
    // 4a3a 3b2b 3a2a, 2b1b lasts 3 more plies and 2b3b one; after 4a3a,
    // 3b4b one.
    assert_eq!(tsume_shortest_mate(&pos, 7), Some(7));
    let after = |moves: &str| {
        let mut p = pos.clone();
        for m in line_of(&pos, moves) {
            p.do_move(m);
        }
        p
    };
    let short = |moves: &str| tsume_shortest_mate(&after(moves), 7);
    assert_eq!(short("4a3a 3b2b 3a2a 2b1b"), Some(3));
    assert_eq!(short("4a3a 3b2b 3a2a 2b3b"), Some(1));
    assert_eq!(short("4a3a 3b4b"), Some(1));
}

/// On the short-problem sets the convention changes a line only where the
/// longest defence's line ends with pieces in hand, and then into a
/// mating line no longer than it that ends with an empty hand, or one as
/// long when no line ends so (a hand too big to use up).
#[test]
fn the_old_convention_changes_only_lines_that_end_with_pieces_in_hand() {
    let mut solver = Solver::new(64);
    let (mut compared, mut changed) = (0, 0);
    for file in [
        "antma_tests.tsv",
        "tsumemi_samples.tsv",
        "tanuki_generated.tsv",
        "yaneuraou_mate_samples.tsv",
    ] {
        for row in problems(file) {
            // A few antma rows are illegal positions on purpose.
            let Ok(pos) = row.sfen.parse::<Position>() else {
                continue;
            };
            let attacker = pos.side_to_move();
            let Some(longest) = mate_line(&solve(&mut solver, &pos, DefenceChoice::Longest)) else {
                continue;
            };
            let Some(old) = mate_line(&solve(&mut solver, &pos, DefenceChoice::EmptyHandFirst))
            else {
                continue;
            };
            compared += 1;
            let name = format!("{file} {}", row.sfen);
            if final_hand(&pos, &longest, attacker).is_empty() {
                // The same length, with an empty hand (not always the same
                // moves: equally short checks are read in the table's
                // order).
                assert_eq!(old.len(), longest.len(), "{name}: {}", usi(&old));
                assert!(
                    final_hand(&pos, &old, attacker).is_empty(),
                    "{name}: {}",
                    usi(&old)
                );
                continue;
            }
            if old == longest {
                continue;
            }
            assert!(is_tsume_line(&pos, &old, attacker), "{name}: {}", usi(&old));
            if final_hand(&pos, &old, attacker).is_empty() {
                changed += 1;
                assert!(old.len() <= longest.len(), "{name}: {}", usi(&old));
            } else {
                // No defence anywhere on it ends with an empty hand: no
                // defence was preferred to a longer one.
                assert_eq!(old.len(), longest.len(), "{name}: {}", usi(&old));
            }
        }
    }
    assert!(compared > 1900, "{compared} rows compared");
    eprintln!("{compared} rows compared, {changed} lines changed");
    assert!(changed >= 3, "{changed} lines changed");
}

/// 将棋無双 第7番: the tsume answer is 25 plies, and among its equally
/// long lines one ends with the attacker's hand empty. The first reading
/// of the line may spend its budget for equally good alternatives before
/// the node that decides it (it once kept a line that leaves a lance);
/// a line that ends with pieces in hand is read again.
#[test]
fn among_equally_long_lines_the_answer_finds_one_that_uses_every_piece() {
    let row = common::musou_row("007");
    let pos: Position = row.sfen.parse().unwrap();
    let r = common::solve_within(&mut Solver::new(256), &pos, 30_000_000);
    let line = mate_line(&r).expect("proven within the nodes");
    assert_eq!(line.len(), 25, "{}", usi(&line));
    let attacker = pos.side_to_move();
    assert!(is_tsume_line(&pos, &line, attacker));
    assert!(
        final_hand(&pos, &line, attacker).is_empty(),
        "{}",
        usi(&line)
    );
}
