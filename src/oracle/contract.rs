//! Contracts: whether given melds meet a deal's contract ([`check`]), and whether a hand can meet
//! it at all, with which melds ([`laydown`]).
//!
//! The laydown search chooses a *template* for each contract meld (a set rank, or a run suit and
//! window) and decides whether the hand can fill all templates at once as a small max-flow
//! problem: cards flow from the hand to the places of the templates, natural cards only to places
//! they fit, wild cards anywhere a wild may stand. With `all-wild-melds=forbidden` each template
//! also has a one-card "anchor" that only a natural card can fill. A contract meld of exactly the
//! stated size exists whenever a larger one does, so templates have exactly the stated size.

use crate::base::card::{Card, Counts, KINDS, Rank, Suit};
use crate::oracle::meld::{self, Interpretation, Query};
use crate::rules::Rules;
use crate::rules::disputes::reading;
use crate::rules::spec::{Component, MeldKind};
use std::cell::Cell;

/// The result of checking melds against a contract.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContractCheck {
    pub satisfied: bool,
    /// For each meld given, the contract meld it fills (`None`: an extra meld).
    pub assignment: Vec<Option<Component>>,
    pub reason: String,
    /// The contract is met, but melds beyond it must wait (contract-turn-extras=next-turn).
    pub extras_wait: bool,
}

/// Whether a meld of `n` cards is the right size for contract meld `c` (`contract-sizes`).
pub fn size_ok(rules: &Rules, c: Component, n: usize) -> bool {
    match rules.readings.contract_sizes {
        reading::ContractSizes::Minimum => n >= usize::from(c.size),
        reading::ContractSizes::Exact => n == usize::from(c.size),
    }
}

/// Checks whether `melds` (with their queries' declarations) meet `contract` in one laydown.
pub fn check(rules: &Rules, contract: &[Component], melds: &[Query]) -> ContractCheck {
    let mut interps: Vec<Vec<Interpretation>> = Vec::new();
    for (i, q) in melds.iter().enumerate() {
        let v = meld::interpret(rules, q);
        if !v.is_valid() {
            return ContractCheck {
                satisfied: false,
                assignment: vec![None; melds.len()],
                reason: format!(
                    "meld {} ({}) is not valid: {}",
                    i + 1,
                    crate::base::card::pretty_cards(&q.cards),
                    v.reason
                ),
                extras_wait: false,
            };
        }
        interps.push(v.interpretations);
    }
    let cards: Vec<&[Card]> = melds.iter().map(|q| &q.cards[..]).collect();
    check_interpreted(rules, contract, &cards, &interps)
}

/// [`check`] for melds already interpreted: `interps[i]` is every interpretation of the meld of
/// cards `melds[i]` (as [`meld::interpret`] gives them), and none is empty.
pub fn check_interpreted(
    rules: &Rules,
    contract: &[Component],
    melds: &[&[Card]],
    interps: &[Vec<Interpretation>],
) -> ContractCheck {
    let mut best: Option<Vec<Option<Component>>> = None;
    let mut assign = vec![None; melds.len()];
    let mut filled = vec![false; contract.len()];
    let mut chosen: Vec<Option<&Interpretation>> = vec![None; melds.len()];
    search_assignment(
        rules,
        contract,
        melds,
        interps,
        0,
        &mut assign,
        &mut filled,
        &mut chosen,
        &mut best,
    );
    match best {
        Some(a) => {
            let extras = a.iter().filter(|x| x.is_none()).count();
            if extras > 0
                && rules.readings.contract_turn_extras == reading::ContractTurnExtras::NextTurn
            {
                return ContractCheck {
                    satisfied: false,
                    assignment: a,
                    reason: format!(
                        "{extras} meld(s) beyond the contract must wait for the next turn (contract-turn-extras=next-turn)"
                    ),
                    extras_wait: true,
                };
            }
            ContractCheck {
                satisfied: true,
                assignment: a,
                reason: String::new(),
                extras_wait: false,
            }
        }
        None => ContractCheck {
            satisfied: false,
            assignment: vec![None; melds.len()],
            reason: why_not(rules, contract, melds, interps),
            extras_wait: false,
        },
    }
}

#[allow(clippy::too_many_arguments)]
fn search_assignment<'a>(
    rules: &Rules,
    contract: &[Component],
    melds: &[&[Card]],
    interps: &'a [Vec<Interpretation>],
    i: usize,
    assign: &mut Vec<Option<Component>>,
    filled: &mut Vec<bool>,
    chosen: &mut Vec<Option<&'a Interpretation>>,
    best: &mut Option<Vec<Option<Component>>>,
) {
    if best.is_some() {
        return;
    }
    if i == melds.len() {
        if filled.iter().all(|&f| f) && constraints_hold(rules, assign, chosen) {
            *best = Some(assign.clone());
        }
        return;
    }
    let n = melds[i].len();
    for (j, &c) in contract.iter().enumerate() {
        if filled[j] || !size_ok(rules, c, n) {
            continue;
        }
        for interp in interps[i].iter().filter(|x| x.kind == c.kind) {
            filled[j] = true;
            assign[i] = Some(c);
            chosen[i] = Some(interp);
            search_assignment(
                rules,
                contract,
                melds,
                interps,
                i + 1,
                assign,
                filled,
                chosen,
                best,
            );
            filled[j] = false;
            assign[i] = None;
            chosen[i] = None;
            if best.is_some() {
                return;
            }
        }
    }
    // An extra meld, beyond the contract.
    if melds.len() - i > filled.iter().filter(|&&f| !f).count() {
        chosen[i] = interps[i].first();
        search_assignment(
            rules,
            contract,
            melds,
            interps,
            i + 1,
            assign,
            filled,
            chosen,
            best,
        );
        chosen[i] = None;
    }
}

fn constraints_hold(
    rules: &Rules,
    assign: &[Option<Component>],
    chosen: &[Option<&Interpretation>],
) -> bool {
    let in_contract = || {
        assign
            .iter()
            .zip(chosen.iter())
            .filter(|(a, _)| a.is_some())
            .filter_map(|(_, c)| *c)
    };
    if rules.readings.same_rank_sets == reading::SameRankSets::Forbidden {
        let mut seen = [false; 14];
        for i in chosen.iter().flatten().filter(|i| i.kind == MeldKind::Set) {
            let r = usize::from(i.rank.expect("sets have a rank").number());
            if seen[r] {
                return false;
            }
            seen[r] = true;
        }
    }
    if rules.readings.same_suit_runs_in_contract == reading::SameSuitRunsInContract::Forbidden {
        let mut seen = [false; 4];
        for i in in_contract().filter(|i| i.kind == MeldKind::Run) {
            match i.suit {
                Some(s) => {
                    if seen[s as usize] {
                        return false;
                    }
                    seen[s as usize] = true;
                }
                None => {
                    // Under any-suits, runs are "different" when no suit of a natural card repeats.
                    for r in i.roles.iter().filter(|r| r.natural) {
                        let s = r.card.suit().expect("naturals are suited") as usize;
                        if seen[s] {
                            return false;
                        }
                    }
                    for r in i.roles.iter().filter(|r| r.natural) {
                        seen[r.card.suit().expect("naturals are suited") as usize] = true;
                    }
                }
            }
        }
    }
    true
}

fn why_not(
    rules: &Rules,
    contract: &[Component],
    melds: &[&[Card]],
    interps: &[Vec<Interpretation>],
) -> String {
    let want: Vec<String> = contract.iter().map(Component::to_string).collect();
    let want = want.join(" + ");
    if melds.len() < contract.len() {
        return format!("the contract is {want}; {} meld(s) given", melds.len());
    }
    for (i, cards) in melds.iter().enumerate() {
        let n = cards.len();
        let fits = contract
            .iter()
            .any(|&c| size_ok(rules, c, n) && interps[i].iter().any(|x| x.kind == c.kind));
        if !fits {
            let kinds: Vec<&str> = interps[i].iter().map(|x| x.kind.name()).collect();
            let what = if kinds.contains(&"set") { "set" } else { "run" };
            let exact = if rules.readings.contract_sizes == reading::ContractSizes::Exact {
                " (contract-sizes=exact)"
            } else {
                ""
            };
            return format!(
                "meld {} ({}) is a {what} of {n}, which fills no part of the contract {want}{exact}",
                i + 1,
                crate::base::card::pretty_cards(cards)
            );
        }
    }
    if rules.readings.same_rank_sets == reading::SameRankSets::Forbidden {
        return format!(
            "the melds cannot fill {want} with sets of different ranks (same-rank-sets=forbidden)"
        );
    }
    if rules.readings.same_suit_runs_in_contract == reading::SameSuitRunsInContract::Forbidden {
        return format!(
            "the melds cannot fill {want} with runs of different suits (same-suit-runs-in-contract=forbidden)"
        );
    }
    format!("the melds do not fill the contract {want}")
}

// ---------------------------------------------------------------- laydown search

/// A shape a contract meld could take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Template {
    /// A set of `rank` (`natural_only_twos`: a set of twos under rank-only, whose other places
    /// only jokers fill).
    Set { rank: Rank },
    /// A run of `suit` (`None`: any suits) over these line places.
    Run { suit: Option<Suit>, start: usize },
}

/// A found laydown: one meld per contract entry, in contract order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Laydown {
    pub melds: Vec<(Component, Vec<Card>)>,
}

/// Searches `hand` for melds meeting `contract`; `None` if it cannot be met.
///
/// A contract of one meld (the built-in players ask for a run or a set after their contract at
/// every turn) is mostly answered by [`one_meld`] without the search; the answer is the same.
pub fn laydown(rules: &Rules, contract: &[Component], hand: &Counts) -> Option<Laydown> {
    if let [comp] = contract
        && let Some(found) = one_meld(rules, *comp, hand)
    {
        return found.map(|cards| Laydown {
            melds: vec![(*comp, cards)],
        });
    }
    search_laydown(rules, contract, hand)
}

/// [`laydown`] by the full search alone, whatever the contract: what `laydown`'s shortcut is
/// checked against (`tests/laydown.rs`).
pub fn search_laydown(rules: &Rules, contract: &[Component], hand: &Counts) -> Option<Laydown> {
    let total: usize = contract.iter().map(|c| usize::from(c.size)).sum();
    let (naturals, wilds) = read_hand(rules, contract, hand);
    if total > hand.len() || !may_meet(rules, contract, hand, &naturals, wilds) {
        return None;
    }
    let mut order: Vec<usize> = (0..contract.len()).collect();
    order.sort_by_key(|&i| {
        (
            contract[i].kind == MeldKind::Set,
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
    run_templates(rules, &naturals.places, contract, runs, without);
    let search = Search {
        rules,
        contract,
        order: &order,
        sets,
        runs,
        hand,
        wilds,
        pools: Pools::of(&naturals),
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
        // Back to contract order.
        let mut v: Vec<(usize, (Component, Vec<Card>))> =
            order.iter().copied().zip(melds).collect();
        v.sort_by_key(|(i, _)| *i);
        Laydown {
            melds: v.into_iter().map(|(_, m)| m).collect(),
        }
    })
}

/// [`laydown`] of the one meld `comp`, where it needs no search: `Some(answer)`, the answer
/// [`search_laydown`] gives, or `None` where only the search can tell.
///
/// It walks the templates in [`choose`]'s order ([`set_templates`], [`run_templates`]) with the
/// same bounds. Where no template passes them, the search finds nothing either. At the first
/// that passes, it runs only the first flow of [`fill`] (naturals in order, then wild 2s by
/// suit, then jokers): where that fills the meld, the network carries nothing more and `fill`
/// reads the same cards back, so this is the search's laydown. Where it falls short, augmenting
/// paths might still fill the meld, or the search goes on to the next template: undecided.
fn one_meld(rules: &Rules, comp: Component, hand: &Counts) -> Option<Option<Vec<Card>>> {
    let n = usize::from(comp.size);
    // With nothing chosen before, whether a template is allowed depends on its kind alone.
    let any = match comp.kind {
        MeldKind::Set => Template::Set { rank: Rank::Ace },
        MeldKind::Run => Template::Run {
            suit: None,
            start: 0,
        },
    };
    if !template_allowed(rules, comp, &any, &[]) {
        // `choose` tries no template.
        return Some(None);
    }
    let wilds = wilds_in(rules, hand);
    let all_wild = rules.readings.all_wild_melds == reading::AllWildMelds::Allowed;
    match comp.kind {
        MeldKind::Set => {
            let forbid =
                rules.readings.set_duplicate_suits == reading::SetDuplicateSuits::Forbidden;
            // `set_templates`: the ranks with naturals, most first (ties in rank order), then
            // the first rank with none where all-wild melds are allowed.
            let counts = hand.by_index();
            let mut avail = [0usize; 13];
            let mut usable = [0usize; 13];
            let mut listed = [false; 13];
            let mut most = 0;
            let mut empty = None;
            for (r, rank) in Rank::ALL.into_iter().enumerate() {
                if rank == Rank::Two && !rules.natural_two_in_sets() {
                    continue;
                }
                // Every card of a rank taken here is natural in a set (a 2 only where twos may
                // be natural in sets).
                for suit in 0..4 {
                    let k = usize::from(counts[suit * 13 + r]);
                    avail[r] += k;
                    usable[r] += if forbid { k.min(1) } else { k };
                }
                listed[r] = avail[r] > 0;
                most = most.max(avail[r]);
                if avail[r] == 0 && rank != Rank::Two && empty.is_none() {
                    empty = Some(r);
                }
            }
            let with = (1..=most)
                .rev()
                .flat_map(|a| (0..13).filter(move |&r| listed[r] && avail[r] == a));
            let tail = empty.filter(|_| all_wild);
            for r in with.chain(tail) {
                // `choose`'s bounds, with nothing chosen before.
                if n > avail[r] + wilds {
                    break;
                }
                if n > usable[r].min(n) + wilds {
                    continue;
                }
                let t = Template::Set { rank: Rank::ALL[r] };
                return first_flow(rules, hand, &[(comp, t)]).map(|mut m| m.pop().map(|m| m.1));
            }
            Some(None)
        }
        MeldKind::Run => {
            if n > rules.max_run() {
                return Some(None);
            }
            let naturals = run_naturals(rules, hand);
            let pools = Pools::of(&naturals);
            let suits: &[Option<Suit>] = if rules.readings.run_suits == reading::RunSuits::SameSuit
            {
                &Suit::EACH
            } else {
                &[None]
            };
            let windows = rules.windows(n);
            // `run_templates`: per pool, the places of each window the hand fills naturally; the
            // templates most places first, then in suit and start order; then, where all-wild
            // melds are allowed, the first window of each pool the hand fills none of.
            let mut avails = [[0u8; 33]; 4];
            let mut most = 0;
            for (&suit, row) in suits.iter().zip(&mut avails) {
                let fillable = match suit {
                    Some(s) => naturals.places[s as usize],
                    None => naturals.places.iter().fold(0, |a, m| a | m),
                };
                for (&w, slot) in windows.iter().zip(row.iter_mut()) {
                    *slot = (fillable & w).count_ones() as u8;
                    most = most.max(*slot);
                }
            }
            let avails = &avails;
            let with = (1..=most).rev().flat_map(|a| {
                suits.iter().zip(avails).flat_map(move |(&suit, row)| {
                    (0..windows.len())
                        .filter(move |&start| row[start] == a)
                        .map(move |start| (suit, start, usize::from(a)))
                })
            });
            let without =
                suits
                    .iter()
                    .zip(avails)
                    .filter(|_| all_wild)
                    .filter_map(|(&suit, row)| {
                        let start = row[..windows.len()].iter().position(|&a| a == 0)?;
                        Some((suit, start, 0))
                    });
            for (suit, start, avail) in with.chain(without) {
                if n > avail + wilds {
                    break;
                }
                let pool = suit.map_or(4, |x| x as usize);
                let here = ((pools.places[pool] & windows[start]).count_ones() as usize)
                    .min(n)
                    .min(pools.cards[pool]);
                if n > here + wilds {
                    continue;
                }
                let t = Template::Run { suit, start };
                return first_flow(rules, hand, &[(comp, t)]).map(|mut m| m.pop().map(|m| m.1));
            }
            Some(None)
        }
    }
}

/// The melds [`fill`]'s first flow makes of the `chosen` templates, where it fills them all;
/// `None` where it falls short (only the whole network can tell then). The same steps in the
/// same order as `fill`'s, template by template, without building the network: naturals (a
/// run's one per place) into the template, one of them first into its edge for the natural card
/// an anchored meld needs, then wild 2s by suit and jokers into what is left open. Where they
/// fill every template, `fill`'s network carries no more, and `fill` reads the same cards back:
/// each template's naturals, and its count of wilds dealt out from the wild 2s by suit and then
/// the jokers that the wild pool passed on (a set of twos under rank-only: jokers).
fn first_flow(
    rules: &Rules,
    hand: &Counts,
    chosen: &[(Component, Template)],
) -> Option<Vec<(Component, Vec<Card>)>> {
    let anchored = rules.readings.all_wild_melds == reading::AllWildMelds::Forbidden;
    let forbid = rules.readings.set_duplicate_suits == reading::SetDuplicateSuits::Forbidden;
    let exact = rules.readings.wild_in_set_represents == reading::WildInSetRepresents::ExactCard;
    // What the flow takes of each card kind's supply (as a natural or a wild), of each wild 2
    // into the wild pool, and of the jokers into the pool.
    let mut used = [0u8; crate::base::card::KINDS];
    let mut twos_pooled = [0u8; 4];
    let mut jokers_pooled = 0u8;
    let jokers = hand.count(Card::JOKER);
    let mut out = Vec::with_capacity(chosen.len());
    // Per template: its wild count, and whether only jokers reach it.
    let mut wilds = [(0usize, false); 16];
    if chosen.len() > wilds.len() {
        return None;
    }
    for (ti, &(comp, t)) in chosen.iter().enumerate() {
        let n = usize::from(comp.size);
        // What is left of the template's edges towards the sink.
        let mut nat_sink = usize::from(anchored);
        let mut nat_all = n;
        let mut all_sink = if anchored { n - 1 } else { n };
        let mut cards = Vec::with_capacity(n);
        let mut take = |card: Card, cap: usize, cards: &mut Vec<Card>| {
            let f = usize::from(hand.count(card) - used[card.index()]).min(cap);
            let mut placed = 0;
            if f > 0 && nat_sink > 0 {
                nat_sink -= 1;
                placed = 1;
            }
            let more = (f - placed).min(nat_all).min(all_sink);
            nat_all -= more;
            all_sink -= more;
            placed += more;
            used[card.index()] += placed as u8;
            cards.extend(std::iter::repeat_n(card, placed));
            placed
        };
        let mut joker_only = false;
        match t {
            Template::Set { rank } => {
                joker_only = rank == Rank::Two && !exact && rules.twos_wild;
                for suit in Suit::ALL {
                    let card = Card::new(rank, suit);
                    if hand.count(card) > 0 && set_natural(rules, card) {
                        take(card, if forbid { 1 } else { n }, &mut cards);
                    }
                }
            }
            Template::Run { suit, start } => {
                let len = rules.line.len();
                for i in 0..n {
                    let pl = (start + i) % len;
                    // A place's slot takes one natural card.
                    let mut slot = 1;
                    for card in place_cards(rules.line[pl].rank, suit) {
                        if hand.count(card) > 0 && run_natural_at(rules, pl, card) {
                            slot -= take(card, slot, &mut cards);
                        }
                    }
                }
            }
        }
        let mut open = n.min(all_sink);
        let before = open;
        if !joker_only {
            for (s, pooled) in twos_pooled.iter_mut().enumerate() {
                let two = Card::new(Rank::Two, Suit::ALL[s]);
                let k = hand.count(two);
                if open == 0 || !rules.is_wild(two) || k == 0 {
                    continue;
                }
                let f = open.min(usize::from((k - used[two.index()]).min(k - *pooled)));
                used[two.index()] += f as u8;
                *pooled += f as u8;
                open -= f;
            }
        }
        let mut left = jokers - used[Card::JOKER.index()];
        if !joker_only {
            left = left.min(jokers - jokers_pooled);
        }
        let f = open.min(usize::from(left));
        used[Card::JOKER.index()] += f as u8;
        if !joker_only {
            jokers_pooled += f as u8;
        }
        open -= f;
        let w = before - open;
        if cards.len() + w < n {
            return None;
        }
        wilds[ti] = (w, joker_only);
        out.push((comp, cards));
    }
    // The wilds the pool passed on, dealt out to the templates in order.
    let mut pooled: [(Card, u8); 5] = std::array::from_fn(|i| match Suit::ALL.get(i) {
        Some(&s) => (Card::new(Rank::Two, s), twos_pooled[i]),
        None => (Card::JOKER, jokers_pooled),
    });
    for ((_, cards), &(w, joker_only)) in out.iter_mut().zip(&wilds) {
        if joker_only {
            cards.extend(std::iter::repeat_n(Card::JOKER, w));
        } else {
            let mut need = w;
            for (card, k) in &mut pooled {
                let f = need.min(usize::from(*k));
                cards.extend(std::iter::repeat_n(*card, f));
                *k -= f as u8;
                need -= f;
            }
        }
        cards.sort();
    }
    Some(out)
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

/// A quick necessary condition for [`laydown`], without allocating: the contract relaxed so that
/// one natural card may count towards several contract melds and per-meld limits on wilds are
/// ignored. Each set takes a rank and each run a window, and the wild cards must fill what the
/// naturals leave open. `false` means no laydown exists; `true` decides nothing.
///
/// Sets of one size cost what their cheapest steps cost ([`SetsShape::cost`]). Sets of several
/// sizes (and a set and a run at exactly the hand's wilds, which may share a card) take the
/// enumeration, which needs only a few candidate ranks: a group of `j` sets on one rank can move
/// to any unused rank whose `j` sets would hold at least as many naturals without needing more
/// wilds, so for `m` sets the `m` best ranks for each group size `j` suffice.
///
/// `naturals` and `wilds` are the hand's, as [`read_hand`] reads them (the search reads them
/// once for both).
fn may_meet(
    rules: &Rules,
    contract: &[Component],
    hand: &Counts,
    naturals: &RunNaturals,
    wilds: usize,
) -> bool {
    let all_wild = rules.readings.all_wild_melds == reading::AllWildMelds::Allowed;
    let forbid_dup = rules.readings.set_duplicate_suits == reading::SetDuplicateSuits::Forbidden;
    // Straight from the counts by card index (suit * 13 + rank number - 1, the joker last): this
    // runs before most laydown searches, most of which it ends.
    let counts = hand.by_index();
    // Runs: per suit (one pool under any-suits), the places a hand card can fill naturally and
    // how many such cards there are. Runs sharing a pool share its cards: together they hold at
    // most the pool's cards, and each at most its best window's places.
    //
    // A wild 2 that may stand for itself in a run is already counted among the wilds, so it is
    // not counted again as a natural (as a wild it could fill its own place anyway: `plain`); it
    // still anchors a window where melds need a natural card (`anchors`).
    let r = contract.iter().filter(|c| c.kind == MeldKind::Run).count();
    let (masks, anchors, totals) = (naturals.plain, naturals.places, naturals.plain_cards);
    let same_suit = rules.readings.run_suits == reading::RunSuits::SameSuit;
    let any = [masks.iter().fold(0, |a, m| a | m)];
    let any_anchor = [anchors.iter().fold(0, |a, m| a | m)];
    let any_total = [totals.iter().sum::<usize>()];
    let (pools, pool_anchors, pool_totals): (&[u32], &[u32], &[usize]) = if same_suit {
        (&masks, &anchors, &totals)
    } else {
        (&any, &any_anchor, &any_total)
    };
    // The most naturals one window of each run component can take, per pool (`None`: the
    // component cannot lie there).
    let mut best = [[None::<usize>; 4]; 4];
    let mut run_sizes = [0usize; 4];
    for (i, c) in contract
        .iter()
        .filter(|c| c.kind == MeldKind::Run)
        .enumerate()
    {
        let n = usize::from(c.size);
        if n > rules.max_run() {
            return false;
        }
        if i >= 4 {
            continue;
        }
        run_sizes[i] = n;
        // A run of a size already weighed has the same best windows.
        if let Some(j) = run_sizes[..i].iter().position(|&k| k == n) {
            best[i] = best[j];
            continue;
        }
        for (p, &pool) in pools.iter().enumerate() {
            best[i][p] = anchored_windows(rules, n, pool_anchors[p], all_wild)
                .map(|w| (pool & w).count_ones() as usize)
                .max();
        }
        if best[i].iter().all(Option::is_none) {
            return false;
        }
    }
    let mut need = 0usize;
    if r > 4 {
        // Too many to pair up cheaply: each run on its own.
        for i in 0..4 {
            let most = best[i].iter().flatten().max().copied().unwrap_or(0);
            need += run_sizes[i] - most;
        }
    } else if r > 0 {
        // No way of giving the runs pools needs fewer wilds than each run in its own best pool
        // (runs sharing a pool share its cards, which only adds to it): where even that is too
        // many, nothing is met; with one run, it is the answer.
        let lower: usize = (0..r)
            .map(|i| {
                let most = best[i]
                    .iter()
                    .zip(pool_totals)
                    .filter_map(|(b, &t)| b.map(|b| b.min(t)))
                    .max()
                    .unwrap_or(0);
                run_sizes[i] - most
            })
            .sum();
        if lower > wilds {
            return false;
        }
        let split = rules.readings.same_suit_runs_in_contract
            == reading::SameSuitRunsInContract::Forbidden
            && same_suit;
        let p = pools.len();
        let mut cheapest = if r == 1 { lower } else { usize::MAX };
        // Two runs are weighed on their own (below); three or four by every choice of pools.
        let codes = if r <= 2 {
            0
        } else {
            p.pow(u32::try_from(r).unwrap_or(u32::MAX))
        };
        // Two runs in one pool, where the bound above lets the hand through: they can hold at
        // most what the best pair of windows holds, a place twice only where the pool has two
        // cards for it (`pair_naturals`). Asked last and only then, once per pool.
        let mut pairs = [None::<Option<usize>>; 4];
        let mut pair_in = |q: usize| {
            *pairs[q].get_or_insert_with(|| {
                let (one, twice) = if same_suit {
                    (naturals.plain[q], naturals.plain_twice[q])
                } else {
                    naturals.plain_twice_any()
                };
                pair_naturals(rules, run_sizes, one, twice, pool_anchors[q], all_wild)
            })
        };
        // What `size` places of one pool need beside the `avail` naturals its windows hold.
        let short =
            |q: usize, size: usize, avail: usize| size - avail.min(pool_totals[q]).min(size);
        if r == 2 {
            // Each run in a pool of its own, or both in one (where runs may share a suit).
            let (s0, s1) = (run_sizes[0], run_sizes[1]);
            for (q1, &b1) in best[1][..p].iter().enumerate() {
                let Some(b1) = b1 else {
                    continue;
                };
                for (q0, &b0) in best[0][..p].iter().enumerate() {
                    let Some(b0) = b0 else {
                        continue;
                    };
                    if q0 != q1 {
                        cheapest = cheapest.min(short(q0, s0, b0) + short(q1, s1, b1));
                        continue;
                    }
                    if split {
                        continue;
                    }
                    let mut here = short(q0, s0 + s1, b0 + b1);
                    if here <= wilds && here < cheapest {
                        let Some(pair) = pair_in(q0) else {
                            continue;
                        };
                        here = short(q0, s0 + s1, pair);
                    }
                    cheapest = cheapest.min(here);
                }
            }
        }
        'runs: for code in 0..codes {
            let mut size = [0usize; 4];
            let mut avail = [0usize; 4];
            let mut used = [0usize; 4];
            let mut c = code;
            for i in 0..r {
                let pool = c % p;
                c /= p;
                let Some(b) = best[i][pool] else {
                    continue 'runs;
                };
                if split && used[pool] > 0 {
                    continue 'runs;
                }
                used[pool] += 1;
                size[pool] += run_sizes[i];
                avail[pool] += b;
            }
            cheapest = cheapest.min((0..p).map(|q| short(q, size[q], avail[q])).sum());
        }
        if cheapest == usize::MAX {
            return false;
        }
        need = cheapest;
    }
    if need > wilds {
        return false;
    }
    // Sets: every assignment of the set components to the candidate ranks.
    let m = contract.iter().filter(|c| c.kind == MeldKind::Set).count();
    if m == 0 {
        return true;
    }
    if m > 4 {
        // Too many to enumerate cheaply; the full search decides.
        return true;
    }
    let distinct = rules.readings.same_rank_sets == reading::SameRankSets::Forbidden;
    let twos = rules.natural_two_in_sets();
    let size = contract
        .iter()
        .find(|c| c.kind == MeldKind::Set)
        .map_or(0, |c| usize::from(c.size));
    let equal = contract
        .iter()
        .all(|c| c.kind != MeldKind::Set || usize::from(c.size) == size);
    if equal && size < SET_STEPS {
        let shape = SetsShape {
            sets: m,
            size,
            distinct,
            forbid_dup,
            all_wild,
            twos,
        };
        let Some(sets) = shape.cost(counts, hand.present(), hand.holds_copies()) else {
            return false;
        };
        // One set and one run at exactly the hand's wilds: below, whether they would share a
        // card and need one more.
        if !(need + sets == wilds && m == 1 && r == 1 && contract.len() == 2) {
            return need + sets <= wilds;
        }
    }
    // Natural cards per rank and suit. The twos are counted too: where they cannot be natural in
    // a set, no set takes their rank below.
    let mut nat = [[0usize; 4]; 13];
    for (si, suit) in counts[..52].chunks_exact(13).enumerate() {
        for (r, &k) in suit.iter().enumerate() {
            nat[r][si] += usize::from(k);
        }
    }
    // The naturals of rank `r` that `j` sets of it can hold between them (`j <= m`), counted
    // once here: the choices below ask again and again.
    let mut usable_by = [[0usize; 13]; 5];
    for (j, row) in usable_by.iter_mut().enumerate().take(m + 1).skip(1) {
        for (slot, counts) in row.iter_mut().zip(&nat) {
            *slot = counts
                .iter()
                .map(|&c| if forbid_dup { c.min(j) } else { c })
                .sum();
        }
    }
    let usable = |r: usize, j: usize| -> usize { usable_by[j][r] };
    let mut candidates = [0usize; 16];
    let mut k = 0;
    let group_sizes = if distinct || !forbid_dup { 1 } else { m };
    for j in 1..=group_sizes {
        // The `m` ranks whose `j` sets hold the most naturals (ties: lower rank first).
        let mut key = [0usize; 13];
        let mut taken = [false; 13];
        for (r, slot) in key.iter_mut().enumerate() {
            *slot = usable(r, j);
        }
        taken[1] = !twos;
        for _ in 0..m {
            // The first of the best (a plain loop: this runs for most laydown searches).
            let mut pick = None;
            for r in 0..13 {
                if !taken[r] && pick.is_none_or(|p: usize| key[r] > key[p]) {
                    pick = Some(r);
                }
            }
            let Some(r) = pick else {
                break;
            };
            taken[r] = true;
            if !candidates[..k].contains(&r) {
                candidates[k] = r;
                k += 1;
            }
        }
    }
    let sizes = contract
        .iter()
        .filter(|c| c.kind == MeldKind::Set)
        .map(|c| c.size);
    let first = usize::from(sizes.clone().next().unwrap_or(0));
    if sizes.clone().all(|x| usize::from(x) == first) {
        // Equal sets: a group is just a count, so choose how many sets each candidate takes
        // (least wilds for `t` sets among the first candidates, one candidate at a time).
        let mut dp = [usize::MAX; 5];
        dp[0] = need;
        for &r in &candidates[..k] {
            let mut next = dp;
            for t in 0..m {
                if dp[t] == usize::MAX {
                    continue;
                }
                let most = if distinct { 1 } else { m - t };
                for j in 1..=most {
                    if usable(r, 1) == 0 && !all_wild {
                        break;
                    }
                    let cost = dp[t] + (j * first).saturating_sub(usable(r, j));
                    next[t + j] = next[t + j].min(cost);
                }
            }
            dp = next;
        }
        // One set and one run at exactly the hand's wilds: one more where they would share a card.
        if dp[m] == wilds && m == 1 && r == 1 && contract.len() == 2 {
            let hand = SetAndRun {
                sizes: (first, run_sizes[0]),
                nat: &nat,
                usable: &usable_by[1],
                pools,
                anchors: pool_anchors,
                totals: pool_totals,
                same_suit,
                all_wild,
                forbid_dup,
                twos,
            };
            return !hand.collide(rules);
        }
        return dp[m] <= wilds;
    }
    let combos = k.pow(u32::try_from(m).unwrap_or(u32::MAX));
    'combo: for code in 0..combos {
        let mut group = [(0usize, 0usize); 16];
        let mut c = code;
        for comp in contract.iter().filter(|c| c.kind == MeldKind::Set) {
            let slot = c % k;
            c /= k;
            if distinct && group[slot].1 > 0 {
                continue 'combo;
            }
            group[slot].0 += usize::from(comp.size);
            group[slot].1 += 1;
        }
        let mut cost = need;
        for (slot, &(g, j)) in group.iter().enumerate().take(k) {
            if j == 0 {
                continue;
            }
            let r = candidates[slot];
            if usable(r, 1) == 0 && !all_wild {
                continue 'combo;
            }
            cost += g.saturating_sub(usable(r, j));
        }
        if cost <= wilds {
            return true;
        }
    }
    false
}

/// A set's size below which [`SetsShape::cost`] applies: the most wilds one more set can need,
/// plus one.
const SET_STEPS: usize = 16;

/// Equal sets as [`may_meet`] weighs them: how many, their size, and the readings that decide
/// which ranks they may take and how many naturals a rank gives them.
struct SetsShape {
    sets: usize,
    size: usize,
    /// No two sets of one rank (`same-rank-sets=forbidden`).
    distinct: bool,
    /// No suit twice in a set: `j` sets of a rank hold at most `j` naturals of each suit.
    forbid_dup: bool,
    /// A set may be all wild: ranks the hand holds none of count too.
    all_wild: bool,
    /// A set of twos may be made (twos may be natural in sets).
    twos: bool,
}

impl SetsShape {
    /// The fewest wilds the sets need beside the hand's naturals (by card index, as
    /// [`Counts::by_index`] gives them), their ranks chosen as well as can be; `None` where no
    /// choice of ranks can hold them. `size < SET_STEPS`; `copies`: whether some card is counted
    /// more than once ([`Counts::holds_copies`]).
    ///
    /// What `j` sets of one rank need, `max(0, j * size - usable(j))`, grows by steps that never
    /// shrink (`usable(j)` grows by the suits with `j` copies or more, fewer and fewer), so
    /// the cheapest choice of ranks takes the `sets` cheapest steps among all ranks: a rank's
    /// second set never comes cheaper than its first.
    ///
    /// Read by groups of ranks: where no card is held three times or more, a rank's steps
    /// depend only on how many suits it holds once or more (`u1`) and twice (`u2`), so the ranks
    /// with each pair of counts are counted at once, from the hand's masks by suit
    /// ([`suits_per_rank`]). Otherwise rank by rank ([`SetsShape::cost_by_ranks`]).
    fn cost(
        &self,
        counts: &[u8; crate::base::card::KINDS],
        present: u64,
        copies: bool,
    ) -> Option<usize> {
        // The cards held twice: none where no card is held more than once.
        let mut twice = 0u64;
        let mut bits = if copies { present & ((1 << 52) - 1) } else { 0 };
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            match counts[i] {
                0 | 1 => {}
                2 => twice |= 1 << i,
                _ => return self.cost_by_ranks(counts),
            }
        }
        let (once, two) = (suits_per_rank(present), suits_per_rank(twice));
        let per_rank = if self.distinct { 1 } else { self.sets };
        let ranks: u16 = if self.twos { 0x1FFF } else { 0x1FFF & !0b10 };
        let mut steps = [0usize; SET_STEPS];
        for u1 in 0..=4 {
            let with_u1 = ranks & lanes_equal(once, u1);
            if with_u1 == 0 {
                continue;
            }
            // No card held twice: every rank's `u2` is 0.
            let most_twice = if twice == 0 { 0 } else { u1 };
            for u2 in 0..=most_twice {
                let n = (with_u1 & lanes_equal(two, u2)).count_ones() as usize;
                let total = u1 + u2;
                if n == 0 || (total == 0 && !self.all_wild) {
                    continue;
                }
                // Each copy of a suit beyond the first serves a second set of the rank only.
                let mut before = 0;
                for j in 1..=per_rank {
                    let usable = if self.forbid_dup && j == 1 { u1 } else { total };
                    let cost = (j * self.size).saturating_sub(usable);
                    steps[cost - before] += n;
                    before = cost;
                }
            }
        }
        self.cheapest(&steps)
    }

    /// [`SetsShape::cost`] rank by rank, for any number of copies of a card.
    fn cost_by_ranks(&self, counts: &[u8; crate::base::card::KINDS]) -> Option<usize> {
        let per_rank = if self.distinct { 1 } else { self.sets };
        // How many steps there are of each cost (a step adds one set: at most `size` wilds).
        let mut steps = [0usize; SET_STEPS];
        for r in 0..13 {
            if r == 1 && !self.twos {
                continue;
            }
            let k = [0, 13, 26, 39].map(|suit| usize::from(counts[suit + r]));
            let total: usize = k.iter().sum();
            if total == 0 && !self.all_wild {
                continue;
            }
            let (mut usable, mut before) = (0, 0);
            for j in 1..=per_rank {
                usable = if self.forbid_dup {
                    usable + k.iter().filter(|&&c| c >= j).count()
                } else {
                    total
                };
                let cost = (j * self.size).saturating_sub(usable);
                steps[cost - before] += 1;
                before = cost;
            }
        }
        self.cheapest(&steps)
    }

    /// The cost of the `sets` cheapest steps, given how many steps there are of each cost;
    /// `None` where there are fewer steps than sets.
    fn cheapest(&self, steps: &[usize; SET_STEPS]) -> Option<usize> {
        let (mut left, mut cost) = (self.sets, 0);
        for (c, &n) in steps.iter().enumerate() {
            let t = n.min(left);
            cost += t * c;
            left -= t;
            if left == 0 {
                break;
            }
        }
        (left == 0).then_some(cost)
    }
}

/// For each rank, how many of the four suits `cards` (a mask by card index) holds, as three bit
/// masks by rank number - 1: the count's bits 0, 1 and 2 (a sum of the four suits' 13-bit
/// lanes, added bit by bit).
fn suits_per_rank(cards: u64) -> [u16; 3] {
    let lane = |s: u32| (cards >> (13 * s)) as u16 & 0x1FFF;
    let (a, b, c, d) = (lane(0), lane(1), lane(2), lane(3));
    let (ab, ab_carry) = (a ^ b, a & b);
    let (cd, cd_carry) = (c ^ d, c & d);
    // A carry from the sums' sum comes only where neither pair carried (a pair that carries sums
    // to 0): two carries make 4, one makes 2.
    let carry = ab & cd;
    [ab ^ cd, ab_carry ^ cd_carry ^ carry, ab_carry & cd_carry]
}

/// The ranks whose count in `lanes` ([`suits_per_rank`]) is `v`, as a mask by rank number - 1.
fn lanes_equal(lanes: [u16; 3], v: usize) -> u16 {
    let bit = |k: usize| {
        if v >> k & 1 == 1 { lanes[k] } else { !lanes[k] }
    };
    bit(0) & bit(1) & bit(2) & 0x1FFF
}

/// What [`may_meet`] reads from a hand for a contract of one set and one run.
struct SetAndRun<'a> {
    /// The set's size, the run's.
    sizes: (usize, usize),
    /// Natural cards per rank and suit (twos too).
    nat: &'a [[usize; 4]; 13],
    /// The naturals one set of each rank can hold.
    usable: &'a [usize; 13],
    /// Per pool of runs: the places its plain naturals fill, the places that anchor a window,
    /// how many cards it has.
    pools: &'a [u32],
    anchors: &'a [u32],
    totals: &'a [usize],
    same_suit: bool,
    all_wild: bool,
    forbid_dup: bool,
    /// Whether a set of twos may be made.
    twos: bool,
}

impl SetAndRun<'_> {
    /// Whether every cheapest choice of the set's rank and the run's window wants one natural
    /// card for both: the run's card of the set's rank, which the set needs too (it has none to
    /// spare, and where suits may not repeat no second copy stands in). Then the contract needs
    /// one wild more than the relaxed count. A run holds one card of any rank (its windows are
    /// shorter than the line), so no choice needs two more; and a choice that is not cheapest
    /// already needs one more. `false` wherever a cheapest choice shares nothing.
    fn collide(&self, rules: &Rules) -> bool {
        let (n_set, n_run) = self.sizes;
        let set_cost = |rank: usize| n_set.saturating_sub(self.usable[rank]);
        let ranks = || {
            (0..13).filter(|&rank| {
                (rank != 1 || self.twos) && (self.usable[rank] > 0 || self.all_wild)
            })
        };
        let Some(best_set) = ranks().map(set_cost).min() else {
            return false;
        };
        let windows = || {
            self.pools.iter().enumerate().flat_map(move |(q, &pool)| {
                anchored_windows(rules, n_run, self.anchors[q], self.all_wild).map(move |w| {
                    let avail = ((pool & w).count_ones() as usize).min(self.totals[q]);
                    (q, w, n_run - avail.min(n_run))
                })
            })
        };
        let Some(best_run) = windows().map(|(.., cost)| cost).min() else {
            return false;
        };
        let shared = |rank: usize, q: usize, w: u32| {
            if self.pools[q] & rules.rank_places[rank] & w == 0 || self.usable[rank] > n_set {
                return false;
            }
            // Where suits may not repeat, a second copy of a suit the set holds goes to the run.
            let spare_copy = if self.same_suit {
                self.nat[rank][q] >= 2
            } else {
                self.nat[rank].iter().any(|&c| c >= 2)
            };
            !(self.forbid_dup && spare_copy)
        };
        windows()
            .filter(|&(.., cost)| cost == best_run)
            .all(|(q, w, _)| {
                ranks()
                    .filter(|&rank| set_cost(rank) == best_set)
                    .all(|rank| shared(rank, q, w))
            })
    }
}

/// A quick necessary condition for some meld of `comp` from `hand` to hold `card`: a set of the
/// card's rank, or a run through one of its places (of its suit, where runs keep one suit), with
/// the hand's wild cards filling what its naturals leave open. Wild cards always pass, and a 2 is
/// counted both as a wild and, where it may stand for itself, as a natural. `false` means no
/// such meld holds `card`.
///
/// Whether a contract can be met only grows with the hand, so a player whose hand failed a
/// [`laydown`] search and has since gained some cards need only ask whether a meld could hold
/// one of the new ones.
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

/// Whether `card` can be a natural card in a set of its rank.
fn set_natural(rules: &Rules, card: Card) -> bool {
    !rules.is_wild(card) || (card.is_two() && rules.natural_two_in_sets())
}

/// The set templates, into `with`: the ranks the hand holds naturals of,
/// most first, then (where all-wild melds are allowed) as many ranks it holds none of as there are
/// sets. Empty when the contract has no sets.
fn set_templates(
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
fn run_natural_at(rules: &Rules, pl: usize, card: Card) -> bool {
    let place = rules.line[pl];
    card.rank() == Some(place.rank)
        && (!rules.is_wild(card) || (card.is_two() && rules.natural_two_in_runs()))
}

/// The natural cards that may stand at a place of `rank` in a run of `suit` (any suit: all four),
/// without allocating.
fn place_cards(rank: Rank, suit: Option<Suit>) -> impl Iterator<Item = Card> + Clone {
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
fn run_templates(
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
            let mut first_empty = true;
            for ((start, &w), slot) in windows.iter().enumerate().zip(row.iter_mut()) {
                *slot = (fillable & w).count_ones() as u8;
                if *slot == 0 && first_empty {
                    first_empty = false;
                    without.push((Template::Run { suit, start }, 0));
                }
            }
        }
        let windows_of = suits.iter().zip(&avails).flat_map(|(&suit, row)| {
            let row = row[..windows.len()].iter().enumerate();
            row.map(move |(start, &a)| (Template::Run { suit, start }, usize::from(a)))
        });
        push_by_count(windows_of, with);
        if rules.readings.all_wild_melds == reading::AllWildMelds::Allowed {
            with.append(without);
        }
    }
}

/// What one laydown search works from: the same at every step of [`choose`].
struct Search<'a> {
    rules: &'a Rules,
    contract: &'a [Component],
    /// The contract's components in the order they are chosen.
    order: &'a [usize],
    sets: &'a [(Template, usize)],
    /// Run templates by run size.
    runs: &'a [Vec<(Template, usize)>],
    hand: &'a Counts,
    wilds: usize,
    /// Per pool of runs (a suit, or index 4: every suit, for any-suits runs), what its plain
    /// naturals (`RunNaturals::plain`: the wild 2s are counted among the wilds only) give runs:
    /// the places they fill, those they fill twice, and how many cards they are.
    pools: Pools,
}

/// The plain naturals of each pool of runs, as [`Search`] bounds templates with them.
struct Pools {
    places: [u32; 5],
    twice: [u32; 5],
    cards: [usize; 5],
}

impl Pools {
    fn of(n: &RunNaturals) -> Pools {
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
struct State<'a> {
    chosen: &'a mut Vec<(Component, Template)>,
    flow: &'a mut Flow,
    out: Option<Vec<(Component, Vec<Card>)>>,
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
    let list: &[(Template, usize)] = match comp.kind {
        MeldKind::Set => s.sets,
        MeldKind::Run => &s.runs[usize::from(comp.size)],
    };
    // Equal components take templates in non-decreasing list order, so each choice is tried once.
    let min_idx = match st.chosen.last() {
        Some((prev, t)) if *prev == comp => list.iter().position(|(x, _)| x == t).unwrap_or(0),
        _ => 0,
    };
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
        st.chosen.push((comp, *t));
        choose(s, k + 1, bound + here, st);
        st.chosen.pop();
        if st.out.is_some() {
            return;
        }
    }
}

fn wilds_in(rules: &Rules, hand: &Counts) -> usize {
    crate::base::card::cards_in(hand.present() & rules.wild_mask())
        .map(|c| usize::from(hand.count(c)))
        .sum()
}

/// The most natural cards template `t` adds to what the templates chosen so far could hold, the
/// wild cards apart (a wild 2 that may stand for itself counts among the wilds only: placed
/// naturally, it is not placed as a wild). A run holds at most one plain natural at each place of
/// its window; two runs of one pool hold a second at a place both cover only where the pool has
/// two cards for it; all the runs of a pool hold at most its cards. Sets of one rank share its
/// cards: `j` of them hold at most its usable copies, and where suits may not repeat at most `j`
/// of each suit. An upper bound, so a branch it prunes has no laydown.
fn naturals_added(s: &Search, c: Component, t: &Template, st: &State) -> usize {
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
        Template::Run { suit, start } => {
            let pool = suit.map_or(4, |x| x as usize);
            let window = |size: usize, start: usize| s.rules.windows(size)[start];
            let holds = |size: usize, start: usize| {
                ((s.pools.places[pool] & window(size, start)).count_ones() as usize).min(size)
            };
            let mut earlier = st.chosen.iter().filter_map(|(pc, x)| match x {
                Template::Run { suit: other, start } if other == suit => {
                    Some((usize::from(pc.size), *start))
                }
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

/// What the relaxed check and the search both read from a hand: the cards that can stand
/// naturally in runs (only where the contract has runs) and the wild cards.
fn read_hand(rules: &Rules, contract: &[Component], hand: &Counts) -> (RunNaturals, usize) {
    let naturals = if contract.iter().any(|c| c.kind == MeldKind::Run) {
        run_naturals(rules, hand)
    } else {
        RunNaturals::default()
    };
    (naturals, wilds_in(rules, hand))
}

/// The cards of a hand that can stand naturally in runs (`run_natural_at`).
#[derive(Default)]
struct RunNaturals {
    /// Per suit, the places of the line they can fill.
    places: [u32; 4],
    /// `places` without the wild 2s among them (where twos are wild but may stand for
    /// themselves; the relaxed check counts those among the wilds), and per suit how many such
    /// cards there are: each card once, though an ace may have two places.
    plain: [u32; 4],
    plain_cards: [usize; 4],
    /// The places of `plain` that the hand has two or more cards for: two runs of one suit can
    /// both hold such a place naturally.
    plain_twice: [u32; 4],
}

impl RunNaturals {
    /// `plain` and `plain_twice` for one pool of every suit (runs of any suits): a place the hand
    /// has two cards for, of one suit or of two.
    fn plain_twice_any(&self) -> (u32, u32) {
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
fn pair_naturals(
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
fn pair_holds(one: u32, twice: u32, a: u32, b: u32) -> usize {
    ((one & (a | b)).count_ones() + (twice & a & b).count_ones()) as usize
}

/// The windows of `n` places a run may lie in: those holding a place the hand can fill
/// naturally (`anchors`), where a meld needs a natural card; all of them where all-wild melds are
/// allowed.
fn anchored_windows(
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

fn run_naturals(rules: &Rules, hand: &Counts) -> RunNaturals {
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

fn template_allowed(
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
            if usize::from(comp.size) < usize::from(rules.set_min) {
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

/// A tiny max-flow network (augmenting paths found by DFS); graphs here have under 200 edges.
/// Edges are kept in one flat array (a linked list per node), and the space of one network, with
/// `fill`'s bookkeeping, serves every network of the thread's searches ([`Scratch`]): a network
/// costs no allocation once earlier ones have grown the space.
#[derive(Default)]
struct Flow {
    first: Vec<u32>,
    edges: Vec<Edge>,
    /// The DFS of one augmenting path has visited node `v` when `seen[v] == pass`.
    seen: Vec<u32>,
    pass: u32,
    /// `fill`'s record of each template's natural edges, as ranges of `naturals`: the card, its
    /// edge into the template (a run: into the place's slot), and the slot's edge into the
    /// template (`NONE` for a set).
    naturals: Vec<(Card, u32, u32)>,
    uses: Vec<Uses>,
}

#[derive(Clone, Copy)]
struct Edge {
    to: u32,
    next: u32,
    cap: i32,
}

/// One template's edges in `fill`'s network, for reading the flow back into cards.
#[derive(Clone, Copy)]
struct Uses {
    /// Its natural edges: `Flow::naturals[naturals.0..naturals.1]`.
    naturals: (usize, usize),
    wild_edge: u32,
    joker_only: bool,
    /// Its edges to the sink: for natural cards only (`NONE` unless all-wild melds are
    /// forbidden), and from its natural node on, through its node of all cards.
    nat_sink: u32,
    nat_all: u32,
    all_sink: u32,
}

const NONE: u32 = u32::MAX;

impl Flow {
    /// Empties the network for another with `n` nodes and no edges, keeping the space.
    fn reset(&mut self, n: usize) {
        self.first.clear();
        self.first.resize(n, NONE);
        self.edges.clear();
        self.naturals.clear();
        self.uses.clear();
    }

    fn node(&mut self) -> u32 {
        self.first.push(NONE);
        (self.first.len() - 1) as u32
    }

    /// Adds an edge; returns its index (the reverse edge is `index ^ 1`).
    fn edge(&mut self, a: u32, b: u32, c: i32) -> u32 {
        let e = self.edges.len() as u32;
        let (a, b) = (a as usize, b as usize);
        self.edges.push(Edge {
            to: b as u32,
            next: self.first[a],
            cap: c,
        });
        self.first[a] = e;
        self.edges.push(Edge {
            to: a as u32,
            next: self.first[b],
            cap: 0,
        });
        self.first[b] = e + 1;
        e
    }

    fn flow_on(&self, e: u32) -> i32 {
        self.edges[(e ^ 1) as usize].cap
    }

    /// Pushes `f` along the edges of `path`, a stretch of a path from the source to the sink (the
    /// caller pushes the rest of it too).
    fn push_path(&mut self, path: &[u32], f: i32) {
        for &e in path {
            self.edges[e as usize].cap -= f;
            self.edges[(e ^ 1) as usize].cap += f;
        }
    }

    fn residual(&self, e: u32) -> i32 {
        self.edges[e as usize].cap
    }

    /// The largest flow from `s` to `t`, stopping once `limit` flows: no last search for a path
    /// that cannot be needed (a network of `fill` carries at most its demand, the limit).
    fn max_flow(&mut self, s: u32, t: u32, limit: i32) -> i32 {
        if self.seen.len() < self.first.len() {
            self.seen.resize(self.first.len(), self.pass);
        }
        let mut total = 0;
        while total < limit {
            // A new pass number marks every node unvisited; at the wrap, start the marks again.
            self.pass = self.pass.wrapping_add(1);
            if self.pass == 0 {
                self.seen.fill(0);
                self.pass = 1;
            }
            let f = self.augment(s, t, i32::MAX);
            if f == 0 {
                return total;
            }
            total += f;
        }
        total
    }

    fn augment(&mut self, u: u32, t: u32, f: i32) -> i32 {
        if u == t {
            return f;
        }
        self.seen[u as usize] = self.pass;
        let mut e = self.first[u as usize];
        while e != NONE {
            let Edge { to: v, next, cap } = self.edges[e as usize];
            if cap > 0 && self.seen[v as usize] != self.pass {
                let got = self.augment(v, t, f.min(cap));
                if got > 0 {
                    self.edges[e as usize].cap -= got;
                    self.edges[(e ^ 1) as usize].cap += got;
                    return got;
                }
            }
            e = next;
        }
        0
    }
}

/// Under `any-suits` with `same-suit-runs-in-contract=forbidden`, the runs of a contract may not
/// share a suit among their natural cards: try each way of giving every suit to one run.
fn fill_with_palettes(
    rules: &Rules,
    hand: &Counts,
    chosen: &[(Component, Template)],
    g: &mut Flow,
) -> Option<Vec<(Component, Vec<Card>)>> {
    let runs: Vec<usize> = (0..chosen.len())
        .filter(|&i| matches!(chosen[i].1, Template::Run { suit: None, .. }))
        .collect();
    let split =
        rules.readings.same_suit_runs_in_contract == reading::SameSuitRunsInContract::Forbidden;
    if !split || runs.len() < 2 {
        // Mostly the first flow fills every template, and the network is not built.
        return first_flow(rules, hand, chosen).or_else(|| fill(rules, hand, chosen, None, g));
    }
    let r = runs.len();
    for code in 0..r.pow(4) {
        let mut palette = [usize::MAX; 4];
        let mut c = code;
        for slot in &mut palette {
            *slot = runs[c % r];
            c /= r;
        }
        if let Some(m) = fill(rules, hand, chosen, Some(&palette), g) {
            return Some(m);
        }
    }
    None
}

/// Decides whether the hand fills every chosen template at once, and if so builds the melds.
/// `palette[s]`, when given, is the one template whose natural cards may be of suit `s`. `g` is
/// scratch space, reused by every network of one search.
fn fill(
    rules: &Rules,
    hand: &Counts,
    chosen: &[(Component, Template)],
    palette: Option<&[usize; 4]>,
    g: &mut Flow,
) -> Option<Vec<(Component, Vec<Card>)>> {
    let anchored = rules.readings.all_wild_melds == reading::AllWildMelds::Forbidden;
    let forbid = rules.readings.set_duplicate_suits == reading::SetDuplicateSuits::Forbidden;
    let exact = rules.readings.wild_in_set_represents == reading::WildInSetRepresents::ExactCard;
    let len = rules.line.len();
    g.reset(2);
    let (src, sink) = (0, 1);
    let pool = g.node();
    let jokers = g.node();
    let jk = i32::from(hand.count(Card::JOKER));
    let src_jokers = g.edge(src, jokers, jk);
    let jokers_pool = g.edge(jokers, pool, jk);
    // Supply nodes for the cards in hand (created on demand), with their edges from the source
    // and (wild twos) into the pool.
    let mut supply = [(NONE, NONE, NONE); crate::base::card::KINDS];
    let mut supply_node = |g: &mut Flow, c: Card| -> (u32, u32, u32) {
        if supply[c.index()].0 != NONE {
            return supply[c.index()];
        }
        let n = g.node();
        let from_src = g.edge(src, n, i32::from(hand.count(c)));
        let to_pool = if rules.is_wild(c) && !c.is_joker() {
            g.edge(n, pool, i32::from(hand.count(c)))
        } else {
            NONE
        };
        supply[c.index()] = (n, from_src, to_pool);
        supply[c.index()]
    };
    // Wild-capable twos feed the pool even when no template names them.
    let mut twos = [(NONE, NONE); 4];
    for (s, two_edges) in Suit::ALL.into_iter().zip(&mut twos) {
        let two = Card::new(Rank::Two, s);
        if rules.is_wild(two) && hand.count(two) > 0 {
            let (_, from_src, to_pool) = supply_node(g, two);
            *two_edges = (from_src, to_pool);
        }
    }
    // Per template: natural edges (kind, edge) and wild edges, for reading the flow back.
    let mut demand = 0i32;
    for (ti, (comp, t)) in chosen.iter().enumerate() {
        let n = i32::from(comp.size);
        demand += n;
        let node_nat = g.node();
        let node_all = g.node();
        let (nat_sink, nat_all, all_sink) = if anchored {
            let nat_sink = g.edge(node_nat, sink, 1);
            let nat_all = g.edge(node_nat, node_all, n);
            (nat_sink, nat_all, g.edge(node_all, sink, n - 1))
        } else {
            let nat_all = g.edge(node_nat, node_all, n);
            (NONE, nat_all, g.edge(node_all, sink, n))
        };
        let from_natural = g.naturals.len();
        let mut joker_only = false;
        match t {
            Template::Set { rank } => {
                let twos_set_rank_only = *rank == Rank::Two && !exact && rules.twos_wild;
                joker_only = twos_set_rank_only;
                for s in Suit::ALL {
                    let c = Card::new(*rank, s);
                    if hand.count(c) == 0 || !set_natural(rules, c) {
                        continue;
                    }
                    let (from, _, _) = supply_node(g, c);
                    let cap = if forbid { 1 } else { n };
                    let e = g.edge(from, node_nat, cap);
                    g.naturals.push((c, e, NONE));
                }
            }
            Template::Run { suit, start } => {
                for i in 0..usize::from(comp.size) {
                    let pl = (start + i) % len;
                    let rank = rules.line[pl].rank;
                    let cands = place_cards(rank, *suit);
                    // One slot node per place: at most one natural card per place.
                    let slot = g.node();
                    let slot_nat = g.edge(slot, node_nat, 1);
                    for c in cands {
                        let in_palette = match (palette, suit, c.suit()) {
                            (Some(p), None, Some(cs)) => p[cs as usize] == ti,
                            _ => true,
                        };
                        if in_palette && hand.count(c) > 0 && run_natural_at(rules, pl, c) {
                            let (from, _, _) = supply_node(g, c);
                            let e = g.edge(from, slot, 1);
                            g.naturals.push((c, e, slot_nat));
                        }
                    }
                }
            }
        }
        let wild_edge = if joker_only {
            g.edge(jokers, node_all, n)
        } else {
            g.edge(pool, node_all, n)
        };
        let naturals = (from_natural, g.naturals.len());
        g.uses.push(Uses {
            naturals,
            wild_edge,
            joker_only,
            nat_sink,
            nat_all,
            all_sink,
        });
    }
    // A first flow along the obvious paths, so the search for augmenting paths below has little
    // left to find: each natural card into its template, then wilds into what is left open
    // (twos first, as read back below). Any flow is a valid start for the search.
    let mut flowed = 0;
    for ti in 0..g.uses.len() {
        let u = g.uses[ti];
        for k in u.naturals.0..u.naturals.1 {
            let (c, e, slot_nat) = g.naturals[k];
            // From the source to the template's natural node (a run: through the place's slot).
            let via = [supply[c.index()].1, e, slot_nat];
            let path = &via[..if slot_nat == NONE { 2 } else { 3 }];
            let mut f = path.iter().map(|&x| g.residual(x)).min().unwrap_or(0);
            // The one natural card an anchored template must hold first.
            if f > 0 && u.nat_sink != NONE && g.residual(u.nat_sink) > 0 {
                g.push_path(path, 1);
                g.push_path(&[u.nat_sink], 1);
                f -= 1;
                flowed += 1;
            }
            let f = f.min(g.residual(u.nat_all)).min(g.residual(u.all_sink));
            if f > 0 {
                g.push_path(path, f);
                g.push_path(&[u.nat_all, u.all_sink], f);
                flowed += f;
            }
        }
        let mut open = g.residual(u.wild_edge).min(g.residual(u.all_sink));
        if !u.joker_only {
            for &(from_src, to_pool) in &twos {
                if open == 0 || from_src == NONE {
                    continue;
                }
                let f = open.min(g.residual(from_src)).min(g.residual(to_pool));
                if f > 0 {
                    g.push_path(&[from_src, to_pool, u.wild_edge, u.all_sink], f);
                    open -= f;
                    flowed += f;
                }
            }
        }
        // Jokers reach a joker-only template directly, any other through the pool.
        let jokers_in: &[u32] = if u.joker_only {
            &[src_jokers]
        } else {
            &[src_jokers, jokers_pool]
        };
        let f = jokers_in.iter().fold(open, |f, &x| f.min(g.residual(x)));
        if f > 0 {
            g.push_path(jokers_in, f);
            g.push_path(&[u.wild_edge, u.all_sink], f);
            flowed += f;
        }
    }
    if flowed + g.max_flow(src, sink, demand - flowed) != demand {
        return None;
    }
    // Read the flow back into cards. Wilds: jokers for joker-only templates first, then twos and
    // jokers from what the pool passed on.
    let mut wild_left: Vec<(Card, i32)> = Vec::with_capacity(5);
    for (s, &(from_src, to_pool)) in Suit::ALL.into_iter().zip(&twos) {
        if from_src != NONE {
            wild_left.push((Card::new(Rank::Two, s), g.flow_on(to_pool)));
        }
    }
    wild_left.push((Card::JOKER, g.flow_on(jokers_pool)));
    let mut out = Vec::with_capacity(chosen.len());
    for ((comp, _), u) in chosen.iter().zip(&g.uses) {
        let mut cards = Vec::with_capacity(usize::from(comp.size));
        for &(c, e, _) in &g.naturals[u.naturals.0..u.naturals.1] {
            for _ in 0..g.flow_on(e) {
                cards.push(c);
            }
        }
        let w = g.flow_on(u.wild_edge);
        if u.joker_only {
            cards.extend(std::iter::repeat_n(Card::JOKER, w as usize));
        } else {
            let mut need = w;
            for (card, left) in wild_left.iter_mut() {
                while need > 0 && *left > 0 {
                    cards.push(*card);
                    *left -= 1;
                    need -= 1;
                }
            }
        }
        cards.sort();
        out.push((*comp, cards));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::card::parse_cards;
    use crate::rules::load;

    fn hand(s: &str) -> Counts {
        Counts::from_cards(&parse_cards(s).unwrap())
    }

    /// Push's rules under the given readings.
    fn push_with(readings: &[(crate::rules::disputes::DisputeId, &str)]) -> Rules {
        let readings: Vec<_> = readings.iter().map(|&(d, r)| (d, r.to_string())).collect();
        load("push", &readings).unwrap().rules
    }

    /// [`may_meet`] on what [`read_hand`] reads from `h`, as `laydown` asks it.
    fn quick_check(rules: &Rules, contract: &[Component], h: &Counts) -> bool {
        let (naturals, wilds) = read_hand(rules, contract, h);
        may_meet(rules, contract, h, &naturals, wilds)
    }

    /// The quick check lets the hand through and the search finds a laydown.
    fn assert_met(rules: &Rules, contract: &[Component], h: &Counts, what: &str) {
        assert!(
            quick_check(rules, contract, h),
            "quick check: {what} {contract:?}"
        );
        assert!(
            laydown(rules, contract, h).is_some(),
            "search: {what} {contract:?}"
        );
    }

    fn set(size: u8) -> Component {
        Component {
            kind: MeldKind::Set,
            size,
        }
    }

    fn run(size: u8) -> Component {
        Component {
            kind: MeldKind::Run,
            size,
        }
    }

    /// The template lists as plain code makes them: the ranks (the windows of each suit, per
    /// run size) the hand fills some of naturally, stably sorted by how many, most first; then,
    /// where all-wild melds are allowed, the first ranks with none (one per set), and each suit's
    /// first window with none. `set_templates` and `run_templates` (`push_by_count`) give the
    /// same lists, for hands of one pack and of many (counts of a rank up to 40, on both sides
    /// of the counting sort's room), under readings that change which cards are natural and how
    /// suits pool.
    #[test]
    fn template_lists_are_the_stable_sort_by_naturals() {
        use crate::rules::disputes::DisputeId as D;
        let rule_sets = [
            push_with(&[]),
            push_with(&[
                (D::AllWildMelds, "allowed"),
                (D::NaturalTwos, "runs-and-sets"),
            ]),
            push_with(&[(D::RunSuits, "any-suits"), (D::AllWildMelds, "allowed")]),
            push_with(&[(D::NaturalTwos, "never")]),
        ];
        let mut rng = crate::base::rng::Rng::new(21);
        let mut checked = 0;
        for rules in &rule_sets {
            let all_wild = rules.readings.all_wild_melds == reading::AllWildMelds::Allowed;
            for round in 0..400 {
                // A few packs' worth at most for most hands; every fourth piles up one rank; the
                // first three hold 33, 34 and 35 cards of one rank and nothing else, either side
                // of the counting sort's room.
                let mut h = Counts::new();
                if round < 3 {
                    for k in 0..33 + round {
                        h.add(Card::new(Rank::Nine, Suit::ALL[k % 4]));
                    }
                }
                for _ in 0..if round < 3 { 0 } else { 4 + rng.below(12) } {
                    h.add(Card::all().nth(rng.below(53) as usize).unwrap());
                }
                if round % 4 == 0 && round >= 3 {
                    let rank = Rank::ALL[rng.below(13) as usize];
                    for _ in 0..rng.below(40) {
                        h.add(Card::new(rank, Suit::ALL[rng.below(4) as usize]));
                    }
                }
                for set_count in [1, 3] {
                    let mut expected: Vec<(Template, usize)> = Vec::new();
                    let mut none = Vec::new();
                    for rank in Rank::ALL {
                        if rank == Rank::Two && !rules.natural_two_in_sets() {
                            continue;
                        }
                        let avail: usize = Suit::ALL
                            .iter()
                            .map(|&s| Card::new(rank, s))
                            .filter(|&c| set_natural(rules, c))
                            .map(|c| usize::from(h.count(c)))
                            .sum();
                        if avail > 0 {
                            expected.push((Template::Set { rank }, avail));
                        } else if rank != Rank::Two {
                            none.push((Template::Set { rank }, 0));
                        }
                    }
                    expected.sort_by_key(|(_, a)| std::cmp::Reverse(*a));
                    if all_wild {
                        expected.extend(none.into_iter().take(set_count));
                    }
                    let mut got = vec![(Template::Set { rank: Rank::Two }, 99)];
                    set_templates(rules, &h, set_count, &mut got);
                    assert_eq!(got, expected, "sets of {h:?}");
                }
                let contract = [run(4), set(3), run(5), run(4)];
                let (naturals, _) = read_hand(rules, &contract, &h);
                let (mut runs, mut without) = (vec![vec![]; 9], vec![]);
                runs[4].push((Template::Set { rank: Rank::Two }, 99));
                run_templates(rules, &naturals.places, &contract, &mut runs, &mut without);
                for n in [4, 5] {
                    let suits: &[Option<Suit>] =
                        if rules.readings.run_suits == reading::RunSuits::SameSuit {
                            &Suit::EACH
                        } else {
                            &[None]
                        };
                    let mut expected = Vec::new();
                    let mut none = Vec::new();
                    for &suit in suits {
                        let fillable = match suit {
                            Some(s) => naturals.places[s as usize],
                            None => naturals.places.iter().fold(0, |a, m| a | m),
                        };
                        let mut first_none = true;
                        for (start, &w) in rules.windows(n).iter().enumerate() {
                            let a = (fillable & w).count_ones() as usize;
                            if a > 0 {
                                expected.push((Template::Run { suit, start }, a));
                            } else if first_none {
                                first_none = false;
                                none.push((Template::Run { suit, start }, 0));
                            }
                        }
                    }
                    expected.sort_by_key(|(_, a)| std::cmp::Reverse(*a));
                    if all_wild {
                        expected.extend(none);
                    }
                    assert_eq!(runs[n], expected, "runs of {n} in {h:?}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 4 * 400 * 2);
    }

    /// The run templates list each window of each suit once per run size, however many runs of
    /// that size the contract has, and nothing for its sets; the lists of a search before are
    /// emptied first.
    #[test]
    fn run_templates_list_each_window_once() {
        let rules = load("push", &[]).unwrap().rules;
        let naturals = run_naturals(&rules, &hand("4S 5S 6S 9H"));
        let (mut out, mut without) = (vec![vec![(Template::Set { rank: Rank::Ace }, 9)]], vec![]);
        run_templates(
            &rules,
            &naturals.places,
            &[set(3), run(4), run(4)],
            &mut out,
            &mut without,
        );
        assert!(out[..4].iter().all(Vec::is_empty), "{:?}", &out[..4]);
        let fours = &out[4];
        // Every window of four places in each suit: those the hand fills some place of, then one
        // it fills none of per suit (all-wild runs are allowed in Push).
        let filled = |suit: Suit| {
            rules
                .windows(4)
                .iter()
                .filter(|&&w| w & naturals.places[suit as usize] != 0)
                .count()
        };
        let expected = filled(Suit::Spades) + filled(Suit::Hearts) + 4;
        assert_eq!(fours.len(), expected, "{fours:?}");
        for (i, t) in fours.iter().enumerate() {
            assert!(!fours[..i].contains(t), "{t:?} twice");
        }
        // Most naturals first: 3-6 of spades (the line starts A 2 3) is the first of the two
        // windows holding all three.
        assert_eq!(
            fours[0],
            (
                Template::Run {
                    suit: Some(Suit::Spades),
                    start: 2
                },
                3
            )
        );
    }

    /// Compares the quick check with the search, hand by hand, and counts how often the hand met
    /// the contract, so that a test can show that both answers occurred.
    #[derive(Default)]
    struct Agreement {
        tried: usize,
        met: usize,
    }

    impl Agreement {
        fn check(&mut self, rules: &Rules, contract: &[Component], cards: &[Card], what: &str) {
            let h = Counts::from_cards(cards);
            let found = laydown(rules, contract, &h).is_some();
            assert_eq!(
                quick_check(rules, contract, &h),
                found,
                "{what} {contract:?}: {cards:?}"
            );
            self.tried += 1;
            self.met += usize::from(found);
        }

        /// Compares the two on 3,000 hands of `sizes` cards drawn from `pool` (shuffled with
        /// `seed`), and checks that both answers occurred.
        fn sample(
            rules: &Rules,
            contract: &[Component],
            pool: &mut [Card],
            sizes: std::ops::Range<usize>,
            seed: u64,
            what: &str,
        ) {
            let mut rng = crate::base::rng::Rng::new(seed);
            let mut agreement = Agreement::default();
            for _ in 0..3000 {
                rng.shuffle(pool);
                let n = sizes.start + rng.below(sizes.len() as u64) as usize;
                agreement.check(rules, contract, &pool[..n], what);
            }
            agreement.assert_both_answers();
        }

        /// Both answers occur often enough for the comparison to mean something.
        fn assert_both_answers(&self) {
            let (met, tried) = (self.met, self.tried);
            assert!(
                met > tried / 20 && met < tried * 19 / 20,
                "{met} of {tried}"
            );
        }
    }

    #[test]
    fn a_natural_needed_by_a_run_is_left_to_it() {
        let rules = load("push", &[]).unwrap().rules;
        let c = &rules.rounds[1].contract;
        let l =
            laydown(&rules, c, &hand("7S 7H 7D 7C 5S 6S 8S")).expect("set of 7s + 5-8 of spades");
        for (comp, cards) in &l.melds {
            assert!(meld::is_valid(&rules, cards, Some(comp.kind)), "{cards:?}");
        }
        assert!(laydown(&rules, c, &hand("7S 7H 7D 5S 6S 8S 9C")).is_none());
    }

    /// `may_meet` relaxes the contract only where naturals could serve several melds, a card
    /// could be natural and wild at once, or wild limits could bind. None of that can happen for
    /// one meld from a hand whose one wild card is a joker, nor for sets alone from a hand without
    /// wilds: there it must answer exactly as the search does, so a looser check (which would only
    /// cost time) is caught too.
    #[test]
    fn the_quick_check_is_exact_where_nothing_is_relaxed() {
        let mut agreement = Agreement::default();
        // Under both readings of same-rank-sets: where sets may not share a rank, the set check
        // gives each set a rank of its own.
        let same_rank = crate::rules::disputes::DisputeId::SameRankSets;
        for (name, reading) in crate::rules::GAMES
            .into_iter()
            .flat_map(|n| [(n, "allowed"), (n, "forbidden")])
        {
            let rules = load(name, &[(same_rank, reading.into())]).unwrap().rules;
            let mut contracts: Vec<Vec<Component>> = Vec::new();
            for round in &rules.rounds {
                for c in &round.contract {
                    contracts.push(vec![*c]);
                }
                if round.contract.iter().all(|c| c.kind == MeldKind::Set) {
                    contracts.push(round.contract.clone());
                }
            }
            // Longer contracts than any built-in game has: four sets take the last enumerated
            // case of the set check.
            contracts.push(vec![set(rules.set_min); 4]);
            // Sets of two sizes take the check's general case, in either order.
            let (small, large) = (set(rules.set_min), set(rules.set_min + 1));
            contracts.push(vec![small, large]);
            contracts.push(vec![large, small]);
            contracts.dedup();
            let pack = crate::engine::game::pack(&rules, rules.players.0);
            let mut rng = crate::base::rng::Rng::new(7);
            for contract in &contracts {
                let sets_only = contract.len() > 1;
                let mut hands = 0;
                while hands < 1500 {
                    let mut cards = pack.clone();
                    rng.shuffle(&mut cards);
                    let size = 5 + rng.below(12) as usize;
                    // A wild that could also be natural (a 2 in its own place) counts as both
                    // in the quick check: only a joker may be the one wild.
                    let wilds = cards[..size].iter().filter(|&&c| rules.is_wild(c));
                    let jokers = wilds.clone().filter(|&&c| c == Card::JOKER).count();
                    if wilds.count() > jokers || jokers > usize::from(!sets_only) {
                        continue;
                    }
                    hands += 1;
                    let what = format!("{name}, same-rank-sets={reading},");
                    agreement.check(&rules, contract, &cards[..size], &what);
                }
            }
        }
        agreement.assert_both_answers();
    }

    /// Where the runs of a contract may not share a suit, each run has a suit of its own and no
    /// natural can serve two: without wild cards the quick check is exact for two runs, and for
    /// four (the most it pairs with suits rather than judging each run alone).
    #[test]
    fn the_quick_check_is_exact_for_runs_of_their_own_suits() {
        let id = crate::rules::disputes::DisputeId::SameSuitRunsInContract;
        let rules = load("push", &[(id, "forbidden".into())]).unwrap().rules;
        let suits = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];
        for (runs, size, suits, hands) in [(2, 4, &suits[..2], 8..14), (4, 3, &suits[..], 14..22)] {
            let contract = vec![run(size); runs];
            // Ranks 4 to 8 of the suits, both decks: hands that often hold the runs, or nearly.
            let mut near: Vec<Card> = Vec::new();
            for &s in suits {
                for r in 4..=8 {
                    let c = Card::new(Rank::from_number(r).unwrap(), s);
                    near.extend([c, c]);
                }
            }
            let what = "push, same-suit-runs-in-contract=forbidden,";
            Agreement::sample(&rules, &contract, &mut near, hands, 11, what);
        }
    }

    /// Two runs of one pool share its cards place by place: a place both windows cover holds two
    /// natural cards only where the hand has two. Without wild cards or aces (an ace has two
    /// places, which the check may count at both) the quick check is then exact for two runs of
    /// one suit, and for two runs of any suits, so it turns away what the search would fail.
    #[test]
    fn the_quick_check_is_exact_for_two_runs_of_one_pool() {
        let id = crate::rules::disputes::DisputeId::RunSuits;
        for (reading, suits) in [
            ("same-suit", &[Suit::Hearts][..]),
            ("any-suits", &[Suit::Hearts, Suit::Clubs][..]),
        ] {
            let rules = load("push", &[(id, reading.into())]).unwrap().rules;
            // Ranks 4 to 10, both decks: two runs of four fit only where the hand holds enough
            // of the places both windows share twice.
            let mut near: Vec<Card> = Vec::new();
            for &s in suits {
                for r in 4..=10 {
                    let c = Card::new(Rank::from_number(r).unwrap(), s);
                    near.extend([c, c]);
                }
            }
            let what = format!("push, run-suits={reading},");
            Agreement::sample(&rules, &[run(4), run(4)], &mut near, 8..12, 13, &what);
        }
    }

    /// A set and a run share a natural card where the run passes through the set's rank: where
    /// the set has none to spare, one of them needs a wild for it. Without wild cards or aces the
    /// quick check is then exact for a set and a run, under either reading of repeated suits in
    /// a set and of the suits of a run.
    #[test]
    fn the_quick_check_is_exact_for_a_set_and_a_run() {
        use crate::rules::disputes::DisputeId as D;
        for (dup, suits) in [
            ("allowed", "same-suit"),
            ("forbidden", "same-suit"),
            ("allowed", "any-suits"),
            ("forbidden", "any-suits"),
        ] {
            let readings = [
                (D::SetDuplicateSuits, dup.into()),
                (D::RunSuits, suits.into()),
            ];
            let rules = load("push", &readings).unwrap().rules;
            // Ranks 5 to 9 of two suits, both decks, and of a third suit once: sets of those
            // ranks and runs through them compete for the same cards.
            let mut near: Vec<Card> = Vec::new();
            for r in 5..=9 {
                let rank = Rank::from_number(r).unwrap();
                for s in [Suit::Hearts, Suit::Clubs] {
                    near.extend([Card::new(rank, s); 2]);
                }
                near.push(Card::new(rank, Suit::Spades));
            }
            let what = format!("push, set-duplicate-suits={dup}, run-suits={suits},");
            Agreement::sample(&rules, &[set(3), run(4)], &mut near, 9..13, 17, &what);
        }
    }

    /// Hands at exactly the wilds the relaxed count asks for, whose set and run would share the
    /// 7♥: the check turns them away as the search does, and lets them through with one wild
    /// more. Wild twos count for no set where twos are natural in runs only; and where melds need
    /// a natural card, only the sets and windows that hold one are weighed.
    #[test]
    fn a_set_and_a_run_sharing_their_one_card_need_a_wild_more() {
        let forbid = [(
            crate::rules::disputes::DisputeId::AllWildMelds,
            "forbidden".to_string(),
        )];
        for (readings, cards) in [
            (&[][..], "2S 2H 5H 6H 7H 7C KD"),
            (&forbid[..], "5H 6H 7H 7C JK JK KD"),
        ] {
            let rules = load("push", readings).unwrap().rules;
            let contract = [set(3), run(4)];
            let h = hand(cards);
            assert!(!quick_check(&rules, &contract, &h), "{cards} {readings:?}");
            assert!(laydown(&rules, &contract, &h).is_none(), "{cards}");
            let mut more = h.clone();
            more.add(Card::JOKER);
            assert_met(&rules, &contract, &more, cards);
        }
    }

    /// The search tries first the run windows the hand fills best with naturals, so a hand that
    /// holds a natural run lays that run down, not four jokers in the first window of the line.
    #[test]
    fn a_natural_run_is_laid_down_before_an_all_wild_one() {
        let rules = load("push", &[]).unwrap().rules;
        let l = laydown(&rules, &[run(4)], &hand("JK JK JK JK 5H 6H 7H 8H")).expect("a run of 4");
        assert_eq!(l.melds[0].1, parse_cards("5H 6H 7H 8H").unwrap());
    }

    /// Wild cards alone make two runs that may not share a suit: an all-wild run is tried in
    /// every suit, not in the first suit only.
    #[test]
    fn two_all_wild_runs_take_two_suits() {
        let id = crate::rules::disputes::DisputeId::SameSuitRunsInContract;
        let rules = load("push", &[(id, "forbidden".into())]).unwrap().rules;
        let l = laydown(&rules, &[run(4), run(4)], &hand("JK JK JK JK JK JK JK JK"))
            .expect("two runs of four jokers");
        assert_eq!(l.melds.len(), 2);
    }

    /// Where twos are natural in sets and a wild stands for an exact card, a wild 2 may stand for
    /// another 2 in a set of twos: 2♠ 2♥ and a second 2♠ (for 2♦ or 2♣) are a set beside three
    /// sevens, with no other way to make two sets (all-wild melds and two sets of one rank
    /// forbidden).
    #[test]
    fn a_wild_two_stands_for_another_two_in_a_set_of_twos() {
        use crate::rules::disputes::DisputeId as D;
        let readings = [
            (D::NaturalTwos, "runs-and-sets".into()),
            (D::WildInSetRepresents, "exact-card".into()),
            (D::AllWildMelds, "forbidden".into()),
            (D::SameRankSets, "forbidden".into()),
        ];
        let rules = load("push", &readings).unwrap().rules;
        let l = laydown(&rules, &[set(3), set(3)], &hand("2S 2S 2H 7S 7H 7D"))
            .expect("a set of twos and a set of sevens");
        let twos = l
            .melds
            .iter()
            .find(|(_, cards)| cards.contains(&Card::new(Rank::Two, Suit::Hearts)));
        assert_eq!(twos.expect("the 2♥ is laid down").1.len(), 3);
    }

    /// Runs of two sizes each search their own list of windows from its start: a run of 5 in
    /// hearts and a run of 4 in spades, whichever the contract names first.
    #[test]
    fn runs_of_two_sizes_each_search_all_their_windows() {
        let rules = load("push", &[]).unwrap().rules;
        let h = hand("5H 6H 7H 8H 9H 5S 6S 7S 8S");
        for contract in [[run(4), run(5)], [run(5), run(4)]] {
            assert!(laydown(&rules, &contract, &h).is_some(), "{contract:?}");
        }
    }

    /// `may_hold_any` says no only where the hand makes no meld of the size: no rank with enough
    /// cards and wilds for a set, no window of one suit (of any suits, where runs mix them) with
    /// enough for a run, and no run longer than the line.
    /// The relaxed check's cost of equal sets (the cheapest steps) against every choice of ranks
    /// for them, on random counts under every combination of the readings it weighs.
    /// `suits_per_rank` counts each rank's suits in a mask; `lanes_equal` finds the ranks of
    /// each count.
    #[test]
    fn suits_per_rank_counts_the_suits_of_each_rank() {
        let mut rng = crate::base::rng::Rng::new(7);
        for _ in 0..20_000 {
            let cards = rng.next_u64() & ((1 << 53) - 1);
            let lanes = suits_per_rank(cards);
            for v in 0..=4 {
                let want = (0..13)
                    .filter(|&r| (0..4).filter(|s| cards >> (13 * s + r) & 1 == 1).count() == v)
                    .fold(0u16, |m, r| m | 1 << r);
                assert_eq!(lanes_equal(lanes, v), want, "{cards:#x}, {v} suits");
            }
        }
    }

    #[test]
    fn equal_sets_cost_the_cheapest_choice_of_ranks() {
        fn brute(shape: &SetsShape, counts: &[u8; crate::base::card::KINDS]) -> Option<usize> {
            // Non-decreasing rank sequences: each multiset of ranks once.
            fn go(
                shape: &SetsShape,
                counts: &[u8; 53],
                from: usize,
                ranks: &mut Vec<usize>,
            ) -> Option<usize> {
                if ranks.len() == shape.sets {
                    let mut cost = 0;
                    for r in 0..13 {
                        let j = ranks.iter().filter(|&&x| x == r).count();
                        if j == 0 {
                            continue;
                        }
                        let k: Vec<usize> =
                            (0..4).map(|s| usize::from(counts[13 * s + r])).collect();
                        let total: usize = k.iter().sum();
                        if (r == 1 && !shape.twos)
                            || (shape.distinct && j > 1)
                            || (total == 0 && !shape.all_wild)
                        {
                            return None;
                        }
                        let usable: usize = if shape.forbid_dup {
                            k.iter().map(|&c| c.min(j)).sum()
                        } else {
                            total
                        };
                        cost += (j * shape.size).saturating_sub(usable);
                    }
                    return Some(cost);
                }
                (from..13)
                    .filter_map(|r| {
                        ranks.push(r);
                        let c = go(shape, counts, r, ranks);
                        ranks.pop();
                        c
                    })
                    .min()
            }
            go(shape, counts, 0, &mut Vec::new())
        }
        let mut rng = crate::base::rng::Rng::new(41);
        let mut answers = [0; 2];
        for case in 0..4000u32 {
            let bit = |b: u32| case >> b & 1 == 1;
            let shape = SetsShape {
                sets: 1 + rng.below(4) as usize,
                size: 3 + rng.below(3) as usize,
                distinct: bit(0),
                forbid_dup: bit(1),
                all_wild: bit(2),
                twos: bit(3),
            };
            // A few ranks, with copies of some suits: in every other case at most two of a
            // card (two decks, the count by groups), otherwise any number (rank by rank).
            let mut counts = [0u8; crate::base::card::KINDS];
            for _ in 0..rng.below(16) {
                // Twos too (rank index 1): a set of them only where twos may be natural.
                let r = [0, 1, 4, 8][rng.below(4) as usize];
                let card = 13 * rng.below(4) as usize + r;
                if case % 2 == 0 || counts[card] < 2 {
                    counts[card] += 1;
                }
            }
            let present = (0..crate::base::card::KINDS)
                .filter(|&i| counts[i] > 0)
                .fold(0u64, |m, i| m | 1 << i);
            let copies = counts.iter().any(|&k| k > 1);
            let cost = shape.cost(&counts, present, copies);
            assert_eq!(cost, brute(&shape, &counts), "{case}: {counts:?}");
            assert_eq!(shape.cost_by_ranks(&counts), cost, "{case}: {counts:?}");
            answers[usize::from(cost.is_some())] += 1;
        }
        assert!(answers.iter().all(|&n| n > 100), "{answers:?}");
    }

    /// `fill` builds its network only where the first flow falls short: where that flow fills
    /// every chosen template, its melds are the network's. Random hands of the Push pack, random
    /// templates of the contracts' lists, under readings that change the network.
    #[test]
    fn the_first_flow_is_the_networks_where_it_fills() {
        use crate::rules::disputes::DisputeId as D;
        let switches: [(D, &[&str]); 6] = [
            (D::AllWildMelds, &["allowed", "forbidden"]),
            (D::SetDuplicateSuits, &["forbidden", "allowed"]),
            (D::WildInSetRepresents, &["rank-only", "exact-card"]),
            (D::NaturalTwos, &["runs-only", "runs-and-sets", "never"]),
            (D::RunSuits, &["same-suit", "any-suits"]),
            (D::SetMaxSize, &["4", "unlimited"]),
        ];
        let push = load("push", &[]).unwrap().rules;
        let pack = crate::engine::game::pack(&push, 4);
        let mut rng = crate::base::rng::Rng::new(29);
        let (mut filled, mut decided, mut differ) = (0, 0, 0);
        for _ in 0..20_000 {
            let mut rules = push.clone();
            for (id, names) in switches {
                let name = names[rng.below(names.len() as u64) as usize];
                assert!(rules.set_reading(id, name), "{id:?}={name}");
            }
            rules.refresh();
            // Hands near melds: cards of a few ranks and of one suit's stretch, and some wilds.
            let mut cards = Vec::new();
            for _ in 0..8 + rng.below(8) {
                let c = pack[rng.below(pack.len() as u64) as usize];
                let near = Card::new(
                    Rank::ALL[4 + rng.below(4) as usize],
                    Suit::ALL[rng.below(2) as usize],
                );
                cards.push(if rng.below(2) == 0 { c } else { near });
            }
            let hand = Counts::from_cards(&cards);
            let contract = &push.rounds[rng.below(push.rounds.len() as u64) as usize].contract;
            let (naturals, _) = read_hand(&rules, contract, &hand);
            let (mut sets, mut runs, mut without) = (Vec::new(), Vec::new(), Vec::new());
            let set_count = contract.iter().filter(|c| c.kind == MeldKind::Set).count();
            set_templates(&rules, &hand, set_count, &mut sets);
            run_templates(&rules, &naturals.places, contract, &mut runs, &mut without);
            // One template per contract meld, most often among the first of its list.
            let mut chosen = Vec::new();
            for &c in contract {
                let list = match c.kind {
                    MeldKind::Set => &sets,
                    MeldKind::Run => &runs[usize::from(c.size)],
                };
                if list.is_empty() {
                    break;
                }
                let k = rng.below(list.len().min(4) as u64) as usize;
                chosen.push((c, list[k].0));
            }
            if chosen.len() < contract.len() {
                continue;
            }
            let whole = fill(&rules, &hand, &chosen, None, &mut Flow::default());
            filled += usize::from(whole.is_some());
            if let Some(first) = first_flow(&rules, &hand, &chosen) {
                decided += 1;
                assert_eq!(Some(first), whole, "{hand:?} {chosen:?}");
            } else {
                differ += usize::from(whole.is_some());
            }
        }
        // The shortcut answers most of the networks that fill; those it leaves to the network
        // are fewer (and exist: the network is still needed).
        assert!(
            decided > 2 * differ && differ > 0,
            "{decided} {differ} of {filled}"
        );
    }

    /// Two runs of one suit whose naturals lie far apart: the pair of windows holds one each
    /// (the relaxed check must not count the pool's one best window twice, nor once only), and
    /// the wilds fill the rest.
    #[test]
    fn two_runs_of_one_suit_far_apart_hold_a_natural_each() {
        let rules = load("push", &[]).unwrap().rules;
        let runs = [run(4), run(4)];
        assert!(laydown(&rules, &runs, &hand("5H 10H JK JK JK JK JK JK")).is_some());
        assert!(laydown(&rules, &runs, &hand("5H 10H 3C JK JK JK JK JK")).is_none());
    }

    /// Sets longer than the relaxed check's table of steps (`SET_STEPS`) are weighed the general
    /// way: two of sixteen cards, where sets have no size limit and suits may repeat.
    #[test]
    fn a_set_beyond_the_step_table_is_weighed_too() {
        use crate::rules::disputes::DisputeId as D;
        let rules = push_with(&[
            (D::SetMaxSize, "unlimited"),
            (D::SetDuplicateSuits, "allowed"),
        ]);
        let size = u8::try_from(SET_STEPS).unwrap();
        let mut cards = hand("7S 7S 7H 7H 7D 7D 7C 7C 9S 9S 9H 9H 9D 9D 9C 9C");
        for _ in 0..16 {
            cards.add(Card::JOKER);
        }
        assert!(laydown(&rules, &[set(size), set(size)], &cards).is_some());
        cards.remove(Card::JOKER);
        cards.add(Card::new(Rank::King, Suit::Spades));
        assert!(laydown(&rules, &[set(size), set(size)], &cards).is_none());
    }

    /// `first_flow` takes a 2 as a natural only where a 2 may stand for itself, and as a wild
    /// only where twos are wild: on any template, its answer is the network's where it fills.
    #[test]
    fn the_first_flow_takes_a_two_as_the_rules_say() {
        use crate::rules::disputes::DisputeId as D;
        let same = |rules: &Rules, h: &str, c: Component, t: Template| {
            let quick = first_flow(rules, &hand(h), &[(c, t)]);
            let whole = fill(rules, &hand(h), &[(c, t)], None, &mut Flow::default());
            assert_eq!(quick.clone().or(whole.clone()), whole, "{h}");
            quick
        };
        // A 2 that may not stand for itself in a run cannot be the natural card a meld needs
        // where all-wild melds are forbidden.
        let never = push_with(&[(D::NaturalTwos, "never"), (D::AllWildMelds, "forbidden")]);
        let low = Template::Run {
            suit: Some(Suit::Hearts),
            start: 0,
        };
        assert_eq!(same(&never, "2H JK JK", run(3), low), None);
        // Where twos are not wild, a 2 fills nothing but a place of its own rank.
        let mut plain = load("push", &[]).unwrap().rules;
        plain.twos_wild = false;
        plain.refresh();
        let sevens = Template::Set { rank: Rank::Seven };
        assert_eq!(same(&plain, "7S 7H 2C", set(3), sevens), None);
        assert!(same(&plain, "7S 7H 2C JK", set(3), sevens).is_some());
    }

    /// `laydown`'s shortcut for one meld decides the usual cases itself, with the search's
    /// answer: the first template its bounds let through, filled by the first flow; none where
    /// no template gets through them.
    #[test]
    fn one_meld_is_decided_without_the_search() {
        let rules = load("push", &[]).unwrap().rules;
        let decided = |h: &str, c: Component| {
            let answer = one_meld(&rules, c, &hand(h));
            let searched = search_laydown(&rules, &[c], &hand(h));
            assert_eq!(
                answer.clone().map(|a| a.map(|cards| vec![(c, cards)])),
                Some(searched.map(|l| l.melds)),
                "{h}"
            );
            answer.expect("decided")
        };
        // A laydown's cards come in canonical order.
        let cards = |s: &str| {
            let mut v = parse_cards(s).unwrap();
            v.sort();
            v
        };
        // Sets: the rank with the most naturals (the lower rank at a tie), a wild where short.
        assert_eq!(decided("7S 7H 9D 9C 9H", set(3)), Some(cards("9H 9D 9C")));
        assert_eq!(decided("7S 7H 9D 9C KH", set(3)), None);
        assert_eq!(decided("7S 7H 9D 9C 2C", set(3)), Some(cards("7S 7H 2C")));
        // Suits may not repeat in a Push set: two 7S are one natural to the bounds, so the 9s.
        assert_eq!(decided("7S 7S 9D 9C 2C", set(3)), Some(cards("9D 9C 2C")));
        // Where a 2 may be natural in a set, a set of twos under rank-only takes only jokers
        // beside its natural twos: a second 2S (its suit is there already) may not fill it, the
        // first flow falls short and the search decides (on the 5s, with the 2s as wilds).
        let twos = push_with(&[(
            crate::rules::disputes::DisputeId::NaturalTwos,
            "runs-and-sets",
        )]);
        let h = hand("2S 2S 2H 5C");
        assert_eq!(one_meld(&twos, set(3), &h), None);
        assert_eq!(
            laydown(&twos, &[set(3)], &h).map(|l| l.melds),
            Some(vec![(set(3), cards("2S 2S 5C"))])
        );
        // No rank with a natural (a 2 is not natural in a Push set): an all-wild set, and none
        // where all-wild melds are forbidden.
        assert_eq!(decided("2C JK JK", set(3)), Some(cards("2C JK JK")));
        let anchored = push_with(&[(crate::rules::disputes::DisputeId::AllWildMelds, "forbidden")]);
        assert_eq!(one_meld(&anchored, set(3), &hand("2C JK JK")), Some(None));
        // Runs: the hearts hold two places of A-2-3 and of 2-3-4 (before the clubs' two of
        // 4-5-6), but one of them is the wild 2, which the bounds count among the wilds only
        // (and the 9H lies in neither window): neither can be filled, and 4-5-6 of clubs is the
        // first that can.
        assert_eq!(
            decided("2H 3H 9H 5C 6C", run(3)),
            Some(cards("2H 5C 6C")),
            "the search's bounds pass over the hearts"
        );
        assert_eq!(decided("5H 6H 9H", run(3)), None);
        assert_eq!(decided("5H 6H 9H JK", run(3)), Some(cards("5H 6H JK")));
    }

    #[test]
    fn may_hold_any_asks_for_some_meld_of_the_size() {
        let rules = load("push", &[]).unwrap().rules;
        let any = |h: &str, c: Component| Reach::new(&rules, &hand(h)).may_hold_any(&rules, c);
        assert!(!any("7S 8H 9D 9C", set(3)));
        assert!(any("7S 8H 9D 9C JK", set(3)));
        assert!(any("JK JK 2C", set(3)), "all wild");
        assert!(!any("5H 6H 9H 10S", run(3)));
        assert!(any("5H 6H 9H JK", run(3)));
        assert!(!any("5H 6S 7D", run(3)), "runs keep one suit");
        let mut mixed = rules.clone();
        assert!(mixed.set_reading(crate::rules::disputes::DisputeId::RunSuits, "any-suits"));
        assert!(Reach::new(&mixed, &hand("5H 6S 7D")).may_hold_any(&mixed, run(3)));
        let line = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK";
        let longest = u8::try_from(rules.max_run()).unwrap();
        assert!(any(line, run(longest)), "a run as long as the rules allow");
        assert!(!any(&format!("{line} JK JK"), run(longest + 1)));
    }

    /// `may_hold` turns a card away only where no meld of the component could hold it: a set
    /// needs enough of the card's rank with the wilds, a run enough naturals of its suit in a
    /// window through the card's own place.
    #[test]
    fn may_hold_asks_for_a_meld_through_the_card() {
        let rules = load("push", &[]).unwrap().rules;
        let held = |h: &str, c: Component, card: &str| {
            let card = parse_cards(card).unwrap()[0];
            may_hold(&rules, c, &hand(h), card)
        };
        // Sets: the card's rank, with the wilds (a 2 counts as one).
        assert!(held("7S 7H 7D 9D", set(3), "7S"));
        assert!(!held("7S 7H 9D 9C", set(3), "7S"));
        assert!(held("7S 7H 9D 2C", set(3), "7S"));
        assert!(!held("7S 7H 9D 2C", set(3), "9D"));
        assert!(held("7S 9H 9D JK 2C", set(4), "9H"));
        // Runs: a window through the card's place, of its suit.
        assert!(held("5H 6H 7H", run(3), "5H"));
        assert!(!held("5H 6H 9H", run(3), "9H"));
        assert!(held("5H 6H 9H JK", run(3), "5H"));
        assert!(
            !held("5H 6H 9H JK", run(3), "9H"),
            "5-6-7 is not through the 9"
        );
        assert!(held("5H 6H 9H JK JK", run(3), "9H"));
        assert!(!held("5H 6S JK", run(3), "5H"), "runs keep one suit");
        assert!(held("KH QH AH", run(3), "AH"), "the ace above the king");
        // Wild cards always pass; no run is longer than the line.
        assert!(held("5H", run(3), "JK"));
        assert!(!held(
            "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK JK",
            run(15),
            "5H"
        ));
        let longest = u8::try_from(rules.max_run()).unwrap();
        assert!(
            held(
                "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK",
                run(longest),
                "5H"
            ),
            "a run as long as the rules allow"
        );
        // A wild 2 counts among the wilds, and fills its own place in a run as well only where a
        // 2 may stand for itself there (the question may count it twice: the search decides).
        assert!(held("2H 3H", run(3), "4H"));
        let mut never = rules.clone();
        assert!(never.set_reading(crate::rules::disputes::DisputeId::NaturalTwos, "never"));
        let four = Card::new(Rank::Four, Suit::Hearts);
        assert!(!may_hold(&never, run(3), &hand("2H 3H"), four));
        assert!(may_hold(&never, run(3), &hand("2H 3H JK"), four));
        let mut any = rules.clone();
        assert!(any.set_reading(crate::rules::disputes::DisputeId::RunSuits, "any-suits"));
        assert!(may_hold(
            &any,
            run(3),
            &hand("5H 6S JK"),
            Card::new(Rank::Five, Suit::Hearts)
        ));
        // Where twos are not wild, they fill no set of another rank.
        let mut natural_twos = rules.clone();
        natural_twos.twos_wild = false;
        let seven = Card::new(Rank::Seven, Suit::Spades);
        assert!(!may_hold(&natural_twos, set(3), &hand("7S 2H 2D"), seven));
        assert!(may_hold(&rules, set(3), &hand("7S 2H 2D"), seven));
    }

    /// Where all-wild melds are forbidden, sets of two sizes are made of naturals: three sevens
    /// and four nines meet a set of 3 and a set of 4, and the quick check lets the hand through;
    /// wild cards and a single natural seven meet nothing.
    #[test]
    fn sets_of_two_sizes_without_all_wild_melds() {
        let id = crate::rules::disputes::DisputeId::AllWildMelds;
        let rules = load("push", &[(id, "forbidden".into())]).unwrap().rules;
        let contract = [set(3), set(4)];
        let h = hand("7S 7H 7D 9S 9H 9D 9C");
        assert_met(&rules, &contract, &h, "");
        assert!(laydown(&rules, &contract, &hand("7S JK JK JK JK 2C 2D")).is_none());
    }

    #[test]
    fn sets_of_two_sizes_in_either_order() {
        let rules = load("push", &[]).unwrap().rules;
        let h = hand("7S 7H 7D 7C 9S 9H 9D");
        for contract in [[set(4), set(3)], [set(3), set(4)]] {
            assert_met(&rules, &contract, &h, "");
        }
    }

    #[test]
    fn wild_cards_alone_and_twos_in_sets() {
        use crate::rules::disputes::DisputeId;
        let rules = load("push", &[]).unwrap().rules;
        // An all-wild set (allowed in Push) beside a natural one.
        let h = hand("7S 7H 7D JK JK 2C");
        assert_met(&rules, &[set(3), set(3)], &h, "");
        // The same where two sets may not share a rank: the wild set takes a rank of its own.
        let id = DisputeId::from_id("same-rank-sets").unwrap();
        let distinct = load("push", &[(id, "forbidden".into())]).unwrap().rules;
        assert_met(&distinct, &[set(3), set(3)], &h, "");
        // Two twos are two wild cards, not a pair: no set of three.
        assert!(!quick_check(&rules, &[set(3)], &hand("2S 2H")));
        // Where all-wild melds are forbidden, three twos (wild in sets) make no set.
        let id = DisputeId::from_id("all-wild-melds").unwrap();
        let rules = load("push", &[(id, "forbidden".into())]).unwrap().rules;
        assert!(laydown(&rules, &[set(3)], &hand("2S 2H 2D")).is_none());
        // Nor do four jokers make a run, and the quick check says so without a search: a window
        // of the line with no natural card in it is no place for a run.
        let run_of_4 = [run(4)];
        let jokers = hand("JK JK JK JK");
        assert!(!quick_check(&rules, &run_of_4, &jokers));
        assert!(laydown(&rules, &run_of_4, &jokers).is_none());
        // Where twos are never natural, a 2 at its own place is a wild card too: with three
        // jokers it makes no run when a run needs a natural card.
        let never = load(
            "push",
            &[
                (DisputeId::NaturalTwos, "never".into()),
                (DisputeId::AllWildMelds, "forbidden".into()),
            ],
        )
        .unwrap()
        .rules;
        assert!(laydown(&never, &run_of_4, &hand("2S JK JK JK")).is_none());
        assert!(laydown(&never, &run_of_4, &hand("3S JK JK JK")).is_some());
    }

    /// A wild 2 that may also stand for itself in a run is one card: the quick check counts it
    /// among the wilds and not again as a natural. Here 2♥ and 2♦ are the only wilds; hearts
    /// A 4 5 give each window at most two naturals, so two runs of 4 need four wilds. (Counted
    /// twice, the 2♥ made each window A-4 and 2-5 hold three, and the hand went on to a search.)
    /// Yet the 2 still anchors a run where every run needs a natural card.
    #[test]
    fn a_wild_two_is_not_also_counted_as_a_natural() {
        use crate::rules::disputes::DisputeId;
        let rules = load("push", &[]).unwrap().rules;
        assert!(rules.twos_wild && rules.natural_two_in_runs());
        let h = hand("3S AH 2H 4H 5H 9H QH 2D AC 6C 8C");
        assert!(!quick_check(&rules, &[run(4), run(4)], &h));
        assert!(laydown(&rules, &[run(4), run(4)], &h).is_none());
        // One more wild makes the count, and the search agrees that it is enough.
        let h = hand("3S AH 2H 4H 5H 9H QH 2D AC 6C 8C JK JK");
        assert_met(&rules, &[run(4), run(4)], &h, "");
        // A natural 2♠ and three jokers make A-2-3-4 or 2-3-4-5 even where a meld needs a natural
        // card: the 2 is the anchor.
        let anchored = load("push", &[(DisputeId::AllWildMelds, "forbidden".into())])
            .unwrap()
            .rules;
        let h = hand("2S JK JK JK");
        assert_met(&anchored, &[run(4)], &h, "");
    }

    /// `fill` starts from a first flow along the obvious paths: where that fills every template
    /// no augmenting path is searched for, and where it gives a card to the wrong template the
    /// search still moves it (here the 7S, which an anchored set of sevens needs).
    #[test]
    fn the_first_flow_leaves_the_search_little_to_do() {
        use crate::rules::disputes::DisputeId;
        let mut rules = load("push", &[]).unwrap().rules;
        let run_4_to_7 = Template::Run {
            suit: Some(Suit::Spades),
            start: 3,
        };
        let sevens = Template::Set { rank: Rank::Seven };
        let chosen = [(run(4), run_4_to_7), (set(3), sevens)];
        let mut g = Flow::default();
        let melds =
            fill(&rules, &hand("7S 7H 7D 4S 5S 6S JK"), &chosen, None, &mut g).expect("fills");
        assert_eq!(g.pass, 0, "no augmenting path searched for");
        assert_eq!(melds[0].1, parse_cards("4S 5S 6S 7S").unwrap());
        assert_eq!(melds[1].1, parse_cards("7H 7D JK").unwrap());

        // Where every meld needs a natural card, the first flow gives each template its one
        // natural card first, and the obvious fill still needs no search.
        rules.set_reading(DisputeId::AllWildMelds, "forbidden");
        let melds =
            fill(&rules, &hand("7S 7H 7D 4S 5S 6S JK"), &chosen, None, &mut g).expect("fills");
        assert_eq!(g.pass, 0, "no augmenting path searched for, anchored");
        assert_eq!(melds[0].1, parse_cards("4S 5S 6S 7S").unwrap());
        assert_eq!(melds[1].1, parse_cards("7H 7D JK").unwrap());

        let h = hand("7S 4S 5S 6S JK JK JK");
        let melds = fill(&rules, &h, &chosen, None, &mut g).expect("fills");
        assert!(g.pass > 0, "the search moved the 7S");
        assert_eq!(melds[0].1, parse_cards("4S 5S 6S JK").unwrap());
        assert_eq!(melds[1].1, parse_cards("7S JK JK").unwrap());
    }

    /// The pruning bound counts shared cards once. Push forbids repeated suits in a set: a first
    /// set of 3 sevens can hold three of 7♠ 7♠ 7♥ 7♦, a second only the other 7♠. Two runs in
    /// spades share the suit's natural cards: 3♠ 4♠ 5♠ 6♠ give two windows of four at most four
    /// between them. Where suits may repeat, the second set gets the fourth seven too.
    #[test]
    fn the_pruning_bound_counts_shared_cards_once() {
        use crate::rules::disputes::DisputeId;
        let bound = |rules: &Rules,
                     h: &Counts,
                     chosen: &[(Component, Template)],
                     c: Component,
                     t: Template| {
            let s = Search {
                rules,
                contract: &[],
                order: &[],
                sets: &[],
                runs: &[],
                hand: h,
                wilds: 0,
                pools: Pools::of(&run_naturals(rules, h)),
            };
            let st = State {
                chosen: &mut chosen.to_vec(),
                flow: &mut Flow::default(),
                out: None,
            };
            naturals_added(&s, c, &t, &st)
        };
        let push = load("push", &[]).unwrap().rules;
        let sevens = hand("7S 7S 7H 7D");
        let set7 = Template::Set { rank: Rank::Seven };
        let one_set = [(set(3), set7)];
        assert_eq!(bound(&push, &sevens, &[], set(3), set7), 3);
        assert_eq!(bound(&push, &sevens, &one_set, set(3), set7), 1);
        let repeat = load("push", &[(DisputeId::SetDuplicateSuits, "allowed".into())])
            .unwrap()
            .rules;
        assert_eq!(bound(&repeat, &sevens, &one_set, set(3), set7), 1);
        assert_eq!(bound(&repeat, &sevens, &[], set(3), set7), 3);
        let spades = hand("3S 4S 5S 6S 9H");
        let at = |suit: Suit, start: usize| Template::Run {
            suit: Some(suit),
            start,
        };
        let low = at(Suit::Spades, 2);
        let one_run = [(run(4), low)];
        assert_eq!(bound(&push, &spades, &[], run(4), low), 4);
        assert_eq!(
            bound(&push, &spades, &one_run, run(4), at(Suit::Spades, 4)),
            0
        );
        assert_eq!(
            bound(&push, &spades, &one_run, run(4), at(Suit::Hearts, 7)),
            1
        );
        // Two runs in one window: a second card at a place only where the hand has two. Seven
        // spades would give the second run three more naturals by the suit's count alone.
        let long = hand("3S 4S 5S 6S 9S 10S JS");
        assert_eq!(bound(&push, &long, &one_run, run(4), low), 0);
        let five_twice = hand("3S 4S 5S 5S 6S 9S 10S JS");
        assert_eq!(bound(&push, &five_twice, &one_run, run(4), low), 1);
        // A wild 2 that may stand for itself counts among the wilds, not at its place as well.
        let ace_two_three = hand("AS 2S 3S");
        assert_eq!(
            bound(&push, &ace_two_three, &[], run(3), at(Suit::Spades, 0)),
            2
        );
    }

    /// A run's natural cards: a 2 is one where twos may stand for themselves in runs (Push), and
    /// not where they are always wild (`natural-twos=never`), and it is plain only where twos are
    /// not wild; an ace has two places on Push's line but is one card; a rank off the line (the 2
    /// where it is not in sequence) is none.
    #[test]
    fn run_naturals_count_twos_only_where_they_may_be_natural() {
        use crate::rules::disputes::DisputeId;
        let push = load("push", &[]).unwrap().rules;
        let never = load("push", &[(DisputeId::NaturalTwos, "never".into())])
            .unwrap()
            .rules;
        let h = hand("AS 2S 3S 4S 9H");
        let place = |rules: &Rules, rank: Rank| rules.rank_places[usize::from(rank.number()) - 1];
        let n = run_naturals(&push, &h);
        assert_eq!(
            n.places[0],
            place(&push, Rank::Ace)
                | place(&push, Rank::Two)
                | place(&push, Rank::Three)
                | place(&push, Rank::Four)
        );
        assert_eq!(place(&push, Rank::Ace).count_ones(), 2);
        // The 2♠ is wild all the same: without it, as the relaxed check counts.
        assert_eq!(n.plain[0], n.places[0] & !place(&push, Rank::Two));
        assert_eq!(n.plain_cards, [3, 1, 0, 0]);
        let n = run_naturals(&never, &h);
        assert_eq!(n.places[0] & place(&never, Rank::Two), 0);
        assert_eq!((n.plain, n.plain_cards), (n.places, [3, 1, 0, 0]));
        // Where twos are not wild, a 2 is as plain as any card.
        let mut natural = push.clone();
        natural.twos_wild = false;
        let n = run_naturals(&natural, &h);
        assert_eq!((n.plain, n.plain_cards), (n.places, [4, 1, 0, 0]));
        // Nor is a 2 off the line a natural of a run, wild or not.
        let mut off = natural.clone();
        off.two_in_sequence = false;
        off.refresh();
        assert_eq!(place(&off, Rank::Two), 0);
        assert_eq!(run_naturals(&off, &h).plain_cards, [3, 1, 0, 0]);
    }

    /// Where runs may mix suits the suits' anchors are pooled: two fives of different suits
    /// anchor the same place, once. 5♠ with two jokers is a run of three where every meld needs a
    /// natural card (the 5♥ stays in hand).
    #[test]
    fn anchors_of_two_suits_at_one_place_pool() {
        use crate::rules::disputes::DisputeId;
        let mixed = load(
            "push",
            &[
                (DisputeId::AllWildMelds, "forbidden".into()),
                (DisputeId::RunSuits, "any-suits".into()),
            ],
        )
        .unwrap()
        .rules;
        let h = hand("5S 5H JK JK");
        assert_met(&mixed, &[run(3)], &h, "");
    }

    #[test]
    fn the_longest_run_five_runs_and_a_shared_ace_are_judged() {
        for name in crate::rules::GAMES {
            let rules = load(name, &[]).unwrap().rules;
            // A run as long as the rank line allows, from a hand holding every rank of a suit.
            let longest = vec![run(u8::try_from(rules.max_run()).unwrap())];
            let suit: Vec<Card> = Rank::ALL
                .iter()
                .map(|&r| Card::new(r, Suit::Spades))
                .collect();
            let h = Counts::from_cards(&suit);
            assert_met(&rules, &longest, &h, name);
            // Five runs of three from a hand with no two neighbouring cards of a suit.
            let five = vec![run(3); 5];
            let h = hand("AS 5H 9D KC 3S 7H JD 6C");
            assert!(!quick_check(&rules, &five, &h), "{name}");
            assert!(laydown(&rules, &five, &h).is_none(), "{name}");
        }
        // Five runs of three from a hand that holds them (two in spades, where runs may share a
        // suit): the quick check judges each run alone and lets the hand through.
        let id = crate::rules::disputes::DisputeId::SameSuitRunsInContract;
        let rules = load("push", &[(id, "allowed".into())]).unwrap().rules;
        let h = hand("4S 5S 6S 4H 5H 6H 4D 5D 6D 4C 5C 6C 8S 9S 10S");
        assert_met(&rules, &[run(3); 5], &h, "");
        // Push puts the ace at both ends of the line: one ace is still one card, so A-2-3-4 and
        // J-Q-K-A of one suit cannot both be made from it (twos natural here, so that the 2 is
        // not also counted as a wild).
        let rules = crate::rules::load_text(
            "natural-twos.yaml",
            "extends: push\ngame: natural-twos\nwilds: {twos: false}\n",
            std::path::Path::new("."),
        )
        .unwrap()
        .rules;
        let two = vec![run(4); 2];
        let h = hand("AS 2S 3S 4S JS QS KS");
        assert!(!quick_check(&rules, &two, &h));
        assert!(laydown(&rules, &two, &h).is_none());
        assert!(quick_check(&rules, &two, &hand("AS 2S 3S 4S JS QS KS AS")));
    }
}
