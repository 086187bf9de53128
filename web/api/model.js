// `attention-lab/model`: the trained language model as an API — either twin of docs/model.md, the
// same small transformer trained with and without √d_k, loaded from the package's own files and
// run on a text the way the page runs it — and attention from any model, checked. The code lives
// in web/lesson/trained-model.js, which the page's <model-view> stands on too.
//
//   const model = await loadModel({ variant: 'scaled' });
//   const r = model.run('the cat sat on the');
//   r.attention[0][2];          // layer 1, head 3: n×n, row = query, causal
//   r.next.top[0];              // { word, id, probability }: the most likely next word
//   model.run('the cat sat on the', { scaleAtInference: false });   // the rows without √d_k
//   await attentionFromBertViz(jsonText);   // any model's attention, in BertViz's shape, checked
export { VARIANTS, attentionFromBertViz, loadCurves, loadModel, modelDescription, repeatedSequences } from '../lesson/trained-model.js';
