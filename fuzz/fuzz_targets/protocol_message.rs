//! Any bytes as the lines a harness sends to `push-rummy serve` (after a `hello`): the server never
//! panics, answers each non-blank line with exactly one JSON object with a `type`, and stops at
//! `end`. A `start` message it accepts sets up a game whose invariants hold; `apply` keeps them.
#![no_main]

use libfuzzer_sys::fuzz_target;
use push_rummy::suite::protocol::{self, Server};
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let mut input = b"{\"type\":\"hello\",\"protocol\":1}\n".to_vec();
    input.extend_from_slice(data);
    let mut server = Server::new(vec![], None);
    let mut out = Vec::new();
    protocol::serve(&mut server, &mut std::io::Cursor::new(&input), &mut out)
        .expect("reading a slice and writing a vector cannot fail");
    let text = String::from_utf8(out).expect("replies are UTF-8");
    let mut replies = 0;
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).expect("every reply is JSON");
        let kind = v
            .get("type")
            .and_then(Value::as_str)
            .expect("every reply has a type");
        assert!(
            [
                "hello",
                "ok",
                "rejected",
                "state",
                "observation",
                "legal",
                "error",
                "bye"
            ]
            .contains(&kind),
            "reply type {kind}"
        );
        replies += 1;
    }
    assert!(replies >= 1, "the hello is answered");

    // The same lines, one by one, straight into `handle` (no line framing): a game it holds always
    // keeps its invariants.
    let mut server = Server::new(vec![], None);
    for line in input.split(|&b| b == b'\n').take(64) {
        let Ok(msg) = serde_json::from_slice::<Value>(line) else {
            continue;
        };
        let (_reply, after) = server.handle(&msg);
        if let Some(g) = server.game() {
            g.check_invariants();
        }
        if after == protocol::After::Quit {
            break;
        }
    }
});
