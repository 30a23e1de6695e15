//! Training puzzles: mate problems of a given length with a unique
//! solution, made from random positions ([`Generator`]) or cut from the
//! positions of real games ([`games`]).
//!
//! A generated puzzle is a tsume problem: the attacker (Black) has no king,
//! gives check at every move and ends with an empty hand; the defender
//! holds every piece that is not on the board nor in the attacker's hand
//! (unless [`Config::defender_holds_rest`] is false: then none);
//! the solution is the solver's tsume answer, of exactly the asked length,
//! and the verifier finds no alternative mate at any attacker move (not
//! even at the last move; a mate in more moves than the solution has left
//! is no alternative, as in puzzle collections, when its length is proven)
//! and no defence as long as the main line (変同).
//!
//! ```
//! use tsume::generate::{Config, Generator};
//! let config = Config { plies: 1, seed: 5, ..Config::default() };
//! let puzzles: Vec<_> = Generator::new(config).unwrap().take(2).collect();
//! assert_eq!(puzzles.len(), 2);
//! for p in &puzzles {
//!     assert_eq!(p.moves.len(), 1);
//!     // Mate by tsume rules: checkmate, or only useless drops left.
//!     let attacker = p.position.side_to_move();
//!     assert!(tsume::solver::is_tsume_line(&p.position, &p.moves, attacker));
//! }
//! // The same seed gives the same puzzles.
//! let again: Vec<_> = Generator::new(config).unwrap().take(2).collect();
//! assert_eq!(puzzles, again);
//! ```
//!
//! How: each candidate (numbered from 0) draws a random position with its
//! own random numbers, seeded from the seed and its number, then changes
//! it one piece at a time, keeping the changes that make the mate no
//! shorter, until the mate is at least as long as asked. The last plies of
//! that mate, from the position where they start, are the puzzle if the
//! verifier finds it sound; then pieces that are not needed are taken off
//! (into the defender's hand, or out of play) as long as the puzzle stays
//! sound and as long.
//!
//! Random changes rarely make a long mate unique, so puzzles of more than
//! 3 plies are grown backwards instead: from a 3-ply puzzle made as
//! above, each step takes back a defender's reply and the attacker's check
//! before it ([`retract`]: captures, promotions and drops taken back too),
//! in a random order, and keeps the first earlier position that is itself
//! a puzzle of two plies more by the same rules (bounded searches first
//! throw out, cheaply, those whose check lets the king out and those that
//! mate sooner). When
//! no retraction of a step works, the step before tries its next one,
//! within a budget of searches per candidate.
//!
//! Candidates run in parallel, each thread taking the next candidate as
//! soon as it is free; the puzzles are kept in the order of the
//! candidates' numbers, dropping positions seen before, so the result does
//! not depend on the number of threads.

pub mod games;
pub mod retract;
pub mod sketch;
mod stream;
pub mod tags;
pub mod variety;

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use hashbrown::HashSet;

use crate::core::movegen::check_moves;
use crate::core::{Color, Hand, Move, Position};
use crate::record::notation::japanese_line;
use crate::solver::{Outcome, SolveOptions, Solver, Within};
use crate::verify::{self, FindingKind, Verdict};

use sketch::{Rng, Sketch, mix};
pub use tags::{Difficulty, Tag};

/// The longest puzzle that can be asked for.
pub const MAX_PLIES: u32 = 31;

/// What to generate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The length of each puzzle in plies: odd, 1 to [`MAX_PLIES`].
    pub plies: u32,
    /// The seed: the same seed gives the same puzzles.
    pub seed: u64,
    /// Threads (at least 1); the puzzles do not depend on it.
    pub jobs: usize,
    /// Nodes for each search (the solver's node limit; the verifier's for
    /// each alternative). Larger finds more, slower.
    pub nodes: u64,
    /// Give up after this many candidates (none: go on as long as asked).
    pub max_candidates: Option<u64>,
    /// The defender holds every piece not on the board nor in the
    /// attacker's hand (the tsume convention, the default); when false it
    /// holds nothing and those pieces are out of play.
    pub defender_holds_rest: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            plies: 3,
            seed: 1,
            jobs: 1,
            nodes: 50_000,
            max_candidates: None,
            defender_holds_rest: true,
        }
    }
}

/// A configuration that cannot be run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("a mate takes an odd number of plies: {0} is even")]
    EvenPlies(u32),
    #[error("{0} plies: puzzles of 1 to {MAX_PLIES} plies can be generated")]
    PliesOutOfRange(u32),
    #[error("the number of jobs must be at least 1")]
    NoJobs,
    #[error("the node limit must be at least 1")]
    NoNodes,
    #[error("the plies range {min}..={max} is empty or not within 1..={MAX_PLIES}")]
    BadRange { min: u32, max: u32 },
    #[error("cannot start the threads: {0}")]
    Threads(String),
}

/// Where a puzzle comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Candidate `index` of the generator run with `seed`.
    Generated { seed: u64, index: u64 },
    /// A game: its line in the input (from 1), the moves of the game
    /// played to reach the position (`ply`), and the moves of the mate
    /// played from there (`cut`, 0 when the puzzle is the game position).
    Game { line: usize, ply: usize, cut: usize },
}

/// A puzzle with its answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Puzzle {
    /// The position, the attacker to move.
    pub position: Position,
    /// The solution (the tsume answer), attacker and defender alternating.
    pub moves: Vec<Move>,
    /// The solution in Japanese notation.
    pub japanese: String,
    pub difficulty: Difficulty,
    pub tags: Vec<Tag>,
    pub origin: Origin,
}

impl Puzzle {
    /// The length in plies.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// A puzzle from a checked position and line.
    fn new(position: Position, moves: Vec<Move>, nodes: u64, origin: Origin) -> Puzzle {
        let japanese = japanese_line(&position, &moves, None).unwrap_or_default();
        Puzzle {
            difficulty: tags::difficulty(&position, &moves, nodes),
            tags: tags::tags(&position, &moves),
            japanese,
            moves,
            position,
            origin,
        }
    }
}

/// The table size of each thread's solver, in megabytes. Fixed, so that
/// the searches do not depend on the number of threads.
const SOLVER_MB: usize = 16;

thread_local! {
    static SOLVER: RefCell<Option<Solver>> = const { RefCell::new(None) };
}

/// Runs `f` with this thread's solver, its table emptied first.
fn with_solver<T>(f: impl FnOnce(&mut Solver) -> T) -> T {
    SOLVER.with(|cell| {
        let mut slot = cell.borrow_mut();
        let solver = slot.get_or_insert_with(|| Solver::new(SOLVER_MB));
        solver.clear();
        f(solver)
    })
}

/// The tsume answer of `pos` within `nodes`, with the solver's nodes; only
/// when it is exact (proven shortest).
fn answer(solver: &mut Solver, pos: &Position, nodes: u64) -> Option<(Vec<Move>, u64)> {
    let r = solver
        .solve(pos, &SolveOptions::default().nodes(nodes))
        .ok()?;
    match r.outcome {
        Outcome::Mate { moves } if r.exact => Some((moves, r.nodes)),
        _ => None,
    }
}

/// The attacker's hand at the end of `line` from `pos`.
fn final_hand(pos: &Position, line: &[Move]) -> Hand {
    let attacker = pos.side_to_move();
    let mut p = pos.clone();
    for &m in line {
        p.do_move(m);
    }
    p.hand(attacker)
}

/// The rules a puzzle is held to.
#[derive(Copy, Clone, Debug)]
struct PuzzleRules {
    /// Plies allowed.
    min: u32,
    max: u32,
    /// Whether the attacker may end with pieces in hand (game positions).
    pieces_left: bool,
    nodes: u64,
}

/// The solution of `pos` if it is a puzzle by `rules`: an exact tsume
/// answer of an allowed length, and a verification that finds no
/// alternative mate at any attacker move (a longer one excepted, as in
/// puzzle collections: the shortest mate is asked), not even at the last
/// move, no side line as long as the main line, nothing left unchecked
/// (and no pieces left, unless allowed).
///
/// The solver's table is kept: what the searches of related positions
/// (the mutations of one base, the retractions of one puzzle) proved
/// serves this one. Every search here is a question of its own with its
/// own node limit, so the verdict does not depend on the table's contents
/// for soundness (every mate or no-mate it reports is proven), only,
/// within a candidate, on the candidate's own earlier searches.
fn judge(solver: &mut Solver, pos: &Position, rules: PuzzleRules) -> Option<Vec<Move>> {
    let (line, _) = answer(solver, pos, rules.nodes)?;
    let len = line.len() as u32;
    if len < rules.min || len > rules.max {
        return None;
    }
    if !rules.pieces_left && !final_hand(pos, &line).is_empty() {
        return None;
    }
    if !no_quick_alternative(solver, pos, &line, (rules.nodes / 10).max(1)) {
        return None;
    }
    // The verification runs first with a tenth of the nodes, and again
    // with all of them only when something was left unchecked.
    for budget in [(rules.nodes / 10).max(1), rules.nodes] {
        let options = verify::VerifyOptions {
            nodes_per_search: budget,
            main_nodes: Some(rules.nodes),
            ..verify::VerifyOptions::default()
        };
        let report = verify::verify(solver, pos, &options).ok()?;
        if !(matches!(report.verdict, Verdict::Sound | Verdict::Flawed)
            && report.exact
            && report.main_line == line)
        {
            return None;
        }
        let mut unchecked = false;
        for f in &report.findings {
            match f.kind {
                FindingKind::SideLineAlternative => {}
                FindingKind::PiecesLeft if rules.pieces_left => {}
                FindingKind::Unchecked => unchecked = true,
                FindingKind::LongerAlternativeMate => {
                    // Longer only if the alternative's length is exact.
                    if !longer_alternative(solver, pos, &line, f.ply, f.moves.first(), rules.nodes)
                    {
                        return None;
                    }
                }
                _ => return None,
            }
        }
        if !unchecked {
            return Some(line);
        }
    }
    None
}

/// The nodes the solver needs for the tsume answer of `pos` from an empty
/// table, for the difficulty: a figure of the puzzle alone, whatever was
/// searched before it.
fn fresh_nodes(solver: &mut Solver, pos: &Position, nodes: u64) -> u64 {
    solver.clear();
    answer(solver, pos, nodes).map_or(nodes, |(_, n)| n)
}

/// Whether the alternative `alt` to move `ply` (from 1) of `line` mates,
/// by a proven shortest line, only in more moves than `line` has left.
fn longer_alternative(
    solver: &mut Solver,
    pos: &Position,
    line: &[Move],
    ply: usize,
    alt: Option<&Move>,
    nodes: u64,
) -> bool {
    let (Some(&alt), Some(before)) = (alt, ply.checked_sub(1)) else {
        return false;
    };
    let mut p = pos.clone();
    for &m in line.iter().take(before) {
        p.do_move(m);
    }
    if p.is_legal(alt).is_err() {
        return false;
    }
    let limits = SolveOptions::default().nodes(nodes).defender_to_move(true);
    let left = line.len() - before;
    match solver
        .solve(&p.after(alt), &limits)
        .map(|r| (r.outcome, r.exact))
    {
        Ok((Outcome::Mate { moves }, true)) => moves.len() + 1 > left,
        Ok((Outcome::NoMate, _)) => true,
        _ => false,
    }
}

/// A quick look for an alternative before the full verification: at each
/// attacker move of `line`, whether some other check mates within the
/// moves left, by a bounded search of `nodes` (cheap when it fails, as it
/// mostly does); false at the first that does. Undecided ones are left to
/// the verifier, which asks the same question first.
fn no_quick_alternative(solver: &mut Solver, pos: &Position, line: &[Move], nodes: u64) -> bool {
    let limits = SolveOptions::default().nodes(nodes).defender_to_move(true);
    let mut p = pos.clone();
    for (i, &m) in line.iter().enumerate() {
        if i % 2 == 0 {
            let left = (line.len() - i) as u32;
            for &c in check_moves(&p).iter() {
                if c == m {
                    continue;
                }
                if let Ok(Within::Mated { .. }) =
                    solver.mated_within(&p.after(c), left - 1, &limits)
                {
                    return false;
                }
            }
        }
        p.do_move(m);
    }
    true
}

/// Nodes for the searches of a candidate's changes: fewer than for
/// judging a puzzle, more for longer puzzles.
fn climb_nodes(config: &Config) -> u64 {
    (config.nodes / 20).max(100) * u64::from(config.plies + 3) / 2
}

/// The tsume answer of `pos` within `nodes` when its fitness may reach
/// `target` (see [`fitness`]); `None` when it cannot, or the answer is not
/// found. Cheap questions first, as most changes of a position break its
/// mate or shorten it: a mate within `target - 1` plies is too short, and
/// a position not mated within `reach` plies, by a search within a
/// sixty-fourth of the nodes, is dropped (bounded searches, cheap either
/// way, where an unbounded one often runs to its limit on a position
/// without a mate), before the exact length, which costs several times
/// the proof, is asked within an eighth of them. Positions that need more
/// are rarely the start of a short puzzle: the climb passes over more
/// candidates, each cheaper, and each search to the node limit costs as
/// much as a dozen that settle.
fn climbed(
    solver: &mut Solver,
    pos: &Position,
    target: i64,
    reach: u32,
    nodes: u64,
) -> Option<Vec<Move>> {
    if target >= 2 {
        let too_short = (target - 1) as u32;
        let bounded = SolveOptions::default().nodes(nodes);
        if let Ok(Within::Mated { .. }) = solver.mated_within(pos, too_short, &bounded) {
            return None;
        }
    }
    let bounded = SolveOptions::default().nodes((nodes / 64).max(1));
    if !matches!(
        solver.mated_within(pos, reach, &bounded),
        Ok(Within::Mated { .. })
    ) {
        return None;
    }
    answer(solver, pos, (nodes / 8).max(1)).map(|(line, _)| line)
}

/// How much longer than the puzzle asked a mate the climb looks for.
const CLIMB_REACH: u32 = 4;

/// Random positions drawn before giving up on a candidate.
const RANDOM_TRIES: usize = 30;
/// Changes tried on a candidate's position, per two plies asked: longer
/// mates take more changes to grow. Few: a position that has not become a
/// puzzle within a few dozen changes seldom does later, and a new
/// candidate is as cheap (at 3 plies, 10 instead of 60 made about three
/// times as many puzzles a second of CPU, fewer a candidate).
const CLIMB_STEPS: usize = 10;

/// How good a mate is as a start for a puzzle: its length, one less when
/// the attacker ends with pieces in hand.
fn fitness(pos: &Position, line: &[Move]) -> i64 {
    line.len() as i64 - i64::from(!final_hand(pos, line).is_empty())
}

/// Puzzles longer than this are grown backwards from a shorter one:
/// random changes rarely make a long mate unique.
const DRAWN_MAX_PLIES: u32 = 3;
/// The length of the drawn puzzle that longer ones grow from.
const GROW_FROM_PLIES: u32 = 3;
/// Retractions judged, per two plies grown, before a candidate gives up.
const GROW_TRIES: usize = 150;

/// Candidate `index` of `config`: a puzzle, or `None` when this
/// candidate's position does not become one.
fn candidate(config: &Config, index: u64) -> Option<Puzzle> {
    if config.plies > DRAWN_MAX_PLIES {
        grown(config, index)
    } else {
        drawn(config, index)
    }
}

/// A puzzle grown backwards: a drawn puzzle of [`GROW_FROM_PLIES`], then,
/// two plies at a time, a position a check and a reply before it
/// ([`retract::retractions`], tried in a random order) that is a puzzle
/// of two plies more by the same rules. Depth first: when no retraction of
/// a step works, the step before tries its next one, within a budget.
///
/// The table is kept from the drawn puzzle to the last step: the mates
/// searched run through the positions searched before.
fn grown(config: &Config, index: u64) -> Option<Puzzle> {
    let n = config.plies;
    let mut rng = Rng::new(mix(mix(config.seed ^ 0x6a09_e667_f3bc_c908)
        ^ index.wrapping_mul(0x2545_f491_4f6c_dd1d)
        ^ u64::from(n)));
    let mut budget = GROW_TRIES * ((n - GROW_FROM_PLIES) / 2) as usize;
    with_solver(|solver| {
        let base = Config {
            plies: GROW_FROM_PLIES,
            ..*config
        };
        let (start, line) = drawn_in(solver, &base, index)?;
        let (pos, line) = grow(
            solver,
            config,
            (start, line),
            GROW_FROM_PLIES,
            &mut rng,
            &mut budget,
        )?;
        let rules = PuzzleRules {
            min: n,
            max: n,
            pieces_left: false,
            nodes: config.nodes,
        };
        Some(finished(solver, pos, line, rules, index, config.seed))
    })
}

/// One step of [`grown`]: `pos` is a puzzle of `plies` with the
/// solution `line`; the puzzle of `config.plies` grown from it, and its
/// solution.
fn grow(
    solver: &mut Solver,
    config: &Config,
    (pos, line): (Position, Vec<Move>),
    plies: u32,
    rng: &mut Rng,
    budget: &mut usize,
) -> Option<(Position, Vec<Move>)> {
    if plies >= config.plies {
        return Some((pos, line));
    }
    let mut options = retract::retractions(&pos);
    if !config.defender_holds_rest {
        options.retain(|r| r.position.hand(Color::White).is_empty());
    }
    // A random order (Fisher-Yates).
    for i in (1..options.len()).rev() {
        options.swap(i, rng.below(i + 1));
    }
    let rules = PuzzleRules {
        min: plies + 2,
        max: plies + 2,
        pieces_left: false,
        nodes: config.nodes,
    };
    let climb = climb_nodes(config);
    let bounded = SolveOptions::default().nodes(climb);
    let replies = bounded.defender_to_move(true);
    for r in options {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        // The table is kept from one retraction to the next: each one's
        // mate runs through `pos`, proven already. A bounded search of the
        // defender's replies to the retracted check first: most
        // retractions let the king out, and one reply that escapes says
        // so, where a search from the position before the check would
        // also have to refute every other check. (A position whose mate
        // starts with another check is passed over.)
        let checked = r.position.after(r.check);
        let within = solver.mated_within(&checked, plies + 1, &replies);
        if !matches!(within, Ok(Within::Mated { .. })) {
            continue;
        }
        // Not mated sooner (bounded again, cheap): the length is exact
        // before the answer, dearer, reads the line.
        let shorter = solver.mated_within(&r.position, plies, &bounded);
        if !matches!(shorter, Ok(Within::NotMated { .. })) {
            continue;
        }
        let Some((line, _)) = answer(solver, &r.position, climb) else {
            continue;
        };
        if line.len() as u32 != plies + 2 || !final_hand(&r.position, &line).is_empty() {
            continue;
        }
        let Some(line) = judge(solver, &r.position, rules) else {
            continue;
        };
        if let Some(p) = grow(solver, config, (r.position, line), plies + 2, rng, budget) {
            return Some(p);
        }
    }
    None
}

/// A puzzle from a random position changed one piece at a time.
fn drawn(config: &Config, index: u64) -> Option<Puzzle> {
    with_solver(|solver| {
        let (pos, line) = drawn_in(solver, config, index)?;
        Some(puzzle(solver, pos, line, config.nodes, index, config.seed))
    })
}

/// The position and solution of [`drawn`], with the pieces it does not
/// need taken off.
fn drawn_in(solver: &mut Solver, config: &Config, index: u64) -> Option<(Position, Vec<Move>)> {
    let n = config.plies;
    let mut rng = Rng::new(mix(mix(config.seed)
        ^ index.wrapping_mul(0x2545_f491_4f6c_dd1d)
        ^ u64::from(n)));
    let rules = PuzzleRules {
        min: n,
        max: n,
        pieces_left: false,
        nodes: config.nodes,
    };
    let climb = climb_nodes(config);
    let reach = n + CLIMB_REACH;
    {
        let mut current = None;
        for _ in 0..RANDOM_TRIES {
            let sketch = Sketch::random(&mut rng, n).with_rest_in_hand(config.defender_holds_rest);
            if let Some(pos) = sketch.position()
                && let Some(line) = climbed(solver, &pos, 0, reach, climb)
            {
                current = Some((sketch, pos, line));
                break;
            }
        }
        let (mut sketch, mut pos, mut line) = current?;
        let mut tried: HashSet<u64> = HashSet::new();
        for _ in 0..CLIMB_STEPS * (n as usize + 1) / 2 {
            if line.len() as u32 >= n && tried.insert(pos.key()) {
                let cut = line.len() - n as usize;
                let mut sub = pos.clone();
                for &m in &line[..cut] {
                    sub.do_move(m);
                }
                sub.set_ply(1);
                // Captures before the cut may have put pieces in the hand
                // of a defender asked to hold none.
                let hand_as_asked = config.defender_holds_rest || sub.hand(Color::White).is_empty();
                if hand_as_asked
                    && final_hand(&sub, &line[cut..]).is_empty()
                    && let Some(l) = judge(solver, &sub, rules)
                {
                    return Some(minimal(solver, sub, l, rules));
                }
            }
            let next = sketch.mutate(&mut rng);
            let Some(next_pos) = next.position() else {
                continue;
            };
            let target = fitness(&pos, &line).min(i64::from(n));
            if let Some(next_line) = climbed(solver, &next_pos, target, reach, climb)
                && fitness(&next_pos, &next_line) >= target
            {
                (sketch, pos, line) = (next, next_pos, next_line);
            }
        }
        None
    }
}

/// The puzzle at `pos` if it is one, with the pieces it does not need
/// taken off.
#[cfg(test)]
fn finish(
    solver: &mut Solver,
    pos: Position,
    rules: PuzzleRules,
    index: u64,
    seed: u64,
) -> Option<Puzzle> {
    let line = judge(solver, &pos, rules)?;
    Some(finished(solver, pos, line, rules, index, seed))
}

/// The puzzle `pos` (by `rules`, with the solution `line`), with the
/// pieces it does not need taken off.
fn finished(
    solver: &mut Solver,
    pos: Position,
    line: Vec<Move>,
    rules: PuzzleRules,
    index: u64,
    seed: u64,
) -> Puzzle {
    let (pos, line) = minimal(solver, pos, line, rules);
    puzzle(solver, pos, line, rules.nodes, index, seed)
}

/// The generated puzzle `pos` with the solution `line`, its difficulty
/// measured.
fn puzzle(
    solver: &mut Solver,
    pos: Position,
    line: Vec<Move>,
    nodes: u64,
    index: u64,
    seed: u64,
) -> Puzzle {
    let nodes = fresh_nodes(solver, &pos, nodes);
    Puzzle::new(pos, line, nodes, Origin::Generated { seed, index })
}

/// Whether `pos` may be a puzzle by `rules` as far as bounded searches
/// tell, within a tenth of the nodes: mated within `rules.max` plies, and
/// not within `rules.min - 2`. A no is proven (the exact answer could not
/// have an allowed length), so [`judge`] would say no too; a yes is for it
/// to confirm. Cheap either way, where the exact answer of a position
/// without a mate can take all the nodes.
fn may_be_puzzle(solver: &mut Solver, pos: &Position, rules: PuzzleRules) -> bool {
    let bounded = SolveOptions::default().nodes((rules.nodes / 10).max(1));
    match solver.mated_within(pos, rules.max, &bounded) {
        Ok(Within::NotMated { .. }) => return false,
        Ok(Within::Mated { plies, .. }) if plies < rules.min => return false,
        _ => {}
    }
    rules.min < 3
        || !matches!(
            solver.mated_within(pos, rules.min - 2, &bounded),
            Ok(Within::Mated { .. })
        )
}

/// The puzzle `pos` (by `rules`, with the solution `line`) with the
/// pieces it does not need taken off: each piece in turn stays off when
/// the position without it is still a puzzle by `rules`. Most pieces are
/// needed, and the position without one has no mate or a shorter one:
/// [`may_be_puzzle`] says so before the judgement.
fn minimal(
    solver: &mut Solver,
    pos: Position,
    line: Vec<Move>,
    rules: PuzzleRules,
) -> (Position, Vec<Move>) {
    let (mut pos, mut line) = (pos, line);
    if let Some(mut sketch) = Sketch::from_position(&pos) {
        for sq in sketch.piece_squares() {
            let Some(smaller) = sketch.without(sq) else {
                continue;
            };
            let Some(p) = smaller.position() else {
                continue;
            };
            if may_be_puzzle(solver, &p, rules)
                && let Some(l) = judge(solver, &p, rules)
            {
                (sketch, pos, line) = (smaller, p, l);
            }
        }
    }
    (pos, line)
}

/// Checks a configuration.
fn check_config(config: &Config) -> Result<(), ConfigError> {
    if config.plies.is_multiple_of(2) {
        return Err(ConfigError::EvenPlies(config.plies));
    }
    if config.plies > MAX_PLIES {
        return Err(ConfigError::PliesOutOfRange(config.plies));
    }
    if config.jobs == 0 {
        return Err(ConfigError::NoJobs);
    }
    if config.nodes == 0 {
        return Err(ConfigError::NoNodes);
    }
    Ok(())
}

/// A thread pool of `jobs` threads.
fn pool(jobs: usize) -> Result<rayon::ThreadPool, ConfigError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| ConfigError::Threads(e.to_string()))
}

/// How far the workers run ahead of the first candidate not yet taken,
/// per thread: far enough that one slow candidate does not leave the
/// other threads waiting, near enough that little is thrown away when
/// the caller stops.
const WINDOW_PER_JOB: u64 = 16;

/// The candidates of a configuration, for the [`stream`] workers.
struct Candidates(Config);

impl stream::Work for Candidates {
    type Output = Option<Puzzle>;

    fn run(&self, index: u64) -> Option<Puzzle> {
        candidate(&self.0, index)
    }

    fn stop_flag(&self) -> Arc<AtomicBool> {
        SOLVER.with(|cell| {
            cell.borrow_mut()
                .get_or_insert_with(|| Solver::new(SOLVER_MB))
                .stop_flag()
        })
    }
}

/// The puzzles of a configuration, in order, without end (unless
/// [`Config::max_candidates`] is set): take as many as needed. A position
/// and its left-right mirror count as one: the second is dropped, as are
/// positions [`exclude`](Generator::exclude)d.
///
/// The candidates run on [`Config::jobs`] threads, started at the first
/// puzzle asked for; each thread takes the next candidate as soon as it
/// is done with one, within a window ahead of the puzzles handed out.
/// The puzzles come out in the order of the candidates' numbers, so they
/// are the same for any number of threads. Dropping the generator stops
/// the candidates still running.
pub struct Generator {
    stream: stream::Stream<Candidates>,
    seen: HashSet<u64>,
}

impl Generator {
    /// A generator, or why the configuration cannot run.
    pub fn new(config: Config) -> Result<Generator, ConfigError> {
        check_config(&config)?;
        let limit = config.max_candidates.unwrap_or(u64::MAX);
        let window = WINDOW_PER_JOB.saturating_mul(config.jobs as u64);
        Ok(Generator {
            stream: stream::Stream::new(Candidates(config), config.jobs, window, limit),
            seen: HashSet::new(),
        })
    }

    /// How many candidates have been tried so far (those whose puzzle, or
    /// lack of one, was looked at; not those run ahead).
    pub fn candidates(&self) -> u64 {
        self.stream.handed_out()
    }

    /// Leaves out `pos` and its mirror image (puzzles of a set made
    /// before, say).
    pub fn exclude(&mut self, pos: &Position) {
        self.seen.insert(variety::canonical_key(pos));
    }
}

impl Iterator for Generator {
    type Item = Puzzle;

    fn next(&mut self) -> Option<Puzzle> {
        loop {
            let Some(p) = self.stream.next()? else {
                continue;
            };
            if self.seen.insert(variety::canonical_key(&p.position)) {
                return Some(p);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: PuzzleRules = PuzzleRules {
        min: 1,
        max: 1,
        pieces_left: false,
        nodes: 50_000,
    };

    fn judged(sfen: &str, rules: PuzzleRules) -> Option<Vec<String>> {
        let pos: Position = sfen.parse().unwrap();
        let line = judge(&mut Solver::new(4), &pos, rules)?;
        Some(line.iter().map(|m| m.to_string()).collect())
    }

    #[test]
    fn judge_holds_puzzles_to_the_rules() {
        // Sound: G*5b, and no other check mates.
        let sound = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
        assert_eq!(judged(sound, RULES), Some(vec!["G*5b".to_string()]));
        // Not of the asked length.
        let three = PuzzleRules {
            min: 3,
            max: 3,
            ..RULES
        };
        assert_eq!(judged(sound, three), None);
        // A gold left in hand (駒余り): refused, unless allowed.
        let left = "4k4/9/4P4/9/9/9/9/9/9 b 2G2r2b2g4s4n4l17p 1";
        assert_eq!(judged(left, RULES), None);
        let games = PuzzleRules {
            pieces_left: true,
            ..RULES
        };
        assert_eq!(judged(left, games), Some(vec!["G*5b".to_string()]));
        // Two mates in one (G*5b, and the gold on 4c by 4c5b): refused.
        let two = "4k4/9/4PG3/9/9/9/9/9/9 b G2r2b2g4s4n4l17p 1";
        assert_eq!(judged(two, games), None);
    }

    #[test]
    fn finishing_takes_off_what_is_not_needed() {
        // The pawn on 1i plays no part.
        let pos: Position = "4k4/9/4P4/9/9/9/9/9/8P b G2r2b3g4s4n4l16p 1"
            .parse()
            .unwrap();
        let p = finish(&mut Solver::new(4), pos, RULES, 0, 0).unwrap();
        assert_eq!(
            p.position.to_string(),
            "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"
        );
        assert_eq!(p.moves.len(), 1);
        assert_eq!(p.tags, [Tag::Drop, Tag::DropMate]);
    }
}
