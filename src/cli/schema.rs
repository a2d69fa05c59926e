//! `schema rules|scenario|register`: the JSON Schema of rules files, scenario files or the
//! disputes register, generated from the rule table, the scenario reader and the register's shape.

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
}

pub fn run(args: &SchemaArgs) -> Result<u8, Failure> {
    let schema = match args.kind {
        SchemaKind::Rules => push_rummy::help::schema::rules(),
        SchemaKind::Scenario => push_rummy::help::schema::scenario(),
        SchemaKind::Register => push_rummy::help::schema::register(),
    };
    out_raw!("{}", push_rummy::help::schema::text(&schema));
    Ok(0)
}
