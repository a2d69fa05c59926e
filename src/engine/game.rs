//! The game engine: a whole game of any rule set, driven by the compiled [`Rules`] alone.
//!
//! [`Game::apply`] takes one [`Action`] by the seat to play and returns the [`Event`]s it caused, or
//! an [`Illegal`] with a reason code; an illegal action leaves the game unchanged. The automatic
//! steps (dealing, the upcard, the end of a hand, scoring, the next deal, the end of the game)
//! happen inside `apply`. The engine does no I/O and uses only its own seeded [`Rng`].
//!
//! Seats are numbered clockwise from 0; "left" is the next seat (`+1`), turn order is clockwise.

use crate::base::card::{Card, CardList, Counts, Rank, Suit};
use crate::base::rng::Rng;
use crate::oracle::contract;
use crate::oracle::meld::{self, Interpretation, Query, Target};
use crate::rules::disputes::reading as rd;
use crate::rules::spec::MeldKind;
use crate::rules::{Direction, Rules, WhenEmpty};
use serde::Serialize;
use std::fmt;
use std::sync::Arc;

/// A meld as a player puts it down: cards, optionally its kind, and declared meanings of wilds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MeldSpec {
    pub cards: Vec<Card>,
    pub kind: Option<MeldKind>,
    pub declared: Vec<(Card, Target)>,
}

impl MeldSpec {
    fn query(&self) -> Query {
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
        }
    }
}

/// Why an action was refused. The code is stable; the message is for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Illegal {
    pub code: Reason,
    pub message: String,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.code(), self.message)
    }
}

impl std::error::Error for Illegal {}

macro_rules! reasons {
    ($($name:ident = $code:literal: $doc:literal,)*) => {
        /// Rejection reason codes (stable, kebab-case).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Reason { $(#[doc = $doc] $name,)* }
        impl Reason {
            pub const ALL: &'static [Reason] = &[$(Reason::$name,)*];
            pub fn code(self) -> &'static str { match self { $(Reason::$name => $code,)* } }
            pub fn doc(self) -> &'static str { match self { $(Reason::$name => $doc,)* } }
            pub fn from_code(s: &str) -> Option<Reason> { Reason::ALL.iter().copied().find(|r| r.code() == s) }
        }
    };
}

reasons! {
    GameOver = "game-over": "the game has ended",
    NotYourTurn = "not-your-turn": "another seat is to play",
    MustDrawFirst = "must-draw-first": "a turn starts with a draw: take the discard or push",
    AlreadyDrew = "already-drew": "the draw was already made this turn",
    NoPlainDraw = "no-plain-draw": "there is no plain draw from the stock: take the discard or push",
    DiscardPileEmpty = "discard-pile-empty": "there is no discard to take or push",
    PushNotAllowed = "push-not-allowed": "the stock is too small to push (push-with-one-stock-card)",
    CardNotInHand = "card-not-in-hand": "the player does not hold that card",
    InvalidMeld = "invalid-meld": "the cards form no legal meld",
    AmbiguousWild = "ambiguous-wild": "the meld can mean more than one thing; declare the wilds (wild-declaration)",
    DeclarationRequired = "declaration-required": "every wild must be declared (wild-declaration=always)",
    DeclarationNotAllowed = "declaration-not-allowed": "wilds are not declared under wild-declaration=never",
    ContractNotMet = "contract-not-met": "the melds do not meet this deal's contract",
    ContractFirst = "contract-first": "no melding, lay-off or rescue before one's own contract",
    NextTurnOnly = "next-turn-only": "after the contract, more melds wait until the next turn (contract-turn-extras)",
    SameRankSet = "same-rank-set": "a player may not have two sets of one rank (same-rank-sets=forbidden)",
    NoSuchMeld = "no-such-meld": "no meld on the table has that number",
    InvalidLayOff = "invalid-lay-off": "the cards do not extend that meld",
    JoinNotAllowed = "join-not-allowed": "runs may not be joined (run-join-split=never)",
    RescueNotAllowed = "rescue-not-allowed": "rescue is not allowed now (rescue-timing)",
    RescueNoMatch = "rescue-no-match": "no wild in that meld stands for that natural card",
    RescueFrozen = "rescue-frozen": "that 2 can never be rescued (frozen-two)",
    RescuedWildNotMelded = "rescued-wild-not-melded": "the rescued wild must be melded at once (rescued-wild-fate=meld-same-turn)",
    DiscardNotAllowed = "discard-not-allowed": "that card may not be discarded (discard-restrictions, discard.wilds)",
    MustDiscard = "must-discard": "a card can be discarded, so the turn must end with a discard",
    GoingOutByDiscardOnly = "going-out-by-discard-only": "a player goes out only by discarding (going-out=discard-only)",
}

/// Something that happened, in order. Hidden information is not hidden here: observations filter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    Dealt {
        round: usize,
        dealer: u8,
        first: u8,
    },
    UpcardBuried {
        card: Card,
    },
    Upcard {
        card: Card,
    },
    TookDiscard {
        seat: u8,
        card: Card,
    },
    Pushed {
        seat: u8,
        to: u8,
        discard: Option<Card>,
        stock: CardList,
        face_up: bool,
    },
    Drew {
        seat: u8,
        card: Card,
    },
    Reshuffled {
        cards: usize,
    },
    Melded {
        seat: u8,
        meld: usize,
        cards: CardList,
        contract: bool,
    },
    LaidOff {
        seat: u8,
        meld: usize,
        cards: CardList,
        joined: Option<usize>,
    },
    Rescued {
        seat: u8,
        meld: usize,
        natural: Card,
        wild: Card,
    },
    Discarded {
        seat: u8,
        card: Card,
    },
    TurnEnded {
        seat: u8,
    },
    WentOut {
        seat: u8,
    },
    HandEnded {
        reason: String,
        points: Vec<u32>,
        totals: Vec<i64>,
    },
    GameEnded {
        winners: Vec<u8>,
        totals: Vec<i64>,
    },
}

/// A meld on the table.
#[derive(Clone)]
pub struct TableMeld {
    pub owner: u8,
    pub cards: Vec<Card>,
    /// Every interpretation still possible: exactly one unless wilds float (`wild-declaration=never`).
    pub interps: Vec<Interpretation>,
    /// Which state of a meld this is: a number no other meld, and no other state of this one,
    /// has had in this process ([`TableMeld::restamp`]). A player that remembers what it learnt
    /// about a meld keeps its stamp and knows the meld unchanged while the stamp is the same.
    /// Not part of what a meld is: equality and `Debug` leave it out.
    stamp: u64,
}

/// The cards a new meld's list has room for beyond its own: most melds take a lay-off or two,
/// and a list grown one card at a time would be copied at the first.
const LAY_OFF_ROOM: usize = 4;

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

    pub fn stamp(&self) -> u64 {
        self.stamp
    }

    /// A new stamp, for a meld changed in place: whoever changes its fields calls this.
    pub fn restamp(&mut self) {
        self.stamp = next_stamp();
    }
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

/// Where a turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Draw,
    Play,
    /// The game has ended.
    Over,
}

/// How a hand ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HandEnd {
    WentOut(u8),
    StockOut,
    Stalled,
}

/// One finished hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandResult {
    pub end: HandEnd,
    /// Points scored by each side this hand.
    pub points: Vec<u32>,
}

/// Per-seat contract progress.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    pub done: bool,
    /// Components already down (piecemeal).
    pub filled: Vec<bool>,
}

/// The state of one deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    /// The stock; its top is the last element.
    pub stock: Vec<Card>,
    /// The discard pile; its top is the last element.
    pub discard: Vec<Card>,
    pub hands: Vec<Counts>,
    /// Shared on copy: a copy of the game (a trial move) copies only pointers to the melds.
    pub table: Vec<Arc<TableMeld>>,
    /// Shared on copy, like the table: it changes only when melds go down.
    pub progress: Arc<Vec<Progress>>,
    pub turn: u8,
    pub stage: Stage,
    /// The card taken from the discard pile this turn.
    pub taken: Option<Card>,
    /// The contract went down this turn.
    pub contract_turn: bool,
    /// A card reached the table this turn.
    pub table_progress: bool,
    /// Turns in a row in which no card reached the table.
    pub stall: u32,
    /// The last push: (from, to, stock cards pushed, shown to every seat).
    pub last_push: Option<(u8, u8, Vec<Card>, bool)>,
}

impl Deal {
    /// A deal before its first turn: the upcard not yet turned.
    fn fresh(stock: Vec<Card>, hands: Vec<Counts>, progress: Arc<Vec<Progress>>, turn: u8) -> Deal {
        Deal {
            stock,
            discard: Vec::new(),
            hands,
            table: Vec::new(),
            progress,
            turn,
            stage: Stage::Draw,
            taken: None,
            contract_turn: false,
            table_progress: false,
            stall: 0,
            last_push: None,
        }
    }
}

/// A whole game.
#[derive(Clone, Debug)]
pub struct Game {
    pub rules: Arc<Rules>,
    pub players: u8,
    /// Side of each seat (partners share a side).
    pub side_of: Vec<u8>,
    pub sides: u8,
    pub round: usize,
    pub dealer: u8,
    /// Cumulative score per side.
    pub totals: Vec<i64>,
    /// Shared on copy: it changes only when a hand ends.
    pub results: Arc<Vec<HandResult>>,
    pub deal: Deal,
    pub rng: Rng,
    pub winners: Vec<u8>,
    /// Explicit pack orders for the coming deals (first card = top), used before the generator.
    pub decks: Vec<Vec<Card>>,
    /// What a listing just computed (a meld candidate's interpretations, a one-card extension),
    /// for the `apply` that follows.
    pub(crate) seen: Seen,
}

/// The interpretations of the melds a meld candidate was built from (every interpretation of
/// the cards as the kind named, none declared), so that applying the candidate filters them by
/// its declarations instead of searching the same cards again: what `meld::interpret` does with
/// declarations is exactly that filter. Taken by the next meld applied; it holds the rules it was
/// found under and serves no other (what a meld's cards can stand for depends on nothing else).
/// Not part of the game: a copy starts empty.
///
/// Likewise the last one-card extension a lay-off listing built (`meld::extend_each_by_one` of a
/// table meld's interpretations), or the one join of a natural card it found
/// (`meld::joins`), for the lay-off that applies it: known by the meld's stamp, which no other
/// meld or state of a meld has, and the card.
#[derive(Default)]
pub(crate) struct Seen(
    std::cell::RefCell<Option<SeenMelds>>,
    std::cell::RefCell<Option<SeenLayOff>>,
);

pub(crate) struct SeenLayOff {
    rules: Arc<Rules>,
    stamp: u64,
    card: Card,
    grow: SeenGrow,
}

/// What [`SeenLayOff`] knows of the meld grown by its card.
enum SeenGrow {
    /// Its interpretations (taken by the lay-off).
    Extension(Vec<Interpretation>),
    /// Its one interpretation takes the card in this one way (read, not taken: it stays true
    /// while the meld's stamp is the same).
    Join(meld::OnlyJoin),
}

pub(crate) struct SeenMelds {
    rules: Arc<Rules>,
    melds: Vec<SeenMeld>,
}

/// One meld of [`Seen`]: its cards (in the candidate's order), its kind, its interpretations.
pub(crate) type SeenMeld = (Vec<Card>, MeldKind, Vec<Interpretation>);

impl SeenLayOff {
    fn is_for(&self, rules: &Arc<Rules>, meld: &TableMeld, card: Card) -> bool {
        self.stamp == meld.stamp && self.card == card && Arc::ptr_eq(&self.rules, rules)
    }
}

impl Clone for Seen {
    fn clone(&self) -> Seen {
        Seen::default()
    }
}

impl fmt::Debug for Seen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Seen")
    }
}

impl Seen {
    /// Starts a new record under `rules`.
    pub(crate) fn start(&self, rules: &Arc<Rules>) {
        *self.0.borrow_mut() = Some(SeenMelds {
            rules: Arc::clone(rules),
            melds: Vec::new(),
        });
    }

    /// Records the interpretations of `cards` as a `kind` (all of them: not truncated).
    pub(crate) fn record(&self, cards: &[Card], kind: MeldKind, interps: Vec<Interpretation>) {
        if let Some(s) = self.0.borrow_mut().as_mut() {
            s.melds.push((cards.to_vec(), kind, interps));
        }
    }

    /// Records `meld::extend_each_by_one(rules, &meld.interps, card)`.
    pub(crate) fn record_extension(
        &self,
        rules: &Arc<Rules>,
        meld: &TableMeld,
        card: Card,
        interps: Vec<Interpretation>,
    ) {
        self.record_lay_off(rules, meld, card, SeenGrow::Extension(interps));
    }

    /// Records the one way `card` joins `meld`'s one interpretation (`meld::joins`).
    pub(crate) fn record_join(
        &self,
        rules: &Arc<Rules>,
        meld: &TableMeld,
        card: Card,
        join: meld::OnlyJoin,
    ) {
        self.record_lay_off(rules, meld, card, SeenGrow::Join(join));
    }

    fn record_lay_off(&self, rules: &Arc<Rules>, meld: &TableMeld, card: Card, grow: SeenGrow) {
        let mut slot = self.1.borrow_mut();
        match slot.as_mut() {
            // The record's rules kept where they are the same (no count to change).
            Some(x) if Arc::ptr_eq(&x.rules, rules) => {
                (x.stamp, x.card, x.grow) = (meld.stamp, card, grow);
            }
            _ => {
                *slot = Some(SeenLayOff {
                    rules: Arc::clone(rules),
                    stamp: meld.stamp,
                    card,
                    grow,
                });
            }
        }
    }

    /// Takes the recorded extension if it is `meld`'s by `card` under `rules`.
    fn take_extension(
        &self,
        rules: &Arc<Rules>,
        meld: &TableMeld,
        card: Card,
    ) -> Option<Vec<Interpretation>> {
        let mut slot = self.1.borrow_mut();
        let x = slot.as_mut().filter(|x| x.is_for(rules, meld, card))?;
        match &mut x.grow {
            SeenGrow::Extension(interps) => {
                let interps = std::mem::take(interps);
                *slot = None;
                Some(interps)
            }
            SeenGrow::Join(_) => None,
        }
    }

    /// The recorded join if it is `meld`'s by `card` under `rules`.
    fn join(&self, rules: &Arc<Rules>, meld: &TableMeld, card: Card) -> Option<meld::OnlyJoin> {
        match self.1.borrow().as_ref() {
            Some(x) if x.is_for(rules, meld, card) => match x.grow {
                SeenGrow::Join(j) => Some(j),
                SeenGrow::Extension(_) => None,
            },
            _ => None,
        }
    }

    /// Takes the record, if it was made under `rules`.
    fn take(&self, rules: &Arc<Rules>) -> Option<Vec<SeenMeld>> {
        self.0
            .borrow_mut()
            .take()
            .filter(|s| Arc::ptr_eq(&s.rules, rules))
            .map(|s| s.melds)
    }
}

/// How a lay-off grows its meld's interpretations ([`Game::plan_lay_off`]).
enum Grow {
    /// They become these.
    Replace(Vec<Interpretation>),
    /// The one interpretation takes the card in its one way.
    InPlace(meld::OnlyJoin),
}

/// Why a game could not be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError(pub String);

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SetupError {}

#[cold]
fn illegal(code: Reason, message: impl Into<String>) -> Illegal {
    Illegal {
        code,
        message: message.into(),
    }
}

/// The pack for `players`, in canonical order (deck by deck, suits S H D C, ranks A…K, then jokers).
pub fn pack(rules: &Rules, players: u8) -> Vec<Card> {
    let (decks, jokers) = rules.pack(players);
    let mut v = Vec::with_capacity(rules.pack_size(players));
    for _ in 0..decks {
        for s in Suit::ALL {
            for r in Rank::ALL {
                v.push(Card::new(r, s));
            }
        }
    }
    v.extend(std::iter::repeat_n(Card::JOKER, usize::from(jokers)));
    v
}

impl Game {
    /// A new game: `dealer` deals the first hand from a pack shuffled by `seed` (or from
    /// `decks[0]` when given: an explicit order, first card on top).
    ///
    /// # Errors
    /// A player count the rules do not allow, a dealer not at the table, or an explicit pack that is
    /// not this game's pack.
    pub fn new(
        rules: Arc<Rules>,
        players: u8,
        dealer: u8,
        seed: u64,
        decks: Vec<Vec<Card>>,
    ) -> Result<Game, SetupError> {
        if players < rules.players.0 || players > rules.players.1 {
            return Err(SetupError(format!(
                "{} is played by {} to {} players, not {players}",
                rules.name, rules.players.0, rules.players.1
            )));
        }
        if dealer >= players {
            return Err(SetupError(format!(
                "dealer {dealer} is not a seat of {players} players (0 to {})",
                players - 1
            )));
        }
        let partnered =
            rules.readings.six_ten_partnerships == rd::SixTenPartnerships::Across && players == 4;
        let side_of: Vec<u8> = (0..players)
            .map(|s| if partnered { s % 2 } else { s })
            .collect();
        let sides = if partnered { 2 } else { players };
        let want = Counts::from_cards(&pack(&rules, players));
        for (i, d) in decks.iter().enumerate() {
            if Counts::from_cards(d) != want {
                return Err(SetupError(format!(
                    "deck {} is not this game's pack of {} cards for {players} players",
                    i + 1,
                    want.len()
                )));
            }
        }
        let mut g = Game {
            rules,
            players,
            side_of,
            sides,
            round: 0,
            dealer,
            totals: vec![0; usize::from(sides)],
            results: Arc::default(),
            deal: Deal::fresh(Vec::new(), Vec::new(), Arc::default(), 0),
            rng: Rng::new(seed),
            winners: Vec::new(),
            decks,
            seen: Seen::default(),
        };
        let mut events = Vec::new();
        g.start_deal(&mut events);
        Ok(g)
    }

    /// The seat to play.
    pub fn turn(&self) -> u8 {
        self.deal.turn
    }

    pub fn is_over(&self) -> bool {
        self.deal.stage == Stage::Over
    }

    // The next and previous seats without a division (a seat is below `players`): every turn
    // asks for the next.
    fn seat_after(&self, s: u8) -> u8 {
        debug_assert!(s < self.players);
        if s + 1 == self.players { 0 } else { s + 1 }
    }

    fn seat_before(&self, s: u8) -> u8 {
        debug_assert!(s < self.players);
        if s == 0 { self.players - 1 } else { s - 1 }
    }

    fn first_player(&self) -> u8 {
        match self.rules.readings.six_ten_first_player {
            rd::SixTenFirstPlayer::DealerLeft => self.seat_after(self.dealer),
            rd::SixTenFirstPlayer::DealerRight => self.seat_before(self.dealer),
        }
    }

    fn start_deal(&mut self, events: &mut Vec<Event>) {
        let mut order = if self.decks.is_empty() {
            let mut p = pack(&self.rules, self.players);
            self.rng.shuffle(&mut p);
            p
        } else {
            self.decks.remove(0)
        };
        // `order[0]` is the top: keep the stock with its top last.
        order.reverse();
        let n = usize::from(self.players);
        let mut hands = vec![Counts::new(); n];
        let first = self.first_player();
        let deal = usize::from(self.rules.rounds[self.round].deal);
        for _ in 0..deal {
            for k in 0..n {
                let seat = (usize::from(first) + k) % n;
                let card = order.pop().expect("compile checked the deal fits the pack");
                hands[seat].add(card);
            }
        }
        let progress = vec![
            Progress {
                done: false,
                filled: vec![false; self.rules.rounds[self.round].contract.len()]
            };
            n
        ];
        self.deal = Deal::fresh(order, hands, Arc::new(progress), first);
        events.push(Event::Dealt {
            round: self.round + 1,
            dealer: self.dealer,
            first,
        });
        self.turn_upcard(events);
    }

    fn turn_upcard(&mut self, events: &mut Vec<Event>) {
        let bury = self.rules.readings.upcard_wild == rd::UpcardWild::Bury;
        // At most one look per stock card: a stock of nothing but wilds lets the last one stand.
        for _ in 0..self.deal.stock.len() {
            let Some(card) = self.deal.stock.pop() else {
                return;
            };
            if bury
                && self.rules.is_wild(card)
                && self.deal.stock.iter().any(|c| !self.rules.is_wild(*c))
            {
                events.push(Event::UpcardBuried { card });
                match self.rules.readings.bury_position {
                    rd::BuryPosition::Bottom => self.deal.stock.insert(0, card),
                    rd::BuryPosition::Middle => {
                        // floor(n/2) cards stay above it, counted from the top.
                        let n = self.deal.stock.len();
                        self.deal.stock.insert(n - n / 2, card);
                    }
                    rd::BuryPosition::Reshuffle => {
                        self.deal.stock.push(card);
                        self.rng.shuffle(&mut self.deal.stock);
                    }
                }
                continue;
            }
            self.deal.discard.push(card);
            events.push(Event::Upcard { card });
            return;
        }
    }

    /// Applies `action` by `seat`.
    ///
    /// # Errors
    /// The action is not legal now; the game is unchanged.
    pub fn apply(&mut self, seat: u8, action: &Action) -> Result<Vec<Event>, Illegal> {
        let mut events = Vec::new();
        self.apply_into(seat, action, &mut events)?;
        Ok(events)
    }

    /// [`Game::apply`], appending the events to `events`; a refused action leaves both the game
    /// and `events` as they were. For callers that keep one list of a whole game's events.
    pub fn apply_into(
        &mut self,
        seat: u8,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), Illegal> {
        self.check_turn(seat)?;
        let before = events.len();
        let done = match action {
            // These check everything before they change anything: no copy needed.
            Action::TakeDiscard
            | Action::Push
            | Action::DrawStock
            | Action::LayOff { .. }
            | Action::Discard(_)
            | Action::EndTurn => self.act(seat, action, events),
            // A meld or a rescue changes only the seat's hand, the contract progress, the table
            // and two flags of the deal before its last check (a hand ends only once every check
            // has passed): a refused one has those put back. A meld only adds to the table.
            Action::Meld(_) | Action::Rescue { .. } => {
                #[cfg(debug_assertions)]
                let was = (self.deal.clone(), self.round, self.totals.clone());
                let si = usize::from(seat);
                let hand = self.deal.hands[si].clone();
                // Only the seat's own contract progress can change, and only while its contract
                // is not met: that much is kept (holding the whole list would make the meld copy
                // every seat's).
                let progress =
                    (!self.deal.progress[si].done).then(|| self.deal.progress[si].clone());
                let melds = self.deal.table.len();
                // A rescue replaces its meld as its last step, and after it only a follow-up can
                // fail (or the missing one that `meld-same-turn` requires): only then is the
                // table kept to put back.
                let must =
                    self.rules.readings.rescued_wild_fate == rd::RescuedWildFate::MeldSameTurn;
                let table = matches!(action, Action::Rescue { then, .. } if then.is_some() || must)
                    .then(|| self.deal.table.clone());
                let flags = (self.deal.contract_turn, self.deal.table_progress);
                let done = self.act(seat, action, events);
                if done.is_err() {
                    self.deal.hands[si] = hand;
                    if let Some(p) = progress
                        && self.deal.progress[si] != p
                    {
                        Arc::make_mut(&mut self.deal.progress)[si] = p;
                    }
                    match table {
                        Some(t) => self.deal.table = t,
                        None => self.deal.table.truncate(melds),
                    }
                    (self.deal.contract_turn, self.deal.table_progress) = flags;
                    #[cfg(debug_assertions)]
                    assert!(
                        was == (self.deal.clone(), self.round, self.totals.clone()),
                        "a refused {action} left the game changed"
                    );
                }
                done
            }
        };
        if let Err(e) = done {
            events.truncate(before);
            return Err(e);
        }
        #[cfg(debug_assertions)]
        self.check_invariants();
        Ok(())
    }

    fn check_turn(&self, seat: u8) -> Result<(), Illegal> {
        if self.is_over() {
            return Err(illegal(Reason::GameOver, "the game is over"));
        }
        if seat != self.deal.turn {
            return Err(illegal(
                Reason::NotYourTurn,
                format!("seat {} is to play, not seat {seat}", self.deal.turn),
            ));
        }
        Ok(())
    }

    /// Whether `apply(seat, action)` would accept the action; the game is unchanged. Cheaper than
    /// applying to a copy, which would copy the game twice.
    pub fn accepts(&self, seat: u8, action: &Action) -> bool {
        if self.check_turn(seat).is_err() {
            return false;
        }
        if let Action::LayOff {
            meld,
            cards,
            declared,
            join,
        } = action
        {
            // Checked in full without a copy (as `act` does before changing anything).
            return self.deal.stage == Stage::Play
                && self
                    .plan_lay_off(seat, *meld, cards, declared, *join, None)
                    .is_ok();
        }
        let mut scratch = self.clone();
        scratch.act(seat, action, &mut Vec::new()).is_ok()
    }

    fn act(&mut self, seat: u8, action: &Action, events: &mut Vec<Event>) -> Result<(), Illegal> {
        match action {
            Action::DrawStock => Err(illegal(
                Reason::NoPlainDraw,
                "there is no plain draw from the stock: a turn starts by taking the discard or pushing",
            )),
            Action::TakeDiscard | Action::Push if self.deal.stage != Stage::Draw => Err(illegal(
                Reason::AlreadyDrew,
                "the draw was already made this turn",
            )),
            Action::TakeDiscard => self.take_discard(seat, events),
            Action::Push => self.push(seat, events),
            _ if self.deal.stage == Stage::Draw => Err(illegal(
                Reason::MustDrawFirst,
                "a turn starts with a draw: take the discard or push",
            )),
            Action::Meld(specs) => self.meld(seat, specs, None, events),
            Action::LayOff {
                meld,
                cards,
                declared,
                join,
            } => self.lay_off(seat, *meld, cards, declared, *join, None, events),
            Action::Rescue {
                meld,
                natural,
                wild,
                then,
            } => self.rescue(seat, *meld, *natural, *wild, then.as_deref(), events),
            Action::Discard(card) => self.discard(seat, *card, events),
            Action::EndTurn => {
                if self.discardable(seat) != 0 {
                    return Err(illegal(
                        Reason::MustDiscard,
                        "a card can be discarded: the turn ends with a discard",
                    ));
                }
                if self.rules.readings.no_legal_discard
                    == rd::NoLegalDiscard::RelaxTakenCardThenTwos
                    && self.relaxed_discardable(seat) != 0
                {
                    return Err(illegal(
                        Reason::MustDiscard,
                        "with no ordinary discard, the taken card and then twos become discardable (no-legal-discard)",
                    ));
                }
                events.push(Event::TurnEnded { seat });
                self.end_turn(events);
                Ok(())
            }
        }
    }

    fn take_discard(&mut self, seat: u8, events: &mut Vec<Event>) -> Result<(), Illegal> {
        let Some(card) = self.deal.discard.pop() else {
            return Err(illegal(
                Reason::DiscardPileEmpty,
                "the discard pile is empty",
            ));
        };
        self.deal.hands[usize::from(seat)].add(card);
        self.deal.taken = Some(card);
        self.deal.stage = Stage::Play;
        events.push(Event::TookDiscard { seat, card });
        Ok(())
    }

    /// Shuffles the discard pile but its top into a new stock (house rule `reshuffle-discards`).
    fn reshuffle(&mut self, events: &mut Vec<Event>) -> bool {
        if !self.can_reshuffle() {
            return false;
        }
        let top = self.deal.discard.pop().expect("two or more");
        let mut rest = std::mem::take(&mut self.deal.discard);
        self.rng.shuffle(&mut rest);
        let n = rest.len();
        rest.extend(std::mem::take(&mut self.deal.stock));
        self.deal.stock = rest;
        self.deal.discard.push(top);
        events.push(Event::Reshuffled { cards: n });
        true
    }

    /// Whether a push is legal now, and what it does first: `Ok(Some(end))` when the hand ends at
    /// once (nobody can draw), `Ok(None)` for an ordinary push. Changes nothing.
    ///
    /// # Errors
    /// The push is refused (`push-not-allowed`).
    pub fn push_check(&self) -> Result<Option<HandEnd>, Illegal> {
        let need = usize::from(self.rules.push_stock_cards);
        let draws = usize::from(self.rules.readings.pusher_draws == rd::PusherDraws::Yes);
        let mut stock = self.deal.stock.len();
        if stock < need + draws && self.can_reshuffle() {
            stock += self.deal.discard.len() - 1;
        }
        let forbidden =
            self.rules.readings.push_with_one_stock_card == rd::PushWithOneStockCard::Forbidden;
        let no_discard = self.deal.discard.is_empty();
        if no_discard && (stock < need || (forbidden && stock < need + draws)) {
            // Neither a discard to take nor enough stock to push: the hand ends (unsourced: this
            // arises only after a turn ended without a discard).
            return Ok(Some(HandEnd::StockOut));
        }
        if forbidden && stock < need + draws {
            return Err(illegal(
                Reason::PushNotAllowed,
                format!(
                    "the stock holds {stock} card(s): the player must take the discard (push-with-one-stock-card=forbidden)"
                ),
            ));
        }
        if stock < need {
            if stock == 0 {
                // The player wants to draw from an empty stock: the hand ends.
                return Ok(Some(HandEnd::StockOut));
            }
            return Err(illegal(
                Reason::PushNotAllowed,
                format!("a push needs {need} stock card(s); the stock holds {stock}"),
            ));
        }
        Ok(None)
    }

    fn can_reshuffle(&self) -> bool {
        self.rules.when_empty == WhenEmpty::ReshuffleDiscards && self.deal.discard.len() >= 2
    }

    fn push(&mut self, seat: u8, events: &mut Vec<Event>) -> Result<(), Illegal> {
        if let Some(end) = self.push_check()? {
            self.end_hand(end, events);
            return Ok(());
        }
        let need = usize::from(self.rules.push_stock_cards);
        let draws = self.rules.readings.pusher_draws == rd::PusherDraws::Yes;
        if self.deal.stock.len() < need + usize::from(draws) {
            self.reshuffle(events);
        }
        let to = match self.rules.push_to {
            Direction::Left => self.seat_after(seat),
            Direction::Right => self.seat_before(seat),
        };
        // With an empty discard pile (after a turn ended without a discard) only stock cards go.
        let top = self.deal.discard.pop();
        // The last push's space, reused.
        let mut pushed = self
            .deal
            .last_push
            .take()
            .map_or_else(|| Vec::with_capacity(need), |(.., v, _)| v);
        pushed.clear();
        for _ in 0..need {
            pushed.push(self.deal.stock.pop().expect("checked above"));
        }
        let face_up = self.rules.readings.push_card_visibility == rd::PushCardVisibility::FaceUp;
        let hand = &mut self.deal.hands[usize::from(to)];
        if let Some(t) = top {
            hand.add(t);
        }
        for &c in &pushed {
            hand.add(c);
        }
        events.push(Event::Pushed {
            seat,
            to,
            discard: top,
            stock: CardList::from_slice(&pushed),
            face_up,
        });
        self.deal.last_push = Some((seat, to, pushed, face_up));
        self.deal.stage = Stage::Play;
        if draws {
            if self.deal.stock.is_empty() && !self.reshuffle(events) {
                self.end_hand(HandEnd::StockOut, events);
                return Ok(());
            }
            let card = self.deal.stock.pop().expect("checked above");
            self.deal.hands[usize::from(seat)].add(card);
            events.push(Event::Drew { seat, card });
        }
        Ok(())
    }

    /// Every interpretation of a meld spec (its declarations included), or why it is no meld.
    /// The interpretations of a meld spec: `seen`'s, filtered by the spec's declarations, where
    /// it holds these cards as this kind and some remain; otherwise the oracle's.
    fn spec_interps(
        &self,
        spec: &MeldSpec,
        seen: Option<&mut [SeenMeld]>,
    ) -> Result<Vec<Interpretation>, Illegal> {
        let known = seen.and_then(|melds| {
            melds
                .iter_mut()
                .find(|(cards, kind, _)| *cards == spec.cards && Some(*kind) == spec.kind)
        });
        if let Some((.., all)) = known {
            // Taken, not copied: a second spec of the same cards (two decks) finds it empty and
            // asks the oracle.
            let mut v = std::mem::take(all);
            v.retain(|i| meld::declarations_hold(i, &spec.declared));
            if !v.is_empty() {
                return Ok(v);
            }
        }
        let v = meld::interpret(&self.rules, &spec.query());
        if !v.is_valid() {
            return Err(illegal(
                Reason::InvalidMeld,
                format!(
                    "{} is not a meld: {}",
                    crate::base::card::pretty_cards(&spec.cards),
                    v.reason
                ),
            ));
        }
        Ok(v.interpretations)
    }

    fn declaration_policy(
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

    /// Whether emptying the hand onto the table (by a meld or lay-off) may end the hand.
    fn may_go_out_on_the_table(&self) -> Result<(), Illegal> {
        if self.rules.readings.going_out == rd::GoingOut::DiscardOnly {
            return Err(illegal(
                Reason::GoingOutByDiscardOnly,
                "keep a card to discard: a player goes out only by discarding (going-out=discard-only)",
            ));
        }
        Ok(())
    }

    fn take_cards(&mut self, seat: u8, cards: &[Card]) -> Result<(), Illegal> {
        self.check_holds(seat, cards)?;
        self.take_held(seat, cards);
        Ok(())
    }

    /// [`Game::take_cards`] of cards `check_holds` has found in the hand.
    fn take_held(&mut self, seat: u8, cards: &[Card]) {
        let hand = &mut self.deal.hands[usize::from(seat)];
        // One card (every lay-off of the built-in players) without counting the cards first.
        let removed = if let [card] = cards {
            hand.remove(*card)
        } else {
            hand.remove_all(&Counts::from_cards(cards))
        };
        debug_assert!(removed, "checked before");
    }

    /// `seat` holds `cards` (with repeats).
    fn check_holds(&self, seat: u8, cards: &[Card]) -> Result<(), Illegal> {
        if let [card] = cards
            && self.deal.hands[usize::from(seat)].count(*card) > 0
        {
            return Ok(());
        }
        let need = Counts::from_cards(cards);
        if !self.deal.hands[usize::from(seat)].contains(&need) {
            let hand = &self.deal.hands[usize::from(seat)];
            let missing = need
                .iter()
                .find(|(c, k)| hand.count(*c) < *k)
                .map(|(c, _)| c);
            return Err(illegal(
                Reason::CardNotInHand,
                format!(
                    "seat {seat} does not hold {}",
                    missing.map_or("those cards".into(), |c| c.pretty())
                ),
            ));
        }
        Ok(())
    }

    /// May `seat` put cards on the table now (beyond the contract laydown itself)?
    fn may_play_freely(&self, seat: u8, what: &str) -> Result<(), Illegal> {
        if !self.deal.progress[usize::from(seat)].done {
            return Err(illegal(
                Reason::ContractFirst,
                format!("seat {seat} has not met the contract: no {what} before it"),
            ));
        }
        if self.deal.contract_turn
            && self.rules.readings.contract_turn_extras == rd::ContractTurnExtras::NextTurn
        {
            return Err(illegal(
                Reason::NextTurnOnly,
                format!(
                    "the contract went down this turn: {what} waits for the next turn (contract-turn-extras=next-turn)"
                ),
            ));
        }
        Ok(())
    }

    fn check_same_rank(&self, seat: u8, new: &[Vec<Interpretation>]) -> Result<(), Illegal> {
        if self.rules.readings.same_rank_sets != rd::SameRankSets::Forbidden {
            return Ok(());
        }
        let mut seen = [false; 14];
        let own = self
            .deal
            .table
            .iter()
            .filter(|m| m.owner == seat)
            .map(|m| &m.interps);
        for interps in own.chain(new.iter()) {
            if let Some(i) = interps.first().filter(|i| i.kind == MeldKind::Set) {
                let r = usize::from(i.rank.expect("sets have a rank").number());
                if seen[r] {
                    return Err(illegal(
                        Reason::SameRankSet,
                        format!(
                            "seat {seat} already has a set of {}s (same-rank-sets=forbidden)",
                            Rank::from_number(r as u8).map_or("?", Rank::name)
                        ),
                    ));
                }
                seen[r] = true;
            }
        }
        Ok(())
    }

    fn meld(
        &mut self,
        seat: u8,
        specs: &[MeldSpec],
        must_use: Option<Card>,
        events: &mut Vec<Event>,
    ) -> Result<(), Illegal> {
        if specs.is_empty() {
            return Err(illegal(Reason::InvalidMeld, "no meld given"));
        }
        let all: Vec<Card> = specs.iter().flat_map(|s| s.cards.iter().copied()).collect();
        if let Some(w) = must_use
            && !all.contains(&w)
        {
            return Err(illegal(
                Reason::RescuedWildNotMelded,
                format!("the rescued {} must be in the meld", w.pretty()),
            ));
        }
        let mut seen = self.seen.take(&self.rules);
        self.take_cards(seat, &all)?;
        // Each spec's interpretations, which its declarations allow or refuse
        // (`declaration_policy` keeps all or none); a contract met in one laydown is checked
        // against them.
        let si = usize::from(seat);
        let mut interps = Vec::with_capacity(specs.len());
        for s in specs {
            let all = self.spec_interps(s, seen.as_deref_mut())?;
            #[cfg(debug_assertions)]
            let was = all.clone();
            let kept = self.declaration_policy(&s.cards, s.kind, &s.declared, all)?;
            #[cfg(debug_assertions)]
            assert_eq!(
                kept, was,
                "the declaration policy keeps every interpretation"
            );
            interps.push(kept);
        }
        let rules = Arc::clone(&self.rules);
        let contract = &rules.rounds[self.round].contract;
        let mut contract_melds = vec![false; specs.len()];
        if !self.deal.progress[si].done {
            match self.rules.readings.contract_in_one_turn {
                rd::ContractInOneTurn::Required => {
                    let cards: Vec<&[Card]> = specs.iter().map(|s| &s.cards[..]).collect();
                    let c = contract::check_interpreted(&rules, contract, &cards, &interps);
                    if !c.satisfied {
                        let code = if c.extras_wait {
                            Reason::NextTurnOnly
                        } else {
                            Reason::ContractNotMet
                        };
                        return Err(illegal(code, c.reason));
                    }
                    for (i, a) in c.assignment.iter().enumerate() {
                        contract_melds[i] = a.is_some();
                    }
                    // Met in one laydown: every part is filled.
                    let p = &mut Arc::make_mut(&mut self.deal.progress)[si];
                    p.done = true;
                    p.filled.iter_mut().for_each(|f| *f = true);
                }
                rd::ContractInOneTurn::Piecemeal => {
                    for (i, s) in specs.iter().enumerate() {
                        let slot = (0..contract.len()).find(|&j| {
                            !self.deal.progress[si].filled[j]
                                && contract::size_ok(&self.rules, contract[j], s.cards.len())
                                && interps[i].iter().any(|x| x.kind == contract[j].kind)
                        });
                        if let Some(j) = slot {
                            Arc::make_mut(&mut self.deal.progress)[si].filled[j] = true;
                            interps[i].retain(|x| x.kind == contract[j].kind);
                            contract_melds[i] = true;
                        }
                    }
                    let p = &mut Arc::make_mut(&mut self.deal.progress)[si];
                    p.done = p.filled.iter().all(|f| *f);
                    // Melds that fill no piece are extras: only once the last piece is down, and
                    // only where the rules allow extras on the contract turn.
                    if let Some(i) = contract_melds.iter().position(|c| !c) {
                        if !self.deal.progress[si].done {
                            return Err(illegal(
                                Reason::ContractNotMet,
                                format!(
                                    "{} fills no part of the contract still open",
                                    crate::base::card::pretty_cards(&specs[i].cards)
                                ),
                            ));
                        }
                        if self.rules.readings.contract_turn_extras
                            == rd::ContractTurnExtras::NextTurn
                        {
                            return Err(illegal(
                                Reason::NextTurnOnly,
                                "melds beyond the contract wait for the next turn (contract-turn-extras=next-turn)",
                            ));
                        }
                    }
                }
            }
            self.deal.contract_turn = true;
        } else {
            self.may_play_freely(seat, "new meld")?;
        }
        self.check_same_rank(seat, &interps)?;
        for ((s, i), c) in specs.iter().zip(interps).zip(contract_melds) {
            // Room for a few lay-offs, which would otherwise each grow the list.
            let mut cards = Vec::with_capacity(s.cards.len() + LAY_OFF_ROOM);
            cards.extend_from_slice(&s.cards);
            cards.sort();
            events.push(Event::Melded {
                seat,
                meld: self.deal.table.len(),
                cards: CardList::from_slice(&cards),
                contract: c,
            });
            self.deal
                .table
                .push(Arc::new(TableMeld::new(seat, cards, i)));
        }
        self.deal.table_progress = true;
        self.after_table_play(seat, events)
    }

    /// Going out by melding: allowed or not, and the hand ends.
    fn after_table_play(&mut self, seat: u8, events: &mut Vec<Event>) -> Result<(), Illegal> {
        if self.deal.hands[usize::from(seat)].is_empty() {
            self.may_go_out_on_the_table()?;
            events.push(Event::WentOut { seat });
            self.end_hand(HandEnd::WentOut(seat), events);
        }
        Ok(())
    }

    /// Checks a lay-off in full without changing anything, and returns how the meld's
    /// interpretations grow.
    #[allow(clippy::too_many_arguments)]
    fn plan_lay_off(
        &self,
        seat: u8,
        target: usize,
        cards: &[Card],
        declared: &[(Card, Target)],
        join: Option<usize>,
        must_use: Option<Card>,
    ) -> Result<Grow, Illegal> {
        self.may_play_freely(seat, "lay-off")?;
        if let Some(w) = must_use
            && !cards.contains(&w)
        {
            return Err(illegal(
                Reason::RescuedWildNotMelded,
                format!("the rescued {} must be laid off", w.pretty()),
            ));
        }
        if target >= self.deal.table.len() {
            return Err(illegal(
                Reason::NoSuchMeld,
                format!("there is no meld {target} on the table"),
            ));
        }
        if cards.is_empty() {
            return Err(illegal(Reason::InvalidLayOff, "no card to lay off"));
        }
        self.check_holds(seat, cards)?;
        let old = &self.deal.table[target];
        let other = match join {
            None => None,
            Some(j) => {
                if self.rules.readings.run_join_split != rd::RunJoinSplit::JoinAllowed {
                    return Err(illegal(
                        Reason::JoinNotAllowed,
                        "runs are only extended, never joined (run-join-split=never)",
                    ));
                }
                if j >= self.deal.table.len() || j == target {
                    return Err(illegal(
                        Reason::NoSuchMeld,
                        format!("there is no other meld {j} to join"),
                    ));
                }
                Some(&self.deal.table[j])
            }
        };
        // The meld's cards afterwards, in the order searched: the old meld's, the new ones, the
        // joined meld's.
        let combined = || {
            let joined = other.map_or(0, |o| o.cards.len());
            let mut v = Vec::with_capacity(old.cards.len() + cards.len() + joined);
            v.extend_from_slice(&old.cards);
            v.extend_from_slice(cards);
            if let Some(o) = other {
                v.extend_from_slice(&o.cards);
            }
            v
        };
        // A natural card onto a meld read one way, joining it one way (most lay-offs): the meld
        // grows in place. With one interpretation kept and no wild laid off or declared, the
        // declaration policy has nothing to refuse under any reading.
        if let ([card], None, [], [one]) = (cards, other, declared, &old.interps[..])
            && !self.rules.is_wild(*card)
            && let Some(j) = (self.seen.join(&self.rules, old, *card))
                .or_else(|| meld::only_join(&self.rules, one, *card))
        {
            if self.deal.hands[usize::from(seat)].len() == 1 {
                self.may_go_out_on_the_table()?;
            }
            debug_assert!({
                let mut grown = one.clone();
                j.make(&mut grown);
                let policy = self.declaration_policy(cards, Some(one.kind), declared, vec![grown]);
                policy.is_ok()
            });
            return Ok(Grow::InPlace(j));
        }
        // One card onto one meld: extend each remaining interpretation directly (the common
        // case); otherwise search the combined cards and keep what extends every old meld.
        let quick: Option<Vec<Interpretation>> = match (cards, other) {
            ([card], None) => self
                .seen
                .take_extension(&self.rules, old, *card)
                .or_else(|| meld::extend_each_by_one(&self.rules, &old.interps, *card)),
            _ => None,
        };
        let keep: Vec<Interpretation> = match quick {
            Some(mut v) => {
                v.retain(|n| meld::declarations_hold(n, declared));
                v
            }
            None => {
                let bases: Vec<&[Interpretation]> = std::iter::once(&old.interps[..])
                    .chain(other.map(|o| &o.interps[..]))
                    .collect();
                meld::interpret(
                    &self.rules,
                    &Query {
                        cards: combined(),
                        kind: old.interps.first().map(|i| i.kind),
                        declared: declared.to_vec(),
                    },
                )
                .interpretations
                .into_iter()
                .filter(|n| bases.iter().all(|b| b.iter().any(|o| meld::extends(o, n))))
                .collect()
            }
        };
        if keep.is_empty() {
            return Err(illegal(
                Reason::InvalidLayOff,
                format!(
                    "{} does not extend meld {target} ({})",
                    crate::base::card::pretty_cards(cards),
                    describe(old)
                ),
            ));
        }
        if other.is_some_and(|o| o.interps.iter().all(|i| i.kind != MeldKind::Run)) {
            return Err(illegal(Reason::InvalidLayOff, "only runs are joined"));
        }
        let kind = keep.first().map(|i| i.kind);
        let keep = self.declaration_policy(cards, kind, declared, keep)?;
        if self.deal.hands[usize::from(seat)].len() == cards.len() {
            self.may_go_out_on_the_table()?;
        }
        Ok(Grow::Replace(keep))
    }

    /// A lay-off: checked in full first, so a refused one changes nothing (no copy needed).
    #[allow(clippy::too_many_arguments)]
    fn lay_off(
        &mut self,
        seat: u8,
        target: usize,
        cards: &[Card],
        declared: &[(Card, Target)],
        join: Option<usize>,
        must_use: Option<Card>,
        events: &mut Vec<Event>,
    ) -> Result<(), Illegal> {
        // The plan checked that the seat holds the cards.
        let keep = self.plan_lay_off(seat, target, cards, declared, join, must_use)?;
        self.take_held(seat, cards);
        // The meld changes in place (a copy only where another game shares it): its cards are
        // the old meld's, the new ones and the joined meld's, sorted.
        let joined = join.map_or_else(Vec::new, |j| self.deal.table[j].cards.clone());
        let made = Arc::make_mut(&mut self.deal.table[target]);
        if let ([card], None) = (cards, join) {
            // One card (most lay-offs) goes where it sorts.
            let at = made.cards.partition_point(|c| c <= card);
            made.cards.insert(at, *card);
        } else {
            made.cards.extend_from_slice(cards);
            made.cards.extend_from_slice(&joined);
            made.cards.sort_unstable();
        }
        match keep {
            Grow::Replace(keep) => made.interps = keep,
            Grow::InPlace(j) => j.make(&mut made.interps[0]),
        }
        made.restamp();
        // After a join the other run leaves the table: melds numbered above it move down by one,
        // and the event names the joined run by its number after the move.
        let mut at = target;
        if let Some(j) = join {
            self.deal.table.remove(j);
            if j < target {
                at -= 1;
            }
        }
        events.push(Event::LaidOff {
            seat,
            meld: at,
            cards: CardList::from_slice(cards),
            joined: join,
        });
        self.deal.table_progress = true;
        self.after_table_play(seat, events)
    }

    fn rescue(
        &mut self,
        seat: u8,
        target: usize,
        natural: Card,
        wild: Card,
        then: Option<&Action>,
        events: &mut Vec<Event>,
    ) -> Result<(), Illegal> {
        if self.rules.readings.rescue_timing == rd::RescueTiming::AnyTime {
            // No contract needed, but a contract laid this turn still makes a rescue wait.
            if self.deal.contract_turn
                && self.rules.readings.contract_turn_extras == rd::ContractTurnExtras::NextTurn
            {
                return Err(illegal(
                    Reason::NextTurnOnly,
                    "the contract went down this turn: a rescue waits for the next turn (contract-turn-extras=next-turn)",
                ));
            }
        } else {
            self.may_play_freely(seat, "rescue").map_err(|e| Illegal {
                code: if e.code == Reason::ContractFirst {
                    Reason::RescueNotAllowed
                } else {
                    e.code
                },
                message: format!("{} (rescue-timing=after-own-contract)", e.message),
            })?;
        }
        if target >= self.deal.table.len() {
            return Err(illegal(
                Reason::NoSuchMeld,
                format!("there is no meld {target} on the table"),
            ));
        }
        if !self.rules.is_wild(wild) {
            return Err(illegal(
                Reason::RescueNoMatch,
                format!("{} is not a wild card", wild.pretty()),
            ));
        }
        self.take_cards(seat, &[natural])?;
        let position = self.rules.readings.frozen_two == rd::FrozenTwo::Position;
        // The interpretations in which `wild` stands for `natural`, with the natural taking its
        // place: first only whether there are any (the meld stays as it is where there are
        // none), then made in the meld's own space.
        let old = &self.deal.table[target];
        let Some(k) = old.cards.iter().position(|c| *c == wild) else {
            return Err(illegal(
                Reason::RescueNoMatch,
                format!("meld {target} holds no {}", wild.pretty()),
            ));
        };
        let frozen = position && wild.is_two() && natural.rank() == Some(Rank::Two);
        let any = !frozen
            && (old.interps.iter()).any(|o| meld::rescues_in(&self.rules, o, wild, natural));
        if !any {
            // Whether some reading has the wild standing for the natural (the roles
            // `rescues_in` looks at): which refusal it is.
            let matched = (old.interps.iter()).any(|o| {
                (o.roles.iter())
                    .any(|r| r.card == wild && !r.natural && r.stands_for_matches(natural))
            });
            return Err(if frozen && matched {
                illegal(
                    Reason::RescueFrozen,
                    format!(
                        "the {} stands in the place of a 2 and is frozen (frozen-two=position)",
                        wild.pretty()
                    ),
                )
            } else if matched {
                illegal(
                    Reason::RescueNoMatch,
                    format!(
                        "{} cannot take the {}'s place in meld {target}",
                        natural.pretty(),
                        wild.pretty()
                    ),
                )
            } else {
                illegal(
                    Reason::RescueNoMatch,
                    format!(
                        "no {} in meld {target} stands for {}",
                        wild.pretty(),
                        natural.pretty()
                    ),
                )
            });
        }
        let made = Arc::make_mut(&mut self.deal.table[target]);
        let mut keep = Vec::with_capacity(made.interps.len());
        for o in std::mem::take(&mut made.interps) {
            meld::rescue_into(&self.rules, o, wild, natural, &mut keep);
        }
        keep.sort();
        keep.dedup();
        made.interps = keep;
        made.cards[k] = natural;
        made.cards.sort();
        made.restamp();
        self.deal.hands[usize::from(seat)].add(wild);
        events.push(Event::Rescued {
            seat,
            meld: target,
            natural,
            wild,
        });
        self.deal.table_progress = true;
        let must = self.rules.readings.rescued_wild_fate == rd::RescuedWildFate::MeldSameTurn;
        match then {
            None if must => Err(illegal(
                Reason::RescuedWildNotMelded,
                format!(
                    "the rescued {} must go into a meld or lay-off in the same action (rescued-wild-fate=meld-same-turn)",
                    wild.pretty()
                ),
            )),
            None => Ok(()),
            Some(Action::Meld(specs)) => self.meld(seat, specs, must.then_some(wild), events),
            Some(Action::LayOff {
                meld,
                cards,
                declared,
                join,
            }) => self.lay_off(
                seat,
                *meld,
                cards,
                declared,
                *join,
                must.then_some(wild),
                events,
            ),
            Some(_) => Err(illegal(
                Reason::RescuedWildNotMelded,
                "after a rescue only a meld or a lay-off may follow",
            )),
        }
    }

    /// The cards `seat` may discard now, after the `no-legal-discard` relaxation if it applies.
    pub fn discard_options(&self, seat: u8) -> Vec<Card> {
        crate::base::card::cards_in(self.discard_mask(seat)).collect()
    }

    /// [`Game::discard_options`] as a mask by [`Card::index`].
    pub fn discard_mask(&self, seat: u8) -> u64 {
        let allowed = self.discardable(seat);
        if allowed == 0
            && self.rules.readings.no_legal_discard == rd::NoLegalDiscard::RelaxTakenCardThenTwos
        {
            return self.relaxed_discardable(seat);
        }
        allowed
    }

    /// Cards `seat` may discard under the restrictions, before any relaxation (a mask).
    fn discardable(&self, seat: u8) -> u64 {
        self.discardable_with(seat, false, false)
    }

    fn relaxed_discardable(&self, seat: u8) -> u64 {
        let taken = self.discardable_with(seat, true, false);
        if taken != 0 {
            return taken;
        }
        self.discardable_with(seat, true, true)
    }

    /// The held cards that [`Game::discard_allowed`] allows, as a mask by [`Card::index`],
    /// worked out on masks.
    fn discardable_with(&self, seat: u8, allow_taken: bool, allow_twos: bool) -> u64 {
        let hand = &self.deal.hands[usize::from(seat)];
        // The 2 of each suit.
        let twos = Target::Rank(Rank::Two).mask();
        let mut allowed = hand.present();
        if !self.rules.discard_wilds {
            let wild = self.rules.wild_mask();
            allowed &= !if allow_twos { wild & !twos } else { wild };
        }
        if self.rules.readings.discard_restrictions == rd::DiscardRestrictions::NoTwosNoTakenCard {
            if !allow_twos {
                allowed &= !twos;
            }
            // The taken copy may not go back; another copy of the same card may.
            if let Some(taken) = self.deal.taken
                && !allow_taken
                && hand.count(taken) == 1
            {
                allowed &= !(1 << taken.index());
            }
        }
        allowed
    }

    /// Whether a card held `k` times may be discarded under the restrictions (relaxed as asked).
    fn discard_allowed(&self, c: Card, k: u8, allow_taken: bool, allow_twos: bool) -> bool {
        if !self.rules.discard_wilds && self.rules.is_wild(c) && !(allow_twos && c.is_two()) {
            return false;
        }
        if self.rules.readings.discard_restrictions == rd::DiscardRestrictions::NoTwosNoTakenCard {
            if c.is_two() && !allow_twos {
                return false;
            }
            // The taken copy may not go back; another copy of the same card may.
            if self.deal.taken == Some(c) && k == 1 && !allow_taken {
                return false;
            }
        }
        true
    }

    /// Whether `card`, which `seat` holds, is among [`Game::discard_options`], without listing
    /// them all when the card is allowed outright.
    fn may_discard(&self, seat: u8, card: Card) -> bool {
        let k = self.deal.hands[usize::from(seat)].count(card);
        self.discard_allowed(card, k, false, false)
            || self.discard_mask(seat) & 1 << card.index() != 0
    }

    fn discard(&mut self, seat: u8, card: Card, events: &mut Vec<Event>) -> Result<(), Illegal> {
        let si = usize::from(seat);
        if self.deal.hands[si].count(card) == 0 {
            return Err(illegal(
                Reason::CardNotInHand,
                format!("seat {seat} does not hold {}", card.pretty()),
            ));
        }
        if !self.may_discard(seat, card) {
            return Err(illegal(
                Reason::DiscardNotAllowed,
                discard_reason(&self.rules, card, self.deal.taken),
            ));
        }
        self.deal.hands[si].remove(card);
        self.deal.discard.push(card);
        events.push(Event::Discarded { seat, card });
        if self.deal.hands[si].is_empty() {
            events.push(Event::WentOut { seat });
            self.end_hand(HandEnd::WentOut(seat), events);
            return Ok(());
        }
        self.end_turn(events);
        Ok(())
    }

    fn end_turn(&mut self, events: &mut Vec<Event>) {
        if self.deal.table_progress {
            self.deal.stall = 0;
        } else {
            self.deal.stall += 1;
        }
        if self.deal.stall >= self.rules.stall_limit {
            self.end_hand(HandEnd::Stalled, events);
            return;
        }
        self.deal.turn = self.seat_after(self.deal.turn);
        self.deal.stage = Stage::Draw;
        self.deal.taken = None;
        self.deal.contract_turn = false;
        self.deal.table_progress = false;
    }

    fn end_hand(&mut self, end: HandEnd, events: &mut Vec<Event>) {
        let mut points = vec![0u32; usize::from(self.sides)];
        let score_all = |g: &Game, points: &mut Vec<u32>, except_side: Option<u8>| {
            for seat in 0..g.players {
                let side = g.side_of[usize::from(seat)];
                if Some(side) == except_side {
                    continue;
                }
                let p: u32 = g.deal.hands[usize::from(seat)]
                    .iter()
                    .map(|(c, k)| g.rules.points(c) * u32::from(k))
                    .sum();
                points[usize::from(side)] += p;
            }
        };
        let reason = match &end {
            HandEnd::WentOut(s) => {
                score_all(self, &mut points, Some(self.side_of[usize::from(*s)]));
                format!("seat {s} went out")
            }
            HandEnd::StockOut | HandEnd::Stalled => {
                if self.rules.readings.stock_out == rd::StockOut::HandEndsAllScore {
                    score_all(self, &mut points, None);
                }
                if end == HandEnd::StockOut {
                    "the stock ran out".to_string()
                } else {
                    format!(
                        "{} turns in a row without a card reaching the table",
                        self.rules.stall_limit
                    )
                }
            }
        };
        for (t, p) in self.totals.iter_mut().zip(&points) {
            *t += i64::from(*p);
        }
        events.push(Event::HandEnded {
            reason,
            points: points.clone(),
            totals: self.totals.clone(),
        });
        Arc::make_mut(&mut self.results).push(HandResult { end, points });
        if self.round + 1 < self.rules.rounds.len() {
            self.round += 1;
            self.dealer = self.seat_after(self.dealer);
            self.start_deal(events);
        } else {
            self.winners = self.decide_winners();
            self.deal.stage = Stage::Over;
            events.push(Event::GameEnded {
                winners: self.winners.clone(),
                totals: self.totals.clone(),
            });
        }
    }

    fn decide_winners(&self) -> Vec<u8> {
        let low = self.totals.iter().copied().min().unwrap_or(0);
        let mut tied: Vec<u8> = (0..self.sides)
            .filter(|&s| self.totals[usize::from(s)] == low)
            .collect();
        if tied.len() > 1
            && self.rules.readings.ties == rd::Ties::LastHandDecides
            && let Some(last) = self.results.last()
        {
            let best = tied
                .iter()
                .map(|&s| last.points[usize::from(s)])
                .min()
                .unwrap_or(0);
            tied.retain(|&s| last.points[usize::from(s)] == best);
        }
        tied
    }

    /// Every card is in exactly one place; panics otherwise (debug builds and tests).
    pub fn check_invariants(&self) {
        let mut all = Counts::from_cards(&self.deal.stock);
        all.add_all(&Counts::from_cards(&self.deal.discard));
        for h in &self.deal.hands {
            all.add_all(h);
        }
        for m in &self.deal.table {
            all.add_all(&Counts::from_cards(&m.cards));
            assert!(
                !m.interps.is_empty(),
                "a table meld keeps an interpretation"
            );
            // A lay-off of one card inserts it where it sorts, counting on this.
            assert!(
                m.cards.is_sorted(),
                "a table meld's cards are in canonical order: {m:?}"
            );
        }
        let (decks, jokers) = self.rules.pack(self.players);
        let conserved = Card::all().all(|c| {
            let want = if c.is_joker() { jokers } else { decks };
            all.count(c) == want
        });
        assert!(conserved, "cards are conserved: {all:?}");
        let sum: Vec<i64> = (0..usize::from(self.sides))
            .map(|s| self.results.iter().map(|r| i64::from(r.points[s])).sum())
            .collect();
        assert_eq!(sum, self.totals, "totals are the sum of the hands' points");
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

fn describe(m: &TableMeld) -> String {
    m.interps.first().map_or_else(
        || crate::base::card::pretty_cards(&m.cards),
        |i| i.describe(),
    )
}

fn discard_reason(rules: &Rules, card: Card, taken: Option<Card>) -> String {
    if !rules.discard_wilds && rules.is_wild(card) {
        return format!(
            "{} is wild and wilds may not be discarded (discard.wilds=forbidden)",
            card.pretty()
        );
    }
    if card.is_two() {
        return format!(
            "{} is a two, and twos are never discarded (discard-restrictions)",
            card.pretty()
        );
    }
    if taken == Some(card) {
        return format!(
            "{} was taken from the discard pile this turn (discard-restrictions)",
            card.pretty()
        );
    }
    format!("{} may not be discarded now", card.pretty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::card::{Suit, parse_cards};
    use crate::rules::disputes::DisputeId;

    /// The discardable cards worked out on masks are the held cards `discard_allowed` allows one
    /// by one, under every combination of wild discards, restrictions, wild twos, relaxations
    /// and taken card, on random hands holding some cards twice.
    #[test]
    fn discardable_cards_are_the_held_cards_discard_allowed_allows() {
        let mut rng = crate::base::rng::Rng::new(5);
        let push = crate::rules::load("push", &[]).unwrap().rules;
        let games: Vec<Game> = (0..8)
            .map(|v| {
                let mut rules = push.clone();
                rules.discard_wilds = v % 2 == 0;
                rules.twos_wild = v / 2 % 2 == 0;
                rules.readings.discard_restrictions = if v / 4 == 0 {
                    rd::DiscardRestrictions::None
                } else {
                    rd::DiscardRestrictions::NoTwosNoTakenCard
                };
                Game::new(Arc::new(rules), 4, 0, 1, Vec::new()).unwrap()
            })
            .collect();
        for round in 0..4000 {
            let mut g = games[round % games.len()].clone();
            let mut hand = Counts::default();
            for _ in 0..rng.below(14) {
                let c =
                    Card::from_index(rng.below(crate::base::card::KINDS as u64) as usize).unwrap();
                hand.add(c);
            }
            let held: Vec<Card> = hand.iter().map(|(c, _)| c).collect();
            g.deal.taken = match rng.below(3) {
                0 => None,
                _ if held.is_empty() => None,
                _ => Some(held[rng.below(held.len() as u64) as usize]),
            };
            g.deal.hands[1] = hand;
            for (allow_taken, allow_twos) in [(false, false), (true, false), (true, true)] {
                let one_by_one = g.deal.hands[1]
                    .iter()
                    .filter(|&(c, k)| g.discard_allowed(c, k, allow_taken, allow_twos))
                    .fold(0u64, |m, (c, _)| m | 1 << c.index());
                assert_eq!(
                    g.discardable_with(1, allow_taken, allow_twos),
                    one_by_one,
                    "round {round}: {:?}, taken {:?}, {allow_taken} {allow_twos}",
                    g.deal.hands[1],
                    g.deal.taken
                );
            }
        }
    }

    /// A meld spec's interpretations come from `seen` where it holds the spec's cards as the
    /// spec's kind, filtered by the declarations (a record that says less than the oracle would
    /// shows that it was read), and from the oracle otherwise: other cards, another kind, rules
    /// other than the record's, or declarations that leave nothing.
    #[test]
    fn a_seen_meld_is_read_back_filtered_by_the_declarations() {
        let exact = [(DisputeId::WildInSetRepresents, "exact-card".into())];
        let rules = Arc::new(crate::rules::load("push", &exact).unwrap().rules);
        let g = Game::new(Arc::clone(&rules), 4, 0, 1, Vec::new()).unwrap();
        let cards = parse_cards("7S 7H JK").unwrap();
        let spec = |declared: &str| MeldSpec {
            cards: cards.clone(),
            kind: Some(MeldKind::Set),
            declared: match declared {
                "" => Vec::new(),
                d => vec![(Card::JOKER, d.parse().unwrap())],
            },
        };
        let oracle = meld::interpret(&rules, &spec("").query()).interpretations;
        assert_eq!(oracle.len(), 2, "the joker stands for 7♦ or 7♣");
        let (for_d, for_c) = (&oracle[..1], &oracle[1..]);
        let record = |rules: &Arc<Rules>, kind: MeldKind, interps: &[Interpretation]| {
            g.seen.start(rules);
            g.seen.record(&cards, kind, interps.to_vec());
            g.seen.take(&g.rules)
        };
        // Read, and filtered; taken by the spec that reads it, so that a second spec of the same
        // cards (two decks) asks the oracle.
        let mut seen = record(&rules, MeldKind::Set, for_d);
        assert_eq!(
            g.spec_interps(&spec(""), seen.as_deref_mut()).unwrap(),
            for_d
        );
        assert_eq!(
            g.spec_interps(&spec(""), seen.as_deref_mut()).unwrap(),
            oracle
        );
        let mut seen = record(&rules, MeldKind::Set, &oracle);
        assert_eq!(
            g.spec_interps(&spec("7C"), seen.as_deref_mut()).unwrap(),
            for_c
        );
        // Not read: declarations that leave none of it, another kind, other cards, other rules.
        let mut seen = record(&rules, MeldKind::Set, for_d);
        assert_eq!(
            g.spec_interps(&spec("7C"), seen.as_deref_mut()).unwrap(),
            for_c
        );
        let mut seen = record(&rules, MeldKind::Run, for_d);
        assert_eq!(
            g.spec_interps(&spec(""), seen.as_deref_mut()).unwrap(),
            oracle
        );
        let other = MeldSpec {
            cards: parse_cards("7H 7S JK").unwrap(),
            ..spec("")
        };
        let mut seen = record(&rules, MeldKind::Set, for_d);
        assert_eq!(g.spec_interps(&other, seen.as_deref_mut()).unwrap(), oracle);
        let elsewhere = Arc::new((*rules).clone());
        assert!(record(&elsewhere, MeldKind::Set, for_d).is_none());
        // Taken once; a copy of the game starts with none.
        g.seen.start(&rules);
        assert!(g.clone().seen.take(&rules).is_none());
        assert!(g.seen.take(&rules).is_some());
        assert!(g.seen.take(&rules).is_none());
    }

    /// Push's rules, a game under them, and a table meld 5H 6H 7H (read one way): for the tests
    /// of `Seen`'s lay-off record.
    fn run_of_hearts() -> (Arc<Rules>, Game, TableMeld) {
        let rules = Arc::new(crate::rules::load("push", &[]).unwrap().rules);
        let g = Game::new(Arc::clone(&rules), 4, 0, 1, Vec::new()).unwrap();
        let run = parse_cards("5H 6H 7H").unwrap();
        let query = Query {
            cards: run.clone(),
            kind: None,
            declared: Vec::new(),
        };
        let interps = meld::interpret(&rules, &query).interpretations;
        (rules, g, TableMeld::new(0, run, interps))
    }

    /// A recorded one-card extension is taken only for its meld (by stamp), its card and its
    /// rules, and only once.
    #[test]
    fn a_seen_extension_serves_its_meld_and_card_only() {
        let (rules, g, meld) = run_of_hearts();
        let [four, eight] = [Card::new(Rank::Four, Suit::Hearts), Card::JOKER];
        let grown = meld::extend_each_by_one(&rules, &meld.interps, four).unwrap();
        assert_eq!(grown.len(), 1);
        let mut changed = meld.clone();
        changed.restamp();
        let elsewhere = Arc::new((*rules).clone());
        for (r, m, c) in [
            (&rules, &changed, four),
            (&rules, &meld, eight),
            (&elsewhere, &meld, four),
        ] {
            g.seen.record_extension(&rules, &meld, four, grown.clone());
            assert_eq!(g.seen.take_extension(r, m, c), None);
        }
        g.seen.record_extension(&rules, &meld, four, grown.clone());
        assert!(g.clone().seen.take_extension(&rules, &meld, four).is_none());
        assert_eq!(g.seen.take_extension(&rules, &meld, four), Some(grown));
        assert_eq!(g.seen.take_extension(&rules, &meld, four), None);
    }

    /// A recorded join is read only for its meld (by stamp), its card and its rules; it stays
    /// until another lay-off is recorded, and it is no extension to take.
    #[test]
    fn a_seen_join_serves_its_meld_and_card_only() {
        let (rules, g, meld) = run_of_hearts();
        let four = Card::new(Rank::Four, Suit::Hearts);
        let Some(meld::Joins::One(join)) = meld::joins(&rules, &meld.interps[0], four) else {
            panic!("4H joins 5H-7H one way");
        };
        let joined = |j: meld::OnlyJoin| {
            let mut grown = meld.interps[0].clone();
            j.make(&mut grown);
            grown
        };
        let mut changed = meld.clone();
        changed.restamp();
        let elsewhere = Arc::new((*rules).clone());
        g.seen.record_join(&rules, &meld, four, join);
        for (r, m, c) in [
            (&rules, &changed, four),
            (&rules, &meld, Card::JOKER),
            (&elsewhere, &meld, four),
        ] {
            assert!(g.seen.join(r, m, c).is_none());
        }
        assert!(g.clone().seen.join(&rules, &meld, four).is_none());
        assert!(g.seen.take_extension(&rules, &meld, four).is_none());
        for _ in 0..2 {
            let j = g.seen.join(&rules, &meld, four).expect("recorded");
            assert_eq!(joined(j), joined(join));
        }
        let grown = meld::extend_each_by_one(&rules, &meld.interps, four).unwrap();
        g.seen.record_extension(&rules, &meld, four, grown);
        assert!(g.seen.join(&rules, &meld, four).is_none());
        // A record under other rules holds those rules, not the ones it replaced.
        g.seen.record_join(&elsewhere, &meld, four, join);
        assert!(g.seen.join(&rules, &meld, four).is_none());
        assert!(g.seen.join(&elsewhere, &meld, four).is_some());
    }
}
