//! Helpers shared by the test modules: running the binary, refused actions, the built examples.

use push_rummy::engine::game::{Action, Game, Reason};
use push_rummy::rules::{Rules, load};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::LazyLock;

/// Runs `push-rummy ARGS` in the repository: exit code, stdout, stderr.
pub fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_push-rummy"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The action is refused with `code`, and the game is left exactly as it was; the message.
#[track_caller]
pub fn rejected(g: &mut Game, seat: u8, a: Action, code: Reason) -> String {
    let before = g.deal.clone();
    match g.apply(seat, &a) {
        Ok(ev) => panic!(
            "{a} by seat {seat} should be rejected with {}, but gave {ev:?}",
            code.code()
        ),
        Err(e) => {
            assert_eq!(e.code, code, "{a}: {}", e.message);
            assert_eq!(g.deal, before, "{a}: a refused action changes nothing");
            e.message
        }
    }
}

/// Where `cargo test` built the examples: `target/<profile>/examples`, beside the test executable.
pub fn examples_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test executable");
    exe.parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps/…")
        .join("examples")
}

/// Push with its default readings, loaded once and cloned: loading reads and compiles the YAML,
/// which the property tests would otherwise repeat for every case they generate.
pub fn push() -> Rules {
    static PUSH: LazyLock<Rules> = LazyLock::new(|| load("push", &[]).expect("push loads").rules);
    PUSH.clone()
}

/// Limits on the wild cards of a meld (`wilds.*`) for the property tests that draw rules: none
/// half of the time, else any mix.
pub fn wild_limits() -> impl proptest::strategy::Strategy<Value = push_rummy::rules::WildLimits> {
    use proptest::prelude::*;
    (0u8..8, 0u8..4, any::<bool>(), 0u8..4, any::<bool>()).prop_map(
        |(on, max, not_outnumbering, min_naturals, apart)| {
            if on < 4 {
                return push_rummy::rules::WildLimits::default();
            }
            push_rummy::rules::WildLimits {
                max: max.checked_sub(1),
                not_outnumbering,
                min_naturals,
                apart_in_runs: apart,
            }
        },
    )
}
