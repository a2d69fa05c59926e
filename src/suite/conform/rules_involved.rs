//! Naming the rules a divergence is about, so that a failing implementation is told where to
//! look (`; rule: sets.max-size, set-duplicate-suits=…`): what the scenario says it exercises,
//! narrowed by what differs (a score, an event, the kind of action, what is special about a
//! meld's cards); a difference in points or totals always names the card values
//! (`scoring.points.*` and the readings about the values of twos and aces), never the rest of
//! what the scenario exercises; for a random game, which names nothing, the rule table's paths and the
//! readings in force on that topic.
//!
//! Only names are made here, as text: the rules themselves are read from `Loaded`.

use crate::base::card::Card;
use crate::engine::game::{Action, MeldSpec};
use crate::rules::Loaded;
use crate::rules::disputes::DisputeId;
use crate::rules::spec;
use crate::suite::scenario::Scenario;

/// Rule paths (prefixes) and dispute ids (prefixes) that a kind of difference is about.
fn topic(name: &str) -> &'static [&'static str] {
    match name {
        "push" => &[
            "push.",
            "pusher-draws",
            "push-with-one-stock-card",
            "push-card-visibility",
            "stock.",
        ],
        "drew" => &[
            "pusher-draws",
            "stock.when-empty",
            "stock.rebuilds",
            "discard.when-none-allowed",
            "discard.bans",
            "buying.",
            "push.allowed",
        ],
        "buy" => &["buying.", "stock."],
        "take" => &["stock.", "discard."],
        "set" => &[
            "sets.",
            "set-",
            "same-rank-sets",
            "natural-twos",
            "wild-in-set-represents",
            "wilds.",
        ],
        "run" => &[
            "runs.",
            "ace-",
            "run-suits",
            "natural-twos",
            "wilds.",
            "run-join-split",
        ],
        "meld" => &[
            "sets.",
            "runs.",
            "wilds.",
            "rounds",
            "set-",
            "same-rank-sets",
            "natural-twos",
            "ace-",
            "run-",
            "same-suit-runs-in-contract",
            "all-wild-melds",
            "wild-",
            "contract-",
            "going-out",
        ],
        "rescue" => &[
            "rescue-",
            "rescued-wild-fate",
            "frozen-two",
            "wild-",
            "wilds.",
        ],
        "discard" => &[
            "discard.",
            "discard-restrictions",
            "no-legal-discard",
            "going-out",
        ],
        // What a hand's points and the totals are made of: the card values, and the readings
        // that give the values of twos and aces.
        "values" => &["scoring.points.", "two-penalty-value", "ace-penalty-value"],
        "scoring" => &[
            "scoring.",
            "two-penalty-value",
            "ace-penalty-value",
            "stock-out",
            "ties",
            "six-ten-partnerships",
        ],
        "deal" => &[
            "rounds",
            "decks.",
            "players.",
            "upcard-wild",
            "bury-position",
            "six-ten-first-player",
            "capit-third-deck",
        ],
        _ => &[],
    }
}

/// What is special about the cards of a meld, as rules: a repeated suit in a set, a run through
/// K-A-2, a natural 2 in a run, more than four cards in a set, mixed suits.
fn meld_features(rules: &crate::rules::Rules, spec: &MeldSpec) -> Vec<&'static str> {
    let naturals: Vec<Card> = spec
        .cards
        .iter()
        .copied()
        .filter(|c| !rules.is_wild(*c))
        .collect();
    let mut out = Vec::new();
    let one_rank = naturals.windows(2).all(|w| w[0].rank() == w[1].rank());
    let one_suit = naturals.windows(2).all(|w| w[0].suit() == w[1].suit());
    if one_rank && spec.kind != Some(spec::MeldKind::Run) && !naturals.is_empty() {
        let mut suits: Vec<_> = naturals.iter().filter_map(|c| c.suit()).collect();
        let n = suits.len();
        suits.sort();
        suits.dedup();
        if suits.len() < n {
            out.push("set-duplicate-suits");
        }
        if spec.cards.len() > 4 {
            out.push("set-max-size");
        }
    }
    if one_suit && spec.kind != Some(spec::MeldKind::Set) {
        use crate::base::card::Rank;
        let has = |r: Rank| {
            spec.cards.iter().any(|c| c.rank() == Some(r))
                || spec.declared.iter().any(|(_, t)| t.rank() == Some(r))
        };
        if has(Rank::King) && has(Rank::Ace) && has(Rank::Two) {
            out.push("runs.wrap-around");
            out.push("ace-both-ends");
        }
    }
    if !one_rank && !one_suit {
        out.push("run-suits");
    }
    out
}

fn matches_prefix(item: &str, prefixes: &[&str]) -> bool {
    let name = item.split('=').next().unwrap_or(item);
    let name = name.strip_prefix("readings.").unwrap_or(name);
    prefixes.iter().any(|p| name.starts_with(p))
}

/// The rules involved in a difference: what the scenario exercises, narrowed to what the
/// difference is about when that leaves something; for a scenario that names nothing (a fuzzed
/// game), the rules the difference is about, with the readings in force.
pub(super) fn rules_involved(
    loaded: &Loaded,
    exercised: &[String],
    action: Option<&Action>,
    field: &str,
    event: Option<&str>,
) -> Vec<String> {
    let mut prefixes: Vec<&str> = Vec::new();
    // A difference in points or totals is decided by the card values, whatever else the scenario
    // is about (the discard that went out, the meld before it).
    let values = field.contains("totals") || field.contains("points");
    if values {
        prefixes.extend(topic("values"));
    } else if matches!(event, Some("hand-ended" | "game-ended")) {
        prefixes.extend(topic("scoring"));
    } else if let Some(e) = event {
        let t = match e {
            "drew" => "drew",
            "pushed" => "push",
            "bought" | "passed" => "buy",
            "dealt" | "upcard" | "upcard-buried" => "deal",
            "rescued" => "rescue",
            "discarded" | "turn-ended" => "discard",
            _ => "",
        };
        prefixes.extend(topic(t));
    }
    let mut features: Vec<&str> = Vec::new();
    if prefixes.is_empty() {
        match action {
            Some(Action::Push) => prefixes.extend(topic("push")),
            Some(Action::Buy | Action::Pass) => prefixes.extend(topic("buy")),
            Some(Action::TakeDiscard | Action::DrawStock) => prefixes.extend(topic("take")),
            Some(Action::Meld(specs)) => {
                for s in specs {
                    features.extend(meld_features(&loaded.rules, s));
                }
                prefixes.extend(topic("meld"));
            }
            Some(Action::LayOff { .. }) => {
                prefixes.extend(topic("meld"));
                prefixes.push("run-join-split");
            }
            Some(Action::Rescue { .. }) => prefixes.extend(topic("rescue")),
            Some(Action::Discard(_) | Action::EndTurn) => prefixes.extend(topic("discard")),
            None => {}
        }
    }
    // What is special about the cards decides first; then what the difference is about.
    for narrow in [&features[..], &prefixes[..]] {
        if narrow.is_empty() {
            continue;
        }
        let v: Vec<String> = exercised
            .iter()
            .filter(|e| matches_prefix(e, narrow))
            .cloned()
            .collect();
        if !v.is_empty() {
            return v;
        }
        // The scenario does not name it: name the rules themselves (small topics, and the card
        // values, only).
        if narrow.len() <= 4 || exercised.is_empty() || values {
            let v = concrete_names(loaded, narrow);
            if !v.is_empty() {
                return v;
            }
        }
    }
    exercised.to_vec()
}

/// Rule paths and `dispute=reading` names (readings in force) matching `prefixes`.
fn concrete_names(loaded: &Loaded, prefixes: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for d in spec::rule_defs() {
        if spec::META.contains(&d.path.as_str()) || d.path.starts_with("readings.") {
            continue;
        }
        if loaded.raw.get(&d.path).is_some() && matches_prefix(&d.path, prefixes) {
            out.push(d.path.clone());
        }
    }
    // A reading that a stated rule overrides decides nothing: the stated rule, named above,
    // is what the divergence is about.
    for id in DisputeId::ALL {
        if matches_prefix(id.id(), prefixes)
            && loaded.rules.overriding(id).is_none()
            && let Some(r) = reading_in_force(loaded, id)
        {
            out.push(format!("{}={r}", id.id()));
        }
    }
    out
}

/// The reading of dispute `id` in force under `loaded`, by name.
pub(super) fn reading_in_force(loaded: &Loaded, id: DisputeId) -> Option<String> {
    match &loaded.raw.get(&format!("readings.{}", id.id()))?.value {
        spec::Leaf::Choice(s) | spec::Leaf::Text(s) => Some(s.clone()),
        _ => None,
    }
}

/// What a scenario exercises: its rule paths, and its dispute readings as `id=reading` (a bare
/// id in `exercises` counts for the reading in force).
pub(super) fn exercised_names(s: &Scenario) -> (Vec<String>, Vec<String>) {
    let rules = s.exercises.rules.clone();
    let readings = s
        .exercises
        .disputes
        .iter()
        .map(|(d, r)| {
            let r = r
                .clone()
                .or_else(|| reading_in_force(&s.rules, *d))
                .unwrap_or_default();
            format!("{}={r}", d.id())
        })
        .collect();
    (rules, readings)
}
