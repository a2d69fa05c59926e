//! What serves people beside the game: plain-words explanations ([`explain`]), JSON Schemas for
//! editors ([`schema`]) and terminal text ([`term`]).

pub mod explain;
pub mod schema;
pub mod term;
