//! The solver against an independent exhaustive AND/OR search (no table,
//! no hands, no estimates) on random small tsume positions, by tsume
//! counting (useless interpositions not counted, see
//! `tsume::solver::interposition`): a mate the exhaustive search finds
//! within 5 plies is found by the solver with exactly that length (the
//! tsume shortest mate, `tsume_shortest_mate`); a "no mate" answer never
//! meets a mate within 5 plies; every reported line replays as a tsume
//! mate (`is_tsume_line`: checks throughout, ending in checkmate or with
//! only interpositions left) and is no shorter than the tsume shortest
//! mate; "unknown" (the node limit) is rare and never where a short mate
//! exists.

mod common;

use tsume::core::{Color, Position};
use tsume::solver::exhaustive::tsume_shortest_mate;
use tsume::solver::{Outcome, SolveOptions, is_tsume_line};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const KINDS: [(char, usize); 7] = [
    ('P', 18),
    ('L', 4),
    ('N', 4),
    ('S', 4),
    ('G', 4),
    ('B', 2),
    ('R', 2),
];

/// A random position: White's king near the top edge, a few Black pieces
/// and a few White pieces around it, one or two pieces in Black's hand and
/// every other piece in White's hand. `None` when the SFEN is not legal.
fn random_position(rng: &mut Rng) -> Option<Position> {
    let mut board: [[Option<String>; 9]; 9] = Default::default(); // [rank][file-1]
    let mut used = [0usize; 7];
    let kf = rng.below(9) as i32;
    let kr = rng.below(3) as i32;
    board[kr as usize][kf as usize] = Some("k".to_string());
    let place = |rng: &mut Rng,
                 board: &mut [[Option<String>; 9]; 9],
                 used: &mut [usize; 7],
                 white: bool| {
        for _ in 0..20 {
            let f = kf + rng.below(5) as i32 - 2;
            let r = kr + rng.below(4) as i32 - 1 + if white { 0 } else { 1 };
            if !(0..9).contains(&f)
                || !(0..9).contains(&r)
                || board[r as usize][f as usize].is_some()
            {
                continue;
            }
            let k = rng.below(7) as usize;
            if used[k] >= KINDS[k].1 {
                continue;
            }
            used[k] += 1;
            let promoted = k != 4 && rng.below(4) == 0;
            let letter = if white {
                KINDS[k].0.to_ascii_lowercase()
            } else {
                KINDS[k].0
            };
            board[r as usize][f as usize] =
                Some(format!("{}{letter}", if promoted { "+" } else { "" }));
            return;
        }
    };
    for _ in 0..1 + rng.below(3) {
        place(rng, &mut board, &mut used, false);
    }
    for _ in 0..rng.below(3) {
        place(rng, &mut board, &mut used, true);
    }
    let mut black_hand = [0usize; 7];
    for _ in 0..1 + rng.below(2) {
        let k = rng.below(7) as usize;
        if used[k] + black_hand[k] < KINDS[k].1 {
            black_hand[k] += 1;
        }
    }
    let mut sfen = String::new();
    for (r, rank) in board.iter().enumerate() {
        if r > 0 {
            sfen.push('/');
        }
        let mut empty = 0;
        for f in (0..9).rev() {
            match &rank[f] {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        sfen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    sfen.push_str(p);
                }
            }
        }
        if empty > 0 {
            sfen.push_str(&empty.to_string());
        }
    }
    sfen.push_str(" b ");
    let mut hands = String::new();
    for (k, &(c, _)) in KINDS.iter().enumerate() {
        if black_hand[k] > 0 {
            hands.push_str(&format!("{}{c}", black_hand[k]));
        }
    }
    for (k, &(c, total)) in KINDS.iter().enumerate() {
        let rest = total - used[k] - black_hand[k];
        if rest > 0 {
            hands.push_str(&format!("{rest}{}", c.to_ascii_lowercase()));
        }
    }
    sfen.push_str(&hands);
    sfen.push_str(" 1");
    sfen.parse().ok()
}

#[test]
fn solver_agrees_with_exhaustive_search_on_random_positions() {
    let mut rng = Rng(0x7473_756d_6521_u64);
    let mut solver = common::new_solver(32);
    let (mut positions, mut mates, mut longer, mut no_mates, mut unknown) = (0, 0, 0, 0, 0);
    let mut attempts = 0;
    let mut failures: Vec<String> = Vec::new();
    while positions < 800 && attempts < 100_000 {
        attempts += 1;
        let Some(pos) = random_position(&mut rng) else {
            continue;
        };
        if pos.in_check() || pos.king_square(Color::White).is_none() {
            continue;
        }
        positions += 1;
        // One, two and four threads in turn (unless TSUME_TEST_THREADS
        // says how many): each must agree with the exhaustive search.
        solver.set_threads(common::threads_in_turn(positions));
        let shortest = tsume_shortest_mate(&pos, 5);
        solver.clear();
        let r = solver
            .solve(&pos, &SolveOptions::default().nodes(100_000))
            .unwrap();
        let exact = r.exact;
        match (&r.outcome, shortest) {
            (Outcome::Mate { moves }, _) => {
                if !is_tsume_line(&pos, moves, Color::Black) {
                    failures.push(format!("{pos}: line {moves:?} is not a mate"));
                }
                match shortest {
                    Some(n) => {
                        if moves.len() as u32 != n || !exact {
                            failures.push(format!(
                                "{pos}: tsume shortest mate {n}, line of {} (exact: {exact}) {moves:?}",
                                moves.len()
                            ));
                        }
                        mates += 1;
                    }
                    None => {
                        if moves.len() <= 5 {
                            failures.push(format!("{pos}: line {moves:?} but no mate within 5"));
                        }
                        longer += 1;
                    }
                }
            }
            (Outcome::NoMate, None) => no_mates += 1,
            (Outcome::NoMate, Some(n)) => failures.push(format!(
                "{pos}: solver says no mate, exhaustive search mates in {n}"
            )),
            (Outcome::Unknown(l), Some(n)) => failures.push(format!(
                "{pos}: unknown ({l}), exhaustive search mates in {n}"
            )),
            // A hard no-mate within the node limit: allowed, but rare.
            (Outcome::Unknown(_), None) => unknown += 1,
        }
    }
    eprintln!(
        "{positions} positions: {mates} mates within 5, {longer} longer mates, {no_mates} no mate, {unknown} unknown"
    );
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        unknown * 20 <= positions,
        "{unknown} unknown of {positions}"
    );
    assert!(positions >= 800, "only {positions} positions generated");
    assert!(
        mates >= 60 && no_mates >= 300,
        "too few of a kind: {mates} mates, {no_mates} no-mates"
    );
}
