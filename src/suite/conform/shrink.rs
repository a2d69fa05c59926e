//! How `conform --random` shrinks a divergence into a scenario file. The random game is cut at the
//! first action where the implementation diverged: the position before it becomes a scenario's
//! position (`cards:`), with that one action as its only step and the reference's verdict as the
//! expectation. Then, while the implementation still diverges on the scenario (run like any
//! scenario of the suite, `suite.rs`), the position is cut down in this order: the stock to the
//! fewest top cards, the discard pile to the fewest top cards, the table melds one by one, the
//! cards of each hand one by one (what is cut goes to the rest of the stock). What is left is
//! written out (`random.rs`) for a person to read and move into the suite.
//!
//! The scenario text is written here, by hand, in the scenario format (`conformance/README.md`);
//! it is read back by `scenario::load_text` before it is run, so a text the reader refuses is
//! never the answer.

use super::Options;
use super::implementation::ImplSpec;
use super::random::{FuzzOptions, fuzz_scenario_stub};
use super::report::{Divergence, Verdict};
use super::rules_involved::rules_involved;
use super::suite::run_scenario;
use crate::base::card::{Card, Counts};
use crate::engine::game::{Action, Game, MeldSpec, Stage};
use crate::rules::Loaded;
use crate::rules::disputes::DisputeId;
use crate::rules::spec;
use crate::suite::protocol;
use crate::suite::scenario;
use std::path::Path;

/// Shrinks a divergence found at `action` by `seat` in the position `before`: a scenario from that
/// position with that one action, then with cards taken out of the hands, the stock, the
/// discard pile and the table (they go to the rest of the stock) while it still diverges with
/// a divergence that `same` accepts (of the same cause).
/// Returns the scenario text and its divergence.
#[allow(clippy::too_many_arguments)]
pub(super) fn shrink(
    loaded: &Loaded,
    before: &Game,
    seat: u8,
    action: &Action,
    imp: &ImplSpec,
    opts: &FuzzOptions,
    run: &Options,
    seed: u64,
    game_index: u64,
    same: &dyn Fn(&Divergence) -> bool,
) -> Option<(String, Divergence)> {
    let mut reference = before.clone();
    let expect = match reference.apply(seat, action) {
        Ok(_) => "ok".to_string(),
        Err(e) => format!("{{rejected: {}}}", e.code.code()),
    };
    let mut cut = Cut::of(before);
    let description = format!(
        "Random game {game_index} (seed {seed}) of `conform --random`, cut at the first divergence and shrunk. The expectation is the reference's verdict."
    );
    // First try: what the divergence is about, named without a scenario.
    let stub = fuzz_scenario_stub(loaded, before);
    let topic_names = rules_involved(&stub.rules, &[], Some(action), "", None);
    let attempt = |cut: &Cut| -> Option<(String, Divergence)> {
        let text = scenario_text(
            &opts.rules_name,
            &opts.readings,
            before,
            cut,
            seat,
            action,
            &expect,
            &topic_names,
            &description,
        );
        let s = scenario::load_text("(shrinking)", &text, Path::new("."), &[]).ok()?;
        match run_scenario(&s, imp, run).verdict {
            Verdict::Fail { divergence } | Verdict::Known { divergence, .. }
                if same(&divergence) =>
            {
                Some((text, divergence))
            }
            _ => None,
        }
    };
    let mut best = attempt(&cut)?;
    // Stock: the fewest top cards listed (the rest goes under them in pack order).
    fewest_top_cards(&mut cut, &mut best, &attempt, |c| &mut c.stock);
    // Discard pile: the fewest top cards.
    fewest_top_cards(&mut cut, &mut best, &attempt, |c| &mut c.discard);
    // Table melds, one by one.
    drop_one_by_one(&mut cut, &mut best, &attempt, |c| &mut c.table);
    // Hand cards, one by one.
    for s in 0..cut.hands.len() {
        drop_one_by_one(&mut cut, &mut best, &attempt, |c| &mut c.hands[s]);
    }
    Some(best)
}

/// A scenario that still diverges, and its divergence.
type Found = (String, Divergence);

/// Cuts the pile `pile` of `cut` to its fewest top cards with which `attempt` still diverges
/// (tried from none up; at most one cut is kept).
fn fewest_top_cards(
    cut: &mut Cut,
    best: &mut Found,
    attempt: &impl Fn(&Cut) -> Option<Found>,
    pile: impl Fn(&mut Cut) -> &mut Vec<Card>,
) {
    let n = pile(cut).len();
    for k in 0..n {
        let mut c = cut.clone();
        pile(&mut c).truncate(k);
        if let Some(b) = attempt(&c) {
            *cut = c;
            *best = b;
            break;
        }
    }
}

/// Takes the items of `items` out of `cut` one by one, keeping each cut with which `attempt`
/// still diverges.
fn drop_one_by_one<T: Clone>(
    cut: &mut Cut,
    best: &mut Found,
    attempt: &impl Fn(&Cut) -> Option<Found>,
    items: impl Fn(&mut Cut) -> &mut Vec<T>,
) {
    let mut i = 0;
    while i < items(cut).len() {
        let mut c = cut.clone();
        items(&mut c).remove(i);
        match attempt(&c) {
            Some(b) => {
                *cut = c;
                *best = b;
            }
            None => i += 1,
        }
    }
}

/// A position to write as a scenario: the game's deal, with the hands, piles and melds that
/// shrinking may cut down.
#[derive(Clone)]
struct Cut {
    hands: Vec<Vec<Card>>,
    stock: Vec<Card>,
    discard: Vec<Card>,
    table: Vec<(u8, MeldSpec)>,
}

impl Cut {
    /// The whole position of `before`: every hand, the stock and the discard pile top first,
    /// the table melds with their owners.
    fn of(before: &Game) -> Cut {
        let d = &before.deal;
        Cut {
            hands: d.hands.iter().map(Counts::cards).collect(),
            stock: d.stock.iter().rev().copied().collect(),
            discard: d.discard.iter().rev().copied().collect(),
            table: d
                .table
                .iter()
                .map(|m| (m.owner, protocol::table_meld_spec(&before.rules, m)))
                .collect(),
        }
    }
}

/// Cards as a scenario lists them: space-separated, `none` for no card.
fn yaml_cards(c: &[Card]) -> String {
    if c.is_empty() {
        "none".into()
    } else {
        c.iter().map(Card::to_string).collect::<Vec<_>>().join(" ")
    }
}

/// The scenario of the position `cut` of `g` with one step, `action` by `seat`, expecting
/// `expect`; it names `exercises` and says where it comes from in `description`.
#[allow(clippy::too_many_arguments)]
fn scenario_text(
    rules_name: &str,
    readings: &[(DisputeId, String)],
    g: &Game,
    cut: &Cut,
    seat: u8,
    action: &Action,
    expect: &str,
    exercises: &[String],
    description: &str,
) -> String {
    // The schema is written beside the file (`conform --out`); a file moved into a topic
    // directory of the suite points at `../schema/scenario.schema.json` instead.
    let mut y = String::from("# yaml-language-server: $schema=scenario.schema.json\n");
    push_header(&mut y, rules_name, readings, seat, action, description);
    push_table(&mut y, g);
    push_cards(&mut y, g, cut);
    y.push_str(&format!(
        "steps:\n  - {{seat: {seat}, do: {}, expect: {expect}}}\n",
        spec::quote(&action.to_string())
    ));
    push_exercises(&mut y, exercises);
    y
}

/// `title`, `description`, `rules` and, where there are any, `readings`.
fn push_header(
    y: &mut String,
    rules_name: &str,
    readings: &[(DisputeId, String)],
    seat: u8,
    action: &Action,
    description: &str,
) {
    y.push_str(&format!(
        "title: {}\n",
        spec::quote(&format!(
            "Found by differential fuzzing: seat {seat} plays `{action}`"
        ))
    ));
    y.push_str(&format!("description: {}\n", spec::quote(description)));
    y.push_str(&format!("rules: {}\n", spec::quote(rules_name)));
    if !readings.is_empty() {
        let r: Vec<String> = readings
            .iter()
            .map(|(d, r)| format!("{}: {}", d.id(), spec::quote(r)))
            .collect();
        y.push_str(&format!("readings: {{{}}}\n", r.join(", ")));
    }
}

/// `table`: players, dealer, the deal (from 1) and the scores of the deals before it.
fn push_table(y: &mut String, g: &Game) {
    let scores: Vec<String> = g
        .results
        .iter()
        .map(|r| {
            format!(
                "[{}]",
                r.points
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
        .collect();
    y.push_str(&format!(
        "table: {{players: {}, dealer: {}, round: {}, scores: [{}]}}\n",
        g.players,
        g.dealer,
        g.round + 1,
        scores.join(", ")
    ));
}

/// `cards`: the cut's hands, stock, discard pile and table, then who has met the contract, whose
/// turn it is, its stage and the card taken.
fn push_cards(y: &mut String, g: &Game, cut: &Cut) {
    y.push_str("cards:\n  hands:\n");
    for (s, h) in cut.hands.iter().enumerate() {
        if !h.is_empty() {
            y.push_str(&format!("    {s}: {}\n", yaml_cards(h)));
        }
    }
    y.push_str(&format!("  stock: {}\n", yaml_cards(&cut.stock)));
    y.push_str(&format!("  discard: {}\n", yaml_cards(&cut.discard)));
    y.push_str("  rest: stock\n");
    if !cut.table.is_empty() {
        y.push_str("  table:\n");
        for (o, m) in &cut.table {
            y.push_str(&format!(
                "    - {{{o}: {}}}\n",
                spec::quote(&protocol::meld_text(m))
            ));
        }
    }
    let met: Vec<String> = g
        .deal
        .progress
        .iter()
        .enumerate()
        .filter(|(_, p)| p.done)
        .map(|(s, _)| s.to_string())
        .collect();
    y.push_str(&format!("  contract-met: [{}]\n", met.join(", ")));
    y.push_str(&format!("  turn: {}\n", g.deal.turn));
    y.push_str(&format!(
        "  stage: {}\n",
        match g.deal.stage {
            Stage::Play => "play",
            Stage::Buy => "buy",
            Stage::Draw | Stage::Over => "draw",
        }
    ));
    if g.rules.buying.is_some() {
        let buys: Vec<String> = g.deal.buys.iter().map(ToString::to_string).collect();
        y.push_str(&format!("  buys: [{}]\n", buys.join(", ")));
        if let Some(w) = g.deal.window {
            y.push_str(&format!("  window: {w}\n"));
        }
    }
    if let Some(t) = g.deal.taken {
        y.push_str(&format!("  taken: {t}\n"));
    }
}

/// `exercises`: rule paths (and bare dispute ids) under `rules`, `id=reading` under `disputes`.
fn push_exercises(y: &mut String, exercises: &[String]) {
    let (rules, disputes): (Vec<&String>, Vec<&String>) = exercises
        .iter()
        .partition(|e| e.contains('.') || !e.contains('='));
    let q = |v: Vec<&String>| {
        v.iter()
            .map(|s| spec::quote(s))
            .collect::<Vec<_>>()
            .join(", ")
    };
    y.push_str(&format!(
        "exercises:\n  rules: [{}]\n  disputes: [{}]\n",
        q(rules),
        q(disputes)
    ));
}
