//! Card notation round trip (quickcheck): printing then parsing gives the card back, in any case
//! and with suit symbols; `T` reads as 10; anything that parses prints canonically (issue 2).

use push_rummy::card::{Card, format_cards, parse_cards};
use quickcheck::{Arbitrary, Gen, quickcheck};

#[derive(Clone, Debug)]
struct AnyCard(Card);

impl Arbitrary for AnyCard {
    fn arbitrary(g: &mut Gen) -> Self {
        AnyCard(
            Card::from_index(usize::from(u8::arbitrary(g)) % push_rummy::card::KINDS)
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

    fn parsing_never_panics_and_canonical_form_is_stable(s: String) -> bool {
        match s.parse::<Card>() {
            Ok(c) => c.to_string().parse::<Card>() == Ok(c) && format_cards(&[c]) == c.to_string(),
            Err(e) => !e.to_string().is_empty(),
        }
    }
}
