//! The disputes register: every point where the sources disagree, with its named readings.
//!
//! The list lives in one place, `spec/disputes.yaml`; `build.rs` turns it into the enums below
//! ([`DisputeId`], one enum per dispute in [`reading`], and [`Readings`]), so the engine can match
//! on readings while the names stay data.

include!(concat!(env!("OUT_DIR"), "/disputes_gen.rs"));

/// The register's text, embedded.
pub const REGISTER_YAML: &str = include_str!("../../spec/disputes.yaml");

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

/// The register's text as data: what each dispute is about, each reading with its sources, and the
/// default of each built-in game with its reason. (The ids and reading names above are generated
/// from the same file.)
pub mod register {
    use serde::{Deserialize, Serialize};
    use std::collections::BTreeMap;

    #[derive(Clone, Debug, Deserialize, Serialize)]
    #[serde(deny_unknown_fields)]
    pub struct Register {
        pub disputes: Vec<Entry>,
    }

    #[derive(Clone, Debug, Deserialize, Serialize)]
    #[serde(deny_unknown_fields)]
    pub struct Entry {
        pub id: String,
        pub title: String,
        pub games: Vec<String>,
        pub kind: Vec<String>,
        pub question: String,
        pub readings: Vec<ReadingEntry>,
        pub defaults: BTreeMap<String, Default>,
    }

    #[derive(Clone, Debug, Deserialize, Serialize)]
    #[serde(deny_unknown_fields)]
    pub struct ReadingEntry {
        pub name: String,
        pub meaning: String,
        pub sources: Vec<Cite>,
    }

    #[derive(Clone, Debug, Deserialize, Serialize)]
    #[serde(deny_unknown_fields)]
    pub struct Cite {
        pub source: String,
        pub says: String,
    }

    #[derive(Clone, Debug, Deserialize, Serialize)]
    #[serde(deny_unknown_fields)]
    pub struct Default {
        pub reading: String,
        pub why: String,
    }

    /// The embedded register, read once.
    pub fn get() -> &'static Register {
        static R: std::sync::OnceLock<Register> = std::sync::OnceLock::new();
        R.get_or_init(|| {
            serde_saphyr::from_str(super::REGISTER_YAML)
                .expect("spec/disputes.yaml is checked by build.rs and a test")
        })
    }
}

#[cfg(test)]
mod register_tests {
    use super::*;

    #[test]
    fn the_register_text_agrees_with_the_generated_readings() {
        let r = register::get();
        assert_eq!(r.disputes.len(), DisputeId::ALL.len());
        for (e, id) in r.disputes.iter().zip(DisputeId::ALL) {
            assert_eq!(e.id, id.id());
            let names: Vec<&str> = e.readings.iter().map(|x| x.name.as_str()).collect();
            assert_eq!(names, id.reading_names());
            for game in crate::rules::GAMES {
                let d = e
                    .defaults
                    .get(game)
                    .unwrap_or_else(|| panic!("{} has no default for {game}", e.id));
                assert!(names.contains(&d.reading.as_str()), "{}: {game}", e.id);
            }
        }
    }

    #[test]
    fn built_in_games_use_the_register_defaults() {
        for game in crate::rules::GAMES {
            let rules = crate::rules::load(game, &[]).unwrap().rules;
            for e in &register::get().disputes {
                let id = DisputeId::from_id(&e.id).unwrap();
                assert_eq!(
                    rules.readings.name(id),
                    e.defaults[game].reading,
                    "{game}: {}",
                    e.id
                );
            }
        }
    }
}
