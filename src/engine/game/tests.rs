//! Unit tests of the engine's parts that the rule tests (`tests/integration/engine_rules/`) cannot reach
//! one by one: the discard masks against the one-card rule, and the `Seen` memo.

use super::*;
use crate::base::card::{Rank, Suit, parse_cards};
use crate::oracle::meld::{self, Interpretation, Query};
use crate::rules::disputes::DisputeId;
use crate::rules::spec::MeldKind;

/// The discardable cards worked out on masks are the held cards `discard_allowed` allows one
/// by one, under every combination of wild discards, restrictions, wild twos, relaxations
/// and taken card, on random hands holding some cards twice.
#[test]
fn discardable_cards_are_the_held_cards_discard_allowed_allows() {
    let mut rng = crate::base::rng::Rng::new(5);
    let push = crate::rules::load("push", &[]).unwrap().rules;
    let games: Vec<Game> = (0..8)
        .map(|v| {
            let mut rules = push.clone();
            rules.discard_wilds = v % 2 == 0;
            rules.twos_wild = v / 2 % 2 == 0;
            rules.readings.discard_restrictions = if v / 4 == 0 {
                rd::DiscardRestrictions::None
            } else {
                rd::DiscardRestrictions::NoTwosNoTakenCard
            };
            Game::new(Arc::new(rules), 4, 0, 1, Vec::new()).unwrap()
        })
        .collect();
    for round in 0..4000 {
        let mut g = games[round % games.len()].clone();
        let mut hand = Counts::default();
        for _ in 0..rng.below(14) {
            let c = Card::from_index(rng.below(crate::base::card::KINDS as u64) as usize).unwrap();
            hand.add(c);
        }
        let held: Vec<Card> = hand.iter().map(|(c, _)| c).collect();
        g.deal.taken = match rng.below(3) {
            0 => None,
            _ if held.is_empty() => None,
            _ => Some(held[rng.below(held.len() as u64) as usize]),
        };
        g.deal.hands[1] = hand;
        for (allow_taken, allow_twos) in [(false, false), (true, false), (true, true)] {
            let one_by_one = g.deal.hands[1]
                .iter()
                .filter(|&(c, k)| g.discard_allowed(c, k, allow_taken, allow_twos))
                .fold(0u64, |m, (c, _)| m | 1 << c.index());
            assert_eq!(
                g.discardable_with(1, allow_taken, allow_twos),
                one_by_one,
                "round {round}: {:?}, taken {:?}, {allow_taken} {allow_twos}",
                g.deal.hands[1],
                g.deal.taken
            );
        }
    }
}

/// A meld spec's interpretations come from `seen` where it holds the spec's cards as the
/// spec's kind, filtered by the declarations (a record that says less than the oracle would
/// shows that it was read), and from the oracle otherwise: other cards, another kind, rules
/// other than the record's, or declarations that leave nothing.
#[test]
fn a_seen_meld_is_read_back_filtered_by_the_declarations() {
    let exact = [(DisputeId::WildInSetRepresents, "exact-card".into())];
    let rules = Arc::new(crate::rules::load("push", &exact).unwrap().rules);
    let g = Game::new(Arc::clone(&rules), 4, 0, 1, Vec::new()).unwrap();
    let cards = parse_cards("7S 7H JK").unwrap();
    let spec = |declared: &str| MeldSpec {
        cards: cards.clone(),
        kind: Some(MeldKind::Set),
        declared: match declared {
            "" => Vec::new(),
            d => vec![(Card::JOKER, d.parse().unwrap())],
        },
    };
    let oracle = meld::interpret(&rules, &spec("").query()).interpretations;
    assert_eq!(oracle.len(), 2, "the joker stands for 7♦ or 7♣");
    let (for_d, for_c) = (&oracle[..1], &oracle[1..]);
    let record = |rules: &Arc<Rules>, kind: MeldKind, interps: &[Interpretation]| {
        g.seen.start(rules);
        g.seen.record(&cards, kind, interps.to_vec());
        g.seen.take(&g.rules)
    };
    // Read, and filtered; taken by the spec that reads it, so that a second spec of the same
    // cards (two decks) asks the oracle.
    let mut seen = record(&rules, MeldKind::Set, for_d);
    assert_eq!(
        g.spec_interps(&spec(""), seen.as_deref_mut()).unwrap(),
        for_d
    );
    assert_eq!(
        g.spec_interps(&spec(""), seen.as_deref_mut()).unwrap(),
        oracle
    );
    let mut seen = record(&rules, MeldKind::Set, &oracle);
    assert_eq!(
        g.spec_interps(&spec("7C"), seen.as_deref_mut()).unwrap(),
        for_c
    );
    // Not read: declarations that leave none of it, another kind, other cards, other rules.
    let mut seen = record(&rules, MeldKind::Set, for_d);
    assert_eq!(
        g.spec_interps(&spec("7C"), seen.as_deref_mut()).unwrap(),
        for_c
    );
    let mut seen = record(&rules, MeldKind::Run, for_d);
    assert_eq!(
        g.spec_interps(&spec(""), seen.as_deref_mut()).unwrap(),
        oracle
    );
    let other = MeldSpec {
        cards: parse_cards("7H 7S JK").unwrap(),
        ..spec("")
    };
    let mut seen = record(&rules, MeldKind::Set, for_d);
    assert_eq!(g.spec_interps(&other, seen.as_deref_mut()).unwrap(), oracle);
    let elsewhere = Arc::new((*rules).clone());
    assert!(record(&elsewhere, MeldKind::Set, for_d).is_none());
    // Taken once; a copy of the game starts with none.
    g.seen.start(&rules);
    assert!(g.clone().seen.take(&rules).is_none());
    assert!(g.seen.take(&rules).is_some());
    assert!(g.seen.take(&rules).is_none());
}

/// Push's rules, a game under them, and a table meld 5H 6H 7H (read one way): for the tests
/// of `Seen`'s lay-off record.
fn run_of_hearts() -> (Arc<Rules>, Game, TableMeld) {
    let rules = Arc::new(crate::rules::load("push", &[]).unwrap().rules);
    let g = Game::new(Arc::clone(&rules), 4, 0, 1, Vec::new()).unwrap();
    let run = parse_cards("5H 6H 7H").unwrap();
    let query = Query {
        cards: run.clone(),
        kind: None,
        declared: Vec::new(),
    };
    let interps = meld::interpret(&rules, &query).interpretations;
    (rules, g, TableMeld::new(0, run, interps))
}

/// A recorded one-card extension is taken only for its meld (by stamp), its card and its
/// rules, and only once.
#[test]
fn a_seen_extension_serves_its_meld_and_card_only() {
    let (rules, g, meld) = run_of_hearts();
    let [four, eight] = [Card::new(Rank::Four, Suit::Hearts), Card::JOKER];
    let grown = meld::extend_each_by_one(&rules, &meld.interps, four).unwrap();
    assert_eq!(grown.len(), 1);
    let mut changed = meld.clone();
    changed.restamp();
    let elsewhere = Arc::new((*rules).clone());
    for (r, m, c) in [
        (&rules, &changed, four),
        (&rules, &meld, eight),
        (&elsewhere, &meld, four),
    ] {
        g.seen.record_extension(&rules, &meld, four, grown.clone());
        assert_eq!(g.seen.take_extension(r, m, c), None);
    }
    g.seen.record_extension(&rules, &meld, four, grown.clone());
    assert!(g.clone().seen.take_extension(&rules, &meld, four).is_none());
    assert_eq!(g.seen.take_extension(&rules, &meld, four), Some(grown));
    assert_eq!(g.seen.take_extension(&rules, &meld, four), None);
}

/// A recorded join is read only for its meld (by stamp), its card and its rules; it stays
/// until another lay-off is recorded, and it is no extension to take.
#[test]
fn a_seen_join_serves_its_meld_and_card_only() {
    let (rules, g, meld) = run_of_hearts();
    let four = Card::new(Rank::Four, Suit::Hearts);
    let Some(meld::Joins::One(join)) = meld::joins(&rules, &meld.interps[0], four) else {
        panic!("4H joins 5H-7H one way");
    };
    let joined = |j: meld::OnlyJoin| {
        let mut grown = meld.interps[0].clone();
        j.make(&mut grown);
        grown
    };
    let mut changed = meld.clone();
    changed.restamp();
    let elsewhere = Arc::new((*rules).clone());
    g.seen.record_join(&rules, &meld, four, join);
    for (r, m, c) in [
        (&rules, &changed, four),
        (&rules, &meld, Card::JOKER),
        (&elsewhere, &meld, four),
    ] {
        assert!(g.seen.join(r, m, c).is_none());
    }
    assert!(g.clone().seen.join(&rules, &meld, four).is_none());
    assert!(g.seen.take_extension(&rules, &meld, four).is_none());
    for _ in 0..2 {
        let j = g.seen.join(&rules, &meld, four).expect("recorded");
        assert_eq!(joined(j), joined(join));
    }
    let grown = meld::extend_each_by_one(&rules, &meld.interps, four).unwrap();
    g.seen.record_extension(&rules, &meld, four, grown);
    assert!(g.seen.join(&rules, &meld, four).is_none());
    // A record under other rules holds those rules, not the ones it replaced.
    g.seen.record_join(&elsewhere, &meld, four, join);
    assert!(g.seen.join(&rules, &meld, four).is_none());
    assert!(g.seen.join(&elsewhere, &meld, four).is_some());
}
