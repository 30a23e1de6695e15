//! Holds the df-pn solver to an independent standard: the plain AND/OR
//! search of `solver::exhaustive` (no table, no hands, no estimates).
//!
//! The solver answers by tsume counting (useless interpositions, 無駄合,
//! not counted; see `tsume::solver::interposition`), and so does the
//! exhaustive reference it is held to on lengths (`tsume_shortest_mate`).
//! Whether a position is mated does not depend on the counting, so the
//! mate/no-mate checks use the plain exhaustive search (every
//! interposition counted), which is never shorter.
//!
//! - Random tsume-like positions (seeded, deterministic), each searched
//!   with Black attacking and turned round with White attacking, some with
//!   the attacker's king on the board: every mate the exhaustive search
//!   finds within 7 plies is found by the solver, with the tsume shortest
//!   length (and a mate the solver reports that is longer than 7 plies has
//!   no tsume mate within 7); no "no mate" meets an exhaustive mate; every
//!   mate the solver reports is sound (the line mates by tsume counting,
//!   `is_tsume_line`; at every defender turn each other evasion is mated
//!   too, and so is each interposition left at the line's end; a mate too
//!   long for the exhaustive search has the solver's whole strategy walked
//!   down to checkmates); both orientations agree. A search left unknown
//!   at the node limit never hides an exhaustive mate, and stays rare (see
//!   `slow_disproofs_of_small_positions`).
//! - The rows of the problem sets up to 11 plies: the exhaustive tsume
//!   shortest mate is the published length (listed exceptions aside), the
//!   solver's line has that length, and the plain lengths the rows
//!   publish hold.
//! - `problems/nomate.tsv`: a mate reported there must be sound and of
//!   the tsume shortest length, and the rows asserted mate-free within N
//!   plies are mate-free by exhaustive search.
//! - The defender-to-move root (an AND node).
//!
//! Run optimised: `cargo test --profile ci --test solver_soundness`.
//! `SOUND_LAYOUTS`, `SOUND_KING_LAYOUTS` and `SOUND_NODES` change the size
//! of the random runs and their node limit.

mod common;

use std::time::{Duration, Instant};

use common::{problems, usi};
use tsume::core::movegen::evasion_moves;
use tsume::core::{Color, Move, Position, SfenError};
use tsume::solver::exhaustive::{
    mated_within, mates_within, shortest_mate, tsume_mated_within, tsume_mates_within,
    tsume_shortest_mate, tsume_shortest_mate_limited,
};
use tsume::solver::{Outcome, SolveError, SolveOptions, Solver, is_tsume_line};

/// xorshift64*: small, seeded, the same on every machine.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: i32, hi: i32) -> i32 {
        lo + self.below((hi - lo + 1) as usize) as i32
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// Hand kinds in SFEN order, with the number of each in a set.
const HAND_LETTERS: [char; 7] = ['R', 'B', 'G', 'S', 'N', 'L', 'P'];
const SET: [u32; 7] = [2, 2, 4, 4, 4, 4, 18];

/// A position under construction, in Black-attacks orientation: the
/// defender (White) king near the top or a side edge.
#[derive(Clone)]
struct Layout {
    /// `board[rank - 1][file - 1]`: owner (true: Black) and SFEN letters
    /// in Black's case (`"G"`, `"+R"`).
    board: [[Option<(bool, &'static str)>; 9]; 9],
    /// Pieces in hand, Black then White, in `HAND_LETTERS` order.
    hands: [[u32; 7]; 2],
}

/// Index into `HAND_LETTERS` of the unpromoted kind of `piece`.
fn pool_index(piece: &str) -> Option<usize> {
    let c = piece.chars().last().expect("a letter");
    HAND_LETTERS.iter().position(|&l| l == c)
}

impl Layout {
    fn empty() -> Layout {
        Layout {
            board: [[None; 9]; 9],
            hands: [[0; 7]; 2],
        }
    }

    fn is_empty(&self, file: i32, rank: i32) -> bool {
        (1..=9).contains(&file)
            && (1..=9).contains(&rank)
            && self.board[rank as usize - 1][file as usize - 1].is_none()
    }

    fn put(&mut self, file: i32, rank: i32, black: bool, piece: &'static str) {
        self.board[rank as usize - 1][file as usize - 1] = Some((black, piece));
    }

    /// The SFEN with Black attacking, or turned round (board rotated,
    /// colours and hands swapped) with White attacking.
    fn sfen(&self, flipped: bool) -> String {
        let mut s = String::new();
        for r in 0..9 {
            if r > 0 {
                s.push('/');
            }
            let mut empty = 0;
            for f in (0..9).rev() {
                let cell = if flipped {
                    self.board[8 - r][8 - f].map(|(b, p)| (!b, p))
                } else {
                    self.board[r][f]
                };
                match cell {
                    None => empty += 1,
                    Some((black, piece)) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        if black {
                            s.push_str(piece);
                        } else {
                            s.push_str(&piece.to_ascii_lowercase());
                        }
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
        }
        s.push_str(if flipped { " w " } else { " b " });
        let (first, second) = if flipped {
            (self.hands[1], self.hands[0])
        } else {
            (self.hands[0], self.hands[1])
        };
        let mut hands = String::new();
        for (upper, hand) in [(true, first), (false, second)] {
            for (i, &n) in hand.iter().enumerate() {
                if n > 1 {
                    hands.push_str(&n.to_string());
                }
                if n > 0 {
                    let c = HAND_LETTERS[i];
                    hands.push(if upper { c } else { c.to_ascii_lowercase() });
                }
            }
        }
        if hands.is_empty() {
            hands.push('-');
        }
        s.push_str(&hands);
        s.push_str(" 1");
        s
    }
}

/// A random tsume-like position: the defender's king near an edge or in a
/// corner, one to four attacker pieces near it, up to three defender
/// pieces by it, one to three pieces in the attacker's hand and every
/// other piece in the defender's hand. With `attacker_king`, Black's king
/// stands a few squares away. Not always legal: the parser decides.
fn random_layout(rng: &mut Rng, attacker_king: bool) -> Layout {
    let mut l = Layout::empty();
    let mut pool = SET;
    let (kf, kr) = match rng.below(5) {
        0 => (rng.pick(&[1, 2, 8, 9]), rng.range(1, 2)),
        1 | 2 => (rng.range(1, 9), 1),
        3 => (rng.range(1, 9), 2),
        _ => (rng.pick(&[1, 9]), rng.range(1, 5)),
    };
    l.put(kf, kr, false, "K");
    const ATTACKERS: [&str; 18] = [
        "G", "G", "S", "S", "+P", "P", "L", "N", "N", "B", "R", "+B", "+R", "+S", "+N", "+L", "G",
        "S",
    ];
    const DEFENDERS: [&str; 10] = ["P", "P", "G", "S", "L", "N", "B", "R", "G", "S"];
    let mut place =
        |l: &mut Layout, rng: &mut Rng, black: bool, piece: &'static str, radius: i32| {
            let Some(i) = pool_index(piece) else { return };
            if pool[i] == 0 {
                return;
            }
            for _ in 0..20 {
                let (f, r) = (
                    kf + rng.range(-radius, radius),
                    kr + rng.range(-radius, radius),
                );
                if l.is_empty(f, r) {
                    l.put(f, r, black, piece);
                    pool[i] -= 1;
                    return;
                }
            }
        };
    for _ in 0..rng.range(1, 4) {
        let piece = rng.pick(&ATTACKERS);
        let radius = if matches!(piece, "B" | "R" | "L" | "+B" | "+R") {
            4
        } else {
            2
        };
        place(&mut l, rng, true, piece, radius);
    }
    for _ in 0..rng.range(0, 3) {
        let piece = rng.pick(&DEFENDERS);
        place(&mut l, rng, false, piece, 2);
    }
    if attacker_king {
        for _ in 0..50 {
            let (f, r) = (kf + rng.range(-5, 5), kr + rng.range(2, 6));
            if l.is_empty(f, r) {
                l.put(f, r, true, "K");
                break;
            }
        }
        // Defender pieces that can bother it.
        for _ in 0..rng.range(0, 2) {
            let piece = rng.pick(&["R", "B", "L", "G", "S", "N"]);
            place(&mut l, rng, false, piece, 4);
        }
    }
    const HAND: [usize; 10] = [0, 1, 2, 2, 3, 3, 4, 5, 6, 2];
    for _ in 0..rng.range(1, 3) {
        let i = rng.pick(&HAND);
        if pool[i] > 0 {
            pool[i] -= 1;
            l.hands[0][i] += 1;
        }
    }
    l.hands[1] = pool;
    l
}

/// Counts over a run of random positions.
#[derive(Default, Debug)]
struct Tally {
    /// Layouts drawn, and how many of them the SFEN parser rejected.
    generated: u32,
    rejected: u32,
    /// Positions searched (each kept layout twice: Black and White attacking).
    searched: u32,
    mates: u32,
    /// Mates the exhaustive search confirms within its depth.
    mates_confirmed: u32,
    /// Mates longer than the exhaustive depth, checked by walking the
    /// solver's whole strategy instead.
    mates_walked: u32,
    /// Of those, walks given up (too large, or the strategy of separate
    /// searches ran into a position already on its path).
    walks_inconclusive: u32,
    no_mates: u32,
    /// Left unknown at the node limit (only allowed where the exhaustive
    /// search sees no mate).
    unknown: u32,
    /// Positions with the attacker in check at the root, and mating lines
    /// with the attacker in check at one of its turns.
    attacker_in_check_roots: u32,
    attacker_in_check_lines: u32,
    alternatives_checked: u32,
    /// Mates whose tsume length the exhaustive search gave up on (see
    /// [`TSUME_EXHAUSTIVE_POSITIONS`]).
    tsume_exhaustive_gave_up: u32,
    solver_nodes: u64,
    exhaustive_time: Duration,
    solver_time: Duration,
    /// Time spent checking the solver's mates (other defences, walks).
    mate_check_time: Duration,
}

/// Positions the exhaustive search by tsume counting may visit to find a
/// random position's tsume length. Nested useless-interposition tests make
/// it explode where the defender holds many pieces against long-range
/// checks: one position of the runs needed minutes.
const TSUME_EXHAUSTIVE_POSITIONS: u64 = 20_000_000;

/// Percentage of the mates of a random run whose tsume length the
/// exhaustive search may give up on: 1-2% at 20M positions.
const GAVE_UP_PERCENT_ALLOWED: u32 = 4;

/// Plies of the exhaustive check of the slow positions.
const SLOW_CHECK_PLIES: u32 = 9;

/// Why `moves` is not a sound mate from `pos` (for `attacker`): the line
/// does not mate by tsume counting ([`is_tsume_line`]: checkmate at the
/// end, or only interpositions left), or some other evasion at a defender
/// turn on it, or an interposition left at its end, is not mated (solved
/// again; its line must mate too). `None` when sound.
fn unsound_mate(
    solver: &mut Solver,
    pos: &Position,
    moves: &[Move],
    attacker: Color,
    checked: &mut u32,
) -> Option<String> {
    if !is_tsume_line(pos, moves, attacker) {
        return Some(format!("line {} does not mate", usi(moves)));
    }
    let mut p = pos.clone();
    for i in 0..=moves.len() {
        let played = moves.get(i).copied();
        if p.side_to_move() != attacker {
            for &alt in evasion_moves(&p).iter() {
                if Some(alt) == played {
                    continue;
                }
                *checked += 1;
                let after = p.after(alt);
                let r = solver.solve(&after, &limits(300_000)).expect("searchable");
                match r.outcome {
                    Outcome::Mate { moves: line } if is_tsume_line(&after, &line, attacker) => {}
                    other => {
                        return Some(format!(
                            "line {}: at ply {} the defence {alt} gives {}",
                            usi(moves),
                            i + 1,
                            show(&other)
                        ));
                    }
                }
            }
        }
        if let Some(m) = played {
            p.do_move(m);
        }
    }
    None
}

/// Attacker positions a walk may solve before it is given up.
const WALK_BUDGET: u32 = 3000;

/// The result of walking a mating strategy.
enum Walk {
    /// Every line of the strategy ends in checkmate.
    Proven,
    /// A position of the strategy is reported not mated: the answers
    /// contradict each other.
    Refuted(String),
    /// Too large, or it ran into a position already on its path.
    Inconclusive,
}

/// Walks the solver's mating strategy from `pos`: at the attacker's turn
/// the first move of the line the solver gives for that position (solved
/// again, from there), at the defender's turn every evasion. Every leaf
/// must be checkmate (seen by the move generator alone); a position the
/// solver calls not mated inside its own proof is a contradiction. The
/// strategy is pieced together from separate searches, each blind to the
/// path above it, so a walk that comes back to a position on its path
/// proves nothing either way and is given up.
fn walk_strategy(
    solver: &mut Solver,
    pos: &mut Position,
    attacker: Color,
    path: &mut Vec<u64>,
    budget: &mut u32,
) -> Walk {
    if pos.side_to_move() == attacker {
        if *budget == 0 || path.len() > 120 {
            return Walk::Inconclusive;
        }
        *budget -= 1;
        let r = solver.solve(pos, &limits(100_000)).expect("searchable");
        let m = match r.outcome {
            Outcome::Mate { moves } => moves[0],
            Outcome::NoMate => {
                return Walk::Refuted(format!("{pos} (on the strategy) is reported NoMate"));
            }
            Outcome::Unknown(_) => return Walk::Inconclusive,
        };
        let undo = pos.do_move(m);
        let w = if !pos.in_check() {
            Walk::Refuted(format!("{m} is not a check"))
        } else if path.contains(&pos.key()) {
            Walk::Inconclusive
        } else {
            path.push(pos.key());
            let w = walk_strategy(solver, pos, attacker, path, budget);
            path.pop();
            w
        };
        pos.undo_move(m, undo);
        w
    } else {
        let evasions = evasion_moves(pos);
        if evasions.is_empty() {
            return if pos.in_check() {
                Walk::Proven
            } else {
                Walk::Refuted(format!("{pos}: no move, not in check"))
            };
        }
        let mut result = Walk::Proven;
        for &e in evasions.iter() {
            let undo = pos.do_move(e);
            let w = if path.contains(&pos.key()) {
                Walk::Inconclusive
            } else {
                path.push(pos.key());
                let w = walk_strategy(solver, pos, attacker, path, budget);
                path.pop();
                w
            };
            pos.undo_move(e, undo);
            match w {
                Walk::Proven => {}
                Walk::Refuted(why) => return Walk::Refuted(format!("after {e}: {why}")),
                Walk::Inconclusive => result = Walk::Inconclusive,
            }
        }
        result
    }
}

fn show(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Mate { moves } => format!("Mate [{}]", usi(moves)),
        other => format!("{other:?}"),
    }
}

fn limits(nodes: u64) -> SolveOptions {
    SolveOptions::default().nodes(nodes)
}

/// What a fresh solver says of `pos`, for failure reports.
fn fresh_answer(pos: &Position, nodes: u64) -> String {
    let r = common::new_solver(16)
        .solve(pos, &limits(nodes))
        .expect("searchable");
    show(&r.outcome)
}

/// Whether the attacker is in check at one of its turns along `moves`.
fn attacker_checked_on_line(pos: &Position, moves: &[Move], attacker: Color) -> bool {
    let mut p = pos.clone();
    for &m in moves {
        if p.side_to_move() == attacker && p.in_check() {
            return true;
        }
        p.do_move(m);
    }
    false
}

/// Compares the solver with the exhaustive search on one position.
/// Returns the solver's outcome, the exhaustive shortest mate (plain
/// counting: whether a position is mated does not depend on the counting),
/// and a description of a disagreement. An exact mate's length must be the
/// tsume shortest mate (`tsume_shortest_mate`, never longer than the plain
/// one) when that is within `plies`, and longer than `plies` otherwise; a
/// first proof's line (not exact) must be a mate.
fn differential(
    solver: &mut Solver,
    pos: &Position,
    plies: u32,
    node_limit: u64,
    tally: &mut Tally,
) -> (Outcome, Option<u32>, Option<String>) {
    let attacker = pos.side_to_move();
    let t = Instant::now();
    let truth = shortest_mate(pos, plies);
    tally.exhaustive_time += t.elapsed();
    let t = Instant::now();
    let r = solver.solve(pos, &limits(node_limit)).expect("searchable");
    tally.solver_time += t.elapsed();
    tally.searched += 1;
    tally.solver_nodes += r.nodes;
    if pos.in_check() {
        tally.attacker_in_check_roots += 1;
    }
    let problem = match (&r.outcome, truth) {
        (Outcome::Mate { moves }, _) => {
            tally.mates += 1;
            let t = Instant::now();
            if attacker_checked_on_line(pos, moves, attacker) {
                tally.attacker_in_check_lines += 1;
            }
            let mut why = unsound_mate(
                solver,
                pos,
                moves,
                attacker,
                &mut tally.alternatives_checked,
            );
            // The tsume length: within the plain one when there is one,
            // else perhaps still within `plies`. An error when the
            // exhaustive search gave up; the length is then not compared.
            let tsume = tsume_shortest_mate_limited(
                pos,
                truth.unwrap_or(plies),
                TSUME_EXHAUSTIVE_POSITIONS,
            );
            if tsume.is_err() {
                tally.tsume_exhaustive_gave_up += 1;
            }
            let len = moves.len() as u32;
            // Only an exact answer has a length to compare: a first proof's
            // line (the answer ran out of nodes) may follow a shorter
            // defence; it is checked as a mate, by the walk below.
            if let Ok(tsume) = tsume
                && why.is_none()
                && r.exact
                && (tsume.is_some_and(|n| n != len) || (tsume.is_none() && len <= plies))
            {
                why = Some(format!(
                    "line {} of {len} plies (exact: {}), tsume shortest mate {tsume:?}",
                    usi(moves),
                    r.exact
                ));
            }
            if why.is_none() && truth.is_some() {
                tally.mates_confirmed += 1;
            } else if why.is_none() {
                // Longer than the exhaustive search reaches: walk the
                // whole strategy instead.
                tally.mates_walked += 1;
                let mut p = pos.clone();
                let mut budget = WALK_BUDGET;
                match walk_strategy(solver, &mut p, attacker, &mut vec![pos.key()], &mut budget) {
                    Walk::Proven => {}
                    Walk::Refuted(w) => why = Some(w),
                    Walk::Inconclusive => tally.walks_inconclusive += 1,
                }
            }
            tally.mate_check_time += t.elapsed();
            why.map(|why| format!("false mate? {why}"))
        }
        (Outcome::NoMate, None) => {
            tally.no_mates += 1;
            None
        }
        (Outcome::NoMate, Some(n)) => {
            tally.no_mates += 1;
            Some(format!("false no-mate: exhaustive mates in {n}"))
        }
        (Outcome::Unknown(limit), Some(n)) => {
            tally.unknown += 1;
            Some(format!(
                "unknown ({limit}) after {} nodes, but exhaustive mates in {n}",
                r.nodes
            ))
        }
        (Outcome::Unknown(limit), None) => {
            tally.unknown += 1;
            eprintln!("slow: {pos}: unknown ({limit}) after {} nodes", r.nodes);
            None
        }
    };
    let problem = problem.map(|p| {
        format!(
            "{pos}: {p} (a fresh solver says {})",
            fresh_answer(pos, node_limit)
        )
    });
    (r.outcome, truth, problem)
}

/// Random positions from `seed`: `layouts` legal layouts, each searched as
/// generated (Black attacking) and turned round (White attacking). The two
/// orientations must also agree with each other.
fn random_run(seed: u64, layouts: u32, attacker_king: bool, plies: u32, node_limit: u64) -> Tally {
    let mut rng = Rng::new(seed);
    let mut solver = common::new_solver(32);
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    for i in 0..layouts {
        // One, two and four threads in turn (see `common::threads_in_turn`).
        solver.set_threads(common::threads_in_turn(i as usize));
        // Layouts the parser rejects (the defender in check, a dead piece,
        // two pawns on a file) are skipped.
        let (layout, pos) = loop {
            tally.generated += 1;
            let layout = random_layout(&mut rng, attacker_king);
            match layout.sfen(false).parse::<Position>() {
                Ok(pos) => break (layout, pos),
                Err(_) => tally.rejected += 1,
            }
        };
        let flipped: Position = layout
            .sfen(true)
            .parse()
            .unwrap_or_else(|e| panic!("{pos} parses but not turned round: {e}"));
        assert_eq!(flipped.side_to_move(), Color::White);
        let mut outcomes = Vec::new();
        let mut truths = Vec::new();
        for p in [&pos, &flipped] {
            let (outcome, truth, problem) =
                differential(&mut solver, p, plies, node_limit, &mut tally);
            failures.extend(problem);
            outcomes.push(outcome);
            truths.push(truth);
        }
        if truths[0] != truths[1] {
            failures.push(format!(
                "{pos}: exhaustive {:?}, turned round ({flipped}) {:?}",
                truths[0], truths[1]
            ));
        }
        let decided = |o: &Outcome| match o {
            Outcome::Mate { .. } => Some(true),
            Outcome::NoMate => Some(false),
            Outcome::Unknown(_) => None,
        };
        if let (Some(a), Some(b)) = (decided(&outcomes[0]), decided(&outcomes[1]))
            && a != b
        {
            failures.push(format!(
                "{pos}: {} but turned round ({flipped}): {}",
                show(&outcomes[0]),
                show(&outcomes[1])
            ));
        }
    }
    eprintln!("seed {seed:#x}, attacker king {attacker_king}: {tally:#?}");
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        tally.tsume_exhaustive_gave_up * 100 <= tally.mates * GAVE_UP_PERCENT_ALLOWED,
        "the exhaustive search gave up on {} of {} mates",
        tally.tsume_exhaustive_gave_up,
        tally.mates
    );
    // Positions left unknown are slow disproofs (see
    // `slow_disproofs_of_small_positions`); they must stay rare.
    assert!(
        tally.unknown * 100 <= tally.searched * UNKNOWN_PERCENT_ALLOWED,
        "{} of {} positions unknown at {node_limit} nodes",
        tally.unknown,
        tally.searched
    );
    tally
}

/// Percentage of random positions allowed to end unknown at the node
/// limit (all of them no-mates, as far as the exhaustive search sees);
/// 7-9% now, at 50k nodes.
const UNKNOWN_PERCENT_ALLOWED: u32 = 12;

fn env_or(name: &str, default: u32) -> u32 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Node limit of each search of a random position. Most need a few
/// hundred nodes; a few percent of the no-mates need millions (see
/// `slow_disproofs_of_small_positions`).
const RANDOM_NODE_LIMIT: u64 = 50_000;

fn random_node_limit() -> u64 {
    env_or("SOUND_NODES", RANDOM_NODE_LIMIT as u32) as u64
}

// Two seeds, so that the two halves run side by side.
#[test]
fn random_positions_black_and_white_attack() {
    let layouts = env_or("SOUND_LAYOUTS", 350);
    random_run(0x5eed_0001, layouts, false, 7, random_node_limit());
}

#[test]
fn random_positions_black_and_white_attack_second_seed() {
    let layouts = env_or("SOUND_LAYOUTS", 350);
    random_run(0x5eed_0003, layouts, false, 7, random_node_limit());
}

#[test]
fn random_positions_with_the_attacker_king_on_the_board() {
    let layouts = env_or("SOUND_KING_LAYOUTS", 250);
    let tally = random_run(0x5eed_0002, layouts, true, 7, random_node_limit());
    // The case this run is for must come up: the attacker in check,
    // answering with a move that checks.
    assert!(tally.attacker_in_check_lines > 0, "{tally:?}");
}

/// Small no-mate positions from the random runs that the solver leaves
/// unknown at 1M nodes: it disproves them only after 2.3M, 1.0M and 3.6M
/// nodes (about 6, 3 and 12 s). The exhaustive search sees no mate within
/// 9 plies in each, in milliseconds. Not wrong answers, but "unknown" on a
/// position of five or six pieces is what the issue rules out. In the
/// random runs, about 8% of the positions are unknown at 50k nodes, 6.5%
/// at 150k, 3% at 1M; all of the ones looked at are no-mates, disproved
/// after 0.25M to 6M nodes.
#[test]
#[ignore = "bug: Unknown at 1M nodes on small no-mate positions (slow disproofs; NoMate only after 1-4M nodes)"]
fn slow_disproofs_of_small_positions() {
    let sfens = [
        "7bs/7Lk/6g2/5RL2/5R3/9/9/9/9 b GSNb2g2s3n2l18p 1",
        "4R3n/6G2/8k/9/8N/9/9/9/9 b GSPr2b2g3s2n4l17p 1",
        "4k1lR1/9/9/9/9/9/9/9/9 b GSPr2b3g3s4n3l17p 1",
    ];
    let mut solver = common::new_solver(64);
    for sfen in sfens {
        let pos: Position = sfen.parse().unwrap();
        assert!(!mates_within(&pos, SLOW_CHECK_PLIES), "{sfen}");
        let r = solver.solve(&pos, &limits(1_000_000)).unwrap();
        assert_eq!(r.outcome, Outcome::NoMate, "{sfen} after {} nodes", r.nodes);
    }
}

/// Reads a problem row, accepting the generated rows that hold two pawns
/// of a side on one file.
fn parse_row(sfen: &str, name: &str) -> Position {
    match sfen.parse() {
        Ok(pos) => pos,
        Err(SfenError::TwoPawns { .. }) => Position::from_sfen_relaxed(sfen).unwrap(),
        Err(e) => panic!("{name}: {e}"),
    }
}

/// Rows of `antma_tests.tsv` published as 5 plies, not flagged, whose
/// plain length is 7: a useless interposition (7nl/..: L*3b at ply 2; the
/// other: B*4c at ply 2) is not counted in the published length. The
/// solver's lines: 4i4b+ L*3b S*3a 2b1b 4b3b L*2b 3a2b+, and 7 plies by
/// exhaustive search for the second.
const UNFLAGGED_FUTILE: [&str; 2] = [
    "7nl/7k1/6ppp/9/9/9/9/9/5R3 b Sr2b4g3s3n3l15p 1",
    "l6nl/3+R1pk2/3p3gp/p1p3p2/1p1nsN3/2P3P1P/PP1P1S3/1SG2GK2/LN6L b BGPrbs4p 1",
];

/// How far the exhaustive search looks in a row whose published length
/// leaves useless interpositions out: two antma rows published as 1 ply
/// (a bishop mate down a long diagonal, every square of which the
/// defender may block) take 13 and 15 plies counted plainly.
const FUTILE_PLIES: u32 = 15;

/// The plain length a row's caveat gives: "plain minimax length is N+2"
/// or "plain minimax length is 5".
fn plain_length(name: &str, len: u32) -> Option<u32> {
    let rest = &name[name.find("plain minimax length is ")? + 24..];
    let word: String = rest
        .chars()
        .take_while(|c| *c != ']' && *c != ' ')
        .collect();
    if word == "N+2" {
        Some(len + 2)
    } else {
        word.parse().ok()
    }
}

/// The short rows of the problem sets against the exhaustive search.
///
/// The solver's answer follows the tsume-shogi conventions: shortest
/// attack, longest defence, useless interpositions (無駄合) not counted; so
/// does the exhaustive search by tsume counting (`tsume_mates_within`, the
/// definition of `tsume::solver::interposition`).
/// - the solver finds a mate whose line mates by tsume counting, proven
///   shortest (`exact`), and the exhaustive search agrees: a mate within
///   that length and none within two plies less. (Whether that is the
///   published length is `tests/solve_lengths.rs`'s business.)
/// - the published data on plain counting (every interposition counted)
///   holds too: a row flagged as not counting futile interpositions (its
///   name says "futile"), or listed in `UNFLAGGED_FUTILE`, mates plainly
///   within `FUTILE_PLIES` (each useless interposition adds two plies),
///   and not sooner than its length (exactly the plain length its caveat
///   gives, if any); a row saying "plain minimax: no mate within N" has
///   none within N plainly.
///
/// Rows up to `MAX_PLIES`; of the 1979 generated tanuki rows every
/// `TANUKI_STEP`-th up to `TANUKI_MAX_PLIES` (the exhaustive search by tsume
/// counting costs seconds on the longer ones).
#[test]
fn problem_sets_agree_with_exhaustive_search() {
    const MAX_PLIES: i32 = 5;
    const TANUKI_MAX_PLIES: i32 = 5;
    const TANUKI_STEP: usize = 4;
    let mut solver = common::new_solver(64);
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut longer = Vec::new();
    for file in [
        "antma_tests.tsv",
        "tsumemi_samples.tsv",
        "misc_small.tsv",
        "tanuki_generated.tsv",
    ] {
        let rows = problems(file);
        let (step, max) = if file.starts_with("tanuki") {
            (TANUKI_STEP, TANUKI_MAX_PLIES)
        } else {
            (1, MAX_PLIES)
        };
        for p in rows
            .iter()
            .filter(|p| (1..=max).contains(&p.length))
            .step_by(step)
        {
            checked += 1;
            let pos = parse_row(&p.sfen, &p.name);
            let len = p.length as u32;
            let r = solver.solve(&pos, &limits(1_000_000)).unwrap();
            match &r.outcome {
                Outcome::Mate { moves }
                    if is_tsume_line(&pos, moves, pos.side_to_move()) && r.exact =>
                {
                    let n = moves.len() as u32;
                    let shortest =
                        tsume_mates_within(&pos, n) && (n < 3 || !tsume_mates_within(&pos, n - 2));
                    if !shortest {
                        failures.push(format!(
                            "{} ({}): solver {n}, exhaustive tsume shortest {:?}",
                            p.name,
                            p.sfen,
                            tsume_shortest_mate(&pos, n)
                        ));
                    }
                }
                other => failures.push(format!(
                    "{} ({}): solver {} (exact: {})",
                    p.name,
                    p.sfen,
                    show(other),
                    r.exact
                )),
            }
            // The plain-counting facts the rows publish.
            let futile = p.name.contains("futile") || UNFLAGGED_FUTILE.contains(&p.sfen.as_str());
            if let Some(i) = p.name.find("plain minimax: no mate within ") {
                let n: u32 = p.name[i + 30..].split(' ').next().unwrap().parse().unwrap();
                if mates_within(&pos, n) {
                    failures.push(format!("{}: a plain mate within {n}", p.name));
                }
            }
            if futile {
                let plain = shortest_mate(&pos, FUTILE_PLIES);
                match plain {
                    Some(n) if n >= len && plain_length(&p.name, len).is_none_or(|pl| pl == n) => {
                        if n > len {
                            longer.push(format!("{} ({len} published): {n}", p.name));
                        }
                    }
                    _ => failures.push(format!(
                        "{} ({}): published {len} not counting futile interpositions, plain shortest {plain:?}",
                        p.name, p.sfen
                    )),
                }
            }
        }
    }
    eprintln!(
        "{checked} rows checked; futile-interposition rows longer by plain count:\n{}",
        longer.join("\n")
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// `problems/nomate.tsv`: a mate the solver reports there must be sound
/// (the line mates, and every other defence along it is mated too), and a
/// row whose name asserts "no mate within N plies" has none within N by
/// exhaustive search (a check of the data).
///
/// Three rows do have mates, all beyond what their names claim; by
/// exhaustive search the shortest are:
/// - `no_tsume1` (no mate within 1): 3 plies (2b1b 1c1b 4d2b+);
/// - `tsume1_futile_drops` (no mate within 1): 7 plies;
/// - cshogi `mateMove_issue45` (no mate within 7): 9 plies.
///
/// The solver's lines for them have been 3, 7 and 9 to 17 plies depending
/// on its version; each is checked by replaying it, solving every other
/// defence along it, and walking the solver's whole strategy. Searches are
/// cut at 200k nodes: several of the game positions are then unknown,
/// which is no claim either way.
#[test]
fn nomate_set_claims_are_sound() {
    let mut solver = common::new_solver(64);
    let mut mates = Vec::new();
    let mut shortest = Vec::new();
    let mut asserted = 0;
    let mut failures = Vec::new();
    let mut checked_alternatives = 0;
    for p in problems("nomate.tsv") {
        let pos = parse_row(&p.sfen, &p.name);
        let attacker = pos.side_to_move();
        if let Some(n) = asserted_mate_free_plies(&p.name) {
            asserted += 1;
            if mates_within(&pos, n) {
                failures.push(format!("{}: a mate within {n} plies", p.name));
            }
        }
        let r = solver.solve(&pos, &limits(200_000)).unwrap();
        if let Outcome::Mate { moves } = &r.outcome {
            mates.push((p.name.clone(), moves.len()));
            if let Some(why) = unsound_mate(
                &mut solver,
                &pos,
                moves,
                attacker,
                &mut checked_alternatives,
            ) {
                failures.push(format!("{}: {why}", p.name));
            }
            let mut q = pos.clone();
            match walk_strategy(
                &mut solver,
                &mut q,
                attacker,
                &mut vec![pos.key()],
                &mut 5000,
            ) {
                Walk::Proven => {}
                Walk::Refuted(why) => failures.push(format!("{}: {why}", p.name)),
                Walk::Inconclusive => failures.push(format!("{}: walk inconclusive", p.name)),
            }
            match shortest_mate(&pos, 9) {
                Some(n) => {
                    shortest.push(n);
                    // The solver's length is the tsume shortest mate.
                    let tsume = tsume_shortest_mate(&pos, n);
                    if tsume != Some(moves.len() as u32) || !r.exact {
                        failures.push(format!(
                            "{}: line {} of {} plies (exact: {}), tsume shortest mate {tsume:?}",
                            p.name,
                            usi(moves),
                            moves.len(),
                            r.exact
                        ));
                    }
                }
                None => failures.push(format!("{}: no mate within 9 by exhaustive", p.name)),
            }
        }
    }
    eprintln!("mates in nomate.tsv (name, solver's line length): {mates:?}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    shortest.sort();
    assert_eq!(shortest, [3, 7, 9], "{mates:?}");
    // Five rows say "asserted no mate within N plies" (N = 1, 1, 1, 3, 3),
    // one "NO_MATE_MOVE_WITHIN_7_PLY".
    assert_eq!(asserted, 6);
    // Which rows are mates is a fact of the positions (the line lengths
    // depend on the solver's choices and are only printed).
    let mut names: Vec<&str> = mates
        .iter()
        .map(|(name, _)| name.split(' ').nth(1).unwrap_or(name))
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "TestBoard.mateMove_issue45",
            "no_tsume1",
            "tsume1_futile_drops"
        ],
        "{mates:?}"
    );
}

/// The N of "asserted no mate within N plies" or
/// "NO_MATE_MOVE_WITHIN_N_PLY" in a row name.
fn asserted_mate_free_plies(name: &str) -> Option<u32> {
    if let Some(i) = name.find("asserted no mate within ") {
        let rest = &name[i + "asserted no mate within ".len()..];
        return rest.split_whitespace().next()?.parse().ok();
    }
    if let Some(i) = name.find("NO_MATE_MOVE_WITHIN_") {
        let rest = &name[i + "NO_MATE_MOVE_WITHIN_".len()..];
        return rest.split('_').next()?.parse().ok();
    }
    None
}

/// The defender-to-move root (an AND node): the side to move is in check
/// and the question is whether it is mated.
#[test]
fn defender_to_move_root() {
    let and_root = SolveOptions::default()
        .nodes(1_000_000)
        .defender_to_move(true);
    let mut solver = common::new_solver(16);

    // misc_small's 5-ply problem after the attacker's first move: mated
    // in 4 more plies.
    let problem: Position = "3g1ks2/6g2/4S4/7B1/9/9/9/9/9 b G2rbg2s4n4l18p 1"
        .parse()
        .unwrap();
    let first = match solver.solve(&problem, &limits(1_000_000)).unwrap().outcome {
        Outcome::Mate { moves } => moves[0],
        other => panic!("{other:?}"),
    };
    let mated = problem.after(first);
    assert!(mated.in_check());
    assert!(mated_within(&mated, 4));
    assert!(!mated_within(&mated, 2));
    assert!(tsume_mated_within(&mated, 4));
    assert!(!tsume_mated_within(&mated, 2));
    match solver.solve(&mated, &and_root).unwrap().outcome {
        Outcome::Mate { moves } => {
            assert_eq!(moves.len(), 4, "{}", usi(&moves));
            assert!(is_tsume_line(&mated, &moves, !mated.side_to_move()));
        }
        other => panic!("{mated}: {other:?}"),
    }

    // Already checkmate: mated in 0.
    let checkmated: Position = "4k4/4G4/4P4/9/9/9/9/9/9 w 2r2b3g4s4n4l17p 1"
        .parse()
        .unwrap();
    assert!(mated_within(&checkmated, 0));
    match solver.solve(&checkmated, &and_root).unwrap().outcome {
        Outcome::Mate { moves } => assert!(moves.is_empty(), "{}", usi(&moves)),
        other => panic!("{other:?}"),
    }

    // A check from a position with no mate: the king escapes.
    let nomate: Position = "9/4k4/9/4P4/9/9/9/9/9 b G2r2b4s4n4l17p 1".parse().unwrap();
    assert_eq!(
        solver.solve(&nomate, &limits(1_000_000)).unwrap().outcome,
        Outcome::NoMate
    );
    let escapes = nomate.after(nomate.parse_move("G*5c").unwrap());
    assert!(escapes.in_check());
    assert!(!mated_within(&escapes, 6));
    assert_eq!(
        solver.solve(&escapes, &and_root).unwrap().outcome,
        Outcome::NoMate
    );

    // White attacking: the same escape turned round.
    let turned: Position = "9/9/9/9/9/4p4/9/4K4/9 w g2R2B4S4N4L17P 1".parse().unwrap();
    let turned = turned.after(turned.parse_move("G*5g").unwrap());
    assert!(turned.in_check());
    assert_eq!(
        solver.solve(&turned, &and_root).unwrap().outcome,
        Outcome::NoMate
    );

    // Not in check: the question makes no sense.
    let quiet: Position = "4k4/9/4P4/9/9/9/9/9/9 w G2r2b3g4s4n4l17p 1"
        .parse()
        .unwrap();
    assert_eq!(
        solver.solve(&quiet, &and_root).unwrap_err(),
        SolveError::NotInCheck
    );
    // The side to move has no king: nothing to mate.
    assert_eq!(
        solver.solve(&nomate, &and_root).unwrap_err(),
        SolveError::NoDefenderKing(Color::Black)
    );
}
