// The lesson's steps chosen for a class: a list of step ids, read by one rule wherever it is
// written — the `steps` attribute of <attention-lesson>, lesson.html's ?steps= and
// `attention-lab scorm --steps`. No DOM: the command line reads it too.

/**
 * The lesson's steps in the story's order: the parts of <attention-lesson>'s sections, written
 * here so that the command line need not load the element (a browser test holds the two together).
 */
export const LESSON_STEPS = Object.freeze(['step', 'output', 'heads', 'variance', 'saturation', 'gradient', 'overflow', 'quiz']);

/** Unknown entries named at most this many, each cut to UNKNOWN_CHARS: a notice stays readable whatever a link holds. */
export const MAX_UNKNOWN = 8;
const UNKNOWN_CHARS = 40;

/**
 * Reads a list of steps ("variance, saturation,quiz"): ids separated by commas or spaces, in any
 * case; empty entries are skipped. Returns
 *   steps     the steps named, each once, in the order first named; null when none is (no
 *             selection: the lesson as without the list)
 *   unknown   the entries that are not steps (as written, distinct; at most MAX_UNKNOWN)
 *   more      how many more unknown entries there were
 *   repeated  the steps named more than once
 */
export function readSteps(text) {
  const steps = [];
  const unknown = [];
  const repeated = [];
  const others = new Set(); // every distinct unknown entry
  for (const entry of String(text ?? '').split(/[\s,]+/)) {
    if (entry === '') continue;
    const id = entry.toLowerCase();
    if (!LESSON_STEPS.includes(id)) {
      if (others.has(entry)) continue;
      others.add(entry);
      if (unknown.length < MAX_UNKNOWN) unknown.push(entry.length > UNKNOWN_CHARS ? `${entry.slice(0, UNKNOWN_CHARS - 1)}…` : entry);
    } else if (!steps.includes(id)) steps.push(id);
    else if (!repeated.includes(id)) repeated.push(id);
  }
  return { steps: steps.length > 0 ? steps : null, unknown, more: others.size - unknown.length, repeated };
}
