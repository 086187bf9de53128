// Types of <model-view>'s public API (web/components/lesson/model-view.js): the trained model,
// or attention supplied from any other model in BertViz's shape.

/**
 * Attributes: `for` (the id of an <attention-lab> whose sentence it follows), `attention-src` (a
 * JSON or .npy file of the same site, shown instead of the trained model). Slot `back`: the host's
 * own control to leave the supplied attention (the lab's "Back to the lab"), shown beside it only;
 * without one there is none.
 */
export class ModelView extends HTMLElement {
  /** The sentence the trained model reads, as the lab's tokens (a page without an <attention-lab> sets it). */
  tokens: string[];
  /**
   * Attention from another model shown instead of the trained model's, as attentionFromBertViz
   * of attention-lab/model reads it: { tokens, attention: [layer][batch?][head][n][n] }, its JSON
   * text, or a JSON or .npy file's bytes. Checked before it is drawn; what is wrong is said on the
   * page. null: the trained model.
   */
  attention: { tokens: string[]; attention: unknown[] } | unknown[] | string | ArrayBuffer | ArrayBufferView | null;
  /**
   * The opened head: its layer and its head within the layer, from 1 (as the CLI counts). Kept when
   * new attention comes; a head beyond the attention's shows its last. Setting one sends no event;
   * the learner opening a head by its button sets both and sends `input`, then `change` (bubbling),
   * with `value` { layer, head }. Setting anything but an integer from 1 throws a RangeError.
   */
  layer: number;
  head: number;
  /** The learner's latest request: { layer, head } of the head opened (null until there is one). */
  readonly value: { layer: number; head: number } | null;
}
