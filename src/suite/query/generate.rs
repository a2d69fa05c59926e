//! Random questions from a seed, biased toward near-misses as the meld benchmark is: suit windows
//! and same-rank groups with a wild now and then, often with one card swapped for a random one, so
//! that most questions sit near the edge of a rule. Every question is one the rules can ask (its
//! cards fit the pack). `conform --queries` asks them; `conformance/vectors/` is made of them.

use super::Question;
use crate::base::card::{Card, Counts, Rank, Suit};
use crate::base::rng::Rng;
use crate::engine::bots::{self, Bot};
use crate::engine::game::{Game, MeldSpec, Stage, pack};
use crate::oracle::meld::{self, Query};
use crate::rules::spec::{Component, MeldKind};
use crate::rules::{Loaded, Rules};
use crate::suite::protocol::start_message;
use serde_json::Value;
use std::sync::Arc;

/// The share of each kind of question, in hundredths, in the order of [`super::KINDS`].
pub const MIX: [u64; 6] = [40, 15, 15, 10, 12, 8];

/// What the questions are drawn from: the rules, their pack for the table, a wild card to
/// sprinkle (a joker where the pack has one, else its first wild card).
struct Draw<'a> {
    loaded: &'a Loaded,
    rules: &'a Rules,
    pack: Vec<Card>,
    wild: Option<Card>,
    players: u8,
    rng: Rng,
}

/// `n` random questions from `seed`, for a table of `players` (the positions of `discards`
/// questions come from games of greedy players at that table). Only the kinds in `kinds` are
/// drawn (all when empty).
pub fn questions(
    loaded: &Loaded,
    players: u8,
    n: usize,
    seed: u64,
    kinds: &[&str],
) -> Vec<Question> {
    let rules = &loaded.rules;
    let pack = pack(rules, players);
    let wild = if pack.contains(&Card::JOKER) {
        Some(Card::JOKER)
    } else {
        pack.iter().copied().find(|c| rules.is_wild(*c))
    };
    let mut d = Draw {
        loaded,
        rules,
        pack,
        wild,
        players,
        rng: Rng::new(seed),
    };
    let weights: Vec<u64> = super::KINDS
        .iter()
        .zip(MIX)
        .map(|(k, w)| {
            if kinds.is_empty() || kinds.contains(k) {
                w
            } else {
                0
            }
        })
        .collect();
    let total: u64 = weights.iter().sum();
    let mut out = Vec::with_capacity(n);
    while out.len() < n && total > 0 {
        let mut pick = d.rng.below(total);
        let kind = weights
            .iter()
            .position(|&w| {
                if pick < w {
                    true
                } else {
                    pick -= w;
                    false
                }
            })
            .expect("a kind");
        if let Some(q) = d.one(kind) {
            out.push(q);
        }
    }
    out
}

impl Draw<'_> {
    fn one(&mut self, kind: usize) -> Option<Question> {
        let q = match kind {
            0 => {
                let cards = self.near_meld();
                let kind = match self.rng.below(10) {
                    0 => Some(MeldKind::Set),
                    1 => Some(MeldKind::Run),
                    _ => None,
                };
                Question::Meld { cards, kind }
            }
            1 => self.contract(),
            2 => self.laydown(),
            3 => {
                let n = self.rng.below(11) as usize;
                Question::Score {
                    cards: self.random_cards(n),
                }
            }
            4 => self.lay_off()?,
            _ => self.discards()?,
        };
        // Every card must fit the table's pack at once.
        let cards: Vec<Card> = match &q {
            Question::Meld { cards, .. } | Question::Score { cards } => cards.clone(),
            Question::Contract { melds, .. } => melds.concat(),
            Question::Laydown { hand, .. } => hand.clone(),
            Question::LayOff { meld, card } => [meld.cards.as_slice(), &[*card]].concat(),
            Question::Discards { .. } => Vec::new(),
        };
        let mut left = Counts::from_cards(&self.pack);
        if !cards.iter().all(|&c| left.remove(c)) {
            return None;
        }
        // A question the reference refuses is no question to ask (a position whose table holds a
        // meld with more readings than the protocol can pin down).
        super::answer(self.loaded, &q).is_ok().then_some(q)
    }

    fn random_card(&mut self) -> Card {
        self.pack[self.rng.below(self.pack.len() as u64) as usize]
    }

    /// `n` distinct cards of the pack (distinct as copies: a pack of two decks may give two).
    fn random_cards(&mut self, n: usize) -> Vec<Card> {
        let mut p = self.pack.clone();
        self.rng.shuffle(&mut p);
        p.truncate(n);
        p
    }

    /// A card, or now and then the wild card.
    fn maybe_wild(&mut self, c: Card) -> Card {
        if self.rng.below(5) == 0 {
            self.wild.unwrap_or(c)
        } else {
            c
        }
    }

    /// `len` cards of one suit in a row (`len` at most 13).
    fn run_window(&mut self, len: usize) -> Vec<Card> {
        let len = len.clamp(1, 13);
        let suit = Suit::from_index(self.rng.below(4) as usize);
        let start = self.rng.below(13 - len as u64 + 1) as u8 + 1;
        (0..len)
            .map(|k| {
                let natural = Card::new(Rank::from_number(start + k as u8).expect("1..=13"), suit);
                self.maybe_wild(natural)
            })
            .collect()
    }

    /// `len` cards of one rank, suits at random (repeats possible).
    fn set_window(&mut self, len: usize) -> Vec<Card> {
        let rank = Rank::ALL[self.rng.below(13) as usize];
        self.set_of(rank, len)
    }

    /// `len` cards of `rank`, suits at random, a wild now and then.
    fn set_of(&mut self, rank: Rank, len: usize) -> Vec<Card> {
        (0..len)
            .map(|_| {
                let natural = Card::new(rank, Suit::from_index(self.rng.below(4) as usize));
                self.maybe_wild(natural)
            })
            .collect()
    }

    /// One card swapped for a random card of the pack, half the time.
    fn near(&mut self, mut cards: Vec<Card>) -> Vec<Card> {
        if !cards.is_empty() && self.rng.below(2) == 0 {
            let i = self.rng.below(cards.len() as u64) as usize;
            cards[i] = self.random_card();
        }
        cards
    }

    fn near_meld(&mut self) -> Vec<Card> {
        let len = 3 + self.rng.below(5) as usize;
        match self.rng.below(10) {
            0..=1 => (0..len).map(|_| self.random_card()).collect(),
            2..=5 => {
                let w = self.run_window(len);
                self.near(w)
            }
            _ => {
                let len = 2 + self.rng.below(4) as usize;
                let w = self.set_window(len);
                self.near(w)
            }
        }
    }

    /// Cards for contract meld `c` (a set of its one rank where it names one), `size` of them.
    fn window(&mut self, c: Component, size: usize) -> Vec<Card> {
        match (c.kind, c.rank) {
            (MeldKind::Set, Some(rank)) => self.set_of(rank, size),
            (MeldKind::Set, None) => self.set_window(size),
            (MeldKind::Run, _) => self.run_window(size),
        }
    }

    fn round(&mut self) -> usize {
        self.rng.below(self.rules.rounds.len() as u64) as usize
    }

    fn contract(&mut self) -> Question {
        let r = self.round();
        let parts = self.rules.rounds[r].contract.clone();
        let mut melds: Vec<Vec<Card>> = parts
            .iter()
            .map(|c| {
                let extra = self.rng.below(4) == 0;
                let w = self.window(*c, usize::from(c.size) + usize::from(extra));
                if self.rng.below(4) == 0 {
                    self.near(w)
                } else {
                    w
                }
            })
            .collect();
        if self.rng.below(7) == 0 {
            let kind = if self.rng.below(2) == 0 {
                MeldKind::Set
            } else {
                MeldKind::Run
            };
            let size = 3 + self.rng.below(2) as usize;
            let w = self.window(Component::of(kind, size as u8), size);
            melds.push(w);
        }
        if melds.len() > 1 && self.rng.below(10) == 0 {
            let i = self.rng.below(melds.len() as u64) as usize;
            melds.remove(i);
        }
        Question::Contract {
            round: r + 1,
            melds,
        }
    }

    fn laydown(&mut self) -> Question {
        let r = self.round();
        let round = &self.rules.rounds[r];
        let size = (usize::from(round.deal) + self.rng.below(2) as usize).min(super::MAX_HAND);
        let mut hand = Vec::new();
        if self.rng.below(2) == 0 {
            for c in round.contract.clone() {
                let w = self.window(c, usize::from(c.size));
                hand.extend(w);
            }
            hand = self.near(hand);
        }
        hand.truncate(size);
        let more = self.random_cards(size - hand.len());
        hand.extend(more);
        Question::Laydown { round: r + 1, hand }
    }

    /// A meld as it lies on the table (one of its readings, every wild declared) and a card near
    /// it: one of its rank or its next ranks, a wild, or any card.
    fn lay_off(&mut self) -> Option<Question> {
        let cards = if self.rng.below(2) == 0 {
            let len = 3 + self.rng.below(3) as usize;
            self.run_window(len)
        } else {
            let len = 3 + self.rng.below(2) as usize;
            self.set_window(len)
        };
        let v = meld::interpret(
            self.rules,
            &Query {
                cards: cards.clone(),
                kind: None,
                declared: Vec::new(),
            },
        );
        let i = v
            .interpretations
            .get(self.rng.below(v.interpretations.len().max(1) as u64) as usize)?;
        let declared = i
            .roles
            .iter()
            .filter(|r| !r.natural || self.rules.is_wild(r.card))
            .map(|r| (r.card, r.stands_for))
            .collect();
        let meld = MeldSpec {
            cards,
            kind: Some(i.kind),
            declared,
        };
        let card = match self.rng.below(10) {
            0..=4 => {
                // Next to the reading: one below its lowest or above its highest (a run), or of
                // its rank (a set).
                let targets: Vec<Card> = i
                    .roles
                    .iter()
                    .filter_map(|r| r.stands_for.cards().next())
                    .collect();
                let base = targets.get(self.rng.below(targets.len().max(1) as u64) as usize)?;
                let rank = base.rank()?.number();
                let step = match self.rng.below(3) {
                    0 => -1,
                    1 => 0,
                    _ => 1,
                };
                let n = (i16::from(rank) + step).clamp(1, 13) as u8;
                let suit = match i.kind {
                    MeldKind::Run => base.suit()?,
                    MeldKind::Set => Suit::from_index(self.rng.below(4) as usize),
                };
                Card::new(Rank::from_number(n)?, suit)
            }
            5..=6 => self.wild.unwrap_or_else(|| self.pack[0]),
            _ => self.random_card(),
        };
        Some(Question::LayOff { meld, card })
    }

    /// A position in the play stage of a game of greedy players, a random number of actions in.
    fn discards(&mut self) -> Option<Question> {
        let seed = self.rng.next_u64();
        let rules = Arc::new(self.rules.clone());
        let mut game = Game::new(
            rules,
            self.players,
            (seed % 4) as u8 % self.players,
            seed,
            vec![],
        )
        .ok()?;
        let mut rng = Rng::new(seed);
        let stop = self.rng.below(120);
        let mut seen = 0;
        let mut last = None;
        while !game.is_over() && seen < 400 {
            if game.deal.stage == Stage::Play && game.round == 0 {
                last = Some(game.clone());
                if seen >= stop {
                    break;
                }
            }
            let a = bots::choose(Bot::Greedy, &game, &mut rng);
            let seat = game.turn();
            if game.apply(seat, &a).is_err() {
                break;
            }
            seen += 1;
        }
        let game = last?;
        let mut msg = start_message(self.loaded, &game);
        let o = msg.as_object_mut()?;
        for k in ["type", "protocol", "rules"] {
            o.remove(k);
        }
        Some(Question::Discards {
            position: Value::Object(o.clone()),
        })
    }
}
