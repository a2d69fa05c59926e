//! Random action sequences on the engine. A game of a built-in rule set (some readings switched,
//! house scoring rules set: card values, sides, the going-out bonus; and maybe the optional turn
//! rules: first player, discard bans, going out; and sometimes
//! buying out of turn; limits on wild cards; wilds that move; the contract pooled; sets of a
//! fixed rank in the contracts)
//! is played by picking, at each turn, one of `legal_actions()`; every action listed must be
//! accepted (`accepts`), the picked one must apply, and the invariants (`check_invariants`: every
//! card in one place, totals the sum of the hands' points) hold after each. Now and then an
//! arbitrary action (from the fuzzer's text) is tried: refused, it must change nothing.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use push_rummy::engine::action_text::parse_action;
use push_rummy::rules::disputes::DisputeId;
use push_rummy::engine::game::Game;
use push_rummy::rules::{BUILT_IN, Sides, load};
use push_rummy::suite::transcript::state;
use std::sync::{Arc, OnceLock};

#[derive(Arbitrary, Debug)]
struct Input {
    rules: u8,
    players: u8,
    dealer: u8,
    seed: u64,
    /// (dispute index, reading index) switched over the rule set's own.
    readings: Vec<(u8, u8)>,
    /// The optional turn rules (`Rules::pick_turn_rules`), where given.
    turn_rules: Option<[u8; 5]>,
    /// House scoring rules set over the rule set's own: the points of aces and of twos (each
    /// `None`: the reading decides), who scores together (0: the reading decides, 1:
    /// individual, 2: partnerships where the players allow them), the going-out bonus.
    scoring: (Option<u8>, Option<u8>, u8, u8),
    /// Buying out of turn: allowed when odd; the other bits pick penalty cards, buys per hand,
    /// whether a player down may buy, and (0x40) no push at all.
    buying: u8,
    /// Limits on the wild cards of a meld (max: 0 none, else n - 1, and bit 0x10 sets of a fixed
    /// rank in the contracts; no outnumbering; min
    /// naturals; apart in runs), the contract pooled (where it is laid in one turn), and wilds
    /// that move (`wilds.may-move`).
    melds: (u8, bool, u8, bool, bool, bool),
    /// One pick per action: an index into the legal actions.
    picks: Vec<u16>,
    /// Actions in text tried now and then (every 8th pick with its low bits set).
    wild: Vec<String>,
}

fn built_ins() -> &'static Vec<push_rummy::rules::Rules> {
    static R: OnceLock<Vec<push_rummy::rules::Rules>> = OnceLock::new();
    R.get_or_init(|| {
        BUILT_IN
            .iter()
            .map(|(n, _, _)| load(n, &[]).expect("built-in loads").rules)
            .collect()
    })
}

/// The most actions played per input, to keep each run short.
const MAX_ACTIONS: usize = 400;
/// The most wild cards within reach of a hand (held, and one rescued from the table) for which
/// every meld is listed.
const MAX_WILDS_LISTED: usize = 3;

fuzz_target!(|input: Input| {
    let all = built_ins();
    let mut rules = all[usize::from(input.rules) % all.len()].clone();
    for (d, r) in input.readings.iter().take(8) {
        let id = DisputeId::ALL[usize::from(*d) % DisputeId::ALL.len()];
        let names = id.reading_names();
        rules.set_reading(id, names[usize::from(*r) % names.len()]);
    }
    if let Some(p) = input.turn_rules {
        rules.pick_turn_rules(p);
    }
    // Bit 0x40: no push (the plain draw); bit 0x80: every deal played all at once.
    rules.no_push = input.buying & 0x40 != 0;
    rules.play_all_at_once(if input.buying & 0x80 != 0 { u32::MAX } else { 0 });
    if input.buying & 1 == 1 {
        rules.buying = Some(push_rummy::rules::Buying {
            penalty_cards: input.buying >> 1 & 3,
            per_hand: [None, Some(1), Some(2), Some(3)][usize::from(input.buying >> 3 & 3)],
            when_down: input.buying & 0x20 == 0,
        });
    }
    let (max, not_outnumbering, min_naturals, apart_in_runs, pooled, moving) = input.melds;
    rules.wilds_move = moving;
    rules.wild_limits = push_rummy::rules::WildLimits {
        max: (max % 4).checked_sub(1),
        not_outnumbering,
        min_naturals: min_naturals % 3,
        apart_in_runs,
    };
    rules.contract_pooled = pooled
        && rules.readings.contract_in_one_turn
            == push_rummy::rules::disputes::reading::ContractInOneTurn::Required;
    // Bit 0x10 of the limits' first pick: a set of a fixed rank in each contract (`set of 3
    // kings`, or a pair smaller than sets go, `set of 2 aces`), drawn from its higher bits.
    if max & 0x10 != 0 {
        rules.fix_set_ranks(u32::from(max >> 5));
    }
    let span = rules.players.1 - rules.players.0 + 1;
    let players = rules.players.0 + input.players % span;
    let (ace, two, sides, bonus) = input.scoring;
    rules.stated_points = [ace.map(u16::from), two.map(u16::from)];
    rules.sides = match sides % 3 {
        1 => Some(Sides::Individual),
        2 if players >= 4 && players.is_multiple_of(2) => Some(Sides::Partnerships),
        _ => None,
    };
    rules.going_out_bonus = u16::from(bonus);
    rules.refresh();
    let dealer = input.dealer % players;
    let Ok(mut game) = Game::new(Arc::new(rules), players, dealer, input.seed, vec![]) else {
        panic!("a game of the allowed players with a seated dealer sets up");
    };
    game.check_invariants();
    let mut wild = input.wild.iter();
    for (i, pick) in input.picks.iter().take(MAX_ACTIONS).enumerate() {
        if game.is_over() {
            assert!(
                game.legal_actions().is_empty(),
                "nothing is legal once the game is over"
            );
            break;
        }
        let seat = game.turn();
        if i % 8 == 7
            && pick & 3 == 3
            && let Some(text) = wild.next()
            && let Ok(action) = parse_action(text)
        {
            let before = state(&game);
            let said = game.accepts(seat, &action);
            match game.apply(seat, &action) {
                Ok(_) => assert!(said, "`{action}` applied but `accepts` said no"),
                Err(e) => {
                    assert!(!said, "`{action}` refused ({e}) but `accepts` said yes");
                    assert_eq!(
                        state(&game),
                        before,
                        "a refused `{action}` changed the game"
                    );
                }
            }
            game.check_invariants();
            continue;
        }
        // Listing every meld of a hand with four or more wilds can take seconds (fuzz/README.md),
        // and so can the lay-offs of several wilds and a rescue's optional follow-ups (which list
        // the melds and lay-offs with the rescued wild): past three wilds within reach, list the
        // bounded table actions and the first meld option only.
        let in_hand = game.deal.hands[usize::from(seat)]
            .iter()
            .filter(|(c, _)| game.rules.is_wild(*c))
            .map(|(_, k)| usize::from(k))
            .sum::<usize>();
        let rescuable = game
            .deal
            .table
            .iter()
            .any(|m| m.interps.iter().any(|i| i.wilds().next().is_some()));
        let legal = if in_hand + usize::from(rescuable) <= MAX_WILDS_LISTED {
            game.legal_actions()
        } else {
            let mut v = game.table_actions_bounded();
            v.extend(game.first_meld_option());
            v
        };
        assert!(!legal.is_empty(), "a game not over has a legal action");
        for a in &legal {
            assert!(game.accepts(seat, a), "listed but not accepted: `{a}`");
        }
        let action = &legal[usize::from(*pick) % legal.len()];
        if let Err(e) = game.apply(seat, action) {
            panic!("listed and accepted, but apply refused `{action}`: {e}");
        }
        game.check_invariants();
    }
});
