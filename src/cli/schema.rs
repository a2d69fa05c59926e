//! `schema rules|scenario|register|departures|questions|vectors`: the JSON Schema of rules
//! files, scenario files, the disputes register, known-departures files, single questions and
//! their answers, or the test vectors, generated from the rule table, the scenario reader, the
//! register's shape, the departures reader and the kinds of question.

use super::common::Failure;
use clap::{Args, ValueEnum};

// No doc comment here: the command's help is the doc of `Command::Schema` in main.rs.
#[derive(Args)]
pub struct SchemaArgs {
    #[arg(value_enum)]
    pub kind: SchemaKind,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum SchemaKind {
    /// Rules files (spec/*.yaml, house variants).
    Rules,
    /// Scenario files (conformance/**/*.yaml).
    Scenario,
    /// The disputes register (spec/disputes.yaml).
    Register,
    /// Known-departures files (`conform --departures FILE`).
    Departures,
    /// Single questions and their answers (the protocol's `rules`, `query` and `answer`).
    Questions,
    /// The test vectors (conformance/vectors/*.json).
    Vectors,
}

pub fn run(args: &SchemaArgs) -> Result<u8, Failure> {
    let schema = match args.kind {
        SchemaKind::Rules => push_rummy::help::schema::rules(),
        SchemaKind::Scenario => push_rummy::help::schema::scenario(),
        SchemaKind::Register => push_rummy::help::schema::register(),
        SchemaKind::Departures => push_rummy::help::schema::departures(),
        SchemaKind::Questions => push_rummy::help::schema::questions(),
        SchemaKind::Vectors => push_rummy::help::schema::vectors(),
    };
    out_raw!("{}", push_rummy::help::schema::text(&schema));
    Ok(0)
}
