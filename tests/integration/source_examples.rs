//! Every example meld of sources 001 and 003, under the default readings of its game.
//! Legal examples must be valid; illegal ones invalid with the reason the sources give.

use push_rummy::base::card::parse_cards;
use push_rummy::oracle::contract;
use push_rummy::oracle::meld::{self, Query};
use push_rummy::rules::load;
use push_rummy::rules::spec::MeldKind;

fn verdict(game: &str, cards: &str, kind: Option<MeldKind>) -> meld::Verdict {
    let rules = load(game, &[]).unwrap().rules;
    meld::interpret(
        &rules,
        &Query {
            cards: parse_cards(cards).unwrap(),
            kind,
            declared: vec![],
        },
    )
}

#[track_caller]
fn legal(game: &str, cards: &str, kind: MeldKind) {
    let v = verdict(game, cards, Some(kind));
    assert!(
        v.is_valid(),
        "{cards} should be a legal {} in {game}: {}",
        kind.name(),
        v.reason
    );
}

#[track_caller]
fn illegal(game: &str, cards: &str, reason_part: &str) {
    let v = verdict(game, cards, None);
    assert!(!v.is_valid(), "{cards} should be illegal in {game}");
    assert!(
        v.reason.contains(reason_part),
        "{cards}: reason `{}` lacks `{reason_part}`",
        v.reason
    );
}

#[test]
fn source_001_melds_section() {
    legal("push", "3D 3H 3S", MeldKind::Set);
    legal("push", "JD QD KD AD", MeldKind::Run);
}

#[test]
fn source_001_contract_examples() {
    // Hand 1: 4♥ 4♦ 4♠ + 7♣ 7♥ 7♥ — the second set repeats a suit.
    legal("push", "4H 4D 4S", MeldKind::Set);
    illegal("push", "7C 7H 7H", "a set may not repeat a suit: two 7♥");
    // Hand 2.
    legal("push", "5H 5C 5S", MeldKind::Set);
    legal("push", "8H 9H 10H JH", MeldKind::Run);
    // Hand 3.
    legal("push", "3C 4C 5C 6C", MeldKind::Run);
    // Hand 4: K♣ K♣ K♥ repeats a suit; the others are legal.
    illegal("push", "KC KC KH", "a set may not repeat a suit: two K♣");
    legal("push", "JK 9D 9S", MeldKind::Set);
    legal("push", "QH QD QC", MeldKind::Set);
    // Hand 5: the 2♥ is a natural 2 in A-2-3-4-5; 9♣ Joker 10♣ Joker Q♣ works as 8–Q or 9–K.
    legal("push", "AH 2H 3H 4H 5H", MeldKind::Run);
    let v = verdict("push", "9C JK 10C JK QC", None);
    assert_eq!(v.interpretations.len(), 2, "8–Q and 9–K");
}

#[test]
fn source_001_scenario_run_mixes_suits() {
    illegal(
        "push",
        "9H 10S JK QH",
        "a run needs one suit: 10♠ among hearts",
    );
    illegal("push", "5S 5D", "a set needs at least 3 cards");
}

#[test]
fn source_003_examples() {
    legal("push", "7S 7H 7D", MeldKind::Set);
    legal("push", "QS QH QD QC", MeldKind::Set);
    illegal("push", "QS QH QD QC QS", "a set holds at most 4 cards");
    legal("push", "3S 4S 5S 6S", MeldKind::Run);
    legal("push", "9D 10D JD", MeldKind::Run);
    legal("push", "JS QS KS AS", MeldKind::Run);
    legal("push", "AS 2S 3S 4S", MeldKind::Run);
    illegal("push", "KS AS 2S 3S", "do not fit one run");
    legal("push", "4S 5S 6S 7S 8S 9S 10S JS", MeldKind::Run);
    // 6-2-joker: a set of sixes, or a run in diamonds 4-5-6, 5-6-7 or 6-7-8.
    let v = verdict("push", "6D 2C JK", None);
    let sets = v
        .interpretations
        .iter()
        .filter(|i| i.kind == MeldKind::Set)
        .count();
    let runs: std::collections::BTreeSet<String> = v
        .interpretations
        .iter()
        .filter(|i| i.kind == MeldKind::Run)
        .map(|i| i.describe())
        .collect();
    assert_eq!(sets, 1);
    assert_eq!(
        runs.into_iter().collect::<Vec<_>>(),
        ["run 4♦–6♦", "run 5♦–7♦", "run 6♦–8♦"]
    );
}

#[test]
fn source_003_two_sets_of_eights_meet_the_first_contract() {
    let rules = load("push", &[]).unwrap().rules;
    let q = |s: &str| Query {
        cards: parse_cards(s).unwrap(),
        kind: None,
        declared: vec![],
    };
    let c = contract::check(
        &rules,
        &rules.rounds[0].contract,
        &[q("8S 8H 8D"), q("8S 8H 8D")],
    );
    assert!(c.satisfied, "{}", c.reason);
    let forbidden = load(
        "push",
        &[(
            push_rummy::rules::disputes::DisputeId::SameRankSets,
            "forbidden".into(),
        )],
    )
    .unwrap()
    .rules;
    let c = contract::check(
        &forbidden,
        &forbidden.rounds[0].contract,
        &[q("8S 8H 8D"), q("8S 8H 8D")],
    );
    assert!(!c.satisfied);
    // Two runs in the same suit, adjacent: allowed as two runs of four in deal 3.
    let c = contract::check(
        &rules,
        &rules.rounds[2].contract,
        &[q("4S 5S 6S 7S"), q("8S 9S 10S JS")],
    );
    assert!(c.satisfied, "{}", c.reason);
    // One run of eight is one run: it does not meet two runs of four.
    let c = contract::check(
        &rules,
        &rules.rounds[2].contract,
        &[q("4S 5S 6S 7S 8S 9S 10S JS")],
    );
    assert!(!c.satisfied);
}

#[test]
fn six_to_ten_ranks_ace_high_only_and_no_natural_twos() {
    legal("six-to-ten", "QS KS AS", MeldKind::Run);
    illegal("six-to-ten", "AS 3S 4S", "ace high only");
    legal("six-to-ten", "3S 4S 2H", MeldKind::Run);
}
