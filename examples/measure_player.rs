//! Measures one built-in player against another in partnership games (docs/PLAYERS.md).
//!
//! ```text
//! cargo run --release --example measure_player -- [--rules push] [--games 2000] [--jobs 2]
//!     [--seed 1] [--players N] [--bots standard,greedy] [--style take=14,pair=14,...]
//! ```
//!
//! The first player of `--bots` sits at the even seats (one side in partnership games), the
//! second at the odd seats, in half the games; in the other half (the same deals, seed for seed)
//! they swap seats, so that seat and dealer effects cancel. Game `k` is dealt with seed
//! `seed + k / 2` by seat `(k / 2) % players`. The table has the fewest players the rules seat,
//! one more where that is odd (so that each player holds half the seats), or `--players`.
//! Prints the first player's share of the games with a 95% Wilson interval (a game won by a
//! seat of each, a shared win, counts as half; in games each for himself, a game is the first
//! player's when one of its seats wins), and per deal the share of hands that end by someone
//! going out.
//!
//! `--style` plays the standard player with other worths than its default ones
//! (`push_rummy::engine::standard::Style`: `wild`, `pair`, `triple`, `run1`, `run2`, `run3`,
//! `take`, `push` (`take_over_push`), `patience`, `after`, `feed`), to try them.

use push_rummy::base::rng::Rng;
use push_rummy::engine::bots::{self, Bot};
use push_rummy::engine::game::{Game, HandEnd};
use push_rummy::engine::standard::{self, Style};
use push_rummy::rules::load;
use std::sync::Arc;

#[derive(Default)]
struct Tally {
    games: u64,
    /// Wins of the measured player, in half-wins (a shared win is one).
    half_wins: u64,
    /// The same, of the games with the measured player at the even seats, and at the odd.
    half_wins_at: [u64; 2],
    ties: u64,
    /// Per deal: hands played, hands ended by going out.
    hands: Vec<u64>,
    went_out: Vec<u64>,
}

impl Tally {
    fn merge(&mut self, o: Tally) {
        self.games += o.games;
        self.half_wins += o.half_wins;
        for (a, b) in self.half_wins_at.iter_mut().zip(o.half_wins_at) {
            *a += b;
        }
        self.ties += o.ties;
        for (v, w) in [(&mut self.hands, o.hands), (&mut self.went_out, o.went_out)] {
            if v.len() < w.len() {
                v.resize(w.len(), 0);
            }
            for (a, b) in v.iter_mut().zip(w) {
                *a += b;
            }
        }
    }
}

/// The 95% Wilson score interval of `k` successes in `n` trials.
fn wilson(k: f64, n: f64) -> (f64, f64) {
    let z = 1.959_964f64;
    let p = k / n;
    let d = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / d;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
    (centre - half, centre + half)
}

/// `Style::default()` with the `key=value` pairs of `spec` put in.
fn style(spec: &str) -> Style {
    let mut s = Style::default();
    for pair in spec.split(',').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').expect("key=value");
        let v: i32 = value.parse().expect("a whole number");
        match key {
            "wild" => s.wild = v,
            "pair" => s.pair = v,
            "triple" => s.triple = v,
            "run1" => s.run[0] = v,
            "run2" => s.run[1] = v,
            "run3" => s.run[2] = v,
            "take" => s.take = v,
            "push" => s.take_over_push = v,
            "patience" => s.patience = u32::try_from(v).expect("patience is not negative"),
            "after" => s.after = v,
            "feed" => s.feed = v,
            other => panic!("unknown worth {other}"),
        }
    }
    s
}

/// A whole game, each seat played by its bot; the standard player in `style`.
fn play_styled(mut g: Game, lineup: &[Bot], style: &Style) -> Game {
    let mut rng = Rng::new(0);
    while !g.is_over() {
        let seat = g.turn();
        let a = match lineup[usize::from(seat)] {
            Bot::Standard => standard::choose_with(style, &g),
            bot => bots::choose(bot, &g, &mut rng),
        };
        g.apply(seat, &a).expect("a player plays legal actions");
    }
    g
}

fn main() {
    let mut rules_name = "push".to_string();
    let (mut games, mut jobs, mut seed) = (2000u64, 2usize, 1u64);
    let mut seated = None;
    let mut names = "standard,greedy".to_string();
    let mut styled = None;
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).cloned().unwrap_or_default();
        let number = || value.parse::<u64>().expect("a number");
        match pair[0].as_str() {
            "--rules" => rules_name = value.clone(),
            "--games" => games = number(),
            "--jobs" => jobs = usize::try_from(number()).expect("a number of jobs"),
            "--seed" => seed = number(),
            "--players" => seated = Some(u8::try_from(number()).expect("a number of players")),
            "--bots" => names = value.clone(),
            "--style" => styled = Some(style(&value)),
            other => panic!("unknown argument {other}"),
        }
    }
    let pick: Vec<Bot> = names
        .split(',')
        .map(|n| Bot::parse(n.trim()).expect("a bot: greedy, random, standard"))
        .collect();
    let [me, them] = pick[..] else {
        panic!("--bots names two players")
    };
    let rules = Arc::new(load(&rules_name, &[]).expect("rules").rules);
    // An even number of players by default, so that each player holds half the seats.
    let (low, high) = rules.players;
    let players = seated.unwrap_or(if low % 2 == 0 || low == high {
        low
    } else {
        low + 1
    });
    let jobs = jobs.clamp(1, 64) as u64;
    let tally = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs)
            .map(|j| {
                let (rules, styled) = (&rules, &styled);
                scope.spawn(move || {
                    let mut t = Tally::default();
                    let mut k = j;
                    while k < games {
                        // Even games: the measured player at the even seats; odd: at the odd.
                        let mine = (k % 2) as u8;
                        let lineup: Vec<Bot> = (0..players)
                            .map(|s| if s % 2 == mine { me } else { them })
                            .collect();
                        let s = seed + k / 2;
                        let dealer = ((k / 2) % u64::from(players)) as u8;
                        let g = Game::new(Arc::clone(rules), players, dealer, s, vec![])
                            .expect("the rules seat their least number of players");
                        let g = match styled {
                            Some(style) => play_styled(g, &lineup, style),
                            None => bots::play(g, &lineup, s, false).game,
                        };
                        // Whether a seat of the measured player's, and one of the other's,
                        // is on a winning side (games each for himself have a side per seat):
                        // by seat, so that a player measured against itself is told apart.
                        let side_won = |parity: u8| {
                            (0..players).any(|s| {
                                s % 2 == parity && g.winners.contains(&g.side_of[usize::from(s)])
                            })
                        };
                        let (won, lost) = (side_won(mine), side_won(1 - mine));
                        let shared = won && lost;
                        t.games += 1;
                        let half_wins = match (won, shared) {
                            (true, false) => 2,
                            (true, true) => 1,
                            _ => 0,
                        };
                        t.half_wins += half_wins;
                        t.half_wins_at[usize::from(mine)] += half_wins;
                        t.ties += u64::from(shared);
                        for (d, r) in g.results.iter().enumerate() {
                            if t.hands.len() <= d {
                                t.hands.resize(d + 1, 0);
                                t.went_out.resize(d + 1, 0);
                            }
                            t.hands[d] += 1;
                            t.went_out[d] += u64::from(matches!(r.end, HandEnd::WentOut(_)));
                        }
                        k += jobs;
                    }
                    t
                })
            })
            .collect();
        let mut total = Tally::default();
        for h in handles {
            total.merge(h.join().expect("a game thread does not panic"));
        }
        total
    });
    let n = tally.games as f64;
    let wins = tally.half_wins as f64 / 2.0;
    let (lo, hi) = wilson(wins, n);
    println!(
        "{rules_name}, {players} players: {} against {}, {} games (seats swapped in half)",
        me.name(),
        them.name(),
        tally.games
    );
    println!(
        "  {} wins {:.1}% (95% interval {:.1}%–{:.1}%; {} ties counted as half)",
        me.name(),
        100.0 * wins / n,
        100.0 * lo,
        100.0 * hi,
        tally.ties
    );
    // Games 0, 2, 4, … seat the measured player at the even seats.
    let at_even = tally.games.div_ceil(2) as f64;
    println!(
        "    at the even seats {:.1}% of {at_even}, at the odd seats {:.1}% of {}",
        100.0 * tally.half_wins_at[0] as f64 / 2.0 / at_even,
        100.0 * tally.half_wins_at[1] as f64 / 2.0 / (n - at_even),
        n - at_even
    );
    let (all_out, all_hands): (u64, u64) = (tally.went_out.iter().sum(), tally.hands.iter().sum());
    println!(
        "  hands ended by going out: {:.1}% of {all_hands}",
        100.0 * all_out as f64 / all_hands.max(1) as f64
    );
    for (d, (&h, &o)) in tally.hands.iter().zip(&tally.went_out).enumerate() {
        let (lo, hi) = wilson(o as f64, h as f64);
        println!(
            "    deal {}: {:.1}% (95% interval {:.1}%–{:.1}%) of {h}",
            d + 1,
            100.0 * o as f64 / h as f64,
            100.0 * lo,
            100.0 * hi
        );
    }
}
