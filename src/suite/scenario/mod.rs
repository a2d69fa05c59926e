//! Scenario files: a game set up at a chosen point (rules, table, cards), a list of actions by
//! seat, and what is expected of each (legal, or rejected with a reason code) and of the state at
//! checkpoints. The format is documented in `conformance/README.md`; [`crate::suite::transcript`] replays
//! a scenario into its canonical transcript.
//!
//! A scenario is read through the positioned YAML layer ([`crate::base::yaml`]); every problem is a
//! [`Diagnostic`](crate::base::diag::Diagnostic) with file, line, column and field path, and all
//! problems of a file are reported at once where they do not depend on each other.
//!
//! This module holds what a scenario is (the keys of each section, the [`Scenario`] and its
//! [`Step`]s and [`Check`]s); the reader follows the sections of the file, one file each:
//! `load` (the file, its top-level keys, and at the end the game set up from the table and cards),
//! `rules` (the scenario's readings and its rules, named or inline), `table`, `cards` (a seed, pack
//! orders or an explicit position), `steps` (each action and its expectation), `checks` (the
//! checkpoint assertions) and `exercises`. `ctx` is the reading context that collects the
//! diagnostics, with the readers of plain YAML values; `values` reads the game's values (cards,
//! seats, melds). The order `load` calls the sections in is the order of the diagnostics, which
//! the snapshot tests fix.

mod cards;
mod checks;
mod ctx;
mod exercises;
mod load;
mod rules;
mod steps;
mod table;
mod values;

pub use load::{load, load_text};

use crate::base::card::{Card, Counts};
use crate::engine::game::{Action, Game, MeldSpec, Reason, Stage};
use crate::rules::Loaded;
use crate::rules::disputes::DisputeId;
use std::path::Path;

/// The most steps in one scenario (a whole game of 2,000 actions fits; the replay of the most
/// allowed stays within a second or two and a few hundred megabytes with `--json`).
pub const MAX_STEPS: usize = 2_000;
/// The most cards in one list (a hand, the stock, a pile, a pack order): the largest pack the rules
/// language allows has 16 × 52 + 64 = 896 cards.
pub const MAX_CARDS: usize = 1_000;

/// The source numbers a scenario may cite.
pub const SOURCES: [&str; 4] = ["000", "001", "002", "003"];

/// The keys of a scenario, at the top (the schema is generated from these tables too).
pub const TOP_KEYS: [&str; 8] = [
    "title",
    "description",
    "rules",
    "readings",
    "table",
    "cards",
    "steps",
    "exercises",
];
/// The keys a scenario cannot do without. (`exercises` is for the suite's coverage: a scenario
/// written to settle an argument may leave it out; the suite's own test requires it.)
pub const REQUIRED_KEYS: [&str; 4] = ["title", "rules", "cards", "steps"];
/// The keys of `table`.
pub const TABLE_KEYS: [&str; 4] = ["players", "dealer", "round", "scores"];
/// The keys of `cards`.
pub const CARDS_KEYS: [&str; 14] = [
    "seed",
    "deck",
    "decks",
    "hands",
    "stock",
    "discard",
    "rest",
    "table",
    "contract-met",
    "turn",
    "stage",
    "taken",
    "buys",
    "window",
];
/// The keys of `cards` that only an explicit position (`hands`) may give.
pub const POSITION_ONLY: [&str; 10] = [
    "stock",
    "discard",
    "rest",
    "table",
    "contract-met",
    "turn",
    "stage",
    "taken",
    "buys",
    "window",
];
/// The keys of a step.
pub const STEP_KEYS: [&str; 5] = ["seat", "do", "expect", "check", "why"];
/// The keys of `exercises`.
pub const EXERCISE_KEYS: [&str; 3] = ["sources", "rules", "disputes"];
/// The keys of the checkpoint `last-hand`.
pub const LAST_HAND_KEYS: [&str; 3] = ["end", "points", "hands"];
/// The checkpoint assertions, in the order they are evaluated and printed.
pub const CHECK_KEYS: [&str; 18] = [
    "round",
    "dealer",
    "turn",
    "stage",
    "hand",
    "hand-size",
    "table",
    "stock",
    "stock-count",
    "stock-top",
    "discard",
    "discard-top",
    "contract-met",
    "totals",
    "hands-played",
    "last-hand",
    "game-over",
    "winners",
];

/// What a step expects of its action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// Nothing stated: the action must be accepted.
    Unstated,
    Ok,
    /// Refused, for whatever reason (the transcript records the code).
    RejectedAny,
    Rejected(Reason),
}

/// How a hand ended, as a checkpoint names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndSpec {
    WentOut(u8),
    StockOut,
    Stalled,
}

/// One expected table meld.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeldCheck {
    pub owner: u8,
    pub spec: MeldSpec,
}

/// One assertion about the state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// The deal being played, from 1.
    Round(usize),
    Dealer(u8),
    Turn(u8),
    Stage(Stage),
    Hand(u8, Vec<Card>),
    HandSize(u8, usize),
    /// The whole table, in order.
    Table(Vec<MeldCheck>),
    /// The whole stock, top first.
    Stock(Vec<Card>),
    StockCount(usize),
    StockTop(Option<Card>),
    /// The whole discard pile, top first.
    Discard(Vec<Card>),
    DiscardTop(Option<Card>),
    /// Exactly these seats have met the contract of the deal being played.
    ContractMet(Vec<u8>),
    Totals(Vec<i64>),
    /// Hands ended since the scenario started.
    HandsPlayed(usize),
    LastHand {
        end: Option<EndSpec>,
        points: Option<Vec<i64>>,
        /// The cards a seat held when the hand ended, per seat named.
        hands: Vec<(u8, Vec<Card>)>,
    },
    GameOver(bool),
    Winners(Vec<u8>),
}

/// A step: an action by a seat (optional), its expectation, and checks of the state after it.
#[derive(Clone, Debug)]
pub struct Step {
    /// From 1.
    pub number: usize,
    pub line: u32,
    /// `None`: the seat to play.
    pub seat: Option<u8>,
    pub action: Option<Action>,
    pub expect: Expect,
    pub checks: Vec<(u32, Check)>,
}

/// What a scenario exercises, for coverage.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Exercises {
    /// The file has an `exercises` section (possibly with empty lists).
    pub stated: bool,
    pub sources: Vec<String>,
    /// Rule paths of [`spec::rule_defs`](crate::rules::spec::rule_defs).
    pub rules: Vec<String>,
    /// Dispute ids, each with the reading exercised when one is named.
    pub disputes: Vec<(DisputeId, Option<String>)>,
}

/// A scenario, read and checked, with its game set up.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub file: String,
    pub title: String,
    pub description: Option<String>,
    pub rules: Loaded,
    /// The game at the start of the scenario.
    pub game: Game,
    pub steps: Vec<Step>,
    pub exercises: Exercises,
}

/// The cards of a hand, sorted: for comparing hands as multisets.
pub fn sorted(cards: &[Card]) -> Vec<Card> {
    Counts::from_cards(cards).cards()
}

/// The scenario files (`*.yaml`) under `dir`, recursively, in sorted order.
///
/// # Errors
/// A directory that cannot be read.
pub fn find_scenarios(dir: &Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    let mut out = Vec::new();
    let mut entries: Vec<std::path::PathBuf> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            out.extend(find_scenarios(&p)?);
        } else if p.extension().is_some_and(|e| e == "yaml") {
            out.push(p);
        }
    }
    Ok(out)
}
