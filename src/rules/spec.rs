//! The rules language as data: the table of every rule ([`rule_defs`]), the raw rule set read from a
//! YAML file ([`RawRules`]: a map from rule path to a cited value), `extends` merging, and the
//! canonical YAML rendering used by `rules show`.
//!
//! This module checks form (keys, types, ranges, reading names); meaning (a deal larger than the
//! deck, an impossible contract) is checked when compiling, in [`crate::rules`].

use crate::base::card::Rank;
use crate::base::diag::{Diagnostic, did_you_mean};
use crate::base::yaml::{Node, Pos, Value};
use crate::rules::disputes::{DisputeId, list_readings};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The type of a rule's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    /// Free text (metadata: `game`, `name`, …); never cited.
    Text,
    Int {
        min: i64,
        max: i64,
    },
    Bool,
    /// An integer in the range, or the word (`none` for the stall limit, `unlimited` for buys):
    /// no limit.
    Limit {
        min: i64,
        max: i64,
        word: &'static str,
    },
    Choice(&'static [&'static str]),
    /// A player count: `4` or `"3-6"`.
    PlayerRange,
    /// The list of deals with their contracts.
    Rounds,
    /// The reading of a dispute.
    Reading(DisputeId),
    /// The pack by player count: a list of `{players, standard-decks, jokers}`.
    DeckTiers,
    /// A list of distinct names from a fixed set, in any order (`[wilds, taken-card]`); may be
    /// empty.
    List(&'static [&'static str]),
    /// What happens when no card may be discarded: one of the names, or `{relax: [BAN, …]}`,
    /// the bans lifted one after another (names from the second list).
    WhenNone(&'static [&'static str], &'static [&'static str]),
}

/// One rule of the language.
#[derive(Clone, Debug)]
pub struct RuleDef {
    /// Dotted path, e.g. `sets.min-size`.
    pub path: String,
    pub ty: Ty,
    /// A complete (standalone) rule set must give it.
    pub required: bool,
    pub doc: &'static str,
}

/// Metadata keys: not rules, not cited; `name` and `description` are inherited through
/// `extends` (`RawRules::over`), `game` and `extends` are not.
pub const META: [&str; 4] = ["game", "name", "description", "extends"];

const STRUCTURAL: &[(&str, Ty, bool, &str)] = &[
    (
        "players.count",
        Ty::PlayerRange,
        true,
        "how many may play: `4` or a range `\"3-6\"`",
    ),
    (
        "players.first",
        Ty::Choice(&FIRST_PLAYER),
        false,
        "who plays first in each deal (and is dealt the first card): dealer-left, dealer-right, previous-winner (the seat that went out in the hand before; the dealer's left in deal 1 and after a hand nobody went out of) or random (a seat drawn from the game's generator before each deal's shuffle); absent: dispute six-ten-first-player decides",
    ),
    (
        "decks.standard-decks",
        Ty::Int { min: 1, max: 8 },
        true,
        "52-card decks shuffled together",
    ),
    (
        "decks.jokers",
        Ty::Int { min: 0, max: 32 },
        true,
        "jokers in the pack",
    ),
    (
        "decks.large-table.from-players",
        Ty::Int { min: 2, max: 12 },
        false,
        "players from which the large-table cards are added; absent: dispute capit-third-deck decides",
    ),
    (
        "decks.large-table.standard-decks",
        Ty::Int { min: 0, max: 8 },
        false,
        "decks added at a large table",
    ),
    (
        "decks.large-table.jokers",
        Ty::Int { min: 0, max: 32 },
        false,
        "jokers added at a large table",
    ),
    (
        "decks.by-players",
        Ty::DeckTiers,
        false,
        "the pack by number of players: a list of {players: N or \"A-B\", standard-decks: N, jokers: N}; a player count a tier names plays with exactly those cards (decks.standard-decks, decks.jokers and the large table then do not apply to it); counts no tier names use them",
    ),
    (
        "wilds.twos",
        Ty::Bool,
        true,
        "twos are wild (jokers always are)",
    ),
    (
        "wilds.max-per-meld",
        Ty::Int { min: 0, max: 64 },
        false,
        "the most wild cards one meld may hold (a 2 standing for itself is not wild there); absent: no limit",
    ),
    (
        "wilds.may-outnumber-naturals",
        Ty::Bool,
        false,
        "false: no meld holds more wild cards than natural ones (a 2 standing for itself counts as natural); absent: true",
    ),
    (
        "wilds.min-naturals",
        Ty::Int { min: 0, max: 64 },
        false,
        "the fewest natural cards one meld must hold (a 2 standing for itself counts); absent: 0, and the dispute all-wild-melds alone decides whether a meld may be all wild",
    ),
    (
        "wilds.side-by-side-in-runs",
        Ty::Bool,
        false,
        "false: no two wild cards of a run stand on neighbouring places; absent: true",
    ),
    (
        "wilds.may-move",
        Ty::Bool,
        false,
        "true: where a wild card on the table stands is found again at every check, so a wild moves when the natural card it stood for is laid off beside it (a meld keeps every reading of its cards as its kind; lay-offs declare nothing); absent: false, a wild stands where it was laid until rescued",
    ),
    (
        "sets.min-size",
        Ty::Int { min: 2, max: 104 },
        true,
        "the fewest cards in a set",
    ),
    (
        "runs.min-length",
        Ty::Int { min: 2, max: 14 },
        true,
        "the fewest cards in a run",
    ),
    (
        "runs.two-in-sequence",
        Ty::Bool,
        true,
        "rank 2 is a place in a sequence (false: ranks run A K … 3 and no card can stand for a 2 in a run)",
    ),
    (
        "runs.wrap-around",
        Ty::Bool,
        true,
        "a run may turn the corner, K-A-2: the rank line is a circle on which any rank may start or end a run, so the readings ace-position and ace-both-ends have no effect",
    ),
    (
        "rounds",
        Ty::Rounds,
        true,
        "the deals in order: cards dealt and the contract of each (`set of 3`, `run of 4`, or a set of one rank: `set of 2 aces`, `set of 3 7s`, which may be smaller than sets.min-size); `all-at-once: true` on a deal: its contract goes down only with every card in hand, which is going out without a discard",
    ),
    (
        "contract.check",
        Ty::Choice(&["each-meld", "pooled"]),
        false,
        "how a contract laydown is checked: each-meld, every contract meld is one of the melds laid (absent: this); pooled, the contract is found anywhere among all the cards laid down that turn, regrouped (one run of eight holds two runs of four, three sets may hold a run)",
    ),
    (
        "push.stock-cards",
        Ty::Int { min: 1, max: 5 },
        true,
        "stock cards pushed along with the top discard",
    ),
    (
        "push.allowed",
        Ty::Bool,
        false,
        "false: there is no push; a turn starts by taking the top discard or drawing the top stock card (`draw-stock`), the plain rummy draw (absent: true)",
    ),
    (
        "push.to",
        Ty::Choice(&["left", "right"]),
        true,
        "who receives a push: left is the next player in turn",
    ),
    (
        "discard.wilds",
        Ty::Choice(&["allowed", "forbidden"]),
        true,
        "whether wild cards may be discarded",
    ),
    (
        "discard.bans",
        Ty::List(&DISCARD_BANS),
        false,
        "the cards that may not be discarded, besides wilds under `discard.wilds: forbidden`: wilds (jokers, and twos where twos are wild), twos (any 2), taken-card (the very card taken from the discard pile this turn; another copy of it may go), taken-kind (every card of the taken card's kind), fits-table (a card that could be laid off on a table meld as it stands); `[]` bans nothing; absent: dispute discard-restrictions decides",
    ),
    (
        "discard.when-none-allowed",
        Ty::WhenNone(&["no-discard", "draw-until-allowed"], &DISCARD_BANS),
        false,
        "when the bans leave no card to discard: `{relax: [BAN, …]}` lifts the listed bans one at a time in order until a card may go (never for the last card in hand: going out needs a card no ban holds); no-discard ends the turn without one; draw-until-allowed draws from the stock (draw-stock) one card at a time until a card may go (an empty stock that cannot be rebuilt ends the hand as a stock-out); absent: dispute no-legal-discard decides",
    ),
    (
        "stock.when-empty",
        Ty::Choice(&["end-hand", "reshuffle-discards"]),
        true,
        "what happens when a player wants to draw from an empty stock",
    ),
    (
        "stock.stall-limit",
        Ty::Limit {
            min: 1,
            max: 100_000,
            word: "none",
        },
        true,
        "a hand ends (as a stock-out) after this many turns in a row with no card reaching the table; none: no limit from the rules, the engine's backstop of 1000000 turns still ends a hand",
    ),
    (
        "stock.rebuilds",
        Ty::Int { min: 0, max: 1000 },
        false,
        "under `stock.when-empty: reshuffle-discards`, how many times a hand's stock may be rebuilt from the discards; then an empty stock ends the hand as under end-hand; absent: no limit",
    ),
    (
        "going-out.not-on-contract-turn",
        Ty::Bool,
        false,
        "true: a player may not go out (by a meld, a lay-off or a discard) on the turn his contract goes down; a player left with one card then keeps it and ends the turn without a discard; absent: false",
    ),
];

/// The values of `players.first`.
pub const FIRST_PLAYER: [&str; 4] = ["dealer-left", "dealer-right", "previous-winner", "random"];

/// The bans of `discard.bans` (and the names `{relax: […]}` lifts).
pub const DISCARD_BANS: [&str; 5] = ["wilds", "twos", "taken-card", "taken-kind", "fits-table"];

/// Buying out of turn ("May I"): every rule optional; without `buying.allowed: true` the game is
/// played exactly as without the section.
const BUYING: &[(&str, Ty, bool, &str)] = &[
    (
        "buying.allowed",
        Ty::Bool,
        false,
        "buying out of turn (\"May I\"): a player not on turn may buy the top discard the player on turn declined, with penalty cards from the stock; the turn starts with take-discard or draw-stock, and buying replaces the push (absent: false)",
    ),
    (
        "buying.penalty-cards",
        Ty::Int { min: 0, max: 5 },
        false,
        "stock cards a buyer takes with the discard (absent: 1)",
    ),
    (
        "buying.per-hand",
        Ty::Limit {
            min: 1,
            max: 100,
            word: "unlimited",
        },
        false,
        "buys each player may make in one hand, or `unlimited` (absent: unlimited)",
    ),
    (
        "buying.when-down",
        Ty::Choice(&["allowed", "forbidden"]),
        false,
        "whether a player who has met this deal's contract may still buy (absent: allowed)",
    ),
];

/// The keys of `scoring.points` every rule set gives: every rank but aces and twos, and the joker.
pub const POINT_KEYS: [&str; 12] = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK"];

/// The keys of `scoring.points` a rule set may leave out, each with the dispute whose reading
/// values the card when it does (the built-in games leave them out; `rules::overrides` lists
/// them): aces and twos.
pub const OPTIONAL_POINT_KEYS: [(&str, &str); 2] = [
    (
        "A",
        "points for an ace left in hand; absent: dispute ace-penalty-value decides (15), stated: this number decides and the reading is overridden",
    ),
    (
        "2",
        "points for a two left in hand; absent: dispute two-penalty-value decides (20 or 15), stated: this number decides and the reading is overridden",
    ),
];

/// The rules of how hands are scored beyond the card values: who scores together, the bonus
/// for going out. Both optional; absent, the rules behave as before they existed.
const SCORING: &[(&str, Ty, bool, &str)] = &[
    (
        "scoring.sides",
        Ty::Choice(&["partnerships", "individual"]),
        false,
        "who scores together: partnerships (partners sit opposite, seat s with seat s + players/2, for an even number of players from 4) or individual (everyone alone); absent: dispute six-ten-partnerships decides (across: partners opposite at four players), stated: the reading is overridden",
    ),
    (
        "scoring.going-out-bonus",
        Ty::Int { min: 0, max: 1000 },
        false,
        "points taken off the hand score of the side of the player who goes out (that hand's score is minus this bonus: a partner's cards still count nothing); absent: 0",
    ),
];

/// Every rule of the language, in canonical order.
pub fn rule_defs() -> &'static [RuleDef] {
    static DEFS: OnceLock<Vec<RuleDef>> = OnceLock::new();
    DEFS.get_or_init(|| {
        let mut v = Vec::new();
        for key in META {
            v.push(RuleDef {
                path: key.to_string(),
                ty: Ty::Text,
                required: key == "game" || key == "name",
                doc: "metadata",
            });
        }
        for (path, ty, required, doc) in STRUCTURAL.iter().chain(BUYING).chain(SCORING) {
            v.push(RuleDef {
                path: path.to_string(),
                ty: ty.clone(),
                required: *required,
                doc,
            });
        }
        for (key, doc) in OPTIONAL_POINT_KEYS {
            v.push(RuleDef {
                path: format!("scoring.points.{key}"),
                ty: Ty::Int { min: 0, max: 1000 },
                required: false,
                doc,
            });
        }
        for key in POINT_KEYS {
            v.push(RuleDef {
                path: format!("scoring.points.{key}"),
                ty: Ty::Int { min: 0, max: 1000 },
                required: true,
                doc: "points for this card left in hand",
            });
        }
        for id in DisputeId::ALL {
            v.push(RuleDef {
                path: format!("readings.{}", id.id()),
                ty: Ty::Reading(id),
                required: true,
                doc: "the reading of this dispute",
            });
        }
        v
    })
}

pub fn rule_def(path: &str) -> Option<&'static RuleDef> {
    rule_defs().iter().find(|d| d.path == path)
}

/// Kinds of meld named in a contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MeldKind {
    Set,
    Run,
}

impl MeldKind {
    pub fn name(self) -> &'static str {
        match self {
            MeldKind::Set => "set",
            MeldKind::Run => "run",
        }
    }
}

/// One meld a contract asks for: `set of 3`, `run of 4`, or a set of one rank only: `set of 2
/// aces` (`rank`; only sets have one). A set of a fixed rank may be smaller than `sets.min-size`:
/// such a set is a meld only as that contract meld.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Component {
    pub kind: MeldKind,
    pub size: u8,
    /// The one rank a set of this contract meld may have (`None`: any rank; always for runs).
    pub rank: Option<Rank>,
}

impl Component {
    /// A contract meld of any rank: `set of 3`, `run of 4`.
    pub fn of(kind: MeldKind, size: u8) -> Component {
        Component {
            kind,
            size,
            rank: None,
        }
    }
}

impl std::fmt::Display for Component {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} of {}", self.kind.name(), self.size)?;
        match self.rank {
            Some(r) => write!(f, " {}", rank_plural(r)),
            None => Ok(()),
        }
    }
}

/// The rank words of a fixed-rank set, plural, in rank order from the ace: `set of 2 aces`.
pub const RANK_PLURALS: [&str; 13] = [
    "aces", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
    "jacks", "queens", "kings",
];

/// `aces`, `sevens`, `kings`: how a contract names a fixed rank (the canonical form).
pub fn rank_plural(r: Rank) -> &'static str {
    RANK_PLURALS[usize::from(r.number()) - 1]
}

/// Reads the rank of `set of 3 kings`: a rank word, plural (`aces`, `sevens`, `kings`), or rank
/// notation followed by `s` (`As`, `7s`, `10s`, `Ks`), any case.
pub fn parse_rank_plural(s: &str) -> Option<Rank> {
    let lower = s.to_ascii_lowercase();
    if let Some(i) = RANK_PLURALS.iter().position(|w| *w == lower) {
        return Rank::from_number(i as u8 + 1);
    }
    // `A`, `2`…`10`, `T`, `J`, `Q`, `K` exactly (not `1`, `07` or `+7`).
    const NOTATION: [&str; 14] = [
        "a", "2", "3", "4", "5", "6", "7", "8", "9", "10", "j", "q", "k", "t",
    ];
    let stem = lower.strip_suffix('s')?;
    NOTATION
        .contains(&stem)
        .then(|| Rank::parse(stem))
        .flatten()
}

/// One deal: cards dealt to each player and the contract.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RoundSpec {
    pub deal: u8,
    pub contract: Vec<Component>,
    /// Positions of `deal` and of each contract entry, for diagnostics.
    pub deal_pos: Pos,
    pub contract_pos: Vec<Pos>,
    /// `all-at-once: true`: the contract goes down only with every card in hand, which is going
    /// out without a discard.
    pub all_at_once: bool,
}

/// One entry of `decks.by-players`: the pack for `from` to `to` players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DeckTier {
    pub from: u8,
    pub to: u8,
    pub standard_decks: u8,
    pub jokers: u8,
}

impl DeckTier {
    fn players(&self) -> String {
        if self.from == self.to {
            self.from.to_string()
        } else {
            format!("{}-{}", self.from, self.to)
        }
    }
}

/// A rule's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Leaf {
    Text(String),
    Int(i64),
    Bool(bool),
    Choice(String),
    Range(u8, u8),
    Rounds(Vec<RoundSpec>),
    /// A list of names ([`Ty::List`]).
    List(Vec<String>),
    /// `{relax: [BAN, …]}` ([`Ty::WhenNone`]).
    Relax(Vec<String>),
    /// The pack by player count ([`Ty::DeckTiers`]).
    DeckTiers(Vec<DeckTier>),
}

impl Leaf {
    /// The value for people: `2-4`, `deal 6: set of 3 + set of 3; deal 7: …` (a deal played
    /// all at once ends `, all at once`).
    pub fn text(&self) -> String {
        self.written(
            |deal, contract, all| {
                let all = if all { ", all at once" } else { "" };
                format!("deal {deal}: {}{all}", contract.join(" + "))
            },
            "; ",
        )
    }

    /// The value as the rule listing writes it (the transcript fingerprint's input,
    /// conformance/README.md): `2-4`, `6:set of 3,set of 3;7:…` (a deal played all at once
    /// ends `:all-at-once`).
    pub fn listing(&self) -> String {
        self.written(
            |deal, contract, all| {
                let all = if all { ":all-at-once" } else { "" };
                format!("{deal}:{}{all}", contract.join(","))
            },
            ";",
        )
    }

    fn written(&self, deal: impl Fn(u8, &[String], bool) -> String, between: &str) -> String {
        match self {
            Leaf::Text(s) | Leaf::Choice(s) => s.clone(),
            Leaf::Int(n) => n.to_string(),
            Leaf::Bool(b) => b.to_string(),
            Leaf::Range(a, b) if a == b => a.to_string(),
            Leaf::Range(a, b) => format!("{a}-{b}"),
            Leaf::List(v) => v.join(","),
            Leaf::Relax(v) => format!("relax:{}", v.join(",")),
            Leaf::DeckTiers(t) => t
                .iter()
                .map(|x| format!("{}:{},{}", x.players(), x.standard_decks, x.jokers))
                .collect::<Vec<_>>()
                .join(";"),
            Leaf::Rounds(r) => r
                .iter()
                .map(|x| {
                    let c: Vec<String> = x.contract.iter().map(ToString::to_string).collect();
                    deal(x.deal, &c, x.all_at_once)
                })
                .collect::<Vec<_>>()
                .join(between),
        }
    }
}

/// Where a rule's value came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    pub file: String,
    pub pos: Pos,
}

/// A rule's value with its citation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub value: Leaf,
    /// `None` when written plainly (uncited).
    pub sources: Option<Vec<String>>,
    pub note: Option<String>,
    pub origin: Origin,
}

/// A rule set as read: rule path → cited value. Partial for house files until merged.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawRules {
    pub entries: BTreeMap<String, Entry>,
}

impl RawRules {
    pub fn get(&self, path: &str) -> Option<&Entry> {
        self.entries.get(path)
    }

    /// Puts reading `name` of dispute `id` in force, over whatever the rules said, as set at
    /// `origin` (the command line, a scenario, a protocol message).
    pub fn set_reading(&mut self, id: DisputeId, name: &str, origin: Origin, note: Option<&str>) {
        self.entries.insert(
            format!("readings.{}", id.id()),
            Entry {
                value: Leaf::Choice(name.to_string()),
                sources: None,
                note: note.map(str::to_string),
                origin,
            },
        );
    }

    /// `self` over `parent`: every rule `self` gives wins; metadata other than `name` and
    /// `description` is not inherited.
    pub fn over(mut self, parent: &RawRules) -> RawRules {
        for (k, v) in &parent.entries {
            if k == "game" || k == "extends" {
                continue;
            }
            self.entries.entry(k.clone()).or_insert_with(|| v.clone());
        }
        self
    }
}

/// Decodes a rules file's tree. Problems are pushed to `diags`; what could be read is returned.
pub fn decode(file: &str, root: &Node, diags: &mut Vec<Diagnostic>) -> RawRules {
    let mut raw = RawRules::default();
    match &root.value {
        Value::Map(_) => decode_section(file, root, "", &mut raw, diags),
        Value::Null => diags.push(
            Diagnostic::new(file, root.pos, "", "the rules file is empty").with_hint(
                "a house file starts with `extends: push` and lists the rules it changes",
            ),
        ),
        _ => diags.push(Diagnostic::new(
            file,
            root.pos,
            "",
            format!(
                "a rules file is a map of rules; this is {}",
                root.kind_name()
            ),
        )),
    }
    raw
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

/// The keys allowed directly under `prefix` (sections and rules).
fn children(prefix: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for d in rule_defs() {
        let rest = if prefix.is_empty() {
            Some(d.path.as_str())
        } else {
            d.path
                .strip_prefix(prefix)
                .and_then(|r| r.strip_prefix('.'))
        };
        if let Some(rest) = rest {
            let first = rest.split('.').next().unwrap_or(rest).to_string();
            if !out.contains(&first) {
                out.push(first);
            }
        }
    }
    out
}

fn decode_section(
    file: &str,
    node: &Node,
    prefix: &str,
    raw: &mut RawRules,
    diags: &mut Vec<Diagnostic>,
) {
    if node.value == Value::Null && !prefix.is_empty() {
        // `readings:` with everything commented out: an empty section.
        return;
    }
    if !prefix.is_empty()
        && ["value", "sources", "note"]
            .iter()
            .any(|k| node.get(k).is_some())
    {
        diags.push(
            Diagnostic::new(
                file,
                node.pos,
                prefix,
                format!("the section `{prefix}` cannot be cited as a whole"),
            )
            .with_hint("cite each rule inside it, e.g. `min-size: {value: 3, sources: [\"003\"]}`"),
        );
        return;
    }
    let Value::Map(entries) = &node.value else {
        diags.push(Diagnostic::new(
            file,
            node.pos,
            prefix,
            format!(
                "`{prefix}` is a section of rules (a map); this is {}",
                node.kind_name()
            ),
        ));
        return;
    };
    let allowed = children(prefix);
    for (k, v) in entries {
        let Some(key) = k.scalar_text() else {
            diags.push(Diagnostic::new(
                file,
                k.pos,
                prefix,
                "a key must be a plain name",
            ));
            continue;
        };
        let path = join(prefix, &key);
        if let Some(def) = rule_def(&path) {
            if let Some(e) = decode_entry(file, v, def, diags) {
                raw.entries.insert(path, e);
            }
        } else if allowed.contains(&key) {
            decode_section(file, v, &path, raw, diags);
        } else {
            let mut d = Diagnostic::new(file, k.pos, &path, format!("unknown key `{key}`"));
            let hint = if prefix == "scoring.points" && key == "a" {
                "did you mean `A`? card keys are written as in card notation: A, 2 … 10, J, Q, K, JK"
                    .to_string()
            } else {
                match did_you_mean(&key, allowed.iter().map(String::as_str)) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None if prefix == "readings" => {
                        format!("the disputes are: {}", allowed.join(", "))
                    }
                    None => format!("expected one of: {}", allowed.join(", ")),
                }
            };
            d = d.with_hint(hint);
            diags.push(d);
        }
    }
}

fn decode_entry(
    file: &str,
    node: &Node,
    def: &RuleDef,
    diags: &mut Vec<Diagnostic>,
) -> Option<Entry> {
    let origin = Origin {
        file: file.to_string(),
        pos: node.pos,
    };
    let path = def.path.as_str();
    // A map value is the cited form `{value, sources, note}`; no rule's value is itself a map.
    let cited = ["value", "sources", "note"]
        .iter()
        .any(|k| node.get(k).is_some());
    if let (Value::Map(entries), false, true) = (&node.value, def.ty == Ty::Text, cited) {
        let mut value = None;
        let mut sources = None;
        let mut note = None;
        for (k, v) in entries {
            match k.scalar_text().as_deref() {
                Some("value") => value = Some(v),
                Some("sources") => sources = decode_sources(file, v, path, diags),
                Some("note") => match &v.value {
                    Value::Str(s) => note = Some(s.clone()),
                    _ => diags.push(Diagnostic::new(
                        file,
                        v.pos,
                        &format!("{path}.note"),
                        format!("a note is text; this is {}", v.kind_name()),
                    )),
                },
                other => {
                    let key = other.unwrap_or("?");
                    let mut d = Diagnostic::new(
                        file,
                        k.pos,
                        &format!("{path}.{key}"),
                        format!("unknown key `{key}` in a cited rule"),
                    );
                    d = d.with_hint(match did_you_mean(key, ["value", "sources", "note"]) {
                        Some(s) => format!("did you mean `{s}`?"),
                        None => "a cited rule has `value`, `sources` and `note`".to_string(),
                    });
                    diags.push(d);
                }
            }
        }
        let Some(v) = value else {
            diags.push(
                Diagnostic::new(file, node.pos, path, "this cited rule has no `value`")
                    .with_hint("write `{value: …, sources: [\"000\"]}`"),
            );
            return None;
        };
        let value = decode_value(file, v, def, diags)?;
        return Some(Entry {
            value,
            sources,
            note,
            origin,
        });
    }
    let value = decode_value(file, node, def, diags)?;
    Some(Entry {
        value,
        sources: None,
        note: None,
        origin,
    })
}

fn decode_sources(
    file: &str,
    node: &Node,
    path: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<String>> {
    let spath = format!("{path}.sources");
    let Value::Seq(items) = &node.value else {
        diags.push(Diagnostic::new(
            file,
            node.pos,
            &spath,
            format!(
                "sources are a list like [\"000\", \"003\"]; this is {}",
                node.kind_name()
            ),
        ));
        return None;
    };
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let text = match &item.value {
            Value::Int(n @ 0..=3) => Some(format!("{n:03}")),
            Value::Str(s) if ["000", "001", "002", "003", "unsourced"].contains(&s.as_str()) => {
                Some(s.clone())
            }
            _ => None,
        };
        match text {
            Some(t) => out.push(t),
            None => diags.push(
                Diagnostic::new(
                    file,
                    item.pos,
                    &format!("{spath}[{i}]"),
                    format!(
                        "unknown source `{}`",
                        item.scalar_text()
                            .unwrap_or_else(|| item.kind_name().into())
                    ),
                )
                .with_hint("sources are \"000\", \"001\", \"002\", \"003\" or \"unsourced\""),
            ),
        }
    }
    if items.is_empty() {
        diags.push(
            Diagnostic::new(file, node.pos, &spath, "a cited rule lists no source")
                .with_hint("name the sources (\"000\" … \"003\") or write [\"unsourced\"]"),
        );
    }
    for (i, s) in out.iter().enumerate() {
        if out[..i].contains(s) {
            diags.push(Diagnostic::new(
                file,
                node.pos,
                &spath,
                format!("source \"{s}\" is listed twice"),
            ));
            break;
        }
    }
    if out.len() > 1 && out.iter().any(|s| s == "unsourced") {
        diags.push(Diagnostic::new(
            file,
            node.pos,
            &spath,
            "a rule cannot be both sourced and `unsourced`",
        ));
    }
    Some(out)
}

fn decode_value(
    file: &str,
    node: &Node,
    def: &RuleDef,
    diags: &mut Vec<Diagnostic>,
) -> Option<Leaf> {
    let path = def.path.as_str();
    match &def.ty {
        Ty::DeckTiers => return decode_tiers(file, node, path, diags).map(Leaf::DeckTiers),
        Ty::List(options) => return decode_names(file, node, path, options, diags).map(Leaf::List),
        Ty::WhenNone(choices, bans) => {
            return decode_when_none(file, node, path, choices, bans, diags);
        }
        _ => {}
    }
    let mut fail = |msg: String, hint: Option<String>| {
        let mut d = Diagnostic::new(file, node.pos, path, msg);
        if let Some(h) = hint {
            d = d.with_hint(h);
        }
        diags.push(d);
        None
    };
    match &def.ty {
        Ty::Text => match &node.value {
            Value::Str(s)
                if path == "game"
                    && (s.is_empty()
                        || !s
                            .chars()
                            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')) =>
            {
                fail(
                    format!("`{s}` is not a rule-set id"),
                    Some(
                        "an id uses lowercase letters, digits and `-`, like `club-marathon`".into(),
                    ),
                )
            }
            Value::Str(s) => Some(Leaf::Text(s.clone())),
            _ => fail(format!("expected text, found {}", node.kind_name()), None),
        },
        Ty::Int { min, max } => match node.value {
            Value::Int(n) if (*min..=*max).contains(&n) => Some(Leaf::Int(n)),
            Value::Int(n) => fail(
                format!("{n} is out of range: expected {min} to {max}"),
                negative_hint(path, n),
            ),
            _ => fail(
                format!("expected an integer, found {}", node.kind_name()),
                None,
            ),
        },
        Ty::Limit { min, max, word } => match (&node.value, node.scalar_text()) {
            (Value::Int(n), _) if (*min..=*max).contains(n) => Some(Leaf::Int(*n)),
            (Value::Int(n), _) => fail(
                format!("{n} is out of range: expected {min} to {max}, or {word}"),
                None,
            ),
            (_, Some(s)) if s == *word => Some(Leaf::Choice(s)),
            (_, Some(s)) => fail(
                format!("`{s}` is not a limit"),
                Some(format!("write an integer from {min} to {max}, or {word}")),
            ),
            _ => fail(
                format!("expected an integer or {word}, found {}", node.kind_name()),
                None,
            ),
        },
        Ty::Bool => match node.value {
            Value::Bool(b) => Some(Leaf::Bool(b)),
            _ => fail(
                format!("expected true or false, found {}", node.kind_name()),
                None,
            ),
        },
        Ty::Choice(options) => match node.scalar_text() {
            Some(s) if options.contains(&s.as_str()) => Some(Leaf::Choice(s)),
            Some(s) => {
                let hint = match did_you_mean(&s, options.iter().copied()) {
                    Some(m) => format!("did you mean `{m}`?"),
                    None => format!("expected one of: {}", options.join(", ")),
                };
                fail(format!("`{s}` is not a valid value"), Some(hint))
            }
            None => fail(
                format!(
                    "expected one of {}, found {}",
                    options.join(", "),
                    node.kind_name()
                ),
                None,
            ),
        },
        Ty::Reading(id) => match node.scalar_text() {
            Some(s) if id.reading_names().contains(&s.as_str()) => Some(Leaf::Choice(s)),
            Some(s) => fail(
                format!("`{s}` is not a reading of dispute `{id}`"),
                Some(match did_you_mean(&s, id.reading_names().iter().copied()) {
                    Some(m) => format!(
                        "did you mean `{m}`? the readings are {}",
                        list_readings(*id)
                    ),
                    None => format!("the readings are {}", list_readings(*id)),
                }),
            ),
            None => fail(
                format!("expected a reading name, found {}", node.kind_name()),
                Some(format!("the readings are {}", list_readings(*id))),
            ),
        },
        Ty::PlayerRange => {
            let parsed = match &node.value {
                Value::Int(n) => u8::try_from(*n).ok().map(|n| (n, n)),
                Value::Str(s) => parse_range(s),
                _ => None,
            };
            match parsed {
                Some((a, b)) if (2..=12).contains(&a) && (a..=12).contains(&b) => {
                    Some(Leaf::Range(a, b))
                }
                Some((a, b)) if a > b && (2..=12).contains(&b) && a <= 12 => fail(
                    format!("the range {a}-{b} is reversed"),
                    Some(format!("write \"{b}-{a}\"")),
                ),
                Some((a, b)) => {
                    let bad = if a < 2 { a } else { b.max(a) };
                    fail(
                        format!("{bad} players is out of range: a game has 2 to 12 players"),
                        None,
                    )
                }
                None => fail(
                    format!(
                        "expected a player count like 4 or \"3-6\", found {}",
                        node.kind_name()
                    ),
                    None,
                ),
            }
        }
        Ty::Rounds => decode_rounds(file, node, diags).map(Leaf::Rounds),
        Ty::List(_) | Ty::WhenNone(..) | Ty::DeckTiers => unreachable!("decoded above"),
    }
}

/// `discard.when-none-allowed`'s value: one of `choices`, or `{relax: [BAN, …]}` with names from
/// `bans`.
fn decode_when_none(
    file: &str,
    node: &Node,
    path: &str,
    choices: &[&str],
    bans: &[&str],
    diags: &mut Vec<Diagnostic>,
) -> Option<Leaf> {
    let relax_hint = "write `{relax: [taken-card, …]}`";
    let problem = |pos: Pos, at: &str, msg: String, hint: String| {
        Diagnostic::new(file, pos, at, msg).with_hint(hint)
    };
    if let Value::Map(entries) = &node.value {
        if entries.is_empty() {
            diags.push(problem(
                node.pos,
                path,
                "an empty map".into(),
                relax_hint.into(),
            ));
            return None;
        }
        let mut out = None;
        for (k, v) in entries {
            let key = k.scalar_text().unwrap_or_else(|| "?".into());
            if key != "relax" {
                let hint = format!("{relax_hint}, or one of: {}", choices.join(", "));
                let at = format!("{path}.{key}");
                diags.push(problem(k.pos, &at, format!("unknown key `{key}`"), hint));
                return None;
            }
            let at = format!("{path}.relax");
            out = decode_names(file, v, &at, bans, diags);
            if out.as_ref().is_some_and(Vec::is_empty) {
                let hint = "name the bans to lift, in order, or write `no-discard`".into();
                diags.push(problem(v.pos, &at, "`relax` lifts no ban".into(), hint));
                out = None;
            }
        }
        return out.map(Leaf::Relax);
    }
    let (msg, hint) = match node.scalar_text() {
        Some(s) if choices.contains(&s.as_str()) => return Some(Leaf::Choice(s)),
        Some(s) => {
            let hint = match did_you_mean(&s, choices.iter().copied().chain(["relax"])) {
                Some("relax") => relax_hint.to_string(),
                Some(m) => format!("did you mean `{m}`?"),
                None => format!(
                    "expected one of: {}, or `{{relax: [BAN, …]}}`",
                    choices.join(", ")
                ),
            };
            (format!("`{s}` is not a valid value"), hint)
        }
        None => (
            format!("expected a value, found {}", node.kind_name()),
            format!(
                "expected one of: {}, or `{{relax: [BAN, …]}}`",
                choices.join(", ")
            ),
        ),
    };
    diags.push(problem(node.pos, path, msg, hint));
    None
}

/// `decks.by-players`: a list of `{players, standard-decks, jokers}`.
fn decode_tiers(
    file: &str,
    node: &Node,
    path: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<DeckTier>> {
    let example = "write a list like [{players: \"2-4\", standard-decks: 2, jokers: 3}]";
    let Value::Seq(items) = &node.value else {
        diags.push(
            Diagnostic::new(
                file,
                node.pos,
                path,
                format!("expected a list of tiers, found {}", node.kind_name()),
            )
            .with_hint(example),
        );
        return None;
    };
    let before = diags.len();
    let mut out = Vec::new();
    let mut places = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let ipath = format!("{path}[{i}]");
        let Value::Map(entries) = &item.value else {
            diags.push(
                Diagnostic::new(
                    file,
                    item.pos,
                    &ipath,
                    format!("a tier is a map; this is {}", item.kind_name()),
                )
                .with_hint(example),
            );
            continue;
        };
        let (mut players, mut decks, mut jokers) = (None, None, None);
        for (k, v) in entries {
            let key = k.scalar_text().unwrap_or_else(|| "?".into());
            let at = format!("{ipath}.{key}");
            let mut number = |min: i64, max: i64, what: &str| match v.value {
                Value::Int(n) if (min..=max).contains(&n) => Some(n as u8),
                _ => {
                    diags.push(Diagnostic::new(
                        file,
                        v.pos,
                        &at,
                        format!("{what} must be an integer from {min} to {max}"),
                    ));
                    None
                }
            };
            match key.as_str() {
                "standard-decks" => decks = number(1, 16, "standard-decks"),
                "jokers" => jokers = number(0, 64, "jokers"),
                "players" => {
                    let parsed = match &v.value {
                        Value::Int(n) => u8::try_from(*n).ok().map(|n| (n, n)),
                        Value::Str(s) => parse_range(s),
                        _ => None,
                    };
                    match parsed {
                        Some((a, b)) if (2..=12).contains(&a) && (a..=12).contains(&b) => {
                            players = Some((a, b));
                        }
                        _ => diags.push(
                            Diagnostic::new(
                                file,
                                v.pos,
                                &at,
                                "players must be a count from 2 to 12, or a range like \"5-6\"",
                            )
                            .with_hint("write the range low to high"),
                        ),
                    }
                }
                _ => diags.push(
                    Diagnostic::new(file, k.pos, &at, format!("unknown key `{key}`")).with_hint(
                        match did_you_mean(&key, ["players", "standard-decks", "jokers"]) {
                            Some(s) => format!("did you mean `{s}`?"),
                            None => "a tier has `players`, `standard-decks` and `jokers`".into(),
                        },
                    ),
                ),
            }
        }
        match (players, decks, jokers) {
            (Some((from, to)), Some(standard_decks), Some(jokers)) => {
                out.push(DeckTier {
                    from,
                    to,
                    standard_decks,
                    jokers,
                });
                places.push((item.pos, ipath));
            }
            _ if diags.len() == before => diags.push(
                Diagnostic::new(
                    file,
                    item.pos,
                    &ipath,
                    "a tier names `players`, `standard-decks` and `jokers`",
                )
                .with_hint(example),
            ),
            _ => {}
        }
    }
    if items.is_empty() {
        diags.push(
            Diagnostic::new(file, node.pos, path, "the list names no tier").with_hint(example),
        );
    }
    for (i, t) in out.iter().enumerate() {
        if let Some(o) = out[..i].iter().find(|o| t.from <= o.to && o.from <= t.to) {
            diags.push(
                Diagnostic::new(
                    file,
                    places[i].0,
                    &places[i].1,
                    format!(
                        "the tiers for {} and {} players overlap",
                        o.players(),
                        t.players()
                    ),
                )
                .with_hint("name each player count in one tier only"),
            );
        }
    }
    (diags.len() == before).then_some(out)
}

/// A list of distinct names from `options` (`[wilds, taken-card]`).
fn decode_names(
    file: &str,
    node: &Node,
    path: &str,
    options: &[&str],
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<String>> {
    let Value::Seq(items) = &node.value else {
        diags.push(
            Diagnostic::new(
                file,
                node.pos,
                path,
                format!("expected a list, found {}", node.kind_name()),
            )
            .with_hint(format!(
                "write a list like [{}]; the names are {}",
                options[0],
                options.join(", ")
            )),
        );
        return None;
    };
    let before = diags.len();
    let mut out: Vec<String> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let ipath = format!("{path}[{i}]");
        match item.scalar_text() {
            Some(s) if out.contains(&s) => diags.push(
                Diagnostic::new(file, item.pos, &ipath, format!("`{s}` is listed twice"))
                    .with_hint("name each once"),
            ),
            Some(s) if options.contains(&s.as_str()) => out.push(s),
            Some(s) => diags.push(
                Diagnostic::new(
                    file,
                    item.pos,
                    &ipath,
                    format!("`{s}` is not a valid value"),
                )
                .with_hint(match did_you_mean(&s, options.iter().copied()) {
                    Some(m) => format!("did you mean `{m}`?"),
                    None => format!("expected one of: {}", options.join(", ")),
                }),
            ),
            None => diags.push(Diagnostic::new(
                file,
                item.pos,
                &ipath,
                format!(
                    "expected one of {}, found {}",
                    options.join(", "),
                    item.kind_name()
                ),
            )),
        }
    }
    (diags.len() == before).then_some(out)
}

/// What to write instead of a negative number where scoring wants 0 or more.
fn negative_hint(path: &str, n: i64) -> Option<String> {
    if n >= 0 {
        return None;
    }
    if path == "scoring.going-out-bonus" {
        Some(format!(
            "write the bonus as a positive number (`going-out-bonus: {}`): it is taken off the score of the side that goes out",
            n.unsigned_abs()
        ))
    } else if path.starts_with("scoring.points.") {
        Some("a card left in hand counts 0 points or more against its side; to reward going out, use `scoring.going-out-bonus`".to_string())
    } else {
        None
    }
}

fn parse_range(s: &str) -> Option<(u8, u8)> {
    match s.split_once('-') {
        Some((a, b)) => Some((a.trim().parse().ok()?, b.trim().parse().ok()?)),
        None => {
            let n = s.trim().parse().ok()?;
            Some((n, n))
        }
    }
}

fn decode_rounds(file: &str, node: &Node, diags: &mut Vec<Diagnostic>) -> Option<Vec<RoundSpec>> {
    let Value::Seq(items) = &node.value else {
        diags.push(Diagnostic::new(
            file,
            node.pos,
            "rounds",
            format!("rounds are a list of deals; this is {}", node.kind_name()),
        )
        .with_hint("start each deal with `- deal: N`, e.g. `- {deal: 6, contract: [set of 3, set of 3]}`"));
        return None;
    };
    if items.is_empty() || items.len() > 20 {
        diags.push(Diagnostic::new(
            file,
            node.pos,
            "rounds",
            format!("a game has 1 to 20 deals; this lists {}", items.len()),
        ));
        return None;
    }
    let before = diags.len();
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let path = format!("rounds[{i}]");
        let Value::Map(entries) = &item.value else {
            diags.push(Diagnostic::new(
                file,
                item.pos,
                &path,
                format!(
                    "a deal is a map with `deal` and `contract`; this is {}",
                    item.kind_name()
                ),
            ));
            continue;
        };
        let mut deal = None;
        let mut contract = None;
        let mut all_at_once = false;
        let has_deal = entries
            .iter()
            .any(|(k, _)| k.scalar_text().as_deref() == Some("deal"));
        for (k, v) in entries {
            match k.scalar_text().as_deref() {
                Some("deal") => match v.value {
                    Value::Int(n @ 1..=60) => deal = Some((n as u8, v.pos)),
                    _ => diags.push(Diagnostic::new(
                        file,
                        v.pos,
                        &format!("{path}.deal"),
                        "cards dealt must be an integer from 1 to 60",
                    )),
                },
                Some("contract") => contract = decode_contract(file, v, &path, diags),
                Some("all-at-once") => match v.value {
                    Value::Bool(b) => all_at_once = b,
                    _ => diags.push(
                        Diagnostic::new(
                            file,
                            v.pos,
                            &format!("{path}.all-at-once"),
                            format!("all-at-once is true or false; this is {}", v.kind_name()),
                        )
                        .with_hint("write `all-at-once: true` for a deal whose contract goes down only as the whole hand"),
                    ),
                },
                other => {
                    let key = other.unwrap_or("?");
                    let mut d = Diagnostic::new(
                        file,
                        k.pos,
                        &format!("{path}.{key}"),
                        format!("unknown key `{key}`"),
                    );
                    d = d.with_hint(match did_you_mean(key, ["deal", "contract", "all-at-once"]) {
                        Some(s) => format!("did you mean `{s}`?"),
                        None => "a deal has `deal`, `contract` and optionally `all-at-once`".into(),
                    });
                    diags.push(d);
                }
            }
        }
        match (deal, contract) {
            (Some((deal, deal_pos)), Some((contract, contract_pos))) => out.push(RoundSpec {
                deal,
                contract,
                deal_pos,
                contract_pos,
                all_at_once,
            }),
            (None, _) if !has_deal => diags.push(Diagnostic::new(
                file,
                item.pos,
                &path,
                "this deal has no `deal` (cards dealt)",
            )),
            (None, _) => {}
            (_, None) => {
                if !entries
                    .iter()
                    .any(|(k, _)| k.scalar_text().as_deref() == Some("contract"))
                {
                    diags.push(Diagnostic::new(
                        file,
                        item.pos,
                        &path,
                        "this deal has no `contract`",
                    ));
                }
            }
        }
    }
    (diags.len() == before).then_some(out)
}

fn decode_contract(
    file: &str,
    node: &Node,
    round_path: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Vec<Component>, Vec<Pos>)> {
    let path = format!("{round_path}.contract");
    let Value::Seq(items) = &node.value else {
        diags.push(Diagnostic::new(
            file,
            node.pos,
            &path,
            format!(
                "a contract is a list like [set of 3, run of 4]; this is {}",
                node.kind_name()
            ),
        ));
        return None;
    };
    if items.is_empty() || items.len() > 8 {
        diags.push(Diagnostic::new(
            file,
            node.pos,
            &path,
            "a contract names 1 to 8 melds",
        ));
        return None;
    }
    let mut comps = Vec::new();
    let mut poss = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match item.scalar_text().as_deref().and_then(parse_component) {
            Some(c) => {
                comps.push(c);
                poss.push(item.pos);
            }
            None => {
                diags.push(
                    Diagnostic::new(
                        file,
                        item.pos,
                        &format!("{path}[{i}]"),
                        format!(
                            "cannot read `{}` as a contract meld",
                            item.scalar_text()
                                .unwrap_or_else(|| item.kind_name().to_string())
                        ),
                    )
                    .with_hint(component_hint(item.scalar_text().as_deref())),
                );
            }
        }
    }
    (comps.len() == items.len()).then_some((comps, poss))
}

/// What to write instead of a contract meld that cannot be read: the rank it may have meant where
/// the last word of `set of N WORD` is no rank, else the forms.
fn component_hint(text: Option<&str>) -> String {
    const FORMS: &str = "write `set of N`, `run of N` or `set of N RANKS` (a set of one rank: \
                         `set of 2 aces`, `set of 3 7s`), N from 2 to 104";
    let lower = text.unwrap_or("").trim().to_ascii_lowercase();
    match lower.split_whitespace().collect::<Vec<_>>().as_slice() {
        ["run", "of", _, _] => {
            "only a set has a rank of its own: write `run of N`, or `set of N RANKS`".to_string()
        }
        ["set", "of", n, word] if parse_rank_plural(word).is_none() => {
            match did_you_mean(word, RANK_PLURALS) {
                Some(m) => format!("`{word}` is no rank: did you mean `set of {n} {m}`?"),
                None => format!(
                    "`{word}` is no rank: write a rank word (`aces`, `twos` … `kings`) or rank \
                     notation with an s (`As`, `2s` … `10s`, `Js`, `Qs`, `Ks`)"
                ),
            }
        }
        _ => FORMS.to_string(),
    }
}

/// Reads `set of 3` / `run of 4` / `set of 2 aces` (a set of one rank: [`parse_rank_plural`]).
pub fn parse_component(s: &str) -> Option<Component> {
    let lower = s.trim().to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let (kind, n, rank) = match words.as_slice() {
        [k, "of", n] => (*k, *n, None),
        ["set", "of", n, r] => ("set", *n, Some(parse_rank_plural(r)?)),
        _ => return None,
    };
    let kind = match kind {
        "set" => MeldKind::Set,
        "run" => MeldKind::Run,
        _ => return None,
    };
    let size: u8 = n.parse().ok()?;
    (2..=104)
        .contains(&size)
        .then_some(Component { kind, size, rank })
}

/// Renders a rule set as canonical YAML in the language itself: every rule in table order, cited
/// form where a citation is known. Loading the output gives the same rules back.
pub fn render(raw: &RawRules, header: &str) -> String {
    let mut out = String::new();
    out.push_str(header);
    let mut open: Vec<String> = Vec::new();
    for def in rule_defs() {
        let Some(entry) = raw.get(&def.path) else {
            continue;
        };
        let parts: Vec<&str> = def.path.split('.').collect();
        let (sections, leaf) = parts.split_at(parts.len() - 1);
        // Close sections that no longer apply, open the new ones.
        let common = open
            .iter()
            .zip(sections.iter())
            .take_while(|(a, b)| a.as_str() == **b)
            .count();
        open.truncate(common);
        for s in &sections[common..] {
            out.push_str(&format!("{}{}:\n", "  ".repeat(open.len()), yaml_key(s)));
            open.push(s.to_string());
        }
        let indent = "  ".repeat(open.len());
        // A reading that a stated rule overrides, and a stated rule that overrides a reading,
        // say so (a comment: loading the output back reads the same rules).
        let overridden = match def.ty {
            Ty::Reading(id) => super::overrides::stated_overrides(raw, id),
            _ => Vec::new(),
        };
        if !overridden.is_empty() {
            out.push_str(&format!(
                "{indent}# overridden by {}; this reading decides nothing here\n",
                overridden.join(", ")
            ));
        }
        if let Some(id) = super::overrides::overridden_by(&def.path) {
            out.push_str(&format!(
                "{indent}# stated: overrides the reading of {id} ({})\n",
                raw.get(&format!("readings.{id}"))
                    .map_or_else(|| "not given".to_string(), |e| e.value.text())
            ));
        }
        let value = render_leaf(&entry.value, &indent);
        let key = yaml_key(leaf[0]);
        if def.ty == Ty::Text || entry.sources.is_none() && entry.note.is_none() {
            if value.starts_with('\n') {
                out.push_str(&format!("{indent}{key}:{value}\n"));
            } else {
                out.push_str(&format!("{indent}{key}: {value}\n"));
            }
        } else {
            out.push_str(&format!("{indent}{key}:\n"));
            let inner = format!("{indent}  ");
            let value = render_leaf(&entry.value, &inner);
            if value.starts_with('\n') {
                out.push_str(&format!("{inner}value:{value}\n"));
            } else {
                out.push_str(&format!("{inner}value: {value}\n"));
            }
            if let Some(sources) = &entry.sources {
                let q: Vec<String> = sources.iter().map(|s| format!("\"{s}\"")).collect();
                out.push_str(&format!("{inner}sources: [{}]\n", q.join(", ")));
            }
            if let Some(note) = &entry.note {
                out.push_str(&format!("{inner}note: {}\n", quote(note)));
            }
        }
    }
    out
}

fn yaml_key(k: &str) -> String {
    if k.chars().all(|c| c.is_ascii_alphabetic() || c == '-') {
        k.to_string()
    } else {
        format!("\"{k}\"")
    }
}

/// A double-quoted YAML string.
pub fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn render_leaf(leaf: &Leaf, indent: &str) -> String {
    match leaf {
        Leaf::Text(s) | Leaf::Choice(s) => quote(s),
        Leaf::Int(n) => n.to_string(),
        Leaf::Bool(b) => b.to_string(),
        Leaf::Range(a, b) if a == b => a.to_string(),
        Leaf::Range(a, b) => format!("\"{a}-{b}\""),
        Leaf::List(v) => format!("[{}]", v.join(", ")),
        Leaf::Relax(v) => format!("{{relax: [{}]}}", v.join(", ")),
        Leaf::DeckTiers(tiers) => tiers
            .iter()
            .map(|t| {
                format!(
                    "\n{indent}  - {{players: \"{}\", standard-decks: {}, jokers: {}}}",
                    t.players(),
                    t.standard_decks,
                    t.jokers
                )
            })
            .collect(),
        Leaf::Rounds(rounds) => {
            let mut s = String::new();
            for r in rounds {
                let c: Vec<String> = r.contract.iter().map(Component::to_string).collect();
                // Written only where it holds: a listing (and the fingerprint) without it is
                // the same as before the key existed.
                let all = if r.all_at_once {
                    ", all-at-once: true"
                } else {
                    ""
                };
                s.push_str(&format!(
                    "\n{indent}  - {{deal: {}, contract: [{}]{all}}}",
                    r.deal,
                    c.join(", ")
                ));
            }
            s
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_parse() {
        assert_eq!(
            parse_component("Set of 3"),
            Some(Component::of(MeldKind::Set, 3))
        );
        assert_eq!(parse_component("run 4"), None);
        assert_eq!(parse_component("run of 200"), None);
        let aces = Component {
            kind: MeldKind::Set,
            size: 2,
            rank: Some(Rank::Ace),
        };
        for text in ["set of 2 aces", "Set of 2 As", "set  of 2 ACES"] {
            assert_eq!(parse_component(text), Some(aces), "{text}");
        }
        assert_eq!(aces.to_string(), "set of 2 aces");
        for r in Rank::ALL {
            let c = Component {
                rank: Some(r),
                ..aces
            };
            assert_eq!(parse_component(&c.to_string()), Some(c));
            let notation = format!("set of 2 {}s", r.name());
            assert_eq!(parse_component(&notation), Some(c), "{notation}");
        }
        assert_eq!(
            parse_component("set of 3 Ts").and_then(|c| c.rank),
            Some(Rank::Ten)
        );
        for bad in [
            "set of 2 acez",
            "run of 4 aces",
            "set of 3 1s",
            "set of 3 07s",
            "set of 3 ace",
            "set of 3 kings please",
        ] {
            assert_eq!(parse_component(bad), None, "{bad}");
        }
        assert!(component_hint(Some("set of 2 acez")).contains("`set of 2 aces`"));
        assert!(component_hint(Some("run of 4 aces")).contains("only a set"));
    }

    #[test]
    fn every_rule_path_is_unique() {
        let mut seen = std::collections::HashSet::new();
        for d in rule_defs() {
            assert!(seen.insert(d.path.clone()), "{}", d.path);
        }
    }
}
