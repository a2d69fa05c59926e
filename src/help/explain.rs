//! `push-rummy explain`: what a rejection reason code, a dispute (or one of its readings) or a rule
//! path means, in plain words, with the sources behind it.
//!
//! Everything said comes from data the rest of the crate uses: [`Reason::doc`], the disputes
//! register ([`register`], read from `spec/disputes.yaml`), the rule table ([`spec::rule_defs`]) and,
//! for reason codes, the conformance scenarios that expect the code.
//!
//! ```
//! use push_rummy::help::explain::{explain, Topic};
//! let e = explain("push-not-allowed", None).unwrap();
//! assert_eq!(e.kind, "reason code");
//! // The reason names the dispute that decides it; its readings come with their sources.
//! assert!(e.disputes.iter().any(|d| d.id == "push-with-one-stock-card"));
//! assert!(matches!(push_rummy::help::explain::lookup("frozen-two"), Ok(Topic::Dispute(_, None))));
//! let unknown = explain("push-not-alowed", None).unwrap_err();
//! assert_eq!(unknown.suggestion.as_deref(), Some("push-not-allowed"));
//! ```

use crate::base::diag::did_you_mean;
use crate::base::yaml::{self, Node, Value as Y};
use crate::engine::game::Reason;
use crate::rules::disputes::{DisputeId, register};
use crate::rules::overrides;
use crate::rules::spec::{self, RuleDef, Ty};
use serde::Serialize;
use std::path::Path;

/// What a word names.
#[derive(Clone, Copy, Debug)]
pub enum Topic {
    Reason(Reason),
    /// A dispute, or one reading of it (`frozen-two=position`).
    Dispute(DisputeId, Option<&'static str>),
    Rule(&'static RuleDef),
}

/// A word that names nothing `explain` knows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Unknown {
    pub word: String,
    /// The closest known word, when one is close enough to be a typo.
    pub suggestion: Option<String>,
    /// The reason codes, disputes and rules whose words mention it (`twos`, `joker`), best first,
    /// each with what it is about.
    pub mentions: Vec<Mention>,
}

/// A topic whose words mention a word that names nothing exactly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mention {
    /// What to ask `explain` for.
    pub word: String,
    /// What it is about, in a few words.
    pub about: String,
}

impl std::fmt::Display for Unknown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "`{}` is not a reason code, a dispute or a rule",
            self.word
        )?;
        if let Some(s) = &self.suggestion {
            write!(f, " (did you mean `{s}`?)")?;
        }
        if !self.mentions.is_empty() {
            write!(f, "; these mention it:")?;
            for m in &self.mentions {
                write!(f, "\n  {}: {}", m.word, m.about)?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for Unknown {}

/// A source and what it says.
#[derive(Clone, Debug, Serialize)]
pub struct Cite {
    pub source: String,
    pub says: String,
}

/// One reading of a dispute, with its sources.
#[derive(Clone, Debug, Serialize)]
pub struct ReadingInfo {
    pub name: String,
    pub meaning: String,
    pub sources: Vec<Cite>,
    /// The built-in games whose default it is.
    pub default_of: Vec<String>,
}

/// A dispute as the register states it.
#[derive(Clone, Debug, Serialize)]
pub struct DisputeInfo {
    pub id: String,
    pub title: String,
    pub question: String,
    pub readings: Vec<ReadingInfo>,
}

/// A conformance scenario that shows the topic.
#[derive(Clone, Debug, Serialize)]
pub struct ScenarioRef {
    pub file: String,
    pub title: String,
    pub sources: Vec<String>,
}

/// What one built-in game's rules file says of a rule: its value, the sources it cites (or
/// `unsourced`) and its note.
#[derive(Clone, Debug, Serialize)]
pub struct RuleCitation {
    pub game: String,
    pub value: String,
    pub sources: Vec<String>,
    pub note: Option<String>,
}

/// An explanation: the topic in plain words, the disputes that decide it (with sources) and the
/// scenarios that show it.
#[derive(Clone, Debug, Serialize)]
pub struct Explanation {
    /// `reason code`, `dispute`, `reading` or `rule`.
    pub kind: &'static str,
    pub id: String,
    /// What it means, in one or two sentences.
    pub meaning: String,
    pub disputes: Vec<DisputeInfo>,
    /// Rule paths it concerns.
    pub rules: Vec<String>,
    /// Reason codes whose explanation names the dispute.
    pub reasons: Vec<String>,
    pub scenarios: Vec<ScenarioRef>,
    /// For a rule: what each built-in game's file gives it, with the sources it cites.
    pub citations: Vec<RuleCitation>,
    /// For a rule that overrides a dispute when stated (`rules::overrides`): the dispute.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overrides: Option<String>,
    /// For a dispute: the rules a rule set may state instead of using a reading of it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub overridden_by: Vec<String>,
    /// Every source named above, once, in order.
    pub sources: Vec<String>,
}

/// Every word `explain` knows: reason codes, dispute ids, `ID=READING` and rule paths.
pub fn known_words() -> Vec<String> {
    let mut v: Vec<String> = Reason::ALL.iter().map(|r| r.code().to_string()).collect();
    for d in DisputeId::ALL {
        v.push(d.id().to_string());
        for r in d.reading_names() {
            v.push(format!("{}={r}", d.id()));
        }
    }
    v.extend(spec::rule_defs().iter().map(|d| d.path.clone()));
    v
}

/// What `word` names.
///
/// # Errors
/// [`Unknown`] when it names nothing, with the closest known word.
pub fn lookup(word: &str) -> Result<Topic, Unknown> {
    let w = word.trim();
    if let Some(r) = Reason::from_code(w) {
        return Ok(Topic::Reason(r));
    }
    let (id, reading) = match w.split_once('=') {
        Some((a, b)) => (a.trim(), Some(b.trim())),
        None => (w, None),
    };
    if let Some(d) = DisputeId::from_id(id) {
        match reading {
            None => return Ok(Topic::Dispute(d, None)),
            Some(r) => {
                if let Some(name) = d.reading_names().iter().find(|n| **n == r) {
                    return Ok(Topic::Dispute(d, Some(name)));
                }
            }
        }
    }
    if let Some(def) = spec::rule_def(w) {
        return Ok(Topic::Rule(def));
    }
    // A card key written in lower case (`scoring.points.a`, `scoring.points.jk`).
    if let Some(key) = w.strip_prefix("scoring.points.")
        && let Some(def) = spec::rule_def(&format!("scoring.points.{}", key.to_ascii_uppercase()))
    {
        return Ok(Topic::Rule(def));
    }
    let mentions = mentions(w);
    let words = known_words();
    Err(Unknown {
        word: w.to_string(),
        // A near miss of a name, unless the word is one the texts use (`two` is no typo of `ties`).
        suggestion: if mentions.is_empty() {
            did_you_mean(w, words.iter().map(String::as_str)).map(str::to_string)
        } else {
            None
        },
        mentions,
    })
}

/// The words of a text, lower case, a plural read as its singular (`twos` is `two`).
fn word_stems(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(|t| {
            let t = t.to_lowercase();
            match t.strip_suffix('s') {
                Some(stem) if stem.len() >= 3 && !stem.ends_with('s') => stem.to_string(),
                _ => t,
            }
        })
}

/// The most mentions listed for one word.
const MAX_MENTIONS: usize = 12;

/// The reason codes, disputes and rules whose words include every word of `query` (`two`,
/// `twos`, `joker`, `going out`): those that have it in their name first, then in their title
/// or description.
pub fn mentions(query: &str) -> Vec<Mention> {
    let wanted: Vec<String> = word_stems(query).collect();
    if wanted.is_empty() {
        return Vec::new();
    }
    let has_all = |text: &str| {
        let stems: Vec<String> = word_stems(text).collect();
        wanted.iter().all(|w| stems.contains(w))
    };
    // (rank: 0 in the name, 1 in the words; the word to explain; what it is about)
    let mut found: Vec<(u8, String, String)> = Vec::new();
    let mut consider = |name: String, about: String, words: String| {
        let rank = if has_all(&name) {
            0
        } else if has_all(&words) {
            1
        } else {
            return;
        };
        found.push((rank, name, about));
    };
    let reg = register::get();
    for e in &reg.disputes {
        let mut words = format!("{} {}", e.title, e.question);
        for r in &e.readings {
            words.push(' ');
            words.push_str(&r.meaning);
        }
        consider(e.id.clone(), format!("dispute: {}", e.title), words);
    }
    for def in spec::rule_defs() {
        consider(
            def.path.clone(),
            format!("rule: {}", first_sentence(def.doc)),
            def.doc.to_string(),
        );
    }
    for r in Reason::ALL {
        consider(
            r.code().to_string(),
            format!("reason code: {}", first_sentence(r.doc())),
            r.doc().to_string(),
        );
    }
    found.sort_by_key(|(rank, _, _)| *rank);
    found
        .into_iter()
        .take(MAX_MENTIONS)
        .map(|(_, word, about)| Mention { word, about })
        .collect()
}

/// The first sentence of a text, without its full stop.
fn first_sentence(text: &str) -> &str {
    let end = text.find(". ").unwrap_or(text.len());
    text[..end].trim_end_matches('.')
}

fn dispute_info(id: DisputeId, only: Option<&str>) -> DisputeInfo {
    let reg = register::get();
    let e = reg
        .disputes
        .iter()
        .find(|e| e.id == id.id())
        .expect("the register and the generated ids agree");
    DisputeInfo {
        id: e.id.clone(),
        title: e.title.clone(),
        question: e.question.clone(),
        readings: e
            .readings
            .iter()
            .filter(|r| only.is_none_or(|o| o == r.name))
            .map(|r| ReadingInfo {
                name: r.name.clone(),
                meaning: r.meaning.clone(),
                sources: r
                    .sources
                    .iter()
                    .map(|c| Cite {
                        source: c.source.clone(),
                        says: c.says.clone(),
                    })
                    .collect(),
                default_of: e
                    .defaults
                    .iter()
                    .filter(|(_, d)| d.reading == r.name)
                    .map(|(g, _)| g.clone())
                    .collect(),
            })
            .collect(),
    }
}

/// The disputes a text names (`… (push-with-one-stock-card)`), in register order.
fn disputes_named_in(text: &str) -> Vec<DisputeId> {
    DisputeId::ALL
        .into_iter()
        .filter(|d| {
            text.match_indices(d.id()).any(|(i, _)| {
                let before = text[..i].chars().next_back();
                let after = text[i + d.id().len()..].chars().next();
                let word =
                    |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-');
                !word(before) && !word(after)
            })
        })
        .collect()
}

/// The rule paths a text names (`discard.wilds`).
fn rules_named_in(text: &str) -> Vec<String> {
    spec::rule_defs()
        .iter()
        .filter(|d| d.path.contains('.') && !d.path.starts_with("readings."))
        .filter(|d| text.contains(d.path.as_str()))
        .map(|d| d.path.clone())
        .collect()
}

fn sentence(s: &str) -> String {
    let mut c = s.chars();
    let mut out: String = match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    };
    if !out.ends_with('.') {
        out.push('.');
    }
    out
}

/// The scenarios under `suite` whose steps expect `{rejected: CODE}`, read as YAML only (a
/// scenario that does not parse is skipped: `replay` reports it).
fn scenarios_expecting(suite: &Path, code: &str) -> Vec<ScenarioRef> {
    scenarios_where(suite, code, |root| {
        let expects = |step: &Node| {
            step.get("expect")
                .and_then(|e| e.get("rejected"))
                .and_then(Node::scalar_text)
                .is_some_and(|c| c == code)
        };
        match root.get("steps").map(|s| &s.value) {
            Some(Y::Seq(steps)) => steps.iter().any(expects),
            _ => false,
        }
    })
}

/// The scenarios under `suite` whose `exercises.rules` name the rule `path`.
fn scenarios_exercising(suite: &Path, path: &str) -> Vec<ScenarioRef> {
    scenarios_where(suite, path, |root| {
        match root
            .get("exercises")
            .and_then(|e| e.get("rules"))
            .map(|r| &r.value)
        {
            Some(Y::Seq(rules)) => rules
                .iter()
                .filter_map(Node::scalar_text)
                .any(|r| r == path),
            _ => false,
        }
    })
}

/// The scenarios under `suite` whose text holds `word` and whose YAML passes `hit`.
fn scenarios_where(suite: &Path, word: &str, hit: impl Fn(&Node) -> bool) -> Vec<ScenarioRef> {
    let Ok(files) = crate::suite::scenario::find_scenarios(suite) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for f in files {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        if !text.contains(word) {
            continue;
        }
        let Ok(root) = yaml::parse(&text) else {
            continue;
        };
        if !hit(&root) {
            continue;
        }
        let sources = match root
            .get("exercises")
            .and_then(|e| e.get("sources"))
            .map(|s| &s.value)
        {
            Some(Y::Seq(items)) => items.iter().filter_map(Node::scalar_text).collect(),
            _ => Vec::new(),
        };
        let file = f
            .strip_prefix(suite)
            .unwrap_or(&f)
            .display()
            .to_string()
            .replace('\\', "/");
        out.push(ScenarioRef {
            file,
            title: root
                .get("title")
                .and_then(Node::scalar_text)
                .unwrap_or_default(),
            sources,
        });
    }
    out
}

/// What each built-in game's file says of the rule `path`.
fn citations(path: &str) -> Vec<RuleCitation> {
    crate::rules::GAMES
        .into_iter()
        .filter_map(|game| {
            let loaded = crate::rules::load(game, &[]).ok()?;
            let e = loaded.raw.get(path)?;
            Some(RuleCitation {
                game: game.to_string(),
                value: e.value.text(),
                sources: e.sources.clone().unwrap_or_default(),
                note: e.note.clone(),
            })
        })
        .collect()
}

fn all_sources(e: &Explanation) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    let names = e
        .disputes
        .iter()
        .flat_map(|d| d.readings.iter())
        .flat_map(|r| r.sources.iter().map(|c| c.source.clone()))
        .chain(e.scenarios.iter().flat_map(|s| s.sources.iter().cloned()))
        .chain(e.citations.iter().flat_map(|c| c.sources.iter().cloned()));
    for s in names {
        if s != "unsourced" && !v.contains(&s) {
            v.push(s);
        }
    }
    v.sort();
    v
}

/// Explains `word`: a reason code, a dispute id, `ID=READING` or a rule path. For a reason code,
/// the scenarios under `suite` (the conformance suite) that expect it are listed with their sources.
///
/// # Errors
/// [`Unknown`] when the word names nothing, with the closest known word.
pub fn explain(word: &str, suite: Option<&Path>) -> Result<Explanation, Unknown> {
    let topic = lookup(word)?;
    let mut e = match topic {
        Topic::Reason(r) => {
            let disputes: Vec<DisputeInfo> = disputes_named_in(r.doc())
                .into_iter()
                .map(|d| dispute_info(d, None))
                .collect();
            Explanation {
                kind: "reason code",
                id: r.code().to_string(),
                meaning: format!(
                    "{} An action refused for this reason carries the code `{}`.",
                    sentence(r.doc()),
                    r.code()
                ),
                disputes,
                rules: rules_named_in(r.doc()),
                reasons: Vec::new(),
                scenarios: suite
                    .map(|s| scenarios_expecting(s, r.code()))
                    .unwrap_or_default(),
                citations: Vec::new(),
                overrides: None,
                overridden_by: Vec::new(),
                sources: Vec::new(),
            }
        }
        Topic::Dispute(d, reading) => {
            let info = dispute_info(d, reading);
            let reasons = Reason::ALL
                .iter()
                .filter(|r| disputes_named_in(r.doc()).contains(&d))
                .map(|r| r.code().to_string())
                .collect();
            let meaning = match reading {
                Some(name) => {
                    let m = info
                        .readings
                        .first()
                        .map(|r| r.meaning.clone())
                        .unwrap_or_default();
                    format!(
                        "Reading `{name}` of the dispute `{}` ({}): {m}",
                        info.id, info.title
                    )
                }
                // "The pusher's own draw. After pushing …?": the title as a sentence, then the
                // question.
                None => format!("{} {}", sentence(&info.title), info.question),
            };
            Explanation {
                kind: if reading.is_some() {
                    "reading"
                } else {
                    "dispute"
                },
                id: match reading {
                    Some(r) => format!("{}={r}", d.id()),
                    None => d.id().to_string(),
                },
                meaning,
                disputes: vec![info],
                rules: vec![format!("readings.{}", d.id())],
                reasons,
                scenarios: Vec::new(),
                citations: Vec::new(),
                overrides: None,
                overridden_by: overrides::overriding(d).map(str::to_string).collect(),
                sources: Vec::new(),
            }
        }
        Topic::Rule(def) => {
            let overrides = overrides::overridden_by(&def.path);
            let disputes = match (def.ty.clone(), overrides) {
                (Ty::Reading(d), _) | (_, Some(d)) => vec![dispute_info(d, None)],
                _ => disputes_named_in(def.doc)
                    .into_iter()
                    .map(|d| dispute_info(d, None))
                    .collect(),
            };
            let form = match &def.ty {
                Ty::Text => "text".to_string(),
                Ty::Int { min, max } => format!("an integer from {min} to {max}"),
                Ty::Limit { min, max, word } => {
                    format!("an integer from {min} to {max}, or {word}")
                }
                Ty::DeckTiers => {
                    "a list of tiers, each {players: N or \"A-B\", standard-decks: N, jokers: N}"
                        .to_string()
                }
                Ty::Bool => "true or false".to_string(),
                Ty::Choice(o) => format!("one of {}", o.join(", ")),
                Ty::PlayerRange => "a player count, 4, or a range \"3-6\"".to_string(),
                Ty::Rounds => {
                    "a list of deals, each {deal: N, contract: [set of 3, run of 4, set of 2 aces, …]}"
                        .to_string()
                }
                Ty::Reading(d) => format!("a reading of {d}: {}", d.reading_names().join(", ")),
                Ty::List(o) => format!("a list of distinct names from {}", o.join(", ")),
                Ty::WhenNone(o, bans) => format!(
                    "one of {}, or {{relax: [BAN, …]}} with bans from {}",
                    o.join(", "),
                    bans.join(", ")
                ),
            };
            Explanation {
                kind: "rule",
                id: def.path.clone(),
                meaning: format!(
                    "The rule `{}` ({}): {}{}",
                    def.path,
                    form,
                    sentence(def.doc),
                    if def.required {
                        " A standalone rules file must give it."
                    } else {
                        ""
                    }
                ),
                disputes,
                rules: vec![def.path.clone()],
                reasons: Vec::new(),
                scenarios: suite
                    .map(|s| scenarios_exercising(s, &def.path))
                    .unwrap_or_default(),
                citations: citations(&def.path),
                overrides: overrides.map(|d| d.id().to_string()),
                overridden_by: Vec::new(),
                sources: Vec::new(),
            }
        }
    };
    e.sources = all_sources(&e);
    Ok(e)
}

impl Explanation {
    /// The explanation for people.
    pub fn text(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let _ = writeln!(out, "{} ({})", self.id, self.kind);
        let _ = writeln!(out, "{}", self.meaning);
        for d in &self.disputes {
            let _ = writeln!(out);
            if self.overrides.as_ref() == Some(&d.id) {
                let _ = writeln!(
                    out,
                    "left out (as the built-in games leave it), the dispute `{}` decides — {}; a rules file that states this rule decides by its value instead, and the reading is overridden",
                    d.id, d.title
                );
                let _ = writeln!(out, "{}", d.question);
            } else if self.kind != "dispute" && self.kind != "reading" {
                let _ = writeln!(out, "decided by the dispute `{}` — {}", d.id, d.title);
                let _ = writeln!(out, "{}", d.question);
            }
            for r in &d.readings {
                let default = if r.default_of.is_empty() {
                    String::new()
                } else {
                    format!(" (default of {})", r.default_of.join(", "))
                };
                let _ = writeln!(out, "reading `{}`{default}: {}", r.name, r.meaning);
                if r.sources.is_empty() {
                    let _ = writeln!(out, "  no source states it (an engine or house choice)");
                }
                for c in &r.sources {
                    let _ = writeln!(out, "  {}: {}", c.source, c.says);
                }
            }
        }
        if !self.overridden_by.is_empty() {
            let _ = writeln!(
                out,
                "\na rules file may state its own value instead: {} (stated, it decides and no reading of this dispute does)",
                self.overridden_by.join(", ")
            );
        }
        if !self.reasons.is_empty() {
            let _ = writeln!(
                out,
                "\nreason codes it decides: {}",
                self.reasons.join(", ")
            );
        }
        if !self.citations.is_empty() {
            let _ = writeln!(out, "\nin the built-in games:");
            for c in &self.citations {
                let cited = if c.sources.is_empty() {
                    "no source cited".to_string()
                } else {
                    format!("sources {}", c.sources.join(", "))
                };
                let note = c
                    .note
                    .as_ref()
                    .map(|n| format!(" — {n}"))
                    .unwrap_or_default();
                let _ = writeln!(out, "  {}: {} [{cited}]{note}", c.game, c.value);
            }
        }
        if !self.scenarios.is_empty() {
            let _ = writeln!(
                out,
                "\nscenarios that {} it ({}):",
                if self.kind == "rule" {
                    "exercise"
                } else {
                    "expect"
                },
                self.scenarios.len()
            );
            for s in &self.scenarios {
                let src = if s.sources.is_empty() {
                    String::new()
                } else {
                    format!(" [sources {}]", s.sources.join(", "))
                };
                let _ = writeln!(out, "  {} — {}{src}", s.file, s.title);
            }
        }
        let _ = writeln!(
            out,
            "\nsources: {}",
            if self.sources.is_empty() {
                "none named (the rule is the engine's or a house choice)".to_string()
            } else {
                self.sources.join(", ")
            }
        );
        out
    }
}
