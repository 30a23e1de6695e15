//! Judging drops between checker and king inside the search, under tsume
//! counting: which of them are useless interpositions (the definition is
//! in [`super::interposition`]), and what the node's other defences last
//! (the base they are judged against).
//!
//! At an AND node the search looks at a drop like any defence. A drop that
//! is mated counts as a mate, useless or not. A drop that fails is judged:
//! while the other defences are open, at once against the plies left
//! ([`Search::judge_early_drop`]); once they are all proven, against their
//! exact length ([`Search::judge_drop`]). A drop still open gets a test in
//! rounds, with a share of the nodes of its own search. By
//! [`UselessRule::CheckerCaptures`], whose verdict does not depend on the
//! other defences, a drop is judged by [`Search::judge_drop`] as soon as it
//! fails, open defences or not; by [`UselessRule::PieceUnused`] every drop
//! waits until the other defences are proven. By
//! [`UselessRule::WithinOrChecker`] a drop is judged as by this crate's
//! rule, and one that rule would count is tested by 定義1 as well, at once
//! (a drop useless by 定義1 needs no base).

use crate::core::movegen::{MoveList, generate_checks};
use crate::core::{Hand, Move, Position, Square};

use super::interposition::{
    Ignored, UselessRule, checker_capture_horizon, set_aside, unused_piece_horizon,
};
use super::mode::{Counting, MAX_PLY, Mode};
use super::node::{DEPTH_ANY, Node, NodeResult};
use super::repetition::{NO_LOOP, extend_path};
use super::search::{At, STACK_RED_ZONE, STACK_SEGMENT, Search};
use super::tt::INF;

/// The base a drop's useless test is judged against, as far as the test
/// needs it (see [`Search::drop_base`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DropBase {
    /// The exact length of the node's counted defences.
    Exact(u32),
    /// Less than the plies the drop is known to fail for: no drop is
    /// useless by it.
    Less,
    /// A limit cut the search short.
    CutShort,
}

impl DropBase {
    /// The exact base `b`, or [`DropBase::Less`] when it is under `below`.
    fn at_least(b: u32, below: u32) -> DropBase {
        if b >= below {
            DropBase::Exact(b)
        } else {
            DropBase::Less
        }
    }
}

/// Nodes of the first round of a drop interposition's search while its
/// useless test is open; each round that runs out doubles them (see
/// [`Search::judge_drop`]).
pub(crate) const FIRST_USELESS_ROUND_NODES: u64 = 1000;

/// After each round of a drop interposition's search, its useless test may
/// use the round's nodes divided by this.
pub(crate) const USELESS_TEST_SHARE: u64 = 4;

/// Path-hash tags of the nested searches of a useless test: the position
/// after a capture with the piece set aside, and with it in hand.
const SET_ASIDE_TAG: u64 = 0x5e7a_51de;
const WITH_PIECE_TAG: u64 = 0x0b5e_55ed;
/// The path-hash tag of the set-aside search of [`UselessRule::CheckerCaptures`]
/// (its bound is not the base's).
const CHECKER_SET_ASIDE_TAG: u64 = 0x0c4e_c6e2;
/// The same with no interposition counted (its quick disproof).
const CHECKER_LOOSEST_TAG: u64 = 0x1005_e575;

/// When the search looks at the drops between checker and king of an AND
/// node, by the rule of its counting.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum DropTiming {
    /// Searched before the other defences are proven; one that fails
    /// refutes when no set-aside position is mated within the plies left
    /// (and, by `within-or-checker`, it is not useless by 定義1), else it
    /// waits for them (`within-other-defences`, `within-or-checker`).
    Early,
    /// Only once the other defences are all proven, whose length the test
    /// needs (`piece-unused`).
    AfterBase,
    /// Like any defence, and judged by its own test as soon as it fails:
    /// the verdict needs no base (`checker-captures`), so a drop that fails
    /// and counts refutes the node at once, and a useless one need not
    /// wait for the other defences.
    Alone,
}

impl DropTiming {
    /// The timing of the drops under `counting`.
    pub(crate) fn of(counting: Counting) -> DropTiming {
        match counting.rule() {
            Some(UselessRule::WithinOtherDefences | UselessRule::WithinOrChecker) => {
                DropTiming::Early
            }
            Some(UselessRule::CheckerCaptures) => DropTiming::Alone,
            _ => DropTiming::AfterBase,
        }
    }
}

/// What is known at an AND node of the length of its defences that are
/// not drop interpositions (the base of [`super::interposition`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum CountedBase {
    /// Not searched yet.
    Unknown,
    /// The length.
    Exact(u32),
    /// At most this: all mated within it.
    AtMost(u32),
}

/// What was found of a drop interposition.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum DropVerdict {
    /// Useless: mated, not counted.
    Useless,
    /// Failed and not useless under this node's bound.
    Capped,
    /// Mated and counted, or known not useless while still open; or not
    /// a drop between checker and king at all.
    Counted,
    /// Not known yet.
    Open,
    /// Failed, and may be useless: waits for the base.
    Pending,
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

/// A useless interposition's result: mated (by the set-aside position's
/// proof hand), not counted. `len` is the plies the set-aside position is
/// mated in: the node is mated within no fewer (the bound this
/// interposition was judged under).
fn useless_result(hand: Hand, len: u16) -> NodeResult {
    NodeResult::proven(hand, len)
}

impl Search<'_> {
    /// Judges the drop interposition `m` at `pos` (an AND node placed at
    /// `at`, with `node`'s children) after a search of it left `r`.
    /// A drop that failed (not mated within the plies left) gets a second
    /// chance: it may be useless (mated without being counted), which is
    /// tested in full. A drop still open gets a test of at most `budget`
    /// nodes (none when 0), so a useless drop need not first be searched
    /// to its failure, which under a long bound may cost far more than the
    /// test. `r` becomes the useless mate when one is found, and open when
    /// a limit stopped the test of a failed drop (its failure then proves
    /// nothing here).
    pub(crate) fn judge_drop(
        &mut self,
        pos: &mut Position,
        at: At,
        node: &mut Node,
        m: Move,
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
            // By 定義1 alone the other defences play no part: no base.
            let rule = at.mode.counting.rule();
            let checker = pos.checkers().lsb();
            let base = if rule.is_some_and(UselessRule::judges_against_base) {
                self.drop_base(pos, at, node, below)
            } else {
                DropBase::Less
            };
            if base != DropBase::CutShort {
                let undo = pos.do_move(m);
                let mut found = match base {
                    DropBase::Exact(base) => self.useless_interposition(pos, at, m.to(), base),
                    DropBase::Less | DropBase::CutShort => None,
                };
                if found.is_none() {
                    let upto = checker_capture_horizon(at.mode.nest, at.remaining());
                    found = self.useless_by_checker_captures(pos, at, checker, m.to(), upto);
                }
                if found.is_none()
                    && failed
                    && rule == Some(UselessRule::PieceUnused)
                    && self.aborted.is_none()
                {
                    let left = at.remaining();
                    let upto = unused_piece_horizon(at.mode.nest, left);
                    found = self.unused_piece_interposition(pos, at, m.to(), left, upto);
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

    /// Judges the drop interposition `m` at `pos` (an AND node placed at
    /// `at`) after a search of it left `r`, while some of the node's other
    /// defences are still open (so the base is not known). A mate is a
    /// mate, counted or not. A failure refutes the node when no capture's
    /// set-aside position is mated within the plies left (`Capped`): the
    /// base never exceeds them where it matters (when a counted defence
    /// fails, the node fails anyway), and, by
    /// [`UselessRule::WithinOrChecker`], the drop is not useless by 定義1
    /// either (`Useless` when it is). Otherwise the drop may be useless
    /// and waits for the base (`Pending`).
    pub(crate) fn judge_early_drop(
        &mut self,
        pos: &mut Position,
        at: At,
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
        let checker = pos.checkers().lsb();
        let undo = pos.do_move(m);
        let found = self.useless_interposition(pos, at, m.to(), at.remaining());
        // Not useless by the other defences; by `within-or-checker` it may
        // still be by 定義1, which needs none of them.
        let by_checker = if found.is_none() {
            let upto = checker_capture_horizon(at.mode.nest, at.remaining());
            self.useless_by_checker_captures(pos, at, checker, m.to(), upto)
        } else {
            None
        };
        pos.undo_move(m, undo);
        if self.aborted.is_some() {
            *r = NodeResult::OPEN;
            return DropVerdict::Open;
        }
        if let Some(res) = by_checker {
            *r = res;
            DropVerdict::Useless
        } else if found.is_some() {
            DropVerdict::Pending
        } else {
            DropVerdict::Capped
        }
    }

    /// The base of the drop interpositions at `pos` (an AND node placed at
    /// `at`) where it matters for a drop whose set-aside positions are
    /// known not to be mated within `below` less one plies (0 when nothing
    /// is known): [`DropBase::Less`] when the base is less than `below` (no
    /// such drop is useless by it), else the exact length of the counted
    /// defences. What is found is kept in `node` for its other drops.
    /// [`DropBase::CutShort`] when a limit cut the search short (a base cut
    /// short may be too short, so it is not kept).
    ///
    /// Under a bound, a drop that failed was not mated within the plies
    /// left, so its set-aside positions are not mated within two plies
    /// less, while the counted defences are all mated within the plies
    /// left: only the last one or two bounds of the base need a search.
    fn drop_base(&mut self, pos: &mut Position, at: At, node: &mut Node, below: u32) -> DropBase {
        let upper = node.counted_base().unwrap_or(0);
        if below > upper {
            return DropBase::Less;
        }
        match node.base {
            CountedBase::Exact(b) => return DropBase::at_least(b, below),
            CountedBase::AtMost(b) if b < below => return DropBase::Less,
            _ => {}
        }
        let from = (below.saturating_sub(1) & !1).max(2);
        let b = self.exact_base(pos, at, node, from, upper);
        if self.aborted.is_some() {
            return DropBase::CutShort;
        }
        node.base = if b > from || from == 2 {
            CountedBase::Exact(b)
        } else {
            CountedBase::AtMost(b)
        };
        DropBase::at_least(b, below)
    }

    /// The exact length of the defences at `pos` (an AND node placed at
    /// `at`) that are not drop interpositions, all proven, the longest
    /// within `upper`: the least even bound from `from` (even, at least 2)
    /// under which every one of them is mated, found by searches under
    /// growing bounds. `from` itself when they are all mated within it
    /// (the length may then be less).
    fn exact_base(
        &mut self,
        pos: &mut Position,
        at: At,
        node: &Node,
        from: u32,
        upper: u32,
    ) -> u32 {
        let counted: Vec<Move> = node
            .children
            .iter()
            .filter(|c| !node.drops.contains(c.mv))
            .map(|c| c.mv)
            .collect();
        if counted.is_empty() {
            return 0;
        }
        let mut b = from;
        'bounds: while b < upper {
            let nested = at.mode.nested(at.ply + b);
            for &m in &counted {
                let undo = pos.do_move(m);
                let child_path = extend_path(at.path, pos.key() ^ ((b as u64) << 48) ^ 0xba5e);
                let remaining = b - 1;
                let known = self
                    .probe_within(nested.counting, pos, remaining)
                    .map(|p| Search::usable(nested, &p, remaining));
                let mated = match known {
                    Some(r) if r.pn == 0 => true,
                    Some(r) if r.dn == 0 => false,
                    _ => {
                        self.reps.push(pos.board_key(), self.attacker_hand(pos));
                        let r = stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || {
                            self.mid(nested, pos, child_path, INF, INF, at.ply + 1)
                        });
                        self.reps.pop();
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
        b.min(upper.max(2))
    }

    /// Whether the drop interposition just played on `sq` (the defender's
    /// move from the node placed at `at`; `pos` is the attacker to move)
    /// is useless by the definition in [`super::interposition`]: some
    /// capture of it, with the piece set aside, is mated within `bound`
    /// plies (the longest of the node's other defences). `Some` with the
    /// mate's result when it is.
    pub(crate) fn useless_interposition(
        &mut self,
        pos: &mut Position,
        at: At,
        sq: Square,
        bound: u32,
    ) -> Option<NodeResult> {
        let kind = pos.piece_at(sq)?.kind();
        let mut checks = MoveList::new();
        generate_checks(pos, &mut checks);
        let remaining = bound.min(at.remaining());
        for &x in checks.iter().filter(|m| m.to() == sq) {
            let undo = pos.do_move(x);
            let mut q0 = set_aside(pos, kind);
            pos.undo_move(x, undo);
            let r = self.nested_within(&mut q0, at, remaining, SET_ASIDE_TAG);
            if r.pn == 0 && r.len as u32 <= remaining {
                return Some(useless_result(r.hand, r.len));
            }
            if self.aborted.is_some() {
                return None;
            }
        }
        None
    }

    /// By the rules with 定義1's clauses 3'' and 4''
    /// ([`UselessRule::judges_checker_captures`]): whether the drop
    /// interposition just played on `sq` (`pos`: the attacker to move;
    /// `checker` checked before the drop) is useless by them, its
    /// set-aside mate looked for within `upto` plies (see
    /// [`Search::captured_by_checker_interposition`]). `None` by the other
    /// rules, with no checker, or when a limit has stopped the search.
    pub(crate) fn useless_by_checker_captures(
        &mut self,
        pos: &mut Position,
        at: At,
        checker: Option<Square>,
        sq: Square,
        upto: u32,
    ) -> Option<NodeResult> {
        let by_rule = at
            .mode
            .counting
            .rule()
            .is_some_and(UselessRule::judges_checker_captures);
        if !by_rule || self.aborted.is_some() {
            return None;
        }
        self.captured_by_checker_interposition(pos, at, checker?, sq, upto)
    }

    /// Under [`UselessRule::CheckerCaptures`] (定義1): whether the drop
    /// interposition just played on `sq` (the defender's move from the
    /// node placed at `at`, checked by the piece on `checker`; `pos` is
    /// the attacker to move) is useless: some capture of it by the checker
    /// leaves, with the piece set aside, a position mated within `upto`
    /// plies (the rule's horizon). `Some` with a result that adds nothing
    /// to the node's length when it is: the verdict holds whatever the
    /// bound, and the line ends at the drop.
    pub(crate) fn captured_by_checker_interposition(
        &mut self,
        pos: &mut Position,
        at: At,
        checker: Square,
        sq: Square,
        upto: u32,
    ) -> Option<NodeResult> {
        let kind = pos.piece_at(sq)?.kind();
        let mut checks = MoveList::new();
        generate_checks(pos, &mut checks);
        for &x in checks
            .iter()
            .filter(|x| x.to() == sq && x.from() == Some(checker))
        {
            let undo = pos.do_move(x);
            let mut q0 = set_aside(pos, kind);
            pos.undo_move(x, undo);
            // With no interposition at all the attacker mates at least as
            // soon (the defender has fewer defences): no mate that way,
            // none by the rule, for a fraction of the nodes.
            let loosest = At {
                mode: Mode {
                    counting: Counting::Ignoring(Ignored::All),
                    ..at.mode
                },
                ..at
            };
            let r = self.nested_within(&mut q0, loosest, upto, CHECKER_LOOSEST_TAG);
            if self.aborted.is_some() {
                return None;
            }
            if r.dn == 0 {
                continue;
            }
            let r = self.nested_within(&mut q0, at, upto, CHECKER_SET_ASIDE_TAG);
            if r.pn == 0 && r.len as u32 <= upto {
                return Some(useless_result(r.hand, 0));
            }
            if self.aborted.is_some() {
                return None;
            }
        }
        None
    }

    /// Under [`UselessRule::PieceUnused`]: whether the drop interposition
    /// just played on `sq` (the defender's move from the node placed at
    /// `at`; `pos` is the attacker to move) is useless because the
    /// attacker does not use the piece: for some capture of it, the least
    /// bound from `from` to `upto` (growing by two) under which the
    /// position after the capture is mated also holds a mate with the piece
    /// set aside. `from` is a bound that position is known not to be mated
    /// under less than (the plies left at the node, for a drop that failed
    /// under them). `Some` with a result that adds nothing to the node's
    /// length when it is (the drop does not count, whatever its mate's
    /// length).
    pub(crate) fn unused_piece_interposition(
        &mut self,
        pos: &mut Position,
        at: At,
        sq: Square,
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
            let mut b = from;
            let mut verdict = UnusedTest::UsedWithin(upto);
            while b <= upto {
                let r = self.nested_within(&mut with_piece, at, b, WITH_PIECE_TAG);
                if self.aborted.is_some() {
                    return None;
                }
                if r.dn == 0 {
                    if r.len == DEPTH_ANY {
                        // No mate at all: the piece is needed under any
                        // bound (when that holds on every path).
                        if r.loop_head == NO_LOOP {
                            verdict = UnusedTest::UsedWithin(MAX_PLY);
                        }
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
                let s = self.nested_within(&mut without, at, b, SET_ASIDE_TAG);
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

    /// Whether `q` (the defender to move, standing in for the node placed
    /// at `at`) is mated within `plies`: from the table, else by a nested
    /// search under that bound. `tag` tells apart the kinds of nested
    /// search in the path hash.
    fn nested_within(&mut self, q: &mut Position, at: At, plies: u32, tag: u64) -> NodeResult {
        let q_path = extend_path(at.path, q.key() ^ tag ^ ((plies as u64) << 40));
        let nested = at.mode.nested(at.ply + plies);
        if let Some(k) = self.reps.recorded(nested.counting, q_path, nested.bounded) {
            return NodeResult {
                pn: INF,
                dn: 0,
                hand: k.hand,
                len: k.len,
                loop_head: k.head,
                drop_free: false,
            };
        }
        if let Some(p) = self.probe_settled(nested.counting, q, plies) {
            return NodeResult::of_probe(&p);
        }
        if self.reps.repeats(q.board_key(), self.attacker_hand(q)) {
            // Back on the path: no mate this way.
            return NodeResult::disproven(self.attacker_hand(q), 0, false);
        }
        self.reps.push(q.board_key(), self.attacker_hand(q));
        let r = stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || {
            self.mid(nested, q, q_path, INF, INF, at.ply)
        });
        self.reps.pop();
        r
    }
}

#[cfg(test)]
mod tests {
    use crate::core::{Color, Position};
    use crate::solver::Solver;
    use crate::solver::answer::TsumeSearch;
    use crate::solver::interposition::{UNUSED_PIECE_EXTRA_PLIES, UselessRule};
    use crate::solver::mode::{Bounded, Counting, Mode};

    /// Whether `pos` is mated within `plies` by `rule`, asked as the
    /// question (`nested` false) or as inside a test, on `solver`'s table.
    fn mated_within(
        solver: &mut Solver,
        pos: &Position,
        rule: UselessRule,
        plies: u32,
        nested: bool,
    ) -> bool {
        let salt = crate::solver::out_of_play_salt(pos);
        let mut search = solver.search(Color::Black, salt, 1_000_000, None);
        let mut mode = Mode::within(Counting::of_rule(rule), plies);
        if nested {
            mode = mode.nested(plies);
        }
        let mut p = pos.clone();
        search.reps.push(p.board_key(), p.hand(Color::Black));
        let r = Bounded::of(&search.search_root(mode, &mut p, 0));
        search.reps.pop();
        r.expect("decided").is_mated()
    }

    /// By the rules whose tests look further at the question asked than
    /// inside another test, a position may be mated within a bound as the
    /// question and not inside a test: here L*1d mates at once, the drops
    /// on 1c and 1b taken by the lance and mated without (定義1) within
    /// 16 plies but not within the 1 a test would have left. Neither
    /// answer is read for the other, whichever is asked first on one table.
    #[test]
    fn a_position_asked_inside_a_test_has_its_own_answers() {
        let pos: Position = "8k/6S2/9/6N2/8N/9/9/9/9 b L2r2b4g3s2n3l18p 1"
            .parse()
            .unwrap();
        for rule in [UselessRule::CheckerCaptures, UselessRule::WithinOrChecker] {
            assert!(
                mated_within(&mut Solver::new(16), &pos, rule, 1, false),
                "{rule}"
            );
            assert!(
                !mated_within(&mut Solver::new(16), &pos, rule, 1, true),
                "{rule}"
            );
            for nested_first in [true, false] {
                let mut solver = Solver::new(16);
                let first = mated_within(&mut solver, &pos, rule, 1, nested_first);
                let second = mated_within(&mut solver, &pos, rule, 1, !nested_first);
                assert_eq!((first, second), (!nested_first, nested_first), "{rule}");
            }
        }
        // By this crate's rule the two are one question.
        let rule = UselessRule::WithinOtherDefences;
        assert_eq!(
            mated_within(&mut Solver::new(16), &pos, rule, 1, false),
            mated_within(&mut Solver::new(16), &pos, rule, 1, true)
        );
    }

    /// By [`UselessRule::PieceUnused`] a drop met inside the test of
    /// another is judged within what is left of that test, so no search
    /// goes further than the question's plies and one test's
    /// [`UNUSED_PIECE_EXTRA_PLIES`]: musou-025 asked "mated within 7" for
    /// 2M nodes reaches ply 23, where with that many plies beyond each
    /// nested test's own it reached 68.
    #[test]
    fn piece_unused_tests_nested_in_tests_stay_within_them() {
        let pos: Position = "4n4/1s3p+R+b1/2Pgk2l1/3sp1S2/3p2p2/6P2/3+l5/4N4/9 b RBSN3gn2l12p 1"
            .parse()
            .unwrap();
        let mut solver = Solver::new(256);
        let mut search = solver.search(Color::Black, 0, 2_000_000, None);
        let mut t = TsumeSearch::new(&mut search, &pos, UselessRule::PieceUnused);
        t.within(&pos, 7);
        let (max_ply, nodes) = (t.search.stats.max_ply, t.search.nodes);
        assert!(nodes >= 1_000_000, "{nodes} nodes");
        assert!(
            max_ply <= 7 + UNUSED_PIECE_EXTRA_PLIES,
            "ply {max_ply} in {nodes} nodes"
        );
    }
}
