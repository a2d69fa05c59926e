//! The commands of `push-rummy`, one module each (as rust-analyzer keeps one handler per
//! request): each takes the global options ([`common::Common`]) and its own arguments, prints
//! its answer on stdout (diagnostics on stderr) and returns its exit code, or a
//! [`common::Failure`] for `main` to print. Only `main` exits.
//!
//! What several commands share lives in [`common`] (the global options, colour, failures and
//! their exit codes, loading rules, JSON output) and [`cards`] (cards given as arguments, the
//! pack's limits, interpretations for people). The commands call the library; none of them
//! knows another.

/// Prints to stdout, ignoring a closed pipe (`push-rummy … | head` must not panic).
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let mut so = std::io::stdout().lock();
        let _ = writeln!(so, $($t)*);
    }};
}

/// [`out!`] without the newline.
macro_rules! out_raw {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let mut so = std::io::stdout().lock();
        let _ = write!(so, $($t)*);
    }};
}

pub mod bench;
pub mod cards;
pub mod common;
pub mod completions;
pub mod conform;
pub mod contract;
pub mod disputes;
pub mod evaluate;
pub mod explain;
pub mod man;
pub mod meld;
pub mod play;
pub mod query;
pub mod replay;
pub mod rules;
pub mod schema;
pub mod score;
pub mod serve;
pub mod vectors;
