//! `legal_actions` and `apply` agree (issue 3): everything listed is accepted, and whatever `apply`
//! accepts from a broad random space of non-meld actions (any card, any meld number, any
//! declaration) is listed, up to the form of its declaration.

use proptest::prelude::*;
use push_rummy::bots::{self, Bot};
use push_rummy::card::{Card, KINDS};
use push_rummy::disputes::DisputeId;
use push_rummy::game::{Action, Game};
use push_rummy::meld::Target;
use push_rummy::rng::Rng;
use push_rummy::rules::load;
use std::sync::Arc;

const SWITCHES: &[(DisputeId, &[&str])] = &[
    (
        DisputeId::WildDeclaration,
        &["when-ambiguous", "always", "never"],
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

fn game_at(seed: u64, steps: usize, picks: &[usize]) -> Game {
    let mut rules = load("push", &[]).unwrap().rules;
    for ((id, names), k) in SWITCHES.iter().zip(picks) {
        rules.set_reading(*id, names[k % names.len()]);
    }
    let mut g = Game::new(Arc::new(rules), 4, (seed % 4) as u8, seed, vec![]).unwrap();
    let mut rng = Rng::new(seed);
    // Play `steps` actions, then on to a turn in its play stage (where lay-offs and rescues live).
    let mut n = 0;
    while !g.is_over() && (n < steps || g.deal.stage != push_rummy::game::Stage::Play) {
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

/// An action with its declarations blanked, for comparing shapes.
fn shape(a: &Action) -> Action {
    match a {
        Action::LayOff {
            meld, cards, join, ..
        } => Action::LayOff {
            meld: *meld,
            cards: cards.clone(),
            declared: vec![],
            join: *join,
        },
        Action::Rescue {
            meld,
            natural,
            wild,
            then,
        } => Action::Rescue {
            meld: *meld,
            natural: *natural,
            wild: *wild,
            then: then.as_ref().map(|t| Box::new(shape(t))),
        },
        other => other.clone(),
    }
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
    match r.below(9) {
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
                        push_rummy::meld::is_valid(&g.rules, &v, None)
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
                cards: vec![c],
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
                    cards: vec![wild],
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

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn legal_actions_and_apply_agree(seed in 0u64..5000, steps in 0usize..150, picks in proptest::collection::vec(0usize..3, SWITCHES.len()), tries in 0u64..1000) {
        let g = game_at(seed, steps, &picks);
        prop_assume!(!g.is_over());
        let legal = g.legal_actions();
        for a in legal.iter().chain(g.meld_options().iter()) {
            let mut h = g.clone();
            prop_assert!(h.apply(g.turn(), a).is_ok(), "listed but refused: {}", a);
        }
        let shapes: Vec<Action> = legal.iter().map(shape).collect();
        let mut r = Rng::new(tries);
        for _ in 0..200 {
            let a = random_action(&g, &mut r);
            let mut h = g.clone();
            if h.apply(g.turn(), &a).is_ok() {
                prop_assert!(
                    shapes.contains(&shape(&a)),
                    "accepted but not listed: {}\nlisted: {:?}",
                    a,
                    legal.iter().map(|x| x.to_string()).collect::<Vec<_>>()
                );
            }
        }
    }
}
