//! The worked examples of DISPUTES.md section J, played through the engine:
//! 001's scenario is rejected at each illegal step with the right reason; 003's score sheet is
//! reproduced hand by hand.

use crate::common;
use common::rejected;
use push_rummy::base::card::{Card, Counts, parse_cards};
use push_rummy::engine::game::{Action, Event, Game, MeldSpec, Reason, Stage, pack};
use push_rummy::rules::disputes::DisputeId;
use push_rummy::rules::load;
use std::sync::Arc;

fn cards(s: &str) -> Vec<Card> {
    parse_cards(s).unwrap()
}

/// Puts the deal in a chosen position: these hands, this discard pile (top last), the rest of the
/// pack as the stock with `stock_top` on top; `seat` to play at `stage`. Cards stay conserved.
fn rig(g: &mut Game, hands: &[&str], discard: &str, stock_top: &str, seat: u8, stage: Stage) {
    let mut rest = Counts::from_cards(&pack(&g.rules, g.players));
    let mut take = |v: &[Card]| {
        for c in v {
            assert!(rest.remove(*c), "the pack has no more {c}");
        }
    };
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    for h in &hands {
        take(h);
    }
    let discard = cards(discard);
    take(&discard);
    let top = cards(stock_top);
    take(&top);
    let mut stock = rest.cards();
    stock.extend(top.iter().rev());
    g.deal.hands = hands.iter().map(|h| Counts::from_cards(h)).collect();
    g.deal.discard = discard;
    g.deal.stock = stock;
    g.deal.table.clear();
    g.deal.turn = seat;
    g.deal.stage = stage;
    g.deal.taken = None;
    g.check_invariants();
}

#[track_caller]
fn ok(g: &mut Game, seat: u8, a: Action) -> Vec<Event> {
    g.apply(seat, &a)
        .unwrap_or_else(|e| panic!("{a} by seat {seat}: {e}"))
}

fn meld(s: &str) -> Action {
    Action::Meld(vec![MeldSpec {
        cards: cards(s),
        kind: None,
        declared: vec![],
    }])
}

/// Seats: A = 0 (dealer), B = 1, C = 2, D = 3.
fn scenario_001(readings: &[(DisputeId, &str)]) -> Game {
    let mut rules = load("push", &[]).unwrap().rules;
    for (id, r) in readings {
        assert!(rules.set_reading(*id, r));
    }
    let mut g = Game::new(Arc::new(rules), 4, 0, 1, vec![]).unwrap();
    rig(
        &mut g,
        &[
            "QH 4C 4D 8C KC KD",
            "9H 10S 5S 5D JK 3S",
            "10D 9S 9C 8H 7D 6H",
            "3H 3D 6C 7C 8D JC",
        ],
        "2C",
        "4S 5C",
        1,
        Stage::Draw,
    );
    g
}

#[test]
fn source_001_scenario_is_rejected_at_each_illegal_step() {
    let mut g = scenario_001(&[]);
    // 1. B takes the upcard 2♣.
    ok(&mut g, 1, Action::TakeDiscard);
    // 2. B "melds a set of 5's": two fives are no set; with the 2♣ a set, but not the contract.
    let m = rejected(&mut g, 1, meld("5S 5D"), Reason::InvalidMeld);
    assert!(m.contains("at least 3 cards"), "{m}");
    rejected(&mut g, 1, meld("5S 5D 2C"), Reason::ContractNotMet);
    // 3. B discards 3♠.
    ok(&mut g, 1, Action::Discard("3S".parse().unwrap()));
    // 4. C pushes (3♠ + the top stock card to D) and draws.
    let ev = ok(&mut g, 2, Action::Push);
    assert!(matches!(&ev[0], Event::Pushed { to: 3, .. }), "{ev:?}");
    // 5. C "melds the set of 9's": two nines are no set.
    rejected(&mut g, 2, meld("9S 9C"), Reason::InvalidMeld);
    ok(&mut g, 2, Action::Discard("10D".parse().unwrap()));
    // 6. D "draws from the stock": no such draw; then one set of threes is not the contract.
    rejected(&mut g, 3, Action::DrawStock, Reason::NoPlainDraw);
    ok(&mut g, 3, Action::TakeDiscard);
    rejected(&mut g, 3, meld("3S 3H 3D"), Reason::ContractNotMet);
    ok(&mut g, 3, Action::Discard("JC".parse().unwrap()));
    // 7. A cannot meld and discards (001 omits A's draw: A must draw first).
    rejected(
        &mut g,
        0,
        Action::Discard("QH".parse().unwrap()),
        Reason::MustDrawFirst,
    );
    ok(&mut g, 0, Action::TakeDiscard);
    ok(&mut g, 0, Action::Discard("QH".parse().unwrap()));
    // 8. B "draws the Q♥ from the stock pile": no such draw (here the Q♥ is the discard).
    rejected(&mut g, 1, Action::DrawStock, Reason::NoPlainDraw);
    ok(&mut g, 1, Action::TakeDiscard);
    // 9. B melds 9♥ 10♠ Joker Q♥: a run needs one suit.
    let m = rejected(&mut g, 1, meld("9H 10S JK QH"), Reason::InvalidMeld);
    assert!(m.contains("a run needs one suit: 10♠ among hearts"), "{m}");
    // 10. B discards the 2♣: legal, but B still holds cards and does not go out.
    let ev = ok(&mut g, 1, Action::Discard("2C".parse().unwrap()));
    assert!(
        !ev.iter().any(|e| matches!(e, Event::WentOut { .. })),
        "{ev:?}"
    );
    assert_eq!(g.deal.hands[1].len(), 6);
}

#[test]
fn source_001_step_9_under_mixed_suit_runs_fails_on_the_contract_instead() {
    let mut g = scenario_001(&[(DisputeId::RunSuits, "any-suits")]);
    ok(&mut g, 1, Action::TakeDiscard);
    ok(&mut g, 1, Action::Discard("3S".parse().unwrap()));
    g.deal.hands[1].add("QH".parse().unwrap());
    g.deal.hands[0].remove("QH".parse().unwrap());
    g.deal.turn = 1;
    g.deal.stage = Stage::Play;
    rejected(&mut g, 1, meld("9H 10S JK QH"), Reason::ContractNotMet);
}

#[test]
fn source_003_score_sheet_is_reproduced() {
    // WE = seats 0 and 2 (side 0), THEY = seats 1 and 3 (side 1). Each hand one side goes out
    // and the other scores exactly the sheet's amount: +40 THEY, +120 WE, +60 THEY, +180 WE,
    // +180 THEY, for totals WE 300, THEY 280: THEY win.
    let rules = load("push", &[]).unwrap().rules;
    let mut g = Game::new(Arc::new(rules), 4, 0, 3, vec![]).unwrap();
    let hands: [(&[&str; 4], u8, &str); 5] = [
        (&["9C", "KS QS", "", "JS 10S"], 0, "9C"),
        (&["JK JK JK", "9C", "JK 2S 2H", ""], 1, "9C"),
        (&["9C", "JK JK", "", "KS QS"], 0, "9C"),
        (&["JK JK JK JK", "", "2S 2H 2D 2C 10S 10H", "9C"], 3, "9C"),
        (&["", "JK JK JK JK 2S 2H", "9C", "2D KS QS JS 10S"], 2, "9C"),
    ];
    let sheet = [(0, 40), (120, 40), (120, 100), (300, 100), (300, 280)];
    for (i, ((h, seat, last), (we, they))) in hands.iter().zip(sheet).enumerate() {
        rig(&mut g, &h[..], "4D", "", *seat, Stage::Play);
        // The seat going out has met its contract: going out needs it.
        let p = &mut Arc::make_mut(&mut g.deal.progress)[usize::from(*seat)];
        p.done = true;
        p.filled.iter_mut().for_each(|f| *f = true);
        let ev = ok(&mut g, *seat, Action::Discard(last.parse().unwrap()));
        assert!(
            ev.iter()
                .any(|e| matches!(e, Event::WentOut { seat: s } if s == seat)),
            "hand {}",
            i + 1
        );
        assert_eq!(g.totals, vec![we, they], "after hand {}", i + 1);
    }
    assert!(g.is_over());
    assert_eq!(g.winners, vec![1], "THEY win after the last round");
}
