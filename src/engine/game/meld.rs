//! New melds ([`super::Action::Meld`]): one or more melds put down at once, each read by the
//! meld oracle (or by the [`super::seen`] memo of the listing that built it), checked by the
//! declaration policy, and, for a seat that has not met its contract, checked as the contract
//! laydown: the whole contract in one laydown (`contract-in-one-turn=required`, by
//! `contract::check_interpreted`) or part by part (`piecemeal`). A seat that has met its contract
//! melds freely; `same-rank-sets=forbidden` refuses a second set of one rank.

use super::seen::SeenMeld;
use super::{Event, Game, Illegal, LAY_OFF_ROOM, MeldSpec, Reason, TableMeld, illegal};
use crate::base::card::{Card, CardList, Rank};
use crate::oracle::contract;
use crate::oracle::meld::{self, Interpretation};
use crate::rules::disputes::reading as rd;
use crate::rules::spec::MeldKind;
use std::sync::Arc;

impl Game {
    /// Every interpretation of a meld spec (its declarations included), or why it is no meld.
    /// The interpretations of a meld spec: `seen`'s, filtered by the spec's declarations, where
    /// it holds these cards as this kind and some remain; otherwise the oracle's.
    #[cfg(test)]
    pub(super) fn spec_interps(
        &self,
        spec: &MeldSpec,
        seen: Option<&mut [SeenMeld]>,
    ) -> Result<Vec<Interpretation>, Illegal> {
        self.spec_interps_at(spec, seen, self.rules.set_min)
    }

    /// [`Game::spec_interps`] with sets from `set_min` cards on: a seat laying its contract down
    /// reads its melds from [`contract::set_floor`] on (`set of 2 aces`).
    fn spec_interps_at(
        &self,
        spec: &MeldSpec,
        seen: Option<&mut [SeenMeld]>,
        set_min: u8,
    ) -> Result<Vec<Interpretation>, Illegal> {
        let known = seen.and_then(|melds| {
            melds
                .iter_mut()
                .find(|(cards, kind, _)| *cards == spec.cards && Some(*kind) == spec.kind)
        });
        if let Some((.., all)) = known {
            // Taken, not copied: a second spec of the same cards (two decks) finds it empty and
            // asks the oracle.
            let mut v = std::mem::take(all);
            v.retain(|i| meld::declarations_hold(i, &spec.declared));
            if !v.is_empty() {
                return Ok(v);
            }
        }
        let v = meld::interpret_at(&self.rules, &spec.query(), set_min);
        if !v.is_valid() {
            return Err(illegal(
                Reason::InvalidMeld,
                format!(
                    "{} is not a meld: {}",
                    crate::base::card::pretty_cards(&spec.cards),
                    v.reason
                ),
            ));
        }
        Ok(v.interpretations)
    }

    fn check_same_rank(&self, seat: u8, new: &[Vec<Interpretation>]) -> Result<(), Illegal> {
        if self.rules.readings.same_rank_sets != rd::SameRankSets::Forbidden {
            return Ok(());
        }
        let mut seen = [false; 14];
        let own = self
            .deal
            .table
            .iter()
            .filter(|m| m.owner == seat)
            .map(|m| &m.interps);
        for interps in own.chain(new.iter()) {
            if let Some(i) = interps.first().filter(|i| i.kind == MeldKind::Set) {
                let r = usize::from(i.rank.expect("sets have a rank").number());
                if seen[r] {
                    return Err(illegal(
                        Reason::SameRankSet,
                        format!(
                            "seat {seat} already has a set of {}s (same-rank-sets=forbidden)",
                            Rank::from_number(r as u8).map_or("?", Rank::name)
                        ),
                    ));
                }
                seen[r] = true;
            }
        }
        Ok(())
    }

    /// New melds: checked (the seat holds the cards, each is a meld its declarations allow, the
    /// contract or the freedom to meld), then put on the table in the order given.
    pub(super) fn meld(
        &mut self,
        seat: u8,
        specs: &[MeldSpec],
        must_use: Option<Card>,
        events: &mut Vec<Event>,
    ) -> Result<(), Illegal> {
        if specs.is_empty() {
            return Err(illegal(Reason::InvalidMeld, "no meld given"));
        }
        let all: Vec<Card> = specs.iter().flat_map(|s| s.cards.iter().copied()).collect();
        if let Some(w) = must_use
            && !all.contains(&w)
        {
            return Err(illegal(
                Reason::RescuedWildNotMelded,
                format!("the rescued {} must be in the meld", w.pretty()),
            ));
        }
        let mut seen = self.seen.take(&self.rules);
        self.take_cards(seat, &all)?;
        let si = usize::from(seat);
        // Towards the contract, a set of a fixed rank may be smaller than `sets.min-size`.
        let floor = if self.deal.progress[si].done {
            self.rules.set_min
        } else {
            contract::set_floor(&self.rules, &self.rules.rounds[self.round].contract)
        };
        let mut interps = self.read_specs(specs, seen.as_deref_mut(), floor)?;
        let mut contract_melds = vec![false; specs.len()];
        if !self.deal.progress[si].done {
            self.all_at_once(seat)?;
            self.lay_down_contract(seat, specs, &mut interps, &mut contract_melds)?;
            self.deal.contract_turn = true;
        } else {
            self.may_play_freely(seat, "new meld")?;
        }
        self.check_same_rank(seat, &interps)?;
        self.put_melds_down(seat, specs, interps, contract_melds, events);
        self.deal.table_progress = true;
        self.after_table_play(seat, events)
    }

    /// Each spec's interpretations, which its declarations allow or refuse
    /// (`declaration_policy` keeps all or none); a contract met in one laydown is checked
    /// against them.
    fn read_specs(
        &self,
        specs: &[MeldSpec],
        mut seen: Option<&mut [SeenMeld]>,
        set_min: u8,
    ) -> Result<Vec<Vec<Interpretation>>, Illegal> {
        let mut interps = Vec::with_capacity(specs.len());
        for s in specs {
            let all = self.spec_interps_at(s, seen.as_deref_mut(), set_min)?;
            #[cfg(debug_assertions)]
            let was = all.clone();
            let kept = self.declaration_policy(&s.cards, false, s.kind, &s.declared, all)?;
            #[cfg(debug_assertions)]
            assert_eq!(
                kept, was,
                "the declaration policy keeps every interpretation"
            );
            interps.push(kept);
        }
        Ok(interps)
    }

    /// In a deal played all at once (`rounds[N].all-at-once`) the contract goes down only with
    /// every card in hand: the cards are taken already, so the hand must be empty. Laid, the
    /// contract is met in this one laydown and the seat goes out without a discard.
    fn all_at_once(&self, seat: u8) -> Result<(), Illegal> {
        let left = self.deal.hands[usize::from(seat)].len();
        if !self.rules.rounds[self.round].all_at_once || left == 0 {
            return Ok(());
        }
        Err(illegal(
            Reason::AllAtOnce,
            format!(
                "deal {} is played all at once: the contract goes down only with every card in hand, and {left} card{} would be left",
                self.round + 1,
                if left == 1 { "" } else { "s" }
            ),
        ))
    }

    /// The contract laydown of a seat that has not met its contract: marks which melds are
    /// contract melds and records the progress (`contract-in-one-turn`).
    fn lay_down_contract(
        &mut self,
        seat: u8,
        specs: &[MeldSpec],
        interps: &mut [Vec<Interpretation>],
        contract_melds: &mut [bool],
    ) -> Result<(), Illegal> {
        match self.rules.readings.contract_in_one_turn {
            rd::ContractInOneTurn::Required => {
                self.meet_contract_at_once(seat, specs, interps, contract_melds)
            }
            rd::ContractInOneTurn::Piecemeal => {
                self.fill_contract_pieces(seat, specs, interps, contract_melds)
            }
        }
    }

    /// `contract-in-one-turn=required`: the melds meet the whole contract, and every part is
    /// filled.
    fn meet_contract_at_once(
        &mut self,
        seat: u8,
        specs: &[MeldSpec],
        interps: &mut [Vec<Interpretation>],
        contract_melds: &mut [bool],
    ) -> Result<(), Illegal> {
        let si = usize::from(seat);
        let rules = Arc::clone(&self.rules);
        let contract = &rules.rounds[self.round].contract;
        let cards: Vec<&[Card]> = specs.iter().map(|s| &s.cards[..]).collect();
        let c = contract::check_interpreted(&rules, contract, &cards, interps);
        if !c.satisfied {
            let code = if c.extras_wait {
                Reason::NextTurnOnly
            } else {
                Reason::ContractNotMet
            };
            return Err(illegal(code, c.reason));
        }
        for (i, a) in c.assignment.iter().enumerate() {
            // Pooled, every meld laid is the contract's.
            contract_melds[i] = a.is_some() || c.regrouped.is_some();
            // A set laid as a contract set of a fixed rank is a set of that rank; a meld beyond
            // the contract keeps the readings that make it a meld of its own.
            let n = specs[i].cards.len();
            match a {
                Some(part) if part.rank.is_some() => {
                    interps[i].retain(|x| contract::fills(&rules, *part, n, x));
                }
                None if c.regrouped.is_none() => {
                    interps[i].retain(|x| contract::ordinary(&rules, n, x));
                }
                _ => {}
            }
        }
        // Met in one laydown: every part is filled.
        let p = &mut Arc::make_mut(&mut self.deal.progress)[si];
        p.done = true;
        p.filled.iter_mut().for_each(|f| *f = true);
        Ok(())
    }

    /// `contract-in-one-turn=piecemeal`: each meld fills the first open part of the contract it
    /// fits (and keeps only the readings of that part's kind); the contract is met once every
    /// part is filled.
    fn fill_contract_pieces(
        &mut self,
        seat: u8,
        specs: &[MeldSpec],
        interps: &mut [Vec<Interpretation>],
        contract_melds: &mut [bool],
    ) -> Result<(), Illegal> {
        let si = usize::from(seat);
        let rules = Arc::clone(&self.rules);
        let contract = &rules.rounds[self.round].contract;
        for (i, s) in specs.iter().enumerate() {
            let n = s.cards.len();
            let slot = (0..contract.len()).find(|&j| {
                !self.deal.progress[si].filled[j]
                    && contract::size_ok(&self.rules, contract[j], n)
                    && interps[i]
                        .iter()
                        .any(|x| contract::fills(&rules, contract[j], n, x))
            });
            if let Some(j) = slot {
                Arc::make_mut(&mut self.deal.progress)[si].filled[j] = true;
                interps[i].retain(|x| contract::fills(&rules, contract[j], n, x));
                contract_melds[i] = true;
            }
        }
        let p = &mut Arc::make_mut(&mut self.deal.progress)[si];
        p.done = p.filled.iter().all(|f| *f);
        // Melds that fill no piece are extras: only once the last piece is down, and
        // only where the rules allow extras on the contract turn.
        if let Some(i) = contract_melds.iter().position(|c| !c) {
            // A set below `sets.min-size` is a meld only as a contract set of a fixed rank.
            for (k, _) in contract_melds.iter().enumerate().filter(|(_, c)| !**c) {
                let n = specs[k].cards.len();
                interps[k].retain(|x| contract::ordinary(&rules, n, x));
                if interps[k].is_empty() {
                    return Err(illegal(
                        Reason::InvalidMeld,
                        format!(
                            "{} is not a meld: a set needs at least {} cards; a smaller one goes down only as a contract set of its rank, and none is open",
                            crate::base::card::pretty_cards(&specs[k].cards),
                            rules.set_min
                        ),
                    ));
                }
            }
            if !self.deal.progress[si].done {
                return Err(illegal(
                    Reason::ContractNotMet,
                    format!(
                        "{} fills no part of the contract still open",
                        crate::base::card::pretty_cards(&specs[i].cards)
                    ),
                ));
            }
            if self.rules.readings.contract_turn_extras == rd::ContractTurnExtras::NextTurn {
                return Err(illegal(
                    Reason::NextTurnOnly,
                    "melds beyond the contract wait for the next turn (contract-turn-extras=next-turn)",
                ));
            }
        }
        Ok(())
    }

    /// The checked melds go on the table in the order given, each with its cards in the order
    /// the action lists them (the order they were laid); the `melded` event lists them in
    /// canonical order.
    fn put_melds_down(
        &mut self,
        seat: u8,
        specs: &[MeldSpec],
        interps: Vec<Vec<Interpretation>>,
        contract_melds: Vec<bool>,
        events: &mut Vec<Event>,
    ) {
        for ((s, i), c) in specs.iter().zip(interps).zip(contract_melds) {
            // Room for a few lay-offs, which would otherwise each grow the list.
            let mut cards = Vec::with_capacity(s.cards.len() + LAY_OFF_ROOM);
            cards.extend_from_slice(&s.cards);
            let mut listed = CardList::from_slice(&cards);
            listed.sort_unstable();
            events.push(Event::Melded {
                seat,
                meld: self.deal.table.len(),
                cards: listed,
                contract: c,
            });
            // Where wilds move, what was declared is checked and then forgotten.
            let i = if self.rules.wilds_move {
                super::table::rederived(&self.rules, &cards, &i)
            } else {
                i
            };
            self.deal
                .table
                .push(Arc::new(TableMeld::new(seat, cards, i)));
        }
    }
}
