//! The useless-interposition rule (`tsume::solver::interposition`), clause
//! by clause, on positions where it decides the length: the solver's
//! answer against the plain exhaustive search (every interposition
//! counted) and the exhaustive search by tsume counting.

mod common;

use tsume::core::Position;
use tsume::solver::exhaustive::{shortest_mate, tsume_shortest_mate};
use tsume::solver::interposition::{Ignored, UselessRule};
use tsume::solver::{Outcome, SolveOptions, Solver, Within, is_tsume_line};

/// The solver's line (checked to mate by tsume counting, and proven
/// shortest), with the plain and tsume exhaustive lengths.
fn answer(sfen: &str, max: u32) -> (Vec<String>, Option<u32>, Option<u32>) {
    let pos: Position = sfen.parse().unwrap();
    let r = Solver::new(64)
        .solve(&pos, &SolveOptions::default())
        .unwrap();
    let Outcome::Mate { moves } = r.outcome else {
        panic!("{sfen}: {:?}", r.outcome);
    };
    assert!(r.exact, "{sfen}");
    assert!(is_tsume_line(&pos, &moves, pos.side_to_move()), "{sfen}");
    (
        moves.iter().map(|m| m.to_string()).collect(),
        shortest_mate(&pos, max),
        tsume_shortest_mate(&pos, max),
    )
}

#[test]
fn a_drop_that_gains_nothing_is_not_counted() {
    // After 4b3a+ 2b3a S*2b 3a2b 4d4b the defender may drop on 3b or 4b..;
    // captured, the piece set aside, the mate is as short: 5 plies, where
    // counting every interposition makes it 7.
    let (line, plain, tsume) = answer("7nl/5B1k1/6Ppp/5+R3/9/9/9/9/9 b Srb4g3s3n3l15p 1", 7);
    assert_eq!(line.len(), 5);
    assert_eq!((plain, tsume), (Some(7), Some(5)));
}

#[test]
fn a_drop_that_fails_first_waits_for_the_other_defences_when_it_may_be_useless() {
    // tanuki-7te-15 (published 7; flagged: a shorter mate exists). 6d6c+
    // checks along the third rank; the drops between (5c to 2c) are not
    // mated within the bound of the 5-ply mate, but captured and set aside
    // they are mated within the king's 1c1d. Searched before 1c1d is
    // proven, such a drop must wait for the base, not refute the mate.
    let (line, plain, tsume) = answer("3B2SG1/8B/8k/3R5/9/9/9/9/9 b r3g3s4n4l18p 1", 7);
    assert_eq!(line.len(), 5, "{line:?}");
    assert_eq!((plain, tsume), (Some(7), Some(5)));
}

#[test]
fn a_long_range_check_with_only_useless_drops_mates() {
    // The last move 5c3c checks from afar; the defender's only answers are
    // drops in between, each captured with the king still boxed in.
    let (line, plain, tsume) = answer("5pk2/7P1/4+R1+P1+b/8b/6R2/9/9/9/9 b 4g4s4n4l15p 1", 5);
    assert_eq!(line, ["3c2c", "1c3e", "5c3c"]);
    assert_eq!((plain, tsume), (Some(5), Some(3)));
    let (line, plain, tsume) = answer("9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1", 7);
    assert_eq!(line.len(), 3);
    assert_eq!((plain, tsume), (None, Some(3)));
}

#[test]
fn a_moved_interposition_always_counts() {
    // 1h6c+ uncovers the rook's check; the knight jumps in (2f1h+) and is
    // the main line's defence, though taking it leaves a mate at once.
    // Drops on 1h are useless against it (the knight would take back).
    let (line, plain, tsume) = answer("9/9/9/9/9/7np/8k/8B/7LR b rb4g4s3n3l17p 1", 5);
    assert_eq!(line.len(), 3);
    assert_eq!(line[1], "2f1h+");
    assert_eq!((plain, tsume), (Some(3), Some(3)));
}

#[test]
fn a_drop_whose_capture_leaves_a_longer_mate_counts() {
    // After L*2e the drops on 2d, captured and set aside, leave mates
    // longer than the king's other defences: they count, 7 plies.
    let (line, plain, tsume) = answer("9/9/7kB/9/5l3/5+BL2/9/9/9 b L2r4g4s4nl18p 1", 7);
    assert_eq!(line.len(), 7);
    assert_eq!((plain, tsume), (Some(7), Some(7)));
}

/// Mated within `plies` when no interposition counts at all, by plain
/// recursion: the reference for the solver's loosest-rule search. `None`
/// when `budget` positions were not enough.
fn loosest_mated_within(
    pos: &Position,
    plies: u32,
    ignored: Ignored,
    budget: &mut u64,
) -> Option<bool> {
    use tsume::core::movegen::check_moves;
    use tsume::solver::interposition::counted_evasions;
    *budget = budget.checked_sub(1)?;
    let attacker_to_move = pos.checkers().is_empty();
    if attacker_to_move {
        if plies == 0 {
            return Some(false);
        }
        for &c in check_moves(pos).iter() {
            if loosest_mated_within(&pos.after(c), plies - 1, ignored, budget)? {
                return Some(true);
            }
        }
        Some(false)
    } else {
        let evasions = counted_evasions(pos, ignored);
        if evasions.is_empty() {
            return Some(true);
        }
        if plies == 0 {
            return Some(false);
        }
        for &e in evasions.iter() {
            if !loosest_mated_within(&pos.after(e), plies - 1, ignored, budget)? {
                return Some(false);
            }
        }
        Some(true)
    }
}

/// The positions of the rule comparisons: the first 400 rows of antma,
/// tsumemi and tanuki (short problems).
/// The first `per_set` problems of three sets of short problems.
fn short_problems(per_set: usize) -> Vec<Position> {
    [
        "antma_tests.tsv",
        "tsumemi_samples.tsv",
        "tanuki_generated.tsv",
    ]
    .into_iter()
    .flat_map(|file| common::problems(file).into_iter().take(per_set))
    .filter_map(|row| row.sfen.parse().ok())
    .collect()
}

/// The looser rules (no drop between checker and king counts; no
/// interposition counts at all) against the plain recursion, on the short
/// problems of three sets, within 1, 3 and 5 plies. Neither mates later than
/// tsume counting, and the loosest never later than the other.
#[test]
fn with_interpositions_ignored_the_search_agrees_with_plain_recursion() {
    let limits = SolveOptions::default().nodes(2_000_000);
    let mut compared = 0;
    // Bounds where the rule decides: mated by it, not by the stricter one.
    let (mut drops_matter, mut moves_matter) = (0, 0);
    for pos in short_problems(400) {
        let mut solver = Solver::new(16);
        for plies in [1, 3, 5] {
            let mut mated = Vec::new();
            for ignored in [Ignored::Drops, Ignored::All] {
                let mut budget = 200_000;
                let Some(expected) = loosest_mated_within(&pos, plies, ignored, &mut budget) else {
                    continue;
                };
                let got = solver
                    .mated_within_ignoring(&pos, plies, ignored, &limits)
                    .unwrap();
                let found = match got {
                    Within::Mated { plies: p, .. } => {
                        assert!(p <= plies, "{}: {p} > {plies}", pos);
                        true
                    }
                    Within::NotMated { .. } => false,
                    Within::Unknown { .. } => panic!("{}: unknown within {plies}", pos),
                };
                assert_eq!(found, expected, "{} within {plies}, {ignored:?}", pos);
                compared += 1;
                mated.push(found);
            }
            let [drops, all] = mated[..] else {
                continue;
            };
            assert!(all || !drops, "{}: within {plies}", pos);
            let tsume = solver.mated_within(&pos, plies, &limits).unwrap();
            if let Within::Mated { .. } = tsume {
                assert!(drops, "{}: mated within {plies} by tsume counting", pos);
            } else if drops {
                drops_matter += 1;
            }
            if all && !drops {
                moves_matter += 1;
            }
        }
    }
    assert!(compared > 2000, "{compared}");
    // Each rule decides somewhere in these sets (tests that could fail).
    assert!(
        drops_matter > 0 && moves_matter > 0,
        "{drops_matter} {moves_matter}"
    );
}

/// A plain search under a bound marks the disproofs that never rely on a
/// drop between checker and king, and a search by tsume counting takes
/// those over (`tsume::solver::tt::Probe::drop_free`). On every problem of
/// three sets of short problems (with the first 400 of each, no refutation
/// three plies from the bound is such a drop), within 1 to 11 plies: after
/// the plain search the tsume answer is the same as from an empty table,
/// where the plain search finds no mate and tsume counting does (so no
/// disproof that relies on such a drop was taken over), and it costs fewer
/// nodes in all (so some were).
#[test]
fn plain_disproofs_without_drops_in_between_hold_by_tsume_counting() {
    let limits = SolveOptions::default().nodes(2_000_000);
    let mated = |w: Within| match w {
        Within::Mated { .. } => Some(true),
        Within::NotMated { .. } => Some(false),
        Within::Unknown { .. } => None,
    };
    let (mut fresh_nodes, mut primed_nodes, mut only_by_tsume) = (0, 0, 0);
    for pos in short_problems(usize::MAX) {
        for plies in [1, 3, 5, 7, 9, 11] {
            let fresh = Solver::new(16).mated_within(&pos, plies, &limits).unwrap();
            let mut solver = Solver::new(16);
            let plain = solver
                .mated_within_ignoring(&pos, plies, Ignored::Nothing, &limits)
                .unwrap();
            let primed = solver.mated_within(&pos, plies, &limits).unwrap();
            let (Some(fresh_mated), Some(plain_mated)) = (mated(fresh), mated(plain)) else {
                continue;
            };
            assert_eq!(mated(primed), Some(fresh_mated), "{pos} within {plies}");
            if fresh_mated && !plain_mated {
                only_by_tsume += 1;
            }
            fresh_nodes += fresh.nodes();
            primed_nodes += primed.nodes();
        }
    }
    assert!(only_by_tsume > 0, "no bound where the drops decide");
    assert!(
        primed_nodes < fresh_nodes,
        "{primed_nodes} nodes after the plain search, {fresh_nodes} without"
    );
}

/// Compares the solver by `rule` with the exhaustive search by that rule on
/// the short problems of three sets, within 1, 3 and 5 plies: "mated
/// within" must agree wherever the exhaustive search decides. `also` gets
/// each compared bound (with the solver, for other rules' questions, and
/// the verdict) for the rule's own checks. The number of bounds compared.
fn agrees_with_the_exhaustive_search(
    rule: UselessRule,
    mut also: impl FnMut(&mut Solver, &Position, u32, bool),
) -> usize {
    use tsume::solver::exhaustive::tsume_mates_within_by;
    let by_rule = SolveOptions::default().nodes(2_000_000).useless_rule(rule);
    let mut compared = 0;
    for pos in short_problems(400) {
        let mut solver = Solver::new(16);
        for plies in [1, 3, 5] {
            let Some(expected) = tsume_mates_within_by(&pos, plies, rule, 300_000) else {
                continue;
            };
            let got = mated_within(&mut solver, &pos, plies, &by_rule);
            assert_eq!(got, expected, "{pos} within {plies} by {rule}");
            compared += 1;
            also(&mut solver, &pos, plies, got);
        }
    }
    compared
}

/// Whether the solver says `pos` mates within `plies` by `options` (never
/// unknown on the short problems, never by a longer mate).
fn mated_within(solver: &mut Solver, pos: &Position, plies: u32, options: &SolveOptions) -> bool {
    match solver.mated_within(pos, plies, options).unwrap() {
        Within::Mated { plies: p, .. } => {
            assert!(p <= plies, "{pos}: {p} > {plies}");
            true
        }
        Within::NotMated { .. } => false,
        Within::Unknown { .. } => panic!("{pos}: unknown within {plies}"),
    }
}

/// The looser rule that asks only whether the captured piece is used
/// (`UselessRule::PieceUnused`) against the exhaustive search by that rule.
/// It mates wherever this crate's rule does, and never where no drop
/// counting would not; and it decides some bounds this crate's rule does
/// not mate.
#[test]
fn by_the_piece_unused_rule_the_search_agrees_with_the_exhaustive_one() {
    let limits = SolveOptions::default().nodes(2_000_000);
    let mut decides = 0;
    let compared =
        agrees_with_the_exhaustive_search(UselessRule::PieceUnused, |solver, pos, plies, got| {
            let ours = mated_within(solver, pos, plies, &limits);
            assert!(got || !ours, "{pos}: within {plies}");
            let no_drops = solver
                .mated_within_ignoring(pos, plies, Ignored::Drops, &limits)
                .unwrap();
            let no_drops = matches!(no_drops, Within::Mated { .. });
            assert!(no_drops || !got, "{pos}: within {plies}");
            decides += usize::from(got && !ours);
        });
    assert!(compared > 1300, "{compared}");
    assert!(decides > 0, "{decides}");
}

/// 定義1 (`UselessRule::CheckerCaptures`: the checker captures, and the
/// attacker mates at all without the piece) against the exhaustive search
/// by that rule: a drop the solver leaves out is useless by the stated
/// rule, and one it counts is not. The rule decides some bounds the
/// default rule does not mate; every interposition counted, nothing mates
/// that it does not.
#[test]
fn by_the_checker_captures_rule_the_search_agrees_with_the_exhaustive_one() {
    let limits = SolveOptions::default().nodes(2_000_000);
    let plain = limits.useless_rule(UselessRule::Never);
    let mut looser = 0;
    let compared = agrees_with_the_exhaustive_search(
        UselessRule::CheckerCaptures,
        |solver, pos, plies, got| {
            let ours = mated_within(solver, pos, plies, &limits);
            let every = mated_within(solver, pos, plies, &plain);
            assert!(got || !every, "{pos}: within {plies}");
            looser += usize::from(got && !ours);
        },
    );
    assert!(compared > 1300, "{compared}");
    assert!(looser > 0, "{looser}");
}

/// Either definition (`UselessRule::WithinOrChecker`: useless by this
/// crate's rule or by 定義1) against the exhaustive search by that rule.
/// It mates wherever either rule alone does, and never where counting
/// every interposition would not; and it decides bounds the default rule
/// does not mate (where it is looser than 定義1 alone, see
/// `by_the_within_or_checker_rule_a_drop_beyond_the_horizon_of_definition_1_is_useless`).
#[test]
fn by_the_within_or_checker_rule_the_search_agrees_with_the_exhaustive_one() {
    let limits = SolveOptions::default().nodes(2_000_000);
    let by_checker = limits.useless_rule(UselessRule::CheckerCaptures);
    let plain = limits.useless_rule(UselessRule::Never);
    let mut than_ours = 0;
    let compared = agrees_with_the_exhaustive_search(
        UselessRule::WithinOrChecker,
        |solver, pos, plies, got| {
            let ours = mated_within(solver, pos, plies, &limits);
            let checker = mated_within(solver, pos, plies, &by_checker);
            let every = mated_within(solver, pos, plies, &plain);
            assert!(got || !(ours || checker), "{pos}: within {plies}");
            assert!(got || !every, "{pos}: within {plies}");
            than_ours += usize::from(got && !ours);
        },
    );
    assert!(compared > 1300, "{compared}");
    assert!(than_ours > 0, "{than_ours}");
}

/// By `UselessRule::WithinOrChecker` a drop useless by the default rule is
/// useless, even where 定義1 alone counts it. musou-005 after its first
/// ten plies (31 left, as published): the rook's 9b9c checks along the
/// third rank, and the pawn drops on 8c, 6c and 5c are each taken by the
/// rook. With the pawn set aside the mate takes longer than 定義1's
/// 16 plies but no longer than the king's other defences: useless by the
/// default rule, counted by 定義1 alone (its answer is 35).
#[test]
fn by_the_within_or_checker_rule_a_drop_beyond_the_horizon_of_definition_1_is_useless() {
    let pos: Position = "5+rln1/R4l3/5kpnp/2pL1pP1s/3s1N3/5N3/9/9/9 b 2P2b4g2sl11p 11"
        .parse()
        .unwrap();
    let limits = SolveOptions::default().nodes(2_000_000);
    for rule in [
        UselessRule::WithinOtherDefences,
        UselessRule::WithinOrChecker,
    ] {
        let r = Solver::new(64)
            .solve(&pos, &limits.useless_rule(rule))
            .unwrap();
        let Outcome::Mate { moves } = r.outcome else {
            panic!("{rule}: {:?}", r.outcome);
        };
        assert!(
            r.exact,
            "{rule}: bounds {:?} to {:?}",
            r.at_least, r.at_most
        );
        assert_eq!(moves.len(), 31, "{rule}");
        assert_eq!(moves[0].to_string(), "9b9c", "{rule}");
        // The king steps away: the pawn drops are not replies.
        assert!(!moves[1].is_drop(), "{rule}: {moves:?}");
    }
    let by_checker = limits.useless_rule(UselessRule::CheckerCaptures);
    let w = Solver::new(64).mated_within(&pos, 31, &by_checker).unwrap();
    assert!(matches!(w, Within::NotMated { .. }), "{w:?}");
}

/// Clauses 3'' and 4'' of 定義1 (`UselessRule::CheckerCaptures`), each on
/// a position where it decides, with the exhaustive search by that rule.
/// After L*1c the only defences are drops on 1b; the checking lance takes
/// the piece and, set aside, the position is mated (within the rule's 16
/// plies): useless, L*1c mates at once (the default rule counts the drop:
/// its set-aside mate does not fit in a base of 0). L*1d does too, its
/// drops on 1c and 1b taken by the lance alike: the answer is one of them,
/// a mate at once by the exhaustive search as well.
/// After L*2e a drop on 2d is taken by the lance (the checker) or by the
/// horse; only the lance's capture is looked at, and with the piece set
/// aside no mate follows (within the rule's 16 plies), so the drop counts
/// and the answer is the 7 plies of counting every interposition, where
/// the looser `piece-unused` (any capture, the piece unused) gives 3. (The
/// exhaustive search cannot decide this one in reasonable time.) Other
/// 7-ply lines start with the bishop: the drop is asked after L*2e.
#[test]
fn by_the_checker_captures_rule_only_the_checker_takes() {
    use tsume::solver::exhaustive::{tsume_mated_within_by, tsume_mates_within_by};
    let rule = UselessRule::CheckerCaptures;
    let limits = SolveOptions::default().useless_rule(rule);
    let solve = |sfen: &str| {
        let pos: Position = sfen.parse().unwrap();
        let r = Solver::new(64).solve(&pos, &limits).unwrap();
        let Outcome::Mate { moves } = r.outcome else {
            panic!("{sfen}: {:?}", r.outcome);
        };
        assert!(r.exact, "{sfen}");
        (pos, moves.iter().map(|m| m.to_string()).collect::<Vec<_>>())
    };
    let (pos, line) = solve("8k/6S2/9/6N2/8N/9/9/9/9 b L2r2b4g3s2n3l18p 1");
    assert!(line == ["L*1c"] || line == ["L*1d"], "{line:?}");
    assert_eq!(tsume_mates_within_by(&pos, 1, rule, 1_000_000), Some(true));
    let after = pos.after(pos.parse_move(&line[0]).unwrap());
    assert_eq!(
        tsume_mated_within_by(&after, 0, rule, 1_000_000),
        Some(true)
    );
    let (pos, line) = solve("9/9/7kB/9/5l3/5+BL2/9/9/9 b L2r4g4s4nl18p 1");
    assert_eq!(line.len(), 7, "{line:?}");
    // Other 7-ply mates start otherwise; after L*2e the drop on 2d is the
    // longest defence, 6 plies more, where a useless one would leave 2.
    let after = pos.after(pos.parse_move("L*2e").unwrap());
    let defending = limits.defender_to_move(true);
    let r = Solver::new(64).solve(&after, &defending).unwrap();
    let Outcome::Mate { moves } = r.outcome else {
        panic!("after L*2e: {:?}", r.outcome);
    };
    assert!(r.exact);
    assert_eq!(moves.len(), 6, "{moves:?}");
    assert_eq!(moves[0].to_string(), "L*2d", "{moves:?}");
}

/// By `UselessRule::CheckerCaptures` a drop's test looks 16 plies ahead in
/// all: the drops met inside it get what is left of those plies, not 16
/// more each. 将棋無双 第9番 (musou-009, published 29 plies) then gets its
/// exact answer, 29, in 0.7M nodes; with 16 plies more at each nested test
/// the tests ran eight deep and 3M nodes left it between 15 and 29.
#[test]
fn by_the_checker_captures_rule_a_test_looks_ahead_its_horizon_in_all() {
    assert_musou_009_exact_by_checker_captures_within(3_000_000);
}

/// musou-009 by `UselessRule::CheckerCaptures` within `nodes`: exact, 29
/// plies.
fn assert_musou_009_exact_by_checker_captures_within(nodes: u64) {
    let pos: Position = "2k1s1B2/S3+P4/2p1R2p1/2gprpp2/Lb1S5/2N3P2/2PPP4/9/L8 b L3gs3nl8p 1"
        .parse()
        .unwrap();
    let limits = SolveOptions::default()
        .useless_rule(UselessRule::CheckerCaptures)
        .nodes(nodes);
    let r = Solver::new(64).solve(&pos, &limits).unwrap();
    let Outcome::Mate { moves } = r.outcome else {
        panic!("{:?}", r.outcome);
    };
    assert!(r.exact, "bounds {:?} to {:?}", r.at_least, r.at_most);
    assert_eq!(moves.len(), 29);
}

/// By `UselessRule::CheckerCaptures` whether a drop is useless does not
/// depend on the node's other defences, so the search judges a drop as
/// soon as it fails instead of waiting until the other defences are all
/// proven: a drop that fails and counts refutes at once, and the king's
/// moves need not be mated first. musou-009 (29 plies) then gets its exact
/// answer in 0.15M nodes; judged after the other defences it took 0.7M.
#[test]
fn by_the_checker_captures_rule_a_drop_is_judged_without_waiting_for_the_other_defences() {
    assert_musou_009_exact_by_checker_captures_within(300_000);
}

/// Clauses 2' and 4' of the looser rule (`UselessRule::PieceUnused`): the
/// other defences play no part, only whether the captured piece is used.
/// After L*2e the drops on 2d, captured and set aside, leave mates longer
/// than the king's other defences, so this crate's rule counts them (7
/// plies, `a_drop_whose_capture_leaves_a_longer_mate_counts`); but the
/// mate after the capture is as quick without the piece, so by the looser
/// rule they never count and the king's 2c1b is the longest defence: 3
/// plies (L*2f, whose drops on 2e and 2d fare the same, mates as quickly:
/// the answer is either). A moved interposition counts by both rules.
#[test]
fn by_the_piece_unused_rule_only_the_use_of_the_piece_counts() {
    use tsume::solver::exhaustive::{tsume_mated_within_by, tsume_mates_within_by};
    let unused = SolveOptions::default().useless_rule(UselessRule::PieceUnused);
    let solve = |sfen: &str, limits: &SolveOptions| {
        let pos: Position = sfen.parse().unwrap();
        let r = Solver::new(64).solve(&pos, limits).unwrap();
        let Outcome::Mate { moves } = r.outcome else {
            panic!("{sfen}: {:?}", r.outcome);
        };
        assert!(r.exact, "{sfen}");
        (pos, moves.iter().map(|m| m.to_string()).collect::<Vec<_>>())
    };
    let sfen = "9/9/7kB/9/5l3/5+BL2/9/9/9 b L2r4g4s4nl18p 1";
    let (pos, line) = solve(sfen, &unused);
    assert!(["L*2e", "L*2f"].contains(&line[0].as_str()), "{line:?}");
    assert_eq!(line[1..], ["2c1b", "1c2b+"]);
    let after = pos.after(pos.parse_move(&line[0]).unwrap());
    assert_eq!(
        tsume_mated_within_by(&after, 2, UselessRule::PieceUnused, 1_000_000),
        Some(true)
    );
    assert_eq!(solve(sfen, &SolveOptions::default()).1.len(), 7);
    let by = |plies| tsume_mates_within_by(&pos, plies, UselessRule::PieceUnused, 1_000_000);
    assert_eq!((by(1), by(3)), (Some(false), Some(true)));
    // The knight moved onto the line (2f1h+) counts by both.
    let sfen = "9/9/9/9/9/7np/8k/8B/7LR b rb4g4s3n3l17p 1";
    assert_eq!(solve(sfen, &unused).1, ["1h6c+", "2f1h+", "6c2g"]);
}

/// By `UselessRule::Never` every interposition counts, as in game analysis
/// and other mate engines: on the short problems of three sets the answer
/// is the plain shortest mate of the exhaustive search, its line ends in
/// checkmate on the board, and it is never shorter than by this crate's
/// rule (some are longer: a drop that rule leaves out counts here).
#[test]
fn by_the_rule_none_every_interposition_counts() {
    use tsume::core::Color;
    use tsume::solver::is_mating_line;
    let (mut compared, mut longer) = (0, 0);
    for pos in short_problems(150) {
        let Some(expected) = shortest_mate(&pos, 7) else {
            continue;
        };
        let mut solver = Solver::new(16);
        let solve = |solver: &mut Solver, useless_rule| {
            let limits = SolveOptions::default()
                .nodes(2_000_000)
                .useless_rule(useless_rule);
            let r = solver.solve(&pos, &limits).unwrap();
            assert!(r.exact, "{pos}: {useless_rule} not exact");
            match r.outcome {
                Outcome::Mate { moves } => moves,
                other => panic!("{pos}: {other:?}"),
            }
        };
        let none = solve(&mut solver, UselessRule::Never);
        let attacker: Color = pos.side_to_move();
        assert!(is_mating_line(&pos, &none, attacker), "{pos}: {none:?}");
        assert_eq!(none.len() as u32, expected, "{pos}");
        solver.clear();
        let ours = solve(&mut solver, UselessRule::WithinOtherDefences);
        assert!(ours.len() <= none.len(), "{pos}: {ours:?} {none:?}");
        longer += usize::from(ours.len() < none.len());
        compared += 1;
    }
    assert!(compared > 200, "{compared}");
    assert!(longer > 0, "{longer}");
}
