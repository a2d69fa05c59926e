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
