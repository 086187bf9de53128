// Settings to try (the page's buttons; their words are in web/views/training-text.js): each one
// is the default experiment with a few fields changed, chosen from the measurements in
// docs/training.md to show where the difference between the runs is clear and where it is not.
export const PRESETS = Object.freeze({
  default: Object.freeze({}),
  smallDk: Object.freeze({ dk: 4 }),
  plainSgd: Object.freeze({ optimizer: 'sgd', learningRate: 0.1, momentum: 0 }),
  smallInit: Object.freeze({ initScale: 0.25 }),
  unstable: Object.freeze({ optimizer: 'sgd', learningRate: 0.3, momentum: 0.9 }),
});

/** The fields the page's controls set; the others keep the core's defaults. */
export const CONTROLLED = Object.freeze(['dk', 'initScale', 'optimizer', 'learningRate', 'momentum', 'steps', 'seed']);

/** The controls' values for `preset` (a key of PRESETS): the defaults, the preset's changes, and the learner's steps and seed kept. */
export function presetSettings(preset, defaults, current) {
  const settings = Object.fromEntries(CONTROLLED.map((field) => [field, defaults[field]]));
  return { ...settings, steps: current.steps, seed: current.seed, ...PRESETS[preset] };
}
