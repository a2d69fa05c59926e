//! A contract of one meld answered without the search ([`one_meld`]: the built-in players ask
//! for a run or a set after their contract at every turn), and the flow network's first flow
//! without the network ([`first_flow`]). Both give exactly the search's answer where they give
//! one: `tests/integration/laydown.rs` (`one_meld_is_laid_down_as_the_search_lays_it_down`) compares
//! [`laydown`] with [`search_laydown`] card for card, and the unit tests
//! `the_first_flow_is_the_networks_where_it_fills` and `one_meld_is_decided_without_the_search`
//! hold each to the plain path.
//!
//! [`laydown`]: super::laydown
//! [`search_laydown`]: super::search_laydown

use super::hand::{run_naturals, wilds_in};
use super::search::Pools;
use super::templates::{Template, place_cards, run_natural_at, set_natural, template_allowed};
use crate::base::card::{Card, Counts, Rank, Suit};
use crate::rules::Rules;
use crate::rules::disputes::reading;
use crate::rules::spec::{Component, MeldKind};

/// [`laydown`] of the one meld `comp`, where it needs no search: `Some(answer)`, the answer
/// [`search_laydown`] gives, or `None` where only the search can tell.
///
/// It walks the templates in `choose`'s order ([`set_templates`], [`run_templates`]) with the
/// same bounds. Where no template passes them, the search finds nothing either. At the first
/// that passes, it runs only the first flow of [`fill`] (naturals in order, then wild 2s by
/// suit, then jokers): where that fills the meld, the network carries nothing more and `fill`
/// reads the same cards back, so this is the search's laydown. Where it falls short, augmenting
/// paths might still fill the meld, or the search goes on to the next template: undecided.
///
/// [`laydown`]: super::laydown
/// [`search_laydown`]: super::search_laydown
/// [`set_templates`]: super::templates::set_templates
/// [`run_templates`]: super::templates::run_templates
/// [`fill`]: super::flow::fill
pub(super) fn one_meld(rules: &Rules, comp: Component, hand: &Counts) -> Option<Option<Vec<Card>>> {
    // With nothing chosen before, whether a template is allowed depends on its kind alone.
    let any = match comp.kind {
        MeldKind::Set => Template::Set { rank: Rank::Ace },
        MeldKind::Run => Template::Run {
            suit: None,
            start: 0,
            gaps: 0,
        },
    };
    if !template_allowed(rules, comp, &any, &[]) {
        // `choose` tries no template.
        return Some(None);
    }
    let wilds = wilds_in(rules, hand);
    let all_wild = rules.readings.all_wild_melds == reading::AllWildMelds::Allowed;
    match comp.kind {
        MeldKind::Set => one_set(rules, comp, hand, wilds, all_wild),
        MeldKind::Run => one_run(rules, comp, hand, wilds, all_wild),
    }
}

/// [`one_meld`] of a set: the first rank in [`set_templates`]' order that passes the search's
/// bounds, filled by the first flow.
///
/// [`set_templates`]: super::templates::set_templates
fn one_set(
    rules: &Rules,
    comp: Component,
    hand: &Counts,
    wilds: usize,
    all_wild: bool,
) -> Option<Option<Vec<Card>>> {
    let n = usize::from(comp.size);
    let forbid = rules.readings.set_duplicate_suits == reading::SetDuplicateSuits::Forbidden;
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

/// [`one_meld`] of a run: the first window in [`run_templates`]' order that passes the search's
/// bounds, filled by the first flow.
///
/// [`run_templates`]: super::templates::run_templates
fn one_run(
    rules: &Rules,
    comp: Component,
    hand: &Counts,
    wilds: usize,
    all_wild: bool,
) -> Option<Option<Vec<Card>>> {
    let n = usize::from(comp.size);
    if n > rules.max_run() {
        return Some(None);
    }
    let naturals = run_naturals(rules, hand);
    let pools = Pools::of(&naturals);
    let suits: &[Option<Suit>] = if rules.readings.run_suits == reading::RunSuits::SameSuit {
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
    let without = suits
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
        let t = Template::Run {
            suit,
            start,
            gaps: 0,
        };
        return first_flow(rules, hand, &[(comp, t)]).map(|mut m| m.pop().map(|m| m.1));
    }
    Some(None)
}

/// The melds [`fill`]'s first flow makes of the `chosen` templates, where it fills them all;
/// `None` where it falls short (only the whole network can tell then). The same steps in the
/// same order as `fill`'s, template by template, without building the network: naturals (a
/// run's one per place) into the template, one of them first into its edge for the natural card
/// an anchored meld needs ([`FirstFlow::naturals_into`]), then wild 2s by suit and jokers into
/// what is left open ([`FirstFlow::wilds_into`]). Where they fill every template, `fill`'s network
/// carries no more, and `fill` reads the same cards back: each template's naturals, and its count
/// of wilds dealt out from the wild 2s by suit and then the jokers that the wild pool passed on (a
/// set of twos under rank-only: jokers) ([`FirstFlow::deal_pooled_wilds`]).
///
/// [`fill`]: super::flow::fill
pub(super) fn first_flow(
    rules: &Rules,
    hand: &Counts,
    chosen: &[(Component, Template)],
) -> Option<Vec<(Component, Vec<Card>)>> {
    let mut flow = FirstFlow {
        rules,
        hand,
        anchored: rules.readings.all_wild_melds == reading::AllWildMelds::Forbidden,
        forbid: rules.readings.set_duplicate_suits == reading::SetDuplicateSuits::Forbidden,
        exact: rules.readings.wild_in_set_represents == reading::WildInSetRepresents::ExactCard,
        used: [0u8; crate::base::card::KINDS],
        twos_pooled: [0u8; 4],
        jokers_pooled: 0u8,
        jokers: hand.count(Card::JOKER),
    };
    let mut out = Vec::with_capacity(chosen.len());
    // Per template: its wild count, and whether only jokers reach it.
    let mut wilds = [(0usize, false); 16];
    if chosen.len() > wilds.len() {
        return None;
    }
    for (ti, &(comp, t)) in chosen.iter().enumerate() {
        let n = usize::from(comp.size);
        let (cards, all_sink, joker_only) = flow.naturals_into(comp, t);
        let w = flow.wilds_into(n.min(all_sink), joker_only);
        if cards.len() + w < n {
            return None;
        }
        wilds[ti] = (w, joker_only);
        out.push((comp, cards));
    }
    flow.deal_pooled_wilds(&mut out, &wilds);
    Some(out)
}

/// What [`first_flow`] reads and what it has taken so far.
struct FirstFlow<'a> {
    rules: &'a Rules,
    hand: &'a Counts,
    anchored: bool,
    forbid: bool,
    exact: bool,
    /// What the flow takes of each card kind's supply (as a natural or a wild), of each wild 2
    /// into the wild pool, and of the jokers into the pool.
    used: [u8; crate::base::card::KINDS],
    twos_pooled: [u8; 4],
    jokers_pooled: u8,
    /// The jokers in hand.
    jokers: u8,
}

impl FirstFlow<'_> {
    /// Template `t`'s naturals, in `fill`'s order, as far as its edges towards the sink take
    /// them: the cards, what is left of its edge from its node of all cards to the sink, and
    /// whether only jokers reach it (a set of twos under rank-only).
    #[inline]
    fn naturals_into(&mut self, comp: Component, t: Template) -> (Vec<Card>, usize, bool) {
        let (rules, hand, used) = (self.rules, self.hand, &mut self.used);
        let (anchored, forbid, exact) = (self.anchored, self.forbid, self.exact);
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
            Template::Run { suit, start, .. } => {
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
        (cards, all_sink, joker_only)
    }

    /// The wilds into what a template leaves `open`: wild 2s by suit through the pool, then
    /// jokers (straight in where only jokers reach it). How many.
    #[inline]
    fn wilds_into(&mut self, mut open: usize, joker_only: bool) -> usize {
        let (rules, hand, used) = (self.rules, self.hand, &mut self.used);
        let before = open;
        if !joker_only {
            for (s, pooled) in self.twos_pooled.iter_mut().enumerate() {
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
        let jokers = self.jokers;
        let mut left = jokers - used[Card::JOKER.index()];
        if !joker_only {
            left = left.min(jokers - self.jokers_pooled);
        }
        let f = open.min(usize::from(left));
        used[Card::JOKER.index()] += f as u8;
        if !joker_only {
            self.jokers_pooled += f as u8;
        }
        open -= f;
        before - open
    }

    /// The wilds the pool passed on, dealt out to the templates in order (`wilds`: each one's
    /// count, and whether only jokers reach it), and each meld's cards sorted.
    #[inline]
    fn deal_pooled_wilds(&self, out: &mut [(Component, Vec<Card>)], wilds: &[(usize, bool); 16]) {
        let mut pooled: [(Card, u8); 5] = std::array::from_fn(|i| match Suit::ALL.get(i) {
            Some(&s) => (Card::new(Rank::Two, s), self.twos_pooled[i]),
            None => (Card::JOKER, self.jokers_pooled),
        });
        for ((_, cards), &(w, joker_only)) in out.iter_mut().zip(wilds) {
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
    }
}
