//! The conformance suite and what runs it: scenario files ([`scenario`]) replayed into
//! transcripts ([`transcript`]), one scenario under each reading ([`settle`]), the JSON-lines
//! protocol ([`protocol`]) and the harness that checks another implementation ([`conform`]),
//! and the standard benchmark workloads ([`bench`](mod@bench)).

pub mod bench;
pub mod conform;
pub mod evaluate;
pub mod protocol;
pub mod query;
pub mod scenario;
pub mod settle;
pub mod transcript;
