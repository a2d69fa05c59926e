//! One game compared step by step: the protocol's exchanges with the implementation (`hello`,
//! `start`, `apply`, `state`, `legal`, `observe`), each reply checked against the reference's
//! transcript, and the first JSON path where the two differ. A check that finds a difference
//! stops the game with a [`Divergence`]; a reply that is not the protocol, or says `unsupported`,
//! stops it as errored or skipped ([`Stop`]).
//!
//! The scenarios of the suite (`suite.rs`) and random games (`random.rs`) both go through these
//! checks; neither this module nor they know how the implementation runs (`implementation.rs`).

use super::clip;
use super::implementation::Implementation;
use super::report::Divergence;
use super::rules_involved::rules_involved;
use crate::engine::action_text::parse_action;
use crate::engine::game::{Action, Game, Reason};
use crate::engine::observe::observe;
use crate::suite::protocol;
use crate::suite::scenario::Scenario;
use crate::suite::transcript::{self, ResultRecord};
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// Why a scenario stopped early.
pub(super) enum Stop {
    Skipped(String),
    Errored(String),
    /// Errored at `hello`: the implementation does not speak the protocol at all (it died, never
    /// replied, or replied with something else), so the next scenario will not fare better.
    Dead(String),
    Diverged(Box<Divergence>),
}

/// An error of the exchange at `place` (a step and its action, in words) says where it happened.
pub(super) fn at(place: impl FnOnce() -> String) -> impl FnOnce(Stop) -> Stop {
    move |stop| match stop {
        Stop::Errored(e) => Stop::Errored(format!("{}: {e}", place())),
        other => other,
    }
}

/// Where a step is, for an error: `step 3 (seat 1: push)`.
pub(super) fn step_place(step: usize, seat: Option<u8>, action: Option<&Action>) -> String {
    match (seat, action) {
        (Some(s), Some(a)) => format!("step {step} (seat {s}: {a})"),
        _ if step == 0 => "the start position".into(),
        _ => format!("step {step} (checkpoint)"),
    }
}

/// Sends `msg` and takes a reply of one of the types `want`; a reply `unsupported` stops as
/// skipped, `error` or any other type as errored.
pub(super) fn exchange(
    imp: &mut dyn Implementation,
    msg: &Value,
    want: &[&str],
) -> Result<Value, Stop> {
    let reply = imp.request(msg).map_err(Stop::Errored)?;
    take_reply(msg, reply, want)
}

/// The reply to `msg` if it is of one of the types `want` (see [`exchange`]).
fn take_reply(msg: &Value, reply: Value, want: &[&str]) -> Result<Value, Stop> {
    let kind = reply.get("type").and_then(Value::as_str).unwrap_or("");
    match kind {
        "unsupported" => Err(Stop::Skipped(
            reply
                .get("reason")
                .and_then(Value::as_str)
                .unwrap_or("(no reason given)")
                .to_string(),
        )),
        "error" => Err(Stop::Errored(format!(
            "the implementation reported an error on `{}`: {}",
            msg["type"].as_str().unwrap_or("?"),
            reply
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("(no message)")
        ))),
        k if want.contains(&k) => Ok(reply),
        _ => Err(Stop::Errored(format!(
            "malformed reply to `{}`: expected type {}, got {}",
            msg["type"].as_str().unwrap_or("?"),
            want.join(" or "),
            clip(&reply.to_string(), 200)
        ))),
    }
}

/// What the implementation reports, as its `hello` declares it (protocol 2; under protocol 1,
/// everything): the harness compares only that, and hands, stock, discard pile, table cards and
/// totals always.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Caps {
    /// The protocol version agreed.
    pub version: u64,
    pub reason_codes: bool,
    pub events: bool,
    pub readings: bool,
    pub legal: bool,
    pub observe: bool,
    /// It takes the wild a rescue names (otherwise it picks one itself).
    pub rescue_wild: bool,
}

impl Caps {
    pub fn all(version: u64) -> Caps {
        Caps {
            version,
            reason_codes: true,
            events: true,
            readings: true,
            legal: true,
            observe: true,
            rescue_wild: true,
        }
    }

    /// The capabilities of a `reports` list.
    pub fn from_names(version: u64, names: &[Value]) -> Result<Caps, String> {
        let mut caps = Caps {
            version,
            reason_codes: false,
            events: false,
            readings: false,
            legal: false,
            observe: false,
            rescue_wild: false,
        };
        for n in names {
            let flag = match n.as_str() {
                Some("reason-codes") => &mut caps.reason_codes,
                Some("events") => &mut caps.events,
                Some("readings") => &mut caps.readings,
                Some("legal") => &mut caps.legal,
                Some("observe") => &mut caps.observe,
                Some("rescue-wild") => &mut caps.rescue_wild,
                _ => {
                    return Err(format!(
                        "`reports`: {} is not one of {}",
                        clip(&n.to_string(), 60),
                        protocol::CAPABILITIES.map(|(c, _)| c).join(", ")
                    ));
                }
            };
            *flag = true;
        }
        Ok(caps)
    }

    /// What the harness does not compare, in words (none under protocol 1).
    pub fn not_compared(&self) -> Vec<String> {
        let declared = [
            self.reason_codes,
            self.events,
            self.readings,
            self.legal,
            self.observe,
            self.rescue_wild,
        ];
        protocol::CAPABILITIES
            .iter()
            .zip(declared)
            .filter(|(_, d)| !d)
            .map(|((_, what), _)| (*what).to_string())
            .collect()
    }
}

/// The `hello` exchange: the harness offers protocol 2; an implementation that answers 1, or
/// refuses 2 with an `error`, is spoken to in protocol 1 (and then compared on everything).
/// Any error here is [`Stop::Dead`].
pub(super) fn hello(imp: &mut dyn Implementation) -> Result<Caps, Stop> {
    let dead = |stop| match stop {
        Stop::Errored(e) => Stop::Dead(format!("at `hello`: {e}")),
        other => other,
    };
    hello_exchange(imp).map_err(dead)
}

fn hello_exchange(imp: &mut dyn Implementation) -> Result<Caps, Stop> {
    let offer = |v: u64| json!({"type": "hello", "protocol": v});
    let mut msg = offer(protocol::VERSION);
    let mut reply = imp.request(&msg).map_err(Stop::Errored)?;
    if reply["type"] == "error" {
        // An implementation of protocol 1 may refuse to hear of 2.
        msg = offer(1);
        reply = imp.request(&msg).map_err(Stop::Errored)?;
    }
    let r = take_reply(&msg, reply, &["hello"])?;
    match r.get("protocol").and_then(Value::as_u64) {
        Some(1) => Ok(Caps::all(1)),
        Some(v @ 2) => match r.get("reports") {
            None => Ok(Caps::all(v)),
            Some(Value::Array(names)) => Caps::from_names(v, names).map_err(Stop::Errored),
            Some(other) => Err(Stop::Errored(format!(
                "`reports`: expected a list of names, got {}",
                clip(&other.to_string(), 60)
            ))),
        },
        v => Err(Stop::Errored(format!(
            "the implementation speaks protocol {}, the harness 1 or 2",
            v.map_or("(none)".into(), |v| v.to_string()),
        ))),
    }
}

/// The `start` message of `game`, in the protocol version agreed.
pub(super) fn start_message(loaded: &crate::rules::Loaded, game: &Game, caps: &Caps) -> Value {
    let mut msg = protocol::start_message(loaded, game);
    msg["protocol"] = json!(caps.version);
    msg
}

/// `v` as compared: without what the implementation does not report (the meld readings of the
/// table, in a state or an observation, unless it reports readings), and with each table meld's
/// cards in canonical order. The reference lists a meld's cards in the order they were laid; an
/// implementation need not keep that order, so the cards of a meld are compared as a multiset
/// and never diverge on order alone.
pub(super) fn comparable(v: &Value, caps: &Caps) -> Value {
    let mut v = v.clone();
    if let Some(table) = v.get_mut("table").and_then(Value::as_array_mut) {
        for m in table {
            let Some(m) = m.as_object_mut() else { continue };
            if !caps.readings {
                m.remove("readings");
            }
            if let Some(cards) = m.get_mut("cards").and_then(Value::as_array_mut) {
                sort_cards(cards);
            }
        }
    }
    v
}

/// A list of cards in canonical order (what does not read as a card after the cards, in the
/// order given), so that two lists of the same cards compare equal.
fn sort_cards(cards: &mut [Value]) {
    cards.sort_by_key(|c| {
        c.as_str()
            .and_then(|s| s.parse::<crate::base::card::Card>().ok())
            .map_or((1, None), |c| (0, Some(c)))
    });
}

/// The first path where two JSON values differ, with both values there.
pub(super) fn first_difference(path: &str, a: &Value, b: &Value) -> Option<(String, Value, Value)> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                let (va, vb) = (
                    x.get(k).unwrap_or(&Value::Null),
                    y.get(k).unwrap_or(&Value::Null),
                );
                if let Some(d) = first_difference(&p, va, vb) {
                    return Some(d);
                }
            }
            None
        }
        // Lists of plain values (a hand, a pile) are shown whole; lists of objects item by item.
        (Value::Array(x), Value::Array(y))
            if x.iter().chain(y).any(|v| v.is_object() || v.is_array()) =>
        {
            for i in 0..x.len().max(y.len()) {
                let (va, vb) = (x.get(i), y.get(i));
                match (va, vb) {
                    (Some(va), Some(vb)) => {
                        if let Some(d) = first_difference(&format!("{path}[{i}]"), va, vb) {
                            return Some(d);
                        }
                    }
                    _ => {
                        return Some((
                            format!("{path}[{i}]"),
                            va.cloned().unwrap_or(Value::Null),
                            vb.cloned().unwrap_or(Value::Null),
                        ));
                    }
                }
            }
            None
        }
        _ if a == b => None,
        _ => Some((path.to_string(), a.clone(), b.clone())),
    }
}

/// A value in a divergence for people: nothing, a list of cards as words, a string as itself.
pub(super) fn show(v: &Value) -> String {
    match v {
        Value::Null => "nothing".into(),
        Value::Array(items) if items.iter().all(Value::is_string) => {
            let w: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
            if w.is_empty() {
                "[]".into()
            } else {
                format!("[{}]", w.join(" "))
            }
        }
        Value::String(s) => s.clone(),
        _ => clip(&v.to_string(), 300),
    }
}

/// The reference's result in words.
fn result_text(r: &ResultRecord) -> String {
    if r.ok {
        format!("ok ({} event(s))", r.events.len())
    } else {
        format!(
            "rejected {} ({})",
            r.reason.as_deref().unwrap_or("?"),
            r.message.as_deref().unwrap_or("")
        )
    }
}

/// The scenario `s` played on the implementation and checked against its transcript `t`: the
/// start position, then each step's result, state and legal actions, and every seat's
/// observation at the end, as far as the implementation reports them; `steps_done` is the last
/// step compared, `not_compared` what the implementation does not report.
pub(super) fn compare(
    s: &Scenario,
    t: &transcript::Transcript,
    imp: &mut dyn Implementation,
    exercised: &[String],
    steps_done: &mut usize,
    not_compared: &mut Vec<String>,
) -> Result<(), Stop> {
    let caps = hello(imp)?;
    *not_compared = caps.not_compared();
    let start_place = || step_place(0, None, None);
    exchange(imp, &start_message(&s.rules, &s.game, &caps), &["ok"]).map_err(at(start_place))?;
    let mut reference = s.game.clone();
    let start = serde_json::to_value(&t.start).unwrap_or(Value::Null);
    let mut legal = caps.legal;
    check_state(imp, &start, 0, None, None, s, exercised, &caps).map_err(at(start_place))?;
    check_legal(imp, &reference, &mut legal, 0, None, None, s, exercised)
        .map_err(at(start_place))?;
    for (rec, st) in t.steps.iter().zip(&s.steps) {
        let action = st.action.as_ref();
        let place = || step_place(rec.step, rec.seat, action);
        if let (Some(a), Some(seat), Some(r)) = (action, rec.seat, &rec.result) {
            let reply = exchange(
                imp,
                &json!({"type": "apply", "seat": seat, "action": a.to_string()}),
                &["ok", "rejected"],
            )
            .map_err(at(place))?;
            check_result(r, &reply, rec.step, seat, a, s, exercised, &caps).map_err(at(place))?;
            let _ = reference.apply(seat, a);
            if r.ok && !caps.rescue_wild && matches!(a, Action::Rescue { .. }) {
                return Err(Stop::Skipped(format!(
                    "compared up to step {}, a rescue: the implementation picks the rescued wild itself",
                    rec.step
                )));
            }
        }
        let state = serde_json::to_value(&rec.state).unwrap_or(Value::Null);
        check_state(imp, &state, rec.step, rec.seat, action, s, exercised, &caps)
            .map_err(at(place))?;
        check_legal(
            imp, &reference, &mut legal, rec.step, rec.seat, action, s, exercised,
        )
        .map_err(at(place))?;
        *steps_done = rec.step;
    }
    // Observations at the end, for every seat (when the implementation offers them).
    for seat in 0..reference.players {
        if !caps.observe {
            break;
        }
        let reply = match exchange(
            imp,
            &json!({"type": "observe", "seat": seat}),
            &["observation"],
        ) {
            Ok(r) => r,
            Err(Stop::Skipped(_)) => break,
            Err(e) => {
                return Err(at(|| {
                    format!("after the last step, `observe` of seat {seat}")
                })(e));
            }
        };
        let want = serde_json::to_value(observe(&reference, seat)).unwrap_or(Value::Null);
        let want = comparable(&want, &caps);
        let got = comparable(reply.get("observation").unwrap_or(&Value::Null), &caps);
        if let Some((path, a, b)) = first_difference("", &want, &got) {
            return Err(Stop::Diverged(Box::new(Divergence {
                step: *steps_done,
                seat: None,
                action: None,
                field: format!("observation[{seat}].{path}"),
                reference: show(&a),
                implementation: show(&b),
                rules: rules_involved(&s.rules, exercised, None, &path, None),
            })));
        }
    }
    Ok(())
}

/// The implementation's reply to an action against the reference's result: accepted or refused
/// alike, the same reason code, the same events (the last two where it reports them).
#[allow(clippy::too_many_arguments)]
pub(super) fn check_result(
    want: &ResultRecord,
    reply: &Value,
    step: usize,
    seat: u8,
    action: &Action,
    s: &Scenario,
    exercised: &[String],
    caps: &Caps,
) -> Result<(), Stop> {
    let got_ok = reply["type"] == "ok";
    let div = |field: String, reference: String, implementation: String, event: Option<&str>| {
        Stop::Diverged(Box::new(Divergence {
            step,
            seat: Some(seat),
            action: Some(action.to_string()),
            rules: rules_involved(&s.rules, exercised, Some(action), &field, event),
            field,
            reference,
            implementation,
        }))
    };
    let got_text = || {
        if got_ok {
            "ok".to_string()
        } else {
            format!(
                "rejected {} ({})",
                reply["reason"].as_str().unwrap_or("?"),
                reply["message"].as_str().unwrap_or("")
            )
        }
    };
    if want.ok != got_ok {
        return Err(div("result".into(), result_text(want), got_text(), None));
    }
    if !want.ok {
        if !caps.reason_codes {
            return Ok(());
        }
        let code = reply["reason"].as_str().unwrap_or("");
        if Reason::from_code(code).is_none() {
            return Err(Stop::Errored(format!(
                "malformed reply: `{code}` is not a reason code"
            )));
        }
        if Some(code) != want.reason.as_deref() {
            return Err(div("result".into(), result_text(want), got_text(), None));
        }
        return Ok(());
    }
    if !caps.events {
        return Ok(());
    }
    let got = reply
        .get("events")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let want_v = Value::Array(want.events.clone());
    let got_v = Value::Array(got.clone());
    if let Some((path, a, b)) = first_difference("", &want_v, &got_v) {
        let index: Option<usize> = path
            .strip_prefix('[')
            .and_then(|p| p.split(']').next())
            .and_then(|n| n.parse().ok());
        let event = index.and_then(|i| {
            want.events
                .get(i)
                .or(got.get(i))
                .and_then(|e| e["event"].as_str())
        });
        let field = format!("events{path}");
        return Err(div(field, show(&a), show(&b), event));
    }
    Ok(())
}

/// The implementation's state against the reference's (without what it does not report).
#[allow(clippy::too_many_arguments)]
pub(super) fn check_state(
    imp: &mut dyn Implementation,
    want: &Value,
    step: usize,
    seat: Option<u8>,
    action: Option<&Action>,
    s: &Scenario,
    exercised: &[String],
    caps: &Caps,
) -> Result<(), Stop> {
    let reply = exchange(imp, &json!({"type": "state"}), &["state"])?;
    let got = comparable(reply.get("state").unwrap_or(&Value::Null), caps);
    let want = comparable(want, caps);
    if let Some((path, a, b)) = first_difference("", &want, &got) {
        let field = format!("state.{path}");
        return Err(Stop::Diverged(Box::new(Divergence {
            step,
            seat,
            action: action.map(ToString::to_string),
            rules: rules_involved(&s.rules, exercised, action, &field, None),
            field,
            reference: show(&a),
            implementation: show(&b),
        })));
    }
    Ok(())
}

/// The implementation's legal actions (in canonical form) against the reference's, until it
/// says it does not list them.
#[allow(clippy::too_many_arguments)]
fn check_legal(
    imp: &mut dyn Implementation,
    reference: &Game,
    supported: &mut bool,
    step: usize,
    seat: Option<u8>,
    action: Option<&Action>,
    s: &Scenario,
    exercised: &[String],
) -> Result<(), Stop> {
    if !*supported {
        return Ok(());
    }
    let reply = match exchange(imp, &json!({"type": "legal"}), &["legal"]) {
        Ok(r) => r,
        Err(Stop::Skipped(_)) => {
            *supported = false;
            return Ok(());
        }
        Err(e) => return Err(e),
    };
    let norm = |t: &str| parse_action(t).map_or_else(|_| t.to_string(), |a| a.to_string());
    let got: BTreeSet<String> = reply
        .get("actions")
        .and_then(Value::as_array)
        .map(|v| v.iter().filter_map(Value::as_str).map(norm).collect())
        .unwrap_or_default();
    let want: BTreeSet<String> = crate::suite::protocol::compared_legal(reference)
        .into_iter()
        .collect();
    if got != want {
        let missing: Vec<&String> = want.difference(&got).take(5).collect();
        let extra: Vec<&String> = got.difference(&want).take(5).collect();
        let first = extra
            .first()
            .or(missing.first())
            .and_then(|t| parse_action(t).ok());
        return Err(Stop::Diverged(Box::new(Divergence {
            step,
            seat,
            action: action.map(ToString::to_string),
            field: "legal".into(),
            reference: format!("also lists {missing:?}"),
            implementation: format!("also lists {extra:?}"),
            rules: rules_involved(
                &s.rules,
                exercised,
                first.as_ref().or(action),
                "legal",
                None,
            ),
        })));
    }
    Ok(())
}
