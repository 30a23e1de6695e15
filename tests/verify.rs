//! `verify`: one hand-made position per kind of finding, and published
//! sound problems verified as sound.

mod common;

use tsume::core::{Move, Position};
use tsume::solver::defence::DefenceChoice;
use tsume::solver::{Rules, SolveOptions, Solver, Within};
use tsume::verify::{
    Convention, FindingKind, GivenSolution, LongerBy, Report, Verdict, VerifyOptions, verify,
};

fn run(sfen: &str, options: VerifyOptions) -> Report {
    let pos: Position = sfen.parse().unwrap();
    verify(&mut Solver::new(64), &pos, &options).unwrap()
}

fn moves(sfen: &str, usi: &str) -> Vec<Move> {
    let mut pos: Position = sfen.parse().unwrap();
    usi.split_whitespace()
        .map(|w| {
            let m = pos.parse_move(w).unwrap();
            pos.do_move(m);
            m
        })
        .collect()
}

/// Asserts that `r` has no finding of `kind`.
fn assert_none_of(r: &Report, kind: FindingKind) {
    assert!(
        r.findings.iter().all(|f| f.kind != kind),
        "{kind:?}: {:?}",
        r.findings
    );
}

fn kinds(r: &Report) -> Vec<(FindingKind, usize)> {
    r.findings.iter().map(|f| (f.kind, f.ply)).collect()
}

const SOUND_ONE: &str = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";

#[test]
fn a_sound_problem_has_no_findings() {
    let r = run(SOUND_ONE, VerifyOptions::default());
    assert_eq!(r.verdict, Verdict::Sound);
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(r.main_line, moves(SOUND_ONE, "G*5b"));
    assert!(r.exact);
}

#[test]
fn other_mates_at_the_last_move_are_minor_and_the_empty_hand_line_is_main() {
    // G*5b, 5c5b+ and 6c5b all mate; only G*5b leaves the hand empty.
    let sfen = "4k4/9/3GP4/9/9/9/9/9/9 b G2r2b2g4s4n4l17p 1";
    let r = run(sfen, VerifyOptions::default());
    assert_eq!(r.main_line, moves(sfen, "G*5b"));
    assert_eq!(r.verdict, Verdict::Sound);
    assert_eq!(
        kinds(&r),
        vec![
            (FindingKind::AlternativeLastMove, 1),
            (FindingKind::AlternativeLastMove, 1)
        ]
    );
}

#[test]
fn pieces_left_in_hand() {
    let r = run(
        "4k4/9/4P4/9/9/9/9/9/9 b 2G2r2b2g4s4n4l17p 1",
        VerifyOptions::default(),
    );
    assert_eq!(r.verdict, Verdict::Flawed);
    assert!(
        kinds(&r).contains(&(FindingKind::PiecesLeft, 1)),
        "{:?}",
        r.findings
    );
}

#[test]
fn a_shorter_mate_than_the_intended_length() {
    let r = run(
        SOUND_ONE,
        VerifyOptions {
            length: Some(3),
            ..VerifyOptions::default()
        },
    );
    assert_eq!(r.verdict, Verdict::Flawed);
    assert_eq!(kinds(&r), vec![(FindingKind::ShorterMate, 1)]);
    assert_eq!(r.findings[0].length, Some(1));
}

#[test]
fn a_given_solution_that_does_not_mate() {
    let r = run(
        SOUND_ONE,
        VerifyOptions {
            solution: Some(moves(SOUND_ONE, "G*4b")),
            ..VerifyOptions::default()
        },
    );
    assert_eq!(r.verdict, Verdict::Flawed);
    let f = &r.findings[0];
    assert_eq!((f.kind, f.ply), (FindingKind::DepartsFromSolution, 1));
    assert!(f.note.contains("does not mate"), "{}", f.note);
}

/// What the report says of a given solution: the answer, or not with the
/// reason (a shorter mate beats it here: G*5b mates in one, the given
/// G*4b 5a6a G*6b in three).
#[test]
fn a_given_solution_is_judged_the_answer_or_not_with_the_reason() {
    let sfen = "4k4/9/3PPP3/9/9/9/9/9/9 b 2G2r2b2g4s4n4l15p 1";
    let r = run(
        sfen,
        VerifyOptions {
            solution: Some(moves(sfen, "G*4b 5a6a G*6b")),
            ..VerifyOptions::default()
        },
    );
    match &r.solution {
        Some(GivenSolution::NotAnswer { reason }) => assert!(
            reason.starts_with("a shorter mate (G*5b): mate in 1, shorter than the intended 3; at move 1 (G*4b): the given move mates in 3"),
            "{reason}"
        ),
        other => panic!("{other:?}"),
    }
    let r = run(
        SOUND_ONE,
        VerifyOptions {
            solution: Some(moves(SOUND_ONE, "G*5b")),
            ..VerifyOptions::default()
        },
    );
    assert_eq!(r.solution, Some(GivenSolution::Answer));
    assert_eq!(run(SOUND_ONE, VerifyOptions::default()).solution, None);
}

#[test]
fn no_mate() {
    let r = run(
        "3gk4/9/4P4/9/9/9/9/9/9 b G2r2b2g4s4n4l17p 1",
        VerifyOptions::default(),
    );
    assert_eq!(r.verdict, Verdict::NoMate);
    assert_eq!(kinds(&r), vec![(FindingKind::NoMate, 0)]);
}

#[test]
fn a_side_line_as_long_as_the_main_line() {
    // After 1f5b+ both silvers can take: 4a5b and 6a5b both last 2.
    let sfen = "3sks3/9/4S4/9/9/8B/9/9/9 b S 1";
    let r = run(sfen, VerifyOptions::default());
    assert_eq!(r.verdict, Verdict::Sound);
    assert_eq!(r.main_line.len(), 3);
    assert!(
        kinds(&r).contains(&(FindingKind::SameLengthSideLine, 2)),
        "{:?}",
        r.findings
    );
}

#[test]
fn a_side_line_with_two_ways_to_mate() {
    // antma 56 (7 plies): after L*5d 4a5c, the side line runs 3a4b+
    // 5a4b, and then 2b3b and 2d3b+ both mate in 3 (move 5, deep in the
    // side line, not its first attacker move).
    let sfen = "3nknB2/2G2g1G1/3p1ps2/7N1/9/9/9/9/9 b L2rbg3sn3l16p 1";
    let r = run(sfen, VerifyOptions::default());
    assert_eq!(r.main_line.len(), 7);
    let deep = r
        .findings
        .iter()
        .find(|f| {
            f.kind == FindingKind::SideLineAlternative
                && f.ply == 2
                && f.moves.len() == 4
                && f.moves[0] == moves(sfen, "L*5d 4a5c")[1]
        })
        .unwrap_or_else(|| panic!("{:?}", r.findings));
    assert!(deep.kind.is_minor());
    assert_eq!(deep.length, Some(6));
    // The alternative mates in the moves the side line has left.
    let mut pos: Position = sfen.parse().unwrap();
    pos.do_move(r.main_line[0]);
    for &m in &deep.moves {
        pos.do_move(m);
    }
    let limits = SolveOptions::default().defender_to_move(true);
    let within = Solver::new(16).mated_within(&pos, 2, &limits).unwrap();
    assert!(matches!(within, Within::Mated { .. }), "{within:?}");
}

#[test]
fn a_second_mate_in_one_at_a_side_lines_last_move_is_accepted() {
    // After B*8c 6a7a both 6c7b+ and 8c7b+ mate: the side line's last move,
    // which every convention accepts.
    let r = run(
        "l2k5/9/3S2S2/9/9/9/9/9/9 b B2N2rb4g2s2n3l18p 1",
        VerifyOptions::default(),
    );
    assert_eq!(r.main_line.len(), 5);
    assert_eq!(r.verdict, Verdict::Sound);
    assert_none_of(&r, FindingKind::SideLineAlternative);
}

#[test]
fn an_alternative_solution_and_a_wrong_published_length() {
    // tsumemi 3te/9.kif publishes G*3c 3b3c 3a2b+ (3 plies), but after
    // G*3c the king takes on 3a and lasts 3 more: the answer is 5 plies,
    // and more than one first move mates.
    let sfen = "6B2/5pk1b/7P1/5R3/9/9/9/9/9 b Gr3g4s4n4l16p 1";
    let r = run(
        sfen,
        VerifyOptions {
            solution: Some(moves(sfen, "G*3c 3b3c 3a2b+")),
            ..VerifyOptions::default()
        },
    );
    assert_eq!(r.verdict, Verdict::Flawed);
    assert_eq!(r.main_line.len(), 5);
    assert!(
        kinds(&r).contains(&(FindingKind::AlternativeMate, 1)),
        "{:?}",
        r.findings
    );
    assert!(
        r.findings
            .iter()
            .any(|f| f.kind == FindingKind::DepartsFromSolution),
        "{:?}",
        r.findings
    );
}

#[test]
fn published_sound_problems_are_sound() {
    // The tsumemi problems except 3te/9.kif (see above).
    let mut solver = Solver::new(64);
    let mut checked = 0;
    for p in common::problems("tsumemi_samples.tsv") {
        if p.name.contains("3te/9.kif") {
            continue;
        }
        let pos: Position = p.sfen.parse().unwrap();
        solver.clear();
        let options = VerifyOptions {
            solution: Some(moves(&p.sfen, &p.solution.join(" "))),
            ..VerifyOptions::default()
        };
        let r = verify(&mut solver, &pos, &options).unwrap();
        assert_eq!(r.verdict, Verdict::Sound, "{}: {:?}", p.name, r.findings);
        assert_eq!(r.main_line.len() as i32, p.length, "{}", p.name);
        checked += 1;
    }
    assert_eq!(checked, 17);
}

/// 将棋無双 第50番 after its eighth ply: 4b1b without promotion also mates
/// in 13, but only by promoting on 1f four plies later, into the main line's
/// position (迂回): no alternative solution. The verdict rests on bounded
/// searches, not on the length of a first proof's line (which once reported
/// this detour as a mate "in 11").
#[test]
fn a_non_promotion_that_transposes_into_the_main_line_is_no_alternative() {
    let sfen = "9/4nR2g/9/7P1/4p1s1k/6B2/6L+l1/9/6P2 b BSr3g2s3n2l15p 9";
    let r = run(sfen, VerifyOptions::default());
    assert_eq!(r.main_line.len(), 13);
    assert_eq!(r.main_line[0], moves(sfen, "4b1b+")[0]);
    assert_eq!(r.verdict, Verdict::Sound, "{:?}", r.findings);
    assert!(
        !r.findings
            .iter()
            .any(|f| f.kind == FindingKind::AlternativeMate),
        "{:?}",
        r.findings
    );
}

/// 将棋無双 第50番 with too few nodes for the answer: the first proof's
/// line is no main line to judge alternatives against (a shorter mate would
/// look like 余詰), so nothing is judged and the verdict is unknown.
#[test]
fn an_unproven_main_line_leaves_the_verdict_unknown() {
    let sfen = "9/4nR2g/9/7P+b/4p1s1P/6Bk1/6L+l1/9/6P1+R b 3S3g3n2l14p 1";
    let options = VerifyOptions {
        main_nodes: Some(100_000),
        ..VerifyOptions::default()
    };
    let r = run(sfen, options);
    assert!(!r.exact);
    assert_eq!(r.verdict, Verdict::Unknown, "{:?}", r.findings);
    assert_eq!(kinds(&r), vec![(FindingKind::Unchecked, 1)]);
    // Still a mate, replayed.
    let pos: Position = sfen.parse().unwrap();
    assert!(tsume::solver::is_mating_line(
        &pos,
        &r.main_line,
        pos.side_to_move()
    ));
}

/// 将棋無双 第11番, 31 plies: sound with its published solution (its side
/// lines have minor findings only), in seconds.
#[test]
fn a_sound_classical_problem_of_31_plies() {
    let (pos, published) = musou_published("011");
    let options = VerifyOptions {
        solution: Some(published),
        ..VerifyOptions::default()
    };
    let r = verify(&mut Solver::new(256), &pos, &options).unwrap();
    assert!(r.exact);
    assert_eq!(r.main_line.len(), 31);
    assert_eq!(r.verdict, Verdict::Sound, "{:?}", r.findings);
    assert!(r.findings.iter().all(|f| f.kind.is_minor()));
}

/// 将棋無双 第55番 (published 11 plies) and 第38番 (published 13): near
/// the end the published defence is not the longest. A king move (no
/// interposition, whatever definition of a useless one is used) lasts two
/// plies longer, so the tsume answer is two plies longer than the
/// published one (変長 in the original), and verify says where the given
/// solution leaves the longest defence.
#[test]
fn classical_problems_whose_published_defence_is_not_the_longest() {
    for (name, ply, given, longer, answer) in [
        ("055", 10, "8e7e", "8e9d", 13),
        ("038", 12, "2c3d", "2c1c", 15),
    ] {
        let (_, published) = musou_published(name);
        assert_eq!(published.len(), answer - 2, "{name}");
        let (pos, _, r) = verify_musou_from(name, 1);
        assert!(r.exact, "{name}");
        assert_eq!(r.main_line.len(), answer, "{name}");
        let departs = departure(name, &r);
        assert_eq!(departs.ply, ply, "{name}");
        assert_eq!(departs.moves[0].to_string(), given, "{name}");
        assert!(departs.note.contains(longer), "{name}: {}", departs.note);
        // With no interposition counted at all the king move still outlasts
        // the given defence: a 変長 by our rule and every looser one.
        assert_eq!(
            departs.longer_by,
            Some(LongerBy::EveryLooserRule),
            "{name}: {}",
            departs.note
        );
        // Checked apart from verify: the longer defence is a king move,
        // and after it the attacker has no mate in one (the given defence
        // is mated at once).
        let mut p = pos.clone();
        for &m in &published[..ply - 1] {
            p.do_move(m);
        }
        let king_move = p.parse_move(longer).unwrap();
        let from = king_move.from().unwrap();
        assert_eq!(
            p.piece_at(from).map(|q| q.kind()),
            Some(tsume::core::PieceKind::King)
        );
        let limits = SolveOptions::default();
        let mut solver = Solver::new(16);
        let after_given = p.after(published[ply - 1]);
        assert!(matches!(
            solver.mated_within(&after_given, 1, &limits),
            Ok(Within::Mated { plies: 1, .. })
        ));
        assert!(matches!(
            solver.mated_within(&p.after(king_move), 1, &limits),
            Ok(Within::NotMated { .. })
        ));
    }
}

/// By the classical convention the same two rows verify as their
/// composers meant: the published line is the main line, and the king move
/// that outlasts the published defence by every rule is a longer side line
/// (変長, minor) carrying both lengths. Before it, the main line's plies are
/// counted through the longer defence (a side line at move 4 of 第55番 is
/// as long as the main line by that count, 10 plies, not by the published
/// 8). By the default convention the published line still departs.
#[test]
fn by_the_classical_convention_a_longer_king_move_is_a_longer_side_line() {
    for (name, ply, given, longer) in [("055", 10, "8e7e", "8e9d"), ("038", 12, "2c3d", "2c1c")] {
        let (_, published) = musou_published(name);
        let (_, _, r) = verify_musou_by(name, 1, Convention::Classical);
        assert_eq!(r.verdict, Verdict::Sound, "{name}: {:?}", r.findings);
        assert!(r.exact, "{name}");
        assert_eq!(r.main_line, published, "{name}");
        assert_eq!(r.solution, Some(GivenSolution::Answer), "{name}");
        assert_none_of(&r, FindingKind::DepartsFromSolution);
        let side: Vec<_> = r
            .findings
            .iter()
            .filter(|f| f.kind == FindingKind::LongerSideLine)
            .collect();
        assert_eq!(side.len(), 1, "{name}: {side:?}");
        let f = side[0];
        assert_eq!(f.ply, ply, "{name}");
        assert_eq!(f.moves[0].to_string(), longer, "{name}");
        assert_eq!((f.length, f.main_length), (Some(4), Some(2)), "{name}");
        assert_eq!(f.longer_by, Some(LongerBy::EveryLooserRule), "{name}");
        assert!(f.kind.is_minor());
        assert_eq!(f.japanese(), "変長", "{name}");
        assert!(f.note.contains(given), "{name}: {}", f.note);
        // The side line mates from the published line's position.
        let (pos, _) = musou_published(name);
        let before = published[..ply - 1].iter().fold(pos, |p, &m| p.after(m));
        let attacker = before.side_to_move().flip();
        assert!(
            tsume::solver::is_tsume_line(&before, &f.moves, attacker),
            "{name}: {:?}",
            f.moves
        );

        let (_, _, modern) = verify_musou_by(name, 1, Convention::Modern);
        assert_eq!(modern.verdict, Verdict::Flawed, "{name}");
        let d = departure(name, &modern);
        assert_eq!((d.ply, d.longer_by), (ply, Some(LongerBy::EveryLooserRule)));
        assert_none_of(&modern, FindingKind::LongerSideLine);
    }
    // 第55番 at move 4: 8e9d against the published 8e9f, both 10 plies by
    // tsume counting (the published line has 8 left, 8e7e at move 10 being
    // the shorter defence).
    let (_, _, r) = verify_musou_by("055", 1, Convention::Classical);
    let same = r
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::SameLengthSideLine && f.ply == 4)
        .unwrap_or_else(|| panic!("{:?}", kinds(&r)));
    assert_eq!(same.moves[0].to_string(), "8e9d");
    assert_eq!((same.length, same.main_length), (Some(10), Some(10)));
}

/// By the classical convention a departure whose lead depends on which
/// drops count stays a flaw: 将棋無双 第25番 from move 9 (4d5e, by the
/// looser rule as long as the published 4d5c) and 第39番 from move 15
/// (6f7f, longer by that rule too), both king moves mated within the
/// published defence's plies once no drop counts; so does a longer
/// defence that is itself a drop between checker and king (第58番 from
/// move 21, 第96番 from move 43).
#[test]
fn by_the_classical_convention_a_lead_that_depends_on_drops_still_departs() {
    for (name, from, longer, by) in [
        ("025", 9, "4d5e", LongerBy::NotByPieceUnusedRule),
        ("039", 15, "6f7f", LongerBy::PieceUnusedRuleToo),
        ("058", 21, "P*7c", LongerBy::PieceUnused),
        ("096", 43, "G*7b", LongerBy::PieceNeeded),
    ] {
        let (_, _, r) = verify_musou_by(name, from, Convention::Classical);
        assert_eq!(r.verdict, Verdict::Flawed, "{name}");
        let d = departure(name, &r);
        assert_eq!(d.ply, 2, "{name}");
        assert_eq!(r.main_line[1].to_string(), longer, "{name}");
        assert_eq!(d.longer_by, Some(by), "{name}: {}", d.note);
        assert!(
            d.note
                .contains("the classical convention accepts a longer side line"),
            "{name}: {}",
            d.note
        );
        assert_none_of(&r, FindingKind::LongerSideLine);
        assert!(matches!(r.solution, Some(GivenSolution::NotAnswer { .. })));
    }
}

/// 将棋無双 row `name`: its position and its published line.
fn musou_published(name: &str) -> (Position, Vec<Move>) {
    let row = common::musou_row(name);
    let published = moves(&row.sfen, &row.solution.join(" "));
    (row.sfen.parse().unwrap(), published)
}

/// 将棋無双 row `name` verified from its published move `from` on (the
/// position before it, and the published line from there as the given
/// solution): the position, the solver (its table as verify left it) and
/// the report.
fn verify_musou_from(name: &str, from: usize) -> (Position, Solver, Report) {
    verify_musou_by(name, from, Convention::Modern)
}

/// [`verify_musou_from`] by `convention`.
fn verify_musou_by(name: &str, from: usize, convention: Convention) -> (Position, Solver, Report) {
    let (mut pos, published) = musou_published(name);
    for &m in &published[..from - 1] {
        pos.do_move(m);
    }
    let options = VerifyOptions {
        solution: Some(published[from - 1..].to_vec()),
        convention,
        ..VerifyOptions::default()
    };
    let mut solver = Solver::new(64);
    let r = verify(&mut solver, &pos, &options).unwrap();
    (pos, solver, r)
}

/// The report's departure from the given solution (there must be one).
fn departure<'r>(name: &str, r: &'r Report) -> &'r tsume::verify::Finding {
    r.findings
        .iter()
        .find(|f| f.kind == FindingKind::DepartsFromSolution)
        .unwrap_or_else(|| panic!("{name}: {:?}", r.findings))
}

/// Where the given solution leaves the main line for a shorter defence and
/// the longer one is a drop between checker and king, verify says whether
/// the attacker needs the captured piece: 将棋無双 第58番 from move 21 (the
/// published P*6b against P*7c, whose pawn the mate never uses) and 第96番
/// from move 43 (the published 7a6a against G*7b, without whose gold there
/// is no mate at all).
#[test]
fn a_longer_drop_defence_says_whether_the_captured_piece_is_needed() {
    for (name, from, drop, needed) in [("058", 21, "P*7c", false), ("096", 43, "G*7b", true)] {
        let (_, _, r) = verify_musou_from(name, from);
        let departs = departure(name, &r);
        assert_eq!(departs.ply, 2, "{name}");
        assert_eq!(r.main_line[1].to_string(), drop, "{name}");
        assert!(departs.note.contains(drop), "{name}: {}", departs.note);
        let by = if needed {
            LongerBy::PieceNeeded
        } else {
            LongerBy::PieceUnused
        };
        assert_eq!(departs.longer_by, Some(by), "{name}: {}", departs.note);
    }
}

/// A longer king move whose lines hold drops that this crate's rule counts
/// is searched again by the looser rule that asks only whether a captured
/// piece is used: on 将棋無双 第39番 (from move 15) the king's 6f7f still
/// outlasts the published 6f7e by that rule, on 第25番 (from move 9) the
/// king's 4d5e is mated by it within the plies the published 4d5c lasts.
#[test]
fn a_longer_king_move_is_judged_by_the_piece_unused_rule_too() {
    use tsume::solver::interposition::UselessRule;
    for (name, from, longer, by) in [
        ("039", 15, "6f7f", LongerBy::PieceUnusedRuleToo),
        ("025", 9, "4d5e", LongerBy::NotByPieceUnusedRule),
    ] {
        let (pos, mut solver, r) = verify_musou_from(name, from);
        let departs = departure(name, &r);
        assert_eq!(departs.ply, 2, "{name}");
        assert_eq!(r.main_line[1].to_string(), longer, "{name}");
        assert_eq!(departs.longer_by, Some(by), "{name}: {}", departs.note);
        assert!(
            departs.note.contains("whether a captured piece is used"),
            "{name}: {}",
            departs.note
        );
        // The same question asked directly, over the table verify left:
        // the king move against the plies the published defence lasts
        // after it (by this crate's count), by each rule.
        let given = departs.length.unwrap();
        let after = pos.after(r.main_line[0]).after(r.main_line[1]);
        let limits = SolveOptions::default().nodes(2_000_000);
        let ours = solver.mated_within(&after, given - 1, &limits).unwrap();
        assert!(matches!(ours, Within::NotMated { .. }), "{name}: {ours:?}");
        let unused = limits.useless_rule(UselessRule::PieceUnused);
        let looser = solver.mated_within(&after, given - 1, &unused).unwrap();
        let mated = matches!(looser, Within::Mated { .. });
        assert_eq!(
            mated,
            by == LongerBy::NotByPieceUnusedRule,
            "{name}: {looser:?}"
        );
    }
}

/// A side line that comes back into the main line is judged there. After
/// 5d5g+ the defence 4h3i runs 6g4i 3i4i into the main line's position
/// after 4h3h 6g4i 3h4i, where 5g5h and B*2g mate as fast as 5g4g: the main
/// line's 余詰 at move 5, not a 変化別詰 of the side line as well.
#[test]
fn a_side_line_that_returns_into_the_main_line_is_judged_there() {
    // yaneuraou_mate_samples, row 23.
    let sfen = "ln+P3s+Pl/2+R1Gsk2/p3pp1g1/4r1ppp/1NS6/6P2/PP1+bPPS1P/3+p1K3/LG3G1NL w Nb3p 72";
    let r = run(sfen, VerifyOptions::default());
    let main: Vec<String> = r.main_line.iter().map(|m| m.to_string()).collect();
    assert_eq!(main[..4], ["5d5g+", "4h3h", "6g4i", "3h4i"], "{main:?}");
    let kinds = kinds(&r);
    assert!(
        kinds.contains(&(FindingKind::AlternativeMate, 5)),
        "{kinds:?}"
    );
    // The side line was walked: it lasts as long as the main line.
    assert!(
        r.findings
            .iter()
            .any(|f| f.kind == FindingKind::SameLengthSideLine
                && f.moves[..3] == moves(sfen, "5d5g+ 4h3i 6g4i 3i4i")[1..]),
        "{:?}",
        r.findings
    );
    assert_none_of(&r, FindingKind::SideLineAlternative);
}

/// The king's 2b1b at move 4 lasts two plies longer than the given 2b3b
/// but leaves the attacker the lance it takes on 1a (see
/// tests/defence_choice.rs). Today's rule: the given line departs there,
/// and the finding says the old convention would play it. By the old
/// convention the given line is the main line, and 2b1b a longer side line
/// that leaves pieces (変長駒余り, minor).
#[test]
fn a_longer_defence_that_leaves_pieces_in_hand_by_the_old_convention() {
    const SFEN: &str = "+R4G2l/6k2/4ppppp/9/9/9/9/9/9 b r2b3g4s4n3l13p 1";
    let given = moves(SFEN, "4a3a 3b2b 3a2a 2b3b 9a3a");
    let r = run(
        SFEN,
        VerifyOptions {
            solution: Some(given.clone()),
            ..VerifyOptions::default()
        },
    );
    assert_eq!(r.verdict, Verdict::Flawed);
    let d = r
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::DepartsFromSolution)
        .unwrap();
    assert_eq!((d.ply, d.length, d.main_length), (4, Some(2), Some(4)));
    assert!(d.longer_leaves_pieces, "{d:?}");
    assert!(d.note.contains("old convention"), "{}", d.note);

    let r = run(
        SFEN,
        VerifyOptions {
            solution: Some(given.clone()),
            rules: Rules {
                defence: DefenceChoice::EmptyHandFirst,
                ..Rules::default()
            },
            ..VerifyOptions::default()
        },
    );
    assert_eq!(r.verdict, Verdict::Sound, "{:?}", r.findings);
    assert_eq!(r.main_line, given);
    assert_none_of(&r, FindingKind::DepartsFromSolution);
    let longer = r
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::LongerSideLine)
        .unwrap();
    assert_eq!(longer.ply, 4);
    assert_eq!(
        longer.moves,
        moves(SFEN, "4a3a 3b2b 3a2a 2b1b 2a1a 1b2b 9a2a")[3..]
    );
    assert_eq!((longer.length, longer.main_length), (Some(4), Some(2)));
    assert!(longer.kind.is_minor());
    assert_eq!(longer.japanese(), "変長駒余り");
    assert_eq!(longer.longer_by, None);

    // By the classical convention the king's 2b1b is a longer side line
    // too, for another reason: it outlasts 2b3b however interpositions
    // count (変長).
    let r = run(
        SFEN,
        VerifyOptions {
            solution: Some(given.clone()),
            convention: Convention::Classical,
            ..VerifyOptions::default()
        },
    );
    assert_eq!(r.verdict, Verdict::Sound, "{:?}", r.findings);
    assert_eq!(r.main_line, given);
    let longer = r
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::LongerSideLine)
        .unwrap();
    assert_eq!(
        (longer.ply, longer.length, longer.main_length),
        (4, Some(4), Some(2))
    );
    assert_eq!(longer.longer_by, Some(LongerBy::EveryLooserRule));
    assert!(longer.longer_leaves_pieces);
    assert_eq!(longer.japanese(), "変長");

    // A given line that keeps to the longest defence, by the old
    // convention: it departs at move 4, where it leaves pieces in hand.
    let r = run(
        SFEN,
        VerifyOptions {
            solution: Some(moves(SFEN, "4a3a 3b2b 3a2a 2b1b 2a1a 1b2b 9a2a")),
            rules: Rules {
                defence: DefenceChoice::EmptyHandFirst,
                ..Rules::default()
            },
            ..VerifyOptions::default()
        },
    );
    let d = r
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::DepartsFromSolution)
        .unwrap();
    assert_eq!((d.ply, d.length, d.main_length), (4, Some(4), Some(2)));
    assert!(d.note.contains("香"), "{}", d.note);
}

/// 将棋無双 第23番 by the old convention: the published line is the main
/// line, and the drop P*2d at move 16, which lasts 14 plies against the
/// published interposition's 10 but leaves two pawns in hand, is a longer
/// side line. It counts by this crate's rule against the defences that
/// are no drop (the set-aside mate needs 12 plies), not against the
/// node's tsume length (14, the drop's own), which would call it useless.
#[test]
fn by_the_old_convention_a_longer_drop_that_leaves_pieces_is_a_side_line() {
    let (pos, published) = musou_published("023");
    let options = VerifyOptions {
        solution: Some(published),
        rules: Rules {
            defence: DefenceChoice::EmptyHandFirst,
            ..Rules::default()
        },
        ..VerifyOptions::default()
    };
    let r = verify(&mut Solver::new(64), &pos, &options).unwrap();
    assert_eq!(r.verdict, Verdict::Sound, "{:?}", r.findings);
    assert_eq!(r.main_line.len(), 25);
    assert_none_of(&r, FindingKind::DepartsFromSolution);
    let p2d = r
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::LongerSideLine && f.moves[0].to_string() == "P*2d")
        .unwrap_or_else(|| panic!("{:?}", r.findings));
    assert_eq!(
        (p2d.ply, p2d.length, p2d.main_length),
        (16, Some(14), Some(10))
    );
    assert!(p2d.note.contains("歩2"), "{}", p2d.note);
}

/// Along the main line a drop between checker and king is judged against
/// the longest defence that is no such drop, also where the main line's
/// own defence is a drop. In this YaneuraOu position (White attacks; it
/// has several mates in 11, so the test starts after 2h3h+ P*4h of one of
/// them) the main line answers move 2 with S*5h (8 plies; G*5h is as
/// long); the other drop on the same square counts by that base and lasts
/// as long (変同). Judged against the 8 plies the main line has left, it
/// was taken for useless and not looked at.
#[test]
fn beside_a_drop_on_the_main_line_other_drops_are_judged_by_the_defences_that_are_no_drop() {
    const SFEN: &str =
        "ln1g1k1nl/1r2Pgg2/p2p+Bs1pp/2p3n2/7P1/2P1pb2P/PP1P5/1K3P+r2/LN1+p4L w GS2s3p 116";
    let r = run(SFEN, VerifyOptions::default());
    assert_eq!(r.main_line.len(), 9);
    // S*5h or G*5h: equally long, both leave pieces in hand.
    let main = r.main_line[1];
    assert!(main.is_drop() && main.to().to_string() == "5h", "{main}");
    let same = r
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::SameLengthSideLine && f.ply == 2)
        .unwrap_or_else(|| panic!("{:?}", kinds(&r)));
    let other = same.moves[0];
    assert!(
        other.is_drop() && other.to().to_string() == "5h" && other != main,
        "{other}"
    );
    assert_eq!((same.length, same.main_length), (Some(8), Some(8)));
}

/// 将棋無双 第58番 at move 22: the drop P*7c outlasts the published P*6b,
/// and the main line after it ends with a pawn in hand; but P*7c, read by
/// the old convention, has a line as long as the published defence's that
/// uses every piece. So the departure does not say that the convention
/// plays the published defence (it read the main line's end before).
#[test]
fn a_longer_defence_whose_line_can_use_every_piece_is_not_excused_by_the_old_convention() {
    let (_, _, r) = verify_musou_from("058", 21);
    let d = departure("058", &r);
    assert_eq!(d.ply, 2, "move 22 of the published line");
    assert!(!d.longer_leaves_pieces, "{}", d.note);
    assert!(
        d.note
            .contains("P*7c's line can end with an empty hand too (10 plies"),
        "{}",
        d.note
    );
}

/// A given move whose search a limit stops is not known to depart: the
/// report says it went unchecked (verdict unknown, the solution not
/// judged), never that the solution departs. 将棋無双 第55番 given N*8h,
/// a check that is not the answer's first move: with 2 nodes a search
/// cannot tell whether it mates within the plies left.
#[test]
fn a_given_move_not_decided_within_the_limits_is_unchecked_not_a_departure() {
    let (pos, published) = musou_published("055");
    let given = moves(&pos.to_string(), "N*8h");
    assert_ne!(given[0], published[0]);
    let options = |nodes_per_search| VerifyOptions {
        solution: Some(given.clone()),
        nodes_per_search,
        ..VerifyOptions::default()
    };
    let decided = run_with(&pos, &options(VerifyOptions::default().nodes_per_search));
    assert_eq!(departure("055", &decided).ply, 1);

    let r = run_with(&pos, &options(2));
    assert!(r.exact, "{:?}", kinds(&r));
    assert_none_of(&r, FindingKind::DepartsFromSolution);
    let unchecked = r
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::Unchecked && f.moves == given)
        .unwrap_or_else(|| panic!("{:?}", kinds(&r)));
    assert_eq!(unchecked.ply, 1);
    assert_eq!(r.verdict, Verdict::Unknown);
    assert_eq!(r.solution, None);
}

fn run_with(pos: &Position, options: &VerifyOptions) -> Report {
    verify(&mut Solver::new(64), pos, options).unwrap()
}
