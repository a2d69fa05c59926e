//! The rules of a scenario: its `readings` (each a reading of a dispute in the register), then
//! its `rules`, a built-in rule set or a file named (relative to the scenario), or inline rules
//! (`extends: push` and changes) checked as a rules file of their own. A problem in inline rules
//! is pointed at its place in the scenario; the rules themselves are the rules module's to check.

use super::ctx::{Ctx, join};
use crate::base::diag::did_you_mean;
use crate::base::yaml::{Node, Pos, Value};
use crate::rules::disputes::{DisputeId, list_readings};
use crate::rules::spec::{self, Entry, Leaf, Origin, RawRules};
use crate::rules::{self, BUILT_IN, Loaded};
use std::collections::BTreeMap;
use std::path::Path;

/// The scenario's `readings`: a map from dispute to reading.
pub(super) fn read_readings(cx: &mut Ctx, node: &Node) -> Vec<(DisputeId, String)> {
    let mut readings: Vec<(DisputeId, String)> = Vec::new();
    let ids: Vec<&str> = DisputeId::ALL.iter().map(|d| d.id()).collect();
    if let Value::Map(entries) = &node.value {
        for (k, v) in entries {
            let key = k.scalar_text().unwrap_or_default();
            let p = format!("readings.{key}");
            let Some(id) = DisputeId::from_id(&key) else {
                let hint = match did_you_mean(&key, ids.iter().copied()) {
                    Some(m) => format!("did you mean `{m}`?"),
                    None => format!("the disputes are: {}", ids.join(", ")),
                };
                cx.err_hint(k, &p, format!("unknown dispute `{key}`"), hint);
                continue;
            };
            match v.scalar_text() {
                Some(r) if id.reading_names().contains(&r.as_str()) => readings.push((id, r)),
                other => cx.err_hint(
                    v,
                    &p,
                    format!(
                        "`{}` is not a reading of dispute `{key}`",
                        other.unwrap_or_else(|| v.kind_name().to_string())
                    ),
                    format!("the readings are {}", list_readings(id)),
                ),
            }
        }
    } else if node.value != Value::Null {
        cx.err(
            node,
            "readings",
            format!(
                "readings are a map from dispute to reading; this is {}",
                node.kind_name()
            ),
        );
    }
    readings
}

/// The scenario's rules under `readings`: a rule set named, or inline rules. `None` (said) where
/// they cannot be loaded; the texts of the rules files involved go into `sources`.
pub(super) fn load_rules(
    cx: &mut Ctx,
    node: &Node,
    base_dir: &Path,
    readings: &[(DisputeId, String)],
    sources: &mut BTreeMap<String, String>,
) -> Option<Loaded> {
    match &node.value {
        Value::Str(name) => load_named_rules(cx, node, name, base_dir, readings, sources),
        Value::Map(_) => load_inline_rules(cx, node, base_dir, readings, sources),
        _ => {
            cx.err_hint(
                node,
                "rules",
                format!("`rules` names a rule set or holds inline rules; this is {}", node.kind_name()),
                "write `rules: push`, `rules: ../house.yaml`, or a map starting with `extends: push`",
            );
            None
        }
    }
}

/// Rules named by `rules: NAME`: a built-in rule set, or a file (relative to `base_dir`). A file
/// that cannot be read is pointed at the `rules:` line.
fn load_named_rules(
    cx: &mut Ctx,
    node: &Node,
    name: &str,
    base_dir: &Path,
    readings: &[(DisputeId, String)],
    sources: &mut BTreeMap<String, String>,
) -> Option<Loaded> {
    let builtin = BUILT_IN.iter().any(|(n, _, _)| *n == name);
    // A plain name (no `/`, no `.yaml`) is a built-in, and rules::load says so if not.
    let path_like = name.contains('/')
        || name.contains('\\')
        || name.ends_with(".yaml")
        || name.ends_with(".yml");
    let target = if builtin || !path_like || Path::new(name).is_absolute() {
        name.to_string()
    } else {
        base_dir.join(name).display().to_string()
    };
    match rules::load(&target, readings) {
        Ok(l) => Some(l),
        Err(e) => {
            sources.extend(e.sources);
            for mut d in e.diagnostics.0 {
                if d.line == 0 && d.file == target {
                    // The file itself could not be read: point at the `rules:` line.
                    d.message = format!("{}: {}", target, d.message);
                    d.file = cx.file.clone();
                    d.line = node.pos.line;
                    d.column = node.pos.column;
                    d.path = "rules".into();
                }
                cx.diags.push(d);
            }
            None
        }
    }
}

/// Inline rules (`rules: {extends: push, …}`), with the readings set in them, rendered and loaded
/// as a rules file of their own; each problem in them is pointed at its place in the scenario.
fn load_inline_rules(
    cx: &mut Ctx,
    node: &Node,
    base_dir: &Path,
    readings: &[(DisputeId, String)],
    sources: &mut BTreeMap<String, String>,
) -> Option<Loaded> {
    let label = format!("{} (inline rules)", cx.file);
    let mut diags = Vec::new();
    let mut raw: RawRules = spec::decode(&cx.file, node, &mut diags);
    let had = !diags.is_empty();
    for mut d in diags {
        d.path = join("rules", &d.path);
        cx.diags.push(d);
    }
    if had {
        return None;
    }
    let origin = Origin {
        file: label.clone(),
        pos: Pos::default(),
    };
    if raw.get("game").is_none() {
        raw.entries.insert(
            "game".into(),
            Entry {
                value: Leaf::Text("scenario".into()),
                sources: None,
                note: None,
                origin: origin.clone(),
            },
        );
    }
    for (id, name) in readings {
        raw.set_reading(*id, name, origin.clone(), None);
    }
    let text = spec::render(&raw, "");
    match rules::load_text(&label, &text, base_dir) {
        Ok(l) => Some(l),
        Err(e) => {
            sources.extend(e.sources.into_iter().filter(|(k, _)| *k != label));
            for mut d in e.diagnostics.0 {
                if d.file == label {
                    let at = node_at(node, &d.path).unwrap_or(node);
                    d.file = cx.file.clone();
                    d.line = at.pos.line;
                    d.column = at.pos.column;
                    d.path = join("rules", &d.path);
                }
                cx.diags.push(d);
            }
            None
        }
    }
}

/// Finds the node at a rules field path (`rounds[0].deal`, `readings.x`) inside an inline rules
/// map, for pointing at it.
fn node_at<'a>(root: &'a Node, path: &str) -> Option<&'a Node> {
    let mut node = root;
    for part in path.split('.') {
        let (key, index) = match part.find('[') {
            Some(i) => (
                &part[..i],
                part[i + 1..].trim_end_matches(']').parse::<usize>().ok(),
            ),
            None => (part, None),
        };
        node = node.get(key)?;
        // A cited value `{value: …}`.
        if let Some(v) = node.get("value") {
            node = v;
        }
        if let (Some(i), Value::Seq(items)) = (index, &node.value) {
            node = items.get(i)?;
        }
    }
    Some(node)
}
