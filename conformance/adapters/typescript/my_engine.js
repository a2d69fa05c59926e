// @ts-check
/**
 * YOUR ENGINE HERE.
 *
 * This is the one file to fill in: make `MyEngine` call your engine. The protocol loop
 * (src/protocol.js) has already checked each message and read it into typed values
 * (src/types.d.ts: cards are `Card`, actions `Action`, …); what you return is written back as
 * JSON. Throw `new Unsupported('why')` for what your engine does not implement: the harness
 * reports that scenario as skipped instead of failed. Methods may be async.
 *
 * Run the suite against it: `push-rummy conform --impl 'node conformance/adapters/typescript/adapter.js'`.
 *
 * @typedef {import('./src/types.js').Action} Action
 * @typedef {import('./src/types.js').Start} Start
 * @typedef {import('./src/types.js').State} State
 * @typedef {import('./src/types.js').Observation} Observation
 * @typedef {import('./src/types.js').OkReply} OkReply
 * @typedef {import('./src/types.js').RejectedReply} RejectedReply
 */

import { Engine, Unsupported } from './src/engine.js';

export class MyEngine extends Engine {
  constructor() {
    super();
    this.name = 'my-engine';
    // What your engine reports (protocol 2); the harness compares only these. Drop 'legal' and
    // 'observe' unless you implement those methods, 'events' if your engine has no events, …
    this.reports = ['reason-codes', 'events', 'readings', 'legal', 'observe', 'rescue-wild'];
  }

  /** @param {Start} msg */
  // eslint-disable-next-line no-unused-vars
  start(msg) {
    // msg.rules.values: every rule as text ('decks.jokers': '4', rounds: '6:set of 3,…');
    // msg.position: hands, stock and discard (top first), table melds, turn, stage, …
    throw new Unsupported('MyEngine is not written yet: see conformance/adapters/typescript/my_engine.js');
  }

  /**
   * @param {number} seat @param {Action} action
   * @returns {OkReply | RejectedReply}
   */
  // eslint-disable-next-line no-unused-vars
  apply(seat, action) {
    // { type: 'ok', events: [{ event: 'drew', seat, card: parseCard('9H') }, …] }
    // or { type: 'rejected', reason: 'must-discard', message: 'why' }.
    throw new Unsupported('apply');
  }

  /** @returns {State} */
  state() {
    throw new Unsupported('state');
  }

  /** @param {number} seat @returns {Observation} */
  // eslint-disable-next-line no-unused-vars
  observe(seat) {
    throw new Unsupported('observe');
  }

  /** @returns {Action[]} */
  legal() {
    throw new Unsupported('legal');
  }
}
