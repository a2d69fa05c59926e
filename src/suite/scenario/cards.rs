//! The `cards` of a scenario: a seed for the generator, pack orders for this deal and the next
//! (`deck`, `decks`), or an explicit position (`hands` with the stock, the discard pile, the
//! table, whose turn and stage it is). Which keys go together is checked here; whether the cards
//! make a pack and the position can be played is the engine's to say when the game is set up,
//! and each place read is remembered ([`Places`]) to point at the key behind a refusal.

use super::ctx::{Ctx, clip, join};
use super::{CARDS_KEYS, POSITION_ONLY};
use crate::base::yaml::{Node, Pos, Value};
use crate::engine::game::Stage;
use crate::engine::position::{Place, Position, Rest, Start};
use std::collections::BTreeMap;

/// Where each place of the start or position was given: the place, its node's position and its
/// field path, in the order read.
pub(super) type Places = Vec<(Place, Pos, String)>;

/// Reads the cards into `start` (the seed, the pack orders); the explicit position where `hands`
/// gives one.
pub(super) fn read_cards(
    cx: &mut Ctx,
    node: &Node,
    start: &mut Start,
    places: &mut Places,
) -> Option<Position> {
    let players = start.players;
    let entries: BTreeMap<String, &Node> = cx
        .map(node, "cards", &CARDS_KEYS, "the cards")
        .into_iter()
        .collect();
    if let Some(v) = entries.get("seed") {
        read_seed(cx, v, start);
    }
    check_keys_go_together(cx, node, &entries);
    read_decks(cx, &entries, start, places);
    let hands = entries.get("hands")?;
    Some(read_position(cx, node, hands, &entries, players, places))
}

/// `seed`: any 64-bit unsigned seed. YAML integers stop at 2^63 - 1, so larger ones are written
/// as quoted decimal text, as the protocol writes the generator.
fn read_seed(cx: &mut Ctx, v: &Node, start: &mut Start) {
    match &v.value {
        Value::Str(t) => match t.trim().parse::<u64>() {
            Ok(n) => start.seed = n,
            Err(_) => cx.err(
                v,
                "cards.seed",
                format!("`{}` is not a seed (0 to 18446744073709551615)", clip(t)),
            ),
        },
        _ => {
            if let Some(n) = cx.int(v, "cards.seed", 0, i64::MAX) {
                start.seed = n as u64;
            }
        }
    }
}

/// The cards are given one way: a seed, a pack order or a position, and the keys of a position
/// only with `hands`.
fn check_keys_go_together(cx: &mut Ctx, node: &Node, entries: &BTreeMap<String, &Node>) {
    let has = |k: &str| entries.contains_key(k);
    if !has("seed") && !has("deck") && !has("decks") && !has("hands") {
        cx.err_hint(
            node,
            "cards",
            "the cards are not given",
            "give `seed: N`, a `deck:` (top card first) or `hands:` with a stock and discard pile",
        );
    }
    if has("deck") && has("decks") {
        cx.err(
            entries["decks"],
            "cards.decks",
            "give `deck` (this deal) or `decks` (this deal and the next), not both",
        );
    }
    if has("hands") && has("deck") {
        cx.err_hint(
            entries["deck"],
            "cards.deck",
            "`deck` orders the pack for a fresh deal; with `hands` the deal is already made",
            "use `decks` for the pack orders of the deals after this one",
        );
    }
    if !has("hands") {
        for k in POSITION_ONLY {
            if let Some(n) = entries.get(k) {
                cx.err_hint(
                    n,
                    &join("cards", k),
                    format!("`{k}` belongs to an explicit position"),
                    "give `hands:` too, or leave the deal to `seed` or `deck`",
                );
            }
        }
    }
}

/// `deck` (this deal's pack order, top card first) and `decks` (this deal's and the next ones').
fn read_decks(
    cx: &mut Ctx,
    entries: &BTreeMap<String, &Node>,
    start: &mut Start,
    places: &mut Places,
) {
    if let Some(v) = entries.get("deck")
        && let Some(d) = cx.cards(v, "cards.deck")
    {
        places.push((Place::Deck(0), v.pos, "cards.deck".into()));
        start.decks.push(d);
    }
    if let Some(v) = entries.get("decks")
        && let Some(items) = cx.list(v, "cards.decks", "a list of pack orders")
    {
        for (i, it) in items.iter().enumerate() {
            let p = format!("cards.decks[{i}]");
            if let Some(d) = cx.cards(it, &p) {
                places.push((Place::Deck(start.decks.len()), it.pos, p));
                start.decks.push(d);
            }
        }
    }
}

/// An explicit position: the `hands` (`hn`), then the piles, where the rest of the pack goes, the
/// table, who has met the contract, and whose turn, which stage and which card taken.
fn read_position(
    cx: &mut Ctx,
    node: &Node,
    hn: &Node,
    entries: &BTreeMap<String, &Node>,
    players: u8,
    places: &mut Places,
) -> Position {
    let mut pos = Position {
        hands: vec![Vec::new(); usize::from(players)],
        ..Position::default()
    };
    places.push((Place::Hand(u8::MAX), hn.pos, "cards.hands".into()));
    for (seat, v, p) in cx.per_seat(hn, "cards.hands", players) {
        if let Some(c) = cx.cards(v, &p) {
            pos.hands[usize::from(seat)] = c;
        }
        places.push((Place::Hand(seat), v.pos, p));
    }
    for (k, place) in [("stock", Place::Stock), ("discard", Place::Discard)] {
        if let Some(v) = entries.get(k) {
            let p = join("cards", k);
            let c = cx.cards(v, &p).unwrap_or_default();
            if k == "stock" {
                pos.stock = c;
            } else {
                pos.discard = c;
            }
            places.push((place, v.pos, p));
        }
    }
    if let Some(v) = entries.get("rest") {
        read_rest(cx, v, &mut pos);
    }
    if let Some(v) = entries.get("table")
        && let Some(melds) = cx.melds(v, "cards.table", players)
    {
        if let Value::Seq(items) = &v.value {
            for (i, it) in items.iter().enumerate() {
                places.push((Place::Meld(i), it.pos, format!("cards.table[{i}]")));
            }
        }
        pos.table = melds.into_iter().map(|m| (m.owner, m.spec)).collect();
    }
    if let Some(v) = entries.get("contract-met") {
        places.push((Place::ContractMet, v.pos, "cards.contract-met".into()));
        pos.contract_met = cx.seats(v, "cards.contract-met", players);
    }
    if let Some(v) = entries.get("turn") {
        places.push((Place::Turn, v.pos, "cards.turn".into()));
        pos.turn = cx.seat(v, "cards.turn", players);
    }
    if let Some(v) = entries.get("stage") {
        places.push((Place::Stage, v.pos, "cards.stage".into()));
        read_stage(cx, v, &mut pos);
    }
    if let Some(v) = entries.get("taken") {
        places.push((Place::Taken, v.pos, "cards.taken".into()));
        read_taken(cx, v, &mut pos);
    }
    if let Some(v) = entries.get("buys") {
        places.push((Place::Buying, v.pos, "cards.buys".into()));
        pos.buys = vec![0; usize::from(players)];
        for (seat, k, p) in cx.per_seat(v, "cards.buys", players) {
            if let Some(k) = cx.int(k, &p, 0, 100) {
                pos.buys[usize::from(seat)] = k as u8;
            }
        }
    }
    if let Some(v) = entries.get("window") {
        places.push((Place::Buying, v.pos, "cards.window".into()));
        pos.window = cx.seat(v, "cards.window", players);
    }
    places.push((Place::Cards, node.pos, "cards".into()));
    pos
}

/// `rest`: where the cards of the pack not listed go.
fn read_rest(cx: &mut Ctx, v: &Node, pos: &mut Position) {
    match v.scalar_text().as_deref() {
        Some("stock") => pos.rest = Rest::Stock,
        Some("discard") => pos.rest = Rest::Discard,
        Some("none") => pos.rest = Rest::None,
        _ => cx.err_hint(
            v,
            "cards.rest",
            "`rest` says where the cards not listed go",
            "write `rest: stock` (under the stock), `rest: discard` (under the discard pile) or `rest: none`",
        ),
    }
}

/// `stage`: the turn starts (`draw`) or the draw is made (`play`).
fn read_stage(cx: &mut Ctx, v: &Node, pos: &mut Position) {
    match v.scalar_text().as_deref() {
        Some("draw") => pos.stage = Stage::Draw,
        Some("play") => pos.stage = Stage::Play,
        Some("buy") => pos.stage = Stage::Buy,
        _ => cx.err_hint(
            v,
            "cards.stage",
            "the stage is `draw` (the turn starts), `play` (the draw is made) or `buy` (a buy window is open)",
            "write `stage: draw`, `stage: play` or `stage: buy` (with `window`)",
        ),
    }
}

/// `taken`: the one card taken from the discard pile this turn.
fn read_taken(cx: &mut Ctx, v: &Node, pos: &mut Position) {
    match cx.cards(v, "cards.taken").as_deref() {
        Some([c]) => pos.taken = Some(*c),
        Some(_) => cx.err(v, "cards.taken", "`taken` is one card"),
        None => {}
    }
}
