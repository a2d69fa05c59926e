//! `man`: the manual page (roff), generated from the clap definitions of `main.rs`.

use super::common::{Failure, bad_input};
use clap::CommandFactory;

/// `man`: the manual page (roff), generated from the clap definitions in main.rs.
pub fn run() -> Result<u8, Failure> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(crate::Cli::command())
        .render(&mut buf)
        .map_err(|e| bad_input(format!("man: {e}")))?;
    out_raw!("{}", String::from_utf8_lossy(&buf));
    Ok(0)
}
