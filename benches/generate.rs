//! Generation rate: puzzles a second of `tsume generate --plies N --jobs 2`
//! (criterion's throughput, in elements: puzzles). Each iteration runs a
//! fixed range of candidates from seed 1, so it makes the same puzzles
//! every time; their number is printed once per length.
//!
//! `cargo bench --bench generate` measures 3 and 7 plies;
//! `TSUME_GEN_PLIES=11,15 cargo bench --bench generate` others (the longer
//! ones take minutes an iteration).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tsume::generate::{Config, Generator};

/// Candidates an iteration runs at `plies`: enough for a few puzzles.
fn candidates(plies: u32) -> u64 {
    match plies {
        0..=3 => 64,
        4..=7 => 48,
        8..=11 => 32,
        _ => 24,
    }
}

fn run(plies: u32) -> usize {
    let config = Config {
        plies,
        seed: 1,
        jobs: 2,
        max_candidates: Some(candidates(plies)),
        ..Config::default()
    };
    let puzzles: Vec<_> = Generator::new(config).unwrap().collect();
    for p in &puzzles {
        assert_eq!(p.moves.len(), plies as usize);
    }
    puzzles.len()
}

fn bench(c: &mut Criterion) {
    let lengths: Vec<u32> = std::env::var("TSUME_GEN_PLIES")
        .unwrap_or_else(|_| "3,7".to_string())
        .split(',')
        .map(|n| n.trim().parse().expect("TSUME_GEN_PLIES: odd numbers"))
        .collect();
    let mut group = c.benchmark_group("generate");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(1));
    group.measurement_time(Duration::from_secs(20));
    for plies in lengths {
        let made = run(plies);
        println!(
            "{plies} plies: {made} puzzles from {} candidates an iteration",
            candidates(plies)
        );
        assert!(
            made > 0,
            "no {plies}-ply puzzle: the bench measures nothing"
        );
        group.throughput(Throughput::Elements(made as u64));
        group.bench_function(format!("plies_{plies}_jobs_2"), |b| {
            b.iter(|| black_box(run(plies)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
