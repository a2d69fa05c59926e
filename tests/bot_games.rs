//! The games the built-in greedy player plays, pinned action by action: one seeded game of each
//! built-in rule set by greedy players, as snapshots. Which legal move the greedy player picks is
//! no rule of any game, but the benchmarks, the fuzz seeds and the other tests lean on it, and its
//! speed-ups (docs/PERFORMANCE.md) are meant to play the very same games: a change to what it
//! chooses shows here first, to be accepted (`cargo insta review`) only where it is meant.
//!
//! A file of its own: insta's snapshots in one test binary, apart from the others.

use push_rummy::engine::bots::{self, Bot};
use push_rummy::engine::game::Game;
use push_rummy::rules::load;
use std::fmt::Write;
use std::sync::Arc;

/// Every action of one seeded game of `name` by `players` greedy players (seat, then the action
/// in scenario notation), and the totals at its end.
fn transcript(name: &str, players: u8, seed: u64) -> String {
    let rules = Arc::new(load(name, &[]).expect("a built-in rule set").rules);
    let game = Game::new(rules, players, 0, seed, vec![]).expect("a game sets up");
    let played = bots::play(game, &[Bot::Greedy], seed, true);
    let mut out = String::new();
    for (seat, action) in &played.actions {
        writeln!(out, "{seat} {action}").expect("a string takes it");
    }
    writeln!(out, "totals {:?}", played.game.totals).expect("a string takes it");
    out
}

#[test]
fn a_greedy_push_game_is_pinned() {
    insta::assert_snapshot!(transcript("push", 4, 7));
}

#[test]
fn a_greedy_cap_it_game_is_pinned() {
    insta::assert_snapshot!(transcript("cap-it", 5, 7));
}

#[test]
fn a_greedy_six_to_ten_game_is_pinned() {
    insta::assert_snapshot!(transcript("six-to-ten", 3, 7));
}
