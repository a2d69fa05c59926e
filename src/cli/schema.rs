//! `schema rules|scenario|register|departures`: the JSON Schema of rules files, scenario files,
//! the disputes register or known-departures files, generated from the rule table, the scenario
//! reader, the register's shape and the departures reader.

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
}

pub fn run(args: &SchemaArgs) -> Result<u8, Failure> {
    let schema = match args.kind {
        SchemaKind::Rules => push_rummy::help::schema::rules(),
        SchemaKind::Scenario => push_rummy::help::schema::scenario(),
        SchemaKind::Register => push_rummy::help::schema::register(),
        SchemaKind::Departures => push_rummy::help::schema::departures(),
    };
    out_raw!("{}", push_rummy::help::schema::text(&schema));
    Ok(0)
}
