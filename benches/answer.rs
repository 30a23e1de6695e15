//! The tsume answer against the first proof, on a fixed subset: short
//! (every 40th row of the generated 1- to 13-ply problems), middle
//! (将棋無双 第20番, 45 plies) and long (将棋無双 第75番, 225 plies).
//!
//! For each subset, `first_line` solves with the first proof's line only
//! and `exact` with the tsume answer (the default): the ratio of the two is
//! what the answer costs. Each iteration starts from an empty table, and
//! every answer is checked to be exact with the published length.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tsume::{Outcome, Position, SolveOptions, Solver};

/// A problem and its published length.
struct Problem {
    pos: Position,
    length: usize,
}

fn rows(text: &str, keep: impl Fn(usize, &str) -> bool) -> Vec<Problem> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .filter(|(i, l)| keep(*i, l))
        .map(|(_, l)| {
            let mut f = l.split('\t');
            let pos = Position::from_sfen_relaxed(f.next().unwrap()).unwrap();
            let length = f.next().unwrap().parse().unwrap();
            Problem { pos, length }
        })
        .collect()
}

/// Solves every problem from an empty table; with `exact`, checks the
/// answer's length. Returns the nodes searched.
fn solve_all(solver: &mut Solver, problems: &[Problem], exact: bool) -> u64 {
    let options = SolveOptions::default().tsume_answer(exact);
    let mut nodes = 0;
    for p in problems {
        solver.clear();
        let r = solver.solve(&p.pos, &options).unwrap();
        let Outcome::Mate { moves } = &r.outcome else {
            panic!("no mate found for {}", p.pos)
        };
        if exact {
            assert!(r.exact, "not exact: {}", p.pos);
            assert_eq!(moves.len(), p.length, "{}", p.pos);
        }
        nodes += r.nodes;
    }
    nodes
}

fn bench(c: &mut Criterion) {
    let short = rows(include_str!("../problems/tanuki_generated.tsv"), |i, _| {
        i % 40 == 0
    });
    let musou = |name: &'static str| {
        rows(include_str!("../problems/musou.tsv"), move |_, l| {
            l.contains(name)
        })
    };
    let subsets = [
        (format!("short_{}_problems", short.len()), short, 20),
        ("middle_musou_020".to_string(), musou("(musou-020)"), 10),
        ("long_musou_075".to_string(), musou("(musou-075)"), 10),
    ];
    let mut solver = Solver::new(1024);
    for (name, problems, samples) in &subsets {
        assert!(!problems.is_empty(), "{name}: no rows");
        let mut group = c.benchmark_group(format!("answer/{name}"));
        group.sample_size(*samples);
        for (label, exact) in [("first_line", false), ("exact", true)] {
            group.bench_function(label, |b| {
                b.iter(|| black_box(solve_all(&mut solver, problems, exact)))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
