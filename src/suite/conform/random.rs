//! Differential fuzzing, `conform --random N`: games played by the built-in players (greedy at
//! even seats, random at odd ones) on the reference, each action sent to the implementation and
//! its result and state compared (`compare.rs`). On its turn to play a seat also tries a few
//! near-melds the reference refuses ([`probes`]), to see whether the implementation refuses them
//! too. The first divergence is shrunk to a scenario file (`shrink.rs`) and written out.

use super::Options;
use super::compare::{Stop, check_result, check_state, exchange, hello};
use super::implementation::{ImplSpec, Implementation};
use super::report::Divergence;
use super::shrink::shrink;
use crate::base::card::{Card, Counts};
use crate::base::rng::Rng;
use crate::engine::bots::{self, Bot};
use crate::engine::game::{Action, Game, MeldSpec, Reason, Stage};
use crate::rules::disputes::DisputeId;
use crate::rules::spec;
use crate::rules::{Loaded, Rules};
use crate::suite::protocol;
use crate::suite::scenario::{self, Scenario};
use crate::suite::transcript::{self, ResultRecord};
use serde::Serialize;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::Arc;

/// What `--random` found.
#[derive(Clone, Debug, Serialize)]
pub struct FuzzReport {
    pub games: u64,
    pub compared_games: u64,
    pub skipped_games: Vec<(u64, String)>,
    pub errored_games: Vec<(u64, String)>,
    pub actions: u64,
    /// The first divergence, shrunk, and where its scenario was written.
    pub found: Option<FuzzFinding>,
}

/// A divergence found by a random game, and the scenario it was shrunk to.
#[derive(Clone, Debug, Serialize)]
pub struct FuzzFinding {
    pub game: u64,
    pub seed: u64,
    /// The divergence in the random game (step = action number in the game, from 1).
    pub original: Divergence,
    /// The divergence of the shrunk scenario.
    pub shrunk: Divergence,
    pub actions: usize,
    pub file: PathBuf,
}

/// Options of `--random`.
#[derive(Clone, Debug)]
pub struct FuzzOptions {
    pub games: u64,
    pub seed: u64,
    /// The name or path the rules were given by (written into the scenario).
    pub rules_name: String,
    /// Readings applied over the rules (written into the scenario).
    pub readings: Vec<(DisputeId, String)>,
    pub players: Option<u8>,
    pub out: PathBuf,
    /// Near-melds tried per turn at most.
    pub probes: usize,
}

/// Near-melds of a hand that the reference refuses as no meld (`invalid-meld`): three naturals of
/// one rank, and three cards of one suit in sequence on the circular rank line (a wild, declared,
/// may fill one place). Fuzzing plays them to see whether the implementation refuses them too.
fn probes(game: &Game, limit: usize) -> Vec<Action> {
    let seat = game.turn();
    let hand = &game.deal.hands[usize::from(seat)];
    let rules = &game.rules;
    let mut cands: Vec<Action> = Vec::new();
    set_probes(hand, rules, &mut cands);
    run_probes(hand, rules, &mut cands);
    cands
        .into_iter()
        .filter(|a| {
            let mut g = game.clone();
            matches!(g.apply(seat, a), Err(e) if e.code == Reason::InvalidMeld)
        })
        .take(limit)
        .collect()
}

/// Sets: three naturals of one rank (copies allowed).
fn set_probes(hand: &Counts, rules: &Rules, cands: &mut Vec<Action>) {
    use crate::base::card::Rank;
    for r in Rank::ALL {
        let cards: Vec<Card> = hand
            .iter()
            .filter(|(c, _)| !rules.is_wild(*c) && c.rank() == Some(r))
            .flat_map(|(c, k)| std::iter::repeat_n(c, usize::from(k)))
            .collect();
        if cards.len() >= 3 {
            for i in 0..cards.len() {
                for j in i + 1..cards.len() {
                    for k in j + 1..cards.len() {
                        cands.push(Action::Meld(vec![MeldSpec {
                            cards: vec![cards[i], cards[j], cards[k]],
                            kind: None,
                            declared: Vec::new(),
                        }]));
                    }
                }
            }
        }
    }
}

/// Runs: three places in a row on the circular line, each filled by the card itself or by a
/// wild of the hand declared as it (at most one wild).
fn run_probes(hand: &Counts, rules: &Rules, cands: &mut Vec<Action>) {
    use crate::base::card::{Rank, Suit};
    use crate::oracle::meld::Target;
    let wild = hand.iter().map(|(c, _)| c).find(|c| rules.is_wild(*c));
    for s in Suit::ALL {
        for start in 0..13u8 {
            let targets: Vec<Card> = (0..3)
                .filter_map(|k| Rank::from_number((start + k) % 13 + 1))
                .map(|r| Card::new(r, s))
                .collect();
            let mut cards = Vec::new();
            let mut declared = Vec::new();
            let mut used = Counts::new();
            let mut ok = true;
            for t in &targets {
                let have = hand.count(*t) > used.count(*t);
                if have && !rules.is_wild(*t) {
                    used.add(*t);
                    cards.push(*t);
                } else if have && declared.is_empty() {
                    // A two of the suit, in its own place: declare it as itself.
                    used.add(*t);
                    cards.push(*t);
                    declared.push((*t, Target::Card(*t)));
                } else if let Some(w) = wild.filter(|w| hand.count(*w) > used.count(*w))
                    && declared.is_empty()
                {
                    used.add(w);
                    cards.push(w);
                    declared.push((w, Target::Card(*t)));
                } else {
                    ok = false;
                    break;
                }
            }
            if ok {
                cands.push(Action::Meld(vec![MeldSpec {
                    cards,
                    kind: Some(spec::MeldKind::Run),
                    declared,
                }]));
            }
        }
    }
}

/// Plays `opts.games` random games with the built-in players against the implementation; on
/// the first divergence, shrinks it to a scenario and writes it to `opts.out`.
///
/// # Errors
/// The implementation cannot be started at all, or the scenario cannot be written.
pub fn fuzz(
    loaded: &Loaded,
    imp: &ImplSpec,
    opts: &FuzzOptions,
    run: &Options,
) -> Result<FuzzReport, String> {
    let mut report = FuzzReport {
        games: opts.games,
        compared_games: 0,
        skipped_games: Vec::new(),
        errored_games: Vec::new(),
        actions: 0,
        found: None,
    };
    let players = opts.players.unwrap_or(loaded.rules.players.0);
    let rules = Arc::new(loaded.rules.clone());
    for i in 0..opts.games {
        let seed = opts.seed.wrapping_add(i);
        let game = Game::new(Arc::clone(&rules), players, 0, seed, Vec::new()).map_err(|e| e.0)?;
        let mut instance = imp.start(run.timeout)?;
        let outcome = fuzz_game(
            loaded,
            game,
            seed,
            instance.as_mut(),
            opts,
            &mut report.actions,
        );
        instance.close();
        match outcome {
            Ok(()) => report.compared_games += 1,
            Err(FuzzStop::Skipped(r)) => report.skipped_games.push((i, r)),
            Err(FuzzStop::Errored(e)) => report.errored_games.push((i, e)),
            Err(FuzzStop::Diverged {
                before,
                seat,
                action,
                divergence,
                step,
            }) => {
                let shrunk = shrink(loaded, &before, seat, &action, imp, opts, run, seed, i);
                let (text, scen_div) = match shrunk {
                    Some(x) => x,
                    None => {
                        report.errored_games.push((
                            i,
                            format!(
                                "diverged at action {step} ({divergence}), but no scenario from the position before it reproduces the divergence"
                            ),
                        ));
                        continue;
                    }
                };
                let file = write_scenario(opts, seed, step, &text)?;
                report.found = Some(FuzzFinding {
                    game: i,
                    seed,
                    original: *divergence,
                    actions: 1,
                    shrunk: scen_div,
                    file,
                });
                return Ok(report);
            }
        }
    }
    Ok(report)
}

/// Writes the shrunk scenario of the divergence at action `step` of the game of `seed` into
/// `opts.out`, and says where.
fn write_scenario(
    opts: &FuzzOptions,
    seed: u64,
    step: usize,
    text: &str,
) -> Result<PathBuf, String> {
    std::fs::create_dir_all(&opts.out).map_err(|e| format!("{}: {e}", opts.out.display()))?;
    let file = opts
        .out
        .join(format!("fuzz-seed-{seed}-action-{step}.yaml"));
    std::fs::write(&file, text).map_err(|e| format!("{}: {e}", file.display()))?;
    Ok(file)
}

/// Why a random game stopped early: as a scenario's [`Stop`], with the position before the
/// action that diverged, for shrinking.
enum FuzzStop {
    Skipped(String),
    Errored(String),
    Diverged {
        before: Box<Game>,
        seat: u8,
        action: Action,
        divergence: Box<Divergence>,
        step: usize,
    },
}

/// A stop before any action was compared (a divergence cannot come from `hello`, `start` or
/// `apply` itself).
fn stop_of_game(e: Stop) -> FuzzStop {
    match e {
        Stop::Skipped(r) => FuzzStop::Skipped(r),
        Stop::Errored(e) => FuzzStop::Errored(e),
        Stop::Diverged(_) => FuzzStop::Errored("unexpected".into()),
    }
}

/// One random game from `game`: each seat's probes, then its player's choice, each action
/// compared (at most 20,000 actions).
fn fuzz_game(
    loaded: &Loaded,
    mut game: Game,
    seed: u64,
    imp: &mut dyn Implementation,
    opts: &FuzzOptions,
    actions: &mut u64,
) -> Result<(), FuzzStop> {
    hello(imp).map_err(stop_of_game)?;
    exchange(imp, &protocol::start_message(loaded, &game), &["ok"]).map_err(stop_of_game)?;
    let bots_by_seat = [Bot::Greedy, Bot::Random];
    let mut rng = Rng::new(seed ^ 0x5EED);
    let mut step = 0usize;
    let bound = 20_000;
    while !game.is_over() && step < bound {
        let seat = game.turn();
        let mut plays: Vec<Action> = Vec::new();
        if game.deal.stage == Stage::Play {
            plays.extend(probes(&game, opts.probes));
        }
        let bot = bots_by_seat[usize::from(seat) % bots_by_seat.len()];
        let chosen = bots::choose(bot, &game, &mut rng);
        plays.push(chosen);
        for a in plays {
            step += 1;
            *actions += 1;
            play_and_compare(loaded, &mut game, seat, &a, step, imp)?;
        }
    }
    Ok(())
}

/// Action `step` of a random game, `a` by `seat`, on the reference and on the implementation:
/// the result and the state after it compared.
fn play_and_compare(
    loaded: &Loaded,
    game: &mut Game,
    seat: u8,
    a: &Action,
    step: usize,
    imp: &mut dyn Implementation,
) -> Result<(), FuzzStop> {
    let before = game.clone();
    let result = apply_on_reference(game, seat, a);
    let diverged = |d: Stop| match d {
        Stop::Diverged(divergence) => FuzzStop::Diverged {
            before: Box::new(before.clone()),
            seat,
            action: a.clone(),
            divergence,
            step,
        },
        other => stop_of_game(other),
    };
    let reply = exchange(
        imp,
        &json!({"type": "apply", "seat": seat, "action": a.to_string()}),
        &["ok", "rejected"],
    )
    .map_err(stop_of_game)?;
    let dummy = fuzz_scenario_stub(loaded, &before);
    check_result(&result, &reply, step, seat, a, &dummy, &[]).map_err(diverged)?;
    let want = serde_json::to_value(transcript::state(game)).unwrap_or(Value::Null);
    check_state(imp, &want, step, Some(seat), Some(a), &dummy, &[]).map_err(diverged)?;
    Ok(())
}

/// The reference's result of `a`, applied to `game`, as the transcript records it.
fn apply_on_reference(game: &mut Game, seat: u8, a: &Action) -> ResultRecord {
    match game.apply(seat, a) {
        Ok(ev) => ResultRecord {
            ok: true,
            events: ev.iter().map(transcript::event_json).collect(),
            reason: None,
            message: None,
            events_text: Vec::new(),
        },
        Err(e) => ResultRecord {
            ok: false,
            events: Vec::new(),
            reason: Some(e.code.code().into()),
            message: Some(e.message),
            events_text: Vec::new(),
        },
    }
}

/// A scenario around a game, for naming rules in a divergence (no steps, nothing exercised).
pub(super) fn fuzz_scenario_stub(loaded: &Loaded, game: &Game) -> Scenario {
    Scenario {
        file: "(random game)".into(),
        title: String::new(),
        description: None,
        rules: loaded.clone(),
        game: game.clone(),
        steps: Vec::new(),
        exercises: scenario::Exercises::default(),
    }
}

/// Seeds for a readable list of who plays: the players the fuzzer uses.
pub const FUZZ_BOTS: &str = "greedy at even seats, random at odd seats";
