// The notebook widget, after anywidget's contract: `export default { render({ model, el }) }`,
// render returning its cleanup. Each view is a <model-view> (web/components/lesson/model-view.js)
// drawing the model's traits, as python/attention_lab/widget.py declares them:
//   tokens     [n] words
//   attention  [layer][1][head][n][n] weights, BertViz's shape (checked by the core; what is
//              wrong is said in the view)
//   layer, head  the opened head, from 1: a change in the model opens it in every view; the
//              learner opening another in one view sets them (save_changes) and the others follow.
//              Saved or edited notebook state may hold anything here (0, −1, null, 1.5, "2", or
//              nothing): the view opens the nearest valid head (nearestPosition), never throws
//   theme      'auto' (the reader's setting), 'light' or 'dark'
// scripts/build-widget.mjs bundles this module, the element and the core's SIMD .wasm into one
// file, web/build/attention-widget.js: anywidget imports it from a blob: URL, beside no files.
// Loaded twice (a cell run again), the elements are defined once (web/components/base.js define).
import '../components/lesson/model-view.js';

/**
 * The position from 1 nearest to `value` as a notebook's state may hold it: a number (or the
 * text of one) rounded, at least 1; anything else 1. The view keeps it within its layers and heads.
 */
export function nearestPosition(value) {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) return 1;
  return Math.max(1, Math.round(number));
}

function render({ model, el }) {
  const view = document.createElement('model-view');
  const showAttention = () => {
    view.attention = { tokens: model.get('tokens'), attention: model.get('attention') };
  };
  const showHead = () => {
    view.layer = nearestPosition(model.get('layer'));
    view.head = nearestPosition(model.get('head'));
  };
  const showTheme = () => {
    view.setAttribute('theme', model.get('theme') || 'auto');
    view.themeChanged();
  };
  // the learner opened another head here: the model (and so every other view) follows. Both read
  // first: setting the layer tells every view, this one too, the model's head of before.
  const onChange = (event) => {
    if (event.target !== view) return;
    const { layer, head } = view;
    model.set('layer', layer);
    model.set('head', head);
    model.save_changes();
  };
  const listeners = [
    ['change:tokens', showAttention], ['change:attention', showAttention],
    ['change:layer', showHead], ['change:head', showHead], ['change:theme', showTheme],
  ];
  showHead();
  showAttention();
  view.setAttribute('theme', model.get('theme') || 'auto');
  for (const [name, listener] of listeners) model.on(name, listener);
  view.addEventListener('change', onChange);
  el.append(view);
  return () => {
    for (const [name, listener] of listeners) model.off(name, listener);
    view.removeEventListener('change', onChange);
    view.remove();
  };
}

export default { render };
