//! The `push-rummy` command line, run as a separate process the way people and scripts run it:
//! exit codes (0 valid / satisfied / found, 1 understood but negative, 2 bad input), the text on
//! stdout and stderr, and the `--json` output read back with serde_json.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

const BIN: &str = env!("CARGO_BIN_EXE_push-rummy");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The built-in rule sets, in `rules list` order.
const BUILT_INS: [&str; 8] = [
    "push",
    "cap-it",
    "six-to-ten",
    "source-000",
    "source-001",
    "source-002",
    "source-003",
    "club-marathon",
];

// ---------------------------------------------------------------------------------------------
// Helpers

/// What one run of the binary gave back.
struct Output {
    code: i32,
    stdout: String,
    stderr: String,
    args: Vec<String>,
}

impl Output {
    /// stdout as JSON (panics with the whole output when it is not JSON).
    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "push-rummy {:?}: stdout is not JSON ({e})\n{}",
                self.args,
                self.describe()
            )
        })
    }

    fn describe(&self) -> String {
        format!(
            "--- exit code {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// Runs the binary with `dir` as current directory.
fn run_in(dir: &Path, args: &[&str]) -> Output {
    let out = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {BIN}: {e}"));
    let got = Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
        args: args.iter().map(|s| s.to_string()).collect(),
    };
    assert!(
        !got.stderr.contains("panicked"),
        "push-rummy {args:?} panicked\n{}",
        got.describe()
    );
    got
}

/// Runs the binary from the repository root and checks the exit code.
fn expect(code: i32, args: &[&str]) -> Output {
    expect_in(Path::new(ROOT), code, args)
}

fn expect_in(dir: &Path, code: i32, args: &[&str]) -> Output {
    let got = run_in(dir, args);
    assert_eq!(
        got.code,
        code,
        "push-rummy {args:?} (in {})\n{}",
        dir.display(),
        got.describe()
    );
    got
}

/// A fresh directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("push-rummy-cli-{}-{n}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn path(&self) -> &Path {
        &self.0
    }

    /// Writes `name` in the directory and returns its full path as a string.
    fn write(&self, name: &str, text: &str) -> String {
        let p = self.0.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The dispute ids of spec/disputes.yaml, in order, each with its reading names (read by
/// scanning the lines: `  - id: X`, then `- name: "R"` items under its `readings:`).
fn register() -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(Path::new(ROOT).join("spec/disputes.yaml")).unwrap();
    let unquote = |s: &str| s.trim().trim_matches('"').to_string();
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    let mut in_readings = false;
    for line in text.lines() {
        if let Some(id) = line.strip_prefix("  - id:") {
            out.push((unquote(id), Vec::new()));
            in_readings = false;
        } else if line.starts_with("    ") && !line.starts_with("     ") {
            // A key of the dispute itself (readings, defaults, question, …).
            in_readings = line.trim() == "readings:";
        } else if in_readings && let Some(name) = line.trim().strip_prefix("- name:") {
            out.last_mut()
                .expect("a reading before the first id")
                .1
                .push(unquote(name));
        }
    }
    out
}

/// The strings of a JSON array of strings.
fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|x| {
            x.as_str()
                .unwrap_or_else(|| panic!("not a string: {x}"))
                .to_string()
        })
        .collect()
}

/// How many of each card (by its canonical name).
fn multiset(cards: &[String]) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for c in cards {
        *m.entry(c.clone()).or_insert(0) += 1;
    }
    m
}

// ---------------------------------------------------------------------------------------------
// rules list / show / check

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

// ---------------------------------------------------------------------------------------------
// --reading

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

// ---------------------------------------------------------------------------------------------
// meld

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

// ---------------------------------------------------------------------------------------------
// contract

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

// ---------------------------------------------------------------------------------------------
// score

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
fn score_rejects_what_is_not_a_plain_card_of_the_pack() {
    expect(2, &["score", "ZZ"]);
    let out = expect(2, &["score", "JK=7"]);
    assert!(out.stderr.contains("plain cards"), "{}", out.stderr);
    expect(1, &["--rules", "six-to-ten", "score", "JK"]);
    expect(1, &["score", "3S", "3S", "3S"]);
}

// ---------------------------------------------------------------------------------------------
// usage

#[test]
fn usage_errors_exit_2_and_help_exits_0() {
    for args in [
        &["frobnicate"][..],
        &[],
        &["rules"],
        &["rules", "frobnicate"],
        &["rules", "check"],
        &["meld"],
        &["meld", "--as", "pair", "3S", "3H", "3D"],
        &["contract"],
        &["contract", "3S 3H 3D"],
        &["score"],
        &["--no-such-flag", "score", "AS"],
        &["--rules"],
    ] {
        let out = expect(2, args);
        assert!(
            out.stderr.contains("Usage:") || out.stderr.contains("error:"),
            "{args:?}: {}",
            out.stderr
        );
    }
    let out = expect(2, &["frobnicate"]);
    assert!(
        out.stderr.contains("unrecognized subcommand 'frobnicate'"),
        "{}",
        out.stderr
    );

    for args in [
        &["--help"][..],
        &["-h"],
        &["help"],
        &["meld", "--help"],
        &["rules", "--help"],
        &["contract", "--help"],
    ] {
        let out = expect(0, args);
        assert!(
            out.stdout.contains("Usage: push-rummy"),
            "{args:?}: {}",
            out.stdout
        );
    }
    let out = expect(0, &["--version"]);
    assert!(out.stdout.starts_with("push-rummy "), "{}", out.stdout);
}

// ---------------------------------------------------------------------------------------------
// pipes

/// Runs `args` with stdout on a pipe whose reader goes away after `keep` bytes at most (0: at
/// once, before the child can write), like `push-rummy … | head -c KEEP`. Returns the exit code
/// and stderr.
fn run_into_closed_pipe(args: &[&str], keep: usize) -> (i32, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(ROOT)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    if keep > 0 {
        let mut first = Vec::new();
        BufReader::new(stdout)
            .take(keep as u64)
            .read_until(b'\n', &mut first)
            .unwrap();
        assert!(!first.is_empty(), "{args:?} printed nothing");
    } else {
        drop(stdout);
    }
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    (status.code().unwrap_or(-1), stderr)
}

#[test]
fn a_closed_pipe_does_not_panic() {
    // `--json meld JK JK JK JK 2S 2H` prints about 700 kB, far more than a pipe holds, so the
    // writes surely meet the closed pipe.
    let big = ["--json", "meld", "JK", "JK", "JK", "JK", "2S", "2H"];
    let cases: [(&[&str], i32); 7] = [
        (&big, 0),
        (&["meld", "JK", "JK", "JK", "JK", "2S", "2H"], 0),
        (&["rules", "show"], 0),
        (&["--json", "rules", "show"], 0),
        (&["rules", "list"], 0),
        (&["--help"], 0),
        (&["--json", "meld", "XX"], 2),
    ];
    for (args, code) in cases {
        for keep in [0, 1, 100] {
            let (got, stderr) = run_into_closed_pipe(args, keep);
            assert!(
                !stderr.contains("panicked"),
                "{args:?} keep {keep}: {stderr}"
            );
            assert_eq!(got, code, "{args:?} keep {keep}: {stderr}");
        }
    }
}

/// Every built-in and house rule set plays whole games through `push-rummy play`, at every player
/// count it allows, and the totals are the sums of the points each hand recorded (issue 3; how a
/// hand is scored is checked by `engine_rules` and `properties.rs`).
#[test]
fn play_runs_every_built_in_to_the_end() {
    for name in BUILT_INS {
        let shown = expect(0, &["--json", "rules", "show", name]).json();
        let count = &shown["rules"]["players.count"];
        let (lo, hi) = (
            count["min"].as_u64().unwrap(),
            count["max"].as_u64().unwrap(),
        );
        for players in lo..=hi {
            let p = players.to_string();
            let out = expect(
                0,
                &[
                    "--json",
                    "--rules",
                    name,
                    "play",
                    "--players",
                    &p,
                    "--bots",
                    "greedy,random",
                    "--seed",
                    "7",
                ],
            )
            .json();
            let totals: Vec<i64> = out["totals"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_i64().unwrap())
                .collect();
            let mut sums = vec![0i64; totals.len()];
            for e in out["events"].as_array().unwrap() {
                if e["event"] == "hand-ended" {
                    for (s, p) in sums.iter_mut().zip(e["points"].as_array().unwrap()) {
                        *s += p.as_i64().unwrap();
                    }
                }
            }
            assert_eq!(sums, totals, "{name} with {players} players");
            assert!(!out["winners"].as_array().unwrap().is_empty());
        }
    }
}

/// Every reading of every dispute plays a whole game of Push through the command line.
#[test]
fn play_runs_under_every_reading() {
    let shown = expect(0, &["--json", "rules", "show"]).json();
    let ids: Vec<String> = shown["rules"]
        .as_object()
        .unwrap()
        .keys()
        .filter_map(|k| k.strip_prefix("readings.").map(str::to_string))
        .collect();
    let register =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/spec/disputes.yaml"))
            .unwrap();
    let mut tried = 0;
    for id in &ids {
        // The reading names of this dispute, from the register.
        let block = register.split(&format!("- id: {id}\n")).nth(1).unwrap();
        let block = block.split("\n  - id: ").next().unwrap();
        for line in block
            .lines()
            .filter(|l| l.trim_start().starts_with("- name:"))
        {
            let name = line.split(':').nth(1).unwrap().trim().trim_matches('"');
            let reading = format!("{id}={name}");
            let out = expect(
                0,
                &[
                    "--json",
                    "--reading",
                    &reading,
                    "play",
                    "--bots",
                    "greedy,random",
                    "--seed",
                    "3",
                ],
            )
            .json();
            assert!(!out["winners"].as_array().unwrap().is_empty(), "{reading}");
            tried += 1;
        }
    }
    assert!(tried >= 68, "only {tried} readings tried");
}

#[test]
fn play_many_games_prints_a_summary_and_jobs_do_not_change_it() {
    let one = expect(0, &["--json", "play", "--games", "12", "--jobs", "1"]).json();
    let two = expect(0, &["--json", "play", "--games", "12", "--jobs", "2"]).json();
    assert_eq!(one, two);
    assert_eq!(one["games"], 12);
    assert_eq!(one["hands"], 60);
    expect(2, &["play", "--bots", "clever"]);
    expect(2, &["play", "--players", "3"]);
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

/// `--rules` is global, but a command that names its rules itself (or reads none) refuses it
/// rather than ignoring it; the commands that read it take it before or after their name. So do
/// `--reading` and `--json` where a command has no use for them.
#[test]
fn rules_given_to_a_command_that_cannot_use_them_is_bad_input() {
    for args in [
        &[
            "--rules",
            "cap-it",
            "replay",
            "conformance/push/push-to-the-left.yaml",
        ][..],
        &[
            "replay",
            "--rules",
            "push",
            "conformance/push/push-to-the-left.yaml",
        ],
        &[
            "--rules",
            "cap-it",
            "conform",
            "conformance/push/push-to-the-left.yaml",
        ],
        &["--rules", "cap-it", "disputes"],
        &["--rules", "cap-it", "explain", "two-penalty-value"],
        &["--rules", "cap-it", "schema", "rules"],
        &["--rules", "cap-it", "rules", "list"],
        &[
            "--rules",
            "cap-it",
            "bench",
            "--seconds",
            "0.01",
            "meld-check",
        ],
        &["--rules", "cap-it", "man"],
    ] {
        let out = expect(2, args);
        assert!(
            out.stderr.contains("leave --rules out"),
            "{args:?}: {}",
            out.stderr
        );
    }
    expect(0, &["--rules", "cap-it", "rules", "show"]);
    expect(0, &["score", "--rules", "six-to-ten", "KD"]);
    // `serve` loads `--rules` when given (they must load), and starts without it.
    expect(2, &["serve", "--rules", "no-such-rules"]);
    expect(0, &["serve"]);
    // The same for --reading and --json.
    for (args, option) in [
        (
            &["--reading", "two-penalty-value=15", "disputes"][..],
            "--reading",
        ),
        (
            &["--reading", "two-penalty-value=15", "explain", "ties"],
            "--reading",
        ),
        (
            &["--reading", "two-penalty-value=15", "schema", "rules"],
            "--reading",
        ),
        (&["--json", "man"], "--json"),
        (&["--json", "completions", "bash"], "--json"),
    ] {
        let out = expect(2, args);
        assert!(
            out.stderr.contains(&format!("leave {option} out")),
            "{args:?}: {}",
            out.stderr
        );
    }
    expect(0, &["--reading", "two-penalty-value=15", "score", "KD"]);
    expect(0, &["--json", "schema", "rules"]);
}

/// A card that cannot be read is named with where it was given: which meld of several, the
/// `--hand`, or the whole word of a declaration.
#[test]
fn an_unreadable_card_says_where_it_was_given() {
    let out = expect(2, &["contract", "--round", "1", "4H 4D 4S", ""]);
    assert!(
        out.stderr.contains("meld 2 (``): no cards given"),
        "{}",
        out.stderr
    );
    let out = expect(2, &["contract", "--round", "1", "4H 4D 4S", "7Q"]);
    assert!(out.stderr.contains("meld 2 (`7Q`)"), "{}", out.stderr);
    let out = expect(2, &["contract", "--round", "1", "--hand", "4H XX"]);
    assert!(out.stderr.starts_with("--hand: "), "{}", out.stderr);
    let out = expect(2, &["meld", "9H", "=10H", "JH"]);
    assert!(out.stderr.contains("in `=10H`"), "{}", out.stderr);
}
