//! Discards: the restrictions on what may be thrown, a hand with no legal discard, and wilds.

use super::*;

fn discard_game(readings: &[(DisputeId, &str)], hand: &str, top: &str) -> Game {
    let mut g = push(readings);
    rig(
        &mut g,
        Pos {
            hands: &["KS", hand, "9C", "AH"],
            discard: top,
            stage: Stage::Draw,
            ..Pos::default()
        },
    );
    ok(&mut g, 1, Action::TakeDiscard);
    g
}

const NO_TWOS: (DisputeId, &str) = (DisputeId::DiscardRestrictions, "no-twos-no-taken-card");

#[test]
fn discard_restrictions__none_lets_a_two_and_the_taken_card_go() {
    let mut g = discard_game(&[], "2C 5S", "KH");
    let ev = ok(&mut g, 1, discard("KH"));
    assert_eq!(
        ev,
        vec![Event::Discarded {
            seat: 1,
            card: c("KH")
        }]
    );
    assert_eq!(g.deal.discard.last(), Some(&c("KH")));
    let mut g = discard_game(&[], "2C 5S", "KH");
    ok(&mut g, 1, discard("2C"));
    assert_hand(&g, 1, "5S KH");
}

#[test]
fn discard_restrictions__no_twos_no_taken_card_refuses_a_two_and_the_taken_card() {
    let mut g = discard_game(&[NO_TWOS], "2C 5S", "KH");
    let m = rejected(&mut g, 1, discard("2C"), Reason::DiscardNotAllowed);
    assert!(m.contains("two"), "{m}");
    let m = rejected(&mut g, 1, discard("KH"), Reason::DiscardNotAllowed);
    assert!(m.contains("taken"), "{m}");
    rejected(&mut g, 1, Action::EndTurn, Reason::MustDiscard);
    ok(&mut g, 1, discard("5S"));
    assert_hand(&g, 1, "2C KH");
}

#[test]
fn discard_restrictions__no_twos_no_taken_card_lets_another_copy_of_the_taken_card_go() {
    let mut g = discard_game(&[NO_TWOS], "2C 5S KH", "KH");
    ok(&mut g, 1, discard("KH"));
    assert_hand(&g, 1, "2C 5S KH");
}

#[test]
fn no_legal_discard__relax_taken_card_then_twos_frees_the_taken_card_first() {
    let mut g = discard_game(&[NO_TWOS], "2C", "KH");
    rejected(&mut g, 1, discard("2C"), Reason::DiscardNotAllowed);
    rejected(&mut g, 1, Action::EndTurn, Reason::MustDiscard);
    ok(&mut g, 1, discard("KH"));
    assert_hand(&g, 1, "2C");
}

#[test]
fn no_legal_discard__relax_taken_card_then_twos_frees_the_twos_last() {
    let mut g = discard_game(&[NO_TWOS], "2C 2D", "2S");
    rejected(&mut g, 1, Action::EndTurn, Reason::MustDiscard);
    ok(&mut g, 1, discard("2C"));
    assert_hand(&g, 1, "2D 2S");
}

#[test]
fn no_legal_discard__no_discard_ends_the_turn_without_a_discard() {
    let readings = [NO_TWOS, (DisputeId::NoLegalDiscard, "no-discard")];
    let mut g = discard_game(&readings, "2C 2D", "2S");
    rejected(&mut g, 1, discard("2C"), Reason::DiscardNotAllowed);
    rejected(&mut g, 1, discard("2S"), Reason::DiscardNotAllowed);
    let ev = ok(&mut g, 1, Action::EndTurn);
    assert_eq!(ev, vec![Event::TurnEnded { seat: 1 }]);
    assert_hand(&g, 1, "2C 2D 2S");
    assert_eq!(g.deal.turn, 2);
    assert_eq!(g.deal.stage, Stage::Draw);
    // The next player finds no discard to take; a push then passes a stock card alone.
    rejected(&mut g, 2, Action::TakeDiscard, Reason::DiscardPileEmpty);
    let ev = ok(&mut g, 2, Action::Push);
    assert!(
        matches!(&ev[0], Event::Pushed { to: 3, discard: None, stock, .. } if stock.len() == 1),
        "{ev:?}"
    );
    // With a taken card only, the taken card stays in hand as well.
    let mut g = discard_game(&readings, "2C", "KH");
    rejected(&mut g, 1, discard("KH"), Reason::DiscardNotAllowed);
    ok(&mut g, 1, Action::EndTurn);
    assert_hand(&g, 1, "2C KH");
}

#[test]
fn discard_wilds__forbidden_in_club_marathon_and_a_hand_of_wilds_ends_the_turn() {
    let mut g = game_of(rules("club-marathon", &[]), 4, 0);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "JK 2C 5S", "9C", "AH"],
            discard: "4D",
            ..Pos::default()
        },
    );
    let m = rejected(&mut g, 1, discard("JK"), Reason::DiscardNotAllowed);
    assert!(m.contains("discard.wilds"), "{m}");
    rejected(&mut g, 1, discard("2C"), Reason::DiscardNotAllowed);
    rejected(&mut g, 1, Action::EndTurn, Reason::MustDiscard);
    ok(&mut g, 1, discard("5S"));
    // Only wilds left (and no-legal-discard=no-discard there): the turn ends without a discard.
    rig(
        &mut g,
        Pos {
            hands: &["KS", "JK 2C", "9C", "AH"],
            discard: "4D",
            ..Pos::default()
        },
    );
    ok(&mut g, 1, Action::EndTurn);
    assert_eq!(g.deal.turn, 2);
    // Push lets the joker go.
    let mut g = push(&[]);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "JK 2C 5S", "9C", "AH"],
            discard: "4D",
            ..Pos::default()
        },
    );
    ok(&mut g, 1, discard("JK"));
}
