//! `push-rummy conform` and `serve`: the suite passes against the built-in engine and against the
//! reference served over the protocol; deliberately wrong implementations are caught with a first
//! divergence naming the rule (the reference under another reading, and the independent
//! `examples/mini_engine.rs` with each seeded bug); `--random` shrinks each bug to a scenario of a
//! handful of actions; implementations that hang, die or send an endless line are reported as
//! errored and the harness goes on.

use crate::common;
use push_rummy::suite::scenario;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_push-rummy");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The mini engine, built by `cargo test` next to the test executable (`target/<profile>/examples`).
fn mini() -> String {
    let p = common::examples_dir().join(format!("mini_engine{}", std::env::consts::EXE_SUFFIX));
    assert!(
        p.exists(),
        "{} is missing: cargo test builds the examples",
        p.display()
    );
    p.display().to_string()
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("push-rummy-conform-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a temporary directory");
    d
}

/// Runs `push-rummy conform ARGS --json` in the crate directory: exit code and the JSON report.
fn conform(args: &[&str]) -> (i32, Value) {
    conform_with(&[], args)
}

/// `push-rummy GLOBAL conform ARGS --json` in the crate directory: exit code and report.
fn conform_with(global: &[&std::ffi::OsStr], args: &[&str]) -> (i32, Value) {
    let out = Command::new(BIN)
        .current_dir(root())
        .args(global)
        .arg("conform")
        .args(args)
        .arg("--json")
        .output()
        .expect("push-rummy runs");
    let code = out.status.code().expect("an exit code");
    let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (code, json)
}

fn with_verdict<'a>(report: &'a Value, verdict: &str) -> Vec<&'a Value> {
    report["scenarios"]
        .as_array()
        .expect("scenarios")
        .iter()
        .filter(|s| s["verdict"] == verdict)
        .collect()
}

fn scenario_count() -> usize {
    scenario::find_scenarios(&root().join("conformance"))
        .expect("conformance/ is readable")
        .len()
}

fn disagreements(report: &Value) -> usize {
    report["scenarios"]
        .as_array()
        .expect("scenarios")
        .iter()
        .filter(|s| {
            s["file"]
                .as_str()
                .is_some_and(|f| f.contains("engine-disagreements"))
        })
        .count()
}

/// The failure of the scenario whose path ends with `file`, as `rule: …` text.
fn failure_of<'a>(report: &'a Value, file: &str) -> &'a Value {
    with_verdict(report, "fail")
        .into_iter()
        .find(|s| s["file"].as_str().is_some_and(|f| f.ends_with(file)))
        .unwrap_or_else(|| panic!("{file} does not fail: {report:#}"))
}

fn rules_of(failure: &Value) -> Vec<String> {
    failure["divergence"]["rules"]
        .as_array()
        .expect("rules")
        .iter()
        .filter_map(|r| r.as_str().map(str::to_string))
        .collect()
}

#[test]
fn the_built_in_engine_passes_the_whole_suite() {
    let (code, r) = conform(&[]);
    let total = r["scenarios"].as_array().expect("scenarios").len();
    assert_eq!(total, scenario_count());
    assert_eq!(
        with_verdict(&r, "pass").len() + disagreements(&r),
        total,
        "{r:#}"
    );
    assert_eq!(code, 0);
}

#[test]
fn the_reference_served_over_the_protocol_passes_the_whole_suite() {
    let serve = format!("{BIN} serve");
    let (code, r) = conform(&["--impl", &serve]);
    let total = r["scenarios"].as_array().expect("scenarios").len();
    assert_eq!(total, scenario_count());
    assert_eq!(
        with_verdict(&r, "pass").len() + disagreements(&r),
        total,
        "{:#}",
        with_verdict(&r, "fail")
            .iter()
            .chain(with_verdict(&r, "errored").iter())
            .collect::<Vec<_>>()
            .len()
    );
    assert_eq!(code, 0);
}

#[test]
fn the_reference_under_another_two_value_is_caught_at_the_score() {
    let serve = format!("{BIN} serve --reading two-penalty-value=15");
    let (code, r) = conform(&["--impl", &serve]);
    assert_eq!(code, 1);
    let fails = with_verdict(&r, "fail");
    assert!(!fails.is_empty());
    // Every difference is in the points of a hand, where a two is counted.
    for f in &fails {
        let field = f["divergence"]["field"].as_str().unwrap_or("");
        assert!(
            field.contains("points") || field.contains("totals"),
            "{f:#}"
        );
    }
    let f = failure_of(&r, "scoring-and-partnerships/card-values.yaml");
    assert!(
        rules_of(f).iter().any(|x| x.contains("two-penalty-value")),
        "{f:#}"
    );
    assert!(with_verdict(&r, "errored").is_empty());
}

#[test]
fn the_mini_engine_without_bugs_fails_nothing() {
    let (code, r) = conform(&["--impl", &mini()]);
    assert!(with_verdict(&r, "fail").is_empty(), "{r:#}");
    assert!(with_verdict(&r, "errored").is_empty(), "{r:#}");
    assert!(with_verdict(&r, "pass").len() >= 50, "{r:#}");
    // What it does not implement is skipped with its reason.
    for s in with_verdict(&r, "skipped") {
        assert!(s["reason"].as_str().is_some_and(|x| !x.is_empty()));
    }
    assert_eq!(code, 0);
}

/// Each seeded bug: the suite catches it at the scenario about that rule, naming the rule.
#[test]
fn each_seeded_bug_is_caught_naming_its_rule() {
    for (bug, file, rule) in [
        (
            "wrap-runs",
            "runs/no-turning-the-corner.yaml",
            "runs.wrap-around",
        ),
        (
            "duplicate-suits",
            "sets/no-two-cards-of-one-suit.yaml",
            "set-duplicate-suits",
        ),
        (
            "pusher-no-draw",
            "push/push-to-the-left.yaml",
            "pusher-draws",
        ),
    ] {
        let imp = format!("{} --bug {bug}", mini());
        let (code, r) = conform(&["--impl", &imp]);
        assert_eq!(code, 1, "{bug}");
        let f = failure_of(&r, file);
        assert!(rules_of(f).iter().any(|x| x.contains(rule)), "{bug}: {f:#}");
        for f in with_verdict(&r, "fail") {
            assert!(!rules_of(f).is_empty(), "{bug}: {f:#}");
        }
    }
}

/// `--random` finds each bug in random games and shrinks it to a scenario of a few actions that
/// still shows the bug, passes against the bug-free engine, and holds when replayed.
#[test]
fn random_games_find_and_shrink_each_seeded_bug() {
    for (bug, rule) in [
        ("wrap-runs", "runs.wrap-around"),
        ("duplicate-suits", "set-duplicate-suits"),
        ("pusher-no-draw", "pusher-draws"),
    ] {
        let out = tmp(bug);
        let imp = format!("{} --bug {bug}", mini());
        let (code, r) = conform(&[
            "--impl",
            &imp,
            "--random",
            "30",
            "--seed",
            "1",
            "--out",
            out.to_str().expect("utf-8"),
        ]);
        assert_eq!(code, 1, "{bug}: {r:#}");
        let found = &r["found"];
        let file = PathBuf::from(found["file"].as_str().expect("a scenario was written"));
        let s = scenario::load(&file, &[]).expect("the shrunk scenario loads");
        // Its first line names the schema written beside it, which is the scenario schema.
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(
            text.starts_with("# yaml-language-server: $schema=scenario.schema.json\n"),
            "{bug}: {text}"
        );
        let schema = std::fs::read_to_string(file.with_file_name("scenario.schema.json")).unwrap();
        assert_eq!(
            schema,
            push_rummy::help::schema::text(&push_rummy::help::schema::scenario())
        );
        let actions = s.steps.iter().filter(|st| st.action.is_some()).count();
        assert!((1..=5).contains(&actions), "{bug}: {actions} actions");
        let cards: usize = s.game.deal.hands.iter().map(|h| h.len()).sum();
        assert!(cards <= 12, "{bug}: {cards} cards in hands");
        let names: Vec<String> = found["shrunk"]["rules"]
            .as_array()
            .expect("rules")
            .iter()
            .filter_map(|x| x.as_str().map(str::to_string))
            .collect();
        assert!(names.iter().any(|x| x.contains(rule)), "{bug}: {names:?}");
        // The scenario shows the bug, and only the bug.
        let path = file.to_str().expect("utf-8");
        let (code, buggy) = conform(&[path, "--impl", &imp]);
        assert_eq!(code, 1, "{bug}: {buggy:#}");
        let (code, clean) = conform(&[path, "--impl", &mini()]);
        assert_eq!(code, 0, "{bug}: {clean:#}");
        assert_eq!(with_verdict(&clean, "pass").len(), 1, "{bug}: {clean:#}");
        let replay = Command::new(BIN)
            .arg("replay")
            .arg(&file)
            .output()
            .expect("replay runs");
        assert!(replay.status.success(), "{bug}: the reference holds it");
        let _ = std::fs::remove_dir_all(&out);
    }
}

/// Implementations that hang, die mid-game, or send a line without end: each scenario is
/// reported as errored within the timeout and the next one still runs.
#[test]
fn broken_implementations_are_errored_and_the_harness_goes_on() {
    let dir = tmp("broken");
    copy_scenarios(
        &dir,
        &[
            "push/push-to-the-left.yaml",
            "runs/no-turning-the-corner.yaml",
        ],
    );
    let d = dir.to_str().expect("utf-8");
    for (what, imp, expect) in BROKEN {
        both_scenarios_errored(d, what, imp, expect);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Broken implementations: what each does wrong, its command, and what the error of each
/// scenario run against it says.
const BROKEN: [(&str, &str, &str); 5] = [
    ("hangs", "sh -c 'sleep 30'", "no reply"),
    (
        "hangs after a word on stderr",
        "sh -c 'echo warming up >&2; sleep 30'",
        "its stderr ends: warming up",
    ),
    (
        "dies mid-game",
        r#"sh -c 'read a; echo "{\"type\":\"hello\",\"protocol\":1}"; read b; echo "{\"type\":\"ok\",\"events\":[]}"; read c; echo boom >&2; exit 3'"#,
        "closed its output",
    ),
    (
        "sends an endless line",
        "sh -c 'read l; yes x | tr -d \"\\n\"'",
        "longer than",
    ),
    (
        "speaks nonsense",
        "sh -c 'read l; echo hello; sleep 30'",
        "malformed",
    ),
];

/// Copies the suite's scenarios `files` (paths under conformance/) into `dir`.
fn copy_scenarios(dir: &Path, files: &[&str]) {
    for f in files {
        let from = root().join("conformance").join(f);
        std::fs::copy(&from, dir.join(from.file_name().expect("a name"))).expect("copy");
    }
}

/// `conform` of the two scenarios in `d` against `imp` (`what` it does wrong), with a timeout of a
/// second, answers 1 within 15 seconds, both scenarios errored with `expect` in their error.
fn both_scenarios_errored(d: &str, what: &str, imp: &str, expect: &str) {
    let started = Instant::now();
    let (code, r) = conform(&[d, "--impl", imp, "--timeout", "1000", "--keep-going"]);
    let took = started.elapsed();
    assert_eq!(code, 1, "{what}: {r:#}");
    let errored = with_verdict(&r, "errored");
    assert_eq!(errored.len(), 2, "{what}: {r:#}");
    for e in errored {
        let msg = e["error"].as_str().unwrap_or("");
        assert!(msg.contains(expect), "{what}: {msg}");
    }
    assert!(took < Duration::from_secs(15), "{what}: took {took:?}");
}

#[test]
fn bad_input_exits_2_with_a_message() {
    for args in [
        vec!["no/such/dir"],
        vec!["--impl", ""],
        vec!["--impl", "'unclosed"],
        vec!["--random", "3"],
        vec!["--impl", "/no/such/program", "--random", "1"],
        vec!["--impl", "/no/such/program"],
        vec!["--impl", "no-such-program-of-push-rummy --flag"],
        vec!["--impl", "./Cargo.toml"],
        vec!["--reading", "two-penalty-value=15"],
    ] {
        let out = Command::new(BIN)
            .current_dir(root())
            .arg("conform")
            .args(&args)
            .output()
            .expect("push-rummy runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}

/// `serve` answers each message of the protocol, and bad input with an `error` reply, not a crash.
#[test]
fn serve_answers_every_message_and_survives_bad_lines() {
    use std::io::Write as _;
    let mut child = Command::new(BIN)
        .arg("serve")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("serve starts");
    let s =
        scenario::load(&root().join("conformance/push/push-to-the-left.yaml"), &[]).expect("loads");
    let start = push_rummy::suite::protocol::start_message(&s.rules, &s.game);
    let lines = [
        r#"{"type":"state"}"#.to_string(),
        r#"{"type":"hello","protocol":1}"#.to_string(),
        "not json".to_string(),
        "x".repeat(push_rummy::suite::protocol::MAX_LINE + 10),
        start.to_string(),
        r#"{"type":"apply","seat":1,"action":"push"}"#.to_string(),
        r#"{"type":"apply","seat":1,"action":"push"}"#.to_string(),
        r#"{"type":"apply","seat":1,"action":"fly"}"#.to_string(),
        r#"{"type":"legal"}"#.to_string(),
        r#"{"type":"observe","seat":2}"#.to_string(),
        r#"{"type":"observe","seat":9}"#.to_string(),
        r#"{"type":"end"}"#.to_string(),
    ];
    {
        let mut stdin = child.stdin.take().expect("stdin");
        for l in &lines {
            writeln!(stdin, "{l}").expect("write");
        }
    }
    let out = child.wait_with_output().expect("serve ends");
    assert!(out.status.success());
    let replies: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("every reply is JSON"))
        .collect();
    let types: Vec<&str> = replies
        .iter()
        .map(|r| r["type"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        types,
        [
            "error",
            "hello",
            "error",
            "error",
            "ok",
            "ok",
            "rejected",
            "error",
            "legal",
            "observation",
            "error",
            "bye"
        ]
    );
    assert_eq!(replies[6]["reason"], "already-drew");
    assert!(
        replies[7]["message"]
            .as_str()
            .unwrap_or("")
            .contains("action")
    );
}

/// `legal` lists what conformance/README.md says it lists: every legal action but new melds and
/// lay-offs of several cards, the same set `conform` compares. A seat that can lay its contract
/// down gets no meld in the reply (its full listing has some), and after the laydown its one-card
/// lay-off is there.
#[test]
fn legal_lists_every_action_but_new_melds_and_longer_lay_offs() {
    use push_rummy::suite::protocol::{Server, compared_legal, start_message};
    let s = scenario::load(
        &root().join("conformance/contracts/contract-with-wilds-and-lay-offs-same-turn.yaml"),
        &[],
    )
    .expect("loads");
    let mut server = Server::new(Vec::new(), None);
    let mut send = |msg: Value| server.handle(&msg).0;
    assert_eq!(
        send(serde_json::json!({"type": "hello", "protocol": 1}))["type"],
        "hello"
    );
    assert_eq!(send(start_message(&s.rules, &s.game))["type"], "ok");
    let listed = |reply: Value| -> Vec<String> {
        assert_eq!(reply["type"], "legal", "{reply}");
        reply["actions"]
            .as_array()
            .expect("actions")
            .iter()
            .map(|a| a.as_str().expect("text").to_string())
            .collect()
    };
    let before = listed(send(serde_json::json!({"type": "legal"})));
    assert_eq!(before, compared_legal(&s.game));
    assert!(
        before.iter().all(|a| !a.starts_with("meld")),
        "no new meld: {before:?}"
    );
    assert!(
        s.game
            .legal_actions()
            .iter()
            .any(|a| a.to_string().starts_with("meld")),
        "the contract could go down here"
    );
    assert!(before.contains(&"discard KC".to_string()), "{before:?}");
    let laid = send(serde_json::json!({
        "type": "apply", "seat": 1, "action": "meld [5H 5C 5S] [8H 9H JK JH]"
    }));
    assert_eq!(laid["type"], "ok", "{laid}");
    let after = listed(send(serde_json::json!({"type": "legal"})));
    assert!(after.contains(&"lay-off 0 [4D]".to_string()), "{after:?}");
    assert!(
        after.iter().all(|a| !a.starts_with("meld")),
        "no new meld: {after:?}"
    );
}

/// A meld whose wilds float (`wild-declaration=never`) keeps the readings that extend what it was
/// before its lay-offs, which can be fewer than its cards allow. The `start` message carries
/// them, and the game it sets up has the same table: `JK JK 5H` is a set and three runs; with the
/// 6H laid off only the run 3–6 is left, and with a third joker 2–6 and 3–7, though 4–8 and 5–9
/// are runs of those cards too.
#[test]
fn a_start_message_keeps_the_readings_of_a_floating_meld() {
    use push_rummy::engine::game::{Game, MeldSpec, Stage};
    use push_rummy::engine::position::{Position, Rest};
    use push_rummy::rules::disputes::DisputeId;
    use push_rummy::suite::protocol::{game_from_start, start_message, table_meld_spec};
    use push_rummy::suite::transcript::reading_text;
    use std::sync::Arc;
    let never = DisputeId::from_id("wild-declaration").expect("a dispute");
    let loaded = push_rummy::rules::load("push", &[(never, "never".to_string())]).expect("loads");
    let cards = |s: &str| push_rummy::base::card::parse_cards(s).expect("cards");
    let start = first_deal_of_four();
    let pos = Position {
        hands: vec![cards("KC"), cards("6H JK QD"), cards("KD"), cards("KS")],
        rest: Rest::Stock,
        table: vec![(
            0,
            MeldSpec {
                cards: cards("JK JK 5H"),
                kind: None,
                declared: Vec::new(),
            },
        )],
        contract_met: Some(vec![0, 1]),
        turn: Some(1),
        stage: Stage::Play,
        ..Position::default()
    };
    let mut g = Game::from_position(Arc::new(loaded.rules.clone()), &start, &pos).expect("sets up");
    let texts =
        |g: &Game| -> Vec<String> { g.deal.table[0].interps.iter().map(reading_text).collect() };
    assert_eq!(texts(&g).len(), 4, "{:?}", texts(&g));
    // Sent before the lay-off: no kind is pinned, and all four readings come back.
    assert_eq!(table_meld_spec(&g.rules, &g.deal.table[0]).kind, None);
    let back = game_from_start(&loaded, &start_message(&loaded, &g)).expect("starts");
    assert_eq!(texts(&back), texts(&g));
    let six = cards("6H")[0];
    g.apply(
        1,
        &push_rummy::engine::game::Action::plain_lay_off(0, six, None),
    )
    .expect("6H extends the run 3-5");
    assert_eq!(texts(&g).len(), 1, "{:?}", texts(&g));
    let joker = cards("JK")[0];
    g.apply(
        1,
        &push_rummy::engine::game::Action::plain_lay_off(0, joker, None),
    )
    .expect("a floating joker at either end");
    assert_eq!(texts(&g).len(), 2, "{:?}", texts(&g));
    let all = push_rummy::oracle::meld::interpret(
        &g.rules,
        &push_rummy::oracle::meld::Query {
            cards: g.deal.table[0].cards.clone(),
            ..Default::default()
        },
    );
    assert_eq!(
        all.interpretations.len(),
        4,
        "the cards alone allow 4-8 and 5-9 too"
    );
    let back = game_from_start(&loaded, &start_message(&loaded, &g)).expect("starts");
    assert_eq!(texts(&back), texts(&g));
    assert_eq!(back.deal.table, g.deal.table);
    // A reading the cards do not have is refused, naming the field.
    let mut msg = start_message(&loaded, &g);
    msg["position"]["table"][0]["readings"] = serde_json::json!(["set 9: JK=9 JK=9 5H"]);
    let e = game_from_start(&loaded, &msg).expect_err("not a reading");
    assert!(e.contains("position.table[0].readings"), "{e}");
}

/// A table meld keeps its cards in the order they were laid, and a position keeps that order
/// wherever it goes: the `start` message lists them so (in `cards` and in the `meld` text), the
/// game it sets up has the same table, and so does a scenario whose `position` lists the meld as
/// a shrunk scenario writes it. An implementation that places wilds by the order of laying
/// makes the same choices from either.
#[test]
fn a_start_message_keeps_the_order_meld_cards_were_laid_in() {
    use push_rummy::engine::game::{Action, Game, MeldSpec, Stage};
    use push_rummy::engine::position::{Position, Rest};
    use push_rummy::suite::protocol::{game_from_start, meld_text, start_message, table_meld_spec};
    use std::sync::Arc;
    let loaded = push_rummy::rules::load("push", &[]).expect("loads");
    let cards = |s: &str| push_rummy::base::card::parse_cards(s).expect("cards");
    let start = first_deal_of_four();
    let spec = |s: &str| MeldSpec {
        cards: cards(s),
        kind: None,
        declared: Vec::new(),
    };
    let pos = Position {
        hands: vec![cards("KC"), cards("6H 10H QD"), cards("KD"), cards("KS")],
        rest: Rest::Stock,
        table: vec![(0, spec("7H JK 9H")), (1, spec("QC QS QD"))],
        contract_met: Some(vec![0, 1]),
        turn: Some(1),
        stage: Stage::Play,
        ..Position::default()
    };
    let mut g = Game::from_position(Arc::new(loaded.rules.clone()), &start, &pos).expect("sets up");
    assert_eq!(g.deal.table[0].cards, cards("7H JK 9H"));
    assert_eq!(g.deal.table[1].cards, cards("QC QS QD"));
    for c in ["6H", "10H"] {
        g.apply(1, &Action::plain_lay_off(0, cards(c)[0], None))
            .expect("extends the run");
    }
    let laid = cards("7H JK 9H 6H 10H");
    assert_eq!(g.deal.table[0].cards, laid);
    let msg = start_message(&loaded, &g);
    let table = &msg["position"]["table"];
    assert_eq!(
        table[0]["cards"],
        serde_json::json!(["7H", "JK", "9H", "6H", "10H"])
    );
    assert_eq!(table[0]["meld"], "run [7H JK 9H 6H 10H JK=8H]");
    assert_eq!(table[1]["cards"], serde_json::json!(["QC", "QS", "QD"]));
    let back = game_from_start(&loaded, &msg).expect("starts");
    assert_eq!(back.deal.table, g.deal.table);
    assert_eq!(back.deal.table[0].cards, laid);
    // A scenario's position reads the meld text as shrinking writes it, in the same order.
    let text = meld_text(&table_meld_spec(&g.rules, &g.deal.table[0]));
    let yaml = format!(
        "title: laid order\nrules: push\ncards:\n  hands: {{1: [6S]}}\n  rest: stock\n  table:\n    - {{0: \"{text}\"}}\n  turn: 1\nsteps: [{{check: {{turn: 1}}}}]\n"
    );
    let Ok(s) = scenario::load_text("laid.yaml", &yaml, Path::new("."), &[]) else {
        panic!("does not load: {yaml}");
    };
    assert_eq!(s.game.deal.table[0].cards, laid);
    assert_eq!(s.game.deal.table[0].interps, g.deal.table[0].interps);
}

/// `--impl` splits its command into words as a shell would (conformance/README.md): checked
/// against bash itself, which prints the words it makes of the same text.
#[test]
fn impl_commands_split_into_words_as_bash_splits_them() {
    use push_rummy::suite::conform::ImplSpec;
    let cases = [
        r#"./engine --flag value"#,
        r#"  spaced   out  "#,
        r#"'single quoted \ stays' "double \" quote" "a\b" "\\" "\$x" "\`""#,
        r#"a\ b c\\d \'e"#,
        r#"mix"ed 'qu'otes" '' x"""#,
        "line\\\ncontinued \"in\\\nquotes\"",
        r#"tab	separated"#,
    ];
    for text in cases {
        let out = Command::new("bash")
            .arg("-c")
            .arg(format!("printf '%s\\0' {text}"))
            .output()
            .expect("bash runs");
        assert!(out.status.success(), "bash on {text:?}");
        let mut shell: Vec<String> = String::from_utf8(out.stdout)
            .expect("UTF-8")
            .split('\0')
            .map(str::to_string)
            .collect();
        shell.pop();
        match ImplSpec::parse_command(text).expect("splits") {
            ImplSpec::Command(words) => assert_eq!(words, shell, "{text:?}"),
            ImplSpec::BuiltIn => panic!("a command"),
        }
    }
}

/// A position may name as `taken` a card the seat to play has already melded this turn (the
/// engine keeps it taken until the turn ends); `conform --random` writes such positions when it
/// shrinks a divergence. A taken card that is neither in that hand nor on the table is refused.
#[test]
fn a_taken_card_may_already_be_in_a_meld() {
    use push_rummy::engine::game::{Game, MeldSpec, Stage};
    use push_rummy::engine::position::{Place, Position, Rest};
    use std::sync::Arc;
    let rules = Arc::new(push_rummy::rules::load("push", &[]).expect("loads").rules);
    let cards = |s: &str| push_rummy::base::card::parse_cards(s).expect("cards");
    let start = first_deal_of_four();
    let pos = |taken: &str| Position {
        hands: vec![cards("KC"), cards("4C"), cards("KD"), cards("KS")],
        rest: Rest::Stock,
        table: vec![(
            1,
            MeldSpec {
                cards: cards("8S 8H 8D"),
                kind: None,
                declared: Vec::new(),
            },
        )],
        contract_met: Some(vec![1]),
        turn: Some(1),
        stage: Stage::Play,
        taken: Some(cards(taken)[0]),
        ..Position::default()
    };
    let g = Game::from_position(Arc::clone(&rules), &start, &pos("8S")).expect("melded this turn");
    assert_eq!(g.deal.taken, Some(cards("8S")[0]));
    let e = Game::from_position(rules, &start, &pos("9C")).expect_err("nowhere near");
    assert_eq!(e.place, Place::Taken);
    assert!(e.message.contains("9C"), "{}", e.message);
}

/// Four players, dealer 0, the first deal, the generator seeded 1: the start of the hand-built
/// positions above.
fn first_deal_of_four() -> push_rummy::engine::position::Start {
    push_rummy::engine::position::Start {
        players: 4,
        dealer: 0,
        round: 0,
        seed: 1,
        scores: Vec::new(),
        decks: Vec::new(),
    }
}

/// `push-rummy --rules RULES conform ARGS --json` in the crate directory: exit code and report.
fn conform_under(rules: &Path, args: &[&str]) -> (i32, Value) {
    conform_with(&["--rules".as_ref(), rules.as_os_str()], args)
}

/// Random games with buying out of turn go through the protocol unchanged (buy windows, the
/// buys made, positions inside a window); an implementation that takes two penalty cards where
/// the rules say one is caught at its first buy, and the divergence shrinks to a scenario that
/// starts inside the buy window.
#[test]
fn random_games_with_buying_agree_and_a_wrong_penalty_is_caught_in_its_window() {
    let dir = tmp("buying");
    let house = |name: &str, penalty: u8| {
        let p = dir.join(name);
        std::fs::write(
            &p,
            format!(
                "extends: push\ngame: {}\nbuying: {{allowed: true, penalty-cards: {penalty}, per-hand: 3}}\n",
                name.trim_end_matches(".yaml")
            ),
        )
        .unwrap();
        p
    };
    let one = house("buy-one.yaml", 1);
    let two = house("buy-two.yaml", 2);
    let serve = format!("{BIN} serve");
    let (code, r) = conform_under(&one, &["--impl", &serve, "--random", "4", "--seed", "3"]);
    assert_eq!(code, 0, "{r:#}");
    let wrong = format!("{BIN} serve --rules {}", two.display());
    let out = dir.join("found");
    std::fs::create_dir_all(&out).unwrap();
    let (code, r) = conform_under(
        &one,
        &[
            "--impl",
            &wrong,
            "--random",
            "4",
            "--seed",
            "3",
            "--out",
            out.to_str().expect("utf-8"),
        ],
    );
    assert_eq!(code, 1, "{r:#}");
    let file = PathBuf::from(r["found"]["file"].as_str().expect("a scenario was written"));
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("  stage: buy\n") && text.contains("  window: "),
        "{text}"
    );
    assert!(text.contains("do: \"buy\""), "{text}");
    let s = scenario::load(&file, &[]).expect("the shrunk scenario loads");
    assert_eq!(s.game.deal.stage, push_rummy::engine::game::Stage::Buy);
    let replay = Command::new(BIN)
        .arg("replay")
        .arg(&file)
        .output()
        .expect("replay runs");
    assert!(replay.status.success(), "the reference holds it");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A position inside a buy window needs buying allowed, stage buy with the player on turn named
/// (`window`), another seat to move and a discard to buy; buys are counted per seat.
#[test]
fn a_position_in_a_buy_window_is_checked() {
    use push_rummy::engine::game::{Game, Stage};
    use push_rummy::engine::position::{Place, Position, Rest};
    use std::sync::Arc;
    let mut buying = push_rummy::rules::load("push", &[]).expect("loads").rules;
    buying.buying = Some(push_rummy::rules::Buying {
        penalty_cards: 1,
        per_hand: Some(2),
        when_down: true,
    });
    let buying = Arc::new(buying);
    let push = Arc::new(push_rummy::rules::load("push", &[]).expect("loads").rules);
    let cards = |s: &str| push_rummy::base::card::parse_cards(s).expect("cards");
    let start = first_deal_of_four();
    let pos = |window: Option<u8>, stage: Stage, turn: u8, buys: Vec<u8>| Position {
        hands: vec![cards("KC"), cards("4C"), cards("KD"), cards("KS")],
        discard: cards("9H"),
        rest: Rest::Stock,
        turn: Some(turn),
        stage,
        window,
        buys,
        ..Position::default()
    };
    let g = Game::from_position(
        Arc::clone(&buying),
        &start,
        &pos(Some(1), Stage::Buy, 2, vec![0, 1, 0, 2]),
    )
    .expect("inside a window");
    assert_eq!(
        (g.turn(), g.deal.window, g.buys_left(3)),
        (2, Some(1), Some(0))
    );
    for (rules, p) in [
        (&push, pos(Some(1), Stage::Buy, 2, vec![])),
        (&push, pos(None, Stage::Draw, 1, vec![0, 0, 0, 0])),
        (&buying, pos(Some(1), Stage::Play, 2, vec![])),
        (&buying, pos(None, Stage::Buy, 2, vec![])),
        (&buying, pos(Some(2), Stage::Buy, 2, vec![])),
        (&buying, pos(None, Stage::Draw, 1, vec![0, 0])),
        (&buying, pos(None, Stage::Draw, 1, vec![0, 3, 0, 0])),
    ] {
        let e = Game::from_position(Arc::clone(rules), &start, &p).expect_err("refused");
        assert_eq!(e.place, Place::Buying, "{p:?}: {}", e.message);
    }
}

/// The processes started by a command run with `PUSH_RUMMY_TEST_MARK=mark` in its environment
/// (every descendant inherits it, whatever its process group): their pids, from /proc.
fn marked_processes(mark: &str) -> Vec<String> {
    let want = format!("PUSH_RUMMY_TEST_MARK={mark}");
    std::fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter(|e| {
            std::fs::read(e.path().join("environ"))
                .is_ok_and(|env| env.split(|b| *b == 0).any(|v| v == want.as_bytes()))
        })
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

/// A wrapper script whose child never replies.
fn hanging_wrapper(dir: &Path) -> String {
    use std::os::unix::fs::PermissionsExt as _;
    let script = dir.join("hang.sh");
    std::fs::write(&script, "#!/bin/sh\nsleep 1000\n").expect("write");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    script.display().to_string()
}

/// Against a wrapper script whose child never replies, the whole suite costs one timeout: the
/// run stops at the first `hello` and says why, and neither the script nor its child is left.
#[test]
fn a_hanging_wrapper_costs_one_timeout_and_leaves_no_process_behind() {
    let dir = tmp("hanging-wrapper");
    let script = hanging_wrapper(&dir);
    let mark = format!("hang-{}", std::process::id());
    let started = Instant::now();
    let out = Command::new(BIN)
        .current_dir(root())
        .env("PUSH_RUMMY_TEST_MARK", &mark)
        .args(["conform", "--impl", &script, "--timeout", "1000", "--json"])
        .output()
        .expect("push-rummy runs");
    let took = started.elapsed();
    assert_eq!(out.status.code(), Some(1));
    let r: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(with_verdict(&r, "errored").len(), 1, "{r:#}");
    assert_eq!(r["scenarios"].as_array().map(Vec::len), Some(1), "{r:#}");
    assert_eq!(r["not_run"], scenario_count() - 1);
    assert!(
        r["stopped"].as_str().is_some_and(|s| s.contains("hello")),
        "{r:#}"
    );
    assert!(took < Duration::from_secs(10), "took {took:?}");
    assert_eq!(marked_processes(&mark), Vec::<String>::new());
    // With --keep-going each scenario costs its timeout, and still nothing is left.
    let two = tmp("hanging-wrapper-two");
    copy_scenarios(
        &two,
        &[
            "push/push-to-the-left.yaml",
            "runs/no-turning-the-corner.yaml",
        ],
    );
    let status = Command::new(BIN)
        .env("PUSH_RUMMY_TEST_MARK", &mark)
        .args(["conform", two.to_str().expect("utf-8"), "--impl", &script])
        .args(["--timeout", "300", "--keep-going"])
        .output()
        .expect("push-rummy runs");
    let text = String::from_utf8_lossy(&status.stdout);
    assert_eq!(text.matches("ERRORED").count(), 2, "{text}");
    assert_eq!(marked_processes(&mark), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&two);
}

/// SIGTERM to a running `conform` ends the implementation it is waiting for, with its children.
#[test]
fn sigterm_to_conform_leaves_no_implementation_process_behind() {
    let dir = tmp("sigterm");
    let script = hanging_wrapper(&dir);
    let mark = format!("sigterm-{}", std::process::id());
    let child = Command::new(BIN)
        .current_dir(root())
        .env("PUSH_RUMMY_TEST_MARK", &mark)
        .args(["conform", "--impl", &script, "--timeout", "60000"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("push-rummy runs");
    // conform itself, the script and its `sleep`.
    let started = Instant::now();
    while marked_processes(&mark).len() < 3 {
        assert!(started.elapsed() < Duration::from_secs(10), "never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    let kill = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(kill.success());
    let out = child.wait_with_output().expect("conform ends");
    assert_eq!(out.status.code(), Some(128 + 15));
    assert!(String::from_utf8_lossy(&out.stderr).contains("signal"));
    let gone = Instant::now();
    // The group is killed before conform exits; give the kernel a moment to reap.
    while !marked_processes(&mark).is_empty() && gone.elapsed() < Duration::from_secs(2) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(marked_processes(&mark), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
}

/// An ERRORED line names the step and the action where the implementation stopped answering.
#[test]
fn an_errored_scenario_names_its_step_and_action() {
    // The reference behind a loop that passes on four messages (hello, start, state, legal) and
    // then closes its input: the first `apply` gets no reply.
    let imp = format!(
        "sh -c 'for i in 1 2 3 4; do read -r l; printf \"%s\\n\" \"$l\"; done | {BIN} serve'"
    );
    let (code, r) = conform(&["conformance/push/push-to-the-left.yaml", "--impl", &imp]);
    assert_eq!(code, 1);
    let errored = with_verdict(&r, "errored");
    let msg = errored[0]["error"].as_str().expect("an error");
    assert!(msg.starts_with("step 1 (seat 1: push): "), "{msg}");
    assert!(msg.contains("`apply`"), "{msg}");
}

/// An implementation that errors scenario after scenario (here: dies after `start`) stops the
/// run after five, and says so; `--keep-going` runs them all.
#[test]
fn five_errored_scenarios_in_a_row_stop_the_run() {
    let dir = tmp("five-errored");
    copy_scenarios(
        &dir,
        &[
            "push/push-to-the-left.yaml",
            "runs/no-turning-the-corner.yaml",
            "sets/no-two-cards-of-one-suit.yaml",
            "push/cap-it-push-wraps-to-seat-0.yaml",
            "scoring-and-partnerships/card-values.yaml",
            "cards-and-notation/cap-it-3-players-pack.yaml",
            "cards-and-notation/cap-it-4-players-pack.yaml",
        ],
    );
    let d = dir.to_str().expect("utf-8");
    let dies = BROKEN[2].1;
    let (code, r) = conform(&[d, "--impl", dies]);
    assert_eq!(code, 1);
    assert_eq!(with_verdict(&r, "errored").len(), 5, "{r:#}");
    assert_eq!(r["not_run"], 2, "{r:#}");
    assert!(
        r["stopped"]
            .as_str()
            .is_some_and(|s| s.contains("5 scenarios in a row"))
    );
    let (_, r) = conform(&[d, "--impl", dies, "--keep-going"]);
    assert_eq!(with_verdict(&r, "errored").len(), 7, "{r:#}");
    assert!(r["stopped"].is_null());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Random games against an implementation that speaks no protocol: errored, the run fails and
/// never says "no divergence".
#[test]
fn errored_random_games_are_a_failure() {
    let out = Command::new(BIN)
        .current_dir(root())
        .args([
            "conform",
            "--impl",
            BROKEN[4].1,
            "--random",
            "3",
            "--timeout",
            "1000",
        ])
        .args(["--keep-going"])
        .output()
        .expect("push-rummy runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert_eq!(text.matches("ERRORED").count(), 3, "{text}");
    assert!(!text.contains("no divergence"), "{text}");
}

/// `serve` says what is wrong with a value that is there, and its replies obey the line limit
/// whatever they quote.
#[test]
fn serve_says_what_is_wrong_with_a_value_and_keeps_its_replies_short() {
    use std::io::Write as _;
    let huge_type = format!(r#"{{"type":"{}"}}"#, "y".repeat(1_048_000));
    // A hand of 500 aces of spades: the message counts them all.
    let s =
        scenario::load(&root().join("conformance/push/push-to-the-left.yaml"), &[]).expect("loads");
    let mut start = push_rummy::suite::protocol::start_message(&s.rules, &s.game);
    start["position"]["hands"][0] = serde_json::json!(vec!["AS"; 500]);
    let lines = [
        r#"{"type":"hello","protocol":99999999999999999999999999999}"#.to_string(),
        r#"{"type":"hello","protocol":-1}"#.to_string(),
        r#"{"type":"hello","protocol":1.5}"#.to_string(),
        r#"{"type":"hello"}"#.to_string(),
        r#"{"type":42}"#.to_string(),
        huge_type,
        r#"{"type":"hello","protocol":1}"#.to_string(),
        start.to_string(),
    ];
    let mut child = Command::new(BIN)
        .arg("serve")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("serve starts");
    {
        let mut stdin = child.stdin.take().expect("stdin");
        for l in &lines {
            writeln!(stdin, "{l}").expect("write");
        }
    }
    let out = child.wait_with_output().expect("serve ends");
    let text = String::from_utf8_lossy(&out.stdout);
    let replies: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(replies.len(), lines.len());
    let message = |i: usize| replies[i]["message"].as_str().unwrap_or("").to_string();
    for (i, shown) in [(0, "1e+29"), (1, "-1"), (2, "1.5")] {
        assert!(message(i).contains(shown), "{}", message(i));
        assert!(!message(i).contains("missing"), "{}", message(i));
    }
    assert!(message(3).contains("missing"), "{}", message(3));
    assert!(
        message(4).contains("42") && !message(4).contains("missing"),
        "{}",
        message(4)
    );
    let p = &start["position"];
    let lists = p["hands"].as_array().into_iter().flatten();
    let lists = lists.chain([&p["stock"], &p["discard"]]);
    let table = p["table"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|m| &m["cards"]);
    let aces = lists
        .chain(table)
        .flat_map(|l| l.as_array().into_iter().flatten())
        .filter(|c| *c == "AS")
        .count();
    assert!(aces > 500);
    let placed = format!("AS is placed {aces} times");
    assert!(message(7).contains(&placed), "{placed}: {}", message(7));
    for l in text.lines() {
        assert!(l.len() < 4096, "a reply of {} bytes", l.len());
    }
}

/// With three seeded bugs on at once, `--random 200` plays every game and reports three causes,
/// each with a shrunk scenario that fails on its own: against the engine with only its own bug
/// on, and no other; the bug-free engine passes it.
#[test]
fn random_games_group_three_bugs_into_three_causes_each_shrunk() {
    const BUGS: [&str; 3] = ["wrap-runs", "duplicate-suits", "pusher-no-draw"];
    let out = tmp("three-bugs");
    let all = format!(
        "{} {}",
        mini(),
        BUGS.map(|b| format!("--bug {b}")).join(" ")
    );
    let (code, r) = conform(&[
        "--impl",
        &all,
        "--random",
        "200",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 1, "{r:#}");
    assert_eq!(r["played"], 200, "{r:#}");
    let n = |k: &str| r[k].as_u64().expect("a count");
    let skipped = r["skipped_games"].as_array().expect("a list").len() as u64;
    let errored = r["errored_games"].as_array().expect("a list").len() as u64;
    assert_eq!(
        n("clean_games") + n("diverged_games") + skipped + errored,
        200
    );
    let causes = r["causes"].as_array().expect("causes");
    assert_eq!(causes.len(), 3, "{r:#}");
    let counted: u64 = causes
        .iter()
        .map(|c| c["count"].as_u64().expect("a count"))
        .sum();
    assert_eq!(counted, n("diverged_games"));
    let mut bugs_found = Vec::new();
    for c in causes {
        let file = c["finding"]["file"].as_str().expect("a shrunk scenario");
        let fails = |imp: &str| conform(&[file, "--impl", imp]).0 == 1;
        assert!(fails(&all), "{c:#}");
        assert!(!fails(&mini()), "{c:#}");
        let own: Vec<&str> = BUGS
            .into_iter()
            .filter(|b| fails(&format!("{} --bug {b}", mini())))
            .collect();
        assert_eq!(own.len(), 1, "{c:#}: fails with {own:?}");
        bugs_found.push(own[0]);
    }
    bugs_found.sort_unstable();
    bugs_found.dedup();
    assert_eq!(bugs_found.len(), 3, "{bugs_found:?}");
    // With the three named as known departures, the same run has no unknown divergence.
    let departures = root().join("examples/mini_engine.departures.yaml");
    let departures = departures.to_str().expect("utf-8");
    let (code, k) = conform(&[
        "--impl",
        &all,
        "--random",
        "200",
        "--departures",
        departures,
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{k:#}");
    assert_eq!(k["causes"].as_array().map(Vec::len), Some(0), "{k:#}");
    assert_eq!(k["diverged_games"], 0, "{k:#}");
    assert_eq!(k["known_games"], r["diverged_games"], "{k:#}");
    assert_eq!(k["known_causes"].as_array().map(Vec::len), Some(3), "{k:#}");
    assert_eq!(k["unmatched_departures"].as_array().map(Vec::len), Some(0));
    // --fail-fast stops at the first divergence.
    let (code, r) = conform(&[
        "--impl",
        &all,
        "--random",
        "200",
        "--fail-fast",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 1);
    assert_eq!(r["causes"].as_array().map(Vec::len), Some(1), "{r:#}");
    assert!(r["played"].as_u64().expect("a count") < 200, "{r:#}");
    assert!(
        r["stopped"]
            .as_str()
            .is_some_and(|s| s.contains("--fail-fast"))
    );
    let _ = std::fs::remove_dir_all(&out);
}

/// Attribution over the seeded bugs: with each bug alone, every cause of `--random` names the rule
/// the bug breaks; a wrong ace value is put down to the card values only (`scoring.points.*` and
/// the readings about values), in random games and in every scenario it fails, whatever else the
/// scenario exercises.
#[test]
fn each_seeded_bug_is_attributed_to_the_rule_it_breaks() {
    let out = tmp("attribution");
    let is_value = |r: &str| {
        r.starts_with("scoring.points.")
            || r.starts_with("two-penalty-value")
            || r.starts_with("ace-penalty-value")
            || r.starts_with("readings.two-penalty-value")
            || r.starts_with("readings.ace-penalty-value")
    };
    for (bug, rule) in [
        ("wrap-runs", "runs.wrap-around"),
        ("duplicate-suits", "set-duplicate-suits="),
        ("pusher-no-draw", "pusher-draws="),
        ("ace-points", "ace-penalty-value="),
    ] {
        let imp = format!("{} --bug {bug}", mini());
        let (code, r) = conform(&[
            "--impl",
            &imp,
            "--random",
            "100",
            "--out",
            out.to_str().expect("utf-8"),
        ]);
        assert_eq!(code, 1, "{bug}: {r:#}");
        let causes = r["causes"].as_array().expect("causes");
        assert!(!causes.is_empty(), "{bug}: {r:#}");
        for c in causes {
            let rules: Vec<&str> = c["rules"]
                .as_array()
                .expect("rules")
                .iter()
                .filter_map(Value::as_str)
                .collect();
            assert!(
                rules.iter().any(|n| n.starts_with(rule)),
                "{bug}: {rules:?}"
            );
            if bug == "ace-points" {
                assert!(rules.iter().all(|n| is_value(n)), "{rules:?}");
            }
        }
    }
    let (code, r) = conform(&["--impl", &format!("{} --bug ace-points", mini())]);
    assert_eq!(code, 1);
    let failed = with_verdict(&r, "fail");
    assert!(failed.len() >= 3, "{r:#}");
    for f in failed {
        let rules: Vec<&str> = f["divergence"]["rules"]
            .as_array()
            .expect("rules")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert!(
            !rules.is_empty() && rules.iter().all(|n| is_value(n)),
            "{f:#}"
        );
        assert!(
            rules
                .iter()
                .any(|n| n.contains("ace-penalty-value") || *n == "scoring.points.A"),
            "{f:#}"
        );
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// Known departures: a divergence an entry matches is `known`, not a failure, in the suite and in
/// random games; an entry that matched nothing is reported; a wrong file is bad input that names
/// its line and field.
#[test]
fn known_departures_are_reported_apart_and_stale_ones_are_seen() {
    let dir = tmp("departures");
    let file = dir.join("departures.yaml");
    let write = |text: &str| std::fs::write(&file, text).expect("written");
    let path = file.to_str().expect("utf-8");
    let imp = format!("{} --bug duplicate-suits", mini());
    let (code, plain) = conform(&["--impl", &imp]);
    assert_eq!(code, 1, "{plain:#}");
    let files = |r: &Value, verdict: &str| -> Vec<String> {
        with_verdict(r, verdict)
            .iter()
            .map(|s| s["file"].as_str().expect("a file").to_string())
            .collect()
    };
    let failed = files(&plain, "fail");
    assert!(!failed.is_empty());
    write(
        "departures:\n  - reading: set-duplicate-suits\n    note: sets may repeat a suit\n  - reason: going-out-on-contract-turn\n    note: stale\n",
    );
    let (code, r) = conform(&["--impl", &imp, "--departures", path]);
    assert_eq!(code, 0, "{r:#}");
    assert!(with_verdict(&r, "fail").is_empty(), "{r:#}");
    assert_eq!(files(&r, "known"), failed, "{r:#}");
    assert_eq!(r["summary"]["known"], failed.len(), "{r:#}");
    let unmatched = r["unmatched_departures"].as_array().expect("a list");
    assert_eq!(unmatched.len(), 1, "{r:#}");
    assert!(
        unmatched[0]
            .as_str()
            .is_some_and(|u| u.contains(":4 (reason: going-out-on-contract-turn)")),
        "{r:#}"
    );
    // A departure about something else leaves the failures failed.
    write("departures:\n  - rule: runs.wrap-around\n    note: not this bug\n");
    let (code, r) = conform(&["--impl", &imp, "--departures", path]);
    assert_eq!(code, 1, "{r:#}");
    assert_eq!(files(&r, "fail"), failed, "{r:#}");
    // A wrong file: exit 2, the line and the field named.
    write(
        "departures:\n  - rule: runs.wrap-around\n    note: fine\n  - reading: set-duplicate-suits=maybe\n    note: x\n",
    );
    let out = Command::new(BIN)
        .current_dir(root())
        .args(["conform", "--impl", &imp, "--departures", path])
        .output()
        .expect("push-rummy runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("{path}:4:")), "{err}");
    assert!(err.contains("departures[1].reading"), "{err}");
    assert!(err.contains("maybe"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An implementation of protocol 2 that declares neither reason codes nor meld readings (and
/// leaves them out of its replies) passes on what it does declare, and the report says what was
/// not compared; one of protocol 1 is compared on everything.
#[test]
fn an_implementation_is_compared_on_what_its_hello_declares() {
    let (code, r) = conform(&["--impl", &format!("{} --capabilities events", mini())]);
    assert_eq!(code, 0, "{r:#}");
    assert!(with_verdict(&r, "fail").is_empty(), "{r:#}");
    assert!(with_verdict(&r, "errored").is_empty(), "{r:#}");
    assert!(with_verdict(&r, "pass").len() >= 50, "{r:#}");
    let not_compared: Vec<&str> = r["not_compared"]
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    for what in [
        "reason codes",
        "meld readings",
        "legal-action lists",
        "observations",
    ] {
        assert!(
            not_compared.iter().any(|n| n.contains(what)),
            "{what}: {not_compared:?}"
        );
    }
    assert!(
        !not_compared.iter().any(|n| n.contains("events")),
        "{not_compared:?}"
    );
    // The same engine declaring reason codes too has them compared: they are gone from the list.
    let imp = format!("{} --capabilities events,reason-codes", mini());
    let (_, r) = conform(&["conformance/sets", "--impl", &imp]);
    let listed = r["not_compared"].to_string();
    assert!(
        !listed.contains("reason codes") && listed.contains("meld readings"),
        "{listed}"
    );
}

/// An implementation that picks a rescue's wild itself (its `hello` leaves out `rescue-wild`;
/// here the reference, its `hello` edited on the way) is compared up to each accepted rescue,
/// the rescue's result included, and no further; a refused rescue changes nothing, so the
/// scenario goes on.
#[test]
fn an_implementation_that_picks_the_rescued_wild_is_compared_up_to_the_rescue() {
    let imp = format!("sh -c '{BIN} serve | sed -u s/,\\\"rescue-wild\\\"//'");
    let (code, r) = conform(&["conformance/rescue", "--impl", &imp]);
    assert_eq!(code, 0, "{r:#}");
    assert_eq!(r["summary"]["fail"], 0, "{r:#}");
    assert!(
        r["not_compared"]
            .to_string()
            .contains("play after a rescue"),
        "{r:#}"
    );
    let skipped = with_verdict(&r, "skipped");
    assert!(skipped.len() >= 5, "{r:#}");
    for s in &skipped {
        let why = s["reason"].as_str().unwrap_or_default();
        assert!(
            why.starts_with("compared up to step ")
                && why.ends_with("a rescue: the implementation picks the rescued wild itself"),
            "{s:#}"
        );
    }
    // A scenario whose rescues are all refused is compared to its end.
    let passed: Vec<&str> = with_verdict(&r, "pass")
        .iter()
        .filter_map(|s| s["file"].as_str())
        .collect();
    assert!(
        passed.contains(&"conformance/rescue/rescue-needs-the-right-card.yaml"),
        "{passed:?}"
    );
}

/// `serve` answers `hello` in the version it was offered, 1 or 2; under 2 it declares everything.
#[test]
fn serve_answers_each_protocol_version_in_kind() {
    use std::io::Write as _;
    let mut child = Command::new(BIN)
        .arg("serve")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("serve starts");
    {
        let mut stdin = child.stdin.take().expect("stdin");
        for v in [1, 2, 3] {
            writeln!(stdin, r#"{{"type":"hello","protocol":{v}}}"#).expect("write");
        }
    }
    let out = child.wait_with_output().expect("serve ends");
    let replies: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(replies[0]["protocol"], 1);
    assert!(replies[0].get("reports").is_none());
    assert_eq!(replies[1]["protocol"], 2);
    let reports: Vec<&str> = replies[1]["reports"]
        .as_array()
        .expect("reports")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let all: Vec<&str> = push_rummy::suite::protocol::CAPABILITIES
        .iter()
        .map(|(n, _)| *n)
        .collect();
    assert_eq!(reports, all);
    assert_eq!(replies[2]["type"], "error");
}

/// Each verdict is printed as its scenario ends, not at the end of the run: the first line is
/// there while the second scenario is still waiting for its reply.
#[test]
fn verdicts_are_printed_as_they_come() {
    use std::io::BufRead as _;
    let dir = tmp("streamed");
    let script = hanging_wrapper(&dir);
    let two = dir.join("scenarios");
    std::fs::create_dir_all(&two).expect("a directory");
    copy_scenarios(
        &two,
        &[
            "push/push-to-the-left.yaml",
            "runs/no-turning-the-corner.yaml",
        ],
    );
    let started = Instant::now();
    let mut child = Command::new(BIN)
        .args(["conform", two.to_str().expect("utf-8"), "--impl", &script])
        .args(["--timeout", "1500", "--keep-going"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("push-rummy runs");
    let mut lines = std::io::BufReader::new(child.stdout.take().expect("stdout")).lines();
    let first = lines.next().expect("a line").expect("text");
    // One timeout (1.5 s) in, not two.
    assert!(
        started.elapsed() < Duration::from_millis(2800),
        "{:?}",
        started.elapsed()
    );
    assert!(first.starts_with("ERRORED"), "{first}");
    assert!(
        child.try_wait().expect("a status").is_none(),
        "the first verdict came only at the end"
    );
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    assert!(rest[0].starts_with("ERRORED"), "{rest:?}");
    assert!(child.wait().expect("conform ends").code() == Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}
