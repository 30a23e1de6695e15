//! New nodes and the last plies of a bound, decided without a search: the
//! first estimate of a position never searched, with a mate in one or a
//! dead end one ply ahead (df-pn+ look-ahead; under a length bound the
//! attacker's mates in one only with one ply left, see
//! [`Search::evaluate_new`]), and the attacker's nodes with one, three or
//! five plies left under a length bound.

use crate::core::movegen::{MoveList, count_king_evasions, generate_checks, has_legal_move};
use crate::core::{Hand, Position};

use super::hands;
use super::interposition::{
    DropInterpositions, Ignored, counted_evasions, generate_counted_evasions, has_counted_evasion,
};
use super::mode::{Counting, Mode};
use super::node::{DEPTH_ANY, NodeResult, init_and_pn, init_or_dn};
use super::search::Search;

/// The most checks of an OR node with five plies left that
/// [`Search::frontier_within`] tests: the test of a node it cannot disprove
/// (a mate within five, or a drop that may be useless) is work thrown away,
/// and grows with the checks. With a limit of 8 the test costs tiny
/// problems' answers 12% less time and eight musou rows' 6% less, where
/// without one those rows took 3% more (`docs/measurements.md`).
const FRONTIER_OF_FIVE_MAX_CHECKS: usize = 8;

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

impl Search<'_> {
    /// The final result of a node with no move: at an OR node no check
    /// (disproven), at an AND node no evasion (mated). Stored and returned.
    pub(crate) fn finish_without_moves(
        &mut self,
        counting: Counting,
        pos: &Position,
        or_node: bool,
    ) -> NodeResult {
        let r = if or_node {
            NodeResult::disproven(hands::or_disproof_hand_without_moves(pos), DEPTH_ANY, true)
        } else {
            NodeResult::proven(hands::and_proof_hand(pos, Hand::EMPTY), 0)
        };
        self.store(counting, pos, &r, None, 1);
        r
    }

    /// An OR node with one ply left under a length bound, decided without
    /// expanding it: mated in one, or no check leaves the defender without
    /// a move (stored as "no mate within 1"). `None` under tsume counting
    /// when a check leaves the defender drops between checker and king
    /// (they may be useless: the full search judges them).
    pub(crate) fn frontier(
        &mut self,
        counting: Counting,
        pos: &mut Position,
    ) -> Option<NodeResult> {
        let mut checks = MoveList::new();
        generate_checks(pos, &mut checks);
        if checks.is_empty() {
            return Some(self.finish_without_moves(counting, pos, true));
        }
        let drop_free = match self.mate_in_one(
            counting,
            pos,
            &checks,
            counting.is_tsume(),
            counting.marks_drop_free(),
        ) {
            Ok(r) => return Some(r),
            Err(Missed {
                undecided: true, ..
            }) => return None,
            Err(Missed { drop_free, .. }) => drop_free,
        };
        let r = self.no_mate_within(counting, pos, 1, drop_free);
        self.store(counting, pos, &r, None, 1);
        Some(r)
    }

    /// An OR node with `plies` (3 or 5) left under a length bound,
    /// disproven without expanding it when every check has a reply that
    /// counts (not a drop between checker and king, which may be useless)
    /// after which the OR node left with `plies - 2` is disproven: by
    /// [`frontier`](Self::frontier) with one ply left, else by the table or
    /// this test in turn. Stored as "no mate within `plies`". `None`
    /// otherwise (the full search decides), at once with 5 left when there
    /// are more than [`FRONTIER_OF_FIVE_MAX_CHECKS`] checks.
    pub(crate) fn frontier_within(
        &mut self,
        mode: Mode,
        pos: &mut Position,
        plies: u32,
    ) -> Option<NodeResult> {
        let counting = mode.counting;
        let mut checks = MoveList::new();
        generate_checks(pos, &mut checks);
        if checks.is_empty() {
            return Some(self.finish_without_moves(counting, pos, true));
        }
        if plies >= 5 && checks.len() > FRONTIER_OF_FIVE_MAX_CHECKS {
            return None;
        }
        let mark = counting.marks_drop_free();
        let mut drop_free = mark;
        for &c in checks.iter() {
            self.count_node();
            if mode.nest > 0 {
                self.stats.nested_nodes += 1;
            }
            if self.aborted.is_some() {
                return None;
            }
            let undo = pos.do_move(c);
            let drops = if counting.is_tsume() || mark {
                DropInterpositions::of(pos)
            } else {
                DropInterpositions::NONE
            };
            let mut replies = MoveList::new();
            generate_counted_evasions(pos, counting.ignored(), &mut replies);
            let mut refuted = false;
            // The replies that always count first: a refutation among them
            // holds under tsume counting when its own "no mate in one"
            // does. Counting every interposition, the drops come next.
            for drop_pass in [false, true] {
                if drop_pass && (refuted || counting.is_tsume()) {
                    break;
                }
                for &e in replies.iter().filter(|&&e| drops.contains(e) == drop_pass) {
                    let undo_e = pos.do_move(e);
                    let r = if plies <= 3 {
                        self.frontier(counting, pos)
                    } else {
                        self.probe_settled(counting, pos, plies - 2)
                            .map(|p| NodeResult::of_probe(&p))
                            .or_else(|| self.frontier_within(mode, pos, plies - 2))
                    };
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
        let r = self.no_mate_within(counting, pos, plies, drop_free);
        self.store(counting, pos, &r, None, checks.len() as u64);
        Some(r)
    }

    /// Tries each of `checks` at an OR node for a mate in one; the proof
    /// is stored and returned. Otherwise what [`Missed`] says, its
    /// `undecided` asked for when `undecided` is (under tsume counting),
    /// its `drop_free` when `drop_free` is. A check after which
    /// the king can step away is passed over without playing it
    /// ([`Position::king_can_step_out_after`]): most checks, in a mate
    /// search.
    fn mate_in_one(
        &mut self,
        counting: Counting,
        pos: &mut Position,
        checks: &MoveList,
        undecided: bool,
        drop_free: bool,
    ) -> Result<NodeResult, Missed> {
        let ignored = counting.ignored();
        let mut some_undecided = false;
        let mut every_reply_counts = drop_free;
        for &m in checks.iter() {
            // Not mated, and not left with drops alone either.
            if pos.king_can_step_out_after(m) {
                continue;
            }
            let undo = pos.do_move(m);
            let mated = if ignored != Ignored::Nothing {
                counted_evasions(pos, ignored).is_empty()
            } else {
                !has_legal_move(pos)
            };
            let mated_hand = mated.then(|| hands::and_proof_hand(pos, Hand::EMPTY));
            some_undecided |= undecided
                && !mated
                && !DropInterpositions::of(pos).is_empty()
                && !has_counted_evasion(pos);
            every_reply_counts = every_reply_counts && (mated || has_counted_evasion(pos));
            pos.undo_move(m, undo);
            if let Some(h) = mated_hand {
                let r = NodeResult::proven(hands::or_proof_hand(pos, m, h), 1);
                self.store(counting, pos, &r, Some(m), 1);
                return Ok(r);
            }
        }
        Err(Missed {
            undecided: some_undecided,
            drop_free: every_reply_counts,
        })
    }

    /// The first estimate of a position never searched: mates and
    /// dead ends one ply ahead are found here (df-pn+ look-ahead), the
    /// attacker's mates in one only when `mate_in_one` is.
    pub(crate) fn evaluate_new(
        &mut self,
        counting: Counting,
        pos: &mut Position,
        mate_in_one: bool,
    ) -> NodeResult {
        let hand = self.attacker_hand(pos);
        let r = if pos.side_to_move() == self.attacker {
            // OR node: a mate in one, or no check at all.
            let mut checks = MoveList::new();
            generate_checks(pos, &mut checks);
            if checks.is_empty() {
                return self.finish_without_moves(counting, pos, true);
            }
            if mate_in_one && let Ok(r) = self.mate_in_one(counting, pos, &checks, false, false) {
                return r;
            }
            NodeResult::open(1, init_or_dn(checks.len()), hand)
        } else {
            // AND node: mated, or one more than its king moves (which
            // always count; the other evasions are generated only when
            // there is none, to tell a mate).
            let kings = count_king_evasions(pos);
            if kings == 0 {
                let mut evasions = MoveList::new();
                generate_counted_evasions(pos, counting.ignored(), &mut evasions);
                if evasions.is_empty() {
                    return self.finish_without_moves(counting, pos, false);
                }
            }
            NodeResult::open(init_and_pn(kings), 1, hand)
        };
        self.store(counting, pos, &r, None, 0);
        r
    }
}
