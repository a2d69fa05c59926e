//! The disputes register in `spec/disputes.yaml` (and so the typed readings) is exactly the table
//! of `../shared/DISPUTES.md`: same ids, same reading names, same order, default first (issue 2).
//! Where the shared folder is not beside the checkout the test says so and checks nothing else.

use push_rummy::rules::disputes::DisputeId;

#[test]
fn register_matches_the_shared_table() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/DISPUTES.md");
    let Ok(text) = std::fs::read_to_string(path) else {
        eprintln!("{path} is not here: the register cannot be compared with it");
        return;
    };
    let mut table: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 4
            || !cells[1].chars().all(|c| c.is_ascii_lowercase() || c == '-')
            || cells[1].is_empty()
        {
            continue;
        }
        if cells[1] == "id" || cells[1].starts_with("---") {
            continue;
        }
        let readings: Vec<String> = cells[2]
            .split(',')
            .map(|r| r.trim().trim_matches('`').to_string())
            .filter(|r| !r.is_empty())
            .collect();
        table.push((cells[1].to_string(), readings));
    }
    assert!(
        table.len() >= 30,
        "the table of DISPUTES.md was not found ({} rows)",
        table.len()
    );
    let ours: Vec<(String, Vec<String>)> = DisputeId::ALL
        .iter()
        .map(|d| {
            (
                d.id().to_string(),
                d.reading_names().iter().map(|s| s.to_string()).collect(),
            )
        })
        .collect();
    assert_eq!(ours, table);
}
