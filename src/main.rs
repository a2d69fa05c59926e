//! The `push-rummy` command line: a thin layer over the library. Exit codes: 0 valid / satisfied /
//! found; 1 understood but negative; 2 bad input.

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use push_rummy::base::card::{Card, Counts};
use push_rummy::oracle::contract;
use push_rummy::oracle::meld::{self, Interpretation, Query, Target};
use push_rummy::rules::disputes::DisputeId;
use push_rummy::rules::spec::MeldKind;
use push_rummy::rules::{self, BUILT_IN, Loaded};
use push_rummy::suite::settle;
use serde_json::{Value, json};

/// The allocator of the `push-rummy` binary (ARCHITECTURE.md, "Dependencies"): the engine makes
/// many small short-lived vectors, and mimalloc serves them about a sixth faster than the
/// system's (docs/PERFORMANCE.md). The library itself leaves the choice to its users.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use std::io::Write as _;
use std::process::ExitCode;

/// Prints to stdout, ignoring a closed pipe (`push-rummy … | head` must not panic).
macro_rules! out {
    ($($t:tt)*) => {{
        let mut so = std::io::stdout().lock();
        let _ = writeln!(so, $($t)*);
    }};
}
macro_rules! out_raw {
    ($($t:tt)*) => {{
        let mut so = std::io::stdout().lock();
        let _ = write!(so, $($t)*);
    }};
}

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

#[derive(Args, Clone)]
struct Common {
    /// Rule set: a built-in name (push, cap-it, six-to-ten, source-000…003, club-marathon) or a path.
    #[arg(long, global = true, default_value = "push", value_name = "NAME|PATH")]
    rules: String,
    /// Whether `--rules` was given on the command line rather than taken by default (`serve`
    /// replaces the harness's rules only then); set from clap's matches after parsing.
    #[arg(skip)]
    rules_given: bool,
    /// Apply a dispute reading on top of the rules (repeatable), e.g. two-penalty-value=15.
    #[arg(long = "reading", global = true, value_name = "ID=READING")]
    readings: Vec<String>,
    /// Print JSON instead of text for people.
    #[arg(long, global = true)]
    json: bool,
    /// Colour and suit symbols of transcripts, the game table and diagnostics: auto (on a
    /// terminal; colour unless NO_COLOR is set), always, never. The verdicts of meld, contract and
    /// score always write suit symbols, without colour.
    #[arg(
        long,
        global = true,
        value_enum,
        default_value = "auto",
        value_name = "WHEN"
    )]
    color: ColorArg,
}

#[derive(Clone, Copy, ValueEnum)]
enum ColorArg {
    Auto,
    Always,
    Never,
}

/// How text for people is drawn on stdout (`--color`, `NO_COLOR`, a terminal or not).
fn look(common: &Common) -> push_rummy::help::term::Look {
    use std::io::IsTerminal;
    look_on(common, std::io::stdout().is_terminal())
}

/// How text for people is drawn on a stream that is a terminal or not.
fn look_on(common: &Common, is_terminal: bool) -> push_rummy::help::term::Look {
    use push_rummy::help::term::{Look, When};
    let when = match common.color {
        ColorArg::Auto => When::Auto,
        ColorArg::Always => When::Always,
        ColorArg::Never => When::Never,
    };
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    Look::decide(when, is_terminal, no_color)
}

/// Whether diagnostics on stderr are drawn in colour: decided once from `--color`, `NO_COLOR` and
/// whether stderr is a terminal.
static STDERR_COLOR: std::sync::OnceLock<bool> = std::sync::OnceLock::new();

fn decide_stderr_color(common: &Common) {
    use std::io::IsTerminal;
    let _ = STDERR_COLOR.set(look_on(common, std::io::stderr().is_terminal()).color);
}

/// A load error rendered for stderr.
fn rendered(e: &push_rummy::rules::LoadError) -> String {
    e.render_styled(STDERR_COLOR.get().copied().unwrap_or(false))
}

#[derive(Subcommand)]
enum Command {
    /// List, show or check rule sets.
    Rules {
        #[command(subcommand)]
        action: RulesAction,
    },
    /// Is this a legal meld, and what can it mean? Declare a wild as `JK=10H` (or `JK=7` for a rank).
    Meld {
        /// Only this kind of meld.
        #[arg(long = "as", value_enum)]
        kind: Option<KindArg>,
        /// The cards, e.g. 9H 10H JK; a wild may carry a declaration, JK=JH.
        #[arg(required = true)]
        cards: Vec<String>,
    },
    /// Do these melds meet a deal's contract? Or, with --hand, can this hand meet it?
    Contract {
        /// The deal, from 1.
        #[arg(long)]
        round: usize,
        /// Search this hand (one argument of space-separated cards) for a laydown.
        #[arg(long, conflicts_with = "melds")]
        hand: Option<String>,
        /// Each meld as one argument of space-separated cards.
        melds: Vec<String>,
    },
    /// The disputes register: where the sources disagree, and the readings.
    Disputes {
        #[command(subcommand)]
        action: Option<DisputesAction>,
    },
    /// Time the standard workloads (issue 7) on one core: median operations per second of
    /// several timed runs after a warm-up, with the targets. All of them unless named.
    Bench {
        /// Workloads to run: meld-check, meld-all, laydown-10, laydown-20, laydown-30,
        /// game-greedy, replay-suite.
        workloads: Vec<String>,
        /// Seconds per workload.
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
    },
    /// Play whole games with built-in players: one game's transcript, or a summary of many.
    Play {
        /// Seed of the first game (game i uses seed + i).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Players at the table (default: the fewest the rules allow).
        #[arg(long)]
        players: Option<u8>,
        /// Players by seat, cycled: greedy, random.
        #[arg(long, default_value = "greedy", value_delimiter = ',')]
        bots: Vec<String>,
        /// Number of games; more than one prints a summary.
        #[arg(long, default_value_t = 1)]
        games: u64,
        /// Games played in parallel.
        #[arg(long, default_value_t = 1)]
        jobs: usize,
    },
    /// Points of cards left in a hand.
    Score {
        #[arg(required = true)]
        cards: Vec<String>,
    },
    /// Replay a scenario file: its canonical transcript, and whether every expectation holds.
    /// `--check` compares the scenarios' golden transcripts (NAME.snap next to NAME.yaml),
    /// `--bless` rewrites them. Exit 0: all hold; 1: an expectation failed or a golden differs;
    /// 2: bad input or a missing golden.
    Replay {
        /// A scenario file; with --check or --bless any number of files and directories
        /// (searched recursively).
        #[arg(required = true)]
        paths: Vec<String>,
        /// Compare each transcript with its golden file.
        #[arg(long, conflicts_with = "bless")]
        check: bool,
        /// Write each transcript to its golden file.
        #[arg(long)]
        bless: bool,
    },
    /// Speak the conformance protocol (JSON lines, conformance/README.md) on stdin/stdout: the
    /// reference as a live oracle. `--reading` is applied over the rules the harness sends, and
    /// `--rules`, when given, replaces them: both make a deliberately different implementation.
    Serve,
    /// Run the conformance scenarios against the built-in engine or an external implementation
    /// (`--impl 'COMMAND'`, speaking the protocol), step by step. Exit 0: all pass (skips
    /// allowed); 1: a scenario failed or errored; 2: bad input. With `--random N`: differential
    /// fuzzing with the built-in players, the first divergence shrunk to a scenario file.
    Conform(ConformArgs),
    /// Explain a rejection reason code (`push-not-allowed`), a dispute (`frozen-two`), one of its
    /// readings (`frozen-two=position`) or a rule (`sets.min-size`), with the sources behind it.
    Explain {
        /// The code, dispute id, ID=READING or rule path.
        word: String,
        /// The scenarios to search for ones that expect a reason code (default: the conformance
        /// suite).
        #[arg(long, value_name = "DIR")]
        suite: Option<String>,
    },
    /// Print the JSON Schema of rules files or scenario files (for editors; the shipped copies
    /// are spec/schema/rules.schema.json and conformance/schema/scenario.schema.json).
    Schema {
        #[arg(value_enum)]
        kind: SchemaKind,
    },
    /// Print a shell completion script, e.g. `push-rummy completions bash > ~/.local/share/bash-completion/completions/push-rummy`.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), e.g. `push-rummy man > push-rummy.1; man ./push-rummy.1`.
    Man,
}

#[derive(Clone, Copy, ValueEnum)]
enum SchemaKind {
    /// Rules files (spec/*.yaml, house variants).
    Rules,
    /// Scenario files (conformance/**/*.yaml).
    Scenario,
}

#[derive(Subcommand)]
enum RulesAction {
    /// The rule sets built into the binary.
    List,
    /// The fully resolved rules (after extends and readings) as YAML.
    Show { name: Option<String> },
    /// Check rules files and print every problem found.
    Check {
        #[arg(required = true)]
        paths: Vec<String>,
    },
    /// Compare two rule sets rule by rule (built-in names or paths; `--reading` applies to both),
    /// naming the dispute readings that differ. Exit 0 when they are the same, 1 when they differ.
    Diff { a: String, b: String },
}

#[derive(Subcommand)]
enum DisputesAction {
    /// List the disputes (the default).
    List,
    /// One dispute: the question, each reading with its sources, the defaults, which rule sets
    /// use which reading, and its scenarios replayed under every reading, side by side.
    Show {
        id: String,
        /// The scenarios to search for the dispute's (default: the conformance suite).
        #[arg(long, value_name = "DIR")]
        suite: Option<String>,
    },
    /// Replay one scenario under each reading of a dispute: where the readings part, and how
    /// each ends. Exit 0 either way; 2 for bad input.
    Settle { id: String, scenario: String },
    /// Which disputes can change a scenario at all: it is replayed under every other reading of
    /// every dispute, and each that parts is named with where.
    Affecting { scenario: String },
}

#[derive(Clone, Copy, ValueEnum)]
enum KindArg {
    Set,
    Run,
}

/// The conformance suite: `./conformance` when there is one, else the one next to the sources
/// the binary was built from.
fn suite_dir() -> String {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance");
    if std::path::Path::new("conformance").is_dir() || !here.is_dir() {
        "conformance".into()
    } else {
        here.display().to_string()
    }
}

/// A failure with its exit code: 2 for bad input.
struct Failure {
    code: u8,
    text: String,
    json: Value,
}

fn bad_input(text: String) -> Failure {
    Failure {
        code: 2,
        json: json!({ "error": text }),
        text,
    }
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
            if json {
                out!(
                    "{}",
                    serde_json::to_string_pretty(&f.json).unwrap_or_default()
                );
            }
            eprint!("{}", f.text);
            if !f.text.ends_with('\n') {
                eprintln!();
            }
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
        (C::Completions { .. }, "--json") => Some("a completion script is shell code"),
        (_, "--json") => None,
        (C::Schema { .. } | C::Completions { .. } | C::Man, _) => {
            Some("this command reads no rules")
        }
        (C::Bench { .. }, "--rules") => Some("the workloads are Push's"),
        (C::Bench { .. }, _) => Some("the workloads are Push's, with its own readings"),
        (C::Explain { .. }, "--rules") => Some("an explanation covers every game"),
        (C::Explain { .. }, _) => Some("an explanation covers every reading"),
        (C::Replay { .. }, "--rules") => Some("a scenario names its own rules"),
        (C::Conform(args), "--rules") if args.random.is_none() => {
            Some("each scenario names its own rules (--rules is for --random)")
        }
        (
            C::Rules {
                action: RulesAction::List,
            },
            "--reading",
        ) => Some("the list names the rule sets, not their readings"),
        (
            C::Rules {
                action: RulesAction::Show { name: None },
            },
            _,
        ) => None,
        (C::Rules { .. }, "--rules") => Some("this rules command names its rule sets itself"),
        (
            C::Disputes {
                action: None | Some(DisputesAction::List),
            },
            "--reading",
        ) => Some("the list names every reading already"),
        (C::Disputes { .. }, "--rules") => {
            Some("the register covers every game, and a scenario names its own rules")
        }
        _ => None,
    }
}

fn run(cli: Cli) -> Result<u8, Failure> {
    let common = cli.common;
    match cli.command {
        Command::Rules { action } => rules_cmd(&common, action),
        Command::Meld { kind, cards } => meld_cmd(&common, kind, &cards),
        Command::Contract { round, hand, melds } => {
            contract_cmd(&common, round, hand.as_deref(), &melds)
        }
        Command::Score { cards } => score_cmd(&common, &cards),
        Command::Replay {
            paths,
            check,
            bless,
        } => replay_cmd(&common, &paths, check, bless),
        Command::Serve => serve_cmd(&common),
        Command::Conform(args) => conform_cmd(&common, &args),
        Command::Disputes { action } => {
            disputes_cmd(&common, action.unwrap_or(DisputesAction::List))
        }
        Command::Play {
            seed,
            players,
            bots,
            games,
            jobs,
        } => play_cmd(&common, seed, players, &bots, games, jobs),
        Command::Bench { workloads, seconds } => bench_cmd(&common, &workloads, seconds),
        Command::Explain { word, suite } => explain_cmd(&common, &word, suite),
        Command::Schema { kind } => schema_cmd(kind),
        Command::Completions { shell } => completions_cmd(shell),
        Command::Man => man_cmd(),
    }
}

fn bench_cmd(common: &Common, workloads: &[String], seconds: f64) -> Result<u8, Failure> {
    use push_rummy::suite::bench;
    if !(seconds.is_finite() && seconds > 0.0 && seconds <= 3600.0) {
        return Err(bad_input(format!(
            "--seconds {seconds}: give a number of seconds between 0 and 3600"
        )));
    }
    let names: Vec<String> = if workloads.is_empty() {
        bench::WORKLOADS.iter().map(|w| w.0.to_string()).collect()
    } else {
        workloads.to_vec()
    };
    for n in &names {
        bench::workload(n).map_err(bad_input)?;
    }
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let suite = suite_dir();
    let mut results = Vec::new();
    if !common.json {
        out!("one core of {cores}; {seconds} s per workload, median of 5 timed runs\n");
        out!(
            "{:<14} {:>16} {:>14} {:>16}",
            "workload",
            "per second",
            "per op",
            "target"
        );
    }
    for n in &names {
        let m = bench::run(n, seconds, std::path::Path::new(&suite)).map_err(bad_input)?;
        if !common.json {
            let target = match (m.target_per_second, m.meets_target) {
                (Some(t), Some(ok)) => {
                    format!("{} {}", human_rate(t), if ok { "met" } else { "NOT met" })
                }
                _ => "—".to_string(),
            };
            out!(
                "{:<14} {:>16} {:>14} {:>16}",
                m.workload,
                human_rate(m.per_second),
                human_time(m.nanos_per_op),
                target
            );
        }
        results.push(m);
    }
    if common.json {
        out!(
            "{}",
            pretty_json(&json!({ "cores": cores, "seconds": seconds, "workloads": results }))
        );
    }
    Ok(0)
}

fn human_rate(r: f64) -> String {
    if r >= 1e6 {
        format!("{:.2} M/s", r / 1e6)
    } else if r >= 1e3 {
        format!("{:.1} k/s", r / 1e3)
    } else {
        format!("{r:.2} /s")
    }
}

fn human_time(ns: f64) -> String {
    if ns >= 1e9 {
        format!("{:.2} s", ns / 1e9)
    } else if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

fn readings(common: &Common) -> Result<Vec<(DisputeId, String)>, Failure> {
    common
        .readings
        .iter()
        .map(|a| {
            rules::parse_reading_arg(a).map_err(|d| Failure {
                code: 2,
                json: json!({ "error": d.message, "hint": d.hint, "diagnostics": [d] }),
                text: d.to_string(),
            })
        })
        .collect()
}

fn load_rules(common: &Common, name: &str) -> Result<Loaded, Failure> {
    let r = readings(common)?;
    rules::load(name, &r).map_err(|e| Failure {
        code: 2,
        json: json!({ "error": "the rules could not be loaded", "diagnostics": e.diagnostics.0 }),
        text: rendered(&e),
    })
}

fn rules_cmd(common: &Common, action: RulesAction) -> Result<u8, Failure> {
    match action {
        RulesAction::List => {
            let mut list = Vec::new();
            for (name, file, _) in BUILT_IN {
                let loaded = load_rules(
                    &Common {
                        readings: vec![],
                        ..common.clone()
                    },
                    name,
                )?;
                list.push(
                    json!({ "name": name, "file": file, "title": loaded.rules.name,
                    "players": if loaded.rules.players.0 == loaded.rules.players.1 {
                        loaded.rules.players.0.to_string()
                    } else {
                        format!("{}-{}", loaded.rules.players.0, loaded.rules.players.1)
                    },
                    "deals": loaded.rules.rounds.len() }),
                );
            }
            if common.json {
                out!("{}", pretty_json(&json!({ "rules": list })));
            } else {
                for (item, (_, file, _)) in list.iter().zip(BUILT_IN) {
                    out!(
                        "{:<14} {:<32} {} players, {} deals  ({file})",
                        item["name"].as_str().unwrap_or(""),
                        item["title"].as_str().unwrap_or(""),
                        item["players"].as_str().unwrap_or(""),
                        item["deals"]
                    );
                }
            }
            Ok(0)
        }
        RulesAction::Show { name } => {
            let loaded = load_rules(common, name.as_deref().unwrap_or(&common.rules))?;
            if common.json {
                let mut rules = serde_json::Map::new();
                for def in push_rummy::rules::spec::rule_defs() {
                    if let Some(e) = loaded.raw.get(&def.path) {
                        rules.insert(def.path.clone(), leaf_json(&e.value));
                    }
                }
                out!(
                    "{}",
                    pretty_json(
                        &json!({ "game": loaded.rules.game, "from": loaded.chain, "rules": rules })
                    )
                );
            } else {
                out_raw!("{}", loaded.show());
            }
            Ok(0)
        }
        RulesAction::Check { paths } => {
            let r = readings(common)?;
            let mut all = Vec::new();
            let mut failed = false;
            // Files that load are reported on stdout, problems on stderr, each as it comes.
            for p in &paths {
                match rules::load(p, &r) {
                    Ok(l) => {
                        if !common.json {
                            out!("{p}: ok ({}, {} deals)", l.rules.name, l.rules.rounds.len());
                        }
                        all.push(json!({ "file": p, "ok": true, "diagnostics": [] }));
                    }
                    Err(e) => {
                        failed = true;
                        if !common.json {
                            eprint!("{}", rendered(&e));
                        }
                        all.push(json!({ "file": p, "ok": false, "diagnostics": e.diagnostics.0 }));
                    }
                }
            }
            if common.json {
                out!("{}", pretty_json(&json!({ "files": all })));
            }
            Ok(if failed { 2 } else { 0 })
        }
        RulesAction::Diff { a, b } => {
            let (la, lb) = (load_rules(common, &a)?, load_rules(common, &b)?);
            let mut diffs = Vec::new();
            for def in push_rummy::rules::spec::rule_defs() {
                if push_rummy::rules::spec::META.contains(&def.path.as_str()) {
                    continue;
                }
                let va = la.raw.get(&def.path).map(|e| leaf_json(&e.value));
                let vb = lb.raw.get(&def.path).map(|e| leaf_json(&e.value));
                if va != vb {
                    let dispute = def.path.strip_prefix("readings.").map(str::to_string);
                    diffs.push(json!({ "rule": def.path, "a": va, "b": vb, "dispute": dispute }));
                }
            }
            if common.json {
                out!(
                    "{}",
                    pretty_json(
                        &json!({ "a": a, "b": b, "same": diffs.is_empty(), "differences": diffs })
                    )
                );
            } else if diffs.is_empty() {
                out!(
                    "{a} and {b} have the same rules ({} and {})",
                    la.rules.name,
                    lb.rules.name
                );
            } else {
                out!(
                    "{a} ({}) | {b} ({}): {} rule(s) differ",
                    la.rules.name,
                    lb.rules.name,
                    diffs.len()
                );
                let text = |l: &Loaded, path: &str| {
                    l.raw.get(path).map_or_else(
                        || "(unset)".to_string(),
                        |e| push_rummy::rules::spec::Leaf::text(&e.value),
                    )
                };
                for d in &diffs {
                    let rule = d["rule"].as_str().unwrap_or("");
                    let label = match d["dispute"].as_str() {
                        Some(id) => format!("dispute {id}"),
                        None => rule.to_string(),
                    };
                    out!("  {label}: {} | {}", text(&la, rule), text(&lb, rule));
                }
            }
            Ok(if diffs.is_empty() { 0 } else { 1 })
        }
    }
}

fn leaf_json(l: &push_rummy::rules::spec::Leaf) -> Value {
    use push_rummy::rules::spec::Leaf;
    match l {
        Leaf::Text(s) | Leaf::Choice(s) => json!(s),
        Leaf::Int(n) => json!(n),
        Leaf::Bool(b) => json!(b),
        Leaf::Range(a, b) => json!({ "min": a, "max": b }),
        Leaf::Rounds(r) => json!(r
            .iter()
            .map(|x| json!({ "deal": x.deal, "contract": x.contract.iter().map(|c| c.to_string()).collect::<Vec<_>>() }))
            .collect::<Vec<_>>()),
    }
}

fn pretty_json(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

/// Reads `CARD` or `CARD=TARGET` arguments (each argument may hold several, space-separated).
fn parse_meld_args(args: &[String]) -> Result<Query, Failure> {
    let mut q = Query::default();
    if args.iter().all(|a| a.trim().is_empty()) {
        return Err(bad_input("no cards given".into()));
    }
    for arg in args {
        for tok in arg
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
        {
            let (card, decl) = match tok.split_once('=') {
                Some((c, t)) => (c, Some(t)),
                None => (tok, None),
            };
            let card: Card =
                card.parse()
                    .map_err(|e: push_rummy::base::card::CardParseError| {
                        // Name the whole word where the card is only part of it (`=10H`).
                        if decl.is_some() {
                            bad_input(format!("in `{tok}`: {e}"))
                        } else {
                            bad_input(e.to_string())
                        }
                    })?;
            if let Some(t) = decl {
                if !card.is_joker() && !card.is_two() {
                    return Err(bad_input(format!(
                        "`{tok}`: only a wild card (a joker or a 2) can be declared to stand for another card"
                    )));
                }
                let target: Target =
                    t.parse()
                        .map_err(|e: push_rummy::base::card::CardParseError| {
                            bad_input(format!("in the declaration `{tok}`: {e}"))
                        })?;
                q.declared.push((card, target));
            }
            q.cards.push(card);
        }
    }
    Ok(q)
}

/// A card this game's pack lacks (exit 1: understood, but not in this game).
fn pack_problem(rules: &push_rummy::rules::Rules, cards: &[Card]) -> Option<String> {
    let (decks, jokers) = rules.pack(rules.players.1);
    // Counted here in full: a `Counts` holds at most 255 of a card.
    let mut counts = [0usize; push_rummy::base::card::KINDS];
    for c in cards {
        counts[c.index()] += 1;
    }
    for c in push_rummy::base::card::cards_in(cards.iter().fold(0u64, |m, c| m | 1 << c.index())) {
        let k = counts[c.index()];
        let have = usize::from(if c.is_joker() { jokers } else { decks });
        if k > have {
            return Some(if have == 0 {
                format!(
                    "{} is not in this game's pack ({} has no jokers)",
                    c.pretty(),
                    rules.name
                )
            } else {
                format!(
                    "the pack of {} has {have} × {}, and {k} were given",
                    rules.name,
                    c.pretty()
                )
            });
        }
    }
    None
}

fn interp_json(i: &Interpretation) -> Value {
    let cards: Vec<Value> = i
        .roles
        .iter()
        .map(|r| json!({ "card": r.card.to_string(), "as": r.stands_for.to_string(), "natural": r.natural }))
        .collect();
    let mut v = json!({ "kind": i.kind.name(), "cards": cards });
    if let Some(r) = i.rank {
        v["rank"] = json!(r.name());
    }
    if i.kind == MeldKind::Run {
        v["suit"] = match i.suit {
            Some(s) => json!(s.letter().to_string()),
            None => Value::Null,
        };
    }
    v
}

fn interp_text(i: &Interpretation) -> String {
    let roles: Vec<String> = i
        .roles
        .iter()
        .map(|r| {
            if r.natural {
                r.card.pretty()
            } else {
                format!("{}={}", r.card.pretty(), r.stands_for.pretty())
            }
        })
        .collect();
    format!("{}: {}", i.describe(), roles.join(" "))
}

fn meld_cmd(common: &Common, kind: Option<KindArg>, args: &[String]) -> Result<u8, Failure> {
    let loaded = load_rules(common, &common.rules)?;
    let rules = &loaded.rules;
    let mut q = parse_meld_args(args)?;
    if q.cards.len() > meld::MAX_MELD_CARDS {
        return Err(bad_input(format!(
            "{} cards: a meld holds at most {} (docs/LIMITS.md)",
            q.cards.len(),
            meld::MAX_MELD_CARDS
        )));
    }
    q.kind = kind.map(|k| match k {
        KindArg::Set => MeldKind::Set,
        KindArg::Run => MeldKind::Run,
    });
    let v = match pack_problem(rules, &q.cards) {
        Some(p) => meld::Verdict {
            interpretations: vec![],
            truncated: false,
            reason: p,
        },
        None => meld::interpret(rules, &q),
    };
    let ambiguous = v.interpretations.len() > 1;
    if common.json {
        let interps: Vec<Value> = v.interpretations.iter().map(interp_json).collect();
        out!(
            "{}",
            pretty_json(&json!({
                "rules": rules.game,
                "cards": q.cards.iter().map(Card::to_string).collect::<Vec<_>>(),
                "valid": v.is_valid(),
                "ambiguous": ambiguous,
                "interpretations": interps,
                "truncated": v.truncated,
                "error": if v.is_valid() { Value::Null } else { json!(v.reason) },
            }))
        );
    } else if v.is_valid() {
        let n = v.interpretations.len();
        out!(
            "valid meld under {} — {n} interpretation{}{}",
            rules.name,
            if n == 1 { "" } else { "s" },
            if ambiguous {
                " (a player must say which, unless wild-declaration=never)"
            } else {
                ""
            }
        );
        for i in &v.interpretations {
            out!("  {}", interp_text(i));
        }
        if v.truncated {
            out!("  … (list truncated at {})", meld::MAX_INTERPRETATIONS);
        }
    } else {
        out!("not a meld: {}", v.reason);
    }
    Ok(if v.is_valid() { 0 } else { 1 })
}

fn contract_cmd(
    common: &Common,
    round: usize,
    hand: Option<&str>,
    melds: &[String],
) -> Result<u8, Failure> {
    let loaded = load_rules(common, &common.rules)?;
    let rules = &loaded.rules;
    let deals = rules.rounds.len();
    let Some(r) = round.checked_sub(1).and_then(|i| rules.rounds.get(i)) else {
        return Err(bad_input(format!(
            "--round {round}: {} has deals 1 to {deals}",
            rules.name
        )));
    };
    let names: Vec<String> = r.contract.iter().map(|c| c.to_string()).collect();
    if let Some(hand) = hand {
        let q = parse_meld_args(&[hand.to_string()])
            .map_err(|f| bad_input(format!("--hand: {}", f.text)))?;
        let problem = pack_problem(rules, &q.cards);
        if let (Some(p), false) = (&problem, common.json) {
            out!("no laydown: {p}");
            return Ok(1);
        }
        let counts = Counts::from_cards(&q.cards);
        let found = match problem {
            Some(_) => None,
            None => contract::laydown(rules, &r.contract, &counts),
        };
        if common.json {
            let laydown: Vec<Value> = found
                .iter()
                .flat_map(|l| l.melds.iter())
                .map(|(c, cards)| json!({ "meld": c.to_string(), "cards": cards.iter().map(Card::to_string).collect::<Vec<_>>() }))
                .collect();
            out!(
                "{}",
                pretty_json(
                    &json!({ "round": round, "contract": names, "found": found.is_some(), "laydown": laydown })
                )
            );
        } else {
            match &found {
                Some(l) => {
                    out!("contract {} can be met:", names.join(" + "));
                    for (c, cards) in &l.melds {
                        let v = meld::interpret(
                            rules,
                            &Query {
                                cards: cards.clone(),
                                kind: Some(c.kind),
                                declared: vec![],
                            },
                        );
                        match v.interpretations.first() {
                            Some(i) => out!("  {c}: {}", interp_text(i)),
                            None => out!(
                                "  {c}: {}",
                                cards
                                    .iter()
                                    .map(|x| x.pretty())
                                    .collect::<Vec<_>>()
                                    .join(" ")
                            ),
                        }
                    }
                }
                None => out!(
                    "contract {} cannot be met from this hand",
                    names.join(" + ")
                ),
            }
        }
        return Ok(if found.is_some() { 0 } else { 1 });
    }
    if melds.is_empty() {
        return Err(bad_input(
            "give the melds (each one argument) or --hand \"CARDS\"".into(),
        ));
    }
    let mut queries = Vec::new();
    for (i, m) in melds.iter().enumerate() {
        // Which meld argument is wrong, where there are several.
        let q = parse_meld_args(std::slice::from_ref(m))
            .map_err(|f| bad_input(format!("meld {} (`{}`): {}", i + 1, m.trim(), f.text)))?;
        queries.push(q);
    }
    let all: Vec<Card> = queries
        .iter()
        .flat_map(|q| q.cards.iter().copied())
        .collect();
    if let Some(p) = pack_problem(rules, &all) {
        if common.json {
            out!(
                "{}",
                pretty_json(
                    &json!({ "round": round, "contract": names, "satisfied": false,
                    "assignment": vec![Value::Null; queries.len()], "reason": p })
                )
            );
        } else {
            out!("not satisfied: {p}");
        }
        return Ok(1);
    }
    let c = contract::check(rules, &r.contract, &queries);
    if common.json {
        let assigned: Vec<Value> = c
            .assignment
            .iter()
            .map(|a| a.map_or(Value::Null, |x| json!(x.to_string())))
            .collect();
        out!(
            "{}",
            pretty_json(
                &json!({ "round": round, "contract": names, "satisfied": c.satisfied, "assignment": assigned,
                "reason": if c.satisfied { Value::Null } else { json!(c.reason) } })
            )
        );
    } else if c.satisfied {
        out!("contract {} satisfied", names.join(" + "));
    } else {
        out!("not satisfied: {}", c.reason);
    }
    Ok(if c.satisfied { 0 } else { 1 })
}

fn score_cmd(common: &Common, args: &[String]) -> Result<u8, Failure> {
    let loaded = load_rules(common, &common.rules)?;
    let rules = &loaded.rules;
    let q = parse_meld_args(args)?;
    if !q.declared.is_empty() {
        return Err(bad_input(
            "score takes plain cards, not declarations".into(),
        ));
    }
    // Cards the pack cannot hold all at once: understood, and the answer is that they cannot be
    // scored together (exit 1, as `meld` and `contract` answer for such cards).
    if let Some(p) = pack_problem(rules, &q.cards) {
        out!(
            "{}",
            if common.json {
                pretty_json(&json!({ "error": p }))
            } else {
                p
            }
        );
        return Ok(1);
    }
    let per: Vec<(Card, u32)> = q.cards.iter().map(|&c| (c, rules.points(c))).collect();
    let total: u32 = per.iter().map(|(_, p)| p).sum();
    if common.json {
        let cards: Vec<Value> = per
            .iter()
            .map(|(c, p)| json!({ "card": c.to_string(), "points": p }))
            .collect();
        out!(
            "{}",
            pretty_json(&json!({ "rules": rules.game, "points": total, "cards": cards }))
        );
    } else {
        let parts: Vec<String> = per
            .iter()
            .map(|(c, p)| format!("{} {p}", c.pretty()))
            .collect();
        out!("{total} points ({})", parts.join(", "));
    }
    Ok(0)
}

/// What many games add up to (kept small: memory does not grow with the number of games).
#[derive(Default)]
struct Summary {
    games: u64,
    /// Wins per side (a shared win counts for each winner).
    wins: Vec<u64>,
    totals: Vec<i64>,
    hands: u64,
    actions: u64,
    went_out: u64,
    stock_out: u64,
    stalled: u64,
}

impl Summary {
    fn add(&mut self, p: &push_rummy::engine::bots::Played) {
        use push_rummy::engine::game::HandEnd;
        let g = &p.game;
        if self.wins.len() < g.totals.len() {
            self.wins.resize(g.totals.len(), 0);
            self.totals.resize(g.totals.len(), 0);
        }
        self.games += 1;
        for &w in &g.winners {
            self.wins[usize::from(w)] += 1;
        }
        for (t, x) in self.totals.iter_mut().zip(&g.totals) {
            *t += x;
        }
        self.hands += g.results.len() as u64;
        self.actions += p.actions.len() as u64;
        for r in g.results.iter() {
            match r.end {
                HandEnd::WentOut(_) => self.went_out += 1,
                HandEnd::StockOut => self.stock_out += 1,
                HandEnd::Stalled => self.stalled += 1,
            }
        }
    }

    fn merge(&mut self, o: Summary) {
        if self.wins.len() < o.wins.len() {
            self.wins.resize(o.wins.len(), 0);
            self.totals.resize(o.totals.len(), 0);
        }
        self.games += o.games;
        for (a, b) in self.wins.iter_mut().zip(o.wins) {
            *a += b;
        }
        for (a, b) in self.totals.iter_mut().zip(o.totals) {
            *a += b;
        }
        self.hands += o.hands;
        self.actions += o.actions;
        self.went_out += o.went_out;
        self.stock_out += o.stock_out;
        self.stalled += o.stalled;
    }
}

fn play_cmd(
    common: &Common,
    seed: u64,
    players: Option<u8>,
    bots: &[String],
    games: u64,
    jobs: usize,
) -> Result<u8, Failure> {
    use push_rummy::engine::bots::{self as b, Bot};
    use push_rummy::engine::game::Game;
    use std::io::IsTerminal;
    use std::sync::atomic::{AtomicU64, Ordering};
    let loaded = load_rules(common, &common.rules)?;
    let rules = std::sync::Arc::new(loaded.rules);
    let players = players.unwrap_or(rules.players.0);
    let bots: Vec<Bot> = bots
        .iter()
        .map(|n| {
            Bot::parse(n.trim())
                .ok_or_else(|| bad_input(format!("unknown bot `{n}`: the bots are greedy, random")))
        })
        .collect::<Result<_, _>>()?;
    if bots.is_empty() {
        return Err(bad_input("name at least one bot".into()));
    }
    let new_game = |s: u64| {
        Game::new(rules.clone(), players, 0, s, vec![]).map_err(|e| bad_input(e.to_string()))
    };
    if games == 1 {
        let p = b::play(new_game(seed)?, &bots, seed, cfg!(debug_assertions));
        if common.json {
            let actions: Vec<Value> = p
                .actions
                .iter()
                .map(|(s, a)| json!({ "seat": s, "action": a.to_string() }))
                .collect();
            out!(
                "{}",
                pretty_json(
                    &json!({ "rules": rules.game, "players": players, "seed": seed, "actions": actions,
                    "events": p.events, "totals": p.game.totals, "winners": p.game.winners })
                )
            );
        } else {
            print_game(&look(common), new_game(seed)?, &p)?;
        }
        return Ok(0);
    }
    // Validate the setup once before spreading out.
    new_game(seed)?;
    let jobs = jobs.clamp(1, 64);
    let done = AtomicU64::new(0);
    let show_progress = std::io::stderr().is_terminal() && games >= 100;
    let summary = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs as u64)
            .map(|j| {
                let (rules, bots, done) = (&rules, &bots, &done);
                scope.spawn(move || {
                    let mut s = Summary::default();
                    let mut k = j;
                    while k < games {
                        let g = Game::new(
                            rules.clone(),
                            players,
                            (k % u64::from(players)) as u8,
                            seed + k,
                            vec![],
                        )
                        .expect("validated above");
                        s.add(&b::play(g, bots, seed + k, false));
                        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                        if show_progress && n % 100 == 0 {
                            eprint!("\rplayed {n}/{games}");
                        }
                        k += jobs as u64;
                    }
                    s
                })
            })
            .collect();
        let mut total = Summary::default();
        for h in handles {
            total.merge(h.join().expect("a game thread does not panic"));
        }
        total
    });
    if show_progress {
        eprintln!("\rplayed {games}/{games}");
    }
    let avg: Vec<f64> = summary
        .totals
        .iter()
        .map(|t| *t as f64 / summary.games as f64)
        .collect();
    if common.json {
        out!(
            "{}",
            pretty_json(
                &json!({ "rules": rules.game, "players": players, "games": summary.games, "wins": summary.wins,
                "average_totals": avg, "hands": summary.hands, "average_actions_per_hand": summary.actions as f64 / summary.hands.max(1) as f64,
                "hand_ends": { "went_out": summary.went_out, "stock_out": summary.stock_out, "stalled": summary.stalled } })
            )
        );
    } else {
        out!(
            "{} games of {} with {players} players ({})",
            summary.games,
            rules.name,
            bots.iter().map(|b| b.name()).collect::<Vec<_>>().join(",")
        );
        for (side, w) in summary.wins.iter().enumerate() {
            out!("  side {side}: {w} wins, average total {:.1}", avg[side]);
        }
        out!(
            "  hands: {} ({:.1} actions each); went out {}, stock ran out {}, stalled {}",
            summary.hands,
            summary.actions as f64 / summary.hands.max(1) as f64,
            summary.went_out,
            summary.stock_out,
            summary.stalled
        );
    }
    Ok(0)
}

/// One game for people: the table as each deal starts, what happens, the table just before the
/// play that ends each deal, and the result. The game is played again from `start` with the
/// recorded actions (the engine is deterministic), to see the table on the way.
fn print_game(
    look: &push_rummy::help::term::Look,
    start: push_rummy::engine::game::Game,
    p: &push_rummy::engine::bots::Played,
) -> Result<(), Failure> {
    use push_rummy::engine::game::Event;
    use push_rummy::help::term::table_view;
    use push_rummy::suite::transcript::state;
    let mut g = start;
    out_raw!(
        "{}",
        look.paint(&table_view(&state(&g), "the table as the deal starts"))
    );
    for (seat, a) in &p.actions {
        let before = g.clone();
        let events = g
            .apply(*seat, a)
            .map_err(|e| bad_input(format!("replaying the game: {e}")))?;
        if events.iter().any(|e| matches!(e, Event::HandEnded { .. })) {
            out_raw!(
                "{}",
                look.paint(&table_view(
                    &state(&before),
                    "the table before the last play"
                ))
            );
        }
        for e in &events {
            out!("{}", look.paint(&event_text(e)));
        }
        if events.iter().any(|e| matches!(e, Event::Dealt { .. })) {
            out_raw!(
                "{}",
                look.paint(&table_view(&state(&g), "the table as the deal starts"))
            );
        }
    }
    out!(
        "{}",
        look.paint(&format!(
            "totals {:?}; winner(s): {:?}",
            p.game.totals, p.game.winners
        ))
    );
    Ok(())
}

/// One event of a played game for people: the transcript's wording, deals and the end of the game
/// set off.
fn event_text(e: &push_rummy::engine::game::Event) -> String {
    use push_rummy::engine::game::Event as E;
    let text = push_rummy::suite::transcript::event_text(e);
    match e {
        E::Dealt { .. } | E::GameEnded { .. } => format!("— {text}"),
        _ => format!("  {text}"),
    }
}

fn disputes_cmd(common: &Common, action: DisputesAction) -> Result<u8, Failure> {
    use push_rummy::rules::disputes::register;
    let reg = register::get();
    match action {
        DisputesAction::List => {
            if common.json {
                let list: Vec<Value> = reg
                    .disputes
                    .iter()
                    .map(|e| json!({ "id": e.id, "title": e.title, "games": e.games, "kind": e.kind,
                        "readings": e.readings.iter().map(|r| r.name.clone()).collect::<Vec<_>>(),
                        "defaults": e.defaults.iter().map(|(g, d)| (g.clone(), json!(d.reading))).collect::<serde_json::Map<_, _>>() }))
                    .collect();
                out!("{}", pretty_json(&json!({ "disputes": list })));
            } else {
                for e in &reg.disputes {
                    let names: Vec<&str> = e.readings.iter().map(|r| r.name.as_str()).collect();
                    out!("{:<28} {} — {}", e.id, names.join(" | "), e.title);
                }
                out!(
                    "\n`push-rummy disputes show ID` explains one; `--reading ID=READING` picks a reading."
                );
            }
            Ok(0)
        }
        DisputesAction::Show { id, suite } => {
            let dispute = dispute_arg(&id)?;
            let e = reg
                .disputes
                .iter()
                .find(|e| e.id == id)
                .expect("the register and the generated ids agree");
            // Which rule sets use which reading.
            let mut users: Vec<(String, String)> = Vec::new();
            for (name, _, _) in BUILT_IN {
                if let Ok(l) = rules::load(name, &[]) {
                    users.push((name.to_string(), l.rules.readings.name(dispute).to_string()));
                }
            }
            let dir = suite.unwrap_or_else(suite_dir);
            let files = settle::scenarios_of(std::path::Path::new(&dir), dispute)
                .map_err(|err| bad_input(format!("{dir}: {err}")))?;
            let extra = readings(common)?;
            let mut settlements = Vec::new();
            for f in &files {
                match settle::settle(f, dispute, &extra) {
                    Ok(s) => settlements.push(s),
                    Err(err) => return Err(load_failure(&err)),
                }
            }
            if common.json {
                out!(
                    "{}",
                    pretty_json(
                        &json!({ "dispute": e, "rule_sets": users.iter().map(|(n, r)| json!({ "rules": n, "reading": r })).collect::<Vec<_>>(), "scenarios": settlements })
                    )
                );
            } else {
                out!("{} — {}", e.id, e.title);
                out!("{}", e.question);
                out!("games: {}; kind: {}", e.games.join(", "), e.kind.join(", "));
                for r in &e.readings {
                    out!("\nreading `{}`: {}", r.name, r.meaning);
                    if r.sources.is_empty() {
                        out!("  no source states it (an engine or house choice)");
                    }
                    for c in &r.sources {
                        out!("  {}: {}", c.source, c.says);
                    }
                    let using: Vec<&str> = users
                        .iter()
                        .filter(|(_, x)| *x == r.name)
                        .map(|(n, _)| n.as_str())
                        .collect();
                    if !using.is_empty() {
                        out!("  used by: {}", using.join(", "));
                    }
                }
                out!("\ndefaults:");
                for (game, d) in &e.defaults {
                    out!("  {game}: `{}` — {}", d.reading, d.why);
                }
            }
            if !common.json {
                out!(
                    "\nscenarios ({} in {dir} name this dispute), replayed under each reading:",
                    settlements.len()
                );
                for s in &settlements {
                    print_settlement(s);
                }
            }
            Ok(0)
        }
        DisputesAction::Settle { id, scenario } => {
            let dispute = dispute_arg(&id)?;
            let extra = readings(common)?;
            let s = settle::settle(std::path::Path::new(&scenario), dispute, &extra)
                .map_err(|err| load_failure(&err))?;
            if common.json {
                out!("{}", pretty_json(&json!(s)));
            } else {
                out!("{} — under each reading of {}", s.scenario, s.dispute);
                print_settlement(&s);
            }
            Ok(0)
        }
        DisputesAction::Affecting { scenario } => {
            let extra = readings(common)?;
            let found = settle::affecting(std::path::Path::new(&scenario), &extra)
                .map_err(|err| load_failure(&err))?;
            if common.json {
                out!(
                    "{}",
                    pretty_json(&json!({ "scenario": scenario, "disputes": found }))
                );
            } else if found.is_empty() {
                out!("{scenario}: no reading of any dispute changes it");
            } else {
                out!(
                    "{scenario}: {} dispute(s) can change it; each with the reading in force, then where each other reading parts:",
                    found.len()
                );
                for a in &found {
                    out!("  {} (in force: {})", a.dispute, a.in_force);
                    for (reading, p) in &a.partings {
                        out!("    {reading}: {}", settle::describe_parting(p));
                    }
                }
            }
            Ok(0)
        }
    }
}

fn dispute_arg(id: &str) -> Result<DisputeId, Failure> {
    DisputeId::from_id(id).ok_or_else(|| {
        let ids: Vec<&str> = DisputeId::ALL.iter().map(|d| d.id()).collect();
        let hint = match push_rummy::base::diag::did_you_mean(id, ids.iter().copied()) {
            Some(m) => format!(" (did you mean `{m}`?)"),
            None => String::new(),
        };
        bad_input(format!(
            "unknown dispute `{id}`{hint}; the disputes are: {}",
            ids.join(", ")
        ))
    })
}

/// A settlement for people: each reading's end, then where each other reading parts.
fn print_settlement(s: &settle::Settlement) {
    out!("\n  {} — {}", s.scenario, s.title);
    for r in &s.runs {
        let mark = if r.in_force { " (in force)" } else { "" };
        match &r.end {
            Ok(e) => out!(
                "    {}{mark}: steps [{}], totals {:?}{}",
                r.reading,
                e.results.join(", "),
                e.totals,
                if e.game_over {
                    format!(", game over, winners {:?}", e.winners)
                } else {
                    String::new()
                }
            ),
            Err(why) => out!("    {}{mark}: cannot be set up: {why}", r.reading),
        }
    }
    for (reading, p) in &s.partings {
        match p {
            Some(p) => out!("    {reading} parts at {}", settle::describe_parting(p)),
            None => out!("    {reading}: the same outcome"),
        }
    }
}

/// `replay`: one scenario's transcript, or `--check` / `--bless` over files and directories.
fn replay_cmd(common: &Common, paths: &[String], check: bool, bless: bool) -> Result<u8, Failure> {
    use push_rummy::suite::scenario;
    use push_rummy::suite::transcript::{self, Replay};
    let extra = readings(common)?;
    let mut files = Vec::new();
    for p in paths {
        let path = std::path::Path::new(p);
        if path.is_dir() {
            if !(check || bless) {
                return Err(bad_input(format!(
                    "{p} is a directory: replay prints one scenario; use --check or --bless for a directory"
                )));
            }
            let found =
                scenario::find_scenarios(path).map_err(|e| bad_input(format!("{p}: {e}")))?;
            if found.is_empty() {
                return Err(bad_input(format!("{p}: no scenario files (*.yaml) found")));
            }
            files.extend(found);
        } else {
            files.push(path.to_path_buf());
        }
    }
    let load = |f: &std::path::Path| {
        scenario::load(f, &extra).map_err(|e| Failure {
            code: 2,
            json: json!({ "error": "the scenario could not be loaded", "file": f.display().to_string(), "diagnostics": e.diagnostics.0 }),
            text: rendered(&e),
        })
    };
    let report_failures = |f: &std::path::Path, r: &Replay| {
        for x in &r.failures {
            eprintln!("{}:{}: step {}: {}", f.display(), x.line, x.step, x.message);
        }
    };
    if !(check || bless) {
        if files.len() != 1 {
            return Err(bad_input(
                "replay prints one scenario; give one file, or use --check or --bless for several"
                    .into(),
            ));
        }
        let f = &files[0];
        let s = load(f)?;
        let r = transcript::replay(&s);
        if common.json {
            out!("{}", pretty_json(&r.transcript.json()));
        } else {
            // The canonical text; on a terminal with suit symbols and colour.
            out_raw!("{}", look(common).paint(&r.transcript.text()));
        }
        report_failures(f, &r);
        return Ok(if r.failures.is_empty() { 0 } else { 1 });
    }
    let mut worst = 0u8;
    let mut results = Vec::new();
    let (mut ok, mut differ, mut failed, mut missing, mut bad) = (0, 0, 0, 0, 0);
    for f in &files {
        let name = f.display().to_string();
        let s = match load(f) {
            Ok(s) => s,
            Err(e) => {
                eprint!("{}", e.text);
                bad += 1;
                worst = 2;
                results.push(json!({ "file": name, "status": "bad-input", "diagnostics": e.json["diagnostics"] }));
                continue;
            }
        };
        let r = transcript::replay(&s);
        let text = r.transcript.text();
        let golden = transcript::golden_path(f);
        let held = r.failures.is_empty();
        if !held {
            report_failures(f, &r);
            failed += 1;
            worst = worst.max(1);
        }
        if bless {
            let body = transcript::golden_file(&text);
            let before = std::fs::read_to_string(&golden).ok();
            let status = if before.as_deref() == Some(body.as_str()) {
                "unchanged"
            } else if let Err(e) = std::fs::write(&golden, &body) {
                eprintln!("{}: cannot write: {e}", golden.display());
                worst = 2;
                "write-failed"
            } else {
                "blessed"
            };
            if !common.json {
                out!("{status:<9} {}", golden.display());
            }
            results.push(json!({ "file": name, "golden": golden.display().to_string(), "status": status, "held": held }));
            continue;
        }
        let Ok(stored) = std::fs::read_to_string(&golden) else {
            eprintln!(
                "{name}: no golden transcript {} (run `push-rummy replay --bless {name}` and review it)",
                golden.display()
            );
            missing += 1;
            worst = 2;
            results.push(json!({ "file": name, "status": "missing-golden", "held": held }));
            continue;
        };
        let Some(want) = transcript::golden_contents(&stored) else {
            eprintln!(
                "{}: not a golden transcript (it must start with a `---` header)",
                golden.display()
            );
            bad += 1;
            worst = 2;
            results.push(json!({ "file": name, "status": "bad-golden", "held": held }));
            continue;
        };
        if want == text.trim_end() {
            if held {
                ok += 1;
            }
            if !common.json {
                out!("{:<9} {name}", if held { "ok" } else { "FAILED" });
            }
            results.push(json!({ "file": name, "status": "same", "held": held }));
        } else {
            differ += 1;
            worst = worst.max(1);
            let d = transcript::diff(&want, text.trim_end(), 60);
            if !common.json {
                out!("DIFFERS   {name} (- golden {}, + replay)", golden.display());
                out_raw!("{d}");
            }
            results.push(json!({ "file": name, "status": "differs", "held": held, "diff": d }));
        }
    }
    if common.json {
        out!("{}", pretty_json(&json!({ "scenarios": results })));
    } else if check {
        out!(
            "{} scenario(s): {ok} ok, {differ} differ from their golden, {failed} with failed expectations, {missing} without golden, {bad} unreadable",
            files.len()
        );
    }
    Ok(worst)
}

fn serve_cmd(common: &Common) -> Result<u8, Failure> {
    let r = readings(common)?;
    // `--rules` replaces the harness's rules only when given on the command line (it has a
    // default for the other commands).
    let fixed = if common.rules_given {
        Some(load_rules(common, &common.rules)?)
    } else {
        None
    };
    let mut server = push_rummy::suite::protocol::Server::new(r, fixed);
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut output = stdout.lock();
    match push_rummy::suite::protocol::serve(&mut server, &mut input, &mut output) {
        Ok(()) => Ok(0),
        // The harness went away: nothing more to say.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(0),
        Err(e) => Err(bad_input(format!("serve: {e}"))),
    }
}

#[derive(clap::Args)]
struct ConformArgs {
    /// A directory of scenarios (searched recursively) or one scenario file.
    dir: Option<String>,
    /// The implementation under test: a command line, started once per scenario.
    #[arg(long = "impl", value_name = "COMMAND")]
    implementation: Option<String>,
    /// List the rules and dispute readings each scenario exercises, and those none touches.
    #[arg(long)]
    coverage: bool,
    /// Play this many random games against the implementation (needs --impl).
    #[arg(long, value_name = "N")]
    random: Option<u64>,
    /// Seed of the first random game (game i uses seed + i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Players at the table in random games (default: the fewest the rules allow).
    #[arg(long)]
    players: Option<u8>,
    /// Where --random writes the shrunk scenario.
    #[arg(long, default_value = ".")]
    out: String,
    /// Milliseconds to wait for each reply of the implementation.
    #[arg(long, default_value_t = push_rummy::suite::protocol::DEFAULT_TIMEOUT_MS)]
    timeout: u64,
}

fn conform_cmd(common: &Common, a: &ConformArgs) -> Result<u8, Failure> {
    use push_rummy::suite::conform::{self, ImplSpec, Options, Verdict};
    let imp = match &a.implementation {
        Some(c) => ImplSpec::parse_command(c).map_err(bad_input)?,
        None => ImplSpec::BuiltIn,
    };
    if a.timeout == 0 {
        return Err(bad_input("--timeout: give at least 1 millisecond".into()));
    }
    let opts = Options {
        timeout: std::time::Duration::from_millis(a.timeout),
    };
    if let Some(n) = a.random {
        if matches!(imp, ImplSpec::BuiltIn) {
            return Err(bad_input(
                "--random compares an implementation with the reference: give --impl 'COMMAND'"
                    .into(),
            ));
        }
        let loaded = load_rules(common, &common.rules)?;
        let rules_name = if common.rules.contains('/') || common.rules.ends_with(".yaml") {
            std::fs::canonicalize(&common.rules)
                .map(|p| p.display().to_string())
                .unwrap_or_else(|_| common.rules.clone())
        } else {
            common.rules.clone()
        };
        if let Some(p) = a.players
            && (p < loaded.rules.players.0 || p > loaded.rules.players.1)
        {
            return Err(bad_input(format!(
                "--players {p}: {} is played by {} to {} players",
                loaded.rules.name, loaded.rules.players.0, loaded.rules.players.1
            )));
        }
        let fo = conform::FuzzOptions {
            games: n,
            seed: a.seed,
            rules_name,
            readings: readings(common)?,
            players: a.players,
            out: std::path::PathBuf::from(&a.out),
            probes: 4,
        };
        let report = conform::fuzz(&loaded, &imp, &fo, &opts).map_err(bad_input)?;
        if common.json {
            out!(
                "{}",
                pretty_json(&serde_json::to_value(&report).unwrap_or_default())
            );
        } else {
            out!(
                "{} random game(s) of {} against {} ({}): {} compared to the end, {} skipped, {} errored, {} actions",
                report.games,
                loaded.rules.name,
                imp.describe(),
                conform::FUZZ_BOTS,
                report.compared_games,
                report.skipped_games.len(),
                report.errored_games.len(),
                report.actions
            );
            for (g, r) in &report.skipped_games {
                out!("  game {g} skipped: {r}");
            }
            for (g, e) in &report.errored_games {
                out!("  game {g} errored: {e}");
            }
            if let Some(f) = &report.found {
                out!(
                    "DIVERGENCE in game {} (seed {}) at action {}",
                    f.game,
                    f.seed,
                    f.original
                );
                out!("shrunk to one action: {}", f.shrunk);
                out!("{}", f.file.display());
            } else {
                out!("no divergence");
            }
        }
        let code = if report.found.is_some() || !report.errored_games.is_empty() {
            1
        } else {
            0
        };
        return Ok(code);
    }
    let dir = a.dir.clone().unwrap_or_else(suite_dir);
    let path = std::path::Path::new(&dir);
    if !path.exists() {
        return Err(bad_input(format!("{dir}: no such file or directory")));
    }
    if !common.readings.is_empty() {
        return Err(bad_input(
            "conform runs each scenario under its own rules: --reading applies only with --random (give readings to the implementation instead, e.g. `serve --reading …`)".into(),
        ));
    }
    if a.coverage {
        let (cov, invalid) = conform::coverage(path).map_err(bad_input)?;
        for (f, d) in &invalid {
            eprint!("{f} does not load:\n{d}");
        }
        if common.json {
            out!(
                "{}",
                pretty_json(&serde_json::to_value(&cov).unwrap_or_default())
            );
        } else {
            for e in &cov.scenarios {
                out!("{}", e.file);
                out!(
                    "  rules: {}",
                    if e.rules.is_empty() {
                        "none".into()
                    } else {
                        e.rules.join(", ")
                    }
                );
                out!(
                    "  readings: {}",
                    if e.readings.is_empty() {
                        "none".into()
                    } else {
                        e.readings.join(", ")
                    }
                );
                if !e.readings_in_force.is_empty() {
                    out!(
                        "  in force (not push's default): {}",
                        e.readings_in_force.join(", ")
                    );
                }
            }
            // `LABEL: N[ of TOTAL][: item, item, …]`
            let count = |label: &str, items: &[String], total: Option<usize>| {
                let of = total.map(|t| format!(" of {t}")).unwrap_or_default();
                let list = if items.is_empty() {
                    String::new()
                } else {
                    format!(": {}", items.join(", "))
                };
                out!("{label}: {}{of}{list}", items.len());
            };
            count(
                "rules no scenario exercises",
                &cov.untouched_rules,
                Some(cov.rules_total),
            );
            count(
                "dispute readings no scenario exercises",
                &cov.untouched_readings,
                Some(cov.readings_total),
            );
            count("dispute readings never in force", &cov.never_in_force, None);
            count(
                "dispute readings no scenario tells apart from the others",
                &cov.untold_readings,
                None,
            );
        }
        return Ok(if invalid.is_empty() { 0 } else { 2 });
    }
    let report = conform::run_suite(path, &imp, &opts).map_err(bad_input)?;
    for (f, d) in &report.invalid {
        eprint!("{f} does not load:\n{d}");
    }
    if common.json {
        let mut v = serde_json::to_value(&report).unwrap_or_default();
        v["protocol"] = json!(push_rummy::suite::protocol::VERSION);
        v["summary"] = json!(conform::summary(&report));
        out!("{}", pretty_json(&v));
    } else {
        for r in &report.scenarios {
            match &r.verdict {
                Verdict::Pass => out!("pass     {}", r.file),
                Verdict::Fail { divergence } => out!("FAIL     {}: {divergence}", r.file),
                Verdict::Skipped { reason } => out!("skipped  {}: {reason}", r.file),
                Verdict::Errored { error } => out!("ERRORED  {}: {error}", r.file),
            }
        }
        out!(
            "{} scenario(s) against {}: {} pass, {} fail, {} skipped, {} errored{}",
            report.scenarios.len(),
            report.implementation,
            report.count("pass"),
            report.count("fail"),
            report.count("skipped"),
            report.count("errored"),
            if report.invalid.is_empty() {
                String::new()
            } else {
                format!(", {} do not load", report.invalid.len())
            }
        );
    }
    Ok(report.exit_code())
}

fn schema_cmd(kind: SchemaKind) -> Result<u8, Failure> {
    let schema = match kind {
        SchemaKind::Rules => push_rummy::help::schema::rules(),
        SchemaKind::Scenario => push_rummy::help::schema::scenario(),
    };
    out_raw!("{}", push_rummy::help::schema::text(&schema));
    Ok(0)
}

/// `completions SHELL`: generated from the clap definitions above.
fn completions_cmd(shell: clap_complete::Shell) -> Result<u8, Failure> {
    use clap::CommandFactory;
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "push-rummy", &mut buf);
    out_raw!("{}", String::from_utf8_lossy(&buf));
    Ok(0)
}

/// `man`: the manual page (roff), generated from the clap definitions above.
fn man_cmd() -> Result<u8, Failure> {
    use clap::CommandFactory;
    let mut buf = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut buf)
        .map_err(|e| bad_input(format!("man: {e}")))?;
    out_raw!("{}", String::from_utf8_lossy(&buf));
    Ok(0)
}

/// `explain`: a reason code, a dispute, a reading or a rule in plain words.
fn explain_cmd(common: &Common, word: &str, suite: Option<String>) -> Result<u8, Failure> {
    // A suite named on the command line must be there; the default one is looked for quietly.
    if let Some(s) = &suite
        && !std::path::Path::new(s).is_dir()
    {
        return Err(bad_input(format!(
            "--suite {s}: no such directory (the conformance suite to list scenarios from)"
        )));
    }
    let dir = suite.unwrap_or_else(suite_dir);
    let path = std::path::Path::new(&dir);
    match push_rummy::help::explain::explain(word, path.is_dir().then_some(path)) {
        Ok(e) => {
            if common.json {
                out!("{}", pretty_json(&json!(e)));
            } else {
                out_raw!("{}", look(common).paint(&e.text()));
            }
            Ok(0)
        }
        Err(u) => Err(Failure {
            code: 2,
            json: json!({ "error": u.to_string(), "word": u.word, "suggestion": u.suggestion }),
            text: format!(
                "{u}\n  = hint: the reason codes are {}; `push-rummy disputes` lists the disputes, `push-rummy rules show` the rules",
                push_rummy::engine::game::Reason::ALL
                    .iter()
                    .map(|r| r.code())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }),
    }
}

/// A scenario that did not load, for `disputes settle|affecting|show`: the rendered diagnostics
/// for people and the diagnostics as data.
fn load_failure(e: &push_rummy::rules::LoadError) -> Failure {
    Failure {
        code: 2,
        json: json!({ "error": "the scenario could not be loaded", "diagnostics": e.diagnostics.0 }),
        text: rendered(e),
    }
}
