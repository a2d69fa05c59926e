//! A brute-force meld reference, independent of the oracle's window search: for every card it
//! tries every place it could stand (every rank place of the line for a run, every suit for an
//! exact-card set) and keeps the combinations that make a legal meld. Exponential in the number of
//! wild cards: keep them to four or so.
//!
//! Shared by the property tests (`tests/integration/meld_oracle.rs`) and the fuzz target `meld_search`; not
//! part of the library's interface.

use crate::base::card::{Card, Rank, Suit};
use crate::oracle::meld::{Interpretation, Role, Target};
use crate::rules::Rules;
use crate::rules::disputes::DisputeId;
use crate::rules::spec::MeldKind;
use std::collections::BTreeSet;

fn natural_two_in_sets(r: &Rules) -> bool {
    !r.twos_wild || r.readings.name(DisputeId::NaturalTwos) == "runs-and-sets"
}
fn natural_two_in_runs(r: &Rules) -> bool {
    !r.twos_wild || r.readings.name(DisputeId::NaturalTwos) != "never"
}

fn brute_sets(r: &Rules, cards: &[Card], set_min: u8, out: &mut BTreeSet<Interpretation>) {
    let n = cards.len();
    if n < usize::from(set_min) || (r.readings.name(DisputeId::SetMaxSize) == "4" && n > 4) {
        return;
    }
    let exact = r.readings.name(DisputeId::WildInSetRepresents) == "exact-card";
    let forbid = r.readings.name(DisputeId::SetDuplicateSuits) == "forbidden";
    for rank in Rank::ALL {
        // No set of twos, of twos or of other wilds, where a 2 is not natural in a set
        // (`natural-twos=runs-only` or `never`: the readings' meaning says so).
        if rank == Rank::Two && !natural_two_in_sets(r) {
            continue;
        }
        // Options per card.
        let options: Vec<Vec<Role>> = cards
            .iter()
            .map(|&c| set_options(r, c, rank, exact))
            .collect();
        product(&options, &mut Vec::new(), &mut |roles| {
            if let Some(set) = set_of(r, rank, forbid, roles) {
                out.insert(set);
            }
        });
    }
}

/// Every role `c` could have in a set of `rank`.
fn set_options(r: &Rules, c: Card, rank: Rank, exact: bool) -> Vec<Role> {
    let mut o = Vec::new();
    if !r.is_wild(c) {
        if c.rank() == Some(rank) {
            o.push(Role {
                place: 0,
                stands_for: Target::Card(c),
                card: c,
                natural: true,
            });
        }
    } else if !exact {
        if rank == Rank::Two && c.is_two() {
            o.push(Role {
                place: 0,
                stands_for: Target::Card(c),
                card: c,
                natural: true,
            });
        } else {
            o.push(Role {
                place: 0,
                stands_for: Target::Rank(rank),
                card: c,
                natural: false,
            });
        }
    } else {
        for s in Suit::ALL {
            let t = Card::new(rank, s);
            if t == c {
                if natural_two_in_sets(r) {
                    o.push(Role {
                        place: 0,
                        stands_for: Target::Card(t),
                        card: c,
                        natural: true,
                    });
                }
            } else {
                o.push(Role {
                    place: 0,
                    stands_for: Target::Card(t),
                    card: c,
                    natural: false,
                });
            }
        }
    }
    o
}

/// The set of `rank` these roles make, if it is legal.
fn set_of(r: &Rules, rank: Rank, forbid: bool, roles: &[Role]) -> Option<Interpretation> {
    if r.readings.name(DisputeId::AllWildMelds) == "forbidden" && !roles.iter().any(|x| x.natural) {
        return None;
    }
    if forbid {
        let mut seen = [false; 4];
        for x in roles {
            if let Target::Card(t) = x.stands_for {
                let s = t.suit().unwrap() as usize;
                if seen[s] {
                    return None;
                }
                seen[s] = true;
            }
        }
    }
    let mut v = roles.to_vec();
    v.sort();
    Some(Interpretation {
        kind: MeldKind::Set,
        rank: Some(rank),
        suit: None,
        roles: v,
    })
}

fn brute_runs(r: &Rules, cards: &[Card], out: &mut BTreeSet<Interpretation>) {
    let n = cards.len();
    if n < usize::from(r.run_min) {
        return;
    }
    let same = r.readings.name(DisputeId::RunSuits) == "same-suit";
    let suits: Vec<Option<Suit>> = if same {
        Suit::ALL.iter().map(|&s| Some(s)).collect()
    } else {
        vec![None]
    };
    for suit in suits {
        let options: Vec<Vec<(usize, Role)>> =
            cards.iter().map(|&c| run_options(r, c, suit)).collect();
        product(&options, &mut Vec::new(), &mut |pairs| {
            if let Some(run) = run_of(r, suit, pairs) {
                out.insert(run);
            }
        });
    }
}

/// Every place of the line `c` could stand at in a run of `suit` (`None`: any suits), with the
/// role it would have there.
fn run_options(r: &Rules, c: Card, suit: Option<Suit>) -> Vec<(usize, Role)> {
    let mut o = Vec::new();
    for pl in 0..r.line.len() {
        let prank = r.line[pl].rank;
        let target = match suit {
            Some(s) => Target::Card(Card::new(prank, s)),
            None => Target::Rank(prank),
        };
        if !r.is_wild(c) {
            if c.rank() == Some(prank) && (suit.is_none() || c.suit() == suit) {
                o.push((
                    pl,
                    Role {
                        place: 0,
                        stands_for: Target::Card(c),
                        card: c,
                        natural: true,
                    },
                ));
            }
        } else {
            let own =
                c.is_two() && prank == Rank::Two && (suit.is_none() || target == Target::Card(c));
            if own && natural_two_in_runs(r) {
                o.push((
                    pl,
                    Role {
                        place: 0,
                        stands_for: Target::Card(c),
                        card: c,
                        natural: true,
                    },
                ));
            } else {
                o.push((
                    pl,
                    Role {
                        place: 0,
                        stands_for: target,
                        card: c,
                        natural: false,
                    },
                ));
            }
        }
    }
    o
}

/// The run of `suit` the cards make at the places chosen for them, if those places are
/// distinct and consecutive on the line and the run is legal.
fn run_of(r: &Rules, suit: Option<Suit>, pairs: &[(usize, Role)]) -> Option<Interpretation> {
    let n = pairs.len();
    let len = r.line.len();
    if r.readings.name(DisputeId::AllWildMelds) == "forbidden"
        && !pairs.iter().any(|(_, x)| x.natural)
    {
        return None;
    }
    let mut places: Vec<usize> = pairs.iter().map(|(p, _)| *p).collect();
    places.sort_unstable();
    if places.windows(2).any(|w| w[0] == w[1]) {
        return None;
    }
    // The window start: the place whose predecessor is unused.
    let used: BTreeSet<usize> = places.iter().copied().collect();
    let start = if r.wrap_around {
        if n == len {
            0
        } else {
            *places
                .iter()
                .find(|&&p| !used.contains(&((p + len - 1) % len)))?
        }
    } else {
        places[0]
    };
    for i in 0..n {
        let p = if r.wrap_around {
            (start + i) % len
        } else {
            start + i
        };
        if !used.contains(&p) {
            return None;
        }
    }
    if !r.wrap_around
        && n == len
        && r.line[0].rank == Rank::Ace
        && r.readings.name(DisputeId::AceBothEnds) == "forbidden"
    {
        return None;
    }
    let mut roles: Vec<Role> = pairs
        .iter()
        .map(|(p, x)| {
            let k = if r.wrap_around {
                (p + len - start) % len
            } else {
                p - start
            };
            Role {
                place: k as u8,
                ..*x
            }
        })
        .collect();
    roles.sort();
    Some(Interpretation {
        kind: MeldKind::Run,
        rank: None,
        suit,
        roles,
    })
}

fn product<T: Clone>(options: &[Vec<T>], acc: &mut Vec<T>, f: &mut dyn FnMut(&[T])) {
    if acc.len() == options.len() {
        f(acc);
        return;
    }
    for o in &options[acc.len()] {
        acc.push(o.clone());
        product(options, acc, f);
        acc.pop();
    }
}

/// Every interpretation of `cards` as a set or a run under `r`, sorted and deduplicated.
pub fn brute(r: &Rules, cards: &[Card]) -> Vec<Interpretation> {
    brute_at(r, cards, r.set_min)
}

/// [`brute`] with sets from `set_min` cards on (a contract set of a fixed rank may be smaller
/// than `sets.min-size`: `set of 2 aces`).
pub fn brute_at(r: &Rules, cards: &[Card], set_min: u8) -> Vec<Interpretation> {
    let mut out = BTreeSet::new();
    brute_sets(r, cards, set_min, &mut out);
    brute_runs(r, cards, &mut out);
    out.into_iter()
        .filter(|i| keeps_wild_limits(r, i))
        .collect()
}

/// The `wilds.*` limits, plainly: count the natural and the wild roles; in a run, look at each
/// pair of places next to each other.
fn keeps_wild_limits(r: &Rules, i: &Interpretation) -> bool {
    let l = r.wild_limits;
    let naturals = i.roles.iter().filter(|x| x.natural).count();
    let wilds = i.roles.len() - naturals;
    if l.max.is_some_and(|m| wilds > usize::from(m)) {
        return false;
    }
    if l.not_outnumbering && wilds > naturals {
        return false;
    }
    if naturals < usize::from(l.min_naturals) {
        return false;
    }
    if l.apart_in_runs && i.kind == MeldKind::Run {
        for a in &i.roles {
            for b in &i.roles {
                if !a.natural && !b.natural && b.place == a.place + 1 {
                    return false;
                }
            }
        }
    }
    true
}

/// The readings that change what a meld is, with their reading names.
pub const SWITCHES: &[(DisputeId, &[&str])] = &[
    (DisputeId::SetDuplicateSuits, &["forbidden", "allowed"]),
    (DisputeId::SetMaxSize, &["4", "unlimited"]),
    (
        DisputeId::NaturalTwos,
        &["runs-only", "runs-and-sets", "never"],
    ),
    (DisputeId::AcePosition, &["high-or-low", "high-only"]),
    (DisputeId::AceBothEnds, &["forbidden", "allowed"]),
    (DisputeId::RunSuits, &["same-suit", "any-suits"]),
    (DisputeId::AllWildMelds, &["allowed", "forbidden"]),
    (DisputeId::WildInSetRepresents, &["rank-only", "exact-card"]),
];
