//! The language-neutral test vectors of `conformance/vectors/`: one JSON file per kind of
//! question, each case a question, the rules and readings it is asked under, and the reference's
//! answer. `push-rummy vectors --out conformance/vectors` writes them; a test regenerates them and
//! compares, so the files in the repository are always the reference's answers.
//!
//! The cases: for each built-in game under its own readings, random questions
//! ([`super::generate`]); and for every reading that is not the built-in Push's, Push with that
//! reading, keeping the questions whose answer it changes (at most a few per kind) and one it does
//! not, so each reading's vectors show what it does.

use super::generate::questions;
use super::{COMPARE, Question, answer};
use crate::rules::disputes::DisputeId;
use crate::rules::{self, GAMES, Loaded};
use crate::suite::protocol::rules_json;
use serde_json::{Map, Value, json};

/// The kinds written as vectors (discard positions are whole deals: they are asked by `conform
/// --queries`, not written down).
pub const VECTOR_KINDS: [&str; 5] = ["meld", "contract", "laydown", "score", "lay-off"];

/// Questions per kind for each built-in game under its own readings.
const PER_GAME: [(&str, usize); 5] = [
    ("meld", 300),
    ("contract", 120),
    ("laydown", 110),
    ("score", 50),
    ("lay-off", 80),
];

/// Questions tried per kind under each other reading, and the most kept whose answer it changes.
const TRIED: usize = 60;
const KEPT: usize = 5;

/// The vector files: (file name, text).
///
/// # Errors
/// A built-in rule set that does not load, or a question the reference cannot answer.
pub fn files() -> Result<Vec<(String, String)>, String> {
    let mut games = Vec::new();
    for g in GAMES {
        games.push(rules::load(g, &[]).map_err(|e| e.render())?);
    }
    let mut out = Vec::new();
    for kind in VECTOR_KINDS {
        let mut cases = Vec::new();
        for (gi, g) in games.iter().enumerate() {
            let n = PER_GAME.iter().find(|p| p.0 == kind).map_or(0, |p| p.1);
            let players = crate::suite::bench::seats(&g.rules);
            for q in questions(g, players, n, 1000 + gi as u64, &[kind]) {
                let a = answer(g, &q)?;
                cases.push(case(GAMES[gi], &[], &q, &a, None));
            }
        }
        let push = &games[0];
        for id in DisputeId::ALL {
            for &name in id.reading_names() {
                if push.rules.readings.name(id) == name {
                    continue;
                }
                let Ok(other) = rules::load("push", &[(id, name.to_string())]) else {
                    continue;
                };
                let seed = 7 + id as u64 * 31 + name.len() as u64;
                let players = crate::suite::bench::seats(&other.rules);
                let (mut changed, mut same) = (0, 0);
                for q in questions(&other, players, TRIED, seed, &[kind]) {
                    let a = answer(&other, &q)?;
                    // Under Push's own readings the question may not be one to ask (a table
                    // meld that is no meld there): that is a change too.
                    let before = answer(push, &q).unwrap_or_else(|e| json!({ "error": e }));
                    let differs = compared(kind, &a) != compared(kind, &before);
                    if differs && changed < KEPT {
                        changed += 1;
                        cases.push(case("push", &[(id, name)], &q, &a, Some(&before)));
                    } else if !differs && same < 1 {
                        same += 1;
                        cases.push(case("push", &[(id, name)], &q, &a, None));
                    }
                }
            }
        }
        out.push((format!("{kind}.json"), render(kind, &games, &cases)));
    }
    Ok(out)
}

/// The compared part of an answer.
fn compared(kind: &str, a: &Value) -> Vec<Value> {
    let fields = COMPARE
        .iter()
        .find(|c| c.0 == kind)
        .map_or(&[][..], |c| c.1);
    fields.iter().map(|f| a[*f].clone()).collect()
}

/// What an answer says, in words.
fn summary(kind: &str, a: &Value) -> String {
    match kind {
        "meld" if a["valid"] == json!(true) => format!(
            "a meld, read {}",
            a["readings"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(" or ")
        ),
        "meld" => "not a meld".into(),
        "contract" if a["meets"] == json!(true) => "meets the contract".into(),
        "contract" => "does not meet the contract".into(),
        "laydown" if a["possible"] == json!(true) => "can meet the contract".into(),
        "laydown" => "cannot meet the contract".into(),
        "score" => format!("{} points", a["points"]),
        "lay-off" if a["fits"] == json!(true) => "fits".into(),
        "lay-off" => "does not fit".into(),
        _ if a.get("error").is_some() => "not a question to ask there".into(),
        _ => a.to_string(),
    }
}

fn case(
    rules: &str,
    readings: &[(DisputeId, &str)],
    q: &Question,
    a: &Value,
    default: Option<&Value>,
) -> Value {
    let under = match readings {
        [] => rules.to_string(),
        r => format!(
            "{rules} with {}",
            r.iter()
                .map(|(id, n)| format!("{}={n}", id.id()))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let mut description = format!("{} under {under}: {}", q.text(), summary(q.kind(), a));
    if let Some(d) = default {
        description.push_str(&format!(
            " (under {rules}'s own readings: {})",
            summary(q.kind(), d)
        ));
    }
    let mut input = q.to_json();
    if let Some(o) = input.as_object_mut() {
        o.remove("type");
    }
    let mut expected = a.clone();
    if let Some(o) = expected.as_object_mut() {
        o.remove("type");
        o.remove("question");
    }
    let readings: Map<String, Value> = readings
        .iter()
        .map(|(id, n)| (id.id().to_string(), json!(n)))
        .collect();
    json!({
        "description": description,
        "rules": rules,
        "readings": readings,
        "input": input,
        "expected": expected,
    })
}

/// A vector file: its header pretty-printed, each case on one line (so a change shows as the
/// lines of the cases it changes).
fn render(kind: &str, games: &[Loaded], cases: &[Value]) -> String {
    let (_, fields, note) = COMPARE.iter().find(|c| c.0 == kind).expect("a kind");
    let mut rule_sets = Map::new();
    for (g, l) in GAMES.iter().zip(games) {
        rule_sets.insert((*g).to_string(), rules_json(l));
    }
    let header = json!({
        "$schema": "../schema/vectors.schema.json",
        "description": format!(
            "Test vectors: `{kind}` questions (conformance/README.md, Questions), {} cases, the \
             reference's answers. Ask each case's `input` under its `rules` (a rule set of \
             `rule_sets`, whose `values` are the resolved rules as the protocol sends them) with \
             its `readings` applied over them (spec/disputes.yaml), and compare {}. {note}",
            cases.len(),
            fields.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(" and "),
        ),
        "generated_by": "push-rummy vectors --out conformance/vectors",
        "question": kind,
        "compare": fields,
        "rule_sets": rule_sets,
    });
    let mut text = serde_json::to_string_pretty(&header).expect("JSON");
    text.pop(); // the closing brace
    while text.ends_with('\n') {
        text.pop();
    }
    text.push_str(",\n  \"cases\": [\n");
    for (i, c) in cases.iter().enumerate() {
        text.push_str("    ");
        text.push_str(&c.to_string());
        if i + 1 < cases.len() {
            text.push(',');
        }
        text.push('\n');
    }
    text.push_str("  ]\n}\n");
    text
}

/// The number of cases in each kind's file (for the docs and the tests).
pub fn count(text: &str) -> usize {
    serde_json::from_str::<Value>(text)
        .ok()
        .and_then(|v| v["cases"].as_array().map(Vec::len))
        .unwrap_or(0)
}
