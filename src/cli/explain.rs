//! `explain WORD`: a reason code, a dispute, one of its readings or a rule in plain words, with
//! its sources (and, for a reason code or a rule, the scenarios of the suite that show it).

use super::common::{Common, Failure, bad_input, look, pretty_json, suite_dir};
use clap::Args;
use serde_json::json;

// No doc comment here: the command's help is the doc of `Command::Explain` in main.rs.
#[derive(Args)]
pub struct ExplainArgs {
    /// The code, dispute id, ID=READING or rule path.
    pub word: String,
    /// The scenarios to search for ones that expect a reason code (default: the conformance
    /// suite).
    #[arg(long, value_name = "DIR")]
    pub suite: Option<String>,
}

/// `explain`: a reason code, a dispute, a reading or a rule in plain words.
pub fn run(common: &Common, args: &ExplainArgs) -> Result<u8, Failure> {
    let (word, suite) = (args.word.as_str(), args.suite.clone());
    // A suite named on the command line must be there; the default one is looked for quietly.
    if let Some(s) = &suite
        && !std::path::Path::new(s).is_dir()
    {
        return Err(bad_input(format!(
            "--suite {s}: no such directory (the conformance suite to list scenarios from)"
        )));
    }
    let dir = suite.unwrap_or_else(suite_dir);
    let path = std::path::Path::new(&dir);
    match push_rummy::help::explain::explain(word, path.is_dir().then_some(path)) {
        Ok(e) => {
            if common.json {
                out!("{}", pretty_json(&json!(e)));
            } else {
                out_raw!("{}", look(common).paint(&e.text()));
            }
            Ok(0)
        }
        Err(u) => Err(Failure {
            code: 2,
            json: json!({ "error": u.to_string(), "word": u.word, "suggestion": u.suggestion, "mentions": u.mentions }),
            text: if u.mentions.is_empty() {
                format!(
                    "{u}\n  = hint: the reason codes are {}; `push-rummy disputes` lists the disputes, `push-rummy rules show` the rules",
                    push_rummy::engine::game::Reason::ALL
                        .iter()
                        .map(|r| r.code())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            } else {
                format!("{u}\n  = hint: `push-rummy explain NAME` explains one of them")
            },
        }),
    }
}
