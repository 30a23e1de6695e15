//! Property tests of the rules core over 125,000 positions reached by
//! seeded random play, from the start position, from tsume positions and
//! from the repository's perft positions.
//!
//! At every position visited:
//! (a) `check_moves` equals the legal moves filtered by `gives_check`, as
//!     sets and without duplicates, in check or not;
//! (b) in check, `evasion_moves` equals `legal_moves` (and is empty when
//!     not in check);
//! (c) `gives_check(m)` agrees with "after `do_move`, the opponent is in
//!     check", and with a brute-force attack test, for every legal move;
//! (d) for every board move (81 x 81 x promotion) and every drop (7 x 81),
//!     `is_legal(m).is_ok()` == "the generator produced m" == an
//!     independent brute-force legality oracle written below;
//! (e) the SFEN round trip gives the same position, key and ply;
//! (f) `do_move` + `undo_move` restores everything, and the incremental
//!     keys, checkers and pins equal those of the position re-read from its
//!     SFEN (and brute-force checkers and pins);
//! (g) `is_checkmate`, `has_legal_move` and `mate_in_one` agree with brute
//!     force.
//!
//! The random play is biased towards checks, captures, promotions and
//! drops, so that checks, double checks, pins and pawn-drop mates occur
//! often. Everything is deterministic (xorshift, fixed seeds).

use tsume::core::movegen::{self, MoveList};
use tsume::core::{Color, IllegalMove, Move, Piece, PieceKind, Position, SfenError, Square};

/// Tsume positions taken from the problem sets of the project's shared
/// reference data (`problems/*.tsv`, first column), with the file they
/// come from. White attacks in some of them; several have all the
/// remaining pieces in the defender's hand.
const TSUME_SFENS: &[&str] = &[
    // antma_tests.tsv (antma/tsumeshogi-check)
    "k8/9/PK7/9/9/9/9/9/9 b 2r2b4g4s4n4l17p 1",
    "kb7/p8/9/9/9/9/8B/9/8K b 2R4G4S4N4L17P 1",
    "7pk/9/7K1/5+r3/9/9/9/1B7/R8 b b4g4s4n4l17p 1",
    "9/2B6/3G2r2/3pkL1R1/3gsg3/3S2B2/3g5/4N4/4L4 b 2s3n2l17p 1",
    "k8/2K6/9/7BB/7LL/7LL/8R/p2NNSSGG/P2NNSSGG b 16p 1",
    "l1+L6/9/p1pL3Gp/2s+Bp1pp1/2Np3P1/P1P6/1PKP1SB1P/2Gg+nr3/L4k3 b RG2SN5Pn 179",
    "6Snl/5+Rg1k/6pgs/9/9/9/9/9/1B6L b rb2g2s3n2l17p 1",
    "lS5nl/3s2+R2/p6p1/kS2Gb2p/3ppNpS1/Np3P2P/PPG1P1K2/4G4/LB5RL b GN4P2p 1",
    "8l/6nkg/5PpBp/5+r3/7R1/9/9/9/9 b b3g4s3n3l15p 1",
    "9/9/9/9/9/7np/8k/8B/7LR b rb4g4s3n3l17p 1",
    "ln1r4l/3k1gp2/pS1p1+P1+R1/6L1p/1pPP2S2/2S3P2/PP2p1+b1P/3K5/+b7L w 2GSN3Pg2n2p 118",
    "+B7l/3k5/pp2P1+B1p/2s3p2/1Ppp2s2/6l1P/Ps1P1+p1+r1/3K1GP2/LN1R4L b 2P2NG3pns2g 1",
    "9/9/9/4k4/9/4P4/9/9/9 b 4G2r2b4s4n4l17p 1",
    // nomate.tsv
    "k3l3R/p4s3/9/N8/4p4/4KBB2/9/1pp+l+l+l+n+n+n/+s+s+sggggr1 b 14p 1",
    "kn7/1s7/9/1N7/9/9/9/9/9 b P2r2b4g3s2n4l17p 1",
    "k8/9/9/1+R7/9/9/9/9/P8 b LPr2b4g4s4n3l16p 1",
    "lr6l/4g4/p3p4/1pp5p/P2S1p3/2P1N2+bP/1PGP1Pk1R/2N3pp1/4K3L w b2g3s2nl4p 152",
    "7nl/5Psk1/1+P1+P1p1pp/K3g4/6p1B/1SP4P1/PsS3P1P/1N7/+r6NL w GLrb2gnl6p 1",
    "8k/9/9/9/9/9/9/9/9 b Rr2b4g4s4n4l18p 1",
    // musou.tsv
    "3g1n1l1/2p1g1r2/5k2S/4p1N+R1/3+p5/7N1/B8/9/9 b 2GSNb2s3l15p 1",
    "5g1l1/3+P2s1p/1R1B2p1S/3npSL2/7pk/3+B1L3/5rN1P/6N2/8L b 2P3gsn10p 1",
    "nn1S1R3/1L2p+b3/+P8/1L1R1g3/k1S2l3/+nP1G5/3n5/2P2+B3/9 b 2g2sl14p 1",
    // famous_long.tsv (hkijin/shtsume)
    "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1",
    "lp2p3g/+R4p1Sn/1P1kgsp1p/3+p+p1s2/B1p+r1P3/L8/+n3NgB+pP/+p4G1+p1/P+pPsP4 b Lnl 1",
    // yaneuraou_mate_samples.tsv (White attacks)
    "l3kgsnl/9/p1pS+Bp3/7pp/6PP1/9/PPPPPPn1P/1B1GG2+r1/LNS1K3L w RG3Psnp 54",
    // yaneuraou_testmate.tsv
    "4k4/9/PPPPPPPPP/9/9/9/9/9/9 b B4L2rb4g4s4n9p 1",
    // cshogi_tests.tsv
    "8l/1R2S1kgr/3pp2p1/p2nlpp1p/5ns2/2+BPl3P/1PNK1PP2/1GGS2S2/5G1NL b B3P3p 1",
    // tanuki_generated.tsv
    "8S/6SSk/7p1/9/9/9/9/9/9 b r2b4gs4n4l17p 1",
    // tsumemi_samples.tsv
    "7nk/7bl/9/9/6N2/9/9/9/9 b 2rb4g4s2n3l18p 1",
];

// ----- a tiny deterministic RNG -----

struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        // xorshift64*
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

// ----- an independent brute-force model of the rules -----

/// A board as a plain array, indexed like `Square::index`.
type Board = [Option<Piece>; 81];

/// The position as plain arrays, with its own move making: an independent
/// model of the rules against which the crate is compared.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Model {
    board: Board,
    /// Pieces in hand, indexed by colour and `PieceKind as usize`.
    hands: [[u32; 8]; 2],
    side: Color,
}

fn sq_at(file: i32, rank: i32) -> Option<Square> {
    if (1..=9).contains(&file) && (1..=9).contains(&rank) {
        Square::from_file_rank(file as u8, rank as u8)
    } else {
        None
    }
}

/// (file delta, rank delta) pairs.
type Deltas = &'static [(i32, i32)];

/// Steps (file delta, rank delta) and slide directions of a piece, for
/// Black; White negates the rank delta. Rank 1 is Black's far rank, so
/// "forward" for Black is a rank delta of -1.
fn movement(kind: PieceKind) -> (Deltas, Deltas) {
    use PieceKind::*;
    const GOLD: &[(i32, i32)] = &[(0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
    const KING: &[(i32, i32)] = &[
        (0, -1),
        (-1, -1),
        (1, -1),
        (-1, 0),
        (1, 0),
        (0, 1),
        (-1, 1),
        (1, 1),
    ];
    const DIAG: &[(i32, i32)] = &[(-1, -1), (1, -1), (-1, 1), (1, 1)];
    const ORTHO: &[(i32, i32)] = &[(0, -1), (0, 1), (-1, 0), (1, 0)];
    match kind {
        Pawn => (&[(0, -1)], &[]),
        Lance => (&[], &[(0, -1)]),
        Knight => (&[(-1, -2), (1, -2)], &[]),
        Silver => (&[(0, -1), (-1, -1), (1, -1), (-1, 1), (1, 1)], &[]),
        Gold | ProPawn | ProLance | ProKnight | ProSilver => (GOLD, &[]),
        King => (KING, &[]),
        Bishop => (&[], DIAG),
        Rook => (&[], ORTHO),
        Horse => (ORTHO, DIAG),
        Dragon => (DIAG, ORTHO),
    }
}

fn sign(c: Color) -> i32 {
    match c {
        Color::Black => 1,
        Color::White => -1,
    }
}

/// Rank as `c` sees the board: 1 is the far rank.
fn rel_rank(c: Color, sq: Square) -> u8 {
    match c {
        Color::Black => sq.rank(),
        Color::White => 10 - sq.rank(),
    }
}

fn dead_square(kind: PieceKind, c: Color, sq: Square) -> bool {
    match kind {
        PieceKind::Pawn | PieceKind::Lance => rel_rank(c, sq) == 1,
        PieceKind::Knight => rel_rank(c, sq) <= 2,
        _ => false,
    }
}

fn promotable(kind: PieceKind) -> bool {
    use PieceKind::*;
    matches!(kind, Pawn | Lance | Knight | Silver | Bishop | Rook)
}

fn promote(kind: PieceKind) -> PieceKind {
    use PieceKind::*;
    match kind {
        Pawn => ProPawn,
        Lance => ProLance,
        Knight => ProKnight,
        Silver => ProSilver,
        Bishop => Horse,
        Rook => Dragon,
        k => panic!("{k:?} does not promote"),
    }
}

fn unpromote(kind: PieceKind) -> PieceKind {
    use PieceKind::*;
    match kind {
        ProPawn => Pawn,
        ProLance => Lance,
        ProKnight => Knight,
        ProSilver => Silver,
        Horse => Bishop,
        Dragon => Rook,
        k => k,
    }
}

const EIGHT: [(i32, i32); 8] = [
    (0, -1),
    (-1, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (0, 1),
    (-1, 1),
    (1, 1),
];

impl Model {
    fn of(pos: &Position) -> Model {
        let mut board = [None; 81];
        for sq in Square::all() {
            board[sq.index()] = pos.piece_at(sq);
        }
        let mut hands = [[0; 8]; 2];
        for c in Color::ALL {
            for k in PieceKind::HAND {
                hands[c as usize][k as usize] = pos.hand(c).count(k);
            }
        }
        Model {
            board,
            hands,
            side: pos.side_to_move(),
        }
    }

    fn at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    fn king(&self, c: Color) -> Option<Square> {
        Square::all().find(|&s| self.at(s) == Some(Piece::new(c, PieceKind::King)))
    }

    /// Whether the piece on `from` attacks `to` (empty squares between).
    fn attacks(&self, from: Square, to: Square) -> bool {
        let Some(p) = self.at(from) else {
            return false;
        };
        let s = sign(p.color());
        let df = to.file() as i32 - from.file() as i32;
        let dr = (to.rank() as i32 - from.rank() as i32) * s;
        let (steps, slides) = movement(p.kind());
        if steps.contains(&(df, dr)) {
            return true;
        }
        for &(sf, sr) in slides {
            let k = if sf != 0 { df / sf } else { dr / sr };
            if k < 1 || (k * sf, k * sr) != (df, dr) {
                continue;
            }
            let (f0, r0) = (from.file() as i32, from.rank() as i32);
            return (1..k).all(|j| {
                let between = sq_at(f0 + j * sf, r0 + j * sr * s).expect("on the board");
                self.at(between).is_none()
            });
        }
        false
    }

    /// Whether a piece of `by` attacks `target`: the first piece on each of
    /// the eight rays from `target`, and the knight squares.
    fn attacked(&self, target: Square, by: Color) -> bool {
        let (f0, r0) = (target.file() as i32, target.rank() as i32);
        for (df, dr) in EIGHT {
            let (mut f, mut r) = (f0 + df, r0 + dr);
            while let Some(s) = sq_at(f, r) {
                if let Some(p) = self.at(s) {
                    if p.color() == by && self.attacks(s, target) {
                        return true;
                    }
                    break;
                }
                f += df;
                r += dr;
            }
        }
        for (df, dr) in [(-1, 2), (1, 2), (-1, -2), (1, -2)] {
            if let Some(s) = sq_at(f0 + df, r0 + dr)
                && self.at(s).is_some_and(|p| p.color() == by)
                && self.attacks(s, target)
            {
                return true;
            }
        }
        false
    }

    /// The pieces of `by` attacking `target`, by looking at every piece.
    fn attackers(&self, target: Square, by: Color) -> Vec<Square> {
        Square::all()
            .filter(|&s| self.at(s).is_some_and(|p| p.color() == by))
            .filter(|&s| self.attacks(s, target))
            .collect()
    }

    fn in_check(&self, c: Color) -> bool {
        self.king(c).is_some_and(|k| self.attacked(k, !c))
    }

    /// The squares the piece on `from` attacks (own pieces included).
    fn reach(&self, from: Square) -> Vec<Square> {
        let p = self.at(from).expect("a piece");
        let s = sign(p.color());
        let (steps, slides) = movement(p.kind());
        let (f0, r0) = (from.file() as i32, from.rank() as i32);
        let mut out = Vec::new();
        for &(df, dr) in steps {
            if let Some(sq) = sq_at(f0 + df, r0 + dr * s) {
                out.push(sq);
            }
        }
        for &(df, dr) in slides {
            let (mut f, mut r) = (f0 + df, r0 + dr * s);
            while let Some(sq) = sq_at(f, r) {
                out.push(sq);
                if self.at(sq).is_some() {
                    break;
                }
                f += df;
                r += dr * s;
            }
        }
        out
    }

    /// Pieces of `c` whose removal opens a line from a piece of `by` to the
    /// king of `king_color`: `c`'s pinned pieces when `by` is `!c` and
    /// `king_color` is `c`, `c`'s discovered-check candidates when `by` is
    /// `c` and `king_color` is `!c`.
    fn line_openers(&self, c: Color, by: Color, king_color: Color) -> Vec<Square> {
        let Some(k) = self.king(king_color) else {
            return Vec::new();
        };
        let before = self.attackers(k, by);
        let mut out = Vec::new();
        for s in Square::all() {
            if s == k || self.at(s).is_none_or(|p| p.color() != c) {
                continue;
            }
            let mut m = *self;
            m.board[s.index()] = None;
            if m.attackers(k, by).iter().any(|a| !before.contains(a)) {
                out.push(s);
            }
        }
        out
    }

    /// Plays a move that is at least pseudo-legal.
    fn play(&self, m: Move) -> Model {
        let us = self.side;
        let mut n = *self;
        let to = m.to();
        match m.drop_kind() {
            Some(kind) => {
                n.hands[us as usize][kind as usize] -= 1;
                n.board[to.index()] = Some(Piece::new(us, kind));
            }
            None => {
                let from = m.from().expect("a board move");
                let p = n.board[from.index()].take().expect("a piece");
                if let Some(q) = n.board[to.index()] {
                    n.hands[us as usize][unpromote(q.kind()) as usize] += 1;
                }
                let kind = if m.is_promotion() {
                    promote(p.kind())
                } else {
                    p.kind()
                };
                n.board[to.index()] = Some(Piece::new(us, kind));
            }
        }
        n.side = !us;
        n
    }

    /// Every move a brute-force reading of the rules could consider: each
    /// piece of the side to move to each square it reaches that does not
    /// hold its own piece, with and without promotion, and each drop of
    /// each kind in hand on each empty square.
    fn candidates(&self) -> Vec<Move> {
        let us = self.side;
        let mut out = Vec::new();
        for from in Square::all() {
            if self.at(from).is_none_or(|p| p.color() != us) {
                continue;
            }
            for to in self.reach(from) {
                if self.at(to).is_some_and(|p| p.color() == us) {
                    continue;
                }
                out.push(Move::new(from, to, false));
                out.push(Move::new(from, to, true));
            }
        }
        for kind in PieceKind::HAND {
            if self.hands[us as usize][kind as usize] == 0 {
                continue;
            }
            for to in Square::all() {
                if self.at(to).is_none() {
                    out.push(Move::new_drop(kind, to));
                }
            }
        }
        out
    }

    /// The rules read one by one; king safety and pawn-drop mate decided by
    /// playing the move and looking.
    fn legal(&self, m: Move, depth: u32) -> bool {
        let us = self.side;
        let to = m.to();
        match m.drop_kind() {
            Some(kind) => {
                if self.hands[us as usize][kind as usize] == 0
                    || self.at(to).is_some()
                    || m.is_promotion()
                    || dead_square(kind, us, to)
                {
                    return false;
                }
                if kind == PieceKind::Pawn
                    && (1..=9).any(|r| {
                        let s = Square::from_file_rank(to.file(), r).expect("on the board");
                        self.at(s) == Some(Piece::new(us, PieceKind::Pawn))
                    })
                {
                    return false;
                }
            }
            None => {
                let from = m.from().expect("a board move");
                let Some(p) = self.at(from) else {
                    return false;
                };
                if p.color() != us || self.at(to).is_some_and(|q| q.color() == us) {
                    return false;
                }
                if !self.attacks(from, to) {
                    return false;
                }
                let in_zone = rel_rank(us, from) <= 3 || rel_rank(us, to) <= 3;
                if m.is_promotion() && !(promotable(p.kind()) && in_zone) {
                    return false;
                }
                if !m.is_promotion() && dead_square(p.kind(), us, to) {
                    return false;
                }
            }
        }
        let after = self.play(m);
        if after.in_check(us) {
            return false;
        }
        if m.drop_kind() == Some(PieceKind::Pawn)
            && after.in_check(!us)
            && !after.has_legal_move(depth + 1)
        {
            return false;
        }
        true
    }

    fn has_legal_move(&self, depth: u32) -> bool {
        assert!(depth < 8, "runaway pawn-drop recursion in {self:?}");
        self.candidates().into_iter().any(|m| self.legal(m, depth))
    }
}

// ----- the properties -----

#[derive(Default, Debug)]
struct Stats {
    positions: u64,
    in_check: u64,
    double_check: u64,
    with_pins: u64,
    with_discoverers: u64,
    no_attacker_king: u64,
    legal_moves: u64,
    checks: u64,
    pawn_drop_mates_rejected: u64,
    checkmates: u64,
    mate_in_one: u64,
    promotions: u64,
    non_promotions_in_zone: u64,
}

/// A set of moves over the 15-bit encoding.
struct MoveSet([u64; 512]);

impl MoveSet {
    fn of(moves: &[Move], what: &str, pos: &Position) -> MoveSet {
        let mut s = MoveSet([0; 512]);
        for &m in moves {
            let r = m.raw() as usize;
            assert!(
                s.0[r / 64] & (1 << (r % 64)) == 0,
                "{what}: {m} twice in\n{pos}"
            );
            s.0[r / 64] |= 1 << (r % 64);
        }
        s
    }
    fn contains(&self, m: Move) -> bool {
        let r = m.raw() as usize;
        self.0[r / 64] & (1 << (r % 64)) != 0
    }
}

fn sorted(moves: &[Move]) -> Vec<Move> {
    let mut v = moves.to_vec();
    v.sort();
    v
}

/// Reads an SFEN back: strictly, or relaxed for positions that need it
/// (more pieces than a set, two pawns on a file), which the strict reader
/// must then refuse for one of those two reasons only.
fn reread(sfen: &str, relaxed: bool) -> Position {
    if relaxed {
        match sfen.parse::<Position>() {
            Ok(p) => return p,
            Err(SfenError::TooManyPieces { .. } | SfenError::TwoPawns { .. }) => {}
            Err(e) => panic!("{sfen}: {e}"),
        }
        Position::from_sfen_relaxed(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
    } else {
        sfen.parse().unwrap_or_else(|e| panic!("{sfen}: {e}"))
    }
}

fn check_position(pos: &Position, relaxed: bool, rng: &mut Rng, stats: &mut Stats) {
    let us = pos.side_to_move();
    let model = Model::of(pos);
    let legal = movegen::legal_moves(pos);
    let legal_set = MoveSet::of(&legal, "legal_moves", pos);
    stats.positions += 1;
    stats.legal_moves += legal.len() as u64;
    if pos.king_square(us).is_none() || pos.king_square(!us).is_none() {
        stats.no_attacker_king += 1;
    }
    for c in Color::ALL {
        assert_eq!(pos.king_square(c), model.king(c), "king of {c:?}\n{pos}");
    }

    // Checkers and pins against brute force.
    let checkers: Vec<Square> = pos.checkers().into_iter().collect();
    let brute_checkers = match model.king(us) {
        Some(k) => model.attackers(k, !us),
        None => Vec::new(),
    };
    assert_eq!(checkers, brute_checkers, "checkers of\n{pos}");
    assert_eq!(pos.in_check(), !checkers.is_empty());
    assert_eq!(pos.in_check(), model.in_check(us));
    let pinned: Vec<Square> = pos.pinned().into_iter().collect();
    assert_eq!(pinned, model.line_openers(us, !us, us), "pinned in\n{pos}");
    let dc: Vec<Square> = pos.discovered_check_candidates().into_iter().collect();
    assert_eq!(
        dc,
        model.line_openers(us, us, !us),
        "dc candidates in\n{pos}"
    );
    if pos.in_check() {
        stats.in_check += 1;
    }
    if checkers.len() > 1 {
        stats.double_check += 1;
    }
    if !pinned.is_empty() {
        stats.with_pins += 1;
    }
    if !dc.is_empty() {
        stats.with_discoverers += 1;
    }

    // (a) check_moves == legal moves that give check.
    let checks = movegen::check_moves(pos);
    let _ = MoveSet::of(&checks, "check_moves", pos);
    let filtered: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&m| pos.gives_check(m))
        .collect();
    assert_eq!(sorted(&checks), sorted(&filtered), "check_moves of\n{pos}");
    stats.checks += checks.len() as u64;

    // (b) evasions.
    let evasions = movegen::evasion_moves(pos);
    if pos.in_check() {
        let _ = MoveSet::of(&evasions, "evasion_moves", pos);
        assert_eq!(sorted(&evasions), sorted(&legal), "evasions of\n{pos}");
        if checkers.len() > 1 {
            let k = pos.king_square(us).unwrap();
            assert!(
                legal.iter().all(|m| m.from() == Some(k)),
                "double check\n{pos}"
            );
        }
    } else {
        assert!(evasions.is_empty(), "evasions when not in check\n{pos}");
    }

    // (d) is_legal over every conceivable move, against the generator and
    // against the brute-force model.
    let candidates = MoveSet::of(&model.candidates(), "candidates", pos);
    let mut check_one = |m: Move| {
        let generated = legal_set.contains(m);
        let verdict = pos.is_legal(m);
        assert_eq!(
            verdict.is_ok(),
            generated,
            "is_legal({m}) = {verdict:?}\n{pos}"
        );
        if verdict == Err(IllegalMove::PawnDropMate) {
            stats.pawn_drop_mates_rejected += 1;
        }
        // Outside the candidates the model says no without looking further.
        let oracle = candidates.contains(m) && model.legal(m, 0);
        assert_eq!(oracle, generated, "model says {oracle} for {m}\n{pos}");
    };
    for from in Square::all() {
        for to in Square::all() {
            check_one(Move::new(from, to, false));
            check_one(Move::new(from, to, true));
        }
    }
    for kind in PieceKind::HAND {
        for to in Square::all() {
            check_one(Move::new_drop(kind, to));
        }
    }

    // (e) SFEN round trip.
    let sfen = pos.to_string();
    let back = reread(&sfen, relaxed);
    assert_eq!(&back, pos, "{sfen}");
    assert_eq!(back.to_string(), sfen);
    assert_eq!(back.key(), pos.key(), "{sfen}");
    assert_eq!(back.board_key(), pos.board_key(), "{sfen}");
    assert_eq!(back.hand_key(), pos.hand_key(), "{sfen}");
    assert_eq!(back.ply(), pos.ply(), "{sfen}");
    assert_eq!(back.checkers(), pos.checkers(), "{sfen}");
    assert_eq!(back.pinned(), pos.pinned(), "{sfen}");

    // (c) and (f), every legal move; the re-read from SFEN for a sample.
    let mut p = pos.clone();
    let mut mate_exists = false;
    for (i, &m) in legal.iter().enumerate() {
        let gives = pos.gives_check(m);
        let from_kind = m.from().map(|f| model.at(f).expect("a piece").kind());
        if m.is_promotion() {
            stats.promotions += 1;
        } else if let (Some(from), Some(kind)) = (m.from(), from_kind)
            && (rel_rank(us, from) <= 3 || rel_rank(us, m.to()) <= 3)
            && promotable(kind)
        {
            stats.non_promotions_in_zone += 1;
        }
        let (key_after, board_key_after) = (p.key_after(m), p.board_key_after(m));
        let hands_after = Color::ALL.map(|c| p.hand_after(m, c));
        let steps_out = p.king_can_step_out_after(m);
        let undo = p.do_move(m);
        let next = model.play(m);
        assert_eq!(Model::of(&p), next, "do_move({m}) in\n{pos}");
        // The keys and hands a search looks a child up by, without the move.
        assert_eq!(key_after, p.key(), "key_after({m}) in\n{pos}");
        assert_eq!(
            board_key_after,
            p.board_key(),
            "board_key_after({m}) in\n{pos}"
        );
        assert_eq!(
            hands_after,
            Color::ALL.map(|c| p.hand(c)),
            "hand_after({m}) in\n{pos}"
        );
        // The king's own moves after `m`, worked out without playing it.
        let king_moves = p
            .king_square(!us)
            .is_some_and(|k| movegen::legal_moves(&p).iter().any(|r| r.from() == Some(k)));
        assert_eq!(
            steps_out, king_moves,
            "king_can_step_out_after({m}) in\n{pos}"
        );
        assert_eq!(p.in_check(), gives, "gives_check({m})\n{pos}");
        assert_eq!(next.in_check(!us), gives, "brute gives_check({m})\n{pos}");
        assert!(!next.in_check(us), "{m} leaves the king in check\n{pos}");
        if gives {
            // (g) brute force: a check after which the defender has no move.
            let no_reply = movegen::legal_moves(&p).is_empty();
            let king_count = p.king_square(!us).map_or(0, |k| {
                movegen::legal_moves(&p)
                    .iter()
                    .filter(|r| r.from() == Some(k))
                    .count() as u32
            });
            assert_eq!(
                movegen::count_king_evasions(&p),
                king_count,
                "count_king_evasions after {m}\n{pos}"
            );
            assert_eq!(movegen::has_legal_move(&p), !no_reply, "after {m}\n{pos}");
            assert_eq!(movegen::is_checkmate(&p), no_reply, "after {m}\n{pos}");
            if no_reply || rng.below(8) == 0 {
                assert_eq!(next.has_legal_move(0), !no_reply, "after {m}\n{pos}");
            }
            mate_exists |= no_reply;
        } else {
            assert!(!movegen::is_checkmate(&p), "after {m}\n{pos}");
        }
        if i == 0 || rng.below(8) == 0 {
            let s = p.to_string();
            let q = reread(&s, relaxed);
            assert_eq!(q, p, "after {m}: {s}");
            assert_eq!(q.key(), p.key(), "key after {m} in\n{pos}");
            assert_eq!(
                q.board_key(),
                p.board_key(),
                "board key after {m} in\n{pos}"
            );
            assert_eq!(q.hand_key(), p.hand_key(), "hand key after {m} in\n{pos}");
            assert_eq!(q.checkers(), p.checkers(), "checkers after {m} in\n{pos}");
            assert_eq!(q.pinned(), p.pinned(), "pins after {m} in\n{pos}");
            assert_eq!(
                q.discovered_check_candidates(),
                p.discovered_check_candidates(),
                "dc after {m} in\n{pos}"
            );
            for c in Color::ALL {
                assert_eq!(q.king_square(c), p.king_square(c), "after {m}\n{pos}");
            }
            assert_eq!(q.ply(), p.ply());
            assert_eq!(p.ply(), pos.ply() + 1);
        }
        p.undo_move(m, undo);
        assert_eq!(&p, pos, "undo {m}");
        assert_eq!(p.key(), pos.key(), "key after undo {m}\n{pos}");
        assert_eq!(p.board_key(), pos.board_key(), "undo {m}\n{pos}");
        assert_eq!(p.hand_key(), pos.hand_key(), "undo {m}\n{pos}");
        assert_eq!(p.checkers(), pos.checkers(), "undo {m}\n{pos}");
        assert_eq!(p.pinned(), pos.pinned(), "undo {m}\n{pos}");
        assert_eq!(
            p.discovered_check_candidates(),
            pos.discovered_check_candidates(),
            "undo {m}\n{pos}"
        );
        assert_eq!(p.ply(), pos.ply(), "undo {m}\n{pos}");
        for c in Color::ALL {
            assert_eq!(p.king_square(c), pos.king_square(c), "undo {m}\n{pos}");
            assert_eq!(p.pieces_of(c), pos.pieces_of(c), "undo {m}\n{pos}");
        }
        for k in PieceKind::ALL {
            assert_eq!(
                p.pieces_of_kind(k),
                pos.pieces_of_kind(k),
                "undo {m}\n{pos}"
            );
        }
    }

    // (g) mate detection on the position itself and mate in one.
    assert_eq!(movegen::has_legal_move(pos), !legal.is_empty(), "\n{pos}");
    assert_eq!(
        movegen::is_checkmate(pos),
        pos.in_check() && legal.is_empty(),
        "\n{pos}"
    );
    if movegen::is_checkmate(pos) {
        stats.checkmates += 1;
    }
    match movegen::mate_in_one(pos) {
        Some(m) => {
            assert!(
                mate_exists,
                "mate_in_one found {m} but no check mates\n{pos}"
            );
            assert!(legal_set.contains(m) && pos.gives_check(m), "{m}\n{pos}");
            assert!(movegen::legal_moves(&pos.after(m)).is_empty(), "{m}\n{pos}");
            stats.mate_in_one += 1;
        }
        None => assert!(!mate_exists, "a mate in one exists, none found\n{pos}"),
    }
}

/// Picks the next move, favouring checks (double checks above all),
/// captures, promotions and drops.
fn pick(pos: &Position, legal: &MoveList, rng: &mut Rng) -> Move {
    let r = rng.below(100);
    let keep = |m: &Move| -> bool {
        match r {
            0..35 => pos.gives_check(*m),
            35..55 => !m.is_drop() && pos.piece_at(m.to()).is_some(),
            55..70 => m.is_promotion(),
            70..85 => m.is_drop(),
            85..92 => pos.gives_check(*m) && pos.after(*m).checkers().count() > 1,
            _ => true,
        }
    };
    let preferred: Vec<Move> = legal.iter().copied().filter(keep).collect();
    if preferred.is_empty() {
        legal[rng.below(legal.len())]
    } else {
        preferred[rng.below(preferred.len())]
    }
}

/// Random games from the `starts` (in turn), checking every position, until
/// `target` positions were checked.
fn walk(starts: &[Position], relaxed: bool, target: u64, seed: u64, max_plies: u32) -> Stats {
    let mut rng = Rng::new(seed);
    let mut stats = Stats::default();
    let mut game = 0;
    while stats.positions < target {
        let mut pos = starts[game % starts.len()].clone();
        game += 1;
        for _ in 0..max_plies {
            check_position(&pos, relaxed, &mut rng, &mut stats);
            let legal = movegen::legal_moves(&pos);
            if legal.is_empty() || stats.positions >= target {
                break;
            }
            let m = pick(&pos, &legal, &mut rng);
            pos.do_move(m);
        }
    }
    eprintln!("{game} games: {stats:?}");
    stats
}

fn tsume_starts() -> Vec<Position> {
    TSUME_SFENS
        .iter()
        .map(|s| s.parse().unwrap_or_else(|e| panic!("{s}: {e}")))
        .collect()
}

#[test]
fn random_play_from_the_start_position() {
    let stats = walk(&[Position::startpos()], false, 45_000, 1, 300);
    assert!(stats.positions >= 45_000);
    assert!(stats.in_check > 1_000, "{stats:?}");
    assert!(stats.double_check > 10, "{stats:?}");
    assert!(stats.with_pins > 1_000, "{stats:?}");
    assert!(stats.with_discoverers > 1_000, "{stats:?}");
    assert!(stats.checkmates > 10, "{stats:?}");
    assert!(stats.mate_in_one > 10, "{stats:?}");
    assert!(stats.non_promotions_in_zone > 1_000, "{stats:?}");
}

#[test]
fn random_play_from_tsume_positions() {
    let stats = walk(&tsume_starts(), false, 60_000, 2, 80);
    assert!(stats.positions >= 60_000);
    assert!(stats.in_check > 5_000, "{stats:?}");
    assert!(stats.double_check > 10, "{stats:?}");
    assert!(stats.no_attacker_king > 1_000, "{stats:?}");
    assert!(stats.checkmates > 100, "{stats:?}");
    assert!(stats.mate_in_one > 100, "{stats:?}");
    assert!(stats.pawn_drop_mates_rejected > 0, "{stats:?}");
}

/// The tsume positions themselves, before any move.
#[test]
fn every_tsume_start_position() {
    let mut rng = Rng::new(3);
    let mut stats = Stats::default();
    for pos in tsume_starts() {
        check_position(&pos, false, &mut rng, &mut stats);
    }
    assert_eq!(stats.positions, TSUME_SFENS.len() as u64);
}

/// The perft positions of the repository (`problems/perft/`): the
/// published reference positions and the 313 positions checked against
/// shogiops and cshogi. Some need the relaxed reader (three rooks, say).
fn perft_starts() -> Vec<Position> {
    let reference = include_str!("../problems/perft/perft_reference.tsv");
    let checked = include_str!("../problems/perft/shogiops_perft_checked.tsv");
    let mut sfens: Vec<&str> = reference
        .lines()
        .skip(1)
        .filter_map(|l| l.split('\t').nth(1))
        .chain(checked.lines().skip(1).filter_map(|l| l.split('\t').nth(2)))
        .filter(|s| !s.trim().is_empty())
        .collect();
    sfens.sort();
    sfens.dedup();
    sfens
        .iter()
        .map(|s| Position::from_sfen_relaxed(s).unwrap_or_else(|e| panic!("{s}: {e}")))
        .collect()
}

#[test]
fn random_play_from_perft_positions() {
    let starts = perft_starts();
    assert!(starts.len() > 300, "{}", starts.len());
    let stats = walk(&starts, true, 20_000, 4, 40);
    assert!(stats.positions >= 20_000);
    assert!(stats.in_check > 1_000, "{stats:?}");
    assert!(stats.with_pins > 1_000, "{stats:?}");
    assert!(stats.pawn_drop_mates_rejected > 0, "{stats:?}");
}
