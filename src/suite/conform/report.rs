//! What `conform` reports: the first [`Divergence`] between the reference and the
//! implementation (with the text people read), a scenario's [`Verdict`] and [`ScenarioReport`],
//! and the [`SuiteReport`] of a directory with its counts and exit code. These are data: how a
//! divergence is found is `compare.rs`'s, which rules it names is `rules_involved.rs`'s.

use super::departures::Known;
use serde::Serialize;
use std::collections::BTreeMap;

/// The first difference between the reference and the implementation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Divergence {
    /// The step (from 1; 0 is the position before the first step).
    pub step: usize,
    pub seat: Option<u8>,
    pub action: Option<String>,
    /// What differs: `result`, `events[2]`, `state.hands[1]`, `legal`, `observation[2].hand`, …
    pub field: String,
    pub reference: String,
    pub implementation: String,
    /// The rules and dispute readings involved (from the scenario's `exercises`, narrowed by what
    /// differs).
    pub rules: Vec<String>,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (&self.action, self.seat) {
            (Some(a), Some(s)) => write!(f, "step {} (seat {s}: {a})", self.step)?,
            _ if self.step == 0 => write!(f, "the start position")?,
            _ => write!(f, "step {} (checkpoint)", self.step)?,
        }
        write!(
            f,
            ": {}: reference {}, implementation {}",
            self.field, self.reference, self.implementation
        )?;
        if !self.rules.is_empty() {
            write!(f, "; rule: {}", self.rules.join(", "))?;
        }
        Ok(())
    }
}

/// A scenario's verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum Verdict {
    Pass,
    Fail {
        divergence: Divergence,
    },
    /// A divergence that a known departure (`--departures`) matches.
    Known {
        divergence: Divergence,
        departure: Known,
    },
    Skipped {
        reason: String,
    },
    Errored {
        error: String,
    },
}

/// One scenario run against the implementation: its verdict and what it exercises.
#[derive(Clone, Debug, Serialize)]
pub struct ScenarioReport {
    pub file: String,
    pub title: String,
    #[serde(flatten)]
    pub verdict: Verdict,
    /// Steps compared before the verdict.
    pub steps: usize,
    /// Rule paths the scenario says it exercises.
    pub rules: Vec<String>,
    /// Dispute readings the scenario exercises (`id=reading`; a bare id in `exercises` counts
    /// for the reading in force).
    pub readings: Vec<String>,
    /// What the implementation does not report (its `hello`, protocol 2), so was not compared.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_compared: Vec<String>,
}

/// The result of running a directory of scenarios.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SuiteReport {
    pub implementation: String,
    pub scenarios: Vec<ScenarioReport>,
    /// Files that do not load, with their diagnostics rendered.
    pub invalid: Vec<(String, String)>,
    /// Why the run stopped before the last scenario, if it did.
    pub stopped: Option<String>,
    /// Scenarios not run because the run stopped early.
    pub not_run: usize,
    /// What the implementation does not report, so was not compared in some scenario.
    pub not_compared: Vec<String>,
    /// With `--departures`: the entries no scenario's divergence matched (`FILE:LINE (names)`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unmatched_departures: Option<Vec<String>>,
}

impl SuiteReport {
    pub fn count(&self, which: &str) -> usize {
        self.scenarios
            .iter()
            .filter(|r| {
                matches!(
                    (&r.verdict, which),
                    (Verdict::Pass, "pass")
                        | (Verdict::Fail { .. }, "fail")
                        | (Verdict::Known { .. }, "known")
                        | (Verdict::Skipped { .. }, "skipped")
                        | (Verdict::Errored { .. }, "errored")
                )
            })
            .count()
    }

    /// 0 all passed (skips and known departures allowed), 1 a failure or error, 2 a scenario that
    /// does not load.
    pub fn exit_code(&self) -> u8 {
        if !self.invalid.is_empty() {
            2
        } else if self.count("fail") + self.count("errored") > 0 || self.stopped.is_some() {
            1
        } else {
            0
        }
    }
}

/// Groups reports by verdict name, for summaries.
pub fn summary(report: &SuiteReport) -> BTreeMap<&'static str, usize> {
    let mut m = BTreeMap::new();
    for k in ["pass", "fail", "known", "skipped", "errored"] {
        m.insert(k, report.count(k));
    }
    m
}
