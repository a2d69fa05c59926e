//! Unit tests of the meld oracle; the property tests against the brute force are in
//! `tests/integration/meld_oracle.rs`.

use super::extend::may_extend;
use super::*;
use crate::base::card::parse_cards;
use crate::rules::load;

fn first(rules: &Rules, cards: &str, kind: MeldKind) -> Interpretation {
    let q = Query {
        cards: parse_cards(cards).unwrap(),
        kind: Some(kind),
        declared: vec![],
    };
    interpret(rules, &q).interpretations.remove(0)
}

#[test]
fn a_target_is_met_by_its_card_or_by_its_rank_in_every_suit() {
    let seven = parse_cards("7H").unwrap()[0];
    assert_eq!(Target::Card(seven).cards().collect::<Vec<_>>(), vec![seven]);
    assert_eq!(
        Target::Rank(Rank::Seven).cards().collect::<Vec<_>>(),
        parse_cards("7S 7H 7D 7C").unwrap()
    );
}

/// A target's mask holds its cards, and reads back (`cards_in`) in the order of
/// `Target::cards`, which the rescue listing counts on.
#[test]
fn a_targets_mask_holds_exactly_its_cards_in_order() {
    for rank in Rank::ALL {
        let mut targets = vec![Target::Rank(rank)];
        targets.extend(Suit::ALL.map(|suit| Target::Card(Card::new(rank, suit))));
        for t in targets {
            let listed: Vec<Card> = t.cards().collect();
            let read: Vec<Card> = crate::base::card::cards_in(t.mask()).collect();
            assert_eq!(read, listed, "{t:?}");
        }
    }
}

/// `may_extend` is a quick necessary condition in front of the one-card extension, and only
/// worth its place if it is also tight: for a natural run in the middle of the line it lets
/// through the wild cards and the cards of its suit just beyond its ends, for a set the wild
/// cards and its rank, and for a full meld nothing. A looser filter would give the same
/// lay-offs, only later.
#[test]
fn only_wild_cards_and_neighbours_may_extend() {
    let rules = load("push", &[]).unwrap().rules;
    let run = first(&rules, "5S 6S 7S 8S 9S", MeldKind::Run);
    let set = first(&rules, "7S 7H 7D", MeldKind::Set);
    let neighbours = parse_cards("4S 10S").unwrap();
    for card in Card::all() {
        let wild = rules.is_wild(card);
        assert_eq!(
            may_extend(&rules, &run, card),
            wild || neighbours.contains(&card),
            "run 5S-9S and {card}"
        );
        assert_eq!(
            may_extend(&rules, &set, card),
            wild || card.rank() == Some(Rank::Seven),
            "set of 7s and {card}"
        );
    }
    let four = first(&rules, "7S 7H 7D 7C", MeldKind::Set);
    let thirteen = first(
        &rules,
        "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",
        MeldKind::Run,
    );
    for card in Card::all() {
        assert!(
            !may_extend(&rules, &four, card),
            "set of four 7s and {card}"
        );
        assert!(!may_extend(&rules, &thirteen, card), "run A-K and {card}");
    }
    // Nothing lies past the end of a line that does not wrap: a run up to the high ace takes
    // only the jack of its suit, and the wilds.
    let high = first(&rules, "QS KS AS", MeldKind::Run);
    for card in Card::all() {
        let want = rules.is_wild(card) || card == parse_cards("JS").unwrap()[0];
        assert_eq!(may_extend(&rules, &high, card), want, "Q-A and {card}");
    }
}

/// A run from 2 to K has the ace beyond both ends (where the ace is high or low): the ace
/// extends it, though the two ends name the same rank.
#[test]
fn an_ace_extends_a_run_from_two_to_king_at_either_end() {
    let rules = load("push", &[]).unwrap().rules;
    let old = first(
        &rules,
        "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",
        MeldKind::Run,
    );
    let ace = parse_cards("AS").unwrap()[0];
    assert!(may_extend(&rules, &old, ace));
    assert_eq!(extend_by_one(&rules, &old, ace).map(|v| v.len()), Some(2));
}

/// `extenders` is `may_extend` as a mask: the same answer for every card, on sets and runs
/// (same-suit and any-suits, near an end of the line and around the corner under
/// wrap-around), with twos wild or not.
#[test]
fn extenders_is_may_extend_for_every_card() {
    let mut variants = Vec::new();
    for game in crate::rules::GAMES {
        let base = load(game, &[]).unwrap().rules;
        variants.push(base.clone());
        let mut any = base.clone();
        any.readings.run_suits = reading::RunSuits::AnySuits;
        variants.push(any);
        let mut wrap = base.clone();
        wrap.wrap_around = true;
        wrap.refresh();
        variants.push(wrap);
    }
    let melds = [
        ("5S 6S 7S 8S", MeldKind::Run),
        ("5S 6H 7D 8C", MeldKind::Run),
        ("AS 2S 3S 4S", MeldKind::Run),
        ("JH QH KH AH", MeldKind::Run),
        ("QH KH AH 2H 3H", MeldKind::Run),
        ("6D 7D JK 9D", MeldKind::Run),
        ("JK 7C 8C", MeldKind::Run),
        ("7S 7H 7D", MeldKind::Set),
        ("KS KH JK", MeldKind::Set),
        ("2S 2H 2D", MeldKind::Set),
    ];
    let mut checked = 0;
    for rules in &variants {
        for (cards, kind) in melds {
            let q = Query {
                cards: parse_cards(cards).unwrap(),
                kind: Some(kind),
                declared: vec![],
            };
            for old in interpret(rules, &q).interpretations {
                let mask = extenders(rules, &old);
                for card in Card::all() {
                    assert_eq!(
                        mask & (1 << card.index()) != 0,
                        may_extend(rules, &old, card),
                        "{} {cards} ({}) and {card}",
                        rules.name,
                        old.describe()
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 40, "only {checked} interpretations checked");
}

/// `extend_by_one` answers by itself except for a run that could close the circle under
/// `runs.wrap-around`; only there does it leave the work to the full search (`None`).
#[test]
fn the_one_card_shortcut_gives_up_only_near_a_full_circle() {
    let mut rules = load("push", &[]).unwrap().rules;
    let spades = |n: usize| -> String {
        let ranks = [
            "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2",
        ];
        ranks[..n].iter().map(|r| format!("{r}S ")).collect()
    };
    let four = parse_cards("4S").unwrap()[0];
    let two = parse_cards("2S").unwrap()[0];
    // Without wrap-around the shortcut serves every run, even one growing to 13 cards.
    let run = first(&rules, &spades(5), MeldKind::Run);
    assert!(extend_by_one(&rules, &run, four).is_some());
    let long = first(&rules, &spades(12), MeldKind::Run);
    assert!(extend_by_one(&rules, &long, two).is_some());
    // With it, a short run still takes the shortcut; one that could close the circle not.
    rules.wrap_around = true;
    rules.refresh();
    let run = first(&rules, &spades(5), MeldKind::Run);
    assert!(extend_by_one(&rules, &run, four).is_some());
    let eight = parse_cards("8S").unwrap()[0];
    assert_eq!(extend_by_one(&rules, &run, eight).map(|v| v.len()), Some(1));
    let long = first(&rules, &spades(12), MeldKind::Run);
    assert!(extend_by_one(&rules, &long, two).is_none());
}
