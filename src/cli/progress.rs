//! Progress on a terminal, drawn on stderr by indicatif (only when stderr
//! is a terminal: through a pipe or into a file nothing is drawn), at most
//! ten times a second, and taken off the screen before other text is
//! written there:
//!
//! - [`Counter`]: a bar of the work done in a batch (`solve --file`,
//!   `verify --file`, `generate`): `[#####---------------] 512/1979 25%
//!   412.3/s ETA 0:03 elapsed 0:01` ([`BatchProgress`]'s form).
//! - [`SearchLine`]: one long search (`solve` of a single problem): elapsed
//!   time, nodes, nodes per second, the table's fill, and what the search
//!   knows of its answer: the length of the mating line it has and the
//!   bounds proven on the tsume answer's length, in plies (`elapsed 0:12,
//!   24.1M nodes, 2.01M nps, table 35%, line 37, answer at most 37`).

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use tsume::batch::{BatchProgress, Watch};

/// Redraws per second at most.
const HZ: u8 = 10;

/// A bar of the work done, with a note after it.
pub struct Counter {
    bar: ProgressBar,
}

impl Counter {
    /// A bar of `total` items (unknown: a count, the rate and the time
    /// only), shown when stderr is a terminal.
    pub fn new(total: Option<u64>) -> Counter {
        Counter::with_target(total, ProgressDrawTarget::stderr_with_hz(HZ))
    }

    /// A bar never drawn.
    pub fn hidden() -> Counter {
        Counter::with_target(None, ProgressDrawTarget::hidden())
    }

    fn with_target(total: Option<u64>, target: ProgressDrawTarget) -> Counter {
        let style = ProgressStyle::with_template("{batch}{msg}")
            .expect("a valid template")
            .with_key(
                "batch",
                |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let progress = BatchProgress {
                        done: state.pos(),
                        total: state.len(),
                        elapsed: state.elapsed(),
                    };
                    let _ = write!(w, "{progress}");
                },
            );
        let bar = ProgressBar::with_draw_target(total, target).with_style(style);
        Counter { bar }
    }

    /// Counts one more item done (and redraws when due).
    pub fn inc(&self) {
        self.bar.inc(1);
    }

    /// Starts the count again from 0 of `total`, with a new note (the
    /// next stage of the work).
    pub fn restart(&self, total: u64, note: &str) {
        self.bar.reset();
        self.bar.set_length(total);
        self.set_note(note.to_string());
    }

    /// Text after the bar (`12 candidates`).
    pub fn set_note(&self, note: String) {
        self.bar.set_message(format!(" ({note})"));
    }

    /// Runs `f` with the bar off the screen (for text written to the same
    /// terminal), then draws it again.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Takes the bar off the screen for good.
    pub fn clear(&self) {
        self.bar.finish_and_clear();
    }
}

/// The status line of one search: redrawn five times a second from the
/// counters the batch's worker publishes (see [`Watch`]).
pub struct SearchLine {
    bar: ProgressBar,
}

impl SearchLine {
    /// Starts the line (when stderr is a terminal) for the search of the
    /// batch's first worker.
    pub fn start(watch: Arc<Watch>) -> SearchLine {
        let target = ProgressDrawTarget::stderr_with_hz(HZ);
        let hidden = target.is_hidden();
        let style = ProgressStyle::with_template("{search}")
            .expect("a valid template")
            .with_key(
                "search",
                move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = w.write_str(&search_status(&watch, state.elapsed()));
                },
            );
        let bar = ProgressBar::with_draw_target(None, target).with_style(style);
        if !hidden {
            bar.enable_steady_tick(Duration::from_millis(200));
        }
        SearchLine { bar }
    }

    /// Takes the line off the screen.
    pub fn clear(&self) {
        self.bar.finish_and_clear();
    }
}

/// `elapsed 0:12, 24.1M nodes, 2.01M nps, table 35%, line 33, answer 29
/// to 37`: what the first worker's search has published (kept short, so
/// that the line fits a terminal). The line's length and the bounds on
/// the answer's length are in plies.
pub fn search_status(watch: &Watch, elapsed: Duration) -> String {
    let mut s = format!("elapsed {}", clock(elapsed));
    let Some(progress) = watch.workers().into_iter().next() else {
        return s;
    };
    let nodes = progress.nodes();
    let secs = elapsed.as_secs_f64();
    let _ = write!(s, ", {} nodes", si(nodes as f64));
    if secs > 0.0 {
        let _ = write!(s, ", {} nps", si(nodes as f64 / secs));
    }
    let _ = write!(s, ", table {}%", progress.hashfull() / 10);
    match progress.line_len() {
        None => s.push_str(", no mate found yet"),
        Some(line) => {
            let _ = write!(s, ", line {line}");
            let _ = match progress.bounds() {
                (Some(least), Some(most)) if least == most => write!(s, ", answer {least}"),
                (Some(least), Some(most)) if least > 1 => {
                    write!(s, ", answer {least} to {most}")
                }
                (Some(least), None) if least > 1 => write!(s, ", answer at least {least}"),
                (_, Some(most)) => write!(s, ", answer at most {most}"),
                _ => Ok(()),
            };
        }
    }
    s
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

/// `950`, `12.3k`, `4.56M`, `1.20G`: three figures.
fn si(x: f64) -> String {
    let (value, unit) = if x >= 1e9 {
        (x / 1e9, "G")
    } else if x >= 1e6 {
        (x / 1e6, "M")
    } else if x >= 1e3 {
        (x / 1e3, "k")
    } else {
        return format!("{x:.0}");
    };
    if value >= 100.0 {
        format!("{value:.0}{unit}")
    } else if value >= 10.0 {
        format!("{value:.1}{unit}")
    } else {
        format!("{value:.2}{unit}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_three_figures() {
        assert_eq!(si(950.0), "950");
        assert_eq!(si(12_345.0), "12.3k");
        assert_eq!(si(4_560_000.0), "4.56M");
        assert_eq!(si(123_000_000.0), "123M");
        assert_eq!(si(1.2e9), "1.20G");
        assert_eq!(clock(Duration::from_secs(75)), "1:15");
        assert_eq!(clock(Duration::from_secs(3_725)), "1:02:05");
    }

    #[test]
    fn a_search_shows_its_line_and_bounds() {
        use tsume::batch::{self, BatchOptions};
        use tsume::core::Position;
        // Before any batch: the time alone.
        let watch = Arc::new(Watch::default());
        assert_eq!(
            search_status(&watch, Duration::from_secs(3)),
            "elapsed 0:03"
        );
        // After a mate in 1: the line, and the bound from above.
        let options = BatchOptions {
            jobs: 1,
            hash_mb: 1,
            watch: Some(watch.clone()),
            ..BatchOptions::default()
        };
        let pos: Position = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"
            .parse()
            .unwrap();
        batch::solve_all(
            [((), Ok::<_, ()>(pos))],
            &options,
            &Default::default(),
            |_, _| Ok::<_, ()>(()),
        )
        .unwrap();
        let status = search_status(&watch, Duration::from_secs(2));
        assert!(status.starts_with("elapsed 0:02, "), "{status}");
        assert!(status.contains(" nodes, "), "{status}");
        assert!(status.contains(" nps, table "), "{status}");
        assert!(status.ends_with(", line 1, answer 1"), "{status}");
    }
}
