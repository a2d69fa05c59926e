//! `rules list`, `rules show` and `rules check`, and how deep `extends` may go.

use super::*;

#[test]
fn rules_list_text_names_every_built_in() {
    let out = expect(0, &["rules", "list"]);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), BUILT_INS.len(), "{}", out.stdout);
    for (line, name) in lines.iter().zip(BUILT_INS) {
        assert_eq!(line.split_whitespace().next(), Some(name), "{line}");
        assert!(line.contains(".yaml)"), "{line}");
    }
    assert!(lines[0].contains("Push Rummy"), "{}", lines[0]);
    assert!(out.stderr.is_empty(), "{}", out.stderr);
}

#[test]
fn rules_list_json_has_every_built_in_with_its_file() {
    let v = expect(0, &["--json", "rules", "list"]).json();
    let list = v["rules"].as_array().expect("rules is an array");
    let names: Vec<&str> = list.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, BUILT_INS);
    for r in list {
        let file = r["file"].as_str().unwrap();
        assert!(Path::new(ROOT).join(file).is_file(), "{file} is not a file");
        assert!(!r["title"].as_str().unwrap().is_empty(), "{r}");
        assert!(r["deals"].as_u64().unwrap() >= 1, "{r}");
        // `N` for a fixed count, `MIN-MAX` for a range.
        let players = r["players"].as_str().unwrap();
        let (lo, hi) = players.split_once('-').unwrap_or((players, players));
        assert!(
            lo.parse::<u8>().unwrap() <= hi.parse::<u8>().unwrap(),
            "{r}"
        );
    }
    assert_eq!(list[0]["title"], "Push Rummy");
    assert_eq!(list[0]["players"], "4");
    assert_eq!(list[1]["players"], "3-6", "cap-it");
    assert_eq!(list[0]["deals"], 5);
    assert_eq!(list[7]["deals"], 7, "club-marathon has seven deals");
}

#[test]
fn rules_show_push_text_and_json() {
    let text = expect(0, &["rules", "show", "push"]).stdout;
    assert!(
        text.starts_with("# Resolved rules of `push` (from spec/push.yaml)."),
        "{text}"
    );
    assert!(text.contains("\ngame: \"push\"\n"), "{text}");
    assert!(text.contains("\nreadings:\n"), "{text}");
    // The default rule set is push.
    assert_eq!(expect(0, &["rules", "show"]).stdout, text);
    // `--rules` picks the rule set when `show` has no name.
    let capit = expect(0, &["--rules", "cap-it", "rules", "show"]).stdout;
    assert!(capit.contains("\ngame: \"cap-it\"\n"), "{capit}");

    let v = expect(0, &["--json", "rules", "show", "push"]).json();
    assert_eq!(v["game"], "push");
    assert_eq!(strings(&v["from"]), ["spec/push.yaml"]);
    let rules = &v["rules"];
    assert_eq!(rules["decks.standard-decks"], 2);
    assert_eq!(rules["decks.jokers"], 4);
    assert_eq!(rules["players.count"]["min"], 4);
    assert_eq!(rules["players.count"]["max"], 4);
    assert_eq!(rules["readings.two-penalty-value"], "20");
    assert_eq!(rules["rounds"].as_array().unwrap().len(), 5);
    assert_eq!(
        strings(&rules["rounds"][1]["contract"]),
        ["set of 3", "run of 4"]
    );
}

#[test]
fn rules_show_a_path_resolves_extends() {
    let text = expect(0, &["rules", "show", "spec/house/club-marathon.yaml"]).stdout;
    assert!(
        text.starts_with(
            "# Resolved rules of `club-marathon` (from spec/house/club-marathon.yaml <- spec/push.yaml)."
        ),
        "{text}"
    );
    let v = expect(
        0,
        &["--json", "rules", "show", "spec/house/club-marathon.yaml"],
    )
    .json();
    assert_eq!(v["game"], "club-marathon");
    assert_eq!(
        strings(&v["from"]),
        ["spec/house/club-marathon.yaml", "spec/push.yaml"]
    );
    // Its own rules and those it inherits from push.
    assert_eq!(v["rules"]["rounds"].as_array().unwrap().len(), 7);
    assert_eq!(v["rules"]["scoring.points.JK"], 25);
    assert_eq!(v["rules"]["decks.jokers"], 4);
    // A path given as `--rules` is the same.
    let same = expect(
        0,
        &[
            "--json",
            "--rules",
            "spec/house/club-marathon.yaml",
            "rules",
            "show",
        ],
    )
    .json();
    assert_eq!(same, v);
}

#[test]
fn rules_show_applies_a_command_line_reading() {
    let v = expect(
        0,
        &[
            "--json",
            "--reading",
            "two-penalty-value=15",
            "rules",
            "show",
        ],
    )
    .json();
    assert_eq!(v["rules"]["readings.two-penalty-value"], "15");
    // Nothing else moves.
    let plain = expect(0, &["--json", "rules", "show"]).json();
    let (a, b) = (
        v["rules"].as_object().unwrap(),
        plain["rules"].as_object().unwrap(),
    );
    assert_eq!(a.len(), b.len());
    let changed: Vec<&String> = a.keys().filter(|k| a[*k] != b[*k]).collect();
    assert_eq!(changed, ["readings.two-penalty-value"]);

    // Text: the reading's entry carries the value "15" and says where it came from.
    let text = expect(0, &["--reading", "two-penalty-value=15", "rules", "show"]).stdout;
    let readings = text
        .split("\nreadings:")
        .nth(1)
        .expect("a readings section");
    let entry: Vec<&str> = readings
        .split("\n  two-penalty-value:\n")
        .nth(1)
        .expect("two-penalty-value under readings")
        .lines()
        .take_while(|l| l.starts_with("    "))
        .collect();
    assert_eq!(
        entry,
        ["    value: \"15\"", "    note: \"set on the command line\""]
    );
}

#[test]
fn rules_show_output_loads_back_to_the_same_rules() {
    let dir = TempDir::new("roundtrip");
    for name in BUILT_INS {
        let shown = expect(0, &["rules", "show", name]).stdout;
        let path = dir.write(&format!("{name}.yaml"), &shown);
        let check = expect(0, &["rules", "check", &path]);
        assert!(check.stdout.contains(": ok ("), "{}", check.stdout);
        let original = expect(0, &["--json", "rules", "show", name]).json();
        let reloaded = expect(0, &["--json", "rules", "show", &path]).json();
        assert_eq!(reloaded["rules"], original["rules"], "{name}");
    }
}

/// The rules files in spec/ and spec/house/ (spec/disputes.yaml is the register, not a rules file).
fn spec_rules_files() -> Vec<String> {
    let mut files = Vec::new();
    for dir in ["spec", "spec/house"] {
        for e in std::fs::read_dir(Path::new(ROOT).join(dir)).unwrap() {
            let name = e.unwrap().file_name().into_string().unwrap();
            if name.ends_with(".yaml") && name != "disputes.yaml" {
                files.push(format!("{dir}/{name}"));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn rules_check_accepts_every_spec_file() {
    let files = spec_rules_files();
    assert!(files.len() >= BUILT_INS.len(), "{files:?}");
    for f in &files {
        let out = expect(0, &["rules", "check", f]);
        assert!(
            out.stdout.starts_with(&format!("{f}: ok (")),
            "{}",
            out.stdout
        );
    }
    // All at once, as JSON.
    let mut args = vec!["--json", "rules", "check"];
    args.extend(files.iter().map(String::as_str));
    let v = expect(0, &args).json();
    let checked = v["files"].as_array().unwrap();
    assert_eq!(checked.len(), files.len());
    for (c, f) in checked.iter().zip(&files) {
        assert_eq!(c["file"], f.as_str());
        assert_eq!(c["ok"], true, "{c}");
        assert_eq!(c["diagnostics"].as_array().unwrap().len(), 0, "{c}");
    }
    // The register itself is not a rules file.
    let out = expect(2, &["rules", "check", "spec/disputes.yaml"]);
    assert!(out.stderr.contains("spec/disputes.yaml:"), "{}", out.stderr);
}

#[test]
fn rules_check_reports_file_line_and_path_of_a_broken_file() {
    let dir = TempDir::new("broken");
    let path = dir.write("broken.yaml", "extends: push\nsets:\n  min-sise: 3\n");
    let out = expect(2, &["rules", "check", &path]);
    assert!(
        out.stderr.contains(&format!("--> {path}:3:3\n"))
            && out.stderr.contains("= note: field `sets.min-sise`"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("unknown key `min-sise`"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("did you mean `min-size`?"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.is_empty(), "{}", out.stdout);

    let v = expect(2, &["--json", "rules", "check", "spec/push.yaml", &path]).json();
    let files = v["files"].as_array().unwrap();
    assert_eq!(files.len(), 2);
    assert_eq!(files[0]["ok"], true);
    assert_eq!(files[1]["ok"], false);
    assert_eq!(files[1]["file"], path.as_str());
    let d = &files[1]["diagnostics"][0];
    assert_eq!(d["file"], path.as_str());
    assert_eq!(d["line"], 3);
    assert_eq!(d["column"], 3);
    assert_eq!(d["path"], "sets.min-sise");

    // YAML that does not parse.
    let bad = dir.write("syntax.yaml", "game: x\nsets: [unclosed\n");
    let out = expect(2, &["rules", "check", &bad]);
    assert!(out.stderr.contains("invalid YAML"), "{}", out.stderr);
    assert!(out.stderr.contains(&format!("{bad}:2:")), "{}", out.stderr);
}

#[test]
fn rules_that_cannot_be_found_are_bad_input() {
    let dir = TempDir::new("missing");
    let missing = dir.path().join("nowhere.yaml");
    let missing = missing.to_str().unwrap();
    let out = expect(2, &["--rules", missing, "meld", "3S", "3H", "3D"]);
    assert!(out.stderr.contains(missing), "{}", out.stderr);
    assert!(out.stderr.contains("does not exist"), "{}", out.stderr);
    let v = expect(2, &["--json", "--rules", missing, "score", "AS"]).json();
    assert!(v["error"].is_string(), "{v}");
    assert_eq!(v["diagnostics"][0]["file"], missing);

    let out = expect(2, &["--rules", "pussh", "meld", "3S", "3H", "3D"]);
    assert!(
        out.stderr
            .contains("no built-in rule set or file named `pussh`"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("did you mean `push`?"),
        "{}",
        out.stderr
    );
    for name in BUILT_INS {
        assert!(out.stderr.contains(name), "{}", out.stderr);
    }
    expect(2, &["rules", "show", "no-such-game"]);
}

#[test]
fn works_from_another_current_directory() {
    let dir = TempDir::new("cwd");
    let out = expect_in(
        dir.path(),
        0,
        &["--rules", "push", "meld", "3S", "3H", "3D"],
    );
    assert!(
        out.stdout.starts_with("valid meld under Push Rummy"),
        "{}",
        out.stdout
    );
    for name in BUILT_INS {
        let v = expect_in(dir.path(), 0, &["--json", "--rules", name, "rules", "show"]).json();
        assert_eq!(v["game"], name);
    }
    expect_in(dir.path(), 0, &["rules", "list"]);
    expect_in(dir.path(), 0, &["--rules", "club-marathon", "score", "JK"]);

    // A house file in that directory extending a sibling by a relative path: run from there with
    // a relative path, and from the repository with an absolute one.
    dir.write(
        "a.yaml",
        "game: house-a\nname: House A\nextends: push\nscoring:\n  points:\n    K: 15\n",
    );
    let b = dir.write("b.yaml", "game: house-b\nname: House B\nextends: a.yaml\n");
    let here = expect_in(
        dir.path(),
        0,
        &["--json", "--rules", "b.yaml", "score", "KD"],
    )
    .json();
    assert_eq!(here["points"], 15);
    let there = expect(0, &["--json", "--rules", &b, "score", "KD"]).json();
    assert_eq!(there["points"], 15);
}

/// `extends` goes at most 16 files deep (docs/LIMITS.md), the built-in file at the end counted: a
/// chain of 15 house files over Push loads; one more is refused at the `extends:` line that asks
/// for a file too many.
#[test]
fn extends_goes_sixteen_files_deep_and_no_further() {
    let dir = TempDir::new("deep");
    dir.write("f0.yaml", "extends: push\ngame: f0\n");
    for i in 1..=15 {
        dir.write(
            &format!("f{i}.yaml"),
            &format!("game: f{i}\nextends: f{}.yaml\n", i - 1),
        );
    }
    expect_in(dir.path(), 0, &["rules", "check", "f14.yaml"]);
    let out = expect_in(dir.path(), 2, &["rules", "check", "f15.yaml"]);
    assert!(
        out.stderr.contains("nested more than 16 deep"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("f0.yaml:1:10"), "{}", out.stderr);
}

/// `rules check` says what a house file is when it names itself nothing, counts deals in good
/// English, and warns (exit 0) of a contract that takes far more cards than a hand is dealt.
#[test]
fn rules_check_warns_of_a_contract_no_hand_can_hold() {
    let dir = TempDir::new("contract-warning");
    let f = dir.write(
        "ours.yaml",
        "game: our-house\nextends: push\nrounds:\n  value: [{deal: 7, contract: [run of 7, run of 7, run of 7]}]\n  sources: [unsourced]\n",
    );
    let out = expect(0, &["rules", "check", &f]);
    assert!(
        out.stdout
            .contains("ok (our-house, no name of its own, extends spec/push.yaml; 1 deal)"),
        "{}",
        out.describe()
    );
    assert!(
        out.stderr.contains("warning: ")
            && out.stderr.contains("deal 1: the contract (run of 7, run of 7, run of 7) takes 21 cards and a hand is dealt 7"),
        "{}",
        out.describe()
    );
    let json = expect(0, &["--json", "rules", "check", &f]).json();
    assert_eq!(
        json["files"][0]["warnings"].as_array().map(Vec::len),
        Some(1),
        "{json}"
    );
    // The shipped games draw no warning.
    let out = expect(
        0,
        &[
            "rules",
            "check",
            "spec/push.yaml",
            "spec/house/club-marathon.yaml",
        ],
    );
    assert_eq!(out.stderr, "", "{}", out.describe());
    assert!(
        out.stdout
            .contains("spec/push.yaml: ok (Push Rummy, 5 deals)"),
        "{}",
        out.describe()
    );
}
