// @ts-check
/**
 * A demonstration engine: the reference, `push-rummy serve`, behind the kit's typed layer.
 *
 * Every message the loop hands it (already read into the kit's types) is written back to JSON
 * from those types and sent to `push-rummy serve`; every reply is read into the kit's types,
 * checked to write back to exactly the JSON it came as, and returned to the loop, which writes it
 * again. So every card, action, meld and reading of the conformance suite goes through the kit's
 * notation code both ways, and the kit passes the suite only if it reads and writes all of them
 * right. It is how the kit itself is tested (tests/integration/adapters.rs), not an engine to copy.
 *
 * @typedef {import('./types.js').Message} Message
 * @typedef {import('./types.js').Reply} Reply
 * @typedef {import('./types.js').Action} Action
 * @typedef {import('./types.js').Start} Start
 */

import { spawn } from 'node:child_process';
import { Engine, Unsupported } from './engine.js';
import { ProtocolError, decodeReply, encodeMessage, encodeReply, jsonEqual } from './messages.js';
import { lines } from './protocol.js';

export class RelayEngine extends Engine {
  /** @param {string} pushRummy the push-rummy binary */
  constructor(pushRummy) {
    super();
    const child = spawn(pushRummy, ['serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
    child.on('error', (e) => {
      console.error(`cannot run ${pushRummy} serve: ${e.message} (give the binary with --push-rummy PATH)`);
      process.exit(2);
    });
    /** @type {import('node:child_process').ChildProcessByStdio<import('node:stream').Writable, import('node:stream').Readable, null> | null} */
    this.child = child;
    this.replies = lines(child.stdout);
  }

  /**
   * Sends `msg` (written from its types) to the reference; its reply, read into types.
   * @param {Message} msg
   * @returns {Promise<Reply>}
   */
  async ask(msg) {
    if (this.child === null) throw new ProtocolError('the reference has ended');
    this.child.stdin.write(`${JSON.stringify(encodeMessage(msg))}\n`);
    const next = await this.replies.next();
    if (next.done || typeof next.value === 'symbol') throw new ProtocolError('the reference closed its output');
    const raw = JSON.parse(next.value.toString('utf8'));
    const reply = decodeReply(raw);
    const again = encodeReply(reply);
    if (!jsonEqual(again, raw)) {
      throw new ProtocolError(
        `the kit does not write back what it read: ${JSON.stringify(raw).slice(0, 300)} became ${JSON.stringify(again).slice(0, 300)}`,
      );
    }
    if (reply.type === 'unsupported') throw new Unsupported(reply.reason);
    if (reply.type === 'error') throw new ProtocolError(`the reference: ${reply.message}`);
    return reply;
  }

  /**
   * @template {Reply['type']} T
   * @param {Message} msg @param {T} type
   * @returns {Promise<Extract<Reply, {type: T}>>}
   */
  async expect(msg, type) {
    const reply = await this.ask(msg);
    if (reply.type !== type) throw new ProtocolError(`the reference answered ${reply.type}, not ${type}`);
    return /** @type {any} */ (reply);
  }

  /** @param {number} protocol */
  async hello(protocol) {
    const reply = await this.expect({ type: 'hello', protocol }, 'hello');
    return { ...reply, name: `${reply.name} through the TypeScript kit` };
  }

  /** @param {Start} msg */
  async start(msg) {
    await this.expect(msg, 'ok');
  }

  /** @param {number} seat @param {Action} action */
  async apply(seat, action) {
    const reply = await this.ask({ type: 'apply', seat, action });
    if (reply.type !== 'ok' && reply.type !== 'rejected') {
      throw new ProtocolError(`the reference answered ${reply.type} to apply`);
    }
    return reply;
  }

  async state() {
    return (await this.expect({ type: 'state' }, 'state')).state;
  }

  /** @param {number} seat */
  async observe(seat) {
    return (await this.expect({ type: 'observe', seat }, 'observation')).observation;
  }

  async legal() {
    return (await this.expect({ type: 'legal' }, 'legal')).actions;
  }

  end() {
    const child = this.child;
    this.child = null;
    if (child === null) return;
    child.stdin.end(`${JSON.stringify(encodeMessage({ type: 'end' }))}\n`);
    const timer = setTimeout(() => child.kill(), 5000);
    timer.unref();
  }
}
