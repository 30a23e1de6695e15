//! Move generation: all legal moves, checking moves only (for the attacker
//! of a mate search), and evasions (when in check).
//!
//! Every generator returns legal moves only. Non-promoting moves of pawns,
//! bishops and rooks are generated wherever the rules allow them.
//!
//! ```
//! use tsume::core::{movegen, Position};
//! let pos = Position::startpos();
//! assert_eq!(movegen::legal_moves(&pos).len(), 30);
//!
//! let tsume: Position = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1".parse().unwrap();
//! let checks = movegen::check_moves(&tsume);
//! assert!(checks.iter().all(|&m| tsume.gives_check(m)));
//! ```

mod checks;
mod evasions;
mod legal;
mod list;
mod sink;

pub use checks::generate_checks;
pub use evasions::{count_king_evasions, generate_evasions};
pub use legal::{count_legal, generate_legal};
pub use list::MoveList;

use super::{Move, Position};

/// All legal moves.
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    list
}

/// The legal moves that give check.
pub fn check_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_checks(pos, &mut list);
    list
}

/// The legal moves when in check (empty when not in check).
pub fn evasion_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    if pos.in_check() {
        generate_evasions(pos, &mut list);
    }
    list
}

/// Whether the side to move has at least one legal move.
pub fn has_legal_move(pos: &Position) -> bool {
    // Generating the list is cheap next to everything around it; an early
    // exit version lives in the evasion generator for the common case.
    if pos.in_check() {
        evasions::has_evasion(pos)
    } else {
        !legal_moves(pos).is_empty()
    }
}

/// Whether the side to move is checkmated (in check with no legal move).
pub fn is_checkmate(pos: &Position) -> bool {
    pos.in_check() && !evasions::has_evasion(pos)
}

/// A checking move of the side to move that mates at once, if there is one.
pub fn mate_in_one(pos: &Position) -> Option<Move> {
    let checks = check_moves(pos);
    let mut p = pos.clone();
    for &m in checks.iter() {
        if pos.king_can_step_out_after(m) {
            continue;
        }
        let undo = p.do_move(m);
        let mate = !evasions::has_evasion(&p);
        p.undo_move(m, undo);
        if mate {
            return Some(m);
        }
    }
    None
}
