//! `bench [WORKLOAD…] [--seconds S]`: the standard workloads of `push_rummy::suite::bench` timed
//! on one core, each with its rate and its target.

use super::common::{Common, Failure, bad_input, load_rules, pretty_json, suite_dir};
use clap::Args;
use push_rummy::suite::bench;
use serde_json::json;

// No doc comment here: the command's help is the doc of `Command::Bench` in main.rs.
#[derive(Args)]
pub struct BenchArgs {
    /// Workloads to run: meld-check, meld-all, query-meld, laydown-10, laydown-20, laydown-30,
    /// game-greedy, game-standard, replay-suite.
    pub workloads: Vec<String>,
    /// Seconds per workload.
    #[arg(long, default_value_t = 3.0)]
    pub seconds: f64,
}

pub fn run(common: &Common, args: &BenchArgs) -> Result<u8, Failure> {
    let seconds = args.seconds;
    if !(seconds.is_finite() && seconds > 0.0 && seconds <= 3600.0) {
        return Err(bad_input(format!(
            "--seconds {seconds}: give a number of seconds between 0 and 3600"
        )));
    }
    let names: Vec<String> = if args.workloads.is_empty() {
        bench::WORKLOADS.iter().map(|w| w.0.to_string()).collect()
    } else {
        args.workloads.clone()
    };
    for n in &names {
        bench::workload(n).map_err(bad_input)?;
    }
    let rules = load_rules(common, &common.rules)?.rules;
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let suite = suite_dir();
    let mut results = Vec::new();
    if !common.json {
        out!(
            "{}; one core of {cores}; {seconds} s per workload, median of 5 timed runs\n",
            rules.name
        );
        out!(
            "{:<14} {:>16} {:>14} {:>16}",
            "workload",
            "per second",
            "per op",
            "target"
        );
    }
    for n in &names {
        let m = bench::run(n, seconds, std::path::Path::new(&suite), &rules).map_err(bad_input)?;
        if !common.json {
            let target = match (m.target_per_second, m.meets_target) {
                (Some(t), Some(ok)) => {
                    format!("{} {}", human_rate(t), if ok { "met" } else { "NOT met" })
                }
                _ => "—".to_string(),
            };
            out!(
                "{:<14} {:>16} {:>14} {:>16}",
                m.workload,
                human_rate(m.per_second),
                human_time(m.nanos_per_op),
                target
            );
        }
        results.push(m);
    }
    if common.json {
        out!(
            "{}",
            pretty_json(
                &json!({ "rules": rules.game, "cores": cores, "seconds": seconds, "workloads": results })
            )
        );
    }
    Ok(0)
}

/// A rate for people: per second, in M, k or units.
fn human_rate(r: f64) -> String {
    if r >= 1e6 {
        format!("{:.2} M/s", r / 1e6)
    } else if r >= 1e3 {
        format!("{:.1} k/s", r / 1e3)
    } else {
        format!("{r:.2} /s")
    }
}

/// A time per operation for people, in s, ms, µs or ns.
fn human_time(ns: f64) -> String {
    if ns >= 1e9 {
        format!("{:.2} s", ns / 1e9)
    } else if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}
