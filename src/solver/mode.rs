//! What one search asks: how it counts the defender's moves, and how far it
//! looks. A [`Mode`] is a value handed down the search; a nested question
//! (the base of a drop, a useless test, a plain search from a tsume one) is
//! a search under another mode, never a mode switched and switched back.
//!
//! Each way of counting has its own table namespace ([`Counting::salt`]):
//! results under one count are not results under another. That includes a
//! rule's count inside a useless test or a drop's base where its tests look
//! less far than at the question asked ([`Counting::TsumeNested`]). Tsume counting
//! also reads the plain namespace ([`Counting::fallback`]), where a proof,
//! or a disproof that never relies on a drop between checker and king,
//! holds as well (see [`super::interposition`]).

use crate::core::Position;

use super::interposition::{
    DropInterpositions, Ignored, UselessRule, counted_evasions, has_counted_evasion,
};
use super::node::NodeResult;

/// Lines are cut at this many plies from the root, with or without a
/// length bound (the longest line the solver reads).
pub(crate) const MAX_PLY: u32 = 3000;

/// How the defender's moves are counted.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Counting {
    /// Every evasion is a defence.
    Plain,
    /// Tsume counting: drops between checker and king that are useless by
    /// the rule are mated without being counted.
    Tsume(UselessRule),
    /// The same inside a useless test or a drop's base, for a rule whose
    /// tests look no further there than the enclosing search
    /// ([`UselessRule::horizon_depends_on_nesting`]): a drop may count
    /// there and be useless at the question asked, so the answers differ
    /// and so do the namespaces ([`Counting::nested`]).
    TsumeNested(UselessRule),
    /// The interpositions [`Ignored`] leaves out do not exist: a defender
    /// left with none of its other moves is mated.
    Ignoring(Ignored),
}

/// The table namespaces, mixed into the board key of every entry.
const TSUME_SALT: u64 = 0x7a3c_91e5_0b6d_2f48;
/// Added to [`TSUME_SALT`] for tsume counting by [`UselessRule::PieceUnused`].
const PIECE_UNUSED_SALT: u64 = 0x61e2_d04b_7f39_c815;
/// Added to [`TSUME_SALT`] for tsume counting by
/// [`UselessRule::CheckerCaptures`]: its lengths are not those of either
/// other rule (a drop may count by one and not by another, either way).
const CHECKER_CAPTURES_SALT: u64 = 0x2c97_b3e1_58a0_4d6f;
/// Added to [`TSUME_SALT`] for tsume counting by
/// [`UselessRule::WithinOrChecker`].
const WITHIN_OR_CHECKER_SALT: u64 = 0x4b8e_17d3_c06a_925f;
/// Added to a rule's salt for [`Counting::TsumeNested`].
const NESTED_SALT: u64 = 0x3c5a_9e17_d2b4_6f08;
const IGNORED_DROPS_SALT: u64 = 0x3d1f_6a2c_94e8_b570;
const IGNORED_ALL_SALT: u64 = 0x58c4_0e97_2b1d_a36e;

impl Counting {
    /// The count of a tsume answer by `rule`: plain when no drop is ever
    /// useless.
    pub fn of_rule(rule: UselessRule) -> Counting {
        match rule {
            UselessRule::Never => Counting::Plain,
            rule => Counting::Tsume(rule),
        }
    }

    /// The drops between checker and king at `pos` that this count may
    /// leave out as useless (none when every interposition counts).
    #[inline]
    pub fn judged_drops(self, pos: &Position) -> DropInterpositions {
        if self.is_tsume() {
            DropInterpositions::of(pos)
        } else {
            DropInterpositions::NONE
        }
    }

    /// Whether the side to move at `pos` (in check) has a defence that
    /// always counts under this count: anything but a judged drop.
    #[inline]
    pub fn has_counted_evasion(self, pos: &Position) -> bool {
        if self.is_tsume() {
            has_counted_evasion(pos)
        } else {
            !counted_evasions(pos, self.ignored()).is_empty()
        }
    }

    /// The namespace of this counting's results: `base` (the problem's key,
    /// see [`super::out_of_play_salt`]) mixed with the counting's own salt.
    #[inline(always)]
    pub fn salt(self, base: u64) -> u64 {
        base ^ match self {
            Counting::Plain | Counting::Ignoring(Ignored::Nothing) => 0,
            Counting::Tsume(UselessRule::WithinOtherDefences) => TSUME_SALT,
            Counting::Tsume(UselessRule::PieceUnused) => TSUME_SALT ^ PIECE_UNUSED_SALT,
            Counting::Tsume(UselessRule::CheckerCaptures) => TSUME_SALT ^ CHECKER_CAPTURES_SALT,
            Counting::Tsume(UselessRule::WithinOrChecker) => TSUME_SALT ^ WITHIN_OR_CHECKER_SALT,
            // Never built (see `of_rule`): the plain count's.
            Counting::Tsume(UselessRule::Never) => 0,
            Counting::TsumeNested(rule) => Counting::Tsume(rule).salt(0) ^ NESTED_SALT,
            Counting::Ignoring(Ignored::Drops) => IGNORED_DROPS_SALT,
            Counting::Ignoring(Ignored::All) => IGNORED_ALL_SALT,
        }
    }

    /// A counting whose final results are read here too, where this one
    /// has none: the plain count's, under tsume counting.
    #[inline(always)]
    pub fn fallback(self) -> Option<Counting> {
        match self {
            Counting::Tsume(_) | Counting::TsumeNested(_) => Some(Counting::Plain),
            _ => None,
        }
    }

    /// This count inside a useless test or a drop's base.
    #[inline(always)]
    pub fn nested(self) -> Counting {
        match self {
            Counting::Tsume(rule) if rule.horizon_depends_on_nesting() => {
                Counting::TsumeNested(rule)
            }
            counting => counting,
        }
    }

    /// Whether drops between checker and king are judged (useless ones
    /// mated, not counted).
    #[inline(always)]
    pub fn is_tsume(self) -> bool {
        matches!(self, Counting::Tsume(_) | Counting::TsumeNested(_))
    }

    /// The rule useless drops are judged by, under tsume counting.
    #[inline(always)]
    pub fn rule(self) -> Option<UselessRule> {
        match self {
            Counting::Tsume(rule) | Counting::TsumeNested(rule) => Some(rule),
            _ => None,
        }
    }

    /// The interpositions left out.
    #[inline(always)]
    pub fn ignored(self) -> Ignored {
        match self {
            Counting::Ignoring(ignored) => ignored,
            _ => Ignored::Nothing,
        }
    }

    /// Whether disproofs are marked when they hold under tsume counting too
    /// (see [`super::tt::Probe::drop_free`]): a count of every interposition.
    #[inline(always)]
    pub fn marks_drop_free(self) -> bool {
        self == Counting::Plain || self == Counting::Ignoring(Ignored::Nothing)
    }
}

/// The answer of a search under a length bound ([`Mode::within`]) that
/// was not stopped; `Option<Bounded>` is `None` when a limit stopped it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Bounded {
    /// Mated within the bound, by a mate of this many plies (the bound or
    /// less; not necessarily the fewest).
    Mated(u32),
    /// Not mated within the bound.
    NotMated,
}

impl Bounded {
    /// The answer of a bounded search's result at its root: `None` when it
    /// is not final (a limit stopped the search).
    pub fn of(r: &NodeResult) -> Option<Bounded> {
        if r.pn == 0 {
            Some(Bounded::Mated(u32::from(r.len)))
        } else if r.dn == 0 {
            Some(Bounded::NotMated)
        } else {
            None
        }
    }

    /// Whether mated within the bound.
    pub fn is_mated(self) -> bool {
        matches!(self, Bounded::Mated(_))
    }
}

/// The question a search answers at each node.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Mode {
    pub counting: Counting,
    /// Lines are cut at this ply, counted from where the outermost search
    /// was entered.
    pub ply_limit: u32,
    /// Whether `ply_limit` is a length bound (a search for a mate within
    /// it: proofs longer than the plies left are set aside); otherwise it
    /// only keeps lines finite.
    pub bounded: bool,
    /// How many useless-interposition tests are open above this search.
    pub nest: u32,
}

impl Mode {
    /// A search for a mate of any length, counting as `counting`.
    pub fn unbounded(counting: Counting) -> Mode {
        Mode {
            counting,
            ply_limit: MAX_PLY,
            bounded: false,
            nest: 0,
        }
    }

    /// A search for a mate within `plies` plies from the root.
    pub fn within(counting: Counting, plies: u32) -> Mode {
        Mode {
            counting,
            ply_limit: plies.min(MAX_PLY),
            bounded: true,
            nest: 0,
        }
    }

    /// A search with `bound` (a length, or none) from the root.
    #[cfg(test)]
    pub fn bound(counting: Counting, bound: Option<u32>) -> Mode {
        match bound {
            Some(plies) => Mode::within(counting, plies),
            None => Mode::unbounded(counting),
        }
    }

    /// The same question, nested in a useless-interposition test (or the
    /// search of a drop's base) whose lines are cut at `ply_limit`.
    #[inline]
    pub fn nested(self, ply_limit: u32) -> Mode {
        Mode {
            counting: self.counting.nested(),
            ply_limit,
            nest: self.nest + 1,
            ..self
        }
    }

    /// Plies left under the limit at `ply`.
    #[inline(always)]
    pub fn remaining(self, ply: u32) -> u32 {
        self.ply_limit.saturating_sub(ply)
    }
}
