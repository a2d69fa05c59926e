//! A resolved raw rule set (every `extends` merged, every `--reading` applied) made into a
//! checked [`Rules`]: the required rules present, then each rule read into its field (readings,
//! players, decks and the large table, wilds, sets, runs and the rank line, rounds, push and
//! stock, scoring), then the semantic checks of `check.rs`. Reads only the decoded
//! [`RawRules`]; the rule names were checked when decoding (`spec.rs`).

use super::check;
use super::line::{LineMasks, build_line, from_line};
use super::spec::{self, Leaf, RawRules, RoundSpec};
use super::{
    Buying, Direction, DiscardRules, FirstPlayer, LargeTable, Round, Rules, Sides, WhenEmpty,
    WhenNoneAllowed, WildLimits, ban,
};
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
    let mut rules = rules_of(raw, &rounds_spec, &mut diags);
    if let Some(e) = raw.get("decks.by-players") {
        for t in &rules.deck_tiers {
            let (lo, hi) = rules.players;
            let bad = t.from > t.to
                || t.from < lo
                || t.to > hi
                || !(1..=16).contains(&t.standard_decks)
                || t.jokers > 64;
            if bad {
                diags.push(
                    Diagnostic::new(
                        &e.origin.file,
                        e.origin.pos,
                        "decks.by-players",
                        format!(
                            "the tier for {}-{} players ({} decks, {} jokers) is not a pack for this game, played by {}",
                            t.from,
                            t.to,
                            t.standard_decks,
                            t.jokers,
                            if lo == hi { lo.to_string() } else { format!("{lo} to {hi}") }
                        ),
                    )
                    .with_hint("name only player counts of `players.count`, with 1 to 16 decks and at most 64 jokers"),
                );
            }
        }
    }
    if let Some(e) = raw.get("stock.rebuilds")
        && rules.when_empty == WhenEmpty::EndHand
    {
        diags.push(
            Diagnostic::new(
                &e.origin.file,
                e.origin.pos,
                "stock.rebuilds",
                "`stock.rebuilds` limits rebuilding the stock, which `stock.when-empty: end-hand` never does",
            )
            .with_hint("set `stock.when-empty: reshuffle-discards`, or leave `stock.rebuilds` out"),
        );
    }
    rules.discard_rules = discard_rules_of(raw, &rules, &mut diags);
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
    let stated_points = stated_points(raw);
    let points = points_of(raw, &readings, stated_points);
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
        deck_tiers: match raw.get("decks.by-players").map(|e| &e.value) {
            Some(Leaf::DeckTiers(t)) => t.clone(),
            _ => Vec::new(),
        },
        twos_wild: flag(raw, "wilds.twos"),
        wild_limits: WildLimits {
            max: raw
                .get("wilds.max-per-meld")
                .map(|_| int(raw, "wilds.max-per-meld") as u8),
            not_outnumbering: raw.get("wilds.may-outnumber-naturals").is_some()
                && !flag(raw, "wilds.may-outnumber-naturals"),
            min_naturals: int(raw, "wilds.min-naturals") as u8,
            apart_in_runs: raw.get("wilds.side-by-side-in-runs").is_some()
                && !flag(raw, "wilds.side-by-side-in-runs"),
        },
        wilds_move: flag(raw, "wilds.may-move"),
        set_min: int(raw, "sets.min-size") as u8,
        run_min: int(raw, "runs.min-length") as u8,
        two_in_sequence,
        wrap_around,
        rounds: rounds_spec
            .iter()
            .map(|r| Round {
                deal: r.deal,
                contract: r.contract.clone(),
                all_at_once: r.all_at_once,
            })
            .collect(),
        contract_pooled: choice(raw, "contract.check") == "pooled",
        push_stock_cards: int(raw, "push.stock-cards") as u8,
        push_to: if choice(raw, "push.to") == "right" {
            Direction::Right
        } else {
            Direction::Left
        },
        discard_wilds: choice(raw, "discard.wilds") != "forbidden",
        discard_rules: None,
        first_player: raw
            .get("players.first")
            .map(|_| match choice(raw, "players.first") {
                "dealer-right" => FirstPlayer::DealerRight,
                "previous-winner" => FirstPlayer::PreviousWinner,
                "random" => FirstPlayer::Random,
                _ => FirstPlayer::DealerLeft,
            }),
        no_going_out_on_contract_turn: flag(raw, "going-out.not-on-contract-turn"),
        when_empty: if choice(raw, "stock.when-empty") == "reshuffle-discards" {
            WhenEmpty::ReshuffleDiscards
        } else {
            WhenEmpty::EndHand
        },
        stall_limit: match raw.get("stock.stall-limit").map(|e| &e.value) {
            Some(Leaf::Int(n)) => *n as u32,
            _ => super::STALL_BACKSTOP,
        },
        max_rebuilds: raw
            .get("stock.rebuilds")
            .map(|_| int(raw, "stock.rebuilds") as u16),
        buying: buying_of(raw),
        no_push: raw.get("push.allowed").is_some() && !flag(raw, "push.allowed"),
        points,
        stated_points,
        sides: sides_of(raw),
        going_out_bonus: int(raw, "scoring.going-out-bonus") as u16,
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

/// `discard.bans` and `discard.when-none-allowed`, where either is stated (`None` otherwise:
/// the readings decide, the engine's plain path). Problems go to `diags`: a name that is no ban
/// (rules given as a listing), `taken-card` beside `taken-kind`, and a relaxation that lifts a
/// ban not in force.
fn discard_rules_of(
    raw: &RawRules,
    rules: &Rules,
    diags: &mut Vec<Diagnostic>,
) -> Option<DiscardRules> {
    let bans_entry = raw.get("discard.bans");
    let when_entry = raw.get("discard.when-none-allowed");
    if bans_entry.is_none() && when_entry.is_none() {
        return None;
    }
    let problem = |e: &spec::Entry, path: &str, msg: String, hint: &str| {
        Diagnostic::new(&e.origin.file, e.origin.pos, path, msg).with_hint(hint.to_string())
    };
    let names_of = |e: &spec::Entry, path: &str, names: &[String], diags: &mut Vec<Diagnostic>| {
        let mut bits = 0u8;
        for n in names {
            match ban::of(n) {
                0 => diags.push(problem(
                    e,
                    path,
                    format!("`{n}` is not a discard ban"),
                    &format!("the bans are {}", spec::DISCARD_BANS.join(", ")),
                )),
                b => bits |= b,
            }
        }
        bits
    };
    let bans = bans_entry.map(|e| match &e.value {
        Leaf::List(names) => {
            let bits = names_of(e, "discard.bans", names, diags);
            if bits & ban::TAKEN_CARD != 0 && bits & ban::TAKEN_KIND != 0 {
                diags.push(problem(
                    e,
                    "discard.bans",
                    "`taken-kind` already bans the taken card itself".into(),
                    "keep one: taken-card (that very card) or taken-kind (every card of its kind)",
                ));
            }
            bits
        }
        _ => 0,
    });
    let mut out = DiscardRules {
        bans,
        when_none: None,
    };
    if let Some(e) = when_entry {
        out.when_none = Some(match &e.value {
            Leaf::Choice(s) if s == "draw-until-allowed" => WhenNoneAllowed::DrawUntilAllowed,
            Leaf::Relax(names) => {
                let path = "discard.when-none-allowed.relax";
                let mut in_force = Rules {
                    discard_rules: Some(out.clone()),
                    ..rules.clone()
                }
                .discard_bans();
                let mut steps = Vec::new();
                let mut lifted = 0u8;
                for n in names {
                    let b = names_of(e, path, std::slice::from_ref(n), diags);
                    if b != 0 && in_force & b == 0 {
                        diags.push(problem(
                            e,
                            path,
                            format!("`relax` lifts `{n}`, which is not a ban in force"),
                            "ban it (`discard.bans`, or `discard.wilds: forbidden` for wilds), or leave it out of `relax`",
                        ));
                    }
                    in_force &= !b;
                    lifted |= b;
                    steps.push(lifted);
                }
                WhenNoneAllowed::Relax(steps)
            }
            _ => WhenNoneAllowed::NoDiscard,
        });
    }
    Some(out)
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

/// The points of each rank left in a hand (index: rank number; 0 the joker): from
/// `scoring.points`, the aces' and the twos' from their readings where the rules do not state
/// them ([`ace_two_points`]).
fn points_of(raw: &RawRules, readings: &Readings, stated: [Option<u16>; 2]) -> [u16; 14] {
    let mut points = [0u16; 14];
    points[0] = int(raw, "scoring.points.JK") as u16;
    for (i, key) in ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
        .iter()
        .enumerate()
    {
        points[i + 3] = int(raw, &format!("scoring.points.{key}")) as u16;
    }
    [points[1], points[2]] = ace_two_points(readings, stated);
    points
}

/// The points of an ace and of a two: the stated `scoring.points.A` and `scoring.points.2`
/// where given (they override the readings), else the readings ace-penalty-value and
/// two-penalty-value.
pub(super) fn ace_two_points(readings: &Readings, stated: [Option<u16>; 2]) -> [u16; 2] {
    let ace = match readings.ace_penalty_value {
        reading::AcePenaltyValue::V15 => 15,
    };
    let two = match readings.two_penalty_value {
        reading::TwoPenaltyValue::V20 => 20,
        reading::TwoPenaltyValue::V15 => 15,
    };
    [stated[0].unwrap_or(ace), stated[1].unwrap_or(two)]
}

/// The stated points of aces and twos (`scoring.points.A`, `scoring.points.2`), where given.
fn stated_points(raw: &RawRules) -> [Option<u16>; 2] {
    ["scoring.points.A", "scoring.points.2"].map(|p| raw.get(p).map(|_| int(raw, p) as u16))
}

/// Who scores together, where the rules state it (`scoring.sides`).
fn sides_of(raw: &RawRules) -> Option<Sides> {
    match choice(raw, "scoring.sides") {
        "partnerships" => Some(Sides::Partnerships),
        "individual" => Some(Sides::Individual),
        _ => None,
    }
}
