//! Buying out of turn (`buying`): the player on turn declines the top discard by drawing from the
//! stock, the other seats are asked in turn order, the first who buys takes the discard and the
//! penalty cards, and the player on turn plays on.

use super::*;
use push_rummy::base::card::CardList;
use push_rummy::rules::Buying;

/// Four-player Push with buying: `penalty` cards, `per_hand` buys, `when_down`.
fn buying(penalty: u8, per_hand: Option<u8>, when_down: bool) -> Game {
    let mut r = rules("push", &[]);
    r.buying = Some(Buying {
        penalty_cards: penalty,
        per_hand,
        when_down,
    });
    game_of(r, 4, 0)
}

/// Seat 1 to draw, the 9C on the discard pile, `stock` on top of the stock.
fn at_draw(g: &mut Game, stock: &str) {
    rig(
        g,
        Pos {
            hands: &["3S 3H 8D", "4H 4C 7S", "5S 5H 10D", "9S 9H 6C"],
            discard: "10S 9C",
            stock,
            stage: Stage::Draw,
            ..Pos::default()
        },
    );
}

#[test]
fn buying__absent_there_is_no_plain_draw_and_nothing_to_buy() {
    let mut g = push(&[]);
    at_draw(&mut g, "4D");
    rejected(&mut g, 1, Action::DrawStock, Reason::NoPlainDraw);
    rejected(&mut g, 2, Action::Buy, Reason::BuyingNotAllowed);
    rejected(&mut g, 1, Action::Pass, Reason::BuyingNotAllowed);
    ok(&mut g, 1, Action::Push);
}

#[test]
fn buying__replaces_the_push() {
    let mut g = buying(1, None, true);
    at_draw(&mut g, "4D");
    rejected(&mut g, 1, Action::Push, Reason::PushNotAllowed);
    assert!(!g.legal_actions().contains(&Action::Push));
    assert!(g.legal_actions().contains(&Action::DrawStock));
}

#[test]
fn buying__draw_stock_opens_a_window_at_the_next_seat() {
    let mut g = buying(1, None, true);
    at_draw(&mut g, "4D 5D");
    rejected(&mut g, 2, Action::Buy, Reason::NoBuyWindow);
    let ev = ok(&mut g, 1, Action::DrawStock);
    assert_eq!(
        ev,
        vec![Event::Drew {
            seat: 1,
            card: c("4D")
        }]
    );
    assert_eq!(
        (g.deal.stage, g.turn(), g.deal.window),
        (Stage::Buy, 2, Some(1))
    );
    assert_eq!(g.legal_actions(), vec![Action::Buy, Action::Pass]);
    rejected(&mut g, 2, Action::TakeDiscard, Reason::MustBuyOrPass);
    rejected(&mut g, 2, Action::Discard(c("5S")), Reason::MustBuyOrPass);
    rejected(&mut g, 1, Action::Discard(c("4D")), Reason::NotYourTurn);
    rejected(&mut g, 1, Action::Buy, Reason::NoBuyWindow);
    rejected(&mut g, 3, Action::Buy, Reason::NotYourTurn);
    rejected(&mut g, 3, Action::Pass, Reason::NotYourTurn);
}

#[test]
fn buying__a_buy_takes_the_discard_then_the_penalty_cards_from_the_top() {
    let mut g = buying(2, None, true);
    at_draw(&mut g, "4D 5D 6D 7D");
    ok(&mut g, 1, Action::DrawStock);
    assert_eq!(ok(&mut g, 2, Action::Pass), vec![Event::Passed { seat: 2 }]);
    let ev = ok(&mut g, 3, Action::Buy);
    assert_eq!(
        ev,
        vec![Event::Bought {
            seat: 3,
            card: c("9C"),
            stock: cards("5D 6D").into(),
        }]
    );
    assert_hand(&g, 3, "9S 9H 6C 9C 5D 6D");
    assert_eq!(g.deal.discard, cards("10S"));
    assert_eq!(g.deal.stock.last(), Some(&c("7D")));
    assert_eq!(
        (g.deal.stage, g.turn(), g.deal.window),
        (Stage::Play, 1, None)
    );
    assert_eq!(g.deal.buys, vec![0, 0, 0, 1]);
    ok(&mut g, 1, Action::Discard(c("4D")));
    assert_eq!((g.deal.stage, g.turn()), (Stage::Draw, 2));
}

#[test]
fn buying__when_every_seat_passes_the_discard_stays_and_the_player_on_turn_plays_on() {
    let mut g = buying(1, None, true);
    at_draw(&mut g, "4D");
    ok(&mut g, 1, Action::DrawStock);
    for s in [2, 3, 0] {
        ok(&mut g, s, Action::Pass);
    }
    assert_eq!(
        (g.deal.stage, g.turn(), g.deal.window),
        (Stage::Play, 1, None)
    );
    assert_eq!(g.deal.discard, cards("10S 9C"));
    rejected(&mut g, 1, Action::TakeDiscard, Reason::AlreadyDrew);
}

#[test]
fn buying__penalty_cards_0_buys_the_discard_alone() {
    let mut g = buying(0, None, true);
    at_draw(&mut g, "4D 5D");
    ok(&mut g, 1, Action::DrawStock);
    let ev = ok(&mut g, 2, Action::Buy);
    assert_eq!(
        ev,
        vec![Event::Bought {
            seat: 2,
            card: c("9C"),
            stock: CardList::default(),
        }]
    );
    assert_eq!(g.deal.stock.last(), Some(&c("5D")));
}

#[test]
fn buying__no_window_without_a_discard_or_without_the_penalty_cards_in_the_stock() {
    // The stock's one card is the player on turn's draw: nothing is left to pay a buy with.
    let mut g = buying(1, None, true);
    short_stock_position(&mut g, "4D");
    ok(&mut g, 1, Action::DrawStock);
    assert_eq!((g.deal.stage, g.turn()), (Stage::Play, 1));
    rejected(&mut g, 2, Action::Buy, Reason::NoBuyWindow);
    // An empty discard pile: nothing to buy.
    let mut g = buying(1, None, true);
    at_draw(&mut g, "4D");
    let mut discard = std::mem::take(&mut g.deal.discard);
    g.deal.stock.append(&mut discard);
    ok(&mut g, 1, Action::DrawStock);
    assert_eq!((g.deal.stage, g.turn()), (Stage::Play, 1));
}

#[test]
fn buying__draw_stock_from_an_empty_stock_ends_the_hand_and_buys_start_again() {
    let mut g = buying(1, Some(2), true);
    short_stock_position(&mut g, "");
    g.deal.buys = vec![2, 1, 0, 0];
    let ev = ok(&mut g, 1, Action::DrawStock);
    let (reason, _, _) = hand_ended(&ev);
    assert_eq!(reason, "the stock ran out");
    assert_eq!(g.deal.buys, vec![0; 4], "a new deal counts buys from zero");
}

#[test]
fn buying__per_hand_skips_a_seat_whose_buys_are_used_up() {
    let mut g = buying(1, Some(1), true);
    at_draw(&mut g, "4D 5D");
    g.deal.buys = vec![0, 0, 1, 0];
    ok(&mut g, 1, Action::DrawStock);
    assert_eq!(
        g.turn(),
        3,
        "seat 2 has made its one buy: seat 3 is asked first"
    );
    rejected(&mut g, 2, Action::Buy, Reason::BuyLimit);
    ok(&mut g, 3, Action::Pass);
    ok(&mut g, 0, Action::Pass);
    assert_eq!((g.deal.stage, g.turn()), (Stage::Play, 1));
}

#[test]
fn buying__when_down_forbidden_skips_a_seat_that_met_its_contract() {
    let mut g = buying(1, None, false);
    rig(
        &mut g,
        Pos {
            hands: &["3S 3H 8D", "4H 4C 7S", "10D", "9S 9H 6C"],
            discard: "10S 9C",
            stock: "4D 5D",
            table: &[(2, "5S 5H 5C"), (2, "QS QH QC")],
            stage: Stage::Draw,
            ..Pos::default()
        },
    );
    ok(&mut g, 1, Action::DrawStock);
    assert_eq!(g.turn(), 3);
    rejected(&mut g, 2, Action::Buy, Reason::BuyWhenDown);
    // Allowed when down, seat 2 is asked first.
    let mut g = buying(1, None, true);
    rig(
        &mut g,
        Pos {
            hands: &["3S 3H 8D", "4H 4C 7S", "10D", "9S 9H 6C"],
            discard: "10S 9C",
            stock: "4D 5D",
            table: &[(2, "5S 5H 5C"), (2, "QS QH QC")],
            stage: Stage::Draw,
            ..Pos::default()
        },
    );
    ok(&mut g, 1, Action::DrawStock);
    assert_eq!(g.turn(), 2);
}

#[test]
fn buying__a_refused_buy_or_pass_changes_nothing() {
    let mut g = buying(1, Some(1), true);
    at_draw(&mut g, "4D 5D");
    ok(&mut g, 1, Action::DrawStock);
    let before = g.deal.clone();
    for (seat, a) in [
        (3, Action::Buy),
        (0, Action::Pass),
        (1, Action::Buy),
        (2, Action::EndTurn),
    ] {
        assert!(g.apply(seat, &a).is_err(), "{a} by {seat}");
        assert!(!g.accepts(seat, &a));
    }
    assert_eq!(g.deal, before);
}
