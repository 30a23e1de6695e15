//! Differential test against the `shunsai` crate (a separate legal move
//! generator): on positions of seeded random games, from the start
//! position and from tsume positions, both must give the same set of legal
//! moves (compared as USI strings) and agree on whether the side to move
//! is in check.

use shunsai::shogi_core::{self, PartialPosition, ToUsi};
use tsume::core::movegen;
use tsume::core::{Color, Move, PieceKind, Position, Square};

/// Tsume positions from the shared problem sets (`problems/*.tsv`).
const STARTS: &[&str] = &[
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    // antma_tests.tsv
    "kb7/p8/9/9/9/9/8B/9/8K b 2R4G4S4N4L17P 1",
    "9/2B6/3G2r2/3pkL1R1/3gsg3/3S2B2/3g5/4N4/4L4 b 2s3n2l17p 1",
    "lS5nl/3s2+R2/p6p1/kS2Gb2p/3ppNpS1/Np3P2P/PPG1P1K2/4G4/LB5RL b GN4P2p 1",
    "9/9/9/4k4/9/4P4/9/9/9 b 4G2r2b4s4n4l17p 1",
    // nomate.tsv
    "lr6l/4g4/p3p4/1pp5p/P2S1p3/2P1N2+bP/1PGP1Pk1R/2N3pp1/4K3L w b2g3s2nl4p 152",
    "kn7/1s7/9/1N7/9/9/9/9/9 b P2r2b4g3s2n4l17p 1",
    // musou.tsv
    "3g1n1l1/2p1g1r2/5k2S/4p1N+R1/3+p5/7N1/B8/9/9 b 2GSNb2s3l15p 1",
    // famous_long.tsv
    "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1",
    // yaneuraou_mate_samples.tsv
    "l3kgsnl/9/p1pS+Bp3/7pp/6PP1/9/PPPPPPn1P/1B1GG2+r1/LNS1K3L w RG3Psnp 54",
];

fn their_kind(k: PieceKind) -> shogi_core::PieceKind {
    use shogi_core::PieceKind as T;
    match k {
        PieceKind::Pawn => T::Pawn,
        PieceKind::Lance => T::Lance,
        PieceKind::Knight => T::Knight,
        PieceKind::Silver => T::Silver,
        PieceKind::Gold => T::Gold,
        PieceKind::Bishop => T::Bishop,
        PieceKind::Rook => T::Rook,
        PieceKind::King => T::King,
        PieceKind::ProPawn => T::ProPawn,
        PieceKind::ProLance => T::ProLance,
        PieceKind::ProKnight => T::ProKnight,
        PieceKind::ProSilver => T::ProSilver,
        PieceKind::Horse => T::ProBishop,
        PieceKind::Dragon => T::ProRook,
    }
}

fn their_color(c: Color) -> shogi_core::Color {
    match c {
        Color::Black => shogi_core::Color::Black,
        Color::White => shogi_core::Color::White,
    }
}

/// The same position as a `shunsai` position, built square by square.
fn theirs(pos: &Position) -> shunsai::Position {
    let mut p = PartialPosition::empty();
    for sq in Square::all() {
        if let Some(piece) = pos.piece_at(sq) {
            let s = shogi_core::Square::new(sq.file(), sq.rank()).expect("on the board");
            let q = shogi_core::Piece::new(their_kind(piece.kind()), their_color(piece.color()));
            p.piece_set(s, Some(q));
        }
    }
    for c in Color::ALL {
        for k in PieceKind::HAND {
            for _ in 0..pos.hand(c).count(k) {
                let h = p.hand_of_a_player_mut(their_color(c));
                *h = h.added(their_kind(k)).expect("hand capacity");
            }
        }
    }
    p.side_to_move_set(their_color(pos.side_to_move()));
    shunsai::Position::new(p)
}

fn ours_usi(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = movegen::legal_moves(pos)
        .iter()
        .map(|m| m.to_string())
        .collect();
    v.sort();
    v
}

fn theirs_usi(pos: &shunsai::Position) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().iter().map(|m| m.to_usi_owned()).collect();
    v.sort();
    v
}

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        (x % n as u64) as usize
    }
}

/// Favours checks, captures and drops so that evasions, pins and
/// pawn-drop restrictions come up often.
fn pick(pos: &Position, moves: &[Move], rng: &mut Rng) -> Move {
    let r = rng.below(10);
    let preferred: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&m| match r {
            0..4 => pos.gives_check(m),
            4..6 => !m.is_drop() && pos.piece_at(m.to()).is_some(),
            6..8 => m.is_drop(),
            _ => true,
        })
        .collect();
    if preferred.is_empty() {
        moves[rng.below(moves.len())]
    } else {
        preferred[rng.below(preferred.len())]
    }
}

#[test]
fn same_legal_moves_as_shunsai_on_random_positions() {
    let starts: Vec<Position> = STARTS.iter().map(|s| s.parse().unwrap()).collect();
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let (mut positions, mut in_check, mut moves) = (0u64, 0u64, 0u64);
    let mut game = 0;
    while positions < 30_000 {
        let mut pos = starts[game % starts.len()].clone();
        game += 1;
        for _ in 0..120 {
            let ours = ours_usi(&pos);
            let other = theirs(&pos);
            assert_eq!(ours, theirs_usi(&other), "legal moves of {pos}");
            assert_eq!(pos.in_check(), other.in_check(), "in check in {pos}");
            positions += 1;
            moves += ours.len() as u64;
            in_check += u64::from(pos.in_check());
            let list = movegen::legal_moves(&pos);
            if list.is_empty() {
                break;
            }
            let m = pick(&pos, &list, &mut rng);
            pos.do_move(m);
        }
    }
    eprintln!("{game} games, {positions} positions, {in_check} in check, {moves} moves");
    assert!(in_check > 3_000, "{in_check}");
}
