//! Checking an implementation against the reference: `push-rummy conform`.
//!
//! Every scenario is replayed by the reference engine ([`transcript::replay`]); the implementation
//! (the built-in engine behind [`protocol::Server`], in process, or an external program speaking
//! the protocol on its stdin/stdout) is started from the scenario's position and given the same
//! actions one by one. After every step the result (events, or the reason code of a refusal) and
//! the state are compared; the first difference is the scenario's verdict. An implementation that
//! says `unsupported` skips the scenario; one that crashes, times out, sends a line that is too
//! long or a reply that is not the protocol is reported as errored, and the harness goes on.
//!
//! Differential fuzzing ([`fuzz`]) plays random games with the built-in players, feeds them to the
//! implementation, and shrinks the first divergence to a small scenario file.

use crate::base::card::{Card, Counts};
use crate::base::rng::Rng;
use crate::engine::action_text::parse_action;
use crate::engine::bots::{self, Bot};
use crate::engine::game::{Action, Game, MeldSpec, Reason, Stage};
use crate::engine::observe::observe;
use crate::rules::Loaded;
use crate::rules::disputes::DisputeId;
use crate::rules::spec;
use crate::suite::protocol::{self, Line, Server};
use crate::suite::scenario::{self, Scenario};
use crate::suite::transcript::{self, ResultRecord};
use serde::Serialize;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Where the implementation under test comes from.
#[derive(Clone, Debug)]
pub enum ImplSpec {
    /// The built-in engine, in process, through [`Server`].
    BuiltIn,
    /// A program and its arguments, started once per scenario.
    Command(Vec<String>),
}

impl ImplSpec {
    /// Splits a command line into words as a POSIX shell does, without expanding anything: spaces
    /// separate; `'…'` quotes everything; `"…"` quotes, with `\` escaping only `$`, `` ` ``, `"`,
    /// `\` and a newline there; elsewhere `\` escapes any character.
    ///
    /// # Errors
    /// An empty command or an unclosed quote.
    pub fn parse_command(text: &str) -> Result<ImplSpec, String> {
        let mut words = Vec::new();
        let mut cur = String::new();
        let mut has = false;
        let mut quote: Option<char> = None;
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            match (quote, c) {
                (None, c) if c.is_whitespace() => {
                    if has {
                        words.push(std::mem::take(&mut cur));
                        has = false;
                    }
                }
                (None, '\'' | '"') => {
                    quote = Some(c);
                    has = true;
                }
                (Some(q), c) if c == q => quote = None,
                (Some('\''), c) => cur.push(c),
                // Within double quotes a backslash escapes only `$`, `` ` ``, `"`, `\` and a
                // newline (which it removes); before anything else it is itself, as in a shell.
                (Some('"'), '\\') => match chars.next() {
                    Some('\n') => {}
                    Some(n @ ('$' | '`' | '"' | '\\')) => cur.push(n),
                    Some(n) => {
                        cur.push('\\');
                        cur.push(n);
                    }
                    None => cur.push('\\'),
                },
                (_, '\\') => {
                    has = true;
                    // A backslash and a newline join two lines: neither is kept.
                    if let Some(n) = chars.next().filter(|&n| n != '\n') {
                        cur.push(n);
                    }
                }
                (_, c) => {
                    cur.push(c);
                    has = true;
                }
            }
        }
        if quote.is_some() {
            return Err(format!("--impl `{text}`: a quote is not closed"));
        }
        if has {
            words.push(cur);
        }
        if words.is_empty() {
            return Err("--impl: the command is empty".into());
        }
        Ok(ImplSpec::Command(words))
    }

    pub fn describe(&self) -> String {
        match self {
            ImplSpec::BuiltIn => "the built-in engine".into(),
            ImplSpec::Command(w) => w.join(" "),
        }
    }

    fn start(&self, timeout: Duration) -> Result<Box<dyn Implementation>, String> {
        match self {
            ImplSpec::BuiltIn => Ok(Box::new(InProcess(Server::new(Vec::new(), None)))),
            ImplSpec::Command(words) => Ok(Box::new(Process::spawn(words, timeout)?)),
        }
    }
}

/// One side of the protocol, seen from the harness.
pub trait Implementation {
    /// Sends `msg` and waits for the reply.
    ///
    /// # Errors
    /// The implementation died, timed out, or replied with something that is not a JSON line
    /// within the limits: what happened, in words.
    fn request(&mut self, msg: &Value) -> Result<Value, String>;
    /// Ends the implementation (politely, then by force).
    fn close(&mut self);
}

struct InProcess(Server);

impl Implementation for InProcess {
    fn request(&mut self, msg: &Value) -> Result<Value, String> {
        Ok(self.0.handle(msg).0)
    }
    fn close(&mut self) {}
}

enum FromChild {
    Line(String),
    TooLong,
    Eof,
    Failed(String),
}

/// An external implementation: a child process, a thread reading its stdout line by line (with
/// the length limit) and one writing its stdin, so that the harness itself never blocks.
struct Process {
    child: Child,
    to_child: Option<Sender<String>>,
    from_child: Receiver<FromChild>,
    stderr: Arc<Mutex<Vec<u8>>>,
    timeout: Duration,
    dead: bool,
}

impl Process {
    fn spawn(words: &[String], timeout: Duration) -> Result<Process, String> {
        let mut child = Command::new(&words[0])
            .args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start `{}`: {e}", words.join(" ")))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let mut stdin: ChildStdin = child.stdin.take().ok_or("no stdin")?;
        let stderr_pipe = child.stderr.take().ok_or("no stderr")?;
        let (tx, from_child) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let item = match read_capped(&mut r, protocol::MAX_LINE) {
                    Ok(Line::Text(t)) => FromChild::Line(t),
                    Ok(Line::TooLong) => FromChild::TooLong,
                    Ok(Line::Eof) => FromChild::Eof,
                    Err(e) => FromChild::Failed(e.to_string()),
                };
                let stop = !matches!(item, FromChild::Line(_));
                if tx.send(item).is_err() || stop {
                    return;
                }
            }
        });
        let (to_child, rx) = mpsc::channel::<String>();
        std::thread::spawn(move || {
            for line in rx {
                if writeln!(stdin, "{line}")
                    .and_then(|()| stdin.flush())
                    .is_err()
                {
                    return;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let keep = Arc::clone(&stderr);
        std::thread::spawn(move || {
            use std::io::Read as _;
            let mut pipe = stderr_pipe;
            let mut buf = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut buf) {
                if n == 0 {
                    return;
                }
                if let Ok(mut k) = keep.lock() {
                    k.extend_from_slice(&buf[..n]);
                    let len = k.len();
                    if len > 4096 {
                        k.drain(..len - 4096);
                    }
                }
            }
        });
        Ok(Process {
            child,
            to_child: Some(to_child),
            from_child,
            stderr,
            timeout,
            dead: false,
        })
    }

    fn stderr_tail(&self) -> String {
        let text = self
            .stderr
            .lock()
            .map(|k| String::from_utf8_lossy(&k).into_owned())
            .unwrap_or_default();
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let tail = lines[lines.len().saturating_sub(3)..].join(" | ");
        if tail.is_empty() {
            String::new()
        } else {
            format!(" (its stderr ends: {})", clip(&tail, 300))
        }
    }

    fn kill(&mut self) {
        if !self.dead {
            let _ = self.child.kill();
            let _ = self.child.wait();
            self.dead = true;
        }
        self.to_child = None;
    }
}

impl Implementation for Process {
    fn request(&mut self, msg: &Value) -> Result<Value, String> {
        if self.dead {
            return Err("the implementation was stopped".into());
        }
        if let Some(tx) = &self.to_child {
            let _ = tx.send(msg.to_string());
        }
        let kind = msg["type"].as_str().unwrap_or("?").to_string();
        match self.from_child.recv_timeout(self.timeout) {
            Ok(FromChild::Line(l)) => serde_json::from_str::<Value>(&l).map_err(|e| {
                self.kill();
                format!(
                    "malformed reply to `{kind}`: not JSON ({e}): {}",
                    clip(&l, 200)
                )
            }),
            Ok(FromChild::TooLong) => {
                self.kill();
                Err(format!(
                    "the reply to `{kind}` is longer than {} bytes; the implementation was stopped",
                    protocol::MAX_LINE
                ))
            }
            Ok(FromChild::Eof) | Err(RecvTimeoutError::Disconnected) => {
                // Give the exit status a moment to be known.
                let mut status = None;
                for _ in 0..50 {
                    if let Ok(Some(s)) = self.child.try_wait() {
                        status = Some(s);
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
                let tail = self.stderr_tail();
                self.kill();
                Err(format!(
                    "the implementation closed its output before replying to `{kind}` ({}){tail}",
                    status.map_or("still running".into(), |s| s.to_string())
                ))
            }
            Ok(FromChild::Failed(e)) => {
                self.kill();
                Err(format!("reading the reply to `{kind}` failed: {e}"))
            }
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(format!(
                    "no reply to `{kind}` within {} ms; the implementation was stopped",
                    self.timeout.as_millis()
                ))
            }
        }
    }

    fn close(&mut self) {
        if !self.dead {
            if let Some(tx) = &self.to_child {
                let _ = tx.send(json!({"type": "end"}).to_string());
            }
            self.to_child = None;
            for _ in 0..20 {
                if let Ok(Some(_)) = self.child.try_wait() {
                    self.dead = true;
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            self.kill();
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Reads one line of at most `limit` bytes; stops reading as soon as the limit is passed (a line
/// that never ends must not hold the harness).
fn read_capped(input: &mut dyn std::io::BufRead, limit: usize) -> std::io::Result<Line> {
    let mut buf: Vec<u8> = Vec::new();
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            if buf.is_empty() {
                return Ok(Line::Eof);
            }
            break;
        }
        match chunk.iter().position(|b| *b == b'\n') {
            Some(i) => {
                buf.extend_from_slice(&chunk[..i]);
                input.consume(i + 1);
                break;
            }
            None => {
                let n = chunk.len();
                buf.extend_from_slice(chunk);
                input.consume(n);
            }
        }
        if buf.len() > limit {
            return Ok(Line::TooLong);
        }
    }
    if buf.len() > limit {
        return Ok(Line::TooLong);
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(Line::Text(String::from_utf8_lossy(&buf).into_owned()))
}

fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n).collect::<String>())
    }
}

/// The first difference between the reference and the implementation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Divergence {
    /// The step (from 1; 0 is the position before the first step).
    pub step: usize,
    pub seat: Option<u8>,
    pub action: Option<String>,
    /// What differs: `result`, `events[2]`, `state.hands[1]`, `legal`, `observation[2].hand`, …
    pub field: String,
    pub reference: String,
    pub implementation: String,
    /// The rules and dispute readings involved (from the scenario's `exercises`, narrowed by what
    /// differs).
    pub rules: Vec<String>,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (&self.action, self.seat) {
            (Some(a), Some(s)) => write!(f, "step {} (seat {s}: {a})", self.step)?,
            _ if self.step == 0 => write!(f, "the start position")?,
            _ => write!(f, "step {} (checkpoint)", self.step)?,
        }
        write!(
            f,
            ": {}: reference {}, implementation {}",
            self.field, self.reference, self.implementation
        )?;
        if !self.rules.is_empty() {
            write!(f, "; rule: {}", self.rules.join(", "))?;
        }
        Ok(())
    }
}

/// A scenario's verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum Verdict {
    Pass,
    Fail { divergence: Divergence },
    Skipped { reason: String },
    Errored { error: String },
}

#[derive(Clone, Debug, Serialize)]
pub struct ScenarioReport {
    pub file: String,
    pub title: String,
    #[serde(flatten)]
    pub verdict: Verdict,
    /// Steps compared before the verdict.
    pub steps: usize,
    /// Rule paths the scenario says it exercises.
    pub rules: Vec<String>,
    /// Dispute readings the scenario exercises (`id=reading`; a bare id in `exercises` counts
    /// for the reading in force).
    pub readings: Vec<String>,
}

/// Options of a run.
#[derive(Clone, Debug)]
pub struct Options {
    pub timeout: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            timeout: Duration::from_millis(protocol::DEFAULT_TIMEOUT_MS),
        }
    }
}

/// Why a scenario stopped early.
enum Stop {
    Skipped(String),
    Errored(String),
    Diverged(Box<Divergence>),
}

fn exchange(imp: &mut dyn Implementation, msg: &Value, want: &[&str]) -> Result<Value, Stop> {
    let reply = imp.request(msg).map_err(Stop::Errored)?;
    let kind = reply.get("type").and_then(Value::as_str).unwrap_or("");
    match kind {
        "unsupported" => Err(Stop::Skipped(
            reply
                .get("reason")
                .and_then(Value::as_str)
                .unwrap_or("(no reason given)")
                .to_string(),
        )),
        "error" => Err(Stop::Errored(format!(
            "the implementation reported an error on `{}`: {}",
            msg["type"].as_str().unwrap_or("?"),
            reply
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("(no message)")
        ))),
        k if want.contains(&k) => Ok(reply),
        _ => Err(Stop::Errored(format!(
            "malformed reply to `{}`: expected type {}, got {}",
            msg["type"].as_str().unwrap_or("?"),
            want.join(" or "),
            clip(&reply.to_string(), 200)
        ))),
    }
}

fn hello(imp: &mut dyn Implementation) -> Result<(), Stop> {
    let r = exchange(
        imp,
        &json!({"type": "hello", "protocol": protocol::VERSION}),
        &["hello"],
    )?;
    match r.get("protocol").and_then(Value::as_u64) {
        Some(protocol::VERSION) => Ok(()),
        v => Err(Stop::Errored(format!(
            "the implementation speaks protocol {}, the harness {}",
            v.map_or("(none)".into(), |v| v.to_string()),
            protocol::VERSION
        ))),
    }
}

/// The first path where two JSON values differ, with both values there.
fn first_difference(path: &str, a: &Value, b: &Value) -> Option<(String, Value, Value)> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                let (va, vb) = (
                    x.get(k).unwrap_or(&Value::Null),
                    y.get(k).unwrap_or(&Value::Null),
                );
                if let Some(d) = first_difference(&p, va, vb) {
                    return Some(d);
                }
            }
            None
        }
        // Lists of plain values (a hand, a pile) are shown whole; lists of objects item by item.
        (Value::Array(x), Value::Array(y))
            if x.iter().chain(y).any(|v| v.is_object() || v.is_array()) =>
        {
            for i in 0..x.len().max(y.len()) {
                let (va, vb) = (x.get(i), y.get(i));
                match (va, vb) {
                    (Some(va), Some(vb)) => {
                        if let Some(d) = first_difference(&format!("{path}[{i}]"), va, vb) {
                            return Some(d);
                        }
                    }
                    _ => {
                        return Some((
                            format!("{path}[{i}]"),
                            va.cloned().unwrap_or(Value::Null),
                            vb.cloned().unwrap_or(Value::Null),
                        ));
                    }
                }
            }
            None
        }
        _ if a == b => None,
        _ => Some((path.to_string(), a.clone(), b.clone())),
    }
}

fn show(v: &Value) -> String {
    match v {
        Value::Null => "nothing".into(),
        Value::Array(items) if items.iter().all(Value::is_string) => {
            let w: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
            if w.is_empty() {
                "[]".into()
            } else {
                format!("[{}]", w.join(" "))
            }
        }
        Value::String(s) => s.clone(),
        _ => clip(&v.to_string(), 300),
    }
}

fn result_text(r: &ResultRecord) -> String {
    if r.ok {
        format!("ok ({} event(s))", r.events.len())
    } else {
        format!(
            "rejected {} ({})",
            r.reason.as_deref().unwrap_or("?"),
            r.message.as_deref().unwrap_or("")
        )
    }
}

// ------------------------------------------------------------------ naming the rule involved

/// Rule paths (prefixes) and dispute ids (prefixes) that a kind of difference is about.
fn topic(name: &str) -> &'static [&'static str] {
    match name {
        "push" => &[
            "push.",
            "pusher-draws",
            "push-with-one-stock-card",
            "push-card-visibility",
            "stock.",
        ],
        "drew" => &["pusher-draws", "stock.when-empty"],
        "take" => &["stock.", "discard."],
        "set" => &[
            "sets.",
            "set-",
            "same-rank-sets",
            "natural-twos",
            "wild-in-set-represents",
            "wilds.",
        ],
        "run" => &[
            "runs.",
            "ace-",
            "run-suits",
            "natural-twos",
            "wilds.",
            "run-join-split",
        ],
        "meld" => &[
            "sets.",
            "runs.",
            "wilds.",
            "rounds",
            "set-",
            "same-rank-sets",
            "natural-twos",
            "ace-",
            "run-",
            "same-suit-runs-in-contract",
            "all-wild-melds",
            "wild-",
            "contract-",
            "going-out",
        ],
        "rescue" => &[
            "rescue-",
            "rescued-wild-fate",
            "frozen-two",
            "wild-",
            "wilds.",
        ],
        "discard" => &[
            "discard.",
            "discard-restrictions",
            "no-legal-discard",
            "going-out",
        ],
        "scoring" => &[
            "scoring.",
            "two-penalty-value",
            "ace-penalty-value",
            "stock-out",
            "ties",
            "six-ten-partnerships",
        ],
        "deal" => &[
            "rounds",
            "decks.",
            "players.",
            "upcard-wild",
            "bury-position",
            "six-ten-first-player",
            "capit-third-deck",
        ],
        _ => &[],
    }
}

/// What is special about the cards of a meld, as rules: a repeated suit in a set, a run through
/// K-A-2, a natural 2 in a run, more than four cards in a set, mixed suits.
fn meld_features(rules: &crate::rules::Rules, spec: &MeldSpec) -> Vec<&'static str> {
    let naturals: Vec<Card> = spec
        .cards
        .iter()
        .copied()
        .filter(|c| !rules.is_wild(*c))
        .collect();
    let mut out = Vec::new();
    let one_rank = naturals.windows(2).all(|w| w[0].rank() == w[1].rank());
    let one_suit = naturals.windows(2).all(|w| w[0].suit() == w[1].suit());
    if one_rank && spec.kind != Some(spec::MeldKind::Run) && !naturals.is_empty() {
        let mut suits: Vec<_> = naturals.iter().filter_map(|c| c.suit()).collect();
        let n = suits.len();
        suits.sort();
        suits.dedup();
        if suits.len() < n {
            out.push("set-duplicate-suits");
        }
        if spec.cards.len() > 4 {
            out.push("set-max-size");
        }
    }
    if one_suit && spec.kind != Some(spec::MeldKind::Set) {
        use crate::base::card::Rank;
        let has = |r: Rank| {
            spec.cards.iter().any(|c| c.rank() == Some(r))
                || spec.declared.iter().any(|(_, t)| t.rank() == Some(r))
        };
        if has(Rank::King) && has(Rank::Ace) && has(Rank::Two) {
            out.push("runs.wrap-around");
            out.push("ace-both-ends");
        }
    }
    if !one_rank && !one_suit {
        out.push("run-suits");
    }
    out
}

fn matches_prefix(item: &str, prefixes: &[&str]) -> bool {
    let name = item.split('=').next().unwrap_or(item);
    let name = name.strip_prefix("readings.").unwrap_or(name);
    prefixes.iter().any(|p| name.starts_with(p))
}

/// The rules involved in a difference: what the scenario exercises, narrowed to what the
/// difference is about when that leaves something; for a scenario that names nothing (a fuzzed
/// game), the rules the difference is about, with the readings in force.
fn rules_involved(
    loaded: &Loaded,
    exercised: &[String],
    action: Option<&Action>,
    field: &str,
    event: Option<&str>,
) -> Vec<String> {
    let mut prefixes: Vec<&str> = Vec::new();
    let scoring = field.contains("totals")
        || matches!(event, Some("hand-ended" | "game-ended"))
        || field.contains("points");
    if scoring {
        prefixes.extend(topic("scoring"));
    } else if let Some(e) = event {
        let t = match e {
            "drew" => "drew",
            "pushed" => "push",
            "dealt" | "upcard" | "upcard-buried" => "deal",
            "rescued" => "rescue",
            "discarded" | "turn-ended" => "discard",
            _ => "",
        };
        prefixes.extend(topic(t));
    }
    let mut features: Vec<&str> = Vec::new();
    if prefixes.is_empty() {
        match action {
            Some(Action::Push) => prefixes.extend(topic("push")),
            Some(Action::TakeDiscard | Action::DrawStock) => prefixes.extend(topic("take")),
            Some(Action::Meld(specs)) => {
                for s in specs {
                    features.extend(meld_features(&loaded.rules, s));
                }
                prefixes.extend(topic("meld"));
            }
            Some(Action::LayOff { .. }) => {
                prefixes.extend(topic("meld"));
                prefixes.push("run-join-split");
            }
            Some(Action::Rescue { .. }) => prefixes.extend(topic("rescue")),
            Some(Action::Discard(_) | Action::EndTurn) => prefixes.extend(topic("discard")),
            None => {}
        }
    }
    // What is special about the cards decides first; then what the difference is about.
    for narrow in [&features[..], &prefixes[..]] {
        if narrow.is_empty() {
            continue;
        }
        let v: Vec<String> = exercised
            .iter()
            .filter(|e| matches_prefix(e, narrow))
            .cloned()
            .collect();
        if !v.is_empty() {
            return v;
        }
        // The scenario does not name it: name the rules themselves (small topics only).
        if narrow.len() <= 4 || exercised.is_empty() {
            let v = concrete_names(loaded, narrow);
            if !v.is_empty() {
                return v;
            }
        }
    }
    exercised.to_vec()
}

/// Rule paths and `dispute=reading` names (readings in force) matching `prefixes`.
fn concrete_names(loaded: &Loaded, prefixes: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for d in spec::rule_defs() {
        if spec::META.contains(&d.path.as_str()) || d.path.starts_with("readings.") {
            continue;
        }
        if loaded.raw.get(&d.path).is_some() && matches_prefix(&d.path, prefixes) {
            out.push(d.path.clone());
        }
    }
    for id in DisputeId::ALL {
        if matches_prefix(id.id(), prefixes)
            && let Some(r) = reading_in_force(loaded, id)
        {
            out.push(format!("{}={r}", id.id()));
        }
    }
    out
}

fn reading_in_force(loaded: &Loaded, id: DisputeId) -> Option<String> {
    match &loaded.raw.get(&format!("readings.{}", id.id()))?.value {
        spec::Leaf::Choice(s) | spec::Leaf::Text(s) => Some(s.clone()),
        _ => None,
    }
}

fn exercised_names(s: &Scenario) -> (Vec<String>, Vec<String>) {
    let rules = s.exercises.rules.clone();
    let readings = s
        .exercises
        .disputes
        .iter()
        .map(|(d, r)| {
            let r = r
                .clone()
                .or_else(|| reading_in_force(&s.rules, *d))
                .unwrap_or_default();
            format!("{}={r}", d.id())
        })
        .collect();
    (rules, readings)
}

// ------------------------------------------------------------------ one scenario

/// Whether a scenario sits under `engine-disagreements/` (written as the rules say where the
/// reference engine is known to do otherwise).
fn is_disagreement(file: &str) -> bool {
    Path::new(file)
        .components()
        .any(|c| c.as_os_str() == "engine-disagreements")
}

/// Runs one scenario against the implementation.
pub fn run_scenario(s: &Scenario, imp: &ImplSpec, opts: &Options) -> ScenarioReport {
    let (rules, readings) = exercised_names(s);
    let mut report = ScenarioReport {
        file: s.file.clone(),
        title: s.title.clone(),
        verdict: Verdict::Pass,
        steps: 0,
        rules,
        readings,
    };
    if is_disagreement(&s.file) {
        report.verdict = Verdict::Skipped {
            reason:
                "engine-disagreements: the reference engine is known to differ from this scenario"
                    .into(),
        };
        return report;
    }
    let replay = transcript::replay(s);
    let exercised: Vec<String> = report
        .rules
        .iter()
        .chain(report.readings.iter())
        .cloned()
        .collect();
    if let ImplSpec::BuiltIn = imp
        && let Some(f) = replay.failures.first()
    {
        let st = &replay.transcript.steps[f.step - 1];
        let action = s.steps[f.step - 1].action.clone();
        report.verdict = Verdict::Fail {
            divergence: Divergence {
                step: f.step,
                seat: st.seat,
                action: st.action.clone(),
                field: "expectation".into(),
                reference: format!("does not hold the scenario: {}", f.message),
                implementation: "(the reference itself)".into(),
                rules: rules_involved(&s.rules, &exercised, action.as_ref(), "", None),
            },
        };
        return report;
    }
    let mut instance = match imp.start(opts.timeout) {
        Ok(i) => i,
        Err(e) => {
            report.verdict = Verdict::Errored { error: e };
            return report;
        }
    };
    let outcome = compare(
        s,
        &replay.transcript,
        instance.as_mut(),
        &exercised,
        &mut report.steps,
    );
    instance.close();
    report.verdict = match outcome {
        Ok(()) => Verdict::Pass,
        Err(Stop::Skipped(reason)) => Verdict::Skipped { reason },
        Err(Stop::Errored(error)) => Verdict::Errored { error },
        Err(Stop::Diverged(divergence)) => Verdict::Fail {
            divergence: *divergence,
        },
    };
    report
}

fn compare(
    s: &Scenario,
    t: &transcript::Transcript,
    imp: &mut dyn Implementation,
    exercised: &[String],
    steps_done: &mut usize,
) -> Result<(), Stop> {
    hello(imp)?;
    exchange(imp, &protocol::start_message(&s.rules, &s.game), &["ok"])?;
    let mut reference = s.game.clone();
    let start = serde_json::to_value(&t.start).unwrap_or(Value::Null);
    let mut legal = true;
    check_state(imp, &start, 0, None, None, s, exercised)?;
    check_legal(imp, &reference, &mut legal, 0, None, None, s, exercised)?;
    for (rec, st) in t.steps.iter().zip(&s.steps) {
        let action = st.action.as_ref();
        if let (Some(a), Some(seat), Some(r)) = (action, rec.seat, &rec.result) {
            let reply = exchange(
                imp,
                &json!({"type": "apply", "seat": seat, "action": a.to_string()}),
                &["ok", "rejected"],
            )?;
            check_result(r, &reply, rec.step, seat, a, s, exercised)?;
            let _ = reference.apply(seat, a);
        }
        let state = serde_json::to_value(&rec.state).unwrap_or(Value::Null);
        check_state(imp, &state, rec.step, rec.seat, action, s, exercised)?;
        check_legal(
            imp, &reference, &mut legal, rec.step, rec.seat, action, s, exercised,
        )?;
        *steps_done = rec.step;
    }
    // Observations at the end, for every seat (when the implementation offers them).
    for seat in 0..reference.players {
        let reply = match exchange(
            imp,
            &json!({"type": "observe", "seat": seat}),
            &["observation"],
        ) {
            Ok(r) => r,
            Err(Stop::Skipped(_)) => break,
            Err(e) => return Err(e),
        };
        let want = serde_json::to_value(observe(&reference, seat)).unwrap_or(Value::Null);
        let got = reply.get("observation").cloned().unwrap_or(Value::Null);
        if let Some((path, a, b)) = first_difference("", &want, &got) {
            return Err(Stop::Diverged(Box::new(Divergence {
                step: *steps_done,
                seat: None,
                action: None,
                field: format!("observation[{seat}].{path}"),
                reference: show(&a),
                implementation: show(&b),
                rules: rules_involved(&s.rules, exercised, None, &path, None),
            })));
        }
    }
    Ok(())
}

fn check_result(
    want: &ResultRecord,
    reply: &Value,
    step: usize,
    seat: u8,
    action: &Action,
    s: &Scenario,
    exercised: &[String],
) -> Result<(), Stop> {
    let got_ok = reply["type"] == "ok";
    let div = |field: String, reference: String, implementation: String, event: Option<&str>| {
        Stop::Diverged(Box::new(Divergence {
            step,
            seat: Some(seat),
            action: Some(action.to_string()),
            rules: rules_involved(&s.rules, exercised, Some(action), &field, event),
            field,
            reference,
            implementation,
        }))
    };
    let got_text = || {
        if got_ok {
            "ok".to_string()
        } else {
            format!(
                "rejected {} ({})",
                reply["reason"].as_str().unwrap_or("?"),
                reply["message"].as_str().unwrap_or("")
            )
        }
    };
    if want.ok != got_ok {
        return Err(div("result".into(), result_text(want), got_text(), None));
    }
    if !want.ok {
        let code = reply["reason"].as_str().unwrap_or("");
        if Reason::from_code(code).is_none() {
            return Err(Stop::Errored(format!(
                "malformed reply: `{code}` is not a reason code"
            )));
        }
        if Some(code) != want.reason.as_deref() {
            return Err(div("result".into(), result_text(want), got_text(), None));
        }
        return Ok(());
    }
    let got = reply
        .get("events")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let want_v = Value::Array(want.events.clone());
    let got_v = Value::Array(got.clone());
    if let Some((path, a, b)) = first_difference("", &want_v, &got_v) {
        let index: Option<usize> = path
            .strip_prefix('[')
            .and_then(|p| p.split(']').next())
            .and_then(|n| n.parse().ok());
        let event = index.and_then(|i| {
            want.events
                .get(i)
                .or(got.get(i))
                .and_then(|e| e["event"].as_str())
        });
        let field = format!("events{path}");
        return Err(div(field, show(&a), show(&b), event));
    }
    Ok(())
}

fn check_state(
    imp: &mut dyn Implementation,
    want: &Value,
    step: usize,
    seat: Option<u8>,
    action: Option<&Action>,
    s: &Scenario,
    exercised: &[String],
) -> Result<(), Stop> {
    let reply = exchange(imp, &json!({"type": "state"}), &["state"])?;
    let got = reply.get("state").cloned().unwrap_or(Value::Null);
    if let Some((path, a, b)) = first_difference("", want, &got) {
        let field = format!("state.{path}");
        return Err(Stop::Diverged(Box::new(Divergence {
            step,
            seat,
            action: action.map(ToString::to_string),
            rules: rules_involved(&s.rules, exercised, action, &field, None),
            field,
            reference: show(&a),
            implementation: show(&b),
        })));
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn check_legal(
    imp: &mut dyn Implementation,
    reference: &Game,
    supported: &mut bool,
    step: usize,
    seat: Option<u8>,
    action: Option<&Action>,
    s: &Scenario,
    exercised: &[String],
) -> Result<(), Stop> {
    if !*supported {
        return Ok(());
    }
    let reply = match exchange(imp, &json!({"type": "legal"}), &["legal"]) {
        Ok(r) => r,
        Err(Stop::Skipped(_)) => {
            *supported = false;
            return Ok(());
        }
        Err(e) => return Err(e),
    };
    let norm = |t: &str| parse_action(t).map_or_else(|_| t.to_string(), |a| a.to_string());
    let got: BTreeSet<String> = reply
        .get("actions")
        .and_then(Value::as_array)
        .map(|v| v.iter().filter_map(Value::as_str).map(norm).collect())
        .unwrap_or_default();
    let want: BTreeSet<String> = crate::suite::protocol::compared_legal(reference)
        .into_iter()
        .collect();
    if got != want {
        let missing: Vec<&String> = want.difference(&got).take(5).collect();
        let extra: Vec<&String> = got.difference(&want).take(5).collect();
        let first = extra
            .first()
            .or(missing.first())
            .and_then(|t| parse_action(t).ok());
        return Err(Stop::Diverged(Box::new(Divergence {
            step,
            seat,
            action: action.map(ToString::to_string),
            field: "legal".into(),
            reference: format!("also lists {missing:?}"),
            implementation: format!("also lists {extra:?}"),
            rules: rules_involved(
                &s.rules,
                exercised,
                first.as_ref().or(action),
                "legal",
                None,
            ),
        })));
    }
    Ok(())
}

// ------------------------------------------------------------------ the suite and coverage

/// The result of running a directory of scenarios.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SuiteReport {
    pub implementation: String,
    pub scenarios: Vec<ScenarioReport>,
    /// Files that do not load, with their diagnostics rendered.
    pub invalid: Vec<(String, String)>,
}

impl SuiteReport {
    pub fn count(&self, which: &str) -> usize {
        self.scenarios
            .iter()
            .filter(|r| {
                matches!(
                    (&r.verdict, which),
                    (Verdict::Pass, "pass")
                        | (Verdict::Fail { .. }, "fail")
                        | (Verdict::Skipped { .. }, "skipped")
                        | (Verdict::Errored { .. }, "errored")
                )
            })
            .count()
    }

    /// 0 all passed (skips allowed), 1 a failure or error, 2 a scenario that does not load.
    pub fn exit_code(&self) -> u8 {
        if !self.invalid.is_empty() {
            2
        } else if self.count("fail") + self.count("errored") > 0 {
            1
        } else {
            0
        }
    }
}

/// Runs every scenario under `dir` (or the one file `dir`).
///
/// # Errors
/// `dir` cannot be read.
pub fn run_suite(dir: &Path, imp: &ImplSpec, opts: &Options) -> Result<SuiteReport, String> {
    let files = if dir.is_file() {
        vec![dir.to_path_buf()]
    } else {
        scenario::find_scenarios(dir).map_err(|e| format!("{}: {e}", dir.display()))?
    };
    if files.is_empty() {
        return Err(format!("{}: no scenario files (*.yaml)", dir.display()));
    }
    let mut report = SuiteReport {
        implementation: imp.describe(),
        ..SuiteReport::default()
    };
    for f in files {
        match scenario::load(&f, &[]) {
            Ok(s) => report.scenarios.push(run_scenario(&s, imp, opts)),
            Err(e) => report.invalid.push((f.display().to_string(), e.render())),
        }
    }
    Ok(report)
}

/// Which rules and readings the scenarios exercise, and which nothing touches.
#[derive(Clone, Debug, Serialize)]
pub struct Coverage {
    /// Per scenario: the rules and readings it exercises.
    pub scenarios: Vec<CoverageEntry>,
    /// Rule paths (of the rule table, metadata left out) no scenario exercises.
    pub untouched_rules: Vec<String>,
    /// Dispute readings no scenario exercises.
    pub untouched_readings: Vec<String>,
    /// Dispute readings not even in force in any scenario.
    pub never_in_force: Vec<String>,
    /// Readings (of disputes with more than one) that no scenario naming the dispute, with the
    /// reading in force, tells apart from the others: replayed under the other readings, it ends
    /// the same (see `settle`).
    pub untold_readings: Vec<String>,
    pub rules_total: usize,
    pub readings_total: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct CoverageEntry {
    pub file: String,
    pub rules: Vec<String>,
    pub readings: Vec<String>,
    /// Readings in force that differ from the built-in `push` defaults' reading for that dispute.
    pub readings_in_force: Vec<String>,
}

/// Coverage of the scenarios under `dir`.
///
/// # Errors
/// `dir` cannot be read.
pub fn coverage(dir: &Path) -> Result<(Coverage, Vec<(String, String)>), String> {
    let files = if dir.is_file() {
        vec![dir.to_path_buf()]
    } else {
        scenario::find_scenarios(dir).map_err(|e| format!("{}: {e}", dir.display()))?
    };
    let mut entries = Vec::new();
    let mut invalid = Vec::new();
    let mut rules_seen: BTreeSet<String> = BTreeSet::new();
    let mut readings_seen: BTreeSet<String> = BTreeSet::new();
    let mut in_force: BTreeSet<String> = BTreeSet::new();
    let mut naming: std::collections::BTreeMap<DisputeId, Vec<std::path::PathBuf>> =
        Default::default();
    for f in files {
        let s = match scenario::load(&f, &[]) {
            Ok(s) => s,
            Err(e) => {
                invalid.push((f.display().to_string(), e.render()));
                continue;
            }
        };
        let (rules, readings) = exercised_names(&s);
        rules_seen.extend(rules.iter().cloned());
        for r in &readings {
            readings_seen.insert(r.clone());
            if let Some((id, _)) = r.split_once('=') {
                rules_seen.insert(format!("readings.{id}"));
            }
        }
        let mut force = Vec::new();
        for id in DisputeId::ALL {
            if let Some(r) = reading_in_force(&s.rules, id) {
                let name = format!("{}={r}", id.id());
                in_force.insert(name.clone());
                force.push(name);
            }
        }
        for (d, _) in &s.exercises.disputes {
            naming.entry(*d).or_default().push(f.clone());
        }
        entries.push(CoverageEntry {
            file: f.display().to_string(),
            rules,
            readings,
            readings_in_force: force,
        });
    }
    let all_rules: Vec<String> = spec::rule_defs()
        .iter()
        .filter(|d| !spec::META.contains(&d.path.as_str()))
        .map(|d| d.path.clone())
        .collect();
    let all_readings: Vec<String> = DisputeId::ALL
        .iter()
        .flat_map(|d| {
            d.reading_names()
                .iter()
                .map(move |r| format!("{}={r}", d.id()))
        })
        .collect();
    // Only the readings that differ from push's defaults are worth listing per scenario.
    let defaults: BTreeSet<String> = crate::rules::load("push", &[])
        .map(|l| {
            DisputeId::ALL
                .iter()
                .filter_map(|d| reading_in_force(&l, *d).map(|r| format!("{}={r}", d.id())))
                .collect()
        })
        .unwrap_or_default();
    for e in &mut entries {
        e.readings_in_force.retain(|r| !defaults.contains(r));
    }
    // Each reading needs a scenario, with it in force, that another reading would end otherwise.
    let mut told: BTreeSet<String> = BTreeSet::new();
    for (d, files) in &naming {
        for f in files {
            if let Ok(st) = crate::suite::settle::settle(f, *d, &[])
                && st.differs()
                && let Some(r) = st.runs.iter().find(|r| r.in_force)
            {
                told.insert(format!("{}={}", d.id(), r.reading));
            }
        }
    }
    let untold_readings: Vec<String> = DisputeId::ALL
        .iter()
        .filter(|d| d.reading_names().len() > 1)
        .flat_map(|d| {
            d.reading_names()
                .iter()
                .map(move |r| format!("{}={r}", d.id()))
        })
        .filter(|r| !told.contains(r))
        .collect();
    Ok((
        Coverage {
            untouched_rules: all_rules
                .iter()
                .filter(|r| !rules_seen.contains(*r))
                .cloned()
                .collect(),
            untouched_readings: all_readings
                .iter()
                .filter(|r| !readings_seen.contains(*r))
                .cloned()
                .collect(),
            never_in_force: all_readings
                .iter()
                .filter(|r| !in_force.contains(*r))
                .cloned()
                .collect(),
            untold_readings,
            rules_total: all_rules.len(),
            readings_total: all_readings.len(),
            scenarios: entries,
        },
        invalid,
    ))
}

// ------------------------------------------------------------------ differential fuzzing

/// What `--random` found.
#[derive(Clone, Debug, Serialize)]
pub struct FuzzReport {
    pub games: u64,
    pub compared_games: u64,
    pub skipped_games: Vec<(u64, String)>,
    pub errored_games: Vec<(u64, String)>,
    pub actions: u64,
    /// The first divergence, shrunk, and where its scenario was written.
    pub found: Option<FuzzFinding>,
}

#[derive(Clone, Debug, Serialize)]
pub struct FuzzFinding {
    pub game: u64,
    pub seed: u64,
    /// The divergence in the random game (step = action number in the game, from 1).
    pub original: Divergence,
    /// The divergence of the shrunk scenario.
    pub shrunk: Divergence,
    pub actions: usize,
    pub file: PathBuf,
}

/// Options of `--random`.
#[derive(Clone, Debug)]
pub struct FuzzOptions {
    pub games: u64,
    pub seed: u64,
    /// The name or path the rules were given by (written into the scenario).
    pub rules_name: String,
    /// Readings applied over the rules (written into the scenario).
    pub readings: Vec<(DisputeId, String)>,
    pub players: Option<u8>,
    pub out: PathBuf,
    /// Near-melds tried per turn at most.
    pub probes: usize,
}

/// Near-melds of a hand that the reference refuses as no meld (`invalid-meld`): three naturals of
/// one rank, and three cards of one suit in sequence on the circular rank line (a wild, declared,
/// may fill one place). Fuzzing plays them to see whether the implementation refuses them too.
fn probes(game: &Game, limit: usize) -> Vec<Action> {
    use crate::base::card::{Rank, Suit};
    use crate::oracle::meld::Target;
    let seat = game.turn();
    let hand = &game.deal.hands[usize::from(seat)];
    let rules = &game.rules;
    let mut cands: Vec<Action> = Vec::new();
    // Sets: three naturals of one rank (copies allowed).
    for r in Rank::ALL {
        let cards: Vec<Card> = hand
            .iter()
            .filter(|(c, _)| !rules.is_wild(*c) && c.rank() == Some(r))
            .flat_map(|(c, k)| std::iter::repeat_n(c, usize::from(k)))
            .collect();
        if cards.len() >= 3 {
            for i in 0..cards.len() {
                for j in i + 1..cards.len() {
                    for k in j + 1..cards.len() {
                        cands.push(Action::Meld(vec![MeldSpec {
                            cards: vec![cards[i], cards[j], cards[k]],
                            kind: None,
                            declared: Vec::new(),
                        }]));
                    }
                }
            }
        }
    }
    // Runs: three places in a row on the circular line, each filled by the card itself or by a
    // wild of the hand declared as it (at most one wild).
    let wild = hand.iter().map(|(c, _)| c).find(|c| rules.is_wild(*c));
    for s in Suit::ALL {
        for start in 0..13u8 {
            let targets: Vec<Card> = (0..3)
                .filter_map(|k| Rank::from_number((start + k) % 13 + 1))
                .map(|r| Card::new(r, s))
                .collect();
            let mut cards = Vec::new();
            let mut declared = Vec::new();
            let mut used = Counts::new();
            let mut ok = true;
            for t in &targets {
                let have = hand.count(*t) > used.count(*t);
                if have && !rules.is_wild(*t) {
                    used.add(*t);
                    cards.push(*t);
                } else if have && declared.is_empty() {
                    // A two of the suit, in its own place: declare it as itself.
                    used.add(*t);
                    cards.push(*t);
                    declared.push((*t, Target::Card(*t)));
                } else if let Some(w) = wild.filter(|w| hand.count(*w) > used.count(*w))
                    && declared.is_empty()
                {
                    used.add(w);
                    cards.push(w);
                    declared.push((w, Target::Card(*t)));
                } else {
                    ok = false;
                    break;
                }
            }
            if ok {
                cands.push(Action::Meld(vec![MeldSpec {
                    cards,
                    kind: Some(spec::MeldKind::Run),
                    declared,
                }]));
            }
        }
    }
    cands
        .into_iter()
        .filter(|a| {
            let mut g = game.clone();
            matches!(g.apply(seat, a), Err(e) if e.code == Reason::InvalidMeld)
        })
        .take(limit)
        .collect()
}

/// Plays `opts.games` random games with the built-in players against the implementation; on
/// the first divergence, shrinks it to a scenario and writes it to `opts.out`.
///
/// # Errors
/// The implementation cannot be started at all, or the scenario cannot be written.
pub fn fuzz(
    loaded: &Loaded,
    imp: &ImplSpec,
    opts: &FuzzOptions,
    run: &Options,
) -> Result<FuzzReport, String> {
    let mut report = FuzzReport {
        games: opts.games,
        compared_games: 0,
        skipped_games: Vec::new(),
        errored_games: Vec::new(),
        actions: 0,
        found: None,
    };
    let players = opts.players.unwrap_or(loaded.rules.players.0);
    let rules = Arc::new(loaded.rules.clone());
    for i in 0..opts.games {
        let seed = opts.seed.wrapping_add(i);
        let game = Game::new(Arc::clone(&rules), players, 0, seed, Vec::new()).map_err(|e| e.0)?;
        let mut instance = imp.start(run.timeout)?;
        let outcome = fuzz_game(
            loaded,
            game,
            seed,
            instance.as_mut(),
            opts,
            &mut report.actions,
        );
        instance.close();
        match outcome {
            Ok(()) => report.compared_games += 1,
            Err(FuzzStop::Skipped(r)) => report.skipped_games.push((i, r)),
            Err(FuzzStop::Errored(e)) => report.errored_games.push((i, e)),
            Err(FuzzStop::Diverged {
                before,
                seat,
                action,
                divergence,
                step,
            }) => {
                let shrunk = shrink(loaded, &before, seat, &action, imp, opts, run, seed, i);
                let (text, scen_div) = match shrunk {
                    Some(x) => x,
                    None => {
                        report.errored_games.push((
                            i,
                            format!(
                                "diverged at action {step} ({divergence}), but no scenario from the position before it reproduces the divergence"
                            ),
                        ));
                        continue;
                    }
                };
                std::fs::create_dir_all(&opts.out)
                    .map_err(|e| format!("{}: {e}", opts.out.display()))?;
                let file = opts
                    .out
                    .join(format!("fuzz-seed-{seed}-action-{step}.yaml"));
                std::fs::write(&file, &text).map_err(|e| format!("{}: {e}", file.display()))?;
                report.found = Some(FuzzFinding {
                    game: i,
                    seed,
                    original: *divergence,
                    actions: 1,
                    shrunk: scen_div,
                    file,
                });
                return Ok(report);
            }
        }
    }
    Ok(report)
}

enum FuzzStop {
    Skipped(String),
    Errored(String),
    Diverged {
        before: Box<Game>,
        seat: u8,
        action: Action,
        divergence: Box<Divergence>,
        step: usize,
    },
}

fn fuzz_game(
    loaded: &Loaded,
    mut game: Game,
    seed: u64,
    imp: &mut dyn Implementation,
    opts: &FuzzOptions,
    actions: &mut u64,
) -> Result<(), FuzzStop> {
    let map = |e: Stop| match e {
        Stop::Skipped(r) => FuzzStop::Skipped(r),
        Stop::Errored(e) => FuzzStop::Errored(e),
        Stop::Diverged(_) => FuzzStop::Errored("unexpected".into()),
    };
    hello(imp).map_err(map)?;
    exchange(imp, &protocol::start_message(loaded, &game), &["ok"]).map_err(map)?;
    let bots_by_seat = [Bot::Greedy, Bot::Random];
    let mut rng = Rng::new(seed ^ 0x5EED);
    let mut step = 0usize;
    let bound = 20_000;
    while !game.is_over() && step < bound {
        let seat = game.turn();
        let mut plays: Vec<Action> = Vec::new();
        if game.deal.stage == Stage::Play {
            plays.extend(probes(&game, opts.probes));
        }
        let bot = bots_by_seat[usize::from(seat) % bots_by_seat.len()];
        let chosen = bots::choose(bot, &game, &mut rng);
        plays.push(chosen);
        for a in plays {
            step += 1;
            *actions += 1;
            let before = game.clone();
            let result = match game.apply(seat, &a) {
                Ok(ev) => ResultRecord {
                    ok: true,
                    events: ev.iter().map(transcript::event_json).collect(),
                    reason: None,
                    message: None,
                    events_text: Vec::new(),
                },
                Err(e) => ResultRecord {
                    ok: false,
                    events: Vec::new(),
                    reason: Some(e.code.code().into()),
                    message: Some(e.message),
                    events_text: Vec::new(),
                },
            };
            let diverged = |d: Stop| match d {
                Stop::Diverged(divergence) => FuzzStop::Diverged {
                    before: Box::new(before.clone()),
                    seat,
                    action: a.clone(),
                    divergence,
                    step,
                },
                other => map(other),
            };
            let reply = exchange(
                imp,
                &json!({"type": "apply", "seat": seat, "action": a.to_string()}),
                &["ok", "rejected"],
            )
            .map_err(map)?;
            let dummy = fuzz_scenario_stub(loaded, &before);
            check_result(&result, &reply, step, seat, &a, &dummy, &[]).map_err(diverged)?;
            let want = serde_json::to_value(transcript::state(&game)).unwrap_or(Value::Null);
            check_state(imp, &want, step, Some(seat), Some(&a), &dummy, &[]).map_err(diverged)?;
        }
    }
    Ok(())
}

/// A scenario around a game, for naming rules in a divergence (no steps, nothing exercised).
fn fuzz_scenario_stub(loaded: &Loaded, game: &Game) -> Scenario {
    Scenario {
        file: "(random game)".into(),
        title: String::new(),
        description: None,
        rules: loaded.clone(),
        game: game.clone(),
        steps: Vec::new(),
        exercises: scenario::Exercises::default(),
    }
}

/// A position to write as a scenario: the game's deal, with the hands, piles and melds that
/// shrinking may cut down.
#[derive(Clone)]
struct Cut {
    hands: Vec<Vec<Card>>,
    stock: Vec<Card>,
    discard: Vec<Card>,
    table: Vec<(u8, MeldSpec)>,
}

fn yaml_cards(c: &[Card]) -> String {
    if c.is_empty() {
        "none".into()
    } else {
        c.iter().map(Card::to_string).collect::<Vec<_>>().join(" ")
    }
}

#[allow(clippy::too_many_arguments)]
fn scenario_text(
    rules_name: &str,
    readings: &[(DisputeId, String)],
    g: &Game,
    cut: &Cut,
    seat: u8,
    action: &Action,
    expect: &str,
    exercises: &[String],
    description: &str,
) -> String {
    // The schema line is right once the file moves into a topic directory of the suite.
    let mut y = String::from("# yaml-language-server: $schema=../schema/scenario.schema.json\n");
    y.push_str(&format!(
        "title: {}\n",
        spec::quote(&format!(
            "Found by differential fuzzing: seat {seat} plays `{action}`"
        ))
    ));
    y.push_str(&format!("description: {}\n", spec::quote(description)));
    y.push_str(&format!("rules: {}\n", spec::quote(rules_name)));
    if !readings.is_empty() {
        let r: Vec<String> = readings
            .iter()
            .map(|(d, r)| format!("{}: {}", d.id(), spec::quote(r)))
            .collect();
        y.push_str(&format!("readings: {{{}}}\n", r.join(", ")));
    }
    let scores: Vec<String> = g
        .results
        .iter()
        .map(|r| {
            format!(
                "[{}]",
                r.points
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
        .collect();
    y.push_str(&format!(
        "table: {{players: {}, dealer: {}, round: {}, scores: [{}]}}\n",
        g.players,
        g.dealer,
        g.round + 1,
        scores.join(", ")
    ));
    y.push_str("cards:\n  hands:\n");
    for (s, h) in cut.hands.iter().enumerate() {
        if !h.is_empty() {
            y.push_str(&format!("    {s}: {}\n", yaml_cards(h)));
        }
    }
    y.push_str(&format!("  stock: {}\n", yaml_cards(&cut.stock)));
    y.push_str(&format!("  discard: {}\n", yaml_cards(&cut.discard)));
    y.push_str("  rest: stock\n");
    if !cut.table.is_empty() {
        y.push_str("  table:\n");
        for (o, m) in &cut.table {
            y.push_str(&format!(
                "    - {{{o}: {}}}\n",
                spec::quote(&protocol::meld_text(m))
            ));
        }
    }
    let met: Vec<String> = g
        .deal
        .progress
        .iter()
        .enumerate()
        .filter(|(_, p)| p.done)
        .map(|(s, _)| s.to_string())
        .collect();
    y.push_str(&format!("  contract-met: [{}]\n", met.join(", ")));
    y.push_str(&format!("  turn: {}\n", g.deal.turn));
    y.push_str(&format!(
        "  stage: {}\n",
        if g.deal.stage == Stage::Play {
            "play"
        } else {
            "draw"
        }
    ));
    if let Some(t) = g.deal.taken {
        y.push_str(&format!("  taken: {t}\n"));
    }
    y.push_str(&format!(
        "steps:\n  - {{seat: {seat}, do: {}, expect: {expect}}}\n",
        spec::quote(&action.to_string())
    ));
    let (rules, disputes): (Vec<&String>, Vec<&String>) = exercises
        .iter()
        .partition(|e| e.contains('.') || !e.contains('='));
    let q = |v: Vec<&String>| {
        v.iter()
            .map(|s| spec::quote(s))
            .collect::<Vec<_>>()
            .join(", ")
    };
    y.push_str(&format!(
        "exercises:\n  rules: [{}]\n  disputes: [{}]\n",
        q(rules),
        q(disputes)
    ));
    y
}

/// Shrinks a divergence found at `action` by `seat` in the position `before`: a scenario from that
/// position with that one action, then with cards taken out of the hands, the stock, the
/// discard pile and the table (they go to the rest of the stock) while it still diverges.
/// Returns the scenario text and its divergence.
#[allow(clippy::too_many_arguments)]
fn shrink(
    loaded: &Loaded,
    before: &Game,
    seat: u8,
    action: &Action,
    imp: &ImplSpec,
    opts: &FuzzOptions,
    run: &Options,
    seed: u64,
    game_index: u64,
) -> Option<(String, Divergence)> {
    let mut reference = before.clone();
    let expect = match reference.apply(seat, action) {
        Ok(_) => "ok".to_string(),
        Err(e) => format!("{{rejected: {}}}", e.code.code()),
    };
    let d = &before.deal;
    let mut cut = Cut {
        hands: d.hands.iter().map(Counts::cards).collect(),
        stock: d.stock.iter().rev().copied().collect(),
        discard: d.discard.iter().rev().copied().collect(),
        table: d
            .table
            .iter()
            .map(|m| (m.owner, protocol::table_meld_spec(&before.rules, m)))
            .collect(),
    };
    let description = format!(
        "Random game {game_index} (seed {seed}) of `conform --random`, cut at the first divergence and shrunk. The expectation is the reference's verdict."
    );
    // First try: what the divergence is about, named without a scenario.
    let stub = fuzz_scenario_stub(loaded, before);
    let topic_names = rules_involved(&stub.rules, &[], Some(action), "", None);
    let attempt = |cut: &Cut| -> Option<(String, Divergence)> {
        let text = scenario_text(
            &opts.rules_name,
            &opts.readings,
            before,
            cut,
            seat,
            action,
            &expect,
            &topic_names,
            &description,
        );
        let s = scenario::load_text("(shrinking)", &text, Path::new("."), &[]).ok()?;
        match run_scenario(&s, imp, run).verdict {
            Verdict::Fail { divergence } => Some((text, divergence)),
            _ => None,
        }
    };
    let mut best = attempt(&cut)?;
    // Stock: the fewest top cards listed (the rest goes under them in pack order).
    let n = cut.stock.len();
    for k in 0..n {
        let mut c = cut.clone();
        c.stock.truncate(k);
        if let Some(b) = attempt(&c) {
            cut = c;
            best = b;
            break;
        }
    }
    // Discard pile: the fewest top cards.
    let n = cut.discard.len();
    for k in 0..n {
        let mut c = cut.clone();
        c.discard.truncate(k);
        if let Some(b) = attempt(&c) {
            cut = c;
            best = b;
            break;
        }
    }
    // Table melds, one by one.
    let mut i = 0;
    while i < cut.table.len() {
        let mut c = cut.clone();
        c.table.remove(i);
        match attempt(&c) {
            Some(b) => {
                cut = c;
                best = b;
            }
            None => i += 1,
        }
    }
    // Hand cards, one by one.
    for s in 0..cut.hands.len() {
        let mut i = 0;
        while i < cut.hands[s].len() {
            let mut c = cut.clone();
            c.hands[s].remove(i);
            match attempt(&c) {
                Some(b) => {
                    cut = c;
                    best = b;
                }
                None => i += 1,
            }
        }
    }
    Some(best)
}

/// Seeds for a readable list of who plays: the players the fuzzer uses.
pub const FUZZ_BOTS: &str = "greedy at even seats, random at odd seats";

/// Groups reports by verdict name, for summaries.
pub fn summary(report: &SuiteReport) -> BTreeMap<&'static str, usize> {
    let mut m = BTreeMap::new();
    for k in ["pass", "fail", "skipped", "errored"] {
        m.insert(k, report.count(k));
    }
    m
}
