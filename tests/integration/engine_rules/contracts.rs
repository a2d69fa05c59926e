//! Contracts (deal 1 of Push: two sets of 3): laid in one turn or piecemeal, their sizes, what may
//! follow on the contract turn, the contract first, sets of one rank.

use super::*;

fn contract_game(readings: &[(DisputeId, &str)], hand: &str) -> Game {
    let mut g = push(readings);
    rig(
        &mut g,
        Pos {
            hands: &["KS", hand, "9C", "AH"],
            discard: "4D",
            ..Pos::default()
        },
    );
    g
}

/// A meld candidate remembers the interpretations it found, and applying it filters them instead
/// of searching the cards again: it changes the game exactly as in a copy, which remembers
/// nothing, under each reading of how wilds are declared and what a wild in a set stands for.
#[test]
fn a_meld_candidate_applies_as_in_a_copy_that_remembers_nothing() {
    for declaration in ["when-ambiguous", "always", "never"] {
        for represents in ["rank-only", "exact-card"] {
            let readings = [
                (DisputeId::WildDeclaration, declaration),
                (DisputeId::WildInSetRepresents, represents),
            ];
            let mut g = contract_game(&readings, "7S 7H JK 9S 9D 2H 5C KC");
            let rules = Arc::clone(&g.rules);
            let a = g
                .meld_candidate(0, &mut |c, h| {
                    push_rummy::oracle::contract::laydown(&rules, c, h).map(std::rc::Rc::new)
                })
                .expect("two sets");
            let mut copy = g.clone();
            let ev = ok(&mut g, 1, a.clone());
            assert_eq!(ok(&mut copy, 1, a), ev, "{declaration}, {represents}");
            assert_eq!(g.deal, copy.deal, "{declaration}, {represents}");
            assert_eq!(g.deal.table.len(), 2);
        }
    }
}

#[test]
fn contract_in_one_turn__required_refuses_half_a_contract_and_takes_the_whole() {
    let mut g = contract_game(&[], "7S 7H 7D 9S 9H 9D KC");
    rejected(&mut g, 1, meld("7S 7H 7D"), Reason::ContractNotMet);
    let ev = ok(&mut g, 1, melds(&["7S 7H 7D", "9S 9H 9D"]));
    assert_eq!(
        ev,
        vec![
            Event::Melded {
                seat: 1,
                meld: 0,
                cards: cards("7S 7H 7D").into(),
                contract: true
            },
            Event::Melded {
                seat: 1,
                meld: 1,
                cards: cards("9S 9H 9D").into(),
                contract: true
            },
        ]
    );
    assert!(g.deal.progress[1].done);
    assert_hand(&g, 1, "KC");
    assert_eq!(g.deal.table.len(), 2);
    assert_eq!(g.deal.table[1].owner, 1);
}

#[test]
fn contract_in_one_turn__piecemeal_takes_one_meld_now_and_the_rest_on_a_later_turn() {
    let mut g = contract_game(
        &[(DisputeId::ContractInOneTurn, "piecemeal")],
        "7S 7H 7D 9S 9H 9D 7C KC",
    );
    let ev = ok(&mut g, 1, meld("7S 7H 7D"));
    assert_eq!(
        ev,
        vec![Event::Melded {
            seat: 1,
            meld: 0,
            cards: cards("7S 7H 7D").into(),
            contract: true
        }]
    );
    assert_eq!(
        g.deal.progress[1],
        Progress {
            done: false,
            filled: vec![true, false]
        }
    );
    // Until the last contract meld is down, nothing else: no lay-off, no meld outside the contract.
    rejected(&mut g, 1, lay_off(0, "7C"), Reason::ContractFirst);
    ok(&mut g, 1, discard("KC"));
    pass(&mut g, 2);
    pass(&mut g, 3);
    pass(&mut g, 0);
    ok(&mut g, 1, Action::TakeDiscard);
    let ev = ok(&mut g, 1, meld("9S 9H 9D"));
    assert!(
        matches!(
            &ev[0],
            Event::Melded {
                meld: 1,
                contract: true,
                ..
            }
        ),
        "{ev:?}"
    );
    assert!(g.deal.progress[1].done);
    ok(&mut g, 1, lay_off(0, "7C"));
}

#[test]
fn contract_sizes__minimum_accepts_a_longer_contract_meld() {
    let mut g = contract_game(&[], "7S 7H 7D 7C 9S 9H 9D KC");
    let ev = ok(&mut g, 1, melds(&["7S 7H 7D 7C", "9S 9H 9D"]));
    assert!(
        matches!(&ev[0], Event::Melded { contract: true, cards, .. } if cards.len() == 4),
        "{ev:?}"
    );
    assert!(g.deal.progress[1].done);
}

#[test]
fn contract_sizes__exact_refuses_a_longer_contract_meld() {
    let mut g = contract_game(
        &[(DisputeId::ContractSizes, "exact")],
        "7S 7H 7D 7C 9S 9H 9D KC",
    );
    rejected(
        &mut g,
        1,
        melds(&["7S 7H 7D 7C", "9S 9H 9D"]),
        Reason::ContractNotMet,
    );
    // Exactly three each goes down, and the fourth seven follows as a lay-off.
    ok(&mut g, 1, melds(&["7S 7H 7D", "9S 9H 9D"]));
    ok(&mut g, 1, lay_off(0, "7C"));
    assert_eq!(g.deal.table[0].cards, cards("7S 7H 7D 7C"));
}

const EXTRAS_HAND: &str = "7S 7H 7D 9S 9H 9D QS QH QD 7C KC";

#[test]
fn contract_turn_extras__allowed_lets_a_meld_and_a_lay_off_follow_on_the_contract_turn() {
    let mut g = contract_game(&[], EXTRAS_HAND);
    ok(&mut g, 1, melds(&["7S 7H 7D", "9S 9H 9D"]));
    let ev = ok(&mut g, 1, meld("QS QH QD"));
    assert_eq!(
        ev,
        vec![Event::Melded {
            seat: 1,
            meld: 2,
            cards: cards("QS QH QD").into(),
            contract: false
        }]
    );
    let ev = ok(&mut g, 1, lay_off(0, "7C"));
    assert_eq!(
        ev,
        vec![Event::LaidOff {
            seat: 1,
            meld: 0,
            cards: cards("7C").into(),
            joined: None
        }]
    );
    assert_hand(&g, 1, "KC");
}

#[test]
fn contract_turn_extras__allowed_takes_an_extra_meld_in_the_laydown_itself() {
    let mut g = contract_game(&[], EXTRAS_HAND);
    let ev = ok(&mut g, 1, melds(&["7S 7H 7D", "9S 9H 9D", "QS QH QD"]));
    let flags: Vec<bool> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Melded { contract, .. } => Some(*contract),
            _ => None,
        })
        .collect();
    assert_eq!(flags, vec![true, true, false]);
}

#[test]
fn contract_turn_extras__next_turn_makes_further_plays_wait_for_the_next_turn() {
    let mut g = contract_game(&[(DisputeId::ContractTurnExtras, "next-turn")], EXTRAS_HAND);
    rejected(
        &mut g,
        1,
        melds(&["7S 7H 7D", "9S 9H 9D", "QS QH QD"]),
        Reason::NextTurnOnly,
    );
    ok(&mut g, 1, melds(&["7S 7H 7D", "9S 9H 9D"]));
    rejected(&mut g, 1, meld("QS QH QD"), Reason::NextTurnOnly);
    rejected(&mut g, 1, lay_off(0, "7C"), Reason::NextTurnOnly);
    ok(&mut g, 1, discard("KC"));
    pass(&mut g, 2);
    pass(&mut g, 3);
    pass(&mut g, 0);
    ok(&mut g, 1, Action::TakeDiscard);
    ok(&mut g, 1, meld("QS QH QD"));
    ok(&mut g, 1, lay_off(0, "7C"));
    assert_hand(&g, 1, "KC");
}

#[test]
fn contract_turn_extras__next_turn_also_holds_back_a_rescue() {
    let mut g = push(&[(DisputeId::ContractTurnExtras, "next-turn")]);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "7S 7H 7D 9S 9H 9D 8C KC", "9C", "AH"],
            discard: "4D",
            table: &[(0, "8H 8D JK")],
            ..Pos::default()
        },
    );
    ok(&mut g, 1, melds(&["7S 7H 7D", "9S 9H 9D"]));
    rejected(&mut g, 1, rescue(0, "8C", "JK"), Reason::NextTurnOnly);
}

#[test]
fn contract_first__no_lay_off_meld_or_rescue_before_ones_own_contract() {
    let mut g = push(&[]);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "8S QC QH QD 7D", "9C", "AH"],
            discard: "4D",
            table: &[(0, "5S 6S 7S"), (0, "7C 7H JK")],
            ..Pos::default()
        },
    );
    rejected(&mut g, 1, lay_off(0, "8S"), Reason::ContractFirst);
    rejected(&mut g, 1, meld("QC QH QD"), Reason::ContractNotMet);
    rejected(&mut g, 1, rescue(1, "7D", "JK"), Reason::RescueNotAllowed);
}

#[test]
fn contract_first__a_partners_contract_does_not_free_a_player() {
    let mut g = push(&[]);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "8S QC QH QD", "9C", "AH"],
            discard: "4D",
            table: &[(3, "5S 6S 7S"), (3, "JC JH JD")],
            ..Pos::default()
        },
    );
    assert!(g.deal.progress[3].done && !g.deal.progress[1].done);
    rejected(&mut g, 1, lay_off(0, "8S"), Reason::ContractFirst);
    rejected(&mut g, 1, meld("QC QH QD"), Reason::ContractNotMet);
}

#[test]
fn same_rank_sets__allowed_takes_two_sets_of_one_rank() {
    let mut g = contract_game(&[], "7S 7H 7D 7C 7S 7H KC");
    ok(&mut g, 1, melds(&["7S 7H 7D", "7C 7S 7H"]));
    assert!(g.deal.progress[1].done);
}

#[test]
fn same_rank_sets__forbidden_refuses_two_sets_of_one_rank_in_the_contract_and_later() {
    let mut g = contract_game(
        &[(DisputeId::SameRankSets, "forbidden")],
        "7S 7H 7D 7C 7S 7H KC",
    );
    // Within the laydown the contract check itself refuses it (with the dispute named).
    let m = rejected(
        &mut g,
        1,
        melds(&["7S 7H 7D", "7C 7S 7H"]),
        Reason::ContractNotMet,
    );
    assert!(m.contains("same-rank-sets=forbidden"), "{m}");
    // A second set of sevens after the contract is refused as well.
    let mut g = push(&[(DisputeId::SameRankSets, "forbidden")]);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "7C 7S 7H KC", "9C", "AH"],
            discard: "4D",
            table: &[(1, "7S 7H 7D"), (1, "9S 9H 9D")],
            ..Pos::default()
        },
    );
    rejected(&mut g, 1, meld("7C 7S 7H"), Reason::SameRankSet);
    // The same meld is fine where two sets of one rank are allowed.
    let mut g = push(&[]);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "7C 7S 7H KC", "9C", "AH"],
            discard: "4D",
            table: &[(1, "7S 7H 7D"), (1, "9S 9H 9D")],
            ..Pos::default()
        },
    );
    ok(&mut g, 1, meld("7C 7S 7H"));
}

#[test]
fn contract_in_one_turn__piecemeal_takes_the_last_piece_and_an_extra_meld_in_one_action() {
    let mut g = contract_game(&[(DisputeId::ContractInOneTurn, "piecemeal")], EXTRAS_HAND);
    let ev = ok(&mut g, 1, melds(&["7S 7H 7D", "9S 9H 9D", "QS QH QD"]));
    let flags: Vec<bool> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Melded { contract, .. } => Some(*contract),
            _ => None,
        })
        .collect();
    assert_eq!(flags, vec![true, true, false]);
    let mut g = contract_game(
        &[
            (DisputeId::ContractInOneTurn, "piecemeal"),
            (DisputeId::ContractTurnExtras, "next-turn"),
        ],
        EXTRAS_HAND,
    );
    rejected(
        &mut g,
        1,
        melds(&["7S 7H 7D", "9S 9H 9D", "QS QH QD"]),
        Reason::NextTurnOnly,
    );
}

/// Deal 1's contract made a pair of aces and a set of three (`set of 2 aces`, smaller than sets
/// go).
fn pair_of_aces(g: &mut Game) {
    let parse = |s| push_rummy::rules::spec::parse_component(s).unwrap();
    Arc::make_mut(&mut g.rules).rounds[0].contract =
        vec![parse("set of 2 aces"), parse("set of 3")];
}

/// Piece by piece, a pair of another rank fills no part and is no meld, the pair of aces fills its
/// part, and once the contract is met a pair is still no meld.
#[test]
fn a_pair_of_aces_fills_its_part_piecemeal_and_a_pair_of_kings_nothing() {
    let piecemeal = [(DisputeId::ContractInOneTurn, "piecemeal")];
    let mut g = contract_game(&piecemeal, "AS AH KS KH 7S 7H 7D 9C");
    pair_of_aces(&mut g);
    rejected(&mut g, 1, meld("KS KH"), Reason::InvalidMeld);
    let ev = ok(&mut g, 1, meld("AS AH"));
    assert!(matches!(ev[0], Event::Melded { contract: true, .. }));
    rejected(&mut g, 1, meld("KS KH"), Reason::InvalidMeld);
    ok(&mut g, 1, meld("7S 7H 7D"));
    assert!(g.deal.progress[1].done);
    rejected(&mut g, 1, meld("KS KH"), Reason::InvalidMeld);
    let pair = &g.deal.table[0];
    assert!(
        pair.interps
            .iter()
            .all(|i| i.rank == Some(push_rummy::base::card::Rank::Ace))
    );
}

/// The meld candidate of a contract with a pair of aces (a wild filling it) applies as in a copy
/// that remembers nothing, and lays the pair as a set of aces.
#[test]
fn a_pair_of_aces_candidate_applies_as_in_a_copy() {
    for represents in ["rank-only", "exact-card"] {
        let readings = [(DisputeId::WildInSetRepresents, represents)];
        let mut g = contract_game(&readings, "AS JK 7S 7H 7D KS KH 5C");
        pair_of_aces(&mut g);
        let rules = Arc::clone(&g.rules);
        let a = g
            .meld_candidate(0, &mut |c, h| {
                push_rummy::oracle::contract::laydown(&rules, c, h).map(std::rc::Rc::new)
            })
            .expect("a pair of aces and a set");
        let mut copy = g.clone();
        let ev = ok(&mut g, 1, a.clone());
        assert_eq!(ok(&mut copy, 1, a), ev, "{represents}");
        assert_eq!(g.deal, copy.deal, "{represents}");
        let aces = g
            .deal
            .table
            .iter()
            .find(|m| m.cards.len() == 2)
            .expect("the pair");
        assert!(
            aces.interps
                .iter()
                .all(|i| i.rank == Some(push_rummy::base::card::Rank::Ace))
        );
        // Listed among the legal melds too.
        let mut h = copy.clone();
        h.deal = contract_game(&readings, "AS JK 7S 7H 7D KS KH 5C").deal;
        pair_of_aces(&mut h);
        let listed = h.legal_melds().actions;
        assert!(
            listed
                .iter()
                .any(|x| matches!(x, Action::Meld(v) if v.iter().any(|s| s.cards.len() == 2))),
            "{represents}"
        );
    }
}
