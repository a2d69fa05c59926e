//! `evaluate`: a dispute's readings and a house file side by side on the built-in games, the
//! output's independence of `--jobs`, the chart, and refusals.

use super::*;

const GAMES: [&str; 3] = ["push", "cap-it", "six-to-ten"];

/// The measures of one variant, by key.
fn measures(v: &Value) -> BTreeMap<String, Value> {
    v["measures"]
        .as_array()
        .expect("measures")
        .iter()
        .map(|m| (m["key"].as_str().expect("a key").to_string(), m.clone()))
        .collect()
}

/// Every variant has the same measures, each estimate in its interval, and the differences are
/// the later variants' estimates less the first's.
fn check_comparison(out: &Value, names: &[String]) {
    let variants = out["variants"].as_array().expect("variants");
    let got: Vec<String> = variants
        .iter()
        .map(|v| v["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(got, names);
    let first = measures(&variants[0]);
    assert!(first.contains_key("hands.went-out") && first.contains_key("game.turns"));
    for v in variants {
        let ms = measures(v);
        // Rule sets with other numbers of deals have other measures per deal.
        let same = |m: &BTreeMap<String, Value>| {
            m.keys()
                .filter(|k| !k.contains(".deal-"))
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(same(&ms), same(&first));
        assert!(ms.contains_key("contract.deal-1.met"));
        for m in ms.values() {
            if let (Some(lo), Some(x), Some(hi)) = (
                m["low"].as_f64(),
                m["estimate"].as_f64(),
                m["high"].as_f64(),
            ) {
                assert!(lo <= x + 1e-12 && x <= hi + 1e-12, "{m}");
            }
        }
    }
    let diffs = out["differences"].as_array().expect("differences");
    assert_eq!(diffs.len(), names.len() - 1);
    for (d, v) in diffs.iter().zip(&variants[1..]) {
        assert_eq!(d["to"], v["name"]);
        let ms = measures(v);
        for x in d["measures"].as_array().unwrap() {
            let key = x["key"].as_str().unwrap();
            if let (Some(a), Some(b), Some(diff)) = (
                first[key]["estimate"].as_f64(),
                ms[key]["estimate"].as_f64(),
                x["difference"].as_f64(),
            ) {
                assert!((b - a - diff).abs() < 1e-9, "{key}: {x}");
            }
            assert!(x["beyond_chance"].is_boolean());
        }
    }
}

#[test]
fn evaluate_compares_the_readings_of_a_dispute_on_each_game() {
    let readings = register()
        .into_iter()
        .find(|(id, _)| id == "two-penalty-value")
        .expect("two-penalty-value is in the register")
        .1;
    let names: Vec<String> = readings
        .iter()
        .map(|r| format!("two-penalty-value={r}"))
        .collect();
    for game in GAMES {
        let out = expect(
            0,
            &[
                "--json",
                "--rules",
                game,
                "evaluate",
                "--games",
                "4",
                "--jobs",
                "2",
                "--compare",
                "two-penalty-value",
            ],
        )
        .json();
        check_comparison(&out, &names);
    }
}

#[test]
fn evaluate_sets_a_house_file_against_each_game() {
    let house = format!("{ROOT}/spec/house/club-marathon.yaml");
    let house_name = expect(0, &["--json", "rules", "show", &house]).json()["rules"]["name"]
        .as_str()
        .map(str::to_string);
    for game in GAMES {
        let name = expect(0, &["--json", "rules", "show", game]).json()["rules"]["name"]
            .as_str()
            .map(str::to_string);
        let out = expect(
            0,
            &[
                "--json",
                "--rules",
                game,
                "evaluate",
                "--games",
                "3",
                "--against",
                &house,
            ],
        )
        .json();
        let names: Vec<String> = out["variants"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["name"].as_str().unwrap().to_string())
            .collect();
        if let (Some(a), Some(b)) = (&name, &house_name) {
            assert_eq!(&names, &[a.clone(), b.clone()]);
        }
        check_comparison(&out, &names);
        let text = expect(
            0,
            &[
                "--rules",
                game,
                "evaluate",
                "--games",
                "3",
                "--against",
                &house,
            ],
        )
        .stdout;
        assert!(
            text.contains("beyond chance") && text.contains(&names[1]),
            "{text}"
        );
    }
}

/// The same seed gives the same JSON whatever `--jobs`, and another seed other games.
#[test]
fn evaluate_output_depends_on_the_seed_not_on_jobs() {
    let run = |jobs: &str, seed: &str| {
        let out = expect(
            0,
            &[
                "--json", "evaluate", "--games", "6", "--seed", seed, "--jobs", jobs,
            ],
        );
        // No progress bar where stderr is no terminal.
        assert_eq!(out.stderr, "", "{}", out.describe());
        out.stdout
    };
    let one = run("1", "9");
    assert_eq!(one, run("3", "9"));
    assert_eq!(one, run("1", "9"));
    assert_ne!(one, run("2", "10"));
}

#[test]
fn evaluate_draws_a_chart_of_every_measure() {
    let dir = TempDir::new("evaluate-plot");
    let file = dir.path().join("chart.svg");
    let file = file.to_str().unwrap();
    let house = format!("{ROOT}/spec/house/club-marathon.yaml");
    // Readings side by side, and a rule set with more deals than Push (more contract measures).
    for side_by_side in [["--compare", "stock-out"], ["--against", house.as_str()]] {
        let mut args = vec!["--json", "evaluate", "--games", "3", "--plot", file];
        args.extend(side_by_side);
        let out = expect(0, &args).json();
        let svg = std::fs::read_to_string(file).expect("the chart is written");
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        for v in out["variants"].as_array().unwrap() {
            assert!(svg.contains(v["name"].as_str().unwrap()), "no legend");
            for m in v["measures"].as_array().unwrap() {
                let label = m["label"].as_str().unwrap();
                let shown: String = label.chars().take(20).collect();
                assert!(
                    svg.contains(&shown.replace('\'', "&apos;")),
                    "no panel for {label}"
                );
            }
        }
    }
}

#[test]
fn evaluate_refuses_what_it_cannot_play() {
    let e = expect(2, &["evaluate", "--compare", "no-such-dispute"]);
    assert!(e.stderr.contains("no-such-dispute"), "{}", e.describe());
    let e = expect(2, &["evaluate", "--games", "0"]);
    assert!(e.stderr.contains("--games"), "{}", e.describe());
    let e = expect(2, &["evaluate", "--players", "9"]);
    assert!(e.stderr.contains('9'), "{}", e.describe());
    expect(
        2,
        &["evaluate", "--compare", "stock-out", "--against", "cap-it"],
    );
    // A rule set that states the twos' points leaves the dispute nothing to decide.
    let house = format!("{ROOT}/spec/house/push-app-seven-cards.yaml");
    let e = expect(
        2,
        &[
            "--rules",
            &house,
            "evaluate",
            "--compare",
            "two-penalty-value",
        ],
    );
    assert!(e.stderr.contains("scoring.points.2"), "{}", e.describe());
}

/// One game gives shares with intervals and single values without: no `NaN` in the text, `null`
/// bounds in the JSON.
#[test]
fn evaluate_of_one_game_shows_no_interval_it_cannot_make() {
    let text = expect(0, &["evaluate", "--games", "1"]).stdout;
    assert!(!text.to_lowercase().contains("nan"), "{text}");
    assert!(text.contains("(one value)"), "{text}");
    let out = expect(0, &["--json", "evaluate", "--games", "1"]).json();
    let ms = measures(&out["variants"][0]);
    assert!(ms["game.turns"]["low"].is_null());
    assert!(ms["hands.went-out"]["low"].is_number());
}
