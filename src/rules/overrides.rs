//! Optional rules that, when a rule set states them, decide what a dispute's reading decides
//! otherwise: the one table of "rule path X, when stated, overrides dispute D".
//!
//! A rule listed here is never required: the built-in games leave it out, so the dispute's
//! reading (what the sources say) decides; a rule set that states it (itself or through what it
//! extends) gives its own value, and the reading, still named in `readings`, is then *overridden*:
//! it changes nothing in that rule set. `rules show` marks such a reading, `disputes show` says
//! which rule sets state their own value instead of using a reading, and `explain` names the
//! rule beside the dispute. A rule that overrides a dispute is added here (one line), read in
//! `compile` into a field that is `None` where it is absent, and named in
//! [`crate::rules::Rules::states`]; [`crate::rules::Rules::overriding`] answers for a checked rule set,
//! [`stated_overrides`] for a raw one.

use crate::rules::disputes::DisputeId;
use crate::rules::spec::RawRules;

/// Every rule that overrides a dispute when stated: (rule path, dispute). A dispute may be
/// overridden by more than one rule; a rule overrides one dispute.
pub const OVERRIDES: &[(&str, DisputeId)] = &[
    ("decks.large-table.from-players", DisputeId::CapitThirdDeck),
    ("players.first", DisputeId::SixTenFirstPlayer),
    ("discard.bans", DisputeId::DiscardRestrictions),
    ("discard.when-none-allowed", DisputeId::NoLegalDiscard),
    ("scoring.points.A", DisputeId::AcePenaltyValue),
    ("scoring.points.2", DisputeId::TwoPenaltyValue),
    ("scoring.sides", DisputeId::SixTenPartnerships),
];

/// The dispute that `path` overrides when stated, if any.
pub fn overridden_by(path: &str) -> Option<DisputeId> {
    OVERRIDES.iter().find(|(p, _)| *p == path).map(|(_, d)| *d)
}

/// The rules that override `dispute` when stated.
pub fn overriding(dispute: DisputeId) -> impl Iterator<Item = &'static str> {
    OVERRIDES
        .iter()
        .filter(move |(_, d)| *d == dispute)
        .map(|(p, _)| *p)
}

/// The rules of `raw` that override `dispute` (stated there, itself or through `extends`), each
/// as `PATH: VALUE` (`scoring.points.2: 25`).
pub fn stated_overrides(raw: &RawRules, dispute: DisputeId) -> Vec<String> {
    overriding(dispute)
        .filter_map(|p| raw.get(p).map(|e| format!("{p}: {}", e.value.text())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::spec::rule_def;

    #[test]
    fn every_override_is_an_optional_rule_listed_once() {
        for (i, (path, _)) in OVERRIDES.iter().enumerate() {
            let def = rule_def(path).unwrap_or_else(|| panic!("{path} is no rule"));
            assert!(
                !def.required,
                "{path} must be optional: its absence lets the reading decide"
            );
            assert_eq!(
                OVERRIDES.iter().position(|(p, _)| p == path),
                Some(i),
                "{path} is listed twice"
            );
        }
    }

    /// `Rules::states` reads every rule of the table from its field: a house file stating them
    /// all states each, Push none.
    #[test]
    fn states_answers_every_override() {
        let text = "extends: push\ngame: all-stated\nplayers: {first: random}\ndecks: {large-table: {from-players: 5, standard-decks: 1, jokers: 2}}\ndiscard: {bans: [wilds], when-none-allowed: no-discard}\nscoring: {points: {A: 20, \"2\": 25}, sides: individual}\n";
        let house = crate::rules::load_text("all.yaml", text, std::path::Path::new("."))
            .unwrap_or_else(|e| panic!("{}", e.render()))
            .rules;
        let push = crate::rules::load("push", &[]).unwrap().rules;
        for (path, _) in OVERRIDES {
            assert!(house.states(path), "{path} stated");
            assert!(!push.states(path), "{path} not stated by push");
        }
    }
}
