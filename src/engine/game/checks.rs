//! The checks every play onto the table shares (a meld, a lay-off, a rescue): the seat holds the
//! cards (and gives them up), it may play freely (its contract is met, and not this very turn
//! under `contract-turn-extras=next-turn`), and emptying the hand on the table goes out, where
//! `going-out` allows it.

use super::{Event, Game, HandEnd, Illegal, Reason, illegal};
use crate::base::card::{Card, Counts};
use crate::rules::disputes::reading as rd;

impl Game {
    /// Whether emptying the hand onto the table (by a meld or lay-off) may end the hand: only
    /// once the seat's contract is met ([`Game::may_go_out`]), and only where `going-out`
    /// allows going out on the table.
    pub(super) fn may_go_out_on_the_table(&self, seat: u8) -> Result<(), Illegal> {
        self.may_go_out(seat)?;
        if self.rules.readings.going_out == rd::GoingOut::DiscardOnly {
            return Err(illegal(
                Reason::GoingOutByDiscardOnly,
                "keep a card to discard: a player goes out only by discarding (going-out=discard-only)",
            ));
        }
        Ok(())
    }

    pub(super) fn take_cards(&mut self, seat: u8, cards: &[Card]) -> Result<(), Illegal> {
        self.check_holds(seat, cards)?;
        self.take_held(seat, cards);
        Ok(())
    }

    /// [`Game::take_cards`] of cards `check_holds` has found in the hand.
    pub(super) fn take_held(&mut self, seat: u8, cards: &[Card]) {
        let hand = &mut self.deal.hands[usize::from(seat)];
        // One card (every lay-off of the built-in players) without counting the cards first.
        let removed = if let [card] = cards {
            hand.remove(*card)
        } else {
            hand.remove_all(&Counts::from_cards(cards))
        };
        debug_assert!(removed, "checked before");
    }

    /// `seat` holds `cards` (with repeats).
    pub(super) fn check_holds(&self, seat: u8, cards: &[Card]) -> Result<(), Illegal> {
        if let [card] = cards
            && self.deal.hands[usize::from(seat)].count(*card) > 0
        {
            return Ok(());
        }
        let need = Counts::from_cards(cards);
        if !self.deal.hands[usize::from(seat)].contains(&need) {
            let hand = &self.deal.hands[usize::from(seat)];
            let missing = need
                .iter()
                .find(|(c, k)| hand.count(*c) < *k)
                .map(|(c, _)| c);
            return Err(illegal(
                Reason::CardNotInHand,
                format!(
                    "seat {seat} does not hold {}",
                    missing.map_or("those cards".into(), |c| c.pretty())
                ),
            ));
        }
        Ok(())
    }

    /// May `seat` put cards on the table now (beyond the contract laydown itself)?
    pub(super) fn may_play_freely(&self, seat: u8, what: &str) -> Result<(), Illegal> {
        if !self.deal.progress[usize::from(seat)].done {
            return Err(illegal(
                Reason::ContractFirst,
                format!("seat {seat} has not met the contract: no {what} before it"),
            ));
        }
        if self.deal.contract_turn
            && self.rules.readings.contract_turn_extras == rd::ContractTurnExtras::NextTurn
        {
            return Err(illegal(
                Reason::NextTurnOnly,
                format!(
                    "the contract went down this turn: {what} waits for the next turn (contract-turn-extras=next-turn)"
                ),
            ));
        }
        Ok(())
    }

    /// Going out by melding: allowed or not, and the hand ends.
    pub(super) fn after_table_play(
        &mut self,
        seat: u8,
        events: &mut Vec<Event>,
    ) -> Result<(), Illegal> {
        if self.deal.hands[usize::from(seat)].is_empty() {
            self.may_go_out_on_the_table(seat)?;
            events.push(Event::WentOut { seat });
            self.end_hand(HandEnd::WentOut(seat), events);
        }
        Ok(())
    }
}
