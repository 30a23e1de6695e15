//! A whole game: moves played from a start position (any position, or a
//! handicap set-up), and how it ends, with the reason.
//!
//! The rules a [`Game`] applies:
//!
//! * **Checkmate and no legal move.** A side that has no legal move loses,
//!   in check ([`Reason::Checkmate`]) or not ([`Reason::NoLegalMoves`]).
//! * **Illegal moves lose** ([`Reason::IllegalMove`], naming the rule:
//!   二歩, 打ち歩詰め, 行き所のない駒, 王手放置, ...). [`Game::play`] ends the
//!   game on an illegal move, as in a real game; [`Game::try_play`] refuses
//!   it and leaves the game as it was (for a GUI checking user input).
//! * **千日手 (sennichite).** When the same position (board, both hands,
//!   side to move) occurs for the fourth time since the game's start
//!   position, the game ends. It is a draw ([`Reason::Repetition`]), unless
//!   one side gave check with every one of its moves of *the cycle*: the
//!   moves played from the first occurrence of the position to its fourth.
//!   That side loses ([`Reason::PerpetualCheck`], 連続王手の千日手). This is
//!   the JSA rule ("the same position four times; if one side's moves were
//!   all checks, that side loses") with the span read as the CSA servers
//!   read it: from the first occurrence. When both sides checked with every
//!   move (each check answered by a counter-check), the side whose move
//!   made the fourth occurrence loses: it chose to repeat once more.
//!   Positions are found by their 64-bit key and then compared in full, so
//!   a key collision never makes a false repetition.
//! * **Impasse (持将棋)** and the **27-point declaration (入玉宣言)**: see
//!   [`impasse`]; [`Game::impasse`] judges the first (the
//!   players decide when: the rules cannot tell that neither king can be
//!   mated), [`Game::declare`] makes the second.
//! * **Resignation**: [`Game::resign`].
//!
//! ```
//! use tsume::core::Color;
//! use tsume::core::game::{Game, Reason};
//! use tsume::core::handicap::Handicap;
//!
//! // 二枚落ち: White (上手) moves first.
//! let mut game = Game::handicap(Handicap::TwoPieces);
//! assert_eq!(game.position().side_to_move(), Color::White);
//! for m in ["5a5b", "7g7f", "5b5a", "7f7e", "5a5b", "7e7d", "5b5a"] {
//!     assert_eq!(game.play(m.parse().unwrap()), Ok(None));
//! }
//! // An illegal move loses: Black has no pawn in hand to drop.
//! let outcome = game.play("P*5e".parse().unwrap()).unwrap().unwrap();
//! assert_eq!(outcome.winner, Some(Color::White));
//! assert!(matches!(outcome.reason, Reason::IllegalMove { .. }));
//! assert_eq!(outcome.japanese(), "後手の勝ち（反則負け：持駒にない駒を打つ）");
//!
//! // The fourth occurrence of the start position is a draw.
//! let mut game = Game::new(tsume::core::Position::startpos());
//! let cycle = ["2h3h", "8b7b", "3h2h", "7b8b"];
//! for m in cycle.iter().cycle().take(11) {
//!     assert_eq!(game.play(m.parse().unwrap()), Ok(None));
//! }
//! let outcome = game.play("7b8b".parse().unwrap()).unwrap().unwrap();
//! assert_eq!(outcome.reason, Reason::Repetition);
//! assert_eq!(outcome.winner, None);
//! assert_eq!(outcome.to_string(), "draw: fourfold repetition (sennichite)");
//! ```

use std::fmt;

use super::handicap::Handicap;
use super::impasse::{self, DeclarationFault};
use super::movegen;
use super::{Color, IllegalMove, Move, Position, UsiPosition, UsiPositionError};

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The loser is in check and has no legal move (詰み).
    Checkmate,
    /// The loser is not in check but has no legal move: it loses all the
    /// same.
    NoLegalMoves,
    /// The loser played an illegal move (反則負け); the move was not made.
    IllegalMove { mv: Move, rule: IllegalMove },
    /// The same position a fourth time (千日手): a draw.
    Repetition,
    /// The same position a fourth time, the loser having given check with
    /// every move of the cycle (連続王手の千日手).
    PerpetualCheck,
    /// The impasse count (持将棋): `points` indexed by colour (handicap
    /// pieces counted for White), a side below `threshold` loses; a draw
    /// when neither or both are.
    Impasse { points: [u32; 2], threshold: u32 },
    /// A declaration that met the 27-point rule (入玉宣言勝ち).
    Declaration { points: u32, pieces: u32 },
    /// A declaration that did not: the declarer loses.
    FailedDeclaration(DeclarationFault),
    /// The loser resigned (投了).
    Resignation,
}

/// How a game ended: the winner (`None` for a draw) and why.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Option<Color>,
    pub reason: Reason,
}

impl Outcome {
    /// The side that lost, `None` for a draw.
    pub fn loser(&self) -> Option<Color> {
        self.winner.map(|c| !c)
    }

    /// Whether the game is drawn.
    pub fn is_draw(&self) -> bool {
        self.winner.is_none()
    }

    /// In Japanese: `先手の勝ち（詰み）`, `後手の勝ち（反則負け：二歩）`,
    /// `引き分け（千日手）`, `先手の勝ち（連続王手の千日手）`, ...
    pub fn japanese(&self) -> String {
        let reason = self.reason.japanese();
        match self.winner {
            Some(c) => format!("{}の勝ち（{reason}）", color_japanese(c)),
            None => format!("引き分け（{reason}）"),
        }
    }
}

impl fmt::Display for Outcome {
    /// In English: `Black wins: checkmate`, `draw: fourfold repetition
    /// (sennichite)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(c) => write!(f, "{} wins: {}", color_english(c), self.reason),
            None => write!(f, "draw: {}", self.reason),
        }
    }
}

impl Reason {
    /// The Japanese term: 詰み, 反則負け：二歩, 千日手, 連続王手の千日手,
    /// 持将棋, 入玉宣言勝ち, ...
    pub fn japanese(&self) -> String {
        match self {
            Reason::Checkmate => "詰み".to_string(),
            Reason::NoLegalMoves => "指し手なし".to_string(),
            Reason::IllegalMove { rule, .. } => {
                format!("反則負け：{}", illegal_japanese(*rule))
            }
            Reason::Repetition => "千日手".to_string(),
            Reason::PerpetualCheck => "連続王手の千日手".to_string(),
            Reason::Impasse { points, .. } => {
                format!("持将棋：先手{}点、後手{}点", points[0], points[1])
            }
            Reason::Declaration { points, .. } => format!("入玉宣言勝ち：{points}点"),
            Reason::FailedDeclaration(fault) => {
                format!("入玉宣言の条件不成立：{}", fault.japanese())
            }
            Reason::Resignation => "投了".to_string(),
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Checkmate => f.write_str("checkmate"),
            Reason::NoLegalMoves => f.write_str("no legal move"),
            Reason::IllegalMove { mv, rule } => write!(f, "illegal move {mv}: {rule}"),
            Reason::Repetition => f.write_str("fourfold repetition (sennichite)"),
            Reason::PerpetualCheck => f.write_str("perpetual check (fourfold repetition)"),
            Reason::Impasse { points, threshold } => write!(
                f,
                "impasse (jishogi): Black {} points, White {} points, {threshold} needed",
                points[0], points[1]
            ),
            Reason::Declaration { points, pieces } => write!(
                f,
                "entering-king declaration: {points} points, {pieces} pieces in the opponent's camp"
            ),
            Reason::FailedDeclaration(fault) => write!(f, "failed declaration: {fault}"),
            Reason::Resignation => f.write_str("resignation"),
        }
    }
}

fn color_english(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

fn color_japanese(c: Color) -> &'static str {
    match c {
        Color::Black => "先手",
        Color::White => "後手",
    }
}

/// The usual Japanese name of the rule an illegal move breaks.
pub fn illegal_japanese(rule: IllegalMove) -> &'static str {
    match rule {
        IllegalMove::NoPiece(_) => "動かす駒がない",
        IllegalMove::NotInHand(_) => "持駒にない駒を打つ",
        IllegalMove::CannotReach { .. } => "駒の動けない升への移動",
        IllegalMove::OwnPiece(_) => "自分の駒のある升への移動",
        IllegalMove::DropOnOccupied(_) => "駒のある升に打つ",
        IllegalMove::IllegalPromotion => "成れない駒の成り",
        IllegalMove::MissingPromotion(_) | IllegalMove::DeadSquareDrop { .. } => "行き所のない駒",
        IllegalMove::TwoPawns(_) => "二歩",
        IllegalMove::PawnDropMate => "打ち歩詰め",
        IllegalMove::LeavesKingInCheck => "王手放置",
    }
}

/// Why a move, a declaration or a judgement was refused; the game is
/// unchanged.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error("the game is over ({0})")]
    GameOver(Outcome),
    #[error("{mv} is not legal: {rule}")]
    Illegal { mv: Move, rule: IllegalMove },
    #[error("no impasse: {0:?}'s king is not in the opponent's camp")]
    KingNotEntered(Color),
}

/// A USI `position` command that does not make a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameUsiError {
    #[error(transparent)]
    Usi(#[from] UsiPositionError),
    #[error("move {index} ({mv}) is played after the game ended: {outcome}")]
    AfterEnd {
        index: usize,
        mv: Move,
        outcome: Outcome,
    },
}

/// A game: the start position, the moves played and the positions they
/// led to, and the outcome once it has ended.
#[derive(Clone, Debug)]
pub struct Game {
    /// `positions[0]` is the start; `positions[i + 1]` follows `moves[i]`.
    positions: Vec<Position>,
    moves: Vec<Move>,
    handicap: Option<Handicap>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A game from `start`. When `start` is a handicap set-up (compared
    /// without the move number), the impasse count knows it. A start
    /// position without a legal move is a game already lost.
    pub fn new(start: Position) -> Game {
        let handicap = Handicap::ALL
            .into_iter()
            .find(|&h| h != Handicap::Even && h.position() == start);
        let mut game = Game {
            positions: vec![start],
            moves: Vec::new(),
            handicap,
            outcome: None,
        };
        game.outcome = game.no_legal_moves();
        game
    }

    /// A game from a handicap set-up (White, 上手, moves first; Black in
    /// the even game).
    pub fn handicap(h: Handicap) -> Game {
        Game::new(h.position())
    }

    /// The game of a USI `position` command (`position startpos moves
    /// 7g7f ...`, `position sfen ... moves ...`, see [`UsiPosition`]): its
    /// moves are played in order. A move after the game has ended (by
    /// repetition, say) is an error.
    pub fn from_usi(s: &str) -> Result<Game, GameUsiError> {
        let usi: UsiPosition = s.parse()?;
        let mut game = Game::new(usi.start);
        for (i, &mv) in usi.moves.iter().enumerate() {
            if let Some(outcome) = game.outcome {
                return Err(GameUsiError::AfterEnd {
                    index: i + 1,
                    mv,
                    outcome,
                });
            }
            // The parse checked every move, so none is illegal here.
            let _ = game.play(mv);
        }
        Ok(game)
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position (after the last move).
    pub fn position(&self) -> &Position {
        &self.positions[self.positions.len() - 1]
    }

    /// The moves played, in order (an illegal move that ended the game is
    /// not among them: it is in the outcome's reason).
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position of the game: the start, then one after each move.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The handicap set-up the game started from, if any (not the even
    /// game).
    pub fn handicap_setup(&self) -> Option<Handicap> {
        self.handicap
    }

    /// How the game ended; `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// How many times the current position has occurred in the game,
    /// counting this time (1 for a new position).
    pub fn repetitions(&self) -> usize {
        self.occurrences().count()
    }

    /// Plays `m` for the side to move. An illegal move ends the game: its
    /// player loses. Returns the outcome when the game has ended with this
    /// move, `None` when it goes on; an error only when the game was over
    /// already.
    pub fn play(&mut self, m: Move) -> Result<Option<Outcome>, PlayError> {
        match self.try_play(m) {
            Err(PlayError::Illegal { mv, rule }) => {
                let outcome = Outcome {
                    winner: Some(!self.position().side_to_move()),
                    reason: Reason::IllegalMove { mv, rule },
                };
                self.outcome = Some(outcome);
                Ok(Some(outcome))
            }
            other => other,
        }
    }

    /// Plays `m` if it is legal; otherwise refuses it
    /// ([`PlayError::Illegal`]) and the game goes on as before.
    pub fn try_play(&mut self, m: Move) -> Result<Option<Outcome>, PlayError> {
        self.ensure_going()?;
        let pos = self.position();
        pos.is_legal(m)
            .map_err(|rule| PlayError::Illegal { mv: m, rule })?;
        let next = pos.after(m);
        self.positions.push(next);
        self.moves.push(m);
        self.outcome = self.no_legal_moves().or_else(|| self.repetition());
        Ok(self.outcome)
    }

    /// The side to move resigns.
    pub fn resign(&mut self) -> Result<Outcome, PlayError> {
        self.ensure_going()?;
        Ok(self.end(Outcome {
            winner: Some(!self.position().side_to_move()),
            reason: Reason::Resignation,
        }))
    }

    /// The side to move declares a win under the 27-point rule (see
    /// [`impasse`]). It wins when the position meets the
    /// rule and loses when not ([`Reason::FailedDeclaration`]); either way
    /// the game ends. [`impasse::declaration`] on
    /// [`Game::position`] asks without declaring.
    pub fn declare(&mut self) -> Result<Outcome, PlayError> {
        self.ensure_going()?;
        let us = self.position().side_to_move();
        let outcome = match impasse::declaration(self.position()) {
            Ok(d) => Outcome {
                winner: Some(us),
                reason: Reason::Declaration {
                    points: d.points,
                    pieces: d.pieces,
                },
            },
            Err(fault) => Outcome {
                winner: Some(!us),
                reason: Reason::FailedDeclaration(fault),
            },
        };
        Ok(self.end(outcome))
    }

    /// Each side's points for the impasse count, indexed by colour: pieces
    /// on the board and in hand (rook and bishop 5, others 1, kings 0), and
    /// for White the pieces a handicap set-up removed.
    pub fn impasse_points(&self) -> [u32; 2] {
        let pos = self.position();
        let bonus = self.handicap.map_or(0, impasse::handicap_points);
        [
            impasse::points(pos, Color::Black),
            impasse::points(pos, Color::White) + bonus,
        ]
    }

    /// Ends the game by the impasse rule (持将棋), which the players invoke
    /// when both kings are in the opponent's camp and they agree neither
    /// can be mated: a side with fewer than `threshold` points
    /// ([`Game::impasse_points`]) loses, otherwise it is a draw (also when
    /// both have fewer, which a full set of pieces never allows with a
    /// threshold of 27 or less). The JSA threshold is
    /// [`impasse::IMPASSE_THRESHOLD`] (24); some texts say 27. Refused
    /// unless both kings are in the opponent's camp.
    pub fn impasse(&mut self, threshold: u32) -> Result<Outcome, PlayError> {
        self.ensure_going()?;
        for c in Color::ALL {
            if !impasse::king_entered(self.position(), c) {
                return Err(PlayError::KingNotEntered(c));
            }
        }
        let points = self.impasse_points();
        let short = points.map(|p| p < threshold);
        let winner = match short {
            [true, false] => Some(Color::White),
            [false, true] => Some(Color::Black),
            _ => None,
        };
        Ok(self.end(Outcome {
            winner,
            reason: Reason::Impasse { points, threshold },
        }))
    }

    fn ensure_going(&self) -> Result<(), PlayError> {
        match self.outcome {
            Some(o) => Err(PlayError::GameOver(o)),
            None => Ok(()),
        }
    }

    fn end(&mut self, outcome: Outcome) -> Outcome {
        self.outcome = Some(outcome);
        outcome
    }

    /// The outcome when the side to move has no legal move.
    fn no_legal_moves(&self) -> Option<Outcome> {
        let pos = self.position();
        if movegen::has_legal_move(pos) {
            return None;
        }
        Some(Outcome {
            winner: Some(!pos.side_to_move()),
            reason: if pos.in_check() {
                Reason::Checkmate
            } else {
                Reason::NoLegalMoves
            },
        })
    }

    /// The indices in `positions` of the current position's occurrences,
    /// latest first (the current one included).
    fn occurrences(&self) -> impl Iterator<Item = usize> + '_ {
        let n = self.positions.len() - 1;
        let now = &self.positions[n];
        // The same side is to move only an even number of plies apart.
        (0..=n).rev().step_by(2).filter(move |&i| {
            let p = &self.positions[i];
            p.key() == now.key() && p == now
        })
    }

    /// The outcome when the current position has occurred four times.
    fn repetition(&self) -> Option<Outcome> {
        let first = self.occurrences().nth(3)?;
        let last = self.positions.len() - 1;
        // moves[i] is played from positions[i] and gives check when
        // positions[i + 1] is in check.
        let cycle = (first..last).map(|i| {
            (
                self.positions[i].side_to_move(),
                self.positions[i + 1].in_check(),
            )
        });
        let loser = perpetual_checker(cycle, self.positions[last - 1].side_to_move());
        Some(match loser {
            Some(l) => Outcome {
                winner: Some(!l),
                reason: Reason::PerpetualCheck,
            },
            None => Outcome {
                winner: None,
                reason: Reason::Repetition,
            },
        })
    }
}

/// Who loses a fourfold repetition, given each move of the cycle as its
/// mover and whether it gave check, and the mover of the last move: the
/// side that checked with every one of its moves; the last mover when both
/// did; `None` (a draw) when neither did.
fn perpetual_checker(
    cycle: impl IntoIterator<Item = (Color, bool)>,
    last_mover: Color,
) -> Option<Color> {
    let mut all_checks = [true; 2];
    for (mover, check) in cycle {
        if !check {
            all_checks[mover.index()] = false;
        }
    }
    match all_checks {
        [true, true] => Some(last_mover),
        [true, false] => Some(Color::Black),
        [false, true] => Some(Color::White),
        [false, false] => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_side_that_checked_with_every_move_of_the_cycle_loses() {
        use Color::{Black as B, White as W};
        // Black checks every move, White never: Black loses, whoever moved
        // last.
        let cycle = [(B, true), (W, false), (B, true), (W, false)];
        assert_eq!(perpetual_checker(cycle, W), Some(B));
        assert_eq!(perpetual_checker(cycle, B), Some(B));
        // White checks every move, Black not always.
        let cycle = [(W, true), (B, true), (W, true), (B, false)];
        assert_eq!(perpetual_checker(cycle, B), Some(W));
        // Checks by both with every move (each check answered by a
        // counter-check): the side that made the fourth occurrence loses.
        // (No real game of this shape was found to test it through `Game`:
        // a search of 1.5 million random positions in check for all-check
        // cycles of 4, 6 and 8 plies found none.)
        let cycle = [(B, true), (W, true), (B, true), (W, true)];
        assert_eq!(perpetual_checker(cycle, W), Some(W));
        assert_eq!(perpetual_checker(cycle, B), Some(B));
        // Neither: a draw.
        let cycle = [(B, true), (W, false), (B, false), (W, true)];
        assert_eq!(perpetual_checker(cycle, W), None);
    }

    #[test]
    fn impasse_counts_the_removed_handicap_pieces_for_white() {
        // Both kings entered, every piece but the kings in hand: Black 34,
        // White 20 points. Played as a 二枚落ち game, White counts 10 more.
        let pos: Position = "9/4K4/9/9/9/9/9/4k4/9 b RB4G4S4N4L8Prb10p 1"
            .parse()
            .unwrap();
        let mut game = Game::new(pos.clone());
        assert_eq!(game.impasse_points(), [34, 20]);
        game.handicap = Some(Handicap::TwoPieces);
        assert_eq!(game.impasse_points(), [34, 30]);
        let o = game.impasse(27).unwrap();
        assert_eq!(o.winner, None);
        let mut game = Game::new(pos);
        assert_eq!(game.impasse(27).unwrap().winner, Some(Color::Black));
    }
}
