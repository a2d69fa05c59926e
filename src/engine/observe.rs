//! What one seat may see: its own hand, the table, the top of the discard pile, how many cards the
//! others hold, the scores, and a pushed stock card only when `push-card-visibility` shows it.
//!
//! Invariant: an observation is a function of what the seat can see; changing cards hidden from
//! the seat (other hands, the stock) never changes it (a property test checks this).

use crate::base::card::Card;
use crate::engine::game::{Game, Stage};
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeenMeld {
    pub owner: u8,
    /// In the order they were laid, as the table keeps them.
    pub cards: Vec<String>,
    /// How each remaining interpretation reads, e.g. `run 8♣–Q♣`.
    pub readings: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeenPush {
    pub from: u8,
    pub to: u8,
    /// The pushed stock card(s), when this seat may see them.
    pub stock: Option<Vec<String>>,
}

/// Buying out of turn, where the rules allow it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeenBuying {
    /// While a buy window is open: the player on turn (the seat asked is `turn`).
    pub window: Option<u8>,
    /// Buys each seat has left this hand; null for unlimited.
    pub buys_left: Vec<Option<u8>>,
}

/// One seat's view of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Observation {
    pub seat: u8,
    pub round: usize,
    pub dealer: u8,
    pub turn: u8,
    pub stage: &'static str,
    pub hand: Vec<String>,
    pub hand_sizes: Vec<usize>,
    pub stock_size: usize,
    pub discard_top: Option<String>,
    pub discard_size: usize,
    pub table: Vec<SeenMeld>,
    pub contract_done: Vec<bool>,
    pub totals: Vec<i64>,
    pub last_push: Option<SeenPush>,
    /// Only where the rules allow buying (`buying.allowed`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buying: Option<SeenBuying>,
}

/// What `seat` sees now.
pub fn observe(game: &Game, seat: u8) -> Observation {
    let d = &game.deal;
    Observation {
        seat,
        round: game.round + 1,
        dealer: game.dealer,
        turn: d.turn,
        stage: match d.stage {
            Stage::Draw => "draw",
            Stage::Play => "play",
            Stage::Buy => "buy",
            Stage::Over => "over",
        },
        hand: d.hands[usize::from(seat)]
            .cards()
            .iter()
            .map(Card::to_string)
            .collect(),
        hand_sizes: d.hands.iter().map(|h| h.len()).collect(),
        stock_size: d.stock.len(),
        discard_top: d.discard.last().map(Card::to_string),
        discard_size: d.discard.len(),
        table: d
            .table
            .iter()
            .map(|m| SeenMeld {
                owner: m.owner,
                cards: m.cards.iter().map(Card::to_string).collect(),
                readings: m.interps.iter().map(|i| i.describe()).collect(),
            })
            .collect(),
        contract_done: d.progress.iter().map(|p| p.done).collect(),
        totals: game.totals.clone(),
        last_push: d
            .last_push
            .as_ref()
            .map(|(from, to, cards, face_up)| SeenPush {
                from: *from,
                to: *to,
                stock: (*face_up || *to == seat)
                    .then(|| cards.iter().map(Card::to_string).collect()),
            }),
        buying: game.rules.buying.map(|_| SeenBuying {
            window: d.window,
            buys_left: (0..game.players).map(|s| game.buys_left(s)).collect(),
        }),
    }
}
