//! The disputes register: every point where the sources disagree, with its named readings.
//!
//! The list lives in one place, `spec/disputes.yaml`; `build.rs` turns it into the enums below
//! ([`DisputeId`], one enum per dispute in [`reading`], and [`Readings`]), so the engine can match
//! on readings while the names stay data.

include!(concat!(env!("OUT_DIR"), "/disputes_gen.rs"));

/// The register's text, embedded.
pub const REGISTER_YAML: &str = include_str!("../spec/disputes.yaml");

impl std::fmt::Display for DisputeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// The reading names of `id`, quoted and comma-separated, for messages.
pub fn list_readings(id: DisputeId) -> String {
    let names: Vec<String> = id
        .reading_names()
        .iter()
        .map(|n| format!("`{n}`"))
        .collect();
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reading_name_round_trips() {
        let mut r = Readings::first();
        for id in DisputeId::ALL {
            assert_eq!(DisputeId::from_id(id.id()), Some(id));
            for name in id.reading_names() {
                assert!(r.set(id, name), "{id} {name}");
                assert_eq!(r.name(id), *name);
            }
            assert!(!r.set(id, "no-such-reading"));
        }
    }
}
