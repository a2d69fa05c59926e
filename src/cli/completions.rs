//! `completions SHELL`: a shell completion script, generated from the clap definitions of
//! `main.rs`.

use super::common::Failure;
use clap::{Args, CommandFactory};

// No doc comment here: the command's help is the doc of `Command::Completions` in main.rs.
#[derive(Args)]
pub struct CompletionsArgs {
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// `completions SHELL`: generated from the clap definitions in main.rs.
pub fn run(args: &CompletionsArgs) -> Result<u8, Failure> {
    let mut buf = Vec::new();
    clap_complete::generate(
        args.shell,
        &mut crate::Cli::command(),
        "push-rummy",
        &mut buf,
    );
    out_raw!("{}", String::from_utf8_lossy(&buf));
    Ok(0)
}
