//! The reference rules oracle for **Push Rummy** and its relatives **Cap-It** and "6 7 8 9 10".
//!
//! A game is data: a rules file (`spec/push.yaml`, a house variant that `extends` it) is read by
//! [`rules::load`] into a checked [`rules::Rules`]. Where the rule texts disagree the rules name a
//! *reading* of a *dispute* ([`rules::disputes::DisputeId`], generated from `spec/disputes.yaml`);
//! a reading can be switched when loading. The crate is in layers, each using only those before it:
//!
//! - [`base`]: cards and hands ([`base::card`]), the seeded generator ([`base::rng`]), the
//!   positioned YAML reader and diagnostics;
//! - [`rules`]: the rules language ([`rules::spec`]), the disputes register, compiling and
//!   checking a rule set;
//! - [`oracle`]: [`oracle::meld`] decides whether cards form a meld, and every meaning a wild card
//!   could have; [`oracle::contract`] checks melds against a deal's contract, or searches a hand
//!   for a laydown;
//! - [`engine`]: [`engine::game`] is the engine: [`Game::apply`] plays an [`Action`] for a seat
//!   and answers with events or an [`Illegal`] carrying a stable [`Reason`] code; legal actions,
//!   observations, positions, the action notation and the built-in players beside it;
//! - [`suite`]: [`suite::scenario`] reads a conformance scenario and [`suite::transcript`]
//!   replays it into its canonical transcript; [`suite::conform`] and [`suite::protocol`] check
//!   another implementation against this one;
//! - [`help`]: plain-words explanations, JSON Schemas for editors, text for terminals.
//!
//! Bad input never panics: it is a [`base::diag::Diagnostic`] with file, line, column, field path
//! and a hint, rendered rustc-style by [`base::diag::render`].
//!
//! # Load the rules and check a meld
//!
//! ```
//! use push_rummy::{base::card, oracle::meld, rules};
//!
//! let push = rules::load("push", &[])?.rules;
//! // 9♣ JK 10♣ JK Q♣: the two jokers can make 8–Q or 9–K.
//! let q = meld::Query { cards: card::parse_cards("9C JK 10C JK QC")?, ..Default::default() };
//! let verdict = meld::interpret(&push, &q);
//! assert!(verdict.is_valid());
//! assert_eq!(verdict.interpretations.len(), 2);
//!
//! // Two suits are no run, and three cards of two ranks no set.
//! let q = meld::Query { cards: card::parse_cards("9H 10S JK")?, ..Default::default() };
//! assert!(!meld::interpret(&push, &q).is_valid());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Pick a reading of a dispute
//!
//! ```
//! use push_rummy::{base::card::Card, rules::disputes::DisputeId, rules};
//!
//! let two_penalty = DisputeId::from_id("two-penalty-value").unwrap();
//! let push = rules::load("push", &[])?.rules;
//! let house = rules::load("push", &[(two_penalty, "15".to_string())])?.rules;
//! let two: Card = "2C".parse()?;
//! assert_eq!((push.points(two), house.points(two)), (20, 15));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Play a few actions
//!
//! ```
//! use std::sync::Arc;
//! use push_rummy::engine::game::{Action, Game, Reason};
//!
//! let rules = Arc::new(push_rummy::rules::load("push", &[])?.rules);
//! // Four players, dealer 0, the pack shuffled from seed 7.
//! let mut game = Game::new(rules, 4, 0, 7, vec![])?;
//! let seat = game.turn();
//! // Discarding before drawing is refused, and changes nothing.
//! let card = game.deal.hands[usize::from(seat)].cards()[0];
//! let refused = game.apply(seat, &Action::Discard(card)).unwrap_err();
//! assert_eq!(refused.code, Reason::MustDrawFirst);
//! assert_eq!(refused.code.code(), "must-draw-first");
//! // Take the discard, then throw a card away: the turn passes to the left.
//! game.apply(seat, &Action::TakeDiscard)?;
//! let card = game.deal.hands[usize::from(seat)].cards()[0];
//! game.apply(seat, &Action::Discard(card))?;
//! assert_eq!(game.turn(), (seat + 1) % 4);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Replay a scenario
//!
//! ```
//! use std::path::Path;
//! use push_rummy::{suite::scenario, suite::transcript};
//!
//! let text = r#"
//! title: Discarding before the draw is refused
//! rules: push
//! table: {players: 4, dealer: 0}
//! cards: {hands: {1: 9D 4C}, discard: 8H, stock: 4S, rest: stock, turn: 1}
//! steps:
//!   - {seat: 1, do: discard 9D, expect: {rejected: must-draw-first}}
//!   - {seat: 1, do: take-discard, check: {hand: {1: 9D 4C 8H}}}
//! exercises: {sources: ["002"]}
//! "#;
//! let s = scenario::load_text("example.yaml", text, Path::new("."), &[])?;
//! let r = transcript::replay(&s);
//! assert!(r.failures.is_empty());
//! assert!(r.transcript.text().contains("result: rejected must-draw-first"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

// The layers, bottom up: base, rules, oracle, engine, suite, help; each imports only those below
// it (ARCHITECTURE.md, "Code map").
pub mod base;
pub mod engine;
pub mod help;
pub mod oracle;
pub mod rules;
pub mod suite;

pub use base::card::{Card, CardList, Counts, Rank, Suit};
pub use engine::game::{Action, Event, Game, Illegal, Reason};
pub use rules::disputes::DisputeId;
pub use rules::{Rules, load};
