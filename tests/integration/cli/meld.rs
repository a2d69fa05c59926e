//! `meld`: which melds are valid, the kinds, declarations, and how cards may be written.

use super::*;

#[test]
fn meld_valid_set_and_run() {
    let v = expect(0, &["--json", "meld", "3S", "3H", "3D"]).json();
    assert_eq!(v["valid"], true);
    assert_eq!(v["ambiguous"], false);
    assert_eq!(v["error"], Value::Null);
    assert_eq!(v["rules"], "push");
    assert_eq!(strings(&v["cards"]), ["3S", "3H", "3D"]);
    let i = v["interpretations"].as_array().unwrap();
    assert_eq!(i.len(), 1);
    assert_eq!(i[0]["kind"], "set");
    assert_eq!(i[0]["rank"], "3");
    for c in i[0]["cards"].as_array().unwrap() {
        assert_eq!(c["natural"], true);
        assert_eq!(c["as"], c["card"]);
    }

    let v = expect(0, &["--json", "meld", "9H", "10H", "JH"]).json();
    assert_eq!(v["valid"], true);
    assert_eq!(v["ambiguous"], false);
    assert_eq!(v["error"], Value::Null);
    let i = v["interpretations"].as_array().unwrap();
    assert_eq!(i.len(), 1);
    assert_eq!(i[0]["kind"], "run");
    assert_eq!(i[0]["suit"], "H");

    let out = expect(0, &["meld", "9H", "10H", "JH"]);
    assert!(
        out.stdout
            .starts_with("valid meld under Push Rummy — 1 interpretation\n"),
        "{}",
        out.stdout
    );

    // A wild two in a set.
    let v = expect(0, &["--json", "meld", "3S", "3H", "3D", "2C"]).json();
    let cards = v["interpretations"][0]["cards"].as_array().unwrap();
    let two = cards.iter().find(|c| c["card"] == "2C").unwrap();
    assert_eq!(two["natural"], false);
    assert_eq!(two["as"], "3");
}

#[test]
fn meld_with_two_suits_is_not_a_run() {
    let v = expect(1, &["--json", "meld", "9H", "10S", "JK", "QH"]).json();
    assert_eq!(v["valid"], false);
    assert_eq!(v["ambiguous"], false);
    assert_eq!(v["interpretations"].as_array().unwrap().len(), 0);
    let err = v["error"].as_str().unwrap();
    assert!(err.contains("a run needs one suit"), "{err}");
    let out = expect(1, &["meld", "9H", "10S", "JK", "QH"]);
    assert!(out.stdout.starts_with("not a meld: "), "{}", out.stdout);
    assert!(out.stdout.contains("one suit"), "{}", out.stdout);
}

#[test]
fn meld_as_restricts_the_kind() {
    let v = expect(1, &["--json", "meld", "--as", "run", "3S", "3H", "3D"]).json();
    assert_eq!(v["valid"], false);
    assert!(v["error"].as_str().unwrap().contains("run"), "{v}");
    let v = expect(1, &["--json", "meld", "--as", "set", "9H", "10H", "JH"]).json();
    assert_eq!(v["valid"], false);
    assert!(v["error"].as_str().unwrap().contains("set"), "{v}");
    expect(0, &["meld", "--as", "set", "3S", "3H", "3D"]);
    expect(0, &["meld", "--as", "run", "9H", "10H", "JH"]);

    let kinds = |args: &[&str]| -> BTreeMap<String, usize> {
        let v = expect(0, args).json();
        let mut m = BTreeMap::new();
        for i in v["interpretations"].as_array().unwrap() {
            *m.entry(i["kind"].as_str().unwrap().to_string())
                .or_insert(0) += 1;
        }
        m
    };
    let all = kinds(&["--json", "meld", "JK", "JK", "JK"]);
    let sets = kinds(&["--json", "meld", "--as", "set", "JK", "JK", "JK"]);
    let runs = kinds(&["--json", "meld", "--as", "run", "JK", "JK", "JK"]);
    assert_eq!(all.keys().collect::<Vec<_>>(), ["run", "set"]);
    assert_eq!(sets.keys().collect::<Vec<_>>(), ["set"]);
    assert_eq!(runs.keys().collect::<Vec<_>>(), ["run"]);
    assert_eq!(sets["set"], all["set"]);
    assert_eq!(runs["run"], all["run"]);
}

#[test]
fn meld_declarations_pick_one_interpretation() {
    let v = expect(0, &["--json", "meld", "9C", "JK", "10C", "JK", "QC"]).json();
    assert_eq!(v["ambiguous"], true);
    assert_eq!(v["interpretations"].as_array().unwrap().len(), 2);

    let v = expect(0, &["--json", "meld", "9C", "JK=8C", "10C", "JK=JC", "QC"]).json();
    assert_eq!(v["valid"], true);
    assert_eq!(v["ambiguous"], false);
    let i = v["interpretations"].as_array().unwrap();
    assert_eq!(i.len(), 1);
    assert_eq!(i[0]["kind"], "run");
    assert_eq!(i[0]["suit"], "C");
    let stands: Vec<(String, String)> = i[0]["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["card"].as_str().unwrap().into(),
                c["as"].as_str().unwrap().into(),
            )
        })
        .collect();
    let want = [
        ("JK", "8C"),
        ("9C", "9C"),
        ("10C", "10C"),
        ("JK", "JC"),
        ("QC", "QC"),
    ];
    assert_eq!(stands, want.map(|(a, b)| (a.to_string(), b.to_string())));
    // The declared cards are still the given cards.
    assert_eq!(strings(&v["cards"]), ["9C", "JK", "10C", "JK", "QC"]);

    // A rank declaration, and one that fits no reading of the meld.
    let v = expect(0, &["--json", "meld", "JK=7", "7S", "7H"]).json();
    assert_eq!(v["interpretations"][0]["rank"], "7");
    expect(1, &["meld", "9C", "JK=KD", "10C"]);
    // A declaration that is not a card or rank.
    let out = expect(2, &["meld", "3S", "3H", "JK=XX"]);
    assert!(out.stderr.contains("`JK=XX`"), "{}", out.stderr);
}

#[test]
fn meld_bad_cards_and_cards_outside_the_pack() {
    let out = expect(2, &["meld", "XX", "3H", "3D"]);
    assert!(
        out.stderr.contains("cannot read card `XX`"),
        "{}",
        out.stderr
    );
    let v = expect(2, &["--json", "meld", "3S", "3H", "XX"]).json();
    assert!(v["error"].as_str().unwrap().contains("`XX`"), "{v}");

    // Six-to-ten has no jokers.
    let v = expect(
        1,
        &["--json", "--rules", "six-to-ten", "meld", "7S", "7H", "JK"],
    )
    .json();
    assert_eq!(v["valid"], false);
    assert_eq!(v["interpretations"].as_array().unwrap().len(), 0);
    assert!(v["error"].as_str().unwrap().contains("no jokers"), "{v}");
    let out = expect(1, &["--rules", "six-to-ten", "meld", "JK", "7S", "7H"]);
    assert!(out.stdout.starts_with("not a meld: "), "{}", out.stdout);

    // Push has two of each card.
    let v = expect(1, &["--json", "meld", "7H", "7H", "7H"]).json();
    assert_eq!(v["valid"], false);
    assert!(v["error"].as_str().unwrap().contains("has 2"), "{v}");
    // Two copies are fine as far as the pack goes (the set then repeats a suit).
    let v = expect(1, &["--json", "meld", "7H", "7H", "7S"]).json();
    assert!(v["error"].as_str().unwrap().contains("suit"), "{v}");
    expect(
        0,
        &[
            "--reading",
            "set-duplicate-suits=allowed",
            "meld",
            "7H",
            "7H",
            "7S",
        ],
    );
}

#[test]
fn meld_notation_is_flexible() {
    let canon = |args: &[&str]| -> Vec<String> {
        let mut a = vec!["--json", "meld"];
        a.extend_from_slice(args);
        let v = expect(0, &a).json();
        assert_eq!(v["valid"], true, "{args:?}");
        strings(&v["cards"])
    };
    assert_eq!(canon(&["3s", "3h", "3d"]), ["3S", "3H", "3D"]);
    assert_eq!(canon(&["9h", "th", "jh"]), ["9H", "10H", "JH"]);
    assert_eq!(canon(&["9H", "T♥", "J♥"]), ["9H", "10H", "JH"]);
    assert_eq!(canon(&["9♠", "10♠", "J♠"]), ["9S", "10S", "JS"]);
    assert_eq!(canon(&["5♦", "5♣", "5s"]), ["5D", "5C", "5S"]);
    assert_eq!(canon(&["jk=10h", "9h", "jh"]), ["JK", "9H", "JH"]);
    assert_eq!(canon(&["Jk", "qS", "kS"]), ["JK", "QS", "KS"]);
    // Several cards in one argument, separated by spaces or commas.
    assert_eq!(canon(&["3S 3H", "3D"]), ["3S", "3H", "3D"]);
    assert_eq!(canon(&["3S,3H,3D"]), ["3S", "3H", "3D"]);
}

/// Twos read only as sets of other ranks: the verdict says why none is a set of twos, and only
/// where the reading of `natural-twos` makes none.
#[test]
fn meld_of_twos_says_there_is_no_set_of_twos() {
    let out = expect(0, &["meld", "2S", "2H", "2D", "--as", "set"]);
    assert!(out.stdout.contains("set of Ks"), "{}", out.stdout);
    assert!(
        out.stdout
            .contains("note: there is no set of twos under natural-twos=runs-only"),
        "{}",
        out.stdout
    );
    let out = expect(
        0,
        &[
            "--reading",
            "natural-twos=runs-and-sets",
            "meld",
            "2S",
            "2H",
            "2D",
            "--as",
            "set",
        ],
    );
    assert!(out.stdout.contains("set of 2s"), "{}", out.stdout);
    assert!(!out.stdout.contains("no set of twos"), "{}", out.stdout);
    // A run with a two in it is no question of sets.
    let out = expect(0, &["meld", "9S", "2H", "2D", "--as", "run"]);
    assert!(!out.stdout.contains("no set of twos"), "{}", out.stdout);
}
