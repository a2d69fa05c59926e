//! Going out and scoring: how a player goes out, what each side scores, and partnerships.

use super::*;

#[test]
fn going_out__by_discarding_the_last_card_the_partner_scores_nothing_and_opponents_both_hands() {
    let mut g = push(&[]);
    going_out_game(&mut g, "5C");
    let ev = ok(&mut g, 1, discard("5C"));
    assert_eq!(
        &ev[..2],
        &[
            Event::Discarded {
                seat: 1,
                card: c("5C")
            },
            Event::WentOut { seat: 1 }
        ]
    );
    // Side 0: K♠ 10 + 2♣ 20 + JK 20 + 9♦ 5 = 55; side 1 (seat 1 out, partner seat 3 with Q♥ Q♦): 0.
    let (reason, points, totals) = hand_ended(&ev);
    assert_eq!(reason, "seat 1 went out");
    assert_eq!(points, vec![55, 0]);
    assert_eq!(totals, vec![55, 0]);
    let [result] = &g.results[..] else {
        panic!("one hand ended: {:?}", g.results)
    };
    assert_eq!(result.end, HandEnd::WentOut(1));
    assert_eq!(result.points, vec![55, 0]);
    // The hands as the hand ended, which the points were counted from.
    let held: Vec<String> = result
        .hands
        .iter()
        .map(|h| push_rummy::base::card::format_cards(&h.cards()))
        .collect();
    assert_eq!(held[1], "");
    assert_eq!(held[3], "QH QD");
}

#[test]
fn two_penalty_value__15_counts_a_two_left_in_hand_at_15() {
    let mut g = push(&[(DisputeId::TwoPenaltyValue, "15")]);
    going_out_game(&mut g, "5C");
    let ev = ok(&mut g, 1, discard("5C"));
    let (_, points, _) = hand_ended(&ev);
    assert_eq!(points, vec![50, 0], "the 2♣ costs 15, the joker still 20");
}

#[test]
fn going_out__meld_or_discard_lets_a_player_meld_or_lay_off_his_last_cards() {
    let mut g = push(&[]);
    going_out_game(&mut g, "QS QC QD");
    let ev = ok(&mut g, 1, meld("QS QC QD"));
    assert_eq!(
        &ev[..2],
        &[
            Event::Melded {
                seat: 1,
                meld: 2,
                cards: cards("QS QD QC").into(),
                contract: false
            },
            Event::WentOut { seat: 1 }
        ]
    );
    assert_eq!(hand_ended(&ev).1, vec![55, 0]);
    let mut g = push(&[]);
    going_out_game(&mut g, "8S");
    let ev = ok(&mut g, 1, lay_off(0, "8S"));
    assert!(matches!(ev[1], Event::WentOut { seat: 1 }), "{ev:?}");
    assert_eq!(g.results[0].end, HandEnd::WentOut(1));
}

#[test]
fn going_out__discard_only_refuses_melding_the_last_card() {
    let mut g = push(&[(DisputeId::GoingOut, "discard-only")]);
    going_out_game(&mut g, "QS QC QD");
    rejected(&mut g, 1, meld("QS QC QD"), Reason::GoingOutByDiscardOnly);
    let mut g = push(&[(DisputeId::GoingOut, "discard-only")]);
    going_out_game(&mut g, "8S");
    rejected(&mut g, 1, lay_off(0, "8S"), Reason::GoingOutByDiscardOnly);
    // Keeping a card back, the player melds and then goes out by discarding it.
    let mut g = push(&[(DisputeId::GoingOut, "discard-only")]);
    going_out_game(&mut g, "QS QC QD 5C");
    ok(&mut g, 1, meld("QS QC QD"));
    let ev = ok(&mut g, 1, discard("5C"));
    assert!(matches!(ev[1], Event::WentOut { seat: 1 }), "{ev:?}");
}

#[test]
fn scoring__cap_it_scores_every_player_alone() {
    let mut g = game_of(rules("cap-it", &[]), 3, 0);
    assert_eq!(g.sides, 3);
    rig(
        &mut g,
        Pos {
            hands: &["KS 2C", "5C", "JK 9D"],
            discard: "4D",
            table: &[(1, "5S 6S 7S"), (1, "JS JC JD")],
            ..Pos::default()
        },
    );
    let ev = ok(&mut g, 1, discard("5C"));
    let (_, points, totals) = hand_ended(&ev);
    assert_eq!(points, vec![30, 0, 25]);
    assert_eq!(totals, vec![30, 0, 25]);
}

fn six_ten_four(partnerships: &str) -> (Vec<u32>, Game) {
    let mut g = game_of(
        rules(
            "six-to-ten",
            &[(DisputeId::SixTenPartnerships, partnerships)],
        ),
        4,
        0,
    );
    rig(
        &mut g,
        Pos {
            hands: &["KS", "5C", "9D 9H", "AH"],
            discard: "4D",
            table: &[(1, "5S 6S 7S"), (1, "JS JC JD")],
            ..Pos::default()
        },
    );
    let ev = ok(&mut g, 1, discard("5C"));
    (hand_ended(&ev).1, g)
}

#[test]
fn six_ten_partnerships__none_scores_each_of_four_players_alone() {
    let (points, g) = six_ten_four("none");
    assert_eq!(g.sides, 4);
    assert_eq!(points, vec![10, 0, 10, 15]);
}

#[test]
fn six_ten_partnerships__across_scores_opposite_partners_together() {
    let (points, g) = six_ten_four("across");
    assert_eq!(g.sides, 2);
    assert_eq!(g.side_of, vec![0, 1, 0, 1]);
    // Seat 1 went out: its partner's A♥ does not count; seats 0 and 2 score 10 + 10.
    assert_eq!(points, vec![20, 0]);
}
