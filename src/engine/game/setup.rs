//! Setting a game up: the pack, a new game, dealing a deal (who plays first, how many cards
//! each), and turning the upcard (buried and turned again where the rules say a wild upcard is
//! buried).

use super::{Deal, Event, Game, HandEnd, Progress, Seen, SetupError};
use crate::base::card::{Card, Counts, Rank, Suit};
use crate::base::rng::Rng;
use crate::rules::disputes::reading as rd;
use crate::rules::{FirstPlayer, Rules};
use std::sync::Arc;

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
        let side_of = rules.sides_of(players);
        let sides = if rules.partnered(players) {
            players / 2
        } else {
            players
        };
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

    /// The first player of the deal about to be dealt (`players.first`, else the reading
    /// `six-ten-first-player`). Under `random` this draws `below(players)` from the generator.
    fn first_player(&mut self) -> u8 {
        match self.rules.first_player() {
            FirstPlayer::DealerLeft => self.seat_after(self.dealer),
            FirstPlayer::DealerRight => self.seat_before(self.dealer),
            // The seat that went out of the hand before; in deal 1, and after a hand that
            // nobody went out of, the dealer's left.
            FirstPlayer::PreviousWinner => match self.results.last().map(|r| &r.end) {
                Some(HandEnd::WentOut(s)) => *s,
                _ => self.seat_after(self.dealer),
            },
            FirstPlayer::Random => self.rng.below(u64::from(self.players)) as u8,
        }
    }

    pub(super) fn start_deal(&mut self, events: &mut Vec<Event>) {
        // Drawn before the shuffle (conformance/README.md, "A game from a seed").
        let first = self.first_player();
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
        if self.rules.buying.is_some() {
            self.deal.buys = vec![0; n];
        }
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
}
