//! The corpus of broken rules files: each file's diagnostics, rendered as people see them, are a
//! snapshot (`tests/snapshots/`). A file that loads without error fails the test.
//! Own test binary: insta's `glob!` must not share a process with other snapshot tests.

use std::path::Path;

#[test]
fn every_broken_rules_file_is_reported() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::env::set_current_dir(root).unwrap();
    insta::glob!("rules-broken/*.yaml", |path| {
        let rel = path
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let err = match push_rummy::rules::load(&rel, &[]) {
            Ok(_) => panic!("{rel} loaded without error"),
            Err(e) => e,
        };
        assert!(!err.diagnostics.0.is_empty());
        insta::assert_snapshot!(err.render());
    });
}
