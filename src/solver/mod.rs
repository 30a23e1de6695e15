//! The mate search: df-pn over the rules core.
//!
//! The attacker (the side to move at the root, unless the root is asked as
//! an AND node) plays checking moves only; the defender plays every legal
//! evasion. Three answers, never confused: a mate with its line, a proven
//! "no mate", or "unknown" with the limit that stopped the search.
//!
//! ```
//! use tsume::{Outcome, Position, SolveOptions, Solver};
//! let pos: Position = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1".parse().unwrap();
//! let mut solver = Solver::new(16);
//! let result = solver.solve(&pos, &SolveOptions::default()).unwrap();
//! match result.outcome {
//!     Outcome::Mate { moves } => assert_eq!(moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(), ["G*5b"]),
//!     other => panic!("{other:?}"),
//! }
//! ```

mod answer;
pub mod defence;
mod drops;
// The exhaustive oracle the tests hold the solver to: public for them
// (tests/ are other crates), out of the documented API.
#[doc(hidden)]
pub mod exhaustive;
mod frontier;
mod hands;
pub mod interposition;
mod line;
mod mode;
mod node;
mod options;
mod parallel;
mod repetition;
mod search;
mod tt;

use interposition::Ignored;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::core::{Color, Move, PieceKind, Position};

use mode::{Bounded, Counting, Mode};
use repetition::Repetitions;
use search::Search;
use tt::Table;
pub use tt::TableTooLarge;

pub use defence::DefenceChoice;
pub use interposition::UselessRule;
pub use options::{Limits, Rules, SolveOptions};
pub use parallel::SpareCores;

/// Which limit stopped a search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Limit {
    Nodes,
    Time,
    /// Stopped from outside (Ctrl-C, a USI `stop`).
    Stopped,
    /// The search went deeper than the solver's ply limit.
    Depth,
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Limit::Nodes => "node limit",
            Limit::Time => "time limit",
            Limit::Stopped => "stopped",
            Limit::Depth => "depth limit",
        })
    }
}

/// The answer to a mate question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The attacker mates; `moves` is a checked mating line from the root
    /// (attacker and defender moves alternating, ending in mate).
    Mate { moves: Vec<Move> },
    /// Proven: the attacker cannot force mate by checks.
    NoMate,
    /// Not decided: a limit was reached first.
    Unknown(Limit),
}

/// A search result with its cost.
#[derive(Clone, Debug)]
pub struct SolveResult {
    pub outcome: Outcome,
    /// Whether a mate's line is the proven tsume answer (shortest attack,
    /// longest defence, or the defence [`Rules::defence`] chooses). False
    /// for first-proof lines, and when a limit stopped the answer's
    /// searches (the line is then a sound mate that may be longer than
    /// needed, or by [`DefenceChoice::EmptyHandFirst`] the longest
    /// defence's line, not read by the convention).
    pub exact: bool,
    /// A length the tsume answer of a mate is proven to reach (the line's
    /// when `exact`, which by [`DefenceChoice::EmptyHandFirst`] may be
    /// shorter than the longest defence): no mate within fewer plies.
    /// `None` when not known (no tsume answer was read). A bound of 0 or 1
    /// is known but says nothing.
    pub at_least: Option<u32>,
    /// A length the tsume answer of a mate is proven not to exceed. When
    /// `exact`, the longest defence's length (the line's, or more by
    /// [`DefenceChoice::EmptyHandFirst`]); else the plain proof's, which
    /// may be longer than the line shown (that line may follow a shorter
    /// defence). `None` when not known (no tsume answer was read).
    pub at_most: Option<u32>,
    pub nodes: u64,
    pub elapsed: Duration,
}

impl SolveResult {
    /// What is proven of the tsume answer's length, in words, when the
    /// line is not proven to be it: `"at least 17 and at most 37 plies"`,
    /// either bound alone, or `"exactly 7 plies"` when they meet (the
    /// length is proven, but no line of it could be confirmed); `None`
    /// when neither is known (or the line is the answer). A lower bound of
    /// 1 says nothing and is left out.
    ///
    /// ```
    /// use std::time::Duration;
    /// use tsume::{Outcome, SolveResult};
    /// let mut r = SolveResult {
    ///     outcome: Outcome::Mate { moves: Vec::new() },
    ///     exact: false,
    ///     at_least: Some(17),
    ///     at_most: Some(37),
    ///     nodes: 0,
    ///     elapsed: Duration::ZERO,
    /// };
    /// assert_eq!(r.answer_bounds().as_deref(), Some("at least 17 and at most 37 plies"));
    /// r.at_most = Some(17);
    /// assert_eq!(r.answer_bounds().as_deref(), Some("exactly 17 plies"));
    /// r.at_most = Some(37);
    /// r.at_least = Some(1);
    /// assert_eq!(r.answer_bounds().as_deref(), Some("at most 37 plies"));
    /// r.at_most = None;
    /// assert_eq!(r.answer_bounds(), None);
    /// ```
    pub fn answer_bounds(&self) -> Option<String> {
        if self.exact {
            return None;
        }
        // A lower bound of 0 or 1 says nothing.
        match (self.at_least.filter(|&least| least > 1), self.at_most) {
            (None, None) => None,
            (Some(least), None) => Some(format!("at least {least} plies")),
            (None, Some(most)) => Some(format!("at most {most} plies")),
            (Some(least), Some(most)) if least == most => Some(format!("exactly {least} plies")),
            (Some(least), Some(most)) => Some(format!("at least {least} and at most {most} plies")),
        }
    }
}

/// The answer to "is this mated within so many plies?"
/// ([`Solver::mated_within`]), with the nodes it took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Within {
    /// Mated: a mate of at most `plies` plies was found (the bound, or
    /// less; not necessarily the shortest).
    Mated { plies: u32, nodes: u64 },
    /// Proven: no mate within the bound.
    NotMated { nodes: u64 },
    /// Not decided: a limit was reached first.
    Unknown { limit: Limit, nodes: u64 },
}

impl Within {
    /// From a bounded search's answer, `None` when it was stopped by
    /// `aborted` (or the depth).
    fn of(found: Option<Bounded>, nodes: u64, aborted: Option<Limit>) -> Within {
        match found {
            Some(Bounded::Mated(plies)) => Within::Mated { plies, nodes },
            Some(Bounded::NotMated) => Within::NotMated { nodes },
            None => Within::Unknown {
                limit: aborted.unwrap_or(Limit::Depth),
                nodes,
            },
        }
    }

    /// The nodes searched.
    pub fn nodes(self) -> u64 {
        match self {
            Within::Mated { nodes, .. }
            | Within::NotMated { nodes }
            | Within::Unknown { nodes, .. } => nodes,
        }
    }
}

/// Counters of the running search, readable from other threads while it
/// runs (for progress reports such as USI `info` lines): the nodes,
/// published every 256 nodes, and the table's fill, every 65536; and what
/// [`Solver::solve`] knows of the answer so far: the mating line it has
/// (from the first proof on) and the bounds proven on the tsume answer's
/// length (once the answer is read).
#[derive(Debug, Default)]
pub struct SearchProgress {
    nodes: AtomicU64,
    hashfull: AtomicU32,
    /// Plies of the line known, and the bounds; 0 for none.
    line: AtomicU32,
    at_least: AtomicU32,
    at_most: AtomicU32,
}

impl SearchProgress {
    /// Nodes of the running (or last) search so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Permille of the table in use, as last sampled.
    pub fn hashfull(&self) -> u32 {
        self.hashfull.load(Ordering::Relaxed)
    }

    /// Plies of the mating line the running (or last) [`Solver::solve`]
    /// has: the first proof's line, then the answer's; `None` before a
    /// mate is found.
    pub fn line_len(&self) -> Option<u32> {
        Some(self.line.load(Ordering::Relaxed)).filter(|&n| n > 0)
    }

    /// The lengths the tsume answer is proven to reach and not to exceed,
    /// as far as the running (or last) [`Solver::solve`] has published
    /// them (see [`SolveResult::at_least`] and [`SolveResult::at_most`]):
    /// the proof's length bounds it from above once a mate is found.
    pub fn bounds(&self) -> (Option<u32>, Option<u32>) {
        let get = |a: &AtomicU32| Some(a.load(Ordering::Relaxed)).filter(|&n| n > 0);
        (get(&self.at_least), get(&self.at_most))
    }

    /// Publishes the line known and the bounds (`None`: not known).
    pub(crate) fn publish_answer(
        &self,
        line: Option<usize>,
        at_least: Option<u32>,
        at_most: Option<u32>,
    ) {
        let line = line.map_or(0, |n| u32::try_from(n).unwrap_or(u32::MAX));
        self.line.store(line, Ordering::Relaxed);
        self.at_least
            .store(at_least.unwrap_or(0), Ordering::Relaxed);
        self.at_most.store(at_most.unwrap_or(0), Ordering::Relaxed);
    }

    /// Publishes the bounds alone, the line known staying (while the
    /// answer's length is read: each bound without a mate raises the
    /// least, each shorter mate lowers the most).
    pub(crate) fn publish_bounds(&self, at_least: u32, at_most: u32) {
        self.at_least.store(at_least, Ordering::Relaxed);
        self.at_most.store(at_most, Ordering::Relaxed);
    }

    pub(crate) fn publish(&self, nodes: u64, table: &Table) {
        self.nodes.store(nodes, Ordering::Relaxed);
        if nodes & 0xffff == 0 {
            self.hashfull.store(table.hashfull(), Ordering::Relaxed);
        }
    }
}

/// Why a position cannot be searched.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    #[error("the defender ({0}) has no king on the board: there is nothing to mate")]
    NoDefenderKing(Color),
    #[error("the side to move is not in check, so it cannot be asked whether it is mated")]
    NotInCheck,
}

/// A solver with its transposition table, kept between searches.
pub struct Solver {
    table: Table,
    reps: Repetitions,
    stop: Arc<AtomicBool>,
    progress: Arc<SearchProgress>,
    /// Times cleared: a solver cleared twice is solving many problems.
    clears: u32,
    /// Threads searching each problem (see [`set_threads`](Self::set_threads)).
    threads: usize,
    /// Cores lent by others, for helpers (see
    /// [`set_spare_cores`](Self::set_spare_cores)).
    spare: Option<Arc<SpareCores>>,
}

/// A key for the pieces out of play (in neither hand nor on the board).
/// They never change during a search; mixing them into the table key makes
/// "a larger attacker hand means a smaller defender hand" exact.
fn out_of_play_salt(pos: &Position) -> u64 {
    let mut salt = 0u64;
    for k in PieceKind::HAND {
        let mut n = pos.hand(Color::Black).count(k) + pos.hand(Color::White).count(k);
        n += pos.pieces_of_kind(k).count();
        if let Some(p) = k.promoted() {
            n += pos.pieces_of_kind(p).count();
        }
        salt = salt.rotate_left(5) ^ (n as u64 + 1).wrapping_mul(0x2545_f491_4f6c_dd1d);
    }
    salt & !1
}

impl Solver {
    /// A solver whose table uses at most `hash_mb` megabytes: it starts
    /// small (16 MB, or the budget when that is less) and doubles, within
    /// the budget, each time half of it is filled, so a short search
    /// touches only its first megabytes and a long one gets the whole
    /// budget. Clearing shrinks it back to the start. When the system does
    /// not give `hash_mb`, the table takes the largest power of two below
    /// it that the system gives; [`try_new`](Self::try_new) reports it
    /// instead.
    pub fn new(hash_mb: usize) -> Solver {
        Solver::with_table(Table::new(hash_mb))
    }

    /// A solver whose table uses at most `hash_mb` megabytes, or an error
    /// naming the budget when the system does not give that much memory.
    ///
    /// ```
    /// use tsume::Solver;
    /// assert!(Solver::try_new(16).is_ok());
    /// // An exbibyte: more than any machine maps; refused, not aborted.
    /// let e = Solver::try_new(1 << 40).err().unwrap();
    /// assert!(e.to_string().starts_with("cannot reserve a table of"));
    /// ```
    pub fn try_new(hash_mb: usize) -> Result<Solver, TableTooLarge> {
        Table::try_new(hash_mb).map(Solver::with_table)
    }

    /// The table's budget in megabytes: what was asked for, or less when
    /// the system did not give it (see [`new`](Self::new)).
    pub fn table_budget_mb(&self) -> usize {
        self.table.budget_mb()
    }

    fn with_table(table: Table) -> Solver {
        Solver {
            table,
            reps: Repetitions::new(1 << 20),
            stop: Arc::new(AtomicBool::new(false)),
            progress: Arc::default(),
            clears: 0,
            threads: 1,
            spare: None,
        }
    }

    /// Searches each problem [`solve`](Self::solve) is given with `threads`
    /// threads over the one table (at least one): the main thread searches
    /// as alone while the others search the same questions beside it and
    /// feed the table (see the `parallel` module). The answers are the
    /// same; the nodes and time to them change.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// The threads searching each problem.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Lets each search take cores from `spare` on its way, one helper
    /// thread each, which search beside its own threads (as
    /// [`set_threads`](Self::set_threads)'s do) until it ends and then
    /// give the core back. A batch hands its workers one pool and each
    /// worker with no problem left lends its cores to it, so the last
    /// long problems get the cores the short ones freed. A search looks
    /// every 65,536 nodes; the answers are the same, only the work to them
    /// changes. `None` (the default) takes none.
    pub fn set_spare_cores(&mut self, spare: Option<Arc<SpareCores>>) {
        self.spare = spare;
    }

    /// A flag that stops the running search when set. It stays set (every
    /// later search stops at once, as Ctrl-C wants) until the caller
    /// clears it.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// The counters of the running search, for another thread to read.
    pub fn progress(&self) -> Arc<SearchProgress> {
        self.progress.clone()
    }

    /// The threads searching in this process at once, this solver's and
    /// any others' (default: none counted). The table's next half is
    /// faulted in ahead of its growth, on a thread of its own, only while
    /// they leave a core idle ([`cores`]); else the growth faults it in on
    /// the search's thread, as a thread of its own would only take time
    /// from a search.
    pub fn set_searching_threads(&mut self, n: usize) {
        self.table.set_page_ahead(n < cores());
    }

    /// Makes the whole table resident now, by writing one word per page:
    /// worth it before solving many problems (untouched, each page faults
    /// twice when a search first uses it), not for one short search.
    pub fn prefault(&mut self) {
        self.table.prefault();
    }

    /// Forgets all results. The second time, the table is also made
    /// resident (see [`prefault`](Self::prefault)): a solver cleared between
    /// problems is solving many, and page faults of a fresh table cost more
    /// than small problems, the more so with workers faulting side by side
    /// (`docs/measurements.md`).
    pub fn clear(&mut self) {
        self.table.clear();
        self.reps.clear();
        self.clears = self.clears.saturating_add(1);
        if self.clears == 2 {
            self.table.prefault();
        }
    }

    /// Permille of the table in use (sampled).
    pub fn hashfull(&self) -> u32 {
        self.table.hashfull()
    }

    /// A search of `pos` as `options` ask it, within their limits (counted
    /// from now), with its attacker.
    fn limited_search(
        &mut self,
        pos: &Position,
        options: &SolveOptions,
    ) -> Result<(Search<'_>, Color), SolveError> {
        let attacker = attacker_of(pos, options)?;
        let deadline = options.limits.time.map(|t| Instant::now() + t);
        let node_limit = options.limits.nodes.unwrap_or(u64::MAX);
        let salt = out_of_play_salt(pos);
        Ok((self.search(attacker, salt, node_limit, deadline), attacker))
    }

    /// A search over this solver's table, its namespaces keyed by
    /// `base_salt` (see [`out_of_play_salt`]).
    fn search(
        &mut self,
        attacker: Color,
        base_salt: u64,
        node_limit: u64,
        deadline: Option<Instant>,
    ) -> Search<'_> {
        self.progress.nodes.store(0, Ordering::Relaxed);
        let mut search = Search::new(
            &self.table,
            &mut self.reps,
            &self.stop,
            &self.progress,
            attacker,
            base_salt,
        );
        search.node_limit = node_limit;
        search.deadline = deadline;
        search
    }

    /// Whether the defender's move `m` at `pos` is a useless interposition
    /// by `rule` (see [`interposition`]) when the other defences at `pos`
    /// last `base` plies; `None` when `nodes` ran out first.
    pub(crate) fn is_useless_interposition(
        &mut self,
        pos: &Position,
        m: Move,
        base: u32,
        rule: UselessRule,
        nodes: u64,
    ) -> Option<bool> {
        let attacker = !pos.side_to_move();
        pos.king_square(pos.side_to_move())?;
        let mut search = self.search(attacker, out_of_play_salt(pos), nodes, None);
        let mut t = answer::TsumeSearch::new(&mut search, pos, rule);
        t.is_useless(pos, m, base)
    }

    /// Whether `pos` is mated within `plies` plies by tsume counting
    /// (useless interpositions not counted, by the rule of
    /// `options.rules`): a bounded search, much cheaper than
    /// [`solve`](Self::solve) when the answer is no. The attacker is the
    /// side to move, or the other side with `options.defender_to_move`;
    /// `options.tsume_answer` and `options.rules.defence` play no part.
    ///
    /// ```
    /// use tsume::solver::{SolveOptions, UselessRule, Within};
    /// use tsume::{Position, Solver};
    /// // White's king on 9a, checked by the rook on 1a and boxed in by the
    /// // gold on 8c and the knight on 7c, has only drops between them: the
    /// // rook captures any of them and mates as well without the piece, so
    /// // by either rule the king is mated where it stands.
    /// let pos: Position = "k7R/9/1GN6/9/9/9/9/9/9 w r2b3g4s3n4l18p 1".parse().unwrap();
    /// let mut solver = Solver::new(16);
    /// for useless_rule in [UselessRule::WithinOtherDefences, UselessRule::PieceUnused] {
    ///     let options = SolveOptions::default()
    ///         .useless_rule(useless_rule)
    ///         .defender_to_move(true);
    ///     let r = solver.mated_within(&pos, 2, &options).unwrap();
    ///     assert!(matches!(r, Within::Mated { .. }));
    /// }
    /// ```
    pub fn mated_within(
        &mut self,
        pos: &Position,
        plies: u32,
        options: &SolveOptions,
    ) -> Result<Within, SolveError> {
        let (mut search, attacker) = self.limited_search(pos, options)?;
        // A plain pass first, within a small budget: a plain mate is a mate
        // by every count, and a plain failure that never relies on a drop
        // between checker and king fails by every tsume count too; its
        // results also serve the tsume search (which can be far costlier
        // without them, by the looser rule above all).
        if Counting::of_rule(options.rules.useless_rule).is_tsume() {
            search.reps.clear();
            let mut root = pos.clone();
            let root_key = root.key();
            search.reps.push(root.board_key(), root.hand(attacker));
            let budget = PLAIN_PASS_NODES.min(search.node_limit / 4);
            let r = search.plain_mate_within(&mut root, root_key, plies, budget);
            let settled = if r.pn == 0 {
                Some(Bounded::Mated(r.len as u32))
            } else if r.dn == 0 && r.drop_free {
                Some(Bounded::NotMated)
            } else {
                None
            };
            if settled.is_some() || search.aborted.is_some() {
                let within = Within::of(settled, search.nodes, search.aborted);
                self.reps.clear();
                return Ok(within);
            }
        }
        let r = {
            let mut t = answer::TsumeSearch::new(&mut search, pos, options.rules.useless_rule);
            t.within(pos, plies)
        };
        let within = Within::of(r, search.nodes, search.aborted);
        self.reps.clear();
        Ok(within)
    }

    /// Whether `pos` is mated within `plies` plies when the interpositions
    /// `ignored` leaves out do not count at all (see [`Ignored`]): a
    /// defender left with no other move is mated. No rule that counts those
    /// interpositions counts fewer defences, so [`Within::NotMated`] here
    /// means not mated within `plies` by any such rule (ours included); a
    /// mate found here may be longer under a stricter one.
    pub fn mated_within_ignoring(
        &mut self,
        pos: &Position,
        plies: u32,
        ignored: Ignored,
        options: &SolveOptions,
    ) -> Result<Within, SolveError> {
        let (mut search, attacker) = self.limited_search(pos, options)?;
        search.reps.clear();
        let mut root = pos.clone();
        let root_key = root.key();
        search.reps.push(root.board_key(), root.hand(attacker));
        let mode = Mode::within(Counting::Ignoring(ignored), plies);
        let r = search.search_root(mode, &mut root, root_key);
        let within = Within::of(Bounded::of(&r), search.nodes, search.aborted);
        self.reps.clear();
        Ok(within)
    }

    /// Searches `pos` as `options` ask, within their limits.
    pub fn solve(
        &mut self,
        pos: &Position,
        options: &SolveOptions,
    ) -> Result<SolveResult, SolveError> {
        let start = Instant::now();
        let attacker = attacker_of(pos, options)?;
        let threads = self.threads;
        if threads > 1 {
            self.table.share();
        }
        let deadline = options.limits.time.map(|t| Instant::now() + t);
        let node_limit = options.limits.nodes.unwrap_or(u64::MAX);
        self.progress.nodes.store(0, Ordering::Relaxed);
        let spare = self.spare.as_deref();
        let crew = (threads > 1 || spare.is_some()).then(|| parallel::Crew::new(node_limit));
        let table = &self.table;
        let (reps, stop, progress) = (&mut self.reps, &self.stop, &self.progress);
        let crew = crew.as_ref();
        std::thread::scope(|scope| {
            // Helper `index`, on a core taken from `spare` when `lent`
            // (given back when it ends); whether it could be started.
            let start_helper = |crew, index: u64, lent: bool| {
                std::thread::Builder::new()
                    .name(format!("tsume-helper-{index}"))
                    .stack_size(parallel::HELPER_STACK)
                    .spawn_scoped(scope, move || {
                        parallel::helper(table, crew, index);
                        if let (true, Some(spare)) = (lent, spare) {
                            spare.lend(1);
                        }
                    })
                    .is_ok()
            };
            if let Some(crew) = crew {
                for _ in 1..threads {
                    let started = start_helper(crew, crew.enlist(), false);
                    assert!(started, "a helper thread");
                }
            }
            // A helper on a spare core: the table turns shared before it
            // starts; a core no thread could be started for goes back.
            let recruit = || {
                if let (Some(crew), Some(spare)) = (crew, spare)
                    && spare.take()
                {
                    table.share();
                    if !start_helper(crew, crew.enlist(), true) {
                        spare.untake();
                    }
                }
            };
            let mut search =
                Search::new(table, reps, stop, progress, attacker, out_of_play_salt(pos));
            search.node_limit = node_limit;
            search.deadline = deadline;
            search.crew = crew;
            if spare.is_some() {
                search.recruit = Some(&recruit);
            }
            let result = solve_with(search, pos, options, attacker, start);
            if let Some(crew) = &crew {
                crew.finish();
            }
            result
        })
        .map(|mut r| {
            // Every helper has ended: its nodes are all counted.
            r.nodes += crew.map_or(0, |c| c.nodes.load(Ordering::Relaxed));
            r
        })
    }
}

/// [`Solver::solve`] on the search made for it.
fn solve_with(
    mut search: Search<'_>,
    pos: &Position,
    options: &SolveOptions,
    attacker: Color,
    start: Instant,
) -> Result<SolveResult, SolveError> {
    {
        search.progress.publish_answer(None, None, None);
        let node_limit = search.node_limit;
        search.reps.clear();
        let mut root = pos.clone();
        let root_key = root.key();
        search.reps.push(root.board_key(), root.hand(attacker));
        let at = search::At {
            mode: Mode::unbounded(Counting::Plain),
            path: root_key,
            ply: 0,
        };
        let r = search.root_mid(&mut root, at);
        let search_nodes = search.nodes;
        let mut exact = false;
        let mut at_least = None;
        let mut at_most = None;
        let outcome = if r.pn == 0 {
            // The first proof's line comes first: it is cheap now, and it is
            // the answer when the tsume answer runs out of limits.
            let n0 = search.nodes;
            let mut found = line::extract(&mut search, pos, false).filter(|moves| {
                // A line that does not replay as a mate would be a bug;
                // never report it as a mate.
                let ok = is_mating_line(pos, moves, attacker);
                debug_assert!(ok, "unsound line {moves:?} from {pos}");
                ok
            });
            if std::env::var_os("TSUME_DEBUG").is_some() {
                eprintln!("PHASE proof {} extract {}", n0, search.nodes - n0);
            }
            if options.tsume_answer && search.aborted.is_none() {
                // The proof's length (its longest defence) bounds the
                // answer; the first line read need not: its attacker takes
                // the shortest mates the table knows, which may be shorter
                // or longer than the proof's.
                let proof_len = search
                    .probe(Counting::Plain, pos)
                    .filter(|p| p.pn == 0)
                    .map_or(mode::MAX_PLY, |p| p.len as u32);
                let upper = found
                    .as_ref()
                    .map_or(proof_len, |line| proof_len.max(line.len() as u32));
                search.progress.publish_answer(
                    found.as_ref().map(Vec::len),
                    None,
                    Some(upper).filter(|&u| u < mode::MAX_PLY),
                );
                // Without limits from the caller the answer runs until it is
                // proven (a stop ends it with the bounds proven so far); with
                // them, it may use what they leave.
                let a = answer::answer(
                    &mut search,
                    pos,
                    upper,
                    found.as_deref(),
                    options.rules.useless_rule,
                    options.rules.defence,
                );
                at_least = Some(a.at_least);
                at_most = Some(a.at_most);
                // An answer cut short by a limit gives the line the table
                // knows nearest the lengths proven, unless the first
                // proof's line is nearer (see `line_preference`; what it
                // gave on the musou rows is in docs/measurements.md).
                let rank =
                    |line: &[Move]| line_preference(line.len() as u32, a.at_least, a.at_most);
                if let Some(moves) = a.moves
                    && (a.exact || found.as_deref().is_none_or(|f| rank(&moves) <= rank(f)))
                    && is_tsume_line_by(pos, &moves, attacker, options.rules.useless_rule)
                    && moves.len() as u32 <= upper
                {
                    exact = a.exact;
                    found = Some(moves);
                }
                search.node_limit = node_limit;
            }
            search
                .progress
                .publish_answer(found.as_ref().map(Vec::len), at_least, at_most);
            match found {
                Some(moves) => Outcome::Mate { moves },
                None => Outcome::Unknown(search.aborted.unwrap_or(Limit::Depth)),
            }
        } else if r.dn == 0 {
            if search.depth_cut {
                Outcome::Unknown(Limit::Depth)
            } else {
                Outcome::NoMate
            }
        } else {
            Outcome::Unknown(search.aborted.unwrap_or(Limit::Nodes))
        };
        let nodes = search.nodes;
        if std::env::var_os("TSUME_DEBUG").is_some() {
            eprintln!(
                "search {search_nodes} line {} {:?} table {} MB, {} permille full",
                nodes - search_nodes,
                search.stats,
                search.table.bytes() >> 20,
                search.table.hashfull()
            );
        }
        search.reps.clear();
        Ok(SolveResult {
            outcome,
            exact,
            at_least,
            at_most,
            nodes,
            elapsed: start.elapsed(),
        })
    }
}

/// How a line of `len` plies suits an answer cut short, proven to be
/// within `at_least` to `at_most` plies: the less the better. A line
/// shorter than `at_least` follows a weaker defence than the defender has,
/// and comes after every line that does not; then the nearer `at_most`,
/// the better, and on equal distance the one under it. The answer is
/// found from the mate known downwards, and when a limit stops it, it is
/// most often at `at_most` or just under it, while the lines the table
/// knows can cut a defence short (they pass over the defences whose mates
/// it no longer holds) and fall far under it (`docs/measurements.md`).
fn line_preference(len: u32, at_least: u32, at_most: u32) -> (bool, u32) {
    let top = at_most.max(at_least);
    (len < at_least, len.abs_diff(top) * 2 + u32::from(len > top))
}

/// The attacker of a search: the side to move, or the other side with
/// `options.defender_to_move`; an error when there is nothing to search.
fn attacker_of(pos: &Position, options: &SolveOptions) -> Result<Color, SolveError> {
    let attacker = if options.defender_to_move {
        !pos.side_to_move()
    } else {
        pos.side_to_move()
    };
    if pos.king_square(!attacker).is_none() {
        return Err(SolveError::NoDefenderKing(!attacker));
    }
    if options.defender_to_move && !pos.in_check() {
        return Err(SolveError::NotInCheck);
    }
    Ok(attacker)
}

/// Nodes of the plain pass before a bounded question by tsume counting
/// (see [`Solver::mated_within`]).
const PLAIN_PASS_NODES: u64 = 100_000;

/// Whether `moves` from `pos` is a mating line by tsume counting: every
/// move legal, every attacker move a check, and at the end the defender
/// mated where it stands: checkmated, or left with drops between checker
/// and king that are each useless there, by either rule (see
/// [`interposition`]): some checking capture of the drop leaves, with the
/// piece set aside, a position mated where it stands in turn.
pub fn is_tsume_line(pos: &Position, moves: &[Move], attacker: Color) -> bool {
    is_tsume_line_by(pos, moves, attacker, UselessRule::WithinOtherDefences)
}

/// The number of cores this process may use (1 when it cannot be told).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// [`is_tsume_line`] with the drops left at the end judged by `rule`
/// ([`interposition::is_mated_now_by`]).
pub(crate) fn is_tsume_line_by(
    pos: &Position,
    moves: &[Move],
    attacker: Color,
    rule: UselessRule,
) -> bool {
    replay_checks(pos, moves, attacker)
        .is_some_and(|p| p.side_to_move() != attacker && interposition::is_mated_now_by(&p, rule))
}

/// Whether `moves` from `pos` is a mating line: every move legal, every
/// attacker move a check, and the last position checkmate. `attacker` is
/// the side that must give check.
pub fn is_mating_line(pos: &Position, moves: &[Move], attacker: Color) -> bool {
    replay_checks(pos, moves, attacker)
        .is_some_and(|p| p.side_to_move() != attacker && crate::core::movegen::is_checkmate(&p))
}

/// The position after `moves` from `pos`, when every move is legal and
/// every attacker move a check.
fn replay_checks(pos: &Position, moves: &[Move], attacker: Color) -> Option<Position> {
    let mut p = pos.clone();
    for &m in moves {
        p.is_legal(m).ok()?;
        let checking = p.side_to_move() == attacker;
        p.do_move(m);
        if checking && !p.in_check() {
            return None;
        }
    }
    Some(p)
}

#[cfg(test)]
mod tests {
    use super::node::DEPTH_ANY;
    use super::*;
    use crate::core::Hand;
    use tt::{INF, Record};

    /// "Mated within 5" against a gold and a silver in hand (eight checks)
    /// is disproven by the frontier, the node never expanded: no best move
    /// stored, and none of its children.
    #[test]
    fn five_plies_with_few_checks_are_disproven_without_expanding() {
        let start: Position = "4k4/9/9/9/9/9/9/9/9 b GS2r2b3g3s4n4l18p 1".parse().unwrap();
        for counting in [Counting::Plain, Counting::Tsume(UselessRule::default())] {
            let mut solver = Solver::new(16);
            let mut search = solver.search(Color::Black, 0, 1_000_000, None);
            let mut root = start.clone();
            search.reps.push(root.board_key(), root.hand(Color::Black));
            let r = search.mid(Mode::within(counting, 5), &mut root, 7, INF, INF, 0);
            assert!(r.dn == 0 && r.len >= 5, "{counting:?}: no mate within 5");
            let p = search.probe(counting, &start).expect("stored");
            assert!(p.dn == 0 && p.mv.is_none(), "{counting:?}: {p:?}");
            // Expanded, the root would have stored its children.
            let mut checks = crate::core::movegen::MoveList::new();
            crate::core::movegen::generate_checks(&start, &mut checks);
            assert_eq!(checks.len(), 8);
            for &c in checks.iter() {
                let child = start.after(c);
                assert!(
                    search.probe(counting, &child).is_none(),
                    "{counting:?}: {c} stored"
                );
            }
        }
    }

    /// A budget on a root search the helpers take up is work: their nodes
    /// count against it with the main thread's, so they end it sooner
    /// instead of adding their nodes on top of a budget the main thread
    /// spends alone.
    #[test]
    fn a_budget_shared_with_helpers_counts_their_nodes() {
        // No mate, found only after millions of nodes.
        let pos: Position = "4k1lR1/9/9/9/9/9/9/9/9 b GSPr2b3g3s4n3l17p 1"
            .parse()
            .unwrap();
        let budget = 200_000;
        let table = tt::Table::new(64);
        table.share();
        let crew = parallel::Crew::new(u64::MAX);
        let (stop, progress) = (AtomicBool::new(false), SearchProgress::default());
        let mut reps = repetition::Repetitions::new(1 << 16);
        std::thread::scope(|scope| {
            let (table, crew) = (&table, &crew);
            let index = crew.enlist();
            scope.spawn(move || parallel::helper(table, crew, index));
            let mut search = Search::new(table, &mut reps, &stop, &progress, Color::Black, 0);
            search.crew = Some(crew);
            let mut root = pos.clone();
            search.reps.push(root.board_key(), root.hand(Color::Black));
            let at = search::At {
                mode: Mode::unbounded(Counting::Plain),
                path: root.key(),
                ply: 0,
            };
            let r = search.budgeted_search(&mut root, at, budget);
            let work = search.total_nodes();
            crew.finish();
            assert!(r.pn != 0 && r.dn != 0, "still open");
            assert!(search.aborted.is_none(), "the budget's abort is cleared");
            // The helper stops a little after the main thread, and reports
            // its nodes [`parallel::NODE_STEP`] at a time; counted on the
            // main thread alone, the budget would let both threads search
            // up to twice as much.
            assert!(
                (budget..budget * 5 / 4).contains(&work),
                "{work} nodes of both threads for a budget of {budget}"
            );
        });
    }

    #[test]
    fn a_line_of_an_answer_cut_short_keeps_the_defence_then_the_bounds() {
        let rank = |len| line_preference(len, 117, 119);
        assert!(rank(119) < rank(117));
        assert!(rank(119) < rank(125));
        assert!(rank(117) < rank(125));
        // On equal distance, the line under `at_most`.
        assert!(rank(117) < rank(121));
        // Never a line that cuts the defence short for one that does not.
        assert!(rank(155) < rank(115));
        assert!(rank(111) < rank(63));
        // A line far under `at_most` has likely cut a defence short:
        // ミクロコスモス cut short at 180 s with 85 to 1561 proven printed
        // a line of 809 plies, where the first proof's had 1,569.
        let rank = |len| line_preference(len, 85, 1561);
        assert!(rank(1569) < rank(809));
    }

    /// A perpetual check (the rook checks from 1g and 2g in turn, the
    /// king goes 1i-2i-1i, nothing else mates), searched as a node deep in
    /// a path of other positions: its failure relies on no position above
    /// it, so it is kept in the table (for any length without a bound,
    /// for the bound's plies with one). Kept on the path only, as a loop
    /// once was, the next search from another path would redo it.
    #[test]
    fn a_failure_whose_loops_come_back_to_the_node_is_kept_in_the_table() {
        let start: Position = "9/9/9/9/9/9/7R1/5R3/6g1k b - 1".parse().unwrap();
        for bound in [None, Some(15)] {
            let mut solver = Solver::new(16);
            let mut search = solver.search(Color::Black, 0, 1_000_000, None);
            // Two unrelated positions above it on the path.
            search.reps.push(1, Hand::EMPTY);
            search.reps.push(2, Hand::EMPTY);
            let mode = Mode::bound(Counting::Plain, bound);
            let mut root = start.clone();
            search.reps.push(root.board_key(), root.hand(Color::Black));
            let r = search.mid(mode, &mut root, 7, INF, INF, 2);
            assert!(r.dn == 0, "{bound:?}: no mate");
            let p = search.probe(Counting::Plain, &start).expect("in the table");
            assert_eq!(p.dn, 0, "{bound:?}: stored as a failure");
            match bound {
                None => assert_eq!(p.len, DEPTH_ANY),
                Some(b) => assert!(u32::from(p.len) >= b - 2, "{bound:?}: {}", p.len),
            }
        }
    }

    /// Under tsume counting, a proof of its own namespace longer than the
    /// plies left does not hide a plain proof within them (a plain mate is
    /// a mate within its length by tsume counting too).
    #[test]
    fn a_plain_proof_within_the_plies_left_comes_before_a_longer_tsume_proof() {
        let pos: Position = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"
            .parse()
            .unwrap();
        let hand = pos.hand(Color::Black);
        let base = 0x1230;
        let counting = Counting::Tsume(UselessRule::WithinOtherDefences);
        let (plain, tsume) = (Counting::Plain.salt(base), counting.salt(base));
        let mut solver = Solver::new(16);
        let search = solver.search(Color::Black, base, 1_000_000, None);
        let proof = |len| Record {
            pn: 0,
            dn: INF,
            len,
            mv: None,
            drop_free: false,
        };
        search
            .table
            .store(pos.board_key() ^ tsume, hand, proof(9), 1);
        search
            .table
            .store(pos.board_key() ^ plain, hand, proof(5), 1);
        let within = |search: &Search, plies| {
            let p = search
                .probe_within(counting, &pos, plies)
                .expect("in the table");
            (p.pn, p.len)
        };
        assert_eq!(within(&search, 7), (0, 5));
        // Where both settle the search, the namespace's own comes first.
        assert_eq!(within(&search, 11), (0, 9));
    }
}
