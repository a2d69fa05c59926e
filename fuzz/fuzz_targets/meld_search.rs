//! The meld oracle against the brute-force reference (`push_rummy::oracle::meld_reference`) on small
//! melds under switched readings and limits on wild cards: the same interpretations (or, past the listing limit, only right
//! ones), `is_valid` agreeing, and the same answer whatever the order of the cards.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use push_rummy::base::card::{Card, KINDS};
use push_rummy::oracle::meld::{self, Query};
use push_rummy::oracle::meld_reference::{SWITCHES, brute};
use push_rummy::rules::{Rules, load};
use std::sync::OnceLock;

#[derive(Arbitrary, Debug)]
struct Input {
    picks: [u8; 8],
    two_in_sequence: bool,
    wrap_around: bool,
    twos_wild: bool,
    /// Limits on the wild cards of a meld: max (0: none, else n - 1), no outnumbering,
    /// min naturals, apart in runs.
    limits: (u8, bool, u8, bool),
    /// Card indices (0 … 52; 52 is the joker).
    cards: Vec<u8>,
}

fn push() -> &'static Rules {
    static R: OnceLock<Rules> = OnceLock::new();
    R.get_or_init(|| load("push", &[]).expect("push loads").rules)
}

fuzz_target!(|input: Input| {
    let mut r = push().clone();
    for ((id, names), k) in SWITCHES.iter().zip(input.picks) {
        r.readings.set(*id, names[usize::from(k) % names.len()]);
    }
    r.two_in_sequence = input.two_in_sequence;
    r.wrap_around = input.wrap_around;
    r.twos_wild = input.twos_wild;
    let (max, not_outnumbering, min_naturals, apart_in_runs) = input.limits;
    r.wild_limits = push_rummy::rules::WildLimits {
        max: (max % 5).checked_sub(1),
        not_outnumbering,
        min_naturals: min_naturals % 4,
        apart_in_runs,
    };
    r.refresh();
    let cards: Vec<Card> = input
        .cards
        .iter()
        .take(9)
        .filter_map(|&i| Card::from_index(usize::from(i) % KINDS))
        .collect();
    // The reference tries every place for every wild: keep it to four of them.
    if cards.iter().filter(|c| r.is_wild(**c)).count() > 4 {
        return;
    }
    let fast = meld::interpret(
        &r,
        &Query {
            cards: cards.clone(),
            ..Query::default()
        },
    );
    let slow = brute(&r, &cards);
    if fast.truncated {
        assert_eq!(fast.interpretations.len(), meld::MAX_INTERPRETATIONS);
        assert!(slow.len() > meld::MAX_INTERPRETATIONS);
        assert!(
            fast.interpretations
                .iter()
                .all(|i| slow.binary_search(i).is_ok())
        );
    } else {
        assert_eq!(
            fast.interpretations, slow,
            "cards {cards:?} under {:?}",
            r.readings
        );
    }
    assert_eq!(
        meld::is_valid(&r, &cards, None),
        !slow.is_empty(),
        "cards {cards:?}"
    );
    let mut reversed = cards.clone();
    reversed.reverse();
    let back = meld::interpret(
        &r,
        &Query {
            cards: reversed,
            ..Query::default()
        },
    );
    assert_eq!(back, fast, "the order of the cards changes nothing");
});
