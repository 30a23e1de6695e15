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

use hashbrown::{HashMap, HashSet};

/// The positions on the current path, and path-keyed repetition results.
pub struct Repetitions {
    on_path: HashMap<u64, u32>,
    path_disproofs: HashSet<u64>,
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
            on_path: HashMap::new(),
            path_disproofs: HashSet::new(),
            limit,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.on_path.clear();
        self.path_disproofs.clear();
    }

    /// Forgets the path-keyed results (not the current path).
    pub fn clear_path_results(&mut self) {
        self.path_disproofs.clear();
    }

    /// Enters a position (full key) on the path.
    #[inline]
    pub fn push(&mut self, key: u64) {
        *self.on_path.entry(key).or_insert(0) += 1;
    }

    /// Leaves a position.
    #[inline]
    pub fn pop(&mut self, key: u64) {
        if let Some(n) = self.on_path.get_mut(&key) {
            *n -= 1;
            if *n == 0 {
                self.on_path.remove(&key);
            }
        }
    }

    /// Whether the position is on the current path.
    #[inline]
    pub fn on_path(&self, key: u64) -> bool {
        self.on_path.contains_key(&key)
    }

    /// Records that the node reached by path hash `path` fails for the
    /// attacker because of a repetition on that path.
    pub fn record(&mut self, path: u64) {
        if self.path_disproofs.len() >= self.limit {
            self.path_disproofs.clear();
        }
        self.path_disproofs.insert(path);
    }

    /// Whether the node reached by `path` is known to fail by repetition.
    #[inline]
    pub fn recorded(&self, path: u64) -> bool {
        self.path_disproofs.contains(&path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_membership_counts_entries() {
        let mut r = Repetitions::new(10);
        r.push(5);
        r.push(5);
        r.pop(5);
        assert!(r.on_path(5));
        r.pop(5);
        assert!(!r.on_path(5));
    }

    #[test]
    fn path_results_depend_on_the_whole_path() {
        let mut r = Repetitions::new(10);
        let a = extend_path(extend_path(1, 10), 20);
        let b = extend_path(extend_path(1, 11), 20);
        r.record(a);
        assert!(r.recorded(a));
        assert!(!r.recorded(b));
    }
}
