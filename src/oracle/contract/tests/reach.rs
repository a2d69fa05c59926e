//! `may_hold` and `Reach::may_hold_any`: the questions the built-in players ask between
//! searches.

use super::*;

/// `may_hold_any` says no only where the hand makes no meld of the size: no rank with enough
/// cards and wilds for a set, no window of one suit (of any suits, where runs mix them) with
/// enough for a run, and no run longer than the line.
#[test]
fn may_hold_any_asks_for_some_meld_of_the_size() {
    let rules = load("push", &[]).unwrap().rules;
    let any = |h: &str, c: Component| Reach::new(&rules, &hand(h)).may_hold_any(&rules, c);
    assert!(!any("7S 8H 9D 9C", set(3)));
    assert!(any("7S 8H 9D 9C JK", set(3)));
    assert!(any("JK JK 2C", set(3)), "all wild");
    assert!(!any("5H 6H 9H 10S", run(3)));
    assert!(any("5H 6H 9H JK", run(3)));
    assert!(!any("5H 6S 7D", run(3)), "runs keep one suit");
    let mut mixed = rules.clone();
    assert!(mixed.set_reading(crate::rules::disputes::DisputeId::RunSuits, "any-suits"));
    assert!(Reach::new(&mixed, &hand("5H 6S 7D")).may_hold_any(&mixed, run(3)));
    let line = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK";
    let longest = u8::try_from(rules.max_run()).unwrap();
    assert!(any(line, run(longest)), "a run as long as the rules allow");
    assert!(!any(&format!("{line} JK JK"), run(longest + 1)));
}

/// `may_hold` turns a card away only where no meld of the component could hold it: a set
/// needs enough of the card's rank with the wilds, a run enough naturals of its suit in a
/// window through the card's own place.
#[test]
fn may_hold_asks_for_a_meld_through_the_card() {
    let rules = load("push", &[]).unwrap().rules;
    let held = |h: &str, c: Component, card: &str| {
        let card = parse_cards(card).unwrap()[0];
        may_hold(&rules, c, &hand(h), card)
    };
    // Sets: the card's rank, with the wilds (a 2 counts as one).
    assert!(held("7S 7H 7D 9D", set(3), "7S"));
    assert!(!held("7S 7H 9D 9C", set(3), "7S"));
    assert!(held("7S 7H 9D 2C", set(3), "7S"));
    assert!(!held("7S 7H 9D 2C", set(3), "9D"));
    assert!(held("7S 9H 9D JK 2C", set(4), "9H"));
    // Runs: a window through the card's place, of its suit.
    assert!(held("5H 6H 7H", run(3), "5H"));
    assert!(!held("5H 6H 9H", run(3), "9H"));
    assert!(held("5H 6H 9H JK", run(3), "5H"));
    assert!(
        !held("5H 6H 9H JK", run(3), "9H"),
        "5-6-7 is not through the 9"
    );
    assert!(held("5H 6H 9H JK JK", run(3), "9H"));
    assert!(!held("5H 6S JK", run(3), "5H"), "runs keep one suit");
    assert!(held("KH QH AH", run(3), "AH"), "the ace above the king");
    // Wild cards always pass; no run is longer than the line.
    assert!(held("5H", run(3), "JK"));
    assert!(!held(
        "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK JK",
        run(15),
        "5H"
    ));
    let longest = u8::try_from(rules.max_run()).unwrap();
    assert!(
        held(
            "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK",
            run(longest),
            "5H"
        ),
        "a run as long as the rules allow"
    );
    // A wild 2 counts among the wilds, and fills its own place in a run as well only where a
    // 2 may stand for itself there (the question may count it twice: the search decides).
    assert!(held("2H 3H", run(3), "4H"));
    let mut never = rules.clone();
    assert!(never.set_reading(crate::rules::disputes::DisputeId::NaturalTwos, "never"));
    let four = Card::new(Rank::Four, Suit::Hearts);
    assert!(!may_hold(&never, run(3), &hand("2H 3H"), four));
    assert!(may_hold(&never, run(3), &hand("2H 3H JK"), four));
    let mut any = rules.clone();
    assert!(any.set_reading(crate::rules::disputes::DisputeId::RunSuits, "any-suits"));
    assert!(may_hold(
        &any,
        run(3),
        &hand("5H 6S JK"),
        Card::new(Rank::Five, Suit::Hearts)
    ));
    // Where twos are not wild, they fill no set of another rank.
    let mut natural_twos = rules.clone();
    natural_twos.twos_wild = false;
    let seven = Card::new(Rank::Seven, Suit::Spades);
    assert!(!may_hold(&natural_twos, set(3), &hand("7S 2H 2D"), seven));
    assert!(may_hold(&rules, set(3), &hand("7S 2H 2D"), seven));
}
