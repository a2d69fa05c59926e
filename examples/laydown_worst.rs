//! Searches random hands for the slowest laydown search and prints it (issue 2: a 30-card hand
//! with 8 wilds must take well under 10 ms). `cargo run --release --example laydown_worst [N]`.

use push_rummy::card::{Card, Counts, Rank, Suit, format_cards};
use push_rummy::contract;
use push_rummy::rng::Rng;
use push_rummy::rules::load;
use std::time::{Duration, Instant};

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20_000);
    let rules = load("push", &[]).unwrap().rules;
    let mut naturals = Vec::new();
    for _ in 0..2 {
        for s in Suit::ALL {
            for r in Rank::ALL.iter().filter(|r| **r != Rank::Two) {
                naturals.push(Card::new(*r, s));
            }
        }
    }
    let wilds: Vec<Card> = [Card::JOKER; 4]
        .into_iter()
        .chain(Suit::ALL.iter().flat_map(|&s| [Card::new(Rank::Two, s); 2]))
        .collect();
    let mut rng = Rng::new(2026);
    for (size, wild_count) in [(30usize, 8usize), (30, 0), (30, 2), (40, 8), (20, 8)] {
        let mut worst = (Duration::ZERO, String::new(), 0usize);
        let mut total = Duration::ZERO;
        for i in 0..n {
            let mut nat = naturals.clone();
            rng.shuffle(&mut nat);
            let mut w = wilds.clone();
            rng.shuffle(&mut w);
            let mut hand: Vec<Card> = nat[..size - wild_count].to_vec();
            hand.extend_from_slice(&w[..wild_count]);
            let counts = Counts::from_cards(&hand);
            let round = i % rules.rounds.len();
            let t = Instant::now();
            let found = contract::laydown(&rules, &rules.rounds[round].contract, &counts);
            let dt = t.elapsed();
            std::hint::black_box(found);
            total += dt;
            if dt > worst.0 {
                worst = (dt, format_cards(&counts.cards()), round + 1);
            }
        }
        println!(
            "{size} cards, {wild_count} wilds: mean {:?}, worst {:?} (deal {}: {})",
            total / n as u32,
            worst.0,
            worst.2,
            worst.1
        );
    }
}
