//! Per-seat observations hide what a seat cannot see: swapping cards between places a
//! seat cannot see (another hand, the stock) never changes that seat's observation, and the
//! observation does show what the seat can see.

use proptest::prelude::*;
use push_rummy::engine::bots::{self, Bot};
use push_rummy::engine::game::Game;
use push_rummy::engine::observe::observe;
use push_rummy::rules::disputes::DisputeId;
use std::sync::Arc;

/// Buying out of turn, two buys a hand, one penalty card.
fn two_buys() -> Option<push_rummy::rules::Buying> {
    Some(push_rummy::rules::Buying {
        penalty_cards: 1,
        per_hand: Some(2),
        when_down: true,
    })
}

/// A game stopped after `steps` actions by greedy/random players (one seed in five with buying
/// out of turn).
fn game_at(seed: u64, steps: usize, face_down: bool) -> Game {
    let mut rules = crate::common::push();
    if face_down {
        rules.set_reading(DisputeId::PushCardVisibility, "face-down");
    }
    if seed % 5 == 3 {
        rules.buying = two_buys();
    }
    let mut g = Game::new(Arc::new(rules), 4, (seed % 4) as u8, seed, vec![]).unwrap();
    let mut rng = push_rummy::base::rng::Rng::new(seed);
    for _ in 0..steps {
        if g.is_over() {
            break;
        }
        let bot = if seed.is_multiple_of(2) {
            Bot::Greedy
        } else {
            Bot::Random
        };
        let a = bots::choose(bot, &g, &mut rng);
        let seat = g.turn();
        g.apply(seat, &a).unwrap();
    }
    g
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn hidden_cards_do_not_change_an_observation(
        seed in 0u64..10_000,
        steps in 0usize..120,
        face_down in any::<bool>(),
        viewer in 0u8..4,
        pick in any::<(u64, u64, u64)>(),
    ) {
        let g = game_at(seed, steps, face_down);
        prop_assume!(!g.is_over());
        let before = observe(&g, viewer);
        let mut h = g.clone();
        // Swap one card of another seat's hand with one stock card, or two stock cards.
        let other = ((u64::from(viewer) + 1 + pick.0 % 3) % 4) as usize;
        let hand_cards = h.deal.hands[other].cards();
        prop_assume!(!hand_cards.is_empty() && h.deal.stock.len() >= 2);
        let c = hand_cards[(pick.1 % hand_cards.len() as u64) as usize];
        let k = (pick.2 % h.deal.stock.len() as u64) as usize;
        let s = h.deal.stock[k];
        h.deal.hands[other].remove(c);
        h.deal.hands[other].add(s);
        h.deal.stock[k] = c;
        let last = h.deal.stock.len() - 1;
        h.deal.stock.swap(0, last);
        h.check_invariants();
        prop_assert_eq!(observe(&h, viewer), before);
    }

    #[test]
    fn an_observation_shows_the_seat_its_own_hand(seed in 0u64..10_000, steps in 0usize..120, viewer in 0u8..4) {
        let mut g = game_at(seed, steps, false);
        prop_assume!(!g.is_over());
        let before = observe(&g, viewer);
        let cards = g.deal.hands[usize::from(viewer)].cards();
        prop_assume!(!cards.is_empty() && !g.deal.stock.is_empty());
        let c = cards[0];
        let s = g.deal.stock[0];
        prop_assume!(c != s);
        g.deal.hands[usize::from(viewer)].remove(c);
        g.deal.hands[usize::from(viewer)].add(s);
        g.deal.stock[0] = c;
        prop_assert_ne!(observe(&g, viewer), before);
    }
}

#[test]
fn an_observation_shows_the_buy_window_and_the_buys_left_only_under_buying() {
    use push_rummy::engine::game::Action;
    assert!(observe(&game_at(0, 0, false), 0).buying.is_none());
    let mut rules = crate::common::push();
    rules.buying = two_buys();
    let mut g = Game::new(Arc::new(rules), 4, 0, 7, vec![]).unwrap();
    let on_turn = g.turn();
    g.apply(on_turn, &Action::DrawStock).unwrap();
    let asked = g.turn();
    assert_eq!(
        asked,
        (on_turn + 1) % 4,
        "the seat after the player on turn is asked first"
    );
    for viewer in 0..4 {
        let seen = observe(&g, viewer);
        let buying = seen.buying.expect("buying is allowed");
        assert_eq!(seen.stage, "buy");
        assert_eq!(seen.turn, asked);
        assert_eq!(buying.window, Some(on_turn));
        assert_eq!(buying.buys_left, vec![Some(2); 4]);
    }
    g.apply(asked, &Action::Buy).unwrap();
    let seen = observe(&g, on_turn);
    let buying = seen.buying.expect("buying is allowed");
    assert_eq!(
        (seen.stage, seen.turn, buying.window),
        ("play", on_turn, None)
    );
    assert_eq!(buying.buys_left[usize::from(asked)], Some(1));
}

#[test]
fn a_face_down_push_is_seen_by_its_receiver_only() {
    for (face_down, seed) in [(true, 11), (false, 11)] {
        let mut g = game_at(seed, 0, face_down);
        let seat = g.turn();
        g.apply(seat, &push_rummy::engine::game::Action::Push)
            .unwrap();
        let to = (seat + 1) % 4;
        for viewer in 0..4 {
            let seen = observe(&g, viewer).last_push.expect("a push happened");
            assert_eq!(
                seen.stock.is_some(),
                !face_down || viewer == to,
                "viewer {viewer}, face_down {face_down}"
            );
        }
    }
}
