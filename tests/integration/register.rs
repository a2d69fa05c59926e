//! The disputes register in `spec/disputes.yaml` (and so the typed readings) keeps everything the
//! table of `../shared/DISPUTES.md` names, with its meaning (issues 2 and 30): every dispute id, every
//! reading name, the readings in the table's order (so the table's first reading is still the
//! register's default), each kind the table gives, and the six-to-ten default the table's notes
//! name. The register may add disputes and readings of its own: the table is where it started,
//! not its copy. Where the shared folder is not beside the checkout the test says so and checks
//! nothing else.

use push_rummy::rules::disputes::{DisputeId, register};

/// One row of the shared table: id, readings (default first), kinds, notes.
struct Row {
    id: String,
    readings: Vec<String>,
    kinds: Vec<String>,
    notes: String,
}

fn shared_table(text: &str) -> Vec<Row> {
    let mut table = Vec::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 6
            || cells[1].is_empty()
            || !cells[1].chars().all(|c| c.is_ascii_lowercase() || c == '-')
        {
            continue;
        }
        if cells[1] == "id" || cells[1].starts_with("---") {
            continue;
        }
        let readings = cells[2]
            .split(',')
            .map(|r| r.trim().trim_matches('`').to_string())
            .filter(|r| !r.is_empty())
            .collect();
        // "conflict/gap", "game difference", "gap (unsourced)": the kinds in the register's words.
        let kind = cells[3].split('(').next().unwrap_or("").trim();
        let kinds = kind
            .split('/')
            .map(|k| k.trim().replace(' ', "-"))
            .filter(|k| !k.is_empty())
            .collect();
        table.push(Row {
            id: cells[1].to_string(),
            readings,
            kinds,
            notes: cells[4].to_string(),
        });
    }
    table
}

/// The reading a note names as "six-to-ten default `X`", if any.
fn six_to_ten_default(notes: &str) -> Option<&str> {
    let rest = notes.split("six-to-ten default `").nth(1)?;
    rest.split('`').next()
}

#[test]
fn register_keeps_every_dispute_and_reading_of_the_shared_table() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/DISPUTES.md");
    let Ok(text) = std::fs::read_to_string(path) else {
        eprintln!("{path} is not here: the register cannot be compared with it");
        return;
    };
    let table = shared_table(&text);
    assert!(
        table.len() >= 30,
        "the table of DISPUTES.md was not found ({} rows)",
        table.len()
    );
    let entries = &register::get().disputes;
    let mut problems = Vec::new();
    for row in &table {
        let Some(id) = DisputeId::from_id(&row.id) else {
            problems.push(format!("dispute {} is gone", row.id));
            continue;
        };
        let ours = id.reading_names();
        let mut at = Vec::new();
        for r in &row.readings {
            match ours.iter().position(|o| o == r) {
                Some(i) => at.push(i),
                None => problems.push(format!("{}: reading {r} is gone", row.id)),
            }
        }
        if !at.windows(2).all(|w| w[0] < w[1]) {
            problems.push(format!(
                "{}: the readings {:?} are no longer in the table's order ({ours:?})",
                row.id, row.readings
            ));
        }
        if row.readings.first().map(String::as_str) != ours.first().copied() {
            problems.push(format!(
                "{}: the register's default is no longer {:?}",
                row.id,
                row.readings.first()
            ));
        }
        let entry = entries
            .iter()
            .find(|e| e.id == row.id)
            .expect("every generated dispute is in the register");
        for k in &row.kinds {
            if !entry.kind.contains(k) {
                problems.push(format!("{}: kind {k} is gone ({:?})", row.id, entry.kind));
            }
        }
        if let Some(want) = six_to_ten_default(&row.notes)
            && entry.defaults["six-to-ten"].reading != want
        {
            problems.push(format!(
                "{}: six-to-ten's default is {}, the table says {want}",
                row.id, entry.defaults["six-to-ten"].reading
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The register may grow: a dispute or reading the table does not name is no failure, and the
/// check above still reads a table row whose readings are a subset of the register's.
#[test]
fn the_shared_table_is_read_as_the_register_expects() {
    let rows = shared_table(
        "| id | readings | kind | notes |\n|---|---|---|---|\n\
         | natural-twos | `runs-only`, `never` | gap (unsourced) | six-to-ten default `never` |\n\
         | discard-restrictions | `none` | game difference | x |\n",
    );
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].readings, ["runs-only", "never"]);
    assert_eq!(rows[0].kinds, ["gap"]);
    assert_eq!(six_to_ten_default(&rows[0].notes), Some("never"));
    assert_eq!(rows[1].kinds, ["game-difference"]);
    assert_eq!(six_to_ten_default(&rows[1].notes), None);
}
