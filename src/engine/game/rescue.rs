//! Rescues ([`super::Action::Rescue`]): a natural card from the hand takes the place of the wild
//! that stands for it in a table meld, and the wild goes to the hand; a follow-up meld or lay-off
//! may use it in the same action, and must under `rescued-wild-fate=meld-same-turn`. When a
//! rescue is allowed is `rescue-timing`; a 2 standing in a 2's place is frozen under
//! `frozen-two=position`.

use super::{Action, Event, Game, Illegal, Reason, TableMeld, illegal};
use crate::base::card::{Card, Rank};
use crate::oracle::meld;
use crate::rules::disputes::reading as rd;
use std::sync::Arc;

impl Game {
    /// A rescue: the natural card from the hand takes the place of the wild it stands for in a
    /// table meld, the wild goes to the hand, and the follow-up `then` (if any) plays it.
    pub(super) fn rescue(
        &mut self,
        seat: u8,
        target: usize,
        natural: Card,
        wild: Card,
        then: Option<&Action>,
        events: &mut Vec<Event>,
    ) -> Result<(), Illegal> {
        self.may_rescue_now(seat)?;
        if target >= self.deal.table.len() {
            return Err(illegal(
                Reason::NoSuchMeld,
                format!("there is no meld {target} on the table"),
            ));
        }
        if !self.rules.is_wild(wild) {
            return Err(illegal(
                Reason::RescueNoMatch,
                format!("{} is not a wild card", wild.pretty()),
            ));
        }
        self.take_cards(seat, &[natural])?;
        let position = self.rules.readings.frozen_two == rd::FrozenTwo::Position;
        // The interpretations in which `wild` stands for `natural`, with the natural taking its
        // place: first only whether there are any (the meld stays as it is where there are
        // none), then made in the meld's own space.
        let old = &self.deal.table[target];
        let Some(k) = old.cards.iter().position(|c| *c == wild) else {
            return Err(illegal(
                Reason::RescueNoMatch,
                format!("meld {target} holds no {}", wild.pretty()),
            ));
        };
        let frozen = position && wild.is_two() && natural.rank() == Some(Rank::Two);
        let any = !frozen
            && (old.interps.iter()).any(|o| meld::rescues_in(&self.rules, o, wild, natural));
        if !any {
            return Err(rescue_refusal(old, target, natural, wild, position, frozen));
        }
        self.replace_wild(target, k, natural, wild);
        self.deal.hands[usize::from(seat)].add(wild);
        events.push(Event::Rescued {
            seat,
            meld: target,
            natural,
            wild,
        });
        // Where wilds move and no stall limit is stated, a rescue alone is no progress for the
        // backstop: the card it makes natural may be read as wild again, so rescues alone could
        // go on for ever (docs/RULES-FORMAT.md, *Ending a hand*).
        if !(self.rules.wilds_move && self.rules.stall_limit == crate::rules::STALL_BACKSTOP) {
            self.deal.table_progress = true;
        }
        self.play_rescued_wild(seat, wild, then, events)
    }

    /// Whether `seat` may rescue now (`rescue-timing`; a contract laid this turn makes a rescue
    /// wait under `contract-turn-extras=next-turn`).
    fn may_rescue_now(&self, seat: u8) -> Result<(), Illegal> {
        if self.rules.readings.rescue_timing == rd::RescueTiming::AnyTime {
            // No contract needed, but a contract laid this turn still makes a rescue wait.
            if self.deal.contract_turn
                && self.rules.readings.contract_turn_extras == rd::ContractTurnExtras::NextTurn
            {
                return Err(illegal(
                    Reason::NextTurnOnly,
                    "the contract went down this turn: a rescue waits for the next turn (contract-turn-extras=next-turn)",
                ));
            }
        } else {
            self.may_play_freely(seat, "rescue").map_err(|e| Illegal {
                code: if e.code == Reason::ContractFirst {
                    Reason::RescueNotAllowed
                } else {
                    e.code
                },
                message: format!("{} (rescue-timing=after-own-contract)", e.message),
            })?;
        }
        Ok(())
    }

    /// The natural card takes the place of the wild at `k` in meld `target` (the first copy of
    /// that wild in the order the cards were laid: the natural goes where it stood), whose
    /// interpretations become those in which the wild stood for it (`meld::rescue_into`), or,
    /// where wilds move, every reading of the new cards as that kind.
    fn replace_wild(&mut self, target: usize, k: usize, natural: Card, wild: Card) {
        let made = Arc::make_mut(&mut self.deal.table[target]);
        let mut keep = Vec::with_capacity(made.interps.len());
        for o in std::mem::take(&mut made.interps) {
            meld::rescue_into(&self.rules, o, wild, natural, &mut keep);
        }
        keep.sort();
        keep.dedup();
        // The natural takes the wild's place in the order the cards were laid.
        made.cards[k] = natural;
        // Where wilds move, the meld is read again from its cards: the wilds left may move too.
        made.interps = if self.rules.wilds_move {
            super::table::rederived(&self.rules, &made.cards, &keep)
        } else {
            keep
        };
        made.restamp();
    }

    /// The rescue's follow-up: a meld or a lay-off that uses the rescued wild where
    /// `rescued-wild-fate=meld-same-turn` says it must, or nothing where the wild may stay in hand.
    fn play_rescued_wild(
        &mut self,
        seat: u8,
        wild: Card,
        then: Option<&Action>,
        events: &mut Vec<Event>,
    ) -> Result<(), Illegal> {
        let must = self.rules.readings.rescued_wild_fate == rd::RescuedWildFate::MeldSameTurn;
        match then {
            None if must => Err(illegal(
                Reason::RescuedWildNotMelded,
                format!(
                    "the rescued {} must go into a meld or lay-off in the same action (rescued-wild-fate=meld-same-turn)",
                    wild.pretty()
                ),
            )),
            None => Ok(()),
            Some(Action::Meld(specs)) => self.meld(seat, specs, must.then_some(wild), events),
            Some(Action::LayOff {
                meld,
                cards,
                declared,
                join,
            }) => self.lay_off(
                seat,
                *meld,
                cards,
                declared,
                *join,
                must.then_some(wild),
                events,
            ),
            Some(_) => Err(illegal(
                Reason::RescuedWildNotMelded,
                "after a rescue only a meld or a lay-off may follow",
            )),
        }
    }
}

/// Why no wild `wild` in meld `target` can be rescued by `natural`: frozen (`frozen-two`: a 2
/// in a 2's place under `position`, or a natural 2, one standing for itself, under either
/// reading), in the wrong place, or standing for another card.
#[cold]
fn rescue_refusal(
    old: &TableMeld,
    target: usize,
    natural: Card,
    wild: Card,
    position: bool,
    frozen: bool,
) -> Illegal {
    // Whether some reading has the wild standing for the natural (the roles
    // `rescues_in` looks at): which refusal it is.
    let matched = (old.interps.iter()).any(|o| {
        (o.roles.iter()).any(|r| r.card == wild && !r.natural && r.stands_for_matches(natural))
    });
    // The card is natural in every reading of the meld: a 2 standing for itself, no wild here.
    let roles = || (old.interps.iter()).flat_map(|o| o.roles.iter().filter(|r| r.card == wild));
    let itself = roles().next().is_some() && roles().all(|r| r.natural);
    if itself {
        let why = if position {
            "it stands in the place of a 2 and is frozen (frozen-two=position)"
        } else {
            "a natural 2 is never rescued (frozen-two=represents-itself)"
        };
        return illegal(
            Reason::RescueFrozen,
            format!(
                "the {} in meld {target} stands for itself, as a natural 2, not as a wild: {why}",
                wild.pretty()
            ),
        );
    }
    if frozen && matched {
        illegal(
            Reason::RescueFrozen,
            format!(
                "the {} stands in the place of a 2 and is frozen (frozen-two=position)",
                wild.pretty()
            ),
        )
    } else if matched {
        illegal(
            Reason::RescueNoMatch,
            format!(
                "{} cannot take the {}'s place in meld {target}",
                natural.pretty(),
                wild.pretty()
            ),
        )
    } else {
        illegal(
            Reason::RescueNoMatch,
            format!(
                "no {} in meld {target} stands for {}",
                wild.pretty(),
                natural.pretty()
            ),
        )
    }
}
