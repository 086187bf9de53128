// Types of <attention-lab>'s public API (web/components/attention-lab.js), for lesson
// instruments that read the lab's state. Arrays are shared with the lab: treat them as read-only.
// The state is built without a page by labState() (web/lab/state.js), from settings
// (web/lab/settings.js) and the pipeline of web/lab/inputs.js.
import type { AttentionResult, Engine } from '../core/engine.js';
import type { BucketVocab } from '../core/vocab.js';

export type Projection = 'identity' | 'random' | 'pasted';

/**
 * The attributes of <attention-lab>, as text. Each is read through the settings table of
 * web/lab/settings.js: an invalid value logs a console warning (naming the attribute, the value
 * and what was expected) and the setting takes its default; a removed attribute is the default.
 * Booleans: "" (a bare attribute), "true", "on", "yes" or "1" is on; "false", "off", "no" or "0"
 * is off (any case).
 */
export interface LabAttributes {
  /** any text; its first 128 tokens are used. Default "The cat sat on the mat because it was tired" */
  sentence?: string;
  /** the cross-attention probe word (its first token; "" for none). Default "animal" */
  probe?: string;
  /** "identity" | "random" | "pasted" (pasted needs vectors given with set()). Default "identity" */
  projection?: string;
  /** d_k of the random projection, a whole number from 1 to 1024. Default "64" */
  dk?: string;
  /** boolean: scale q·k by 1/√d_k. Default on */
  scaled?: string;
  /** the seed of W_Q and W_K, a whole number from 0 to 4294967295. Default "1" */
  seed?: string;
  /** the softmax temperature, a number from 0.01 to 100. Default "1" */
  temperature?: string;
  /** boolean: query i sees keys j ≤ i. Default off */
  causal?: string;
  /** boolean: add the sinusoidal positional encoding. Default off */
  positional?: string;
  /** the query row shown as bars, a whole number from 0 to 127, counted from 0 (beyond the last token: the last). Default "1" */
  selected?: string;
  /** "light" | "dark" | "auto" (the reader's system setting). Default "auto" */
  theme?: string;
  /**
   * "full" | "compact". Default "full". compact: for a slide or a narrow frame — the tokens, the
   * heatmap, the selected query's bars, and three controls (d_k, the √d_k switch, the
   * temperature), without the probe, the paste panel or the long hints; at 1280×720 in a
   * reveal.js slide it fits the slide up to about 12 tokens (embed.html: layout=compact)
   */
  view?: string;
  /**
   * a JSON or .npy file of the same site holding attention from another model in BertViz's shape
   * (see AttentionLab.attention), shown in place of the lab's body; removed: the lab again
   */
  'attention-src'?: string;
}

/** What the controls show (web/lab/settings.js: defaultSettings, createStore). */
export interface LabSettings {
  sentence: string;
  tokens: readonly string[];
  truncated: boolean;
  probe: string;
  projection: Projection;
  /** projected width chosen on the slider (used by the random projection) */
  dk: number;
  seed: number;
  scaled: boolean;
  temperature: number;
  causal: boolean;
  positional: boolean;
  selected: number;
  pasted: object | null;
}

export interface LabState {
  settings: Readonly<LabSettings>;
  /**
   * one per query row; known: it has a vector (null for pasted vectors); source: 'glove', 'induced'
   * (the files', from the Brown corpus), 'context' (made from this sentence: no vector in the files)
   * or null (unknown, or pasted)
   */
  tokens: readonly { text: string; known: boolean | null; source: 'glove' | 'induced' | 'context' | null }[];
  queryLabels: readonly string[];
  keyLabels: readonly string[];
  /** the distinct tokens not in the vocabulary, in order of appearance ([] for pasted vectors) */
  unknown: readonly string[];
  projection: Projection;
  /** n queries, m keys, d = d_k (the width in use), dv value width */
  n: number;
  m: number;
  d: number;
  dv: number;
  /** n×d, m×d, m×dv row-major */
  q: Float32Array;
  k: Float32Array;
  v: Float32Array | null;
  /** t×100 word vectors (with positions when on); null for pasted vectors */
  x: Float32Array | null;
  scaled: boolean;
  temperature: number;
  causal: boolean;
  positional: boolean;
  /** the query row shown as bars (settings.selected, at most n − 1) */
  selected: number;
  /** the causal mask applies only when n = m: otherwise labState throws (web/lab/results.js) */
  result: AttentionResult;
  probe: { text: string; known: boolean; q: Float32Array; result: AttentionResult; rowSum: number } | null;
}

export class AttentionLab extends HTMLElement {
  /** Resolves once the first state is shown: the first result, or — for settings that give none (no tokens) — the message in its place (`state` stays null until a result comes). */
  readonly ready: Promise<AttentionLab>;
  /** The latest state (null until the core has loaded). */
  readonly state: Readonly<LabState> | null;
  readonly settings: Readonly<LabSettings>;
  readonly engine: Engine | null;
  /**
   * The page's vocabulary (shared by every lab of the page; null before the element is connected):
   * a sentence's words load with it, and a result is drawn only when none is 'loading'.
   */
  readonly vocab: BucketVocab | null;
  /**
   * Attention from another model in BertViz's shape, shown in place of the lab's body by a
   * <model-view> (web/components/lesson/model-view.d.ts: every head as a thumbnail, one opened in
   * the heatmap with its selected row as bars, no next word): { tokens, attention:
   * [layer][batch?][head][n][n] }, its JSON text, or a JSON file's bytes (.npy bytes hold no tokens
   * and are refused). Read back as it was given. It is checked before it is drawn, and what is
   * wrong is said on the page in its place. While it shows, the lab's own controls, heatmap and
   * bars are hidden; `state`, `settings`, `set()` and the attributes go on working, and what they
   * set shows once the attention is removed. null (or removing `attention-src`, or the view's
   * own button back) shows the lab again. Setting it, or `attention-src`, replaces the other.
   */
  attention: { tokens: string[]; attention: unknown[] } | unknown[] | string | ArrayBuffer | ArrayBufferView | null;
  /** Changes settings like the controls do; invalid fields are left out and explained. */
  set(patch: Partial<LabSettings>): { rejected: Record<string, string> };
  /** 'change': a new state (read `event.target.state`). */
  addEventListener(type: 'change', listener: (event: Event & { target: AttentionLab }) => void, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
}

declare global {
  interface HTMLElementTagNameMap {
    'attention-lab': AttentionLab;
  }
}
