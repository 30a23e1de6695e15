//! `tsume`: a tsume-shogi (shogi mate problem) solver.
//!
//! The types most users need are here at the root: a [`Position`] read
//! from an SFEN, a [`Solver`] with its table, the [`SolveOptions`] of a
//! search (its [`Limits`] apart from its rules), and the [`SolveResult`]
//! with its [`Outcome`].
//!
//! ```
//! use tsume::{Outcome, Position, SolveOptions, Solver};
//!
//! // Black to play and mate: a gold dropped on 5b, guarded by the pawn.
//! let pos: Position = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1".parse()?;
//! let mut solver = Solver::new(16); // a table of at most 16 MB
//! let result = solver.solve(&pos, &SolveOptions::default().nodes(100_000))?;
//! match result.outcome {
//!     Outcome::Mate { moves } => {
//!         assert_eq!(moves.len(), 1);
//!         assert_eq!(moves[0].to_string(), "G*5b");
//!         assert!(result.exact); // the tsume answer, proven
//!     }
//!     Outcome::NoMate => println!("no mate"),
//!     Outcome::Unknown(limit) => println!("not decided: {limit}"),
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The crate is built in floors: [`core`] holds the rules of shogi (board,
//! SFEN, exact move generation); [`solver`] is the mate search over it and
//! reads the tsume-shogi answer; [`verify`] checks composed problems with
//! the solver; [`batch`] solves many problems on all cores; [`generate`]
//! makes training puzzles with both. [`record`] reads and writes game
//! and problem records (KIF, KI2, CSA); [`input`] reads problems as people
//! give them (positions as text, problem files, command-line words, record
//! files); [`output`] holds answers as the records the command line writes
//! and the Python package returns.

pub mod batch;
pub mod core;
pub mod generate;
pub mod input;
pub mod output;
pub mod record;
pub mod solver;
pub mod usi;
pub mod verify;

pub use crate::core::{Color, Move, Position, SfenError};
pub use crate::solver::{Limit, Limits, Outcome, SolveError, SolveOptions, SolveResult, Solver};
