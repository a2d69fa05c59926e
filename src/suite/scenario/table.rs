//! The `table` of a scenario: the number of players, the dealer, the deal being played and the
//! scores of the hands before it. Whether they fit the rules is the engine's to say when the game
//! is set up.

use super::TABLE_KEYS;
use super::ctx::{Ctx, join};
use crate::base::yaml::Node;
use crate::engine::position::Start;

/// The start the table gives, from the rules' number of `players` where it names none.
pub(super) fn read_table(cx: &mut Ctx, node: Option<&Node>, players: u8) -> Start {
    let mut start = Start {
        players,
        ..Start::default()
    };
    if let Some(node) = node {
        for (key, v) in cx.map(node, "table", &TABLE_KEYS, "the table") {
            let p = join("table", &key);
            match key.as_str() {
                "players" => {
                    if let Some(n) = cx.int(v, &p, 2, 12) {
                        start.players = n as u8;
                    }
                }
                "dealer" => {
                    if let Some(n) = cx.int(v, &p, 0, 11) {
                        start.dealer = n as u8;
                    }
                }
                "round" => {
                    if let Some(n) = cx.int(v, &p, 1, 20) {
                        start.round = n as usize - 1;
                    }
                }
                _ => read_scores(cx, v, &p, &mut start.scores),
            }
        }
    }
    start
}

/// `scores`: one row per earlier hand, the points of each side.
fn read_scores(cx: &mut Ctx, v: &Node, p: &str, scores: &mut Vec<Vec<i64>>) {
    if let Some(items) = cx.list(v, p, "the scores (one row per earlier hand)") {
        for (i, row) in items.iter().enumerate() {
            let rp = format!("{p}[{i}]");
            if let Some(cells) = cx.list(row, &rp, "a score row (points per side)") {
                let mut r = Vec::new();
                for (j, c) in cells.iter().enumerate() {
                    if let Some(x) = cx.int(c, &format!("{rp}[{j}]"), -1_000_000, 1_000_000) {
                        r.push(x);
                    }
                }
                scores.push(r);
            }
        }
    }
}
