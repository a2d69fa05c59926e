//! The conformance suite: every scenario under `conformance/` is replayed, every expectation in it
//! must hold, and its transcript must equal its golden file (`NAME.snap` next to `NAME.yaml`, an
//! insta snapshot). A missing golden fails (CI runs with `INSTA_UPDATE=no`; elsewhere insta writes
//! `NAME.snap.new` for review and still fails). `push-rummy replay --bless DIR` writes goldens.
//! Scenarios under `conformance/engine-disagreements/` are written as the rules say where the engine
//! does otherwise: each must still fail (when one passes, the engine was fixed: move it to its
//! topic). Every suite scenario says what it `exercises` (a scenario outside the suite need not).
//! Own test binary: its snapshots live next to the scenarios, not in `tests/snapshots/`.

use push_rummy::{suite::scenario, suite::transcript};
use std::path::Path;

#[test]
fn every_scenario_holds_and_matches_its_golden_transcript() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance");
    let files = scenario::find_scenarios(&root).expect("conformance/ is readable");
    assert!(files.len() >= 60, "only {} scenarios", files.len());
    let mut problems: Vec<String> = Vec::new();
    for f in &files {
        let shown = f
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .unwrap_or(f)
            .display()
            .to_string();
        let s = match scenario::load(f, &[]) {
            Ok(s) => s,
            Err(e) => {
                problems.push(format!("{shown} does not load:\n{}", e.render()));
                continue;
            }
        };
        if !s.exercises.stated {
            problems.push(format!(
                "{shown} has no `exercises`: a suite scenario lists the sources, rules and \
                 disputes it touches, for `conform --coverage`"
            ));
        }
        let r = transcript::replay(&s);
        let disagreement = f
            .components()
            .any(|c| c.as_os_str() == "engine-disagreements");
        if disagreement {
            if r.failures.is_empty() {
                problems.push(format!(
                    "{shown} now holds: the engine agrees with the rules; move it to its topic"
                ));
            }
        } else {
            for x in &r.failures {
                problems.push(format!(
                    "{shown}:{}: step {}: {}",
                    x.line, x.step, x.message
                ));
            }
        }
        let dir = f.parent().expect("a file has a directory").to_path_buf();
        let name = f
            .file_stem()
            .expect("a scenario file has a name")
            .to_string_lossy()
            .into_owned();
        let transcript = r.transcript.text();
        let checked = std::panic::catch_unwind(|| {
            let mut settings = insta::Settings::clone_current();
            settings.set_snapshot_path(&dir);
            settings.set_prepend_module_to_snapshot(false);
            settings.bind(|| insta::assert_snapshot!(name.as_str(), transcript));
        });
        if checked.is_err() {
            problems.push(format!(
                "{shown}: the transcript differs from its golden {} (or the golden is missing)",
                transcript::golden_path(Path::new(&shown)).display()
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn goldens_sit_next_to_scenarios_and_none_is_orphaned() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance");
    let files = scenario::find_scenarios(&root).expect("conformance/ is readable");
    let mut orphans = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("readable").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "snap")
                && !files.contains(&p.with_extension("yaml"))
            {
                orphans.push(p.display().to_string());
            }
        }
    }
    assert!(
        orphans.is_empty(),
        "goldens without a scenario: {orphans:?}"
    );
}
