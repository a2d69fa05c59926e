//! Cards, ranks, suits and the notation (`10H`, `JK`, `t♠`), and [`Counts`], a multiset of cards.
//!
//! This module knows nothing about rules: whether a card is wild, or what it is worth, is decided
//! by [`crate::rules::Rules`].

use std::fmt;
use std::str::FromStr;

/// A suit. The order (`S H D C`) is the canonical order used in every printed list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Suit {
    Spades = 0,
    Hearts = 1,
    Diamonds = 2,
    Clubs = 3,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// [`Suit::ALL`] as the suits of runs that keep one suit (`None` is a run of any suits).
    pub const EACH: [Option<Suit>; 4] = [
        Some(Suit::Spades),
        Some(Suit::Hearts),
        Some(Suit::Diamonds),
        Some(Suit::Clubs),
    ];

    pub fn letter(self) -> char {
        ['S', 'H', 'D', 'C'][self as usize]
    }

    pub fn symbol(self) -> char {
        ['♠', '♥', '♦', '♣'][self as usize]
    }

    pub fn from_index(i: usize) -> Suit {
        Suit::ALL[i & 3]
    }

    fn parse(c: char) -> Option<Suit> {
        match c {
            'S' | 's' | '♠' => Some(Suit::Spades),
            'H' | 'h' | '♥' => Some(Suit::Hearts),
            'D' | 'd' | '♦' => Some(Suit::Diamonds),
            'C' | 'c' | '♣' => Some(Suit::Clubs),
            _ => None,
        }
    }
}

/// A rank, ace first. `Rank::Ace` is low or high only inside a run, as the rules say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Rank {
    Ace = 1,
    Two,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Ten,
    Jack,
    Queen,
    King,
}

impl Rank {
    pub const ALL: [Rank; 13] = [
        Rank::Ace,
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
    ];

    /// The rank with number `n` (1 = ace … 13 = king).
    pub fn from_number(n: u8) -> Option<Rank> {
        Rank::ALL.get(usize::from(n).wrapping_sub(1)).copied()
    }

    pub fn number(self) -> u8 {
        self as u8
    }

    pub fn name(self) -> &'static str {
        [
            "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
        ][self as usize - 1]
    }

    /// Parses a rank as written in card notation (`A`, `2`…`10`, `T`, `J`, `Q`, `K`), any case.
    pub fn parse(s: &str) -> Option<Rank> {
        let up = s.to_ascii_uppercase();
        Some(match up.as_str() {
            "A" | "1" => Rank::Ace,
            "T" | "10" => Rank::Ten,
            "J" => Rank::Jack,
            "Q" => Rank::Queen,
            "K" => Rank::King,
            _ => {
                let n: u8 = up.parse().ok()?;
                if (2..=9).contains(&n) {
                    Rank::from_number(n)?
                } else {
                    return None;
                }
            }
        })
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One card: a rank and a suit, or a joker. Copies in a multi-deck game are the same `Card`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

/// The number of distinct card kinds: 52 suited cards and the joker.
pub const KINDS: usize = 53;

/// [`Card::rank`] and [`Card::suit`] by index, looked up rather than divided out: they are asked
/// in every inner loop of the engine.
const RANK_OF: [Option<Rank>; KINDS] = {
    let mut t = [None; KINDS];
    let mut i = 0;
    while i < 52 {
        t[i] = Some(Rank::ALL[i % 13]);
        i += 1;
    }
    t
};
const SUIT_OF: [Option<Suit>; KINDS] = {
    let mut t = [None; KINDS];
    let mut i = 0;
    while i < 52 {
        t[i] = Some(Suit::ALL[i / 13]);
        i += 1;
    }
    t
};

impl Card {
    pub const JOKER: Card = Card(52);

    pub fn new(rank: Rank, suit: Suit) -> Card {
        Card(suit as u8 * 13 + rank as u8 - 1)
    }

    /// The card with this index (`0..KINDS`); the canonical order is suits `S H D C`, ranks `A`…`K`,
    /// then the joker.
    pub fn from_index(i: usize) -> Option<Card> {
        (i < KINDS).then_some(Card(i as u8))
    }

    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    pub fn is_joker(self) -> bool {
        self.0 == 52
    }

    pub fn rank(self) -> Option<Rank> {
        RANK_OF[usize::from(self.0)]
    }

    pub fn suit(self) -> Option<Suit> {
        SUIT_OF[usize::from(self.0)]
    }

    pub fn is_two(self) -> bool {
        self.rank() == Some(Rank::Two)
    }

    /// Every card kind in canonical order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..KINDS as u8).map(Card)
    }

    /// The form for people: `10♥`, `JK`.
    pub fn pretty(self) -> String {
        match (self.rank(), self.suit()) {
            (Some(r), Some(s)) => format!("{}{}", r.name(), s.symbol()),
            _ => "JK".to_string(),
        }
    }
}

/// The canonical notation: `10H`, `AS`, `JK`.
impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.rank(), self.suit()) {
            (Some(r), Some(s)) => write!(f, "{}{}", r.name(), s.letter()),
            _ => f.write_str("JK"),
        }
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a piece of card notation could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardParseError {
    pub input: String,
    pub reason: &'static str,
}

impl fmt::Display for CardParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot read card `{}`: {} (write a rank A 2 3 4 5 6 7 8 9 10 J Q K, or T for 10, then a suit S H D C or ♠ ♥ ♦ ♣; JK for a joker)",
            self.input, self.reason
        )
    }
}

impl std::error::Error for CardParseError {}

impl FromStr for Card {
    type Err = CardParseError;

    /// Reads `<rank><suit>` or `JK`, case-insensitively; `T` stands for 10.
    fn from_str(s: &str) -> Result<Card, CardParseError> {
        let err = |reason| CardParseError {
            input: s.to_string(),
            reason,
        };
        let t = s.trim();
        if t.is_empty() {
            return Err(err("it is empty"));
        }
        if t.eq_ignore_ascii_case("JK") || t.eq_ignore_ascii_case("joker") {
            return Ok(Card::JOKER);
        }
        let last = t.chars().next_back().ok_or_else(|| err("it is empty"))?;
        let suit = Suit::parse(last).ok_or_else(|| err("the last character is not a suit"))?;
        let rank_part = &t[..t.len() - last.len_utf8()];
        if rank_part.is_empty() {
            return Err(err("there is no rank before the suit"));
        }
        let rank =
            Rank::parse(rank_part).ok_or_else(|| err("the rank is not one of A 2-10 T J Q K"))?;
        Ok(Card::new(rank, suit))
    }
}

/// Parses a space- or comma-separated list of cards.
///
/// # Errors
/// The first card that cannot be read.
pub fn parse_cards(s: &str) -> Result<Vec<Card>, CardParseError> {
    s.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(str::parse)
        .collect()
}

/// Formats cards in the given order, space-separated, in canonical notation.
pub fn format_cards(cards: &[Card]) -> String {
    let v: Vec<String> = cards.iter().map(Card::to_string).collect();
    v.join(" ")
}

/// Formats cards for people (`9♥ 10♠ JK`), in the given order.
pub fn pretty_cards(cards: &[Card]) -> String {
    let v: Vec<String> = cards.iter().map(|c| c.pretty()).collect();
    v.join(" ")
}

/// A card serializes as its notation (`10H`, `JK`), so transcripts and JSON output read the same
/// as the card arguments people type.
impl serde::Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// A list of cards in the order given, as an action or event carries them: up to
/// [`CardList::INLINE`] cards in place, more on the heap. Most such lists are short (a lay-off's
/// card, a push's stock cards), and a whole game makes and drops thousands of them: kept in place
/// they cost no allocation. It reads as a slice (`Deref`), and compares, hashes, prints and
/// serializes as one (the same as the `Vec<Card>` it stands for).
#[derive(Clone)]
pub struct CardList(ListRepr);

#[derive(Clone)]
enum ListRepr {
    Inline(u8, [Card; CardList::INLINE]),
    Heap(Vec<Card>),
}

impl CardList {
    /// The most cards kept in place.
    pub const INLINE: usize = 15;

    pub fn new() -> CardList {
        CardList(ListRepr::Inline(0, [Card::JOKER; CardList::INLINE]))
    }

    pub fn from_slice(cards: &[Card]) -> CardList {
        if cards.len() > CardList::INLINE {
            return CardList(ListRepr::Heap(cards.to_vec()));
        }
        let mut place = [Card::JOKER; CardList::INLINE];
        if let [card] = cards {
            // One card (a lay-off's, a push's stock card: most lists): set, not copied by a call.
            place[0] = *card;
        } else {
            place[..cards.len()].copy_from_slice(cards);
        }
        CardList(ListRepr::Inline(cards.len() as u8, place))
    }

    pub fn as_slice(&self) -> &[Card] {
        match &self.0 {
            ListRepr::Inline(n, cards) => &cards[..usize::from(*n)],
            ListRepr::Heap(v) => v,
        }
    }

    pub fn as_mut_slice(&mut self) -> &mut [Card] {
        match &mut self.0 {
            ListRepr::Inline(n, cards) => &mut cards[..usize::from(*n)],
            ListRepr::Heap(v) => v,
        }
    }

    /// Adds `card` at the end (moving the list to the heap when it outgrows its place).
    pub fn push(&mut self, card: Card) {
        match &mut self.0 {
            ListRepr::Inline(n, cards) if usize::from(*n) < CardList::INLINE => {
                cards[usize::from(*n)] = card;
                *n += 1;
            }
            ListRepr::Inline(_, cards) => {
                let mut v = Vec::with_capacity(2 * CardList::INLINE);
                v.extend_from_slice(cards);
                v.push(card);
                self.0 = ListRepr::Heap(v);
            }
            ListRepr::Heap(v) => v.push(card),
        }
    }
}

impl Default for CardList {
    fn default() -> CardList {
        CardList::new()
    }
}

impl std::ops::Deref for CardList {
    type Target = [Card];
    fn deref(&self) -> &[Card] {
        self.as_slice()
    }
}

impl std::ops::DerefMut for CardList {
    fn deref_mut(&mut self) -> &mut [Card] {
        self.as_mut_slice()
    }
}

impl PartialEq for CardList {
    fn eq(&self, other: &CardList) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for CardList {}

impl PartialEq<Vec<Card>> for CardList {
    fn eq(&self, other: &Vec<Card>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl std::hash::Hash for CardList {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl fmt::Debug for CardList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_slice().fmt(f)
    }
}

impl From<&[Card]> for CardList {
    fn from(cards: &[Card]) -> CardList {
        CardList::from_slice(cards)
    }
}

impl<const N: usize> From<[Card; N]> for CardList {
    fn from(cards: [Card; N]) -> CardList {
        CardList::from_slice(&cards)
    }
}

impl From<Vec<Card>> for CardList {
    /// In place where the cards fit, else the vector itself.
    fn from(cards: Vec<Card>) -> CardList {
        if cards.len() > CardList::INLINE {
            CardList(ListRepr::Heap(cards))
        } else {
            CardList::from_slice(&cards)
        }
    }
}

impl FromIterator<Card> for CardList {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardList {
        let mut list = CardList::new();
        for card in iter {
            list.push(card);
        }
        list
    }
}

impl<'a> IntoIterator for &'a CardList {
    type Item = &'a Card;
    type IntoIter = std::slice::Iter<'a, Card>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl serde::Serialize for CardList {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.as_slice())
    }
}

/// A multiset of cards: a count per card kind. A hand, a pile or a deck.
///
/// Beside the counts it keeps which kinds are present and how many cards there are, so that a
/// hand is walked kind by kind, and measured, without reading every count: the built-in players
/// do both at every decision. Both follow from the counts, which only this module changes.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Counts {
    kinds: [u8; KINDS],
    /// Bit `i` set exactly when `kinds[i] > 0`.
    present: u64,
    /// The sum of `kinds` (at most 53 kinds of 255 copies: a `u16` holds it, and keeps the
    /// whole to 64 bytes, copied in a few moves: hands are copied at most decisions).
    total: u16,
}

/// The cards of a mask by [`Card::index`] (as [`Counts::present`] gives), in canonical order.
pub fn cards_in(mut mask: u64) -> impl Iterator<Item = Card> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let i = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        Some(Card(i as u8))
    })
}

impl Default for Counts {
    fn default() -> Self {
        Counts {
            kinds: [0; KINDS],
            present: 0,
            total: 0,
        }
    }
}

impl Counts {
    pub fn new() -> Counts {
        Counts::default()
    }

    /// Counts of the given cards.
    ///
    /// Saturates at 255 copies of one card (no deck this crate accepts comes close).
    pub fn from_cards(cards: &[Card]) -> Counts {
        let mut c = Counts::new();
        for &card in cards {
            c.add(card);
        }
        c
    }

    /// Counts by [`Card::index`], for tests that set counts directly.
    #[cfg(test)]
    fn from_kinds(kinds: [u8; KINDS]) -> Counts {
        let present = (0..KINDS).fold(0u64, |m, i| m | u64::from(kinds[i] > 0) << i);
        let total = kinds.iter().map(|&n| u16::from(n)).sum();
        Counts {
            kinds,
            present,
            total,
        }
    }

    pub fn count(&self, card: Card) -> u8 {
        self.kinds[card.index()]
    }

    /// The count of every card kind, by [`Card::index`].
    pub fn by_index(&self) -> &[u8; KINDS] {
        &self.kinds
    }

    /// The kinds present, as a bit mask by [`Card::index`].
    pub fn present(&self) -> u64 {
        self.present
    }

    pub fn add(&mut self, card: Card) {
        let i = card.index();
        let slot = &mut self.kinds[i];
        if *slot < u8::MAX {
            *slot += 1;
            self.total += 1;
            self.present |= 1 << i;
        }
    }

    /// Removes one copy; `false` (and no change) if there is none.
    pub fn remove(&mut self, card: Card) -> bool {
        let i = card.index();
        let slot = &mut self.kinds[i];
        if *slot == 0 {
            return false;
        }
        *slot -= 1;
        self.total -= 1;
        if *slot == 0 {
            self.present &= !(1 << i);
        }
        true
    }

    pub fn len(&self) -> usize {
        self.total as usize
    }

    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// Whether some card is held more than once (two decks or more): where none is, the cards
    /// are their kinds, and [`Counts::present`] says all.
    pub fn holds_copies(&self) -> bool {
        u32::from(self.total) != self.present.count_ones()
    }

    /// `true` if every card of `other` is here at least as often.
    pub fn contains(&self, other: &Counts) -> bool {
        if other.present & !self.present != 0 {
            return false;
        }
        // Without an early exit, so the comparison runs over all kinds at once.
        self.kinds
            .iter()
            .zip(other.kinds.iter())
            .fold(true, |ok, (a, b)| ok & (a >= b))
    }

    /// Removes `other`; `false` (and no change) if a card is missing.
    pub fn remove_all(&mut self, other: &Counts) -> bool {
        if !self.contains(other) {
            return false;
        }
        for card in cards_in(other.present) {
            let i = card.index();
            self.kinds[i] -= other.kinds[i];
            if self.kinds[i] == 0 {
                self.present &= !(1 << i);
            }
        }
        self.total -= other.total;
        true
    }

    pub fn add_all(&mut self, other: &Counts) {
        for card in cards_in(other.present) {
            let i = card.index();
            let before = self.kinds[i];
            self.kinds[i] = before.saturating_add(other.kinds[i]);
            self.total += u16::from(self.kinds[i] - before);
        }
        self.present |= other.present;
    }

    /// The cards, each copy once, in canonical order.
    pub fn cards(&self) -> Vec<Card> {
        let mut v = Vec::with_capacity(self.len());
        for (card, k) in self.iter() {
            for _ in 0..k {
                v.push(card);
            }
        }
        v
    }

    /// The distinct cards present with their counts, in canonical order.
    pub fn iter(&self) -> impl Iterator<Item = (Card, u8)> + '_ {
        cards_in(self.present).map(|c| (c, self.kinds[c.index()]))
    }

    /// The card kinds held more often here than in `other`, as a bit mask by [`Card::index`]:
    /// the kinds present here and not there, and of those present in both, the ones with the
    /// larger count here. Hands are read this way at every decision of the built-in players.
    pub fn more_than(&self, other: &Counts) -> u64 {
        let mut mask = self.present & !other.present;
        // Where no card is here twice, a card `other` holds too is held there at least as often.
        if !self.holds_copies() {
            return mask;
        }
        for card in cards_in(self.present & other.present) {
            let i = card.index();
            if self.kinds[i] > other.kinds[i] {
                mask |= 1 << i;
            }
        }
        mask
    }
}

impl fmt::Debug for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}]", format_cards(&self.cards()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `CardList` of any length, however built (from a slice, a vector, an array, an
    /// iterator, or card by card past its place), reads, compares, hashes, prints and serializes
    /// as the vector of the same cards.
    #[test]
    fn a_card_list_is_its_cards_in_order() {
        use std::hash::{BuildHasher, RandomState};
        let hasher = RandomState::new();
        let all: Vec<Card> = Card::all().collect();
        for n in [
            0,
            1,
            2,
            CardList::INLINE - 1,
            CardList::INLINE,
            CardList::INLINE + 1,
            40,
        ] {
            let v: Vec<Card> = all.iter().rev().copied().cycle().take(n).collect();
            let mut pushed = CardList::new();
            for &c in &v {
                pushed.push(c);
            }
            let built = [
                CardList::from_slice(&v),
                CardList::from(v.clone()),
                v.iter().copied().collect(),
                pushed,
            ];
            for list in built {
                assert_eq!(list.as_slice(), v.as_slice(), "{n}");
                assert_eq!(list, v);
                assert_eq!(list.len(), n);
                assert_eq!(list.iter().count(), n);
                let walked: Vec<Card> = IntoIterator::into_iter(&list).copied().collect();
                assert_eq!(walked, v);
                assert_eq!(format!("{list:?}"), format!("{v:?}"));
                assert_eq!(
                    serde_json::to_string(&list).unwrap(),
                    serde_json::to_string(&v).unwrap()
                );
                assert_eq!(hasher.hash_one(&list), hasher.hash_one(&v));
                let mut sorted = list.clone();
                sorted.sort();
                let mut expected = v.clone();
                expected.sort();
                assert_eq!(sorted, expected);
                if n > 0 {
                    assert_ne!(CardList::from_slice(&v[1..]), list);
                    assert_ne!(CardList::from_slice(&v[1..]), v);
                }
            }
        }
        assert_eq!(CardList::from([Card::JOKER]), vec![Card::JOKER]);
        assert_eq!(CardList::default(), Vec::<Card>::new());
    }

    /// `more_than` (from the kinds present) against one kind at a time, on counts of every size
    /// (and on hands holding no card twice, where it answers from the masks alone), and `iter` visits exactly the kinds present, in order.
    #[test]
    fn more_than_compares_every_kind() {
        let mut rng = crate::base::rng::Rng::new(7);
        for round in 0..4000 {
            let mut a = [0u8; KINDS];
            let mut b = [0u8; KINDS];
            // One round in four with no card twice in `a` (its shortcut), and any `b`.
            let top = [3, 3, 130, 256][round % 4];
            let top_a = if round % 4 == 0 { 2 } else { top };
            for i in 0..KINDS {
                a[i] = rng.below(top_a) as u8;
                b[i] = if rng.below(3) == 0 {
                    a[i]
                } else {
                    rng.below(top) as u8
                };
            }
            let slow = (0..KINDS).fold(0u64, |m, i| m | u64::from(a[i] > b[i]) << i);
            let (a, b) = (Counts::from_kinds(a), Counts::from_kinds(b));
            assert_eq!(a.more_than(&b), slow, "{a:?} {b:?}");
            let listed: Vec<(Card, u8)> = a.iter().collect();
            let expected: Vec<(Card, u8)> = Card::all()
                .map(|c| (c, a.count(c)))
                .filter(|&(_, n)| n > 0)
                .collect();
            assert_eq!(listed, expected);
        }
    }

    /// A hand is copied in one 64-byte block (the built-in players copy one at most decisions):
    /// a field added to `Counts` that makes it larger shows here.
    #[test]
    fn counts_fit_in_64_bytes() {
        assert_eq!(std::mem::size_of::<Counts>(), 64);
        // The total still holds every count at its most.
        let mut c = Counts::from_kinds([u8::MAX; KINDS]);
        assert_eq!(c.len(), KINDS * 255);
        c.add(Card::JOKER);
        assert_eq!(c.len(), KINDS * 255, "a full count saturates");
    }

    /// The kinds present and the number of cards follow every change of the counts, as if
    /// counted again from them; a refused removal changes nothing.
    #[test]
    fn counts_keep_their_kinds_and_total_in_step() {
        let mut rng = crate::base::rng::Rng::new(11);
        let mut c = Counts::new();
        for step in 0..20_000 {
            let card = Card(rng.below(KINDS as u64) as u8);
            let mut other = Counts::new();
            for _ in 0..rng.below(4) {
                other.add(Card(rng.below(KINDS as u64) as u8));
            }
            let before = c.clone();
            match rng.below(5) {
                0 | 1 => c.add(card),
                2 => assert_eq!(c.remove(card), before.count(card) > 0),
                3 => c.add_all(&other),
                _ => assert_eq!(c.remove_all(&other), before.contains(&other)),
            }
            // Saturation at 255 copies is reached too.
            if step % 5000 == 4999 {
                for _ in 0..300 {
                    c.add(card);
                }
                assert_eq!(c.count(card), u8::MAX);
            }
            let recounted = Counts::from_kinds(*c.by_index());
            assert_eq!(c.present, recounted.present, "step {step}");
            assert_eq!(c.total, recounted.total, "step {step}");
            assert_eq!(c.len(), c.cards().len());
            assert_eq!(c.is_empty(), c.by_index().iter().all(|&n| n == 0));
        }
    }

    #[test]
    fn notation_round_trips_for_every_card() {
        for card in Card::all() {
            assert_eq!(card.to_string().parse::<Card>(), Ok(card));
            assert_eq!(card.to_string().to_lowercase().parse::<Card>(), Ok(card));
        }
    }

    #[test]
    fn accepts_t_symbols_and_joker_spellings() {
        let ten = Card::new(Rank::Ten, Suit::Hearts);
        for s in ["10H", "th", "T♥", "10♥", " 10h "] {
            assert_eq!(s.parse::<Card>(), Ok(ten), "{s}");
        }
        for s in ["JK", "jk", "Joker"] {
            assert_eq!(s.parse::<Card>(), Ok(Card::JOKER));
        }
        assert_eq!(Card::new(Rank::Ace, Suit::Clubs).pretty(), "A♣");
    }

    #[test]
    fn rejects_bad_notation_with_reason() {
        for (s, why) in [
            ("", "it is empty"),
            ("11H", "the rank is not one of A 2-10 T J Q K"),
            ("1", "the last character is not a suit"),
            ("H", "there is no rank before the suit"),
            ("10X", "the last character is not a suit"),
            ("0S", "the rank is not one of A 2-10 T J Q K"),
        ] {
            assert_eq!(s.parse::<Card>().unwrap_err().reason, why, "{s}");
        }
    }

    #[test]
    fn counts_add_remove_and_list_in_canonical_order() {
        let cards = parse_cards("JK 3C 3c AS 10H").unwrap();
        let mut c = Counts::from_cards(&cards);
        assert_eq!(c.len(), 5);
        assert_eq!(format_cards(&c.cards()), "AS 10H 3C 3C JK");
        assert!(c.remove(Card::JOKER));
        assert!(!c.remove(Card::JOKER));
        assert_eq!(c.count("3c".parse().unwrap()), 2);
    }
}
