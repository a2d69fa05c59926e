//! What a rule set does to the game, measured over self-played games (docs/EVALUATION.md).
//!
//! A game is read from its record ([`GameRecord`]: the seats' sides, the events in order and the
//! cards whose points counted at the end of each hand) into a few numbers ([`GameStats`]); the
//! numbers of many games, in game order, give the measures ([`measures`]), each an estimate with
//! a 95% interval: Wilson's score interval for a proportion, Student's t for a mean, the delta
//! method for a ratio of sums (games as units). Two lists of measures taken on the same seeds
//! compare measure by measure ([`compare`]): the difference, and whether it is beyond chance at
//! 95% (the two-proportion z test with pooled variance for proportions, Welch's t test for
//! means, a z test on the two standard errors for ratios).
//!
//! Nothing here plays: records come from [`GameRecord::of_played`] or are written by hand (the
//! tests give each measure a transcript with a known answer).

use crate::base::card::Card;
use crate::engine::bots::Played;
use crate::engine::game::{Event, HandEnd};
use crate::rules::Rules;
use crate::rules::disputes::reading as rd;
use serde::Serialize;

/// The quantile of the standard normal distribution for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// What a game's measures are read from.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Side of each seat.
    pub side_of: Vec<u8>,
    /// Every event of the game, in order.
    pub events: Vec<Event>,
    /// Per hand, the cards left in hand whose points counted (those of every side but the one
    /// that went out; of every seat, or none, when the stock ran out or play stalled, as
    /// `stock-out` reads).
    pub scored: Vec<Vec<Card>>,
}

impl GameRecord {
    /// The record of a game played to its end.
    pub fn of_played(p: &Played) -> GameRecord {
        let g = &p.game;
        let scored = g
            .results
            .iter()
            .map(|r| {
                let counted = |seat: usize| match r.end {
                    HandEnd::WentOut(s) => g.side_of[seat] != g.side_of[usize::from(s)],
                    HandEnd::StockOut | HandEnd::Stalled => {
                        g.rules.readings.stock_out == rd::StockOut::HandEndsAllScore
                    }
                };
                r.hands
                    .iter()
                    .enumerate()
                    .filter(|&(seat, _)| counted(seat))
                    .flat_map(|(_, h)| {
                        h.iter()
                            .flat_map(|(c, k)| std::iter::repeat_n(c, usize::from(k)))
                    })
                    .collect()
            })
            .collect();
        GameRecord {
            side_of: g.side_of.clone(),
            events: p.events.clone(),
            scored,
        }
    }
}

/// The kinds of card whose points left in hand are told apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardClass {
    /// Jokers, and twos where they are wild.
    Wild,
    Ace,
    /// Jacks, queens and kings.
    Court,
    /// Threes to tens, and twos where they are natural.
    Number,
}

impl CardClass {
    pub const ALL: [CardClass; 4] = [
        CardClass::Wild,
        CardClass::Ace,
        CardClass::Court,
        CardClass::Number,
    ];

    pub fn of(card: Card, rules: &Rules) -> CardClass {
        use crate::base::card::Rank;
        match card.rank() {
            _ if rules.is_wild(card) => CardClass::Wild,
            None => CardClass::Wild,
            Some(Rank::Ace) => CardClass::Ace,
            Some(Rank::Jack | Rank::Queen | Rank::King) => CardClass::Court,
            Some(_) => CardClass::Number,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            CardClass::Wild => "wilds",
            CardClass::Ace => "aces",
            CardClass::Court => "court cards",
            CardClass::Number => "number cards",
        }
    }
}

/// How one hand went.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HandStats {
    /// 0: someone went out; 1: the stock ran out; 2: play stalled.
    pub end: u8,
    /// Turns played, the one in which the hand ended included.
    pub turns: u32,
    /// Per seat: the seat's own turn in which its contract went down (1 = its first turn), if it
    /// did.
    pub contract: Vec<Option<u32>>,
    /// Points left in hand that counted, per [`CardClass`] in the order of `CardClass::ALL`.
    pub points: [u64; 4],
}

/// The numbers of one game that the measures are taken from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameStats {
    pub hands: Vec<HandStats>,
    /// Number of sides.
    pub sides: u8,
    /// Whether the side of the first deal's first player, of its dealer, and side 0 are among
    /// the winners.
    pub first_won: bool,
    pub dealer_won: bool,
    pub side0_won: bool,
    /// The best total among the sides that did not win less the winners' (0 when every side
    /// shares the win).
    pub margin: i64,
    /// Times the lead passed from one side to another (the leader after a hand: the one side
    /// with the lowest total; a tie leaves the lead where it was).
    pub lead_changes: u32,
    /// Turns of the whole game.
    pub turns: u32,
}

impl GameStats {
    /// Reads a game's record; `rules` gives the points and which cards are wild.
    pub fn of(record: &GameRecord, rules: &Rules) -> GameStats {
        let seats = record.side_of.len();
        let sides = record.side_of.iter().copied().max().map_or(0, |s| s + 1);
        let mut stats = GameStats {
            sides,
            ..GameStats::default()
        };
        let mut first_deal: Option<(u8, u8)> = None;
        let mut turns = 0u32;
        let mut own_turns = vec![0u32; seats];
        let mut contract: Vec<Option<u32>> = vec![None; seats];
        let mut ended_turn = false;
        let mut went_out = false;
        let mut leader: Option<usize> = None;
        for e in &record.events {
            let mut turn_end = None;
            match e {
                Event::Dealt { dealer, first, .. } => {
                    first_deal.get_or_insert((*dealer, *first));
                    turns = 0;
                    own_turns.iter_mut().for_each(|t| *t = 0);
                    contract.iter_mut().for_each(|c| *c = None);
                    went_out = false;
                }
                Event::Discarded { seat, .. } | Event::TurnEnded { seat } => {
                    turn_end = Some(*seat);
                }
                Event::Melded {
                    seat,
                    contract: true,
                    ..
                } => {
                    let s = usize::from(*seat);
                    contract[s].get_or_insert(own_turns[s] + 1);
                }
                Event::WentOut { .. } => went_out = true,
                Event::HandEnded { reason, totals, .. } => {
                    let played = turns + u32::from(!ended_turn);
                    let end = if went_out {
                        0
                    } else if reason.contains("stock") {
                        1
                    } else {
                        2
                    };
                    let h = stats.hands.len();
                    let mut points = [0u64; 4];
                    for &c in record.scored.get(h).map_or(&[][..], |v| &v[..]) {
                        let class = CardClass::of(c, rules);
                        let i = CardClass::ALL.iter().position(|&k| k == class).unwrap_or(0);
                        points[i] += u64::from(rules.points(c));
                    }
                    stats.hands.push(HandStats {
                        end,
                        turns: played,
                        contract: contract.clone(),
                        points,
                    });
                    stats.turns += played;
                    if let Some(l) = unique_low(totals) {
                        if leader.is_some_and(|old| old != l) {
                            stats.lead_changes += 1;
                        }
                        leader = Some(l);
                    }
                }
                Event::GameEnded { winners, totals } => {
                    let won = |seat: u8| {
                        record
                            .side_of
                            .get(usize::from(seat))
                            .is_some_and(|s| winners.contains(s))
                    };
                    if let Some((dealer, first)) = first_deal {
                        stats.first_won = won(first);
                        stats.dealer_won = won(dealer);
                    }
                    stats.side0_won = winners.contains(&0);
                    let best_winner = winners
                        .iter()
                        .filter_map(|&w| totals.get(usize::from(w)))
                        .min();
                    let best_other = (0..totals.len())
                        .filter(|s| !winners.iter().any(|&w| usize::from(w) == *s))
                        .map(|s| totals[s])
                        .min();
                    stats.margin = match (best_winner, best_other) {
                        (Some(w), Some(o)) => o - w,
                        _ => 0,
                    };
                }
                _ => {}
            }
            if !matches!(e, Event::WentOut { .. }) {
                ended_turn = turn_end.is_some();
            }
            if let Some(seat) = turn_end {
                turns += 1;
                if let Some(t) = own_turns.get_mut(usize::from(seat)) {
                    *t += 1;
                }
            }
        }
        stats
    }
}

/// The one side with the lowest total, if no other side has it too.
fn unique_low(totals: &[i64]) -> Option<usize> {
    let low = *totals.iter().min()?;
    let mut at = totals.iter().enumerate().filter(|(_, t)| **t == low);
    let first = at.next()?.0;
    at.next().is_none().then_some(first)
}

/// What an estimate is of, which says how its interval is made and how two are compared.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Sample {
    /// `k` successes of `n` trials.
    Proportion { k: u64, n: u64 },
    /// The mean of `n` values, with their sample standard deviation.
    Mean { n: u64, mean: f64, sd: f64 },
    /// A ratio of sums over `n` units, with its standard error (delta method).
    Ratio { n: u64, ratio: f64, se: f64 },
}

/// One measure: its name, estimate and 95% interval.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Measure {
    /// A stable key (`hands.went-out`, `contract.deal-2.met`, …).
    pub key: String,
    /// For people.
    pub label: String,
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
    pub sample: Sample,
}

impl Measure {
    fn new(key: String, label: String, sample: Sample) -> Measure {
        let (estimate, (low, high)) = match &sample {
            Sample::Proportion { k, n } => (
                if *n == 0 {
                    f64::NAN
                } else {
                    *k as f64 / *n as f64
                },
                wilson(*k, *n),
            ),
            Sample::Mean { n, mean, sd } => (*mean, t_interval(*n, *mean, *sd)),
            Sample::Ratio { n, ratio, se } => {
                let h = if *n < 2 {
                    f64::NAN
                } else {
                    t_quantile(*n - 1) * se
                };
                (*ratio, (ratio - h, ratio + h))
            }
        };
        Measure {
            key,
            label,
            estimate,
            low,
            high,
            sample,
        }
    }
}

/// The 95% Wilson score interval of `k` successes in `n` trials (NaN for none).
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (f64::NAN, f64::NAN);
    }
    let (z, n) = (Z95, n as f64);
    let p = k as f64 / n;
    let d = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / d;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The 95% Student's t interval of a mean of `n` values with sample standard deviation `sd`.
pub fn t_interval(n: u64, mean: f64, sd: f64) -> (f64, f64) {
    if n < 2 {
        return (f64::NAN, f64::NAN);
    }
    let h = t_quantile(n - 1) * sd / (n as f64).sqrt();
    (mean - h, mean + h)
}

/// The 97.5% quantile of Student's t with `df` degrees of freedom: exact to three decimals up to
/// 30, then the Cornish–Fisher expansion around the normal quantile.
pub fn t_quantile(df: u64) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::NAN,
        1..=30 => TABLE[(df - 1) as usize],
        _ => t_quantile_real(df as f64),
    }
}

/// [`t_quantile`] for a degrees of freedom that need not be whole (Welch's test); below 1 it is
/// taken as 1.
fn t_quantile_real(df: f64) -> f64 {
    if df <= 30.0 {
        return t_quantile(df.floor().max(1.0) as u64);
    }
    let z = Z95;
    let (z3, z5, z7) = (z.powi(3), z.powi(5), z.powi(7));
    z + (z3 + z) / (4.0 * df)
        + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * df * df)
        + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * df.powi(3))
}

/// Mean and sample standard deviation, summed in order.
fn mean_sd(values: impl Iterator<Item = f64> + Clone) -> Sample {
    let (n, sum) = values.clone().fold((0u64, 0.0), |(n, s), v| (n + 1, s + v));
    if n == 0 {
        return Sample::Mean {
            n,
            mean: f64::NAN,
            sd: f64::NAN,
        };
    }
    let mean = sum / n as f64;
    let ss: f64 = values.map(|v| (v - mean) * (v - mean)).sum();
    let sd = if n > 1 {
        (ss / (n - 1) as f64).sqrt()
    } else {
        f64::NAN
    };
    Sample::Mean { n, mean, sd }
}

/// The ratio of the sums of `a` and `b` over units, with its delta-method standard error.
fn ratio(pairs: &[(f64, f64)]) -> Sample {
    let n = pairs.len() as u64;
    let (sa, sb) = pairs
        .iter()
        .fold((0.0, 0.0), |(x, y), (a, b)| (x + a, y + b));
    if n == 0 || sb == 0.0 {
        return Sample::Ratio {
            n,
            ratio: f64::NAN,
            se: f64::NAN,
        };
    }
    let r = sa / sb;
    let mean_b = sb / n as f64;
    let ss: f64 = pairs.iter().map(|(a, b)| (a - r * b).powi(2)).sum();
    let se = if n > 1 {
        (ss / (n as f64 * (n - 1) as f64)).sqrt() / mean_b
    } else {
        f64::NAN
    };
    Sample::Ratio { n, ratio: r, se }
}

/// Every measure of `games`, taken in their order, by a fixed list of keys (a measure with no
/// data has NaN bounds).
pub fn measures(games: &[GameStats]) -> Vec<Measure> {
    let mut out = Vec::new();
    let mut m =
        |key: &str, label: &str, s: Sample| out.push(Measure::new(key.into(), label.into(), s));
    let hands = || games.iter().flat_map(|g| g.hands.iter());
    let n_hands = hands().count() as u64;
    for (end, key, label) in [
        (0, "went-out", "hands ended by going out"),
        (1, "stock-out", "hands ended by the stock running out"),
        (2, "stalled", "hands ended by a stall"),
    ] {
        let k = hands().filter(|h| h.end == end).count() as u64;
        m(
            &format!("hands.{key}"),
            label,
            Sample::Proportion { k, n: n_hands },
        );
    }
    m(
        "hands.turns",
        "turns per hand",
        mean_sd(hands().map(|h| f64::from(h.turns))),
    );
    let deals = games.iter().map(|g| g.hands.len()).max().unwrap_or(0);
    for d in 0..deals {
        let at = || games.iter().filter_map(move |g| g.hands.get(d));
        m(
            &format!("hands.deal-{}.went-out", d + 1),
            &format!("deal {}: hands ended by going out", d + 1),
            Sample::Proportion {
                k: at().filter(|h| h.end == 0).count() as u64,
                n: at().count() as u64,
            },
        );
        let seats = || at().flat_map(|h| h.contract.iter());
        let n = seats().count() as u64;
        let k = seats().filter(|c| c.is_some()).count() as u64;
        m(
            &format!("contract.deal-{}.met", d + 1),
            &format!("deal {}: contract met (share of seats)", d + 1),
            Sample::Proportion { k, n },
        );
        m(
            &format!("contract.deal-{}.turn", d + 1),
            &format!("deal {}: the seat's turn it is met in", d + 1),
            mean_sd(seats().filter_map(|c| c.map(f64::from))),
        );
    }
    let n = games.len() as u64;
    let count = |f: fn(&GameStats) -> bool| games.iter().filter(|g| f(g)).count() as u64;
    let sides = games.first().map_or(0, |g| g.sides);
    m(
        "seats.first-player",
        &format!("first player's side wins (even: 1/{sides})"),
        Sample::Proportion {
            k: count(|g| g.first_won),
            n,
        },
    );
    m(
        "seats.dealer",
        &format!("first dealer's side wins (even: 1/{sides})"),
        Sample::Proportion {
            k: count(|g| g.dealer_won),
            n,
        },
    );
    m(
        "seats.side-0",
        &format!("side 0 wins (even: 1/{sides})"),
        Sample::Proportion {
            k: count(|g| g.side0_won),
            n,
        },
    );
    m(
        "game.margin",
        "winning margin (points)",
        mean_sd(games.iter().map(|g| g.margin as f64)),
    );
    m(
        "game.lead-changes",
        "lead changes per game",
        mean_sd(games.iter().map(|g| f64::from(g.lead_changes))),
    );
    m(
        "game.turns",
        "game length (turns)",
        mean_sd(games.iter().map(|g| f64::from(g.turns))),
    );
    let per_game: Vec<[u64; 4]> = games
        .iter()
        .map(|g| {
            g.hands.iter().fold([0u64; 4], |mut a, h| {
                for (x, y) in a.iter_mut().zip(h.points) {
                    *x += y;
                }
                a
            })
        })
        .collect();
    for (i, class) in CardClass::ALL.iter().enumerate() {
        let pairs: Vec<(f64, f64)> = per_game
            .iter()
            .map(|p| (p[i] as f64, p.iter().sum::<u64>() as f64))
            .collect();
        let key = class.name().replace(' ', "-");
        m(
            &format!("points.{key}"),
            &format!("share of points left in hand: {}", class.name()),
            ratio(&pairs),
        );
    }
    out
}

/// Two estimates of one measure compared.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Difference {
    pub key: String,
    /// The second's estimate less the first's.
    pub difference: f64,
    /// The test statistic (z, or Welch's t), and the name of the test.
    pub statistic: f64,
    pub test: &'static str,
    /// Whether `|statistic|` is beyond the two-sided 95% critical value.
    pub beyond_chance: bool,
}

/// Compares two estimates of the same measure.
pub fn difference(a: &Measure, b: &Measure) -> Difference {
    let (statistic, critical, test) = match (&a.sample, &b.sample) {
        (Sample::Proportion { k: k1, n: n1 }, Sample::Proportion { k: k2, n: n2 }) => {
            let (n1, n2) = (*n1 as f64, *n2 as f64);
            let p = (*k1 + *k2) as f64 / (n1 + n2);
            let se = (p * (1.0 - p) * (1.0 / n1 + 1.0 / n2)).sqrt();
            let d = *k2 as f64 / n2 - *k1 as f64 / n1;
            let z = if se > 0.0 { d / se } else { 0.0 };
            (z, Z95, "two-proportion z")
        }
        (
            Sample::Mean {
                n: n1,
                mean: m1,
                sd: s1,
            },
            Sample::Mean {
                n: n2,
                mean: m2,
                sd: s2,
            },
        ) => {
            let (n1, n2) = (*n1 as f64, *n2 as f64);
            let (v1, v2) = (s1 * s1 / n1, s2 * s2 / n2);
            let se = (v1 + v2).sqrt();
            let t = if se > 0.0 { (m2 - m1) / se } else { 0.0 };
            let df = (v1 + v2).powi(2) / (v1 * v1 / (n1 - 1.0) + v2 * v2 / (n2 - 1.0));
            let critical = if df.is_finite() {
                t_quantile_real(df)
            } else {
                Z95
            };
            (t, critical, "Welch's t")
        }
        (
            Sample::Ratio {
                ratio: r1, se: s1, ..
            },
            Sample::Ratio {
                ratio: r2, se: s2, ..
            },
        ) => {
            let se = (s1 * s1 + s2 * s2).sqrt();
            let z = if se > 0.0 { (r2 - r1) / se } else { 0.0 };
            (z, Z95, "z on standard errors")
        }
        _ => (f64::NAN, Z95, "none"),
    };
    Difference {
        key: a.key.clone(),
        difference: b.estimate - a.estimate,
        statistic,
        test,
        beyond_chance: statistic.abs() > critical,
    }
}

/// The measures of `b` compared with those of `a`, key by key (a key only one has is left out).
pub fn compare(a: &[Measure], b: &[Measure]) -> Vec<Difference> {
    a.iter()
        .filter_map(|x| b.iter().find(|y| y.key == x.key).map(|y| difference(x, y)))
        .collect()
}
