//! `score CARDS…`: the points of cards left in a hand, card by card.

use super::cards::parse_meld_args;
use super::common::{Common, Failure, bad_input, load_rules, pretty_json};
use clap::Args;
use push_rummy::base::card::Card;
use serde_json::{Value, json};

// No doc comment here: the command's help is the doc of `Command::Score` in main.rs.
#[derive(Args)]
pub struct ScoreArgs {
    /// The cards left in the hand, e.g. 2C KD; none for an empty hand (the player who went
    /// out), which scores 0
    pub cards: Vec<String>,
}

pub fn run(common: &Common, args: &ScoreArgs) -> Result<u8, Failure> {
    let loaded = load_rules(common, &common.rules)?;
    let rules = &loaded.rules;
    // No cards (the hand of the player who went out): nothing to parse, 0 points.
    let q = if args.cards.iter().all(|a| a.trim().is_empty()) {
        push_rummy::oracle::meld::Query::default()
    } else {
        parse_meld_args(&args.cards)?
    };
    if !q.declared.is_empty() {
        return Err(bad_input(
            "score takes plain cards, not declarations".into(),
        ));
    }
    // Cards the pack cannot hold all at once: understood, and the answer is that they cannot be
    // scored together (exit 1, as `meld` and `contract` answer for such cards).
    if let Some(p) = rules.pack_problem(&q.cards) {
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
        if parts.is_empty() {
            out!("0 points (no cards)");
        } else {
            out!("{total} points ({})", parts.join(", "));
        }
    }
    Ok(0)
}
