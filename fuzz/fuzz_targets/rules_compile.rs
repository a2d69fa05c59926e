//! Any bytes as a rules file: loading never panics, and whatever loads shows and reloads to the
//! same rules.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(loaded) = push_rummy::rules::load_text("fuzz.yaml", text, Path::new("/nonexistent")) {
        let shown = loaded.show();
        let again = push_rummy::rules::load_text("shown.yaml", &shown, Path::new("/nonexistent"))
            .expect("shown rules load");
        assert_eq!(again.rules, loaded.rules);
    }
});
