//! The `push-rummy` command line: a thin layer over the library. Exit codes: 0 valid / satisfied /
//! found; 1 understood but negative; 2 bad input.
//!
//! This file parses the command line (clap), refuses a global option the command has no use
//! for, and dispatches: each command lives in its own module under `cli/`, which prints its
//! answer and returns its exit code (`cli/mod.rs`). `main` is the only place that exits.
#![forbid(unsafe_code)]

mod cli;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use cli::common::{Common, Failure, bad_input, decide_stderr_color, print_failure};
use cli::disputes::{DisputesAction, DisputesArgs};
use cli::rules::{RulesAction, RulesArgs};
use std::process::ExitCode;

/// The allocator of the `push-rummy` binary (ARCHITECTURE.md, "Dependencies"): the engine makes
/// many small short-lived vectors, and mimalloc serves them about a sixth faster than the
/// system's (docs/PERFORMANCE.md). The library itself leaves the choice to its users.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "push-rummy",
    version,
    about = "Push Rummy rules oracle: melds, contracts, scores and rule sets"
)]
struct Cli {
    #[command(flatten)]
    common: Common,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List, show or check rule sets.
    Rules(RulesArgs),
    /// Is this a legal meld, and what can it mean? Declare a wild as `JK=10H` (or `JK=7` for a rank).
    Meld(cli::meld::MeldArgs),
    /// Do these melds meet a deal's contract? Or, with --hand, can this hand meet it?
    Contract(cli::contract::ContractArgs),
    /// The disputes register: where the sources disagree, and the readings.
    Disputes(DisputesArgs),
    /// Time the standard workloads (meld checks, contract searches, greedy games, replaying the
    /// suite) on one core: median operations per second of several timed runs after a warm-up,
    /// with the targets. All of them unless named.
    Bench(cli::bench::BenchArgs),
    /// Play whole games with built-in players: one game's transcript, or a summary of many.
    Play(cli::play::PlayArgs),
    /// Measure what a rule set does to the game by self-play: how hands end, their length, the
    /// contracts met, seat balance, margins, lead changes, what the points left in hand are made
    /// of, each with a 95% interval (docs/EVALUATION.md). `--compare DISPUTE` or `--against
    /// RULES2` puts two or more side by side, with the difference and whether it is beyond chance.
    Evaluate(cli::evaluate::EvaluateArgs),
    /// Points of cards left in a hand (no cards: 0 points).
    Score(cli::score::ScoreArgs),
    /// Replay a scenario file: its canonical transcript, and whether every expectation holds.
    /// `--check` compares the scenarios' golden transcripts (NAME.snap next to NAME.yaml),
    /// `--bless` rewrites them. Exit 0: all hold; 1: an expectation failed or a golden differs;
    /// 2: bad input or a missing golden.
    Replay(cli::replay::ReplayArgs),
    /// Speak the conformance protocol (JSON lines, conformance/README.md) on stdin/stdout: the
    /// reference as a live oracle. `--reading` is applied over the rules the harness sends, and
    /// `--rules`, when given, replaces them: both make a deliberately different implementation.
    Serve,
    /// Answer single questions in a batch: JSON lines on stdin (`{"type": "query", "question":
    /// "meld", "cards": ["7H", "8H", "JK"]}`, conformance/README.md, *Questions*), one answer per
    /// line on stdout, under `--rules` with `--reading` (a `{"type": "rules", …}` line changes
    /// them). Exit 0; 2 when a line could not be understood (its answer is an `error` line).
    Query,
    /// Write (`--out DIR`) or compare (`--check DIR`) the language-neutral test vectors of single
    /// questions: meld, contract, laydown, score and lay-off cases under the built-in rule sets
    /// and each reading, with the reference's answers (`conformance/vectors/`).
    Vectors(cli::vectors::VectorsArgs),
    /// Run the conformance scenarios against the built-in engine or an external implementation
    /// (`--impl 'COMMAND'`, speaking the protocol), step by step. Exit 0: all pass (skips and
    /// known departures allowed); 1: a scenario failed or errored; 2: bad input. With `--random
    /// N`: differential fuzzing with the built-in players, the divergences grouped by cause, each
    /// cause's first one shrunk to a scenario file. `--departures FILE` lists where the
    /// implementation differs on purpose: those divergences are reported as known.
    Conform(cli::conform::ConformArgs),
    /// Explain a rejection reason code (`push-not-allowed`), a dispute (`frozen-two`), one of its
    /// readings (`frozen-two=position`) or a rule (`sets.min-size`), with the sources behind it.
    Explain(cli::explain::ExplainArgs),
    /// Print the JSON Schema of rules files, scenario files, the disputes register,
    /// known-departures files, single questions or the test vectors (for editors and
    /// implementers; the shipped copies are spec/schema/rules.schema.json,
    /// conformance/schema/scenario.schema.json, spec/schema/disputes.schema.json and
    /// conformance/schema/{departures,questions,vectors}.schema.json).
    Schema(cli::schema::SchemaArgs),
    /// Print a shell completion script, e.g. `push-rummy completions bash > ~/.local/share/bash-completion/completions/push-rummy`.
    Completions(cli::completions::CompletionsArgs),
    /// Print the manual page (roff), e.g. `push-rummy man > push-rummy.1; man ./push-rummy.1`.
    Man,
}

fn main() -> ExitCode {
    let parsed = Cli::command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m).map(|c| (c, m)));
    let (mut cli, matches) = match parsed {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let json = cli.common.json;
    decide_stderr_color(&cli.common);
    let given = |id: &str| matches.value_source(id) == Some(clap::parser::ValueSource::CommandLine);
    cli.common.rules_given = given("rules");
    let unused = GLOBALS.iter().find_map(|&(id, option)| {
        ignored(&cli.command, option)
            .filter(|_| given(id))
            .map(|why| (option, why))
    });
    let checked = match unused {
        Some((option, why)) => Err(bad_input(format!("{option}: {why}; leave {option} out"))),
        None => run(cli),
    };
    match checked {
        Ok(code) => ExitCode::from(code),
        Err(f) => {
            print_failure(&f, json);
            ExitCode::from(f.code)
        }
    }
}

/// The global options a command may be given without using them (clap's id, the option), in
/// the order checked.
const GLOBALS: [(&str, &str); 3] = [
    ("rules", "--rules"),
    ("readings", "--reading"),
    ("json", "--json"),
];

/// Why `command` has no use for the global `option` (`--rules`, `--reading` or `--json`), where
/// it has none: such an option is refused rather than silently ignored.
fn ignored(command: &Command, option: &str) -> Option<&'static str> {
    use Command as C;
    match (command, option) {
        (C::Man, "--json") => Some("a manual page is roff"),
        (C::Completions(_), "--json") => Some("a completion script is shell code"),
        (C::Query, "--json") => Some("questions are answered in JSON lines already"),
        (C::Vectors(_), "--json") => Some("the vectors are JSON files already"),
        (_, "--json") => None,
        (C::Schema(_) | C::Completions(_) | C::Man, _) => Some("this command reads no rules"),
        (C::Vectors(_), _) => Some("the vectors name their rules and readings case by case"),
        (C::Explain(_), "--rules") => Some("an explanation covers every game"),
        (C::Explain(_), _) => Some("an explanation covers every reading"),
        (C::Replay(_), "--rules") => Some("a scenario names its own rules"),
        (C::Conform(args), "--rules") if args.random.is_none() && args.queries.is_none() => {
            Some("each scenario names its own rules (--rules is for --random and --queries)")
        }
        (
            C::Rules(RulesArgs {
                action: RulesAction::List,
            }),
            "--reading",
        ) => Some("the list names the rule sets, not their readings"),
        (
            C::Rules(RulesArgs {
                action: RulesAction::Show { name: None },
            }),
            _,
        ) => None,
        (C::Rules(_), "--rules") => Some("this rules command names its rule sets itself"),
        (
            C::Disputes(DisputesArgs {
                action: None | Some(DisputesAction::List),
            }),
            "--reading",
        ) => Some("the list names every reading already"),
        (C::Disputes(_), "--rules") => {
            Some("the register covers every game, and a scenario names its own rules")
        }
        _ => None,
    }
}

/// Runs the command: its exit code, or a failure for `main` to print.
fn run(cli: Cli) -> Result<u8, Failure> {
    let common = cli.common;
    match cli.command {
        Command::Rules(args) => cli::rules::run(&common, args),
        Command::Meld(args) => cli::meld::run(&common, &args),
        Command::Contract(args) => cli::contract::run(&common, &args),
        Command::Score(args) => cli::score::run(&common, &args),
        Command::Replay(args) => cli::replay::run(&common, &args),
        Command::Serve => cli::serve::run(&common),
        Command::Query => cli::query::run(&common),
        Command::Vectors(args) => cli::vectors::run(&common, &args),
        Command::Conform(args) => cli::conform::run(&common, &args),
        Command::Disputes(args) => cli::disputes::run(&common, args),
        Command::Play(args) => cli::play::run(&common, &args),
        Command::Evaluate(args) => cli::evaluate::run(&common, &args),
        Command::Bench(args) => cli::bench::run(&common, &args),
        Command::Explain(args) => cli::explain::run(&common, &args),
        Command::Schema(args) => cli::schema::run(&args),
        Command::Completions(args) => cli::completions::run(&args),
        Command::Man => cli::man::run(),
    }
}
