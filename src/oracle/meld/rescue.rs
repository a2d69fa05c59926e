//! A rescue: a natural card takes the place of the wild that stood for it in an interpretation,
//! found from the roles without searching the cards again. The same as filtering the full
//! search of the new cards by what keeps every other role; `tests/integration/meld_oracle.rs`
//! (`rescue_by_substitution_agrees_with_the_full_search`) holds them together.

use super::{Interpretation, MAX_MELD_CARDS, Role, Target};
use crate::base::card::{Card, Rank};
use crate::rules::Rules;
use crate::rules::disputes::reading;
use crate::rules::spec::MeldKind;

/// `old` with the wild `wild` that stands for `natural` replaced by `natural` itself (a rescue),
/// if the result is a legal reading; the same as searching the new cards and keeping what keeps
/// every other role of `old`, without the search. One result per wild role that matches.
pub fn rescue_in(
    rules: &Rules,
    old: &Interpretation,
    wild: Card,
    natural: Card,
) -> Vec<Interpretation> {
    let mut out = Vec::new();
    if rescues_in(rules, old, wild, natural) {
        rescue_into(rules, old.clone(), wild, natural, &mut out);
    }
    out.sort();
    out.dedup();
    out
}

/// [`rescue_in`] of `old` given up for it: its readings appended to `out`, unsorted, the first
/// of them in `old`'s own space (a rescue on the table changes its meld in place).
pub fn rescue_into(
    rules: &Rules,
    mut old: Interpretation,
    wild: Card,
    natural: Card,
    out: &mut Vec<Interpretation>,
) {
    // The places (a meld has at most `MAX_MELD_CARDS` cards).
    let mut places = [0usize; MAX_MELD_CARDS];
    let mut n = 0;
    for k in rescue_places(rules, &old, wild, natural) {
        places[n] = k;
        n += 1;
    }
    let fill = |i: &mut Interpretation, k: usize| {
        i.roles[k] = Role {
            place: i.roles[k].place,
            stands_for: Target::Card(natural),
            card: natural,
            natural: true,
        };
        if i.kind == MeldKind::Set {
            i.roles.sort();
        }
    };
    let Some((&last, rest)) = places[..n].split_last() else {
        return;
    };
    for &k in rest {
        let mut i = old.clone();
        fill(&mut i, k);
        out.push(i);
    }
    fill(&mut old, last);
    out.push(old);
}

/// Whether [`rescue_in`] finds some reading, without building any: what a listing of rescues
/// needs to know.
pub fn rescues_in(rules: &Rules, old: &Interpretation, wild: Card, natural: Card) -> bool {
    rescue_places(rules, old, wild, natural).next().is_some()
}

/// The roles of `old` where `natural` may take the place of the wild `wild` (see [`rescue_in`]).
fn rescue_places(
    rules: &Rules,
    old: &Interpretation,
    wild: Card,
    natural: Card,
) -> impl Iterator<Item = usize> {
    let forbid = rules.readings.set_duplicate_suits == reading::SetDuplicateSuits::Forbidden;
    old.roles.iter().enumerate().filter_map(move |(k, r)| {
        if r.card != wild || r.natural || !r.stands_for_matches(natural) {
            return None;
        }
        // The natural card must be natural in that place.
        if rules.is_wild(natural) {
            let ok = natural.is_two()
                && match old.kind {
                    MeldKind::Run => {
                        rules.natural_two_in_runs()
                            && r.stands_for.rank() == Some(Rank::Two)
                            && (old.suit.is_none() || old.suit == natural.suit())
                    }
                    MeldKind::Set => old.rank == Some(Rank::Two) && rules.natural_two_in_sets(),
                };
            if !ok {
                return None;
            }
        }
        if old.kind == MeldKind::Set && forbid {
            let suit = natural.suit();
            let clash = old.roles.iter().enumerate().any(|(j, x)| {
                j != k && matches!(x.stands_for, Target::Card(t) if t.suit() == suit)
            });
            if clash {
                return None;
            }
        }
        Some(k)
    })
}
