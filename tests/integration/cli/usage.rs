//! Usage: errors exit 2 and help exits 0; options a command cannot use are refused; a card that
//! cannot be read says where it was given.

use super::*;

#[test]
fn usage_errors_exit_2_and_help_exits_0() {
    for args in [
        &["frobnicate"][..],
        &[],
        &["rules"],
        &["rules", "frobnicate"],
        &["rules", "check"],
        &["meld"],
        &["meld", "--as", "pair", "3S", "3H", "3D"],
        &["contract"],
        &["contract", "3S 3H 3D"],
        &["--no-such-flag", "score", "AS"],
        &["--rules"],
    ] {
        let out = expect(2, args);
        assert!(
            out.stderr.contains("Usage:") || out.stderr.contains("error:"),
            "{args:?}: {}",
            out.stderr
        );
    }
    let out = expect(2, &["frobnicate"]);
    assert!(
        out.stderr.contains("unrecognized subcommand 'frobnicate'"),
        "{}",
        out.stderr
    );

    for args in [
        &["--help"][..],
        &["-h"],
        &["help"],
        &["meld", "--help"],
        &["rules", "--help"],
        &["contract", "--help"],
    ] {
        let out = expect(0, args);
        assert!(
            out.stdout.contains("Usage: push-rummy"),
            "{args:?}: {}",
            out.stdout
        );
    }
    let out = expect(0, &["--version"]);
    assert!(out.stdout.starts_with("push-rummy "), "{}", out.stdout);
}

/// `--rules` is global, but a command that names its rules itself (or reads none) refuses it
/// rather than ignoring it; the commands that read it take it before or after their name. So do
/// `--reading` and `--json` where a command has no use for them.
#[test]
fn rules_given_to_a_command_that_cannot_use_them_is_bad_input() {
    for args in [
        &[
            "--rules",
            "cap-it",
            "replay",
            "conformance/push/push-to-the-left.yaml",
        ][..],
        &[
            "replay",
            "--rules",
            "push",
            "conformance/push/push-to-the-left.yaml",
        ],
        &[
            "--rules",
            "cap-it",
            "conform",
            "conformance/push/push-to-the-left.yaml",
        ],
        &["--rules", "cap-it", "disputes"],
        &["--rules", "cap-it", "explain", "two-penalty-value"],
        &["--rules", "cap-it", "schema", "rules"],
        &["--rules", "cap-it", "rules", "list"],
        &["--rules", "cap-it", "man"],
    ] {
        let out = expect(2, args);
        assert!(
            out.stderr.contains("leave --rules out"),
            "{args:?}: {}",
            out.stderr
        );
    }
    expect(0, &["--rules", "cap-it", "rules", "show"]);
    expect(0, &["score", "--rules", "six-to-ten", "KD"]);
    // `serve` loads `--rules` when given (they must load), and starts without it.
    expect(2, &["serve", "--rules", "no-such-rules"]);
    expect(0, &["serve"]);
    // The same for --reading and --json.
    for (args, option) in [
        (
            &["--reading", "two-penalty-value=15", "disputes"][..],
            "--reading",
        ),
        (
            &["--reading", "two-penalty-value=15", "explain", "ties"],
            "--reading",
        ),
        (
            &["--reading", "two-penalty-value=15", "schema", "rules"],
            "--reading",
        ),
        (&["--json", "man"], "--json"),
        (&["--json", "completions", "bash"], "--json"),
    ] {
        let out = expect(2, args);
        assert!(
            out.stderr.contains(&format!("leave {option} out")),
            "{args:?}: {}",
            out.stderr
        );
    }
    expect(0, &["--reading", "two-penalty-value=15", "score", "KD"]);
    expect(0, &["--json", "schema", "rules"]);
}

/// A card that cannot be read is named with where it was given: which meld of several, the
/// `--hand`, or the whole word of a declaration.
#[test]
fn an_unreadable_card_says_where_it_was_given() {
    let out = expect(2, &["contract", "--round", "1", "4H 4D 4S", ""]);
    assert!(
        out.stderr.contains("meld 2 (``): no cards given"),
        "{}",
        out.stderr
    );
    let out = expect(2, &["contract", "--round", "1", "4H 4D 4S", "7Q"]);
    assert!(out.stderr.contains("meld 2 (`7Q`)"), "{}", out.stderr);
    let out = expect(2, &["contract", "--round", "1", "--hand", "4H XX"]);
    assert!(out.stderr.starts_with("--hand: "), "{}", out.stderr);
    let out = expect(2, &["meld", "9H", "=10H", "JH"]);
    assert!(out.stderr.contains("in `=10H`"), "{}", out.stderr);
}
