//! The transposition table: a fixed memory budget of clusters of entries,
//! keyed by the board (pieces and side to move), each entry holding the
//! attacker's hand.
//!
//! A proven entry holds its proof hand: it proves every attacker hand that
//! dominates it. A disproven entry holds its disproof hand: it disproves
//! every hand it dominates. An entry still in search holds the exact hand.
//! When a cluster is full the entry that cost the least work to find is
//! replaced, so a search longer than the table degrades instead of failing.

use crate::core::{Hand, Move};

/// Proof and disproof numbers are capped here; `INF` marks a final value.
pub const INF: u32 = u32::MAX;
/// The largest proof or disproof number that is not final.
pub const MAX_FINITE: u32 = u32::MAX - 1;

const CLUSTER: usize = 8;

#[derive(Copy, Clone, Default)]
#[repr(C)]
struct Entry {
    key: u64,
    hand: Hand,
    pn: u32,
    dn: u32,
    /// log2 of the nodes spent below this entry, plus one; 0 = empty slot.
    work: u16,
    /// Plies to mate for a proven entry.
    len: u16,
    /// The move that proved (or is best in) this position, raw bits.
    mv: u16,
    _pad: [u8; 6],
}

/// What the table knows of a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    pub pn: u32,
    pub dn: u32,
    /// The proof hand (proven), disproof hand (disproven), or exact hand.
    pub hand: Hand,
    pub len: u16,
    pub mv: Option<Move>,
}

impl Probe {
    pub fn is_proven(&self) -> bool {
        self.pn == 0
    }
    pub fn is_disproven(&self) -> bool {
        self.dn == 0
    }
}

/// Four entries on two cache lines, aligned so that a look-up touches no
/// more than those two.
#[derive(Copy, Clone, Default)]
#[repr(C, align(64))]
struct Cluster([Entry; CLUSTER]);

/// `n` empty clusters in zeroed memory.
///
/// `vec![Cluster::default(); n]` writes every byte, which for a table of
/// gigabytes takes seconds and makes the whole table resident at once
/// (measured: with a 512 MB table, clearing between problems was 42% of
/// the run time). Zeroed memory from the allocator costs nothing up front
/// and pages become resident only as the search touches them.
fn zeroed_clusters(n: usize) -> Vec<Cluster> {
    use std::alloc::{Layout, alloc_zeroed, handle_alloc_error};
    if n == 0 {
        return Vec::new();
    }
    let layout = Layout::array::<Cluster>(n).expect("table size fits in memory");
    // SAFETY: `Cluster` is plain integers (and `Hand`, a `u32`), for which
    // all-zero bytes are a valid value: the empty entry. The pointer comes
    // from the global allocator with exactly the layout of `n` clusters, so
    // `Vec` may own it with length and capacity `n` and free it with the
    // same layout.
    unsafe {
        let p = alloc_zeroed(layout) as *mut Cluster;
        if p.is_null() {
            handle_alloc_error(layout);
        }
        Vec::from_raw_parts(p, n, n)
    }
}

/// The table.
pub struct Table {
    clusters: Vec<Cluster>,
    mask: usize,
}

impl Table {
    /// A table of at most `megabytes` MB (at least one cluster).
    pub fn new(megabytes: usize) -> Table {
        let bytes = megabytes.max(1) * 1024 * 1024;
        let clusters = (bytes / (CLUSTER * std::mem::size_of::<Entry>())).max(1);
        // A power of two for masking.
        let clusters = 1usize << (usize::BITS - 1 - clusters.leading_zeros());
        Table {
            clusters: zeroed_clusters(clusters),
            mask: clusters - 1,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        // Fresh zeroed memory, not a loop of writes: the pages come back
        // from the system untouched until the search uses them.
        let n = self.clusters.len();
        self.clusters = Vec::new();
        self.clusters = zeroed_clusters(n);
    }

    /// Bytes allocated.
    pub fn bytes(&self) -> usize {
        self.clusters.len() * std::mem::size_of::<Cluster>()
    }

    /// Permille of used slots, from a sample of the first clusters.
    pub fn hashfull(&self) -> u32 {
        let n = self.clusters.len().min(1000);
        let used: usize = self.clusters[..n]
            .iter()
            .map(|c| c.0.iter().filter(|e| e.work != 0).count())
            .sum();
        (used * 1000 / (n * CLUSTER).max(1)) as u32
    }

    #[inline(always)]
    fn cluster(&self, key: u64) -> usize {
        // The low bit of board keys carries the side to move; mix it in.
        (key ^ (key >> 29)) as usize & self.mask
    }

    /// Asks the processor to start loading the cluster of `key`.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = &self.clusters[self.cluster(key)] as *const Cluster as *const i8;
            // SAFETY: `p` points into the live cluster vector; a prefetch
            // never faults and reads nothing into the program's state.
            unsafe {
                for line in 0..std::mem::size_of::<Cluster>() / 64 {
                    std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                        p.add(line * 64),
                    );
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Every entry of board `key` (for diagnostics).
    #[doc(hidden)]
    pub fn entries_of(&self, key: u64) -> Vec<Probe> {
        self.clusters[self.cluster(key)]
            .0
            .iter()
            .filter(|e| e.key == key && e.work != 0)
            .map(|e| e.probe())
            .collect()
    }

    /// Looks up the board `key` with attacker hand `hand`.
    #[inline]
    pub fn probe(&self, key: u64, hand: Hand) -> Option<Probe> {
        let mut exact = None;
        let mut proof: Option<&Entry> = None;
        for e in &self.clusters[self.cluster(key)].0 {
            if e.key != key || e.work == 0 {
                continue;
            }
            if e.pn == 0 {
                // The shortest of the proofs that cover this hand.
                if hand.dominates(e.hand) && proof.is_none_or(|p| e.len < p.len) {
                    proof = Some(e);
                }
            } else if e.dn == 0 {
                if e.hand.dominates(hand) {
                    return Some(e.probe());
                }
            } else if e.hand == hand {
                exact = Some(e.probe());
            }
        }
        proof.map(|e| e.probe()).or(exact)
    }

    /// Stores what is known of board `key` with attacker hand `hand`.
    /// For a final result `hand` is the proof or disproof hand.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        key: u64,
        hand: Hand,
        pn: u32,
        dn: u32,
        len: u16,
        mv: Option<Move>,
        nodes: u64,
    ) {
        let c = self.cluster(key);
        let work = (64 - nodes.leading_zeros()) as u16 + 1;
        let new = Entry {
            key,
            hand,
            pn,
            dn,
            work,
            len,
            mv: mv.map_or(0, |m| m.raw()),
            _pad: [0; 6],
        };
        let cluster = &mut self.clusters[c].0;
        let mut slot = None;
        for (i, e) in cluster.iter_mut().enumerate() {
            if e.work == 0 || e.key != key {
                continue;
            }
            let same = e.hand == hand && e.pn != 0 && e.dn != 0;
            // A final result makes the entries it covers useless.
            let covered = (pn == 0 && e.pn != 0 && e.hand.dominates(hand))
                || (dn == 0 && e.dn != 0 && hand.dominates(e.hand))
                || (pn == 0 && e.pn == 0 && e.hand.dominates(hand) && e.len >= len);
            if same || covered {
                if slot.is_none() {
                    slot = Some(i);
                } else {
                    e.work = 0;
                }
            }
        }
        let i = slot.unwrap_or_else(|| {
            let mut best = 0;
            let mut best_score = u32::MAX;
            for (i, e) in cluster.iter().enumerate() {
                let score = if e.work == 0 {
                    0
                } else {
                    e.work as u32 + if e.pn == 0 || e.dn == 0 { 8 } else { 0 }
                };
                if score < best_score {
                    best_score = score;
                    best = i;
                }
            }
            best
        });
        let old = cluster[i];
        let mut new = new;
        if old.work != 0 && old.key == key && old.hand == hand {
            new.work = new.work.max(old.work);
        }
        cluster[i] = new;
    }
}

impl Entry {
    fn probe(&self) -> Probe {
        Probe {
            pn: self.pn,
            dn: self.dn,
            hand: self.hand,
            len: self.len,
            mv: Move::from_raw(self.mv).filter(|_| self.mv != 0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::PieceKind;

    fn hand(kinds: &[PieceKind]) -> Hand {
        let mut h = Hand::EMPTY;
        for &k in kinds {
            h.add(k);
        }
        h
    }

    #[test]
    fn proofs_cover_larger_hands_and_disproofs_smaller() {
        let mut t = Table::new(1);
        let key = 0x1234_5678_9abc_def0;
        t.store(key, hand(&[PieceKind::Gold]), 0, INF, 3, None, 10);
        assert!(
            t.probe(key, hand(&[PieceKind::Gold, PieceKind::Pawn]))
                .unwrap()
                .is_proven()
        );
        assert!(t.probe(key, hand(&[PieceKind::Silver])).is_none());
        t.store(key, hand(&[PieceKind::Silver]), INF, 0, 0, None, 10);
        assert!(t.probe(key, Hand::EMPTY).unwrap().is_disproven());
        assert!(
            t.probe(key, hand(&[PieceKind::Silver, PieceKind::Silver]))
                .is_none()
        );
        assert!(t.probe(key ^ 2, hand(&[PieceKind::Gold])).is_none());
    }

    #[test]
    fn exact_entries_are_replaced_not_duplicated() {
        let mut t = Table::new(1);
        let key = 42 << 8;
        t.store(key, Hand::EMPTY, 3, 4, 0, None, 1);
        t.store(key, Hand::EMPTY, 5, 6, 0, None, 1);
        let p = t.probe(key, Hand::EMPTY).unwrap();
        assert_eq!((p.pn, p.dn), (5, 6));
    }
}
