// Types of `attention-lab/lab` (web/api/lab.js): the lab's pipeline without a page.
import type { AttentionResult, Engine } from '../core/engine.js';
import type { BucketVocab as Vocab } from '../core/vocab.js';
import type { LabSettings, LabState, Projection } from '../components/attention-lab.js';

export type { LabSettings, LabState, Projection };

/** An error of this API: a TypeError or RangeError whose message names the argument, the value and what was expected. */
export interface LabError extends Error {
  code: 'ATTN_INVALID_ARGUMENT' | 'ATTN_INVALID_SHAPE' | 'ATTN_NON_FINITE_INPUT' | 'ATTN_OVERFLOW' | 'ATTN_TOO_LARGE' | 'ATTN_LOAD_FAILED' | string;
}

export const INVALID_ARGUMENT: 'ATTN_INVALID_ARGUMENT';

/** Splits text into the lower-case tokens GloVe was trained on (the page's tokenizer). */
export function tokenize(text: string): string[];
/** Most tokens the lab uses; a longer text is cut (`truncated: true`). */
export const MAX_TOKENS: number;
/** Width of the GloVe word vectors (100). */
export const WORD_DIM: number;
export const DK_STEPS: readonly number[];
export const TEMPERATURE_STEPS: readonly number[];
export const PROJECTIONS: readonly Projection[];

/** One entry of the settings table: its default, whether an attribute sets it, and what it does. */
export interface SettingEntry {
  default: unknown;
  attribute: boolean;
  doc: string;
}
export const SETTINGS: Readonly<Record<keyof LabSettings, SettingEntry>>;
export function defaultSettings(): LabSettings;

/**
 * Vectors pasted as the page's "Bring your own vectors" takes them: each matrix as CSV rows
 * ("0.1, 0.2\n0.3, 0.4", optionally a label first on each row) or JSON text, or as an array of
 * rows ([[0.1, 0.2], [0.3, 0.4]]). Q is n×d, K m×d, V (optional) m×dv.
 */
export interface PastedText {
  q: string | ArrayLike<number>[];
  k: string | ArrayLike<number>[];
  v?: string | ArrayLike<number>[] | null;
}

/** What a caller may set; everything else takes the page's default (defaultSettings()). */
export interface LabOptions {
  /** the text of the Tokens field (default "The cat sat on the mat because it was tired") */
  sentence?: string;
  /** the tokens as chips, instead of a sentence */
  tokens?: readonly string[];
  /** the cross-attention probe word; "" for none (default "animal") */
  probe?: string;
  /** default 'identity'; 'pasted' needs `pasted` */
  projection?: Projection;
  /** d_k of the random projection, 1…1024 (default 64) */
  dk?: number;
  /** seed of W_Q and W_K, 0…4294967295 (default 1) */
  seed?: number;
  /** divide q·k by √d_k (default true) */
  scaled?: boolean;
  /** softmax(scores / T), 0.01…100 (default 1) */
  temperature?: number;
  /** query i sees keys j ≤ i (default false) */
  causal?: boolean;
  /** add the sinusoidal positional encoding to the word vectors (default false) */
  positional?: boolean;
  /** the query row the bars show, from 0 (default 1, "cat") */
  selected?: number;
  /** your own Q, K (and V); implies projection 'pasted' */
  pasted?: PastedText | null;
}

/** The engine and the vocabulary the pipeline runs on. */
export interface LabContext {
  /** createEngine() of 'attention-lab' */
  engine: Engine;
  /** await loadVocab() of 'attention-lab/lab' */
  vocab: Vocab;
}

/** The inputs of one head, ready for engine.attention(); arrays are row-major and read-only. */
export interface LabInputs {
  /** the tokens the vectors are made from ([] for pasted vectors) */
  tokens: readonly string[];
  q: Float32Array;
  k: Float32Array;
  v: Float32Array | null;
  n: number;
  m: number;
  d: number;
  dv: number;
  scale: 'sqrt' | 'none';
  causal: boolean;
  temperature: number;
  /** the tokens, or the pasted labels (q1…, k1… without) */
  queryLabels: readonly string[];
  keyLabels: readonly string[];
  /** per key: its word has a vector — the files', or made from this sentence (null for pasted vectors) */
  known: readonly boolean[] | null;
  /**
   * per key: 'glove', 'induced' (the files' vector, from the Brown corpus), 'context' (no vector in
   * the files: A₁ · the mean of the known words within the context map's window in this sentence,
   * vocab.contextMap(), à la carte, Khodak et al. 2018) or null (unknown: no known word near it);
   * null for pasted vectors
   */
  sources: readonly (TokenSource | null)[] | null;
  /** the distinct tokens with no vector (each gets a fixed vector made from its spelling) */
  unknown: readonly string[];
  /** t×100 word vectors (with positions when on); null for pasted vectors */
  x: Float32Array | null;
  /** the probe's query (1×d), or null */
  probe: { text: string; known: boolean; q: Float32Array } | null;
  /** the sentence had more than MAX_TOKENS tokens; only the first are used */
  truncated: boolean;
}

/** Where a token's vector comes from. */
export type TokenSource = 'glove' | 'induced' | 'context';

/**
 * The lab's vocabulary, shared: Node reads the package's own files, a browser fetches them. With
 * `words`, only their buckets (labInputs needs the sentence's and the probe's words); without, all.
 */
export function loadVocab(words?: Iterable<string>): Promise<Vocab>;

/** `options` checked by the page's settings table and completed with its defaults; throws a LabError. */
export function labSettings(options?: LabOptions): Readonly<LabSettings>;

/** Q, K, V as the page builds them: engine.attention(labInputs(…)) gives the page's numbers. Throws a LabError. */
export function labInputs(options: LabOptions, context: LabContext): Readonly<LabInputs>;

/** The state <attention-lab> shows for these settings (what its `state` property is). Throws a LabError. */
export function labState(options: LabOptions, context: LabContext): Readonly<LabState>;

/** One row of a state as the bars draw it. */
export interface LabRow {
  labels: readonly string[];
  weights: Float32Array;
  scores: Float32Array;
  rowSum: number;
  entropy: number;
  maxWeight: number;
  known: readonly boolean[] | null;
}
/** The selected query's row (or row i). */
export function queryRow(state: LabState, i?: number): LabRow;
/** The probe's row, or null. */
export function probeRow(state: LabState): LabRow | null;
/** What the heatmap draws. */
export function heatmapData(state: LabState): {
  n: number; m: number; weights: Float32Array; scores: Float32Array; dots: Float32Array;
  queryLabels: readonly string[]; keyLabels: readonly string[]; selected: number;
};

export type FigureView = 'heatmap' | 'bars' | 'probe' | 'both';
export type FigureFormat = 'svg' | 'csv' | 'json';
export const FIGURE_VIEWS: readonly FigureView[];
export const FIGURE_FORMATS: readonly FigureFormat[];

/** Concrete colours and fonts of a theme (keys of web/views/theme.js's palette). */
export type Theme = Readonly<Record<string, string>>;
export const THEMES: Readonly<{ light: Theme; dark: Theme }>;

export interface FigureOptions {
  /** default 'both' (the heatmap and the selected query's bars) */
  view?: FigureView;
  /** default 'svg'; csv and json hold the numbers of the rows the view shows */
  format?: FigureFormat;
  /** default 'light' */
  theme?: 'light' | 'dark' | Theme;
  /** room in px, 200…10000 (default 640) */
  width?: number;
  /** the settings under the SVG (default true) */
  caption?: boolean;
  /** false: no background behind the SVG, for a slide's own colour (default true) */
  background?: boolean;
  /** The words of the SVG's titles and caption: loadStrings(lang) of attention-lab's web/i18n/i18n.js (default: English). */
  strings?: object;
}

/** A figure of `state` as text (SVG file, CSV or JSON), drawn by the page's views. Throws a LabError. */
export function renderFigure(state: LabState, options?: FigureOptions): string;

export type { AttentionResult, Engine, Vocab };
