//! Record files (KIF, KI2, CSA) as problems for `solve` and `verify`: a
//! file whose name ends in `.kif`, `.kifu`, `.ki2`, `.ki2u` or `.csa` is
//! read as a record; the problem is its start position and its moves are
//! the published solution.

use tsume::core::{Color, Position};
use tsume::record::{Format, Record};

/// Whether `text` (one argument) names a record file by its extension. An
/// SFEN or USI command never does (it has no `.`).
pub fn is_record_path(text: &str) -> bool {
    let t = text.trim();
    !t.contains(char::is_whitespace) && Format::from_path(t).is_some()
}

/// Reads the record file `path`; the error names the file and, for a bad
/// record, the line.
pub fn read_record(path: &str) -> Result<Record, String> {
    let path = path.trim();
    let format = Format::from_path(path)
        .ok_or_else(|| format!("{path}: not a record file (.kif, .kifu, .ki2, .ki2u, .csa)"))?;
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    Record::read(&bytes, format).map_err(|e| format!("{path}: {e}"))
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
