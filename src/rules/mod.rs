//! Compiled rules: [`Rules`], the checked form of a rule set that the meld oracle and the engine
//! read, and [`load`], which turns a built-in name or a file path (with `extends` and
//! `--reading` overrides) into it or into diagnostics.
//!
//! Invariant: a `Rules` value always describes a playable game: every deal fits the pack for every
//! allowed player count, and every contract meld is one the pack can make.
//!
//! Here: `Rules`, its accessors and `refresh`. Beside it: `load.rs` (the built-in rule sets,
//! `load` and the `extends` chain), `compile.rs` (a resolved raw rule set made into `Rules`),
//! `check.rs` (the semantic checks: deal vs pack, contracts the pack cannot make, runs longer
//! than the rank line) and `line.rs` (the rank line and the masks derived from it).

mod check;
pub use check::{CONTRACT_SLACK, warnings};
mod compile;
pub mod disputes;
mod line;
mod loader;
pub mod overrides;
pub mod spec;
#[cfg(test)]
mod tests;

pub use loader::{BUILT_IN, GAMES, LoadError, Loaded, load, load_text, parse_reading_arg};

use crate::base::card::{Card, Rank};
use crate::rules::disputes::{DisputeId, Readings, reading};
use line::{LineMasks, build_line, from_line};
use spec::{Component, MeldKind};

/// Who receives a push.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// The next player in turn order.
    Left,
    /// The previous player.
    Right,
}

/// What happens when a player wants to draw from an empty stock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WhenEmpty {
    /// The hand ends; `stock-out` decides who scores.
    EndHand,
    /// The discard pile but its top card is shuffled into a new stock.
    ReshuffleDiscards,
}

/// The stall limit under `stock.stall-limit: none`: not a rule but the engine's backstop, so that
/// every hand still ends (a hand can only get there by taking and returning discards, or
/// rebuilding the stock, for a million turns with no card reaching the table).
pub const STALL_BACKSTOP: u32 = 1_000_000;

/// Who plays first in a deal (`players.first`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FirstPlayer {
    DealerLeft,
    DealerRight,
    /// The seat that went out in the hand before; the dealer's left in deal 1 and after a hand
    /// that nobody went out of.
    PreviousWinner,
    /// `below(players)` from the game's generator, drawn at the start of each deal before the
    /// pack is shuffled.
    Random,
}

/// The discard bans (`discard.bans`) as bits of a mask.
pub mod ban {
    pub const WILDS: u8 = 1;
    pub const TWOS: u8 = 2;
    pub const TAKEN_CARD: u8 = 4;
    pub const TAKEN_KIND: u8 = 8;
    pub const FITS_TABLE: u8 = 16;
    /// Not a ban: in a relaxation step, twos are no longer held by the `wilds` ban (the
    /// reading `no-legal-discard=relax-taken-card-then-twos`: "twos, wild twos too").
    pub const TWOS_AS_WILDS: u8 = 32;

    /// The bit of a ban's name in the rules language.
    pub fn of(name: &str) -> u8 {
        match name {
            "wilds" => WILDS,
            "twos" => TWOS,
            "taken-card" => TAKEN_CARD,
            "taken-kind" => TAKEN_KIND,
            "fits-table" => FITS_TABLE,
            _ => 0,
        }
    }
}

/// What happens when the bans leave no card to discard (`discard.when-none-allowed`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum WhenNoneAllowed {
    /// The bans lifted after each step, cumulative (masks of [`ban`] bits): the first step that
    /// lets a card go decides; after the last the turn ends without a discard.
    Relax(Vec<u8>),
    NoDiscard,
    /// The player draws from the stock, one card at a time, until a card may go.
    DrawUntilAllowed,
}

/// The discard rules of `discard.bans` and `discard.when-none-allowed`, where either is stated.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DiscardRules {
    /// `discard.bans` (bits of [`ban`]); `None`: the reading `discard-restrictions` decides.
    pub bans: Option<u8>,
    /// `discard.when-none-allowed`; `None`: the reading `no-legal-discard` decides.
    pub when_none: Option<WhenNoneAllowed>,
}

/// Who scores together, where the rules state it (`scoring.sides`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sides {
    /// Partners sit opposite (seat `s` with seat `s + players / 2`) and score together; the
    /// checks allow it only for an even number of players from 4.
    Partnerships,
    /// Everyone scores alone.
    Individual,
}

/// Buying out of turn ("May I"), where the rules allow it (`buying.allowed`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Buying {
    /// Stock cards a buyer takes with the discard (`buying.penalty-cards`).
    pub penalty_cards: u8,
    /// Buys per player and hand; `None`: unlimited (`buying.per-hand`).
    pub per_hand: Option<u8>,
    /// A player who has met this deal's contract may still buy (`buying.when-down`).
    pub when_down: bool,
}

/// Cards added at a large table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LargeTable {
    /// `None`: the dispute `capit-third-deck` decides.
    pub from_players: Option<u8>,
    pub standard_decks: u8,
    pub jokers: u8,
}

/// Limits on the wild cards of one meld (`wilds.max-per-meld`, `wilds.may-outnumber-naturals`,
/// `wilds.min-naturals`, `wilds.side-by-side-in-runs`). A card counts as natural where its role
/// in the interpretation is natural (a 2 standing for itself where `natural-twos` allows it).
/// The default (every rule absent) limits nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct WildLimits {
    /// At most this many wild cards.
    pub max: Option<u8>,
    /// No more wild cards than natural ones.
    pub not_outnumbering: bool,
    /// At least this many natural cards.
    pub min_naturals: u8,
    /// No two wild cards on neighbouring places of a run.
    pub apart_in_runs: bool,
}

impl WildLimits {
    /// Whether any limit is set: where none is, nothing is checked.
    pub fn active(&self) -> bool {
        self.max.is_some() || self.not_outnumbering || self.min_naturals > 0 || self.apart_in_runs
    }

    /// Whether a meld of `naturals` natural and `wilds` wild cards keeps the count limits
    /// (every limit but `apart_in_runs`, which needs the places).
    pub fn counts_allow(&self, naturals: usize, wilds: usize) -> bool {
        self.max.is_none_or(|m| wilds <= usize::from(m))
            && (!self.not_outnumbering || wilds <= naturals)
            && naturals >= usize::from(self.min_naturals)
    }

    /// The most wild cards a meld of exactly `n` cards may hold under the count limits.
    pub fn wild_cap(&self, n: usize) -> usize {
        let mut cap = n.saturating_sub(usize::from(self.min_naturals));
        if let Some(m) = self.max {
            cap = cap.min(usize::from(m));
        }
        if self.not_outnumbering {
            cap = cap.min(n / 2);
        }
        cap
    }
}

/// One deal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Round {
    pub deal: u8,
    pub contract: Vec<Component>,
    /// The contract goes down only as the whole hand, which is going out without a discard.
    pub all_at_once: bool,
}

/// A place on the line of ranks that runs are laid along.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Place {
    pub rank: Rank,
    /// An ace placed above the king (rather than below the 2).
    pub high: bool,
}

/// A checked rule set.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub game: String,
    pub name: String,
    pub players: (u8, u8),
    pub standard_decks: u8,
    pub jokers: u8,
    pub large_table: Option<LargeTable>,
    /// `decks.by-players`: the pack of the player counts a tier names (empty where not stated).
    pub deck_tiers: Vec<spec::DeckTier>,
    pub twos_wild: bool,
    pub wild_limits: WildLimits,
    /// `wilds.may-move`: a table meld keeps every reading of its cards as its kind, found again
    /// after each change, instead of the readings that extend what it was.
    pub wilds_move: bool,
    pub set_min: u8,
    pub run_min: u8,
    pub two_in_sequence: bool,
    pub wrap_around: bool,
    pub rounds: Vec<Round>,
    /// `contract.check: pooled`: the contract is found among all the cards of a laydown.
    pub contract_pooled: bool,
    pub push_stock_cards: u8,
    pub push_to: Direction,
    pub discard_wilds: bool,
    /// `discard.bans` and `discard.when-none-allowed`; `None` where neither is stated (the
    /// readings and `discard.wilds` decide, as they always did).
    pub discard_rules: Option<DiscardRules>,
    /// `players.first`; `None`: the reading `six-ten-first-player` decides.
    pub first_player: Option<FirstPlayer>,
    /// `going-out.not-on-contract-turn`.
    pub no_going_out_on_contract_turn: bool,
    pub when_empty: WhenEmpty,
    /// `stock.stall-limit`; [`STALL_BACKSTOP`] under `none`.
    pub stall_limit: u32,
    /// `stock.rebuilds`: how many times a hand's stock may be rebuilt; `None`: no limit.
    pub max_rebuilds: Option<u16>,
    /// `push.allowed: false`: no push; the turn starts with the plain draw.
    pub no_push: bool,
    /// Buying out of turn; `None`: not allowed (the turn starts with taking the discard or the
    /// push, as without the `buying` section).
    pub buying: Option<Buying>,
    /// Points by rank number (index 1 = ace … 13 = king); index 0 is the joker.
    pub points: [u16; 14],
    /// The points of an ace and of a two where the rules state them (`scoring.points.A`,
    /// `scoring.points.2`): they override the readings, and `refresh` keeps them.
    pub stated_points: [Option<u16>; 2],
    /// Who scores together, where stated (`scoring.sides`); `None`: the reading
    /// six-ten-partnerships decides ([`Rules::partnered`]).
    pub sides: Option<Sides>,
    /// Points taken off the hand score of the side whose player goes out
    /// (`scoring.going-out-bonus`; 0 when not stated).
    pub going_out_bonus: u16,
    pub readings: Readings,
    /// The places of the rank line, low to high (circular when `wrap_around`).
    pub line: Vec<Place>,
    /// The places of each rank on `line`, as bit masks by place (index: rank number - 1): an
    /// ace may have two, a rank off the line none. Derived from `line` (`refresh`).
    pub rank_places: [u32; 13],
    /// The places a run of `n` cards covers, one mask per start (index: `n`, up to the line's
    /// length). Derived from `line` and `wrap_around` (`refresh`); read through
    /// [`Rules::windows`].
    pub run_windows: Vec<Vec<u32>>,
    /// The places a run of `n` cards may cover together with a card of each rank: the union of
    /// the windows of `n` that hold one of the rank's places (index: `n`, then rank number - 1).
    /// Derived from `run_windows` and `rank_places` (`refresh`); read through [`Rules::reach`].
    pub run_reach: Vec<[u32; 13]>,
    /// Per rank (number - 1), the ranks at the places just below and just above its places on
    /// the line (around the corner under wrap-around), as bit masks by rank number: the ranks
    /// that may extend a run ending in it. Derived from `line` and `wrap_around` (`refresh`).
    pub rank_neighbours: [[u16; 2]; 13],
    /// [`Rules::places_of`] by table: the places of every set of the first seven ranks, and of
    /// the last six (index: the rank mask's low seven bits, then the six above them). Derived
    /// from `rank_places` (`refresh`).
    pub places_by_halves: [[u32; 128]; 2],
    /// The ranks with a place on the line, as a mask by rank number - 1 (`rank_places` not
    /// empty). Derived from `rank_places` (`refresh`).
    pub placed_ranks: u64,
}

impl Rules {
    /// Whether `card` is wild in this game (it may still stand for itself where the rules allow).
    pub fn is_wild(&self, card: Card) -> bool {
        card.is_joker() || (self.twos_wild && card.is_two())
    }

    /// Every card [`Rules::is_wild`] accepts (the joker, and the twos where they are wild), as a
    /// mask by [`Card::index`]: for counting a hand's wilds without visiting every card in it.
    pub fn wild_mask(&self) -> u64 {
        // The joker, and the four twos (rank index 1 of each suit) where twos are wild.
        const TWOS: u64 = 1 << 1 | 1 << 14 | 1 << 27 | 1 << 40;
        let twos = if self.twos_wild { TWOS } else { 0 };
        1 << Card::JOKER.index() | twos
    }

    /// Whether a turn may start by drawing from the stock (`draw-stock`) instead of pushing: under
    /// buying, or where `push.allowed` is false. The push is then refused.
    pub fn draws_from_stock(&self) -> bool {
        self.buying.is_some() || self.no_push
    }

    /// Points for `card` left in a hand.
    pub fn points(&self, card: Card) -> u32 {
        match card.rank() {
            Some(r) => u32::from(self.points[usize::from(r.number())]),
            None => u32::from(self.points[0]),
        }
    }

    /// Whether `players` at this table play as partnerships: as `scoring.sides` states, else
    /// under the reading six-ten-partnerships = across when four play.
    pub fn partnered(&self, players: u8) -> bool {
        match self.sides {
            Some(Sides::Partnerships) => players >= 4 && players.is_multiple_of(2),
            Some(Sides::Individual) => false,
            None => {
                self.readings.six_ten_partnerships == reading::SixTenPartnerships::Across
                    && players == 4
            }
        }
    }

    /// The side of each seat for `players`: partners (seat `s` and seat `s + players / 2`,
    /// opposite each other) share one, else each seat is its own. The number of sides is the
    /// largest plus one.
    pub fn sides_of(&self, players: u8) -> Vec<u8> {
        let partnered = self.partnered(players);
        (0..players)
            .map(|s| if partnered { s % (players / 2) } else { s })
            .collect()
    }

    /// A card of `cards` that the pack (at its largest table) holds fewer times than given, in
    /// words; `None` when the pack can hold them all at once.
    pub fn pack_problem(&self, cards: &[Card]) -> Option<String> {
        let (decks, jokers) = self.pack(self.players.1);
        // Counted here in full: a `Counts` holds at most 255 of a card.
        let mut counts = [0usize; crate::base::card::KINDS];
        for c in cards {
            counts[c.index()] += 1;
        }
        for c in crate::base::card::cards_in(cards.iter().fold(0u64, |m, c| m | 1 << c.index())) {
            let k = counts[c.index()];
            let have = usize::from(if c.is_joker() { jokers } else { decks });
            if k > have {
                return Some(if have == 0 {
                    format!(
                        "{} is not in this game's pack ({} has no jokers)",
                        c.pretty(),
                        self.name
                    )
                } else {
                    format!(
                        "the pack of {} has {have} × {}, and {k} were given",
                        self.name,
                        c.pretty()
                    )
                });
            }
        }
        None
    }

    /// Standard decks and jokers in the pack for `players`.
    pub fn pack(&self, players: u8) -> (u8, u8) {
        if let Some(t) = self
            .deck_tiers
            .iter()
            .find(|t| (t.from..=t.to).contains(&players))
        {
            return (t.standard_decks, t.jokers);
        }
        let mut decks = self.standard_decks;
        let mut jokers = self.jokers;
        if let Some(lt) = self.large_table {
            let from = lt
                .from_players
                .unwrap_or(match self.readings.capit_third_deck {
                    reading::CapitThirdDeck::FiveOrMore => 5,
                    reading::CapitThirdDeck::SixOnly => 6,
                });
            if players >= from {
                decks += lt.standard_decks;
                jokers += lt.jokers;
            }
        }
        (decks, jokers)
    }

    pub fn pack_size(&self, players: u8) -> usize {
        let (d, j) = self.pack(players);
        usize::from(d) * 52 + usize::from(j)
    }

    /// The masks of the places a run of `n` cards can cover, one per start
    /// ([`Rules::run_windows`]), starting at place 0, 1, …: every place on a circular line (one
    /// window when the run takes the whole circle), else every place from which `n` places fit;
    /// none for a run longer than the line.
    pub fn windows(&self, n: usize) -> &[u32] {
        self.run_windows.get(n).map_or(&[], Vec::as_slice)
    }

    /// The places of the ranks of `ranks` on the line ([`Rules::rank_places`]), given as a mask
    /// by rank number - 1 (bits above the 13th are not read).
    pub fn places_of(&self, ranks: u64) -> u32 {
        let [low, high] = &self.places_by_halves;
        low[(ranks & 0x7F) as usize] | high[(ranks >> 7 & 0x3F) as usize]
    }

    /// The places that can share a run of `n` cards with a card of `rank` ([`Rules::run_reach`]):
    /// none where no such run fits on the line.
    pub fn reach(&self, n: usize, rank: Rank) -> u32 {
        self.run_reach
            .get(n)
            .map_or(0, |r| r[usize::from(rank.number()) - 1])
    }

    /// The longest run the rank line allows.
    pub fn max_run(&self) -> usize {
        if self.wrap_around {
            return self.line.len();
        }
        let both = self.readings.ace_both_ends == reading::AceBothEnds::Allowed;
        let has_low = self.line.first().is_some_and(|p| p.rank == Rank::Ace);
        if has_low && !both {
            self.line.len() - 1
        } else {
            self.line.len()
        }
    }

    /// The largest set the rules allow, before counting the pack.
    pub fn max_set(&self, copies_per_card: usize, wilds_in_pack: usize) -> usize {
        let cap = match self.readings.set_max_size {
            reading::SetMaxSize::V4 => 4,
            reading::SetMaxSize::Unlimited => usize::MAX,
        };
        let forbid = self.readings.set_duplicate_suits == reading::SetDuplicateSuits::Forbidden;
        let naturals = if forbid { 4 } else { 4 * copies_per_card };
        let exact = self.readings.wild_in_set_represents == reading::WildInSetRepresents::ExactCard;
        let by_pack = if forbid && exact {
            4
        } else {
            naturals + wilds_in_pack
        };
        cap.min(by_pack)
    }
}

impl Rules {
    /// Whether this rule set states `path`, one of the rules of [`overrides::OVERRIDES`]
    /// (`false` for any other path): read from the field the rule sets, which is `None` where
    /// the rule is absent and its dispute's reading decides.
    pub fn states(&self, path: &str) -> bool {
        let discard = self.discard_rules.as_ref();
        match path {
            "decks.large-table.from-players" => {
                self.large_table.is_some_and(|l| l.from_players.is_some())
            }
            "players.first" => self.first_player.is_some(),
            "discard.bans" => discard.is_some_and(|d| d.bans.is_some()),
            "discard.when-none-allowed" => discard.is_some_and(|d| d.when_none.is_some()),
            "scoring.points.A" => self.stated_points[0].is_some(),
            "scoring.points.2" => self.stated_points[1].is_some(),
            "scoring.sides" => self.sides.is_some(),
            _ => false,
        }
    }

    /// The rule this rule set states that overrides the reading of `dispute`, if any: that
    /// reading then decides nothing here.
    pub fn overriding(&self, dispute: DisputeId) -> Option<&'static str> {
        overrides::overriding(dispute).find(|p| self.states(p))
    }

    /// Sets the reading of one dispute by name (and recomputes what depends on readings);
    /// `false` if `name` is not one of its readings.
    pub fn set_reading(&mut self, id: DisputeId, name: &str) -> bool {
        let ok = self.readings.set(id, name);
        self.refresh();
        ok
    }

    /// Recomputes the derived fields (the rank line, the points of aces and twos) after a
    /// reading or a structural field was changed in place.
    pub fn refresh(&mut self) {
        let ace_low = self.readings.ace_position == reading::AcePosition::HighOrLow;
        self.line = build_line(self.two_in_sequence, self.wrap_around, ace_low);
        LineMasks {
            rank_places: self.rank_places,
            run_windows: self.run_windows,
            run_reach: self.run_reach,
            rank_neighbours: self.rank_neighbours,
            places_by_halves: self.places_by_halves,
            placed_ranks: self.placed_ranks,
        } = from_line(&self.line, self.wrap_around);
        [self.points[1], self.points[2]] =
            compile::ace_two_points(&self.readings, self.stated_points);
    }

    /// Who plays first in a deal: `players.first`, else the reading `six-ten-first-player`.
    pub fn first_player(&self) -> FirstPlayer {
        self.first_player
            .unwrap_or(match self.readings.six_ten_first_player {
                reading::SixTenFirstPlayer::DealerLeft => FirstPlayer::DealerLeft,
                reading::SixTenFirstPlayer::DealerRight => FirstPlayer::DealerRight,
            })
    }

    /// The discard bans in force (bits of [`ban`]) under `discard.bans` (or the reading
    /// `discard-restrictions` where it is not stated) and `discard.wilds`.
    pub fn discard_bans(&self) -> u8 {
        let listed = match self.discard_rules.as_ref().and_then(|d| d.bans) {
            Some(b) => b,
            None => match self.readings.discard_restrictions {
                reading::DiscardRestrictions::None => 0,
                reading::DiscardRestrictions::NoTwosNoTakenCard => ban::TWOS | ban::TAKEN_CARD,
            },
        };
        let wilds = if self.discard_wilds { 0 } else { ban::WILDS };
        listed | wilds
    }

    /// Sets the optional turn rules from five picks, each ranging over every value, absence
    /// included: `players.first` (`picks[0]`), `discard.bans` (`picks[1]`: bits of [`ban`],
    /// `taken-kind` winning over `taken-card`), `discard.when-none-allowed` (`picks[2]`: a
    /// relaxation lifts the bans in force, in an order the pick rotates),
    /// `going-out.not-on-contract-turn` (`picks[3]`), and the ending (`picks[4]`: one time in
    /// four `stock.stall-limit: none`, except under `push-with-one-stock-card=forbidden`, and
    /// under `reshuffle-discards` a `stock.rebuilds` of 0 to 2 or none, never none without a stall
    /// limit; one time in two a
    /// `decks.by-players` that adds jokers). Every result is a combination the rules language accepts. For the
    /// random-rules generators of tests and fuzz targets.
    pub fn pick_turn_rules(&mut self, picks: [u8; 5]) {
        self.first_player = match picks[0] % 5 {
            0 => None,
            1 => Some(FirstPlayer::DealerLeft),
            2 => Some(FirstPlayer::DealerRight),
            3 => Some(FirstPlayer::PreviousWinner),
            _ => Some(FirstPlayer::Random),
        };
        let bans = match picks[1] % 33 {
            32 => None,
            b if b & ban::TAKEN_KIND != 0 => Some(b & !ban::TAKEN_CARD),
            b => Some(b),
        };
        self.discard_rules = Some(DiscardRules {
            bans,
            when_none: None,
        });
        let in_force = self.discard_bans();
        let when_none = match picks[2] % 4 {
            0 => None,
            1 => Some(WhenNoneAllowed::NoDiscard),
            2 => Some(WhenNoneAllowed::DrawUntilAllowed),
            _ => {
                let mut order: Vec<u8> = (0..5)
                    .map(|i| 1 << i)
                    .filter(|b| in_force & b != 0)
                    .collect();
                if order.is_empty() {
                    Some(WhenNoneAllowed::NoDiscard)
                } else {
                    let k = usize::from(picks[2] / 4) % order.len();
                    order.rotate_left(k);
                    let mut lifted = 0;
                    Some(WhenNoneAllowed::Relax(
                        order
                            .iter()
                            .map(|b| {
                                lifted |= b;
                                lifted
                            })
                            .collect(),
                    ))
                }
            }
        };
        self.discard_rules =
            (bans.is_some() || when_none.is_some()).then_some(DiscardRules { bans, when_none });
        self.no_going_out_on_contract_turn = picks[3] % 2 == 1;
        // Where a push may be refused for a short stock (push-with-one-stock-card=forbidden),
        // players may have to take and return the discard for ever: there only the stall
        // limit ends the hand, and the backstop would make a game of millions of turns.
        let may_loop =
            self.readings.push_with_one_stock_card == reading::PushWithOneStockCard::Forbidden;
        if picks[4].is_multiple_of(4) && !may_loop {
            self.stall_limit = STALL_BACKSTOP;
        }
        // One time in two, a pack by player count: the same decks and one to three jokers
        // more (more cards never make a deal or a contract impossible).
        self.deck_tiers.clear();
        if picks[4] / 16 % 2 == 1 {
            let tiers = (self.players.0..=self.players.1).map(|n| {
                let (standard_decks, jokers) = self.pack(n);
                spec::DeckTier {
                    from: n,
                    to: n,
                    standard_decks,
                    jokers: jokers + 1 + n % 3,
                }
            });
            self.deck_tiers = tiers.collect();
        }
        if self.when_empty == WhenEmpty::ReshuffleDiscards {
            // No stall limit and a stock rebuilt without end: a hand nobody can go out of (a
            // deal played all at once, players that never find the whole hand) lasts the
            // backstop's million turns; with a rebuild limit it ends when the stock does.
            let endless = self.stall_limit == STALL_BACKSTOP;
            self.max_rebuilds = match picks[4] / 4 % 4 {
                3 if !endless => None,
                n => Some(u16::from(n % 3)),
            };
        }
    }

    /// Sets the optional rules [`Rules::pick_turn_rules`] leaves alone from four picks, each
    /// ranging over every value, absence included: the limits on wild cards and whether wilds
    /// move (`picks[0]`: limits one time in two, `wilds.may-move` one time in four), the draw
    /// and the contract (`picks[1]`: `push.allowed: false` one time in four, `contract.check:
    /// pooled` one time in four where the contract is laid in one turn, every deal played all at
    /// once one time in four where going out allows it), buying out of turn
    /// (`picks[2]`: one time in three, with its knobs), and scoring (`picks[3]`: the points of
    /// aces and twos, who scores together, the going-out bonus). Then [`Rules::refresh`]. With
    /// `pick_turn_rules`, every optional rule of the language is drawn; every result is a
    /// combination the rules language accepts. For the random-rules generators of tests and
    /// fuzz targets.
    pub fn pick_house_rules(&mut self, picks: [u8; 4]) {
        let [w, d, b, s] = picks;
        self.wild_limits = if w % 2 == 0 {
            WildLimits::default()
        } else {
            WildLimits {
                max: [None, Some(1), Some(2)][usize::from(w / 2 % 3)],
                not_outnumbering: w / 6 % 2 == 1,
                min_naturals: w / 12 % 3,
                apart_in_runs: w / 36 % 2 == 1,
            }
        };
        self.wilds_move = w / 72 % 2 == 1 || w % 4 == 2;
        self.no_push = d % 4 == 1;
        self.contract_pooled = d / 4 % 4 == 1
            && self.readings.contract_in_one_turn == reading::ContractInOneTurn::Required;
        self.buying = (b % 3 == 1).then(|| Buying {
            penalty_cards: b / 3 % 3,
            per_hand: [None, Some(1), Some(2)][usize::from(b / 9 % 3)],
            when_down: b / 27 % 2 == 0,
        });
        self.stated_points = [
            (s % 3 == 1).then_some(u16::from(s / 3 % 4) * 10),
            (s / 12 % 3 == 1).then_some(u16::from(s / 36 % 4) * 10),
        ];
        self.sides = match s / 144 {
            0 => None,
            _ => Some(Sides::Individual),
        };
        self.going_out_bonus = u16::from(s % 5 == 4) * 10;
        self.play_all_at_once(if d / 16 % 4 == 1 { u32::MAX } else { 0 });
        if d / 64 == 1 {
            self.fix_set_ranks(u32::from(w) << 8 | u32::from(s));
        }
        self.refresh();
    }

    /// Gives the first set of each deal's contract a fixed rank (`set of 3 kings`), drawn from
    /// `pick`, and where `pick`'s low bit is set makes it a pair (`set of 2 aces`), smaller than
    /// sets go, where the contract is checked meld by meld. Never the 2 where a 2 is natural in no
    /// set; the pack makes every such set (a fixed rank asks for no more cards than any rank).
    /// For the random-rules generators of tests and fuzz targets.
    pub fn fix_set_ranks(&mut self, pick: u32) {
        let twos = self.natural_two_in_sets();
        let pair = pick & 1 == 1 && !self.contract_pooled;
        for (i, r) in self.rounds.iter_mut().enumerate() {
            let Some(c) = r.contract.iter_mut().find(|c| c.kind == MeldKind::Set) else {
                continue;
            };
            let mut k = (pick >> 1).wrapping_add(i as u32 * 5) % 13;
            if k == 1 && !twos {
                k = 0;
            }
            c.rank = Rank::from_number(k as u8 + 1);
            if pair {
                c.size = 2;
            }
        }
    }

    /// Marks the deals whose bit is set in `deals` (bit 0: the first deal) as played all at once
    /// (`rounds[N].all-at-once`), where the rules let anyone win such a deal: not under
    /// `going-out=discard-only` nor `going-out.not-on-contract-turn` (the combinations `rules
    /// check` refuses). For the random-rules generators of tests and fuzz targets.
    pub fn play_all_at_once(&mut self, deals: u32) {
        let allowed = self.readings.going_out != reading::GoingOut::DiscardOnly
            && !self.no_going_out_on_contract_turn;
        for (i, r) in self.rounds.iter_mut().enumerate() {
            r.all_at_once = allowed && i < 32 && deals >> i & 1 == 1;
        }
    }

    /// Whether `discard.when-none-allowed: draw-until-allowed` is stated.
    pub fn draws_until_allowed(&self) -> bool {
        self.discard_rules
            .as_ref()
            .is_some_and(|d| d.when_none == Some(WhenNoneAllowed::DrawUntilAllowed))
    }

    /// What happens when no card may be discarded: `discard.when-none-allowed`, else the
    /// reading `no-legal-discard`.
    pub fn when_none_allowed(&self) -> WhenNoneAllowed {
        if let Some(w) = self
            .discard_rules
            .as_ref()
            .and_then(|d| d.when_none.clone())
        {
            return w;
        }
        match self.readings.no_legal_discard {
            reading::NoLegalDiscard::RelaxTakenCardThenTwos => {
                let taken = ban::TAKEN_CARD | ban::TAKEN_KIND;
                WhenNoneAllowed::Relax(vec![taken, taken | ban::TWOS | ban::TWOS_AS_WILDS])
            }
            reading::NoLegalDiscard::NoDiscard => WhenNoneAllowed::NoDiscard,
        }
    }

    /// Whether a 2 may stand for itself in a set (a set of twos): always when twos are not wild.
    pub fn natural_two_in_sets(&self) -> bool {
        !self.twos_wild || self.readings.natural_twos == reading::NaturalTwos::RunsAndSets
    }

    /// Whether a 2 may stand for itself in a run, at its own place.
    pub fn natural_two_in_runs(&self) -> bool {
        !self.twos_wild || self.readings.natural_twos != reading::NaturalTwos::Never
    }
}
