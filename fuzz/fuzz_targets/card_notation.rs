//! Any text as card notation: parsing never panics, and a parsed card prints and parses back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use push_rummy::base::card::{Card, parse_cards};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(cards) = parse_cards(text) {
        for c in cards {
            assert_eq!(c.to_string().parse::<Card>(), Ok(c));
            assert_eq!(c.pretty().parse::<Card>(), Ok(c));
        }
    }
});
