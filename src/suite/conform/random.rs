//! Differential fuzzing, `conform --random N`: games played by the built-in players (greedy at
//! even seats, random at odd ones) on the reference, each action sent to the implementation and
//! its result and state compared (`compare.rs`). On its turn to play a seat also tries a few
//! near-melds the reference refuses ([`probes`]), to see whether the implementation refuses them
//! too. Every game is played to its end or to its own first divergence; divergences are grouped
//! by cause ([`CauseKey`]) and each cause's first one is shrunk to a scenario file (`shrink.rs`)
//! and written out.

use super::compare::{Caps, Stop, at, check_result, check_state, exchange, hello, start_message};
use super::departures::Known;
use super::implementation::{ImplSpec, Implementation};
use super::report::Divergence;
use super::shrink::shrink;
use super::{ERRORED_IN_A_ROW, Options};
use crate::base::card::{Card, Counts};
use crate::base::rng::Rng;
use crate::engine::bots::{self, Bot};
use crate::engine::game::{Action, Game, MeldSpec, Reason, Stage};
use crate::rules::disputes::DisputeId;
use crate::rules::spec;
use crate::rules::{Loaded, Rules};
use crate::suite::scenario::{self, Scenario};
use crate::suite::transcript::{self, ResultRecord};
use serde::Serialize;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::Arc;

/// What `--random` found: every game played to its end or to its own first divergence, the
/// divergences grouped by cause.
#[derive(Clone, Debug, Serialize)]
pub struct FuzzReport {
    /// Games asked for.
    pub games: u64,
    /// Games played (fewer when the run stopped early).
    pub played: u64,
    /// Games compared to their end without a divergence.
    pub clean_games: u64,
    /// Games that diverged where no known departure matched.
    pub diverged_games: u64,
    /// Games whose divergence a known departure (`--departures`) matched.
    pub known_games: u64,
    pub skipped_games: Vec<(u64, String)>,
    pub errored_games: Vec<(u64, String)>,
    pub actions: u64,
    /// The divergences no known departure matched, grouped by cause, in the order first met.
    pub causes: Vec<Cause>,
    /// The divergences a known departure matched, grouped by cause (not shrunk).
    pub known_causes: Vec<Cause>,
    /// With `--departures`: the entries no game's divergence matched (`FILE:LINE (names)`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unmatched_departures: Option<Vec<String>>,
    /// The first divergence, shrunk (the first cause's), and where its scenario was written.
    pub found: Option<FuzzFinding>,
    /// Why the run stopped before the last game, if it did.
    pub stopped: Option<String>,
    /// What the implementation does not report, so was not compared (protocol 2).
    pub not_compared: Vec<String>,
}

impl FuzzReport {
    /// 0 every game played ended clean or at a known departure (skips allowed), 1 a divergence
    /// no departure matched, an errored game or a run stopped early.
    pub fn exit_code(&self) -> u8 {
        if self.causes.is_empty() && self.errored_games.is_empty() && self.stopped.is_none() {
            0
        } else {
            1
        }
    }
}

/// What makes two divergences the same cause: the rules involved, the field that differs (its
/// list indices left out: `events[1]` and `events[2]` are both `events`) and the reason code (the
/// reference's where it refused, else the implementation's).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct CauseKey {
    pub rules: Vec<String>,
    pub field: String,
    pub reason: Option<String>,
}

impl CauseKey {
    pub fn of(d: &Divergence) -> CauseKey {
        let mut field = String::new();
        let mut depth = 0;
        for c in d.field.chars() {
            match c {
                '[' => depth += 1,
                ']' => depth -= 1,
                _ if depth == 0 => field.push(c),
                _ => {}
            }
        }
        let code = |t: &str| {
            t.strip_prefix("rejected ")
                .and_then(|r| r.split_whitespace().next())
                .map(str::to_string)
        };
        let reason = if d.field == "result" {
            code(&d.reference).or_else(|| code(&d.implementation))
        } else {
            None
        };
        CauseKey {
            rules: d.rules.clone(),
            field,
            reason,
        }
    }
}

impl std::fmt::Display for CauseKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.field)?;
        if let Some(r) = &self.reason {
            write!(f, " ({r})")?;
        }
        if !self.rules.is_empty() {
            write!(f, "; rule: {}", self.rules.join(", "))?;
        }
        Ok(())
    }
}

/// One cause of divergence: how many games it ended, the first of them, and its first divergence
/// shrunk to a scenario.
#[derive(Clone, Debug, Serialize)]
pub struct Cause {
    #[serde(flatten)]
    pub key: CauseKey,
    /// Games whose first divergence has this cause.
    pub count: u64,
    pub first_game: u64,
    pub first_seed: u64,
    /// The first divergence shrunk, and its scenario file.
    pub finding: Option<FuzzFinding>,
    /// Why there is no scenario, where none reproduced the divergence.
    pub not_shrunk: Option<String>,
    /// The known departure that matched (a known cause is not shrunk): the first divergence
    /// itself, and the entry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub known: Option<KnownCause>,
}

impl Cause {
    /// A cause first seen in game `game` (seed `seed`), counted once, nothing found for it yet.
    fn first(key: CauseKey, game: u64, seed: u64) -> Cause {
        Cause {
            key,
            count: 1,
            first_game: game,
            first_seed: seed,
            finding: None,
            not_shrunk: None,
            known: None,
        }
    }
}

/// A known cause's first divergence, and the departure it matched.
#[derive(Clone, Debug, Serialize)]
pub struct KnownCause {
    pub divergence: Divergence,
    pub departure: Known,
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
    /// Stop at the first divergence (once shrunk) instead of playing every game.
    pub fail_fast: bool,
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

/// What is worth telling of a game as soon as it ends: a skip, an error, or a divergence of a
/// cause not met before (with its number, from 1).
pub enum GameNote<'a> {
    Skipped(&'a str),
    Errored(&'a str),
    NewCause(usize, &'a Cause),
    /// A divergence of a cause not met before that a known departure matched.
    NewKnownCause(usize, &'a Cause),
}

/// Plays `opts.games` random games with the built-in players against the implementation, each
/// to its end or to its own first divergence (handing `each` what is worth telling of a game as
/// it ends); groups the divergences by cause ([`CauseKey`]) and
/// shrinks the first divergence of each cause to a scenario written to `opts.out`. With
/// `opts.fail_fast` the run stops at the first divergence. Unless `run.keep_going`, it stops when
/// the implementation does not answer `hello` or [`ERRORED_IN_A_ROW`] games in a row errored.
///
/// # Errors
/// The rules cannot deal a game, or a scenario cannot be written.
pub fn fuzz(
    loaded: &Loaded,
    imp: &ImplSpec,
    opts: &FuzzOptions,
    run: &Options,
    each: &mut dyn FnMut(u64, GameNote),
) -> Result<FuzzReport, String> {
    let mut report = FuzzReport {
        games: opts.games,
        played: 0,
        clean_games: 0,
        diverged_games: 0,
        known_games: 0,
        skipped_games: Vec::new(),
        errored_games: Vec::new(),
        actions: 0,
        causes: Vec::new(),
        known_causes: Vec::new(),
        unmatched_departures: None,
        found: None,
        stopped: None,
        not_compared: Vec::new(),
    };
    let players = opts.players.unwrap_or(loaded.rules.players.0);
    let rules = Arc::new(loaded.rules.clone());
    let mut errored_in_a_row = 0;
    for i in 0..opts.games {
        let seed = opts.seed.wrapping_add(i);
        let game = Game::new(Arc::clone(&rules), players, 0, seed, Vec::new()).map_err(|e| e.0)?;
        report.played += 1;
        let (outcome, dead) = match imp.start(run.timeout) {
            Ok(mut instance) => {
                let mut not_compared = Vec::new();
                let outcome = fuzz_game(
                    loaded,
                    game,
                    seed,
                    instance.as_mut(),
                    opts,
                    &mut report.actions,
                    &mut not_compared,
                );
                for n in not_compared {
                    if !report.not_compared.contains(&n) {
                        report.not_compared.push(n);
                    }
                }
                instance.close();
                let dead = matches!(outcome, Err(FuzzStop::Dead(_)));
                (outcome, dead)
            }
            Err(e) => (Err(FuzzStop::Dead(e)), true),
        };
        errored_in_a_row = match &outcome {
            Err(FuzzStop::Errored(_) | FuzzStop::Dead(_)) => errored_in_a_row + 1,
            _ => 0,
        };
        match outcome {
            Ok(()) => report.clean_games += 1,
            Err(FuzzStop::Skipped(r)) => {
                each(i, GameNote::Skipped(&r));
                report.skipped_games.push((i, r));
            }
            Err(FuzzStop::Errored(e) | FuzzStop::Dead(e)) => {
                each(i, GameNote::Errored(&e));
                report.errored_games.push((i, e));
            }
            Err(FuzzStop::Diverged {
                before,
                seat,
                action,
                divergence,
                step,
            }) => {
                let key = CauseKey::of(&divergence);
                if let Some(k) = run.departures.as_ref().and_then(|k| k.known(&divergence)) {
                    report.known_games += 1;
                    match report.known_causes.iter_mut().find(|c| c.key == key) {
                        Some(c) => c.count += 1,
                        None => {
                            report.known_causes.push(Cause {
                                known: Some(KnownCause {
                                    divergence: *divergence,
                                    departure: k,
                                }),
                                ..Cause::first(key, i, seed)
                            });
                            if let Some(c) = report.known_causes.last() {
                                each(i, GameNote::NewKnownCause(report.known_causes.len(), c));
                            }
                        }
                    }
                    continue;
                }
                report.diverged_games += 1;
                if let Some(c) = report.causes.iter_mut().find(|c| c.key == key) {
                    c.count += 1;
                    continue;
                }
                // The shrunk scenario names its rules from its own `exercises`, which may word them
                // otherwise than the random game did: the field and the reason code keep it to
                // the same cause.
                let same = |d: &Divergence| {
                    let k = CauseKey::of(d);
                    (k.field.as_str(), &k.reason) == (key.field.as_str(), &key.reason)
                };
                let shrunk = shrink(
                    loaded, &before, seat, &action, imp, opts, run, seed, i, &same,
                );
                let mut cause = Cause::first(key, i, seed);
                match shrunk {
                    Some((text, scen_div)) => {
                        let file = write_scenario(opts, seed, step, &text)?;
                        cause.finding = Some(FuzzFinding {
                            game: i,
                            seed,
                            original: *divergence,
                            actions: 1,
                            shrunk: scen_div,
                            file,
                        });
                    }
                    None => {
                        cause.not_shrunk = Some(format!(
                            "diverged at action {step} ({divergence}), but no scenario from the position before it reproduces the divergence"
                        ));
                    }
                }
                if report.found.is_none() {
                    report.found.clone_from(&cause.finding);
                }
                report.causes.push(cause);
                if let Some(c) = report.causes.last() {
                    each(i, GameNote::NewCause(report.causes.len(), c));
                }
                if opts.fail_fast {
                    if i + 1 < opts.games {
                        report.stopped = Some(format!(
                            "stopped at the first divergence (--fail-fast); {} game(s) not played",
                            opts.games - i - 1
                        ));
                    }
                    unmatched_departures(&mut report, run);
                    return Ok(report);
                }
            }
        }
        let why = if dead {
            Some("the implementation does not answer `hello`".to_string())
        } else if errored_in_a_row >= ERRORED_IN_A_ROW {
            Some(format!("{ERRORED_IN_A_ROW} games in a row errored"))
        } else {
            None
        };
        if let Some(why) = why.filter(|_| !run.keep_going && i + 1 < opts.games) {
            report.stopped = Some(format!(
                "stopped early: {why}; {} game(s) not played (--keep-going plays them all)",
                opts.games - i - 1
            ));
            break;
        }
    }
    unmatched_departures(&mut report, run);
    Ok(report)
}

/// With known departures, the entries no game's divergence matched.
fn unmatched_departures(report: &mut FuzzReport, run: &Options) {
    if let Some(k) = &run.departures {
        let used: Vec<usize> = report
            .known_causes
            .iter()
            .filter_map(|c| c.known.as_ref().map(|k| k.departure.entry))
            .collect();
        report.unmatched_departures = Some(k.unmatched(&used));
    }
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
    /// Errored at `hello`, or the implementation could not be started.
    Dead(String),
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
        Stop::Dead(e) => FuzzStop::Dead(e),
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
    not_compared: &mut Vec<String>,
) -> Result<(), FuzzStop> {
    let caps = hello(imp).map_err(stop_of_game)?;
    *not_compared = caps.not_compared();
    exchange(imp, &start_message(loaded, &game, &caps), &["ok"])
        .map_err(at(|| "`start`".into()))
        .map_err(stop_of_game)?;
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
            play_and_compare(loaded, &mut game, seat, &a, step, imp, &caps)?;
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
    caps: &Caps,
) -> Result<(), FuzzStop> {
    let before = game.clone();
    let result = apply_on_reference(game, seat, a);
    let place = || format!("action {step} (seat {seat}: {a})");
    let diverged = |d: Stop| match at(place)(d) {
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
    .map_err(at(place))
    .map_err(stop_of_game)?;
    let dummy = fuzz_scenario_stub(loaded, &before);
    check_result(&result, &reply, step, seat, a, &dummy, &[], caps).map_err(diverged)?;
    if result.ok && !caps.rescue_wild && matches!(a, Action::Rescue { .. }) {
        return Err(FuzzStop::Skipped(format!(
            "compared up to action {step}, a rescue: the implementation picks the rescued wild itself"
        )));
    }
    let want = serde_json::to_value(transcript::state(game)).unwrap_or(Value::Null);
    check_state(imp, &want, step, Some(seat), Some(a), &dummy, &[], caps).map_err(diverged)?;
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
