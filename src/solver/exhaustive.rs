//! A plain AND/OR search over the legal moves, independent of the df-pn
//! machinery (no table, no hands, no estimates): the reference the tests
//! hold the solver to on short problems.
//!
//! ```
//! use tsume::core::Position;
//! use tsume::solver::exhaustive::shortest_mate;
//! let pos: Position = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1".parse().unwrap();
//! assert_eq!(shortest_mate(&pos, 5), Some(1));
//! ```

use super::interposition::{
    DropInterpositions, UselessRule, checker_capture_horizon, set_aside, unused_piece_horizon,
};
use crate::core::movegen::{check_moves, evasion_moves};
use crate::core::{Move, Position, Square};

/// Whether the side to move mates within `plies` (odd counts make sense),
/// with a repeated position counted as a failure of the attacker.
pub fn mates_within(pos: &Position, plies: u32) -> bool {
    let mut p = pos.clone();
    let mut path = vec![p.key()];
    or_node(&mut p, plies, &mut path)
}

/// The length of the shortest mate of at most `max_plies`, if any.
pub fn shortest_mate(pos: &Position, max_plies: u32) -> Option<u32> {
    (1..=max_plies).step_by(2).find(|&d| mates_within(pos, d))
}

/// Whether the side to move, in check, is mated within `plies` more plies.
pub fn mated_within(pos: &Position, plies: u32) -> bool {
    let mut p = pos.clone();
    let mut path = vec![p.key()];
    and_node(&mut p, plies, &mut path)
}

fn or_node(pos: &mut Position, plies: u32, path: &mut Vec<u64>) -> bool {
    if plies == 0 {
        return false;
    }
    for &m in check_moves(pos).iter() {
        let undo = pos.do_move(m);
        let key = pos.key();
        let ok = !path.contains(&key) && {
            path.push(key);
            let r = and_node(pos, plies - 1, path);
            path.pop();
            r
        };
        pos.undo_move(m, undo);
        if ok {
            return true;
        }
    }
    false
}

fn and_node(pos: &mut Position, plies: u32, path: &mut Vec<u64>) -> bool {
    let evasions = evasion_moves(pos);
    if evasions.is_empty() {
        return pos.in_check();
    }
    if plies == 0 {
        return false;
    }
    for &m in evasions.iter() {
        let undo = pos.do_move(m);
        let key = pos.key();
        let ok = !path.contains(&key) && {
            path.push(key);
            let r = or_node(pos, plies - 1, path);
            path.pop();
            r
        };
        pos.undo_move(m, undo);
        if !ok {
            return false;
        }
    }
    true
}

/// Tsume counting (useless interpositions are not counted, see
/// [`super::interposition`]): whether the side to move mates within `plies`.
pub fn tsume_mates_within(pos: &Position, plies: u32) -> bool {
    tsume_mates_within_by(pos, plies, UselessRule::WithinOtherDefences, u64::MAX) == Some(true)
}

/// [`tsume_mates_within`] with useless drops judged by `rule`, visiting at
/// most `max_positions` positions: `None` when it would visit more.
///
/// ```
/// use tsume::core::Position;
/// use tsume::solver::exhaustive::tsume_mates_within_by;
/// use tsume::solver::interposition::UselessRule;
/// let pos: Position = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1".parse().unwrap();
/// assert_eq!(tsume_mates_within_by(&pos, 1, UselessRule::PieceUnused, 1000), Some(true));
/// ```
pub fn tsume_mates_within_by(
    pos: &Position,
    plies: u32,
    rule: UselessRule,
    max_positions: u64,
) -> Option<bool> {
    TsumeWalk::new(pos, max_positions, rule).mates_within(pos, plies)
}

/// Tsume counting: the length of the shortest mate of at most `max_plies`.
pub fn tsume_shortest_mate(pos: &Position, max_plies: u32) -> Option<u32> {
    tsume_shortest_mate_limited(pos, max_plies, u64::MAX)
        .ok()
        .flatten()
}

/// The exhaustive search would have visited more positions than it was
/// allowed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GaveUp;

/// [`tsume_shortest_mate`] visiting at most `max_positions` positions in
/// all: [`GaveUp`] when it would visit more. Nested useless-interposition
/// tests make the search grow far faster than the plain one where the
/// defender holds many pieces and the checks are long-range.
///
/// ```
/// use tsume::core::Position;
/// use tsume::solver::exhaustive::{GaveUp, tsume_shortest_mate_limited};
/// let pos: Position = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1".parse().unwrap();
/// assert_eq!(tsume_shortest_mate_limited(&pos, 5, 1000), Ok(Some(1)));
/// assert_eq!(tsume_shortest_mate_limited(&pos, 5, 1), Err(GaveUp));
/// ```
pub fn tsume_shortest_mate_limited(
    pos: &Position,
    max_plies: u32,
    max_positions: u64,
) -> Result<Option<u32>, GaveUp> {
    let mut walk = TsumeWalk::new(pos, max_positions, UselessRule::WithinOtherDefences);
    for d in (1..=max_plies).step_by(2) {
        if walk.mates_within(pos, d).ok_or(GaveUp)? {
            return Ok(Some(d));
        }
    }
    Ok(None)
}

/// Tsume counting: whether the side to move, in check, is mated within
/// `plies` more plies.
pub fn tsume_mated_within(pos: &Position, plies: u32) -> bool {
    tsume_mated_within_by(pos, plies, UselessRule::WithinOtherDefences, u64::MAX) == Some(true)
}

/// [`tsume_mated_within`] with useless drops judged by `rule`, visiting at
/// most `max_positions` positions: `None` when it would visit more.
pub fn tsume_mated_within_by(
    pos: &Position,
    plies: u32,
    rule: UselessRule,
    max_positions: u64,
) -> Option<bool> {
    TsumeWalk::new(pos, max_positions, rule).mated_within(pos, plies)
}

/// Nested useless-interposition tests, at most (as in the search).
const MAX_NEST: u32 = 8;

/// The exhaustive search by tsume counting: the path of positions, and the
/// positions it may still visit (at 0 it has given up, and every answer
/// is `false`).
struct TsumeWalk {
    path: Vec<u64>,
    left: u64,
    rule: UselessRule,
}

impl TsumeWalk {
    fn new(pos: &Position, max_positions: u64, rule: UselessRule) -> TsumeWalk {
        TsumeWalk {
            path: vec![pos.key()],
            left: max_positions,
            rule,
        }
    }

    /// Whether the side to move at `pos` mates within `plies`; `None` when
    /// the walk has given up.
    fn mates_within(&mut self, pos: &Position, plies: u32) -> Option<bool> {
        let mut p = pos.clone();
        let r = self.or(&mut p, plies, 0);
        (self.left > 0).then_some(r)
    }

    /// Whether the side to move at `pos`, in check, is mated within
    /// `plies`; `None` when the walk has given up.
    fn mated_within(&mut self, pos: &Position, plies: u32) -> Option<bool> {
        let mut p = pos.clone();
        let r = self.and(&mut p, plies, 0);
        (self.left > 0).then_some(r)
    }

    /// Counts a visit; false when none is left.
    fn visit(&mut self) -> bool {
        self.left = self.left.saturating_sub(1);
        self.left > 0
    }

    fn or(&mut self, pos: &mut Position, plies: u32, nest: u32) -> bool {
        if plies == 0 || !self.visit() {
            return false;
        }
        for &m in check_moves(pos).iter() {
            let undo = pos.do_move(m);
            let key = pos.key();
            let ok = !self.path.contains(&key) && {
                self.path.push(key);
                let r = self.and(pos, plies - 1, nest);
                self.path.pop();
                r
            };
            pos.undo_move(m, undo);
            if ok {
                return true;
            }
        }
        false
    }

    /// Whether the defender to move is mated within `plies`: every defence
    /// that is not a drop interposition within `plies - 1`; every drop
    /// interposition too, or useless against the base (the least bound
    /// those other defences are all mated within).
    fn and(&mut self, pos: &mut Position, plies: u32, nest: u32) -> bool {
        if !self.visit() {
            return false;
        }
        let evasions = evasion_moves(pos);
        if evasions.is_empty() {
            return pos.in_check();
        }
        let drops = if nest < MAX_NEST && self.rule != UselessRule::Never {
            DropInterpositions::of(pos)
        } else {
            DropInterpositions::NONE
        };
        let counted: Vec<Move> = evasions
            .iter()
            .copied()
            .filter(|&m| !drops.contains(m))
            .collect();
        for &m in &counted {
            if plies == 0 || !self.child_or(pos, m, plies - 1, nest) {
                return false;
            }
        }
        let mut base: Option<u32> = None;
        let checker = pos.checkers().lsb();
        for &m in evasions.iter().filter(|&&m| drops.contains(m)) {
            if plies > 0 && self.child_or(pos, m, plies - 1, nest) {
                continue;
            }
            if self.rule == UselessRule::CheckerCaptures {
                // 定義1: no base; the checker's captures alone.
                let undo = pos.do_move(m);
                let useless = self.taken_by_checker(pos, checker, m.to(), plies, nest);
                pos.undo_move(m, undo);
                if !useless {
                    return false;
                }
                continue;
            }
            let b = match base {
                Some(b) => b,
                None => {
                    let mut b = 0;
                    while b < plies
                        && !counted
                            .iter()
                            .all(|&c| b > 0 && self.child_or(pos, c, b - 1, nest))
                    {
                        b += 2;
                    }
                    let b = b.min(plies);
                    base = Some(b);
                    b
                }
            };
            let undo = pos.do_move(m);
            let useless = self.useless(pos, m.to(), b, nest)
                || (self.rule == UselessRule::PieceUnused
                    && self.unused_piece(pos, m.to(), plies, nest))
                || (self.rule == UselessRule::WithinOrChecker
                    && self.taken_by_checker(pos, checker, m.to(), plies, nest));
            pos.undo_move(m, undo);
            if !useless {
                return false;
            }
        }
        true
    }

    /// Whether the position after the defender's move `m` is mated within
    /// `plies` (not through a position already on the path).
    fn child_or(&mut self, pos: &mut Position, m: Move, plies: u32, nest: u32) -> bool {
        let undo = pos.do_move(m);
        let key = pos.key();
        let ok = !self.path.contains(&key) && {
            self.path.push(key);
            let r = self.or(pos, plies, nest);
            self.path.pop();
            r
        };
        pos.undo_move(m, undo);
        ok
    }

    /// Under [`UselessRule::PieceUnused`]: whether the drop interposition on
    /// `sq` just played (`pos`: attacker to move), not mated within the
    /// `plies` left where it was made, is useless because some capture of
    /// it is mated as quickly with the piece set aside as with it in hand
    /// (that mate looked for within bounds from `plies`, growing by two,
    /// up to [`unused_piece_horizon`]).
    fn unused_piece(&mut self, pos: &mut Position, sq: Square, plies: u32, nest: u32) -> bool {
        let Some(piece) = pos.piece_at(sq) else {
            return false;
        };
        for &x in check_moves(pos).iter().filter(|x| x.to() == sq) {
            let undo = pos.do_move(x);
            let mut with_piece = pos.clone();
            pos.undo_move(x, undo);
            let mut without = set_aside(&with_piece, piece.kind());
            for b in (plies..=unused_piece_horizon(nest, plies)).step_by(2) {
                if !self.nested_and(&mut with_piece, b, nest) {
                    continue;
                }
                if self.nested_and(&mut without, b, nest) {
                    return true;
                }
                break;
            }
        }
        false
    }

    /// [`Self::captured_by_checker`] for a drop met with `plies` left, by
    /// the checker at `checker` (none: not useless this way), within the
    /// rule's horizon.
    fn taken_by_checker(
        &mut self,
        pos: &mut Position,
        checker: Option<Square>,
        sq: Square,
        plies: u32,
        nest: u32,
    ) -> bool {
        let upto = checker_capture_horizon(nest, plies);
        checker.is_some_and(|c| self.captured_by_checker(pos, c, sq, upto, nest))
    }

    /// Under [`UselessRule::CheckerCaptures`]: whether the drop
    /// interposition on `sq` just played (`pos`: attacker to move; the
    /// check was given from `checker`) is useless because some capture of
    /// it by the checker leaves, with the piece set aside, a position mated
    /// within `upto` plies (looked for under growing bounds, the least
    /// first: a mate within fewer is one within more).
    fn captured_by_checker(
        &mut self,
        pos: &mut Position,
        checker: Square,
        sq: Square,
        upto: u32,
        nest: u32,
    ) -> bool {
        let Some(piece) = pos.piece_at(sq) else {
            return false;
        };
        for &x in check_moves(pos)
            .iter()
            .filter(|x| x.to() == sq && x.from() == Some(checker))
        {
            let undo = pos.do_move(x);
            let mut without = set_aside(pos, piece.kind());
            pos.undo_move(x, undo);
            if (upto % 2..=upto)
                .step_by(2)
                .any(|b| self.nested_and(&mut without, b, nest))
            {
                return true;
            }
        }
        false
    }

    /// Whether `q` (the defender to move) is mated within `plies`, as a
    /// nested test (not through a position on the path).
    fn nested_and(&mut self, q: &mut Position, plies: u32, nest: u32) -> bool {
        let key = q.key();
        if self.path.contains(&key) {
            return false;
        }
        self.path.push(key);
        let r = self.and(q, plies, nest + 1);
        self.path.pop();
        r
    }

    /// Whether the drop interposition on `sq` just played (`pos`: attacker
    /// to move) is useless when the other defences are mated within `base`
    /// plies.
    fn useless(&mut self, pos: &mut Position, sq: Square, base: u32, nest: u32) -> bool {
        let Some(piece) = pos.piece_at(sq) else {
            return false;
        };
        for &x in check_moves(pos).iter().filter(|x| x.to() == sq) {
            let undo = pos.do_move(x);
            let mut q0 = set_aside(pos, piece.kind());
            pos.undo_move(x, undo);
            let key = q0.key();
            if self.path.contains(&key) {
                continue;
            }
            self.path.push(key);
            let r = self.and(&mut q0, base, nest + 1);
            self.path.pop();
            if r {
                return true;
            }
        }
        false
    }
}
