//! The set search: for each rank the naturals allow, the naturals stand for themselves and the
//! wild-capable cards take the rank (`rank-only`) or a suit each (`exact-card`), every multiset
//! of suits once. The plain rule is `meld_reference::brute_sets`; `tests/integration/meld_oracle.rs` holds
//! the two together.

use super::{Interpretation, Parts, ROOM, Role, Target, all_wild_ok};
use crate::base::card::{Card, Rank, Suit};
use crate::rules::Rules;
use crate::rules::disputes::reading;
use crate::rules::spec::MeldKind;

pub(super) fn sets(
    rules: &Rules,
    p: &Parts<'_>,
    set_min: u8,
    f: &mut dyn FnMut(Interpretation) -> bool,
) -> bool {
    let n = p.n;
    if n < usize::from(set_min) {
        return true;
    }
    if rules.readings.set_max_size == reading::SetMaxSize::V4 && n > 4 {
        return true;
    }
    // The naturals fix the rank; with none, every rank is possible.
    let fixed: Option<Rank> = p.naturals.first().and_then(|(c, _)| c.rank());
    if p.naturals.iter().any(|(c, _)| c.rank() != fixed) {
        return true;
    }
    for rank in Rank::ALL {
        if fixed.is_some_and(|r| r != rank) {
            continue;
        }
        if rank == Rank::Two && !rules.natural_two_in_sets() {
            continue;
        }
        if !set_of_rank(rules, p, rank, f) {
            return false;
        }
    }
    true
}

/// Every set of `rank` the cards make: the naturals stand for themselves, then the wild-capable
/// cards are read as the reading `wild-in-set-represents` says.
fn set_of_rank(
    rules: &Rules,
    p: &Parts<'_>,
    rank: Rank,
    f: &mut dyn FnMut(Interpretation) -> bool,
) -> bool {
    let forbid = rules.readings.set_duplicate_suits == reading::SetDuplicateSuits::Forbidden;
    let exact = rules.readings.wild_in_set_represents == reading::WildInSetRepresents::ExactCard;
    // Room for the lay-offs a meld on the table takes (the roles grow in place).
    let mut roles: Vec<Role> = Vec::with_capacity(p.n + ROOM);
    let mut used = [0u8; 4];
    push_natural_roles(p, &mut used, &mut roles);
    if forbid && used.iter().any(|&u| u > 1) {
        return true;
    }
    if !exact {
        return rank_only_set(rules, p, rank, forbid, used, roles, f);
    }
    exact_card_sets(rules, p, rank, forbid, used, roles, f)
}

/// The naturals' roles (each stands for itself), counting the suits they use.
#[inline]
fn push_natural_roles(p: &Parts<'_>, used: &mut [u8; 4], roles: &mut Vec<Role>) {
    for &(card, k) in p.naturals {
        let s = card.suit().expect("naturals are suited") as usize;
        used[s] += k;
        for _ in 0..k {
            roles.push(Role {
                place: 0,
                stands_for: Target::Card(card),
                card,
                natural: true,
            });
        }
    }
}

/// The one set of `rank` under `rank-only`: a 2 in a set of twos stands for its own rank and is
/// natural; every other wild-capable card stands for the rank.
#[inline]
fn rank_only_set(
    rules: &Rules,
    p: &Parts<'_>,
    rank: Rank,
    forbid: bool,
    mut used: [u8; 4],
    mut roles: Vec<Role>,
    f: &mut dyn FnMut(Interpretation) -> bool,
) -> bool {
    for &(card, k) in p.wilds {
        let natural = rank == Rank::Two && card.is_two();
        if natural {
            let s = card.suit().expect("twos are suited") as usize;
            used[s] += k;
        }
        for _ in 0..k {
            roles.push(Role {
                place: 0,
                stands_for: if natural {
                    Target::Card(card)
                } else {
                    Target::Rank(rank)
                },
                card,
                natural,
            });
        }
    }
    if forbid && used.iter().any(|&u| u > 1) {
        return true;
    }
    if !all_wild_ok(rules) && !roles.iter().any(|r| r.natural) {
        return true;
    }
    roles.sort();
    f(Interpretation {
        kind: MeldKind::Set,
        rank: Some(rank),
        suit: None,
        roles,
    })
}

/// The sets of `rank` under `exact-card`: each wild-capable card picks a suit, as multisets per
/// kind ([`assign_set_suits`]).
#[inline]
fn exact_card_sets(
    rules: &Rules,
    p: &Parts<'_>,
    rank: Rank,
    forbid: bool,
    mut used: [u8; 4],
    mut roles: Vec<Role>,
    f: &mut dyn FnMut(Interpretation) -> bool,
) -> bool {
    let mut wild_list: Vec<Card> = Vec::new();
    for &(card, k) in p.wilds {
        for _ in 0..k {
            wild_list.push(card);
        }
    }
    let mut cont = true;
    assign_set_suits(
        rules,
        rank,
        forbid,
        &wild_list,
        0,
        0,
        &mut used,
        &mut roles,
        &mut |roles| {
            if !all_wild_ok(rules) && !roles.iter().any(|r| r.natural) {
                return true;
            }
            let mut sorted = roles.to_vec();
            sorted.sort();
            let ok = f(Interpretation {
                kind: MeldKind::Set,
                rank: Some(rank),
                suit: None,
                roles: sorted,
            });
            if !ok {
                cont = false;
            }
            ok
        },
    );
    cont
}

/// Assigns suits to `wilds[i..]`; equal consecutive wild cards take non-decreasing suits so each
/// multiset is produced once.
#[allow(clippy::too_many_arguments)]
fn assign_set_suits(
    rules: &Rules,
    rank: Rank,
    forbid: bool,
    wilds: &[Card],
    i: usize,
    min_suit: usize,
    used: &mut [u8; 4],
    roles: &mut Vec<Role>,
    f: &mut dyn FnMut(&[Role]) -> bool,
) -> bool {
    if i == wilds.len() {
        return f(roles);
    }
    let card = wilds[i];
    let start = if i > 0 && wilds[i - 1] == card {
        min_suit
    } else {
        0
    };
    for s in start..4 {
        if forbid && used[s] > 0 {
            continue;
        }
        let target = Card::new(rank, Suit::from_index(s));
        let natural = target == card;
        if natural && !rules.natural_two_in_sets() {
            continue;
        }
        used[s] += 1;
        roles.push(Role {
            place: 0,
            stands_for: Target::Card(target),
            card,
            natural,
        });
        let go = assign_set_suits(rules, rank, forbid, wilds, i + 1, s, used, roles, f);
        roles.pop();
        used[s] -= 1;
        if !go {
            return false;
        }
    }
    true
}
