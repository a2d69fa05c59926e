//! The README's tours are real: every `console` block is run and its output compared; so are
//! those of conformance/README.md (blocks indented in a list item too) and of the adapter kits'
//! READMEs.
//!
//! In a block, a line `$ COMMAND` is run with `sh` in a scratch directory (the repository's
//! `conformance/`, `spec/` and built examples linked in, the built `push-rummy` first on `PATH`),
//! stdout and stderr together; the lines up to the next `$` are what it must print. A line `…`
//! stands for any number of lines, a line ending in `…` for one line that starts with the rest.
//! `$ cat FILE` is not run: its lines *are* the file, written for the commands after it, so a
//! tour shows every file it uses. `$ cargo …` is not run either (`cargo test` has built the
//! examples the tours name).

use crate::common;
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_push-rummy");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// One `$ command` of a console block and the lines it must print.
#[derive(Debug)]
struct Step {
    line: usize,
    command: String,
    expected: Vec<String>,
}

fn console_steps(readme: &str) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    // The indentation of the open `console` block (a block in a list item is indented).
    let mut indent: Option<usize> = None;
    for (i, line) in readme.lines().enumerate() {
        let body = line.trim_start();
        if body.starts_with("```") {
            indent = match indent {
                None if body.trim_end() == "```console" => Some(line.len() - body.len()),
                _ => None,
            };
            continue;
        }
        let Some(n) = indent else {
            continue;
        };
        let line = line.get(n..).unwrap_or("");
        if let Some(cmd) = line.strip_prefix("$ ") {
            steps.push(Step {
                line: i + 1,
                command: cmd.to_string(),
                expected: Vec::new(),
            });
        } else if let Some(step) = steps.last_mut() {
            step.expected.push(line.trim_end().to_string());
        } else {
            panic!("line {}: output before any `$ command`", i + 1);
        }
    }
    steps
}

/// Whether `actual` is what `expected` describes (`…` lines as above).
fn matches(expected: &[String], actual: &[&str]) -> bool {
    // ok[i][j]: expected[i..] matches actual[j..].
    let (n, m) = (expected.len(), actual.len());
    let mut ok = vec![vec![false; m + 1]; n + 1];
    ok[n][m] = true;
    for i in (0..n).rev() {
        for j in (0..=m).rev() {
            let e = expected[i].as_str();
            ok[i][j] = if e == "…" {
                ok[i + 1][j] || (j < m && ok[i][j + 1])
            } else if j == m {
                false
            } else if let Some(prefix) = e.strip_suffix('…') {
                actual[j].starts_with(prefix) && ok[i + 1][j + 1]
            } else {
                actual[j] == e && ok[i + 1][j + 1]
            };
        }
    }
    ok[0][0]
}

fn link(from: &Path, to: &Path) {
    #[cfg(unix)]
    std::os::unix::fs::symlink(from, to).expect("a symlink in the scratch directory");
    #[cfg(not(unix))]
    panic!(
        "the README test needs symlinks ({} → {})",
        to.display(),
        from.display()
    );
}

/// A scratch directory that looks like the repository to the tours' commands.
fn scratch() -> PathBuf {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let d = std::env::temp_dir().join(format!("push-rummy-readme-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("target/debug")).expect("a scratch directory");
    for dir in ["conformance", "spec", "examples"] {
        link(&root().join(dir), &d.join(dir));
    }
    // The examples `cargo test` built, where `cargo build --example` puts them.
    link(&common::examples_dir(), &d.join("target/debug/examples"));
    d
}

#[test]
fn every_readme_tour_prints_what_the_readme_shows() {
    run_console_blocks("README.md", 20);
}

/// conformance/README.md's examples of the protocol and of `conform` are real too.
#[test]
fn the_conformance_docs_print_what_they_show() {
    run_console_blocks("conformance/README.md", 2);
}

/// Runs every `console` block of `file` (at least `min` commands), comparing their output.
fn run_console_blocks(file: &str, min: usize) {
    let readme = std::fs::read_to_string(root().join(file)).expect(file);
    let steps = console_steps(&readme);
    assert!(steps.len() >= min, "only {} commands found", steps.len());
    let dir = scratch();
    let bin_dir = Path::new(BIN).parent().expect("the binary's directory");
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut failures = Vec::new();
    for step in &steps {
        if step.command.starts_with("cargo ") {
            assert!(step.expected.is_empty(), "{file}:{}", step.line);
            continue;
        }
        if let Some(name) = step.command.strip_prefix("cat ") {
            let mut text = step.expected.join("\n");
            text.push('\n');
            std::fs::write(dir.join(name), text).expect("a file of the tour");
            continue;
        }
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("{} 2>&1", step.command))
            .current_dir(&dir)
            .env("PATH", &path)
            .env_remove("NO_COLOR")
            .output()
            .expect("sh runs");
        let text = String::from_utf8_lossy(&out.stdout);
        let actual: Vec<&str> = text.lines().map(str::trim_end).collect();
        if !matches(&step.expected, &actual) {
            failures.push(format!(
                "{file}:{}: $ {}\n--- the file shows:\n{}\n--- it prints:\n{}",
                step.line,
                step.command,
                step.expected.join("\n"),
                text
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The adapter kits' READMEs show real runs too (Python 3 and Node 20 must be installed).
#[test]
fn the_adapter_kits_print_what_their_readmes_show() {
    run_console_blocks("conformance/adapters/python/README.md", 3);
    run_console_blocks("conformance/adapters/typescript/README.md", 3);
}

#[test]
fn the_matcher_reads_ellipses_as_the_readme_means_them() {
    let e = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(matches(&e(&["a", "…", "d"]), &["a", "b", "c", "d"]));
    assert!(matches(&e(&["a", "…", "d"]), &["a", "d"]));
    assert!(!matches(&e(&["a", "…", "d"]), &["a", "b"]));
    assert!(matches(&e(&["pass x…", "z"]), &["pass xyz", "z"]));
    assert!(!matches(&e(&["pass x…"]), &["pass y"]));
    assert!(!matches(&e(&["a"]), &["a", "b"]));
    assert!(!matches(&e(&["a", "b"]), &["a"]));
    assert!(matches(&e(&["…"]), &[]));
}
