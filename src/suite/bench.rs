//! The standard performance workloads (meld checks, contract searches, greedy games, replaying
//! the suite) with their targets, on fixed-seed inputs: shared by `push-rummy bench` (which
//! times them) and `benches/` (criterion, for development), so both measure the same work.
//! Every workload runs under any rule set: its cards come from that rule set's pack (for the
//! number of seats it plays, [`seats`]), its contracts are that rule set's, and its games are
//! played under it. Under Push the inputs are exactly Push's, whatever the code that makes them.

use crate::base::card::{Card, Counts, Rank, Suit};
use crate::base::rng::Rng;
use crate::engine::bots::{self, Bot};
use crate::engine::game::{Game, pack};
use crate::oracle::contract;
use crate::oracle::meld::{self, Query};
use crate::rules::Rules;
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
        "is it a meld: random 3–7 cards from the pack, half near-valid",
        Some(30e6),
    ),
    (
        "meld-all",
        "every interpretation of the same melds",
        Some(5e6),
    ),
    (
        "query-meld",
        "a meld question as `push-rummy query` answers it: a JSON line read, answered, written",
        Some(100e3),
    ),
    (
        "laydown-10",
        "contract search, random 10-card hands, each deal's contract in turn",
        None,
    ),
    ("laydown-20", "the same, 20-card hands", Some(100e3)),
    ("laydown-30", "the same, 30-card hands", Some(20e3)),
    (
        "game-greedy",
        "a complete game, four greedy players (or the fewest the rules seat)",
        Some(5e3),
    ),
    (
        "game-standard",
        "a complete game, four standard players (or the fewest the rules seat)",
        Some(170.0),
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

/// The seats a workload's games are played with: four where the rules allow four (Push, Cap-It,
/// six-to-ten), else the fewest they allow.
pub fn seats(rules: &Rules) -> u8 {
    let (lo, hi) = rules.players;
    if (lo..=hi).contains(&4) { 4 } else { lo }
}

/// The rules' pack for [`seats`] players.
fn pack_of(rules: &Rules) -> Vec<Card> {
    pack(rules, seats(rules))
}

/// Random 3–7-card melds from the rules' pack; every other one built to be near-valid (a suit
/// window with a wild card now and then: a joker where the pack has jokers, else the pack's first
/// wild card, else the natural card).
pub fn melds(rules: &Rules, n: usize) -> Vec<Vec<Card>> {
    let mut rng = Rng::new(7);
    let pack = pack_of(rules);
    let wild = if pack.contains(&Card::JOKER) {
        Some(Card::JOKER)
    } else {
        pack.iter().copied().find(|c| rules.is_wild(*c))
    };
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
                        let natural =
                            Card::new(Rank::from_number(start + k as u8).expect("1..=13"), suit);
                        if rng.below(5) == 0 {
                            wild.unwrap_or(natural)
                        } else {
                            natural
                        }
                    })
                    .collect()
            }
        })
        .collect()
}

/// `n` random hands of `size` cards from the rules' shuffled pack (seeded by the size).
pub fn hands(rules: &Rules, size: usize, n: usize) -> Vec<Counts> {
    let mut rng = Rng::new(size as u64);
    let pack = pack_of(rules);
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
    let all = pack_of(rules);
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

/// One complete greedy game from `seed`, with [`seats`] players.
pub fn greedy_game(rules: &Arc<Rules>, seed: u64) -> usize {
    let n = seats(rules);
    let g = Game::new(rules.clone(), n, (seed % u64::from(n)) as u8, seed, vec![])
        .expect("the rules seat this many");
    bots::play(g, &[Bot::Greedy], seed, false).actions.len()
}

/// One complete game of standard players from `seed`, with [`seats`] players.
pub fn standard_game(rules: &Arc<Rules>, seed: u64) -> usize {
    let n = seats(rules);
    let g = Game::new(rules.clone(), n, (seed % u64::from(n)) as u8, seed, vec![])
        .expect("the rules seat this many");
    bots::play(g, &[Bot::Standard], seed, false).actions.len()
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

/// Runs one workload under `rules` for about `seconds` seconds (at least one operation per timed
/// run). `replay-suite` replays each scenario under its own rules, whatever `rules` is. The
/// targets are Push's: under another rule set (`rules.game` not `push`) none is reported.
///
/// # Errors
/// An unknown workload, or (for `replay-suite`) a suite that cannot be read.
pub fn run(name: &str, seconds: f64, suite: &Path, rules: &Rules) -> Result<Measurement, String> {
    let (_, what, target) = workload(name)?;
    let target = target.filter(|_| rules.game == "push");
    let budget = Duration::from_secs_f64(seconds.max(0.05));
    let runs = 5;
    let rules = rules.clone();
    let (rate, ops) = match name {
        "meld-check" => {
            let ms = melds(&rules, 1024);
            measure(budget, runs, |i| {
                black_box(meld::is_valid(&rules, &ms[i as usize % ms.len()], None));
            })
        }
        "meld-all" => {
            let ms = melds(&rules, 1024);
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
        "query-meld" => {
            let loaded = crate::rules::Loaded {
                rules: rules.clone(),
                raw: crate::rules::spec::RawRules::default(),
                chain: Vec::new(),
            };
            let mut asker = crate::suite::query::Asker::new(Some(loaded), Vec::new(), false);
            let lines: Vec<String> = melds(&rules, 1024)
                .iter()
                .map(|m| {
                    crate::suite::query::Question::Meld {
                        cards: m.clone(),
                        kind: None,
                    }
                    .to_json()
                    .to_string()
                })
                .collect();
            let mut out = Vec::with_capacity(4096);
            measure(budget, runs, |i| {
                out.clear();
                let reply = asker.answer_line(&lines[i as usize % lines.len()]);
                serde_json::to_writer(&mut out, &reply).expect("JSON");
                black_box(out.len());
            })
        }
        "laydown-10" | "laydown-20" | "laydown-30" => {
            let size: usize = name["laydown-".len()..].parse().expect("a size");
            let hs = hands(&rules, size, 256);
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
        "game-standard" => {
            let rules = Arc::new(rules);
            measure(budget, runs, |i| {
                black_box(standard_game(&rules, i));
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
        target_per_second: target,
        meets_target: target.map(|t| rate >= t),
    })
}
