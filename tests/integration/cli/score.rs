//! `score`: the points of cards under the readings, and cards the pack cannot hold.

use super::*;

#[test]
fn score_counts_points_under_the_readings() {
    let v = expect(0, &["--json", "score", "2C", "KD"]).json();
    assert_eq!(v["points"], 30);
    assert_eq!(v["rules"], "push");
    let per: Vec<(String, u64)> = v["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["card"].as_str().unwrap().into(),
                c["points"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(per, [("2C".to_string(), 20), ("KD".to_string(), 10)]);

    // The dispute two-penalty-value: source 002 scores a two at 15.
    let v = expect(
        0,
        &[
            "--json",
            "--reading",
            "two-penalty-value=15",
            "score",
            "2C",
            "KD",
        ],
    )
    .json();
    assert_eq!(v["points"], 25);
    assert_eq!(v["cards"][0]["points"], 15);
    let v = expect(0, &["--json", "--rules", "source-002", "score", "2C", "KD"]).json();
    assert_eq!(v["points"], 25);

    assert_eq!(expect(0, &["--json", "score", "AS"]).json()["points"], 15);
    assert_eq!(expect(0, &["--json", "score", "JK"]).json()["points"], 20);
    assert_eq!(
        expect(0, &["--json", "--rules", "club-marathon", "score", "JK"]).json()["points"],
        25
    );
    let out = expect(0, &["score", "AS"]);
    assert_eq!(out.stdout, "15 points (A♠ 15)\n");
    let out = expect(0, &["score", "2C", "KD"]);
    assert_eq!(out.stdout, "30 points (2♣ 20, K♦ 10)\n");
}

#[test]
fn score_of_no_cards_is_0_points() {
    // The player who went out holds nothing.
    let out = expect(0, &["score"]);
    assert_eq!(out.stdout, "0 points (no cards)\n");
    let v = expect(0, &["--json", "score"]).json();
    assert_eq!(v["points"], 0);
    assert_eq!(v["cards"], serde_json::json!([]));
    assert_eq!(expect(0, &["--json", "score", ""]).json()["points"], 0);
}

#[test]
fn score_rejects_what_is_not_a_plain_card_of_the_pack() {
    expect(2, &["score", "ZZ"]);
    let out = expect(2, &["score", "JK=7"]);
    assert!(out.stderr.contains("plain cards"), "{}", out.stderr);
    expect(1, &["--rules", "six-to-ten", "score", "JK"]);
    expect(1, &["score", "3S", "3S", "3S"]);
}

/// `score` of cards the pack cannot hold answers 1 (as `meld` and `contract` do), and the
/// message counts every copy given, past the 255 a hand's counts hold. `explain --suite` must
/// name a directory.
#[test]
fn impossible_cards_are_counted_and_a_missing_suite_is_bad_input() {
    let out = expect(1, &["score", "9H", "9H", "9H"]);
    assert!(
        out.stdout.contains("2 × 9♥, and 3 were given"),
        "{}",
        out.stdout
    );
    let many: Vec<&str> = vec!["9H"; 1000];
    let mut args = vec!["score"];
    args.extend(&many);
    let out = expect(1, &args);
    assert!(out.stdout.contains("1000 were given"), "{}", out.stdout);
    let v = expect(1, &["--json", "score", "JK", "JK", "JK", "JK", "JK"]).json();
    assert!(v["error"].as_str().unwrap().contains("5 were given"), "{v}");
    let out = expect(
        2,
        &["explain", "not-your-turn", "--suite", "/no/such/suite"],
    );
    assert!(
        out.stderr.contains("--suite /no/such/suite"),
        "{}",
        out.stderr
    );
}
