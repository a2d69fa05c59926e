//! A fingerprint of the games the built-in players play, for checking that a speed change plays
//! the same games. Prints one hash per line: 100 seeded games of each built-in rule set and house
//! variant (greedy, mixed and random line-ups in turn) and 10 games under every reading of every
//! dispute of the three games, hashing every action and event.
//!
//! Run it on two builds and compare (`docs/PERFORMANCE.md`):
//!
//! ```text
//! cargo run --release --example fingerprint > before.txt
//! cargo run --release --example fingerprint > after.txt && diff before.txt after.txt
//! ```
//!
//! The hash is the standard library's `DefaultHasher`, stable for one toolchain only: compare
//! builds made by the same compiler.

use push_rummy::engine::bots::{self, Bot};
use push_rummy::engine::game::Game;
use push_rummy::rules::disputes::DisputeId;
use push_rummy::rules::{BUILT_IN, Rules, load};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// Plays `games` seeded games of `rules` (every allowed number of players and dealer in turn) and
/// prints the hash of all their actions and events after `label`.
fn fingerprint(rules: &Rules, games: u64, label: &str) {
    let rules = Arc::new(rules.clone());
    let span = u64::from(rules.players.1 - rules.players.0 + 1);
    let lineups: [&[Bot]; 3] = [
        &[Bot::Greedy],
        &[Bot::Greedy, Bot::Random, Bot::Random, Bot::Greedy],
        &[Bot::Random],
    ];
    let mut h = DefaultHasher::new();
    for seed in 0..games {
        let players = rules.players.0 + u8::try_from(seed % span).expect("a few players");
        let dealer = u8::try_from((seed / span) % u64::from(players)).expect("a seat");
        let lineup = lineups[usize::try_from(seed % 3).expect("0 to 2")];
        let game = Game::new(Arc::clone(&rules), players, dealer, seed, vec![])
            .expect("a game of the allowed players sets up");
        let played = bots::play(game, lineup, seed, false);
        format!("{:?}{:?}", played.actions, played.events).hash(&mut h);
    }
    println!("{label} {:016x}", h.finish());
}

fn main() {
    for (name, _, _) in BUILT_IN {
        let rules = load(name, &[]).expect("a built-in loads").rules;
        fingerprint(&rules, 100, name);
    }
    for game in push_rummy::rules::GAMES {
        let base = load(game, &[]).expect("a built-in loads").rules;
        for id in DisputeId::ALL {
            for name in id.reading_names() {
                let mut rules = base.clone();
                assert!(rules.set_reading(id, name), "{id:?} has the reading {name}");
                fingerprint(&rules, 10, &format!("{game} {id:?} {name}"));
            }
        }
    }
}
