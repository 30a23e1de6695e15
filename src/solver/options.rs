//! What a search is asked, by what rules, and within what limits.

use std::time::Duration;

use super::defence::DefenceChoice;
use super::interposition::UselessRule;

/// The limits of one search (none by default). A search stopped by one
/// answers [`Outcome::Unknown`](super::Outcome::Unknown) with the
/// [`Limit`](super::Limit) it reached.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Stop after this long.
    pub time: Option<Duration>,
}

impl Limits {
    /// Whether neither limit is set.
    pub fn is_none(&self) -> bool {
        self.nodes.is_none() && self.time.is_none()
    }
}

/// The conventions of the tsume-shogi answer (the defaults are this
/// crate's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    /// Which drops between checker and king are useless (neither counted
    /// nor played) in the tsume answer and in
    /// [`Solver::mated_within`](super::Solver::mated_within): see
    /// [`UselessRule`].
    pub useless_rule: UselessRule,
    /// Which defence the tsume answer's main line follows (the longest by
    /// default): see [`DefenceChoice`].
    pub defence: DefenceChoice,
}

/// What one search is asked ([`Solver::solve`](super::Solver::solve) and
/// the bounded questions): the question, the rules of its answer, and the
/// limits, apart. The builder methods change one thing each:
///
/// ```
/// use std::time::Duration;
/// use tsume::solver::{DefenceChoice, SolveOptions, UselessRule};
/// let options = SolveOptions::default()
///     .nodes(100_000)
///     .time(Duration::from_secs(5))
///     .useless_rule(UselessRule::PieceUnused);
/// assert_eq!(options.limits.nodes, Some(100_000));
/// assert_eq!(options.rules.defence, DefenceChoice::Longest);
/// assert!(options.tsume_answer && !options.defender_to_move);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// When to stop.
    pub limits: Limits,
    /// The conventions of the answer.
    pub rules: Rules,
    /// Ask whether the side to move (in check) is mated, instead of
    /// whether it mates.
    pub defender_to_move: bool,
    /// After the proof, read the tsume-shogi answer (see
    /// [`SolveResult::exact`](super::SolveResult::exact)): shortest
    /// attack, longest defence, useless interpositions not counted.
    /// Otherwise the line is the first proof found. On by default; plays
    /// no part in the bounded questions.
    pub tsume_answer: bool,
}

impl Default for SolveOptions {
    /// The tsume answer of the side to move, by this crate's rules, without
    /// limits.
    fn default() -> SolveOptions {
        SolveOptions {
            limits: Limits::default(),
            rules: Rules::default(),
            defender_to_move: false,
            tsume_answer: true,
        }
    }
}

impl SolveOptions {
    /// These options with a node limit.
    pub fn nodes(mut self, nodes: u64) -> SolveOptions {
        self.limits.nodes = Some(nodes);
        self
    }

    /// These options with a time limit.
    pub fn time(mut self, time: Duration) -> SolveOptions {
        self.limits.time = Some(time);
        self
    }

    /// These options with `limits` in place of theirs.
    pub fn limits(mut self, limits: Limits) -> SolveOptions {
        self.limits = limits;
        self
    }

    /// These options with `rules` in place of theirs.
    pub fn rules(mut self, rules: Rules) -> SolveOptions {
        self.rules = rules;
        self
    }

    /// These options with useless drops judged by `rule`.
    pub fn useless_rule(mut self, rule: UselessRule) -> SolveOptions {
        self.rules.useless_rule = rule;
        self
    }

    /// These options with the main line following `defence`.
    pub fn defence(mut self, defence: DefenceChoice) -> SolveOptions {
        self.rules.defence = defence;
        self
    }

    /// These options asking whether the side to move is mated (`true`) or
    /// mates (`false`).
    pub fn defender_to_move(mut self, defender_to_move: bool) -> SolveOptions {
        self.defender_to_move = defender_to_move;
        self
    }

    /// These options with the tsume answer read (`true`) or the first
    /// proof's line kept (`false`).
    pub fn tsume_answer(mut self, tsume_answer: bool) -> SolveOptions {
        self.tsume_answer = tsume_answer;
        self
    }
}
