//! The laydown search: its template lists, its pruning bound, what it reads from a hand, and
//! the laydowns it finds.

use super::*;

/// The template lists as plain code makes them: the ranks (the windows of each suit, per
/// run size) the hand fills some of naturally, stably sorted by how many, most first; then,
/// where all-wild melds are allowed, the first ranks with none (one per set), and each suit's
/// first window with none. `set_templates` and `run_templates` (`push_by_count`) give the
/// same lists, for hands of one pack and of many (counts of a rank up to 40, on both sides
/// of the counting sort's room), under readings that change which cards are natural and how
/// suits pool.
#[test]
fn template_lists_are_the_stable_sort_by_naturals() {
    use crate::rules::disputes::DisputeId as D;
    let rule_sets = [
        push_with(&[]),
        push_with(&[
            (D::AllWildMelds, "allowed"),
            (D::NaturalTwos, "runs-and-sets"),
        ]),
        push_with(&[(D::RunSuits, "any-suits"), (D::AllWildMelds, "allowed")]),
        push_with(&[(D::NaturalTwos, "never")]),
    ];
    let mut rng = crate::base::rng::Rng::new(21);
    let mut checked = 0;
    for rules in &rule_sets {
        let all_wild = rules.readings.all_wild_melds == reading::AllWildMelds::Allowed;
        for round in 0..400 {
            // A few packs' worth at most for most hands; every fourth piles up one rank; the
            // first three hold 33, 34 and 35 cards of one rank and nothing else, either side
            // of the counting sort's room.
            let mut h = Counts::new();
            if round < 3 {
                for k in 0..33 + round {
                    h.add(Card::new(Rank::Nine, Suit::ALL[k % 4]));
                }
            }
            for _ in 0..if round < 3 { 0 } else { 4 + rng.below(12) } {
                h.add(Card::all().nth(rng.below(53) as usize).unwrap());
            }
            if round % 4 == 0 && round >= 3 {
                let rank = Rank::ALL[rng.below(13) as usize];
                for _ in 0..rng.below(40) {
                    h.add(Card::new(rank, Suit::ALL[rng.below(4) as usize]));
                }
            }
            for set_count in [1, 3] {
                let mut expected: Vec<(Template, usize)> = Vec::new();
                let mut none = Vec::new();
                for rank in Rank::ALL {
                    if rank == Rank::Two && !rules.natural_two_in_sets() {
                        continue;
                    }
                    let avail: usize = Suit::ALL
                        .iter()
                        .map(|&s| Card::new(rank, s))
                        .filter(|&c| set_natural(rules, c))
                        .map(|c| usize::from(h.count(c)))
                        .sum();
                    if avail > 0 {
                        expected.push((Template::Set { rank }, avail));
                    } else if rank != Rank::Two {
                        none.push((Template::Set { rank }, 0));
                    }
                }
                expected.sort_by_key(|(_, a)| std::cmp::Reverse(*a));
                if all_wild {
                    expected.extend(none.into_iter().take(set_count));
                }
                let mut got = vec![(Template::Set { rank: Rank::Two }, 99)];
                set_templates(rules, &h, set_count, &mut got);
                assert_eq!(got, expected, "sets of {h:?}");
            }
            let contract = [run(4), set(3), run(5), run(4)];
            let (naturals, _) = read_hand(rules, &contract, &h);
            let (mut runs, mut without) = (vec![vec![]; 9], vec![]);
            runs[4].push((Template::Set { rank: Rank::Two }, 99));
            run_templates(rules, &naturals.places, &contract, &mut runs, &mut without);
            for n in [4, 5] {
                let suits: &[Option<Suit>] =
                    if rules.readings.run_suits == reading::RunSuits::SameSuit {
                        &Suit::EACH
                    } else {
                        &[None]
                    };
                let mut expected = Vec::new();
                let mut none = Vec::new();
                for &suit in suits {
                    let fillable = match suit {
                        Some(s) => naturals.places[s as usize],
                        None => naturals.places.iter().fold(0, |a, m| a | m),
                    };
                    let mut first_none = true;
                    for (start, &w) in rules.windows(n).iter().enumerate() {
                        let a = (fillable & w).count_ones() as usize;
                        if a > 0 {
                            expected.push((
                                Template::Run {
                                    suit,
                                    start,
                                    gaps: 0,
                                },
                                a,
                            ));
                        } else if first_none {
                            first_none = false;
                            none.push((
                                Template::Run {
                                    suit,
                                    start,
                                    gaps: 0,
                                },
                                0,
                            ));
                        }
                    }
                }
                expected.sort_by_key(|(_, a)| std::cmp::Reverse(*a));
                if all_wild {
                    expected.extend(none);
                }
                assert_eq!(runs[n], expected, "runs of {n} in {h:?}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 4 * 400 * 2);
}

/// The run templates list each window of each suit once per run size, however many runs of
/// that size the contract has, and nothing for its sets; the lists of a search before are
/// emptied first.
#[test]
fn run_templates_list_each_window_once() {
    let rules = load("push", &[]).unwrap().rules;
    let naturals = run_naturals(&rules, &hand("4S 5S 6S 9H"));
    let (mut out, mut without) = (vec![vec![(Template::Set { rank: Rank::Ace }, 9)]], vec![]);
    run_templates(
        &rules,
        &naturals.places,
        &[set(3), run(4), run(4)],
        &mut out,
        &mut without,
    );
    assert!(out[..4].iter().all(Vec::is_empty), "{:?}", &out[..4]);
    let fours = &out[4];
    // Every window of four places in each suit: those the hand fills some place of, then one
    // it fills none of per suit (all-wild runs are allowed in Push).
    let filled = |suit: Suit| {
        rules
            .windows(4)
            .iter()
            .filter(|&&w| w & naturals.places[suit as usize] != 0)
            .count()
    };
    let expected = filled(Suit::Spades) + filled(Suit::Hearts) + 4;
    assert_eq!(fours.len(), expected, "{fours:?}");
    for (i, t) in fours.iter().enumerate() {
        assert!(!fours[..i].contains(t), "{t:?} twice");
    }
    // Most naturals first: 3-6 of spades (the line starts A 2 3) is the first of the two
    // windows holding all three.
    assert_eq!(
        fours[0],
        (
            Template::Run {
                suit: Some(Suit::Spades),
                start: 2,
                gaps: 0
            },
            3
        )
    );
}

#[test]
fn a_natural_needed_by_a_run_is_left_to_it() {
    let rules = load("push", &[]).unwrap().rules;
    let c = &rules.rounds[1].contract;
    let l = laydown(&rules, c, &hand("7S 7H 7D 7C 5S 6S 8S")).expect("set of 7s + 5-8 of spades");
    for (comp, cards) in &l.melds {
        assert!(meld::is_valid(&rules, cards, Some(comp.kind)), "{cards:?}");
    }
    assert!(laydown(&rules, c, &hand("7S 7H 7D 5S 6S 8S 9C")).is_none());
}

/// The search tries first the run windows the hand fills best with naturals, so a hand that
/// holds a natural run lays that run down, not four jokers in the first window of the line.
#[test]
fn a_natural_run_is_laid_down_before_an_all_wild_one() {
    let rules = load("push", &[]).unwrap().rules;
    let l = laydown(&rules, &[run(4)], &hand("JK JK JK JK 5H 6H 7H 8H")).expect("a run of 4");
    assert_eq!(l.melds[0].1, parse_cards("5H 6H 7H 8H").unwrap());
}

/// Wild cards alone make two runs that may not share a suit: an all-wild run is tried in
/// every suit, not in the first suit only.
#[test]
fn two_all_wild_runs_take_two_suits() {
    let id = crate::rules::disputes::DisputeId::SameSuitRunsInContract;
    let rules = load("push", &[(id, "forbidden".into())]).unwrap().rules;
    let l = laydown(&rules, &[run(4), run(4)], &hand("JK JK JK JK JK JK JK JK"))
        .expect("two runs of four jokers");
    assert_eq!(l.melds.len(), 2);
}

/// Where twos are natural in sets and a wild stands for an exact card, a wild 2 may stand for
/// another 2 in a set of twos: 2♠ 2♥ and a second 2♠ (for 2♦ or 2♣) are a set beside three
/// sevens, with no other way to make two sets (all-wild melds and two sets of one rank
/// forbidden).
#[test]
fn a_wild_two_stands_for_another_two_in_a_set_of_twos() {
    use crate::rules::disputes::DisputeId as D;
    let readings = [
        (D::NaturalTwos, "runs-and-sets".into()),
        (D::WildInSetRepresents, "exact-card".into()),
        (D::AllWildMelds, "forbidden".into()),
        (D::SameRankSets, "forbidden".into()),
    ];
    let rules = load("push", &readings).unwrap().rules;
    let l = laydown(&rules, &[set(3), set(3)], &hand("2S 2S 2H 7S 7H 7D"))
        .expect("a set of twos and a set of sevens");
    let twos = l
        .melds
        .iter()
        .find(|(_, cards)| cards.contains(&Card::new(Rank::Two, Suit::Hearts)));
    assert_eq!(twos.expect("the 2♥ is laid down").1.len(), 3);
}

/// Runs of two sizes each search their own list of windows from its start: a run of 5 in
/// hearts and a run of 4 in spades, whichever the contract names first.
#[test]
fn runs_of_two_sizes_each_search_all_their_windows() {
    let rules = load("push", &[]).unwrap().rules;
    let h = hand("5H 6H 7H 8H 9H 5S 6S 7S 8S");
    for contract in [[run(4), run(5)], [run(5), run(4)]] {
        assert!(laydown(&rules, &contract, &h).is_some(), "{contract:?}");
    }
}

/// The pruning bound counts shared cards once. Push forbids repeated suits in a set: a first
/// set of 3 sevens can hold three of 7♠ 7♠ 7♥ 7♦, a second only the other 7♠. Two runs in
/// spades share the suit's natural cards: 3♠ 4♠ 5♠ 6♠ give two windows of four at most four
/// between them. Where suits may repeat, the second set gets the fourth seven too.
#[test]
fn the_pruning_bound_counts_shared_cards_once() {
    use crate::rules::disputes::DisputeId;
    let bound =
        |rules: &Rules, h: &Counts, chosen: &[(Component, Template)], c: Component, t: Template| {
            let s = Search {
                rules,
                contract: &[],
                order: &[],
                sets: &[],
                runs: &[],
                hand: h,
                wilds: 0,
                pools: Pools::of(&run_naturals(rules, h)),
                limited: false,
            };
            let st = State {
                chosen: &mut chosen.to_vec(),
                flow: &mut Flow::default(),
                out: None,
            };
            naturals_added(&s, c, &t, &st)
        };
    let push = load("push", &[]).unwrap().rules;
    let sevens = hand("7S 7S 7H 7D");
    let set7 = Template::Set { rank: Rank::Seven };
    let one_set = [(set(3), set7)];
    assert_eq!(bound(&push, &sevens, &[], set(3), set7), 3);
    assert_eq!(bound(&push, &sevens, &one_set, set(3), set7), 1);
    let repeat = load("push", &[(DisputeId::SetDuplicateSuits, "allowed".into())])
        .unwrap()
        .rules;
    assert_eq!(bound(&repeat, &sevens, &one_set, set(3), set7), 1);
    assert_eq!(bound(&repeat, &sevens, &[], set(3), set7), 3);
    let spades = hand("3S 4S 5S 6S 9H");
    let at = |suit: Suit, start: usize| Template::Run {
        suit: Some(suit),
        start,
        gaps: 0,
    };
    let low = at(Suit::Spades, 2);
    let one_run = [(run(4), low)];
    assert_eq!(bound(&push, &spades, &[], run(4), low), 4);
    assert_eq!(
        bound(&push, &spades, &one_run, run(4), at(Suit::Spades, 4)),
        0
    );
    assert_eq!(
        bound(&push, &spades, &one_run, run(4), at(Suit::Hearts, 7)),
        1
    );
    // Two runs in one window: a second card at a place only where the hand has two. Seven
    // spades would give the second run three more naturals by the suit's count alone.
    let long = hand("3S 4S 5S 6S 9S 10S JS");
    assert_eq!(bound(&push, &long, &one_run, run(4), low), 0);
    let five_twice = hand("3S 4S 5S 5S 6S 9S 10S JS");
    assert_eq!(bound(&push, &five_twice, &one_run, run(4), low), 1);
    // A wild 2 that may stand for itself counts among the wilds, not at its place as well.
    let ace_two_three = hand("AS 2S 3S");
    assert_eq!(
        bound(&push, &ace_two_three, &[], run(3), at(Suit::Spades, 0)),
        2
    );
}

/// A run's natural cards: a 2 is one where twos may stand for themselves in runs (Push), and
/// not where they are always wild (`natural-twos=never`), and it is plain only where twos are
/// not wild; an ace has two places on Push's line but is one card; a rank off the line (the 2
/// where it is not in sequence) is none.
#[test]
fn run_naturals_count_twos_only_where_they_may_be_natural() {
    use crate::rules::disputes::DisputeId;
    let push = load("push", &[]).unwrap().rules;
    let never = load("push", &[(DisputeId::NaturalTwos, "never".into())])
        .unwrap()
        .rules;
    let h = hand("AS 2S 3S 4S 9H");
    let place = |rules: &Rules, rank: Rank| rules.rank_places[usize::from(rank.number()) - 1];
    let n = run_naturals(&push, &h);
    assert_eq!(
        n.places[0],
        place(&push, Rank::Ace)
            | place(&push, Rank::Two)
            | place(&push, Rank::Three)
            | place(&push, Rank::Four)
    );
    assert_eq!(place(&push, Rank::Ace).count_ones(), 2);
    // The 2♠ is wild all the same: without it, as the relaxed check counts.
    assert_eq!(n.plain[0], n.places[0] & !place(&push, Rank::Two));
    assert_eq!(n.plain_cards, [3, 1, 0, 0]);
    let n = run_naturals(&never, &h);
    assert_eq!(n.places[0] & place(&never, Rank::Two), 0);
    assert_eq!((n.plain, n.plain_cards), (n.places, [3, 1, 0, 0]));
    // Where twos are not wild, a 2 is as plain as any card.
    let mut natural = push.clone();
    natural.twos_wild = false;
    let n = run_naturals(&natural, &h);
    assert_eq!((n.plain, n.plain_cards), (n.places, [4, 1, 0, 0]));
    // Nor is a 2 off the line a natural of a run, wild or not.
    let mut off = natural.clone();
    off.two_in_sequence = false;
    off.refresh();
    assert_eq!(place(&off, Rank::Two), 0);
    assert_eq!(run_naturals(&off, &h).plain_cards, [3, 1, 0, 0]);
}
