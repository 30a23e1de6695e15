//! Solving many problems at once: a pool of worker threads with one
//! [`Solver`] each, the answers handed back in input order as soon as each
//! one and all before it are ready.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use tsume::batch::{self, BatchAnswer, BatchOptions};
//! use tsume::core::Position;
//! use tsume::solver::Outcome;
//!
//! let problems = [
//!     "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", // mate in 1
//!     "8k/9/9/9/9/9/9/9/9 b Rr2b4g4s4n4l18p 1",     // no mate
//!     "4k4/9/4x4/9/9/9/9/9/9 b G 1",                // not an SFEN
//! ];
//! // Each problem is tagged (here with its number) and read; the batch
//! // solves the ones that could be read.
//! let inputs = problems.iter().enumerate().map(|(i, s)| (i, s.parse::<Position>()));
//! let options = BatchOptions { jobs: 2, hash_mb: 16, ..BatchOptions::default() };
//! let mut seen = Vec::new();
//! let summary = batch::solve_all(inputs, &options, &AtomicBool::new(false), |i, answer| {
//!     let what = match answer {
//!         BatchAnswer::Solved { result, .. } => match result.outcome {
//!             Outcome::Mate { moves } => format!("mate in {}", moves.len()),
//!             Outcome::NoMate => "no mate".to_string(),
//!             Outcome::Unknown(limit) => format!("unknown ({limit})"),
//!         },
//!         BatchAnswer::Unreadable(e) => format!("bad: {e}"),
//!         BatchAnswer::Unaskable { error, .. } => format!("cannot ask: {error}"),
//!     };
//!     seen.push((i, what));
//!     Ok::<(), std::convert::Infallible>(())
//! })
//! .unwrap();
//! assert_eq!(seen[0], (0, "mate in 1".to_string()));
//! assert_eq!(seen[1], (1, "no mate".to_string()));
//! assert!(seen[2].1.starts_with("bad: "));
//! assert_eq!((summary.mate, summary.nomate, summary.errors), (1, 1, 1));
//! ```
//!
//! Each problem starts from an empty table, so its answer, and the nodes it
//! took, depend neither on the problems before it nor on which worker
//! solved it: with the same table size per worker and no time limit, the
//! answers are the same whatever the number of workers. A worker with no
//! problem left lends its cores to the searches still running
//! ([`BatchOptions::lend_idle_cores`]); their answers stay the same, their
//! nodes and which of equally long lines they show may not. Each worker has a
//! table of [`BatchOptions::hash_mb`] megabytes (so the batch uses `jobs` times
//! that).
//!
//! Memory stays bounded however long the input: at most
//! [`IN_FLIGHT_PER_JOB`] problems per worker are taken from the input ahead
//! of the first one not yet handed back.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::core::Position;
use crate::solver::{
    Outcome, SearchProgress, SolveError, SolveOptions, SolveResult, Solver, SpareCores,
    TableTooLarge,
};

/// How many problems per worker may be read ahead of the first one not yet
/// handed back (they wait in the queue or in the reorder buffer).
pub const IN_FLIGHT_PER_JOB: usize = 64;

/// How a batch is run.
#[derive(Clone, Debug)]
pub struct BatchOptions {
    /// Worker threads (at least one is used).
    pub jobs: usize,
    /// The table of each worker, in megabytes.
    pub hash_mb: usize,
    /// Threads searching each problem over its worker's table (see
    /// [`Solver::set_threads`]): `jobs` times this many in all.
    pub threads: usize,
    /// When the system will not reserve `hash_mb` for a worker, take the
    /// largest table it will (see [`Solver::new`]) instead of failing with
    /// [`BatchError::Table`]: for a budget nobody asked for, such as
    /// [`default_hash_mb`].
    pub hash_fallback: bool,
    /// What each problem is asked (a time or node limit applies to each
    /// one).
    pub solve: SolveOptions,
    /// Where the batch shows each worker's search counters once it has
    /// made its solvers, for a progress display (`None`: nowhere).
    pub watch: Option<Arc<Watch>>,
    /// Whether a worker with no problem left lends its cores to the
    /// searches still running, each taking them as helper threads (see
    /// [`Solver::set_spare_cores`]): the last long problems of a file get
    /// the cores the short ones freed. The answers are the same. Not under
    /// a node limit in [`solve`](Self::solve): an answer cut short by it
    /// would then depend on how the work was divided, and no longer repeat.
    pub lend_idle_cores: bool,
    /// Workers the batch was allowed and does not start, when its caller
    /// knows the input has fewer problems than that (one problem on a
    /// machine of many cores): with [`lend_idle_cores`](Self::lend_idle_cores)
    /// their cores are lent from the start.
    pub unstarted_workers: usize,
}

/// Each worker's search counters while a batch runs (see
/// [`BatchOptions::watch`]): nodes, table fill and what the running
/// [`Solver::solve`] knows of its answer ([`SearchProgress`]).
#[derive(Debug, Default)]
pub struct Watch {
    workers: Mutex<Vec<Arc<SearchProgress>>>,
}

impl Watch {
    /// The counters of each worker (none before the batch has made its
    /// solvers).
    pub fn workers(&self) -> Vec<Arc<SearchProgress>> {
        self.workers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

impl Default for BatchOptions {
    /// One worker per core, each with a table budget of
    /// [`default_hash_mb`] (less when the system will not reserve it), no
    /// limits.
    fn default() -> BatchOptions {
        let jobs = default_jobs();
        BatchOptions {
            jobs,
            hash_mb: default_hash_mb(jobs),
            threads: 1,
            hash_fallback: true,
            solve: SolveOptions::default(),
            watch: None,
            lend_idle_cores: true,
            unstarted_workers: 0,
        }
    }
}

/// The number of cores this process may use (1 when it cannot be told).
pub fn default_jobs() -> usize {
    crate::solver::cores()
}

/// Workers for problems searched by `threads` threads each: as many as
/// keep every core busy without more threads than cores (at least one).
pub fn default_jobs_for(threads: usize) -> usize {
    (default_jobs() / threads.max(1)).max(1)
}

/// The least and the most [`default_hash_mb`] gives each worker.
pub const DEFAULT_HASH_MB_RANGE: (usize, usize) = (64, 4096);

/// The table budget of each of `jobs` workers when none is given: half the
/// machine's memory split among them, within [`DEFAULT_HASH_MB_RANGE`]
/// (1024 MB each when the memory cannot be told). A table grows to its
/// budget only as a search needs it (see [`Solver::new`]): a file of
/// small problems uses a few megabytes per worker whatever the budget, and
/// a long problem gets the room it would otherwise lose results for.
pub fn default_hash_mb(jobs: usize) -> usize {
    let jobs = jobs.max(1);
    let total = total_memory_mb().unwrap_or(2 * 1024 * jobs);
    (total / 2 / jobs).clamp(DEFAULT_HASH_MB_RANGE.0, DEFAULT_HASH_MB_RANGE.1)
}

/// The machine's memory in megabytes (`MemTotal` of `/proc/meminfo`).
fn total_memory_mb() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// What became of one problem.
#[derive(Clone, Debug)]
pub enum BatchAnswer<E> {
    /// Solved (a mate, no mate, or unknown when a limit came first).
    Solved {
        position: Position,
        result: SolveResult,
    },
    /// The input could not be read: the error it came with.
    Unreadable(E),
    /// The position cannot be asked (no king to mate; not in check when the
    /// defender is asked).
    Unaskable {
        position: Position,
        error: SolveError,
    },
}

/// Why a batch ended early.
#[derive(Debug, thiserror::Error)]
pub enum BatchError<X> {
    /// The worker threads could not be started.
    #[error("cannot start {jobs} worker threads: {message}")]
    Threads { jobs: usize, message: String },
    /// The workers' tables could not be had: `jobs` tables of the budget
    /// each are more memory than the system gives.
    #[error("{jobs} worker(s), one table each: {source}")]
    Table {
        jobs: usize,
        #[source]
        source: TableTooLarge,
    },
    /// The callback returned an error; the problems after it were not
    /// handed back.
    #[error(transparent)]
    Callback(X),
}

/// The counts of a batch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Mates found.
    pub mate: u64,
    /// Proven: no mate.
    pub nomate: u64,
    /// Not decided within the limits (or stopped).
    pub unknown: u64,
    /// Problems that could not be read or asked.
    pub errors: u64,
    /// Nodes searched, all problems together.
    pub nodes: u64,
    /// Search time, all problems together (more than the wall time when
    /// workers ran side by side).
    pub search_time: Duration,
    /// From the start of the batch to its end.
    pub wall_time: Duration,
    /// Worker threads.
    pub jobs: usize,
    /// Helper threads the searches took on cores lent by idle workers
    /// ([`Run::lent_helpers`]).
    pub lent_helpers: u64,
    /// Whether the batch was stopped before the end of its input.
    pub stopped: bool,
}

impl Summary {
    /// Problems handed back.
    pub fn done(&self) -> u64 {
        self.mate + self.nomate + self.unknown + self.errors
    }

    /// Counts one answer.
    pub fn add<E>(&mut self, answer: &BatchAnswer<E>) {
        match answer {
            BatchAnswer::Solved { result, .. } => {
                self.nodes += result.nodes;
                self.search_time += result.elapsed;
                match result.outcome {
                    Outcome::Mate { .. } => self.mate += 1,
                    Outcome::NoMate => self.nomate += 1,
                    Outcome::Unknown(_) => self.unknown += 1,
                }
            }
            BatchAnswer::Unreadable(_) | BatchAnswer::Unaskable { .. } => self.errors += 1,
        }
    }
}

impl fmt::Display for Summary {
    /// `solved 3, no mate 1, unknown 0, errors 1, nodes 12345, search time
    /// 0.042 s, wall time 0.030 s, jobs 2` (solved: mates found), and
    /// `, helpers on lent cores 1` when searches took any.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "solved {}, no mate {}, unknown {}, errors {}, nodes {}, search time {:.3} s, \
             wall time {:.3} s, jobs {}",
            self.mate,
            self.nomate,
            self.unknown,
            self.errors,
            self.nodes,
            self.search_time.as_secs_f64(),
            self.wall_time.as_secs_f64(),
            self.jobs
        )?;
        if self.lent_helpers > 0 {
            write!(f, ", helpers on lent cores {}", self.lent_helpers)?;
        }
        Ok(())
    }
}

/// Solves `problems` on `options.jobs` worker threads (a rayon pool), and
/// calls `on_result` with each problem's tag and answer in input order, on
/// the calling thread, as soon as the answer and all before it are ready.
///
/// Each input is a tag (where the problem came from) and the position, or
/// the error that reading it gave (handed back in its place as
/// [`BatchAnswer::Unreadable`]). The input is pulled on a thread of its own, so
/// it may block (a pipe); it is pulled at most [`IN_FLIGHT_PER_JOB`] per
/// worker ahead of the answers handed back.
///
/// Setting `stop` (from a Ctrl-C handler, say) stops the running searches,
/// which then report [`Limit::Stopped`](crate::solver::Limit::Stopped), and
/// starts no other problem: the answers of the problems started are handed
/// back in order, the others are not, and the summary says `stopped`. When
/// `on_result` returns an error, the batch stops the same way, without
/// calling it again, and returns that error.
pub fn solve_all<T, E, X, I, F>(
    problems: I,
    options: &BatchOptions,
    stop: &AtomicBool,
    mut on_result: F,
) -> Result<Summary, BatchError<X>>
where
    I: IntoIterator<Item = (T, Result<Position, E>)>,
    I::IntoIter: Send,
    T: Send,
    E: Send,
    F: FnMut(T, BatchAnswer<E>) -> Result<(), X>,
{
    let solve = &options.solve;
    let mut summary = Summary::default();
    let run = run_all(
        problems,
        options,
        stop,
        |solver, input| answer(solver, input, solve),
        |tag, answer| {
            summary.add(&answer);
            on_result(tag, answer)
        },
    )?;
    summary.jobs = run.jobs;
    summary.lent_helpers = run.lent_helpers;
    summary.stopped = run.stopped;
    summary.wall_time = run.wall_time;
    Ok(summary)
}

/// Which workers of a [`run_all`] have no input left to take, and lend
/// their cores to `spare` (when lending) for the searches still running.
struct Lending {
    spare: Option<Arc<SpareCores>>,
    /// Cores a worker has: its problem's threads.
    cores: usize,
    jobs: usize,
    state: Mutex<LendingState>,
}

#[derive(Default)]
struct LendingState {
    /// Inputs handed to the pool and not yet taken by a worker.
    queued: usize,
    /// Inputs being worked on.
    running: usize,
    /// Whether the last input has been handed to the pool.
    inputs_done: bool,
    /// Workers that have lent their cores.
    lent: usize,
}

impl Lending {
    /// The lending of a run of `jobs` workers as `options` ask; the
    /// workers not started lend their cores at once.
    fn new(options: &BatchOptions, jobs: usize) -> Lending {
        let cores = options.threads.max(1);
        // Under a node limit an answer cut short repeats from run to run
        // only when the work is divided the same way.
        let spare = (options.lend_idle_cores
            && options.solve.limits.nodes.is_none()
            && jobs + options.unstarted_workers > 1)
            .then(|| {
                let spare = Arc::new(SpareCores::new());
                spare.lend(options.unstarted_workers.saturating_mul(cores));
                spare
            });
        Lending {
            spare,
            cores,
            jobs,
            state: Mutex::default(),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, LendingState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn queued(&self) {
        self.state().queued += 1;
    }

    fn started(&self) {
        let mut s = self.state();
        s.queued -= 1;
        s.running += 1;
    }

    fn finished(&self) {
        let mut s = self.state();
        s.running -= 1;
        self.settle(&mut s);
    }

    /// The last input is handed to the pool.
    fn inputs_done(&self) {
        let mut s = self.state();
        s.inputs_done = true;
        self.settle(&mut s);
    }

    /// Once the last input is handed out, the workers neither working nor
    /// due to take an input waiting will take no other: each lends its
    /// cores, once.
    fn settle(&self, s: &mut LendingState) {
        if let (true, Some(spare)) = (s.inputs_done, &self.spare) {
            let idle = self.jobs.saturating_sub(s.running + s.queued);
            if idle > s.lent {
                spare.lend((idle - s.lent) * self.cores);
                s.lent = idle;
            }
        }
    }
}

/// How a [`run_all`] went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// Worker threads.
    pub jobs: usize,
    /// Whether it was stopped before the end of its input.
    pub stopped: bool,
    /// From its start to its end.
    pub wall_time: Duration,
    /// Helper threads the searches took on cores lent by workers with no
    /// input left (see [`BatchOptions::lend_idle_cores`]).
    pub lent_helpers: u64,
}

/// Runs `work` on each input on `options.jobs` worker threads, each with a
/// solver of its own (a table of [`BatchOptions::hash_mb`], as [`solve_all`]
/// makes them; `work` clears it when it needs an empty one), and calls
/// `on_result` with each input's tag and output in input order, on the
/// calling thread, as soon as the output and all before it are ready.
/// [`solve_all`] is this with [`Solver::solve`]; `verify` runs
/// [`crate::verify::verify`] on it.
///
/// Inputs are pulled on a thread of their own, at most
/// [`IN_FLIGHT_PER_JOB`] per worker ahead of the outputs handed back.
/// Setting `stop`, or an error from `on_result`, sets the stop flag of
/// every worker's solver (the running searches end as stopped) and starts
/// no other input; the outputs of the inputs started are handed back in
/// order (none after an error), and the error is returned.
pub fn run_all<T, In, Out, X, I, W, F>(
    inputs: I,
    options: &BatchOptions,
    stop: &AtomicBool,
    work: W,
    mut on_result: F,
) -> Result<Run, BatchError<X>>
where
    I: IntoIterator<Item = (T, In)>,
    I::IntoIter: Send,
    T: Send,
    In: Send,
    Out: Send,
    W: Fn(&mut Solver, In) -> Out + Sync,
    F: FnMut(T, Out) -> Result<(), X>,
{
    let start = Instant::now();
    let jobs = options.jobs.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .thread_name(|i| format!("tsume-worker-{i}"))
        .build()
        .map_err(|e| BatchError::Threads {
            jobs,
            message: e.to_string(),
        })?;
    let solvers: Vec<Mutex<Solver>> = (0..jobs)
        .map(|_| {
            if options.hash_fallback {
                Ok(Solver::new(options.hash_mb))
            } else {
                Solver::try_new(options.hash_mb)
            }
            .map(|mut solver| {
                solver.set_threads(options.threads);
                Mutex::new(solver)
            })
        })
        .collect::<Result<_, _>>()
        .map_err(|source| BatchError::Table { jobs, source })?;
    let lending = Lending::new(options, jobs);
    // The workers' threads, and those the searches take on the cores of
    // workers never started.
    let lent = if lending.spare.is_some() {
        options.unstarted_workers
    } else {
        0
    };
    let searching = (jobs + lent) * options.threads.max(1);
    for solver in &solvers {
        let mut solver = solver.lock().unwrap_or_else(|e| e.into_inner());
        solver.set_searching_threads(searching);
        if let Some(spare) = &lending.spare {
            solver.set_spare_cores(Some(spare.clone()));
        }
    }
    if let Some(watch) = &options.watch {
        *watch.workers.lock().unwrap_or_else(|e| e.into_inner()) = solvers
            .iter()
            .map(|s| s.lock().unwrap_or_else(|e| e.into_inner()).progress())
            .collect();
    }
    let flags: Vec<Arc<AtomicBool>> = solvers
        .iter()
        .map(|s| s.lock().unwrap_or_else(|e| e.into_inner()).stop_flag())
        .collect();
    // Set when `stop` is seen or the callback fails.
    let halt = AtomicBool::new(false);
    let window = jobs.saturating_mul(IN_FLIGHT_PER_JOB);
    let (credit_tx, credit_rx) = channel::<()>();
    for _ in 0..window {
        let _ = credit_tx.send(());
    }
    let (result_tx, result_rx) = channel::<(usize, T, Option<Out>)>();

    let mut failure = None;
    std::thread::scope(|scope| {
        let (halt, solvers, pool, work) = (&halt, &solvers, &pool, &work);
        let lending = &lending;
        let mut inputs = inputs.into_iter();
        scope.spawn(move || {
            pool.in_place_scope(|tasks| {
                for index in 0.. {
                    // A credit per output handed back bounds the read-ahead.
                    if credit_rx.recv().is_err() || halt.load(Ordering::SeqCst) {
                        break;
                    }
                    let Some((tag, input)) = inputs.next() else {
                        lending.inputs_done();
                        break;
                    };
                    let result_tx = result_tx.clone();
                    lending.queued();
                    tasks.spawn(move |_| {
                        lending.started();
                        let output = if halt.load(Ordering::SeqCst) {
                            None
                        } else {
                            let worker = rayon::current_thread_index().unwrap_or(0);
                            // Only this worker uses its solver; a poisoned
                            // lock (a panic in an earlier input) leaves a
                            // table `work` may clear.
                            let mut solver = solvers[worker % solvers.len()]
                                .lock()
                                .unwrap_or_else(|e| e.into_inner());
                            Some(work(&mut solver, input))
                        };
                        lending.finished();
                        let _ = result_tx.send((index, tag, output));
                    });
                }
            });
            // The tasks are done: the receiver sees the end once this
            // thread's sender is dropped too.
            drop(result_tx);
        });

        let mut next = 0;
        let mut pending = BTreeMap::new();
        loop {
            match result_rx.recv_timeout(Duration::from_millis(10)) {
                Ok((index, tag, output)) => {
                    pending.insert(index, (tag, output));
                    while let Some((tag, output)) = pending.remove(&next) {
                        next += 1;
                        let _ = credit_tx.send(());
                        let Some(output) = output else { continue };
                        if failure.is_some() {
                            continue;
                        }
                        if let Err(x) = on_result(tag, output) {
                            failure = Some(x);
                            halt.store(true, Ordering::SeqCst);
                        }
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            if stop.load(Ordering::SeqCst) {
                halt.store(true, Ordering::SeqCst);
            }
            if halt.load(Ordering::SeqCst) {
                // A search clears its flag when it starts: keep setting
                // them, so that one starting just now stops as well.
                for flag in &flags {
                    flag.store(true, Ordering::SeqCst);
                }
            }
        }
    });
    if let Some(x) = failure {
        return Err(BatchError::Callback(x));
    }
    Ok(Run {
        jobs,
        stopped: halt.load(Ordering::SeqCst),
        wall_time: start.elapsed(),
        lent_helpers: lending.spare.as_ref().map_or(0, |s| s.taken()),
    })
}

/// Solves one input on `solver`, from an empty table.
fn answer<E>(
    solver: &mut Solver,
    input: Result<Position, E>,
    options: &SolveOptions,
) -> BatchAnswer<E> {
    let position = match input {
        Ok(position) => position,
        Err(e) => return BatchAnswer::Unreadable(e),
    };
    solver.clear();
    match solver.solve(&position, options) {
        Ok(result) => BatchAnswer::Solved { position, result },
        Err(error) => BatchAnswer::Unaskable { position, error },
    }
}

/// How far a batch has come, for a progress line: `done` problems of
/// `total` (when known) after `elapsed`.
#[derive(Clone, Copy, Debug)]
pub struct BatchProgress {
    pub done: u64,
    pub total: Option<u64>,
    pub elapsed: Duration,
}

impl BatchProgress {
    /// Problems per second so far (`None` before the first one).
    pub fn rate(&self) -> Option<f64> {
        let secs = self.elapsed.as_secs_f64();
        (self.done > 0 && secs > 0.0).then(|| self.done as f64 / secs)
    }

    /// The time left at the rate so far (`None` without a total or a rate).
    pub fn eta(&self) -> Option<Duration> {
        let left = self.total?.saturating_sub(self.done);
        let rate = self.rate()?;
        Duration::try_from_secs_f64(left as f64 / rate).ok()
    }
}

/// `h:mm:ss`, or `m:ss` under an hour.
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

impl fmt::Display for BatchProgress {
    /// `[#####-----] 512/1979 26% 412.3/s ETA 0:03 elapsed 0:01`, or without
    /// a total `512 done 412.3/s elapsed 0:01`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const WIDTH: u64 = 20;
        match self.total {
            Some(total) => {
                let done = self.done.min(total);
                let filled = (done * WIDTH).checked_div(total).unwrap_or(WIDTH);
                let bar: String = (0..WIDTH)
                    .map(|i| if i < filled { '#' } else { '-' })
                    .collect();
                let percent = (done * 100).checked_div(total).unwrap_or(100);
                write!(f, "[{bar}] {}/{total} {percent}%", self.done)?;
            }
            None => write!(f, "{} done", self.done)?,
        }
        match self.rate() {
            Some(rate) => write!(f, " {rate:.1}/s")?,
            None => f.write_str(" -/s")?,
        }
        if self.total.is_some() {
            match self.eta() {
                Some(eta) => write!(f, " ETA {}", clock(eta))?,
                None => f.write_str(" ETA -")?,
            }
        }
        write!(f, " elapsed {}", clock(self.elapsed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Limit;
    use std::convert::Infallible;

    /// Mate in 3 (9f5b+ 4a5b S*4b) and no mate, alternating.
    const MATE3: &str = "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1";
    const NOMATE: &str = "8k/9/9/9/9/9/9/9/9 b Rr2b4g4s4n4l18p 1";
    /// No king to mate.
    const NO_KING: &str = "9/9/9/9/9/9/9/9/4K4 b G 1";

    #[test]
    fn the_default_table_budget_is_a_share_of_the_memory_within_bounds() {
        let (least, most) = DEFAULT_HASH_MB_RANGE;
        for jobs in [0, 1, 2, 8, 1024] {
            let mb = default_hash_mb(jobs);
            assert!((least..=most).contains(&mb), "{jobs} jobs: {mb} MB");
            if let Some(total) = total_memory_mb() {
                assert!(mb * jobs.max(1) <= (total / 2).max(least * jobs.max(1)));
            }
        }
        assert!(default_hash_mb(1) >= default_hash_mb(8));
        assert_eq!(default_hash_mb(1 << 20), least);
    }

    fn inputs(n: usize) -> Vec<(usize, Result<Position, String>)> {
        (0..n)
            .map(|i| {
                let input = match i % 4 {
                    0 => Ok(MATE3.parse().unwrap()),
                    1 => Ok(NOMATE.parse().unwrap()),
                    2 => Err(format!("bad {i}")),
                    _ => Ok(NO_KING.parse().unwrap()),
                };
                (i, input)
            })
            .collect()
    }

    /// Tag, result name, nodes of each answer.
    fn run(jobs: usize, n: usize) -> (Vec<(usize, String, u64)>, Summary) {
        let options = BatchOptions {
            jobs,
            hash_mb: 1,
            threads: 1,
            hash_fallback: false,
            solve: SolveOptions::default(),
            watch: None,
            lend_idle_cores: true,
            unstarted_workers: 0,
        };
        let mut seen = Vec::new();
        let summary = solve_all(inputs(n), &options, &AtomicBool::new(false), |i, a| {
            seen.push(match a {
                BatchAnswer::Solved { result, .. } => {
                    (i, format!("{:?}", result.outcome), result.nodes)
                }
                BatchAnswer::Unreadable(e) => (i, e, 0),
                BatchAnswer::Unaskable { error, .. } => (i, error.to_string(), 0),
            });
            Ok::<(), Infallible>(())
        })
        .unwrap();
        (seen, summary)
    }

    #[test]
    fn answers_come_in_input_order_whatever_the_jobs() {
        // More problems than the read-ahead window of one worker.
        let n = IN_FLIGHT_PER_JOB * 3 + 5;
        let (one, s1) = run(1, n);
        let (three, s3) = run(3, n);
        assert_eq!(one.len(), n);
        assert!(one.iter().enumerate().all(|(i, a)| a.0 == i));
        assert_eq!(one, three, "same answers and nodes with 1 and 3 workers");
        assert!(one[0].1.starts_with("Mate"), "{:?}", one[0]);
        assert_eq!(one[1].1, "NoMate");
        assert_eq!(one[2].1, "bad 2");
        assert!(one[3].1.contains("no king"), "{:?}", one[3]);
        let count = |r: usize| (0..n).filter(|i| i % 4 == r).count() as u64;
        assert_eq!(s1.mate, count(0));
        assert_eq!(s1.nomate, count(1));
        assert_eq!(s1.errors, n as u64 - s1.mate - s1.nomate);
        assert_eq!(s1.done(), n as u64);
        assert_eq!((s1.jobs, s3.jobs), (1, 3));
        assert_eq!(s1.nodes, s3.nodes);
        assert!(!s1.stopped && !s3.stopped);
    }

    #[test]
    fn callback_error_stops_the_batch() {
        let options = BatchOptions {
            jobs: 2,
            hash_mb: 1,
            threads: 1,
            hash_fallback: false,
            solve: SolveOptions::default(),
            watch: None,
            lend_idle_cores: true,
            unstarted_workers: 0,
        };
        let mut calls = 0;
        let r = solve_all(inputs(500), &options, &AtomicBool::new(false), |i, _| {
            calls += 1;
            if i == 10 { Err(i) } else { Ok(()) }
        });
        assert!(matches!(r, Err(BatchError::Callback(10))));
        assert_eq!(calls, 11, "no call after the failing one");
    }

    #[test]
    fn stop_reports_the_started_problems_in_order() {
        // Unbounded searches of a position whose search takes long; the
        // stop comes from another thread after a while.
        const HARD: &str =
            "l6GK/2p2+R1P1/p1nsp2+Sp/1p1p2s2/2+R2bk2/3P4P/P4+p1g1/2s6/L7L b B2GNL2n7p 1";
        let hard: Position = HARD.parse().unwrap();
        let problems: Vec<(usize, Result<Position, Infallible>)> =
            (0..50).map(|i| (i, Ok(hard.clone()))).collect();
        let options = BatchOptions {
            jobs: 2,
            hash_mb: 4,
            threads: 1,
            hash_fallback: false,
            solve: SolveOptions::default(),
            watch: None,
            lend_idle_cores: true,
            unstarted_workers: 0,
        };
        let stop = AtomicBool::new(false);
        let started = Instant::now();
        let mut seen = Vec::new();
        let summary = std::thread::scope(|s| {
            s.spawn(|| {
                // Long enough for both workers to start, even on a busy
                // machine.
                std::thread::sleep(Duration::from_millis(1000));
                stop.store(true, Ordering::SeqCst);
            });
            solve_all(problems, &options, &stop, |i, a| {
                if let BatchAnswer::Solved { result, .. } = a {
                    seen.push((i, result.outcome));
                }
                Ok::<(), Infallible>(())
            })
            .unwrap()
        });
        assert!(started.elapsed() < Duration::from_secs(10));
        // Each answer handed back is a search stopped, in input order.
        assert!(summary.stopped);
        assert!(!seen.is_empty() && seen.len() < 50, "{}", seen.len());
        assert!(seen.iter().enumerate().all(|(k, (i, _))| *i == k));
        assert!(
            seen.iter()
                .all(|(_, outcome)| *outcome == Outcome::Unknown(Limit::Stopped)),
            "{seen:?}"
        );
    }

    #[test]
    fn read_ahead_is_bounded() {
        // A slow first problem (a search cut at a node limit) and many quick
        // ones: the input is not read further than the window ahead of the
        // answers handed back.
        const HARD: &str =
            "l6GK/2p2+R1P1/p1nsp2+Sp/1p1p2s2/2+R2bk2/3P4P/P4+p1g1/2s6/L7L b B2GNL2n7p 1";
        let pulled = std::sync::atomic::AtomicUsize::new(0);
        let n = 2 * IN_FLIGHT_PER_JOB * 4;
        let problems = (0..n)
            .map(|i| {
                let sfen = if i == 0 { HARD } else { MATE3 };
                (i, sfen.parse::<Position>())
            })
            .inspect(|_| {
                pulled.fetch_add(1, Ordering::SeqCst);
            });
        let options = BatchOptions {
            jobs: 2,
            hash_mb: 4,
            threads: 1,
            hash_fallback: false,
            solve: SolveOptions::default().nodes(300_000),
            watch: None,
            lend_idle_cores: true,
            unstarted_workers: 0,
        };
        let mut ahead = Vec::new();
        let summary = solve_all(problems, &options, &AtomicBool::new(false), |i, _| {
            ahead.push(pulled.load(Ordering::SeqCst) - i);
            Ok::<(), Infallible>(())
        })
        .unwrap();
        assert_eq!(summary.done(), n as u64);
        assert_eq!(summary.unknown, 1, "{summary:?}");
        let window = 2 * IN_FLIGHT_PER_JOB;
        assert!(ahead.iter().all(|&a| a <= window + 1), "{ahead:?}");
    }

    /// A worker lends its cores once no input is left for it: at once
    /// when the last input is handed out and it has none, else when its
    /// own ends.
    #[test]
    fn workers_lend_their_cores_once_no_input_is_left() {
        let lent = |l: &Lending| l.spare.as_ref().unwrap().free();
        let lending_of = |cores| Lending {
            spare: Some(Arc::new(SpareCores::new())),
            cores,
            jobs: 3,
            state: Mutex::default(),
        };
        let lending = lending_of(2);
        for _ in 0..2 {
            lending.queued();
        }
        lending.started();
        lending.finished();
        // Inputs may still come.
        assert_eq!(lent(&lending), 0);
        lending.started();
        lending.queued();
        lending.inputs_done();
        // One running, one waiting for the idle workers: one lends.
        assert_eq!(lent(&lending), 2);
        lending.started();
        lending.finished();
        assert_eq!(lent(&lending), 4);
        lending.finished();
        assert_eq!(lent(&lending), 6);

        // A worker done while an input still waits, which another takes.
        let lending = lending_of(1);
        for _ in 0..3 {
            lending.queued();
        }
        lending.started();
        lending.started();
        lending.inputs_done();
        assert_eq!(lent(&lending), 0);
        lending.finished();
        assert_eq!(lent(&lending), 1, "two workers for one input");
        lending.started();
        assert_eq!(lent(&lending), 1);
        lending.finished();
        lending.finished();
        assert_eq!(lent(&lending), 3);
    }

    /// The long search at the end of a batch takes the core of the worker
    /// left without a problem, and a single problem those of the workers
    /// not started; not when told not to, nor under a node limit.
    #[test]
    fn the_last_search_takes_the_cores_of_idle_workers() {
        const HARD: &str =
            "l6GK/2p2+R1P1/p1nsp2+Sp/1p1p2s2/2+R2bk2/3P4P/P4+p1g1/2s6/L7L b B2GNL2n7p 1";
        let helpers = |sfens: &[&str], jobs, unstarted_workers, lend, solve: SolveOptions| {
            let problems = sfens
                .iter()
                .map(|sfen| ((), sfen.parse::<Position>().unwrap()));
            let options = BatchOptions {
                jobs,
                hash_mb: 16,
                threads: 1,
                hash_fallback: false,
                solve,
                watch: None,
                lend_idle_cores: lend,
                unstarted_workers,
            };
            let mut outcomes = Vec::new();
            let run = run_all(
                problems,
                &options,
                &AtomicBool::new(false),
                |solver, pos| {
                    solver.clear();
                    solver.solve(&pos, &options.solve).unwrap()
                },
                |(), r| {
                    outcomes.push(r.outcome);
                    Ok::<(), Infallible>(())
                },
            )
            .unwrap();
            assert_eq!(outcomes[0], Outcome::Unknown(Limit::Time));
            assert_eq!(outcomes.len(), sfens.len());
            run.lent_helpers
        };
        let second = SolveOptions::default().time(Duration::from_secs(1));
        let file = [HARD, MATE3, MATE3];
        assert_eq!(helpers(&file, 2, 0, true, second), 1);
        assert_eq!(helpers(&file, 2, 0, false, second), 0);
        assert_eq!(helpers(&[HARD], 1, 2, true, second), 2);
        let limited = second.nodes(100_000_000);
        assert_eq!(helpers(&file, 2, 0, true, limited), 0);
    }

    #[test]
    fn progress_line() {
        let p = BatchProgress {
            done: 50,
            total: Some(200),
            elapsed: Duration::from_secs(10),
        };
        assert_eq!(p.rate(), Some(5.0));
        assert_eq!(p.eta(), Some(Duration::from_secs(30)));
        assert_eq!(
            p.to_string(),
            "[#####---------------] 50/200 25% 5.0/s ETA 0:30 elapsed 0:10"
        );
        let p = BatchProgress {
            done: 0,
            total: None,
            elapsed: Duration::from_secs(3725),
        };
        assert_eq!(p.rate(), None);
        assert_eq!(p.to_string(), "0 done -/s elapsed 1:02:05");
    }
}
