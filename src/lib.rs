//! `tsume`: a tsume-shogi (shogi mate problem) solver.
//!
//! The crate is built in floors: [`core`] holds the rules of shogi (board,
//! SFEN, exact move generation); [`solver`] is the mate search over it and
//! reads the tsume-shogi answer; [`verify`] checks composed problems with
//! the solver; [`generate`] makes training puzzles with both.

pub mod core;
pub mod generate;
pub mod solver;
pub mod verify;
