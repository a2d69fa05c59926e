//! `disputes [list|show|settle|affecting]`: the register of disputes (where the sources disagree,
//! and the readings), one dispute with its sources and its scenarios replayed under each reading,
//! one scenario under each reading of a dispute, and the disputes that can change a scenario.

use super::common::{Common, Failure, bad_input, load_failure, pretty_json, readings, suite_dir};
use clap::{Args, Subcommand};
use push_rummy::rules::disputes::DisputeId;
use push_rummy::rules::disputes::register::{self, Entry};
use push_rummy::rules::{self, BUILT_IN, overrides};
use push_rummy::suite::settle;
use serde_json::{Value, json};

// No doc comment here: the command's help is the doc of `Command::Disputes` in main.rs.
#[derive(Args)]
pub struct DisputesArgs {
    #[command(subcommand)]
    pub action: Option<DisputesAction>,
}

#[derive(Subcommand)]
pub enum DisputesAction {
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

pub fn run(common: &Common, args: DisputesArgs) -> Result<u8, Failure> {
    match args.action.unwrap_or(DisputesAction::List) {
        DisputesAction::List => list(common),
        DisputesAction::Show { id, suite } => show(common, &id, suite),
        DisputesAction::Settle { id, scenario } => settle_one(common, &id, &scenario),
        DisputesAction::Affecting { scenario } => affecting(common, &scenario),
    }
}

/// `disputes list`: each dispute's id, readings and title.
fn list(common: &Common) -> Result<u8, Failure> {
    let reg = register::get();
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

/// `disputes show ID`: the register's entry, which built-in rule sets use which reading, and
/// the dispute's scenarios (those under `suite` whose `exercises` name it) settled.
fn show(common: &Common, id: &str, suite: Option<String>) -> Result<u8, Failure> {
    let dispute = dispute_arg(id)?;
    let e = register::get()
        .disputes
        .iter()
        .find(|e| e.id == id)
        .expect("the register and the generated ids agree");
    let users = readings_in_use(dispute);
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
                &json!({ "dispute": e, "rule_sets": users.iter().map(|(n, r, own)| if own.is_empty() {
                    json!({ "rules": n, "reading": r })
                } else {
                    json!({ "rules": n, "reading": r, "overridden_by": own })
                }).collect::<Vec<_>>(), "overriding_rules": overrides::overriding(dispute).collect::<Vec<_>>(), "scenarios": settlements })
            )
        );
    } else {
        print_entry(e, &users);
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

/// Which built-in rule sets use which reading of `dispute`: (rule set, reading, the rules it
/// states instead as `PATH: VALUE`). A rule set that states a rule overriding the dispute
/// (`rules::overrides`) uses no reading of it: its own value decides.
fn readings_in_use(dispute: DisputeId) -> Vec<(String, String, Vec<String>)> {
    let mut users = Vec::new();
    for (name, _, _) in BUILT_IN {
        if let Ok(l) = rules::load(name, &[]) {
            users.push((
                name.to_string(),
                l.rules.readings.name(dispute).to_string(),
                overrides::stated_overrides(&l.raw, dispute),
            ));
        }
    }
    users
}

/// A register entry for people: the question, each reading with its sources and the rule sets
/// using it, and the defaults with their reasons.
fn print_entry(e: &Entry, users: &[(String, String, Vec<String>)]) {
    out!("{} — {}", e.id, e.title);
    out!("{}", e.question);
    // The register's `games` are the games whose sources raise the dispute; the engine applies
    // every dispute's reading in every rule set, which `used by` below shows.
    out!(
        "raised by the sources of: {}; kind: {}; every rule set gives it a reading",
        e.games.join(", "),
        e.kind.join(", ")
    );
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
            .filter(|(_, x, own)| *x == r.name && own.is_empty())
            .map(|(n, _, _)| n.as_str())
            .collect();
        if !using.is_empty() {
            out!("  used by: {}", using.join(", "));
        }
    }
    let overriding: Vec<&str> = overrides::overriding(dispute_of(e)).collect();
    if !overriding.is_empty() {
        out!(
            "\na rule set may state its own value instead: {} (when stated, no reading of this dispute decides)",
            overriding.join(", ")
        );
        for (n, _, own) in users.iter().filter(|(_, _, own)| !own.is_empty()) {
            out!("  states its own value: {n} ({})", own.join(", "));
        }
    }
    out!("\ndefaults:");
    for (game, d) in &e.defaults {
        out!("  {game}: `{}` — {}", d.reading, d.why);
    }
}

/// `disputes settle ID SCENARIO`: the scenario under each reading of the dispute.
fn settle_one(common: &Common, id: &str, scenario: &str) -> Result<u8, Failure> {
    let dispute = dispute_arg(id)?;
    let extra = readings(common)?;
    let s = settle::settle(std::path::Path::new(scenario), dispute, &extra)
        .map_err(|err| load_failure(&err))?;
    if common.json {
        out!("{}", pretty_json(&json!(s)));
    } else {
        out!("{} — under each reading of {}", s.scenario, s.dispute);
        print_settlement(&s);
    }
    Ok(0)
}

/// `disputes affecting SCENARIO`: each dispute one of whose other readings changes the scenario,
/// and where.
fn affecting(common: &Common, scenario: &str) -> Result<u8, Failure> {
    let extra = readings(common)?;
    let found = settle::affecting(std::path::Path::new(scenario), &extra)
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
        // The game of the scenario, to say where a dispute the sources raise for other games
        // decides this one all the same.
        let game = push_rummy::suite::scenario::load(std::path::Path::new(scenario), &extra)
            .map(|s| s.rules.rules.game)
            .unwrap_or_default();
        let reg = register::get();
        for a in &found {
            let raised_for: Vec<&str> = reg
                .disputes
                .iter()
                .find(|e| e.id == a.dispute)
                .map(|e| e.games.iter().map(String::as_str).collect())
                .unwrap_or_default();
            let note = if raised_for.is_empty() || raised_for.contains(&game.as_str()) {
                String::new()
            } else {
                format!(
                    "; the sources raise it for {}, and {game}'s own reading of it decides this",
                    raised_for.join(", ")
                )
            };
            out!("  {} (in force: {}{note})", a.dispute, a.in_force);
            for (reading, p) in &a.partings {
                out!("    {reading}: {}", settle::describe_parting(p));
            }
        }
    }
    Ok(0)
}

/// The dispute of a register entry (the register and the generated ids agree).
fn dispute_of(e: &Entry) -> DisputeId {
    DisputeId::from_id(&e.id).expect("the register and the generated ids agree")
}

/// A dispute id from the command line, or a failure naming the ids (and the nearest one).
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
    if !s.overridden_by.is_empty() {
        out!(
            "    its rules state {}: no reading of {} decides here",
            s.overridden_by.join(", "),
            s.dispute
        );
    }
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
