//! Properties over random games, each where its tool fits best:
//!
//! - proptest (shrinking to a small failing game matters): a game played by the built-in players
//!   written as a scenario replays to the same events and state; its transcript's JSON parses back
//!   to the same transcript; a transcript's own actions, written as a scenario again, replay to the
//!   same transcript; `rules show` of any rule set under any readings loads back to the same rules.
//! - quickcheck (a plain seed is the whole input): at every hand's end the points each side
//!   scores are the sum of the card points left in its players' hands, counted from a model of the
//!   hands kept here from the events; cards are conserved throughout.
//!
//! Meld interpretations invariant under card order: `tests/integration/meld_oracle.rs`.

use proptest::prelude::*;
use push_rummy::base::card::{Card, Counts};
use push_rummy::base::rng::Rng;
use push_rummy::engine::bots::{self, Bot};
use push_rummy::engine::game::{Action, Event, Game};
use push_rummy::rules::disputes::{DisputeId, reading};
use push_rummy::rules::{BUILT_IN, Rules, Sides, load, load_text};
use push_rummy::suite::scenario;
use push_rummy::suite::transcript::{self, Transcript};
use quickcheck::{QuickCheck, TestResult};
use std::path::Path;
use std::sync::Arc;

/// A game of a built-in rule set played by the built-in players for up to `actions` actions:
/// the game at the start, and each action with its seat and events.
struct Played {
    rules: &'static str,
    players: u8,
    start: Game,
    moves: Vec<(u8, Action, Vec<Event>)>,
    end: Game,
}

/// Push with buying out of turn (two buys a hand), as a scenario's inline rules.
const PUSH_WITH_BUYING: &str = "{extends: push, buying: {allowed: true, per-hand: 2}}";

/// Push's rules with [`PUSH_WITH_BUYING`]'s buying.
fn push_with_buying() -> Rules {
    let mut rules = load("push", &[]).expect("push loads").rules;
    rules.buying = Some(push_rummy::rules::Buying {
        penalty_cards: 1,
        per_hand: Some(2),
        when_down: true,
    });
    rules
}

/// Built-in rule set `rules_pick`, or past the last, Push with buying.
fn play(rules_pick: usize, players_pick: u8, seed: u64, actions: usize) -> Played {
    let (name, rules) = match BUILT_IN.get(rules_pick) {
        Some((name, _, _)) => (*name, load(name, &[]).expect("built-in loads").rules),
        None => (PUSH_WITH_BUYING, push_with_buying()),
    };
    let rules = Arc::new(rules);
    let span = rules.players.1 - rules.players.0 + 1;
    let players = rules.players.0 + players_pick % span;
    let start = Game::new(rules, players, 0, seed, vec![]).expect("a game sets up");
    let mut game = start.clone();
    let mut rng = Rng::new(seed ^ 0xB07);
    let mut moves = Vec::new();
    while moves.len() < actions && !game.is_over() {
        let seat = game.turn();
        let bot = bot_for(seat);
        let action = bots::choose(bot, &game, &mut rng);
        let events = game
            .apply(seat, &action)
            .expect("the players play legal actions");
        moves.push((seat, action, events));
    }
    Played {
        rules: name,
        players,
        start,
        moves,
        end: game,
    }
}

/// A scenario replaying `moves` (seat, action text) from the deal seeded with `seed`.
fn scenario_text(rules: &str, players: u8, seed: u64, moves: &[(u8, String)]) -> String {
    let mut s = format!(
        "title: random game {seed}\nrules: {rules}\ntable: {{players: {players}, dealer: 0}}\ncards: {{seed: \"{seed}\"}}\nexercises: {{rules: [rounds]}}\nsteps:\n"
    );
    if moves.is_empty() {
        s.push_str("  - {check: {round: 1}}\n");
    }
    for (seat, action) in moves {
        s.push_str(&format!(
            "  - {{seat: {seat}, do: \"{action}\", expect: ok}}\n"
        ));
    }
    s
}

fn replay(text: &str) -> Transcript {
    let s = scenario::load_text("random.yaml", text, Path::new("."), &[])
        .unwrap_or_else(|e| panic!("{}\n{text}", e.render()));
    let r = transcript::replay(&s);
    assert!(r.failures.is_empty(), "{:?}", r.failures);
    r.transcript
}

/// Without the text form of events, which the JSON does not carry.
fn without_event_text(mut t: Transcript) -> Transcript {
    for s in &mut t.steps {
        if let Some(r) = &mut s.result {
            r.events_text.clear();
        }
    }
    t
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// A game written as a scenario replays to the same events and the same state; the transcript
    /// survives JSON and back; and the transcript's own actions, replayed, give the same transcript.
    #[test]
    fn a_game_as_a_scenario_replays_and_its_transcript_round_trips(
        rules in 0usize..=BUILT_IN.len(),
        players in any::<u8>(),
        seed in any::<u64>(),
        actions in 0usize..260,
    ) {
        let p = play(rules, players, seed, actions);
        let moves: Vec<(u8, String)> = p.moves.iter().map(|(s, a, _)| (*s, a.to_string())).collect();
        let t = replay(&scenario_text(p.rules, p.players, seed, &moves));
        prop_assert_eq!(&t.start, &transcript::state(&p.start));
        prop_assert_eq!(t.steps.len(), p.moves.len().max(1));
        for (step, (seat, _, events)) in t.steps.iter().zip(&p.moves) {
            prop_assert_eq!(step.seat, Some(*seat));
            let r = step.result.as_ref().expect("an action has a result");
            prop_assert!(r.ok);
            let want: Vec<serde_json::Value> = events.iter().map(transcript::event_json).collect();
            prop_assert_eq!(&r.events, &want, "step {}", step.step);
        }
        if !p.moves.is_empty() {
            prop_assert_eq!(&t.steps.last().expect("a step").state, &transcript::state(&p.end));
        }

        // JSON render → parse → the same transcript, and the same JSON again.
        let json = t.json();
        let back = Transcript::from_json(&json).expect("a transcript's JSON parses back");
        prop_assert_eq!(&back, &without_event_text(t.clone()));
        prop_assert_eq!(back.json(), json);

        // The transcript's actions, as a scenario, replay to the very same transcript.
        let again: Vec<(u8, String)> = back
            .steps
            .iter()
            .filter_map(|s| Some((s.seat?, s.action.clone()?)))
            .collect();
        let t2 = replay(&scenario_text(p.rules, p.players, seed, &again));
        prop_assert_eq!(t2.text(), t.text());
        prop_assert_eq!(t2.json(), t.json());
    }

    /// `rules show` of a built-in under random readings loads back to the same rules, and shows the
    /// same again.
    #[test]
    fn rules_show_loads_back_under_any_readings(
        rules in 0usize..BUILT_IN.len(),
        picks in proptest::collection::vec(any::<u8>(), DisputeId::ALL.len()),
        scoring in any::<u32>(),
    ) {
        let name = BUILT_IN[rules].0;
        let readings: Vec<(DisputeId, String)> = DisputeId::ALL
            .iter()
            .zip(&picks)
            .filter(|(_, k)| k.is_multiple_of(3))
            .map(|(id, k)| {
                let names = id.reading_names();
                (*id, names[usize::from(*k) % names.len()].to_string())
            })
            .collect();
        // Some readings make a rule set unplayable (a contract the pack cannot make): refused
        // with diagnostics, which is right; the property is about what loads.
        let Ok(loaded) = load(name, &readings) else {
            return Ok(());
        };
        // Now and then a house file over it that states scoring rules of its own (card values
        // that override readings, who scores together, the going-out bonus), with the same
        // readings.
        let loaded = if scoring & 1 == 0 {
            loaded
        } else {
            let (ace, two, sides, bonus) = house_scoring(scoring >> 1);
            let mut house = format!("extends: {name}\ngame: house\nscoring:\n  going-out-bonus: {bonus}\n");
            match sides {
                Some(Sides::Individual) => house.push_str("  sides: individual\n"),
                Some(Sides::Partnerships) => house.push_str("  sides: partnerships\n"),
                None => {}
            }
            house.push_str("  points:\n");
            for (key, p) in [("A", ace), ("\"2\"", two)] {
                if let Some(p) = p {
                    house.push_str(&format!("    {key}: {p}\n"));
                }
            }
            if !readings.is_empty() {
                house.push_str("readings:\n");
                for (id, r) in &readings {
                    house.push_str(&format!("  {id}: \"{r}\"\n"));
                }
            }
            match load_text("house.yaml", &house, Path::new(".")) {
                Ok(l) => l,
                // Partnerships where the players allow none: refused, rightly.
                Err(_) if sides == Some(Sides::Partnerships) => return Ok(()),
                Err(e) => panic!("{}\n{house}", e.render()),
            }
        };
        let shown = loaded.show();
        let again = load_text("shown.yaml", &shown, Path::new("."))
            .unwrap_or_else(|e| panic!("{}\n{shown}", e.render()));
        prop_assert_eq!(&again.rules, &loaded.rules);
        let body = |t: &str| t.lines().skip(2).map(str::to_string).collect::<Vec<_>>();
        prop_assert_eq!(body(&again.show()), body(&shown));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Under any built-in rule set, random readings of the disputes the turn rules meet
    /// (discard-restrictions, no-legal-discard, going-out, six-ten-first-player) and random turn
    /// rules (`players.first`, `discard.bans`, `discard.when-none-allowed`,
    /// `going-out.not-on-contract-turn`, `stock.stall-limit: none`, `stock.rebuilds`,
    /// `decks.by-players`: `Rules::pick_turn_rules`) and random house rules (limits on wild
    /// cards, wilds that move, no push, the contract pooled, buying out of turn, card values,
    /// sides, the going-out bonus: `Rules::pick_house_rules`), so the whole optional language,
    /// every state the players reach has a legal move among the table actions (a draw, a
    /// discard, `draw-stock`, `end-turn`, `buy` or `pass`), the players' moves are legal, and
    /// the game ends.
    #[test]
    fn games_under_random_rules_end_and_always_have_a_legal_move(
        rules in 0usize..BUILT_IN.len(),
        readings in any::<[u8; 4]>(),
        turn_rules in any::<[u8; 5]>(),
        house_rules in any::<[u8; 4]>(),
        seed in any::<u64>(),
    ) {
        let mut r = load(BUILT_IN[rules].0, &[]).expect("built-in loads").rules;
        let disputes = [
            DisputeId::DiscardRestrictions,
            DisputeId::NoLegalDiscard,
            DisputeId::GoingOut,
            DisputeId::SixTenFirstPlayer,
        ];
        for (id, k) in disputes.into_iter().zip(readings) {
            let names = id.reading_names();
            prop_assert!(r.set_reading(id, names[usize::from(k) % names.len()]));
        }
        r.pick_turn_rules(turn_rules);
        r.pick_house_rules(house_rules);
        let span = u64::from(r.players.1 - r.players.0 + 1);
        let players = r.players.0 + (seed % span) as u8;
        let mut game = Game::new(Arc::new(r), players, (seed % u64::from(players)) as u8, seed, vec![])
            .expect("a game sets up");
        let mut rng = Rng::new(seed ^ 0x7E5);
        let mut steps = 0u32;
        while !game.is_over() {
            prop_assert!(!game.table_actions_bounded().is_empty(), "no legal move at step {}", steps);
            let seat = game.turn();
            let action = bots::choose(bot_for(seat), &game, &mut rng);
            if let Err(e) = game.apply(seat, &action) {
                prop_assert!(false, "{} refused at step {}: {}", action, steps, e);
            }
            steps += 1;
            prop_assert!(steps < 200_000, "the game does not end");
        }
    }
}

/// The hands as the events say they are: dealt hands from the game before an action, then every
/// card moved by the action's events, up to the end of the hand.
fn hands_at_hand_end(before: &Game, events: &[Event]) -> Option<(Vec<Counts>, usize)> {
    let mut hands = before.deal.hands.clone();
    for (i, e) in events.iter().enumerate() {
        let h = |hands: &mut Vec<Counts>, s: u8| {
            let s = usize::from(s);
            assert!(
                s < hands.len(),
                "event {i} names seat {s} of {}",
                hands.len()
            );
            s
        };
        match e {
            Event::TookDiscard { seat, card } | Event::Drew { seat, card } => {
                let s = h(&mut hands, *seat);
                hands[s].add(*card);
            }
            Event::Pushed {
                to, discard, stock, ..
            } => {
                let s = h(&mut hands, *to);
                for c in discard.iter().chain(stock) {
                    hands[s].add(*c);
                }
            }
            Event::Melded { seat, cards, .. } | Event::LaidOff { seat, cards, .. } => {
                let s = h(&mut hands, *seat);
                for c in cards {
                    assert!(hands[s].remove(*c), "{c} melded from a hand without it");
                }
            }
            Event::Rescued {
                seat,
                natural,
                wild,
                ..
            } => {
                let s = h(&mut hands, *seat);
                assert!(
                    hands[s].remove(*natural),
                    "{natural} rescued from a hand without it"
                );
                hands[s].add(*wild);
            }
            Event::Discarded { seat, card } => {
                let s = h(&mut hands, *seat);
                assert!(
                    hands[s].remove(*card),
                    "{card} discarded from a hand without it"
                );
            }
            Event::Bought { seat, card, stock } => {
                let s = h(&mut hands, *seat);
                for c in std::iter::once(card).chain(stock) {
                    hands[s].add(*c);
                }
            }
            Event::HandEnded { .. } => return Some((hands, i)),
            _ => {}
        }
    }
    None
}

fn card_points(rules: &Rules, hand: &Counts) -> u32 {
    hand.iter()
        .map(|(c, k)| rules.points(c) * u32::from(k))
        .sum()
}

/// Every card of the pack in exactly one place (stock, discard pile, hands, table).
fn conserved(g: &Game) -> bool {
    let mut all = Counts::from_cards(&g.deal.stock);
    all.add_all(&Counts::from_cards(&g.deal.discard));
    for h in &g.deal.hands {
        all.add_all(h);
    }
    for m in &g.deal.table {
        all.add_all(&Counts::from_cards(&m.cards));
    }
    let (decks, jokers) = g.rules.pack(g.players);
    Card::all().all(|c| all.count(c) == if c.is_joker() { jokers } else { decks })
}

/// The scoring rules a house file may state, drawn from `pick`: the points of aces and of twos
/// (or the readings decide), who scores together (or the reading decides), the going-out bonus.
fn house_scoring(pick: u32) -> (Option<u16>, Option<u16>, Option<Sides>, u16) {
    let points = |bits: u32| (bits & 1 == 1).then_some((bits >> 1 & 0x1F) as u16 * 5);
    let sides = match pick >> 12 & 3 {
        1 => Some(Sides::Individual),
        2 => Some(Sides::Partnerships),
        _ => None,
    };
    (
        points(pick),
        points(pick >> 6),
        sides,
        (pick >> 14 & 0x3F) as u16,
    )
}

fn scores_are_point_sums(
    rules_pick: u8,
    players: u8,
    seed: u64,
    stock_out: bool,
    scoring: u32,
) -> TestResult {
    let name = BUILT_IN[usize::from(rules_pick) % BUILT_IN.len()].0;
    let mut rules = load(name, &[]).expect("built-in loads").rules;
    // A third of the games with buying out of turn.
    if usize::from(rules_pick) / BUILT_IN.len() % 3 == 1 {
        rules.buying = push_with_buying().buying;
    }
    if stock_out {
        rules.set_reading(DisputeId::StockOut, "hand-ends-nobody-scores");
    }
    // House scoring rules, set in place as a compiled house file would give them (partnerships
    // only where the number of players allows them, as the checks require).
    let (ace, two, sides, bonus) = house_scoring(scoring);
    rules.stated_points = [ace, two];
    rules.sides = sides;
    rules.going_out_bonus = bonus;
    rules.refresh();
    let mut rules = Arc::new(rules);
    let span = rules.players.1 - rules.players.0 + 1;
    let mut players = rules.players.0 + players % span;
    if rules.sides == Some(Sides::Partnerships) && (players < 4 || !players.is_multiple_of(2)) {
        if (rules.players.0..=rules.players.1).contains(&4) {
            players = 4;
        } else {
            Arc::make_mut(&mut rules).sides = Some(Sides::Individual);
        }
    }
    let mut game = Game::new(rules.clone(), players, 0, seed, vec![]).expect("sets up");
    let mut rng = Rng::new(seed);
    let mut hands_checked = 0;
    let mut totals = vec![0i64; usize::from(game.sides)];
    let mut steps = 0;
    while !game.is_over() {
        steps += 1;
        if steps > 20_000 {
            return TestResult::error(format!("{name}, seed {seed}: the game does not end"));
        }
        let seat = game.turn();
        let bot = bot_for(seat);
        let action = bots::choose(bot, &game, &mut rng);
        let before = game.clone();
        let events = match game.apply(seat, &action) {
            Ok(e) => e,
            Err(e) => return TestResult::error(format!("{action} refused: {e}")),
        };
        if !conserved(&game) {
            return TestResult::error(format!("{name}, seed {seed}: cards lost after {action}"));
        }
        let Some((hands, at)) = hands_at_hand_end(&before, &events) else {
            continue;
        };
        let Event::HandEnded {
            points, totals: t, ..
        } = &events[at]
        else {
            unreachable!()
        };
        let went_out = events[..at].iter().find_map(|e| match e {
            Event::WentOut { seat } => Some(*seat),
            _ => None,
        });
        let mut want = vec![0i64; usize::from(game.sides)];
        for s in 0..players {
            let side = game.side_of[usize::from(s)];
            let scores = match went_out {
                Some(w) => game.side_of[usize::from(w)] != side,
                None => rules.readings.stock_out == reading::StockOut::HandEndsAllScore,
            };
            if scores {
                want[usize::from(side)] += i64::from(card_points(&rules, &hands[usize::from(s)]));
            }
        }
        if let Some(w) = went_out {
            want[usize::from(game.side_of[usize::from(w)])] -= i64::from(rules.going_out_bonus);
        }
        if went_out.is_some_and(|w| !hands[usize::from(w)].is_empty()) {
            return TestResult::error(format!("{name}, seed {seed}: went out holding cards"));
        }
        if *points != want {
            return TestResult::error(format!(
                "{name}, seed {seed}: hand {} scored {points:?}, the hands hold {want:?}",
                hands_checked + 1
            ));
        }
        for (tot, p) in totals.iter_mut().zip(points) {
            *tot += *p;
        }
        if *t != totals {
            return TestResult::error(format!("totals {t:?}, the hands add up to {totals:?}"));
        }
        hands_checked += 1;
    }
    if hands_checked != rules.rounds.len() || game.totals != totals {
        return TestResult::error(format!(
            "{name}, seed {seed}: {hands_checked} hands checked of {}; totals {:?} vs {totals:?}",
            rules.rounds.len(),
            game.totals
        ));
    }
    TestResult::passed()
}

#[test]
fn scores_are_the_points_left_in_hands_and_cards_are_conserved() {
    QuickCheck::new()
        .tests(40)
        .quickcheck(scores_are_point_sums as fn(u8, u8, u64, bool, u32) -> TestResult);
}

/// Greedy at even seats, random at odd ones.
fn bot_for(seat: u8) -> Bot {
    if seat.is_multiple_of(2) {
        Bot::Greedy
    } else {
        Bot::Random
    }
}
