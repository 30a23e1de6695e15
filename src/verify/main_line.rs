//! Along the main line: at the attacker's moves the other checks that
//! mate (余詰, and the minor longer or last-move alternatives), at the
//! defender's moves the other defences that are no useless interposition
//! (変同, and 変化別詰 along their side lines), and the pieces left in the
//! attacker's hand at the end (駒余り).

use std::time::Instant;

use hashbrown::HashSet;

use crate::core::movegen::{check_moves, evasion_moves};
use crate::core::{Move, Position};
use crate::solver::defence::DefenceChoice;
use crate::solver::interposition::{DropInterpositions, UselessRule, interposition_squares};
use crate::solver::{SolveError, Within};

use super::solution::{CLASSICAL_DEPARTS, is_longer_side_line};
use super::{Finding, FindingKind, Solved, Verifier, hand_text, reaches, replay};

/// How far beyond the main line's plies left a node's tsume length is
/// looked for, by the old convention (see `Verifier::tsume_length`).
const TSUME_LENGTH_REACH: u32 = 200;

impl Verifier<'_> {
    /// The tsume length of `pos` (the defender to move, mated within no
    /// fewer than `from` plies): the first bound from `from` on, by twos,
    /// that it is mated within; `from` when a limit stops the searches.
    fn tsume_length(&mut self, pos: &Position, from: u32) -> Result<u32, SolveError> {
        let mut bound = from;
        while bound <= from + TSUME_LENGTH_REACH {
            match self.within(pos, bound, true)? {
                Within::Mated { .. } => return Ok(bound),
                Within::NotMated { .. } => bound += 2,
                Within::Unknown { .. } => break,
            }
        }
        Ok(from)
    }

    /// The base drops between checker and king are judged against at
    /// `pos` (the defender to move, mated in `upto` plies): the longest of
    /// the defences that are no such drop, by tsume length; `upto` when a
    /// limit stops the searches.
    fn drop_base(
        &mut self,
        pos: &Position,
        drops: DropInterpositions,
        upto: u32,
    ) -> Result<u32, SolveError> {
        let others: Vec<Move> = evasion_moves(pos)
            .iter()
            .copied()
            .filter(|&e| !drops.contains(e))
            .collect();
        if others.is_empty() {
            return Ok(0);
        }
        let mut base = 2;
        'bounds: while base < upto {
            for &e in &others {
                match self.within(&pos.after(e), base - 1, false)? {
                    Within::Mated { .. } => {}
                    Within::NotMated { .. } => {
                        base += 2;
                        continue 'bounds;
                    }
                    Within::Unknown { .. } => break 'bounds,
                }
            }
            return Ok(base);
        }
        Ok(upto)
    }

    /// A finding about the side line of the defence `e` (then `line`) at
    /// move `ply`, `lengths` being its length and the main line's.
    fn side_line_finding(
        &mut self,
        kind: FindingKind,
        ply: usize,
        e: Move,
        line: &[Move],
        (length, main_length): (u32, u32),
        note: String,
    ) {
        let mut moves = vec![e];
        moves.extend_from_slice(line);
        self.findings.push(Finding {
            kind,
            ply,
            longer_by: None,
            longer_leaves_pieces: false,
            moves,
            length: Some(length),
            main_length: Some(main_length),
            note,
        });
    }

    /// By the classical convention, where the main line follows the given
    /// defence `m` (at move `ply`, `left` plies) though the defence `e`
    /// lasts longer (`len` plies, then `line`): 変長 when `e` is no
    /// interposition and outlasts `m` by every rule that counts a piece
    /// moved onto the line; otherwise the given solution departs there.
    fn longer_than_given(
        &mut self,
        pos: &Position,
        ply: usize,
        e: Move,
        line: &[Move],
        (len, m, left): (u32, Move, u32),
    ) -> Result<(), SolveError> {
        let mut moves = vec![e];
        moves.extend_from_slice(line);
        let why = self.longer_defence_note(pos, &moves, left)?;
        let by = why.as_ref().map(|w| w.1);
        let (kind, mut note) = if by.is_some_and(is_longer_side_line) {
            (
                FindingKind::LongerSideLine,
                format!(
                    "{e} lasts {len}, longer than the main line's {m} ({left}): a longer side line (変長), which the classical convention accepts"
                ),
            )
        } else if by.is_none() && !interposition_squares(pos).contains(e.to()) {
            let note = format!(
                "{e} lasts {len}, longer than the main line's {m} ({left}): whether it outlasts {m} by every rule that counts a piece moved onto the line (a longer side line the classical convention accepts) was not decided within the limits"
            );
            self.unchecked(ply, e, &note);
            return Ok(());
        } else {
            (
                FindingKind::DepartsFromSolution,
                format!("the given defence lasts {left}, but {e} lasts {len}"),
            )
        };
        if let Some((why, _)) = &why {
            note.push_str("; ");
            note.push_str(why);
        }
        if kind == FindingKind::DepartsFromSolution {
            note.push_str("; ");
            note.push_str(CLASSICAL_DEPARTS);
            // As a departure found by comparing: the given move, its
            // length, the longer one's.
            moves = vec![m];
        }
        let (length, main_length) = if kind == FindingKind::DepartsFromSolution {
            (left, len)
        } else {
            (len, left)
        };
        self.findings.push(Finding {
            kind,
            ply,
            longer_by: by,
            longer_leaves_pieces: false,
            moves,
            length: Some(length),
            main_length: Some(main_length),
            note,
        });
        Ok(())
    }

    /// 余詰, 駒余り, 変同 and 変化別詰 along the main line.
    pub(super) fn walk_main_line(
        &mut self,
        root: &Position,
        main: &[Move],
    ) -> Result<(), SolveError> {
        let attacker = root.side_to_move();
        let n = main.len() as u32;
        // Positions of the main line, by ply: a detour reaching one of a
        // later ply is no alternative solution.
        let (keys, end) = replay(root, main);
        let final_hand = end.hand(attacker);
        // Plies to mate from each ply by tsume counting: up to where the
        // line follows a shorter given defence (by the classical
        // convention), then through the longer defence there.
        let tsume_left = |i: usize| match self.longer_at.iter().find(|a| a.0 > i) {
            Some(&(ply, _, longer)) => (ply - i) as u32 + longer,
            None => n - i as u32,
        };
        let lefts: Vec<u32> = (0..main.len()).map(tsume_left).collect();
        let mut pos = root.clone();
        for (i, &m) in main.iter().enumerate() {
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                // One finding for the rest, not one per alternative.
                self.unchecked(
                    i + 1,
                    m,
                    "the time limit stopped the verification here: this move and the later ones are not checked",
                );
                break;
            }
            let left = lefts[i];
            let later: HashSet<u64> = keys[i + 1..].iter().copied().collect();
            if pos.side_to_move() == attacker {
                for &c in check_moves(&pos).iter() {
                    if c == m {
                        continue;
                    }
                    let after = pos.after(c);
                    match self.within(&after, left - 1, true)? {
                        Within::Mated { plies, .. } => {
                            // Its line and exact length, for the report.
                            let (line, exact) = match self.solve(&after, true, None)? {
                                Solved::Mate(line, exact) => (line, exact),
                                _ => (Vec::new(), false),
                            };
                            if reaches(&after, &line, &later) {
                                continue;
                            }
                            let len = if exact && !line.is_empty() {
                                line.len() as u32 + 1
                            } else {
                                plies + 1
                            };
                            let kind = if left == 1 {
                                FindingKind::AlternativeLastMove
                            } else {
                                FindingKind::AlternativeMate
                            };
                            let how = if exact { "in" } else { "in at most" };
                            let mut moves = vec![c];
                            moves.extend(line);
                            self.findings.push(Finding {
                                kind,
                                ply: i + 1,
                                longer_by: None,
                                longer_leaves_pieces: false,
                                moves,
                                length: Some(len),
                                main_length: Some(left),
                                note: format!(
                                    "{c} also mates, {how} {len} (the main line: {m}, {left})"
                                ),
                            });
                        }
                        Within::NotMated { .. } => {
                            // A longer mate is a minor flaw, looked for
                            // with a smaller budget (not found: not reported).
                            if let Some(line) = self.mates_at_all(&after)?
                                && !reaches(&after, &line, &later)
                            {
                                let mut moves = vec![c];
                                moves.extend(line);
                                self.findings.push(Finding {
                                    kind: FindingKind::LongerAlternativeMate,
                                    ply: i + 1,
                                    longer_by: None,
                                    longer_leaves_pieces: false,
                                    moves,
                                    length: None,
                                    main_length: Some(left),
                                    note: format!(
                                        "{c} also mates, in more than the main line's {left} ({m})"
                                    ),
                                });
                            }
                        }
                        Within::Unknown { .. } => {
                            self.unchecked(i + 1, c, "not decided within the limits")
                        }
                    }
                }
            } else {
                // A drop between checker and king is judged against the
                // longest of the defences that are no such drop (the
                // base). By the longest rule, when the main line's defence
                // is no such drop, that is what the main line has left;
                // otherwise (it is a drop, or by the old convention a
                // shorter defence) the base is searched for, up to the
                // node's tsume length.
                let drops = DropInterpositions::of(&pos);
                let evasions = evasion_moves(&pos);
                let judges_drops = evasions.iter().any(|&e| e != m && drops.contains(e));
                // By the classical convention the line may follow a given
                // defence shorter than `longer` (reported already).
                let longer = self.longer_at.iter().find(|a| a.0 == i).map(|a| a.1);
                // By 定義1 (checker-captures) the base plays no part.
                let base = if !judges_drops
                    || self.options.rules.useless_rule == UselessRule::CheckerCaptures
                    || (!drops.contains(m)
                        && self.options.rules.defence == DefenceChoice::Longest
                        && longer.is_none())
                {
                    left
                } else {
                    let tsume_left = self.tsume_length(&pos, left)?;
                    self.drop_base(&pos, drops, tsume_left)?
                };
                for &e in evasions.iter() {
                    if e == m || Some(e) == longer {
                        continue;
                    }
                    match self.solver.is_useless_interposition(
                        &pos,
                        e,
                        base,
                        self.options.rules.useless_rule,
                        self.options.nodes_per_search,
                    ) {
                        Some(true) => continue,
                        Some(false) => {}
                        None => {
                            self.unchecked(
                                i + 1,
                                e,
                                "useless or not: not decided within the limits",
                            );
                            continue;
                        }
                    }
                    let after = pos.after(e);
                    // The main line is the longest defence: a side line is
                    // as long (変同) when it is not mated two plies sooner.
                    let same_length = if left >= 3 {
                        match self.within(&after, left - 3, false)? {
                            Within::Mated { .. } => false,
                            Within::NotMated { .. } => true,
                            Within::Unknown { .. } => {
                                self.unchecked(i + 1, e, "not solved within the limits");
                                continue;
                            }
                        }
                    } else {
                        true
                    };
                    let (line, exact) = match self.solve(&after, false, None)? {
                        Solved::Mate(line, exact) => (line, exact),
                        Solved::NoMate => {
                            // The main line's length was proven: a defence
                            // escaping it would be a solver bug.
                            self.unchecked(i + 1, e, "no mate after this defence");
                            continue;
                        }
                        Solved::Unknown => {
                            self.unchecked(i + 1, e, "not solved within the limits");
                            continue;
                        }
                    };
                    let old_convention =
                        self.options.rules.defence == DefenceChoice::EmptyHandFirst;
                    let len = if exact && (old_convention || longer.is_some() || !same_length) {
                        // By the old convention a side line's length is its
                        // own line's, which may differ from the tsume
                        // length either way; where the main line follows a
                        // shorter given defence, a side line may be longer.
                        line.len() as u32 + 1
                    } else if same_length && longer.is_none() {
                        left
                    } else {
                        // Shorter than the main line, by how much not known:
                        // 変化別詰 cannot be judged.
                        self.unchecked(
                            i + 1,
                            e,
                            "the side line's length was not decided within the limits",
                        );
                        continue;
                    };
                    if len > left {
                        // By the old convention the line leaves the
                        // attacker pieces in hand (else the main line
                        // would follow it), unless the main line follows
                        // a shorter given defence here.
                        let hand = replay(&after, &line).1.hand(attacker);
                        if longer.is_some() && (!old_convention || hand.is_empty()) {
                            self.longer_than_given(&pos, i + 1, e, &line, (len, m, left))?;
                            continue;
                        }
                        let note = format!(
                            "{e} lasts {len}, longer than the main line's {m} ({left}), but ends with the attacker holding {}: a side line by the old convention",
                            hand_text(hand)
                        );
                        self.side_line_finding(
                            FindingKind::LongerSideLine,
                            i + 1,
                            e,
                            &line,
                            (len, left),
                            note,
                        );
                        continue;
                    }
                    if len == left {
                        let note = format!("{e} lasts as long as the main line's {m} ({len})");
                        self.side_line_finding(
                            FindingKind::SameLengthSideLine,
                            i + 1,
                            e,
                            &line,
                            (len, left),
                            note,
                        );
                    }
                    self.side_line_alternatives(i + 1, e, &after, &line, (len, left), &later)?;
                }
            }
            pos.do_move(m);
        }
        if !final_hand.is_empty() {
            self.findings.push(Finding {
                kind: FindingKind::PiecesLeft,
                ply: main.len(),
                longer_by: None,
                longer_leaves_pieces: false,
                moves: Vec::new(),
                length: Some(n),
                main_length: Some(n),
                note: format!(
                    "the attacker ends with pieces in hand: {}",
                    hand_text(final_hand)
                ),
            });
        }
        Ok(())
    }

    /// 変化別詰 along the side line `line` (the tsume answer after the
    /// defence `e`, played at move `ply`; `after` is the position after
    /// `e`; `lengths`: the side line's plies counting `e`, and the main
    /// line's from the same place): at each attacker move of the side line
    /// but its last, another check that mates within the moves left. One
    /// that only takes a detour into a later position of the side line
    /// (迂回) is not one; a second mate in one at the side line's last move
    /// is accepted by every convention and not reported. A side line that
    /// comes back into the main line (a position of `main_later`) is judged
    /// there from then on.
    fn side_line_alternatives(
        &mut self,
        ply: usize,
        e: Move,
        after: &Position,
        line: &[Move],
        lengths: (u32, u32),
        main_later: &HashSet<u64>,
    ) -> Result<(), SolveError> {
        let (len, main_length) = lengths;
        let (keys, _) = replay(after, line);
        let mut pos = after.clone();
        for (j, &m) in line.iter().enumerate() {
            if main_later.contains(&pos.key()) {
                break;
            }
            // Plies to mate from here, the attacker to move.
            let left = len - 1 - j as u32;
            if j % 2 == 0 && left >= 3 {
                let later: HashSet<u64> = keys[j + 1..].iter().copied().collect();
                let mut others = Vec::new();
                for &c in check_moves(&pos).iter() {
                    if c == m {
                        continue;
                    }
                    let next = pos.after(c);
                    match self.within(&next, left - 1, true)? {
                        Within::Mated { .. } => {
                            let detour = match self.solve(&next, true, None)? {
                                Solved::Mate(rest, _) => reaches(&next, &rest, &later),
                                _ => false,
                            };
                            if !detour {
                                others.push(c);
                            }
                        }
                        Within::NotMated { .. } => {}
                        Within::Unknown { .. } => {
                            self.unchecked(ply + 1 + j, c, "not decided within the limits")
                        }
                    }
                }
                if let Some(&c) = others.first() {
                    let mut moves = vec![e];
                    moves.extend_from_slice(&line[..j]);
                    moves.push(c);
                    let mut all = vec![m];
                    all.extend(others.iter().copied());
                    self.findings.push(Finding {
                        kind: FindingKind::SideLineAlternative,
                        ply,
                        longer_by: None,
                        longer_leaves_pieces: false,
                        moves,
                        length: Some(len),
                        main_length: Some(main_length),
                        note: format!(
                            "after {e}, at move {} the attacker mates in {left} by {} moves: {}",
                            ply + 1 + j,
                            all.len(),
                            all.iter()
                                .map(|m| m.to_string())
                                .collect::<Vec<_>>()
                                .join(" ")
                        ),
                    });
                }
            }
            pos.do_move(m);
        }
        Ok(())
    }
}
