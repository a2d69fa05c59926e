//! `evaluate`: what a rule set does to the game, measured over self-played games
//! (docs/EVALUATION.md). The games are played on `--jobs` threads, game `k` dealt by seat
//! `k % players` with seed `seed + k`, and read in game order, so the output depends only on the
//! seed (not on `--jobs`). `--compare DISPUTE` plays every reading of the dispute and
//! `--against RULES2` a second rule set on the same seeds; the measures are put side by side,
//! each later one against the first. Text, `--json`, and `--plot FILE.svg`; a progress bar on
//! stderr where it is a terminal (never with `--json`).

use super::common::{Common, Failure, bad_input, load_rules, pretty_json};
use super::play::parse_bots;
use clap::Args;
use push_rummy::engine::bots::{self as b, Bot};
use push_rummy::engine::game::Game;
use push_rummy::rules::Rules;
use push_rummy::rules::disputes::DisputeId;
use push_rummy::suite::evaluate::{self as ev, Difference, GameRecord, GameStats, Measure, Sample};
use serde_json::json;
use std::sync::Arc;

// No doc comment here: the command's help is the doc of `Command::Evaluate` in main.rs.
#[derive(Args)]
pub struct EvaluateArgs {
    /// Seed of the first game (game i uses seed + i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of games per rule set.
    #[arg(long, default_value_t = 200)]
    pub games: u64,
    /// Games played in parallel (the output does not depend on it).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Players at the table (default: the fewest the rules allow).
    #[arg(long)]
    pub players: Option<u8>,
    /// Players by seat, cycled: greedy, random, standard.
    #[arg(long, default_value = "standard", value_delimiter = ',')]
    pub bots: Vec<String>,
    /// Play every reading of this dispute side by side (e.g. two-penalty-value).
    #[arg(long, value_name = "DISPUTE", conflicts_with = "against")]
    pub compare: Option<String>,
    /// Play a second rule set (a built-in name or a path) side by side with --rules.
    #[arg(long, value_name = "NAME|PATH")]
    pub against: Option<String>,
    /// Also draw the measures as an SVG chart to this file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<String>,
}

/// One rule set played: its name for people and its measures.
struct Variant {
    name: String,
    rules: Arc<Rules>,
    measures: Vec<Measure>,
}

pub fn run(common: &Common, args: &EvaluateArgs) -> Result<u8, Failure> {
    if args.games == 0 {
        return Err(bad_input("--games: play at least one game".into()));
    }
    let bots = parse_bots(&args.bots)?;
    let base = load_rules(common, &common.rules)?.rules;
    let mut variants: Vec<(String, Rules)> = Vec::new();
    if let Some(d) = &args.compare {
        let id = DisputeId::from_id(d).ok_or_else(|| {
            bad_input(format!(
                "--compare: unknown dispute `{d}` (`push-rummy disputes` lists them)"
            ))
        })?;
        if let Some(path) = base.overriding(id) {
            return Err(bad_input(format!(
                "--compare {d}: {} states `{path}`, which decides in place of every reading",
                base.name
            )));
        }
        for reading in id.reading_names() {
            let mut r = base.clone();
            r.set_reading(id, reading);
            variants.push((format!("{d}={reading}"), r));
        }
    } else {
        variants.push((base.name.clone(), base.clone()));
        if let Some(other) = &args.against {
            let r = load_rules(common, other)?.rules;
            variants.push((r.name.clone(), r));
        }
    }
    let players = args.players.unwrap_or(base.players.0);
    for (name, r) in &variants {
        if players < r.players.0 || players > r.players.1 {
            return Err(bad_input(format!(
                "{name} seats {} to {} players, not {players}",
                r.players.0, r.players.1
            )));
        }
    }
    let show_progress = {
        use std::io::IsTerminal;
        !common.json && std::io::stderr().is_terminal()
    };
    let total = args.games * variants.len() as u64;
    let bar = if show_progress {
        let bar = indicatif::ProgressBar::new(total);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games, {elapsed} elapsed, {eta} left",
        ) {
            bar.set_style(style);
        }
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let mut played = Vec::new();
    for (name, r) in variants {
        let rules = Arc::new(r);
        let games = play_games(
            &rules, players, &bots, args.seed, args.games, args.jobs, &bar,
        )?;
        played.push(Variant {
            name,
            measures: ev::measures(&games),
            rules,
        });
    }
    bar.finish_and_clear();
    let diffs: Vec<Vec<Difference>> = played[1..]
        .iter()
        .map(|v| ev::compare(&played[0].measures, &v.measures))
        .collect();
    if let Some(file) = &args.plot {
        let svg = plot(&played, args.games, players);
        std::fs::write(file, svg)
            .map_err(|e| bad_input(format!("--plot: cannot write {file}: {e}")))?;
    }
    if common.json {
        out!(
            "{}",
            pretty_json(&json!({
                "players": players,
                "games": args.games,
                "seed": args.seed,
                "bots": bots.iter().map(|b| b.name()).collect::<Vec<_>>(),
                "variants": played.iter().map(|v| json!({
                    "name": v.name, "rules": v.rules.game, "measures": v.measures,
                })).collect::<Vec<_>>(),
                "differences": diffs.iter().zip(&played[1..]).map(|(d, v)| json!({
                    "from": played[0].name, "to": v.name, "measures": d,
                })).collect::<Vec<_>>(),
            }))
        );
    } else {
        print_table(&played, &diffs, args.games, players, &bots);
    }
    Ok(0)
}

/// `games` games on `jobs` threads (each taking every `jobs`-th game), their numbers in game
/// order.
fn play_games(
    rules: &Arc<Rules>,
    players: u8,
    bots: &[Bot],
    seed: u64,
    games: u64,
    jobs: usize,
    bar: &indicatif::ProgressBar,
) -> Result<Vec<GameStats>, Failure> {
    Game::new(rules.clone(), players, 0, seed, vec![]).map_err(|e| bad_input(e.to_string()))?;
    let jobs = jobs.clamp(1, 64) as u64;
    let mut slots: Vec<Option<GameStats>> = vec![None; games as usize];
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs)
            .map(|j| {
                scope.spawn(move || {
                    let mut out = Vec::new();
                    let mut k = j;
                    while k < games {
                        let s = seed.wrapping_add(k);
                        let dealer = (k % u64::from(players)) as u8;
                        let g = Game::new(rules.clone(), players, dealer, s, vec![])
                            .expect("validated above");
                        let p = b::play(g, bots, s, false);
                        out.push((k, GameStats::of(&GameRecord::of_played(&p), rules)));
                        bar.inc(1);
                        k += jobs;
                    }
                    out
                })
            })
            .collect();
        for h in handles {
            for (k, stats) in h.join().expect("a game thread does not panic") {
                slots[k as usize] = Some(stats);
            }
        }
    });
    Ok(slots.into_iter().flatten().collect())
}

/// An estimate with its interval, for people: a share in percent, else two decimals.
fn shown(m: &Measure) -> String {
    if m.estimate.is_nan() {
        return "—".into();
    }
    let share = matches!(m.sample, Sample::Proportion { .. } | Sample::Ratio { .. });
    let (x, lo, hi) = if share {
        (100.0 * m.estimate, 100.0 * m.low, 100.0 * m.high)
    } else {
        (m.estimate, m.low, m.high)
    };
    let (unit, places) = if share { ("%", 1) } else { ("", 2) };
    // No interval from a single value.
    if lo.is_nan() || hi.is_nan() {
        return format!("{x:.places$}{unit} (one value)");
    }
    format!("{x:.places$}{unit} ({lo:.places$}–{hi:.places$})")
}

/// A difference for people, in the measure's unit, `*` where it is beyond chance.
fn shown_difference(m: &Measure, d: &Difference) -> String {
    if d.difference.is_nan() {
        return "—".into();
    }
    let mark = if d.beyond_chance { " *" } else { "" };
    match m.sample {
        Sample::Proportion { .. } | Sample::Ratio { .. } => {
            format!("{:+.1} pt{mark}", 100.0 * d.difference)
        }
        Sample::Mean { .. } => format!("{:+.2}{mark}", d.difference),
    }
}

fn print_table(
    played: &[Variant],
    diffs: &[Vec<Difference>],
    games: u64,
    players: u8,
    bots: &[Bot],
) {
    out!(
        "{games} games each, {players} players ({}); estimates with 95% intervals",
        bots.iter().map(|b| b.name()).collect::<Vec<_>>().join(",")
    );
    let mut header = vec!["measure".to_string()];
    header.extend(played.iter().map(|v| v.name.clone()));
    // A reading's difference column is headed by the readings alone.
    let short = |n: &str| n.rsplit('=').next().unwrap_or(n).to_string();
    header.extend(
        played[1..]
            .iter()
            .map(|v| format!("{} − {}", short(&v.name), short(&played[0].name))),
    );
    let mut rows = vec![header];
    let all = every_measure(played);
    for m in all {
        let mut row = vec![m.label.clone()];
        for v in played {
            row.push(
                v.measures
                    .iter()
                    .find(|x| x.key == m.key)
                    .map_or("—".into(), shown),
            );
        }
        for d in diffs {
            row.push(
                d.iter()
                    .find(|x| x.key == m.key)
                    .map_or("—".into(), |d| shown_difference(m, d)),
            );
        }
        rows.push(row);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    for r in &rows {
        let line: Vec<String> = r
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (cell, w))| {
                let pad = w - cell.chars().count();
                if i == 0 {
                    format!("{cell}{}", " ".repeat(pad))
                } else {
                    format!("{}{cell}", " ".repeat(pad))
                }
            })
            .collect();
        out!("{}", line.join("  ").trim_end());
    }
    if !diffs.is_empty() {
        out!(
            "* beyond chance at 95% (two-proportion z test for shares, Welch's t test for means, \
             a z test on the standard errors for shares of points)"
        );
    }
}

/// Every variant's measures, in the order of the one with the most (rule sets with more deals
/// have more contract measures).
fn every_measure(played: &[Variant]) -> Vec<&Measure> {
    let mut all: Vec<&Measure> = Vec::new();
    let most = played
        .iter()
        .rev()
        .max_by_key(|v| v.measures.len())
        .unwrap_or(&played[0]);
    for m in most
        .measures
        .iter()
        .chain(played.iter().flat_map(|v| &v.measures))
    {
        if !all.iter().any(|x| x.key == m.key) {
            all.push(m);
        }
    }
    all
}

/// The measures as small charts, one per measure, each rule set a point with its interval.
fn plot(played: &[Variant], games: u64, players: u8) -> String {
    use plotters::prelude::*;
    const COLUMNS: usize = 4;
    let measures = every_measure(played);
    let rows = measures.len().div_ceil(COLUMNS);
    let (w, h) = (1200u32, 90 + 220 * rows as u32);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area();
        let _ = root.fill(&WHITE);
        let title = format!(
            "{} — {games} games each, {players} players",
            played
                .iter()
                .map(|v| v.name.as_str())
                .collect::<Vec<_>>()
                .join(" vs ")
        );
        let root = root
            .titled(&title, ("sans-serif", 22))
            .unwrap_or_else(|_| root.clone());
        let palette = [
            RGBColor(31, 119, 180),
            RGBColor(214, 39, 40),
            RGBColor(44, 160, 44),
            RGBColor(148, 103, 189),
            RGBColor(255, 127, 14),
            RGBColor(140, 86, 75),
        ];
        // A legend: each rule set's colour and full name.
        let (legend, root) = root.split_vertically(30);
        let mut x = 20i32;
        for (i, v) in played.iter().enumerate() {
            let c = palette[i % palette.len()];
            let _ = legend.draw(&Circle::new((x, 14), 6, c.filled()));
            let _ = legend.draw(&Text::new(
                v.name.clone(),
                (x + 12, 6),
                ("sans-serif", 15).into_font(),
            ));
            x += 40 + 9 * v.name.chars().count() as i32;
        }
        let panels = root.split_evenly((rows, COLUMNS));
        for (m, area) in measures.iter().zip(panels.iter()) {
            let points: Vec<(usize, &Measure)> = played
                .iter()
                .enumerate()
                .filter_map(|(i, v)| v.measures.iter().find(|x| x.key == m.key).map(|x| (i, x)))
                .filter(|(_, x)| x.low.is_finite() && x.high.is_finite())
                .collect();
            let lo = points
                .iter()
                .map(|(_, x)| x.low)
                .fold(f64::INFINITY, f64::min);
            let hi = points
                .iter()
                .map(|(_, x)| x.high)
                .fold(f64::NEG_INFINITY, f64::max);
            let (lo, hi) = if lo.is_finite() && hi > lo {
                let pad = (hi - lo) * 0.15;
                (lo - pad, hi + pad)
            } else if lo.is_finite() {
                (lo - 0.5, lo + 0.5)
            } else {
                (0.0, 1.0)
            };
            let mut label = m.label.clone();
            if label.chars().count() > 44 {
                label = label.chars().take(43).collect::<String>() + "…";
            }
            let Ok(mut chart) = ChartBuilder::on(area)
                .caption(label, ("sans-serif", 13))
                .margin(8)
                .x_label_area_size(18)
                .y_label_area_size(48)
                .build_cartesian_2d(-0.5f64..(played.len() as f64 - 0.5), lo..hi)
            else {
                continue;
            };
            let names: Vec<String> = played.iter().map(|v| v.name.clone()).collect();
            let _ = chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(played.len())
                .x_label_formatter(&|x| {
                    let i = x.round();
                    if (x - i).abs() < 1e-9 && i >= 0.0 {
                        names
                            .get(i as usize)
                            .map(|n| n.rsplit('=').next().unwrap_or(n).chars().take(18).collect())
                            .unwrap_or_default()
                    } else {
                        String::new()
                    }
                })
                .y_labels(4)
                .label_style(("sans-serif", 11))
                .draw();
            for (i, x) in points {
                let c = palette[i % palette.len()];
                let at = i as f64;
                let _ = chart.draw_series(std::iter::once(ErrorBar::new_vertical(
                    at,
                    x.low,
                    x.estimate,
                    x.high,
                    c.stroke_width(2),
                    10,
                )));
                let _ = chart.draw_series(std::iter::once(Circle::new(
                    (at, x.estimate),
                    4,
                    c.filled(),
                )));
            }
        }
        let _ = root.present();
    }
    svg
}
