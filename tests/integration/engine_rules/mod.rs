//! One focused test per engine rule: each builds a small hand-made position (cards conserved, the
//! invariants checked) and asserts exactly what the engine does with one action: the events, the
//! hands, the table and the scores, or the exact reason code. Every dispute whose behaviour lives
//! in the engine is tried under each of its readings where the outcome differs.
//!
//! Names read `rule__reading_or_case`. Seats are clockwise, seat + 1 is "left"; in four-player Push
//! seats 0 and 2 are side 0, seats 1 and 3 side 1.
//!
//! The fixtures (a position rigged from card strings, the actions written short) are here; the
//! tests are in one module per part of the rules, in the order of a hand: draws, contracts,
//! declaring wilds, lay-offs, rescues, discards, going out and scoring, stalls, the end of the
//! game, the deal.

use crate::common;
mod buying;
mod contracts;
mod deal;
mod discards;
mod draws;
mod game_end;
mod going_out;
mod lay_offs;
mod rescues;
mod stalls;
mod turn_rules;
mod wild_declaration;

use common::rejected;
use push_rummy::base::card::{Card, Counts, parse_cards};
use push_rummy::engine::game::{
    Action, Event, Game, HandEnd, HandResult, MeldSpec, Progress, Reason, Stage, TableMeld, pack,
};
use push_rummy::oracle::meld::{self, Query, Target};
use push_rummy::rules::disputes::DisputeId;
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
        let (v, kind, declared) = table_spec(s);
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
        if push_rummy::engine::game::meld_declares(&g.rules, &v).pins() {
            assert_eq!(
                verdict.interpretations.len(),
                1,
                "table meld {s} is ambiguous: declare its wilds"
            );
        }
        // A position lists a meld's cards in the order they were laid, and the meld keeps it.
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
fn hand_ended(ev: &[Event]) -> (String, Vec<i64>, Vec<i64>) {
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
