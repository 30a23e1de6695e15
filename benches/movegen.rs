//! Move generation speed: perft(5) from the start position (ours with
//! do/undo and with copy-make, and shunsai's side by side), and check and
//! evasion generation over a fixed sample of positions.
//!
//! Run: `cargo bench --bench movegen`. Criterion prints the time per
//! iteration; the generation benches iterate over the whole sample, so the
//! time per position is that time divided by the sample size printed at the
//! start (criterion also prints it as a throughput in positions/s).

use std::hint::black_box;
use std::ops::ControlFlow;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tsume::core::movegen::{self, MoveList};
use tsume::core::{Position, perft};

/// Tsume problems from `/work/shared/problems/*.tsv` (SFEN column), the
/// other roots of the random play besides the start position.
const TSUME_SFENS: &[&str] = &[
    // musou.tsv line 1
    "3g1n1l1/2p1g1r2/5k2S/4p1N+R1/3+p5/7N1/B8/9/9 b 2GSNb2s3l15p 1",
    // musou.tsv line 2
    "5g1l1/3+P2s1p/1R1B2p1S/3npSL2/7pk/3+B1L3/5rN1P/6N2/8L b 2P3gsn10p 1",
    // musou.tsv line 3
    "nn1S1R3/1L2p+b3/+P8/1L1R1g3/k1S2l3/+nP1G5/3n5/2P2+B3/9 b 2g2sl14p 1",
    // famous_long.tsv line 1
    "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1",
    // famous_long.tsv line 3
    "lp2p3g/+R4p1Sn/1P1kgsp1p/3+p+p1s2/B1p+r1P3/L8/+n3NgB+pP/+p4G1+p1/P+pPsP4 b Lnl 1",
    // famous_long.tsv line 4
    "7g1/4Pgl+b1/2nn1s2+P/1+p+pS1+p1PP/+p+p+p2lk1+P/1+ppPpp3/ssPp4N/2NR1L3/2G3rLG b b 1",
    // yaneuraou_mate_samples.tsv line 1
    "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42",
    // yaneuraou_mate_samples.tsv line 10
    "lnsg4l/1r1b5/p1pp1+N1+R1/4p3p/9/P3SSk2/NpPPPPg1P/2GK5/L1S4NL b 2Pbg4p 91",
    // yaneuraou_mate_samples.tsv line 20
    "lnB2k1+Pl/4g1g2/p1pp2ppp/5r3/3s2P1P/NpPnPP3/P5Sb1/3S5/LNG1KG2L w rs4p 74",
    // yaneuraou_mate_samples.tsv line 30
    "ln1gk3l/5p3/p2pp2+R1/2p2+Bp1p/9/P3P4/N+rPP2P1P/2gSKS3/L1+s2G1NL b GNbs5p 65",
    // cshogi_tests.tsv line 1
    "8l/1R2S1kgr/3pp2p1/p2nlpp1p/5ns2/2+BPl3P/1PNK1PP2/1GGS2S2/5G1NL b B3P3p 1",
    // cshogi_tests.tsv line 2
    "+B+R5n1/5gk2/p1pps1gp1/4ppnsK/6pP1/1PPSP3L/PR1P1PP2/6S2/L2G1G3 w B2N2LP2p 1",
    // cshogi_tests.tsv line 3
    "ln1g3+Rl/2sk1s+P2/2ppppb1p/p1b3p2/8P/P4P3/2PPP1P2/1+r2GS3/LN+p2KGNL w GN2Ps 36",
    // tanuki_generated.tsv line 500
    "5R1B1/2S1k4/9/9/9/9/9/9/9 b Grb3g3s4n4l18p 1",
    // tanuki_generated.tsv line 1500
    "9/8G/7P1/7RN/8k/9/9/9/9 b Gr2b2g4s3n4l17p 1",
    // tanuki_generated.tsv line 1900
    "6SRp/6P1B/5PGG1/8k/8B/8N/9/9/9 b r2g3s3n4l15p 1",
    // antma_tests.tsv line 40
    "7nl/5+R1gk/6Ppp/9/9/9/9/9/9 b Gr2b2g4s3n3l15p 1",
    // yaneuraou_testmate.tsv line 3
    "4k4/9/PPPPPPPPP/9/9/9/9/9/9 b B4L2rb4g4s4n9p 1",
    // nomate.tsv line 3
    "kn7/1s7/9/1N7/9/9/9/9/9 b P2r2b4g3s2n4l17p 1",
];

/// perft(5) from the start position.
const STARTPOS_PERFT_5: u64 = 19_861_490;

/// How many positions the check-generation sample holds.
const SAMPLE: usize = 400;
/// How many positions in check the evasion sample holds.
const SAMPLE_IN_CHECK: usize = 300;

/// SplitMix64: a small fixed-seed generator, so every run sees the same
/// sample.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The fixed samples: positions reached by seeded random play from the
/// start position and from the tsume problems (every position on the way,
/// no duplicates), and among them the positions in check. Half of the
/// moves are checks when there is one, so that checks, and positions in
/// check, are common.
fn samples() -> (Vec<Position>, Vec<Position>) {
    let mut roots = vec![Position::startpos()];
    roots.extend(
        TSUME_SFENS
            .iter()
            .map(|s| s.parse::<Position>().expect("the bench SFENs parse")),
    );
    let mut rng = Rng(0x7473_756d_6531);
    let mut seen = std::collections::HashSet::new();
    let mut all = Vec::new();
    let mut in_check = Vec::new();
    let mut game = 0;
    while all.len() < SAMPLE || in_check.len() < SAMPLE_IN_CHECK {
        let mut pos = roots[game % roots.len()].clone();
        game += 1;
        assert!(game < 100_000, "the random play does not fill the samples");
        for _ply in 0..40 {
            if seen.insert(pos.key()) {
                if pos.in_check() && in_check.len() < SAMPLE_IN_CHECK {
                    in_check.push(pos.clone());
                }
                if all.len() < SAMPLE {
                    all.push(pos.clone());
                }
            }
            let checks = movegen::check_moves(&pos);
            let mut moves = if !checks.is_empty() && rng.below(2) == 0 {
                checks
            } else {
                movegen::legal_moves(&pos)
            };
            // The same sample whatever order the generators list moves in.
            moves.sort_unstable();
            if moves.is_empty() {
                break;
            }
            pos = pos.after(moves[rng.below(moves.len())]);
        }
    }
    (all, in_check)
}

/// perft with copy-make: each child is a fresh copy of the position.
fn perft_copy_make(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let list = movegen::legal_moves(pos);
    if depth == 1 {
        return list.len() as u64;
    }
    list.iter()
        .map(|&m| perft_copy_make(&pos.after(m), depth - 1))
        .sum()
}

/// shunsai's perft with do/undo. `bulk`: count the last level from the
/// move sets without building its moves (shunsai's fast path), else build
/// them as ours does. `bufs` holds one move buffer per level.
fn perft_shunsai(
    pos: &mut shunsai::Position,
    depth: u32,
    bulk: bool,
    bufs: &mut [Vec<shunsai::shogi_core::Move>],
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (buf, rest) = bufs.split_first_mut().expect("one buffer per level");
    if depth == 1 && bulk {
        let mut n = 0;
        let _ = pos.generate_moves(|set| {
            n += set.len() as u64;
            ControlFlow::Continue(())
        });
        return n;
    }
    buf.clear();
    let _ = pos.generate_moves(|set| {
        set.write_into(buf);
        ControlFlow::Continue(())
    });
    if depth == 1 {
        return buf.len() as u64;
    }
    let mut total = 0;
    for &m in buf.iter() {
        let undo = pos.do_move(m);
        total += perft_shunsai(pos, depth - 1, bulk, rest);
        pos.undo_move(m, undo);
    }
    total
}

fn shunsai_buffers(depth: u32) -> Vec<Vec<shunsai::shogi_core::Move>> {
    (0..depth).map(|_| Vec::with_capacity(600)).collect()
}

fn bench_perft(c: &mut Criterion) {
    let mut pos = Position::startpos();
    assert_eq!(perft::perft(&mut pos, 5), STARTPOS_PERFT_5);
    assert_eq!(perft_copy_make(&pos, 5), STARTPOS_PERFT_5);
    let mut sp = shunsai::Position::startpos();
    let mut bufs = shunsai_buffers(5);
    for bulk in [false, true] {
        assert_eq!(perft_shunsai(&mut sp, 5, bulk, &mut bufs), STARTPOS_PERFT_5);
    }

    let mut g = c.benchmark_group("perft5_startpos");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .throughput(Throughput::Elements(STARTPOS_PERFT_5));
    g.bench_function("tsume_do_undo", |b| {
        b.iter(|| perft::perft(black_box(&mut pos), 5))
    });
    g.bench_function("tsume_copy_make", |b| {
        b.iter(|| perft_copy_make(black_box(&pos), 5))
    });
    g.bench_function("shunsai_do_undo", |b| {
        b.iter(|| perft_shunsai(black_box(&mut sp), 5, false, &mut bufs))
    });
    g.bench_function("shunsai_do_undo_bulk_leaves", |b| {
        b.iter(|| perft_shunsai(black_box(&mut sp), 5, true, &mut bufs))
    });
    g.finish();
}

fn bench_generation(c: &mut Criterion) {
    let (all, in_check) = samples();
    let checks: usize = all.iter().map(|p| movegen::check_moves(p).len()).sum();
    let evasions: usize = in_check
        .iter()
        .map(|p| movegen::evasion_moves(p).len())
        .sum();
    eprintln!(
        "samples: {} positions ({} checking moves in all), {} in check ({} evasions)",
        all.len(),
        checks,
        in_check.len(),
        evasions
    );

    let mut list = MoveList::new();
    let mut g = c.benchmark_group(format!("{}_positions", all.len()));
    g.throughput(Throughput::Elements(all.len() as u64));
    g.bench_function("checks", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &all {
                list.clear();
                movegen::generate_checks(black_box(p), &mut list);
                n += list.len();
            }
            n
        })
    });
    g.bench_function("legal", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &all {
                list.clear();
                movegen::generate_legal(black_box(p), &mut list);
                n += list.len();
            }
            n
        })
    });
    g.finish();

    let mut g = c.benchmark_group(format!("{}_positions_in_check", in_check.len()));
    g.throughput(Throughput::Elements(in_check.len() as u64));
    g.bench_function("evasions", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &in_check {
                list.clear();
                movegen::generate_evasions(black_box(p), &mut list);
                n += list.len();
            }
            n
        })
    });
    g.bench_function("legal", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &in_check {
                list.clear();
                movegen::generate_legal(black_box(p), &mut list);
                n += list.len();
            }
            n
        })
    });
    g.finish();
}

criterion_group!(benches, bench_perft, bench_generation);
criterion_main!(benches);
