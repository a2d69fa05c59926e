// @ts-check
/**
 * Card notation: `<rank><suit>` or `JK`.
 *
 * Ranks `A 2 3 4 5 6 7 8 9 10 J Q K` (`T` and `1` are read too, for 10 and the ace), suits
 * `S H D C` or `♠ ♥ ♦ ♣`, a joker `JK` (or `joker`); any case. Printing always writes the first
 * forms: `10H`, `AS`, `JK`. The canonical order is suit by suit (`S H D C`), each suit `A` to `K`,
 * jokers last: `cardIndex` sorts that way.
 *
 * @typedef {import('./types.js').Card} Card
 * @typedef {import('./types.js').Suit} Suit
 */

export const SUITS = /** @type {const} */ (['S', 'H', 'D', 'C']);
export const SUIT_SYMBOLS = /** @type {const} */ (['♠', '♥', '♦', '♣']);
export const RANK_NAMES = /** @type {const} */ ([
  'A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K',
]);

/** Text that is not a card, a meld, an action or a reading. */
export class NotationError extends Error {}

/** @param {string} s */
function asciiUpper(s) {
  return s.replace(/[a-z]/g, (c) => c.toUpperCase());
}

/**
 * A rank as written in card notation: 1 (ace) to 13 (king), or null.
 * @param {string} text
 * @returns {number | null}
 */
export function parseRank(text) {
  const up = asciiUpper(text);
  /** @type {Record<string, number>} */
  const named = { A: 1, 1: 1, T: 10, 10: 10, J: 11, Q: 12, K: 13 };
  if (Object.hasOwn(named, up)) return named[up];
  if (/^\+?[0-9]+$/.test(up)) {
    const n = Number(up);
    if (n >= 2 && n <= 9) return n;
  }
  return null;
}

/** @param {number} rank */
export function rankName(rank) {
  return RANK_NAMES[rank - 1];
}

/**
 * `S H D C` (any case) or `♠ ♥ ♦ ♣`; null for anything else.
 * @param {string} ch
 * @returns {Suit | null}
 */
export function parseSuit(ch) {
  const i = SUITS.indexOf(/** @type {Suit} */ (asciiUpper(ch)));
  if (i >= 0 && ch.length === 1) return SUITS[i];
  const j = SUIT_SYMBOLS.indexOf(/** @type {any} */ (ch));
  return j >= 0 ? SUITS[j] : null;
}

/** @type {Card} */
export const JOKER = Object.freeze({ rank: null, suit: null });

/** @type {Map<string, Card>} */
const known = new Map();

/**
 * Reads `<rank><suit>` or `JK`, any case; throws NotationError.
 * @param {string} text
 * @returns {Card}
 */
export function parseCard(text) {
  const hit = known.get(text);
  if (hit) return hit;
  /** @param {string} reason */
  const bad = (reason) =>
    new NotationError(
      `cannot read card \`${text}\`: ${reason} (write a rank A 2 3 4 5 6 7 8 9 10 J Q K, or T for 10, then a suit S H D C or ♠ ♥ ♦ ♣; JK for a joker)`,
    );
  const t = text.trim();
  if (t === '') throw bad('it is empty');
  /** @type {Card} */
  let card;
  if (asciiUpper(t) === 'JK' || asciiUpper(t) === 'JOKER') {
    card = JOKER;
  } else {
    const chars = Array.from(t);
    const suit = parseSuit(chars[chars.length - 1]);
    if (suit === null) throw bad('the last character is not a suit');
    if (chars.length === 1) throw bad('there is no rank before the suit');
    const rank = parseRank(chars.slice(0, -1).join(''));
    if (rank === null) throw bad('the rank is not one of A 2-10 T J Q K');
    card = Object.freeze({ rank, suit });
  }
  if (known.size < 4096) known.set(text, card);
  return card;
}

/**
 * The canonical text of a card: `10H`, `JK`.
 * @param {Card} card
 */
export function cardText(card) {
  if (card.rank === null || card.suit === null) return 'JK';
  return rankName(card.rank) + card.suit;
}

/**
 * For people: `10♥`, `JK`.
 * @param {Card} card
 */
export function prettyCard(card) {
  if (card.rank === null || card.suit === null) return 'JK';
  return rankName(card.rank) + SUIT_SYMBOLS[SUITS.indexOf(card.suit)];
}

/** @param {Card} card */
export function isJoker(card) {
  return card.rank === null;
}

/** @param {Card} card */
export function isTwo(card) {
  return card.rank === 2;
}

/** @param {Card} a @param {Card} b */
export function sameCard(a, b) {
  return a.rank === b.rank && a.suit === b.suit;
}

/**
 * The position in canonical order: suit by suit, A to K, jokers last.
 * @param {Card} card
 */
export function cardIndex(card) {
  if (card.rank === null || card.suit === null) return 52;
  return SUITS.indexOf(card.suit) * 13 + card.rank - 1;
}

/**
 * A list of cards separated by spaces or commas: `"9H 10S, JK"`.
 * @param {string} text
 */
export function parseCards(text) {
  return text.split(/[\s,]+/u).filter((w) => w !== '').map(parseCard);
}

/** @param {Card[]} cards */
export function cardsText(cards) {
  return cards.map(cardText).join(' ');
}

/**
 * The cards in canonical order (how hands and meld cards are listed).
 * @param {Card[]} cards
 */
export function canonical(cards) {
  return [...cards].sort((a, b) => cardIndex(a) - cardIndex(b));
}
