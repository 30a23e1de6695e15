//! Reading a mating line out of a proven search: at the attacker's turn the
//! proven check with the shortest known mate, at the defender's turn the
//! evasion with the longest. Entries the table lost are searched again.
//! The line is only a sound mate, not yet the tsume-shogi solution.

use hashbrown::HashSet;

use crate::core::movegen::{MoveList, generate_checks, generate_evasions};
use crate::core::{Move, Position};

use super::repetition::extend_path;
use super::search::Search;
use super::tt::INF;

/// Longest line accepted.
const MAX_LINE: usize = 4000;

/// The mating line from `root`, proven in `search`'s table; `None` when a
/// limit stopped the re-search of a lost entry.
pub(crate) fn extract(search: &mut Search, root: &Position) -> Option<Vec<Move>> {
    let mut pos = root.clone();
    let mut moves = Vec::new();
    let mut seen = HashSet::new();
    let mut keys = vec![pos.key()];
    seen.insert(pos.key());
    search.reps.clear();
    search.reps.push(pos.key());
    let mut path = pos.key();
    let result = loop {
        if moves.len() > MAX_LINE || search.aborted.is_some() {
            break None;
        }
        let or_node = pos.side_to_move() == search.attacker;
        let mut list = MoveList::new();
        if or_node {
            generate_checks(&pos, &mut list);
        } else {
            generate_evasions(&pos, &mut list);
            if list.is_empty() {
                break Some(moves);
            }
        }
        match pick(search, &mut pos, &list, or_node, &seen, path) {
            Some(m) => {
                pos.do_move(m);
                let key = pos.key();
                path = extend_path(path, key);
                seen.insert(key);
                keys.push(key);
                search.reps.push(key);
                moves.push(m);
            }
            None => break None,
        }
    };
    for k in keys {
        search.reps.pop(k);
    }
    result
}

/// The move to follow from `pos`, searching again where the table lost a
/// result.
fn pick(
    search: &mut Search,
    pos: &mut Position,
    list: &MoveList,
    or_node: bool,
    seen: &HashSet<u64>,
    path: u64,
) -> Option<Move> {
    for attempt in 0..2 {
        let mut best: Option<(Move, u16)> = None;
        let mut missing = Vec::new();
        for &m in list.iter() {
            let undo = pos.do_move(m);
            let key = pos.key();
            let probe = if seen.contains(&key) {
                None
            } else {
                search.probe(pos)
            };
            pos.undo_move(m, undo);
            match probe {
                Some(p) if p.pn == 0 => {
                    let better = match best {
                        None => true,
                        Some((_, len)) => {
                            if or_node {
                                p.len < len
                            } else {
                                p.len > len
                            }
                        }
                    };
                    if better {
                        best = Some((m, p.len));
                    }
                }
                _ => missing.push(m),
            }
        }
        if or_node {
            if let Some((m, _)) = best {
                return Some(m);
            }
        } else if missing.is_empty() {
            return best.map(|(m, _)| m);
        }
        if attempt == 1 {
            return None;
        }
        // Search again: the OR node itself, or each unproven defence.
        if or_node {
            let r = search.mid(pos, path, INF, INF, 0);
            if r.pn != 0 {
                return None;
            }
        } else {
            for m in missing {
                let undo = pos.do_move(m);
                let key = pos.key();
                if seen.contains(&key) {
                    pos.undo_move(m, undo);
                    return None;
                }
                search.reps.push(key);
                let r = search.mid(pos, extend_path(path, key), INF, INF, 0);
                search.reps.pop(key);
                pos.undo_move(m, undo);
                if r.pn != 0 {
                    return None;
                }
            }
        }
    }
    None
}
