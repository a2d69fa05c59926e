//! What the relaxed check and the search read from a hand: the wild cards, and the cards that can
//! stand naturally in runs, per suit ([`RunNaturals`]); and what runs of one pool of those cards
//! can hold between them ([`pair_naturals`], [`pair_holds`], [`anchored_windows`]). Knows nothing
//! of templates or of the search.

use crate::base::card::Counts;
use crate::rules::Rules;
use crate::rules::spec::{Component, MeldKind};

/// What the relaxed check and the search both read from a hand: the cards that can stand
/// naturally in runs (only where the contract has runs) and the wild cards.
pub(super) fn read_hand(
    rules: &Rules,
    contract: &[Component],
    hand: &Counts,
) -> (RunNaturals, usize) {
    let naturals = if contract.iter().any(|c| c.kind == MeldKind::Run) {
        run_naturals(rules, hand)
    } else {
        RunNaturals::default()
    };
    (naturals, wilds_in(rules, hand))
}

/// How many wild cards the hand holds.
pub(super) fn wilds_in(rules: &Rules, hand: &Counts) -> usize {
    crate::base::card::cards_in(hand.present() & rules.wild_mask())
        .map(|c| usize::from(hand.count(c)))
        .sum()
}

/// The cards of a hand that can stand naturally in runs (`run_natural_at`).
#[derive(Default)]
pub(super) struct RunNaturals {
    /// Per suit, the places of the line they can fill.
    pub(super) places: [u32; 4],
    /// `places` without the wild 2s among them (where twos are wild but may stand for
    /// themselves; the relaxed check counts those among the wilds), and per suit how many such
    /// cards there are: each card once, though an ace may have two places.
    pub(super) plain: [u32; 4],
    pub(super) plain_cards: [usize; 4],
    /// The places of `plain` that the hand has two or more cards for: two runs of one suit can
    /// both hold such a place naturally.
    pub(super) plain_twice: [u32; 4],
}

impl RunNaturals {
    /// `plain` and `plain_twice` for one pool of every suit (runs of any suits): a place the hand
    /// has two cards for, of one suit or of two.
    pub(super) fn plain_twice_any(&self) -> (u32, u32) {
        let mut one = 0;
        let mut twice = 0;
        for (&p, &t) in self.plain.iter().zip(&self.plain_twice) {
            twice |= t | (one & p);
            one |= p;
        }
        (one, twice)
    }
}

/// The most natural cards two runs of the sizes `sizes[0]` and `sizes[1]` can hold together in
/// one pool whose plain naturals fill the places `one`, and `twice` with two cards or more: the
/// best [`pair_holds`] over the pairs of windows they may lie in. `None` where no two windows may be used (each needs a natural card,
/// `anchors`, unless all-wild melds are allowed). An upper bound, exact but for an ace with two
/// places, which it may count at both.
pub(super) fn pair_naturals(
    rules: &Rules,
    sizes: [usize; 4],
    one: u32,
    twice: u32,
    anchors: u32,
    all_wild: bool,
) -> Option<usize> {
    let mut best = None;
    for a in anchored_windows(rules, sizes[0], anchors, all_wild) {
        for b in anchored_windows(rules, sizes[1], anchors, all_wild) {
            best = best.max(Some(pair_holds(one, twice, a, b)));
        }
    }
    best
}

/// The most natural cards two runs in the windows `a` and `b` hold together, in a pool whose
/// naturals fill the places `one`, and `twice` with two cards or more: one at each place of
/// either window, a second at a place both cover only where the pool has two.
pub(super) fn pair_holds(one: u32, twice: u32, a: u32, b: u32) -> usize {
    ((one & (a | b)).count_ones() + (twice & a & b).count_ones()) as usize
}

/// The windows of `n` places a run may lie in: those holding a place the hand can fill
/// naturally (`anchors`), where a meld needs a natural card; all of them where all-wild melds are
/// allowed.
pub(super) fn anchored_windows(
    rules: &Rules,
    n: usize,
    anchors: u32,
    all_wild: bool,
) -> impl Iterator<Item = u32> + '_ {
    rules
        .windows(n)
        .iter()
        .copied()
        .filter(move |&w| all_wild || anchors & w != 0)
}

/// The hand's [`RunNaturals`]: per suit, the places its cards fill, and its plain naturals.
pub(super) fn run_naturals(rules: &Rules, hand: &Counts) -> RunNaturals {
    const TWO: u64 = 1 << 1;
    let twos_natural = !rules.twos_wild || rules.natural_two_in_runs();
    let counts = hand.by_index();
    let present = hand.present();
    // Where no card is held twice, a suit's plain cards are its plain ranks, counted by their
    // mask.
    let copies = hand.holds_copies();
    let mut out = RunNaturals::default();
    for si in 0..4 {
        // The ranks held in this suit that have a place on the line, by rank number - 1.
        let mut ranks = present >> (13 * si) & rules.placed_ranks;
        if !twos_natural {
            ranks &= !TWO;
        }
        // A wild 2 among them is counted among the wilds by the relaxed check: not plain.
        let plain = if rules.twos_wild { ranks & !TWO } else { ranks };
        out.places[si] = rules.places_of(ranks);
        out.plain[si] = rules.places_of(plain);
        if copies {
            let mut twice = 0u64;
            let mut left = plain;
            while left != 0 {
                let rank = left.trailing_zeros() as usize;
                left &= left - 1;
                let k = usize::from(counts[13 * si + rank]);
                out.plain_cards[si] += k;
                if k > 1 {
                    twice |= 1 << rank;
                }
            }
            out.plain_twice[si] = rules.places_of(twice);
        } else {
            out.plain_cards[si] = plain.count_ones() as usize;
        }
    }
    out
}
