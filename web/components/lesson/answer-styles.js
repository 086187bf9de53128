// The look the lesson's answering cards share — <lesson-predict>, <lesson-exercise> and
// <quiz-question> — each card adopting the sheets it uses before its own.
import { sheet } from '../theme.js';

/** The small capitals above a question ("Predict", "Exercise", "Quiz"). */
export const kickerStyles = sheet(`
  .kicker { display: block; font-size: 12px; font-weight: 600; color: var(--_muted); text-transform: uppercase; letter-spacing: .04em; }
`);

/** A column of radio options, the right one bold once shown; below a floated legend, hence the clear. */
export const optionStyles = sheet(`
  .options { clear: both; display: grid; gap: .15em; margin: .4em 0 .5em; }
  .options label { display: flex; gap: .5em; align-items: center; min-height: 28px; cursor: pointer; }
  .options input { width: 24px; height: 24px; margin: 0; accent-color: var(--_accent); flex: none; }
  .options label.answer { font-weight: 600; }
`);

/** The check button and the verdict box below it, bordered by right or wrong. */
export const verdictStyles = sheet(`
  button { min-height: 32px; padding: .25em .9em; border-radius: 6px; border: 1px solid var(--_accent); background: var(--_accent); color: var(--_accent-text); font-weight: 600; cursor: pointer; }
  .feedback:empty { display: none; }
  .feedback { margin: .6em 0 0; padding: .45em .7em; border-radius: 6px; border: 1px solid var(--_border); background: var(--_surface); }
  .feedback.right { border-color: var(--_accent); }
  .feedback.wrong { border-color: var(--_danger); }
  .verdict { font-weight: 600; }
`);
