//! Shared primitives with no knowledge of the game's rules: cards and hands, the seeded
//! generator, the positioned YAML reader and diagnostics.

pub mod card;
pub mod diag;
pub mod rng;
pub mod yaml;
