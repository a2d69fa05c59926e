//! The game itself: [`game::Game`] applies actions, [`legal`] lists them, [`observe`] shows one
//! seat's view, [`position`] builds a game at any point, [`action_text`] reads and writes the
//! action notation, and [`bots`] are the built-in players ([`standard`] the one that plays like a
//! person). No I/O, no clock, no global randomness.

pub mod action_text;
pub mod bots;
pub mod game;
pub mod legal;
pub mod observe;
pub mod position;
pub mod standard;
