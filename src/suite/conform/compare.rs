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

/// The `hello` exchange: both sides speak the same protocol version. Any error here is
/// [`Stop::Dead`].
pub(super) fn hello(imp: &mut dyn Implementation) -> Result<(), Stop> {
    let dead = |stop| match stop {
        Stop::Errored(e) => Stop::Dead(format!("at `hello`: {e}")),
        other => other,
    };
    hello_exchange(imp).map_err(dead)
}

fn hello_exchange(imp: &mut dyn Implementation) -> Result<(), Stop> {
    let r = exchange(
        imp,
        &json!({"type": "hello", "protocol": protocol::VERSION}),
        &["hello"],
    )?;
    match r.get("protocol").and_then(Value::as_u64) {
        Some(protocol::VERSION) => Ok(()),
        v => Err(Stop::Errored(format!(
            "the implementation speaks protocol {}, the harness {}",
            v.map_or("(none)".into(), |v| v.to_string()),
            protocol::VERSION
        ))),
    }
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
/// observation at the end; `steps_done` is the last step compared.
pub(super) fn compare(
    s: &Scenario,
    t: &transcript::Transcript,
    imp: &mut dyn Implementation,
    exercised: &[String],
    steps_done: &mut usize,
) -> Result<(), Stop> {
    hello(imp)?;
    let start_place = || step_place(0, None, None);
    exchange(imp, &protocol::start_message(&s.rules, &s.game), &["ok"]).map_err(at(start_place))?;
    let mut reference = s.game.clone();
    let start = serde_json::to_value(&t.start).unwrap_or(Value::Null);
    let mut legal = true;
    check_state(imp, &start, 0, None, None, s, exercised).map_err(at(start_place))?;
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
            check_result(r, &reply, rec.step, seat, a, s, exercised).map_err(at(place))?;
            let _ = reference.apply(seat, a);
        }
        let state = serde_json::to_value(&rec.state).unwrap_or(Value::Null);
        check_state(imp, &state, rec.step, rec.seat, action, s, exercised).map_err(at(place))?;
        check_legal(
            imp, &reference, &mut legal, rec.step, rec.seat, action, s, exercised,
        )
        .map_err(at(place))?;
        *steps_done = rec.step;
    }
    // Observations at the end, for every seat (when the implementation offers them).
    for seat in 0..reference.players {
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
        let got = reply.get("observation").cloned().unwrap_or(Value::Null);
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
/// alike, the same reason code, the same events.
pub(super) fn check_result(
    want: &ResultRecord,
    reply: &Value,
    step: usize,
    seat: u8,
    action: &Action,
    s: &Scenario,
    exercised: &[String],
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

/// The implementation's state against the reference's.
pub(super) fn check_state(
    imp: &mut dyn Implementation,
    want: &Value,
    step: usize,
    seat: Option<u8>,
    action: Option<&Action>,
    s: &Scenario,
    exercised: &[String],
) -> Result<(), Stop> {
    let reply = exchange(imp, &json!({"type": "state"}), &["state"])?;
    let got = reply.get("state").cloned().unwrap_or(Value::Null);
    if let Some((path, a, b)) = first_difference("", want, &got) {
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
