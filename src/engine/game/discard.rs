//! The end of a turn by a discard: what makes a legal discard, ending a turn without one, and
//! going out by discarding.
//!
//! The rule, plainly. The seat to play ends its turn by discarding one card it holds, any card
//! except:
//! - a wild, where the rules forbid discarding wilds (`discard.wilds: forbidden`);
//! - under `discard-restrictions=no-twos-no-taken-card`: any 2, and the card taken from the
//!   discard pile this turn (the taken copy may not go back; a second copy of it in hand may).
//!
//! When those bans leave nothing, `no-legal-discard=relax-taken-card-then-twos` lifts them in two
//! steps: first the taken card may go; if still nothing may, twos (wild twos too) may. Only when
//! no card at all may be discarded does the turn end without one ([`super::Action::EndTurn`], refused
//! with `must-discard` otherwise). Discarding the last card in hand goes out: the hand ends and is
//! scored (`scoring.rs`); going out by a meld or a lay-off instead is `checks.rs`'s
//! (`going-out`).
//!
//! Going out, either way, needs the seat's own contract met (every source describes going out as
//! melding all one's cards, or all but one and discarding the last): before it, the discard that
//! would empty the hand is refused (`going-out-before-contract`). A seat left with one card and no
//! contract (under `pusher-draws=no` a push costs the pusher a card) therefore has no discard at
//! all: it keeps the card and ends the turn without one ([`super::Action::EndTurn`]), an
//! unsourced engine choice so that every turn still has a legal move.
//!
//! [`Game::discard_allowed`] states the bans for one card; [`Game::discardable_with`] is the same
//! rule worked out on masks for the whole hand at once (the fast path `discard_mask` and the
//! legal-action listing use). The unit test
//! `discardable_cards_are_the_held_cards_discard_allowed_allows` (`tests.rs`) holds the two
//! together.

use super::{Event, Game, HandEnd, Illegal, Reason, illegal};
use crate::base::card::{Card, Rank};
use crate::oracle::meld::Target;
use crate::rules::Rules;
use crate::rules::disputes::reading as rd;

impl Game {
    /// The cards `seat` may discard now, after the `no-legal-discard` relaxation if it applies.
    pub fn discard_options(&self, seat: u8) -> Vec<Card> {
        crate::base::card::cards_in(self.discard_mask(seat)).collect()
    }

    /// [`Game::discard_options`] as a mask by [`Card::index`].
    pub fn discard_mask(&self, seat: u8) -> u64 {
        if self.keeps_last_card(seat) {
            return 0;
        }
        let allowed = self.discardable(seat);
        if allowed == 0
            && self.rules.readings.no_legal_discard == rd::NoLegalDiscard::RelaxTakenCardThenTwos
        {
            return self.relaxed_discardable(seat);
        }
        allowed
    }

    /// Whether `seat` may go out now: only once its own contract is met.
    pub(super) fn may_go_out(&self, seat: u8) -> Result<(), Illegal> {
        if !self.deal.progress[usize::from(seat)].done {
            return Err(illegal(
                Reason::GoingOutBeforeContract,
                format!(
                    "seat {seat} has not met the contract, and a player goes out only once his own contract is met: this would empty his hand"
                ),
            ));
        }
        Ok(())
    }

    /// Whether any discard would take `seat` out before its contract: one card left and the
    /// contract not met. The card stays in hand and the turn ends without a discard.
    fn keeps_last_card(&self, seat: u8) -> bool {
        let si = usize::from(seat);
        self.deal.hands[si].len() == 1 && !self.deal.progress[si].done
    }

    /// Cards `seat` may discard under the restrictions, before any relaxation (a mask).
    fn discardable(&self, seat: u8) -> u64 {
        self.discardable_with(seat, false, false)
    }

    fn relaxed_discardable(&self, seat: u8) -> u64 {
        let taken = self.discardable_with(seat, true, false);
        if taken != 0 {
            return taken;
        }
        self.discardable_with(seat, true, true)
    }

    /// The held cards that [`Game::discard_allowed`] allows, as a mask by [`Card::index`],
    /// worked out on masks.
    pub(super) fn discardable_with(&self, seat: u8, allow_taken: bool, allow_twos: bool) -> u64 {
        let hand = &self.deal.hands[usize::from(seat)];
        // The 2 of each suit.
        let twos = Target::Rank(Rank::Two).mask();
        let mut allowed = hand.present();
        if !self.rules.discard_wilds {
            let wild = self.rules.wild_mask();
            allowed &= !if allow_twos { wild & !twos } else { wild };
        }
        if self.rules.readings.discard_restrictions == rd::DiscardRestrictions::NoTwosNoTakenCard {
            if !allow_twos {
                allowed &= !twos;
            }
            // The taken copy may not go back; another copy of the same card may.
            if let Some(taken) = self.deal.taken
                && !allow_taken
                && hand.count(taken) == 1
            {
                allowed &= !(1 << taken.index());
            }
        }
        allowed
    }

    /// Whether a card held `k` times may be discarded under the restrictions (relaxed as asked).
    pub(super) fn discard_allowed(
        &self,
        c: Card,
        k: u8,
        allow_taken: bool,
        allow_twos: bool,
    ) -> bool {
        if !self.rules.discard_wilds && self.rules.is_wild(c) && !(allow_twos && c.is_two()) {
            return false;
        }
        if self.rules.readings.discard_restrictions == rd::DiscardRestrictions::NoTwosNoTakenCard {
            if c.is_two() && !allow_twos {
                return false;
            }
            // The taken copy may not go back; another copy of the same card may.
            if self.deal.taken == Some(c) && k == 1 && !allow_taken {
                return false;
            }
        }
        true
    }

    /// Whether `card`, which `seat` holds, is among [`Game::discard_options`], without listing
    /// them all when the card is allowed outright.
    fn may_discard(&self, seat: u8, card: Card) -> bool {
        let k = self.deal.hands[usize::from(seat)].count(card);
        self.discard_allowed(card, k, false, false)
            || self.discard_mask(seat) & 1 << card.index() != 0
    }

    pub(super) fn discard(
        &mut self,
        seat: u8,
        card: Card,
        events: &mut Vec<Event>,
    ) -> Result<(), Illegal> {
        let si = usize::from(seat);
        if self.deal.hands[si].count(card) == 0 {
            return Err(illegal(
                Reason::CardNotInHand,
                format!("seat {seat} does not hold {}", card.pretty()),
            ));
        }
        if self.keeps_last_card(seat) {
            return Err(illegal(
                Reason::GoingOutBeforeContract,
                format!(
                    "seat {seat} has not met the contract, and a player goes out only once his own contract is met: {} is the last card, so it stays in hand and the turn ends without a discard (end-turn)",
                    card.pretty()
                ),
            ));
        }
        if !self.may_discard(seat, card) {
            return Err(illegal(
                Reason::DiscardNotAllowed,
                discard_reason(&self.rules, card, self.deal.taken),
            ));
        }
        self.deal.hands[si].remove(card);
        self.deal.discard.push(card);
        events.push(Event::Discarded { seat, card });
        if self.deal.hands[si].is_empty() {
            events.push(Event::WentOut { seat });
            self.end_hand(HandEnd::WentOut(seat), events);
            return Ok(());
        }
        self.end_turn(events);
        Ok(())
    }

    /// [`super::Action::EndTurn`]: the turn ends without a discard, only when no card may be discarded
    /// (after the `no-legal-discard` relaxation, or because the last card may not go out before
    /// the contract).
    pub(super) fn end_turn_without_discard(
        &mut self,
        seat: u8,
        events: &mut Vec<Event>,
    ) -> Result<(), Illegal> {
        if self.keeps_last_card(seat) {
            events.push(Event::TurnEnded { seat });
            self.end_turn(events);
            return Ok(());
        }
        if self.discardable(seat) != 0 {
            return Err(illegal(
                Reason::MustDiscard,
                "a card can be discarded: the turn ends with a discard",
            ));
        }
        if self.rules.readings.no_legal_discard == rd::NoLegalDiscard::RelaxTakenCardThenTwos
            && self.relaxed_discardable(seat) != 0
        {
            return Err(illegal(
                Reason::MustDiscard,
                "with no ordinary discard, the taken card and then twos become discardable (no-legal-discard)",
            ));
        }
        events.push(Event::TurnEnded { seat });
        self.end_turn(events);
        Ok(())
    }
}

/// The message of a refused discard: which ban it broke.
fn discard_reason(rules: &Rules, card: Card, taken: Option<Card>) -> String {
    if !rules.discard_wilds && rules.is_wild(card) {
        return format!(
            "{} is wild and wilds may not be discarded (discard.wilds=forbidden)",
            card.pretty()
        );
    }
    if card.is_two() {
        return format!(
            "{} is a two, and twos are never discarded (discard-restrictions)",
            card.pretty()
        );
    }
    if taken == Some(card) {
        return format!(
            "{} was taken from the discard pile this turn (discard-restrictions)",
            card.pretty()
        );
    }
    format!("{} may not be discarded now", card.pretty())
}
