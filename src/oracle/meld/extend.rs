//! One card more on a meld already read (a lay-off): the ways a card joins an interpretation as
//! one more role, found from the interpretation's ends or rank without searching the cards
//! again. The same as filtering the full search of the grown meld by [`extends`];
//! `tests/integration/meld_oracle.rs` (`one_card_extension_agrees_with_the_full_search`) holds them together.

use super::{Interpretation, MAX_MELD_CARDS, ROOM, Role, Target};
use crate::base::card::{Card, Rank, Suit};
use crate::rules::disputes::reading;
use crate::rules::spec::MeldKind;
use crate::rules::{Place, Rules};

/// Every interpretation of `old`'s cards plus `card` that keeps each role of `old` (a lay-off of one
/// card): the same as filtering [`interpret`](super::interpret) of the combined cards by "extends
/// `old`", but without enumerating the old meld again. `None` when this shortcut does not apply (a full circle under
/// `runs.wrap-around`, limits on the wild cards of a meld, or wilds that move); callers then use
/// the full search.
pub fn extend_by_one(
    rules: &Rules,
    old: &Interpretation,
    card: Card,
) -> Option<Vec<Interpretation>> {
    extend_each_by_one(rules, std::slice::from_ref(old), card)
}

/// [`extend_by_one`] of each of `olds` (the readings of one table meld), together, sorted and
/// without repeats. `None` where `extend_by_one` of any of them is `None`.
pub fn extend_each_by_one(
    rules: &Rules,
    olds: &[Interpretation],
    card: Card,
) -> Option<Vec<Interpretation>> {
    let mut out = Vec::with_capacity(2 * olds.len());
    for old in olds {
        one_card_joins(rules, old, card, &mut |j| {
            out.push(joined(old, j));
            true
        })?;
    }
    out.sort();
    out.dedup();
    Some(out)
}

/// Whether [`extend_by_one`] finds some interpretation, without building any: what a listing of
/// one-card lay-offs of a natural card needs to know. `None` where `extend_by_one` is `None`.
pub fn extends_by_one(rules: &Rules, old: &Interpretation, card: Card) -> Option<bool> {
    let mut found = false;
    one_card_joins(rules, old, card, &mut |_| {
        found = true;
        false
    })?;
    Some(found)
}

/// Where one more card takes its place in a meld: among a set's roles, or below a run's low end
/// or above its high end.
#[derive(Clone, Copy)]
enum Join {
    Set(Role),
    Below(Role),
    Above(Role),
}

/// The interpretation `old` becomes with the card's role joined as `j` says.
fn joined(old: &Interpretation, j: Join) -> Interpretation {
    let mut roles: Vec<Role> = Vec::with_capacity(old.roles.len() + 1 + ROOM);
    roles.extend_from_slice(&old.roles);
    join_roles(&mut roles, j);
    Interpretation {
        kind: old.kind,
        rank: old.rank,
        suit: old.suit,
        roles,
    }
}

/// Joins the card's role to `roles` as `j` says: among a set's roles in their order, below a
/// run's low end (every place moves up by one) or above its high end.
fn join_roles(roles: &mut Vec<Role>, j: Join) {
    match j {
        Join::Set(role) => {
            // A set's roles are in order: the new one goes after every role before it (equal
            // roles are alike, so which of them it follows makes no difference).
            let at = roles.partition_point(|r| *r <= role);
            roles.insert(at, role);
        }
        Join::Below(role) => {
            roles.insert(0, role);
            for r in &mut roles[1..] {
                r.place += 1;
            }
        }
        Join::Above(role) => {
            let place = roles.len() as u8;
            roles.push(Role { place, ..role });
        }
    }
}

/// The one way a card joins one interpretation, found by [`only_join`] and made in place by
/// [`OnlyJoin::make`].
#[derive(Clone, Copy)]
pub struct OnlyJoin(Join);

impl OnlyJoin {
    /// Makes the join in `old`, the interpretation it was found for: `old` becomes the one
    /// interpretation [`extend_by_one`] gives.
    pub fn make(self, old: &mut Interpretation) {
        join_roles(&mut old.roles, self.0);
    }
}

/// Where `card` joins `old` in exactly one way: that way, so that a lay-off of the card can grow
/// the meld in place ([`OnlyJoin::make`]) instead of building [`extend_by_one`]'s one
/// interpretation. `None` where it joins in no way or in several, or where `extend_by_one` is
/// `None`.
pub fn only_join(rules: &Rules, old: &Interpretation, card: Card) -> Option<OnlyJoin> {
    match joins(rules, old, card)? {
        Joins::One(j) => Some(j),
        Joins::No | Joins::Several => None,
    }
}

/// In how many ways a card joins an interpretation as one more role ([`joins`]).
#[derive(Clone, Copy)]
pub enum Joins {
    No,
    /// Exactly one: [`only_join`]'s.
    One(OnlyJoin),
    /// Two or more.
    Several,
}

/// How `card` joins `old`: in no way (where [`extends_by_one`] is `Some(false)`), in one way only
/// (that way, as [`only_join`] gives it), or in several. `None` where `extends_by_one` is `None`.
pub fn joins(rules: &Rules, old: &Interpretation, card: Card) -> Option<Joins> {
    let mut first = None;
    let mut more = false;
    one_card_joins(rules, old, card, &mut |j| {
        more = first.is_some();
        first.get_or_insert(j);
        !more
    })?;
    Some(match first {
        None => Joins::No,
        Some(j) if !more => Joins::One(OnlyJoin(j)),
        Some(_) => Joins::Several,
    })
}

/// Calls `f` with every way `card` joins `old` as one more role that keeps the meld legal,
/// until `f` returns `false`; returns `Some(false)` if stopped so, `Some(true)` after the last.
/// `None` where the one-card shortcut does not apply (a full circle under `runs.wrap-around`, or
/// limits on the wild cards of a meld, or wilds that move: `wilds.may-move`).
///
/// `old` is an interpretation under `rules`, so where all-wild melds are forbidden it already
/// holds a natural card, and so does every meld it grows into: no new role needs that check.
fn one_card_joins(
    rules: &Rules,
    old: &Interpretation,
    card: Card,
    f: &mut dyn FnMut(Join) -> bool,
) -> Option<bool> {
    // Under limits on the wild cards of a meld (`wilds.*`) a join may break one: the callers
    // search the combined cards in full, where `for_each` keeps the limits.
    if rules.wild_limits.active() {
        return None;
    }
    // Where wilds move (`wilds.may-move`), a card may join by taking a wild's place while the
    // wild moves on: the callers search the combined cards, keeping no old role.
    if rules.wilds_move {
        return None;
    }
    // This also turns away a full meld: `extend_set` and `extend_run` count on it.
    if !may_extend(rules, old, card) {
        return Some(true);
    }
    Some(match old.kind {
        MeldKind::Set => extend_set(rules, old, card, f),
        MeldKind::Run => {
            if rules.wrap_around && old.roles.len() + 1 >= rules.line.len() {
                return None;
            }
            extend_run(rules, old, card, f)
        }
    })
}

/// A quick necessary condition for a card to extend `old`: room for one more card, and then a
/// set's rank, or a run's suit and a rank just beyond one of its ends on the rank line. Wild
/// cards pass where there is room.
pub(super) fn may_extend(rules: &Rules, old: &Interpretation, card: Card) -> bool {
    if full(rules, old) {
        return false;
    }
    if rules.is_wild(card) {
        return true;
    }
    let Some(rank) = card.rank() else {
        return true;
    };
    match old.kind {
        MeldKind::Set => old.rank == Some(rank),
        MeldKind::Run => {
            if old.suit.is_some() && card.suit() != old.suit {
                return false;
            }
            end_neighbours(rules, old) & 1 << rank.number() != 0
        }
    }
}

/// Whether `old` has no room for another card: a set of four where sets stop there, a run as
/// long as runs go, or a meld at the size limit.
fn full(rules: &Rules, old: &Interpretation) -> bool {
    let n = old.roles.len() + 1;
    n > MAX_MELD_CARDS
        || match old.kind {
            MeldKind::Set => rules.readings.set_max_size == reading::SetMaxSize::V4 && n > 4,
            MeldKind::Run => n > rules.max_run(),
        }
}

/// The ranks just below the run's low end and just above its high end on the rank line (around
/// the corner under wrap-around), as a bit mask by rank number: the ranks whose cards may extend
/// it. Roles run low to high, so the first is the low end and the last the high one; a rank with
/// two places (the ace) is taken at both.
fn end_neighbours(rules: &Rules, old: &Interpretation) -> u16 {
    let ranks = |end: Option<&Role>, side: usize| {
        end.and_then(|e| e.stands_for.rank()).map_or(0, |r| {
            rules.rank_neighbours[usize::from(r.number()) - 1][side]
        })
    };
    ranks(old.roles.first(), 0) | ranks(old.roles.last(), 1)
}

/// The card kinds that may extend `old` by one card, as a bit mask by [`Card::index`]: exactly
/// the cards that pass `may_extend`, and where wilds move (`wilds.may-move`) every card of a
/// run's suit while the run holds a wild. A caller trying every card of a hand on every meld skips
/// the pairs outside it without asking.
pub fn extenders(rules: &Rules, old: &Interpretation) -> u64 {
    if full(rules, old) {
        return 0;
    }
    let bit = |card: Card| 1u64 << card.index();
    let mut mask = bit(Card::JOKER);
    let suits: &[Suit] = match (old.kind, old.suit) {
        (MeldKind::Run, Some(s)) => &[s][..],
        _ => &Suit::ALL[..],
    };
    let add_rank = |mask: &mut u64, rank: Rank| {
        for &s in suits {
            *mask |= bit(Card::new(rank, s));
        }
    };
    match old.kind {
        MeldKind::Set => {
            if let Some(rank) = old.rank {
                add_rank(&mut mask, rank);
            }
        }
        MeldKind::Run if rules.wilds_move && old.roles.iter().any(|r| !r.natural) => {
            // A natural card may take a wild's place anywhere in the run, the wild moving on.
            for &s in suits {
                mask |= ((1u64 << 13) - 1) << (13 * s as usize);
            }
        }
        MeldKind::Run => {
            // By rank number, so bit `r` is the card index `r - 1` of the first suit.
            let next = u64::from(end_neighbours(rules, old) >> 1);
            for &s in suits {
                mask |= next << (13 * s as usize);
            }
        }
    }
    if rules.twos_wild {
        for s in Suit::ALL {
            mask |= bit(Card::new(Rank::Two, s));
        }
    }
    mask
}

fn extend_set(
    rules: &Rules,
    old: &Interpretation,
    card: Card,
    f: &mut dyn FnMut(Join) -> bool,
) -> bool {
    let rank = old.rank.expect("sets have a rank");
    let forbid = rules.readings.set_duplicate_suits == reading::SetDuplicateSuits::Forbidden;
    let exact = rules.readings.wild_in_set_represents == reading::WildInSetRepresents::ExactCard;
    let mut used = [false; 4];
    for r in &old.roles {
        if let Target::Card(t) = r.stands_for {
            used[t.suit().expect("suited") as usize] = true;
        }
    }
    let mut push = |role: Role| {
        if forbid
            && let Target::Card(t) = role.stands_for
            && used[t.suit().expect("suited") as usize]
        {
            return true;
        }
        f(Join::Set(role))
    };
    if !rules.is_wild(card) {
        if card.rank() == Some(rank) {
            return push(Role {
                place: 0,
                stands_for: Target::Card(card),
                card,
                natural: true,
            });
        }
        true
    } else if !exact {
        let natural = rank == Rank::Two && card.is_two();
        let stands_for = if natural {
            Target::Card(card)
        } else {
            Target::Rank(rank)
        };
        push(Role {
            place: 0,
            stands_for,
            card,
            natural,
        })
    } else {
        for s in Suit::ALL {
            let t = Card::new(rank, s);
            let natural = t == card;
            if natural && !rules.natural_two_in_sets() {
                continue;
            }
            if !push(Role {
                place: 0,
                stands_for: Target::Card(t),
                card,
                natural,
            }) {
                return false;
            }
        }
        true
    }
}

fn extend_run(
    rules: &Rules,
    old: &Interpretation,
    card: Card,
    f: &mut dyn FnMut(Join) -> bool,
) -> bool {
    if let Some(done) = natural_run_ends(rules, old, card, f) {
        return done;
    }
    let n = old.roles.len();
    let len = rules.line.len();
    // Where the old run lies on the line: the start whose ranks match its roles in order.
    let starts = rules.windows(n).len();
    // Roles `k` stand for the place `s + k`, around the corner where the line is circular (a
    // run is never longer than the line): the roles up to the line's end, then the rest from its
    // start.
    debug_assert!(n <= len, "a run no longer than the line");
    let fits = |s: usize| {
        let same = |(r, p): (&Role, &Place)| r.stands_for.rank() == Some(p.rank);
        let (to_end, around) = old.roles.split_at(n.min(len - s));
        to_end.iter().zip(&rules.line[s..]).all(same) && around.iter().zip(&rules.line).all(same)
    };
    let nat2 = rules.natural_two_in_runs();
    // Only a place of the first role's rank can start it.
    let first = old.roles.first().and_then(|r| r.stands_for.rank());
    let mut from = first.map_or(0, |r| rules.rank_places[usize::from(r.number()) - 1]);
    let starts = std::iter::from_fn(|| {
        let start = from.trailing_zeros() as usize;
        from &= from.wrapping_sub(1);
        (start < starts).then_some(start)
    });
    for start in starts.filter(|&s| fits(s)) {
        // The new card below the run (new start) or above it.
        let ends = if rules.wrap_around {
            [
                Some(((start + len - 1) % len, true)),
                Some(((start + n) % len, false)),
            ]
        } else {
            [
                start.checked_sub(1).map(|pl| (pl, true)),
                (start + n < len).then_some((start + n, false)),
            ]
        };
        for (pl, below) in ends.into_iter().flatten() {
            let Some(role) = end_role(rules, old.suit, card, rules.line[pl], nat2) else {
                continue;
            };
            if !f(if below {
                Join::Below(role)
            } else {
                Join::Above(role)
            }) {
                return false;
            }
        }
    }
    true
}

/// The role `card` takes at `place`, just beyond an end of a run of `suit` (`None`: any
/// suits): a natural card only at a place of its rank and in the run's suit (else `None`), a
/// wild-capable card anywhere, natural where it is a 2 at its own place and the rules allow it
/// (`nat2`).
#[inline]
fn end_role(
    rules: &Rules,
    suit: Option<Suit>,
    card: Card,
    place: Place,
    nat2: bool,
) -> Option<Role> {
    let stands_for = match suit {
        Some(s) => Target::Card(Card::new(place.rank, s)),
        None => Target::Rank(place.rank),
    };
    Some(if !rules.is_wild(card) {
        let suit_ok = suit.is_none() || card.suit() == suit;
        if card.rank() != Some(place.rank) || !suit_ok {
            return None;
        }
        Role {
            place: 0,
            stands_for: Target::Card(card),
            card,
            natural: true,
        }
    } else {
        let natural = card.is_two()
            && nat2
            && place.rank == Rank::Two
            && (suit.is_none() || stands_for == Target::Card(card));
        let sf = if natural && suit.is_none() {
            Target::Card(card)
        } else {
            stands_for
        };
        Role {
            place: 0,
            stands_for: sf,
            card,
            natural,
        }
    })
}

/// [`extend_run`] for a natural card where the run's ends decide it: on a line that does not wrap,
/// with each end's rank at one place only (not an ace that is both low and high), the run lies
/// from the first end's place, and the card joins below it or above it where the place beyond
/// that end holds its rank (and the card is of the run's suit). `None` where this does not
/// apply; `extend_run` then walks the line. Joins are handed to `f` as `extend_run` hands them:
/// below, then above.
fn natural_run_ends(
    rules: &Rules,
    old: &Interpretation,
    card: Card,
    f: &mut dyn FnMut(Join) -> bool,
) -> Option<bool> {
    if rules.wrap_around || rules.is_wild(card) {
        return None;
    }
    let place_of = |r: Option<&Role>| {
        let rank = r?.stands_for.rank()?;
        let places = rules.rank_places[usize::from(rank.number()) - 1];
        (places.count_ones() == 1).then_some(places.trailing_zeros() as usize)
    };
    let low = place_of(old.roles.first())?;
    let high = place_of(old.roles.last())?;
    debug_assert_eq!(
        high + 1,
        low + old.roles.len(),
        "a run lies from its low end's place"
    );
    let rank = card.rank()?;
    if old.suit.is_some() && card.suit() != old.suit {
        return Some(true);
    }
    let role = Role {
        place: 0,
        stands_for: Target::Card(card),
        card,
        natural: true,
    };
    let at = |place: Option<usize>| {
        place
            .and_then(|p| rules.line.get(p))
            .is_some_and(|p| p.rank == rank)
    };
    if at(low.checked_sub(1)) && !f(Join::Below(role)) {
        return Some(false);
    }
    if at(Some(high + 1)) && !f(Join::Above(role)) {
        return Some(false);
    }
    Some(true)
}

/// A role's identity for comparing interpretations: card, meaning, natural.
pub fn role_key(r: &Role) -> (Card, Target, bool) {
    (r.card, r.stands_for, r.natural)
}

/// `new` keeps every role of `old` (same kind, same set rank or run suit): a lay-off or join.
pub fn extends(old: &Interpretation, new: &Interpretation) -> bool {
    if old.kind != new.kind || old.rank != new.rank || old.suit != new.suit {
        return false;
    }
    let mut pool: Vec<(Card, Target, bool)> = new.roles.iter().map(role_key).collect();
    for r in &old.roles {
        match pool.iter().position(|k| *k == role_key(r)) {
            Some(i) => {
                pool.swap_remove(i);
            }
            None => return false,
        }
    }
    true
}
