//! `contract --round N MELDS…` or `contract --round N --hand CARDS`: whether the melds meet the
//! deal's contract, or whether the hand holds a laydown that does (and which); exit 1 when not.

use super::cards::{interp_text, parse_meld_args};
use super::common::{Common, Failure, bad_input, load_rules, pretty_json};
use clap::Args;
use push_rummy::base::card::{Card, Counts};
use push_rummy::oracle::contract::{self, Laydown};
use push_rummy::oracle::meld::{self, Query};
use push_rummy::rules::Rules;
use push_rummy::rules::spec::Component;
use serde_json::{Value, json};

// No doc comment here: the command's help is the doc of `Command::Contract` in main.rs.
#[derive(Args)]
pub struct ContractArgs {
    /// The deal, from 1.
    #[arg(long)]
    pub round: usize,
    /// Search this hand (one argument of space-separated cards) for a laydown.
    #[arg(long, conflicts_with = "melds")]
    pub hand: Option<String>,
    /// Each meld as one argument of space-separated cards.
    pub melds: Vec<String>,
}

pub fn run(common: &Common, args: &ContractArgs) -> Result<u8, Failure> {
    let round = args.round;
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
    if let Some(hand) = &args.hand {
        return search_hand(common, rules, round, &r.contract, &names, hand);
    }
    check_melds(common, rules, round, &r.contract, &names, &args.melds)
}

/// `--hand`: searches the hand for a laydown that meets the contract.
fn search_hand(
    common: &Common,
    rules: &Rules,
    round: usize,
    contract: &[Component],
    names: &[String],
    hand: &str,
) -> Result<u8, Failure> {
    let q = parse_meld_args(&[hand.to_string()])
        .map_err(|f| bad_input(format!("--hand: {}", f.text)))?;
    let problem = rules.pack_problem(&q.cards);
    if let (Some(p), false) = (&problem, common.json) {
        out!("no laydown: {p}");
        return Ok(1);
    }
    let counts = Counts::from_cards(&q.cards);
    let found = match problem {
        Some(_) => None,
        None => contract::laydown(rules, contract, &counts),
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
            Some(l) => print_laydown(rules, names, l),
            None => out!(
                "contract {} cannot be met from this hand",
                names.join(" + ")
            ),
        }
    }
    Ok(if found.is_some() { 0 } else { 1 })
}

/// A laydown for people: each meld of the contract with the cards that make it (as the meld
/// oracle reads them).
fn print_laydown(rules: &Rules, names: &[String], l: &Laydown) {
    out!("contract {} can be met:", names.join(" + "));
    for (c, cards) in &l.melds {
        // A contract set of one rank may be smaller than sets go (`set of 2 aces`).
        let v = meld::interpret_at(
            rules,
            &Query {
                cards: cards.clone(),
                kind: Some(c.kind),
                declared: vec![],
            },
            contract::set_floor(rules, std::slice::from_ref(c)),
        );
        let fits = |x: &&meld::Interpretation| contract::fills(rules, *c, cards.len(), x);
        match v.interpretations.iter().find(fits) {
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

/// The melds, each one argument: whether together they meet the contract.
fn check_melds(
    common: &Common,
    rules: &Rules,
    round: usize,
    contract: &[Component],
    names: &[String],
    melds: &[String],
) -> Result<u8, Failure> {
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
    if let Some(p) = rules.pack_problem(&all) {
        if common.json {
            out!(
                "{}",
                pretty_json(
                    &json!({ "round": round, "contract": names, "satisfied": false,
                    "assignment": vec![Value::Null; queries.len()], "regrouped": Value::Null, "reason": p })
                )
            );
        } else {
            out!("not satisfied: {p}");
        }
        return Ok(1);
    }
    let c = contract::check(rules, contract, &queries);
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
                "regrouped": c.regrouped.as_ref().map(|l| l.iter().map(|(comp, cards)| json!({
                    "contract": comp.to_string(),
                    "cards": cards.iter().map(ToString::to_string).collect::<Vec<_>>(),
                })).collect::<Vec<_>>()),
                "reason": if c.satisfied { Value::Null } else { json!(c.reason) } })
            )
        );
    } else if c.satisfied {
        out!("contract {} satisfied", names.join(" + "));
        for (comp, cards) in c.regrouped.iter().flatten() {
            out!("  {comp}: {}", push_rummy::base::card::pretty_cards(cards));
        }
    } else {
        out!("not satisfied: {}", c.reason);
    }
    Ok(if c.satisfied { 0 } else { 1 })
}
