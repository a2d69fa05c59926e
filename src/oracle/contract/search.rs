//! The laydown search: [`search_laydown`] chooses a template for each contract meld, in turn,
//! pruned by an upper bound on the naturals the templates can hold ([`naturals_added`]), and asks
//! the flow whether the hand fills the chosen ones at once; [`laydown`] answers a contract of one
//! meld by [`one_meld`] where it can, and searches otherwise. The thread's reused space
//! ([`Scratch`]) lives here. `tests/integration/laydown.rs` holds `laydown` to a brute force over
//! [`check`], and to `search_laydown` card for card.
//!
//! [`check`]: super::check

use super::flow::{Flow, fill_with_palettes};
use super::hand::{RunNaturals, pair_holds, read_hand};
use super::one_meld::one_meld;
use super::relaxed::may_meet;
use super::templates::{
    RIGID, Template, run_templates, set_natural, set_templates, template_allowed,
};
use crate::base::card::{Card, Counts, Rank, Suit};
use crate::rules::Rules;
use crate::rules::disputes::reading;
use crate::rules::spec::{Component, MeldKind};
use std::cell::Cell;

/// A found laydown: one meld per contract entry, in contract order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Laydown {
    pub melds: Vec<(Component, Vec<Card>)>,
}

/// Searches `hand` for melds meeting `contract`; `None` if it cannot be met.
///
/// A contract of one meld (the built-in players ask for a run or a set after their contract at
/// every turn) is mostly answered by `one_meld` without the search; the answer is the same.
pub fn laydown(rules: &Rules, contract: &[Component], hand: &Counts) -> Option<Laydown> {
    // `one_meld` knows nothing of limits on wild cards, nor of sets of a fixed rank: there the
    // search answers.
    if let [comp] = contract
        && !rules.wild_limits.active()
        && comp.rank.is_none()
        && let Some(found) = one_meld(rules, *comp, hand)
    {
        return found.map(|cards| Laydown {
            melds: vec![(*comp, cards)],
        });
    }
    search_laydown(rules, contract, hand)
}

/// [`laydown`] by the full search alone, whatever the contract: what `laydown`'s shortcut is
/// checked against (`tests/integration/laydown.rs`).
pub fn search_laydown(rules: &Rules, contract: &[Component], hand: &Counts) -> Option<Laydown> {
    let total: usize = contract.iter().map(|c| usize::from(c.size)).sum();
    let (naturals, wilds) = read_hand(rules, contract, hand);
    if total > hand.len() || !may_meet(rules, contract, hand, &naturals, wilds) {
        return None;
    }
    let mut order: Vec<usize> = (0..contract.len()).collect();
    // Runs first, then sets of a fixed rank (one template each), larger first.
    order.sort_by_key(|&i| {
        (
            contract[i].kind == MeldKind::Set,
            contract[i].rank.is_none(),
            std::cmp::Reverse(contract[i].size),
        )
    });
    // The thread's space, taken for this search and given back after it (a search that ends in
    // a panic leaves fresh space behind).
    let mut scratch = SCRATCH.with(Cell::take);
    let Scratch {
        flow,
        sets,
        runs,
        without,
        chosen,
    } = &mut scratch;
    let set_count = contract.iter().filter(|c| c.kind == MeldKind::Set).count();
    set_templates(rules, hand, set_count, sets);
    let limited = rules.wild_limits.active();
    if limited {
        // Every run size a contract run may be laid at ([`sizes`]) has its templates.
        let every: Vec<Component> = contract
            .iter()
            .flat_map(|&c| sizes(rules, c).map(move |size| Component { size, ..c }))
            .collect();
        run_templates(rules, &naturals.places, &every, runs, without);
    } else {
        run_templates(rules, &naturals.places, contract, runs, without);
    }
    let search = Search {
        rules,
        contract,
        order: &order,
        sets,
        runs,
        hand,
        wilds,
        pools: Pools::of(&naturals),
        limited,
    };
    chosen.clear();
    let mut state = State {
        chosen,
        flow,
        out: None,
    };
    choose(&search, 0, 0, &mut state);
    let out = state.out.take();
    SCRATCH.with(|s| s.set(scratch));
    out.map(|melds| {
        // Back to contract order, each meld with the contract meld it fills (under limits on
        // wild cards it may be laid longer than the contract meld).
        let mut v: Vec<(usize, (Component, Vec<Card>))> =
            order.iter().copied().zip(melds).collect();
        v.sort_by_key(|(i, _)| *i);
        Laydown {
            melds: v
                .into_iter()
                .map(|(i, (_, cards))| (contract[i], cards))
                .collect(),
        }
    })
}

/// The space a laydown search works in: the flow network's, and the template lists'. Each thread
/// keeps one between searches, so a search allocates little once earlier ones have grown it.
#[derive(Default)]
struct Scratch {
    flow: Flow,
    sets: Vec<(Template, usize)>,
    /// Run templates by run size.
    runs: Vec<Vec<(Template, usize)>>,
    /// The templates no hand card can fill naturally, while the lists are built.
    without: Vec<(Template, usize)>,
    chosen: Vec<(Component, Template)>,
}

thread_local! {
    static SCRATCH: Cell<Scratch> = Cell::new(Scratch::default());
}

/// What one laydown search works from: the same at every step of [`choose`].
pub(super) struct Search<'a> {
    pub(super) rules: &'a Rules,
    pub(super) contract: &'a [Component],
    /// The contract's components in the order they are chosen.
    pub(super) order: &'a [usize],
    pub(super) sets: &'a [(Template, usize)],
    /// Run templates by run size.
    pub(super) runs: &'a [Vec<(Template, usize)>],
    pub(super) hand: &'a Counts,
    pub(super) wilds: usize,
    /// Per pool of runs (a suit, or index 4: every suit, for any-suits runs), what its plain
    /// naturals (`RunNaturals::plain`: the wild 2s are counted among the wilds only) give runs:
    /// the places they fill, those they fill twice, and how many cards they are.
    pub(super) pools: Pools,
    /// Limits on the wild cards of a meld are set: contract melds are tried at every size
    /// [`sizes`] gives, and the flow caps each template's wild cards.
    pub(super) limited: bool,
}

/// The sizes a contract meld is tried at. Without limits on wild cards, its own: a meld of
/// exactly the stated size exists whenever a larger one does. Under them (and
/// `contract-sizes=minimum`) a longer meld may keep a limit its shorter parts break, so:
/// - a set: the larger of its size and `wilds.min-naturals` (a set that keeps the limits holds one
///   of its own size that keeps them, of its naturals first: the naturals' share only grows);
/// - a run: its size alone where only `wilds.max-per-meld` and `side-by-side-in-runs` are set
///   (any window of a run keeps those), else every size up to the longest run (a run whose
///   wilds must not outnumber its naturals, or that needs so many naturals, may need more
///   places than the contract names: 5♥ JK JK 8♥ is a run of three only as 5♥–8♥).
pub(super) fn sizes(rules: &Rules, c: Component) -> std::ops::RangeInclusive<u8> {
    let l = rules.wild_limits;
    let n = c.size;
    if !l.active() || rules.readings.contract_sizes == reading::ContractSizes::Exact {
        return n..=n;
    }
    match c.kind {
        MeldKind::Set => {
            let m = n.max(l.min_naturals);
            m..=m
        }
        MeldKind::Run if l.not_outnumbering || l.min_naturals > 0 => {
            n..=(rules.max_run() as u8).max(n)
        }
        MeldKind::Run => n..=n,
    }
}

/// The plain naturals of each pool of runs, as [`Search`] bounds templates with them.
pub(super) struct Pools {
    pub(super) places: [u32; 5],
    pub(super) twice: [u32; 5],
    pub(super) cards: [usize; 5],
}

impl Pools {
    pub(super) fn of(n: &RunNaturals) -> Pools {
        let (one, twice) = n.plain_twice_any();
        let p = n.plain;
        let t = n.plain_twice;
        let c = n.plain_cards;
        Pools {
            places: [p[0], p[1], p[2], p[3], one],
            twice: [t[0], t[1], t[2], t[3], twice],
            cards: [c[0], c[1], c[2], c[3], c.iter().sum()],
        }
    }
}

/// What [`choose`] changes as it goes: the templates chosen so far, the flow network's space, and
/// the laydown once found.
pub(super) struct State<'a> {
    pub(super) chosen: &'a mut Vec<(Component, Template)>,
    pub(super) flow: &'a mut Flow,
    pub(super) out: Option<Vec<(Component, Vec<Card>)>>,
}

fn choose(s: &Search, k: usize, bound: usize, st: &mut State) {
    if st.out.is_some() {
        return;
    }
    if k == s.order.len() {
        st.out = fill_with_palettes(s.rules, s.hand, st.chosen, st.flow);
        return;
    }
    let comp = s.contract[s.order[k]];
    if s.limited {
        // Every size the contract meld may be laid at; no order among equal components (their
        // chosen sizes may differ).
        for size in sizes(s.rules, comp) {
            let comp = Component { size, ..comp };
            let one;
            let list: &[(Template, usize)] = match (comp.kind, comp.rank) {
                (MeldKind::Set, Some(rank)) => {
                    one = fixed_rank(s, rank);
                    one.as_slice()
                }
                (MeldKind::Set, None) => s.sets,
                (MeldKind::Run, _) => s.runs.get(usize::from(size)).map_or(&[], Vec::as_slice),
            };
            try_templates(s, k, bound, st, comp, list, 0);
            if st.out.is_some() {
                return;
            }
        }
        return;
    }
    let one;
    let list: &[(Template, usize)] = match (comp.kind, comp.rank) {
        (MeldKind::Set, Some(rank)) => {
            one = fixed_rank(s, rank);
            one.as_slice()
        }
        (MeldKind::Set, None) => s.sets,
        (MeldKind::Run, _) => &s.runs[usize::from(comp.size)],
    };
    // Equal components take templates in non-decreasing list order, so each choice is tried once.
    let min_idx = match st.chosen.last() {
        Some((prev, t)) if *prev == comp => list.iter().position(|(x, _)| x == t).unwrap_or(0),
        _ => 0,
    };
    try_templates(s, k, bound, st, comp, list, min_idx);
}

/// The template list of a set of a fixed rank: that rank alone, with the cards of it the hand
/// holds (none where the rank takes no set: twos where a 2 is never natural in a set).
fn fixed_rank(s: &Search, rank: Rank) -> Option<(Template, usize)> {
    if rank == Rank::Two && !s.rules.natural_two_in_sets() {
        return None;
    }
    let avail = Suit::ALL
        .iter()
        .map(|&suit| usize::from(s.hand.count(Card::new(rank, suit))))
        .sum();
    Some((Template::Set { rank }, avail))
}

/// [`choose`]'s step: each template of `list` from `min_idx` on for contract meld `comp` (the
/// `k`th in the search's order), and on to the next.
fn try_templates(
    s: &Search,
    k: usize,
    bound: usize,
    st: &mut State,
    comp: Component,
    list: &[(Template, usize)],
    min_idx: usize,
) {
    // Cheap bound: the wilds needed if the templates had only the naturals they could hold.
    // `bound` carries the naturals the chosen templates could take at most.
    let need: usize = st
        .chosen
        .iter()
        .map(|(c, _)| usize::from(c.size))
        .sum::<usize>()
        + usize::from(comp.size);
    for (t, avail) in list.iter().skip(min_idx) {
        if !template_allowed(s.rules, comp, t, st.chosen) {
            continue;
        }
        // A template adds at most the naturals it could hold (`avail`), and the list is sorted
        // by that, most first: once even that is too few, so is every template after it.
        if need > bound + avail + s.wilds {
            break;
        }
        let here = naturals_added(s, comp, t, st);
        if need > bound + here + s.wilds {
            continue;
        }
        if let Template::Run { suit, start, .. } = *t
            && s.rules.wild_limits.apart_in_runs
        {
            // No two wild cards side by side (`wilds.side-by-side-in-runs=false`): each way of
            // placing the wilds apart, as many as the other limits allow, fixed in the template.
            let n = usize::from(comp.size);
            let cap = s.rules.wild_limits.wild_cap(n);
            for gaps in 0..1u16 << n {
                if gaps & (gaps >> 1) != 0 || gaps.count_ones() as usize > cap {
                    continue;
                }
                let rigid = Template::Run {
                    suit,
                    start,
                    gaps: RIGID | gaps,
                };
                st.chosen.push((comp, rigid));
                choose(s, k + 1, bound + here, st);
                st.chosen.pop();
                if st.out.is_some() {
                    return;
                }
            }
            continue;
        }
        st.chosen.push((comp, *t));
        choose(s, k + 1, bound + here, st);
        st.chosen.pop();
        if st.out.is_some() {
            return;
        }
    }
}

/// The most natural cards template `t` adds to what the templates chosen so far could hold, the
/// wild cards apart (a wild 2 that may stand for itself counts among the wilds only: placed
/// naturally, it is not placed as a wild). A run holds at most one plain natural at each place of
/// its window; two runs of one pool hold a second at a place both cover only where the pool has
/// two cards for it; all the runs of a pool hold at most its cards. Sets of one rank share its
/// cards: `j` of them hold at most its usable copies, and where suits may not repeat at most `j`
/// of each suit. An upper bound, so a branch it prunes has no laydown.
pub(super) fn naturals_added(s: &Search, c: Component, t: &Template, st: &State) -> usize {
    let n = usize::from(c.size);
    match t {
        Template::Set { rank } => {
            let forbid =
                s.rules.readings.set_duplicate_suits == reading::SetDuplicateSuits::Forbidden;
            let usable = |j: usize| -> usize {
                Suit::ALL
                    .iter()
                    .map(|&suit| Card::new(*rank, suit))
                    .filter(|&card| set_natural(s.rules, card))
                    .map(|card| {
                        let k = usize::from(s.hand.count(card));
                        if forbid { k.min(j) } else { k }
                    })
                    .sum()
            };
            let (j, sizes) = st
                .chosen
                .iter()
                .filter(|(_, x)| x == t)
                .fold((0, 0), |(j, sizes), (pc, _)| {
                    (j + 1, sizes + usize::from(pc.size))
                });
            usable(j + 1).min(sizes + n) - usable(j).min(sizes)
        }
        Template::Run { suit, start, .. } => {
            let pool = suit.map_or(4, |x| x as usize);
            let window = |size: usize, start: usize| s.rules.windows(size)[start];
            let holds = |size: usize, start: usize| {
                ((s.pools.places[pool] & window(size, start)).count_ones() as usize).min(size)
            };
            let mut earlier = st.chosen.iter().filter_map(|(pc, x)| match x {
                Template::Run {
                    suit: other, start, ..
                } if other == suit => Some((usize::from(pc.size), *start)),
                _ => None,
            });
            let before: usize = earlier.clone().map(|(size, at)| holds(size, at)).sum();
            let cap = s.pools.cards[pool];
            let mut after = (before + holds(n, *start)).min(cap);
            if let (Some((size, at)), None) = (earlier.next(), earlier.next()) {
                let (one, twice) = (s.pools.places[pool], s.pools.twice[pool]);
                after = after.min(pair_holds(one, twice, window(size, at), window(n, *start)));
            }
            after - before.min(cap)
        }
    }
}
