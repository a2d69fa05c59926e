//! Rescue: taking a wild back from a meld with the natural it stands for, when it may be done, what
//! the wild in a set stands for, where the rescued wild goes, and frozen twos.

use super::*;

/// Meld 0: seat 0's set 7♣ 7♥ JK; meld 1: seat 1's run 5♠ 6♠ 7♠ (seat 1 has its contract down
/// unless `seat1_done` is false).
fn rescue_game(readings: &[(DisputeId, &str)], set: &'static str, seat1_done: bool) -> Game {
    let mut g = push(readings);
    let table: &[(u8, &str)] = if seat1_done {
        &[(0, set), (1, "5S 6S 7S")]
    } else {
        &[(0, set), (0, "5S 6S 7S")]
    };
    rig(
        &mut g,
        Pos {
            hands: &["KS", "7D 7S KC", "9C", "AH"],
            discard: "4D",
            table,
            ..Pos::default()
        },
    );
    g
}

#[test]
fn rescue_timing__after_own_contract_refuses_a_rescue_before_it() {
    let mut g = rescue_game(&[], "7C 7H JK", false);
    let m = rejected(&mut g, 1, rescue(0, "7D", "JK"), Reason::RescueNotAllowed);
    assert!(m.contains("rescue-timing"), "{m}");
}

#[test]
fn rescue_timing__any_time_allows_a_rescue_before_the_contract() {
    let mut g = rescue_game(&[(DisputeId::RescueTiming, "any-time")], "7C 7H JK", false);
    let ev = ok(&mut g, 1, rescue(0, "7D", "JK"));
    assert_eq!(
        ev,
        vec![Event::Rescued {
            seat: 1,
            meld: 0,
            natural: c("7D"),
            wild: c("JK")
        }]
    );
    assert_hand(&g, 1, "JK 7S KC");
    // The natural takes the joker's place in the order the cards were laid.
    assert_eq!(g.deal.table[0].cards, cards("7C 7H 7D"));
    assert_eq!(g.deal.table[0].owner, 0);
    assert!(!g.deal.progress[1].done);
}

#[test]
fn wild_in_set_represents__rank_only_lets_any_seven_the_set_may_take_rescue_the_joker() {
    for natural in ["7D", "7S"] {
        let mut g = rescue_game(&[], "7C 7H JK", true);
        ok(&mut g, 1, rescue(0, natural, "JK"));
        assert_eq!(
            g.deal.table[0].cards,
            cards(&format!("7C 7H {natural}")),
            "{natural}"
        );
        assert_eq!(g.deal.hands[1].count(Card::JOKER), 1);
    }
    // A second 7♣ cannot stand in a set that already has the 7♣ (set-duplicate-suits).
    let mut g = push(&[]);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "7C KC", "9C", "AH"],
            discard: "4D",
            table: &[(0, "7C 7H JK"), (1, "5S 6S 7S")],
            ..Pos::default()
        },
    );
    rejected(&mut g, 1, rescue(0, "7C", "JK"), Reason::RescueNoMatch);
}

#[test]
fn wild_in_set_represents__exact_card_only_the_declared_card_rescues() {
    let readings = [(DisputeId::WildInSetRepresents, "exact-card")];
    let mut g = rescue_game(&readings, "7C 7H JK=7S", true);
    rejected(&mut g, 1, rescue(0, "7D", "JK"), Reason::RescueNoMatch);
    // The 7♦ is an ordinary lay-off instead.
    let mut laid = g.clone();
    ok(&mut laid, 1, lay_off(0, "7D"));
    assert_eq!(laid.deal.table[0].cards, cards("7C 7H JK 7D"));
    // Only the 7♠ takes the joker's place.
    ok(&mut g, 1, rescue(0, "7S", "JK"));
    assert_eq!(g.deal.table[0].cards, cards("7C 7H 7S"));
    assert_hand(&g, 1, "7D JK KC");
}

#[test]
fn rescued_wild_fate__to_hand_keeps_the_wild_in_hand() {
    let mut g = rescue_game(&[], "7C 7H JK", true);
    ok(&mut g, 1, rescue(0, "7D", "JK"));
    assert_hand(&g, 1, "JK 7S KC");
    // The turn goes on and ends with an ordinary discard; the joker stays in hand.
    ok(&mut g, 1, discard("KC"));
    assert_hand(&g, 1, "JK 7S");
}

#[test]
fn rescued_wild_fate__meld_same_turn_wants_the_wild_melded_in_the_same_action() {
    let readings = [(DisputeId::RescuedWildFate, "meld-same-turn")];
    let mut g = rescue_game(&readings, "7C 7H JK", true);
    rejected(
        &mut g,
        1,
        rescue(0, "7D", "JK"),
        Reason::RescuedWildNotMelded,
    );
    // A follow-up that does not use the wild does not count.
    let then_other = Action::Rescue {
        meld: 0,
        natural: c("7D"),
        wild: Card::JOKER,
        then: Some(Box::new(lay_off(0, "7S"))),
    };
    rejected(&mut g, 1, then_other, Reason::RescuedWildNotMelded);
    let then_lay_off = Action::Rescue {
        meld: 0,
        natural: c("7D"),
        wild: Card::JOKER,
        then: Some(Box::new(lay_off_declared(1, "JK", &[("JK", "8S")]))),
    };
    let ev = ok(&mut g, 1, then_lay_off);
    assert_eq!(
        ev,
        vec![
            Event::Rescued {
                seat: 1,
                meld: 0,
                natural: c("7D"),
                wild: c("JK")
            },
            Event::LaidOff {
                seat: 1,
                meld: 1,
                cards: cards("JK").into(),
                joined: None
            },
        ]
    );
    assert_hand(&g, 1, "7S KC");
    assert_eq!(g.deal.table[0].cards, cards("7C 7H 7D"));
    assert_eq!(g.deal.table[1].cards, cards("5S 6S 7S JK"));
}

fn two_game(reading: &str, run: &'static str) -> Game {
    let mut g = push(&[(DisputeId::FrozenTwo, reading)]);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "2H KC", "9C", "AH"],
            discard: "4D",
            table: &[(0, run), (1, "QS QC QD"), (1, "JS JC JD")],
            ..Pos::default()
        },
    );
    g
}

#[test]
fn frozen_two__position_keeps_a_two_in_the_two_place_frozen() {
    let mut g = two_game("position", "AH 2C 3H 4H");
    rejected(&mut g, 1, rescue(0, "2H", "2C"), Reason::RescueFrozen);
    // A joker in the two's place is no two: the 2♥ rescues it.
    let mut g = two_game("position", "AH JK 3H 4H");
    ok(&mut g, 1, rescue(0, "2H", "JK"));
    assert_eq!(g.deal.table[0].cards, cards("AH 2H 3H 4H"));
    assert_hand(&g, 1, "JK KC");
}

#[test]
fn frozen_two__represents_itself_lets_the_natural_two_rescue_a_wild_two() {
    let mut g = two_game("represents-itself", "AH 2C 3H 4H");
    let ev = ok(&mut g, 1, rescue(0, "2H", "2C"));
    assert_eq!(
        ev,
        vec![Event::Rescued {
            seat: 1,
            meld: 0,
            natural: c("2H"),
            wild: c("2C")
        }]
    );
    assert_eq!(g.deal.table[0].cards, cards("AH 2H 3H 4H"));
    assert_hand(&g, 1, "2C KC");
    // The 2♥ now stands for itself and can never be rescued.
    let r = &g.deal.table[0].interps[0].roles;
    assert!(r.iter().any(|x| x.card == c("2H") && x.natural), "{r:?}");
}

#[test]
fn frozen_two__a_two_standing_for_itself_is_frozen_not_unmatched() {
    // The 2♥ of the run stands for itself; seat 1 offers the other 2♥ of the two decks.
    for reading in ["represents-itself", "position"] {
        let mut g = two_game(reading, "AH 2H 3H 4H");
        let e = g.apply(1, &rescue(0, "2H", "2H")).unwrap_err();
        assert_eq!(e.code, Reason::RescueFrozen, "{reading}: {e}");
        assert!(e.message.contains("stands for itself"), "{e}");
        assert!(e.message.contains(&format!("frozen-two={reading}")), "{e}");
        assert_eq!(g.deal.table[0].cards, cards("AH 2H 3H 4H"));
        assert_hand(&g, 1, "2H KC");
    }
}

#[test]
fn rescue_timing__any_time_still_waits_after_a_contract_laid_this_turn_under_next_turn() {
    let mut g = rescue_game(
        &[
            (DisputeId::RescueTiming, "any-time"),
            (DisputeId::ContractTurnExtras, "next-turn"),
        ],
        "7C 7H JK",
        false,
    );
    g.deal.contract_turn = true;
    rejected(&mut g, 1, rescue(0, "7D", "JK"), Reason::NextTurnOnly);
}
