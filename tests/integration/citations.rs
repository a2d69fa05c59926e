//! Every rule written in a shipped rules file cites its sources (000–003) or says `unsourced`,
//! the built-in games give every dispute a reading of their own, and the source presets say which
//! source decides each rule.

use push_rummy::base::diag::Diagnostic;
use push_rummy::base::yaml;
use push_rummy::rules::spec::{META, Ty, decode, rule_defs};

fn shipped() -> Vec<String> {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut v = vec![
        format!("{root}/spec/push.yaml"),
        format!("{root}/spec/cap-it.yaml"),
        format!("{root}/spec/six-to-ten.yaml"),
    ];
    let mut house: Vec<String> = std::fs::read_dir(format!("{root}/spec/house"))
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .filter(|p| p.ends_with(".yaml"))
        .collect();
    house.sort();
    v.extend(house);
    v
}

#[test]
fn every_rule_in_a_shipped_file_is_cited() {
    for file in shipped() {
        let text = std::fs::read_to_string(&file).unwrap();
        let node = yaml::parse(&text).unwrap();
        let mut diags: Vec<Diagnostic> = Vec::new();
        let raw = decode(&file, &node, &mut diags);
        assert!(diags.is_empty(), "{file}: {diags:?}");
        for (path, e) in &raw.entries {
            if META.contains(&path.as_str()) {
                continue;
            }
            let sources = e
                .sources
                .as_ref()
                .unwrap_or_else(|| panic!("{file}: {path} is not cited"));
            assert!(!sources.is_empty(), "{file}: {path} cites nothing");
        }
    }
}

#[test]
fn built_in_games_set_every_rule_themselves() {
    for file in &shipped()[..3] {
        let text = std::fs::read_to_string(file).unwrap();
        let node = yaml::parse(&text).unwrap();
        let raw = decode(file, &node, &mut Vec::new());
        for d in rule_defs()
            .iter()
            .filter(|d| d.required && d.ty != Ty::Text)
        {
            assert!(raw.get(&d.path).is_some(), "{file} does not set {}", d.path);
        }
    }
}

/// A source preset (`spec/house/source-00N.yaml`) says in its header comment, rule by rule, whether
/// its source states the rule (as Push does, or otherwise) or is silent so that Push decides: every
/// rule and every dispute is named there. Every rule the preset writes itself cites its source alone.
#[test]
fn source_presets_say_which_source_decides_every_rule() {
    let root = env!("CARGO_MANIFEST_DIR");
    for n in ["000", "001", "002", "003"] {
        let file = format!("{root}/spec/house/source-{n}.yaml");
        let text = std::fs::read_to_string(&file).unwrap();
        let header: String = text
            .lines()
            .take_while(|l| l.starts_with('#'))
            .map(|l| format!("{} ", l.trim_start_matches('#')))
            .collect();
        let named = |word: &str| {
            header.match_indices(word).any(|(i, _)| {
                let before = header[..i].chars().next_back();
                let after = header[i + word.len()..].chars().next();
                let edge =
                    |c: Option<char>| c.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '-'));
                edge(before) && edge(after)
            })
        };
        for d in rule_defs()
            .iter()
            .filter(|d| d.required && d.ty != Ty::Text)
        {
            let word = if d.path.starts_with("scoring.points.") {
                "scoring.points"
            } else {
                d.path.strip_prefix("readings.").unwrap_or(&d.path)
            };
            assert!(
                named(word),
                "{file}: the header does not say who decides {word}"
            );
        }
        let node = yaml::parse(&text).unwrap();
        let raw = decode(&file, &node, &mut Vec::new());
        for (path, e) in &raw.entries {
            if META.contains(&path.as_str()) {
                continue;
            }
            assert_eq!(
                e.sources.as_deref(),
                Some(&[n.to_string()][..]),
                "{file}: {path} does not cite {n} alone"
            );
        }
    }
}
