//! What a scenario `exercises`, for the suite's coverage: the sources it follows, the rules of the
//! rules language it tries, and the disputes it settles (each with the reading, where one is
//! named). Each name is checked against its list: the source numbers, the rule paths of the
//! rules language, the dispute register.

use super::ctx::{Ctx, join};
use super::{EXERCISE_KEYS, Exercises, SOURCES};
use crate::base::diag::did_you_mean;
use crate::base::yaml::{Node, Value};
use crate::rules::disputes::{DisputeId, list_readings};
use crate::rules::spec;

/// The `exercises` map: `sources`, `rules` and `disputes`, at least one of them.
pub(super) fn decode_exercises(cx: &mut Ctx, node: &Node) -> Exercises {
    let mut ex = Exercises {
        stated: true,
        ..Exercises::default()
    };
    let entries = cx.map(node, "exercises", &EXERCISE_KEYS, "`exercises`");
    for (key, v) in &entries {
        let p = join("exercises", key);
        let Some(items) = cx.list(v, &p, &format!("`{key}`")) else {
            continue;
        };
        for (i, it) in items.iter().enumerate() {
            let ip = format!("{p}[{i}]");
            let Some(word) = it.scalar_text() else {
                cx.err(
                    it,
                    &ip,
                    format!("expected a name, found {}", it.kind_name()),
                );
                continue;
            };
            match key.as_str() {
                "sources" => exercise_source(cx, it, &ip, word, &mut ex),
                "rules" => exercise_rule(cx, it, &ip, word, &mut ex),
                _ => exercise_dispute(cx, it, &ip, &word, &mut ex),
            }
        }
    }
    if entries.is_empty() && matches!(node.value, Value::Map(_) | Value::Null) {
        cx.err_hint(
            node,
            "exercises",
            "the scenario exercises nothing",
            "list the `sources`, `rules` and `disputes` it touches",
        );
    }
    ex
}

/// A source number: "000" to "003".
fn exercise_source(cx: &mut Ctx, it: &Node, ip: &str, word: String, ex: &mut Exercises) {
    if SOURCES.contains(&word.as_str()) {
        ex.sources.push(word);
    } else {
        cx.err_hint(
            it,
            ip,
            format!("unknown source `{word}`"),
            "the sources are \"000\", \"001\", \"002\" and \"003\" (quote them)",
        );
    }
}

/// A rule path of the rules language (not one of its meta keys).
fn exercise_rule(cx: &mut Ctx, it: &Node, ip: &str, word: String, ex: &mut Exercises) {
    let ok = spec::rule_defs()
        .iter()
        .any(|d| d.path == word && !spec::META.contains(&d.path.as_str()));
    if ok {
        ex.rules.push(word);
    } else {
        let paths = spec::rule_defs().iter().map(|d| d.path.as_str());
        let hint = match did_you_mean(&word, paths) {
            Some(m) => format!("did you mean `{m}`?"),
            None => "a rule is a dotted path of the rules language, like `sets.min-size` or `rounds` (docs/RULES-FORMAT.md)".into(),
        };
        cx.err_hint(it, ip, format!("unknown rule `{word}`"), hint);
    }
}

/// A dispute id, or `ID=READING` for one of its readings.
fn exercise_dispute(cx: &mut Ctx, it: &Node, ip: &str, word: &str, ex: &mut Exercises) {
    let (id, reading) = match word.split_once('=') {
        Some((a, b)) => (a.trim().to_string(), Some(b.trim().to_string())),
        None => (word.to_string(), None),
    };
    let Some(d) = DisputeId::from_id(&id) else {
        let ids = DisputeId::ALL.iter().map(|d| d.id());
        let hint = match did_you_mean(&id, ids) {
            Some(m) => format!("did you mean `{m}`?"),
            None => "see `push-rummy disputes` for the ids".into(),
        };
        cx.err_hint(it, ip, format!("unknown dispute `{id}`"), hint);
        return;
    };
    if let Some(r) = &reading
        && !d.reading_names().contains(&r.as_str())
    {
        cx.err_hint(
            it,
            ip,
            format!("`{r}` is not a reading of dispute `{id}`"),
            format!("the readings are {}", list_readings(d)),
        );
        return;
    }
    ex.disputes.push((d, reading));
}
