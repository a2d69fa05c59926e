//! `conform --queries N`: random single questions ([`crate::suite::query`]) asked of the
//! implementation and of the reference, the disagreements grouped by cause, each cause with its
//! smallest examples.
//!
//! A cause is found by asking the reference again under each other reading of every dispute: a
//! disagreement is explained by a reading under which the reference answers as the
//! implementation did. Each disagreement goes to the reading that explains the most of them
//! (one deliberate difference, such as `set-duplicate-suits=allowed`, is then one cause, however
//! many kinds of question it shows in); what no reading explains is grouped by the kind of
//! question and the field that differs. The smallest disagreement of each cause is shrunk,
//! a card at a time, while the implementation still disagrees for that cause.
//!
//! With known departures (`--departures`), a cause an entry matches is reported apart as known
//! and not shrunk: an entry's `reading` matches the reading that explains the cause, its `field`
//! the kind of question and the answer's field (`meld.valid`; for a cause a reading explains,
//! those of its smallest disagreement). `rule` and `reason` entries match no question.

use super::Options;
use super::compare::{Caps, Stop, hello};
use super::departures::{Departures, Known};
use super::implementation::{ImplSpec, Implementation};
use super::report::Divergence;
use crate::base::card::{Card, Counts};
use crate::rules::Loaded;
use crate::rules::disputes::DisputeId;
use crate::suite::protocol::{compile_rules, rules_json};
use crate::suite::query::{COMPARE, Question, answer, generate};
use serde::Serialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// What to ask.
#[derive(Clone, Debug)]
pub struct QueryOptions {
    pub n: usize,
    pub seed: u64,
    /// The table the positions of `discards` questions come from.
    pub players: u8,
}

/// One disagreement: the question, the field that differs, both answers.
#[derive(Clone, Debug, Serialize)]
pub struct QueryExample {
    /// The question in words.
    pub text: String,
    /// The `query` message.
    pub question: Value,
    /// The answer field that differs (`valid`, `readings`, `meets`, …).
    pub field: String,
    pub reference: Value,
    pub implementation: Value,
    /// The number of cards of the question it was shrunk from, where it was.
    pub shrunk_from: Option<usize>,
}

/// Disagreements with one cause.
#[derive(Clone, Debug, Serialize)]
pub struct QueryCause {
    /// The reading under which the reference answers as the implementation does
    /// (`set-duplicate-suits=allowed`), or none.
    pub reading: Option<String>,
    /// Without a reading: the kind of question and the field (`score.points`).
    pub field: Option<String>,
    pub count: usize,
    /// Per kind of question, how many.
    pub kinds: BTreeMap<String, usize>,
    /// The smallest examples, the first shrunk (unless the cause is known).
    pub examples: Vec<QueryExample>,
    /// The known departure that matched (`--departures`): the cause is not a failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub known: Option<Known>,
}

/// The report of a run of questions.
#[derive(Clone, Debug, Default, Serialize)]
pub struct QueryReport {
    pub asked: usize,
    /// Per kind of question, how many were asked.
    pub kinds: BTreeMap<String, usize>,
    pub agree: usize,
    pub disagree: usize,
    /// Per kind, the questions the implementation answered `unsupported`.
    pub unsupported: BTreeMap<String, usize>,
    pub errored: usize,
    /// The first errors, in words.
    pub errors: Vec<String>,
    /// Why the run stopped before the end, if it did.
    pub stopped: Option<String>,
    /// What is not compared because the implementation does not report it.
    pub not_compared: Vec<String>,
    /// The causes no known departure matched: failures.
    pub causes: Vec<QueryCause>,
    /// The causes a known departure matched (`--departures`), apart.
    pub known_causes: Vec<QueryCause>,
    /// With `--departures`: the entries no cause matched (`FILE:LINE (names)`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unmatched_departures: Option<Vec<String>>,
}

impl QueryReport {
    /// Whether the run failed: a disagreement no known departure explains, an errored question,
    /// or a run stopped early.
    pub fn failed(&self) -> bool {
        !self.causes.is_empty() || self.errored > 0 || self.stopped.is_some()
    }

    /// How many disagreements known departures explain.
    pub fn known_disagree(&self) -> usize {
        self.known_causes.iter().map(|c| c.count).sum()
    }
}

/// The fields compared for a kind of question (`readings` only where the implementation reports
/// meld readings).
fn fields(kind: &str, caps: &Caps) -> Vec<&'static str> {
    COMPARE
        .iter()
        .find(|c| c.0 == kind)
        .map(|c| c.1.to_vec())
        .unwrap_or_default()
        .into_iter()
        .filter(|f| *f != "readings" || caps.readings)
        .collect()
}

/// A field's value as compared: lists of cards as sorted sets, reading lists sorted.
fn normal(field: &str, v: &Value) -> Value {
    match (field, v) {
        ("cards", Value::Array(a)) => {
            let mut cards: Vec<Card> = a
                .iter()
                .filter_map(|c| c.as_str().and_then(|s| s.parse().ok()))
                .collect();
            if cards.len() != a.len() {
                return v.clone();
            }
            cards.sort();
            cards.dedup();
            json!(cards.iter().map(Card::to_string).collect::<Vec<_>>())
        }
        ("readings", Value::Array(a)) => {
            let mut r: Vec<String> = a.iter().map(Value::to_string).collect();
            r.sort();
            r.dedup();
            json!(r)
        }
        _ => v.clone(),
    }
}

/// The first field where `imp` differs from the reference's answer `reference` under `loaded`.
/// A laydown the implementation gives is checked too: its melds must come from the hand and meet
/// the contract.
fn differs(
    loaded: &Loaded,
    q: &Question,
    reference: &Value,
    imp: &Value,
    caps: &Caps,
) -> Option<&'static str> {
    for f in fields(q.kind(), caps) {
        if normal(f, &reference[f]) != normal(f, &imp[f]) {
            return Some(f);
        }
    }
    if let (Question::Laydown { round, hand }, Some(melds)) = (q, imp.get("melds"))
        && imp["possible"] == json!(true)
        && !laydown_holds(loaded, *round, hand, melds)
    {
        return Some("melds");
    }
    None
}

/// The first field where the implementation's reply `imp` differs from the reference's answer
/// under `loaded`: `error` where one side refuses the question and the other answers it.
fn disagreement(loaded: &Loaded, q: &Question, imp: &Value, caps: &Caps) -> Option<&'static str> {
    let refused = imp["type"] == "error";
    match answer(loaded, q) {
        Err(_) => (!refused).then_some("error"),
        Ok(_) if refused => Some("error"),
        Ok(a) => differs(loaded, q, &a, imp, caps),
    }
}

/// Whether `melds` (an implementation's laydown) come from `hand` and meet the contract.
fn laydown_holds(loaded: &Loaded, round: usize, hand: &[Card], melds: &Value) -> bool {
    let Some(list) = melds.as_array() else {
        return false;
    };
    let mut left = Counts::from_cards(hand);
    let mut cards = Vec::new();
    for m in list {
        let Some(m) = m.as_array() else {
            return false;
        };
        let mut one = Vec::new();
        for c in m {
            match c.as_str().and_then(|s| s.parse::<Card>().ok()) {
                Some(c) if left.remove(c) => one.push(c),
                _ => return false,
            }
        }
        cards.push(one);
    }
    let check = Question::Contract {
        round,
        melds: cards,
    };
    answer(loaded, &check).is_ok_and(|a| a["meets"] == json!(true))
}

/// The implementation, started and told the rules: ready for questions.
struct Asked<'a> {
    spec: &'a ImplSpec,
    opts: &'a Options,
    rules: Value,
    imp: Option<Box<dyn Implementation>>,
    caps: Caps,
}

/// What became of one question.
enum Reply {
    Answer(Value),
    Unsupported,
    Errored(String),
}

impl Asked<'_> {
    /// Starts the implementation: `hello`, then the rules.
    fn start(&mut self) -> Result<(), String> {
        let mut imp = self.spec.start(self.opts.timeout)?;
        let caps = hello(imp.as_mut()).map_err(|s| match s {
            Stop::Dead(e) | Stop::Errored(e) | Stop::Skipped(e) => e,
            Stop::Diverged(_) => "diverged at hello".into(),
        })?;
        let reply = imp.request(&json!({"type": "rules", "rules": self.rules}))?;
        match reply["type"].as_str() {
            Some("ok") => {}
            Some("unsupported") => {
                return Err(format!(
                    "the implementation answers no questions: `rules` is unsupported ({})",
                    reply["reason"].as_str().unwrap_or("no reason given")
                ));
            }
            _ => {
                return Err(format!(
                    "the implementation did not take the rules: {}",
                    super::clip(&reply.to_string(), 200)
                ));
            }
        }
        self.caps = caps;
        self.imp = Some(imp);
        Ok(())
    }

    fn ask(&mut self, q: &Question, id: usize) -> Reply {
        if self.imp.is_none()
            && let Err(e) = self.start()
        {
            return Reply::Errored(e);
        }
        let mut msg = q.to_json();
        msg["id"] = json!(id);
        let imp = self.imp.as_mut().expect("started");
        match imp.request(&msg) {
            Ok(r) => match r["type"].as_str() {
                Some("answer") if r["question"] == json!(q.kind()) => Reply::Answer(r),
                Some("unsupported") => Reply::Unsupported,
                // A question the implementation refuses: compared with the reference, which
                // may refuse it too (under another reading).
                Some("error") => Reply::Answer(json!({
                    "type": "error",
                    "error": super::clip(r["message"].as_str().unwrap_or("(no message)"), 300),
                })),
                _ => Reply::Errored(format!(
                    "{}: expected an answer to a {} question, got {}",
                    q.text(),
                    q.kind(),
                    super::clip(&r.to_string(), 200)
                )),
            },
            Err(e) => {
                // The implementation is dead or late: start it again for the next question.
                if let Some(mut imp) = self.imp.take() {
                    imp.close();
                }
                Reply::Errored(format!("{}: {e}", q.text()))
            }
        }
    }

    fn close(&mut self) {
        if let Some(mut imp) = self.imp.take() {
            let _ = imp.request(&json!({"type": "end"}));
            imp.close();
        }
    }
}

/// One disagreement as found.
struct Found {
    q: Question,
    field: &'static str,
    reference: Value,
    imp: Value,
    /// The readings (indices into the alternatives) under which the reference answers as the
    /// implementation did.
    explained: Vec<usize>,
}

/// Each other reading of every dispute, and the rules under it (those that compile).
fn alternatives(loaded: &Loaded) -> Vec<(String, Loaded)> {
    let mut out = Vec::new();
    let mut raw = loaded.raw.clone();
    raw.entries.remove("description");
    for id in DisputeId::ALL {
        for &name in id.reading_names() {
            if loaded.rules.readings.name(id) == name {
                continue;
            }
            if let Ok(l) = compile_rules(raw.clone(), &[(id, name.to_string())]) {
                out.push((format!("{}={name}", id.id()), l));
            }
        }
    }
    out
}

/// Asks `n` random questions of the implementation and of the reference under `loaded`.
pub fn ask_queries(
    spec: &ImplSpec,
    loaded: &Loaded,
    opts: &Options,
    q: &QueryOptions,
) -> QueryReport {
    let mut report = QueryReport::default();
    let questions = generate::questions(loaded, q.players, q.n, q.seed, &[]);
    let mut asked = Asked {
        spec,
        opts,
        rules: rules_json(loaded),
        imp: None,
        caps: Caps::all(2),
    };
    if let Err(e) = asked.start() {
        report.stopped = Some(format!("the implementation cannot be asked: {e}"));
        return report;
    }
    report.not_compared = asked.caps.not_compared();
    let caps = asked.caps;
    let mut alts: Option<Vec<(String, Loaded)>> = None;
    let mut found: Vec<Found> = Vec::new();
    let mut in_a_row = 0;
    for (i, question) in questions.iter().enumerate() {
        let Ok(reference) = answer(loaded, question) else {
            continue;
        };
        report.asked += 1;
        *report.kinds.entry(question.kind().into()).or_default() += 1;
        match asked.ask(question, i) {
            Reply::Answer(imp) => {
                in_a_row = 0;
                match disagreement(loaded, question, &imp, &caps) {
                    None => report.agree += 1,
                    Some(field) => {
                        report.disagree += 1;
                        let alts = alts.get_or_insert_with(|| alternatives(loaded));
                        let explained = alts
                            .iter()
                            .enumerate()
                            .filter(|(_, (_, l))| disagreement(l, question, &imp, &caps).is_none())
                            .map(|(k, _)| k)
                            .collect();
                        found.push(Found {
                            q: question.clone(),
                            field,
                            reference,
                            imp,
                            explained,
                        });
                    }
                }
            }
            Reply::Unsupported => {
                in_a_row = 0;
                *report
                    .unsupported
                    .entry(question.kind().into())
                    .or_default() += 1;
            }
            Reply::Errored(e) => {
                report.errored += 1;
                in_a_row += 1;
                if report.errors.len() < 5 {
                    report.errors.push(e);
                }
                if in_a_row >= super::ERRORED_IN_A_ROW && !opts.keep_going {
                    report.stopped = Some(format!(
                        "{in_a_row} questions in a row errored; --keep-going asks them all"
                    ));
                    break;
                }
            }
        }
    }
    let alts = alts.unwrap_or_default();
    let departures = opts.departures.as_deref();
    let (known, unknown): (Vec<_>, Vec<_>) =
        group(found, &alts, loaded, &mut asked, &caps, departures)
            .into_iter()
            .partition(|c| c.known.is_some());
    report.causes = unknown;
    report.known_causes = known;
    if let Some(d) = departures {
        let used: Vec<usize> = report
            .known_causes
            .iter()
            .filter_map(|c| c.known.as_ref().map(|k| k.entry))
            .collect();
        report.unmatched_departures = Some(d.unmatched(&used));
    }
    asked.close();
    report
}

/// A cause as a divergence, for matching known departures: the reading that explains it as its
/// rules, the kind of question and the field of its smallest disagreement `f` as its field.
fn as_divergence(f: &Found, reading: Option<&str>) -> Divergence {
    Divergence {
        step: 0,
        seat: None,
        action: None,
        field: format!("{}.{}", f.q.kind(), f.field),
        reference: f.reference[f.field].to_string(),
        implementation: f.imp[f.field].to_string(),
        rules: reading.map(str::to_string).into_iter().collect(),
    }
}

/// The disagreements grouped by cause, most first, each with its smallest examples.
fn group(
    found: Vec<Found>,
    alts: &[(String, Loaded)],
    loaded: &Loaded,
    asked: &mut Asked,
    caps: &Caps,
    departures: Option<&Departures>,
) -> Vec<QueryCause> {
    let mut explains = vec![0usize; alts.len()];
    for f in &found {
        for &k in &f.explained {
            explains[k] += 1;
        }
    }
    // Cause key: the most explaining reading, else the kind and the field.
    let mut groups: BTreeMap<(Option<usize>, String), Vec<Found>> = BTreeMap::new();
    for f in found {
        let best = f
            .explained
            .iter()
            .copied()
            .max_by_key(|&k| (explains[k], std::cmp::Reverse(k)));
        let key = match best {
            Some(k) => (Some(k), String::new()),
            None => (None, format!("{}.{}", f.q.kind(), f.field)),
        };
        groups.entry(key).or_default().push(f);
    }
    let mut causes: Vec<QueryCause> = groups
        .into_iter()
        .map(|((reading, field), mut list)| {
            list.sort_by_key(|f| f.q.size());
            let mut kinds = BTreeMap::new();
            for f in &list {
                *kinds.entry(f.q.kind().to_string()).or_default() += 1;
            }
            let alt = reading.map(|k| &alts[k]);
            let known = list
                .first()
                .zip(departures)
                .and_then(|(f, d)| d.known(&as_divergence(f, alt.map(|(name, _)| name.as_str()))));
            let mut examples = Vec::new();
            match list.first() {
                // A known cause is not shrunk: the departure already says what it is.
                Some(first) if known.is_some() => examples.push(example(first, None)),
                Some(first) => examples.push(shrink(first, alt, loaded, asked, caps)),
                None => {}
            }
            for f in list.iter().skip(1).take(2) {
                examples.push(example(f, None));
            }
            QueryCause {
                reading: alt.map(|(name, _)| name.clone()),
                field: (reading.is_none()).then_some(field),
                count: list.len(),
                kinds,
                examples,
                known,
            }
        })
        .collect();
    causes.sort_by_key(|c| std::cmp::Reverse(c.count));
    causes
}

fn example(f: &Found, shrunk_from: Option<usize>) -> QueryExample {
    QueryExample {
        text: f.q.text(),
        question: f.q.to_json(),
        field: f.field.to_string(),
        reference: f.reference.clone(),
        implementation: f.imp.clone(),
        shrunk_from,
    }
}

/// The most questions asked to shrink one example.
const SHRINK_BUDGET: usize = 400;

/// `f` made smaller a card at a time while the implementation still disagrees for the same
/// cause: explained by the same reading `alt`, or (without one) on the same field.
fn shrink(
    f: &Found,
    alt: Option<&(String, Loaded)>,
    loaded: &Loaded,
    asked: &mut Asked,
    caps: &Caps,
) -> QueryExample {
    let size = f.q.size();
    let mut best = Found {
        q: f.q.clone(),
        field: f.field,
        reference: f.reference.clone(),
        imp: f.imp.clone(),
        explained: Vec::new(),
    };
    let mut budget = SHRINK_BUDGET;
    'outer: loop {
        for cand in best.q.smaller() {
            if budget == 0 {
                break 'outer;
            }
            let Ok(reference) = answer(loaded, &cand) else {
                continue;
            };
            budget -= 1;
            let Reply::Answer(imp) = asked.ask(&cand, usize::MAX - budget) else {
                continue;
            };
            let Some(field) = disagreement(loaded, &cand, &imp, caps) else {
                continue;
            };
            let same = match alt {
                Some((_, l)) => disagreement(l, &cand, &imp, caps).is_none(),
                None => field == f.field,
            };
            if same {
                best = Found {
                    q: cand,
                    field,
                    reference,
                    imp,
                    explained: Vec::new(),
                };
                continue 'outer;
            }
        }
        break;
    }
    let shrunk = best.q.size() < size;
    example(&best, shrunk.then_some(size))
}
