// Types of `attention-lab/model` (web/api/model.js): either trained twin of docs/model.md.
import type { Engine, HeadProfile, Prediction } from '../core/engine.js';

export type Variant = 'scaled' | 'unscaled';
export declare const VARIANTS: readonly Variant[];

/** What a head does over the test text: its rows' average weights (as HeadProfile), and its induction score. */
export interface HeadMeasurement extends HeadProfile {
  /** mean weight, on repeated random words, on the word after the earlier copy */
  induction: number;
}

export interface ModelInfo {
  variant: Variant;
  layers: number;
  heads: number;
  dModel: number;
  /** the width of one head's queries and keys: the d_k of √d_k */
  dK: number;
  vocabSize: number;
  /** the most tokens one run reads */
  context: number;
  parameters: number;
  scaled: boolean;
  encoding: 'float32' | 'float16' | 'int8';
  corpus: {
    source: string;
    train: { documents: number; tokens: number; unknownRate: number; sha256: string };
    validation: { documents: number; tokens: number; unknownRate: number; sha256: string };
    test: { documents: number; tokens: number; unknownRate: number; sha256: string };
  };
  /** perplexity on the test documents, as shipped */
  heldOutPerplexity: number;
  baselines: { name: string; validationPerplexity: number; testPerplexity: number }[];
  /** what each head does over the test text (model.json `heads`), layer by layer */
  headMeasurements: HeadMeasurement[];
  /** what the measurements average over: windows of `tokens` test tokens; what even rows score */
  measuredOver: { windows: number; tokens: number; even: number; induction: { span: number; repeats: number; pool: number; seed: number; even: number } };
  /** how it was trained: the share of training windows repeating a span of repeatMin…repeatMax (random) words, attention-only layers, and the options themselves; null for a description without them */
  training: { options: readonly string[]; repeatShare: number; repeatMin: number; repeatMax: number; repeatRandom: boolean; attentionOnly: boolean } | null;
}

/** The core's Prediction, with what the API adds: the note on truncation and the run's temperature. */
export interface ModelRun extends Prediction {
  /** says how many tokens past `info.context` were left out, when any were */
  message?: string;
  temperature: number;
}

export interface TrainedModel {
  readonly variant: Variant;
  readonly info: ModelInfo;
  /** the other twin, to compare with */
  readonly twin: { variant: Variant; heldOutPerplexity: number; headMeasurements: HeadMeasurement[] };
  /** tokens by id; id 0 is `<unk>` */
  readonly vocab: readonly string[];
  /** each token's probability in the training text */
  readonly unigram: Readonly<Record<string, number>>;
  /** `span` > 0: the text repeats with that period, and each head's induction score is measured */
  run(text: string | string[], options?: { scaleAtInference?: boolean; temperature?: number; position?: number; span?: number }): ModelRun;
  dispose(): void;
}

/** One twin's training curve: the loss of each step's batch, and the held-out loss where it was measured. */
export interface TrainingCurve {
  steps: Int32Array;
  train: Float64Array;
  heldOut: { step: number; loss: number; train: number }[];
}

/** The twins' training curves (<variant>-curve.tsv of `base`, the package's files by default). */
export declare function loadCurves(options?: { base?: string | URL }): Promise<{ scaled: TrainingCurve; unscaled: TrainingCurve }>;

/** What the package's twins are (model.json), read without loading weights. */
export declare function modelDescription(options?: { base?: string | URL }): Promise<{
  source: string;
  settings: { parameters: number; layers: number; heads: number; dModel: number; dHead: number; context: number; vocab: number; batch: number; steps: number };
  [key: string]: unknown;
}>;

export declare function loadModel(options?: {
  variant?: Variant;
  engine?: Engine;
  base?: string | URL;
  /** told of the weights' bytes as they arrive (total: the file's size in model.json) */
  onProgress?: (progress: { loaded: number; total: number }) => void;
}): Promise<TrainedModel>;

/** `repeats` sequences of `span` random words (of the `pool` most frequent), each followed by itself. */
export declare function repeatedSequences(vocabulary: readonly string[], options?: { span?: number; repeats?: number; pool?: number; seed?: number }): string[][];

/** Attention from any model, as attentionFromBertViz reads it: a model's run() without its next word. */
export interface SuppliedAttention {
  tokens: string[];
  /** [layer][head]: n×n, row-major, row = query */
  attention: Float32Array[][];
  /** what each head does, measured as the trained model's heads are (layer and head from 1) */
  heads: { layer: number; head: number; role: string; previous: number; first: number; self: number; spread: number }[];
  /** every weight above the diagonal is 0 (a left-to-right model) */
  causal: boolean;
  /** the largest |Σ row − 1| found (at most `tolerance`) */
  worstRowError: number;
  /** how far a row's sum may miss 1: engine.limits.supplied.rowSumTolerance, 0.001 */
  tolerance: number;
}

/**
 * Attention from any model in BertViz's shape — `{ tokens, attention: [layer][batch?][head][n][n] }`
 * as JSON text or its value, an array of layers with `tokens` given, or the bytes of a JSON or
 * .npy file (float32/float64, little-endian, C order, (L, 1, H, n, n) or (L, H, n, n)) — checked:
 * the shape (ATTN_INVALID_SHAPE), then every weight finite and ≥ 0 and every row summing to 1
 * within 0.001 (the core's codes); each error names the first bad place, layers and heads from 1.
 */
export declare function attentionFromBertViz(
  data: string | object | unknown[] | ArrayBuffer | ArrayBufferView,
  options?: { tokens?: string[]; engine?: Engine },
): Promise<SuppliedAttention>;
