//! Settling rule disputes: a scenario replayed under each reading of a dispute, and the first
//! point where the replays part (`push-rummy disputes settle`, `show` and `affecting`).
//!
//! A dispute's scenarios are the conformance scenarios whose `exercises` name it: the scenario
//! files are the one place that says which scenarios tell its readings apart, so adding a dispute
//! is one entry in `spec/disputes.yaml` plus scenarios that name it.

use crate::rules::LoadError;
use crate::rules::disputes::DisputeId;
use crate::suite::scenario::{self, Scenario};
use crate::suite::transcript::{self, State, StepRecord, Transcript};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// One replay of a scenario under one reading.
#[derive(Clone, Debug, Serialize)]
pub struct Run {
    pub reading: String,
    /// The reading the scenario itself puts in force (no override).
    pub in_force: bool,
    /// How the replay ended, or why the scenario cannot be set up under this reading.
    pub end: Result<End, String>,
    #[serde(skip)]
    pub transcript: Option<Transcript>,
}

/// The end of a replay, in brief.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct End {
    /// The result of each step that played an action: `ok` or `rejected CODE`.
    pub results: Vec<String>,
    pub totals: Vec<i64>,
    pub hands_ended: Vec<String>,
    pub game_over: bool,
    pub winners: Vec<u8>,
}

/// Where two replays first differ.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Parting {
    /// The step (from 1), or 0 when they differ before the first step.
    pub step: usize,
    /// The action of that step, if it has one.
    pub action: Option<String>,
    /// What differs (`result`, `state: hands`, `setup`, …).
    pub what: String,
    /// What each side shows there.
    pub left: String,
    pub right: String,
}

/// A scenario under every reading of one dispute.
#[derive(Clone, Debug, Serialize)]
pub struct Settlement {
    pub dispute: String,
    pub scenario: String,
    pub title: String,
    pub runs: Vec<Run>,
    /// For each reading not in force, where it parts from the one in force (`None`: nowhere).
    pub partings: Vec<(String, Option<Parting>)>,
    /// The rules the scenario's rule set states that override the dispute (`PATH: VALUE`,
    /// `rules::overrides`): where any, no reading decides and the replays cannot part over it.
    pub overridden_by: Vec<String>,
}

impl Settlement {
    /// Whether some reading ends differently from another.
    pub fn differs(&self) -> bool {
        self.partings.iter().any(|(_, p)| p.is_some())
    }
}

fn end_of(t: &Transcript) -> End {
    End {
        results: t.steps.iter().filter_map(result_text).collect(),
        totals: t.outcome.totals.clone(),
        hands_ended: t
            .outcome
            .hands
            .iter()
            .map(|h| format!("deal {}: {}, points {:?}", h.round, h.end, h.points))
            .collect(),
        game_over: t.outcome.game_over,
        winners: t.outcome.winners.clone(),
    }
}

fn result_text(s: &StepRecord) -> Option<String> {
    let r = s.result.as_ref()?;
    Some(if r.ok {
        "ok".to_string()
    } else {
        format!("rejected {}", r.reason.as_deref().unwrap_or("?"))
    })
}

/// The first field of two states that differs, with both values.
fn state_parting(a: &State, b: &State) -> Option<(String, String, String)> {
    let (ja, jb) = (
        serde_json::to_value(a).unwrap_or_default(),
        serde_json::to_value(b).unwrap_or_default(),
    );
    let (Some(ma), Some(mb)) = (ja.as_object(), jb.as_object()) else {
        return (ja != jb).then(|| ("state".into(), ja.to_string(), jb.to_string()));
    };
    for (k, va) in ma {
        let vb = mb.get(k).cloned().unwrap_or_default();
        if *va != vb {
            return Some((format!("state: {k}"), va.to_string(), vb.to_string()));
        }
    }
    None
}

/// Where `b` first parts from `a`: the start, then each step's result, events and state, then
/// the outcome.
pub fn first_parting(a: &Transcript, b: &Transcript) -> Option<Parting> {
    if let Some((what, left, right)) = state_parting(&a.start, &b.start) {
        return Some(Parting {
            step: 0,
            action: None,
            what: format!("start {what}"),
            left,
            right,
        });
    }
    for (sa, sb) in a.steps.iter().zip(&b.steps) {
        let at = |what: String, left: String, right: String| Parting {
            step: sa.step,
            action: sa.action.clone(),
            what,
            left,
            right,
        };
        match (&sa.result, &sb.result) {
            (Some(ra), Some(rb)) => {
                let (ta, tb) = (result_text(sa), result_text(sb));
                if ta != tb {
                    let say = |s: &StepRecord| {
                        let r = s.result.as_ref().expect("a result");
                        match &r.message {
                            Some(m) if !r.ok => {
                                format!("{} ({m})", result_text(s).unwrap_or_default())
                            }
                            _ => result_text(s).unwrap_or_default(),
                        }
                    };
                    return Some(at("result".into(), say(sa), say(sb)));
                }
                if ra.events_text != rb.events_text {
                    return Some(at(
                        "events".into(),
                        ra.events_text.join("; "),
                        rb.events_text.join("; "),
                    ));
                }
            }
            (None, None) => {}
            _ => return Some(at("step".into(), "—".into(), "—".into())),
        }
        if let Some((what, left, right)) = state_parting(&sa.state, &sb.state) {
            return Some(at(what, left, right));
        }
    }
    let (ea, eb) = (end_of(a), end_of(b));
    (ea != eb).then(|| Parting {
        step: a.steps.len(),
        action: None,
        what: "outcome".into(),
        left: format!("{ea:?}"),
        right: format!("{eb:?}"),
    })
}

fn first_message(e: &LoadError) -> String {
    e.diagnostics
        .0
        .first()
        .map_or_else(|| e.to_string(), |d| d.message.clone())
}

/// Replays `path` under every reading of `dispute` (and the `extra` readings of the command
/// line).
///
/// # Errors
/// The scenario does not load as it is (with only `extra`): bad input.
pub fn settle(
    path: &Path,
    dispute: DisputeId,
    extra: &[(DisputeId, String)],
) -> Result<Settlement, LoadError> {
    let base = scenario::load(path, extra)?;
    let in_force = base.rules.rules.readings.name(dispute).to_string();
    let mut runs = Vec::new();
    for name in dispute.reading_names() {
        let mut with: Vec<(DisputeId, String)> = extra.to_vec();
        with.push((dispute, (*name).to_string()));
        let run = match scenario::load(path, &with) {
            Ok(s) => {
                let t = transcript::replay(&s).transcript;
                Run {
                    reading: (*name).to_string(),
                    in_force: *name == in_force,
                    end: Ok(end_of(&t)),
                    transcript: Some(t),
                }
            }
            Err(e) => Run {
                reading: (*name).to_string(),
                in_force: *name == in_force,
                end: Err(first_message(&e)),
                transcript: None,
            },
        };
        runs.push(run);
    }
    // The reading in force is the scenario as it stands: its run is the reference.
    let reference = match runs
        .iter()
        .find(|r| r.in_force)
        .and_then(|r| r.transcript.clone())
    {
        Some(t) => t,
        None => transcript::replay(&base).transcript,
    };
    let partings = runs
        .iter()
        .filter(|r| !r.in_force)
        .map(|r| {
            let p = match (&r.transcript, &r.end) {
                (Some(t), _) => first_parting(&reference, t),
                (None, Err(why)) => Some(Parting {
                    step: 0,
                    action: None,
                    what: "setup".into(),
                    left: "the scenario sets up".into(),
                    right: format!("it cannot be set up: {why}"),
                }),
                (None, Ok(_)) => None,
            };
            (r.reading.clone(), p)
        })
        .collect();
    Ok(Settlement {
        dispute: dispute.id().to_string(),
        scenario: path.display().to_string(),
        title: base.title.clone(),
        runs,
        partings,
        overridden_by: crate::rules::overrides::stated_overrides(&base.rules.raw, dispute),
    })
}

/// The scenarios under `dir` whose `exercises` name `dispute`, in path order.
///
/// # Errors
/// `dir` cannot be read.
pub fn scenarios_of(dir: &Path, dispute: DisputeId) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for f in scenario::find_scenarios(dir)? {
        if let Ok(s) = scenario::load(&f, &[])
            && names(&s, dispute)
        {
            out.push(f);
        }
    }
    Ok(out)
}

fn names(s: &Scenario, dispute: DisputeId) -> bool {
    s.exercises.disputes.iter().any(|(d, _)| *d == dispute)
}

/// A dispute that changes a scenario: the readings that part from the one in force, and where.
#[derive(Clone, Debug, Serialize)]
pub struct Affecting {
    pub dispute: String,
    pub in_force: String,
    pub partings: Vec<(String, Parting)>,
}

/// Every dispute one of whose other readings changes the replay of `path` at all.
///
/// # Errors
/// The scenario does not load as it is: bad input.
pub fn affecting(path: &Path, extra: &[(DisputeId, String)]) -> Result<Vec<Affecting>, LoadError> {
    let mut out = Vec::new();
    for d in DisputeId::ALL {
        let s = settle(path, d, extra)?;
        let partings: Vec<(String, Parting)> = s
            .partings
            .into_iter()
            .filter_map(|(r, p)| p.map(|p| (r, p)))
            .collect();
        if !partings.is_empty() {
            let in_force = s
                .runs
                .iter()
                .find(|r| r.in_force)
                .map(|r| r.reading.clone())
                .unwrap_or_default();
            out.push(Affecting {
                dispute: d.id().to_string(),
                in_force,
                partings,
            });
        }
    }
    Ok(out)
}

/// One line of a settlement for people: what the step does under a reading.
pub fn describe_parting(p: &Parting) -> String {
    let at = match (p.step, &p.action) {
        (0, _) => "before the first step".to_string(),
        (n, Some(a)) => format!("step {n} ({a})"),
        (n, None) => format!("after step {n}"),
    };
    format!("{at}, {}: {} | {}", p.what, p.left, p.right)
}
