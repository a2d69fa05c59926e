// @ts-check
/**
 * The protocol's messages as typed values (src/types.d.ts), and their JSON
 * (conformance/README.md, "The protocol").
 *
 * Every card is a `Card`, every action an `Action`, every meld text a `MeldSpec` and every
 * reading a `Reading` (`state`) or a `DescribedReading` (`observe`): `decodeMessage` and
 * `decodeReply` read them through the notation code, `encodeMessage` and `encodeReply` write them
 * back through it. An optional key (`events` of an engine that does not report them, `buying`
 * where the rules have none) is left out when it is undefined; a nullable one is written `null`.
 *
 * @typedef {import('./types.js').Message} Message
 * @typedef {import('./types.js').Reply} Reply
 */

import { NotationError, cardText, parseCard } from './cards.js';
import {
  actionText,
  describedReadingText,
  meldText,
  parseAction,
  parseDescribedReading,
  parseMeld,
  parseReading,
  readingText,
} from './notation.js';

/** The newest protocol version the kit speaks (it speaks 1 too). */
export const PROTOCOL = 2;
/** The longest line either side may send, in bytes, without the newline. */
export const MAX_LINE = 1 << 20;
/** What an engine may declare it reports in its protocol-2 hello (`reports`). */
export const CAPABILITIES = /** @type {const} */ ([
  'reason-codes',
  'events',
  'readings',
  'legal',
  'observe',
  'rescue-wild',
]);

/** A message that cannot be understood: answered with an `error` reply. */
export class ProtocolError extends Error {}

/** A value that does not decode: the path to it and what is wrong. */
class Bad extends Error {
  /** @param {string} what @param {string[]} [path] */
  constructor(what, path = []) {
    super(what);
    this.what = what;
    this.path = path;
  }

  /** @param {string} part */
  within(part) {
    return new Bad(this.what, [part, ...this.path]);
  }

  toProtocolError() {
    const where = this.path.map((p) => (p.startsWith('[') ? p : `.${p}`)).join('').replace(/^\./, '');
    return new ProtocolError(where ? `\`${where}\`: ${this.what}` : this.what);
  }
}

/**
 * How one kind of value is read from JSON and written back.
 * @typedef {{dec: (v: any) => any, enc: (v: any) => any, optional?: boolean, nullable?: boolean}} Codec
 */

/** @type {Codec} */
const INT = {
  dec: (v) => {
    if (!Number.isInteger(v)) throw new Bad('expected an integer');
    return v;
  },
  enc: (v) => v,
};
/** @type {Codec} */
const BOOL = {
  dec: (v) => {
    if (typeof v !== 'boolean') throw new Bad('expected true or false');
    return v;
  },
  enc: (v) => v,
};
/** @type {Codec} */
const STR = {
  dec: (v) => {
    if (typeof v !== 'string') throw new Bad('expected a string');
    return v;
  },
  enc: (v) => v,
};
/** @type {Codec} */
const TEXTS = {
  dec: (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Bad('expected a map of texts');
    for (const x of Object.values(v)) if (typeof x !== 'string') throw new Bad('expected a map of texts');
    return { ...v };
  },
  enc: (v) => ({ ...v }),
};
/** @type {Codec} */
const GENERATOR = {
  dec: (v) => {
    if (typeof v === 'string' && /^[0-9]+$/.test(v) && BigInt(v) < 1n << 64n) return BigInt(v);
    if (Number.isSafeInteger(v) && v >= 0) return BigInt(v);
    throw new Bad('expected a 64-bit unsigned integer as decimal text');
  },
  enc: (v) => String(v),
};

/**
 * A value written as text, read and written by the notation code.
 * @param {string} what @param {(s: string) => any} read @param {(v: any) => string} write
 * @returns {Codec}
 */
function text(what, read, write) {
  return {
    dec: (v) => {
      if (typeof v !== 'string') throw new Bad(`expected ${what} as text`);
      try {
        return read(v);
      } catch (e) {
        if (e instanceof NotationError) throw new Bad(e.message);
        throw e;
      }
    },
    enc: write,
  };
}

const CARD = text('a card', parseCard, cardText);
const ACTION = text('an action', parseAction, actionText);
const MELD = text('a meld', parseMeld, meldText);
const READING = text('a reading', parseReading, readingText);
const DESCRIBED = text('a reading', parseDescribedReading, describedReadingText);

/** @param {Codec} item @returns {Codec} */
function list(item) {
  return {
    dec: (v) => {
      if (!Array.isArray(v)) throw new Bad('expected a list');
      return v.map((x, i) => {
        try {
          return item.dec(x);
        } catch (e) {
          throw e instanceof Bad ? e.within(`[${i}]`) : e;
        }
      });
    },
    enc: (v) => v.map(item.enc),
  };
}

/** `X | null`. @param {Codec} inner @returns {Codec} */
function nullable(inner) {
  return {
    dec: (v) => (v === null ? null : inner.dec(v)),
    enc: (v) => (v === null ? null : inner.enc(v)),
    nullable: true,
  };
}

/** An optional key: left out when undefined. @param {Codec} inner @returns {Codec} */
function optional(inner) {
  return { ...inner, optional: true };
}

/** @param {Record<string, Codec>} fields @returns {Codec} */
function obj(fields) {
  const entries = Object.entries(fields);
  return {
    dec: (v) => {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Bad('expected an object');
      /** @type {Record<string, any>} */
      const out = {};
      for (const [k, c] of entries) {
        if (!Object.hasOwn(v, k)) {
          if (c.optional) continue;
          if (c.nullable) {
            out[k] = null;
            continue;
          }
          throw new Bad('missing', [k]);
        }
        try {
          out[k] = c.dec(v[k]);
        } catch (e) {
          throw e instanceof Bad ? e.within(k) : e;
        }
      }
      return out;
    },
    enc: (v) => {
      /** @type {Record<string, any>} */
      const out = {};
      for (const [k, c] of entries) {
        const x = v[k];
        if (x === undefined && c.optional) continue;
        out[k] = c.enc(x);
      }
      return out;
    },
  };
}

/**
 * Objects told apart by a tag key (`type`, `event`).
 * @param {string} tag @param {Record<string, Codec>} kinds @param {string} what
 * @returns {Codec}
 */
function tagged(tag, kinds, what) {
  return {
    dec: (v) => {
      if (typeof v !== 'object' || v === null || typeof v[tag] !== 'string') {
        throw new Bad(`expected ${what} with \`${tag}\``);
      }
      const c = kinds[v[tag]];
      if (!c || !Object.hasOwn(kinds, v[tag])) throw new Bad(`unknown ${what} \`${v[tag]}\``, [tag]);
      return { [tag]: v[tag], ...c.dec(v) };
    },
    enc: (v) => ({ [tag]: v[tag], ...kinds[v[tag]].enc(v) }),
  };
}

// ------------------------------------------------------------------ harness → implementation

const START_MELD = obj({ owner: INT, meld: MELD, cards: list(CARD), readings: optional(list(READING)) });

const POSITION = obj({
  turn: INT,
  stage: STR,
  taken: nullable(CARD),
  hands: list(list(CARD)),
  stock: list(CARD),
  discard: list(CARD),
  table: list(START_MELD),
  contract_met: list(INT),
  buys: optional(list(INT)),
  window: optional(nullable(INT)),
});

const MESSAGE = tagged(
  'type',
  {
    hello: obj({ protocol: INT }),
    start: obj({
      protocol: INT,
      rules: obj({ game: STR, name: STR, fingerprint: STR, values: TEXTS }),
      players: INT,
      dealer: INT,
      round: INT,
      scores: list(list(INT)),
      generator: GENERATOR,
      decks: list(list(CARD)),
      position: POSITION,
    }),
    apply: obj({ seat: INT, action: ACTION }),
    state: obj({}),
    observe: obj({ seat: INT }),
    legal: obj({}),
    end: obj({}),
  },
  'message type',
);

// ------------------------------------------------------------------ events, state, observation

const EVENT = tagged(
  'event',
  {
    dealt: obj({ round: INT, dealer: INT, first: INT }),
    'upcard-buried': obj({ card: CARD }),
    upcard: obj({ card: CARD }),
    'took-discard': obj({ seat: INT, card: CARD }),
    pushed: obj({ seat: INT, to: INT, discard: nullable(CARD), stock: list(CARD), face_up: BOOL }),
    drew: obj({ seat: INT, card: CARD }),
    reshuffled: obj({ cards: INT }),
    melded: obj({ seat: INT, meld: INT, cards: list(CARD), contract: BOOL }),
    'laid-off': obj({ seat: INT, meld: INT, cards: list(CARD), joined: nullable(INT) }),
    rescued: obj({ seat: INT, meld: INT, natural: CARD, wild: CARD }),
    discarded: obj({ seat: INT, card: CARD }),
    bought: obj({ seat: INT, card: CARD, stock: list(CARD) }),
    passed: obj({ seat: INT }),
    'turn-ended': obj({ seat: INT }),
    'went-out': obj({ seat: INT }),
    'hand-ended': obj({ reason: STR, points: list(INT), totals: list(INT) }),
    'game-ended': obj({ winners: list(INT), totals: list(INT) }),
  },
  'event',
);

const STATE = obj({
  round: INT,
  dealer: INT,
  turn: INT,
  stage: STR,
  taken: nullable(CARD),
  hands: list(list(CARD)),
  table: list(obj({ owner: INT, cards: list(CARD), readings: optional(list(READING)) })),
  stock: obj({ count: INT, top: nullable(CARD) }),
  discard: list(CARD),
  contract: list(obj({ met: BOOL, filled: list(BOOL) })),
  totals: list(INT),
  buying: optional(obj({ window: nullable(INT), buys: list(INT) })),
});

const OBSERVATION = obj({
  seat: INT,
  round: INT,
  dealer: INT,
  turn: INT,
  stage: STR,
  hand: list(CARD),
  hand_sizes: list(INT),
  stock_size: INT,
  discard_top: nullable(CARD),
  discard_size: INT,
  table: list(obj({ owner: INT, cards: list(CARD), readings: optional(list(DESCRIBED)) })),
  contract_done: list(BOOL),
  totals: list(INT),
  last_push: nullable(obj({ from: INT, to: INT, stock: nullable(list(CARD)) })),
  buying: optional(obj({ window: nullable(INT), buys_left: list(nullable(INT)) })),
});

// ------------------------------------------------------------------ replies

const REPLY = tagged(
  'type',
  {
    hello: obj({ protocol: INT, name: STR, reports: optional(list(STR)) }),
    ok: obj({ events: optional(list(EVENT)) }),
    rejected: obj({ reason: optional(STR), message: STR }),
    state: obj({ state: STATE }),
    observation: obj({ observation: OBSERVATION }),
    legal: obj({ actions: list(ACTION) }),
    unsupported: obj({ reason: STR }),
    error: obj({ message: STR }),
    bye: obj({}),
  },
  'reply type',
);

/**
 * @param {Codec} codec @param {unknown} v
 */
function decode(codec, v) {
  try {
    return codec.dec(v);
  } catch (e) {
    throw e instanceof Bad ? e.toProtocolError() : e;
  }
}

/**
 * A message from the harness (a parsed JSON value) as a typed value; throws ProtocolError.
 * @param {unknown} v
 * @returns {Message}
 */
export function decodeMessage(v) {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw new ProtocolError('a message is a JSON object');
  }
  if (!Object.hasOwn(v, 'type')) throw new ProtocolError('`type`: missing (every message has a type)');
  return decode(MESSAGE, v);
}

/**
 * A typed message as its JSON object.
 * @param {Message} msg
 * @returns {Record<string, unknown>}
 */
export function encodeMessage(msg) {
  return MESSAGE.enc(msg);
}

/**
 * A reply (a parsed JSON value) as a typed value; throws ProtocolError.
 * @param {unknown} v
 * @returns {Reply}
 */
export function decodeReply(v) {
  return decode(REPLY, v);
}

/**
 * A typed reply as its JSON object.
 * @param {Reply} reply
 * @returns {Record<string, unknown>}
 */
export function encodeReply(reply) {
  return REPLY.enc(reply);
}

/**
 * Whether two JSON values are equal (objects compared by their keys, in any order).
 * @param {unknown} a @param {unknown} b
 * @returns {boolean}
 */
export function jsonEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every((k) => Object.hasOwn(b, k) && jsonEqual(/** @type {any} */ (a)[k], /** @type {any} */ (b)[k]))
  );
}
