//! Buying out of turn ("May I"), where `buying.allowed` is true.
//!
//! The rule, plainly. A turn starts with the player on turn taking the top discard (he has
//! priority) or drawing the top stock card (`draw-stock`); buying replaces the push (`push` is
//! refused: `push-not-allowed`). After a draw from the stock, while the top discard lies exposed,
//! the other seats are asked in turn order, starting from the seat after the player on turn: each
//! may `buy` it or `pass`. The first who buys takes it and `buying.penalty-cards` stock cards, and
//! asking stops; then (bought or not) the player on turn plays on, having drawn. One seat is to
//! move at each point: while the window is open the stage is [`Stage::Buy`] and the seat to move
//! is the seat asked ([`Deal::window`] keeps the player on turn).
//!
//! Only seats that may buy are asked: a seat with buys left this hand (`buying.per-hand`), not
//! down under `buying.when-down: forbidden`, while the stock holds the penalty cards (our choice,
//! unsourced: a buy that cannot be paid for in full is no buy; the draw itself comes first, so the
//! stock is counted after it). Where nobody may buy, no window opens. A discard nobody buys stays
//! on the pile (our choice: Joybells and Onze call it dead; it is covered by the next discard
//! anyway, and only a turn ended without a discard leaves it to the next player).
//!
//! The order of the stock cards (the player on turn draws first, then the buyer takes the next
//! ones) is our choice: Grandma Jeanne's May I (DroopyTersen/mayi) lets a May-I be called after the player on
//! turn drew from the stock; Onze has him draw after the buy.

use super::{Event, Game, Illegal, Reason, Stage, illegal};
use crate::base::card::CardList;
use crate::rules::Buying;

impl Game {
    /// The buying rules; `None` where buying is not allowed.
    fn buying(&self) -> Option<Buying> {
        self.rules.buying
    }

    /// Buys `seat` has made this hand.
    pub fn buys_made(&self, seat: u8) -> u8 {
        self.deal.buys.get(usize::from(seat)).copied().unwrap_or(0)
    }

    /// Buys `seat` has left this hand: `None` for unlimited (or where buying is not allowed).
    pub fn buys_left(&self, seat: u8) -> Option<u8> {
        let limit = self.buying()?.per_hand?;
        Some(limit.saturating_sub(self.buys_made(seat)))
    }

    /// Why `seat` may not buy now, whoever is asked: buying not allowed, no window open (none
    /// opens where the stock holds fewer cards than a buy takes), its buys used up, down under
    /// `when-down: forbidden`.
    /// `None` when only the order of asking stands between `seat` and a buy.
    pub(super) fn buy_refusal(&self, seat: u8) -> Option<Illegal> {
        let Some(b) = self.buying() else {
            return Some(illegal(
                Reason::BuyingNotAllowed,
                "buying out of turn is not allowed (buying.allowed)",
            ));
        };
        let Some(on_turn) = self.deal.window.filter(|_| self.deal.stage == Stage::Buy) else {
            return Some(illegal(
                Reason::NoBuyWindow,
                "nothing to buy now: the top discard is bought after the player on turn draws from the stock, while the other seats are asked (no one is asked where the stock holds fewer cards than a buy takes)",
            ));
        };
        if seat == on_turn {
            return Some(illegal(
                Reason::NoBuyWindow,
                format!(
                    "seat {seat} is on turn: it declined the discard by drawing from the stock"
                ),
            ));
        }
        if let Some(limit) = b.per_hand
            && self.buys_made(seat) >= limit
        {
            return Some(illegal(
                Reason::BuyLimit,
                format!("seat {seat} has made its {limit} buy(s) this hand (buying.per-hand)"),
            ));
        }
        if !b.when_down && self.deal.progress[usize::from(seat)].done {
            return Some(illegal(
                Reason::BuyWhenDown,
                format!(
                    "seat {seat} has met its contract and may no longer buy (buying.when-down=forbidden)"
                ),
            ));
        }
        None
    }

    /// Whether `seat` is asked in the window the player `on_turn` opened.
    fn may_buy(&self, b: Buying, seat: u8, on_turn: u8) -> bool {
        seat != on_turn
            && b.per_hand.is_none_or(|l| self.buys_made(seat) < l)
            && (b.when_down || !self.deal.progress[usize::from(seat)].done)
            && self.deal.stock.len() >= usize::from(b.penalty_cards)
    }

    /// The next seat after `from` (in turn order, before coming back to `on_turn`) that may buy.
    fn next_asked(&self, b: Buying, from: u8, on_turn: u8) -> Option<u8> {
        let mut s = self.seat_after(from);
        while s != on_turn {
            if self.may_buy(b, s, on_turn) {
                return Some(s);
            }
            s = self.seat_after(s);
        }
        None
    }

    /// `draw-stock` under buying or `push.allowed: false`: the player on turn declines the
    /// discard and draws the top stock card; then, under buying, the window opens where some seat
    /// may buy. An empty stock ends the hand (a stock-out), after a reshuffle under
    /// `reshuffle-discards` where the pile allows one.
    pub(super) fn draw_stock(&mut self, seat: u8, events: &mut Vec<Event>) -> Result<(), Illegal> {
        if !self.rules.draws_from_stock() {
            return Err(illegal(
                Reason::NoPlainDraw,
                "there is no plain draw from the stock: a turn starts by taking the discard or pushing",
            ));
        }
        if !self.draw_one(seat, events) {
            return Ok(());
        }
        self.deal.stage = Stage::Play;
        let Some(b) = self.buying() else {
            return Ok(());
        };
        if !self.deal.discard.is_empty()
            && let Some(asked) = self.next_asked(b, seat, seat)
        {
            self.deal.window = Some(seat);
            self.deal.turn = asked;
            self.deal.stage = Stage::Buy;
        }
        Ok(())
    }

    /// `buy` or `pass` by the seat asked (checked by `apply`: the seat to move).
    pub(super) fn answer(
        &mut self,
        seat: u8,
        buy: bool,
        events: &mut Vec<Event>,
    ) -> Result<(), Illegal> {
        let (Some(b), Some(on_turn), Stage::Buy) =
            (self.buying(), self.deal.window, self.deal.stage)
        else {
            return Err(self
                .buy_refusal(seat)
                .unwrap_or_else(|| illegal(Reason::NoBuyWindow, "nothing to buy or pass now")));
        };
        if buy {
            if let Some(e) = self.buy_refusal(seat) {
                return Err(e);
            }
            let card = self
                .deal
                .discard
                .pop()
                .expect("a window opens on a discard");
            let n = usize::from(b.penalty_cards);
            let at = self.deal.stock.len() - n;
            let mut stock: Vec<_> = self.deal.stock.drain(at..).collect();
            // Taken from the top one by one: the top card first.
            stock.reverse();
            let hand = &mut self.deal.hands[usize::from(seat)];
            hand.add(card);
            for &c in &stock {
                hand.add(c);
            }
            self.deal.buys[usize::from(seat)] += 1;
            events.push(Event::Bought {
                seat,
                card,
                stock: CardList::from_slice(&stock),
            });
            self.close_window(on_turn);
            return Ok(());
        }
        events.push(Event::Passed { seat });
        match self.next_asked(b, seat, on_turn) {
            Some(next) => self.deal.turn = next,
            None => self.close_window(on_turn),
        }
        Ok(())
    }

    /// The window closes: the player on turn plays on, his draw made.
    fn close_window(&mut self, on_turn: u8) {
        self.deal.window = None;
        self.deal.turn = on_turn;
        self.deal.stage = Stage::Play;
    }
}
