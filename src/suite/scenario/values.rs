//! The readers of the game's values in a scenario: cards (as text or a list, each bad card marked
//! where it stands), seats, a map or list per seat, a meld and the table's melds. The checks of
//! what a value may be in the rules (a card of the pack, a legal meld) are the engine's, when the
//! game is set up; here a value is only read.

use super::ctx::{Ctx, clip};
use super::{MAX_CARDS, MeldCheck};
use crate::base::card::Card;
use crate::base::diag::Diagnostic;
use crate::base::yaml::{Node, Value};
use crate::engine::action_text::parse_meld_spec;
use crate::engine::game::MeldSpec;
use crate::oracle::meld::MAX_MELD_CARDS;

impl Ctx {
    /// Cards as a string (`"9H 10S JK"`) or a list of card strings; `none` or `[]` for none.
    pub(super) fn cards(&mut self, node: &Node, path: &str) -> Option<Vec<Card>> {
        // Each word with its node and, in a text, where it starts within the text (in bytes).
        let text = match &node.value {
            Value::Str(s) => s.as_str(),
            _ => "",
        };
        let words: Vec<(String, &Node, usize)> = match &node.value {
            Value::Null => return Some(Vec::new()),
            Value::Str(s) if s.trim().eq_ignore_ascii_case("none") => return Some(Vec::new()),
            Value::Str(s) => s
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|t| !t.is_empty())
                .map(|t| {
                    (
                        t.to_string(),
                        node,
                        t.as_ptr() as usize - s.as_ptr() as usize,
                    )
                })
                .collect(),
            Value::Seq(items) => {
                let mut v = Vec::new();
                for (i, it) in items.iter().enumerate() {
                    match it.scalar_text() {
                        Some(s) => v.push((s, it, 0)),
                        None => {
                            self.err(
                                it,
                                &format!("{path}[{i}]"),
                                format!(
                                    "a card is written like 10H or JK; this is {}",
                                    it.kind_name()
                                ),
                            );
                            return None;
                        }
                    }
                }
                v
            }
            _ => {
                self.err_hint(
                    node,
                    path,
                    format!("expected cards, found {}", node.kind_name()),
                    "write cards as text, \"9H 10S JK\", or as a list, [9H, 10S, JK]",
                );
                return None;
            }
        };
        if words.len() > MAX_CARDS {
            self.err_hint(
                node,
                path,
                format!(
                    "{} cards in one list; the limit is {MAX_CARDS} (the largest pack has 896)",
                    words.len()
                ),
                "see docs/LIMITS.md",
            );
            return None;
        }
        let mut out = Vec::new();
        let mut ok = true;
        for (w, at, offset) in words {
            match w.parse::<Card>() {
                Ok(c) => out.push(c),
                Err(e) => {
                    // A bad word of a text is marked where it stands in the text.
                    let pos = if std::ptr::eq(at, node) {
                        self.word_at(node, &w, text[..offset].chars().count())
                    } else {
                        at.pos
                    };
                    self.diags
                        .push(Diagnostic::new(&self.file, pos, path, e.to_string()));
                    ok = false;
                }
            }
        }
        ok.then_some(out)
    }

    pub(super) fn seat(&mut self, node: &Node, path: &str, players: u8) -> Option<u8> {
        let n = self.int(node, path, 0, 255)?;
        if n >= i64::from(players) {
            self.err_hint(
                node,
                path,
                format!("seat {n} is not at the table"),
                format!("{players} players sit in seats 0 to {}", players - 1),
            );
            return None;
        }
        Some(n as u8)
    }

    pub(super) fn seats(&mut self, node: &Node, path: &str, players: u8) -> Option<Vec<u8>> {
        let items = self.list(node, path, "a list of seats")?;
        let mut v = Vec::new();
        for (i, it) in items.iter().enumerate() {
            v.push(self.seat(it, &format!("{path}[{i}]"), players)?);
        }
        Some(v)
    }

    /// A map from seat to something (`0: …`), or a list indexed by seat.
    pub(super) fn per_seat<'a>(
        &mut self,
        node: &'a Node,
        path: &str,
        players: u8,
    ) -> Vec<(u8, &'a Node, String)> {
        let mut out = Vec::new();
        match &node.value {
            Value::Map(entries) => {
                for (k, v) in entries {
                    let p = format!("{path}.{}", k.scalar_text().unwrap_or_default());
                    if let Some(s) = self.seat(k, &p, players) {
                        out.push((s, v, p));
                    }
                }
            }
            Value::Seq(items) => {
                if items.len() > usize::from(players) {
                    self.err(
                        node,
                        path,
                        format!("{} entries for {players} seats", items.len()),
                    );
                }
                for (i, v) in items.iter().enumerate().take(usize::from(players)) {
                    out.push((i as u8, v, format!("{path}[{i}]")));
                }
            }
            _ => self.err_hint(
                node,
                path,
                format!(
                    "expected a map from seat to value, found {}",
                    node.kind_name()
                ),
                "write `0: …` for seat 0",
            ),
        }
        out
    }

    pub(super) fn meld_spec(&mut self, node: &Node, path: &str) -> Option<MeldSpec> {
        let text = match &node.value {
            Value::Str(s) => s.clone(),
            // `[9H, 10H, JK]` read by YAML as a list.
            Value::Seq(items) => {
                let words: Option<Vec<String>> = items.iter().map(Node::scalar_text).collect();
                match words {
                    Some(w) => format!("[{}]", w.join(" ")),
                    None => {
                        self.err(node, path, "a meld is written like `run [9H 10H JK]`");
                        return None;
                    }
                }
            }
            _ => {
                self.err(
                    node,
                    path,
                    format!(
                        "a meld is written like `run [9H 10H JK]`; this is {}",
                        node.kind_name()
                    ),
                );
                return None;
            }
        };
        match parse_meld_spec(&text) {
            Ok(s) if s.cards.len() > MAX_MELD_CARDS => {
                self.err_hint(
                    node,
                    path,
                    format!(
                        "a meld of {} cards; the limit is {MAX_MELD_CARDS}",
                        s.cards.len()
                    ),
                    "see docs/LIMITS.md",
                );
                None
            }
            Ok(s) => Some(s),
            Err(e) => {
                let pos = self.read_error_at(node, &e);
                let message = format!("cannot read the meld `{}`: {e}", clip(&text));
                self.diags
                    .push(Diagnostic::new(&self.file, pos, path, message));
                None
            }
        }
    }

    /// A list of `OWNER: MELD` entries.
    pub(super) fn melds(&mut self, node: &Node, path: &str, players: u8) -> Option<Vec<MeldCheck>> {
        let items = self.list(node, path, "the table (a list of `SEAT: MELD`)")?;
        let mut out = Vec::new();
        let mut ok = true;
        for (i, it) in items.iter().enumerate() {
            let p = format!("{path}[{i}]");
            let entry = match &it.value {
                Value::Map(e) if e.len() == 1 => Some((&e[0].0, &e[0].1)),
                _ => None,
            };
            let Some((k, v)) = entry else {
                self.err_hint(
                    it,
                    &p,
                    "a table meld is one `SEAT: MELD` entry",
                    "for example `- 1: run [9H 10H JK JK=JH QH]`",
                );
                ok = false;
                continue;
            };
            let owner = self.seat(k, &p, players);
            let spec = self.meld_spec(v, &p);
            match (owner, spec) {
                (Some(owner), Some(spec)) => out.push(MeldCheck { owner, spec }),
                _ => ok = false,
            }
        }
        ok.then_some(out)
    }
}
