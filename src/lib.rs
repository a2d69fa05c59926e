pub mod card;
pub mod contract;
pub mod diag;
pub mod disputes;
pub mod meld;
pub mod rules;
pub mod spec;
pub mod yaml;
