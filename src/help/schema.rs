//! JSON Schemas (draft 7) for rules files, scenario files, the disputes register and
//! known-departures files, so that editors can complete and check them
//! (`# yaml-language-server: $schema=…` on the first line of a file); and for the messages of
//! single questions and the test vectors, so that implementers in other languages can check
//! theirs.
//!
//! No schema is written by hand. The rules schema is generated from the rule table
//! ([`spec::rule_defs`]) and the dispute register ([`DisputeId`], [`mod@register`]); the scenario
//! schema from the tables the scenario reader itself uses ([`scenario::TOP_KEYS`] and the other
//! key tables, [`scenario::CHECK_KEYS`], [`scenario::SOURCES`], [`Reason::ALL`], the rule table
//! again); the register's ([`register()`]) from the shape `rules::disputes::register` reads, with
//! the built-in games named; the departures schema from the departures reader's tables; the
//! questions and vectors schemas ([`questions`], [`vectors()`]) from the kinds of question and what
//! `Question::parse` reads and `answer` writes. A test (`tests/integration/schema.rs`) checks
//! them against what the readers accept.
//!
//! The schemas check form: keys, types, enumerations, ranges. What depends on more than one value
//! (a deal larger than the pack, a seat the table has not got, an action illegal in the position)
//! is left to `push-rummy rules check` and `push-rummy replay`.
//!
//! ```
//! let rules = push_rummy::help::schema::rules();
//! assert_eq!(rules["properties"]["sets"]["properties"]["min-size"]["anyOf"][0]["minimum"], 2);
//! let json = push_rummy::base::yaml::parse("sets: {min-size: 3}").map(|n| push_rummy::help::schema::to_json(&n));
//! assert_eq!(json.unwrap()["sets"]["min-size"], 3);
//! ```

use crate::base::yaml::{Node, Value as Y};
use crate::engine::game::Reason;
use crate::rules::disputes::{DisputeId, register};
use crate::rules::spec::{self, RuleDef, Ty};
use crate::suite::scenario;
use serde_json::{Map, Value, json};

/// Where the rules schema is shipped, relative to the repository root.
pub const RULES_SCHEMA_FILE: &str = "spec/schema/rules.schema.json";
/// Where the scenario schema is shipped, relative to the repository root.
pub const SCENARIO_SCHEMA_FILE: &str = "conformance/schema/scenario.schema.json";
/// Where the register's schema is shipped, relative to the repository root.
pub const REGISTER_SCHEMA_FILE: &str = "spec/schema/disputes.schema.json";
/// Where the schema of known-departures files (`conform --departures`) is shipped.
pub const DEPARTURES_SCHEMA_FILE: &str = "conformance/schema/departures.schema.json";
/// Where the schema of single questions and their answers is shipped.
pub const QUESTIONS_SCHEMA_FILE: &str = "conformance/schema/questions.schema.json";
/// Where the schema of the test vectors (`conformance/vectors/*.json`) is shipped.
pub const VECTORS_SCHEMA_FILE: &str = "conformance/schema/vectors.schema.json";

const DRAFT: &str = "http://json-schema.org/draft-07/schema#";

/// A seat: the reader accepts 0 … 11 (at most 12 players); whether the seat is at the table is
/// checked when the scenario is read.
fn seat() -> Value {
    json!({ "type": "integer", "minimum": 0, "maximum": 11 })
}

fn int(min: i64, max: i64) -> Value {
    json!({ "type": "integer", "minimum": min, "maximum": max })
}

/// One card in the notation (`10H`, `t♥`, `jk`, `joker`; any case; `1` for an ace).
const CARD: &str = "(?:(?:[AaTtJjQqKk1-9]|10)[SsHhDdCc♠♥♦♣]|[Jj][Kk]|[Jj][Oo][Kk][Ee][Rr])";

/// Cards: text (`"9H 10S JK"`, `none`), a list (`[9H, 10S, JK]`) or nothing.
fn cards() -> Value {
    json!({
        "description": "cards: text \"9H 10S JK\" or a list [9H, 10S, JK]; `none` or [] for no card",
        "anyOf": [
            { "type": "null" },
            { "type": "string", "pattern": format!("^\\s*(?:[Nn][Oo][Nn][Ee]|[\\s,]*(?:{CARD}(?:[\\s,]+{CARD})*)?[\\s,]*)\\s*$") },
            { "type": "array", "items": { "type": "string", "pattern": format!("^\\s*{CARD}\\s*$") } }
        ]
    })
}

/// At most one card (`stock-top`, `discard-top`, `taken`).
fn one_card() -> Value {
    json!({
        "description": "one card, or `none`",
        "anyOf": [
            { "type": "null" },
            { "type": "string", "pattern": format!("^\\s*(?:[Nn][Oo][Nn][Ee]|[\\s,]*(?:{CARD})?[\\s,]*)\\s*$") },
            { "type": "array", "maxItems": 1, "items": { "type": "string", "pattern": format!("^\\s*{CARD}\\s*$") } }
        ]
    })
}

/// A map seat → value (`{0: …, 2: …}`) or a list indexed by seat.
fn per_seat(value: Value) -> Value {
    json!({
        "anyOf": [
            { "type": "object", "propertyNames": { "pattern": "^(?:[0-9]|1[01])$" }, "additionalProperties": value },
            { "type": "array", "maxItems": 12, "items": value }
        ]
    })
}

/// A meld in the action notation: `run [6H 7H JK JK=8H]`, or a YAML list of its cards.
fn meld() -> Value {
    json!({
        "description": "a meld: `[CARDS]`, `set [CARDS]` or `run [CARDS]`; a wild may be declared, JK=8H",
        "anyOf": [
            { "type": "string", "minLength": 1 },
            { "type": "array", "items": { "type": ["string", "integer", "boolean", "number"] } }
        ]
    })
}

/// A list of `{SEAT: MELD}` entries: the table, in order.
fn melds() -> Value {
    json!({
        "type": "array",
        "items": {
            "type": "object",
            "minProperties": 1,
            "maxProperties": 1,
            "propertyNames": { "pattern": "^(?:[0-9]|1[01])$" },
            "additionalProperties": meld()
        }
    })
}

fn seats() -> Value {
    json!({ "type": "array", "items": seat() })
}

/// The forms in which the reader takes `name` where it reads a scalar as text: a string, and also
/// a YAML integer or boolean that prints as `name` (`two-penalty-value: 20`).
fn scalar_forms(names: &[&str]) -> Vec<Value> {
    let mut v: Vec<Value> = names.iter().map(|n| json!(n)).collect();
    for n in names {
        if let Ok(i) = n.parse::<i64>()
            && i.to_string() == *n
        {
            v.push(json!(i));
        }
        if let Ok(b) = n.parse::<bool>() {
            v.push(json!(b));
        }
    }
    v
}

/// What the register says about a dispute, for the schema's description.
fn dispute_description(id: DisputeId) -> String {
    match register::get().disputes.iter().find(|e| e.id == id.id()) {
        Some(e) => {
            let readings: Vec<String> = e
                .readings
                .iter()
                .map(|r| format!("`{}`: {}", r.name, r.meaning))
                .collect();
            format!("{} — {} {}", e.title, e.question, readings.join(" "))
        }
        None => format!("the reading of dispute {id}"),
    }
}

/// The plain value of one rule, by its type.
fn plain(def: &RuleDef) -> Value {
    match &def.ty {
        Ty::Text if def.path == "game" => {
            json!({ "type": "string", "pattern": "^[a-z0-9-]+$" })
        }
        Ty::Text => json!({ "type": "string" }),
        Ty::Int { min, max } => int(*min, *max),
        Ty::DeckTiers => json!({
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "properties": {
                    "players": {
                        "description": "a player count, or a range \"A-B\"",
                        "anyOf": [int(2, 12), { "type": "string", "pattern": "^\\s*\\d+\\s*(?:-\\s*\\d+\\s*)?$" }]
                    },
                    "standard-decks": int(1, 16),
                    "jokers": int(0, 64)
                },
                "required": ["players", "standard-decks", "jokers"],
                "additionalProperties": false
            }
        }),
        Ty::Limit { min, max, word } => json!({ "anyOf": [int(*min, *max), { "const": word }] }),
        Ty::Bool => json!({ "type": "boolean" }),
        Ty::Choice(options) => json!({ "enum": scalar_forms(options) }),
        Ty::Reading(id) => json!({ "enum": scalar_forms(id.reading_names()) }),
        Ty::List(options) => json!({
            "type": "array",
            "items": { "enum": options },
            "uniqueItems": true
        }),
        Ty::WhenNone(choices, bans) => json!({ "anyOf": [
            { "enum": choices },
            {
                "type": "object",
                "properties": {
                    "relax": {
                        "description": "the bans lifted one after another until a card may be discarded",
                        "type": "array",
                        "items": { "enum": bans },
                        "uniqueItems": true,
                        "minItems": 1
                    }
                },
                "required": ["relax"],
                "additionalProperties": false
            }
        ] }),
        Ty::PlayerRange => {
            // Every range a ≤ b within 2 … 12, spelled out so that a reversed range fails too.
            let mut alts = Vec::new();
            for a in 2..=12 {
                for b in a..=12 {
                    alts.push(format!("{a}\\s*-\\s*{b}"));
                }
            }
            json!({ "anyOf": [
                int(2, 12),
                { "type": "string", "pattern": format!("^\\s*(?:[2-9]|1[0-2]|{})\\s*$", alts.join("|")) }
            ] })
        }
        Ty::Rounds => {
            let size = "\\+?0*(?:[2-9]|[1-9][0-9]|10[0-4])";
            // Any case, as the rules language reads a contract meld.
            let ci = |w: &str| -> String {
                w.chars()
                    .map(|c| {
                        if c.is_ascii_alphabetic() {
                            format!("[{}{}]", c.to_ascii_uppercase(), c)
                        } else {
                            c.to_string()
                        }
                    })
                    .collect()
            };
            let (set, run, of) = (ci("set"), ci("run"), ci("of"));
            // A set of one rank: a plural rank word, or rank notation with an s.
            let words: Vec<String> = crate::rules::spec::RANK_PLURALS
                .iter()
                .map(|w| ci(w))
                .collect();
            let rank = format!("(?:{}|(?:[AaTtJjQqKk2-9]|10)[Ss])", words.join("|"));
            json!({
                "type": "array",
                "minItems": 1,
                "maxItems": 20,
                "items": {
                    "type": "object",
                    "properties": {
                        "deal": { "description": "cards dealt to each player", "type": "integer", "minimum": 1, "maximum": 60 },
                        "contract": {
                            "description": "the melds the contract asks for, like [set of 3, run of 4]; a set of one rank: set of 2 aces, set of 3 7s",
                            "type": "array",
                            "minItems": 1,
                            "maxItems": 8,
                            "items": {
                                "type": "string",
                                "pattern": format!("^\\s*(?:(?:{set}|{run})\\s+{of}\\s+{size}|{set}\\s+{of}\\s+{size}\\s+{rank})\\s*$")
                            }
                        },
                        "all-at-once": {
                            "description": "true: the contract goes down only with every card in hand, which is going out without a discard (absent: false)",
                            "type": "boolean"
                        }
                    },
                    "required": ["deal", "contract"],
                    "additionalProperties": false
                }
            })
        }
    }
}

fn sources() -> Value {
    let source = json!({ "anyOf": [
        { "enum": ["000", "001", "002", "003"] },
        int(0, 3)
    ] });
    json!({
        "description": "the rule texts that say so (\"000\" … \"003\", quoted), or [\"unsourced\"]",
        "type": "array",
        "minItems": 1,
        "anyOf": [
            { "items": source, "uniqueItems": true },
            { "const": ["unsourced"] }
        ]
    })
}

/// A rule: its plain value, or (for every rule but the metadata) the cited form.
fn rule(def: &RuleDef) -> Value {
    let mut plain = plain(def);
    let description = match def.ty {
        Ty::Reading(id) => dispute_description(id),
        _ => def.doc.to_string(),
    };
    if def.ty == Ty::Text {
        plain["description"] = json!(description);
        return plain;
    }
    json!({
        "description": description,
        "anyOf": [
            plain,
            {
                "description": "the cited form",
                "type": "object",
                "properties": {
                    "value": plain,
                    "sources": { "$ref": "#/definitions/sources" },
                    "note": { "type": "string", "description": "optional, in our own words" }
                },
                "required": ["value"],
                "additionalProperties": false
            }
        ]
    })
}

/// The tree of sections and rules under `prefix`; `strict` adds what a standalone file must give.
fn section(prefix: &str, strict: bool) -> Value {
    let mut props = Map::new();
    let mut required: Vec<String> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for def in spec::rule_defs() {
        let rest = if prefix.is_empty() {
            Some(def.path.as_str())
        } else {
            def.path
                .strip_prefix(prefix)
                .and_then(|r| r.strip_prefix('.'))
        };
        let Some(rest) = rest else { continue };
        let first = rest.split('.').next().unwrap_or(rest).to_string();
        if seen.contains(&first) {
            continue;
        }
        seen.push(first.clone());
        let path = if prefix.is_empty() {
            first.clone()
        } else {
            format!("{prefix}.{first}")
        };
        let (schema, needed) = match spec::rule_def(&path) {
            Some(d) => (rule(d), d.required),
            None => {
                let needed = spec::rule_defs().iter().any(|d| {
                    d.required
                        && d.path
                            .strip_prefix(&path)
                            .is_some_and(|r| r.starts_with('.'))
                });
                (section(&path, strict), needed)
            }
        };
        if strict {
            if needed {
                required.push(first.clone());
                if spec::rule_def(&path).is_none() {
                    props.insert(first, schema);
                }
            }
        } else {
            props.insert(first, schema);
        }
    }
    let mut out = Map::new();
    if !strict {
        // `readings:` with everything commented out is an empty section.
        out.insert(
            "type".into(),
            if prefix.is_empty() {
                json!("object")
            } else {
                json!(["object", "null"])
            },
        );
        out.insert("additionalProperties".into(), json!(false));
    }
    if !props.is_empty() {
        out.insert("properties".into(), Value::Object(props));
    }
    if !required.is_empty() {
        out.insert("required".into(), json!(required));
    }
    Value::Object(out)
}

/// The schema of a rules file (`docs/RULES-FORMAT.md`), generated from the rule table.
pub fn rules() -> Value {
    let mut s = section("", false);
    let o = s.as_object_mut().expect("a section is an object");
    let mut head = Map::new();
    head.insert("$schema".into(), json!(DRAFT));
    head.insert("title".into(), json!("Push Rummy rules file (format 1)"));
    head.insert(
        "description".into(),
        json!(
            "A rule set or a house variant (docs/RULES-FORMAT.md). Generated by `push-rummy schema rules` from the rule table; `push-rummy rules check` also checks meaning."
        ),
    );
    head.extend(std::mem::take(o));
    // `game` in every file; every required rule in a file that extends nothing.
    head.insert("required".into(), json!(["game"]));
    head.insert("if".into(), json!({ "not": { "required": ["extends"] } }));
    head.insert("then".into(), section("", true));
    head.insert("definitions".into(), json!({ "sources": sources() }));
    Value::Object(head)
}

/// The rules schema as inline rules of a scenario: `game` optional (it defaults to `scenario`).
fn inline_rules() -> Value {
    let mut s = section("", false);
    s["if"] = json!({ "not": { "required": ["extends"] } });
    let mut strict = section("", true);
    if let Some(req) = strict.get_mut("required").and_then(Value::as_array_mut) {
        req.retain(|k| k != "game");
    }
    s["then"] = strict;
    s
}

fn expect() -> Value {
    let codes: Vec<&str> = Reason::ALL.iter().map(|r| r.code()).collect();
    json!({
        "description": "`ok`, `rejected` (for any reason), or `{rejected: REASON-CODE}` (`push-rummy explain CODE` says what each means)",
        "anyOf": [
            { "const": "ok" },
            { "const": "rejected" },
            {
                "type": "object",
                "properties": { "rejected": { "enum": codes } },
                "required": ["rejected"],
                "additionalProperties": false
            }
        ]
    })
}

/// One checkpoint assertion, by its key in [`scenario::CHECK_KEYS`].
fn check_value(key: &str) -> Value {
    match key {
        "round" => int(1, 20),
        "dealer" | "turn" => seat(),
        "stage" => json!({ "enum": ["draw", "play", "buy", "over"] }),
        "hand" => per_seat(cards()),
        "hand-size" => per_seat(int(0, 10_000)),
        "table" => melds(),
        "stock" => cards(),
        "stock-count" => int(0, 10_000),
        "stock-top" | "discard-top" => one_card(),
        "discard" => cards(),
        "contract-met" | "winners" => seats(),
        "totals" => json!({ "type": "array", "items": int(-1_000_000, 1_000_000) }),
        "hands-played" => int(0, 1000),
        "last-hand" => json!({
            "type": ["object", "null"],
            "properties": {
                "end": { "type": "string", "pattern": "^\\s*(?:stock-out|stalled|went-out\\s+(?:[0-9]|1[01]))\\s*$" },
                "points": { "type": "array", "items": int(-1_000_000, 1_000_000) },
                "hands": per_seat(cards())
            },
            "additionalProperties": false
        }),
        "game-over" => json!({ "type": "boolean" }),
        // A key the reader learned and the schema not: no constraint, and the agreement test fails.
        _ => json!({}),
    }
}

fn cards_section() -> Value {
    let mut props = Map::new();
    for key in scenario::CARDS_KEYS {
        let v = match key {
            "seed" => int(0, i64::MAX),
            "deck" => cards(),
            "decks" => json!({ "type": "array", "items": cards() }),
            "hands" => per_seat(cards()),
            "stock" | "discard" => cards(),
            "rest" => json!({ "enum": ["stock", "discard", "none"] }),
            "table" => melds(),
            "contract-met" => seats(),
            "turn" => seat(),
            "stage" => json!({ "enum": ["draw", "play", "buy"] }),
            "buys" => per_seat(int(0, 100)),
            "window" => seat(),
            "taken" => one_card(),
            _ => json!({}),
        };
        props.insert(key.into(), v);
    }
    let dependent: Map<String, Value> = scenario::POSITION_ONLY
        .iter()
        .map(|k| (k.to_string(), json!(["hands"])))
        .collect();
    json!({
        "description": "exactly one way of dealing: `seed`, `deck`/`decks` (pack orders, top card first) or an explicit position (`hands`, …)",
        "type": "object",
        "properties": props,
        "additionalProperties": false,
        "anyOf": [
            { "required": ["seed"] }, { "required": ["deck"] }, { "required": ["decks"] }, { "required": ["hands"] }
        ],
        "not": { "anyOf": [ { "required": ["deck", "decks"] }, { "required": ["deck", "hands"] } ] },
        "dependencies": dependent
    })
}

/// The schema of a scenario file (`conformance/README.md`).
pub fn scenario() -> Value {
    let mut named = Vec::new();
    for d in DisputeId::ALL {
        named.push(d.id().to_string());
        for r in d.reading_names() {
            named.push(format!("{}={r}", d.id()));
        }
    }
    let rule_paths: Vec<&str> = spec::rule_defs()
        .iter()
        .map(|d| d.path.as_str())
        .filter(|p| !spec::META.contains(p))
        .collect();
    let mut readings = Map::new();
    for d in DisputeId::ALL {
        readings.insert(
            d.id().into(),
            json!({ "description": dispute_description(d), "enum": scalar_forms(d.reading_names()) }),
        );
    }
    let mut checks = Map::new();
    for key in scenario::CHECK_KEYS {
        checks.insert(key.into(), check_value(key));
    }
    let mut top = Map::new();
    for key in scenario::TOP_KEYS {
        let v = match key {
            "title" => {
                json!({ "type": "string", "description": "what the scenario shows, in one line" })
            }
            "description" => {
                json!({ "type": "string", "description": "what and why, with sources" })
            }
            "rules" => json!({
                "description": "a built-in rule set (`push`, `cap-it`, …), a path to a rules file, or inline rules (`{extends: push, …}`)",
                "anyOf": [ { "type": "string", "minLength": 1 }, { "$ref": "#/definitions/inline-rules" } ]
            }),
            "readings" => json!({
                "description": "dispute id → reading, applied over the rules",
                "type": ["object", "null"],
                "properties": readings,
                "additionalProperties": false
            }),
            "table" => {
                let mut p = Map::new();
                for k in scenario::TABLE_KEYS {
                    p.insert(
                        k.into(),
                        match k {
                            "players" => int(2, 12),
                            "dealer" => seat(),
                            "round" => int(1, 20),
                            _ => json!({ "type": "array", "items": { "type": "array", "items": int(-1_000_000, 1_000_000) } }),
                        },
                    );
                }
                json!({ "type": ["object", "null"], "properties": p, "additionalProperties": false })
            }
            "cards" => cards_section(),
            "steps" => json!({
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "seat": seat(),
                        "do": { "type": "string", "minLength": 1, "description": "an action: take-discard, push, draw-stock, end-turn, discard CARD, meld [..] …, lay-off N [..] (join M), rescue N CARD for WILD (then …)" },
                        "expect": expect(),
                        "check": { "type": ["object", "null"], "properties": checks, "additionalProperties": false },
                        "why": { "description": "free text: why the step is there (any YAML value is taken, and ignored)" }
                    },
                    "additionalProperties": false,
                    "anyOf": [ { "required": ["do"] }, { "required": ["check"] } ],
                    "dependencies": { "expect": ["do"], "seat": ["do"] }
                }
            }),
            "exercises" => json!({
                "description": "what the scenario is about, for coverage",
                "type": "object",
                "minProperties": 1,
                "properties": {
                    "sources": { "type": "array", "items": { "enum": scenario::SOURCES } },
                    "rules": { "type": "array", "items": { "enum": rule_paths } },
                    "disputes": { "type": "array", "items": { "enum": named } }
                },
                "additionalProperties": false
            }),
            _ => json!({}),
        };
        top.insert(key.into(), v);
    }
    json!({
        "$schema": DRAFT,
        "title": "Push Rummy conformance scenario",
        "description": "A game set up at a chosen point, actions by seat and what must happen (conformance/README.md). Generated by `push-rummy schema scenario`; `push-rummy replay` also checks meaning.",
        "type": "object",
        "properties": top,
        "required": scenario::REQUIRED_KEYS,
        "additionalProperties": false,
        "definitions": { "inline-rules": inline_rules(), "sources": sources() }
    })
}

/// The schema of the disputes register (`spec/disputes.yaml`): its structure as
/// `rules::disputes::register` reads it. The ids and reading names themselves are the register's
/// to add (`build.rs` checks them), so they are patterns here, not lists.
pub fn register() -> Value {
    let name = json!({ "type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$" });
    let text = json!({ "type": "string", "minLength": 1 });
    let games: Vec<&str> = crate::rules::GAMES.to_vec();
    let default = json!({
        "type": "object",
        "description": "The game's default reading and why the register's rules choose it.",
        "properties": { "reading": name, "why": text },
        "required": ["reading", "why"],
        "additionalProperties": false
    });
    let defaults: Map<String, Value> = games
        .iter()
        .map(|g| ((*g).to_string(), default.clone()))
        .collect();
    let reading = json!({
        "type": "object",
        "properties": {
            "name": name,
            "meaning": text,
            "sources": {
                "type": "array",
                "description": "The sources that state the reading, paraphrased; empty for an unsourced engine or house choice.",
                "items": {
                    "type": "object",
                    "properties": {
                        "source": { "type": "string", "enum": ["000", "001", "002", "003"] },
                        "says": text
                    },
                    "required": ["source", "says"],
                    "additionalProperties": false
                }
            }
        },
        "required": ["name", "meaning", "sources"],
        "additionalProperties": false
    });
    let entry = json!({
        "type": "object",
        "properties": {
            "id": name,
            "title": text,
            "games": { "type": "array", "items": { "type": "string", "enum": games }, "minItems": 1 },
            "kind": {
                "type": "array",
                "items": { "type": "string", "enum": ["conflict", "gap", "self-contradiction", "game-difference"] },
                "minItems": 1
            },
            "question": text,
            "readings": { "type": "array", "items": reading, "minItems": 1 },
            "defaults": {
                "type": "object",
                "properties": defaults,
                "required": games,
                "additionalProperties": false
            }
        },
        "required": ["id", "title", "games", "kind", "question", "readings", "defaults"],
        "additionalProperties": false
    });
    json!({
        "$schema": DRAFT,
        "title": "Push Rummy disputes register",
        "description": "spec/disputes.yaml: every point where the sources disagree or leave a case open, with its named readings and each built-in game's default (the first reading is the register's default). Generated by `push-rummy schema register`; build.rs also checks meaning.",
        "type": "object",
        "properties": { "disputes": { "type": "array", "items": entry, "minItems": 1 } },
        "required": ["disputes"],
        "additionalProperties": false
    })
}

/// The schema of a known-departures file (`conform --departures FILE`): from the keys the reader
/// takes ([`KEYS`](crate::suite::conform::departures::KEYS)), the rule table, the disputes register, [`Reason::ALL`] and the
/// compared fields ([`field_starts`](crate::suite::conform::departures::field_starts)).
pub fn departures() -> Value {
    use crate::suite::conform::departures;
    let mut sections: Vec<String> = Vec::new();
    for d in spec::rule_defs() {
        if spec::META.contains(&d.path.as_str()) || d.path.starts_with("readings.") {
            continue;
        }
        let mut at = 0;
        while let Some(i) = d.path[at..].find('.') {
            sections.push(d.path[..at + i].to_string());
            at += i + 1;
        }
        sections.push(d.path.clone());
    }
    sections.sort();
    sections.dedup();
    let mut readings: Vec<String> = Vec::new();
    for id in DisputeId::ALL {
        readings.push(id.id().to_string());
        for r in id.reading_names() {
            readings.push(format!("{}={r}", id.id()));
        }
    }
    let codes: Vec<&str> = Reason::ALL.iter().map(|r| r.code()).collect();
    let fields = departures::field_starts().collect::<Vec<_>>().join("|");
    let mut props = Map::new();
    props.insert(
        "rule".into(),
        json!({ "description": "A rule path, or a section of them (`scoring.points` covers `scoring.points.A`): the divergence names it.", "type": "string", "enum": sections }),
    );
    props.insert(
        "reading".into(),
        json!({ "description": "A dispute reading `id=reading` the divergence names (the reference's reading), or a bare `id` for any of its readings.", "type": "string", "enum": readings }),
    );
    props.insert(
        "reason".into(),
        json!({ "description": "A reason code that either side gave for refusing the action.", "type": "string", "enum": codes }),
    );
    props.insert(
        "field".into(),
        json!({ "description": "The compared field that differs, or one above it (`events`, `state.hands`, `result`, …); under `--queries`, the kind of question and the answer's field (`meld.valid`, `score`).", "type": "string", "pattern": format!("^({fields})([.\\[].*)?$") }),
    );
    props.insert(
        "note".into(),
        json!({ "description": "Why the implementation differs here.", "type": "string", "minLength": 1, "pattern": "\\S" }),
    );
    debug_assert!(departures::KEYS.iter().all(|k| props.contains_key(*k)));
    let any_of: Vec<Value> = ["rule", "reading", "reason", "field"]
        .iter()
        .map(|k| json!({ "required": [k] }))
        .collect();
    let entry = json!({
        "type": "object",
        "properties": props,
        "required": ["note"],
        "anyOf": any_of,
        "additionalProperties": false
    });
    json!({
        "$schema": DRAFT,
        "title": "Push Rummy known departures",
        "description": "Where an implementation differs from the reference on purpose (`push-rummy conform --departures FILE`, conformance/README.md). An entry matches a divergence when everything it names holds. Generated by `push-rummy schema departures`.",
        "type": "object",
        "properties": { "departures": { "type": ["array", "null"], "items": entry } },
        "required": ["departures"],
        "additionalProperties": false
    })
}

/// One card in a JSON message: a string in the notation.
fn json_card() -> Value {
    json!({ "type": "string", "pattern": format!("^{CARD}$") })
}

/// Cards in a JSON message: a list of card strings.
fn json_cards() -> Value {
    json!({ "type": "array", "items": json_card() })
}

/// The properties of a JSON object written with `json!`.
fn object(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => unreachable!("an object"),
    }
}

/// What a question of `kind` gives besides `question` (and, as a message, `type` and `id`): its
/// properties and the required ones, as `Question::parse` reads them.
fn question_fields(kind: &str) -> (Map<String, Value>, Vec<&'static str>) {
    let round = json!({ "description": "the deal, from 1", "type": "integer", "minimum": 1 });
    let (props, required) = match kind {
        "meld" => (
            json!({ "cards": json_cards(), "kind": { "description": "ask only for a meld of this kind", "enum": ["set", "run", null] } }),
            vec!["cards"],
        ),
        "contract" => (
            json!({ "round": round, "melds": { "description": "the melds laid together, each a list of cards", "type": "array", "items": json_cards() } }),
            vec!["round", "melds"],
        ),
        "laydown" => (
            json!({ "round": round, "hand": json_cards() }),
            vec!["round", "hand"],
        ),
        "score" => (json!({ "cards": json_cards() }), vec!["cards"]),
        "lay-off" => (
            json!({
                "meld": { "description": "a table meld as in a `start` message: `run [6H 7H JK JK=8H]`", "type": "string", "minLength": 1 },
                "card": json_card()
            }),
            vec!["meld", "card"],
        ),
        // The fields of a `start` message (conformance/README.md): not described here.
        _ => (
            json!({ "position": { "description": "the position of a `start` message (stage `play`); with it the start message's other fields (`players`, `dealer`, `round`, `rules`, …)", "type": "object" } }),
            vec!["position"],
        ),
    };
    (object(props), required)
}

/// What the answer to a question of `kind` holds besides `question` (and, as a message, `type`
/// and `id`), and the required fields.
fn answer_fields(kind: &str) -> (Map<String, Value>, Vec<&'static str>) {
    let (props, required) = match kind {
        "meld" => (
            json!({
                "valid": { "type": "boolean" },
                "readings": { "description": "what the cards can be read as (`set 7`, `run H 6-8`, `run * 6-8` for a run of any suits), each once, sorted", "type": "array", "items": { "type": "string" } },
                "truncated": { "description": "the interpretations were too many to list them all", "const": true }
            }),
            vec!["valid", "readings"],
        ),
        "contract" => (json!({ "meets": { "type": "boolean" } }), vec!["meets"]),
        "laydown" => (
            json!({
                "possible": { "type": "boolean" },
                "melds": { "description": "where it is possible, one laydown (another may be as good)", "type": "array", "items": json_cards() }
            }),
            vec!["possible"],
        ),
        "score" => (
            json!({ "points": { "type": "integer", "minimum": 0 } }),
            vec!["points"],
        ),
        "lay-off" => (json!({ "fits": { "type": "boolean" } }), vec!["fits"]),
        _ => (
            json!({ "cards": { "description": "the cards the seat to play may discard, a set in canonical order", "type": "array", "items": json_card() } }),
            vec!["cards"],
        ),
    };
    (object(props), required)
}

/// One variant per kind of question: the message (`type`, `id`) or a vector's `input`.
fn question_variants(message: bool) -> Vec<Value> {
    crate::suite::query::KINDS
        .iter()
        .map(|&kind| {
            let (mut props, mut required) = question_fields(kind);
            props.insert("question".into(), json!({ "const": kind }));
            required.insert(0, "question");
            if message {
                props.insert("type".into(), json!({ "const": "query" }));
                props.insert(
                    "id".into(),
                    json!({ "description": "any value: the answer repeats it" }),
                );
                required.insert(0, "type");
            }
            json!({ "type": "object", "properties": props, "required": required, "additionalProperties": kind == "discards" })
        })
        .collect()
}

/// One variant per kind of answer: the message (`type`, `question`, `id`) or a vector's
/// `expected` (neither).
fn answer_variants(message: bool) -> Vec<Value> {
    crate::suite::query::KINDS
        .iter()
        .map(|&kind| {
            let (mut props, mut required) = answer_fields(kind);
            if message {
                props.insert("type".into(), json!({ "const": "answer" }));
                props.insert("question".into(), json!({ "const": kind }));
                props.insert("id".into(), json!({ "description": "the question's `id`" }));
                required.splice(0..0, ["type", "question"]);
            }
            json!({ "type": "object", "properties": props, "required": required, "additionalProperties": false })
        })
        .collect()
}

/// The schema of single questions (conformance/README.md, *Questions*): the `rules` message and
/// its `ok`, each kind of `query` and its `answer`, and the `error` and `unsupported` replies;
/// from the kinds of question ([`crate::suite::query::KINDS`]) and what each reads and answers.
pub fn questions() -> Value {
    let any: Vec<Value> = ["rules", "ok", "query", "answer", "error", "unsupported"]
        .iter()
        .map(|d| json!({ "$ref": format!("#/definitions/{d}") }))
        .collect();
    json!({
        "$schema": DRAFT,
        "title": "Push Rummy single questions",
        "description": "The messages of single questions (conformance/README.md, Questions): `rules` and its reply `ok`, `query` and its reply `answer` (one form per kind of question), and the replies `error` and `unsupported`. Generated by `push-rummy schema questions`.",
        "definitions": {
            "rules": {
                "type": "object",
                "properties": {
                    "type": { "const": "rules" },
                    "rules": { "description": "a built-in rule set's name (`push`) or a `start` message's `rules` object", "type": ["string", "object"] }
                },
                "required": ["type", "rules"],
                "additionalProperties": false
            },
            "ok": {
                "type": "object",
                "properties": { "type": { "const": "ok" } },
                "required": ["type"],
                "additionalProperties": false
            },
            "query": { "oneOf": question_variants(true) },
            "answer": { "oneOf": answer_variants(true) },
            "error": {
                "type": "object",
                "properties": { "type": { "const": "error" }, "message": { "type": "string" }, "id": {} },
                "required": ["type", "message"]
            },
            "unsupported": {
                "type": "object",
                "properties": { "type": { "const": "unsupported" }, "reason": { "type": "string" }, "id": {} },
                "required": ["type"]
            }
        },
        "oneOf": any
    })
}

/// The schema of a test-vector file (`conformance/vectors/KIND.json`, written by `push-rummy
/// vectors`): its header, and cases whose `input` is a question without `type` and whose
/// `expected` an answer without `type` and `question`.
pub fn vectors() -> Value {
    use crate::suite::query::vectors::VECTOR_KINDS;
    let readings: Map<String, Value> = DisputeId::ALL
        .iter()
        .map(|id| (id.id().to_string(), json!({ "enum": id.reading_names() })))
        .collect();
    json!({
        "$schema": DRAFT,
        "title": "Push Rummy test vectors",
        "description": "A file of conformance/vectors/: the reference's answers to single questions of one kind, under several rule sets and readings (conformance/README.md, Test vectors). Generated by `push-rummy schema vectors`.",
        "type": "object",
        "properties": {
            "$schema": { "type": "string" },
            "description": { "type": "string" },
            "generated_by": { "type": "string" },
            "question": { "enum": VECTOR_KINDS },
            "compare": { "description": "the fields of `expected` to compare", "type": "array", "items": { "type": "string" }, "minItems": 1 },
            "rule_sets": {
                "description": "the rule sets the cases name, each as the protocol sends it (`values`: every rule resolved, as text)",
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "properties": {
                        "fingerprint": { "type": "string" },
                        "game": { "type": "string" },
                        "name": { "type": "string" },
                        "values": { "type": "object", "additionalProperties": { "type": "string" } }
                    },
                    "required": ["fingerprint", "game", "name", "values"]
                }
            },
            "cases": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "description": { "type": "string" },
                        "rules": { "description": "a key of `rule_sets`", "type": "string" },
                        "readings": { "description": "dispute readings applied over the rules", "type": "object", "properties": readings, "additionalProperties": false },
                        "input": { "oneOf": question_variants(false) },
                        "expected": { "oneOf": answer_variants(false) }
                    },
                    "required": ["description", "rules", "readings", "input", "expected"],
                    "additionalProperties": false
                }
            }
        },
        "required": ["question", "compare", "rule_sets", "cases"],
        "additionalProperties": false
    })
}

/// A schema as shipped: pretty JSON with a final newline.
pub fn text(schema: &Value) -> String {
    let mut s = serde_json::to_string_pretty(schema).unwrap_or_default();
    s.push('\n');
    s
}

/// A YAML tree as the readers see it, as JSON, for validating against a schema: keys as text
/// (`0:` is the key `"0"`), `003` a string (leading zeros stay text), `yes` a string (only `true`
/// and `false` are booleans).
pub fn to_json(node: &Node) -> Value {
    match &node.value {
        Y::Null => Value::Null,
        Y::Bool(b) => json!(b),
        Y::Int(i) => json!(i),
        Y::Float(f) => json!(f),
        Y::Str(s) => json!(s),
        Y::Seq(items) => Value::Array(items.iter().map(to_json).collect()),
        Y::Map(entries) => Value::Object(
            entries
                .iter()
                .map(|(k, v)| (k.scalar_text().unwrap_or_default(), to_json(v)))
                .collect(),
        ),
    }
}

/// The `yaml-language-server` line that points a YAML file at its schema: `$schema=` and the
/// schema's path relative to the file's folder.
pub fn modeline(relative_path: &str) -> String {
    format!("# yaml-language-server: $schema={relative_path}")
}
