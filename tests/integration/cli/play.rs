//! `play`: whole games under every rule set and every reading, and many games with a summary.

use super::*;

/// Every built-in and house rule set plays whole games through `push-rummy play`, at every player
/// count it allows, and the totals are the sums of the points each hand recorded (how a
/// hand is scored is checked by `engine_rules` and `properties.rs`).
#[test]
fn play_runs_every_built_in_to_the_end() {
    for name in BUILT_INS {
        let shown = expect(0, &["--json", "rules", "show", name]).json();
        let count = &shown["rules"]["players.count"];
        let (lo, hi) = (
            count["min"].as_u64().unwrap(),
            count["max"].as_u64().unwrap(),
        );
        for players in lo..=hi {
            let p = players.to_string();
            let out = expect(
                0,
                &[
                    "--json",
                    "--rules",
                    name,
                    "play",
                    "--players",
                    &p,
                    "--bots",
                    "greedy,random",
                    "--seed",
                    "7",
                ],
            )
            .json();
            let totals: Vec<i64> = out["totals"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_i64().unwrap())
                .collect();
            let mut sums = vec![0i64; totals.len()];
            for e in out["events"].as_array().unwrap() {
                if e["event"] == "hand-ended" {
                    for (s, p) in sums.iter_mut().zip(e["points"].as_array().unwrap()) {
                        *s += p.as_i64().unwrap();
                    }
                }
            }
            assert_eq!(sums, totals, "{name} with {players} players");
            assert!(!out["winners"].as_array().unwrap().is_empty());
        }
    }
}

/// Every reading of every dispute plays a whole game of Push through the command line.
#[test]
fn play_runs_under_every_reading() {
    let ids = dispute_ids_shown();
    let register =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/spec/disputes.yaml"))
            .unwrap();
    let mut tried = 0;
    for id in &ids {
        for name in reading_names(&register, id) {
            plays_to_the_end_under(&format!("{id}={name}"));
            tried += 1;
        }
    }
    assert!(tried >= 68, "only {tried} readings tried");
}

/// The disputes whose readings `rules show` lists for Push, by id.
fn dispute_ids_shown() -> Vec<String> {
    let shown = expect(0, &["--json", "rules", "show"]).json();
    shown["rules"]
        .as_object()
        .unwrap()
        .keys()
        .filter_map(|k| k.strip_prefix("readings.").map(str::to_string))
        .collect()
}

/// The reading names of dispute `id`, from the text of the register: the `- name:` lines of its
/// block.
fn reading_names<'a>(register: &'a str, id: &str) -> Vec<&'a str> {
    let block = register.split(&format!("- id: {id}\n")).nth(1).unwrap();
    let block = block.split("\n  - id: ").next().unwrap();
    block
        .lines()
        .filter(|l| l.trim_start().starts_with("- name:"))
        .map(|line| line.split(':').nth(1).unwrap().trim().trim_matches('"'))
        .collect()
}

/// A game of Push between a greedy and a random bot, seed 3, under `reading` (`ID=NAME`), is
/// played to the end: it has winners.
fn plays_to_the_end_under(reading: &str) {
    let out = expect(
        0,
        &[
            "--json",
            "--reading",
            reading,
            "play",
            "--bots",
            "greedy,random",
            "--seed",
            "3",
        ],
    )
    .json();
    assert!(!out["winners"].as_array().unwrap().is_empty(), "{reading}");
}

#[test]
fn play_many_games_prints_a_summary_and_jobs_do_not_change_it() {
    let one = expect(0, &["--json", "play", "--games", "12", "--jobs", "1"]).json();
    let two = expect(0, &["--json", "play", "--games", "12", "--jobs", "2"]).json();
    assert_eq!(one, two);
    assert_eq!(one["games"], 12);
    assert_eq!(one["hands"], 60);
    expect(2, &["play", "--bots", "clever"]);
    expect(2, &["play", "--players", "3"]);
}

/// `--bots standard,greedy` seats the standard player: many games sum up alike whatever
/// `--jobs`, one game plays to the end, and an unknown name lists it among the bots.
#[test]
fn play_seats_the_standard_player() {
    let args = |jobs: &'static str| {
        [
            "--json",
            "play",
            "--games",
            "8",
            "--jobs",
            jobs,
            "--bots",
            "standard,greedy",
        ]
    };
    let one = expect(0, &args("1")).json();
    assert_eq!(one, expect(0, &args("2")).json());
    assert_eq!(one["games"], 8);
    assert_eq!(one["hands"], 40);
    let game = expect(0, &["--json", "play", "--bots", "standard", "--seed", "3"]).json();
    assert!(!game["winners"].as_array().unwrap().is_empty());
    let unknown = expect(2, &["play", "--bots", "clever"]);
    assert!(unknown.stderr.contains("standard"), "{}", unknown.stderr);
}
