// embed.html: the lab alone (or, with view=<part>, one instrument of the lesson following a
// hidden lab; with steps=<list>, those steps of the lesson, one at a time with layout=compact, for
// a slide; with view=model, the trained model on the hidden lab's sentence), its settings in the URL (web/page-url.js, loaded first), made to live in an iframe. Whenever
// its height changes it tells the parent page, with two messages and nothing else:
//   { type: 'attention-lab:resize', height }   this project's own (web/embed.js applies it)
//   { subject: 'lti.frameResize', height }      the one Canvas LMS resizes its frames by
// height: the page's height in CSS px, a whole number. Nothing is posted outside a frame.
import './components/lab/attention-lab.js';
import { page } from './page-url.js';

const lab = document.getElementById('lab');
const lesson = document.querySelector('attention-lesson');
const share = document.querySelector('lab-share');

if (page.steps) {
  // the lab computes the state (hidden); the steps chosen show it, the answers kept as on lesson.html
  lab.hidden = true;
  lesson.hidden = false;
  lesson.setAttribute('steps', page.steps); // before the lesson is defined: it reads them once
  if (page.layout === 'compact') lesson.setAttribute('view', 'compact');
  import('./components/lesson/attention-lesson.js');
  import('./lesson-keep.js').then(({ keepProgress }) => keepProgress());
} else if (page.view === 'model') {
  // the lab reads the sentence (hidden); the trained model shows what its heads make of it
  lab.hidden = true;
  const model = document.querySelector('model-view');
  model.hidden = false;
  import('./components/lesson/model-view.js');
} else if (page.view !== 'lab') {
  // the lab computes the state (hidden); one section of the lesson shows it
  lab.hidden = true;
  lesson.hidden = false;
  import('./components/lesson/attention-lesson.js').then(() => {
    for (const section of lesson.querySelectorAll('.instrument[data-part]')) {
      section.hidden = section.dataset.part !== page.view;
      // the one instrument embedded is shown, also where the lesson keeps it in an aside (heads)
      if (!section.hidden) section.querySelector('details.story-aside')?.setAttribute('open', '');
    }
  });
}
// share=0: no share panel (a teacher who embeds the lab may not want it copied on)
if (page.share) {
  lab.ready
    .then(() => new Promise((painted) => requestAnimationFrame(() => setTimeout(painted))))
    .then(() => import('./components/lab/lab-share.js'));
} else share.hidden = true;

// The height, posted when it changes (a ResizeObserver on the root sees every change of layout).
let posted = -1;
const root = document.documentElement;
new ResizeObserver(() => {
  const height = Math.ceil(root.getBoundingClientRect().height);
  // the embed code of one instrument carries this page's height; the lab's measures a lesson column
  if (page.view !== 'lab') share.frameHeight = height;
  if (height === posted || window.parent === window) return;
  posted = height;
  window.parent.postMessage({ type: 'attention-lab:resize', height }, '*');
  window.parent.postMessage({ subject: 'lti.frameResize', height }, '*');
}).observe(root);
