//! [`Seen`]: the memo of what a listing of legal actions (`crate::engine::legal`) just computed,
//! for the `apply` that follows: a meld candidate's interpretations, a one-card extension of a
//! table meld, the one join of a natural card. It saves a second search of the same cards and
//! changes no answer: what it holds is exactly what the oracle would say again (the unit tests in
//! [`super::tests`] hold it to that).

use super::TableMeld;
use crate::base::card::Card;
use crate::oracle::meld::{self, Interpretation};
use crate::rules::Rules;
use crate::rules::spec::MeldKind;
use std::fmt;
use std::sync::Arc;

/// The interpretations of the melds a meld candidate was built from (every interpretation of
/// the cards as the kind named, none declared), so that applying the candidate filters them by
/// its declarations instead of searching the same cards again: what `meld::interpret` does with
/// declarations is exactly that filter. Taken by the next meld applied; it holds the rules it was
/// found under and serves no other (what a meld's cards can stand for depends on nothing else).
/// Not part of the game: a copy starts empty.
///
/// Likewise the last one-card extension a lay-off listing built (`meld::extend_each_by_one` of a
/// table meld's interpretations), or the one join of a natural card it found
/// (`meld::joins`), for the lay-off that applies it: known by the meld's stamp, which no other
/// meld or state of a meld has, and the card.
#[derive(Default)]
pub(crate) struct Seen(
    std::cell::RefCell<Option<SeenMelds>>,
    std::cell::RefCell<Option<SeenLayOff>>,
);

pub(crate) struct SeenLayOff {
    rules: Arc<Rules>,
    stamp: u64,
    card: Card,
    grow: SeenGrow,
}

/// What [`SeenLayOff`] knows of the meld grown by its card.
enum SeenGrow {
    /// Its interpretations (taken by the lay-off).
    Extension(Vec<Interpretation>),
    /// Its one interpretation takes the card in this one way (read, not taken: it stays true
    /// while the meld's stamp is the same).
    Join(meld::OnlyJoin),
}

pub(crate) struct SeenMelds {
    rules: Arc<Rules>,
    melds: Vec<SeenMeld>,
}

/// One meld of [`Seen`]: its cards (in the candidate's order), its kind, its interpretations.
pub(crate) type SeenMeld = (Vec<Card>, MeldKind, Vec<Interpretation>);

impl SeenLayOff {
    fn is_for(&self, rules: &Arc<Rules>, meld: &TableMeld, card: Card) -> bool {
        self.stamp == meld.stamp && self.card == card && Arc::ptr_eq(&self.rules, rules)
    }
}

impl Clone for Seen {
    fn clone(&self) -> Seen {
        Seen::default()
    }
}

impl fmt::Debug for Seen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Seen")
    }
}

impl Seen {
    /// Starts a new record under `rules`.
    pub(crate) fn start(&self, rules: &Arc<Rules>) {
        *self.0.borrow_mut() = Some(SeenMelds {
            rules: Arc::clone(rules),
            melds: Vec::new(),
        });
    }

    /// Records the interpretations of `cards` as a `kind` (all of them: not truncated).
    pub(crate) fn record(&self, cards: &[Card], kind: MeldKind, interps: Vec<Interpretation>) {
        if let Some(s) = self.0.borrow_mut().as_mut() {
            s.melds.push((cards.to_vec(), kind, interps));
        }
    }

    /// Records `meld::extend_each_by_one(rules, &meld.interps, card)`.
    pub(crate) fn record_extension(
        &self,
        rules: &Arc<Rules>,
        meld: &TableMeld,
        card: Card,
        interps: Vec<Interpretation>,
    ) {
        self.record_lay_off(rules, meld, card, SeenGrow::Extension(interps));
    }

    /// Records the one way `card` joins `meld`'s one interpretation (`meld::joins`).
    pub(crate) fn record_join(
        &self,
        rules: &Arc<Rules>,
        meld: &TableMeld,
        card: Card,
        join: meld::OnlyJoin,
    ) {
        self.record_lay_off(rules, meld, card, SeenGrow::Join(join));
    }

    fn record_lay_off(&self, rules: &Arc<Rules>, meld: &TableMeld, card: Card, grow: SeenGrow) {
        let mut slot = self.1.borrow_mut();
        match slot.as_mut() {
            // The record's rules kept where they are the same (no count to change).
            Some(x) if Arc::ptr_eq(&x.rules, rules) => {
                (x.stamp, x.card, x.grow) = (meld.stamp, card, grow);
            }
            _ => {
                *slot = Some(SeenLayOff {
                    rules: Arc::clone(rules),
                    stamp: meld.stamp,
                    card,
                    grow,
                });
            }
        }
    }

    /// Takes the recorded extension if it is `meld`'s by `card` under `rules`.
    pub(super) fn take_extension(
        &self,
        rules: &Arc<Rules>,
        meld: &TableMeld,
        card: Card,
    ) -> Option<Vec<Interpretation>> {
        let mut slot = self.1.borrow_mut();
        let x = slot.as_mut().filter(|x| x.is_for(rules, meld, card))?;
        match &mut x.grow {
            SeenGrow::Extension(interps) => {
                let interps = std::mem::take(interps);
                *slot = None;
                Some(interps)
            }
            SeenGrow::Join(_) => None,
        }
    }

    /// The recorded join if it is `meld`'s by `card` under `rules`.
    pub(super) fn join(
        &self,
        rules: &Arc<Rules>,
        meld: &TableMeld,
        card: Card,
    ) -> Option<meld::OnlyJoin> {
        match self.1.borrow().as_ref() {
            Some(x) if x.is_for(rules, meld, card) => match x.grow {
                SeenGrow::Join(j) => Some(j),
                SeenGrow::Extension(_) => None,
            },
            _ => None,
        }
    }

    /// Takes the record, if it was made under `rules`.
    pub(super) fn take(&self, rules: &Arc<Rules>) -> Option<Vec<SeenMeld>> {
        self.0
            .borrow_mut()
            .take()
            .filter(|s| Arc::ptr_eq(&s.rules, rules))
            .map(|s| s.melds)
    }
}
