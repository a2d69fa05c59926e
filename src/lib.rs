pub mod card;
pub mod diag;
pub mod disputes;
pub mod rules;
pub mod spec;
pub mod yaml;
