//! Reading a scenario file from the top: the text, the map of its sections and the keys it cannot
//! do without, then one step per section (`rules`, `table`, `cards`, `steps`, `exercises`), and
//! at the end the game set up from the table and the cards, a refusal of the position pointed at
//! the key that gave the refused place. The order of the steps is the order of the diagnostics.

use super::cards::{Places, read_cards};
use super::ctx::Ctx;
use super::exercises::decode_exercises;
use super::rules::{load_rules, read_readings};
use super::steps::read_steps;
use super::table::read_table;
use super::{REQUIRED_KEYS, Scenario, TOP_KEYS};
use crate::base::diag::{Diagnostic, Diagnostics};
use crate::base::yaml::{self, Node, Pos, Value};
use crate::engine::game::Game;
use crate::engine::position::Place;
use crate::rules::LoadError;
use crate::rules::disputes::DisputeId;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// Reads `path` (a scenario file) and sets up its game. `readings` (from the command line) are
/// applied over the scenario's own.
///
/// # Errors
/// Every problem found, as diagnostics with the texts of the files involved.
pub fn load(path: &Path, readings: &[(DisputeId, String)]) -> Result<Scenario, LoadError> {
    let file = path.display().to_string();
    let fail = |d: Diagnostic, sources: BTreeMap<String, String>| LoadError {
        diagnostics: Diagnostics(vec![d]),
        sources,
    };
    let text = match yaml::read_text(path) {
        Ok(t) => t,
        Err(e) => {
            let mut d = Diagnostic::new(&file, e.pos(), "", e.message("the scenario"));
            if matches!(e, yaml::ReadError::TooLarge(_)) {
                d = d.with_hint("a scenario is a few kilobytes; see docs/LIMITS.md");
            }
            return Err(fail(d, BTreeMap::new()));
        }
    };
    let base = path.parent().unwrap_or(Path::new("."));
    load_text(&file, &text, base, readings)
}

/// Reads a scenario from its text; `base_dir` is where relative rules paths start.
///
/// # Errors
/// As [`load`].
pub fn load_text(
    file: &str,
    text: &str,
    base_dir: &Path,
    extra_readings: &[(DisputeId, String)],
) -> Result<Scenario, LoadError> {
    let mut sources = BTreeMap::new();
    sources.insert(file.to_string(), text.to_string());
    let root = match yaml::parse(text) {
        Ok(n) => n,
        Err(e) => {
            return Err(LoadError {
                diagnostics: Diagnostics(vec![Diagnostic::from_syntax(file, e)]),
                sources,
            });
        }
    };
    let mut cx = Ctx::new(file, text);
    let Some(top) = read_top(&mut cx, &root) else {
        return Err(cx.into_error(sources));
    };
    let title = top
        .get("title")
        .and_then(|n| cx.text(n, "title"))
        .unwrap_or_default();
    let description = top
        .get("description")
        .and_then(|n| cx.text(n, "description"));

    // Readings: the scenario's, then the command line's.
    let mut readings = top
        .get("readings")
        .map(|n| read_readings(&mut cx, n))
        .unwrap_or_default();
    readings.extend(extra_readings.iter().cloned());

    let loaded = match top.get("rules") {
        Some(node) => load_rules(&mut cx, node, base_dir, &readings, &mut sources),
        None => None,
    };
    let exercises = top
        .get("exercises")
        .map(|n| decode_exercises(&mut cx, n))
        .unwrap_or_default();
    let Some(loaded) = loaded else {
        return Err(cx.into_error(sources));
    };
    let rules = Arc::new(loaded.rules.clone());

    let table_node = top.get("table").copied();
    let mut start = read_table(&mut cx, table_node, rules.players.0);
    let players = start.players;
    let mut places = Places::new();
    let position = top
        .get("cards")
        .and_then(|n| read_cards(&mut cx, n, &mut start, &mut places));
    // Steps (read before the game is set up, so that their problems are reported too).
    let steps = top
        .get("steps")
        .map(|n| read_steps(&mut cx, n, players))
        .unwrap_or_default();

    if !cx.diags.is_empty() {
        return Err(cx.into_error(sources));
    }
    let game = match &position {
        Some(pos) => Game::from_position(rules, &start, pos),
        None => Game::start_at(rules, &start),
    };
    let game = match game {
        Ok(g) => g,
        Err(e) => {
            let cards_at = top.get("cards").map_or(root.pos, |n| n.pos);
            let (pos, path) = refused_at(e.place, &places, table_node, cards_at);
            cx.diags.push(Diagnostic::new(file, pos, &path, e.message));
            return Err(cx.into_error(sources));
        }
    };
    Ok(Scenario {
        file: file.to_string(),
        title,
        description,
        rules: loaded,
        game,
        steps,
        exercises,
    })
}

/// The sections of the scenario by key, after reporting unknown keys and the keys it cannot do
/// without; `None` (said) where the scenario is not a map at all.
fn read_top<'a>(cx: &mut Ctx, root: &'a Node) -> Option<BTreeMap<String, &'a Node>> {
    if !matches!(root.value, Value::Map(_)) {
        cx.err_hint(
            root,
            "",
            format!("a scenario is a map; this is {}", root.kind_name()),
            "a scenario has `title`, `rules`, `table`, `cards` and `steps` (and, in the suite, `exercises`)",
        );
        return None;
    }
    let top: BTreeMap<String, &Node> = cx
        .map(root, "", &TOP_KEYS, "a scenario")
        .into_iter()
        .collect();
    for key in REQUIRED_KEYS {
        if !top.contains_key(key) {
            let hint = match key {
                "rules" => {
                    "name a built-in rule set (`rules: push`), a file, or inline rules with `extends:`"
                }
                "cards" => {
                    "give `seed: N`, a `deck:` (top card first) or `hands:` with a stock and discard pile"
                }
                _ => "see conformance/README.md",
            };
            cx.err_hint(root, "", format!("the scenario has no `{key}`"), hint);
        }
    }
    Some(top)
}

/// Where a position the engine refused is pointed at: the key that gave the refused place (any
/// hand at `cards.hands` when that seat's hand was not given), the table for the players, dealer,
/// round or scores, or else the cards as a whole (`cards_at`).
fn refused_at(
    place: Place,
    places: &Places,
    table_node: Option<&Node>,
    cards_at: Pos,
) -> (Pos, String) {
    places
        .iter()
        .find(|(p, _, _)| *p == place)
        .or_else(|| match place {
            Place::Hand(_) => places.iter().find(|(p, _, _)| *p == Place::Hand(u8::MAX)),
            _ => None,
        })
        .map(|(_, pos, path)| (*pos, path.clone()))
        .unwrap_or_else(|| match (place, table_node) {
            (Place::Table, Some(n)) => (n.pos, "table".to_string()),
            _ => (cards_at, "cards".to_string()),
        })
}
