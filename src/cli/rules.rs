//! `rules list|show|check|diff`: the built-in rule sets, one rule set resolved as YAML (or JSON),
//! rules files checked with every problem printed, and two rule sets compared rule by rule.

use super::common::{Common, Failure, load_rules, pretty_json, readings, rendered};
use clap::{Args, Subcommand};
use push_rummy::rules::disputes::DisputeId;
use push_rummy::rules::spec::{self, Leaf};
use push_rummy::rules::{self, BUILT_IN, Loaded, overrides};
use serde_json::{Value, json};

// No doc comment here: the command's help is the doc of `Command::Rules` in main.rs.
#[derive(Args)]
pub struct RulesArgs {
    #[command(subcommand)]
    pub action: RulesAction,
}

#[derive(Subcommand)]
pub enum RulesAction {
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

pub fn run(common: &Common, args: RulesArgs) -> Result<u8, Failure> {
    match args.action {
        RulesAction::List => list(common),
        RulesAction::Show { name } => show(common, name.as_deref()),
        RulesAction::Check { paths } => check(common, &paths),
        RulesAction::Diff { a, b } => diff(common, &a, &b),
    }
}

/// `rules list`: each built-in rule set with its title, players and deals.
fn list(common: &Common) -> Result<u8, Failure> {
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

/// `rules show [NAME]`: the resolved rules as YAML, or every rule's value as JSON.
fn show(common: &Common, name: Option<&str>) -> Result<u8, Failure> {
    let loaded = load_rules(common, name.unwrap_or(&common.rules))?;
    if common.json {
        let mut rules = serde_json::Map::new();
        for def in spec::rule_defs() {
            if let Some(e) = loaded.raw.get(&def.path) {
                rules.insert(def.path.clone(), leaf_json(&e.value));
            }
        }
        // The readings that stated rules override: dispute id → the rules, `PATH: VALUE`.
        let overridden: serde_json::Map<String, Value> = DisputeId::ALL
            .iter()
            .filter_map(|id| {
                let by = overrides::stated_overrides(&loaded.raw, *id);
                (!by.is_empty()).then(|| (id.id().to_string(), json!(by)))
            })
            .collect();
        out!(
            "{}",
            pretty_json(
                &json!({ "game": loaded.rules.game, "from": loaded.chain, "rules": rules, "overridden": overridden })
            )
        );
    } else {
        out_raw!("{}", loaded.show());
    }
    Ok(0)
}

/// `rules check PATH…`: files that load are reported on stdout, problems on stderr, each as it
/// comes; exit 2 when any file has a problem.
fn check(common: &Common, paths: &[String]) -> Result<u8, Failure> {
    let r = readings(common)?;
    let mut all = Vec::new();
    let mut failed = false;
    for p in paths {
        match rules::load(p, &r) {
            Ok(l) => {
                if !common.json {
                    out!("{p}: ok ({})", checked_summary(&l));
                }
                let warnings = rules::warnings(&l.rules);
                if !common.json {
                    for w in &warnings {
                        eprintln!("warning: {p}: {w}");
                    }
                }
                all.push(json!({ "file": p, "ok": true, "diagnostics": [], "warnings": warnings }));
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

/// `rules diff A B`: every rule whose value differs (metadata left out), a reading named by its
/// dispute; exit 1 when they differ.
fn diff(common: &Common, a: &str, b: &str) -> Result<u8, Failure> {
    let (la, lb) = (load_rules(common, a)?, load_rules(common, b)?);
    let mut diffs = Vec::new();
    for def in spec::rule_defs() {
        if spec::META.contains(&def.path.as_str()) {
            continue;
        }
        let va = la.raw.get(&def.path).map(|e| leaf_json(&e.value));
        let vb = lb.raw.get(&def.path).map(|e| leaf_json(&e.value));
        if va != vb {
            let dispute = def.path.strip_prefix("readings.").map(str::to_string);
            // Where a stated rule overrides the dispute in a rule set, that reading decides
            // nothing there: the rules that do, `PATH: VALUE`, per side.
            let overridden = |l: &Loaded| {
                dispute
                    .as_deref()
                    .and_then(DisputeId::from_id)
                    .map(|id| overrides::stated_overrides(&l.raw, id))
                    .unwrap_or_default()
            };
            diffs.push(
                json!({ "rule": def.path, "a": va, "b": vb, "dispute": dispute,
                "overridden": { "a": overridden(&la), "b": overridden(&lb) } }),
            );
        }
    }
    if common.json {
        out!(
            "{}",
            pretty_json(&json!({ "a": a, "b": b, "same": diffs.is_empty(), "differences": diffs }))
        );
    } else if diffs.is_empty() {
        out!(
            "{a} and {b} have the same rules ({} and {})",
            la.rules.name,
            lb.rules.name
        );
    } else {
        print_differences(a, b, &la, &lb, &diffs);
    }
    Ok(if diffs.is_empty() { 0 } else { 1 })
}

/// The differences of `rules diff` for people, one rule a line with both values.
fn print_differences(a: &str, b: &str, la: &Loaded, lb: &Loaded, diffs: &[Value]) {
    out!(
        "{a} ({}) | {b} ({}): {} rule(s) differ",
        la.rules.name,
        lb.rules.name,
        diffs.len()
    );
    let text = |l: &Loaded, path: &str, overridden: &Value| {
        let by: Vec<&str> = overridden
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        match l.raw.get(path) {
            Some(e) if by.is_empty() => Leaf::text(&e.value),
            Some(e) => format!("{} (overridden by {})", Leaf::text(&e.value), by.join(", ")),
            // An optional rule that overrides a dispute: left out, the reading decides.
            None => match overrides::overridden_by(path) {
                Some(id) => format!(
                    "(unset: the reading of {id} decides, {})",
                    l.rules.readings.name(id)
                ),
                None => "(unset)".to_string(),
            },
        }
    };
    for d in diffs {
        let rule = d["rule"].as_str().unwrap_or("");
        let label = match d["dispute"].as_str() {
            Some(id) => format!("dispute {id}"),
            None => rule.to_string(),
        };
        out!(
            "  {label}: {} | {}",
            text(la, rule, &d["overridden"]["a"]),
            text(lb, rule, &d["overridden"]["b"])
        );
    }
}

/// A rule's value as JSON.
fn leaf_json(l: &Leaf) -> Value {
    match l {
        Leaf::Text(s) | Leaf::Choice(s) => json!(s),
        Leaf::Int(n) => json!(n),
        Leaf::Bool(b) => json!(b),
        Leaf::Range(a, b) => json!({ "min": a, "max": b }),
        Leaf::List(v) => json!(v),
        Leaf::Relax(v) => json!({ "relax": v }),
        Leaf::DeckTiers(t) => json!(t
            .iter()
            .map(|x| json!({ "players": { "min": x.from, "max": x.to }, "standard-decks": x.standard_decks, "jokers": x.jokers }))
            .collect::<Vec<_>>()),
        Leaf::Rounds(r) => json!(r
            .iter()
            .map(|x| {
                let mut v = json!({ "deal": x.deal, "contract": x.contract.iter().map(|c| c.to_string()).collect::<Vec<_>>() });
                if x.all_at_once {
                    v["all-at-once"] = json!(true);
                }
                v
            })
            .collect::<Vec<_>>()),
    }
}

/// What `rules check` says of a file that loads: its name (or, for a file that names itself
/// nothing, what it extends) and its number of deals.
fn checked_summary(l: &rules::Loaded) -> String {
    let deals = l.rules.rounds.len();
    let deals = format!("{deals} deal{}", if deals == 1 { "" } else { "s" });
    // Whether the file itself gives its `name` (a name is inherited through `extends`): the
    // loader records which file of the chain each rule came from.
    let names_itself = l
        .raw
        .get("name")
        .zip(l.chain.first())
        .is_some_and(|(e, file)| e.origin.file == *file);
    match l.chain.get(1) {
        Some(base) if !names_itself => {
            format!(
                "{}, no name of its own, extends {base}; {deals}",
                l.rules.game
            )
        }
        _ => format!("{}, {deals}", l.rules.name),
    }
}
