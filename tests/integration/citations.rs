//! Every rule written in a shipped rules file cites its sources (000–003) or says `unsourced`
//! (issue 2), and the built-in games give every dispute a reading of their own.

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
