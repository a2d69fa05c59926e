//! The meld oracle: every interpretation of a group of cards as a set or a run under the rules.
//!
//! The search reasons per set rank and per run window (suit × start place), placing natural cards
//! where they must go and then distributing the wild cards over the free places; it never tries
//! every card for every wild. A brute-force reference in `tests/meld_oracle.rs` checks it.
//!
//! Terms: a *wild-capable* card is a joker or (when twos are wild) a 2. A 2 that stands for its
//! own exact card (in a set under `rank-only`: its own rank) is *natural* wherever the reading
//! `natural-twos` allows a natural 2 in that kind of meld; otherwise it is wild.

use crate::base::card::{Card, Rank, Suit};
use crate::rules::disputes::reading;
use crate::rules::spec::MeldKind;
use crate::rules::{Place, Rules};
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

/// Calls `f` on every interpretation (not deduplicated across calls, but each is produced once);
/// stops when `f` returns `false`. Returns `false` if stopped.
pub fn for_each(
    rules: &Rules,
    cards: &[Card],
    kind: Option<MeldKind>,
    f: &mut dyn FnMut(Interpretation) -> bool,
) -> bool {
    if cards.len() > MAX_MELD_CARDS {
        return true;
    }
    let (mut naturals, mut wilds) = (NO_KINDS, NO_KINDS);
    let p = parts(rules, cards, &mut naturals, &mut wilds);
    if kind != Some(MeldKind::Run) && !sets(rules, &p, f) {
        return false;
    }
    if kind != Some(MeldKind::Set) && !runs(rules, &p, f) {
        return false;
    }
    true
}

/// Whether the cards form at least one legal meld (of `kind`, if given).
pub fn is_valid(rules: &Rules, cards: &[Card], kind: Option<MeldKind>) -> bool {
    !for_each(rules, cards, kind, &mut |_| false)
}

/// Every interpretation matching the query's kind and declarations, deduplicated, in canonical
/// order, with a reason when there is none.
pub fn interpret(rules: &Rules, q: &Query) -> Verdict {
    let mut all = Vec::new();
    let mut truncated = false;
    let mut unfiltered = 0usize;
    for_each(rules, &q.cards, q.kind, &mut |i| {
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
        "no interpretation matches the declared meanings of the wild cards".to_string()
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

// ---------------------------------------------------------------- sets

fn sets(rules: &Rules, p: &Parts<'_>, f: &mut dyn FnMut(Interpretation) -> bool) -> bool {
    let n = p.n;
    if n < usize::from(rules.set_min) {
        return true;
    }
    if rules.readings.set_max_size == reading::SetMaxSize::V4 && n > 4 {
        return true;
    }
    // The naturals fix the rank; with none, every rank is possible.
    let fixed: Option<Rank> = p.naturals.first().and_then(|(c, _)| c.rank());
    if p.naturals.iter().any(|(c, _)| c.rank() != fixed) {
        return true;
    }
    for rank in Rank::ALL {
        if fixed.is_some_and(|r| r != rank) {
            continue;
        }
        if rank == Rank::Two && !rules.natural_two_in_sets() {
            continue;
        }
        if !set_of_rank(rules, p, rank, f) {
            return false;
        }
    }
    true
}

fn set_of_rank(
    rules: &Rules,
    p: &Parts<'_>,
    rank: Rank,
    f: &mut dyn FnMut(Interpretation) -> bool,
) -> bool {
    let forbid = rules.readings.set_duplicate_suits == reading::SetDuplicateSuits::Forbidden;
    let exact = rules.readings.wild_in_set_represents == reading::WildInSetRepresents::ExactCard;
    // Room for the lay-offs a meld on the table takes (the roles grow in place).
    let mut roles: Vec<Role> = Vec::with_capacity(p.n + ROOM);
    let mut used = [0u8; 4];
    for &(card, k) in p.naturals {
        let s = card.suit().expect("naturals are suited") as usize;
        used[s] += k;
        for _ in 0..k {
            roles.push(Role {
                place: 0,
                stands_for: Target::Card(card),
                card,
                natural: true,
            });
        }
    }
    if forbid && used.iter().any(|&u| u > 1) {
        return true;
    }
    // Wild-capable cards: under rank-only, a 2 in a set of twos stands for its own rank and is
    // natural; every other one stands for the rank. Under exact-card each picks a suit.
    if !exact {
        for &(card, k) in p.wilds {
            let natural = rank == Rank::Two && card.is_two();
            if natural {
                let s = card.suit().expect("twos are suited") as usize;
                used[s] += k;
            }
            for _ in 0..k {
                roles.push(Role {
                    place: 0,
                    stands_for: if natural {
                        Target::Card(card)
                    } else {
                        Target::Rank(rank)
                    },
                    card,
                    natural,
                });
            }
        }
        if forbid && used.iter().any(|&u| u > 1) {
            return true;
        }
        if !all_wild_ok(rules) && !roles.iter().any(|r| r.natural) {
            return true;
        }
        roles.sort();
        return f(Interpretation {
            kind: MeldKind::Set,
            rank: Some(rank),
            suit: None,
            roles,
        });
    }
    // Exact card: give each wild-capable card a suit, as multisets per kind.
    let mut wild_list: Vec<Card> = Vec::new();
    for &(card, k) in p.wilds {
        for _ in 0..k {
            wild_list.push(card);
        }
    }
    let mut cont = true;
    assign_set_suits(
        rules,
        rank,
        forbid,
        &wild_list,
        0,
        0,
        &mut used,
        &mut roles,
        &mut |roles| {
            if !all_wild_ok(rules) && !roles.iter().any(|r| r.natural) {
                return true;
            }
            let mut sorted = roles.to_vec();
            sorted.sort();
            let ok = f(Interpretation {
                kind: MeldKind::Set,
                rank: Some(rank),
                suit: None,
                roles: sorted,
            });
            if !ok {
                cont = false;
            }
            ok
        },
    );
    cont
}

/// Assigns suits to `wilds[i..]`; equal consecutive wild cards take non-decreasing suits so each
/// multiset is produced once.
#[allow(clippy::too_many_arguments)]
fn assign_set_suits(
    rules: &Rules,
    rank: Rank,
    forbid: bool,
    wilds: &[Card],
    i: usize,
    min_suit: usize,
    used: &mut [u8; 4],
    roles: &mut Vec<Role>,
    f: &mut dyn FnMut(&[Role]) -> bool,
) -> bool {
    if i == wilds.len() {
        return f(roles);
    }
    let card = wilds[i];
    let start = if i > 0 && wilds[i - 1] == card {
        min_suit
    } else {
        0
    };
    for s in start..4 {
        if forbid && used[s] > 0 {
            continue;
        }
        let target = Card::new(rank, Suit::from_index(s));
        let natural = target == card;
        if natural && !rules.natural_two_in_sets() {
            continue;
        }
        used[s] += 1;
        roles.push(Role {
            place: 0,
            stands_for: Target::Card(target),
            card,
            natural,
        });
        let go = assign_set_suits(rules, rank, forbid, wilds, i + 1, s, used, roles, f);
        roles.pop();
        used[s] -= 1;
        if !go {
            return false;
        }
    }
    true
}

// ---------------------------------------------------------------- runs

fn runs(rules: &Rules, p: &Parts<'_>, f: &mut dyn FnMut(Interpretation) -> bool) -> bool {
    let n = p.n;
    let len = rules.line.len();
    if n < usize::from(rules.run_min) || n > rules.max_run() {
        return true;
    }
    let same_suit = rules.readings.run_suits == reading::RunSuits::SameSuit;
    let one;
    let suits: &[Option<Suit>] = if same_suit {
        // The naturals fix the suit; with none, every suit.
        match p.naturals.first().and_then(|(c, _)| c.suit()) {
            Some(s) => {
                if p.naturals.iter().any(|(c, _)| c.suit() != Some(s)) {
                    return true;
                }
                one = [Some(s)];
                &one
            }
            None => &Suit::EACH,
        }
    } else {
        &[None]
    };
    let both_ends = rules.readings.ace_both_ends == reading::AceBothEnds::Allowed;
    // A window holds the naturals only if it has a place of each natural's rank: the others
    // give no interpretation (`run_window` places each natural at a place of its rank).
    let natural_ranks: u16 = p
        .naturals
        .iter()
        .filter_map(|(c, _)| c.rank())
        .fold(0, |m, r| m | 1 << (r.number() - 1));
    let holds_naturals = |w: u32| {
        let mut ranks = natural_ranks;
        while ranks != 0 {
            let r = ranks.trailing_zeros() as usize;
            ranks &= ranks - 1;
            if rules.rank_places[r] & w == 0 {
                return false;
            }
        }
        true
    };
    // The window's places, and (in `run_window`) what sits at each: on the stack, as a meld has
    // at most `MAX_MELD_CARDS` cards.
    let mut places = [0u8; MAX_MELD_CARDS];
    let places = &mut places[..n];
    for &suit in suits {
        // Every start of the line's windows (one where a run takes the whole circle).
        let starts = rules.windows(n).iter().enumerate();
        for (start, _) in starts.filter(|&(_, &w)| holds_naturals(w)) {
            for (i, pl) in places.iter_mut().enumerate() {
                *pl = ((start + i) % len) as u8;
            }
            if !rules.wrap_around && !both_ends && n == len && rules.line[0].rank == Rank::Ace {
                continue;
            }
            if !run_window(rules, p, suit, places, f) {
                return false;
            }
        }
    }
    true
}

fn run_window(
    rules: &Rules,
    p: &Parts<'_>,
    suit: Option<Suit>,
    places: &[u8],
    f: &mut dyn FnMut(Interpretation) -> bool,
) -> bool {
    let n = places.len();
    // Which card sits at each window slot (None = free for a wild).
    let mut slots = [None::<Card>; MAX_MELD_CARDS];
    let slot = &mut slots[..n];
    // Naturals: each copy needs a slot of its rank (aces may have two).
    let mut ace_list = [Card::JOKER; MAX_MELD_CARDS];
    let mut aces = 0;
    for &(card, k) in p.naturals {
        let rank = card.rank().expect("naturals are suited");
        if rank == Rank::Ace {
            for _ in 0..k {
                // Never full (a meld has at most `MAX_MELD_CARDS` cards); were it, no reading.
                let Some(a) = ace_list.get_mut(aces) else {
                    return true;
                };
                *a = card;
                aces += 1;
            }
            continue;
        }
        let mut left = k;
        for (i, &pl) in places.iter().enumerate() {
            if left > 0 && rules.line[usize::from(pl)].rank == rank && slot[i].is_none() {
                slot[i] = Some(card);
                left -= 1;
            }
        }
        if left > 0 {
            return true;
        }
    }
    place_aces(rules, p, suit, places, &ace_list[..aces], 0, slot, f)
}

#[allow(clippy::too_many_arguments)]
fn place_aces(
    rules: &Rules,
    p: &Parts<'_>,
    suit: Option<Suit>,
    places: &[u8],
    aces: &[Card],
    i: usize,
    slot: &mut [Option<Card>],
    f: &mut dyn FnMut(Interpretation) -> bool,
) -> bool {
    if i == aces.len() {
        return fill_wilds(rules, p, suit, places, slot, f);
    }
    let card = aces[i];
    // Equal aces take increasing slots so each placement is produced once.
    let from = if i > 0 && aces[i - 1] == card {
        slot.iter()
            .rposition(|s| *s == Some(card))
            .map_or(0, |x| x + 1)
    } else {
        0
    };
    for k in from..places.len() {
        if slot[k].is_none() && rules.line[usize::from(places[k])].rank == Rank::Ace {
            slot[k] = Some(card);
            let go = place_aces(rules, p, suit, places, aces, i + 1, slot, f);
            slot[k] = None;
            if !go {
                return false;
            }
        }
    }
    true
}

fn fill_wilds(
    rules: &Rules,
    p: &Parts<'_>,
    suit: Option<Suit>,
    places: &[u8],
    slot: &mut [Option<Card>],
    f: &mut dyn FnMut(Interpretation) -> bool,
) -> bool {
    let mut open = [0u8; MAX_MELD_CARDS];
    let mut frees = 0;
    for (k, s) in slot.iter().enumerate() {
        if s.is_none() {
            open[frees] = k as u8;
            frees += 1;
        }
    }
    let free = &open[..frees];
    let total: usize = p.wilds.iter().map(|(_, k)| usize::from(*k)).sum();
    if total != free.len() {
        return true;
    }
    // The wild kinds left to place (a joker and four twos at most), on the stack.
    let mut kinds = [(Card::JOKER, 0u8); 5];
    let mut spill;
    let remaining: &mut [(Card, u8)] = match kinds.get_mut(..p.wilds.len()) {
        Some(r) => {
            r.copy_from_slice(p.wilds);
            r
        }
        None => {
            spill = p.wilds.to_vec();
            &mut spill
        }
    };
    let nat2 = rules.natural_two_in_runs();
    let mut cont = true;
    distribute(free, 0, remaining, slot, &mut |slot| {
        let mut roles = Vec::with_capacity(places.len() + ROOM);
        for (k, &pl) in places.iter().enumerate() {
            let card = slot[k].expect("every slot is filled");
            let place = rules.line[usize::from(pl)];
            let stands_for = match suit {
                Some(s) => Target::Card(Card::new(place.rank, s)),
                None => Target::Rank(place.rank),
            };
            let natural = if rules.is_wild(card) {
                // A wild-capable 2 at its own place is natural where the rules allow it.
                card.is_two()
                    && nat2
                    && place.rank == Rank::Two
                    && (suit.is_none() || stands_for == Target::Card(card))
            } else {
                true
            };
            roles.push(Role {
                place: k as u8,
                stands_for: if natural && suit.is_none() {
                    Target::Card(card)
                } else {
                    stands_for
                },
                card,
                natural,
            });
        }
        if !all_wild_ok(rules) && !roles.iter().any(|r| r.natural) {
            return true;
        }
        let ok = f(Interpretation {
            kind: MeldKind::Run,
            rank: None,
            suit,
            roles,
        });
        if !ok {
            cont = false;
        }
        ok
    });
    cont
}

/// Every distinct way to put the remaining wild kinds on the free slots.
fn distribute(
    free: &[u8],
    i: usize,
    remaining: &mut [(Card, u8)],
    slot: &mut [Option<Card>],
    f: &mut dyn FnMut(&[Option<Card>]) -> bool,
) -> bool {
    if i == free.len() {
        return f(slot);
    }
    let at = usize::from(free[i]);
    for w in 0..remaining.len() {
        if remaining[w].1 == 0 {
            continue;
        }
        remaining[w].1 -= 1;
        slot[at] = Some(remaining[w].0);
        let go = distribute(free, i + 1, remaining, slot, f);
        slot[at] = None;
        remaining[w].1 += 1;
        if !go {
            return false;
        }
    }
    true
}

// ---------------------------------------------------------------- reasons

/// Why the cards form no meld, in words, naming the rule or reading at fault.
pub fn explain(rules: &Rules, cards: &[Card], kind: Option<MeldKind>) -> String {
    let (mut naturals, mut wilds) = (NO_KINDS, NO_KINDS);
    let p = parts(rules, cards, &mut naturals, &mut wilds);
    let set = || explain_set(rules, &p);
    let run = || explain_run(rules, &p);
    match kind {
        Some(MeldKind::Set) => set(),
        Some(MeldKind::Run) => run(),
        None => {
            let (s, r) = (set(), run());
            if s == r {
                s
            } else {
                format!("not a set ({s}) and not a run ({r})")
            }
        }
    }
}

fn plural(rank: Rank) -> String {
    match rank {
        Rank::Ace => "aces".into(),
        Rank::Jack => "jacks".into(),
        Rank::Queen => "queens".into(),
        Rank::King => "kings".into(),
        r => format!("{}s", r.name()),
    }
}

fn explain_set(rules: &Rules, p: &Parts<'_>) -> String {
    let n = p.n;
    if n < usize::from(rules.set_min) {
        return format!("a set needs at least {} cards; this has {n}", rules.set_min);
    }
    if rules.readings.set_max_size == reading::SetMaxSize::V4 && n > 4 {
        return format!(
            "a set holds at most 4 cards, wilds included (set-max-size=4); this has {n}"
        );
    }
    // The rank most naturals share; name a card that differs.
    let mut by_rank = [0usize; 14];
    for (c, k) in p.naturals {
        by_rank[usize::from(c.rank().expect("suited").number())] += usize::from(*k);
    }
    if let Some(main) = (1..14)
        .max_by_key(|&r| (by_rank[r], std::cmp::Reverse(r)))
        .filter(|&r| by_rank[r] > 0)
    {
        let main = Rank::from_number(main as u8).expect("1..=13");
        if let Some((odd, _)) = p.naturals.iter().find(|(c, _)| c.rank() != Some(main)) {
            return format!(
                "a set needs one rank: {} among {}",
                odd.pretty(),
                plural(main)
            );
        }
        if rules.readings.set_duplicate_suits == reading::SetDuplicateSuits::Forbidden
            && let Some((dup, _)) = p.naturals.iter().find(|(_, k)| *k > 1)
        {
            return format!(
                "a set may not repeat a suit: two {} (set-duplicate-suits=forbidden)",
                dup.pretty()
            );
        }
    } else {
        // No naturals but wild-capable cards.
        if !all_wild_ok(rules) {
            let twos = p.wilds.iter().any(|(c, _)| c.is_two());
            return if twos && !rules.natural_two_in_sets() {
                format!(
                    "a meld needs at least one natural card (all-wild-melds=forbidden), and a 2 is natural only in a run (natural-twos={})",
                    rules.readings.natural_twos.name()
                )
            } else {
                "a meld needs at least one natural card (all-wild-melds=forbidden)".into()
            };
        }
    }
    // Natural or wild, each card of such a set has a suit of its own: four at most.
    if rules.readings.wild_in_set_represents == reading::WildInSetRepresents::ExactCard
        && rules.readings.set_duplicate_suits == reading::SetDuplicateSuits::Forbidden
        && n > 4
    {
        return "each wild in a set stands for a card of its own suit, so a set holds at most 4 cards (wild-in-set-represents=exact-card, set-duplicate-suits=forbidden)".into();
    }
    // Not reached by any refused set that `tests/mutants.rs::a_refused_set_says_why` tries; kept
    // so that a rule the checks above miss still gets an answer.
    "these cards form no set under these rules".into()
}

fn explain_run(rules: &Rules, p: &Parts<'_>) -> String {
    let n = p.n;
    if n < usize::from(rules.run_min) {
        return format!("a run needs at least {} cards; this has {n}", rules.run_min);
    }
    if n > rules.max_run() {
        return format!(
            "a run holds at most {} cards under these rules; this has {n}",
            rules.max_run()
        );
    }
    let same_suit = rules.readings.run_suits == reading::RunSuits::SameSuit;
    if same_suit {
        let mut by_suit = [0usize; 4];
        for (c, k) in p.naturals {
            by_suit[c.suit().expect("suited") as usize] += usize::from(*k);
        }
        let main = (0..4)
            .max_by_key(|&s| (by_suit[s], std::cmp::Reverse(s)))
            .map(Suit::from_index);
        if let Some(main) = main
            && let Some((odd, _)) = p.naturals.iter().find(|(c, _)| c.suit() != Some(main))
        {
            return format!(
                "a run needs one suit: {} among {} (run-suits=same-suit)",
                odd.pretty(),
                suit_plural(main)
            );
        }
    }
    // Two naturals of one rank (other than aces, which may sit at both ends).
    let mut by_rank = [0usize; 14];
    for (c, k) in p.naturals {
        by_rank[usize::from(c.rank().expect("suited").number())] += usize::from(*k);
    }
    for (r, &count) in by_rank.iter().enumerate().skip(2) {
        if count > 1 {
            let rank = Rank::from_number(r as u8).expect("2..=13");
            let card = p
                .naturals
                .iter()
                .find(|(c, _)| c.rank() == Some(rank))
                .map(|(c, _)| *c);
            return match (same_suit, card) {
                (true, Some(c)) => format!("a run cannot hold two {}", c.pretty()),
                _ => format!("a run cannot hold two {}", plural(rank)),
            };
        }
    }
    if by_rank[1] > 1 && rules.readings.ace_both_ends == reading::AceBothEnds::Forbidden {
        return "a run may not have an ace at both ends (ace-both-ends=forbidden)".into();
    }
    if by_rank[2] > 0 && !rules.two_in_sequence {
        return "2 is not a rank in a sequence in this game (runs.two-in-sequence=false)".into();
    }
    let ranks: Vec<String> = p
        .naturals
        .iter()
        .map(|(c, _)| c.rank().expect("suited").name().to_string())
        .collect();
    if by_rank[1] > 0 && rules.readings.ace_position == reading::AcePosition::HighOnly {
        return format!(
            "the ranks {} do not fit one run of {n} with the ace high only (ace-position=high-only)",
            ranks.join(" ")
        );
    }
    if !all_wild_ok(rules) && p.naturals.is_empty() {
        return "a meld needs at least one natural card (all-wild-melds=forbidden)".into();
    }
    format!(
        "the ranks {} do not fit one run of {n} cards (a run is consecutive; an ace ends it, and it cannot turn the corner K-A-2)",
        ranks.join(" ")
    )
}

fn suit_plural(s: Suit) -> &'static str {
    ["spades", "hearts", "diamonds", "clubs"][s as usize]
}

// ---------------------------------------------------------------- one-card extensions

/// Every interpretation of `old`'s cards plus `card` that keeps each role of `old` (a lay-off of one
/// card): the same as filtering [`interpret`] of the combined cards by "extends `old`", but without
/// enumerating the old meld again. `None` when this shortcut does not apply (a full circle under
/// `runs.wrap-around`); callers then use the full search.
pub fn extend_by_one(
    rules: &Rules,
    old: &Interpretation,
    card: Card,
) -> Option<Vec<Interpretation>> {
    extend_each_by_one(rules, std::slice::from_ref(old), card)
}

/// [`extend_by_one`] of each of `olds` (the readings of one table meld), together, sorted and
/// without repeats. `None` where `extend_by_one` of any of them is `None`.
pub fn extend_each_by_one(
    rules: &Rules,
    olds: &[Interpretation],
    card: Card,
) -> Option<Vec<Interpretation>> {
    let mut out = Vec::with_capacity(2 * olds.len());
    for old in olds {
        one_card_joins(rules, old, card, &mut |j| {
            out.push(joined(old, j));
            true
        })?;
    }
    out.sort();
    out.dedup();
    Some(out)
}

/// Whether [`extend_by_one`] finds some interpretation, without building any: what a listing of
/// one-card lay-offs of a natural card needs to know. `None` where `extend_by_one` is `None`.
pub fn extends_by_one(rules: &Rules, old: &Interpretation, card: Card) -> Option<bool> {
    let mut found = false;
    one_card_joins(rules, old, card, &mut |_| {
        found = true;
        false
    })?;
    Some(found)
}

/// Where one more card takes its place in a meld: among a set's roles, or below a run's low end
/// or above its high end.
#[derive(Clone, Copy)]
enum Join {
    Set(Role),
    Below(Role),
    Above(Role),
}

/// The interpretation `old` becomes with the card's role joined as `j` says.
fn joined(old: &Interpretation, j: Join) -> Interpretation {
    let mut roles: Vec<Role> = Vec::with_capacity(old.roles.len() + 1 + ROOM);
    roles.extend_from_slice(&old.roles);
    join_roles(&mut roles, j);
    Interpretation {
        kind: old.kind,
        rank: old.rank,
        suit: old.suit,
        roles,
    }
}

/// Joins the card's role to `roles` as `j` says: among a set's roles in their order, below a
/// run's low end (every place moves up by one) or above its high end.
fn join_roles(roles: &mut Vec<Role>, j: Join) {
    match j {
        Join::Set(role) => {
            // A set's roles are in order: the new one goes after every role before it (equal
            // roles are alike, so which of them it follows makes no difference).
            let at = roles.partition_point(|r| *r <= role);
            roles.insert(at, role);
        }
        Join::Below(role) => {
            roles.insert(0, role);
            for r in &mut roles[1..] {
                r.place += 1;
            }
        }
        Join::Above(role) => {
            let place = roles.len() as u8;
            roles.push(Role { place, ..role });
        }
    }
}

/// The one way a card joins one interpretation, found by [`only_join`] and made in place by
/// [`OnlyJoin::make`].
#[derive(Clone, Copy)]
pub struct OnlyJoin(Join);

impl OnlyJoin {
    /// Makes the join in `old`, the interpretation it was found for: `old` becomes the one
    /// interpretation [`extend_by_one`] gives.
    pub fn make(self, old: &mut Interpretation) {
        join_roles(&mut old.roles, self.0);
    }
}

/// Where `card` joins `old` in exactly one way: that way, so that a lay-off of the card can grow
/// the meld in place ([`OnlyJoin::make`]) instead of building [`extend_by_one`]'s one
/// interpretation. `None` where it joins in no way or in several, or where `extend_by_one` is
/// `None`.
pub fn only_join(rules: &Rules, old: &Interpretation, card: Card) -> Option<OnlyJoin> {
    match joins(rules, old, card)? {
        Joins::One(j) => Some(j),
        Joins::No | Joins::Several => None,
    }
}

/// In how many ways a card joins an interpretation as one more role ([`joins`]).
#[derive(Clone, Copy)]
pub enum Joins {
    No,
    /// Exactly one: [`only_join`]'s.
    One(OnlyJoin),
    /// Two or more.
    Several,
}

/// How `card` joins `old`: in no way (where [`extends_by_one`] is `Some(false)`), in one way only
/// (that way, as [`only_join`] gives it), or in several. `None` where `extends_by_one` is `None`.
pub fn joins(rules: &Rules, old: &Interpretation, card: Card) -> Option<Joins> {
    let mut first = None;
    let mut more = false;
    one_card_joins(rules, old, card, &mut |j| {
        more = first.is_some();
        first.get_or_insert(j);
        !more
    })?;
    Some(match first {
        None => Joins::No,
        Some(j) if !more => Joins::One(OnlyJoin(j)),
        Some(_) => Joins::Several,
    })
}

/// Calls `f` with every way `card` joins `old` as one more role that keeps the meld legal,
/// until `f` returns `false`; returns `Some(false)` if stopped so, `Some(true)` after the last.
/// `None` where the one-card shortcut does not apply (a full circle under `runs.wrap-around`).
///
/// `old` is an interpretation under `rules`, so where all-wild melds are forbidden it already
/// holds a natural card, and so does every meld it grows into: no new role needs that check.
fn one_card_joins(
    rules: &Rules,
    old: &Interpretation,
    card: Card,
    f: &mut dyn FnMut(Join) -> bool,
) -> Option<bool> {
    // This also turns away a full meld: `extend_set` and `extend_run` count on it.
    if !may_extend(rules, old, card) {
        return Some(true);
    }
    Some(match old.kind {
        MeldKind::Set => extend_set(rules, old, card, f),
        MeldKind::Run => {
            if rules.wrap_around && old.roles.len() + 1 >= rules.line.len() {
                return None;
            }
            extend_run(rules, old, card, f)
        }
    })
}

/// A quick necessary condition for a card to extend `old`: room for one more card, and then a
/// set's rank, or a run's suit and a rank just beyond one of its ends on the rank line. Wild
/// cards pass where there is room.
fn may_extend(rules: &Rules, old: &Interpretation, card: Card) -> bool {
    if full(rules, old) {
        return false;
    }
    if rules.is_wild(card) {
        return true;
    }
    let Some(rank) = card.rank() else {
        return true;
    };
    match old.kind {
        MeldKind::Set => old.rank == Some(rank),
        MeldKind::Run => {
            if old.suit.is_some() && card.suit() != old.suit {
                return false;
            }
            end_neighbours(rules, old) & 1 << rank.number() != 0
        }
    }
}

/// Whether `old` has no room for another card: a set of four where sets stop there, a run as
/// long as runs go, or a meld at the size limit.
fn full(rules: &Rules, old: &Interpretation) -> bool {
    let n = old.roles.len() + 1;
    n > MAX_MELD_CARDS
        || match old.kind {
            MeldKind::Set => rules.readings.set_max_size == reading::SetMaxSize::V4 && n > 4,
            MeldKind::Run => n > rules.max_run(),
        }
}

/// The ranks just below the run's low end and just above its high end on the rank line (around
/// the corner under wrap-around), as a bit mask by rank number: the ranks whose cards may extend
/// it. Roles run low to high, so the first is the low end and the last the high one; a rank with
/// two places (the ace) is taken at both.
fn end_neighbours(rules: &Rules, old: &Interpretation) -> u16 {
    let ranks = |end: Option<&Role>, side: usize| {
        end.and_then(|e| e.stands_for.rank()).map_or(0, |r| {
            rules.rank_neighbours[usize::from(r.number()) - 1][side]
        })
    };
    ranks(old.roles.first(), 0) | ranks(old.roles.last(), 1)
}

/// The card kinds that may extend `old` by one card, as a bit mask by [`Card::index`]: exactly
/// the cards that pass `may_extend`. A caller trying every card of a hand on every meld skips
/// the pairs outside it without asking.
pub fn extenders(rules: &Rules, old: &Interpretation) -> u64 {
    if full(rules, old) {
        return 0;
    }
    let bit = |card: Card| 1u64 << card.index();
    let mut mask = bit(Card::JOKER);
    let suits: &[Suit] = match (old.kind, old.suit) {
        (MeldKind::Run, Some(s)) => &[s][..],
        _ => &Suit::ALL[..],
    };
    let add_rank = |mask: &mut u64, rank: Rank| {
        for &s in suits {
            *mask |= bit(Card::new(rank, s));
        }
    };
    match old.kind {
        MeldKind::Set => {
            if let Some(rank) = old.rank {
                add_rank(&mut mask, rank);
            }
        }
        MeldKind::Run => {
            // By rank number, so bit `r` is the card index `r - 1` of the first suit.
            let next = u64::from(end_neighbours(rules, old) >> 1);
            for &s in suits {
                mask |= next << (13 * s as usize);
            }
        }
    }
    if rules.twos_wild {
        for s in Suit::ALL {
            mask |= bit(Card::new(Rank::Two, s));
        }
    }
    mask
}

fn extend_set(
    rules: &Rules,
    old: &Interpretation,
    card: Card,
    f: &mut dyn FnMut(Join) -> bool,
) -> bool {
    let rank = old.rank.expect("sets have a rank");
    let forbid = rules.readings.set_duplicate_suits == reading::SetDuplicateSuits::Forbidden;
    let exact = rules.readings.wild_in_set_represents == reading::WildInSetRepresents::ExactCard;
    let mut used = [false; 4];
    for r in &old.roles {
        if let Target::Card(t) = r.stands_for {
            used[t.suit().expect("suited") as usize] = true;
        }
    }
    let mut push = |role: Role| {
        if forbid
            && let Target::Card(t) = role.stands_for
            && used[t.suit().expect("suited") as usize]
        {
            return true;
        }
        f(Join::Set(role))
    };
    if !rules.is_wild(card) {
        if card.rank() == Some(rank) {
            return push(Role {
                place: 0,
                stands_for: Target::Card(card),
                card,
                natural: true,
            });
        }
        true
    } else if !exact {
        let natural = rank == Rank::Two && card.is_two();
        let stands_for = if natural {
            Target::Card(card)
        } else {
            Target::Rank(rank)
        };
        push(Role {
            place: 0,
            stands_for,
            card,
            natural,
        })
    } else {
        for s in Suit::ALL {
            let t = Card::new(rank, s);
            let natural = t == card;
            if natural && !rules.natural_two_in_sets() {
                continue;
            }
            if !push(Role {
                place: 0,
                stands_for: Target::Card(t),
                card,
                natural,
            }) {
                return false;
            }
        }
        true
    }
}

fn extend_run(
    rules: &Rules,
    old: &Interpretation,
    card: Card,
    f: &mut dyn FnMut(Join) -> bool,
) -> bool {
    if let Some(done) = natural_run_ends(rules, old, card, f) {
        return done;
    }
    let n = old.roles.len();
    let len = rules.line.len();
    // Where the old run lies on the line: the start whose ranks match its roles in order.
    let starts = rules.windows(n).len();
    // Roles `k` stand for the place `s + k`, around the corner where the line is circular (a
    // run is never longer than the line): the roles up to the line's end, then the rest from its
    // start.
    debug_assert!(n <= len, "a run no longer than the line");
    let fits = |s: usize| {
        let same = |(r, p): (&Role, &Place)| r.stands_for.rank() == Some(p.rank);
        let (to_end, around) = old.roles.split_at(n.min(len - s));
        to_end.iter().zip(&rules.line[s..]).all(same) && around.iter().zip(&rules.line).all(same)
    };
    let nat2 = rules.natural_two_in_runs();
    // Only a place of the first role's rank can start it.
    let first = old.roles.first().and_then(|r| r.stands_for.rank());
    let mut from = first.map_or(0, |r| rules.rank_places[usize::from(r.number()) - 1]);
    let starts = std::iter::from_fn(|| {
        let start = from.trailing_zeros() as usize;
        from &= from.wrapping_sub(1);
        (start < starts).then_some(start)
    });
    for start in starts.filter(|&s| fits(s)) {
        // The new card below the run (new start) or above it.
        let ends = if rules.wrap_around {
            [
                Some(((start + len - 1) % len, true)),
                Some(((start + n) % len, false)),
            ]
        } else {
            [
                start.checked_sub(1).map(|pl| (pl, true)),
                (start + n < len).then_some((start + n, false)),
            ]
        };
        for (pl, below) in ends.into_iter().flatten() {
            let place = rules.line[pl];
            let stands_for = match old.suit {
                Some(s) => Target::Card(Card::new(place.rank, s)),
                None => Target::Rank(place.rank),
            };
            let role = if !rules.is_wild(card) {
                let suit_ok = old.suit.is_none() || card.suit() == old.suit;
                if card.rank() != Some(place.rank) || !suit_ok {
                    continue;
                }
                Role {
                    place: 0,
                    stands_for: Target::Card(card),
                    card,
                    natural: true,
                }
            } else {
                let natural = card.is_two()
                    && nat2
                    && place.rank == Rank::Two
                    && (old.suit.is_none() || stands_for == Target::Card(card));
                let sf = if natural && old.suit.is_none() {
                    Target::Card(card)
                } else {
                    stands_for
                };
                Role {
                    place: 0,
                    stands_for: sf,
                    card,
                    natural,
                }
            };
            if !f(if below {
                Join::Below(role)
            } else {
                Join::Above(role)
            }) {
                return false;
            }
        }
    }
    true
}

/// [`extend_run`] for a natural card where the run's ends decide it: on a line that does not wrap,
/// with each end's rank at one place only (not an ace that is both low and high), the run lies
/// from the first end's place, and the card joins below it or above it where the place beyond
/// that end holds its rank (and the card is of the run's suit). `None` where this does not
/// apply; `extend_run` then walks the line. Joins are handed to `f` as `extend_run` hands them:
/// below, then above.
fn natural_run_ends(
    rules: &Rules,
    old: &Interpretation,
    card: Card,
    f: &mut dyn FnMut(Join) -> bool,
) -> Option<bool> {
    if rules.wrap_around || rules.is_wild(card) {
        return None;
    }
    let place_of = |r: Option<&Role>| {
        let rank = r?.stands_for.rank()?;
        let places = rules.rank_places[usize::from(rank.number()) - 1];
        (places.count_ones() == 1).then_some(places.trailing_zeros() as usize)
    };
    let low = place_of(old.roles.first())?;
    let high = place_of(old.roles.last())?;
    debug_assert_eq!(
        high + 1,
        low + old.roles.len(),
        "a run lies from its low end's place"
    );
    let rank = card.rank()?;
    if old.suit.is_some() && card.suit() != old.suit {
        return Some(true);
    }
    let role = Role {
        place: 0,
        stands_for: Target::Card(card),
        card,
        natural: true,
    };
    let at = |place: Option<usize>| {
        place
            .and_then(|p| rules.line.get(p))
            .is_some_and(|p| p.rank == rank)
    };
    if at(low.checked_sub(1)) && !f(Join::Below(role)) {
        return Some(false);
    }
    if at(Some(high + 1)) && !f(Join::Above(role)) {
        return Some(false);
    }
    Some(true)
}

/// A role's identity for comparing interpretations: card, meaning, natural.
pub fn role_key(r: &Role) -> (Card, Target, bool) {
    (r.card, r.stands_for, r.natural)
}

/// `new` keeps every role of `old` (same kind, same set rank or run suit): a lay-off or join.
pub fn extends(old: &Interpretation, new: &Interpretation) -> bool {
    if old.kind != new.kind || old.rank != new.rank || old.suit != new.suit {
        return false;
    }
    let mut pool: Vec<(Card, Target, bool)> = new.roles.iter().map(role_key).collect();
    for r in &old.roles {
        match pool.iter().position(|k| *k == role_key(r)) {
            Some(i) => {
                pool.swap_remove(i);
            }
            None => return false,
        }
    }
    true
}

/// `old` with the wild `wild` that stands for `natural` replaced by `natural` itself (a rescue),
/// if the result is a legal reading; the same as searching the new cards and keeping what keeps
/// every other role of `old`, without the search. One result per wild role that matches.
pub fn rescue_in(
    rules: &Rules,
    old: &Interpretation,
    wild: Card,
    natural: Card,
) -> Vec<Interpretation> {
    let mut out = Vec::new();
    if rescues_in(rules, old, wild, natural) {
        rescue_into(rules, old.clone(), wild, natural, &mut out);
    }
    out.sort();
    out.dedup();
    out
}

/// [`rescue_in`] of `old` given up for it: its readings appended to `out`, unsorted, the first
/// of them in `old`'s own space (a rescue on the table changes its meld in place).
pub fn rescue_into(
    rules: &Rules,
    mut old: Interpretation,
    wild: Card,
    natural: Card,
    out: &mut Vec<Interpretation>,
) {
    // The places (a meld has at most `MAX_MELD_CARDS` cards).
    let mut places = [0usize; MAX_MELD_CARDS];
    let mut n = 0;
    for k in rescue_places(rules, &old, wild, natural) {
        places[n] = k;
        n += 1;
    }
    let fill = |i: &mut Interpretation, k: usize| {
        i.roles[k] = Role {
            place: i.roles[k].place,
            stands_for: Target::Card(natural),
            card: natural,
            natural: true,
        };
        if i.kind == MeldKind::Set {
            i.roles.sort();
        }
    };
    let Some((&last, rest)) = places[..n].split_last() else {
        return;
    };
    for &k in rest {
        let mut i = old.clone();
        fill(&mut i, k);
        out.push(i);
    }
    fill(&mut old, last);
    out.push(old);
}

/// Whether [`rescue_in`] finds some reading, without building any: what a listing of rescues
/// needs to know.
pub fn rescues_in(rules: &Rules, old: &Interpretation, wild: Card, natural: Card) -> bool {
    rescue_places(rules, old, wild, natural).next().is_some()
}

/// The roles of `old` where `natural` may take the place of the wild `wild` (see [`rescue_in`]).
fn rescue_places(
    rules: &Rules,
    old: &Interpretation,
    wild: Card,
    natural: Card,
) -> impl Iterator<Item = usize> {
    let forbid = rules.readings.set_duplicate_suits == reading::SetDuplicateSuits::Forbidden;
    old.roles.iter().enumerate().filter_map(move |(k, r)| {
        if r.card != wild || r.natural || !r.stands_for_matches(natural) {
            return None;
        }
        // The natural card must be natural in that place.
        if rules.is_wild(natural) {
            let ok = natural.is_two()
                && match old.kind {
                    MeldKind::Run => {
                        rules.natural_two_in_runs()
                            && r.stands_for.rank() == Some(Rank::Two)
                            && (old.suit.is_none() || old.suit == natural.suit())
                    }
                    MeldKind::Set => old.rank == Some(Rank::Two) && rules.natural_two_in_sets(),
                };
            if !ok {
                return None;
            }
        }
        if old.kind == MeldKind::Set && forbid {
            let suit = natural.suit();
            let clash = old.roles.iter().enumerate().any(|(j, x)| {
                j != k && matches!(x.stands_for, Target::Card(t) if t.suit() == suit)
            });
            if clash {
                return None;
            }
        }
        Some(k)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::card::parse_cards;
    use crate::rules::load;

    fn first(rules: &Rules, cards: &str, kind: MeldKind) -> Interpretation {
        let q = Query {
            cards: parse_cards(cards).unwrap(),
            kind: Some(kind),
            declared: vec![],
        };
        interpret(rules, &q).interpretations.remove(0)
    }

    #[test]
    fn a_target_is_met_by_its_card_or_by_its_rank_in_every_suit() {
        let seven = parse_cards("7H").unwrap()[0];
        assert_eq!(Target::Card(seven).cards().collect::<Vec<_>>(), vec![seven]);
        assert_eq!(
            Target::Rank(Rank::Seven).cards().collect::<Vec<_>>(),
            parse_cards("7S 7H 7D 7C").unwrap()
        );
    }

    /// A target's mask holds its cards, and reads back (`cards_in`) in the order of
    /// `Target::cards`, which the rescue listing counts on.
    #[test]
    fn a_targets_mask_holds_exactly_its_cards_in_order() {
        for rank in Rank::ALL {
            let mut targets = vec![Target::Rank(rank)];
            targets.extend(Suit::ALL.map(|suit| Target::Card(Card::new(rank, suit))));
            for t in targets {
                let listed: Vec<Card> = t.cards().collect();
                let read: Vec<Card> = crate::base::card::cards_in(t.mask()).collect();
                assert_eq!(read, listed, "{t:?}");
            }
        }
    }

    /// `may_extend` is a quick necessary condition in front of the one-card extension, and only
    /// worth its place if it is also tight: for a natural run in the middle of the line it lets
    /// through the wild cards and the cards of its suit just beyond its ends, for a set the wild
    /// cards and its rank, and for a full meld nothing. A looser filter would give the same
    /// lay-offs, only later.
    #[test]
    fn only_wild_cards_and_neighbours_may_extend() {
        let rules = load("push", &[]).unwrap().rules;
        let run = first(&rules, "5S 6S 7S 8S 9S", MeldKind::Run);
        let set = first(&rules, "7S 7H 7D", MeldKind::Set);
        let neighbours = parse_cards("4S 10S").unwrap();
        for card in Card::all() {
            let wild = rules.is_wild(card);
            assert_eq!(
                may_extend(&rules, &run, card),
                wild || neighbours.contains(&card),
                "run 5S-9S and {card}"
            );
            assert_eq!(
                may_extend(&rules, &set, card),
                wild || card.rank() == Some(Rank::Seven),
                "set of 7s and {card}"
            );
        }
        let four = first(&rules, "7S 7H 7D 7C", MeldKind::Set);
        let thirteen = first(
            &rules,
            "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",
            MeldKind::Run,
        );
        for card in Card::all() {
            assert!(
                !may_extend(&rules, &four, card),
                "set of four 7s and {card}"
            );
            assert!(!may_extend(&rules, &thirteen, card), "run A-K and {card}");
        }
        // Nothing lies past the end of a line that does not wrap: a run up to the high ace takes
        // only the jack of its suit, and the wilds.
        let high = first(&rules, "QS KS AS", MeldKind::Run);
        for card in Card::all() {
            let want = rules.is_wild(card) || card == parse_cards("JS").unwrap()[0];
            assert_eq!(may_extend(&rules, &high, card), want, "Q-A and {card}");
        }
    }

    /// A run from 2 to K has the ace beyond both ends (where the ace is high or low): the ace
    /// extends it, though the two ends name the same rank.
    #[test]
    fn an_ace_extends_a_run_from_two_to_king_at_either_end() {
        let rules = load("push", &[]).unwrap().rules;
        let old = first(
            &rules,
            "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",
            MeldKind::Run,
        );
        let ace = parse_cards("AS").unwrap()[0];
        assert!(may_extend(&rules, &old, ace));
        assert_eq!(extend_by_one(&rules, &old, ace).map(|v| v.len()), Some(2));
    }

    /// `extenders` is `may_extend` as a mask: the same answer for every card, on sets and runs
    /// (same-suit and any-suits, near an end of the line and around the corner under
    /// wrap-around), with twos wild or not.
    #[test]
    fn extenders_is_may_extend_for_every_card() {
        let mut variants = Vec::new();
        for game in crate::rules::GAMES {
            let base = load(game, &[]).unwrap().rules;
            variants.push(base.clone());
            let mut any = base.clone();
            any.readings.run_suits = reading::RunSuits::AnySuits;
            variants.push(any);
            let mut wrap = base.clone();
            wrap.wrap_around = true;
            wrap.refresh();
            variants.push(wrap);
        }
        let melds = [
            ("5S 6S 7S 8S", MeldKind::Run),
            ("5S 6H 7D 8C", MeldKind::Run),
            ("AS 2S 3S 4S", MeldKind::Run),
            ("JH QH KH AH", MeldKind::Run),
            ("QH KH AH 2H 3H", MeldKind::Run),
            ("6D 7D JK 9D", MeldKind::Run),
            ("JK 7C 8C", MeldKind::Run),
            ("7S 7H 7D", MeldKind::Set),
            ("KS KH JK", MeldKind::Set),
            ("2S 2H 2D", MeldKind::Set),
        ];
        let mut checked = 0;
        for rules in &variants {
            for (cards, kind) in melds {
                let q = Query {
                    cards: parse_cards(cards).unwrap(),
                    kind: Some(kind),
                    declared: vec![],
                };
                for old in interpret(rules, &q).interpretations {
                    let mask = extenders(rules, &old);
                    for card in Card::all() {
                        assert_eq!(
                            mask & (1 << card.index()) != 0,
                            may_extend(rules, &old, card),
                            "{} {cards} ({}) and {card}",
                            rules.name,
                            old.describe()
                        );
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked > 40, "only {checked} interpretations checked");
    }

    /// `extend_by_one` answers by itself except for a run that could close the circle under
    /// `runs.wrap-around`; only there does it leave the work to the full search (`None`).
    #[test]
    fn the_one_card_shortcut_gives_up_only_near_a_full_circle() {
        let mut rules = load("push", &[]).unwrap().rules;
        let spades = |n: usize| -> String {
            let ranks = [
                "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2",
            ];
            ranks[..n].iter().map(|r| format!("{r}S ")).collect()
        };
        let four = parse_cards("4S").unwrap()[0];
        let two = parse_cards("2S").unwrap()[0];
        // Without wrap-around the shortcut serves every run, even one growing to 13 cards.
        let run = first(&rules, &spades(5), MeldKind::Run);
        assert!(extend_by_one(&rules, &run, four).is_some());
        let long = first(&rules, &spades(12), MeldKind::Run);
        assert!(extend_by_one(&rules, &long, two).is_some());
        // With it, a short run still takes the shortcut; one that could close the circle not.
        rules.wrap_around = true;
        rules.refresh();
        let run = first(&rules, &spades(5), MeldKind::Run);
        assert!(extend_by_one(&rules, &run, four).is_some());
        let eight = parse_cards("8S").unwrap()[0];
        assert_eq!(extend_by_one(&rules, &run, eight).map(|v| v.len()), Some(1));
        let long = first(&rules, &spades(12), MeldKind::Run);
        assert!(extend_by_one(&rules, &long, two).is_none());
    }
}
