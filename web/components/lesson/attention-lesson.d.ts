// Types of <attention-lesson>'s public API (web/components/lesson/attention-lesson.js).
import type { Engine } from '../../core/engine.js';
import type { LabState } from '../attention-lab.js';
import type { LessonSettings } from '../../lesson/model.js';

/** The instruments' tags, in the order of the lesson. */
export const INSTRUMENTS: readonly string[];

/** The lesson's steps in the story's order: each one's id (its sections' `data-part`) and the string key of its heading. */
export const STEPS: ReadonlyArray<Readonly<{ part: LessonStep; title: string }>>;

/** A step of the lesson: the ids the `steps` attribute, lesson.html?steps= and `attention-lab scorm --steps` name. */
export type LessonStep = 'step' | 'output' | 'heads' | 'variance' | 'saturation' | 'gradient' | 'overflow' | 'quiz';

/**
 * The steps a `steps` attribute's text chooses, in its order, or null (no attribute, or no step
 * named: every step). Unknown and repeated ids are console warnings (web/lesson/steps.js reads it).
 */
export function chosenSteps(text: string | null): LessonStep[] | null;

/**
 * Attributes: `for` (the id of an <attention-lab> to follow), `heading-level` (1–6, default 2),
 * `loading` ("eager": draw every instrument), `theme` (light, dark, auto), `no-reveal` (an exercise
 * never shows its answer after wrong tries), `mastery` (the percent of the score that passes, read
 * by a learning platform's module), `quiz` (the closing quiz as the last section; read once),
 * `steps` (read once: the steps shown, in the order named, e.g. "variance,saturation,quiz"; ids in
 * any case, separated by commas or spaces; an unknown or repeated id is a console warning and is
 * left out; no step named is every step. With it, `quiz` is not read: the quiz is there when named.
 * The score, `questions`, `progress` and "Start over" count the steps shown), `pretest` (read
 * once: the quiz's questions asked first as well, in a section of their own, id `pretest`, not a
 * step; each checked once with no feedback but "Saved.", announced as kind `pretest`, id
 * `pretest-<question>`, not scored, kept by `progress` and through "Start over"; the closing quiz
 * is then shown whatever `quiz` and `steps` say).
 */
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
   * The exercises' score, for a learning platform: `raw` exercises solved before their answer was
   * shown, of `max`; `completed` once all are. Each change is announced by a `score` event
   * (detail: the same). The predictions are not graded.
   */
  readonly score: Readonly<LessonScore>;
  /** Every prediction, exercise and quiz question: its stable id (predict-variance, exercise-scale, quiz-root, pretest-root…) and its step (`pretest` for a pretest's). */
  readonly questions: ReadonlyArray<{ id: string; step: string; element: HTMLElement }>;
  /**
   * The learner's answers, to keep (web/lesson/progress.js); setting it puts them back (null: none).
   * The answers of steps a `steps` selection does not show are given back as they were put back.
   */
  progress: LessonProgress | null;
  /** Clears the answers of the steps shown (those of steps not shown stay in `progress`) and announces `startover`. */
  startOver(): void;
  addEventListener<K extends keyof AttentionLessonEventMap>(type: K, listener: (this: AttentionLesson, event: AttentionLessonEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
}

/** The lesson's score (AttentionLesson.score, and the detail of its `score` event). */
export interface LessonScore {
  /** exercises solved (an answer within the tolerance of the core's) */
  raw: number;
  /** exercises in the steps shown */
  max: number;
  /** every exercise solved */
  completed: boolean;
}

/** The learner's answers by question id, the first answered first. */
export interface LessonProgress {
  answers: Record<string, Record<string, unknown>>;
}

/** One answer, as the `answer` event announces it (a learning platform records it per question). */
export interface LessonAnswer {
  /** the question's stable id */
  id: string;
  /** the step (section part) it belongs to: step, variance, saturation… */
  step: string;
  /** pretest: a quiz question asked before the lesson (the learner is not told the result; the LMS is) */
  kind: 'prediction' | 'exercise' | 'quiz' | 'pretest';
  type: 'choice' | 'numeric';
  /** an option's id or a d_k for a choice; the number typed (null when it was not one) for a numeric */
  response: string | number | null;
  /** the right option (null when the instrument could not measure it), or the engine's value and the tolerance */
  correct: string | null | { value: number; tolerance: number };
  /** neutral: a prediction that could not be measured, or a right answer typed after it was shown */
  result: 'correct' | 'wrong' | 'neutral';
  /** checks of this question so far */
  attempts: number;
  /** milliseconds since the question was drawn, or since its previous answer */
  latency: number;
  /** the question as the learner read it, and its language */
  description: string;
  lang: string;
  credited?: boolean;
}

export interface AttentionLessonEventMap extends HTMLElementEventMap {
  /** the score changed: an exercise was solved */
  score: CustomEvent<Readonly<LessonScore>>;
  /** a prediction was checked, or an exercise got a verdict */
  answer: CustomEvent<Readonly<LessonAnswer>>;
  /** the learner started over: every answer cleared */
  startover: CustomEvent<null>;
}

declare global {
  interface HTMLElementTagNameMap {
    'attention-lesson': AttentionLesson;
  }
}
