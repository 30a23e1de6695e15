//! Repetition: the positions on the current search path, and the results
//! that hold only because of a repetition on that path.
//!
//! Every attacker move in a mate search is a check, so a position that
//! comes back on the path is a perpetual check: a failure for the attacker.
//! Such a failure depends on the path: reached by another path, the same
//! position may well be a mate. Storing it in the transposition table as a
//! plain disproof would turn into false "no mate" answers elsewhere (the
//! graph-history interaction). So it is kept here, keyed by the hash of the
//! whole path that led to it, and never in the main table.
//!
//! The same holds, and is checked the same way, for a position whose board
//! is on the path with the attacker then holding at least as much: mating
//! from here would mate from there by the same moves, so the detour is
//! never needed (an inferior position, as the literature calls it).
//!
//! A failure depends only on the part of the path from the position it
//! repeats down. So each path result carries its *loop head*: the place on
//! the path (1 + its index) of the earliest position it relies on. A node
//! whose failure relies on no position above itself (every loop found in
//! its subtree comes back to it or below) fails on any path: another
//! history only adds repetitions, which only add failures for the
//! attacker. Such a result goes to the table like any other. Under a
//! length bound the same holds for "no mate within b": a mate that passes
//! through a repeated position is never needed, since the position, mated
//! from the later point with fewer plies left, is mated as quickly from
//! the earlier point. Without this, one perpetual check deep in a
//! refutation keeps the whole main line of a long problem out of the
//! table, and every length bound searches the line again from scratch.
//!
//! Results found under a length bound ("no mate within b plies on this
//! path") are kept apart from those found without one: they are dropped
//! when the bound changes, and a search without a bound never reads them
//! (it would turn "not within b" into "not at all").

use hashbrown::HashMap;

use crate::core::Hand;

use super::mode::Counting;

/// The positions on the current path, and path-keyed repetition results.
pub struct Repetitions {
    /// How many times each board is on the path.
    boards: HashMap<u64, u32>,
    /// The path: board key and attacker hand of each position.
    stack: Vec<(u64, Hand)>,
    path_disproofs: HashMap<u64, PathResult>,
    /// Path results found without a length bound: they hold for any bound.
    lasting_disproofs: HashMap<u64, PathResult>,
    limit: usize,
    /// One bit per path hash class, set for every result recorded since
    /// the last [`clear`](Self::clear): most look-ups find no result, and
    /// this answers them without reaching into the maps.
    filter: Box<[u64]>,
    /// Whether a bit of `filter` is set.
    filtered: bool,
}

/// Words of [`Repetitions::filter`]: 128 KB.
const FILTER_WORDS: usize = 1 << 14;

/// The word and bit of `filter` for a salted path hash.
#[inline(always)]
fn filter_bit(key: u64) -> (usize, u64) {
    ((key >> 50) as usize, 1 << (key & 63))
}

/// The loop head of a result that holds on every path.
pub const NO_LOOP: u32 = u32::MAX;

/// The loop head of a result that depends on the whole path (a depth cut
/// without a bound: the path's length decided it).
pub const WHOLE_PATH: u32 = 0;

/// A failure for the attacker that holds on the path it was found on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PathResult {
    /// The place on the path (1 + index) of the earliest position the
    /// failure relies on; [`WHOLE_PATH`] when it relies on all of it.
    pub head: u32,
    /// The plies it holds for (as a disproof's length in the table).
    pub len: u16,
    /// Its disproof hand, as if the loop head's position held.
    pub hand: Hand,
}

/// Combines the hash of a path with the key of the position it reaches.
#[inline(always)]
pub fn extend_path(path: u64, key: u64) -> u64 {
    (path.rotate_left(7) ^ key).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

impl Repetitions {
    /// At most `limit` path-dependent results are kept; past that the set
    /// is emptied (which costs re-search, never soundness).
    pub fn new(limit: usize) -> Repetitions {
        Repetitions {
            boards: HashMap::new(),
            stack: Vec::new(),
            path_disproofs: HashMap::new(),
            lasting_disproofs: HashMap::new(),
            limit,
            filter: vec![0; FILTER_WORDS].into_boxed_slice(),
            filtered: false,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.boards.clear();
        self.stack.clear();
        self.path_disproofs.clear();
        self.lasting_disproofs.clear();
        if self.filtered {
            self.filter.fill(0);
            self.filtered = false;
        }
    }

    /// Marks the salted path hash `key` as having a result.
    #[inline]
    fn mark(&mut self, key: u64) {
        let (w, b) = filter_bit(key);
        self.filter[w] |= b;
        self.filtered = true;
    }

    /// Forgets the path-keyed results (not the current path).
    pub fn clear_path_results(&mut self) {
        self.path_disproofs.clear();
    }

    /// Enters a position (board key and attacker hand) on the path.
    #[inline]
    pub fn push(&mut self, board: u64, hand: Hand) {
        *self.boards.entry(board).or_insert(0) += 1;
        self.stack.push((board, hand));
    }

    /// Leaves the last position entered.
    #[inline]
    pub fn pop(&mut self) {
        if let Some((board, _)) = self.stack.pop()
            && let Some(n) = self.boards.get_mut(&board)
        {
            *n -= 1;
            if *n == 0 {
                self.boards.remove(&board);
            }
        }
    }

    /// Whether the position (board and attacker hand) repeats one on the
    /// path, or is inferior to one: same board, attacker holding no more.
    #[inline]
    pub fn repeats(&self, board: u64, hand: Hand) -> bool {
        self.repeated_at(board, hand).is_some()
    }

    /// The place on the path (1 + index) of the latest position that this
    /// one (board and attacker hand) repeats or is inferior to.
    #[inline]
    pub fn repeated_at(&self, board: u64, hand: Hand) -> Option<u32> {
        if !self.boards.contains_key(&board) {
            return None;
        }
        self.stack
            .iter()
            .rposition(|&(b, h)| b == board && h.dominates(hand))
            .map(|i| i as u32 + 1)
    }

    /// The positions on the path (board key and attacker hand), the last
    /// entered last.
    pub fn stack(&self) -> &[(u64, Hand)] {
        &self.stack
    }

    /// The place on the path of the last position entered: a result whose
    /// loop head is at least this holds on every path.
    #[inline]
    pub fn depth(&self) -> u32 {
        self.stack.len() as u32
    }

    /// Records that the node reached by path hash `path` fails for the
    /// attacker because of a repetition on that path, under `counting`.
    pub fn record(&mut self, counting: Counting, path: u64, r: PathResult) {
        if self.path_disproofs.len() >= self.limit {
            self.path_disproofs.clear();
        }
        let key = path ^ counting.salt(0);
        self.mark(key);
        self.path_disproofs.insert(key, r);
    }

    /// Like [`record`](Self::record) for a result that holds whatever the
    /// length bound (found by a search without one).
    pub fn record_lasting(&mut self, counting: Counting, path: u64, r: PathResult) {
        if self.lasting_disproofs.len() >= self.limit {
            self.lasting_disproofs.clear();
        }
        let key = path ^ counting.salt(0);
        self.mark(key);
        self.lasting_disproofs.insert(key, r);
    }

    /// Whether [`recorded`](Self::recorded) may know a result for `path`
    /// under `counting` (if not, it surely does not). A cache miss, mostly:
    /// asked early, it overlaps the table's.
    #[inline(always)]
    pub fn may_have(&self, counting: Counting, path: u64) -> bool {
        let (w, b) = filter_bit(path ^ counting.salt(0));
        self.filter[w] & b != 0
    }

    /// The failure known for the node reached by `path` under `counting`:
    /// under a length bound (`bounded`) any result, without one only those
    /// that hold whatever the bound. A result of another counting is never
    /// read: a failure where the defender has more defences (every
    /// interposition counted) need not be one where it has fewer.
    #[inline]
    pub fn recorded(&self, counting: Counting, path: u64, bounded: bool) -> Option<PathResult> {
        if !self.may_have(counting, path) {
            return None;
        }
        let path = path ^ counting.salt(0);
        self.lasting_disproofs
            .get(&path)
            .or_else(|| {
                if bounded {
                    self.path_disproofs.get(&path)
                } else {
                    None
                }
            })
            .copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: Counting = Counting::Plain;

    const R: PathResult = PathResult {
        head: 1,
        len: 0,
        hand: Hand::EMPTY,
    };

    #[test]
    fn repeated_and_inferior_positions_are_seen() {
        use crate::core::PieceKind;
        let mut gold = Hand::EMPTY;
        gold.add(PieceKind::Gold);
        let mut r = Repetitions::new(10);
        r.push(5, gold);
        r.push(7, Hand::EMPTY);
        assert!(r.repeats(5, gold));
        assert!(r.repeats(5, Hand::EMPTY), "less in hand on the same board");
        let mut two = gold;
        two.add(PieceKind::Gold);
        assert!(!r.repeats(5, two), "more in hand is a new position");
        assert_eq!(r.repeated_at(5, gold), Some(1), "the first position");
        r.push(5, gold);
        assert_eq!(r.repeated_at(5, gold), Some(3), "the latest of two");
        assert_eq!(r.depth(), 3);
        r.pop();
        r.pop();
        r.pop();
        assert!(!r.repeats(5, gold));
    }

    #[test]
    fn a_result_of_one_counting_is_not_read_by_another() {
        use crate::solver::interposition::UselessRule;
        let tsume = Counting::Tsume(UselessRule::WithinOtherDefences);
        let mut r = Repetitions::new(10);
        let (a, b) = (extend_path(1, 10), extend_path(1, 11));
        r.record_lasting(P, a, R);
        r.record(tsume, b, R);
        assert!(r.recorded(P, a, true).is_some());
        assert!(
            r.recorded(tsume, a, true).is_none(),
            "a plain failure need not hold with fewer defences"
        );
        assert!(r.recorded(tsume, b, true).is_some());
        assert!(r.recorded(P, b, true).is_none());
    }

    #[test]
    fn path_results_depend_on_the_whole_path() {
        let mut r = Repetitions::new(10);
        let a = extend_path(extend_path(1, 10), 20);
        let b = extend_path(extend_path(1, 11), 20);
        r.record(P, a, R);
        assert!(r.recorded(P, a, true).is_some());
        assert!(r.recorded(P, b, true).is_none());
    }

    #[test]
    fn bounded_results_are_dropped_with_the_bound_and_unseen_without_one() {
        let mut r = Repetitions::new(10);
        let (a, b) = (extend_path(1, 10), extend_path(1, 11));
        r.record(P, a, R);
        r.record_lasting(P, b, R);
        assert!(
            r.recorded(P, a, false).is_none(),
            "a result under a bound is no plain result"
        );
        assert!(r.recorded(P, b, false).is_some() && r.recorded(P, b, true).is_some());
        r.clear_path_results();
        assert!(r.recorded(P, a, true).is_none(), "dropped with the bound");
        assert!(
            r.recorded(P, b, true).is_some(),
            "kept: it holds for any bound"
        );
        r.clear();
        assert!(r.recorded(P, b, true).is_none());
    }
}
