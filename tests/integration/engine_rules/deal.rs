//! The deal: a wild turned up as the upcard, the dealer moving on, and who leads.

use super::*;

/// Push's pack for four with the joker `at` the upcard's place (`dealt` cards are dealt first);
/// the other three jokers are dealt, the card after the joker is returned.
fn joker_upcard_deck(g: &Game, dealt: usize) -> (Vec<Card>, Card) {
    let plain = pack(&g.rules, 4);
    let naturals = &plain[..104];
    let mut deck = vec![Card::JOKER; 3];
    deck.extend_from_slice(&naturals[..dealt - 3]);
    deck.push(Card::JOKER);
    deck.extend_from_slice(&naturals[dealt - 3..]);
    assert_eq!(deck.len(), 108);
    (deck, naturals[dealt - 3])
}

fn bury_game(reading: &str, upcard: &str) -> (Game, Card) {
    let r = rules(
        "push",
        &[
            (DisputeId::UpcardWild, upcard),
            (DisputeId::BuryPosition, reading),
        ],
    );
    let probe = game_of(r.clone(), 4, 0);
    let (deck, next) = joker_upcard_deck(&probe, 24);
    let g = Game::new(Arc::new(r), 4, 0, 7, vec![deck]).unwrap();
    g.check_invariants();
    let in_hands: u8 = g.deal.hands.iter().map(|h| h.count(Card::JOKER)).sum();
    assert_eq!(in_hands, 3);
    (g, next)
}

/// The stock from the top down.
fn top_down(g: &Game) -> Vec<Card> {
    g.deal.stock.iter().rev().copied().collect()
}

#[test]
fn upcard_wild__bury_bottom_puts_the_joker_under_the_stock() {
    let (g, next) = bury_game("bottom", "bury");
    assert_eq!(next, c("9H"));
    assert_eq!(g.deal.discard, vec![next]);
    assert_eq!(g.deal.stock.len(), 83);
    assert_eq!(
        g.deal.stock[0],
        Card::JOKER,
        "the joker is the last stock card"
    );
    assert_eq!(top_down(&g)[0], c("10H"));
}

#[test]
fn upcard_wild__bury_middle_puts_the_joker_at_half_the_stock() {
    let (g, next) = bury_game("middle", "bury");
    assert_eq!(g.deal.discard, vec![next]);
    // Buried into the 83-card stock under floor(83/2) = 41 cards, then the 9♥ came off the top.
    let td = top_down(&g);
    assert_eq!(td.iter().position(|x| x.is_joker()), Some(40));
    assert_eq!(td[0], c("10H"));
    assert_eq!(td.len(), 83);
}

#[test]
fn upcard_wild__bury_reshuffle_shuffles_the_joker_into_the_stock() {
    let (g, _) = bury_game("reshuffle", "bury");
    let (bottom, _) = bury_game("bottom", "bury");
    assert_eq!(g.deal.discard.len(), 1);
    assert!(!g.rules.is_wild(g.deal.discard[0]), "{:?}", g.deal.discard);
    assert_eq!(g.deal.stock.len(), 83);
    assert!(g.deal.stock.contains(&Card::JOKER));
    assert_ne!(g.deal.stock, bottom.deal.stock, "the stock was reshuffled");
    assert_eq!(
        g.deal.hands, bottom.deal.hands,
        "the deal itself is the same"
    );
}

#[test]
fn upcard_wild__allowed_starts_the_discard_pile_with_the_joker() {
    let (mut g, next) = bury_game("bottom", "allowed");
    assert_eq!(g.deal.discard, vec![Card::JOKER]);
    assert_eq!(top_down(&g)[0], next);
    assert_eq!(g.deal.stock.len(), 83);
    let ev = ok(&mut g, 1, Action::TakeDiscard);
    assert_eq!(
        ev,
        vec![Event::TookDiscard {
            seat: 1,
            card: c("JK")
        }]
    );
}

#[test]
fn new_deal__after_a_hand_the_dealer_moves_left_and_the_next_deal_starts() {
    let r = rules("push", &[]);
    let probe = game_of(r.clone(), 4, 0);
    let (second, next) = joker_upcard_deck(&probe, 28);
    let mut g = Game::new(Arc::new(r), 4, 0, 7, vec![pack(&probe.rules, 4), second]).unwrap();
    assert_eq!((g.dealer, g.deal.turn), (0, 1));
    going_out_game(&mut g, "5C");
    let ev = ok(&mut g, 1, discard("5C"));
    let tail: Vec<&Event> = ev
        .iter()
        .skip_while(|e| !matches!(e, Event::HandEnded { .. }))
        .skip(1)
        .collect();
    assert_eq!(
        tail,
        vec![
            &Event::Dealt {
                round: 2,
                dealer: 1,
                first: 2
            },
            &Event::UpcardBuried { card: c("JK") },
            &Event::Upcard { card: next },
        ]
    );
    assert_eq!((g.round, g.dealer, g.deal.turn), (1, 1, 2));
    assert!(g.deal.hands.iter().all(|h| h.len() == 7));
    assert!(g.deal.table.is_empty());
    assert_eq!(
        g.deal.progress[1],
        Progress {
            done: false,
            filled: vec![false; 2]
        }
    );
}

#[test]
fn six_ten_first_player__dealer_right_leads_and_is_dealt_first() {
    let r = rules("six-to-ten", &[]);
    let deck = pack(&r, 3);
    let g = Game::new(Arc::new(r), 3, 0, 7, vec![deck.clone()]).unwrap();
    assert_eq!(g.deal.turn, 2);
    assert_eq!(g.deal.hands[2].count(deck[0]), 1);
    assert_eq!(g.deal.hands[0].count(deck[1]), 1);
    assert_eq!(g.deal.hands[1].count(deck[2]), 1);
}

#[test]
fn six_ten_first_player__dealer_left_leads_and_is_dealt_first() {
    let r = rules(
        "six-to-ten",
        &[(DisputeId::SixTenFirstPlayer, "dealer-left")],
    );
    let deck = pack(&r, 3);
    let g = Game::new(Arc::new(r), 3, 0, 7, vec![deck.clone()]).unwrap();
    assert_eq!(g.deal.turn, 1);
    assert_eq!(g.deal.hands[1].count(deck[0]), 1);
    assert_eq!(g.deal.hands[2].count(deck[1]), 1);
    assert_eq!(g.deal.hands[0].count(deck[2]), 1);
}
