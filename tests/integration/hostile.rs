//! Hostile input through the command line: each input below is refused with exit 2 and a
//! message that says what is wrong and where, without a panic, well within a bound that only
//! catches hangs (the limits themselves are in `docs/LIMITS.md`; time and memory measured by hand
//! are in `fuzz/README.md`).
//!
//! The other side of the protocol is tested in `tests/integration/conform.rs`
//! (`broken_implementations_are_errored_and_the_harness_goes_on`): an implementation that hangs,
//! dies mid-game, sends a line that never ends or speaks nonsense is stopped and its scenario
//! reported errored (exit 1: the input to the oracle was fine, the implementation failed), and
//! `serve_answers_every_message_and_survives_bad_lines` sends the reference an over-long line.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_push-rummy");
/// Catches a hang, not a slow machine: every case here takes well under a second unloaded.
const HANG: Duration = Duration::from_secs(20);

struct Tmp(PathBuf);

impl Tmp {
    fn new(tag: &str) -> Tmp {
        let dir =
            std::env::temp_dir().join(format!("push-rummy-hostile-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        Tmp(dir)
    }

    fn file(&self, name: &str, bytes: &[u8]) -> String {
        let p = self.0.join(name);
        std::fs::write(&p, bytes).expect("write");
        p.to_str().expect("UTF-8 path").to_string()
    }
}

impl Drop for Tmp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs the binary; returns its output and how long it took. A run past [`HANG`] is killed and
/// fails the test there, so a hang fails rather than blocks.
fn run(args: &[&str]) -> (Output, Duration) {
    use std::io::Read as _;
    let started = Instant::now();
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("push-rummy runs");
    // Read both pipes while waiting, so a chatty child never blocks on a full pipe.
    let mut out_pipe = child.stdout.take().expect("piped");
    let mut err_pipe = child.stderr.take().expect("piped");
    let out_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out_pipe.read_to_end(&mut v);
        v
    });
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err_pipe.read_to_end(&mut v);
        v
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("waits") {
            break status;
        }
        if started.elapsed() > HANG {
            let _ = child.kill();
            let _ = child.wait();
            panic!("push-rummy {args:?} still ran after {HANG:?}: killed");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let out = Output {
        status,
        stdout: out_reader.join().expect("reads"),
        stderr: err_reader.join().expect("reads"),
    };
    (out, started.elapsed())
}

/// Exit 2, no panic, `want` in the message, within [`HANG`].
fn refused(args: &[&str], want: &[&str]) -> String {
    let (out, took) = run(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: exit\n{err}");
    assert!(!err.contains("panicked"), "{args:?}: panic\n{err}");
    for w in want {
        assert!(err.contains(w), "{args:?}: `{w}` not in\n{err}");
    }
    assert!(took < HANG, "{args:?}: took {took:?}");
    assert!(
        err.len() < 64 * 1024,
        "{args:?}: {} bytes of messages",
        err.len()
    );
    err
}

const SCENARIO: &str = "title: hostile
rules: push
table: {players: 4, dealer: 0}
cards: {hands: {1: 9D 4C}, discard: 8H, stock: 4S, rest: stock, turn: 1}
exercises: {sources: [\"002\"]}
";

fn scenario_with(steps: &str) -> Vec<u8> {
    format!("{SCENARIO}steps:\n{steps}").into_bytes()
}

/// Nine levels of nine aliases: 387 million strings if expanded.
fn billion_laughs() -> String {
    let mut s = String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for i in 1..10 {
        let refs = vec![format!("*a{}", i - 1); 9].join(", ");
        s.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
    }
    s
}

#[test]
fn an_alias_bomb_is_refused() {
    let t = Tmp::new("bomb");
    let rules = t.file(
        "bomb.yaml",
        format!("extends: push\n{}", billion_laughs()).as_bytes(),
    );
    refused(
        &["rules", "check", &rules],
        &[
            "the file expands to more than 250000 YAML values",
            "bomb.yaml:",
        ],
    );
    let mut s = SCENARIO.to_string();
    s.push_str("steps: []\n");
    s.push_str(&billion_laughs());
    let sc = t.file("bomb-scenario.yaml", s.as_bytes());
    refused(
        &["replay", &sc],
        &["expands to more than 250000 YAML values"],
    );
}

#[test]
fn a_50_mb_file_is_refused_without_reading_it_all() {
    let t = Tmp::new("big");
    let mut text = b"extends: push\n# ".to_vec();
    text.resize(50 * 1024 * 1024, b'x');
    text.push(b'\n');
    let rules = t.file("big.yaml", &text);
    refused(
        &["rules", "check", &rules],
        &[
            "the file is 52428801 bytes; the limit is 4194304 bytes",
            "big.yaml",
        ],
    );
    let sc = t.file("big-scenario.yaml", &text);
    refused(
        &["replay", &sc],
        &["the file is 52428801 bytes; the limit is 4194304"],
    );
    // A stream without end is read no further than the limit.
    refused(
        &["rules", "check", "/dev/zero"],
        &["the file is larger than the limit of 4194304 bytes"],
    );
    refused(
        &["replay", "/dev/zero"],
        &["larger than the limit of 4194304 bytes"],
    );
}

#[test]
fn nesting_10000_deep_is_refused() {
    let t = Tmp::new("deep");
    let deep = "[".repeat(10_000) + &"]".repeat(10_000);
    let rules = t.file(
        "deep.yaml",
        format!("extends: push\nx: {deep}\n").as_bytes(),
    );
    refused(
        &["rules", "check", &rules],
        &["the file nests deeper than 64 levels", "deep.yaml:2:"],
    );
    let maps = "{a: ".repeat(10_000) + "1" + &"}".repeat(10_000);
    let sc = t.file(
        "deep-scenario.yaml",
        &scenario_with(&format!("  - {{check: {maps}}}\n")),
    );
    refused(
        &["replay", &sc],
        &[
            "the file nests deeper than 64 levels",
            "deep-scenario.yaml:7:",
        ],
    );
}

#[test]
fn invalid_utf8_is_refused_with_its_position() {
    let t = Tmp::new("utf8");
    let rules = t.file("latin1.yaml", b"extends: push\nname: \"Caf\xe9 rules\"\n");
    refused(
        &["rules", "check", &rules],
        &["the file is not valid UTF-8 text", "latin1.yaml:2:11"],
    );
    let mut s = scenario_with("  - {seat: 1, do: take-discard}\n");
    s.extend_from_slice(b"# \xff\xfe\n");
    let sc = t.file("latin1-scenario.yaml", &s);
    refused(
        &["replay", &sc],
        &[
            "the file is not valid UTF-8 text",
            "latin1-scenario.yaml:8:3",
        ],
    );
}

/// Deterministic noise (xorshift), 64 KiB.
fn noise(seed: u64, ascii: bool) -> Vec<u8> {
    let mut x = seed;
    (0..65_536)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if ascii {
                b' ' + (x % 95) as u8
            } else {
                (x >> 24) as u8
            }
        })
        .collect()
}

#[test]
fn binary_garbage_is_refused() {
    let t = Tmp::new("garbage");
    let bin = t.file("garbage.yaml", &noise(6, false));
    refused(
        &["rules", "check", &bin],
        &["the file is not valid UTF-8 text", "garbage.yaml:1:"],
    );
    refused(&["replay", &bin], &["the file is not valid UTF-8 text"]);
    // Printable garbage is UTF-8 but not YAML (or not a map of rules).
    let text = t.file("printable.yaml", &noise(7, true));
    let err = refused(&["rules", "check", &text], &["printable.yaml:"]);
    assert!(err.starts_with("error: "), "{err}");
    refused(&["replay", &text], &["printable.yaml:"]);
}

#[test]
fn a_nul_byte_is_refused() {
    let t = Tmp::new("nul");
    let rules = t.file("nul.yaml", b"extends: push\nname: \"a\0b\"\n");
    refused(
        &["rules", "check", &rules],
        &[
            "the file contains a NUL byte; a YAML file is text",
            "nul.yaml:2:1",
        ],
    );
    let sc = t.file(
        "nul-scenario.yaml",
        &scenario_with("  - {seat: 1, do: \"take-discard\0\"}\n"),
    );
    refused(
        &["replay", &sc],
        &["contains a NUL byte", "nul-scenario.yaml:7:1"],
    );
}

#[test]
fn duplicate_keys_are_refused_naming_both_lines() {
    let t = Tmp::new("dup");
    let rules = t.file("dup.yaml", b"extends: push\ngame: a\nname: A\ngame: b\n");
    refused(
        &["rules", "check", &rules],
        &[
            "`game` appears twice in the same map (first at line 2)",
            "dup.yaml:4:1",
        ],
    );
    let sc = t.file(
        "dup-scenario.yaml",
        &scenario_with("  - {seat: 1, do: take-discard, seat: 2}\n"),
    );
    refused(
        &["replay", &sc],
        &["`seat` appears twice in the same map (first at line 7)"],
    );
    // Many keys are checked in linear time: 50,000 distinct keys, then a duplicate.
    let mut many = String::from("extends: push\nx: {");
    for i in 0..50_000 {
        many.push_str(&format!("k{i}: 1, "));
    }
    many.push_str("k7: 2}\n");
    let rules = t.file("many.yaml", many.as_bytes());
    refused(
        &["rules", "check", &rules],
        &["`k7` appears twice in the same map"],
    );
}

#[test]
fn ten_thousand_decks_and_players_are_refused() {
    let t = Tmp::new("decks");
    let rules = t.file(
        "decks.yaml",
        b"extends: push\ngame: big\nname: Big\ndecks:\n  standard-decks: 10000\n  jokers: 10000\n",
    );
    let err = refused(
        &["rules", "check", &rules],
        &[
            "10000 is out of range: expected 1 to 8",
            "field `decks.standard-decks`",
        ],
    );
    assert!(
        err.contains("10000 is out of range: expected 0 to 32"),
        "{err}"
    );
    let rules = t.file(
        "players.yaml",
        b"extends: push\ngame: big\nname: Big\nplayers: {count: 10000}\n",
    );
    refused(&["rules", "check", &rules], &["field `players.count`"]);
    let sc = t.file(
        "players-scenario.yaml",
        &format!(
            "{}steps: []\n",
            SCENARIO.replace("players: 4", "players: 10000")
        )
        .into_bytes(),
    );
    refused(
        &["replay", &sc],
        &["10000 is out of range", "field `table.players`"],
    );
    let sc = t.file(
        "decks-scenario.yaml",
        &format!(
            "{}steps: []\n",
            SCENARIO.replace(
                "rules: push",
                "rules: {extends: push, decks: {standard-decks: 10000}}"
            )
        )
        .into_bytes(),
    );
    refused(
        &["replay", &sc],
        &["10000 is out of range: expected 1 to 8"],
    );
}

#[test]
fn a_thousand_wilds_in_a_meld() {
    let jokers = vec!["JK"; 1000].join(" ");
    // On the command line: refused at once as bad input, past the limit of cards in a meld.
    let (out, took) = run(&["meld", &jokers]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("1000 cards: a meld holds at most 64"), "{err}");
    assert!(took < HANG, "took {took:?}");
    // The most wilds a pack can hold (8 decks, 32 jokers): answered at once.
    let t = Tmp::new("wilds");
    let house = t.file(
        "wild-house.yaml",
        b"extends: push\ngame: wild-house\nname: Wild house\ndecks: {standard-decks: 8, jokers: 32}\nreadings: {set-max-size: unlimited, set-duplicate-suits: allowed}\n",
    );
    let mut most: Vec<&str> = vec!["JK"; 32];
    for _ in 0..8 {
        most.extend(["2S", "2H"]);
    }
    let (out, took) = run(&["--rules", &house, "meld", &most.join(" ")]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.starts_with("valid meld under Wild house"), "{text}");
    assert!(took < HANG, "took {took:?}");
    // In a scenario: beyond the limit of cards in a meld, exit 2 before anything is played.
    let sc = t.file(
        "wilds-scenario.yaml",
        &scenario_with(&format!(
            "  - {{seat: 1, do: take-discard}}\n  - {{seat: 1, do: \"meld [{jokers}]\"}}\n"
        )),
    );
    refused(
        &["replay", &sc],
        &[
            "a meld of 1000 cards in the action; the limit is 64",
            "wilds-scenario.yaml:8:",
            "field `steps[1].do`",
        ],
    );
    let table = SCENARIO.replace(
        "turn: 1}",
        &format!("turn: 1, table: [{{0: \"set [7S 7H {jokers}]\"}}]}}"),
    );
    let sc = t.file("wild-table.yaml", format!("{table}steps: []\n").as_bytes());
    refused(
        &["replay", &sc],
        &[
            "a meld of 1002 cards; the limit is 64",
            "field `cards.table[0]`",
        ],
    );
}

#[test]
fn scenario_sizes_beyond_the_limits_are_refused() {
    let t = Tmp::new("sizes");
    let steps = "  - {check: {turn: 1}}\n".repeat(2001);
    let sc = t.file("steps.yaml", &scenario_with(&steps));
    refused(
        &["replay", &sc],
        &["2001 steps; the limit is 2000", "steps.yaml:7:"],
    );
    let hand = vec!["JK"; 300_000].join(" ");
    let sc = t.file(
        "hand.yaml",
        &format!(
            "{}steps: []\n",
            SCENARIO.replace("1: 9D 4C", &format!("1: \"{hand}\""))
        )
        .into_bytes(),
    );
    refused(
        &["replay", &sc],
        &[
            "300000 cards in one list; the limit is 1000",
            "field `cards.hands.1`",
        ],
    );
}

#[test]
fn a_flood_of_mistakes_is_answered_quickly_and_briefly() {
    let t = Tmp::new("flood");
    let bad = vec!["XX"; 900].join(" ");
    let sc = t.file(
        "flood.yaml",
        &format!(
            "{}steps: []\n",
            SCENARIO.replace("1: 9D 4C", &format!("1: \"{bad}\""))
        )
        .into_bytes(),
    );
    // One long line: shown cut around the caret; the problems past the first hundred counted.
    let err = refused(
        &["replay", &sc],
        &["more problem(s) not shown", "flood.yaml:4:"],
    );
    assert!(err.lines().all(|l| l.chars().count() < 400), "{err}");
    let mut keys = String::from("extends: push\n");
    for i in 0..50_000 {
        keys.push_str(&format!("unknown-{i}: 1\n"));
    }
    let rules = t.file("keys.yaml", keys.as_bytes());
    refused(
        &["rules", "check", &rules],
        &["unknown key `unknown-0`", "more problem(s) not shown"],
    );
    let long = format!("extends: push\n{}: 1\n", "k".repeat(3_000_000));
    let rules = t.file("long-key.yaml", long.as_bytes());
    refused(&["rules", "check", &rules], &["long-key.yaml:2:1"]);
}

#[test]
fn serve_answers_a_line_that_never_ends_and_carries_on() {
    let mut child = Command::new(BIN)
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("serve starts");
    let started = Instant::now();
    {
        let mut stdin = child.stdin.take().expect("stdin");
        // 50 MB without a newline, then a message: the long line is skipped in bounded memory.
        let chunk = vec![b'x'; 1 << 20];
        for _ in 0..50 {
            if stdin.write_all(&chunk).is_err() {
                break;
            }
        }
        let _ = stdin.write_all(b"\n{\"type\":\"hello\",\"protocol\":1}\n");
    }
    let out = child.wait_with_output().expect("serve ends");
    assert!(started.elapsed() < HANG);
    assert_eq!(out.status.code(), Some(0));
    let replies: Vec<&str> = std::str::from_utf8(&out.stdout)
        .expect("UTF-8")
        .lines()
        .collect();
    assert_eq!(replies.len(), 2, "{replies:?}");
    assert!(
        replies[0].contains("the line is longer than 1048576 bytes"),
        "{replies:?}"
    );
    assert!(replies[1].contains("\"type\":\"hello\""), "{replies:?}");
}

#[test]
fn serve_refuses_a_thousand_wild_meld_at_once() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let s = push_rummy::suite::scenario::load(
        &root.join("conformance/push/push-to-the-left.yaml"),
        &[],
    )
    .expect("loads");
    let start = push_rummy::suite::protocol::start_message(&s.rules, &s.game);
    let seat = s.game.turn();
    let jokers = vec!["JK"; 1000].join(" ");
    let input = format!(
        "{{\"type\":\"hello\",\"protocol\":1}}\n{start}\n{{\"type\":\"apply\",\"seat\":{seat},\"action\":\"take-discard\"}}\n{{\"type\":\"apply\",\"seat\":{seat},\"action\":\"meld [{jokers}]\"}}\n{{\"type\":\"end\"}}\n"
    );
    let mut child = Command::new(BIN)
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("serve starts");
    let started = Instant::now();
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("serve ends");
    assert!(started.elapsed() < HANG);
    let replies: Vec<serde_json::Value> = std::str::from_utf8(&out.stdout)
        .expect("UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(replies.len(), 5, "{replies:?}");
    assert_eq!(replies[3]["type"], "rejected", "{}", replies[3]);
    assert_eq!(replies[3]["reason"], "card-not-in-hand", "{}", replies[3]);
}
