//! One named test per rule of shogi, on hand-made positions, with exact
//! move lists, counts and `IllegalMove` reasons. Every position is also
//! checked in its colour-mirrored form (board turned 180 degrees, colours
//! and hands swapped), where the same rules must give the mirrored moves.

use tsume::core::movegen;
use tsume::core::{Color, IllegalMove, Move, PieceKind, Position, Square};

fn pos(sfen: &str) -> Position {
    sfen.parse()
        .unwrap_or_else(|e| panic!("test position {sfen}: {e}"))
}

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

/// The position turned 180 degrees with colours, hands and the side to
/// move swapped.
fn mirror(p: &Position) -> Position {
    let mut board = String::new();
    for rank in 1..=9u8 {
        if rank > 1 {
            board.push('/');
        }
        let mut empty = 0;
        for file in (1..=9u8).rev() {
            let s = Square::from_file_rank(file, rank).unwrap().flip();
            match p.piece_at(s) {
                None => empty += 1,
                Some(piece) => {
                    if empty > 0 {
                        board.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let text = piece.to_string();
                    // Swap the case: the colour changes.
                    board.extend(text.chars().map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    }));
                }
            }
        }
        if empty > 0 {
            board.push_str(&empty.to_string());
        }
    }
    let mut hands = String::new();
    for (c, upper) in [(Color::White, true), (Color::Black, false)] {
        for k in PieceKind::HAND {
            let n = p.hand(c).count(k);
            let letter = k.sfen_letter();
            let letter = if upper {
                letter
            } else {
                letter.to_ascii_lowercase()
            };
            if n > 0 {
                hands.push_str(&format!("{n}{letter}"));
            }
        }
    }
    if hands.is_empty() {
        hands.push('-');
    }
    let side = match p.side_to_move() {
        Color::Black => 'w',
        Color::White => 'b',
    };
    pos(&format!("{board} {side} {hands} 1"))
}

fn flip_move(m: Move) -> Move {
    match (m.drop_kind(), m.from()) {
        (Some(k), _) => Move::new_drop(k, m.to().flip()),
        (None, Some(f)) => Move::new(f.flip(), m.to().flip(), m.is_promotion()),
        _ => unreachable!(),
    }
}

fn names(moves: &[Move]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// All legal moves, as sorted USI strings, after checking that the
/// mirrored position has exactly the mirrored moves, checks and verdicts.
fn legal(p: &Position) -> Vec<String> {
    let moves = movegen::legal_moves(p);
    let m = mirror(p);
    let mirrored: Vec<Move> = moves.iter().map(|&x| flip_move(x)).collect();
    assert_eq!(
        names(&movegen::legal_moves(&m)),
        names(&mirrored),
        "mirror of {p}: {m}"
    );
    let checks: Vec<Move> = movegen::check_moves(p)
        .iter()
        .map(|&x| flip_move(x))
        .collect();
    assert_eq!(
        names(&movegen::check_moves(&m)),
        names(&checks),
        "mirror of {p}"
    );
    names(&moves)
}

/// The legal moves of the piece on `from`.
fn moves_from(p: &Position, from: &str) -> Vec<String> {
    let from = sq(from);
    let moves: Vec<Move> = movegen::legal_moves(p)
        .iter()
        .copied()
        .filter(|m| m.from() == Some(from))
        .collect();
    let _ = legal(p);
    names(&moves)
}

/// The legal drops of `kind`, as destination squares.
fn drops(p: &Position, kind: PieceKind) -> Vec<String> {
    let _ = legal(p);
    let mut v: Vec<String> = movegen::legal_moves(p)
        .iter()
        .filter(|m| m.drop_kind() == Some(kind))
        .map(|m| m.to().to_string())
        .collect();
    v.sort();
    v
}

fn checks(p: &Position) -> Vec<String> {
    let _ = legal(p);
    names(&movegen::check_moves(p))
}

/// `is_legal` of the move and of its mirror in the mirrored position.
fn verdict(p: &Position, m: &str) -> Result<(), IllegalMove> {
    let m = mv(m);
    let v = p.is_legal(m);
    let mirrored = mirror(p).is_legal(flip_move(m));
    let flip_reason = v.map_err(|e| match e {
        IllegalMove::NoPiece(s) => IllegalMove::NoPiece(s.flip()),
        IllegalMove::CannotReach { from, to } => IllegalMove::CannotReach {
            from: from.flip(),
            to: to.flip(),
        },
        IllegalMove::OwnPiece(s) => IllegalMove::OwnPiece(s.flip()),
        IllegalMove::DropOnOccupied(s) => IllegalMove::DropOnOccupied(s.flip()),
        IllegalMove::MissingPromotion(s) => IllegalMove::MissingPromotion(s.flip()),
        IllegalMove::DeadSquareDrop { kind, to } => IllegalMove::DeadSquareDrop {
            kind,
            to: to.flip(),
        },
        IllegalMove::TwoPawns(f) => IllegalMove::TwoPawns(10 - f),
        e => e,
    });
    assert_eq!(mirrored, flip_reason, "mirror of {m} in {p}");
    v
}

/// Every square name of the board, except those listed.
fn all_squares_except(ranks: std::ops::RangeInclusive<u8>, except: &[&str]) -> Vec<String> {
    let mut v = Vec::new();
    for file in 1..=9 {
        for rank in ranks.clone() {
            let s = Square::from_file_rank(file, rank).unwrap().to_string();
            if !except.contains(&s.as_str()) {
                v.push(s);
            }
        }
    }
    v.sort();
    v
}

// ----- drops -----

#[test]
fn nifu_no_pawn_drop_on_a_file_with_an_own_unpromoted_pawn() {
    // Black pawn on 5g, black tokin on 4e, white pawn on 6c.
    let p = pos("k8/9/3p5/9/5+P3/9/4P4/9/8K b P 1");
    assert_eq!(verdict(&p, "P*5f"), Err(IllegalMove::TwoPawns(5)));
    assert_eq!(verdict(&p, "P*5b"), Err(IllegalMove::TwoPawns(5)));
    // A promoted pawn does not count, nor does an enemy pawn.
    assert_eq!(verdict(&p, "P*4f"), Ok(()));
    assert_eq!(verdict(&p, "P*6d"), Ok(()));
    // Every empty square of ranks b..i except file 5; 9b checks but the
    // king escapes (8a, 8b, or takes 9b).
    let files_ok: Vec<String> = all_squares_except(2..=9, &["4e", "6c", "1i"])
        .into_iter()
        .filter(|s| !s.starts_with('5'))
        .collect();
    assert_eq!(drops(&p, PieceKind::Pawn), files_ok);
    assert_eq!(drops(&p, PieceKind::Pawn).len(), 61);
    assert_eq!(verdict(&p, "P*9b"), Ok(()));
}

#[test]
fn nifu_for_white() {
    let p = pos("k8/9/3p5/9/5+P3/9/4P4/9/8K w p 1");
    assert_eq!(verdict(&p, "P*6d"), Err(IllegalMove::TwoPawns(6)));
    assert_eq!(verdict(&p, "P*6h"), Err(IllegalMove::TwoPawns(6)));
    assert_eq!(verdict(&p, "P*5f"), Ok(()));
    let d = drops(&p, PieceKind::Pawn);
    assert!(d.iter().all(|s| !s.starts_with('6')), "{d:?}");
    assert!(d.iter().all(|s| !s.ends_with('i')), "{d:?}");
    // Ranks a..h, files other than 6, minus 9a, 5g, 4e (5g, 4e occupied).
    assert_eq!(d.len(), 8 * 8 - 3);
}

#[test]
fn pawn_drop_mate_is_illegal() {
    // White king 1a, own knight 2a; the black gold on 1c guards 1b and 2b.
    let p = pos("7nk/9/8G/9/9/9/9/9/9 b P 1");
    assert_eq!(verdict(&p, "P*1b"), Err(IllegalMove::PawnDropMate));
    assert!(!drops(&p, PieceKind::Pawn).contains(&"1b".to_string()));
    assert!(!checks(&p).contains(&"P*1b".to_string()));
    // No other move mates: the gold checks from 1b or 2b are taken.
    assert_eq!(checks(&p), sorted(&["1c1b", "1c2b"]));
    assert_eq!(movegen::mate_in_one(&p), None);
    // Every other empty square of ranks b..i takes a pawn.
    assert_eq!(
        drops(&p, PieceKind::Pawn),
        all_squares_except(2..=9, &["1b", "1c"])
    );
}

#[test]
fn pawn_drop_check_that_is_not_mate_is_legal() {
    // As above without the knight: the king escapes to 2a.
    let p = pos("8k/9/8G/9/9/9/9/9/9 b P 1");
    assert_eq!(verdict(&p, "P*1b"), Ok(()));
    assert!(checks(&p).contains(&"P*1b".to_string()));
    let after = p.after(mv("P*1b"));
    assert!(after.in_check());
    assert_eq!(legal(&after), vec!["1a2a"]);
}

#[test]
fn pawn_move_mate_is_legal() {
    // The same net, but the pawn comes from 1c instead of the hand.
    let p = pos("7nk/9/7GP/9/9/9/9/9/9 b - 1");
    assert_eq!(moves_from(&p, "1c"), vec!["1c1b", "1c1b+"]);
    assert_eq!(verdict(&p, "1c1b"), Ok(()));
    assert!(p.gives_check(mv("1c1b")));
    assert!(movegen::is_checkmate(&p.after(mv("1c1b"))));
    assert!(movegen::is_checkmate(&p.after(mv("1c1b+"))));
    let mate = movegen::mate_in_one(&p).expect("a mate in one");
    assert!(mate == mv("1c1b") || mate == mv("1c1b+"), "{mate}");
    assert!(checks(&p).contains(&"1c1b".to_string()));
}

#[test]
fn pawn_drop_mate_when_the_king_could_only_take_a_defended_pawn() {
    // King 5a between its own lances; the rook on 9b guards 5b and 6b,
    // the knight on 3d guards 4b. Taking the pawn walks into the rook.
    let p = pos("3lkl3/R8/9/6N2/9/9/9/9/9 b P 1");
    assert_eq!(verdict(&p, "P*5b"), Err(IllegalMove::PawnDropMate));
    // Without the rook the king takes the pawn (and 6b is free).
    let q = pos("3lkl3/9/9/6N2/9/9/9/9/9 b P 1");
    assert_eq!(verdict(&q, "P*5b"), Ok(()));
    assert_eq!(legal(&q.after(mv("P*5b"))), sorted(&["5a5b", "5a6b"]));
    // With the rook on 9c instead, 5b is undefended: the king takes it.
    let r = pos("3lkl3/9/R8/6N2/9/9/9/9/9 b P 1");
    assert_eq!(verdict(&r, "P*5b"), Ok(()));
    assert_eq!(legal(&r.after(mv("P*5b"))), sorted(&["5a5b", "5a6b"]));
}

#[test]
fn pawn_drop_mate_when_the_only_capturer_is_pinned() {
    // The white gold on 2a could take 1b but is pinned by the rook on 9a.
    let p = pos("R6gk/9/8G/9/9/9/9/9/9 b P 1");
    assert_eq!(verdict(&p, "P*1b"), Err(IllegalMove::PawnDropMate));
    assert!(!drops(&p, PieceKind::Pawn).contains(&"1b".to_string()));
    // Unpinned, the gold takes the pawn: the drop is legal.
    let q = pos("7gk/9/8G/9/9/9/9/9/9 b P 1");
    assert_eq!(verdict(&q, "P*1b"), Ok(()));
    assert_eq!(legal(&q.after(mv("P*1b"))), vec!["2a1b"]);
}

#[test]
fn pawn_drop_is_legal_when_a_pinned_piece_takes_along_its_pin_line() {
    // The white gold on 1c is pinned on file 1 by the rook on 1e; taking
    // the pawn on 1b keeps it on the line, so the drop is not mate.
    let p = pos("7nk/9/6G1g/7N1/8R/9/9/9/9 b P 1");
    assert_eq!(verdict(&p, "P*1b"), Ok(()));
    let after = p.after(mv("P*1b"));
    assert_eq!(legal(&after), vec!["1c1b"]);
}

#[test]
fn pawn_drop_mate_is_illegal_as_an_interposition_too() {
    // Black's king on 1f is checked by the bishop on 6a. Dropping a pawn
    // on 5b would block and mate the king on 5a: the bishop, the only
    // piece that could take it, is pinned on rank a by the rook on 9a.
    let p = pos("R2bkl3/9/4G4/9/9/8K/9/9/9 b P 1");
    assert!(p.in_check());
    assert_eq!(verdict(&p, "P*5b"), Err(IllegalMove::PawnDropMate));
    assert_eq!(
        legal(&p),
        sorted(&[
            "1f1e", "1f2f", "1f1g", "1f2g", "5c5b", "5c4c", "P*4c", "P*3d", "P*2e", "9a6a", "9a6a+"
        ])
    );
}

// ----- dead squares -----

#[test]
fn dead_square_drops_for_black() {
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b PLN 1");
    assert_eq!(
        verdict(&p, "P*1a"),
        Err(IllegalMove::DeadSquareDrop {
            kind: PieceKind::Pawn,
            to: sq("1a")
        })
    );
    assert_eq!(
        verdict(&p, "L*9a"),
        Err(IllegalMove::DeadSquareDrop {
            kind: PieceKind::Lance,
            to: sq("9a")
        })
    );
    assert_eq!(
        verdict(&p, "N*3a"),
        Err(IllegalMove::DeadSquareDrop {
            kind: PieceKind::Knight,
            to: sq("3a")
        })
    );
    assert_eq!(
        verdict(&p, "N*3b"),
        Err(IllegalMove::DeadSquareDrop {
            kind: PieceKind::Knight,
            to: sq("3b")
        })
    );
    assert_eq!(verdict(&p, "N*3c"), Ok(()));
    assert_eq!(verdict(&p, "L*3b"), Ok(()));
    assert_eq!(verdict(&p, "P*3b"), Ok(()));
    assert_eq!(
        drops(&p, PieceKind::Pawn),
        all_squares_except(2..=9, &["5i"])
    );
    assert_eq!(
        drops(&p, PieceKind::Lance),
        all_squares_except(2..=9, &["5i"])
    );
    assert_eq!(
        drops(&p, PieceKind::Knight),
        all_squares_except(3..=9, &["5i"])
    );
    // 5 king moves + 71 pawn + 71 lance + 62 knight drops.
    assert_eq!(legal(&p).len(), 5 + 71 + 71 + 62);
}

#[test]
fn dead_square_drops_for_white() {
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 w pln 1");
    assert_eq!(
        verdict(&p, "P*1i"),
        Err(IllegalMove::DeadSquareDrop {
            kind: PieceKind::Pawn,
            to: sq("1i")
        })
    );
    assert_eq!(
        verdict(&p, "L*2i"),
        Err(IllegalMove::DeadSquareDrop {
            kind: PieceKind::Lance,
            to: sq("2i")
        })
    );
    assert_eq!(
        verdict(&p, "N*3h"),
        Err(IllegalMove::DeadSquareDrop {
            kind: PieceKind::Knight,
            to: sq("3h")
        })
    );
    assert_eq!(verdict(&p, "N*3g"), Ok(()));
    assert_eq!(verdict(&p, "P*3h"), Ok(()));
    assert_eq!(
        drops(&p, PieceKind::Pawn),
        all_squares_except(1..=8, &["5a"])
    );
    assert_eq!(
        drops(&p, PieceKind::Lance),
        all_squares_except(1..=8, &["5a"])
    );
    assert_eq!(
        drops(&p, PieceKind::Knight),
        all_squares_except(1..=7, &["5a"])
    );
    assert_eq!(legal(&p).len(), 5 + 71 + 71 + 62);
}

#[test]
fn other_drops_go_anywhere_empty() {
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b SGBR 1");
    for kind in [
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
    ] {
        assert_eq!(drops(&p, kind), all_squares_except(1..=9, &["5a", "5i"]));
    }
    assert_eq!(
        verdict(&p, "G*5a"),
        Err(IllegalMove::DropOnOccupied(sq("5a")))
    );
    assert_eq!(
        verdict(&p, "P*5e"),
        Err(IllegalMove::NotInHand(PieceKind::Pawn))
    );
}

// ----- promotion -----

#[test]
fn forced_promotion_on_the_last_ranks() {
    // Pawn 7b, lance 1d, knights 5d and 3e; white king 9i, black king 1i.
    let p = pos("9/2P6/9/4N3L/6N2/9/9/9/k7K b - 1");
    assert_eq!(moves_from(&p, "7b"), vec!["7b7a+"]);
    assert_eq!(
        moves_from(&p, "1d"),
        sorted(&["1d1c", "1d1c+", "1d1b", "1d1b+", "1d1a+"])
    );
    assert_eq!(moves_from(&p, "5d"), sorted(&["5d4b+", "5d6b+"]));
    assert_eq!(
        moves_from(&p, "3e"),
        sorted(&["3e2c", "3e2c+", "3e4c", "3e4c+"])
    );
    assert_eq!(
        verdict(&p, "7b7a"),
        Err(IllegalMove::MissingPromotion(sq("7a")))
    );
    assert_eq!(
        verdict(&p, "1d1a"),
        Err(IllegalMove::MissingPromotion(sq("1a")))
    );
    assert_eq!(
        verdict(&p, "5d4b"),
        Err(IllegalMove::MissingPromotion(sq("4b")))
    );
    assert_eq!(verdict(&p, "3e2c"), Ok(()));
}

#[test]
fn forced_promotion_for_white() {
    let p = pos("K7k/9/9/9/2n6/l3n4/9/6p2/9 w - 1");
    assert_eq!(moves_from(&p, "3h"), vec!["3h3i+"]);
    assert_eq!(
        moves_from(&p, "9f"),
        sorted(&["9f9g", "9f9g+", "9f9h", "9f9h+", "9f9i+"])
    );
    assert_eq!(moves_from(&p, "5f"), sorted(&["5f4h+", "5f6h+"]));
    assert_eq!(
        moves_from(&p, "7e"),
        sorted(&["7e6g", "7e6g+", "7e8g", "7e8g+"])
    );
    assert_eq!(
        verdict(&p, "5f4h"),
        Err(IllegalMove::MissingPromotion(sq("4h")))
    );
}

#[test]
fn optional_promotion_entering_inside_and_leaving_the_zone() {
    // Silvers on 5d (enters) and 2c (inside, and leaving backwards), the
    // rook on 8c leaving the zone down file 8, the bishop on 7a inside.
    let p = pos("2B6/9/1R5S1/4S4/9/9/9/9/k7K b - 1");
    assert_eq!(
        moves_from(&p, "5d"),
        sorted(&[
            "5d5c", "5d5c+", "5d4c", "5d4c+", "5d6c", "5d6c+", "5d4e", "5d6e"
        ])
    );
    assert_eq!(
        moves_from(&p, "2c"),
        sorted(&[
            "2c2b", "2c2b+", "2c1b", "2c1b+", "2c3b", "2c3b+", "2c1d", "2c1d+", "2c3d", "2c3d+"
        ])
    );
    let rook = moves_from(&p, "8c");
    for m in [
        "8c8d", "8c8d+", "8c8h", "8c8h+", "8c8a", "8c8a+", "8c7c", "8c7c+",
    ] {
        assert!(rook.contains(&m.to_string()), "{m} in {rook:?}");
    }
    // Every rook move starts in the zone: every one may promote.
    assert_eq!(rook.len(), 2 * (2 + 6 + 1 + 5));
    // Leaving the zone backwards is a promotion chance too.
    assert_eq!(verdict(&p, "2c3d+"), Ok(()));
    let bishop = moves_from(&p, "7a");
    assert_eq!(
        bishop,
        sorted(&[
            "7a8b", "7a8b+", "7a9c", "7a9c+", "7a6b", "7a6b+", "7a5c", "7a5c+", "7a4d", "7a4d+",
            "7a3e", "7a3e+", "7a2f", "7a2f+", "7a1g", "7a1g+"
        ])
    );
    // Outside the zone there is no promotion.
    assert_eq!(verdict(&p, "5d4e+"), Err(IllegalMove::IllegalPromotion));
}

#[test]
fn non_promoting_moves_of_pawn_bishop_and_rook_are_generated() {
    // Pawn 7d, bishop 5e, rook 2f; kings 5a (white) and 1i.
    let p = pos("4k4/9/9/2P6/4B4/7R1/9/9/8K b - 1");
    assert_eq!(moves_from(&p, "7d"), vec!["7d7c", "7d7c+"]);
    let bishop = moves_from(&p, "5e");
    for m in [
        "5e3c", "5e3c+", "5e2b", "5e2b+", "5e1a", "5e1a+", "5e7c", "5e7c+",
    ] {
        assert!(bishop.contains(&m.to_string()), "{m} in {bishop:?}");
    }
    let rook = moves_from(&p, "2f");
    for m in ["2f2c", "2f2c+", "2f2b", "2f2b+", "2f2a", "2f2a+"] {
        assert!(rook.contains(&m.to_string()), "{m} in {rook:?}");
    }
    // Bishop: six zone squares (3c, 2b, 1a, 7c, 8b, 9a) with two choices,
    // then 4d, 6d, three towards 1i (its own king there) and four to 9i.
    assert_eq!(bishop.len(), 2 * 6 + 2 + 3 + 4);
    // Non-promotions are among the checks when they check: the rook on
    // 5a attacks 6a, on 5b only the dragon does.
    let q = pos("3k5/9/9/9/9/9/9/9/4R3K b - 1");
    let c = checks(&q);
    for m in ["5i5a", "5i5a+", "5i5b+", "5i6i"] {
        assert!(c.contains(&m.to_string()), "{m} in {c:?}");
    }
    assert!(!c.contains(&"5i5b".to_string()), "{c:?}");
    // A bishop check into the zone, with and without promotion.
    let q = pos("6k2/9/9/9/9/9/9/9/B7K b - 1");
    assert_eq!(checks(&q), sorted(&["9i2b", "9i2b+"]));
}

#[test]
fn gold_king_and_promoted_pieces_never_promote() {
    // Gold 5c, tokin 4c, horse 7c, dragon 2c, king 8b; white king 9i.
    let p = pos("9/1K7/2+B1G+P1+R1/9/9/9/9/9/k8 b - 1");
    let moves = legal(&p);
    assert!(moves.iter().all(|m| !m.ends_with('+')), "{moves:?}");
    for m in ["5c5b+", "4c4b+", "7c6b+", "2c2a+", "8b8a+"] {
        assert_eq!(verdict(&p, m), Err(IllegalMove::IllegalPromotion), "{m}");
    }
    assert_eq!(
        moves_from(&p, "5c"),
        sorted(&["5c5b", "5c4b", "5c6b", "5c6c", "5c5d"])
    );
    assert_eq!(moves_from(&p, "4c").len(), 5);
}

// ----- pins, checks, the king -----

#[test]
fn pinned_rook_moves_only_along_the_pin_and_may_take_the_pinner() {
    let p = pos("4r4/9/9/9/9/9/4R4/9/4K4 b - 1");
    assert_eq!(
        moves_from(&p, "5g"),
        sorted(&[
            "5g5h", "5g5f", "5g5e", "5g5d", "5g5c", "5g5c+", "5g5b", "5g5b+", "5g5a", "5g5a+"
        ])
    );
    assert_eq!(verdict(&p, "5g4g"), Err(IllegalMove::LeavesKingInCheck));
}

#[test]
fn pinned_lance_may_take_the_pinner() {
    let p = pos("4r4/9/9/9/9/9/4L4/9/4K4 b - 1");
    assert_eq!(
        moves_from(&p, "5g"),
        sorted(&[
            "5g5f", "5g5e", "5g5d", "5g5c", "5g5c+", "5g5b", "5g5b+", "5g5a+"
        ])
    );
}

#[test]
fn pinned_pieces_on_a_diagonal() {
    // Silver on 4h pinned by the bishop on 2f: only 3g stays on the line.
    let p = pos("9/9/9/9/9/7b1/9/5S3/4K4 b - 1");
    assert_eq!(moves_from(&p, "4h"), vec!["4h3g"]);
    let p = pos("9/9/9/9/9/7b1/9/5G3/4K4 b - 1");
    assert_eq!(moves_from(&p, "4h"), vec!["4h3g"]);
    // A pinned knight has no move; a pinned rook on a diagonal neither.
    let p = pos("9/9/9/9/9/7b1/9/5N3/4K4 b - 1");
    assert!(moves_from(&p, "4h").is_empty());
    let p = pos("9/9/9/9/9/7b1/9/5R3/4K4 b - 1");
    assert!(moves_from(&p, "4h").is_empty());
    // The pinned bishop slides along the pin and takes the pinner.
    let p = pos("9/9/9/9/9/7b1/9/5B3/4K4 b - 1");
    assert_eq!(moves_from(&p, "4h"), sorted(&["4h3g", "4h2f"]));
    // Not pinned: a white piece stands between.
    let p = pos("9/9/9/9/9/7b1/6p2/5S3/4K4 b - 1");
    assert_eq!(
        moves_from(&p, "4h"),
        sorted(&["4h3g", "4h4g", "4h5g", "4h3i"])
    );
}

#[test]
fn double_check_allows_king_moves_only() {
    // Rook 5a on the file, bishop 1e on the diagonal; the gold on 4g could
    // block the bishop on 4h but not both checks; a gold in hand neither.
    let p = pos("k3r4/9/9/9/8b/9/5G3/9/4K4 b G 1");
    assert_eq!(p.checkers().count(), 2);
    assert_eq!(legal(&p), sorted(&["5i4i", "5i6i", "5i6h"]));
    assert_eq!(movegen::evasion_moves(&p).len(), 3);
    assert_eq!(verdict(&p, "4g4h"), Err(IllegalMove::LeavesKingInCheck));
    assert_eq!(verdict(&p, "G*5h"), Err(IllegalMove::LeavesKingInCheck));
    assert_eq!(verdict(&p, "5i5h"), Err(IllegalMove::LeavesKingInCheck));
}

#[test]
fn single_check_allows_capture_interposition_and_king_moves() {
    // Only the rook checks: the king steps aside, the gold on 4g
    // interposes on 5f or 5g, a gold from hand on 5b..5h.
    let p = pos("k3r4/9/9/9/9/9/5G3/9/4K4 b G 1");
    assert_eq!(p.checkers().count(), 1);
    assert_eq!(
        legal(&p),
        sorted(&[
            "5i4i", "5i6i", "5i4h", "5i6h", "4g5f", "4g5g", "G*5b", "G*5c", "G*5d", "G*5e", "G*5f",
            "G*5g", "G*5h"
        ])
    );
    // A capture of the checker is an evasion too.
    let q = pos("k3r3R/9/9/9/9/9/9/9/4K4 b - 1");
    assert_eq!(moves_from(&q, "1a"), sorted(&["1a5a", "1a5a+"]));
}

#[test]
fn a_pinned_piece_cannot_take_the_checker() {
    // The gold on 1h checks, defended by the lance on 1a; the black gold on
    // 2h could take it but is pinned on the diagonal by the bishop on 5e.
    let p = pos("k7l/9/9/9/4b4/9/9/7Gg/8K b - 1");
    assert!(p.in_check());
    assert!(legal(&p).is_empty());
    assert!(movegen::is_checkmate(&p));
    assert!(!movegen::has_legal_move(&p));
    assert_eq!(verdict(&p, "2h1h"), Err(IllegalMove::LeavesKingInCheck));
    // Without the bishop the capture is the only move.
    let q = pos("k7l/9/9/9/9/9/9/7Gg/8K b - 1");
    assert_eq!(legal(&q), vec!["2h1h"]);
    assert!(!movegen::is_checkmate(&q));
    assert!(movegen::has_legal_move(&q));
}

#[test]
fn the_king_never_steps_into_check() {
    // In check from the rook on 5a: 5f behind the king stays attacked.
    let p = pos("4r4/9/9/9/4K4/9/9/9/9 b - 1");
    assert_eq!(
        legal(&p),
        sorted(&["5e4d", "5e6d", "5e4e", "5e6e", "5e4f", "5e6f"])
    );
    assert_eq!(verdict(&p, "5e5f"), Err(IllegalMove::LeavesKingInCheck));
    assert_eq!(verdict(&p, "5e5d"), Err(IllegalMove::LeavesKingInCheck));
    // The same behind the king on a diagonal (bishop on 1i) and on a file
    // (lance on 5a).
    let p = pos("9/9/9/9/4K4/9/9/9/8b b - 1");
    assert_eq!(
        legal(&p),
        sorted(&["5e4d", "5e5d", "5e4e", "5e6e", "5e5f", "5e6f"])
    );
    assert_eq!(verdict(&p, "5e6d"), Err(IllegalMove::LeavesKingInCheck));
    let p = pos("4l4/9/9/9/4K4/9/9/9/9 b - 1");
    assert_eq!(
        legal(&p),
        sorted(&["5e4d", "5e6d", "5e4e", "5e6e", "5e4f", "5e6f"])
    );
    // Not in check: the pawn on 5c guards 5d, the knight on 3b guards 4d,
    // the lance on 6a guards file 6, and the pawn on 4f is defended by the
    // silver on 3g. Only 4e and 5f are safe.
    let p = pos("3l5/6n2/4p4/9/4K4/5p3/6s2/9/9 b - 1");
    assert_eq!(moves_from(&p, "5e"), sorted(&["5e4e", "5e5f"]));
    assert_eq!(verdict(&p, "5e4f"), Err(IllegalMove::LeavesKingInCheck));
    assert_eq!(verdict(&p, "5e6e"), Err(IllegalMove::LeavesKingInCheck));
}

#[test]
fn discovered_checks_are_generated() {
    // Rook 5i behind the silver on 5e, white king 5a.
    let p = pos("4k4/9/9/9/4S4/9/9/9/4R3K b - 1");
    assert_eq!(checks(&p), sorted(&["5e4d", "5e6d", "5e4f", "5e6f"]));
    // The king as the piece that moves off the line.
    let p = pos("4k4/9/9/9/4K4/9/9/9/4L4 b - 1");
    assert_eq!(
        checks(&p),
        sorted(&["5e4d", "5e6d", "5e4e", "5e6e", "5e4f", "5e6f"])
    );
    // Discovered and direct at once: a double check.
    let p = pos("4k4/9/4S4/9/9/9/9/9/4R3K b - 1");
    let c = checks(&p);
    assert_eq!(
        c,
        sorted(&[
            "5c4b", "5c4b+", "5c6b", "5c6b+", "5c4d", "5c4d+", "5c6d", "5c6d+", "5c5b+", "5c5b"
        ])
    );
    let after = p.after(mv("5c4b"));
    assert_eq!(after.checkers().count(), 2);
    assert_eq!(legal(&after), sorted(&["5a6a", "5a4b", "5a6b"]));
}

#[test]
fn the_attacker_without_a_king() {
    // The usual tsume set-up: Black (attacking) has no king.
    let p = pos("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
    assert_eq!(p.king_square(Color::Black), None);
    // 79 gold drops, the pawn to 5b with and without promotion.
    assert_eq!(legal(&p).len(), 79 + 2);
    assert_eq!(
        checks(&p),
        sorted(&["G*4a", "G*6a", "G*4b", "G*5b", "G*6b", "5c5b", "5c5b+"])
    );
    // The defender to move: king moves and drops of everything it holds.
    let d = pos("4k4/9/4P4/9/9/9/9/9/9 w G2r2b3g4s4n4l17p 1");
    let moves = legal(&d);
    // King 5a: 4a, 6a, 4b, 6b (5b is guarded by the pawn on 5c).
    assert_eq!(
        moves_from(&d, "5a"),
        sorted(&["5a4a", "5a6a", "5a4b", "5a6b"])
    );
    // Nothing white does gives check: there is no black king.
    assert!(checks(&d).is_empty());
    assert!(movegen::evasion_moves(&d).is_empty());
    // Drops: r, b, g, s on all 79 empty squares; n not on ranks h and i;
    // l and p not on rank i (the black pawn on file 5 does not stop a
    // white pawn there).
    assert_eq!(moves.len(), 4 + 4 * 79 + (79 - 18) + (79 - 9) + (79 - 9));
}

#[test]
fn a_tsume_position_with_only_the_defenders_king() {
    let p = pos("8k/9/9/9/9/9/9/9/9 b 2G 1");
    assert_eq!(legal(&p).len(), 80);
    assert_eq!(checks(&p), sorted(&["G*2a", "G*1b", "G*2b"]));
    assert_eq!(movegen::mate_in_one(&p), None);
    let after = p.after(mv("G*1b"));
    assert_eq!(legal(&after), vec!["1a1b"]);
    // With a second gold on 1c the drops on 1b and 2b mate; 2a does not.
    let p = pos("8k/9/8G/9/9/9/9/9/9 b G 1");
    let mate = movegen::mate_in_one(&p).expect("a mate");
    assert!(mate == mv("G*1b") || mate == mv("G*2b"), "{mate}");
    assert!(movegen::is_checkmate(&p.after(mv("G*1b"))));
    assert!(movegen::is_checkmate(&p.after(mv("G*2b"))));
    assert!(!movegen::is_checkmate(&p.after(mv("G*2a"))));
    assert!(!movegen::is_checkmate(&p.after(mv("1c1b"))));
    // No kings at all: every move is legal, none checks.
    let p = pos("9/9/9/9/4G4/9/9/9/9 b - 1");
    assert_eq!(legal(&p).len(), 6);
    assert!(checks(&p).is_empty());
}

#[test]
fn every_illegal_move_reason() {
    let p = pos("4k4/9/9/9/9/9/4P4/4G4/4K4 b P 1");
    assert_eq!(verdict(&p, "1a1b"), Err(IllegalMove::NoPiece(sq("1a"))));
    assert_eq!(verdict(&p, "5a5b"), Err(IllegalMove::NoPiece(sq("5a"))));
    assert_eq!(
        verdict(&p, "L*1e"),
        Err(IllegalMove::NotInHand(PieceKind::Lance))
    );
    assert_eq!(
        verdict(&p, "5g5e"),
        Err(IllegalMove::CannotReach {
            from: sq("5g"),
            to: sq("5e")
        })
    );
    assert_eq!(verdict(&p, "5h5g"), Err(IllegalMove::OwnPiece(sq("5g"))));
    assert_eq!(
        verdict(&p, "P*5a"),
        Err(IllegalMove::DropOnOccupied(sq("5a")))
    );
    assert_eq!(verdict(&p, "5g5f+"), Err(IllegalMove::IllegalPromotion));
    assert_eq!(verdict(&p, "P*5e"), Err(IllegalMove::TwoPawns(5)));
    assert_eq!(
        verdict(&p, "P*4a"),
        Err(IllegalMove::DeadSquareDrop {
            kind: PieceKind::Pawn,
            to: sq("4a")
        })
    );
    assert_eq!(verdict(&p, "5g5f"), Ok(()));
    let q = pos("4r4/9/9/9/9/9/9/4G4/4K4 b - 1");
    assert_eq!(verdict(&q, "5h4h"), Err(IllegalMove::LeavesKingInCheck));
    assert_eq!(verdict(&q, "5h5g"), Ok(()));
}
