//! House scoring rules through the command line: a stated value of aces and twos decides in
//! `score`, overrides the reading in `rules show`, `rules diff` and the fingerprint, and the
//! readings stay what the sources say.

use super::*;

const HOUSE: &str = "extends: push\ngame: cheap-house\nname: Aces 20, twos 25\nscoring:\n  points: {A: 20, \"2\": 25}\n  sides: individual\n  going-out-bonus: 10\n";

#[test]
fn a_stated_value_of_aces_and_twos_decides_and_overrides_the_reading() {
    let dir = TempDir::new("house-scoring");
    let house = dir.write("house.yaml", HOUSE);
    // `score`: the house's own values; a reading given on the command line changes nothing.
    let v = expect(0, &["--json", "--rules", &house, "score", "AS", "2C", "KD"]).json();
    assert_eq!(v["points"], 55);
    let v = expect(
        0,
        &[
            "--json",
            "--rules",
            &house,
            "--reading",
            "two-penalty-value=15",
            "score",
            "2C",
        ],
    )
    .json();
    assert_eq!(v["points"], 25);

    // `rules show`: the stated rules, and the readings marked overridden (and loading back).
    let shown = expect(0, &["rules", "show", &house]).stdout;
    for line in [
        "# stated: overrides the reading of two-penalty-value (20)",
        "# stated: overrides the reading of ace-penalty-value (15)",
        "# stated: overrides the reading of six-ten-partnerships (across)",
        "# overridden by scoring.points.2: 25; this reading decides nothing here",
        "# overridden by scoring.points.A: 20; this reading decides nothing here",
        "# overridden by scoring.sides: individual; this reading decides nothing here",
        "going-out-bonus: 10",
    ] {
        assert!(shown.contains(line), "{line}\n{shown}");
    }
    let again = dir.write("shown.yaml", &shown);
    expect(0, &["rules", "check", &again]);
    let v = expect(0, &["--json", "rules", "show", &house]).json();
    assert_eq!(v["rules"]["scoring.points.2"], 25);
    assert_eq!(
        v["overridden"]["two-penalty-value"],
        serde_json::json!(["scoring.points.2: 25"])
    );

    // `rules diff`: an unset rule says the reading decides.
    let o = expect(1, &["rules", "diff", "push", &house]);
    assert!(
        o.stdout.contains(
            "scoring.points.2: (unset: the reading of two-penalty-value decides, 20) | 25"
        ),
        "{}",
        o.stdout
    );
    let o = expect(1, &["rules", "diff", "source-002", &house]);
    assert!(
        o.stdout
            .contains("dispute two-penalty-value: 15 | 20 (overridden by scoring.points.2: 25)"),
        "{}",
        o.stdout
    );
}

#[test]
fn a_stated_value_changes_the_fingerprint() {
    let dir = TempDir::new("house-fingerprint");
    let scenario = |two: &str| {
        format!(
            "title: t\nrules: {{extends: push, name: n{two}}}\ntable: {{players: 4}}\ncards: {{hands: {{0: 9C, 1: 2C, 2: 4C, 3: AH}}, rest: stock, turn: 0, stage: play}}\nsteps: []\n"
        )
    };
    let plain = dir.write("plain.yaml", &scenario(""));
    let stated = dir.write("stated.yaml", &scenario(", scoring: {points: {\"2\": 20}}"));
    let fp = |f: &str| expect(0, &["--json", "replay", f]).json()["rules"]["fingerprint"].clone();
    // The same value as the reading, stated: the rules differ, and so does the fingerprint.
    assert_ne!(fp(&plain), fp(&stated));
}

#[test]
fn disputes_show_names_what_overrides_a_reading() {
    let o = expect(0, &["disputes", "show", "capit-third-deck"]);
    assert!(
        o.stdout
            .contains("states its own value: six-to-ten (decks.large-table.from-players: 4)"),
        "{}",
        o.stdout
    );
    // six-to-ten states its own value: it is not listed as a user of a reading.
    let used: Vec<&str> = o
        .stdout
        .lines()
        .filter(|l| l.contains("used by:"))
        .collect();
    assert!(used.iter().all(|l| !l.contains("six-to-ten")), "{used:?}");
    let o = expect(0, &["disputes", "show", "two-penalty-value"]);
    assert!(
        o.stdout
            .contains("a rule set may state its own value instead: scoring.points.2"),
        "{}",
        o.stdout
    );
    let v = expect(0, &["--json", "disputes", "show", "two-penalty-value"]).json();
    assert_eq!(
        v["overriding_rules"],
        serde_json::json!(["scoring.points.2"])
    );
}

#[test]
fn partnerships_the_players_cannot_form_are_refused() {
    let dir = TempDir::new("house-sides");
    let bad = dir.write(
        "bad.yaml",
        "extends: cap-it\ngame: teams\nscoring:\n  sides: partnerships\n",
    );
    let o = expect(2, &["rules", "check", &bad]);
    assert!(
        o.stderr
            .contains("partnerships need an even number of players"),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("bad.yaml:4:10"), "{}", o.stderr);
    let good = dir.write(
        "good.yaml",
        "extends: cap-it\ngame: teams\nplayers: {count: 6}\nscoring:\n  sides: partnerships\n",
    );
    expect(0, &["rules", "check", &good]);
    // Partnerships inherited, three players given here: the problem points at this file.
    let three = dir.write(
        "three.yaml",
        "extends: good.yaml\ngame: three\nplayers:\n  count: 3\n",
    );
    let o = expect(2, &["rules", "check", &three]);
    assert!(o.stderr.contains("three.yaml:4:10"), "{}", o.stderr);
    assert!(
        o.stderr.contains("scoring.sides is inherited from"),
        "{}",
        o.stderr
    );
}
