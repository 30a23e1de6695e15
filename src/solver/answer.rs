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
//! search proves a mate (or, once a bound from below has grown costly, the
//! last bound shrinking by two from the mate known under which it still
//! does);
//! then the line is read down with exact lengths: at the attacker's turn
//! the check of the node's proof within the length left (the node is
//! proven again when the table has lost it), at the defender's turn a
//! defence that is not mated two plies sooner (for a drop between checker
//! and king, also not useless).

use std::time::Instant;

use hashbrown::HashSet;

use crate::core::movegen::{MoveList, generate_checks, generate_evasions};
use crate::core::{Hand, Move, Position};

use super::Limit;
use super::defence::DefenceChoice;
use super::interposition::{
    DropInterpositions, UNUSED_PIECE_EXTRA_PLIES, UselessRule, has_counted_evasion,
};
use super::repetition::extend_path;
use super::search::Search;
use super::tt::{INF, Probe};

/// Longest line read.
const MAX_LINE: u32 = 3000;

/// Namespace of the tsume-counting results in the shared table.
const TSUME_SALT: u64 = 0x7a3c_91e5_0b6d_2f48;
/// Added to it for tsume counting by [`UselessRule::PieceUnused`].
const PIECE_UNUSED_SALT: u64 = 0x61e2_d04b_7f39_c815;

/// What reading the answer gave.
pub(crate) struct Answer {
    /// The tsume answer's line when `exact`; otherwise the line of the
    /// longest resistance known (see
    /// [`TsumeSearch::longest_known_line`]). `None` when a limit stopped
    /// the reading, or the table lacks a move of that line.
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

/// Switches `search` to tsume counting for the life of the value.
pub(crate) struct TsumeSearch<'s, 'a> {
    pub search: &'s mut Search<'a>,
    plain_salt: u64,
    /// Line positions pushed on the repetition path, with their path hashes.
    path: Vec<u64>,
    /// Equally long defences still worth reading for an empty final hand.
    alternatives_left: u32,
    /// Nodes still allowed for testing other checks than the first one
    /// read at an attacker's node (see [`ALTERNATIVE_NODES`]).
    alternative_nodes_left: u64,
    /// Which defence the main line follows.
    pub choice: DefenceChoice,
}

/// Equally long defences read in all, beyond the first at each node, when
/// the first ends with the attacker holding pieces.
const ALTERNATIVE_READS: u32 = 16;

/// Plies left under the bound from which the line's other checks get a
/// plain search (from 5: more nodes in all, from 13: about the same).
const PLAIN_MIN_PLIES: u32 = 9;

/// The nodes of that plain search with 0 or 1 ply left, doubling with
/// every two more. With 1024, ten musou problems that were already proven take
/// 35.0M nodes in all (44.4M without these searches; units of 16, 256 and
/// 2048 gave 35.4M, 34.2M and 39.3M along the first proof's line), and 13
/// of the 28 that were not proven in 60 s are now.
const PLAIN_BUDGET_UNIT: u64 = 1024;

/// Each step of the plain descent (see [`TsumeSearch::plain_least`]) may
/// take this many times the nodes searched before it (the first proof's),
/// and at least [`PLAIN_DESCENT_MIN_NODES`]. With it, the whole musou set
/// at 60 s a problem proves musou-003, 028 and 057 too, and takes 439 s where it took
/// 627 (each bound of the answer stops at the plain length).
const PLAIN_DESCENT_NODES_PER_PROOF_NODE: u64 = 2;

/// The least budget of a step of the plain descent.
const PLAIN_DESCENT_MIN_NODES: u64 = 10_000;

/// Nodes in all for testing, at the attacker's nodes of the line, whether
/// a check the table does not know mates in time: the choice among equally
/// short attacks is only worth a small search.
const ALTERNATIVE_NODES: u64 = 200_000;

/// The nodes one bound from below must take for the search to turn round
/// and ask the bounds under the mate known (see [`TsumeSearch::shortest`]).
const TOP_DOWN_MIN_NODES: u64 = 1_000_000;

/// The first budget of each of the two tests of a drop interposition on
/// the line (see [`TsumeSearch::drop_lasts`]).
const DROP_TEST_NODES: u64 = 10_000;

impl Drop for TsumeSearch<'_, '_> {
    fn drop(&mut self) {
        for _ in 0..self.path.len() {
            self.search.reps.pop();
        }
        self.search.tsume = false;
        self.search.rule = UselessRule::WithinOtherDefences;
        self.search.salt = self.plain_salt;
        self.search.fallback_salt = None;
        self.search.set_bound(None);
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
        let plain_salt = search.salt;
        search.tsume = true;
        search.rule = rule;
        search.salt = plain_salt
            ^ TSUME_SALT
            ^ match rule {
                UselessRule::WithinOtherDefences => 0,
                UselessRule::PieceUnused => PIECE_UNUSED_SALT,
            };
        search.fallback_salt = Some(plain_salt);
        search.reps.clear();
        let mut t = TsumeSearch {
            search,
            plain_salt,
            path: Vec::new(),
            alternatives_left: ALTERNATIVE_READS,
            alternative_nodes_left: ALTERNATIVE_NODES,
            choice: DefenceChoice::Longest,
        };
        t.enter(root);
        t
    }

    fn path_hash(&self) -> u64 {
        *self.path.last().unwrap_or(&0)
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

    /// Whether `pos` (on the line, just entered) is mated within `bound`
    /// plies under tsume counting: `Some(Some(len))` with the length of the
    /// mate found (at most `bound`, not necessarily shortest),
    /// `Some(None)` when not, `None` when a limit stopped the search.
    pub fn within(&mut self, pos: &Position, bound: u32) -> Option<Option<u32>> {
        if let Some(p) = self.search.probe_within(pos, bound)
            && p.settles_within(bound)
        {
            return Some(p.is_proven().then_some(p.len as u32));
        }
        if self.search.aborted.is_some() {
            return None;
        }
        let mut p = pos.clone();
        self.search.set_bound(Some(bound));
        let depth_cut = self.search.depth_cut;
        let r = self.search.mid(&mut p, self.path_hash(), INF, INF, 0);
        self.search.depth_cut = depth_cut;
        if r.pn == 0 {
            Some(Some(r.len as u32))
        } else if r.dn == 0 {
            Some(None)
        } else {
            None
        }
    }

    /// Like [`within`](Self::within) for the position after `m`.
    pub fn within_after(&mut self, pos: &Position, m: Move, bound: u32) -> Option<Option<u32>> {
        let child = pos.after(m);
        if self
            .search
            .reps
            .repeats(child.board_key(), child.hand(self.search.attacker))
        {
            return Some(None);
        }
        self.enter(&child);
        let r = self.within(&child, bound);
        self.leave();
        r
    }

    /// Like [`within_after`](Self::within_after), within what is left of
    /// the alternatives' node budget: `Some(None)` also when the budget ran
    /// out first.
    fn within_after_capped(&mut self, pos: &Position, m: Move, bound: u32) -> Option<Option<u32>> {
        let start = self.search.nodes;
        let r = self.budgeted(self.alternative_nodes_left, |t| {
            t.within_after(pos, m, bound)
        });
        let used = self.search.nodes - start;
        self.alternative_nodes_left = self.alternative_nodes_left.saturating_sub(used);
        r.map(Option::flatten)
    }

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
    /// But on some problems each bound from below costs about three times
    /// the one before (musou-094, 59 plies: 0.53M nodes for 15, 1.8M for
    /// 17, 6.5M for 19), so they never reach a long answer, while the bound
    /// just under the mate known, asked at once, ends ("mated within 57"
    /// disproven in 191.9M nodes). On the same rows, and on the other long
    /// ones that are slow from below, asking `upper - 2` at once takes a
    /// few times fewer nodes than climbing to it. So once one bound from
    /// below has taken [`TOP_DOWN_MIN_NODES`], the search turns round
    /// ([`shortest_from_above`](Self::shortest_from_above)): the bounds
    /// below it stay disproven, and the answer is found from the mate
    /// known downwards. Problems whose bounds from below stay small (all
    /// the short ones) never turn.
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
        let upper = self.plain_least(pos, upper, b);
        let mut refuted = HashSet::new();
        let mut last_search = 0;
        while b < upper {
            if let Some(first) = line {
                let line = self.current_line(pos, first);
                if debug {
                    let common = line.iter().zip(first).take_while(|(a, b)| a == b).count();
                    eprintln!(
                        "answer: line of {} plies, the first {} of them the first proof's",
                        line.len(),
                        common
                    );
                }
                self.refute_line_alternatives(pos, &line, b, last_search, &mut refuted);
                if debug {
                    eprintln!("answer: line checks refuted, nodes {}", self.search.nodes);
                }
            }
            let start = self.search.nodes;
            let r = self.within(pos, b);
            last_search = self.search.nodes - start;
            if debug {
                eprintln!("answer: within {b}: {r:?} nodes {}", self.search.nodes);
            }
            match r {
                Some(Some(_)) => return (b, true, b),
                Some(None) => b += 2,
                None => return (upper, false, b),
            }
            if last_search >= TOP_DOWN_MIN_NODES {
                return self.shortest_from_above(pos, upper, b);
            }
        }
        (upper, true, upper)
    }

    /// [`shortest`](Self::shortest) from above: asks the bound just under
    /// the mate known (`upper - 2`) until a search finds no mate there.
    /// Every bound below `least` is known to hold no mate.
    fn shortest_from_above(
        &mut self,
        pos: &Position,
        mut upper: u32,
        least: u32,
    ) -> (u32, bool, u32) {
        let debug = std::env::var_os("TSUME_DEBUG").is_some();
        while upper > least {
            let r = self.within(pos, upper - 2);
            if debug {
                eprintln!(
                    "answer: within {} (from above): {r:?} nodes {}",
                    upper - 2,
                    self.search.nodes
                );
            }
            match r {
                Some(Some(len)) => upper = len.min(upper - 2),
                Some(None) => return (upper, true, upper),
                None => return (upper, false, least),
            }
        }
        (upper, true, upper)
    }

    /// A plain mate's length no longer than `upper` and as short as plain
    /// searches under bounds find it, two plies at a time from `upper`
    /// down to `floor`: every interposition counts there, so the tsume
    /// answer is never longer. A step may take the budget of
    /// [`PLAIN_DESCENT_NODES_PER_PROOF_NODE`], the descent twice that in
    /// all, and never more than half of the nodes and time the caller's
    /// limits leave; it stops at the first bound without a mate, or not
    /// decided in time.
    ///
    /// The first plain proof may wander far (467 plies on musou-006, whose
    /// answer is 43), while under a bound a plain search finds a shorter
    /// mate at little cost once the first is found: on musou-030 the
    /// descent from 155 reaches 119 in 1.4M nodes and proves "no plain
    /// mate within 117" in 0.6M more. The tsume answer then has an upper
    /// bound it can reach from below, and when a limit stops it, a close
    /// bracket ("at least 117 and at most 119").
    fn plain_least(&mut self, pos: &Position, upper: u32, floor: u32) -> u32 {
        let budget = self
            .search
            .nodes
            .saturating_mul(PLAIN_DESCENT_NODES_PER_PROOF_NODE)
            .max(PLAIN_DESCENT_MIN_NODES);
        let mut least = upper;
        // Half of what the caller's limits leave at most: the bounds from
        // below need the rest.
        let nodes_left = self.search.node_limit.saturating_sub(self.search.nodes);
        let until = self
            .search
            .nodes
            .saturating_add(budget.saturating_mul(2).min(nodes_left / 2));
        let deadline = self.search.deadline;
        let now = Instant::now();
        self.search.deadline = deadline.map(|d| now + d.saturating_duration_since(now) / 2);
        while least >= floor + 2 && self.search.aborted.is_none() && self.search.nodes < until {
            let mut p = pos.clone();
            let path = self.path_hash();
            let step = budget.min(until - self.search.nodes);
            let r = self.search.plain_mate_within(&mut p, path, least - 2, step);
            if r.pn != 0 {
                break;
            }
            least = (r.len as u32).min(least - 2);
        }
        self.search.deadline = deadline;
        if self.search.aborted == Some(Limit::Time) && deadline.is_none_or(|d| Instant::now() < d) {
            // The descent's half ran out, not the caller's time.
            self.search.aborted = None;
        }
        if std::env::var_os("TSUME_DEBUG").is_some() {
            eprintln!(
                "answer: plain mate within {least} (from {upper}), nodes {}",
                self.search.nodes
            );
        }
        least
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
                    .probe(pos.board_key() ^ self.plain_salt, pos.hand(attacker))
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
                    let Some(p) = self.search.probe(&pos.after(e)) else {
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

    /// Whether the defender's drop interposition `m` at `pos` (on the line)
    /// is useless when the node's other defences last `base` plies (by
    /// [`UselessRule::PieceUnused`], whatever they last); `None` when a
    /// limit stopped the test.
    pub fn is_useless(&mut self, pos: &Position, m: Move, base: u32) -> Option<bool> {
        if !DropInterpositions::of(pos).contains(m) {
            return Some(false);
        }
        let mut child = pos.after(m);
        let path = self.path_hash();
        let r = if self.search.rule == UselessRule::PieceUnused {
            // By this rule alone, whatever the other defences: the mate
            // after a capture from the least bound on.
            let upto = base + UNUSED_PIECE_EXTRA_PLIES;
            self.search.set_bound(Some(upto));
            self.search
                .unused_piece_interposition(&mut child, path, 0, m.to(), 0, upto)
        } else {
            self.search.set_bound(Some(base));
            self.search
                .useless_interposition(&mut child, path, 0, m.to(), base)
        };
        if r.is_some() {
            Some(true)
        } else if self.search.aborted.is_some() {
            None
        } else {
            Some(false)
        }
    }

    /// The exact tsume length of the position after `m`, mated within
    /// `upper` plies (or more, when the search's bound was optimistic):
    /// lowers the bound by two until a search fails. `None` when a limit
    /// stopped a search.
    fn exact_after(&mut self, pos: &Position, m: Move, upper: u32) -> Option<u32> {
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
        while self.within(pos, best)?.is_none() {
            best += 2;
            if best > MAX_LINE {
                return None;
            }
        }
        if let Some(p) = self.search.probe(pos)
            && p.pn == 0
        {
            best = best.min(p.len as u32);
        }
        while best >= 2 {
            match self.within(pos, best - 2)? {
                Some(l) => best = l.min(best - 2),
                None => break,
            }
        }
        Some(best)
    }

    /// The main line from `pos` (on the line), mated in exactly `len` plies.
    /// Among the longest defences, one after which the attacker ends with
    /// an empty hand is preferred (by [`DefenceChoice::EmptyHandFirst`], to
    /// any longer one: the line may then be shorter than `len`). `None`
    /// when a limit stopped the search.
    pub fn main_line(&mut self, pos: &Position, len: u32) -> Option<Vec<Move>> {
        if len == 0 {
            return Some(Vec::new());
        }
        let attacker = self.search.attacker;
        if pos.side_to_move() == attacker {
            // The first shortest check; others of that length only when its
            // line ends with pieces in hand (and while reads are left).
            //
            // The proof's own check first. The table may have lost it
            // (entries that cost little to find are replaced first): then
            // the node is proven again, where a df-pn search picks the check
            // by proof numbers, instead of a failed search under the bound
            // for each wrong check tried in turn.
            let proven = |p: &Probe| p.pn == 0 && p.len as u32 <= len && p.mv.is_some();
            if !self.search.probe(pos).is_some_and(|p| proven(&p)) {
                self.within(pos, len)?;
            }
            let mut list = MoveList::new();
            generate_checks(pos, &mut list);
            // Checks the table already knows to mate in time come first: a
            // check that does not costs a whole search under the bound.
            // Once a line is read, a check the table does not know to mate
            // in time is tested within what is left of a small budget.
            let hint = self.search.probe(pos).and_then(|p| p.mv);
            let mut moves: Vec<(bool, Move)> = list
                .iter()
                .map(|&m| {
                    let known = self
                        .search
                        .probe(&pos.after(m))
                        .is_some_and(|p| p.pn == 0 && (p.len as u32) < len);
                    (known, m)
                })
                .collect();
            moves.sort_by_key(|&(known, m)| (!known, Some(m) != hint));
            let mut best: Option<Vec<Move>> = None;
            for (known, m) in moves {
                let mates = if best.is_some() && !known {
                    self.within_after_capped(pos, m, len - 1)?
                } else {
                    self.within_after(pos, m, len - 1)?
                };
                if mates.is_none() {
                    continue;
                }
                if self.settled(pos, m, len - 1, &mut best)? {
                    break;
                }
            }
            return best;
        }
        // The longest defences, read off the known length when it is exact;
        // otherwise from the exact length of every defence.
        let mut list = MoveList::new();
        generate_evasions(pos, &mut list);
        let drops = DropInterpositions::of(pos);
        let longest = match self.longest_defences(pos, &list, drops, len)? {
            Some(longest) => longest,
            None => self.longest_by_exact_lengths(pos, &list, drops, len)?,
        };
        if longest.is_empty() {
            return Some(Vec::new());
        }
        if self.choice == DefenceChoice::EmptyHandFirst {
            return self.empty_hand_first(pos, &list, drops, longest);
        }
        let child_len = longest[0].0 - 1;
        let mut best: Option<Vec<Move>> = None;
        for (_, m) in longest {
            if self.settled(pos, m, child_len, &mut best)? {
                break;
            }
        }
        best
    }

    /// The main line from `pos` (the defender to move) by
    /// [`DefenceChoice::EmptyHandFirst`]: the longest line among the
    /// defences whose line ends with the attacker's hand empty, else the
    /// longest. `longest` holds the longest defences by tsume length; the
    /// shorter ones are read only when none of those ends with an empty
    /// hand in as many plies, longest first, down to the length of the
    /// best empty-handed line found (a defence's line is never longer than
    /// its tsume length). `None` when a limit stopped the search.
    fn empty_hand_first(
        &mut self,
        pos: &Position,
        list: &MoveList,
        drops: DropInterpositions,
        longest: Vec<(u32, Move)>,
    ) -> Option<Vec<Move>> {
        let len = longest[0].0;
        let mut shorter: Option<Vec<(u32, Move)>> = None;
        // (ends empty, plies): the greater is preferred.
        let mut best: Option<((bool, usize), Vec<Move>)> = None;
        let mut i = 0;
        loop {
            let (l, m) = if i < longest.len() {
                longest[i]
            } else {
                if shorter.is_none() {
                    let start = self.search.nodes;
                    let mut counted = self.counted_lengths(pos, list, drops, len)?;
                    if std::env::var_os("TSUME_DEBUG").is_some() {
                        eprintln!(
                            "answer: shorter defences at depth {} len {len}: {:?} ({} nodes)",
                            self.path.len(),
                            counted.iter().map(|&(l, _)| l).collect::<Vec<_>>(),
                            self.search.nodes - start
                        );
                    }
                    counted.retain(|&(l, _)| l < len);
                    counted.sort_by_key(|&(l, _)| std::cmp::Reverse(l));
                    shorter = Some(counted);
                }
                match shorter.as_ref().and_then(|s| s.get(i - longest.len())) {
                    Some(&d) => d,
                    None => break,
                }
            };
            i += 1;
            // No defence left can beat an empty-handed line as long as its
            // tsume length.
            if best
                .as_ref()
                .is_some_and(|&((empty, plies), _)| empty && plies >= l as usize)
            {
                break;
            }
            let line = self.defence_line(pos, m, l)?;
            let key = (
                final_hand(pos, &line, self.search.attacker).is_empty(),
                line.len(),
            );
            if best.as_ref().is_none_or(|(b, _)| key > *b) {
                best = Some((key, line));
            }
        }
        best.map(|(_, line)| line)
    }

    /// The defence `m` at `pos` followed by the main line after it, which
    /// is mated in exactly `len - 1` plies.
    fn defence_line(&mut self, pos: &Position, m: Move, len: u32) -> Option<Vec<Move>> {
        let child = pos.after(m);
        self.enter(&child);
        let rest = stacker::maybe_grow(
            super::search::STACK_RED_ZONE,
            super::search::STACK_SEGMENT,
            || self.main_line(&child, len - 1),
        );
        self.leave();
        let mut line = vec![m];
        line.extend(rest?);
        Some(line)
    }

    /// The longest defences at `pos` (the defender to move, mated in
    /// exactly `len` plies), with their length, found without the exact
    /// length of the shorter ones: a defence that counts lasts `len` plies
    /// when the position after it is not mated within `len - 3`. When a
    /// defence that always counts (not a drop between checker and king)
    /// lasts `len`, that is the base the drops are judged against.
    /// `Some(None)` when no such defence is found (`len` is then not the
    /// exact length: a limit cut the root's search short), or a drop that
    /// counts is not mated within `len - 1`; `None` when a limit stopped a
    /// search.
    fn longest_defences(
        &mut self,
        pos: &Position,
        list: &MoveList,
        drops: DropInterpositions,
        len: u32,
    ) -> Option<Option<Vec<(u32, Move)>>> {
        let mut longest = Vec::new();
        for &m in list.iter().filter(|&&m| !drops.contains(m)) {
            if self.lasts(pos, m, len)? {
                longest.push((len, m));
            }
        }
        if longest.is_empty() {
            return Some(None);
        }
        for &m in list.iter().filter(|&&m| drops.contains(m)) {
            if !self.drop_lasts(pos, m, len)? {
                continue;
            }
            if self.within_after(pos, m, len - 1)?.is_none() {
                return Some(None);
            }
            longest.push((len, m));
        }
        Some(Some(longest))
    }

    /// Whether the drop between checker and king `m` at `pos` (mated in
    /// `len` plies by its other defences) is a counted defence that lasts
    /// `len`: not useless, and not mated within `len - 3` after it. A drop
    /// mated sooner is not among the longest, useless or not, so either
    /// answer may settle it, and either may be the expensive one (on
    /// musou-067 the useless test runs to millions of nodes where the
    /// other takes thousands; on musou-064 the other way round): the two
    /// are asked in turn under a budget that grows fourfold until one of
    /// them settles it or both are known. `None` when a limit stopped it.
    fn drop_lasts(&mut self, pos: &Position, m: Move, len: u32) -> Option<bool> {
        let verdict = |lasts: Option<bool>, useless: Option<bool>| match (lasts, useless) {
            (Some(false), _) | (_, Some(true)) => Some(false),
            (Some(true), Some(false)) => Some(true),
            _ => None,
        };
        let (mut lasts, mut useless) = (None, None);
        let mut budget = DROP_TEST_NODES;
        loop {
            if lasts.is_none() {
                lasts = self.budgeted(budget, |t| t.lasts(pos, m, len))?;
                if let Some(v) = verdict(lasts, useless) {
                    return Some(v);
                }
            }
            if useless.is_none() {
                useless = self.budgeted(budget, |t| t.is_useless(pos, m, len))?;
                if let Some(v) = verdict(lasts, useless) {
                    return Some(v);
                }
            }
            budget = budget.saturating_mul(4);
        }
    }

    /// Runs `ask` within `budget` more nodes: `Some(Some(answer))`,
    /// `Some(None)` when the budget ran out first, `None` when the caller's
    /// limit stopped it.
    fn budgeted<T>(
        &mut self,
        budget: u64,
        ask: impl FnOnce(&mut Self) -> Option<T>,
    ) -> Option<Option<T>> {
        let limit = self.search.cap_nodes(budget);
        let r = ask(self);
        let ran_out = self.search.uncap_nodes(limit);
        if ran_out {
            // The budget's abort, not the caller's: it must not stop the
            // searches that follow (even when `ask` had its answer).
            self.search.aborted = None;
        }
        match r {
            Some(answer) => Some(Some(answer)),
            None if ran_out => Some(None),
            None => None,
        }
    }

    /// Whether the defence `m` at `pos` is not mated within `len - 3`
    /// plies after it (so it lasts `len` when `pos` is mated within `len`).
    fn lasts(&mut self, pos: &Position, m: Move, len: u32) -> Option<bool> {
        if len < 3 {
            return Some(true);
        }
        Some(self.within_after(pos, m, len - 3)?.is_none())
    }

    /// The longest defences at `pos` from the exact length of each (see
    /// [`counted_lengths`](Self::counted_lengths)).
    fn longest_by_exact_lengths(
        &mut self,
        pos: &Position,
        list: &MoveList,
        drops: DropInterpositions,
        len: u32,
    ) -> Option<Vec<(u32, Move)>> {
        let mut counted = self.counted_lengths(pos, list, drops, len)?;
        let longest = counted.iter().map(|&(l, _)| l).max().unwrap_or(0);
        if longest == 0 {
            return Some(Vec::new());
        }
        counted.retain(|&(l, _)| l == longest);
        Some(counted)
    }

    /// The defences at `pos` (mated within `len` plies) that count, each
    /// with its exact tsume length: first the defences that always count,
    /// which give the base; then the drop interpositions, useless when
    /// their set-aside mate fits in the base.
    fn counted_lengths(
        &mut self,
        pos: &Position,
        list: &MoveList,
        drops: DropInterpositions,
        len: u32,
    ) -> Option<Vec<(u32, Move)>> {
        let mut counted: Vec<(u32, Move)> = Vec::new();
        let mut base = 0;
        for &m in list.iter().filter(|&&m| !drops.contains(m)) {
            let l = self.exact_after(pos, m, len.saturating_sub(1))? + 1;
            base = base.max(l);
            counted.push((l, m));
        }
        for &m in list.iter().filter(|&&m| drops.contains(m)) {
            if self.is_useless(pos, m, base)? {
                continue;
            }
            let l = self.exact_after(pos, m, len.saturating_sub(1))? + 1;
            counted.push((l, m));
        }
        Some(counted)
    }

    /// For an answer a limit cut short, a mating line from `root` along
    /// the longest resistance the table knows: at the defender's turn,
    /// among the defences known to be mated (drops between checker and
    /// king only when there is nothing else, and then the line ends: they
    /// may be useless interpositions), the one proven not mated within the
    /// most plies, then the one with the longest known mate; at the
    /// attacker's turn the check with the shortest known mate. `None` where
    /// the table knows no mating move, or a position comes back.
    ///
    /// The first proof's line may follow a defence far shorter than the
    /// longest (musou-022: 23 plies, against 33 published), while the
    /// bounded searches have already proven that some defence lasts longer.
    fn longest_known_line(&mut self, root: &Position) -> Option<Vec<Move>> {
        let attacker = self.search.attacker;
        let mut pos = root.clone();
        let mut line = Vec::new();
        let mut seen = HashSet::new();
        loop {
            if !seen.insert(pos.key()) || line.len() >= MAX_LINE as usize {
                return None;
            }
            let mut moves = MoveList::new();
            let m = if pos.side_to_move() == attacker {
                generate_checks(&pos, &mut moves);
                // A mate now is rarely in the table: the position has no
                // move to search.
                moves
                    .iter()
                    .filter_map(|&m| {
                        let child = pos.after(m);
                        let now = (!has_counted_evasion(&child)).then_some(0);
                        now.or_else(|| self.known_mate(&child)).map(|l| (l, m))
                    })
                    .min_by_key(|&(l, _)| l)?
                    .1
            } else {
                if !has_counted_evasion(&pos) {
                    // Mated, or only drops between checker and king left.
                    return Some(line);
                }
                generate_evasions(&pos, &mut moves);
                let drops = DropInterpositions::of(&pos);
                let mut best: Option<((u32, u32), Move)> = None;
                for &m in moves.iter().filter(|&&m| !drops.contains(m)) {
                    let child = pos.after(m);
                    let Some(mated) = self.known_mate(&child) else {
                        continue;
                    };
                    let resists = self
                        .search
                        .table
                        .probe(child.board_key() ^ self.search.salt, child.hand(attacker))
                        .filter(|p| p.dn == 0)
                        .map_or(0, |p| u32::from(p.len) + 1);
                    let score = (resists, mated);
                    if best.is_none_or(|(b, _)| score > b) {
                        best = Some((score, m));
                    }
                }
                best?.1
            };
            pos.do_move(m);
            line.push(m);
        }
    }

    /// The length of a mate the table knows from `pos` (attacker to
    /// move), under tsume counting or plain.
    fn known_mate(&self, pos: &Position) -> Option<u32> {
        let hand = pos.hand(self.search.attacker);
        [self.search.salt, self.plain_salt]
            .into_iter()
            .filter_map(|salt| self.search.table.probe(pos.board_key() ^ salt, hand))
            .filter(|p| p.pn == 0)
            .map(|p| u32::from(p.len))
            .min()
    }

    /// Reads the line of `m` at `pos` (the position after it mated in
    /// `len`) into `best`, the line kept so far among equally short
    /// attacks or equally long defences. `Some(true)` when the choice is
    /// settled: the line ends with the attacker's hand empty (and is as
    /// long as the tsume length), or no more
    /// alternatives may be read (or a limit stopped one, with a line kept);
    /// `None` when a limit stopped the first.
    fn settled(
        &mut self,
        pos: &Position,
        m: Move,
        len: u32,
        best: &mut Option<Vec<Move>>,
    ) -> Option<bool> {
        if best.is_some() && len > 1 {
            // Another move as good: worth reading only to avoid ending
            // with pieces in hand, and only so many times. A line of one
            // or two plies (a defence and the mate, or the mate) costs next
            // to nothing to read and is not counted: on musou-007 the last
            // moves of the first line read used all the reads, and the
            // check at move 15 whose line ends with an empty hand was never
            // tried.
            if self.alternatives_left == 0 {
                return Some(true);
            }
            self.alternatives_left -= 1;
        }
        let child = pos.after(m);
        self.enter(&child);
        let rest = stacker::maybe_grow(
            super::search::STACK_RED_ZONE,
            super::search::STACK_SEGMENT,
            || self.main_line(&child, len),
        );
        self.leave();
        let Some(rest) = rest else {
            return best.is_some().then_some(true);
        };
        let mut line = vec![m];
        line.extend(rest);
        // An empty final hand first, then the longer line (lines differ in
        // length only by DefenceChoice::EmptyHandFirst, where a line as
        // long as the tsume length is the one no side line outlasts).
        let key = |t: &Self, line: &[Move]| {
            (
                final_hand(pos, line, t.search.attacker).is_empty(),
                line.len(),
            )
        };
        let new_key = key(self, &line);
        if best.as_ref().is_none_or(|b| new_key > key(self, b)) {
            *best = Some(line);
        }
        Some(new_key == (true, len as usize + 1))
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
    let (len, exact, at_least) = t.shortest(root, upper, line);
    // `len` is `upper` when not exact: a bound proven either way.
    let at_most = len;
    let main = if exact { t.main_line(root, len) } else { None };
    // A limit that stops reading the main line leaves the length proven.
    let mut exact = main.is_some();
    let mut at_least = at_least;
    let mut moves = main.or_else(|| t.longest_known_line(root));
    // By the old convention: the longest defence's line is its answer when
    // it ends with an empty hand (no defence on it can be preferred);
    // otherwise the line is read again by the convention, which may be
    // shorter than the tsume length (a line's length is then its own).
    // Read that way from the start, a line that ends with pieces in hand
    // because of one attacker's choice deep down would have every
    // defender's node above it read its shorter defences (on musou-075,
    // 225 plies, more than 150 s where the longest line takes 47 s).
    //
    // By the longest rule too a line that ends with pieces in hand is read
    // again, with the budgets for equally good alternatives renewed, and
    // kept when it ends with an empty hand: the first reading may have
    // spent them elsewhere (musou-007 and 067 end with an empty hand in as
    // many plies when read again).
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
