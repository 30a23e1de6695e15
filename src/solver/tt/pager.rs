//! The table's next half made resident ahead of its growth, on a thread of
//! its own.
//!
//! The first write to each page of fresh memory faults, and the kernel
//! zeroes the page: a growth to gigabytes waits seconds on that, the search
//! stopped meanwhile. The table asks for its next half while it fills
//! (see [`Table::grow_if_half_full`](super::Table::grow_if_half_full)), a
//! thread writes one word per page of it, and the growth at half full
//! finds the pages ready; when the thread has not finished, the growth
//! waits for it. The table still grows at the same store as without it,
//! so a search is node for node the same: only where the faults are taken
//! changes.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use super::{Cluster, make_resident};

/// Clusters made resident in one step (16 MB) between two looks at the
/// cancel flag and the progress reported.
pub(super) const STEP_CLUSTERS: usize = (16 << 20) / std::mem::size_of::<Cluster>();

/// The thread working on a range, if any.
#[derive(Default)]
pub(super) struct Pager {
    job: std::sync::Mutex<Option<Job>>,
    /// The end of the last range asked for: each range is asked for once.
    asked: AtomicUsize,
}

struct Job {
    handle: JoinHandle<()>,
    from: usize,
    /// Clusters from `from` up to here are resident.
    done: Arc<AtomicUsize>,
    cancel: Arc<AtomicBool>,
}

impl Job {
    /// Waits for the thread to end, asking `interrupted` every
    /// millisecond: whether it ended (else `interrupted` said yes).
    fn ended(&self, interrupted: &mut impl FnMut() -> bool) -> bool {
        while !self.handle.is_finished() {
            if interrupted() {
                return false;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        true
    }
}

impl Pager {
    /// Starts a thread making clusters `from..to` of `clusters` resident
    /// (none of them in use), unless that range was asked for already or a
    /// thread is still at work. Nothing happens when no thread can be
    /// started: the growth then faults the pages in itself.
    pub(super) fn ask(&self, clusters: &Arc<Vec<Cluster>>, from: usize, to: usize) {
        if self.asked.load(Ordering::Relaxed) >= to {
            return;
        }
        let mut job = self.job.lock().unwrap_or_else(|e| e.into_inner());
        if job.as_ref().is_some_and(|j| !j.handle.is_finished()) {
            return;
        }
        if let Some(j) = job.take() {
            let _ = j.handle.join();
        }
        self.asked.store(to, Ordering::Relaxed);
        let done = Arc::new(AtomicUsize::new(from));
        let cancel = Arc::new(AtomicBool::new(false));
        let (memory, progress, stop) =
            (Arc::clone(clusters), Arc::clone(&done), Arc::clone(&cancel));
        let spawned = std::thread::Builder::new()
            .name("tsume-pager".into())
            .spawn(move || {
                for start in (from..to).step_by(STEP_CLUSTERS) {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let end = (start + STEP_CLUSTERS).min(to);
                    make_resident(&memory[start..end]);
                    progress.store(end, Ordering::Release);
                }
            });
        if let Ok(handle) = spawned {
            *job = Some(Job {
                handle,
                from,
                done,
                cancel,
            });
        }
    }

    /// Waits for the thread at work, if any, asking `interrupted` every
    /// millisecond; `None` when it said yes (the thread goes on). Else the
    /// resident part of the last range asked for: clusters `from..done`.
    pub(super) fn finish(
        &self,
        interrupted: &mut impl FnMut() -> bool,
    ) -> Option<std::ops::Range<usize>> {
        let mut job = self.job.lock().unwrap_or_else(|e| e.into_inner());
        let Some(j) = job.as_ref() else {
            return Some(0..0);
        };
        if !j.ended(interrupted) {
            return None;
        }
        let j = job.take().expect("a job");
        let _ = j.handle.join();
        Some(j.from..j.done.load(Ordering::Acquire))
    }

    /// Waits for the thread at work to end, leaving its range for the
    /// growth: the range made resident, `None` when no thread was started.
    #[cfg(test)]
    pub(super) fn wait(&self) -> Option<std::ops::Range<usize>> {
        let job = self.job.lock().unwrap_or_else(|e| e.into_inner());
        let j = job.as_ref()?;
        j.ended(&mut || false);
        Some(j.from..j.done.load(Ordering::Acquire))
    }

    /// Stops the thread at work, if any, within one step, and forgets the
    /// ranges asked for (the table starts again from its first size).
    pub(super) fn cancel(&self) {
        let mut job = self.job.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(j) = job.take() {
            j.cancel.store(true, Ordering::Relaxed);
            let _ = j.handle.join();
        }
        self.asked.store(0, Ordering::Relaxed);
    }
}

impl Drop for Pager {
    fn drop(&mut self) {
        self.cancel();
    }
}
