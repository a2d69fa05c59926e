//! Single questions to the reference, without a game: is this a meld (and what can it mean), do
//! these melds meet deal N's contract, can this hand meet it (and with what), what do these cards
//! score, can this card be laid off on this meld, which cards may this position discard.
//!
//! A question is a JSON object `{"type": "query", "question": KIND, …}`; its answer is
//! `{"type": "answer", "question": KIND, …}` (conformance/README.md, *Questions*). The rules are
//! those of the last `{"type": "rules", …}` message. The same text is spoken by `serve` (between
//! games), read in batches by `push-rummy query`, asked at random by `conform --queries`
//! ([`generate`]) and written down as the test vectors of `conformance/vectors/` ([`vectors`]).
//!
//! Every answer comes from the code the engine plays with: the meld oracle, the contract check and
//! search, the card values, and for lay-offs and discards the engine itself, set up at a position
//! that asks exactly that question.

pub mod generate;
pub mod vectors;

use crate::base::card::{Card, Counts};
use crate::engine::action_text::parse_meld_spec;
use crate::engine::game::{Action, Game, MeldSpec, Stage, pack};
use crate::engine::position::{Position, Rest, Start};
use crate::oracle::contract;
use crate::oracle::meld::{self, Query};
use crate::rules::disputes::DisputeId;
use crate::rules::spec::MeldKind;
use crate::rules::{self, Loaded, Rules};
use crate::suite::protocol::{
    bad, card_list, compile_rules, error, game_from_start, get, get_str, get_u64,
    raw_rules_from_json, shown,
};
use crate::suite::transcript::reading_text;
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// The kinds of question, in the order the documentation lists them.
pub const KINDS: [&str; 6] = [
    "meld", "contract", "laydown", "score", "lay-off", "discards",
];

/// What a case of each kind compares, and what the rest of its answer is.
pub const COMPARE: [(&str, &[&str], &str); 6] = [
    (
        "meld",
        &["valid", "readings"],
        "`readings` lists what the cards can be read as (`set 7`, `run H 6-8`; `*` for a run of any suits), each once, sorted",
    ),
    ("contract", &["meets"], ""),
    (
        "laydown",
        &["possible"],
        "`melds` is one laydown the reference found: another may be as good (check it with a `contract` question)",
    ),
    ("score", &["points"], ""),
    ("lay-off", &["fits"], ""),
    (
        "discards",
        &["cards"],
        "`cards` is a set, in canonical order",
    ),
];

/// The most cards a hand may hold in a `laydown` question.
pub const MAX_HAND: usize = 40;

/// One question.
#[derive(Clone, Debug, PartialEq)]
pub enum Question {
    /// Is this a meld (of this kind, where given), and what can it mean?
    Meld {
        cards: Vec<Card>,
        kind: Option<MeldKind>,
    },
    /// Do these melds, laid together, meet deal `round`'s contract (from 1)?
    Contract { round: usize, melds: Vec<Vec<Card>> },
    /// Can this hand meet deal `round`'s contract, and with what?
    Laydown { round: usize, hand: Vec<Card> },
    /// What do these cards, left in a hand, score?
    Score { cards: Vec<Card> },
    /// Can this card be laid off on this meld (a table meld, in the action notation)?
    LayOff { meld: MeldSpec, card: Card },
    /// Which cards may the seat to play discard at this position (the fields of a `start`
    /// message: `players`, `dealer`, `round`, `position`, …)?
    Discards { position: Value },
}

fn kind_of(v: &Value) -> Result<Option<MeldKind>, String> {
    match v.get("kind") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s == "set" => Ok(Some(MeldKind::Set)),
        Some(Value::String(s)) if s == "run" => Ok(Some(MeldKind::Run)),
        Some(other) => Err(bad(
            "kind",
            format!("expected \"set\" or \"run\", got {}", shown(other)),
        )),
    }
}

fn cards_json(c: &[Card]) -> Value {
    Value::Array(c.iter().map(|c| Value::String(c.to_string())).collect())
}

fn round_of(v: &Value) -> Result<usize, String> {
    let r = get_u64(v, "round")?;
    if r == 0 {
        return Err(bad("round", "deals are numbered from 1"));
    }
    usize::try_from(r).map_err(|_| bad("round", "too large"))
}

impl Question {
    /// Reads a `query` message.
    ///
    /// # Errors
    /// A field missing or wrong: which, and what is wrong with it.
    pub fn parse(msg: &Value) -> Result<Question, String> {
        let kind = get_str(msg, "question")?;
        Ok(match kind {
            "meld" => Question::Meld {
                cards: card_list(get(msg, "cards")?, "cards")?,
                kind: kind_of(msg)?,
            },
            "contract" => {
                let melds = get(msg, "melds")?
                    .as_array()
                    .ok_or_else(|| bad("melds", "expected a list of melds, each a list of cards"))?
                    .iter()
                    .enumerate()
                    .map(|(i, m)| card_list(m, &format!("melds[{i}]")))
                    .collect::<Result<Vec<_>, _>>()?;
                Question::Contract {
                    round: round_of(msg)?,
                    melds,
                }
            }
            "laydown" => Question::Laydown {
                round: round_of(msg)?,
                hand: card_list(get(msg, "hand")?, "hand")?,
            },
            "score" => Question::Score {
                cards: card_list(get(msg, "cards")?, "cards")?,
            },
            "lay-off" => {
                let text = get_str(msg, "meld")?;
                let meld = parse_meld_spec(text).map_err(|e| bad("meld", e))?;
                let card = get_str(msg, "card")?
                    .parse::<Card>()
                    .map_err(|e| bad("card", e))?;
                Question::LayOff { meld, card }
            }
            "discards" => {
                get(msg, "position")?;
                let mut position = msg.clone();
                if let Some(o) = position.as_object_mut() {
                    for k in ["type", "question", "id"] {
                        o.remove(k);
                    }
                }
                Question::Discards { position }
            }
            other => {
                return Err(bad(
                    "question",
                    format!(
                        "unknown question {} ({})",
                        shown(&Value::String(other.into())),
                        KINDS.join(", ")
                    ),
                ));
            }
        })
    }

    /// The kind of question (one of [`KINDS`]).
    pub fn kind(&self) -> &'static str {
        match self {
            Question::Meld { .. } => "meld",
            Question::Contract { .. } => "contract",
            Question::Laydown { .. } => "laydown",
            Question::Score { .. } => "score",
            Question::LayOff { .. } => "lay-off",
            Question::Discards { .. } => "discards",
        }
    }

    /// The `query` message that asks it.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("type".into(), json!("query"));
        m.insert("question".into(), json!(self.kind()));
        match self {
            Question::Meld { cards, kind } => {
                m.insert("cards".into(), cards_json(cards));
                if let Some(k) = kind {
                    m.insert("kind".into(), json!(k.name()));
                }
            }
            Question::Contract { round, melds } => {
                m.insert("round".into(), json!(round));
                m.insert(
                    "melds".into(),
                    Value::Array(melds.iter().map(|x| cards_json(x)).collect()),
                );
            }
            Question::Laydown { round, hand } => {
                m.insert("round".into(), json!(round));
                m.insert("hand".into(), cards_json(hand));
            }
            Question::Score { cards } => {
                m.insert("cards".into(), cards_json(cards));
            }
            Question::LayOff { meld, card } => {
                m.insert(
                    "meld".into(),
                    json!(crate::suite::protocol::meld_text(meld)),
                );
                m.insert("card".into(), json!(card.to_string()));
            }
            Question::Discards { position } => {
                for (k, v) in position.as_object().into_iter().flatten() {
                    if k != "type" && k != "question" && k != "id" {
                        m.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        Value::Object(m)
    }

    /// How many cards the question is about: the measure of a smaller example.
    pub fn size(&self) -> usize {
        match self {
            Question::Meld { cards, .. } | Question::Score { cards } => cards.len(),
            Question::Contract { melds, .. } => melds.iter().map(Vec::len).sum(),
            Question::Laydown { hand, .. } => hand.len(),
            Question::LayOff { meld, .. } => meld.cards.len() + 1,
            Question::Discards { position } => position
                .pointer("/position/hands")
                .and_then(Value::as_array)
                .map_or(0, |h| {
                    h.iter().map(|x| x.as_array().map_or(0, Vec::len)).sum()
                }),
        }
    }

    /// The question in a line, for people: `meld [7S 7S 7H]`.
    pub fn text(&self) -> String {
        let cards = |c: &[Card]| {
            format!(
                "[{}]",
                c.iter().map(Card::to_string).collect::<Vec<_>>().join(" ")
            )
        };
        match self {
            Question::Meld { cards: c, kind } => match kind {
                Some(k) => format!("meld {} as a {}", cards(c), k.name()),
                None => format!("meld {}", cards(c)),
            },
            Question::Contract { round, melds } => format!(
                "contract of deal {round}: {}",
                melds.iter().map(|m| cards(m)).collect::<Vec<_>>().join(" ")
            ),
            Question::Laydown { round, hand } => {
                format!("laydown for deal {round} from {}", cards(hand))
            }
            Question::Score { cards: c } => format!("score {}", cards(c)),
            Question::LayOff { meld, card } => format!(
                "lay-off {card} on {}",
                crate::suite::protocol::meld_text(meld)
            ),
            Question::Discards { position } => {
                let p = &position["position"];
                let turn = p["turn"].as_u64().unwrap_or(0);
                let hand: Vec<String> = p["hands"][turn as usize]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|c| c.as_str().map(str::to_string))
                    .collect();
                format!(
                    "discards of seat {turn} holding [{}] with {} meld(s) on the table",
                    hand.join(" "),
                    p["table"].as_array().map_or(0, Vec::len)
                )
            }
        }
    }

    /// The questions one card smaller (one card left out in each way), for shrinking an example.
    /// A lay-off loses a card of its meld; a discards question does not shrink.
    pub fn smaller(&self) -> Vec<Question> {
        fn without(c: &[Card], i: usize) -> Vec<Card> {
            let mut v = c.to_vec();
            v.remove(i);
            v
        }
        let each = |c: &[Card]| (0..c.len()).map(|i| without(c, i)).collect::<Vec<_>>();
        match self {
            Question::Meld { cards, kind } => each(cards)
                .into_iter()
                .filter(|c| !c.is_empty())
                .map(|cards| Question::Meld { cards, kind: *kind })
                .collect(),
            Question::Score { cards } => each(cards)
                .into_iter()
                .map(|cards| Question::Score { cards })
                .collect(),
            Question::Laydown { round, hand } => each(hand)
                .into_iter()
                .map(|hand| Question::Laydown {
                    round: *round,
                    hand,
                })
                .collect(),
            Question::Contract { round, melds } => {
                let mut out = Vec::new();
                for m in 0..melds.len() {
                    let mut fewer = melds.clone();
                    fewer.remove(m);
                    if !fewer.is_empty() {
                        out.push(Question::Contract {
                            round: *round,
                            melds: fewer,
                        });
                    }
                    for smaller in each(&melds[m]).into_iter().filter(|c| !c.is_empty()) {
                        let mut v = melds.clone();
                        v[m] = smaller;
                        out.push(Question::Contract {
                            round: *round,
                            melds: v,
                        });
                    }
                }
                out
            }
            Question::LayOff { meld, card } => (0..meld.cards.len())
                .filter(|_| meld.cards.len() > 1)
                .map(|i| {
                    let gone = meld.cards[i];
                    let mut declared = meld.declared.clone();
                    if let Some(d) = declared.iter().position(|(c, _)| *c == gone) {
                        declared.remove(d);
                    }
                    Question::LayOff {
                        meld: MeldSpec {
                            cards: without(&meld.cards, i),
                            kind: meld.kind,
                            declared,
                        },
                        card: *card,
                    }
                })
                .collect(),
            Question::Discards { .. } => Vec::new(),
        }
    }
}

/// The answer of the reference under `loaded`: the `answer` message.
///
/// # Errors
/// A question the rules cannot ask (a deal they do not have, a meld or position that is not
/// one), in words.
pub fn answer(loaded: &Loaded, q: &Question) -> Result<Value, String> {
    let rules = &loaded.rules;
    let mut m = Map::new();
    m.insert("type".into(), json!("answer"));
    m.insert("question".into(), json!(q.kind()));
    match q {
        Question::Meld { cards, kind } => {
            if cards.len() > meld::MAX_MELD_CARDS {
                return Err(bad(
                    "cards",
                    format!(
                        "{} cards: a meld holds at most {}",
                        cards.len(),
                        meld::MAX_MELD_CARDS
                    ),
                ));
            }
            let mut readings = Vec::new();
            if rules.pack_problem(cards).is_none() {
                let v = meld::interpret(
                    rules,
                    &Query {
                        cards: cards.clone(),
                        kind: *kind,
                        declared: Vec::new(),
                    },
                );
                // What the cards can be read as, each once (`set 7`, `run H 6-8`): not which
                // wild takes which place, whose orderings can run to thousands.
                readings = v
                    .interpretations
                    .iter()
                    .map(|i| {
                        let t = reading_text(i);
                        t.split_once(':')
                            .map_or(t.clone(), |(head, _)| head.to_string())
                    })
                    .collect();
                readings.sort();
                readings.dedup();
                if v.truncated {
                    m.insert("truncated".into(), json!(true));
                }
            }
            m.insert("valid".into(), json!(!readings.is_empty()));
            m.insert("readings".into(), json!(readings));
        }
        Question::Contract { round, melds } => {
            let contract = &round_rules(rules, *round)?.contract;
            let all: Vec<Card> = melds.iter().flatten().copied().collect();
            if melds.iter().any(|x| x.len() > meld::MAX_MELD_CARDS) {
                return Err(bad("melds", "a meld holds at most 64 cards"));
            }
            let meets = !melds.is_empty()
                && rules.pack_problem(&all).is_none()
                && contract::check(
                    rules,
                    contract,
                    &melds
                        .iter()
                        .map(|x| Query {
                            cards: x.clone(),
                            kind: None,
                            declared: Vec::new(),
                        })
                        .collect::<Vec<_>>(),
                )
                .satisfied;
            m.insert("meets".into(), json!(meets));
        }
        Question::Laydown { round, hand } => {
            let contract = &round_rules(rules, *round)?.contract;
            if hand.len() > MAX_HAND {
                return Err(bad(
                    "hand",
                    format!("{} cards: a hand here holds at most {MAX_HAND}", hand.len()),
                ));
            }
            let found = match rules.pack_problem(hand) {
                Some(_) => None,
                None => contract::laydown(rules, contract, &Counts::from_cards(hand)),
            };
            m.insert("possible".into(), json!(found.is_some()));
            if let Some(l) = found {
                m.insert(
                    "melds".into(),
                    Value::Array(l.melds.iter().map(|(_, c)| cards_json(c)).collect()),
                );
            }
        }
        Question::Score { cards } => {
            if let Some(p) = rules.pack_problem(cards) {
                return Err(bad("cards", p));
            }
            let points: u64 = cards.iter().map(|&c| u64::from(rules.points(c))).sum();
            m.insert("points".into(), json!(points));
        }
        Question::LayOff { meld, card } => {
            m.insert("fits".into(), json!(lay_off_fits(rules, meld, *card)?));
        }
        Question::Discards { position } => {
            let game = game_from_start(loaded, position)?;
            if game.deal.stage != Stage::Play {
                return Err(bad(
                    "position.stage",
                    "a discard is made in the play stage (`\"stage\": \"play\"`)",
                ));
            }
            m.insert(
                "cards".into(),
                cards_json(&game.discard_options(game.deal.turn)),
            );
        }
    }
    Ok(Value::Object(m))
}

fn round_rules(rules: &Rules, round: usize) -> Result<&rules::Round, String> {
    rules.rounds.get(round - 1).ok_or_else(|| {
        bad(
            "round",
            format!("{} has deals 1 to {}", rules.name, rules.rounds.len()),
        )
    })
}

/// Whether `card` may be laid off on `meld`: asked of the engine at a position where the meld is
/// on the table (at the largest table the rules seat), owned by the seat to play, which has met
/// the contract, drawn, and holds the card and one card more (so the lay-off is not its last
/// card); any form of the lay-off (a wild with each meaning it may declare) counts.
fn lay_off_fits(rules: &Rules, spec: &MeldSpec, card: Card) -> Result<bool, String> {
    // The largest table: its pack is the one `Rules::pack_problem` measures cards against.
    let players = rules.players.1;
    let mut left = Counts::from_cards(&pack(rules, players));
    for &c in spec.cards.iter().chain([&card]) {
        if !left.remove(c) {
            return Err(
                match rules.pack_problem(&[spec.cards.as_slice(), &[card]].concat()) {
                    Some(p) => bad("meld", p),
                    None => bad("meld", "the cards are not in the pack"),
                },
            );
        }
    }
    let mut spare = left.cards().into_iter();
    let mut next = || {
        spare
            .next()
            .ok_or_else(|| bad("meld", "the pack has no cards to spare"))
    };
    let mut hands = vec![vec![card, next()?]];
    for _ in 1..players {
        hands.push(vec![next()?]);
    }
    let pos = Position {
        hands,
        stock: Vec::new(),
        discard: vec![next()?],
        rest: Rest::Stock,
        table: vec![(0, spec.clone())],
        contract_met: Some(vec![0]),
        turn: Some(0),
        stage: Stage::Play,
        taken: None,
        buys: Vec::new(),
        window: None,
    };
    let start = Start {
        players,
        dealer: players - 1,
        ..Start::default()
    };
    let game = Game::from_position(Arc::new(rules.clone()), &start, &pos)
        .map_err(|e| bad("meld", e.message))?;
    Ok(game
        .lay_off_forms(0, card, None)
        .iter()
        .any(|a| matches!(a, Action::LayOff { .. }) && game.accepts(0, a)))
}

/// What answers questions: the rules of the last `rules` message (with `serve`'s readings over
/// them), or the rules it started with.
pub struct Asker {
    loaded: Option<Loaded>,
    /// Readings applied over every rules message (`serve --reading`).
    overrides: Vec<(DisputeId, String)>,
    /// Rules that replace every rules message (`serve --rules`).
    fixed: bool,
}

impl Asker {
    /// An asker with these rules (if any) to begin with; `fixed`: `rules` messages are answered
    /// but change nothing (`serve --rules`).
    pub fn new(loaded: Option<Loaded>, overrides: Vec<(DisputeId, String)>, fixed: bool) -> Asker {
        Asker {
            loaded,
            overrides,
            fixed,
        }
    }

    /// The rules questions are answered under.
    pub fn rules(&self) -> Option<&Loaded> {
        self.loaded.as_ref()
    }

    /// Answers a `rules` or `query` message; `None` for any other type.
    pub fn handle(&mut self, msg: &Value) -> Option<Value> {
        let reply = match msg.get("type").and_then(Value::as_str)? {
            "rules" => match self.set_rules(msg) {
                Ok(()) => json!({"type": "ok"}),
                Err(e) => error(e),
            },
            "query" => {
                let reply = match (&self.loaded, Question::parse(msg)) {
                    (_, Err(e)) => error(e),
                    (None, _) => error("no rules: send a `rules` message first"),
                    (Some(l), Ok(q)) => answer(l, &q).unwrap_or_else(error),
                };
                with_id(reply, msg)
            }
            _ => return None,
        };
        Some(reply)
    }

    /// The answer to one line of a batch (`push-rummy query`): a `query` or `rules` message, or
    /// an `error` that says what is wrong with the line.
    pub fn answer_line(&mut self, line: &str) -> Value {
        match serde_json::from_str::<Value>(line) {
            Ok(msg) => self.handle(&msg).unwrap_or_else(|| {
                error("`type`: expected \"query\" or \"rules\" (one question per line)")
            }),
            Err(e) => error(format!("not JSON: {e}")),
        }
    }

    fn set_rules(&mut self, msg: &Value) -> Result<(), String> {
        if self.fixed {
            return Ok(());
        }
        let loaded = match get(msg, "rules")? {
            Value::String(name) => {
                let names: Vec<&str> = rules::BUILT_IN.iter().map(|b| b.0).collect();
                if !names.contains(&name.as_str()) {
                    return Err(bad(
                        "rules",
                        format!(
                            "`{name}` is not a built-in rule set ({}); send the rules' values instead",
                            names.join(", ")
                        ),
                    ));
                }
                rules::load(name, &self.overrides).map_err(|e| e.render())?
            }
            v => compile_rules(raw_rules_from_json(v)?, &self.overrides)?,
        };
        self.loaded = Some(loaded);
        Ok(())
    }
}

/// A reply carrying the question's `id`, where it had one.
fn with_id(mut reply: Value, msg: &Value) -> Value {
    if let (Some(id), Some(o)) = (msg.get("id"), reply.as_object_mut()) {
        o.insert("id".into(), id.clone());
    }
    reply
}

#[cfg(test)]
mod tests;
