//! `tsume`: a tsume-shogi (shogi mate problem) solver.
//!
//! The crate is built in floors: [`core`] holds the rules of shogi (board,
//! SFEN, exact move generation); [`solver`] is the mate search over it and
//! reads the tsume-shogi answer; [`verify`] checks composed problems with
//! the solver; [`batch`] solves many problems on all cores; [`generate`]
//! makes training puzzles with both. [`record`] reads and writes game
//! and problem records (KIF, KI2, CSA); [`input`] reads problems as people
//! give them (positions as text, problem files, command-line words, record
//! files).

pub mod batch;
pub mod core;
pub mod generate;
pub mod input;
pub mod record;
pub mod solver;
pub mod usi;
pub mod verify;
