//! Settling disputes: every dispute's scenarios end differently under its readings,
//! `disputes affecting` names the disputes that decide 001's worked example, and `rules diff`
//! names the readings two rule sets differ in.

use push_rummy::rules::disputes::DisputeId;
use push_rummy::suite::{scenario, settle};
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

fn suite() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance")
}

use crate::common;

/// `push-rummy ARGS`: exit code and stdout.
fn run(args: &[&str]) -> (i32, String) {
    let (code, out, _) = common::run(args);
    (code, out)
}

/// Every dispute with the settlement of each suite scenario that names it, computed once for the
/// two tests below: each scenario is loaded once, not once per dispute as `scenarios_of` does.
fn settlements() -> &'static [(DisputeId, Vec<settle::Settlement>)] {
    static ALL: LazyLock<Vec<(DisputeId, Vec<settle::Settlement>)>> = LazyLock::new(|| {
        let mut files: Vec<(DisputeId, Vec<PathBuf>)> =
            DisputeId::ALL.iter().map(|d| (*d, Vec::new())).collect();
        for f in scenario::find_scenarios(&suite()).unwrap() {
            let s = scenario::load(&f, &[]).unwrap();
            for (d, list) in &mut files {
                if s.exercises.disputes.iter().any(|(x, _)| x == d) {
                    list.push(f.clone());
                }
            }
        }
        // The grouping is what `scenarios_of` finds, dispute by dispute.
        let (d, list) = &files[0];
        assert_eq!(&settle::scenarios_of(&suite(), *d).unwrap(), list);
        files
            .into_iter()
            .map(|(d, list)| {
                let settled = list.iter().map(|f| settle::settle(f, d, &[]).unwrap());
                (d, settled.collect())
            })
            .collect()
    });
    &ALL
}

#[test]
fn every_dispute_has_scenarios_whose_outcome_its_readings_change() {
    let mut decorative = Vec::new();
    for (d, settled) in settlements() {
        assert!(!settled.is_empty(), "no scenario names {}", d.id());
        if d.reading_names().len() < 2 {
            // A gap with one reading (ace-penalty-value): nothing to tell apart.
            continue;
        }
        if !settled.iter().any(settle::Settlement::differs) {
            decorative.push(d.id());
        }
    }
    assert!(
        decorative.is_empty(),
        "no scenario tells these readings apart: {decorative:?}"
    );
}

#[test]
fn every_reading_of_every_dispute_is_pinned_by_a_scenario_that_parts_from_the_others() {
    // For each reading, some scenario puts it in force and some other reading parts from it.
    let mut missing = Vec::new();
    for (d, settlements) in settlements() {
        if d.reading_names().len() < 2 {
            continue;
        }
        for name in d.reading_names() {
            let told_apart = settlements
                .iter()
                .any(|s| s.runs.iter().any(|r| r.in_force && r.reading == *name) && s.differs());
            if !told_apart {
                missing.push(format!("{}={name}", d.id()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "readings without a telling scenario: {missing:?}"
    );
}

#[test]
fn affecting_names_the_disputes_that_decide_001s_worked_example() {
    let f = suite().join("worked-examples/ex001-scenario.yaml");
    let found: Vec<String> = settle::affecting(&f, &[])
        .unwrap()
        .into_iter()
        .map(|a| a.dispute)
        .collect();
    // DISPUTES.md J: the contract laid piecemeal, the pusher's draw, the mixed-suit "run" and the
    // discarded two are what the readings decide in 001's scenario.
    for want in [
        "contract-in-one-turn",
        "pusher-draws",
        "run-suits",
        "discard-restrictions",
    ] {
        assert!(found.iter().any(|d| d == want), "{want} not in {found:?}");
    }
    // And a dispute the scenario never touches is not named.
    assert!(!found.iter().any(|d| d == "capit-third-deck"), "{found:?}");
    let (code, out) = run(&[
        "disputes",
        "affecting",
        "conformance/worked-examples/ex001-scenario.yaml",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("contract-in-one-turn (in force: required)"),
        "{out}"
    );
    assert!(out.contains("piecemeal: step 3"), "{out}");
}

#[test]
fn settle_shows_where_the_readings_part_and_how_each_ends() {
    let (code, out) = run(&[
        "disputes",
        "settle",
        "pusher-draws",
        "conformance/push/push-to-the-left.yaml",
        "--json",
    ]);
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let partings = v["partings"].as_array().unwrap();
    assert_eq!(partings.len(), 1);
    assert_eq!(partings[0][0], "no");
    assert_eq!(partings[0][1]["step"], 1);
    assert_eq!(partings[0][1]["what"], "events");
    let (code, _) = run(&[
        "disputes",
        "settle",
        "pusher-draw",
        "conformance/push/push-to-the-left.yaml",
    ]);
    assert_eq!(code, 2, "an unknown dispute is bad input");
    let (code, _) = run(&["disputes", "settle", "pusher-draws", "no/such/file.yaml"]);
    assert_eq!(code, 2, "a missing scenario is bad input");
}

#[test]
fn show_replays_the_dispute_s_scenarios_under_every_reading() {
    let (code, out) = run(&["disputes", "show", "two-penalty-value"]);
    assert_eq!(code, 0);
    assert!(out.contains("replayed under each reading"), "{out}");
    assert!(out.contains("15 parts at"), "{out}");
}

#[test]
fn rules_diff_names_the_readings_that_differ() {
    let (code, out) = run(&["rules", "diff", "push", "spec/house/club-marathon.yaml"]);
    assert_eq!(code, 1, "different rule sets: exit 1");
    assert!(out.contains("dispute two-penalty-value: 20 | 15"), "{out}");
    assert!(out.contains("scoring.points.JK: 20 | 25"), "{out}");
    let (code, out) = run(&["rules", "diff", "push", "push"]);
    assert_eq!(code, 0);
    assert!(out.contains("the same rules"), "{out}");
    let (code, out) = run(&["rules", "diff", "push", "source-002", "--json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(
        v["differences"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["dispute"] == "two-penalty-value")
    );
    let (code, _) = run(&["rules", "diff", "push", "no-such-rules"]);
    assert_eq!(code, 2);
}

#[test]
fn the_coverage_report_finds_every_reading_told_apart() {
    let (cov, invalid) = push_rummy::suite::conform::coverage(&suite()).unwrap();
    assert!(invalid.is_empty(), "{invalid:?}");
    assert!(cov.untold_readings.is_empty(), "{:?}", cov.untold_readings);
    assert!(
        cov.untouched_readings.is_empty(),
        "{:?}",
        cov.untouched_readings
    );
}
