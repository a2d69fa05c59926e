//! Coverage of the suite: which rules and dispute readings each scenario exercises (its
//! `exercises`), which no scenario touches, which readings are never in force, and which
//! readings no scenario tells apart from the others (replayed under the other readings with
//! `settle`, it ends the same). Nothing here runs an implementation.

use super::rules_involved::{exercised_names, reading_in_force};
use super::suite::scenario_files;
use crate::rules::disputes::DisputeId;
use crate::rules::spec;
use crate::suite::scenario;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Which rules and readings the scenarios exercise, and which nothing touches.
#[derive(Clone, Debug, Serialize)]
pub struct Coverage {
    /// Per scenario: the rules and readings it exercises.
    pub scenarios: Vec<CoverageEntry>,
    /// Rule paths (of the rule table, metadata left out) no scenario exercises.
    pub untouched_rules: Vec<String>,
    /// Dispute readings no scenario exercises.
    pub untouched_readings: Vec<String>,
    /// Dispute readings not even in force in any scenario.
    pub never_in_force: Vec<String>,
    /// Readings (of disputes with more than one) that no scenario naming the dispute, with the
    /// reading in force, tells apart from the others: replayed under the other readings, it ends
    /// the same (see `settle`).
    pub untold_readings: Vec<String>,
    pub rules_total: usize,
    pub readings_total: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct CoverageEntry {
    pub file: String,
    pub rules: Vec<String>,
    pub readings: Vec<String>,
    /// Readings in force that differ from the built-in `push` defaults' reading for that dispute.
    pub readings_in_force: Vec<String>,
}

/// What the scenarios of a directory exercise, gathered while they are read.
#[derive(Default)]
struct Seen {
    entries: Vec<CoverageEntry>,
    /// Files that do not load, with their diagnostics rendered.
    invalid: Vec<(String, String)>,
    rules: BTreeSet<String>,
    readings: BTreeSet<String>,
    in_force: BTreeSet<String>,
    /// Per dispute, the scenarios whose `exercises` name it.
    naming: BTreeMap<DisputeId, Vec<PathBuf>>,
}

/// Coverage of the scenarios under `dir`.
///
/// # Errors
/// `dir` cannot be read.
pub fn coverage(dir: &Path) -> Result<(Coverage, Vec<(String, String)>), String> {
    let files = scenario_files(dir)?;
    let mut seen = read_exercises(files);
    let all_rules = every_rule();
    let all_readings = every_reading();
    keep_readings_not_pushs(&mut seen.entries);
    let untold_readings = untold_readings(&seen.naming);
    Ok((
        Coverage {
            untouched_rules: all_rules
                .iter()
                .filter(|r| !seen.rules.contains(*r))
                .cloned()
                .collect(),
            untouched_readings: all_readings
                .iter()
                .filter(|r| !seen.readings.contains(*r))
                .cloned()
                .collect(),
            never_in_force: all_readings
                .iter()
                .filter(|r| !seen.in_force.contains(*r))
                .cloned()
                .collect(),
            untold_readings,
            rules_total: all_rules.len(),
            readings_total: all_readings.len(),
            scenarios: seen.entries,
        },
        seen.invalid,
    ))
}

/// Reads each scenario: what it exercises, the readings in force, the disputes it names.
fn read_exercises(files: Vec<PathBuf>) -> Seen {
    let mut seen = Seen::default();
    for f in files {
        let s = match scenario::load(&f, &[]) {
            Ok(s) => s,
            Err(e) => {
                seen.invalid.push((f.display().to_string(), e.render()));
                continue;
            }
        };
        let (rules, readings) = exercised_names(&s);
        seen.rules.extend(rules.iter().cloned());
        for r in &readings {
            seen.readings.insert(r.clone());
            if let Some((id, _)) = r.split_once('=') {
                seen.rules.insert(format!("readings.{id}"));
            }
        }
        let mut force = Vec::new();
        for id in DisputeId::ALL {
            if let Some(r) = reading_in_force(&s.rules, id) {
                let name = format!("{}={r}", id.id());
                seen.in_force.insert(name.clone());
                force.push(name);
            }
        }
        for (d, _) in &s.exercises.disputes {
            seen.naming.entry(*d).or_default().push(f.clone());
        }
        seen.entries.push(CoverageEntry {
            file: f.display().to_string(),
            rules,
            readings,
            readings_in_force: force,
        });
    }
    seen
}

/// Every rule path of the rule table, metadata left out.
fn every_rule() -> Vec<String> {
    spec::rule_defs()
        .iter()
        .filter(|d| !spec::META.contains(&d.path.as_str()))
        .map(|d| d.path.clone())
        .collect()
}

/// Every reading of every dispute, as `id=reading`.
fn every_reading() -> Vec<String> {
    DisputeId::ALL
        .iter()
        .flat_map(|d| {
            d.reading_names()
                .iter()
                .map(move |r| format!("{}={r}", d.id()))
        })
        .collect()
}

/// Only the readings that differ from push's defaults are worth listing per scenario.
fn keep_readings_not_pushs(entries: &mut [CoverageEntry]) {
    let defaults: BTreeSet<String> = crate::rules::load("push", &[])
        .map(|l| {
            DisputeId::ALL
                .iter()
                .filter_map(|d| reading_in_force(&l, *d).map(|r| format!("{}={r}", d.id())))
                .collect()
        })
        .unwrap_or_default();
    for e in entries {
        e.readings_in_force.retain(|r| !defaults.contains(r));
    }
}

/// The readings (of disputes with more than one) that no scenario tells apart: each reading
/// needs a scenario, with it in force, that another reading would end otherwise.
fn untold_readings(naming: &BTreeMap<DisputeId, Vec<PathBuf>>) -> Vec<String> {
    let mut told: BTreeSet<String> = BTreeSet::new();
    for (d, files) in naming {
        for f in files {
            if let Ok(st) = crate::suite::settle::settle(f, *d, &[])
                && st.differs()
                && let Some(r) = st.runs.iter().find(|r| r.in_force)
            {
                told.insert(format!("{}={}", d.id(), r.reading));
            }
        }
    }
    DisputeId::ALL
        .iter()
        .filter(|d| d.reading_names().len() > 1)
        .flat_map(|d| {
            d.reading_names()
                .iter()
                .map(move |r| format!("{}={r}", d.id()))
        })
        .filter(|r| !told.contains(r))
        .collect()
}
