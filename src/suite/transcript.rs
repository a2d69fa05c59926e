//! Replaying a scenario into its canonical transcript: the rules' fingerprint, then per step the
//! seat, the action, the result (events, or the reason code and message) and the state after it,
//! then the outcome. The transcript is plain data ([`Transcript`]); [`Transcript::json`] and
//! [`Transcript::text`] are two renderings of the same data, both documented field by field in
//! `conformance/README.md`. Nothing in it depends on the machine, the path of the scenario or
//! the time: the same scenario gives the same transcript everywhere.

use crate::base::card::{Card, Counts};
use crate::engine::game::{Action, Event, Game, HandEnd, Illegal, Stage};
use crate::oracle::meld::{self, Interpretation};
use crate::rules::spec::{self, MeldKind, RawRules};
use crate::suite::scenario::{Check, EndSpec, Expect, MeldCheck, Scenario};
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The transcript format and its version.
pub const FORMAT: &str = "push-rummy-transcript 1";

/// The resolved rules as the fingerprint hashes them: one line `path=value` per rule, sorted by
/// path, metadata (`game`, `name`, `description`, `extends`) and citations left out.
pub fn rules_listing(raw: &RawRules) -> String {
    let mut out = String::new();
    for (path, e) in &raw.entries {
        if spec::META.contains(&path.as_str()) {
            continue;
        }
        let value = e.value.listing();
        let _ = writeln!(out, "{path}={value}");
    }
    out
}

/// FNV-1a, 64 bits.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// `fnv1a64:` and 16 lowercase hex digits of the FNV-1a 64 hash of [`rules_listing`].
pub fn fingerprint(raw: &RawRules) -> String {
    format!("fnv1a64:{:016x}", fnv1a64(rules_listing(raw).as_bytes()))
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesInfo {
    pub game: String,
    pub name: String,
    pub fingerprint: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableInfo {
    pub players: u8,
    /// The seats of each side.
    pub sides: Vec<Vec<u8>>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeldState {
    pub owner: u8,
    /// In the order the cards were laid (`TableMeld::cards`), not sorted.
    pub cards: Vec<String>,
    /// Every interpretation still open (one unless wilds float), each `KIND: ROLES`.
    pub readings: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StockState {
    pub count: usize,
    pub top: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContractState {
    pub met: bool,
    /// Contract melds down, in contract order (piecemeal contracts fill them one by one).
    pub filled: Vec<bool>,
}

/// Buying out of turn, in a state where the rules allow it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuyState {
    /// While a buy window is open (stage `buy`): the player on turn, who plays on once it
    /// closes; the seat to move (`turn`) is the seat asked.
    pub window: Option<u8>,
    /// Buys each seat has made this hand.
    pub buys: Vec<u8>,
}

/// The state of the game: what a conforming implementation must agree on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The deal being played, from 1.
    pub round: usize,
    pub dealer: u8,
    pub turn: u8,
    /// `draw`, `play` or `over`.
    #[serde(deserialize_with = "known_stage")]
    pub stage: Name,
    /// The card taken from the discard pile this turn.
    pub taken: Option<String>,
    /// Each seat's hand in canonical order.
    pub hands: Vec<Vec<String>>,
    pub table: Vec<MeldState>,
    pub stock: StockState,
    /// The discard pile, top card first.
    pub discard: Vec<String>,
    pub contract: Vec<ContractState>,
    /// Cumulative score per side.
    pub totals: Vec<i64>,
    /// Only where the rules allow buying (`buying.allowed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buying: Option<BuyState>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultRecord {
    pub ok: bool,
    /// The events (accepted actions), in order.
    pub events: Vec<serde_json::Value>,
    /// The reason code (rejected actions).
    pub reason: Option<String>,
    pub message: Option<String>,
    #[serde(skip)]
    pub events_text: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckRecord {
    pub check: String,
    pub held: bool,
    /// What was found, when it did not hold.
    pub found: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepRecord {
    /// From 1, in the order of the scenario.
    pub step: usize,
    /// The seat that acted (none for a checkpoint without action).
    pub seat: Option<u8>,
    pub action: Option<String>,
    /// `ok`, `rejected CODE`, or none when the scenario states no expectation.
    pub expect: Option<String>,
    pub result: Option<ResultRecord>,
    pub checks: Vec<CheckRecord>,
    /// Expectations and checks of this step that did not hold.
    pub failures: Vec<String>,
    pub state: State,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandRecord {
    pub round: usize,
    /// `went-out SEAT`, `stock-out` or `stalled`.
    pub end: String,
    pub points: Vec<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Every expectation and check held.
    pub held: bool,
    /// Steps with a failure.
    pub failed_steps: Vec<usize>,
    /// Hands ended during the scenario.
    pub hands: Vec<HandRecord>,
    pub round: usize,
    pub totals: Vec<i64>,
    pub game_over: bool,
    pub winners: Vec<u8>,
}

/// A replayed scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Transcript {
    #[serde(deserialize_with = "known_format")]
    pub format: Name,
    pub title: String,
    pub rules: RulesInfo,
    pub table: TableInfo,
    pub start: State,
    pub steps: Vec<StepRecord>,
    pub outcome: Outcome,
}

/// A failed expectation or check, with the scenario line of its step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub step: usize,
    pub line: u32,
    pub message: String,
}

/// A fixed name (a stage, the format). An alias, so that serde's derive reads it back through the
/// functions below (which map it to the engine's own names) instead of borrowing from the input.
pub type Name = &'static str;

/// A stage name read back as the engine's own (`draw`, `play`, `over`).
fn known_stage<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    let s = String::deserialize(d)?;
    ["draw", "play", "buy", "over"]
        .into_iter()
        .find(|k| *k == s)
        .ok_or_else(|| {
            serde::de::Error::custom(format!("`{s}` is not a stage (draw, play, buy, over)"))
        })
}

/// The transcript format read back: only this version ([`FORMAT`]).
fn known_format<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    let s = String::deserialize(d)?;
    if s == FORMAT {
        Ok(FORMAT)
    } else {
        Err(serde::de::Error::custom(format!(
            "`{s}` is not the format `{FORMAT}`"
        )))
    }
}

fn cards_of(c: &[Card]) -> Vec<String> {
    c.iter().map(Card::to_string).collect()
}

fn stage_name(s: Stage) -> &'static str {
    match s {
        Stage::Draw => "draw",
        Stage::Play => "play",
        Stage::Buy => "buy",
        Stage::Over => "over",
    }
}

/// `set 7: 7S 7H JK=7`, `run H 9-Q: 9H 10H JK=JH QH` (roles in canonical order).
pub fn reading_text(i: &Interpretation) -> String {
    let roles: Vec<String> = i
        .roles
        .iter()
        .map(|r| {
            if r.natural {
                r.card.to_string()
            } else {
                format!("{}={}", r.card, r.stands_for)
            }
        })
        .collect();
    let head = match i.kind {
        MeldKind::Set => format!("set {}", i.rank.map_or("?", |r| r.name())),
        MeldKind::Run => {
            let lo = i.roles.first().and_then(|r| r.stands_for.rank());
            let hi = i.roles.last().and_then(|r| r.stands_for.rank());
            format!(
                "run {} {}-{}",
                i.suit.map_or('*', |s| s.letter()),
                lo.map_or("?", |r| r.name()),
                hi.map_or("?", |r| r.name())
            )
        }
    };
    format!("{head}: {}", roles.join(" "))
}

/// The state of `g`.
pub fn state(g: &Game) -> State {
    let d = &g.deal;
    State {
        round: g.round + 1,
        dealer: g.dealer,
        turn: d.turn,
        stage: stage_name(d.stage),
        taken: d.taken.map(|c| c.to_string()),
        hands: d.hands.iter().map(|h| cards_of(&h.cards())).collect(),
        table: d
            .table
            .iter()
            .map(|m| MeldState {
                owner: m.owner,
                cards: cards_of(&m.cards),
                readings: m.interps.iter().map(reading_text).collect(),
            })
            .collect(),
        stock: StockState {
            count: d.stock.len(),
            top: d.stock.last().map(Card::to_string),
        },
        discard: d.discard.iter().rev().map(Card::to_string).collect(),
        contract: d
            .progress
            .iter()
            .map(|p| ContractState {
                met: p.done,
                filled: p.filled.clone(),
            })
            .collect(),
        totals: g.totals.clone(),
        buying: g.rules.buying.map(|_| BuyState {
            window: d.window,
            buys: d.buys.clone(),
        }),
    }
}

/// One line for people.
pub fn event_text(e: &Event) -> String {
    match e {
        Event::Dealt {
            round,
            dealer,
            first,
        } => format!("deal {round}: seat {dealer} deals, seat {first} plays first"),
        Event::UpcardBuried { card } => format!("upcard {card} is wild: buried"),
        Event::Upcard { card } => format!("upcard {card}"),
        Event::TookDiscard { seat, card } => format!("seat {seat} takes the discard {card}"),
        Event::Pushed {
            seat,
            to,
            discard,
            stock,
            face_up,
        } => format!(
            "seat {seat} pushes {}{} to seat {to} ({})",
            discard
                .as_ref()
                .map(|d| format!("{d} + "))
                .unwrap_or_default(),
            words(stock),
            if *face_up { "face up" } else { "face down" }
        ),
        Event::Drew { seat, card } => format!("seat {seat} draws {card}"),
        Event::Reshuffled { cards } => format!("{cards} discards reshuffled into the stock"),
        Event::Melded {
            seat,
            meld,
            cards,
            contract,
        } => format!(
            "seat {seat} melds #{meld}: {}{}",
            words(cards),
            if *contract { " (contract)" } else { "" }
        ),
        Event::LaidOff {
            seat,
            meld,
            cards,
            joined,
        } => format!(
            "seat {seat} lays off {} on #{meld}{}",
            words(cards),
            joined
                .map(|j| format!(", joining #{j}"))
                .unwrap_or_default()
        ),
        Event::Rescued {
            seat,
            meld,
            natural,
            wild,
        } => format!("seat {seat} rescues {wild} from #{meld} with {natural}"),
        Event::Discarded { seat, card } => format!("seat {seat} discards {card}"),
        Event::Bought { seat, card, stock } => {
            format!(
                "seat {seat} buys {card} with {}",
                if stock.is_empty() {
                    "no stock card".to_string()
                } else {
                    words(stock)
                }
            )
        }
        Event::Passed { seat } => format!("seat {seat} passes"),
        Event::TurnEnded { seat } => format!("seat {seat} ends the turn without a discard"),
        Event::WentOut { seat } => format!("seat {seat} goes out"),
        Event::HandEnded {
            reason,
            points,
            totals,
        } => format!(
            "hand over ({reason}): points {}, totals {}",
            join_nums(points),
            join_nums(totals)
        ),
        Event::GameEnded { winners, totals } => format!(
            "game over: totals {}, winner(s) {}",
            join_nums(totals),
            join_nums(winners)
        ),
    }
}

fn words<T: std::fmt::Display>(v: &[T]) -> String {
    let s: Vec<String> = v.iter().map(ToString::to_string).collect();
    s.join(" ")
}

fn strings<T: std::fmt::Display>(v: &[T]) -> Vec<String> {
    v.iter().map(ToString::to_string).collect()
}

/// One event as JSON: `{"event": NAME, …fields}` with cards in notation.
pub fn event_json(e: &Event) -> serde_json::Value {
    use serde_json::json;
    match e {
        Event::Dealt {
            round,
            dealer,
            first,
        } => json!({"event": "dealt", "round": round, "dealer": dealer, "first": first}),
        Event::UpcardBuried { card } => json!({"event": "upcard-buried", "card": card.to_string()}),
        Event::Upcard { card } => json!({"event": "upcard", "card": card.to_string()}),
        Event::TookDiscard { seat, card } => {
            json!({"event": "took-discard", "seat": seat, "card": card.to_string()})
        }
        Event::Pushed {
            seat,
            to,
            discard,
            stock,
            face_up,
        } => json!({"event": "pushed", "seat": seat, "to": to,
            "discard": discard.as_ref().map(ToString::to_string), "stock": strings(stock), "face_up": face_up}),
        Event::Drew { seat, card } => {
            json!({"event": "drew", "seat": seat, "card": card.to_string()})
        }
        Event::Reshuffled { cards } => json!({"event": "reshuffled", "cards": cards}),
        Event::Melded {
            seat,
            meld,
            cards,
            contract,
        } => {
            json!({"event": "melded", "seat": seat, "meld": meld, "cards": strings(cards), "contract": contract})
        }
        Event::LaidOff {
            seat,
            meld,
            cards,
            joined,
        } => {
            json!({"event": "laid-off", "seat": seat, "meld": meld, "cards": strings(cards), "joined": joined})
        }
        Event::Rescued {
            seat,
            meld,
            natural,
            wild,
        } => json!({"event": "rescued", "seat": seat, "meld": meld,
            "natural": natural.to_string(), "wild": wild.to_string()}),
        Event::Discarded { seat, card } => {
            json!({"event": "discarded", "seat": seat, "card": card.to_string()})
        }
        Event::Bought { seat, card, stock } => json!({"event": "bought", "seat": seat,
            "card": card.to_string(), "stock": strings(stock)}),
        Event::Passed { seat } => json!({"event": "passed", "seat": seat}),
        Event::TurnEnded { seat } => json!({"event": "turn-ended", "seat": seat}),
        Event::WentOut { seat } => json!({"event": "went-out", "seat": seat}),
        Event::HandEnded {
            reason,
            points,
            totals,
        } => {
            json!({"event": "hand-ended", "reason": reason.to_string(), "points": points, "totals": totals})
        }
        Event::GameEnded { winners, totals } => {
            json!({"event": "game-ended", "winners": winners, "totals": totals})
        }
    }
}

fn join_nums<T: ToString>(v: &[T]) -> String {
    let s: Vec<String> = v.iter().map(ToString::to_string).collect();
    format!("[{}]", s.join(" "))
}

fn end_text(e: &HandEnd) -> String {
    match e {
        HandEnd::WentOut(s) => format!("went-out {s}"),
        HandEnd::StockOut => "stock-out".into(),
        HandEnd::Stalled => "stalled".into(),
    }
}

fn meld_check_text(m: &MeldCheck) -> String {
    let a = crate::engine::game::Action::Meld(vec![m.spec.clone()]).to_string();
    format!("{}: {}", m.owner, a.trim_start_matches("meld "))
}

fn table_text(g: &Game) -> String {
    if g.deal.table.is_empty() {
        return "none".into();
    }
    let v: Vec<String> = g
        .deal
        .table
        .iter()
        .map(|m| {
            format!(
                "{}: {}",
                m.owner,
                m.interps
                    .iter()
                    .map(reading_text)
                    .collect::<Vec<_>>()
                    .join(" | ")
            )
        })
        .collect();
    v.join("; ")
}

fn opt_card(c: Option<Card>) -> String {
    c.map_or("none".into(), |c| c.to_string())
}

fn cards_text(c: &[Card]) -> String {
    if c.is_empty() {
        "none".into()
    } else {
        crate::base::card::format_cards(c)
    }
}

/// Evaluates one check: its text, and what was found when it does not hold.
/// A check's text and what was found instead, where it does not hold.
fn differ(want: String, got: String) -> (String, Option<String>) {
    (want.clone(), (want != got).then_some(got))
}

/// A checkpoint assertion against the game: its text, and what was found where it does not hold.
/// `initial_results` is the number of hands ended before the scenario started.
fn evaluate(g: &Game, initial_results: usize, c: &Check) -> (String, Option<String>) {
    let d = &g.deal;
    match c {
        Check::Round(n) => differ(format!("round {n}"), format!("round {}", g.round + 1)),
        Check::Dealer(s) => differ(format!("dealer {s}"), format!("dealer {}", g.dealer)),
        Check::Turn(s) => differ(format!("turn {s}"), format!("turn {}", d.turn)),
        Check::Stage(s) => differ(
            format!("stage {}", stage_name(*s)),
            format!("stage {}", stage_name(d.stage)),
        ),
        Check::Hand(s, cards) => {
            let want = format!(
                "hand {s}: {}",
                cards_text(&Counts::from_cards(cards).cards())
            );
            let got = format!(
                "hand {s}: {}",
                cards_text(&d.hands[usize::from(*s)].cards())
            );
            differ(want, got)
        }
        Check::HandSize(s, n) => differ(
            format!("hand-size {s}: {n}"),
            format!("hand-size {s}: {}", d.hands[usize::from(*s)].len()),
        ),
        Check::Table(melds) => table_check(g, melds),
        Check::Stock(cards) => {
            let pile: Vec<Card> = d.stock.iter().rev().copied().collect();
            differ(
                format!("stock: {}", cards_text(cards)),
                format!("stock: {}", cards_text(&pile)),
            )
        }
        Check::StockCount(n) => differ(
            format!("stock-count {n}"),
            format!("stock-count {}", d.stock.len()),
        ),
        Check::StockTop(c) => differ(
            format!("stock-top {}", opt_card(*c)),
            format!("stock-top {}", opt_card(d.stock.last().copied())),
        ),
        Check::Discard(cards) => {
            let pile: Vec<Card> = d.discard.iter().rev().copied().collect();
            differ(
                format!("discard: {}", cards_text(cards)),
                format!("discard: {}", cards_text(&pile)),
            )
        }
        Check::DiscardTop(c) => differ(
            format!("discard-top {}", opt_card(*c)),
            format!("discard-top {}", opt_card(d.discard.last().copied())),
        ),
        Check::ContractMet(seats) => {
            let met: Vec<u8> = (0..g.players)
                .filter(|s| d.progress[usize::from(*s)].done)
                .collect();
            differ(
                format!("contract-met {}", join_nums(seats)),
                format!("contract-met {}", join_nums(&met)),
            )
        }
        Check::Totals(t) => differ(
            format!("totals {}", join_nums(t)),
            format!("totals {}", join_nums(&g.totals)),
        ),
        Check::HandsPlayed(n) => differ(
            format!("hands-played {n}"),
            format!(
                "hands-played {}",
                g.results.len().saturating_sub(initial_results)
            ),
        ),
        Check::LastHand { end, points, hands } => {
            last_hand_check(g, initial_results, end.as_ref(), points.as_deref(), hands)
        }
        Check::GameOver(b) => differ(
            format!("game-over {b}"),
            format!("game-over {}", g.is_over()),
        ),
        Check::Winners(w) => {
            let mut got = g.winners.clone();
            got.sort_unstable();
            differ(
                format!("winners {}", join_nums(w)),
                format!("winners {}", join_nums(&got)),
            )
        }
    }
}

/// `table`: the whole table, in order, each meld with its owner, its cards, and the kind and
/// declarations asked for holding in every reading it keeps.
fn table_check(g: &Game, melds: &[MeldCheck]) -> (String, Option<String>) {
    let d = &g.deal;
    let want = format!(
        "table: {}",
        if melds.is_empty() {
            "none".to_string()
        } else {
            melds
                .iter()
                .map(meld_check_text)
                .collect::<Vec<_>>()
                .join("; ")
        }
    );
    let holds = melds.len() == d.table.len()
        && melds.iter().zip(&d.table).all(|(w, m)| {
            w.owner == m.owner
                && Counts::from_cards(&w.spec.cards) == Counts::from_cards(&m.cards)
                && m.interps.iter().all(|i| {
                    w.spec.kind.is_none_or(|k| i.kind == k)
                        && meld::declarations_hold(i, &w.spec.declared)
                })
        });
    (want, (!holds).then(|| format!("table: {}", table_text(g))))
}

/// `last-hand`: how the last hand ended and its points, where a hand has ended during the
/// scenario.
fn last_hand_check(
    g: &Game,
    initial_results: usize,
    end: Option<&EndSpec>,
    points: Option<&[i64]>,
    hands: &[(u8, Vec<Card>)],
) -> (String, Option<String>) {
    let mut want = vec!["last-hand".to_string()];
    let mut got = vec!["last-hand".to_string()];
    let last = g.results.last();
    if let Some(e) = end {
        want.push(match e {
            EndSpec::WentOut(s) => format!("went-out {s}"),
            EndSpec::StockOut => "stock-out".into(),
            EndSpec::Stalled => "stalled".into(),
        });
        got.push(last.map_or("none".into(), |r| end_text(&r.end)));
    }
    if let Some(p) = points {
        want.push(format!("points {}", join_nums(p)));
        got.push(last.map_or("points none".into(), |r| {
            format!("points {}", join_nums(&r.points))
        }));
    }
    for (seat, cards) in hands {
        want.push(format!(
            "hand {seat}: {}",
            cards_text(&Counts::from_cards(cards).cards())
        ));
        got.push(format!(
            "hand {seat}: {}",
            last.and_then(|r| r.hands.get(usize::from(*seat)))
                .map_or("unknown".into(), |h| cards_text(&h.cards()))
        ));
    }
    let no_hand = g.results.len() <= initial_results;
    let (w, gt) = (want.join(" "), got.join(" "));
    if no_hand {
        (w, Some("no hand has ended during the scenario".into()))
    } else {
        differ(w, gt)
    }
}

/// The outcome of a replay: the transcript and every failure with its scenario line.
#[derive(Clone, Debug)]
pub struct Replay {
    pub transcript: Transcript,
    pub failures: Vec<Failure>,
}

/// Replays a scenario from its start.
pub fn replay(s: &Scenario) -> Replay {
    let mut g = s.game.clone();
    let initial_results = g.results.len();
    let start_round = g.round;
    let start = state(&g);
    let mut steps = Vec::new();
    let mut failures = Vec::new();
    for st in &s.steps {
        let mut fails: Vec<String> = Vec::new();
        let mut record_seat = None;
        let mut result = None;
        if let Some(action) = &st.action {
            let seat = st.seat.unwrap_or_else(|| g.turn());
            record_seat = Some(seat);
            result = Some(play_action(&mut g, seat, action, &st.expect, &mut fails));
        }
        let checks = run_checks(&g, initial_results, &st.checks, &mut fails);
        for f in &fails {
            failures.push(Failure {
                step: st.number,
                line: st.line,
                message: f.clone(),
            });
        }
        steps.push(StepRecord {
            step: st.number,
            seat: record_seat,
            action: st.action.as_ref().map(ToString::to_string),
            expect: match st.expect {
                Expect::Unstated => None,
                Expect::Ok => Some("ok".into()),
                Expect::RejectedAny => Some("rejected".into()),
                Expect::Rejected(r) => Some(format!("rejected {}", r.code())),
            },
            result,
            checks,
            failures: fails,
            state: state(&g),
        });
    }
    let transcript = Transcript {
        format: FORMAT,
        title: s.title.clone(),
        rules: RulesInfo {
            game: s.rules.rules.game.clone(),
            name: s.rules.rules.name.clone(),
            fingerprint: fingerprint(&s.rules.raw),
        },
        table: table_info(&g),
        start,
        steps,
        outcome: outcome(&g, &failures, initial_results, start_round),
    };
    Replay {
        transcript,
        failures,
    }
}

/// Plays a step's `action` by `seat`: the result recorded, and in `fails` where it went against
/// the step's `expect` or a refused action changed the game.
fn play_action(
    g: &mut Game,
    seat: u8,
    action: &Action,
    expect: &Expect,
    fails: &mut Vec<String>,
) -> ResultRecord {
    let before_deal = g.deal.clone();
    let before_totals = g.totals.clone();
    match g.apply(seat, action) {
        Ok(events) => {
            match expect {
                Expect::Rejected(r) => fails.push(format!(
                    "`{action}` by seat {seat} was accepted; expected rejected {}",
                    r.code()
                )),
                Expect::RejectedAny => fails.push(format!(
                    "`{action}` by seat {seat} was accepted; expected rejected"
                )),
                Expect::Ok | Expect::Unstated => {}
            }
            ResultRecord {
                ok: true,
                events: events.iter().map(event_json).collect(),
                reason: None,
                message: None,
                events_text: events.iter().map(event_text).collect(),
            }
        }
        Err(e) => {
            if let Some(f) = refusal_failure(action, seat, expect, &e) {
                fails.push(f);
            }
            if g.deal != before_deal || g.totals != before_totals {
                fails.push(format!(
                    "the refused `{action}` changed the game (a refused action must change nothing)"
                ));
            }
            ResultRecord {
                ok: false,
                events: Vec::new(),
                reason: Some(e.code.code().to_string()),
                message: Some(e.message.clone()),
                events_text: Vec::new(),
            }
        }
    }
}

/// What is wrong with the refusal `e` of `action` by `seat` under `expect`: nothing where it was
/// expected with that reason code.
fn refusal_failure(action: &Action, seat: u8, expect: &Expect, e: &Illegal) -> Option<String> {
    match expect {
        Expect::RejectedAny => None,
        Expect::Rejected(r) if *r == e.code => None,
        Expect::Rejected(r) => Some(format!(
            "`{action}` by seat {seat} was rejected {} ({}); expected rejected {}",
            e.code.code(),
            e.message,
            r.code()
        )),
        Expect::Ok => Some(format!(
            "`{action}` by seat {seat} was rejected {} ({}); expected ok",
            e.code.code(),
            e.message
        )),
        Expect::Unstated => Some(format!(
            "`{action}` by seat {seat} was rejected {} ({}), and the step states no expectation",
            e.code.code(),
            e.message
        )),
    }
}

/// Evaluates a step's checks after its action, each recorded; those that do not hold also in
/// `fails`.
fn run_checks(
    g: &Game,
    initial_results: usize,
    checks: &[(u32, Check)],
    fails: &mut Vec<String>,
) -> Vec<CheckRecord> {
    let mut records = Vec::new();
    for (_, c) in checks {
        let (text, found) = evaluate(g, initial_results, c);
        if let Some(f) = &found {
            fails.push(format!("check `{text}` does not hold: found `{f}`"));
        }
        records.push(CheckRecord {
            check: text,
            held: found.is_none(),
            found,
        });
    }
    records
}

/// The players and the seats of each side.
fn table_info(g: &Game) -> TableInfo {
    TableInfo {
        players: g.players,
        sides: (0..g.sides)
            .map(|side| {
                (0..g.players)
                    .filter(|p| g.side_of[usize::from(*p)] == side)
                    .collect()
            })
            .collect(),
    }
}

/// The outcome at the end of the replay: whether every step held, the hands ended during it
/// (numbered from the deal it started in, `start_round`), the totals and the winners.
fn outcome(g: &Game, failures: &[Failure], initial_results: usize, start_round: usize) -> Outcome {
    let mut failed_steps: Vec<usize> = failures.iter().map(|f| f.step).collect();
    failed_steps.dedup();
    let mut winners = g.winners.clone();
    winners.sort_unstable();
    Outcome {
        held: failures.is_empty(),
        failed_steps,
        hands: g.results[initial_results..]
            .iter()
            .enumerate()
            .map(|(i, r)| HandRecord {
                round: start_round + i + 1,
                end: end_text(&r.end),
                points: r.points.clone(),
            })
            .collect(),
        round: g.round + 1,
        totals: g.totals.clone(),
        game_over: g.is_over(),
        winners,
    }
}

fn state_text(out: &mut String, s: &State) {
    let _ = writeln!(
        out,
        "  deal {}, dealer {}, turn {}, stage {}, taken {}",
        s.round,
        s.dealer,
        s.turn,
        s.stage,
        s.taken.as_deref().unwrap_or("none")
    );
    for (seat, h) in s.hands.iter().enumerate() {
        let _ = writeln!(
            out,
            "  hand {seat} ({}): {}",
            h.len(),
            if h.is_empty() {
                "none".to_string()
            } else {
                h.join(" ")
            }
        );
    }
    if s.table.is_empty() {
        let _ = writeln!(out, "  table: none");
    }
    for (i, m) in s.table.iter().enumerate() {
        let _ = writeln!(out, "  meld {i} (seat {}): {}", m.owner, m.cards.join(" "));
        for r in &m.readings {
            let _ = writeln!(out, "    as {r}");
        }
    }
    let _ = writeln!(
        out,
        "  stock: {} card(s), top {}",
        s.stock.count,
        s.stock.top.as_deref().unwrap_or("none")
    );
    let _ = writeln!(
        out,
        "  discard ({}, top first): {}",
        s.discard.len(),
        if s.discard.is_empty() {
            "none".to_string()
        } else {
            s.discard.join(" ")
        }
    );
    let contract: Vec<String> = s
        .contract
        .iter()
        .enumerate()
        .map(|(seat, c)| {
            let marks: String = c
                .filled
                .iter()
                .map(|f| if *f { 'x' } else { '.' })
                .collect();
            format!("{seat} {} [{marks}]", if c.met { "met" } else { "open" })
        })
        .collect();
    let _ = writeln!(out, "  contract: {}", contract.join(", "));
    let _ = writeln!(out, "  totals: {}", join_nums(&s.totals));
    if let Some(b) = &s.buying {
        let window = match b.window {
            Some(on_turn) => format!("open (seat {on_turn} on turn)"),
            None => "closed".to_string(),
        };
        let _ = writeln!(
            out,
            "  buying: window {window}, buys {}",
            join_nums(&b.buys)
        );
    }
}

impl Transcript {
    /// The transcript as JSON: the same data, keys sorted.
    pub fn json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }

    /// A transcript read back from its JSON ([`Transcript::json`]). The text form of events is not
    /// part of the JSON: `events_text` comes back empty.
    ///
    /// # Errors
    /// The JSON is not a transcript of this format.
    pub fn from_json(v: &serde_json::Value) -> Result<Transcript, serde_json::Error> {
        Transcript::deserialize(v)
    }

    /// The transcript for people (and for golden files).
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{}", self.format);
        let _ = writeln!(out, "title: {}", self.title);
        let _ = writeln!(
            out,
            "rules: {} ({}), {}",
            self.rules.game, self.rules.name, self.rules.fingerprint
        );
        let sides: Vec<String> = self
            .table
            .sides
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{i} {}", join_nums(s)))
            .collect();
        let _ = writeln!(
            out,
            "table: {} players; sides {}",
            self.table.players,
            sides.join(", ")
        );
        let _ = writeln!(out, "start:");
        state_text(&mut out, &self.start);
        for st in &self.steps {
            match (&st.action, st.seat) {
                (Some(a), Some(seat)) => {
                    let _ = writeln!(out, "step {}: seat {seat}: {a}", st.step);
                }
                _ => {
                    let _ = writeln!(out, "step {}: checkpoint", st.step);
                }
            }
            if let Some(e) = &st.expect {
                let _ = writeln!(out, "  expect {e}");
            }
            if let Some(r) = &st.result {
                if r.ok {
                    let _ = writeln!(out, "  result: ok");
                    for e in &r.events_text {
                        let _ = writeln!(out, "    {e}");
                    }
                } else {
                    let _ = writeln!(
                        out,
                        "  result: rejected {}: {}",
                        r.reason.as_deref().unwrap_or(""),
                        r.message.as_deref().unwrap_or("")
                    );
                }
            }
            for c in &st.checks {
                match &c.found {
                    None => {
                        let _ = writeln!(out, "  check {}: held", c.check);
                    }
                    Some(f) => {
                        let _ = writeln!(out, "  check {}: FAILED, found {f}", c.check);
                    }
                }
            }
            for f in &st.failures {
                let _ = writeln!(out, "  FAILURE: {f}");
            }
            let _ = writeln!(out, " state:");
            state_text(&mut out, &st.state);
        }
        let o = &self.outcome;
        let _ = writeln!(out, "outcome:");
        let _ = writeln!(
            out,
            "  expectations: {}",
            if o.held {
                "all held".to_string()
            } else {
                format!("FAILED at step(s) {}", join_nums(&o.failed_steps))
            }
        );
        for h in &o.hands {
            let _ = writeln!(
                out,
                "  hand of deal {}: {}, points {}",
                h.round,
                h.end,
                join_nums(&h.points)
            );
        }
        let _ = writeln!(
            out,
            "  deal {}, totals {}, game over {}, winners {}",
            o.round,
            join_nums(&o.totals),
            o.game_over,
            join_nums(&o.winners)
        );
        out
    }
}

/// The golden file of a scenario: next to it, the same name with `.snap` (an insta snapshot).
pub fn golden_path(scenario: &Path) -> PathBuf {
    scenario.with_extension("snap")
}

/// The golden file's text for a transcript: insta's snapshot header, then the text.
pub fn golden_file(transcript_text: &str) -> String {
    format!(
        "---\nsource: tests/conformance_suite.rs\nexpression: transcript\n---\n{}\n",
        transcript_text.trim_end()
    )
}

/// The transcript held in a golden file (its header removed, trailing blank space trimmed), or
/// `None` when the file is not a snapshot.
pub fn golden_contents(file_text: &str) -> Option<String> {
    let rest = file_text.strip_prefix("---\n")?;
    let end = rest.find("\n---\n")?;
    Some(rest[end + 5..].trim_end().to_string())
}

/// A line diff of two texts, `-` for the golden, `+` for the replay, with two lines of context;
/// at most `limit` lines.
pub fn diff(golden: &str, actual: &str, limit: usize) -> String {
    let a: Vec<&str> = golden.lines().collect();
    let b: Vec<&str> = actual.lines().collect();
    // Longest common subsequence, by dynamic programming from the end.
    let (n, m) = (a.len(), b.len());
    if n.saturating_mul(m) > 25_000_000 {
        return "(the texts are too long to diff)\n".into();
    }
    let mut lcs = vec![0u32; (n + 1) * (m + 1)];
    let w = m + 1;
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i * w + j] = if a[i] == b[j] {
                lcs[(i + 1) * w + j + 1] + 1
            } else {
                lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
            };
        }
    }
    let mut ops: Vec<(char, usize, &str)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            ops.push((' ', i, a[i]));
            i += 1;
            j += 1;
        } else if j < m && (i == n || lcs[i * w + j + 1] > lcs[(i + 1) * w + j]) {
            ops.push(('+', j, b[j]));
            j += 1;
        } else {
            ops.push(('-', i, a[i]));
            i += 1;
        }
    }
    let changed: Vec<usize> = ops
        .iter()
        .enumerate()
        .filter(|(_, o)| o.0 != ' ')
        .map(|(k, _)| k)
        .collect();
    let mut out = String::new();
    let mut lines = 0;
    let mut last_shown: Option<usize> = None;
    for (k, (tag, line, text)) in ops.iter().enumerate() {
        let near = changed.iter().any(|&c| c.abs_diff(k) <= 2);
        if !near {
            continue;
        }
        if last_shown.is_some_and(|l| l + 1 < k) || (last_shown.is_none() && k > 0) {
            let _ = writeln!(out, "@@ line {} @@", line + 1);
        }
        if lines >= limit {
            let _ = writeln!(out, "… (more differences)");
            break;
        }
        let _ = writeln!(out, "{tag}{text}");
        lines += 1;
        last_shown = Some(k);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a64_matches_the_published_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
    }

    #[test]
    fn golden_files_round_trip() {
        let t = "line one\nline two\n";
        assert_eq!(
            golden_contents(&golden_file(t)).as_deref(),
            Some("line one\nline two")
        );
        assert_eq!(golden_contents("no header"), None);
    }

    #[test]
    fn diff_shows_changed_lines_only_with_context() {
        let a = "1\n2\n3\n4\n5\n6\n7\n8\n";
        let b = "1\n2\n3\n4\nfive\n6\n7\n8\n";
        let d = diff(a, b, 50);
        assert!(d.contains("-5\n+five\n"), "{d}");
        assert!(!d.contains(" 1\n"), "{d}");
        assert!(d.contains(" 4\n") && d.contains(" 6\n"), "{d}");
        assert_eq!(diff(a, a, 50), "");
    }
}
