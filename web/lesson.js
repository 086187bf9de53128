// The lesson on its own, for lesson authors who want only the instruments: its own bar of
// controls (sentence, d_k, query word, scaling, seed) in place of <attention-lab>, feeding the
// same <attention-lesson> as the demo page. The state is the lab's own: its settings store
// (web/lab/settings.js), its pipeline (web/lab/inputs.js) and labState (web/lab/state.js), on
// the Random projection — so a sentence gives the same numbers on both pages, through the same
// code. State flows one way: controls and the instruments' requests → store → state → lesson.
// first: a link's ?steps= must reach <attention-lesson> before the lesson is defined (below)
import './lesson-steps.js';
import { LESSON_MAX_TOKENS } from './lesson/model.js';
import { loadEngine, loadingWords, pageVocab } from './lab/assets.js';
import { LabPipeline } from './lab/inputs.js';
import { createStore, settingsInWords } from './lab/settings.js';
import { labState } from './lab/state.js';
import { tokenize } from './lab/tokenize.js';
import { messageOf } from './i18n/i18n.js';
import { strings } from './i18n/page.js';
import { shortLabel } from './i18n/format.js';
import { keepProgress } from './lesson-keep.js';
import { SCORM_META } from './lms/scorm.js';
import './components/lesson/attention-lesson.js';
import './components/lesson/training-experiment.js'; // its own controls, worker and engine (started when it comes near)
import './components/lesson/model-view.js'; // the trained model, on the bar's sentence (loaded when it comes near)

const $ = (id) => document.getElementById(id);
const status = $('status');

// The bar's controls as a patch of lab settings. The sweeps and heads take at most
// LESSON_MAX_TOKENS tokens: this page takes no more, so every instrument shows every word.
function readControls() {
  const sentence = $('sentence').value;
  return {
    sentence,
    tokens: tokenize(sentence).slice(0, LESSON_MAX_TOKENS),
    dk: 2 ** Number($('dk').value),
    scaled: $('scaled').checked,
    seed: Math.max(0, Math.min(0xffffffff, Math.floor(Number($('seed').value) || 0))),
  };
}

// The query words of the bar's select, kept when the sentence changes (the index is clamped).
let shownRows = null;
function showRows(tokens) {
  const select = $('row');
  if (shownRows === tokens.join('\u0000')) return;
  shownRows = tokens.join('\u0000');
  const previous = Number(select.value) || 0;
  select.replaceChildren(...tokens.map((word, i) => new Option(`${i + 1}. ${shortLabel(word)}`, String(i))));
  select.value = String(Math.min(previous, Math.max(0, tokens.length - 1)));
}

async function main() {
  // the lab's own engine and vocabulary: a sentence's words load with it, as in the lab
  const vocab = pageVocab();
  const engine = await loadEngine();
  const pipeline = new LabPipeline(engine, vocab);
  const store = createStore();
  const lesson = document.querySelector('attention-lesson');
  lesson.engine = engine;

  function draw(settings) {
    $('dk-value').textContent = String(settings.dk);
    const t = strings.t;
    const loading = loadingWords(vocab, settings);
    if (loading.length > 0) {
      status.textContent = t('lab.loadingWords', { list: loading.map(shortLabel).join(', ') });
      vocab.load(loading).then(
        () => store.get() === settings && draw(settings),
        (error) => (status.textContent = t('lab.wordsFailed', { message: error.message })),
      );
      return;
    }
    let state;
    try {
      state = labState(settings, pipeline, engine);
    } catch (error) {
      status.textContent = settings.tokens.length === 0 ? t('lessonPage.typeSentence') : t('lab.previous', { message: messageOf(error, strings) });
      return;
    }
    lesson.state = state;
    document.querySelector('model-view').tokens = state.tokens.map((token) => token.text);
    document.documentElement.dataset.ready = 'true'; // the first state is drawn (tests wait for it)
    const unknown = state.unknown ?? [];
    // words the files lack whose vectors this sentence made (docs/vocabulary.md): named, as the lab's chips mark them
    const context = state.tokens.filter((token) => token.source === 'context').map((token) => token.text);
    const words = [
      t('lessonPage.tokens', { count: state.n }),
      context.length ? t('lessonPage.context', { list: strings.list(context.map(shortLabel)) }) : '',
      unknown.length ? t('lessonPage.unknown', { list: strings.list(unknown.map(shortLabel)) }) : '',
    ].filter(Boolean);
    status.textContent = [
      `${words.join('; ')}.`,
      ...settingsInWords(state.settings, strings, { temperature: { key: 'lessonPage.temperature', atDefault: false } }, { params: { t: strings.fmt(state.temperature) } }),
      t(engine.simd ? 'lessonPage.coreSimd' : 'lessonPage.coreScalar'),
    ].filter(Boolean).join(' ');
  }

  const set = (patch) => {
    const { rejected } = store.set(patch);
    for (const [name, reason] of Object.entries(rejected)) console.warn(`lesson.html: ${name} ${reason}`);
  };
  const fromControls = () => {
    const patch = readControls();
    showRows(patch.tokens);
    return { ...patch, selected: Number($('row').value) || 0 };
  };
  set({ projection: 'random', probe: '', ...fromControls() });
  store.subscribe(draw);
  draw(store.get());
  $('controls').addEventListener('input', () => set(fromControls()));
  $('controls').addEventListener('submit', (event) => event.preventDefault());
  // a lab setting the learner changed inside an instrument (the overflow demo's temperature)
  lesson.addEventListener('input', () => set(lesson.value));
}

// the learner's answers and place survive a reload (localStorage); in an LMS's package the LMS keeps them
if (!document.querySelector(`meta[name="${SCORM_META}"]`)) keepProgress();

main().catch((error) => {
  status.textContent = strings.t('lessonPage.couldNotStart', { message: error.message });
  status.classList.add('error');
  console.error(error);
});
