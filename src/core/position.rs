//! A shogi position: board, hands, side to move, ply, keys, and the check
//! and pin information the move generators need.
//!
//! ```
//! use tsume::core::{Move, Position};
//! let mut pos = Position::startpos();
//! let m: Move = "7g7f".parse().unwrap();
//! assert!(pos.is_legal(m).is_ok());
//! let key = pos.key();
//! let undo = pos.do_move(m);
//! assert_ne!(pos.key(), key);
//! pos.undo_move(m, undo);
//! assert_eq!(pos.key(), key);
//! ```

use std::fmt;

use super::attacks;
use super::zobrist;
use super::{Bitboard, Color, Hand, Move, Piece, PieceKind, Square};

/// A position. Cloning it is a plain copy (copy-make works too).
#[derive(Clone)]
pub struct Position {
    pub(crate) board: [Piece; 81],
    pub(crate) by_color: [Bitboard; 2],
    /// Indexed by `PieceKind as usize`; entry 0 unused.
    pub(crate) by_kind: [Bitboard; 15],
    pub(crate) hands: [Hand; 2],
    pub(crate) side: Color,
    pub(crate) ply: u32,
    pub(crate) kings: [Option<Square>; 2],
    pub(crate) board_key: u64,
    pub(crate) hand_key: u64,
    /// Pieces giving check to the side to move.
    pub(crate) checkers: Bitboard,
    /// For each colour: pieces (of either colour) that are the only piece
    /// between that colour's king and an enemy slider aimed at it.
    pub(crate) blockers: [Bitboard; 2],
}

/// The pieces of one colour grouped by how they attack, to test whether
/// squares are attacked (the king's destinations, say) without regrouping
/// them for every square.
#[derive(Copy, Clone)]
pub(crate) struct Attackers {
    /// The colour of the side attacked.
    victim: Color,
    pawns: Bitboard,
    knights: Bitboard,
    silvers: Bitboard,
    /// Gold and the pieces that move like it.
    golds: Bitboard,
    /// King, horse and dragon: they attack the eight neighbours.
    neighbours: Bitboard,
    /// Every piece above but the knights: they attack neighbours only.
    steppers: Bitboard,
    /// Rook and dragon.
    rooks: Bitboard,
    /// Bishop and horse.
    bishops: Bitboard,
    lances: Bitboard,
    sliders: Bitboard,
}

impl Attackers {
    /// These pieces but those on `squares` (a piece about to move).
    #[inline(always)]
    pub(crate) fn without(self, squares: Bitboard) -> Attackers {
        let keep = !squares;
        Attackers {
            victim: self.victim,
            pawns: self.pawns & keep,
            knights: self.knights & keep,
            silvers: self.silvers & keep,
            golds: self.golds & keep,
            neighbours: self.neighbours & keep,
            steppers: self.steppers & keep,
            rooks: self.rooks & keep,
            bishops: self.bishops & keep,
            lances: self.lances & keep,
            sliders: self.sliders & keep,
        }
    }

    /// Whether these pieces attack `sq` with `occ` as the occupied squares.
    #[inline(always)]
    pub(crate) fn attack(&self, sq: Square, occ: Bitboard) -> bool {
        let v = self.victim;
        if (attacks::king(sq) & self.steppers).is_nonempty()
            && ((attacks::pawn(v, sq) & self.pawns)
                | (attacks::silver(v, sq) & self.silvers)
                | (attacks::gold(v, sq) & self.golds)
                | (attacks::king(sq) & self.neighbours))
                .is_nonempty()
        {
            return true;
        }
        if (attacks::knight(v, sq) & self.knights).is_nonempty() {
            return true;
        }
        if (attacks::queen_pseudo(sq) & self.sliders).is_empty() {
            return false;
        }
        if (attacks::rook_pseudo(sq) & self.rooks).is_nonempty()
            && (attacks::rook(sq, occ) & self.rooks).is_nonempty()
        {
            return true;
        }
        if (attacks::bishop_pseudo(sq) & self.bishops).is_nonempty()
            && (attacks::bishop(sq, occ) & self.bishops).is_nonempty()
        {
            return true;
        }
        (attacks::lance_pseudo(v, sq) & self.lances).is_nonempty()
            && (attacks::lance(v, sq, occ) & self.lances).is_nonempty()
    }
}

/// What [`Position::do_move`] returns and [`Position::undo_move`] needs.
#[derive(Copy, Clone, Debug)]
pub struct Undo {
    captured: Piece,
    ply: u32,
    board_key: u64,
    hand_key: u64,
    checkers: Bitboard,
    blockers: [Bitboard; 2],
}

/// Why a move is not legal in a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("there is no piece of the side to move on {0}")]
    NoPiece(Square),
    #[error("the side to move has no {0:?} in hand to drop")]
    NotInHand(PieceKind),
    #[error("the piece on {from} cannot move to {to}")]
    CannotReach { from: Square, to: Square },
    #[error("{0} is occupied by a piece of the side to move")]
    OwnPiece(Square),
    #[error("a piece cannot be dropped on the occupied square {0}")]
    DropOnOccupied(Square),
    #[error(
        "this piece cannot promote on this move (not a promotable kind, or neither square in the promotion zone)"
    )]
    IllegalPromotion,
    #[error("the piece must promote: on {0} it could never move again")]
    MissingPromotion(Square),
    #[error("a {kind:?} dropped on {to} could never move")]
    DeadSquareDrop { kind: PieceKind, to: Square },
    #[error("two unpromoted pawns on file {0} (nifu)")]
    TwoPawns(u8),
    #[error("a pawn drop that mates at once (uchifuzume)")]
    PawnDropMate,
    #[error("the move leaves the mover's own king in check")]
    LeavesKingInCheck,
}

/// What a move does to the mover's hand.
#[derive(Clone, Copy)]
enum HandChange {
    /// A drop: one piece of this kind leaves it.
    Drops(PieceKind),
    /// A capture: one piece of this (unpromoted) kind enters it.
    Takes(PieceKind),
    /// A board move that captures nothing.
    Nothing,
}

impl Position {
    /// An empty board, Black to move, ply 1.
    pub fn empty() -> Position {
        Position {
            board: [Piece::EMPTY; 81],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 15],
            hands: [Hand::EMPTY; 2],
            side: Color::Black,
            ply: 1,
            kings: [None; 2],
            board_key: 0,
            hand_key: 0,
            checkers: Bitboard::EMPTY,
            blockers: [Bitboard::EMPTY; 2],
        }
    }

    /// The initial position of an even game.
    pub fn startpos() -> Position {
        super::sfen::STARTPOS
            .parse()
            .expect("the start position parses")
    }

    // ----- setting up (used by the SFEN parser and builders) -----

    /// Puts `piece` on the empty square `sq` (keys updated; call
    /// [`Position::refresh`] when done setting up).
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.board[sq.index()].is_empty());
        self.board[sq.index()] = piece;
        self.by_color[piece.color().index()].set(sq);
        self.by_kind[piece.kind().index()].set(sq);
        self.board_key ^= zobrist::BOARD[piece.index()][sq.index()];
        if piece.kind() == PieceKind::King {
            self.kings[piece.color().index()] = Some(sq);
        }
    }

    /// Sets a hand (keys updated).
    pub(crate) fn set_hand(&mut self, color: Color, hand: Hand) {
        for k in PieceKind::HAND {
            let key = zobrist::HAND[color.index()][k.index()];
            self.hand_key = self
                .hand_key
                .wrapping_sub(key.wrapping_mul(self.hands[color.index()].count(k) as u64))
                .wrapping_add(key.wrapping_mul(hand.count(k) as u64));
        }
        self.hands[color.index()] = hand;
    }

    pub(crate) fn set_side(&mut self, side: Color) {
        if self.side != side {
            self.board_key ^= zobrist::SIDE;
        }
        self.side = side;
    }

    pub(crate) fn set_ply(&mut self, ply: u32) {
        self.ply = ply;
    }

    /// Recomputes checkers and blockers after setting up.
    pub(crate) fn refresh(&mut self) {
        self.checkers = match self.kings[self.side.index()] {
            Some(k) => self.attackers_to(!self.side, k, self.occupied()),
            None => Bitboard::EMPTY,
        };
        self.blockers = [
            self.slider_blockers(Color::Black),
            self.slider_blockers(Color::White),
        ];
    }

    // ----- queries -----

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The ply number (1 for the first move of a game; it stops growing at
    /// `u32::MAX`).
    #[inline(always)]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The piece on `sq`.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let p = self.board[sq.index()];
        if p.is_empty() { None } else { Some(p) }
    }

    /// The hand of `color`.
    #[inline(always)]
    pub fn hand(&self, color: Color) -> Hand {
        self.hands[color.index()]
    }

    /// The square of `color`'s king, if it has one on the board.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Option<Square> {
        self.kings[color.index()]
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Squares occupied by `color`.
    #[inline(always)]
    pub fn pieces_of(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Squares holding pieces of `kind` (both colours).
    #[inline(always)]
    pub fn pieces_of_kind(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// Squares holding pieces of `color` and `kind`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()] & self.by_color[color.index()]
    }

    /// Gold and the pieces that move like it (both colours).
    #[inline(always)]
    pub(crate) fn golds(&self) -> Bitboard {
        use PieceKind::*;
        let k = &self.by_kind;
        k[Gold as usize]
            | k[ProPawn as usize]
            | k[ProLance as usize]
            | k[ProKnight as usize]
            | k[ProSilver as usize]
    }

    /// Pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.is_nonempty()
    }

    /// Pieces of the side to move pinned to its own king.
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.blockers[self.side.index()] & self.by_color[self.side.index()]
    }

    /// Pieces of the side to move whose moving off the line may give a
    /// discovered check to the opponent's king.
    #[inline(always)]
    pub fn discovered_check_candidates(&self) -> Bitboard {
        self.blockers[(!self.side).index()] & self.by_color[self.side.index()]
    }

    /// The full key: board, side to move and both hands.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.board_key ^ self.hand_key
    }

    /// The key of the board and the side to move, without the hands.
    #[inline(always)]
    pub fn board_key(&self) -> u64 {
        self.board_key
    }

    /// The key of both hands alone.
    #[inline(always)]
    pub fn hand_key(&self) -> u64 {
        self.hand_key
    }

    /// Pieces of `color` that attack `sq`, with `occ` as the occupied squares.
    #[inline]
    pub fn attackers_to(&self, color: Color, sq: Square, occ: Bitboard) -> Bitboard {
        use PieceKind::*;
        let them = !color;
        let k = &self.by_kind;
        let own = self.by_color[color.index()];
        let mut a = (attacks::pawn(them, sq) & k[Pawn as usize])
            | (attacks::knight(them, sq) & k[Knight as usize])
            | (attacks::silver(them, sq) & k[Silver as usize])
            | (attacks::gold(them, sq) & self.golds())
            | (attacks::king(sq) & (k[King as usize] | k[Horse as usize] | k[Dragon as usize]));
        let lances = k[Lance as usize] & own;
        if (attacks::lance_pseudo(them, sq) & lances).is_nonempty() {
            a |= attacks::lance(them, sq, occ) & lances;
        }
        let bishops = (k[Bishop as usize] | k[Horse as usize]) & own;
        if (attacks::bishop_pseudo(sq) & bishops).is_nonempty() {
            a |= attacks::bishop(sq, occ) & bishops;
        }
        let rooks = (k[Rook as usize] | k[Dragon as usize]) & own;
        if (attacks::rook_pseudo(sq) & rooks).is_nonempty() {
            a |= attacks::rook(sq, occ) & rooks;
        }
        a & own
    }

    /// Whether `color` attacks `sq` with the given occupancy.
    #[inline]
    pub fn is_attacked(&self, color: Color, sq: Square, occ: Bitboard) -> bool {
        self.attackers(color).attack(sq, occ)
    }

    /// The pieces of `color` grouped by how they attack, for testing
    /// several squares.
    #[inline(always)]
    pub(crate) fn attackers(&self, color: Color) -> Attackers {
        use PieceKind::*;
        let k = &self.by_kind;
        let own = self.by_color[color.index()];
        let pawns = k[Pawn as usize] & own;
        let silvers = k[Silver as usize] & own;
        let golds = self.golds() & own;
        let neighbours = (k[King as usize] | k[Horse as usize] | k[Dragon as usize]) & own;
        let rooks = (k[Rook as usize] | k[Dragon as usize]) & own;
        let bishops = (k[Bishop as usize] | k[Horse as usize]) & own;
        let lances = k[Lance as usize] & own;
        Attackers {
            victim: !color,
            pawns,
            knights: k[Knight as usize] & own,
            silvers,
            golds,
            neighbours,
            steppers: pawns | silvers | golds | neighbours,
            rooks,
            bishops,
            lances,
            sliders: rooks | bishops | lances,
        }
    }

    /// Pieces (of either colour) that alone stand between `color`'s king and
    /// an enemy slider aimed at it.
    fn slider_blockers(&self, color: Color) -> Bitboard {
        self.blockers_of(color, self.by_color[(!color).index()], self.occupied())
    }

    /// [`Position::slider_blockers`] given the enemy pieces and the
    /// occupied squares.
    #[inline(always)]
    fn blockers_of(&self, color: Color, enemies: Bitboard, occ: Bitboard) -> Bitboard {
        use PieceKind::*;
        let Some(ksq) = self.kings[color.index()] else {
            return Bitboard::EMPTY;
        };
        let k = &self.by_kind;
        let snipers = ((attacks::rook_pseudo(ksq) & (k[Rook as usize] | k[Dragon as usize]))
            | (attacks::bishop_pseudo(ksq) & (k[Bishop as usize] | k[Horse as usize]))
            | (attacks::lance_pseudo(color, ksq) & k[Lance as usize]))
            & enemies;
        let mut result = Bitboard::EMPTY;
        for s in snipers {
            let b = attacks::between(ksq, s) & occ;
            if b.is_nonempty() && !b.more_than_one() {
                result |= b;
            }
        }
        result
    }

    // ----- making moves -----

    /// Plays `m`, which must be legal (or at least pseudo-legal: a board
    /// move of a piece of the side to move, or a drop from its hand).
    pub fn do_move(&mut self, m: Move) -> Undo {
        // The colour sets are updated in locals and stored once, and the
        // checks and pins after the move are computed from the locals: a
        // 16-byte load of a set just stored as two 8-byte halves cannot be
        // forwarded from the store and stalls.
        let us = self.side;
        let them = !us;
        let to = m.to();
        let to_bb = Bitboard::from_square(to);
        let mut own = self.by_color[us.index()];
        let mut theirs = self.by_color[them.index()];
        let mut undo = Undo {
            captured: Piece::EMPTY,
            ply: self.ply,
            board_key: self.board_key,
            hand_key: self.hand_key,
            checkers: self.checkers,
            blockers: self.blockers,
        };
        let moved;
        let from_bb;
        if let Some(kind) = m.drop_kind() {
            self.hands[us.index()].remove(kind);
            self.hand_key = self
                .hand_key
                .wrapping_sub(zobrist::HAND[us.index()][kind.index()]);
            moved = Piece::new(us, kind);
            from_bb = Bitboard::EMPTY;
        } else {
            let from = m.origin_unchecked();
            from_bb = Bitboard::from_square(from);
            let piece = self.board[from.index()];
            debug_assert!(!piece.is_empty() && piece.color() == us, "{m} in\n{self}");
            let captured = self.board[to.index()];
            if !captured.is_empty() {
                let ck = captured.kind();
                theirs ^= to_bb;
                self.by_kind[ck.index()] ^= to_bb;
                self.board_key ^= zobrist::BOARD[captured.index()][to.index()];
                let hk = ck.unpromoted();
                self.hands[us.index()].add(hk);
                self.hand_key = self
                    .hand_key
                    .wrapping_add(zobrist::HAND[us.index()][hk.index()]);
                if ck == PieceKind::King {
                    self.kings[them.index()] = None;
                }
                undo.captured = captured;
            }
            self.board[from.index()] = Piece::EMPTY;
            own ^= from_bb;
            self.by_kind[piece.kind().index()] ^= from_bb;
            self.board_key ^= zobrist::BOARD[piece.index()][from.index()];
            moved = if m.is_promotion() {
                Piece::new(us, piece.kind().promoted().expect("promotable"))
            } else {
                piece
            };
            if piece.kind() == PieceKind::King {
                self.kings[us.index()] = Some(to);
            }
        }
        self.board[to.index()] = moved;
        own |= to_bb;
        self.by_kind[moved.kind().index()] |= to_bb;
        self.by_color[us.index()] = own;
        self.by_color[them.index()] = theirs;
        self.board_key ^= zobrist::BOARD[moved.index()][to.index()] ^ zobrist::SIDE;
        self.side = them;
        // Saturating: a move number read from an SFEN may be u32::MAX.
        self.ply = self.ply.saturating_add(1);
        let occ = own | theirs;
        // Checks after the move: by the moved piece, or discovered behind
        // the square it left.
        self.checkers = match self.kings[them.index()] {
            Some(ksq) => {
                let mut c = Bitboard::EMPTY;
                if moved.kind() != PieceKind::King
                    && attacks::piece(moved.kind(), us, to, occ).contains(ksq)
                {
                    c = to_bb;
                }
                if (undo.blockers[them.index()] & from_bb).is_nonempty() {
                    use PieceKind::*;
                    let k = &self.by_kind;
                    let sliders = (attacks::rook(ksq, occ)
                        & (k[Rook as usize] | k[Dragon as usize]))
                        | (attacks::bishop(ksq, occ) & (k[Bishop as usize] | k[Horse as usize]))
                        | (attacks::lance(them, ksq, occ) & k[Lance as usize]);
                    c |= sliders & own & attacks::line(ksq, m.origin_unchecked());
                }
                c
            }
            None => Bitboard::EMPTY,
        };
        debug_assert_eq!(
            self.checkers,
            self.kings[them.index()].map_or(Bitboard::EMPTY, |k| self.attackers_to(
                us,
                k,
                self.occupied()
            ))
        );
        let (black, white) = match us {
            Color::Black => (own, theirs),
            Color::White => (theirs, own),
        };
        self.blockers = [
            self.blockers_of(Color::Black, white, occ),
            self.blockers_of(Color::White, black, occ),
        ];
        debug_assert_eq!(
            self.blockers,
            [
                self.slider_blockers(Color::Black),
                self.slider_blockers(Color::White)
            ]
        );
        undo
    }

    /// Takes back `m`, given what [`Position::do_move`] returned for it.
    pub fn undo_move(&mut self, m: Move, undo: Undo) {
        // As in do_move: the colour sets change in locals, stored once.
        let them = self.side;
        let us = !them;
        let to = m.to();
        let to_bb = Bitboard::from_square(to);
        let mut own = self.by_color[us.index()];
        let mut theirs = self.by_color[them.index()];
        let moved = self.board[to.index()];
        own ^= to_bb;
        self.by_kind[moved.kind().index()] ^= to_bb;
        self.board[to.index()] = Piece::EMPTY;
        if let Some(kind) = m.drop_kind() {
            self.hands[us.index()].add(kind);
        } else {
            let from = m.origin_unchecked();
            let from_bb = Bitboard::from_square(from);
            let piece = if m.is_promotion() {
                Piece::new(us, moved.kind().unpromoted())
            } else {
                moved
            };
            self.board[from.index()] = piece;
            own |= from_bb;
            self.by_kind[piece.kind().index()] |= from_bb;
            if piece.kind() == PieceKind::King {
                self.kings[us.index()] = Some(from);
            }
            let captured = undo.captured;
            if !captured.is_empty() {
                self.board[to.index()] = captured;
                theirs |= to_bb;
                self.by_kind[captured.kind().index()] |= to_bb;
                self.hands[us.index()].remove(captured.kind().unpromoted());
                if captured.kind() == PieceKind::King {
                    self.kings[them.index()] = Some(to);
                }
            }
        }
        self.by_color[us.index()] = own;
        self.by_color[them.index()] = theirs;
        self.side = us;
        self.ply = undo.ply;
        self.board_key = undo.board_key;
        self.hand_key = undo.hand_key;
        self.checkers = undo.checkers;
        self.blockers = undo.blockers;
    }

    /// The position after `m` (copy-make).
    pub fn after(&self, m: Move) -> Position {
        let mut p = self.clone();
        p.do_move(m);
        p
    }

    // ----- move properties -----

    /// Whether the piece moving in `m` may promote and must promote.
    #[inline(always)]
    pub(crate) fn promotion_options(
        kind: PieceKind,
        us: Color,
        from: Square,
        to: Square,
    ) -> (bool, bool) {
        if !kind.can_promote() {
            return (false, false);
        }
        let can = from.in_promotion_zone(us) || to.in_promotion_zone(us);
        (can, can && must_promote(kind, us, to))
    }

    /// The board key after `m` (a legal move), without playing it: lets a
    /// search prefetch table entries of children.
    #[inline]
    pub fn board_key_after(&self, m: Move) -> u64 {
        let us = self.side;
        let to = m.to();
        let mut key = self.board_key ^ zobrist::SIDE;
        match m.drop_kind() {
            Some(kind) => key ^= zobrist::BOARD[Piece::new(us, kind).index()][to.index()],
            None => {
                let from = m.origin_unchecked();
                let piece = self.board[from.index()];
                let moved = Piece::new(us, self.kind_arriving(from, m));
                let captured = self.board[to.index()];
                key ^= zobrist::BOARD[piece.index()][from.index()]
                    ^ zobrist::BOARD[moved.index()][to.index()];
                if !captured.is_empty() {
                    key ^= zobrist::BOARD[captured.index()][to.index()];
                }
            }
        }
        key
    }

    /// The kind of piece the board move `m` from `from` puts on its
    /// destination: the moving piece's, promoted when `m` promotes.
    #[inline(always)]
    fn kind_arriving(&self, from: Square, m: Move) -> PieceKind {
        let kind = self.board[from.index()].kind();
        if m.is_promotion() {
            kind.promoted().unwrap_or(kind)
        } else {
            kind
        }
    }

    /// What `m` (legal here) does to the mover's hand.
    #[inline]
    fn hand_change(&self, m: Move) -> HandChange {
        match m.drop_kind() {
            Some(kind) => HandChange::Drops(kind),
            None => {
                let captured = self.board[m.to().index()];
                if captured.is_empty() {
                    HandChange::Nothing
                } else {
                    HandChange::Takes(captured.kind().unpromoted())
                }
            }
        }
    }

    /// The key of both hands ([`hand_key`](Self::hand_key)) after `m`,
    /// legal here, without playing it.
    #[inline]
    pub fn hand_key_after(&self, m: Move) -> u64 {
        let keys = &zobrist::HAND[self.side.index()];
        match self.hand_change(m) {
            HandChange::Drops(kind) => self.hand_key.wrapping_sub(keys[kind.index()]),
            HandChange::Takes(kind) => self.hand_key.wrapping_add(keys[kind.index()]),
            HandChange::Nothing => self.hand_key,
        }
    }

    /// The key ([`key`](Self::key): board and hands) after `m`, legal
    /// here, without playing it.
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        self.board_key_after(m) ^ self.hand_key_after(m)
    }

    /// The hand of `color` after `m`, legal here, without playing it.
    #[inline]
    pub fn hand_after(&self, m: Move, color: Color) -> Hand {
        let mut hand = self.hands[color.index()];
        if color == self.side {
            match self.hand_change(m) {
                HandChange::Drops(kind) => hand.remove(kind),
                HandChange::Takes(kind) => hand.add(kind),
                HandChange::Nothing => {}
            }
        }
        hand
    }

    /// Whether, after `m` (legal here), the other side's king could step
    /// to a neighbouring square that none of the mover's pieces attacks
    /// (capturing there, or not): worked out without playing `m`. When it
    /// can, `m` does not mate, whatever else the defender has; a mate
    /// search tries every check for a mate in one and skips those.
    ///
    /// ```
    /// use tsume::core::{Move, Position};
    /// // The gold dropped on 5b checks the king on 5a and covers every
    /// // square around it but its own: alone, the king takes it; with the
    /// // pawn on 5c guarding it, the king has nowhere to go.
    /// let open: Position = "4k4/9/9/9/9/9/9/9/9 b G 1".parse().unwrap();
    /// let g = "G*5b".parse::<Move>().unwrap();
    /// assert!(open.king_can_step_out_after(g));
    /// let boxed: Position = "4k4/9/4P4/9/9/9/9/9/9 b G 1".parse().unwrap();
    /// assert!(!boxed.king_can_step_out_after(g));
    /// ```
    #[inline]
    pub fn king_can_step_out_after(&self, m: Move) -> bool {
        let us = self.side;
        let Some(ksq) = self.kings[(!us).index()] else {
            return false;
        };
        let to = m.to();
        let to_bb = Bitboard::from_square(to);
        let (from_bb, kind) = match m.drop_kind() {
            Some(kind) => (Bitboard::EMPTY, kind),
            None => {
                let from = m.origin_unchecked();
                (Bitboard::from_square(from), self.kind_arriving(from, m))
            }
        };
        let squares = attacks::king(ksq) & !(self.by_color[(!us).index()] & !to_bb);
        if squares.is_empty() {
            return false;
        }
        // The king leaves its square: a slider's line through it goes on.
        let occ = ((self.occupied() & !from_bb) | to_bb) & !Bitboard::from_square(ksq);
        let open = squares & !attacks::piece(kind, us, to, occ);
        if open.is_empty() {
            return false;
        }
        let others = self.attackers(us).without(from_bb);
        open.into_iter().any(|sq| !others.attack(sq, occ))
    }

    /// Whether `m` (legal in this position) gives check.
    #[inline]
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side;
        let Some(ksq) = self.kings[(!us).index()] else {
            return false;
        };
        let to = m.to();
        let occ = self.occupied();
        match m.drop_kind() {
            Some(kind) => attacks::piece(kind, us, to, occ).contains(ksq),
            None => {
                let from = m.origin_unchecked();
                let kind = self.kind_arriving(from, m);
                let occ2 = (occ ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
                if kind != PieceKind::King && attacks::piece(kind, us, to, occ2).contains(ksq) {
                    return true;
                }
                self.discovered_check_candidates().contains(from)
                    && !attacks::aligned(from, to, ksq)
            }
        }
    }

    /// Whether dropping a pawn of the side to move on `to` (which must check
    /// the opponent's king) would mate at once.
    pub fn pawn_drop_mates(&self, to: Square) -> bool {
        let us = self.side;
        let them = !us;
        let Some(tk) = self.kings[them.index()] else {
            return false;
        };
        let occ = self.occupied() | Bitboard::from_square(to);
        // A capture by a piece other than the king that keeps its own king safe.
        let capturers = self.attackers_to(them, to, occ) & !Bitboard::from_square(tk);
        let pinned = self.blockers[them.index()] & self.by_color[them.index()];
        for from in capturers {
            if !pinned.contains(from) || attacks::aligned(from, to, tk) {
                return false;
            }
        }
        // A king move to a square the attacker does not cover (capturing the
        // pawn included).
        let occ_without_king = occ ^ Bitboard::from_square(tk);
        let attackers = self.attackers(us);
        for sq in attacks::king(tk) & !self.by_color[them.index()] {
            if !attackers.attack(sq, occ_without_king) {
                return false;
            }
        }
        true
    }

    /// Whether the side to move has an unpromoted pawn on `file`.
    #[inline(always)]
    pub(crate) fn has_pawn_on_file(&self, color: Color, file: u8) -> bool {
        (self.pieces(color, PieceKind::Pawn) & Bitboard::file(file)).is_nonempty()
    }

    /// Whether `m` is legal here; when not, which rule it breaks.
    pub fn is_legal(&self, m: Move) -> Result<(), IllegalMove> {
        let us = self.side;
        let to = m.to();
        let occ = self.occupied();
        if let Some(kind) = m.drop_kind() {
            if m.is_promotion() {
                return Err(IllegalMove::IllegalPromotion);
            }
            if !self.hands[us.index()].has(kind) {
                return Err(IllegalMove::NotInHand(kind));
            }
            if occ.contains(to) {
                return Err(IllegalMove::DropOnOccupied(to));
            }
            if must_promote(kind, us, to) {
                return Err(IllegalMove::DeadSquareDrop { kind, to });
            }
            if kind == PieceKind::Pawn && self.has_pawn_on_file(us, to.file()) {
                return Err(IllegalMove::TwoPawns(to.file()));
            }
            if let Some(ok) = self.kings[us.index()] {
                // A drop can only block: it must resolve every check.
                if self.checkers.more_than_one()
                    || self
                        .checkers
                        .iter()
                        .any(|c| !attacks::between(ok, c).contains(to))
                {
                    return Err(IllegalMove::LeavesKingInCheck);
                }
            }
            if kind == PieceKind::Pawn
                && self.kings[(!us).index()].is_some_and(|tk| attacks::pawn(us, to).contains(tk))
                && self.pawn_drop_mates(to)
            {
                return Err(IllegalMove::PawnDropMate);
            }
            return Ok(());
        }
        let from = m.origin_unchecked();
        let piece = self.board[from.index()];
        if piece.is_empty() || piece.color() != us {
            return Err(IllegalMove::NoPiece(from));
        }
        if self.by_color[us.index()].contains(to) {
            return Err(IllegalMove::OwnPiece(to));
        }
        let kind = piece.kind();
        if !attacks::piece(kind, us, from, occ).contains(to) {
            return Err(IllegalMove::CannotReach { from, to });
        }
        let (can, must) = Self::promotion_options(kind, us, from, to);
        if m.is_promotion() && !can {
            return Err(IllegalMove::IllegalPromotion);
        }
        if !m.is_promotion() && must {
            return Err(IllegalMove::MissingPromotion(to));
        }
        if !self.leaves_king_safe(from, to) {
            return Err(IllegalMove::LeavesKingInCheck);
        }
        Ok(())
    }

    /// Whether moving the side to move's piece from `from` to `to` (a
    /// pseudo-legal board move) leaves its own king out of check.
    #[inline]
    pub(crate) fn leaves_king_safe(&self, from: Square, to: Square) -> bool {
        let us = self.side;
        let Some(ok) = self.kings[us.index()] else {
            return true;
        };
        let them = !us;
        if from == ok {
            let occ = self.occupied() ^ Bitboard::from_square(from);
            return !self.is_attacked(them, to, occ);
        }
        if self.checkers.is_nonempty() {
            if self.checkers.more_than_one() {
                return false;
            }
            let c = self.checkers.lsb_unchecked();
            if to != c && !attacks::between(ok, c).contains(to) {
                return false;
            }
        }
        !self.pinned().contains(from) || attacks::aligned(from, to, ok)
    }

    /// The position as a board diagram with hands, for humans.
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        let hand = |c: Color| {
            let h = self.hands[c.index()];
            if h.is_empty() {
                "なし".to_string()
            } else {
                h.iter()
                    .map(|(k, n)| {
                        if n > 1 {
                            format!("{}{}", k.japanese(), n)
                        } else {
                            k.japanese().to_string()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            }
        };
        s.push_str(&format!("後手の持駒：{}\n", hand(Color::White)));
        s.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
        for rank in 1..=9u8 {
            s.push('|');
            for file in (1..=9u8).rev() {
                let sq = Square::from_file_rank(file, rank).expect("on board");
                match self.piece_at(sq) {
                    None => s.push_str(" ・"),
                    Some(p) => {
                        s.push(if p.color() == Color::White { 'v' } else { ' ' });
                        s.push_str(p.kind().japanese_short());
                    }
                }
            }
            s.push_str(&format!("|{}\n", super::square::RANK_JA[rank as usize - 1]));
        }
        s.push_str("+---------------------------+\n");
        s.push_str(&format!("先手の持駒：{}\n", hand(Color::Black)));
        s
    }
}

/// Whether a piece of `kind` and colour `us` arriving on `to` must promote
/// (it could never move again otherwise).
#[inline(always)]
pub(crate) fn must_promote(kind: PieceKind, us: Color, to: Square) -> bool {
    match kind {
        PieceKind::Pawn | PieceKind::Lance => to.relative_rank(us) == 1,
        PieceKind::Knight => to.relative_rank(us) <= 2,
        _ => false,
    }
}

impl PartialEq for Position {
    /// Same board, hands and side to move (the ply is not compared).
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board && self.hands == other.hands && self.side == other.side
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}
