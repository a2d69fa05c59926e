//! Whole games by the built-in players under every built-in rule set and every reading of every
//! dispute, checking the invariants after every action (issue 3).

use push_rummy::bots::{self, Bot};
use push_rummy::disputes::DisputeId;
use push_rummy::game::Game;
use push_rummy::rules::{BUILT_IN, Rules, load};
use std::sync::Arc;

fn play_many(rules: &Rules, games: u64, bots_: &[Bot]) -> usize {
    let rules = Arc::new(rules.clone());
    let mut actions = 0;
    for seed in 0..games {
        let players =
            rules.players.0 + (seed % u64::from(rules.players.1 - rules.players.0 + 1)) as u8;
        let g = Game::new(
            rules.clone(),
            players,
            (seed % u64::from(players)) as u8,
            seed,
            vec![],
        )
        .unwrap();
        let p = bots::play(g, bots_, seed, true);
        assert!(p.game.is_over());
        assert_eq!(p.game.results.len(), rules.rounds.len());
        assert!(!p.game.winners.is_empty());
        actions += p.actions.len();
    }
    actions
}

#[test]
fn every_built_in_plays_to_the_end() {
    for (name, _, _) in BUILT_IN {
        let rules = load(name, &[]).unwrap().rules;
        play_many(&rules, 250, &[Bot::Greedy, Bot::Random]);
        play_many(&rules, 50, &[Bot::Greedy]);
    }
}

#[test]
fn every_reading_of_every_dispute_plays_to_the_end() {
    for game in ["push", "cap-it", "six-to-ten"] {
        let base = load(game, &[]).unwrap().rules;
        for id in DisputeId::ALL {
            for name in id.reading_names() {
                let mut rules = base.clone();
                assert!(rules.set_reading(id, name));
                play_many(
                    &rules,
                    6,
                    &[Bot::Greedy, Bot::Random, Bot::Greedy, Bot::Random],
                );
            }
        }
    }
}
