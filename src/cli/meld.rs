//! `meld CARDS…`: whether the cards make a legal meld under the rules, and every interpretation
//! (what each wild stands for); exit 1 when they make none.

use super::cards::{interp_text, parse_meld_args};
use super::common::{Common, Failure, bad_input, load_rules, pretty_json};
use clap::{Args, ValueEnum};
use push_rummy::base::card::{Card, Rank};
use push_rummy::oracle::meld::{self, Interpretation, Query};
use push_rummy::rules::Rules;
use push_rummy::rules::spec::MeldKind;
use serde_json::{Value, json};

// No doc comment here: the command's help is the doc of `Command::Meld` in main.rs.
#[derive(Args)]
pub struct MeldArgs {
    /// Only this kind of meld.
    #[arg(long = "as", value_enum)]
    pub kind: Option<KindArg>,
    /// The cards, e.g. 9H 10H JK; a wild may carry a declaration, JK=JH.
    #[arg(required = true)]
    pub cards: Vec<String>,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum KindArg {
    Set,
    Run,
}

pub fn run(common: &Common, args: &MeldArgs) -> Result<u8, Failure> {
    let loaded = load_rules(common, &common.rules)?;
    let rules = &loaded.rules;
    let mut q = parse_meld_args(&args.cards)?;
    if q.cards.len() > meld::MAX_MELD_CARDS {
        return Err(bad_input(format!(
            "{} cards: a meld holds at most {} (docs/LIMITS.md)",
            q.cards.len(),
            meld::MAX_MELD_CARDS
        )));
    }
    q.kind = args.kind.map(|k| match k {
        KindArg::Set => MeldKind::Set,
        KindArg::Run => MeldKind::Run,
    });
    let v = match rules.pack_problem(&q.cards) {
        Some(p) => meld::Verdict {
            interpretations: vec![],
            truncated: false,
            reason: p,
        },
        None => meld::interpret(rules, &q),
    };
    if common.json {
        print_json(rules, &q, &v);
    } else {
        print_text(rules, &q.cards, &v);
    }
    Ok(if v.is_valid() { 0 } else { 1 })
}

/// The verdict as JSON: valid or not, each interpretation, the reason for an invalid one.
fn print_json(rules: &Rules, q: &Query, v: &meld::Verdict) {
    let ambiguous = v.interpretations.len() > 1;
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
}

/// The verdict for people: each interpretation a line, or why the cards make no meld.
fn print_text(rules: &Rules, cards: &[Card], v: &meld::Verdict) {
    let ambiguous = v.interpretations.len() > 1;
    if v.is_valid() {
        let n = v.interpretations.len();
        let reading = rules.readings.wild_declaration.name();
        let note = if !ambiguous {
            String::new()
        } else if push_rummy::engine::game::meld_declares(rules, cards).pins() {
            format!(" (a player must say which: wild-declaration={reading})")
        } else {
            format!(" (undeclared, the wilds may float: wild-declaration={reading})")
        };
        out!(
            "valid meld under {} — {n} interpretation{}{note}",
            rules.name,
            if n == 1 { "" } else { "s" },
        );
        for i in &v.interpretations {
            out!("  {}", interp_text(i));
        }
        if v.truncated {
            out!("  … (list truncated at {})", meld::MAX_INTERPRETATIONS);
        }
        // Twos read as a set of another rank: say why none of the readings is a set of twos.
        let twos = cards.iter().any(|c| c.rank() == Some(Rank::Two));
        let a_set = v.interpretations.iter().any(|i| i.kind == MeldKind::Set);
        if let Some(why) = meld::no_set_of_twos(rules).filter(|_| twos && a_set) {
            out!("  note: {why}");
        }
    } else {
        out!("not a meld: {}", v.reason);
    }
}

/// An interpretation as JSON: its kind, each card with what it stands for, rank and suit.
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
