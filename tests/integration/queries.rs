//! Single questions: `push-rummy query` answers JSON lines; `conform --queries` asks random
//! questions of an implementation and names the reading that explains a disagreement; the test
//! vectors of `conformance/vectors/` are the reference's answers.

use serde_json::Value;
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_push-rummy");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `push-rummy ARGS query` with `input` on stdin: exit code and the answers.
fn query(args: &[&str], input: &str) -> (i32, Vec<Value>) {
    let mut child = Command::new(BIN)
        .args(args)
        .arg("query")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("push-rummy runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let answers = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("each answer is a JSON line"))
        .collect();
    (out.status.code().unwrap(), answers)
}

#[test]
fn query_answers_each_line_in_order_under_the_rules_given() {
    let input = r#"{"type":"query","id":1,"question":"meld","cards":["7S","7S","7H"]}
{"type":"query","id":2,"question":"score","cards":["2C","AS"]}
{"type":"rules","rules":"cap-it"}
{"type":"query","id":3,"question":"laydown","round":1,"hand":["7S","7H","7D","9C","9D","JK","KS"]}
"#;
    let (code, a) = query(&[], input);
    assert_eq!(code, 0, "{a:?}");
    assert_eq!(a.len(), 4);
    assert_eq!(a[0]["id"], 1);
    assert_eq!(a[0]["valid"], false);
    assert_eq!(a[1]["points"], 35, "a two 20 and an ace 15 under push");
    assert_eq!(a[2]["type"], "ok");
    assert_eq!(a[3]["question"], "laydown");
    let (code, a) = query(&["--reading", "set-duplicate-suits=allowed"], input);
    assert_eq!(code, 0);
    assert_eq!(a[0]["valid"], true);
    let (code, a) = query(&["--reading", "two-penalty-value=15"], input);
    assert_eq!(code, 0);
    assert_eq!(a[1]["points"], 30);
}

#[test]
fn query_answers_a_bad_line_with_an_error_and_goes_on() {
    let (code, a) = query(
        &[],
        "not json\n{\"type\":\"start\"}\n{\"type\":\"query\",\"question\":\"meld\",\"cards\":[\"7H\",\"8H\",\"9H\"]}\n",
    );
    assert_eq!(code, 2);
    assert_eq!(a.len(), 3);
    assert!(a[0]["message"].as_str().unwrap().contains("not JSON"));
    assert!(a[1]["message"].as_str().unwrap().contains("`type`"));
    assert_eq!(a[2]["valid"], true);
}

/// `conform --queries N --impl COMMAND --json`: exit code and report.
fn queries(global: &[&str], imp: &str, n: &str) -> (i32, Value) {
    queries_with(global, imp, n, &[])
}

/// `conform --queries N --impl COMMAND --json` with more options of `conform`.
fn queries_with(global: &[&str], imp: &str, n: &str, more: &[&str]) -> (i32, Value) {
    let out = Command::new(BIN)
        .current_dir(root())
        .args(global)
        .args(["conform", "--impl", imp, "--queries", n, "--json"])
        .args(more)
        .output()
        .unwrap();
    let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap(), v)
}

#[test]
fn the_reference_agrees_with_itself_on_every_kind_of_question() {
    let (code, r) = queries(&[], &format!("{BIN} serve"), "1500");
    assert_eq!(code, 0, "{r}");
    assert_eq!(r["disagree"], 0);
    assert_eq!(r["asked"], r["agree"]);
    for k in [
        "meld", "contract", "laydown", "score", "lay-off", "discards",
    ] {
        assert!(r["kinds"][k].as_u64().unwrap() > 0, "no {k} question: {r}");
    }
}

#[test]
fn a_server_under_another_reading_is_one_cause_named_by_that_reading() {
    let imp = format!("{BIN} serve --reading set-duplicate-suits=allowed");
    let (code, r) = queries(&[], &imp, "10000");
    assert_eq!(code, 1, "{r}");
    let causes = r["causes"].as_array().unwrap();
    assert_eq!(causes.len(), 1, "{r:#}");
    let c = &causes[0];
    assert_eq!(c["reading"], "set-duplicate-suits=allowed");
    assert_eq!(c["count"], r["disagree"]);
    assert!(c["kinds"]["meld"].as_u64().unwrap() > 0, "{c}");
    // The smallest example is as small as a set with a repeated suit can be.
    let first = &c["examples"][0];
    assert_eq!(first["question"]["question"], "meld", "{first}");
    assert_eq!(first["question"]["cards"].as_array().unwrap().len(), 3);
    assert_eq!(first["reference"]["valid"], false);
    assert_eq!(first["implementation"]["valid"], true);
}

#[test]
fn a_wrong_card_value_is_a_score_cause_under_its_reading() {
    let imp = format!("{BIN} serve --reading two-penalty-value=15");
    let (code, r) = queries(&[], &imp, "600");
    assert_eq!(code, 1);
    let c = &r["causes"][0];
    assert_eq!(c["reading"], "two-penalty-value=15", "{r:#}");
    assert_eq!(
        c["kinds"].as_object().unwrap().len(),
        1,
        "only scores differ"
    );
    // Shrunk to the one card that differs.
    assert_eq!(
        c["examples"][0]["question"]["cards"],
        serde_json::json!(["2C"])
    );
}

/// A departures file in the temporary directory, named for the test.
fn departures_file(name: &str, text: &str) -> std::path::PathBuf {
    let f = std::env::temp_dir().join(format!(
        "push-rummy-queries-{}-{name}.yaml",
        std::process::id()
    ));
    std::fs::write(&f, text).unwrap();
    f
}

#[test]
fn a_known_departure_makes_its_cause_known_and_the_run_pass() {
    let imp = format!("{BIN} serve --reading two-penalty-value=15");
    // The run with a departures file of `text` (named for `name`, removed after).
    let run = |name: &str, text: &str| {
        let f = departures_file(name, text);
        let out = queries_with(&[], &imp, "600", &["--departures", f.to_str().unwrap()]);
        let _ = std::fs::remove_file(f);
        out
    };
    // By the dispute alone, any reading of it.
    let (code, r) = run(
        "reading",
        "departures:\n  - reading: two-penalty-value\n    note: our twos cost 15\n  - field: meld.valid\n    note: not reached\n",
    );
    assert_eq!(code, 0, "{r:#}");
    assert_eq!(r["causes"], serde_json::json!([]), "{r:#}");
    let known = &r["known_causes"][0];
    assert_eq!(known["reading"], "two-penalty-value=15", "{r:#}");
    assert_eq!(known["count"], r["disagree"]);
    assert_eq!(known["known"]["line"], 2);
    assert_eq!(
        known["examples"][0]["shrunk_from"],
        Value::Null,
        "a known cause is not shrunk"
    );
    let unmatched = r["unmatched_departures"].as_array().unwrap();
    assert_eq!(unmatched.len(), 1, "{r:#}");
    assert!(
        unmatched[0]
            .as_str()
            .unwrap()
            .ends_with(":4 (field: meld.valid)"),
        "{r:#}"
    );
    // By the kind of question and the field that differs.
    let (code, r) = run(
        "field",
        "departures:\n  - field: score.points\n    note: our twos cost 15\n",
    );
    assert_eq!(code, 0, "{r:#}");
    assert_eq!(
        r["known_causes"][0]["known"]["names"],
        "field: score.points"
    );
    // An entry about another dispute leaves the cause unknown, and is itself stale.
    let (code, r) = run(
        "other",
        "departures:\n  - reading: set-duplicate-suits=allowed\n    note: not this one\n",
    );
    assert_eq!(code, 1, "{r:#}");
    assert_eq!(r["causes"][0]["reading"], "two-penalty-value=15", "{r:#}");
    assert_eq!(r["known_causes"], serde_json::json!([]));
    assert_eq!(r["unmatched_departures"].as_array().unwrap().len(), 1);
}

#[test]
fn a_departure_field_names_a_game_part_or_a_kind_of_question() {
    let bad = departures_file(
        "bad-field",
        "departures:\n  - field: melds.valid\n    note: a typo\n",
    );
    let out = Command::new(BIN)
        .args([
            "conform",
            "--impl",
            "true",
            "--queries",
            "1",
            "--departures",
        ])
        .arg(&bad)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("`melds.valid` is not a compared field"),
        "{err}"
    );
    assert!(
        err.contains("meld, contract, laydown, score, lay-off, discards"),
        "{err}"
    );
    let _ = std::fs::remove_file(bad);
}

#[test]
fn an_implementation_without_questions_is_told_apart() {
    let mini = crate::common::examples_dir().join("mini_engine");
    let (code, r) = queries(&[], &mini.display().to_string(), "10");
    assert_eq!(code, 1);
    assert!(
        r["stopped"]
            .as_str()
            .unwrap()
            .contains("answers no questions"),
        "{r}"
    );
}

#[test]
fn the_vectors_are_the_references_answers() {
    let out = Command::new(BIN)
        .current_dir(root())
        .args(["vectors", "--check", "conformance/vectors"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "the vectors are out of date: run `push-rummy vectors --out conformance/vectors`\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let mut total = 0;
    for f in ["meld", "contract", "laydown", "score", "lay-off"] {
        let text =
            std::fs::read_to_string(root().join(format!("conformance/vectors/{f}.json"))).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        let cases = v["cases"].as_array().unwrap();
        total += cases.len();
        for c in cases {
            for k in ["description", "rules", "readings", "input", "expected"] {
                assert!(c.get(k).is_some(), "{f}: a case without {k}: {c}");
            }
        }
        // Several rule sets and readings.
        let rules: std::collections::BTreeSet<&str> =
            cases.iter().map(|c| c["rules"].as_str().unwrap()).collect();
        assert_eq!(rules.len(), 3, "{f}");
        assert!(
            cases
                .iter()
                .filter(|c| c["readings"] != serde_json::json!({}))
                .count()
                > 10
        );
    }
    assert!(total >= 2000, "{total} cases");
}
