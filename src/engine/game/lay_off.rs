//! Lay-offs ([`super::Action::LayOff`]): cards added to a meld on the table, and with `join` a
//! second run joined to it (`run-join-split=join-allowed`). [`Game::plan_lay_off`] checks a
//! lay-off in full without changing anything (what `accepts` asks), then `lay_off` makes it.
//!
//! The plain rule: after the lay-off the meld's cards (the old meld's, the new ones, the joined
//! run's) must read as a meld that extends every reading of the melds it grew from, and the
//! declaration policy must allow the result. The fast paths give the same answer: a natural card
//! that joins a meld read one way in one way grows that reading in place (`meld::only_join`), and
//! one card onto one meld extends each reading directly (`meld::extend_each_by_one`); the property
//! `one_card_extension_agrees_with_the_full_search` (`tests/integration/meld_oracle.rs`) holds both to the
//! search of the combined cards.

use super::{Event, Game, Illegal, Reason, TableMeld, illegal};
use crate::base::card::{Card, CardList};
use crate::oracle::meld::{self, Interpretation, Query, Target};
use crate::rules::disputes::reading as rd;
use crate::rules::spec::MeldKind;
use std::sync::Arc;

/// How a lay-off grows its meld's interpretations ([`Game::plan_lay_off`]).
pub(super) enum Grow {
    /// They become these.
    Replace(Vec<Interpretation>),
    /// The one interpretation takes the card in its one way.
    InPlace(meld::OnlyJoin),
}

impl Game {
    /// Checks a lay-off in full without changing anything, and returns how the meld's
    /// interpretations grow.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn plan_lay_off(
        &self,
        seat: u8,
        target: usize,
        cards: &[Card],
        declared: &[(Card, Target)],
        join: Option<usize>,
        must_use: Option<Card>,
    ) -> Result<Grow, Illegal> {
        self.check_lay_off(seat, target, cards, must_use)?;
        let old = &self.deal.table[target];
        let other = self.joined_meld(target, join)?;
        // A natural card onto a meld read one way, joining it one way (most lay-offs): the meld
        // grows in place. With one interpretation kept and no wild laid off or declared, the
        // declaration policy has nothing to refuse under any reading.
        if let Some(j) = self.join_in_place(old, cards, other, declared) {
            if self.deal.hands[usize::from(seat)].len() == 1 {
                self.may_go_out_on_the_table(seat)?;
            }
            debug_assert!({
                let one = &old.interps[0];
                let mut grown = one.clone();
                j.make(&mut grown);
                let policy =
                    self.declaration_policy(cards, true, Some(one.kind), declared, vec![grown]);
                policy.is_ok()
            });
            return Ok(Grow::InPlace(j));
        }
        let keep = self.extended_interps(old, cards, other, declared);
        if keep.is_empty() {
            // Under limits on wild cards, say which one the grown meld would break.
            let limit = if self.rules.wild_limits.active() {
                let mut all = old.cards.clone();
                all.extend_from_slice(cards);
                let kind = old.interps.first().map(|i| i.kind);
                meld::beyond_limits(&self.rules, &all, kind)
                    .map(|why| format!(": {why}"))
                    .unwrap_or_default()
            } else {
                String::new()
            };
            return Err(illegal(
                Reason::InvalidLayOff,
                format!(
                    "{} does not extend meld {target} ({}){limit}",
                    crate::base::card::pretty_cards(cards),
                    describe(old)
                ),
            ));
        }
        if other.is_some_and(|o| o.interps.iter().all(|i| i.kind != MeldKind::Run)) {
            return Err(illegal(Reason::InvalidLayOff, "only runs are joined"));
        }
        let kind = keep.first().map(|i| i.kind);
        let keep = self.declaration_policy(cards, true, kind, declared, keep)?;
        if self.deal.hands[usize::from(seat)].len() == cards.len() {
            self.may_go_out_on_the_table(seat)?;
        }
        Ok(Grow::Replace(keep))
    }

    /// What a lay-off needs whatever it lays off: the freedom to play, the rescued wild among
    /// its cards (`meld-same-turn`), a meld of that number, cards, held by the seat.
    #[inline]
    fn check_lay_off(
        &self,
        seat: u8,
        target: usize,
        cards: &[Card],
        must_use: Option<Card>,
    ) -> Result<(), Illegal> {
        self.may_play_freely(seat, "lay-off")?;
        if let Some(w) = must_use
            && !cards.contains(&w)
        {
            return Err(illegal(
                Reason::RescuedWildNotMelded,
                format!("the rescued {} must be laid off", w.pretty()),
            ));
        }
        if target >= self.deal.table.len() {
            return Err(illegal(
                Reason::NoSuchMeld,
                format!("there is no meld {target} on the table"),
            ));
        }
        if cards.is_empty() {
            return Err(illegal(Reason::InvalidLayOff, "no card to lay off"));
        }
        self.check_holds(seat, cards)
    }

    /// The run a lay-off joins to meld `target`, where joins are allowed (`run-join-split`) and
    /// it is another meld on the table.
    #[inline]
    fn joined_meld(
        &self,
        target: usize,
        join: Option<usize>,
    ) -> Result<Option<&Arc<TableMeld>>, Illegal> {
        match join {
            None => Ok(None),
            Some(j) => {
                if self.rules.readings.run_join_split != rd::RunJoinSplit::JoinAllowed {
                    return Err(illegal(
                        Reason::JoinNotAllowed,
                        "runs are only extended, never joined (run-join-split=never)",
                    ));
                }
                if j >= self.deal.table.len() || j == target {
                    return Err(illegal(
                        Reason::NoSuchMeld,
                        format!("there is no other meld {j} to join"),
                    ));
                }
                Ok(Some(&self.deal.table[j]))
            }
        }
    }

    /// The one way a single natural card joins a meld read one way, with no join and nothing
    /// declared (`seen`'s, or `meld::only_join`'s); `None` where the lay-off is not of that form
    /// or the card does not join the meld in exactly one way.
    #[inline]
    fn join_in_place(
        &self,
        old: &TableMeld,
        cards: &[Card],
        other: Option<&Arc<TableMeld>>,
        declared: &[(Card, Target)],
    ) -> Option<meld::OnlyJoin> {
        if let ([card], None, [], [one]) = (cards, other, declared, &old.interps[..])
            && !self.rules.is_wild(*card)
        {
            return (self.seen.join(&self.rules, old, *card))
                .or_else(|| meld::only_join(&self.rules, one, *card));
        }
        None
    }

    /// The meld's interpretations after the lay-off, before the declaration policy: what a
    /// listing just worked out for this one card ([`super::seen`]), else [`Game::grown_interps`].
    fn extended_interps(
        &self,
        old: &TableMeld,
        cards: &[Card],
        other: Option<&Arc<TableMeld>>,
        declared: &[(Card, Target)],
    ) -> Vec<Interpretation> {
        if let ([card], None) = (cards, other)
            && let Some(mut v) = self.seen.take_extension(&self.rules, old, *card)
        {
            v.retain(|n| meld::declarations_hold(n, declared));
            return v;
        }
        self.grown_interps(old, cards, other, declared)
    }

    /// The interpretations of meld `old` grown by `cards` (and joined with `other`) that keep
    /// every role of a reading of each: one card onto one meld extends each remaining
    /// interpretation directly (the common case); otherwise the combined cards are searched and
    /// what extends every old meld is kept. Where wilds move (`wilds.may-move`), every reading
    /// of the combined cards as the meld's kind.
    pub(super) fn grown_interps(
        &self,
        old: &TableMeld,
        cards: &[Card],
        other: Option<&Arc<TableMeld>>,
        declared: &[(Card, Target)],
    ) -> Vec<Interpretation> {
        // The meld's cards afterwards, in the order searched: the old meld's, the new ones, the
        // joined meld's.
        let combined = || {
            let joined = other.map_or(0, |o| o.cards.len());
            let mut v = Vec::with_capacity(old.cards.len() + cards.len() + joined);
            v.extend_from_slice(&old.cards);
            v.extend_from_slice(cards);
            if let Some(o) = other {
                v.extend_from_slice(&o.cards);
            }
            v
        };
        let quick: Option<Vec<Interpretation>> = match (cards, other) {
            ([card], None) => meld::extend_each_by_one(&self.rules, &old.interps, *card),
            _ => None,
        };
        match quick {
            Some(mut v) => {
                v.retain(|n| meld::declarations_hold(n, declared));
                v
            }
            None if self.rules.wilds_move => {
                // Wilds move: the grown meld is read again from its cards, keeping no old role.
                let mut v = super::table::rederived(&self.rules, &combined(), &old.interps);
                v.retain(|n| meld::declarations_hold(n, declared));
                v
            }
            None => {
                let bases: Vec<&[Interpretation]> = std::iter::once(&old.interps[..])
                    .chain(other.map(|o| &o.interps[..]))
                    .collect();
                meld::interpret_at(
                    &self.rules,
                    &Query {
                        cards: combined(),
                        kind: old.interps.first().map(|i| i.kind),
                        declared: declared.to_vec(),
                    },
                    old.set_floor(&self.rules),
                )
                .interpretations
                .into_iter()
                .filter(|n| bases.iter().all(|b| b.iter().any(|o| meld::extends(o, n))))
                .collect()
            }
        }
    }

    /// A lay-off: checked in full first, so a refused one changes nothing (no copy needed).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn lay_off(
        &mut self,
        seat: u8,
        target: usize,
        cards: &[Card],
        declared: &[(Card, Target)],
        join: Option<usize>,
        must_use: Option<Card>,
        events: &mut Vec<Event>,
    ) -> Result<(), Illegal> {
        // The plan checked that the seat holds the cards.
        let keep = self.plan_lay_off(seat, target, cards, declared, join, must_use)?;
        self.take_held(seat, cards);
        // The meld changes in place (a copy only where another game shares it): its cards are
        // kept in the order they were laid, so the old meld's come first, then the new ones in
        // the order the action gives them, then the joined meld's in their own order. Where a
        // card goes in the run (its low end, its high end) does not matter: the list is the
        // order of laying, not of ranks.
        let joined = join.map_or_else(Vec::new, |j| self.deal.table[j].cards.clone());
        let made = Arc::make_mut(&mut self.deal.table[target]);
        made.cards.extend_from_slice(cards);
        made.cards.extend_from_slice(&joined);
        match keep {
            Grow::Replace(keep) => made.interps = keep,
            Grow::InPlace(j) => j.make(&mut made.interps[0]),
        }
        made.restamp();
        // After a join the other run leaves the table: melds numbered above it move down by one,
        // and the event names the joined run by its number after the move.
        let mut at = target;
        if let Some(j) = join {
            self.deal.table.remove(j);
            if j < target {
                at -= 1;
            }
        }
        events.push(Event::LaidOff {
            seat,
            meld: at,
            cards: CardList::from_slice(cards),
            joined: join,
        });
        self.deal.table_progress = true;
        self.after_table_play(seat, events)
    }
}

fn describe(m: &TableMeld) -> String {
    m.interps.first().map_or_else(
        || crate::base::card::pretty_cards(&m.cards),
        |i| i.describe(),
    )
}
