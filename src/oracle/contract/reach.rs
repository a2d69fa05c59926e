//! Whether some meld of a contract meld could hold a given card ([`may_hold`]) or the hand could
//! hold any ([`Reach::may_hold_any`]): quick necessary conditions that the built-in players ask
//! between laydown searches. They say "no" only where no such meld exists, which
//! `tests/integration/laydown.rs` (`may_hold_passes_every_card_of_every_meld`) checks against every meld a
//! hand makes.

use super::hand::wilds_in;
use crate::base::card::{Card, Counts, KINDS, Rank};
use crate::rules::Rules;
use crate::rules::disputes::reading;
use crate::rules::spec::{Component, MeldKind};

/// A quick necessary condition for some meld of `comp` from `hand` to hold `card`: a set of the
/// card's rank, or a run through one of its places (of its suit, where runs keep one suit), with
/// the hand's wild cards filling what its naturals leave open. Wild cards always pass, and a 2 is
/// counted both as a wild and, where it may stand for itself, as a natural. `false` means no
/// such meld holds `card`.
///
/// Whether a contract can be met only grows with the hand, so a player whose hand failed a
/// [`laydown`] search and has since gained some cards need only ask whether a meld could hold
/// one of the new ones.
///
/// [`laydown`]: super::laydown
pub fn may_hold(rules: &Rules, comp: Component, hand: &Counts, card: Card) -> bool {
    Reach::new(rules, hand).may_hold(rules, comp, card)
}

/// What [`may_hold`] reads from a hand for the questions about several cards: the wilds, and per
/// suit the places its cards can fill naturally in runs, once; the cards of a rank as each
/// question needs them.
pub struct Reach<'a> {
    /// The hand's counts by card index (suit * 13 + rank number - 1, the joker last).
    counts: &'a [u8; KINDS],
    /// The ranks the hand holds a card of, as a mask by rank number - 1.
    ranks: u64,
    wilds: usize,
    /// Per suit, the places of the line the hand's cards of that suit can fill naturally in runs
    /// (a 2 only where it may stand for itself there); every suit's, four times alike, where runs
    /// may mix suits (`run-suits=any-suits`).
    pools: [u32; 4],
}

impl<'a> Reach<'a> {
    pub fn new(rules: &Rules, hand: &'a Counts) -> Reach<'a> {
        // The ranks held per suit, from the presence mask (by the same index as `counts`).
        let two = 1u64 << (Rank::Two.number() - 1);
        let ranks_kept = if rules.natural_two_in_runs() {
            0x1FFF
        } else {
            0x1FFF & !two
        };
        let mut pools = [0u32; 4];
        for (suit, pool) in pools.iter_mut().enumerate() {
            *pool = rules.places_of((hand.present() >> (suit * 13)) & ranks_kept);
        }
        if rules.readings.run_suits != reading::RunSuits::SameSuit {
            pools = [pools.iter().fold(0, |a, p| a | p); 4];
        }
        let present = hand.present();
        Reach {
            counts: hand.by_index(),
            ranks: (present | present >> 13 | present >> 26 | present >> 39) & 0x1FFF,
            wilds: wilds_in(rules, hand),
            pools,
        }
    }

    /// Whether the hand this was read from may hold a meld of `comp` at all: a set needs some
    /// rank whose cards and the wilds make its size, a run some window whose places the cards of
    /// one suit (any suits, where runs may mix them) and the wilds fill. `false` means
    /// [`laydown`] finds no such meld; `true` decides nothing.
    ///
    /// [`laydown`]: super::laydown
    pub fn may_hold_any(&self, rules: &Rules, comp: Component) -> bool {
        let n = usize::from(comp.size);
        match comp.kind {
            // A rank the hand holds none of has only the wilds.
            MeldKind::Set => {
                if self.wilds >= n {
                    return true;
                }
                let mut ranks = self.ranks;
                while ranks != 0 {
                    let r = ranks.trailing_zeros() as usize;
                    ranks &= ranks - 1;
                    if self.of_rank(r) + self.wilds >= n {
                        return true;
                    }
                }
                false
            }
            MeldKind::Run => {
                if n > rules.max_run() {
                    return false;
                }
                // Under any-suits the four pools are one.
                let same_suit = rules.readings.run_suits == reading::RunSuits::SameSuit;
                let pools = if same_suit {
                    &self.pools[..]
                } else {
                    &self.pools[..1]
                };
                // The naturals a window needs beside the wilds: a pool with fewer places in all
                // has no such window.
                let need = n.saturating_sub(self.wilds);
                pools.iter().any(|&pool| {
                    pool.count_ones() as usize >= need
                        && rules
                            .windows(n)
                            .iter()
                            .any(|&w| (pool & w).count_ones() as usize >= need)
                })
            }
        }
    }

    /// The hand's cards of the rank numbered `r + 1`, of every suit.
    fn of_rank(&self, r: usize) -> usize {
        (0..4).map(|s| usize::from(self.counts[s * 13 + r])).sum()
    }

    /// [`may_hold`] for the hand this was read from.
    pub fn may_hold(&self, rules: &Rules, comp: Component, card: Card) -> bool {
        let (Some(rank), Some(suit)) = (card.rank(), card.suit()) else {
            return true;
        };
        if rules.is_wild(card) {
            return true;
        }
        let n = usize::from(comp.size);
        let r = usize::from(rank.number()) - 1;
        match comp.kind {
            MeldKind::Set => self.of_rank(r) + self.wilds >= n,
            MeldKind::Run => {
                if n > rules.max_run() {
                    return false;
                }
                let pool = self.pools[suit as usize];
                rules.windows(n).iter().any(|&w| {
                    w & rules.rank_places[r] != 0
                        && (pool & w).count_ones() as usize + self.wilds >= n
                })
            }
        }
    }
}
