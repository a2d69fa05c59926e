//! A resolved raw rule set (every `extends` merged, every `--reading` applied) made into a
//! checked [`Rules`]: the required rules present, then each rule read into its field (readings,
//! players, decks and the large table, wilds, sets, runs and the rank line, rounds, push and
//! stock, scoring), then the semantic checks of `check.rs`. Reads only the decoded
//! [`RawRules`]; the rule names were checked when decoding (`spec.rs`).

use super::check;
use super::line::{LineMasks, build_line, from_line};
use super::spec::{self, Leaf, RawRules, RoundSpec};
use super::{Buying, Direction, LargeTable, Round, Rules, WhenEmpty};
use crate::base::diag::Diagnostic;
use crate::base::yaml::Pos;
use crate::rules::disputes::{DisputeId, Readings, reading};

fn int(raw: &RawRules, path: &str) -> i64 {
    match raw.get(path).map(|e| &e.value) {
        Some(Leaf::Int(n)) => *n,
        _ => 0,
    }
}

fn flag(raw: &RawRules, path: &str) -> bool {
    matches!(raw.get(path).map(|e| &e.value), Some(Leaf::Bool(true)))
}

fn choice<'a>(raw: &'a RawRules, path: &str) -> &'a str {
    match raw.get(path).map(|e| &e.value) {
        Some(Leaf::Choice(s)) => s.as_str(),
        _ => "",
    }
}

/// Checks a resolved raw rule set for completeness and meaning, and compiles it.
pub(super) fn compile(raw: &RawRules, top: &str) -> Result<Rules, Vec<Diagnostic>> {
    if let Some(d) = missing_rules(raw, top) {
        return Err(vec![d]);
    }
    let mut diags = Vec::new();
    let rounds_spec: Vec<RoundSpec> = match raw.get("rounds").map(|e| &e.value) {
        Some(Leaf::Rounds(r)) => r.clone(),
        _ => Vec::new(),
    };
    let rules = rules_of(raw, &rounds_spec, &mut diags);
    check::meaning(raw, top, &rules, &rounds_spec, &mut diags);
    if diags.is_empty() {
        Ok(rules)
    } else {
        Err(diags)
    }
}

/// The one problem of a rule set that leaves out required rules: which, with a hint that fits
/// how many are missing. `None` where every required rule is given.
fn missing_rules(raw: &RawRules, top: &str) -> Option<Diagnostic> {
    let missing: Vec<&str> = spec::rule_defs()
        .iter()
        .filter(|d| d.required && raw.get(&d.path).is_none())
        .map(|d| d.path.as_str())
        .collect();
    if missing.is_empty() {
        return None;
    }
    let hint = if missing.len() > 3 {
        "a standalone rules file gives every rule; a house file starts with `extends: push` and lists only what it changes"
    } else if missing.contains(&"game") {
        "every rules file names its own game (`game: our-house`): a house file's id is not inherited"
    } else {
        "give these rules, or inherit them with `extends:`"
    };
    Some(
        Diagnostic::new(
            top,
            Pos::default(),
            "",
            format!(
                "{} rule(s) are not set: {}",
                missing.len(),
                missing.join(", ")
            ),
        )
        .with_hint(hint),
    )
}

/// The rules read from a complete raw rule set; a large table that names no cards to add is a
/// problem added to `diags`.
fn rules_of(raw: &RawRules, rounds_spec: &[RoundSpec], diags: &mut Vec<Diagnostic>) -> Rules {
    let text = |path: &str| match raw.get(path).map(|e| &e.value) {
        Some(Leaf::Text(s)) => s.clone(),
        _ => String::new(),
    };
    let readings = readings_of(raw);
    let players = match raw.get("players.count").map(|e| &e.value) {
        Some(Leaf::Range(a, b)) => (*a, *b),
        _ => (4, 4),
    };
    let large_table = large_table_of(raw, diags);
    let points = points_of(raw, &readings);
    let two_in_sequence = flag(raw, "runs.two-in-sequence");
    let wrap_around = flag(raw, "runs.wrap-around");
    let ace_low = readings.ace_position == reading::AcePosition::HighOrLow;
    let line = build_line(two_in_sequence, wrap_around, ace_low);
    let LineMasks {
        rank_places,
        run_windows,
        run_reach,
        rank_neighbours,
        places_by_halves,
        placed_ranks,
    } = from_line(&line, wrap_around);
    Rules {
        game: text("game"),
        name: text("name"),
        players,
        standard_decks: int(raw, "decks.standard-decks") as u8,
        jokers: int(raw, "decks.jokers") as u8,
        large_table,
        twos_wild: flag(raw, "wilds.twos"),
        set_min: int(raw, "sets.min-size") as u8,
        run_min: int(raw, "runs.min-length") as u8,
        two_in_sequence,
        wrap_around,
        rounds: rounds_spec
            .iter()
            .map(|r| Round {
                deal: r.deal,
                contract: r.contract.clone(),
            })
            .collect(),
        push_stock_cards: int(raw, "push.stock-cards") as u8,
        push_to: if choice(raw, "push.to") == "right" {
            Direction::Right
        } else {
            Direction::Left
        },
        discard_wilds: choice(raw, "discard.wilds") != "forbidden",
        when_empty: if choice(raw, "stock.when-empty") == "reshuffle-discards" {
            WhenEmpty::ReshuffleDiscards
        } else {
            WhenEmpty::EndHand
        },
        stall_limit: int(raw, "stock.stall-limit") as u32,
        buying: buying_of(raw),
        points,
        readings,
        run_reach,
        rank_places,
        run_windows,
        rank_neighbours,
        places_by_halves,
        placed_ranks,
        line,
    }
}

/// Buying out of turn, where `buying.allowed` is true; each other rule of the section has its
/// default when absent (1 penalty card, unlimited buys, allowed when down).
fn buying_of(raw: &RawRules) -> Option<Buying> {
    if !flag(raw, "buying.allowed") {
        return None;
    }
    Some(Buying {
        penalty_cards: match raw.get("buying.penalty-cards") {
            Some(_) => int(raw, "buying.penalty-cards") as u8,
            None => 1,
        },
        per_hand: match raw.get("buying.per-hand").map(|e| &e.value) {
            Some(Leaf::Int(n)) => Some(*n as u8),
            _ => None,
        },
        when_down: choice(raw, "buying.when-down") != "forbidden",
    })
}

/// The reading of every dispute, as the raw rules name it.
fn readings_of(raw: &RawRules) -> Readings {
    let mut readings = Readings::first();
    for id in DisputeId::ALL {
        let name = choice(raw, &format!("readings.{}", id.id()));
        let ok = readings.set(id, name);
        debug_assert!(ok, "reading names are checked when decoding");
    }
    readings
}

/// The cards added at a large table, if any; `from-players` without the cards to add is a
/// problem added to `diags`.
fn large_table_of(raw: &RawRules, diags: &mut Vec<Diagnostic>) -> Option<LargeTable> {
    match (
        raw.get("decks.large-table.standard-decks"),
        raw.get("decks.large-table.jokers"),
    ) {
        (None, None) => {
            if let Some(e) = raw.get("decks.large-table.from-players") {
                diags.push(
                    Diagnostic::new(
                        &e.origin.file,
                        e.origin.pos,
                        "decks.large-table.from-players",
                        "`decks.large-table` names `from-players` but not the cards to add",
                    )
                    .with_hint("add `standard-decks` and `jokers`, e.g. 1 and 2"),
                );
            }
            None
        }
        _ => Some(LargeTable {
            from_players: raw
                .get("decks.large-table.from-players")
                .map(|_| int(raw, "decks.large-table.from-players") as u8),
            standard_decks: int(raw, "decks.large-table.standard-decks") as u8,
            jokers: int(raw, "decks.large-table.jokers") as u8,
        }),
    }
}

/// The points of each rank left in a hand (index: rank number; 0 the joker): the aces' and the
/// twos' from their readings, the others' from `scoring.points`.
fn points_of(raw: &RawRules, readings: &Readings) -> [u16; 14] {
    let mut points = [0u16; 14];
    points[0] = int(raw, "scoring.points.JK") as u16;
    for (i, key) in ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
        .iter()
        .enumerate()
    {
        points[i + 3] = int(raw, &format!("scoring.points.{key}")) as u16;
    }
    points[1] = match readings.ace_penalty_value {
        reading::AcePenaltyValue::V15 => 15,
    };
    points[2] = match readings.two_penalty_value {
        reading::TwoPenaltyValue::V20 => 20,
        reading::TwoPenaltyValue::V15 => 15,
    };
    points
}
