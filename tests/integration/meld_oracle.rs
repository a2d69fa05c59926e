//! The meld oracle against a brute-force reference, and order invariance.
//!
//! The reference (`push_rummy::oracle::meld_reference`, shared with the fuzz target `meld_search`) tries,
//! for every card, every place it could stand (every rank place of the line for a run, every suit
//! for an exact-card set) and keeps the combinations that make a legal meld. It shares no code
//! with the oracle's window search.

use proptest::prelude::*;
use push_rummy::base::card::{Card, Rank, Suit};
use push_rummy::oracle::meld::{self, Interpretation, Query, Role, Target};
use push_rummy::oracle::meld_reference::{SWITCHES, brute, brute_at};
use push_rummy::rules::Rules;
use push_rummy::rules::spec::MeldKind;

fn rules_strategy() -> impl Strategy<Value = Rules> {
    (
        proptest::collection::vec(0usize..3, SWITCHES.len()),
        any::<bool>(),
        0u8..10,
        any::<bool>(),
        crate::common::wild_limits(),
    )
        .prop_map(|(picks, two_in_seq, wrap, twos_wild, limits)| {
            let mut r = crate::common::push();
            for ((id, names), k) in SWITCHES.iter().zip(picks) {
                r.readings.set(*id, names[k % names.len()]);
            }
            r.two_in_sequence = two_in_seq;
            r.wrap_around = wrap == 0;
            r.twos_wild = twos_wild;
            r.wild_limits = limits;
            r.refresh();
            r
        })
}

fn card(rank: u8, suit: usize) -> Card {
    Card::new(Rank::from_number(rank).unwrap(), Suit::from_index(suit))
}

/// Cards that are often nearly a meld: a rank group, a suit window, or anything; plus wilds.
fn cards_strategy() -> impl Strategy<Value = Vec<Card>> {
    (
        0u8..3,
        1u8..=13,
        0usize..4,
        1usize..=6,
        0usize..=4,
        proptest::collection::vec((0u8..16, 0usize..4), 8),
    )
        .prop_map(|(mode, base, suit, naturals, wilds, noise)| {
            let mut v = Vec::new();
            for (i, (x, s)) in noise.iter().take(naturals).enumerate() {
                let c = match mode {
                    0 => card(base, *s),
                    1 => card(
                        ((u32::from(base) + i as u32 + u32::from(*x % 3 == 0)) % 13) as u8 + 1,
                        if *x == 15 { *s } else { suit },
                    ),
                    _ => card(*x % 13 + 1, *s),
                };
                v.push(c);
            }
            for (x, s) in noise.iter().rev().take(wilds) {
                v.push(if x % 2 == 0 { Card::JOKER } else { card(2, *s) });
            }
            v
        })
}

/// A run of 11 to 14 cards of one suit from any starting rank (past the king it goes on from the
/// ace: a full line, both aces, or a turn of the corner), with up to two of its cards jokers: the
/// lengths where `ace-both-ends`, `runs.wrap-around` and the longest run decide.
fn long_run_strategy() -> impl Strategy<Value = Vec<Card>> {
    (
        1u8..=13,
        11usize..=14,
        0usize..4,
        proptest::collection::vec(0usize..14, 0..=2),
    )
        .prop_map(|(start, n, suit, jokers)| {
            let mut v: Vec<Card> = (0..n)
                .map(|i| card(((usize::from(start) - 1 + i) % 13) as u8 + 1, suit))
                .collect();
            for j in jokers {
                v[j % n] = Card::JOKER;
            }
            v
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn long_runs_agree_with_brute_force(rules in rules_strategy(), cards in long_run_strategy()) {
        prop_assume!(cards.iter().filter(|c| rules.is_wild(**c)).count() <= 4);
        let fast = meld::interpret(&rules, &Query { cards: cards.clone(), ..Query::default() });
        let slow = brute(&rules, &cards);
        prop_assume!(!fast.truncated);
        prop_assert_eq!(fast.interpretations, slow, "{}", push_rummy::base::card::format_cards(&cards));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn oracle_agrees_with_brute_force(rules in rules_strategy(), cards in cards_strategy()) {
        // The reference tries every place for every wild card: keep it to four of them.
        prop_assume!(cards.iter().filter(|c| rules.is_wild(**c)).count() <= 4);
        let fast = meld::interpret(&rules, &Query { cards: cards.clone(), ..Query::default() });
        let slow = brute(&rules, &cards);
        if fast.truncated {
            // The oracle stops listing at MAX_INTERPRETATIONS (four distinct wilds around a
            // wrapping line can exceed it): what it lists must still be right.
            prop_assert_eq!(fast.interpretations.len(), meld::MAX_INTERPRETATIONS);
            prop_assert!(slow.len() > meld::MAX_INTERPRETATIONS);
            prop_assert!(fast.interpretations.iter().all(|i| slow.binary_search(i).is_ok()), "cards {:?}", cards);
        } else {
            prop_assert_eq!(&fast.interpretations, &slow, "cards {:?}", cards);
        }
        prop_assert_eq!(meld::is_valid(&rules, &cards, None), !slow.is_empty());
    }

    /// With sets from fewer cards on than `sets.min-size` (a contract set of a fixed rank, `set
    /// of 2 aces`), the oracle still lists exactly the brute force's interpretations.
    #[test]
    fn oracle_agrees_with_brute_force_below_the_set_size(rules in rules_strategy(), cards in cards_strategy(), floor in 2u8..4) {
        prop_assume!(cards.iter().filter(|c| rules.is_wild(**c)).count() <= 4);
        let floor = floor.min(rules.set_min);
        let fast = meld::interpret_at(&rules, &Query { cards: cards.clone(), ..Query::default() }, floor);
        prop_assume!(!fast.truncated);
        let slow = brute_at(&rules, &cards, floor);
        prop_assert_eq!(&fast.interpretations, &slow, "cards {:?}", cards);
        prop_assert_eq!(meld::is_valid_at(&rules, &cards, None, floor), !slow.is_empty());
    }

    #[test]
    fn interpretations_ignore_card_order(rules in rules_strategy(), cards in cards_strategy(), seed in any::<u64>()) {
        let mut shuffled = cards.clone();
        // A deterministic shuffle from the seed.
        let mut x = seed | 1;
        for i in (1..shuffled.len()).rev() {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            shuffled.swap(i, (x % (i as u64 + 1)) as usize);
        }
        let a = meld::interpret(&rules, &Query { cards, ..Query::default() });
        let b = meld::interpret(&rules, &Query { cards: shuffled, ..Query::default() });
        prop_assert_eq!(a, b);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, max_global_rejects: 200_000, ..ProptestConfig::default() })]

    #[test]
    fn one_card_extension_agrees_with_the_full_search(rules in rules_strategy(), cards in cards_strategy(), pick in 0usize..8, add in 0u8..54, any in 0usize..push_rummy::base::card::KINDS, small in any::<bool>()) {
        prop_assume!(cards.iter().filter(|c| rules.is_wild(**c)).count() <= 4);
        // Sometimes from sets of two on: a contract set of a fixed rank (`set of 2 aces`) grows
        // on the table as any set does.
        let floor = if small { 2 } else { rules.set_min };
        let v = meld::interpret_at(&rules, &Query { cards: cards.clone(), ..Query::default() }, floor);
        prop_assume!(v.is_valid());
        let old = &v.interpretations[pick % v.interpretations.len()];
        let card = if add < 27 {
            // Any card of the pack, the joker included.
            Card::from_index(any).unwrap()
        } else {
            // A card next to the meld, so that most tries extend it.
            let edge = if add % 2 == 0 { old.roles.first() } else { old.roles.last() };
            let r = edge.and_then(|x| x.stands_for.rank()).map_or(7, |r| r.number());
            let r = match add % 3 { 0 => r, 1 => r % 13 + 1, _ => (r + 11) % 13 + 1 };
            let suit = old.suit.unwrap_or(Suit::from_index(usize::from(add / 3) % 4));
            Card::new(Rank::from_number(r).unwrap(), suit)
        };
        // Whether there is one at all, as the lay-off listing asks for a natural card.
        let listed = meld::extend_by_one(&rules, old, card).map(|v| !v.is_empty());
        prop_assert_eq!(meld::extends_by_one(&rules, old, card), listed, "old {:?} + {}", old, card);
        // In how many ways, as the natural lay-off's listing asks: none exactly where there is
        // no extension.
        let joins = meld::joins(&rules, old, card).map(|j| !matches!(j, meld::Joins::No));
        prop_assert_eq!(joins, listed, "old {:?} + {}", old, card);
        // The one way a card joins, where it joins one way only: made in place, it is the one
        // interpretation of the extension (a lay-off grows its meld so).
        if let Some(j) = meld::only_join(&rules, old, card) {
            let mut grown = old.clone();
            j.make(&mut grown);
            prop_assert_eq!(meld::extend_by_one(&rules, old, card), Some(vec![grown]), "old {:?} + {}", old, card);
        }
        if let Some(fast) = meld::extend_by_one(&rules, old, card) {
            let mut all = cards.clone();
            all.push(card);
            let slow: Vec<Interpretation> = meld::interpret_at(&rules, &Query { cards: all, kind: Some(old.kind), declared: vec![] }, floor)
                .interpretations
                .into_iter()
                .filter(|n| meld::extends(old, n))
                .collect();
            prop_assert_eq!(fast, slow, "old {:?} + {}", old, card);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, max_global_rejects: 200_000, ..ProptestConfig::default() })]

    #[test]
    fn rescue_by_substitution_agrees_with_the_full_search(rules in rules_strategy(), cards in cards_strategy(), pick in 0usize..8, role_pick in 0usize..8, suit in 0usize..4) {
        prop_assume!(cards.iter().filter(|c| rules.is_wild(**c)).count() <= 4);
        let v = meld::interpret(&rules, &Query { cards: cards.clone(), ..Query::default() });
        prop_assume!(v.is_valid());
        let old = &v.interpretations[pick % v.interpretations.len()];
        let wilds: Vec<&Role> = old.wilds().collect();
        prop_assume!(!wilds.is_empty());
        let role = wilds[role_pick % wilds.len()];
        let natural = match role.stands_for {
            Target::Card(c) => c,
            Target::Rank(r) => Card::new(r, Suit::from_index(suit)),
        };
        let fast = meld::rescue_in(&rules, old, role.card, natural);
        prop_assert_eq!(meld::rescues_in(&rules, old, role.card, natural), !fast.is_empty(), "rescues_in, {:?}", old);
        let mut new_cards = old.roles.iter().map(|r| r.card).collect::<Vec<_>>();
        let at = new_cards.iter().position(|c| *c == role.card).unwrap();
        new_cards[at] = natural;
        let key = |r: &Role| (r.card, r.stands_for, r.natural);
        let mut want: Vec<_> = old.roles.iter().map(key).collect();
        let slow: Vec<Interpretation> = meld::interpret(&rules, &Query { cards: new_cards, kind: Some(old.kind), declared: vec![] })
            .interpretations
            .into_iter()
            .filter(|n| {
                if n.kind != old.kind || n.rank != old.rank || n.suit != old.suit {
                    return false;
                }
                // n is old with one matching wild role now the natural card, standing for itself.
                let mut got: Vec<_> = n.roles.iter().map(key).collect();
                got.sort();
                old.roles.iter().enumerate().any(|(k, r)| {
                    if r.card != role.card || r.natural || !r.stands_for_matches(natural) {
                        return false;
                    }
                    if old.kind == MeldKind::Run && n.roles[k].card != natural {
                        return false;
                    }
                    let mut w = want.clone();
                    w[k] = (natural, Target::Card(natural), true);
                    w.sort();
                    w == got
                })
            })
            .collect();
        want.clear();
        prop_assert_eq!(fast, slow, "old {:?} rescue {} with {}", old, role.card, natural);
    }
}

/// Sets of twos: under `natural-twos=runs-only` and `never` no set has rank 2, made of
/// twos or of jokers, in the oracle and in the brute force alike; under `runs-and-sets` both find
/// one. The refusal of a declared set of twos says why.
#[test]
fn no_set_of_twos_unless_twos_are_natural_in_sets() {
    use push_rummy::rules::disputes::DisputeId;
    let sets_of_twos = |v: &[Interpretation]| {
        v.iter()
            .filter(|i| i.kind == MeldKind::Set && i.rank == Some(Rank::Two))
            .count()
    };
    for reading in ["runs-only", "never", "runs-and-sets"] {
        for all_wild in ["allowed", "forbidden"] {
            let mut rules = crate::common::push();
            assert!(rules.set_reading(DisputeId::NaturalTwos, reading));
            assert!(rules.set_reading(DisputeId::AllWildMelds, all_wild));
            for text in ["2S 2H 2D", "JK JK JK", "2S JK JK", "2S 2H 2D JK"] {
                let cards = push_rummy::base::card::parse_cards(text).unwrap();
                let fast = meld::interpret(
                    &rules,
                    &Query {
                        cards: cards.clone(),
                        ..Query::default()
                    },
                );
                let slow = brute(&rules, &cards);
                assert_eq!(fast.interpretations, slow, "{reading}: {text}");
                let natural_twos = text.contains('2');
                let want = reading == "runs-and-sets" && (all_wild == "allowed" || natural_twos);
                assert_eq!(
                    sets_of_twos(&slow) > 0,
                    want,
                    "{reading}, {all_wild}: {text}"
                );
            }
            let jokers = Query {
                cards: push_rummy::base::card::parse_cards("JK JK JK").unwrap(),
                kind: Some(MeldKind::Set),
                declared: vec![(Card::JOKER, Target::Rank(Rank::Two))],
            };
            let v = meld::interpret(&rules, &jokers);
            if reading == "runs-and-sets" || all_wild == "forbidden" {
                continue;
            }
            assert!(!v.is_valid());
            assert!(
                v.reason
                    .contains(&format!("no set of twos under natural-twos={reading}")),
                "{}",
                v.reason
            );
        }
    }
}
