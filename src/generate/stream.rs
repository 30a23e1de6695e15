//! Candidates run as a stream: each worker thread takes the next
//! candidate's number as soon as it is free, so a slow candidate holds up
//! one thread and not the others, and the results come out in the order
//! of the numbers, whatever thread made them and whenever it finished.
//!
//! The workers run at most a window of candidates ahead of the first one
//! not yet handed out: the work done ahead and thrown away when the
//! caller stops asking stays bounded. When the stream is dropped, the
//! workers' solvers are told to stop, so the candidates still running end
//! at once.

use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::{self, JoinHandle};

/// The work of one candidate, and how a worker thread tells the stream
/// what stops its searches.
pub(super) trait Work: Send + Sync + 'static {
    type Output: Send + 'static;
    /// Candidate `index`: the same output whatever the thread.
    fn run(&self, index: u64) -> Self::Output;
    /// Called once on each worker thread before its first candidate: a
    /// flag that, once set, makes this thread's running candidate end
    /// soon (its output is then thrown away).
    fn stop_flag(&self) -> Arc<AtomicBool>;
}

/// What the workers share.
struct Shared {
    state: Mutex<State>,
    wake: Condvar,
    /// The workers' stop flags, set when the stream is dropped.
    stops: Mutex<Vec<Arc<AtomicBool>>>,
}

struct State {
    /// The next number to hand to a worker.
    next: u64,
    /// Numbers from here on wait (the window's end).
    end: u64,
    stop: bool,
}

/// The outputs of candidates 0, 1, 2, ... up to `limit`, in order.
pub(super) struct Stream<W: Work> {
    work: Arc<W>,
    jobs: usize,
    window: u64,
    limit: u64,
    /// The next number to hand out to the caller.
    out: u64,
    started: bool,
    shared: Arc<Shared>,
    workers: Vec<JoinHandle<()>>,
    sender: Option<Sender<Done<W::Output>>>,
    receiver: Receiver<Done<W::Output>>,
    /// Outputs that came in ahead of `out`.
    ahead: BTreeMap<u64, W::Output>,
}

/// A candidate's output, or its panic.
type Done<T> = (u64, thread::Result<T>);

impl<W: Work> Stream<W> {
    /// A stream of `limit` candidates on `jobs` threads (started at the
    /// first [`next`](Self::next)), running at most `window` candidates
    /// ahead of the caller.
    pub(super) fn new(work: W, jobs: usize, window: u64, limit: u64) -> Stream<W> {
        let (sender, receiver) = mpsc::channel();
        Stream {
            work: Arc::new(work),
            jobs: jobs.max(1),
            window: window.max(1),
            limit,
            out: 0,
            started: false,
            shared: Arc::new(Shared {
                state: Mutex::new(State {
                    next: 0,
                    end: window.max(1).min(limit),
                    stop: false,
                }),
                wake: Condvar::new(),
                stops: Mutex::new(Vec::new()),
            }),
            workers: Vec::new(),
            sender: Some(sender),
            receiver,
            ahead: BTreeMap::new(),
        }
    }

    /// How many outputs were handed out.
    pub(super) fn handed_out(&self) -> u64 {
        self.out
    }

    fn start(&mut self) {
        self.started = true;
        let Some(sender) = self.sender.take() else {
            return;
        };
        for i in 0..self.jobs {
            let (work, shared, sender) = (self.work.clone(), self.shared.clone(), sender.clone());
            let spawned = thread::Builder::new()
                .name(format!("generate-{i}"))
                .spawn(move || worker(&*work, &shared, &sender));
            // Fewer threads than asked when the system refuses one: the
            // outputs are the same.
            if let Ok(handle) = spawned {
                self.workers.push(handle);
            }
        }
    }

    /// The next candidate's output, `None` after the last.
    pub(super) fn next(&mut self) -> Option<W::Output> {
        if self.out >= self.limit {
            return None;
        }
        if !self.started {
            self.start();
        }
        let output = if self.workers.is_empty() {
            // No thread could be started: run it here.
            self.work.run(self.out)
        } else {
            loop {
                if let Some(o) = self.ahead.remove(&self.out) {
                    break o;
                }
                let (index, result) = self
                    .receiver
                    .recv()
                    .expect("a generation worker ended without its candidate's output");
                match result {
                    Ok(o) => {
                        self.ahead.insert(index, o);
                    }
                    Err(payload) => panic::resume_unwind(payload),
                }
            }
        };
        self.out += 1;
        let mut state = self.shared.state.lock().unwrap_or_else(|e| e.into_inner());
        state.end = self.limit.min(self.out.saturating_add(self.window));
        drop(state);
        self.shared.wake.notify_all();
        Some(output)
    }
}

/// A worker: takes numbers within the window until there are none left
/// or the stream is dropped.
fn worker<W: Work>(work: &W, shared: &Shared, sender: &Sender<Done<W::Output>>) {
    shared
        .stops
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(work.stop_flag());
    loop {
        let index = {
            let mut state = shared.state.lock().unwrap_or_else(|e| e.into_inner());
            while !state.stop && state.next >= state.end {
                // The window is full, or the last number is taken (then
                // `end` is the limit and stays so): wait for the caller.
                state = shared.wake.wait(state).unwrap_or_else(|e| e.into_inner());
            }
            if state.stop {
                return;
            }
            state.next += 1;
            state.next - 1
        };
        let result = panic::catch_unwind(AssertUnwindSafe(|| work.run(index)));
        let panicked = result.is_err();
        if sender.send((index, result)).is_err() || panicked {
            return;
        }
    }
}

impl<W: Work> Drop for Stream<W> {
    fn drop(&mut self) {
        let mut state = self.shared.state.lock().unwrap_or_else(|e| e.into_inner());
        state.stop = true;
        drop(state);
        self.shared.wake.notify_all();
        for flag in self
            .shared
            .stops
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
        {
            flag.store(true, Ordering::SeqCst);
        }
        for handle in self.workers.drain(..) {
            let _ = handle.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;
    use std::time::Duration;

    /// Squares, the odd ones slowly, counting the candidates run.
    struct Squares {
        runs: Arc<AtomicU64>,
    }

    impl Work for Squares {
        type Output = u64;
        fn run(&self, index: u64) -> u64 {
            self.runs.fetch_add(1, Ordering::SeqCst);
            if index % 2 == 1 {
                thread::sleep(Duration::from_millis(2));
            }
            index * index
        }
        fn stop_flag(&self) -> Arc<AtomicBool> {
            Arc::new(AtomicBool::new(false))
        }
    }

    fn squares(jobs: usize, window: u64, limit: u64) -> (Stream<Squares>, Arc<AtomicU64>) {
        let runs = Arc::new(AtomicU64::new(0));
        let work = Squares { runs: runs.clone() };
        (Stream::new(work, jobs, window, limit), runs)
    }

    #[test]
    fn outputs_come_in_order_whatever_the_threads() {
        for jobs in [1, 2, 5] {
            let (mut s, runs) = squares(jobs, 3, 40);
            let got: Vec<u64> = std::iter::from_fn(|| s.next()).collect();
            assert_eq!(got, (0..40).map(|i| i * i).collect::<Vec<_>>(), "{jobs}");
            assert_eq!(s.handed_out(), 40);
            assert_eq!(runs.load(Ordering::SeqCst), 40);
        }
    }

    #[test]
    fn workers_stay_within_the_window() {
        let (mut s, runs) = squares(4, 5, 1000);
        assert_eq!(s.next(), Some(0));
        // Time for the workers to fill the window after 0 (1 to 5); the
        // drop waits for them.
        thread::sleep(Duration::from_millis(50));
        drop(s);
        let n = runs.load(Ordering::SeqCst);
        assert!((1..=6).contains(&n), "{n} candidates run");
    }

    #[test]
    fn a_panic_reaches_the_caller() {
        struct Bad;
        impl Work for Bad {
            type Output = ();
            fn run(&self, index: u64) {
                assert_ne!(index, 3, "candidate 3");
            }
            fn stop_flag(&self) -> Arc<AtomicBool> {
                Arc::new(AtomicBool::new(false))
            }
        }
        let caught = panic::catch_unwind(|| {
            let mut s = Stream::new(Bad, 2, 4, 10);
            while s.next().is_some() {}
        });
        assert!(caught.is_err());
    }
}
