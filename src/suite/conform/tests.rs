//! Unit tests of the harness's small pure parts: a line read within a limit, the first JSON path
//! where the reference and the implementation differ and how a value is shown, and clipped text.
//! The harness as a whole is tested against the built-in engine, the served reference and the
//! seeded bugs of `examples/mini_engine.rs` in `tests/integration/conform.rs`.

use super::clip;
use super::compare::{first_difference, show};
use super::implementation::read_capped;
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
fn clipped_text_keeps_whole_characters() {
    assert_eq!(clip("short", 10), "short");
    assert_eq!(clip("♠♥♦♣♠", 3), "♠♥♦…");
}
