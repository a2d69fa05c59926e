//! conformance/README.md promises facts other implementations rely on; check them against the code.

use push_rummy::base::rng::Rng;
use push_rummy::engine::game::{Reason, pack};
use push_rummy::rules::load;

fn doc() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/conformance/README.md"
    ))
    .unwrap()
}

#[test]
fn the_documented_generator_values_hold() {
    let mut r = Rng::new(0);
    assert_eq!(r.next_u64(), 0xE220A8397B1DCDAF);
    assert_eq!(r.next_u64(), 0x6E789E6AA1B965F4);
    let d = doc();
    assert!(d.contains("`0xE220A8397B1DCDAF`") && d.contains("`0x6E789E6AA1B965F4`"));
    let mut v: Vec<u32> = (0..10).collect();
    Rng::new(42).shuffle(&mut v);
    assert!(
        d.contains(&format!("`{v:?}`")),
        "doc shows the shuffle of 0..10 with seed 42: {v:?}"
    );
}

#[test]
fn the_documented_pack_order_holds() {
    let rules = load("push", &[]).unwrap().rules;
    let p = pack(&rules, 4);
    assert_eq!(p.len(), 108);
    let text: Vec<String> = p.iter().map(|c| c.to_string()).collect();
    assert_eq!(&text[..2], ["AS", "2S"]);
    assert_eq!(text[13], "AH");
    assert_eq!(text[51], "KC");
    assert_eq!(text[52], "AS");
    assert_eq!(&text[104..], ["JK", "JK", "JK", "JK"]);
}

#[test]
fn every_reason_code_is_documented() {
    let d = doc();
    for r in Reason::ALL {
        assert!(
            d.contains(&format!("`{}`", r.code())),
            "{} is not in conformance/README.md",
            r.code()
        );
    }
}
