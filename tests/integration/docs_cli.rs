//! The parts of the command line that serve people: `explain`, `completions`, `man`, `schema`,
//! colour and suit symbols (`--color`, `NO_COLOR`, pipes), the table view of `play`, and
//! diagnostics as data under `--json`.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_push-rummy");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run_env(args: &[&str], env: &[(&str, &str)]) -> Out {
    let mut c = Command::new(BIN);
    c.args(args)
        .current_dir(ROOT)
        .stdin(Stdio::null())
        .env_remove("NO_COLOR");
    for (k, v) in env {
        c.env(k, v);
    }
    let o = c.output().unwrap();
    let out = Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8(o.stdout).unwrap(),
        stderr: String::from_utf8(o.stderr).unwrap(),
    };
    assert!(!out.stderr.contains("panicked"), "{args:?}: {}", out.stderr);
    out
}

fn run(code: i32, args: &[&str]) -> Out {
    let o = run_env(args, &[]);
    assert_eq!(
        o.code, code,
        "{args:?}\n--- stdout\n{}--- stderr\n{}",
        o.stdout, o.stderr
    );
    o
}

fn json(o: &Out) -> Value {
    serde_json::from_str(&o.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", o.stdout))
}

/// The subcommands `--help` lists (but `help`).
fn subcommands() -> Vec<String> {
    let help = run(0, &["--help"]).stdout;
    let block = help.split("Commands:").nth(1).unwrap();
    let block = block.split("Options:").next().unwrap();
    let names: Vec<String> = block
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| *n != "help")
        .map(str::to_string)
        .collect();
    assert!(names.len() >= 10, "{names:?}");
    names
}

#[test]
fn completions_generate_for_every_shell_and_name_every_subcommand() {
    let subs = subcommands();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let o = run(0, &["completions", shell]);
        for s in &subs {
            assert!(o.stdout.contains(s.as_str()), "{shell}: no `{s}`");
        }
        assert!(o.stdout.contains("push-rummy"), "{shell}");
    }
    run(2, &["completions", "tcsh"]);
}

#[test]
fn the_man_page_is_roff_and_names_every_subcommand_and_option() {
    let o = run(0, &["man"]);
    assert!(
        o.stdout.starts_with(".ie") || o.stdout.contains(".TH"),
        "{}",
        &o.stdout[..200.min(o.stdout.len())]
    );
    assert!(o.stdout.contains(".TH push-rummy"), "no title header");
    for s in subcommands() {
        assert!(o.stdout.contains(&s), "no `{s}`");
    }
    for opt in ["rules", "reading", "json", "color"] {
        assert!(o.stdout.contains(&format!("\\-\\-{opt}")), "no --{opt}");
    }
}

#[test]
fn schema_prints_what_is_shipped() {
    for (kind, file) in [
        ("rules", push_rummy::help::schema::RULES_SCHEMA_FILE),
        ("scenario", push_rummy::help::schema::SCENARIO_SCHEMA_FILE),
        ("register", push_rummy::help::schema::REGISTER_SCHEMA_FILE),
        (
            "departures",
            push_rummy::help::schema::DEPARTURES_SCHEMA_FILE,
        ),
    ] {
        let o = run(0, &["schema", kind]);
        let shipped = std::fs::read_to_string(Path::new(ROOT).join(file)).unwrap();
        assert_eq!(o.stdout, shipped, "{kind}");
        let v: Value = serde_json::from_str(&o.stdout).unwrap();
        assert!(v["$schema"].as_str().unwrap().contains("json-schema.org"));
    }
    run(2, &["schema", "disputes"]);
}

#[test]
fn explain_knows_every_reason_code_and_every_dispute_with_its_sources() {
    let register = push_rummy::rules::disputes::register::get();
    for r in push_rummy::engine::game::Reason::ALL {
        let o = json(&run(0, &["--json", "explain", r.code()]));
        assert_eq!(o["kind"], "reason code");
        assert_eq!(o["id"], r.code());
        let meaning = o["meaning"].as_str().unwrap().to_lowercase();
        assert!(meaning.contains(&r.doc().to_lowercase()[..10]), "{meaning}");
        // Every dispute it names comes with each reading's sources, as the register has them.
        for d in o["disputes"].as_array().unwrap() {
            let e = register.disputes.iter().find(|e| e.id == d["id"]).unwrap();
            assert_eq!(d["readings"].as_array().unwrap().len(), e.readings.len());
            for (got, want) in d["readings"].as_array().unwrap().iter().zip(&e.readings) {
                assert_eq!(got["sources"].as_array().unwrap().len(), want.sources.len());
            }
        }
    }
    for e in &register.disputes {
        let o = json(&run(0, &["--json", "explain", &e.id]));
        assert_eq!(o["kind"], "dispute");
        let cited: Vec<&str> = e
            .readings
            .iter()
            .flat_map(|r| r.sources.iter().map(|c| c.source.as_str()))
            .collect();
        for s in &cited {
            assert!(
                o["sources"].as_array().unwrap().iter().any(|x| x == s),
                "{}: source {s} missing",
                e.id
            );
        }
        let text = run(0, &["explain", &e.id]).stdout;
        assert!(text.contains(&e.question), "{}", e.id);
        // One reading alone.
        let first = &e.readings[0].name;
        let one = json(&run(
            0,
            &["--json", "explain", &format!("{}={first}", e.id)],
        ));
        assert_eq!(one["kind"], "reading");
        assert_eq!(one["disputes"][0]["readings"].as_array().unwrap().len(), 1);
    }
}

#[test]
fn explain_lists_the_scenarios_that_expect_a_reason_code() {
    // Count the scenarios that expect `must-draw-first` by reading them here.
    let mut want = 0;
    for f in
        push_rummy::suite::scenario::find_scenarios(&Path::new(ROOT).join("conformance")).unwrap()
    {
        let s = std::fs::read_to_string(&f).unwrap();
        if s.contains("rejected: must-draw-first") {
            want += 1;
        }
    }
    assert!(want > 0);
    let o = json(&run(0, &["--json", "explain", "must-draw-first"]));
    assert_eq!(o["scenarios"].as_array().unwrap().len(), want);
    assert!(!o["sources"].as_array().unwrap().is_empty());
}

/// A rule's explanation gives what each built-in game's file says of it, with the sources cited
/// there, and the scenarios whose `exercises` name it (counted here from the files).
#[test]
fn explain_a_rule_cites_the_built_in_games_and_lists_its_scenarios() {
    let o = json(&run(0, &["--json", "explain", "sets.min-size"]));
    assert_eq!(o["kind"], "rule");
    let cites = o["citations"].as_array().unwrap();
    let games: Vec<&str> = cites.iter().map(|c| c["game"].as_str().unwrap()).collect();
    assert_eq!(games, ["push", "cap-it", "six-to-ten"]);
    for c in cites {
        let loaded = push_rummy::rules::load(c["game"].as_str().unwrap(), &[]).unwrap();
        let e = loaded.raw.get("sets.min-size").unwrap();
        assert_eq!(c["value"], e.value.text());
        let cited: Vec<&str> = c["sources"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap())
            .collect();
        assert_eq!(cited, e.sources.clone().unwrap());
        for s in &cited {
            assert!(
                o["sources"].as_array().unwrap().iter().any(|x| x == s),
                "{s}"
            );
        }
    }
    let mut want = 0;
    for f in
        push_rummy::suite::scenario::find_scenarios(&Path::new(ROOT).join("conformance")).unwrap()
    {
        let s = std::fs::read_to_string(&f).unwrap();
        let exercised = s
            .lines()
            .any(|l| l.trim_start().starts_with("rules: [") && l.contains("sets.min-size"));
        want += usize::from(exercised);
    }
    assert!(want > 0);
    assert_eq!(o["scenarios"].as_array().unwrap().len(), want);
    let text = run(0, &["explain", "sets.min-size"]).stdout;
    assert!(text.contains("in the built-in games:"), "{text}");
    assert!(text.contains("scenarios that exercise it"), "{text}");
    // A dispute's explanation has no rule citations.
    let d = json(&run(0, &["--json", "explain", "ace-position"]));
    assert!(d["citations"].as_array().unwrap().is_empty());
}

#[test]
fn explain_an_unknown_word_is_bad_input_with_a_suggestion() {
    let o = run(2, &["explain", "must-draw-frist"]);
    assert!(
        o.stderr.contains("did you mean `must-draw-first`"),
        "{}",
        o.stderr
    );
    let o = run(2, &["--json", "explain", "frozen-tow"]);
    assert_eq!(json(&o)["suggestion"], "frozen-two");
    let o = run(2, &["explain", "qqqqqqqqqq"]);
    assert!(!o.stderr.contains("did you mean"), "{}", o.stderr);
    assert!(
        o.stderr.contains("not-your-turn"),
        "the hint lists the codes"
    );
}

/// `explain` finds topics by the words people use: a plural, a card's name, words of a title.
#[test]
fn explain_finds_topics_by_the_words_people_use() {
    for (word, wants) in [
        (
            "twos",
            &[
                "two-penalty-value",
                "natural-twos",
                "frozen-two",
                "wilds.twos",
            ][..],
        ),
        ("two", &["two-penalty-value", "natural-twos"][..]),
        ("joker", &["decks.jokers"][..]),
        ("going out", &["going-out", "going-out-by-discard-only"][..]),
    ] {
        let o = run(2, &["--json", "explain", word]);
        let v = json(&o);
        let found: Vec<&str> = v["mentions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["word"].as_str().unwrap())
            .collect();
        for w in wants {
            assert!(found.contains(w), "{word}: {w} not in {found:?}");
        }
        // A word the texts use is no typo of some other name.
        assert!(v["suggestion"].is_null(), "{word}: {v}");
    }
    // Aces and twos: an optional `scoring.points` key each, which the built-in games leave to a
    // dispute; explained as the rule, with the dispute it overrides when stated.
    for (word, id, dispute) in [
        ("scoring.points.A", "scoring.points.A", "ace-penalty-value"),
        ("scoring.points.a", "scoring.points.A", "ace-penalty-value"),
        ("scoring.points.2", "scoring.points.2", "two-penalty-value"),
        ("scoring.sides", "scoring.sides", "six-ten-partnerships"),
    ] {
        let v = json(&run(0, &["--json", "explain", word]));
        assert_eq!(
            (v["id"].as_str(), v["kind"].as_str()),
            (Some(id), Some("rule"))
        );
        assert_eq!(v["overrides"], dispute, "{v}");
        assert_eq!(v["disputes"][0]["id"], dispute, "{v}");
    }
    let o = run(0, &["explain", "scoring.points.2"]);
    assert!(
        o.stdout.contains("the dispute `two-penalty-value` decides"),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout.contains("the reading is overridden"),
        "{}",
        o.stdout
    );
    let v = json(&run(0, &["--json", "explain", "two-penalty-value"]));
    assert_eq!(v["overridden_by"], serde_json::json!(["scoring.points.2"]));
    // A dispute's title reads as a sentence before its question.
    let o = run(0, &["explain", "pusher-draws"]);
    assert!(
        o.stdout.contains("The pusher's own draw. After"),
        "{}",
        o.stdout
    );
}

/// The canonical text with suits as symbols: what a terminal shows, colours aside.
fn with_symbols(text: &str) -> String {
    push_rummy::help::term::Look {
        symbols: true,
        color: false,
    }
    .paint(text)
}

const SCENARIO: &str = "conformance/push/cap-it-push-wraps-to-seat-0.yaml";

#[test]
fn replay_is_plain_in_a_pipe_and_coloured_with_symbols_when_asked() {
    // Not a terminal: exactly the golden transcript.
    let plain = run(0, &["replay", SCENARIO]).stdout;
    let golden =
        std::fs::read_to_string(Path::new(ROOT).join(SCENARIO.replace(".yaml", ".snap"))).unwrap();
    let golden = push_rummy::suite::transcript::golden_contents(&golden).unwrap();
    assert_eq!(plain.trim_end(), golden);
    assert!(!plain.contains('\u{1b}') && !plain.contains('♥'));
    // --color always: colour and symbols, and nothing else changes.
    let coloured = run(0, &["--color", "always", "replay", SCENARIO]).stdout;
    assert!(coloured.contains("\u{1b}["), "no colour");
    assert_eq!(
        push_rummy::help::term::strip_ansi(&coloured),
        with_symbols(&plain)
    );
    assert!(with_symbols(&plain).contains("8♥"));
    // NO_COLOR and --color never keep a pipe plain.
    let o = run_env(&["replay", SCENARIO], &[("NO_COLOR", "1")]);
    assert_eq!(o.stdout, plain);
    assert_eq!(
        run(0, &["--color", "never", "replay", SCENARIO]).stdout,
        plain
    );
    // --json is the same data whatever the colour.
    assert_eq!(
        run(0, &["--json", "--color", "always", "replay", SCENARIO]).stdout,
        run(0, &["--json", "replay", SCENARIO]).stdout
    );
}

#[test]
fn play_draws_the_table_of_every_deal_and_json_is_unchanged() {
    let text = run(0, &["play", "--seed", "5"]).stdout;
    let data = json(&run(0, &["--json", "play", "--seed", "5"]));
    let deals = data["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["event"] == "hand-ended")
        .count();
    assert!(deals > 0);
    assert_eq!(
        text.matches("the table before the last play").count(),
        deals,
        "one table view before each deal ends"
    );
    // A table view names each seat's hand, the melds, the piles and the totals.
    let seats = data["players"].as_u64().unwrap();
    let view = text
        .split("┌ the table before the last play")
        .nth(1)
        .unwrap();
    let view = view.split('└').next().unwrap();
    for s in 0..seats {
        assert!(view.contains(&format!("seat {s} (")), "{view}");
    }
    assert!(view.contains("stock:") && view.contains("discard pile:"));
    // The last line has the totals the JSON has.
    let totals: Vec<i64> = data["totals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert!(text.contains(&format!("totals {totals:?}")), "{totals:?}");
    // The draws, discards and pushes of the JSON's events are lines of the text, in order.
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let mut at = 0;
    let mut seen = 0;
    for e in data["events"].as_array().unwrap() {
        let seat = &e["seat"];
        let want = match e["event"].as_str().unwrap() {
            "drew" => format!("seat {seat} draws {}", e["card"].as_str().unwrap()),
            "discarded" => format!("seat {seat} discards {}", e["card"].as_str().unwrap()),
            "pushed" => format!(
                "seat {seat} pushes {} + ",
                e["discard"].as_str().unwrap_or("nothing")
            ),
            _ => continue,
        };
        let found = lines[at..].iter().position(|l| l.starts_with(&want));
        let Some(k) = found else {
            panic!("`{want}` is not in the text after line {at}");
        };
        at += k + 1;
        seen += 1;
    }
    assert!(seen > 20, "{seen} event lines");
    // Plain in a pipe.
    assert!(!text.contains('\u{1b}'));
    let coloured = run(0, &["--color", "always", "play", "--seed", "5"]).stdout;
    assert_eq!(
        push_rummy::help::term::strip_ansi(&coloured),
        with_symbols(&text)
    );
}

#[test]
fn diagnostics_are_data_under_json_for_rules_and_scenarios() {
    let dir = std::env::temp_dir().join(format!("push-rummy-docs-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.yaml");
    std::fs::write(
        &bad,
        "title: x\nrules: push\ncards: {seed: 1}\nsteps:\n  - {do: discard ZZ, expct: ok}\nexercises: {sources: [\"009\"]}\n",
    )
    .unwrap();
    let bad = bad.to_str().unwrap();
    let check = |o: &Out, want: usize| {
        let v = json(o);
        let d = v["diagnostics"]
            .as_array()
            .or_else(|| v["scenarios"][0]["diagnostics"].as_array())
            .or_else(|| v["files"][0]["diagnostics"].as_array())
            .unwrap_or_else(|| panic!("no diagnostics in {v}"));
        assert_eq!(d.len(), want, "{v}");
        for x in d {
            for k in ["file", "line", "column", "path", "message"] {
                assert!(!x[k].is_null(), "{k} missing in {x}");
            }
            assert!(x["line"].as_u64().unwrap() > 0);
        }
    };
    check(&run(2, &["--json", "replay", bad]), 3);
    check(&run(2, &["--json", "replay", "--check", bad]), 3);
    check(
        &run(2, &["--json", "disputes", "settle", "frozen-two", bad]),
        3,
    );
    check(&run(2, &["--json", "disputes", "affecting", bad]), 3);
    let broken = format!("{ROOT}/tests/rules-broken/several-problems.yaml");
    let o = run(2, &["--json", "rules", "check", &broken]);
    let n = json(&o)["files"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .len();
    assert!(n >= 2, "{}", o.stdout);
    check(&o, n);
    check(&run(2, &["--json", "--rules", &broken, "play"]), n);
    // For people: rustc-style, with the line and a caret.
    let o = run(2, &["replay", bad]);
    assert!(
        o.stderr.contains("--> ") && o.stderr.contains('^'),
        "{}",
        o.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}
