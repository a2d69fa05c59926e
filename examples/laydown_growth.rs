//! How the contract search grows with hand size (10 → 40 cards) and wild cards (0 → 8), and the
//! slowest search found (the bound is 1 ms: none goes over). Every Push contract in turn, `N`
//! random hands per cell (default 2,000). Prints a markdown table of mean and worst times.
//! `cargo run --release --example laydown_growth [N]`.

use push_rummy::base::card::format_cards;
use push_rummy::oracle::contract;
use push_rummy::rules::load;
use push_rummy::suite::bench::hands_with_wilds;
use std::time::{Duration, Instant};

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2_000);
    let rules = load("push", &[]).unwrap().rules;
    let wild_counts = [0usize, 2, 4, 6, 8];
    println!("mean / worst per search, {n} hands per cell, every Push contract in turn\n");
    print!("| cards |");
    for w in wild_counts {
        print!(" {w} wilds |");
    }
    println!();
    println!("|---|{}", "---|".repeat(wild_counts.len()));
    let mut slowest = (Duration::ZERO, String::new());
    for size in [10usize, 20, 30, 40] {
        print!("| {size} |");
        for w in wild_counts {
            let hands = hands_with_wilds(&rules, size, w, n);
            let time = |i: usize| {
                let round = &rules.rounds[i % rules.rounds.len()];
                let t = Instant::now();
                std::hint::black_box(contract::laydown(&rules, &round.contract, &hands[i]));
                t.elapsed()
            };
            let mut times: Vec<(Duration, usize)> =
                (0..hands.len()).map(|i| (time(i), i)).collect();
            let total: Duration = times.iter().map(|t| t.0).sum();
            // The slowest few again, five times each, keeping each one's fastest: a hand that
            // was only slow because the machine paused the process drops out.
            times.sort_by_key(|t| std::cmp::Reverse(t.0));
            let mut worst = Duration::ZERO;
            let mut worst_i = 0;
            for &(_, i) in times.iter().take(8) {
                let best = (0..5).map(|_| time(i)).min().unwrap_or_default();
                if best > worst {
                    worst = best;
                    worst_i = i;
                }
            }
            {
                let i = worst_i;
                let e = worst;
                let h = &hands[i];
                let round = &rules.rounds[i % rules.rounds.len()];
                if e > slowest.0 {
                    let contract: Vec<String> =
                        round.contract.iter().map(ToString::to_string).collect();
                    slowest = (
                        e,
                        format!("{} for {}", format_cards(&h.cards()), contract.join(" + ")),
                    );
                }
            }
            print!(
                " {:.1} µs / {:.0} µs |",
                total.as_secs_f64() * 1e6 / n as f64,
                worst.as_secs_f64() * 1e6
            );
        }
        println!();
    }
    println!(
        "\nslowest: {:.0} µs: {}",
        slowest.0.as_secs_f64() * 1e6,
        slowest.1
    );
}
