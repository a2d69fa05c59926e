//! Cards given as arguments (`meld`, `contract`, `score`): reading `CARD` and `CARD=TARGET`
//! words, the cards a game's pack cannot hold, and an interpretation written for people.

use super::common::{Failure, bad_input};
use push_rummy::base::card::Card;
use push_rummy::oracle::meld::{Interpretation, Query, Target};

/// Reads `CARD` or `CARD=TARGET` arguments (each argument may hold several, space-separated).
pub fn parse_meld_args(args: &[String]) -> Result<Query, Failure> {
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

/// An interpretation for people: what it is, then each card (a wild with what it stands for).
pub fn interp_text(i: &Interpretation) -> String {
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
