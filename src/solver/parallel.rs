//! Several threads on one problem: the main thread searches as alone, and
//! helper threads search the same root over the same table at the same
//! time (lazy SMP, as chess engines and KomoringHeights do it).
//!
//! Each time the main thread enters a root search (the first proof, each
//! bounded search of the answer, each plain search of its descent) it
//! posts it as a [`Job`]: the question, the position, the path that led
//! to it. Every helper takes the job up and searches it with a search of
//! its own (its own path and path results), until it solves it or the
//! main thread withdraws the job. A helper never answers anything: what it
//! finds goes to the table, where the main thread reads it as it comes
//! back down its own tree; and every [`RECRUIT_STEP`] nodes the main thread
//! looks its posted root up, so that a root a helper solved ends the root
//! search at once. The helpers look at the children of each node
//! in an order of their own, so they spread over the tree instead of
//! repeating the main thread's steps.
//!
//! A search may also take on helpers on its way: a batch's workers that
//! have no problem left lend their cores ([`SpareCores`]), and the main
//! thread of each search still running takes one now and then (every
//! [`RECRUIT_STEP`] nodes) for a helper that joins the job posted then.
//! The table turns shared at that moment; the helper gives its core back
//! when the search ends. The helpers grow the shared table when they see
//! it half full, and so take the new half's page faults (seconds, for
//! gigabytes) off the main thread: while one searches, at its own steps;
//! while none does, one waiting for a job when the main thread asks
//! ([`Crew::ask_growth`]). The main thread grows it only with no helper.
//!
//! Everything a helper stores is a result of the same question in the
//! same namespace, found by the same rules, so the table holds no less
//! than it would with the main thread alone: the answers (mate, no mate,
//! lengths) are the same; only the work to reach them changes. Results
//! that hold on one path only stay in the search that found them.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};

use crate::core::{Color, Hand, Position};

use super::SearchProgress;
use super::mode::Mode;
use super::repetition::Repetitions;
use super::search::Search;
use super::tt::{INF, Table};

/// A root search posted by the main thread.
pub(crate) struct Job {
    pub mode: Mode,
    pub pos: Position,
    /// The path hash of `pos`, and its ply from the outermost root.
    pub path: u64,
    pub ply: u32,
    /// The positions on the path down to `pos` (board key and attacker
    /// hand), `pos` last.
    pub stack: Vec<(u64, Hand)>,
    pub attacker: Color,
    pub base_salt: u64,
    /// Set when the main thread withdraws the job.
    pub stop: AtomicBool,
}

/// The main thread looks for spare cores every this many nodes: a
/// search that ends sooner never takes one (a thread costs more to start
/// than such a search gains).
pub(crate) const RECRUIT_STEP: u64 = 1 << 16;

/// Cores lent to the searches running beside the lender: a batch's
/// worker with no problem left lends its own, and each search still
/// running may take one for a helper thread until it ends (see
/// [`Solver::set_spare_cores`](super::Solver::set_spare_cores)). The
/// threads running never exceed the cores the batch was given.
#[derive(Debug, Default)]
pub struct SpareCores {
    free: AtomicUsize,
    /// Cores ever taken.
    taken: AtomicU64,
}

impl SpareCores {
    /// A pool with no core in it.
    pub fn new() -> SpareCores {
        SpareCores::default()
    }

    /// Puts `n` cores in the pool.
    pub fn lend(&self, n: usize) {
        self.free.fetch_add(n, Ordering::AcqRel);
    }

    /// Takes a core out of the pool, when there is one.
    pub(crate) fn take(&self) -> bool {
        let taken = self
            .free
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |f| f.checked_sub(1))
            .is_ok();
        if taken {
            self.taken.fetch_add(1, Ordering::Relaxed);
        }
        taken
    }

    /// Gives back a core [`take`](Self::take) gave, unused (no thread
    /// could be started on it): not counted as taken.
    pub(crate) fn untake(&self) {
        self.taken.fetch_sub(1, Ordering::Relaxed);
        self.lend(1);
    }

    /// Cores in the pool now.
    pub fn free(&self) -> usize {
        self.free.load(Ordering::Acquire)
    }

    /// Cores taken by searches so far (each for one helper, until its
    /// search ended).
    pub fn taken(&self) -> u64 {
        self.taken.load(Ordering::Relaxed)
    }
}

/// What the main thread and its helpers share.
pub(crate) struct Crew {
    /// The caller's node limit, for all threads together.
    pub limit: u64,
    /// The job posted now, with its number.
    posted: Mutex<(u64, Option<Arc<Job>>)>,
    wake: Condvar,
    /// Set when the helpers are to end.
    done: AtomicBool,
    /// Nodes searched by the helpers (added in steps of
    /// [`NODE_STEP`]).
    pub nodes: AtomicU64,
    /// The main thread's nodes (set every [`NODE_STEP`]).
    pub main_nodes: AtomicU64,
    /// Helpers enlisted so far (each numbered by its place).
    enlisted: AtomicU64,
    /// Helpers searching a job now.
    searching: AtomicUsize,
    /// Set by the main thread when it would grow the shared table while no
    /// helper searches: a helper waiting for a job grows it instead.
    growth_asked: AtomicBool,
    /// Helper threads running their loop (enlisted ones whose thread has
    /// started and not ended).
    running: AtomicUsize,
}

/// What a helper waiting on its crew is given to do.
enum Task {
    Search(Arc<Job>),
    /// Grow the shared table if it is seen half full (see
    /// [`Crew::ask_growth`]).
    Grow,
}

/// A helper counted as searching (see [`Crew::searching`]).
pub(crate) struct Searching<'c>(&'c Crew);

impl Drop for Searching<'_> {
    fn drop(&mut self) {
        self.0.searching.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A helper thread's stack: deep lines go on fresh segments of the heap
/// (see [`super::search::STACK_SEGMENT`]), so this needs no more than a
/// worker's.
pub(crate) const HELPER_STACK: usize = 16 << 20;

/// Helpers add their nodes to [`Crew::nodes`] this many at a time.
pub(crate) const NODE_STEP: u64 = 256;

impl Crew {
    /// A crew whose threads search at most `limit` nodes together.
    pub fn new(limit: u64) -> Crew {
        Crew {
            limit,
            posted: Mutex::new((0, None)),
            wake: Condvar::new(),
            done: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            main_nodes: AtomicU64::new(0),
            enlisted: AtomicU64::new(0),
            searching: AtomicUsize::new(0),
            growth_asked: AtomicBool::new(false),
            running: AtomicUsize::new(0),
        }
    }

    /// Whether a helper thread is running its loop: one that does not
    /// search now waits for a job, and takes a growth asked for.
    pub fn helpers_running(&self) -> bool {
        self.running.load(Ordering::Relaxed) > 0
    }

    /// Whether any helper has been enlisted.
    pub fn has_helpers(&self) -> bool {
        self.enlisted.load(Ordering::Relaxed) > 0
    }

    /// Whether a helper is searching a job now.
    pub fn helpers_searching(&self) -> bool {
        self.searching.load(Ordering::Relaxed) > 0
    }

    /// Counts a helper as searching a job until the guard is dropped.
    pub(crate) fn searching(&self) -> Searching<'_> {
        self.searching.fetch_add(1, Ordering::Relaxed);
        Searching(self)
    }

    /// Asks a helper waiting for a job to grow the shared table when it
    /// sees it half full: the main thread, which would otherwise grow it,
    /// goes on searching while the helper takes the page faults.
    pub fn ask_growth(&self) {
        let _posted = self.posted.lock().unwrap_or_else(|e| e.into_inner());
        self.growth_asked.store(true, Ordering::Relaxed);
        self.wake.notify_one();
    }

    /// The number of one more helper (from 1).
    pub fn enlist(&self) -> u64 {
        self.enlisted.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// Whether the threads together have searched the caller's limit.
    pub fn over_limit(&self) -> bool {
        self.nodes.load(Ordering::Relaxed) + self.main_nodes.load(Ordering::Relaxed) >= self.limit
    }

    /// Posts `job` for the helpers: the previous one is withdrawn.
    pub fn post(&self, job: Arc<Job>) {
        let mut posted = self.posted.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(old) = posted.1.take() {
            old.stop.store(true, Ordering::Relaxed);
        }
        posted.0 += 1;
        posted.1 = Some(job);
        self.wake.notify_all();
    }

    /// Withdraws the job posted, if any.
    pub fn withdraw(&self) {
        let mut posted = self.posted.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(old) = posted.1.take() {
            old.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Ends the helpers (after their current job stops).
    pub fn finish(&self) {
        self.withdraw();
        self.done.store(true, Ordering::Relaxed);
        let _posted = self.posted.lock().unwrap_or_else(|e| e.into_inner());
        self.wake.notify_all();
    }

    /// The next job not yet taken (by number), else a growth asked for;
    /// `None` when the helpers are to end.
    fn next_task(&self, taken: &mut u64) -> Option<Task> {
        let mut posted = self.posted.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if self.done.load(Ordering::Relaxed) {
                return None;
            }
            if posted.0 != *taken
                && let Some(job) = &posted.1
            {
                *taken = posted.0;
                return Some(Task::Search(job.clone()));
            }
            if self.growth_asked.swap(false, Ordering::Relaxed) {
                return Some(Task::Grow);
            }
            posted = self.wake.wait(posted).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// The loop of helper number `index` (from 1): takes each job posted on
/// `crew` and searches it over `table` until it is solved or withdrawn.
pub(crate) fn helper(table: &Table, crew: &Crew, index: u64) {
    let mut reps = Repetitions::new(1 << 18);
    let progress = SearchProgress::default();
    crew.running.fetch_add(1, Ordering::Relaxed);
    let mut taken = 0;
    while let Some(task) = crew.next_task(&mut taken) {
        let job = match task {
            Task::Search(job) => job,
            Task::Grow => {
                // Gives way to the end of the search only: a job posted
                // meanwhile waits for the growth, as the main thread's
                // search would have.
                table.grow_if_seen_half_full(|| crew.done.load(Ordering::Relaxed));
                continue;
            }
        };
        reps.clear();
        for &(board, hand) in &job.stack {
            reps.push(board, hand);
        }
        let mut pos = job.pos.clone();
        let mut search = Search::new(
            table,
            &mut reps,
            &job.stop,
            &progress,
            job.attacker,
            job.base_salt,
        );
        search.crew = Some(crew);
        search.helper = index;
        // With infinite thresholds a search returns solved or stopped.
        let searching = crew.searching();
        search.mid(job.mode, &mut pos, job.path, INF, INF, job.ply);
        drop(searching);
        crew.nodes
            .fetch_add(search.nodes - search.reported, Ordering::Relaxed);
    }
    crew.running.fetch_sub(1, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The main thread at its step, a shared table half full and a helper
    /// thread running but searching nothing: the main thread asks and goes
    /// on, and the helper grows the table when it next waits for a job (so
    /// the new half's page faults stop it, not the main thread). With no
    /// helper thread the main thread grows it itself.
    #[test]
    fn a_helper_waiting_for_a_job_grows_the_shared_table() {
        let table = Table::with_clusters(64, 1024);
        table.share();
        table.fill_for_growth_tests(0);
        let crew = Crew::new(u64::MAX);
        let stop = AtomicBool::new(false);
        let progress = SearchProgress::default();
        let mut reps = Repetitions::new(64);
        let mut main = Search::new(&table, &mut reps, &stop, &progress, Color::Black, 0);
        main.crew = Some(&crew);
        let start = table.bytes();
        // No helper thread: the main thread grows it at its step.
        main.nodes = RECRUIT_STEP - 1;
        main.count_node();
        assert_eq!(table.bytes(), 2 * start, "grown by the main thread");
        table.fill_for_growth_tests(400);
        // A helper thread running, waiting for a job (counted by hand
        // here, so the main thread's step comes first).
        crew.running.fetch_add(1, Ordering::Relaxed);
        main.nodes = 2 * RECRUIT_STEP - 1;
        main.count_node();
        assert_eq!(table.bytes(), 2 * start, "left to the helper");
        assert!(crew.growth_asked.load(Ordering::Relaxed));
        std::thread::scope(|scope| {
            let (table, crew) = (&table, &crew);
            let helper = scope.spawn(move || helper(table, crew, crew.enlist()));
            let asked = std::time::Instant::now();
            while table.bytes() == 2 * start && asked.elapsed().as_secs() < 10 {
                std::thread::yield_now();
            }
            crew.finish();
            helper.join().unwrap();
        });
        assert_eq!(table.bytes(), 4 * start, "grown by the helper");
        assert!(!crew.growth_asked.load(Ordering::Relaxed));
        assert!(main.aborted.is_none());
    }

    /// A core is taken only while one is free; one given back unused
    /// (no thread could be started on it) is free again and not counted
    /// as taken.
    #[test]
    fn spare_cores_are_taken_and_given_back() {
        let spare = SpareCores::new();
        assert!(!spare.take(), "nothing lent yet");
        spare.lend(2);
        assert!(spare.take() && spare.take());
        assert!(!spare.take());
        assert_eq!((spare.free(), spare.taken()), (0, 2));
        spare.untake();
        assert_eq!((spare.free(), spare.taken()), (1, 1));
        spare.lend(1);
        assert_eq!((spare.free(), spare.taken()), (2, 1));
    }
}
