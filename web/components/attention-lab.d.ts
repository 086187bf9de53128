// Types of <attention-lab>'s public API (web/components/attention-lab.js), for lesson
// instruments that read the lab's state. Arrays are shared with the lab: treat them as read-only.
import type { AttentionResult, Engine } from '../core/engine.js';
import type { Vocab } from '../core/vocab.js';

export type Projection = 'identity' | 'random' | 'pasted';

/** What the controls show (web/lab/store.js). */
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
  /** one per query row; known: in the GloVe vocabulary (null for pasted vectors) */
  tokens: readonly { text: string; known: boolean | null }[];
  queryLabels: readonly string[];
  keyLabels: readonly string[];
  projection: Projection;
  /** n queries, m keys, d = d_k (the width in use), dv value width */
  n: number;
  m: number;
  d: number;
  dk: number;
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
  /** the query row shown as bars */
  selected: number;
  result: AttentionResult;
  /** per-row Σ weights, computed by the core (weights · 1) */
  rowSums: Float32Array;
  probe: { text: string; known: boolean; q: Float32Array; result: AttentionResult; rowSum: number } | null;
}

export class AttentionLab extends HTMLElement {
  /** Resolves once the first result is drawn. */
  readonly ready: Promise<AttentionLab>;
  /** The latest state (null until the core has loaded). */
  readonly state: Readonly<LabState> | null;
  readonly settings: Readonly<LabSettings>;
  readonly engine: Engine | null;
  /** The vocabulary in use (null until loaded): first a word subset (partial: true), then the full one. */
  readonly vocab: Vocab | null;
  /** Changes settings like the controls do; invalid fields are left out and explained. */
  set(patch: Partial<LabSettings>): { rejected: Record<string, string> };
  addEventListener(type: 'statechange', listener: (event: CustomEvent<Readonly<LabState>>) => void, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
}

declare global {
  interface HTMLElementTagNameMap {
    'attention-lab': AttentionLab;
  }
}
