//! Tests written for mutants that cargo-mutants found surviving the fast test selection
//! (`.cargo/mutants.toml`, which runs this file too). Each names what it pins.

use push_rummy::base::card::{Counts, parse_cards};
use push_rummy::engine::game::{Action, Game, Reason};
use push_rummy::oracle::contract;
use push_rummy::rules::disputes::DisputeId;
use push_rummy::rules::spec::{Component, MeldKind};
use push_rummy::rules::{Rules, load};
use std::sync::Arc;

/// The rules of built-in `game` under the given readings.
fn rules_of(game: &str, readings: &[(DisputeId, &str)]) -> Rules {
    let readings: Vec<(DisputeId, String)> = readings
        .iter()
        .map(|(d, r)| (*d, (*r).to_string()))
        .collect();
    load(game, &readings)
        .expect("a built-in rule set loads")
        .rules
}

/// `Illegal` prints as `CODE: MESSAGE` (the form the command line and the bots' panics show).
#[test]
fn an_illegal_action_prints_its_code_and_message() {
    let rules = Arc::new(rules_of("push", &[]));
    let mut game = Game::new(rules, 4, 0, 7, vec![]).expect("sets up");
    let seat = game.turn();
    let card = game.deal.hands[usize::from(seat)].cards()[0];
    let e = game.apply(seat, &Action::Discard(card)).unwrap_err();
    assert_eq!(e.code, Reason::MustDrawFirst);
    assert_eq!(e.to_string(), format!("must-draw-first: {}", e.message));
    assert!(!e.message.is_empty());
}

/// A contract of two sets of different sizes met by two sets of one rank (two decks: seven
/// sevens, 3 + 4, each set of distinct suits), where the rules allow same-rank sets. The quick
/// necessary condition of the laydown search must let two unequal sets share a rank.
#[test]
fn two_unequal_sets_of_one_rank_meet_a_contract() {
    let rules = rules_of("push", &[(DisputeId::SameRankSets, "allowed")]);
    let contract = sets(&[3, 4]);
    let hand = Counts::from_cards(&parse_cards("7S 7H 7D 7S 7H 7D 7C KD 9C").expect("cards"));
    let found = contract::laydown(&rules, &contract, &hand);
    assert!(found.is_some(), "3 + 4 sevens meet set of 3 + set of 4");
    // Without the second 7♣-free group of four suits it cannot: six sevens and no wilds.
    let short = Counts::from_cards(&parse_cards("7S 7H 7D 7S 7H 7D KD 9C 5H").expect("cards"));
    assert!(contract::laydown(&rules, &contract, &short).is_none());
}

/// `accepts` answers as `apply` would, without changing the game: yes to a legal draw, no to a
/// discard before the draw and to a player out of turn.
#[test]
fn accepts_says_what_apply_would_do() {
    let rules = Arc::new(rules_of("push", &[]));
    let game = Game::new(rules, 4, 0, 7, vec![]).expect("sets up");
    let seat = game.turn();
    let card = game.deal.hands[usize::from(seat)].cards()[0];
    for (who, action) in [
        (seat, Action::Push),
        (seat, Action::TakeDiscard),
        (seat, Action::Discard(card)),
        ((seat + 1) % 4, Action::Push),
    ] {
        let mut copy = game.clone();
        let applied = copy.apply(who, &action).is_ok();
        assert_eq!(game.accepts(who, &action), applied, "seat {who}: {action}");
    }
    assert!(
        game.accepts(seat, &Action::Push),
        "the push is legal at the start"
    );
}

/// A set longer than four under `set-max-size=4` is no contract meld, whatever the wild cards.
#[test]
fn no_set_of_five_where_sets_stop_at_four() {
    let rules = rules_of("push", &[]);
    let five = sets(&[5]);
    let hand = Counts::from_cards(&parse_cards("7S 7H 7D 7C JK JK").expect("cards"));
    assert!(contract::laydown(&rules, &five, &hand).is_none());
}

/// A deal that uses the whole pack but one card (the upcard) fits; one card more does not.
#[test]
fn a_deal_may_use_the_whole_pack() {
    let rules = |deal: u32| {
        let text = format!(
            "extends: six-to-ten\ngame: tight\nplayers: {{count: 3}}\n\
             rounds: [{{deal: {deal}, contract: [set of 3]}}]\n"
        );
        push_rummy::rules::load_text("tight.yaml", &text, std::path::Path::new("."))
    };
    // 3 × 17 + 1 = 52: every card of the one deck.
    assert!(rules(17).is_ok(), "{:?}", rules(17).err());
    let e = rules(18).expect_err("55 cards from a pack of 52");
    assert!(e.to_string().contains("rounds[0].deal"), "{e}");
}

/// Where two sets may not share a rank, sets of two sizes may still use an all-wild set.
#[test]
fn an_all_wild_set_beside_a_longer_natural_one() {
    let rules = rules_of("push", &[(DisputeId::SameRankSets, "forbidden")]);
    let contract = sets(&[3, 4]);
    let hand = Counts::from_cards(&parse_cards("7S 7H 7D 7C JK JK 2C").expect("cards"));
    assert!(contract::laydown(&rules, &contract, &hand).is_some());
}

/// Where sets have no size limit and may repeat suits, reading wilds as exact cards does not cap
/// a contract set at four: five sevens, two of them spades, make a set of five.
#[test]
fn a_set_of_five_with_a_repeated_suit_where_both_are_allowed() {
    let readings = |dup: &str| {
        vec![
            (DisputeId::SetMaxSize, "unlimited".to_string()),
            (DisputeId::WildInSetRepresents, "exact-card".to_string()),
            (DisputeId::SetDuplicateSuits, dup.to_string()),
        ]
    };
    let hand = Counts::from_cards(&parse_cards("7S 7S 7H 7D 7C KD").expect("cards"));
    let allowed = load("push", &readings("allowed")).expect("loads").rules;
    assert!(contract::laydown(&allowed, &sets(&[5]), &hand).is_some());
    // With suits unrepeatable, four suits are all a set can hold.
    let forbidden = load("push", &readings("forbidden")).expect("loads").rules;
    assert!(contract::laydown(&forbidden, &sets(&[5]), &hand).is_none());
}

/// Under `run-suits=any-suits` with `same-suit-runs-in-contract=forbidden`, each suit's natural
/// cards belong to one run of the contract. Three runs from hearts and clubs alone would need a
/// suit in two runs: refused. With a third suit they can be laid down.
#[test]
fn three_runs_need_three_suits_where_runs_may_not_share_one() {
    let rules = rules_of(
        "push",
        &[
            (DisputeId::RunSuits, "any-suits"),
            (DisputeId::SameSuitRunsInContract, "forbidden"),
        ],
    );
    let runs = contract_of(MeldKind::Run, &[4, 4, 4]);
    let two_suits =
        Counts::from_cards(&parse_cards("3H 4H 5H 6H 8H 9H 10H JH 4C 5C 6C 7C").expect("cards"));
    assert!(contract::laydown(&rules, &runs, &two_suits).is_none());
    let three_suits =
        Counts::from_cards(&parse_cards("3H 4H 5H 6H 8D 9D 10D JD 4C 5C 6C 7C").expect("cards"));
    assert!(contract::laydown(&rules, &runs, &three_suits).is_some());
}

/// A contract of sets of these sizes.
fn sets(sizes: &[u8]) -> Vec<Component> {
    contract_of(MeldKind::Set, sizes)
}

/// A contract of melds of one kind, of these sizes.
fn contract_of(kind: MeldKind, sizes: &[u8]) -> Vec<Component> {
    sizes
        .iter()
        .map(|&size| Component::of(kind, size))
        .collect()
}

/// Every set that the rules refuse is refused with its reason: never with the catch-all "these
/// cards form no set". Over every mix of three sevens, the twos and the joker (two of each at
/// most, as in Push's pack) of three to six cards, under every combination of the readings that
/// bear on sets of wild cards.
#[test]
fn a_refused_set_says_why() {
    use push_rummy::oracle::meld::{self, Query};
    let kinds = parse_cards("7S 7H 7D 2S 2H 2D 2C JK").expect("cards");
    // The readings that change what a meld is, less those that only bear on runs.
    let switches: Vec<&(DisputeId, &[&str])> = push_rummy::oracle::meld_reference::SWITCHES
        .iter()
        .filter(|(id, _)| {
            !matches!(
                id,
                DisputeId::AcePosition | DisputeId::AceBothEnds | DisputeId::RunSuits
            )
        })
        .collect();
    let combos: usize = switches.iter().map(|(_, names)| names.len()).product();
    let mut refused = 0;
    for code in 0..combos {
        let mut c = code;
        let readings: Vec<(DisputeId, String)> = switches
            .iter()
            .map(|(id, names)| {
                let pick = names[c % names.len()];
                c /= names.len();
                (*id, pick.to_string())
            })
            .collect();
        let rules = load("push", &readings).expect("loads").rules;
        for counts in 0..3usize.pow(8) {
            let mut cards = Vec::new();
            let mut k = counts;
            for &card in &kinds {
                cards.extend(std::iter::repeat_n(card, k % 3));
                k /= 3;
            }
            if !(3..=6).contains(&cards.len()) {
                continue;
            }
            let q = Query {
                cards: cards.clone(),
                kind: Some(MeldKind::Set),
                declared: vec![],
            };
            let v = meld::interpret(&rules, &q);
            if v.interpretations.is_empty() {
                refused += 1;
                assert!(
                    !v.reason.contains("form no set"),
                    "{readings:?} {cards:?}: {}",
                    v.reason
                );
            }
        }
    }
    assert!(refused > 0);
}

/// A meld of exactly the most cards the engine reads (`meld::MAX_MELD_CARDS`) is judged by the
/// rules and refused for their reason; one card more is refused for the limit.
#[test]
fn the_meld_size_limit_starts_one_past_the_maximum() {
    use push_rummy::oracle::meld::{self, MAX_MELD_CARDS, Query};
    let rules = rules_of("push", &[]);
    let query = |n: usize| Query {
        cards: vec![parse_cards("7S").expect("card")[0]; n],
        kind: None,
        declared: vec![],
    };
    let at = meld::interpret(&rules, &query(MAX_MELD_CARDS));
    assert!(at.interpretations.is_empty());
    assert!(!at.reason.contains("beyond the limit"), "{}", at.reason);
    let past = meld::interpret(&rules, &query(MAX_MELD_CARDS + 1));
    assert!(past.reason.contains("beyond the limit"), "{}", past.reason);
}

/// A two laid off on a set of twos where each wild stands for an exact card: the one-card
/// extension must read the new two as natural exactly where twos are natural in sets, as the
/// full search does. Every reading of `natural-twos` and `set-duplicate-suits`, every reading of
/// the old set, each two and the joker added.
#[test]
fn a_two_onto_a_set_of_twos_is_read_as_the_full_search_reads_it() {
    use push_rummy::oracle::meld::{self, Query};
    let mut compared = 0;
    for natural in ["runs-only", "runs-and-sets", "never"] {
        for dup in ["forbidden", "allowed"] {
            let rules = rules_of(
                "push",
                &[
                    (DisputeId::WildInSetRepresents, "exact-card"),
                    (DisputeId::NaturalTwos, natural),
                    (DisputeId::SetDuplicateSuits, dup),
                ],
            );
            let cards = parse_cards("2H 2D JK").expect("cards");
            let set = |cards: Vec<push_rummy::base::card::Card>| Query {
                cards,
                kind: Some(MeldKind::Set),
                declared: vec![],
            };
            let olds = meld::interpret(&rules, &set(cards.clone())).interpretations;
            for old in olds
                .iter()
                .filter(|i| i.rank == Some(push_rummy::base::card::Rank::Two))
            {
                for add in parse_cards("2S 2H 2C JK").expect("cards") {
                    let Some(fast) = meld::extend_by_one(&rules, old, add) else {
                        continue;
                    };
                    let slow = full_search_extensions(&rules, &cards, MeldKind::Set, old, add);
                    assert_eq!(
                        fast, slow,
                        "natural-twos={natural} dup={dup}: {old:?} + {add}"
                    );
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 0);
}

/// A game that cannot be set up says why when printed (`SetupError` displays its message).
#[test]
fn a_setup_error_prints_its_reason() {
    let rules = Arc::new(rules_of("push", &[]));
    let e = Game::new(rules, 9, 0, 1, vec![]).expect_err("push is for four players");
    assert!(e.to_string().contains("not 9"), "{e}");
    assert_eq!(e.to_string(), e.0);
}

/// A contract may need every card of the pack (four runs of 12 and a set of 4 from one deck of
/// 52), but not one card more.
#[test]
fn a_contract_may_need_the_whole_pack() {
    let rules = |contract: &str| {
        let text = format!(
            "extends: six-to-ten\ngame: greedy-contract\nplayers: {{count: 2}}\n\
             rounds: [{{deal: 10, contract: [{contract}]}}]\n"
        );
        push_rummy::rules::load_text("greedy.yaml", &text, std::path::Path::new("."))
    };
    let whole = "run of 12, run of 12, run of 12, run of 12, set of 4";
    assert!(rules(whole).is_ok(), "{:?}", rules(whole).err());
    let e = rules(&format!("{whole}, set of 3")).expect_err("55 cards from a pack of 52");
    assert!(
        e.to_string()
            .contains("the contract needs 55 cards; the pack has 52"),
        "{e}"
    );
}

/// The largest contract set Push's pack allows (2 decks, 4 jokers, twos wild: 8 naturals of a
/// rank and 12 wilds), with no size cap, for each way suits and wilds in sets are read.
#[test]
fn the_largest_contract_set_follows_the_pack_and_the_readings() {
    let rules = |suits: &str, wilds: &str, size: usize| {
        let text = format!(
            "extends: push\ngame: big-sets\n\
             readings: {{set-max-size: unlimited, set-duplicate-suits: {suits}, \
             wild-in-set-represents: {wilds}}}\n\
             rounds: [{{deal: 11, contract: [set of {size}]}}]\n"
        );
        push_rummy::rules::load_text("big.yaml", &text, std::path::Path::new("."))
    };
    for (suits, wilds, max) in [
        ("allowed", "rank-only", 8 + 12),
        ("allowed", "exact-card", 8 + 12),
        ("forbidden", "rank-only", 4 + 12),
        ("forbidden", "exact-card", 4),
    ] {
        let fits = rules(suits, wilds, max);
        assert!(fits.is_ok(), "{suits} {wilds}: {:?}", fits.err());
        let e = rules(suits, wilds, max + 1).expect_err("one card too many");
        assert!(
            e.to_string()
                .contains(&format!("a set holds at most {max} cards")),
            "{suits} {wilds}: {e}"
        );
    }
}

/// A run refused for holding two aces blames the ace-both-ends rule only where the rules forbid
/// an ace at both ends (where they allow it, the full 14-card run is a meld).
#[test]
fn only_a_forbidden_ace_at_both_ends_is_blamed_on_that_rule() {
    let full = parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS").expect("cards");
    let reading = |name: &str| rules_of("push", &[(DisputeId::AceBothEnds, name)]);
    let allowed = reading("allowed");
    assert!(push_rummy::oracle::meld::is_valid(
        &allowed,
        &full,
        Some(MeldKind::Run)
    ));
    for (rules, blamed) in [(reading("forbidden"), true), (allowed, false)] {
        assert_refused_run(&rules, "AS 2S AS", "ace at both ends", blamed);
    }
}

/// `meld::for_each` produces each interpretation once: two equal aces at the ends of a full run
/// are one placement, not two (with a joker for the 7, the natural 2 may be wild too, so that run
/// has two interpretations, each once).
#[test]
fn equal_aces_at_both_ends_are_one_interpretation() {
    let rules = rules_of("push", &[(DisputeId::AceBothEnds, "allowed")]);
    for cards in [
        "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
        "AS 2S 3S 4S 5S 6S JK 8S 9S 10S JS QS KS AS",
    ] {
        let cards = parse_cards(cards).expect("cards");
        let mut seen = Vec::new();
        push_rummy::oracle::meld::for_each(&rules, &cards, Some(MeldKind::Run), &mut |i| {
            seen.push(i);
            true
        });
        let mut distinct = seen.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), seen.len(), "{seen:?}");
    }
}

/// `meld::rescue_in` returns only legal readings: a set of twos (made where twos may be natural in
/// sets) may have its joker rescued by a natural 2 under those rules, and not under rules where
/// a 2 is never natural in a set.
#[test]
fn a_two_rescues_in_a_set_of_twos_only_where_twos_are_natural_in_sets() {
    use push_rummy::oracle::meld::{self, Query};
    let reading = |name: &str| rules_of("push", &[(DisputeId::NaturalTwos, name)]);
    let (sets_too, runs_only) = (reading("runs-and-sets"), reading("runs-only"));
    let q = Query {
        cards: parse_cards("2S 2H JK").expect("cards"),
        kind: Some(MeldKind::Set),
        declared: vec![],
    };
    let twos = meld::interpret(&sets_too, &q)
        .interpretations
        .into_iter()
        .find(|i| i.roles.iter().filter(|r| r.natural).count() == 2)
        .expect("2♠ 2♥ and a joker are a set of twos where twos are natural in sets");
    let (joker, two) = (parse_cards("JK").unwrap()[0], parse_cards("2D").unwrap()[0]);
    assert!(!meld::rescue_in(&sets_too, &twos, joker, two).is_empty());
    assert!(meld::rescue_in(&runs_only, &twos, joker, two).is_empty());
}

/// `meld::rescue_in` where the wild stands for the natural in two places: a run of the whole
/// line (aces at both ends) with a joker at each ace takes the A♠ at either end, two readings;
/// they are the new cards' readings in which the joker still stands for an ace.
#[test]
fn a_rescue_takes_each_place_the_wild_holds() {
    use push_rummy::oracle::meld::{self, Query, Target};
    let rules = rules_of("push", &[(DisputeId::AceBothEnds, "allowed")]);
    let read = |cards: &str| {
        let q = Query {
            cards: parse_cards(cards).expect("cards"),
            kind: Some(MeldKind::Run),
            declared: vec![],
        };
        meld::interpret(&rules, &q).interpretations
    };
    let (joker, ace) = (parse_cards("JK").unwrap()[0], parse_cards("AS").unwrap()[0]);
    let at_ace = |r: &&meld::Role| r.card == joker && r.stands_for == Target::Card(ace);
    let both = read("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS JK JK")
        .into_iter()
        .find(|i| i.roles.iter().filter(at_ace).count() == 2)
        .expect("the jokers at both aces");
    let rescued = meld::rescue_in(&rules, &both, joker, ace);
    let want: Vec<_> = read("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS JK")
        .into_iter()
        .filter(|i| i.roles.iter().any(|r| at_ace(&r)))
        .collect();
    assert_eq!(want.len(), 2, "{want:?}");
    assert_eq!(rescued, want);
}

/// Where aces are high only, a refused run blames that rule only if it holds an ace.
#[test]
fn only_a_run_with_an_ace_is_refused_for_the_high_ace() {
    let rules = rules_of("six-to-ten", &[]);
    for (cards, blamed) in [("AS 2S 3S", true), ("5S 7S 9S", false)] {
        assert_refused_run(&rules, cards, "ace high only", blamed);
    }
}

/// Asserts that `cards` are no run under `rules`, and that the reason given names `phrase` exactly
/// when `blamed`.
fn assert_refused_run(rules: &Rules, cards: &str, phrase: &str, blamed: bool) {
    assert_refused(rules, MeldKind::Run, cards, phrase, blamed);
}

/// Asserts that `cards` are no meld of `kind` under `rules`, and that the reason given names
/// `phrase` exactly when `blamed`.
fn assert_refused(rules: &Rules, kind: MeldKind, cards: &str, phrase: &str, blamed: bool) {
    use push_rummy::oracle::meld::{self, Query};
    let q = Query {
        cards: parse_cards(cards).expect("cards"),
        kind: Some(kind),
        declared: vec![],
    };
    let v = meld::interpret(rules, &q);
    assert!(v.interpretations.is_empty(), "{cards}");
    assert_eq!(v.reason.contains(phrase), blamed, "{cards}: {}", v.reason);
}

/// A name holding a `/` is a path whatever its extension, even where it ends in a built-in
/// name (`DIR/push` is that file, not Push); a missing one is reported as a missing file, as is a
/// missing name holding a `\` or ending in `.yaml` or `.yml`.
#[test]
fn a_name_with_a_slash_is_a_path_whatever_its_extension() {
    let dir = std::env::temp_dir().join(format!("push-rummy-mutants-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("push");
    std::fs::write(&file, "extends: push\ngame: not-push\n").expect("write");
    let loaded = load(file.to_str().expect("utf-8 path"), &[]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(loaded.expect("read by path").rules.game, "not-push");
    for missing in [
        "no/such/rules",
        "no\\such\\rules",
        "no-such-rules.yaml",
        "no-such-rules.yml",
    ] {
        let e = load(missing, &[]).expect_err("missing");
        assert!(e.to_string().contains("does not exist"), "{missing}: {e}");
    }
}

/// Inline rules text (as a scenario carries) with a problem found while reading it, here an
/// unknown key beside valid rules, is refused, as a rules file would be.
#[test]
fn inline_rules_with_an_unknown_key_are_refused() {
    let text = "extends: push\ngame: typo\nscorin: {}\n";
    let e = push_rummy::rules::load_text("inline.yaml", text, std::path::Path::new("."))
        .expect_err("unknown key");
    assert!(e.to_string().contains("scorin"), "{e}");
}

/// What a lay-off of `add` onto `old` (a reading of `cards`) can mean, by the full search: every
/// interpretation of the cards with `add` that keeps each role of `old`.
fn full_search_extensions(
    rules: &push_rummy::rules::Rules,
    cards: &[push_rummy::base::card::Card],
    kind: MeldKind,
    old: &push_rummy::oracle::meld::Interpretation,
    add: push_rummy::base::card::Card,
) -> Vec<push_rummy::oracle::meld::Interpretation> {
    use push_rummy::oracle::meld::{self, Query};
    let mut all = cards.to_vec();
    all.push(add);
    let q = Query {
        cards: all,
        kind: Some(kind),
        declared: vec![],
    };
    meld::interpret(rules, &q)
        .interpretations
        .into_iter()
        .filter(|n| meld::extends(old, n))
        .collect()
}

/// Where all-wild melds are allowed, a run of three jokers takes a fourth wild card: the one-card
/// shortcut reads it as the full search does.
#[test]
fn an_all_wild_run_takes_another_wild_card() {
    use push_rummy::oracle::meld::{self, Query};
    let rules = rules_of("push", &[(DisputeId::AllWildMelds, "allowed")]);
    let cards = parse_cards("JK JK JK").expect("cards");
    let q = Query {
        cards: cards.clone(),
        kind: Some(MeldKind::Run),
        declared: vec![],
    };
    let olds = meld::interpret(&rules, &q).interpretations;
    let mut extended = 0;
    for old in olds.iter().take(6) {
        for add in parse_cards("JK 2C 5S").expect("cards") {
            let fast = meld::extend_by_one(&rules, old, add).expect("no full circle");
            let slow = full_search_extensions(&rules, &cards, MeldKind::Run, old, add);
            assert_eq!(fast, slow, "{old:?} + {add}");
            extended += fast.len();
        }
    }
    assert!(extended > 0);
}

/// Where twos are not wild, a refused run holding a natural 2 blames the rank line only where 2
/// is not a rank of a sequence.
#[test]
fn a_natural_two_is_blamed_only_where_two_is_not_in_sequence() {
    for (two_in_sequence, cards, blamed) in [(true, "2S 5S 9S", false), (false, "2S 3S 4S", true)] {
        let text = format!(
            "extends: push\ngame: natural-twos\nwilds: {{twos: false}}\n\
             runs: {{two-in-sequence: {two_in_sequence}}}\n"
        );
        let rules = push_rummy::rules::load_text("twos.yaml", &text, std::path::Path::new("."))
            .expect("loads")
            .rules;
        assert_refused_run(&rules, cards, "2 is not a rank in a sequence", blamed);
    }
}

/// A meld of the most cards the engine reads takes no lay-off, by the one-card shortcut as by the
/// full search: a set of 64 sevens where sets have no size limit and suits may repeat.
#[test]
fn a_meld_at_the_size_limit_takes_no_lay_off() {
    use push_rummy::oracle::meld::{self, MAX_MELD_CARDS, Query};
    let rules = rules_of(
        "push",
        &[
            (DisputeId::SetMaxSize, "unlimited"),
            (DisputeId::SetDuplicateSuits, "allowed"),
        ],
    );
    let seven = parse_cards("7S").expect("card")[0];
    for n in [MAX_MELD_CARDS - 1, MAX_MELD_CARDS] {
        let cards = vec![seven; n];
        let q = Query {
            cards: cards.clone(),
            kind: Some(MeldKind::Set),
            declared: vec![],
        };
        let old = &meld::interpret(&rules, &q).interpretations[0];
        let fast = meld::extend_by_one(&rules, old, seven).expect("a set");
        assert_eq!(
            fast,
            full_search_extensions(&rules, &cards, MeldKind::Set, old, seven)
        );
        assert_eq!(fast.is_empty(), n == MAX_MELD_CARDS, "{n} sevens");
    }
}

/// A run over the whole rank line: without wrap-around and with an ace at both ends forbidden,
/// A–K–A is no run; with wrap-around, the thirteen ranks of a suit are one (a full circle has no
/// ends), under either reading of ace-both-ends.
#[test]
fn a_run_over_the_whole_line() {
    use push_rummy::oracle::meld;
    let spades = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS";
    for both_ends in ["forbidden", "allowed"] {
        let text = format!(
            "extends: push\ngame: circle\nruns: {{wrap-around: true}}\n\
             readings: {{ace-both-ends: {both_ends}}}\n"
        );
        let rules = push_rummy::rules::load_text("circle.yaml", &text, std::path::Path::new("."))
            .expect("loads")
            .rules;
        let cards = parse_cards(spades).expect("cards");
        assert!(
            meld::is_valid(&rules, &cards, Some(MeldKind::Run)),
            "{both_ends}"
        );
    }
    let rules = rules_of("push", &[(DisputeId::AceBothEnds, "forbidden")]);
    let cards = parse_cards(&format!("{spades} AS")).expect("cards");
    assert!(!meld::is_valid(&rules, &cards, Some(MeldKind::Run)));
}

/// A rules path that cannot be read says why, in words and without the OS error number.
#[test]
fn an_unreadable_rules_path_says_why() {
    let dir = std::env::temp_dir().join(format!("push-rummy-mutants-dir-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("rules.yaml")).expect("temp dir");
    let e = load(dir.join("rules.yaml").to_str().expect("utf-8 path"), &[]).expect_err("a folder");
    std::fs::remove_dir_all(&dir).ok();
    let e = e.to_string();
    assert!(e.contains("cannot read rules file"), "{e}");
    assert!(e.contains(": is a directory"), "{e}");
    assert!(!e.contains("os error"), "{e}");
}

/// Under `push-with-one-stock-card=forbidden` a push needs a card to push and one to draw. With
/// an empty stock and `stock.when-empty=reshuffle-discards` (Club Marathon), the stock that could
/// be rebuilt is the discard pile but its top: two discards rebuild one card, too few to push;
/// three rebuild two, enough.
#[test]
fn a_forbidden_push_counts_the_discard_pile_but_its_top() {
    use push_rummy::engine::game::{Stage, pack};
    use push_rummy::engine::position::{Position, Rest, Start};
    let rules = Arc::new(rules_of(
        "club-marathon",
        &[(DisputeId::PushWithOneStockCard, "forbidden")],
    ));
    let start = Start {
        players: 2,
        ..Start::default()
    };
    for (discard, allowed) in [("8H 6S", false), ("8H 6S 10C", true)] {
        let discard = parse_cards(discard).expect("cards");
        let hand0 = parse_cards("KS 5C").expect("cards");
        // Seat 1 holds everything else, so the stock is empty.
        let mut rest = Counts::from_cards(&pack(&rules, 2));
        for c in discard.iter().chain(&hand0) {
            rest.remove(*c);
        }
        let pos = Position {
            hands: vec![hand0, rest.cards()],
            discard: discard.clone(),
            rest: Rest::None,
            turn: Some(1),
            stage: Stage::Draw,
            ..Position::default()
        };
        let game = Game::from_position(rules.clone(), &start, &pos).expect("a position");
        let mut after = game.clone();
        let pushed = after.apply(1, &Action::Push);
        match (allowed, pushed) {
            (true, Ok(_)) => {
                assert_eq!(after.deal.hands[0].len(), 4, "the push reaches seat 0");
                assert!(after.deal.discard.is_empty() && after.deal.stock.is_empty());
            }
            (false, Err(e)) => {
                assert_eq!(e.code, Reason::PushNotAllowed);
                assert!(e.message.contains("holds 1 card"), "{}", e.message);
            }
            (want, got) => panic!(
                "{} discards: push allowed should be {want}, got {got:?}",
                discard.len()
            ),
        }
    }
}

/// A standalone rules file missing a few rules is told to give them or inherit them; one missing
/// more than three is told what a standalone file and a house file look like. Push's resolved
/// rules without `runs:` lack exactly three rules; without `sets:` too, four.
#[test]
fn missing_rules_get_the_hint_that_fits_how_many() {
    let shown = load("push", &[]).expect("push loads").show();
    let without = |sections: &[&str]| -> String {
        let mut out = String::new();
        let mut skipping = false;
        for line in shown.lines() {
            if !line.starts_with(' ') {
                skipping = sections.iter().any(|s| line == format!("{s}:"));
            }
            if !skipping {
                out.push_str(line);
                out.push('\n');
            }
        }
        out
    };
    for (sections, count, hint) in [
        (
            &["runs"][..],
            3,
            "give these rules, or inherit them with `extends:`",
        ),
        (
            &["runs", "sets"][..],
            4,
            "a standalone rules file gives every rule",
        ),
    ] {
        let text = without(sections);
        let e = push_rummy::rules::load_text("short.yaml", &text, std::path::Path::new("."))
            .expect_err("rules are missing");
        let message = e.to_string();
        assert!(
            message.contains(&format!("{count} rule(s) are not set")),
            "{message}"
        );
        assert!(message.contains(hint), "{sections:?}: {message}");
    }
}

/// Where suits may not repeat in a set but a wild stands only for a rank, a set of five is four
/// naturals of four suits and a wild: contracts with sets over four can be met. (Only where each
/// wild stands for a card of its own suit too do sets stop at four.)
#[test]
fn a_contract_set_of_five_where_suits_may_not_repeat_but_wilds_stand_for_a_rank() {
    let represents = |reading| {
        rules_of(
            "push",
            &[
                (DisputeId::SetDuplicateSuits, "forbidden"),
                (DisputeId::WildInSetRepresents, reading),
                (DisputeId::SetMaxSize, "unlimited"),
            ],
        )
    };
    let hand = Counts::from_cards(&parse_cards("7S 7H 7D 7C JK 9D").expect("cards"));
    assert!(contract::laydown(&represents("rank-only"), &sets(&[5]), &hand).is_some());
    assert!(contract::laydown(&represents("exact-card"), &sets(&[5]), &hand).is_none());
}

/// A refused run of exactly the longest length is refused for what is wrong with it, not for its
/// length: thirteen cards ace to king with one off-suit card break the one-suit rule only.
#[test]
fn a_refused_run_of_the_longest_length_is_not_blamed_on_its_length() {
    let rules = rules_of("push", &[]);
    assert_eq!(rules.max_run(), 13);
    let cards = "AH 2H 3H 4H 5H 6H 7S 8H 9H 10H JH QH KH";
    assert_refused_run(&rules, cards, "one suit", true);
    assert_refused_run(&rules, cards, "at most", false);
}

/// Where all-wild melds are forbidden, a run of naturals that do not fit is refused for not
/// fitting, not for lacking a natural card.
#[test]
fn a_natural_run_that_does_not_fit_is_not_blamed_on_all_wild_melds() {
    let rules = rules_of("push", &[(DisputeId::AllWildMelds, "forbidden")]);
    assert_refused_run(&rules, "5S 7S 9S", "do not fit", true);
    assert_refused_run(&rules, "5S 7S 9S", "natural card", false);
}

/// A run holding two cards of one rank is refused naming the card where runs keep one suit (the
/// two are the same card), and naming the rank where suits may mix.
#[test]
fn a_run_with_a_repeated_rank_names_the_card_or_the_rank() {
    let same = rules_of("push", &[]);
    assert_refused_run(&same, "5S 5S 6S", "cannot hold two 5♠", true);
    let any = rules_of("push", &[(DisputeId::RunSuits, "any-suits")]);
    assert_refused_run(&any, "5S 5H 6S", "cannot hold two 5s", true);
}

/// Where all-wild melds are forbidden, a set of jokers is refused for lacking a natural card; the
/// reminder that a 2 is natural only in runs is added only when the set holds a 2.
#[test]
fn only_an_all_wild_set_with_a_two_is_told_where_twos_are_natural() {
    let rules = rules_of("push", &[(DisputeId::AllWildMelds, "forbidden")]);
    for (cards, with_two) in [("JK JK JK", false), ("JK 2S JK", true)] {
        assert_refused(&rules, MeldKind::Set, cards, "natural card", true);
        assert_refused(
            &rules,
            MeldKind::Set,
            cards,
            "natural only in a run",
            with_two,
        );
    }
}

/// `--reading DISPUTE=READING` takes a reading the register names and refuses one it does not.
#[test]
fn a_reading_argument_is_checked_against_the_register() {
    use push_rummy::rules::parse_reading_arg;
    let (id, name) = parse_reading_arg("pusher-draws=no").expect("a reading of pusher-draws");
    assert_eq!((id, name.as_str()), (DisputeId::PusherDraws, "no"));
    let e = parse_reading_arg("pusher-draws=sometimes").expect_err("no such reading");
    assert!(e.message.contains("is not a reading"), "{}", e.message);
}

/// `check_invariants` finds each broken invariant: a card lost, a card doubled, a table meld
/// without an interpretation, totals that are not the sum of the points each hand recorded.
#[test]
fn the_invariant_check_finds_each_broken_invariant() {
    let rules = Arc::new(rules_of("push", &[]));
    let game = Game::new(rules, 4, 0, 3, vec![]).expect("sets up");
    game.check_invariants();
    let panics = |g: Game| std::panic::catch_unwind(move || g.check_invariants()).is_err();
    let mut lost = game.clone();
    lost.deal.stock.pop();
    assert!(panics(lost), "a card lost");
    let mut doubled = game.clone();
    let card = doubled.deal.stock[0];
    doubled.deal.discard.push(card);
    assert!(panics(doubled), "a card doubled");
    let mut totals = game.clone();
    totals.totals[0] += 5;
    assert!(panics(totals), "totals off");
    // A meld of no cards keeps the cards conserved; it has no interpretation either.
    let mut bare = game;
    bare.deal
        .table
        .push(Arc::new(push_rummy::engine::game::TableMeld::new(
            0,
            vec![],
            vec![],
        )));
    assert!(panics(bare), "a meld without an interpretation");
}

/// `meld::for_each` produces each interpretation once: two jokers beside 7♠ under exact-card
/// (suits may not repeat) stand for two of the other three suits, three ways, not six orders.
#[test]
fn equal_wilds_in_a_set_give_each_choice_of_suits_once() {
    let rules = rules_of("push", &[(DisputeId::WildInSetRepresents, "exact-card")]);
    let cards = parse_cards("7S JK JK").expect("cards");
    let mut seen = Vec::new();
    push_rummy::oracle::meld::for_each(&rules, &cards, Some(MeldKind::Set), &mut |i| {
        seen.push(i);
        true
    });
    assert_eq!(seen.len(), 3, "{seen:?}");
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 3, "no interpretation twice");
}

/// `accepts` checks a lay-off in the play stage (after the draw) and refuses it before the draw.
#[test]
fn accepts_a_lay_off_only_after_the_draw() {
    use push_rummy::engine::game::{MeldSpec, Stage};
    use push_rummy::engine::position::{Position, Rest, Start};
    let rules = Arc::new(rules_of("push", &[]));
    let at = |stage| {
        let pos = Position {
            hands: vec![
                parse_cards("9D").expect("cards"),
                parse_cards("8H 9C").expect("cards"),
                parse_cards("9H").expect("cards"),
                parse_cards("9S").expect("cards"),
            ],
            discard: parse_cards("4C").expect("cards"),
            rest: Rest::Stock,
            table: vec![(
                1,
                MeldSpec {
                    cards: parse_cards("5H 6H 7H").expect("cards"),
                    kind: None,
                    declared: vec![],
                },
            )],
            turn: Some(1),
            stage,
            ..Position::default()
        };
        let start = Start {
            players: 4,
            ..Start::default()
        };
        Game::from_position(rules.clone(), &start, &pos).expect("a position")
    };
    let lay_off = Action::LayOff {
        meld: 0,
        cards: parse_cards("8H").expect("card").into(),
        declared: vec![],
        join: None,
    };
    for (stage, legal) in [(Stage::Play, true), (Stage::Draw, false)] {
        let game = at(stage);
        assert_eq!(game.accepts(1, &lay_off), legal, "{stage:?}");
        assert_eq!(game.clone().apply(1, &lay_off).is_ok(), legal, "{stage:?}");
    }
}

/// `discard_options` lists exactly the cards `apply` lets the seat discard, at every turn of a
/// game, under each reading of the discard restrictions and of what happens when none is left.
#[test]
fn discard_options_are_the_discards_apply_takes() {
    use push_rummy::base::card::Card;
    use push_rummy::base::rng::Rng;
    use push_rummy::engine::bots::{Bot, choose};
    use push_rummy::engine::game::Stage;
    for restrictions in ["none", "no-twos-no-taken-card"] {
        for none_left in ["relax-taken-card-then-twos", "no-discard"] {
            let readings = [
                (DisputeId::DiscardRestrictions, restrictions),
                (DisputeId::NoLegalDiscard, none_left),
            ];
            let rules = Arc::new(rules_of("push", &readings));
            let mut game = Game::new(rules, 4, 0, 11, vec![]).expect("sets up");
            let mut rng = Rng::new(5);
            let mut turns = 0;
            while !game.is_over() {
                let seat = game.turn();
                if game.deal.stage == Stage::Play {
                    let allowed: Vec<Card> = game.deal.hands[usize::from(seat)]
                        .iter()
                        .map(|(c, _)| c)
                        .filter(|&c| game.accepts(seat, &Action::Discard(c)))
                        .collect();
                    assert_eq!(game.discard_options(seat), allowed, "{readings:?}");
                    turns += 1;
                }
                let a = choose(Bot::Greedy, &game, &mut rng);
                game.apply(seat, &a)
                    .expect("the greedy player plays legally");
            }
            assert!(turns > 100, "{readings:?}: {turns} turns");
        }
    }
}
