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
//! Where the rules state `discard.bans` or `discard.when-none-allowed` (docs/RULES-FORMAT.md),
//! a second path decides instead (`ruled_discard_mask`; the plain path above is untouched, so
//! rule sets without them play exactly as before): the bans in force are `discard.bans` (or the
//! reading's, `[twos, taken-card]`) with wilds under `discard.wilds: forbidden`; a card may go
//! when no ban holds it (`fits-table`: [`Game::fitting_table`]). Where none may, the
//! relaxation's steps lift bans in order (never for the last card in hand: going out needs a card
//! no ban holds), or the turn ends without a discard, or under `draw-until-allowed` the seat must
//! draw from the stock ([`super::Action::DrawStock`], refused as `no-plain-draw` otherwise;
//! `end-turn` is refused as `must-draw`). Under `going-out.not-on-contract-turn` a seat that laid
//! its contract down this turn keeps its last card as one without a contract does
//! (`going-out-on-contract-turn`).
//!
//! [`Game::discard_allowed`] states the bans for one card; [`Game::discardable_with`] is the same
//! rule worked out on masks for the whole hand at once (the fast path `discard_mask` and the
//! legal-action listing use). The unit test
//! `discardable_cards_are_the_held_cards_discard_allowed_allows` (`tests.rs`) holds the two
//! together.

use super::{Event, Game, HandEnd, Illegal, Reason, TableMeld, illegal};
use crate::base::card::{Card, Rank};
use crate::oracle::meld::{self, Target};
use crate::rules::disputes::reading as rd;
use crate::rules::{Rules, WhenNoneAllowed, ban};

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
        if self.rules.discard_rules.is_some() {
            return self.ruled_discard_mask(seat);
        }
        let allowed = self.discardable(seat);
        if allowed == 0
            && self.rules.readings.no_legal_discard == rd::NoLegalDiscard::RelaxTakenCardThenTwos
        {
            return self.relaxed_discardable(seat);
        }
        allowed
    }

    /// Whether `seat` may go out now: only once its own contract is met, and (under
    /// `going-out.not-on-contract-turn`) not on the turn it went down.
    pub(super) fn may_go_out(&self, seat: u8) -> Result<(), Illegal> {
        if !self.deal.progress[usize::from(seat)].done {
            return Err(illegal(
                Reason::GoingOutBeforeContract,
                format!(
                    "seat {seat} has not met the contract, and a player goes out only once his own contract is met: this would empty his hand"
                ),
            ));
        }
        if self.going_out_waits() {
            return Err(illegal(
                Reason::GoingOutOnContractTurn,
                format!(
                    "seat {seat} laid the contract down this turn, and a player may not go out on that turn (going-out.not-on-contract-turn): this would empty his hand"
                ),
            ));
        }
        Ok(())
    }

    /// The contract went down this turn and `going-out.not-on-contract-turn` holds: the seat to
    /// play may not go out.
    fn going_out_waits(&self) -> bool {
        self.rules.no_going_out_on_contract_turn && self.deal.contract_turn
    }

    /// Whether any discard would take `seat` out when it may not go out: one card left and the
    /// contract not met (or met this very turn, under `going-out.not-on-contract-turn`). The card
    /// stays in hand and the turn ends without a discard.
    fn keeps_last_card(&self, seat: u8) -> bool {
        let si = usize::from(seat);
        self.deal.hands[si].len() == 1 && (!self.deal.progress[si].done || self.going_out_waits())
    }

    /// [`Game::discard_mask`] under `discard.bans` or `discard.when-none-allowed`: the held
    /// cards no ban in force holds; where there is none, the relaxation's steps in order
    /// (`{relax: […]}`, or the reading `no-legal-discard`'s), never for the last card in hand.
    fn ruled_discard_mask(&self, seat: u8) -> u64 {
        let bans = self.rules.discard_bans();
        let allowed = self.unbanned(seat, bans, 0);
        if allowed != 0 || self.deal.hands[usize::from(seat)].len() == 1 {
            return allowed;
        }
        if let WhenNoneAllowed::Relax(steps) = self.rules.when_none_allowed() {
            for lifted in steps {
                let a = self.unbanned(seat, bans, lifted);
                if a != 0 {
                    return a;
                }
            }
        }
        0
    }

    /// The cards `seat` holds that no ban of `bans` but those of `lifted` holds (masks by
    /// [`Card::index`] and bits of [`ban`]).
    fn unbanned(&self, seat: u8, bans: u8, lifted: u8) -> u64 {
        let hand = &self.deal.hands[usize::from(seat)];
        let twos = Target::Rank(Rank::Two).mask();
        let live = bans & !lifted;
        let mut allowed = hand.present();
        if live & ban::WILDS != 0 {
            let wild = self.rules.wild_mask();
            allowed &= !if lifted & ban::TWOS_AS_WILDS != 0 {
                wild & !twos
            } else {
                wild
            };
        }
        if live & ban::TWOS != 0 {
            allowed &= !twos;
        }
        if let Some(taken) = self.deal.taken
            && (live & ban::TAKEN_KIND != 0
                || live & ban::TAKEN_CARD != 0 && hand.count(taken) == 1)
        {
            allowed &= !(1 << taken.index());
        }
        if live & ban::FITS_TABLE != 0 {
            allowed &= !self.fitting_table(allowed);
        }
        allowed
    }

    /// The cards of `cards` (a mask by [`Card::index`]) that could be laid off, one alone, on
    /// some table meld as it stands: some reading of the meld with the card added keeps every
    /// role of a reading of the meld (a wild is asked the same question as any card). Who may
    /// lay off now does not matter.
    pub fn fitting_table(&self, cards: u64) -> u64 {
        let mut fits = 0;
        for tm in &self.deal.table {
            let may: u64 = tm
                .interps
                .iter()
                .fold(0, |m, i| m | meld::extenders(&self.rules, i));
            for c in crate::base::card::cards_in(cards & may & !fits) {
                if self.fits_meld(tm, c) {
                    fits |= 1 << c.index();
                }
            }
        }
        fits
    }

    /// Whether `card` alone extends table meld `tm`, as a lay-off reads it.
    fn fits_meld(&self, tm: &TableMeld, card: Card) -> bool {
        !self.grown_interps(tm, &[card], None, &[]).is_empty()
    }

    /// Whether `seat` must draw from the stock now (`draw-stock`): no card may be discarded and
    /// `discard.when-none-allowed: draw-until-allowed` (a seat that keeps its last card ends
    /// the turn instead).
    pub fn must_draw(&self, seat: u8) -> bool {
        self.rules.draws_until_allowed()
            && !self.keeps_last_card(seat)
            && self.ruled_discard_mask(seat) == 0
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
        if self.rules.discard_rules.is_some() {
            return self.discard_mask(seat) & 1 << card.index() != 0;
        }
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
            if self.deal.progress[si].done {
                return Err(illegal(
                    Reason::GoingOutOnContractTurn,
                    format!(
                        "seat {seat} laid the contract down this turn, and a player may not go out on that turn (going-out.not-on-contract-turn): {} is the last card, so it stays in hand and the turn ends without a discard (end-turn)",
                        card.pretty()
                    ),
                ));
            }
            return Err(illegal(
                Reason::GoingOutBeforeContract,
                format!(
                    "seat {seat} has not met the contract, and a player goes out only once his own contract is met: {} is the last card, so it stays in hand and the turn ends without a discard (end-turn)",
                    card.pretty()
                ),
            ));
        }
        if !self.may_discard(seat, card) {
            let why = if self.rules.discard_rules.is_some() {
                self.ruled_discard_reason(seat, card)
            } else {
                discard_reason(&self.rules, card, self.deal.taken)
            };
            return Err(illegal(Reason::DiscardNotAllowed, why));
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
        if self.rules.discard_rules.is_some() {
            if self.ruled_discard_mask(seat) != 0 {
                return Err(illegal(
                    Reason::MustDiscard,
                    "a card can be discarded: the turn ends with a discard",
                ));
            }
            if self.rules.draws_until_allowed() {
                return Err(illegal(
                    Reason::MustDraw,
                    "no card may be discarded: draw from the stock (draw-stock) until one may (discard.when-none-allowed=draw-until-allowed)",
                ));
            }
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

impl Game {
    /// The message of a discard refused under `discard.bans`: the bans that hold the card.
    fn ruled_discard_reason(&self, seat: u8, card: Card) -> String {
        let bans = self.rules.discard_bans();
        let bit = 1u64 << card.index();
        let mut held: Vec<&str> = Vec::new();
        for name in crate::rules::spec::DISCARD_BANS {
            let b = ban::of(name);
            if bans & b != 0 && self.unbanned(seat, b, 0) & bit == 0 {
                held.push(name);
            }
        }
        let last = if self.deal.hands[usize::from(seat)].len() == 1 {
            " (a player goes out only with a card no ban holds)"
        } else {
            ""
        };
        if held.is_empty() {
            return format!("{} may not be discarded now", card.pretty());
        }
        format!(
            "{} may not be discarded: discard.bans {}{last}",
            card.pretty(),
            held.join(", ")
        )
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
