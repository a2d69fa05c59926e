//! The conformance protocol (version [`VERSION`], and 1 before it: [`VERSIONS`]): JSON lines
//! between a harness and an implementation started as a subprocess. Documented in
//! `conformance/README.md` ("The protocol"). Version 2 adds to `hello`'s reply what the
//! implementation reports ([`CAPABILITIES`]).
//!
//! This module holds what both sides share: the limits, the `start` message built from a game
//! (the resolved rules as their key/value listing, the table, and the cards as an explicit
//! position), the reconstruction of a game from a `start` message, and [`Server`], the reference
//! engine answering the protocol (`push-rummy serve`, and the built-in implementation of
//! `push-rummy conform`).

use crate::base::card::Card;
use crate::base::yaml::Pos;
use crate::engine::action_text::{parse_action, parse_meld_spec};
use crate::engine::game::{Action, Game, MeldSpec, Stage};
use crate::engine::observe::observe;
use crate::engine::position::{Position, Rest, Start};
use crate::rules::disputes::DisputeId;
use crate::rules::spec::{self, Entry, Leaf, Origin, RawRules, RoundSpec, Ty};
use crate::rules::{self, Loaded};
use crate::suite::transcript::{self, event_json, reading_text, rules_listing};
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// The newest protocol version this harness and server speak; they speak [`VERSIONS`].
pub const VERSION: u64 = 2;
/// The versions spoken: 1, and 2, whose `hello` reply declares what the implementation reports
/// ([`CAPABILITIES`]).
pub const VERSIONS: [u64; 2] = [1, 2];
/// What an implementation may declare it reports in its `hello` reply of protocol 2 (`reports`),
/// with what the harness leaves uncompared where it is not declared. Hands, stock, discard pile,
/// table cards and totals are compared whatever it declares.
pub const CAPABILITIES: [(&str, &str); 6] = [
    ("reason-codes", "the reason codes of refused actions"),
    ("events", "the events of accepted actions"),
    ("readings", "meld readings"),
    ("legal", "legal-action lists"),
    ("observe", "observations"),
    (
        "rescue-wild",
        "play after a rescue (the implementation picks the rescued wild itself)",
    ),
];
/// The longest line either side may send, in bytes (without the newline).
pub const MAX_LINE: usize = 1 << 20;
/// The default time the harness waits for one reply, in milliseconds.
pub const DEFAULT_TIMEOUT_MS: u64 = 10_000;

/// The resolved rules as the protocol sends them: `{game, name, fingerprint, values}` where
/// `values` maps every rule path of the fingerprint listing to its value text.
pub fn rules_json(loaded: &Loaded) -> Value {
    let mut values = Map::new();
    for line in rules_listing(&loaded.raw).lines() {
        if let Some((k, v)) = line.split_once('=') {
            values.insert(k.to_string(), Value::String(v.to_string()));
        }
    }
    json!({
        "game": loaded.rules.game,
        "name": loaded.rules.name,
        "fingerprint": transcript::fingerprint(&loaded.raw),
        "values": values,
    })
}

fn cards_json(c: &[Card]) -> Vec<String> {
    c.iter().map(Card::to_string).collect()
}

/// A table meld as a spec: its cards, its kind (unless its readings differ in kind) and, when one
/// reading is left, what each wild stands for (a wild-capable card standing for itself, like a
/// natural 2 in its place, is declared too: otherwise it could be read as a wild again). A meld
/// that keeps several readings (`wild-declaration=never`) is pinned down by its reading texts
/// instead: [`start_message`] sends them and [`game_from_start`] keeps exactly those.
pub fn table_meld_spec(
    rules: &crate::rules::Rules,
    m: &crate::engine::game::TableMeld,
) -> MeldSpec {
    let kind = m.interps.first().map(|i| i.kind);
    let kind = kind.filter(|&k| m.interps.iter().all(|i| i.kind == k));
    let declared = if m.interps.len() == 1 {
        m.interps[0]
            .roles
            .iter()
            .filter(|r| !r.natural || rules.is_wild(r.card))
            .map(|r| (r.card, r.stands_for))
            .collect()
    } else {
        Vec::new()
    };
    MeldSpec {
        cards: m.cards.clone(),
        kind,
        declared,
    }
}

/// The text of one meld spec (`run [6H 7H JK JK=8H]`).
pub fn meld_text(spec: &MeldSpec) -> String {
    Action::Meld(vec![spec.clone()])
        .to_string()
        .trim_start_matches("meld ")
        .to_string()
}

/// The `start` message for `game` (rules `loaded`): the game as it stands, as an explicit position.
pub fn start_message(loaded: &Loaded, game: &Game) -> Value {
    let d = &game.deal;
    let table: Vec<Value> = d
        .table
        .iter()
        .map(|m| {
            json!({
                "owner": m.owner,
                "meld": meld_text(&table_meld_spec(&game.rules, m)),
                "cards": cards_json(&m.cards),
                "readings": m.interps.iter().map(reading_text).collect::<Vec<_>>(),
            })
        })
        .collect();
    let met: Vec<u8> = d
        .progress
        .iter()
        .enumerate()
        .filter(|(_, p)| p.done)
        .map(|(s, _)| s as u8)
        .collect();
    let mut msg = json!({
        "type": "start",
        "protocol": VERSION,
        "rules": rules_json(loaded),
        "players": game.players,
        "dealer": game.dealer,
        "round": game.round + 1,
        "scores": game.results.iter().map(|r| r.points.clone()).collect::<Vec<_>>(),
        "generator": game.rng.state().to_string(),
        "decks": game.decks.iter().map(|d| cards_json(d)).collect::<Vec<_>>(),
        "position": {
            "turn": d.turn,
            "stage": match d.stage { Stage::Draw => "draw", Stage::Play => "play", Stage::Buy => "buy", Stage::Over => "over" },
            "taken": d.taken.map(|c| c.to_string()),
            "hands": d.hands.iter().map(|h| cards_json(&h.cards())).collect::<Vec<_>>(),
            "stock": d.stock.iter().rev().map(Card::to_string).collect::<Vec<_>>(),
            "discard": d.discard.iter().rev().map(Card::to_string).collect::<Vec<_>>(),
            "table": table,
            "contract_met": met,
        },
    });
    // Only where the rules allow buying: the buys made this hand and an open buy window.
    if game.rules.buying.is_some()
        && let Some(p) = msg.get_mut("position").and_then(Value::as_object_mut)
    {
        p.insert("buys".into(), json!(d.buys));
        p.insert("window".into(), json!(d.window));
    }
    msg
}

/// A protocol message that cannot be understood: the field and what is wrong.
pub(crate) fn bad(field: &str, what: impl std::fmt::Display) -> String {
    format!("`{field}`: {what}")
}

pub(crate) fn get<'a>(v: &'a Value, field: &str) -> Result<&'a Value, String> {
    v.get(field).ok_or_else(|| bad(field, "missing"))
}

pub(crate) fn get_u64(v: &Value, field: &str) -> Result<u64, String> {
    get(v, field)?
        .as_u64()
        .ok_or_else(|| bad(field, "expected a non-negative integer"))
}

pub(crate) fn get_str<'a>(v: &'a Value, field: &str) -> Result<&'a str, String> {
    get(v, field)?
        .as_str()
        .ok_or_else(|| bad(field, "expected a string"))
}

pub(crate) fn card_list(v: &Value, field: &str) -> Result<Vec<Card>, String> {
    let items = v
        .as_array()
        .ok_or_else(|| bad(field, "expected a list of cards"))?;
    items
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let s = c
                .as_str()
                .ok_or_else(|| bad(&format!("{field}[{i}]"), "expected a card like \"10H\""))?;
            s.parse::<Card>()
                .map_err(|e| bad(&format!("{field}[{i}]"), e))
        })
        .collect()
}

fn seat_of(v: &Value, field: &str, players: u8) -> Result<u8, String> {
    let n = v
        .as_u64()
        .ok_or_else(|| bad(field, "expected a seat number"))?;
    if n >= u64::from(players) {
        return Err(bad(
            field,
            format!("seat {n} is not one of {players} seats"),
        ));
    }
    Ok(n as u8)
}

/// The rules of a `start` message as raw rules (every path of the listing, typed by the rule table).
///
/// # Errors
/// An unknown rule path or a value of the wrong type.
pub fn raw_rules_from_json(rules: &Value) -> Result<RawRules, String> {
    let values = get(rules, "values")?.as_object().ok_or_else(|| {
        bad(
            "rules.values",
            "expected a map from rule path to value text",
        )
    })?;
    let origin = Origin {
        file: "protocol".into(),
        pos: Pos::default(),
    };
    let mut raw = RawRules::default();
    let entry = |value: Leaf| Entry {
        value,
        sources: None,
        note: None,
        origin: origin.clone(),
    };
    for key in ["game", "name"] {
        if let Some(s) = rules.get(key).and_then(Value::as_str) {
            raw.entries.insert(key.into(), entry(Leaf::Text(s.into())));
        }
    }
    if raw.get("game").is_none() {
        raw.entries
            .insert("game".into(), entry(Leaf::Text("protocol".into())));
    }
    for (path, v) in values {
        let field = format!("rules.values.{path}");
        let text = v
            .as_str()
            .ok_or_else(|| bad(&field, "expected the value as text, as in the listing"))?;
        let def = spec::rule_def(path).ok_or_else(|| bad(&field, "unknown rule"))?;
        let leaf = match &def.ty {
            Ty::Text => Leaf::Text(text.into()),
            Ty::Limit { word, .. } if text == *word => Leaf::Choice(text.into()),
            // As the listing writes it: `2-4:2,3;5:3,4`.
            Ty::DeckTiers => {
                let mut tiers = Vec::new();
                for part in text.split(';').filter(|p| !p.trim().is_empty()) {
                    let tier = || -> Option<spec::DeckTier> {
                        let (players, pack) = part.split_once(':')?;
                        let (from, to) = players.split_once('-').unwrap_or((players, players));
                        let (decks, jokers) = pack.split_once(',')?;
                        Some(spec::DeckTier {
                            from: from.trim().parse().ok()?,
                            to: to.trim().parse().ok()?,
                            standard_decks: decks.trim().parse().ok()?,
                            jokers: jokers.trim().parse().ok()?,
                        })
                    };
                    tiers.push(tier().ok_or_else(|| {
                        bad(&field, format!("`{part}` is not PLAYERS:DECKS,JOKERS"))
                    })?);
                }
                Leaf::DeckTiers(tiers)
            }
            Ty::Int { .. } | Ty::Limit { .. } => Leaf::Int(
                text.parse()
                    .map_err(|_| bad(&field, format!("`{text}` is not an integer")))?,
            ),
            Ty::Bool => match text {
                "true" => Leaf::Bool(true),
                "false" => Leaf::Bool(false),
                _ => return Err(bad(&field, format!("`{text}` is not true or false"))),
            },
            Ty::Choice(_) | Ty::Reading(_) => Leaf::Choice(text.into()),
            // As the listing writes them: `wilds,taken-card`; `relax:taken-card,twos`.
            Ty::List(_) => Leaf::List(names(text)),
            Ty::WhenNone(..) => match text.strip_prefix("relax:") {
                Some(rest) => Leaf::Relax(names(rest)),
                None => Leaf::Choice(text.into()),
            },
            Ty::PlayerRange => {
                let (a, b) = text.split_once('-').unwrap_or((text, text));
                match (a.trim().parse::<u8>(), b.trim().parse::<u8>()) {
                    (Ok(a), Ok(b)) => Leaf::Range(a, b),
                    _ => return Err(bad(&field, format!("`{text}` is not a player count"))),
                }
            }
            Ty::Rounds => {
                let mut rounds = Vec::new();
                for part in text.split(';').filter(|p| !p.trim().is_empty()) {
                    let (deal, contract) = part
                        .split_once(':')
                        .ok_or_else(|| bad(&field, format!("`{part}` is not DEAL:CONTRACT")))?;
                    let deal: u8 = deal
                        .trim()
                        .parse()
                        .map_err(|_| bad(&field, format!("`{deal}` is not a deal size")))?;
                    let (contract, all_at_once) = match contract.strip_suffix(":all-at-once") {
                        Some(c) => (c, true),
                        None => (contract, false),
                    };
                    let contract = contract
                        .split(',')
                        .map(|c| {
                            spec::parse_component(c)
                                .ok_or_else(|| {
                                    bad(
                                        &field,
                                        format!(
                                            "`{c}` is not a contract meld (`set of N`, `run of N`, `set of N RANKS`)"
                                        ),
                                    )
                                })
                        })
                        .collect::<Result<Vec<_>, _>>()?;
                    rounds.push(RoundSpec {
                        deal,
                        contract_pos: vec![Pos::default(); contract.len()],
                        contract,
                        deal_pos: Pos::default(),
                        all_at_once,
                    });
                }
                Leaf::Rounds(rounds)
            }
        };
        raw.entries.insert(path.clone(), entry(leaf));
    }
    Ok(raw)
}

/// The names of a listed list value, `a,b` (none for the empty text).
fn names(text: &str) -> Vec<String> {
    text.split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(str::to_string)
        .collect()
}

/// Compiles raw rules (a `start` message's, with `readings` applied over them).
///
/// # Errors
/// Rules that do not compile, rendered as text.
pub fn compile_rules(
    mut raw: RawRules,
    readings: &[(DisputeId, String)],
) -> Result<Loaded, String> {
    for (id, name) in readings {
        let origin = Origin {
            file: "--reading".into(),
            pos: Pos::default(),
        };
        raw.set_reading(*id, name, origin, None);
    }
    let text = spec::render(&raw, "");
    rules::load_text("protocol", &text, std::path::Path::new("."))
        .map_err(|e| format!("the rules do not load:\n{}", e.render()))
}

/// Sets up the game of a `start` message under `loaded`.
///
/// # Errors
/// A field missing or wrong, or a position that does not fit the rules.
pub fn game_from_start(loaded: &Loaded, msg: &Value) -> Result<Game, String> {
    let start = start_of(msg)?;
    let p = get(msg, "position")?;
    let (pos, readings) = position_of(p, start.players)?;
    let mut game =
        Game::from_position(Arc::new(loaded.rules.clone()), &start, &pos).map_err(|e| e.message)?;
    keep_readings(&mut game, &readings)?;
    Ok(game)
}

/// The table and the cards of a `start` message: players, dealer, deal, the scores of the hands
/// before it, the generator and the pack orders.
fn start_of(msg: &Value) -> Result<Start, String> {
    let players = get_u64(msg, "players")?;
    let players = u8::try_from(players).map_err(|_| bad("players", "too many"))?;
    if players == 0 {
        return Err(bad("players", "no players"));
    }
    let dealer = seat_of(get(msg, "dealer")?, "dealer", players)?;
    let round = get_u64(msg, "round")?;
    if round == 0 {
        return Err(bad("round", "deals are numbered from 1"));
    }
    let mut scores = Vec::new();
    if let Some(rows) = msg.get("scores") {
        for (i, row) in rows
            .as_array()
            .ok_or_else(|| bad("scores", "expected a list of rows"))?
            .iter()
            .enumerate()
        {
            let cells = row
                .as_array()
                .ok_or_else(|| bad(&format!("scores[{i}]"), "expected a list of points"))?;
            let mut r = Vec::new();
            for (j, c) in cells.iter().enumerate() {
                let p = c
                    .as_i64()
                    .filter(|p| p.abs() <= 1_000_000)
                    .ok_or_else(|| bad(&format!("scores[{i}][{j}]"), "expected points"))?;
                r.push(p);
            }
            scores.push(r);
        }
    }
    let seed = match msg.get("generator") {
        None | Some(Value::Null) => 0,
        Some(Value::String(s)) => s.parse::<u64>().map_err(|_| {
            bad(
                "generator",
                format!("`{s}` is not a 64-bit unsigned integer"),
            )
        })?,
        Some(v) => v
            .as_u64()
            .ok_or_else(|| bad("generator", "expected a decimal string"))?,
    };
    let mut decks = Vec::new();
    if let Some(ds) = msg.get("decks") {
        for (i, d) in ds
            .as_array()
            .ok_or_else(|| bad("decks", "expected a list of pack orders"))?
            .iter()
            .enumerate()
        {
            decks.push(card_list(d, &format!("decks[{i}]"))?);
        }
    }
    Ok(Start {
        players,
        dealer,
        round: round as usize - 1,
        seed,
        scores,
        decks,
    })
}

/// The `position` of a `start` message (`p`), and per table meld the readings it keeps, where
/// given.
fn position_of(p: &Value, players: u8) -> Result<(Position, KeptReadings), String> {
    let hands_v = get(p, "hands")?
        .as_array()
        .ok_or_else(|| bad("position.hands", "expected one list of cards per seat"))?;
    let mut hands = Vec::new();
    for (i, h) in hands_v.iter().enumerate() {
        hands.push(card_list(h, &format!("position.hands[{i}]"))?);
    }
    let stock = card_list(get(p, "stock")?, "position.stock")?;
    let discard = card_list(get(p, "discard")?, "position.discard")?;
    let (table, readings) = table_of(p, players)?;
    let contract_met = match p.get("contract_met") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_array()
                .ok_or_else(|| bad("position.contract_met", "expected a list of seats"))?
                .iter()
                .map(|s| seat_of(s, "position.contract_met", players))
                .collect::<Result<Vec<_>, _>>()?,
        ),
    };
    let turn = match p.get("turn") {
        None | Some(Value::Null) => None,
        Some(v) => Some(seat_of(v, "position.turn", players)?),
    };
    let stage = match p.get("stage").and_then(Value::as_str) {
        None | Some("draw") => Stage::Draw,
        Some("play") => Stage::Play,
        Some("buy") => Stage::Buy,
        Some(s) => {
            return Err(bad(
                "position.stage",
                format!("`{s}` is not draw, play or buy"),
            ));
        }
    };
    let taken = match p.get("taken") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.parse::<Card>().map_err(|e| bad("position.taken", e))?),
        Some(_) => return Err(bad("position.taken", "expected a card or null")),
    };
    let buys = match p.get("buys") {
        None | Some(Value::Null) => Vec::new(),
        Some(v) => v
            .as_array()
            .ok_or_else(|| bad("position.buys", "expected one count per seat"))?
            .iter()
            .map(|k| {
                k.as_u64()
                    .and_then(|k| u8::try_from(k).ok())
                    .ok_or_else(|| bad("position.buys", "expected counts from 0 to 255"))
            })
            .collect::<Result<Vec<_>, _>>()?,
    };
    let window = match p.get("window") {
        None | Some(Value::Null) => None,
        Some(v) => Some(seat_of(v, "position.window", players)?),
    };
    let pos = Position {
        hands,
        stock,
        discard,
        rest: Rest::None,
        table,
        contract_met,
        turn,
        stage,
        taken,
        buys,
        window,
    };
    Ok((pos, readings))
}

/// Per table meld, the readings it keeps, where given.
type KeptReadings = Vec<Option<Vec<String>>>;

/// The table melds of a position (`p`), each with its owner, and the readings each keeps, where
/// given.
fn table_of(p: &Value, players: u8) -> Result<(Vec<(u8, MeldSpec)>, KeptReadings), String> {
    let mut table = Vec::new();
    let mut readings: KeptReadings = Vec::new();
    if let Some(t) = p.get("table") {
        for (i, m) in t
            .as_array()
            .ok_or_else(|| bad("position.table", "expected a list of melds"))?
            .iter()
            .enumerate()
        {
            let f = format!("position.table[{i}]");
            let owner = seat_of(get(m, "owner")?, &format!("{f}.owner"), players)?;
            let text = get_str(m, "meld")?;
            let spec = parse_meld_spec(text).map_err(|e| bad(&format!("{f}.meld"), e))?;
            table.push((owner, spec));
            readings.push(match m.get("readings") {
                None | Some(Value::Null) => None,
                Some(v) => Some(
                    v.as_array()
                        .ok_or_else(|| {
                            bad(&format!("{f}.readings"), "expected a list of readings")
                        })?
                        .iter()
                        .map(|r| {
                            r.as_str().map(str::to_string).ok_or_else(|| {
                                bad(&format!("{f}.readings"), "expected reading texts")
                            })
                        })
                        .collect::<Result<Vec<String>, String>>()?,
                ),
            });
        }
    }
    Ok((table, readings))
}

/// Narrows each table meld to the readings its `readings` list names (all of them must be
/// readings of its cards). A meld whose wilds float (`wild-declaration=never`) may keep fewer
/// readings than its cards allow: those that extend what it was before its lay-offs.
fn keep_readings(game: &mut Game, readings: &[Option<Vec<String>>]) -> Result<(), String> {
    for (i, wanted) in readings.iter().enumerate() {
        let Some(wanted) = wanted else {
            continue;
        };
        let f = format!("position.table[{i}].readings");
        let m = &game.deal.table[i];
        let texts: Vec<String> = m.interps.iter().map(reading_text).collect();
        if let Some(w) = wanted.iter().find(|w| !texts.contains(w)) {
            // The readings of a long meld with many wilds run to thousands: name a few.
            let shown: Vec<&str> = texts.iter().take(5).map(String::as_str).collect();
            let more = match texts.len().saturating_sub(shown.len()) {
                0 => String::new(),
                n => format!("; and {n} more"),
            };
            return Err(bad(
                &f,
                format!(
                    "`{w}` is not a reading of the meld's cards (its readings: {}{more})",
                    shown.join("; ")
                ),
            ));
        }
        if wanted.is_empty() {
            return Err(bad(&f, "a meld keeps at least one reading"));
        }
        let kept: Vec<_> = m
            .interps
            .iter()
            .zip(&texts)
            .filter(|(_, t)| wanted.contains(t))
            .map(|(x, _)| x.clone())
            .collect();
        if kept.len() < m.interps.len() {
            let m = Arc::make_mut(&mut game.deal.table[i]);
            m.interps = kept;
            m.restamp();
        }
    }
    Ok(())
}

/// The reference engine behind the protocol.
pub struct Server {
    game: Option<Game>,
    /// Readings applied over whatever rules the harness sends (`serve --reading`).
    overrides: Vec<(DisputeId, String)>,
    /// Rules used instead of the harness's (`serve --rules`).
    fixed: Option<Loaded>,
    hello: bool,
    /// Single questions (`rules` and `query` messages).
    asker: crate::suite::query::Asker,
}

/// What the server does after a reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum After {
    Continue,
    Quit,
}

/// The actions a `legal` reply lists and `conform` compares (conformance/README.md, *The
/// protocol*): every legal action of the seat to play except new melds and lay-offs of several
/// cards, in canonical notation; that is [`Game::table_actions_bounded`]. New melds and
/// multi-card lay-offs come in canonical forms by the thousand where several wilds are in reach
/// (seconds of listing), and are compared through `apply` instead.
pub fn compared_legal(game: &Game) -> Vec<String> {
    game.table_actions_bounded()
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// An `error` reply. Its message is cut to [`MAX_MESSAGE`] characters: a message may quote the
/// input, and a reply obeys the line limit as the input does.
pub(crate) fn error(msg: impl Into<String>) -> Value {
    let msg = msg.into();
    let msg = if msg.chars().count() > MAX_MESSAGE {
        format!("{}…", msg.chars().take(MAX_MESSAGE).collect::<String>())
    } else {
        msg
    };
    json!({"type": "error", "message": msg})
}

/// The longest message of an `error` reply, in characters.
const MAX_MESSAGE: usize = 2000;

/// A value of the input quoted in a message: its JSON text, cut to 80 characters.
pub(crate) fn shown(v: &Value) -> String {
    let t = v.to_string();
    if t.chars().count() > 80 {
        format!("{}…", t.chars().take(80).collect::<String>())
    } else {
        t
    }
}

impl Server {
    pub fn new(overrides: Vec<(DisputeId, String)>, fixed: Option<Loaded>) -> Server {
        // Under `--rules`, questions are asked under those rules (with the readings over them),
        // whatever `rules` messages say.
        let fixed_questions = fixed.as_ref().and_then(|l| {
            let mut raw = l.raw.clone();
            raw.entries.remove("description");
            compile_rules(raw, &overrides).ok()
        });
        let asker =
            crate::suite::query::Asker::new(fixed_questions, overrides.clone(), fixed.is_some());
        Server {
            game: None,
            overrides,
            fixed,
            hello: false,
            asker,
        }
    }

    /// The game set up by the last accepted `start`, as it stands.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// One message and its reply.
    pub fn handle(&mut self, msg: &Value) -> (Value, After) {
        let kind = match msg.get("type") {
            Some(Value::String(k)) => k.as_str(),
            Some(other) => {
                return (
                    error(format!(
                        "`type`: expected a message type as a string, got {}",
                        shown(other)
                    )),
                    After::Continue,
                );
            }
            None => {
                return (
                    error("`type`: missing (every message has a type)"),
                    After::Continue,
                );
            }
        };
        let reply = match kind {
            "hello" => {
                let v = msg.get("protocol");
                match v.and_then(Value::as_u64).filter(|v| VERSIONS.contains(v)) {
                    Some(version) => {
                        self.hello = true;
                        let mut r = json!({"type": "hello", "protocol": version, "name": "push-rummy (reference)"});
                        if version >= 2 {
                            r["reports"] = json!(CAPABILITIES.map(|(name, _)| name));
                        }
                        r
                    }
                    None => error(format!(
                        "`protocol`: this server speaks protocol 1 or 2, not {}",
                        match v {
                            None => "(missing)".into(),
                            Some(v) if v.as_u64().is_some() => v.to_string(),
                            Some(v) => format!(
                                "{} (a version is a whole number from 1 to {})",
                                shown(v),
                                u64::MAX
                            ),
                        }
                    )),
                }
            }
            "end" => return (json!({"type": "bye"}), After::Quit),
            _ if !self.hello => error("the first message must be `hello`"),
            "rules" | "query" => self.asker.handle(msg).expect("a rules or query message"),
            "start" => self.start(msg),
            "apply" => self.apply(msg),
            "state" => match &self.game {
                Some(g) => json!({"type": "state", "state": transcript::state(g)}),
                None => error("no game: send `start` first"),
            },
            "observe" => match &self.game {
                Some(g) => match msg.get("seat").map(|s| seat_of(s, "seat", g.players)) {
                    Some(Ok(seat)) => {
                        json!({"type": "observation", "observation": observe(g, seat)})
                    }
                    Some(Err(e)) => error(e),
                    None => error(bad("seat", "missing")),
                },
                None => error("no game: send `start` first"),
            },
            "legal" => match &self.game {
                Some(g) => json!({"type": "legal", "actions": compared_legal(g)}),
                None => error("no game: send `start` first"),
            },
            other => error(format!(
                "`type`: unknown message type {} (hello, start, apply, state, observe, legal, rules, query, end)",
                shown(&Value::String(other.into()))
            )),
        };
        (reply, After::Continue)
    }

    fn start(&mut self, msg: &Value) -> Value {
        let loaded = match &self.fixed {
            Some(l) => {
                let mut raw = l.raw.clone();
                raw.entries.remove("description");
                match compile_rules(raw, &self.overrides) {
                    Ok(l) => l,
                    Err(e) => return error(e),
                }
            }
            None => {
                let raw = match get(msg, "rules").and_then(raw_rules_from_json) {
                    Ok(r) => r,
                    Err(e) => return error(e),
                };
                match compile_rules(raw, &self.overrides) {
                    Ok(l) => l,
                    Err(e) => return error(e),
                }
            }
        };
        match game_from_start(&loaded, msg) {
            Ok(g) => {
                self.game = Some(g);
                json!({"type": "ok", "events": []})
            }
            Err(e) => error(e),
        }
    }

    fn apply(&mut self, msg: &Value) -> Value {
        let Some(g) = self.game.as_mut() else {
            return error("no game: send `start` first");
        };
        let seat = match msg.get("seat").map(|s| seat_of(s, "seat", g.players)) {
            Some(Ok(s)) => s,
            Some(Err(e)) => return error(e),
            None => return error(bad("seat", "missing")),
        };
        let text = match get_str(msg, "action") {
            Ok(t) => t,
            Err(e) => return error(e),
        };
        let action = match parse_action(text) {
            Ok(a) => a,
            Err(e) => return error(bad("action", e)),
        };
        match g.apply(seat, &action) {
            Ok(events) => {
                json!({"type": "ok", "events": events.iter().map(event_json).collect::<Vec<_>>()})
            }
            Err(e) => json!({"type": "rejected", "reason": e.code.code(), "message": e.message}),
        }
    }
}

/// Serves the protocol on `input`/`output` until `end` or the end of input. Lines longer than
/// [`MAX_LINE`] or not JSON get an `error` reply; the server carries on.
///
/// # Errors
/// Reading or writing fails.
pub fn serve(
    server: &mut Server,
    input: &mut dyn std::io::BufRead,
    output: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    loop {
        let line = match read_line_limited(input, MAX_LINE)? {
            Line::Eof => return Ok(()),
            Line::TooLong => {
                writeln!(
                    output,
                    "{}",
                    error(format!("the line is longer than {MAX_LINE} bytes"))
                )?;
                output.flush()?;
                continue;
            }
            Line::Text(t) => t,
        };
        if line.trim().is_empty() {
            continue;
        }
        let (reply, after) = match serde_json::from_str::<Value>(&line) {
            Ok(msg) => server.handle(&msg),
            Err(e) => (error(format!("not JSON: {e}")), After::Continue),
        };
        let mut text = reply.to_string();
        if text.len() > MAX_LINE {
            text = error(format!(
                "the reply would be longer than {MAX_LINE} bytes: not sent"
            ))
            .to_string();
        }
        writeln!(output, "{text}")?;
        output.flush()?;
        if after == After::Quit {
            return Ok(());
        }
    }
}

/// One line read with a length limit.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    Text(String),
    /// The line went past the limit; the rest of it has been skipped.
    TooLong,
    Eof,
}

/// Reads one line (without its newline), at most `limit` bytes; a longer line is skipped to its
/// end and reported as [`Line::TooLong`]. Invalid UTF-8 is replaced.
///
/// # Errors
/// Reading fails.
pub fn read_line_limited(input: &mut dyn std::io::BufRead, limit: usize) -> std::io::Result<Line> {
    let mut buf: Vec<u8> = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            if !any {
                return Ok(Line::Eof);
            }
            break;
        }
        any = true;
        match chunk.iter().position(|b| *b == b'\n') {
            Some(i) => {
                if !too_long {
                    buf.extend_from_slice(&chunk[..i]);
                }
                input.consume(i + 1);
                break;
            }
            None => {
                let n = chunk.len();
                if !too_long {
                    buf.extend_from_slice(chunk);
                }
                input.consume(n);
            }
        }
        if buf.len() > limit {
            too_long = true;
            buf.clear();
        }
    }
    if too_long || buf.len() > limit {
        return Ok(Line::TooLong);
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(Line::Text(String::from_utf8_lossy(&buf).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_message_rebuilds_the_same_game() {
        for name in ["push", "spec/house/contract-rummy-toroidalsnark.yaml"] {
            a_start_message_rebuilds(name);
        }
    }

    /// The start message of a game of `name` (a built-in name, or a house file by its path from
    /// the crate's root: a contract set of one rank, `set of 2 aces`, travels in the listing).
    fn a_start_message_rebuilds(name: &str) {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
        let name = if path.exists() {
            path.to_string_lossy().into_owned()
        } else {
            name.to_string()
        };
        let loaded = rules::load(&name, &[]).unwrap();
        let g = Game::new(Arc::new(loaded.rules.clone()), 4, 1, 7, Vec::new()).unwrap();
        let msg = start_message(&loaded, &g);
        let raw = raw_rules_from_json(&msg["rules"]).unwrap();
        let again = compile_rules(raw, &[]).unwrap();
        assert_eq!(
            transcript::fingerprint(&again.raw),
            transcript::fingerprint(&loaded.raw)
        );
        let h = game_from_start(&again, &msg).unwrap();
        assert_eq!(transcript::state(&h), transcript::state(&g));
        assert_eq!(h.rng, g.rng);
    }

    #[test]
    fn long_lines_are_cut_and_reported() {
        let text = format!("{}\nshort\n", "x".repeat(100));
        let mut r = std::io::BufReader::with_capacity(8, text.as_bytes());
        assert_eq!(read_line_limited(&mut r, 50).unwrap(), Line::TooLong);
        assert_eq!(
            read_line_limited(&mut r, 50).unwrap(),
            Line::Text("short".into())
        );
        assert_eq!(read_line_limited(&mut r, 50).unwrap(), Line::Eof);
    }
}
