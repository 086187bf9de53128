// Types of <attention-lesson>'s public API (web/components/lesson/attention-lesson.js).
import type { Engine } from '../../core/engine.js';
import type { LabState } from '../attention-lab.js';
import type { LessonSettings } from '../../lesson/model.js';

/** The instruments' tags, in the order of the lesson. */
export const INSTRUMENTS: readonly string[];

/** Attributes: `for` (the id of an <attention-lab> to follow), `heading-level` (1–6, default 2), `loading` ("eager": draw every instrument), `theme` (light, dark, auto). */
export class AttentionLesson extends HTMLElement {
  /** The engine the instruments are computed with (the followed lab's, or set by the page). */
  engine: Engine | null;
  /** The lab state the instruments draw (the followed lab's latest, or set by the page). */
  state: Readonly<LabState> | null;
  /** The lesson's own settings; setting a patch keeps the other fields (invalid fields: a console warning). */
  get settings(): Readonly<LessonSettings>;
  set settings(patch: Partial<LessonSettings>);
  /** The lab setting the learner last asked for in an instrument, e.g. { temperature: 0.1 }; announced by `input` and `change`. */
  readonly value: Readonly<Record<string, unknown>> | null;
  /** True while an instrument in or near the viewport (every one, when eager) has not drawn the latest state. */
  readonly pending: boolean;
  /**
   * The exercises' score, for a learning platform: `raw` exercises solved of `max`, `completed`
   * once all are. Each change is announced by a `score` event (detail: the same). Kept nowhere:
   * a reload starts at 0. The predictions are not graded.
   */
  readonly score: Readonly<LessonScore>;
  addEventListener<K extends keyof AttentionLessonEventMap>(type: K, listener: (this: AttentionLesson, event: AttentionLessonEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
}

/** The lesson's score (AttentionLesson.score, and the detail of its `score` event). */
export interface LessonScore {
  /** exercises solved (an answer within the tolerance of the core's) */
  raw: number;
  /** exercises in the lesson */
  max: number;
  /** every exercise solved */
  completed: boolean;
}

export interface AttentionLessonEventMap extends HTMLElementEventMap {
  /** the score changed: an exercise was solved */
  score: CustomEvent<Readonly<LessonScore>>;
}

declare global {
  interface HTMLElementTagNameMap {
    'attention-lesson': AttentionLesson;
  }
}
