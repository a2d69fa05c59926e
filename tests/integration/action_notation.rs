//! The canonical text of an action reads back as the same action: `Display`, then
//! `action_text::parse_action`, gives what was displayed, for every form of action (nested rescues,
//! declarations of wilds as cards or ranks, joins), and again in lower case.

use proptest::prelude::*;
use push_rummy::base::card::{Card, Rank, Suit};
use push_rummy::engine::action_text::parse_action;
use push_rummy::engine::game::{Action, MeldSpec};
use push_rummy::oracle::meld::Target;
use push_rummy::rules::spec::MeldKind;

fn card() -> impl Strategy<Value = Card> {
    (0usize..53).prop_map(|i| Card::from_index(i).expect("below 53"))
}

fn wild() -> impl Strategy<Value = Card> {
    prop_oneof![
        Just(Card::JOKER),
        (0usize..4).prop_map(|s| Card::new(Rank::Two, Suit::from_index(s)))
    ]
}

fn target() -> impl Strategy<Value = Target> {
    prop_oneof![
        (1u8..=13).prop_map(|n| Target::Rank(Rank::from_number(n).expect("1 to 13"))),
        (0usize..52).prop_map(|i| Target::Card(Card::from_index(i).expect("below 52"))),
    ]
}

/// Cards, and declarations of wilds among them (a declared card is always listed).
fn cards_and_declarations() -> impl Strategy<Value = (Vec<Card>, Vec<(Card, Target)>)> {
    (
        prop::collection::vec(card(), 0..6),
        prop::collection::vec((wild(), target()), 0..3),
    )
        .prop_map(|(mut cards, declared)| {
            for (w, _) in &declared {
                let listed = cards.iter().filter(|c| *c == w).count();
                let needed = declared.iter().filter(|(d, _)| d == w).count();
                for _ in listed..needed {
                    cards.push(*w);
                }
            }
            if cards.is_empty() {
                cards.push(Card::JOKER);
            }
            (cards, declared)
        })
}

fn spec() -> impl Strategy<Value = MeldSpec> {
    (
        cards_and_declarations(),
        prop_oneof![
            Just(None),
            Just(Some(MeldKind::Set)),
            Just(Some(MeldKind::Run))
        ],
    )
        .prop_map(|((cards, declared), kind)| MeldSpec {
            cards,
            kind,
            declared,
        })
}

fn meld_or_lay_off() -> impl Strategy<Value = Action> {
    prop_oneof![
        prop::collection::vec(spec(), 1..4).prop_map(Action::Meld),
        (
            0usize..40,
            cards_and_declarations(),
            prop::option::of(0usize..40)
        )
            .prop_map(|(meld, (cards, declared), join)| Action::LayOff {
                meld,
                cards: cards.into(),
                declared,
                join
            }),
    ]
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        Just(Action::TakeDiscard),
        Just(Action::Push),
        Just(Action::DrawStock),
        Just(Action::EndTurn),
        Just(Action::Buy),
        Just(Action::Pass),
        card().prop_map(Action::Discard),
        meld_or_lay_off(),
        (
            0usize..40,
            card(),
            wild(),
            prop::option::of(meld_or_lay_off())
        )
            .prop_map(|(meld, natural, wild, then)| Action::Rescue {
                meld,
                natural,
                wild,
                then: then.map(Box::new)
            }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn display_then_parse_gives_the_same_action(a in action()) {
        let text = a.to_string();
        prop_assert_eq!(parse_action(&text), Ok(a.clone()), "{}", text);
        prop_assert_eq!(parse_action(&text.to_lowercase()), Ok(a), "{}", text);
    }
}

#[test]
fn the_short_forms_read_as_the_canonical_ones() {
    for (short, canonical) in [
        ("meld set [7S 7H JK=7]", "meld set [7S 7H JK JK=7]"),
        ("lay-off 0 [JK=10H] join 2", "lay-off 0 [JK JK=10H] join 2"),
        (
            "rescue 1 8S for JK then lay-off 0 [JK=9S]",
            "rescue 1 8S for JK then lay-off 0 [JK JK=9S]",
        ),
        ("meld [T♥ j♥ q♥], [9s,9d,9c]", "meld [10H JH QH] [9S 9D 9C]"),
        ("DISCARD ts", "discard 10S"),
        ("BUY", "buy"),
        (" Pass ", "pass"),
    ] {
        let a = parse_action(short).unwrap_or_else(|e| panic!("{short}: {e}"));
        assert_eq!(a.to_string(), canonical, "{short}");
        assert_eq!(parse_action(canonical), Ok(a));
    }
}

#[test]
fn buy_and_pass_stand_alone() {
    for bad in ["buy 9C", "pass 1", "rescue 1 8S for JK then buy"] {
        assert!(parse_action(bad).is_err(), "{bad} reads");
    }
}
