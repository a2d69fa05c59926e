//! Legal actions: every action the seat to play may take, in canonical form.
//!
//! Draws, discards, ending the turn, one-card lay-offs (with the declarations the rules ask for, and
//! joins), and rescues (with a one-card lay-off of the rescued wild where the rules require it) are
//! listed completely. Melds are combinatorial (any subset of a hand, with any declarations), so
//! they are offered in structured form by [`Game::meld_options`]: the contract laydown the search
//! finds, and after the contract one meld per kind when one exists. Candidates are kept only if
//! [`Game::apply`] accepts them, so everything listed is legal; a property test
//! (`tests/legal_actions.rs`) checks the other direction: whatever `apply` accepts from a broad
//! random space of non-meld actions is listed.

use crate::card::{Card, Suit};
use crate::contract;
use crate::disputes::reading as rd;
use crate::game::{Action, Game, MeldSpec, Stage};
use crate::meld::{self, Interpretation, Query, Target};
use crate::spec::{Component, MeldKind};

impl Game {
    fn accepts_now(&self, a: &Action) -> bool {
        self.accepts(self.turn(), a)
    }

    /// Every legal action but new melds (see [`Game::meld_options`]), in a fixed order.
    pub fn legal_actions(&self) -> Vec<Action> {
        if self.is_over() {
            return Vec::new();
        }
        let seat = self.turn();
        let mut cands: Vec<Action> = Vec::new();
        if self.deal.stage == Stage::Draw {
            cands.push(Action::TakeDiscard);
            cands.push(Action::Push);
        } else {
            let hand = &self.deal.hands[usize::from(seat)];
            for (c, _) in hand.iter() {
                cands.push(Action::Discard(c));
            }
            cands.push(Action::EndTurn);
            for (c, _) in hand.iter() {
                for m in 0..self.deal.table.len() {
                    cands.extend(self.lay_off_forms(m, c, None));
                    for j in 0..self.deal.table.len() {
                        if j != m {
                            cands.extend(self.lay_off_forms(m, c, Some(j)));
                        }
                    }
                }
            }
            cands.extend(self.rescue_forms(seat, true));
        }
        let mut out: Vec<Action> = Vec::new();
        for a in cands {
            if !out.contains(&a) && self.accepts_now(&a) {
                out.push(a);
            }
        }
        out
    }

    /// The lay-offs of `card` onto meld `m` (joined to `join`): one per reading of the result,
    /// declared as the rules require.
    pub fn lay_off_forms(&self, m: usize, card: Card, join: Option<usize>) -> Vec<Action> {
        let tm = &self.deal.table[m];
        let kind = tm.interps.first().map(|i| i.kind);
        let quick: Option<Vec<Interpretation>> = match join {
            None => tm.interps.iter().try_fold(Vec::new(), |mut acc, o| {
                acc.extend(meld::extend_by_one(&self.rules, o, card)?);
                Some(acc)
            }),
            Some(_) => None,
        };
        let readings: Vec<Interpretation> = match quick {
            Some(v) => v,
            None => {
                let mut cards = tm.cards.clone();
                cards.push(card);
                if let Some(j) = join {
                    cards.extend_from_slice(&self.deal.table[j].cards);
                }
                if !meld::is_valid(&self.rules, &cards, kind) {
                    return Vec::new();
                }
                meld::interpret(
                    &self.rules,
                    &Query {
                        cards,
                        kind,
                        declared: vec![],
                    },
                )
                .interpretations
            }
        };
        if readings.is_empty() {
            return Vec::new();
        }
        let mut forms = vec![Action::LayOff {
            meld: m,
            cards: vec![card],
            declared: vec![],
            join,
        }];
        if self.rules.is_wild(card)
            && self.rules.readings.wild_declaration != rd::WildDeclaration::Never
        {
            for n in &readings {
                for r in n.roles.iter().filter(|r| r.card == card && !r.natural) {
                    let a = Action::LayOff {
                        meld: m,
                        cards: vec![card],
                        declared: vec![(card, r.stands_for)],
                        join,
                    };
                    if !forms.contains(&a) {
                        forms.push(a);
                    }
                }
            }
        }
        forms
    }

    /// The rescues `seat` could try; `follow_ups` adds the forms with a lay-off of the rescued wild
    /// in the same action (always added where `rescued-wild-fate=meld-same-turn` requires one).
    pub fn rescue_forms(&self, seat: u8, follow_ups: bool) -> Vec<Action> {
        let hand = &self.deal.hands[usize::from(seat)];
        let must = self.rules.readings.rescued_wild_fate == rd::RescuedWildFate::MeldSameTurn;
        let mut out = Vec::new();
        for (m, tm) in self.deal.table.iter().enumerate() {
            let mut pairs: Vec<(Card, Card)> = Vec::new();
            for i in &tm.interps {
                for r in i.wilds() {
                    // The natural cards the wild stands for, straight from the hand's counts.
                    let naturals: &mut dyn Iterator<Item = Card> = match r.stands_for {
                        Target::Card(c) => &mut std::iter::once(c),
                        Target::Rank(rank) => {
                            &mut Suit::ALL.iter().map(move |&s| Card::new(rank, s))
                        }
                    };
                    for natural in naturals {
                        if hand.count(natural) > 0
                            && r.stands_for_matches(natural)
                            && !pairs.contains(&(natural, r.card))
                        {
                            pairs.push((natural, r.card));
                        }
                    }
                }
            }
            for (natural, wild) in pairs {
                if !must {
                    out.push(Action::Rescue {
                        meld: m,
                        natural,
                        wild,
                        then: None,
                    });
                }
                if !must && !follow_ups {
                    continue;
                }
                // The rescued wild may also go straight onto a meld in the same action (it must,
                // under meld-same-turn).
                // The rescued wild goes straight onto a meld: find the lay-offs it could make by
                // playing the rescue as if the wild could stay in hand.
                let mut sim = self.clone();
                let mut rules = (*sim.rules).clone();
                rules.readings.rescued_wild_fate = rd::RescuedWildFate::ToHand;
                sim.rules = std::sync::Arc::new(rules);
                if sim
                    .apply(
                        seat,
                        &Action::Rescue {
                            meld: m,
                            natural,
                            wild,
                            then: None,
                        },
                    )
                    .is_err()
                {
                    continue;
                }
                for t in 0..sim.deal.table.len() {
                    for form in sim.lay_off_forms(t, wild, None) {
                        out.push(Action::Rescue {
                            meld: m,
                            natural,
                            wild,
                            then: Some(Box::new(form)),
                        });
                    }
                }
            }
        }
        out
    }

    /// Structured meld choices: the contract laydown found by the search (declared), or after the
    /// contract one new run and one new set when the hand has them. Not every possible meld: a
    /// caller that wants others builds `Action::Meld` itself and asks `apply`.
    pub fn meld_options(&self) -> Vec<Action> {
        self.meld_options_up_to(usize::MAX)
    }

    /// The first of [`Game::meld_options`], without searching for the others.
    pub fn first_meld_option(&self) -> Option<Action> {
        self.meld_options_up_to(1).pop()
    }

    fn meld_options_up_to(&self, limit: usize) -> Vec<Action> {
        if self.is_over() || self.deal.stage != Stage::Play {
            return Vec::new();
        }
        let seat = self.turn();
        let si = usize::from(seat);
        let hand = &self.deal.hands[si];
        let contract = &self.rules.rounds[self.round].contract;
        let wanted: Vec<Vec<Component>> = if self.deal.progress[si].done {
            vec![
                vec![Component {
                    kind: MeldKind::Run,
                    size: self.rules.run_min,
                }],
                vec![Component {
                    kind: MeldKind::Set,
                    size: self.rules.set_min,
                }],
            ]
        } else {
            vec![contract.clone()]
        };
        let mut out = Vec::new();
        for comps in wanted {
            let Some(l) = contract::laydown(&self.rules, &comps, hand) else {
                continue;
            };
            let mut specs = Vec::new();
            for (c, cards) in &l.melds {
                let v = meld::interpret(
                    &self.rules,
                    &Query {
                        cards: cards.clone(),
                        kind: Some(c.kind),
                        declared: vec![],
                    },
                );
                let Some(i) = v.interpretations.first() else {
                    continue;
                };
                specs.push(self.declared_spec(cards, i));
            }
            let a = Action::Meld(specs);
            if self.accepts_now(&a) {
                out.push(a);
                if out.len() == limit {
                    break;
                }
            }
        }
        out
    }

    /// A meld spec that pins `interp` down as the rules' declaration reading wants.
    pub fn declared_spec(&self, cards: &[Card], interp: &Interpretation) -> MeldSpec {
        let declared: Vec<(Card, Target)> =
            if self.rules.readings.wild_declaration == rd::WildDeclaration::Never {
                Vec::new()
            } else {
                interp.wilds().map(|r| (r.card, r.stands_for)).collect()
            };
        MeldSpec {
            cards: cards.to_vec(),
            kind: Some(interp.kind),
            declared,
        }
    }
}
