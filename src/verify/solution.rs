//! The given solution against the main line: a shorter mate (早詰), and
//! the first move where the given solution leaves the main line, with the
//! reason (a worse move, or a shorter defence and by which rules for
//! useless interpositions the main line's is the longer).

use crate::core::{Color, Move, Position};
use crate::solver::defence::DefenceChoice;
use crate::solver::interposition::{
    DropInterpositions, Ignored, UselessRule, interposition_squares, set_aside,
};
use crate::solver::{Outcome, SolveError, Within};

use super::{
    Convention, Finding, FindingKind, LongerBy, Solved, Verifier, hand_text, plies, replay,
};

/// What a departure at a shorter given defence adds by the classical
/// convention, where the longer defence is no 変長 it accepts.
pub(super) const CLASSICAL_DEPARTS: &str = "the classical convention accepts a longer side line (変長) only where the longer defence is no interposition and outlasts the given one by every rule that counts a piece moved onto the line, so the given solution departs here";

/// Whether a longer defence outlasting a given one by `by` is a longer side
/// line by [`Convention::Classical`] (its lead holds with no drop between
/// checker and king counted).
pub(super) fn is_longer_side_line(by: LongerBy) -> bool {
    matches!(
        by,
        LongerBy::EveryLooserRule | LongerBy::RulesCountingMovedPieces
    )
}

impl Verifier<'_> {
    /// 早詰 and the first departure of the given solution; the line to walk.
    ///
    /// By [`Convention::Classical`] a given defence shorter than a defence
    /// that is no interposition and outlasts it by every rule that counts a
    /// piece moved onto the line is no departure: that defence is reported
    /// as a longer side line (変長), its ply noted in `longer_at`, and the
    /// line walked follows the given solution there (the main line's
    /// answer after it). Otherwise the line walked is `main`.
    pub(super) fn compare_with_given(
        &mut self,
        root: &Position,
        main: &[Move],
    ) -> Result<Vec<Move>, SolveError> {
        let n = main.len() as u32;
        let intended = self
            .options
            .solution
            .as_ref()
            .map(|s| s.len() as u32)
            .or(self.options.length);
        if let Some(intended) = intended
            && n < intended
        {
            self.findings.push(against_length(
                FindingKind::ShorterMate,
                main,
                intended,
                format!("mate in {n}, shorter than the intended {intended}"),
            ));
        }
        let classical = self.options.convention == Convention::Classical;
        let Some(given) = self.options.solution.clone() else {
            if let Some(intended) = self.options.length
                && n > intended
            {
                self.answer_longer_than_length(main, intended, classical);
            }
            return Ok(main.to_vec());
        };
        let attacker = root.side_to_move();
        let mut pos = root.clone();
        // The line compared with: the main line, switched to the given
        // moves where they are as good (an equally short mate, an equally
        // long defence) or, by the classical convention, where a longer
        // defence is 変長, followed by the answer from there.
        let mut line = main.to_vec();
        // The 変長 accepted, reported before a departure.
        let mut accepted: Vec<Finding> = Vec::new();
        let mut departure = None;
        let mut i = 0;
        while i < given.len().min(line.len()) {
            let (g, m) = (given[i], line[i]);
            let left = line.len() as u32 - i as u32;
            if g != m {
                let after = pos.after(g);
                let attacking = pos.side_to_move() == attacker;
                let mut longer_by = None;
                let mut longer_leaves_pieces = false;
                let (note, length) = match self.solve(&after, attacking, None)? {
                    Solved::Mate(rest, _) => {
                        let len = rest.len() as u32 + 1;
                        let given_hand = replay(&after, &rest).1.hand(attacker);
                        let main_hand = replay(&pos, &line[i..]).1.hand(attacker);
                        if attacking && len > left {
                            (
                                format!("the given move mates in {len}, but {m} mates in {left}"),
                                Some(len),
                            )
                        } else if !attacking && len < left {
                            let why = self.longer_defence_note(&pos, &line[i..], len)?;
                            let mut pieces_note = None;
                            if !main_hand.is_empty() && given_hand.is_empty() {
                                // The main line's end is one line; another
                                // after m may use every piece.
                                if let Some(why) = self.old_convention_note(&pos, m, attacker)? {
                                    longer_leaves_pieces = why.0;
                                    pieces_note = Some(why.1);
                                }
                            }
                            let interposition = interposition_squares(&pos).contains(m.to());
                            let by = why.as_ref().map(|w| w.1);
                            if classical && by.is_some_and(is_longer_side_line) {
                                let mut note = format!(
                                    "{m} lasts {left}, longer than the given {g} ({len}): a longer side line (変長), which the classical convention accepts, so the given line stays the main line"
                                );
                                for part in why.iter().map(|w| &w.0).chain(pieces_note.iter()) {
                                    note.push_str("; ");
                                    note.push_str(part);
                                }
                                self.longer_at.push((i, m, left));
                                accepted.push(Finding {
                                    kind: FindingKind::LongerSideLine,
                                    ply: i + 1,
                                    longer_by: by,
                                    longer_leaves_pieces,
                                    moves: line[i..].to_vec(),
                                    length: Some(left),
                                    main_length: Some(len),
                                    note,
                                });
                                // Follow the given defence.
                                follow_given(&mut line, &mut pos, i, g, rest);
                                i += 1;
                                continue;
                            }
                            if classical && by.is_none() && !interposition {
                                // 変長 or a departure: not decided.
                                self.unchecked(
                                    i + 1,
                                    m,
                                    &format!(
                                        "the given defence {g} lasts {len}, but {m} lasts {left}: whether {m} outlasts it by every rule that counts a piece moved onto the line (a longer side line the classical convention accepts) was not decided within the limits"
                                    ),
                                );
                                self.solution_undecided = true;
                                break;
                            }
                            let mut note =
                                format!("the given defence lasts {len}, but {m} lasts {left}");
                            for part in why.iter().map(|w| &w.0).chain(pieces_note.iter()) {
                                note.push_str("; ");
                                note.push_str(part);
                            }
                            if classical {
                                note.push_str("; ");
                                note.push_str(CLASSICAL_DEPARTS);
                            }
                            longer_by = by;
                            (note, Some(len))
                        } else if !attacking
                            && len > left
                            && self.options.rules.defence == DefenceChoice::EmptyHandFirst
                        {
                            (
                                format!(
                                    "the given defence lasts {len}, longer than {m}'s {left}, but its line ends with the attacker holding {}: by the old convention {m} is the main line",
                                    hand_text(given_hand)
                                ),
                                Some(len),
                            )
                        } else {
                            // As good: an alternative solution or 変同,
                            // reported along the main line. Follow the
                            // given move.
                            follow_given(&mut line, &mut pos, i, g, rest);
                            i += 1;
                            continue;
                        }
                    }
                    Solved::NoMate if attacking => {
                        ("the given move does not mate".to_string(), None)
                    }
                    Solved::NoMate => {
                        ("after the given defence there is no mate".to_string(), None)
                    }
                    Solved::Unknown => {
                        // Not known to depart: unjudged, not a flaw.
                        self.unchecked(
                            i + 1,
                            g,
                            "the given move was not decided within the limits: whether the solution departs here is not known",
                        );
                        self.solution_undecided = true;
                        break;
                    }
                };
                departure = Some(Finding {
                    kind: FindingKind::DepartsFromSolution,
                    ply: i + 1,
                    longer_by,
                    longer_leaves_pieces,
                    moves: vec![g],
                    length,
                    main_length: Some(left),
                    note,
                });
                break;
            }
            pos.do_move(m);
            i += 1;
        }
        self.findings.extend(accepted);
        if let Some(departure) = departure {
            self.findings.push(departure);
        } else if !self.solution_undecided && given.len() != line.len() {
            let i = given.len().min(line.len());
            self.findings.push(Finding {
                kind: FindingKind::DepartsFromSolution,
                ply: i + 1,
                longer_by: None,
                longer_leaves_pieces: false,
                moves: line[i..].to_vec(),
                length: Some(line.len() as u32),
                main_length: intended,
                note: format!(
                    "the given solution has {}; following it, the mate takes {}",
                    plies(given.len()),
                    plies(line.len())
                ),
            });
        }
        Ok(if self.longer_at.is_empty() {
            main.to_vec()
        } else {
            line
        })
    }

    /// With only a length given, `intended`, and the answer `main` longer:
    /// some defence outlasts the intended line, so the problem is not as
    /// given (a departure). By the classical convention that defence may be
    /// 変長, which only the solution would tell: unchecked.
    fn answer_longer_than_length(&mut self, main: &[Move], intended: u32, classical: bool) {
        let note = format!(
            "the answer has {}, more than the {intended} given: a defence lasts longer than the intended line (give the solution to see where)",
            plies(main.len())
        );
        if classical {
            self.unchecked(
                1,
                main[0],
                &format!("{note}; by the classical convention it may be a longer side line (変長)"),
            );
            return;
        }
        self.findings.push(against_length(
            FindingKind::DepartsFromSolution,
            main,
            intended,
            note,
        ));
    }

    /// Why the defence `longer[0]` at `pos`, whose line (the tsume answer)
    /// is `longer`, outlasts a given defence of `given` plies, and by which
    /// rules: [`counted_drop_note`](Self::counted_drop_note) for a drop
    /// between checker and king, else
    /// [`every_rule_note`](Self::every_rule_note); `None` when not judged
    /// (an interposition the first does not judge, or a limit).
    pub(super) fn longer_defence_note(
        &mut self,
        pos: &Position,
        longer: &[Move],
        given: u32,
    ) -> Result<Option<(String, LongerBy)>, SolveError> {
        match self.counted_drop_note(pos, longer)? {
            Some(why) => Ok(Some(why)),
            None => self.every_rule_note(pos, longer[0], given),
        }
    }

    /// Whether the old convention ([`DefenceChoice::EmptyHandFirst`])
    /// prefers a given defence whose line ends with an empty hand to the
    /// longer defence `m` at `pos`: `(true, note)` when `m`'s line read by
    /// the convention ends with pieces in hand, `(false, note)` when it
    /// ends with an empty hand too; `None` when not decided.
    fn old_convention_note(
        &mut self,
        pos: &Position,
        m: Move,
        attacker: Color,
    ) -> Result<Option<(bool, String)>, SolveError> {
        let Some(mut asked) = self.search_options(Some(self.options.nodes_per_search), false, true)
        else {
            return Ok(None);
        };
        asked.rules.defence = DefenceChoice::EmptyHandFirst;
        let after = pos.after(m);
        let r = self.solver.solve(&after, &asked)?;
        self.nodes += r.nodes;
        let Outcome::Mate { moves } = r.outcome else {
            return Ok(None);
        };
        if !r.exact {
            return Ok(None);
        }
        let hand = replay(&after, &moves).1.hand(attacker);
        let len = moves.len() + 1;
        Ok(Some(if hand.is_empty() {
            (
                false,
                format!(
                    "{m}'s line can end with an empty hand too ({}, read by the old convention): that convention plays {m} as well",
                    plies(len)
                ),
            )
        } else {
            (
                true,
                format!(
                    "{m}'s line ends with the attacker holding {} (read by the old convention, {}), the given one with an empty hand: by the old convention (変長駒余り, --defence empty-hand-first) the given defence is the main line",
                    hand_text(hand),
                    plies(len)
                ),
            )
        }))
    }

    /// Whether the defence `m` at `pos`, not an interposition itself,
    /// outlasts a given one that lasts `given` plies (by our counting) even
    /// when no interposition counts at all (the loosest rule): then the
    /// given line is not the longest defence by our rule or any looser one
    /// (a rule that counts more interpositions may lengthen the given
    /// defence too).
    fn every_rule_note(
        &mut self,
        pos: &Position,
        m: Move,
        given: u32,
    ) -> Result<Option<(String, LongerBy)>, SolveError> {
        // An interposition itself does not count under that rule.
        if interposition_squares(pos).contains(m.to()) {
            return Ok(None);
        }
        let Some(asked) = self.search_options(Some(self.options.nodes_per_search), false, true)
        else {
            return Ok(None);
        };
        let after = pos.after(m);
        let plies = given - 1;
        for (ignored, what) in [
            (Ignored::All, "no interposition counted at all"),
            (Ignored::Drops, "no drop between checker and king counted"),
        ] {
            let r = self
                .solver
                .mated_within_ignoring(&after, plies, ignored, &asked)?;
            self.nodes += r.nodes();
            match r {
                Within::NotMated { .. } => {
                    let (rule, by) = if ignored == Ignored::All {
                        (
                            "this solver's rule and every looser one",
                            LongerBy::EveryLooserRule,
                        )
                    } else {
                        (
                            "every rule that counts a piece moved onto the line, as this solver's does",
                            LongerBy::RulesCountingMovedPieces,
                        )
                    };
                    return Ok(Some((
                        format!(
                            "with {what}, {m} is still not mated within {plies}: it outlasts the given defence by {rule}"
                        ),
                        by,
                    )));
                }
                Within::Mated { .. } => {}
                Within::Unknown { .. } => return Ok(None),
            }
        }
        let depends = format!(
            "with no drop between checker and king counted, {m} is mated within {plies}: whether it outlasts the given defence depends on which drops count"
        );
        // Asked again by the looser rule, unless the main line follows it.
        let r = if self.options.rules.useless_rule == UselessRule::PieceUnused {
            None
        } else {
            let unused = asked.useless_rule(UselessRule::PieceUnused);
            let r = self.solver.mated_within(&after, plies, &unused)?;
            self.nodes += r.nodes();
            Some(r)
        };
        let looser = "by the looser rule that asks only whether a captured piece is used";
        Ok(Some(match r {
            Some(Within::NotMated { .. }) => (
                format!(
                    "{depends}; {looser}, {m} is still not mated within {plies}: it outlasts the given defence by that rule too"
                ),
                LongerBy::PieceUnusedRuleToo,
            ),
            Some(Within::Mated { .. }) => (
                format!(
                    "{depends}; {looser}, {m} is mated within {plies}: by that rule the given defence is as long"
                ),
                LongerBy::NotByPieceUnusedRule,
            ),
            Some(Within::Unknown { .. }) | None => (depends, LongerBy::SomeDrops),
        }))
    }

    /// When the longer defence `rest[0]` at `pos` is a drop between checker
    /// and king that counts, and `rest[1]` captures it: whether the attacker
    /// needs the captured piece. The mate after the capture is compared
    /// with the mate once the piece is set aside (taken out of the
    /// attacker's hand, given back to the defender's). Where they are as
    /// long, the piece is not used: some authors call such a drop useless
    /// whatever it gains, a looser rule than this solver's (see
    /// [`crate::solver::interposition`]). Where the piece is needed, the drop
    /// counts under that rule too.
    fn counted_drop_note(
        &mut self,
        pos: &Position,
        rest: &[Move],
    ) -> Result<Option<(String, LongerBy)>, SolveError> {
        let [drop, capture, ..] = *rest else {
            return Ok(None);
        };
        if !DropInterpositions::of(pos).contains(drop) || capture.to() != drop.to() {
            return Ok(None);
        }
        let Some(kind) = drop.drop_kind() else {
            return Ok(None);
        };
        let with_piece = rest.len() as u32 - 2;
        let after = pos.after(drop).after(capture);
        let without = set_aside(&after, kind);
        let what = match self.solve(&without, true, None)? {
            Solved::Mate(line, true) if line.len() as u32 <= with_piece => (
                format!(
                    "{drop} is a drop between checker and king that counts here; after {capture} the attacker mates in {with_piece} without using the piece (as long with it set aside): useless by the looser rule that asks only whether the captured piece is used"
                ),
                LongerBy::PieceUnused,
            ),
            Solved::Mate(line, true) => (
                format!(
                    "{drop} is a drop between checker and king; after {capture} the attacker mates in {with_piece}, but in {} with the piece set aside: the piece is needed, so the drop counts by that looser rule too",
                    line.len()
                ),
                LongerBy::PieceNeeded,
            ),
            Solved::NoMate => (
                format!(
                    "{drop} is a drop between checker and king; after {capture} the attacker mates in {with_piece}, and not at all with the piece set aside: the piece is needed, so the drop counts by that looser rule too"
                ),
                LongerBy::PieceNeeded,
            ),
            _ => return Ok(None),
        };
        Ok(Some(what))
    }
}

/// A finding of `kind` on the whole answer `main` against the length
/// `intended` (given, or the given solution's).
fn against_length(kind: FindingKind, main: &[Move], intended: u32, note: String) -> Finding {
    Finding {
        kind,
        ply: 1,
        longer_by: None,
        longer_leaves_pieces: false,
        moves: main.to_vec(),
        length: Some(main.len() as u32),
        main_length: Some(intended),
        note,
    }
}

/// The line compared with, switched at ply `i` to the given move `g` and
/// the answer `rest` after it; `pos` moves on with it.
fn follow_given(line: &mut Vec<Move>, pos: &mut Position, i: usize, g: Move, rest: Vec<Move>) {
    line.truncate(i);
    line.push(g);
    line.extend(rest);
    pos.do_move(g);
}
