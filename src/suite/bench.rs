//! The standard performance workloads (meld checks, contract searches, greedy games, replaying
//! the suite) with their targets, on fixed-seed inputs: shared by `push-rummy bench` (which
//! times them) and `benches/` (criterion, for development), so both measure the same work.

use crate::base::card::{Card, Counts, Rank, Suit};
use crate::base::rng::Rng;
use crate::engine::bots::{self, Bot};
use crate::engine::game::{Game, pack};
use crate::oracle::contract;
use crate::oracle::meld::{self, Query};
use crate::rules::{Rules, load};
use crate::suite::scenario;
use crate::suite::transcript;
use serde::Serialize;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The workloads, in the order `bench` runs them: name, what one operation is, the target rate
/// on one core (operations per second) where the project sets one (docs/PERFORMANCE.md).
pub const WORKLOADS: &[(&str, &str, Option<f64>)] = &[
    (
        "meld-check",
        "is it a meld: random 3–7 cards from a Push pack, half near-valid",
        Some(30e6),
    ),
    (
        "meld-all",
        "every interpretation of the same melds",
        Some(5e6),
    ),
    (
        "laydown-10",
        "contract search, random 10-card hands, the five Push contracts in turn",
        None,
    ),
    ("laydown-20", "the same, 20-card hands", Some(100e3)),
    ("laydown-30", "the same, 30-card hands", Some(20e3)),
    (
        "game-greedy",
        "a complete 5-deal Push game, four greedy players",
        Some(5e3),
    ),
    (
        "replay-suite",
        "the whole conformance suite: read every scenario and replay it",
        Some(1.0),
    ),
];

/// The workload called `name`.
///
/// # Errors
/// An unknown name, with the list of workloads.
pub fn workload(name: &str) -> Result<&'static (&'static str, &'static str, Option<f64>), String> {
    WORKLOADS
        .iter()
        .find(|(n, _, _)| *n == name)
        .ok_or_else(|| {
            let names: Vec<&str> = WORKLOADS.iter().map(|w| w.0).collect();
            format!(
                "unknown workload `{name}`; the workloads are {}",
                names.join(", ")
            )
        })
}

fn push_pack() -> Vec<Card> {
    let rules = load("push", &[]).expect("push is built in").rules;
    pack(&rules, 4)
}

/// Random 3–7-card melds from a Push pack; every other one built to be near-valid (a suit
/// window with a joker now and then).
pub fn melds(n: usize) -> Vec<Vec<Card>> {
    let mut rng = Rng::new(7);
    let pack = push_pack();
    (0..n)
        .map(|i| {
            let len = 3 + rng.below(5) as usize;
            if i % 2 == 0 {
                (0..len)
                    .map(|_| pack[rng.below(pack.len() as u64) as usize])
                    .collect()
            } else {
                let suit = Suit::from_index(rng.below(4) as usize);
                let start = rng.below(13 - len as u64 + 1) as u8 + 1;
                (0..len)
                    .map(|k| {
                        if rng.below(5) == 0 {
                            Card::JOKER
                        } else {
                            Card::new(Rank::from_number(start + k as u8).expect("1..=13"), suit)
                        }
                    })
                    .collect()
            }
        })
        .collect()
}

/// `n` random hands of `size` cards from a shuffled Push pack (seeded by the size).
pub fn hands(size: usize, n: usize) -> Vec<Counts> {
    let mut rng = Rng::new(size as u64);
    let pack = push_pack();
    (0..n)
        .map(|_| {
            let mut p = pack.clone();
            rng.shuffle(&mut p);
            Counts::from_cards(&p[..size.min(p.len())])
        })
        .collect()
}

/// Random hands of `size` cards holding exactly `wilds` wild cards (jokers and twos), for the
/// growth table.
pub fn hands_with_wilds(rules: &Rules, size: usize, wilds: usize, n: usize) -> Vec<Counts> {
    let mut rng = Rng::new((size * 100 + wilds) as u64);
    let all = push_pack();
    let (mut wild, mut natural): (Vec<Card>, Vec<Card>) =
        all.into_iter().partition(|c| rules.is_wild(*c));
    (0..n)
        .map(|_| {
            rng.shuffle(&mut wild);
            rng.shuffle(&mut natural);
            let mut h: Vec<Card> = wild[..wilds.min(wild.len())].to_vec();
            h.extend_from_slice(&natural[..(size - h.len()).min(natural.len())]);
            Counts::from_cards(&h)
        })
        .collect()
}

/// One contract search per call, cycling through the rules' contracts and the hands.
pub fn laydown_op(rules: &Rules, hands: &[Counts], i: usize) -> bool {
    let contract = &rules.rounds[i % rules.rounds.len()].contract;
    contract::laydown(rules, contract, &hands[i % hands.len()]).is_some()
}

/// One complete greedy game of Push from `seed`.
pub fn greedy_game(rules: &Arc<Rules>, seed: u64) -> usize {
    let g = Game::new(rules.clone(), 4, (seed % 4) as u8, seed, vec![]).expect("push seats 4");
    bots::play(g, &[Bot::Greedy], seed, false).actions.len()
}

/// Reads and replays each scenario file; the number replayed.
///
/// # Errors
/// A scenario that does not load.
pub fn replay_suite(files: &[PathBuf]) -> Result<usize, String> {
    for f in files {
        let s = scenario::load(f, &[]).map_err(|e| e.render())?;
        black_box(transcript::replay(&s));
    }
    Ok(files.len())
}

/// A measured workload.
#[derive(Clone, Debug, Serialize)]
pub struct Measurement {
    pub workload: String,
    pub what: String,
    /// Median operations per second over the timed runs.
    pub per_second: f64,
    /// Median time per operation, in nanoseconds.
    pub nanos_per_op: f64,
    pub runs: usize,
    pub operations: u64,
    pub target_per_second: Option<f64>,
    pub meets_target: Option<bool>,
}

/// Runs `op` in batches: a warm-up of a tenth of `budget`, then `runs` timed runs sharing the
/// rest; the median rate.
fn measure(budget: Duration, runs: usize, mut op: impl FnMut(u64)) -> (f64, u64) {
    let warm = budget / 10;
    let start = Instant::now();
    let mut i = 0u64;
    while i == 0 || start.elapsed() < warm {
        op(i);
        i += 1;
    }
    // Batches of about a millisecond between looks at the clock.
    let batch = ((i as f64 / start.elapsed().as_secs_f64() / 1000.0) as u64).max(1);
    let each = (budget - warm) / u32::try_from(runs).unwrap_or(1);
    let mut rates = Vec::with_capacity(runs);
    let mut total = 0;
    for _ in 0..runs {
        let t = Instant::now();
        let mut n = 0u64;
        while n == 0 || t.elapsed() < each {
            for _ in 0..batch {
                op(i);
                i += 1;
                n += 1;
            }
        }
        rates.push(n as f64 / t.elapsed().as_secs_f64());
        total += n;
    }
    rates.sort_by(f64::total_cmp);
    (rates[rates.len() / 2], total)
}

/// Runs one workload for about `seconds` seconds (at least one operation per timed run).
///
/// # Errors
/// An unknown workload, or (for `replay-suite`) a suite that cannot be read.
pub fn run(name: &str, seconds: f64, suite: &Path) -> Result<Measurement, String> {
    let (_, what, target) = workload(name)?;
    let budget = Duration::from_secs_f64(seconds.max(0.05));
    let runs = 5;
    let rules = load("push", &[]).expect("push is built in").rules;
    let (rate, ops) = match name {
        "meld-check" => {
            let ms = melds(1024);
            measure(budget, runs, |i| {
                black_box(meld::is_valid(&rules, &ms[i as usize % ms.len()], None));
            })
        }
        "meld-all" => {
            let ms = melds(1024);
            measure(budget, runs, |i| {
                black_box(meld::interpret(
                    &rules,
                    &Query {
                        cards: ms[i as usize % ms.len()].clone(),
                        kind: None,
                        declared: vec![],
                    },
                ));
            })
        }
        "laydown-10" | "laydown-20" | "laydown-30" => {
            let size: usize = name["laydown-".len()..].parse().expect("a size");
            let hs = hands(size, 256);
            measure(budget, runs, |i| {
                black_box(laydown_op(&rules, &hs, i as usize));
            })
        }
        "game-greedy" => {
            let rules = Arc::new(rules);
            measure(budget, runs, |i| {
                black_box(greedy_game(&rules, i));
            })
        }
        "replay-suite" => {
            let files =
                scenario::find_scenarios(suite).map_err(|e| format!("{}: {e}", suite.display()))?;
            replay_suite(&files)?;
            let mut failed = None;
            let r = measure(budget, runs, |_| {
                if let Err(e) = replay_suite(&files) {
                    failed = Some(e);
                }
            });
            if let Some(e) = failed {
                return Err(e);
            }
            r
        }
        _ => unreachable!("listed in WORKLOADS"),
    };
    Ok(Measurement {
        workload: name.to_string(),
        what: (*what).to_string(),
        per_second: rate,
        nanos_per_op: 1e9 / rate,
        runs,
        operations: ops,
        target_per_second: *target,
        meets_target: target.map(|t| rate >= t),
    })
}
