//! The length of the tsume answer: bounds from below, turning round to
//! bounds from above once they grow costly, after a plain descent from the
//! first proof; and the exact length of a position on the line.
//!
//! Nodes here are work: the main thread's and its helpers' together
//! ([`Search::total_nodes`](super::super::search::Search::total_nodes)),
//! as the node budgets of the searches count them.

use std::time::Instant;

use hashbrown::HashSet;

use crate::core::movegen::{MoveList, generate_checks, generate_evasions, is_checkmate};
use crate::core::{Move, Position};

use super::super::mode::{Bounded, Counting, MAX_PLY as MAX_LINE};
use super::super::repetition::extend_path;
use super::super::{Limit, is_tsume_line_by, line_preference};
use super::main_line::shortest_known_check;
use super::{Budgeted, TsumeSearch};

/// Plies left under the bound from which the line's other checks get a
/// plain search: with fewer left, a check's refutation is cheap to search
/// again under each bound, and the plain search costs more than it saves
/// (the choice is in `docs/measurements.md`).
const PLAIN_MIN_PLIES: u32 = 9;

/// The nodes of that plain search with 0 or 1 ply left, doubling with
/// every two more: enough to settle, once for every bound, most checks
/// that do not mate at all, and little beside the bounded search for the
/// checks that do. The unit was chosen on node counts of the musou rows,
/// which change little near it (`docs/measurements.md`).
const PLAIN_BUDGET_UNIT: u64 = 1024;

/// Each step of the plain descent (see [`TsumeSearch::plain_least`]) may
/// take this many times the nodes searched before it (the first proof's),
/// and at least [`PLAIN_DESCENT_MIN_NODES`]: a budget that follows the
/// problem's difficulty, small beside the bounds it saves (each bound of
/// the answer stops at the plain length; `docs/measurements.md`).
const PLAIN_DESCENT_NODES_PER_PROOF_NODE: u64 = 2;

/// The least budget of a step of the plain descent.
const PLAIN_DESCENT_MIN_NODES: u64 = 10_000;

/// Before the first step of the plain descent, the first proof's line is
/// shortened where it can be (see [`TsumeSearch::shorten_plain_line`])
/// with the budget divided by this: a long first proof makes detours of a
/// few plies that questions near its positions cut for little, where the
/// first step looks for them from the root (ミクロコスモス: 1,577 plies to
/// 1,573 in 390k nodes, against 15.9M for the step; `docs/measurements.md`).
const PLAIN_FIRST_LINE_SHARE: u64 = 4;

/// The first step of the plain descent may take the budget divided by
/// this before the proof-number test below: a first step stuck along one
/// line gets its line shortened too, with half of the budget left for it.
const PLAIN_FIRST_STEP_SHARE: u64 = 2;

/// A step of the plain descent after the first may take this many times
/// the nodes of the step before (within the budget) before the line is
/// shortened where it can be (see [`TsumeSearch::shorten_plain_line`]).
const PLAIN_STEP_GROWTH: u64 = 16;

/// A bound of the plain descent that runs out of its nodes, where its
/// line is not shortened, may take this many times those nodes again; open
/// after them, it ends the descent. A bound that resists that long is
/// mostly one with no plain mate, whose disproof the rest of the budget
/// seldom reaches, while the bounds from above, the line settled first,
/// lower the mate known by two plies for far less (`docs/measurements.md`).
const PLAIN_STEP_RETRY_GROWTH: u64 = 4;

/// A step after the first may take at least the budget divided by this:
/// a step that found a mate in a few nodes says little of the next.
const PLAIN_STEP_FLOOR_SHARE: u64 = 32;

/// A bound of the plain descent that runs out of its nodes with a proof
/// number at most this is searched along one line: see
/// [`TsumeSearch::shorten_plain_line`].
const PLAIN_STUCK_MAX_PN: u32 = 2;

/// The line's questions may take the nodes of the step that ran out
/// divided by this.
const PLAIN_LINE_SHARE: u64 = 4;

/// The least nodes of one question on the line: fewer settle nothing.
const PLAIN_ASK_MIN_NODES: u64 = 1_000;

/// The first node budget of a question of [`TsumeSearch::settle_line_from_end`]:
/// near the line's end most are answered in a few dozen nodes.
const SETTLE_FIRST_NODES: u64 = 1024;

/// Each budget of such a question that runs out is followed by one this
/// many times larger: the nodes of the budgets that ran out are at most a
/// third of the last one's.
const SETTLE_GROWTH: u64 = 4;

/// The nodes one bound from below must take for the plain descent (see
/// [`TsumeSearch::plain_least`]) to lower the mate known: short problems
/// reach their length from below before any bound costs this much.
const DESCENT_MIN_NODES: u64 = 10_000;

/// The bounds from below may take the first proof's nodes divided by this
/// before the plain descent (and at least [`DESCENT_MIN_NODES`]).
const DESCENT_AFTER_PROOF_SHARE: u64 = 16;

/// The nodes one bound from below must take for the search to turn round
/// and ask the bounds under the mate known (see [`TsumeSearch::shortest`]).
/// A long answer has hundreds of bounds below it of tens of thousands of
/// nodes each, which asking under the mate known settles in a few
/// searches (`docs/measurements.md`).
const TOP_DOWN_MIN_NODES: u64 = 100_000;

/// Under a mate known this short, or shorter, the search turns round once
/// a bound from below takes [`SHORT_TOP_DOWN_MIN_NODES`]: the mate known
/// is near the answer, and the bounds under it settle in a few searches,
/// where climbing to it disproves every bound on the way, each costing a
/// few times the one before (`docs/measurements.md`). The cheap bounds
/// from below come first, so that a search stopped by a limit still knows
/// how long the mate is at least.
const TOP_DOWN_MAX_PLIES: u32 = 33;

/// See [`TOP_DOWN_MAX_PLIES`].
const SHORT_TOP_DOWN_MIN_NODES: u64 = 1_000;

impl TsumeSearch<'_, '_> {
    /// The tsume length of `pos` (on the line), known to be mated within
    /// `upper`: searches with bounds growing by two from the least until
    /// one is proven, or turns round (below). `(length, exact, at least)`;
    /// not exact when a limit stopped the search first (the length is then
    /// `upper`, and at least the bound the limit stopped).
    ///
    /// Growing bounds cost less than shrinking ones on most problems: a
    /// search that fails under a small bound is cheap and leaves disproofs
    /// the next one uses, while under a bound just short of a long first
    /// proof the search has to look for a different proof almost from
    /// scratch.
    ///
    /// But on some long problems each bound from below costs a few times
    /// the one before, so they never reach a long answer, while the bound
    /// just under the mate known, asked at once, ends; on those, asking
    /// `upper - 2` at once takes fewer nodes than climbing to it (the rows
    /// are in `docs/measurements.md`). So once one bound from below has
    /// taken [`TOP_DOWN_MIN_NODES`], the search turns round
    /// ([`shortest_from_above`](Self::shortest_from_above)): the bounds
    /// below it stay disproven, and the answer is found from the mate
    /// known downwards. Problems whose bounds from below stay small never
    /// turn; nor does a longer mate known before the plain descent has
    /// lowered it (a bound from below can cost that much before the
    /// descent on first proofs of millions of nodes). Under a mate known
    /// of at most [`TOP_DOWN_MAX_PLIES`] plies the turn comes at
    /// [`SHORT_TOP_DOWN_MIN_NODES`].
    ///
    /// First `upper` is lowered to the shortest plain mate found
    /// ([`plain_least`](Self::plain_least)): the bounds stop there.
    pub fn shortest(
        &mut self,
        pos: &Position,
        upper: u32,
        line: Option<&[Move]>,
    ) -> (u32, bool, u32) {
        let debug = std::env::var_os("TSUME_DEBUG").is_some();
        let mut b = if pos.side_to_move() == self.search.attacker {
            1
        } else {
            0
        };
        let mut upper = upper;
        // The descent costs about as much as the first proof: it is worth
        // it once the bounds from below have cost a share of that (short
        // problems reach their length before).
        let proof_nodes = self.search.total_nodes();
        let bounds_start = self.search.total_nodes();
        let mut descended = false;
        let mut refuted = HashSet::new();
        let mut last_search = 0;
        while b <= upper {
            // At `upper` the mate is known: only the table needs it. Until
            // a bound grows costly the plain searches would cost more than
            // they save.
            if let Some(first) = line.filter(|_| b < upper && descended) {
                let line = self.current_line(pos, first);
                if debug {
                    let common = line.iter().zip(first).take_while(|(a, b)| a == b).count();
                    eprintln!(
                        "answer: line of {} plies, the first {} of them the first proof's",
                        line.len(),
                        common
                    );
                }
                let nr = self.search.total_nodes();
                self.refute_line_alternatives(pos, &line, b, last_search, &mut refuted);
                if std::env::var_os("TSUME_DEBUG").is_some() {
                    eprintln!("PHASE refute {}", self.search.total_nodes() - nr);
                }
                if debug {
                    eprintln!(
                        "answer: line checks refuted, nodes {}",
                        self.search.total_nodes()
                    );
                }
            }
            let start = self.search.total_nodes();
            let r = self.within(pos, b);
            last_search = self.search.total_nodes() - start;
            if debug {
                eprintln!(
                    "answer: within {b}: {r:?} nodes {}",
                    self.search.total_nodes()
                );
            }
            match r {
                Some(Bounded::Mated(_)) => return (b, true, b),
                Some(Bounded::NotMated) => b += 2,
                None => return (upper, false, b),
            }
            self.search.progress.publish_bounds(b, upper);
            if !descended
                && self.search.total_nodes() - bounds_start
                    >= (proof_nodes / DESCENT_AFTER_PROOF_SHARE).max(DESCENT_MIN_NODES)
            {
                descended = true;
                let n0 = self.search.total_nodes();
                upper = self.plain_least(pos, upper, b);
                self.search.progress.publish_bounds(b, upper);
                if std::env::var_os("TSUME_DEBUG").is_some() {
                    eprintln!("PHASE descent {}", self.search.total_nodes() - n0);
                }
            }
            let turn_at = if upper <= TOP_DOWN_MAX_PLIES {
                SHORT_TOP_DOWN_MIN_NODES
            } else if descended {
                TOP_DOWN_MIN_NODES
            } else {
                // Not before the plain descent has lowered the mate known.
                u64::MAX
            };
            if last_search >= turn_at {
                return self.shortest_from_above(pos, upper, b);
            }
        }
        (upper, true, upper)
    }

    /// [`shortest`](Self::shortest) from above: asks the bound just under
    /// the mate known (`upper - 2`) until a search finds no mate there,
    /// each after settling the mate's line from its end
    /// ([`settle_line_from_end`](Self::settle_line_from_end)): the line kept
    /// when the mate was proven, else the one read then
    /// ([`mate_line`](Self::mate_line)). A line of another length is not
    /// settled.
    /// Every bound below `least` is known to hold no mate.
    fn shortest_from_above(
        &mut self,
        pos: &Position,
        mut upper: u32,
        least: u32,
    ) -> (u32, bool, u32) {
        let debug = std::env::var_os("TSUME_DEBUG").is_some();
        while upper > least {
            let n0 = self.search.total_nodes();
            let line = self
                .proven_line
                .clone()
                .filter(|l| l.len() as u32 == upper)
                .or_else(|| self.mate_line(pos, upper));
            let settled = line.map(|line| self.settle_line_from_end(pos, &line, upper));
            if debug {
                eprintln!(
                    "answer: line of {upper} settled from its end ({settled:?}) in {} nodes",
                    self.search.total_nodes() - n0
                );
            }
            let r = self.within(pos, upper - 2);
            if debug {
                eprintln!(
                    "answer: within {} (from above): {r:?} nodes {}",
                    upper - 2,
                    self.search.total_nodes()
                );
            }
            match r {
                Some(Bounded::Mated(len)) => {
                    upper = len.min(upper - 2);
                    self.search.progress.publish_bounds(least, upper);
                    self.keep_proven_line(pos, upper);
                }
                Some(Bounded::NotMated) => return (upper, true, upper),
                None => return (upper, false, least),
            }
        }
        (upper, true, upper)
    }

    /// Before the bound under the mate known (`upper`) is asked at `root`:
    /// asks each attacker's position on `line`, that mate's, from its end
    /// towards `root`, whether it is mated two plies sooner than the line
    /// there, each as a question of its own with nothing on the path above
    /// it. A question starts with [`SETTLE_FIRST_NODES`] and gets
    /// [`SETTLE_GROWTH`] times more until it is answered; the line's
    /// questions may take as many nodes as were searched before them in
    /// all. Whether every question was answered (false, and nothing asked,
    /// when `line` is not `upper` plies long).
    ///
    /// The bound asked at `root` reaches the line's positions with the line
    /// above them on its path. Where the defender can come back to a
    /// position above, a disproof holds on that path alone: it is kept
    /// apart from the table and dropped with the bound, so every bound from
    /// above searches the line again from there down (ミクロコスモス: "mated
    /// within 1523" was still open after 900 s). Asked with nothing above
    /// it, a position's disproof relies only on loops inside its own search
    /// and goes to the table; asked from the end, each question finds the
    /// line below it settled and costs only its own position's other
    /// checks. The bound at `root` then reads the line from the table
    /// (`docs/measurements.md`).
    fn settle_line_from_end(&mut self, root: &Position, line: &[Move], upper: u32) -> bool {
        let attacker = self.search.attacker;
        if line.len() as u32 != upper {
            return false;
        }
        let mut positions = Vec::with_capacity(line.len());
        let mut pos = root.clone();
        for &m in line {
            pos.do_move(m);
            positions.push(pos.clone());
        }
        let until = self
            .search
            .total_nodes()
            .saturating_mul(2)
            .min(self.search.node_limit);
        self.with_empty_path(|t| {
            for (ply, p) in positions.iter().enumerate().rev() {
                let ply = ply as u32 + 1;
                let left = upper - ply;
                if p.side_to_move() != attacker || left < 3 {
                    continue;
                }
                t.enter(p);
                let mut nodes = SETTLE_FIRST_NODES;
                let answered = loop {
                    let room = until.saturating_sub(t.search.total_nodes());
                    match t.budgeted(nodes.min(room), |t| t.within(p, left - 2)) {
                        Some(Budgeted::Answer(_)) => break true,
                        Some(Budgeted::RanOut) if nodes < room => nodes *= SETTLE_GROWTH,
                        _ => break false,
                    }
                };
                t.leave();
                if !answered {
                    return false;
                }
            }
            true
        })
    }

    /// A plain mate's length no longer than `upper` and as short as plain
    /// searches under bounds find it, two plies at a time from `upper`
    /// down to `floor`: every interposition counts there, so the tsume
    /// answer is never longer. A step may take the budget of
    /// [`PLAIN_DESCENT_NODES_PER_PROOF_NODE`], the descent twice that in
    /// all, and never more than half of the nodes and time the caller's
    /// limits leave; it stops at the first bound without a mate, or not
    /// decided in time. A bound that takes [`PLAIN_STEP_GROWTH`] times
    /// the one before (the first: the budget's share of
    /// [`PLAIN_FIRST_STEP_SHARE`]) while its proof number stays at most
    /// [`PLAIN_STUCK_MAX_PN`] has the line shortened where it can be
    /// ([`shorten_plain_line`](Self::shorten_plain_line)) before it goes
    /// on; one whose line is not shortened goes on with
    /// [`PLAIN_STEP_RETRY_GROWTH`] times its nodes, once. The first step
    /// comes after the line is shortened once (see
    /// [`PLAIN_FIRST_LINE_SHARE`]).
    ///
    /// The first plain proof may wander far (to many times the answer's
    /// length), while under a bound a plain search finds a shorter mate at
    /// little cost once the first is found, and proves where no shorter
    /// plain mate is left (`docs/measurements.md`). The tsume answer then
    /// has an upper bound it can reach from below, and when a limit stops
    /// it, a close bracket ("at least `n` and at most `n + 2`").
    fn plain_least(&mut self, pos: &Position, upper: u32, floor: u32) -> u32 {
        let budget = self
            .search
            .total_nodes()
            .saturating_mul(PLAIN_DESCENT_NODES_PER_PROOF_NODE)
            .max(PLAIN_DESCENT_MIN_NODES);
        let mut least = upper;
        // Half of what the caller's limits leave at most: the bounds from
        // below need the rest.
        let nodes_left = self
            .search
            .node_limit
            .saturating_sub(self.search.total_nodes());
        let until = self
            .search
            .total_nodes()
            .saturating_add(budget.saturating_mul(2).min(nodes_left / 2));
        let deadline = self.search.deadline;
        let now = Instant::now();
        self.search.deadline = deadline.map(|d| now + d.saturating_duration_since(now) / 2);
        // The first bound may take half the budget, the next ones at
        // first sixteen times the bound before (see `shorten_plain_line`).
        let debug = std::env::var_os("TSUME_DEBUG").is_some();
        let mut step_cap = budget / PLAIN_FIRST_STEP_SHARE;
        // The nodes spent on the bound being searched.
        let mut spent = 0;
        let mut asked = HashSet::new();
        let n0 = self.search.total_nodes();
        let shortened = self.shorten_plain_line(pos, budget / PLAIN_FIRST_LINE_SHARE, &mut asked);
        if debug {
            eprintln!(
                "answer: first proof's line shortened: {shortened:?}, in {} nodes",
                self.search.total_nodes() - n0
            );
        }
        // Whether the bound being searched has had its second budget.
        let mut retried = false;
        while least >= floor + 2
            && self.search.aborted.is_none()
            && self.search.total_nodes() < until
        {
            let mut p = pos.clone();
            let path = self.path_hash();
            let step = step_cap
                .min(budget.saturating_sub(spent))
                .min(until.saturating_sub(self.search.total_nodes()));
            if step == 0 {
                break;
            }
            let start = self.search.total_nodes();
            let r = self.search.plain_mate_within(&mut p, path, least - 2, step);
            spent += self.search.total_nodes() - start;
            if debug {
                eprintln!(
                    "answer: plain within {} (pn {} dn {}): {} in {} nodes (of {step})",
                    least - 2,
                    r.pn,
                    r.dn,
                    if r.pn == 0 {
                        "mated"
                    } else if r.dn == 0 {
                        "not mated"
                    } else {
                        "open"
                    },
                    self.search.total_nodes() - start
                );
            }
            if r.pn == 0 {
                least = (r.len as u32).min(least - 2);
                self.keep_plain_line(pos, least);
                step_cap = spent
                    .saturating_mul(PLAIN_STEP_GROWTH)
                    .max(budget / PLAIN_STEP_FLOOR_SHARE)
                    .max(PLAIN_DESCENT_MIN_NODES);
                spent = 0;
                retried = false;
                continue;
            }
            if r.dn == 0 || spent >= budget || retried || self.search.aborted.is_some() {
                break;
            }
            // Far costlier than the bound before. With a proof number of 1
            // or 2 the search is digging along one line: shorten the line
            // where it can be, then the bound again with twice the nodes.
            // Else, or when nothing was shortened, once more with four
            // times the nodes.
            step_cap = step.saturating_mul(PLAIN_STEP_RETRY_GROWTH);
            retried = true;
            if r.pn <= PLAIN_STUCK_MAX_PN {
                let n0 = self.search.total_nodes();
                let shortened = self.shorten_plain_line(pos, step / PLAIN_LINE_SHARE, &mut asked);
                spent += self.search.total_nodes() - n0;
                if debug {
                    eprintln!(
                        "answer: line shortened: {shortened:?}, in {} nodes",
                        self.search.total_nodes() - n0
                    );
                }
                if shortened != Some(false) {
                    step_cap = step.saturating_mul(2);
                    retried = false;
                }
            }
        }
        self.search.deadline = deadline;
        if self.search.aborted == Some(Limit::Time) && deadline.is_none_or(|d| Instant::now() < d) {
            // The descent's half ran out, not the caller's time.
            self.search.aborted = None;
        }
        if debug {
            eprintln!(
                "answer: plain mate within {least} (from {upper}), nodes {}",
                self.search.total_nodes()
            );
        }
        least
    }

    /// Asks each attacker's position on the shortest plain line known
    /// from `root` (see [`plain_known_line`](Self::plain_known_line)),
    /// from its end towards `root`, whether it is mated plainly two plies
    /// sooner than the table knows, each with an equal share of `nodes`
    /// (at least [`PLAIN_ASK_MIN_NODES`], else nothing is asked); a
    /// question in `asked` (path hash, bound, nodes) is not asked again.
    /// Whether the line the table knows is shorter after (a position
    /// mated sooner by its own entry alone, whose length was older than
    /// its children's, shortens nothing); `None` when nothing was asked.
    ///
    /// A long first proof wanders: its line makes detours of a few plies
    /// that a shorter mate cuts out, one here and one there. A step of the
    /// descent that finds one of them costs little; one that does not
    /// digs where the line resists (often its end, where a bound of a few
    /// dozen plies is hard to settle) and can take a hundred times more
    /// (`docs/measurements.md`). Each question here looks only near its
    /// position; the detours it cuts are in the table for the next step.
    fn shorten_plain_line(
        &mut self,
        root: &Position,
        nodes: u64,
        asked: &mut HashSet<(u64, u32, u64)>,
    ) -> Option<bool> {
        #[cfg(test)]
        {
            self.lines_asked += 1;
        }
        let attacker = self.search.attacker;
        let line = self.plain_known_line(root);
        let mut positions = Vec::with_capacity(line.len());
        let mut pos = root.clone();
        for &m in &line {
            pos.do_move(m);
            positions.push(pos.clone());
        }
        let asks = positions
            .iter()
            .filter(|p| p.side_to_move() == attacker)
            .count() as u64;
        let each = nodes / asks.max(1);
        if each < PLAIN_ASK_MIN_NODES {
            return None;
        }
        for p in &positions {
            self.enter(p);
        }
        for p in positions.iter().rev() {
            if p.side_to_move() == attacker
                && self.search.aborted.is_none()
                && let Some(len) = self.plain_mate_known(p).filter(|&l| l >= 3)
                && asked.insert((self.path_hash(), len - 2, each))
            {
                let mut q = p.clone();
                let path = self.path_hash();
                self.search.plain_mate_within(&mut q, path, len - 2, each);
            }
            self.leave();
        }
        Some(self.plain_known_line(root).len() < line.len())
    }

    /// Keeps the line of the mate within `bound` just proven from `root`
    /// ([`mate_line`](Self::mate_line)): the searches
    /// that follow (a bound with no mate, up to the limit) can replace the
    /// entries it is read from, and a line read at the end may then follow
    /// a weaker defence, far shorter.
    fn keep_proven_line(&mut self, root: &Position, bound: u32) {
        if let Some(line) = self.mate_line(root, bound) {
            self.keep_line(root, line);
        }
    }

    /// Keeps the line of the plain mate within `bound` just proven from
    /// `root` ([`plain_known_line`](Self::plain_known_line)) when it is no
    /// longer than that, as [`keep_proven_line`](Self::keep_proven_line)
    /// does: the plain descent sets the answer's upper bound.
    fn keep_plain_line(&mut self, root: &Position, bound: u32) {
        let line = self.plain_known_line(root);
        if line.len() as u32 <= bound {
            self.keep_line(root, line);
        }
    }

    /// Keeps `line` for an answer cut short (see
    /// [`line_cut_short`](Self::line_cut_short)) when it is a tsume line
    /// from `root`.
    fn keep_line(&mut self, root: &Position, line: Vec<Move>) {
        if is_tsume_line_by(root, &line, self.search.attacker, self.line_rule()) {
            self.proven_line = Some(line);
        }
    }

    /// The line of an answer cut short, proven `at_least` to `at_most`
    /// plies long: of the lines the table knows ([`known_line`](Self::known_line),
    /// along the longest resistance, and along the mates within `at_most`),
    /// the line kept when the last mate was proven (from above, or by the
    /// plain descent), and the
    /// plain mate's line ([`plain_known_line`](Self::plain_known_line),
    /// which the plain descent shortens), the tsume line nearest those
    /// lengths (see `line_preference`); `None` when none is one.
    pub(super) fn line_cut_short(
        &mut self,
        root: &Position,
        at_least: u32,
        at_most: u32,
    ) -> Option<Vec<Move>> {
        let attacker = self.search.attacker;
        let rule = self.line_rule();
        let longest = self.known_line(root, true, u32::MAX);
        let within = self.known_line(root, false, at_most);
        let plain = self.plain_known_line(root);
        [longest, within, Some(plain), self.proven_line.take()]
            .into_iter()
            .flatten()
            .filter(|l| is_tsume_line_by(root, l, attacker, rule))
            .min_by_key(|l| line_preference(l.len() as u32, at_least, at_most))
    }

    /// The plain mate's line the table knows from `root`: at the
    /// attacker's turn the check with the shortest known mate, at the
    /// defender's the defence with the longest; it ends at a mate, where
    /// the table knows none, or before a position already on it.
    fn plain_known_line(&self, root: &Position) -> Vec<Move> {
        let attacker = self.search.attacker;
        let mut pos = root.clone();
        let mut line = Vec::new();
        let mut seen = HashSet::new();
        while line.len() < MAX_LINE as usize && seen.insert(pos.key()) {
            let known = if pos.side_to_move() == attacker {
                shortest_known_check(&pos, is_checkmate, |child| self.plain_mate_known(child))
            } else {
                let mut moves = MoveList::new();
                generate_evasions(&pos, &mut moves);
                moves
                    .iter()
                    .filter_map(|&m| self.plain_mate_known(&pos.after(m)).map(|l| (l, m)))
                    .max_by_key(|&(l, _)| l)
            };
            let Some((_, m)) = known else {
                break;
            };
            pos.do_move(m);
            line.push(m);
        }
        line
    }

    /// The length of the plain mate the table knows from `pos` (the
    /// attacker to move).
    fn plain_mate_known(&self, pos: &Position) -> Option<u32> {
        self.mate_known_in(Counting::Plain, pos)
    }

    /// The line whose other checks are searched plainly before a bound:
    /// from `root`, at the attacker's turn the check the plain proof
    /// chose; at the defender's turn the defence known to resist longest
    /// (not mated within the most plies, else mated in the most), the
    /// first proof's while nothing is known. Ends where no move is known,
    /// or before a position already on it.
    fn current_line(&mut self, root: &Position, first: &[Move]) -> Vec<Move> {
        let attacker = self.search.attacker;
        let mut pos = root.clone();
        let mut line = Vec::new();
        let mut seen = HashSet::new();
        let mut on_first = true;
        while line.len() < MAX_LINE as usize && seen.insert(pos.key()) {
            let from_first = first.get(line.len()).copied().filter(|_| on_first);
            let m = if pos.side_to_move() == attacker {
                self.search
                    .table
                    .probe(
                        pos.board_key() ^ Counting::Plain.salt(self.search.base_salt),
                        pos.hand(attacker),
                    )
                    .filter(|p| p.pn == 0)
                    .and_then(|p| p.mv)
                    .filter(|&m| pos.is_legal(m).is_ok() && pos.gives_check(m))
                    .or(from_first)
            } else {
                let mut evasions = MoveList::new();
                generate_evasions(&pos, &mut evasions);
                // Not mated within the most plies, else mated in the most.
                let mut best: Option<((bool, u16), Move)> = None;
                for &e in evasions.iter() {
                    let Some(p) = self.search.probe(self.counting, &pos.after(e)) else {
                        continue;
                    };
                    let score = if p.dn == 0 {
                        (true, p.len)
                    } else if p.pn == 0 {
                        (false, p.len)
                    } else {
                        continue;
                    };
                    if best.is_none_or(|(b, _)| score > b) {
                        best = Some((score, e));
                    }
                }
                match (best, from_first) {
                    (Some(((true, _), e)), _) => Some(e),
                    (_, Some(f)) => Some(f),
                    (Some((_, e)), None) => Some(e),
                    (None, None) => None,
                }
            };
            let Some(m) = m else {
                break;
            };
            on_first &= from_first == Some(m);
            pos.do_move(m);
            line.push(m);
        }
        line
    }

    /// Plain searches (no length bound) of the checks other than `line`'s
    /// at its attacker's nodes with at least [`PLAIN_MIN_PLIES`] plies left
    /// under `bound` (from `root`, on the path): a check with no mate at
    /// all is settled for every bound, while under a bound its refutation
    /// is searched again, and deeper, at each bound. The budget of each
    /// doubles with every two plies left, up to the nodes the last bounded
    /// search took (`last_search`); a plain search goes on from where the
    /// one before stopped (the table keeps its numbers). Checks refuted are
    /// kept in `refuted` by their path hash.
    fn refute_line_alternatives(
        &mut self,
        root: &Position,
        line: &[Move],
        bound: u32,
        last_search: u64,
        refuted: &mut HashSet<u64>,
    ) {
        let attacker = self.search.attacker;
        let mut pos = root.clone();
        let mut entered = 0;
        for (ply, &next) in (0u32..).zip(line) {
            if ply + PLAIN_MIN_PLIES > bound || self.search.aborted.is_some() {
                break;
            }
            if pos.side_to_move() == attacker {
                let left = bound - ply;
                let budget = (PLAIN_BUDGET_UNIT << (left / 2).min(40))
                    .min(last_search.max(PLAIN_BUDGET_UNIT));
                let mut checks = MoveList::new();
                generate_checks(&pos, &mut checks);
                for &m in checks.iter() {
                    if m == next {
                        continue;
                    }
                    let mut child = pos.after(m);
                    let path = extend_path(self.path_hash(), child.key());
                    if refuted.contains(&path)
                        || self
                            .search
                            .reps
                            .repeats(child.board_key(), child.hand(attacker))
                    {
                        continue;
                    }
                    self.enter(&child);
                    let refutes = self
                        .search
                        .no_mate_at_all(&mut child, path, ply + 1, budget);
                    self.leave();
                    if refutes {
                        refuted.insert(path);
                    }
                    if self.search.aborted.is_some() {
                        break;
                    }
                }
            }
            pos.do_move(next);
            self.enter(&pos);
            entered += 1;
        }
        for _ in 0..entered {
            self.leave();
        }
    }

    /// The exact tsume length of the position after `m`, mated within
    /// `upper` plies (or more, when the search's bound was optimistic):
    /// lowers the bound by two until a search fails. `None` when a limit
    /// stopped a search.
    pub(super) fn exact_after(&mut self, pos: &Position, m: Move, upper: u32) -> Option<u32> {
        #[cfg(test)]
        {
            self.exact_lengths += 1;
        }
        let child = pos.after(m);
        if self
            .search
            .reps
            .repeats(child.board_key(), child.hand(self.search.attacker))
        {
            return None;
        }
        self.enter(&child);
        let r = self.exact(&child, upper);
        self.leave();
        r
    }

    /// See [`exact_after`](Self::exact_after); `pos` is on the line.
    fn exact(&mut self, pos: &Position, upper: u32) -> Option<u32> {
        let mut best = upper;
        // Not mated within the bound the search used: look above it.
        while !self.within(pos, best)?.is_mated() {
            best += 2;
            if best > MAX_LINE {
                return None;
            }
        }
        if let Some(p) = self.search.probe_within(self.counting, pos, best)
            && p.pn == 0
        {
            best = best.min(p.len as u32);
        }
        while best >= 2 {
            match self.within(pos, best - 2)? {
                Bounded::Mated(l) => best = l.min(best - 2),
                Bounded::NotMated => break,
            }
        }
        Some(best)
    }
}

#[cfg(test)]
mod tests {
    use hashbrown::HashSet;

    use super::super::TsumeSearch;
    use super::super::main_line::shortest_known_check;
    use crate::core::movegen::{MoveList, generate_checks, generate_evasions, is_checkmate};
    use crate::core::{Color, Move, Position};
    use crate::solver::Solver;
    use crate::solver::interposition::UselessRule;
    use crate::solver::is_tsume_line;
    use crate::solver::mode::{Bounded, Counting, Mode};
    use crate::solver::tt::{INF, Record};

    /// The position of 将棋無双 problem `number` in problems/musou.tsv.
    fn musou(number: &str) -> Position {
        let name = format!("(musou-{number})");
        include_str!("../../../problems/musou.tsv")
            .lines()
            .find(|l| l.contains(&name))
            .and_then(|l| l.split('\t').next())
            .expect("the row")
            .parse()
            .expect("an SFEN")
    }

    /// Runs `f` over tsume questions from `pos` (Black mates, the default
    /// rule) on a fresh table of `mb` MB.
    fn with_search<T>(pos: &Position, mb: usize, f: impl FnOnce(&mut TsumeSearch) -> T) -> T {
        let mut solver = Solver::new(mb);
        let mut search = solver.search(Color::Black, 0, u64::MAX, None);
        let mut t = TsumeSearch::new(&mut search, pos, UselessRule::default());
        f(&mut t)
    }

    /// Forgets what the table of `t` knows of `pos`'s board, in both
    /// namespaces, as a replacement would.
    fn forget(t: &TsumeSearch, pos: &Position) {
        for c in [t.counting, Counting::Plain] {
            t.search
                .table
                .forget(pos.board_key() ^ c.salt(t.search.base_salt));
        }
    }

    /// Proves `pos` (the root of `t`) mated by a plain search, as the first
    /// proof does.
    fn first_proof(t: &mut TsumeSearch, pos: &Position) {
        let path = t.path_hash();
        let mut root = pos.clone();
        let r = t
            .search
            .search_root(Mode::unbounded(Counting::Plain), &mut root, path);
        assert_eq!(r.pn, 0, "mated");
    }

    /// musou-077 (11 plies): the defender can come back to a position of
    /// the line above some of its positions, so with the line on the path
    /// the disproof of "mated two plies sooner" at one of them holds on
    /// that path alone and never reaches the table. Settled from the
    /// line's end, each asked with nothing above it, every one of them is
    /// in the table, for any path.
    #[test]
    fn a_line_settled_from_its_end_leaves_each_position_settled_in_the_table() {
        let pos = musou("077");
        let unsettled = with_search(&pos, 64, |t| {
            let Some(Bounded::Mated(len)) = t.within(&pos, 11) else {
                panic!("mated within 11");
            };
            let line = t.known_line(&pos, false, len).expect("a line");
            assert_eq!(line.len() as u32, len);
            assert!(t.settle_line_from_end(&pos, &line, len));
            let mut p = pos.clone();
            let mut unsettled = Vec::new();
            for (ply, &m) in (1..).zip(&line) {
                p.do_move(m);
                let left = len - ply;
                if p.side_to_move() == Color::Black
                    && left >= 3
                    && t.search.probe_settled(t.counting, &p, left - 2).is_none()
                {
                    unsettled.push(ply);
                }
            }
            unsettled
        });
        assert_eq!(unsettled, Vec::<u32>::new(), "plies not settled");
    }

    /// A mate proven within a bound may pass through a drop between
    /// checker and king that counts (musou-084, 29 plies: 1. B*3g P*2h).
    /// The line of the mates known within the bound follows it, as long as
    /// the mate proven; leaving drops out, it would take a weaker defence.
    #[test]
    fn the_line_of_a_mate_proven_within_a_bound_passes_through_drops() {
        let pos = musou("084");
        let (len, line) = with_search(&pos, 256, |t| {
            let Some(Bounded::Mated(len)) = t.within(&pos, 29) else {
                panic!("mated within 29");
            };
            (len, t.known_line(&pos, false, len).expect("a line"))
        });
        assert!(is_tsume_line(&pos, &line, Color::Black), "{line:?}");
        assert_eq!(line.len() as u32, len);
        assert!(line[1].is_drop(), "{}", line[1]);
    }

    /// A defence of a proven mate that the table lost (entries that cost
    /// little are replaced first) is proven again when the mate's line is
    /// read for settling: the line keeps the proven length, where the walk
    /// along what the table knows follows a shorter defence. musou-084 (29
    /// plies), the entry of the defence the line follows forgotten at the
    /// deepest defender's turn where the other defences are mated sooner.
    #[test]
    fn the_line_of_a_mate_proves_again_a_defence_the_table_lost() {
        line_read_with_an_entry_changed(|t, p, m, left| {
            let moves = defender_evasions(p)?;
            let others: Vec<Option<u32>> = moves
                .iter()
                .filter(|&&e| e != m)
                .map(|&e| t.known_mate(&p.after(e)))
                .collect();
            (others.iter().any(Option::is_some) && others.iter().flatten().all(|&l| l + 1 < left))
                .then(|| (p.after(m), None))
        });
    }

    /// Likewise at the attacker's turn: where the table lost the defender's
    /// position after the only check known to mate in time, the mate's
    /// line proves the defences of the check stored with the position's
    /// proof again (musou-084, at the deepest such turn of its line before
    /// the mate in one).
    #[test]
    fn the_line_of_a_mate_proves_again_a_check_the_table_lost() {
        line_read_with_an_entry_changed(|t, p, m, left| {
            if p.side_to_move() != Color::Black || left < 3 {
                return None;
            }
            let mut checks = MoveList::new();
            generate_checks(p, &mut checks);
            checks
                .iter()
                .filter(|&&c| c != m)
                .all(|&c| t.known_mate(&p.after(c)).is_none_or(|l| l >= left))
                .then(|| (p.after(m), None))
        });
    }

    /// A defence whose stored mate is longer than the one the table knows
    /// after the attacker's reply (a proof stores the length of the mate it
    /// found, not the shortest) is not taken for the longest when the
    /// mate's line is read for settling. musou-084 (29 plies), at the
    /// deepest defender's turn where a defence mated sooner comes before
    /// the line's in the order of evasions: its entry replaced by a proof
    /// as long as the line's defence, so that reading by stored lengths
    /// takes it.
    #[test]
    fn the_line_of_a_mate_passes_over_a_defence_whose_stored_mate_is_loose() {
        line_read_with_an_entry_changed(|t, p, m, left| {
            let moves = defender_evasions(p)?;
            let line_at = moves.iter().position(|&e| e == m)?;
            let mated_now = |q: &Position| is_checkmate(q);
            moves.iter().take(line_at).find_map(|&e| {
                let defence = p.after(e);
                let (after, _) = shortest_known_check(&defence, mated_now, |c| t.known_mate(c))?;
                (after + 2 < left).then(|| (defence, Some(left as u16 - 1)))
            })
        });
    }

    /// The evasions at `p` when the defender (White) is to move.
    fn defender_evasions(p: &Position) -> Option<MoveList> {
        if p.side_to_move() != Color::White {
            return None;
        }
        let mut moves = MoveList::new();
        generate_evasions(p, &mut moves);
        Some(moves)
    }

    /// Proves musou-084 mated within 29 and reads its line; at the line's
    /// deepest turn where `pick` (given the position, the line's move and
    /// the plies left) names a position, forgets that position's entries
    /// and, where `pick` gives a length, stores in their place a proof of
    /// that length; then the walk along what the table knows no longer
    /// reads a line of the mate's length, and [`TsumeSearch::mate_line`]
    /// does.
    fn line_read_with_an_entry_changed(
        pick: impl Fn(&TsumeSearch, &Position, Move, u32) -> Option<(Position, Option<u16>)>,
    ) {
        let pos = musou("084");
        with_search(&pos, 256, |t| {
            let Some(Bounded::Mated(len)) = t.within(&pos, 29) else {
                panic!("mated within 29");
            };
            let line = t.known_line(&pos, false, len).expect("a line");
            assert_eq!(line.len() as u32, len);
            let mut p = pos.clone();
            let mut changed = None;
            for (ply, &m) in (0..).zip(&line) {
                changed = pick(t, &p, m, len - ply).or(changed);
                p.do_move(m);
            }
            let (q, loose) = changed.expect("a turn to change");
            forget(t, &q);
            if let Some(len) = loose {
                let key = q.board_key() ^ t.counting.salt(t.search.base_salt);
                let record = Record {
                    pn: 0,
                    dn: INF,
                    len,
                    mv: None,
                    drop_free: false,
                };
                t.search.table.store(key, q.hand(Color::Black), record, 1);
                assert_eq!(t.known_mate(&q), Some(u32::from(len)));
            }
            let walked = t.known_line(&pos, false, len);
            assert!(
                walked.as_ref().is_none_or(|l| l.len() != line.len()),
                "{walked:?}"
            );
            let read = t.mate_line(&pos, len).expect("a line");
            assert_eq!(read.len() as u32, len);
            assert!(is_tsume_line(&pos, &read, Color::Black), "{read:?}");
        });
    }

    /// Where the table knows no check whose mate fits in the plies left
    /// (here it knows only the first plain proof of musou-006, whose
    /// answer is 43 plies, and 5 are asked for), the walk along the mates
    /// takes the shortest mate it knows, and its line runs over the bound
    /// rather than ending nowhere: the table may have replaced the entry
    /// that fitted.
    #[test]
    fn a_walk_where_no_known_mate_fits_takes_the_shortest_known() {
        let pos = musou("006");
        let line = with_search(&pos, 256, |t| {
            first_proof(t, &pos);
            t.known_line(&pos, false, 5)
        })
        .expect("a line");
        assert!(is_tsume_line(&pos, &line, Color::Black), "{line:?}");
        assert!(line.len() > 5, "{}", line.len());
    }

    /// Each mate proven from above leaves its line kept (musou-084: 29
    /// proven from 31, then no mate within 27), and an answer cut short
    /// offers it where the table no longer knows it (here a fresh one).
    #[test]
    fn the_line_of_the_last_mate_proven_from_above_is_kept() {
        let pos = musou("084");
        let kept = with_search(&pos, 256, |t| {
            assert_eq!(t.shortest_from_above(&pos, 31, 0), (29, true, 29));
            t.proven_line.clone().expect("a line kept")
        });
        assert_eq!(kept.len(), 29);
        assert!(is_tsume_line(&pos, &kept, Color::Black), "{kept:?}");
        with_search(&pos, 16, |t| {
            assert_eq!(
                t.line_cut_short(&pos, 11, 29),
                None,
                "the table knows nothing"
            );
            t.proven_line = Some(kept.clone());
            assert_eq!(t.line_cut_short(&pos, 11, 29), Some(kept));
        });
    }

    /// The plain descent from `pos`'s first plain proof: the first proof's
    /// length, the length the descent reaches, and the descent's nodes.
    fn descent_from_first_proof(t: &mut TsumeSearch, pos: &Position) -> (u32, u32, u64) {
        first_proof(t, pos);
        let first = t.plain_mate_known(pos).expect("a plain mate known");
        let start = t.search.total_nodes();
        let least = t.plain_least(pos, first, 0);
        (first, least, t.search.total_nodes() - start)
    }

    /// Each plain mate the descent proves leaves its line kept, no longer
    /// than the mate proven (musou-050: the first plain proof 37 plies, the
    /// descent 25), so that an answer cut short after the descent has a
    /// line within its upper bound even when the table has lost it.
    #[test]
    fn the_line_of_each_plain_mate_of_the_descent_is_kept() {
        let pos = musou("050");
        with_search(&pos, 256, |t| {
            let (first, least, _) = descent_from_first_proof(t, &pos);
            assert!(least < first, "{least} from {first}");
            let kept = t.proven_line.clone().expect("a line kept");
            assert!(kept.len() as u32 <= least, "{} plies", kept.len());
            assert!(is_tsume_line(&pos, &kept, Color::Black), "{kept:?}");
        });
    }

    /// musou-006's first plain proof wanders. The questions along the line
    /// the table knows (a plain mate two plies sooner than known at each of
    /// its attacker's positions) prove shorter mates on it: the line the
    /// table knows after them is shorter, and still a mate.
    #[test]
    fn questions_along_a_wandering_line_cut_its_detours() {
        let pos = musou("006");
        let (before, after) = with_search(&pos, 256, |t| {
            first_proof(t, &pos);
            let before = t.plain_known_line(&pos);
            // Too few nodes for a question each: none asked.
            assert_eq!(t.shorten_plain_line(&pos, 1_000, &mut HashSet::new()), None);
            let shortened = t.shorten_plain_line(&pos, 400_000, &mut HashSet::new());
            assert_eq!(shortened, Some(true));
            (before, t.plain_known_line(&pos))
        });
        assert_shorter_plain_mate(&pos, &before, &after);
    }

    /// Asserts that `after` is shorter than `before`, and from `pos` a
    /// mate by checks, every interposition counted.
    fn assert_shorter_plain_mate(pos: &Position, before: &[Move], after: &[Move]) {
        assert!(
            after.len() < before.len(),
            "{} -> {}",
            before.len(),
            after.len()
        );
        let mut p = pos.clone();
        for (i, &m) in after.iter().enumerate() {
            assert!(p.is_legal(m).is_ok(), "ply {i}: {m}");
            p.do_move(m);
            assert_eq!(p.in_check(), i % 2 == 0, "ply {i}: {m}");
        }
        assert!(is_checkmate(&p), "mated at the end of {after:?}");
    }

    /// The plain descent first asks along the first proof's line: on
    /// musou-006, whose first proof wanders, the line the table knows is
    /// shorter after it even when no step is searched (the floor at the
    /// mate known), and still a mate by checks.
    #[test]
    fn the_plain_descent_asks_along_the_first_proofs_line_before_its_first_step() {
        let pos = musou("006");
        with_search(&pos, 256, |t| {
            first_proof(t, &pos);
            let first = t.plain_mate_known(&pos).expect("a plain mate known");
            let before = t.plain_known_line(&pos);
            assert_eq!(t.plain_least(&pos, first, first), first);
            assert_eq!(t.lines_asked, 1);
            assert_shorter_plain_mate(&pos, &before, &t.plain_known_line(&pos));
        });
    }

    /// A bound of the plain descent that stays open after its second
    /// budget ends the descent: musou-006's "plain mate within 49" runs out
    /// of 130k nodes, then of four times that, and the descent ends at 51
    /// in 711k nodes. With the rest of the budget instead (4.0M nodes) the
    /// bound stayed open all the same, and the descent took 4.2M.
    #[test]
    fn a_plain_bound_open_after_its_second_budget_ends_the_descent() {
        let pos = musou("006");
        with_search(&pos, 256, |t| {
            let (first, least, spent) = descent_from_first_proof(t, &pos);
            assert_eq!((first, least), (57, 51));
            assert!(spent < 1_000_000, "{spent} nodes");
        });
    }
}
