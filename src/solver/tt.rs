//! The transposition table: a fixed memory budget of clusters of entries,
//! keyed by the board (pieces and side to move), each entry holding the
//! attacker's hand.
//!
//! A proven entry holds its proof hand: it proves every attacker hand that
//! dominates it. A disproven entry holds its disproof hand: it disproves
//! every hand it dominates. An entry still in search holds the exact hand.
//! When a cluster is full the entry that cost the least work to find is
//! replaced, so a search longer than the table degrades instead of failing.
//!
//! Entries are four `u64` words, so the table is an array of integer
//! arrays: the allocator hands it out zeroed (an empty table) without
//! writing a byte, and pages become resident only as the search uses them.
//!
//! Several threads may search over one table ([`Table::share`]): the
//! words are atomics read and written without locks. An entry written by
//! one thread while another reads it can be read torn, half of one write
//! and half of another; a checksum of the entry's words, kept beside them,
//! rejects such a read as an empty slot. Two stores into one cluster at
//! once may lose one of them, or keep two entries of one hand: every
//! entry is a fact found by some search (or an estimate), so that costs
//! work again, never a wrong result. A shared table grows as one thread
//! finds it half full by a sample (see [`Table::grow_if_seen_half_full`]),
//! one thread at a time, while the others go on: an entry stored meanwhile
//! where it no longer belongs is lost, never misread. The growing thread
//! takes the new half's page faults, so a helper grows it whenever a
//! helper thread runs (see `super::parallel`), and the main thread only
//! before the first one starts.
//!
//! The table grows: it starts small ([`INITIAL_BYTES`], or the whole
//! budget when that is less) and doubles, within the memory budget, each
//! time half its slots are filled, moving the entries whose cluster is in
//! the new half (the search asks for it after each store). The new half's
//! pages fault in on a thread of their own while the table fills towards
//! the growth (see `pager`): a growth to gigabytes would otherwise stop the
//! search for seconds. A growth gives way to the time and stop limits.
//! A short search touches only the first megabytes (a file of small
//! problems keeps to [`INITIAL_BYTES`] per worker, and pays for no pages
//! of a large table it never fills), and a long one gets the whole budget
//! before clusters overflow (a long bound needs its disproofs kept, which
//! a table too small replaces). The size decides which entries are
//! replaced, so on searches of a few million nodes the node count moves
//! either way with it: no size is best for every search, and the budget is
//! a limit, not a tuning. Clearing shrinks the table back to the start,
//! so a search does not depend on what the table held before. (The
//! numbers behind this are in `docs/measurements.md`.)

use std::sync::Arc;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize};

use super::node::DEPTH_ANY;
use crate::core::{Hand, Move};

/// Proof and disproof numbers are capped here; `INF` marks a final value.
pub const INF: u32 = u32::MAX;
/// The largest proof or disproof number that is not final.
pub const MAX_FINITE: u32 = u32::MAX - 1;

/// Entries per cluster: every hand seen with one board competes for these.
const CLUSTER: usize = 8;

/// The fill (three eighths of the slots in use) from which the next half's
/// pages are made resident ahead of the growth at half full (see
/// [`Table::grow_if_half_full`]). After a growth the table is a quarter
/// full, so the pager starts halfway to the next growth: it has time to
/// finish, and a search that ends before the next growth has faulted in a
/// half for nothing only when it ended past halfway.
const PAGE_AHEAD_FILL: (usize, usize) = (3, 8);

/// The table's size at the start of a search, in bytes (16 MB: half a
/// million entries, more than a search of a million nodes fills).
pub const INITIAL_BYTES: usize = 16 << 20;

/// The length field of an open entry left by a search with `remaining`
/// plies left: that plus one (0 is kept for a search without a bound; see
/// [`Table::probe_within`]).
#[inline(always)]
pub(crate) fn open_len(remaining: u32) -> u16 {
    remaining.saturating_add(1).min(u16::MAX as u32 - 1) as u16
}

/// Whether an open entry's length field says it was left by a search
/// with `remaining` plies left ([`open_len`]).
#[inline(always)]
pub(crate) fn left_with(len: u16, remaining: u32) -> bool {
    remaining < u32::MAX && len as u32 == remaining + 1
}

/// Whether a final result (proof and disproof numbers, length) settles
/// the question of the open entry whose length field is `open` (see
/// [`open_len`]; 0 for a search without a bound).
#[inline(always)]
fn settles_open(pn: u32, dn: u32, len: u16, open: u16) -> bool {
    if open == 0 {
        pn == 0 || len == DEPTH_ANY
    } else {
        settles_within(pn, dn, len, open as u32 - 1)
    }
}

/// One entry, packed:
/// - word 0: board key;
/// - word 1: attacker hand (low half), proof number (high half);
/// - word 2: disproof number (low half), work (bits 32..48), mate length
///   (bits 48..64; in an open entry the plies its search had left, see
///   [`left_with`]);
/// - word 3: move (bits 0..16), generation (bits 16..24), bit 24 set on a
///   disproof that holds under tsume counting too (see
///   [`Probe::drop_free`]), and a checksum of the entry (bits 32..64, see
///   [`checksum`]).
///
/// `work` is log2 of the nodes spent below the entry, plus one; 0 marks an
/// empty slot.
type Entry = [u64; 4];

/// Where an entry lives: its words, each read and written on its own.
type Slot = [AtomicU64; 4];

/// A cluster of entries for boards whose keys share the index bits.
type Cluster = [Slot; CLUSTER];

/// The checksum of an entry's other words and its word 3 below bit 32:
/// each word goes through a multiplication before the next is mixed in, so
/// a read that takes words from two different writes does not match.
#[inline(always)]
fn checksum(e: &Entry) -> u64 {
    const M: u64 = 0x9e37_79b9_7f4a_7c15;
    let h = (e[0].wrapping_mul(M) ^ e[1]).wrapping_mul(M);
    let h = (h ^ e[2]).wrapping_mul(M);
    let h = (h ^ (e[3] & 0xffff_ffff)).wrapping_mul(M);
    h & !0xffff_ffff
}

/// Whether the entry's words were written together (see [`checksum`]).
#[inline(always)]
fn whole(e: &Entry) -> bool {
    e[3] & !0xffff_ffff == checksum(e)
}

#[inline(always)]
fn load(s: &Slot) -> Entry {
    [
        s[0].load(Relaxed),
        s[1].load(Relaxed),
        s[2].load(Relaxed),
        s[3].load(Relaxed),
    ]
}

#[inline(always)]
fn put(s: &Slot, e: &Entry) {
    for (w, v) in s.iter().zip(e) {
        w.store(*v, Relaxed);
    }
}

#[inline(always)]
fn key_of(e: &Entry) -> u64 {
    e[0]
}
#[inline(always)]
fn hand_of(e: &Entry) -> Hand {
    Hand::from_raw(e[1] as u32)
}
#[inline(always)]
fn pn_of(e: &Entry) -> u32 {
    (e[1] >> 32) as u32
}
#[inline(always)]
fn dn_of(e: &Entry) -> u32 {
    e[2] as u32
}
#[inline(always)]
fn work_of(e: &Entry) -> u16 {
    (e[2] >> 32) as u16
}
#[inline(always)]
fn len_of(e: &Entry) -> u16 {
    (e[2] >> 48) as u16
}
#[inline(always)]
fn generation_of(e: &Entry) -> u8 {
    (e[3] >> 16) as u8
}
#[inline(always)]
fn drop_free_of(e: &Entry) -> bool {
    e[3] & DROP_FREE_BIT != 0
}

const DROP_FREE_BIT: u64 = 1 << 24;

/// What is stored of a position, beside its key and hand.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Record {
    pub pn: u32,
    pub dn: u32,
    /// The mate's length (proven), the plies a disproof holds for, or 0.
    pub len: u16,
    /// The best move found.
    pub mv: Option<Move>,
    /// See [`Probe::drop_free`] (kept on disproofs only).
    pub drop_free: bool,
}

#[inline(always)]
fn pack(key: u64, hand: Hand, r: &Record, work: u16, generation: u8) -> Entry {
    let drop_free = r.drop_free && r.dn == 0;
    let mv = r.mv.map_or(0, |m| m.raw());
    let mut e = [
        key,
        hand.raw() as u64 | (r.pn as u64) << 32,
        r.dn as u64 | (work as u64) << 32 | (r.len as u64) << 48,
        mv as u64 | (generation as u64) << 16 | if drop_free { DROP_FREE_BIT } else { 0 },
    ];
    e[3] |= checksum(&e);
    e
}

fn probe_of(e: &Entry) -> Probe {
    let mv = e[3] as u16;
    Probe {
        pn: pn_of(e),
        dn: dn_of(e),
        hand: hand_of(e),
        len: len_of(e),
        mv: if mv == 0 { None } else { Move::from_raw(mv) },
        drop_free: dn_of(e) == 0 && drop_free_of(e),
    }
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
    /// A disproof found by a search counting every interposition that never
    /// relies on a drop between a long-range checker and the king: at each
    /// defender's turn along it the refutation is another kind of move. It
    /// holds under tsume counting too, which leaves out only such drops
    /// (see [`crate::solver::interposition`]).
    pub drop_free: bool,
}

impl Probe {
    pub fn is_proven(&self) -> bool {
        self.pn == 0
    }
    #[cfg(test)]
    pub fn is_disproven(&self) -> bool {
        self.dn == 0
    }
    /// Whether it settles a search with `plies` left under a length bound
    /// (see [`settles_within`]).
    pub fn settles_within(&self, plies: u32) -> bool {
        settles_within(self.pn, self.dn, self.len, plies)
    }
}

/// Whether a result (proof and disproof numbers, length) settles a search
/// with `plies` left under a length bound: a proof within them, or a
/// disproof that holds for as many ("no mate within `len`", `len` at least
/// `plies`). A longer proof or a shallower disproof says nothing final
/// there.
#[inline]
pub fn settles_within(pn: u32, dn: u32, len: u16, plies: u32) -> bool {
    (pn == 0 && len as u32 <= plies) || (dn == 0 && len as u32 >= plies)
}

/// `n` empty clusters. The allocator hands integer arrays out zeroed
/// without writing them, so a table costs nothing until the search touches
/// it (see [`Table::prefault`] for batches of small problems). Huge pages
/// are not asked for: they made files of small problems slower and a long
/// search with a grown table no faster (`docs/measurements.md`).
fn new_clusters(n: usize) -> Vec<Cluster> {
    bytemuck::zeroed_vec(n)
}

/// Makes the pages of `clusters` resident by zeroing one word per page
/// (the caller knows no entry of this generation lives there). A write
/// that reads nothing first: one fault per page, with no shared zero page
/// to replace (replacing it flushes the TLBs of every thread of the
/// process: with two workers faulting side by side that cost more kernel
/// time than the searches took).
fn make_resident(clusters: &[Cluster]) {
    let per_page = (4096 / std::mem::size_of::<Cluster>()).max(1);
    for c in clusters.iter().step_by(per_page) {
        c[0][0].store(0, Relaxed);
    }
}

/// The cluster of board `key` among `mask + 1`.
#[inline(always)]
fn cluster_index(key: u64, mask: usize) -> usize {
    // The low bit of board keys carries the side to move; mix it in.
    (key ^ (key >> 29)) as usize & mask
}

mod pager;

/// The table.
pub struct Table {
    /// Every cluster the budget allows, allocated at once (zeroed pages
    /// cost nothing until written); only the first `mask + 1` are in use.
    /// Shared with the [`pager::Pager`]'s thread.
    clusters: Arc<Vec<Cluster>>,
    /// Clusters in use, less one (a power of two, less one).
    mask: AtomicUsize,
    /// Clusters in use at the start and after [`clear`](Self::clear).
    initial: usize,
    /// Live entries of this generation, as counted by `store` (entries it
    /// empties are taken off): the table grows when half the slots in use
    /// are filled. Not kept while shared.
    filled: AtomicUsize,
    /// Clusters ever in use: the part a wrap of generations must zero.
    touched: AtomicUsize,
    /// Entries of other generations are empty: clearing is one increment.
    generation: u8,
    /// Searched by several threads at once (see [`share`](Self::share)).
    shared: AtomicBool,
    /// Held by the thread growing a shared table (one at a time).
    growing: AtomicBool,
    /// Makes the next half resident while the search fills this one.
    pager: pager::Pager,
    /// Whether the pager may be used (see [`set_page_ahead`](Self::set_page_ahead)).
    page_ahead: bool,
}

/// The largest power of two not above `n` (at least 1).
fn power_of_two_below(n: usize) -> usize {
    let n = n.max(1);
    1usize << (usize::BITS - 1 - n.leading_zeros())
}

/// The memory for a table's budget could not be had.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot reserve a table of {megabytes} MB: the system refused that much memory")]
pub struct TableTooLarge {
    /// The budget asked for, in megabytes.
    pub megabytes: usize,
}

/// Whether `n` clusters can be had now: reserved (the allocator maps the
/// memory without writing it) and freed again at once. The table is then
/// allocated zeroed, which the standard allocator cannot report failing
/// without aborting the process.
fn can_reserve(n: usize) -> bool {
    Vec::<Cluster>::new().try_reserve_exact(n).is_ok()
}

/// Clusters in a budget of `megabytes` MB (at least one), rounded down to
/// a power of two.
fn clusters_in(megabytes: usize) -> usize {
    power_of_two_below(
        megabytes.max(1).saturating_mul(1024 * 1024) / std::mem::size_of::<Cluster>(),
    )
}

impl Table {
    /// A table of at most `megabytes` MB (at least one cluster), starting
    /// at [`INITIAL_BYTES`]. When the system does not give that much
    /// memory, the largest power of two below it that it gives (see
    /// [`try_new`](Self::try_new) to be told instead).
    pub fn new(megabytes: usize) -> Table {
        let mut max = clusters_in(megabytes);
        while max > 1 && !can_reserve(max) {
            max /= 2;
        }
        Table::with_clusters(INITIAL_BYTES / std::mem::size_of::<Cluster>(), max)
    }

    /// A table of at most `megabytes` MB, or an error when the system
    /// does not give that much memory (where [`new`](Self::new) would take
    /// less; [`Solver::try_new`](super::Solver::try_new) has its example).
    pub fn try_new(megabytes: usize) -> Result<Table, TableTooLarge> {
        let max = clusters_in(megabytes);
        if !can_reserve(max) {
            return Err(TableTooLarge { megabytes });
        }
        Ok(Table::with_clusters(
            INITIAL_BYTES / std::mem::size_of::<Cluster>(),
            max,
        ))
    }

    /// The budget in use, in megabytes (less than asked for when the
    /// system did not give it, see [`new`](Self::new)).
    pub fn budget_mb(&self) -> usize {
        self.clusters.len() * std::mem::size_of::<Cluster>() / (1024 * 1024)
    }

    /// A table of `initial` clusters growing to at most `max` (each rounded
    /// down to a power of two).
    pub(super) fn with_clusters(initial: usize, max: usize) -> Table {
        let max = power_of_two_below(max);
        let initial = power_of_two_below(initial).min(max);
        Table {
            clusters: Arc::new(new_clusters(max)),
            mask: AtomicUsize::new(initial - 1),
            initial,
            filled: AtomicUsize::new(0),
            touched: AtomicUsize::new(initial),
            generation: 1,
            shared: AtomicBool::new(false),
            growing: AtomicBool::new(false),
            pager: pager::Pager::default(),
            page_ahead: true,
        }
    }

    /// Whether the next half's pages are faulted in ahead, on a thread of
    /// their own (the default), or by the growth itself, on the searching
    /// thread. Ahead is worth it where a core is idle; where every core
    /// searches already, the thread only takes time from a search (and
    /// faults in a half for nothing when the search ends before it grows).
    pub fn set_page_ahead(&mut self, on: bool) {
        self.page_ahead = on;
    }

    /// Readies the table for several threads searching over it at once,
    /// until the next [`clear`](Self::clear): reads check each entry's
    /// checksum, and the table grows only by
    /// [`grow_if_seen_half_full`](Self::grow_if_seen_half_full). Called by
    /// the one thread searching it, before any other starts: a search may
    /// take on helpers on its way (every entry carries its checksum).
    pub fn share(&self) {
        self.shared.store(true, Relaxed);
    }

    #[inline(always)]
    fn is_shared(&self) -> bool {
        self.shared.load(Relaxed)
    }

    /// For a shared table, asked by the searching threads now and then:
    /// doubles the clusters in use when a sample of them is half full (the
    /// stores of several threads are not counted), as
    /// [`grow_if_half_full`](Self::grow_if_half_full) does for one thread.
    /// One thread at a time: asked while another grows the table, returns
    /// false at once.
    pub fn grow_if_seen_half_full(&self, interrupted: impl FnMut() -> bool) -> bool {
        let used = self.mask() + 1;
        if !self.is_shared() || used == self.clusters.len() {
            return false;
        }
        if self.growing.swap(true, Acquire) {
            return false;
        }
        let fill = self.sampled_fill();
        if self.page_ahead && fill >= 1000 * PAGE_AHEAD_FILL.0 as u32 / PAGE_AHEAD_FILL.1 as u32 {
            self.pager.ask(&self.clusters, used, 2 * used);
        }
        let grown = fill >= 500 && self.grow(interrupted);
        self.growing.store(false, Release);
        grown
    }

    /// Permille of live slots among the first thousand clusters in use.
    fn sampled_fill(&self) -> u32 {
        let n = (self.mask() + 1).min(1000);
        let used: usize = self.clusters[..n]
            .iter()
            .map(|c| c.iter().filter(|s| self.live(&load(s))).count())
            .sum();
        (used * 1000 / (n * CLUSTER)) as u32
    }

    #[inline(always)]
    fn mask(&self) -> usize {
        self.mask.load(Relaxed)
    }

    /// Forgets everything: a new generation, so that solving many small
    /// problems does not rewrite the table each time, and the table is
    /// back to its first size. Once every 255 generations, the part ever
    /// used is zeroed in place (fresh memory would fault in again, page by
    /// page).
    pub fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        self.pager.cancel();
        if self.generation == 0 {
            let touched = *self.touched.get_mut();
            for w in self.clusters[..touched].iter().flatten().flatten() {
                w.store(0, Relaxed);
            }
            self.generation = 1;
        }
        *self.mask.get_mut() = self.initial - 1;
        *self.filled.get_mut() = 0;
        *self.shared.get_mut() = false;
    }

    /// Doubles the clusters in use when half their slots are filled and the
    /// budget allows: each entry whose cluster index under the new mask is
    /// in the new half moves there. The new half holds nothing of this
    /// generation (the table never was this large since the last clear).
    /// Returns whether it grew.
    ///
    /// The new half's pages must first be resident. A thread of its own
    /// makes them so while the table fills from [`PAGE_AHEAD_FILL`] to half
    /// full ([`pager`]); the growth waits for it, and faults in the rest
    /// (when no thread could be had) 16 MB at a time. `interrupted` is
    /// asked every millisecond of the wait and before each step: when it
    /// says yes the table stays as it was (the pages made resident stay
    /// so, and the next growth finds them ready). The pages are written
    /// without being read first (see [`prefault`](Self::prefault)). A step
    /// to gigabytes takes seconds, nearly all of it in faulting the pages
    /// in rather than in moving the entries: without the question, a growth
    /// begun near the deadline would run the search well past it
    /// (`docs/measurements.md`).
    #[inline]
    pub fn grow_if_half_full(&self, interrupted: impl FnMut() -> bool) -> bool {
        let used = self.mask() + 1;
        if self.is_shared() || used == self.clusters.len() {
            return false;
        }
        let filled = self.filled.load(Relaxed);
        if filled * 2 < used * CLUSTER {
            if self.page_ahead && filled * PAGE_AHEAD_FILL.1 >= used * CLUSTER * PAGE_AHEAD_FILL.0 {
                self.pager.ask(&self.clusters, used, 2 * used);
            }
            return false;
        }
        self.grow(interrupted)
    }

    /// Doubles the clusters in use (see
    /// [`grow_if_half_full`](Self::grow_if_half_full)). While shared, one
    /// thread at a time (see [`grow_if_seen_half_full`](Self::grow_if_seen_half_full)).
    #[cold]
    fn grow(&self, mut interrupted: impl FnMut() -> bool) -> bool {
        let used = self.mask() + 1;
        if used == self.clusters.len() {
            return false;
        }
        let mask = used * 2 - 1;
        let Some(paged) = self.pager.finish(&mut interrupted) else {
            return false;
        };
        let (low, high) = self.clusters.split_at(used);
        let high = &high[..used];
        // What the pager made resident of this half, from its start.
        let ready = if paged.start == used {
            paged.end.min(2 * used) - used
        } else {
            0
        };
        for step in high[ready..].chunks(pager::STEP_CLUSTERS) {
            if interrupted() {
                return false;
            }
            // Nothing of this generation lives here (see above).
            make_resident(step);
        }
        let mut lost = 0;
        for (c, cluster) in low.iter().enumerate() {
            let target = &high[c];
            for s in cluster {
                let e = load(s);
                if self.live(&e) && cluster_index(key_of(&e), mask) != c {
                    // Eight entries at most, into eight empty slots.
                    if let Some(slot) = target.iter().find(|t| !self.live(&load(t))) {
                        put(slot, &e);
                    } else {
                        lost += 1;
                    }
                    put(s, &[0; 4]);
                }
            }
        }
        if !self.is_shared() {
            self.filled.store(self.filled.load(Relaxed) - lost, Relaxed);
        }
        self.mask.store(mask, Relaxed);
        self.touched
            .store(self.touched.load(Relaxed).max(mask + 1), Relaxed);
        true
    }

    /// Makes every page of the table resident now, by writing one word per
    /// page: call it on a new or just cleared table (the word belongs to
    /// an entry of no current use). Untouched, each page faults twice when
    /// a search first uses it (a read maps the shared zero page, the first
    /// write copies it); on a file of 2,000 small problems that was 40% of
    /// the run time. Worth it before solving many problems; not for one
    /// short search.
    pub fn prefault(&mut self) {
        make_resident(&self.clusters[..=self.mask()]);
    }

    /// Bytes in use now (the table grows up to its budget).
    pub fn bytes(&self) -> usize {
        (self.mask() + 1) * std::mem::size_of::<Cluster>()
    }

    /// Whether `e` is an entry of this generation, and (shared) was read
    /// whole.
    #[inline(always)]
    fn live(&self, e: &Entry) -> bool {
        work_of(e) != 0 && generation_of(e) == self.generation && (!self.is_shared() || whole(e))
    }

    /// Permille of used slots, from a sample of the first clusters.
    pub fn hashfull(&self) -> u32 {
        let n = self.clusters.len().min(1000);
        let used: usize = self.clusters[..n]
            .iter()
            .map(|c| c.iter().filter(|s| self.live(&load(s))).count())
            .sum();
        (used * 1000 / (n * CLUSTER).max(1)) as u32
    }

    #[inline(always)]
    fn cluster(&self, key: u64) -> usize {
        cluster_index(key, self.mask())
    }

    /// Asks the processor to start loading the cluster of `key`.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.clusters[self.cluster(key)].as_ptr() as *const i8;
            // SAFETY: `p` points to a live cluster of the table; `add`
            // stays within its 256 bytes, and a prefetch never faults nor
            // changes what the program reads. The children of a node are
            // looked up one after another, each in a cluster of its own
            // that is rarely in cache: loading them ahead overlaps the
            // misses (`docs/measurements.md`).
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

    /// Looks up the board `key` with attacker hand `hand`.
    #[inline]
    pub fn probe(&self, key: u64, hand: Hand) -> Option<Probe> {
        self.probe_within(key, hand, u32::MAX)
    }

    /// Like [`probe`](Self::probe), for a search with `remaining` plies
    /// left: the result that settles it ([`settles_within`]), a proof within
    /// them first, then a disproof that holds for as many; then the open
    /// entry a search left with as many plies left ([`left_with`]); else as
    /// `probe`: the shortest proof, the deepest disproof, the open entry.
    #[inline]
    pub fn probe_within(&self, key: u64, hand: Hand, remaining: u32) -> Option<Probe> {
        let mut exact = None;
        let mut proof: Option<Entry> = None;
        let mut disproof: Option<Entry> = None;
        for s in &self.clusters[self.cluster(key)] {
            if s[0].load(Relaxed) != key {
                continue;
            }
            let e = &load(s);
            if key_of(e) != key || !self.live(e) {
                continue;
            }
            let (pn, dn, h) = (pn_of(e), dn_of(e), hand_of(e));
            if pn == 0 {
                // The shortest of the proofs that cover this hand.
                if hand.dominates(h) && proof.is_none_or(|p| len_of(e) < len_of(&p)) {
                    proof = Some(*e);
                }
            } else if dn == 0 {
                // The deepest of the disproofs that cover this hand.
                if h.dominates(hand) && disproof.is_none_or(|d| len_of(e) > len_of(&d)) {
                    disproof = Some(*e);
                }
            } else if h == hand {
                exact = Some(*e);
            }
        }
        if let Some(p) = proof
            && len_of(&p) as u32 <= remaining
        {
            return Some(probe_of(&p));
        }
        if let Some(d) = disproof
            && len_of(&d) as u32 >= remaining
        {
            return Some(probe_of(&d));
        }
        // Neither settles the plies left. An open entry beside them was
        // stored after them (a final result removes the open entry of its
        // hand), by a search that found the proof too long or the disproof
        // too short for its plies left and went on. With as many plies left
        // its numbers answer this very question; the final result's first
        // numbers would start it over at each visit.
        if let Some(e) = exact
            && left_with(len_of(&e), remaining)
        {
            return Some(probe_of(&e));
        }
        proof.or(disproof).or(exact).map(|e| probe_of(&e))
    }

    /// A disproof of board `key` for attacker hand `hand` that holds for
    /// at least `remaining` plies and under tsume counting too
    /// ([`Probe::drop_free`]).
    #[inline]
    pub fn drop_free_disproof(&self, key: u64, hand: Hand, remaining: u32) -> Option<Probe> {
        self.clusters[self.cluster(key)]
            .iter()
            .filter(|s| s[0].load(Relaxed) == key)
            .map(load)
            .find(|e| {
                key_of(e) == key
                    && self.live(e)
                    && dn_of(e) == 0
                    && drop_free_of(e)
                    && len_of(e) as u32 >= remaining
                    && hand_of(e).dominates(hand)
            })
            .map(|e| probe_of(&e))
    }

    /// Stores a proof under each of 400 keys from the `from`th: with
    /// 64 clusters in use, a shared table seen half full (tests of who
    /// grows it).
    #[cfg(test)]
    pub(crate) fn fill_for_growth_tests(&self, from: u64) {
        for k in from..from + 400 {
            let key = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let record = Record {
                pn: 0,
                dn: INF,
                len: 1,
                mv: None,
                drop_free: false,
            };
            self.store(key, Hand::EMPTY, record, 1);
        }
    }

    /// Forgets every entry of board `key`, as a replacement would.
    #[cfg(test)]
    pub(crate) fn forget(&self, key: u64) {
        for s in &self.clusters[self.cluster(key)] {
            if s[0].load(Relaxed) == key {
                put(s, &[0; 4]);
            }
        }
    }

    /// Stores what is known of board `key` with attacker hand `hand`.
    /// For a final result `hand` is the proof or disproof hand. The table
    /// does not grow here: the caller calls
    /// [`grow_if_half_full`](Self::grow_if_half_full), which may take
    /// seconds.
    pub(crate) fn store(&self, key: u64, hand: Hand, record: Record, nodes: u64) {
        let Record { pn, dn, len, .. } = record;
        let slots = &self.clusters[self.cluster(key)];
        let mut work = (64 - nodes.leading_zeros()) as u16 + 1;
        let generation = self.generation;
        let live = |e: &Entry| self.live(e);
        let mut slot = None;
        let mut emptied = 0;
        for (i, s) in slots.iter().enumerate() {
            if s[0].load(Relaxed) != key {
                continue;
            }
            let e = &load(s);
            if key_of(e) != key || !live(e) {
                continue;
            }
            let (epn, edn, eh) = (pn_of(e), dn_of(e), hand_of(e));
            let open = epn != 0 && edn != 0;
            let same = eh == hand && open;
            // A final result replaces the open entry of its hand (with
            // other plies left its first numbers are read: see
            // `probe_within`), and makes useless the open entries of other
            // hands it covers and settles, and those of its kind that say
            // less. The open entry of another hand that it does not settle
            // (left by a search under a bound with more plies left than
            // the proof's length, or fewer than the disproof's) keeps that
            // position's numbers. A proof and a disproof both stay: under a
            // length bound both hold, a mate within so many plies and none
            // within fewer.
            let settled = || settles_open(pn, dn, len, len_of(e));
            let covered = (pn == 0 && open && eh.dominates(hand) && settled())
                || (dn == 0 && open && hand.dominates(eh) && settled())
                || (pn == 0 && epn == 0 && eh.dominates(hand) && len_of(e) >= len)
                || (dn == 0 && edn == 0 && hand.dominates(eh) && len_of(e) <= len);
            if same || covered {
                if same {
                    work = work.max(work_of(e));
                }
                if slot.is_none() {
                    slot = Some((i, false));
                } else {
                    put(s, &[0; 4]);
                    emptied += 1;
                }
            }
        }
        // Else the slot whose entry cost least (an empty one first; a
        // final result weighs more).
        let (i, fills) = slot.unwrap_or_else(|| {
            let mut best = (0, false);
            let mut best_score = u32::MAX;
            for (i, s) in slots.iter().enumerate() {
                let e = &load(s);
                let score = if !live(e) {
                    0
                } else {
                    work_of(e) as u32 + if pn_of(e) == 0 || dn_of(e) == 0 { 8 } else { 0 }
                };
                if score < best_score {
                    best_score = score;
                    best = (i, score == 0);
                }
            }
            best
        });
        put(&slots[i], &pack(key, hand, &record, work, generation));
        if !self.is_shared() {
            let filled = self.filled.load(Relaxed);
            self.filled.store(
                (filled + usize::from(fills)).saturating_sub(emptied),
                Relaxed,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::PieceKind;

    fn rec(pn: u32, dn: u32, len: u16) -> Record {
        Record {
            pn,
            dn,
            len,
            mv: None,
            drop_free: false,
        }
    }

    fn hand(kinds: &[PieceKind]) -> Hand {
        let mut h = Hand::EMPTY;
        for &k in kinds {
            h.add(k);
        }
        h
    }

    #[test]
    fn proofs_cover_larger_hands_and_disproofs_smaller() {
        let t = Table::new(1);
        let key = 0x1234_5678_9abc_def0;
        t.store(key, hand(&[PieceKind::Gold]), rec(0, INF, 3), 10);
        assert!(
            t.probe(key, hand(&[PieceKind::Gold, PieceKind::Pawn]))
                .unwrap()
                .is_proven()
        );
        assert!(t.probe(key, hand(&[PieceKind::Silver])).is_none());
        t.store(key, hand(&[PieceKind::Silver]), rec(INF, 0, 0), 10);
        assert!(t.probe(key, Hand::EMPTY).unwrap().is_disproven());
        assert!(
            t.probe(key, hand(&[PieceKind::Silver, PieceKind::Silver]))
                .is_none()
        );
        assert!(t.probe(key ^ 2, hand(&[PieceKind::Gold])).is_none());
    }

    #[test]
    fn a_result_settles_a_search_with_as_many_plies_left_or_fewer_for_a_proof() {
        // Mated within 9: settles 9 plies left and more, not 7.
        assert!(settles_within(0, INF, 9, 9) && settles_within(0, INF, 9, 11));
        assert!(!settles_within(0, INF, 9, 7));
        // Not mated within 9: settles 9 plies left and fewer, not 11.
        assert!(settles_within(INF, 0, 9, 9) && settles_within(INF, 0, 9, 7));
        assert!(!settles_within(INF, 0, 9, 11));
        // Open: never.
        assert!(!settles_within(3, 5, 0, 0) && !settles_within(3, 5, 9, 9));
    }

    #[test]
    fn a_proof_and_a_shallower_disproof_both_stay() {
        // Under a length bound: mated within 9 plies, not within 5.
        let t = Table::new(1);
        let key = 0x0bad_cafe_1234_5678;
        let h = hand(&[PieceKind::Gold]);
        t.store(key, h, rec(0, INF, 9), 100);
        t.store(key, h, rec(INF, 0, 5), 100);
        let len = |p: Option<Probe>| p.map(|p| (p.is_proven(), p.len));
        // Each look-up gets the one that holds for the plies left.
        assert_eq!(len(t.probe_within(key, h, 11)), Some((true, 9)));
        assert_eq!(len(t.probe_within(key, h, 9)), Some((true, 9)));
        assert_eq!(len(t.probe_within(key, h, 5)), Some((false, 5)));
        assert_eq!(len(t.probe_within(key, h, 3)), Some((false, 5)));
        // Neither holds for 7: the proof, as a plain look-up gives.
        assert_eq!(len(t.probe_within(key, h, 7)), Some((true, 9)));
        assert_eq!(len(t.probe(key, h)), Some((true, 9)));
        // A deeper disproof replaces the shallower one, not the proof.
        t.store(key, h, rec(INF, 0, 7), 100);
        assert_eq!(len(t.probe_within(key, h, 7)), Some((false, 7)));
        assert_eq!(len(t.probe_within(key, h, 9)), Some((true, 9)));
    }

    #[test]
    fn an_open_entry_left_with_the_plies_left_is_read_before_a_proof_too_long() {
        // Mated within 13; a search with 11 plies left found the proof too
        // long and stopped with its own numbers (its length field: 11 + 1).
        let t = Table::new(1);
        let key = 0x5eed_0f0b_e11e_0001;
        let h = hand(&[PieceKind::Silver]);
        t.store(key, h, rec(0, INF, 13), 100);
        t.store(key, h, rec(3, 7, 12), 100);
        let numbers = |p: Option<Probe>| p.map(|p| (p.pn, p.dn, p.len));
        assert_eq!(numbers(t.probe_within(key, h, 11)), Some((3, 7, 12)));
        // With other plies left, or with no bound, the proof.
        assert_eq!(numbers(t.probe_within(key, h, 9)), Some((0, INF, 13)));
        assert_eq!(numbers(t.probe_within(key, h, 13)), Some((0, INF, 13)));
        assert_eq!(numbers(t.probe(key, h)), Some((0, INF, 13)));
        // The same beside a disproof too short: not mated within 5, left
        // open with 9 plies left.
        let key = key ^ 0x100;
        t.store(key, h, rec(INF, 0, 5), 100);
        t.store(key, h, rec(4, 2, 10), 100);
        assert_eq!(numbers(t.probe_within(key, h, 9)), Some((4, 2, 10)));
        assert_eq!(numbers(t.probe_within(key, h, 7)), Some((INF, 0, 5)));
        assert_eq!(numbers(t.probe_within(key, h, 5)), Some((INF, 0, 5)));
        // A final result stored later removes the open entry.
        t.store(key, h, rec(INF, 0, 9), 100);
        assert_eq!(numbers(t.probe_within(key, h, 9)), Some((INF, 0, 9)));
    }

    #[test]
    fn a_final_result_keeps_another_hands_open_entry_it_does_not_settle() {
        let t = Table::new(1);
        let key = 0x5eed_0f0b_e11e_0002;
        let less = hand(&[PieceKind::Gold]);
        let more = hand(&[PieceKind::Gold, PieceKind::Silver]);
        let numbers = |p: Option<Probe>| p.map(|p| (p.pn, p.dn, p.len));
        // With a gold and a silver in hand: left open with 11 plies left
        // (its length field 12). Then with the gold alone: mated in 13,
        // which covers the larger hand but not within its 11 plies.
        t.store(key, more, rec(3, 7, 12), 100);
        t.store(key, less, rec(0, INF, 13), 100);
        assert_eq!(numbers(t.probe_within(key, more, 11)), Some((3, 7, 12)));
        assert_eq!(numbers(t.probe_within(key, more, 13)), Some((0, INF, 13)));
        // A proof within those plies settles it.
        t.store(key, less, rec(0, INF, 11), 100);
        assert_eq!(numbers(t.probe_within(key, more, 11)), Some((0, INF, 11)));
        assert!(
            (1..=11).all(|l| numbers(t.probe_within(key, more, l)) != Some((3, 7, 12))),
            "the open entry was removed"
        );
        // With the gold alone: left open with 9 plies left. With both: not
        // mated within 5, which covers the smaller hand, kept open; not
        // mated within 9 settles it.
        let key = key ^ 0x100;
        t.store(key, less, rec(4, 2, 10), 100);
        t.store(key, more, rec(INF, 0, 5), 100);
        assert_eq!(numbers(t.probe_within(key, less, 9)), Some((4, 2, 10)));
        t.store(key, more, rec(INF, 0, 9), 100);
        assert_eq!(numbers(t.probe_within(key, less, 9)), Some((INF, 0, 9)));
        assert_eq!(numbers(t.probe_within(key, less, 11)), Some((INF, 0, 9)));
    }

    /// Stores an open entry for each key of `keys` (keys below 2^29 fill
    /// the clusters in turn).
    fn store_all(t: &mut Table, keys: std::ops::Range<u64>) {
        for key in keys {
            t.store(key, Hand::EMPTY, rec(1, 1, 0), 1);
            t.grow_if_half_full(|| false);
        }
    }

    fn found(t: &Table, keys: std::ops::Range<u64>) -> usize {
        keys.filter(|&k| t.probe(k, Hand::EMPTY).is_some()).count()
    }

    #[test]
    fn the_table_grows_to_its_budget_and_keeps_its_entries() {
        let cluster = std::mem::size_of::<Cluster>();
        let mut fixed = Table::with_clusters(4, 4);
        store_all(&mut fixed, 0..256);
        assert_eq!(found(&fixed, 0..256), 4 * CLUSTER);
        assert_eq!(fixed.bytes(), 4 * cluster);

        let mut t = Table::with_clusters(4, 64);
        assert_eq!(t.bytes(), 4 * cluster);
        store_all(&mut t, 0..256);
        assert_eq!(t.bytes(), 64 * cluster);
        assert_eq!(found(&t, 0..256), 256);
        // At its budget it replaces entries instead.
        store_all(&mut t, 256..1024);
        assert_eq!(t.bytes(), 64 * cluster);
        assert_eq!(found(&t, 0..1024), 64 * CLUSTER);
    }

    #[test]
    fn an_interrupted_growth_leaves_the_table_as_it_was() {
        let cluster = std::mem::size_of::<Cluster>();
        // 32 MB of new clusters: two steps of 16 MB.
        let used = (32 << 20) / cluster;
        let t = Table::with_clusters(used, 4 * used);
        for key in 0..(used * CLUSTER / 2) as u64 {
            t.store(key, Hand::EMPTY, rec(1, 1, 0), 1);
        }
        let mut asked = 0;
        assert!(!t.grow_if_half_full(|| {
            asked += 1;
            asked == 2
        }));
        assert_eq!(asked, 2, "asked again after each 16 MB");
        assert_eq!(t.bytes(), used * cluster);
        assert_eq!(
            found(&t, 0..(used * CLUSTER / 2) as u64),
            used * CLUSTER / 2
        );
        // Not half full yet: nothing to ask.
        assert!(!Table::with_clusters(used, 4 * used).grow_if_half_full(|| panic!()));
        assert!(t.grow_if_half_full(|| false));
        assert_eq!(t.bytes(), 2 * used * cluster);
        assert_eq!(
            found(&t, 0..(used * CLUSTER / 2) as u64),
            used * CLUSTER / 2
        );
    }

    #[test]
    fn the_next_half_is_made_resident_while_the_table_fills() {
        let used = 4096;
        let t = Table::with_clusters(used, 4 * used);
        let ahead = used * CLUSTER * PAGE_AHEAD_FILL.0 / PAGE_AHEAD_FILL.1;
        let fill = |keys: std::ops::Range<usize>| {
            for key in keys {
                t.store(key as u64, Hand::EMPTY, rec(1, 1, 0), 1);
                assert!(!t.grow_if_half_full(|| false), "not half full");
            }
        };
        fill(0..ahead - 1);
        assert_eq!(t.pager.wait(), None, "nothing asked yet");
        fill(ahead - 1..ahead);
        assert_eq!(t.pager.wait(), Some(used..2 * used));
        // The growth finds it ready, with nothing to wait for nor fault in
        // (it would ask `interrupted` before each).
        fill(ahead..used * CLUSTER / 2 - 1);
        t.store((used * CLUSTER) as u64, Hand::EMPTY, rec(1, 1, 0), 1);
        assert!(t.grow_if_half_full(|| panic!("waited for the pages")));
        assert_eq!(t.mask() + 1, 2 * used);
        assert_eq!(
            found(&t, 0..(used * CLUSTER / 2) as u64),
            used * CLUSTER / 2 - 1
        );
        // The next half is asked for at three eighths again; clearing
        // forgets it, and the table grows again from its first size.
        let mut t = t;
        for key in used * CLUSTER / 2..used * CLUSTER * 3 / 4 {
            t.store(key as u64, Hand::EMPTY, rec(1, 1, 0), 1);
            t.grow_if_half_full(|| false);
        }
        assert_eq!(t.pager.wait(), Some(2 * used..4 * used));
        t.clear();
        assert_eq!(t.pager.wait(), None, "forgotten by the clearing");
        store_all(&mut t, 0..(used * CLUSTER) as u64);
        assert_eq!(found(&t, 0..(used * CLUSTER) as u64), used * CLUSTER);
        // Not ahead: the growth faults its pages in itself, as it goes.
        let mut t = Table::with_clusters(used, 4 * used);
        t.set_page_ahead(false);
        store_all(&mut t, 0..(used * CLUSTER / 2 - 1) as u64);
        assert_eq!(t.pager.wait(), None);
        let mut steps = 0;
        t.store((used * CLUSTER) as u64, Hand::EMPTY, rec(1, 1, 0), 1);
        assert!(t.grow_if_half_full(|| {
            steps += 1;
            false
        }));
        assert_eq!(steps, 1, "one step of 16 MB");
    }

    #[test]
    fn clearing_shrinks_the_table_and_old_entries_never_come_back() {
        let mut t = Table::with_clusters(4, 64);
        store_all(&mut t, 0..256);
        t.clear();
        assert_eq!(t.bytes(), 4 * std::mem::size_of::<Cluster>());
        assert_eq!(found(&t, 0..256), 0);
        // Back to the first generation: the entries written in it, in the
        // part used then, were zeroed and stay gone once the table grows
        // over them again.
        for _ in 0..254 {
            t.clear();
        }
        assert_eq!(t.generation, 1);
        store_all(&mut t, 1 << 20..(1 << 20) + 256);
        assert_eq!(t.bytes(), 64 * std::mem::size_of::<Cluster>());
        assert_eq!(found(&t, 0..256), 0);
        assert_eq!(found(&t, 1 << 20..(1 << 20) + 256), 256);
    }

    #[test]
    fn exact_entries_are_replaced_not_duplicated() {
        let t = Table::new(1);
        let key = 42 << 8;
        t.store(key, Hand::EMPTY, rec(3, 4, 0), 1);
        t.store(key, Hand::EMPTY, rec(5, 6, 0), 1);
        let p = t.probe(key, Hand::EMPTY).unwrap();
        assert_eq!((p.pn, p.dn), (5, 6));
    }
}

#[cfg(test)]
mod shared_tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    /// A record whose fields all follow from `pn` and the key, so that a
    /// read mixing the words of two writes shows.
    fn consistent(key: u64, pn: u32) -> Record {
        Record {
            pn,
            dn: pn ^ (key as u32 & 0xffff),
            len: (pn.wrapping_mul(7) ^ (key >> 20) as u32) as u16,
            mv: None,
            drop_free: false,
        }
    }

    fn hand_of_key(key: u64) -> Hand {
        let mut h = Hand::EMPTY;
        for _ in 0..(key % 3) {
            h.add(crate::core::PieceKind::Pawn);
        }
        h
    }

    /// Four threads store and look up few keys in few clusters at once,
    /// each write with other numbers: every look-up gives nothing or an
    /// entry written whole for that key and hand.
    #[test]
    fn shared_table_reads_are_never_torn() {
        let t = Table::with_clusters(4, 4);
        t.share();
        let t = &t;
        let stop = AtomicBool::new(false);
        let keys: Vec<u64> = (0..24u64)
            .map(|i| (i * 0x9e37_79b9_7f4a_7c15) | 1)
            .collect();
        let checked = std::thread::scope(|s| {
            let writers: Vec<_> = (0..3u32)
                .map(|w| {
                    let keys = &keys;
                    s.spawn(move || {
                        let mut n = w;
                        for round in 0..200_000u32 {
                            let key = keys[(round as usize * 7 + w as usize) % keys.len()];
                            n = n.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                            // Open numbers: never 0, never final.
                            let pn = (n % 1_000_000) + 1;
                            let mut r = consistent(key, pn);
                            r.dn = r.dn.max(1);
                            if r.dn == pn ^ (key as u32 & 0xffff) {
                                t.store(key, hand_of_key(key), r, round as u64);
                            }
                        }
                    })
                })
                .collect();
            let reader = s.spawn(|| {
                let mut checked = 0u64;
                while !stop.load(Relaxed) {
                    for &key in &keys {
                        if let Some(p) = t.probe(key, hand_of_key(key)) {
                            let want = consistent(key, p.pn);
                            assert_eq!((p.dn, p.len), (want.dn, want.len), "a torn read");
                            assert_eq!(p.hand, hand_of_key(key));
                            checked += 1;
                        }
                    }
                }
                checked
            });
            for w in writers {
                w.join().unwrap();
            }
            stop.store(true, Relaxed);
            reader.join().unwrap()
        });
        assert!(checked > 0);
    }

    /// A shared table grows on one thread at a time: asked while another
    /// thread is growing it, it does not grow again.
    #[test]
    fn one_thread_at_a_time_grows_a_shared_table() {
        let cluster = std::mem::size_of::<Cluster>();
        let mut t = Table::with_clusters(4, 64);
        t.set_page_ahead(false);
        t.share();
        for k in 0..16u64 {
            t.store(k, Hand::EMPTY, consistent(k, 5), 1);
        }
        let t = &t;
        std::thread::scope(|s| {
            // Made here, so that a failed assertion drops `go` and frees
            // the grower.
            let (inside, is_inside) = std::sync::mpsc::channel();
            let (go, wait_go) = std::sync::mpsc::channel::<()>();
            let grower = s.spawn(move || {
                let mut first = true;
                // Asked before each step of the growth: the first time,
                // holds the growth until the other thread has asked.
                t.grow_if_seen_half_full(|| {
                    if std::mem::take(&mut first) {
                        inside.send(()).unwrap();
                        let _ = wait_go.recv();
                    }
                    false
                })
            });
            is_inside.recv().unwrap();
            assert!(
                !t.grow_if_seen_half_full(|| false),
                "another thread grows it"
            );
            assert_eq!(t.bytes(), 4 * cluster);
            go.send(()).unwrap();
            assert!(grower.join().unwrap());
        });
        assert_eq!(t.bytes(), 8 * cluster);
        assert_eq!(
            (0..16)
                .filter(|&k| t.probe(k, Hand::EMPTY).is_some())
                .count(),
            16
        );
    }

    #[test]
    fn a_shared_table_grows_when_seen_half_full_and_keeps_its_entries() {
        let cluster = std::mem::size_of::<Cluster>();
        let mut t = Table::with_clusters(4, 64);
        let key = 12345;
        t.store(key, Hand::EMPTY, consistent(key, 3), 1);
        t.share();
        assert_eq!(t.bytes(), 4 * cluster);
        // Stores never grow a shared table; the sample does, when asked.
        for k in 0..16u64 {
            t.store(k, Hand::EMPTY, consistent(k, 5), 1);
            assert!(!t.grow_if_half_full(|| false));
        }
        assert!(t.grow_if_seen_half_full(|| false));
        assert_eq!(t.bytes(), 8 * cluster);
        assert!(!t.grow_if_seen_half_full(|| false), "a quarter full now");
        assert_eq!(t.probe(key, Hand::EMPTY).map(|p| p.pn), Some(3));
        assert_eq!(
            (0..16)
                .filter(|&k| t.probe(k, Hand::EMPTY).is_some())
                .count(),
            16
        );
        // Seen three eighths full: the next half is made resident ahead.
        assert_eq!(t.pager.wait(), None);
        for k in 16..23u64 {
            t.store(k, Hand::EMPTY, consistent(k, 5), 1);
        }
        assert!(!t.grow_if_seen_half_full(|| false));
        assert_eq!(t.pager.wait(), Some(8..16));
        // Cleared: one thread again, small again.
        t.clear();
        assert_eq!(t.bytes(), 4 * cluster);
        assert!(t.probe(key, Hand::EMPTY).is_none());
    }
}
