//! The `push-rummy` command line, run as a separate process the way people and scripts run it:
//! exit codes (0 valid / satisfied / found, 1 understood but negative, 2 bad input), the text on
//! stdout and stderr, and the `--json` output read back with serde_json.
//!
//! The helpers (running the binary, a temporary directory, the dispute register) are here; the
//! tests are in one module per command: `rules`, `--reading` and `disputes`, `meld`, `contract`,
//! `score`, `play`, with usage errors and closed pipes in modules of their own.

mod contract;
mod disputes;
mod evaluate;
mod house_scoring;
mod meld;
mod pipes;
mod play;
mod rules;
mod score;
mod usage;

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
