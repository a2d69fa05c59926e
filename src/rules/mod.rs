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
pub mod spec;
#[cfg(test)]
mod tests;

pub use loader::{BUILT_IN, GAMES, LoadError, Loaded, load, load_text, parse_reading_arg};

use crate::base::card::{Card, Rank};
use crate::rules::disputes::{DisputeId, Readings, reading};
use line::{LineMasks, build_line, from_line};
use spec::Component;

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

/// One deal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Round {
    pub deal: u8,
    pub contract: Vec<Component>,
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
    pub twos_wild: bool,
    pub set_min: u8,
    pub run_min: u8,
    pub two_in_sequence: bool,
    pub wrap_around: bool,
    pub rounds: Vec<Round>,
    pub push_stock_cards: u8,
    pub push_to: Direction,
    pub discard_wilds: bool,
    pub when_empty: WhenEmpty,
    pub stall_limit: u32,
    /// Buying out of turn; `None`: not allowed (the turn starts with taking the discard or the
    /// push, as without the `buying` section).
    pub buying: Option<Buying>,
    /// Points by rank number (index 1 = ace … 13 = king); index 0 is the joker.
    pub points: [u16; 14],
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

    /// Points for `card` left in a hand.
    pub fn points(&self, card: Card) -> u32 {
        match card.rank() {
            Some(r) => u32::from(self.points[usize::from(r.number())]),
            None => u32::from(self.points[0]),
        }
    }

    /// Standard decks and jokers in the pack for `players`.
    pub fn pack(&self, players: u8) -> (u8, u8) {
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
        self.points[1] = match self.readings.ace_penalty_value {
            reading::AcePenaltyValue::V15 => 15,
        };
        self.points[2] = match self.readings.two_penalty_value {
            reading::TwoPenaltyValue::V20 => 20,
            reading::TwoPenaltyValue::V15 => 15,
        };
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
