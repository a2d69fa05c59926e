//! `play`: whole games with the built-in players. One game is shown (the table as each deal
//! starts, every event, the result) or printed as JSON; many are played on several threads and
//! summed up ([`Summary`]: wins, average totals, how hands ended).

use super::common::{Common, Failure, bad_input, load_rules, look, pretty_json};
use clap::Args;
use push_rummy::engine::bots::{self as b, Bot, Played};
use push_rummy::engine::game::{Event, Game};
use push_rummy::help::term::Look;
use push_rummy::rules::Rules;
use serde_json::{Value, json};
use std::sync::Arc;

// No doc comment here: the command's help is the doc of `Command::Play` in main.rs.
#[derive(Args)]
pub struct PlayArgs {
    /// Seed of the first game (game i uses seed + i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Players at the table (default: the fewest the rules allow).
    #[arg(long)]
    pub players: Option<u8>,
    /// Players by seat, cycled: greedy, random, standard.
    #[arg(long, default_value = "greedy", value_delimiter = ',')]
    pub bots: Vec<String>,
    /// Number of games; more than one prints a summary.
    #[arg(long, default_value_t = 1)]
    pub games: u64,
    /// Games played in parallel.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
}

pub fn run(common: &Common, args: &PlayArgs) -> Result<u8, Failure> {
    let seed = args.seed;
    let loaded = load_rules(common, &common.rules)?;
    let rules = Arc::new(loaded.rules);
    let players = args.players.unwrap_or(rules.players.0);
    let bots = parse_bots(&args.bots)?;
    if args.games == 1 {
        return play_one(common, &rules, players, &bots, seed);
    }
    // Validate the setup once before spreading out.
    new_game(&rules, players, seed)?;
    let summary = play_many(&rules, players, &bots, seed, args.games, args.jobs);
    print_summary(common, &rules, players, &bots, &summary);
    Ok(0)
}

/// The players of `--bots`, by seat (also `evaluate`'s).
pub(super) fn parse_bots(names: &[String]) -> Result<Vec<Bot>, Failure> {
    let bots: Vec<Bot> = names
        .iter()
        .map(|n| {
            Bot::parse(n.trim()).ok_or_else(|| {
                bad_input(format!(
                    "unknown bot `{n}`: the bots are greedy, random, standard"
                ))
            })
        })
        .collect::<Result<_, _>>()?;
    if bots.is_empty() {
        return Err(bad_input("name at least one bot".into()));
    }
    Ok(bots)
}

/// A new game dealt by seat 0 with `seed`, or why the rules cannot seat `players`.
fn new_game(rules: &Arc<Rules>, players: u8, seed: u64) -> Result<Game, Failure> {
    Game::new(rules.clone(), players, 0, seed, vec![]).map_err(|e| bad_input(e.to_string()))
}

/// One game: its actions and events as JSON, or shown for people.
fn play_one(
    common: &Common,
    rules: &Arc<Rules>,
    players: u8,
    bots: &[Bot],
    seed: u64,
) -> Result<u8, Failure> {
    let p = b::play(
        new_game(rules, players, seed)?,
        bots,
        seed,
        cfg!(debug_assertions),
    );
    if common.json {
        let actions: Vec<Value> = p
            .actions
            .iter()
            .map(|(s, a)| json!({ "seat": s, "action": a.to_string() }))
            .collect();
        out!(
            "{}",
            pretty_json(
                &json!({ "rules": rules.game, "players": players, "seed": seed, "actions": actions,
                "events": p.events, "totals": p.game.totals, "winners": p.game.winners })
            )
        );
    } else {
        print_game(&look(common), new_game(rules, players, seed)?, &p)?;
    }
    Ok(0)
}

/// Many games, `jobs` threads taking every `jobs`-th game (game `k` is dealt by seat
/// `k % players` with seed `seed + k`), summed up; progress on stderr where it is a terminal.
fn play_many(
    rules: &Arc<Rules>,
    players: u8,
    bots: &[Bot],
    seed: u64,
    games: u64,
    jobs: usize,
) -> Summary {
    use std::io::IsTerminal;
    use std::sync::atomic::{AtomicU64, Ordering};
    let jobs = jobs.clamp(1, 64);
    let done = AtomicU64::new(0);
    let show_progress = std::io::stderr().is_terminal() && games >= 100;
    let summary = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs as u64)
            .map(|j| {
                let done = &done;
                scope.spawn(move || {
                    let mut s = Summary::default();
                    let mut k = j;
                    while k < games {
                        let g = Game::new(
                            rules.clone(),
                            players,
                            (k % u64::from(players)) as u8,
                            seed + k,
                            vec![],
                        )
                        .expect("validated above");
                        s.add(&b::play(g, bots, seed + k, false));
                        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                        if show_progress && n.is_multiple_of(100) {
                            eprint!("\rplayed {n}/{games}");
                        }
                        k += jobs as u64;
                    }
                    s
                })
            })
            .collect();
        let mut total = Summary::default();
        for h in handles {
            total.merge(h.join().expect("a game thread does not panic"));
        }
        total
    });
    if show_progress {
        eprintln!("\rplayed {games}/{games}");
    }
    summary
}

/// The summary of many games, as JSON or for people.
fn print_summary(common: &Common, rules: &Rules, players: u8, bots: &[Bot], summary: &Summary) {
    let avg: Vec<f64> = summary
        .totals
        .iter()
        .map(|t| *t as f64 / summary.games as f64)
        .collect();
    if common.json {
        out!(
            "{}",
            pretty_json(
                &json!({ "rules": rules.game, "players": players, "games": summary.games, "wins": summary.wins,
                "average_totals": avg, "hands": summary.hands, "average_actions_per_hand": summary.actions as f64 / summary.hands.max(1) as f64,
                "hand_ends": { "went_out": summary.went_out, "stock_out": summary.stock_out, "stalled": summary.stalled } })
            )
        );
    } else {
        out!(
            "{} games of {} with {players} players ({})",
            summary.games,
            rules.name,
            bots.iter().map(|b| b.name()).collect::<Vec<_>>().join(",")
        );
        for (side, w) in summary.wins.iter().enumerate() {
            out!("  side {side}: {w} wins, average total {:.1}", avg[side]);
        }
        out!(
            "  hands: {} ({:.1} actions each); went out {}, stock ran out {}, stalled {}",
            summary.hands,
            summary.actions as f64 / summary.hands.max(1) as f64,
            summary.went_out,
            summary.stock_out,
            summary.stalled
        );
    }
}

/// What many games add up to (kept small: memory does not grow with the number of games).
#[derive(Default)]
struct Summary {
    games: u64,
    /// Wins per side (a shared win counts for each winner).
    wins: Vec<u64>,
    totals: Vec<i64>,
    hands: u64,
    actions: u64,
    went_out: u64,
    stock_out: u64,
    stalled: u64,
}

impl Summary {
    fn add(&mut self, p: &Played) {
        use push_rummy::engine::game::HandEnd;
        let g = &p.game;
        if self.wins.len() < g.totals.len() {
            self.wins.resize(g.totals.len(), 0);
            self.totals.resize(g.totals.len(), 0);
        }
        self.games += 1;
        for &w in &g.winners {
            self.wins[usize::from(w)] += 1;
        }
        for (t, x) in self.totals.iter_mut().zip(&g.totals) {
            *t += x;
        }
        self.hands += g.results.len() as u64;
        self.actions += p.actions.len() as u64;
        for r in g.results.iter() {
            match r.end {
                HandEnd::WentOut(_) => self.went_out += 1,
                HandEnd::StockOut => self.stock_out += 1,
                HandEnd::Stalled => self.stalled += 1,
            }
        }
    }

    fn merge(&mut self, o: Summary) {
        if self.wins.len() < o.wins.len() {
            self.wins.resize(o.wins.len(), 0);
            self.totals.resize(o.totals.len(), 0);
        }
        self.games += o.games;
        for (a, b) in self.wins.iter_mut().zip(o.wins) {
            *a += b;
        }
        for (a, b) in self.totals.iter_mut().zip(o.totals) {
            *a += b;
        }
        self.hands += o.hands;
        self.actions += o.actions;
        self.went_out += o.went_out;
        self.stock_out += o.stock_out;
        self.stalled += o.stalled;
    }
}

/// One game for people: the table as each deal starts, what happens, the table just before the
/// play that ends each deal, and the result. The game is played again from `start` with the
/// recorded actions (the engine is deterministic), to see the table on the way.
fn print_game(look: &Look, start: Game, p: &Played) -> Result<(), Failure> {
    use push_rummy::help::term::table_view;
    use push_rummy::suite::transcript::state;
    let mut g = start;
    out_raw!(
        "{}",
        look.paint(&table_view(&state(&g), "the table as the deal starts"))
    );
    for (seat, a) in &p.actions {
        let before = g.clone();
        let events = g
            .apply(*seat, a)
            .map_err(|e| bad_input(format!("replaying the game: {e}")))?;
        if events.iter().any(|e| matches!(e, Event::HandEnded { .. })) {
            out_raw!(
                "{}",
                look.paint(&table_view(
                    &state(&before),
                    "the table before the last play"
                ))
            );
        }
        for e in &events {
            out!("{}", look.paint(&event_text(e)));
        }
        if events.iter().any(|e| matches!(e, Event::Dealt { .. })) {
            out_raw!(
                "{}",
                look.paint(&table_view(&state(&g), "the table as the deal starts"))
            );
        }
    }
    out!(
        "{}",
        look.paint(&format!(
            "totals {:?}; winner(s): {:?}",
            p.game.totals, p.game.winners
        ))
    );
    Ok(())
}

/// One event of a played game for people: the transcript's wording, deals and the end of the game
/// set off.
fn event_text(e: &Event) -> String {
    let text = push_rummy::suite::transcript::event_text(e);
    match e {
        Event::Dealt { .. } | Event::GameEnded { .. } => format!("— {text}"),
        _ => format!("  {text}"),
    }
}
