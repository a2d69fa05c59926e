//! `rules show` of every built-in rule set, and of a house file that overrides readings, as
//! people see it: the fully resolved rules (after `extends`) in the rules language. One named
//! snapshot per rule set (`tests/snapshots/`), so a change to a game file or to the renderer shows
//! up as a reviewable diff.
//! Own test binary: its snapshots are named, and must not mix with `insta::glob!` tests.

use push_rummy::rules::{BUILT_IN, load};

#[test]
fn every_built_in_rule_set_shows_its_resolved_rules() {
    assert!(!BUILT_IN.is_empty());
    for (name, file, _) in BUILT_IN {
        let loaded = load(name, &[]).unwrap_or_else(|e| {
            panic!("built-in `{name}` ({file}) does not load:\n{}", e.render())
        });
        let shown = loaded.show();
        assert!(
            shown.contains(&format!("game: \"{}\"", loaded.rules.game)),
            "`{name}`: the shown rules do not name their game"
        );
        assert_eq!(
            loaded.chain.first().map(String::as_str),
            Some(*file),
            "`{name}`: the chain starts at its own file"
        );
        insta::assert_snapshot!(*name, shown);
    }
}

/// A house file that states its own values where readings decide in the built-in games: the
/// stated rules with their citations, each marked as overriding its reading, and each reading
/// marked as overridden.
#[test]
fn a_house_file_shows_what_its_stated_rules_override() {
    let text = r#"extends: push
game: aces-20-twos-25
name: "Aces 20, twos 25"
scoring:
  points:
    A: {value: 20, sources: ["unsourced"], note: "house rule"}
    "2": {value: 25, sources: ["unsourced"], note: "house rule"}
  sides: individual
  going-out-bonus: 10
"#;
    let loaded = push_rummy::rules::load_text("house.yaml", text, std::path::Path::new("."))
        .unwrap_or_else(|e| panic!("{}", e.render()));
    insta::assert_snapshot!("house-aces-20-twos-25", loaded.show());
}

/// A house file with buying out of turn shows its `buying` section, with its citations, and loads
/// back to the same rules; `per-hand: unlimited` stays a word.
#[test]
fn a_house_file_with_buying_shows_its_section() {
    let house = "extends: push\ngame: push-may-i\nname: Push with May I\nbuying:\n  allowed: {value: true, sources: [unsourced], note: \"a house rule\"}\n  penalty-cards: 2\n  per-hand: unlimited\n  when-down: forbidden\n";
    let loaded = push_rummy::rules::load_text("may-i.yaml", house, std::path::Path::new("."))
        .unwrap_or_else(|e| panic!("{}", e.render()));
    let shown = loaded.show();
    let again = push_rummy::rules::load_text("shown.yaml", &shown, std::path::Path::new("."))
        .unwrap_or_else(|e| panic!("{}\n{shown}", e.render()));
    assert_eq!(again.rules, loaded.rules);
    let buying = loaded.rules.buying.expect("buying is allowed");
    assert_eq!(
        (buying.penalty_cards, buying.per_hand, buying.when_down),
        (2, None, false)
    );
    let section: String = shown
        .lines()
        .skip_while(|l| !l.starts_with("buying:"))
        .take_while(|l| l.starts_with("buying:") || l.starts_with(' '))
        .map(|l| format!("{l}\n"))
        .collect();
    insta::assert_snapshot!("push-with-buying", section);
}

/// A contract set of one rank, in any of its spellings, is shown in words (`set of 2 aces`) and
/// loads back to the same rules; the rule listing writes it so too.
#[test]
fn a_contract_set_of_one_rank_shows_in_words() {
    let house = "extends: push\ngame: pair-of-aces\nname: A pair of aces\nrounds:\n  - {deal: 11, contract: [set of 2 As, Set of 3 7S, run of 4]}\n  - {deal: 11, contract: [set of 3 KINGS, set of 3]}\n";
    let loaded = push_rummy::rules::load_text("pair.yaml", house, std::path::Path::new("."))
        .unwrap_or_else(|e| panic!("{}", e.render()));
    let shown = loaded.show();
    let again = push_rummy::rules::load_text("shown.yaml", &shown, std::path::Path::new("."))
        .unwrap_or_else(|e| panic!("{}\n{shown}", e.render()));
    assert_eq!(again.rules, loaded.rules);
    let rounds: String = shown
        .lines()
        .skip_while(|l| !l.starts_with("rounds:"))
        .take_while(|l| l.starts_with("rounds:") || l.starts_with(' '))
        .map(|l| format!("{l}\n"))
        .collect();
    insta::assert_snapshot!("contract-set-of-one-rank", rounds);
    let listing = loaded.raw.get("rounds").unwrap().value.listing();
    assert_eq!(
        listing,
        "11:set of 2 aces,set of 3 sevens,run of 4;11:set of 3 kings,set of 3"
    );
}
