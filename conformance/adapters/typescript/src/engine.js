// @ts-check
/**
 * The interface between the protocol loop and an engine: extend `Engine` (or implement
 * `EngineInterface` from src/types.d.ts).
 *
 * The loop (src/protocol.js) reads each message, checks it, turns it into typed values and calls
 * one method here; what the method returns (or the promise resolves to) becomes the reply. Throw
 * `Unsupported(reason)` for a rule, reading or action the engine does not implement (the harness
 * then skips the scenario) and `ProtocolError(message)` for a message it cannot understand (an
 * `error` reply).
 *
 * @typedef {import('./types.js').Action} Action
 * @typedef {import('./types.js').HelloReply} HelloReply
 * @typedef {import('./types.js').Start} Start
 * @typedef {import('./types.js').State} State
 * @typedef {import('./types.js').Observation} Observation
 * @typedef {import('./types.js').OkReply} OkReply
 * @typedef {import('./types.js').RejectedReply} RejectedReply
 * @typedef {import('./types.js').EngineInterface} EngineInterface
 */

import { CAPABILITIES, ProtocolError } from './messages.js';

export { ProtocolError };

/** The engine does not implement this rule, reading or action: an `unsupported` reply. */
export class Unsupported extends Error {
  /** @param {string} reason */
  constructor(reason) {
    super(reason);
    this.reason = reason;
  }
}

/**
 * An engine under `push-rummy conform`. One instance serves one run of the program, that is one
 * scenario (or one random game): `start` comes once, after `hello`.
 * @implements {EngineInterface}
 */
export class Engine {
  constructor() {
    /** The name the engine gives in its `hello` reply. */
    this.name = 'my-engine';
    /**
     * What the engine reports (protocol 2): the harness compares only these (and hands, stock,
     * discard pile, table cards and totals whatever is listed). Leave out what your engine does
     * not do (`legal`, `observe`, `events`, …).
     * @type {string[]}
     */
    this.reports = [...CAPABILITIES];
  }

  /**
   * The `hello` reply to an offer of `protocol`: 2 with `reports` where offered.
   * @param {number} protocol
   * @returns {HelloReply | Promise<HelloReply>}
   */
  hello(protocol) {
    if (protocol >= 2) return { type: 'hello', protocol: 2, name: this.name, reports: [...this.reports] };
    if (protocol === 1) return { type: 'hello', protocol: 1, name: this.name };
    throw new ProtocolError(`\`protocol\`: this engine speaks protocol 1 or 2, not ${protocol}`);
  }

  /**
   * Set up the game at `msg.position` under `msg.rules`.
   * @param {Start} msg
   * @returns {void | Promise<void>}
   */
  // eslint-disable-next-line no-unused-vars
  start(msg) {
    throw new Unsupported('start is not implemented');
  }

  /**
   * Play `action` for `seat`: ok with its events, or rejected with a reason code, changing nothing.
   * @param {number} seat
   * @param {Action} action
   * @returns {OkReply | RejectedReply | Promise<OkReply | RejectedReply>}
   */
  // eslint-disable-next-line no-unused-vars
  apply(seat, action) {
    throw new Unsupported('apply is not implemented');
  }

  /**
   * The whole state, as the transcript writes it.
   * @returns {State | Promise<State>}
   */
  state() {
    throw new Unsupported('state is not implemented');
  }

  /**
   * What `seat` may see. Optional: leave `observe` out of `reports`.
   * @param {number} seat
   * @returns {Observation | Promise<Observation>}
   */
  // eslint-disable-next-line no-unused-vars
  observe(seat) {
    throw new Unsupported('observations are not implemented');
  }

  /**
   * The legal actions of the seat to play (no new melds, no multi-card lay-offs). Optional:
   * leave `legal` out of `reports`.
   * @returns {Action[] | Promise<Action[]>}
   */
  legal() {
    throw new Unsupported('legal-action lists are not implemented');
  }

  /**
   * The run ends: release what the engine holds.
   * @returns {void | Promise<void>}
   */
  end() {}
}
