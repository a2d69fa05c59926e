//! `--reading`: every dispute and reading of the register is accepted, and an unknown one names the
//! valid ones; the `disputes` command shows the register.

use super::*;

#[test]
fn every_dispute_and_reading_of_the_register_is_accepted() {
    let register = register();
    // The ids in the register are the `readings.` keys of the resolved rules, in the same number.
    let v = expect(0, &["--json", "rules", "show"]).json();
    let shown: BTreeSet<String> = v["rules"]
        .as_object()
        .unwrap()
        .keys()
        .filter_map(|k| k.strip_prefix("readings.").map(str::to_string))
        .collect();
    let ids: BTreeSet<String> = register.iter().map(|(id, _)| id.clone()).collect();
    assert_eq!(ids.len(), register.len(), "a dispute id is repeated");
    assert_eq!(shown, ids);
    assert!(ids.len() >= 30, "{ids:?}");

    let mut pairs = 0;
    for (id, names) in &register {
        assert!(
            names.len() >= 2 || id == "ace-penalty-value",
            "{id}: {names:?}"
        );
        for name in names {
            let arg = format!("{id}={name}");
            let out = expect(0, &["--reading", &arg, "meld", "3S", "3H", "3D"]);
            assert!(
                out.stdout.starts_with("valid meld"),
                "{arg}: {}",
                out.stdout
            );
            let v = expect(0, &["--json", "--reading", &arg, "rules", "show"]).json();
            assert_eq!(v["rules"][format!("readings.{id}")], name.as_str(), "{arg}");
            pairs += 1;
        }
        // A reading that does not exist names exactly the register's readings.
        let out = expect(
            2,
            &["--reading", &format!("{id}=no-such-reading"), "score", "AS"],
        );
        let listed: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
        assert!(
            out.stderr
                .contains(&format!("the readings are {}", listed.join(", "))),
            "{id}: {}",
            out.stderr
        );
    }
    assert!(pairs >= 2 * ids.len() - 1, "{pairs}");
}

#[test]
fn an_unknown_dispute_lists_the_valid_ids() {
    let out = expect(
        2,
        &["--reading", "jokers-as-aces=yes", "meld", "3S", "3H", "3D"],
    );
    assert!(
        out.stderr.contains("unknown dispute `jokers-as-aces`"),
        "{}",
        out.stderr
    );
    for (id, _) in register() {
        assert!(
            out.stderr.contains(&id),
            "{id} missing from: {}",
            out.stderr
        );
    }
    assert!(out.stdout.is_empty(), "{}", out.stdout);

    let v = expect(
        2,
        &["--json", "--reading", "two-penalty-valu=15", "score", "AS"],
    )
    .json();
    assert_eq!(v["error"], "unknown dispute `two-penalty-valu`");
    assert!(
        v["hint"]
            .as_str()
            .unwrap()
            .contains("did you mean `two-penalty-value`?"),
        "{v}"
    );
}

#[test]
fn an_unknown_reading_names_the_valid_readings() {
    let out = expect(
        2,
        &[
            "--reading",
            "two-penalty-value=99",
            "meld",
            "3S",
            "3H",
            "3D",
        ],
    );
    assert!(
        out.stderr
            .contains("`99` is not a reading of dispute `two-penalty-value`"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("the readings are `20`, `15`"),
        "{}",
        out.stderr
    );

    let out = expect(2, &["--reading", "two-penalty-value", "score", "AS"]);
    assert!(out.stderr.contains("is not ID=READING"), "{}", out.stderr);
}

#[test]
fn disputes_lists_and_shows_the_register() {
    let list = expect(0, &["--json", "disputes"]).json();
    let all = list["disputes"].as_array().unwrap();
    assert_eq!(all.len(), 33);
    assert_eq!(all[0]["id"], "two-penalty-value");
    assert_eq!(all[0]["defaults"]["push"], "20");
    let text = expect(0, &["disputes", "show", "two-penalty-value"]).stdout;
    assert!(text.contains("reading `15`"), "{text}");
    assert!(text.contains("002:"), "{text}");
    assert!(text.contains("used by: source-002"), "{text}");
    let shown = expect(0, &["--json", "disputes", "show", "frozen-two"]).json();
    assert_eq!(shown["dispute"]["readings"][1]["name"], "position");
    let bad = expect(2, &["disputes", "show", "frozen-tw"]);
    assert!(
        bad.stderr.contains("did you mean `frozen-two`"),
        "{}",
        bad.stderr
    );
}
