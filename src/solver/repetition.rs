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
//! Results found under a length bound ("no mate within b plies on this
//! path") are kept apart from those found without one: they are dropped
//! when the bound changes, and a search without a bound never reads them
//! (it would turn "not within b" into "not at all").

use hashbrown::{HashMap, HashSet};

use crate::core::Hand;

/// The positions on the current path, and path-keyed repetition results.
pub struct Repetitions {
    /// How many times each board is on the path.
    boards: HashMap<u64, u32>,
    /// The path: board key and attacker hand of each position.
    stack: Vec<(u64, Hand)>,
    path_disproofs: HashSet<u64>,
    /// Path results found without a length bound: they hold for any bound.
    lasting_disproofs: HashSet<u64>,
    limit: usize,
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
            path_disproofs: HashSet::new(),
            lasting_disproofs: HashSet::new(),
            limit,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.boards.clear();
        self.stack.clear();
        self.path_disproofs.clear();
        self.lasting_disproofs.clear();
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
        self.boards.contains_key(&board)
            && self
                .stack
                .iter()
                .rev()
                .any(|&(b, h)| b == board && h.dominates(hand))
    }

    /// Records that the node reached by path hash `path` fails for the
    /// attacker because of a repetition on that path.
    pub fn record(&mut self, path: u64) {
        if self.path_disproofs.len() >= self.limit {
            self.path_disproofs.clear();
        }
        self.path_disproofs.insert(path);
    }

    /// Like [`record`](Self::record) for a result that holds whatever the
    /// length bound (found by a search without one).
    pub fn record_lasting(&mut self, path: u64) {
        if self.lasting_disproofs.len() >= self.limit {
            self.lasting_disproofs.clear();
        }
        self.lasting_disproofs.insert(path);
    }

    /// Whether the node reached by `path` is known to fail by repetition:
    /// under a length bound (`bounded`) by any result, without one only
    /// by those that hold whatever the bound.
    #[inline]
    pub fn recorded(&self, path: u64, bounded: bool) -> bool {
        self.lasting_disproofs.contains(&path) || (bounded && self.path_disproofs.contains(&path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        r.pop();
        r.pop();
        assert!(!r.repeats(5, gold));
    }

    #[test]
    fn path_results_depend_on_the_whole_path() {
        let mut r = Repetitions::new(10);
        let a = extend_path(extend_path(1, 10), 20);
        let b = extend_path(extend_path(1, 11), 20);
        r.record(a);
        assert!(r.recorded(a, true));
        assert!(!r.recorded(b, true));
    }

    #[test]
    fn bounded_results_are_dropped_with_the_bound_and_unseen_without_one() {
        let mut r = Repetitions::new(10);
        let (a, b) = (extend_path(1, 10), extend_path(1, 11));
        r.record(a);
        r.record_lasting(b);
        assert!(
            !r.recorded(a, false),
            "a result under a bound is no plain result"
        );
        assert!(r.recorded(b, false) && r.recorded(b, true));
        r.clear_path_results();
        assert!(!r.recorded(a, true), "dropped with the bound");
        assert!(r.recorded(b, true), "kept: it holds for any bound");
        r.clear();
        assert!(!r.recorded(b, true));
    }
}
