//! The game engine: a whole game of any rule set, driven by the compiled [`Rules`] alone.
//!
//! [`Game::apply`] takes one [`Action`] by the seat to play and returns the [`Event`]s it caused, or
//! an [`Illegal`] with a reason code; an illegal action leaves the game unchanged: `apply` commits
//! only on success. The automatic steps (dealing, the upcard, the end of a hand, scoring, the next
//! deal, the end of the game) happen inside `apply`. The engine does no I/O, reads no clock and
//! uses no global randomness: only its own seeded [`Rng`].
//!
//! Seats are numbered clockwise from 0; "left" is the next seat (`+1`), turn order is clockwise.
//!
//! This file holds the state (the [`Game`], its [`Deal`]), the [`Event`]s, and `apply`'s dispatch.
//! Each part of a turn is an `impl Game` block of its own:
//! - `setup.rs`: a new game, the pack, dealing a deal, the upcard;
//! - `draw.rs`: the start of a turn: taking the discard, or the push (`push_check` says when a push
//!   is allowed);
//! - `meld.rs`: new melds and the contract laydown; `lay_off.rs`: lay-offs and joins of runs;
//!   `rescue.rs`: taking a wild back from a meld;
//! - `checks.rs` and `declare.rs`: what every play onto the table shares (holding the cards, the
//!   contract first, going out on the table; when wilds must be declared);
//! - `discard.rs`: what makes a legal discard, and going out by discarding;
//! - `buy.rs`: buying the top discard out of turn ("May I"), where the rules allow it;
//! - `scoring.rs`: the end of a turn, stalls, the end of a hand, scoring, the winners.
//!
//! The types of what is played and refused are in `action.rs`, `reason.rs` and `table.rs`; `seen.rs`
//! is the memo of what a listing of legal actions (`crate::engine::legal`) computed for the
//! `apply` after it.

mod action;
mod buy;
mod checks;
mod declare;
mod discard;
mod draw;
mod lay_off;
mod meld;
mod reason;
mod rescue;
mod scoring;
mod seen;
mod setup;
mod table;
#[cfg(test)]
mod tests;

pub use action::{Action, MeldSpec};
pub use declare::{Declare, lay_off_declares, meld_declares, needs_declaration};
pub use reason::{Illegal, Reason};
pub use setup::pack;
pub use table::{TableMeld, common_kind, stamps_taken};

use crate::base::card::{Card, CardList, Counts};
use crate::base::rng::Rng;
use crate::rules::Rules;
use crate::rules::disputes::reading as rd;
use reason::illegal;
use seen::Seen;
use serde::Serialize;
use std::fmt;
use std::sync::Arc;
use table::LAY_OFF_ROOM;

/// Something that happened, in order. Hidden information is not hidden here: observations filter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    Dealt {
        round: usize,
        dealer: u8,
        first: u8,
    },
    UpcardBuried {
        card: Card,
    },
    Upcard {
        card: Card,
    },
    TookDiscard {
        seat: u8,
        card: Card,
    },
    Pushed {
        seat: u8,
        to: u8,
        discard: Option<Card>,
        stock: CardList,
        face_up: bool,
    },
    Drew {
        seat: u8,
        card: Card,
    },
    Reshuffled {
        cards: usize,
    },
    Melded {
        seat: u8,
        meld: usize,
        cards: CardList,
        contract: bool,
    },
    LaidOff {
        seat: u8,
        meld: usize,
        cards: CardList,
        joined: Option<usize>,
    },
    Rescued {
        seat: u8,
        meld: usize,
        natural: Card,
        wild: Card,
    },
    Discarded {
        seat: u8,
        card: Card,
    },
    /// A seat not on turn bought the top discard, with `stock` (top card first) as penalty.
    Bought {
        seat: u8,
        card: Card,
        stock: CardList,
    },
    /// A seat asked whether it buys the top discard declined.
    Passed {
        seat: u8,
    },
    TurnEnded {
        seat: u8,
    },
    WentOut {
        seat: u8,
    },
    HandEnded {
        reason: String,
        points: Vec<i64>,
        totals: Vec<i64>,
    },
    GameEnded {
        winners: Vec<u8>,
        totals: Vec<i64>,
    },
}

/// Where a turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Draw,
    Play,
    /// A buy window is open (`buying.allowed`): the seat to move is the seat asked whether it buys
    /// the top discard; the player on turn has drawn from the stock and waits ([`Deal::window`]).
    Buy,
    /// The game has ended.
    Over,
}

/// How a hand ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HandEnd {
    WentOut(u8),
    StockOut,
    Stalled,
}

/// One finished hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandResult {
    pub end: HandEnd,
    /// Points scored by each side this hand (below 0 only for a side whose player went out
    /// under `scoring.going-out-bonus`).
    pub points: Vec<i64>,
    /// The cards each seat held when the hand ended, which the points were counted from (empty
    /// for a hand a position names only by its points).
    pub hands: Vec<Counts>,
}

/// Per-seat contract progress.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    pub done: bool,
    /// Components already down (piecemeal).
    pub filled: Vec<bool>,
}

/// The state of one deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    /// The stock; its top is the last element.
    pub stock: Vec<Card>,
    /// The discard pile; its top is the last element.
    pub discard: Vec<Card>,
    pub hands: Vec<Counts>,
    /// Shared on copy: a copy of the game (a trial move) copies only pointers to the melds.
    pub table: Vec<Arc<TableMeld>>,
    /// Shared on copy, like the table: it changes only when melds go down.
    pub progress: Arc<Vec<Progress>>,
    pub turn: u8,
    pub stage: Stage,
    /// The card taken from the discard pile this turn.
    pub taken: Option<Card>,
    /// The contract went down this turn.
    pub contract_turn: bool,
    /// A card reached the table this turn.
    pub table_progress: bool,
    /// Turns in a row in which no card reached the table.
    pub stall: u32,
    /// Times the stock was rebuilt from the discards in this hand (`stock.rebuilds`).
    pub rebuilds: u16,
    /// The last push: (from, to, stock cards pushed, shown to every seat).
    pub last_push: Option<(u8, u8, Vec<Card>, bool)>,
    /// While a buy window is open (stage [`Stage::Buy`]): the player on turn, who plays on once
    /// it closes.
    pub window: Option<u8>,
    /// Buys each seat made this hand; empty where buying is not allowed.
    pub buys: Vec<u8>,
}

impl Deal {
    /// A deal before its first turn: the upcard not yet turned.
    fn fresh(stock: Vec<Card>, hands: Vec<Counts>, progress: Arc<Vec<Progress>>, turn: u8) -> Deal {
        Deal {
            stock,
            discard: Vec::new(),
            hands,
            table: Vec::new(),
            progress,
            turn,
            stage: Stage::Draw,
            taken: None,
            contract_turn: false,
            table_progress: false,
            stall: 0,
            rebuilds: 0,
            last_push: None,
            window: None,
            buys: Vec::new(),
        }
    }
}

/// A whole game.
#[derive(Clone, Debug)]
pub struct Game {
    pub rules: Arc<Rules>,
    pub players: u8,
    /// Side of each seat (partners share a side).
    pub side_of: Vec<u8>,
    pub sides: u8,
    pub round: usize,
    pub dealer: u8,
    /// Cumulative score per side.
    pub totals: Vec<i64>,
    /// Shared on copy: it changes only when a hand ends.
    pub results: Arc<Vec<HandResult>>,
    pub deal: Deal,
    pub rng: Rng,
    pub winners: Vec<u8>,
    /// Explicit pack orders for the coming deals (first card = top), used before the generator.
    pub decks: Vec<Vec<Card>>,
    /// What a listing just computed (a meld candidate's interpretations, a one-card extension),
    /// for the `apply` that follows.
    pub(crate) seen: Seen,
}

/// Why a game could not be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError(pub String);

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SetupError {}

impl Game {
    /// The seat to play.
    pub fn turn(&self) -> u8 {
        self.deal.turn
    }

    pub fn is_over(&self) -> bool {
        self.deal.stage == Stage::Over
    }

    // The next and previous seats without a division (a seat is below `players`): every turn
    // asks for the next.
    fn seat_after(&self, s: u8) -> u8 {
        debug_assert!(s < self.players);
        if s + 1 == self.players { 0 } else { s + 1 }
    }

    fn seat_before(&self, s: u8) -> u8 {
        debug_assert!(s < self.players);
        if s == 0 { self.players - 1 } else { s - 1 }
    }

    /// Applies `action` by `seat`.
    ///
    /// # Errors
    /// The action is not legal now; the game is unchanged.
    pub fn apply(&mut self, seat: u8, action: &Action) -> Result<Vec<Event>, Illegal> {
        let mut events = Vec::new();
        self.apply_into(seat, action, &mut events)?;
        Ok(events)
    }

    /// [`Game::apply`], appending the events to `events`; a refused action leaves both the game
    /// and `events` as they were. For callers that keep one list of a whole game's events.
    pub fn apply_into(
        &mut self,
        seat: u8,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), Illegal> {
        if let Err(e) = self.check_turn(seat) {
            return Err(self.refusal_out_of_turn(seat, action, e));
        }
        let before = events.len();
        let done = match action {
            // These check everything before they change anything: no copy needed.
            Action::TakeDiscard
            | Action::Push
            | Action::DrawStock
            | Action::LayOff { .. }
            | Action::Discard(_)
            | Action::EndTurn
            | Action::Buy
            | Action::Pass => self.act(seat, action, events),
            // A meld or a rescue may change things before its last check: see `act_or_put_back`.
            Action::Meld(_) | Action::Rescue { .. } => self.act_or_put_back(seat, action, events),
        };
        if let Err(e) = done {
            events.truncate(before);
            return Err(e);
        }
        #[cfg(debug_assertions)]
        self.check_invariants();
        Ok(())
    }

    /// [`Game::act`] for a meld or a rescue, which changes only the seat's hand, the contract
    /// progress, the table and two flags of the deal before its last check (a hand ends only once
    /// every check has passed): a refused one has those put back. A meld only adds to the table.
    fn act_or_put_back(
        &mut self,
        seat: u8,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), Illegal> {
        #[cfg(debug_assertions)]
        let was = (self.deal.clone(), self.round, self.totals.clone());
        let si = usize::from(seat);
        let hand = self.deal.hands[si].clone();
        // Only the seat's own contract progress can change, and only while its contract
        // is not met: that much is kept (holding the whole list would make the meld copy
        // every seat's).
        let progress = (!self.deal.progress[si].done).then(|| self.deal.progress[si].clone());
        let melds = self.deal.table.len();
        // A rescue replaces its meld as its last step, and after it only a follow-up can
        // fail (or the missing one that `meld-same-turn` requires): only then is the
        // table kept to put back.
        let must = self.rules.readings.rescued_wild_fate == rd::RescuedWildFate::MeldSameTurn;
        let table = matches!(action, Action::Rescue { then, .. } if then.is_some() || must)
            .then(|| self.deal.table.clone());
        let flags = (self.deal.contract_turn, self.deal.table_progress);
        let done = self.act(seat, action, events);
        if done.is_err() {
            self.deal.hands[si] = hand;
            if let Some(p) = progress
                && self.deal.progress[si] != p
            {
                Arc::make_mut(&mut self.deal.progress)[si] = p;
            }
            match table {
                Some(t) => self.deal.table = t,
                None => self.deal.table.truncate(melds),
            }
            (self.deal.contract_turn, self.deal.table_progress) = flags;
            #[cfg(debug_assertions)]
            assert!(
                was == (self.deal.clone(), self.round, self.totals.clone()),
                "a refused {action} left the game changed"
            );
        }
        done
    }

    /// Why `action` by `seat`, not the seat to move, is refused: for a buy, what keeps this seat
    /// from buying at all comes before the order of asking (`turn`).
    #[cold]
    fn refusal_out_of_turn(&self, seat: u8, action: &Action, turn: Illegal) -> Illegal {
        if matches!(action, Action::Buy) && !self.is_over() {
            return self.buy_refusal(seat).unwrap_or(turn);
        }
        turn
    }

    fn check_turn(&self, seat: u8) -> Result<(), Illegal> {
        if self.is_over() {
            return Err(illegal(Reason::GameOver, "the game is over"));
        }
        if seat != self.deal.turn {
            return Err(illegal(
                Reason::NotYourTurn,
                format!("seat {} is to play, not seat {seat}", self.deal.turn),
            ));
        }
        Ok(())
    }

    /// Whether `apply(seat, action)` would accept the action; the game is unchanged. Cheaper than
    /// applying to a copy, which would copy the game twice.
    pub fn accepts(&self, seat: u8, action: &Action) -> bool {
        if self.check_turn(seat).is_err() {
            return false;
        }
        if let Action::LayOff {
            meld,
            cards,
            declared,
            join,
        } = action
        {
            // Checked in full without a copy (as `act` does before changing anything).
            return self.deal.stage == Stage::Play
                && self
                    .plan_lay_off(seat, *meld, cards, declared, *join, None)
                    .is_ok();
        }
        let mut scratch = self.clone();
        scratch.act(seat, action, &mut Vec::new()).is_ok()
    }

    /// Why an action that its stage does not allow is refused: in a buy window only `buy` and
    /// `pass`; at the draw only a draw; in play no draw.
    #[cold]
    fn out_of_stage(&self, seat: u8) -> Illegal {
        match self.deal.stage {
            Stage::Buy => illegal(
                Reason::MustBuyOrPass,
                format!("seat {seat} is asked whether it buys the top discard: buy or pass"),
            ),
            Stage::Draw if self.rules.draws_from_stock() => illegal(
                Reason::MustDrawFirst,
                "a turn starts with a draw: take the discard or draw from the stock",
            ),
            Stage::Draw => illegal(
                Reason::MustDrawFirst,
                "a turn starts with a draw: take the discard or push",
            ),
            Stage::Play | Stage::Over => {
                illegal(Reason::AlreadyDrew, "the draw was already made this turn")
            }
        }
    }

    fn act(&mut self, seat: u8, action: &Action, events: &mut Vec<Event>) -> Result<(), Illegal> {
        match action {
            Action::DrawStock if self.deal.stage == Stage::Play && self.must_draw(seat) => {
                // A card from the stock until one may be discarded (`draw-until-allowed`); an
                // empty stock that cannot be rebuilt ends the hand.
                self.draw_one(seat, events);
                Ok(())
            }
            Action::DrawStock if !self.rules.draws_from_stock() => Err(illegal(
                Reason::NoPlainDraw,
                "there is no plain draw from the stock: a turn starts by taking the discard or pushing",
            )),
            Action::Buy => self.answer(seat, true, events),
            Action::Pass => self.answer(seat, false, events),
            Action::TakeDiscard | Action::Push | Action::DrawStock
                if self.deal.stage != Stage::Draw =>
            {
                Err(self.out_of_stage(seat))
            }
            Action::TakeDiscard => self.take_discard(seat, events),
            Action::Push => self.push(seat, events),
            Action::DrawStock => self.draw_stock(seat, events),
            _ if self.deal.stage != Stage::Play => Err(self.out_of_stage(seat)),
            Action::Meld(specs) => self.meld(seat, specs, None, events),
            Action::LayOff {
                meld,
                cards,
                declared,
                join,
            } => self.lay_off(seat, *meld, cards, declared, *join, None, events),
            Action::Rescue {
                meld,
                natural,
                wild,
                then,
            } => self.rescue(seat, *meld, *natural, *wild, then.as_deref(), events),
            Action::Discard(card) => self.discard(seat, *card, events),
            Action::EndTurn => self.end_turn_without_discard(seat, events),
        }
    }

    /// Every card is in exactly one place; panics otherwise (debug builds and tests).
    pub fn check_invariants(&self) {
        let mut all = Counts::from_cards(&self.deal.stock);
        all.add_all(&Counts::from_cards(&self.deal.discard));
        for h in &self.deal.hands {
            all.add_all(h);
        }
        for m in &self.deal.table {
            all.add_all(&Counts::from_cards(&m.cards));
            assert!(
                !m.interps.is_empty(),
                "a table meld keeps an interpretation"
            );
        }
        let (decks, jokers) = self.rules.pack(self.players);
        let conserved = Card::all().all(|c| {
            let want = if c.is_joker() { jokers } else { decks };
            all.count(c) == want
        });
        assert!(conserved, "cards are conserved: {all:?}");
        let sum: Vec<i64> = (0..usize::from(self.sides))
            .map(|s| self.results.iter().map(|r| r.points[s]).sum())
            .collect();
        assert_eq!(sum, self.totals, "totals are the sum of the hands' points");
    }
}
