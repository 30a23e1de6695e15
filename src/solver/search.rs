//! The df-pn loop (Nagai 2002) with 1+epsilon thresholds, one ply of
//! look-ahead at new nodes (df-pn+), proof and disproof hands, and
//! path-keyed repetition results.

use std::sync::atomic::{AtomicBool, Ordering};

use hashbrown::HashMap;
use std::time::Instant;

use crate::core::movegen::{MoveList, generate_checks};
use crate::core::{Color, Hand, Move, PieceKind, Position};

use super::Limit;
use super::hands;
use super::interposition::{
    DropInterpositions, Ignored, UNUSED_PIECE_EXTRA_PLIES, UselessRule, counted_evasions,
    generate_counted_evasions, has_counted_evasion, set_aside,
};
use super::repetition::{NO_LOOP, PathResult, Repetitions, WHOLE_PATH, extend_path};
use super::tt::{INF, MAX_FINITE, Probe, Table, settles_within};

/// Search depth past which a line is cut (treated like a repetition on
/// this path, so a "no mate" that needed it is reported as unknown).
pub const MAX_PLY: u32 = 3000;

/// The search recurses once per ply. When less than this much stack is
/// left, the next levels run on a fresh segment of `STACK_SEGMENT` bytes,
/// so deep lines work on any thread, whatever its stack.
pub(crate) const STACK_RED_ZONE: usize = 128 * 1024;
pub(crate) const STACK_SEGMENT: usize = 8 * 1024 * 1024;

/// What a search of one node returns.
#[derive(Copy, Clone, Debug)]
pub(crate) struct NodeResult {
    pub pn: u32,
    pub dn: u32,
    /// Proof or disproof hand when final.
    pub hand: Hand,
    pub len: u16,
    /// For a disproof that holds only on this path, the place of the
    /// earliest path position it relies on (see [`super::repetition`]);
    /// [`NO_LOOP`] when it holds on every path.
    pub loop_head: u32,
    /// A disproof that holds under tsume counting too (see
    /// [`crate::solver::tt::Probe::drop_free`]); set only by searches that
    /// count every interposition.
    pub drop_free: bool,
}

impl NodeResult {
    /// Nothing known: what a search cut short by a limit leaves.
    pub(crate) const OPEN: NodeResult = NodeResult {
        pn: 1,
        dn: 1,
        hand: Hand::EMPTY,
        len: 0,
        loop_head: NO_LOOP,
        drop_free: false,
    };
}

#[derive(Copy, Clone)]
struct Child {
    mv: Move,
    pn: u32,
    dn: u32,
    hand: Hand,
    len: u16,
    loop_head: u32,
    /// Whether `pn`/`dn` were looked up or estimated yet.
    evaluated: bool,
    /// A sibling that must be solved before this child is looked at
    /// (delayed expansion), or `NO_PREV`.
    prev: u16,
    /// A useless interposition (tsume counting): mated, not counted.
    useless: bool,
    /// An interposition found not useless under this node's bound: its
    /// failure holds for this bound only (with more plies it may be useless).
    capped: bool,
    /// See [`NodeResult::drop_free`].
    drop_free: bool,
    /// A drop interposition that failed while the other defences were
    /// still open, and may be useless: it waits, not evaluated, until
    /// they are all proven (see [`Search::judge_early_drop`]).
    pending: bool,
}

const NO_PREV: u16 = u16::MAX;

impl Child {
    #[inline(always)]
    fn is_final(&self) -> bool {
        self.evaluated && (self.pn == 0 || self.dn == 0)
    }

    /// Takes the result of a look-up or a search, with what was found of
    /// the move as a drop interposition (`Counted` for any other move).
    #[inline(always)]
    fn set(&mut self, r: &NodeResult, verdict: DropVerdict) {
        self.useless = verdict == DropVerdict::Useless;
        self.capped = verdict == DropVerdict::Capped;
        self.pn = r.pn;
        self.dn = r.dn;
        self.hand = r.hand;
        self.len = r.len;
        self.loop_head = r.loop_head;
        self.drop_free = r.drop_free;
        self.evaluated = true;
    }
}

/// Links moves that need not be searched side by side: the defender's
/// drops on one square (a pawn first; a stronger piece only once the
/// weaker one is refuted), and a pawn, bishop, rook (or lance to the
/// second rank) not promoting, after the same move promoting. Searching
/// them all at once inflates the proof numbers; the linked move is still
/// searched before any result is final.
/// The children of a node, not yet evaluated, with their delayed links.
/// Kept out of line so the move list does not sit in every search frame.
#[inline(never)]
fn expand(pos: &Position, or_node: bool, ignored: Ignored) -> Vec<Child> {
    let mut moves = MoveList::new();
    if or_node {
        generate_checks(pos, &mut moves);
    } else {
        generate_counted_evasions(pos, ignored, &mut moves);
    }
    let mut prev = vec![NO_PREV; moves.len()];
    link_delayed(pos, &moves, or_node, &mut prev);
    moves
        .iter()
        .zip(prev)
        .map(|(&mv, prev)| Child {
            mv,
            pn: 1,
            dn: 1,
            hand: Hand::EMPTY,
            len: 0,
            loop_head: NO_LOOP,
            evaluated: false,
            prev,
            useless: false,
            capped: false,
            drop_free: false,
            pending: false,
        })
        .collect()
}

fn link_delayed(pos: &Position, moves: &[Move], or_node: bool, prev: &mut [u16]) {
    let us = pos.side_to_move();
    let mut last_drop_at = [NO_PREV; 81];
    for (i, &m) in moves.iter().enumerate() {
        prev[i] = NO_PREV;
        if m.is_drop() {
            if !or_node {
                let to = m.to().index();
                prev[i] = last_drop_at[to];
                last_drop_at[to] = i as u16;
            }
            continue;
        }
        if m.is_promotion() {
            continue;
        }
        let from = m.from().expect("board move");
        let Some(piece) = pos.piece_at(from) else {
            continue;
        };
        let delay = match piece.kind() {
            PieceKind::Pawn | PieceKind::Bishop | PieceKind::Rook => true,
            PieceKind::Lance => m.to().relative_rank(us) == 2,
            _ => false,
        };
        if !delay {
            continue;
        }
        let promoted = Move::new(from, m.to(), true);
        for j in (0..i).rev() {
            if moves[j] == promoted {
                prev[i] = j as u16;
                break;
            }
            if moves[j].from() != Some(from) && j + 40 < i {
                break;
            }
        }
    }
}

/// One search over a shared table.
pub(crate) struct Search<'a> {
    pub table: &'a mut Table,
    pub reps: &'a mut Repetitions,
    pub attacker: Color,
    pub salt: u64,
    pub nodes: u64,
    pub node_limit: u64,
    pub deadline: Option<Instant>,
    pub stop: &'a AtomicBool,
    pub progress: &'a super::Progress,
    pub aborted: Option<Limit>,
    pub depth_cut: bool,
    /// Lines are cut at this ply (counted from where `mid` was entered).
    pub ply_limit: u32,
    /// Whether proofs longer than the plies left are set aside (a search
    /// for a mate within `ply_limit`).
    pub bounded: bool,
    /// Tsume counting under a bound: useless interpositions (see
    /// [`super::answer`]) are mated without being counted.
    pub tsume: bool,
    /// A second table namespace whose final results hold here too (the
    /// plain search's, read by the tsume-counting search).
    pub fallback_salt: Option<u64>,
    /// How many useless-interposition tests are open on the stack.
    pub nest: u32,
    /// Interpositions left out (see [`Ignored`]): a defender left with
    /// none of its other moves is mated. Its own table namespace.
    pub ignored: Ignored,
    /// The rule for useless drops under tsume counting (its own table
    /// namespace).
    pub rule: UselessRule,
    /// Under [`UselessRule::PieceUnused`], what the test of a capture found,
    /// by the key of the position after it (see
    /// [`Search::unused_piece_interposition`]). Kept for the whole search,
    /// whatever the path: like the table's, these results do not look at
    /// repetitions.
    pub unused_tests: HashMap<u64, UnusedTest>,
    pub stats: Stats,
}

/// What the test of a capture of a drop interposition by
/// [`UselessRule::PieceUnused`] found.
#[derive(Copy, Clone, Debug)]
pub(crate) enum UnusedTest {
    /// The piece is not used: the drop is useless (with the set-aside
    /// mate's proof hand).
    Unused(Hand),
    /// The piece is used, or there is no mate after the capture under this
    /// bound (none at all when [`MAX_PLY`]).
    UsedWithin(u32),
}

/// Useless-interposition tests open at once, at most (each is a search of
/// the position after the capture, which may hold interpositions itself).
const MAX_NEST: u32 = 8;

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

#[inline(always)]
fn sat_add(a: u32, b: u32) -> u32 {
    (a as u64 + b as u64).min(MAX_FINITE as u64) as u32
}

/// The threshold for the best child given the second best value (1+ε):
/// ε = 1/4, and ε = 1 at an OR node under a length bound. Searches under a
/// bound mostly disprove: every check must be refuted, and switching
/// between checks of close numbers re-expands whole subtrees; at an AND
/// node one refuting defence is enough, and the usual ε finds it sooner.
/// On ten musou problems the answer took 59.7M nodes (104 s) in all with
/// ε = 1 at both kinds of node, 51.5M (84 s) with ε = 1 at OR nodes only
/// (ε = 2 at OR nodes: 50.4M, 93 s; ε = 1/2 at AND nodes: 54.5M, 95 s).
#[inline(always)]
fn widen(second: u32, bounded_or_node: bool) -> u32 {
    if second >= MAX_FINITE {
        return INF;
    }
    let s = second as u64;
    let eps = if bounded_or_node { s } else { s / 4 };
    (s + eps + 1).min(MAX_FINITE as u64) as u32
}

impl Search<'_> {
    #[inline(always)]
    fn key(&self, pos: &Position) -> u64 {
        pos.board_key() ^ self.salt
    }

    #[inline(always)]
    fn attacker_hand(&self, pos: &Position) -> Hand {
        pos.hand(self.attacker)
    }

    /// Whether this search marks its disproofs that hold under tsume
    /// counting too ([`NodeResult::drop_free`]): one that counts every
    /// interposition.
    #[inline(always)]
    fn marks_drop_free(&self) -> bool {
        !self.tsume && self.ignored == Ignored::Nothing
    }

    /// Counts a node and checks the limits; sets `aborted` when one is hit.
    #[inline(always)]
    pub(crate) fn count_node(&mut self) {
        self.nodes += 1;
        if self.nest > 0 {
            self.stats.nested_nodes += 1;
        }
        if self.aborted.is_some() {
            return;
        }
        if self.nodes >= self.node_limit {
            self.aborted = Some(Limit::Nodes);
        } else if self.nodes & 255 == 0 {
            self.progress.publish(self.nodes, self.table);
            if self.stop.load(Ordering::Relaxed) {
                self.aborted = Some(Limit::Stopped);
            } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.aborted = Some(Limit::Time);
            }
        }
    }

    /// Whether the defender at `pos`, at the ply bound, escapes the mate
    /// there: under tsume counting when it has a defence that always
    /// counts, with interpositions ignored when it has one of the others,
    /// and otherwise always (its evasions are not looked at).
    fn defends_at_bound(&self, pos: &Position) -> bool {
        if self.tsume {
            has_counted_evasion(pos)
        } else if self.ignored != Ignored::Nothing {
            !counted_evasions(pos, self.ignored).is_empty()
        } else {
            true
        }
    }

    /// Stores a final or intermediate result of `pos`.
    fn store(&mut self, pos: &Position, r: &NodeResult, mv: Option<Move>, work: u64) {
        if r.loop_head != NO_LOOP {
            return;
        }
        let hand = if r.pn == 0 || r.dn == 0 {
            r.hand
        } else {
            self.attacker_hand(pos)
        };
        let key = self.key(pos);
        self.table
            .store(key, hand, r.pn, r.dn, r.len, mv, work, r.drop_free);
        if self.aborted.is_none() {
            // Growing may take seconds: it gives way to the limits.
            let (stop, deadline) = (self.stop, self.deadline);
            let mut hit = None;
            self.table.grow_if_half_full(|| {
                hit = if stop.load(Ordering::Relaxed) {
                    Some(Limit::Stopped)
                } else if deadline.is_some_and(|d| Instant::now() >= d) {
                    Some(Limit::Time)
                } else {
                    None
                };
                hit.is_some()
            });
            self.aborted = hit;
        }
    }

    /// Starts searches for mates within `limit` plies (`None`: any length).
    /// Path results of an earlier bound no longer hold and are dropped.
    pub fn set_bound(&mut self, limit: Option<u32>) {
        self.bounded = limit.is_some();
        self.ply_limit = limit.map_or(MAX_PLY, |l| l.min(MAX_PLY));
        self.reps.clear_path_results();
    }

    /// What the table knows of `pos` for the current attacker (final
    /// results of the fallback namespace when this one has none).
    pub fn probe(&self, pos: &Position) -> Option<Probe> {
        self.probe_within(pos, u32::MAX)
    }

    /// Like [`probe`](Self::probe), for a search with `remaining` plies
    /// left (see [`Table::probe_within`]).
    pub fn probe_within(&self, pos: &Position, remaining: u32) -> Option<Probe> {
        self.probe_keyed(pos.board_key(), self.attacker_hand(pos), remaining)
    }

    /// [`probe_within`](Self::probe_within) of the position with board key
    /// `board_key` and attacker hand `hand`.
    fn probe_keyed(&self, board_key: u64, hand: Hand, remaining: u32) -> Option<Probe> {
        let own = self
            .table
            .probe_within(board_key ^ self.salt, hand, remaining);
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
        if let Some(salt) = self.fallback_salt
            && let Some(p) = self.table.probe(board_key ^ salt, hand)
        {
            let better_proof =
                p.pn == 0 && own.is_none_or(|o| if o.pn == 0 { p.len < o.len } else { o.dn != 0 });
            if better_proof || (p.dn == 0 && p.len == DEPTH_ANY) {
                return Some(p);
            }
            // A plain disproof under a length bound that never relies on a
            // drop between checker and king holds here too. (When the look-up
            // above finds nothing, no disproof covers the hand: the cluster
            // is not read again.)
            if own.is_none_or(|o| !o.settles_within(remaining))
                && let Some(d) = self
                    .table
                    .drop_free_disproof(board_key ^ salt, hand, remaining)
            {
                return Some(d);
            }
        }
        own
    }

    /// The final result of a node with no move: at an OR node no check
    /// (disproven), at an AND node no evasion (mated). Stored and returned.
    fn finish_without_moves(&mut self, pos: &Position, or_node: bool) -> NodeResult {
        let r = if or_node {
            NodeResult {
                pn: INF,
                dn: 0,
                hand: hands::or_disproof_hand_without_moves(pos),
                len: DEPTH_ANY,
                loop_head: NO_LOOP,
                drop_free: true,
            }
        } else {
            NodeResult {
                pn: 0,
                dn: INF,
                hand: hands::and_proof_hand(pos, Hand::EMPTY),
                len: 0,
                loop_head: NO_LOOP,
                drop_free: false,
            }
        };
        self.store(pos, &r, None, 1);
        r
    }

    /// Caps the nodes at `budget` more (within the caller's own limit);
    /// returns the limit to give back to [`uncap_nodes`](Self::uncap_nodes).
    pub(crate) fn cap_nodes(&mut self, budget: u64) -> u64 {
        let limit = self.node_limit;
        self.node_limit = limit.min(self.nodes.saturating_add(budget));
        limit
    }

    /// Restores the caller's `limit` after [`cap_nodes`](Self::cap_nodes);
    /// whether the budget ran out, not the caller's limit (the abort it
    /// left is then the caller's to clear).
    pub(crate) fn uncap_nodes(&mut self, limit: u64) -> bool {
        self.node_limit = limit;
        self.aborted == Some(Limit::Nodes) && self.nodes < limit
    }

    /// A plain search (no length bound) of at most `budget` more nodes at
    /// `pos` (on the path by `path`): whether it disproves `pos` for any
    /// length (the result is kept in the table, or on the path when it
    /// depends on it).
    pub(crate) fn no_mate_at_all(
        &mut self,
        pos: &mut Position,
        path: u64,
        ply: u32,
        budget: u64,
    ) -> bool {
        let r = self.plain_search(pos, path, ply, budget);
        r.dn == 0 && (r.loop_head != NO_LOOP || r.len == DEPTH_ANY)
    }

    /// A plain search (no length bound, every interposition counted) of at
    /// most `budget` more nodes at `pos` (on the path by `path`): its
    /// result, open when the budget ran out (the table keeps its numbers).
    fn plain_search(&mut self, pos: &mut Position, path: u64, ply: u32, budget: u64) -> NodeResult {
        self.plain_search_within(pos, path, ply, budget, None)
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
        let r = self.plain_search_within(pos, path, 0, budget, Some(plies));
        self.reps.clear_path_results();
        r
    }

    /// [`plain_search`](Self::plain_search) with a length bound, or none.
    fn plain_search_within(
        &mut self,
        pos: &mut Position,
        path: u64,
        ply: u32,
        budget: u64,
        bound: Option<u32>,
    ) -> NodeResult {
        if self.aborted.is_some() {
            return NodeResult::OPEN;
        }
        let mode = (
            self.salt,
            self.bounded,
            self.tsume,
            self.ply_limit,
            self.depth_cut,
        );
        self.salt = self.fallback_salt.unwrap_or(self.salt);
        self.bounded = bound.is_some();
        self.tsume = false;
        self.ply_limit = bound.map_or(MAX_PLY, |b| b.min(MAX_PLY));
        let limit = self.cap_nodes(budget);
        let r = self.mid(pos, path, INF, INF, ply);
        if self.uncap_nodes(limit) {
            self.aborted = None;
        }
        (
            self.salt,
            self.bounded,
            self.tsume,
            self.ply_limit,
            self.depth_cut,
        ) = mode;
        r
    }

    /// "No mate within `plies`" for the attacker to move at `pos`: true on
    /// every path, for that many plies only.
    /// `drop_free` as found by the caller (see [`NodeResult::drop_free`]).
    fn no_mate_within(&mut self, pos: &Position, plies: u32, drop_free: bool) -> NodeResult {
        self.depth_cut = true;
        NodeResult {
            pn: INF,
            dn: 0,
            hand: self.attacker_hand(pos),
            len: plies as u16,
            loop_head: NO_LOOP,
            drop_free: drop_free && self.marks_drop_free(),
        }
    }

    /// An OR node with one ply left under a length bound, decided without
    /// expanding it: mated in one, or no check leaves the defender without
    /// a move (stored as "no mate within 1"). `None` under tsume counting
    /// when a check leaves the defender drops between checker and king
    /// (they may be useless: the full search judges them).
    fn frontier(&mut self, pos: &mut Position) -> Option<NodeResult> {
        let mut checks = MoveList::new();
        generate_checks(pos, &mut checks);
        if checks.is_empty() {
            return Some(self.finish_without_moves(pos, true));
        }
        let drop_free = match self.mate_in_one(pos, &checks, self.tsume, self.marks_drop_free()) {
            Ok(r) => return Some(r),
            Err(Missed {
                undecided: true, ..
            }) => return None,
            Err(Missed { drop_free, .. }) => drop_free,
        };
        let r = self.no_mate_within(pos, 1, drop_free);
        self.store(pos, &r, None, 1);
        Some(r)
    }

    /// An OR node with three plies left under a length bound, disproven
    /// without expanding it when every check has a reply that counts (not a
    /// drop between checker and king, which may be useless) after which
    /// [`frontier`](Self::frontier) finds no mate in one: stored as "no
    /// mate within 3". `None` otherwise (the full search decides).
    fn frontier_of_three(&mut self, pos: &mut Position) -> Option<NodeResult> {
        let mut checks = MoveList::new();
        generate_checks(pos, &mut checks);
        if checks.is_empty() {
            return Some(self.finish_without_moves(pos, true));
        }
        let mark = self.marks_drop_free();
        let mut drop_free = mark;
        for &c in checks.iter() {
            self.count_node();
            if self.aborted.is_some() {
                return None;
            }
            let undo = pos.do_move(c);
            let drops = if self.tsume || mark {
                DropInterpositions::of(pos)
            } else {
                DropInterpositions::NONE
            };
            let mut replies = MoveList::new();
            generate_counted_evasions(pos, self.ignored, &mut replies);
            let mut refuted = false;
            // The replies that always count first: a refutation among them
            // holds under tsume counting when its own "no mate in one"
            // does. Counting every interposition, the drops come next.
            for drop_pass in [false, true] {
                if drop_pass && (refuted || self.tsume) {
                    break;
                }
                for &e in replies.iter().filter(|&&e| drops.contains(e) == drop_pass) {
                    let undo_e = pos.do_move(e);
                    let r = self.frontier(pos);
                    pos.undo_move(e, undo_e);
                    if let Some(r) = r
                        && r.dn == 0
                    {
                        refuted = true;
                        drop_free &= !drop_pass && r.drop_free;
                        break;
                    }
                }
            }
            pos.undo_move(c, undo);
            if !refuted {
                return None;
            }
        }
        let r = self.no_mate_within(pos, 3, drop_free);
        self.store(pos, &r, None, checks.len() as u64);
        Some(r)
    }

    /// Tries each of `checks` at an OR node for a mate in one; the proof
    /// is stored and returned. Otherwise what [`Missed`] says, its
    /// `undecided` asked for when `undecided` is (under tsume counting),
    /// its `drop_free` when `drop_free` is. A check after which
    /// the king can step away is passed over without playing it
    /// ([`Position::king_can_step_out_after`]): most checks, in a mate
    /// search (98% of those tried on musou-012).
    fn mate_in_one(
        &mut self,
        pos: &mut Position,
        checks: &MoveList,
        undecided: bool,
        drop_free: bool,
    ) -> Result<NodeResult, Missed> {
        let mut some_undecided = false;
        let mut every_reply_counts = drop_free;
        for &m in checks.iter() {
            // Not mated, and not left with drops alone either.
            if pos.king_can_step_out_after(m) {
                continue;
            }
            let undo = pos.do_move(m);
            let mated = if self.ignored != Ignored::Nothing {
                counted_evasions(pos, self.ignored).is_empty()
            } else {
                !crate::core::movegen::has_legal_move(pos)
            };
            let mated_hand = mated.then(|| hands::and_proof_hand(pos, Hand::EMPTY));
            some_undecided |= undecided
                && !mated
                && !DropInterpositions::of(pos).is_empty()
                && !has_counted_evasion(pos);
            every_reply_counts = every_reply_counts && (mated || has_counted_evasion(pos));
            pos.undo_move(m, undo);
            if let Some(h) = mated_hand {
                let r = NodeResult {
                    pn: 0,
                    dn: INF,
                    hand: hands::or_proof_hand(pos, m, h),
                    len: 1,
                    loop_head: NO_LOOP,
                    drop_free: false,
                };
                self.store(pos, &r, Some(m), 1);
                return Ok(r);
            }
        }
        Err(Missed {
            undecided: some_undecided,
            drop_free: every_reply_counts,
        })
    }

    /// The first estimate of a position never searched: mates and
    /// dead ends one ply ahead are found here (df-pn+ look-ahead).
    fn evaluate_new(&mut self, pos: &mut Position) -> NodeResult {
        let hand = self.attacker_hand(pos);
        if pos.side_to_move() == self.attacker {
            // OR node: a mate in one, or no check at all.
            let mut checks = MoveList::new();
            generate_checks(pos, &mut checks);
            if checks.is_empty() {
                return self.finish_without_moves(pos, true);
            }
            if let Ok(r) = self.mate_in_one(pos, &checks, false, false) {
                return r;
            }
            let r = NodeResult {
                pn: 1,
                dn: init_or_dn(checks.len()),
                hand,
                len: 0,
                loop_head: NO_LOOP,
                drop_free: false,
            };
            self.store(pos, &r, None, 0);
            r
        } else {
            // AND node: mated, or the number of evasions.
            let mut evasions = MoveList::new();
            generate_counted_evasions(pos, self.ignored, &mut evasions);
            if evasions.is_empty() {
                return self.finish_without_moves(pos, false);
            }
            let r = NodeResult {
                pn: init_and_pn(&evasions, pos),
                dn: 1,
                hand,
                len: 0,
                loop_head: NO_LOOP,
                drop_free: false,
            };
            self.store(pos, &r, None, 0);
            r
        }
    }

    /// The state of the child reached from `pos` by `m`, with `remaining`
    /// plies left for it, and its path hash. The move is played only when
    /// the child is new: a child the table or the path knows is looked up
    /// by the keys and hand it will have (about half the look-ups of a
    /// long search).
    fn child_state_after(
        &mut self,
        pos: &mut Position,
        m: Move,
        path: u64,
        remaining: u32,
    ) -> (NodeResult, u64) {
        // The board key once, for both keys.
        let board_key = pos.board_key_after(m);
        let key = board_key ^ pos.hand_key_after(m);
        let hand = pos.hand_after(m, self.attacker);
        match self.known_child(key, board_key, hand, path, remaining) {
            Ok(known) => known,
            Err(child_path) => {
                let undo = pos.do_move(m);
                let r = self.new_child(pos, child_path, remaining);
                pos.undo_move(m, undo);
                r
            }
        }
    }

    /// The state of the child with keys `key` and `board_key` and attacker
    /// hand `hand`, when the table or the path knows it (with its path
    /// hash); else `Err` with its path hash: a new node.
    fn known_child(
        &mut self,
        key: u64,
        board_key: u64,
        hand: Hand,
        path: u64,
        remaining: u32,
    ) -> Result<(NodeResult, u64), u64> {
        let child_path = extend_path(path, key);
        let probe = self
            .probe_keyed(board_key, hand, remaining)
            .map(|p| self.usable(&p, remaining));
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
                len: if self.bounded {
                    remaining.min(DEPTH_ANY as u32 - 1) as u16
                } else {
                    DEPTH_ANY
                },
                hand,
            }),
            None => self.reps.recorded(child_path, self.bounded),
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

    /// The state of `pos`, a child the table does not know (reached with
    /// path hash `child_path`, `remaining` plies left for it), evaluated
    /// and stored.
    fn new_child(
        &mut self,
        pos: &mut Position,
        child_path: u64,
        remaining: u32,
    ) -> (NodeResult, u64) {
        self.stats.new_nodes += 1;
        if self.bounded && pos.side_to_move() == self.attacker && remaining <= 1 {
            if remaining == 0 {
                // The attacker has no ply left: no mate, nothing worth
                // storing.
                return (self.no_mate_within(pos, 0, true), child_path);
            }
            if let Some(r) = self.frontier(pos) {
                return (r, child_path);
            }
        }
        let r = self.evaluate_new(pos);
        (self.within_remaining(r, remaining), child_path)
    }

    /// A table result as it holds with `remaining` plies left: a disproof
    /// that holds only for fewer plies, or (under a length bound) a mate
    /// longer than the plies left, is no final result here. Such a
    /// disproof still says the position is hard to mate: it starts with
    /// proof number [`SHALLOW_DISPROOF_PN`].
    fn usable(&self, p: &Probe, remaining: u32) -> NodeResult {
        self.within_remaining(from_probe(p), remaining)
    }

    /// `r` as it holds with `remaining` plies left (see [`usable`](Self::usable)).
    fn within_remaining(&self, r: NodeResult, remaining: u32) -> NodeResult {
        // Without a length bound a proof of any length is final.
        let unsettled = (r.dn == 0 || (self.bounded && r.pn == 0))
            && !settles_within(r.pn, r.dn, r.len, remaining);
        if unsettled {
            NodeResult {
                pn: if r.dn == 0 { SHALLOW_DISPROOF_PN } else { 1 },
                dn: 1,
                hand: Hand::EMPTY,
                len: 0,
                loop_head: NO_LOOP,
                drop_free: false,
            }
        } else {
            r
        }
    }

    /// Searches `pos` (reached by path hash `path`, already on the path)
    /// until its proof number reaches `thpn` or its disproof number `thdn`,
    /// or it is solved, or a limit is hit.
    pub fn mid(
        &mut self,
        pos: &mut Position,
        path: u64,
        thpn: u32,
        thdn: u32,
        ply: u32,
    ) -> NodeResult {
        self.count_node();
        let start_nodes = self.nodes;
        let or_node = pos.side_to_move() == self.attacker;
        self.stats.max_ply = self.stats.max_ply.max(ply);
        // Under tsume counting, a defender at the bound may still be mated
        // when every defence is a drop between checker and king (each may
        // be a useless interposition), or it has none.
        if ply > self.ply_limit
            || (ply == self.ply_limit && (or_node || self.defends_at_bound(pos)))
        {
            self.depth_cut = true;
            if self.bounded {
                // No mate within the plies left: true on every path, for
                // this many plies only.
                return NodeResult {
                    pn: INF,
                    dn: 0,
                    hand: self.attacker_hand(pos),
                    len: self.ply_limit.saturating_sub(ply) as u16,
                    loop_head: NO_LOOP,
                    // A defender at the bound escapes under tsume counting
                    // too when it has a move that always counts.
                    drop_free: self.marks_drop_free() && (or_node || has_counted_evasion(pos)),
                };
            }
            let r = PathResult {
                head: WHOLE_PATH,
                len: 0,
                hand: Hand::EMPTY,
            };
            self.reps.record_lasting(path, r);
            return NodeResult {
                pn: INF,
                dn: 0,
                hand: r.hand,
                len: r.len,
                loop_head: r.head,
                drop_free: false,
            };
        }

        if self.bounded
            && or_node
            && ply + 1 == self.ply_limit
            && let Some(r) = self.frontier(pos)
        {
            return r;
        }
        if self.bounded
            && or_node
            && ply + 3 == self.ply_limit
            // Once expanded (a best move stored), the test failed before.
            && self.probe(pos).is_none_or(|p| p.mv.is_none())
            && let Some(r) = self.frontier_of_three(pos)
        {
            return r;
        }
        let mut children = expand(pos, or_node, self.ignored);
        if children.is_empty() {
            return self.finish_without_moves(pos, or_node);
        }
        let drops = if self.tsume && !or_node && self.nest < MAX_NEST {
            DropInterpositions::of(pos)
        } else {
            DropInterpositions::NONE
        };
        let mut paths: Vec<u64> = vec![0; children.len()];
        // Per drop interposition, the nodes of its next round while its
        // useless test is open (0: no test running).
        let mut test_budgets: Vec<u64> = if drops.is_empty() {
            Vec::new()
        } else {
            vec![0; children.len()]
        };
        for c in children.iter() {
            if c.prev == NO_PREV {
                // The fallback namespace too: a child not final in this one
                // is looked up there as well (see `probe`).
                let key = pos.board_key_after(c.mv);
                self.table.prefetch(key ^ self.salt);
                if let Some(salt) = self.fallback_salt {
                    self.table.prefetch(key ^ salt);
                }
            }
        }
        // The length of the defences that always count, once needed.
        let mut exact_base = CountedBase::Unknown;
        loop {
            // Drop interpositions are judged against the other defences
            // (see `super::interposition`, "Deciding it under a bound"):
            // while those are open, a drop is searched like any defence and
            // a failed one refutes when its set-aside positions are not
            // mated within the plies left; else it waits (pending) until
            // they are all proven, and then the longest of them is the
            // bound. By the looser rule every drop waits.
            let mut base = None;
            // Look at the children that became active.
            for i in (0..children.len()).chain(0..children.len()) {
                let c = children[i];
                if c.evaluated || (c.prev != NO_PREV && !children[c.prev as usize].is_final()) {
                    continue;
                }
                let is_drop = drops.contains(c.mv);
                if is_drop && base.is_none() {
                    base = self.counted_base(&children, drops);
                    if base.is_none()
                        && (c.pending || self.rule != UselessRule::WithinOtherDefences)
                    {
                        continue;
                    }
                }
                let (mut r, child_path) =
                    self.child_state_after(pos, c.mv, path, self.ply_limit.saturating_sub(ply + 1));
                let verdict = if is_drop && base.is_none() {
                    let v = self.judge_early_drop(pos, path, ply, c.mv, &mut r);
                    if v == DropVerdict::Pending {
                        children[i].pending = true;
                        continue;
                    }
                    if v == DropVerdict::Open {
                        test_budgets[i] = FIRST_USELESS_ROUND_NODES;
                    }
                    v
                } else if is_drop {
                    let v = self.judge_drop(
                        pos,
                        path,
                        ply,
                        c.mv,
                        &children,
                        drops,
                        &mut exact_base,
                        &mut r,
                        0,
                    );
                    if v == DropVerdict::Open {
                        test_budgets[i] = FIRST_USELESS_ROUND_NODES;
                    }
                    v
                } else {
                    DropVerdict::Counted
                };
                children[i].set(&r, verdict);
                paths[i] = child_path;
                // An OR node with a proven child is proven: no need to look further.
                if or_node && r.pn == 0 {
                    break;
                }
            }
            let (pn, dn) = combine(&children, or_node);
            if pn == 0 || dn == 0 {
                let work = self.nodes - start_nodes + 1;
                let remaining = self.ply_limit.saturating_sub(ply);
                return self.finish(pos, path, &children, or_node, pn, work, remaining);
            }
            if pn >= thpn || dn >= thdn || self.aborted.is_some() {
                let r = NodeResult {
                    pn,
                    dn,
                    hand: Hand::EMPTY,
                    len: 0,
                    loop_head: NO_LOOP,
                    drop_free: false,
                };
                let best = select(&children, or_node).0;
                self.store(
                    pos,
                    &r,
                    Some(children[best].mv),
                    self.nodes - start_nodes + 1,
                );
                return r;
            }
            let (best, second) = select(&children, or_node);
            let c = children[best];
            let wide = widen(second, self.bounded && or_node);
            let (child_thpn, child_thdn) = if or_node {
                (thpn.min(wide), sub_sibling_sum(thdn, dn, c.dn))
            } else {
                (sub_sibling_sum(thpn, pn, c.pn), thdn.min(wide))
            };
            let m = c.mv;
            let undo = pos.do_move(m);
            self.reps.push(pos.board_key(), self.attacker_hand(pos));
            let child_path = paths[best];
            // A drop whose useless test is open is searched in rounds, each
            // followed by a share of its nodes for the test; a round that
            // runs out doubles the next one's nodes (see `judge_drop`).
            let is_drop = drops.contains(m);
            let budget = if is_drop { test_budgets[best] } else { 0 };
            let before = self.nodes;
            let limit = (budget > 0).then(|| self.cap_nodes(budget));
            let mut r = stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || {
                self.mid(pos, child_path, child_thpn, child_thdn, ply + 1)
            });
            if let Some(limit) = limit
                && self.uncap_nodes(limit)
            {
                self.aborted = None;
                test_budgets[best] = budget.saturating_mul(2);
            }
            self.reps.pop();
            pos.undo_move(m, undo);
            let verdict = if is_drop && self.counted_base(&children, drops).is_none() {
                let v = self.judge_early_drop(pos, path, ply, m, &mut r);
                if v == DropVerdict::Pending {
                    children[best].pending = true;
                    children[best].evaluated = false;
                    continue;
                }
                v
            } else if is_drop {
                let v = self.judge_drop(
                    pos,
                    path,
                    ply,
                    m,
                    &children,
                    drops,
                    &mut exact_base,
                    &mut r,
                    if budget > 0 {
                        ((self.nodes - before) / USELESS_TEST_SHARE).max(1)
                    } else {
                        0
                    },
                );
                if v == DropVerdict::Counted {
                    test_budgets[best] = 0;
                }
                v
            } else {
                DropVerdict::Counted
            };
            children[best].set(&r, verdict);
        }
    }

    /// The longest proof among the defences that are not drop
    /// interpositions, when they are all proven (0 when there are none).
    fn counted_base(&self, children: &[Child], drops: DropInterpositions) -> Option<u32> {
        let mut base = 0u32;
        for c in children.iter().filter(|c| !drops.contains(c.mv)) {
            if !(c.evaluated && c.pn == 0) {
                return None;
            }
            base = base.max(c.len as u32 + 1);
        }
        Some(base)
    }

    /// The exact length of the defences at `pos` (an AND node at `ply`,
    /// reached by `path`) that are not drop interpositions, all proven,
    /// the longest within `upper`: the least even bound from `from` (even,
    /// at least 2) under which every one of them is mated, found by
    /// searches under growing bounds. `from` itself when they are all
    /// mated within it (the length may then be less).
    #[allow(clippy::too_many_arguments)]
    fn exact_base(
        &mut self,
        pos: &mut Position,
        path: u64,
        ply: u32,
        children: &[Child],
        drops: DropInterpositions,
        from: u32,
        upper: u32,
    ) -> u32 {
        let counted: Vec<Move> = children
            .iter()
            .filter(|c| !drops.contains(c.mv))
            .map(|c| c.mv)
            .collect();
        if counted.is_empty() {
            return 0;
        }
        let ply_limit = self.ply_limit;
        let mut b = from;
        'bounds: while b < upper {
            self.ply_limit = ply + b;
            for &m in &counted {
                let undo = pos.do_move(m);
                let child_path = extend_path(path, pos.key() ^ ((b as u64) << 48) ^ 0xba5e);
                let remaining = b - 1;
                let known = self
                    .probe_within(pos, remaining)
                    .map(|p| self.usable(&p, remaining));
                let mated = match known {
                    Some(r) if r.pn == 0 => true,
                    Some(r) if r.dn == 0 => false,
                    _ => {
                        self.nest += 1;
                        self.reps.push(pos.board_key(), self.attacker_hand(pos));
                        let r = stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || {
                            self.mid(pos, child_path, INF, INF, ply + 1)
                        });
                        self.reps.pop();
                        self.nest -= 1;
                        r.pn == 0
                    }
                };
                pos.undo_move(m, undo);
                if self.aborted.is_some() {
                    break 'bounds;
                }
                if !mated {
                    b += 2;
                    continue 'bounds;
                }
            }
            break;
        }
        self.ply_limit = ply_limit;
        b.min(upper.max(2))
    }

    /// Judges the drop interposition `m` at `pos` (an AND node at `ply`,
    /// reached by `path`, with `children`) after a search of it left `r`.
    /// A drop that failed (not mated within the plies left) gets a second
    /// chance: it may be useless (mated without being counted), which is
    /// tested in full. A drop still open gets a test of at most `budget`
    /// nodes (none when 0), so a useless drop need not first be searched
    /// to its failure, which under a long bound may cost far more than the
    /// test. `r` becomes the useless mate when one is found, and open when
    /// a limit stopped the test of a failed drop (its failure then proves
    /// nothing here).
    #[allow(clippy::too_many_arguments)]
    fn judge_drop(
        &mut self,
        pos: &mut Position,
        path: u64,
        ply: u32,
        m: Move,
        children: &[Child],
        drops: DropInterpositions,
        exact_base: &mut CountedBase,
        r: &mut NodeResult,
        budget: u64,
    ) -> DropVerdict {
        if r.pn == 0 {
            return DropVerdict::Counted;
        }
        let failed = r.dn == 0;
        if !failed && budget == 0 {
            return DropVerdict::Open;
        }
        // The budget covers finding the base too (a base cut short is not
        // kept, and its search goes on from the table the next time).
        let mut useless = false;
        if self.aborted.is_none() {
            let limit = (!failed).then(|| self.cap_nodes(budget));
            // A drop that failed on every path was not mated within
            // `r.len` plies: so after each capture the position with the
            // piece in hand is not mated within one ply less, nor is the
            // set-aside one (the attacker holds less, the defender more).
            let below = if failed && r.loop_head == NO_LOOP {
                r.len as u32
            } else {
                0
            };
            if let Some(base) = self.drop_base(pos, path, ply, children, drops, exact_base, below) {
                let undo = pos.do_move(m);
                let mut found = match base {
                    Some(base) => self.useless_interposition(pos, path, ply, m.to(), base),
                    None => None,
                };
                if found.is_none()
                    && failed
                    && self.rule == UselessRule::PieceUnused
                    && self.aborted.is_none()
                {
                    let left = self.ply_limit.saturating_sub(ply);
                    let upto = left + UNUSED_PIECE_EXTRA_PLIES;
                    found = self.unused_piece_interposition(pos, path, ply, m.to(), left, upto);
                }
                pos.undo_move(m, undo);
                if let Some(res) = found {
                    *r = res;
                    useless = true;
                }
            }
            if let Some(limit) = limit
                && self.uncap_nodes(limit)
            {
                self.aborted = None;
                return if useless {
                    DropVerdict::Useless
                } else {
                    DropVerdict::Open
                };
            }
        }
        if useless {
            DropVerdict::Useless
        } else if self.aborted.is_some() {
            if failed {
                *r = NodeResult::OPEN;
            }
            DropVerdict::Open
        } else if failed {
            DropVerdict::Capped
        } else {
            DropVerdict::Counted
        }
    }

    /// Judges the drop interposition `m` at `pos` (an AND node at `ply`,
    /// reached by `path`) after a search of it left `r`, while some of the
    /// node's other defences are still open (so the base is not known).
    /// A mate is a mate, counted or not. A failure refutes the node when
    /// no capture's set-aside position is mated within the plies left
    /// (`Capped`): the base never exceeds them where it matters (when a
    /// counted defence fails, the node fails anyway). Otherwise the drop
    /// may be useless and waits for the base (`Pending`).
    fn judge_early_drop(
        &mut self,
        pos: &mut Position,
        path: u64,
        ply: u32,
        m: Move,
        r: &mut NodeResult,
    ) -> DropVerdict {
        if r.pn == 0 {
            return DropVerdict::Counted;
        }
        if r.dn != 0 {
            return DropVerdict::Open;
        }
        if r.loop_head != NO_LOOP || self.aborted.is_some() {
            return DropVerdict::Pending;
        }
        let left = self.ply_limit.saturating_sub(ply);
        let undo = pos.do_move(m);
        let found = self.useless_interposition(pos, path, ply, m.to(), left);
        pos.undo_move(m, undo);
        if self.aborted.is_some() {
            *r = NodeResult::OPEN;
            return DropVerdict::Open;
        }
        if found.is_some() {
            DropVerdict::Pending
        } else {
            DropVerdict::Capped
        }
    }

    /// The base of the drop interpositions at `pos` (an AND node at `ply`,
    /// reached by `path`, with `children`) where it matters for a drop
    /// whose set-aside positions are known not to be mated within `below`
    /// less one plies (0 when nothing is known): `Some(None)` when the
    /// base is less than `below` (no such drop is useless by it), else
    /// the exact length of the counted defences. What is found is kept in
    /// `known` for the node's other drops. `None` when a limit cut the
    /// search short (a base cut short may be too short, so it is not kept).
    ///
    /// Under a bound, a drop that failed was not mated within the plies
    /// left, so its set-aside positions are not mated within two plies
    /// less, while the counted defences are all mated within the plies
    /// left: only the last one or two bounds of the base need a search,
    /// where the base from 2 plies up took nearly all the nested nodes of
    /// a long bounded search.
    #[allow(clippy::too_many_arguments)]
    fn drop_base(
        &mut self,
        pos: &mut Position,
        path: u64,
        ply: u32,
        children: &[Child],
        drops: DropInterpositions,
        known: &mut CountedBase,
        below: u32,
    ) -> Option<Option<u32>> {
        let upper = self.counted_base(children, drops).unwrap_or(0);
        if below > upper {
            return Some(None);
        }
        match *known {
            CountedBase::Exact(b) => return Some((b >= below).then_some(b)),
            CountedBase::AtMost(b) if b < below => return Some(None),
            _ => {}
        }
        let from = (below.saturating_sub(1) & !1).max(2);
        let b = self.exact_base(pos, path, ply, children, drops, from, upper);
        if self.aborted.is_some() {
            return None;
        }
        *known = if b > from || from == 2 {
            CountedBase::Exact(b)
        } else {
            CountedBase::AtMost(b)
        };
        Some((b >= below).then_some(b))
    }

    /// Whether the drop interposition just played on `sq` (the defender's
    /// move from the node at `ply`, reached by `path`; `pos` is the attacker
    /// to move) is useless by the definition in [`super::interposition`]:
    /// some capture of it, with the piece set aside, is mated within
    /// `bound` plies (the longest of the node's other defences). `Some` with
    /// the mate's result when it is.
    pub(crate) fn useless_interposition(
        &mut self,
        pos: &mut Position,
        path: u64,
        ply: u32,
        sq: crate::core::Square,
        bound: u32,
    ) -> Option<NodeResult> {
        let kind = pos.piece_at(sq)?.kind();
        let mut checks = MoveList::new();
        generate_checks(pos, &mut checks);
        let remaining = bound.min(self.ply_limit.saturating_sub(ply));
        for &x in checks.iter().filter(|m| m.to() == sq) {
            let undo = pos.do_move(x);
            let mut q0 = set_aside(pos, kind);
            pos.undo_move(x, undo);
            let r = self.nested_within(&mut q0, path, ply, remaining, SET_ASIDE_TAG);
            if r.pn == 0 && r.len as u32 <= remaining {
                return Some(useless_result(r.hand, r.len));
            }
            if self.aborted.is_some() {
                return None;
            }
        }
        None
    }

    /// Under [`UselessRule::PieceUnused`]: whether the drop interposition
    /// just played on `sq` (the defender's move from the node at `ply`,
    /// reached by `path`; `pos` is the attacker to move) is useless because
    /// the attacker does not use the piece: for some capture of it, the
    /// least bound from `from` to `upto` (growing by two) under which the
    /// position after the capture is mated also holds a mate with the piece
    /// set aside. `from` is a bound that position is known not to be mated
    /// under less than (the plies left at the node, for a drop that failed
    /// under them). `Some` with a result that adds nothing to the node's
    /// length when it is (the drop does not count, whatever its mate's
    /// length).
    pub(crate) fn unused_piece_interposition(
        &mut self,
        pos: &mut Position,
        path: u64,
        ply: u32,
        sq: crate::core::Square,
        from: u32,
        upto: u32,
    ) -> Option<NodeResult> {
        let kind = pos.piece_at(sq)?.kind();
        let mut checks = MoveList::new();
        generate_checks(pos, &mut checks);
        for &x in checks.iter().filter(|m| m.to() == sq) {
            let undo = pos.do_move(x);
            let mut with_piece = pos.clone();
            pos.undo_move(x, undo);
            if self
                .reps
                .repeats(with_piece.board_key(), self.attacker_hand(&with_piece))
            {
                continue;
            }
            let key = with_piece.key();
            match self.unused_tests.get(&key) {
                Some(&UnusedTest::Unused(hand)) => return Some(useless_result(hand, 0)),
                Some(&UnusedTest::UsedWithin(b)) if b >= upto => continue,
                _ => {}
            }
            let mut without = set_aside(&with_piece, kind);
            // A plain search first: with no mate at all the piece is
            // needed; a plain mate's length bounds the one looked for.
            let plain_path = extend_path(path, key ^ 0x91a1_2c0d);
            let plain =
                self.plain_search(&mut with_piece, plain_path, ply, UNUSED_PIECE_PLAIN_NODES);
            if self.aborted.is_some() {
                return None;
            }
            if plain.dn == 0 {
                if plain.loop_head == NO_LOOP {
                    self.unused_tests
                        .insert(key, UnusedTest::UsedWithin(MAX_PLY));
                }
                continue;
            }
            let mut upper = upto;
            if plain.pn == 0 {
                upper = upper.min(plain.len as u32);
            }
            let mut b = from;
            let mut verdict = UnusedTest::UsedWithin(upto);
            while b <= upper {
                let r = self.nested_within(&mut with_piece, path, ply, b, WITH_PIECE_TAG);
                if self.aborted.is_some() {
                    return None;
                }
                if r.dn == 0 {
                    if r.len == DEPTH_ANY {
                        break;
                    }
                    // Not mated within `held` plies: the next bound of the
                    // same parity past it.
                    let held = (r.len as u32).max(b);
                    b += 2 * ((held - b) / 2 + 1);
                    continue;
                }
                if r.pn != 0 {
                    break;
                }
                let s = self.nested_within(&mut without, path, ply, b, SET_ASIDE_TAG);
                if self.aborted.is_some() {
                    return None;
                }
                verdict = if s.pn == 0 {
                    UnusedTest::Unused(s.hand)
                } else {
                    UnusedTest::UsedWithin(MAX_PLY)
                };
                break;
            }
            self.unused_tests.insert(key, verdict);
            if let UnusedTest::Unused(hand) = verdict {
                return Some(useless_result(hand, 0));
            }
        }
        None
    }

    /// Whether `q` (the defender to move, standing in for the node at
    /// `ply` reached by `path`) is mated within `plies`: from the table,
    /// else by a nested search under that bound. `tag` tells apart the
    /// kinds of nested search in the path hash.
    fn nested_within(
        &mut self,
        q: &mut Position,
        path: u64,
        ply: u32,
        plies: u32,
        tag: u64,
    ) -> NodeResult {
        let q_path = extend_path(path, q.key() ^ tag ^ ((plies as u64) << 40));
        if let Some(k) = self.reps.recorded(q_path, self.bounded) {
            return NodeResult {
                pn: INF,
                dn: 0,
                hand: k.hand,
                len: k.len,
                loop_head: k.head,
                drop_free: false,
            };
        }
        if let Some(p) = self.probe_within(q, plies)
            && p.settles_within(plies)
        {
            return from_probe(&p);
        }
        if self.reps.repeats(q.board_key(), self.attacker_hand(q)) {
            // Back on the path: no mate this way.
            return NodeResult {
                pn: INF,
                dn: 0,
                hand: self.attacker_hand(q),
                len: 0,
                loop_head: NO_LOOP,
                drop_free: false,
            };
        }
        self.nest += 1;
        self.reps.push(q.board_key(), self.attacker_hand(q));
        let ply_limit = self.ply_limit;
        self.ply_limit = ply + plies;
        let r = stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || {
            self.mid(q, q_path, INF, INF, ply)
        });
        self.ply_limit = ply_limit;
        self.reps.pop();
        self.nest -= 1;
        r
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

    /// Builds, stores and returns the final result of a solved node with
    /// `remaining` plies left.
    #[allow(clippy::too_many_arguments)]
    fn finish(
        &mut self,
        pos: &Position,
        path: u64,
        children: &[Child],
        or_node: bool,
        pn: u32,
        work: u64,
        remaining: u32,
    ) -> NodeResult {
        let proven = pn == 0;
        let r;
        let mut mv = None;
        if or_node && proven {
            let best = children
                .iter()
                .filter(|c| c.pn == 0)
                .min_by_key(|c| c.len)
                .expect("a proven child");
            mv = Some(best.mv);
            r = NodeResult {
                pn: 0,
                dn: INF,
                hand: hands::or_proof_hand(pos, best.mv, best.hand),
                len: best.len.saturating_add(1),
                loop_head: NO_LOOP,
                drop_free: false,
            };
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
            r = NodeResult {
                pn: 0,
                dn: INF,
                hand: hands::and_proof_hand(pos, max),
                // Every defence a useless interposition: mated here.
                len: len.map_or(0, |l| l.saturating_add(1)).max(useless_len),
                loop_head: NO_LOOP,
                drop_free: false,
            };
        } else if or_node {
            // Every check fails.
            let mut min: Option<Hand> = None;
            let mut depth = DEPTH_ANY;
            let mut head = NO_LOOP;
            let mut drop_free = self.marks_drop_free();
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
            let drops = if self.marks_drop_free() {
                DropInterpositions::of(pos)
            } else {
                DropInterpositions::NONE
            };
            let counts = |c: &Child| c.drop_free && !drops.contains(c.mv);
            let refuting = children
                .iter()
                .filter(|c| c.dn == 0)
                .max_by_key(|c| (self.local_loops(c.loop_head), c.len, counts(c)))
                .expect("a disproven child");
            let mut depth = deeper(refuting.len);
            if refuting.capped && depth != DEPTH_ANY {
                depth = depth.min(remaining.min(DEPTH_ANY as u32 - 1) as u16);
            }
            mv = Some(refuting.mv);
            r = NodeResult {
                pn: INF,
                dn: 0,
                hand: hands::and_disproof_hand(pos, refuting.mv, refuting.hand),
                len: depth,
                loop_head: self.local_loops(refuting.loop_head),
                drop_free: self.marks_drop_free() && counts(refuting),
            };
        }
        if r.loop_head != NO_LOOP {
            self.stats.path_records += 1;
            let k = PathResult {
                head: r.loop_head,
                len: r.len,
                hand: r.hand,
            };
            if self.bounded {
                self.reps.record(path, k);
            } else {
                self.reps.record_lasting(path, k);
            }
        } else {
            self.store(pos, &r, mv, work);
        }
        r
    }
}

/// The first proof number of a position disproven for fewer plies than
/// are left now (the bound grew since): the attacker failed there before,
/// so the search looks at other moves first. On ten musou problems the
/// answer took 44.4M nodes with 4 (1, as for a new position: 51.5M; 8:
/// 44.0M with one problem slower; 32: 57.1M), with the same lines.
const SHALLOW_DISPROOF_PN: u32 = 4;

/// Nodes of the first round of a drop interposition's search while its
/// useless test is open; each round that runs out doubles them (see
/// [`Search::judge_drop`]). 250 and 4000 gave within 1% of the same nodes
/// on the ten musou rows of `benches/solve.rs` and musou-046.
const FIRST_USELESS_ROUND_NODES: u64 = 1000;

/// After each round of a drop interposition's search, its useless test may
/// use the round's nodes divided by this. With 4, on the ten musou rows of
/// `benches/solve.rs` and musou-046 the answers took 28.1M nodes (a test
/// only after the drop's failure: 29.7M), and on musou-012, 075 and 089
/// 26.3M (that way: 96.5M, 60.7M of them 089's). Half the round: 30.2M and
/// 39.1M; an eighth: 28.9M and 45.9M; the whole round: 37.0M on the three;
/// one node: 075 and 089 unproven in 120 s. The counts jump from one share
/// to the next (012 alone: 4.0M, 10.7M, 24.4M, 5.5M), so they choose no
/// more than the order.
const USELESS_TEST_SHARE: u64 = 4;

/// Path-hash tags of the nested searches of a useless test: the position
/// after a capture with the piece set aside, and with it in hand.
const SET_ASIDE_TAG: u64 = 0x5e7a_51de;
const WITH_PIECE_TAG: u64 = 0x0b5e_55ed;

/// Nodes of the plain search that starts the test of a drop by
/// [`UselessRule::PieceUnused`] (see [`Search::unused_piece_interposition`]).
const UNUSED_PIECE_PLAIN_NODES: u64 = 20_000;

/// What [`Search::mate_in_one`] found when no check mates in one.
#[derive(Clone, Copy, Debug)]
struct Missed {
    /// Under tsume counting: some check left the defender only moves that
    /// include drops between checker and king (which may be useless, so
    /// the node may still be mated in one).
    undecided: bool,
    /// After every check the defender has a reply that is not such a drop:
    /// "no mate in one" holds under tsume counting too.
    drop_free: bool,
}

/// What is known at an AND node of the length of its defences that are
/// not drop interpositions (the base of [`super::interposition`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum CountedBase {
    /// Not searched yet.
    Unknown,
    /// The length.
    Exact(u32),
    /// At most this: all mated within it.
    AtMost(u32),
}

/// What [`Search::judge_drop`] found of a drop interposition.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum DropVerdict {
    /// Useless: mated, not counted.
    Useless,
    /// Failed and not useless under this node's bound.
    Capped,
    /// Mated and counted, or known not useless while still open.
    Counted,
    /// Not known yet.
    Open,
    /// Failed, and may be useless: waits for the base.
    Pending,
}

/// The length field of a disproof holds the plies it holds for: a
/// disproof found under a length bound says "no mate within this many
/// plies"; this value says "no mate at all".
pub(crate) const DEPTH_ANY: u16 = u16::MAX;

/// The depth of a disproof one ply above one of `depth`.
#[inline]
fn deeper(depth: u16) -> u16 {
    if depth == DEPTH_ANY {
        DEPTH_ANY
    } else {
        depth.saturating_add(1).min(DEPTH_ANY - 1)
    }
}

/// A useless interposition's result: mated (by the set-aside position's
/// proof hand), not counted.
fn useless_result(hand: Hand, len: u16) -> NodeResult {
    NodeResult {
        pn: 0,
        dn: INF,
        hand,
        // The plies the set-aside position is mated in: the node is mated
        // within no fewer (the bound this interposition was judged under).
        len,
        loop_head: NO_LOOP,
        drop_free: false,
    }
}

fn from_probe(p: &Probe) -> NodeResult {
    NodeResult {
        pn: p.pn,
        dn: p.dn,
        hand: p.hand,
        len: p.len,
        loop_head: NO_LOOP,
        drop_free: p.drop_free,
    }
}

/// The node's numbers from its children: at an OR node the minimum proof
/// number and the sum of disproof numbers; the reverse at an AND node.
#[inline]
fn combine(children: &[Child], or_node: bool) -> (u32, u32) {
    let mut min = INF;
    let mut sum = 0u32;
    let mut all_final = true;
    for c in children {
        if !c.evaluated {
            all_final = false;
            continue;
        }
        let (a, b) = if or_node { (c.pn, c.dn) } else { (c.dn, c.pn) };
        min = min.min(a);
        if b == INF {
            sum = INF;
        } else if sum != INF {
            sum = sat_add(sum, b);
        }
        if b != 0 {
            all_final = false;
        }
    }
    if min == 0 {
        sum = INF;
    } else if all_final {
        sum = 0;
    } else if sum == 0 {
        // Every child looked at is final, but some wait their turn: the
        // node is not solved yet.
        sum = 1;
    }
    if or_node { (min, sum) } else { (sum, min) }
}

/// The child to search (smallest proof number at an OR node, smallest
/// disproof number at an AND node) and the second smallest value.
#[inline]
fn select(children: &[Child], or_node: bool) -> (usize, u32) {
    let mut best = 0;
    let mut best_v = INF;
    let mut second = INF;
    for (i, c) in children.iter().enumerate() {
        if !c.evaluated {
            continue;
        }
        let v = if or_node { c.pn } else { c.dn };
        if v < best_v || (v == best_v && !children[best].evaluated) {
            second = best_v;
            best_v = v;
            best = i;
        } else if v < second {
            second = v;
        }
    }
    (best, second)
}

/// The threshold left for one child out of a summed number: the node's
/// threshold minus what its siblings contribute.
#[inline]
fn sub_sibling_sum(th: u32, total: u32, own: u32) -> u32 {
    if th == INF {
        return INF;
    }
    let siblings = total as u64 - own.min(total) as u64;
    (th as u64).saturating_sub(siblings).min(MAX_FINITE as u64) as u32
}

/// First disproof number of an OR node: its number of checks.
fn init_or_dn(checks: usize) -> u32 {
    checks as u32
}

/// First proof number of an AND node: one more than the number of king
/// moves among its evasions (interpositions and captures are usually
/// answered at once; a king with room to run is what makes a mate hard).
fn init_and_pn(evasions: &MoveList, pos: &Position) -> u32 {
    let king = pos.king_square(pos.side_to_move());
    1 + evasions.iter().filter(|m| m.from() == king).count() as u32
}
