// The lesson's parts, in the lesson's order: each is a method of LessonModel (model.js), an
// instrument of <attention-lesson>, and a view of the pages' URL (web/lab/url.js). A module of
// its own so that a page can name them without loading the model.
export const LESSON_PARTS = Object.freeze(['variance', 'saturation', 'gradient', 'step', 'overflow', 'heads']);
