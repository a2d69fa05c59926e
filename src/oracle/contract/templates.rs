//! Templates, the shapes a contract meld could take (a set rank, or a run suit and window): which
//! cards are natural at a template's places, the lists of templates a search tries for a hand
//! (most naturals first, [`push_by_count`]), and which templates a contract allows beside the
//! ones chosen. Knows nothing of the flow.

use crate::base::card::{Card, Counts, Rank, Suit};
use crate::rules::Rules;
use crate::rules::disputes::reading;
use crate::rules::spec::{Component, MeldKind};

/// A shape a contract meld could take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Template {
    /// A set of `rank` (`natural_only_twos`: a set of twos under rank-only, whose other places
    /// only jokers fill).
    Set { rank: Rank },
    /// A run of `suit` (`None`: any suits) over these line places. `gaps` is 0 (any place may
    /// take a wild), or [`RIGID`] with the bits of the places (from the window's first, bit 0)
    /// that take a wild, every other place a natural card: what the search tries where no two
    /// wild cards of a run may stand side by side (`wilds.side-by-side-in-runs=false`).
    Run {
        suit: Option<Suit>,
        start: usize,
        gaps: u16,
    },
}

/// [`Template::Run`]'s `gaps` bit that marks the places of wild cards as fixed.
pub(super) const RIGID: u16 = 1 << 15;

/// Whether `card` can be a natural card in a set of its rank.
pub(super) fn set_natural(rules: &Rules, card: Card) -> bool {
    !rules.is_wild(card) || (card.is_two() && rules.natural_two_in_sets())
}

/// The set templates, into `with`: the ranks the hand holds naturals of,
/// most first, then (where all-wild melds are allowed) as many ranks it holds none of as there are
/// sets. Empty when the contract has no sets.
pub(super) fn set_templates(
    rules: &Rules,
    hand: &Counts,
    set_count: usize,
    with: &mut Vec<(Template, usize)>,
) {
    with.clear();
    if set_count == 0 {
        return;
    }
    // Per rank, the cards a set of it can hold naturally: every card of the rank (a 2 is
    // natural in a set wherever the rank is taken at all).
    let counts = hand.by_index();
    let twos = rules.natural_two_in_sets();
    let mut avails = [0usize; 13];
    for (r, (rank, avail)) in Rank::ALL.into_iter().zip(&mut avails).enumerate() {
        debug_assert!(
            (rank == Rank::Two && !twos)
                || Suit::ALL
                    .iter()
                    .all(|&s| set_natural(rules, Card::new(rank, s))),
            "every card of a rank taken is natural in its set"
        );
        *avail = (0..4).map(|s| usize::from(counts[13 * s + r])).sum();
    }
    // Most cards first, ties in rank order; every rank is taken but the 2 where twos are not
    // natural in sets.
    let ranks = Rank::ALL.into_iter().zip(avails);
    push_by_count(
        ranks.map(|(rank, a)| {
            let taken = rank != Rank::Two || twos;
            (Template::Set { rank }, if taken { a } else { 0 })
        }),
        with,
    );
    if rules.readings.all_wild_melds == reading::AllWildMelds::Allowed {
        // Then the first ranks with none (never the 2).
        let none = Rank::ALL
            .into_iter()
            .zip(&avails)
            .filter(|&(rank, &a)| a == 0 && rank != Rank::Two);
        with.extend(
            none.take(set_count)
                .map(|(rank, _)| (Template::Set { rank }, 0)),
        );
    }
}

/// The card at place `pl` of a run in `suit`, if it can be natural there.
pub(super) fn run_natural_at(rules: &Rules, pl: usize, card: Card) -> bool {
    let place = rules.line[pl];
    card.rank() == Some(place.rank)
        && (!rules.is_wild(card) || (card.is_two() && rules.natural_two_in_runs()))
}

/// The natural cards that may stand at a place of `rank` in a run of `suit` (any suit: all four),
/// without allocating.
pub(super) fn place_cards(rank: Rank, suit: Option<Suit>) -> impl Iterator<Item = Card> + Clone {
    let suits: &'static [Suit] = match suit {
        Some(Suit::Spades) => &Suit::ALL[0..1],
        Some(Suit::Hearts) => &Suit::ALL[1..2],
        Some(Suit::Diamonds) => &Suit::ALL[2..3],
        Some(Suit::Clubs) => &Suit::ALL[3..4],
        None => &Suit::ALL,
    };
    suits.iter().map(move |&s| Card::new(rank, s))
}

/// Pushes the `items` (a template and how many naturals it holds) that hold one or more onto
/// `out`, the most first and equal ones in the order given: a stable sort by count, made as a
/// counting sort where every count is below `COUNTED` (as in a few packs, and on any line of
/// places), by comparison otherwise. The counting sort's second pass has no branch on the
/// count: an item with none goes to a spare slot past the end, then is dropped.
fn push_by_count<I>(items: I, out: &mut Vec<(Template, usize)>)
where
    I: Iterator<Item = (Template, usize)> + Clone,
{
    const COUNTED: usize = 34;
    let most = items.clone().map(|(_, a)| a).max().unwrap_or(0);
    if most >= COUNTED {
        let from = out.len();
        out.extend(items.filter(|&(_, a)| a > 0));
        out[from..].sort_by_key(|(_, a)| std::cmp::Reverse(*a));
        return;
    }
    let mut slot = [0usize; COUNTED];
    for (_, a) in items.clone() {
        slot[a] += 1;
    }
    let mut end = out.len();
    for a in (1..=most).rev() {
        (slot[a], end) = (end, end + slot[a]);
    }
    slot[0] = end;
    out.resize(end + 1, (Template::Set { rank: Rank::Ace }, 0));
    for (t, a) in items {
        out[slot[a]] = (t, a);
        slot[a] += usize::from(a > 0);
    }
    out.truncate(end);
}

/// The run templates of each run size in the contract, into `out[size]` (`without` is scratch):
/// the windows of each pool the hand can fill some place of naturally, most places first, then
/// (where all-wild melds are allowed) one window of each pool it can fill none of.
pub(super) fn run_templates(
    rules: &Rules,
    natural: &[u32; 4],
    contract: &[Component],
    out: &mut Vec<Vec<(Template, usize)>>,
    without: &mut Vec<(Template, usize)>,
) {
    out.iter_mut().for_each(Vec::clear);
    let same_suit = rules.readings.run_suits == reading::RunSuits::SameSuit;
    for (i, c) in contract.iter().enumerate() {
        if c.kind != MeldKind::Run || contract[..i].contains(c) {
            continue;
        }
        let n = usize::from(c.size);
        if out.len() <= n {
            out.resize_with(n + 1, Vec::new);
        }
        if n > rules.max_run() {
            continue;
        }
        let suits: &[Option<Suit>] = if same_suit { &Suit::EACH } else { &[None] };
        // Windows with no natural card, per pool: one serves any number of all-wild runs, but
        // runs that must differ (`different-runs`) need one window each.
        let empties = if rules.readings.same_suit_runs_in_contract
            == reading::SameSuitRunsInContract::DifferentRuns
        {
            contract.iter().filter(|x| *x == c).count()
        } else {
            1
        };
        let with = &mut out[n];
        without.clear();
        // The places of each window the hand can fill naturally, per suit (at most `n`); then the
        // templates with some, most first and otherwise in suit and start order (`push_by_count`).
        // Places are the bits of a `u32`: a line has at most 32, so at most 33 windows.
        let windows = rules.windows(n);
        let mut avails = [[0u8; 33]; 4];
        for (&suit, row) in suits.iter().zip(&mut avails) {
            let fillable = match suit {
                Some(s) => natural[s as usize],
                None => natural.iter().fold(0, |a, m| a | m),
            };
            let mut empty_left = empties;
            for ((start, &w), slot) in windows.iter().enumerate().zip(row.iter_mut()) {
                *slot = (fillable & w).count_ones() as u8;
                if *slot == 0 && empty_left > 0 {
                    empty_left -= 1;
                    without.push((
                        Template::Run {
                            suit,
                            start,
                            gaps: 0,
                        },
                        0,
                    ));
                }
            }
        }
        let windows_of = suits.iter().zip(&avails).flat_map(|(&suit, row)| {
            let row = row[..windows.len()].iter().enumerate();
            row.map(move |(start, &a)| {
                (
                    Template::Run {
                        suit,
                        start,
                        gaps: 0,
                    },
                    usize::from(a),
                )
            })
        });
        push_by_count(windows_of, with);
        if rules.readings.all_wild_melds == reading::AllWildMelds::Allowed {
            with.append(without);
        }
    }
}

pub(super) fn template_allowed(
    rules: &Rules,
    comp: Component,
    t: &Template,
    chosen: &[(Component, Template)],
) -> bool {
    match t {
        Template::Set { rank } => {
            if usize::from(comp.size) > 4 {
                let forbid =
                    rules.readings.set_duplicate_suits == reading::SetDuplicateSuits::Forbidden;
                let exact = rules.readings.wild_in_set_represents
                    == reading::WildInSetRepresents::ExactCard;
                if rules.readings.set_max_size == reading::SetMaxSize::V4 || (forbid && exact) {
                    return false;
                }
            }
            // Below `sets.min-size` only a set of a fixed rank (its own), which may be smaller.
            if usize::from(comp.size) < usize::from(rules.set_min) && comp.rank.is_none()
                || comp.rank.is_some_and(|r| r != *rank)
            {
                return false;
            }
            if rules.readings.same_rank_sets == reading::SameRankSets::Forbidden
                && chosen
                    .iter()
                    .any(|(_, x)| matches!(x, Template::Set { rank: r } if r == rank))
            {
                return false;
            }
            true
        }
        Template::Run { suit, .. } => {
            if usize::from(comp.size) < usize::from(rules.run_min) {
                return false;
            }
            // The same run twice (same suit, or any suits, same places): not two different runs.
            if rules.readings.same_suit_runs_in_contract
                == reading::SameSuitRunsInContract::DifferentRuns
                && chosen
                    .iter()
                    .any(|(c, x)| same_window(x, t) && c.size == comp.size)
            {
                return false;
            }
            if rules.readings.same_suit_runs_in_contract
                == reading::SameSuitRunsInContract::Forbidden
                && suit.is_some()
                && chosen
                    .iter()
                    .any(|(_, x)| matches!(x, Template::Run { suit: s, .. } if s == suit))
            {
                return false;
            }
            true
        }
    }
}

/// Whether two templates are the same set rank, or the same run window (whatever the places of
/// their wild cards).
fn same_window(a: &Template, b: &Template) -> bool {
    match (a, b) {
        (
            Template::Run {
                suit: s1,
                start: a1,
                ..
            },
            Template::Run {
                suit: s2,
                start: a2,
                ..
            },
        ) => s1 == s2 && a1 == a2,
        _ => a == b,
    }
}
