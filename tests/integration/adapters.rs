//! The adapter kits of `conformance/adapters/` (Python, TypeScript): each kit's demonstration
//! engine relays the reference (`push-rummy serve`) through the kit's typed layer, every message
//! read into the kit's types and written back from them, so the kit passes the suite only if its
//! protocol loop, its messages and its card and action notation are right. Each kit passes as
//! many scenarios as the reference served directly, plays random games clean, and passes its own
//! unit tests; the TypeScript kit is also type-checked where `tsc` is installed
//! (`npm ci` in its folder).
//!
//! Python 3 and Node 20 must be installed: without them these tests fail, they do not skip.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::LazyLock;
use std::time::Instant;

const BIN: &str = env!("CARGO_BIN_EXE_push-rummy");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn kit(lang: &str) -> PathBuf {
    root().join("conformance/adapters").join(lang)
}

/// `program ARGS` in `dir`: whether it succeeded, stdout and stderr; None where it does not run.
fn run_in(dir: &Path, program: &str, args: &[&str]) -> Option<(bool, String, String)> {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    Some((
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

/// The Python interpreter that `python3` on the PATH starts (its real path: a version manager's
/// shim would add its own start-up to each of the suite's hundreds of runs).
fn python() -> String {
    let found = run_in(
        root(),
        "python3",
        &[
            "-c",
            "import sys; assert sys.version_info >= (3, 11), sys.version; print(sys.executable)",
        ],
    );
    match found {
        Some((true, out, _)) if !out.trim().is_empty() => out.trim().to_string(),
        Some((_, _, err)) => {
            panic!("python3 is not Python 3.11 or newer, which the Python adapter kit needs: {err}")
        }
        None => panic!(
            "python3 is not on the PATH: the test of conformance/adapters/python needs Python 3.11 or newer"
        ),
    }
}

/// `node`, checked to be Node 20 or newer.
fn node() -> String {
    match run_in(root(), "node", &["--version"]) {
        Some((true, out, _)) => {
            let major: u32 = out
                .trim()
                .trim_start_matches('v')
                .split('.')
                .next()
                .and_then(|m| m.parse().ok())
                .unwrap_or(0);
            assert!(
                major >= 20,
                "node {} is older than 20, which the TypeScript adapter kit needs",
                out.trim()
            );
            "node".to_string()
        }
        _ => panic!(
            "node is not on the PATH: the test of conformance/adapters/typescript needs Node 20 or newer"
        ),
    }
}

/// `push-rummy conform ARGS --json` in the crate directory: exit code and report. Python may
/// cache the kit's compiled modules (outside the source tree): the suite starts it hundreds of
/// times.
fn conform(args: &[&str]) -> (i32, Value) {
    let out = Command::new(BIN)
        .current_dir(root())
        .env_remove("PYTHONDONTWRITEBYTECODE")
        .env(
            "PYTHONPYCACHEPREFIX",
            std::env::temp_dir().join("push-rummy-adapter-kits-pycache"),
        )
        .arg("conform")
        .args(args)
        .arg("--json")
        .output()
        .expect("push-rummy runs");
    let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().expect("an exit code"), json)
}

/// The suite's summary against the reference served over the protocol, run once.
static REFERENCE: LazyLock<Value> = LazyLock::new(|| {
    let (code, r) = conform(&["--impl", &format!("'{BIN}' serve")]);
    assert_eq!(code, 0, "the reference fails the suite: {:#}", r["summary"]);
    r["summary"].clone()
});

/// Why the scenarios that did not pass did not.
fn not_passed(r: &Value) -> Vec<String> {
    r["scenarios"]
        .as_array()
        .expect("scenarios")
        .iter()
        .filter(|s| s["verdict"] != "pass")
        .map(|s| format!("{}: {} {}", s["file"], s["verdict"], s))
        .take(5)
        .collect()
}

/// Random games played through each kit: each is about a thousand messages (a state after every
/// action), so a few show the random path without doubling the test's time.
const GAMES: u64 = 10;

/// The kit started as `command` passes the suite as the reference does, and `GAMES` random games.
fn passes_the_suite_and_random_games(name: &str, command: &str) {
    let started = Instant::now();
    let (code, r) = conform(&["--impl", command]);
    let suite = started.elapsed();
    assert_eq!(
        r["summary"],
        *REFERENCE,
        "the {name} kit does not pass what the reference passes: {:#?}",
        not_passed(&r)
    );
    assert_eq!(code, 0);
    assert!(r["summary"]["pass"].as_u64().unwrap_or(0) > 300, "{r:#}");

    let started = Instant::now();
    let games = GAMES.to_string();
    let (code, r) = conform(&["--impl", command, "--random", &games, "--seed", "1"]);
    let random = started.elapsed();
    assert_eq!(
        (code, &r["clean_games"], &r["played"]),
        (0, &Value::from(GAMES), &Value::from(GAMES)),
        "the {name} kit diverges in random games: {r:#}"
    );
    eprintln!(
        "{name} kit: the suite in {:.1} s, {GAMES} random games in {:.1} s",
        suite.as_secs_f64(),
        random.as_secs_f64()
    );
}

#[test]
fn the_python_kit_relays_the_reference_through_its_types() {
    let python = python();
    let dir = kit("python");
    // The kit needs only the standard library: `-S` leaves out site-packages and starts sooner.
    let command = format!(
        "'{python}' -S '{}' --relay --push-rummy '{BIN}'",
        dir.join("adapter.py").display()
    );
    passes_the_suite_and_random_games("Python", &command);
    let (ok, out, err) = run_in(
        &dir,
        &python,
        &["-S", "-m", "unittest", "discover", "-s", "tests"],
    )
    .expect("python runs");
    assert!(ok, "the Python kit's unit tests fail:\n{out}\n{err}");
}

#[test]
fn the_typescript_kit_relays_the_reference_through_its_types() {
    let node = node();
    let dir = kit("typescript");
    let command = format!(
        "{node} '{}' --relay --push-rummy '{BIN}'",
        dir.join("adapter.js").display()
    );
    passes_the_suite_and_random_games("TypeScript", &command);
    let (ok, out, err) = run_in(&dir, &node, &["--test", "test/"]).expect("node runs");
    assert!(ok, "the TypeScript kit's unit tests fail:\n{out}\n{err}");
    // The type check needs the compiler from npm (`npm ci` in the kit): optional here.
    let tsc = dir.join("node_modules/.bin/tsc");
    if tsc.exists() {
        let (ok, out, err) =
            run_in(&dir, &tsc.display().to_string(), &["-p", "."]).expect("tsc runs");
        assert!(ok, "the TypeScript kit does not type-check:\n{out}\n{err}");
    } else {
        eprintln!(
            "skipped the TypeScript kit's type check: no {} (run `npm ci` in conformance/adapters/typescript)",
            tsc.display()
        );
    }
}
