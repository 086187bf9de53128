// The training API of the engine (engine.createTrainer, engine.train; web/core/engine.d.ts):
// what a lesson author scripting the experiment relies on — defaults from the core, curves that
// grow step by step, reset and seeds that replay, the shown example as symbols, batches and
// parameters, clear errors naming the field, and memory given back.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { createEngine } from '../../web/core/engine.js';

const engine = await createEngine();
const METRICS = ['loss', 'heldoutLoss', 'heldoutAccuracy', 'gradNormWq', 'gradNormWk', 'maxWeight', 'entropy', 'matchWeight'];
// a small experiment: quick, and still one that learns (Adam at a larger rate)
const SMALL = { dk: 16, steps: 40, batch: 8, heldout: 16, letters: 8, pairs: 4, queries: 4, dModel: 16, dv: 16, learningRate: 0.02 };

test('the defaults are the documented experiment (docs/training.md)', () => {
  const d = engine.trainDefaults;
  assert.deepEqual(
    { dk: d.dk, initScale: d.initScale, optimizer: d.optimizer, learningRate: d.learningRate, steps: d.steps, batch: d.batch, heldout: d.heldout, seed: d.seed },
    { dk: 128, initScale: 1, optimizer: 'adam', learningRate: 0.002, steps: 150, batch: 32, heldout: 64, seed: 1 },
  );
  assert.equal(engine.trainAccuracyGoal, 0.9);
  assert.equal(engine.limits.train.maxDk, 512);
  assert.ok(Object.isFrozen(d));
});

test('step() grows both runs\' curves; read(since) gives what came after; curves() everything', () => {
  const t = engine.createTrainer(SMALL);
  try {
    assert.equal(t.stepsDone, 0);
    assert.equal(t.step(), 1);
    assert.equal(t.step(9), 9);
    assert.equal(t.stepsDone, 10);
    const all = t.curves();
    assert.equal(all.step, 10);
    assert.equal(all.steps, SMALL.steps);
    assert.equal(all.done, false);
    assert.deepEqual(Object.keys(all.runs), ['scaled', 'unscaled']);
    for (const run of Object.values(all.runs)) {
      assert.equal(run.from, 0);
      assert.equal(run.steps, 10);
      for (const m of METRICS) assert.equal(run[m].length, 10, m);
      assert.equal(run.weights.length, SMALL.queries * SMALL.pairs);
    }
    assert.equal(all.runs.scaled.scale, Math.fround(1 / Math.sqrt(SMALL.dk)));
    assert.equal(all.runs.unscaled.scale, 1);
    t.step(5);
    const later = t.read(10);
    for (const [name, run] of Object.entries(later.runs)) {
      assert.equal(run.from, 10);
      assert.equal(run.loss.length, 5);
      // the tail of the full curves, value for value
      assert.deepEqual(run.heldoutLoss, t.curves().runs[name].heldoutLoss.subarray(10));
    }
    assert.equal(t.step(1000), SMALL.steps - 15); // never past config.steps
    assert.equal(t.done, true);
    assert.equal(t.step(), 0);
  } finally {
    t.dispose();
  }
});

test('the runs learn: the scaled run reaches the accuracy goal, and reachedAt and shownOnTarget agree with the curves', () => {
  const c = engine.train(SMALL);
  for (const [name, run] of Object.entries(c.runs)) {
    const first = run.heldoutAccuracy.findIndex((a) => a >= engine.trainAccuracyGoal);
    assert.equal(run.reachedAt, first + 1, name); // 0 when never reached
    assert.ok(run.shownOnTarget >= 0 && run.shownOnTarget <= SMALL.queries);
    for (let i = 0; i < SMALL.queries; i++) {
      const row = run.weights.subarray(i * SMALL.pairs, (i + 1) * SMALL.pairs);
      assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5, `${name}: row ${i} sums to 1`);
    }
  }
  assert.ok(c.runs.scaled.reachedAt > 0, `scaled run reached ${engine.trainAccuracyGoal} (accuracy at the end ${c.runs.scaled.heldoutAccuracy.at(-1)})`);
  assert.ok(c.runs.scaled.heldoutLoss.at(-1) < 0.5 * c.runs.scaled.heldoutLoss[0]);
});

test('the same seed gives the same curves; reset replays them; another seed differs', () => {
  const a = engine.createTrainer(SMALL);
  const b = engine.createTrainer(SMALL);
  const other = engine.createTrainer({ ...SMALL, seed: 7 });
  try {
    a.step(SMALL.steps);
    for (let k = 0; k < SMALL.steps; k += 3) b.step(3); // in other chunks
    other.step(SMALL.steps);
    const [ca, cb, co] = [a.curves(), b.curves(), other.curves()];
    for (const name of ['scaled', 'unscaled'])
      for (const m of METRICS) assert.deepEqual(ca.runs[name][m], cb.runs[name][m], `${name}.${m}`);
    assert.notDeepEqual(ca.runs.scaled.heldoutLoss, co.runs.scaled.heldoutLoss);
    a.reset();
    assert.equal(a.stepsDone, 0);
    assert.equal(a.curves().runs.scaled.steps, 0);
    assert.equal(a.batch().count, 0);
    a.step(SMALL.steps);
    assert.deepEqual(a.curves().runs.unscaled.heldoutLoss, ca.runs.unscaled.heldoutLoss);
    assert.deepEqual(a.curves().runs.unscaled.weights, ca.runs.unscaled.weights);
  } finally {
    for (const t of [a, b, other]) t.dispose();
  }
});

test('the shown example is held-out example 0, as letters and digits', () => {
  const t = engine.createTrainer(SMALL);
  try {
    const held = t.batch('heldout');
    const { pairs: P, queries: Qn } = SMALL;
    assert.equal(held.count, SMALL.heldout);
    const letter = (i) => 'abcdefghijklmnopqrstuvwxyz'[i];
    assert.deepEqual(t.example.keys, Array.from(held.keys.subarray(0, P), letter));
    assert.deepEqual(t.example.values, Array.from(held.values.subarray(0, P), String));
    assert.deepEqual(t.example.queries, Array.from(held.queries.subarray(0, Qn), letter));
    assert.deepEqual(t.example.target, Array.from(held.target.subarray(0, Qn)));
    assert.deepEqual(t.example.pairs, t.example.keys.map((k, j) => k + t.example.values[j]));
    // the task's contract: each query is the key of the pair it asks about, whose value is the answer
    t.example.queries.forEach((q, i) => {
      assert.equal(q, t.example.keys[t.example.target[i]]);
      assert.equal(t.example.answers[i], t.example.values[t.example.target[i]]);
    });
    assert.equal(t.maxEntropy, Math.fround(Math.log(P)));
  } finally {
    t.dispose();
  }
});

test('batch() and parameters(): what an author needs to train the same model elsewhere', () => {
  const t = engine.createTrainer(SMALL);
  try {
    assert.equal(t.batch().count, 0); // no step yet
    const initial = { scaled: t.parameters('scaled'), unscaled: t.parameters('unscaled') };
    const { letters, dModel: D, dk, dv } = SMALL;
    const sizes = { embedKey: letters * D, embedValue: 10 * D, wQ: D * dk, wK: D * dk, wV: D * dv, wO: dv * 10 };
    for (const [name, length] of Object.entries(sizes)) assert.equal(initial.scaled[name].length, length, name);
    assert.equal(Object.values(initial.scaled).reduce((n, x) => n + x.length, 0), t.parameterCount);
    assert.deepEqual(initial.scaled, initial.unscaled); // the same initialisation
    t.step();
    const b = t.batch();
    assert.equal(b.count, SMALL.batch);
    assert.equal(b.keys.length, SMALL.batch * SMALL.pairs);
    assert.equal(b.answers.length, SMALL.batch * SMALL.queries);
    assert.notDeepEqual(t.parameters('scaled').wQ, initial.scaled.wQ); // the step updated them
    assert.throws(() => t.parameters('both'), { name: 'TypeError', message: /run must be one of 'scaled', 'unscaled', got the string "both"/ });
    assert.throws(() => t.batch('next'), { name: 'TypeError', message: /which must be 'last' or 'heldout'/ });
  } finally {
    t.dispose();
  }
});

test('a bad config is refused with an error naming the field, the value and what was expected', () => {
  const cases = [
    [{ dk: 513 }, RangeError, 'ATTN_INVALID_SHAPE', 'dk must be an integer from 1 to 512, got 513'],
    [{ dk: 0 }, RangeError, 'ATTN_INVALID_SHAPE', 'dk must be an integer from 1 to 512, got 0'],
    [{ queries: 9 }, RangeError, 'ATTN_INVALID_SHAPE', 'queries must be an integer from 1 to 8, got 9'],
    [{ optimizer: 'Adam' }, RangeError, 'ATTN_INVALID_ARGUMENT', 'optimizer must be "sgd" or "adam", got "Adam"'],
    [{ learningRate: -1 }, RangeError, 'ATTN_INVALID_ARGUMENT', 'learningRate must be a positive finite number, got -1'],
    [{ learningRate: NaN }, RangeError, 'ATTN_INVALID_ARGUMENT', 'learningRate must be a positive finite number, got NaN'],
    [{ initScale: Infinity }, RangeError, 'ATTN_INVALID_ARGUMENT', 'initScale must be a positive finite number, got Infinity'],
    [{ initScale: 1e39 }, RangeError, 'ATTN_INVALID_ARGUMENT', 'initScale is 1e+39, beyond the float32 range'],
    [{ momentum: 1 }, RangeError, 'ATTN_INVALID_ARGUMENT', 'momentum must be at least 0 and less than 1, got 1'],
    [{ clipNorm: -1 }, RangeError, 'ATTN_INVALID_ARGUMENT', 'clipNorm must be 0 (off) or a positive finite number, got -1'],
    [{ steps: 100001 }, RangeError, 'ATTN_INVALID_SHAPE', 'steps must be an integer from 1 to 100000, got 100001'],
    [{ dk: 512, heldout: 1024, letters: 26, pairs: 26, queries: 26 }, RangeError, 'ATTN_TOO_LARGE', 'more than the limit of 134217728'],
    [{ steps: 1.5 }, TypeError, 'ATTN_INVALID_ARGUMENT', 'steps must be an integer, got number 1.5'],
    [{ seed: -1 }, TypeError, 'ATTN_INVALID_ARGUMENT', 'seed must be an integer from 0 to 4294967295'],
    [{ optimizer: 1 }, TypeError, 'ATTN_INVALID_ARGUMENT', 'optimizer must be a string, got number 1'],
    [{ learning_rate: 0.1 }, TypeError, 'ATTN_INVALID_ARGUMENT', 'unknown field "learning_rate"'],
    [[], TypeError, 'ATTN_INVALID_ARGUMENT', 'createTrainer takes one object of named arguments, got an array'],
  ];
  const heap = engine.heapBytes();
  for (const [config, type, code, message] of cases) {
    assert.throws(() => engine.createTrainer(config), (error) => {
      assert.ok(error instanceof type, `${JSON.stringify(config)}: ${error}`);
      assert.equal(error.code, code, error.message);
      assert.ok(error.message.includes(message), `${JSON.stringify(config)}: "${error.message}" should say "${message}"`);
      return true;
    });
  }
  assert.equal(engine.heapBytes(), heap, 'a refused config reserves nothing');
  const t = engine.createTrainer(SMALL); // and the engine goes on working
  t.dispose();
});

test('dispose() gives the memory back; a disposed trainer refuses every call; the number of live trainers is bounded', () => {
  const { maxTrainers } = engine.limits.train;
  const big = { dk: 512, steps: 10 }; // ~10 MB each
  const first = engine.createTrainer(big);
  first.dispose();
  first.dispose(); // twice is fine
  const heap = engine.heapBytes();
  for (let round = 0; round < 3; round++) engine.createTrainer(big).dispose();
  assert.equal(engine.heapBytes(), heap, 'creating and disposing again does not grow the heap');
  for (const call of [() => first.step(), () => first.curves(), () => first.reset(), () => first.batch(), () => first.parameters('scaled')])
    assert.throws(call, { code: 'ATTN_INVALID_ARGUMENT', message: /this trainer was disposed/ });

  const live = Array.from({ length: maxTrainers }, () => engine.createTrainer(SMALL));
  assert.throws(() => engine.createTrainer(SMALL), {
    name: 'RangeError',
    code: 'ATTN_TOO_LARGE',
    message: `createTrainer: ${maxTrainers} trainers are live, the most one engine holds: dispose() one you no longer need`,
  });
  live.pop().dispose();
  const again = engine.createTrainer(SMALL); // a slot is free again
  // a new trainer in an old one's slot: the old object cannot reach it
  assert.equal(again.step(2), 2);
  for (const t of [...live, again]) t.dispose();
});

test('a run that blows up stops with finite curves; the other run goes on', () => {
  // plain SGD at learning rate 3 (default sizes): the unscaled run blows up at step 12
  const c = engine.train({ steps: 60, optimizer: 'sgd', learningRate: 3, momentum: 0 });
  const { scaled, unscaled } = c.runs;
  assert.ok(unscaled.divergedAt > 1);
  assert.equal(unscaled.steps, unscaled.divergedAt - 1);
  assert.equal(scaled.divergedAt, 0);
  assert.equal(scaled.steps, 60);
  for (const [name, run] of Object.entries(c.runs)) {
    for (const m of METRICS) for (const x of run[m]) assert.ok(Number.isFinite(x), `${name}.${m}`);
    for (const w of run.weights) assert.ok(Number.isFinite(w));
  }
  // both blow up: the experiment still goes on to its last step (its data stream does)
  const both = engine.train({ ...SMALL, optimizer: 'sgd', learningRate: 1e30, momentum: 0 });
  for (const run of Object.values(both.runs)) assert.ok(run.divergedAt > 0);
  assert.equal(both.step, SMALL.steps);
});

test('a trainer dropped without dispose() gives its memory back once it is collected', async () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  const { maxTrainers } = engine.limits.train;
  (() => {
    for (let i = 0; i < maxTrainers; i++) engine.createTrainer(SMALL); // dropped at once
  })();
  assert.throws(() => engine.createTrainer(SMALL), { code: 'ATTN_TOO_LARGE' });
  // finalizers run some time after a collection: collect and wait until a slot is free
  let trainer = null;
  for (let attempt = 0; attempt < 50 && !trainer; attempt++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
    try {
      trainer = engine.createTrainer(SMALL);
    } catch (error) {
      assert.equal(error.code, 'ATTN_TOO_LARGE');
    }
  }
  assert.ok(trainer, 'no slot came free after 50 collections');
  trainer.dispose();
});
