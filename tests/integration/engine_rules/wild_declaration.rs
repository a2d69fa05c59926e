//! Declaring wilds (seat 1 has its contract down): when the kind and the wilds must be declared,
//! floating wilds, and a wild laid off.

use super::*;

fn declaring_game(reading: &str) -> Game {
    let mut g = push(&[(DisputeId::WildDeclaration, reading)]);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "9H 10H JK 7C 7H JK QH KC", "9C", "AH"],
            discard: "4D",
            table: &[(1, "QS QC QD")],
            ..Pos::default()
        },
    );
    g
}

#[test]
fn wild_declaration__when_ambiguous_asks_only_where_the_meld_can_be_read_two_ways() {
    let mut g = declaring_game("when-ambiguous");
    let m = rejected(&mut g, 1, meld("9H 10H JK"), Reason::AmbiguousWild);
    assert!(m.contains("2 ways"), "{m}");
    ok(&mut g, 1, meld_declared("9H 10H JK", None, &[("JK", "JH")]));
    assert_eq!(g.deal.table[1].interps.len(), 1);
    let role = g.deal.table[1].interps[0]
        .roles
        .iter()
        .find(|r| r.card.is_joker())
        .unwrap();
    assert_eq!(role.stands_for, Target::Card(c("JH")));
    // A set of 7s with one joker can mean one thing only: no declaration needed.
    ok(&mut g, 1, meld("7C 7H JK"));
}

#[test]
fn wild_declaration__when_ambiguous_does_not_ask_about_a_meld_without_wilds() {
    // On Push's circular line a natural 13-card run lies ace low (A–K) or ace high (2–A). The 2♠
    // is natural (natural-twos=runs-only), so there is no wild to declare: both readings stay.
    let mut g = push(&[]);
    rig(
        &mut g,
        Pos {
            hands: &[
                "KH",
                "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 9C",
                "9D",
                "AH",
            ],
            discard: "4D",
            table: &[(1, "QC QH QD")],
            ..Pos::default()
        },
    );
    ok(&mut g, 1, meld("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"));
    assert_eq!(g.deal.table[1].interps.len(), 2);
    // With a wild in it, the same question has an answer to declare, and is asked.
    let mut g = declaring_game("when-ambiguous");
    rejected(&mut g, 1, meld("9H 10H JK"), Reason::AmbiguousWild);
}

#[test]
fn wild_declaration__always_requires_the_kind_and_every_wild() {
    let mut g = declaring_game("always");
    rejected(&mut g, 1, meld("7C 7H JK"), Reason::DeclarationRequired);
    rejected(
        &mut g,
        1,
        meld_declared("7C 7H JK", Some(MeldKind::Set), &[]),
        Reason::DeclarationRequired,
    );
    rejected(
        &mut g,
        1,
        meld_declared("9H 10H JK", None, &[("JK", "JH")]),
        Reason::DeclarationRequired,
    );
    ok(
        &mut g,
        1,
        meld_declared("7C 7H JK", Some(MeldKind::Set), &[("JK", "7")]),
    );
    ok(
        &mut g,
        1,
        meld_declared("9H 10H JK", Some(MeldKind::Run), &[("JK", "JH")]),
    );
}

#[test]
fn wild_declaration__never_refuses_declarations_and_lets_the_wilds_float_until_a_lay_off() {
    let mut g = declaring_game("never");
    rejected(
        &mut g,
        1,
        meld_declared("9H 10H JK", None, &[("JK", "JH")]),
        Reason::DeclarationNotAllowed,
    );
    ok(&mut g, 1, meld("9H 10H JK"));
    let stands = |g: &Game| -> Vec<Target> {
        g.deal.table[1]
            .interps
            .iter()
            .map(|i| {
                i.roles
                    .iter()
                    .find(|r| r.card.is_joker())
                    .unwrap()
                    .stands_for
            })
            .collect()
    };
    let mut both = stands(&g);
    both.sort();
    assert_eq!(
        both,
        vec![Target::Card(c("8H")), Target::Card(c("JH"))],
        "the joker may be 8♥ or J♥"
    );
    rejected(
        &mut g,
        1,
        lay_off_declared(0, "JK", &[("JK", "Q")]),
        Reason::DeclarationNotAllowed,
    );
    // The Q♥ fits only 9♥-Q♥: the joker is now the J♥.
    ok(&mut g, 1, lay_off(1, "QH"));
    assert_eq!(stands(&g), vec![Target::Card(c("JH"))]);
    assert_eq!(g.deal.table[1].cards, cards("9H 10H JK QH"));
}

#[test]
fn wild_declaration__never_a_rescue_settles_what_a_floating_wild_stood_for() {
    for natural in ["8H", "JH"] {
        let mut g = push(&[(DisputeId::WildDeclaration, "never")]);
        rig(
            &mut g,
            Pos {
                hands: &["KS", "8H JH QH KC", "9C", "AH"],
                discard: "4D",
                table: &[(0, "9H 10H JK"), (1, "QS QC QD")],
                ..Pos::default()
            },
        );
        assert_eq!(g.deal.table[0].interps.len(), 2);
        rejected(&mut g, 1, rescue(0, "QH", "JK"), Reason::RescueNoMatch);
        ok(&mut g, 1, rescue(0, natural, "JK"));
        assert_eq!(
            g.deal.table[0].cards,
            cards(&format!("9H 10H {natural}")),
            "{natural}"
        );
        assert_eq!(g.deal.table[0].interps.len(), 1);
        assert_eq!(g.deal.hands[1].count(Card::JOKER), 1);
    }
}

/// Seat 1, its contract made, holds a joker to lay off on 5S 6S 7S (as 4S or 8S) or on QS QC QD.
fn joker_to_lay_off(readings: &[(DisputeId, &str)]) -> Game {
    let mut g = push(readings);
    rig(
        &mut g,
        Pos {
            hands: &["KS", "JK KC", "9C", "AH"],
            discard: "4D",
            table: &[(1, "5S 6S 7S"), (1, "QS QC QD")],
            ..Pos::default()
        },
    );
    g
}

#[test]
fn wild_declaration__when_ambiguous_applies_to_a_wild_laid_off_on_a_run() {
    let mut g = joker_to_lay_off(&[(DisputeId::WildDeclaration, "when-ambiguous")]);
    rejected(&mut g, 1, lay_off(0, "JK"), Reason::AmbiguousWild);
    ok(&mut g, 1, lay_off_declared(0, "JK", &[("JK", "8S")]));
    assert_eq!(g.deal.table[0].interps.len(), 1);
}

/// Push's default (003: at most one natural card) asks nothing of a lay-off: the joker floats as
/// 4S or 8S until a lay-off or rescue narrows it.
#[test]
fn wild_declaration__push_default_lets_a_wild_laid_off_float() {
    let mut g = joker_to_lay_off(&[]);
    ok(&mut g, 1, lay_off(0, "JK"));
    assert_eq!(g.deal.table[0].interps.len(), 2);
}

#[test]
fn wild_declaration__always_accepts_a_declared_wild_laid_off_on_a_run() {
    // The lay-off takes its kind from the meld it goes on; only the wild's meaning is declared.
    let mut g = joker_to_lay_off(&[(DisputeId::WildDeclaration, "always")]);
    rejected(&mut g, 1, lay_off(0, "JK"), Reason::DeclarationRequired);
    ok(&mut g, 1, lay_off_declared(0, "JK", &[("JK", "8S")]));
    assert_eq!(g.deal.table[0].cards, cards("5S 6S 7S JK"));
}

#[test]
fn wild_declaration__always_wants_a_wild_declared_where_it_joins_one_way_only() {
    // Onto QS QC QD the joker can only be a queen (rank-only): still declared under `always`.
    let mut g = joker_to_lay_off(&[(DisputeId::WildDeclaration, "always")]);
    rejected(&mut g, 1, lay_off(1, "JK"), Reason::DeclarationRequired);
}

#[test]
fn wild_declaration__the_plain_lay_off_of_a_wild_is_listed_only_where_apply_may_take_it() {
    // A joker onto 5S 6S 7S is 4S or 8S; onto QS QC QD it is a queen either way (rank-only).
    let forms = |reading: &str| -> (Vec<Action>, Vec<Action>) {
        let g = joker_to_lay_off(&[(DisputeId::WildDeclaration, reading)]);
        let run = g.lay_off_forms(0, c("JK"), None);
        let set = g.lay_off_forms(1, c("JK"), None);
        for a in run.iter().chain(&set) {
            assert!(g.accepts(1, a), "{reading}: {a:?} is listed but refused");
        }
        (run, set)
    };
    let declared = |meld: usize, to: &str| lay_off_declared(meld, "JK", &[("JK", to)]);
    let (run, set) = forms("when-ambiguous");
    assert_eq!(run, vec![declared(0, "4S"), declared(0, "8S")]);
    assert_eq!(set, vec![lay_off(1, "JK"), declared(1, "Q")]);
    let (run, set) = forms("always");
    assert_eq!(run, vec![declared(0, "4S"), declared(0, "8S")]);
    assert_eq!(set, vec![declared(1, "Q")]);
    let (run, set) = forms("never");
    assert_eq!(run, vec![lay_off(0, "JK")]);
    assert_eq!(set, vec![lay_off(1, "JK")]);
}
