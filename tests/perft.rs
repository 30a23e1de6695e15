//! Perft against published numbers (`problems/perft/`): the start position
//! to depth 5, every other reference position to at least depth 3, and the
//! 313 positions checked against shogiops and cshogi.

use tsume::core::{Position, perft::perft};

/// Reference rows with at most this many leaves run in the normal suite.
const FAST_LIMIT: u64 = 200_000_000;

fn reference_rows() -> Vec<(String, String, u32, u64)> {
    let text = include_str!("../problems/perft/perft_reference.tsv");
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].to_string(),
                f[1].to_string(),
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn startpos_to_depth_5() {
    let expected = [30u64, 900, 25470, 719731, 19861490];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(
            perft(&mut Position::startpos(), d as u32 + 1),
            n,
            "depth {}",
            d + 1
        );
    }
}

#[test]
#[ignore = "takes about a minute; run with --ignored"]
fn startpos_depth_6() {
    assert_eq!(perft(&mut Position::startpos(), 6), 547_581_517);
}

#[test]
fn reference_positions() {
    let mut ran = 0;
    let mut deepest = std::collections::HashMap::new();
    for (name, sfen, depth, nodes) in reference_rows() {
        if nodes > FAST_LIMIT {
            continue;
        }
        let mut pos = Position::from_sfen_relaxed(&sfen).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(perft(&mut pos, depth), nodes, "{name} depth {depth}");
        let d = deepest.entry(name).or_insert(0);
        *d = depth.max(*d);
        ran += 1;
    }
    assert!(ran >= 30, "only {ran} rows ran");
    for (name, d) in deepest {
        assert!(d >= 3, "{name} only to depth {d}");
    }
}

#[test]
#[ignore = "the deep reference rows take minutes; run with --ignored"]
fn reference_positions_deep() {
    for (name, sfen, depth, nodes) in reference_rows() {
        if nodes <= FAST_LIMIT || nodes > 10_000_000_000 {
            continue;
        }
        let mut pos = Position::from_sfen_relaxed(&sfen).unwrap();
        assert_eq!(perft(&mut pos, depth), nodes, "{name} depth {depth}");
    }
}

#[test]
fn shogiops_positions() {
    let text = include_str!("../problems/perft/shogiops_perft_checked.tsv");
    let mut count = 0;
    for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        let (name, sfen, expected) = (f[1], f[2], f[3]);
        let mut pos: Position = sfen
            .parse()
            .unwrap_or_else(|e| panic!("{name} {sfen}: {e}"));
        for part in expected.split(',') {
            let (d, n) = part.trim().split_once('=').unwrap();
            let depth: u32 = d.trim_start_matches('d').parse().unwrap();
            let nodes: u64 = n.parse().unwrap();
            assert_eq!(perft(&mut pos, depth), nodes, "{name} {sfen} depth {depth}");
        }
        count += 1;
    }
    assert_eq!(count, 313);
}
