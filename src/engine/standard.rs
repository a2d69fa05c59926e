//! The `standard` player: plays like a decent person, from what its seat sees.
//!
//! What it does, decision by decision:
//! - **The draw.** It takes the top discard when the card is of use. Before its contract: when
//!   the hand with it meets the contract, when it is wild, or, where declining it draws from the
//!   stock instead of pushing it, when it joins cards in hand towards the contract (a third of a
//!   rank where sets are wanted, a card close to others of its suit where runs are), and only
//!   while cards keep reaching the table ([`Style::patience`]). After its contract: when it is
//!   wild, lays off on the table or makes a new meld with the hand. Otherwise it pushes the card
//!   (or, where the rules have no push, draws from the stock): a push hands the neighbour two
//!   cards, which count against that side when the deal ends.
//! - **Its turn.** It lays the contract down as soon as it can; after it, it lays off its natural
//!   cards, rescues wilds from the table with the naturals they stand for, melds new runs and
//!   sets, and then lays off its wilds, so that it goes out whenever the rules let it.
//! - **The discard.** Every card gets a worth: a wild a lot, a card towards the melds still
//!   wanted (a pair or more of its rank for sets, others of its suit within a run's reach for
//!   runs) by how far along it is; less the card's points, which count against the hand when
//!   the deal ends. It discards the card worth least, and avoids feeding a card that lays off
//!   on the table to a next player past its contract.
//! - **Buying** ("May I", where the rules have it) and anything it cannot decide fall back to
//!   the greedy player's choice, asked of the same view.
//!
//! **It never sees hidden cards.** Every decision is made on a *view*: a copy of the game in
//! which everything the seat cannot see (the other hands, the stock, a face-down pushed card, the
//! generator and the pack orders of later deals) is replaced by a canonical stand-in: the unseen
//! cards, sorted, dealt back to the other hands and the stock in their sizes. The view is a
//! function of the seat's observation ([`crate::engine::observe`]: its hand, the table, the
//! discard pile, which every seat saw built, the sizes of the other hands and the stock) and the
//! rules, so swapping hidden cards cannot change a choice (`tests/integration/standard_player.rs`
//! holds this). Candidate actions are checked on the view with [`Game::accepts`]; what the
//! engine checks for them depends only on the seat's own cards, the table and the sizes.

use crate::base::card::{Card, Counts, KINDS, cards_in};
use crate::base::rng::Rng;
use crate::engine::bots::{self, Bot};
use crate::engine::game::{Action, Game, Stage};
use crate::oracle::contract;
use crate::rules::Rules;
use crate::rules::disputes::reading;
use crate::rules::spec::{Component, MeldKind};
use std::rc::Rc;

/// How much the standard player makes of a card, in points (set against the card's own points
/// when it chooses a discard), and when it takes the top discard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// A wild card.
    pub wild: i32,
    /// A card with one other natural card of its rank, where sets are wanted.
    pub pair: i32,
    /// A card with two or more others of its rank, where sets are wanted.
    pub triple: i32,
    /// A card with one, two, three or more natural cards of its suit within a run's reach.
    pub run: [i32; 3],
    /// The least worth of the top discard (in the hand with it) for it to be taken before the
    /// contract towards it, where declining it draws from the stock.
    pub take: i32,
    /// The same where declining it pushes it. The default is above every worth: a push hands
    /// the neighbour two cards, and pushing every card that neither completes the contract nor
    /// is wild wins more games of Push (docs/PLAYERS.md).
    pub take_over_push: i32,
    /// Rounds of turns without a card reaching the table after which a discard is taken before
    /// the contract only to complete it: where the stock does not run down (no push, no
    /// stall limit), players that keep taking each other's discards would play on for ever.
    pub patience: u32,
    /// Percent of a card's worth kept after the contract, where the melds wanted are new runs
    /// and sets of the least size.
    pub after: i32,
    /// Added to the worth of a card that lays off on the table when the next player is an
    /// opponent past the contract, so that it is discarded later.
    pub feed: i32,
}

impl Default for Style {
    fn default() -> Style {
        Style {
            wild: 60,
            pair: 14,
            triple: 30,
            run: [12, 24, 36],
            take: 14,
            take_over_push: 100,
            patience: 10,
            after: 100,
            feed: 12,
        }
    }
}

/// The standard player's next action for the seat to play, in the default style.
pub fn choose(game: &Game) -> Action {
    choose_with(&Style::default(), game)
}

/// The standard player's next action for the seat to play.
pub fn choose_with(style: &Style, game: &Game) -> Action {
    let seat = game.turn();
    let view = view(game, seat);
    let chosen = match view.deal.stage {
        Stage::Draw => draw(style, &view, seat),
        Stage::Play => play(style, &view, seat),
        Stage::Buy | Stage::Over => None,
    };
    match chosen {
        Some(a) if view.accepts(seat, &a) => a,
        _ => bots::choose(Bot::Greedy, &view, &mut Rng::new(0)),
    }
}

/// What `seat` sees of `game`, as a game: the hidden cards (other hands, the stock, a face-down
/// pushed card) sorted and dealt back in the same sizes, no generator state, no later pack
/// orders. Equal for two games that differ only in what the seat cannot see.
pub fn view(game: &Game, seat: u8) -> Game {
    let mut v = game.clone();
    let si = usize::from(seat);
    let d = &mut v.deal;
    let mut unseen = Counts::new();
    for (s, hand) in d.hands.iter().enumerate() {
        if s != si {
            unseen.add_all(hand);
        }
    }
    for &c in &d.stock {
        unseen.add(c);
    }
    let mut pool = unseen.cards().into_iter();
    for (s, hand) in d.hands.iter_mut().enumerate() {
        if s != si {
            let n = hand.len();
            *hand = Counts::new();
            for c in pool.by_ref().take(n) {
                hand.add(c);
            }
        }
    }
    let n = d.stock.len();
    d.stock.clear();
    d.stock.extend(pool.by_ref().take(n));
    d.last_push = None;
    v.rng = Rng::new(0);
    v.decks.clear();
    v
}

/// The melds still wanted: the contract's, or after it a run and a set of the least size.
fn wanted(rules: &Rules, game: &Game, seat: u8) -> Vec<Component> {
    if game.deal.progress[usize::from(seat)].done {
        vec![
            Component::of(MeldKind::Set, rules.set_min),
            Component::of(MeldKind::Run, rules.run_min),
        ]
    } else {
        rules.rounds[game.round].contract.clone()
    }
}

/// The worth of each card kind of `hand` towards the `wanted` melds (by [`Card::index`]): a
/// wild's, or the better of its worth towards a set (by the natural cards of its rank held)
/// and towards a run (by the most natural cards of its suit, or of any suit under
/// `run-suits=any-suits`, that one window of the longest run wanted holds with it).
fn worths(style: &Style, rules: &Rules, hand: &Counts, wanted: &[Component]) -> [i32; KINDS] {
    let mut w = [0; KINDS];
    let (sets, run) = bots::wanted_shape(wanted);
    let wild = rules.wild_mask();
    let present = hand.present();
    let natural = present & !wild;
    // Natural cards held per rank (number - 1).
    let mut per_rank = [0u32; 13];
    for c in cards_in(natural) {
        if let Some(r) = c.rank() {
            per_rank[usize::from(r.number()) - 1] += u32::from(hand.count(c));
        }
    }
    // The places held per suit (natural cards), or all suits pooled under any-suits.
    const RANKS: u64 = 0x1FFF;
    let mut pools: [u32; 4] = std::array::from_fn(|s| rules.places_of(natural >> (13 * s) & RANKS));
    if rules.readings.run_suits != reading::RunSuits::SameSuit {
        let all = pools.iter().fold(0, |a, m| a | m);
        pools = [all; 4];
    }
    let windows = run.map_or(&[][..], |n| rules.windows(n));
    for c in cards_in(present) {
        let i = c.index();
        if wild >> i & 1 == 1 {
            w[i] = style.wild;
            continue;
        }
        let Some(rank) = c.rank() else { continue };
        let r = usize::from(rank.number()) - 1;
        let mut best = 0;
        if sets {
            best = match per_rank[r] {
                0 | 1 => 0,
                2 => style.pair,
                _ => style.triple,
            };
        }
        if run.is_some() {
            let s = i / 13;
            let own = rules.rank_places[r];
            let partners = windows
                .iter()
                .filter(|&&win| win & own != 0)
                .map(|&win| (win & pools[s] & !own).count_ones())
                .max()
                .unwrap_or(0);
            let mut v = match partners {
                0 => 0,
                1 => style.run[0],
                2 => style.run[1],
                _ => style.run[2],
            };
            // A second copy of a card adds nothing to the same run.
            if hand.count(c) > 1 && best == 0 {
                v /= 2;
            }
            best = best.max(v);
        }
        w[i] = best;
    }
    w
}

/// [`contract::laydown`], shared as [`Game::meld_candidate`] takes it.
fn laydown(rules: &Rules, comps: &[Component], hand: &Counts) -> Option<Rc<contract::Laydown>> {
    contract::laydown(rules, comps, hand).map(Rc::new)
}

/// The draw: take the top discard when it is of use, else decline it.
fn draw(style: &Style, view: &Game, seat: u8) -> Option<Action> {
    let rules = &view.rules;
    let si = usize::from(seat);
    let hand = &view.deal.hands[si];
    let take = match view.deal.discard.last() {
        None => false,
        Some(&top) if rules.is_wild(top) => true,
        Some(&top) => {
            let mut with = hand.clone();
            with.add(top);
            if view.deal.progress[si].done {
                let fits = view.fitting_table(1 << top.index()) != 0;
                fits || (0..crate::engine::legal::MELD_CANDIDATES).any(|k| {
                    view.after_contract_candidate(k).is_some_and(|c| {
                        laydown(rules, &[c], &with).is_some()
                            && laydown(rules, &[c], hand).is_none()
                    })
                })
            } else {
                let contract = &rules.rounds[view.round].contract;
                let least = if view.push_check().is_ok() {
                    style.take_over_push
                } else {
                    style.take
                };
                laydown(rules, contract, &with).is_some()
                    || view.deal.stall < style.patience * u32::from(view.players) && {
                        let w = worths(style, rules, &with, contract);
                        w[top.index()] >= least
                    }
            }
        }
    };
    let can_take = !view.deal.discard.is_empty();
    if take && can_take {
        return Some(Action::TakeDiscard);
    }
    if rules.draws_from_stock() {
        return Some(Action::DrawStock);
    }
    if view.push_check().is_ok() || !can_take {
        return Some(Action::Push);
    }
    Some(Action::TakeDiscard)
}

/// A play after the draw: the contract, lay-offs, rescues, new melds, then the discard.
fn play(style: &Style, view: &Game, seat: u8) -> Option<Action> {
    let si = usize::from(seat);
    let rules = &view.rules;
    let ok = |a: &Action| view.accepts(seat, a);
    if !view.deal.progress[si].done {
        let found = view.meld_candidate(0, &mut |c, h| laydown(rules, c, h));
        if let Some(a) = found.filter(ok) {
            return Some(a);
        }
        return discard(style, view, seat);
    }
    let hand = &view.deal.hands[si];
    let wild = rules.wild_mask();
    if let Some(a) = lay_off(view, cards_in(hand.present() & !wild), ok) {
        return Some(a);
    }
    for m in 0..view.deal.table.len() {
        if let Some(a) = view.rescue_forms_on(seat, m).into_iter().find(ok) {
            return Some(a);
        }
    }
    for k in 0..crate::engine::legal::MELD_CANDIDATES {
        if let Some(a) = view
            .meld_candidate(k, &mut |c, h| laydown(rules, c, h))
            .filter(ok)
        {
            return Some(a);
        }
    }
    if let Some(a) = lay_off(view, cards_in(hand.present() & wild), ok) {
        return Some(a);
    }
    discard(style, view, seat)
}

/// The first lay-off of one of `cards` that the view accepts, card by card and meld by meld.
fn lay_off(
    view: &Game,
    cards: impl Iterator<Item = Card>,
    ok: impl Fn(&Action) -> bool,
) -> Option<Action> {
    for card in cards {
        for m in 0..view.deal.table.len() {
            match view.natural_lay_off_fits(m, card) {
                Some(false) => {}
                Some(true) => {
                    let a = Action::plain_lay_off(m, card, None);
                    if ok(&a) {
                        return Some(a);
                    }
                }
                None => {
                    if let Some(a) = view.lay_off_forms(m, card, None).into_iter().find(&ok) {
                        return Some(a);
                    }
                }
            }
        }
    }
    None
}

/// The discard: the allowed card worth least (its worth towards the melds wanted, less its
/// points); a card that lays off on the table counts as worth more when the next player is an
/// opponent past the contract.
fn discard(style: &Style, view: &Game, seat: u8) -> Option<Action> {
    let si = usize::from(seat);
    let rules = &view.rules;
    let hand = &view.deal.hands[si];
    let allowed = view.discard_mask(seat);
    if allowed == 0 {
        return Some(if view.must_draw(seat) {
            Action::DrawStock
        } else {
            Action::EndTurn
        });
    }
    let done = view.deal.progress[si].done;
    let w = worths(style, rules, hand, &wanted(rules, view, seat));
    let next = usize::from(if seat + 1 == view.players {
        0
    } else {
        seat + 1
    });
    let feeds = if view.side_of[next] != view.side_of[si] && view.deal.progress[next].done {
        view.fitting_table(allowed)
    } else {
        0
    };
    let score = |c: Card| {
        let mut v = w[c.index()];
        if done {
            v = v * style.after / 100;
        }
        if feeds >> c.index() & 1 == 1 {
            v += style.feed;
        }
        v - i32::try_from(rules.points(c)).unwrap_or(i32::MAX)
    };
    cards_in(allowed)
        .min_by_key(|&c| (score(c), c.index()))
        .map(Action::Discard)
}
