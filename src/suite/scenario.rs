//! Scenario files: a game set up at a chosen point (rules, table, cards), a list of actions by
//! seat, and what is expected of each (legal, or rejected with a reason code) and of the state at
//! checkpoints. The format is documented in `conformance/README.md`; [`crate::suite::transcript`] replays
//! a scenario into its canonical transcript.
//!
//! A scenario is read through the positioned YAML layer ([`crate::base::yaml`]); every problem is a
//! [`Diagnostic`] with file, line, column and field path, and all problems of a file are reported
//! at once where they do not depend on each other.

use crate::base::card::{Card, Counts};
use crate::base::diag::{Diagnostic, Diagnostics, did_you_mean};
use crate::base::yaml::{self, Node, Pos, Value};
use crate::engine::action_text::{ReadError, parse_action, parse_meld_spec};
use crate::engine::game::{Action, Game, MeldSpec, Reason, Stage};
use crate::engine::position::{Place, Position, Rest, Start};
use crate::oracle::meld::MAX_MELD_CARDS;
use crate::rules::disputes::{DisputeId, list_readings};
use crate::rules::spec::{self, Entry, Leaf, Origin, RawRules};
use crate::rules::{self, BUILT_IN, LoadError, Loaded};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// The most steps in one scenario (a whole game of 2,000 actions fits; the replay of the most
/// allowed stays within a second or two and a few hundred megabytes with `--json`).
pub const MAX_STEPS: usize = 2_000;
/// The most cards in one list (a hand, the stock, a pile, a pack order): the largest pack the rules
/// language allows has 16 × 52 + 64 = 896 cards.
pub const MAX_CARDS: usize = 1_000;

/// The source numbers a scenario may cite.
pub const SOURCES: [&str; 4] = ["000", "001", "002", "003"];

/// The keys of a scenario, at the top (the schema is generated from these tables too).
pub const TOP_KEYS: [&str; 8] = [
    "title",
    "description",
    "rules",
    "readings",
    "table",
    "cards",
    "steps",
    "exercises",
];
/// The keys a scenario cannot do without.
pub const REQUIRED_KEYS: [&str; 5] = ["title", "rules", "cards", "steps", "exercises"];
/// The keys of `table`.
pub const TABLE_KEYS: [&str; 4] = ["players", "dealer", "round", "scores"];
/// The keys of `cards`.
pub const CARDS_KEYS: [&str; 12] = [
    "seed",
    "deck",
    "decks",
    "hands",
    "stock",
    "discard",
    "rest",
    "table",
    "contract-met",
    "turn",
    "stage",
    "taken",
];
/// The keys of `cards` that only an explicit position (`hands`) may give.
pub const POSITION_ONLY: [&str; 8] = [
    "stock",
    "discard",
    "rest",
    "table",
    "contract-met",
    "turn",
    "stage",
    "taken",
];
/// The keys of a step.
pub const STEP_KEYS: [&str; 5] = ["seat", "do", "expect", "check", "why"];
/// The keys of `exercises`.
pub const EXERCISE_KEYS: [&str; 3] = ["sources", "rules", "disputes"];
/// The keys of the checkpoint `last-hand`.
pub const LAST_HAND_KEYS: [&str; 2] = ["end", "points"];
/// The checkpoint assertions, in the order they are evaluated and printed.
pub const CHECK_KEYS: [&str; 17] = [
    "round",
    "dealer",
    "turn",
    "stage",
    "hand",
    "hand-size",
    "table",
    "stock-count",
    "stock-top",
    "discard",
    "discard-top",
    "contract-met",
    "totals",
    "hands-played",
    "last-hand",
    "game-over",
    "winners",
];

/// What a step expects of its action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// Nothing stated: the action must be accepted.
    Unstated,
    Ok,
    Rejected(Reason),
}

/// How a hand ended, as a checkpoint names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndSpec {
    WentOut(u8),
    StockOut,
    Stalled,
}

/// One expected table meld.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeldCheck {
    pub owner: u8,
    pub spec: MeldSpec,
}

/// One assertion about the state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// The deal being played, from 1.
    Round(usize),
    Dealer(u8),
    Turn(u8),
    Stage(Stage),
    Hand(u8, Vec<Card>),
    HandSize(u8, usize),
    /// The whole table, in order.
    Table(Vec<MeldCheck>),
    StockCount(usize),
    StockTop(Option<Card>),
    /// The whole discard pile, top first.
    Discard(Vec<Card>),
    DiscardTop(Option<Card>),
    /// Exactly these seats have met the contract of the deal being played.
    ContractMet(Vec<u8>),
    Totals(Vec<i64>),
    /// Hands ended since the scenario started.
    HandsPlayed(usize),
    LastHand {
        end: Option<EndSpec>,
        points: Option<Vec<u32>>,
    },
    GameOver(bool),
    Winners(Vec<u8>),
}

/// A step: an action by a seat (optional), its expectation, and checks of the state after it.
#[derive(Clone, Debug)]
pub struct Step {
    /// From 1.
    pub number: usize,
    pub line: u32,
    /// `None`: the seat to play.
    pub seat: Option<u8>,
    pub action: Option<Action>,
    pub expect: Expect,
    pub checks: Vec<(u32, Check)>,
}

/// What a scenario exercises, for coverage.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Exercises {
    pub sources: Vec<String>,
    /// Rule paths of [`spec::rule_defs`].
    pub rules: Vec<String>,
    /// Dispute ids, each with the reading exercised when one is named.
    pub disputes: Vec<(DisputeId, Option<String>)>,
}

/// A scenario, read and checked, with its game set up.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub file: String,
    pub title: String,
    pub description: Option<String>,
    pub rules: Loaded,
    /// The game at the start of the scenario.
    pub game: Game,
    pub steps: Vec<Step>,
    pub exercises: Exercises,
}

struct Ctx {
    file: String,
    /// The file's text, to mark one word of a value (`word_at`).
    source: String,
    diags: Vec<Diagnostic>,
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

impl Ctx {
    /// Where `word` stands in `node`'s value, searched on the node's line from character `skip`
    /// of the value on (the word's place within the value; quotes before it move it further), so
    /// that a problem with one card of a list, or one word of an action, is marked at that word
    /// rather than at the start of the value. The node's own place where the word is not on that
    /// line (a value over several lines, an escape). Asked only for a word found wrong.
    fn word_at(&self, node: &Node, word: &str, skip: usize) -> Pos {
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
    fn read_error_at(&self, node: &Node, e: &ReadError) -> Pos {
        (e.word.as_ref()).map_or(node.pos, |(at, word)| self.word_at(node, word, *at))
    }

    fn err(&mut self, node: &Node, path: &str, msg: impl Into<String>) {
        self.diags
            .push(Diagnostic::new(&self.file, node.pos, path, msg));
    }

    fn err_hint(
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
    fn map<'a>(
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

    fn int(&mut self, node: &Node, path: &str, min: i64, max: i64) -> Option<i64> {
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

    fn boolean(&mut self, node: &Node, path: &str) -> Option<bool> {
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

    fn text(&mut self, node: &Node, path: &str) -> Option<String> {
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

    fn list<'a>(&mut self, node: &'a Node, path: &str, what: &str) -> Option<&'a [Node]> {
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

    /// Cards as a string (`"9H 10S JK"`) or a list of card strings; `none` or `[]` for none.
    fn cards(&mut self, node: &Node, path: &str) -> Option<Vec<Card>> {
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

    fn seat(&mut self, node: &Node, path: &str, players: u8) -> Option<u8> {
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

    fn seats(&mut self, node: &Node, path: &str, players: u8) -> Option<Vec<u8>> {
        let items = self.list(node, path, "a list of seats")?;
        let mut v = Vec::new();
        for (i, it) in items.iter().enumerate() {
            v.push(self.seat(it, &format!("{path}[{i}]"), players)?);
        }
        Some(v)
    }

    /// A map from seat to something (`0: …`), or a list indexed by seat.
    fn per_seat<'a>(
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

    fn meld_spec(&mut self, node: &Node, path: &str) -> Option<MeldSpec> {
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
    fn melds(&mut self, node: &Node, path: &str, players: u8) -> Option<Vec<MeldCheck>> {
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
    let mut cx = Ctx {
        file: file.to_string(),
        source: text.to_string(),
        diags: Vec::new(),
    };
    let done = |cx: Ctx, sources: BTreeMap<String, String>| LoadError {
        diagnostics: Diagnostics::capped(cx.diags),
        sources,
    };
    if !matches!(root.value, Value::Map(_)) {
        cx.err_hint(
            &root,
            "",
            format!("a scenario is a map; this is {}", root.kind_name()),
            "a scenario has `title`, `rules`, `table`, `cards`, `steps` and `exercises`",
        );
        return Err(done(cx, sources));
    }
    let top: BTreeMap<String, &Node> = cx
        .map(&root, "", &TOP_KEYS, "a scenario")
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
                "exercises" => "list the `sources`, `rules` and `disputes` the scenario touches",
                _ => "see conformance/README.md",
            };
            cx.err_hint(&root, "", format!("the scenario has no `{key}`"), hint);
        }
    }
    let title = top
        .get("title")
        .and_then(|n| cx.text(n, "title"))
        .unwrap_or_default();
    let description = top
        .get("description")
        .and_then(|n| cx.text(n, "description"));

    // Readings: the scenario's, then the command line's.
    let mut readings: Vec<(DisputeId, String)> = Vec::new();
    if let Some(node) = top.get("readings") {
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
    }
    readings.extend(extra_readings.iter().cloned());

    // Rules.
    let loaded = match top.get("rules") {
        Some(node) => load_rules(&mut cx, node, base_dir, &readings, &mut sources),
        None => None,
    };
    let exercises = top
        .get("exercises")
        .map(|n| decode_exercises(&mut cx, n))
        .unwrap_or_default();
    let Some(loaded) = loaded else {
        return Err(done(cx, sources));
    };
    let rules = Arc::new(loaded.rules.clone());

    // Table.
    let mut start = Start {
        players: rules.players.0,
        ..Start::default()
    };
    let table_node = top.get("table").copied();
    if let Some(node) = table_node {
        for (key, v) in cx.map(node, "table", &TABLE_KEYS, "the table") {
            let p = join("table", &key);
            match key.as_str() {
                "players" => {
                    if let Some(n) = cx.int(v, &p, 2, 12) {
                        start.players = n as u8;
                    }
                }
                "dealer" => {
                    if let Some(n) = cx.int(v, &p, 0, 11) {
                        start.dealer = n as u8;
                    }
                }
                "round" => {
                    if let Some(n) = cx.int(v, &p, 1, 20) {
                        start.round = n as usize - 1;
                    }
                }
                _ => {
                    if let Some(items) = cx.list(v, &p, "the scores (one row per earlier hand)") {
                        for (i, row) in items.iter().enumerate() {
                            let rp = format!("{p}[{i}]");
                            if let Some(cells) = cx.list(row, &rp, "a score row (points per side)")
                            {
                                let mut r = Vec::new();
                                for (j, c) in cells.iter().enumerate() {
                                    if let Some(x) = cx.int(c, &format!("{rp}[{j}]"), 0, 1_000_000)
                                    {
                                        r.push(x as u32);
                                    }
                                }
                                start.scores.push(r);
                            }
                        }
                    }
                }
            }
        }
    }
    let players = start.players;

    // Cards.
    let mut position: Option<Position> = None;
    let mut places: Vec<(Place, Pos, String)> = Vec::new();
    if let Some(node) = top.get("cards") {
        let entries: BTreeMap<String, &Node> = cx
            .map(node, "cards", &CARDS_KEYS, "the cards")
            .into_iter()
            .collect();
        if let Some(v) = entries.get("seed") {
            // Any 64-bit unsigned seed: YAML integers stop at 2^63 - 1, so larger ones are
            // written as quoted decimal text, as the protocol writes the generator.
            match &v.value {
                Value::Str(t) => match t.trim().parse::<u64>() {
                    Ok(n) => start.seed = n,
                    Err(_) => cx.err(
                        v,
                        "cards.seed",
                        format!("`{}` is not a seed (0 to 18446744073709551615)", clip(t)),
                    ),
                },
                _ => {
                    if let Some(n) = cx.int(v, "cards.seed", 0, i64::MAX) {
                        start.seed = n as u64;
                    }
                }
            }
        }
        let has = |k: &str| entries.contains_key(k);
        if !has("seed") && !has("deck") && !has("decks") && !has("hands") {
            cx.err_hint(
                node,
                "cards",
                "the cards are not given",
                "give `seed: N`, a `deck:` (top card first) or `hands:` with a stock and discard pile",
            );
        }
        if has("deck") && has("decks") {
            cx.err(
                entries["decks"],
                "cards.decks",
                "give `deck` (this deal) or `decks` (this deal and the next), not both",
            );
        }
        if has("hands") && has("deck") {
            cx.err_hint(
                entries["deck"],
                "cards.deck",
                "`deck` orders the pack for a fresh deal; with `hands` the deal is already made",
                "use `decks` for the pack orders of the deals after this one",
            );
        }
        if !has("hands") {
            for k in POSITION_ONLY {
                if let Some(n) = entries.get(k) {
                    cx.err_hint(
                        n,
                        &join("cards", k),
                        format!("`{k}` belongs to an explicit position"),
                        "give `hands:` too, or leave the deal to `seed` or `deck`",
                    );
                }
            }
        }
        if let Some(v) = entries.get("deck")
            && let Some(d) = cx.cards(v, "cards.deck")
        {
            places.push((Place::Deck(0), v.pos, "cards.deck".into()));
            start.decks.push(d);
        }
        if let Some(v) = entries.get("decks")
            && let Some(items) = cx.list(v, "cards.decks", "a list of pack orders")
        {
            for (i, it) in items.iter().enumerate() {
                let p = format!("cards.decks[{i}]");
                if let Some(d) = cx.cards(it, &p) {
                    places.push((Place::Deck(start.decks.len()), it.pos, p));
                    start.decks.push(d);
                }
            }
        }
        if let Some(hn) = entries.get("hands") {
            let mut pos = Position {
                hands: vec![Vec::new(); usize::from(players)],
                ..Position::default()
            };
            places.push((Place::Hand(u8::MAX), hn.pos, "cards.hands".into()));
            for (seat, v, p) in cx.per_seat(hn, "cards.hands", players) {
                if let Some(c) = cx.cards(v, &p) {
                    pos.hands[usize::from(seat)] = c;
                }
                places.push((Place::Hand(seat), v.pos, p));
            }
            for (k, place) in [("stock", Place::Stock), ("discard", Place::Discard)] {
                if let Some(v) = entries.get(k) {
                    let p = join("cards", k);
                    let c = cx.cards(v, &p).unwrap_or_default();
                    if k == "stock" {
                        pos.stock = c;
                    } else {
                        pos.discard = c;
                    }
                    places.push((place, v.pos, p));
                }
            }
            if let Some(v) = entries.get("rest") {
                match v.scalar_text().as_deref() {
                    Some("stock") => pos.rest = Rest::Stock,
                    Some("discard") => pos.rest = Rest::Discard,
                    Some("none") => pos.rest = Rest::None,
                    _ => cx.err_hint(
                        v,
                        "cards.rest",
                        "`rest` says where the cards not listed go",
                        "write `rest: stock` (under the stock), `rest: discard` (under the discard pile) or `rest: none`",
                    ),
                }
            }
            if let Some(v) = entries.get("table")
                && let Some(melds) = cx.melds(v, "cards.table", players)
            {
                if let Value::Seq(items) = &v.value {
                    for (i, it) in items.iter().enumerate() {
                        places.push((Place::Meld(i), it.pos, format!("cards.table[{i}]")));
                    }
                }
                pos.table = melds.into_iter().map(|m| (m.owner, m.spec)).collect();
            }
            if let Some(v) = entries.get("contract-met") {
                places.push((Place::ContractMet, v.pos, "cards.contract-met".into()));
                pos.contract_met = cx.seats(v, "cards.contract-met", players);
            }
            if let Some(v) = entries.get("turn") {
                places.push((Place::Turn, v.pos, "cards.turn".into()));
                pos.turn = cx.seat(v, "cards.turn", players);
            }
            if let Some(v) = entries.get("stage") {
                places.push((Place::Stage, v.pos, "cards.stage".into()));
                match v.scalar_text().as_deref() {
                    Some("draw") => pos.stage = Stage::Draw,
                    Some("play") => pos.stage = Stage::Play,
                    _ => cx.err_hint(
                        v,
                        "cards.stage",
                        "the stage is `draw` (the turn starts) or `play` (the draw is made)",
                        "write `stage: draw` or `stage: play`",
                    ),
                }
            }
            if let Some(v) = entries.get("taken") {
                places.push((Place::Taken, v.pos, "cards.taken".into()));
                match cx.cards(v, "cards.taken").as_deref() {
                    Some([c]) => pos.taken = Some(*c),
                    Some(_) => cx.err(v, "cards.taken", "`taken` is one card"),
                    None => {}
                }
            }
            places.push((Place::Cards, node.pos, "cards".into()));
            position = Some(pos);
        }
    }

    // Steps (read before the game is set up, so that their problems are reported too).
    let mut steps = Vec::new();
    if let Some(node) = top.get("steps")
        && let Some(items) = cx.list(node, "steps", "the steps")
    {
        if items.len() > MAX_STEPS {
            cx.err_hint(
                node,
                "steps",
                format!("{} steps; the limit is {MAX_STEPS}", items.len()),
                "split the scenario: a later one can start from an explicit position (`cards: {hands: …}`)",
            );
        }
        for (i, it) in items.iter().enumerate().take(MAX_STEPS) {
            if let Some(s) = decode_step(&mut cx, it, i, players) {
                steps.push(s);
            }
        }
    }

    if !cx.diags.is_empty() {
        return Err(done(cx, sources));
    }
    let game = match &position {
        Some(pos) => Game::from_position(rules, &start, pos),
        None => Game::start_at(rules, &start),
    };
    let game = match game {
        Ok(g) => g,
        Err(e) => {
            let (pos, path) = places
                .iter()
                .find(|(p, _, _)| *p == e.place)
                .or_else(|| match e.place {
                    Place::Hand(_) => places.iter().find(|(p, _, _)| *p == Place::Hand(u8::MAX)),
                    _ => None,
                })
                .map(|(_, pos, path)| (*pos, path.clone()))
                .unwrap_or_else(|| match (e.place, table_node) {
                    (Place::Table, Some(n)) => (n.pos, "table".to_string()),
                    _ => (
                        top.get("cards").map_or(root.pos, |n| n.pos),
                        "cards".to_string(),
                    ),
                });
            cx.diags.push(Diagnostic::new(file, pos, &path, e.message));
            return Err(done(cx, sources));
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

fn load_rules(
    cx: &mut Ctx,
    node: &Node,
    base_dir: &Path,
    readings: &[(DisputeId, String)],
    sources: &mut BTreeMap<String, String>,
) -> Option<Loaded> {
    match &node.value {
        Value::Str(name) => {
            let builtin = BUILT_IN.iter().any(|(n, _, _)| n == name);
            // A plain name (no `/`, no `.yaml`) is a built-in, and rules::load says so if not.
            let path_like = name.contains('/')
                || name.contains('\\')
                || name.ends_with(".yaml")
                || name.ends_with(".yml");
            let target = if builtin || !path_like || Path::new(name).is_absolute() {
                name.clone()
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
        Value::Map(_) => {
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

fn decode_exercises(cx: &mut Ctx, node: &Node) -> Exercises {
    let mut ex = Exercises::default();
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
                "sources" => {
                    if SOURCES.contains(&word.as_str()) {
                        ex.sources.push(word);
                    } else {
                        cx.err_hint(
                            it,
                            &ip,
                            format!("unknown source `{word}`"),
                            "the sources are \"000\", \"001\", \"002\" and \"003\" (quote them)",
                        );
                    }
                }
                "rules" => {
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
                        cx.err_hint(it, &ip, format!("unknown rule `{word}`"), hint);
                    }
                }
                _ => {
                    let (id, reading) = match word.split_once('=') {
                        Some((a, b)) => (a.trim().to_string(), Some(b.trim().to_string())),
                        None => (word.clone(), None),
                    };
                    let Some(d) = DisputeId::from_id(&id) else {
                        let ids = DisputeId::ALL.iter().map(|d| d.id());
                        let hint = match did_you_mean(&id, ids) {
                            Some(m) => format!("did you mean `{m}`?"),
                            None => "see `push-rummy disputes` for the ids".into(),
                        };
                        cx.err_hint(it, &ip, format!("unknown dispute `{id}`"), hint);
                        continue;
                    };
                    if let Some(r) = &reading
                        && !d.reading_names().contains(&r.as_str())
                    {
                        cx.err_hint(
                            it,
                            &ip,
                            format!("`{r}` is not a reading of dispute `{id}`"),
                            format!("the readings are {}", list_readings(d)),
                        );
                        continue;
                    }
                    ex.disputes.push((d, reading));
                }
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
    let action = entries.get("do").and_then(|v| {
        let p = join(&path, "do");
        let text = v.scalar_text().or_else(|| {
            cx.err(v, &p, format!("an action is text like `discard 9H`; this is {}", v.kind_name()));
            None
        })?;
        match parse_action(&text) {
            Ok(a) => match action_too_big(&a) {
                Some(problem) => {
                    cx.err_hint(v, &p, problem, "see docs/LIMITS.md");
                    None
                }
                None => Some(a),
            },
            Err(e) => {
                let pos = cx.read_error_at(v, &e);
                let text = clip(&text);
                cx.diags.push(
                    Diagnostic::new(&cx.file, pos, &p, format!("cannot read the action `{text}`: {e}"))
                        .with_hint("actions: take-discard, push, draw-stock, meld [..], lay-off N [..], rescue N CARD for WILD, discard CARD, end-turn"),
                );
                None
            }
        }
    });
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

/// Text shown in a message, cut to 80 characters.
fn clip(text: &str) -> String {
    if text.chars().count() <= 80 {
        return text.to_string();
    }
    let head: String = text.chars().take(80).collect();
    format!("{head}…")
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
        Value::Map(e) if e.len() == 1 && e[0].0.scalar_text().as_deref() == Some("rejected") => {
            code_of(cx, &e[0].1, &join(p, "rejected"))
        }
        _ => {
            cx.err_hint(
                v,
                p,
                "an expectation is `ok` or `{rejected: REASON-CODE}`",
                "for example `expect: {rejected: invalid-meld}`",
            );
            Expect::Unstated
        }
    }
}

fn decode_checks(cx: &mut Ctx, node: &Node, path: &str, players: u8) -> Vec<(u32, Check)> {
    let mut out = Vec::new();
    let mut entries = cx.map(node, path, &CHECK_KEYS, "a checkpoint");
    entries.sort_by_key(|(k, _)| CHECK_KEYS.iter().position(|c| c == k));
    for (key, v) in entries {
        let p = join(path, &key);
        let line = v.pos.line;
        let check = match key.as_str() {
            "round" => cx.int(v, &p, 1, 20).map(|n| Check::Round(n as usize)),
            "dealer" => cx.seat(v, &p, players).map(Check::Dealer),
            "turn" => cx.seat(v, &p, players).map(Check::Turn),
            "stage" => match v.scalar_text().as_deref() {
                Some("draw") => Some(Check::Stage(Stage::Draw)),
                Some("play") => Some(Check::Stage(Stage::Play)),
                Some("over") => Some(Check::Stage(Stage::Over)),
                _ => {
                    cx.err(v, &p, "the stage is `draw`, `play` or `over`");
                    None
                }
            },
            "hand" | "hand-size" => {
                for (seat, n, sp) in cx.per_seat(v, &p, players) {
                    let c = if key == "hand" {
                        cx.cards(n, &sp).map(|c| Check::Hand(seat, c))
                    } else {
                        cx.int(n, &sp, 0, 10_000)
                            .map(|k| Check::HandSize(seat, k as usize))
                    };
                    if let Some(c) = c {
                        out.push((n.pos.line, c));
                    }
                }
                continue;
            }
            "table" => cx.melds(v, &p, players).map(Check::Table),
            "stock-count" => cx
                .int(v, &p, 0, 10_000)
                .map(|n| Check::StockCount(n as usize)),
            "stock-top" | "discard-top" => match cx.cards(v, &p) {
                Some(c) if c.len() <= 1 => {
                    let top = c.first().copied();
                    Some(if key == "stock-top" {
                        Check::StockTop(top)
                    } else {
                        Check::DiscardTop(top)
                    })
                }
                Some(_) => {
                    cx.err(v, &p, "one card, or `none` for an empty pile");
                    None
                }
                None => None,
            },
            "discard" => cx.cards(v, &p).map(Check::Discard),
            "contract-met" => cx.seats(v, &p, players).map(|mut s| {
                s.sort_unstable();
                s.dedup();
                Check::ContractMet(s)
            }),
            "totals" => cx.list(v, &p, "the totals (one per side)").map(|items| {
                let v: Vec<i64> = items
                    .iter()
                    .enumerate()
                    .filter_map(|(i, n)| cx.int(n, &format!("{p}[{i}]"), -1_000_000, 1_000_000))
                    .collect();
                Check::Totals(v)
            }),
            "hands-played" => cx
                .int(v, &p, 0, 1000)
                .map(|n| Check::HandsPlayed(n as usize)),
            "last-hand" => decode_last_hand(cx, v, &p, players),
            "game-over" => cx.boolean(v, &p).map(Check::GameOver),
            _ => cx.seats(v, &p, players).map(|mut s| {
                s.sort_unstable();
                Check::Winners(s)
            }),
        };
        if let Some(c) = check {
            out.push((line, c));
        }
    }
    out
}

fn decode_last_hand(cx: &mut Ctx, v: &Node, p: &str, players: u8) -> Option<Check> {
    let mut end = None;
    let mut points = None;
    for (key, n) in cx.map(v, p, &LAST_HAND_KEYS, "`last-hand`") {
        let kp = join(p, &key);
        if key == "end" {
            let t = n.scalar_text().unwrap_or_default();
            let words: Vec<&str> = t.split_whitespace().collect();
            end = match words.as_slice() {
                ["stock-out"] => Some(EndSpec::StockOut),
                ["stalled"] => Some(EndSpec::Stalled),
                ["went-out", s] => match s.parse::<u8>() {
                    Ok(s) if s < players => Some(EndSpec::WentOut(s)),
                    _ => {
                        cx.err(n, &kp, format!("`{s}` is not a seat of {players} players"));
                        return None;
                    }
                },
                _ => {
                    cx.err_hint(
                        n,
                        &kp,
                        format!("cannot read `{t}` as the end of a hand"),
                        "write `went-out SEAT`, `stock-out` or `stalled`",
                    );
                    return None;
                }
            };
        } else {
            let items = cx.list(n, &kp, "points per side")?;
            let mut v = Vec::new();
            for (i, it) in items.iter().enumerate() {
                v.push(cx.int(it, &format!("{kp}[{i}]"), 0, 1_000_000)? as u32);
            }
            points = Some(v);
        }
    }
    Some(Check::LastHand { end, points })
}

/// The cards of a hand, sorted: for comparing hands as multisets.
pub fn sorted(cards: &[Card]) -> Vec<Card> {
    Counts::from_cards(cards).cards()
}

/// The scenario files (`*.yaml`) under `dir`, recursively, in sorted order.
///
/// # Errors
/// A directory that cannot be read.
pub fn find_scenarios(dir: &Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    let mut out = Vec::new();
    let mut entries: Vec<std::path::PathBuf> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            out.extend(find_scenarios(&p)?);
        } else if p.extension().is_some_and(|e| e == "yaml") {
            out.push(p);
        }
    }
    Ok(out)
}
