//! The wild-declaration policy (`wild-declaration`): when a player must say what the wilds of a
//! meld or lay-off stand for. Each reading asks one of five things of a meld ([`Declare`],
//! [`meld_declares`]) and of a lay-off ([`lay_off_declares`]):
//! - nothing may be declared, every reading stays (the wilds float until rescued); a kind may be
//!   named: `never`;
//! - optional: nothing need be declared (the wilds float), but a player may declare, and a
//!   declaration then pins the meld to one reading (`ambiguous-wild` if it does not):
//!   `kind-when-all-wild` (001), `kind-always` (002) and `when-at-most-one-natural` (003) for the
//!   melds they do not name and for every lay-off (the sources ask only about melds);
//! - the kind: as optional, and the meld must be named a set or a run (`kind-when-all-wild` for
//!   a meld of wild cards only, `kind-always` for a meld with a wild);
//! - everything: the kind and every wild's meaning (`always`; `when-at-most-one-natural` for a
//!   meld with at most one natural card);
//! - where ambiguous: only where the readings give some wild different meanings
//!   ([`needs_declaration`]), refused as `ambiguous-wild` until given (`when-ambiguous`).

use super::{Game, Illegal, Reason, illegal};
use crate::base::card::Card;
use crate::oracle::meld::{self, Interpretation, Target};
use crate::rules::Rules;
use crate::rules::disputes::reading as rd;
use crate::rules::spec::MeldKind;

/// What `wild-declaration` asks of one meld or lay-off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Declare {
    /// Nothing may be declared: the wilds float (a kind may be named).
    Nothing,
    /// Nothing need be declared (the wilds float); a declaration pins one reading.
    Optional,
    /// The kind (set or run) must be named; otherwise as `Optional`.
    Kind,
    /// The kind and every wild's meaning.
    Everything,
    /// A declaration only where the meld can be read with different wild meanings.
    WhereAmbiguous,
}

impl Declare {
    /// Whether wild meanings may be declared (and declared forms are listed).
    pub fn allows_wilds(self) -> bool {
        self != Declare::Nothing
    }

    /// Whether the meld ends with its wilds' meanings settled (one reading, or several that no
    /// declaration tells apart): no wild floats.
    pub fn pins(self) -> bool {
        matches!(self, Declare::Everything | Declare::WhereAmbiguous)
    }
}

/// What `wild-declaration` asks of a new meld of `cards`.
pub fn meld_declares(rules: &Rules, cards: &[Card]) -> Declare {
    let wilds = cards.iter().filter(|c| rules.is_wild(**c)).count();
    match rules.readings.wild_declaration {
        rd::WildDeclaration::Never => Declare::Nothing,
        rd::WildDeclaration::Always => Declare::Everything,
        rd::WildDeclaration::WhenAmbiguous => Declare::WhereAmbiguous,
        rd::WildDeclaration::KindWhenAllWild if wilds == cards.len() => Declare::Kind,
        rd::WildDeclaration::KindAlways if wilds > 0 => Declare::Kind,
        rd::WildDeclaration::WhenAtMostOneNatural if cards.len() - wilds <= 1 => {
            Declare::Everything
        }
        rd::WildDeclaration::KindWhenAllWild
        | rd::WildDeclaration::KindAlways
        | rd::WildDeclaration::WhenAtMostOneNatural => Declare::Optional,
    }
}

/// What `wild-declaration` asks of a lay-off: nothing may be declared where wilds move
/// (`wilds.may-move`: the meld is read again from its cards, so a declaration would be forgotten).
pub fn lay_off_declares(rules: &Rules) -> Declare {
    if rules.wilds_move {
        return Declare::Nothing;
    }
    match rules.readings.wild_declaration {
        rd::WildDeclaration::Never => Declare::Nothing,
        rd::WildDeclaration::Always => Declare::Everything,
        rd::WildDeclaration::WhenAmbiguous => Declare::WhereAmbiguous,
        rd::WildDeclaration::KindWhenAllWild
        | rd::WildDeclaration::KindAlways
        | rd::WildDeclaration::WhenAtMostOneNatural => Declare::Optional,
    }
}

impl Game {
    /// `cards` are the meld's cards (`lay_off: false`) or the cards laid off.
    pub(super) fn declaration_policy(
        &self,
        cards: &[Card],
        lay_off: bool,
        kind: Option<MeldKind>,
        declared: &[(Card, Target)],
        interps: Vec<Interpretation>,
    ) -> Result<Vec<Interpretation>, Illegal> {
        let asks = if lay_off {
            lay_off_declares(&self.rules)
        } else {
            meld_declares(&self.rules, cards)
        };
        let reading = self.rules.readings.wild_declaration.name();
        match asks {
            Declare::Nothing => {
                if !declared.is_empty() {
                    let why = if lay_off && self.rules.wilds_move {
                        "a lay-off declares nothing: wilds move, each meld is read again from its cards (wilds.may-move)".to_string()
                    } else {
                        format!(
                            "wilds are not declared: they float until rescued (wild-declaration={reading})"
                        )
                    };
                    return Err(illegal(Reason::DeclarationNotAllowed, why));
                }
                Ok(interps)
            }
            Declare::Optional | Declare::Kind => {
                if asks == Declare::Kind && kind.is_none() {
                    return Err(illegal(
                        Reason::DeclarationRequired,
                        format!("name the meld a set or a run (wild-declaration={reading})"),
                    ));
                }
                if declared.is_empty() {
                    Ok(interps)
                } else {
                    single(interps)
                }
            }
            Declare::Everything => {
                let wilds = cards.iter().filter(|c| self.rules.is_wild(**c)).count();
                if wilds > 0 && (kind.is_none() || declared.len() < wilds) {
                    return Err(illegal(
                        Reason::DeclarationRequired,
                        format!(
                            "state the kind of meld and what each of the {wilds} wild card(s) stands for (wild-declaration={reading})"
                        ),
                    ));
                }
                single(interps)
            }
            Declare::WhereAmbiguous => single(interps),
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
