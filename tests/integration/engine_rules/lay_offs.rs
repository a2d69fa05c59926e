//! Lay-offs: extending runs and sets, the largest set, and runs joined or split.

use super::*;

#[test]
fn lay_off__extends_a_run_at_either_end_but_not_past_a_gap() {
    let mut g = push(&[]);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "4S 8S 10S KC", "9C", "AH"],
            discard: "4D",
            table: &[(1, "5S 6S 7S"), (1, "QS QC QD")],
            ..Pos::default()
        },
    );
    let before = g.clone();
    let stamps = |g: &Game| -> Vec<u64> { g.deal.table.iter().map(|m| m.stamp()).collect() };
    let ev = ok(&mut g, 1, lay_off(0, "4S"));
    assert_eq!(
        ev,
        vec![Event::LaidOff {
            seat: 1,
            meld: 0,
            cards: cards("4S").into(),
            joined: None
        }]
    );
    // The meld changes in place in this game only: a copy taken before keeps the old one.
    assert_eq!(before.deal.table[0].cards, cards("5S 6S 7S"));
    // The card laid off at the low end is listed last: the order of laying, not of ranks.
    assert_eq!(g.deal.table[0].cards, cards("5S 6S 7S 4S"));
    // A changed meld has a new stamp (what the greedy player's memory goes by), the others keep
    // theirs; equality is about the meld, not its stamp.
    let (old, new) = (stamps(&before), stamps(&g));
    assert_ne!(old[0], new[0]);
    assert_eq!(old[1], new[1]);
    let mut restamped = (*g.deal.table[1]).clone();
    restamped.restamp();
    assert_ne!(restamped.stamp(), g.deal.table[1].stamp());
    assert_eq!(restamped, *g.deal.table[1]);
    assert_ne!(*before.deal.table[0], *g.deal.table[0]);
    // Nor does `Debug` show it: the same text for the same meld, in any run.
    let text = format!("{restamped:?}");
    assert_eq!(text, format!("{:?}", g.deal.table[1]));
    assert!(
        text.contains("owner: 1") && text.contains("interps"),
        "{text}"
    );
    ok(&mut g, 1, lay_off(0, "8S"));
    assert_eq!(g.deal.table[0].cards, cards("5S 6S 7S 4S 8S"));
    let kept = stamps(&g);
    rejected(&mut g, 1, lay_off(0, "10S"), Reason::InvalidLayOff);
    rejected(&mut g, 1, lay_off(5, "10S"), Reason::NoSuchMeld);
    assert_eq!(stamps(&g), kept, "a refused lay-off changes no meld");
    assert_hand(&g, 1, "10S KC");
}

/// Listing a wild's lay-off forms remembers the meld's extension for the lay-off that follows;
/// each form then changes the game exactly as in a copy, which remembers nothing.
#[test]
fn lay_off__a_listed_form_applies_as_in_a_copy_that_remembers_nothing() {
    for declaration in ["when-ambiguous", "always", "never"] {
        let mut g = push(&[(DisputeId::WildDeclaration, declaration)]);
        rig(
            &mut g,
            Pos {
                hands: &["KS", "JK 2C KC", "9C", "AH"],
                discard: "4D",
                table: &[(1, "5S 6S 7S"), (1, "QS QC QD")],
                ..Pos::default()
            },
        );
        let mut applied = 0;
        for wild in ["JK", "2C"] {
            for m in 0..2 {
                for form in g.lay_off_forms(m, c(wild), None) {
                    let mut fresh = g.clone();
                    let mut listed = g.clone();
                    assert!(listed.lay_off_forms(m, c(wild), None).contains(&form));
                    let (a, b) = (listed.apply(1, &form), fresh.apply(1, &form));
                    assert_eq!(a, b, "{declaration}: {form:?}");
                    assert_eq!(listed.deal, fresh.deal, "{declaration}: {form:?}");
                    applied += usize::from(a.is_ok());
                }
            }
        }
        assert!(applied >= 3, "{declaration}: {applied} forms applied");
    }
}

#[test]
fn lay_off__two_cards_at_both_ends_in_one_action() {
    let mut g = push(&[]);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "4S 8S KC", "9C", "AH"],
            discard: "4D",
            table: &[(1, "5S 6S 7S"), (1, "QS QC QD")],
            ..Pos::default()
        },
    );
    let ev = ok(&mut g, 1, lay_off(0, "4S 8S"));
    assert_eq!(
        ev,
        vec![Event::LaidOff {
            seat: 1,
            meld: 0,
            cards: cards("4S 8S").into(),
            joined: None
        }]
    );
    assert_eq!(g.deal.table[0].cards, cards("5S 6S 7S 4S 8S"));
    assert_eq!(g.deal.table[0].interps.len(), 1);
}

/// A table meld keeps its cards in the order they were laid: a meld's in the order the action
/// lists them, each lay-off's appended, at whichever end of the run it goes (the `melded` event
/// still lists the cards in canonical order).
#[test]
fn lay_off__a_meld_keeps_the_order_its_cards_were_laid_in() {
    let mut g = push(&[]);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "7H JK 9H 6H 10H KC", "9C", "AH"],
            discard: "4D",
            table: &[(1, "QS QC QD")],
            ..Pos::default()
        },
    );
    let ev = ok(&mut g, 1, meld("7H JK 9H"));
    assert_eq!(
        ev,
        vec![Event::Melded {
            seat: 1,
            meld: 1,
            cards: sorted("7H JK 9H").as_slice().into(),
            contract: false
        }]
    );
    assert_eq!(g.deal.table[1].cards, cards("7H JK 9H"));
    ok(&mut g, 1, lay_off(1, "6H"));
    assert_eq!(g.deal.table[1].cards, cards("7H JK 9H 6H"));
    ok(&mut g, 1, lay_off(1, "10H"));
    assert_eq!(g.deal.table[1].cards, cards("7H JK 9H 6H 10H"));
    assert_eq!(g.deal.table[1].interps.len(), 1);
    assert_eq!(g.deal.table[1].interps[0].describe(), "run 6♥–10♥");
}

#[test]
fn lay_off__onto_an_opponents_meld_after_ones_own_contract() {
    let mut g = push(&[]);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "8S KC", "9C", "AH"],
            discard: "4D",
            table: &[(0, "5S 6S 7S"), (1, "QS QC QD"), (1, "JS JC JD")],
            ..Pos::default()
        },
    );
    ok(&mut g, 1, lay_off(0, "8S"));
    assert_eq!(g.deal.table[0].owner, 0, "the meld stays its owner's");
    assert_eq!(g.deal.table[0].cards, cards("5S 6S 7S 8S"));
}

fn set_game(readings: &[(DisputeId, &str)]) -> Game {
    let mut g = push(readings);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "7C JK KC", "9C", "AH"],
            discard: "4D",
            table: &[(1, "7S 7H 7D"), (1, "QS QC QD")],
            ..Pos::default()
        },
    );
    g
}

#[test]
fn set_max_size__4_takes_a_fourth_card_and_refuses_a_fifth() {
    let mut g = set_game(&[]);
    ok(&mut g, 1, lay_off(0, "7C"));
    assert_eq!(g.deal.table[0].cards.len(), 4);
    rejected(&mut g, 1, lay_off(0, "JK"), Reason::InvalidLayOff);
}

#[test]
fn set_max_size__unlimited_takes_a_fifth_card() {
    let mut g = set_game(&[(DisputeId::SetMaxSize, "unlimited")]);
    ok(&mut g, 1, lay_off(0, "7C"));
    ok(&mut g, 1, lay_off(0, "JK"));
    assert_eq!(g.deal.table[0].cards, cards("7S 7H 7D 7C JK"));
}

fn join_game(readings: &[(DisputeId, &str)], table: &'static [(u8, &'static str)]) -> Game {
    let mut g = push(readings);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "6H KC", "9C", "AH"],
            discard: "4D",
            table,
            ..Pos::default()
        },
    );
    g
}

fn join(meld: usize, s: &str, j: usize) -> Action {
    Action::LayOff {
        meld,
        cards: cards(s).into(),
        declared: vec![],
        join: Some(j),
    }
}

#[test]
fn run_join_split__join_allowed_joins_two_runs_into_one() {
    let mut g = join_game(
        &[(DisputeId::RunJoinSplit, "join-allowed")],
        &[(1, "3H 4H 5H"), (1, "7H 8H 9H")],
    );
    let ev = ok(&mut g, 1, join(0, "6H", 1));
    assert_eq!(
        ev,
        vec![Event::LaidOff {
            seat: 1,
            meld: 0,
            cards: cards("6H").into(),
            joined: Some(1)
        }]
    );
    assert_eq!(g.deal.table.len(), 1);
    assert_eq!(g.deal.table[0].cards, cards("3H 4H 5H 6H 7H 8H 9H"));
    assert_eq!(g.deal.table[0].interps.len(), 1);
    assert_hand(&g, 1, "KC");
}

#[test]
fn run_join_split__never_refuses_a_join_but_extends_an_end() {
    let mut g = join_game(&[], &[(1, "3H 4H 5H"), (1, "7H 8H 9H")]);
    rejected(&mut g, 1, join(0, "6H", 1), Reason::JoinNotAllowed);
    ok(&mut g, 1, lay_off(0, "6H"));
    assert_eq!(g.deal.table.len(), 2);
    assert_eq!(g.deal.table[0].cards, cards("3H 4H 5H 6H"));
}

#[test]
fn run_join_split__join_allowed_onto_the_later_meld_leaves_one_run() {
    // The target is the later meld and the earlier one is joined into it: the earlier meld's
    // number goes away, so the joined run ends up as meld 0.
    let mut g = join_game(
        &[(DisputeId::RunJoinSplit, "join-allowed")],
        &[(1, "7H 8H 9H"), (1, "3H 4H 5H"), (1, "QS QC QD")],
    );
    let ev = ok(&mut g, 1, join(1, "6H", 0));
    assert_eq!(g.deal.table.len(), 2);
    let joined = g
        .deal
        .table
        .iter()
        .position(|m| m.cards == cards("3H 4H 5H 6H 7H 8H 9H"))
        .expect("the joined run is on the table");
    assert_eq!(joined, 0);
    assert_eq!(g.deal.table[1].cards, cards("QS QC QD"));
    assert_eq!(
        ev,
        vec![Event::LaidOff {
            seat: 1,
            meld: 0,
            cards: cards("6H").into(),
            joined: Some(0)
        }],
        "the event names the joined run by its number after the join, and the number the other run had"
    );
}

#[test]
fn run_join_split__join_allowed_joins_runs_only() {
    let mut g = join_game(
        &[(DisputeId::RunJoinSplit, "join-allowed")],
        &[(1, "3H 4H 5H"), (1, "7S 7D 7C")],
    );
    rejected(&mut g, 1, join(0, "6H", 1), Reason::InvalidLayOff);
    rejected(&mut g, 1, join(0, "6H", 0), Reason::NoSuchMeld);
}
