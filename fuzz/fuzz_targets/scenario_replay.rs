//! Any bytes as a scenario file: loading never panics; whatever loads replays without panicking,
//! the game's invariants hold after every step, and the transcript renders as text and JSON the
//! same way twice (replay is deterministic).
#![no_main]

use libfuzzer_sys::fuzz_target;
use push_rummy::{suite::scenario, suite::transcript};
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(s) = scenario::load_text("fuzz.yaml", text, Path::new("/nonexistent"), &[]) else {
        return;
    };
    s.game.check_invariants();
    let a = transcript::replay(&s);
    let b = transcript::replay(&s);
    assert_eq!(a.transcript.text(), b.transcript.text());
    assert_eq!(a.transcript.json(), b.transcript.json());
    assert_eq!(a.transcript.steps.len(), s.steps.len());
    // Every step's state is a state of a game: replaying the actions on a copy keeps the
    // invariants (the engine checks them after every accepted action in debug builds; this
    // fuzz build is a release build, so check here).
    let mut g = s.game.clone();
    for st in &s.steps {
        if let Some(action) = &st.action {
            let seat = st.seat.unwrap_or_else(|| g.turn());
            let before = transcript::state(&g);
            if g.apply(seat, action).is_err() {
                assert_eq!(
                    transcript::state(&g),
                    before,
                    "a refused action changes nothing"
                );
            }
            g.check_invariants();
        }
    }
});
