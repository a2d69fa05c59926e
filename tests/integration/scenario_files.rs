//! Scenario files as input: every problem is a diagnostic with file, line, field path and a hint
//! (never a panic), and `push-rummy replay` exits 0 / 1 / 2 as documented, with `--check` and
//! `--bless` keeping goldens next to scenarios.

use push_rummy::suite::scenario::load_text;
use push_rummy::suite::transcript::{self, replay};
use std::path::Path;
use std::process::Command;

const GOOD: &str = r#"
title: a small scenario
rules: push
table: {players: 4, dealer: 0, round: 1}
cards:
  hands: {1: 9D 4C 5C}
  discard: 8H
  stock: 4S 5D
  rest: stock
  turn: 1
steps:
  - {seat: 1, do: push, expect: ok, check: {hand: {1: 9D 4C 5C 5D}, stock-top: AS}}
  - {seat: 1, do: discard 9D, expect: ok, check: {discard-top: 9D}}
exercises:
  sources: ["000"]
  rules: [push.to]
  disputes: [pusher-draws=yes]
"#;

/// The diagnostics of a scenario text, one line each.
fn problems(text: &str) -> String {
    match load_text("s.yaml", text, Path::new("."), &[]) {
        Ok(_) => panic!("the scenario should not load:\n{text}"),
        Err(e) => e.diagnostics.to_string(),
    }
}

#[test]
fn a_good_scenario_loads_and_holds() {
    let s =
        load_text("s.yaml", GOOD, Path::new("."), &[]).unwrap_or_else(|e| panic!("{}", e.render()));
    let r = replay(&s);
    assert!(r.failures.is_empty(), "{:?}", r.failures);
    assert_eq!(r.transcript.steps.len(), 2);
    assert_eq!(r.transcript.steps[0].state.hands[2], vec!["4S", "8H"]);
}

/// An action or a meld that cannot be read is marked at the word the reader stumbled on, even
/// where the same text stands earlier on the line.
#[test]
fn an_unreadable_word_is_marked_where_it_stands() {
    for (from, to, word) in [
        ("do: discard 9D", "do: \"lay-off 1 [1H 1]\"", "1]"),
        ("do: discard 9D", "do: \"discard  9X\"", "9X"),
        (
            "turn: 1",
            "turn: 1\n  table: [{0: \"set [7S 7H 7X]\"}]",
            "7X",
        ),
    ] {
        let text = GOOD.replace(from, to);
        let (line, l) = (text.lines().enumerate())
            .find(|(_, l)| l.contains(to.rsplit('\n').next().unwrap_or(to)))
            .expect("the changed line");
        // Columns count characters from 1; the word is the last of its kind on the line.
        let column = l[..l.rfind(word).expect("the word")].chars().count() + 1;
        let want = format!("s.yaml:{}:{column}:", line + 1);
        let got = problems(&text);
        assert!(got.contains(&want), "{to}: want {want} in\n{got}");
    }
}

/// Each change to [`GOOD`] in [`BAD_INPUT`] is reported: the problems start with the file's name
/// and contain what the change's `want` names. An empty `want` marks a change that is allowed.
#[test]
fn bad_input_is_reported_with_line_field_and_hint() {
    for (change, want) in BAD_INPUT {
        let text = GOOD.replacen(change.0, change.1, 1);
        assert_ne!(text, GOOD, "the change {change:?} applies");
        if want.is_empty() {
            // Allowed: a seed for later deals next to an explicit position.
            assert!(load_text("s.yaml", &text, Path::new("."), &[]).is_ok());
            continue;
        }
        let p = problems(&text);
        assert!(p.contains(want), "{change:?}:\n{p}\nshould contain: {want}");
        assert!(p.starts_with("s.yaml:"), "{p}");
    }
}

/// Changes to [`GOOD`] (the text replaced, and what replaces it), each with what the problems
/// reported must contain (nothing for a change that is allowed).
const BAD_INPUT: [((&str, &str), &str); 23] = [
    (
        ("title: a small scenario", "titel: x"),
        "s.yaml:2:1: titel: unknown key `titel` (hint: did you mean `title`?)",
    ),
    (
        ("hands: {1: 9D 4C 5C}", "hands: {1: 9D 4C 11C}"),
        "cards.hands.1: cannot read card `11C`",
    ),
    (
        ("hands: {1: 9D 4C 5C}", "hands: {7: 9D}"),
        "cards.hands.7: seat 7 is not at the table (hint: 4 players sit in seats 0 to 3)",
    ),
    (
        ("do: discard 9D", "do: discard 9X"),
        "steps[1].do: cannot read the action `discard 9X`",
    ),
    (
        (
            "do: push, expect: ok",
            "do: push, expect: {rejected: no-such-code}",
        ),
        "steps[0].expect.rejected: unknown reason code `no-such-code`",
    ),
    (
        (
            "do: push, expect: ok",
            "do: push, expect: {rejected: must-draw-frist}",
        ),
        "did you mean `must-draw-first`?",
    ),
    (
        ("rules: push", "rules: pushh"),
        "no built-in rule set or file named",
    ),
    (
        ("rules: [push.to]", "rules: [push.too]"),
        "exercises.rules[0]: unknown rule `push.too` (hint: did you mean `push.to`?)",
    ),
    (
        ("sources: [\"000\"]", "sources: [\"004\"]"),
        "exercises.sources[0]: unknown source `004`",
    ),
    (
        (
            "disputes: [pusher-draws=yes]",
            "disputes: [pusher-draws=maybe]",
        ),
        "`maybe` is not a reading of dispute `pusher-draws`",
    ),
    (
        ("stock: 4S 5D", "stock: 4S 5D 9D 9D"),
        "cards: the cards are not the pack of Push Rummy for 4 players (108 cards): 9D is placed 3 times (hand of seat 1, stock) but the pack has 2",
    ),
    (
        ("  rest: stock\n", ""),
        "card(s) of the pack are not placed: AS AS",
    ),
    (
        (
            "table: {players: 4, dealer: 0, round: 1}",
            "table: {players: 4, dealer: 0, round: 9}",
        ),
        "Push Rummy has 5 deal(s); deal 9 does not exist",
    ),
    (
        (
            "table: {players: 4, dealer: 0, round: 1}",
            "table: {players: 3}",
        ),
        "Push Rummy is played by 4 to 4 players, not 3",
    ),
    (
        ("turn: 1", "turn: 1\n  taken: 8H"),
        "cards.taken: a card is taken from the discard pile only once the draw is made",
    ),
    (
        ("turn: 1", "turn: 1\n  table: [{0: \"set [7S 7H 8D]\"}]"),
        "cards.table[0]: meld 0 (7S 7H 8D) is not a meld",
    ),
    (
        ("turn: 1", "turn: 1\n  table: [{0: \"run [9H JK JK]\"}]"),
        "can be read 3 ways",
    ),
    (
        ("rules: push", "rules: {extends: push, sets: {min-sise: 3}}"),
        "rules.sets.min-sise: unknown key `min-sise`",
    ),
    (
        (
            "rules: push",
            "rules: {extends: push, readings: {set-max-size: five}}",
        ),
        "`five` is not a reading of dispute `set-max-size`",
    ),
    (
        ("rules: push", "rules: push\nreadings: {pusher-draw: no}"),
        "readings.pusher-draw: unknown dispute `pusher-draw` (hint: did you mean `pusher-draws`?)",
    ),
    (
        (
            "  - {seat: 1, do: discard 9D, expect: ok, check: {discard-top: 9D}}",
            "  - {seat: 1}",
        ),
        "a seat acts only with an action",
    ),
    (
        ("check: {discard-top: 9D}", "check: {discard-tops: 9D}"),
        "did you mean `discard-top`?",
    ),
    (("cards:\n  hands", "cards:\n  seed: 3\n  hands"), ""),
];

#[test]
fn garbage_never_panics() {
    for text in [
        "",
        "[]",
        "title: 3",
        "steps: 5",
        "cards: {hands: 3}",
        ":",
        "rules: {extends: push, game: \"x y\"}",
        "title: t\nrules: push\ncards: {seed: -1}\nsteps: []\nexercises: {}",
        "\0",
    ] {
        let _ = load_text("s.yaml", text, Path::new("."), &[]);
    }
}

#[test]
fn transcripts_are_deterministic_and_json_keys_are_sorted() {
    let s = load_text("s.yaml", GOOD, Path::new("."), &[]).unwrap();
    let (a, b) = (replay(&s), replay(&s));
    assert_eq!(a.transcript.text(), b.transcript.text());
    let json = serde_json::to_string(&a.transcript.json()).unwrap();
    fn sorted(v: &serde_json::Value) -> bool {
        match v {
            serde_json::Value::Object(m) => {
                let keys: Vec<&String> = m.keys().collect();
                keys.windows(2).all(|w| w[0] < w[1]) && m.values().all(sorted)
            }
            serde_json::Value::Array(a) => a.iter().all(sorted),
            _ => true,
        }
    }
    assert!(sorted(&serde_json::from_str(&json).unwrap()));
    // The fingerprint hashes the documented listing of the resolved rules.
    let listing = transcript::rules_listing(&s.rules.raw);
    assert!(
        listing.contains("push.to=left\n") && listing.contains("readings.pusher-draws=yes\n"),
        "{listing}"
    );
    assert!(!listing.contains("game=") && !listing.contains("name="));
    assert_eq!(
        a.transcript.rules.fingerprint,
        format!("fnv1a64:{:016x}", transcript::fnv1a64(listing.as_bytes()))
    );
}

#[test]
fn a_failed_expectation_is_reported_with_its_step() {
    let text = GOOD.replace("check: {discard-top: 9D}", "check: {discard-top: 9C}");
    let s = load_text("s.yaml", &text, Path::new("."), &[]).unwrap();
    let r = replay(&s);
    assert_eq!(r.failures.len(), 1, "{:?}", r.failures);
    assert_eq!(r.failures[0].step, 2);
    assert!(
        r.failures[0].message.contains("discard-top 9C"),
        "{:?}",
        r.failures
    );
    assert!(!r.transcript.outcome.held);
    let text = GOOD.replace(
        "do: discard 9D, expect: ok",
        "do: discard 9D, expect: {rejected: must-discard}",
    );
    let r = replay(&load_text("s.yaml", &text, Path::new("."), &[]).unwrap());
    assert!(
        r.failures[0]
            .message
            .contains("was accepted; expected rejected must-discard"),
        "{:?}",
        r.failures
    );
    let text = GOOD.replace("do: discard 9D, expect: ok", "do: discard 7C");
    let r = replay(&load_text("s.yaml", &text, Path::new("."), &[]).unwrap());
    assert!(
        r.failures[0].message.contains("rejected card-not-in-hand"),
        "{:?}",
        r.failures
    );
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_push-rummy"))
}

#[test]
fn replay_exit_codes_check_and_bless() {
    let dir = std::env::temp_dir().join(format!("push-rummy-replay-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let good = dir.join("sub/good.yaml");
    std::fs::write(&good, GOOD).unwrap();
    let run = |args: &[&str]| {
        let o = bin().args(args).output().unwrap();
        (
            o.status.code().unwrap(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let g = good.to_str().unwrap();
    let (code, out, _) = run(&["replay", g]);
    assert_eq!(code, 0);
    assert!(out.starts_with("push-rummy-transcript 1\n"), "{out}");
    let (code, out, _) = run(&["replay", "--json", g]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["steps"][0]["action"], "push");
    // No golden yet: 2.
    let d = dir.to_str().unwrap();
    let (code, _, err) = run(&["replay", "--check", d]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no golden transcript"), "{err}");
    // Bless writes it next to the scenario; check then passes.
    let (code, out, _) = run(&["replay", "--bless", d]);
    assert_eq!(code, 0, "{out}");
    assert!(dir.join("sub/good.snap").exists());
    let (code, out, _) = run(&["replay", "--check", d]);
    assert_eq!(code, 0, "{out}");
    // A changed golden: 1, with a diff.
    let snap = std::fs::read_to_string(dir.join("sub/good.snap")).unwrap();
    std::fs::write(
        dir.join("sub/good.snap"),
        snap.replace("stock: ", "stock:  "),
    )
    .unwrap();
    let (code, out, _) = run(&["replay", "--check", g]);
    assert_eq!(code, 1);
    assert!(
        out.contains("DIFFERS") && out.contains("\n-  stock:  ") && out.contains("\n+  stock: "),
        "{out}"
    );
    // A failed expectation: 1, naming file, line and step.
    let bad = dir.join("bad.yaml");
    std::fs::write(
        &bad,
        GOOD.replace("check: {discard-top: 9D}", "check: {discard-top: 9C}"),
    )
    .unwrap();
    let (code, _, err) = run(&["replay", bad.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        err.contains("bad.yaml:13: step 2: check `discard-top 9C` does not hold"),
        "{err}"
    );
    // Bad input: 2, rendered with a caret.
    std::fs::write(&bad, GOOD.replace("9D 4C 5C}", "9D 4C 5Q}")).unwrap();
    let (code, _, err) = run(&["replay", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("cannot read card `5Q`") && err.contains("^"),
        "{err}"
    );
    let (code, _, _) = run(&["replay", dir.join("missing.yaml").to_str().unwrap()]);
    assert_eq!(code, 2);
    let (code, _, err) = run(&["replay", d]);
    assert_eq!(code, 2, "a directory needs --check: {err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A bad card in a card text, or a bad card in an action, is marked where it stands on its line,
/// not at the start of the value: the diagnostic's column is the bad word's.
#[test]
fn a_bad_card_is_marked_at_its_own_column() {
    let at = |text: &str, word: &str| -> (u32, u32) {
        let e = match load_text("s.yaml", text, Path::new("."), &[]) {
            Ok(_) => panic!("should not load"),
            Err(e) => e,
        };
        let d = e
            .diagnostics
            .0
            .iter()
            .find(|d| d.message.contains(word))
            .unwrap_or_else(|| panic!("no problem names {word}: {}", e.diagnostics));
        (d.line, d.column)
    };
    let column_of = |text: &str, line: u32, word: &str| -> u32 {
        let l = text.lines().nth(line as usize - 1).unwrap();
        u32::try_from(l.find(word).unwrap() + 1).unwrap()
    };
    let hands = GOOD.replace("{1: 9D 4C 5C}", "{1: 9D 4C 5C JKX}");
    let (line, column) = at(&hands, "`JKX`");
    assert_eq!(column, column_of(&hands, line, "JKX"));
    let action = GOOD.replace("do: discard 9D,", "do: \"discard 11D\",");
    let (line, column) = at(&action, "`11D`");
    assert_eq!(column, column_of(&action, line, "11D"));
    // A card given as a list item keeps the item's own place.
    let listed = GOOD.replace("{1: 9D 4C 5C}", "{1: [9D, 4C, QQ]}");
    let (line, column) = at(&listed, "`QQ`");
    assert_eq!(column, column_of(&listed, line, "QQ"));
}

/// A scenario as a player writes one to settle an argument: no `exercises`, `expect: rejected`
/// without knowing the code, the whole stock checked, and the hands as the hand ended.
#[test]
fn a_players_scenario_needs_no_codes_and_no_exercises() {
    let text = r#"
title: the contract goes down and the hand ends at once
rules: push
table: {players: 4, dealer: 0, round: 1}
cards:
  hands: {1: 7C 7H 7D KC KH KD, 2: 9S 4H}
  stock: 5D 6D
  discard: 3C
  rest: stock
  turn: 1
  stage: play
steps:
  - {seat: 1, do: discard 5D, expect: rejected}
  - {check: {stock: 5D 6D AS AS 2S 2S 3S 3S 4S 4S 5S 5S 6S 6S 7S 7S 8S 8S 9S 10S 10S JS JS QS QS KS KS AH AH 2H 2H 3H 3H 4H 5H 5H 6H 6H 7H 8H 8H 9H 9H 10H 10H JH JH QH QH KH AD AD 2D 2D 3D 3D 4D 4D 5D 6D 7D 8D 8D 9D 9D 10D 10D JD JD QD QD KD AC AC 2C 2C 3C 4C 4C 5C 5C 6C 6C 7C 8C 8C 9C 9C 10C 10C JC JC QC QC KC JK JK JK JK}}
  - {seat: 1, do: "meld [7C 7H 7D] [KC KH KD]", expect: ok}
  - check: {last-hand: {end: went-out 1, points: [10, 0], hands: {1: none, 2: 9S 4H}}}
"#;
    let s = load_text("ours.yaml", text, Path::new("."), &[])
        .unwrap_or_else(|e| panic!("{}", e.render()));
    assert!(s.exercises.disputes.is_empty());
    let r = replay(&s);
    assert!(r.failures.is_empty(), "{:?}", r.failures);
    // The transcript records the code all the same.
    let first = &r.transcript.steps[0];
    assert_eq!(first.expect.as_deref(), Some("rejected"));
    assert!(first.result.as_ref().is_some_and(|x| x.reason.is_some()));

    // Each check fails where it should, and says what was found.
    let wrong = text
        .replace("hands: {1: none, 2: 9S 4H}", "hands: {2: 9S 4D}")
        .replace("{stock: 5D 6D AS", "{stock: 6D 5D AS")
        .replace("discard 5D, expect: rejected", "discard 5D, expect: ok");
    let s = load_text("ours.yaml", &wrong, Path::new("."), &[]).unwrap();
    let failures: Vec<String> = replay(&s).failures.into_iter().map(|f| f.message).collect();
    assert_eq!(failures.len(), 3, "{failures:#?}");
    assert!(failures[0].contains("expected ok"), "{failures:?}");
    assert!(failures[1].contains("stock: 5D 6D AS"), "{failures:?}");
    assert!(
        failures[2].contains("found `last-hand went-out 1 points [10 0] hand 2: 9S 4H`"),
        "{failures:?}"
    );
}
