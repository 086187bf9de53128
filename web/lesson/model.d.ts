// Types of the lesson's model (web/lesson/model.js): a lab state and the lesson's own settings
// in, every instrument's results out. Arrays are shared with the engine's results and the
// model's cache: treat them as read-only.
import type { DotHistogram, Engine, LessonConstants, NaiveSoftmax, SaturationSweep, StepTrace, VarianceCurve } from '../core/engine.js';
import type { LabState } from '../components/attention-lab.js';

/** Most tokens the sweeps and the heads take (the first ones of the sentence). */
export const LESSON_MAX_TOKENS: 24;
/** The widths of every sweep over d_k: 1, 2, 4, … 1024. */
export const SWEEP_DIMS: readonly number[];
/** Most heads the multi-head view splits d_k into (the core's limit). */
export const MAX_HEADS: 8;

/** The lesson's own settings (not the lab's). */
export interface LessonSettings {
  /** heads of the multi-head view, 1 … MAX_HEADS */
  heads: number;
  /** the key step by step follows; null: the query's own position */
  key: number | null;
}
export const LESSON_DEFAULTS: Readonly<LessonSettings>;

/** The settings after `patch`, and what it rejected and why. */
export function updateLessonSettings(
  settings: Readonly<LessonSettings>,
  patch: Partial<LessonSettings>,
): { settings: Readonly<LessonSettings>; rejected: Record<string, string> };

/** What an instrument shows instead of a picture when the state cannot feed it. */
export interface Empty {
  empty: string;
}

export interface VarianceResults {
  /** the lab's width d (d_k on Random, 100 on Identity, the pasted width) */
  dk: number;
  samples: number;
  draws: number;
  /** random pairs, at every width of SWEEP_DIMS */
  curve: VarianceCurve;
  /** the sentence's words (null below 2 words or without word vectors) */
  tokenCurve: VarianceCurve | null;
  /** at dk; axis ±4√dk, picked by the core */
  histograms: { d: number; samples: number; sqrtD: number; unscaled: DotHistogram; scaled: DotHistogram };
  /** the variances at dk (measured there alone when dk is not a power of two) */
  at: { random: { unscaled: number; scaled: number }; tokens: { unscaled: number; scaled: number } | null };
}

export interface RowAtWidth {
  /** rows extremely peaked / nearly flat at dk (the core's counts) */
  peaked: number;
  flat: number;
  meanMaxWeight: number;
  /** the selected row, null when it is past the sweep's tokens */
  maxWeight: number | null;
  entropy: number | null;
}

/** The lab's own row: the ◆ on the sweeps. */
export interface LabRow {
  d: number;
  word: string;
  maxWeight: number;
  entropy: number;
  scaled: boolean;
}

export interface SaturationResults {
  /** tokens of the sweeps */
  t: number;
  dk: number;
  unscaled: SaturationSweep;
  scaled: SaturationSweep;
  /** ln t, from the core */
  maxEntropy: number;
  constants: LessonConstants;
  at: { unscaled: RowAtWidth; scaled: RowAtWidth };
  /** the selected row in the sweeps (null past them) and its word */
  row: number | null;
  word: string | null;
  lab: LabRow;
}

export interface JacobianPanel {
  scaled: boolean;
  /** diag(p) − p pᵀ of the selected row, m×m */
  jacobian: Float32Array;
  /** ‖∂L/∂z‖ for L = ⟨g, p⟩ */
  norm: number;
  maxWeight: number;
  entropy: number;
}

export interface GradientResults {
  m: number;
  d: number;
  word: string;
  keyLabels: readonly string[];
  /** the lab's scaling: that panel is the lab's own result, the other follows the lab's rule */
  labScaled: boolean;
  /** unscaled, then scaled */
  panels: [JacobianPanel, JacobianPanel];
  sweeps: { unscaled: SaturationSweep; scaled: SaturationSweep } | null;
  t: number;
  sweepRow: number | null;
}

export interface StepResults {
  row: number;
  key: number;
  m: number;
  d: number;
  queryLabels: readonly string[];
  keyLabels: readonly string[];
  /** the query's and the key's rows of Q and K (d each) */
  q: Float32Array;
  k: Float32Array;
  scaled: boolean;
  temperature: number;
  /** keys 0 … visible − 1 are visible (the lab's mask) */
  visible: number;
  trace: StepTrace;
}

export interface OverflowResults {
  row: number;
  d: number;
  scaled: boolean;
  temperature: number;
  queryLabels: readonly string[];
  keyLabels: readonly string[];
  /** ln(FLT_MAX) */
  threshold: number;
  naive: NaiveSoftmax;
  /** the stable softmax of the same scores ÷ T */
  stable: Float32Array;
}

export interface HeadsResults {
  heads: number;
  maxHeads: number;
  /** width of each head: ⌊dk / heads⌋ */
  d: number;
  dk: number;
  t: number;
  tokens: readonly string[];
  /** heads×t×t */
  weights: Float32Array;
  /** t×(heads·d) */
  concat: Float32Array;
}

/** The output of the lab's selected query: its weights mix the value rows, o = Σ_j p_j v_j. */
export interface OutputResults {
  row: number;
  m: number;
  /** the width of a value vector (100: the word vectors; the pasted V's width) */
  dv: number;
  projection: string;
  positional: boolean;
  queryLabels: readonly string[];
  keyLabels: readonly string[];
  /** the row's weights p (m) */
  weights: Float32Array;
  /** the keys by weight, largest first */
  order: number[];
  /** V (m×dv row-major): the lab's values (the word vectors: W_V is the identity) */
  values: Float32Array;
  /** the row's output (dv), the engine's attention output */
  output: Float32Array;
}

export class LessonModel {
  constructor(engine: Engine);
  variance(state: LabState): VarianceResults;
  saturation(state: LabState): SaturationResults | Empty;
  gradient(state: LabState): GradientResults | Empty;
  step(state: LabState, lesson?: LessonSettings): StepResults | Empty;
  output(state: LabState): OutputResults | Empty;
  overflow(state: LabState): OverflowResults;
  heads(state: LabState, lesson?: LessonSettings): HeadsResults | Empty;
}

/** Equal values, or arrays / typed arrays with equal elements. */
export function sameValue(a: unknown, b: unknown): boolean;
