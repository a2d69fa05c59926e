//! What every command shares: the global options ([`Common`]), how text is drawn (colour and
//! suit symbols), a [`Failure`] with its exit code and how it is printed, loading the rules and
//! the readings of `--reading`, the default conformance suite, and JSON output.

use clap::{Args, ValueEnum};
use push_rummy::help::term::Look;
use push_rummy::rules::disputes::DisputeId;
use push_rummy::rules::{self, LoadError, Loaded};
use serde_json::{Value, json};

#[derive(Args, Clone)]
pub struct Common {
    /// Rule set: a built-in name (push, cap-it, six-to-ten, source-000…003, club-marathon) or a path.
    #[arg(long, global = true, default_value = "push", value_name = "NAME|PATH")]
    pub rules: String,
    /// Whether `--rules` was given on the command line rather than taken by default (`serve`
    /// replaces the harness's rules only then); set from clap's matches after parsing.
    #[arg(skip)]
    pub rules_given: bool,
    /// Apply a dispute reading on top of the rules (repeatable), e.g. two-penalty-value=15.
    #[arg(long = "reading", global = true, value_name = "ID=READING")]
    pub readings: Vec<String>,
    /// Print JSON instead of text for people.
    #[arg(long, global = true)]
    pub json: bool,
    /// Colour and suit symbols of transcripts, the game table and diagnostics: auto (on a
    /// terminal; colour unless NO_COLOR is set), always, never. The verdicts of meld, contract and
    /// score always write suit symbols, without colour.
    #[arg(
        long,
        global = true,
        value_enum,
        default_value = "auto",
        value_name = "WHEN"
    )]
    pub color: ColorArg,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum ColorArg {
    Auto,
    Always,
    Never,
}

/// How text for people is drawn on stdout (`--color`, `NO_COLOR`, a terminal or not).
pub fn look(common: &Common) -> Look {
    use std::io::IsTerminal;
    look_on(common, std::io::stdout().is_terminal())
}

/// How text for people is drawn on a stream that is a terminal or not.
fn look_on(common: &Common, is_terminal: bool) -> Look {
    use push_rummy::help::term::When;
    let when = match common.color {
        ColorArg::Auto => When::Auto,
        ColorArg::Always => When::Always,
        ColorArg::Never => When::Never,
    };
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    Look::decide(when, is_terminal, no_color)
}

/// Whether diagnostics on stderr are drawn in colour: decided once from `--color`, `NO_COLOR` and
/// whether stderr is a terminal.
static STDERR_COLOR: std::sync::OnceLock<bool> = std::sync::OnceLock::new();

pub fn decide_stderr_color(common: &Common) {
    use std::io::IsTerminal;
    let _ = STDERR_COLOR.set(look_on(common, std::io::stderr().is_terminal()).color);
}

/// A load error rendered for stderr.
pub fn rendered(e: &LoadError) -> String {
    e.render_styled(STDERR_COLOR.get().copied().unwrap_or(false))
}

/// The conformance suite: `./conformance` when there is one, else the one next to the sources
/// the binary was built from.
pub fn suite_dir() -> String {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance");
    if std::path::Path::new("conformance").is_dir() || !here.is_dir() {
        "conformance".into()
    } else {
        here.display().to_string()
    }
}

/// A failure with its exit code: 2 for bad input.
pub struct Failure {
    pub code: u8,
    pub text: String,
    pub json: Value,
}

pub fn bad_input(text: String) -> Failure {
    Failure {
        code: 2,
        json: json!({ "error": text }),
        text,
    }
}

/// Prints a failure: as JSON on stdout under `--json`, and always as text on stderr.
pub fn print_failure(f: &Failure, json: bool) {
    if json {
        out!(
            "{}",
            serde_json::to_string_pretty(&f.json).unwrap_or_default()
        );
    }
    eprint!("{}", f.text);
    if !f.text.ends_with('\n') {
        eprintln!();
    }
}

/// The readings of `--reading`, checked.
pub fn readings(common: &Common) -> Result<Vec<(DisputeId, String)>, Failure> {
    common
        .readings
        .iter()
        .map(|a| {
            rules::parse_reading_arg(a).map_err(|d| Failure {
                code: 2,
                json: json!({ "error": d.message, "hint": d.hint, "diagnostics": [d] }),
                text: d.to_string(),
            })
        })
        .collect()
}

/// The rules `name` (a built-in name or a path) with the readings of `--reading`.
pub fn load_rules(common: &Common, name: &str) -> Result<Loaded, Failure> {
    let r = readings(common)?;
    rules::load(name, &r).map_err(|e| Failure {
        code: 2,
        json: json!({ "error": "the rules could not be loaded", "diagnostics": e.diagnostics.0 }),
        text: rendered(&e),
    })
}

/// A scenario that did not load, for `disputes settle|affecting|show`: the rendered diagnostics
/// for people and the diagnostics as data.
pub fn load_failure(e: &LoadError) -> Failure {
    Failure {
        code: 2,
        json: json!({ "error": "the scenario could not be loaded", "diagnostics": e.diagnostics.0 }),
        text: rendered(e),
    }
}

pub fn pretty_json(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}
