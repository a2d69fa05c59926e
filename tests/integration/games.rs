//! Whole games by the built-in players: 1,000 seeded games under every built-in rule set and
//! house variant (`PUSH_RUMMY_GAMES=N` plays N instead: 10,000 is a soak of a few minutes), and
//! games under every reading of every dispute. After every action
//! the engine's invariants hold (checked inside `apply` in this debug-assertion build: every card
//! in exactly one place, the totals the sums of the points each hand recorded), and every hand has
//! the size the events so far imply — a model kept here, independent of the engine's bookkeeping.
//! How a hand is scored is not checked here: `engine_rules`, the worked examples and the
//! quickcheck property in `properties.rs` score hands independently.
//!
//! One test per rule set, so the harness spreads them over the cores.

use push_rummy::base::rng::Rng;
use push_rummy::engine::bots::{self, Bot};
use push_rummy::engine::game::{Event, Game};
use push_rummy::rules::disputes::DisputeId;
use push_rummy::rules::{BUILT_IN, Buying, Rules, load};
use std::sync::Arc;

/// Hand sizes as the events say they must be.
struct HandModel {
    sizes: Vec<usize>,
}

impl HandModel {
    fn follow(&mut self, rules: &Rules, e: &Event) {
        match e {
            Event::Dealt { round, .. } => {
                // `round` counts deals from 1.
                let n = usize::from(rules.rounds[*round - 1].deal);
                self.sizes.iter_mut().for_each(|s| *s = n);
            }
            Event::TookDiscard { seat, .. } | Event::Drew { seat, .. } => {
                self.sizes[usize::from(*seat)] += 1;
            }
            Event::Pushed {
                to, discard, stock, ..
            } => self.sizes[usize::from(*to)] += usize::from(discard.is_some()) + stock.len(),
            Event::Melded { seat, cards, .. } | Event::LaidOff { seat, cards, .. } => {
                self.sizes[usize::from(*seat)] -= cards.len();
            }
            Event::Discarded { seat, .. } => self.sizes[usize::from(*seat)] -= 1,
            Event::Bought { seat, stock, .. } => self.sizes[usize::from(*seat)] += 1 + stock.len(),
            // A rescue swaps a natural for a wild: the size stays.
            Event::Rescued { .. }
            | Event::UpcardBuried { .. }
            | Event::Upcard { .. }
            | Event::Reshuffled { .. }
            | Event::TurnEnded { .. }
            | Event::Passed { .. }
            | Event::WentOut { .. }
            | Event::HandEnded { .. }
            | Event::GameEnded { .. } => {}
        }
    }
}

/// Plays `games` seeded games (players, dealer and line-up vary with the seed) and checks every
/// action; returns the number of actions played.
fn play_many(rules: &Rules, games: u64, lineups: &[&[Bot]]) -> usize {
    let rules = Arc::new(rules.clone());
    let span = u64::from(rules.players.1 - rules.players.0 + 1);
    let mut actions = 0;
    for seed in 0..games {
        let players = rules.players.0 + (seed % span) as u8;
        let dealer = ((seed / span) % u64::from(players)) as u8;
        let lineup = lineups[(seed % lineups.len() as u64) as usize];
        let mut game = Game::new(rules.clone(), players, dealer, seed, vec![]).unwrap();
        let mut model = HandModel {
            sizes: vec![usize::from(rules.rounds[0].deal); usize::from(players)],
        };
        let mut rng = Rng::new(seed ^ 0x5EED);
        let mut steps = 0;
        while !game.is_over() {
            let seat = game.turn();
            let bot = lineup[usize::from(seat) % lineup.len()];
            let action = bots::choose(bot, &game, &mut rng);
            let events = game.apply(seat, &action).unwrap_or_else(|e| {
                panic!(
                    "{}: seed {seed}: {} proposed {action}, refused: {e}",
                    rules.name,
                    bot.name()
                )
            });
            for e in &events {
                model.follow(&rules, e);
            }
            if !game.is_over() {
                let real: Vec<usize> = game.deal.hands.iter().map(|h| h.len()).collect();
                assert_eq!(
                    real, model.sizes,
                    "{}: seed {seed}: hand sizes after {action}",
                    rules.name
                );
            }
            steps += 1;
            assert!(steps < 200_000, "{}: seed {seed} does not end", rules.name);
        }
        assert_eq!(game.results.len(), rules.rounds.len());
        assert!(!game.winners.is_empty());
        let best = *game.totals.iter().min().unwrap();
        // Winners are sides, each with the lowest total.
        for w in &game.winners {
            assert_eq!(game.totals[usize::from(*w)], best);
        }
        actions += steps;
    }
    actions
}

/// Games per rule set unless `PUSH_RUMMY_GAMES` says otherwise: 8,000 games in all, about fifteen
/// seconds on two cores. Every built-in rule set's games have gone through 10,000 seeds too (the
/// variable), so a seed range that finds nothing new costs more than it tells.
const GAMES: u64 = 1_000;

/// `full` games, or `few` with the `quick-games` feature: the mutation runs turn it on
/// (`.cargo/mutants.toml`, docs/MUTATION.md), since every mutant replays this file.
fn games(full: u64, few: u64) -> u64 {
    if cfg!(feature = "quick-games") {
        few
    } else {
        full
    }
}

/// Games per built-in rule set: `PUSH_RUMMY_GAMES`, or [`GAMES`].
fn games_per_rule_set() -> u64 {
    match std::env::var("PUSH_RUMMY_GAMES") {
        Ok(n) => n
            .parse()
            .unwrap_or_else(|_| panic!("PUSH_RUMMY_GAMES={n}: not a number of games")),
        Err(_) => games(GAMES, 40),
    }
}

/// Three games in four by greedy players, the fourth greedy against random.
const LINEUPS: &[&[Bot]] = &[
    &[Bot::Greedy],
    &[Bot::Greedy, Bot::Random],
    &[Bot::Greedy],
    &[Bot::Greedy],
];

fn many_games(name: &str) {
    let rules = load(name, &[]).unwrap().rules;
    let actions = play_many(&rules, games_per_rule_set(), LINEUPS);
    assert!(actions > 0);
}

macro_rules! rule_set_tests {
    ($($test:ident => $name:literal,)*) => {
        $(
            #[test]
            fn $test() {
                many_games($name);
            }
        )*

        #[test]
        fn every_built_in_rule_set_has_its_games() {
            let tested = [$($name),*];
            for (name, _, _) in BUILT_IN {
                assert!(tested.contains(name), "no game test for {name}");
            }
        }
    };
}

rule_set_tests! {
    push_games => "push",
    cap_it_games => "cap-it",
    six_to_ten_games => "six-to-ten",
    source_000_games => "source-000",
    source_001_games => "source-001",
    source_002_games => "source-002",
    source_003_games => "source-003",
    club_marathon_games => "club-marathon",
}

#[test]
fn random_players_alone_play_every_built_in_to_the_end() {
    for (name, _, _) in BUILT_IN {
        let rules = load(name, &[]).unwrap().rules;
        play_many(&rules, games(40, 8), &[&[Bot::Random]]);
    }
}

#[test]
fn every_reading_of_every_dispute_plays_to_the_end() {
    for game in push_rummy::rules::GAMES {
        let base = load(game, &[]).unwrap().rules;
        for id in DisputeId::ALL {
            for name in id.reading_names() {
                let mut rules = base.clone();
                assert!(rules.set_reading(id, name));
                play_many(
                    &rules,
                    games(12, 2),
                    &[
                        &[Bot::Greedy],
                        &[Bot::Greedy, Bot::Random, Bot::Random, Bot::Greedy],
                    ],
                );
            }
        }
    }
}

/// The optional turn rules (`players.first`, `discard.bans`, `discard.when-none-allowed`,
/// `going-out.not-on-contract-turn`), every value of each at least once, over every built-in
/// game: the players' every action is legal and every game ends.
#[test]
fn every_turn_rule_plays_to_the_end() {
    for game in push_rummy::rules::GAMES {
        let base = load(game, &[]).unwrap().rules;
        for k in 0..66u8 {
            let mut rules = base.clone();
            rules.pick_turn_rules([k % 5, k % 33, k % 20, k / 33, k % 32]);
            play_many(
                &rules,
                games(4, 1),
                &[
                    &[Bot::Greedy],
                    &[Bot::Greedy, Bot::Random, Bot::Random, Bot::Greedy],
                ],
            );
        }
    }
}

/// Built-in rule set `k` (cycling) with buying out of turn, its knobs varied with `k`: 0 to 2
/// penalty cards, unlimited, one or three buys a hand, buying once down allowed or not.
fn with_buying(k: usize) -> Rules {
    let mut rules = load(BUILT_IN[k % BUILT_IN.len()].0, &[]).unwrap().rules;
    rules.buying = Some(Buying {
        penalty_cards: (k % 3) as u8,
        per_hand: [None, Some(1), Some(3)][k / 3 % 3],
        when_down: k.is_multiple_of(2),
    });
    rules
}

/// Games with buying end, hand sizes follow the events (a buy adds the discard and its penalty
/// cards), and the seat to move always has a legal action: at the draw, in a buy window (buy or
/// pass) and in play.
#[test]
fn buying_games_end_and_the_seat_to_move_always_has_a_legal_action() {
    for k in 0..18 {
        let rules = with_buying(k);
        play_many(&rules, games(40, 4), LINEUPS);
        play_many(&rules, games(4, 1), &[&[Bot::Random]]);
        let rules = Arc::new(rules);
        for seed in 0..games(6, 2) {
            let players = rules.players.0;
            let mut game = Game::new(rules.clone(), players, 0, seed, vec![]).unwrap();
            let mut rng = Rng::new(seed);
            let mut windows = 0;
            while !game.is_over() {
                let legal = game.table_actions_bounded();
                assert!(
                    !legal.is_empty(),
                    "{} seed {seed}: seat {} has no legal action",
                    rules.name,
                    game.turn()
                );
                if game.deal.stage == push_rummy::engine::game::Stage::Buy {
                    windows += 1;
                    assert_eq!(legal, [push_rummy::Action::Buy, push_rummy::Action::Pass]);
                }
                let seat = game.turn();
                let bot = [Bot::Greedy, Bot::Random][usize::from(seat) % 2];
                let a = bots::choose(bot, &game, &mut rng);
                assert!(
                    legal.contains(&a)
                        || matches!(
                            a,
                            push_rummy::Action::Meld(_)
                                | push_rummy::Action::LayOff { .. }
                                | push_rummy::Action::Rescue { .. }
                        ),
                    "{a} not listed"
                );
                game.apply(seat, &a).unwrap();
            }
            assert!(
                windows > 0,
                "{} seed {seed}: no buy window opened",
                rules.name
            );
        }
    }
}

/// `bots::play` (which lets the greedy player try its candidates with `apply` itself and remember
/// its last laydown search) plays the same games as asking `bots::choose` (which checks with
/// `accepts` and remembers nothing) and applying its answer: the same actions, the same events,
/// the same scores, under every built-in rule set and with random players mixed in.
#[test]
fn play_plays_the_games_that_choose_and_apply_play() {
    let buying = (0..3).map(|k| (format!("buying {k}"), with_buying(k * 4)));
    let built_in = BUILT_IN
        .iter()
        .map(|(name, _, _)| (name.to_string(), load(name, &[]).unwrap().rules));
    for (name, rules) in built_in.chain(buying) {
        let rules = Arc::new(rules);
        let span = u64::from(rules.players.1 - rules.players.0 + 1);
        for seed in 0..games(24, 4) {
            let players = rules.players.0 + (seed % span) as u8;
            let lineup = LINEUPS[(seed % LINEUPS.len() as u64) as usize];
            let new = || Game::new(rules.clone(), players, 0, seed, vec![]).unwrap();
            let played = bots::play(new(), lineup, seed, false);
            let mut game = new();
            let mut rng = Rng::new(seed ^ 0x5EED);
            let (mut actions, mut events) = (Vec::new(), Vec::new());
            while !game.is_over() {
                let seat = game.turn();
                let bot = lineup[usize::from(seat) % lineup.len()];
                let a = bots::choose(bot, &game, &mut rng);
                events.extend(game.apply(seat, &a).unwrap());
                actions.push((seat, a));
            }
            assert_eq!(played.actions, actions, "{name} seed {seed}: actions");
            assert_eq!(played.events, events, "{name} seed {seed}: events");
            assert_eq!(played.game.totals, game.totals, "{name} seed {seed}");
        }
    }
}

/// Games per house file in `spec/house/`: `PUSH_RUMMY_GAMES`, or [`HOUSE_GAMES`] (a few, since
/// the files are many and each has a 1,000-game run recorded by hand).
const HOUSE_GAMES: u64 = 20;

/// The rules files in `spec/house/`, sorted.
fn house_files() -> Vec<String> {
    let mut files: Vec<String> =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/spec/house"))
            .unwrap()
            .map(|e| e.unwrap().path().display().to_string())
            .filter(|p| p.ends_with(".yaml"))
            .collect();
    files.sort();
    files
}

/// Every house file loads with no error (what `rules check` reports as errors) and plays
/// whole games to the end with the greedy player, every invariant checked.
#[test]
fn every_house_file_loads_and_plays_to_the_end() {
    let files = house_files();
    assert!(files.len() >= 10, "{files:?}");
    let n = match std::env::var("PUSH_RUMMY_GAMES") {
        Ok(n) => n
            .parse()
            .unwrap_or_else(|_| panic!("PUSH_RUMMY_GAMES={n}: not a number of games")),
        Err(_) => games(HOUSE_GAMES, 4),
    };
    for file in &files {
        let rules = load(file, &[])
            .unwrap_or_else(|e| panic!("{file}: {:?}", e.diagnostics))
            .rules;
        let actions = play_many(&rules, n, &[&[Bot::Greedy]]);
        assert!(actions > 0, "{file}");
    }
}

/// The seven-card Push of the Push Rummy app states exactly what the app plays.
#[test]
fn push_app_seven_cards_states_the_apps_rules() {
    use push_rummy::base::card::{Card, Rank, Suit};
    use push_rummy::rules::disputes::reading;
    use push_rummy::rules::spec::MeldKind;
    use push_rummy::rules::{FirstPlayer, Sides, WhenEmpty, WhenNoneAllowed, ban};
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/spec/house/push-app-seven-cards.yaml"
    );
    let r = load(file, &[]).unwrap().rules;
    assert_eq!(r.players, (2, 4));
    assert_eq!(r.pack(4), (2, 4));
    // Six deals of seven; the last two contracts one run of 7 and one set of 8.
    assert_eq!(r.rounds.len(), 6);
    assert!(r.rounds.iter().all(|d| d.deal == 7));
    let last: Vec<(MeldKind, u8)> = r.rounds[4..]
        .iter()
        .flat_map(|d| d.contract.iter().map(|c| (c.kind, c.size)))
        .collect();
    assert_eq!(last, [(MeldKind::Run, 7), (MeldKind::Set, 8)]);
    assert_eq!(
        r.rounds[1]
            .contract
            .iter()
            .map(|c| (c.kind, c.size))
            .collect::<Vec<_>>(),
        [(MeldKind::Run, 4), (MeldKind::Set, 4)]
    );
    // Joker 50, two 25, ace 20, the rest as Push.
    assert_eq!(r.points(Card::JOKER), 50);
    let card = |rank| Card::new(rank, Suit::Hearts);
    assert_eq!(r.points(card(Rank::Two)), 25);
    assert_eq!(r.points(card(Rank::Ace)), 20);
    assert_eq!(r.points(card(Rank::King)), 10);
    assert_eq!(r.points(card(Rank::Five)), 5);
    // Every two wild and never natural; sets of any suits and size.
    assert!(r.twos_wild);
    assert_eq!(r.readings.natural_twos, reading::NaturalTwos::Never);
    assert_eq!(
        r.readings.set_duplicate_suits,
        reading::SetDuplicateSuits::Allowed
    );
    assert_eq!(r.readings.set_max_size, reading::SetMaxSize::Unlimited);
    // Each for himself, a random first player, ties by the hands before.
    assert_eq!(r.sides, Some(Sides::Individual));
    assert!((2..=4).all(|n| !r.partnered(n)));
    assert_eq!(r.first_player, Some(FirstPlayer::Random));
    assert_eq!(r.readings.ties, reading::Ties::EarlierHandsDecide);
    // No wild and no card that fits a table meld may go; draw until one may.
    let d = r.discard_rules.clone().unwrap();
    assert_eq!(d.bans, Some(ban::WILDS | ban::FITS_TABLE));
    assert_eq!(d.when_none, Some(WhenNoneAllowed::DrawUntilAllowed));
    // The contract pooled; the stock rebuilt without limit.
    assert!(r.contract_pooled);
    assert_eq!(r.when_empty, WhenEmpty::ReshuffleDiscards);
    assert_eq!(r.max_rebuilds, None);
    assert!(r.buying.is_none());
}
