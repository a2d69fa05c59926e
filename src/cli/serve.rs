//! `serve`: the reference as a live oracle, speaking the conformance protocol (JSON lines) on
//! stdin and stdout until the harness goes away.

use super::common::{Common, Failure, bad_input, load_rules, readings};
use push_rummy::suite::protocol;

/// Serves until stdin ends or the harness goes away; `--rules`, when given, replaces the
/// harness's rules and `--reading` applies over them.
pub fn run(common: &Common) -> Result<u8, Failure> {
    let r = readings(common)?;
    // `--rules` replaces the harness's rules only when given on the command line (it has a
    // default for the other commands).
    let fixed = if common.rules_given {
        Some(load_rules(common, &common.rules)?)
    } else {
        None
    };
    let mut server = protocol::Server::new(r, fixed);
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut output = stdout.lock();
    match protocol::serve(&mut server, &mut input, &mut output) {
        Ok(()) => Ok(0),
        // The harness went away: nothing more to say.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(0),
        Err(e) => Err(bad_input(format!("serve: {e}"))),
    }
}
