//! Measurement tool: solves every row of a problem file (relaxed reading)
//! and prints name, published length, result, line length, nodes and
//! milliseconds per row, and whether the line is the proven tsume answer
//! (`exact`) or a first proof, then totals.
//!
//! Usage: `cargo run --release --example solve_file FILE [HASH_MB] [SECONDS] [NODES]`
//! Environment: `FIRST=1` reports the first proof's line (no shortest-mate
//! phase), as cshogi does; `KEEP=1` keeps the table between problems.
use std::time::Duration;
use tsume::core::Position;
use tsume::solver::{Limits, Outcome, SolveOptions, Solver};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let hash: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(256);
    let secs: f64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(10.0);
    let nodes: Option<u64> = args.get(4).and_then(|s| s.parse().ok());
    let text = std::fs::read_to_string(&args[1]).unwrap();
    let mut solver = Solver::new(hash);
    solver.prefault();
    let (mut total_nodes, mut total_ms, mut solved) = (0u64, 0u128, 0);
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let pos = match Position::from_sfen_relaxed(f[0]) {
            Ok(p) => p,
            Err(e) => {
                println!("{}\tERROR {e}", f.get(3).unwrap_or(&""));
                continue;
            }
        };
        if std::env::var_os("KEEP").is_none() {
            solver.clear();
        }
        let r = solver
            .solve(
                &pos,
                &SolveOptions::default()
                    .limits(Limits {
                        time: Some(Duration::from_secs_f64(secs)),
                        nodes,
                    })
                    .tsume_answer(std::env::var_os("FIRST").is_none()),
            )
            .unwrap();
        total_nodes += r.nodes;
        total_ms += r.elapsed.as_millis();
        let (res, len) = match &r.outcome {
            Outcome::Mate { moves } => {
                solved += 1;
                ("mate", moves.len() as i64)
            }
            Outcome::NoMate => ("nomate", -1),
            Outcome::Unknown(l) => (
                if matches!(l, tsume::solver::Limit::Time) {
                    "unknown-time"
                } else {
                    "unknown"
                },
                0,
            ),
        };
        println!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}",
            f.get(3).unwrap_or(&""),
            f.get(1).unwrap_or(&""),
            res,
            len,
            r.nodes,
            r.elapsed.as_millis(),
            if r.exact { "exact" } else { "first-proof" }
        );
    }
    println!("# solved {solved}, nodes {total_nodes}, ms {total_ms}");
}
