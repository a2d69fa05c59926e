//! The relaxed check `may_meet` against the search: exactly where it relaxes nothing, and at
//! the edges of its shortcuts (equal sets by steps, a set and a run sharing a card, runs sharing a
//! pool).

use super::*;

/// Compares the quick check with the search, hand by hand, and counts how often the hand met
/// the contract, so that a test can show that both answers occurred.
#[derive(Default)]
struct Agreement {
    tried: usize,
    met: usize,
}

impl Agreement {
    fn check(&mut self, rules: &Rules, contract: &[Component], cards: &[Card], what: &str) {
        let h = Counts::from_cards(cards);
        let found = laydown(rules, contract, &h).is_some();
        assert_eq!(
            quick_check(rules, contract, &h),
            found,
            "{what} {contract:?}: {cards:?}"
        );
        self.tried += 1;
        self.met += usize::from(found);
    }

    /// Compares the two on 3,000 hands of `sizes` cards drawn from `pool` (shuffled with
    /// `seed`), and checks that both answers occurred.
    fn sample(
        rules: &Rules,
        contract: &[Component],
        pool: &mut [Card],
        sizes: std::ops::Range<usize>,
        seed: u64,
        what: &str,
    ) {
        let mut rng = crate::base::rng::Rng::new(seed);
        let mut agreement = Agreement::default();
        for _ in 0..3000 {
            rng.shuffle(pool);
            let n = sizes.start + rng.below(sizes.len() as u64) as usize;
            agreement.check(rules, contract, &pool[..n], what);
        }
        agreement.assert_both_answers();
    }

    /// Both answers occur often enough for the comparison to mean something.
    fn assert_both_answers(&self) {
        let (met, tried) = (self.met, self.tried);
        assert!(
            met > tried / 20 && met < tried * 19 / 20,
            "{met} of {tried}"
        );
    }
}

/// `may_meet` relaxes the contract only where naturals could serve several melds, a card
/// could be natural and wild at once, or wild limits could bind. None of that can happen for
/// one meld from a hand whose one wild card is a joker, nor for sets alone from a hand without
/// wilds: there it must answer exactly as the search does, so a looser check (which would only
/// cost time) is caught too.
#[test]
fn the_quick_check_is_exact_where_nothing_is_relaxed() {
    let mut agreement = Agreement::default();
    // Under both readings of same-rank-sets: where sets may not share a rank, the set check
    // gives each set a rank of its own.
    let same_rank = crate::rules::disputes::DisputeId::SameRankSets;
    for (name, reading) in crate::rules::GAMES
        .into_iter()
        .flat_map(|n| [(n, "allowed"), (n, "forbidden")])
    {
        let rules = load(name, &[(same_rank, reading.into())]).unwrap().rules;
        let mut contracts: Vec<Vec<Component>> = Vec::new();
        for round in &rules.rounds {
            for c in &round.contract {
                contracts.push(vec![*c]);
            }
            if round.contract.iter().all(|c| c.kind == MeldKind::Set) {
                contracts.push(round.contract.clone());
            }
        }
        // Longer contracts than any built-in game has: four sets take the last enumerated
        // case of the set check.
        contracts.push(vec![set(rules.set_min); 4]);
        // Sets of two sizes take the check's general case, in either order.
        let (small, large) = (set(rules.set_min), set(rules.set_min + 1));
        contracts.push(vec![small, large]);
        contracts.push(vec![large, small]);
        contracts.dedup();
        let pack = crate::engine::game::pack(&rules, rules.players.0);
        let mut rng = crate::base::rng::Rng::new(7);
        for contract in &contracts {
            let sets_only = contract.len() > 1;
            let mut hands = 0;
            while hands < 1500 {
                let mut cards = pack.clone();
                rng.shuffle(&mut cards);
                let size = 5 + rng.below(12) as usize;
                // A wild that could also be natural (a 2 in its own place) counts as both
                // in the quick check: only a joker may be the one wild.
                let wilds = cards[..size].iter().filter(|&&c| rules.is_wild(c));
                let jokers = wilds.clone().filter(|&&c| c == Card::JOKER).count();
                if wilds.count() > jokers || jokers > usize::from(!sets_only) {
                    continue;
                }
                hands += 1;
                let what = format!("{name}, same-rank-sets={reading},");
                agreement.check(&rules, contract, &cards[..size], &what);
            }
        }
    }
    agreement.assert_both_answers();
}

/// Where the runs of a contract may not share a suit, each run has a suit of its own and no
/// natural can serve two: without wild cards the quick check is exact for two runs, and for
/// four (the most it pairs with suits rather than judging each run alone).
#[test]
fn the_quick_check_is_exact_for_runs_of_their_own_suits() {
    let id = crate::rules::disputes::DisputeId::SameSuitRunsInContract;
    let rules = load("push", &[(id, "forbidden".into())]).unwrap().rules;
    let suits = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];
    for (runs, size, suits, hands) in [(2, 4, &suits[..2], 8..14), (4, 3, &suits[..], 14..22)] {
        let contract = vec![run(size); runs];
        // Ranks 4 to 8 of the suits, both decks: hands that often hold the runs, or nearly.
        let mut near: Vec<Card> = Vec::new();
        for &s in suits {
            for r in 4..=8 {
                let c = Card::new(Rank::from_number(r).unwrap(), s);
                near.extend([c, c]);
            }
        }
        let what = "push, same-suit-runs-in-contract=forbidden,";
        Agreement::sample(&rules, &contract, &mut near, hands, 11, what);
    }
}

/// Two runs of one pool share its cards place by place: a place both windows cover holds two
/// natural cards only where the hand has two. Without wild cards or aces (an ace has two
/// places, which the check may count at both) the quick check is then exact for two runs of
/// one suit, and for two runs of any suits, so it turns away what the search would fail.
#[test]
fn the_quick_check_is_exact_for_two_runs_of_one_pool() {
    let id = crate::rules::disputes::DisputeId::RunSuits;
    for (reading, suits) in [
        ("same-suit", &[Suit::Hearts][..]),
        ("any-suits", &[Suit::Hearts, Suit::Clubs][..]),
    ] {
        let rules = load("push", &[(id, reading.into())]).unwrap().rules;
        // Ranks 4 to 10, both decks: two runs of four fit only where the hand holds enough
        // of the places both windows share twice.
        let mut near: Vec<Card> = Vec::new();
        for &s in suits {
            for r in 4..=10 {
                let c = Card::new(Rank::from_number(r).unwrap(), s);
                near.extend([c, c]);
            }
        }
        let what = format!("push, run-suits={reading},");
        Agreement::sample(&rules, &[run(4), run(4)], &mut near, 8..12, 13, &what);
    }
}

/// A set and a run share a natural card where the run passes through the set's rank: where
/// the set has none to spare, one of them needs a wild for it. Without wild cards or aces the
/// quick check is then exact for a set and a run, under either reading of repeated suits in
/// a set and of the suits of a run.
#[test]
fn the_quick_check_is_exact_for_a_set_and_a_run() {
    use crate::rules::disputes::DisputeId as D;
    for (dup, suits) in [
        ("allowed", "same-suit"),
        ("forbidden", "same-suit"),
        ("allowed", "any-suits"),
        ("forbidden", "any-suits"),
    ] {
        let readings = [
            (D::SetDuplicateSuits, dup.into()),
            (D::RunSuits, suits.into()),
        ];
        let rules = load("push", &readings).unwrap().rules;
        // Ranks 5 to 9 of two suits, both decks, and of a third suit once: sets of those
        // ranks and runs through them compete for the same cards.
        let mut near: Vec<Card> = Vec::new();
        for r in 5..=9 {
            let rank = Rank::from_number(r).unwrap();
            for s in [Suit::Hearts, Suit::Clubs] {
                near.extend([Card::new(rank, s); 2]);
            }
            near.push(Card::new(rank, Suit::Spades));
        }
        let what = format!("push, set-duplicate-suits={dup}, run-suits={suits},");
        Agreement::sample(&rules, &[set(3), run(4)], &mut near, 9..13, 17, &what);
    }
}

/// Hands at exactly the wilds the relaxed count asks for, whose set and run would share the
/// 7♥: the check turns them away as the search does, and lets them through with one wild
/// more. Wild twos count for no set where twos are natural in runs only; and where melds need
/// a natural card, only the sets and windows that hold one are weighed.
#[test]
fn a_set_and_a_run_sharing_their_one_card_need_a_wild_more() {
    let forbid = [(
        crate::rules::disputes::DisputeId::AllWildMelds,
        "forbidden".to_string(),
    )];
    for (readings, cards) in [
        (&[][..], "2S 2H 5H 6H 7H 7C KD"),
        (&forbid[..], "5H 6H 7H 7C JK JK KD"),
    ] {
        let rules = load("push", readings).unwrap().rules;
        let contract = [set(3), run(4)];
        let h = hand(cards);
        assert!(!quick_check(&rules, &contract, &h), "{cards} {readings:?}");
        assert!(laydown(&rules, &contract, &h).is_none(), "{cards}");
        let mut more = h.clone();
        more.add(Card::JOKER);
        assert_met(&rules, &contract, &more, cards);
    }
}

/// `suits_per_rank` counts each rank's suits in a mask; `lanes_equal` finds the ranks of
/// each count.
#[test]
fn suits_per_rank_counts_the_suits_of_each_rank() {
    let mut rng = crate::base::rng::Rng::new(7);
    for _ in 0..20_000 {
        let cards = rng.next_u64() & ((1 << 53) - 1);
        let lanes = suits_per_rank(cards);
        for v in 0..=4 {
            let want = (0..13)
                .filter(|&r| (0..4).filter(|s| cards >> (13 * s + r) & 1 == 1).count() == v)
                .fold(0u16, |m, r| m | 1 << r);
            assert_eq!(lanes_equal(lanes, v), want, "{cards:#x}, {v} suits");
        }
    }
}

/// The relaxed check's cost of equal sets (the cheapest steps) against every choice of ranks
/// for them, on random counts under every combination of the readings it weighs.
#[test]
fn equal_sets_cost_the_cheapest_choice_of_ranks() {
    fn brute(shape: &SetsShape, counts: &[u8; crate::base::card::KINDS]) -> Option<usize> {
        // Non-decreasing rank sequences: each multiset of ranks once.
        fn go(
            shape: &SetsShape,
            counts: &[u8; 53],
            from: usize,
            ranks: &mut Vec<usize>,
        ) -> Option<usize> {
            if ranks.len() == shape.sets {
                let mut cost = 0;
                for r in 0..13 {
                    let j = ranks.iter().filter(|&&x| x == r).count();
                    if j == 0 {
                        continue;
                    }
                    let k: Vec<usize> = (0..4).map(|s| usize::from(counts[13 * s + r])).collect();
                    let total: usize = k.iter().sum();
                    if (r == 1 && !shape.twos)
                        || (shape.distinct && j > 1)
                        || (total == 0 && !shape.all_wild)
                    {
                        return None;
                    }
                    let usable: usize = if shape.forbid_dup {
                        k.iter().map(|&c| c.min(j)).sum()
                    } else {
                        total
                    };
                    cost += (j * shape.size).saturating_sub(usable);
                }
                return Some(cost);
            }
            (from..13)
                .filter_map(|r| {
                    ranks.push(r);
                    let c = go(shape, counts, r, ranks);
                    ranks.pop();
                    c
                })
                .min()
        }
        go(shape, counts, 0, &mut Vec::new())
    }
    let mut rng = crate::base::rng::Rng::new(41);
    let mut answers = [0; 2];
    for case in 0..4000u32 {
        let bit = |b: u32| case >> b & 1 == 1;
        let shape = SetsShape {
            sets: 1 + rng.below(4) as usize,
            size: 3 + rng.below(3) as usize,
            distinct: bit(0),
            forbid_dup: bit(1),
            all_wild: bit(2),
            twos: bit(3),
        };
        // A few ranks, with copies of some suits: in every other case at most two of a
        // card (two decks, the count by groups), otherwise any number (rank by rank).
        let mut counts = [0u8; crate::base::card::KINDS];
        for _ in 0..rng.below(16) {
            // Twos too (rank index 1): a set of them only where twos may be natural.
            let r = [0, 1, 4, 8][rng.below(4) as usize];
            let card = 13 * rng.below(4) as usize + r;
            if case % 2 == 0 || counts[card] < 2 {
                counts[card] += 1;
            }
        }
        let present = (0..crate::base::card::KINDS)
            .filter(|&i| counts[i] > 0)
            .fold(0u64, |m, i| m | 1 << i);
        let copies = counts.iter().any(|&k| k > 1);
        let cost = shape.cost(&counts, present, copies);
        assert_eq!(cost, brute(&shape, &counts), "{case}: {counts:?}");
        assert_eq!(shape.cost_by_ranks(&counts), cost, "{case}: {counts:?}");
        answers[usize::from(cost.is_some())] += 1;
    }
    assert!(answers.iter().all(|&n| n > 100), "{answers:?}");
}

/// Two runs of one suit whose naturals lie far apart: the pair of windows holds one each
/// (the relaxed check must not count the pool's one best window twice, nor once only), and
/// the wilds fill the rest.
#[test]
fn two_runs_of_one_suit_far_apart_hold_a_natural_each() {
    let rules = load("push", &[]).unwrap().rules;
    let runs = [run(4), run(4)];
    assert!(laydown(&rules, &runs, &hand("5H 10H JK JK JK JK JK JK")).is_some());
    assert!(laydown(&rules, &runs, &hand("5H 10H 3C JK JK JK JK JK")).is_none());
}

/// Sets longer than the relaxed check's table of steps (`SET_STEPS`) are weighed the general
/// way: two of sixteen cards, where sets have no size limit and suits may repeat.
#[test]
fn a_set_beyond_the_step_table_is_weighed_too() {
    use crate::rules::disputes::DisputeId as D;
    let rules = push_with(&[
        (D::SetMaxSize, "unlimited"),
        (D::SetDuplicateSuits, "allowed"),
    ]);
    let size = u8::try_from(SET_STEPS).unwrap();
    let mut cards = hand("7S 7S 7H 7H 7D 7D 7C 7C 9S 9S 9H 9H 9D 9D 9C 9C");
    for _ in 0..16 {
        cards.add(Card::JOKER);
    }
    assert!(laydown(&rules, &[set(size), set(size)], &cards).is_some());
    cards.remove(Card::JOKER);
    cards.add(Card::new(Rank::King, Suit::Spades));
    assert!(laydown(&rules, &[set(size), set(size)], &cards).is_none());
}

/// Where all-wild melds are forbidden, sets of two sizes are made of naturals: three sevens
/// and four nines meet a set of 3 and a set of 4, and the quick check lets the hand through;
/// wild cards and a single natural seven meet nothing.
#[test]
fn sets_of_two_sizes_without_all_wild_melds() {
    let id = crate::rules::disputes::DisputeId::AllWildMelds;
    let rules = load("push", &[(id, "forbidden".into())]).unwrap().rules;
    let contract = [set(3), set(4)];
    let h = hand("7S 7H 7D 9S 9H 9D 9C");
    assert_met(&rules, &contract, &h, "");
    assert!(laydown(&rules, &contract, &hand("7S JK JK JK JK 2C 2D")).is_none());
}

#[test]
fn sets_of_two_sizes_in_either_order() {
    let rules = load("push", &[]).unwrap().rules;
    let h = hand("7S 7H 7D 7C 9S 9H 9D");
    for contract in [[set(4), set(3)], [set(3), set(4)]] {
        assert_met(&rules, &contract, &h, "");
    }
}

#[test]
fn wild_cards_alone_and_twos_in_sets() {
    use crate::rules::disputes::DisputeId;
    let rules = load("push", &[]).unwrap().rules;
    // An all-wild set (allowed in Push) beside a natural one.
    let h = hand("7S 7H 7D JK JK 2C");
    assert_met(&rules, &[set(3), set(3)], &h, "");
    // The same where two sets may not share a rank: the wild set takes a rank of its own.
    let id = DisputeId::from_id("same-rank-sets").unwrap();
    let distinct = load("push", &[(id, "forbidden".into())]).unwrap().rules;
    assert_met(&distinct, &[set(3), set(3)], &h, "");
    // Two twos are two wild cards, not a pair: no set of three.
    assert!(!quick_check(&rules, &[set(3)], &hand("2S 2H")));
    // Where all-wild melds are forbidden, three twos (wild in sets) make no set.
    let id = DisputeId::from_id("all-wild-melds").unwrap();
    let rules = load("push", &[(id, "forbidden".into())]).unwrap().rules;
    assert!(laydown(&rules, &[set(3)], &hand("2S 2H 2D")).is_none());
    // Nor do four jokers make a run, and the quick check says so without a search: a window
    // of the line with no natural card in it is no place for a run.
    let run_of_4 = [run(4)];
    let jokers = hand("JK JK JK JK");
    assert!(!quick_check(&rules, &run_of_4, &jokers));
    assert!(laydown(&rules, &run_of_4, &jokers).is_none());
    // Where twos are never natural, a 2 at its own place is a wild card too: with three
    // jokers it makes no run when a run needs a natural card.
    let never = load(
        "push",
        &[
            (DisputeId::NaturalTwos, "never".into()),
            (DisputeId::AllWildMelds, "forbidden".into()),
        ],
    )
    .unwrap()
    .rules;
    assert!(laydown(&never, &run_of_4, &hand("2S JK JK JK")).is_none());
    assert!(laydown(&never, &run_of_4, &hand("3S JK JK JK")).is_some());
}

/// A wild 2 that may also stand for itself in a run is one card: the quick check counts it
/// among the wilds and not again as a natural. Here 2♥ and 2♦ are the only wilds; hearts
/// A 4 5 give each window at most two naturals, so two runs of 4 need four wilds. (Counted
/// twice, the 2♥ made each window A-4 and 2-5 hold three, and the hand went on to a search.)
/// Yet the 2 still anchors a run where every run needs a natural card.
#[test]
fn a_wild_two_is_not_also_counted_as_a_natural() {
    use crate::rules::disputes::DisputeId;
    let rules = load("push", &[]).unwrap().rules;
    assert!(rules.twos_wild && rules.natural_two_in_runs());
    let h = hand("3S AH 2H 4H 5H 9H QH 2D AC 6C 8C");
    assert!(!quick_check(&rules, &[run(4), run(4)], &h));
    assert!(laydown(&rules, &[run(4), run(4)], &h).is_none());
    // One more wild makes the count, and the search agrees that it is enough.
    let h = hand("3S AH 2H 4H 5H 9H QH 2D AC 6C 8C JK JK");
    assert_met(&rules, &[run(4), run(4)], &h, "");
    // A natural 2♠ and three jokers make A-2-3-4 or 2-3-4-5 even where a meld needs a natural
    // card: the 2 is the anchor.
    let anchored = load("push", &[(DisputeId::AllWildMelds, "forbidden".into())])
        .unwrap()
        .rules;
    let h = hand("2S JK JK JK");
    assert_met(&anchored, &[run(4)], &h, "");
}

/// Where runs may mix suits the suits' anchors are pooled: two fives of different suits
/// anchor the same place, once. 5♠ with two jokers is a run of three where every meld needs a
/// natural card (the 5♥ stays in hand).
#[test]
fn anchors_of_two_suits_at_one_place_pool() {
    use crate::rules::disputes::DisputeId;
    let mixed = load(
        "push",
        &[
            (DisputeId::AllWildMelds, "forbidden".into()),
            (DisputeId::RunSuits, "any-suits".into()),
        ],
    )
    .unwrap()
    .rules;
    let h = hand("5S 5H JK JK");
    assert_met(&mixed, &[run(3)], &h, "");
}

#[test]
fn the_longest_run_five_runs_and_a_shared_ace_are_judged() {
    for name in crate::rules::GAMES {
        let rules = load(name, &[]).unwrap().rules;
        // A run as long as the rank line allows, from a hand holding every rank of a suit.
        let longest = vec![run(u8::try_from(rules.max_run()).unwrap())];
        let suit: Vec<Card> = Rank::ALL
            .iter()
            .map(|&r| Card::new(r, Suit::Spades))
            .collect();
        let h = Counts::from_cards(&suit);
        assert_met(&rules, &longest, &h, name);
        // Five runs of three from a hand with no two cards of neighbouring ranks, whatever the
        // suits (six-to-ten's runs may mix suits).
        let five = vec![run(3); 5];
        let h = hand("AS 5H 9D 3C 3S 7H JD 5C");
        assert!(!quick_check(&rules, &five, &h), "{name}");
        assert!(laydown(&rules, &five, &h).is_none(), "{name}");
    }
    // Five runs of three from a hand that holds them (two in spades, where runs may share a
    // suit): the quick check judges each run alone and lets the hand through.
    let id = crate::rules::disputes::DisputeId::SameSuitRunsInContract;
    let rules = load("push", &[(id, "allowed".into())]).unwrap().rules;
    let h = hand("4S 5S 6S 4H 5H 6H 4D 5D 6D 4C 5C 6C 8S 9S 10S");
    assert_met(&rules, &[run(3); 5], &h, "");
    // Push puts the ace at both ends of the line: one ace is still one card, so A-2-3-4 and
    // J-Q-K-A of one suit cannot both be made from it (twos natural here, so that the 2 is
    // not also counted as a wild).
    let rules = crate::rules::load_text(
        "natural-twos.yaml",
        "extends: push\ngame: natural-twos\nwilds: {twos: false}\n",
        std::path::Path::new("."),
    )
    .unwrap()
    .rules;
    let two = vec![run(4); 2];
    let h = hand("AS 2S 3S 4S JS QS KS");
    assert!(!quick_check(&rules, &two, &h));
    assert!(laydown(&rules, &two, &h).is_none());
    assert!(quick_check(&rules, &two, &hand("AS 2S 3S 4S JS QS KS AS")));
}

/// A set of a fixed rank (`set of 3 kings`, or a pair smaller than sets go, `set of 2 aces`):
/// the quick check reads it as a set of any rank of its size, so it may let through a hand the
/// search turns away, never the reverse; and the search lays each such set down in its rank.
#[test]
fn the_quick_check_lets_every_fixed_rank_laydown_through() {
    let fixed = |size: u8, rank: Rank| Component {
        rank: Some(rank),
        ..set(size)
    };
    let mut met = 0;
    for name in crate::rules::GAMES {
        let rules = load(name, &[]).unwrap().rules;
        let contracts = [
            vec![fixed(2, Rank::Ace), set(rules.set_min)],
            vec![fixed(2, Rank::King), run(4)],
            vec![fixed(3, Rank::Seven), fixed(2, Rank::Eight)],
            vec![fixed(2, Rank::Queen)],
        ];
        let pack = crate::engine::game::pack(&rules, rules.players.0);
        let mut rng = crate::base::rng::Rng::new(11);
        for contract in &contracts {
            for _ in 0..1500 {
                let mut cards = pack.clone();
                rng.shuffle(&mut cards);
                let size = 5 + rng.below(10) as usize;
                let h = Counts::from_cards(&cards[..size]);
                let Some(l) = search_laydown(&rules, contract, &h) else {
                    continue;
                };
                met += 1;
                assert!(
                    quick_check(&rules, contract, &h),
                    "{name} {contract:?}: {h:?}"
                );
                assert_eq!(laydown(&rules, contract, &h), Some(l.clone()));
                for (c, meld) in &l.melds {
                    let q = Query {
                        cards: meld.clone(),
                        kind: Some(c.kind),
                        declared: vec![],
                    };
                    let v = crate::oracle::meld::interpret_at(&rules, &q, c.size);
                    assert!(
                        v.interpretations
                            .iter()
                            .any(|x| fills(&rules, *c, meld.len(), x)),
                        "{name} {c}: {meld:?}"
                    );
                }
            }
        }
    }
    assert!(met > 200, "{met}");
}
