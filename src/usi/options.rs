//! The engine's USI options: what `usi` announces, what `setoption` sets.
//!
//! ```
//! use tsume::usi::options::{EngineOptions, OptionError};
//! let mut options = EngineOptions::default();
//! options.set("USI_Hash", Some("64")).unwrap();
//! assert_eq!(options.hash_mb, 64);
//! options.set("ShortestAnswer", Some("false")).unwrap();
//! assert!(!options.shortest);
//! assert!(matches!(
//!     options.set("MateNodes", Some("-3")),
//!     Err(OptionError::NotANumber { .. })
//! ));
//! // `usi` announces each option with its type, default and range.
//! let announced = EngineOptions::announce();
//! assert!(announced.contains(&"option name USI_Hash type spin default 256 min 1 max 65536".to_string()));
//! ```

use std::fmt;

use crate::input::quote;

use crate::solver::defence::{DefenceChoice, UnknownDefenceChoice};
use crate::solver::interposition::{UnknownUselessRule, UselessRule};

/// The option values the engine searches with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// `USI_Hash`: the solver's table in megabytes (rebuilt at the next
    /// `isready` or search when it changes).
    pub hash_mb: usize,
    /// `USI_Ponder`: accepted; when on, `bestmove` names a ponder move.
    pub ponder: bool,
    /// `MateNodes`: stop a search after this many nodes (0: no limit).
    pub mate_nodes: u64,
    /// `Threads`: threads searching each position together (see
    /// [`crate::Solver::set_threads`]).
    pub threads: usize,
    /// `ShortestAnswer`: after the proof, read the tsume-shogi answer
    /// (shortest attack, longest defence, useless interpositions not
    /// counted); off: report the first proof's line at once.
    pub shortest: bool,
    /// `UselessRule`: which interpositions are useless (see
    /// [`crate::solver::interposition::UselessRule`]); by default
    /// [`usi_default_useless_rule`].
    pub useless_rule: UselessRule,
    /// `DefenceChoice`: which defence the answer's main line follows (see
    /// [`crate::solver::defence::DefenceChoice`]).
    pub defence: DefenceChoice,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            hash_mb: 256,
            ponder: false,
            mate_nodes: 0,
            threads: 1,
            shortest: true,
            useless_rule: usi_default_useless_rule(),
            defence: DefenceChoice::Longest,
        }
    }
}

/// The name of the rule the engine counts by unless told otherwise: every
/// interposition a defence, so that a mate ends in checkmate on the board
/// (what GUIs show and other mate engines answer).
pub const USI_DEFAULT_USELESS_RULE: &str = "none";

/// The rule named [`USI_DEFAULT_USELESS_RULE`] when the solver has it,
/// else the solver's default (tsume counting, as `tsume solve`).
pub fn usi_default_useless_rule() -> UselessRule {
    UselessRule::ALL
        .into_iter()
        .find(|r| r.name() == USI_DEFAULT_USELESS_RULE)
        .unwrap_or_default()
}

/// The type of a USI option, with its range.
#[derive(Copy, Clone, Debug)]
enum Kind {
    Spin {
        min: u64,
        max: u64,
    },
    Check,
    /// One of the rules for useless drops, by name.
    Rule,
    /// One of the choices of defence, by name.
    Defence,
}

/// The options, in the order `usi` announces them.
const SPECS: [(&str, Kind); 7] = [
    ("USI_Hash", Kind::Spin { min: 1, max: 65536 }),
    ("Threads", Kind::Spin { min: 1, max: 256 }),
    ("USI_Ponder", Kind::Check),
    (
        "MateNodes",
        Kind::Spin {
            min: 0,
            max: 2_000_000_000,
        },
    ),
    ("ShortestAnswer", Kind::Check),
    ("UselessRule", Kind::Rule),
    ("DefenceChoice", Kind::Defence),
];

/// A `setoption` the engine cannot take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    #[error(
        "unknown option `{0}` (the options are USI_Hash, Threads, USI_Ponder, MateNodes, ShortestAnswer, UselessRule, DefenceChoice)"
    )]
    Unknown(String),
    #[error("option {name} needs a value (`setoption name {name} value ...`)")]
    MissingValue { name: &'static str },
    #[error("option {name}: `{value}` is not a whole number from {min} to {max}")]
    NotANumber {
        name: &'static str,
        value: String,
        min: u64,
        max: u64,
    },
    #[error("option {name}: {value} is out of range, expected {min} to {max}")]
    OutOfRange {
        name: &'static str,
        value: u64,
        min: u64,
        max: u64,
    },
    #[error("option {name}: `{value}` is neither `true` nor `false`")]
    NotABool { name: &'static str, value: String },
    #[error("option {name}: {rule}")]
    NotARule {
        name: &'static str,
        rule: UnknownUselessRule,
    },
    #[error("option {name}: {choice}")]
    NotADefence {
        name: &'static str,
        choice: UnknownDefenceChoice,
    },
}

impl EngineOptions {
    /// The `option name ...` lines `usi` answers with (types, defaults,
    /// ranges).
    pub fn announce() -> Vec<String> {
        let defaults = EngineOptions::default();
        SPECS
            .iter()
            .map(|&(name, kind)| {
                let default = defaults.value(name);
                match kind {
                    Kind::Spin { min, max } => format!(
                        "option name {name} type spin default {default} min {min} max {max}"
                    ),
                    Kind::Check => format!("option name {name} type check default {default}"),
                    Kind::Rule => combo(name, &default, UselessRule::ALL.map(|r| r.name())),
                    Kind::Defence => combo(name, &default, DefenceChoice::ALL.map(|c| c.name())),
                }
            })
            .collect()
    }

    /// The current value of an option, as USI writes it.
    fn value(&self, name: &str) -> String {
        match name {
            "USI_Hash" => self.hash_mb.to_string(),
            "USI_Ponder" => self.ponder.to_string(),
            "MateNodes" => self.mate_nodes.to_string(),
            "Threads" => self.threads.to_string(),
            "UselessRule" => self.useless_rule.to_string(),
            "DefenceChoice" => self.defence.to_string(),
            _ => self.shortest.to_string(),
        }
    }

    /// Sets an option from `setoption name NAME value VALUE` (names are
    /// matched without regard to case). On error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        let Some(&(name, kind)) = SPECS.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)) else {
            return Err(OptionError::Unknown(quote(name)));
        };
        let value = value.ok_or(OptionError::MissingValue { name })?.trim();
        match kind {
            Kind::Spin { min, max } => {
                let n: u64 = value.parse().map_err(|_| OptionError::NotANumber {
                    name,
                    value: quote(value),
                    min,
                    max,
                })?;
                if n < min || n > max {
                    return Err(OptionError::OutOfRange {
                        name,
                        value: n,
                        min,
                        max,
                    });
                }
                match name {
                    "USI_Hash" => self.hash_mb = usize::try_from(n).unwrap_or(usize::MAX),
                    "Threads" => self.threads = usize::try_from(n).unwrap_or(1),
                    _ => self.mate_nodes = n,
                }
            }
            Kind::Check => {
                let b = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(OptionError::NotABool {
                            name,
                            value: quote(value),
                        });
                    }
                };
                match name {
                    "USI_Ponder" => self.ponder = b,
                    _ => self.shortest = b,
                }
            }
            Kind::Rule => {
                self.useless_rule = value.parse().map_err(|_| OptionError::NotARule {
                    name,
                    rule: UnknownUselessRule(quote(value)),
                })?;
            }
            Kind::Defence => {
                self.defence = value.parse().map_err(|_| OptionError::NotADefence {
                    name,
                    choice: UnknownDefenceChoice(quote(value)),
                })?;
            }
        }
        Ok(())
    }
}

/// The `usi` line of a combo option.
fn combo<const N: usize>(name: &str, default: &str, values: [&str; N]) -> String {
    let vars: Vec<String> = values.iter().map(|v| format!("var {v}")).collect();
    format!(
        "option name {name} type combo default {default} {}",
        vars.join(" ")
    )
}

impl fmt::Display for EngineOptions {
    /// Writes the values as the `setoption` commands that set them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (name, _)) in SPECS.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "setoption name {name} value {}", self.value(name))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_values_change_nothing_and_say_why() {
        let mut o = EngineOptions::default();
        let before = o.clone();
        let e = o.set("USI_Hash", Some("0")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "option USI_Hash: 0 is out of range, expected 1 to 65536"
        );
        let e = o.set("usi_hash", Some("lots")).unwrap_err();
        assert!(e.to_string().contains("`lots`"), "{e}");
        let e = o.set("ShortestAnswer", Some("yes")).unwrap_err();
        assert!(matches!(e, OptionError::NotABool { .. }), "{e}");
        let e = o.set("MateNodes", None).unwrap_err();
        assert_eq!(e, OptionError::MissingValue { name: "MateNodes" });
        let e = o.set("Threads", Some("0")).unwrap_err();
        assert!(matches!(e, OptionError::OutOfRange { value: 0, .. }), "{e}");
        let e = o.set("Hash", Some("4")).unwrap_err();
        assert_eq!(e, OptionError::Unknown("Hash".to_string()));
        assert_eq!(o, before);
    }

    /// EngineOptions set from the `setoption` commands `o` displays.
    fn replayed(o: &EngineOptions) -> EngineOptions {
        let mut back = EngineOptions::default();
        for line in o.to_string().lines() {
            let rest = line.strip_prefix("setoption name ").unwrap();
            let (name, value) = rest.split_once(" value ").unwrap();
            back.set(name, Some(value)).unwrap();
        }
        back
    }

    #[test]
    fn display_round_trips_through_set() {
        let mut o = EngineOptions::default();
        o.set("USI_Hash", Some("32")).unwrap();
        o.set("USI_Ponder", Some("true")).unwrap();
        o.set("matenodes", Some("1000")).unwrap();
        o.set("ShortestAnswer", Some("FALSE")).unwrap();
        assert_eq!(replayed(&o), o);
        assert_eq!(o.mate_nodes, 1000);
        assert!(o.ponder && !o.shortest);
        o.set("uselessrule", Some("piece-unused")).unwrap();
        assert_eq!(o.useless_rule, UselessRule::PieceUnused);
        let e = o.set("UselessRule", Some("unused")).unwrap_err();
        assert!(e.to_string().contains("'unused'"), "{e}");
        assert_eq!(o.useless_rule, UselessRule::PieceUnused);
        o.set("DefenceChoice", Some("empty-hand-first")).unwrap();
        assert_eq!(o.defence, DefenceChoice::EmptyHandFirst);
        let e = o.set("defencechoice", Some("shortest")).unwrap_err();
        assert!(e.to_string().contains("'shortest'"), "{e}");
        assert_eq!(o.defence, DefenceChoice::EmptyHandFirst);
        assert_eq!(replayed(&o), o);
    }

    /// The engine counts by the rule named `none` when the solver has it
    /// (every interposition a defence), else by the solver's default; the
    /// command line keeps the solver's default.
    #[test]
    fn the_default_rule_is_chosen_by_name() {
        let none = UselessRule::ALL
            .into_iter()
            .find(|r| r.name() == USI_DEFAULT_USELESS_RULE);
        assert_eq!(
            EngineOptions::default().useless_rule,
            none.unwrap_or(UselessRule::default())
        );
        let announced = EngineOptions::announce();
        let line = announced
            .iter()
            .find(|l| l.starts_with("option name UselessRule "))
            .unwrap();
        assert!(
            line.starts_with(&format!(
                "option name UselessRule type combo default {} ",
                EngineOptions::default().useless_rule.name()
            )),
            "{line}"
        );
        for rule in UselessRule::ALL {
            assert!(line.contains(&format!(" var {}", rule.name())), "{line}");
        }
    }

    #[test]
    fn the_default_rule_counts_every_interposition() {
        assert_eq!(EngineOptions::default().useless_rule.name(), "none");
    }
}
