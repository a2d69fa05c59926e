//! Stock-out and stalls: a hand that ends with the stock empty or after too many idle turns.

use super::*;

#[test]
fn stock_out__hand_ends_nobody_scores_ends_the_hand_with_no_points() {
    let mut g = push(&[(DisputeId::StockOut, "hand-ends-nobody-scores")]);
    short_stock_position(&mut g, "");
    let ev = ok(&mut g, 1, Action::Push);
    let (reason, points, totals) = hand_ended(&ev);
    assert_eq!(reason, "the stock ran out");
    assert_eq!(points, vec![0, 0]);
    assert_eq!(totals, vec![0, 0]);
}

#[test]
fn stall_limit__ends_the_hand_after_the_limit_of_turns_without_table_play() {
    let mut g = push(&[]);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "5S", "9D", "AH"],
            discard: "KH",
            stage: Stage::Draw,
            ..Pos::default()
        },
    );
    g.deal.stall = 198;
    let ev = pass(&mut g, 1);
    assert!(no_hand_end(&ev), "{ev:?}");
    assert_eq!(g.deal.stall, 199);
    let ev = pass(&mut g, 2);
    let (reason, points, _) = hand_ended(&ev);
    assert_eq!(
        reason,
        "200 turns in a row without a card reaching the table"
    );
    // Scored as a stock-out: everybody scores. Side 0: K♠ 10 + 9♦ 5; side 1: 5♠ 5 + A♥ 15.
    assert_eq!(points, vec![15, 20]);
    assert_eq!(g.results[0].end, HandEnd::Stalled);
}

#[test]
fn stall_limit__a_house_file_limit_of_2_ends_the_hand_after_two_idle_turns() {
    let house = "extends: push\ngame: push-stall-2\nstock:\n  stall-limit: 2\n";
    let r = load_text("stall.yaml", house, Path::new("."))
        .unwrap_or_else(|e| panic!("{}", e.render()))
        .rules;
    assert_eq!(r.stall_limit, 2);
    let mut g = game_of(r, 4, 0);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "5S", "9D", "AH"],
            discard: "KH",
            stage: Stage::Draw,
            ..Pos::default()
        },
    );
    assert!(no_hand_end(&pass(&mut g, 1)));
    let ev = pass(&mut g, 2);
    assert_eq!(
        hand_ended(&ev).0,
        "2 turns in a row without a card reaching the table"
    );
    assert_eq!(g.results[0].end, HandEnd::Stalled);
}

#[test]
fn stall_limit__a_card_reaching_the_table_resets_the_count() {
    let house = "extends: push\ngame: push-stall-2\nstock:\n  stall-limit: 2\n";
    let r = load_text("stall.yaml", house, Path::new("."))
        .unwrap()
        .rules;
    let mut g = game_of(r, 4, 0);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "5S", "8H 9D", "AH"],
            discard: "KH",
            table: &[(2, "5H 6H 7H"), (2, "JS JC JD")],
            stage: Stage::Draw,
            ..Pos::default()
        },
    );
    pass(&mut g, 1);
    ok(&mut g, 2, Action::TakeDiscard);
    ok(&mut g, 2, lay_off(0, "8H"));
    let ev = ok(&mut g, 2, discard("KH"));
    assert!(no_hand_end(&ev), "{ev:?}");
    assert_eq!(g.deal.stall, 0);
}
