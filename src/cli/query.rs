//! `query`: single questions in a batch. JSON lines on stdin (`{"type": "query", …}`, and
//! `{"type": "rules", …}` to change the rules), one answer per line on stdout, in order.

use super::common::{Common, Failure, bad_input, load_rules, readings};
use push_rummy::suite::protocol::{Line, MAX_LINE, read_line_limited};
use push_rummy::suite::query::Asker;
use serde_json::json;
use std::io::{BufRead, Write};

/// Answers every line of stdin; exit 0, or 2 when a line could not be understood (its answer is
/// an `error` line, and the lines after it are still answered).
pub fn run(common: &Common) -> Result<u8, Failure> {
    let r = readings(common)?;
    let loaded = load_rules(common, &common.rules)?;
    let mut asker = Asker::new(Some(loaded), r, false);
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut output = std::io::BufWriter::new(stdout.lock());
    match answer_all(&mut asker, &mut input, &mut output) {
        Ok(bad) => Ok(if bad == 0 { 0 } else { 2 }),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(0),
        Err(e) => Err(bad_input(format!("query: {e}"))),
    }
}

/// Answers each line; the number of lines answered with an error.
fn answer_all(
    asker: &mut Asker,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> std::io::Result<usize> {
    let mut bad = 0;
    loop {
        let reply = match read_line_limited(input, MAX_LINE)? {
            Line::Eof => break,
            Line::TooLong => {
                json!({"type": "error", "message": format!("the line is longer than {MAX_LINE} bytes")})
            }
            Line::Text(t) if t.trim().is_empty() => continue,
            Line::Text(t) => asker.answer_line(&t),
        };
        if reply["type"] == "error" {
            bad += 1;
        }
        serde_json::to_writer(&mut *output, &reply)?;
        output.write_all(b"\n")?;
        // Answers go out as soon as no more input is waiting (a pipe read line by line sees
        // each answer at once; a file is answered in large writes).
        if input.fill_buf()?.is_empty() {
            output.flush()?;
        }
    }
    output.flush()?;
    Ok(bad)
}
