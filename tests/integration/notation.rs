//! Card notation round trip (quickcheck): printing then parsing gives the card back, in any case
//! and with suit symbols; `T` reads as 10; anything that parses prints canonically:
//! card-shaped words built from the ways ranks and suits are written (random strings almost never
//! spell a card), and arbitrary text for never panicking.

use push_rummy::base::card::{Card, format_cards, parse_cards};
use quickcheck::{Arbitrary, Gen, quickcheck};

#[derive(Clone, Debug)]
struct AnyCard(Card);

impl Arbitrary for AnyCard {
    fn arbitrary(g: &mut Gen) -> Self {
        AnyCard(
            Card::from_index(usize::from(u8::arbitrary(g)) % push_rummy::base::card::KINDS)
                .expect("in range"),
        )
    }
}

/// A way to write a card: canonical, lowercase, symbols, `T` for ten.
fn spell(c: Card, style: u8) -> String {
    let canon = c.to_string();
    match style % 4 {
        0 => canon,
        1 => canon.to_lowercase(),
        2 => c.pretty(),
        _ => canon.replace("10", "T"),
    }
}

quickcheck! {
    fn every_spelling_parses_back(cards: Vec<AnyCard>, styles: Vec<u8>) -> bool {
        let text: Vec<String> = cards
            .iter()
            .enumerate()
            .map(|(i, c)| spell(c.0, styles.get(i).copied().unwrap_or(0)))
            .collect();
        let parsed = parse_cards(&text.join(" ")).expect("every spelling parses");
        parsed == cards.iter().map(|c| c.0).collect::<Vec<_>>()
    }

    fn card_shaped_words_parse_to_their_card_and_print_canonically(rank: u8, suit: u8) -> bool {
        // A rank and a suit spelled each of the ways people write them, and some ways they are
        // not: what parses names exactly the card spelled, and prints as `<rank><suit>` in
        // upper case with a letter suit (`JK` for the joker).
        const RANKS: [(&str, Option<&str>); 18] = [
            ("A", Some("A")), ("a", Some("A")), ("1", Some("A")), ("2", Some("2")), ("7", Some("7")),
            ("9", Some("9")), ("10", Some("10")), ("T", Some("10")), ("t", Some("10")),
            ("J", Some("J")), ("j", Some("J")), ("Q", Some("Q")), ("q", Some("Q")), ("K", Some("K")),
            ("0", None), ("11", None), ("B", None), ("", None),
        ];
        const SUITS: [(&str, Option<&str>); 12] = [
            ("S", Some("S")), ("s", Some("S")), ("♠", Some("S")), ("H", Some("H")), ("♥", Some("H")),
            ("d", Some("D")), ("♦", Some("D")), ("C", Some("C")), ("♣", Some("C")), ("X", None),
            ("♡", None), ("", None),
        ];
        let (r, want_r) = RANKS[usize::from(rank) % RANKS.len()];
        let (s, want_s) = SUITS[usize::from(suit) % SUITS.len()];
        let word = format!("{r}{s}");
        let want = want_r.zip(want_s).map(|(r, s)| format!("{r}{s}"));
        match (word.parse::<Card>(), want) {
            (Ok(c), Some(w)) => c.to_string() == w && format_cards(&[c]) == w,
            (Err(_), None) => true,
            _ => false,
        }
    }

    fn jokers_in_any_case(upper: Vec<bool>) -> bool {
        let word: String = "joker"
            .chars()
            .zip(upper.iter().copied().chain(std::iter::repeat(false)))
            .map(|(c, u)| if u { c.to_ascii_uppercase() } else { c })
            .collect();
        let short: String = word.chars().take(1).chain("k".chars()).collect();
        [word, short, "JK".to_string()]
            .iter()
            .all(|w| w.parse::<Card>().map(|c| c.to_string()) == Ok("JK".to_string()))
    }

    fn parsing_never_panics_and_canonical_form_is_stable(s: String) -> bool {
        match s.parse::<Card>() {
            Ok(c) => c.to_string().parse::<Card>() == Ok(c) && format_cards(&[c]) == c.to_string(),
            Err(e) => !e.to_string().is_empty(),
        }
    }
}
