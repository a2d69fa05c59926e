//! Checking an implementation against the reference: `push-rummy conform`.
//!
//! Every scenario is replayed by the reference engine
//! ([`transcript::replay`](crate::suite::transcript::replay)); the implementation (the built-in
//! engine behind [`protocol::Server`], in process, or an external program speaking the protocol
//! on its stdin/stdout) is started from the scenario's position and given the same actions one
//! by one. After every step the result (events, or the reason code of a refusal) and the state
//! are compared; the first difference is the scenario's verdict. An implementation that says
//! `unsupported` skips the scenario; one that crashes, times out, sends a line that is too long
//! or a reply that is not the protocol is reported as errored, and the harness goes on.
//!
//! Differential fuzzing ([`fuzz`]) plays random games with the built-in players, feeds them to the
//! implementation, groups the divergences by cause and shrinks each cause's first divergence to a
//! small scenario file.
//!
//! Each external implementation runs in a process group of its own, ended whole when its
//! scenario ends (or on a timeout, or by [`end_all`] when the harness is stopped by a signal); a
//! run stops early when the implementation does not answer `hello` or errors
//! [`ERRORED_IN_A_ROW`] scenarios in a row, unless [`Options::keep_going`].
//!
//! Where each part lives:
//! - `implementation.rs` — [`ImplSpec`] and the [`Implementation`] trait: the built-in engine in
//!   process, or a child process behind reader and writer threads (line limit, timeout, stderr).
//! - `compare.rs` — one game step by step against the reference: the protocol's exchanges, the
//!   result, state and legal-action checks, and the first JSON path where they differ.
//! - `rules_involved.rs` — naming the rules and readings a divergence is about.
//! - `suite.rs` — [`run_scenario`] and [`run_suite`]: the suite's scenarios, one by one.
//! - `report.rs` — [`Divergence`], [`Verdict`], [`ScenarioReport`], [`SuiteReport`].
//! - `coverage.rs` — [`coverage`]: the rules and readings the scenarios exercise, and the rest.
//! - `random.rs` — [`fuzz`]: random games with the built-in players and near-meld probes, their
//!   divergences grouped by [`CauseKey`].
//! - `departures.rs` — [`Departures`]: the known departures of `--departures FILE`, read and
//!   checked, and which of them a divergence matches.
//! - `queries.rs` — [`ask_queries`]: random single questions asked of both sides, the
//!   disagreements grouped by the reading that explains them, the smallest shrunk.
//! - `shrink.rs` — shrinking a divergence of a random game into a small scenario file.

mod compare;
mod coverage;
pub mod departures;
mod implementation;
mod queries;
mod random;
mod report;
mod rules_involved;
mod shrink;
mod suite;
#[cfg(test)]
mod tests;

pub use coverage::{Coverage, CoverageEntry, coverage};
pub use departures::{Departure, Departures, Known, load as departures_load};
pub use implementation::{ImplSpec, Implementation, end_all};
pub use queries::{QueryCause, QueryExample, QueryOptions, QueryReport, ask_queries};
pub use random::{
    Cause, CauseKey, FUZZ_BOTS, FuzzFinding, FuzzOptions, FuzzReport, GameNote, KnownCause, fuzz,
};
pub use report::{Divergence, ScenarioReport, SuiteReport, Verdict, summary};
pub use suite::{run_scenario, run_suite};

use crate::suite::protocol;
use std::time::Duration;

/// Options of a run.
#[derive(Clone, Debug)]
pub struct Options {
    pub timeout: Duration,
    /// Go on when the implementation is dead at `hello` or errors [`ERRORED_IN_A_ROW`] scenarios
    /// (or random games) in a row, instead of stopping the run there.
    pub keep_going: bool,
    /// Known departures: a divergence one of them matches is reported as known, not failed.
    pub departures: Option<std::sync::Arc<Departures>>,
}

/// Scenarios (or random games) errored one after the other after which a run stops.
pub const ERRORED_IN_A_ROW: usize = 5;

impl Default for Options {
    fn default() -> Self {
        Options {
            timeout: Duration::from_millis(protocol::DEFAULT_TIMEOUT_MS),
            keep_going: false,
            departures: None,
        }
    }
}

/// A text cut to `n` characters, `…` marking the cut (replies and stderr quoted in messages).
fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n).collect::<String>())
    }
}
