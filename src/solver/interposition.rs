//! Useless interpositions (無駄合): the definition this solver counts by.
//!
//! Tsume-shogi does not count an interposition that only delays the mate.
//! Definitions differ between authors; this crate implements this one, at
//! each position where the defender is to move:
//!
//! 1. **Where.** The defender is in check from one long-range piece (lance,
//!    bishop, rook, horse or dragon) with at least one empty square between
//!    it and the king, and drops a piece on one of those squares. A piece
//!    *moved* onto the line (移動合) always counts: it leaves its square,
//!    which changes the position for good.
//! 2. **The base.** The defender's other defences — every legal move that
//!    is not such a drop (king moves, captures, moved interpositions) — are
//!    solved first; the longest of them, in plies to mate, is the base (0
//!    when there are none).
//! 3. **Captured and set aside.** The attacker captures the dropped piece
//!    with a check, and in the position after that capture the piece is
//!    taken out of the attacker's hand and given back to the defender's
//!    (the piece is *set aside*): the position as if the drop had never
//!    been made and the capturing piece had moved there instead.
//! 4. **No gain.** The drop is useless when, for some such capture, the
//!    set-aside position is mated within the base: the attacker mates
//!    without ever using the captured piece, in no more moves than the
//!    defender's other defences allow. The drop then gains the defender
//!    nothing but the two plies of the drop and the capture.
//!
//! A useless drop is still answered (the solver proves the mate after it),
//! but it is neither counted in the length nor played in the main line. The
//! length of the defender's position is the longest of its counted
//! defences; a defender whose only defences are useless drops is mated where
//! it stands. So a rook checking from afar with the king boxed in is a mate
//! in one even though the defender could drop pawns in between; when the
//! capture lets the king (or any piece) recapture, or the attacker needs
//! the captured piece, or the mate after the capture takes longer than the
//! other defences, the drop counts like any other defence.
//!
//! # Deciding it under a bound
//!
//! The search asks "mated within `n` plies?" at a position where the
//! defender is to move. Two facts spare it most of what the definition
//! seems to ask for there:
//!
//! - A position is never mated sooner when the attacker holds less and the
//!   defender more. So when a drop is not mated within `n - 1` plies, no
//!   set-aside position after a capture of it is mated within `n - 2`:
//!   only a base of `n` can make the drop useless, and the base is
//!   searched only from there, not from 2 plies up.
//! - Where the drop matters (every other defence mated within `n`), the
//!   base is at most `n`. So a drop not mated within `n - 1` plies whose
//!   set-aside positions are not mated within `n` either counts whatever
//!   the base: it refutes the bound at once, before the other defences
//!   are proven. Only a drop whose set-aside position is mated within `n`
//!   waits for them.
//!
//! An exhaustive search (`solver::exhaustive::tsume_shortest_mate`, kept
//! for the tests) is a plain reference implementation of this definition;
//! the tests hold the solver to it.
//!
//! # A looser rule: is the piece used?
//!
//! Some authors call a drop useless when the attacker, having captured it,
//! never needs the piece, however long the mate after the capture is
//! against the defender's other defences. [`UselessRule::PieceUnused`]
//! (`--useless-rule piece-unused` on the command line) counts by that rule:
//! clauses 1 and 3 as above, and
//!
//! 2'. **No base.** The other defences play no part.
//!
//! 4'. **Unused.** The drop is useless when, for some capture, the
//!    set-aside position is mated within the length of the mate after the
//!    capture with the piece in hand (so in as many moves: it is never
//!    mated sooner). That length is looked for within
//!    [`UNUSED_PIECE_EXTRA_PLIES`] plies beyond those left where the drop
//!    is judged; a capture whose mate takes longer than that, or that has
//!    no mate at all, leaves the drop counted. A drop met inside such a
//!    test is judged within what is left of the test (no plies beyond):
//!    one test looks that far ahead in all, as under 定義1 below.
//!
//! Wherever the drop would decide the length (it would outlast the other
//! defences), a drop useless by this crate's rule is useless by this one
//! too. Lengths by this rule need the exact length of the mate after each
//! capture, beyond the bound of the search that meets the drop, so
//! searches by it cost far more: a bounded question ("mated within so many
//! plies?", as verify asks it) is usually answered, while a whole tsume
//! answer of a long problem may not be within minutes.
//! The exhaustive `solver::exhaustive::tsume_mates_within_by` is its reference.
//!
//! # 定義1: captured by the checker, mated without it
//!
//! The definition most often quoted in the literature (定義1) reads: the
//! checking piece captures the interposed piece, and the attacker then
//! mates without using it. [`UselessRule::CheckerCaptures`]
//! (`--useless-rule checker-captures`) counts by it: clause 1 as above, and
//!
//! 2''. **No base.** The other defences play no part.
//!
//! 3''. **Captured by the checker.** Only the checking piece's own captures
//!    of the dropped piece are looked at (promoting or not, each a check);
//!    a capture by another of the attacker's pieces makes no drop useless.
//!    The piece is then set aside as in clause 3.
//!
//! 4''. **Mated without it.** The drop is useless when, for some such
//!    capture, the set-aside position is mated at all, by this rule's
//!    count and however long the mate: looked for within
//!    [`CHECKER_CAPTURE_HORIZON`] plies (a mate without the piece longer
//!    than that leaves the drop counted). The drops met within those
//!    plies are judged by this rule in turn, their own set-aside mates
//!    looked for within what is left of them: one test looks that many
//!    plies ahead in all, not that many again at each nested test (which
//!    went eight tests and over a hundred plies deep, `docs/measurements.md`).
//!    So a position may be mated within a bound as the question asked and
//!    not inside a test or a drop's base, where its drops look less far:
//!    the two have separate table namespaces (`Counting::TsumeNested`), as
//!    for [`UselessRule::PieceUnused`], whose horizon is nested the same way.
//!
//! The verdict does not depend on the bound of the search that meets the
//! drop, so a useless drop adds nothing to the length: the line ends where
//! it could be made, as under the other rules. Nor does it depend on the
//! other defences, so the search judges a drop as soon as it fails, without
//! waiting for them to be proven. Neither this rule nor this
//! crate's is looser than the other: this one asks no length of the mate
//! without the piece, this crate's accepts a capture by any piece. A drop
//! the checker captures whose set-aside mate fits in the base is useless by
//! both. The exhaustive `solver::exhaustive::tsume_mates_within_by` is its
//! reference, as for the other rules.
//!
//! # Either definition
//!
//! The composers of 将棋無双 count as neither rule alone does: some of
//! their drops are useless by this crate's rule only, others by 定義1
//! only (`docs/measurements.md`). [`UselessRule::WithinOrChecker`]
//! (`--useless-rule within-or-checker`) counts a drop only when neither
//! makes it useless: clauses 1 to 3 as above, and
//!
//! 4'''. **Either.** The drop is useless when, for some capture, the
//!    set-aside position is mated within the base (clause 4), or when,
//!    for some capture by the checking piece, it is mated at all within
//!    the horizon of 定義1 (clause 4''). Set-aside positions are searched
//!    by this rule in turn.
//!
//! A drop useless by either rule alone is useless by this one, so its
//! answers are never longer than either rule's where the drop decides.
//! The search tests clause 4 first (it is bounded by the base and
//! cheaper); clause 4'' only for a drop clause 4 leaves counted.

use std::str::FromStr;

use crate::core::attacks::between;
use crate::core::movegen::{MoveList, generate_checks, generate_evasions};
use crate::core::{Bitboard, Move, PieceKind, Position, Square};

/// The squares where the side to move could interpose against a check:
/// those strictly between a single long-range checker and the king (empty
/// when not in check, in double check, or checked from next to the king).
pub(crate) fn interposition_squares(pos: &Position) -> Bitboard {
    let checkers = pos.checkers();
    if checkers.is_empty() || checkers.more_than_one() {
        return Bitboard::EMPTY;
    }
    let Some(king) = pos.king_square(pos.side_to_move()) else {
        return Bitboard::EMPTY;
    };
    match checkers.lsb() {
        Some(checker) => between(checker, king),
        None => Bitboard::EMPTY,
    }
}

/// The defences at a position that may be useless interpositions: drops
/// on the squares between a single long-range checker and the king
/// (clause 1 above). Every other defence always counts.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct DropInterpositions {
    squares: Bitboard,
}

impl DropInterpositions {
    /// None at all: every defence counts.
    pub const NONE: DropInterpositions = DropInterpositions {
        squares: Bitboard::EMPTY,
    };

    /// Those of `pos` (the side to move in check; none otherwise).
    pub fn of(pos: &Position) -> DropInterpositions {
        DropInterpositions {
            squares: interposition_squares(pos),
        }
    }

    /// Whether there is a square to drop on.
    pub fn is_empty(&self) -> bool {
        self.squares.is_empty()
    }

    /// Whether `m` is a drop on one of the squares.
    #[inline]
    pub fn contains(&self, m: Move) -> bool {
        m.is_drop() && self.squares.contains(m.to())
    }
}

/// Whether the side to move (in check) has an evasion that always counts
/// under tsume counting: anything but a drop between a long-range checker
/// and the king (the only defence that may be a useless interposition).
pub(crate) fn has_counted_evasion(pos: &Position) -> bool {
    let drops = DropInterpositions::of(pos);
    let mut evasions = MoveList::new();
    generate_evasions(pos, &mut evasions);
    evasions.iter().any(|&m| !drops.contains(m))
}

/// Whether the side to move, in check, is mated where it stands by tsume
/// counting under this crate's rule: checkmated, or left with drops between
/// checker and king only, each useless against a base of 0 (some checking
/// capture of it leaves, with the piece set aside, a position mated where
/// it stands in turn). No search: each level has the checker nearer the
/// king, so it ends within seven levels. A drop useless by this is useless
/// by [`UselessRule::PieceUnused`] too (its set-aside mate is no longer
/// than any), so a line ending here is a mate by either rule.
pub(crate) fn is_mated_now(pos: &Position) -> bool {
    mated_by_captures(pos, false)
}

/// [`is_mated_now`], with only the checker's captures of each drop looked
/// at when `checker_only`.
fn mated_by_captures(pos: &Position, checker_only: bool) -> bool {
    if !pos.in_check() {
        return false;
    }
    let drops = DropInterpositions::of(pos);
    let checker = pos.checkers().lsb();
    let mut evasions = MoveList::new();
    generate_evasions(pos, &mut evasions);
    let mut useless = SquareVerdicts::default();
    evasions.iter().all(|&d| {
        let Some(kind) = d.drop_kind() else {
            return false;
        };
        if !drops.contains(d) {
            return false;
        }
        useless.get_or(d.to(), || {
            let after = pos.after(d);
            let mut checks = MoveList::new();
            generate_checks(&after, &mut checks);
            checks
                .iter()
                .filter(|x| x.to() == d.to())
                .filter(|x| !checker_only || (checker.is_some() && x.from() == checker))
                .any(|&x| mated_by_captures(&set_aside(&after.after(x), kind), checker_only))
        })
    })
}

/// What [`is_mated_now`] found of the drops on each square at one
/// position. After a capture, with the piece set aside, the position is
/// the same whatever piece was dropped there (the defender holds it
/// again), and so are the captures that check: one verdict holds for every
/// drop on the square. Without it a distant check against a hand of seven
/// kinds tries each kind at each level, seven times the positions per
/// level, down to seven levels.
#[derive(Default)]
struct SquareVerdicts {
    known: Bitboard,
    useless: Bitboard,
}

impl SquareVerdicts {
    /// The verdict of the drops on `sq`, found by `judge` the first time.
    fn get_or(&mut self, sq: Square, judge: impl FnOnce() -> bool) -> bool {
        if !self.known.contains(sq) {
            self.known.set(sq);
            if judge() {
                self.useless.set(sq);
            }
        }
        self.useless.contains(sq)
    }
}

/// [`is_mated_now`] with only the checker's captures looked at (clause
/// 3'' of [`UselessRule::CheckerCaptures`]): a position mated where it
/// stands by this is mated within 0 plies by that rule (each drop's
/// set-aside mate takes no plies at all).
fn is_mated_now_by_checker(pos: &Position) -> bool {
    mated_by_captures(pos, true)
}

/// [`is_mated_now`] by `rule`: by [`UselessRule::Never`] checkmate on the
/// board. By [`UselessRule::PieceUnused`] a drop may
/// also be useless because the attacker mates as quickly without the
/// piece, however long that takes: where the test above leaves a drop
/// counted, the exhaustive reference decides, within a fixed number of
/// positions (a drop it cannot decide in them counts). By
/// [`UselessRule::CheckerCaptures`] only the checker's captures are looked
/// at, and a set-aside position may take plies to mate: the test above
/// restricted to the checker, then the exhaustive reference as for the
/// looser rule.
pub(crate) fn is_mated_now_by(pos: &Position, rule: UselessRule) -> bool {
    let exhaustive = || {
        super::exhaustive::tsume_mated_within_by(pos, 0, rule, PIECE_UNUSED_CHECK_POSITIONS)
            == Some(true)
    };
    match rule {
        UselessRule::Never => crate::core::movegen::is_checkmate(pos),
        UselessRule::WithinOtherDefences => is_mated_now(pos),
        UselessRule::PieceUnused => is_mated_now(pos) || exhaustive(),
        UselessRule::CheckerCaptures => is_mated_now_by_checker(pos) || exhaustive(),
        UselessRule::WithinOrChecker => {
            is_mated_now(pos) || is_mated_now_by_checker(pos) || exhaustive()
        }
    }
}

/// Positions the exhaustive check of [`is_mated_now_by`] may visit.
const PIECE_UNUSED_CHECK_POSITIONS: u64 = 200_000;

/// Which rule decides whether a drop between checker and king is useless.
///
/// Each looks at the attacker's captures of the dropped piece, and at the
/// position after such a capture with the piece set aside (clause 3 of the
/// [module docs](self)).
///
/// ```
/// use tsume::solver::interposition::UselessRule;
/// assert_eq!(UselessRule::default(), UselessRule::WithinOtherDefences);
/// assert_eq!(UselessRule::PieceUnused.name(), "piece-unused");
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum UselessRule {
    /// This crate's rule (the module docs above): useless when, with the
    /// piece set aside, the attacker mates within the longest of the
    /// defender's other defences.
    #[default]
    WithinOtherDefences,
    /// The looser rule some authors use, which asks only whether the piece
    /// is used: useless when, with the piece set aside, the attacker mates
    /// as quickly as with it in hand after the capture, however long that
    /// mate is against the defender's other defences. Wherever the drop
    /// would decide the length, a drop useless by this crate's rule is
    /// useless by this one too. The mate after the capture is looked for
    /// within [`UNUSED_PIECE_EXTRA_PLIES`] plies beyond those left where
    /// the drop is judged; a drop whose capture takes longer to mate
    /// counts.
    PieceUnused,
    /// 定義1 (the module docs, clauses 2'' to 4''): useless when the
    /// checking piece captures it and, with the piece set aside, the
    /// attacker mates at all (within [`CHECKER_CAPTURE_HORIZON`] plies),
    /// whatever the other defences last. A capture by another piece makes
    /// no drop useless.
    CheckerCaptures,
    /// Either of the two above (the module docs, "Either definition"):
    /// useless when, with the piece set aside, the attacker mates within
    /// the longest of the other defences after some capture
    /// ([`UselessRule::WithinOtherDefences`]), or mates at all after a
    /// capture by the checking piece ([`UselessRule::CheckerCaptures`]).
    WithinOrChecker,
    /// No drop is useless: every interposition is a defence, and a line
    /// ends in checkmate on the board. The count of game analysis and of
    /// other mate engines (a GUI shows the line as a mate on the board).
    Never,
}

/// How far beyond the plies left at a drop [`UselessRule::PieceUnused`]
/// looks for the mate after the capture.
pub const UNUSED_PIECE_EXTRA_PLIES: u32 = 16;

/// The bound up to which [`UselessRule::PieceUnused`] looks for the mate
/// after the capture of a drop met with `left` plies left, at `nest` tests
/// deep: [`UNUSED_PIECE_EXTRA_PLIES`] beyond them for a drop of the
/// question asked, none beyond for a drop met inside a test (whose plies
/// left end where the test's do).
pub(crate) fn unused_piece_horizon(nest: u32, left: u32) -> u32 {
    if nest == 0 {
        left + UNUSED_PIECE_EXTRA_PLIES
    } else {
        left
    }
}

/// How far [`UselessRule::CheckerCaptures`] looks for the mate with the
/// piece set aside (clause 4''), in plies from the position after the
/// capture, whatever the bound of the search that meets the drop.
pub const CHECKER_CAPTURE_HORIZON: u32 = 16;

/// The plies [`UselessRule::CheckerCaptures`] gives the set-aside mate of
/// a drop met with `left` plies left, at `nest` tests deep: the whole
/// [`CHECKER_CAPTURE_HORIZON`] for a drop of the question asked, and no
/// more than the enclosing test has left for a drop met inside one. So
/// one test looks [`CHECKER_CAPTURE_HORIZON`] plies ahead in all, the
/// tests of drops inside it included.
pub(crate) fn checker_capture_horizon(nest: u32, left: u32) -> u32 {
    if nest == 0 {
        CHECKER_CAPTURE_HORIZON
    } else {
        CHECKER_CAPTURE_HORIZON.min(left)
    }
}

impl UselessRule {
    /// Every rule, this crate's first.
    pub const ALL: [UselessRule; 5] = [
        UselessRule::WithinOtherDefences,
        UselessRule::PieceUnused,
        UselessRule::CheckerCaptures,
        UselessRule::WithinOrChecker,
        UselessRule::Never,
    ];

    /// A name for machine-readable output and command lines (what
    /// [`Display`](std::fmt::Display) writes and [`FromStr`] reads).
    pub fn name(self) -> &'static str {
        match self {
            UselessRule::WithinOtherDefences => "within-other-defences",
            UselessRule::PieceUnused => "piece-unused",
            UselessRule::CheckerCaptures => "checker-captures",
            UselessRule::WithinOrChecker => "within-or-checker",
            UselessRule::Never => "none",
        }
    }

    /// Whether a drop may be useless against the node's other defences
    /// (clause 4 above): every rule but 定義1 alone and none.
    pub(crate) fn judges_against_base(self) -> bool {
        matches!(
            self,
            UselessRule::WithinOtherDefences
                | UselessRule::PieceUnused
                | UselessRule::WithinOrChecker
        )
    }

    /// Whether a drop may be useless by 定義1's clauses 3'' and 4''.
    pub(crate) fn judges_checker_captures(self) -> bool {
        matches!(
            self,
            UselessRule::CheckerCaptures | UselessRule::WithinOrChecker
        )
    }

    /// Whether a drop's test looks further at the question asked than
    /// inside another test ([`unused_piece_horizon`],
    /// [`checker_capture_horizon`]): then a position's bounded answer
    /// depends on whether it is searched inside a test or a drop's base.
    pub(crate) fn horizon_depends_on_nesting(self) -> bool {
        self == UselessRule::PieceUnused || self.judges_checker_captures()
    }
}

impl std::fmt::Display for UselessRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no [`UselessRule`]'s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownUselessRule(pub String);

impl std::fmt::Display for UnknownUselessRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown rule for useless interpositions '{}' (expected within-other-defences, piece-unused, checker-captures, within-or-checker or none)",
            self.0
        )
    }
}

impl std::error::Error for UnknownUselessRule {}

impl FromStr for UselessRule {
    type Err = UnknownUselessRule;

    /// ```
    /// use tsume::solver::interposition::UselessRule;
    /// assert_eq!("piece-unused".parse(), Ok(UselessRule::PieceUnused));
    /// assert!("unused".parse::<UselessRule>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<UselessRule, UnknownUselessRule> {
        UselessRule::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| UnknownUselessRule(s.to_string()))
    }
}

/// Interpositions a search leaves out, as if they could not be made: the
/// looser rules, for telling a longer defence that outlasts another by
/// every rule from one that does so only by this crate's.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Ignored {
    /// None: every evasion is a defence.
    #[default]
    Nothing,
    /// Every drop between a long-range checker and the king: no drop
    /// counts, a piece moved onto the line does (as by every rule in
    /// common use, this crate's included).
    Drops,
    /// Every interposition, dropped or moved: the loosest rule there is.
    All,
}

/// The side to move's evasions (it is in check) less the interpositions
/// `ignored` leaves out. A defence that lasts longer with only these
/// counted than another does by some rule lasts longer by every rule that
/// counts no more.
///
/// ```
/// use tsume::core::movegen::evasion_moves;
/// use tsume::core::Position;
/// use tsume::solver::interposition::{Ignored, counted_evasions};
/// // The rook on 1a checks the king on 9a, which cannot move (the gold on
/// // 8c guards 8b and 9b). Drops on 2a-8a and the gold's 7b7a interpose.
/// let pos: Position = "k7R/2g6/1G7/9/9/9/9/9/9 w r2b2g4s4n4l18p 1".parse().unwrap();
/// assert_eq!(evasion_moves(&pos).len(), 50);
/// assert_eq!(counted_evasions(&pos, Ignored::Nothing).len(), 50);
/// let moved: Vec<String> = counted_evasions(&pos, Ignored::Drops)
///     .iter()
///     .map(|m| m.to_string())
///     .collect();
/// assert_eq!(moved, ["7b7a"]);
/// assert!(counted_evasions(&pos, Ignored::All).is_empty());
/// ```
pub fn counted_evasions(pos: &Position, ignored: Ignored) -> MoveList {
    let mut evasions = MoveList::new();
    generate_counted_evasions(pos, ignored, &mut evasions);
    evasions
}

/// [`counted_evasions`] into `evasions` (cleared first): the search's
/// form, with no copy of the list.
pub(crate) fn generate_counted_evasions(pos: &Position, ignored: Ignored, evasions: &mut MoveList) {
    evasions.clear();
    generate_evasions(pos, evasions);
    if ignored == Ignored::Nothing {
        return;
    }
    let between = interposition_squares(pos);
    let drops_only = ignored == Ignored::Drops;
    evasions.retain(|m| !(between.contains(m.to()) && (m.is_drop() || !drops_only)));
}

/// The position `after_capture` (the defender to move, just after the
/// attacker took an interposed piece of `kind`) with that piece taken out
/// of the attacker's hand and given back to the defender's.
pub(crate) fn set_aside(after_capture: &Position, kind: PieceKind) -> Position {
    let kind = kind.unpromoted();
    let defender = after_capture.side_to_move();
    let attacker = !defender;
    let mut q = after_capture.clone();
    let mut attacker_hand = q.hand(attacker);
    let mut defender_hand = q.hand(defender);
    debug_assert!(attacker_hand.has(kind));
    attacker_hand.remove(kind);
    defender_hand.add(kind);
    q.set_hand(attacker, attacker_hand);
    q.set_hand(defender, defender_hand);
    q
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Color, Square};

    /// [`is_mated_now`] judging each drop on its own, kind by kind.
    fn is_mated_now_kind_by_kind(pos: &Position) -> bool {
        if !pos.in_check() {
            return false;
        }
        let drops = DropInterpositions::of(pos);
        let mut evasions = MoveList::new();
        generate_evasions(pos, &mut evasions);
        evasions.iter().all(|&d| {
            let Some(kind) = d.drop_kind() else {
                return false;
            };
            let after = pos.after(d);
            let mut checks = MoveList::new();
            generate_checks(&after, &mut checks);
            drops.contains(d)
                && checks
                    .iter()
                    .filter(|x| x.to() == d.to())
                    .any(|&x| is_mated_now_kind_by_kind(&set_aside(&after.after(x), kind)))
        })
    }

    #[test]
    fn one_verdict_per_square_agrees_with_judging_each_kind() {
        // Every defender's position on the published lines of two sets.
        let sets = [
            include_str!("../../problems/tanuki_generated.tsv"),
            include_str!("../../problems/musou.tsv"),
        ];
        let (mut positions, mut mated, mut judged) = (0, 0, 0);
        for row in sets.iter().flat_map(|s| s.lines()) {
            let cols: Vec<&str> = row.split('\t').collect();
            let (Some(sfen), Some(line)) = (cols.first(), cols.get(2)) else {
                continue;
            };
            let Ok(mut pos) = sfen.parse::<Position>() else {
                continue;
            };
            for m in line.split_whitespace() {
                let Ok(m) = pos.parse_move(m) else { break };
                if pos.is_legal(m).is_err() {
                    break;
                }
                pos.do_move(m);
                if pos.in_check() {
                    positions += 1;
                    let fast = is_mated_now(&pos);
                    assert_eq!(fast, is_mated_now_kind_by_kind(&pos), "{pos}");
                    mated += fast as u32;
                    // Left with drops alone: the verdicts per square decide.
                    judged += (!DropInterpositions::of(&pos).is_empty()
                        && !has_counted_evasion(&pos)) as u32;
                }
            }
        }
        assert!(
            positions > 5000 && mated > 1500 && judged > 50,
            "{positions} positions, {mated} mated, {judged} with drops alone"
        );
    }

    #[test]
    fn squares_between_a_distant_checker_and_the_king() {
        let pos: Position = "k7R/9/1G7/9/9/9/9/9/9 w r2b3g4s4n4l18p 1".parse().unwrap();
        let squares: Vec<String> = interposition_squares(&pos)
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(squares.len(), 7);
        assert!(squares.contains(&"2a".to_string()) && squares.contains(&"8a".to_string()));
        // Checked from next door: nothing to interpose.
        let pos: Position = "kR7/9/1G7/9/9/9/9/9/9 w r2b3g4s4n4l18p 1".parse().unwrap();
        assert!(interposition_squares(&pos).is_empty());
        // Not in check.
        let pos: Position = "k8/9/1G7/9/9/9/9/9/8R w r2b3g4s4n4l18p 1".parse().unwrap();
        assert!(interposition_squares(&pos).is_empty());
        // A knight's check has no squares between.
        let pos: Position = "k8/9/1N7/9/9/9/9/9/9 w 2r2b4g4s3n4l18p 1".parse().unwrap();
        assert!(pos.in_check());
        assert!(interposition_squares(&pos).is_empty());
    }

    #[test]
    fn the_drops_that_may_be_useless_are_those_between_checker_and_king() {
        let pos: Position = "k7R/9/1G7/9/9/9/9/9/9 w r2b3g4s4n4l18p 1".parse().unwrap();
        let drops = DropInterpositions::of(&pos);
        assert!(drops.contains("P*5a".parse::<Move>().unwrap()));
        // A king move is never one.
        assert!(!drops.contains("9a9b".parse::<Move>().unwrap()));
    }

    #[test]
    fn mated_where_it_stands_when_every_drop_between_is_useless() {
        // The rook on 1a checks the king on 9a, boxed in by the gold on 8c
        // and the knight on 7c: any drop between is taken by the rook,
        // mating.
        let pos: Position = "k7R/9/1GN6/9/9/9/9/9/9 w r2b3g4s3n4l18p 1".parse().unwrap();
        assert!(is_mated_now(&pos));
        // Without the knight, a drop on 8a counts: the rook that takes it
        // is taken by the king.
        let pos: Position = "k7R/9/1G7/9/9/9/9/9/9 w r2b3g4s4n4l18p 1".parse().unwrap();
        assert!(!is_mated_now(&pos));
    }

    #[test]
    fn set_aside_moves_the_piece_back_to_the_defender() {
        // White to move after Black captured a pawn: Black holds it.
        let pos: Position = "k3R4/9/1G7/9/9/9/9/9/9 w Pr2b3g4s4n4l17p 1"
            .parse()
            .unwrap();
        let q = set_aside(&pos, PieceKind::Pawn);
        assert_eq!(q.hand(Color::Black).count(PieceKind::Pawn), 0);
        assert_eq!(q.hand(Color::White).count(PieceKind::Pawn), 18);
        let rook: Square = "5a".parse().unwrap();
        assert_eq!(q.piece_at(rook), pos.piece_at(rook));
        let expected: Position = "k3R4/9/1G7/9/9/9/9/9/9 w r2b3g4s4n4l18p 1".parse().unwrap();
        assert_eq!(q.key(), expected.key());
    }
}
