//! The end of a turn and of a hand: the turn passes to the next seat, turns in a row with no card
//! reaching the table count towards the stall limit (`stock.stall-limit`), and a hand that ends
//! (a player went out, the stock ran out, a stall) is scored: the cards left in hand count
//! against their side (against every side, or none, when the stock runs out or play stalls:
//! `stock-out`); the side whose player went out scores nothing, less `scoring.going-out-bonus`.
//! Then the next deal starts, or the game ends and the winners are decided (lowest total;
//! `ties=last-hand-decides` breaks a tie by the last hand, `ties=earlier-hands-decide` by the
//! last hand, then the one before, back to the first).

use super::{Event, Game, HandEnd, HandResult, Stage};
use crate::rules::disputes::reading as rd;
use std::sync::Arc;

impl Game {
    pub(super) fn end_turn(&mut self, events: &mut Vec<Event>) {
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

    pub(super) fn end_hand(&mut self, end: HandEnd, events: &mut Vec<Event>) {
        let mut points = vec![0i64; usize::from(self.sides)];
        let score_all = |g: &Game, points: &mut Vec<i64>, except_side: Option<u8>| {
            for seat in 0..g.players {
                let side = g.side_of[usize::from(seat)];
                if Some(side) == except_side {
                    continue;
                }
                let p: u32 = g.deal.hands[usize::from(seat)]
                    .iter()
                    .map(|(c, k)| g.rules.points(c) * u32::from(k))
                    .sum();
                points[usize::from(side)] += i64::from(p);
            }
        };
        let reason = match &end {
            HandEnd::WentOut(s) => {
                let side = self.side_of[usize::from(*s)];
                score_all(self, &mut points, Some(side));
                points[usize::from(side)] -= i64::from(self.rules.going_out_bonus);
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
            *t += *p;
        }
        events.push(Event::HandEnded {
            reason,
            points: points.clone(),
            totals: self.totals.clone(),
        });
        let hands = self.deal.hands.clone();
        Arc::make_mut(&mut self.results).push(HandResult { end, points, hands });
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
        // The hands that break a tie, last first: none when the tied share the win.
        let deciding = match self.rules.readings.ties {
            rd::Ties::Shared => 0,
            rd::Ties::LastHandDecides => 1,
            rd::Ties::EarlierHandsDecide => self.results.len(),
        };
        for hand in self.results.iter().rev().take(deciding) {
            if tied.len() < 2 {
                break;
            }
            let best = tied
                .iter()
                .map(|&s| hand.points[usize::from(s)])
                .min()
                .unwrap_or(0);
            tied.retain(|&s| hand.points[usize::from(s)] == best);
        }
        tied
    }
}
