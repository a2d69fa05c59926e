//! The `steps` of a scenario: each an action by a seat (`do`, read by the engine's action
//! notation), what is expected of it (`ok` or a reason code), and checkpoints after it (read in
//! `checks`). A step is read whole before the game is set up, so that all its problems are
//! reported; whether the action is legal is the replay's to find out.

use super::checks::decode_checks;
use super::ctx::{Ctx, clip, join};
use super::{Expect, MAX_CARDS, MAX_STEPS, STEP_KEYS, Step};
use crate::base::diag::{Diagnostic, did_you_mean};
use crate::base::yaml::{Node, Value};
use crate::engine::action_text::parse_action;
use crate::engine::game::{Action, Reason};
use crate::oracle::meld::MAX_MELD_CARDS;
use std::collections::BTreeMap;

/// The steps, at most [`MAX_STEPS`] of them; each step with a problem is left out (the problem said).
pub(super) fn read_steps(cx: &mut Ctx, node: &Node, players: u8) -> Vec<Step> {
    let mut steps = Vec::new();
    if let Some(items) = cx.list(node, "steps", "the steps") {
        if items.len() > MAX_STEPS {
            cx.err_hint(
                node,
                "steps",
                format!("{} steps; the limit is {MAX_STEPS}", items.len()),
                "split the scenario: a later one can start from an explicit position (`cards: {hands: …}`)",
            );
        }
        for (i, it) in items.iter().enumerate().take(MAX_STEPS) {
            if let Some(s) = decode_step(cx, it, i, players) {
                steps.push(s);
            }
        }
    }
    steps
}

/// Step `index` (from 0): `None` where anything in it is wrong (said), so that no half-read step
/// is replayed.
fn decode_step(cx: &mut Ctx, node: &Node, index: usize, players: u8) -> Option<Step> {
    let path = format!("steps[{index}]");
    if !matches!(node.value, Value::Map(_)) {
        cx.err_hint(
            node,
            &path,
            format!("a step is a map; this is {}", node.kind_name()),
            "for example `- {seat: 1, do: take-discard, expect: ok}`",
        );
        return None;
    }
    let entries: BTreeMap<String, &Node> = cx
        .map(node, &path, &STEP_KEYS, "a step")
        .into_iter()
        .collect();
    let before = cx.diags.len();
    let seat = entries
        .get("seat")
        .and_then(|v| cx.seat(v, &join(&path, "seat"), players));
    let action = entries
        .get("do")
        .and_then(|v| read_action(cx, v, &join(&path, "do")));
    let expect = match entries.get("expect") {
        None => Expect::Unstated,
        Some(v) => decode_expect(cx, v, &join(&path, "expect")),
    };
    if entries.contains_key("expect") && !entries.contains_key("do") {
        cx.err(
            entries["expect"],
            &join(&path, "expect"),
            "an expectation needs an action (`do`)",
        );
    }
    if entries.contains_key("seat") && !entries.contains_key("do") {
        cx.err(
            entries["seat"],
            &join(&path, "seat"),
            "a seat acts only with an action (`do`)",
        );
    }
    let checks = entries
        .get("check")
        .map(|v| decode_checks(cx, v, &join(&path, "check"), players))
        .unwrap_or_default();
    if !entries.contains_key("do") && !entries.contains_key("check") {
        cx.err_hint(
            node,
            &path,
            "this step does nothing",
            "give an action (`do`) or a checkpoint (`check`)",
        );
    }
    (cx.diags.len() == before).then(|| Step {
        number: index + 1,
        line: node.pos.line,
        seat,
        action,
        expect,
        checks,
    })
}

/// A step's action (`do`, at `p`): text in the action notation, within the limits of a meld and
/// of the cards in one action.
fn read_action(cx: &mut Ctx, v: &Node, p: &str) -> Option<Action> {
    let text = v.scalar_text().or_else(|| {
        cx.err(
            v,
            p,
            format!(
                "an action is text like `discard 9H`; this is {}",
                v.kind_name()
            ),
        );
        None
    })?;
    match parse_action(&text) {
        Ok(a) => match action_too_big(&a) {
            Some(problem) => {
                cx.err_hint(v, p, problem, "see docs/LIMITS.md");
                None
            }
            None => Some(a),
        },
        Err(e) => {
            let pos = cx.read_error_at(v, &e);
            let text = clip(&text);
            cx.diags.push(
                Diagnostic::new(&cx.file, pos, p, format!("cannot read the action `{text}`: {e}"))
                    .with_hint("actions: take-discard, push, draw-stock, meld [..], lay-off N [..], rescue N CARD for WILD, discard CARD, end-turn"),
            );
            None
        }
    }
}

/// A meld or lay-off in an action beyond [`MAX_MELD_CARDS`] cards, or more cards in one action
/// than [`MAX_CARDS`]: what is wrong, in words.
fn action_too_big(a: &Action) -> Option<String> {
    let sizes: Vec<usize> = match a {
        Action::Meld(specs) => specs.iter().map(|m| m.cards.len()).collect(),
        Action::LayOff { cards, .. } => vec![cards.len()],
        Action::Rescue { then: Some(t), .. } => return action_too_big(t),
        _ => return None,
    };
    if let Some(n) = sizes.iter().find(|&&n| n > MAX_MELD_CARDS) {
        return Some(format!(
            "a meld of {n} cards in the action; the limit is {MAX_MELD_CARDS}"
        ));
    }
    let total: usize = sizes.iter().sum();
    (total > MAX_CARDS).then(|| format!("{total} cards in one action; the limit is {MAX_CARDS}"))
}

/// A step's `expect`: `ok`, `rejected` (any reason) or `{rejected: REASON-CODE}`.
fn decode_expect(cx: &mut Ctx, v: &Node, p: &str) -> Expect {
    let codes: Vec<&str> = Reason::ALL.iter().map(|r| r.code()).collect();
    let code_of = |cx: &mut Ctx, n: &Node, p: &str| -> Expect {
        let word = n.scalar_text().unwrap_or_default();
        match Reason::from_code(&word) {
            Some(r) => Expect::Rejected(r),
            None => {
                let hint = match did_you_mean(&word, codes.iter().copied()) {
                    Some(m) => format!("did you mean `{m}`?"),
                    None => format!("the reason codes are: {}", codes.join(", ")),
                };
                cx.err_hint(n, p, format!("unknown reason code `{word}`"), hint);
                Expect::Unstated
            }
        }
    };
    match &v.value {
        Value::Str(s) if s == "ok" => Expect::Ok,
        Value::Str(s) if s == "rejected" => Expect::RejectedAny,
        Value::Map(e) if e.len() == 1 && e[0].0.scalar_text().as_deref() == Some("rejected") => {
            code_of(cx, &e[0].1, &join(p, "rejected"))
        }
        _ => {
            cx.err_hint(
                v,
                p,
                "an expectation is `ok`, `rejected` or `{rejected: REASON-CODE}`",
                "for example `expect: rejected` (for any reason) or `expect: {rejected: invalid-meld}`",
            );
            Expect::Unstated
        }
    }
}
