//! One focused test per engine rule: each builds a small hand-made position (cards conserved, the
//! invariants checked) and asserts exactly what the engine does with one action: the events, the
//! hands, the table and the scores, or the exact reason code. Every dispute whose behaviour lives
//! in the engine is tried under each of its readings where the outcome differs.
//!
//! Names read `rule__reading_or_case`. Seats are clockwise, seat + 1 is "left"; in four-player Push
//! seats 0 and 2 are side 0, seats 1 and 3 side 1.

#![allow(non_snake_case)]

mod common;
use common::rejected;
use push_rummy::base::card::{Card, Counts, parse_cards};
use push_rummy::engine::game::{
    Action, Event, Game, HandEnd, HandResult, MeldSpec, Progress, Reason, Stage, TableMeld, pack,
};
use push_rummy::oracle::meld::{self, Query, Target};
use push_rummy::rules::disputes::DisputeId;
use push_rummy::rules::disputes::reading::WildDeclaration;
use push_rummy::rules::spec::MeldKind;
use push_rummy::rules::{Rules, load, load_text};
use std::path::Path;
use std::sync::Arc;

// ---------------------------------------------------------------------------------------------
// Fixtures

fn c(s: &str) -> Card {
    s.parse().unwrap()
}

fn cards(s: &str) -> Vec<Card> {
    parse_cards(s).unwrap()
}

fn counts(s: &str) -> Counts {
    Counts::from_cards(&cards(s))
}

fn sorted(s: &str) -> Vec<Card> {
    let mut v = cards(s);
    v.sort();
    v
}

/// Built-in rules `name` with some readings switched.
fn rules(name: &str, readings: &[(DisputeId, &str)]) -> Rules {
    let mut r = load(name, &[]).unwrap().rules;
    for (id, reading) in readings {
        assert!(r.set_reading(*id, reading), "{id} has no reading {reading}");
    }
    r
}

fn game_of(r: Rules, players: u8, dealer: u8) -> Game {
    Game::new(Arc::new(r), players, dealer, 7, vec![]).unwrap()
}

/// Four-player Push, seat 0 deals (seat 1 leads).
fn push(readings: &[(DisputeId, &str)]) -> Game {
    game_of(rules("push", readings), 4, 0)
}

/// A position to put a deal into.
#[derive(Clone, Copy)]
struct Pos<'a> {
    /// Each seat's hand (missing seats hold nothing).
    hands: &'a [&'a str],
    /// The discard pile, top last.
    discard: &'a str,
    /// The top of the stock, top first; the rest of the pack lies under it.
    stock: &'a str,
    /// The stock is exactly `stock`: the rest of the pack goes under the discard pile instead.
    exact_stock: bool,
    /// Table melds: (owner, cards); a token `JK=7S` is the card JK declared as 7S, a leading
    /// `set` or `run` names the kind. Owners count as having made their contract.
    table: &'a [(u8, &'a str)],
    turn: u8,
    stage: Stage,
}

impl Default for Pos<'_> {
    fn default() -> Self {
        Pos {
            hands: &[],
            discard: "",
            stock: "",
            exact_stock: false,
            table: &[],
            turn: 1,
            stage: Stage::Play,
        }
    }
}

/// Parses a table meld: its cards, kind and declarations.
fn table_spec(s: &str) -> (Vec<Card>, Option<MeldKind>, Vec<(Card, Target)>) {
    let mut v = Vec::new();
    let mut kind = None;
    let mut declared = Vec::new();
    for t in s.split_whitespace() {
        match t {
            "set" => kind = Some(MeldKind::Set),
            "run" => kind = Some(MeldKind::Run),
            _ => match t.split_once('=') {
                Some((card, target)) => {
                    v.push(c(card));
                    declared.push((c(card), target.parse().unwrap()));
                }
                None => v.push(c(t)),
            },
        }
    }
    (v, kind, declared)
}

/// Puts the deal into `p`, keeping every card of the pack in exactly one place.
fn rig(g: &mut Game, p: Pos) {
    let mut rest = Counts::from_cards(&pack(&g.rules, g.players));
    let mut take = |v: &[Card]| {
        for c in v {
            assert!(rest.remove(*c), "the pack has no more {c}");
        }
    };
    let n = usize::from(g.players);
    let hands: Vec<Vec<Card>> = (0..n)
        .map(|s| p.hands.get(s).map_or_else(Vec::new, |h| cards(h)))
        .collect();
    for h in &hands {
        take(h);
    }
    let mut table = Vec::new();
    for (owner, s) in p.table {
        let (mut v, kind, declared) = table_spec(s);
        take(&v);
        let verdict = meld::interpret(
            &g.rules,
            &Query {
                cards: v.clone(),
                kind,
                declared,
            },
        );
        assert!(verdict.is_valid(), "table meld {s}: {}", verdict.reason);
        if g.rules.readings.wild_declaration != WildDeclaration::Never {
            assert_eq!(
                verdict.interpretations.len(),
                1,
                "table meld {s} is ambiguous: declare its wilds"
            );
        }
        v.sort();
        table.push(std::sync::Arc::new(TableMeld::new(
            *owner,
            v,
            verdict.interpretations,
        )));
    }
    let discard = cards(p.discard);
    take(&discard);
    let top = cards(p.stock);
    take(&top);
    let (stock, discard) = if p.exact_stock {
        let mut d = rest.cards();
        d.extend(discard);
        (top.iter().rev().copied().collect(), d)
    } else {
        let mut s = rest.cards();
        s.extend(top.iter().rev());
        (s, discard)
    };
    let parts = g.rules.rounds[g.round].contract.len();
    let mut progress = vec![
        Progress {
            done: false,
            filled: vec![false; parts],
        };
        n
    ];
    for m in &table {
        let pr = &mut progress[usize::from(m.owner)];
        pr.done = true;
        pr.filled = vec![true; parts];
    }
    g.deal.hands = hands.iter().map(|h| Counts::from_cards(h)).collect();
    g.deal.discard = discard;
    g.deal.stock = stock;
    g.deal.table = table;
    g.deal.progress = Arc::new(progress);
    g.deal.turn = p.turn;
    g.deal.stage = p.stage;
    g.deal.taken = None;
    g.deal.contract_turn = false;
    g.deal.table_progress = false;
    g.deal.stall = 0;
    g.deal.last_push = None;
    g.check_invariants();
}

#[track_caller]
fn ok(g: &mut Game, seat: u8, a: Action) -> Vec<Event> {
    let ev = g
        .apply(seat, &a)
        .unwrap_or_else(|e| panic!("{a} by seat {seat}: {e}"));
    g.check_invariants();
    ev
}

fn spec(s: &str) -> MeldSpec {
    MeldSpec {
        cards: cards(s),
        kind: None,
        declared: vec![],
    }
}

fn meld(s: &str) -> Action {
    Action::Meld(vec![spec(s)])
}

fn melds(v: &[&str]) -> Action {
    Action::Meld(v.iter().map(|s| spec(s)).collect())
}

fn meld_declared(s: &str, kind: Option<MeldKind>, declared: &[(&str, &str)]) -> Action {
    Action::Meld(vec![MeldSpec {
        cards: cards(s),
        kind,
        declared: decl(declared),
    }])
}

fn decl(d: &[(&str, &str)]) -> Vec<(Card, Target)> {
    d.iter().map(|(a, t)| (c(a), t.parse().unwrap())).collect()
}

fn lay_off(meld: usize, s: &str) -> Action {
    Action::LayOff {
        meld,
        cards: cards(s).into(),
        declared: vec![],
        join: None,
    }
}

fn lay_off_declared(meld: usize, s: &str, declared: &[(&str, &str)]) -> Action {
    Action::LayOff {
        meld,
        cards: cards(s).into(),
        declared: decl(declared),
        join: None,
    }
}

fn rescue(meld: usize, natural: &str, wild: &str) -> Action {
    Action::Rescue {
        meld,
        natural: c(natural),
        wild: c(wild),
        then: None,
    }
}

fn discard(s: &str) -> Action {
    Action::Discard(c(s))
}

/// Takes the discard and throws the same card back (a turn that puts nothing on the table).
fn pass(g: &mut Game, seat: u8) -> Vec<Event> {
    let top = *g.deal.discard.last().expect("a discard to take");
    let mut ev = ok(g, seat, Action::TakeDiscard);
    ev.extend(ok(g, seat, Action::Discard(top)));
    ev
}

#[track_caller]
fn assert_hand(g: &Game, seat: u8, s: &str) {
    assert_eq!(
        g.deal.hands[usize::from(seat)],
        counts(s),
        "the hand of seat {seat}"
    );
}

/// The single `HandEnded` event: (reason, points, totals).
#[track_caller]
fn hand_ended(ev: &[Event]) -> (String, Vec<u32>, Vec<i64>) {
    let v: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::HandEnded {
                reason,
                points,
                totals,
            } => Some((reason.clone(), points.clone(), totals.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(v.len(), 1, "one hand ended: {ev:?}");
    v[0].clone()
}

fn no_hand_end(ev: &[Event]) -> bool {
    !ev.iter().any(|e| matches!(e, Event::HandEnded { .. }))
}

// ---------------------------------------------------------------------------------------------
// Draws

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

/// Seat 1 to draw, the stock holds exactly `stock`, the rest of the pack lies under the KH discard.
fn short_stock_position(g: &mut Game, stock: &str) {
    rig(
        g,
        Pos {
            hands: &["KS", "5S", "9D", "AH"],
            discard: "KH",
            stock,
            exact_stock: true,
            stage: Stage::Draw,
            ..Pos::default()
        },
    );
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

// ---------------------------------------------------------------------------------------------
// Contracts (deal 1 of Push: two sets of 3)

fn contract_game(readings: &[(DisputeId, &str)], hand: &str) -> Game {
    let mut g = push(readings);
    rig(
        &mut g,
        Pos {
            hands: &["KS", hand, "9C", "AH"],
            discard: "4D",
            ..Pos::default()
        },
    );
    g
}

/// A meld candidate remembers the interpretations it found, and applying it filters them instead
/// of searching the cards again: it changes the game exactly as in a copy, which remembers
/// nothing, under each reading of how wilds are declared and what a wild in a set stands for.
#[test]
fn a_meld_candidate_applies_as_in_a_copy_that_remembers_nothing() {
    for declaration in ["when-ambiguous", "always", "never"] {
        for represents in ["rank-only", "exact-card"] {
            let readings = [
                (DisputeId::WildDeclaration, declaration),
                (DisputeId::WildInSetRepresents, represents),
            ];
            let mut g = contract_game(&readings, "7S 7H JK 9S 9D 2H 5C KC");
            let rules = Arc::clone(&g.rules);
            let a = g
                .meld_candidate(0, &mut |c, h| {
                    push_rummy::oracle::contract::laydown(&rules, c, h).map(std::rc::Rc::new)
                })
                .expect("two sets");
            let mut copy = g.clone();
            let ev = ok(&mut g, 1, a.clone());
            assert_eq!(ok(&mut copy, 1, a), ev, "{declaration}, {represents}");
            assert_eq!(g.deal, copy.deal, "{declaration}, {represents}");
            assert_eq!(g.deal.table.len(), 2);
        }
    }
}

#[test]
fn contract_in_one_turn__required_refuses_half_a_contract_and_takes_the_whole() {
    let mut g = contract_game(&[], "7S 7H 7D 9S 9H 9D KC");
    rejected(&mut g, 1, meld("7S 7H 7D"), Reason::ContractNotMet);
    let ev = ok(&mut g, 1, melds(&["7S 7H 7D", "9S 9H 9D"]));
    assert_eq!(
        ev,
        vec![
            Event::Melded {
                seat: 1,
                meld: 0,
                cards: cards("7S 7H 7D").into(),
                contract: true
            },
            Event::Melded {
                seat: 1,
                meld: 1,
                cards: cards("9S 9H 9D").into(),
                contract: true
            },
        ]
    );
    assert!(g.deal.progress[1].done);
    assert_hand(&g, 1, "KC");
    assert_eq!(g.deal.table.len(), 2);
    assert_eq!(g.deal.table[1].owner, 1);
}

#[test]
fn contract_in_one_turn__piecemeal_takes_one_meld_now_and_the_rest_on_a_later_turn() {
    let mut g = contract_game(
        &[(DisputeId::ContractInOneTurn, "piecemeal")],
        "7S 7H 7D 9S 9H 9D 7C KC",
    );
    let ev = ok(&mut g, 1, meld("7S 7H 7D"));
    assert_eq!(
        ev,
        vec![Event::Melded {
            seat: 1,
            meld: 0,
            cards: cards("7S 7H 7D").into(),
            contract: true
        }]
    );
    assert_eq!(
        g.deal.progress[1],
        Progress {
            done: false,
            filled: vec![true, false]
        }
    );
    // Until the last contract meld is down, nothing else: no lay-off, no meld outside the contract.
    rejected(&mut g, 1, lay_off(0, "7C"), Reason::ContractFirst);
    ok(&mut g, 1, discard("KC"));
    pass(&mut g, 2);
    pass(&mut g, 3);
    pass(&mut g, 0);
    ok(&mut g, 1, Action::TakeDiscard);
    let ev = ok(&mut g, 1, meld("9S 9H 9D"));
    assert!(
        matches!(
            &ev[0],
            Event::Melded {
                meld: 1,
                contract: true,
                ..
            }
        ),
        "{ev:?}"
    );
    assert!(g.deal.progress[1].done);
    ok(&mut g, 1, lay_off(0, "7C"));
}

#[test]
fn contract_sizes__minimum_accepts_a_longer_contract_meld() {
    let mut g = contract_game(&[], "7S 7H 7D 7C 9S 9H 9D KC");
    let ev = ok(&mut g, 1, melds(&["7S 7H 7D 7C", "9S 9H 9D"]));
    assert!(
        matches!(&ev[0], Event::Melded { contract: true, cards, .. } if cards.len() == 4),
        "{ev:?}"
    );
    assert!(g.deal.progress[1].done);
}

#[test]
fn contract_sizes__exact_refuses_a_longer_contract_meld() {
    let mut g = contract_game(
        &[(DisputeId::ContractSizes, "exact")],
        "7S 7H 7D 7C 9S 9H 9D KC",
    );
    rejected(
        &mut g,
        1,
        melds(&["7S 7H 7D 7C", "9S 9H 9D"]),
        Reason::ContractNotMet,
    );
    // Exactly three each goes down, and the fourth seven follows as a lay-off.
    ok(&mut g, 1, melds(&["7S 7H 7D", "9S 9H 9D"]));
    ok(&mut g, 1, lay_off(0, "7C"));
    assert_eq!(g.deal.table[0].cards, sorted("7S 7H 7D 7C"));
}

const EXTRAS_HAND: &str = "7S 7H 7D 9S 9H 9D QS QH QD 7C KC";

#[test]
fn contract_turn_extras__allowed_lets_a_meld_and_a_lay_off_follow_on_the_contract_turn() {
    let mut g = contract_game(&[], EXTRAS_HAND);
    ok(&mut g, 1, melds(&["7S 7H 7D", "9S 9H 9D"]));
    let ev = ok(&mut g, 1, meld("QS QH QD"));
    assert_eq!(
        ev,
        vec![Event::Melded {
            seat: 1,
            meld: 2,
            cards: cards("QS QH QD").into(),
            contract: false
        }]
    );
    let ev = ok(&mut g, 1, lay_off(0, "7C"));
    assert_eq!(
        ev,
        vec![Event::LaidOff {
            seat: 1,
            meld: 0,
            cards: cards("7C").into(),
            joined: None
        }]
    );
    assert_hand(&g, 1, "KC");
}

#[test]
fn contract_turn_extras__allowed_takes_an_extra_meld_in_the_laydown_itself() {
    let mut g = contract_game(&[], EXTRAS_HAND);
    let ev = ok(&mut g, 1, melds(&["7S 7H 7D", "9S 9H 9D", "QS QH QD"]));
    let flags: Vec<bool> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Melded { contract, .. } => Some(*contract),
            _ => None,
        })
        .collect();
    assert_eq!(flags, vec![true, true, false]);
}

#[test]
fn contract_turn_extras__next_turn_makes_further_plays_wait_for_the_next_turn() {
    let mut g = contract_game(&[(DisputeId::ContractTurnExtras, "next-turn")], EXTRAS_HAND);
    rejected(
        &mut g,
        1,
        melds(&["7S 7H 7D", "9S 9H 9D", "QS QH QD"]),
        Reason::NextTurnOnly,
    );
    ok(&mut g, 1, melds(&["7S 7H 7D", "9S 9H 9D"]));
    rejected(&mut g, 1, meld("QS QH QD"), Reason::NextTurnOnly);
    rejected(&mut g, 1, lay_off(0, "7C"), Reason::NextTurnOnly);
    ok(&mut g, 1, discard("KC"));
    pass(&mut g, 2);
    pass(&mut g, 3);
    pass(&mut g, 0);
    ok(&mut g, 1, Action::TakeDiscard);
    ok(&mut g, 1, meld("QS QH QD"));
    ok(&mut g, 1, lay_off(0, "7C"));
    assert_hand(&g, 1, "KC");
}

#[test]
fn contract_turn_extras__next_turn_also_holds_back_a_rescue() {
    let mut g = push(&[(DisputeId::ContractTurnExtras, "next-turn")]);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "7S 7H 7D 9S 9H 9D 8C KC", "9C", "AH"],
            discard: "4D",
            table: &[(0, "8H 8D JK")],
            ..Pos::default()
        },
    );
    ok(&mut g, 1, melds(&["7S 7H 7D", "9S 9H 9D"]));
    rejected(&mut g, 1, rescue(0, "8C", "JK"), Reason::NextTurnOnly);
}

#[test]
fn contract_first__no_lay_off_meld_or_rescue_before_ones_own_contract() {
    let mut g = push(&[]);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "8S QC QH QD 7D", "9C", "AH"],
            discard: "4D",
            table: &[(0, "5S 6S 7S"), (0, "7C 7H JK")],
            ..Pos::default()
        },
    );
    rejected(&mut g, 1, lay_off(0, "8S"), Reason::ContractFirst);
    rejected(&mut g, 1, meld("QC QH QD"), Reason::ContractNotMet);
    rejected(&mut g, 1, rescue(1, "7D", "JK"), Reason::RescueNotAllowed);
}

#[test]
fn contract_first__a_partners_contract_does_not_free_a_player() {
    let mut g = push(&[]);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "8S QC QH QD", "9C", "AH"],
            discard: "4D",
            table: &[(3, "5S 6S 7S"), (3, "JC JH JD")],
            ..Pos::default()
        },
    );
    assert!(g.deal.progress[3].done && !g.deal.progress[1].done);
    rejected(&mut g, 1, lay_off(0, "8S"), Reason::ContractFirst);
    rejected(&mut g, 1, meld("QC QH QD"), Reason::ContractNotMet);
}

#[test]
fn same_rank_sets__allowed_takes_two_sets_of_one_rank() {
    let mut g = contract_game(&[], "7S 7H 7D 7C 7S 7H KC");
    ok(&mut g, 1, melds(&["7S 7H 7D", "7C 7S 7H"]));
    assert!(g.deal.progress[1].done);
}

#[test]
fn same_rank_sets__forbidden_refuses_two_sets_of_one_rank_in_the_contract_and_later() {
    let mut g = contract_game(
        &[(DisputeId::SameRankSets, "forbidden")],
        "7S 7H 7D 7C 7S 7H KC",
    );
    // Within the laydown the contract check itself refuses it (with the dispute named).
    let m = rejected(
        &mut g,
        1,
        melds(&["7S 7H 7D", "7C 7S 7H"]),
        Reason::ContractNotMet,
    );
    assert!(m.contains("same-rank-sets=forbidden"), "{m}");
    // A second set of sevens after the contract is refused as well.
    let mut g = push(&[(DisputeId::SameRankSets, "forbidden")]);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "7C 7S 7H KC", "9C", "AH"],
            discard: "4D",
            table: &[(1, "7S 7H 7D"), (1, "9S 9H 9D")],
            ..Pos::default()
        },
    );
    rejected(&mut g, 1, meld("7C 7S 7H"), Reason::SameRankSet);
    // The same meld is fine where two sets of one rank are allowed.
    let mut g = push(&[]);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "7C 7S 7H KC", "9C", "AH"],
            discard: "4D",
            table: &[(1, "7S 7H 7D"), (1, "9S 9H 9D")],
            ..Pos::default()
        },
    );
    ok(&mut g, 1, meld("7C 7S 7H"));
}

// ---------------------------------------------------------------------------------------------
// Declaring wilds (seat 1 has its contract down)

fn declaring_game(reading: &str) -> Game {
    let mut g = push(&[(DisputeId::WildDeclaration, reading)]);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "9H 10H JK 7C 7H JK QH KC", "9C", "AH"],
            discard: "4D",
            table: &[(1, "QS QC QD")],
            ..Pos::default()
        },
    );
    g
}

#[test]
fn wild_declaration__when_ambiguous_asks_only_where_the_meld_can_be_read_two_ways() {
    let mut g = declaring_game("when-ambiguous");
    let m = rejected(&mut g, 1, meld("9H 10H JK"), Reason::AmbiguousWild);
    assert!(m.contains("2 ways"), "{m}");
    ok(&mut g, 1, meld_declared("9H 10H JK", None, &[("JK", "JH")]));
    assert_eq!(g.deal.table[1].interps.len(), 1);
    let role = g.deal.table[1].interps[0]
        .roles
        .iter()
        .find(|r| r.card.is_joker())
        .unwrap();
    assert_eq!(role.stands_for, Target::Card(c("JH")));
    // A set of 7s with one joker can mean one thing only: no declaration needed.
    ok(&mut g, 1, meld("7C 7H JK"));
}

#[test]
fn wild_declaration__when_ambiguous_does_not_ask_about_a_meld_without_wilds() {
    // On Push's circular line a natural 13-card run lies ace low (A–K) or ace high (2–A). The 2♠
    // is natural (natural-twos=runs-only), so there is no wild to declare: both readings stay.
    let mut g = push(&[]);
    rig(
        &mut g,
        Pos {
            hands: &[
                "KH",
                "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 9C",
                "9D",
                "AH",
            ],
            discard: "4D",
            table: &[(1, "QC QH QD")],
            ..Pos::default()
        },
    );
    ok(&mut g, 1, meld("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"));
    assert_eq!(g.deal.table[1].interps.len(), 2);
    // With a wild in it, the same question has an answer to declare, and is asked.
    let mut g = declaring_game("when-ambiguous");
    rejected(&mut g, 1, meld("9H 10H JK"), Reason::AmbiguousWild);
}

#[test]
fn wild_declaration__always_requires_the_kind_and_every_wild() {
    let mut g = declaring_game("always");
    rejected(&mut g, 1, meld("7C 7H JK"), Reason::DeclarationRequired);
    rejected(
        &mut g,
        1,
        meld_declared("7C 7H JK", Some(MeldKind::Set), &[]),
        Reason::DeclarationRequired,
    );
    rejected(
        &mut g,
        1,
        meld_declared("9H 10H JK", None, &[("JK", "JH")]),
        Reason::DeclarationRequired,
    );
    ok(
        &mut g,
        1,
        meld_declared("7C 7H JK", Some(MeldKind::Set), &[("JK", "7")]),
    );
    ok(
        &mut g,
        1,
        meld_declared("9H 10H JK", Some(MeldKind::Run), &[("JK", "JH")]),
    );
}

#[test]
fn wild_declaration__never_refuses_declarations_and_lets_the_wilds_float_until_a_lay_off() {
    let mut g = declaring_game("never");
    rejected(
        &mut g,
        1,
        meld_declared("9H 10H JK", None, &[("JK", "JH")]),
        Reason::DeclarationNotAllowed,
    );
    ok(&mut g, 1, meld("9H 10H JK"));
    let stands = |g: &Game| -> Vec<Target> {
        g.deal.table[1]
            .interps
            .iter()
            .map(|i| {
                i.roles
                    .iter()
                    .find(|r| r.card.is_joker())
                    .unwrap()
                    .stands_for
            })
            .collect()
    };
    let mut both = stands(&g);
    both.sort();
    assert_eq!(
        both,
        vec![Target::Card(c("8H")), Target::Card(c("JH"))],
        "the joker may be 8♥ or J♥"
    );
    rejected(
        &mut g,
        1,
        lay_off_declared(0, "JK", &[("JK", "Q")]),
        Reason::DeclarationNotAllowed,
    );
    // The Q♥ fits only 9♥-Q♥: the joker is now the J♥.
    ok(&mut g, 1, lay_off(1, "QH"));
    assert_eq!(stands(&g), vec![Target::Card(c("JH"))]);
    assert_eq!(g.deal.table[1].cards, sorted("9H 10H JK QH"));
}

#[test]
fn wild_declaration__never_a_rescue_settles_what_a_floating_wild_stood_for() {
    for natural in ["8H", "JH"] {
        let mut g = push(&[(DisputeId::WildDeclaration, "never")]);
        rig(
            &mut g,
            Pos {
                hands: &["KS", "8H JH QH KC", "9C", "AH"],
                discard: "4D",
                table: &[(0, "9H 10H JK"), (1, "QS QC QD")],
                ..Pos::default()
            },
        );
        assert_eq!(g.deal.table[0].interps.len(), 2);
        rejected(&mut g, 1, rescue(0, "QH", "JK"), Reason::RescueNoMatch);
        ok(&mut g, 1, rescue(0, natural, "JK"));
        assert_eq!(
            g.deal.table[0].cards,
            sorted(&format!("9H 10H {natural}")),
            "{natural}"
        );
        assert_eq!(g.deal.table[0].interps.len(), 1);
        assert_eq!(g.deal.hands[1].count(Card::JOKER), 1);
    }
}

/// Seat 1, its contract made, holds a joker to lay off on 5S 6S 7S (as 4S or 8S) or on QS QC QD.
fn joker_to_lay_off(readings: &[(DisputeId, &str)]) -> Game {
    let mut g = push(readings);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "JK KC", "9C", "AH"],
            discard: "4D",
            table: &[(1, "5S 6S 7S"), (1, "QS QC QD")],
            ..Pos::default()
        },
    );
    g
}

#[test]
fn wild_declaration__when_ambiguous_applies_to_a_wild_laid_off_on_a_run() {
    let mut g = joker_to_lay_off(&[]);
    rejected(&mut g, 1, lay_off(0, "JK"), Reason::AmbiguousWild);
    ok(&mut g, 1, lay_off_declared(0, "JK", &[("JK", "8S")]));
    assert_eq!(g.deal.table[0].interps.len(), 1);
}

#[test]
fn wild_declaration__always_accepts_a_declared_wild_laid_off_on_a_run() {
    // The lay-off takes its kind from the meld it goes on; only the wild's meaning is declared.
    let mut g = joker_to_lay_off(&[(DisputeId::WildDeclaration, "always")]);
    rejected(&mut g, 1, lay_off(0, "JK"), Reason::DeclarationRequired);
    ok(&mut g, 1, lay_off_declared(0, "JK", &[("JK", "8S")]));
    assert_eq!(g.deal.table[0].cards, sorted("5S 6S 7S JK"));
}

#[test]
fn wild_declaration__always_wants_a_wild_declared_where_it_joins_one_way_only() {
    // Onto QS QC QD the joker can only be a queen (rank-only): still declared under `always`.
    let mut g = joker_to_lay_off(&[(DisputeId::WildDeclaration, "always")]);
    rejected(&mut g, 1, lay_off(1, "JK"), Reason::DeclarationRequired);
}

#[test]
fn wild_declaration__the_plain_lay_off_of_a_wild_is_listed_only_where_apply_may_take_it() {
    // A joker onto 5S 6S 7S is 4S or 8S; onto QS QC QD it is a queen either way (rank-only).
    let forms = |reading: &str| -> (Vec<Action>, Vec<Action>) {
        let g = joker_to_lay_off(&[(DisputeId::WildDeclaration, reading)]);
        let run = g.lay_off_forms(0, c("JK"), None);
        let set = g.lay_off_forms(1, c("JK"), None);
        for a in run.iter().chain(&set) {
            assert!(g.accepts(1, a), "{reading}: {a:?} is listed but refused");
        }
        (run, set)
    };
    let declared = |meld: usize, to: &str| lay_off_declared(meld, "JK", &[("JK", to)]);
    let (run, set) = forms("when-ambiguous");
    assert_eq!(run, vec![declared(0, "4S"), declared(0, "8S")]);
    assert_eq!(set, vec![lay_off(1, "JK"), declared(1, "Q")]);
    let (run, set) = forms("always");
    assert_eq!(run, vec![declared(0, "4S"), declared(0, "8S")]);
    assert_eq!(set, vec![declared(1, "Q")]);
    let (run, set) = forms("never");
    assert_eq!(run, vec![lay_off(0, "JK")]);
    assert_eq!(set, vec![lay_off(1, "JK")]);
}

// ---------------------------------------------------------------------------------------------
// Lay-offs

#[test]
fn lay_off__extends_a_run_at_either_end_but_not_past_a_gap() {
    let mut g = push(&[]);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "4S 8S 10S KC", "9C", "AH"],
            discard: "4D",
            table: &[(1, "5S 6S 7S"), (1, "QS QC QD")],
            ..Pos::default()
        },
    );
    let before = g.clone();
    let stamps = |g: &Game| -> Vec<u64> { g.deal.table.iter().map(|m| m.stamp()).collect() };
    let ev = ok(&mut g, 1, lay_off(0, "4S"));
    assert_eq!(
        ev,
        vec![Event::LaidOff {
            seat: 1,
            meld: 0,
            cards: cards("4S").into(),
            joined: None
        }]
    );
    // The meld changes in place in this game only: a copy taken before keeps the old one.
    assert_eq!(before.deal.table[0].cards, sorted("5S 6S 7S"));
    assert_eq!(g.deal.table[0].cards, sorted("4S 5S 6S 7S"));
    // A changed meld has a new stamp (what the greedy player's memory goes by), the others keep
    // theirs; equality is about the meld, not its stamp.
    let (old, new) = (stamps(&before), stamps(&g));
    assert_ne!(old[0], new[0]);
    assert_eq!(old[1], new[1]);
    let mut restamped = (*g.deal.table[1]).clone();
    restamped.restamp();
    assert_ne!(restamped.stamp(), g.deal.table[1].stamp());
    assert_eq!(restamped, *g.deal.table[1]);
    assert_ne!(*before.deal.table[0], *g.deal.table[0]);
    // Nor does `Debug` show it: the same text for the same meld, in any run.
    let text = format!("{restamped:?}");
    assert_eq!(text, format!("{:?}", g.deal.table[1]));
    assert!(
        text.contains("owner: 1") && text.contains("interps"),
        "{text}"
    );
    ok(&mut g, 1, lay_off(0, "8S"));
    assert_eq!(g.deal.table[0].cards, sorted("4S 5S 6S 7S 8S"));
    let kept = stamps(&g);
    rejected(&mut g, 1, lay_off(0, "10S"), Reason::InvalidLayOff);
    rejected(&mut g, 1, lay_off(5, "10S"), Reason::NoSuchMeld);
    assert_eq!(stamps(&g), kept, "a refused lay-off changes no meld");
    assert_hand(&g, 1, "10S KC");
}

/// Listing a wild's lay-off forms remembers the meld's extension for the lay-off that follows;
/// each form then changes the game exactly as in a copy, which remembers nothing.
#[test]
fn lay_off__a_listed_form_applies_as_in_a_copy_that_remembers_nothing() {
    for declaration in ["when-ambiguous", "always", "never"] {
        let mut g = push(&[(DisputeId::WildDeclaration, declaration)]);
        rig(
            &mut g,
            Pos {
                hands: &["KS", "JK 2C KC", "9C", "AH"],
                discard: "4D",
                table: &[(1, "5S 6S 7S"), (1, "QS QC QD")],
                ..Pos::default()
            },
        );
        let mut applied = 0;
        for wild in ["JK", "2C"] {
            for m in 0..2 {
                for form in g.lay_off_forms(m, c(wild), None) {
                    let mut fresh = g.clone();
                    let mut listed = g.clone();
                    assert!(listed.lay_off_forms(m, c(wild), None).contains(&form));
                    let (a, b) = (listed.apply(1, &form), fresh.apply(1, &form));
                    assert_eq!(a, b, "{declaration}: {form:?}");
                    assert_eq!(listed.deal, fresh.deal, "{declaration}: {form:?}");
                    applied += usize::from(a.is_ok());
                }
            }
        }
        assert!(applied >= 3, "{declaration}: {applied} forms applied");
    }
}

#[test]
fn lay_off__two_cards_at_both_ends_in_one_action() {
    let mut g = push(&[]);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "4S 8S KC", "9C", "AH"],
            discard: "4D",
            table: &[(1, "5S 6S 7S"), (1, "QS QC QD")],
            ..Pos::default()
        },
    );
    let ev = ok(&mut g, 1, lay_off(0, "4S 8S"));
    assert_eq!(
        ev,
        vec![Event::LaidOff {
            seat: 1,
            meld: 0,
            cards: cards("4S 8S").into(),
            joined: None
        }]
    );
    assert_eq!(g.deal.table[0].cards, sorted("4S 5S 6S 7S 8S"));
    assert_eq!(g.deal.table[0].interps.len(), 1);
}

#[test]
fn lay_off__onto_an_opponents_meld_after_ones_own_contract() {
    let mut g = push(&[]);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "8S KC", "9C", "AH"],
            discard: "4D",
            table: &[(0, "5S 6S 7S"), (1, "QS QC QD"), (1, "JS JC JD")],
            ..Pos::default()
        },
    );
    ok(&mut g, 1, lay_off(0, "8S"));
    assert_eq!(g.deal.table[0].owner, 0, "the meld stays its owner's");
    assert_eq!(g.deal.table[0].cards, sorted("5S 6S 7S 8S"));
}

fn set_game(readings: &[(DisputeId, &str)]) -> Game {
    let mut g = push(readings);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "7C JK KC", "9C", "AH"],
            discard: "4D",
            table: &[(1, "7S 7H 7D"), (1, "QS QC QD")],
            ..Pos::default()
        },
    );
    g
}

#[test]
fn set_max_size__4_takes_a_fourth_card_and_refuses_a_fifth() {
    let mut g = set_game(&[]);
    ok(&mut g, 1, lay_off(0, "7C"));
    assert_eq!(g.deal.table[0].cards.len(), 4);
    rejected(&mut g, 1, lay_off(0, "JK"), Reason::InvalidLayOff);
}

#[test]
fn set_max_size__unlimited_takes_a_fifth_card() {
    let mut g = set_game(&[(DisputeId::SetMaxSize, "unlimited")]);
    ok(&mut g, 1, lay_off(0, "7C"));
    ok(&mut g, 1, lay_off(0, "JK"));
    assert_eq!(g.deal.table[0].cards, sorted("7S 7H 7D 7C JK"));
}

fn join_game(readings: &[(DisputeId, &str)], table: &'static [(u8, &'static str)]) -> Game {
    let mut g = push(readings);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "6H KC", "9C", "AH"],
            discard: "4D",
            table,
            ..Pos::default()
        },
    );
    g
}

fn join(meld: usize, s: &str, j: usize) -> Action {
    Action::LayOff {
        meld,
        cards: cards(s).into(),
        declared: vec![],
        join: Some(j),
    }
}

#[test]
fn run_join_split__join_allowed_joins_two_runs_into_one() {
    let mut g = join_game(
        &[(DisputeId::RunJoinSplit, "join-allowed")],
        &[(1, "3H 4H 5H"), (1, "7H 8H 9H")],
    );
    let ev = ok(&mut g, 1, join(0, "6H", 1));
    assert_eq!(
        ev,
        vec![Event::LaidOff {
            seat: 1,
            meld: 0,
            cards: cards("6H").into(),
            joined: Some(1)
        }]
    );
    assert_eq!(g.deal.table.len(), 1);
    assert_eq!(g.deal.table[0].cards, sorted("3H 4H 5H 6H 7H 8H 9H"));
    assert_eq!(g.deal.table[0].interps.len(), 1);
    assert_hand(&g, 1, "KC");
}

#[test]
fn run_join_split__never_refuses_a_join_but_extends_an_end() {
    let mut g = join_game(&[], &[(1, "3H 4H 5H"), (1, "7H 8H 9H")]);
    rejected(&mut g, 1, join(0, "6H", 1), Reason::JoinNotAllowed);
    ok(&mut g, 1, lay_off(0, "6H"));
    assert_eq!(g.deal.table.len(), 2);
    assert_eq!(g.deal.table[0].cards, sorted("3H 4H 5H 6H"));
}

#[test]
fn run_join_split__join_allowed_onto_the_later_meld_leaves_one_run() {
    // The target is the later meld and the earlier one is joined into it: the earlier meld's
    // number goes away, so the joined run ends up as meld 0.
    let mut g = join_game(
        &[(DisputeId::RunJoinSplit, "join-allowed")],
        &[(1, "7H 8H 9H"), (1, "3H 4H 5H"), (1, "QS QC QD")],
    );
    let ev = ok(&mut g, 1, join(1, "6H", 0));
    assert_eq!(g.deal.table.len(), 2);
    let joined = g
        .deal
        .table
        .iter()
        .position(|m| m.cards == sorted("3H 4H 5H 6H 7H 8H 9H"))
        .expect("the joined run is on the table");
    assert_eq!(joined, 0);
    assert_eq!(g.deal.table[1].cards, sorted("QS QC QD"));
    assert_eq!(
        ev,
        vec![Event::LaidOff {
            seat: 1,
            meld: 0,
            cards: cards("6H").into(),
            joined: Some(0)
        }],
        "the event names the joined run by its number after the join, and the number the other run had"
    );
}

#[test]
fn run_join_split__join_allowed_joins_runs_only() {
    let mut g = join_game(
        &[(DisputeId::RunJoinSplit, "join-allowed")],
        &[(1, "3H 4H 5H"), (1, "7S 7D 7C")],
    );
    rejected(&mut g, 1, join(0, "6H", 1), Reason::InvalidLayOff);
    rejected(&mut g, 1, join(0, "6H", 0), Reason::NoSuchMeld);
}

// ---------------------------------------------------------------------------------------------
// Rescue

/// Meld 0: seat 0's set 7♣ 7♥ JK; meld 1: seat 1's run 5♠ 6♠ 7♠ (seat 1 has its contract down
/// unless `seat1_done` is false).
fn rescue_game(readings: &[(DisputeId, &str)], set: &'static str, seat1_done: bool) -> Game {
    let mut g = push(readings);
    let table: &[(u8, &str)] = if seat1_done {
        &[(0, set), (1, "5S 6S 7S")]
    } else {
        &[(0, set), (0, "5S 6S 7S")]
    };
    rig(
        &mut g,
        Pos {
            hands: &["KS", "7D 7S KC", "9C", "AH"],
            discard: "4D",
            table,
            ..Pos::default()
        },
    );
    g
}

#[test]
fn rescue_timing__after_own_contract_refuses_a_rescue_before_it() {
    let mut g = rescue_game(&[], "7C 7H JK", false);
    let m = rejected(&mut g, 1, rescue(0, "7D", "JK"), Reason::RescueNotAllowed);
    assert!(m.contains("rescue-timing"), "{m}");
}

#[test]
fn rescue_timing__any_time_allows_a_rescue_before_the_contract() {
    let mut g = rescue_game(&[(DisputeId::RescueTiming, "any-time")], "7C 7H JK", false);
    let ev = ok(&mut g, 1, rescue(0, "7D", "JK"));
    assert_eq!(
        ev,
        vec![Event::Rescued {
            seat: 1,
            meld: 0,
            natural: c("7D"),
            wild: c("JK")
        }]
    );
    assert_hand(&g, 1, "JK 7S KC");
    assert_eq!(g.deal.table[0].cards, sorted("7C 7H 7D"));
    assert_eq!(g.deal.table[0].owner, 0);
    assert!(!g.deal.progress[1].done);
}

#[test]
fn wild_in_set_represents__rank_only_lets_any_seven_the_set_may_take_rescue_the_joker() {
    for natural in ["7D", "7S"] {
        let mut g = rescue_game(&[], "7C 7H JK", true);
        ok(&mut g, 1, rescue(0, natural, "JK"));
        assert_eq!(
            g.deal.table[0].cards,
            sorted(&format!("7C 7H {natural}")),
            "{natural}"
        );
        assert_eq!(g.deal.hands[1].count(Card::JOKER), 1);
    }
    // A second 7♣ cannot stand in a set that already has the 7♣ (set-duplicate-suits).
    let mut g = push(&[]);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "7C KC", "9C", "AH"],
            discard: "4D",
            table: &[(0, "7C 7H JK"), (1, "5S 6S 7S")],
            ..Pos::default()
        },
    );
    rejected(&mut g, 1, rescue(0, "7C", "JK"), Reason::RescueNoMatch);
}

#[test]
fn wild_in_set_represents__exact_card_only_the_declared_card_rescues() {
    let readings = [(DisputeId::WildInSetRepresents, "exact-card")];
    let mut g = rescue_game(&readings, "7C 7H JK=7S", true);
    rejected(&mut g, 1, rescue(0, "7D", "JK"), Reason::RescueNoMatch);
    // The 7♦ is an ordinary lay-off instead.
    let mut laid = g.clone();
    ok(&mut laid, 1, lay_off(0, "7D"));
    assert_eq!(laid.deal.table[0].cards, sorted("7C 7H 7D JK"));
    // Only the 7♠ takes the joker's place.
    ok(&mut g, 1, rescue(0, "7S", "JK"));
    assert_eq!(g.deal.table[0].cards, sorted("7C 7H 7S"));
    assert_hand(&g, 1, "7D JK KC");
}

#[test]
fn rescued_wild_fate__to_hand_keeps_the_wild_in_hand() {
    let mut g = rescue_game(&[], "7C 7H JK", true);
    ok(&mut g, 1, rescue(0, "7D", "JK"));
    assert_hand(&g, 1, "JK 7S KC");
    // The turn goes on and ends with an ordinary discard; the joker stays in hand.
    ok(&mut g, 1, discard("KC"));
    assert_hand(&g, 1, "JK 7S");
}

#[test]
fn rescued_wild_fate__meld_same_turn_wants_the_wild_melded_in_the_same_action() {
    let readings = [(DisputeId::RescuedWildFate, "meld-same-turn")];
    let mut g = rescue_game(&readings, "7C 7H JK", true);
    rejected(
        &mut g,
        1,
        rescue(0, "7D", "JK"),
        Reason::RescuedWildNotMelded,
    );
    // A follow-up that does not use the wild does not count.
    let then_other = Action::Rescue {
        meld: 0,
        natural: c("7D"),
        wild: Card::JOKER,
        then: Some(Box::new(lay_off(0, "7S"))),
    };
    rejected(&mut g, 1, then_other, Reason::RescuedWildNotMelded);
    let then_lay_off = Action::Rescue {
        meld: 0,
        natural: c("7D"),
        wild: Card::JOKER,
        then: Some(Box::new(lay_off_declared(1, "JK", &[("JK", "8S")]))),
    };
    let ev = ok(&mut g, 1, then_lay_off);
    assert_eq!(
        ev,
        vec![
            Event::Rescued {
                seat: 1,
                meld: 0,
                natural: c("7D"),
                wild: c("JK")
            },
            Event::LaidOff {
                seat: 1,
                meld: 1,
                cards: cards("JK").into(),
                joined: None
            },
        ]
    );
    assert_hand(&g, 1, "7S KC");
    assert_eq!(g.deal.table[0].cards, sorted("7C 7H 7D"));
    assert_eq!(g.deal.table[1].cards, sorted("5S 6S 7S JK"));
}

fn two_game(reading: &str, run: &'static str) -> Game {
    let mut g = push(&[(DisputeId::FrozenTwo, reading)]);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "2H KC", "9C", "AH"],
            discard: "4D",
            table: &[(0, run), (1, "QS QC QD"), (1, "JS JC JD")],
            ..Pos::default()
        },
    );
    g
}

#[test]
fn frozen_two__position_keeps_a_two_in_the_two_place_frozen() {
    let mut g = two_game("position", "AH 2C 3H 4H");
    rejected(&mut g, 1, rescue(0, "2H", "2C"), Reason::RescueFrozen);
    // A joker in the two's place is no two: the 2♥ rescues it.
    let mut g = two_game("position", "AH JK 3H 4H");
    ok(&mut g, 1, rescue(0, "2H", "JK"));
    assert_eq!(g.deal.table[0].cards, sorted("AH 2H 3H 4H"));
    assert_hand(&g, 1, "JK KC");
}

#[test]
fn frozen_two__represents_itself_lets_the_natural_two_rescue_a_wild_two() {
    let mut g = two_game("represents-itself", "AH 2C 3H 4H");
    let ev = ok(&mut g, 1, rescue(0, "2H", "2C"));
    assert_eq!(
        ev,
        vec![Event::Rescued {
            seat: 1,
            meld: 0,
            natural: c("2H"),
            wild: c("2C")
        }]
    );
    assert_eq!(g.deal.table[0].cards, sorted("AH 2H 3H 4H"));
    assert_hand(&g, 1, "2C KC");
    // The 2♥ now stands for itself and can never be rescued.
    let r = &g.deal.table[0].interps[0].roles;
    assert!(r.iter().any(|x| x.card == c("2H") && x.natural), "{r:?}");
}

// ---------------------------------------------------------------------------------------------
// Discards

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

// ---------------------------------------------------------------------------------------------
// Going out and scoring

/// Seat 1 (side 1) holds `hand` with its contract down; the others hold 30 + 25 (side 0) and 20.
fn going_out_game(g: &mut Game, hand: &str) {
    rig(
        g,
        Pos {
            hands: &["KS 2C", hand, "JK 9D", "QH QD"],
            discard: "4D",
            table: &[(1, "5S 6S 7S"), (1, "JS JC JD")],
            ..Pos::default()
        },
    );
}

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
    assert_eq!(
        *g.results,
        vec![HandResult {
            end: HandEnd::WentOut(1),
            points: vec![55, 0]
        }]
    );
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

// ---------------------------------------------------------------------------------------------
// Stock-out and stalls

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

// ---------------------------------------------------------------------------------------------
// The end of the game

/// Push at its last deal with earlier results `prior` (totals kept equal to their sum); seat
/// `out` goes out by discarding 5♣ while side 0 keeps `side0` and side 1 keeps `side1` in hand.
fn last_hand(ties: &str, prior: &[[u32; 2]], out: u8, side0: &str, side1: &str) -> Vec<Event> {
    let mut g = push(&[(DisputeId::Ties, ties)]);
    g.round = g.rules.rounds.len() - 1;
    g.results = Arc::new(
        prior
            .iter()
            .map(|p| HandResult {
                end: HandEnd::WentOut(0),
                points: p.to_vec(),
            })
            .collect(),
    );
    g.totals = (0..2)
        .map(|s| prior.iter().map(|p| i64::from(p[s])).sum())
        .collect();
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

// ---------------------------------------------------------------------------------------------
// The deal

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

#[test]
fn contract_in_one_turn__piecemeal_takes_the_last_piece_and_an_extra_meld_in_one_action() {
    let mut g = contract_game(&[(DisputeId::ContractInOneTurn, "piecemeal")], EXTRAS_HAND);
    let ev = ok(&mut g, 1, melds(&["7S 7H 7D", "9S 9H 9D", "QS QH QD"]));
    let flags: Vec<bool> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Melded { contract, .. } => Some(*contract),
            _ => None,
        })
        .collect();
    assert_eq!(flags, vec![true, true, false]);
    let mut g = contract_game(
        &[
            (DisputeId::ContractInOneTurn, "piecemeal"),
            (DisputeId::ContractTurnExtras, "next-turn"),
        ],
        EXTRAS_HAND,
    );
    rejected(
        &mut g,
        1,
        melds(&["7S 7H 7D", "9S 9H 9D", "QS QH QD"]),
        Reason::NextTurnOnly,
    );
}

#[test]
fn rescue_timing__any_time_still_waits_after_a_contract_laid_this_turn_under_next_turn() {
    let mut g = rescue_game(
        &[
            (DisputeId::RescueTiming, "any-time"),
            (DisputeId::ContractTurnExtras, "next-turn"),
        ],
        "7C 7H JK",
        false,
    );
    g.deal.contract_turn = true;
    rejected(&mut g, 1, rescue(0, "7D", "JK"), Reason::NextTurnOnly);
}
