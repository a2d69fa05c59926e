//! The suite's scenarios against the implementation: [`run_scenario`] starts the implementation
//! from a scenario's position and compares it with the reference's replay step by step
//! (`compare.rs`); [`run_suite`] does so for every scenario of a directory. A scenario under
//! `engine-disagreements/` is skipped, and with the built-in engine a scenario whose own
//! expectations the reference does not hold fails at that step.

use super::Options;
use super::compare::{Stop, compare};
use super::implementation::ImplSpec;
use super::report::{Divergence, ScenarioReport, SuiteReport, Verdict};
use super::rules_involved::{exercised_names, rules_involved};
use crate::suite::scenario::{self, Scenario};
use crate::suite::transcript;
use std::path::{Path, PathBuf};

/// Whether a scenario sits under `engine-disagreements/` (written as the rules say where the
/// reference engine is known to do otherwise).
fn is_disagreement(file: &str) -> bool {
    Path::new(file)
        .components()
        .any(|c| c.as_os_str() == "engine-disagreements")
}

/// Runs one scenario against the implementation.
pub fn run_scenario(s: &Scenario, imp: &ImplSpec, opts: &Options) -> ScenarioReport {
    let (rules, readings) = exercised_names(s);
    let mut report = ScenarioReport {
        file: s.file.clone(),
        title: s.title.clone(),
        verdict: Verdict::Pass,
        steps: 0,
        rules,
        readings,
    };
    if is_disagreement(&s.file) {
        report.verdict = Verdict::Skipped {
            reason:
                "engine-disagreements: the reference engine is known to differ from this scenario"
                    .into(),
        };
        return report;
    }
    let replay = transcript::replay(s);
    let exercised: Vec<String> = report
        .rules
        .iter()
        .chain(report.readings.iter())
        .cloned()
        .collect();
    if let ImplSpec::BuiltIn = imp
        && let Some(f) = replay.failures.first()
    {
        let st = &replay.transcript.steps[f.step - 1];
        let action = s.steps[f.step - 1].action.clone();
        report.verdict = Verdict::Fail {
            divergence: Divergence {
                step: f.step,
                seat: st.seat,
                action: st.action.clone(),
                field: "expectation".into(),
                reference: format!("does not hold the scenario: {}", f.message),
                implementation: "(the reference itself)".into(),
                rules: rules_involved(&s.rules, &exercised, action.as_ref(), "", None),
            },
        };
        return report;
    }
    let mut instance = match imp.start(opts.timeout) {
        Ok(i) => i,
        Err(e) => {
            report.verdict = Verdict::Errored { error: e };
            return report;
        }
    };
    let outcome = compare(
        s,
        &replay.transcript,
        instance.as_mut(),
        &exercised,
        &mut report.steps,
    );
    instance.close();
    report.verdict = match outcome {
        Ok(()) => Verdict::Pass,
        Err(Stop::Skipped(reason)) => Verdict::Skipped { reason },
        Err(Stop::Errored(error)) => Verdict::Errored { error },
        Err(Stop::Diverged(divergence)) => Verdict::Fail {
            divergence: *divergence,
        },
    };
    report
}

/// Runs every scenario under `dir` (or the one file `dir`).
///
/// # Errors
/// `dir` cannot be read.
pub fn run_suite(dir: &Path, imp: &ImplSpec, opts: &Options) -> Result<SuiteReport, String> {
    let files = scenario_files(dir)?;
    if files.is_empty() {
        return Err(format!("{}: no scenario files (*.yaml)", dir.display()));
    }
    let mut report = SuiteReport {
        implementation: imp.describe(),
        ..SuiteReport::default()
    };
    for f in files {
        match scenario::load(&f, &[]) {
            Ok(s) => report.scenarios.push(run_scenario(&s, imp, opts)),
            Err(e) => report.invalid.push((f.display().to_string(), e.render())),
        }
    }
    Ok(report)
}

/// The scenario files under `dir` (searched recursively), or the one file `dir`.
pub(super) fn scenario_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    if dir.is_file() {
        Ok(vec![dir.to_path_buf()])
    } else {
        scenario::find_scenarios(dir).map_err(|e| format!("{}: {e}", dir.display()))
    }
}
