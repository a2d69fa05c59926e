//! The start of a turn, the draw: taking the top discard, or the push. There is no plain draw
//! from the stock ([`super::Action::DrawStock`] is refused: `no-plain-draw`).
//!
//! The push, plainly. Instead of taking the top discard, the seat to play may push: the top
//! discard and the top `push.stock-cards` stock card(s) go to the neighbour on the `push.to` side
//! (left: the next seat), the stock card(s) shown to every seat or only to the receiver
//! (`push-card-visibility`); then, under `pusher-draws=yes`, the pusher draws the next stock card
//! into its own hand. Either way the pusher then plays on (melds, lay-offs, the discard).
//!
//! When the stock runs short ([`Game::push_check`], which changes nothing and says which case
//! it is):
//! - under `stock.when-empty: reshuffle-discards`, a stock too small for the push and the draw is
//!   first topped up from the discard pile but its top card, shuffled;
//! - a push needs its stock card(s): with fewer it is refused (`push-not-allowed`), but with an
//!   empty stock the hand ends at once as a stock-out (the player wants to draw from an empty
//!   stock);
//! - `push-with-one-stock-card=forbidden`: with one stock card (or none) the push is refused and
//!   the player must take the discard, whether or not the pusher would draw (000/6-10 speaks of
//!   one card); a push also needs the pusher's draw in the stock, else it is refused the same
//!   way; `allowed-hand-ends`: a push with
//!   just its own stock cards goes ahead, and the pusher, finding no card to draw, ends the hand
//!   (a stock-out);
//! - with no discard to push (a turn ended without a discard), only stock cards go; where the
//!   stock cannot even pay for those, the hand ends (a stock-out).

use super::{Event, Game, HandEnd, Illegal, Reason, Stage, illegal};
use crate::base::card::CardList;
use crate::rules::disputes::reading as rd;
use crate::rules::{Direction, WhenEmpty};

impl Game {
    pub(super) fn take_discard(
        &mut self,
        seat: u8,
        events: &mut Vec<Event>,
    ) -> Result<(), Illegal> {
        let Some(card) = self.deal.discard.pop() else {
            return Err(illegal(
                Reason::DiscardPileEmpty,
                "the discard pile is empty",
            ));
        };
        self.deal.hands[usize::from(seat)].add(card);
        self.deal.taken = Some(card);
        self.deal.stage = Stage::Play;
        events.push(Event::TookDiscard { seat, card });
        Ok(())
    }

    /// Shuffles the discard pile but its top into a new stock (house rule `reshuffle-discards`).
    pub(super) fn reshuffle(&mut self, events: &mut Vec<Event>) -> bool {
        if !self.can_reshuffle() {
            return false;
        }
        let top = self.deal.discard.pop().expect("two or more");
        let mut rest = std::mem::take(&mut self.deal.discard);
        self.rng.shuffle(&mut rest);
        let n = rest.len();
        rest.extend(std::mem::take(&mut self.deal.stock));
        self.deal.stock = rest;
        self.deal.discard.push(top);
        self.deal.rebuilds += 1;
        events.push(Event::Reshuffled { cards: n });
        true
    }

    /// Whether a push is legal now, and what it does first: `Ok(Some(end))` when the hand ends at
    /// once (nobody can draw), `Ok(None)` for an ordinary push. Changes nothing.
    ///
    /// # Errors
    /// The push is refused (`push-not-allowed`).
    pub fn push_check(&self) -> Result<Option<HandEnd>, Illegal> {
        if self.rules.buying.is_some() {
            return Err(illegal(
                Reason::PushNotAllowed,
                "buying replaces the push: take the discard or draw from the stock (buying.allowed)",
            ));
        }
        if self.rules.no_push {
            return Err(illegal(
                Reason::PushNotAllowed,
                "there is no push: take the discard or draw from the stock (push.allowed=false)",
            ));
        }
        let need = usize::from(self.rules.push_stock_cards);
        let draws = usize::from(self.rules.readings.pusher_draws == rd::PusherDraws::Yes);
        let mut stock = self.deal.stock.len();
        if stock < need + draws && self.can_reshuffle() {
            stock += self.deal.discard.len() - 1;
        }
        let forbidden =
            self.rules.readings.push_with_one_stock_card == rd::PushWithOneStockCard::Forbidden;
        // 000/6-10: a stock of one card (or none) means taking the discard, whether or not the
        // pusher then draws; a push that needs more cards than are left is refused as well.
        let too_few = forbidden && (stock <= 1 || stock < need + draws);
        let no_discard = self.deal.discard.is_empty();
        if no_discard && (stock < need || too_few) {
            // Neither a discard to take nor enough stock to push: the hand ends (unsourced: this
            // arises only after a turn ended without a discard).
            return Ok(Some(HandEnd::StockOut));
        }
        if too_few {
            return Err(illegal(
                Reason::PushNotAllowed,
                format!(
                    "the stock holds {stock} card(s): the player must take the discard (push-with-one-stock-card=forbidden)"
                ),
            ));
        }
        if stock < need {
            if stock == 0 {
                // The player wants to draw from an empty stock: the hand ends.
                return Ok(Some(HandEnd::StockOut));
            }
            return Err(illegal(
                Reason::PushNotAllowed,
                format!("a push needs {need} stock card(s); the stock holds {stock}"),
            ));
        }
        Ok(None)
    }

    fn can_reshuffle(&self) -> bool {
        self.rules.when_empty == WhenEmpty::ReshuffleDiscards
            && self.deal.discard.len() >= 2
            && self
                .rules
                .max_rebuilds
                .is_none_or(|n| self.deal.rebuilds < n)
    }

    pub(super) fn push(&mut self, seat: u8, events: &mut Vec<Event>) -> Result<(), Illegal> {
        if let Some(end) = self.push_check()? {
            self.end_hand(end, events);
            return Ok(());
        }
        let need = usize::from(self.rules.push_stock_cards);
        let draws = self.rules.readings.pusher_draws == rd::PusherDraws::Yes;
        if self.deal.stock.len() < need + usize::from(draws) {
            self.reshuffle(events);
        }
        let to = match self.rules.push_to {
            Direction::Left => self.seat_after(seat),
            Direction::Right => self.seat_before(seat),
        };
        // With an empty discard pile (after a turn ended without a discard) only stock cards go.
        let top = self.deal.discard.pop();
        // The last push's space, reused.
        let mut pushed = self
            .deal
            .last_push
            .take()
            .map_or_else(|| Vec::with_capacity(need), |(.., v, _)| v);
        pushed.clear();
        for _ in 0..need {
            pushed.push(self.deal.stock.pop().expect("checked above"));
        }
        let face_up = self.rules.readings.push_card_visibility == rd::PushCardVisibility::FaceUp;
        let hand = &mut self.deal.hands[usize::from(to)];
        if let Some(t) = top {
            hand.add(t);
        }
        for &c in &pushed {
            hand.add(c);
        }
        events.push(Event::Pushed {
            seat,
            to,
            discard: top,
            stock: CardList::from_slice(&pushed),
            face_up,
        });
        self.deal.last_push = Some((seat, to, pushed, face_up));
        self.deal.stage = Stage::Play;
        if draws {
            self.draw_one(seat, events);
        }
        Ok(())
    }

    /// `seat` draws the top stock card; an empty stock is first rebuilt where `stock.when-empty`
    /// can, else the hand ends as a stock-out. Whether a card was drawn.
    pub(super) fn draw_one(&mut self, seat: u8, events: &mut Vec<Event>) -> bool {
        if self.deal.stock.is_empty() && !self.reshuffle(events) {
            self.end_hand(HandEnd::StockOut, events);
            return false;
        }
        let card = self.deal.stock.pop().expect("checked above");
        self.deal.hands[usize::from(seat)].add(card);
        events.push(Event::Drew { seat, card });
        true
    }
}
