//! The contract module's unit tests, by topic, and the helpers they share.

use super::flow::{Flow, fill};
use super::hand::{read_hand, run_naturals};
use super::one_meld::{first_flow, one_meld};
use super::relaxed::{SET_STEPS, SetsShape, lanes_equal, may_meet, suits_per_rank};
use super::search::{Pools, Search, State, naturals_added};
use super::templates::{Template, run_templates, set_natural, set_templates};
use super::*;
use crate::base::card::{Counts, Rank, Suit, parse_cards};
use crate::rules::load;

mod flow;
mod reach;
mod relaxed;
mod search;

fn hand(s: &str) -> Counts {
    Counts::from_cards(&parse_cards(s).unwrap())
}

/// Push's rules under the given readings.
fn push_with(readings: &[(crate::rules::disputes::DisputeId, &str)]) -> Rules {
    let readings: Vec<_> = readings.iter().map(|&(d, r)| (d, r.to_string())).collect();
    load("push", &readings).unwrap().rules
}

/// [`may_meet`] on what [`read_hand`] reads from `h`, as `laydown` asks it.
fn quick_check(rules: &Rules, contract: &[Component], h: &Counts) -> bool {
    let (naturals, wilds) = read_hand(rules, contract, h);
    may_meet(rules, contract, h, &naturals, wilds)
}

/// The quick check lets the hand through and the search finds a laydown.
fn assert_met(rules: &Rules, contract: &[Component], h: &Counts, what: &str) {
    assert!(
        quick_check(rules, contract, h),
        "quick check: {what} {contract:?}"
    );
    assert!(
        laydown(rules, contract, h).is_some(),
        "search: {what} {contract:?}"
    );
}

fn set(size: u8) -> Component {
    Component::of(MeldKind::Set, size)
}

fn run(size: u8) -> Component {
    Component::of(MeldKind::Run, size)
}
