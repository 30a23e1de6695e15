//! The whole game: one test per rule of how a game ends (checkmate, no
//! legal move, each kind of illegal move, 千日手 and 連続王手の千日手,
//! 持将棋 with its threshold, the 27-point declaration), and the handicap
//! set-ups, on hand-made positions whose outcomes are worked out in the
//! comments; then seeded random play (300 games, about 26,000 plies) and
//! random move bits, judged move by move by a referee written from the
//! rules alone (full position comparison, `gives_check`).

use tsume::core::game::{Game, GameUsiError, Outcome, PlayError, Reason};
use tsume::core::handicap::Handicap;
use tsume::core::impasse::{self, DeclarationFault};
use tsume::core::movegen;
use tsume::core::{Color, IllegalMove, Move, PieceKind, Position, Square};

fn pos(sfen: &str) -> Position {
    sfen.parse()
        .unwrap_or_else(|e| panic!("test position {sfen}: {e}"))
}

fn game(sfen: &str) -> Game {
    Game::new(pos(sfen))
}

fn mv(s: &str) -> Move {
    s.parse().unwrap_or_else(|e| panic!("test move {s}: {e}"))
}

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

/// Plays moves that must not end the game.
fn play_on(g: &mut Game, moves: &[&str]) {
    for m in moves {
        assert_eq!(g.play(mv(m)), Ok(None), "{m} after {:?}", g.moves());
    }
}

/// Plays a move that must end the game, and returns the outcome.
fn play_last(g: &mut Game, m: &str) -> Outcome {
    let o = g
        .play(mv(m))
        .unwrap_or_else(|e| panic!("{m}: {e}"))
        .unwrap_or_else(|| panic!("{m} did not end the game"));
    assert_eq!(g.outcome(), Some(o));
    assert!(g.is_over());
    o
}

// ----- checkmate and no legal move -----

#[test]
fn a_drop_that_mates_wins() {
    let mut g = game("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
    let o = play_last(&mut g, "G*5b");
    assert_eq!(
        o,
        Outcome {
            winner: Some(Color::Black),
            reason: Reason::Checkmate
        }
    );
    assert_eq!(o.to_string(), "Black wins: checkmate");
    assert_eq!(o.japanese(), "先手の勝ち（詰み）");
    assert_eq!(g.moves(), &[mv("G*5b")]);
    // Nothing more can be played, declared or resigned.
    assert_eq!(g.play(mv("5a4a")), Err(PlayError::GameOver(o)));
    assert_eq!(g.resign(), Err(PlayError::GameOver(o)));
    assert_eq!(g.declare(), Err(PlayError::GameOver(o)));
    assert_eq!(g.moves().len(), 1);
}

#[test]
fn a_board_move_that_mates_wins_for_either_colour() {
    // The king on 1a: 2c2b covers 2a and 1b (the pawn on 1c too), and the
    // gold on 3c guards 2b.
    let mut g = game("8k/9/6GGP/9/9/9/9/9/4K4 b - 1");
    let o = play_last(&mut g, "2c2b");
    assert_eq!(o.winner, Some(Color::Black));
    assert_eq!(o.reason, Reason::Checkmate);
    assert_eq!(o.loser(), Some(Color::White));
    // The same turned round: White mates.
    let mut g = game("4k4/9/9/9/9/9/pgg6/9/K8 w - 1");
    let o = play_last(&mut g, "8g8h");
    assert_eq!(o.winner, Some(Color::White));
    assert_eq!(o.reason, Reason::Checkmate);
    assert_eq!(o.japanese(), "後手の勝ち（詰み）");
}

#[test]
fn a_side_without_a_legal_move_loses_even_out_of_check() {
    // After 8h2h the white king on 1a is not in check, but the rook covers
    // 2a and 2b and the pawn 1b; White has nothing in hand.
    let mut g = game("8k/9/8P/9/9/9/9/1R7/K8 b - 1");
    let o = play_last(&mut g, "8h2h");
    assert!(!g.position().in_check());
    assert_eq!(
        o,
        Outcome {
            winner: Some(Color::Black),
            reason: Reason::NoLegalMoves
        }
    );
    // A game set up in that position is over before it starts.
    let g = Game::new(g.position().clone());
    assert_eq!(g.outcome(), Some(o));
    // A mate in the start position too.
    let g = game("4k4/4G4/4P4/9/9/9/9/9/9 w - 1");
    assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::Checkmate));
}

// ----- illegal moves -----

#[test]
fn each_illegal_move_loses_and_names_its_rule() {
    let cases: &[(&str, &str, IllegalMove, &str)] = &[
        // 二歩: a pawn of Black's on 5g already.
        (
            "4k4/9/9/9/9/9/4P4/9/4K4 b P 1",
            "P*5e",
            IllegalMove::TwoPawns(5),
            "二歩",
        ),
        // 打ち歩詰め: P*1b checks the king on 1a, the gold on 2c guards 1b
        // and covers 2b, the silver on 3b covers 2a.
        (
            "8k/6S2/7G1/9/9/9/9/9/4K4 b P 1",
            "P*1b",
            IllegalMove::PawnDropMate,
            "打ち歩詰め",
        ),
        // 行き所のない駒: a knight dropped on rank b, a pawn moved to rank a
        // without promoting.
        (
            "4k4/9/9/9/9/9/9/9/4K4 b N 1",
            "N*5b",
            IllegalMove::DeadSquareDrop {
                kind: PieceKind::Knight,
                to: sq("5b"),
            },
            "行き所のない駒",
        ),
        (
            "4k4/P8/9/9/9/9/9/9/4K4 b - 1",
            "9b9a",
            IllegalMove::MissingPromotion(sq("9a")),
            "行き所のない駒",
        ),
        // A gold does not promote.
        (
            "4k4/9/9/G8/9/9/9/9/4K4 b - 1",
            "9d9c+",
            IllegalMove::IllegalPromotion,
            "成れない駒の成り",
        ),
        // The king moves onto the file of the white rook.
        (
            "4k4/9/9/9/9/9/9/4r4/3K5 b - 1",
            "6i5i",
            IllegalMove::LeavesKingInCheck,
            "王手放置",
        ),
        // The gold on 5h is pinned by the rook on 5b.
        (
            "k8/4r4/9/9/9/9/9/4G4/4K4 b - 1",
            "5h4h",
            IllegalMove::LeavesKingInCheck,
            "王手放置",
        ),
        // In check from the rook, Black moves a pawn elsewhere.
        (
            "k8/4r4/9/9/9/9/8P/9/4K4 b - 1",
            "1g1f",
            IllegalMove::LeavesKingInCheck,
            "王手放置",
        ),
        // Black moves a white pawn.
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "3c3d",
            IllegalMove::NoPiece(sq("3c")),
            "動かす駒がない",
        ),
        // Moves that do not exist: a king three squares on, a silver onto its
        // own pawn, a gold Black does not hold, a drop on a piece.
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "5i5f",
            IllegalMove::CannotReach {
                from: sq("5i"),
                to: sq("5f"),
            },
            "駒の動けない升への移動",
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "7i7g",
            IllegalMove::OwnPiece(sq("7g")),
            "自分の駒のある升への移動",
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "G*5e",
            IllegalMove::NotInHand(PieceKind::Gold),
            "持駒にない駒を打つ",
        ),
        (
            "4k4/9/9/9/9/9/9/9/4K4 b G 1",
            "G*5a",
            IllegalMove::DropOnOccupied(sq("5a")),
            "駒のある升に打つ",
        ),
        // White's 二歩: then Black wins.
        (
            "4k4/9/4p4/9/9/9/9/9/4K4 w p 1",
            "P*5e",
            IllegalMove::TwoPawns(5),
            "二歩",
        ),
    ];
    for &(sfen, m, rule, japanese) in cases {
        let start = pos(sfen);
        let mover = start.side_to_move();
        // try_play refuses the move and the game goes on.
        let mut g = Game::new(start.clone());
        assert_eq!(
            g.try_play(mv(m)),
            Err(PlayError::Illegal { mv: mv(m), rule }),
            "{sfen} {m}"
        );
        assert!(!g.is_over());
        assert!(g.moves().is_empty());
        // play ends the game: the mover loses, and the move is not made.
        let o = play_last(&mut g, m);
        assert_eq!(
            o,
            Outcome {
                winner: Some(!mover),
                reason: Reason::IllegalMove { mv: mv(m), rule }
            },
            "{sfen} {m}"
        );
        assert!(g.moves().is_empty());
        assert_eq!(g.position(), &start);
        assert_eq!(o.reason.japanese(), format!("反則負け：{japanese}"), "{m}");
        assert!(o.to_string().contains(&format!("illegal move {m}")), "{o}");
    }
}

#[test]
fn the_same_drops_are_legal_where_the_rule_does_not_apply() {
    // A gold on 1b mates where the pawn may not (the pawn drop mate rule is
    // for pawns only).
    let mut g = game("8k/6S2/7G1/9/9/9/9/9/4K4 b GP 1");
    let o = play_last(&mut g, "G*1b");
    assert_eq!(o.reason, Reason::Checkmate);
    // A pawn on a file without one of Black's pawns is legal.
    let mut g = game("4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
    play_on(&mut g, &["P*4e"]);
}

#[test]
fn a_dropped_piece_cannot_even_be_written_promoting() {
    // A drop with the promotion flag has no encoding: neither USI text nor
    // raw bits make one, so a game never sees it.
    assert!("P*5e+".parse::<Move>().is_err());
    let drop = Move::new_drop(PieceKind::Pawn, sq("5e"));
    assert_eq!(Move::from_raw(drop.raw() | 1 << 14), None);
}

// ----- 千日手 -----

#[test]
fn the_fourth_occurrence_is_a_draw_not_the_third() {
    let mut g = Game::new(Position::startpos());
    let cycle = ["2h3h", "8b7b", "3h2h", "7b8b"];
    play_on(&mut g, &cycle);
    assert_eq!(g.repetitions(), 2);
    play_on(&mut g, &cycle);
    // The third time: the game goes on.
    assert_eq!(g.repetitions(), 3);
    assert!(!g.is_over());
    play_on(&mut g, &cycle[..3]);
    let o = play_last(&mut g, cycle[3]);
    assert_eq!(g.repetitions(), 4);
    assert_eq!(
        o,
        Outcome {
            winner: None,
            reason: Reason::Repetition
        }
    );
    assert!(o.is_draw());
    assert_eq!(o.japanese(), "引き分け（千日手）");
    assert_eq!(g.moves().len(), 12);
}

#[test]
fn the_same_board_with_other_hands_is_another_position() {
    // Black's rook takes the pawn on 5d and goes back, White drops its
    // pawn there again, the kings wander and come back: the board and the
    // side to move are those of the start, but Black now holds the pawn
    // White held, so this is a new position and counts from here.
    let mut g = game("4k4/9/9/4p4/9/4R4/9/9/4K4 b p 1");
    play_on(
        &mut g,
        &[
            "5f5d", "5a4a", "5d5f", "P*5d", "5i4i", "4a4b", "4i5i", "4b5a",
        ],
    );
    assert_eq!(g.position().to_string(), "4k4/9/9/4p4/9/4R4/9/9/4K4 b P 9");
    assert_eq!(g.repetitions(), 1);
    let cycle = ["5f4f", "5a6a", "4f5f", "6a5a"];
    play_on(&mut g, &cycle);
    play_on(&mut g, &cycle);
    assert_eq!(g.repetitions(), 3);
    play_on(&mut g, &cycle[..3]);
    let o = play_last(&mut g, cycle[3]);
    assert_eq!(o.reason, Reason::Repetition);
    assert_eq!(g.moves().len(), 20);
}

#[test]
fn perpetual_check_loses_for_black() {
    // The rook checks from 1h and 2h as the king goes 1a, 2a, 1a...
    let mut g = game("8k/9/9/9/9/9/9/R8/4K4 b - 1");
    play_on(&mut g, &["9h1h"]);
    let cycle = ["1a2a", "1h2h", "2a1a", "2h1h"];
    play_on(&mut g, &cycle);
    play_on(&mut g, &cycle);
    play_on(&mut g, &cycle[..3]);
    // The position after 9h1h comes back a fourth time with a check.
    let o = play_last(&mut g, "2h1h");
    assert_eq!(
        o,
        Outcome {
            winner: Some(Color::White),
            reason: Reason::PerpetualCheck
        }
    );
    assert_eq!(o.japanese(), "後手の勝ち（連続王手の千日手）");
    assert_eq!(g.moves().len(), 13);
}

#[test]
fn perpetual_check_loses_for_white() {
    // The same turned round: White's rook checks the black king.
    let mut g = game("4k4/8r/9/9/9/9/9/9/K8 w - 1");
    play_on(&mut g, &["1b9b"]);
    let cycle = ["9i8i", "9b8b", "8i9i", "8b9b"];
    play_on(&mut g, &cycle);
    play_on(&mut g, &cycle);
    play_on(&mut g, &cycle[..3]);
    let o = play_last(&mut g, "8b9b");
    assert_eq!(o.winner, Some(Color::Black));
    assert_eq!(o.reason, Reason::PerpetualCheck);
    assert_eq!(o.japanese(), "先手の勝ち（連続王手の千日手）");
}

#[test]
fn perpetual_check_loses_also_when_the_other_side_makes_the_fourth_occurrence() {
    // The repeated position has Black to move: the fourth occurrence comes
    // with White's king move, yet Black, who checked with every move,
    // loses.
    let mut g = game("7k1/9/9/9/9/9/9/8R/4K4 b - 1");
    let cycle = ["1h2h", "2a1a", "2h1h", "1a2a"];
    play_on(&mut g, &cycle);
    play_on(&mut g, &cycle);
    play_on(&mut g, &cycle[..3]);
    let o = play_last(&mut g, "1a2a");
    assert_eq!(o.winner, Some(Color::White));
    assert_eq!(o.reason, Reason::PerpetualCheck);
    assert_eq!(g.moves().len(), 12);
}

#[test]
fn checks_with_only_some_moves_of_the_cycle_are_a_plain_draw() {
    // Black checks from 1h, then goes back to 9h without check.
    let mut g = game("8k/9/9/9/9/9/9/R8/4K4 b - 1");
    let cycle = ["9h1h", "1a2a", "1h9h", "2a1a"];
    play_on(&mut g, &cycle);
    play_on(&mut g, &cycle);
    play_on(&mut g, &cycle[..3]);
    let o = play_last(&mut g, "2a1a");
    assert_eq!(o.winner, None);
    assert_eq!(o.reason, Reason::Repetition);
}

#[test]
fn checks_in_an_earlier_cycle_only_are_a_plain_draw() {
    // The cycle runs from the first occurrence: two cycles of checks and
    // one without are not perpetual check.
    let mut g = game("8k/9/9/9/9/9/9/R8/4K4 b - 1");
    play_on(&mut g, &["9h1h"]);
    let checks = ["1a2a", "1h2h", "2a1a", "2h1h"];
    play_on(&mut g, &checks);
    play_on(&mut g, &checks);
    assert_eq!(g.repetitions(), 3);
    // Out of the check cycle and back: 1h9h does not check.
    play_on(&mut g, &["1a2a", "1h9h", "2a1a"]);
    let o = play_last(&mut g, "9h1h");
    assert_eq!(g.repetitions(), 4);
    assert_eq!(o.reason, Reason::Repetition);
}

// ----- 持将棋 (impasse) -----

/// A game with both kings entered (Black's on 5b, White's on 5h) and every
/// other piece in hand, so the points are the hands'.
fn impasse_game(hands: &str) -> Game {
    game(&format!("9/4K4/9/9/9/9/9/4k4/9 b {hands} 1"))
}

#[test]
fn impasse_with_24_points_at_the_edge() {
    // Black: rook, bishop and 13 small pieces = 23; White 31.
    let mut g = impasse_game("RB4G4S4N1Prb4l17p");
    assert_eq!(g.impasse_points(), [23, 31]);
    let o = g.impasse(impasse::IMPASSE_THRESHOLD).unwrap();
    assert_eq!(
        o,
        Outcome {
            winner: Some(Color::White),
            reason: Reason::Impasse {
                points: [23, 31],
                threshold: 24
            }
        }
    );
    assert_eq!(o.japanese(), "後手の勝ち（持将棋：先手23点、後手31点）");
    assert_eq!(g.play(mv("5b5c")), Err(PlayError::GameOver(o)));
    // One pawn more: 24 points is enough for a draw.
    let mut g = impasse_game("RB4G4S4N2Prb4l16p");
    let o = g.impasse(24).unwrap();
    assert_eq!(o.winner, None);
    assert_eq!(o.japanese(), "引き分け（持将棋：先手24点、後手30点）");
    // White short: Black wins.
    let mut g = impasse_game("RB4L17Prb4g4s4np");
    assert_eq!(g.impasse(24).unwrap().winner, Some(Color::Black));
}

#[test]
fn impasse_with_the_27_point_threshold() {
    // 24 points draw at 24 but lose at 27.
    let mut g = impasse_game("RB4G4S4N2Prb4l16p");
    assert_eq!(g.impasse(27).unwrap().winner, Some(Color::White));
    // 26 against 28.
    let mut g = impasse_game("RB4G4S4N4Lrb18p");
    assert_eq!(g.impasse_points(), [26, 28]);
    assert_eq!(g.clone().impasse(24).unwrap().winner, None);
    assert_eq!(g.impasse(27).unwrap().winner, Some(Color::White));
    // 27 each: a draw.
    let mut g = impasse_game("RB4G4S4N4LPrb17p");
    assert_eq!(g.impasse_points(), [27, 27]);
    assert_eq!(g.impasse(27).unwrap().winner, None);
}

#[test]
fn impasse_counts_the_board_with_promoted_pieces_as_unpromoted() {
    // Black: a horse on 9a (5), a rook (5) and 13 small pieces in hand;
    // White: a dragon on 4h (5), a bishop (5) and 21 small pieces.
    let mut g = game("+B8/4K4/9/9/9/9/9/4k+r3/9 b R4G4S4N1Pb4l17p 1");
    assert_eq!(g.impasse_points(), [23, 31]);
    assert_eq!(g.impasse(24).unwrap().winner, Some(Color::White));
}

#[test]
fn impasse_needs_both_kings_in_the_opponents_camp() {
    let mut g = Game::new(Position::startpos());
    assert_eq!(g.impasse(24), Err(PlayError::KingNotEntered(Color::Black)));
    // Black's king on 5b is in, White's on 5e is not.
    let mut g = game("9/4K4/9/9/4k4/9/9/9/9 b RB4G4S4N4L9Prb9p 1");
    assert_eq!(g.impasse(24), Err(PlayError::KingNotEntered(Color::White)));
    assert!(!g.is_over());
}

// ----- 入玉宣言 (the 27-point declaration) -----

/// Black's king on 5b; a dragon, a horse, four golds and four silvers (18
/// points, 10 pieces) in White's camp; Black's hand after `B_HAND`.
const BLACK_CAMP: &str = "+R+B7/4K4/GGGGSSSS1/9/9/9/9/9/4k4 b";

#[test]
fn black_declares_with_28_points_and_fails_with_27() {
    // 18 on the board, 10 in hand.
    let mut g = game(&format!("{BLACK_CAMP} 4N4L2Prb16p 1"));
    let o = g.declare().unwrap();
    assert_eq!(
        o,
        Outcome {
            winner: Some(Color::Black),
            reason: Reason::Declaration {
                points: 28,
                pieces: 10
            }
        }
    );
    assert_eq!(o.japanese(), "先手の勝ち（入玉宣言勝ち：28点）");
    assert_eq!(g.play(mv("5b5c")), Err(PlayError::GameOver(o)));
    // One pawn fewer in hand: 27 points, which only White may declare on.
    let mut g = game(&format!("{BLACK_CAMP} 4N4LPrb17p 1"));
    let o = g.declare().unwrap();
    assert_eq!(
        o,
        Outcome {
            winner: Some(Color::White),
            reason: Reason::FailedDeclaration(DeclarationFault::TooFewPoints {
                points: 27,
                needed: 28
            })
        }
    );
    assert_eq!(o.japanese(), "後手の勝ち（入玉宣言の条件不成立：点数不足）");
}

#[test]
fn white_declares_with_27_points_and_fails_with_26() {
    // The same turned round: White's king on 5h, ten pieces in ranks g-i.
    let mut g = game("4K4/9/9/9/9/9/1ssssgggg/4k4/7+b+r w RB17P4n4lp 1");
    let o = g.declare().unwrap();
    assert_eq!(o.winner, Some(Color::White));
    assert_eq!(
        o.reason,
        Reason::Declaration {
            points: 27,
            pieces: 10
        }
    );
    let mut g = game("4K4/9/9/9/9/9/1ssssgggg/4k4/7+b+r w RB18P4n4l 1");
    let o = g.declare().unwrap();
    assert_eq!(o.winner, Some(Color::Black));
    assert_eq!(
        o.reason,
        Reason::FailedDeclaration(DeclarationFault::TooFewPoints {
            points: 26,
            needed: 27
        })
    );
}

#[test]
fn a_declaration_needs_ten_pieces_in_the_camp() {
    // A silver on 3d instead of 2c: nine pieces in the camp, 28 points
    // with one more pawn in hand.
    let mut g = game("+R+B7/4K4/GGGGSSS2/6S2/9/9/9/9/4k4 b 4N4L3Prb15p 1");
    let o = g.declare().unwrap();
    assert_eq!(o.winner, Some(Color::White));
    assert_eq!(
        o.reason,
        Reason::FailedDeclaration(DeclarationFault::TooFewPieces { pieces: 9 })
    );
}

#[test]
fn a_declaration_needs_the_king_entered_and_out_of_check() {
    // A white pawn on 5a checks the king on 5b.
    let mut g = game("+R+B2p4/4K4/GGGGSSSS1/9/9/9/9/9/4k4 b 4N4L2Prb15p 1");
    assert!(g.position().in_check());
    let o = g.declare().unwrap();
    assert_eq!(
        o.reason,
        Reason::FailedDeclaration(DeclarationFault::InCheck)
    );
    assert_eq!(o.winner, Some(Color::White));
    // The king on 5d is outside White's camp.
    let mut g = game("+R+B7/9/GGGGSSSS1/4K4/9/9/9/9/4k4 b 4N4L2Prb16p 1");
    assert_eq!(
        g.declare().unwrap().reason,
        Reason::FailedDeclaration(DeclarationFault::KingNotEntered)
    );
    // Asking does not declare.
    let g = game(&format!("{BLACK_CAMP} 4N4L2Prb16p 1"));
    assert!(impasse::declaration(g.position()).is_ok());
    assert!(!g.is_over());
}

// ----- resignation -----

#[test]
fn the_side_to_move_resigns() {
    let mut g = Game::new(Position::startpos());
    play_on(&mut g, &["7g7f"]);
    let o = g.resign().unwrap();
    assert_eq!(o.winner, Some(Color::Black));
    assert_eq!(o.reason, Reason::Resignation);
    assert_eq!(o.japanese(), "先手の勝ち（投了）");
}

// ----- handicaps -----

#[test]
fn each_handicap_starts_with_white_to_move_and_its_own_move_count() {
    // The legal first moves, counted by hand from the even game's 30 (9
    // pawns, 2 lances, 2 + 2 silvers, 3 + 3 golds, 3 king, 6 rook, 0
    // knights and bishop), as White sees its side:
    // - 香落ち (1a): the lance's 1a1b is gone, the bishop gains 2b1a: 30.
    // - 右香落ち (9a): the lance's 9a9b is gone, nothing reaches 9a: 29.
    // - 角落ち: the rook gains 2b and 1b, the silver on 3a gains 2b: 33.
    // - 飛車落ち: the rook's 6 are gone, the silver on 7a gains 8b: 25.
    // - 飛香落ち: 25, less 1a1b, plus the bishop's 2b1a: 25.
    // - 二枚落ち: 30 - 6 (rook) + 8b and 2b for the silvers: 26.
    // - 三枚落ち: 26 - 1 (1a1b), nothing reaches 1a: 25.
    // - 四枚落ち: 26 - 2: 24.
    // - 六枚落ち: the knights had no move, nothing reaches 2a or 8a: 24.
    // - 八枚落ち: 9 pawns, king 3 (4b 5b 6b), golds 4 each (now also 3a
    //   and 7a): 20.
    // - 十枚落ち: 9 pawns and the king's 5: 14.
    // - 歩三兵: the king's 5, and a pawn on each of the 60 empty squares
    //   (rank i is full; the drop on 5h checks but the king takes it): 65.
    let expected = [
        (Handicap::Even, 30),
        (Handicap::Lance, 30),
        (Handicap::RightLance, 29),
        (Handicap::Bishop, 33),
        (Handicap::Rook, 25),
        (Handicap::RookLance, 25),
        (Handicap::TwoPieces, 26),
        (Handicap::ThreePieces, 25),
        (Handicap::FourPieces, 24),
        (Handicap::SixPieces, 24),
        (Handicap::EightPieces, 20),
        (Handicap::TenPieces, 14),
        (Handicap::ThreePawns, 65),
    ];
    assert_eq!(expected.len(), Handicap::ALL.len());
    for (h, count) in expected {
        let mut g = Game::handicap(h);
        let first = if h == Handicap::Even {
            Color::Black
        } else {
            Color::White
        };
        assert_eq!(g.position().side_to_move(), first, "{h}");
        assert!(!g.is_over());
        assert_eq!(movegen::legal_moves(g.position()).len(), count, "{h}");
        if h == Handicap::Even {
            assert_eq!(g.handicap_setup(), None);
            continue;
        }
        assert_eq!(g.handicap_setup(), Some(h));
        // White's king steps aside, Black answers; Black cannot move first.
        assert!(matches!(
            g.try_play(mv("7g7f")),
            Err(PlayError::Illegal { .. })
        ));
        play_on(&mut g, &["5a4b", "7g7f"]);
        assert_eq!(g.position().side_to_move(), Color::White);
        // The impasse count gives White the removed pieces: 27 + removed.
        assert_eq!(
            g.impasse_points()[1],
            impasse::points(g.position(), Color::White) + impasse::handicap_points(h),
            "{h}"
        );
    }
    // 歩三兵 can drop its pawns.
    let mut g = Game::handicap(Handicap::ThreePawns);
    play_on(&mut g, &["P*5e", "5g5f", "P*4e"]);
    assert_eq!(g.position().hand(Color::White).count(PieceKind::Pawn), 1);
}

// ----- USI -----

#[test]
fn a_game_from_a_usi_position_command() {
    let g = Game::from_usi(&format!(
        "position sfen {} moves 5a4b 7g7f",
        Handicap::TwoPieces.sfen()
    ))
    .unwrap();
    assert_eq!(g.handicap_setup(), Some(Handicap::TwoPieces));
    assert_eq!(g.moves(), &[mv("5a4b"), mv("7g7f")]);
    assert_eq!(g.positions().len(), 3);
    assert_eq!(g.start(), &Handicap::TwoPieces.position());
    // Twelve moves of the cycle end the game by repetition; a thirteenth
    // is an error naming it.
    let cycle = "2h3h 8b7b 3h2h 7b8b";
    let g = Game::from_usi(&format!("position startpos moves {cycle} {cycle} {cycle}")).unwrap();
    assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::Repetition));
    let e = Game::from_usi(&format!(
        "position startpos moves {cycle} {cycle} {cycle} 2h3h"
    ))
    .unwrap_err();
    assert!(matches!(e, GameUsiError::AfterEnd { index: 13, .. }), "{e}");
    assert!(e.to_string().contains("move 13 (2h3h)"), "{e}");
    // An illegal move in the command is an error, not a lost game.
    let e = Game::from_usi("position startpos moves 7g7f 7g7f").unwrap_err();
    assert!(matches!(e, GameUsiError::Usi(_)), "{e}");
}

// ----- random play against a brute-force referee -----

/// A deterministic xorshift generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The outcome the rules give after the last move of `moves` from
/// `start`, worked out from scratch: every earlier position compared in
/// full, checks read from `gives_check`.
fn referee(start: &Position, moves: &[Move]) -> Option<Outcome> {
    let mut positions = vec![start.clone()];
    for &m in moves {
        let next = positions[positions.len() - 1].after(m);
        positions.push(next);
    }
    let n = moves.len();
    let now = &positions[n];
    if movegen::legal_moves(now).is_empty() {
        let reason = if now.in_check() {
            Reason::Checkmate
        } else {
            Reason::NoLegalMoves
        };
        return Some(Outcome {
            winner: Some(!now.side_to_move()),
            reason,
        });
    }
    let same: Vec<usize> = (0..=n).filter(|&i| positions[i] == *now).collect();
    if same.len() < 4 {
        return None;
    }
    assert_eq!(same.len(), 4, "the game went on past a fourth occurrence");
    let checked_always = |c: Color| {
        (same[0]..n)
            .filter(|&i| positions[i].side_to_move() == c)
            .all(|i| positions[i].gives_check(moves[i]))
    };
    let (black, white) = (checked_always(Color::Black), checked_always(Color::White));
    let last_mover = positions[n - 1].side_to_move();
    let loser = match (black, white) {
        (true, true) => Some(last_mover),
        (true, false) => Some(Color::Black),
        (false, true) => Some(Color::White),
        (false, false) => None,
    };
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

#[test]
fn random_games_end_as_the_referee_says() {
    // Small armies and a bias towards taking back the move before last, so
    // that repetitions, perpetual checks and mates all come up.
    let starts = [
        "4k4/1r7/9/9/9/9/9/7R1/4K4 b - 1",
        "4k4/9/9/9/9/9/9/9/4K4 b Rr 1",
        "3gk4/9/4P4/9/9/9/9/9/4K4 b G2r2b2g4s4n4l17p 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        Handicap::ThreePawns.sfen(),
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut ends = std::collections::BTreeMap::new();
    let mut plies = 0;
    for game_number in 0..300 {
        let start = pos(starts[game_number % starts.len()]);
        let mut g = Game::new(start.clone());
        while !g.is_over() && g.moves().len() < 300 {
            let legal = movegen::legal_moves(g.position());
            let n = g.moves().len();
            // The reverse of the move before last, when it is a board move
            // that is legal again.
            let back = (n >= 2)
                .then(|| g.moves()[n - 2])
                .and_then(|m| Some(Move::new(m.to(), m.from()?, false)))
                .filter(|&m| legal.contains(&m));
            let m = match back {
                Some(b) if rng.next(3) != 0 => b,
                _ => legal[rng.next(legal.len())],
            };
            let got = g.play(m).unwrap();
            assert_eq!(got, referee(&start, g.moves()), "{start} {:?}", g.moves());
            assert_eq!(g.positions().len(), g.moves().len() + 1);
        }
        let key = g.outcome().map_or("unfinished", |o| match o.reason {
            Reason::Checkmate => "checkmate",
            Reason::NoLegalMoves => "no legal move",
            Reason::Repetition => "repetition",
            Reason::PerpetualCheck => "perpetual check",
            _ => "other",
        });
        *ends.entry(key).or_insert(0) += 1;
        plies += g.moves().len();
    }
    // The seed gives about 26,000 plies, mostly ending by repetition.
    assert!(plies > 10_000, "{plies}");
    // Each ending is reached, so the comparisons above covered them.
    for key in ["checkmate", "repetition", "perpetual check"] {
        assert!(ends.get(key).is_some_and(|&n| n > 0), "{ends:?}");
    }
}

#[test]
fn any_move_bits_are_legal_or_lose_with_the_rule_is_legal_gives() {
    // Every encodable move in a few positions: no panic; a legal move is
    // played, an illegal one ends the game with the reason `is_legal`
    // gives and the position untouched.
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for sfen in [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "8k/6S2/7G1/9/9/9/9/9/4K4 b P 1",
        "4k4/9/9/9/9/9/9/9/4K4 w 2r2b4g4s4n4l18p 1",
    ] {
        let start = pos(sfen);
        for _ in 0..3000 {
            let Some(m) = Move::from_raw(rng.next(1 << 15) as u16) else {
                continue;
            };
            let mut g = Game::new(start.clone());
            let got = g.play(m).unwrap();
            match start.is_legal(m) {
                Ok(()) => {
                    assert_eq!(g.moves(), &[m]);
                    assert_eq!(got, referee(&start, &[m]));
                }
                Err(rule) => {
                    assert_eq!(
                        got,
                        Some(Outcome {
                            winner: Some(!start.side_to_move()),
                            reason: Reason::IllegalMove { mv: m, rule }
                        })
                    );
                    assert_eq!(g.position(), &start);
                }
            }
        }
    }
}
