// @ts-check
/**
 * The protocol loop: JSON lines on stdin, one reply line per message on stdout.
 *
 * What it answers itself, as `push-rummy serve` does: a line that is not JSON, too long (over
 * `MAX_LINE` bytes), not an object, without a `type` or of an unknown type, a message before
 * `hello`, a game message before `start`, a field missing or of the wrong type, an action or a
 * card that does not read: an `error` reply, and the loop carries on. `end` gets `bye` and ends
 * the loop, as does the end of the input.
 *
 * @typedef {import('./types.js').Reply} Reply
 * @typedef {import('./types.js').EngineInterface} EngineInterface
 */

import { Unsupported } from './engine.js';
import {
  MAX_LINE,
  ProtocolError,
  decodeMessage,
  encodeMessage,
  encodeReply,
  jsonEqual,
} from './messages.js';

/** What `lines` yields for a line over the limit. */
export const TOO_LONG = Symbol('too long');

/**
 * The lines of a byte stream, without their newlines; a line over `limit` bytes is skipped to
 * its end and yielded as `TOO_LONG`.
 * @param {AsyncIterable<Buffer>} input
 * @param {number} [limit]
 * @returns {AsyncGenerator<Buffer | typeof TOO_LONG>}
 */
export async function* lines(input, limit = MAX_LINE) {
  /** @type {Buffer[]} */
  let parts = [];
  let size = 0;
  let tooLong = false;
  for await (const chunk of input) {
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(10, from);
      const piece = chunk.subarray(from, nl < 0 ? chunk.length : nl);
      if (!tooLong) {
        parts.push(piece);
        size += piece.length;
        if (size > limit + 1) {
          tooLong = true;
          parts = [];
        }
      }
      if (nl < 0) break;
      let line = Buffer.concat(parts);
      if (line.length > 0 && line[line.length - 1] === 13) line = line.subarray(0, -1);
      const long = tooLong || line.length > limit;
      parts = [];
      size = 0;
      tooLong = false;
      yield long ? TOO_LONG : line;
      from = nl + 1;
    }
  }
  if (tooLong) yield TOO_LONG;
  else if (size > 0) yield Buffer.concat(parts);
}

/**
 * One message (a parsed JSON value) and its reply. `strict`: the message must write back from
 * its types to exactly `value` (the kit's self-test).
 * @param {EngineInterface} engine
 * @param {unknown} value
 * @param {{hello?: boolean, started?: boolean}} session
 * @param {boolean} strict
 * @returns {Promise<Reply>}
 */
export async function handle(engine, value, session, strict = false) {
  const kind = value && typeof value === 'object' ? /** @type {{type?: unknown}} */ (value).type : undefined;
  if (kind === 'rules' || kind === 'query') {
    // Single questions (conformance/README.md, Questions) are not in the kit: answer them here
    // if your engine can, or leave them unsupported.
    throw new Unsupported('single questions are not implemented (only games)');
  }
  const msg = decodeMessage(value);
  if (strict && !jsonEqual(encodeMessage(msg), value)) {
    throw new ProtocolError(
      `the kit does not write back what it read: ${JSON.stringify(value).slice(0, 300)} became ${JSON.stringify(encodeMessage(msg)).slice(0, 300)}`,
    );
  }
  switch (msg.type) {
    case 'end':
      await engine.end();
      return { type: 'bye' };
    case 'hello': {
      const reply = await engine.hello(msg.protocol);
      session.hello = true;
      return reply;
    }
  }
  if (!session.hello) throw new ProtocolError('the first message must be `hello`');
  if (msg.type === 'start') {
    await engine.start(msg);
    session.started = true;
    return { type: 'ok', events: [] };
  }
  if (!session.started) throw new ProtocolError('no game: send `start` first');
  switch (msg.type) {
    case 'apply':
      return engine.apply(msg.seat, msg.action);
    case 'state':
      return { type: 'state', state: await engine.state() };
    case 'observe':
      return { type: 'observation', observation: await engine.observe(msg.seat) };
    case 'legal':
      return { type: 'legal', actions: await engine.legal() };
  }
  throw new ProtocolError(`unexpected message ${JSON.stringify(msg)}`);
}

/** @param {Reply} reply */
function text(reply) {
  return JSON.stringify(encodeReply(reply));
}

/** @param {string} s */
function cut(s) {
  return s.length > 2000 ? `${s.slice(0, 2000)}…` : s;
}

/**
 * The reply to one line: the engine's, or an `error` or `unsupported` reply of the loop.
 * @param {EngineInterface} engine
 * @param {Buffer | typeof TOO_LONG} line
 * @param {{hello?: boolean, started?: boolean}} session
 * @param {boolean} strict
 * @returns {Promise<Reply>}
 */
async function replyTo(engine, line, session, strict) {
  if (line === TOO_LONG) return { type: 'error', message: `the line is longer than ${MAX_LINE} bytes` };
  let value;
  try {
    value = JSON.parse(line.toString('utf8'));
  } catch (e) {
    return { type: 'error', message: cut(`not JSON: ${/** @type {Error} */ (e).message}`) };
  }
  try {
    return await handle(engine, value, session, strict);
  } catch (e) {
    if (e instanceof Unsupported) return { type: 'unsupported', reason: e.reason };
    if (e instanceof ProtocolError) return { type: 'error', message: cut(e.message) };
    // A bug in the engine: say so, in full on stderr.
    console.error(e);
    return { type: 'error', message: cut(`the engine failed: ${String(e)}`) };
  }
}

/**
 * Serves the protocol on stdin/stdout until `end` or the end of input.
 * @param {EngineInterface} engine
 * @param {{strict?: boolean, input?: AsyncIterable<Buffer>, write?: (line: string) => void}} [options]
 */
export async function run(engine, options = {}) {
  const input = options.input ?? process.stdin;
  const write = options.write ?? ((/** @type {string} */ line) => process.stdout.write(line));
  /** @type {{hello?: boolean, started?: boolean}} */
  const session = {};
  for await (const line of lines(input)) {
    if (line !== TOO_LONG && line.toString('utf8').trim() === '') continue;
    const reply = await replyTo(engine, line, session, options.strict ?? false);
    let out = text(reply);
    if (Buffer.byteLength(out) > MAX_LINE) {
      out = text({ type: 'error', message: `the reply would be longer than ${MAX_LINE} bytes: not sent` });
    }
    write(`${out}\n`);
    if (reply.type === 'bye') return;
  }
  await engine.end();
}
