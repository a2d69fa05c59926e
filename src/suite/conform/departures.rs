//! Known departures, `conform --departures FILE`: where an implementation differs from the
//! reference on purpose. Each entry names what a divergence is about (a rule path, a dispute
//! reading, a reason code, a compared field: all those it gives must hold) and a note saying why;
//! a divergence that an entry matches is reported as known instead of failed.
//!
//! The file is YAML, read through `base::yaml` (positions for every problem) and checked here
//! against the rule table, the disputes register and the reason codes; `help::schema`
//! generates its JSON Schema from [`KEYS`], [`FIELDS`] and the kinds of question.
//!
//! The same file serves `conform --queries`: a cause of disagreement there names the reading
//! that explains it (matched by `reading`) or the kind of question and the answer's field
//! (`meld.valid`, `score.points`: matched by `field`).
//!
//! ```yaml
//! departures:
//!   - reading: pusher-draws=yes
//!     note: our pusher never draws the stock card (house rule)
//!   - rule: runs.wrap-around
//!     note: runs go round the corner K-A-2
//! ```

use super::report::Divergence;
use crate::base::diag::{Diagnostic, Diagnostics, did_you_mean};
use crate::base::yaml::{self, Node, Value};
use crate::engine::game::Reason;
use crate::rules::LoadError;
use crate::rules::disputes::DisputeId;
use crate::rules::spec;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The keys of an entry: what it matches on, then its note.
pub const KEYS: [&str; 5] = ["rule", "reading", "reason", "field", "note"];

/// The first part of a compared field (`events[2]`, `state.hands[1]`, …) as `conform` names it
/// in games; in single questions the field starts with the kind of question
/// ([`crate::suite::query::KINDS`]: `meld.valid`).
pub const FIELDS: [&str; 6] = [
    "result",
    "events",
    "state",
    "legal",
    "observation",
    "expectation",
];

/// One known departure.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Departure {
    /// The line of the entry in its file.
    pub line: u32,
    /// A rule path, or a section of them (`scoring.points` covers `scoring.points.A`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// A dispute reading `id=reading`, or a bare `id` for any of its readings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reading: Option<String>,
    /// A reason code that either side gave for refusing the action.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// A compared field (`events`, `state.hands`, `result`, …) or a field under it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    pub note: String,
}

impl Departure {
    /// Whether the divergence is this departure: everything the entry names holds.
    pub fn matches(&self, d: &Divergence) -> bool {
        let rule_ok = self.rule.as_ref().is_none_or(|r| {
            d.rules.iter().any(|n| {
                !n.contains('=')
                    && (n == r
                        || n.strip_prefix(r.as_str())
                            .is_some_and(|t| t.starts_with('.')))
            })
        });
        let reading_ok = self.reading.as_ref().is_none_or(|r| {
            d.rules.iter().any(|n| {
                if r.contains('=') {
                    n == r
                } else {
                    n.split_once('=').is_some_and(|(id, _)| id == r)
                }
            })
        });
        let reason_ok = self.reason.as_ref().is_none_or(|r| {
            d.field == "result"
                && [&d.reference, &d.implementation].into_iter().any(|t| {
                    t.strip_prefix("rejected ")
                        .and_then(|t| t.split_whitespace().next())
                        == Some(r.as_str())
                })
        });
        let field_ok = self.field.as_ref().is_none_or(|f| {
            let bare = without_indices(&d.field);
            [d.field.as_str(), bare.as_str()].into_iter().any(|g| {
                g == f
                    || g.strip_prefix(f.as_str())
                        .is_some_and(|t| t.starts_with('.') || t.starts_with('['))
            })
        });
        rule_ok && reading_ok && reason_ok && field_ok
    }

    /// What the entry names, for reports: `rule: runs.wrap-around, reason: invalid-meld`.
    pub fn names(&self) -> String {
        [
            ("rule", &self.rule),
            ("reading", &self.reading),
            ("reason", &self.reason),
            ("field", &self.field),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| format!("{k}: {v}")))
        .collect::<Vec<_>>()
        .join(", ")
    }
}

/// A field without its list indices: `events[1].card` is `events.card`.
fn without_indices(field: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in field.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// A departures file, read and checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Departures {
    /// The file as it was named.
    pub file: String,
    pub entries: Vec<Departure>,
}

/// Which departure a divergence matched: its place in the file and what it says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Known {
    /// The entry's index in the file (from 0).
    pub entry: usize,
    pub line: u32,
    pub names: String,
    pub note: String,
}

impl std::fmt::Display for Known {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "departure at line {} ({}): {}",
            self.line, self.names, self.note
        )
    }
}

impl Departures {
    /// The first entry the divergence matches.
    pub fn known(&self, d: &Divergence) -> Option<Known> {
        self.entries
            .iter()
            .enumerate()
            .find(|(_, e)| e.matches(d))
            .map(|(i, e)| Known {
                entry: i,
                line: e.line,
                names: e.names(),
                note: e.note.clone(),
            })
    }

    /// The entries no divergence matched (`used` holds the indices of those that did), as
    /// `FILE:LINE (names)`: stale entries, or departures the run did not reach.
    pub fn unmatched(&self, used: &[usize]) -> Vec<String> {
        self.entries
            .iter()
            .enumerate()
            .filter(|(i, _)| !used.contains(i))
            .map(|(_, e)| format!("{}:{} ({})", self.file, e.line, e.names()))
            .collect()
    }
}

/// Reads and checks a departures file.
///
/// # Errors
/// The file cannot be read, is not YAML, or an entry is wrong: every problem, with its line and
/// field.
pub fn load(path: &Path) -> Result<Departures, LoadError> {
    let file = path.display().to_string();
    let text = yaml::read_text(path).map_err(|e| LoadError {
        diagnostics: Diagnostic::new(&file, e.pos(), "", e.message("the departures file")).into(),
        sources: BTreeMap::new(),
    })?;
    parse(&file, &text)
}

/// Reads and checks the text of a departures file named `file`.
///
/// # Errors
/// As [`load`].
pub fn parse(file: &str, text: &str) -> Result<Departures, LoadError> {
    let fail = |diags: Vec<Diagnostic>| LoadError {
        diagnostics: Diagnostics::capped(diags),
        sources: BTreeMap::from([(file.to_string(), text.to_string())]),
    };
    let root = yaml::parse(text).map_err(|e| fail(vec![Diagnostic::from_syntax(file, e)]))?;
    let mut diags = Vec::new();
    let mut entries = Vec::new();
    let Value::Map(top) = &root.value else {
        let d = Diagnostic::new(
            file,
            root.pos,
            "",
            format!(
                "expected a map with `departures:`, found {}",
                root.kind_name()
            ),
        );
        return Err(fail(vec![d]));
    };
    for (k, _) in top {
        let key = k.scalar_text().unwrap_or_default();
        if key != "departures" {
            diags.push(
                Diagnostic::new(file, k.pos, &key, format!("unknown key `{key}`"))
                    .with_hint("the file holds one key, `departures:`, a list of entries"),
            );
        }
    }
    match root.get("departures") {
        None => diags.push(Diagnostic::new(
            file,
            root.pos,
            "departures",
            "missing `departures:`, the list of entries",
        )),
        Some(Node {
            value: Value::Seq(items),
            ..
        }) => {
            for (i, item) in items.iter().enumerate() {
                if let Some(e) = entry(file, &format!("departures[{i}]"), item, &mut diags) {
                    entries.push(e);
                }
            }
        }
        Some(n) if n.value == Value::Null => {}
        Some(n) => diags.push(Diagnostic::new(
            file,
            n.pos,
            "departures",
            format!("expected a list of entries, found {}", n.kind_name()),
        )),
    }
    if diags.is_empty() {
        Ok(Departures {
            file: file.to_string(),
            entries,
        })
    } else {
        Err(fail(diags))
    }
}

/// One entry, checked; `None` (and diagnostics) when it is wrong.
fn entry(file: &str, path: &str, node: &Node, diags: &mut Vec<Diagnostic>) -> Option<Departure> {
    let before = diags.len();
    let Value::Map(pairs) = &node.value else {
        diags.push(Diagnostic::new(
            file,
            node.pos,
            path,
            format!(
                "expected an entry (a map with `note:` and one or more of `rule`, `reading`, `reason`, `field`), found {}",
                node.kind_name()
            ),
        ));
        return None;
    };
    let mut d = Departure {
        line: node.pos.line,
        rule: None,
        reading: None,
        reason: None,
        field: None,
        note: String::new(),
    };
    for (k, v) in pairs {
        let key = k.scalar_text().unwrap_or_default();
        let here = format!("{path}.{key}");
        if !KEYS.contains(&key.as_str()) {
            let mut diag = Diagnostic::new(file, k.pos, &here, format!("unknown key `{key}`"));
            if let Some(m) = did_you_mean(&key, KEYS) {
                diag = diag.with_hint(format!("did you mean `{m}`?"));
            }
            diags.push(diag);
            continue;
        }
        let Value::Str(text) = &v.value else {
            diags.push(Diagnostic::new(
                file,
                v.pos,
                &here,
                format!("expected text, found {}", v.kind_name()),
            ));
            continue;
        };
        let text = text.trim().to_string();
        let problem = match key.as_str() {
            "rule" => check_rule(&text),
            "reading" => check_reading(&text),
            "reason" => check_reason(&text),
            "field" => check_field(&text),
            _ => (text.is_empty()).then(|| ("the note is empty: say why".to_string(), None)),
        };
        if let Some((message, hint)) = problem {
            let diag = Diagnostic::new(file, v.pos, &here, message);
            diags.push(match hint {
                Some(h) => diag.with_hint(h),
                None => diag,
            });
            continue;
        }
        let slot = match key.as_str() {
            "rule" => &mut d.rule,
            "reading" => &mut d.reading,
            "reason" => &mut d.reason,
            "field" => &mut d.field,
            _ => {
                d.note = text;
                continue;
            }
        };
        *slot = Some(text);
    }
    if node.get("note").is_none() {
        diags.push(Diagnostic::new(
            file,
            node.pos,
            &format!("{path}.note"),
            "missing `note:`: say why the implementation differs here",
        ));
    }
    if ["rule", "reading", "reason", "field"]
        .iter()
        .all(|k| node.get(k).is_none())
    {
        diags.push(Diagnostic::new(
            file,
            node.pos,
            path,
            "the entry names nothing to match: give `rule`, `reading`, `reason` or `field`",
        ));
    }
    (diags.len() == before).then_some(d)
}

type Problem = Option<(String, Option<String>)>;

fn check_rule(text: &str) -> Problem {
    let paths: Vec<String> = spec::rule_defs()
        .iter()
        .map(|d| d.path.clone())
        .filter(|p| !spec::META.contains(&p.as_str()) && !p.starts_with("readings."))
        .collect();
    let known = paths
        .iter()
        .any(|p| p == text || p.strip_prefix(text).is_some_and(|t| t.starts_with('.')));
    if known {
        return None;
    }
    let hint = if DisputeId::from_id(text.split('=').next().unwrap_or(text)).is_some() {
        Some(format!("`{text}` is a dispute: write `reading: {text}`"))
    } else {
        did_you_mean(text, paths.iter().map(String::as_str)).map(|m| format!("did you mean `{m}`?"))
    };
    Some((format!("`{text}` is not a rule path"), hint))
}

fn check_reading(text: &str) -> Problem {
    let (id, reading) = match text.split_once('=') {
        Some((i, r)) => (i, Some(r)),
        None => (text, None),
    };
    let Some(d) = DisputeId::from_id(id) else {
        let hint = did_you_mean(id, DisputeId::ALL.iter().map(|d| d.id()))
            .map(|m| format!("did you mean `{m}`?"));
        return Some((format!("`{id}` is not a dispute of the register"), hint));
    };
    match reading {
        Some(r) if !d.reading_names().contains(&r) => Some((
            format!("`{r}` is not a reading of `{id}`"),
            Some(format!("its readings: {}", d.reading_names().join(", "))),
        )),
        _ => None,
    }
}

fn check_reason(text: &str) -> Problem {
    if Reason::from_code(text).is_some() {
        return None;
    }
    let hint = did_you_mean(text, Reason::ALL.iter().map(|r| r.code()))
        .map(|m| format!("did you mean `{m}`?"));
    Some((format!("`{text}` is not a reason code"), hint))
}

fn check_field(text: &str) -> Problem {
    let first = text.split(['.', '[']).next().unwrap_or(text);
    if field_starts().any(|f| f == first) {
        return None;
    }
    let starts: Vec<&str> = field_starts().collect();
    Some((
        format!("`{text}` is not a compared field"),
        Some(format!(
            "a field starts with one of: {} (the last {} in single questions, `conform --queries`)",
            starts.join(", "),
            crate::suite::query::KINDS.len()
        )),
    ))
}

/// What a compared field may start with: a part of a game step ([`FIELDS`]), or a kind of
/// single question ([`crate::suite::query::KINDS`]).
pub fn field_starts() -> impl Iterator<Item = &'static str> {
    FIELDS.into_iter().chain(crate::suite::query::KINDS)
}
