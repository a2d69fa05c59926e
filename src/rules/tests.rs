//! Unit tests of the compiled rules: the line and its masks, the built-ins, `load`.

use super::loader::normalize;
use super::*;
use std::path::Path;

#[test]
fn paths_in_messages_fold_dot_parts() {
    assert_eq!(
        normalize(Path::new("spec/house/../push.yaml")),
        "spec/push.yaml"
    );
    assert_eq!(normalize(Path::new("./spec/./push.yaml")), "spec/push.yaml");
    // A `..` with nothing before it to fold stays.
    assert_eq!(normalize(Path::new("../../x.yaml")), "../../x.yaml");
}

/// `wild_mask` holds exactly the cards `is_wild` accepts, and `placed_ranks` exactly the
/// ranks with a place on the line, in every game, with twos wild and not, and with and
/// without wrap-around and a 2 in sequence.
#[test]
fn the_wild_mask_and_the_placed_ranks_are_what_they_stand_for() {
    for game in GAMES {
        for twos in [false, true] {
            for (wrap, two_in_sequence) in [(false, false), (false, true), (true, true)] {
                let mut rules = load(game, &[]).unwrap().rules;
                rules.twos_wild = twos;
                rules.wrap_around = wrap;
                rules.two_in_sequence = two_in_sequence;
                rules.refresh();
                let wild = Card::all()
                    .filter(|&c| rules.is_wild(c))
                    .fold(0u64, |m, c| m | 1 << c.index());
                assert_eq!(rules.wild_mask(), wild, "{game}, twos wild: {twos}");
                let placed = (0..13)
                    .filter(|&r| {
                        rules
                            .line
                            .iter()
                            .any(|p| usize::from(p.rank.number()) == r + 1)
                    })
                    .fold(0u64, |m, r| m | 1 << r);
                assert_eq!(
                    rules.placed_ranks, placed,
                    "{game}, wrap {wrap}, 2 in sequence {two_in_sequence}"
                );
            }
        }
    }
}

/// `places_of` by its tables is the union of the ranks' places, for every set of ranks on
/// every line (bits above the thirteenth ignored).
#[test]
fn places_of_is_the_union_of_the_ranks_places() {
    for game in GAMES {
        for wrap in [false, true] {
            let mut rules = load(game, &[]).unwrap().rules;
            rules.wrap_around = wrap;
            rules.refresh();
            for ranks in 0u64..1 << 13 {
                let want = (0..13)
                    .filter(|&r| ranks >> r & 1 == 1)
                    .fold(0, |p, r| p | rules.rank_places[r]);
                assert_eq!(rules.places_of(ranks), want, "{game}, ranks {ranks:#b}");
                assert_eq!(
                    rules.places_of(ranks | 0b101 << 13),
                    want,
                    "{game}, high bits"
                );
            }
        }
    }
}

/// A rank's neighbours are the ranks of the places next to one of its places: read here
/// from every pair of neighbouring places on the line, for every game with and without
/// wrap-around and under both ace positions.
#[test]
fn rank_neighbours_are_the_ranks_of_neighbouring_places() {
    for game in GAMES {
        for wrap in [false, true] {
            for ace in [
                reading::AcePosition::HighOrLow,
                reading::AcePosition::HighOnly,
            ] {
                let mut rules = load(game, &[]).unwrap().rules;
                rules.wrap_around = wrap;
                rules.readings.ace_position = ace;
                rules.refresh();
                let len = rules.line.len();
                let mut want = [[0u16; 2]; 13];
                for lo in 0..len {
                    let hi = lo + 1;
                    if hi == len && !wrap {
                        continue;
                    }
                    let (a, b) = (rules.line[lo].rank, rules.line[hi % len].rank);
                    want[usize::from(b.number()) - 1][0] |= 1 << a.number();
                    want[usize::from(a.number()) - 1][1] |= 1 << b.number();
                }
                assert_eq!(rules.rank_neighbours, want, "{game}, wrap {wrap}, {ace:?}");
            }
        }
    }
}

/// The games are the first built-in rule sets, and extend nothing; every other built-in
/// extends one of them.
#[test]
fn the_games_lead_the_built_ins_and_the_presets_extend_them() {
    let names: Vec<&str> = BUILT_IN.iter().map(|(n, _, _)| *n).collect();
    assert_eq!(names[..GAMES.len()], GAMES);
    for (name, _, _) in BUILT_IN {
        let chain = load(name, &[]).unwrap().chain;
        assert_eq!(chain.len() == 1, GAMES.contains(name), "{name}: {chain:?}");
    }
}

#[test]
fn every_built_in_compiles() {
    for (name, _, _) in BUILT_IN {
        if let Err(e) = load(name, &[]) {
            panic!("{name}: {}", e.render());
        }
    }
}

#[test]
fn show_round_trips() {
    for (name, _, _) in BUILT_IN {
        let loaded = load(name, &[]).unwrap();
        let text = loaded.show();
        let again = load_text("shown.yaml", &text, Path::new("."))
            .unwrap_or_else(|e| panic!("{name}: {}\n{text}", e.render()));
        assert_eq!(again.rules, loaded.rules, "{name}");
        assert_eq!(
            again.show().lines().skip(2).collect::<Vec<_>>(),
            text.lines().skip(2).collect::<Vec<_>>()
        );
    }
}

#[test]
fn rank_lines() {
    let push = load("push", &[]).unwrap().rules;
    assert_eq!(push.line.len(), 14);
    assert_eq!(push.max_run(), 13);
    let both = load("push", &[(DisputeId::AceBothEnds, "allowed".into())])
        .unwrap()
        .rules;
    assert_eq!(both.max_run(), 14);
    let six = load("six-to-ten", &[]).unwrap().rules;
    assert_eq!(six.line.len(), 12, "{:?}", six.line);
}

#[test]
fn rank_places_follow_the_line_as_readings_change_it() {
    let places_of = |r: &Rules, rank: Rank| -> Vec<usize> {
        let mask = r.rank_places[usize::from(rank.number()) - 1];
        (0..32).filter(|pl| mask & 1 << pl != 0).collect()
    };
    let mut push = load("push", &[]).unwrap().rules;
    // A 2 3 … K A: the ace at both ends, the 2 just above the low ace.
    assert_eq!(places_of(&push, Rank::Ace), vec![0, 13]);
    assert_eq!(places_of(&push, Rank::Two), vec![1]);
    assert_eq!(places_of(&push, Rank::King), vec![12]);
    push.set_reading(DisputeId::AcePosition, "high-only");
    assert_eq!(places_of(&push, Rank::Ace), vec![12]);
    assert_eq!(places_of(&push, Rank::King), vec![11]);
    for r in [&push, &load("six-to-ten", &[]).unwrap().rules] {
        for (pl, place) in r.line.iter().enumerate() {
            assert!(places_of(r, place.rank).contains(&pl), "{pl} {:?}", r.line);
        }
    }
    let six = load("six-to-ten", &[]).unwrap().rules;
    assert_eq!(places_of(&six, Rank::Two), Vec::<usize>::new());
}

/// `places_of` is the union of the ranks' places: an ace has two on Push's line, no rank none,
/// and a bit past the 13 ranks (a suit's next rank, in a hand's mask) adds nothing.
#[test]
fn places_of_joins_the_places_of_the_ranks() {
    let push = load("push", &[]).unwrap().rules;
    let p = push.rank_places;
    assert_eq!(push.places_of(0), 0);
    assert_eq!(push.places_of(1), p[0]);
    assert_eq!(p[0].count_ones(), 2, "the ace, low and high");
    assert_eq!(push.places_of(1 | 1 << 6 | 1 << 12), p[0] | p[6] | p[12]);
    assert_eq!(push.places_of(0x1FFF), p.iter().fold(0, |a, m| a | m));
    assert_eq!(push.places_of(1 << 13 | 1 << 40 | 1 << 4), p[4]);
}

/// A run of `n` may hold two places together exactly when they lie fewer than `n` places
/// apart (the short way round where runs wrap), and no run longer than the line exists; the
/// reach follows the line and the wrap.
#[test]
fn reach_is_every_place_within_a_run_of_a_ranks_places() {
    let mut push = load("push", &[]).unwrap().rules;
    for wrap in [false, true] {
        push.wrap_around = wrap;
        push.refresh();
        let len = push.line.len();
        for n in 0..=len + 1 {
            for rank in Rank::ALL {
                let own = push.rank_places[usize::from(rank.number()) - 1];
                let mut expected = 0u32;
                for p in (0..len).filter(|p| own & 1 << p != 0) {
                    for q in 0..len {
                        let apart = p.abs_diff(q);
                        let apart = if wrap { apart.min(len - apart) } else { apart };
                        if n <= len && apart < n {
                            expected |= 1 << q;
                        }
                    }
                }
                assert_eq!(
                    push.reach(n, rank),
                    expected,
                    "{rank:?}, run of {n}, wrap {wrap}"
                );
            }
        }
    }
    assert_ne!(push.reach(4, Rank::Seven), 0);
}

/// A run's windows are its places for each start: every place from which it fits, or every
/// place around the corner where runs wrap (one for the whole circle); they follow the line
/// when a reading or the wrap changes.
#[test]
fn run_windows_follow_the_line_and_the_wrap() {
    let mut push = load("push", &[]).unwrap().rules;
    // A 2 3 … K A: fourteen places, a run of 4 starts at eleven of them.
    assert_eq!(push.windows(4).len(), 11);
    assert_eq!(push.windows(4)[0], 0b1111);
    assert_eq!(push.windows(4)[10], 0b1111 << 10);
    assert_eq!(push.windows(15), &[] as &[u32]);
    push.set_reading(DisputeId::AcePosition, "high-only");
    assert_eq!(push.windows(4).len(), 10);
    push.wrap_around = true;
    push.refresh();
    let len = push.line.len();
    assert_eq!(push.windows(4).len(), len);
    assert_eq!(
        push.windows(4)[len - 1],
        1 << (len - 1) | 0b111,
        "past the corner"
    );
    assert_eq!(
        push.windows(len),
        &[(1u32 << len) - 1],
        "the full circle once"
    );
    for n in 1..=len {
        let starts = if n == len { 1 } else { len };
        assert_eq!(push.windows(n).len(), starts, "{n} cards around the circle");
        for &w in push.windows(n) {
            assert_eq!(w.count_ones() as usize, n);
        }
    }
}

/// A stated value of aces and twos decides over the readings, in `compile` and after
/// `set_reading` alike; left out, the readings decide; `overriding` names the stated rule.
#[test]
fn stated_card_values_override_the_readings_and_survive_a_reading_change() {
    let c = |s: &str| crate::base::card::parse_cards(s).unwrap()[0];
    let push = load("push", &[]).unwrap().rules;
    assert_eq!((push.points(c("AS")), push.points(c("2C"))), (15, 20));
    assert_eq!(push.overriding(DisputeId::TwoPenaltyValue), None);
    assert!(!push.states("scoring.points.2"));
    let text = "extends: push\ngame: h\nscoring: {points: {A: 20, \"2\": 25}, sides: individual}\n";
    let mut house = load_text("h.yaml", text, Path::new(".")).unwrap().rules;
    assert_eq!((house.points(c("AS")), house.points(c("2C"))), (20, 25));
    assert_eq!(
        house.overriding(DisputeId::TwoPenaltyValue),
        Some("scoring.points.2")
    );
    assert_eq!(
        house.overriding(DisputeId::AcePenaltyValue),
        Some("scoring.points.A")
    );
    assert_eq!(
        house.overriding(DisputeId::SixTenPartnerships),
        Some("scoring.sides")
    );
    assert_eq!(house.overriding(DisputeId::CapitThirdDeck), None);
    assert!(house.set_reading(DisputeId::TwoPenaltyValue, "15"));
    assert_eq!(house.points(c("2C")), 25);
    assert!(house.set_reading(DisputeId::SixTenPartnerships, "across"));
    assert!(!house.partnered(4));
    // Only the two: a house file stating the ace keeps the reading's two.
    let text = "extends: source-002\ngame: h\nscoring: {points: {A: 0}}\n";
    let house = load_text("h.yaml", text, Path::new(".")).unwrap().rules;
    assert_eq!((house.points(c("AS")), house.points(c("2C"))), (0, 15));
}
