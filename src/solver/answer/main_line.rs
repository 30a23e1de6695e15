//! Reading the main line of the tsume answer once its length is known:
//! the shortest checks, the longest defences (useless drops neither
//! counted nor played), an empty final hand among equals; and, for an
//! answer cut short, the line of the longest resistance the table knows.

use hashbrown::HashSet;

use crate::core::movegen::{MoveList, generate_checks, generate_evasions};
use crate::core::{Move, Position};

use super::super::defence::DefenceChoice;
use super::super::interposition::{DropInterpositions, has_counted_evasion, is_mated_now_by};
use super::super::mode::{Bounded, Counting, MAX_PLY as MAX_LINE};
use super::super::search::{STACK_RED_ZONE, STACK_SEGMENT};
use super::super::tt::Probe;
use super::{TsumeSearch, final_hand};

/// The first budget of each of the two tests of a drop interposition on
/// the line (see [`TsumeSearch::drop_lasts`]).
const DROP_TEST_NODES: u64 = 10_000;

/// The budget of each defence the table lost, proven again where the line
/// of a mate would fall short (see [`TsumeSearch::mate_line`]).
const LOST_DEFENCE_NODES: u64 = 100_000;

/// How [`TsumeSearch::lasting_defences`] ended.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lasting {
    /// Its taker stopped it.
    Stopped,
    /// Every defence that lasts was passed.
    AllSeen,
    /// The exact length of every defence is needed.
    NeedsExactLengths,
}

/// What [`TsumeSearch::longest_defences`] found without the exact lengths
/// of the shorter defences.
enum Longest {
    /// The longest defences, each with its length.
    Found(Vec<(u32, Move)>),
    /// Not found that way: the exact length of every defence is needed.
    NeedsExactLengths,
}

impl TsumeSearch<'_, '_> {
    /// The main line from `pos` (on the line), mated in exactly `len` plies.
    /// Among the longest defences, one after which the attacker ends with
    /// an empty hand is preferred (by [`DefenceChoice::EmptyHandFirst`], to
    /// any longer one: the line may then be shorter than `len`). `None`
    /// when a limit stopped the search.
    pub fn main_line(&mut self, pos: &Position, len: u32) -> Option<Vec<Move>> {
        if len == 0 {
            return Some(Vec::new());
        }
        let attacker = self.search.attacker;
        if pos.side_to_move() == attacker {
            // The first shortest check; others of that length only when its
            // line ends with pieces in hand (and while reads are left).
            //
            // The proof's own check first. The table may have lost it
            // (entries that cost little to find are replaced first): then
            // the node is proven again, where a df-pn search picks the check
            // by proof numbers, instead of a failed search under the bound
            // for each wrong check tried in turn.
            let proven = |p: &Probe| p.pn == 0 && p.len as u32 <= len && p.mv.is_some();
            if !self
                .search
                .probe_within(self.counting, pos, len)
                .is_some_and(|p| proven(&p))
            {
                self.within(pos, len)?;
            }
            let mut list = MoveList::new();
            generate_checks(pos, &mut list);
            // Checks the table already knows to mate in time come first: a
            // check that does not costs a whole search under the bound.
            // Once a line is read, a check the table does not know to mate
            // in time is tested within what is left of a small budget.
            let hint = self
                .search
                .probe_within(self.counting, pos, len)
                .and_then(|p| p.mv);
            let mut moves: Vec<(bool, Move)> = list
                .iter()
                .map(|&m| {
                    let known = self
                        .search
                        .probe_within(self.counting, &pos.after(m), len - 1)
                        .is_some_and(|p| p.pn == 0 && (p.len as u32) < len);
                    (known, m)
                })
                .collect();
            moves.sort_by_key(|&(known, m)| (!known, Some(m) != hint));
            let mut best: Option<Vec<Move>> = None;
            for (known, m) in moves {
                let mates = if best.is_some() && !known {
                    self.within_after_capped(pos, m, len - 1)?
                } else {
                    self.within_after(pos, m, len - 1)?
                };
                if !mates.is_mated() {
                    continue;
                }
                // A mate in 1 ends the line: one whose end the judge of a
                // line's end ([`is_mated_now_by`]) cannot confirm is not
                // offered. Under the rules other than `within-other-defences` the
                // search can find drops useless by a mate after their
                // capture that the judge, within its fixed number of
                // positions, does not see.
                if len == 1 && !is_mated_now_by(&pos.after(m), self.line_rule()) {
                    continue;
                }
                if self.settled(pos, m, len - 1, &mut best)? {
                    break;
                }
            }
            return best;
        }
        // The longest defences, read off the known length when it is exact;
        // otherwise from the exact length of every defence.
        let mut list = MoveList::new();
        generate_evasions(pos, &mut list);
        let drops = self.counting.judged_drops(pos);
        if self.choice == DefenceChoice::Longest
            && let Some(line) = self.longest_line_read_in_turn(pos, &list, drops, len)?
        {
            return Some(line);
        }
        let longest = match self.longest_defences(pos, &list, drops, len)? {
            Longest::Found(longest) => longest,
            Longest::NeedsExactLengths => self.longest_by_exact_lengths(pos, &list, drops, len)?,
        };
        if longest.is_empty() {
            return Some(Vec::new());
        }
        if self.choice == DefenceChoice::EmptyHandFirst {
            return self.empty_hand_first(pos, &list, drops, longest);
        }
        let child_len = longest[0].0 - 1;
        let mut best: Option<Vec<Move>> = None;
        for (_, m) in longest {
            if self.settled(pos, m, child_len, &mut best)? {
                break;
            }
        }
        best
    }

    /// The main line from `pos` (the defender to move, mated in exactly
    /// `len` plies) by [`DefenceChoice::Longest`]: each defence's line is
    /// read as soon as it is found to last `len`
    /// ([`lasting_defences`](Self::lasting_defences)), and the first line
    /// that ends with an empty hand in `len` plies ends the reading, so the
    /// defences after it are never tested (each that lasts costs a search
    /// that proves no mate within `len - 3`). `Some(None)` when the line
    /// needs the exact length of every defence; `None` when a limit
    /// stopped a search.
    fn longest_line_read_in_turn(
        &mut self,
        pos: &Position,
        list: &MoveList,
        drops: DropInterpositions,
        len: u32,
    ) -> Option<Option<Vec<Move>>> {
        let mut best = None;
        let seen = self.lasting_defences(pos, list, drops, len, |t, m| {
            t.settled(pos, m, len - 1, &mut best)
        })?;
        Some(if seen == Lasting::NeedsExactLengths {
            None
        } else {
            best
        })
    }

    /// The main line from `pos` (the defender to move) by
    /// [`DefenceChoice::EmptyHandFirst`]: the longest line among the
    /// defences whose line ends with the attacker's hand empty, else the
    /// longest. `longest` holds the longest defences by tsume length; the
    /// shorter ones are read only when none of those ends with an empty
    /// hand in as many plies, longest first, down to the length of the
    /// best empty-handed line found (a defence's line is never longer than
    /// its tsume length). `None` when a limit stopped the search.
    fn empty_hand_first(
        &mut self,
        pos: &Position,
        list: &MoveList,
        drops: DropInterpositions,
        longest: Vec<(u32, Move)>,
    ) -> Option<Vec<Move>> {
        let len = longest[0].0;
        let mut shorter: Option<Vec<(u32, Move)>> = None;
        // (ends empty, plies): the greater is preferred.
        let mut best: Option<((bool, usize), Vec<Move>)> = None;
        let mut i = 0;
        loop {
            let (l, m) = if i < longest.len() {
                longest[i]
            } else {
                if shorter.is_none() {
                    let start = self.search.total_nodes();
                    let mut counted = self.counted_lengths(pos, list, drops, len)?;
                    if std::env::var_os("TSUME_DEBUG").is_some() {
                        eprintln!(
                            "answer: shorter defences at depth {} len {len}: {:?} ({} nodes)",
                            self.path.len(),
                            counted.iter().map(|&(l, _)| l).collect::<Vec<_>>(),
                            self.search.total_nodes() - start
                        );
                    }
                    counted.retain(|&(l, _)| l < len);
                    counted.sort_by_key(|&(l, _)| std::cmp::Reverse(l));
                    shorter = Some(counted);
                }
                match shorter.as_ref().and_then(|s| s.get(i - longest.len())) {
                    Some(&d) => d,
                    None => break,
                }
            };
            i += 1;
            // No defence left can beat an empty-handed line as long as its
            // tsume length.
            if best
                .as_ref()
                .is_some_and(|&((empty, plies), _)| empty && plies >= l as usize)
            {
                break;
            }
            let line = self.defence_line(pos, m, l)?;
            let key = (
                final_hand(pos, &line, self.search.attacker).is_empty(),
                line.len(),
            );
            if best.as_ref().is_none_or(|(b, _)| key > *b) {
                best = Some((key, line));
            }
        }
        best.map(|(_, line)| line)
    }

    /// The defence `m` at `pos` followed by the main line after it, which
    /// is mated in exactly `len - 1` plies.
    fn defence_line(&mut self, pos: &Position, m: Move, len: u32) -> Option<Vec<Move>> {
        let child = pos.after(m);
        self.enter(&child);
        let rest = stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || {
            self.main_line(&child, len - 1)
        });
        self.leave();
        let mut line = vec![m];
        line.extend(rest?);
        Some(line)
    }

    /// The longest defences at `pos` (the defender to move, mated in
    /// exactly `len` plies), with their length, found without the exact
    /// length of the shorter ones (see
    /// [`lasting_defences`](Self::lasting_defences)). `None` when a limit
    /// stopped a search.
    fn longest_defences(
        &mut self,
        pos: &Position,
        list: &MoveList,
        drops: DropInterpositions,
        len: u32,
    ) -> Option<Longest> {
        let mut longest = Vec::new();
        let seen = self.lasting_defences(pos, list, drops, len, |_, m| {
            longest.push((len, m));
            Some(false)
        })?;
        Some(if seen == Lasting::NeedsExactLengths {
            Longest::NeedsExactLengths
        } else {
            Longest::Found(longest)
        })
    }

    /// Passes to `take`, in turn, each defence at `pos` (the defender to
    /// move, mated in exactly `len` plies) that lasts `len`, until `take`
    /// says to stop (`Some(true)`). A defence that counts lasts `len` plies
    /// when the position after it is not mated within `len - 3`. The
    /// defences that always count (no drop between checker and king) come
    /// first: when one lasts, that is the base the drops are judged
    /// against. [`Lasting::NeedsExactLengths`] when none does (the drops
    /// are then judged against the longest of them: see
    /// [`longest_lasting`](Self::longest_lasting)), or a drop that counts
    /// is not mated within `len - 1` (`len` is then not exact); `None` when
    /// a limit stopped a search (in `take` too).
    fn lasting_defences(
        &mut self,
        pos: &Position,
        list: &MoveList,
        drops: DropInterpositions,
        len: u32,
        mut take: impl FnMut(&mut Self, Move) -> Option<bool>,
    ) -> Option<Lasting> {
        let mut based = false;
        for &m in list.iter().filter(|&&m| !drops.contains(m)) {
            if !self.lasts(pos, m, len)? {
                continue;
            }
            based = true;
            if take(self, m)? {
                return Some(Lasting::Stopped);
            }
        }
        if !based {
            return Some(Lasting::NeedsExactLengths);
        }
        for &m in list.iter().filter(|&&m| drops.contains(m)) {
            if !self.drop_lasts(pos, m, len)? {
                continue;
            }
            if !self.within_after(pos, m, len - 1)?.is_mated() {
                return Some(Lasting::NeedsExactLengths);
            }
            if take(self, m)? {
                return Some(Lasting::Stopped);
            }
        }
        Some(Lasting::AllSeen)
    }

    /// Whether the drop between checker and king `m` at `pos` (mated in
    /// `len` plies by its other defences) is a counted defence that lasts
    /// `len`: not useless, and not mated within `len - 3` after it. A drop
    /// mated sooner is not among the longest, useless or not, so either
    /// answer may settle it, and either may be the expensive one (one can
    /// take thousands of times the nodes of the other, and which one
    /// differs from drop to drop: `docs/measurements.md`): the two
    /// are asked in turn under a budget that grows fourfold until one of
    /// them settles it or both are known. `None` when a limit stopped it.
    fn drop_lasts(&mut self, pos: &Position, m: Move, len: u32) -> Option<bool> {
        #[cfg(test)]
        {
            self.defences_tested += 1;
        }
        let verdict = |lasts: Option<bool>, useless: Option<bool>| match (lasts, useless) {
            (Some(false), _) | (_, Some(true)) => Some(false),
            (Some(true), Some(false)) => Some(true),
            _ => None,
        };
        let (mut lasts, mut useless) = (None, None);
        let mut budget = DROP_TEST_NODES;
        loop {
            if lasts.is_none() {
                lasts = self.budgeted(budget, |t| t.lasts(pos, m, len))?.answer();
                if let Some(v) = verdict(lasts, useless) {
                    return Some(v);
                }
            }
            if useless.is_none() {
                useless = self
                    .budgeted(budget, |t| t.is_useless(pos, m, len))?
                    .answer();
                if let Some(v) = verdict(lasts, useless) {
                    return Some(v);
                }
            }
            budget = budget.saturating_mul(4);
        }
    }

    /// Whether the defence `m` at `pos` is not mated within `len - 3`
    /// plies after it (so it lasts `len` when `pos` is mated within `len`).
    fn lasts(&mut self, pos: &Position, m: Move, len: u32) -> Option<bool> {
        #[cfg(test)]
        {
            self.defences_tested += 1;
        }
        if len < 3 {
            return Some(true);
        }
        Some(!self.within_after(pos, m, len - 3)?.is_mated())
    }

    /// The longest defences at `pos`: those that last `len` when it is
    /// exact (see [`longest_lasting`](Self::longest_lasting)), else from the
    /// exact length of each (see [`counted_lengths`](Self::counted_lengths)).
    fn longest_by_exact_lengths(
        &mut self,
        pos: &Position,
        list: &MoveList,
        drops: DropInterpositions,
        len: u32,
    ) -> Option<Vec<(u32, Move)>> {
        if let Some(longest) = self.longest_lasting(pos, list, drops, len)? {
            return Some(longest);
        }
        let mut counted = self.counted_lengths(pos, list, drops, len)?;
        let longest = counted.iter().map(|&(l, _)| l).max().unwrap_or(0);
        if longest == 0 {
            return Some(Vec::new());
        }
        counted.retain(|&(l, _)| l == longest);
        Some(counted)
    }

    /// The longest defences at `pos` (mated in exactly `len` plies), as
    /// [`counted_lengths`](Self::counted_lengths) has them, where only
    /// drops between checker and king last: the defences that count and
    /// last `len` (see [`lasts`](Self::lasts)). `Some(None)` when `len`
    /// is not exact after all (no such defence, or one not mated within
    /// `len - 1`); `None` when a limit stopped a search.
    ///
    /// Whether a drop counts depends on the base, the exact length of the
    /// longest other defence. A defence that always counts is mated within
    /// the length of the mate found after it (the table knows it from the
    /// questions before), so the base is at most the longest of those, and
    /// a drop not useless against that is not against the exact base either
    /// (the longer the base, the more drops are useless). Only when a drop
    /// is useless against that bound is the exact base searched: the exact
    /// lengths from the longest mate found down, passing over a defence
    /// whose mate is shorter than one found. No drop needs its own exact
    /// length: on ミクロコスモス cut at ply 1000, proving that a drop
    /// mated in 87 plies, where another lasts 365, is not mated within 85
    /// took 62M nodes of the main line's 71.5M (`docs/measurements.md`).
    fn longest_lasting(
        &mut self,
        pos: &Position,
        list: &MoveList,
        drops: DropInterpositions,
        len: u32,
    ) -> Option<Option<Vec<(u32, Move)>>> {
        let bound = len.saturating_sub(1);
        // (mated within, defence) of the defences that always count.
        let mut always: Vec<(u32, Move)> = Vec::new();
        for &m in list.iter().filter(|&&m| !drops.contains(m)) {
            match self.within_after(pos, m, bound)? {
                Bounded::Mated(l) => always.push((l + 1, m)),
                Bounded::NotMated => return Some(None),
            }
        }
        let base_at_most = always.iter().map(|&(l, _)| l).max().unwrap_or(0);
        let mut counted = Vec::new();
        let mut undecided = Vec::new();
        for &m in list.iter().filter(|&&m| drops.contains(m)) {
            if self.is_useless(pos, m, base_at_most)? {
                undecided.push(m);
            } else {
                counted.push(m);
            }
        }
        if !undecided.is_empty() {
            always.sort_by_key(|&(l, _)| std::cmp::Reverse(l));
            let mut base = 0;
            for &(at_most, m) in &always {
                if at_most < base {
                    break;
                }
                base = base.max(self.exact_after(pos, m, bound)? + 1);
            }
            for m in undecided {
                if !self.is_useless(pos, m, base)? {
                    counted.push(m);
                }
            }
        }
        let mut longest = Vec::new();
        for &m in list.iter() {
            let drop = drops.contains(m);
            if drop && !counted.contains(&m) || !self.lasts(pos, m, len)? {
                continue;
            }
            if drop && !self.within_after(pos, m, bound)?.is_mated() {
                return Some(None);
            }
            longest.push((len, m));
        }
        // The order of `counted_lengths`: the drops last.
        longest.sort_by_key(|&(_, m)| drops.contains(m));
        Some((!longest.is_empty()).then_some(longest))
    }

    /// The defences at `pos` (mated within `len` plies) that count, each
    /// with its exact tsume length: first the defences that always count,
    /// which give the base; then the drop interpositions, useless when
    /// their set-aside mate fits in the base.
    fn counted_lengths(
        &mut self,
        pos: &Position,
        list: &MoveList,
        drops: DropInterpositions,
        len: u32,
    ) -> Option<Vec<(u32, Move)>> {
        let mut counted: Vec<(u32, Move)> = Vec::new();
        let mut base = 0;
        for &m in list.iter().filter(|&&m| !drops.contains(m)) {
            let l = self.exact_after(pos, m, len.saturating_sub(1))? + 1;
            base = base.max(l);
            counted.push((l, m));
        }
        for &m in list.iter().filter(|&&m| drops.contains(m)) {
            if self.is_useless(pos, m, base)? {
                continue;
            }
            let l = self.exact_after(pos, m, len.saturating_sub(1))? + 1;
            counted.push((l, m));
        }
        Some(counted)
    }

    /// For an answer a limit cut short, a mating line from `root` of at
    /// most `bound` plies along what the table knows: at the attacker's
    /// turn the check with the shortest known mate that fits in the plies
    /// left; at the defender's turn, among the defences whose known mate
    /// fits, the one proven not mated within the most plies (when
    /// `by_resistance`), then the one with the longest known mate. Where
    /// no move fits (the table replaced the entry of the one that did), the
    /// shortest known mate at the attacker's turn, and at the defender's
    /// the same choice among all: the line may then run over `bound`. The
    /// line ends where the defender is mated where it stands by the rule
    /// (checkmate, or only useless drops between checker and king left).
    /// `None` where the table knows no mating move, or a position comes
    /// back.
    ///
    /// A drop between checker and king is a defence here like any other:
    /// the bounded search counts a drop mated in time as a defence, useless
    /// or not, so the mate it proved may pass through one. Leaving drops
    /// out would leave such a mate for a short one of a weaker defence
    /// (ミクロコスモス: a 21-ply line where 1,525 plies were proven,
    /// `docs/measurements.md`); a drop on the line may then be one the
    /// exact answer leaves out as useless.
    ///
    /// The first proof's line may follow a defence far shorter than the
    /// longest, while the bounded searches have already proven that some
    /// defence lasts longer. Without `by_resistance` and within the mate
    /// last proven from above, the line follows that mate, as long as the
    /// table kept it; the line of the longest resistance can outlast it by
    /// passing over defences whose mates the table lost.
    pub(super) fn known_line(
        &mut self,
        root: &Position,
        by_resistance: bool,
        bound: u32,
    ) -> Option<Vec<Move>> {
        self.read_line(root, by_resistance, bound, false)
    }

    /// The line of the mate within `bound` just proven from `root`, read
    /// as [`known_line`](Self::known_line) reads it, with what the table
    /// lost of that mate proven again (each within [`LOST_DEFENCE_NODES`],
    /// with nothing on the path) where the line would otherwise fall short
    /// of it: at a defender's turn where no defence is known to last the
    /// plies left, each defence whose mate the table does not know in
    /// time; at the attacker's turn where no check is known to mate in
    /// time, the defences of the check stored with the position's proof.
    /// Entries that cost little to find are replaced first, so a long
    /// mate's table can lose a defence while keeping the rest; read
    /// without it, the line follows a shorter defence, and the bound under
    /// that mate goes without its line settled (`docs/measurements.md`).
    /// A defence's known mate is also checked against the attacker's next
    /// check before the defence is taken (see
    /// [`known_defence`](Self::known_defence)). Where the table knows a
    /// shorter way (a shorter mate at the attacker's turn, or no longer
    /// defence found again), the line is read on from there as that much
    /// shorter.
    pub(super) fn mate_line(&mut self, root: &Position, bound: u32) -> Option<Vec<Move>> {
        self.read_line(root, false, bound, true)
    }

    /// [`known_line`](Self::known_line), and with `repair`
    /// [`mate_line`](Self::mate_line).
    fn read_line(
        &mut self,
        root: &Position,
        by_resistance: bool,
        bound: u32,
        repair: bool,
    ) -> Option<Vec<Move>> {
        let attacker = self.search.attacker;
        let rule = self.line_rule();
        let mated_now = |pos: &Position| !has_counted_evasion(pos) && is_mated_now_by(pos, rule);
        let mut pos = root.clone();
        let mut line = Vec::new();
        let mut seen = HashSet::new();
        // Plies the line is known to fall short of `bound` (with `repair`).
        let mut short = 0;
        loop {
            if !seen.insert(pos.key()) || line.len() >= MAX_LINE as usize {
                return None;
            }
            // A move fits when the mate known after it does.
            let left = bound.saturating_sub(line.len() as u32 + short);
            let m = if pos.side_to_move() == attacker {
                let fitting = |t: &Self| {
                    shortest_known_check(&pos, mated_now, |child| {
                        t.known_mate(child).filter(|&l| l < left)
                    })
                };
                let mut found = fitting(self);
                if repair && found.is_none() && left > 1 {
                    // The defences of the check the position's proof
                    // stored, the table having lost what they are.
                    if let Some(m) = self.proven_check(&pos, left) {
                        self.prove_lost(&pos.after(m), left - 1);
                        found = fitting(self);
                    }
                }
                let (mated, m) = found.or_else(|| {
                    shortest_known_check(&pos, mated_now, |child| self.known_mate(child))
                })?;
                if repair && mated + 1 < left {
                    short += left - 1 - mated;
                }
                m
            } else {
                if mated_now(&pos) {
                    return Some(line);
                }
                let mut moves = MoveList::new();
                generate_evasions(&pos, &mut moves);
                let mut best =
                    self.known_defence(&pos, &moves, left, by_resistance, repair, &mated_now);
                // No defence known, or none known to last the plies left.
                let falls_short = |best: &Option<(DefenceScore, Move)>| {
                    best.is_none_or(|((_, _, mated), _)| mated + 1 < left)
                };
                if repair && left > 1 && falls_short(&best) {
                    for &m in moves.iter() {
                        let child = pos.after(m);
                        if self.known_mate(&child).is_none_or(|l| l >= left) {
                            self.prove_lost(&child, left - 1);
                        }
                    }
                    best =
                        self.known_defence(&pos, &moves, left, by_resistance, repair, &mated_now);
                }
                let ((_, _, mated), m) = best?;
                if repair && mated + 1 < left {
                    short += left - 1 - mated;
                }
                m
            };
            pos.do_move(m);
            line.push(m);
        }
    }

    /// The defence [`known_line`](Self::known_line) follows at `pos` (the
    /// defender to move, `moves` its evasions, `left` plies left), with its
    /// score: whether its known mate fits, how long it resists (when
    /// `by_resistance`), its known mate.
    ///
    /// With `tighten` ([`mate_line`](Self::mate_line)), a defence's known
    /// mate is checked against the attacker's reply before the defence is
    /// taken: a stored length is that of the proof that found it, and a
    /// check the table knows to mate sooner after it shows it loose. The
    /// defence is then scored again by that shorter mate and the choice
    /// made again, each defence checked once. Taken on its stored length,
    /// such a defence leads the line to a short mate where another defence
    /// lasts the plies left, and the bound under the mate goes without its
    /// line settled (`docs/measurements.md`).
    fn known_defence(
        &self,
        pos: &Position,
        moves: &MoveList,
        left: u32,
        by_resistance: bool,
        tighten: bool,
        mated_now: &impl Fn(&Position) -> bool,
    ) -> Option<(DefenceScore, Move)> {
        let attacker = self.search.attacker;
        // Each known defence's score, and whether it was checked.
        struct Known {
            score: DefenceScore,
            m: Move,
            checked: bool,
        }
        let mut known: Vec<Known> = Vec::new();
        for &m in moves.iter() {
            let child = pos.after(m);
            let Some(mated) = self.known_mate(&child) else {
                continue;
            };
            let resists = if by_resistance {
                self.search
                    .table
                    .probe(
                        child.board_key() ^ self.counting.salt(self.search.base_salt),
                        child.hand(attacker),
                    )
                    .filter(|p| p.dn == 0)
                    .map_or(0, |p| u32::from(p.len) + 1)
            } else {
                0
            };
            let score = (mated < left, resists, mated);
            known.push(Known {
                score,
                m,
                checked: false,
            });
        }
        loop {
            // The first of the best scores.
            let mut best: Option<usize> = None;
            for (i, k) in known.iter().enumerate() {
                if best.is_none_or(|b| k.score > known[b].score) {
                    best = Some(i);
                }
            }
            let k = &mut known[best?];
            if !tighten || k.checked {
                return Some((k.score, k.m));
            }
            k.checked = true;
            let (_, resists, mated) = k.score;
            let reply = shortest_known_check(&pos.after(k.m), mated_now, |c| self.known_mate(c));
            if let Some((after, _)) = reply.filter(|&(after, _)| after + 1 < mated) {
                k.score = (after + 1 < left, resists, after + 1);
            }
        }
    }

    /// The check stored with the proof of `pos` (the attacker to move)
    /// within `left` plies, when the table has it.
    fn proven_check(&self, pos: &Position, left: u32) -> Option<Move> {
        let m = self
            .search
            .probe_within(self.counting, pos, left)
            .filter(|p| p.pn == 0 && u32::from(p.len) <= left)?
            .mv?;
        let mut checks = MoveList::new();
        generate_checks(pos, &mut checks);
        checks.contains(&m).then_some(m)
    }

    /// Proves `child` mated within `bound` again, with nothing on the path
    /// and within [`LOST_DEFENCE_NODES`] (see [`mate_line`](Self::mate_line)).
    fn prove_lost(&mut self, child: &Position, bound: u32) {
        self.with_empty_path(|t| {
            t.enter(child);
            t.budgeted(LOST_DEFENCE_NODES, |t| t.within(child, bound));
            t.leave();
        });
    }

    /// The length of a mate the table knows from `pos` (attacker to
    /// move), under tsume counting or plain.
    pub(super) fn known_mate(&self, pos: &Position) -> Option<u32> {
        [self.counting, Counting::Plain]
            .into_iter()
            .filter_map(|c| self.mate_known_in(c, pos))
            .min()
    }

    /// The length of a mate the table knows from `pos` (attacker to
    /// move) counting as `counting`, that namespace alone.
    pub(super) fn mate_known_in(&self, counting: Counting, pos: &Position) -> Option<u32> {
        self.search
            .table
            .probe(
                pos.board_key() ^ counting.salt(self.search.base_salt),
                pos.hand(self.search.attacker),
            )
            .filter(|p| p.pn == 0)
            .map(|p| u32::from(p.len))
    }

    /// Reads the line of `m` at `pos` (the position after it mated in
    /// `len`) into `best`, the line kept so far among equally short
    /// attacks or equally long defences. `Some(true)` when the choice is
    /// settled: the line ends with the attacker's hand empty (and is as
    /// long as the tsume length), or no more
    /// alternatives may be read (or a limit stopped one, with a line kept);
    /// `None` when a limit stopped the first.
    fn settled(
        &mut self,
        pos: &Position,
        m: Move,
        len: u32,
        best: &mut Option<Vec<Move>>,
    ) -> Option<bool> {
        if best.is_some() && len > 1 {
            // Another move as good: worth reading only to avoid ending
            // with pieces in hand, and only so many times. A line of one
            // or two plies (a defence and the mate, or the mate) costs next
            // to nothing to read and is not counted: counted, the last
            // moves of the first line read, each with several equally
            // quick mates, could use all the reads before a check higher
            // up whose line ends with an empty hand was tried
            // (`docs/measurements.md`).
            if self.alternatives_left == 0 {
                return Some(true);
            }
            self.alternatives_left -= 1;
        }
        let child = pos.after(m);
        self.enter(&child);
        let rest = stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || {
            self.main_line(&child, len)
        });
        self.leave();
        let Some(rest) = rest else {
            return best.is_some().then_some(true);
        };
        let mut line = vec![m];
        line.extend(rest);
        // An empty final hand first, then the longer line (lines differ in
        // length only by DefenceChoice::EmptyHandFirst, where a line as
        // long as the tsume length is the one no side line outlasts).
        let key = |t: &Self, line: &[Move]| {
            (
                final_hand(pos, line, t.search.attacker).is_empty(),
                line.len(),
            )
        };
        let new_key = key(self, &line);
        if best.as_ref().is_none_or(|b| new_key > key(self, b)) {
            *best = Some(line);
        }
        Some(new_key == (true, len as usize + 1))
    }
}

/// A defence's score in [`TsumeSearch::known_defence`]: whether its known
/// mate fits in the plies left, how long it resists, its known mate.
type DefenceScore = (bool, u32, u32);

/// The check at `pos` (attacker to move) with the shortest mate `known`
/// knows after it, with that length; a check after which the defender is
/// `mated_now` counts 0 (such a position, with no move to search, is
/// rarely in the table). The first of equally short ones.
pub(super) fn shortest_known_check(
    pos: &Position,
    mated_now: impl Fn(&Position) -> bool,
    known: impl Fn(&Position) -> Option<u32>,
) -> Option<(u32, Move)> {
    let mut checks = MoveList::new();
    generate_checks(pos, &mut checks);
    checks
        .iter()
        .filter_map(|&m| {
            let child = pos.after(m);
            let now = mated_now(&child).then_some(0);
            now.or_else(|| known(&child)).map(|l| (l, m))
        })
        .min_by_key(|&(l, _)| l)
}

#[cfg(test)]
mod tests {
    use super::super::TsumeSearch;
    use crate::core::movegen::{MoveList, generate_evasions};
    use crate::core::{Color, Position};
    use crate::solver::Solver;
    use crate::solver::interposition::UselessRule;
    use crate::solver::is_tsume_line;
    use crate::solver::mode::{Counting, Mode};

    /// Runs `f` on tsume questions from `pos` (Black mates, the default
    /// rule, a 16 MB table) once its length is proven exact: a plain
    /// proof, then [`TsumeSearch::shortest`]. `f` gets that length.
    fn with_length_proven<T>(pos: &Position, f: impl FnOnce(&mut TsumeSearch, u32) -> T) -> T {
        let mut solver = Solver::new(16);
        let mut search = solver.search(Color::Black, 0, u64::MAX, None);
        let mut t = TsumeSearch::new(&mut search, pos, UselessRule::default());
        let path = t.path_hash();
        let r = t
            .search
            .search_root(Mode::unbounded(Counting::Plain), &mut pos.clone(), path);
        assert_eq!(r.pn, 0, "mated");
        let (len, exact, _) = t.shortest(pos, r.len as u32, None);
        assert!(exact);
        f(&mut t, len)
    }

    /// A mate in 5 (`tanuki_generated.tsv` row 860) whose defender, at some
    /// node of the line, has evasions after the one the line follows: once
    /// that one's line ends with an empty hand in as many plies as its
    /// length, the evasions after it are not tested (each that lasts would
    /// cost a search proving no mate within the plies left).
    #[test]
    fn the_main_line_tests_no_defence_after_one_whose_line_settles_it() {
        let pos: Position = "9/5RG2/7kP/9/9/8S/9/9/9 b Nr2b3g3s3n4l17p 1"
            .parse()
            .unwrap();
        with_length_proven(&pos, |t, len| {
            assert_eq!(len, 5);
            t.defences_tested = 0;
            let line = t.main_line(&pos, len).expect("a line");
            assert!(is_tsume_line(&pos, &line, Color::Black), "{line:?}");
            assert_eq!(line.len(), 5);
            // Every evasion at the defender's nodes of the line.
            let mut p = pos.clone();
            let mut evasions = 0;
            for (i, &m) in line.iter().enumerate() {
                if i % 2 == 1 {
                    let mut list = MoveList::new();
                    generate_evasions(&p, &mut list);
                    evasions += list.len() as u32;
                }
                p.do_move(m);
            }
            assert!(
                t.defences_tested < evasions,
                "{} defences tested of {evasions}",
                t.defences_tested
            );
        });
    }

    /// Where only drops between checker and king last, the longest
    /// defences are found without the exact length of any defence. After
    /// the first check of this mate in 7 (`tanuki_generated.tsv` row 1071),
    /// six drops last 6 plies and the two king moves less: the same longest
    /// defences as from the exact length of every defence.
    #[test]
    fn the_longest_defences_need_no_exact_lengths_where_drops_last() {
        let pos: Position = "9/8B/9/7Nk/9/4B2R1/9/9/9 b r4g3s3n4l18p 1".parse().unwrap();
        with_length_proven(&pos, |t, len| {
            assert_eq!(len, 7);
            let child = pos.after(pos.parse_move("2f1f").unwrap());
            t.enter(&child);
            let mut list = MoveList::new();
            generate_evasions(&child, &mut list);
            let drops = t.counting.judged_drops(&child);
            t.exact_lengths = 0;
            let lasting = t
                .longest_lasting(&child, &list, drops, 6)
                .expect("no limit")
                .expect("6 is exact");
            assert_eq!(t.exact_lengths, 0);
            let mut every = t
                .counted_lengths(&child, &list, drops, 6)
                .expect("no limit");
            assert_eq!(t.exact_lengths, list.len() as u32);
            let longest = every.iter().map(|&(l, _)| l).max().unwrap();
            every.retain(|&(l, _)| l == longest);
            assert_eq!(lasting, every);
            assert_eq!(longest, 6);
            assert_eq!(every.len(), 6);
            assert!(every.iter().all(|&(_, m)| drops.contains(m)));
            // Asked a length that is not exact, it says so.
            assert_eq!(t.longest_lasting(&child, &list, drops, 8), Some(None));
        });
    }
}
