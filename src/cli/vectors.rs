//! `vectors --out DIR` / `--check DIR`: the language-neutral test vectors of single questions
//! (`push_rummy::suite::query::vectors`), written or compared with the files there.

use super::common::{Common, Failure, bad_input};
use clap::Args;
use push_rummy::suite::query::vectors;
use std::path::Path;

// No doc comment here: the command's help is the doc of `Command::Vectors` in main.rs.
#[derive(Args)]
pub struct VectorsArgs {
    /// Write the vector files into this directory.
    #[arg(
        long,
        value_name = "DIR",
        conflicts_with = "check",
        required_unless_present = "check"
    )]
    pub out: Option<String>,
    /// Compare the vector files in this directory with the reference's answers (exit 1 when one
    /// differs or is missing).
    #[arg(long, value_name = "DIR")]
    pub check: Option<String>,
}

pub fn run(_common: &Common, args: &VectorsArgs) -> Result<u8, Failure> {
    let files = vectors::files().map_err(bad_input)?;
    if let Some(dir) = &args.out {
        let dir = Path::new(dir);
        std::fs::create_dir_all(dir).map_err(|e| bad_input(format!("{}: {e}", dir.display())))?;
        for (name, text) in &files {
            let path = dir.join(name);
            std::fs::write(&path, text)
                .map_err(|e| bad_input(format!("{}: {e}", path.display())))?;
            out!("{}: {} cases", path.display(), vectors::count(text));
        }
        return Ok(0);
    }
    let dir = Path::new(args.check.as_deref().unwrap_or("."));
    let mut stale = 0;
    for (name, text) in &files {
        let path = dir.join(name);
        match std::fs::read_to_string(&path) {
            Ok(t) if t == *text => out!("up to date  {}", path.display()),
            Ok(_) => {
                stale += 1;
                out!("DIFFERS     {} (rewrite it with --out)", path.display());
            }
            Err(e) => {
                stale += 1;
                out!("MISSING     {}: {e}", path.display());
            }
        }
    }
    Ok(u8::from(stale > 0))
}
