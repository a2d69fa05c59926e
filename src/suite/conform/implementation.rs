//! The implementation under test, seen from the harness: where it comes from ([`ImplSpec`]), and
//! one side of the protocol ([`Implementation`]): the built-in engine in process, or an external
//! program started as a child process. A child is read and written by threads of its own (its
//! stdout line by line with the protocol's length limit, its stdin, the tail of its stderr), so a
//! reply that never comes, never ends or is not JSON costs the harness a timeout, never a hang.
//!
//! This module knows the protocol's lines, not its messages: what is asked and what the replies
//! mean is `compare.rs`'s.

use super::clip;
use crate::suite::protocol::{self, Line, Server};
use serde_json::{Value, json};
use std::io::{BufReader, Write as _};
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, Stdio};
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

    pub(super) fn start(&self, timeout: Duration) -> Result<Box<dyn Implementation>, String> {
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

/// What the thread reading a child's stdout hands over: a line, or why there is none.
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
        let stdin: ChildStdin = child.stdin.take().ok_or("no stdin")?;
        let stderr_pipe = child.stderr.take().ok_or("no stderr")?;
        let from_child = read_lines(stdout);
        let to_child = write_lines(stdin);
        let stderr = keep_stderr_tail(stderr_pipe);
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

/// Starts the thread that reads the child's stdout, line by line within the protocol's limit,
/// until the end, a line too long or a read error (each handed over as the last item).
fn read_lines(stdout: ChildStdout) -> Receiver<FromChild> {
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
    from_child
}

/// Starts the thread that writes each line it is sent to the child's stdin, until the sender is
/// dropped or the child stops reading.
fn write_lines(mut stdin: ChildStdin) -> Sender<String> {
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
    to_child
}

/// Starts the thread that keeps the last 4,096 bytes the child writes to stderr, for messages.
fn keep_stderr_tail(stderr_pipe: ChildStderr) -> Arc<Mutex<Vec<u8>>> {
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
    stderr
}

/// Reads one line of at most `limit` bytes; stops reading as soon as the limit is passed (a line
/// that never ends must not hold the harness).
pub(super) fn read_capped(input: &mut dyn std::io::BufRead, limit: usize) -> std::io::Result<Line> {
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
