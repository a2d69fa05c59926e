//! `suite::evaluate`: each measure on hand-made transcripts whose answers are worked out by hand
//! below, the records of played games against the engine's own hand results, and the intervals
//! and tests on samples drawn from known distributions (their coverage and false alarms).

use push_rummy::base::card::{Card, CardList};
use push_rummy::base::rng::Rng;
use push_rummy::engine::bots::{self, Bot};
use push_rummy::engine::game::{Event, Game, HandEnd};
use push_rummy::rules::{Rules, load};
use push_rummy::suite::evaluate::{
    self as ev, GameRecord, GameStats, Measure, Sample, Z95, difference, measures, t_interval,
    wilson,
};
use std::sync::Arc;

fn push() -> Rules {
    load("push", &[]).expect("push loads").rules
}

fn cards(s: &str) -> Vec<Card> {
    s.split_whitespace()
        .map(|c| c.parse().expect("a card"))
        .collect()
}

fn discard(seat: u8) -> Event {
    Event::Discarded {
        seat,
        card: Card::JOKER,
    }
}

fn contract(seat: u8) -> Event {
    Event::Melded {
        seat,
        meld: 0,
        cards: CardList::from_slice(&cards("7C 7D 7H")),
        contract: true,
    }
}

/// Two players, each for himself, two deals.
///
/// Deal 1 (dealer 0, seat 1 first): seat 1 discards (turn 1); seat 0 lays its contract down in
/// its first turn and discards (turn 2); seat 1 lays its contract down in its second turn and
/// discards (turn 3); seat 0 discards its last card and goes out (turn 4). Seat 1 is left with
/// JK AS KH 7C: 20 + 15 + 10 + 5 under Push, totals 0–50 (seat 0 leads).
///
/// Deal 2 (dealer 1, seat 0 first): seat 0 discards (turn 1), seat 1 ends its turn without one
/// (turn 2), seat 0 draws and the stock runs out in its turn (turn 3, unfinished). Everything
/// left counts: seat 0 QD KS JH 10S 3C 4C AH (65), seat 1 5D (5): totals 65–55, seat 1 leads
/// (one lead change) and wins by 10.
fn game_a() -> GameRecord {
    use Event as E;
    let events = vec![
        E::Dealt {
            round: 0,
            dealer: 0,
            first: 1,
        },
        discard(1),
        contract(0),
        discard(0),
        contract(1),
        discard(1),
        discard(0),
        E::WentOut { seat: 0 },
        E::HandEnded {
            reason: "seat 0 went out".into(),
            points: vec![0, 50],
            totals: vec![0, 50],
        },
        E::Dealt {
            round: 1,
            dealer: 1,
            first: 0,
        },
        discard(0),
        E::TurnEnded { seat: 1 },
        E::Drew {
            seat: 0,
            card: Card::JOKER,
        },
        E::HandEnded {
            reason: "the stock ran out".into(),
            points: vec![65, 5],
            totals: vec![65, 55],
        },
        E::GameEnded {
            winners: vec![1],
            totals: vec![65, 55],
        },
    ];
    GameRecord {
        side_of: vec![0, 1],
        events,
        scored: vec![cards("JK AS KH 7C"), cards("QD KS JH 10S 3C 4C AH 5D")],
    }
}

/// Two players, one deal (dealer 1, seat 0 first): three discards, then a stall ends the hand
/// after the third; nothing counts and the sides share the win, 0–0.
fn game_b() -> GameRecord {
    use Event as E;
    GameRecord {
        side_of: vec![0, 1],
        events: vec![
            E::Dealt {
                round: 0,
                dealer: 1,
                first: 0,
            },
            discard(0),
            discard(1),
            discard(0),
            E::HandEnded {
                reason: "3 turns in a row without a card reaching the table".into(),
                points: vec![0, 0],
                totals: vec![0, 0],
            },
            E::GameEnded {
                winners: vec![0, 1],
                totals: vec![0, 0],
            },
        ],
        scored: vec![vec![]],
    }
}

#[test]
fn evaluate_reads_a_game_as_worked_out_by_hand() {
    let rules = push();
    let a = GameStats::of(&game_a(), &rules);
    assert_eq!(a.sides, 2);
    assert_eq!(a.hands.len(), 2);
    let ends: Vec<u8> = a.hands.iter().map(|h| h.end).collect();
    assert_eq!(ends, [0, 1], "went out, then the stock ran out");
    let turns: Vec<u32> = a.hands.iter().map(|h| h.turns).collect();
    assert_eq!(turns, [4, 3], "the unfinished turn of a stock-out counts");
    assert_eq!(a.hands[0].contract, [Some(1), Some(2)]);
    assert_eq!(a.hands[1].contract, [None, None]);
    // Wilds, aces, court cards, number cards.
    assert_eq!(a.hands[0].points, [20, 15, 10, 5]);
    assert_eq!(a.hands[1].points, [0, 15, 30, 25]);
    assert!(a.first_won, "seat 1 played first and won");
    assert!(!a.dealer_won && !a.side0_won);
    assert_eq!(a.margin, 10);
    assert_eq!(a.lead_changes, 1);
    assert_eq!(a.turns, 7);

    let b = GameStats::of(&game_b(), &rules);
    assert_eq!(b.hands.len(), 1);
    assert_eq!((b.hands[0].end, b.hands[0].turns), (2, 3));
    assert!(b.first_won && b.dealer_won && b.side0_won, "a shared win");
    assert_eq!((b.margin, b.lead_changes, b.turns), (0, 0, 3));
}

fn get<'a>(ms: &'a [Measure], key: &str) -> &'a Measure {
    ms.iter()
        .find(|m| m.key == key)
        .unwrap_or_else(|| panic!("no measure {key}"))
}

fn close(x: f64, y: f64) -> bool {
    (x - y).abs() < 1e-9
}

#[test]
fn evaluate_measures_two_games_as_worked_out_by_hand() {
    let rules = push();
    let games = [
        GameStats::of(&game_a(), &rules),
        GameStats::of(&game_b(), &rules),
    ];
    let ms = measures(&games);
    let prop = |key: &str| match get(&ms, key).sample {
        Sample::Proportion { k, n } => (k, n),
        ref s => panic!("{key} is no proportion: {s:?}"),
    };
    // Three hands: one of each end.
    assert_eq!(prop("hands.went-out"), (1, 3));
    assert_eq!(prop("hands.stock-out"), (1, 3));
    assert_eq!(prop("hands.stalled"), (1, 3));
    // Deal 1: both seats of game A met it, neither of game B; deal 2: neither.
    // Deal 1: game A's went out, game B's stalled; deal 2: game A's stock ran out.
    assert_eq!(prop("hands.deal-1.went-out"), (1, 2));
    assert_eq!(prop("hands.deal-2.went-out"), (0, 1));
    assert_eq!(prop("contract.deal-1.met"), (2, 4));
    assert_eq!(prop("contract.deal-2.met"), (0, 2));
    assert_eq!(prop("seats.first-player"), (2, 2));
    assert_eq!(prop("seats.dealer"), (1, 2));
    assert_eq!(prop("seats.side-0"), (1, 2));
    assert!(close(get(&ms, "hands.went-out").estimate, 1.0 / 3.0));

    let mean = |key: &str| match get(&ms, key).sample {
        Sample::Mean { n, mean, sd } => (n, mean, sd),
        ref s => panic!("{key} is no mean: {s:?}"),
    };
    // Turns per hand 4, 3, 3: mean 10/3, variance ((2/3)² + 2 (1/3)²) / 2 = 1/3.
    let (n, m, sd) = mean("hands.turns");
    assert_eq!(n, 3);
    assert!(close(m, 10.0 / 3.0) && close(sd, (1.0f64 / 3.0).sqrt()));
    let (n, m, _) = mean("contract.deal-1.turn");
    assert_eq!((n, m), (2, 1.5));
    let (n, m, _) = mean("contract.deal-2.turn");
    assert!(n == 0 && m.is_nan(), "nobody met deal 2's contract");
    assert_eq!(mean("game.margin").1, 5.0);
    assert_eq!(mean("game.lead-changes").1, 0.5);
    assert_eq!(mean("game.turns").1, 5.0);
    // Points left: 20 wild, 30 aces, 40 court, 30 number, of 120 (all in game A).
    for (key, share) in [
        ("points.wilds", 20.0 / 120.0),
        ("points.aces", 30.0 / 120.0),
        ("points.court-cards", 40.0 / 120.0),
        ("points.number-cards", 30.0 / 120.0),
    ] {
        assert!(
            close(get(&ms, key).estimate, share),
            "{key}: {:?}",
            get(&ms, key)
        );
    }
    // Every estimate lies in its interval where there is one.
    for m in &ms {
        if m.low.is_finite() {
            assert!(m.low <= m.estimate && m.estimate <= m.high, "{m:?}");
        }
    }
}

/// Played games: the record's hands are the engine's, and the points it reads by kind of card
/// add up to the points the hands scored.
#[test]
fn evaluate_reads_played_games_as_the_engine_scored_them() {
    let rules = Arc::new(push());
    for seed in 1..=3u64 {
        let g = Game::new(rules.clone(), 4, 0, seed, vec![]).expect("push seats four");
        let p = bots::play(g, &[Bot::Standard], seed, false);
        let stats = GameStats::of(&GameRecord::of_played(&p), &rules);
        assert_eq!(stats.hands.len(), p.game.results.len());
        for (h, r) in stats.hands.iter().zip(p.game.results.iter()) {
            let end = match r.end {
                HandEnd::WentOut(_) => 0,
                HandEnd::StockOut => 1,
                HandEnd::Stalled => 2,
            };
            assert_eq!(h.end, end);
            let scored: i64 = r.points.iter().map(|&x| x.max(0)).sum();
            assert_eq!(h.points.iter().sum::<u64>() as i64, scored, "seed {seed}");
        }
        let turns: u32 = stats.hands.iter().map(|h| h.turns).sum();
        assert_eq!(stats.turns, turns);
        assert_eq!(stats.side0_won, p.game.winners.contains(&0), "seed {seed}");
    }
}

/// A standard normal draw (Box–Muller) from the crate's generator.
fn normal(rng: &mut Rng) -> f64 {
    let u = |rng: &mut Rng| (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let (a, b) = (u(rng).max(1e-300), u(rng));
    (-2.0 * a.ln()).sqrt() * (std::f64::consts::TAU * b).cos()
}

fn bernoulli(rng: &mut Rng, p: f64, n: u64) -> u64 {
    (0..n)
        .filter(|_| ((rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64) < p)
        .count() as u64
}

/// Wilson's interval covers the true share about 95% of the time on binomial samples, and with
/// no successes its upper end is z² / (n + z²).
#[test]
fn evaluate_wilson_interval_covers_a_known_share() {
    let mut rng = Rng::new(11);
    let (p, n, reps) = (0.3, 60, 4000);
    let covered = (0..reps)
        .filter(|_| {
            let (lo, hi) = wilson(bernoulli(&mut rng, p, n), n);
            lo <= p && p <= hi
        })
        .count();
    let share = covered as f64 / reps as f64;
    assert!((0.93..=0.97).contains(&share), "coverage {share}");
    let (lo, hi) = wilson(0, 40);
    assert_eq!(lo, 0.0);
    assert!(close(hi, Z95 * Z95 / (40.0 + Z95 * Z95)));
}

/// Student's t interval covers a normal mean about 95% of the time even from five values (the
/// normal quantile in its place would cover about 88%), and from fifty.
#[test]
fn evaluate_t_interval_covers_a_known_mean() {
    let mut rng = Rng::new(5);
    for n in [5u64, 50] {
        let reps = 4000;
        let covered = (0..reps)
            .filter(|_| {
                let xs: Vec<f64> = (0..n).map(|_| 3.0 + 2.0 * normal(&mut rng)).collect();
                let mean = xs.iter().sum::<f64>() / n as f64;
                let sd =
                    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt();
                let (lo, hi) = t_interval(n, mean, sd);
                lo <= 3.0 && 3.0 <= hi
            })
            .count();
        let share = covered as f64 / reps as f64;
        assert!((0.93..=0.97).contains(&share), "n {n}: coverage {share}");
    }
}

fn proportion(k: u64, n: u64) -> Measure {
    let mut ms = measures(&[]);
    let mut m = ms.remove(0);
    m.estimate = k as f64 / n as f64;
    m.sample = Sample::Proportion { k, n };
    m
}

fn mean_of(xs: &[f64]) -> Measure {
    let n = xs.len() as u64;
    let mean = xs.iter().sum::<f64>() / n as f64;
    let sd = (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt();
    let mut m = proportion(0, 1);
    m.estimate = mean;
    m.sample = Sample::Mean { n, mean, sd };
    m
}

/// Two samples of one distribution differ beyond chance about 5% of the time under either test;
/// samples of distributions far apart almost always do.
#[test]
fn evaluate_comparisons_raise_false_alarms_about_one_time_in_twenty() {
    let mut rng = Rng::new(3);
    let reps = 3000;
    let alarms = (0..reps)
        .filter(|_| {
            let (a, b) = (bernoulli(&mut rng, 0.4, 200), bernoulli(&mut rng, 0.4, 200));
            difference(&proportion(a, 200), &proportion(b, 200)).beyond_chance
        })
        .count() as f64
        / reps as f64;
    assert!((0.03..=0.07).contains(&alarms), "proportions: {alarms}");
    let alarms = (0..reps)
        .filter(|_| {
            let a: Vec<f64> = (0..12).map(|_| normal(&mut rng)).collect();
            let b: Vec<f64> = (0..30).map(|_| 3.0 * normal(&mut rng)).collect();
            difference(&mean_of(&a), &mean_of(&b)).beyond_chance
        })
        .count() as f64
        / reps as f64;
    assert!((0.03..=0.07).contains(&alarms), "means: {alarms}");
    assert!(difference(&proportion(20, 200), &proportion(60, 200)).beyond_chance);
    let far: Vec<f64> = (0..30).map(|_| 2.0 + normal(&mut rng)).collect();
    let near: Vec<f64> = (0..30).map(|_| normal(&mut rng)).collect();
    let d = difference(&mean_of(&near), &mean_of(&far));
    assert!(d.beyond_chance && d.difference > 0.0, "{d:?}");
    assert_eq!(ev::compare(&[mean_of(&near)], &[]).len(), 0);
}
