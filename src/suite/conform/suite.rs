//! The suite's scenarios against the implementation: [`run_scenario`] starts the implementation
//! from a scenario's position and compares it with the reference's replay step by step
//! (`compare.rs`); [`run_suite`] does so for every scenario of a directory. A scenario under
//! `engine-disagreements/` is skipped, and with the built-in engine a scenario whose own
//! expectations the reference does not hold fails at that step. A divergence that a known
//! departure matches ([`Options::departures`](super::Options)) is the verdict `known`, not `fail`.

use super::compare::{Stop, compare};
use super::implementation::ImplSpec;
use super::report::{Divergence, ScenarioReport, SuiteReport, Verdict};
use super::rules_involved::{exercised_names, rules_involved};
use super::{ERRORED_IN_A_ROW, Options};
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
    run_one(s, imp, opts).0
}

/// Runs one scenario against the implementation; also says whether it errored at `hello` (or the
/// implementation could not be started), where the next scenario will not fare better.
fn run_one(s: &Scenario, imp: &ImplSpec, opts: &Options) -> (ScenarioReport, bool) {
    let (rules, readings) = exercised_names(s);
    let mut report = ScenarioReport {
        file: s.file.clone(),
        title: s.title.clone(),
        verdict: Verdict::Pass,
        steps: 0,
        rules,
        readings,
        not_compared: Vec::new(),
    };
    if is_disagreement(&s.file) {
        report.verdict = Verdict::Skipped {
            reason:
                "engine-disagreements: the reference engine is known to differ from this scenario"
                    .into(),
        };
        return (report, false);
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
        return (report, false);
    }
    let mut instance = match imp.start(opts.timeout) {
        Ok(i) => i,
        Err(e) => {
            report.verdict = Verdict::Errored { error: e };
            return (report, true);
        }
    };
    let outcome = compare(
        s,
        &replay.transcript,
        instance.as_mut(),
        &exercised,
        &mut report.steps,
        &mut report.not_compared,
    );
    instance.close();
    let mut dead = false;
    report.verdict = match outcome {
        Ok(()) => Verdict::Pass,
        Err(Stop::Skipped(reason)) => Verdict::Skipped { reason },
        Err(Stop::Errored(error)) => Verdict::Errored { error },
        Err(Stop::Dead(error)) => {
            dead = true;
            Verdict::Errored { error }
        }
        Err(Stop::Diverged(divergence)) => {
            match opts.departures.as_ref().and_then(|k| k.known(&divergence)) {
                Some(departure) => Verdict::Known {
                    divergence: *divergence,
                    departure,
                },
                None => Verdict::Fail {
                    divergence: *divergence,
                },
            }
        }
    };
    (report, dead)
}

/// Runs every scenario under `dir` (or the one file `dir`), handing each report to `each` as it
/// comes. Unless `opts.keep_going`, the run stops at a scenario errored at `hello` (or whose
/// implementation could not be started) and after [`ERRORED_IN_A_ROW`] errored scenarios in a
/// row; the report says why and how many scenarios were not run.
///
/// # Errors
/// `dir` cannot be read.
pub fn run_suite(
    dir: &Path,
    imp: &ImplSpec,
    opts: &Options,
    each: &mut dyn FnMut(&ScenarioReport),
) -> Result<SuiteReport, String> {
    let files = scenario_files(dir)?;
    if files.is_empty() {
        return Err(format!("{}: no scenario files (*.yaml)", dir.display()));
    }
    let mut report = SuiteReport {
        implementation: imp.describe(),
        ..SuiteReport::default()
    };
    let mut errored_in_a_row = 0;
    let total = files.len();
    for (i, f) in files.iter().enumerate() {
        let s = match scenario::load(f, &[]) {
            Ok(s) => s,
            Err(e) => {
                report.invalid.push((f.display().to_string(), e.render()));
                continue;
            }
        };
        let (r, dead) = run_one(&s, imp, opts);
        each(&r);
        for n in &r.not_compared {
            if !report.not_compared.contains(n) {
                report.not_compared.push(n.clone());
            }
        }
        errored_in_a_row = match r.verdict {
            Verdict::Errored { .. } => errored_in_a_row + 1,
            _ => 0,
        };
        report.scenarios.push(r);
        let why = if dead {
            Some("the implementation does not answer `hello`".to_string())
        } else if errored_in_a_row >= ERRORED_IN_A_ROW {
            Some(format!("{ERRORED_IN_A_ROW} scenarios in a row errored"))
        } else {
            None
        };
        if let Some(why) = why.filter(|_| !opts.keep_going && i + 1 < total) {
            report.not_run = total - i - 1;
            report.stopped = Some(format!(
                "stopped early: {why}; {} scenario(s) not run (--keep-going runs them all)",
                report.not_run
            ));
            break;
        }
    }
    if let Some(k) = &opts.departures {
        let used: Vec<usize> = report
            .scenarios
            .iter()
            .filter_map(|r| match &r.verdict {
                Verdict::Known { departure, .. } => Some(departure.entry),
                _ => None,
            })
            .collect();
        report.unmatched_departures = Some(k.unmatched(&used));
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
