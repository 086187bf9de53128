// The demo page: the lab, its state in the URL (web/page-url.js, loaded first: a link reopens
// it), then — once the lab has drawn its first result, never in the way of the first view —
// share and export (<lab-share>), the lesson's instruments (<attention-lesson>) and the training
// experiment (whose worker starts when its section comes near). The guide's "Do it" buttons
// change the lab's settings the way its controls do (lab.set). No state lives here.
import './components/lab/attention-lab.js';
import { page } from './page-url.js';

const lab = document.getElementById('lab');
const lesson = document.querySelector('attention-lesson');

lab.ready
  .then(() => new Promise((painted) => requestAnimationFrame(() => setTimeout(painted))))
  .then(() => {
    import('./components/lab/lab-share.js');
    import('./components/lesson/training-experiment.js');
    return import('./components/lesson/attention-lesson.js');
  })
  .then(() => {
    if (page.view !== 'lab') showPart(lesson.querySelector(`[data-part="${page.view}"]`));
  });

// view=<a part of the lesson>: its instrument, scrolled to the top of the window and kept there
// while the instruments above it draw and change height — until the reader scrolls, or 3 s.
function showPart(section) {
  if (!section) return;
  const follow = new ResizeObserver(() => section.scrollIntoView());
  const stop = () => {
    follow.disconnect();
    for (const type of ['wheel', 'keydown', 'pointerdown', 'touchstart']) removeEventListener(type, stop, true);
  };
  for (const type of ['wheel', 'keydown', 'pointerdown', 'touchstart']) addEventListener(type, stop, true);
  follow.observe(lesson);
  setTimeout(stop, 3000);
}

for (const button of document.querySelectorAll('.guide button[data-set]')) {
  button.addEventListener('click', () => lab.set(JSON.parse(button.dataset.set)));
}
