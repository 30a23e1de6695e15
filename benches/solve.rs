//! Solver benchmark over a fixed subset of the problem sets: short
//! generated problems, game-like positions and two classical problems.
//! Each iteration solves every problem of the group from an empty table;
//! the `verify` group verifies the 3-ply tsumemi problems.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tsume::core::Position;
use tsume::solver::{Outcome, SolveOptions, Solver};
use tsume::verify::{VerifyOptions, verify};

/// Every `step`-th row of a problem file (relaxed reading: some generated
/// rows hold two pawns on a file).
fn sample(text: &str, step: usize, max_len: i32) -> Vec<Position> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .filter(|l| {
            l.split('\t')
                .nth(1)
                .and_then(|n| n.parse::<i32>().ok())
                .is_some_and(|n| n <= max_len)
        })
        .step_by(step)
        .map(|l| Position::from_sfen_relaxed(l.split('\t').next().unwrap()).unwrap())
        .collect()
}

fn solve_all(solver: &mut Solver, problems: &[Position]) -> u64 {
    let mut nodes = 0;
    for p in problems {
        solver.clear();
        let r = solver.solve(p, &SolveOptions::default()).unwrap();
        assert!(matches!(r.outcome, Outcome::Mate { .. }));
        nodes += r.nodes;
    }
    nodes
}

fn bench(c: &mut Criterion) {
    let tanuki = sample(include_str!("../problems/tanuki_generated.tsv"), 40, 99);
    let yaneuraou = sample(
        include_str!("../problems/yaneuraou_mate_samples.tsv"),
        1,
        99,
    );
    let musou: Vec<Position> = include_str!("../problems/musou.tsv")
        .lines()
        .filter(|l| l.contains("musou-077") || l.contains("musou-038"))
        .map(|l| l.split('\t').next().unwrap().parse().unwrap())
        .collect();
    let mut solver = Solver::new(64);
    solver.prefault();
    let mut group = c.benchmark_group("solve");
    group.sample_size(20);
    group.bench_function(format!("tanuki_{}_problems", tanuki.len()), |b| {
        b.iter(|| black_box(solve_all(&mut solver, &tanuki)))
    });
    group.bench_function(format!("yaneuraou_{}_problems", yaneuraou.len()), |b| {
        b.iter(|| black_box(solve_all(&mut solver, &yaneuraou)))
    });
    group.bench_function("musou_077_038", |b| {
        b.iter(|| black_box(solve_all(&mut solver, &musou)))
    });
    group.finish();

    // Verification (every alternative and side line solved) of the 3-ply
    // tsumemi problems.
    let three: Vec<Position> = include_str!("../problems/tsumemi_samples.tsv")
        .lines()
        .filter(|l| l.split('\t').nth(1) == Some("3"))
        .map(|l| l.split('\t').next().unwrap().parse().unwrap())
        .collect();
    let mut group = c.benchmark_group("verify");
    group.sample_size(10);
    group.bench_function(format!("tsumemi_3ply_{}_problems", three.len()), |b| {
        b.iter(|| {
            let mut findings = 0;
            for p in &three {
                solver.clear();
                findings += verify(&mut solver, p, &VerifyOptions::default())
                    .unwrap()
                    .findings
                    .len();
            }
            black_box(findings)
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
