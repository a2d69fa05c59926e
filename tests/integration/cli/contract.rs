//! `contract`: melds given against a deal's contract, the search of a hand, and the JSON answers.

use super::*;

#[test]
fn contract_with_valid_melds_is_satisfied() {
    let v = expect(
        0,
        &["--json", "contract", "--round", "1", "3S 3H 3D", "7C 7H 7D"],
    )
    .json();
    assert_eq!(v["satisfied"], true);
    assert_eq!(v["round"], 1);
    assert_eq!(strings(&v["contract"]), ["set of 3", "set of 3"]);
    assert_eq!(strings(&v["assignment"]), ["set of 3", "set of 3"]);
    assert_eq!(v["reason"], Value::Null);
    let out = expect(0, &["contract", "--round", "1", "3S 3H 3D", "7C 7H 7D"]);
    assert_eq!(out.stdout, "contract set of 3 + set of 3 satisfied\n");

    // Round 2 with a run, melds in either order.
    expect(0, &["contract", "--round", "2", "9H 10H JH QH", "3S 3H 3D"]);
}

#[test]
fn contract_with_an_invalid_meld_is_not_satisfied() {
    let v = expect(
        1,
        &["--json", "contract", "--round", "1", "3S 3H 3D", "7C 7H 7H"],
    )
    .json();
    assert_eq!(v["satisfied"], false);
    let reason = v["reason"].as_str().unwrap();
    assert!(reason.contains("meld 2"), "{reason}");
    assert!(reason.contains("7♣ 7♥ 7♥"), "{reason}");
    let out = expect(1, &["contract", "--round", "1", "3S 3H 3D", "7C 7H 7H"]);
    assert!(
        out.stdout.starts_with("not satisfied: meld 2"),
        "{}",
        out.stdout
    );

    // Too few melds.
    expect(1, &["contract", "--round", "1", "3S 3H 3D"]);
}

#[test]
fn contract_round_out_of_range_is_bad_input() {
    let out = expect(2, &["contract", "--round", "9", "3S 3H 3D", "7C 7H 7D"]);
    assert!(out.stderr.contains("deals 1 to 5"), "{}", out.stderr);
    expect(2, &["contract", "--round", "0", "3S 3H 3D", "7C 7H 7D"]);
    // Club marathon has seven.
    expect(
        2,
        &[
            "--rules",
            "club-marathon",
            "contract",
            "--round",
            "8",
            "--hand",
            "3S",
        ],
    );
    expect(2, &["contract", "--round", "x", "3S 3H 3D"]);
    // Neither melds nor a hand; both.
    expect(2, &["contract", "--round", "1"]);
    expect(2, &["contract", "--round", "1", "--hand", "3S", "3S 3H 3D"]);
}

/// Checks a `--hand` answer: found, laydown melds named after the contract, cards from the hand,
/// and each meld valid by itself.
fn check_laydown(round: &str, hand: &str) {
    let v = expect(0, &["--json", "contract", "--round", round, "--hand", hand]).json();
    assert_eq!(v["found"], true, "{v}");
    let contract = strings(&v["contract"]);
    let laydown = v["laydown"].as_array().unwrap();
    let mut named: Vec<String> = laydown
        .iter()
        .map(|m| m["meld"].as_str().unwrap().to_string())
        .collect();
    let mut want = contract.clone();
    named.sort();
    want.sort();
    assert_eq!(named, want, "{v}");

    let hand_cards: Vec<String> = hand.split_whitespace().map(str::to_uppercase).collect();
    let have = multiset(&hand_cards);
    let used: Vec<String> = laydown.iter().flat_map(|m| strings(&m["cards"])).collect();
    for (card, n) in multiset(&used) {
        assert!(
            have.get(&card).copied().unwrap_or(0) >= n,
            "{card} × {n} is not in the hand {hand}: {v}"
        );
    }
    for m in laydown {
        let kind = m["meld"].as_str().unwrap().split(' ').next().unwrap();
        let size: usize = m["meld"]
            .as_str()
            .unwrap()
            .rsplit(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let cards = strings(&m["cards"]);
        assert!(cards.len() >= size, "{m}");
        let mut args = vec!["meld", "--as", kind];
        args.extend(cards.iter().map(String::as_str));
        expect(0, &args);
    }
}

#[test]
fn contract_hand_search_finds_a_laydown_from_the_hand() {
    check_laydown("2", "3S 3H 3D 9H 10H JH QH KC");
    check_laydown("2", "KC 3S 9H JH 3D QH 10H 3H"); // any order
    check_laydown("1", "3S 3H JK 7C 7D 2S 9H");
    check_laydown("3", "4S 5S 6S 7S 9D 10D JD QD");
    let text = expect(
        0,
        &[
            "contract",
            "--round",
            "2",
            "--hand",
            "3S 3H 3D 9H 10H JH QH KC",
        ],
    );
    let lines: Vec<&str> = text.stdout.lines().collect();
    assert_eq!(
        lines[0], "contract set of 3 + run of 4 can be met:",
        "{}",
        text.stdout
    );
    assert_eq!(lines.len(), 3, "{}", text.stdout);
    assert!(
        lines[1..].iter().any(|l| l.starts_with("  set of 3: ")),
        "{}",
        text.stdout
    );
    assert!(
        lines[1..].iter().any(|l| l.starts_with("  run of 4: ")),
        "{}",
        text.stdout
    );
}

#[test]
fn contract_hand_that_cannot_meet_it() {
    let v = expect(
        1,
        &[
            "--json",
            "contract",
            "--round",
            "2",
            "--hand",
            "3S 4H 6D 9H 10H 8C QH KC",
        ],
    )
    .json();
    assert_eq!(v["found"], false);
    assert_eq!(v["laydown"].as_array().unwrap().len(), 0);
    let out = expect(
        1,
        &[
            "contract",
            "--round",
            "2",
            "--hand",
            "3S 4H 6D 9H 10H 8C QH KC",
        ],
    );
    assert!(out.stdout.contains("cannot be met"), "{}", out.stdout);
    // A hand the pack cannot deal.
    expect(
        1,
        &["contract", "--round", "1", "--hand", "3S 3S 3S 7C 7H 7D"],
    );
    expect(
        1,
        &[
            "--rules",
            "six-to-ten",
            "contract",
            "--round",
            "1",
            "--hand",
            "JK 3S 3H",
        ],
    );
    expect(2, &["contract", "--round", "1", "--hand", "3S 3H ZZ"]);
}

#[test]
fn contract_sizes_exact_rejects_a_longer_meld() {
    let melds = ["contract", "--round", "1", "3S 3H 3D 3C", "7C 7H 7D"];
    expect(0, &melds);
    let mut exact = vec!["--reading", "contract-sizes=exact", "--json"];
    exact.extend(melds);
    let v = expect(1, &exact).json();
    assert_eq!(v["satisfied"], false);
    assert!(
        v["reason"]
            .as_str()
            .unwrap()
            .contains("contract-sizes=exact"),
        "{v}"
    );
    expect(
        0,
        &[
            "--reading",
            "contract-sizes=exact",
            "contract",
            "--round",
            "1",
            "3S 3H 3D",
            "7C 7H 7D",
        ],
    );
}

#[test]
fn contract_melds_together_must_fit_the_pack() {
    // Three 3♠ (and three of every other 3) in a two-deck game.
    expect(
        1,
        &[
            "contract", "--round", "4", "3S 3H 3D", "3S 3H 3C", "3S 3D 3C",
        ],
    );
    // Five jokers in a game with four.
    expect(1, &["contract", "--round", "1", "JK JK JK", "JK JK 5S"]);
}

#[test]
fn json_answers_have_the_same_fields_whatever_the_verdict() {
    let keys = |args: &[&str], code: i32| -> BTreeSet<String> {
        expect(code, args)
            .json()
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect()
    };
    let meld_ok = keys(&["--json", "meld", "3S", "3H", "3D"], 0);
    assert_eq!(keys(&["--json", "meld", "3S", "3H", "9D"], 1), meld_ok);
    assert_eq!(keys(&["--json", "meld", "7H", "7H", "7H"], 1), meld_ok);
    let contract_ok = keys(
        &["--json", "contract", "--round", "1", "3S 3H 3D", "7C 7H 7D"],
        0,
    );
    assert_eq!(
        keys(
            &["--json", "contract", "--round", "1", "3S 3H 3D", "7C 7H 9D"],
            1
        ),
        contract_ok
    );
    assert_eq!(
        keys(
            &["--json", "contract", "--round", "1", "3S 3H 3D", "7H 7H 7H"],
            1
        ),
        contract_ok
    );
    let hand_ok = keys(
        &[
            "--json",
            "contract",
            "--round",
            "1",
            "--hand",
            "3S 3H 3D 7C 7H 7D",
        ],
        0,
    );
    assert_eq!(
        keys(
            &[
                "--json",
                "contract",
                "--round",
                "1",
                "--hand",
                "3S 3H 3D 7H 7H 7H"
            ],
            1
        ),
        hand_ok
    );
}
