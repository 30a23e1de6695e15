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
//!   ([`FindingKind::DepartsFromSolution`]). By [`Convention::Classical`]
//!   a given defence shorter than a plain longer one (変長) is no
//!   departure: the longer one is a [`FindingKind::LongerSideLine`] and
//!   the walk above follows the given line.
//!
//! The main line's search runs until its answer is proven (see
//! [`Solver::solve`]) unless [`VerifyOptions::main_nodes`] or the time bounds
//! it. When a
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

use crate::core::{Move, Position};
use crate::solver::interposition::UselessRule;
use crate::solver::{Limits, Outcome, Rules, SolveError, SolveOptions, Solver, Within};

mod main_line;
mod report;
mod solution;

pub use report::{Finding, FindingKind, GivenSolution, LongerBy, Report};

/// The longer-alternative search gets this fraction of the node budget.
const LONGER_ALTERNATIVE_SHARE: u64 = 8;

/// What to verify against, and the limits of each search.
#[derive(Clone, Debug)]
pub struct VerifyOptions {
    /// The intended solution, if the composer gives one.
    pub solution: Option<Vec<Move>>,
    /// The intended length, if given (without a solution).
    pub length: Option<u32>,
    /// Nodes for each search of an alternative or a side line.
    pub nodes_per_search: u64,
    /// Nodes for the search of the main line (`None`: no bound but the
    /// time; the proof and its answer run until proven).
    pub main_nodes: Option<u64>,
    /// Time for the whole verification.
    pub time: Option<Duration>,
    /// The rule for useless drops the main line and every check follow,
    /// and which defence the main line and the side lines follow. By
    /// [`DefenceChoice::EmptyHandFirst`] a side line may outlast the main
    /// line when it leaves the attacker pieces in hand: reported as
    /// [`FindingKind::LongerSideLine`].
    ///
    /// [`DefenceChoice::EmptyHandFirst`]: crate::solver::DefenceChoice::EmptyHandFirst
    pub rules: Rules,
    /// Whether a given solution may follow a shorter defence (see
    /// [`Convention`]). The rule for useless drops stays `rules`' own:
    /// [`Convention::useless_rule`] is the one `tsume verify` takes by the
    /// convention when none is asked for.
    pub convention: Convention,
}

/// How a given solution whose defence is shorter than another is judged
/// (`--convention`).
///
/// ```
/// use tsume::verify::Convention;
/// assert_eq!(Convention::default(), Convention::Modern);
/// assert_eq!("classical".parse(), Ok(Convention::Classical));
/// assert_eq!(Convention::Classical.to_string(), "classical");
/// assert!("edo".parse::<Convention>().is_err());
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Convention {
    /// Today's rule: the main line is the longest defence, and a given
    /// solution that follows a shorter one departs from it (a flaw).
    #[default]
    Modern,
    /// The convention of classical works: where the given solution's
    /// defence is shorter than a defence that is no interposition and
    /// outlasts it by every rule that counts a piece moved onto the line
    /// ([`LongerBy::EveryLooserRule`], [`LongerBy::RulesCountingMovedPieces`]),
    /// that defence is a longer side line (変長, [`FindingKind::LongerSideLine`],
    /// minor) and the given line stays the main line. A lead that depends
    /// on which drops count, or a longer interposition, still departs.
    /// Without a given solution nothing changes (the main line is the
    /// longest defence).
    Classical,
}

impl Convention {
    /// Every convention, the default first.
    pub const ALL: [Convention; 2] = [Convention::Modern, Convention::Classical];

    /// A name for machine-readable output and command lines (what
    /// [`Display`](std::fmt::Display) writes and [`FromStr`](std::str::FromStr)
    /// reads).
    pub fn name(self) -> &'static str {
        match self {
            Convention::Modern => "modern",
            Convention::Classical => "classical",
        }
    }

    /// The rule for useless drops a verification by this convention
    /// follows when none is asked for: today's
    /// ([`UselessRule::WithinOtherDefences`]), or for classical works
    /// [`UselessRule::WithinOrChecker`], useless by today's rule or by
    /// 定義1, the rule under which the most problems of 将棋無双 keep their
    /// published length (66 of 100, against 61 by today's).
    ///
    /// ```
    /// use tsume::solver::interposition::UselessRule;
    /// use tsume::verify::Convention;
    /// assert_eq!(Convention::Modern.useless_rule(), UselessRule::default());
    /// assert_eq!(Convention::Classical.useless_rule(), UselessRule::WithinOrChecker);
    /// ```
    pub fn useless_rule(self) -> UselessRule {
        match self {
            Convention::Modern => UselessRule::WithinOtherDefences,
            Convention::Classical => UselessRule::WithinOrChecker,
        }
    }
}

impl std::fmt::Display for Convention {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no [`Convention`]'s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownConvention(pub String);

impl std::fmt::Display for UnknownConvention {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown convention '{}' (expected modern or classical)",
            self.0
        )
    }
}

impl std::error::Error for UnknownConvention {}

impl std::str::FromStr for Convention {
    type Err = UnknownConvention;

    fn from_str(s: &str) -> Result<Convention, UnknownConvention> {
        Convention::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| UnknownConvention(s.to_string()))
    }
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
            convention: Convention::default(),
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

/// One verification under way: the solver, the options, and the findings
/// so far. Its searches are here; the walk along the main line and its side
/// lines is in `main_line.rs`, the judgement of a given solution in
/// `solution.rs`, the findings' types in `report.rs`.
struct Verifier<'s> {
    solver: &'s mut Solver,
    options: &'s VerifyOptions,
    deadline: Option<Instant>,
    nodes: u64,
    findings: Vec<Finding>,
    /// By [`Convention::Classical`], in order: the plies (0-based) where
    /// the line walked follows a given defence shorter than another, that
    /// other defence (already reported as 変長) and its plies.
    longer_at: Vec<(usize, Move, u32)>,
    /// Whether the given solution was left unjudged: by
    /// [`Convention::Classical`], whether a longer defence makes it depart
    /// was not decided within the limits.
    solution_undecided: bool,
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
        longer_at: Vec::new(),
        solution_undecided: false,
    };
    // The main line runs until proven unless told otherwise.
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
    let mut main_line = main_line;
    if exact {
        // By the classical convention the line walked may follow the
        // given solution's shorter defences.
        main_line = v.compare_with_given(pos, &main_line)?;
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
    if exact && options.solution.is_some() && !v.solution_undecided {
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
    /// The options of one search of `nodes` (`None`: no node bound)
    /// within the time left, the defender to move when
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

    /// [`solve`](Self::solve) with `nodes` as given: `None` sets no node
    /// bound.
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
