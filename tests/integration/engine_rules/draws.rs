//! Draws: taking the discard, the push (who gets the cards, whether the pusher draws, which way
//! they go, from a short or empty stock), and what comes before the draw.

use super::*;

#[test]
fn take_discard__takes_the_top_discard_into_hand() {
    let mut g = push(&[]);
    rig(
        &mut g,
        Pos {
            hands: &["", "5S 6S"],
            discard: "9D KH",
            stage: Stage::Draw,
            ..Pos::default()
        },
    );
    let ev = ok(&mut g, 1, Action::TakeDiscard);
    assert_eq!(
        ev,
        vec![Event::TookDiscard {
            seat: 1,
            card: c("KH")
        }]
    );
    assert_hand(&g, 1, "5S 6S KH");
    assert_eq!(g.deal.discard, cards("9D"));
    assert_eq!(g.deal.taken, Some(c("KH")));
    assert_eq!(g.deal.stage, Stage::Play);
}

fn push_position(g: &mut Game) {
    rig(
        g,
        Pos {
            hands: &["KS", "5S 6S", "9D 9H", "AH"],
            discard: "9S KH",
            stock: "4S 5C",
            stage: Stage::Draw,
            ..Pos::default()
        },
    );
}

#[test]
fn push__gives_top_discard_and_top_stock_card_to_the_left_then_pusher_draws_yes() {
    let mut g = push(&[]);
    push_position(&mut g);
    let stock_before = g.deal.stock.len();
    let ev = ok(&mut g, 1, Action::Push);
    assert_eq!(
        ev,
        vec![
            Event::Pushed {
                seat: 1,
                to: 2,
                discard: Some(c("KH")),
                stock: cards("4S").into(),
                face_up: true,
            },
            Event::Drew {
                seat: 1,
                card: c("5C")
            },
        ]
    );
    assert_hand(&g, 2, "9D 9H KH 4S");
    assert_hand(&g, 1, "5S 6S 5C");
    assert_eq!(g.deal.discard, cards("9S"));
    assert_eq!(g.deal.stock.len(), stock_before - 2);
    assert_eq!(g.deal.stage, Stage::Play);
    assert_eq!(g.deal.turn, 1, "the pusher goes on with his turn");
    assert_eq!(g.deal.last_push, Some((1, 2, cards("4S"), true)));
}

#[test]
fn pusher_draws__no_means_the_push_is_the_draw() {
    let mut g = push(&[(DisputeId::PusherDraws, "no")]);
    push_position(&mut g);
    let ev = ok(&mut g, 1, Action::Push);
    assert_eq!(
        ev,
        vec![Event::Pushed {
            seat: 1,
            to: 2,
            discard: Some(c("KH")),
            stock: cards("4S").into(),
            face_up: true,
        }]
    );
    assert_hand(&g, 1, "5S 6S");
    assert_hand(&g, 2, "9D 9H KH 4S");
    assert_eq!(g.deal.stock.last(), Some(&c("5C")), "5♣ stays on the stock");
    assert_eq!(g.deal.stage, Stage::Play);
    // The push was the whole draw: the turn ends with a discard.
    rejected(&mut g, 1, Action::TakeDiscard, Reason::AlreadyDrew);
    let ev = ok(&mut g, 1, discard("6S"));
    assert_eq!(
        ev,
        vec![Event::Discarded {
            seat: 1,
            card: c("6S")
        }]
    );
    assert_eq!(g.deal.turn, 2);
}

#[test]
fn push_card_visibility__face_down_is_recorded_in_the_pushed_event() {
    let mut g = push(&[(DisputeId::PushCardVisibility, "face-down")]);
    push_position(&mut g);
    let ev = ok(&mut g, 1, Action::Push);
    assert!(
        matches!(
            &ev[0],
            Event::Pushed {
                face_up: false,
                to: 2,
                ..
            }
        ),
        "{ev:?}"
    );
    assert_eq!(g.deal.last_push, Some((1, 2, cards("4S"), false)));
}

#[test]
fn push_to__right_in_a_house_file_sends_the_cards_to_the_previous_seat() {
    let house = "extends: push\ngame: push-right\npush:\n  to: right\n";
    let r = load_text("push-right.yaml", house, Path::new("."))
        .unwrap_or_else(|e| panic!("{}", e.render()))
        .rules;
    let mut g = game_of(r, 4, 0);
    push_position(&mut g);
    let ev = ok(&mut g, 1, Action::Push);
    assert_eq!(
        ev[0],
        Event::Pushed {
            seat: 1,
            to: 0,
            discard: Some(c("KH")),
            stock: cards("4S").into(),
            face_up: true,
        }
    );
    assert_hand(&g, 0, "KS KH 4S");
    assert_hand(&g, 2, "9D 9H");
    assert_hand(&g, 1, "5S 6S 5C");
}

#[test]
fn push_with_one_stock_card__allowed_hand_ends_pushes_then_ends_the_hand_as_a_stock_out() {
    let mut g = push(&[]);
    short_stock_position(&mut g, "4S");
    let ev = ok(&mut g, 1, Action::Push);
    assert_eq!(
        ev[0],
        Event::Pushed {
            seat: 1,
            to: 2,
            discard: Some(c("KH")),
            stock: cards("4S").into(),
            face_up: true,
        }
    );
    assert!(
        !ev.iter().any(|e| matches!(e, Event::Drew { .. })),
        "{ev:?}"
    );
    // Seat 2 got K♥ 4♠ before the end: side 0 = K♠ 10 + 9♦ K♥ 4♠ 20; side 1 = 5♠ 5 + A♥ 15.
    let (reason, points, totals) = hand_ended(&ev);
    assert_eq!(reason, "the stock ran out");
    assert_eq!(points, vec![30, 20]);
    assert_eq!(totals, vec![30, 20]);
    assert_eq!(g.results[0].end, HandEnd::StockOut);
    assert_eq!(g.round, 1, "the next deal has begun");
}

#[test]
fn push_with_one_stock_card__allowed_hand_ends_scores_nothing_under_nobody_scores() {
    let mut g = push(&[(DisputeId::StockOut, "hand-ends-nobody-scores")]);
    short_stock_position(&mut g, "4S");
    let ev = ok(&mut g, 1, Action::Push);
    let (_, points, totals) = hand_ended(&ev);
    assert_eq!(points, vec![0, 0]);
    assert_eq!(totals, vec![0, 0]);
    assert_eq!(g.results[0].end, HandEnd::StockOut);
}

#[test]
fn push_with_one_stock_card__allowed_with_pusher_draws_no_the_hand_goes_on() {
    let mut g = push(&[(DisputeId::PusherDraws, "no")]);
    short_stock_position(&mut g, "4S");
    let ev = ok(&mut g, 1, Action::Push);
    assert_eq!(ev.len(), 1, "{ev:?}");
    assert!(g.deal.stock.is_empty());
    assert_hand(&g, 2, "9D KH 4S");
    assert_eq!(g.round, 0);
    assert_eq!(g.deal.stage, Stage::Play);
}

#[test]
fn push_with_one_stock_card__forbidden_refuses_the_push_and_the_discard_must_be_taken() {
    let mut g = push(&[(DisputeId::PushWithOneStockCard, "forbidden")]);
    short_stock_position(&mut g, "4S");
    rejected(&mut g, 1, Action::Push, Reason::PushNotAllowed);
    let ev = ok(&mut g, 1, Action::TakeDiscard);
    assert_eq!(
        ev,
        vec![Event::TookDiscard {
            seat: 1,
            card: c("KH")
        }]
    );
    assert_hand(&g, 1, "5S KH");
    assert_eq!(g.deal.stock, cards("4S"));
}

#[test]
fn push_with_one_stock_card__forbidden_still_allows_a_push_from_two_stock_cards() {
    let mut g = push(&[(DisputeId::PushWithOneStockCard, "forbidden")]);
    short_stock_position(&mut g, "4S 5C");
    let ev = ok(&mut g, 1, Action::Push);
    assert!(no_hand_end(&ev), "{ev:?}");
    assert_hand(&g, 1, "5S 5C");
    assert!(g.deal.stock.is_empty());
}

#[test]
fn push__from_an_empty_stock_ends_the_hand_and_everyone_scores() {
    let mut g = push(&[]);
    short_stock_position(&mut g, "");
    let ev = ok(&mut g, 1, Action::Push);
    // Nothing was pushed: the hand ended on the wish to draw. Side 0: K♠ + 9♦ = 15; side 1: 5♠ + A♥ = 20.
    assert!(
        !ev.iter().any(|e| matches!(e, Event::Pushed { .. })),
        "{ev:?}"
    );
    let (reason, points, totals) = hand_ended(&ev);
    assert_eq!(reason, "the stock ran out");
    assert_eq!(points, vec![15, 20]);
    assert_eq!(totals, vec![15, 20]);
    assert_eq!(g.results[0].end, HandEnd::StockOut);
}

#[test]
fn push__from_an_empty_stock_is_refused_under_forbidden() {
    let mut g = push(&[(DisputeId::PushWithOneStockCard, "forbidden")]);
    short_stock_position(&mut g, "");
    rejected(&mut g, 1, Action::Push, Reason::PushNotAllowed);
    ok(&mut g, 1, Action::TakeDiscard);
}

#[test]
fn draw__a_second_draw_is_already_drew() {
    let mut g = push(&[]);
    push_position(&mut g);
    ok(&mut g, 1, Action::TakeDiscard);
    rejected(&mut g, 1, Action::TakeDiscard, Reason::AlreadyDrew);
    rejected(&mut g, 1, Action::Push, Reason::AlreadyDrew);
    let mut g = push(&[]);
    push_position(&mut g);
    ok(&mut g, 1, Action::Push);
    rejected(&mut g, 1, Action::Push, Reason::AlreadyDrew);
    rejected(&mut g, 1, Action::TakeDiscard, Reason::AlreadyDrew);
}

#[test]
fn draw__there_is_no_plain_draw_from_the_stock() {
    let mut g = push(&[]);
    push_position(&mut g);
    rejected(&mut g, 1, Action::DrawStock, Reason::NoPlainDraw);
}

#[test]
fn draw__before_the_draw_every_other_action_is_must_draw_first() {
    let mut g = push(&[]);
    rig(
        &mut g,
        Pos {
            hands: &["", "7S 7H 7D 9S 9H 9D 8S"],
            discard: "KH",
            table: &[(1, "5S 6S 7S")],
            stage: Stage::Draw,
            ..Pos::default()
        },
    );
    rejected(
        &mut g,
        1,
        melds(&["7S 7H 7D", "9S 9H 9D"]),
        Reason::MustDrawFirst,
    );
    rejected(&mut g, 1, lay_off(0, "8S"), Reason::MustDrawFirst);
    rejected(&mut g, 1, discard("8S"), Reason::MustDrawFirst);
    rejected(&mut g, 1, Action::EndTurn, Reason::MustDrawFirst);
}

#[test]
fn turn__another_seat_may_not_play_is_not_your_turn() {
    let mut g = push(&[]);
    push_position(&mut g);
    rejected(&mut g, 2, Action::TakeDiscard, Reason::NotYourTurn);
    rejected(&mut g, 0, Action::Push, Reason::NotYourTurn);
    ok(&mut g, 1, Action::TakeDiscard);
    rejected(&mut g, 2, discard("9D"), Reason::NotYourTurn);
    ok(&mut g, 1, discard("KH"));
    assert_eq!(g.turn(), 2, "play goes clockwise");
}
