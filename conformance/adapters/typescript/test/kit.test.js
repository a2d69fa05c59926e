// @ts-check
// The kit's notation and protocol loop, without the harness: `node --test test/`
// (from conformance/adapters/typescript).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JOKER, NotationError, canonical, cardText, parseCard, parseCards, prettyCard } from '../src/cards.js';
import { Engine, Unsupported } from '../src/engine.js';
import { MAX_LINE, decodeMessage, encodeMessage } from '../src/messages.js';
import {
  actionText,
  describedReadingText,
  parseAction,
  parseDescribedReading,
  parseReading,
  readingText,
} from '../src/notation.js';
import { run } from '../src/protocol.js';

test('cards: every spelling, one canonical form', () => {
  for (const [text, want] of [
    ['10H', '10H'], ['th', '10H'], ['t♥', '10H'], ['1s', 'AS'], ['Jk', 'JK'], ['joker', 'JK'], ['qc', 'QC'], ['2♦', '2D'],
  ]) {
    assert.equal(cardText(parseCard(text)), want, text);
  }
  assert.equal(parseCard('JK'), JOKER);
  assert.equal(prettyCard(parseCard('9h')), '9♥');
  for (const text of ['', '11H', 'H', '10X', 'JKK', '0S']) assert.throws(() => parseCard(text), NotationError, text);
  assert.deepEqual(canonical(parseCards('JK KC, AS 10H 2S')).map(cardText), ['AS', '2S', '10H', 'KC', 'JK']);
});

test('actions: canonical forms and refusals', () => {
  for (const [text, want] of [
    ['Take-Discard', 'take-discard'],
    [' discard th ', 'discard 10H'],
    ['meld set [7S 7H JK=7] run [9♥,10♥ jk JK=JH qh]', 'meld set [7S 7H JK JK=7] run [9H 10H JK QH JK=JH]'],
    ['rescue 1 8S for JK then lay-off 0 [JK=9S] join 2', 'rescue 1 8S for JK then lay-off 0 [JK JK=9S] join 2'],
    ['lay-off 0 [2D 2D=9H]', 'lay-off 0 [2D 2D=9H]'],
    ['meld [7S 7H JK JK=7]', 'meld [7S 7H JK JK=7]'],
  ]) {
    assert.equal(actionText(parseAction(text)), want, text);
  }
  const m = parseAction('meld [7S 7H JK=7]');
  assert.ok(m.type === 'meld' && m.melds[0].cards.length === 3);
  for (const [text, want] of [
    ['', 'ends where an action'],
    ['draw', 'unknown action `draw`'],
    ['discard 11H', 'cannot read card `11H`'],
    ['meld', 'at least one meld'],
    ['meld [7S 7H', 'ends where `]`'],
    ['meld [7H=7]', 'only a wild card'],
    ['lay-off x [9H]', '`x` is not the meld'],
    ['rescue 1 8S with JK', 'expected `for`'],
    ['rescue 1 8S for JK then discard 9H', 'after `then`'],
    ['push now', 'unexpected `now`'],
    ['meld []', 'no cards'],
  ]) {
    assert.throws(() => parseAction(text), (e) => e instanceof NotationError && e.message.includes(want), text);
  }
});

test('readings: both notations', () => {
  for (const text of ['set 7: JK=7 7S 7H', 'run H 2-A: 2H 2S=3H JK=4H 5H', 'run * 3-5: 3S 4H 2C=5', 'set ?: JK JK']) {
    assert.equal(readingText(parseReading(text)), text);
  }
  for (const text of ['set of 7s', 'run 4♥–J♥', 'run J–A', 'set of 10s']) {
    assert.equal(describedReadingText(parseDescribedReading(text)), text);
  }
});

/** Draws 9H for whoever asks; refuses a discard. */
class Canned extends Engine {
  constructor() {
    super();
    this.name = 'canned';
    this.reports = ['events', 'reason-codes'];
  }

  /** @param {import('../src/types.js').Start} msg */
  start(msg) {
    if (msg.players !== 4) throw new Unsupported('four players only');
  }

  /** @param {number} seat @param {import('../src/types.js').Action} action @returns {import('../src/types.js').OkReply | import('../src/types.js').RejectedReply} */
  apply(seat, action) {
    if (action.type === 'discard') return { type: 'rejected', reason: 'must-draw-first', message: 'not now' };
    return { type: 'ok', events: [{ event: 'drew', seat, card: parseCard('9H') }] };
  }
}

/** @param {string[]} lines */
async function converse(lines) {
  /** @type {string[]} */
  const out = [];
  async function* input() {
    yield Buffer.from(lines.map((l) => `${l}\n`).join(''));
  }
  await run(new Canned(), { input: input(), write: (l) => out.push(l) });
  return out.join('').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
}

const START = {
  type: 'start', protocol: 2, players: 4, dealer: 0, round: 1, scores: [],
  generator: '18446744073709551615', decks: [],
  rules: { game: 'push', name: 'Push Rummy', fingerprint: 'x', values: {} },
  position: {
    turn: 1, stage: 'draw', taken: null, hands: [['9H'], [], [], []], stock: ['JK'], discard: ['8H'], contract_met: [],
    table: [{ owner: 0, meld: 'set [7S 7H JK JK=7]', cards: ['7S', '7H', 'JK'] }],
  },
};

test('the loop: a conversation', async () => {
  const replies = await converse([
    '{"type":"state"}',
    '{"type":"hello","protocol":2}',
    '{"type":"apply","seat":1,"action":"push"}',
    JSON.stringify(START),
    '{"type":"apply","seat":1,"action":"push"}',
    '{"type":"apply","seat":1,"action":"discard 9H"}',
    '{"type":"apply","seat":1,"action":"dance"}',
    '{"type":"apply","seat":"one","action":"push"}',
    '{"type":"state"}',
    '{"type":"legal"}',
    'not json',
    '[1]',
    '{"type":"shuffle"}',
    'x'.repeat(MAX_LINE + 10),
    '{"type":"end"}',
    '{"type":"state"}',
  ]);
  assert.equal(replies[0].type, 'error');
  assert.deepEqual(replies[1], { type: 'hello', protocol: 2, name: 'canned', reports: ['events', 'reason-codes'] });
  assert.deepEqual(replies[2], { type: 'error', message: 'no game: send `start` first' });
  assert.deepEqual(replies[3], { type: 'ok', events: [] });
  assert.deepEqual(replies[4], { type: 'ok', events: [{ event: 'drew', seat: 1, card: '9H' }] });
  assert.deepEqual(replies[5], { type: 'rejected', reason: 'must-draw-first', message: 'not now' });
  assert.match(replies[6].message, /unknown action `dance`/);
  assert.deepEqual(replies[7], { type: 'error', message: '`seat`: expected an integer' });
  assert.equal(replies[8].type, 'unsupported');
  assert.equal(replies[9].type, 'unsupported');
  assert.match(replies[10].message, /^not JSON/);
  assert.equal(replies[11].type, 'error');
  assert.match(replies[12].message, /unknown message type/);
  assert.match(replies[13].message, /longer than/);
  assert.deepEqual(replies[14], { type: 'bye' });
  assert.equal(replies.length, 15);
});

test('the loop: unsupported rules, protocol 1', async () => {
  const replies = await converse(['{"type":"hello","protocol":1}', JSON.stringify({ ...START, players: 3 })]);
  assert.deepEqual(replies[0], { type: 'hello', protocol: 1, name: 'canned' });
  assert.deepEqual(replies[1], { type: 'unsupported', reason: 'four players only' });
});

test('start keeps every field', () => {
  const msg = decodeMessage(START);
  assert.ok(msg.type === 'start' && msg.generator === 2n ** 64n - 1n);
  assert.deepEqual(encodeMessage(msg), START);
});
