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
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

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

    /// Whether the command can be started at all: its program exists (a path with a `/` as it
    /// is, a bare name somewhere on `PATH`) and is an executable file. Nothing is started.
    ///
    /// # Errors
    /// The program does not exist, in words.
    pub fn check_program(&self) -> Result<(), String> {
        let ImplSpec::Command(words) = self else {
            return Ok(());
        };
        let program = &words[0];
        let runnable = |p: &std::path::Path| {
            use std::os::unix::fs::PermissionsExt as _;
            p.metadata()
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        };
        let path = std::path::Path::new(program);
        let found = if program.contains('/') {
            runnable(path)
        } else {
            std::env::var_os("PATH").is_some_and(|paths| {
                std::env::split_paths(&paths).any(|d| runnable(&d.join(program)))
            })
        };
        if found {
            Ok(())
        } else if program.contains('/') && path.is_file() {
            Err(format!("--impl: `{program}`: not executable"))
        } else if program.contains('/') {
            Err(format!("--impl: `{program}`: no such file"))
        } else {
            Err(format!(
                "--impl: `{program}`: no such command (not found on PATH)"
            ))
        }
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

/// The process groups of the implementations running now, and whether the harness is ending
/// (then no new one starts): [`end_all`] ends them when `conform` is stopped by a signal.
static GROUPS: Mutex<(Vec<i32>, bool)> = Mutex::new((Vec::new(), false));

/// Ends every implementation running now, each with its whole process group, and keeps new ones
/// from starting: for a signal handler of the harness (`conform` stopped by SIGTERM or SIGINT),
/// which exits after it.
pub fn end_all() {
    let mut g = GROUPS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    g.1 = true;
    for &id in &g.0 {
        if let Some(pid) = rustix::process::Pid::from_raw(id) {
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
    }
    // The lock is kept by the caller's thread until the process exits: nothing starts after this.
    std::mem::forget(g);
}

/// An external implementation: a child process in a process group of its own (so that whatever
/// it starts ends with it), a thread reading its stdout line by line (with the length limit), one
/// writing its stdin and one keeping the tail of its stderr, so that the harness itself never
/// blocks. Ending it kills the whole group, reaps the child and joins the threads: nothing of it
/// outlives it.
struct Process {
    child: Child,
    /// The child's process group (its own pid).
    group: Option<rustix::process::Pid>,
    to_child: Option<Sender<String>>,
    from_child: Receiver<FromChild>,
    stderr: Arc<Mutex<Vec<u8>>>,
    threads: Vec<JoinHandle<()>>,
    timeout: Duration,
    dead: bool,
    /// How the child ended, once reaped.
    status: Option<std::process::ExitStatus>,
}

impl Process {
    fn spawn(words: &[String], timeout: Duration) -> Result<Process, String> {
        use std::os::unix::process::CommandExt as _;
        let mut cmd = Command::new(&words[0]);
        cmd.args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        // Started and registered under the lock, so that a signal's `end_all` sees every group.
        let mut child = {
            let mut groups = GROUPS
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if groups.1 {
                return Err("the harness is ending".into());
            }
            let child = cmd
                .spawn()
                .map_err(|e| format!("cannot start `{}`: {e}", words.join(" ")))?;
            if let Ok(id) = i32::try_from(child.id()) {
                groups.0.push(id);
            }
            child
        };
        let group = i32::try_from(child.id())
            .ok()
            .and_then(rustix::process::Pid::from_raw);
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let stdin: ChildStdin = child.stdin.take().ok_or("no stdin")?;
        let stderr_pipe = child.stderr.take().ok_or("no stderr")?;
        let (from_child, reader) = read_lines(stdout);
        let (to_child, writer) = write_lines(stdin);
        let (stderr, keeper) = keep_stderr_tail(stderr_pipe);
        Ok(Process {
            child,
            group,
            to_child: Some(to_child),
            from_child,
            stderr,
            threads: vec![reader, writer, keeper],
            timeout,
            dead: false,
            status: None,
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

    /// Kills the child's whole process group (before the child is reaped, so the group's id
    /// cannot have been taken by another), reaps the child and joins the threads.
    fn kill(&mut self) {
        self.to_child = None;
        if !self.dead {
            if let Some(g) = self.group {
                let _ = rustix::process::kill_process_group(g, rustix::process::Signal::KILL);
            }
            let _ = self.child.kill();
            self.status = self.child.wait().ok();
            if let Some(g) = self.group {
                let mut groups = GROUPS
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                groups.0.retain(|&id| id != g.as_raw_nonzero().get());
            }
            self.dead = true;
        }
        // The pipes close with the group, and each thread ends at their end. A process that left
        // the group and holds a pipe keeps its thread waiting: that one is let go after a while.
        let deadline = Instant::now() + Duration::from_millis(500);
        while self.threads.iter().any(|t| !t.is_finished()) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(2));
        }
        for t in std::mem::take(&mut self.threads) {
            if t.is_finished() {
                let _ = t.join();
            }
        }
    }

    /// Whether the child has exited (without reaping it, so that its group can still be killed).
    fn exited(&self) -> bool {
        use rustix::process::{WaitId, WaitIdOptions, waitid};
        self.group.is_some_and(|pid| {
            matches!(
                waitid(
                    WaitId::Pid(pid),
                    WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT
                ),
                Ok(Some(_))
            )
        })
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
                    "malformed reply to `{kind}`: not JSON ({e}): {}{}",
                    clip(&l, 200),
                    self.stderr_tail()
                )
            }),
            Ok(FromChild::TooLong) => {
                self.kill();
                Err(format!(
                    "the reply to `{kind}` is longer than {} bytes; the implementation was stopped{}",
                    protocol::MAX_LINE,
                    self.stderr_tail()
                ))
            }
            Ok(FromChild::Eof) | Err(RecvTimeoutError::Disconnected) => {
                // Give the exit status a moment to be known (without reaping the child, so that
                // its group is still its own when it is killed).
                let mut exited = false;
                for _ in 0..50 {
                    if self.exited() {
                        exited = true;
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
                self.kill();
                let status = self
                    .status
                    .filter(|_| exited)
                    .map_or("still running".into(), |s| s.to_string());
                let tail = self.stderr_tail();
                Err(format!(
                    "the implementation closed its output before replying to `{kind}` ({status}){tail}"
                ))
            }
            Ok(FromChild::Failed(e)) => {
                self.kill();
                Err(format!(
                    "reading the reply to `{kind}` failed: {e}{}",
                    self.stderr_tail()
                ))
            }
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(format!(
                    "no reply to `{kind}` within {} ms; the implementation was stopped{}",
                    self.timeout.as_millis(),
                    self.stderr_tail()
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
                if self.exited() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        // Whatever it left running in its group ends with it.
        self.kill();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Starts the thread that reads the child's stdout, line by line within the protocol's limit,
/// until the end, a line too long or a read error (each handed over as the last item).
fn read_lines(stdout: ChildStdout) -> (Receiver<FromChild>, JoinHandle<()>) {
    let (tx, from_child) = mpsc::channel();
    let thread = named("conform-stdout", move || {
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
    (from_child, thread)
}

/// Starts the thread that writes each line it is sent to the child's stdin, until the sender is
/// dropped or the child stops reading.
fn write_lines(mut stdin: ChildStdin) -> (Sender<String>, JoinHandle<()>) {
    let (to_child, rx) = mpsc::channel::<String>();
    let thread = named("conform-stdin", move || {
        for line in rx {
            if writeln!(stdin, "{line}")
                .and_then(|()| stdin.flush())
                .is_err()
            {
                return;
            }
        }
    });
    (to_child, thread)
}

/// Starts the thread that keeps the last 4,096 bytes the child writes to stderr, for messages.
fn keep_stderr_tail(stderr_pipe: ChildStderr) -> (Arc<Mutex<Vec<u8>>>, JoinHandle<()>) {
    let stderr = Arc::new(Mutex::new(Vec::new()));
    let keep = Arc::clone(&stderr);
    let thread = named("conform-stderr", move || {
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
    (stderr, thread)
}

/// Starts a thread named `name` (the harness's threads are told apart by name: a test counts
/// them); as `std::thread::spawn`, it panics if the system cannot start a thread.
fn named(name: &str, f: impl FnOnce() + Send + 'static) -> JoinHandle<()> {
    std::thread::Builder::new()
        .name(name.into())
        .spawn(f)
        .expect("a thread starts")
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
