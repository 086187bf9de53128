// Settings to try (the page's buttons; their words are in web/views/training-text.js): each one
// is the default experiment with a few fields changed, chosen from the measurements in
// docs/training.md to show where the difference between the runs is clear and where it is not.
export const PRESETS = Object.freeze({
  default: Object.freeze({}),
  smallDk: Object.freeze({ dk: 4 }),
  plainSgd: Object.freeze({ optimizer: 'sgd', learningRate: 0.1, momentum: 0 }),
  smallInit: Object.freeze({ initScale: 0.25 }),
  unstable: Object.freeze({ optimizer: 'sgd', learningRate: 0.3, momentum: 0.9 }),
  // Dropping √d_k is initialising W_Q and W_K d_k^¼ times larger: q·k/√d_k = (d_k^−¼ q)·(d_k^−¼ k).
  // g = 128^−¼ (the default d_k; 0.29730… to 4 digits) starts the unscaled run where the
  // default's scaled run starts; both runs take it, so the scaled run here starts nearly even.
  matchedInit: Object.freeze({ initScale: 0.2973 }),
});

/** The default d_k the matchedInit preset's g is computed for (a test holds it to the core's default). */
export const MATCHED_INIT_DK = 128;

/** The fields the page's controls set; the others keep the core's defaults. */
export const CONTROLLED = Object.freeze(['dk', 'initScale', 'optimizer', 'learningRate', 'momentum', 'steps', 'seed']);

/** The controls' values for `preset` (a key of PRESETS): the defaults, the preset's changes, and the learner's steps and seed kept. */
export function presetSettings(preset, defaults, current) {
  const settings = Object.fromEntries(CONTROLLED.map((field) => [field, defaults[field]]));
  return { ...settings, steps: current.steps, seed: current.seed, ...PRESETS[preset] };
}
