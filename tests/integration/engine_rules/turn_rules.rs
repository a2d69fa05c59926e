//! The optional turn rules of house files: the discard bans (`discard.bans`), what happens when
//! none may go (`discard.when-none-allowed`), the first player (`players.first`) and going out on
//! the contract turn (`going-out.not-on-contract-turn`).

use super::*;

/// Push with the house rules `extra` (YAML lines under `extends: push`).
fn house(extra: &str) -> Rules {
    let text = format!("extends: push\ngame: house\n{extra}");
    load_text("house.yaml", &text, Path::new("."))
        .unwrap_or_else(|e| panic!("{}", e.render()))
        .rules
}

/// Seat 1 to play (its draw made) with `hand`, the table holding seat 0's `table` melds.
fn play_game(r: Rules, hand: &str, table: &[(u8, &str)]) -> Game {
    let mut g = game_of(r, 4, 0);
    rig(
        &mut g,
        Pos {
            hands: &["KS", hand, "9C", "AH"],
            discard: "4D",
            table,
            ..Pos::default()
        },
    );
    g
}

#[test]
fn discard_bans__twos_and_taken_card_ban_what_the_reading_bans() {
    let r = house("discard:\n  bans: [twos, taken-card]\n");
    let mut g = game_of(r, 4, 0);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "2C 5S", "9C", "AH"],
            discard: "KH",
            stage: Stage::Draw,
            ..Pos::default()
        },
    );
    ok(&mut g, 1, Action::TakeDiscard);
    let m = rejected(&mut g, 1, discard("2C"), Reason::DiscardNotAllowed);
    assert!(m.contains("twos"), "{m}");
    let m = rejected(&mut g, 1, discard("KH"), Reason::DiscardNotAllowed);
    assert!(m.contains("taken-card"), "{m}");
    rejected(&mut g, 1, Action::EndTurn, Reason::MustDiscard);
    ok(&mut g, 1, discard("5S"));
}

#[test]
fn when_none_allowed__relax_lifts_one_ban_after_another() {
    // Twos are wild in Push: the 2C is held by both bans, the joker by `wilds` alone. Lifting
    // `twos` frees neither; lifting `wilds` after it frees both.
    let r = house("discard:\n  bans: [wilds, twos]\n  when-none-allowed: {relax: [twos, wilds]}\n");
    let g = play_game(r, "JK 2C", &[]);
    assert_eq!(g.discard_options(1), sorted("2C JK"));
    let r = house(
        "discard:\n  bans: [wilds, twos, fits-table]\n  when-none-allowed: {relax: [fits-table, twos]}\n",
    );
    // The 7S fits the set of 7s; once fits-table is lifted it may go, the wilds stay banned.
    let g = play_game(r, "JK 2C 7S", &[(0, "7C 7H 7D")]);
    assert_eq!(g.discard_options(1), sorted("7S"));
}

#[test]
fn when_none_allowed__the_reading_relaxes_the_taken_card_then_twos_wild_twos_too() {
    // discard.bans stated, when-none-allowed not: the reading relax-taken-card-then-twos lifts
    // the wilds ban from the twos (not from the joker) at its second step.
    let r = house("discard:\n  bans: [wilds]\n");
    let g = play_game(r, "JK 2C", &[]);
    assert_eq!(g.discard_options(1), sorted("2C"));
}

#[test]
fn fits_table__a_joker_fits_a_meld_with_room_and_not_a_full_set() {
    let r = house("discard:\n  bans: [fits-table]\n");
    // A set of four is full (set-max-size 4): nothing fits it.
    let g = play_game(r.clone(), "JK 7S 9D", &[(0, "7C 7H 7D 7S")]);
    assert_eq!(g.discard_options(1), sorted("JK 7S 9D"));
    // A run of three has room at both ends: the joker and the 3H fit it, the 9D does not.
    let g = play_game(r, "JK 3H 9D", &[(0, "4H 5H 6H")]);
    assert_eq!(g.discard_options(1), sorted("9D"));
}

#[test]
fn draw_until_allowed__draws_one_card_at_a_time_and_only_when_nothing_may_go() {
    let r = house("discard:\n  bans: [wilds]\n  when-none-allowed: draw-until-allowed\n");
    let mut g = game_of(r, 4, 0);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "JK 2C", "9C", "AH"],
            discard: "4D",
            stock: "2H 8S",
            ..Pos::default()
        },
    );
    assert!(g.legal_actions().contains(&Action::DrawStock));
    rejected(&mut g, 1, Action::EndTurn, Reason::MustDraw);
    let ev = ok(&mut g, 1, Action::DrawStock);
    assert_eq!(
        ev,
        vec![Event::Drew {
            seat: 1,
            card: c("2H")
        }]
    );
    ok(&mut g, 1, Action::DrawStock);
    assert_hand(&g, 1, "JK 2C 2H 8S");
    rejected(&mut g, 1, Action::DrawStock, Reason::NoPlainDraw);
    assert!(!g.legal_actions().contains(&Action::DrawStock));
    ok(&mut g, 1, discard("8S"));
}

#[test]
fn first_player__previous_winner_after_a_stock_out_is_the_dealers_left() {
    let r = house("players:\n  first: previous-winner\n");
    let mut g = game_of(r, 4, 0);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "5C", "9C", "AH"],
            discard: "4D",
            exact_stock: true,
            stage: Stage::Draw,
            ..Pos::default()
        },
    );
    // An empty stock: the push ends the hand with nobody out.
    ok(&mut g, 1, Action::Push);
    assert_eq!((g.round, g.dealer), (1, 1));
    assert_eq!(g.deal.turn, 2, "the new dealer's left");
}

#[test]
fn going_out__not_on_contract_turn_keeps_the_last_card_and_ends_the_turn() {
    let r = house("going-out:\n  not-on-contract-turn: true\n");
    let mut g = game_of(r, 4, 0);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "7C 7H 7D 9S 9H 9D QC", "9C", "AH"],
            discard: "4D",
            ..Pos::default()
        },
    );
    ok(&mut g, 1, melds(&["7C 7H 7D", "9S 9H 9D"]));
    rejected(&mut g, 1, discard("QC"), Reason::GoingOutOnContractTurn);
    assert_eq!(g.legal_actions(), vec![Action::EndTurn]);
    ok(&mut g, 1, Action::EndTurn);
    assert_hand(&g, 1, "QC");
}
