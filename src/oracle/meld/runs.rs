//! The run search: for each suit (or any suits) and each window of the rank line that has a
//! place of every natural's rank, the naturals go to the places of their ranks (the aces to
//! either of theirs), and the wild-capable cards fill the free places in every distinct way.
//! The plain rule is `meld_reference::brute_runs`; `tests/integration/meld_oracle.rs` holds the two
//! together.

use super::{Interpretation, MAX_MELD_CARDS, Parts, ROOM, Role, Target, all_wild_ok};
use crate::base::card::{Card, Rank, Suit};
use crate::rules::Rules;
use crate::rules::disputes::reading;
use crate::rules::spec::MeldKind;

pub(super) fn runs(
    rules: &Rules,
    p: &Parts<'_>,
    f: &mut dyn FnMut(Interpretation) -> bool,
) -> bool {
    let n = p.n;
    let len = rules.line.len();
    if n < usize::from(rules.run_min) || n > rules.max_run() {
        return true;
    }
    let same_suit = rules.readings.run_suits == reading::RunSuits::SameSuit;
    let one;
    let suits: &[Option<Suit>] = if same_suit {
        // The naturals fix the suit; with none, every suit.
        match p.naturals.first().and_then(|(c, _)| c.suit()) {
            Some(s) => {
                if p.naturals.iter().any(|(c, _)| c.suit() != Some(s)) {
                    return true;
                }
                one = [Some(s)];
                &one
            }
            None => &Suit::EACH,
        }
    } else {
        &[None]
    };
    let both_ends = rules.readings.ace_both_ends == reading::AceBothEnds::Allowed;
    // A window holds the naturals only if it has a place of each natural's rank: the others
    // give no interpretation (`run_window` places each natural at a place of its rank).
    let natural_ranks: u16 = p
        .naturals
        .iter()
        .filter_map(|(c, _)| c.rank())
        .fold(0, |m, r| m | 1 << (r.number() - 1));
    let holds_naturals = |w: u32| {
        let mut ranks = natural_ranks;
        while ranks != 0 {
            let r = ranks.trailing_zeros() as usize;
            ranks &= ranks - 1;
            if rules.rank_places[r] & w == 0 {
                return false;
            }
        }
        true
    };
    // The window's places, and (in `run_window`) what sits at each: on the stack, as a meld has
    // at most `MAX_MELD_CARDS` cards.
    let mut places = [0u8; MAX_MELD_CARDS];
    let places = &mut places[..n];
    for &suit in suits {
        // Every start of the line's windows (one where a run takes the whole circle).
        let starts = rules.windows(n).iter().enumerate();
        for (start, _) in starts.filter(|&(_, &w)| holds_naturals(w)) {
            for (i, pl) in places.iter_mut().enumerate() {
                *pl = ((start + i) % len) as u8;
            }
            if !rules.wrap_around && !both_ends && n == len && rules.line[0].rank == Rank::Ace {
                continue;
            }
            if !run_window(rules, p, suit, places, f) {
                return false;
            }
        }
    }
    true
}

fn run_window(
    rules: &Rules,
    p: &Parts<'_>,
    suit: Option<Suit>,
    places: &[u8],
    f: &mut dyn FnMut(Interpretation) -> bool,
) -> bool {
    let n = places.len();
    // Which card sits at each window slot (None = free for a wild).
    let mut slots = [None::<Card>; MAX_MELD_CARDS];
    let slot = &mut slots[..n];
    // Naturals: each copy needs a slot of its rank (aces may have two).
    let mut ace_list = [Card::JOKER; MAX_MELD_CARDS];
    let mut aces = 0;
    for &(card, k) in p.naturals {
        let rank = card.rank().expect("naturals are suited");
        if rank == Rank::Ace {
            for _ in 0..k {
                // Never full (a meld has at most `MAX_MELD_CARDS` cards); were it, no reading.
                let Some(a) = ace_list.get_mut(aces) else {
                    return true;
                };
                *a = card;
                aces += 1;
            }
            continue;
        }
        let mut left = k;
        for (i, &pl) in places.iter().enumerate() {
            if left > 0 && rules.line[usize::from(pl)].rank == rank && slot[i].is_none() {
                slot[i] = Some(card);
                left -= 1;
            }
        }
        if left > 0 {
            return true;
        }
    }
    place_aces(rules, p, suit, places, &ace_list[..aces], 0, slot, f)
}

#[allow(clippy::too_many_arguments)]
fn place_aces(
    rules: &Rules,
    p: &Parts<'_>,
    suit: Option<Suit>,
    places: &[u8],
    aces: &[Card],
    i: usize,
    slot: &mut [Option<Card>],
    f: &mut dyn FnMut(Interpretation) -> bool,
) -> bool {
    if i == aces.len() {
        return fill_wilds(rules, p, suit, places, slot, f);
    }
    let card = aces[i];
    // Equal aces take increasing slots so each placement is produced once.
    let from = if i > 0 && aces[i - 1] == card {
        slot.iter()
            .rposition(|s| *s == Some(card))
            .map_or(0, |x| x + 1)
    } else {
        0
    };
    for k in from..places.len() {
        if slot[k].is_none() && rules.line[usize::from(places[k])].rank == Rank::Ace {
            slot[k] = Some(card);
            let go = place_aces(rules, p, suit, places, aces, i + 1, slot, f);
            slot[k] = None;
            if !go {
                return false;
            }
        }
    }
    true
}

fn fill_wilds(
    rules: &Rules,
    p: &Parts<'_>,
    suit: Option<Suit>,
    places: &[u8],
    slot: &mut [Option<Card>],
    f: &mut dyn FnMut(Interpretation) -> bool,
) -> bool {
    let mut open = [0u8; MAX_MELD_CARDS];
    let mut frees = 0;
    for (k, s) in slot.iter().enumerate() {
        if s.is_none() {
            open[frees] = k as u8;
            frees += 1;
        }
    }
    let free = &open[..frees];
    let total: usize = p.wilds.iter().map(|(_, k)| usize::from(*k)).sum();
    if total != free.len() {
        return true;
    }
    // The wild kinds left to place (a joker and four twos at most), on the stack.
    let mut kinds = [(Card::JOKER, 0u8); 5];
    let mut spill;
    let remaining: &mut [(Card, u8)] = match kinds.get_mut(..p.wilds.len()) {
        Some(r) => {
            r.copy_from_slice(p.wilds);
            r
        }
        None => {
            spill = p.wilds.to_vec();
            &mut spill
        }
    };
    let nat2 = rules.natural_two_in_runs();
    let mut cont = true;
    distribute(free, 0, remaining, slot, &mut |slot| {
        let roles = run_roles(rules, suit, places, slot, nat2);
        if !all_wild_ok(rules) && !roles.iter().any(|r| r.natural) {
            return true;
        }
        let ok = f(Interpretation {
            kind: MeldKind::Run,
            rank: None,
            suit,
            roles,
        });
        if !ok {
            cont = false;
        }
        ok
    });
    cont
}

/// The roles of a run whose window `places` holds the cards of `slot` (every slot filled), low
/// to high: each card stands for its place's rank (and the run's suit); a wild-capable 2 at its
/// own place is natural where the rules allow it (`nat2`).
#[inline]
fn run_roles(
    rules: &Rules,
    suit: Option<Suit>,
    places: &[u8],
    slot: &[Option<Card>],
    nat2: bool,
) -> Vec<Role> {
    let mut roles = Vec::with_capacity(places.len() + ROOM);
    for (k, &pl) in places.iter().enumerate() {
        let card = slot[k].expect("every slot is filled");
        let place = rules.line[usize::from(pl)];
        let stands_for = match suit {
            Some(s) => Target::Card(Card::new(place.rank, s)),
            None => Target::Rank(place.rank),
        };
        let natural = if rules.is_wild(card) {
            // A wild-capable 2 at its own place is natural where the rules allow it.
            card.is_two()
                && nat2
                && place.rank == Rank::Two
                && (suit.is_none() || stands_for == Target::Card(card))
        } else {
            true
        };
        roles.push(Role {
            place: k as u8,
            stands_for: if natural && suit.is_none() {
                Target::Card(card)
            } else {
                stands_for
            },
            card,
            natural,
        });
    }
    roles
}

/// Every distinct way to put the remaining wild kinds on the free slots.
fn distribute(
    free: &[u8],
    i: usize,
    remaining: &mut [(Card, u8)],
    slot: &mut [Option<Card>],
    f: &mut dyn FnMut(&[Option<Card>]) -> bool,
) -> bool {
    if i == free.len() {
        return f(slot);
    }
    let at = usize::from(free[i]);
    for w in 0..remaining.len() {
        if remaining[w].1 == 0 {
            continue;
        }
        remaining[w].1 -= 1;
        slot[at] = Some(remaining[w].0);
        let go = distribute(free, i + 1, remaining, slot, f);
        slot[at] = None;
        remaining[w].1 += 1;
        if !go {
            return false;
        }
    }
    true
}
