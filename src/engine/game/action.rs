//! What a player may do: [`Action`], the melds it names ([`MeldSpec`]), and the canonical
//! one-line text of an action (`push`, `meld set [7S 7H JK JK=7]`, `discard 9H`). Reading that
//! text back is `crate::engine::action_text`'s.

use crate::base::card::{Card, CardList};
use crate::oracle::meld::{Query, Target};
use crate::rules::spec::MeldKind;
use std::fmt;

/// A meld as a player puts it down: cards, optionally its kind, and declared meanings of wilds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MeldSpec {
    pub cards: Vec<Card>,
    pub kind: Option<MeldKind>,
    pub declared: Vec<(Card, Target)>,
}

impl MeldSpec {
    pub(super) fn query(&self) -> Query {
        Query {
            cards: self.cards.clone(),
            kind: self.kind,
            declared: self.declared.clone(),
        }
    }
}

/// What the player to move may do.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Take the top card of the discard pile (the draw).
    TakeDiscard,
    /// Push the top discard and stock card(s) to the neighbour, then (per `pusher-draws`) draw.
    Push,
    /// A plain draw from the stock. No source's rules allow it (001's worked example does it);
    /// it exists so that a scenario can say so and be told why not.
    DrawStock,
    /// Put one or more new melds on the table (the contract laydown, or later melds).
    Meld(Vec<MeldSpec>),
    /// Add cards to a meld on the table (`join`: also to a second run, joining the two).
    LayOff {
        meld: usize,
        cards: CardList,
        declared: Vec<(Card, Target)>,
        join: Option<usize>,
    },
    /// Replace the wild `wild` in a table meld with the natural card it stands for; the wild goes
    /// to the hand, and `then` (a meld or lay-off using it) follows in the same action.
    Rescue {
        meld: usize,
        natural: Card,
        wild: Card,
        then: Option<Box<Action>>,
    },
    /// End the turn by discarding.
    Discard(Card),
    /// End the turn without a discard: only when no card may be discarded.
    EndTurn,
    /// Buy the top discard out of turn, with penalty cards (`buying`): the seat asked.
    Buy,
    /// Decline to buy the top discard: the seat asked.
    Pass,
}

impl Action {
    /// One card laid off onto meld `meld` (joined to `join`), declaring nothing.
    pub fn plain_lay_off(meld: usize, card: Card, join: Option<usize>) -> Action {
        Action::LayOff {
            meld,
            cards: [card].into(),
            declared: vec![],
            join,
        }
    }
}

fn cards_text(cards: &[Card]) -> String {
    cards
        .iter()
        .map(Card::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn decl_text(d: &[(Card, Target)]) -> String {
    d.iter().map(|(c, t)| format!(" {c}={t}")).collect()
}

fn spec_text(m: &MeldSpec) -> String {
    let kind = m.kind.map(|k| format!("{} ", k.name())).unwrap_or_default();
    format!("{kind}[{}{}]", cards_text(&m.cards), decl_text(&m.declared))
}

/// The canonical one-line form of an action: `push`, `meld set [7S 7H JK JK=7]`, `discard 9H`.
impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::TakeDiscard => f.write_str("take-discard"),
            Action::Push => f.write_str("push"),
            Action::DrawStock => f.write_str("draw-stock"),
            Action::Meld(specs) => {
                let v: Vec<String> = specs.iter().map(spec_text).collect();
                write!(f, "meld {}", v.join(" "))
            }
            Action::LayOff {
                meld,
                cards,
                declared,
                join,
            } => {
                write!(
                    f,
                    "lay-off {meld} [{}{}]",
                    cards_text(cards),
                    decl_text(declared)
                )?;
                if let Some(j) = join {
                    write!(f, " join {j}")?;
                }
                Ok(())
            }
            Action::Rescue {
                meld,
                natural,
                wild,
                then,
            } => {
                write!(f, "rescue {meld} {natural} for {wild}")?;
                if let Some(t) = then {
                    write!(f, " then {t}")?;
                }
                Ok(())
            }
            Action::Discard(c) => write!(f, "discard {c}"),
            Action::EndTurn => f.write_str("end-turn"),
            Action::Buy => f.write_str("buy"),
            Action::Pass => f.write_str("pass"),
        }
    }
}
