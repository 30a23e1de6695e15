//! The tsume-shogi answer of a proven position: the attacker mates in the
//! fewest moves, the defender resists longest, useless interpositions (see
//! [`super::interposition`]) are neither counted nor played, and among
//! equally long defences the one after which the attacker ends with an
//! empty hand is preferred (a line ending with pieces in hand, 駒余り, is
//! only taken when no other defence of that length avoids it). By
//! [`DefenceChoice::EmptyHandFirst`] (module [`super::defence`]) the
//! defender's choice on the main line puts an empty final hand before
//! length: when the tsume answer's line ends with pieces in hand, the line
//! is read again, and where the longest defence's line leaves pieces the
//! shorter defences are read too, longest first.
//!
//! Lengths come from searches with a length bound under tsume counting
//! ("is this mated within `b` plies?"), kept in a table namespace of their
//! own so they never mix with the plain search's results (which they read:
//! a plain proof within the bound, or a plain "no mate", holds here too).
//! Before each bound, the checks off the line of the longest resistance
//! known so far (at first the first proof's) get a plain search with a
//! budget that grows with the bound: a check that does not mate at all is
//! then settled for every bound, where under a bound its refutation would
//! be searched again, and deeper, each time.
//! The root's length is the first bound, growing by two, under which the
//! search proves a mate (or, once a bound from below has grown costly,
//! sooner under a short mate known, the last bound shrinking by two from
//! the mate known under which it still does);
//! then the line is read down with exact lengths: at the attacker's turn
//! the check of the node's proof within the length left (the node is
//! proven again when the table has lost it), at the defender's turn a
//! defence that is not mated two plies sooner (for a drop between checker
//! and king, also not useless).

mod length;
mod main_line;

use crate::core::{Hand, Move, Position};

use super::defence::DefenceChoice;
use super::interposition::{CHECKER_CAPTURE_HORIZON, UNUSED_PIECE_EXTRA_PLIES, UselessRule};
use super::mode::{Bounded, Counting, Mode};
use super::repetition::extend_path;
use super::search::{At, Search};

/// What reading the answer gave.
pub(crate) struct Answer {
    /// The tsume answer's line when `exact`; otherwise the line the
    /// table knows nearest the lengths proven (see
    /// [`TsumeSearch::line_cut_short`]). `None` when a limit stopped
    /// the reading, or the table knows no such line.
    pub moves: Option<Vec<Move>>,
    /// Whether the length is proven shortest (with the longest defence);
    /// false when a limit stopped the search first.
    pub exact: bool,
    /// A length the tsume answer is proven to reach: every bound below it
    /// was searched and holds no mate.
    pub at_least: u32,
    /// A length the tsume answer is proven not to exceed: the length
    /// found when `exact`, else the plain proof's (every interposition
    /// counted, so no shorter than the tsume count).
    pub at_most: u32,
}

/// Tsume-counting questions over `search`, along a line from the root
/// (the positions on it are on the search's repetition path).
pub(crate) struct TsumeSearch<'s, 'a> {
    pub search: &'s mut Search<'a>,
    /// Tsume counting by the rule in force.
    counting: Counting,
    /// Line positions pushed on the repetition path, with their path hashes.
    path: Vec<u64>,
    /// Equally long defences still worth reading for an empty final hand.
    alternatives_left: u32,
    /// Nodes still allowed for testing other checks than the first one
    /// read at an attacker's node (see [`ALTERNATIVE_NODES`]).
    alternative_nodes_left: u64,
    /// Which defence the main line follows.
    pub choice: DefenceChoice,
    /// The line of the last mate proven (from above, or by the plain
    /// descent), read from the table right after its proof (see
    /// [`TsumeSearch::line_cut_short`]).
    proven_line: Option<Vec<Move>>,
    /// Defences tested for lasting on the main line (for the tests).
    #[cfg(test)]
    defences_tested: u32,
    /// Exact lengths searched after a defence (for the tests).
    #[cfg(test)]
    exact_lengths: u32,
    /// Plain lines asked along for shorter mates (for the tests).
    #[cfg(test)]
    lines_asked: u32,
}

/// Equally long defences read in all, beyond the first at each node, when
/// the first ends with the attacker holding pieces.
const ALTERNATIVE_READS: u32 = 16;

/// Nodes in all for testing, at the attacker's nodes of the line, whether
/// a check the table does not know mates in time: the choice among equally
/// short attacks is only worth a small search.
const ALTERNATIVE_NODES: u64 = 200_000;

impl Drop for TsumeSearch<'_, '_> {
    /// Takes the line off the repetition path.
    fn drop(&mut self) {
        for _ in 0..self.path.len() {
            self.search.reps.pop();
        }
    }
}

impl<'s, 'a> TsumeSearch<'s, 'a> {
    /// Tsume counting over `search`, useless drops judged by `rule`, whose
    /// repetition path is reset to `root`.
    pub fn new(
        search: &'s mut Search<'a>,
        root: &Position,
        rule: UselessRule,
    ) -> TsumeSearch<'s, 'a> {
        search.reps.clear();
        let mut t = TsumeSearch {
            search,
            counting: Counting::of_rule(rule),
            path: Vec::new(),
            alternatives_left: ALTERNATIVE_READS,
            alternative_nodes_left: ALTERNATIVE_NODES,
            choice: DefenceChoice::Longest,
            proven_line: None,
            #[cfg(test)]
            defences_tested: 0,
            #[cfg(test)]
            exact_lengths: 0,
            #[cfg(test)]
            lines_asked: 0,
        };
        t.enter(root);
        t
    }

    fn path_hash(&self) -> u64 {
        *self.path.last().unwrap_or(&0)
    }

    /// The rule a line's end is judged by ([`super::is_tsume_line_by`]):
    /// the counting's, and for plain counting the rule that no drop is
    /// useless.
    fn line_rule(&self) -> UselessRule {
        self.counting.rule().unwrap_or(UselessRule::Never)
    }

    /// Puts `pos` on the line (repetition path).
    pub fn enter(&mut self, pos: &Position) {
        let attacker = self.search.attacker;
        self.search.reps.push(pos.board_key(), pos.hand(attacker));
        let h = extend_path(self.path_hash(), pos.key());
        self.path.push(h);
    }

    /// Takes the last position off the line.
    pub fn leave(&mut self) {
        self.search.reps.pop();
        self.path.pop();
    }

    /// Runs `ask` with nothing on the repetition path: what it enters, and
    /// what its searches find, depends on no position of the line (see
    /// [`settle_line_from_end`](Self::settle_line_from_end)). The line is
    /// put back after.
    fn with_empty_path<T>(&mut self, ask: impl FnOnce(&mut Self) -> T) -> T {
        let stack = self.search.reps.stack().to_vec();
        let path = std::mem::take(&mut self.path);
        for _ in 0..stack.len() {
            self.search.reps.pop();
        }
        let r = ask(self);
        debug_assert!(self.path.is_empty(), "what `ask` entered, it left");
        for &(board, hand) in &stack {
            self.search.reps.push(board, hand);
        }
        self.path = path;
        r
    }

    /// Whether `pos` (on the line, just entered) is mated within `bound`
    /// plies under tsume counting: [`Bounded::Mated`] with the length of
    /// the mate found (at most `bound`, not necessarily shortest), or
    /// [`Bounded::NotMated`]; `None` when a limit stopped the search.
    pub fn within(&mut self, pos: &Position, bound: u32) -> Option<Bounded> {
        if let Some(p) = self.search.probe_settled(self.counting, pos, bound) {
            return Some(if p.is_proven() {
                Bounded::Mated(p.len as u32)
            } else {
                Bounded::NotMated
            });
        }
        if self.search.aborted.is_some() {
            return None;
        }
        let mut p = pos.clone();
        let mode = Mode::within(self.counting, bound);
        let r = self.search.search_root(mode, &mut p, self.path_hash());
        Bounded::of(&r)
    }

    /// Like [`within`](Self::within) for the position after `m`.
    pub fn within_after(&mut self, pos: &Position, m: Move, bound: u32) -> Option<Bounded> {
        let child = pos.after(m);
        if self
            .search
            .reps
            .repeats(child.board_key(), child.hand(self.search.attacker))
        {
            return Some(Bounded::NotMated);
        }
        self.enter(&child);
        let r = self.within(&child, bound);
        self.leave();
        r
    }

    /// Like [`within_after`](Self::within_after), within what is left of
    /// the alternatives' node budget: [`Bounded::NotMated`] also when the
    /// budget ran out first.
    fn within_after_capped(&mut self, pos: &Position, m: Move, bound: u32) -> Option<Bounded> {
        let start = self.search.total_nodes();
        let r = self.budgeted(self.alternative_nodes_left, |t| {
            t.within_after(pos, m, bound)
        });
        let used = self.search.total_nodes() - start;
        self.alternative_nodes_left = self.alternative_nodes_left.saturating_sub(used);
        Some(match r? {
            Budgeted::Answer(r) => r,
            Budgeted::RanOut => Bounded::NotMated,
        })
    }

    /// Whether the defender's drop interposition `m` at `pos` (on the line)
    /// is useless when the node's other defences last `base` plies (by
    /// [`UselessRule::PieceUnused`] and [`UselessRule::CheckerCaptures`],
    /// whatever they last; by [`UselessRule::WithinOrChecker`] against
    /// them or by 定義1); `None` when a limit stopped the test.
    pub fn is_useless(&mut self, pos: &Position, m: Move, base: u32) -> Option<bool> {
        if !self.counting.judged_drops(pos).contains(m) {
            return Some(false);
        }
        let mut child = pos.after(m);
        let path = self.path_hash();
        // A new bound: the path results of the last one no longer hold.
        self.search.reps.clear_path_results();
        let rule = self.counting.rule();
        let r = if rule == Some(UselessRule::PieceUnused) {
            // By this rule alone, whatever the other defences: the mate
            // after a capture from the least bound on.
            let upto = base + UNUSED_PIECE_EXTRA_PLIES;
            let at = At {
                mode: Mode::within(self.counting, upto),
                path,
                ply: 0,
            };
            self.search
                .unused_piece_interposition(&mut child, at, m.to(), 0, upto)
        } else {
            // Against the other defences (not by 定義1 alone), else by
            // 定義1's clauses (by `checker-captures` and
            // `within-or-checker`), whatever the other defences.
            let within = if rule.is_some_and(UselessRule::judges_against_base) {
                let at = At {
                    mode: Mode::within(self.counting, base),
                    path,
                    ply: 0,
                };
                self.search
                    .useless_interposition(&mut child, at, m.to(), base)
            } else {
                None
            };
            within.or_else(|| {
                let upto = CHECKER_CAPTURE_HORIZON;
                let at = At {
                    mode: Mode::within(self.counting, upto),
                    path,
                    ply: 0,
                };
                let checker = pos.checkers().lsb();
                self.search
                    .useless_by_checker_captures(&mut child, at, checker, m.to(), upto)
            })
        };
        if r.is_some() {
            Some(true)
        } else if self.search.aborted.is_some() {
            None
        } else {
            Some(false)
        }
    }

    /// Runs `ask` within `budget` more nodes: its answer, or
    /// [`Budgeted::RanOut`] when the budget ran out first; `None` when the
    /// caller's limit stopped it.
    fn budgeted<T>(
        &mut self,
        budget: u64,
        ask: impl FnOnce(&mut Self) -> Option<T>,
    ) -> Option<Budgeted<T>> {
        let limit = self.search.cap_nodes(budget);
        let r = ask(self);
        let ran_out = self.search.uncap_nodes(limit);
        if ran_out {
            // The budget's abort, not the caller's: it must not stop the
            // searches that follow (even when `ask` had its answer).
            self.search.aborted = None;
        }
        match r {
            Some(answer) => Some(Budgeted::Answer(answer)),
            None if ran_out => Some(Budgeted::RanOut),
            None => None,
        }
    }
}

/// What a question asked within a node budget gave (see
/// [`TsumeSearch::budgeted`]).
enum Budgeted<T> {
    /// Its answer.
    Answer(T),
    /// The budget ran out before it had one.
    RanOut,
}

impl<T> Budgeted<T> {
    /// The answer, `None` when the budget ran out.
    fn answer(self) -> Option<T> {
        match self {
            Budgeted::Answer(answer) => Some(answer),
            Budgeted::RanOut => None,
        }
    }
}

/// The attacker's hand after playing `line` from `pos`.
pub(crate) fn final_hand(pos: &Position, line: &[Move], attacker: crate::core::Color) -> Hand {
    let mut p = pos.clone();
    for &m in line {
        p.do_move(m);
    }
    p.hand(attacker)
}

/// The tsume answer from `root`, proven by the plain search (which left
/// `upper`, a length it is mated within).
pub(crate) fn answer(
    search: &mut Search,
    root: &Position,
    upper: u32,
    line: Option<&[Move]>,
    rule: UselessRule,
    choice: DefenceChoice,
) -> Answer {
    let mut t = TsumeSearch::new(search, root, rule);
    let n0 = t.search.total_nodes();
    let (len, exact, at_least) = t.shortest(root, upper, line);
    let n1 = t.search.total_nodes();
    if std::env::var_os("TSUME_DEBUG").is_some() {
        eprintln!("PHASE shortest {}", n1 - n0);
    }
    // `len` is `upper` when not exact: a bound proven either way.
    let at_most = len;
    let main = if exact { t.main_line(root, len) } else { None };
    if std::env::var_os("TSUME_DEBUG").is_some() {
        eprintln!("PHASE main {}", t.search.total_nodes() - n1);
    }
    // A limit that stops reading the main line leaves the length proven.
    let mut exact = main.is_some();
    let mut at_least = at_least;
    let mut moves = main.or_else(|| t.line_cut_short(root, at_least, at_most));
    // By the old convention: the longest defence's line is its answer when
    // it ends with an empty hand (no defence on it can be preferred);
    // otherwise the line is read again by the convention, which may be
    // shorter than the tsume length (a line's length is then its own).
    // Read that way from the start, a line that ends with pieces in hand
    // because of one attacker's choice deep down would have every
    // defender's node above it read its shorter defences, which on a long
    // problem costs several times the reading of the longest line
    // (`docs/measurements.md`).
    //
    // By the longest rule too a line that ends with pieces in hand is read
    // again, with the budgets for equally good alternatives renewed, and
    // kept when it ends with an empty hand: the first reading may have
    // spent them elsewhere, and a line of the same length that uses every
    // piece may exist all the same (`docs/measurements.md`).
    if exact
        && let Some(longest) = &moves
        && !final_hand(root, longest, t.search.attacker).is_empty()
    {
        t.choice = choice;
        t.alternatives_left = ALTERNATIVE_READS;
        t.alternative_nodes_left = ALTERNATIVE_NODES;
        let again = t.main_line(root, len);
        match (choice, again) {
            (DefenceChoice::EmptyHandFirst, Some(line)) => {
                at_least = line.len() as u32;
                moves = Some(line);
            }
            // The longest defence's line, not proven the convention's.
            (DefenceChoice::EmptyHandFirst, None) => exact = false,
            (DefenceChoice::Longest, Some(line))
                if final_hand(root, &line, t.search.attacker).is_empty() =>
            {
                moves = Some(line);
            }
            (DefenceChoice::Longest, _) => {}
        }
    }
    Answer {
        moves,
        exact,
        at_least,
        at_most,
    }
}
