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
}

declare global {
  interface HTMLElementTagNameMap {
    'attention-lesson': AttentionLesson;
  }
}
