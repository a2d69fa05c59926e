//! Games that start somewhere other than the first deal of a fresh game: at a later deal (with the
//! scores of the earlier hands), from an explicit pack order, or from an explicit position (hands,
//! stock, discard pile, melds on the table, who has met the contract, whose turn it is).
//!
//! Used by scenario files ([`crate::suite::scenario`]). Everything is checked: the cards placed must be
//! exactly this game's pack, table melds must be melds, seats must be at the table. Problems come
//! back as a [`PositionError`] that says which part of the position is wrong, so that a scenario
//! can point at the line.

use crate::base::card::{Card, Counts};
use crate::base::rng::Rng;
use crate::engine::game::{Game, HandEnd, HandResult, MeldSpec, Progress, Stage, TableMeld, pack};
use crate::oracle::meld::{self, Query};
use crate::rules::Rules;
use std::sync::Arc;

/// How a game starts: the table and the generator.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Start {
    pub players: u8,
    pub dealer: u8,
    /// The deal the game starts at, from 0 (the first deal).
    pub round: usize,
    /// The generator's seed. It shuffles the first deal played (unless an explicit order is given)
    /// and everything after it.
    pub seed: u64,
    /// Points per side of hands played before the start, one row per hand (the last row is "the
    /// last hand" for the reading `ties`).
    pub scores: Vec<Vec<i64>>,
    /// Explicit pack orders (first card on top) for the coming deals, used before the generator.
    pub decks: Vec<Vec<Card>>,
}

/// Where the cards not placed explicitly go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Rest {
    /// Nowhere: every card of the pack must be placed.
    #[default]
    None,
    /// Under the listed stock cards, in canonical pack order (the first of them nearest the top).
    Stock,
    /// Under the listed discard pile, in canonical pack order (the first of them nearest the top).
    Discard,
}

/// An explicit position within a deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Each seat's hand.
    pub hands: Vec<Vec<Card>>,
    /// The stock, top card first.
    pub stock: Vec<Card>,
    /// The discard pile, top card first.
    pub discard: Vec<Card>,
    pub rest: Rest,
    /// Melds on the table, in table order: owner and meld (kind and declarations optional),
    /// each meld's cards in the order they were laid, which the table meld keeps.
    pub table: Vec<(u8, MeldSpec)>,
    /// Seats that have met this deal's contract; `None`: the owners of table melds.
    pub contract_met: Option<Vec<u8>>,
    /// The seat to play; `None`: the first player of the deal.
    pub turn: Option<u8>,
    /// `Draw` (the turn starts) or `Play` (the draw was made).
    pub stage: Stage,
    /// The card taken from the discard pile this turn (only with `Stage::Play`).
    pub taken: Option<Card>,
    /// Buys each seat has made this hand (`buying`); empty: none.
    pub buys: Vec<u8>,
    /// With `Stage::Buy`: the player on turn, who drew from the stock; `turn` is the seat asked
    /// whether it buys the top discard.
    pub window: Option<u8>,
}

/// Which part of a start or position is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// Players, dealer, round or scores.
    Table,
    /// An explicit pack order (index into `Start::decks`).
    Deck(usize),
    Hand(u8),
    Stock,
    Discard,
    /// A table meld (index).
    Meld(usize),
    ContractMet,
    Turn,
    Stage,
    Taken,
    /// The buys made, or the buy window.
    Buying,
    /// The cards as a whole (missing or extra cards).
    Cards,
}

/// A start or position that cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    pub place: Place,
    pub message: String,
}

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PositionError {}

impl Default for Position {
    fn default() -> Self {
        Position {
            hands: Vec::new(),
            stock: Vec::new(),
            discard: Vec::new(),
            rest: Rest::None,
            table: Vec::new(),
            contract_met: None,
            turn: None,
            stage: Stage::Draw,
            taken: None,
            buys: Vec::new(),
            window: None,
        }
    }
}

fn err(place: Place, message: impl Into<String>) -> PositionError {
    PositionError {
        place,
        message: message.into(),
    }
}

/// Compares placed cards with the pack: `Ok` when they are exactly the pack, otherwise a message
/// naming the cards missing and the cards placed too often (with where they were placed).
///
/// # Errors
/// That message, when the placed cards are not exactly the pack for `players`.
pub fn check_pack(
    rules: &Rules,
    players: u8,
    placed: &[(String, Vec<Card>)],
) -> Result<(), String> {
    let want = Counts::from_cards(&pack(rules, players));
    let mut have = Counts::new();
    for (_, cards) in placed {
        have.add_all(&Counts::from_cards(cards));
    }
    if have == want {
        return Ok(());
    }
    let mut problems = Vec::new();
    for card in Card::all() {
        let (h, w) = (have.count(card), want.count(card));
        if h > w {
            // Counted again here: the hand's count of one card stops at 255.
            let h: usize = placed
                .iter()
                .map(|(_, v)| v.iter().filter(|&&c| c == card).count())
                .sum();
            let places: Vec<&str> = placed
                .iter()
                .filter(|(_, v)| v.contains(&card))
                .map(|(p, _)| p.as_str())
                .collect();
            problems.push(if w == 0 {
                format!(
                    "{card} is not in this pack (placed in {})",
                    places.join(", ")
                )
            } else {
                format!(
                    "{card} is placed {h} times ({}) but the pack has {w}",
                    places.join(", ")
                )
            });
        }
    }
    let mut missing = Vec::new();
    for card in Card::all() {
        let (h, w) = (have.count(card), want.count(card));
        for _ in h..w {
            missing.push(card.to_string());
        }
    }
    if !missing.is_empty() {
        let shown = if missing.len() > 16 {
            format!(
                "{} and {} more",
                missing[..16].join(" "),
                missing.len() - 16
            )
        } else {
            missing.join(" ")
        };
        problems.push(format!(
            "{} card(s) of the pack are not placed: {shown}",
            missing.len()
        ));
    }
    Err(format!(
        "the cards are not the pack of {} for {players} players ({} cards): {}",
        rules.name,
        want.len(),
        problems.join("; ")
    ))
}

/// Each explicit pack order of `start` is exactly this game's pack.
fn check_decks(rules: &Rules, start: &Start) -> Result<(), PositionError> {
    for (i, d) in start.decks.iter().enumerate() {
        check_pack(
            rules,
            start.players,
            &[(format!("deck {}", i + 1), d.clone())],
        )
        .map_err(|m| err(Place::Deck(i), m))?;
    }
    Ok(())
}

impl Game {
    /// A game starting at deal `start.round` (dealt from `start.decks[0]` or shuffled by the
    /// seed), after the hands in `start.scores`.
    ///
    /// # Errors
    /// A player count the rules do not allow, a dealer or round out of range, score rows of the
    /// wrong width, or an explicit pack that is not this game's pack.
    pub fn start_at(rules: Arc<Rules>, start: &Start) -> Result<Game, PositionError> {
        let rounds = rules.rounds.len();
        if start.round >= rounds {
            return Err(err(
                Place::Table,
                format!(
                    "{} has {rounds} deal(s); deal {} does not exist",
                    rules.name,
                    start.round + 1
                ),
            ));
        }
        if start.players < rules.players.0 || start.players > rules.players.1 {
            return Err(err(
                Place::Table,
                format!(
                    "{} is played by {} to {} players, not {}",
                    rules.name, rules.players.0, rules.players.1, start.players
                ),
            ));
        }
        check_decks(&rules, start)?;
        // Deal the requested round as if it were the first: the same rules with the earlier deals
        // left out, then the full rules back in place.
        let mut later = (*rules).clone();
        later.rounds = rules.rounds[start.round..].to_vec();
        let mut g = Game::new(
            Arc::new(later),
            start.players,
            start.dealer,
            start.seed,
            start.decks.clone(),
        )
        .map_err(|e| err(Place::Table, e.0))?;
        g.rules = rules;
        g.round = start.round;
        for (i, row) in start.scores.iter().enumerate() {
            if row.len() != usize::from(g.sides) {
                return Err(err(
                    Place::Table,
                    format!(
                        "score row {} has {} value(s); this table has {} side(s)",
                        i + 1,
                        row.len(),
                        g.sides
                    ),
                ));
            }
            for (t, p) in g.totals.iter_mut().zip(row) {
                *t += *p;
            }
            // How the earlier hands ended is not known; only their points count.
            Arc::make_mut(&mut g.results).push(HandResult {
                end: HandEnd::StockOut,
                points: row.clone(),
                hands: Vec::new(),
            });
        }
        Ok(g)
    }

    /// A game in an explicit position of deal `start.round`. The generator is seeded with
    /// `start.seed` at this point (for reshuffles and the deals after this one).
    ///
    /// # Errors
    /// As [`Game::start_at`], and a position that does not fit the game: cards that are not
    /// exactly the pack, an invalid or ambiguous table meld, seats not at the table, a taken card
    /// not in the hand of the seat to play.
    pub fn from_position(
        rules: Arc<Rules>,
        start: &Start,
        pos: &Position,
    ) -> Result<Game, PositionError> {
        let later_decks = Start {
            decks: Vec::new(),
            ..start.clone()
        };
        check_decks(&rules, start)?;
        let mut g = Game::start_at(rules, &later_decks)?;
        let n = usize::from(g.players);
        check_hand_count(pos, n)?;
        // Table melds first: their cards count as placed.
        let table = table_melds(&g.rules, pos, n)?;
        let (stock, discard) = stock_and_discard(&g.rules, g.players, pos, &table)?;
        let contract = g.rules.rounds[g.round].contract.len();
        let progress = contract_progress(contract, pos, &table, n)?;
        let turn = pos.turn.unwrap_or(g.deal.turn);
        check_turn(pos, turn, n)?;
        check_buying(&g.rules, pos, turn, n)?;
        g.deal.hands = pos.hands.iter().map(|h| Counts::from_cards(h)).collect();
        // The engine keeps piles with their top last.
        g.deal.stock = stock.into_iter().rev().collect();
        g.deal.discard = discard.into_iter().rev().collect();
        g.deal.table = table;
        g.deal.progress = Arc::new(progress);
        g.deal.turn = turn;
        g.deal.stage = pos.stage;
        g.deal.taken = pos.taken;
        g.deal.contract_turn = false;
        g.deal.table_progress = false;
        g.deal.stall = 0;
        g.deal.last_push = None;
        g.deal.window = pos.window;
        g.deal.buys = match (g.rules.buying, pos.buys.is_empty()) {
            (None, _) => Vec::new(),
            (Some(_), true) => vec![0; n],
            (Some(_), false) => pos.buys.clone(),
        };
        g.rng = Rng::new(start.seed);
        g.decks = start.decks.clone();
        Ok(g)
    }
}

/// The position gives one hand per seat.
fn check_hand_count(pos: &Position, n: usize) -> Result<(), PositionError> {
    if pos.hands.len() != n {
        return Err(err(
            Place::Hand(pos.hands.len().min(255) as u8),
            format!(
                "the position gives {} hand(s) for {n} players",
                pos.hands.len()
            ),
        ));
    }
    Ok(())
}

/// The position's table melds, each read by the meld oracle, in table order.
fn table_melds(
    rules: &Rules,
    pos: &Position,
    n: usize,
) -> Result<Vec<Arc<TableMeld>>, PositionError> {
    let mut table = Vec::with_capacity(pos.table.len());
    for (i, (owner, spec)) in pos.table.iter().enumerate() {
        table.push(Arc::new(table_meld(rules, n, i, *owner, spec)?));
    }
    Ok(table)
}

/// Table meld `i`: its owner is a seat, its cards are a meld, read one way (or declared, or
/// floating under `wild-declaration=never`).
fn table_meld(
    rules: &Rules,
    n: usize,
    i: usize,
    owner: u8,
    spec: &MeldSpec,
) -> Result<TableMeld, PositionError> {
    if usize::from(owner) >= n {
        return Err(err(
            Place::Meld(i),
            format!(
                "meld {i} belongs to seat {owner}, not a seat of {n} players (0 to {})",
                n - 1
            ),
        ));
    }
    // A set below `sets.min-size` is on the table only as a contract set of a fixed rank (`set of
    // 2 aces`, perhaps grown since): of a rank some deal's contract names at that size or less.
    let fixed = || {
        rules
            .rounds
            .iter()
            .flat_map(|r| &r.contract)
            .filter(|c| c.rank.is_some())
    };
    let n_cards = spec.cards.len();
    let floor = fixed().fold(rules.set_min, |m, c| m.min(c.size));
    let mut verdict = meld::interpret_at(
        rules,
        &Query {
            cards: spec.cards.clone(),
            kind: spec.kind,
            declared: spec.declared.clone(),
        },
        floor,
    );
    verdict.interpretations.retain(|x| {
        crate::oracle::contract::ordinary(rules, n_cards, x)
            || fixed().any(|c| usize::from(c.size) <= n_cards && c.rank == x.rank)
    });
    if verdict.interpretations.is_empty() && verdict.reason.is_empty() {
        verdict.reason = format!(
            "a set needs at least {} cards; a smaller one is a contract set of a fixed rank, and no deal names one of these",
            rules.set_min
        );
    }
    if !verdict.is_valid() {
        return Err(err(
            Place::Meld(i),
            format!(
                "meld {i} ({}) is not a meld: {}",
                crate::base::card::format_cards(&spec.cards),
                verdict.reason
            ),
        ));
    }
    if crate::engine::game::needs_declaration(&verdict.interpretations)
        && crate::engine::game::meld_declares(rules, &spec.cards).pins()
    {
        let options: Vec<String> = verdict
            .interpretations
            .iter()
            .take(4)
            .map(|x| x.describe())
            .collect();
        return Err(err(
            Place::Meld(i),
            format!(
                "meld {i} ({}) can be read {} ways ({}): declare its kind or what its wilds stand for",
                crate::base::card::format_cards(&spec.cards),
                verdict.interpretations.len(),
                options.join("; ")
            ),
        ));
    }
    // The cards keep the order the position lists them in: the order they were laid.
    Ok(TableMeld::new(
        owner,
        spec.cards.clone(),
        verdict.interpretations,
    ))
}

/// The stock and the discard pile (top card first), the rest of the pack added to one of them
/// where `pos.rest` says so, once every card placed is checked to be exactly the pack.
fn stock_and_discard(
    rules: &Rules,
    players: u8,
    pos: &Position,
    table: &[Arc<TableMeld>],
) -> Result<(Vec<Card>, Vec<Card>), PositionError> {
    // The rest of the pack, in canonical order.
    let mut placed: Vec<(String, Vec<Card>)> = Vec::new();
    for (s, h) in pos.hands.iter().enumerate() {
        placed.push((format!("hand of seat {s}"), h.clone()));
    }
    for (i, m) in table.iter().enumerate() {
        placed.push((format!("meld {i}"), m.cards.clone()));
    }
    placed.push(("stock".into(), pos.stock.clone()));
    placed.push(("discard pile".into(), pos.discard.clone()));
    let mut stock = pos.stock.clone();
    let mut discard = pos.discard.clone();
    if pos.rest != Rest::None {
        let mut rest = Counts::from_cards(&pack(rules, players));
        for (_, cards) in &placed {
            for c in cards {
                if !rest.remove(*c) {
                    // Too many of this card: reported below by the pack check.
                    continue;
                }
            }
        }
        let rest = rest.cards();
        match pos.rest {
            Rest::Stock => stock.extend(&rest),
            Rest::Discard => discard.extend(&rest),
            Rest::None => {}
        }
        let label = if pos.rest == Rest::Stock {
            "stock"
        } else {
            "discard pile"
        };
        placed.push((format!("the rest ({label})"), rest));
    }
    check_pack(rules, players, &placed).map_err(|m| {
        let listed: usize = placed.iter().map(|(_, c)| c.len()).sum();
        let hint = if pos.rest == Rest::None && listed < pack(rules, players).len() {
            "; `rest: stock` or `rest: discard` puts the cards not listed under the stock or the \
             discard pile"
        } else {
            ""
        };
        err(Place::Cards, format!("{m}{hint}"))
    })?;
    Ok((stock, discard))
}

/// Each seat's contract progress: met (every part filled) for the seats `pos.contract_met`
/// names, or else for the owners of table melds; open for the others.
fn contract_progress(
    contract: usize,
    pos: &Position,
    table: &[Arc<TableMeld>],
    n: usize,
) -> Result<Vec<Progress>, PositionError> {
    let met: Vec<u8> = match &pos.contract_met {
        Some(v) => v.clone(),
        None => {
            let mut v: Vec<u8> = table.iter().map(|m| m.owner).collect();
            v.sort_unstable();
            v.dedup();
            v
        }
    };
    let mut progress = vec![
        Progress {
            done: false,
            filled: vec![false; contract],
        };
        n
    ];
    for &s in &met {
        let Some(p) = progress.get_mut(usize::from(s)) else {
            return Err(err(
                Place::ContractMet,
                format!("seat {s} is not a seat of {n} players (0 to {})", n - 1),
            ));
        };
        p.done = true;
        p.filled = vec![true; contract];
    }
    Ok(progress)
}

/// The buys made and the buy window fit the rules: buying allowed where either is given, one
/// count per seat within `buying.per-hand`, and a window (stage buy) with a discard to buy, the
/// player on turn at the table and not the seat asked.
fn check_buying(rules: &Rules, pos: &Position, turn: u8, n: usize) -> Result<(), PositionError> {
    let given = !pos.buys.is_empty() || pos.window.is_some() || pos.stage == Stage::Buy;
    let Some(b) = rules.buying else {
        if given {
            return Err(err(
                Place::Buying,
                "buys and buy windows need rules that allow buying (buying.allowed: true)",
            ));
        }
        return Ok(());
    };
    if !pos.buys.is_empty() && pos.buys.len() != n {
        return Err(err(
            Place::Buying,
            format!(
                "the buys made are counted per seat: {} count(s) for {n} players",
                pos.buys.len()
            ),
        ));
    }
    if let Some(limit) = b.per_hand
        && let Some((s, k)) = pos.buys.iter().enumerate().find(|(_, k)| **k > limit)
    {
        return Err(err(
            Place::Buying,
            format!("seat {s} has made {k} buys; buying.per-hand allows {limit}"),
        ));
    }
    match (pos.window, pos.stage == Stage::Buy) {
        (None, false) => Ok(()),
        (Some(w), true) if usize::from(w) < n && w != turn && !pos.discard.is_empty() => Ok(()),
        (Some(_), true) => Err(err(
            Place::Buying,
            "a buy window needs the player on turn at the table, another seat asked (turn) and a discard to buy",
        )),
        _ => Err(err(
            Place::Buying,
            "a buy window (the player on turn) goes with stage buy, and stage buy with a window",
        )),
    }
}

/// The seat to play is at the table, the stage is a turn's, and a taken card is the seat to
/// play's (still in hand, or already melded or laid off this turn).
fn check_turn(pos: &Position, turn: u8, n: usize) -> Result<(), PositionError> {
    if usize::from(turn) >= n {
        return Err(err(
            Place::Turn,
            format!("seat {turn} is not a seat of {n} players (0 to {})", n - 1),
        ));
    }
    if pos.stage == Stage::Over {
        return Err(err(
            Place::Stage,
            "a position is at the draw or in play, not over",
        ));
    }
    if let Some(t) = pos.taken {
        if pos.stage != Stage::Play {
            return Err(err(
                Place::Taken,
                "a card is taken from the discard pile only once the draw is made (stage: play)",
            ));
        }
        // Still in hand, or already melded or laid off this turn.
        let placed = pos.table.iter().any(|(_, m)| m.cards.contains(&t));
        if !pos.hands[usize::from(turn)].contains(&t) && !placed {
            return Err(err(
                Place::Taken,
                format!(
                    "the taken card {t} is neither in the hand of seat {turn}, the seat to play, nor in a meld on the table"
                ),
            ));
        }
    }
    Ok(())
}
