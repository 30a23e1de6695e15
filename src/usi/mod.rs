//! A USI mate engine: the protocol shogi GUIs (ShogiHome, ShogiGUI,
//! 将棋所) use to ask an engine for a mate.
//!
//! [`run`] reads commands line by line ([`command::Command`]) and writes the
//! answers; the search runs on a thread of its own, so `stop`, `isready` and
//! `quit` are answered while it runs. `go mate <ms>|infinite` is answered by
//! `checkmate <moves>` (the tsume-shogi answer, or the first proof's line
//! when the time ran out reading it), `checkmate nomate` (proven) or
//! `checkmate timeout` (not known when the time ran out, or at `stop`); a
//! plain `go` by `bestmove <move>` when the side to move mates, else
//! `bestmove resign`. While searching, an `info` line about once a second.
//!
//! ```
//! use std::io::Cursor;
//! let session = "usi\nsetoption name USI_Hash value 8\nisready\n\
//!                position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1\n\
//!                go mate 10000\n\
//!                position startpos moves 7g7f 3c3d 9z9z\n";
//! let out = tsume::usi::run(Cursor::new(session), Vec::new()).unwrap();
//! let out = String::from_utf8(out).unwrap();
//! let lines: Vec<&str> = out.lines().collect();
//! assert!(lines.contains(&"usiok") && lines.contains(&"readyok"));
//! assert!(lines.contains(&"checkmate G*5b"), "{out}");
//! assert!(lines.iter().any(|l| l.starts_with("info string error: position: move 3 (column 35)")), "{out}");
//! ```

pub mod command;
pub mod options;

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::core::movegen::legal_moves;
use crate::core::{Color, Move, Position};
use crate::input::{LineError, LineReader, MAX_LINE_BYTES};
use crate::solver::{
    Limit, Limits, Outcome, Rules, SearchProgress, SolveError, SolveOptions, SolveResult, Solver,
    Within,
};

use command::{Clock, Command, CommandError, Go, MateTime};
use options::EngineOptions;

/// How often an `info` line is written during a search.
const INFO_INTERVAL: Duration = Duration::from_secs(1);

/// Kept from the time a plain `go` may use, for the answer to reach the GUI.
const MOVE_OVERHEAD: Duration = Duration::from_millis(100);

/// Times beyond this are taken as this (a deadline far in the future must
/// not overflow the clock).
const MAX_MILLIS: u64 = 366 * 24 * 3600 * 1000;

fn millis(ms: u64) -> Duration {
    Duration::from_millis(ms.min(MAX_MILLIS))
}

/// Runs a USI session: reads commands from `input` until `quit` or its end,
/// writes the answers to `output` (flushed after each), and returns
/// `output`.
///
/// Every `go` is answered, in the order the `go`s came: one that cannot be
/// read (or finds no position to search) with an `info string error` and
/// `checkmate timeout` / `bestmove resign`. A `go` that comes while a
/// search runs waits for it when it has a limit (time, nodes or depth),
/// and stops it (it answers) when it has none. `quit` and the end of the input do the
/// same: a search with a limit is finished and answered, one without is
/// stopped and answered, then the session ends.
///
/// Lines are read in bounded memory ([`LineReader`]): a line that cannot be
/// read (longer than [`crate::input::MAX_LINE_BYTES`], not UTF-8), a bad
/// command or option value get `info string error: ...` and the session
/// goes on; commands that are not USI are ignored. Fails when writing fails
/// or the input cannot be read (an error, or a line without end past
/// [`crate::input::MAX_SKIPPED_BYTES`]: not lines of text), after the
/// running search has answered.
pub fn run<R: BufRead, W: Write + Send + 'static>(input: R, output: W) -> io::Result<W> {
    let mut engine = Engine::new(output);
    let result = (|| {
        for line in LineReader::new(input) {
            let line = match line {
                Ok(line) => line,
                Err(e) => {
                    let _ = engine.error(&format!("cannot read the input: {e}"));
                    engine.finish();
                    return Err(e);
                }
            };
            let step = match &line.text {
                Ok(text) => engine.handle(text)?,
                Err(e) => {
                    engine.unreadable(line.number, e)?;
                    Flow::Continue
                }
            };
            if let Flow::Quit = step {
                break;
            }
        }
        engine.finish();
        Ok(())
    })();
    match result {
        Ok(()) => engine.into_output(),
        Err(e) => {
            engine.stop(true);
            Err(e)
        }
    }
}

/// Whether the session goes on after a command.
enum Flow {
    Continue,
    Quit,
}

/// The engine between commands.
struct Engine<W> {
    out: Arc<Mutex<W>>,
    options: EngineOptions,
    /// The solver, when no search holds it; built at `isready` or `go`.
    solver: Option<Solver>,
    /// The `USI_Hash` the solver was built with.
    built_hash: usize,
    /// The position of the last `position` command; `None` before one, or
    /// after one that could not be read.
    position: Option<Position>,
    search: Option<Running>,
}

/// A search on its thread.
struct Running {
    handle: JoinHandle<Solver>,
    shared: Arc<Shared>,
    /// Whether it ends by itself (a time or node limit, or a depth).
    bounded: bool,
    /// The time a pondering search may use after `ponderhit`.
    after_ponderhit: Option<Duration>,
    /// `go mate` (or a plain `go`).
    mate: bool,
}

impl Running {
    /// Whether it answers without `stop`: it has a limit, and its answer is
    /// not held for `stop` or `ponderhit`.
    fn ends_by_itself(&self) -> bool {
        self.bounded && !lock(&self.shared.state).hold
    }
}

/// What the reader and the search threads share.
struct Shared {
    state: Mutex<State>,
    wake: Condvar,
    /// The solver's stop flag.
    stop: Arc<AtomicBool>,
}

#[derive(Default)]
struct State {
    /// The solver has returned.
    done: bool,
    /// The answer waits for `stop` (`go infinite`) or `ponderhit`.
    hold: bool,
    /// `stop`, `quit`, or the end of the input: the answer may go out.
    released: bool,
    /// The search is to stop now.
    stop_requested: bool,
    /// The search is to stop then (a pondering search after `ponderhit`).
    deadline: Option<Instant>,
    /// Do not answer (the engine goes away on an error of its own).
    silent: bool,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Writes lines and flushes.
fn send<W: Write>(out: &Mutex<W>, lines: &[String]) -> io::Result<()> {
    let mut w = lock(out);
    for line in lines {
        writeln!(w, "{line}")?;
    }
    w.flush()
}

/// What one search is asked.
struct Job {
    pos: Position,
    asked: SolveOptions,
    /// `go mate` (answered by `checkmate`) or a plain `go` (`bestmove`).
    mate: bool,
    /// `go depth N`: a mate of at most N plies is looked for.
    depth: Option<u64>,
    /// Name a ponder move after `bestmove`.
    ponder_move: bool,
}

impl<W: Write + Send + 'static> Engine<W> {
    fn new(output: W) -> Engine<W> {
        Engine {
            out: Arc::new(Mutex::new(output)),
            options: EngineOptions::default(),
            solver: None,
            built_hash: 0,
            position: None,
            search: None,
        }
    }

    fn into_output(self) -> io::Result<W> {
        let out = self.out.clone();
        drop(self);
        match Arc::try_unwrap(out) {
            Ok(m) => Ok(m.into_inner().unwrap_or_else(PoisonError::into_inner)),
            Err(_) => Err(io::Error::other("the search thread still holds the output")),
        }
    }

    fn send(&self, lines: &[String]) -> io::Result<()> {
        send(&self.out, lines)
    }

    fn error(&self, message: &str) -> io::Result<()> {
        self.send(&[format!("info string error: {message}")])
    }

    /// Answers a `go` that cannot be searched: after the running search's
    /// answer (answers come in the order of the `go`s), the error and
    /// `answer`.
    fn refuse_go(&mut self, message: &str, answer: &str) -> io::Result<()> {
        self.settle();
        self.error(message)?;
        self.send(&[answer.to_string()])
    }

    /// A line that cannot be read: an error naming it, and the answer when
    /// it is a `go`. A position cannot be read from it either.
    fn unreadable(&mut self, number: u64, e: &LineError) -> io::Result<()> {
        let message = match e {
            LineError::TooLong { bytes, start } => format!(
                "line {number} is longer than {} MB ({bytes} bytes): `{start}`; not read",
                MAX_LINE_BYTES >> 20
            ),
            LineError::NotUtf8 { .. } => format!("line {number}: {e}"),
        };
        if e.start().split_whitespace().next() == Some("position") {
            self.position = None;
        }
        match command::answer_to_unreadable(e.start()) {
            Some(answer) => self.refuse_go(&message, answer),
            None => self.error(&message),
        }
    }

    /// Before a new `go`: waits for the running search when it ends by
    /// itself (a limit, not held for `stop` or `ponderhit`), else stops it;
    /// either way it has answered.
    fn settle(&mut self) {
        self.reap();
        match &self.search {
            Some(r) if r.ends_by_itself() => self.join(),
            Some(_) => self.stop(false),
            None => {}
        }
    }

    fn handle(&mut self, line: &str) -> io::Result<Flow> {
        let command = match line.parse::<Command>() {
            Ok(c) => c,
            // The protocol says to ignore what is not a command.
            Err(CommandError::Empty | CommandError::Unknown(_)) => return Ok(Flow::Continue),
            Err(e) => {
                if matches!(e, CommandError::Position(_)) {
                    // A `go` must not search the position before this one.
                    self.position = None;
                }
                match e.answer() {
                    Some(answer) => self.refuse_go(&e.to_string(), answer)?,
                    None => self.error(&e.to_string())?,
                }
                return Ok(Flow::Continue);
            }
        };
        match command {
            Command::Usi => {
                let mut lines = vec![
                    format!("id name tsume {}", env!("CARGO_PKG_VERSION")),
                    "id author the tsume authors".to_string(),
                ];
                lines.extend(EngineOptions::announce());
                lines.push("usiok".to_string());
                self.send(&lines)?;
            }
            Command::IsReady => {
                self.reap();
                if self.search.is_none() {
                    // Build (or rebuild, after USI_Hash changed) the table now.
                    let solver = self.take_solver()?;
                    self.solver = Some(solver);
                }
                self.send(&["readyok".to_string()])?;
            }
            Command::SetOption { name, value } => {
                if let Err(e) = self.options.set(&name, value.as_deref()) {
                    self.error(&e.to_string())?;
                }
            }
            Command::UsiNewGame => {}
            Command::Position(p) => self.position = Some(p.end),
            Command::Go(go) => self.go(go)?,
            Command::Stop => self.stop(false),
            Command::PonderHit => self.ponderhit(),
            // Stopped as by `stop`: every `go` is answered, this one too
            // (issue 31, audit F5).
            Command::GameOver(_) => self.stop(false),
            // The running search answers first (see `finish`).
            Command::Quit => return Ok(Flow::Quit),
        }
        Ok(Flow::Continue)
    }

    /// The solver, built with the current `USI_Hash`. When the system
    /// does not give that much memory, the GUI is told (`info string
    /// error`) and the table takes what it can get.
    fn take_solver(&mut self) -> io::Result<Solver> {
        if self.built_hash != self.options.hash_mb {
            // Free the old table before allocating the new one.
            self.solver = None;
        }
        let mut solver = match self.solver.take() {
            Some(s) => s,
            None => {
                self.built_hash = self.options.hash_mb;
                match Solver::try_new(self.options.hash_mb) {
                    Ok(s) => s,
                    Err(e) => {
                        let solver = Solver::new(self.options.hash_mb);
                        self.error(&format!(
                            "USI_Hash: {e}; using {} MB",
                            solver.table_budget_mb()
                        ))?;
                        solver
                    }
                }
            }
        };
        let threads = self.options.threads;
        solver.set_threads(threads);
        solver.set_searching_threads(threads.max(1));
        Ok(solver)
    }

    /// Joins a search that has ended by itself.
    fn reap(&mut self) {
        if self.search.as_ref().is_some_and(|r| r.handle.is_finished()) {
            self.join();
        }
    }

    fn join(&mut self) {
        let Some(r) = self.search.take() else {
            return;
        };
        match r.handle.join() {
            Ok(solver) => self.solver = Some(solver),
            Err(_) => {
                // It died before answering; the GUI waits for an answer.
                let answer = if r.mate {
                    "checkmate timeout"
                } else {
                    "bestmove resign"
                };
                let _ = self.error("the search failed (an internal error); the table is rebuilt");
                let _ = self.send(&[answer.to_string()]);
            }
        }
    }

    /// Stops the running search and waits for its answer (none when
    /// `silent`).
    fn stop(&mut self, silent: bool) {
        if let Some(r) = &self.search {
            let mut st = lock(&r.shared.state);
            st.stop_requested = true;
            st.released = true;
            st.silent |= silent;
            drop(st);
            r.shared.stop.store(true, Ordering::SeqCst);
            r.shared.wake.notify_all();
        }
        self.join();
    }

    fn ponderhit(&mut self) {
        if let Some(r) = &self.search {
            let mut st = lock(&r.shared.state);
            st.hold = false;
            st.deadline = r.after_ponderhit.map(|t| Instant::now() + t);
            drop(st);
            r.shared.wake.notify_all();
        }
    }

    /// At `quit` or the end of the input: a search with a limit is
    /// finished and answered, one without is stopped and answered.
    fn finish(&mut self) {
        match &self.search {
            Some(r) if r.bounded => {
                let mut st = lock(&r.shared.state);
                st.released = true;
                drop(st);
                r.shared.wake.notify_all();
                self.join();
            }
            _ => self.stop(false),
        }
    }

    fn go(&mut self, go: Go) -> io::Result<()> {
        // Commands are taken in order: a search that ends by itself is
        // waited for (a GUI waits for the answer anyway; a script piping
        // commands need not), one that does not is stopped.
        self.reap();
        if let Some(r) = &self.search
            && !r.ends_by_itself()
        {
            self.send(&[
                "info string a search without a limit was running: it is stopped for this `go`"
                    .to_string(),
            ])?;
        }
        self.settle();
        let mate = matches!(go, Go::Mate(_));
        let Some(pos) = self.position.clone() else {
            let answer = if mate {
                "checkmate timeout"
            } else {
                "bestmove resign"
            };
            return self.refuse_go(
                "no position to search: the last `position` command was missing or could not be read",
                answer,
            );
        };
        let mut limits = Limits {
            nodes: (self.options.mate_nodes > 0).then_some(self.options.mate_nodes),
            time: None,
        };
        let (mut hold, mut after_ponderhit, mut depth) = (false, None, None);
        if let Go::Play(clock) = &go {
            if let Some(n) = clock.nodes {
                limits.nodes = Some(limits.nodes.map_or(n, |m| m.min(n)));
            }
            depth = clock.depth;
        }
        match &go {
            Go::Mate(MateTime::Millis(ms)) => limits.time = Some(millis(*ms)),
            Go::Mate(MateTime::Infinite) => {}
            Go::Play(clock) if clock.ponder => {
                hold = true;
                after_ponderhit = budget(clock, pos.side_to_move());
            }
            Go::Play(clock) if clock.infinite => hold = true,
            Go::Play(clock) => limits.time = budget(clock, pos.side_to_move()),
        }
        let bounded = limits.time.is_some() || limits.nodes.is_some() || depth.is_some();
        let mut solver = self.take_solver()?;
        // Each search starts from an empty table (a cheap generation bump),
        // so an answer does not depend on the searches before it.
        solver.clear();
        let stop = solver.stop_flag();
        stop.store(false, Ordering::SeqCst);
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                hold,
                ..State::default()
            }),
            wake: Condvar::new(),
            stop,
        });
        let job = Job {
            pos,
            asked: SolveOptions {
                limits,
                rules: Rules {
                    useless_rule: self.options.useless_rule,
                    defence: self.options.defence,
                },
                defender_to_move: false,
                tsume_answer: self.options.shortest,
            },
            mate,
            depth,
            ponder_move: self.options.ponder,
        };
        let (thread_shared, out) = (shared.clone(), self.out.clone());
        let handle = std::thread::Builder::new()
            .name("usi-search".to_string())
            // As much as the main thread has; the solver grows its own stack
            // on deep lines.
            .stack_size(8 << 20)
            .spawn(move || search_thread(solver, job, &thread_shared, &out))?;
        self.search = Some(Running {
            handle,
            shared,
            bounded,
            after_ponderhit,
            mate,
        });
        Ok(())
    }
}

impl<W> Drop for Engine<W> {
    fn drop(&mut self) {
        if let Some(r) = self.search.take() {
            lock(&r.shared.state).silent = true;
            lock(&r.shared.state).released = true;
            r.shared.stop.store(true, Ordering::SeqCst);
            r.shared.wake.notify_all();
            let _ = r.handle.join();
        }
    }
}

/// The time a plain `go` may use: `movetime`; or a twentieth of the side's
/// remaining time plus its increment and byoyomi, less a margin for the answer to reach the GUI; no limit when the
/// command gives no time.
fn budget(clock: &Clock, side: Color) -> Option<Duration> {
    if let Some(ms) = clock.movetime {
        return Some(millis(ms).saturating_sub(MOVE_OVERHEAD / 2));
    }
    let (time, inc) = match side {
        Color::Black => (clock.btime, clock.binc),
        Color::White => (clock.wtime, clock.winc),
    };
    if time.is_none() && inc.is_none() && clock.byoyomi.is_none() {
        return None;
    }
    let (time, extra) = (
        time.unwrap_or(0),
        inc.unwrap_or(0).saturating_add(clock.byoyomi.unwrap_or(0)),
    );
    let ms = (time / 20).saturating_add(extra);
    Some(
        millis(ms)
            .saturating_sub(MOVE_OVERHEAD)
            .max(Duration::from_millis(10)),
    )
}

/// Runs one search, writes `info` lines while it runs, waits while its
/// answer is held, writes the answer, and gives the solver back.
fn search_thread<W: Write + Send>(
    mut solver: Solver,
    job: Job,
    shared: &Shared,
    out: &Mutex<W>,
) -> Solver {
    let start = Instant::now();
    let progress = solver.progress();
    let result = std::thread::scope(|scope| {
        scope.spawn(|| monitor(shared, &progress, start, out));
        // The monitor ends also if the solver panics.
        let _done = Done(shared);
        match job.depth {
            None => solver.solve(&job.pos, &job.asked).map(Found::Solved),
            Some(depth) => mate_within(&mut solver, &job.pos, depth, &job.asked),
        }
    });
    let hashfull = solver.hashfull();
    let mut st = lock(&shared.state);
    while st.hold && !st.released {
        st = shared.wake.wait(st).unwrap_or_else(PoisonError::into_inner);
    }
    let silent = st.silent;
    drop(st);
    if !silent {
        // The reader thread notices a closed output itself.
        let _ = send(out, &answer(&job, result, hashfull, start.elapsed()));
    }
    solver
}

/// What a search found.
enum Found {
    /// `solve`'s result.
    Solved(SolveResult),
    /// `go depth`: the first move of a mate within `depth` plies, or none
    /// (proven unless `unknown` names the limit that came first).
    Within {
        depth: u64,
        first: Option<Move>,
        unknown: Option<Limit>,
        nodes: u64,
    },
}

/// Looks for a mate of at most `depth` plies by the side to move: each of
/// its moves that gives check, asked whether the defender is then mated
/// within `depth - 1` plies, within what is left of the limits of `options`.
fn mate_within(
    solver: &mut Solver,
    pos: &Position,
    depth: u64,
    options: &SolveOptions,
) -> Result<Found, SolveError> {
    let limits = &options.limits;
    let start = Instant::now();
    let plies = u32::try_from(depth.saturating_sub(1)).unwrap_or(u32::MAX);
    let (mut nodes, mut unknown) = (0u64, None);
    let moves = if depth == 0 {
        Vec::new()
    } else {
        legal_moves(pos).iter().copied().collect()
    };
    for m in moves.into_iter().filter(|&m| pos.gives_check(m)) {
        let mut asked = options.defender_to_move(true);
        if let Some(n) = limits.nodes {
            if nodes >= n {
                unknown = Some(Limit::Nodes);
                break;
            }
            asked.limits.nodes = Some(n - nodes);
        }
        if let Some(t) = limits.time {
            let left = t.saturating_sub(start.elapsed());
            if left.is_zero() {
                unknown = Some(Limit::Time);
                break;
            }
            asked.limits.time = Some(left);
        }
        match solver.mated_within(&pos.after(m), plies, &asked)? {
            Within::Mated { nodes: n, .. } => {
                return Ok(Found::Within {
                    depth,
                    first: Some(m),
                    unknown: None,
                    nodes: nodes + n,
                });
            }
            Within::NotMated { nodes: n } => nodes += n,
            Within::Unknown { limit, nodes: n } => {
                nodes += n;
                unknown = Some(limit);
                if limit != Limit::Depth {
                    break;
                }
            }
        }
    }
    Ok(Found::Within {
        depth,
        first: None,
        unknown,
        nodes,
    })
}

/// Tells the monitor that the search is over, when dropped.
struct Done<'a>(&'a Shared);

impl Drop for Done<'_> {
    fn drop(&mut self) {
        lock(&self.0.state).done = true;
        self.0.wake.notify_all();
    }
}

/// Writes an `info` line about once a second until the search is done, and
/// stops it when asked (again and again: the flag is set before the search
/// starts, and a solver may clear it at the start) or when its deadline
/// passes.
fn monitor<W: Write>(shared: &Shared, progress: &SearchProgress, start: Instant, out: &Mutex<W>) {
    let mut next_info = start + INFO_INTERVAL;
    let mut st = lock(&shared.state);
    loop {
        if st.done {
            return;
        }
        let now = Instant::now();
        if st.stop_requested || st.deadline.is_some_and(|d| now >= d) {
            shared.stop.store(true, Ordering::SeqCst);
        }
        if now >= next_info {
            drop(st);
            let line = stats(progress.nodes(), now - start, progress.hashfull());
            let _ = send(out, &[line]);
            next_info = now + INFO_INTERVAL;
            st = lock(&shared.state);
            continue;
        }
        let mut wait = next_info - now;
        if st.stop_requested {
            wait = wait.min(Duration::from_millis(20));
        }
        if let Some(d) = st.deadline {
            wait = wait.min(
                d.saturating_duration_since(now)
                    .max(Duration::from_millis(1)),
            );
        }
        st = shared
            .wake
            .wait_timeout(st, wait)
            .unwrap_or_else(PoisonError::into_inner)
            .0;
    }
}

/// `info time T nodes N nps X hashfull H`.
fn stats(nodes: u64, elapsed: Duration, hashfull: u32) -> String {
    let ms = elapsed.as_millis();
    let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64;
    format!("info time {ms} nodes {nodes} nps {nps} hashfull {hashfull}")
}

fn line_text(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The lines that end a search: the last `info`, an `info string` saying
/// what the answer is, and `checkmate ...` or `bestmove ...`.
fn answer(
    job: &Job,
    result: Result<Found, SolveError>,
    hashfull: u32,
    elapsed: Duration,
) -> Vec<String> {
    let give_up = if job.mate {
        "checkmate nomate"
    } else {
        "bestmove resign"
    };
    let r = match result {
        Ok(Found::Solved(r)) => r,
        Ok(Found::Within {
            depth,
            first,
            unknown,
            nodes,
        }) => {
            let info = stats(nodes, elapsed, hashfull);
            return match (first, unknown) {
                (Some(m), _) => vec![
                    info,
                    format!("info string a mate within {depth} plies starts with {m}"),
                    format!("bestmove {m}"),
                ],
                (None, None) => vec![
                    info,
                    format!("info string no mate within {depth} plies: proven"),
                    give_up.to_string(),
                ],
                (None, Some(limit)) => vec![
                    info,
                    format!("info string unknown: {limit}"),
                    give_up.to_string(),
                ],
            };
        }
        Err(e) => return vec![format!("info string {e}"), give_up.to_string()],
    };
    let mut info = stats(r.nodes, elapsed, hashfull);
    let (note, last) = match &r.outcome {
        Outcome::Mate { moves } if !moves.is_empty() => {
            let pv = line_text(moves);
            info.push_str(&format!(" score mate {} pv {pv}", moves.len()));
            let note = if r.exact {
                format!("mate in {}: the tsume answer", moves.len())
            } else if job.asked.tsume_answer {
                let bounds = r
                    .answer_bounds()
                    .map(|b| format!(", which is {b}"))
                    .unwrap_or_default();
                format!(
                    "mate in {}: not proven the tsume answer (reading it ran out of time or nodes){bounds}; the line of the longest resistance known, else the first proof's",
                    moves.len(),
                )
            } else {
                format!(
                    "mate in {}: the first proof's line (ShortestAnswer is off); a shorter mate may exist",
                    moves.len()
                )
            };
            let last = if job.mate {
                format!("checkmate {pv}")
            } else {
                match moves.get(1).filter(|_| job.ponder_move) {
                    Some(_) => format!("bestmove {} ponder {}", moves[0], moves[1]),
                    None => format!("bestmove {}", moves[0]),
                }
            };
            (note, last)
        }
        Outcome::Mate { .. } | Outcome::NoMate => {
            ("no mate: proven".to_string(), give_up.to_string())
        }
        Outcome::Unknown(limit) => (
            format!("unknown: {limit}"),
            if job.mate {
                "checkmate timeout".to_string()
            } else {
                "bestmove resign".to_string()
            },
        ),
    };
    vec![info, format!("info string {note}"), last]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn session(input: &str) -> Vec<String> {
        let out = run(Cursor::new(input.to_string()), Vec::new()).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    const ONE: &str = "position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";

    #[test]
    fn budget_splits_the_clock() {
        let clock = |s: &str| match s.parse::<Command>() {
            Ok(Command::Go(Go::Play(c))) => c,
            other => panic!("{other:?}"),
        };
        let ms = |d: Option<Duration>| d.map(|d| d.as_millis());
        assert_eq!(
            ms(budget(
                &clock("go btime 0 wtime 0 byoyomi 1000"),
                Color::Black
            )),
            Some(900)
        );
        assert_eq!(
            ms(budget(&clock("go btime 60000 wtime 2000"), Color::Black)),
            Some(2900)
        );
        assert_eq!(
            ms(budget(&clock("go btime 60000 wtime 2000"), Color::White)),
            Some(10)
        );
        assert_eq!(
            ms(budget(
                &clock("go btime 0 wtime 0 winc 500 binc 0"),
                Color::White
            )),
            Some(400)
        );
        assert_eq!(
            ms(budget(&clock("go movetime 1000"), Color::White)),
            Some(950)
        );
        assert_eq!(budget(&clock("go"), Color::White), None);
        // Absurd times do not overflow the clock.
        let huge = budget(
            &clock("go btime 18446744073709551615 byoyomi 18446744073709551615"),
            Color::Black,
        );
        assert_eq!(ms(huge), Some(u128::from(MAX_MILLIS) - 100));
    }

    #[test]
    fn mate_nomate_and_bestmove() {
        let out = session(&format!(
            "setoption name USI_Hash value 4\n{ONE}\ngo mate 18446744073709551615\n\
             position sfen 4k4/9/9/9/9/9/9/9/9 b P 1\ngo mate 5000\n\
             {ONE}\ngo btime 0 wtime 0 byoyomi 1000\n\
             position startpos\ngo btime 0 wtime 0 byoyomi 1000\n"
        ));
        let answers: Vec<&String> = out
            .iter()
            .filter(|l| l.starts_with("checkmate") || l.starts_with("bestmove"))
            .collect();
        assert_eq!(
            answers,
            [
                "checkmate G*5b",
                "checkmate nomate",
                "bestmove G*5b",
                "bestmove resign"
            ]
        );
        assert!(
            out.iter().any(|l| l.ends_with("score mate 1 pv G*5b")),
            "{out:?}"
        );
        assert!(out.contains(&"info string mate in 1: the tsume answer".to_string()));
    }

    /// The nodes of the final `info` line and the `info string` and
    /// `checkmate` lines of a session of one search.
    fn one_search(setup: &str) -> (u64, String, String) {
        let out = session(&format!(
            "setoption name USI_Hash value 4\n{setup}\nposition sfen {PROVEN}\ngo mate 60000\n"
        ));
        let info = out
            .iter()
            .rev()
            .find(|l| l.starts_with("info time"))
            .unwrap();
        let nodes = info.split(' ').nth(4).and_then(|n| n.parse().ok()).unwrap();
        let note = out
            .iter()
            .rev()
            .find(|l| l.starts_with("info string"))
            .unwrap();
        (nodes, note.clone(), out.last().unwrap().clone())
    }

    /// Its tsume answer costs nodes beyond the proof.
    const PROVEN: &str = "ln7/1k1+P5/1pp1S4/p8/9/2P6/9/9/9 b BGN2rbg2s2n3l13p 1";

    #[test]
    fn a_mate_proven_before_the_limit_is_reported_as_not_the_answer() {
        let (first_nodes, note, first) = one_search("setoption name ShortestAnswer value false");
        assert!(
            note.contains("the first proof's line (ShortestAnswer is off)"),
            "{note}"
        );
        let (full_nodes, note, full) = one_search("");
        assert!(note.ends_with("the tsume answer"), "{note}");
        assert!(full_nodes > first_nodes + 1);
        // A node limit that lets the proof through but not the answer:
        // a sound line, said not to be the answer.
        let (_, note, cut) = one_search(&format!(
            "setoption name MateNodes value {}",
            first_nodes + 1
        ));
        assert!(note.contains("ran out of time or nodes"), "{note}");
        // Bounded from above by the proof, never below the answer.
        let at_most: usize = note
            .split("at most ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no upper bound: {note}"));
        assert!(at_most >= full.split(' ').count() - 1, "{note} / {full}");
        let pos: Position = PROVEN.parse().unwrap();
        for answer in [&first, &full, &cut] {
            let moves: Vec<Move> = answer
                .strip_prefix("checkmate ")
                .unwrap()
                .split(' ')
                .scan(pos.clone(), |p, m| {
                    let m = p.parse_move(m).unwrap();
                    p.do_move(m);
                    Some(m)
                })
                .collect();
            assert!(crate::solver::is_mating_line(&pos, &moves, Color::Black));
        }
    }

    #[test]
    fn the_side_to_move_in_check_may_mate_with_a_checking_evasion() {
        use crate::solver::{exhaustive, is_mating_line};
        // Black is in check from the lance on 1c; taking it with the rook
        // mates.
        let sfen = "8k/6G2/4R3l/9/9/9/9/9/8K b - 1";
        let pos: Position = sfen.parse().unwrap();
        assert!(pos.in_check());
        assert_eq!(exhaustive::shortest_mate(&pos, 3), Some(1));
        let out = session(&format!("position sfen {sfen}\ngo mate 5000\n"));
        let last = out.last().unwrap();
        let moves: Vec<Move> = last
            .strip_prefix("checkmate ")
            .unwrap()
            .split(' ')
            .map(|m| pos.parse_move(m).unwrap())
            .collect();
        assert_eq!(moves.len(), 1, "{out:?}");
        assert!(is_mating_line(&pos, &moves, Color::Black));
        // Without the gold the king escapes: no mate, proven.
        let out = session("position sfen 8k/9/4R3l/9/9/9/9/9/8K b - 1\ngo mate 5000\n");
        assert_eq!(out.last().unwrap(), "checkmate nomate", "{out:?}");
    }

    #[test]
    fn what_cannot_be_read_is_reported_and_the_session_goes_on() {
        let out = session(&format!(
            "bogus command\n\nsetoption name USI_Hash value 0\nsetoption name Nothing value 1\n\
             go mate soon\nposition sfen 4k4/9/9 b - 1\ngo mate 100\n\
             position sfen 9/9/9/9/9/9/9/9/9 b G 1\ngo mate 100\n{ONE}\ngo mate 1000\nisready\n"
        ));
        let errors: Vec<&String> = out
            .iter()
            .filter(|l| l.starts_with("info string error: "))
            .collect();
        assert_eq!(errors.len(), 5, "{out:?}");
        assert!(
            errors[0].contains("USI_Hash: 0 is out of range"),
            "{}",
            errors[0]
        );
        assert!(
            errors[1].contains("unknown option `Nothing`"),
            "{}",
            errors[1]
        );
        assert!(errors[2].contains("`soon` at column 9"), "{}", errors[2]);
        assert!(errors[3].contains("position: bad SFEN"), "{}", errors[3]);
        assert!(errors[4].contains("no position to search"), "{}", errors[4]);
        assert!(
            out.iter()
                .any(|l| l.starts_with("info string the defender") && l.contains("has no king")),
            "{out:?}"
        );
        // `isready` is answered at once, also during a search.
        assert!(out.contains(&"readyok".to_string()));
        let answers: Vec<&String> = out.iter().filter(|l| l.starts_with("checkmate")).collect();
        assert_eq!(
            answers,
            [
                "checkmate timeout",
                "checkmate timeout",
                "checkmate nomate",
                "checkmate G*5b"
            ]
        );
    }

    /// Mate in 5 (misc_small.tsv): G*5a 6a5a 2d5a+ 4a5a G*5b.
    const FIVE: &str = "position sfen 3g1ks2/6g2/4S4/7B1/9/9/9/9/9 b G2rbg2s4n4l18p 1";

    /// The `checkmate` and `bestmove` lines of a session.
    fn answers(out: &[String]) -> Vec<&str> {
        out.iter()
            .map(String::as_str)
            .filter(|l| l.starts_with("checkmate") || l.starts_with("bestmove"))
            .collect()
    }

    #[test]
    fn every_go_is_answered_in_order_also_one_that_cannot_be_read() {
        let out = session(&format!(
            "{FIVE}
go mate abc
go byoyomi abc
go mate -5
go btime -1 wtime 0
             go mate 10000
go depth
go nodes x
go mate 1 2
go mate
"
        ));
        assert_eq!(
            answers(&out),
            [
                "checkmate timeout",
                "bestmove resign",
                "checkmate timeout",
                "bestmove resign",
                "checkmate G*5a 6a5a 2d5a+ 4a5a G*5b",
                "bestmove resign",
                "bestmove resign",
                "checkmate timeout",
                "checkmate timeout",
            ],
            "{out:?}"
        );
        let errors = out
            .iter()
            .filter(|l| l.starts_with("info string error: go: "));
        assert_eq!(errors.count(), 8, "{out:?}");
        assert!(
            out.iter().any(|l| l
                .contains("`mate -5` at column 4: a number of milliseconds cannot be negative")),
            "{out:?}"
        );
    }

    #[test]
    fn go_nodes_and_go_depth_bound_the_search() {
        let out = session(&format!(
            "{FIVE}
go nodes 1
go nodes 100000
go depth 3
go depth 5
go depth 7 nodes 1
"
        ));
        assert_eq!(
            answers(&out),
            [
                "bestmove resign",
                "bestmove G*5a",
                "bestmove resign",
                "bestmove G*5a",
                "bestmove resign"
            ],
            "{out:?}"
        );
        let notes: Vec<&str> = out
            .iter()
            .filter_map(|l| l.strip_prefix("info string "))
            .collect();
        assert_eq!(
            notes,
            [
                "unknown: node limit",
                "mate in 5: the tsume answer",
                "no mate within 3 plies: proven",
                "a mate within 5 plies starts with G*5a",
                "unknown: node limit"
            ],
            "{out:?}"
        );
    }

    #[test]
    fn a_go_during_a_search_without_limit_stops_it_and_both_are_answered() {
        let out = session(&format!(
            "{FIVE}
go infinite
go mate 10000
"
        ));
        assert_eq!(
            answers(&out),
            ["bestmove G*5a", "checkmate G*5a 6a5a 2d5a+ 4a5a G*5b"],
            "{out:?}"
        );
    }

    /// Microcosmos, 1525 plies: far beyond a few seconds.
    const LONG: &str = "position sfen g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1";

    #[test]
    fn quit_waits_for_a_search_with_a_limit_and_stops_one_without() {
        let start = Instant::now();
        let out = session(&format!(
            "setoption name USI_Hash value 4
{LONG}
go mate 300
quit
isready
"
        ));
        assert!(start.elapsed() >= Duration::from_millis(300), "{out:?}");
        assert!(
            out.contains(&"info string unknown: time limit".to_string()),
            "{out:?}"
        );
        assert_eq!(answers(&out), ["checkmate timeout"]);
        // Nothing after quit is read.
        assert!(!out.contains(&"readyok".to_string()), "{out:?}");
        let out = session(&format!(
            "setoption name USI_Hash value 4
{LONG}
go mate infinite
quit
"
        ));
        assert!(
            out.contains(&"info string unknown: stopped".to_string()),
            "{out:?}"
        );
        assert_eq!(answers(&out), ["checkmate timeout"]);
    }

    #[test]
    fn lines_that_cannot_be_read_are_errors_and_a_go_among_them_is_answered() {
        let mut input = format!(
            "{FIVE}
"
        )
        .into_bytes();
        input.extend(b"go mate ");
        input.extend(std::iter::repeat_n(b'9', crate::input::MAX_LINE_BYTES));
        input.extend(b"\ngo \xff\nposition startpos moves ");
        input.extend(std::iter::repeat_n(b' ', crate::input::MAX_LINE_BYTES));
        input.extend(
            b"7g7f
go mate 1000
",
        );
        let out = run(Cursor::new(input), Vec::new()).unwrap();
        let out: Vec<String> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        assert_eq!(
            answers(&out),
            ["checkmate timeout", "bestmove resign", "checkmate timeout"],
            "{out:?}"
        );
        let errors: Vec<&String> = out
            .iter()
            .filter(|l| l.starts_with("info string error: "))
            .collect();
        assert!(
            errors[0].contains("line 2 is longer than 1 MB"),
            "{}",
            errors[0]
        );
        assert!(errors[0].len() < 300, "{}", errors[0]);
        assert!(
            errors[1].contains("line 3: the line is not valid UTF-8 (byte 4)"),
            "{}",
            errors[1]
        );
        assert!(errors[3].contains("no position to search"), "{}", errors[3]);
    }

    #[test]
    fn invalid_utf8_is_an_error_line() {
        let mut input = b"usi\n".to_vec();
        input.extend_from_slice(b"position sfen \xff\n");
        input.extend_from_slice(b"isready\n");
        let out = run(Cursor::new(input), Vec::new()).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(
            out.contains("info string error: line 2: the line is not valid UTF-8 (byte 15)"),
            "{out}"
        );
        assert!(out.ends_with("readyok\n"), "{out}");
    }
}
