//! The meld oracle: every interpretation of a group of cards as a set or a run under the rules.
//!
//! What a meld is under [`Rules`], plainly:
//! - A *set* is at least `sets.min-size` cards of one rank (at most 4 under `set-max-size=4`).
//!   A wild in it stands for the rank (`wild-in-set-represents=rank-only`) or for the rank in a
//!   suit of its own (`exact-card`); under `set-duplicate-suits=forbidden` no two of its cards
//!   stand for the same suit. There is a set of twos only where a 2 may be natural in a set
//!   (`natural-twos=runs-and-sets`): under `runs-only` and `never` no set has rank 2, made of
//!   twos or of other wilds ([`no_set_of_twos`] says so in words).
//! - A *run* is at least `runs.min-length` cards standing for consecutive places of the rank
//!   line ([`Rules::line`]: A 2 3 … K A; the 2 only under `runs.two-in-sequence`, the low ace only
//!   under `ace-position=high-or-low`, around the corner only under `runs.wrap-around`), all of
//!   one suit under `run-suits=same-suit` (a wild then stands for an exact card) or of any suits
//!   (a wild stands for a rank). A natural card sits at a place of its own rank, a wild at any
//!   place; a run takes the line's low and high ace together only under `ace-both-ends=allowed`.
//! - Under `all-wild-melds=forbidden` every meld holds at least one natural card.
//! - Under the house limits on wild cards (`wilds.max-per-meld`, `may-outnumber-naturals`,
//!   `min-naturals`, `side-by-side-in-runs`: [`within_limits`]) only the interpretations that
//!   keep them are melds; a role counts as natural where it stands for itself.
//!
//! [`crate::oracle::meld_reference`] states exactly this by brute force (every card at every
//! place it could stand); `tests/integration/meld_oracle.rs` holds the search here to it, and holds the
//! shortcuts ([`extend_by_one`], [`joins`], [`rescue_in`]) to the full search.
//!
//! The search reasons per set rank and per run window (suit × start place), placing natural cards
//! where they must go and then distributing the wild cards over the free places; it never tries
//! every card for every wild. The set search is in `sets.rs`, the run search in `runs.rs`, the
//! reasons a meld is refused in `explain.rs`, the one-card lay-off shortcuts in `extend.rs` and
//! the rescue shortcut in `rescue.rs`.
//!
//! Terms: a *wild-capable* card is a joker or (when twos are wild) a 2. A 2 that stands for its
//! own exact card (in a set under `rank-only`: its own rank) is *natural* wherever the reading
//! `natural-twos` allows a natural 2 in that kind of meld; otherwise it is wild.

mod explain;
mod extend;
mod rescue;
mod runs;
mod sets;
#[cfg(test)]
mod tests;

pub use explain::{beyond_limits, explain, no_set_of_twos};
pub use extend::{
    Joins, OnlyJoin, extend_by_one, extend_each_by_one, extenders, extends, extends_by_one, joins,
    only_join, role_key,
};
pub use rescue::{rescue_in, rescue_into, rescues_in};

use crate::base::card::{Card, Rank, Suit};
use crate::rules::Rules;
use crate::rules::disputes::reading;
use crate::rules::spec::MeldKind;
use std::fmt;

/// The most interpretations listed for one meld; beyond it the list is marked truncated.
pub const MAX_INTERPRETATIONS: usize = 4096;
/// The most cards one meld may hold (the largest pack has 8 × 52 + 32 cards; no rule allows more).
pub const MAX_MELD_CARDS: usize = 64;

/// The roles an interpretation has room for beyond its own when it is built, so that the first
/// lay-offs onto a table meld grow it without moving it ([`OnlyJoin::make`]).
const ROOM: usize = 4;

/// What a card in a meld stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    /// A rank only: a wild in a set under `rank-only`, or in a run under `any-suits`.
    Rank(Rank),
    /// One exact card.
    Card(Card),
}

impl Target {
    pub fn rank(self) -> Option<Rank> {
        match self {
            Target::Rank(r) => Some(r),
            Target::Card(c) => c.rank(),
        }
    }

    /// [`Target::cards`] as a mask by [`Card::index`].
    pub fn mask(self) -> u64 {
        // The card index of a rank's first card, and the same rank a suit on.
        const EVERY_SUIT: u64 = 1 | 1 << 13 | 1 << 26 | 1 << 39;
        // One shift of one of two bases, chosen without a branch.
        let (base, shift) = match self {
            Target::Card(c) => (1, c.index()),
            Target::Rank(r) => (EVERY_SUIT, usize::from(r as u8 - 1)),
        };
        base << shift
    }

    /// The cards that meet this target: the card itself, or the rank in every suit.
    pub fn cards(self) -> impl Iterator<Item = Card> {
        let (one, rank) = match self {
            Target::Card(c) => (Some(c), None),
            Target::Rank(r) => (None, Some(r)),
        };
        one.into_iter().chain(
            rank.into_iter()
                .flat_map(|r| Suit::ALL.iter().map(move |&s| Card::new(r, s))),
        )
    }

    /// Whether a declaration `self` is satisfied by a role standing for `actual`. A rank
    /// declaration matches any card of that rank; a card declaration of a rank-only role matches
    /// on rank (the suit is not part of that role).
    pub fn matches(self, actual: Target) -> bool {
        match (self, actual) {
            (Target::Card(a), Target::Card(b)) => a == b,
            (a, b) => a.rank().is_some() && a.rank() == b.rank(),
        }
    }

    pub fn pretty(self) -> String {
        match self {
            Target::Rank(r) => r.name().to_string(),
            Target::Card(c) => c.pretty(),
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Rank(r) => f.write_str(r.name()),
            Target::Card(c) => write!(f, "{c}"),
        }
    }
}

impl std::str::FromStr for Target {
    type Err = crate::base::card::CardParseError;

    /// `7H` (a card) or `7` (a rank).
    fn from_str(s: &str) -> Result<Target, Self::Err> {
        if let Some(r) = Rank::parse(s.trim()) {
            return Ok(Target::Rank(r));
        }
        s.parse::<Card>().map(Target::Card)
    }
}

/// One card's part in an interpretation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Role {
    /// The place on the rank line (runs), in order; 0 for sets.
    pub place: u8,
    pub stands_for: Target,
    pub card: Card,
    /// The card stands for itself (it is not acting as a wild).
    pub natural: bool,
}

impl Role {
    /// Whether a natural `card` is what this role stands for (for a rescue).
    pub fn stands_for_matches(&self, card: Card) -> bool {
        match self.stands_for {
            Target::Card(c) => c == card,
            Target::Rank(r) => card.rank() == Some(r),
        }
    }
}

/// One way to read the cards as a meld.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Interpretation {
    pub kind: MeldKind,
    /// A set's rank.
    pub rank: Option<Rank>,
    /// A run's suit (`None` for a run under `any-suits`).
    pub suit: Option<Suit>,
    /// Roles in canonical order: runs low to high, sets by what each card stands for.
    pub roles: Vec<Role>,
}

impl Interpretation {
    pub fn wilds(&self) -> impl Iterator<Item = &Role> {
        self.roles.iter().filter(|r| !r.natural)
    }

    /// `run of 9♥–Q♥` / `set of 7s`, for people.
    pub fn describe(&self) -> String {
        match self.kind {
            MeldKind::Set => format!("set of {}s", self.rank.map_or("?", Rank::name)),
            MeldKind::Run => {
                let lo = self.roles.first().and_then(|r| r.stands_for.rank());
                let hi = self.roles.last().and_then(|r| r.stands_for.rank());
                let suit = self
                    .suit
                    .map(|s| s.symbol().to_string())
                    .unwrap_or_default();
                format!(
                    "run {}{suit}–{}{suit}",
                    lo.map_or("?", Rank::name),
                    hi.map_or("?", Rank::name)
                )
            }
        }
    }
}

/// A request to the oracle.
#[derive(Clone, Debug, Default)]
pub struct Query {
    pub cards: Vec<Card>,
    pub kind: Option<MeldKind>,
    /// Declared meanings: each entry says one copy of `card` stands for the target.
    pub declared: Vec<(Card, Target)>,
}

/// The oracle's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub interpretations: Vec<Interpretation>,
    pub truncated: bool,
    /// Why there is none, for people (empty when valid).
    pub reason: String,
}

impl Verdict {
    pub fn is_valid(&self) -> bool {
        !self.interpretations.is_empty()
    }
}

/// Card counts prepared for the search, in two buffers of the caller's ([`Kinds`]).
struct Parts<'a> {
    /// Natural cards that are not wild-capable, with counts.
    naturals: &'a [(Card, u8)],
    /// Wild-capable cards, by kind, with counts.
    wilds: &'a [(Card, u8)],
    n: usize,
}

/// Room for one card kind per entry: the space [`parts`] fills, on the caller's stack.
type Kinds = [(Card, u8); crate::base::card::KINDS];

/// Empty [`Kinds`].
const NO_KINDS: Kinds = [(Card::JOKER, 0); crate::base::card::KINDS];

fn parts<'a>(
    rules: &Rules,
    cards: &[Card],
    naturals: &'a mut Kinds,
    wilds: &'a mut Kinds,
) -> Parts<'a> {
    let mut counts = [0u8; crate::base::card::KINDS];
    // The kinds present, to visit them in index order without reading every count.
    let mut present = 0u64;
    for c in cards {
        counts[c.index()] = counts[c.index()].saturating_add(1);
        present |= 1 << c.index();
    }
    let (mut nn, mut nw) = (0, 0);
    for card in crate::base::card::cards_in(present) {
        let k = counts[card.index()];
        if rules.is_wild(card) {
            wilds[nw] = (card, k);
            nw += 1;
        } else {
            naturals[nn] = (card, k);
            nn += 1;
        }
    }
    Parts {
        naturals: &naturals[..nn],
        wilds: &wilds[..nw],
        n: cards.len(),
    }
}

fn all_wild_ok(rules: &Rules) -> bool {
    rules.readings.all_wild_melds == reading::AllWildMelds::Allowed
}

/// Whether `i` keeps the rules' limits on the wild cards of a meld ([`WildLimits`]): the count
/// of its natural and wild roles, and in a run no two wild roles on neighbouring places (roles
/// run low to high, one per place).
///
/// [`WildLimits`]: crate::rules::WildLimits
pub fn within_limits(rules: &Rules, i: &Interpretation) -> bool {
    let l = &rules.wild_limits;
    let wilds = i.roles.iter().filter(|r| !r.natural).count();
    l.counts_allow(i.roles.len() - wilds, wilds)
        && !(l.apart_in_runs
            && i.kind == MeldKind::Run
            && i.roles.windows(2).any(|w| !w[0].natural && !w[1].natural))
}

/// Calls `f` on every interpretation (not deduplicated across calls, but each is produced once);
/// stops when `f` returns `false`. Returns `false` if stopped. Under limits on the wild cards of a
/// meld ([`within_limits`]) only the interpretations that keep them are given.
pub fn for_each(
    rules: &Rules,
    cards: &[Card],
    kind: Option<MeldKind>,
    f: &mut dyn FnMut(Interpretation) -> bool,
) -> bool {
    for_each_at(rules, cards, kind, rules.set_min, f)
}

/// [`for_each`] with sets from `set_min` cards on instead of `sets.min-size`: where a contract
/// names a set of one rank smaller than that (`set of 2 aces`), the sets it may be laid as
/// ([`crate::oracle::contract::set_floor`]). Whether such a small set is a meld at all is the
/// contract's question, not the oracle's.
pub fn for_each_at(
    rules: &Rules,
    cards: &[Card],
    kind: Option<MeldKind>,
    set_min: u8,
    f: &mut dyn FnMut(Interpretation) -> bool,
) -> bool {
    if rules.wild_limits.active() {
        return for_each_unlimited(rules, cards, kind, set_min, &mut |i| {
            !within_limits(rules, &i) || f(i)
        });
    }
    for_each_unlimited(rules, cards, kind, set_min, f)
}

/// [`for_each_at`] without the limits on wild cards.
fn for_each_unlimited(
    rules: &Rules,
    cards: &[Card],
    kind: Option<MeldKind>,
    set_min: u8,
    f: &mut dyn FnMut(Interpretation) -> bool,
) -> bool {
    if cards.len() > MAX_MELD_CARDS {
        return true;
    }
    let (mut naturals, mut wilds) = (NO_KINDS, NO_KINDS);
    let p = parts(rules, cards, &mut naturals, &mut wilds);
    if kind != Some(MeldKind::Run) && !sets::sets(rules, &p, set_min, f) {
        return false;
    }
    if kind != Some(MeldKind::Set) && !runs::runs(rules, &p, f) {
        return false;
    }
    true
}

/// Whether the cards form at least one legal meld (of `kind`, if given).
pub fn is_valid(rules: &Rules, cards: &[Card], kind: Option<MeldKind>) -> bool {
    !for_each(rules, cards, kind, &mut |_| false)
}

/// [`is_valid`] with sets from `set_min` cards on ([`for_each_at`]).
pub fn is_valid_at(rules: &Rules, cards: &[Card], kind: Option<MeldKind>, set_min: u8) -> bool {
    !for_each_at(rules, cards, kind, set_min, &mut |_| false)
}

/// Every interpretation matching the query's kind and declarations, deduplicated, in canonical
/// order, with a reason when there is none.
pub fn interpret(rules: &Rules, q: &Query) -> Verdict {
    interpret_at(rules, q, rules.set_min)
}

/// [`interpret`] with sets from `set_min` cards on ([`for_each_at`]).
pub fn interpret_at(rules: &Rules, q: &Query, set_min: u8) -> Verdict {
    let mut all = Vec::new();
    let mut truncated = false;
    let mut unfiltered = 0usize;
    for_each_at(rules, &q.cards, q.kind, set_min, &mut |i| {
        unfiltered += 1;
        if declarations_hold(&i, &q.declared) {
            if all.len() >= MAX_INTERPRETATIONS {
                truncated = true;
                return false;
            }
            all.push(i);
        }
        true
    });
    all.sort();
    all.dedup();
    let reason = if !all.is_empty() {
        String::new()
    } else if q.cards.len() > MAX_MELD_CARDS {
        format!(
            "a meld of {} cards is beyond the limit of {MAX_MELD_CARDS}",
            q.cards.len()
        )
    } else if unfiltered > 0 {
        let twos = q.kind != Some(MeldKind::Run)
            && q.declared.iter().any(|(_, t)| t.rank() == Some(Rank::Two));
        match explain::no_set_of_twos(rules).filter(|_| twos) {
            Some(why) => {
                format!("no interpretation matches the declared meanings of the wild cards: {why}")
            }
            None => "no interpretation matches the declared meanings of the wild cards".to_string(),
        }
    } else if let Some(why) = explain::beyond_limits(rules, &q.cards, q.kind) {
        why
    } else {
        explain(rules, &q.cards, q.kind)
    };
    Verdict {
        interpretations: all,
        truncated,
        reason,
    }
}

/// Whether every declaration is met by a distinct role.
pub fn declarations_hold(i: &Interpretation, declared: &[(Card, Target)]) -> bool {
    let mut used = [false; MAX_MELD_CARDS];
    'decl: for (card, target) in declared {
        for (k, role) in i.roles.iter().enumerate() {
            if !used[k] && role.card == *card && target.matches(role.stands_for) {
                used[k] = true;
                continue 'decl;
            }
        }
        return false;
    }
    true
}
