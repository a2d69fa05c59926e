//! `replay`: one scenario's canonical transcript (and whether its expectations hold), or, with
//! `--check`, every scenario's transcript compared with its golden file (`NAME.snap`) and, with
//! `--bless`, the golden files rewritten. This is the one place that reads and writes goldens.

use super::common::{Common, Failure, bad_input, look, pretty_json, readings, rendered};
use clap::Args;
use push_rummy::rules::disputes::DisputeId;
use push_rummy::suite::scenario::{self, Scenario};
use push_rummy::suite::transcript::{self, Replay};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

// No doc comment here: the command's help is the doc of `Command::Replay` in main.rs.
#[derive(Args)]
pub struct ReplayArgs {
    /// A scenario file; with --check or --bless any number of files and directories
    /// (searched recursively).
    #[arg(required = true)]
    pub paths: Vec<String>,
    /// Compare each transcript with its golden file.
    #[arg(long, conflicts_with = "bless")]
    pub check: bool,
    /// Write each transcript to its golden file.
    #[arg(long)]
    pub bless: bool,
}

/// `replay`: one scenario's transcript, or `--check` / `--bless` over files and directories.
pub fn run(common: &Common, args: &ReplayArgs) -> Result<u8, Failure> {
    let (check, bless) = (args.check, args.bless);
    let extra = readings(common)?;
    let files = scenario_files(&args.paths, check || bless)?;
    if !(check || bless) {
        return replay_one(common, &files, &extra);
    }
    Ok(check_or_bless(common, &files, &extra, check, bless))
}

/// The files named, directories searched for scenarios (only with `--check` or `--bless`).
fn scenario_files(paths: &[String], many: bool) -> Result<Vec<PathBuf>, Failure> {
    let mut files = Vec::new();
    for p in paths {
        let path = Path::new(p);
        if path.is_dir() {
            if !many {
                return Err(bad_input(format!(
                    "{p} is a directory: replay prints one scenario; use --check or --bless for a directory"
                )));
            }
            let found =
                scenario::find_scenarios(path).map_err(|e| bad_input(format!("{p}: {e}")))?;
            if found.is_empty() {
                return Err(bad_input(format!("{p}: no scenario files (*.yaml) found")));
            }
            files.extend(found);
        } else {
            files.push(path.to_path_buf());
        }
    }
    Ok(files)
}

/// A scenario file read, or its diagnostics (rendered for people, as data for `--json`).
fn load(f: &Path, extra: &[(DisputeId, String)]) -> Result<Scenario, Failure> {
    scenario::load(f, extra).map_err(|e| Failure {
        code: 2,
        json: json!({ "error": "the scenario could not be loaded", "file": f.display().to_string(), "diagnostics": e.diagnostics.0 }),
        text: rendered(&e),
    })
}

/// The expectations of a replay that failed, on stderr, each with its file, line and step.
fn report_failures(f: &Path, r: &Replay) {
    for x in &r.failures {
        eprintln!("{}:{}: step {}: {}", f.display(), x.line, x.step, x.message);
    }
}

/// One scenario replayed: its transcript on stdout, its failed expectations on stderr.
fn replay_one(
    common: &Common,
    files: &[PathBuf],
    extra: &[(DisputeId, String)],
) -> Result<u8, Failure> {
    if files.len() != 1 {
        return Err(bad_input(
            "replay prints one scenario; give one file, or use --check or --bless for several"
                .into(),
        ));
    }
    let f = &files[0];
    let s = load(f, extra)?;
    let r = transcript::replay(&s);
    if common.json {
        out!("{}", pretty_json(&r.transcript.json()));
    } else {
        // The canonical text; on a terminal with suit symbols and colour.
        out_raw!("{}", look(common).paint(&r.transcript.text()));
    }
    report_failures(f, &r);
    Ok(if r.failures.is_empty() { 0 } else { 1 })
}

/// What `--check` and `--bless` found over the files: counts, one result per file for
/// `--json`, and the exit code so far (the worst).
#[derive(Default)]
struct Tally {
    worst: u8,
    ok: usize,
    differ: usize,
    failed: usize,
    missing: usize,
    bad: usize,
    results: Vec<Value>,
}

/// `--check` or `--bless`: each scenario replayed and its transcript compared with, or written
/// to, its golden file. Returns the exit code.
fn check_or_bless(
    common: &Common,
    files: &[PathBuf],
    extra: &[(DisputeId, String)],
    check: bool,
    bless: bool,
) -> u8 {
    let mut t = Tally::default();
    for f in files {
        let name = f.display().to_string();
        let s = match load(f, extra) {
            Ok(s) => s,
            Err(e) => {
                eprint!("{}", e.text);
                t.bad += 1;
                t.worst = 2;
                t.results.push(json!({ "file": name, "status": "bad-input", "diagnostics": e.json["diagnostics"] }));
                continue;
            }
        };
        let r = transcript::replay(&s);
        let text = r.transcript.text();
        let golden = transcript::golden_path(f);
        let held = r.failures.is_empty();
        if !held {
            report_failures(f, &r);
            t.failed += 1;
            t.worst = t.worst.max(1);
        }
        if bless {
            bless_golden(common, &mut t, &name, &golden, &text, held);
        } else {
            compare_golden(common, &mut t, &name, &golden, &text, held);
        }
    }
    if common.json {
        out!("{}", pretty_json(&json!({ "scenarios": t.results })));
    } else if check {
        out!(
            "{} scenario(s): {} ok, {} differ from their golden, {} with failed expectations, {} without golden, {} unreadable",
            files.len(),
            t.ok,
            t.differ,
            t.failed,
            t.missing,
            t.bad
        );
    }
    t.worst
}

/// `--bless`: writes the transcript to its golden file unless it is there already.
fn bless_golden(common: &Common, t: &mut Tally, name: &str, golden: &Path, text: &str, held: bool) {
    let body = transcript::golden_file(text);
    let before = std::fs::read_to_string(golden).ok();
    let status = if before.as_deref() == Some(body.as_str()) {
        "unchanged"
    } else if let Err(e) = std::fs::write(golden, &body) {
        eprintln!("{}: cannot write: {e}", golden.display());
        t.worst = 2;
        "write-failed"
    } else {
        "blessed"
    };
    if !common.json {
        out!("{status:<9} {}", golden.display());
    }
    t.results.push(json!({ "file": name, "golden": golden.display().to_string(), "status": status, "held": held }));
}

/// `--check`: compares the transcript with its golden file; a missing or unreadable golden is
/// bad input (exit 2), a different one a failure (exit 1) shown as a diff.
fn compare_golden(
    common: &Common,
    t: &mut Tally,
    name: &str,
    golden: &Path,
    text: &str,
    held: bool,
) {
    let Ok(stored) = std::fs::read_to_string(golden) else {
        eprintln!(
            "{name}: no golden transcript {} (run `push-rummy replay --bless {name}` and review it)",
            golden.display()
        );
        t.missing += 1;
        t.worst = 2;
        t.results
            .push(json!({ "file": name, "status": "missing-golden", "held": held }));
        return;
    };
    let Some(want) = transcript::golden_contents(&stored) else {
        eprintln!(
            "{}: not a golden transcript (it must start with a `---` header)",
            golden.display()
        );
        t.bad += 1;
        t.worst = 2;
        t.results
            .push(json!({ "file": name, "status": "bad-golden", "held": held }));
        return;
    };
    if want == text.trim_end() {
        if held {
            t.ok += 1;
        }
        if !common.json {
            out!("{:<9} {name}", if held { "ok" } else { "FAILED" });
        }
        t.results
            .push(json!({ "file": name, "status": "same", "held": held }));
    } else {
        t.differ += 1;
        t.worst = t.worst.max(1);
        let d = transcript::diff(&want, text.trim_end(), 60);
        if !common.json {
            out!("DIFFERS   {name} (- golden {}, + replay)", golden.display());
            out_raw!("{d}");
        }
        t.results
            .push(json!({ "file": name, "status": "differs", "held": held, "diff": d }));
    }
}
