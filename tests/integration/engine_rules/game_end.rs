//! The end of the game: the lowest total wins, and ties.

use super::*;

/// Push at its last deal with earlier results `prior` (totals kept equal to their sum); seat
/// `out` goes out by discarding 5♣ while side 0 keeps `side0` and side 1 keeps `side1` in hand.
fn last_hand(ties: &str, prior: &[[i64; 2]], out: u8, side0: &str, side1: &str) -> Vec<Event> {
    let mut g = push(&[(DisputeId::Ties, ties)]);
    g.round = g.rules.rounds.len() - 1;
    g.results = Arc::new(
        prior
            .iter()
            .map(|p| HandResult {
                end: HandEnd::WentOut(0),
                points: p.to_vec(),
                hands: Vec::new(),
            })
            .collect(),
    );
    g.totals = (0..2).map(|s| prior.iter().map(|p| p[s]).sum()).collect();
    let mut hands = [side0, side1, "", ""];
    hands[usize::from(out)] = "5C";
    rig(
        &mut g,
        Pos {
            hands: &hands,
            discard: "4D",
            table: &[(out, "5S 6S 7S 8S 9S"), (out, "5H 6H 7H 8H 9H")],
            turn: out,
            ..Pos::default()
        },
    );
    let ev = ok(&mut g, out, discard("5C"));
    assert!(g.is_over());
    rejected(&mut g, out, Action::TakeDiscard, Reason::GameOver);
    ev
}

fn game_ended(ev: &[Event]) -> (Vec<u8>, Vec<i64>) {
    match ev.last() {
        Some(Event::GameEnded { winners, totals }) => (winners.clone(), totals.clone()),
        e => panic!("the game ended last: {e:?}"),
    }
}

#[test]
fn game_end__the_lowest_total_wins() {
    // Seat 1 goes out; side 0 keeps K♠ Q♠ (20): totals 60 + 20 = 80 against 70.
    let ev = last_hand("shared", &[[40, 0], [20, 70]], 1, "KS QS", "");
    assert_eq!(game_ended(&ev), (vec![1], vec![80, 70]));
    // Seat 0 goes out; side 1 keeps K♠ (10): 60 against 80.
    let ev = last_hand("shared", &[[40, 0], [20, 70]], 0, "", "KS");
    assert_eq!(game_ended(&ev), (vec![0], vec![60, 80]));
}

#[test]
fn ties__shared_gives_the_win_to_every_side_on_the_lowest_total() {
    // 100 / 60 before; seat 0 goes out and side 1 keeps K♠ K♥ Q♠ Q♥ (40): 100 / 100.
    let ev = last_hand("shared", &[[100, 0], [0, 60]], 0, "", "KS KH QS QH");
    assert_eq!(game_ended(&ev), (vec![0, 1], vec![100, 100]));
}

#[test]
fn ties__last_hand_decides_gives_the_win_to_the_lower_last_hand() {
    let ev = last_hand(
        "last-hand-decides",
        &[[100, 0], [0, 60]],
        0,
        "",
        "KS KH QS QH",
    );
    assert_eq!(game_ended(&ev), (vec![0], vec![100, 100]));
}

#[test]
fn ties__earlier_hands_decide_goes_back_past_an_equal_last_hand() {
    // 40 / 0, then 0 / 40 (totals 40 / 40); seat 0 goes out and side 1 holds nothing: the last
    // hand is 0 / 0 and the totals stay equal. The hand before (0 / 40) decides for side 0.
    let prior = [[40, 0], [0, 40]];
    for (ties, winners) in [
        ("shared", vec![0, 1]),
        ("last-hand-decides", vec![0, 1]),
        ("earlier-hands-decide", vec![0]),
    ] {
        let ev = last_hand(ties, &prior, 0, "", "");
        assert_eq!(game_ended(&ev), (winners, vec![40, 40]), "{ties}");
    }
    // Equal in every hand: shared.
    let ev = last_hand("earlier-hands-decide", &[[20, 20], [20, 20]], 0, "", "");
    assert_eq!(game_ended(&ev), (vec![0, 1], vec![40, 40]));
}
