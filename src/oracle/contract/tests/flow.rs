//! The flow network and its first flow, and a contract of one meld answered without the search:
//! each where it decides gives the answer of the path it stands in for.

use super::*;

/// `fill` builds its network only where the first flow falls short: where that flow fills
/// every chosen template, its melds are the network's. Random hands of the Push pack, random
/// templates of the contracts' lists, under readings that change the network.
#[test]
fn the_first_flow_is_the_networks_where_it_fills() {
    use crate::rules::disputes::DisputeId as D;
    let switches: [(D, &[&str]); 6] = [
        (D::AllWildMelds, &["allowed", "forbidden"]),
        (D::SetDuplicateSuits, &["forbidden", "allowed"]),
        (D::WildInSetRepresents, &["rank-only", "exact-card"]),
        (D::NaturalTwos, &["runs-only", "runs-and-sets", "never"]),
        (D::RunSuits, &["same-suit", "any-suits"]),
        (D::SetMaxSize, &["4", "unlimited"]),
    ];
    let push = load("push", &[]).unwrap().rules;
    let pack = crate::engine::game::pack(&push, 4);
    let mut rng = crate::base::rng::Rng::new(29);
    let (mut filled, mut decided, mut differ) = (0, 0, 0);
    for _ in 0..20_000 {
        let mut rules = push.clone();
        for (id, names) in switches {
            let name = names[rng.below(names.len() as u64) as usize];
            assert!(rules.set_reading(id, name), "{id:?}={name}");
        }
        rules.refresh();
        // Hands near melds: cards of a few ranks and of one suit's stretch, and some wilds.
        let mut cards = Vec::new();
        for _ in 0..8 + rng.below(8) {
            let c = pack[rng.below(pack.len() as u64) as usize];
            let near = Card::new(
                Rank::ALL[4 + rng.below(4) as usize],
                Suit::ALL[rng.below(2) as usize],
            );
            cards.push(if rng.below(2) == 0 { c } else { near });
        }
        let hand = Counts::from_cards(&cards);
        let contract = &push.rounds[rng.below(push.rounds.len() as u64) as usize].contract;
        let (naturals, _) = read_hand(&rules, contract, &hand);
        let (mut sets, mut runs, mut without) = (Vec::new(), Vec::new(), Vec::new());
        let set_count = contract.iter().filter(|c| c.kind == MeldKind::Set).count();
        set_templates(&rules, &hand, set_count, &mut sets);
        run_templates(&rules, &naturals.places, contract, &mut runs, &mut without);
        // One template per contract meld, most often among the first of its list.
        let mut chosen = Vec::new();
        for &c in contract {
            let list = match c.kind {
                MeldKind::Set => &sets,
                MeldKind::Run => &runs[usize::from(c.size)],
            };
            if list.is_empty() {
                break;
            }
            let k = rng.below(list.len().min(4) as u64) as usize;
            chosen.push((c, list[k].0));
        }
        if chosen.len() < contract.len() {
            continue;
        }
        let whole = fill(&rules, &hand, &chosen, None, &mut Flow::default());
        filled += usize::from(whole.is_some());
        if let Some(first) = first_flow(&rules, &hand, &chosen) {
            decided += 1;
            assert_eq!(Some(first), whole, "{hand:?} {chosen:?}");
        } else {
            differ += usize::from(whole.is_some());
        }
    }
    // The shortcut answers most of the networks that fill; those it leaves to the network
    // are fewer (and exist: the network is still needed).
    assert!(
        decided > 2 * differ && differ > 0,
        "{decided} {differ} of {filled}"
    );
}

/// `first_flow` takes a 2 as a natural only where a 2 may stand for itself, and as a wild
/// only where twos are wild: on any template, its answer is the network's where it fills.
#[test]
fn the_first_flow_takes_a_two_as_the_rules_say() {
    use crate::rules::disputes::DisputeId as D;
    let same = |rules: &Rules, h: &str, c: Component, t: Template| {
        let quick = first_flow(rules, &hand(h), &[(c, t)]);
        let whole = fill(rules, &hand(h), &[(c, t)], None, &mut Flow::default());
        assert_eq!(quick.clone().or(whole.clone()), whole, "{h}");
        quick
    };
    // A 2 that may not stand for itself in a run cannot be the natural card a meld needs
    // where all-wild melds are forbidden.
    let never = push_with(&[(D::NaturalTwos, "never"), (D::AllWildMelds, "forbidden")]);
    let low = Template::Run {
        suit: Some(Suit::Hearts),
        start: 0,
        gaps: 0,
    };
    assert_eq!(same(&never, "2H JK JK", run(3), low), None);
    // Where twos are not wild, a 2 fills nothing but a place of its own rank.
    let mut plain = load("push", &[]).unwrap().rules;
    plain.twos_wild = false;
    plain.refresh();
    let sevens = Template::Set { rank: Rank::Seven };
    assert_eq!(same(&plain, "7S 7H 2C", set(3), sevens), None);
    assert!(same(&plain, "7S 7H 2C JK", set(3), sevens).is_some());
}

/// `laydown`'s shortcut for one meld decides the usual cases itself, with the search's
/// answer: the first template its bounds let through, filled by the first flow; none where
/// no template gets through them.
#[test]
fn one_meld_is_decided_without_the_search() {
    let rules = load("push", &[]).unwrap().rules;
    let decided = |h: &str, c: Component| {
        let answer = one_meld(&rules, c, &hand(h));
        let searched = search_laydown(&rules, &[c], &hand(h));
        assert_eq!(
            answer.clone().map(|a| a.map(|cards| vec![(c, cards)])),
            Some(searched.map(|l| l.melds)),
            "{h}"
        );
        answer.expect("decided")
    };
    // A laydown's cards come in canonical order.
    let cards = |s: &str| {
        let mut v = parse_cards(s).unwrap();
        v.sort();
        v
    };
    // Sets: the rank with the most naturals (the lower rank at a tie), a wild where short.
    assert_eq!(decided("7S 7H 9D 9C 9H", set(3)), Some(cards("9H 9D 9C")));
    assert_eq!(decided("7S 7H 9D 9C KH", set(3)), None);
    assert_eq!(decided("7S 7H 9D 9C 2C", set(3)), Some(cards("7S 7H 2C")));
    // Suits may not repeat in a Push set: two 7S are one natural to the bounds, so the 9s.
    assert_eq!(decided("7S 7S 9D 9C 2C", set(3)), Some(cards("9D 9C 2C")));
    // Where a 2 may be natural in a set, a set of twos under rank-only takes only jokers
    // beside its natural twos: a second 2S (its suit is there already) may not fill it, the
    // first flow falls short and the search decides (on the 5s, with the 2s as wilds).
    let twos = push_with(&[(
        crate::rules::disputes::DisputeId::NaturalTwos,
        "runs-and-sets",
    )]);
    let h = hand("2S 2S 2H 5C");
    assert_eq!(one_meld(&twos, set(3), &h), None);
    assert_eq!(
        laydown(&twos, &[set(3)], &h).map(|l| l.melds),
        Some(vec![(set(3), cards("2S 2S 5C"))])
    );
    // No rank with a natural (a 2 is not natural in a Push set): an all-wild set, and none
    // where all-wild melds are forbidden.
    assert_eq!(decided("2C JK JK", set(3)), Some(cards("2C JK JK")));
    let anchored = push_with(&[(crate::rules::disputes::DisputeId::AllWildMelds, "forbidden")]);
    assert_eq!(one_meld(&anchored, set(3), &hand("2C JK JK")), Some(None));
    // Runs: the hearts hold two places of A-2-3 and of 2-3-4 (before the clubs' two of
    // 4-5-6), but one of them is the wild 2, which the bounds count among the wilds only
    // (and the 9H lies in neither window): neither can be filled, and 4-5-6 of clubs is the
    // first that can.
    assert_eq!(
        decided("2H 3H 9H 5C 6C", run(3)),
        Some(cards("2H 5C 6C")),
        "the search's bounds pass over the hearts"
    );
    assert_eq!(decided("5H 6H 9H", run(3)), None);
    assert_eq!(decided("5H 6H 9H JK", run(3)), Some(cards("5H 6H JK")));
}

/// `fill` starts from a first flow along the obvious paths: where that fills every template
/// no augmenting path is searched for, and where it gives a card to the wrong template the
/// search still moves it (here the 7S, which an anchored set of sevens needs).
#[test]
fn the_first_flow_leaves_the_search_little_to_do() {
    use crate::rules::disputes::DisputeId;
    let mut rules = load("push", &[]).unwrap().rules;
    let run_4_to_7 = Template::Run {
        suit: Some(Suit::Spades),
        start: 3,
        gaps: 0,
    };
    let sevens = Template::Set { rank: Rank::Seven };
    let chosen = [(run(4), run_4_to_7), (set(3), sevens)];
    let mut g = Flow::default();
    let melds = fill(&rules, &hand("7S 7H 7D 4S 5S 6S JK"), &chosen, None, &mut g).expect("fills");
    assert_eq!(g.pass, 0, "no augmenting path searched for");
    assert_eq!(melds[0].1, parse_cards("4S 5S 6S 7S").unwrap());
    assert_eq!(melds[1].1, parse_cards("7H 7D JK").unwrap());

    // Where every meld needs a natural card, the first flow gives each template its one
    // natural card first, and the obvious fill still needs no search.
    rules.set_reading(DisputeId::AllWildMelds, "forbidden");
    let melds = fill(&rules, &hand("7S 7H 7D 4S 5S 6S JK"), &chosen, None, &mut g).expect("fills");
    assert_eq!(g.pass, 0, "no augmenting path searched for, anchored");
    assert_eq!(melds[0].1, parse_cards("4S 5S 6S 7S").unwrap());
    assert_eq!(melds[1].1, parse_cards("7H 7D JK").unwrap());

    let h = hand("7S 4S 5S 6S JK JK JK");
    let melds = fill(&rules, &h, &chosen, None, &mut g).expect("fills");
    assert!(g.pass > 0, "the search moved the 7S");
    assert_eq!(melds[0].1, parse_cards("4S 5S 6S JK").unwrap());
    assert_eq!(melds[1].1, parse_cards("7S JK JK").unwrap());
}
