//! `tsume`: a tsume-shogi (shogi mate problem) solver.
//!
//! The crate is built in floors: [`core`] holds the rules of shogi (board,
//! SFEN, exact move generation); the mate search and its uses stand on it.

pub mod core;
pub mod solver;
