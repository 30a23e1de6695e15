//! Record files (KIF, KI2, CSA) as problems for `solve` and `verify`: a
//! file whose name ends in `.kif`, `.kifu`, `.ki2`, `.ki2u` or `.csa` is
//! read as a record (see [`tsume::input::read_record_file`]); the problem
//! is its start position and its moves are the published solution.

use tsume::core::{Color, Position};
use tsume::record::Record;

pub use tsume::input::is_record_path;

/// Reads the record file `path`; the error names the file and, for a bad
/// record, the line.
pub fn read_record(path: &str) -> Result<Record, String> {
    tsume::input::read_record_file(path.trim()).map_err(|e| e.to_string())
}

/// `pos` with the rest of the pieces in the defender's hand: the side not
/// to move, or the side to move when it defends (`defender_to_move`).
pub fn rest_to_defender(pos: Position, defender_to_move: bool) -> Position {
    let defender: Color = if defender_to_move {
        pos.side_to_move()
    } else {
        !pos.side_to_move()
    };
    pos.with_rest_in_hand(defender)
}
