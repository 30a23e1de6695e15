//! The rules of shogi: squares, pieces, hands, bitboards and attack tables,
//! positions with SFEN and USI notation, and exact move generation.

pub mod attacks;
pub mod bitboard;
pub mod color;
pub mod game;
pub mod hand;
pub mod handicap;
pub mod impasse;
pub mod movegen;
pub mod mv;
pub mod perft;
pub mod piece;
pub mod position;
pub mod sfen;
pub mod square;
mod zobrist;

pub use bitboard::Bitboard;
pub use color::Color;
pub use hand::Hand;
pub use mv::{Move, ParseMoveError};
pub use piece::{Piece, PieceKind};
pub use position::{IllegalMove, Position, Undo};
pub use sfen::{MoveError, SfenError, UsiPosition, UsiPositionError};
pub use square::{ParseSquareError, Square};
