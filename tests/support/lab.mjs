// What the lesson's Node tests share: the engine, the vocabulary, the lab's pipeline, the lesson
// model, and `state(patch)` — the lab's state at the default settings changed by `patch`, which
// must be valid (a rejected setting fails the test that asked for it).
//
//   const { engine, vocab, pipeline, model, state } = await labFixture();
import assert from 'node:assert/strict';

import { createEngine } from '../../web/core/engine.js';
import { loadVocab } from '../../web/core/vocab.js';
import { LabPipeline } from '../../web/lab/inputs.js';
import { createStore } from '../../web/lab/settings.js';
import { labState } from '../../web/lab/state.js';
import { LessonModel } from '../../web/lesson/model.js';

/** The engine, every vocabulary bucket (from the package's files), the pipeline, the model. */
export async function labFixture() {
  const engine = await createEngine();
  const vocab = await loadVocab();
  const pipeline = new LabPipeline(engine, vocab);
  const model = new LessonModel(engine);
  const state = (patch = {}) => {
    const store = createStore();
    const { rejected } = store.set({ probe: '', ...patch });
    assert.deepEqual(rejected, {}, 'the test settings are valid');
    return labState(store.get(), pipeline, engine);
  };
  return { engine, vocab, pipeline, model, state };
}
