// The engine's table of calls (web/core/calls.js) against itself: a row's `read` (the fast
// destructuring of the two per-frame calls) must give the arguments its `args` list names, in
// that order, so the two cannot drift apart.
import assert from 'node:assert/strict';
import test from 'node:test';

import { CHECK, COMPILED } from '../../web/core/calls.js';

test('each read gives the arguments of its row, in the order of args', () => {
  const rows = Object.entries(COMPILED).filter(([, row]) => row.read !== null);
  assert.ok(rows.length >= 2, 'attention and attentionStreaming have a read');
  for (const [method, row] of rows) {
    // every property a distinct marker: what read returns shows which name it read
    const marker = new Proxy({}, { get: (_, name) => `marker of ${String(name)}` });
    const object = {};
    for (const a of row.args) if (a.kind !== CHECK) object[a.key] = marker[a.key];
    const given = row.read(object);
    assert.equal(given.length, row.args.length, `${method}: one value per argument`);
    row.args.forEach((a, i) => {
      if (a.kind === CHECK) assert.equal(given[i], undefined, `${method}: args[${i}] (${a.name}) is a check`);
      else assert.equal(given[i], `marker of ${a.key}`, `${method}: args[${i}] is ${a.name}`);
    });
  }
});
