//! Unit tests of the harness's small pure parts: a line read within a limit, the first JSON path
//! where the reference and the implementation differ and how a value is shown, and clipped text.
//! The harness as a whole is tested against the built-in engine, the served reference and the
//! seeded bugs of `examples/mini_engine.rs` in `tests/integration/conform.rs`; here too, what a
//! run leaves in the harness's own process (threads, pipes) once it is over.

use super::compare::{Caps, comparable, first_difference, show};
use super::implementation::ImplSpec;
use super::implementation::read_capped;
use super::report::Verdict;
use super::{Options, clip, run_suite};
use crate::suite::protocol::Line;
use serde_json::json;

#[test]
fn a_line_is_read_to_its_newline_without_a_carriage_return() {
    let mut input: &[u8] = b"{\"type\":\"ok\"}\r\nnext\nlast";
    let mut read = || read_capped(&mut input, 100).expect("reads from memory");
    assert_eq!(read(), Line::Text("{\"type\":\"ok\"}".into()));
    assert_eq!(read(), Line::Text("next".into()));
    assert_eq!(read(), Line::Text("last".into()));
    assert_eq!(read(), Line::Eof);
}

#[test]
fn a_line_past_the_limit_is_too_long() {
    let mut input: &[u8] = b"12345\n";
    assert_eq!(
        read_capped(&mut input, 5).unwrap(),
        Line::Text("12345".into())
    );
    let mut input: &[u8] = b"123456\n";
    assert_eq!(read_capped(&mut input, 5).unwrap(), Line::TooLong);
    // A line that never ends is cut off as soon as it passes the limit.
    let mut input = std::io::BufReader::with_capacity(4, std::io::repeat(b'x'));
    assert_eq!(read_capped(&mut input, 10).unwrap(), Line::TooLong);
}

#[test]
fn the_first_difference_names_its_path() {
    let a = json!({"hands": [["7S", "7H"], ["KD"]], "turn": 1, "table": [{"owner": 0}]});
    // Lists of plain values (a hand) are compared whole, lists of lists or objects item by item.
    let b = json!({"hands": [["7S", "7H"], ["QD", "KD"]], "turn": 1, "table": [{"owner": 0}]});
    let (path, x, y) = first_difference("", &a, &b).expect("they differ");
    assert_eq!(path, "hands[1]");
    assert_eq!((show(&x), show(&y)), ("[KD]".into(), "[QD KD]".into()));
    let b = json!({"hands": [["7S", "7H"], ["KD"]], "turn": 1, "table": [{"owner": 1}]});
    assert_eq!(
        first_difference("", &a, &b),
        Some(("table[0].owner".into(), json!(0), json!(1)))
    );
    // A key only one side has differs from nothing, which is how it is shown.
    let b = json!({"hands": [["7S", "7H"], ["KD"]], "turn": 1, "table": [{"owner": 0}], "x": 2});
    let (path, x, _) = first_difference("", &a, &b).expect("they differ");
    assert_eq!((path.as_str(), show(&x).as_str()), ("x", "nothing"));
    assert_eq!(first_difference("", &a, &a.clone()), None);
}

#[test]
fn meld_cards_are_compared_as_a_multiset() {
    // The reference lists a meld's cards in the order they were laid; an implementation that
    // keeps another order (here canonical) does not diverge on order alone.
    let caps = Caps::all(2);
    let table = |cards: &[&str]| json!([{"owner": 0, "cards": cards}]);
    let state = |cards: &[&str], hand: &[&str]| json!({"table": table(cards), "hands": [hand]});
    let laid = comparable(&state(&["7H", "JK", "9H", "6H"], &["KD", "QD"]), &caps);
    let sorted = comparable(&state(&["6H", "7H", "9H", "JK"], &["KD", "QD"]), &caps);
    assert_eq!(first_difference("", &laid, &sorted), None);
    // Other cards still differ, and other lists of cards are not reordered.
    let other = comparable(&state(&["6H", "7H", "8H", "JK"], &["KD", "QD"]), &caps);
    let (path, _, _) = first_difference("", &laid, &other).expect("they differ");
    assert_eq!(path, "table[0].cards");
    let hand = comparable(&state(&["7H", "JK", "9H", "6H"], &["QD", "KD"]), &caps);
    let (path, _, _) = first_difference("", &laid, &hand).expect("they differ");
    assert_eq!(path, "hands[0]");
}

#[test]
fn clipped_text_keeps_whole_characters() {
    assert_eq!(clip("short", 10), "short");
    assert_eq!(clip("♠♥♦♣♠", 3), "♠♥♦…");
}

/// The harness's threads now running (they are named `conform-…`), and the pipes it holds open.
fn threads_and_pipes() -> (usize, usize) {
    let count = |dir: &str, keep: &dyn Fn(&std::path::Path) -> bool| {
        std::fs::read_dir(dir)
            .map(|d| d.flatten().filter(|e| keep(&e.path())).count())
            .unwrap_or(0)
    };
    let threads = count("/proc/self/task", &|p| {
        std::fs::read_to_string(p.join("comm")).is_ok_and(|c| c.starts_with("conform-"))
    });
    let pipes = count("/proc/self/fd", &|p| {
        std::fs::read_link(p).is_ok_and(|l| l.to_string_lossy().starts_with("pipe:"))
    });
    (threads, pipes)
}

/// A wrapper script whose child never replies: every scenario errors at `hello` within the
/// timeout, and once the run is over none of the threads or pipes it used is left.
#[test]
fn a_hanging_implementation_leaves_no_thread_or_pipe_behind() {
    let dir = std::env::temp_dir().join(format!("push-rummy-hang-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("hang.sh");
    std::fs::write(&script, "#!/bin/sh\nsleep 1000\n").unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance");
    for f in [
        "push/push-to-the-left.yaml",
        "runs/no-turning-the-corner.yaml",
    ] {
        let from = root.join(f);
        std::fs::copy(&from, dir.join(from.file_name().unwrap())).unwrap();
    }
    let before = threads_and_pipes();
    let imp = ImplSpec::Command(vec!["sh".into(), script.display().to_string()]);
    let opts = Options {
        timeout: std::time::Duration::from_millis(200),
        keep_going: true,
        departures: None,
    };
    let mut during = Vec::new();
    let report = run_suite(&dir, &imp, &opts, &mut |r| {
        during.push(threads_and_pipes());
        assert!(matches!(r.verdict, Verdict::Errored { .. }), "{r:?}");
    })
    .unwrap();
    assert_eq!(report.scenarios.len(), 2);
    assert_eq!(threads_and_pipes(), before);
    // Counted after each scenario, and each time nothing of it was left.
    assert_eq!(during, vec![before; 2]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// What a `hello` of protocol 2 declares is what is compared; the rest is listed as not compared,
/// and a name the protocol does not know is refused.
#[test]
fn declared_capabilities_decide_what_is_not_compared() {
    use super::compare::Caps;
    use crate::suite::protocol::CAPABILITIES;
    assert!(Caps::all(1).not_compared().is_empty());
    let caps = Caps::from_names(2, &[json!("events"), json!("legal")]).unwrap();
    assert!(caps.events && caps.legal && !caps.readings && !caps.reason_codes);
    let undeclared: Vec<String> = CAPABILITIES
        .iter()
        .filter(|(n, _)| !["events", "legal"].contains(n))
        .map(|(_, what)| (*what).to_string())
        .collect();
    assert_eq!(caps.not_compared(), undeclared);
    let none = Caps::from_names(2, &[]).unwrap();
    assert_eq!(none.not_compared().len(), CAPABILITIES.len());
    let e = Caps::from_names(2, &[json!("telepathy")]).unwrap_err();
    assert!(e.contains("telepathy") && e.contains("reason-codes"), "{e}");
}
