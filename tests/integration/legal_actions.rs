//! `legal_actions` and `apply` agree: everything listed is accepted, and whatever `apply`
//! accepts from a broad random space of actions (any card, any meld number, any declaration, new
//! melds of any cards of the hand, lay-offs of several cards) has a listed action with the same
//! outcome (the same game afterwards, up to the order of the new melds on the table).

use proptest::prelude::*;
use push_rummy::base::card::{Card, KINDS};
use push_rummy::base::rng::Rng;
use push_rummy::engine::bots::{self, Bot};
use push_rummy::engine::game::{Action, Deal, Event, Game, HandResult, MeldSpec};
use push_rummy::oracle::meld::{self, Query, Target};
use push_rummy::rules::disputes::DisputeId;
use push_rummy::rules::disputes::reading::RescuedWildFate;
use std::sync::Arc;

const SWITCHES: &[(DisputeId, &[&str])] = &[
    (
        DisputeId::WildDeclaration,
        &[
            "when-ambiguous",
            "always",
            "never",
            "kind-when-all-wild",
            "when-at-most-one-natural",
            "kind-always",
        ],
    ),
    (DisputeId::RescueTiming, &["after-own-contract", "any-time"]),
    (DisputeId::RescuedWildFate, &["to-hand", "meld-same-turn"]),
    (DisputeId::WildInSetRepresents, &["rank-only", "exact-card"]),
    (DisputeId::FrozenTwo, &["represents-itself", "position"]),
    (DisputeId::RunJoinSplit, &["never", "join-allowed"]),
    (
        DisputeId::DiscardRestrictions,
        &["none", "no-twos-no-taken-card"],
    ),
    (
        DisputeId::NoLegalDiscard,
        &["relax-taken-card-then-twos", "no-discard"],
    ),
    (
        DisputeId::PushWithOneStockCard,
        &["allowed-hand-ends", "forbidden"],
    ),
    (DisputeId::PusherDraws, &["yes", "no"]),
    (DisputeId::GoingOut, &["meld-or-discard", "discard-only"]),
    (DisputeId::ContractTurnExtras, &["allowed", "next-turn"]),
];

fn game_at(seed: u64, steps: usize, picks: &[usize], turn_rules: Option<[u8; 5]>) -> Game {
    let mut rules = crate::common::push();
    for ((id, names), k) in SWITCHES.iter().zip(picks) {
        rules.set_reading(*id, names[k % names.len()]);
    }
    // The contract pooled (where it is laid in one turn), a fifth of the time.
    if seed % 5 == 1
        && rules.readings.contract_in_one_turn
            == push_rummy::rules::disputes::reading::ContractInOneTurn::Required
    {
        rules.contract_pooled = true;
    }
    // The optional turn rules (discard bans, what happens when none may go, the first player,
    // going out on the contract turn), in about half the games.
    if let Some(p) = turn_rules {
        rules.pick_turn_rules(p);
    }
    // Wilds that move (`wilds.may-move`), an eleventh of the time.
    if seed % 11 == 4 {
        rules.wilds_move = true;
    }
    // Every deal played all at once (`rounds[N].all-at-once`), a thirteenth of the time.
    if seed % 13 == 6 {
        rules.play_all_at_once(u32::MAX);
    }
    // A set of a fixed rank in each contract (`set of 3 kings`; half of them a pair, `set of 2
    // aces`, smaller than sets go), a seventeenth of the time.
    if seed % 17 == 5 {
        rules.fix_set_ranks((seed / 17) as u32);
    }
    // No push (the plain draw), a seventh of the time.
    if seed % 7 == 2 {
        rules.no_push = true;
    }
    // Limits on the wild cards of a meld, a third of the time (from the seed).
    if seed.is_multiple_of(3) {
        rules.wild_limits = push_rummy::rules::WildLimits {
            max: [None, Some(1), Some(2)][(seed / 3 % 3) as usize],
            not_outnumbering: (seed / 9).is_multiple_of(2),
            min_naturals: (seed / 18 % 3) as u8,
            apart_in_runs: (seed / 54).is_multiple_of(2),
        };
    }
    // One game in four with buying out of turn, its knobs varied with the seed.
    if seed % 4 == 1 {
        rules.buying = Some(push_rummy::rules::Buying {
            penalty_cards: (seed / 4 % 3) as u8,
            per_hand: [None, Some(1), Some(2)][(seed / 12 % 3) as usize],
            when_down: (seed / 36).is_multiple_of(2),
        });
    }
    let mut g = Game::new(Arc::new(rules), 4, (seed % 4) as u8, seed, vec![]).unwrap();
    let mut rng = Rng::new(seed);
    // Play `steps` actions, then on to a turn in its play stage (where lay-offs and rescues live)
    // or, under buying, a buy window.
    let mut n = 0;
    let stop = |g: &Game| {
        use push_rummy::engine::game::Stage;
        g.deal.stage == Stage::Play || g.deal.stage == Stage::Buy
    };
    while !g.is_over() && (n < steps || !stop(&g)) {
        n += 1;
        let a = bots::choose(
            if seed.is_multiple_of(3) {
                Bot::Random
            } else {
                Bot::Greedy
            },
            &g,
            &mut rng,
        );
        let seat = g.turn();
        g.apply(seat, &a).unwrap();
    }
    g
}

fn random_action(g: &Game, r: &mut Rng) -> Action {
    let card = |r: &mut Rng| -> Card {
        let hand = g.deal.hands[usize::from(g.turn())].cards();
        if !hand.is_empty() && r.below(4) != 0 {
            hand[r.below(hand.len() as u64) as usize]
        } else {
            Card::from_index(r.below(KINDS as u64) as usize).unwrap()
        }
    };
    let meld_no = |r: &mut Rng| r.below(g.deal.table.len() as u64 + 1) as usize;
    let target = |r: &mut Rng| -> Vec<(Card, Target)> {
        if r.below(2) == 0 {
            vec![(
                Card::JOKER,
                Target::Card(Card::from_index(r.below(52) as usize).unwrap()),
            )]
        } else {
            Vec::new()
        }
    };
    match r.below(11) {
        9 => Action::Buy,
        10 => Action::Pass,
        0 => Action::TakeDiscard,
        1 => Action::Push,
        2 => Action::DrawStock,
        3 => Action::EndTurn,
        4 | 5 => Action::Discard(card(r)),
        6 | 7 => {
            // Half the time a card of the hand that makes some meld longer.
            let m = meld_no(r);
            let fitting: Vec<Card> = match g.deal.table.get(m) {
                Some(t) => g.deal.hands[usize::from(g.turn())]
                    .cards()
                    .into_iter()
                    .filter(|c| {
                        let mut v = t.cards.clone();
                        v.push(*c);
                        push_rummy::oracle::meld::is_valid(&g.rules, &v, None)
                    })
                    .collect(),
                None => Vec::new(),
            };
            let c = if !fitting.is_empty() && r.below(2) == 0 {
                fitting[r.below(fitting.len() as u64) as usize]
            } else {
                card(r)
            };
            let mut declared = target(r);
            for d in &mut declared {
                d.0 = c;
            }
            Action::LayOff {
                meld: meld_no(r),
                cards: vec![c].into(),
                declared,
                join: (r.below(4) == 0).then(|| meld_no(r)),
            }
        }
        _ => {
            let wild = if r.below(2) == 0 {
                Card::JOKER
            } else {
                Card::from_index(1 + 13 * r.below(4) as usize).unwrap()
            };
            let then = (r.below(2) == 0).then(|| {
                Box::new(Action::LayOff {
                    meld: meld_no(r),
                    cards: vec![wild].into(),
                    declared: vec![],
                    join: None,
                })
            });
            Action::Rescue {
                meld: meld_no(r),
                natural: card(r),
                wild,
                then,
            }
        }
    }
}

/// Random cards of the hand (two to six of them), or now and then any card.
fn some_cards(g: &Game, r: &mut Rng, lo: u64, hi: u64) -> Vec<Card> {
    let mut hand = g.deal.hands[usize::from(g.turn())].cards();
    let n = (lo + r.below(hi - lo + 1)) as usize;
    let mut out = Vec::new();
    while out.len() < n && !hand.is_empty() {
        out.push(hand.remove(r.below(hand.len() as u64) as usize));
    }
    if r.below(10) == 0 {
        out.push(Card::from_index(r.below(KINDS as u64) as usize).unwrap());
    }
    out
}

/// A meld spec of random hand cards; when they make a meld, often declared by one of its readings
/// (in full, in part, or the kind alone).
fn random_spec(g: &Game, r: &mut Rng, cards: Vec<Card>) -> MeldSpec {
    let v = meld::interpret(
        &g.rules,
        &Query {
            cards: cards.clone(),
            kind: None,
            declared: vec![],
        },
    );
    let mut spec = MeldSpec {
        cards,
        kind: None,
        declared: vec![],
    };
    if let Some(i) = (!v.interpretations.is_empty())
        .then(|| &v.interpretations[r.below(v.interpretations.len() as u64) as usize])
    {
        if r.below(3) != 0 {
            spec.kind = Some(i.kind);
        }
        for role in &i.roles {
            if g.rules.is_wild(role.card) && r.below(4) != 0 {
                spec.declared.push((role.card, role.stands_for));
            }
        }
    }
    spec
}

fn random_meld_or_long_lay_off(g: &Game, r: &mut Rng) -> Action {
    if r.below(3) == 0 && !g.deal.table.is_empty() {
        let meld = r.below(g.deal.table.len() as u64) as usize;
        let cards = some_cards(g, r, 2, 3);
        let spec = random_spec(g, r, cards);
        return Action::LayOff {
            meld,
            cards: spec.cards.into(),
            declared: spec.declared,
            join: None,
        };
    }
    // As many melds as `legal_melds` lists in one action: the open parts of the contract, or one.
    let p = &g.deal.progress[usize::from(g.turn())];
    let open = p.filled.iter().filter(|f| !**f).count().max(1) as u64;
    let n = if p.done {
        1
    } else if g.rules.readings.contract_in_one_turn
        == push_rummy::rules::disputes::reading::ContractInOneTurn::Required
    {
        open
    } else {
        1 + r.below(open)
    };
    let specs = (0..n)
        .map(|_| {
            let cards = some_cards(g, r, 3, 6);
            random_spec(g, r, cards)
        })
        .collect();
    Action::Meld(specs)
}

/// Where an action leads: the deal with its table in a canonical order, the totals, the results
/// and the round.
type Outcome = (Deal, Vec<i64>, Vec<HandResult>, usize);

/// The game after `a`, for comparing outcomes (`None`: refused).
fn outcome(g: &Game, a: &Action) -> Option<Outcome> {
    let mut h = g.clone();
    h.apply(g.turn(), a).ok()?;
    let mut d = h.deal;
    // A meld keeps its cards in the order they were laid, which two actions listing the same
    // cards in another order do not share: the outcome is the same meld, so compare the cards
    // as a multiset.
    for m in &mut d.table {
        Arc::make_mut(m).cards.sort();
    }
    d.table
        .sort_by(|x, y| (&x.cards, &x.interps, x.owner).cmp(&(&y.cards, &y.interps, y.owner)));
    Some((d, h.totals, h.results.to_vec(), h.round))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn legal_actions_and_apply_agree(seed in 0u64..5000, steps in 0usize..150, picks in proptest::collection::vec(0usize..3, SWITCHES.len()), turn_rules in proptest::option::of(any::<[u8; 5]>()), tries in 0u64..1000) {
        let g = game_at(seed, steps, &picks, turn_rules);
        prop_assume!(!g.is_over());
        let complete = g.legal_melds().complete;
        let legal = g.legal_actions();
        let mut outcomes = Vec::new();
        for a in &legal {
            let o = outcome(&g, a);
            prop_assert!(o.is_some(), "listed but refused: {}", a);
            outcomes.extend(o);
        }
        for a in g.meld_options() {
            prop_assert!(outcome(&g, &a).is_some(), "meld option refused: {}", a);
        }
        // The bounded table listing is the full one less the lay-offs of several cards and the
        // rescues' optional follow-ups: only the one-card lay-off that meld-same-turn requires
        // stays.
        let table = g.table_actions();
        let must = g.rules.readings.rescued_wild_fate == RescuedWildFate::MeldSameTurn;
        let kept = |a: &Action| match a {
            Action::LayOff { cards, .. } => cards.len() == 1,
            Action::Rescue { then: Some(t), .. } => {
                must && matches!(&**t, Action::LayOff { cards, .. } if cards.len() == 1)
            }
            _ => true,
        };
        let bounded: Vec<&Action> = table.iter().filter(|a| kept(a)).collect();
        let listed = g.table_actions_bounded();
        prop_assert_eq!(listed.iter().collect::<Vec<_>>(), bounded);
        // The greedy player tries each meld's first rescue form before listing them all.
        for m in 0..g.deal.table.len() {
            let first = g.rescue_forms_on(g.turn(), m).into_iter().next();
            prop_assert_eq!(g.first_rescue_form_on(g.turn(), m), first, "meld {}", m);
        }
        prop_assert_eq!(&legal[..table.len()], &table[..]);
        // Past the listing's bound only the first direction can be checked.
        prop_assume!(complete);
        let mut r = Rng::new(tries);
        for k in 0..200 {
            let a = if k % 2 == 0 { random_action(&g, &mut r) } else { random_meld_or_long_lay_off(&g, &mut r) };
            // `apply_into` appends what `apply` returns, and nothing when it refuses.
            let mut h = g.clone();
            let mut events = vec![Event::TurnEnded { seat: 9 }];
            let into = h.apply_into(g.turn(), &a, &mut events);
            match g.clone().apply(g.turn(), &a) {
                Ok(ev) => prop_assert_eq!(&events[1..], &ev[..]),
                Err(e) => {
                    prop_assert_eq!(into.unwrap_err().to_string(), e.to_string());
                    prop_assert_eq!(events.len(), 1);
                    prop_assert_eq!(&h.deal, &g.deal);
                }
            }
            if let Some(o) = outcome(&g, &a) {
                prop_assert!(
                    outcomes.contains(&o),
                    "accepted, but no listed action has its outcome: {}\nlisted: {:?}",
                    a,
                    legal.iter().map(|x| x.to_string()).collect::<Vec<_>>()
                );
            }
        }
    }
}

/// The bound on listing melds is rarely reached in real play: at least 95% of the states the
/// players reach are listed in full (so the test above is not vacuous).
#[test]
fn meld_listings_of_played_states_are_almost_always_complete() {
    let mut complete = 0;
    let total = 200;
    for k in 0..total {
        let g = game_at(k * 7, (k * 13 % 150) as usize, &[0; 12], None);
        if g.is_over() || g.legal_melds().complete {
            complete += 1;
        }
    }
    assert!(
        complete * 100 >= total * 95,
        "{complete} of {total} complete"
    );
}

/// After the contract, several melds at once end where the same melds one at a time do (why
/// `legal_melds` lists single melds then).
#[test]
fn several_melds_at_once_equal_the_same_melds_one_by_one() {
    let mut checked = 0;
    for k in 0..400u64 {
        let g = game_at(k, (k * 11 % 150) as usize, &[0; 12], None);
        if g.is_over() || !g.deal.progress[usize::from(g.turn())].done {
            continue;
        }
        let singles: Vec<MeldSpec> = g
            .legal_melds()
            .actions
            .into_iter()
            .filter_map(|a| match a {
                Action::Meld(mut v) if v.len() == 1 => v.pop(),
                _ => None,
            })
            .collect();
        for (i, a) in singles.iter().enumerate() {
            for b in &singles[i + 1..] {
                let mut both = g.clone();
                let seat = g.turn();
                if both
                    .apply(seat, &Action::Meld(vec![a.clone(), b.clone()]))
                    .is_err()
                {
                    continue;
                }
                let mut one_by_one = g.clone();
                one_by_one
                    .apply(seat, &Action::Meld(vec![a.clone()]))
                    .unwrap();
                one_by_one
                    .apply(seat, &Action::Meld(vec![b.clone()]))
                    .unwrap();
                assert_eq!(both.deal, one_by_one.deal, "{:?} + {:?}", a.cards, b.cards);
                checked += 1;
            }
        }
    }
    assert!(checked > 20, "only {checked} pairs checked");
}
