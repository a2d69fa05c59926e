//! `conform`: the conformance suite run against the built-in engine or an external
//! implementation (`--impl`), its coverage (`--coverage`), or random games against the
//! implementation with the first divergence shrunk to a scenario (`--random N`). The harness
//! itself is `push_rummy::suite::conform`; this module reads the arguments and prints reports.

use super::common::{
    Common, Failure, bad_input, load_rules, pretty_json, readings, rendered, suite_dir,
};
use clap::Args;
use push_rummy::rules::Loaded;
use push_rummy::suite::conform::{
    self, Coverage, FuzzReport, GameNote, ImplSpec, Options, ScenarioReport, SuiteReport, Verdict,
};
use push_rummy::suite::protocol;
use serde_json::json;
use std::path::Path;

// No doc comment here: the command's help is the doc of `Command::Conform` in main.rs.
#[derive(Args)]
pub struct ConformArgs {
    /// A directory of scenarios (searched recursively) or one scenario file.
    pub dir: Option<String>,
    /// The implementation under test: a command line, started once per scenario.
    #[arg(long = "impl", value_name = "COMMAND")]
    pub implementation: Option<String>,
    /// List the rules and dispute readings each scenario exercises, and those none touches.
    #[arg(long)]
    pub coverage: bool,
    /// Play this many random games against the implementation (needs --impl).
    #[arg(long, value_name = "N")]
    pub random: Option<u64>,
    /// Ask this many random single questions (meld, contract, laydown, score, lay-off, discards)
    /// of the implementation and the reference, under --rules and --reading (needs --impl).
    #[arg(long, value_name = "N", conflicts_with_all = ["random", "coverage"])]
    pub queries: Option<usize>,
    /// Seed of the first random game (game i uses seed + i), or of the random questions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Players at the table in random games (default: the fewest the rules allow).
    #[arg(long)]
    pub players: Option<u8>,
    /// Where --random writes the shrunk scenario.
    #[arg(long, default_value = ".")]
    pub out: String,
    /// Milliseconds to wait for each reply of the implementation.
    #[arg(long, default_value_t = protocol::DEFAULT_TIMEOUT_MS)]
    pub timeout: u64,
    /// Run every scenario (or random game) even when the implementation does not answer `hello`
    /// or errors 5 in a row.
    #[arg(long)]
    pub keep_going: bool,
    /// With --random: stop at the first divergence instead of playing every game.
    #[arg(long)]
    pub fail_fast: bool,
    /// Known departures (YAML, conformance/schema/departures.schema.json): a divergence (in the
    /// suite, --random or --queries) that an entry matches is reported as known, not failed.
    #[arg(long, value_name = "FILE")]
    pub departures: Option<String>,
}

pub fn run(common: &Common, a: &ConformArgs) -> Result<u8, Failure> {
    let imp = match &a.implementation {
        Some(c) => ImplSpec::parse_command(c).map_err(bad_input)?,
        None => ImplSpec::BuiltIn,
    };
    if a.timeout == 0 {
        return Err(bad_input("--timeout: give at least 1 millisecond".into()));
    }
    imp.check_program().map_err(bad_input)?;
    let departures = match &a.departures {
        Some(f) => Some(std::sync::Arc::new(
            conform::departures_load(Path::new(f)).map_err(|e| Failure {
                code: 2,
                json: json!({ "error": "the departures file could not be loaded", "diagnostics": e.diagnostics.0 }),
                text: rendered(&e),
            })?,
        )),
        None => None,
    };
    let opts = Options {
        timeout: std::time::Duration::from_millis(a.timeout),
        keep_going: a.keep_going,
        departures,
    };
    end_implementations_on_signals();
    if let Some(n) = a.random {
        return random_games(common, a, &imp, &opts, n);
    }
    if let Some(n) = a.queries {
        return queries(common, a, &imp, &opts, n);
    }
    let dir = a.dir.clone().unwrap_or_else(suite_dir);
    let path = Path::new(&dir);
    if !path.exists() {
        return Err(bad_input(format!("{dir}: no such file or directory")));
    }
    if !common.readings.is_empty() {
        return Err(bad_input(
            "conform runs each scenario under its own rules: --reading applies only with --random and --queries (give readings to the implementation instead, e.g. `serve --reading …`)".into(),
        ));
    }
    if a.coverage {
        return coverage(common, path);
    }
    run_suite(common, path, &imp, &opts)
}

/// On SIGTERM or SIGINT, ends the implementations running (each with its process group) and
/// exits with 128 + the signal's number, as a shell reports a process a signal ended.
fn end_implementations_on_signals() {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGINT]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(sig) = signals.forever().next() {
            conform::end_all();
            eprintln!(
                "conform: stopped by signal {sig}; every implementation it had started was ended"
            );
            std::process::exit(128 + sig);
        }
    });
}

/// `--random N`: random games against the implementation under `--rules` and `--reading`;
/// exit 1 when one diverged or errored.
fn random_games(
    common: &Common,
    a: &ConformArgs,
    imp: &ImplSpec,
    opts: &Options,
    n: u64,
) -> Result<u8, Failure> {
    if matches!(imp, ImplSpec::BuiltIn) {
        return Err(bad_input(
            "--random compares an implementation with the reference: give --impl 'COMMAND'".into(),
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
        fail_fast: a.fail_fast,
    };
    // Skips, errors and each new cause are printed as their game ends.
    let mut each = |g: u64, note: GameNote| {
        if common.json {
            return;
        }
        match note {
            GameNote::Skipped(r) => out!("game {g} skipped: {r}"),
            GameNote::Errored(e) => out!("game {g} ERRORED: {e}"),
            GameNote::NewCause(n, c) => {
                out!("game {g} (seed {}): cause {n}: {}", c.first_seed, c.key);
            }
            GameNote::NewKnownCause(n, c) => {
                out!(
                    "game {g} (seed {}): known cause {n}: {}",
                    c.first_seed,
                    c.key
                );
            }
        }
    };
    let report = conform::fuzz(&loaded, imp, &fo, opts, &mut each).map_err(bad_input)?;
    if let Some(f) = report.causes.iter().find_map(|c| c.finding.as_ref()) {
        // The scenario's first line names the schema beside it, for editors.
        let schema = f.file.with_file_name("scenario.schema.json");
        let text = push_rummy::help::schema::text(&push_rummy::help::schema::scenario());
        std::fs::write(&schema, text)
            .map_err(|e| bad_input(format!("{}: {e}", schema.display())))?;
    }
    if common.json {
        out!(
            "{}",
            pretty_json(&serde_json::to_value(&report).unwrap_or_default())
        );
    } else {
        print_fuzz_report(&report, &loaded, imp);
    }
    Ok(report.exit_code())
}

/// `--queries N`: random single questions asked of the implementation and of the reference;
/// exit 1 when they disagree on one that no known departure explains, or one errored.
fn queries(
    common: &Common,
    a: &ConformArgs,
    imp: &ImplSpec,
    opts: &Options,
    n: usize,
) -> Result<u8, Failure> {
    if matches!(imp, ImplSpec::BuiltIn) {
        return Err(bad_input(
            "--queries compares an implementation with the reference: give --impl 'COMMAND'".into(),
        ));
    }
    let loaded = load_rules(common, &common.rules)?;
    let players = a
        .players
        .unwrap_or_else(|| push_rummy::suite::bench::seats(&loaded.rules));
    if players < loaded.rules.players.0 || players > loaded.rules.players.1 {
        return Err(bad_input(format!(
            "--players {players}: {} is played by {} to {} players",
            loaded.rules.name, loaded.rules.players.0, loaded.rules.players.1
        )));
    }
    let q = conform::QueryOptions {
        n,
        seed: a.seed,
        players,
    };
    let report = conform::ask_queries(imp, &loaded, opts, &q);
    if common.json {
        out!(
            "{}",
            pretty_json(&serde_json::to_value(&report).unwrap_or_default())
        );
    } else {
        print_query_report(&report, &loaded, imp, a.seed);
    }
    Ok(u8::from(report.failed()))
}

/// What the questions found, for people: the counts, then each cause with its examples.
fn print_query_report(r: &conform::QueryReport, loaded: &Loaded, imp: &ImplSpec, seed: u64) {
    let kinds: Vec<String> = r.kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
    if r.asked > 0 {
        out!(
            "{} random question(s) (seed {seed}) of {} against {}: {}",
            r.asked,
            loaded.rules.name,
            imp.describe(),
            kinds.join(", ")
        );
    }
    if !r.unsupported.is_empty() {
        let u: Vec<String> = r
            .unsupported
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        out!("unsupported (not compared): {}", u.join(", "));
    }
    for (i, c) in r.causes.iter().enumerate() {
        print_query_cause("cause", i, c);
    }
    if !r.known_causes.is_empty() {
        out!(
            "{} known cause(s) of disagreement (known departures, not failures):",
            r.known_causes.len()
        );
    }
    for (i, c) in r.known_causes.iter().enumerate() {
        print_query_cause("known cause", i, c);
        if let Some(k) = &c.known {
            out!("   {k}");
        }
    }
    for e in &r.errors {
        out!("ERRORED  {e}");
    }
    if let Some(why) = &r.stopped {
        out!("stopped: {why}");
    }
    print_unmatched(r.unmatched_departures.as_deref());
    print_not_compared(&r.not_compared);
    let known = r.known_disagree();
    match (r.causes.len(), r.errored) {
        (0, 0) if r.stopped.is_none() && known > 0 => out!(
            "{} agree, {} disagree ({known} at a known departure): no unknown disagreement",
            r.agree,
            r.disagree
        ),
        (0, 0) if r.stopped.is_none() => out!("{} agree: no disagreement", r.agree),
        (n, e) => {
            let known = match known {
                0 => String::new(),
                k => format!(", {k} questions at a known departure"),
            };
            out!(
                "{} agree, {} disagree ({n} cause(s){known}), {e} errored",
                r.agree,
                r.disagree
            );
        }
    }
}

/// One cause of disagreement (`label` and its number, `i` + 1) and its examples, for people.
fn print_query_cause(label: &str, i: usize, c: &conform::QueryCause) {
    let kinds: Vec<String> = c.kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
    match (&c.reading, &c.field) {
        (Some(reading), _) => out!(
            "{label} {}: {reading} — the implementation answers as the reference does under this reading: {} question(s) ({})",
            i + 1,
            c.count,
            kinds.join(", ")
        ),
        (None, field) => out!(
            "{label} {}: {} differs, and no reading explains it: {} question(s) ({})",
            i + 1,
            field.as_deref().unwrap_or("?"),
            c.count,
            kinds.join(", ")
        ),
    }
    for e in &c.examples {
        let shrunk = e
            .shrunk_from
            .map_or(String::new(), |n| format!(" (shrunk from {n} cards)"));
        let (r, i) = (&e.reference[&e.field], &e.implementation[&e.field]);
        let said = match (r.as_array(), i.as_array()) {
            // Two lists: what each has that the other lacks.
            (Some(r), Some(i)) => {
                let only = |a: &Vec<serde_json::Value>, b: &Vec<serde_json::Value>| {
                    let v: Vec<String> = a.iter().filter(|x| !b.contains(x)).map(compact).collect();
                    if v.is_empty() {
                        "nothing".to_string()
                    } else {
                        v.join(", ")
                    }
                };
                format!(
                    "only the reference: {}; only the implementation: {}",
                    only(r, i),
                    only(i, r)
                )
            }
            _ => format!("reference {}, implementation {}", compact(r), compact(i)),
        };
        out!("   {}{shrunk}: {}: {said}", e.text, e.field);
    }
}

/// A JSON value on one line, without quotes around a lone string.
fn compact(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Null => "(none)".into(),
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// What the random games found, for people, after the lines printed as they came: the counts,
/// each cause of divergence with its count, first seed and shrunk scenario, then the games that
/// ended clean.
fn print_fuzz_report(report: &FuzzReport, loaded: &Loaded, imp: &ImplSpec) {
    let known = if report.unmatched_departures.is_some() {
        format!(", {} at a known departure", report.known_games)
    } else {
        String::new()
    };
    out!(
        "{} random game(s) of {} against {} ({}): {} diverged{known}, {} ended clean, {} skipped, {} errored, {} actions",
        report.played,
        loaded.rules.name,
        imp.describe(),
        conform::FUZZ_BOTS,
        report.diverged_games,
        report.clean_games,
        report.skipped_games.len(),
        report.errored_games.len(),
        report.actions
    );
    if !report.causes.is_empty() {
        out!("{} cause(s) of divergence:", report.causes.len());
    }
    for (i, c) in report.causes.iter().enumerate() {
        let at = c.finding.as_ref().map_or(String::new(), |f| {
            let o = &f.original;
            match (o.seat, &o.action) {
                (Some(s), Some(a)) => format!(" at action {} (seat {s}: {a})", o.step),
                _ => format!(" at action {}", o.step),
            }
        });
        out!(
            "{}. {}: {} game(s); first: game {} (seed {}){at}",
            i + 1,
            c.key,
            c.count,
            c.first_game,
            c.first_seed,
        );
        match (&c.finding, &c.not_shrunk) {
            (Some(f), _) => {
                out!("   shrunk: {}", f.shrunk);
                out!("   {}", f.file.display());
            }
            (None, Some(why)) => out!("   not shrunk: {why}"),
            (None, None) => {}
        }
    }
    if !report.known_causes.is_empty() {
        out!(
            "{} known cause(s) of divergence (known departures, not failures):",
            report.known_causes.len()
        );
    }
    for (i, c) in report.known_causes.iter().enumerate() {
        out!(
            "{}. {}: {} game(s); first: game {} (seed {})",
            i + 1,
            c.key,
            c.count,
            c.first_game,
            c.first_seed,
        );
        if let Some(k) = &c.known {
            out!("   {}", k.divergence);
            out!("   {}", k.departure);
        }
    }
    if let Some(why) = &report.stopped {
        out!("{why}");
    }
    print_unmatched(report.unmatched_departures.as_deref());
    print_not_compared(&report.not_compared);
    let clean = format!(
        "{} of {} game(s) played ended clean{}",
        report.clean_games,
        report.played,
        if report.known_games > 0 {
            format!(", {} at a known departure", report.known_games)
        } else {
            String::new()
        }
    );
    match (report.causes.len(), report.errored_games.len()) {
        (0, 0) if report.stopped.is_none() && report.known_games > 0 => {
            out!("{clean}: no unknown divergence");
        }
        (0, 0) if report.stopped.is_none() => out!("{clean}: no divergence"),
        (0, e) => out!("{clean}; {e} errored: a failure, whatever the rest"),
        (n, 0) => out!("{clean}; {n} cause(s) of divergence"),
        (n, e) => out!("{clean}; {n} cause(s) of divergence, {e} errored"),
    }
}

/// The scenarios whose divergence a known departure matched, by departure, apart from the
/// failures.
fn print_known_scenarios(report: &SuiteReport) {
    let mut by: std::collections::BTreeMap<usize, (String, Vec<&str>)> = Default::default();
    for r in &report.scenarios {
        if let Verdict::Known { departure, .. } = &r.verdict {
            by.entry(departure.entry)
                .or_insert_with(|| (departure.to_string(), Vec::new()))
                .1
                .push(&r.file);
        }
    }
    if !by.is_empty() {
        out!("known divergences (not failures):");
    }
    for (what, files) in by.values() {
        out!("  {what}: {} scenario(s)", files.len());
        for f in files {
            out!("    {f}");
        }
    }
}

/// The known departures that no divergence matched: stale entries, or ones the run did not reach.
fn print_unmatched(unmatched: Option<&[String]>) {
    for u in unmatched.unwrap_or_default() {
        out!("departure {u} matched no divergence: stale, or not reached by this run");
    }
}

/// What the implementation's `hello` does not declare, so the harness did not compare.
fn print_not_compared(what: &[String]) {
    if !what.is_empty() {
        out!(
            "not compared (the implementation does not report them): {}",
            what.join("; ")
        );
    }
}

/// `--coverage`: what the scenarios exercise; exit 2 when a scenario does not load.
fn coverage(common: &Common, path: &Path) -> Result<u8, Failure> {
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
        print_coverage(&cov);
    }
    Ok(if invalid.is_empty() { 0 } else { 2 })
}

/// Coverage for people: each scenario's rules and readings, then what no scenario exercises.
fn print_coverage(cov: &Coverage) {
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

/// The suite's scenarios against the implementation, each verdict a line and the counts.
/// The suite's scenarios against the implementation: each verdict printed as it comes (without
/// `--json`), then the counts.
fn run_suite(common: &Common, path: &Path, imp: &ImplSpec, opts: &Options) -> Result<u8, Failure> {
    let mut each = |r: &ScenarioReport| {
        if !common.json {
            print_verdict(r);
        }
    };
    let report = conform::run_suite(path, imp, opts, &mut each).map_err(bad_input)?;
    for (f, d) in &report.invalid {
        eprint!("{f} does not load:\n{d}");
    }
    if common.json {
        let mut v = serde_json::to_value(&report).unwrap_or_default();
        v["protocol"] = json!(protocol::VERSION);
        v["summary"] = json!(conform::summary(&report));
        out!("{}", pretty_json(&v));
    } else {
        print_suite_counts(&report);
    }
    Ok(report.exit_code())
}

/// One scenario's verdict for people.
fn print_verdict(r: &ScenarioReport) {
    match &r.verdict {
        Verdict::Pass => out!("pass     {}", r.file),
        Verdict::Fail { divergence } => out!("FAIL     {}: {divergence}", r.file),
        Verdict::Known {
            divergence,
            departure,
        } => out!("known    {}: {divergence}; {departure}", r.file),
        Verdict::Skipped { reason } => out!("skipped  {}: {reason}", r.file),
        Verdict::Errored { error } => out!("ERRORED  {}: {error}", r.file),
    }
}

/// The suite's counts for people, after the verdicts (and why it stopped, if early).
fn print_suite_counts(report: &SuiteReport) {
    if let Some(why) = &report.stopped {
        out!("{why}");
    }
    print_known_scenarios(report);
    print_unmatched(report.unmatched_departures.as_deref());
    print_not_compared(&report.not_compared);
    let known = if report.unmatched_departures.is_some() {
        format!(", {} known", report.count("known"))
    } else {
        String::new()
    };
    out!(
        "{} scenario(s) against {}: {} pass, {} fail{known}, {} skipped, {} errored{}",
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
