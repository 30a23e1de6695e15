//! Reading a mating line out of a proven search.
//!
//! Every proven table entry carries the length of the mate it proved. The
//! reader walks down with a budget of plies: at the attacker's turn it
//! follows a proven check whose mate fits in the budget less one (shortest
//! known first); at the defender's turn every evasion must fit, and it
//! follows the longest (where the table lost what is under the longest, no
//! shorter one stands in for it: the line would show the defender giving up
//! early). The budget shrinks by one each ply, so the line
//! ends even when later searches replaced entries with others. Where the
//! table lost an entry, or holds one that does not fit, that position is
//! searched again with lines cut at the budget. A move back into a position
//! already on the line is never taken.
//!
//! This is a sound mate, not yet the tsume-shogi solution: checks the
//! search never proved are not looked at, and every interposition counts.

use hashbrown::{HashMap, HashSet};

use crate::core::movegen::{MoveList, generate_checks, generate_evasions, has_legal_move};
use crate::core::{Move, Position};

use super::mode::{Counting, MAX_PLY as MAX_LINE, Mode};
use super::repetition::extend_path;
use super::search::{STACK_RED_ZONE, STACK_SEGMENT, Search};

/// Lines are read from the plain search's results.
const PLAIN: Counting = Counting::Plain;

struct Walker<'s, 'a> {
    search: &'s mut Search<'a>,
    /// Mate length and best move of positions already read.
    memo: HashMap<u64, (u32, Option<Move>)>,
    /// Positions on the current line.
    path: HashSet<u64>,
    /// Whether positions the table lost may be searched again.
    research: bool,
    /// The largest budget each position is known to fail within (a larger
    /// budget can only help, a smaller one cannot).
    failed: HashMap<u64, u32>,
    /// Positions read so far, and the most a walk over the table alone
    /// may read (it watches no clock, so it gets a fixed allowance).
    steps: u64,
    max_steps: u64,
}

/// Positions a walk over the table alone may read: generous next to any
/// line, small next to a search.
const TABLE_WALK_STEPS: u64 = 200_000;

/// The length the table gives `root` to read its line within (1 when its
/// entry is open: an open entry's length field is no length, see
/// `tt::open_len`).
fn proven_len(search: &Search, root: &Position) -> u32 {
    search
        .probe(PLAIN, root)
        .map_or(MAX_LINE, |p| {
            if p.pn != 0 && p.dn != 0 {
                0
            } else {
                p.len as u32
            }
        })
        .clamp(1, MAX_LINE)
}

/// The mating line from `root`, proven in `search`'s table; `None` when a
/// limit stopped the re-search of a lost entry.
///
/// Short budgets are tried first over the table alone (cheap, and they find
/// short lines the search proved on the side); the last try uses the
/// length the root was proven with, and searches again where needed.
pub(crate) fn extract(search: &mut Search, root: &Position, shortest: bool) -> Option<Vec<Move>> {
    let proven_len = proven_len(search, root);
    if shortest && let Some(line) = shortest_by_bounded_search(search, root, proven_len) {
        return Some(line);
    }
    // Over the table alone, short budgets first, then the proven length.
    let mut budget = 1;
    loop {
        let mut walker = Walker::new(search, false);
        if let Some(line) = walker.line(root, budget.min(proven_len)) {
            return Some(line);
        }
        if budget >= proven_len {
            break;
        }
        budget = budget * 2 + 1;
    }
    // The proven length, searching again where the table lost entries;
    // then, should the entries not fit together on this line, searches
    // from the root for a mate within a growing bound.
    budget = proven_len;
    loop {
        let mut walker = Walker::new(search, true);
        if let Some(line) = walker.line(root, budget) {
            return Some(line);
        }
        if search.aborted.is_some() || budget >= MAX_LINE {
            return None;
        }
        budget = (budget * 2 + 1).min(MAX_LINE);
        let mut pos = root.clone();
        let key = pos.key();
        search.reps.clear();
        search.reps.push(pos.board_key(), pos.hand(search.attacker));
        search.search_root(Mode::within(PLAIN, budget), &mut pos, key);
        search.reps.pop();
    }
}

/// Searches from the root for a mate within 1, 3, 5, ... plies, up to the
/// proven length, within a node budget of about what the main search
/// took: the first bound that is proven gives the length of the shortest
/// mate (every interposition counted), and its line is read with that
/// budget. `None` when the budget runs out first.
fn shortest_by_bounded_search(
    search: &mut Search,
    root: &Position,
    proven_len: u32,
) -> Option<Vec<Move>> {
    let start = search.nodes;
    let allowance = start.saturating_add(20_000);
    let user_limit = search.node_limit;
    let mut bound = 1;
    let mut result = None;
    while bound < proven_len {
        let spent = search.nodes - start;
        if spent >= allowance || search.aborted.is_some() {
            break;
        }
        search.node_limit = user_limit.min(search.nodes + (allowance - spent));
        let mut pos = root.clone();
        let key = pos.key();
        search.reps.clear();
        search.reps.push(pos.board_key(), pos.hand(search.attacker));
        let r = search.search_root(Mode::within(PLAIN, bound), &mut pos, key);
        search.reps.pop();
        let proven = r.pn == 0;
        if proven {
            let mut walker = Walker::new(&mut *search, true);
            result = walker.line(root, bound);
        }
        if search.aborted == Some(super::Limit::Nodes) && search.nodes < user_limit {
            // Our own allowance ran out, not the caller's limit.
            search.aborted = None;
            break;
        }
        if proven {
            break;
        }
        bound += 2;
    }
    search.node_limit = user_limit;
    result
}

impl<'s, 'a> Walker<'s, 'a> {
    /// A walker that may search lost entries again (`research`, under the
    /// search's limits) or reads the table alone (a fixed allowance).
    fn new(search: &'s mut Search<'a>, research: bool) -> Walker<'s, 'a> {
        Walker {
            search,
            memo: HashMap::new(),
            path: HashSet::new(),
            research,
            failed: HashMap::new(),
            steps: 0,
            max_steps: if research { u64::MAX } else { TABLE_WALK_STEPS },
        }
    }

    /// A line from `root` within `budget` plies.
    fn line(&mut self, root: &Position, budget: u32) -> Option<Vec<Move>> {
        let mut pos = root.clone();
        self.search.reps.clear();
        let key = pos.key();
        self.path.insert(key);
        self.search
            .reps
            .push(pos.board_key(), pos.hand(self.search.attacker));
        let v = self.value(&mut pos, key, budget);
        self.search.reps.pop();
        v?;
        let mut moves = Vec::new();
        let mut p = root.clone();
        while let Some(&(_, Some(m))) = self.memo.get(&p.key()) {
            if moves.len() as u32 > budget {
                return None;
            }
            p.do_move(m);
            moves.push(m);
        }
        Some(moves)
    }

    /// The length of a mate of `pos` within `budget` plies over the proven
    /// tree, or `None`.
    fn value(&mut self, pos: &mut Position, path_hash: u64, budget: u32) -> Option<u32> {
        let key = pos.key();
        if let Some(&(v, _)) = self.memo.get(&key)
            && v <= budget
        {
            return Some(v);
        }
        if self.failed.get(&key).is_some_and(|&b| budget <= b) {
            return None;
        }
        // Walks over the table alone have an allowance of their own instead
        // of the search limits: a mate already proven is reported with a
        // line even when a limit stopped the search for a shorter one.
        self.steps += 1;
        if self.steps > self.max_steps {
            return None;
        }
        if self.research {
            self.search.count_node();
            if self.search.aborted.is_some() {
                return None;
            }
        }
        let or_node = pos.side_to_move() == self.search.attacker;
        let mut list = MoveList::new();
        let result = if or_node {
            if budget == 0 {
                return None;
            }
            generate_checks(pos, &mut list);
            self.value_or(pos, &list, path_hash, budget)
        } else {
            generate_evasions(pos, &mut list);
            if list.is_empty() {
                Some((0, None))
            } else if budget == 0 {
                None
            } else {
                self.value_and(pos, &list, path_hash, budget)
            }
        };
        let Some((v, m)) = result else {
            let b = self.failed.entry(key).or_insert(0);
            *b = (*b).max(budget);
            return None;
        };
        self.memo.insert(key, (v, m));
        Some(v)
    }

    fn value_or(
        &mut self,
        pos: &mut Position,
        list: &MoveList,
        path_hash: u64,
        budget: u32,
    ) -> Option<(u32, Option<Move>)> {
        for attempt in 0..2 {
            let mut proven: Vec<(u16, Move)> = Vec::new();
            for &m in list.iter() {
                let steps_out = pos.king_can_step_out_after(m);
                let undo = pos.do_move(m);
                let key = pos.key();
                let len = if self.path.contains(&key) {
                    None
                } else {
                    match self.search.probe(PLAIN, pos) {
                        Some(p) => (p.pn == 0).then_some(p.len),
                        // A mate found one ply ahead leaves the mated
                        // position out of the table.
                        None => (!steps_out && !has_legal_move(pos)).then_some(0),
                    }
                };
                pos.undo_move(m, undo);
                if let Some(len) = len
                    && (len as u32) < budget
                {
                    proven.push((len, m));
                }
            }
            proven.sort_by_key(|&(len, _)| len);
            for (_, m) in proven {
                if let Some(v) = self.child_value(pos, m, path_hash, budget - 1) {
                    return Some((v + 1, Some(m)));
                }
            }
            if attempt == 1 || !self.research || self.search.aborted.is_some() {
                break;
            }
            self.research(pos, path_hash, budget);
        }
        None
    }

    fn value_and(
        &mut self,
        pos: &mut Position,
        list: &MoveList,
        path_hash: u64,
        budget: u32,
    ) -> Option<(u32, Option<Move>)> {
        // Every evasion must be proven to mate within the budget left
        // (searched again where the table lost it); the line follows the
        // one with the longest known mate.
        let mut candidates: Vec<(u16, Move)> = Vec::with_capacity(list.len());
        for &m in list.iter() {
            let len = match self.proven_len_after(pos, m, budget - 1) {
                Some(len) => len,
                None if !self.research => return None,
                None => {
                    let undo = pos.do_move(m);
                    let key = pos.key();
                    let on_path = self.path.contains(&key);
                    if !on_path {
                        self.search
                            .reps
                            .push(pos.board_key(), pos.hand(self.search.attacker));
                        self.research(pos, extend_path(path_hash, key), budget - 1);
                        self.search.reps.pop();
                    }
                    pos.undo_move(m, undo);
                    if on_path {
                        return None;
                    }
                    self.proven_len_after(pos, m, budget - 1)?
                }
            };
            candidates.push((len, m));
        }
        // Where the longest claim cannot be walked (the table lost or
        // replaced entries under it), a shorter evasion would still end in
        // mate but would show the defender giving up early: another evasion
        // is taken only if its line lasts as long as the claim that failed.
        candidates.sort_by_key(|&(len, _)| std::cmp::Reverse(len));
        let mut floor = 0;
        for (len, m) in candidates {
            if u32::from(len) < floor {
                break;
            }
            match self.child_value(pos, m, path_hash, budget - 1) {
                Some(v) if v >= floor => return Some((v + 1, Some(m))),
                _ => floor = floor.max(u32::from(len)),
            }
        }
        None
    }

    /// The length of the proven mate after `m`, when the table holds one
    /// within `budget` and the position is not on the line.
    fn proven_len_after(&mut self, pos: &mut Position, m: Move, budget: u32) -> Option<u16> {
        if self.research {
            self.search.count_node();
        }
        let undo = pos.do_move(m);
        let key = pos.key();
        let r = if self.path.contains(&key) {
            None
        } else {
            self.search
                .probe(PLAIN, pos)
                .filter(|p| p.pn == 0 && p.len as u32 <= budget)
                .map(|p| p.len)
        };
        pos.undo_move(m, undo);
        r
    }

    /// Searches `pos` again on the current line, with lines cut at `budget`
    /// plies.
    fn research(&mut self, pos: &mut Position, path_hash: u64, budget: u32) {
        self.search
            .search_root(Mode::within(PLAIN, budget), pos, path_hash);
    }

    /// The value of the position after `m` within `budget`, if it is not on
    /// the line and (for a defender to move) the table holds it proven.
    fn child_value(
        &mut self,
        pos: &mut Position,
        m: Move,
        path_hash: u64,
        budget: u32,
    ) -> Option<u32> {
        let undo = pos.do_move(m);
        let key = pos.key();
        let v = if self.path.contains(&key) {
            None
        } else if let Some(&(v, _)) = self.memo.get(&key)
            && v <= budget
        {
            Some(v)
        } else {
            let usable = pos.side_to_move() == self.search.attacker
                || match self.search.probe(PLAIN, pos) {
                    Some(p) => p.pn == 0 && p.len as u32 <= budget,
                    // Mated where it stands (found one ply ahead, so not
                    // in the table).
                    None => !has_legal_move(pos),
                };
            if usable {
                self.path.insert(key);
                self.search
                    .reps
                    .push(pos.board_key(), pos.hand(self.search.attacker));
                let v = stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || {
                    self.value(pos, extend_path(path_hash, key), budget)
                });
                self.search.reps.pop();
                self.path.remove(&key);
                v
            } else {
                None
            }
        };
        pos.undo_move(m, undo);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Color, Hand};
    use crate::solver::node::NodeResult;
    use crate::solver::tt::open_len;

    /// Where the table lost the entries under the defence that lasts
    /// longest, the walk over the table alone must not fall back on a
    /// shorter defence (a mate still, but one that shows the defender
    /// giving up early and gives the wrong length); the walk that searches
    /// again reads the long defence.
    #[test]
    fn a_lost_long_defence_is_not_replaced_by_a_shorter_one() {
        use crate::solver::search::At;
        let root: Position = "9/9/9/1+P1+B5/1p2S4/+pn7/1k2G4/s8/+l1L+p1+B3 b 3G2r2s3n2l14p 1"
            .parse()
            .unwrap();
        let mut solver = crate::solver::Solver::new(16);
        let salt = crate::solver::out_of_play_salt(&root);
        let mut search = solver.search(Color::Black, salt, 10_000_000, None);
        let mut pos = root.clone();
        search.reps.clear();
        search
            .reps
            .push(pos.board_key(), search.attacker_hand(&pos));
        let at = At {
            mode: Mode::unbounded(PLAIN),
            path: pos.key(),
            ply: 0,
        };
        assert_eq!(search.root_mid(&mut pos, at).pn, 0);
        // The evasions of a defender to move, by the length the table
        // proves them with, longest first.
        let claims = |search: &Search, pos: &Position| {
            let mut list = MoveList::new();
            generate_evasions(pos, &mut list);
            let mut claims: Vec<(u16, Move)> = list
                .iter()
                .map(|&m| {
                    let probe = search.probe(PLAIN, &pos.after(m)).expect("evasion proven");
                    assert_eq!(probe.pn, 0);
                    (probe.len, m)
                })
                .collect();
            claims.sort_by_key(|&(len, _)| std::cmp::Reverse(len));
            claims
        };
        // The first defender to move on the line whose evasions' claims
        // differ.
        let line = extract(&mut search, &root, false).unwrap();
        let mut found = None;
        for (i, &m) in line.iter().enumerate() {
            if i % 2 == 1 {
                let c = claims(&search, &pos);
                if c.len() > 1 && c[1].0 < c[0].0 {
                    found = Some(c[0]);
                    break;
                }
            }
            pos.do_move(m);
        }
        let (longest, long_move) = found.unwrap();
        let budget = u32::from(longest) + 1;
        let whole = Walker::new(&mut search, false).line(&pos, budget).unwrap();
        assert_eq!(whole[0], long_move);
        // Lose the positions the attacker's checks lead to after the long
        // defence.
        let after = pos.after(long_move);
        let mut checks = MoveList::new();
        generate_checks(&after, &mut checks);
        for &m in checks.iter() {
            search
                .table
                .forget(after.after(m).board_key() ^ PLAIN.salt(salt));
        }
        let walked = Walker::new(&mut search, false).line(&pos, budget);
        assert_eq!(walked, None, "a shorter defence read instead");
        let line = extract(&mut search, &pos, false).unwrap();
        assert_eq!((line[0], line.len()), (long_move, whole.len()));
    }

    /// An open root entry left under a bound holds the plies its search
    /// had left in its length field: that is no length to read the line
    /// within, which starts at 1 as for any open entry.
    #[test]
    fn an_open_root_entry_gives_no_length_to_read_the_line_within() {
        let pos: Position = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"
            .parse()
            .unwrap();
        let mut solver = crate::solver::Solver::new(1);
        let salt = crate::solver::out_of_play_salt(&pos);
        let search = solver.search(Color::Black, salt, 1000, None);
        let hand = search.attacker_hand(&pos);
        let left = NodeResult {
            len: open_len(11),
            ..NodeResult::open(3, 7, hand)
        };
        let key = pos.board_key() ^ PLAIN.salt(salt);
        search.table.store(key, hand, left.record(None), 100);
        assert_eq!(proven_len(&search, &pos), 1);
        search.table.store(
            key,
            Hand::EMPTY,
            NodeResult::proven(Hand::EMPTY, 13).record(None),
            100,
        );
        assert_eq!(proven_len(&search, &pos), 13);
    }
}
