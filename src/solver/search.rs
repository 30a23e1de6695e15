//! The df-pn loop (Nagai 2002) with 1+epsilon thresholds, proof and
//! disproof hands, and path-keyed repetition results. What the search asks
//! at each node comes with it as a [`Mode`]; new nodes are first looked at
//! by [`super::frontier`], and drops between checker and king are judged
//! by [`super::drops`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use hashbrown::HashMap;

use crate::core::{Color, Hand, Move, Position};

use super::Limit;
use super::drops::{
    DropTiming, DropVerdict, FIRST_USELESS_ROUND_NODES, USELESS_TEST_SHARE, UnusedTest,
};
use super::hands;
use super::interposition::{DropInterpositions, has_counted_evasion};
use super::mode::{Counting, Mode};
use super::node::{
    DEPTH_ANY, Node, NodeResult, combine, deeper, select, select_shuffled, sub_sibling_sum, widen,
};
use super::parallel::{Crew, Job, NODE_STEP, RECRUIT_STEP};
use super::repetition::{NO_LOOP, PathResult, Repetitions, WHOLE_PATH, extend_path};
use super::tt::{INF, Probe, Table, left_with, open_len, settles_within};

/// The search recurses once per ply. When less than this much stack is
/// left, the next levels run on a fresh segment of `STACK_SEGMENT` bytes,
/// so deep lines work on any thread, whatever its stack.
pub(crate) const STACK_RED_ZONE: usize = 128 * 1024;
pub(crate) const STACK_SEGMENT: usize = 8 * 1024 * 1024;

/// Useless-interposition tests open at once, at most (each is a search of
/// the position after the capture, which may hold interpositions itself).
pub(crate) const MAX_NEST: u32 = 8;

/// Where a node is searched: the question, the node's path hash, and its
/// ply from the root of the search.
#[derive(Copy, Clone, Debug)]
pub(crate) struct At {
    pub mode: Mode,
    pub path: u64,
    pub ply: u32,
}

impl At {
    /// Plies left under the limit at this node.
    #[inline(always)]
    pub fn remaining(self) -> u32 {
        self.mode.remaining(self.ply)
    }
}

/// One search over a shared table: the resources (table, path, limits)
/// and what it has found so far. The question comes with each call.
pub(crate) struct Search<'a> {
    pub table: &'a Table,
    pub reps: &'a mut Repetitions,
    pub attacker: Color,
    /// The problem's key (see [`super::out_of_play_salt`]), mixed into the
    /// namespace of every counting.
    pub base_salt: u64,
    pub nodes: u64,
    pub node_limit: u64,
    /// A budget on the nodes of every thread together (see
    /// [`cap_nodes`](Self::cap_nodes)), checked every [`NODE_STEP`] nodes.
    work_limit: u64,
    pub deadline: Option<Instant>,
    pub stop: &'a AtomicBool,
    pub progress: &'a super::SearchProgress,
    pub aborted: Option<Limit>,
    /// Set when a line was cut at the ply limit without a length bound: a
    /// "no mate" that needed it is reported as unknown.
    pub depth_cut: bool,
    /// Under [`super::interposition::UselessRule::PieceUnused`], what the
    /// test of a capture found, by the key of the position after it (see
    /// [`super::drops`]). Kept for the whole search, whatever the path:
    /// like the table's, these results do not look at repetitions.
    pub unused_tests: HashMap<u64, UnusedTest>,
    pub stats: Stats,
    /// The threads searching this problem with the main one, when there
    /// are (see [`super::parallel`]).
    pub crew: Option<&'a Crew>,
    /// 0 for the main thread; a helper's number otherwise (its children
    /// are taken in an order of its own).
    pub helper: u64,
    /// A helper's nodes already added to the crew's count.
    pub reported: u64,
    /// On the main thread, the root search posted to the crew now, if any
    /// (the searches nested in it are not posted again; see [`Posted`]).
    posted: Option<Posted>,
    /// Set while the main thread unwinds to the posted root, found solved
    /// in the table (see [`root_mid`](Self::root_mid)).
    unwinding: bool,
    /// Nodes done with, whose vectors new nodes reuse.
    spare: Vec<Node>,
    /// On the main thread of a search that may take spare cores: takes
    /// one for a helper, when there is one (see [`super::parallel`]).
    pub recruit: Option<&'a dyn Fn()>,
}

/// The limit a long step (a growth of the table) gives way to: `stop`
/// set, or `deadline` past.
fn limit_reached(stop: &AtomicBool, deadline: Option<Instant>) -> Option<Limit> {
    if stop.load(Ordering::Relaxed) {
        Some(Limit::Stopped)
    } else if deadline.is_some_and(|d| Instant::now() >= d) {
        Some(Limit::Time)
    } else {
        None
    }
}

/// The root search the main thread posted to its helpers: its namespace,
/// board key, attacker hand and plies left, by which the main thread looks
/// it up now and then. A helper that solves it stores it in the table and
/// stops; the main thread, deep in a subtree of its own, would otherwise
/// go on alone until that subtree's numbers reach its thresholds (a
/// first proof of musou-067 went on for minutes with seven helpers idle).
#[derive(Clone, Copy, Debug)]
struct Posted {
    mode: Mode,
    board_key: u64,
    hand: Hand,
    remaining: u32,
}

/// The limits a node budget replaced (see [`Search::cap_nodes`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct NodeCap {
    nodes: u64,
    work: u64,
}

/// Counters for tuning.
#[derive(Default, Debug, Clone)]
pub struct Stats {
    pub new_nodes: u64,
    pub tt_hits: u64,
    pub rep_hits: u64,
    pub path_records: u64,
    pub max_ply: u32,
    /// Nodes searched inside nested searches (the base of drop
    /// interpositions, and their useless tests).
    pub nested_nodes: u64,
}

impl<'a> Search<'a> {
    /// A search over `table` with its own path `reps`, stopped by `stop`,
    /// publishing to `progress`: no limit, no crew (the caller sets them).
    pub(crate) fn new(
        table: &'a Table,
        reps: &'a mut Repetitions,
        stop: &'a AtomicBool,
        progress: &'a super::SearchProgress,
        attacker: Color,
        base_salt: u64,
    ) -> Search<'a> {
        Search {
            table,
            reps,
            attacker,
            base_salt,
            nodes: 0,
            node_limit: u64::MAX,
            work_limit: u64::MAX,
            deadline: None,
            stop,
            progress,
            aborted: None,
            depth_cut: false,
            unused_tests: Default::default(),
            stats: Default::default(),
            crew: None,
            helper: 0,
            reported: 0,
            posted: None,
            unwinding: false,
            spare: Vec::new(),
            recruit: None,
        }
    }

    #[inline(always)]
    pub(crate) fn attacker_hand(&self, pos: &Position) -> Hand {
        pos.hand(self.attacker)
    }

    /// Counts a node and checks the limits; sets `aborted` when one is hit.
    #[inline(always)]
    pub(crate) fn count_node(&mut self) {
        self.nodes += 1;
        if self.aborted.is_some() {
            return;
        }
        if self.nodes >= self.node_limit {
            self.aborted = Some(Limit::Nodes);
        } else if self.nodes & (NODE_STEP - 1) == 0 {
            // Whether the helpers' nodes together just passed a multiple
            // of `RECRUIT_STEP`: this helper then looks at the table's fill.
            let mut helpers_step = false;
            if let Some(crew) = self.crew {
                if self.helper != 0 {
                    let before = crew.nodes.fetch_add(NODE_STEP, Ordering::Relaxed);
                    helpers_step = (before + NODE_STEP) & (RECRUIT_STEP - 1) < NODE_STEP;
                    self.reported += NODE_STEP;
                } else {
                    crew.main_nodes.store(self.nodes, Ordering::Relaxed);
                }
            }
            self.progress.publish(self.total_nodes(), self.table);
            if self.stop.load(Ordering::Relaxed) {
                self.aborted = Some(Limit::Stopped);
            } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.aborted = Some(Limit::Time);
            } else if self.crew.is_some_and(|c| c.over_limit())
                || (self.helper == 0 && self.total_nodes() >= self.work_limit)
            {
                // The caller's limit counts every thread's nodes (see
                // `uncap_nodes`: no budget of a nested search takes it
                // for its own).
                self.aborted = Some(Limit::Nodes);
            } else if self.helper == 0
                && self.crew.is_some()
                && self.nodes & (RECRUIT_STEP - 1) == 0
            {
                if self.posted_root_result().is_some() {
                    // Back to the root, which reads it (not a limit).
                    self.aborted = Some(Limit::Stopped);
                    self.unwinding = true;
                    return;
                }
                // A shared table grows as the threads see it fill, on a
                // helper when there is one (the new half's faults then stop
                // it, not the main thread): while one searches, at its own
                // steps; else one waiting for a job is asked. With no
                // helper, the main thread grows it.
                match self.crew {
                    Some(crew) if crew.helpers_searching() => {}
                    Some(crew) if crew.helpers_running() => crew.ask_growth(),
                    _ => self.grow_shared_table(),
                }
                if let Some(recruit) = self.recruit {
                    recruit();
                }
            } else if helpers_step {
                self.grow_shared_table();
            }
        }
    }

    /// Grows a shared table when it is seen half full (see
    /// [`Table::grow_if_seen_half_full`]), giving way to the limits.
    fn grow_shared_table(&self) {
        let (stop, deadline) = (self.stop, self.deadline);
        self.table
            .grow_if_seen_half_full(|| limit_reached(stop, deadline).is_some());
    }

    /// Whether the defender at `pos`, at the ply bound, escapes the mate
    /// there: when it has a defence that always counts (under tsume
    /// counting, anything but a drop between checker and king, which may
    /// be useless; with interpositions ignored, one of the others; else any
    /// legal move).
    fn defends_at_bound(counting: Counting, pos: &Position) -> bool {
        counting.has_counted_evasion(pos)
    }

    /// Stores a final or intermediate result of `pos`, found counting as
    /// `counting`.
    pub(crate) fn store(
        &mut self,
        counting: Counting,
        pos: &Position,
        r: &NodeResult,
        mv: Option<Move>,
        work: u64,
    ) {
        if r.loop_head != NO_LOOP {
            return;
        }
        let hand = if r.pn == 0 || r.dn == 0 {
            r.hand
        } else {
            self.attacker_hand(pos)
        };
        let key = pos.board_key() ^ counting.salt(self.base_salt);
        self.table.store(key, hand, r.record(mv), work);
        if self.aborted.is_none() {
            // Growing may take seconds: it gives way to the limits.
            let (stop, deadline) = (self.stop, self.deadline);
            let mut hit = None;
            self.table.grow_if_half_full(|| {
                hit = limit_reached(stop, deadline);
                hit.is_some()
            });
            self.aborted = hit;
        }
    }

    /// What the table knows of `pos` counting as `counting` (final results
    /// of its fallback namespace when this one has none).
    pub fn probe(&self, counting: Counting, pos: &Position) -> Option<Probe> {
        self.probe_within(counting, pos, u32::MAX)
    }

    /// Like [`probe`](Self::probe), for a search with `remaining` plies
    /// left (see [`Table::probe_within`]).
    pub fn probe_within(
        &self,
        counting: Counting,
        pos: &Position,
        remaining: u32,
    ) -> Option<Probe> {
        self.probe_keyed(
            counting,
            pos.board_key(),
            self.attacker_hand(pos),
            remaining,
        )
    }

    /// What the table settles of `pos` with `plies` left: a proof within
    /// them, or a disproof for at least as many.
    pub fn probe_settled(&self, counting: Counting, pos: &Position, plies: u32) -> Option<Probe> {
        self.probe_within(counting, pos, plies)
            .filter(|p| p.settles_within(plies))
    }

    /// [`probe_within`](Self::probe_within) of the position with board key
    /// `board_key` and attacker hand `hand`.
    fn probe_keyed(
        &self,
        counting: Counting,
        board_key: u64,
        hand: Hand,
        remaining: u32,
    ) -> Option<Probe> {
        let own =
            self.table
                .probe_within(board_key ^ counting.salt(self.base_salt), hand, remaining);
        if own.is_some_and(|p| {
            (p.pn == 0 && p.len as u32 <= remaining) || (p.dn == 0 && p.len == DEPTH_ANY)
        }) {
            return own;
        }
        // A plain proof is a mate within its length here too (tsume
        // counting is never longer); a plain disproof when it says no mate
        // at all, or when it is drop-free (see `NodeResult::drop_free`):
        // another one under a length bound may rely on an interposition
        // tsume counting leaves out, so it says nothing here. "No mate at
        // all" is worth more than this namespace's "no mate within so many plies";
        // a mate is not (that disproof may be final for the plies left),
        // unless it is shorter than this namespace's own proof.
        if let Some(fallback) = counting.fallback() {
            let salt = fallback.salt(self.base_salt);
            if let Some(p) = self.table.probe(board_key ^ salt, hand) {
                let better_proof = p.pn == 0
                    && own.is_none_or(|o| {
                        if o.pn == 0 {
                            p.len < o.len
                        } else if o.dn == 0 {
                            // Under a bound, a disproof for fewer plies than
                            // are left says nothing, and a plain mate within
                            // them settles the search. A look-up without one
                            // keeps the disproof: it says how long the
                            // position resists.
                            remaining != u32::MAX
                                && !o.settles_within(remaining)
                                && p.len as u32 <= remaining
                        } else {
                            // Over this namespace's open entry left with
                            // as many plies left, only a proof that
                            // settles them.
                            p.len as u32 <= remaining || !left_with(o.len, remaining)
                        }
                    });
                if better_proof || (p.dn == 0 && p.len == DEPTH_ANY) {
                    return Some(p);
                }
                // A plain disproof under a length bound that never relies on a
                // drop between checker and king holds here too. (When the look-up
                // above finds nothing, no disproof covers the hand: the cluster
                // is not read again.)
                if own.is_none_or(|o| !o.settles_within(remaining))
                    && let Some(d) =
                        self.table
                            .drop_free_disproof(board_key ^ salt, hand, remaining)
                {
                    return Some(d);
                }
            }
        }
        own
    }

    /// The nodes of this search and, on the main thread, its helpers'.
    pub(crate) fn total_nodes(&self) -> u64 {
        match self.crew {
            Some(crew) if self.helper == 0 => self.nodes + crew.nodes.load(Ordering::Relaxed),
            _ => self.nodes,
        }
    }

    /// A root search of `pos` at `at` (`pos` entered on the path): posted
    /// to the helpers while it runs, when there are and no other root
    /// search is posted by this one.
    pub(crate) fn root_mid(&mut self, pos: &mut Position, at: At) -> NodeResult {
        let post = self.helper == 0 && self.posted.is_none() && self.crew.is_some();
        if let (true, Some(crew)) = (post, self.crew) {
            crew.post(std::sync::Arc::new(Job {
                mode: at.mode,
                pos: pos.clone(),
                path: at.path,
                ply: at.ply,
                stack: self.reps.stack().to_vec(),
                attacker: self.attacker,
                base_salt: self.base_salt,
                stop: AtomicBool::new(false),
            }));
            self.posted = Some(Posted {
                mode: at.mode,
                board_key: pos.board_key(),
                hand: self.attacker_hand(pos),
                remaining: at.remaining(),
            });
        }
        let r = loop {
            let r = self.mid(at.mode, pos, at.path, INF, INF, at.ply);
            if !(post && self.unwinding) {
                break r;
            }
            // Solved in the table by a helper (or on this thread's way).
            self.unwinding = false;
            self.aborted = None;
            if let Some(solved) = self.posted_root_result() {
                break solved;
            }
        };
        if let (true, Some(crew)) = (post, self.crew) {
            crew.withdraw();
            self.posted = None;
        }
        r
    }

    /// What the table settles of the root search posted, if anything.
    fn posted_root_result(&self) -> Option<NodeResult> {
        let w = self.posted?;
        let p = self.probe_keyed(w.mode.counting, w.board_key, w.hand, w.remaining)?;
        let r = Self::usable(w.mode, &p, w.remaining);
        (r.pn == 0 || r.dn == 0).then_some(r)
    }

    /// Caps the nodes at `budget` more (within the caller's own limits);
    /// returns the limits to give back to [`uncap_nodes`](Self::uncap_nodes).
    /// A root search the helpers will take up (the main thread of a crew,
    /// nothing posted yet) counts every thread's nodes against it: the
    /// budget is work, which the helpers share, so it ends sooner with
    /// them. Any other counts this thread's nodes alone (as does a
    /// search with no helper yet: it searches as one thread does).
    pub(crate) fn cap_nodes(&mut self, budget: u64) -> NodeCap {
        let cap = NodeCap {
            nodes: self.node_limit,
            work: self.work_limit,
        };
        if self.crew.is_some_and(Crew::has_helpers) && self.helper == 0 && self.posted.is_none() {
            self.work_limit = cap.work.min(self.total_nodes().saturating_add(budget));
        } else {
            self.node_limit = cap.nodes.min(self.nodes.saturating_add(budget));
        }
        cap
    }

    /// Restores the caller's limits after [`cap_nodes`](Self::cap_nodes);
    /// whether the budget ran out, not the caller's limit (the abort it
    /// left is then the caller's to clear).
    pub(crate) fn uncap_nodes(&mut self, cap: NodeCap) -> bool {
        self.node_limit = cap.nodes;
        self.work_limit = cap.work;
        self.aborted == Some(Limit::Nodes)
            && self.nodes < cap.nodes
            && (self.helper != 0 || self.total_nodes() < cap.work)
            && !self.crew.is_some_and(|c| c.over_limit())
    }

    /// Searches `pos` (entered on the path, reached by path hash `path`) as
    /// the root of a search under `mode`; the path results of an earlier
    /// bound are dropped first (they no longer hold). `depth_cut` is left
    /// as it was: only the caller's own root search sets it.
    pub(crate) fn search_root(&mut self, mode: Mode, pos: &mut Position, path: u64) -> NodeResult {
        self.reps.clear_path_results();
        let depth_cut = self.depth_cut;
        let r = self.root_mid(pos, At { mode, path, ply: 0 });
        self.depth_cut = depth_cut;
        r
    }

    /// A plain search (no length bound) of at most `budget` more nodes at
    /// `pos` (on the path by `path`, at `ply`): whether it disproves `pos`
    /// for any length (the result is kept in the table, or on the path
    /// when it depends on it).
    pub(crate) fn no_mate_at_all(
        &mut self,
        pos: &mut Position,
        path: u64,
        ply: u32,
        budget: u64,
    ) -> bool {
        let at = At {
            mode: Mode::unbounded(Counting::Plain),
            path,
            ply,
        };
        let r = self.budgeted_search(pos, at, budget);
        r.dn == 0 && (r.loop_head != NO_LOOP || r.len == DEPTH_ANY)
    }

    /// A plain search at the root `pos` (every interposition counted)
    /// under a bound of `plies`, of at most `budget` more nodes: proven
    /// with the length of the mate found (at most `plies`), disproven when
    /// there is no mate within them, else open.
    pub(crate) fn plain_mate_within(
        &mut self,
        pos: &mut Position,
        path: u64,
        plies: u32,
        budget: u64,
    ) -> NodeResult {
        // Results kept by path hold for one bound only.
        self.reps.clear_path_results();
        let at = At {
            mode: Mode::within(Counting::Plain, plies),
            path,
            ply: 0,
        };
        let r = self.budgeted_search(pos, at, budget);
        self.reps.clear_path_results();
        r
    }

    /// A search of `pos` at `at` of at most `budget` more nodes: its
    /// result, open when the budget ran out (the table keeps its numbers;
    /// the budget's abort is cleared, `depth_cut` left as it was).
    pub(crate) fn budgeted_search(
        &mut self,
        pos: &mut Position,
        at: At,
        budget: u64,
    ) -> NodeResult {
        if self.aborted.is_some() {
            return NodeResult::OPEN;
        }
        let depth_cut = self.depth_cut;
        let limit = self.cap_nodes(budget);
        let r = self.root_mid(pos, at);
        if self.uncap_nodes(limit) {
            self.aborted = None;
        }
        self.depth_cut = depth_cut;
        r
    }

    /// "No mate within `plies`" for the attacker to move at `pos`: true on
    /// every path, for that many plies only.
    /// `drop_free` as found by the caller (see [`NodeResult::drop_free`]).
    pub(crate) fn no_mate_within(
        &mut self,
        counting: Counting,
        pos: &Position,
        plies: u32,
        drop_free: bool,
    ) -> NodeResult {
        self.depth_cut = true;
        NodeResult::disproven(
            self.attacker_hand(pos),
            plies as u16,
            drop_free && counting.marks_drop_free(),
        )
    }

    /// The state of the child reached from `pos` by `m` (with `at` the
    /// parent's place), and its path hash. The move is played only when
    /// the child is new: a child the table or the path knows is looked up
    /// by the keys and hand it will have (about half the look-ups of a
    /// long search).
    fn child_state_after(&mut self, pos: &mut Position, m: Move, at: At) -> (NodeResult, u64) {
        let remaining = at.mode.remaining(at.ply + 1);
        // The board key once, for both keys.
        let board_key = pos.board_key_after(m);
        let key = board_key ^ pos.hand_key_after(m);
        let hand = pos.hand_after(m, self.attacker);
        match self.known_child(at.mode, key, board_key, hand, at.path, remaining) {
            Ok(known) => known,
            Err(child_path) => {
                let undo = pos.do_move(m);
                let r = self.new_child(at.mode, pos, remaining);
                pos.undo_move(m, undo);
                (r, child_path)
            }
        }
    }

    /// The state of the child with keys `key` and `board_key` and attacker
    /// hand `hand` (reached from path hash `path`, `remaining` plies left
    /// for it), when the table or the path knows it (with its path hash);
    /// else `Err` with its path hash: a new node.
    fn known_child(
        &mut self,
        mode: Mode,
        key: u64,
        board_key: u64,
        hand: Hand,
        path: u64,
        remaining: u32,
    ) -> Result<(NodeResult, u64), u64> {
        let child_path = extend_path(path, key);
        let may_be_recorded = self.reps.may_have(mode.counting, child_path);
        let probe = self
            .probe_keyed(mode.counting, board_key, hand, remaining)
            .map(|p| within_remaining(mode, NodeResult::of_probe(&p), remaining));
        if let Some(r) = probe
            && r.dn == 0
        {
            return Ok((r, child_path));
        }
        let known = match self.reps.repeated_at(board_key, hand) {
            // The position it repeats fails if this one is to: no mate
            // within the plies left here (fewer than there), or at all.
            Some(head) => Some(PathResult {
                head,
                len: if mode.bounded {
                    remaining.min(DEPTH_ANY as u32 - 1) as u16
                } else {
                    DEPTH_ANY
                },
                hand,
            }),
            None if may_be_recorded => self.reps.recorded(mode.counting, child_path, mode.bounded),
            None => None,
        };
        if let Some(k) = known {
            self.stats.rep_hits += 1;
            let r = NodeResult {
                pn: INF,
                dn: 0,
                hand: k.hand,
                len: k.len,
                loop_head: k.head,
                drop_free: false,
            };
            return Ok((r, child_path));
        }
        match probe {
            Some(r) => {
                self.stats.tt_hits += 1;
                Ok((r, child_path))
            }
            None => Err(child_path),
        }
    }

    /// The state of `pos`, a child the table does not know (`remaining`
    /// plies left for it), evaluated and stored. Under a length bound an
    /// attacker's position with three plies left or more is not tested
    /// for a mate in one: most such children are never searched (the
    /// defender's node is refuted by another reply), and one that is gets
    /// the test then, from the frontier or its own expansion.
    fn new_child(&mut self, mode: Mode, pos: &mut Position, remaining: u32) -> NodeResult {
        self.stats.new_nodes += 1;
        let attacker = pos.side_to_move() == self.attacker;
        if mode.bounded && attacker && remaining <= 1 {
            if remaining == 0 {
                // The attacker has no ply left: no mate, nothing worth
                // storing.
                return self.no_mate_within(mode.counting, pos, 0, true);
            }
            if let Some(r) = self.frontier(mode.counting, pos) {
                return r;
            }
        }
        let mate_in_one = !(mode.bounded && attacker && remaining >= 3);
        let r = self.evaluate_new(mode.counting, pos, mate_in_one);
        within_remaining(mode, r, remaining)
    }

    /// A table result under `mode` as it holds with `remaining` plies
    /// left (see [`within_remaining`]).
    pub(crate) fn usable(mode: Mode, p: &Probe, remaining: u32) -> NodeResult {
        within_remaining(mode, NodeResult::of_probe(p), remaining)
    }

    /// Searches `pos` (reached by path hash `path`, already on the path,
    /// at `ply` from the root) under `mode` until its proof number reaches
    /// `thpn` or its disproof number `thdn`, or it is solved, or a limit is
    /// hit.
    pub fn mid(
        &mut self,
        mode: Mode,
        pos: &mut Position,
        path: u64,
        thpn: u32,
        thdn: u32,
        ply: u32,
    ) -> NodeResult {
        self.count_node();
        if mode.nest > 0 {
            self.stats.nested_nodes += 1;
        }
        let start_nodes = self.nodes;
        let at = At { mode, path, ply };
        let or_node = pos.side_to_move() == self.attacker;
        self.stats.max_ply = self.stats.max_ply.max(ply);
        // Under tsume counting, a defender at the bound may still be mated
        // when every defence is a drop between checker and king (each may
        // be a useless interposition), or it has none.
        if ply > mode.ply_limit
            || (ply == mode.ply_limit && (or_node || Self::defends_at_bound(mode.counting, pos)))
        {
            return self.cut(mode, pos, path, ply, or_node);
        }
        if mode.bounded && or_node {
            if ply + 1 == mode.ply_limit
                && let Some(r) = self.frontier(mode.counting, pos)
            {
                return r;
            }
            if (ply + 3 == mode.ply_limit || ply + 5 == mode.ply_limit)
                // Once expanded (a best move stored), the test failed before.
                && self.probe(mode.counting, pos).is_none_or(|p| p.mv.is_none())
                && let Some(r) = self.frontier_within(mode, pos, mode.ply_limit - ply)
            {
                return r;
            }
        }
        let drops = if mode.counting.is_tsume() && !or_node && mode.nest < MAX_NEST {
            DropInterpositions::of(pos)
        } else {
            DropInterpositions::NONE
        };
        let mut node = Node::expand(
            pos,
            or_node,
            mode.counting.ignored(),
            drops,
            self.spare.pop(),
        );
        if node.children.is_empty() {
            self.spare.push(node);
            return self.finish_without_moves(mode.counting, pos, or_node);
        }
        for c in node.children.iter() {
            if c.prev == super::node::NO_PREV {
                // The fallback namespace too: a child not final in this one
                // is looked up there as well (see `probe`).
                let key = pos.board_key_after(c.mv);
                self.table
                    .prefetch(key ^ mode.counting.salt(self.base_salt));
                if let Some(fallback) = mode.counting.fallback() {
                    self.table.prefetch(key ^ fallback.salt(self.base_salt));
                }
            }
        }
        let drops_alone = DropTiming::of(mode.counting) == DropTiming::Alone;
        loop {
            self.look_at_new_children(pos, at, &mut node, or_node);
            let (pn, dn) = combine(&node.children, or_node);
            if pn == 0 || dn == 0 {
                let work = self.nodes - start_nodes + 1;
                let r = self.finish(pos, at, &node, pn == 0, work);
                self.spare.push(node);
                return r;
            }
            if pn >= thpn || dn >= thdn || self.aborted.is_some() {
                let r = NodeResult::open(pn, dn, Hand::EMPTY);
                let best = select(&node.children, or_node).0;
                let work = self.nodes - start_nodes + 1;
                let kept = NodeResult {
                    len: open_tag(mode, ply),
                    ..r
                };
                self.store(
                    mode.counting,
                    pos,
                    &kept,
                    Some(node.children[best].mv),
                    work,
                );
                self.spare.push(node);
                return r;
            }
            let (best, second) = if self.helper == 0 {
                select(&node.children, or_node)
            } else {
                select_shuffled(&node.children, or_node, self.helper ^ pos.key())
            };
            let c = node.children[best];
            let wide = widen(second, mode.bounded && or_node);
            let (child_thpn, child_thdn) = if or_node {
                (thpn.min(wide), sub_sibling_sum(thdn, dn, c.dn))
            } else {
                (sub_sibling_sum(thpn, pn, c.pn), thdn.min(wide))
            };
            let m = c.mv;
            let undo = pos.do_move(m);
            self.reps.push(pos.board_key(), self.attacker_hand(pos));
            let child_path = node.paths[best];
            // A drop whose useless test is open is searched in rounds, each
            // followed by a share of its nodes for the test; a round that
            // runs out doubles the next one's nodes (see `judge_drop`).
            let is_drop = node.drops.contains(m);
            let budget = if is_drop { node.test_budgets[best] } else { 0 };
            let before = self.nodes;
            let limit = (budget > 0).then(|| self.cap_nodes(budget));
            let mut r = stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || {
                self.mid(mode, pos, child_path, child_thpn, child_thdn, ply + 1)
            });
            if let Some(limit) = limit
                && self.uncap_nodes(limit)
            {
                self.aborted = None;
                node.test_budgets[best] = budget.saturating_mul(2);
            }
            self.reps.pop();
            pos.undo_move(m, undo);
            let verdict = if is_drop && !drops_alone && node.counted_base().is_none() {
                let v = self.judge_early_drop(pos, at, m, &mut r);
                if v == DropVerdict::Pending {
                    node.children[best].pending = true;
                    node.children[best].evaluated = false;
                    continue;
                }
                v
            } else if is_drop {
                let test = if budget > 0 {
                    ((self.nodes - before) / USELESS_TEST_SHARE).max(1)
                } else {
                    0
                };
                let v = self.judge_drop(pos, at, &mut node, m, &mut r, test);
                if v == DropVerdict::Counted {
                    node.test_budgets[best] = 0;
                }
                v
            } else {
                DropVerdict::Counted
            };
            node.children[best].set(&r, verdict);
        }
    }

    /// The result of a node cut at the ply limit: under a length bound no
    /// mate within the plies left (on every path); without one a failure
    /// of this path only.
    fn cut(
        &mut self,
        mode: Mode,
        pos: &Position,
        path: u64,
        ply: u32,
        or_node: bool,
    ) -> NodeResult {
        self.depth_cut = true;
        if mode.bounded {
            // A defender at the bound escapes under tsume counting too
            // when it has a move that always counts.
            let drop_free =
                mode.counting.marks_drop_free() && (or_node || has_counted_evasion(pos));
            return NodeResult::disproven(
                self.attacker_hand(pos),
                mode.ply_limit.saturating_sub(ply) as u16,
                drop_free,
            );
        }
        let r = PathResult {
            head: WHOLE_PATH,
            len: 0,
            hand: Hand::EMPTY,
        };
        self.reps.record_lasting(mode.counting, path, r);
        NodeResult {
            pn: INF,
            dn: 0,
            hand: r.hand,
            len: r.len,
            loop_head: r.head,
            drop_free: false,
        }
    }

    /// Looks up (or evaluates) the children of `node` (at `pos`, placed at
    /// `at`) that became ready, judging drops between checker and king as
    /// they come (see [`super::drops`]). At an OR node it stops at the
    /// first proven child.
    fn look_at_new_children(&mut self, pos: &mut Position, at: At, node: &mut Node, or_node: bool) {
        // Drop interpositions are judged against the other defences
        // (see `super::interposition`, "Deciding it under a bound"):
        // while those are open, a drop is searched like any defence and
        // a failed one refutes when its set-aside positions are not
        // mated within the plies left; else it waits (pending) until
        // they are all proven, and then the longest of them is the
        // bound (see `DropTiming` for the other rules).
        let timing = DropTiming::of(at.mode.counting);
        let n = node.children.len();
        let mut base = None;
        for i in (0..n).chain(0..n) {
            if !node.is_ready(i) {
                continue;
            }
            let c = node.children[i];
            let is_drop = node.drops.contains(c.mv);
            let waits = is_drop && timing != DropTiming::Alone;
            if waits && base.is_none() {
                base = node.counted_base();
                if base.is_none() && (c.pending || timing == DropTiming::AfterBase) {
                    continue;
                }
            }
            let (mut r, child_path) = self.child_state_after(pos, c.mv, at);
            let verdict = if waits && base.is_none() {
                let v = self.judge_early_drop(pos, at, c.mv, &mut r);
                if v == DropVerdict::Pending {
                    node.children[i].pending = true;
                    continue;
                }
                if v == DropVerdict::Open {
                    node.test_budgets[i] = FIRST_USELESS_ROUND_NODES;
                }
                v
            } else if is_drop {
                let v = self.judge_drop(pos, at, node, c.mv, &mut r, 0);
                if v == DropVerdict::Open {
                    node.test_budgets[i] = FIRST_USELESS_ROUND_NODES;
                }
                v
            } else {
                DropVerdict::Counted
            };
            node.children[i].set(&r, verdict);
            node.paths[i] = child_path;
            // An OR node with a proven child is proven: no need to look further.
            if or_node && r.pn == 0 {
                break;
            }
        }
    }

    /// The loop head of a node's failure whose children's failures rely
    /// on the path from `head` on: [`NO_LOOP`] (it holds on every path)
    /// when that is the node itself or below.
    #[inline]
    fn local_loops(&self, head: u32) -> u32 {
        if head != WHOLE_PATH && head >= self.reps.depth() {
            NO_LOOP
        } else {
            head
        }
    }

    /// Builds, stores and returns the final result of the solved `node`
    /// at `pos` (placed at `at`).
    fn finish(
        &mut self,
        pos: &Position,
        at: At,
        node: &Node,
        proven: bool,
        work: u64,
    ) -> NodeResult {
        let or_node = pos.side_to_move() == self.attacker;
        let counting = at.mode.counting;
        let children = &node.children;
        let r;
        let mut mv = None;
        if or_node && proven {
            let best = children
                .iter()
                .filter(|c| c.pn == 0)
                .min_by_key(|c| c.len)
                .expect("a proven child");
            mv = Some(best.mv);
            r = NodeResult::proven(
                hands::or_proof_hand(pos, best.mv, best.hand),
                best.len.saturating_add(1),
            );
        } else if !or_node && proven {
            let mut max = Hand::EMPTY;
            let mut len = None;
            let mut useless_len = 0;
            for c in children {
                max = max.max(c.hand);
                if c.useless {
                    // Not counted, but judged useless under a bound the
                    // node's length must reach.
                    useless_len = useless_len.max(c.len);
                } else if len.is_none_or(|l| c.len >= l) {
                    len = Some(c.len);
                    mv = Some(c.mv);
                }
            }
            // Every defence a useless interposition: mated here.
            r = NodeResult::proven(
                hands::and_proof_hand(pos, max),
                len.map_or(0, |l| l.saturating_add(1)).max(useless_len),
            );
        } else if or_node {
            // Every check fails.
            let mut min: Option<Hand> = None;
            let mut depth = DEPTH_ANY;
            let mut head = NO_LOOP;
            let mut drop_free = counting.marks_drop_free();
            for c in children {
                let h = hands::or_disproof_from_child(pos, c.mv, c.hand);
                min = Some(min.map_or(h, |m| m.min(h)));
                depth = depth.min(c.len);
                head = head.min(c.loop_head);
                drop_free &= c.drop_free;
            }
            r = NodeResult {
                pn: INF,
                dn: 0,
                hand: hands::or_disproof_hand(pos, min.unwrap_or(Hand::EMPTY)),
                len: deeper(depth),
                loop_head: self.local_loops(head),
                drop_free,
            };
        } else {
            // Some defence refutes every attack; prefer one that holds on
            // more paths (relies on a later part of this one), then one
            // that holds under tsume counting too (not a drop between
            // checker and king, refuting without one).
            let drops = if counting.marks_drop_free() {
                DropInterpositions::of(pos)
            } else {
                DropInterpositions::NONE
            };
            let counts = |c: &super::node::Child| c.drop_free && !drops.contains(c.mv);
            let refuting = children
                .iter()
                .filter(|c| c.dn == 0)
                .max_by_key(|c| (self.local_loops(c.loop_head), c.len, counts(c)))
                .expect("a disproven child");
            let mut depth = deeper(refuting.len);
            if refuting.capped && depth != DEPTH_ANY {
                depth = depth.min(at.remaining().min(DEPTH_ANY as u32 - 1) as u16);
            }
            mv = Some(refuting.mv);
            r = NodeResult {
                pn: INF,
                dn: 0,
                hand: hands::and_disproof_hand(pos, refuting.mv, refuting.hand),
                len: depth,
                loop_head: self.local_loops(refuting.loop_head),
                drop_free: counting.marks_drop_free() && counts(refuting),
            };
        }
        if r.loop_head != NO_LOOP {
            self.stats.path_records += 1;
            let k = PathResult {
                head: r.loop_head,
                len: r.len,
                hand: r.hand,
            };
            if at.mode.bounded {
                self.reps.record(at.mode.counting, at.path, k);
            } else {
                self.reps.record_lasting(at.mode.counting, at.path, k);
            }
        } else {
            self.store(counting, pos, &r, mv, work);
        }
        r
    }
}

/// The first proof number of a position disproven for fewer plies than
/// are left now (the bound grew since): the attacker failed there before,
/// so the search looks at other moves first.
const SHALLOW_DISPROOF_PN: u32 = 4;

/// Under tsume counting, the first proof number of a position mated in
/// more plies than are left, before one more for every two plies too
/// many (see [`within_remaining`]).
const LONG_PROOF_PN: u32 = 2;

/// The largest first proof number of a position mated in more plies than
/// are left (see [`within_remaining`]).
const LONG_PROOF_MAX_PN: u32 = 16;

/// The length field of an open entry left by a search under `mode` at
/// `ply` ([`open_len`]; 0 without a bound).
#[inline]
fn open_tag(mode: Mode, ply: u32) -> u16 {
    if mode.bounded {
        open_len(mode.remaining(ply))
    } else {
        0
    }
}

/// `r` as it holds with `remaining` plies left under `mode`: a disproof
/// that holds only for fewer plies, or (under a length bound) a mate
/// longer than the plies left, is no final result here. Such a disproof
/// still says the position is hard to mate: it starts with proof number
/// [`SHALLOW_DISPROOF_PN`]. Such a mate starts with 1 (under tsume
/// counting [`LONG_PROOF_PN`]), and one more for every two plies it is
/// too long (at most [`LONG_PROOF_MAX_PN`]): a mate a little shorter is
/// often a detour away from the known one, a much shorter one seldom.
/// Taken as 1, the known mate's line is followed to its end, where a
/// shorter bound is hardest to settle, before any other move is tried.
/// Under tsume counting, starting at 1 left a bound just under the mate
/// known open on a line of a thousand plies, its shorter mate off the
/// line; the plain searches keep 1, as their questions along a line, a
/// small budget each, need the line followed (`docs/measurements.md`).
fn within_remaining(mode: Mode, r: NodeResult, remaining: u32) -> NodeResult {
    // Without a length bound a proof of any length is final.
    let unsettled =
        (r.dn == 0 || (mode.bounded && r.pn == 0)) && !settles_within(r.pn, r.dn, r.len, remaining);
    if unsettled {
        let pn = if r.dn == 0 {
            SHALLOW_DISPROOF_PN
        } else {
            let first = if mode.counting.is_tsume() {
                LONG_PROOF_PN
            } else {
                1
            };
            (first + u32::from(r.len).saturating_sub(remaining) / 2).min(LONG_PROOF_MAX_PN)
        };
        NodeResult::open(pn, 1, Hand::EMPTY)
    } else {
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mate_too_long_for_the_plies_left_starts_harder_the_longer_it_is() {
        let mode = Mode::within(Counting::Plain, 31);
        let pn_in = |mode, len, remaining| {
            let r = within_remaining(mode, NodeResult::proven(Hand::EMPTY, len), remaining);
            assert!(
                r.pn != 0 && r.dn == 1,
                "{len} plies with {remaining} left: {r:?}"
            );
            r.pn
        };
        let pn = |len, remaining| pn_in(mode, len, remaining);
        // Two plies too long: one detour to cut. Ten: five of them.
        assert_eq!(pn(13, 11), 2);
        assert_eq!(pn(21, 11), 6);
        assert_eq!(pn(211, 11), LONG_PROOF_MAX_PN);
        // Under tsume counting one more: the bound just under the mate
        // known must not follow its line first.
        let tsume = Mode::within(
            Counting::Tsume(crate::solver::interposition::UselessRule::default()),
            31,
        );
        assert_eq!(pn_in(tsume, 13, 11), 3);
        assert_eq!(pn_in(tsume, 21, 11), 7);
        assert_eq!(pn_in(tsume, 211, 11), LONG_PROOF_MAX_PN);
        // Within the plies left the proof stands; without a bound any does.
        assert_eq!(
            within_remaining(mode, NodeResult::proven(Hand::EMPTY, 9), 11).pn,
            0
        );
        let free = Mode::unbounded(Counting::Plain);
        assert_eq!(
            within_remaining(free, NodeResult::proven(Hand::EMPTY, 21), 11).pn,
            0
        );
        // A disproof for fewer plies than are left, as before.
        let shallow = within_remaining(mode, NodeResult::disproven(Hand::EMPTY, 9, false), 11);
        assert_eq!((shallow.pn, shallow.dn), (SHALLOW_DISPROOF_PN, 1));
    }

    /// The main thread of a crew goes back to its posted root once the
    /// table says it is solved (a helper's result), instead of searching
    /// on alone in a subtree of its own: here, a position whose disproof
    /// takes about a million nodes, with its disproof already stored.
    #[test]
    fn the_main_thread_stops_once_its_posted_root_is_solved_in_the_table() {
        let mut pos: Position = "4R3n/6G2/8k/9/8N/9/9/9/9 b GSPr2b2g3s2n4l17p 1"
            .parse()
            .unwrap();
        let crew = Crew::new(u64::MAX);
        let mut solver = crate::solver::Solver::new(64);
        let salt = crate::solver::out_of_play_salt(&pos);
        let mut search = solver.search(Color::Black, salt, 4_000_000, None);
        search.crew = Some(&crew);
        let hand = search.attacker_hand(&pos);
        search.table.store(
            pos.board_key() ^ Counting::Plain.salt(salt),
            hand,
            NodeResult::disproven(hand, DEPTH_ANY, false).record(None),
            1 << 20,
        );
        search.reps.clear();
        search.reps.push(pos.board_key(), hand);
        let at = At {
            mode: Mode::unbounded(Counting::Plain),
            path: pos.key(),
            ply: 0,
        };
        let r = search.root_mid(&mut pos, at);
        assert_eq!((r.dn, r.len), (0, DEPTH_ANY));
        assert!(search.aborted.is_none(), "{:?}", search.aborted);
        assert!(search.nodes <= 2 * RECRUIT_STEP, "{} nodes", search.nodes);
    }

    /// While a helper searches, a shared table grows on a helper, which
    /// takes the new half's page faults, not on the main thread; with no
    /// helper thread, on the main thread (with one waiting for a job, see
    /// `parallel::tests`).
    /// A new attacker's position is tested for a mate in one where it is
    /// worth it: without a bound, and with one ply left under one; with
    /// three plies left or more under a bound it is left open, for the
    /// frontier or its own expansion to find.
    #[test]
    fn a_new_attackers_position_is_tested_for_a_mate_in_one_only_where_it_pays() {
        // G*5b mates: the pawn on 5c guards the gold.
        let pos: Position = "4k4/9/4P4/9/9/9/9/9/9 b G 1".parse().unwrap();
        let stop = AtomicBool::new(false);
        let progress = super::super::SearchProgress::default();
        let first = |mode: Mode, remaining: u32| {
            let table = Table::new(1);
            let mut reps = Repetitions::new(64);
            let mut search = Search::new(&table, &mut reps, &stop, &progress, Color::Black, 0);
            search.new_child(mode, &mut pos.clone(), remaining)
        };
        let free = Mode::unbounded(Counting::Plain);
        assert_eq!(first(free, free.remaining(1)).pn, 0);
        let bound = Mode::within(Counting::Plain, 5);
        assert_eq!(first(bound, 1).pn, 0);
        for remaining in [3, 5] {
            let r = first(bound, remaining);
            assert!(r.pn != 0 && r.dn != 0, "{remaining} left: {r:?}");
        }
        // Searched, the position is mated in one all the same.
        let table = Table::new(1);
        let mut reps = Repetitions::new(64);
        let mut search = Search::new(&table, &mut reps, &stop, &progress, Color::Black, 0);
        let mut root = pos.clone();
        search.reps.push(root.board_key(), root.hand(Color::Black));
        let key = root.key();
        let r = search.mid(bound, &mut root, key, INF, INF, 0);
        assert_eq!((r.pn, r.len), (0, 1));
    }

    #[test]
    fn a_shared_table_grows_on_a_helper_while_one_searches() {
        let table = Table::with_clusters(64, 1024);
        table.share();
        table.fill_for_growth_tests(0);
        let crew = Crew::new(u64::MAX);
        let stop = AtomicBool::new(false);
        let progress = super::super::SearchProgress::default();
        let (mut main_reps, mut helper_reps) = (Repetitions::new(64), Repetitions::new(64));
        let mut main = Search::new(&table, &mut main_reps, &stop, &progress, Color::Black, 0);
        main.crew = Some(&crew);
        let mut helper = Search::new(&table, &mut helper_reps, &stop, &progress, Color::Black, 0);
        helper.crew = Some(&crew);
        helper.helper = 1;
        let start = table.bytes();
        let searching = crew.searching();
        // The main thread at its step, a helper searching: not grown.
        main.nodes = RECRUIT_STEP - 1;
        main.count_node();
        assert_eq!(table.bytes(), start);
        // The helpers' nodes short of a step, then past one.
        helper.nodes = NODE_STEP - 1;
        helper.count_node();
        assert_eq!(table.bytes(), start);
        crew.nodes
            .store(RECRUIT_STEP - NODE_STEP, Ordering::Relaxed);
        helper.nodes = 2 * NODE_STEP - 1;
        helper.count_node();
        assert_eq!(table.bytes(), 2 * start, "grown by the helper");
        // No helper thread: the main thread grows it.
        drop(searching);
        table.fill_for_growth_tests(400);
        main.nodes = 2 * RECRUIT_STEP - 1;
        main.count_node();
        assert_eq!(table.bytes(), 4 * start, "grown by the main thread");
        assert!(main.aborted.is_none() && helper.aborted.is_none());
    }

    /// A plain proof too long for the plies left does not hide what a
    /// tsume search under the bound left in its own namespace: read for
    /// the proof, the position would start over from the proof's first
    /// numbers each time it is entered (a bound of 橋本587 visited a few
    /// thousand positions tens of millions of times that way).
    #[test]
    fn a_plain_proof_too_long_does_not_hide_the_tsume_search_under_a_bound() {
        use crate::solver::interposition::UselessRule;
        let pos: Position = "4k4/9/9/9/9/9/9/9/9 b G2r2b3g4s4n4l18p 1".parse().unwrap();
        let mut solver = crate::solver::Solver::new(1);
        let salt = crate::solver::out_of_play_salt(&pos);
        let search = solver.search(Color::Black, salt, 1000, None);
        let hand = search.attacker_hand(&pos);
        let tsume = Counting::Tsume(UselessRule::default());
        let numbers = |p: Option<Probe>| p.map(|p| (p.pn, p.dn, p.len));
        search.table.store(
            pos.board_key() ^ Counting::Plain.salt(salt),
            hand,
            NodeResult::proven(hand, 13).record(None),
            100,
        );
        // Nothing in the tsume namespace: the plain proof, for its line.
        assert_eq!(
            numbers(search.probe_within(tsume, &pos, 11)),
            Some((0, INF, 13))
        );
        // Left open by a search with 11 plies left (see `open_tag`).
        let mode = Mode::within(tsume, 11);
        let left = NodeResult {
            len: open_tag(mode, 0),
            ..NodeResult::open(3, 7, hand)
        };
        search.table.store(
            pos.board_key() ^ tsume.salt(salt),
            hand,
            left.record(None),
            100,
        );
        assert_eq!(
            numbers(search.probe_within(tsume, &pos, 11)),
            Some((3, 7, 12))
        );
        // With other plies left, the plain proof's estimate, as before.
        assert_eq!(
            numbers(search.probe_within(tsume, &pos, 9)),
            Some((0, INF, 13))
        );
        // With the plies for it the plain proof settles the question.
        assert_eq!(
            numbers(search.probe_within(tsume, &pos, 13)),
            Some((0, INF, 13))
        );
    }
}
