//! The reading context of a scenario: the file, its text and the diagnostics found so far, and
//! the readers of plain YAML values (a map with its allowed keys, an integer in a range, a
//! boolean, text, a list) that report what is wrong with a value where it stands. It knows nothing
//! of cards or seats: those readers are in `values`.

use crate::base::diag::{Diagnostic, Diagnostics, did_you_mean};
use crate::base::yaml::{Node, Pos, Value};
use crate::engine::action_text::ReadError;
use crate::rules::LoadError;
use std::collections::BTreeMap;

pub(super) struct Ctx {
    pub(super) file: String,
    /// The file's text, to mark one word of a value (`word_at`).
    pub(super) source: String,
    pub(super) diags: Vec<Diagnostic>,
}

/// `key` under the field path `path`.
pub(super) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// Text shown in a message, cut to 80 characters.
pub(super) fn clip(text: &str) -> String {
    if text.chars().count() <= 80 {
        return text.to_string();
    }
    let head: String = text.chars().take(80).collect();
    format!("{head}…")
}

impl Ctx {
    pub(super) fn new(file: &str, text: &str) -> Ctx {
        Ctx {
            file: file.to_string(),
            source: text.to_string(),
            diags: Vec::new(),
        }
    }

    /// The problems found, as the error of the whole scenario (capped), with the texts of the
    /// files involved.
    pub(super) fn into_error(self, sources: BTreeMap<String, String>) -> LoadError {
        LoadError {
            diagnostics: Diagnostics::capped(self.diags),
            sources,
        }
    }

    /// Where `word` stands in `node`'s value, searched on the node's line from character `skip`
    /// of the value on (the word's place within the value; quotes before it move it further), so
    /// that a problem with one card of a list, or one word of an action, is marked at that word
    /// rather than at the start of the value. The node's own place where the word is not on that
    /// line (a value over several lines, an escape). Asked only for a word found wrong.
    pub(super) fn word_at(&self, node: &Node, word: &str, skip: usize) -> Pos {
        let line = self
            .source
            .lines()
            .nth(node.pos.line.saturating_sub(1) as usize);
        let start = (node.pos.column.saturating_sub(1) as usize).saturating_add(skip);
        let found = line.and_then(|l| {
            let chars: Vec<char> = l.chars().collect();
            let w: Vec<char> = word.chars().collect();
            if w.is_empty() || start >= chars.len() {
                return None;
            }
            (start..=chars.len().saturating_sub(w.len())).find(|&i| chars[i..i + w.len()] == w[..])
        });
        match found {
            Some(i) => Pos {
                line: node.pos.line,
                column: u32::try_from(i + 1).unwrap_or(u32::MAX),
            },
            None => node.pos,
        }
    }

    /// Where a text reader's refusal of `node`'s value is marked: at the word it stumbled on,
    /// where it names one.
    pub(super) fn read_error_at(&self, node: &Node, e: &ReadError) -> Pos {
        (e.word.as_ref()).map_or(node.pos, |(at, word)| self.word_at(node, word, *at))
    }

    pub(super) fn err(&mut self, node: &Node, path: &str, msg: impl Into<String>) {
        self.diags
            .push(Diagnostic::new(&self.file, node.pos, path, msg));
    }

    pub(super) fn err_hint(
        &mut self,
        node: &Node,
        path: &str,
        msg: impl Into<String>,
        hint: impl Into<String>,
    ) {
        self.diags
            .push(Diagnostic::new(&self.file, node.pos, path, msg).with_hint(hint));
    }

    /// The entries of a map, reporting a non-map and unknown keys.
    pub(super) fn map<'a>(
        &mut self,
        node: &'a Node,
        path: &str,
        allowed: &[&str],
        what: &str,
    ) -> Vec<(String, &'a Node)> {
        let Value::Map(entries) = &node.value else {
            if node.value != Value::Null {
                self.err_hint(
                    node,
                    path,
                    format!("{what} is a map; this is {}", node.kind_name()),
                    format!("expected keys: {}", allowed.join(", ")),
                );
            }
            return Vec::new();
        };
        let mut out = Vec::new();
        for (k, v) in entries {
            let Some(key) = k.scalar_text() else {
                self.err(k, path, "a key must be a plain name");
                continue;
            };
            if allowed.contains(&key.as_str()) {
                out.push((key, v));
            } else {
                let hint = match did_you_mean(&key, allowed.iter().copied()) {
                    Some(m) => format!("did you mean `{m}`?"),
                    None => format!("expected one of: {}", allowed.join(", ")),
                };
                self.err_hint(k, &join(path, &key), format!("unknown key `{key}`"), hint);
            }
        }
        out
    }

    pub(super) fn int(&mut self, node: &Node, path: &str, min: i64, max: i64) -> Option<i64> {
        match node.value {
            Value::Int(n) if (min..=max).contains(&n) => Some(n),
            Value::Int(n) => {
                self.err(
                    node,
                    path,
                    format!("{n} is out of range: expected {min} to {max}"),
                );
                None
            }
            _ => {
                self.err(
                    node,
                    path,
                    format!("expected an integer, found {}", node.kind_name()),
                );
                None
            }
        }
    }

    pub(super) fn boolean(&mut self, node: &Node, path: &str) -> Option<bool> {
        match node.value {
            Value::Bool(b) => Some(b),
            _ => {
                self.err(
                    node,
                    path,
                    format!("expected true or false, found {}", node.kind_name()),
                );
                None
            }
        }
    }

    pub(super) fn text(&mut self, node: &Node, path: &str) -> Option<String> {
        match &node.value {
            Value::Str(s) => Some(s.clone()),
            _ => {
                self.err(
                    node,
                    path,
                    format!("expected text, found {}", node.kind_name()),
                );
                None
            }
        }
    }

    pub(super) fn list<'a>(
        &mut self,
        node: &'a Node,
        path: &str,
        what: &str,
    ) -> Option<&'a [Node]> {
        match &node.value {
            Value::Seq(items) => Some(items),
            _ => {
                self.err(
                    node,
                    path,
                    format!("{what} is a list; this is {}", node.kind_name()),
                );
                None
            }
        }
    }
}
