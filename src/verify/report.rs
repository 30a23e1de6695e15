//! What a verification reports: the verdict's findings, their kinds and
//! names, and what the findings say of a given solution.

use std::time::Duration;

use crate::core::Move;

use super::Verdict;

/// The kinds of findings.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FindingKind {
    /// 余詰: another attacker move of the main line also mates.
    AlternativeMate,
    /// 最終手余詰: another mate in one at the last move (minor).
    AlternativeLastMove,
    /// 長手数の余詰: another attacker move mates, but in more moves than the
    /// main line has left (minor here; strict judges count it as 余詰).
    LongerAlternativeMate,
    /// 早詰: a mate shorter than the intended one.
    ShorterMate,
    /// 駒余り: the attacker ends the main line with pieces in hand.
    PiecesLeft,
    /// 変化別詰: at an attacker move of a side line, before its last,
    /// another check mates as quickly (minor).
    SideLineAlternative,
    /// 変同: a side line as long as the main line (minor).
    SameLengthSideLine,
    /// A side line longer than the main line (minor: the convention asked
    /// for accepts it; by today's rule the main line would follow it).
    /// Two cases:
    ///
    /// - 変長駒余り: by [`DefenceChoice::EmptyHandFirst`], a side line that
    ///   leaves the attacker pieces in hand ([`Finding::longer_by`] `None`).
    /// - 変長: by [`Convention::Classical`], where the main line follows
    ///   the given solution's shorter defence, a longer defence that is no
    ///   interposition and outlasts it by every rule that counts a piece
    ///   moved onto the line ([`Finding::longer_by`] says which).
    ///
    /// [`Finding::japanese`] names the case.
    ///
    /// [`DefenceChoice::EmptyHandFirst`]: crate::solver::DefenceChoice::EmptyHandFirst
    /// [`Convention::Classical`]: super::Convention::Classical
    LongerSideLine,
    /// 不詰: no mate at all.
    NoMate,
    /// The given solution is not the main line.
    DepartsFromSolution,
    /// A limit stopped a search: this move was not fully checked.
    Unchecked,
}

impl FindingKind {
    /// Whether the problem stays sound with this finding.
    pub fn is_minor(self) -> bool {
        matches!(
            self,
            FindingKind::AlternativeLastMove
                | FindingKind::LongerAlternativeMate
                | FindingKind::SideLineAlternative
                | FindingKind::SameLengthSideLine
                | FindingKind::LongerSideLine
                | FindingKind::Unchecked
        )
    }

    /// The tsume-shogi term (for [`FindingKind::LongerSideLine`], the old
    /// convention's 変長駒余り; [`Finding::japanese`] names each case).
    pub fn japanese(self) -> &'static str {
        match self {
            FindingKind::AlternativeMate => "余詰",
            FindingKind::AlternativeLastMove => "最終手余詰",
            FindingKind::LongerAlternativeMate => "長手数余詰",
            FindingKind::ShorterMate => "早詰",
            FindingKind::PiecesLeft => "駒余り",
            FindingKind::SideLineAlternative => "変化別詰",
            FindingKind::SameLengthSideLine => "変同",
            FindingKind::LongerSideLine => "変長駒余り",
            FindingKind::NoMate => "不詰",
            FindingKind::DepartsFromSolution => "手順相違",
            FindingKind::Unchecked => "未確認",
        }
    }

    /// A name for machine-readable output.
    pub fn name(self) -> &'static str {
        match self {
            FindingKind::AlternativeMate => "alternative-mate",
            FindingKind::AlternativeLastMove => "alternative-last-move",
            FindingKind::LongerAlternativeMate => "longer-alternative-mate",
            FindingKind::ShorterMate => "shorter-mate",
            FindingKind::PiecesLeft => "pieces-left",
            FindingKind::SideLineAlternative => "side-line-alternative",
            FindingKind::SameLengthSideLine => "same-length-side-line",
            FindingKind::LongerSideLine => "longer-side-line",
            FindingKind::NoMate => "no-mate",
            FindingKind::DepartsFromSolution => "departs-from-solution",
            FindingKind::Unchecked => "unchecked",
        }
    }
}

/// By which rules for useless interpositions a defence outlasts the given
/// one (a [`FindingKind::DepartsFromSolution`] for a shorter given
/// defence, or a [`FindingKind::LongerSideLine`] by the classical
/// convention): this crate's, looser ones too, or only some.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LongerBy {
    /// Even with no interposition counted at all: by this crate's rule and
    /// every looser one.
    EveryLooserRule,
    /// With no drop between checker and king counted (but not with no
    /// interposition at all): by every rule that counts a piece moved onto
    /// the line.
    RulesCountingMovedPieces,
    /// Not with no drop counted: it depends on which drops count (the
    /// looser rule that asks only whether a captured piece is used was
    /// not decided).
    SomeDrops,
    /// Not with no drop counted, but by the looser rule that asks only
    /// whether a captured piece is used
    /// ([`UselessRule::PieceUnused`]) as well as by this crate's.
    ///
    /// [`UselessRule::PieceUnused`]: crate::solver::UselessRule::PieceUnused
    PieceUnusedRuleToo,
    /// By this crate's rule only among the two: by the looser rule that
    /// asks only whether a captured piece is used, the defence is mated
    /// within the given defence's plies (the given line may be the longest
    /// by that rule).
    NotByPieceUnusedRule,
    /// The defence is a drop whose captured piece the attacker needs (no
    /// mate, or a longer one, with it set aside): it counts by the looser
    /// rule that asks only whether the piece is used, too.
    PieceNeeded,
    /// The defence is a drop whose captured piece the attacker does not
    /// use (as quick a mate with it set aside): useless by that looser
    /// rule, counted by this crate's.
    PieceUnused,
}

impl LongerBy {
    /// A name for machine-readable output.
    pub fn name(self) -> &'static str {
        match self {
            LongerBy::EveryLooserRule => "every-looser-rule",
            LongerBy::RulesCountingMovedPieces => "rules-counting-moved-pieces",
            LongerBy::SomeDrops => "some-drops",
            LongerBy::PieceUnusedRuleToo => "piece-unused-rule-too",
            LongerBy::NotByPieceUnusedRule => "not-by-piece-unused-rule",
            LongerBy::PieceNeeded => "piece-needed",
            LongerBy::PieceUnused => "piece-unused",
        }
    }
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub kind: FindingKind,
    /// The move number (1 = the first move) where it happens; 0 for the
    /// problem as a whole.
    pub ply: usize,
    /// The moves involved, from the position before move `ply` (along the
    /// main line; along the given solution for a
    /// [`FindingKind::DepartsFromSolution`], which follows it up to there):
    /// the alternative (or given) move and the line that follows it.
    pub moves: Vec<Move>,
    /// Plies of the line `moves` (the mate length it leads to).
    pub length: Option<u32>,
    /// Plies the main line has from the same position.
    pub main_length: Option<u32>,
    /// What happened, in words.
    pub note: String,
    /// For a given defence shorter than another (a departure, or by the
    /// classical convention a longer side line): by which rules the other
    /// defence is the longer (`None` when not judged).
    pub longer_by: Option<LongerBy>,
    /// For a given defence shorter than the main line's (or, by the
    /// classical convention, than a longer side line's): that defence
    /// leaves the attacker pieces in hand at the end of its line,
    /// where the given one uses them up, so the given defence is the one
    /// the old convention plays ([`DefenceChoice::EmptyHandFirst`], 変長駒余り).
    ///
    /// [`DefenceChoice::EmptyHandFirst`]: crate::solver::DefenceChoice::EmptyHandFirst
    pub longer_leaves_pieces: bool,
}

impl Finding {
    /// The tsume-shogi term for this finding: its kind's, but 変長 for a
    /// [`FindingKind::LongerSideLine`] by the classical convention (one
    /// with [`longer_by`](Finding::longer_by)).
    pub fn japanese(&self) -> &'static str {
        if self.kind == FindingKind::LongerSideLine && self.longer_by.is_some() {
            "変長"
        } else {
            self.kind.japanese()
        }
    }
}

/// The result of a verification.
#[derive(Clone, Debug)]
pub struct Report {
    pub verdict: Verdict,
    /// The solver's main line (empty without a mate).
    pub main_line: Vec<Move>,
    /// Whether the main line's length is proven shortest.
    pub exact: bool,
    pub findings: Vec<Finding>,
    /// Whether a given solution ([`VerifyOptions::solution`]) is the answer;
    /// `None` without one, or when the main line is not proven.
    ///
    /// [`VerifyOptions::solution`]: super::VerifyOptions::solution
    pub solution: Option<GivenSolution>,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// What a verification says of the solution it was given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GivenSolution {
    /// It is the answer: the main line, or as good a line at each move.
    Answer,
    /// It is not the answer; `reason` says why (a shorter mate, where it
    /// departs and why), from the findings.
    NotAnswer { reason: String },
}

impl Report {
    /// What the findings say of a given solution (see [`Report::solution`]).
    pub(super) fn judge_solution(&self) -> GivenSolution {
        let mut reasons = Vec::new();
        for f in &self.findings {
            match f.kind {
                FindingKind::ShorterMate => reasons.push(format!(
                    "a shorter mate ({}): {}",
                    f.moves.first().map_or(String::new(), Move::to_string),
                    f.note
                )),
                FindingKind::DepartsFromSolution => reasons.push(format!(
                    "at move {} ({}): {}",
                    f.ply,
                    f.moves.first().map_or(String::new(), Move::to_string),
                    f.note
                )),
                _ => {}
            }
        }
        if reasons.is_empty() {
            GivenSolution::Answer
        } else {
            GivenSolution::NotAnswer {
                reason: reasons.join("; "),
            }
        }
    }
}
