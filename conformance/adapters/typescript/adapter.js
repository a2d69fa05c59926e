#!/usr/bin/env node
// @ts-check
/**
 * Puts an engine under `push-rummy conform`: the protocol on stdin/stdout.
 *
 *     node adapter.js                        # your engine: MyEngine in my_engine.js
 *     node adapter.js --relay [--push-rummy PATH]
 *                                            # the demonstration: the reference through the kit
 *
 * `--relay` runs `push-rummy serve` (PATH, else $PUSH_RUMMY, else `push-rummy` on the PATH)
 * behind the kit's typed layer, each message read into the kit's types and written back from
 * them, and checks that each one writes back to exactly what came in.
 */

import { run } from './src/protocol.js';

const args = process.argv.slice(2);
const at = args.indexOf('--push-rummy');
const unknown = args.filter((a, i) => a !== '--relay' && a !== '--push-rummy' && !(at >= 0 && i === at + 1));
if (unknown.length > 0 || (at >= 0 && at + 1 >= args.length)) {
  console.error('usage: node adapter.js [--relay [--push-rummy PATH]]');
  process.exit(2);
}
if (args.includes('--relay')) {
  const { RelayEngine } = await import('./src/relay.js');
  const pushRummy = at >= 0 ? args[at + 1] : process.env.PUSH_RUMMY || 'push-rummy';
  await run(new RelayEngine(pushRummy), { strict: true });
} else {
  const { MyEngine } = await import('./my_engine.js');
  await run(new MyEngine());
}
