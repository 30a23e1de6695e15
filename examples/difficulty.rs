//! The generator's difficulty figures for the rows of problem files, to
//! see whether they order problems as people find them hard: each row of
//! the given length range is solved from an empty table and scored as a
//! generated puzzle would be (`tsume::generate::tags::difficulty`).
//!
//! ```sh
//! cargo run --release --example difficulty -- 9 11 problems/musou.tsv problems/tanuki_generated.tsv
//! ```
//!
//! Prints one TAB-separated line a row: file, name, plies, score, nodes,
//! checks, defences, then per file the mean score by length, and for each
//! length the share of (first file, second file) pairs in which the first
//! file's problem scores higher (the area under the ROC curve: 0.5 is no
//! better than chance, 1 every first-file problem above every second-file
//! one).

use std::collections::BTreeMap;

use tsume::core::Position;
use tsume::generate::tags::difficulty;
use tsume::solver::{Outcome, SolveOptions, Solver};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: difficulty MIN_PLIES MAX_PLIES FILE...");
        std::process::exit(2);
    }
    let min: usize = args[0].parse().expect("MIN_PLIES");
    let max: usize = args[1].parse().expect("MAX_PLIES");
    let mut solver = Solver::new(64);
    // Per file, per length: the scores.
    let mut scores: Vec<BTreeMap<usize, Vec<f64>>> = Vec::new();
    for file in &args[2..] {
        let text = std::fs::read_to_string(file).expect("a readable file");
        let mut by_len: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
        for line in text.lines() {
            let cols: Vec<&str> = line.split('\t').collect();
            let Some(len) = cols.get(1).and_then(|n| n.parse::<usize>().ok()) else {
                continue;
            };
            if len < min || len > max {
                continue;
            }
            let Ok(pos) = Position::from_sfen_relaxed(cols[0]) else {
                continue;
            };
            solver.clear();
            let Ok(r) = solver.solve(&pos, &SolveOptions::default().nodes(20_000_000)) else {
                continue;
            };
            let Outcome::Mate { moves } = r.outcome else {
                continue;
            };
            let d = difficulty(&pos, &moves, r.nodes);
            let name = cols.get(3).copied().unwrap_or("");
            println!(
                "{file}\t{name}\t{}\t{}\t{}\t{}\t{}",
                moves.len(),
                d.score,
                d.nodes,
                d.checks,
                d.defences
            );
            by_len.entry(len).or_default().push(d.score);
        }
        scores.push(by_len);
    }
    for (file, by_len) in args[2..].iter().zip(&scores) {
        for (len, s) in by_len {
            let mean = s.iter().sum::<f64>() / s.len() as f64;
            println!("mean\t{file}\t{len} plies\t{} problems\t{mean:.1}", s.len());
        }
    }
    if scores.len() >= 2 {
        for (len, a) in &scores[0] {
            let Some(b) = scores[1].get(len) else {
                continue;
            };
            let mut above = 0.0;
            for x in a {
                for y in b {
                    above += if x > y {
                        1.0
                    } else if x == y {
                        0.5
                    } else {
                        0.0
                    };
                }
            }
            let auc = above / (a.len() * b.len()) as f64;
            println!(
                "auc\t{len} plies\t{} vs {} problems\t{auc:.3}",
                a.len(),
                b.len()
            );
        }
    }
}
