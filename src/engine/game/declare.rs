//! The wild-declaration policy (`wild-declaration`): when a player must say what the wilds of a
//! meld or lay-off stand for. `never`: nothing is declared and every reading stays (the wilds
//! float until rescued); `always`: a meld with wilds names its kind and every wild's meaning;
//! `when-ambiguous`: a declaration is needed only where the readings give some wild different
//! meanings ([`needs_declaration`]), and is refused as `ambiguous-wild` until given.

use super::{Game, Illegal, Reason, illegal};
use crate::base::card::Card;
use crate::oracle::meld::{self, Interpretation, Target};
use crate::rules::disputes::reading as rd;
use crate::rules::spec::MeldKind;

impl Game {
    pub(super) fn declaration_policy(
        &self,
        cards: &[Card],
        kind: Option<MeldKind>,
        declared: &[(Card, Target)],
        interps: Vec<Interpretation>,
    ) -> Result<Vec<Interpretation>, Illegal> {
        match self.rules.readings.wild_declaration {
            rd::WildDeclaration::Never => {
                if !declared.is_empty() {
                    return Err(illegal(
                        Reason::DeclarationNotAllowed,
                        "wilds are not declared: they float until rescued (wild-declaration=never)",
                    ));
                }
                Ok(interps)
            }
            rd::WildDeclaration::Always => {
                let wilds = cards.iter().filter(|c| self.rules.is_wild(**c)).count();
                if wilds > 0 && (kind.is_none() || declared.len() < wilds) {
                    return Err(illegal(
                        Reason::DeclarationRequired,
                        format!(
                            "state the kind of meld and what each of the {wilds} wild card(s) stands for (wild-declaration=always)"
                        ),
                    ));
                }
                single(interps)
            }
            rd::WildDeclaration::WhenAmbiguous => single(interps),
        }
    }
}

/// Whether a declaration could narrow `interps` down: more than one reading, and two that give
/// some wild different meanings. Readings that give every wild the same meaning (an all-natural
/// 13-card run on a circular line lies two ways, ace low or high) are not a question a
/// declaration could settle: they all stay, as floating readings do.
pub fn needs_declaration(interps: &[Interpretation]) -> bool {
    let Some((first, rest)) = interps.split_first() else {
        return false;
    };
    if rest.is_empty() {
        return false;
    }
    // Each reading's wilds as (card, what it stands for), sorted: an interpretation has at most
    // `MAX_MELD_CARDS` roles.
    let blank = (Card::JOKER, Target::Rank(crate::base::card::Rank::Ace));
    let wild_meanings = |i: &Interpretation, out: &mut [(Card, Target); meld::MAX_MELD_CARDS]| {
        let mut n = 0;
        for r in i.wilds() {
            out[n] = (r.card, r.stands_for);
            n += 1;
        }
        out[..n].sort_unstable();
        n
    };
    let mut a = [blank; meld::MAX_MELD_CARDS];
    let mut b = [blank; meld::MAX_MELD_CARDS];
    let na = wild_meanings(first, &mut a);
    rest.iter().any(|i| {
        let nb = wild_meanings(i, &mut b);
        a[..na] != b[..nb]
    })
}

/// One reading (or several no declaration could tell apart), or a refusal asking for
/// declarations.
fn single(interps: Vec<Interpretation>) -> Result<Vec<Interpretation>, Illegal> {
    if needs_declaration(&interps) {
        let options: Vec<String> = interps.iter().take(6).map(|i| i.describe()).collect();
        return Err(illegal(
            Reason::AmbiguousWild,
            format!(
                "the meld can be read {} ways ({}{}): declare what the wilds stand for",
                interps.len(),
                options.join("; "),
                if interps.len() > 6 { "; …" } else { "" }
            ),
        ));
    }
    Ok(interps)
}
