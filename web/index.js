// The demo page: the lab, its state in the URL (web/page-url.js, loaded first: a link reopens
// it), then — once the lab has drawn its first result, never in the way of the first view —
// share and export (<lab-share>), the lesson's instruments (<attention-lesson>) and the training
// experiment (whose worker starts when its section comes near) and the trained model (loaded
// when its section comes near); the lesson's answers and place are kept across a reload
// (web/lesson-keep.js). No state lives here.
import './components/lab/attention-lab.js';
import { page } from './page-url.js';

const lab = document.getElementById('lab');
const lesson = document.querySelector('attention-lesson');

lab.ready
  .then(() => new Promise((painted) => requestAnimationFrame(() => setTimeout(painted))))
  .then(() => {
    import('./components/lab/lab-share.js');
    import('./components/lesson/training-experiment.js');
    import('./components/lesson/model-view.js');
    return Promise.all([import('./components/lesson/attention-lesson.js'), import('./lesson-keep.js'), import('./lesson/progress.js')]);
  })
  .then(([, { keepProgress }, { PAGE_PROGRESS_KEY }]) => {
    document.documentElement.dataset.ready = 'true'; // the lab's first state is drawn (lesson-keep.js waits for it)
    // a link that names a place (#claim-3, ?view=) goes there, not to the place kept
    keepProgress({ key: PAGE_PROGRESS_KEY, place: page.view === 'lab' && location.hash === '' });
    if (page.view === 'model') keepInView(document.getElementById('model'), document.querySelector('main'));
    else if (page.view !== 'lab') showPart(lesson.querySelector(`[data-part="${page.view}"]`));
    else showLinked();
  });

// view=<a part of the lesson>: its instrument (its aside opened), scrolled to the top of the window
// and kept there while the instruments above it draw and change height.
function showPart(section) {
  if (!section) return;
  section.querySelector('details.story-aside')?.setAttribute('open', '');
  keepInView(section, lesson);
}

// A link into the page (#claim-3, #model): the lesson writes its sections after the lab's first
// frame, so when the page loaded the browser found no #claim-3 to scroll to, and a part it did
// find (#model) moved down as the lab and the lesson above it drew. Scrolled to and kept there.
function showLinked() {
  let id = '';
  try {
    id = decodeURIComponent(location.hash.slice(1));
  } catch {
    return; // not an id this page could have written
  }
  const target = id && document.getElementById(id);
  if (target) keepInView(target, document.querySelector('main'));
}

// `target` scrolled to the top of the window and kept there while `observed` changes size (what
// sits above it draws) until the reader scrolls, or `observed` has kept its size for a second (a
// slow device draws for longer than a fixed time would allow), or at the latest after 20 s.
function keepInView(target, observed) {
  target.scrollIntoView({ block: 'start' });
  let first = true; // the observer's first call reports the size `observed` has now
  let settled = setTimeout(() => stop(), 1000);
  const follow = new ResizeObserver(() => {
    if (!first) target.scrollIntoView({ block: 'start' });
    first = false;
    clearTimeout(settled);
    settled = setTimeout(() => stop(), 1000);
  });
  const latest = setTimeout(() => stop(), 20000);
  const stop = () => {
    follow.disconnect();
    clearTimeout(settled);
    clearTimeout(latest);
    for (const type of ['wheel', 'keydown', 'pointerdown', 'touchstart']) removeEventListener(type, stop, true);
  };
  for (const type of ['wheel', 'keydown', 'pointerdown', 'touchstart']) addEventListener(type, stop, true);
  follow.observe(observed);
}
