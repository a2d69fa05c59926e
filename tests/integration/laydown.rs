//! The laydown search against brute force: for small hands, try every way to cut disjoint groups
//! of the contract's sizes out of the hand and check them with `contract::check`.

use proptest::prelude::*;
use push_rummy::base::card::{Card, Counts, Rank, Suit};
use push_rummy::oracle::contract;
use push_rummy::oracle::meld::{self, Query};
use push_rummy::rules::disputes::DisputeId;
use push_rummy::rules::spec::{Component, MeldKind};
use push_rummy::rules::{Rules, load};

const SWITCHES: &[(DisputeId, &[&str])] = &[
    (DisputeId::SetDuplicateSuits, &["forbidden", "allowed"]),
    (DisputeId::SetMaxSize, &["4", "unlimited"]),
    (
        DisputeId::NaturalTwos,
        &["runs-only", "runs-and-sets", "never"],
    ),
    (DisputeId::AcePosition, &["high-or-low", "high-only"]),
    (DisputeId::RunSuits, &["same-suit", "any-suits"]),
    (DisputeId::AllWildMelds, &["allowed", "forbidden"]),
    (DisputeId::WildInSetRepresents, &["rank-only", "exact-card"]),
    (DisputeId::SameRankSets, &["allowed", "forbidden"]),
    (
        DisputeId::SameSuitRunsInContract,
        &["allowed", "forbidden", "different-runs"],
    ),
];

fn rules_strategy() -> impl Strategy<Value = Rules> {
    (
        proptest::collection::vec(0usize..3, SWITCHES.len()),
        any::<bool>(),
        0u8..6,
        crate::common::wild_limits(),
    )
        .prop_map(|(picks, seq, wrap, limits)| {
            let mut r = crate::common::push();
            for ((id, names), k) in SWITCHES.iter().zip(picks) {
                r.readings.set(*id, names[k % names.len()]);
            }
            r.two_in_sequence = seq;
            r.wrap_around = wrap == 0;
            r.wild_limits = limits;
            r.refresh();
            r
        })
}

fn contracts() -> Vec<Vec<Component>> {
    let push = load("push", &[]).unwrap().rules;
    let capit = load("cap-it", &[]).unwrap().rules;
    let mut v: Vec<Vec<Component>> = push.rounds.iter().map(|r| r.contract.clone()).collect();
    v.push(capit.rounds[4].contract.clone());
    // Sets of a fixed rank, pairs among them smaller than sets go (`set of 2 aces`).
    for text in [
        "set of 2 aces,set of 3",
        "set of 2 sevens,run of 4",
        "set of 3 sixes,set of 2 fives",
        "set of 2 kings",
    ] {
        v.push(
            text.split(',')
                .map(|c| push_rummy::rules::spec::parse_component(c).unwrap())
                .collect(),
        );
    }
    v
}

/// Hands that are often close to a contract: cards from two rank groups and a suit window.
fn hand_strategy() -> impl Strategy<Value = Vec<Card>> {
    proptest::collection::vec((0u8..4, 1u8..=13, 0usize..4), 6..=10).prop_map(|picks| {
        picks
            .into_iter()
            .map(|(mode, r, s)| match mode {
                0 => Card::JOKER,
                1 => Card::new(Rank::from_number(r % 3 + 5).unwrap(), Suit::from_index(s)),
                2 => Card::new(
                    Rank::from_number(r % 6 + 1).unwrap(),
                    Suit::from_index(s % 2),
                ),
                _ => Card::new(Rank::from_number(r).unwrap(), Suit::from_index(s)),
            })
            .collect()
    })
}

fn brute(rules: &Rules, contract: &[Component], hand: &[Card]) -> bool {
    fn rec(
        rules: &Rules,
        contract: &[Component],
        k: usize,
        left: &[Card],
        groups: &mut Vec<Vec<Card>>,
    ) -> bool {
        if k == contract.len() {
            let qs: Vec<Query> = groups
                .iter()
                .map(|g| Query {
                    cards: g.clone(),
                    kind: None,
                    declared: vec![],
                })
                .collect();
            return contract::check(rules, contract, &qs).satisfied;
        }
        // Groups of the contract meld's size; under limits on wild cards longer ones too (a
        // longer meld may keep a limit its shorter parts break).
        let n = usize::from(contract[k].size);
        let longest = if rules.wild_limits.active() {
            left.len()
        } else {
            n
        };
        let mut found = false;
        for n in n..=longest.max(n) {
            combinations(left.len(), n, &mut |idx| {
                if found {
                    return;
                }
                let g: Vec<Card> = idx.iter().map(|&i| left[i]).collect();
                // Sets from the contract's least on (a pair, where it names `set of 2 aces`).
                let floor = contract::set_floor(rules, contract);
                if !meld::is_valid_at(rules, &g, Some(contract[k].kind), floor) {
                    return;
                }
                let rest: Vec<Card> = (0..left.len())
                    .filter(|i| !idx.contains(i))
                    .map(|i| left[i])
                    .collect();
                groups.push(g);
                found = rec(rules, contract, k + 1, &rest, groups);
                groups.pop();
            });
        }
        found
    }
    rec(rules, contract, 0, hand, &mut Vec::new())
}

fn combinations(n: usize, k: usize, f: &mut dyn FnMut(&[usize])) {
    fn go(start: usize, n: usize, k: usize, acc: &mut Vec<usize>, f: &mut dyn FnMut(&[usize])) {
        if acc.len() == k {
            f(acc);
            return;
        }
        for i in start..n {
            acc.push(i);
            go(i + 1, n, k, acc, f);
            acc.pop();
        }
    }
    go(0, n, k, &mut Vec::new(), f);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn laydown_search_agrees_with_brute_force(rules in rules_strategy(), which in 0usize..10, hand in hand_strategy()) {
        let contract = &contracts()[which];
        let counts = Counts::from_cards(&hand);
        let found = contract::laydown(&rules, contract, &counts);
        let expected = brute(&rules, contract, &hand);
        prop_assert_eq!(found.is_some(), expected, "hand {:?} contract {:?}", hand, contract);
        if let Some(l) = found {
            // The melds come from the hand and meet the contract.
            let mut left = counts.clone();
            for (_, cards) in &l.melds {
                for c in cards {
                    prop_assert!(left.remove(*c), "{c} used twice or not in hand");
                }
            }
            let qs: Vec<Query> = l.melds.iter().map(|(_, g)| Query { cards: g.clone(), kind: None, declared: vec![] }).collect();
            let check = contract::check(&rules, contract, &qs);
            prop_assert!(check.satisfied, "{:?}: {}", l, check.reason);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    /// `contract::may_hold` is a necessary condition: every card of every meld of a component's
    /// size (or one card longer, as `contract-sizes=minimum` allows) that the hand can make passes
    /// it. The greedy player skips a search on it (`bots`), so a card it turned away would be a
    /// laydown missed. So is `Reach::may_hold_any`, for the hand: where it says no, the hand
    /// makes no such meld.
    #[test]
    fn may_hold_passes_every_card_of_every_meld(rules in rules_strategy(), which in 0usize..10, hand in hand_strategy()) {
        let counts = Counts::from_cards(&hand);
        let reach = contract::Reach::new(&rules, &counts);
        for &comp in &contracts()[which] {
            for n in [usize::from(comp.size), usize::from(comp.size) + 1] {
                let mut bad = None;
                let mut some = None;
                combinations(hand.len(), n, &mut |idx| {
                    let g: Vec<Card> = idx.iter().map(|&i| hand[i]).collect();
                    let floor = contract::set_floor(&rules, &[comp]);
                    if bad.is_none() && meld::is_valid_at(&rules, &g, Some(comp.kind), floor) {
                        bad = g.iter().find(|&&c| !contract::may_hold(&rules, comp, &counts, c)).map(|&c| (c, g.clone()));
                        some.get_or_insert(g);
                    }
                });
                prop_assert!(bad.is_none(), "{:?} turned away from the meld {:?} ({} in {:?})", bad, comp, n, hand);
                prop_assert!(some.is_none() || reach.may_hold_any(&rules, comp), "{:?} has the meld {:?} of {:?}", hand, some, comp);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// A contract of one meld is mostly answered without the search (`laydown`'s shortcut for
    /// the built-in players' run or set after the contract): the same laydown, card for card, as
    /// the search gives, under every reading.
    #[test]
    fn one_meld_is_laid_down_as_the_search_lays_it_down(rules in rules_strategy(), run in any::<bool>(), size in 3u8..=6, hand in hand_strategy()) {
        let kind = if run { MeldKind::Run } else { MeldKind::Set };
        let contract = [Component::of(kind, size)];
        let counts = Counts::from_cards(&hand);
        prop_assert_eq!(
            contract::laydown(&rules, &contract, &counts),
            contract::search_laydown(&rules, &contract, &counts),
            "hand {:?} contract {:?}", hand, contract
        );
    }
}
