//! Built-in players, for generating games in tests, fuzzing, benchmarks and examples.
//!
//! `greedy` meets its contract as early as it can, lays off, rescues, melds what else it can and
//! discards its costliest useless card (not wild, and no pair or near-run with another card for
//! the melds it still wants); `random` picks uniformly among a sample of legal actions. Both
//! only ever play actions that [`Game::apply`] accepts. [`choose`] asks [`Game::accepts`];
//! [`play`] lets the greedy player try its candidates with `apply` itself, in the same order (a
//! refused action leaves the game as it was), and remember what it has learnt (its searches, the
//! table melds' lay-offs), so it plays the same games faster (`tests/integration/games.rs` compares the two).

use crate::base::card::{Card, Counts, cards_in};
use crate::base::rng::Rng;
use crate::engine::game::{Action, Event, Game, Stage, TableMeld};
use crate::oracle::contract;
use crate::oracle::meld;
use crate::rules::Rules;
use crate::rules::disputes::reading;
use crate::rules::spec::{Component, MeldKind};
use std::rc::Rc;
use std::sync::Arc;

/// A built-in player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bot {
    Greedy,
    Random,
    /// [`crate::engine::standard`]: plays like a decent person, from its own view.
    Standard,
}

impl Bot {
    pub fn parse(s: &str) -> Option<Bot> {
        match s {
            "greedy" => Some(Bot::Greedy),
            "random" => Some(Bot::Random),
            "standard" => Some(Bot::Standard),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Bot::Greedy => "greedy",
            Bot::Random => "random",
            Bot::Standard => "standard",
        }
    }
}

fn legal(game: &Game, seat: u8, a: &Action) -> bool {
    game.accepts(seat, a)
}

/// Lay-offs of one card onto each meld, then rescues, as the engine lists them; lazily, so a
/// player that wants only the first legal one computes no more than it needs.
fn table_plays(game: &Game, seat: u8) -> impl Iterator<Item = Action> + '_ {
    let lay_offs = game.deal.hands[usize::from(seat)]
        .iter()
        .flat_map(move |(card, _)| {
            (0..game.deal.table.len()).flat_map(move |m| game.lay_off_forms(m, card, None))
        });
    let rescues = std::iter::once(()).flat_map(move |()| game.rescue_forms(seat, false));
    lay_offs.chain(rescues)
}

fn discards(game: &Game, seat: u8) -> Vec<Action> {
    let hand = &game.deal.hands[usize::from(seat)];
    let mut v: Vec<Action> = hand.iter().map(|(c, _)| Action::Discard(c)).collect();
    v.push(Action::EndTurn);
    if game.rules.draws_until_allowed() {
        v.push(Action::DrawStock);
    }
    v
}

/// The next action of `bot` for the seat to play.
pub fn choose(bot: Bot, game: &Game, rng: &mut Rng) -> Action {
    let seat = game.turn();
    match bot {
        Bot::Greedy => greedy(&mut Probe(game), seat, &mut Memo::default()),
        Bot::Random => random(game, seat, rng),
        Bot::Standard => crate::engine::standard::choose(game),
    }
}

/// Where the greedy player tries the actions it considers, in its order of preference.
trait Trial {
    fn game(&self) -> &Game;
    /// Whether `apply` takes the action (and, when playing for real, it has now been applied).
    fn try_action(&mut self, a: &Action) -> bool;
}

/// Asks without changing anything ([`choose`]).
struct Probe<'a>(&'a Game);

impl Trial for Probe<'_> {
    fn game(&self) -> &Game {
        self.0
    }
    fn try_action(&mut self, a: &Action) -> bool {
        legal(self.0, self.0.turn(), a)
    }
}

/// Plays for real ([`play`]): the first candidate `apply` takes is the move, so no action is
/// checked once by `accepts` and again by `apply`. A refused `apply` leaves the game as it was.
struct Commit<'a> {
    game: &'a mut Game,
    /// The game's events so far; an action taken adds its own.
    events: &'a mut Vec<Event>,
    applied: bool,
}

impl Trial for Commit<'_> {
    fn game(&self) -> &Game {
        self.game
    }
    fn try_action(&mut self, a: &Action) -> bool {
        let seat = self.game.turn();
        self.applied = self.game.apply_into(seat, a, self.events).is_ok();
        self.applied
    }
}

/// The greedy player's memory.
///
/// Its last laydown search: it takes the discard when the hand with it meets the contract, and
/// then lays that hand down, the same search asked once.
///
/// And what it has learnt about each table meld: which cards have a lay-off form there. An entry
/// keeps the meld's stamp ([`TableMeld::stamp`]): the same stamp is the same meld, unchanged.
#[derive(Default)]
struct Memo {
    last: Option<Last>,
    table: Vec<MeldFits>,
    /// [`crate::engine::game::stamps_taken`] when `table` was last brought in line.
    synced: u64,
    /// The meld the last action played onto (a lay-off or a rescue), where it was one: most
    /// often the only meld changed since `table` was brought in line.
    touched: Option<usize>,
    /// Per seat and melds searched for, the last hand in which the search failed, this deal.
    failed: Vec<(u8, Vec<Component>, Counts)>,
    /// The deal `failed` belongs to (its round): a new deal starts it afresh, so it holds no more
    /// than one deal's few entries to look through.
    round: usize,
}

/// The greedy player's last laydown search: the melds searched for, the hand, the answer. Kept in
/// place from one search to the next (no allocation per search), the answer shared.
struct Last {
    comps: Vec<Component>,
    hand: Counts,
    found: Option<Rc<contract::Laydown>>,
}

/// The cards that may have a lay-off form on one table meld (`Game::lay_off_forms` non-empty), as
/// far as they have been asked, as masks by [`Card::index`].
struct MeldFits {
    stamp: u64,
    /// The cards that may have a form here: those of `meld::extenders` of some interpretation
    /// (the others have none), less those asked and found to have none.
    open: u64,
    /// The natural cards its wilds stand for: without one of them in hand, no rescue here.
    rescuable: u64,
}

impl Memo {
    /// Brings the per-meld entries in line with the table: an entry is kept while its meld is
    /// still on the table, unchanged.
    fn sync_table(&mut self, game: &Game) {
        self.bring_in_line(game);
        debug_assert!(self.in_line(game), "the memo's table is the game's");
    }

    /// Whether each entry is of the meld in its place, as it is now.
    fn in_line(&self, game: &Game) -> bool {
        self.table.len() == game.deal.table.len()
            && (self.table.iter().zip(&game.deal.table)).all(|(e, tm)| e.stamp == tm.stamp())
    }

    /// Notes the meld `a` played onto, if any (a lay-off or a rescue), for the next sync.
    fn acted(&mut self, a: &Action) {
        self.touched = match a {
            Action::LayOff { meld, .. } | Action::Rescue { meld, .. } => Some(*meld),
            _ => None,
        };
    }

    fn bring_in_line(&mut self, game: &Game) {
        let table = &game.deal.table;
        // No stamp taken since the last sync, and as many melds: the same table.
        let stamps = crate::engine::game::stamps_taken();
        if stamps == self.synced && self.table.len() == table.len() {
            return;
        }
        let fresh = |tm: &Arc<TableMeld>| MeldFits {
            stamp: tm.stamp(),
            open: tm
                .interps
                .iter()
                .fold(0, |m, i| m | meld::extenders(&game.rules, i)),
            rescuable: rescuable(tm),
        };
        // Stamps are taken one by one and each change to a table takes one (or changes its
        // length): where every stamp taken since is held by a meld, at the place where the change
        // that took it left it, nothing else changed and only those melds need a look.
        let taken = stamps - self.synced;
        let known = self.table.len();
        let held_at =
            |i: usize, k: u64| table.get(i).is_some_and(|tm| tm.stamp() == self.synced + k);
        if let Some(i) = self.touched
            && taken == 1
            && known == table.len()
            && held_at(i, 0)
        {
            // One lay-off or rescue.
            self.table[i] = fresh(&table[i]);
            self.synced = stamps;
            return;
        }
        if known < table.len()
            && taken == (table.len() - known) as u64
            && (0..taken).all(|k| held_at(known + k as usize, k))
        {
            // New melds after the ones known.
            self.table.extend(table[known..].iter().map(fresh));
            self.synced = stamps;
            return;
        }
        self.synced = stamps;
        if self.table.len() == table.len() {
            // A lay-off or rescue replaces one meld where it stands.
            for (e, tm) in self.table.iter_mut().zip(table) {
                if e.stamp != tm.stamp() {
                    *e = fresh(tm);
                }
            }
            return;
        }
        // A meld went down, a join took one away, or a new deal began.
        let mut old = std::mem::take(&mut self.table);
        self.table = table
            .iter()
            .map(|tm| match old.iter().position(|e| e.stamp == tm.stamp()) {
                Some(i) => old.swap_remove(i),
                None => fresh(tm),
            })
            .collect();
    }
}

impl Memo {
    /// [`contract::laydown`] for `seat`'s search of `hand`, answered from memory where it can be.
    fn laydown(
        &mut self,
        game: &Game,
        seat: u8,
        comps: &[Component],
        hand: &Counts,
    ) -> Option<Rc<contract::Laydown>> {
        if let Some(last) = &self.last
            && last.comps == comps
            && last.hand == *hand
        {
            return last.found.clone();
        }
        if self.round != game.round {
            self.round = game.round;
            self.failed.clear();
        }
        // A laydown only grows with the hand: where this seat's last search for these melds
        // failed, one now needs a meld holding a card it has gained since.
        let failed = self
            .failed
            .iter()
            .position(|(s, c, _)| *s == seat && c.as_slice() == comps);
        if let Some(i) = failed {
            let new = hand.more_than(&self.failed[i].2);
            let mut gained = false;
            if new != 0 {
                let reach = contract::Reach::new(&game.rules, hand);
                // Each kind of meld asked about once (contracts repeat them: two runs of 4).
                let kinds = comps.iter().enumerate();
                let distinct = || kinds.clone().filter(|&(j, c)| !comps[..j].contains(c));
                gained = cards_in(new)
                    .any(|card| distinct().any(|(_, &c)| reach.may_hold(&game.rules, c, card)));
            }
            if !gained {
                self.failed[i].2 = hand.clone();
                return None;
            }
        }
        let found = contract::laydown(&game.rules, comps, hand).map(Rc::new);
        if found.is_none() {
            match failed {
                Some(i) => self.failed[i].2 = hand.clone(),
                None => self.failed.push((seat, comps.to_vec(), hand.clone())),
            }
        }
        let last = self.last.get_or_insert_with(|| Last {
            comps: Vec::new(),
            hand: Counts::default(),
            found: None,
        });
        last.comps.clear();
        last.comps.extend_from_slice(comps);
        last.hand.clone_from(hand);
        last.found.clone_from(&found);
        found
    }
}

/// The natural cards that some wild of `tm` stands for, in any of its interpretations.
fn rescuable(tm: &TableMeld) -> u64 {
    // Every role read, a natural one's target masked out: which roles are wild is as good as
    // random, and a branch on it is mispredicted often.
    let roles = tm.interps.iter().flat_map(|i| &i.roles);
    roles.fold(0, |m, r| {
        m | r.stands_for.mask() & u64::from(!r.natural).wrapping_neg()
    })
}

fn greedy(t: &mut impl Trial, seat: u8, memo: &mut Memo) -> Action {
    let game = t.game();
    let si = usize::from(seat);
    match game.deal.stage {
        Stage::Draw => return greedy_draw(game, seat, memo),
        Stage::Buy => return greedy_buy(game, seat, memo),
        Stage::Play | Stage::Over => {}
    }
    if game.deal.progress[si].done
        && let Some(a) = greedy_table_play(t, seat, memo)
    {
        return a;
    }
    if let Some(a) = greedy_meld(t, seat, memo) {
        return a;
    }
    greedy_discard(t.game(), seat)
}

/// The greedy draw: take the discard when it completes the contract (or, after the contract,
/// when it is wild); otherwise push where a push is allowed.
fn greedy_draw(game: &Game, seat: u8, memo: &mut Memo) -> Action {
    let si = usize::from(seat);
    let hand = &game.deal.hands[si];
    let contract = &game.rules.rounds[game.round].contract;
    // Take the discard when it completes the contract (or, after the contract, when it is wild).
    let take = match game.deal.discard.last() {
        Some(&top) if !game.deal.progress[si].done => {
            let mut with = hand.clone();
            with.add(top);
            memo.laydown(game, seat, contract, &with).is_some()
        }
        Some(&top) => game.rules.is_wild(top),
        None => false,
    };
    let can_take = !game.deal.discard.is_empty();
    if take && can_take {
        return Action::TakeDiscard;
    }
    if game.rules.draws_from_stock() {
        // No push (buying replaces it, or the rules have none): decline the discard by drawing
        // from the stock.
        return Action::DrawStock;
    }
    if game.push_check().is_ok() || !can_take {
        return Action::Push;
    }
    Action::TakeDiscard
}

/// The greedy answer when asked whether it buys the top discard: before its contract, it buys
/// a card that completes the contract, a wild, or a natural card that joins `sets.min-size` - 1
/// of its rank in hand where the contract wants a set; after its contract it passes (a bought
/// card waits for its turn, and the penalty cards count against it).
fn greedy_buy(game: &Game, seat: u8, memo: &mut Memo) -> Action {
    let si = usize::from(seat);
    let (Some(&top), false) = (game.deal.discard.last(), game.deal.progress[si].done) else {
        return Action::Pass;
    };
    let hand = &game.deal.hands[si];
    let contract = &game.rules.rounds[game.round].contract;
    let joins_set = contract.iter().any(|c| c.kind == MeldKind::Set)
        && !game.rules.is_wild(top)
        && hand
            .iter()
            .filter(|(c, _)| c.rank() == top.rank())
            .map(|(_, k)| usize::from(k))
            .sum::<usize>()
            + 1
            >= usize::from(game.rules.set_min);
    let mut with = hand.clone();
    with.add(top);
    let buy =
        game.rules.is_wild(top) || joins_set || memo.laydown(game, seat, contract, &with).is_some();
    if buy { Action::Buy } else { Action::Pass }
}

/// After the contract: lay-offs card by card and meld by meld, then rescues: the first that
/// `apply` takes. A card with no lay-off form on a meld (remembered while the meld is
/// unchanged) is not asked again.
fn greedy_table_play(t: &mut impl Trial, seat: u8, memo: &mut Memo) -> Option<Action> {
    let game = t.game();
    memo.sync_table(game);
    let held = game.deal.hands[usize::from(seat)].present();
    // The held cards that some meld may still take. Asking about a card below changes only
    // its own bit of the meld asked about, which is not asked about again in this loop.
    let (open, rescuable) =
        (memo.table.iter()).fold((0, 0), |(o, r), e| (o | e.open, r | e.rescuable));
    if let Some(a) = greedy_lay_off(t, memo, held & open) {
        return Some(a);
    }
    greedy_rescue(t, seat, memo, held, rescuable)
}

/// The first lay-off of one of `cards` that `apply` takes, card by card and meld by meld.
fn greedy_lay_off(t: &mut impl Trial, memo: &mut Memo, cards: u64) -> Option<Action> {
    let table = &mut memo.table;
    for card in cards_in(cards) {
        let bit = 1u64 << card.index();
        for (m, e) in table.iter_mut().enumerate() {
            if e.open & bit == 0 {
                continue;
            }
            // A natural card's one form, built only where it is listed.
            if let Some(fits) = t.game().natural_lay_off_fits(m, card) {
                if !fits {
                    e.open &= !bit;
                } else {
                    let a = Action::plain_lay_off(m, card, None);
                    if t.try_action(&a) {
                        return Some(a);
                    }
                }
                continue;
            }
            // A wild's forms (or a natural card's, where the one-card shortcut does not
            // apply): the first, and the others only if `apply` refuses it.
            let Some(first) = t.game().first_lay_off_form(m, card, None) else {
                e.open &= !bit;
                continue;
            };
            if t.try_action(&first) {
                return Some(first);
            }
            for a in t.game().lay_off_forms(m, card, None).into_iter().skip(1) {
                if t.try_action(&a) {
                    return Some(a);
                }
            }
        }
    }
    None
}

/// Rescues meld by meld (`rescue_forms` in order): only by a natural card in hand (`held`) that
/// a wild there stands for (`rescuable`, of every meld).
fn greedy_rescue(
    t: &mut impl Trial,
    seat: u8,
    memo: &Memo,
    held: u64,
    rescuable: u64,
) -> Option<Action> {
    let rescues = if rescuable & held == 0 {
        0
    } else {
        memo.table.len()
    };
    for m in 0..rescues {
        if memo.table[m].rescuable & held == 0 {
            continue;
        }
        // The first form, and the others only if `apply` refuses it.
        let Some(first) = t.game().first_rescue_form_on(seat, m) else {
            continue;
        };
        if t.try_action(&first) {
            return Some(first);
        }
        for a in t.game().rescue_forms_on(seat, m).into_iter().skip(1) {
            if t.try_action(&a) {
                return Some(a);
            }
        }
    }
    None
}

/// The contract, or a run and then a set: each searched for only if the one before was not
/// laid down. After the contract, a meld the hand may not hold at all (`Reach::may_hold_any`)
/// is not asked for, nor searched: both read once from the hand.
fn greedy_meld(t: &mut impl Trial, seat: u8, memo: &mut Memo) -> Option<Action> {
    let si = usize::from(seat);
    let game = t.game();
    let mut may_hold = [true; crate::engine::legal::MELD_CANDIDATES];
    if game.deal.progress[si].done {
        let reach = contract::Reach::new(&game.rules, &game.deal.hands[si]);
        for (k, may) in may_hold.iter_mut().enumerate() {
            *may = (game.after_contract_candidate(k))
                .is_some_and(|c| reach.may_hold_any(&game.rules, c));
        }
    }
    for (k, may) in may_hold.into_iter().enumerate() {
        if !may {
            continue;
        }
        let game = t.game();
        let found =
            game.meld_candidate(k, &mut |comps, hand| memo.laydown(game, seat, comps, hand));
        if let Some(a) = found
            && t.try_action(&a)
        {
            return Some(a);
        }
    }
    None
}

/// Discard the costliest useless card: not wild, and no help towards the melds still wanted
/// (then the costliest card that is not wild; any allowed card if all are wild). The turn ends
/// without a discard only where no card may be discarded.
fn greedy_discard(game: &Game, seat: u8) -> Action {
    let si = usize::from(seat);
    let hand = &game.deal.hands[si];
    let smallest = [
        Component::of(MeldKind::Set, game.rules.set_min),
        Component::of(MeldKind::Run, game.rules.run_min),
    ];
    let wanted: &[Component] = if game.deal.progress[si].done {
        &smallest
    } else {
        &game.rules.rounds[game.round].contract
    };
    let useful = useful_cards(&game.rules, hand, wanted);
    match pick_discard(&game.rules, game.discard_mask(seat), useful) {
        Some(c) => Action::Discard(c),
        None if game.must_draw(seat) => Action::DrawStock,
        None => Action::EndTurn,
    }
}

/// The greedy player's discard among the `allowed` cards (masks by [`Card::index`]): not wild
/// before wild, not `useful` before useful, then the most points, then the first in canonical
/// order. `None` where nothing is allowed.
fn pick_discard(rules: &Rules, allowed: u64, useful: u64) -> Option<Card> {
    // The first of these tiers that holds a card, and in it the first card with the most points.
    let wild = rules.wild_mask();
    let tiers = [
        !wild & !useful,
        !wild & useful,
        wild & !useful,
        wild & useful,
    ];
    let tier = tiers.iter().map(|t| allowed & t).find(|&t| t != 0)?;
    let mut best = None::<(u32, Card)>;
    for c in cards_in(tier) {
        let p = rules.points(c);
        if best.is_none_or(|(q, _)| p > q) {
            best = Some((p, c));
        }
    }
    best.map(|(_, c)| c)
}

/// What the `wanted` melds ask for: whether a set is among them, and the longest run (none if
/// no run is wanted). Both built-in players that weigh cards read their melds so.
pub(crate) fn wanted_shape(wanted: &[Component]) -> (bool, Option<usize>) {
    let sets = wanted.iter().any(|c| c.kind == MeldKind::Set);
    let run = wanted
        .iter()
        .filter(|c| c.kind == MeldKind::Run)
        .map(|c| usize::from(c.size))
        .max();
    (sets, run)
}

/// The cards of `hand` useful towards the `wanted` melds, as a mask by [`Card::index`]: a joker;
/// a card with another of its rank where sets are wanted; a card with another natural card of its
/// run's suit (any suit under `run-suits=any-suits`) close enough on the rank line to share a run
/// where runs are wanted.
fn useful_cards(rules: &Rules, hand: &Counts, wanted: &[Component]) -> u64 {
    let (sets, run) = wanted_shape(wanted);
    // By card index (suit * 13 + rank number - 1), the joker at 52: the ranks held per suit.
    const RANKS: u64 = 0x1FFF;
    let present = hand.present();
    let held: [u64; 4] = std::array::from_fn(|s| present >> (13 * s) & RANKS);
    let mut useful = present & !((1 << 52) - 1);
    if sets {
        // Ranks with two cards or more: of two suits, or two copies of one card.
        let mut two = held[0] & (held[1] | held[2] | held[3])
            | held[1] & (held[2] | held[3])
            | held[2] & held[3];
        if hand.holds_copies() {
            for (c, k) in hand.iter() {
                if k > 1 && c.index() < 52 {
                    two |= 1 << (c.index() % 13);
                }
            }
        }
        useful |= present & (two | two << 13 | two << 26 | two << 39);
    }
    let Some(n) = run else {
        return useful;
    };
    // The places of the natural cards per suit (all four alike under any-suits).
    let wild = rules.wild_mask();
    let mut pools = [0u32; 4];
    for (s, pool) in pools.iter_mut().enumerate() {
        *pool = rules.places_of(held[s] & !(wild >> (13 * s)));
    }
    if rules.readings.run_suits != reading::RunSuits::SameSuit {
        let all = pools.iter().fold(0, |a, m| a | m);
        pools = [all; 4];
    }
    // Per rank (number - 1), the places a run of `n` through it may cover.
    let Some(reach) = rules.run_reach.get(n) else {
        return useful;
    };
    // Every card of the four suits in one walk (one loop, its test without a branch: which
    // cards pass is as good as random).
    let mut cards = present & ((1 << 52) - 1);
    while cards != 0 {
        let i = cards.trailing_zeros() as usize;
        cards &= cards - 1;
        let (s, r) = (i / 13, i % 13);
        // The other places a run of `n` holding the card may cover (the cards at the card's own
        // places are of its rank and share no run with it).
        let near = pools[s] & !rules.rank_places[r] & reach[r] != 0;
        useful |= u64::from(near) << i;
    }
    useful
}

fn random(game: &Game, seat: u8, rng: &mut Rng) -> Action {
    let si = usize::from(seat);
    let mut cands: Vec<Action> = Vec::new();
    if game.deal.stage == Stage::Draw {
        let mut v = Vec::new();
        if !game.deal.discard.is_empty() {
            v.push(Action::TakeDiscard);
        }
        if game.push_check().is_ok() {
            v.push(Action::Push);
        }
        if game.rules.draws_from_stock() {
            v.push(Action::DrawStock);
        }
        return match v.len() {
            0 => Action::Push,
            n => v[rng.below(n as u64) as usize].clone(),
        };
    } else {
        if game.deal.stage == Stage::Buy {
            // Buys one discard in four.
            return if rng.below(4) == 0 {
                Action::Buy
            } else {
                Action::Pass
            };
        }
        cands.extend(game.meld_options());
        if game.deal.progress[si].done {
            cands.extend(table_plays(game, seat));
        }
        cands.extend(discards(game, seat));
    }
    let legal_ones: Vec<Action> = cands.into_iter().filter(|a| legal(game, seat, a)).collect();
    match legal_ones.len() {
        0 => Action::EndTurn,
        n => legal_ones[rng.below(n as u64) as usize].clone(),
    }
}

/// The record of one game played by bots.
#[derive(Clone, Debug)]
pub struct Played {
    pub game: Game,
    pub actions: Vec<(u8, Action)>,
    pub events: Vec<Event>,
}

/// Plays a whole game; `bots[seat % bots.len()]` plays each seat. Checks invariants after every
/// action when `check` is set.
///
/// # Panics
/// If a bot proposes an illegal action or the game does not end within a generous bound — both
/// engine bugs, which tests are meant to find.
pub fn play(mut game: Game, bots: &[Bot], seed: u64, check: bool) -> Played {
    let mut rng = Rng::new(seed ^ 0x5EED);
    let mut memo = Memo::default();
    // Room for a whole game of the built-in rule sets, mostly: growing these long vectors
    // again and again copies them each time.
    let mut actions = Vec::with_capacity(1 << 10);
    let mut events = Vec::with_capacity(1 << 11);
    // Every hand ends (docs/RULES-FORMAT.md, "Ending a hand"): at most twice the pack of turns
    // with a card reaching the table, fewer than the stall limit between two of them, and at most
    // a few actions per card of the pack in a turn. Far beyond any real game; a loop trips it.
    let pack = game.rules.pack_size(game.players) as u64;
    let per_hand = (2 * pack + 1)
        .saturating_mul(u64::from(game.rules.stall_limit))
        .saturating_mul(3 * pack + 3);
    let bound = usize::try_from(per_hand.saturating_mul(game.rules.rounds.len() as u64))
        .unwrap_or(usize::MAX)
        .max(200_000);
    // Each seat's player, read once (not a division at every turn).
    let lineup: Vec<Bot> = (0..usize::from(game.players))
        .map(|s| bots[s % bots.len()])
        .collect();
    while !game.is_over() {
        assert!(
            actions.len() < bound,
            "a game must end: stall-limit bounds every hand"
        );
        let seat = game.turn();
        let bot = lineup[usize::from(seat)];
        let (a, applied) = match bot {
            Bot::Greedy => {
                let mut t = Commit {
                    game: &mut game,
                    events: &mut events,
                    applied: false,
                };
                let a = greedy(&mut t, seat, &mut memo);
                (a, t.applied)
            }
            Bot::Random => (random(&game, seat, &mut rng), false),
            Bot::Standard => (crate::engine::standard::choose(&game), false),
        };
        if !applied && let Err(e) = game.apply_into(seat, &a, &mut events) {
            panic!("bot {} proposed an illegal action {a:?}: {e}", bot.name());
        }
        // Debug builds check after every `apply` already.
        if check && !cfg!(debug_assertions) {
            game.check_invariants();
        }
        memo.acted(&a);
        actions.push((seat, a));
    }
    Played {
        game,
        actions,
        events,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::card::{Rank, parse_cards};
    use crate::rules::load;

    fn useful(rules: &Rules, hand: &Counts, card: Card, wanted: &[Component]) -> bool {
        assert!(hand.count(card) > 0, "asked of a card of the hand");
        useful_cards(rules, hand, wanted) >> card.index() & 1 == 1
    }

    fn comp(kind: MeldKind, size: u8) -> Component {
        Component::of(kind, size)
    }

    /// One greedy decision, applied as `play` applies it.
    fn greedy_step(game: &mut Game, memo: &mut Memo, events: &mut Vec<Event>) -> Action {
        let seat = game.turn();
        let mut t = Commit {
            game,
            events,
            applied: false,
        };
        let a = greedy(&mut t, seat, memo);
        if !t.applied {
            game.apply_into(seat, &a, events).unwrap();
        }
        a
    }

    /// A memo that looks at the table only now and then (after one to four actions, so that
    /// several melds may have changed, been added or joined since) holds every meld as it is
    /// when it looks, whatever meld the last action touched.
    #[test]
    fn the_memo_follows_the_table_across_several_changes() {
        let rules = Arc::new(load("push", &[]).unwrap().rules);
        let mut looks = 0;
        for seed in 0..12 {
            let mut game = Game::new(Arc::clone(&rules), 4, 0, seed, vec![]).unwrap();
            let (mut memo, mut late) = (Memo::default(), Memo::default());
            let mut rng = Rng::new(seed);
            let mut events = Vec::new();
            while !game.is_over() {
                let a = greedy_step(&mut game, &mut memo, &mut events);
                memo.acted(&a);
                late.acted(&a);
                if rng.below(4) == 0 {
                    late.sync_table(&game);
                    looks += 1;
                    assert!(late.in_line(&game), "seed {seed}");
                }
            }
        }
        assert!(looks > 1000, "the memo looked {looks} times");
    }

    /// The memo's shortcuts hold only where every stamp taken since it last looked is accounted
    /// for: two melds changed with the first named, a change to another meld than the one named,
    /// or a new meld named as the one touched, send it the long way round.
    #[test]
    fn the_memo_takes_no_shortcut_past_a_change_it_cannot_account_for() {
        let rules = Arc::new(load("push", &[]).unwrap().rules);
        // Greedy play until three melds are on the table.
        let mut game = Game::new(Arc::clone(&rules), 4, 0, 1, vec![]).unwrap();
        let (mut memo, mut events) = (Memo::default(), Vec::new());
        while game.deal.table.len() < 3 {
            greedy_step(&mut game, &mut memo, &mut events);
        }
        let restamp = |g: &mut Game, i: usize| Arc::make_mut(&mut g.deal.table[i]).restamp();
        let add = |g: &mut Game| {
            let first = &g.deal.table[0];
            let copy = TableMeld::new(0, first.cards.clone(), first.interps.clone());
            g.deal.table.push(Arc::new(copy));
        };
        // Each case: the memo brought in line, the change (taking `n` stamps), the meld named,
        // the memo brought in line again. Other tests take stamps on other threads: a case they
        // interrupted (more stamps taken than its own) is run again, so that each one is seen.
        let mut memo = Memo::default();
        let mut case = |game: &mut Game,
                        n: u64,
                        change: &dyn Fn(&mut Game),
                        named: &dyn Fn(&Game) -> usize| {
            for _ in 0..1000 {
                memo.sync_table(game);
                let before = crate::engine::game::stamps_taken();
                let touched = named(game);
                change(game);
                memo.touched = Some(touched);
                memo.sync_table(game);
                assert!(memo.in_line(game));
                if crate::engine::game::stamps_taken() == before + n {
                    return;
                }
            }
            panic!("no case ran without another thread's stamps");
        };
        // Two melds changed, the first named.
        case(&mut game, 2, &|g| (restamp(g, 0), restamp(g, 1)).1, &|_| 0);
        // One meld changed, another named.
        case(&mut game, 1, &|g| restamp(g, 2), &|_| 1);
        // A new meld, named as the one touched.
        case(&mut game, 1, &add, &|g| g.deal.table.len());
    }

    /// A deal of Push at the turn of a seat past its contract, in its play stage, that holds
    /// only `held` (named for one suit of hearts), with 6♥ JK 8♥ on the table, the joker for 7♥.
    /// The cards are moved there from the stock and the hands, so every card is still in one
    /// place.
    fn past_contract_with(held: Rank) -> (Game, Card) {
        let rules = Arc::new(load("push", &[]).unwrap().rules);
        let mut game = Game::new(Arc::clone(&rules), 4, 0, 1, vec![]).unwrap();
        let seat = game.turn();
        let si = usize::from(seat);
        let deal = &mut game.deal;
        for hand in &mut deal.hands {
            for (card, k) in hand.iter() {
                deal.stock.extend(std::iter::repeat_n(card, usize::from(k)));
            }
            *hand = Counts::default();
        }
        let mut take = |card: Card| {
            let at = deal.stock.iter().position(|&c| c == card).unwrap();
            deal.stock.remove(at)
        };
        let run = parse_cards("6H 8H JK").unwrap();
        let cards: Vec<Card> = run.iter().map(|&c| take(c)).collect();
        let card = take(Card::new(held, crate::base::card::Suit::Hearts));
        let query = meld::Query {
            cards: cards.clone(),
            kind: Some(MeldKind::Run),
            declared: vec![],
        };
        let interps = meld::interpret(&rules, &query).interpretations;
        assert_eq!(interps.len(), 1, "the joker stands for 7♥ only");
        deal.table = vec![Arc::new(TableMeld::new(seat, cards, interps))];
        deal.hands[si] = Counts::from_cards(&[card]);
        Arc::make_mut(&mut deal.progress)[si].done = true;
        deal.stage = Stage::Play;
        game.check_invariants();
        (game, card)
    }

    /// A seat whose cards are exactly the ones the table's wilds stand for (7♥) rescues: the
    /// quick skip before the rescue loop asks whether the two share a card, not whether they
    /// differ.
    #[test]
    fn a_hand_of_exactly_the_cards_the_wilds_stand_for_rescues() {
        let (mut game, seven) = past_contract_with(Rank::Seven);
        let (mut memo, mut events) = (Memo::default(), Vec::new());
        let a = greedy_step(&mut game, &mut memo, &mut events);
        assert!(
            matches!(a, Action::Rescue { natural, wild, .. } if natural == seven && wild == Card::JOKER),
            "{a:?}"
        );
    }

    /// A meld whose one open card (the memo has narrowed the others away) is the card in hand is
    /// asked about that card: the lay-off loop's skip asks whether the card is open, not whether
    /// other cards are.
    #[test]
    fn a_meld_whose_one_open_card_is_held_is_asked_about_it() {
        let (mut game, nine) = past_contract_with(Rank::Nine);
        let mut memo = Memo::default();
        memo.sync_table(&game);
        memo.table[0].open = 1 << nine.index();
        let a = greedy_step(&mut game, &mut memo, &mut Vec::new());
        assert_eq!(a, Action::plain_lay_off(0, nine, None));
    }

    /// The discard by tiers of masks is the card with the least key (wild, useful, fewest points,
    /// canonical order), on random hands under rules with and without wild twos.
    #[test]
    fn the_discard_is_the_least_card_by_wildness_use_points_and_order() {
        let mut rng = crate::base::rng::Rng::new(11);
        for name in ["push", "six-to-ten", "cap-it"] {
            let rules = load(name, &[]).unwrap().rules;
            let key = |c: Card, useful: u64| {
                (
                    rules.is_wild(c),
                    useful >> c.index() & 1 == 1,
                    std::cmp::Reverse(rules.points(c)),
                    c.index(),
                )
            };
            for round in 0..2000 {
                // Sparse masks, and now and then none allowed.
                let density = [2, 4, 8, 64][round % 4];
                let mask = |rng: &mut crate::base::rng::Rng| {
                    (0..crate::base::card::KINDS)
                        .fold(0u64, |m, i| m | u64::from(rng.below(density) == 0) << i)
                };
                let (allowed, useful) = (mask(&mut rng), mask(&mut rng));
                let expected = cards_in(allowed).min_by_key(|&c| key(c, useful));
                assert_eq!(
                    pick_discard(&rules, allowed, useful),
                    expected,
                    "{name}: allowed {allowed:#x}, useful {useful:#x}"
                );
            }
        }
    }

    /// A card is useful with another of its rank where sets are wanted, with a natural card of
    /// its suit within a run's reach where runs are wanted, and otherwise not: the greedy player
    /// discards the costliest card that is not.
    #[test]
    fn useful_cards_pair_up_or_sit_near_a_run() {
        let rules = load("push", &[]).unwrap().rules;
        let hand = Counts::from_cards(&parse_cards("7S 7H 9H JH KC AD 2D").unwrap());
        let is = |card: &str, wanted: &[Component]| {
            useful(&rules, &hand, parse_cards(card).unwrap()[0], wanted)
        };

        let sets = [comp(MeldKind::Set, 3), comp(MeldKind::Set, 3)];
        let run4 = [comp(MeldKind::Run, 4)];
        let run3 = [comp(MeldKind::Run, 3)];
        assert!(is("7S", &sets) && is("7H", &sets));
        assert!(!is("KC", &sets) && !is("9H", &sets));
        // Two copies of one card are a pair too.
        let twice = Counts::from_cards(&parse_cards("9C 9C KD").unwrap());
        let nine = parse_cards("9C").unwrap()[0];
        assert!(useful(&rules, &twice, nine, &sets));
        assert!(!useful(
            &rules,
            &twice,
            parse_cards("KD").unwrap()[0],
            &sets
        ));
        // Runs: 7H, 9H and JH lie within four places of each other; 7S has no spade near it.
        assert!(is("7H", &run4) && is("9H", &run4) && is("JH", &run4));
        assert!(!is("7S", &run4) && !is("KC", &run4));
        // Within three places only: 7H and 9H, 9H and JH, but not 7H and JH alone.
        assert!(is("9H", &run3));
        let far = Counts::from_cards(&parse_cards("7H JH").unwrap());
        let seven = parse_cards("7H").unwrap()[0];
        assert!(!useful(&rules, &far, seven, &run4), "7 to J is five places");
        assert!(useful(&rules, &far, seven, &[comp(MeldKind::Run, 5)]));
        // The ace is next to the king (and to the 2, which is wild here and helps no run).
        let ace = Counts::from_cards(&parse_cards("AD KD 2D").unwrap());
        assert!(useful(&rules, &ace, parse_cards("AD").unwrap()[0], &run3));
        let low = Counts::from_cards(&parse_cards("AD 2D").unwrap());
        assert!(!useful(&rules, &low, parse_cards("AD").unwrap()[0], &run3));
    }

    /// On a circular rank line a run passes from the king past the ace: a queen and a 3 are as
    /// close as the places between them that way round, and far apart on a straight line.
    #[test]
    fn runs_reach_around_a_circular_line() {
        let mut rules = load("push", &[]).unwrap().rules;
        let hand = Counts::from_cards(&parse_cards("QH 3H").unwrap());
        let queen = parse_cards("QH").unwrap()[0];
        let run = |n: usize| [comp(MeldKind::Run, u8::try_from(n).unwrap())];
        assert!(!useful(&rules, &hand, queen, &run(5)));
        rules.wrap_around = true;
        rules.refresh();
        let at = |r: Rank| rules.line.iter().position(|p| p.rank == r).unwrap();
        let apart = rules.line.len() - at(Rank::Queen) + at(Rank::Three);
        assert!(
            useful(&rules, &hand, queen, &run(apart + 1)),
            "{apart} places apart"
        );
        assert!(!useful(&rules, &hand, queen, &run(apart)));
        // And the other way round, from the 3 back past the ace to the queen.
        let three = parse_cards("3H").unwrap()[0];
        assert!(useful(&rules, &hand, three, &run(apart + 1)));
        assert!(!useful(&rules, &hand, three, &run(apart)));
    }
}
