//! Going out and scoring: how a player goes out, what each side scores, and partnerships.

use super::*;
use push_rummy::rules::Sides;

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

fn six_ten_four(partnerships: &str) -> (Vec<i64>, Game) {
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

/// Seat 1 holds `hand` and has not met the contract; the others hold a few cards each.
fn before_contract_game(g: &mut Game, hand: &str, stage: Stage) {
    rig(
        g,
        Pos {
            hands: &["KS 2C", hand, "JK 9D", "QH QD"],
            discard: "4D",
            stage,
            ..Pos::default()
        },
    );
}

#[test]
fn going_out__the_last_card_is_not_discarded_before_the_contract() {
    let mut g = push(&[]);
    before_contract_game(&mut g, "5C", Stage::Play);
    rejected(&mut g, 1, discard("5C"), Reason::GoingOutBeforeContract);
    // The only legal move: keep the card and end the turn.
    assert_eq!(g.legal_actions(), vec![Action::EndTurn]);
    assert!(g.discard_options(1).is_empty());
    let ev = ok(&mut g, 1, Action::EndTurn);
    assert_eq!(ev[0], Event::TurnEnded { seat: 1 });
    assert_eq!(g.deal.hands[1].cards(), cards("5C"));
    assert_eq!(g.turn(), 2);
    assert!(g.results.is_empty(), "the hand goes on");
}

#[test]
fn going_out__with_two_cards_before_the_contract_a_discard_is_required() {
    let mut g = push(&[]);
    before_contract_game(&mut g, "5C 9H", Stage::Play);
    rejected(&mut g, 1, Action::EndTurn, Reason::MustDiscard);
    ok(&mut g, 1, discard("5C"));
    assert_eq!(g.deal.hands[1].cards(), cards("9H"));
}

#[test]
fn going_out__under_piecemeal_a_contract_meld_may_not_empty_the_hand() {
    let mut g = push(&[(DisputeId::ContractInOneTurn, "piecemeal")]);
    before_contract_game(&mut g, "8S 8H 8D", Stage::Play);
    rejected(&mut g, 1, meld("8S 8H 8D"), Reason::GoingOutBeforeContract);
    assert_eq!(g.deal.hands[1].len(), 3, "the refused meld changed nothing");
    // Melding the whole contract at once and going out is allowed.
    let mut g = push(&[(DisputeId::ContractInOneTurn, "piecemeal")]);
    before_contract_game(&mut g, "8S 8H 8D KH KD KC", Stage::Play);
    let ev = ok(&mut g, 1, melds(&["8S 8H 8D", "KH KD KC"]));
    assert!(ev.contains(&Event::WentOut { seat: 1 }));
}

#[test]
fn going_out__a_contract_laid_down_whole_may_empty_the_hand() {
    let mut g = push(&[]);
    before_contract_game(&mut g, "8S 8H 8D KH KD KC", Stage::Play);
    let ev = ok(&mut g, 1, melds(&["8S 8H 8D", "KH KD KC"]));
    assert!(ev.contains(&Event::WentOut { seat: 1 }));
}

/// Under `pusher-draws=no` a push costs the pusher a card, so players reach one card without
/// their contract: every such turn still has a legal move (keeping the card), and every game of
/// the source-001 preset still ends.
#[test]
fn going_out__source_001_games_reach_the_last_card_before_the_contract_and_end() {
    use push_rummy::base::rng::Rng;
    use push_rummy::engine::bots::{self, Bot};
    let rules = Arc::new(load("source-001", &[]).unwrap().rules);
    // Seeds in order until a few games have kept their last card (the case is rare: greedy
    // players meld early), every game played to its end.
    let mut kept = 0;
    for seed in 0..400u64 {
        if kept >= 3 {
            break;
        }
        let mut game = Game::new(rules.clone(), 4, (seed % 4) as u8, seed, vec![]).unwrap();
        let mut rng = Rng::new(seed);
        let bot = if seed % 2 == 0 {
            Bot::Greedy
        } else {
            Bot::Random
        };
        let mut steps = 0;
        while !game.is_over() {
            let seat = game.turn();
            let si = usize::from(seat);
            let stuck = game.deal.stage == Stage::Play
                && game.deal.hands[si].len() == 1
                && !game.deal.progress[si].done;
            if stuck {
                assert_eq!(game.discard_options(seat), vec![], "seed {seed}");
                let legal = game.legal_actions();
                assert!(legal.contains(&Action::EndTurn), "seed {seed}: {legal:?}");
                assert!(
                    !legal.iter().any(|a| matches!(a, Action::Discard(_))),
                    "seed {seed}: {legal:?}"
                );
            }
            let action = bots::choose(bot, &game, &mut rng);
            if stuck && action == Action::EndTurn {
                kept += 1;
            }
            game.apply(seat, &action)
                .unwrap_or_else(|e| panic!("seed {seed}: {action} refused: {e}"));
            steps += 1;
            assert!(steps < 100_000, "seed {seed} does not end");
        }
        assert_eq!(game.results.len(), rules.rounds.len());
    }
    assert!(kept > 0, "no game reached the case");
}

/// Push at four with `scoring.going-out-bonus` 10 and `scoring.sides` as given: seat 1 goes out
/// while seats 0, 2 and 3 keep K♠, 9♦ 9♥ and A♥.
fn bonus_four(sides: Option<Sides>) -> (Vec<i64>, Game) {
    let mut r = rules("push", &[]);
    r.going_out_bonus = 10;
    r.sides = sides;
    let mut g = game_of(r, 4, 0);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "5C", "9D 9H", "AH"],
            discard: "4D",
            table: &[(1, "JS JC JD"), (1, "QS QC QD")],
            ..Pos::default()
        },
    );
    let ev = ok(&mut g, 1, discard("5C"));
    (hand_ended(&ev).1, g)
}

#[test]
fn going_out_bonus__is_taken_off_the_going_out_side_once() {
    // Partnerships (Push's reading, or stated): side 1 scores -10, its A♥ counting nothing;
    // side 0 scores K♠ and 9♦ 9♥.
    for sides in [None, Some(Sides::Partnerships)] {
        let (points, g) = bonus_four(sides);
        assert_eq!(g.side_of, vec![0, 1, 0, 1]);
        assert_eq!(points, vec![20, -10], "{sides:?}");
        assert_eq!(g.totals, vec![20, -10]);
    }
    // Each for himself: the player alone.
    let (points, g) = bonus_four(Some(Sides::Individual));
    assert_eq!(g.sides, 4);
    assert_eq!(points, vec![10, -10, 10, 15]);
}

#[test]
fn sides__partnerships_pair_opposite_seats_at_six() {
    let mut r = rules("cap-it", &[]);
    r.sides = Some(Sides::Partnerships);
    assert_eq!(r.sides_of(6), vec![0, 1, 2, 0, 1, 2]);
    assert_eq!(r.sides_of(4), vec![0, 1, 0, 1]);
    let g = game_of(r, 6, 0);
    assert_eq!((g.sides, g.totals.len()), (3, 3));
    // Stated `individual` overrides six-ten-partnerships=across.
    let mut r = rules("push", &[]);
    r.sides = Some(Sides::Individual);
    assert!(!r.partnered(4));
}
