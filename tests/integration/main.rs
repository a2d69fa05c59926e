//! The integration tests, one module per subject, in one test binary: one link instead of one per
//! file, and one scheduler that keeps both cores busy across all of them. The snapshot tests that
//! insta must keep apart (`broken_rules`, `rules_show`) and those whose snapshot files are named by
//! their binary (`bot_games`, `conformance_suite`) stay binaries of their own beside this folder.
//!
//! Run one subject with a filter: `cargo test --test integration meld_oracle::`.
//!
//! - The oracle against its references: `meld_oracle`, `laydown`, `source_examples`.
//! - The engine: `engine_rules` (one test per rule), `legal_actions`, `observation`,
//!   `worked_examples`, `properties`, `games` (seeded games with every invariant), `mutants`.
//! - The players: `standard_player` (no peeking, every rule set, stronger than greedy).
//! - Notation: `notation`, `action_notation`.
//! - The rules files and the register: `citations`, `register`, `schema`, `scenario_files`.
//! - The command line, run as a process: `cli`, `conform`, `disputes`, `docs_cli`, `hostile`,
//!   `bench_cli`, `readme`, `conformance_doc`, `queries` (single questions, the test vectors).
//! - The adapter kits of `conformance/adapters/`, run under `conform`: `adapters`.

mod common;

mod action_notation;
mod adapters;
mod bench_cli;
mod citations;
mod cli;
mod conform;
mod conformance_doc;
mod disputes;
mod docs_cli;
#[allow(non_snake_case)]
mod engine_rules;
mod evaluate;
mod games;
mod hostile;
mod laydown;
mod legal_actions;
mod meld_oracle;
mod mutants;
mod notation;
mod observation;
mod properties;
mod queries;
mod readme;
mod register;
mod scenario_files;
mod schema;
mod source_examples;
mod standard_player;
mod worked_examples;
