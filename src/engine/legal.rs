//! Legal actions: every action the seat to play may take, in canonical form.
//!
//! Draws, discards, ending the turn, one-card lay-offs (with the declarations the rules ask for, and
//! joins), and rescues (with a one-card lay-off of the rescued wild where the rules require it) are
//! listed completely. Melds are combinatorial (any subset of a hand, with any declarations), so
//! they are offered in structured form by [`Game::meld_options`]: the contract laydown the search
//! finds, and after the contract one meld per kind when one exists. Candidates are kept only if
//! [`Game::apply`] accepts them, so everything listed is legal; a property test
//! (`tests/integration/legal_actions.rs`) checks the other direction: whatever `apply` accepts from a broad
//! random space of non-meld actions is listed.

use crate::base::card::{Card, CardList, Counts, Rank, Suit, cards_in};
use crate::engine::game::{
    Action, Declare, Game, MeldSpec, Stage, lay_off_declares, meld_declares,
};
use crate::oracle::contract;
use crate::oracle::meld::{self, Interpretation, Query, Target};
use crate::rules::disputes::reading as rd;
use crate::rules::spec::{Component, MeldKind};
use std::rc::Rc;

impl Game {
    fn accepts_now(&self, a: &Action) -> bool {
        self.accepts(self.turn(), a)
    }

    /// Every legal action, in a fixed order: [`Game::table_actions`] (draws, discards, ending the
    /// turn, lay-offs and rescues) and then every new meld ([`Game::legal_melds`]). Melds come in
    /// canonical form, one action per distinct outcome; past [`MAX_LISTED`] candidate meld
    /// combinations the meld part stops (`legal_melds().complete` says whether it did).
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut out = self.table_actions();
        out.extend(self.legal_melds().actions);
        out
    }

    /// Every legal action but new melds, in a fixed order: lay-offs of any number of cards
    /// (with the declarations the rules ask for, and joins) and rescues (with a lay-off or meld
    /// of the rescued wild where the rules require one or allow it).
    pub fn table_actions(&self) -> Vec<Action> {
        self.table_actions_with(FollowUps::All)
    }

    /// [`Game::table_actions`] without its combinatorial part: lay-offs of one card only, and
    /// rescues as [`Game::rescue_forms`] lists them without follow-ups (alone, or with the
    /// one-card lay-off of the rescued wild that `rescued-wild-fate=meld-same-turn` requires).
    /// Lay-offs of several cards, and a rescued wild laid off with other cards or put into a new
    /// meld, come in thousands of forms where several wilds are within reach, and listing them
    /// can take seconds. For a caller that must bound its work per step, as the `engine_actions`
    /// fuzz target does.
    pub fn table_actions_bounded(&self) -> Vec<Action> {
        self.table_actions_with(FollowUps::Required)
    }

    fn table_actions_with(&self, follow_ups: FollowUps) -> Vec<Action> {
        if self.is_over() {
            return Vec::new();
        }
        let seat = self.turn();
        let mut cands: Vec<Action> = Vec::new();
        if self.deal.stage == Stage::Draw {
            cands.push(Action::TakeDiscard);
            cands.push(Action::Push);
            if self.rules.draws_from_stock() {
                cands.push(Action::DrawStock);
            }
        } else if self.deal.stage == Stage::Buy {
            cands.push(Action::Buy);
            cands.push(Action::Pass);
        } else {
            let hand = &self.deal.hands[usize::from(seat)];
            for (c, _) in hand.iter() {
                cands.push(Action::Discard(c));
            }
            cands.push(Action::EndTurn);
            if self.rules.draws_until_allowed() {
                cands.push(Action::DrawStock);
            }
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
            if follow_ups == FollowUps::All {
                cands.extend(self.multi_lay_offs(hand, None));
            }
            self.rescue_forms_all(seat, follow_ups, &mut cands);
        }
        let mut out: Vec<Action> = Vec::new();
        // Lists can run to thousands (lay-offs of several wilds): a set keeps the check linear.
        let mut seen = std::collections::HashSet::new();
        for a in cands {
            if seen.insert(a.clone()) && self.accepts_now(&a) {
                out.push(a);
            }
        }
        out
    }

    /// The lay-offs of `card` onto meld `m` (joined to `join`) that `apply` may take: the plain
    /// one first, unless it is sure to be refused, then (a wild) one per meaning it may have.
    /// Candidates, not a verdict: listing filters them with `accepts`.
    pub fn lay_off_forms(&self, m: usize, card: Card, join: Option<usize>) -> Vec<Action> {
        let mut forms = Vec::new();
        self.each_lay_off_form(m, card, join, &mut |a| {
            forms.push(a);
            true
        });
        forms
    }

    /// The first of [`Game::lay_off_forms`], without building the others.
    pub fn first_lay_off_form(&self, m: usize, card: Card, join: Option<usize>) -> Option<Action> {
        let mut first = None;
        self.each_lay_off_form(m, card, join, &mut |a| {
            first = Some(a);
            false
        });
        first
    }

    /// Hands [`Game::lay_off_forms`] to `f` one at a time, in order, until `f` returns `false`.
    fn each_lay_off_form(
        &self,
        m: usize,
        card: Card,
        join: Option<usize>,
        f: &mut dyn FnMut(Action) -> bool,
    ) {
        let tm = &self.deal.table[m];
        // Where wilds move, the meld is read again as the kind its readings share (as `apply`).
        let kind = if self.rules.wilds_move {
            crate::engine::game::common_kind(&tm.interps)
        } else {
            tm.interps.first().map(|i| i.kind)
        };
        if join.is_none()
            && let Some(fits) = self.natural_lay_off_fits(m, card)
        {
            if fits {
                f(Action::plain_lay_off(m, card, join));
            }
            return;
        }
        let quick: Option<Vec<Interpretation>> = match join {
            None => meld::extend_each_by_one(&self.rules, &tm.interps, card),
            Some(_) => None,
        };
        let from_quick = quick.is_some();
        // The plain lay-off of a wild is refused where every wild must be declared, or (one card
        // onto one meld, where `readings` are exactly what `apply` weighs) where its readings
        // differ: then only the declared forms are listed.
        let plain_refused = self.rules.is_wild(card)
            && match lay_off_declares(&self.rules) {
                Declare::Nothing | Declare::Optional | Declare::Kind => false,
                Declare::Everything => true,
                Declare::WhereAmbiguous => quick
                    .as_deref()
                    .is_some_and(crate::engine::game::needs_declaration),
            };
        let readings: Vec<Interpretation> = match quick {
            Some(v) => v,
            None => {
                let mut cards = tm.cards.clone();
                cards.push(card);
                if let Some(j) = join {
                    cards.extend_from_slice(&self.deal.table[j].cards);
                }
                let floor = tm.set_floor(&self.rules);
                if !meld::is_valid_at(&self.rules, &cards, kind, floor) {
                    return;
                }
                meld::interpret_at(
                    &self.rules,
                    &Query {
                        cards,
                        kind,
                        declared: vec![],
                    },
                    floor,
                )
                .interpretations
            }
        };
        if readings.is_empty() {
            return;
        }
        self.each_listed_form(m, card, join, plain_refused, &readings, f);
        // For the lay-off of this card that may follow (the first form listed, most often): what
        // `apply` would build again.
        if from_quick {
            self.seen.record_extension(&self.rules, tm, card, readings);
        }
    }

    /// [`Game::each_lay_off_form`]'s forms once `readings` (the meld's interpretations with the
    /// card laid off) are known: the plain lay-off unless refused, then a wild's declared forms.
    fn each_listed_form(
        &self,
        m: usize,
        card: Card,
        join: Option<usize>,
        plain_refused: bool,
        readings: &[Interpretation],
        f: &mut dyn FnMut(Action) -> bool,
    ) {
        if !plain_refused && !f(Action::plain_lay_off(m, card, join)) {
            return;
        }
        if self.rules.is_wild(card) && lay_off_declares(&self.rules).allows_wilds() {
            // What the wild stands for, then (a 2 at its own place) that it stands for itself:
            // where the plain lay-off is ambiguous, each is a lay-off of its own, once.
            // The targets listed so far, one bit each: a card by its index, a rank after them.
            let bit = |t: Target| {
                1u128
                    << match t {
                        Target::Card(c) => c.index(),
                        Target::Rank(r) => crate::base::card::KINDS + usize::from(r.number()) - 1,
                    }
            };
            let mut listed = 0u128;
            for natural in [false, true] {
                for n in readings {
                    for r in n
                        .roles
                        .iter()
                        .filter(|r| r.card == card && r.natural == natural)
                    {
                        if listed & bit(r.stands_for) != 0 {
                            continue;
                        }
                        listed |= bit(r.stands_for);
                        let a = Action::LayOff {
                            meld: m,
                            cards: [card].into(),
                            declared: vec![(card, r.stands_for)],
                            join,
                        };
                        if !f(a) {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// Whether [`Game::lay_off_forms`] of a natural `card` onto meld `m` (not joined) lists its
    /// one form, the plain lay-off: where some interpretation of the meld takes the card. `None`
    /// for a wild card, or where the one-card shortcut does not apply (a full circle under
    /// wrap-around); `lay_off_forms` then lists the forms the long way.
    ///
    /// Where the meld is read one way and the card joins it in one way only, that join is kept
    /// for the lay-off that may follow: `apply` grows the meld by it instead of finding it again.
    pub fn natural_lay_off_fits(&self, m: usize, card: Card) -> Option<bool> {
        if self.rules.is_wild(card) {
            return None;
        }
        let tm = &self.deal.table[m];
        if let [one] = &tm.interps[..] {
            return Some(match meld::joins(&self.rules, one, card)? {
                meld::Joins::No => false,
                meld::Joins::One(j) => {
                    self.seen.record_join(&self.rules, tm, card, j);
                    true
                }
                meld::Joins::Several => true,
            });
        }
        tm.interps.iter().try_fold(false, |any, o| {
            Some(any || meld::extends_by_one(&self.rules, o, card)?)
        })
    }

    /// The rescues `seat` could try; `follow_ups` adds the forms with a lay-off of the rescued wild
    /// in the same action (always added where `rescued-wild-fate=meld-same-turn` requires one).
    pub fn rescue_forms(&self, seat: u8, follow_ups: bool) -> Vec<Action> {
        let mut out = Vec::new();
        let follow_ups = if follow_ups {
            FollowUps::All
        } else {
            FollowUps::Required
        };
        self.rescue_forms_all(seat, follow_ups, &mut out);
        out
    }

    fn rescue_forms_all(&self, seat: u8, follow_ups: FollowUps, out: &mut Vec<Action>) {
        // The rules with the rescued wild kept in hand, built once when a follow-up is sought.
        let mut to_hand = None;
        for m in 0..self.deal.table.len() {
            self.rescue_forms_into(seat, m, follow_ups, &mut to_hand, out);
        }
    }

    /// The rescues on meld `m` alone, as [`Game::rescue_forms`] lists them (without the
    /// optional follow-ups): its forms for every meld in turn are its whole list.
    pub fn rescue_forms_on(&self, seat: u8, m: usize) -> Vec<Action> {
        let mut out = Vec::new();
        self.rescue_forms_into(seat, m, FollowUps::Required, &mut None, &mut out);
        out
    }

    /// The first of [`Game::rescue_forms_on`], without listing the others: where no follow-up is
    /// required, the rescue by the first pair `Game::each_rescue_pair` finds.
    pub fn first_rescue_form_on(&self, seat: u8, m: usize) -> Option<Action> {
        if self.rules.readings.rescued_wild_fate == rd::RescuedWildFate::MeldSameTurn {
            return self.rescue_forms_on(seat, m).into_iter().next();
        }
        let mut first = None;
        self.each_rescue_pair(seat, m, &mut |pair| {
            first = Some(pair);
            false
        });
        first.map(|(natural, wild)| Action::Rescue {
            meld: m,
            natural,
            wild,
            then: None,
        })
    }

    /// Hands `f` each (natural, wild) pair of a rescue `seat` could make on meld `m`, in order
    /// (the same pair again where several readings have it), until `f` returns `false`.
    fn each_rescue_pair(&self, seat: u8, m: usize, f: &mut dyn FnMut((Card, Card)) -> bool) {
        let hand = &self.deal.hands[usize::from(seat)];
        let tm = &self.deal.table[m];
        for i in &tm.interps {
            for r in i.wilds() {
                // The natural cards the wild stands for that the hand holds, in the order of
                // `Target::cards`.
                for natural in cards_in(r.stands_for.mask() & hand.present()) {
                    // Only where the natural can take the wild's place (`apply` refuses the
                    // rest: a suit a set already has, a place the card is not natural in).
                    if r.stands_for_matches(natural)
                        && meld::rescues_in(&self.rules, i, r.card, natural)
                        && !f((natural, r.card))
                    {
                        return;
                    }
                }
            }
        }
    }

    fn rescue_forms_into(
        &self,
        seat: u8,
        m: usize,
        follow_ups: FollowUps,
        to_hand: &mut Option<std::sync::Arc<crate::rules::Rules>>,
        out: &mut Vec<Action>,
    ) {
        let must = self.rules.readings.rescued_wild_fate == rd::RescuedWildFate::MeldSameTurn;
        let mut pairs: Vec<(Card, Card)> = Vec::new();
        self.each_rescue_pair(seat, m, &mut |pair| {
            if !pairs.contains(&pair) {
                pairs.push(pair);
            }
            true
        });
        for (natural, wild) in pairs {
            if !must {
                out.push(Action::Rescue {
                    meld: m,
                    natural,
                    wild,
                    then: None,
                });
            }
            if !must && follow_ups == FollowUps::Required {
                continue;
            }
            // The rescued wild may also go straight onto a meld in the same action (it must,
            // under meld-same-turn).
            // The rescued wild goes straight onto a meld: find the lay-offs it could make by
            // playing the rescue as if the wild could stay in hand.
            let mut sim = self.clone();
            sim.rules = to_hand
                .get_or_insert_with(|| {
                    let mut rules = (*self.rules).clone();
                    rules.readings.rescued_wild_fate = rd::RescuedWildFate::ToHand;
                    std::sync::Arc::new(rules)
                })
                .clone();
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
            let mut follow: Vec<Action> = Vec::new();
            for t in 0..sim.deal.table.len() {
                follow.extend(sim.lay_off_forms(t, wild, None));
                for j in (0..sim.deal.table.len()).filter(|&j| j != t) {
                    follow.extend(sim.lay_off_forms(t, wild, Some(j)));
                }
            }
            if follow_ups == FollowUps::All {
                // Longer lay-offs and new melds that use the wild (listing only: these
                // need the full enumeration).
                let sim_hand = &sim.deal.hands[usize::from(seat)];
                follow.extend(sim.multi_lay_offs(sim_hand, Some(wild)));
                follow.extend(
                    sim.legal_melds()
                        .actions
                        .into_iter()
                        .filter(|a| matches!(a, Action::Meld(specs) if specs.iter().any(|s| s.cards.contains(&wild)))),
                );
            }
            for form in follow {
                out.push(Action::Rescue {
                    meld: m,
                    natural,
                    wild,
                    then: Some(Box::new(form)),
                });
            }
        }
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
        let mut out = Vec::new();
        for a in self.meld_candidates() {
            if self.accepts_now(&a) {
                out.push(a);
                if out.len() == limit {
                    break;
                }
            }
        }
        out
    }

    /// The candidates of [`Game::meld_options`] before `apply` has judged them: the contract
    /// laydown the search finds, or after the contract one run and one set, each declared.
    pub fn meld_candidates(&self) -> Vec<Action> {
        self.meld_candidates_from(&mut |comps, hand| {
            contract::laydown(&self.rules, comps, hand).map(Rc::new)
        })
    }

    /// [`Game::meld_candidates`] with the laydown search supplied by the caller (a player that
    /// remembers an answer it already has); `search` must answer as [`contract::laydown`].
    pub fn meld_candidates_from(&self, search: &mut LaydownSearch) -> Vec<Action> {
        (0..MELD_CANDIDATES)
            .filter_map(|k| self.meld_candidate(k, search))
            .collect()
    }

    /// The one meld candidate `k` searches for once the seat's contract is met: a run of the
    /// rules' least length (0), then a set of their least size (1); `None` for any other `k`.
    pub fn after_contract_candidate(&self, k: usize) -> Option<Component> {
        let (kind, size) = match k {
            0 => (MeldKind::Run, self.rules.run_min),
            1 => (MeldKind::Set, self.rules.set_min),
            _ => return None,
        };
        Some(Component::of(kind, size))
    }

    /// The `k`-th candidate of [`Game::meld_candidates_from`] (0: the contract, or after it a
    /// run; 1: after the contract, a set; `k < MELD_CANDIDATES`), searched for only when asked: a
    /// player that melds the first need not search for the second.
    pub fn meld_candidate(&self, k: usize, search: &mut LaydownSearch) -> Option<Action> {
        if self.is_over() || self.deal.stage != Stage::Play {
            return None;
        }
        let seat = self.turn();
        let si = usize::from(seat);
        let hand = &self.deal.hands[si];
        let contract = &self.rules.rounds[self.round].contract;
        let one;
        let comps: &[Component] = match (self.deal.progress[si].done, k) {
            (false, 0) => contract,
            (true, _) => {
                one = [self.after_contract_candidate(k)?];
                &one
            }
            _ => return None,
        };
        let l = search(comps, hand)?;
        self.seen.start(&self.rules);
        let mut specs = Vec::new();
        for (c, cards) in &l.melds {
            // Without a card that could be wild, or where wilds are never declared, there is
            // nothing to declare: the spec needs no interpretation.
            let declares = meld_declares(&self.rules, cards).allows_wilds()
                && cards.iter().any(|&card| self.rules.is_wild(card));
            if !declares {
                specs.push(MeldSpec {
                    cards: cards.clone(),
                    kind: Some(c.kind),
                    declared: Vec::new(),
                });
                continue;
            }
            // A contract set of a fixed rank may be smaller than `sets.min-size`, and is declared
            // as a set of that rank.
            let v = meld::interpret_at(
                &self.rules,
                &Query {
                    cards: cards.clone(),
                    kind: Some(c.kind),
                    declared: vec![],
                },
                contract::set_floor(&self.rules, comps),
            );
            let mut fitting = v.interpretations.iter();
            let Some(i) = fitting.find(|x| contract::fills(&self.rules, *c, cards.len(), x)) else {
                continue;
            };
            let spec = self.declared_spec(cards, i);
            if !v.truncated {
                self.seen.record(cards, c.kind, v.interpretations);
            }
            specs.push(spec);
        }
        Some(Action::Meld(specs))
    }

    /// A meld spec that pins `interp` down as the rules' declaration reading wants: every card
    /// that could be wild is declared, including a 2 standing for itself (which is how a player
    /// says "this 2 is natural").
    pub fn declared_spec(&self, cards: &[Card], interp: &Interpretation) -> MeldSpec {
        let declared: Vec<(Card, Target)> = if !meld_declares(&self.rules, cards).allows_wilds() {
            Vec::new()
        } else {
            interp
                .roles
                .iter()
                .filter(|r| self.rules.is_wild(r.card))
                .map(|r| (r.card, r.stands_for))
                .collect()
        };
        MeldSpec {
            cards: cards.to_vec(),
            kind: Some(interp.kind),
            declared,
        }
    }
}

/// A laydown search as [`Game::meld_candidate`] asks it: [`contract::laydown`], or a caller's
/// memory of its answers (shared, so a remembered answer is not copied).
pub type LaydownSearch<'a> = dyn FnMut(&[Component], &Counts) -> Option<Rc<contract::Laydown>> + 'a;

/// How many candidates [`Game::meld_candidate`] numbers: the contract, or a run and a set.
pub const MELD_CANDIDATES: usize = 2;

/// How many candidate meld combinations [`Game::legal_melds`] tries at most (and sub-multisets of
/// one pool of cards it looks at, for a new meld or for a lay-off of several cards onto one meld):
/// enough for every hand the built-in games deal, and a bound on the time a pathological hand can
/// take.
pub const MAX_LISTED: usize = 50_000;

/// How much of the combinatorial part a table listing takes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum FollowUps {
    /// Lay-offs of one card, and rescues with only the follow-up the rules require
    /// (`rescued-wild-fate=meld-same-turn`: a one-card lay-off of the rescued wild).
    Required,
    /// Lay-offs of any number of cards, and rescues with any follow-up: the rescued wild laid
    /// off, alone or with other cards, or put into a new meld.
    All,
}

/// Every legal new meld, in canonical form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeldListing {
    pub actions: Vec<Action>,
    /// `false` when [`MAX_LISTED`] cut the enumeration short.
    pub complete: bool,
}

/// Calls `f` with every sub-multiset of `pool` of `lo..=hi` cards, in a fixed order; stops (and
/// returns `false`) after `budget` sub-multisets.
fn sub_multisets(
    pool: &[(Card, u8)],
    lo: usize,
    hi: usize,
    budget: &mut usize,
    f: &mut dyn FnMut(&[Card]),
) -> bool {
    fn go(
        pool: &[(Card, u8)],
        i: usize,
        cur: &mut Vec<Card>,
        lo: usize,
        hi: usize,
        budget: &mut usize,
        f: &mut dyn FnMut(&[Card]),
    ) -> bool {
        if i == pool.len() {
            if cur.len() >= lo {
                if *budget == 0 {
                    return false;
                }
                *budget -= 1;
                f(cur);
            }
            return true;
        }
        let (card, k) = pool[i];
        let base = cur.len();
        for n in 0..=usize::from(k) {
            if base + n > hi {
                break;
            }
            if n > 0 {
                cur.push(card);
            }
            if !go(pool, i + 1, cur, lo, hi, budget, f) {
                cur.truncate(base);
                return false;
            }
        }
        cur.truncate(base);
        true
    }
    go(pool, 0, &mut Vec::new(), lo, hi, budget, f)
}

impl Game {
    /// The pools of hand cards a meld could come from: per rank for sets (its naturals and the
    /// wilds), per suit for runs (its cards and the wilds; the whole hand under any-suits).
    fn meld_pools(&self, hand: &Counts) -> Vec<(MeldKind, Vec<(Card, u8)>)> {
        let wilds: Vec<(Card, u8)> = hand
            .iter()
            .filter(|(c, _)| self.rules.is_wild(*c))
            .collect();
        let with_wilds = |mut v: Vec<(Card, u8)>| {
            for w in &wilds {
                if !v.contains(w) {
                    v.push(*w);
                }
            }
            v.sort();
            v
        };
        let mut pools = Vec::new();
        for rank in Rank::ALL {
            let v: Vec<(Card, u8)> = hand
                .iter()
                .filter(|(c, _)| c.rank() == Some(rank))
                .collect();
            if !v.is_empty() {
                pools.push((MeldKind::Set, with_wilds(v)));
            }
        }
        // All-wild sets.
        pools.push((MeldKind::Set, with_wilds(Vec::new())));
        if self.rules.readings.run_suits == rd::RunSuits::SameSuit {
            for suit in Suit::ALL {
                let v: Vec<(Card, u8)> = hand
                    .iter()
                    .filter(|(c, _)| c.suit() == Some(suit))
                    .collect();
                pools.push((MeldKind::Run, with_wilds(v)));
            }
        } else {
            pools.push((MeldKind::Run, hand.iter().collect()));
        }
        pools
    }

    /// The canonical specs of one card multiset as a meld: one per kind and meaning of its wilds
    /// (declared as the rules allow), or none when it is no meld.
    fn canonical_specs(&self, cards: &[Card], kind: MeldKind, set_min: u8) -> Vec<MeldSpec> {
        let v = meld::interpret_at(
            &self.rules,
            &Query {
                cards: cards.to_vec(),
                kind: Some(kind),
                declared: vec![],
            },
            set_min,
        );
        let mut out: Vec<MeldSpec> = Vec::new();
        let asks = meld_declares(&self.rules, cards);
        // Where declaring is optional, the meld may also go down undeclared, its wilds floating
        // (a different outcome only where the readings give a wild different meanings).
        if matches!(asks, Declare::Optional | Declare::Kind)
            && crate::engine::game::needs_declaration(&v.interpretations)
        {
            out.push(MeldSpec {
                cards: cards.to_vec(),
                kind: Some(kind),
                declared: vec![],
            });
        }
        for i in &v.interpretations {
            let spec = self.declared_spec(cards, i);
            if !out.contains(&spec) {
                out.push(spec);
            }
        }
        // Where no kind need be named, cards that are both a set and a run may also go down
        // without a kind, keeping the readings of both (listed once, with the sets).
        if kind == MeldKind::Set
            && matches!(asks, Declare::Nothing | Declare::Optional)
            && !v.interpretations.is_empty()
            && meld::is_valid(&self.rules, cards, Some(MeldKind::Run))
        {
            out.push(MeldSpec {
                cards: cards.to_vec(),
                kind: None,
                declared: vec![],
            });
        }
        out
    }

    /// Every legal `Action::Meld` for the seat to play, each meld in canonical form (cards in
    /// canonical order, the kind named, wilds declared as the rules allow), kept when
    /// [`Game::apply`] accepts it:
    /// - before the contract, every combination of melds that fills the contract (with
    ///   `contract-in-one-turn=piecemeal`, every combination that fills open parts of it; in a
    ///   deal played all at once, every combination of the whole hand);
    /// - after it, every single meld.
    ///
    /// A `Meld` action with more melds than that (extras on the contract turn, or several melds
    /// at once later) is not listed: it has the same outcome as the listed action followed by
    /// its other melds one at a time, which are listed in turn.
    pub fn legal_melds(&self) -> MeldListing {
        let mut listing = MeldListing {
            actions: Vec::new(),
            complete: true,
        };
        if self.is_over() || self.deal.stage != Stage::Play {
            return listing;
        }
        let seat = self.turn();
        let hand = &self.deal.hands[usize::from(seat)];
        // Single melds.
        let mut budget = MAX_LISTED;
        let mut singles: Vec<(Counts, MeldSpec)> = Vec::new();
        let mut seen: std::collections::BTreeSet<(bool, Vec<Card>)> = Default::default();
        let progress = &self.deal.progress[usize::from(seat)];
        // Towards the contract a set of a fixed rank may be smaller than `sets.min-size`
        // (`set of 2 aces`): such sets are listed too, and `apply` takes them only as that.
        let set_floor = if progress.done {
            self.rules.set_min
        } else {
            contract::set_floor(&self.rules, &self.rules.rounds[self.round].contract)
        };
        for (kind, pool) in self.meld_pools(hand) {
            let lo = usize::from(match kind {
                MeldKind::Set => set_floor,
                MeldKind::Run => self.rules.run_min,
            })
            .max(1);
            let mut found: Vec<Vec<Card>> = Vec::new();
            // A set below `sets.min-size` only where it fills a contract set of one rank.
            let contract = &self.rules.rounds[self.round].contract;
            let small_fills = |cards: &[Card]| {
                !meld::for_each_at(&self.rules, cards, Some(kind), set_floor, &mut |x| {
                    !contract
                        .iter()
                        .any(|&c| contract::fills(&self.rules, c, cards.len(), &x))
                })
            };
            let done = sub_multisets(&pool, lo, usize::MAX, &mut budget, &mut |cards| {
                let small = kind == MeldKind::Set && cards.len() < usize::from(self.rules.set_min);
                if seen.insert((kind == MeldKind::Run, cards.to_vec()))
                    && if small {
                        small_fills(cards)
                    } else {
                        meld::is_valid_at(&self.rules, cards, Some(kind), set_floor)
                    }
                {
                    found.push(cards.to_vec());
                }
            });
            listing.complete &= done;
            for cards in found {
                for spec in self.canonical_specs(&cards, kind, set_floor) {
                    singles.push((Counts::from_cards(&cards), spec));
                }
            }
        }
        singles.sort_by(|a, b| {
            (&a.1.cards, a.1.kind, &a.1.declared).cmp(&(&b.1.cards, b.1.kind, &b.1.declared))
        });
        // Combinations of melds the hand holds at once, each tried on the game: as many as the
        // contract has parts still open (up to them, piecemeal), or one after the contract.
        let pooled = self.rules.contract_pooled && !progress.done;
        // All at once, the contract goes down with the whole hand: in as many melds as that takes.
        let whole = !progress.done && self.rules.rounds[self.round].all_at_once;
        let open = progress.filled.iter().filter(|f| !**f).count().max(1);
        let most = if progress.done {
            1
        } else if pooled || whole {
            // Pooled, the contract may lie in fewer melds than it has parts, or in more: as many
            // as the hand could make.
            let smallest = set_floor.min(self.rules.run_min).max(1);
            (hand.len() / usize::from(smallest)).max(open)
        } else {
            open
        };
        let least = match self.rules.readings.contract_in_one_turn {
            rd::ContractInOneTurn::Required if !progress.done && !pooled => open,
            _ => 1,
        };
        // All at once, only combinations of the whole hand are asked.
        let whole = whole.then(|| hand.len());
        let mut budget = MAX_LISTED;
        let mut chosen: Vec<usize> = Vec::new();
        let mut used = Counts::new();
        listing.complete &= self.meld_combos(
            seat,
            hand,
            &singles,
            (least, most, whole),
            0,
            &mut chosen,
            &mut used,
            &mut budget,
            &mut listing.actions,
        );
        listing
    }

    #[allow(clippy::too_many_arguments)]
    fn meld_combos(
        &self,
        seat: u8,
        hand: &Counts,
        singles: &[(Counts, MeldSpec)],
        (least, most, whole): (usize, usize, Option<usize>),
        from: usize,
        chosen: &mut Vec<usize>,
        used: &mut Counts,
        budget: &mut usize,
        out: &mut Vec<Action>,
    ) -> bool {
        for i in from..singles.len() {
            let mut next = used.clone();
            next.add_all(&singles[i].0);
            if !hand.contains(&next) {
                continue;
            }
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            chosen.push(i);
            if chosen.len() >= least && whole.is_none_or(|n| next.len() == n) {
                let a = Action::Meld(chosen.iter().map(|&k| singles[k].1.clone()).collect());
                if self.accepts(seat, &a) {
                    out.push(a);
                }
            }
            let ok = chosen.len() == most
                || self.meld_combos(
                    seat,
                    hand,
                    singles,
                    (least, most, whole),
                    i,
                    chosen,
                    &mut next,
                    budget,
                    out,
                );
            chosen.pop();
            if !ok {
                return false;
            }
        }
        true
    }

    /// Lay-offs of two or more cards onto one meld (joins included), in canonical form; with
    /// `must` only those that include that card. Kept when [`Game::apply`] accepts them.
    fn multi_lay_offs(&self, hand: &Counts, must: Option<Card>) -> Vec<Action> {
        let seat = self.turn();
        let mut out = Vec::new();
        let n = self.deal.table.len();
        let joining = self.rules.readings.run_join_split == rd::RunJoinSplit::JoinAllowed;
        for m in 0..n {
            let interps = &self.deal.table[m].interps;
            let Some(kind) = interps.first().map(|i| i.kind) else {
                continue;
            };
            // The hand cards that could go onto this meld: its rank (a set) or its suit (a run;
            // any card under any-suits), and the wilds.
            let fits = |c: Card| {
                interps.iter().any(|i| match i.kind {
                    MeldKind::Set => c.rank() == i.rank,
                    MeldKind::Run => i.suit.is_none() || c.suit() == i.suit,
                })
            };
            let pool: Vec<(Card, u8)> = hand
                .iter()
                .filter(|(c, _)| fits(*c) || self.rules.is_wild(*c))
                .collect();
            // Only runs are joined, and only where the rules allow it.
            let joins: Vec<Option<usize>> = std::iter::once(None)
                .chain(
                    (0..n)
                        .filter(|&j| j != m && joining && kind == MeldKind::Run)
                        .map(Some),
                )
                .collect();
            let mut tries: Vec<Vec<Card>> = Vec::new();
            let mut budget = MAX_LISTED;
            sub_multisets(&pool, 2, usize::MAX, &mut budget, &mut |cards| {
                if must.is_none_or(|w| cards.contains(&w)) {
                    tries.push(cards.to_vec());
                }
            });
            // Each form is new: the sub-multisets differ, and so do one's declared forms.
            for cards in tries {
                for &join in &joins {
                    for a in self.lay_off_declared_forms(m, &cards, join) {
                        if self.accepts(seat, &a) {
                            out.push(a);
                        }
                    }
                }
            }
        }
        out
    }

    /// A lay-off of `cards` onto meld `m` without declarations, and one per meaning of its wilds
    /// in the readings of the result.
    fn lay_off_declared_forms(&self, m: usize, cards: &[Card], join: Option<usize>) -> Vec<Action> {
        let plain = Action::LayOff {
            meld: m,
            cards: CardList::from_slice(cards),
            declared: vec![],
            join,
        };
        let mut forms = vec![plain];
        if !lay_off_declares(&self.rules).allows_wilds()
            || !cards.iter().any(|c| self.rules.is_wild(*c))
        {
            return forms;
        }
        let tm = &self.deal.table[m];
        let mut all = tm.cards.clone();
        all.extend_from_slice(cards);
        if let Some(j) = join {
            all.extend_from_slice(&self.deal.table[j].cards);
        }
        let v = meld::interpret_at(
            &self.rules,
            &Query {
                cards: all,
                kind: tm.interps.first().map(|i| i.kind),
                declared: vec![],
            },
            tm.set_floor(&self.rules),
        );
        // The declarations listed so far (the plain form's is empty); readings can run to
        // thousands where several wilds are laid off, so a set keeps this linear.
        let mut seen = std::collections::HashSet::from([Vec::new()]);
        for i in &v.interpretations {
            // Declare the laid-off wild cards, a 2 at its own place as itself too (a wild card
            // may appear in the old meld too: declare the copies the new cards bring, in the
            // reading's role order).
            let mut left: Vec<Card> = cards
                .iter()
                .copied()
                .filter(|c| self.rules.is_wild(*c))
                .collect();
            let mut declared = Vec::new();
            for r in i.roles.iter().filter(|r| self.rules.is_wild(r.card)) {
                if let Some(p) = left.iter().position(|c| *c == r.card) {
                    left.remove(p);
                    declared.push((r.card, r.stands_for));
                }
            }
            if seen.insert(declared.clone()) {
                forms.push(Action::LayOff {
                    meld: m,
                    cards: CardList::from_slice(cards),
                    declared,
                    join,
                });
            }
        }
        forms
    }
}
