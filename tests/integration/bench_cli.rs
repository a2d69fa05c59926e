//! `push-rummy bench`: every workload is measured and reported with its target. Rates
//! are not asserted (they depend on the machine); the shape of the report is.

use crate::common;
use common::run;

#[test]
fn bench_json_reports_every_workload_with_its_target() {
    let (code, out, err) = run(&["bench", "--json", "--seconds", "0.05"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["cores"].as_u64().unwrap() >= 1);
    let names: Vec<&str> = v["workloads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["workload"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "meld-check",
            "meld-all",
            "query-meld",
            "laydown-10",
            "laydown-20",
            "laydown-30",
            "game-greedy",
            "game-standard",
            "replay-suite"
        ]
    );
    for w in v["workloads"].as_array().unwrap() {
        assert!(w["per_second"].as_f64().unwrap() > 0.0, "{w}");
        assert!(w["operations"].as_u64().unwrap() >= 5, "{w}");
        assert_eq!(
            w["meets_target"].is_null(),
            w["target_per_second"].is_null(),
            "{w}"
        );
    }
}

#[test]
fn bench_refuses_unknown_workloads_and_bad_durations() {
    let (code, _, err) = run(&["bench", "meld-chek"]);
    assert_eq!(code, 2);
    assert!(err.contains("meld-check"), "{err}");
    let (code, _, err) = run(&["bench", "--seconds", "-1"]);
    assert_eq!(code, 2, "{err}");
}

/// Every workload runs under any rule set, built in or a house file; the targets are Push's and
/// are reported only under Push.
#[test]
fn bench_runs_every_workload_under_any_rules() {
    for rules in ["six-to-ten", "cap-it", "spec/house/club-marathon.yaml"] {
        let (code, out, err) = run(&[
            "--rules",
            rules,
            "--reading",
            "set-max-size=unlimited",
            "bench",
            "--json",
            "--seconds",
            "0.02",
            "meld-check",
            "meld-all",
            "query-meld",
            "laydown-10",
            "game-greedy",
            "game-standard",
        ]);
        assert_eq!(code, 0, "{rules}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_ne!(v["rules"], "push", "{rules}");
        for w in v["workloads"].as_array().unwrap() {
            assert!(w["operations"].as_u64().unwrap() >= 5, "{rules}: {w}");
            assert!(w["target_per_second"].is_null(), "{rules}: {w}");
        }
    }
    let (code, out, _) = run(&["bench", "--json", "--seconds", "0.02", "meld-check"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["rules"], "push");
    assert!(v["workloads"][0]["target_per_second"].is_number());
}
