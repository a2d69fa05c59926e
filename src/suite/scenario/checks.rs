//! The checkpoints of a step (`check`): assertions about the state after it, read in the order of
//! [`CHECK_KEYS`], which is the order they are evaluated and printed in (the transcript's). What
//! the state is, the replay finds out.

use super::ctx::{Ctx, join};
use super::{CHECK_KEYS, Check, EndSpec, LAST_HAND_KEYS};
use crate::base::yaml::Node;
use crate::engine::game::Stage;

/// The assertions of a checkpoint at `path`, each with its line.
pub(super) fn decode_checks(
    cx: &mut Ctx,
    node: &Node,
    path: &str,
    players: u8,
) -> Vec<(u32, Check)> {
    let mut out = Vec::new();
    let mut entries = cx.map(node, path, &CHECK_KEYS, "a checkpoint");
    entries.sort_by_key(|(k, _)| CHECK_KEYS.iter().position(|c| c == k));
    for (key, v) in entries {
        let p = join(path, &key);
        let line = v.pos.line;
        let check = match key.as_str() {
            "round" => cx.int(v, &p, 1, 20).map(|n| Check::Round(n as usize)),
            "dealer" => cx.seat(v, &p, players).map(Check::Dealer),
            "turn" => cx.seat(v, &p, players).map(Check::Turn),
            "stage" => check_stage(cx, v, &p),
            "hand" | "hand-size" => {
                seat_checks(cx, &key, v, &p, players, &mut out);
                continue;
            }
            "table" => cx.melds(v, &p, players).map(Check::Table),
            "stock-count" => cx
                .int(v, &p, 0, 10_000)
                .map(|n| Check::StockCount(n as usize)),
            "stock-top" | "discard-top" => pile_top(cx, &key, v, &p),
            "discard" => cx.cards(v, &p).map(Check::Discard),
            "stock" => cx.cards(v, &p).map(Check::Stock),
            "contract-met" => cx.seats(v, &p, players).map(|mut s| {
                s.sort_unstable();
                s.dedup();
                Check::ContractMet(s)
            }),
            "totals" => cx.list(v, &p, "the totals (one per side)").map(|items| {
                let v: Vec<i64> = items
                    .iter()
                    .enumerate()
                    .filter_map(|(i, n)| cx.int(n, &format!("{p}[{i}]"), -1_000_000, 1_000_000))
                    .collect();
                Check::Totals(v)
            }),
            "hands-played" => cx
                .int(v, &p, 0, 1000)
                .map(|n| Check::HandsPlayed(n as usize)),
            "last-hand" => decode_last_hand(cx, v, &p, players),
            "game-over" => cx.boolean(v, &p).map(Check::GameOver),
            _ => cx.seats(v, &p, players).map(|mut s| {
                s.sort_unstable();
                Check::Winners(s)
            }),
        };
        if let Some(c) = check {
            out.push((line, c));
        }
    }
    out
}

/// `stage`: `draw`, `play`, `buy` or `over`.
fn check_stage(cx: &mut Ctx, v: &Node, p: &str) -> Option<Check> {
    match v.scalar_text().as_deref() {
        Some("draw") => Some(Check::Stage(Stage::Draw)),
        Some("play") => Some(Check::Stage(Stage::Play)),
        Some("buy") => Some(Check::Stage(Stage::Buy)),
        Some("over") => Some(Check::Stage(Stage::Over)),
        _ => {
            cx.err(v, p, "the stage is `draw`, `play`, `buy` or `over`");
            None
        }
    }
}

/// `hand` or `hand-size` (`key`): one assertion per seat named, each with its own line.
fn seat_checks(
    cx: &mut Ctx,
    key: &str,
    v: &Node,
    p: &str,
    players: u8,
    out: &mut Vec<(u32, Check)>,
) {
    for (seat, n, sp) in cx.per_seat(v, p, players) {
        let c = if key == "hand" {
            cx.cards(n, &sp).map(|c| Check::Hand(seat, c))
        } else {
            cx.int(n, &sp, 0, 10_000)
                .map(|k| Check::HandSize(seat, k as usize))
        };
        if let Some(c) = c {
            out.push((n.pos.line, c));
        }
    }
}

/// `stock-top` or `discard-top` (`key`): one card, or `none` for an empty pile.
fn pile_top(cx: &mut Ctx, key: &str, v: &Node, p: &str) -> Option<Check> {
    match cx.cards(v, p) {
        Some(c) if c.len() <= 1 => {
            let top = c.first().copied();
            Some(if key == "stock-top" {
                Check::StockTop(top)
            } else {
                Check::DiscardTop(top)
            })
        }
        Some(_) => {
            cx.err(v, p, "one card, or `none` for an empty pile");
            None
        }
        None => None,
    }
}

/// `last-hand`: how the last hand ended, the points of each side and the cards seats held.
fn decode_last_hand(cx: &mut Ctx, v: &Node, p: &str, players: u8) -> Option<Check> {
    let mut end = None;
    let mut points = None;
    let mut hands = Vec::new();
    for (key, n) in cx.map(v, p, &LAST_HAND_KEYS, "`last-hand`") {
        let kp = join(p, &key);
        if key == "end" {
            let t = n.scalar_text().unwrap_or_default();
            let words: Vec<&str> = t.split_whitespace().collect();
            end = match words.as_slice() {
                ["stock-out"] => Some(EndSpec::StockOut),
                ["stalled"] => Some(EndSpec::Stalled),
                ["went-out", s] => match s.parse::<u8>() {
                    Ok(s) if s < players => Some(EndSpec::WentOut(s)),
                    _ => {
                        cx.err(n, &kp, format!("`{s}` is not a seat of {players} players"));
                        return None;
                    }
                },
                _ => {
                    cx.err_hint(
                        n,
                        &kp,
                        format!("cannot read `{t}` as the end of a hand"),
                        "write `went-out SEAT`, `stock-out` or `stalled`",
                    );
                    return None;
                }
            };
        } else if key == "hands" {
            for (seat, cards, sp) in cx.per_seat(n, &kp, players) {
                hands.push((seat, cx.cards(cards, &sp)?));
            }
        } else {
            let items = cx.list(n, &kp, "points per side")?;
            let mut v = Vec::new();
            for (i, it) in items.iter().enumerate() {
                v.push(cx.int(it, &format!("{kp}[{i}]"), -1_000_000, 1_000_000)?);
            }
            points = Some(v);
        }
    }
    Some(Check::LastHand { end, points, hands })
}
