// @ts-check
/**
 * The action notation of the protocol, and the two ways a meld's reading is written.
 *
 * Actions (`apply`'s `action`, `legal`'s `actions`):
 *
 *     take-discard | push | draw-stock | end-turn | discard 9H | buy | pass
 *     meld set [7S 7H JK JK=7] run [9H 10H JK JK=JH QH]
 *     lay-off 0 [9H]            lay-off 0 [JK JK=10H] join 2
 *     rescue 1 8S for JK then lay-off 0 [JK JK=JS]
 *
 * Keywords and cards in any case; commas may separate cards. Inside brackets `CARD=TARGET` says
 * what one copy of a wild card (a joker or a 2) stands for: a card (`JK=10H`) or a rank (`JK=7`).
 * The canonical form lists the wild plainly, then its declaration (`[7S 7H JK JK=7]`); a
 * declaration of a card not listed plainly often enough adds the card (`[7S 7H JK=7]` is the same
 * three cards). `actionText` writes the canonical form.
 *
 * Readings: in `state` (and `start`'s table melds) a meld's reading lists every card's role,
 * `set 7: JK=7 7S 7H` or `run H 4-7: 4H 2C=5H 6H 7H` (`*` for a run of any suits); in `observe`
 * it is in words, `set of 7s` or `run 4♥–7♥`.
 *
 * @typedef {import('./types.js').Card} Card
 * @typedef {import('./types.js').Target} Target
 * @typedef {import('./types.js').Declaration} Declaration
 * @typedef {import('./types.js').MeldSpec} MeldSpec
 * @typedef {import('./types.js').MeldKind} MeldKind
 * @typedef {import('./types.js').Action} Action
 * @typedef {import('./types.js').MeldAction} MeldAction
 * @typedef {import('./types.js').LayOffAction} LayOffAction
 * @typedef {import('./types.js').Reading} Reading
 * @typedef {import('./types.js').Role} Role
 * @typedef {import('./types.js').DescribedReading} DescribedReading
 */

import {
  NotationError,
  SUITS,
  SUIT_SYMBOLS,
  cardText,
  isJoker,
  isTwo,
  parseCard,
  parseRank,
  parseSuit,
  rankName,
  sameCard,
} from './cards.js';

/**
 * `7H` (a card) or `7` (a rank).
 * @param {string} text
 * @returns {Target}
 */
export function parseTarget(text) {
  const rank = parseRank(text.trim());
  if (rank !== null) return { kind: 'rank', rank };
  return { kind: 'card', card: parseCard(text) };
}

/** @param {Target} t */
export function targetText(t) {
  return t.kind === 'rank' ? rankName(t.rank) : cardText(t.card);
}

/** @param {Declaration} d */
function declarationText(d) {
  return `${cardText(d.card)}=${targetText(d.target)}`;
}

/** @param {Card[]} cards @param {Declaration[]} declared */
function bracketText(cards, declared) {
  return `[${[...cards.map(cardText), ...declared.map(declarationText)].join(' ')}]`;
}

/**
 * `set [7S 7H JK JK=7]`, `[9H 10H JK]`.
 * @param {MeldSpec} spec
 */
export function meldText(spec) {
  return (spec.kind ? `${spec.kind} ` : '') + bracketText(spec.cards, spec.declared);
}

/**
 * The canonical one-line text of an action.
 * @param {Action} a
 * @returns {string}
 */
export function actionText(a) {
  switch (a.type) {
    case 'take-discard':
    case 'push':
    case 'draw-stock':
    case 'end-turn':
    case 'buy':
    case 'pass':
      return a.type;
    case 'discard':
      return `discard ${cardText(a.card)}`;
    case 'meld':
      return `meld ${a.melds.map(meldText).join(' ')}`;
    case 'lay-off': {
      const text = `lay-off ${a.meld} ${bracketText(a.cards, a.declared)}`;
      return a.join === null ? text : `${text} join ${a.join}`;
    }
    case 'rescue': {
      const text = `rescue ${a.meld} ${cardText(a.natural)} for ${cardText(a.wild)}`;
      return a.then === null ? text : `${text} then ${actionText(a.then)}`;
    }
  }
}

const PLAIN = ['take-discard', 'push', 'draw-stock', 'end-turn', 'buy', 'pass'];

class Reader {
  /** @param {string} text */
  constructor(text) {
    // Brackets are words of their own; whitespace and commas separate words.
    /** @type {string[]} */
    this.toks = text.split(/[\s,]+|(\[|\])/u).filter((t) => t !== undefined && t !== '');
    this.at = 0;
  }

  /** @returns {string | null} */
  peek() {
    return this.at < this.toks.length ? this.toks[this.at] : null;
  }

  keyword() {
    const t = this.peek();
    return t === null ? null : t.toLowerCase();
  }

  /** @param {string} what */
  next(what) {
    const t = this.peek();
    if (t === null) throw new NotationError(`the action ends where ${what} was expected`);
    this.at += 1;
    return t;
  }

  /** @param {string} what */
  number(what) {
    const t = this.next(what);
    if (!/^\+?[0-9]+$/.test(t) || Number(t) >= 1_000_000) {
      throw new NotationError(`\`${t}\` is not ${what} (a meld number from 0)`);
    }
    return Number(t);
  }

  /** @param {string} what */
  card(what) {
    return parseCard(this.next(what));
  }

  /** @returns {{cards: Card[], declared: Declaration[]}} */
  bracket() {
    const open = this.next('`[`');
    if (open !== '[') throw new NotationError(`expected \`[\` before the cards, found \`${open}\``);
    /** @type {{card: Card, target: Target | null}[]} */
    const items = [];
    for (;;) {
      const t = this.next('`]`');
      if (t === ']') break;
      if (t === '[') {
        throw new NotationError('a `[` inside brackets: close the list of cards with `]` first');
      }
      const eq = t.indexOf('=');
      if (eq >= 0) {
        /** @type {Card} */
        let card;
        /** @type {Target} */
        let target;
        try {
          card = parseCard(t.slice(0, eq));
        } catch (e) {
          throw new NotationError(`in the declaration \`${t}\`: ${/** @type {Error} */ (e).message}`);
        }
        if (!isJoker(card) && !isTwo(card)) {
          throw new NotationError(
            `\`${t}\`: only a wild card (a joker or a 2) can be declared to stand for another card`,
          );
        }
        try {
          target = parseTarget(t.slice(eq + 1));
        } catch (e) {
          throw new NotationError(`in the declaration \`${t}\`: ${/** @type {Error} */ (e).message}`);
        }
        items.push({ card, target });
      } else {
        items.push({ card: parseCard(t), target: null });
      }
    }
    // A declaration adds its card only when the card is not listed plainly often enough.
    /** @type {Card[]} */
    const cards = [];
    /** @type {Declaration[]} */
    const declared = [];
    items.forEach(({ card, target }, i) => {
      if (target === null) {
        cards.push(card);
        return;
      }
      declared.push({ card, target });
      const plain = items.filter((x) => sameCard(x.card, card) && x.target === null).length;
      const soFar = items
        .slice(0, i + 1)
        .filter((x) => sameCard(x.card, card) && x.target !== null).length;
      if (soFar > plain) cards.push(card);
    });
    if (cards.length === 0) throw new NotationError('no cards between `[` and `]`');
    return { cards, declared };
  }

  /** @returns {MeldSpec[]} */
  meldSpecs() {
    /** @type {MeldSpec[]} */
    const specs = [];
    for (let k = this.keyword(); k !== null; k = this.keyword()) {
      /** @type {MeldKind | null} */
      let kind = null;
      if (k === 'set' || k === 'run') {
        this.at += 1;
        kind = k;
      } else if (k !== '[') {
        break;
      }
      const { cards, declared } = this.bracket();
      specs.push({ cards, kind, declared });
    }
    if (specs.length === 0) {
      throw new NotationError(
        '`meld` needs at least one meld: `meld [7S 7H 7D]` or `meld set [7S 7H JK JK=7]`',
      );
    }
    return specs;
  }

  /** @returns {LayOffAction} */
  layOff() {
    const meld = this.number('the meld to lay off on');
    const { cards, declared } = this.bracket();
    let join = null;
    if (this.keyword() === 'join') {
      this.at += 1;
      join = this.number('the run to join');
    }
    return { type: 'lay-off', meld, cards, declared, join };
  }

  /**
   * @param {boolean} nested
   * @returns {Action}
   */
  action(nested) {
    const word = this.next('an action');
    const w = word.toLowerCase();
    if (w === 'meld') return { type: 'meld', melds: this.meldSpecs() };
    if (w === 'lay-off') return this.layOff();
    if (nested) {
      throw new NotationError(`after \`then\` comes a \`meld …\` or a \`lay-off …\`, not \`${word}\``);
    }
    if (PLAIN.includes(w)) return /** @type {Action} */ ({ type: w });
    if (w === 'discard') return { type: 'discard', card: this.card('the card to discard') };
    if (w === 'rescue') {
      const meld = this.number('the meld holding the wild');
      const natural = this.card('the natural card');
      const f = this.next('`for`');
      if (f.toLowerCase() !== 'for') {
        throw new NotationError(
          `expected \`for\` after the natural card, found \`${f}\` (write \`rescue 1 8S for JK\`)`,
        );
      }
      const wild = this.card('the wild card');
      /** @type {MeldAction | LayOffAction | null} */
      let then = null;
      if (this.keyword() === 'then') {
        this.at += 1;
        then = /** @type {MeldAction | LayOffAction} */ (this.action(true));
      }
      return { type: 'rescue', meld, natural, wild, then };
    }
    throw new NotationError(
      `unknown action \`${word}\`: the actions are take-discard, push, draw-stock, meld, lay-off, rescue, discard, end-turn, buy, pass`,
    );
  }
}

/**
 * Reads one action (any case, any spacing); throws NotationError saying what is wrong.
 * @param {string} text
 * @returns {Action}
 */
export function parseAction(text) {
  const r = new Reader(text);
  const a = r.action(false);
  const t = r.peek();
  if (t !== null) throw new NotationError(`unexpected \`${t}\` after the action \`${actionText(a)}\``);
  return a;
}

/**
 * Reads one meld: `set [7S 7H JK JK=7]`, `[9H 10H JK]`.
 * @param {string} text
 * @returns {MeldSpec}
 */
export function parseMeld(text) {
  const r = new Reader(text);
  const specs = r.meldSpecs();
  const t = r.peek();
  if (t !== null) throw new NotationError(`unexpected \`${t}\` after the meld`);
  if (specs.length !== 1) throw new NotationError(`one meld was expected, found ${specs.length}`);
  return specs[0];
}

// ------------------------------------------------------------------ readings

/** @param {string} text @param {string} what */
function rankOrUnknown(text, what) {
  if (text === '?') return null;
  const rank = parseRank(text);
  if (rank === null) throw new NotationError(`\`${text}\` is not a rank (${what})`);
  return rank;
}

/** @param {number | null} rank */
function nameOrUnknown(rank) {
  return rank === null ? '?' : rankName(rank);
}

/**
 * `set 7: JK=7 7S 7H`, `run H 4-7: 4H 2C=5H 6H 7H`, `run * 3-5: …`.
 * @param {string} text
 * @returns {Reading}
 */
export function parseReading(text) {
  const bad = () =>
    new NotationError(`\`${text}\` is not a reading (\`set 7: 7S 7H 7D\`, \`run H 4-6: 4H 5H 6H\`)`);
  const colon = text.indexOf(':');
  if (colon < 0) throw bad();
  /** @type {Role[]} */
  const roles = text
    .slice(colon + 1)
    .split(/\s+/u)
    .filter((w) => w !== '')
    .map((w) => {
      const eq = w.indexOf('=');
      return eq < 0
        ? { card: parseCard(w), standsFor: null }
        : { card: parseCard(w.slice(0, eq)), standsFor: parseTarget(w.slice(eq + 1)) };
    });
  const words = text.slice(0, colon).split(/\s+/u).filter((w) => w !== '');
  if (words.length === 2 && words[0] === 'set') {
    const rank = rankOrUnknown(words[1], "the set's rank");
    return { kind: 'set', roles, rank, suit: null, low: null, high: null };
  }
  if (words.length === 3 && words[0] === 'run' && words[2].includes('-')) {
    const suit = words[1] === '*' ? null : parseSuit(words[1]);
    if (suit === null && words[1] !== '*') throw bad();
    const dash = words[2].indexOf('-');
    const low = rankOrUnknown(words[2].slice(0, dash), "the run's lowest");
    const high = rankOrUnknown(words[2].slice(dash + 1), "the run's highest");
    return { kind: 'run', roles, rank: null, suit, low, high };
  }
  throw bad();
}

/** @param {Role} r */
function roleText(r) {
  return r.standsFor === null ? cardText(r.card) : `${cardText(r.card)}=${targetText(r.standsFor)}`;
}

/** @param {Reading} r */
export function readingText(r) {
  const roles = r.roles.map(roleText).join(' ');
  if (r.kind === 'set') return `set ${nameOrUnknown(r.rank)}: ${roles}`;
  return `run ${r.suit ?? '*'} ${nameOrUnknown(r.low)}-${nameOrUnknown(r.high)}: ${roles}`;
}

/**
 * `set of 7s`, `run 4♥–7♥`, `run 4–7`.
 * @param {string} text
 * @returns {DescribedReading}
 */
export function parseDescribedReading(text) {
  let m = /^set of (\S+)s$/u.exec(text);
  if (m) {
    const rank = rankOrUnknown(m[1], "the set's rank");
    return { kind: 'set', rank, suit: null, low: null, high: null };
  }
  m = /^run (\S+?)([♠♥♦♣]?)–(\S+?)([♠♥♦♣]?)$/u.exec(text);
  if (m && m[2] === m[4]) {
    const suit = m[2] ? parseSuit(m[2]) : null;
    const low = rankOrUnknown(m[1], "the run's lowest");
    const high = rankOrUnknown(m[3], "the run's highest");
    return { kind: 'run', rank: null, suit, low, high };
  }
  throw new NotationError(`\`${text}\` is not a reading in words (\`set of 7s\`, \`run 4♥–7♥\`)`);
}

/** @param {DescribedReading} r */
export function describedReadingText(r) {
  if (r.kind === 'set') return `set of ${nameOrUnknown(r.rank)}s`;
  const suit = r.suit === null ? '' : SUIT_SYMBOLS[SUITS.indexOf(r.suit)];
  return `run ${nameOrUnknown(r.low)}${suit}–${nameOrUnknown(r.high)}${suit}`;
}
