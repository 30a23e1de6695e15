//! Verification of a composed problem: is its solution unique, and where
//! not, what is wrong and where.
//!
//! The main line is the solver's tsume answer (shortest attack, longest
//! defence, useless interpositions not counted). Along it:
//!
//! - at every attacker move, every other check is asked "mated within the
//!   moves the main line has left?" (a bounded search: cheap when the
//!   answer is no, and never misled by a long first proof); one that is
//!   is an alternative solution
//!   (余詰, [`FindingKind::AlternativeMate`]); at the last move, another
//!   mate in one is the minor flaw of its own kind
//!   ([`FindingKind::AlternativeLastMove`]); one that mates only in more
//!   moves is reported as minor ([`FindingKind::LongerAlternativeMate`]:
//!   strict judges count it as 余詰, puzzle collections do not; looked for
//!   with an eighth of the node budget, and not reported when not found
//!   within it). An alternative that only
//!   takes a detour back into a later position of the main line (迂回) is
//!   not reported.
//! - at every defender move, every other defence that is not a useless
//!   interposition is asked whether it is mated two plies sooner than
//!   the main line (which is the longest defence): one that is not is 変同
//!   ([`FindingKind::SameLengthSideLine`]). Along each side line (its tsume
//!   answer), at every attacker move but the last, another check that
//!   mates as quickly is 変化別詰 ([`FindingKind::SideLineAlternative`]);
//!   both minor. A second mate in one at a side line's last move is
//!   accepted by every convention and not reported, nor is a detour back
//!   into the side line, and a side line that comes back into the main
//!   line is judged there.
//! - the attacker ending the main line with pieces in hand is 駒余り
//!   ([`FindingKind::PiecesLeft`]).
//! - with a solution or a length given: a shorter mate is 早詰
//!   ([`FindingKind::ShorterMate`]), and the first move where the given
//!   solution leaves the main line is reported with the reason
//!   ([`FindingKind::DepartsFromSolution`]).
//!
//! The main line's search has the solver's own allowance (see
//! [`Solver::solve`]) unless [`VerifyOptions::main_nodes`] says otherwise. When a
//! limit leaves the main line unproven (not the shortest mate), nothing is
//! judged against it, not even a given solution: the verdict is
//! [`Verdict::Unknown`].
//!
//! Every search shares the solver's table, so the positions of the main
//! line and its side lines are proven once.
//!
//! ```
//! use tsume::core::Position;
//! use tsume::solver::Solver;
//! use tsume::verify::{verify, FindingKind, VerifyOptions, Verdict};
//! // G*5b mates in one, and no other check does: sound.
//! let pos: Position = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1".parse().unwrap();
//! let report = verify(&mut Solver::new(16), &pos, &VerifyOptions::default()).unwrap();
//! assert_eq!(report.verdict, Verdict::Sound);
//! assert_eq!(report.main_line.len(), 1);
//! // With a second gold in hand, the same mate leaves it unused (駒余り).
//! let pos: Position = "4k4/9/4P4/9/9/9/9/9/9 b 2G2r2b2g4s4n4l17p 1".parse().unwrap();
//! let report = verify(&mut Solver::new(16), &pos, &VerifyOptions::default()).unwrap();
//! assert_eq!(report.verdict, Verdict::Flawed);
//! assert!(report.findings.iter().any(|f| f.kind == FindingKind::PiecesLeft));
//! ```

use std::time::{Duration, Instant};

use hashbrown::HashSet;

use crate::core::movegen::{check_moves, evasion_moves};
use crate::core::{Move, Position};
use crate::solver::defence::DefenceChoice;
use crate::solver::interposition::{
    DropInterpositions, Ignored, UselessRule, interposition_squares, set_aside,
};
use crate::solver::{Limits, Outcome, Rules, SolveError, SolveOptions, Solver, Within};

/// The longer-alternative search gets this fraction of the node budget.
const LONGER_ALTERNATIVE_SHARE: u64 = 8;

/// How far beyond the main line's plies left a node's tsume length is
/// looked for, by the old convention (see `Verifier::tsume_length`).
const TSUME_LENGTH_REACH: u32 = 200;

/// What to verify against, and the limits of each search.
#[derive(Clone, Debug)]
pub struct VerifyOptions {
    /// The intended solution, if the composer gives one.
    pub solution: Option<Vec<Move>>,
    /// The intended length, if given (without a solution).
    pub length: Option<u32>,
    /// Nodes for each search of an alternative or a side line.
    pub nodes_per_search: u64,
    /// Nodes for the search of the main line (`None`: the solver's own
    /// allowance for the proof and its answer).
    pub main_nodes: Option<u64>,
    /// Time for the whole verification.
    pub time: Option<Duration>,
    /// The rule for useless drops the main line and every check follow,
    /// and which defence the main line and the side lines follow. By
    /// [`DefenceChoice::EmptyHandFirst`] a side line may outlast the main
    /// line when it leaves the attacker pieces in hand: reported as
    /// [`FindingKind::LongerSideLine`].
    pub rules: Rules,
}

impl Default for VerifyOptions {
    fn default() -> VerifyOptions {
        VerifyOptions {
            solution: None,
            length: None,
            nodes_per_search: 2_000_000,
            main_nodes: None,
            time: None,
            rules: Rules::default(),
        }
    }
}

/// The overall answer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A unique solution; minor findings may remain.
    Sound,
    /// At least one major finding.
    Flawed,
    /// The attacker cannot mate.
    NoMate,
    /// Not decided: a limit stopped the search for the main line, or no
    /// flaw was found but the main line's length is not proven shortest or
    /// some alternative was left unchecked (see the findings).
    Unknown,
}

/// The kinds of findings.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FindingKind {
    /// 余詰: another attacker move of the main line also mates.
    AlternativeMate,
    /// 最終手余詰: another mate in one at the last move (minor).
    AlternativeLastMove,
    /// 長手数の余詰: another attacker move mates, but in more moves than the
    /// main line has left (minor here; strict judges count it as 余詰).
    LongerAlternativeMate,
    /// 早詰: a mate shorter than the intended one.
    ShorterMate,
    /// 駒余り: the attacker ends the main line with pieces in hand.
    PiecesLeft,
    /// 変化別詰: at an attacker move of a side line, before its last,
    /// another check mates as quickly (minor).
    SideLineAlternative,
    /// 変同: a side line as long as the main line (minor).
    SameLengthSideLine,
    /// 変長駒余り: by [`DefenceChoice::EmptyHandFirst`] only, a side line
    /// longer than the main line that leaves the attacker pieces in hand
    /// (minor: the convention asked for accepts it; by today's rule the
    /// main line would follow it).
    LongerSideLine,
    /// 不詰: no mate at all.
    NoMate,
    /// The given solution is not the main line.
    DepartsFromSolution,
    /// A limit stopped a search: this move was not fully checked.
    Unchecked,
}

impl FindingKind {
    /// Whether the problem stays sound with this finding.
    pub fn is_minor(self) -> bool {
        matches!(
            self,
            FindingKind::AlternativeLastMove
                | FindingKind::LongerAlternativeMate
                | FindingKind::SideLineAlternative
                | FindingKind::SameLengthSideLine
                | FindingKind::LongerSideLine
                | FindingKind::Unchecked
        )
    }

    /// The tsume-shogi term.
    pub fn japanese(self) -> &'static str {
        match self {
            FindingKind::AlternativeMate => "余詰",
            FindingKind::AlternativeLastMove => "最終手余詰",
            FindingKind::LongerAlternativeMate => "長手数余詰",
            FindingKind::ShorterMate => "早詰",
            FindingKind::PiecesLeft => "駒余り",
            FindingKind::SideLineAlternative => "変化別詰",
            FindingKind::SameLengthSideLine => "変同",
            FindingKind::LongerSideLine => "変長駒余り",
            FindingKind::NoMate => "不詰",
            FindingKind::DepartsFromSolution => "手順相違",
            FindingKind::Unchecked => "未確認",
        }
    }

    /// A name for machine-readable output.
    pub fn name(self) -> &'static str {
        match self {
            FindingKind::AlternativeMate => "alternative-mate",
            FindingKind::AlternativeLastMove => "alternative-last-move",
            FindingKind::LongerAlternativeMate => "longer-alternative-mate",
            FindingKind::ShorterMate => "shorter-mate",
            FindingKind::PiecesLeft => "pieces-left",
            FindingKind::SideLineAlternative => "side-line-alternative",
            FindingKind::SameLengthSideLine => "same-length-side-line",
            FindingKind::LongerSideLine => "longer-side-line",
            FindingKind::NoMate => "no-mate",
            FindingKind::DepartsFromSolution => "departs-from-solution",
            FindingKind::Unchecked => "unchecked",
        }
    }
}

/// By which rules for useless interpositions a defence outlasts the given
/// one (a [`FindingKind::DepartsFromSolution`] for a shorter given
/// defence): this crate's, looser ones too, or only some.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LongerBy {
    /// Even with no interposition counted at all: by this crate's rule and
    /// every looser one.
    EveryLooserRule,
    /// With no drop between checker and king counted (but not with no
    /// interposition at all): by every rule that counts a piece moved onto
    /// the line.
    RulesCountingMovedPieces,
    /// Not with no drop counted: it depends on which drops count (the
    /// looser rule that asks only whether a captured piece is used was
    /// not decided).
    SomeDrops,
    /// Not with no drop counted, but by the looser rule that asks only
    /// whether a captured piece is used
    /// ([`UselessRule::PieceUnused`]) as well as by this crate's.
    PieceUnusedRuleToo,
    /// By this crate's rule only among the two: by the looser rule that
    /// asks only whether a captured piece is used, the defence is mated
    /// within the given defence's plies (the given line may be the longest
    /// by that rule).
    NotByPieceUnusedRule,
    /// The defence is a drop whose captured piece the attacker needs (no
    /// mate, or a longer one, with it set aside): it counts by the looser
    /// rule that asks only whether the piece is used, too.
    PieceNeeded,
    /// The defence is a drop whose captured piece the attacker does not
    /// use (as quick a mate with it set aside): useless by that looser
    /// rule, counted by this crate's.
    PieceUnused,
}

impl LongerBy {
    /// A name for machine-readable output.
    pub fn name(self) -> &'static str {
        match self {
            LongerBy::EveryLooserRule => "every-looser-rule",
            LongerBy::RulesCountingMovedPieces => "rules-counting-moved-pieces",
            LongerBy::SomeDrops => "some-drops",
            LongerBy::PieceUnusedRuleToo => "piece-unused-rule-too",
            LongerBy::NotByPieceUnusedRule => "not-by-piece-unused-rule",
            LongerBy::PieceNeeded => "piece-needed",
            LongerBy::PieceUnused => "piece-unused",
        }
    }
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub kind: FindingKind,
    /// The move number (1 = the first move) where it happens; 0 for the
    /// problem as a whole.
    pub ply: usize,
    /// The moves involved, from the position before move `ply` (along the
    /// main line; along the given solution for a
    /// [`FindingKind::DepartsFromSolution`], which follows it up to there):
    /// the alternative (or given) move and the line that follows it.
    pub moves: Vec<Move>,
    /// Plies of the line `moves` (the mate length it leads to).
    pub length: Option<u32>,
    /// Plies the main line has from the same position.
    pub main_length: Option<u32>,
    /// What happened, in words.
    pub note: String,
    /// For a given defence shorter than the main line's: by which rules
    /// the main line's defence is the longer (`None` when not judged).
    pub longer_by: Option<LongerBy>,
    /// For a given defence shorter than the main line's: the main line's
    /// defence leaves the attacker pieces in hand at the end of its line,
    /// where the given one uses them up, so the given defence is the one
    /// the old convention plays ([`DefenceChoice::EmptyHandFirst`], 変長駒余り).
    pub longer_leaves_pieces: bool,
}

/// The result of a verification.
#[derive(Clone, Debug)]
pub struct Report {
    pub verdict: Verdict,
    /// The solver's main line (empty without a mate).
    pub main_line: Vec<Move>,
    /// Whether the main line's length is proven shortest.
    pub exact: bool,
    pub findings: Vec<Finding>,
    /// Whether a given solution ([`VerifyOptions::solution`]) is the answer;
    /// `None` without one, or when the main line is not proven.
    pub solution: Option<GivenSolution>,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// What a verification says of the solution it was given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GivenSolution {
    /// It is the answer: the main line, or as good a line at each move.
    Answer,
    /// It is not the answer; `reason` says why (a shorter mate, where it
    /// departs and why), from the findings.
    NotAnswer { reason: String },
}

impl Report {
    /// What the findings say of a given solution (see [`Report::solution`]).
    fn judge_solution(&self) -> GivenSolution {
        let mut reasons = Vec::new();
        for f in &self.findings {
            match f.kind {
                FindingKind::ShorterMate => reasons.push(format!(
                    "a shorter mate ({}): {}",
                    f.moves.first().map_or(String::new(), Move::to_string),
                    f.note
                )),
                FindingKind::DepartsFromSolution => reasons.push(format!(
                    "at move {} ({}): {}",
                    f.ply,
                    f.moves.first().map_or(String::new(), Move::to_string),
                    f.note
                )),
                _ => {}
            }
        }
        if reasons.is_empty() {
            GivenSolution::Answer
        } else {
            GivenSolution::NotAnswer {
                reason: reasons.join("; "),
            }
        }
    }
}

struct Verifier<'s> {
    solver: &'s mut Solver,
    options: &'s VerifyOptions,
    deadline: Option<Instant>,
    nodes: u64,
    findings: Vec<Finding>,
}

/// `1 ply`, `3 plies`.
fn plies(n: usize) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}

/// Verifies the problem `pos` (the attacker to move).
pub fn verify(
    solver: &mut Solver,
    pos: &Position,
    options: &VerifyOptions,
) -> Result<Report, SolveError> {
    let start = Instant::now();
    let mut v = Verifier {
        solver,
        options,
        deadline: options.time.map(|t| start + t),
        nodes: 0,
        findings: Vec::new(),
    };
    // The main line gets the solver's own allowance unless told otherwise.
    let main = v.solve_within(pos, false, options.main_nodes)?;
    let (main_line, exact) = match main {
        Solved::Mate(line, exact) => (line, exact),
        Solved::NoMate | Solved::Unknown => {
            let verdict = if main == Solved::NoMate {
                v.findings.push(Finding {
                    kind: FindingKind::NoMate,
                    ply: 0,
                    longer_by: None,
                    longer_leaves_pieces: false,
                    moves: Vec::new(),
                    length: None,
                    main_length: None,
                    note: "the attacker has no mate".into(),
                });
                Verdict::NoMate
            } else {
                Verdict::Unknown
            };
            let mut report = Report {
                verdict,
                main_line: Vec::new(),
                exact: false,
                findings: v.findings,
                solution: None,
                nodes: v.nodes,
                elapsed: start.elapsed(),
            };
            if main == Solved::NoMate && options.solution.is_some() {
                report.solution = Some(GivenSolution::NotAnswer {
                    reason: "the attacker has no mate".to_string(),
                });
            }
            return Ok(report);
        }
    };
    if exact {
        v.compare_with_given(pos, &main_line)?;
        v.walk_main_line(pos, &main_line)?;
    } else if let Some(&first) = main_line.first() {
        // Alternatives and the given solution are judged against the moves
        // the main line leaves: unproven, they would call a mere shortcut
        // of this line 余詰, or its length 早詰.
        v.unchecked(
            1,
            first,
            "the main line is not proven shortest within the limits: nothing is judged against it",
        );
    }
    let verdict = if !v.findings.iter().all(|f| f.kind.is_minor()) {
        Verdict::Flawed
    } else if !exact || v.findings.iter().any(|f| f.kind == FindingKind::Unchecked) {
        // No flaw found, but not everything was proven.
        Verdict::Unknown
    } else {
        Verdict::Sound
    };
    let mut report = Report {
        verdict,
        main_line,
        exact,
        findings: v.findings,
        solution: None,
        nodes: v.nodes,
        elapsed: start.elapsed(),
    };
    if exact && options.solution.is_some() {
        report.solution = Some(report.judge_solution());
    }
    Ok(report)
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Solved {
    Mate(Vec<Move>, bool),
    NoMate,
    Unknown,
}

impl Verifier<'_> {
    /// The options of one search of `nodes` (`None`: the solver's own
    /// allowance) within the time left, the defender to move when
    /// `defender`, the tsume answer read when `tsume_answer`; `None` when
    /// the time is up.
    fn search_options(
        &self,
        nodes: Option<u64>,
        defender: bool,
        tsume_answer: bool,
    ) -> Option<SolveOptions> {
        let time = self
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()));
        if time.is_some_and(|t| t.is_zero()) {
            return None;
        }
        Some(SolveOptions {
            limits: Limits { nodes, time },
            rules: self.options.rules,
            defender_to_move: defender,
            tsume_answer,
        })
    }

    /// Solves `pos` (defender to move when `defender`).
    fn solve(
        &mut self,
        pos: &Position,
        defender: bool,
        nodes: Option<u64>,
    ) -> Result<Solved, SolveError> {
        let nodes = nodes.unwrap_or(self.options.nodes_per_search);
        self.solve_within(pos, defender, Some(nodes))
    }

    /// [`solve`](Self::solve) with `nodes` as given: `None` leaves the
    /// solver's own allowance.
    fn solve_within(
        &mut self,
        pos: &Position,
        defender: bool,
        nodes: Option<u64>,
    ) -> Result<Solved, SolveError> {
        let Some(asked) = self.search_options(nodes, defender, true) else {
            return Ok(Solved::Unknown);
        };
        let r = self.solver.solve(pos, &asked)?;
        self.nodes += r.nodes;
        Ok(match r.outcome {
            Outcome::Mate { moves } => Solved::Mate(moves, r.exact),
            Outcome::NoMate => Solved::NoMate,
            Outcome::Unknown(_) => Solved::Unknown,
        })
    }

    /// Whether `pos` (defender to move when `defender`) is mated within
    /// `plies` by tsume counting: a bounded search, cheap when it fails.
    fn within(&mut self, pos: &Position, plies: u32, defender: bool) -> Result<Within, SolveError> {
        let Some(asked) = self.search_options(Some(self.options.nodes_per_search), defender, true)
        else {
            return Ok(Within::Unknown {
                limit: crate::solver::Limit::Time,
                nodes: 0,
            });
        };
        let r = self.solver.mated_within(pos, plies, &asked)?;
        self.nodes += r.nodes();
        Ok(r)
    }

    /// Whether `pos` (defender to move) is mated at all, with a first
    /// proof's line (not the shortest); a smaller node budget: it only
    /// looks for the minor longer alternatives.
    fn mates_at_all(&mut self, pos: &Position) -> Result<Option<Vec<Move>>, SolveError> {
        let nodes = self.options.nodes_per_search / LONGER_ALTERNATIVE_SHARE;
        let Some(asked) = self.search_options(Some(nodes), true, false) else {
            return Ok(None);
        };
        let r = self.solver.solve(pos, &asked)?;
        self.nodes += r.nodes;
        Ok(match r.outcome {
            Outcome::Mate { moves } => Some(moves),
            _ => None,
        })
    }

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

    fn unchecked(&mut self, ply: usize, m: Move, note: &str) {
        self.findings.push(Finding {
            kind: FindingKind::Unchecked,
            ply,
            longer_by: None,
            longer_leaves_pieces: false,
            moves: vec![m],
            length: None,
            main_length: None,
            note: note.into(),
        });
    }

    /// 早詰 and the first departure of the given solution.
    fn compare_with_given(&mut self, root: &Position, main: &[Move]) -> Result<(), SolveError> {
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
            self.findings.push(Finding {
                kind: FindingKind::ShorterMate,
                ply: 1,
                longer_by: None,
                longer_leaves_pieces: false,
                moves: main.to_vec(),
                length: Some(n),
                main_length: Some(intended),
                note: format!("mate in {n}, shorter than the intended {intended}"),
            });
        }
        let Some(given) = self.options.solution.clone() else {
            return Ok(());
        };
        let attacker = root.side_to_move();
        let mut pos = root.clone();
        // The line compared with: the main line, switched to the given
        // moves where they are as good (an equally short mate, an equally
        // long defence), followed by the answer from there.
        let mut line = main.to_vec();
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
                            let mut note =
                                format!("the given defence lasts {len}, but {m} lasts {left}");
                            let why = match self.counted_drop_note(&pos, &line[i..])? {
                                Some(why) => Some(why),
                                None => self.every_rule_note(&pos, m, len)?,
                            };
                            if let Some((why, by)) = why {
                                note.push_str("; ");
                                note.push_str(&why);
                                longer_by = Some(by);
                            }
                            if !main_hand.is_empty() && given_hand.is_empty() {
                                // The main line's end is one line; another
                                // after m may use every piece.
                                if let Some(why) = self.old_convention_note(&pos, m, attacker)? {
                                    longer_leaves_pieces = why.0;
                                    note.push_str("; ");
                                    note.push_str(&why.1);
                                }
                            }
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
                            line.truncate(i);
                            line.push(g);
                            line.extend(rest);
                            pos.do_move(g);
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
                    Solved::Unknown => (
                        "the given move was not decided within the limits".to_string(),
                        None,
                    ),
                };
                self.findings.push(Finding {
                    kind: FindingKind::DepartsFromSolution,
                    ply: i + 1,
                    longer_by,
                    longer_leaves_pieces,
                    moves: vec![g],
                    length,
                    main_length: Some(left),
                    note,
                });
                return Ok(());
            }
            pos.do_move(m);
            i += 1;
        }
        if given.len() != line.len() {
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
        Ok(())
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
        attacker: crate::core::Color,
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

    /// 余詰, 駒余り, 変同 and 変化別詰 along the main line.
    fn walk_main_line(&mut self, root: &Position, main: &[Move]) -> Result<(), SolveError> {
        let attacker = root.side_to_move();
        let n = main.len() as u32;
        // Positions of the main line, by ply: a detour reaching one of a
        // later ply is no alternative solution.
        let (keys, end) = replay(root, main);
        let final_hand = end.hand(attacker);
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
            let left = n - i as u32;
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
                let base = if !judges_drops
                    || (!drops.contains(m) && self.options.rules.defence == DefenceChoice::Longest)
                {
                    left
                } else {
                    let tsume_left = self.tsume_length(&pos, left)?;
                    self.drop_base(&pos, drops, tsume_left)?
                };
                for &e in evasions.iter() {
                    if e == m {
                        continue;
                    }
                    match self.solver.is_useless_interposition(
                        &pos,
                        e,
                        base,
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
                    let len = if exact && (old_convention || !same_length) {
                        // By the old convention a side line's length is its
                        // own line's, which may differ from the tsume
                        // length either way.
                        line.len() as u32 + 1
                    } else if same_length {
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
                        // Only by the old convention: the line leaves the
                        // attacker pieces in hand (else the main line
                        // would follow it).
                        let hand = replay(&after, &line).1.hand(attacker);
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

/// The keys of the positions `line` passes through from `pos` (`pos`'s
/// first), and the position it ends in.
fn replay(pos: &Position, line: &[Move]) -> (Vec<u64>, Position) {
    let mut keys = Vec::with_capacity(line.len() + 1);
    let mut p = pos.clone();
    keys.push(p.key());
    for &m in line {
        p.do_move(m);
        keys.push(p.key());
    }
    (keys, p)
}

/// Whether playing `line` from `pos` reaches a position in `keys`.
fn reaches(pos: &Position, line: &[Move], keys: &HashSet<u64>) -> bool {
    let mut p = pos.clone();
    if keys.contains(&p.key()) {
        return true;
    }
    for &m in line {
        p.do_move(m);
        if keys.contains(&p.key()) {
            return true;
        }
    }
    false
}

fn hand_text(hand: crate::core::Hand) -> String {
    hand.iter()
        .map(|(k, n)| {
            if n > 1 {
                format!("{}{n}", k.japanese())
            } else {
                k.japanese().to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
