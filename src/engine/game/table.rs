//! A meld on the table ([`TableMeld`]) and its stamp: the number that tells one state of a meld
//! from every other, so that a player (or [`super::seen`]) that remembers what it learnt about a
//! meld knows while it still holds.

use crate::base::card::Card;
use crate::oracle::meld::{self, Interpretation, Query};
use crate::rules::Rules;
use crate::rules::spec::MeldKind;
use std::fmt;

/// A meld on the table.
#[derive(Clone)]
pub struct TableMeld {
    pub owner: u8,
    /// The cards in the order they were laid: a meld action's in the order it lists them, each
    /// lay-off's appended in the order it gives them (whichever end of a run they extend), a
    /// joined run's after those; a rescue puts the natural where the wild was. Not sorted: the
    /// meld oracle reads cards in any order, and whoever needs them sorted sorts a copy.
    pub cards: Vec<Card>,
    /// Every interpretation still possible: exactly one unless wilds float (`wild-declaration=never`).
    pub interps: Vec<Interpretation>,
    /// Which state of a meld this is: a number no other meld, and no other state of this one,
    /// has had in this process ([`TableMeld::restamp`]). A player that remembers what it learnt
    /// about a meld keeps its stamp and knows the meld unchanged while the stamp is the same.
    /// Not part of what a meld is: equality and `Debug` leave it out.
    pub(super) stamp: u64,
}

/// The cards a new meld's list has room for beyond its own: most melds take a lay-off or two,
/// and a list grown one card at a time would be copied at the first.
pub(super) const LAY_OFF_ROOM: usize = 4;

static STAMPS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The next stamp of [`TableMeld`]: process-wide, so melds made on different threads differ too.
fn next_stamp() -> u64 {
    STAMPS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// How many stamps [`TableMeld`]s have taken in this process so far. Every change to a table
/// takes one (a new meld, or [`TableMeld::restamp`] of a changed one) or changes its length, so
/// a thread that reads the same number twice, and the same length of a table, has seen no
/// change to that table in between (another thread's stamps only make the number move).
pub fn stamps_taken() -> u64 {
    STAMPS.load(std::sync::atomic::Ordering::Relaxed)
}

impl TableMeld {
    pub fn new(owner: u8, cards: Vec<Card>, interps: Vec<Interpretation>) -> TableMeld {
        TableMeld {
            owner,
            cards,
            interps,
            stamp: next_stamp(),
        }
    }

    /// The fewest cards a set grown from this meld is searched from: `sets.min-size`, or the
    /// meld's own size for a set below it (a contract set of a fixed rank, `set of 2 aces`,
    /// which lay-offs grow as a set of its rank).
    pub fn set_floor(&self, rules: &Rules) -> u8 {
        let set = self.interps.iter().all(|i| i.kind == MeldKind::Set);
        if set && self.cards.len() < usize::from(rules.set_min) {
            self.cards.len() as u8
        } else {
            rules.set_min
        }
    }

    pub fn stamp(&self) -> u64 {
        self.stamp
    }

    /// A new stamp, for a meld changed in place: whoever changes its fields calls this.
    pub fn restamp(&mut self) {
        self.stamp = next_stamp();
    }
}

/// Where wilds move (`wilds.may-move`), the readings a table meld keeps: every reading of its
/// `cards` as a meld of the kind its readings `was` share (any kind where they differ), found
/// again from the cards alone, so no wild keeps the place it had. A set smaller than
/// `sets.min-size` (laid as a contract set of a fixed rank, `set of 2 aces`) stays a set of its
/// rank.
pub(super) fn rederived(
    rules: &Rules,
    cards: &[Card],
    was: &[Interpretation],
) -> Vec<Interpretation> {
    let kind = common_kind(was);
    let small = kind == Some(MeldKind::Set) && cards.len() < usize::from(rules.set_min);
    let floor = if small {
        cards.len() as u8
    } else {
        rules.set_min
    };
    let mut v = meld::interpret_at(
        rules,
        &Query {
            cards: cards.to_vec(),
            kind,
            declared: vec![],
        },
        floor,
    )
    .interpretations;
    if small {
        v.retain(|x| was.iter().any(|w| w.rank == x.rank));
    }
    v
}

/// The kind every one of `interps` has, if they agree.
pub fn common_kind(interps: &[Interpretation]) -> Option<MeldKind> {
    let kind = interps.first().map(|i| i.kind);
    kind.filter(|k| interps.iter().all(|i| i.kind == *k))
}

impl PartialEq for TableMeld {
    fn eq(&self, other: &TableMeld) -> bool {
        (self.owner, &self.cards, &self.interps) == (other.owner, &other.cards, &other.interps)
    }
}

impl Eq for TableMeld {}

impl fmt::Debug for TableMeld {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TableMeld")
            .field("owner", &self.owner)
            .field("cards", &self.cards)
            .field("interps", &self.interps)
            .finish()
    }
}
