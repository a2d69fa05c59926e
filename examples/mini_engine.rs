//! A small implementation of Push Rummy, written from the rules and `conformance/README.md`
//! without the push-rummy library (std and serde_json only), speaking the conformance protocol on
//! stdin/stdout. It doubles as the example adapter: the protocol loop in `main` and the replies in
//! `Mini::handle` are what you copy to put your own engine under `push-rummy conform`.
//!
//! It plays the built-in `push` rules at their default readings (card values, the stall limit and
//! the deals are read from the rules sent), and answers `unsupported` for anything else: other
//! rules or readings, rescues, melds made only of wilds, contract laydowns with extra melds.
//!
//! Seeded bugs, to prove that the harness catches them: `--bug wrap-runs` (a run may turn the
//! corner K-A-2), `--bug duplicate-suits` (a set may repeat a suit), `--bug pusher-no-draw` (the
//! pusher does not draw), `--bug ace-points` (an ace left in hand costs 1 point); `--bug` may be
//! given several times to switch on several at once.
//!
//! `--capabilities LIST` (comma-separated, e.g. `events,legal`) makes it speak protocol 2: its
//! `hello` declares LIST as what it reports, and its replies leave out the reason codes, events
//! and meld readings that LIST does not name, as an engine that has none would. Build: `cargo build --example mini_engine`; run the suite against it:
//! `push-rummy conform --impl 'target/debug/examples/mini_engine --bug wrap-runs'`.

use serde_json::{Value, json};
use std::io::{BufRead, Write};

// ---------------------------------------------------------------- cards

/// A card: `0..52` is suit * 13 + rank - 1 (suits S H D C, ranks A=1 … K=13), 52 a joker. This is
/// also the canonical order.
type Card = u8;
const JOKER: Card = 52;
const SUITS: [char; 4] = ['S', 'H', 'D', 'C'];
const RANKS: [&str; 13] = [
    "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
];

fn rank(c: Card) -> u8 {
    c % 13 + 1
}
fn suit(c: Card) -> u8 {
    c / 13
}
fn card(rank: u8, suit: u8) -> Card {
    suit * 13 + rank - 1
}
fn is_wild(c: Card) -> bool {
    c == JOKER || rank(c) == 2
}
fn name(c: Card) -> String {
    if c == JOKER {
        "JK".into()
    } else {
        format!(
            "{}{}",
            RANKS[usize::from(rank(c) - 1)],
            SUITS[usize::from(suit(c))]
        )
    }
}
fn parse_card(s: &str) -> Result<Card, String> {
    let s = s.to_ascii_uppercase();
    if s == "JK" {
        return Ok(JOKER);
    }
    let (r, su) = s.split_at(s.len().saturating_sub(1));
    let r = RANKS
        .iter()
        .position(|x| *x == r)
        .ok_or(format!("bad card {s}"))?;
    let su = SUITS
        .iter()
        .position(|x| su.starts_with(*x))
        .ok_or(format!("bad card {s}"))?;
    Ok(card(r as u8 + 1, su as u8))
}
fn names(cards: &[Card]) -> Vec<String> {
    cards.iter().map(|c| name(*c)).collect()
}
fn sorted(cards: &[Card]) -> Vec<Card> {
    let mut v = cards.to_vec();
    v.sort_unstable();
    v
}

// ---------------------------------------------------------------- melds

/// What a card stands for: a rank (a wild in a set) or an exact card. Ranks sort first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Target {
    Rank(u8),
    Card(Card),
}
impl Target {
    fn rank(self) -> u8 {
        match self {
            Target::Rank(r) => r,
            Target::Card(c) => rank(c),
        }
    }
    fn text(self) -> String {
        match self {
            Target::Rank(r) => RANKS[usize::from(r - 1)].into(),
            Target::Card(c) => name(c),
        }
    }
    /// A declaration `self` holds for a role standing for `actual`.
    fn matches(self, actual: Target) -> bool {
        match (self, actual) {
            (Target::Card(a), Target::Card(b)) => a == b,
            (a, b) => a.rank() == b.rank(),
        }
    }
}

/// One card's role in a reading: its place on the rank line (runs; 0 in sets), what it stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Role {
    place: u8,
    stands_for: Target,
    card: Card,
    natural: bool,
}

/// One way to read cards as a meld: a set of a rank or a run of a suit, roles in order.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Reading {
    run: bool,
    rank_or_suit: u8,
    roles: Vec<Role>,
}

impl Reading {
    /// As the transcript writes it: `set 7: JK=7 7S 7H`, `run H 9-Q: 9H 10H JK=JH QH`.
    fn text(&self) -> String {
        let roles: Vec<String> = self
            .roles
            .iter()
            .map(|r| {
                if r.natural {
                    name(r.card)
                } else {
                    format!("{}={}", name(r.card), r.stands_for.text())
                }
            })
            .collect();
        let head = if self.run {
            let lo = self.roles[0].stands_for.rank();
            let hi = self.roles[self.roles.len() - 1].stands_for.rank();
            format!(
                "run {} {}-{}",
                SUITS[usize::from(self.rank_or_suit)],
                RANKS[usize::from(lo - 1)],
                RANKS[usize::from(hi - 1)]
            )
        } else {
            format!("set {}", RANKS[usize::from(self.rank_or_suit - 1)])
        };
        format!("{head}: {}", roles.join(" "))
    }
    fn wild_meanings(&self) -> Vec<(Card, Target)> {
        let mut v: Vec<_> = self
            .roles
            .iter()
            .filter(|r| !r.natural)
            .map(|r| (r.card, r.stands_for))
            .collect();
        v.sort();
        v
    }
    /// `self` keeps every role of `old` (a lay-off extends a meld, it does not re-read it).
    fn extends(&self, old: &Reading) -> bool {
        let mut pool = self.roles.clone();
        self.run == old.run
            && self.rank_or_suit == old.rank_or_suit
            && old
                .roles
                .iter()
                .all(|r| match pool.iter().position(|p| p == r) {
                    Some(i) => {
                        pool.swap_remove(i);
                        true
                    }
                    None => false,
                })
    }
}

/// A seeded bug (`--bug NAME`, repeatable).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bug {
    WrapRuns = 1,
    DuplicateSuits = 2,
    PusherNoDraw = 4,
    AcePoints = 8,
}

/// The seeded bugs switched on.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Bugs(u8);

impl Bugs {
    fn on(self, bug: Bug) -> bool {
        self.0 & bug as u8 != 0
    }
}

/// Every reading of `cards` (at most `kind`), with the declarations holding; `Err` for what this
/// implementation does not handle.
fn readings(
    cards: &[Card],
    kind: Option<bool>,
    declared: &[(Card, Target)],
    bug: Bugs,
) -> Result<Vec<Reading>, String> {
    let fixed: Vec<Card> = cards.iter().copied().filter(|c| !is_wild(*c)).collect();
    let floaters: Vec<Card> = cards.iter().copied().filter(|c| is_wild(*c)).collect();
    if fixed.is_empty() {
        return Err("melds made only of wild cards are not implemented".into());
    }
    if floaters.len() > 6 {
        return Err("melds with more than six wild cards are not implemented".into());
    }
    let mut out = Vec::new();
    // A set: the naturals share a rank (and, unless the bug, no suit twice); wilds stand for it.
    let r = rank(fixed[0]);
    let mut suits: Vec<u8> = fixed.iter().map(|c| suit(*c)).collect();
    suits.sort_unstable();
    suits.dedup();
    let distinct = suits.len() == fixed.len() || bug.on(Bug::DuplicateSuits);
    if kind != Some(true)
        && fixed.iter().all(|c| rank(*c) == r)
        && distinct
        && (3..=4).contains(&cards.len())
    {
        let mut roles: Vec<Role> = fixed
            .iter()
            .map(|&c| Role {
                place: 0,
                stands_for: Target::Card(c),
                card: c,
                natural: true,
            })
            .chain(floaters.iter().map(|&c| Role {
                place: 0,
                stands_for: Target::Rank(r),
                card: c,
                natural: false,
            }))
            .collect();
        roles.sort();
        out.push(Reading {
            run: false,
            rank_or_suit: r,
            roles,
        });
    }
    // A run: one suit, places in a row on A(1) 2 … K(13) A(14); with the bug, the line goes round.
    let s = suit(fixed[0]);
    let n = cards.len() as u8;
    if kind != Some(false) && fixed.iter().all(|c| suit(*c) == s) && (3..=13).contains(&n) {
        let starts: Vec<u8> = if bug.on(Bug::WrapRuns) {
            (1..=13).collect()
        } else {
            (1..=14 - n + 1).collect()
        };
        for lo in starts {
            let places: Vec<u8> = (lo..lo + n).collect();
            let rank_at = |p: u8| (p - 1) % 13 + 1;
            // Each natural takes the place of its rank.
            let mut taken: Vec<Option<Role>> = vec![None; places.len()];
            let mut ok = true;
            for &c in &fixed {
                match (0..places.len())
                    .find(|&i| rank_at(places[i]) == rank(c) && taken[i].is_none())
                {
                    Some(i) => {
                        taken[i] = Some(Role {
                            place: places[i],
                            stands_for: Target::Card(c),
                            card: c,
                            natural: true,
                        })
                    }
                    None => ok = false,
                }
            }
            if !ok {
                continue;
            }
            let free: Vec<usize> = (0..places.len()).filter(|&i| taken[i].is_none()).collect();
            for perm in permutations(&floaters) {
                let mut roles: Vec<Role> = taken.iter().flatten().copied().collect();
                for (&i, &w) in free.iter().zip(&perm) {
                    let target = card(rank_at(places[i]), s);
                    roles.push(Role {
                        place: places[i],
                        stands_for: Target::Card(target),
                        card: w,
                        // A 2 in its own place is a natural 2.
                        natural: w == target,
                    });
                }
                roles.sort();
                out.push(Reading {
                    run: true,
                    rank_or_suit: s,
                    roles,
                });
            }
        }
    }
    out.retain(|r| declarations_hold(r, declared));
    out.sort();
    out.dedup();
    Ok(out)
}

/// Each declaration is taken by the first role (in order) it fits that no other took.
fn declarations_hold(r: &Reading, declared: &[(Card, Target)]) -> bool {
    let mut used = vec![false; r.roles.len()];
    declared.iter().all(|(c, t)| {
        match (0..r.roles.len())
            .find(|&k| !used[k] && r.roles[k].card == *c && t.matches(r.roles[k].stands_for))
        {
            Some(k) => {
                used[k] = true;
                true
            }
            None => false,
        }
    })
}

/// The distinct orders of `items`.
fn permutations(items: &[Card]) -> Vec<Vec<Card>> {
    if items.is_empty() {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    let mut seen = Vec::new();
    for i in 0..items.len() {
        if seen.contains(&items[i]) {
            continue;
        }
        seen.push(items[i]);
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut p in permutations(&rest) {
            p.insert(0, first);
            out.push(p);
        }
    }
    out
}

/// More than one reading, and two that give some wild different meanings: a declaration could
/// tell them apart.
fn ambiguous(rs: &[Reading]) -> bool {
    rs.iter()
        .any(|r| r.wild_meanings() != rs[0].wild_meanings())
}

/// Push's `wild-declaration` (003: at most one natural card): a new meld with at most one natural
/// card names its kind and what every wild stands for; any other meld, and every lay-off, needs no
/// declaration and its wilds float (every reading stays), but a declaration given must leave one.
fn declared(
    rs: Vec<Reading>,
    cards: &[Card],
    kind: Option<bool>,
    declared: &[(Card, Target)],
    lay_off: bool,
) -> Result<Vec<Reading>, Outcome> {
    let wilds = cards.iter().filter(|c| is_wild(**c)).count();
    let in_full = !lay_off && cards.len() - wilds <= 1;
    if in_full && wilds > 0 && (kind.is_none() || declared.len() < wilds) {
        return rejected(
            "declaration-required",
            "state the kind of meld and what each wild card stands for",
        );
    }
    if (in_full || !declared.is_empty()) && ambiguous(&rs) {
        return rejected("ambiguous-wild", "declare what the wilds stand for");
    }
    Ok(rs)
}

// ---------------------------------------------------------------- actions

/// A meld as written in an action: `set [7S 7H JK JK=7]`.
struct MeldText {
    cards: Vec<Card>,
    kind: Option<bool>,
    declared: Vec<(Card, Target)>,
}

enum Act {
    TakeDiscard,
    Push,
    DrawStock,
    Meld(Vec<MeldText>),
    LayOff {
        meld: usize,
        m: MeldText,
        join: bool,
    },
    Rescue,
    Discard(Card),
    EndTurn,
}

fn parse_target(t: &str) -> Result<Target, String> {
    match RANKS.iter().position(|r| r.eq_ignore_ascii_case(t)) {
        Some(i) => Ok(Target::Rank(i as u8 + 1)),
        None => parse_card(t).map(Target::Card),
    }
}

/// Cards between brackets, and the declarations among them.
type Bracketed = (Vec<Card>, Vec<(Card, Target)>);

/// `[CARD CARD=TARGET …]` from the words `toks[at..]`; a declaration adds its card unless the
/// card is listed plainly often enough.
fn parse_bracket(toks: &[String], at: &mut usize) -> Result<Bracketed, String> {
    if toks.get(*at).map(String::as_str) != Some("[") {
        return Err("expected [".into());
    }
    *at += 1;
    let mut items: Vec<(Card, Option<Target>)> = Vec::new();
    while let Some(t) = toks.get(*at) {
        *at += 1;
        if t == "]" {
            let mut cards = Vec::new();
            let mut declared = Vec::new();
            for (i, (c, t)) in items.iter().enumerate() {
                match t {
                    None => cards.push(*c),
                    Some(t) => {
                        declared.push((*c, *t));
                        let plain = items.iter().filter(|(x, t)| x == c && t.is_none()).count();
                        let so_far = items[..=i]
                            .iter()
                            .filter(|(x, t)| x == c && t.is_some())
                            .count();
                        if so_far > plain {
                            cards.push(*c);
                        }
                    }
                }
            }
            return Ok((cards, declared));
        }
        match t.split_once('=') {
            Some((c, target)) => items.push((parse_card(c)?, Some(parse_target(target)?))),
            None => items.push((parse_card(t)?, None)),
        }
    }
    Err("expected ]".into())
}

fn parse_action(text: &str) -> Result<Act, String> {
    let toks: Vec<String> = text
        .replace('[', " [ ")
        .replace(']', " ] ")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let mut at = 1;
    let act = match toks.first().map(String::as_str) {
        Some("take-discard") => Act::TakeDiscard,
        Some("push") => Act::Push,
        Some("draw-stock") => Act::DrawStock,
        Some("end-turn") => Act::EndTurn,
        Some("rescue") => Act::Rescue,
        Some("discard") => Act::Discard(parse_card(toks.get(1).ok_or("no card")?)?),
        Some("meld") => {
            let mut melds = Vec::new();
            while at < toks.len() {
                let kind = match toks[at].as_str() {
                    "set" => Some(false),
                    "run" => Some(true),
                    _ => None,
                };
                if kind.is_some() {
                    at += 1;
                }
                let (cards, declared) = parse_bracket(&toks, &mut at)?;
                melds.push(MeldText {
                    cards,
                    kind,
                    declared,
                });
            }
            Act::Meld(melds)
        }
        Some("lay-off") => {
            let meld = toks
                .get(1)
                .and_then(|t| t.parse().ok())
                .ok_or("bad meld number")?;
            at = 2;
            let (cards, declared) = parse_bracket(&toks, &mut at)?;
            Act::LayOff {
                meld,
                m: MeldText {
                    cards,
                    kind: None,
                    declared,
                },
                join: toks.get(at).is_some(),
            }
        }
        _ => return Err(format!("unknown action `{text}`")),
    };
    Ok(act)
}

// ---------------------------------------------------------------- the game

/// The rules this implementation plays, as the rules listing gives them; anything else is
/// `unsupported`. (Card values, the stall limit and the deals are read from the listing.)
const FIXED: &[(&str, &str)] = &[
    ("players.count", "4"),
    ("decks.standard-decks", "2"),
    ("decks.jokers", "4"),
    ("wilds.twos", "true"),
    ("sets.min-size", "3"),
    ("runs.min-length", "3"),
    ("runs.two-in-sequence", "true"),
    ("runs.wrap-around", "false"),
    ("push.stock-cards", "1"),
    ("push.to", "left"),
    ("discard.wilds", "allowed"),
    ("stock.when-empty", "end-hand"),
    ("readings.ace-both-ends", "forbidden"),
    ("readings.ace-position", "high-or-low"),
    ("readings.all-wild-melds", "allowed"),
    ("readings.bury-position", "bottom"),
    ("readings.capit-third-deck", "five-or-more"),
    ("readings.contract-in-one-turn", "required"),
    ("readings.contract-sizes", "minimum"),
    ("readings.contract-turn-extras", "allowed"),
    ("readings.discard-restrictions", "none"),
    ("readings.frozen-two", "represents-itself"),
    ("readings.going-out", "meld-or-discard"),
    ("readings.natural-twos", "runs-only"),
    ("readings.no-legal-discard", "relax-taken-card-then-twos"),
    ("readings.push-card-visibility", "face-up"),
    ("readings.push-with-one-stock-card", "allowed-hand-ends"),
    ("readings.pusher-draws", "yes"),
    ("readings.rescue-timing", "after-own-contract"),
    ("readings.rescued-wild-fate", "to-hand"),
    ("readings.run-join-split", "never"),
    ("readings.run-suits", "same-suit"),
    ("readings.same-rank-sets", "allowed"),
    ("readings.same-suit-runs-in-contract", "allowed"),
    ("readings.set-duplicate-suits", "forbidden"),
    ("readings.set-max-size", "4"),
    ("readings.six-ten-first-player", "dealer-left"),
    ("readings.six-ten-partnerships", "across"),
    ("readings.stock-out", "hand-ends-all-score"),
    ("readings.ties", "shared"),
    ("readings.upcard-wild", "bury"),
    ("readings.wild-declaration", "when-at-most-one-natural"),
    ("readings.wild-in-set-represents", "rank-only"),
];

struct TableMeld {
    owner: u8,
    cards: Vec<Card>,
    readings: Vec<Reading>,
}

struct Game {
    bug: Bugs,
    points: [u32; 53],
    stall_limit: u32,
    /// Per deal: cards dealt, contract as (is a run, minimum size).
    rounds: Vec<(u8, Vec<(bool, u8)>)>,
    rng: u64,
    decks: Vec<Vec<Card>>,
    round: usize,
    dealer: u8,
    totals: [i64; 2],
    hands: [Vec<Card>; 4],
    /// Top last.
    stock: Vec<Card>,
    /// Top last.
    discard: Vec<Card>,
    table: Vec<TableMeld>,
    /// Seats that have met the contract (every part of it filled: it goes down in one turn).
    met: [bool; 4],
    turn: u8,
    stage: &'static str,
    taken: Option<Card>,
    table_progress: bool,
    stall: u32,
}

/// A refusal: the reason code and a message.
type Refusal = (&'static str, String);

enum Outcome {
    Rejected(Refusal),
    Unsupported(String),
}

fn rejected<T>(code: &'static str, msg: impl Into<String>) -> Result<T, Outcome> {
    Err(Outcome::Rejected((code, msg.into())))
}

impl Game {
    fn next_u64(&mut self) -> u64 {
        // SplitMix64, as conformance/README.md specifies.
        self.rng = self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        let limit = u64::MAX - (u64::MAX % n);
        loop {
            let x = self.next_u64();
            if x < limit {
                return x % n;
            }
        }
    }

    fn start_deal(&mut self, events: &mut Vec<Value>) {
        let mut order: Vec<Card> = if self.decks.is_empty() {
            let mut p: Vec<Card> = (0..2).flat_map(|_| 0..52u8).chain([JOKER; 4]).collect();
            for i in (1..p.len()).rev() {
                let j = self.below(i as u64 + 1) as usize;
                p.swap(i, j);
            }
            p
        } else {
            self.decks.remove(0)
        };
        order.reverse();
        let first = (self.dealer + 1) % 4;
        self.hands = Default::default();
        for _ in 0..self.rounds[self.round].0 {
            for k in 0..4 {
                let c = order.pop().unwrap_or(JOKER);
                self.hands[usize::from((first + k) % 4)].push(c);
            }
        }
        self.stock = order;
        self.discard.clear();
        self.table.clear();
        self.met = [false; 4];
        self.turn = first;
        self.stage = "draw";
        self.taken = None;
        self.table_progress = false;
        self.stall = 0;
        events.push(json!({"event": "dealt", "round": self.round + 1, "dealer": self.dealer, "first": first}));
        // The upcard: a wild goes to the bottom of the stock while a natural card is left.
        for _ in 0..self.stock.len() {
            let Some(c) = self.stock.pop() else { return };
            if is_wild(c) && self.stock.iter().any(|x| !is_wild(*x)) {
                events.push(json!({"event": "upcard-buried", "card": name(c)}));
                self.stock.insert(0, c);
                continue;
            }
            self.discard.push(c);
            events.push(json!({"event": "upcard", "card": name(c)}));
            return;
        }
    }

    fn end_hand(&mut self, end: Option<u8>, stalled: bool, events: &mut Vec<Value>) {
        let mut points = [0u32; 2];
        for seat in 0..4u8 {
            if end.is_some_and(|s| s % 2 == seat % 2) {
                continue;
            }
            points[usize::from(seat % 2)] += self.hands[usize::from(seat)]
                .iter()
                .map(|c| self.points[usize::from(*c)])
                .sum::<u32>();
        }
        for (t, p) in self.totals.iter_mut().zip(points) {
            *t += i64::from(p);
        }
        let reason = match end {
            Some(s) => format!("seat {s} went out"),
            None if stalled => format!(
                "{} turns in a row without a card reaching the table",
                self.stall_limit
            ),
            None => "the stock ran out".into(),
        };
        events.push(json!({"event": "hand-ended", "reason": reason, "points": points, "totals": self.totals}));
        if self.round + 1 < self.rounds.len() {
            self.round += 1;
            self.dealer = (self.dealer + 1) % 4;
            self.start_deal(events);
        } else {
            let low = self.totals.iter().min().copied().unwrap_or(0);
            let winners: Vec<u8> = (0..2u8)
                .filter(|s| self.totals[usize::from(*s)] == low)
                .collect();
            self.stage = "over";
            events.push(json!({"event": "game-ended", "winners": winners, "totals": self.totals}));
        }
    }

    fn end_turn(&mut self, events: &mut Vec<Value>) {
        self.stall = if self.table_progress {
            0
        } else {
            self.stall + 1
        };
        if self.stall >= self.stall_limit {
            self.end_hand(None, true, events);
            return;
        }
        self.turn = (self.turn + 1) % 4;
        self.stage = "draw";
        self.taken = None;
        self.table_progress = false;
    }

    fn take(&mut self, seat: u8, cards: &[Card]) -> Result<(), Outcome> {
        let mut hand = self.hands[usize::from(seat)].clone();
        for c in cards {
            match hand.iter().position(|h| h == c) {
                Some(i) => {
                    hand.remove(i);
                }
                None => {
                    return rejected(
                        "card-not-in-hand",
                        format!("seat {seat} does not hold {}", name(*c)),
                    );
                }
            }
        }
        self.hands[usize::from(seat)] = hand;
        Ok(())
    }

    /// Applies an action; on a refusal nothing changes (the caller works on a copy).
    fn apply(&mut self, seat: u8, act: &Act) -> Result<Vec<Value>, Outcome> {
        let mut ev = Vec::new();
        if self.stage == "over" {
            return rejected("game-over", "the game is over");
        }
        if seat != self.turn {
            return rejected("not-your-turn", format!("seat {} is to play", self.turn));
        }
        let drawing = matches!(act, Act::TakeDiscard | Act::Push);
        if matches!(act, Act::DrawStock) {
            return rejected("no-plain-draw", "take the discard or push");
        }
        if drawing && self.stage != "draw" {
            return rejected("already-drew", "the draw was already made");
        }
        if !drawing && self.stage == "draw" {
            return rejected("must-draw-first", "take the discard or push first");
        }
        let s = usize::from(seat);
        match act {
            Act::TakeDiscard => {
                let Some(c) = self.discard.pop() else {
                    return rejected("discard-pile-empty", "the discard pile is empty");
                };
                self.hands[s].push(c);
                self.taken = Some(c);
                self.stage = "play";
                ev.push(json!({"event": "took-discard", "seat": seat, "card": name(c)}));
            }
            Act::Push => self.push(seat, &mut ev)?,
            Act::Meld(melds) => self.meld(seat, melds, &mut ev)?,
            Act::LayOff { meld, m, join } => self.lay_off(seat, *meld, m, *join, &mut ev)?,
            Act::Rescue => return Err(Outcome::Unsupported("rescues are not implemented".into())),
            Act::Discard(c) => {
                if self.hands[s].len() == 1 && self.hands[s][0] == *c && !self.met[s] {
                    return rejected(
                        "going-out-before-contract",
                        "a player goes out only once his own contract is met",
                    );
                }
                self.take(seat, &[*c])?;
                self.discard.push(*c);
                ev.push(json!({"event": "discarded", "seat": seat, "card": name(*c)}));
                if self.hands[s].is_empty() {
                    ev.push(json!({"event": "went-out", "seat": seat}));
                    self.end_hand(Some(seat), false, &mut ev);
                } else {
                    self.end_turn(&mut ev);
                }
            }
            // With one card left and no contract, the card stays and the turn ends.
            Act::EndTurn if self.hands[s].len() == 1 && !self.met[s] => {
                ev.push(json!({"event": "turn-ended", "seat": seat}));
                self.end_turn(&mut ev);
            }
            Act::EndTurn => return rejected("must-discard", "a card can be discarded"),
            Act::DrawStock => unreachable!("refused above"),
        }
        Ok(ev)
    }

    /// The push: the top discard and one stock card to the left, then (unless the seeded bug
    /// says otherwise) the pusher draws from the stock.
    fn push(&mut self, seat: u8, ev: &mut Vec<Value>) -> Result<(), Outcome> {
        let s = usize::from(seat);
        if self.stock.is_empty() {
            self.end_hand(None, false, ev);
            return Ok(());
        }
        let to = (seat + 1) % 4;
        let top = self.discard.pop();
        let pushed = self.stock.pop().unwrap_or(JOKER);
        self.hands[usize::from(to)].extend(top.iter().copied().chain([pushed]));
        ev.push(json!({"event": "pushed", "seat": seat, "to": to,
                "discard": top.map(name), "stock": [name(pushed)], "face_up": true}));
        self.stage = "play";
        if !self.bug.on(Bug::PusherNoDraw) {
            let Some(c) = self.stock.pop() else {
                self.end_hand(None, false, ev);
                return Ok(());
            };
            self.hands[s].push(c);
            ev.push(json!({"event": "drew", "seat": seat, "card": name(c)}));
        }
        Ok(())
    }

    /// New melds: each must be a meld; the first melds of a hand must meet the contract.
    fn meld(&mut self, seat: u8, melds: &[MeldText], ev: &mut Vec<Value>) -> Result<(), Outcome> {
        let s = usize::from(seat);
        if melds.is_empty() {
            return rejected("invalid-meld", "no meld given");
        }
        let all: Vec<Card> = melds.iter().flat_map(|m| m.cards.iter().copied()).collect();
        self.take(seat, &all)?;
        let mut read = Vec::new();
        for m in melds {
            let rs =
                readings(&m.cards, m.kind, &m.declared, self.bug).map_err(Outcome::Unsupported)?;
            if rs.is_empty() {
                return rejected(
                    "invalid-meld",
                    format!("{:?} is not a meld", names(&m.cards)),
                );
            }
            read.push(declared(rs, &m.cards, m.kind, &m.declared, false)?);
        }
        let contract = !self.met[s];
        if contract {
            let want = &self.rounds[self.round].1;
            if read.len() > want.len() {
                return Err(Outcome::Unsupported(
                    "contract laydowns with extra melds are not implemented".into(),
                ));
            }
            let kinds: Vec<(bool, usize)> = read
                .iter()
                .zip(melds)
                .map(|(r, m)| (r[0].run, m.cards.len()))
                .collect();
            let fits = read.len() == want.len()
                && permutations(&(0..want.len() as u8).collect::<Vec<_>>())
                    .iter()
                    .any(|p| {
                        p.iter().zip(want).all(|(&i, &(run, size))| {
                            kinds[usize::from(i)].0 == run
                                && kinds[usize::from(i)].1 >= usize::from(size)
                        })
                    });
            if !fits {
                return rejected("contract-not-met", "the melds do not meet the contract");
            }
            self.met[s] = true;
        }
        for (m, rs) in melds.iter().zip(read) {
            let cards = sorted(&m.cards);
            self.table.push(TableMeld {
                owner: seat,
                cards: cards.clone(),
                readings: rs,
            });
            ev.push(
                json!({"event": "melded", "seat": seat, "meld": self.table.len() - 1,
                    "cards": names(&cards), "contract": contract}),
            );
        }
        self.table_progress = true;
        self.went_out(seat, ev);
        Ok(())
    }

    /// Cards laid off on a table meld, after one's own contract.
    fn lay_off(
        &mut self,
        seat: u8,
        meld: usize,
        m: &MeldText,
        join: bool,
        ev: &mut Vec<Value>,
    ) -> Result<(), Outcome> {
        let s = usize::from(seat);
        if !self.met[s] {
            return rejected("contract-first", "no lay-off before one's own contract");
        }
        if meld >= self.table.len() {
            return rejected("no-such-meld", format!("there is no meld {meld}"));
        }
        if m.cards.is_empty() {
            return rejected("invalid-lay-off", "no card to lay off");
        }
        self.take(seat, &m.cards)?;
        if join {
            return rejected("join-not-allowed", "runs are never joined");
        }
        let old = &self.table[meld];
        let mut all = old.cards.clone();
        all.extend(&m.cards);
        let kind = Some(old.readings[0].run);
        let rs: Vec<Reading> = readings(&all, kind, &[], self.bug)
            .map_err(Outcome::Unsupported)?
            .into_iter()
            .filter(|r| {
                old.readings.iter().any(|o| r.extends(o)) && declarations_hold(r, &m.declared)
            })
            .collect();
        if rs.is_empty() {
            return rejected("invalid-lay-off", "the cards do not extend that meld");
        }
        let rs = declared(rs, &m.cards, kind, &m.declared, true)?;
        let owner = old.owner;
        self.table[meld] = TableMeld {
            owner,
            cards: sorted(&all),
            readings: rs,
        };
        ev.push(json!({"event": "laid-off", "seat": seat, "meld": meld, "cards": names(&m.cards), "joined": null}));
        self.table_progress = true;
        self.went_out(seat, ev);
        Ok(())
    }

    fn went_out(&mut self, seat: u8, ev: &mut Vec<Value>) {
        if self.hands[usize::from(seat)].is_empty() {
            ev.push(json!({"event": "went-out", "seat": seat}));
            self.end_hand(Some(seat), false, ev);
        }
    }

    /// The state, with the fields and spelling of the transcript.
    fn state(&self) -> Value {
        let filled = |s: usize| vec![self.met[s]; self.rounds[self.round].1.len()];
        json!({
            "round": self.round + 1,
            "dealer": self.dealer,
            "turn": self.turn,
            "stage": self.stage,
            "taken": self.taken.map(name),
            "hands": self.hands.iter().map(|h| names(&sorted(h))).collect::<Vec<_>>(),
            "table": self.table.iter().map(|m| json!({
                "owner": m.owner,
                "cards": names(&m.cards),
                "readings": m.readings.iter().map(Reading::text).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "stock": {"count": self.stock.len(), "top": self.stock.last().map(|c| name(*c))},
            "discard": self.discard.iter().rev().map(|c| name(*c)).collect::<Vec<_>>(),
            "contract": (0..4).map(|s| json!({"met": self.met[s], "filled": filled(s)})).collect::<Vec<_>>(),
            "totals": self.totals,
        })
    }
}

/// Reads the `start` message: the rules (or why they are not supported) and the position.
fn start(msg: &Value, bug: Bugs) -> Result<Game, Outcome> {
    let unsupported = |why: String| Outcome::Unsupported(why);
    let values = msg["rules"]["values"]
        .as_object()
        .ok_or_else(|| unsupported("no rules".into()))?;
    let mut points = [0u32; 53];
    let mut stall_limit = 0;
    let mut rounds = Vec::new();
    let number = |v: &Value| v.as_str().and_then(|t| t.parse::<u32>().ok());
    for (k, v) in values {
        let text = v.as_str().unwrap_or("");
        if let Some((_, want)) = FIXED.iter().find(|(p, _)| p == k) {
            if text != *want {
                return Err(unsupported(format!(
                    "{k}={text} is not implemented (only {want})"
                )));
            }
        } else if let Some(r) = k.strip_prefix("scoring.points.") {
            let p = number(v).ok_or_else(|| unsupported(format!("{k}={text}")))?;
            for c in 0..53u8 {
                if (r == "JK" && c == JOKER) || (c != JOKER && RANKS[usize::from(rank(c) - 1)] == r)
                {
                    points[usize::from(c)] = p;
                }
            }
        } else if k == "stock.stall-limit" {
            stall_limit = number(v).ok_or_else(|| unsupported(format!("{k}={text}")))?;
        } else if k == "rounds" {
            for part in text.split(';') {
                let (deal, contract) = part
                    .split_once(':')
                    .ok_or_else(|| unsupported(format!("rounds={text}")))?;
                let mut c = Vec::new();
                for m in contract.split(',') {
                    let words: Vec<&str> = m.split_whitespace().collect();
                    match words.as_slice() {
                        // Not a plain size (a deal played `:all-at-once`, a set of one rank
                        // `set of 2 aces`): not implemented.
                        [kind, "of", n] if n.parse::<u8>().is_ok() => {
                            c.push((*kind == "run", n.parse().unwrap_or(99)))
                        }
                        _ => return Err(unsupported(format!("rounds={text}"))),
                    }
                }
                rounds.push((deal.parse().unwrap_or(0), c));
            }
        } else if k == "readings.two-penalty-value" || k == "readings.ace-penalty-value" {
            // Read below, once the card values are known.
        } else if k.starts_with("decks.large-table.") {
            // Only for tables larger than four.
        } else {
            return Err(unsupported(format!(
                "the rule {k}={text} is not implemented"
            )));
        }
    }
    // A stated `scoring.points.2` (or `.A`) overrides the reading, which then decides nothing.
    let reading_points = |key: &str| values.get(key).and_then(number);
    let twos = reading_points("scoring.points.2")
        .or_else(|| reading_points("readings.two-penalty-value"))
        .ok_or_else(|| unsupported("no two value".into()))?;
    let aces = reading_points("scoring.points.A")
        .or_else(|| reading_points("readings.ace-penalty-value"))
        .ok_or_else(|| unsupported("no ace value".into()))?;
    for c in 0..52u8 {
        match rank(c) {
            // With the bug, an ace costs 1 point, whatever the rules say.
            1 if bug.on(Bug::AcePoints) => points[usize::from(c)] = 1,
            1 => points[usize::from(c)] = aces,
            2 => points[usize::from(c)] = twos,
            _ => {}
        }
    }
    if msg["players"] != 4 {
        return Err(unsupported("only four players".into()));
    }
    let p = &msg["position"];
    let cards = |v: &Value| -> Result<Vec<Card>, Outcome> {
        v.as_array()
            .ok_or_else(|| unsupported("bad cards".into()))?
            .iter()
            .map(|c| parse_card(c.as_str().unwrap_or("")).map_err(unsupported))
            .collect()
    };
    let mut hands: [Vec<Card>; 4] = Default::default();
    for (s, h) in p["hands"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .take(4)
    {
        hands[s] = cards(h)?;
    }
    let mut table = Vec::new();
    for m in p["table"].as_array().into_iter().flatten() {
        let Act::Meld(mut ms) = parse_action(&format!("meld {}", m["meld"].as_str().unwrap_or("")))
            .map_err(unsupported)?
        else {
            return Err(unsupported("bad table meld".into()));
        };
        let mt = ms.remove(0);
        let rs = readings(&mt.cards, mt.kind, &mt.declared, bug).map_err(unsupported)?;
        if rs.is_empty() {
            return Err(unsupported("bad table meld".into()));
        }
        table.push(TableMeld {
            owner: m["owner"].as_u64().unwrap_or(0) as u8,
            cards: sorted(&mt.cards),
            readings: rs,
        });
    }
    let mut met = [false; 4];
    for s in p["contract_met"].as_array().into_iter().flatten() {
        met[s.as_u64().unwrap_or(0) as usize % 4] = true;
    }
    let mut totals = [0i64; 2];
    for row in msg["scores"].as_array().into_iter().flatten() {
        for (t, x) in totals.iter_mut().zip(row.as_array().into_iter().flatten()) {
            *t += x.as_i64().unwrap_or(0);
        }
    }
    let mut stock = cards(&p["stock"])?;
    stock.reverse();
    let mut discard = cards(&p["discard"])?;
    discard.reverse();
    Ok(Game {
        bug,
        points,
        stall_limit,
        rounds,
        rng: msg["generator"]
            .as_str()
            .and_then(|g| g.parse().ok())
            .unwrap_or(0),
        decks: msg["decks"]
            .as_array()
            .into_iter()
            .flatten()
            .map(cards)
            .collect::<Result<_, _>>()?,
        round: msg["round"].as_u64().unwrap_or(1) as usize - 1,
        dealer: msg["dealer"].as_u64().unwrap_or(0) as u8,
        totals,
        hands,
        stock,
        discard,
        table,
        met,
        turn: p["turn"].as_u64().unwrap_or(0) as u8,
        stage: if p["stage"] == "play" { "play" } else { "draw" },
        taken: p["taken"].as_str().and_then(|c| parse_card(c).ok()),
        table_progress: false,
        stall: 0,
    })
}

// ---------------------------------------------------------------- the protocol

struct Mini {
    bug: Bugs,
    game: Option<Game>,
    /// `--capabilities LIST`: what it declares it reports in a `hello` of protocol 2, and leaves
    /// out of its replies the rest (reason codes, events, meld readings); `None`: protocol 1,
    /// everything.
    reports: Option<Vec<String>>,
}

impl Mini {
    fn reports(&self, what: &str) -> bool {
        self.reports
            .as_ref()
            .is_none_or(|r| r.iter().any(|x| x == what))
    }
}

impl Mini {
    /// One message, one reply (see "The protocol" in conformance/README.md).
    fn handle(&mut self, msg: &Value) -> Value {
        let unsupported = |why: String| json!({"type": "unsupported", "reason": why});
        match msg["type"].as_str().unwrap_or("") {
            "hello" => match &self.reports {
                // Protocol 2 where the harness offers it: the hello declares what is reported.
                Some(r) if msg["protocol"].as_u64().is_some_and(|v| v >= 2) => {
                    json!({"type": "hello", "protocol": 2, "name": "mini-engine", "reports": r})
                }
                _ => json!({"type": "hello", "protocol": 1, "name": "mini-engine"}),
            },
            "start" => match start(msg, self.bug) {
                Ok(g) => {
                    self.game = Some(g);
                    json!({"type": "ok", "events": []})
                }
                Err(Outcome::Unsupported(why)) => unsupported(why),
                Err(_) => json!({"type": "error", "message": "bad start"}),
            },
            "apply" => {
                let Some(g) = &self.game else {
                    return json!({"type": "error", "message": "no game"});
                };
                let act = match parse_action(msg["action"].as_str().unwrap_or("")) {
                    Ok(a) => a,
                    Err(e) => return json!({"type": "error", "message": e}),
                };
                // Work on a copy so that a refusal changes nothing.
                let mut next = g.clone_game();
                match next.apply(msg["seat"].as_u64().unwrap_or(99) as u8, &act) {
                    Ok(events) => {
                        self.game = Some(next);
                        if self.reports("events") {
                            json!({"type": "ok", "events": events})
                        } else {
                            json!({"type": "ok"})
                        }
                    }
                    Err(Outcome::Rejected((code, message))) => {
                        if self.reports("reason-codes") {
                            json!({"type": "rejected", "reason": code, "message": message})
                        } else {
                            json!({"type": "rejected", "message": message})
                        }
                    }
                    Err(Outcome::Unsupported(why)) => unsupported(why),
                }
            }
            "state" => match &self.game {
                Some(g) => {
                    let mut state = g.state();
                    if !self.reports("readings") {
                        for m in state["table"].as_array_mut().into_iter().flatten() {
                            m.as_object_mut().map(|m| m.remove("readings"));
                        }
                    }
                    json!({"type": "state", "state": state})
                }
                None => json!({"type": "error", "message": "no game"}),
            },
            "observe" | "legal" => {
                unsupported("observations and legal-action lists are not implemented".into())
            }
            "rules" | "query" => {
                unsupported("single questions are not implemented (only games)".into())
            }
            "end" => json!({"type": "bye"}),
            other => json!({"type": "error", "message": format!("unknown message {other}")}),
        }
    }
}

impl Game {
    fn clone_game(&self) -> Game {
        Game {
            bug: self.bug,
            points: self.points,
            stall_limit: self.stall_limit,
            rounds: self.rounds.clone(),
            rng: self.rng,
            decks: self.decks.clone(),
            round: self.round,
            dealer: self.dealer,
            totals: self.totals,
            hands: self.hands.clone(),
            stock: self.stock.clone(),
            discard: self.discard.clone(),
            table: self
                .table
                .iter()
                .map(|m| TableMeld {
                    owner: m.owner,
                    cards: m.cards.clone(),
                    readings: m.readings.clone(),
                })
                .collect(),
            met: self.met,
            turn: self.turn,
            stage: self.stage,
            taken: self.taken,
            table_progress: self.table_progress,
            stall: self.stall,
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `--bug NAME`, as often as there are bugs to switch on.
    let mut bug = Bugs::default();
    for name in args
        .windows(2)
        .filter(|w| w[0] == "--bug")
        .map(|w| w[1].as_str())
    {
        bug.0 |= match name {
            "wrap-runs" => Bug::WrapRuns,
            "duplicate-suits" => Bug::DuplicateSuits,
            "pusher-no-draw" => Bug::PusherNoDraw,
            "ace-points" => Bug::AcePoints,
            other => {
                eprintln!(
                    "mini_engine: unknown bug `{other}` (wrap-runs, duplicate-suits, pusher-no-draw, ace-points)"
                );
                std::process::exit(2);
            }
        } as u8;
    }
    // `--capabilities LIST`: protocol 2, declaring LIST (comma-separated) and reporting only that.
    let reports = args.windows(2).find(|w| w[0] == "--capabilities").map(|w| {
        w[1].split(',')
            .filter(|n| !n.is_empty())
            .map(String::from)
            .collect()
    });
    let mut mini = Mini {
        bug,
        game: None,
        reports,
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    // One JSON object per line in, one per line out.
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        if line.trim().is_empty() {
            continue;
        }
        let reply = match serde_json::from_str::<Value>(&line) {
            Ok(msg) => mini.handle(&msg),
            Err(e) => json!({"type": "error", "message": format!("not JSON: {e}")}),
        };
        if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() || reply["type"] == "bye" {
            return;
        }
    }
}
