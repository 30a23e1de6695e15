//! Which defence the main line of the tsume answer follows.
//!
//! Today's rule: the defender plays the longest defence, and among equally
//! long ones the one after which the attacker ends with an empty hand
//! ([`DefenceChoice::Longest`], the default). A composer must then make
//! the main line the longest line; a side line that lasts longer (変長, a
//! longer variation) is a flaw.
//!
//! Older collections followed another convention. A problem's main line
//! ends with the attacker's hand empty, and a side line that lasts longer
//! but leaves the attacker pieces in hand (変長駒余り) does not make it the
//! main line: the defender resists longest among the defences after which
//! the attacker uses up every piece. Side lines longer by any number of
//! plies were published that way in the Edo period; later the allowance
//! shrank to four plies, then two, and today none.
//! [`DefenceChoice::EmptyHandFirst`] reads the main line by that
//! convention, which is what the published lines of a collection such as
//! 将棋無双 (1734) follow.
//!
//! # The convention, as this crate reads it
//!
//! At each defender's move of the main line, among the defences that count
//! (useless interpositions aside, by the rule in force):
//!
//! 1. the line after each defence is itself read by this convention;
//! 2. a defence whose line ends with the attacker's hand empty is preferred
//!    to any whose line ends with pieces in hand, however much longer;
//! 3. among those of the same kind, the longer line is preferred, and
//!    among equally long lines the one found first.
//!
//! The attacker still plays the shortest mate, measured by the longest
//! defence (a check is not shorter because its main line is), and among
//! equally short checks prefers one whose line ends with an empty hand.
//! So a line read by this convention is never longer than the tsume
//! answer, and differs from it only where the longest defence's line ends
//! with pieces in hand. The solver reads the tsume answer first; only when
//! its line ends with pieces in hand is the line read again by the
//! convention, reading at each defender's turn whose longest line leaves
//! pieces the shorter defences too, longest first.
//!
//! The dragon on 9a and the gold on 4a against the king on 3b: after 4a3a
//! 3b2b 3a2a the king's 2b1b lasts longest (the gold takes the lance on
//! 1a and the line ends with it in hand, 7 plies), while 2b3b is mated at
//! once with nothing left (5 plies):
//!
//! ```
//! use tsume::solver::DefenceChoice;
//! use tsume::{Outcome, Position, SolveOptions, Solver};
//! let pos: Position = "+R4G2l/6k2/4ppppp/9/9/9/9/9/9 b r2b3g4s4n3l13p 1".parse().unwrap();
//! let mut solver = Solver::new(16);
//! let mut line = |defence| {
//!     let r = solver.solve(&pos, &SolveOptions::default().defence(defence)).unwrap();
//!     match r.outcome {
//!         Outcome::Mate { moves } => moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
//!         other => panic!("{other:?}"),
//!     }
//! };
//! assert_eq!(line(DefenceChoice::Longest).join(" "), "4a3a 3b2b 3a2a 2b1b 2a1a 1b2b 9a2a");
//! assert_eq!(line(DefenceChoice::EmptyHandFirst).join(" "), "4a3a 3b2b 3a2a 2b3b 9a3a");
//! ```
//!
//! ```
//! use tsume::solver::defence::DefenceChoice;
//! assert_eq!(DefenceChoice::default(), DefenceChoice::Longest);
//! assert_eq!("empty-hand-first".parse(), Ok(DefenceChoice::EmptyHandFirst));
//! assert_eq!(DefenceChoice::EmptyHandFirst.to_string(), "empty-hand-first");
//! assert!("shortest".parse::<DefenceChoice>().is_err());
//! ```

use std::str::FromStr;

/// Which defence the main line follows (see the [module docs](self)).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum DefenceChoice {
    /// The longest defence; among equally long ones, one after which the
    /// attacker ends with an empty hand.
    #[default]
    Longest,
    /// The longest among the defences whose line ends with the attacker's
    /// hand empty, when there is one: a longer side line that leaves the
    /// attacker pieces in hand (変長駒余り) stays a side line, as in old
    /// collections.
    EmptyHandFirst,
}

impl DefenceChoice {
    /// Every choice, the default first.
    pub const ALL: [DefenceChoice; 2] = [DefenceChoice::Longest, DefenceChoice::EmptyHandFirst];

    /// A name for machine-readable output and command lines (what
    /// [`Display`](std::fmt::Display) writes and [`FromStr`] reads).
    pub fn name(self) -> &'static str {
        match self {
            DefenceChoice::Longest => "longest",
            DefenceChoice::EmptyHandFirst => "empty-hand-first",
        }
    }
}

impl std::fmt::Display for DefenceChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no [`DefenceChoice`]'s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownDefenceChoice(pub String);

impl std::fmt::Display for UnknownDefenceChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown choice of defence '{}' (expected longest or empty-hand-first)",
            self.0
        )
    }
}

impl std::error::Error for UnknownDefenceChoice {}

impl FromStr for DefenceChoice {
    type Err = UnknownDefenceChoice;

    fn from_str(s: &str) -> Result<DefenceChoice, UnknownDefenceChoice> {
        DefenceChoice::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| UnknownDefenceChoice(s.to_string()))
    }
}
