//! Puzzles cut from real games: every position of a game where the side to
//! move has a forced mate of an allowed length with a unique solution, and
//! the shorter mates met along its solution.
//!
//! A game is one line: an SFEN, or a USI move list (`startpos moves 7g7f
//! ...`, `position sfen <SFEN> moves ...`, `sfen <SFEN> moves ...`); only
//! the first TAB-separated column counts, so problem files (`problems/*.tsv`)
//! and the generator's own output can be read too. Blank lines and lines
//! starting with `#` are skipped.
//!
//! Game positions are not tsume positions: the hands stay as the game has
//! them, the attacker may have a king, and may end the solution with pieces
//! in hand. The solution must still be unique (no alternative at any
//! attacker move, no side line as long).
//!
//! ```
//! use tsume::generate::games::{FromConfig, puzzles_from_games, read_games};
//! // A mate in 3, then two moves of it: the mate in 1 left is found twice
//! // (along the solution, then in the game), and written once.
//! let text = "6k2/8p/5+R1R1/5G3/9/9/9/9/9 b 2b3g4s4n4l17p 1 moves 2c3c+ 3a2a\n";
//! let games = read_games(text.as_bytes()).unwrap();
//! let config = FromConfig { min_plies: 1, max_plies: 3, ..FromConfig::default() };
//! let puzzles = puzzles_from_games(&games, &config).unwrap();
//! let lengths: Vec<usize> = puzzles.iter().map(|p| p.plies()).collect();
//! assert_eq!(lengths, [3, 1]);
//! ```

use std::str::FromStr;

use hashbrown::HashSet;
use rayon::prelude::*;

use super::{
    ConfigError, MAX_PLIES, Origin, Puzzle, PuzzleRules, answer, fresh_nodes, judge, pool,
    with_solver,
};
use crate::core::{Move, Position, UsiPosition, UsiPositionError};

/// A game: where it starts and the moves played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub start: Position,
    pub moves: Vec<Move>,
}

impl Game {
    /// The positions of the game, with the number of moves played to reach
    /// each.
    pub fn positions(&self) -> Vec<(usize, Position)> {
        let mut p = self.start.clone();
        let mut out = vec![(0, p.clone())];
        for (i, &m) in self.moves.iter().enumerate() {
            p.do_move(m);
            out.push((i + 1, p.clone()));
        }
        out
    }
}

impl FromStr for Game {
    type Err = UsiPositionError;

    /// Reads an SFEN or a USI move list (with or without `position`);
    /// text after a TAB is ignored.
    fn from_str(s: &str) -> Result<Game, UsiPositionError> {
        let first = s.split('\t').next().unwrap_or("");
        let usi: UsiPosition = first.parse()?;
        Ok(Game {
            start: usi.start,
            moves: usi.moves,
        })
    }
}

/// A line of a game file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    #[error("line {line}: not UTF-8 text (the bad byte is at column {column})")]
    Encoding { line: usize, column: usize },
    #[error("line {line}: {error}")]
    Game {
        line: usize,
        error: UsiPositionError,
    },
}

/// Reads games, one a line (see the module docs), each with its line
/// number (from 1). Every unreadable line is reported.
pub fn read_games(bytes: &[u8]) -> Result<Vec<(usize, Game)>, Vec<ReadError>> {
    let mut games = Vec::new();
    let mut errors = Vec::new();
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = i + 1;
        let text = match std::str::from_utf8(raw) {
            Ok(t) => t.trim_end_matches('\r'),
            Err(e) => {
                errors.push(ReadError::Encoding {
                    line,
                    column: e.valid_up_to() + 1,
                });
                continue;
            }
        };
        match read_game(line, text) {
            Ok(Some(g)) => games.push((line, g)),
            Ok(None) => {}
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(games)
    } else {
        Err(errors)
    }
}

/// The game on line `line` (its text, without the end of line): `None`
/// for a blank line or a `#` comment.
pub fn read_game(line: usize, text: &str) -> Result<Option<Game>, ReadError> {
    let trimmed = text.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return Ok(None);
    }
    text.parse::<Game>()
        .map(Some)
        .map_err(|error| ReadError::Game { line, error })
}

/// What to cut from games.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FromConfig {
    /// The shortest puzzle, in plies (odd or not: mates are odd).
    pub min_plies: u32,
    /// The longest puzzle.
    pub max_plies: u32,
    /// Nodes for each search.
    pub nodes: u64,
    /// Threads; the result does not depend on it.
    pub jobs: usize,
}

impl Default for FromConfig {
    fn default() -> FromConfig {
        FromConfig {
            min_plies: 3,
            max_plies: 15,
            nodes: 100_000,
            jobs: 1,
        }
    }
}

/// The puzzles of `games`, in the order of the games and their positions
/// (each position once: later copies are dropped). For each position with
/// a mate of at most `max_plies` plies: the position itself and the
/// positions along its solution where the attacker is to move, those whose
/// mate is within `min_plies..=max_plies` and unique.
pub fn puzzles_from_games(
    games: &[(usize, Game)],
    config: &FromConfig,
) -> Result<Vec<Puzzle>, ConfigError> {
    puzzles_from_games_with(games, config, &|_| {})
}

/// How far [`puzzles_from_games_with`] has gone, for a progress display:
/// it searches the games' positions for mates, then judges the candidates
/// cut from those mates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FromStep {
    /// The search of the positions starts: how many there are.
    Positions(usize),
    /// The judging of the candidates starts: how many there are.
    Candidates(usize),
    /// One more position searched, or candidate judged (from any thread).
    Done,
}

/// [`puzzles_from_games`], telling `progress` how far it has gone.
pub fn puzzles_from_games_with(
    games: &[(usize, Game)],
    config: &FromConfig,
    progress: &(dyn Fn(FromStep) + Sync),
) -> Result<Vec<Puzzle>, ConfigError> {
    let (min, max) = (config.min_plies, config.max_plies);
    if min > max || max == 0 || max > MAX_PLIES {
        return Err(ConfigError::BadRange { min, max });
    }
    if config.jobs == 0 {
        return Err(ConfigError::NoJobs);
    }
    if config.nodes == 0 {
        return Err(ConfigError::NoNodes);
    }
    let rules = PuzzleRules {
        min,
        max,
        pieces_left: true,
        nodes: config.nodes,
    };
    let positions: Vec<(usize, usize, Position)> = games
        .iter()
        .flat_map(|(line, g)| g.positions().into_iter().map(|(ply, p)| (*line, ply, p)))
        .collect();
    let pool = pool(config.jobs)?;
    progress(FromStep::Positions(positions.len()));
    // Mates in the games, and the positions along their solutions.
    let found: Vec<Vec<(Origin, Position)>> = pool.install(|| {
        positions
            .par_iter()
            .map(|(line, ply, pos)| {
                let _done = Done(progress);
                with_solver(|solver| {
                    let Some((moves, _)) = answer(solver, pos, config.nodes) else {
                        return Vec::new();
                    };
                    if moves.len() as u32 > max {
                        return Vec::new();
                    }
                    let mut out = Vec::new();
                    let mut p = pos.clone();
                    for (cut, &m) in moves.iter().enumerate() {
                        let left = (moves.len() - cut) as u32;
                        if cut % 2 == 0 && left >= min {
                            let origin = Origin::Game {
                                line: *line,
                                ply: *ply,
                                cut,
                            };
                            out.push((origin, p.clone()));
                        }
                        p.do_move(m);
                    }
                    out
                })
            })
            .collect()
    });
    let mut seen = HashSet::new();
    let candidates: Vec<(Origin, Position)> = found
        .into_iter()
        .flatten()
        .filter(|(_, p)| seen.insert(p.key()))
        .collect();
    progress(FromStep::Candidates(candidates.len()));
    let puzzles: Vec<Option<Puzzle>> = pool.install(|| {
        candidates
            .par_iter()
            .map(|(origin, pos)| {
                let _done = Done(progress);
                with_solver(|solver| {
                    let moves = judge(solver, pos, rules)?;
                    let nodes = fresh_nodes(solver, pos, rules.nodes);
                    Some(Puzzle::new(pos.clone(), moves, nodes, *origin))
                })
            })
            .collect()
    });
    Ok(puzzles.into_iter().flatten().collect())
}

/// Says [`FromStep::Done`] when dropped, whichever way the work returns.
struct Done<'a>(&'a (dyn Fn(FromStep) + Sync));

impl Drop for Done<'_> {
    fn drop(&mut self) {
        (self.0)(FromStep::Done);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_games_reports_lines() {
        let text = b"# games\nstartpos moves 7g7f 3c3d\n\nsfen 4k4/9/9/9/9/9/9/9/9 b G 1\tx\n";
        let games = read_games(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].0, 2);
        assert_eq!(games[0].1.moves.len(), 2);
        assert_eq!(games[0].1.positions().len(), 3);
        assert_eq!(games[1].0, 4);
        let bad = b"startpos moves 7g7f 7g7f\nstartpos\n4k4/9/9/9/9/9/9/9/9 q -\n\xff\xfe\n";
        let errors = read_games(bad).unwrap_err();
        assert_eq!(errors.len(), 3);
        let messages: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        assert!(messages[0].starts_with("line 1: move 2"), "{}", messages[0]);
        assert!(
            messages[1].starts_with("line 3: bad SFEN"),
            "{}",
            messages[1]
        );
        assert!(messages[1].contains("column 21"), "{}", messages[1]);
        assert_eq!(
            messages[2],
            "line 4: not UTF-8 text (the bad byte is at column 1)"
        );
    }
}
