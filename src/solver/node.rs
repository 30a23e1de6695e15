//! One node of the df-pn search: its result, its children and how their
//! numbers combine, and the order children are looked at in.

use crate::core::movegen::{MoveList, generate_checks};
use crate::core::{Hand, Move, PieceKind, Position};

use super::drops::{CountedBase, DropVerdict};
use super::interposition::{DropInterpositions, Ignored, generate_counted_evasions};
use super::repetition::NO_LOOP;
use super::tt::{INF, MAX_FINITE, Probe, Record};

/// The length field of a disproof holds the plies it holds for: a
/// disproof found under a length bound says "no mate within this many
/// plies"; this value says "no mate at all".
pub(crate) const DEPTH_ANY: u16 = u16::MAX;

/// The depth of a disproof one ply above one of `depth`.
#[inline]
pub(crate) fn deeper(depth: u16) -> u16 {
    if depth == DEPTH_ANY {
        DEPTH_ANY
    } else {
        depth.saturating_add(1).min(DEPTH_ANY - 1)
    }
}

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

    /// A proof of `len` plies with proof hand `hand`.
    pub(crate) fn proven(hand: Hand, len: u16) -> NodeResult {
        NodeResult {
            pn: 0,
            dn: INF,
            hand,
            len,
            loop_head: NO_LOOP,
            drop_free: false,
        }
    }

    /// A disproof for `len` plies with disproof hand `hand` that holds on
    /// every path.
    pub(crate) fn disproven(hand: Hand, len: u16, drop_free: bool) -> NodeResult {
        NodeResult {
            pn: INF,
            dn: 0,
            hand,
            len,
            loop_head: NO_LOOP,
            drop_free,
        }
    }

    /// Open numbers for the attacker hand `hand`.
    pub(crate) fn open(pn: u32, dn: u32, hand: Hand) -> NodeResult {
        NodeResult {
            pn,
            dn,
            hand,
            len: 0,
            loop_head: NO_LOOP,
            drop_free: false,
        }
    }

    /// What the table says.
    pub(crate) fn of_probe(p: &Probe) -> NodeResult {
        NodeResult {
            pn: p.pn,
            dn: p.dn,
            hand: p.hand,
            len: p.len,
            loop_head: NO_LOOP,
            drop_free: p.drop_free,
        }
    }

    /// The table record of this result, with its best move.
    pub(crate) fn record(&self, mv: Option<Move>) -> Record {
        Record {
            pn: self.pn,
            dn: self.dn,
            len: self.len,
            mv,
            drop_free: self.drop_free,
        }
    }
}

/// A move of a node with what is known below it.
#[derive(Copy, Clone)]
pub(crate) struct Child {
    pub mv: Move,
    pub pn: u32,
    pub dn: u32,
    pub hand: Hand,
    pub len: u16,
    pub loop_head: u32,
    /// Whether `pn`/`dn` were looked up or estimated yet.
    pub evaluated: bool,
    /// A sibling that must be solved before this child is looked at
    /// (delayed expansion), or `NO_PREV`.
    pub prev: u16,
    /// A useless interposition (tsume counting): mated, not counted.
    pub useless: bool,
    /// An interposition found not useless under this node's bound: its
    /// failure holds for this bound only (with more plies it may be useless).
    pub capped: bool,
    /// See [`NodeResult::drop_free`].
    pub drop_free: bool,
    /// A drop interposition that failed while the other defences were
    /// still open, and may be useless: it waits, not evaluated, until
    /// they are all proven (see [`super::drops`]).
    pub pending: bool,
}

pub(crate) const NO_PREV: u16 = u16::MAX;

impl Child {
    #[inline(always)]
    pub fn is_final(&self) -> bool {
        self.evaluated && (self.pn == 0 || self.dn == 0)
    }

    /// Takes the result of a look-up or a search, with what was found of
    /// the move as a drop interposition (`Counted` for any other move).
    #[inline(always)]
    pub fn set(&mut self, r: &NodeResult, verdict: DropVerdict) {
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

/// A node being searched: its children, the path hash of each, and at an
/// AND node under tsume counting what the drop judgement knows.
pub(crate) struct Node {
    pub children: Vec<Child>,
    pub paths: Vec<u64>,
    /// The drops between checker and king that are judged here (none but
    /// at an AND node under tsume counting).
    pub drops: DropInterpositions,
    /// The length of the defences that always count, once needed.
    pub base: CountedBase,
    /// Per drop interposition, the nodes of its next round while its
    /// useless test is open (0: no test running).
    pub test_budgets: Vec<u64>,
}

impl Node {
    /// The children of `pos`, not yet evaluated, with their delayed links
    /// (see [`link_delayed`]); `drops` are judged. `spare`, a node done
    /// with, lends its vectors. Kept out of line so the move list does not
    /// sit in every search frame.
    #[inline(never)]
    pub fn expand(
        pos: &Position,
        or_node: bool,
        ignored: Ignored,
        drops: DropInterpositions,
        spare: Option<Node>,
    ) -> Node {
        let mut moves = MoveList::new();
        if or_node {
            generate_checks(pos, &mut moves);
        } else {
            generate_counted_evasions(pos, ignored, &mut moves);
        }
        let mut node = spare.unwrap_or_else(|| Node {
            children: Vec::new(),
            paths: Vec::new(),
            drops,
            base: CountedBase::Unknown,
            test_budgets: Vec::new(),
        });
        node.children.clear();
        node.children.extend(moves.iter().map(|&mv| Child {
            mv,
            pn: 1,
            dn: 1,
            hand: Hand::EMPTY,
            len: 0,
            loop_head: NO_LOOP,
            evaluated: false,
            prev: NO_PREV,
            useless: false,
            capped: false,
            drop_free: false,
            pending: false,
        }));
        link_delayed(pos, or_node, &mut node.children);
        let n = node.children.len();
        node.paths.clear();
        node.paths.resize(n, 0);
        node.drops = drops;
        node.base = CountedBase::Unknown;
        node.test_budgets.clear();
        if !drops.is_empty() {
            node.test_budgets.resize(n, 0);
        }
        node
    }

    /// Whether child `i` may be looked at: not yet evaluated, and any
    /// sibling it waits for solved.
    #[inline(always)]
    pub fn is_ready(&self, i: usize) -> bool {
        let c = &self.children[i];
        !c.evaluated && (c.prev == NO_PREV || self.children[c.prev as usize].is_final())
    }

    /// The longest proof among the defences that are not drop
    /// interpositions, when they are all proven (0 when there are none).
    pub fn counted_base(&self) -> Option<u32> {
        let mut base = 0u32;
        for c in self.children.iter().filter(|c| !self.drops.contains(c.mv)) {
            if !(c.evaluated && c.pn == 0) {
                return None;
            }
            base = base.max(c.len as u32 + 1);
        }
        Some(base)
    }
}

/// Links moves that need not be searched side by side: the defender's
/// drops on one square (a pawn first; a stronger piece only once the
/// weaker one is refuted), and a pawn, bishop, rook (or lance to the
/// second rank) not promoting, after the same move promoting. Searching
/// them all at once inflates the proof numbers; the linked move is still
/// searched before any result is final.
fn link_delayed(pos: &Position, or_node: bool, children: &mut [Child]) {
    let us = pos.side_to_move();
    let mut last_drop_at = [NO_PREV; 81];
    for i in 0..children.len() {
        let m = children[i].mv;
        if m.is_drop() {
            if !or_node {
                let to = m.to().index();
                children[i].prev = last_drop_at[to];
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
            if children[j].mv == promoted {
                children[i].prev = j as u16;
                break;
            }
            if children[j].mv.from() != Some(from) && j + 40 < i {
                break;
            }
        }
    }
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
#[inline(always)]
pub(crate) fn widen(second: u32, bounded_or_node: bool) -> u32 {
    if second >= MAX_FINITE {
        return INF;
    }
    let s = second as u64;
    let eps = if bounded_or_node { s } else { s / 4 };
    (s + eps + 1).min(MAX_FINITE as u64) as u32
}

/// The node's numbers from its children: at an OR node the minimum proof
/// number and the sum of disproof numbers; the reverse at an AND node.
#[inline]
pub(crate) fn combine(children: &[Child], or_node: bool) -> (u32, u32) {
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
pub(crate) fn select(children: &[Child], or_node: bool) -> (usize, u32) {
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

/// Like [`select`], ties broken by a hash of each move and `salt` instead
/// of by the order of generation: a helper thread's order (see
/// [`super::parallel`]).
#[inline]
pub(crate) fn select_shuffled(children: &[Child], or_node: bool, salt: u64) -> (usize, u32) {
    let rank = |c: &Child| (c.mv.raw() as u64 ^ salt).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40;
    let mut best = usize::MAX;
    let mut best_v = INF;
    let mut best_rank = 0;
    let mut second = INF;
    for (i, c) in children.iter().enumerate() {
        if !c.evaluated {
            continue;
        }
        let v = if or_node { c.pn } else { c.dn };
        let r = rank(c);
        if best == usize::MAX || v < best_v || (v == best_v && r < best_rank) {
            if best != usize::MAX {
                second = second.min(best_v);
            }
            best = i;
            best_v = v;
            best_rank = r;
        } else {
            second = second.min(v);
        }
    }
    (if best == usize::MAX { 0 } else { best }, second)
}

/// The threshold left for one child out of a summed number: the node's
/// threshold minus what its siblings contribute.
#[inline]
pub(crate) fn sub_sibling_sum(th: u32, total: u32, own: u32) -> u32 {
    if th == INF {
        return INF;
    }
    let siblings = total as u64 - own.min(total) as u64;
    (th as u64).saturating_sub(siblings).min(MAX_FINITE as u64) as u32
}

/// First disproof number of an OR node: its number of checks.
pub(crate) fn init_or_dn(checks: usize) -> u32 {
    checks as u32
}

/// First proof number of an AND node: one more than the number of king
/// moves among its evasions (interpositions and captures are usually
/// answered at once; a king with room to run is what makes a mate hard).
pub(crate) fn init_and_pn(king_moves: u32) -> u32 {
    1 + king_moves
}
