//! The JSON Schemas (`push-rummy schema rules|scenario`): the shipped copies are current, every
//! shipped YAML file names its schema and validates against it, the schemas reject the structural
//! part of the broken corpus, and they agree with the readers they describe.
//!
//! Validation uses the `jsonschema` crate, an implementation independent of the code that
//! generates the schemas. A YAML file is turned into JSON the way the readers see it
//! (`schema::to_json` over `yaml::parse`).

use push_rummy::base::yaml;
use push_rummy::help::schema;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::draft7::new(schema).expect("the generated schema is a valid draft-7 schema")
}

/// The schema's complaints about `doc`, one line each (empty: valid).
fn problems(v: &jsonschema::Validator, doc: &Value) -> Vec<String> {
    v.iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

fn yaml_files(dir: &Path, recursive: bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            if recursive {
                out.extend(yaml_files(&p, true));
            }
        } else if p.extension().is_some_and(|e| e == "yaml") {
            out.push(p);
        }
    }
    out
}

/// Every shipped rules file (the built-in games and the house presets; not the register).
fn shipped_rules_files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = yaml_files(&Path::new(ROOT).join("spec"), false)
        .into_iter()
        .filter(|p| p.file_name().unwrap() != "disputes.yaml")
        .collect();
    v.extend(yaml_files(&Path::new(ROOT).join("spec/house"), false));
    v
}

fn shipped_scenarios() -> Vec<PathBuf> {
    yaml_files(&Path::new(ROOT).join("conformance"), true)
}

fn as_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    let node = yaml::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    schema::to_json(&node)
}

#[test]
fn the_shipped_schemas_are_the_generated_ones() {
    for (file, generated, kind) in [
        (schema::RULES_SCHEMA_FILE, schema::rules(), "rules"),
        (schema::SCENARIO_SCHEMA_FILE, schema::scenario(), "scenario"),
        (schema::REGISTER_SCHEMA_FILE, schema::register(), "register"),
        (
            schema::DEPARTURES_SCHEMA_FILE,
            schema::departures(),
            "departures",
        ),
        (
            schema::QUESTIONS_SCHEMA_FILE,
            schema::questions(),
            "questions",
        ),
        (schema::VECTORS_SCHEMA_FILE, schema::vectors(), "vectors"),
    ] {
        let shipped = std::fs::read_to_string(Path::new(ROOT).join(file))
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(
            shipped == schema::text(&generated),
            "{file} is stale: regenerate it with `cargo run -- schema {kind} > {file}`"
        );
    }
}

/// The `yaml-language-server` line of a file points at the right schema, relative to the file.
fn assert_modeline(path: &Path, schema_file: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    let first = text.lines().next().unwrap_or("");
    let rel = first
        .strip_prefix("# yaml-language-server: $schema=")
        .unwrap_or_else(|| {
            panic!(
                "{}: the first line must be `# yaml-language-server: $schema=…`, found {first:?}",
                path.display()
            )
        });
    let target = path.parent().unwrap().join(rel);
    let want = Path::new(ROOT).join(schema_file);
    assert_eq!(
        std::fs::canonicalize(&target).ok(),
        std::fs::canonicalize(&want).ok(),
        "{}: $schema={rel} does not lead to {schema_file}",
        path.display()
    );
}

#[test]
fn every_vector_file_names_and_meets_the_vectors_schema() {
    let v = validator(&schema::vectors());
    let dir = Path::new(ROOT).join("conformance/vectors");
    let mut n = 0;
    for kind in push_rummy::suite::query::vectors::VECTOR_KINDS {
        let f = dir.join(format!("{kind}.json"));
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let want = Path::new(ROOT).join(schema::VECTORS_SCHEMA_FILE);
        let named = f.parent().unwrap().join(doc["$schema"].as_str().unwrap());
        assert_eq!(
            std::fs::canonicalize(named).ok(),
            std::fs::canonicalize(want).ok(),
            "{}: `$schema` does not lead to the vectors schema",
            f.display()
        );
        let p = problems(&v, &doc);
        assert!(
            p.is_empty(),
            "{}:\n{}",
            f.display(),
            p[..p.len().min(5)].join("\n")
        );
        n += 1;
    }
    assert_eq!(n, 5);
}

#[test]
fn the_questions_schema_takes_what_the_reference_reads_and_answers_and_refuses_what_it_refuses() {
    use push_rummy::suite::query::{Question, answer, generate};
    let v = validator(&schema::questions());
    let ok = |doc: &Value| {
        let p = problems(&v, doc);
        assert!(p.is_empty(), "{doc}:\n{}", p.join("\n"));
    };
    ok(&json!({"type": "rules", "rules": "push"}));
    ok(&json!({"type": "ok"}));
    ok(&json!({"type": "unsupported", "reason": "no questions"}));
    for game in ["push", "cap-it", "six-to-ten"] {
        let loaded = push_rummy::rules::load(game, &[]).unwrap();
        let players = push_rummy::suite::bench::seats(&loaded.rules);
        for (i, q) in generate::questions(&loaded, players, 400, 5, &[])
            .iter()
            .enumerate()
        {
            let mut msg = q.to_json();
            msg["id"] = json!(i);
            ok(&msg);
            assert_eq!(Question::parse(&msg).as_ref(), Ok(q));
            match answer(&loaded, q) {
                Ok(mut a) => {
                    a["id"] = json!(i);
                    ok(&a);
                }
                Err(e) => ok(&json!({"type": "error", "message": e, "id": i})),
            }
        }
    }
    // What the reader refuses, the schema refuses too.
    for bad in [
        json!({"type": "query", "question": "melds", "cards": ["7H"]}),
        json!({"type": "query", "question": "meld"}),
        json!({"type": "query", "question": "meld", "cards": ["7H", "1Z"]}),
        json!({"type": "query", "question": "meld", "cards": ["7H"], "kind": "group"}),
        json!({"type": "query", "question": "contract", "round": 0, "melds": []}),
        json!({"type": "query", "question": "laydown", "round": 1}),
        json!({"type": "query", "question": "lay-off", "meld": "run [6H 7H 8H]"}),
        json!({"type": "query", "question": "discards", "players": 4}),
    ] {
        assert!(Question::parse(&bad).is_err(), "the reader takes {bad}");
        assert!(!problems(&v, &bad).is_empty(), "the schema takes {bad}");
    }
}

#[test]
fn every_shipped_rules_file_names_and_meets_the_rules_schema() {
    let v = validator(&schema::rules());
    let files = shipped_rules_files();
    assert!(files.len() >= 8, "{files:?}");
    for f in &files {
        assert_modeline(f, schema::RULES_SCHEMA_FILE);
        let p = problems(&v, &as_json(f));
        assert!(p.is_empty(), "{}:\n{}", f.display(), p.join("\n"));
    }
}

#[test]
fn the_register_names_and_meets_its_schema() {
    let v = validator(&schema::register());
    let f = Path::new(ROOT).join("spec/disputes.yaml");
    assert_modeline(&f, schema::REGISTER_SCHEMA_FILE);
    let doc = as_json(&f);
    let p = problems(&v, &doc);
    assert!(p.is_empty(), "{}:\n{}", f.display(), p.join("\n"));
    // The schema refuses what the register's reader refuses: an unknown key, a missing default,
    // a source that is not one of the four.
    let mut typo = doc.clone();
    typo["disputes"][0]["titel"] = json!("x");
    assert!(!problems(&v, &typo).is_empty());
    let mut no_default = doc.clone();
    no_default["disputes"][0]["defaults"]
        .as_object_mut()
        .unwrap()
        .remove("push");
    assert!(!problems(&v, &no_default).is_empty());
    let mut bad_source = doc;
    bad_source["disputes"][0]["readings"][0]["sources"][0]["source"] = json!("004");
    assert!(!problems(&v, &bad_source).is_empty());
}

/// The example departures file names its schema and meets it; the schema and the reader
/// (`conform --departures`) agree on entries that are right and entries that are wrong.
#[test]
fn the_departures_schema_and_reader_agree() {
    use push_rummy::suite::conform::departures;
    let v = validator(&schema::departures());
    let example = Path::new(ROOT).join("examples/mini_engine.departures.yaml");
    assert_modeline(&example, schema::DEPARTURES_SCHEMA_FILE);
    assert!(problems(&v, &as_json(&example)).is_empty());
    let text = std::fs::read_to_string(&example).unwrap();
    assert_eq!(departures::parse("x", &text).unwrap().entries.len(), 3);
    let entries = [
        ("rule: runs.wrap-around", true),
        ("rule: scoring.points", true),
        ("rule: pusher-draws", false),
        ("reading: pusher-draws", true),
        ("reading: pusher-draws=no", true),
        ("reading: pusher-draws=maybe", false),
        ("reason: invalid-meld", true),
        ("reason: invalid-melds", false),
        ("field: state.hands", true),
        ("field: events[1]", true),
        ("field: hands", false),
        ("rule: runs.wrap-around, reason: invalid-meld", true),
        ("rule: runs.wrap-around, colour: red", false),
    ];
    for (entry, ok) in entries {
        for note in ["note: why", ""] {
            let lines: Vec<&str> = entry.split(", ").chain([note]).collect();
            let text = format!("departures:\n  - {}\n", lines.join("\n    "));
            let doc = schema::to_json(&yaml::parse(&text).unwrap());
            let by_schema = problems(&v, &doc).is_empty();
            let by_reader = departures::parse("x", &text).is_ok();
            assert_eq!(by_schema, ok && !note.is_empty(), "schema: {text}");
            assert_eq!(by_reader, ok && !note.is_empty(), "reader: {text}");
        }
    }
    let nothing = "departures:\n  - {note: why}\n";
    assert!(!problems(&v, &schema::to_json(&yaml::parse(nothing).unwrap())).is_empty());
    assert!(departures::parse("x", nothing).is_err());
}

#[test]
fn every_shipped_scenario_names_and_meets_the_scenario_schema() {
    let v = validator(&schema::scenario());
    let files = shipped_scenarios();
    assert!(files.len() >= 200, "{}", files.len());
    for f in &files {
        assert_modeline(f, schema::SCENARIO_SCHEMA_FILE);
        let p = problems(&v, &as_json(f));
        assert!(p.is_empty(), "{}:\n{}", f.display(), p.join("\n"));
    }
}

/// Broken rules files that are well-formed YAML of the right shape, every value of the right type
/// and in its range: the schema accepts them and only `rules check` refuses them, for what they
/// mean together (the pack, the contracts, the player counts) or for what they `extends`.
const SEMANTIC: [&str; 24] = [
    "contract-meld-below-minimum.yaml",
    "contract-run-too-long.yaml",
    "contract-set-above-max-size.yaml",
    "cycle-a.yaml",
    "cycle-b.yaml",
    "deal-bigger-than-pack.yaml",
    "decks-by-players-overlap.yaml",
    "decks-by-players-outside.yaml",
    "discard-bans-impossible.yaml",
    "extends-missing-file.yaml",
    "extends-unknown-built-in.yaml",
    "large-table-without-cards.yaml",
    "players-too-many-for-deals.yaml",
    "rebuilds-without-reshuffle.yaml",
    "run-min-length-above-contract.yaml",
    "wilds-min-naturals-beyond-every-set.yaml",
    "contract-pooled-piecemeal.yaml",
    "sides-partnerships-odd-in-range.yaml",
    "sides-partnerships-three-players.yaml",
    "all-at-once-discard-only.yaml",
    "all-at-once-not-on-contract-turn.yaml",
    "contract-set-of-twos-never-natural.yaml",
    "contract-set-of-one-rank-pooled.yaml",
    "contract-sets-of-one-rank-same-rank-forbidden.yaml",
];

/// Broken files that are not YAML a schema can look at (syntax, encoding, duplicate keys).
const UNREADABLE: [&str; 6] = [
    "duplicate-key.yaml",
    "not-utf8.yaml",
    "tab-indented.yaml",
    "two-yaml-documents.yaml",
    "yaml-bad-indentation.yaml",
    "yaml-unclosed-bracket.yaml",
];

#[test]
fn the_schema_rejects_the_structural_breakage_and_only_rules_check_sees_the_rest() {
    let v = validator(&schema::rules());
    let dir = Path::new(ROOT).join("tests/rules-broken");
    let (mut accepted, mut unreadable, mut rejected) =
        (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    for f in yaml_files(&dir, false) {
        let name = f.file_name().unwrap().to_str().unwrap().to_string();
        // Every file of the corpus is refused by the reader itself.
        assert!(
            push_rummy::rules::load(f.to_str().unwrap(), &[]).is_err(),
            "{name} loads"
        );
        let text = std::fs::read(&f).unwrap();
        let parsed = String::from_utf8(text)
            .ok()
            .and_then(|t| yaml::parse(&t).ok());
        match parsed {
            None => {
                unreadable.insert(name);
            }
            Some(node) => {
                if problems(&v, &schema::to_json(&node)).is_empty() {
                    accepted.insert(name);
                } else {
                    rejected.insert(name);
                }
            }
        }
    }
    let want = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
    assert_eq!(
        accepted,
        want(&SEMANTIC),
        "files the schema accepts (semantic breakage)"
    );
    assert_eq!(unreadable, want(&UNREADABLE), "files that are not YAML");
    assert!(rejected.len() >= 30, "{rejected:?}");
    // Among them, the three kinds of structural breakage.
    for kind in [
        "unknown-key-typo.yaml",
        "string-instead-of-integer.yaml",
        "unknown-choice-value.yaml",
        "unknown-reading-typo.yaml",
        "players-range-reversed.yaml",
        "players-one.yaml",
        "sourced-and-unsourced.yaml",
    ] {
        assert!(rejected.contains(kind), "{kind} passes the schema");
    }
}

// ---------------------------------------------------------------------------------------------
// The rules schema agrees with the rules reader (spec::decode) value by value.

/// `{extends: push, game: g}` with `value` put at the dotted `path`.
fn rules_doc(path: &str, value: &Value) -> Value {
    let mut doc = json!({ "extends": "push", "game": "g" });
    let parts: Vec<&str> = path.split('.').collect();
    let mut at = &mut doc;
    for p in &parts[..parts.len() - 1] {
        at = at
            .as_object_mut()
            .unwrap()
            .entry(p.to_string())
            .or_insert_with(|| json!({}));
    }
    at[parts[parts.len() - 1]] = value.clone();
    doc
}

fn candidates() -> Vec<Value> {
    let mut v = vec![
        json!(null),
        json!(0),
        json!(1),
        json!(2),
        json!(3),
        json!(12),
        json!(13),
        json!(60),
        json!(-1),
        json!(100_000),
        json!(true),
        json!(false),
        json!("3"),
        json!("3-6"),
        json!("6-3"),
        json!(" 2 - 12 "),
        json!("1-4"),
        json!("left"),
        json!("allowed"),
        json!("reshuffle-discards"),
        json!("abc"),
        json!("Abc"),
        json!("club-marathon"),
        json!(""),
        json!([]),
        json!({}),
        json!([{ "deal": 7, "contract": ["set of 3", "Run Of 4"] }]),
        json!([{ "deal": 7, "contract": ["set of 1"] }]),
        json!([{ "deal": 7 }]),
        json!([{ "deal": 0, "contract": ["set of 3"] }]),
        json!([{ "deal": 7, "contract": "set of 3" }]),
        json!([{ "deal": 7, "contract": ["set of 3"], "bonus": 1 }]),
        json!({ "value": 3, "sources": ["001", "003"] }),
        json!({ "value": 3, "sources": [0, 3] }),
        json!({ "value": 3, "sources": ["unsourced"] }),
        json!({ "value": 3, "sources": ["unsourced", "001"] }),
        json!({ "value": 3, "sources": ["001", "001"] }),
        json!({ "value": 3, "sources": [] }),
        json!({ "value": 3, "sources": ["004"] }),
        json!({ "value": 3, "note": "why" }),
        json!({ "value": 3, "note": 4 }),
        json!({ "value": 3, "cite": "x" }),
        json!({ "sources": ["001"] }),
        json!({ "value": true, "sources": ["002"] }),
        json!({ "value": "left" }),
        json!({ "min-size": 3 }),
        json!({ "bogus": 1 }),
    ];
    for d in push_rummy::rules::disputes::DisputeId::ALL {
        for r in d.reading_names() {
            v.push(json!(r));
        }
    }
    v.push(json!(20));
    v.push(json!(15));
    v
}

#[test]
fn the_rules_schema_accepts_exactly_what_the_rules_reader_reads() {
    let v = validator(&schema::rules());
    // Every rule path and every section above one.
    let mut paths: BTreeSet<String> = BTreeSet::new();
    for d in push_rummy::rules::spec::rule_defs() {
        let parts: Vec<&str> = d.path.split('.').collect();
        for i in 1..=parts.len() {
            paths.insert(parts[..i].join("."));
        }
    }
    paths.insert("bogus".into());
    paths.insert("sets.bogus".into());
    let cands = candidates();
    let mut compared = 0;
    let mut disagreements = Vec::new();
    for path in &paths {
        for c in &cands {
            let doc = rules_doc(path, c);
            let text = serde_json::to_string(&doc).unwrap();
            let node = yaml::parse(&text).unwrap();
            let mut diags = Vec::new();
            push_rummy::rules::spec::decode("t.yaml", &node, &mut diags);
            let reader_ok = diags.is_empty();
            let schema_ok = problems(&v, &schema::to_json(&node)).is_empty();
            compared += 1;
            if reader_ok != schema_ok {
                disagreements.push(format!(
                    "{path} = {c}: reader {}, schema {}{}",
                    if reader_ok { "accepts" } else { "refuses" },
                    if schema_ok { "accepts" } else { "refuses" },
                    diags
                        .first()
                        .map(|d| format!(" ({})", d.message))
                        .unwrap_or_default()
                ));
            }
        }
    }
    assert!(compared > 5000, "{compared}");
    assert!(
        disagreements.is_empty(),
        "{} disagreement(s):\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}

#[test]
fn a_standalone_rules_file_must_give_every_rule_and_a_house_file_only_its_game() {
    let v = validator(&schema::rules());
    // `rules show` prints a complete rule set: valid standalone.
    let push = push_rummy::rules::load("push", &[]).unwrap();
    let shown = push.show();
    let full = schema::to_json(&yaml::parse(&shown).unwrap());
    assert!(problems(&v, &full).is_empty(), "{:?}", problems(&v, &full));
    // Without one required rule, it is not.
    let mut missing = full.clone();
    missing["sets"].as_object_mut().unwrap().remove("min-size");
    assert!(!problems(&v, &missing).is_empty());
    // A house file needs `game` and nothing else.
    assert!(problems(&v, &json!({ "extends": "push", "game": "g" })).is_empty());
    assert!(!problems(&v, &json!({ "extends": "push" })).is_empty());
}

// ---------------------------------------------------------------------------------------------
// The scenario schema agrees with the scenario reader.

/// The keys the reader accepts in the map at `yaml` (which holds an unknown key `zzzzzzzzzz`), from
/// its "expected one of" hint.
fn reader_keys(yaml_text: &str) -> BTreeSet<String> {
    let err = push_rummy::suite::scenario::load_text("t.yaml", yaml_text, Path::new(ROOT), &[])
        .expect_err("an unknown key is refused");
    let d = err
        .diagnostics
        .0
        .iter()
        .find(|d| d.path.ends_with("zzzzzzzzzz"))
        .unwrap_or_else(|| panic!("no diagnostic for the unknown key: {}", err.diagnostics));
    let hint = d.hint.as_deref().unwrap();
    let list = hint
        .strip_prefix("expected one of: ")
        .unwrap_or_else(|| panic!("{hint}"));
    list.split(", ").map(str::to_string).collect()
}

fn schema_keys(s: &Value) -> BTreeSet<String> {
    s["properties"]
        .as_object()
        .unwrap_or_else(|| panic!("no properties in {s}"))
        .keys()
        .cloned()
        .collect()
}

const BASE: &str = "title: t\nrules: push\ntable: {players: 4}\ncards: {seed: 1}\nexercises: {sources: [\"000\"]}\n";

#[test]
fn the_scenario_schema_has_the_keys_the_reader_accepts_at_every_level() {
    let s = schema::scenario();
    let step = &s["properties"]["steps"]["items"];
    let check = &step["properties"]["check"];
    let cases: Vec<(String, &Value)> = vec![
        (
            format!("{BASE}steps: []\nzzzzzzzzzz: 1\n"),
            &s,
        ),
        (
            "title: t\nrules: push\ntable: {players: 4, zzzzzzzzzz: 1}\ncards: {seed: 1}\nsteps: []\nexercises: {sources: [\"000\"]}\n".into(),
            &s["properties"]["table"],
        ),
        (
            "title: t\nrules: push\ncards: {seed: 1, zzzzzzzzzz: 1}\nsteps: []\nexercises: {sources: [\"000\"]}\n".into(),
            &s["properties"]["cards"],
        ),
        (
            "title: t\nrules: push\ncards: {seed: 1}\nsteps: []\nexercises: {sources: [\"000\"], zzzzzzzzzz: 1}\n".into(),
            &s["properties"]["exercises"],
        ),
        (format!("{BASE}steps: [{{do: push, zzzzzzzzzz: 1}}]\n"), step),
        (format!("{BASE}steps: [{{check: {{zzzzzzzzzz: 1}}}}]\n"), check),
        (
            format!("{BASE}steps: [{{check: {{last-hand: {{zzzzzzzzzz: 1}}}}}}]\n"),
            &check["properties"]["last-hand"],
        ),
    ];
    for (text, at) in cases {
        assert_eq!(reader_keys(&text), schema_keys(at), "in\n{text}");
    }
    // And the required keys: the reader names each one missing.
    let required: BTreeSet<String> = s["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap().to_string())
        .collect();
    let err =
        push_rummy::suite::scenario::load_text("t.yaml", "description: d\n", Path::new(ROOT), &[])
            .err()
            .unwrap();
    let missing: BTreeSet<String> = err
        .diagnostics
        .0
        .iter()
        .filter_map(|d| {
            d.message
                .strip_prefix("the scenario has no `")
                .map(|m| m.trim_end_matches('`').to_string())
        })
        .collect();
    assert_eq!(missing, required);
}

/// `doc` as YAML flow text, with the seat keys unquoted (`{1: …}`): the reader wants a seat to be
/// a YAML integer, which JSON object keys (and so the schema) cannot tell from text.
fn yaml_text(doc: &Value) -> String {
    let json = serde_json::to_string(doc).unwrap();
    let mut out = String::new();
    let mut rest = json.as_str();
    while let Some(i) = rest.find('"') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let digits = after.chars().take_while(char::is_ascii_digit).count();
        if digits > 0 && after[digits..].starts_with("\":") {
            out.push_str(&after[..digits]);
            out.push_str(": ");
            rest = &after[digits + 2..];
        } else {
            // Copy the whole string literal.
            let mut end = 0;
            let bytes = after.as_bytes();
            while end < bytes.len() && bytes[end] != b'"' {
                end += if bytes[end] == b'\\' { 2 } else { 1 };
            }
            out.push('"');
            out.push_str(&after[..=end]);
            rest = &after[end + 1..];
        }
    }
    out.push_str(rest);
    out
}

/// A valid scenario with one value replaced (JSON pointer into the scenario).
fn scenario_with(pointer: &str, value: Value) -> Value {
    let mut doc = json!({
        "title": "t",
        "rules": "push",
        "table": { "players": 4, "dealer": 0, "round": 1, "scores": [[0, 40]] },
        "cards": { "hands": { "1": "9D 4C 4S" }, "discard": "8H", "stock": "5S", "rest": "stock", "turn": 1, "stage": "draw" },
        "steps": [
            { "seat": 1, "do": "take-discard", "expect": "ok", "check": { "hand": { "1": "9D 4C 4S 8H" }, "stage": "play", "hand-size": { "1": 4 }, "game-over": false, "last-hand": {}, "totals": [0, 40] } },
            { "do": "discard 9D", "why": "w" }
        ],
        "exercises": { "sources": ["000"], "rules": ["push.to"], "disputes": ["pusher-draws=yes"] }
    });
    *doc.pointer_mut(pointer)
        .unwrap_or_else(|| panic!("no {pointer}")) = value;
    doc
}

#[test]
fn the_scenario_schema_and_the_reader_agree_on_types_and_names() {
    let v = validator(&schema::scenario());
    let cases: Vec<(&str, Value)> = vec![
        ("/title", json!("other")),
        ("/title", json!(3)),
        ("/title", json!(["t"])),
        ("/rules", json!("source-003")),
        (
            "/rules",
            json!({ "extends": "push", "push": { "to": "right" } }),
        ),
        (
            "/rules",
            json!({ "extends": "push", "push": { "to": "up" } }),
        ),
        (
            "/rules",
            json!({ "extends": "push", "sets": { "min-sise": 3 } }),
        ),
        ("/rules", json!(3)),
        ("/table/dealer", json!(3)),
        ("/table/players", json!("4")),
        ("/table/players", json!(13)),
        ("/table/round", json!(0)),
        ("/table/scores", json!([[0, "x"]])),
        ("/table/scores", json!(5)),
        ("/cards/stage", json!("play")),
        ("/cards/stage", json!("over")),
        ("/cards/rest", json!("discard")),
        ("/cards/rest", json!("hand")),
        ("/cards/discard", json!("8H, 5S")),
        ("/cards/discard", json!(["8H"])),
        ("/cards/discard", json!("8X")),
        ("/cards/discard", json!({ "top": "8H" })),
        ("/cards/turn", json!("1")),
        ("/steps/0/expect", json!({ "rejected": "not-your-turn" })),
        ("/steps/0/expect", json!({ "rejected": "not-your-go" })),
        ("/steps/0/expect", json!("fine")),
        ("/steps/0/expect", json!({ "refused": "not-your-turn" })),
        ("/steps/0/do", json!(["take-discard"])),
        ("/steps/0/seat", json!("one")),
        ("/steps/0/check/stage", json!("over")),
        ("/steps/0/check/stage", json!("done")),
        ("/steps/0/check/game-over", json!("no")),
        ("/steps/0/check/hand-size/1", json!("four")),
        ("/steps/0/check/totals", json!([0, "x"])),
        ("/steps/0/check/last-hand", json!({ "end": "went-out 2" })),
        ("/steps/0/check/last-hand", json!({ "end": "finished" })),
        ("/steps/0/check/last-hand", json!({ "points": "3" })),
        ("/steps/1/why", json!(3)),
        ("/exercises/sources", json!(["004"])),
        ("/exercises/sources", json!("000")),
        ("/exercises/rules", json!(["sets.min-sise"])),
        ("/exercises/rules", json!(["game"])),
        ("/exercises/disputes", json!(["frozen-two"])),
        ("/exercises/disputes", json!(["frozen-two=melted"])),
        ("/exercises/disputes", json!(["frozen-tw"])),
        ("/exercises", json!({})),
    ];
    let mut disagreements = Vec::new();
    for (pointer, value) in &cases {
        let doc = scenario_with(pointer, value.clone());
        let text = yaml_text(&doc);
        let reader = push_rummy::suite::scenario::load_text("t.yaml", &text, Path::new(ROOT), &[]);
        let schema_ok = problems(&v, &doc).is_empty();
        if reader.is_ok() != schema_ok {
            disagreements.push(format!(
                "{pointer} = {value}: reader {}, schema {}",
                match &reader {
                    Ok(_) => "accepts".to_string(),
                    Err(e) => format!("refuses ({})", e.diagnostics),
                },
                if schema_ok { "accepts" } else { "refuses" }
            ));
        }
    }
    // The base scenario itself is valid for both.
    let base = scenario_with("/title", json!("t"));
    assert!(problems(&v, &base).is_empty());
    push_rummy::suite::scenario::load_text("t.yaml", &yaml_text(&base), Path::new(ROOT), &[])
        .unwrap_or_else(|e| panic!("{}", e.diagnostics));
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}
