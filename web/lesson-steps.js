// The lesson page's steps for a class (web/lesson/steps.js reads a list of them):
//  1. at once: lesson.html?steps=variance,saturation,quiz becomes the lesson's `steps` attribute,
//     which the lesson reads once, when it is defined — so web/lesson.js imports this module
//     first. A `steps` written in the page itself (a SCORM package's, bin/scorm.js) is its
//     author's: a link does not change it;
//  2. what the link named that could not be followed is listed in #url-notice, in the page's
//     language, as index.html lists its link's problems (web/page-url.js);
//  3. "For teachers: choose steps" (#choose-steps): a checkbox per step, named by its heading,
//     writes the link to copy.
import { LESSON_STEPS, readSteps } from './lesson/steps.js';

const lesson = document.querySelector('attention-lesson');
const given = new URLSearchParams(location.search).getAll('steps');
const fromLink = Boolean(lesson) && given.length > 0 && !lesson.hasAttribute('steps');
if (fromLink) lesson.setAttribute('steps', given[0]);

/** The page's address choosing `steps` (in their order); every step in the lesson's order is the page as it is without a list. */
export function stepsLink(href, steps) {
  const url = new URL(href);
  url.searchParams.delete('steps');
  if (steps.length > 0 && steps.join() !== LESSON_STEPS.join()) url.searchParams.set('steps', steps.join(','));
  // commas are safe in a query: kept readable for a teacher who edits the order by hand
  return url.href.replace(/%2C/gi, ',');
}

async function start() {
  const [{ strings }, { STEPS }, { subscripts, toDom }] = await Promise.all([
    import('./i18n/page.js'),
    import('./components/lesson/attention-lesson.js'),
    import('./views/h.js'),
  ]);
  if (fromLink) showProblems(strings);
  const chooser = document.getElementById('choose-steps');
  if (chooser && lesson) chooseSteps(chooser, strings, STEPS, (key) => subscripts(strings.t(key)).map((node) => toDom(node)));
}

function showProblems(strings) {
  const t = strings.t;
  const { steps, unknown, more, repeated } = readSteps(given[0]);
  const problems = [];
  if (given.length > 1) problems.push(t('link.repeated', { name: 'steps', value: given[0], times: String(given.length) }));
  if (unknown.length > 0) {
    const named = [...unknown, ...(more > 0 ? [t('link.stepsMore', { count: more })] : [])];
    problems.push(t('link.stepsUnknown', { list: strings.list(named), steps: LESSON_STEPS.join(', ') }));
  }
  if (repeated.length > 0) problems.push(t('link.stepsRepeated', { list: strings.list(repeated) }));
  if (!steps && (unknown.length > 0 || given.length > 1)) problems.push(t('link.stepsNone'));
  const notice = document.getElementById('url-notice');
  if (problems.length === 0 || !notice) return;
  const title = document.createElement('p');
  title.textContent = t('link.problems');
  const list = document.createElement('ul');
  list.append(...problems.map((text) => Object.assign(document.createElement('li'), { textContent: text })));
  notice.replaceChildren(title, list);
  notice.hidden = false;
}

// The teacher's list: the steps shown are ticked; the link names the ticked ones in the order the
// page shows them (a link's own order kept), then the others in the lesson's.
function chooseSteps(chooser, strings, steps, heading) {
  const t = strings.t;
  // (a pretest's section is the author's switch, not a step to tick)
  const shown = [...lesson.querySelectorAll('.instrument[data-part]')].map((section) => section.dataset.part).filter((id) => LESSON_STEPS.includes(id));
  const order = [...shown, ...LESSON_STEPS.filter((id) => !shown.includes(id))];
  const list = chooser.querySelector('.step-choices');
  const field = chooser.querySelector('#steps-link');
  const said = chooser.querySelector('.steps-said');
  list.replaceChildren(...order.map((id) => {
    const box = Object.assign(document.createElement('input'), { type: 'checkbox', value: id, checked: shown.includes(id) });
    const words = document.createElement('span');
    words.append(...heading(steps.find((step) => step.part === id).title));
    const label = document.createElement('label');
    label.append(box, words);
    const item = document.createElement('li');
    item.append(label);
    return item;
  }));
  const write = () => {
    const ticked = [...list.querySelectorAll('input:checked')].map((box) => box.value);
    field.value = stepsLink(location.href, ticked);
    said.textContent = '';
  };
  list.addEventListener('change', write);
  write();
  chooser.querySelector('.copy-steps-link').addEventListener('click', async (event) => {
    const allowed = (document.permissionsPolicy ?? document.featurePolicy)?.allowsFeature('clipboard-write') ?? true;
    let copied = allowed && (await navigator.clipboard?.writeText(field.value).then(() => true, () => false));
    if (!copied) {
      field.select();
      copied = document.execCommand?.('copy') ?? false;
    }
    said.textContent = t(copied ? 'share.copiedLink' : 'share.copyManually');
    (copied ? event.target : field).focus();
    if (!copied) field.select();
  });
}

start().catch((error) => console.error(error));
