//! The `standard` player: it never reads a hidden card (swapping the cards its seat cannot see
//! leaves every choice as it was), it plays only legal actions and finishes games under every
//! built-in rule set and house file, and it beats the greedy player.

use push_rummy::base::card::Counts;
use push_rummy::base::rng::Rng;
use push_rummy::engine::bots::{self, Bot};
use push_rummy::engine::game::{Action, Game, Stage};
use push_rummy::engine::standard;
use push_rummy::rules::disputes::DisputeId;
use push_rummy::rules::{BUILT_IN, Rules, load};
use std::sync::Arc;

/// Every built-in rule set, and every house file in `spec/house` (by path, as a club would name
/// its own).
fn every_rule_set() -> Vec<(String, Rules)> {
    let mut out: Vec<(String, Rules)> = BUILT_IN
        .iter()
        .map(|(name, _, _)| (name.to_string(), load(name, &[]).unwrap().rules))
        .collect();
    let mut files: Vec<_> = std::fs::read_dir("spec/house")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    for path in files {
        let name = path.display().to_string();
        let rules = load(&name, &[])
            .unwrap_or_else(|e| panic!("{name}: {e:?}"))
            .rules;
        out.push((name, rules));
    }
    out
}

/// `game` with every card its seat `seat` cannot see dealt afresh: the other hands and the stock
/// keep their sizes, their cards shuffled among them by `rng`; the generator and the pack orders
/// of later deals are changed too.
fn hidden_swapped(game: &Game, seat: u8, rng: &mut Rng) -> Game {
    let mut h = game.clone();
    let si = usize::from(seat);
    let mut unseen: Vec<_> = h.deal.stock.clone();
    for (s, hand) in h.deal.hands.iter().enumerate() {
        if s != si {
            unseen.extend(hand.cards());
        }
    }
    rng.shuffle(&mut unseen);
    let mut pool = unseen.into_iter();
    for (s, hand) in h.deal.hands.iter_mut().enumerate() {
        if s != si {
            let n = hand.len();
            *hand = Counts::from_cards(&pool.by_ref().take(n).collect::<Vec<_>>());
        }
    }
    let n = h.deal.stock.len();
    h.deal.stock = pool.by_ref().take(n).collect();
    h.rng = Rng::new(rng.below(u64::MAX));
    h.check_invariants();
    h
}

/// A game of `rules` stopped after `steps` actions by standard and greedy players.
fn game_at(rules: &Arc<Rules>, seed: u64, steps: usize) -> Game {
    let players = rules.players.0 + (seed % 2) as u8 * (rules.players.1 - rules.players.0).min(1);
    let mut g = Game::new(
        Arc::clone(rules),
        players,
        (seed % 3) as u8 % players,
        seed,
        vec![],
    )
    .unwrap();
    let mut rng = Rng::new(seed);
    for _ in 0..steps {
        if g.is_over() {
            break;
        }
        let bot = [Bot::Standard, Bot::Greedy][usize::from(g.turn()) % 2];
        let a = bots::choose(bot, &g, &mut rng);
        let seat = g.turn();
        g.apply(seat, &a).unwrap();
    }
    g
}

/// Positions of Push (with the pushed card face up and face down), Cap-It, 6 7 8 9 10 and a rule
/// set with buying out of turn, each with its hidden cards swapped four ways (other hands, stock,
/// generator): how many positions, and at how many of them `choose` changed its choice.
fn choices_changed_by_hidden_cards(choose: &dyn Fn(&Game) -> Action) -> (usize, usize) {
    let mut rule_sets: Vec<Rules> = ["push", "cap-it", "six-to-ten", "spec/house/may-i-app.yaml"]
        .iter()
        .map(|n| load(n, &[]).unwrap().rules)
        .collect();
    let mut face_down = load("push", &[]).unwrap().rules;
    face_down.set_reading(DisputeId::PushCardVisibility, "face-down");
    rule_sets.push(face_down);
    let mut rng = Rng::new(7);
    let (mut positions, mut changed, mut stock_changed) = (0, 0, 0);
    for rules in rule_sets {
        let rules = Arc::new(rules);
        for seed in 0..40 {
            let steps = rng.below(400) as usize;
            let g = game_at(&rules, seed, steps);
            if g.is_over() {
                continue;
            }
            let seat = g.turn();
            let chosen = choose(&g);
            let mut differs = false;
            for _ in 0..4 {
                let h = hidden_swapped(&g, seat, &mut rng);
                stock_changed += usize::from(h.deal.stock != g.deal.stock);
                differs |= choose(&h) != chosen;
                // The standard player's view is the same game, whatever was swapped.
                let (a, b) = (standard::view(&g, seat), standard::view(&h, seat));
                assert_eq!(a.deal, b.deal, "{}: seed {seed}", rules.name);
            }
            positions += 1;
            changed += usize::from(differs);
        }
    }
    assert!(positions > 150, "{positions} positions");
    assert!(
        stock_changed > 500,
        "the swaps changed the stock {stock_changed} times"
    );
    (positions, changed)
}

/// Swapping the hidden cards never changes the standard player's choice; the same swaps catch a
/// player that looks at the top stock card when it draws.
#[test]
fn hidden_cards_do_not_change_a_choice() {
    let (positions, changed) = choices_changed_by_hidden_cards(&standard::choose);
    assert_eq!(changed, 0, "{changed} of {positions} choices changed");
    let peeking = |g: &Game| match g.deal.stock.last() {
        Some(c) if g.deal.stage == Stage::Draw => {
            if c.index() % 2 == 0 {
                Action::TakeDiscard
            } else {
                Action::Push
            }
        }
        _ => standard::choose(g),
    };
    let (_, caught) = choices_changed_by_hidden_cards(&peeking);
    assert!(caught > 10, "a peeking player changed {caught} choices");
}

/// Six games under every built-in rule set and house file, at each number of players the
/// rules seat (up to six): the standard player alone and against greedy players; every action
/// it proposes is legal and every game ends.
#[test]
fn plays_legal_actions_to_the_end_under_every_rule_set() {
    for (name, rules) in every_rule_set() {
        let rules = Arc::new(rules);
        let (low, high) = rules.players;
        for (k, players) in (low..=high.min(6)).enumerate() {
            let lineups = [[Bot::Standard, Bot::Standard], [Bot::Standard, Bot::Greedy]];
            for j in 0..6 {
                let lineup = lineups[j % 2];
                let seed = (k * 6 + j) as u64;
                let mut game = Game::new(Arc::clone(&rules), players, 0, seed, vec![]).unwrap();
                let mut rng = Rng::new(seed);
                let mut steps = 0;
                while !game.is_over() {
                    let seat = game.turn();
                    let bot = lineup[usize::from(seat) % 2];
                    let a = bots::choose(bot, &game, &mut rng);
                    if let Err(e) = game.apply(seat, &a) {
                        panic!("{name}: {players} players, seed {seed}: {a} refused: {e}");
                    }
                    steps += 1;
                    assert!(steps < 100_000, "{name}: seed {seed} does not end");
                }
                assert_eq!(game.results.len(), rules.rounds.len(), "{name}");
            }
        }
    }
}

/// Over 200 partnership games of Push (the standard players on one side, greedy partners on the
/// other, the sides swapping seats every other game, the same deals both ways), the standard
/// side wins more than half (a shared win counts as half).
#[test]
fn beats_greedy_partners_at_push() {
    let rules = Arc::new(load("push", &[]).unwrap().rules);
    let mut half_wins = 0;
    let games = 200;
    for k in 0..games {
        let mine = (k % 2) as u8;
        let lineup: Vec<Bot> = (0..4)
            .map(|s| {
                if s % 2 == mine {
                    Bot::Standard
                } else {
                    Bot::Greedy
                }
            })
            .collect();
        let seed = 1000 + k / 2;
        let g = Game::new(Arc::clone(&rules), 4, (seed % 4) as u8, seed, vec![]).unwrap();
        let p = bots::play(g, &lineup, seed, false);
        let side = p.game.side_of[usize::from(mine)];
        if p.game.winners.contains(&side) {
            half_wins += if p.game.winners.len() > 1 { 1 } else { 2 };
        }
    }
    assert!(
        half_wins > games,
        "standard won {} of {games} games",
        half_wins as f64 / 2.0
    );
}
