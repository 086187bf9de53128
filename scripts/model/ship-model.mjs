// The shipped language model (issue 20, docs/model.md): after `npm run train:model` has trained
// both twins into build/model/, copies what the page and the API load into web/assets/model/ —
// each twin's int8 weights (`<variant>.weights`, within 2 MB), the vocabulary and each word's
// count in the training text (unigram.txt), each twin's whole
// curve (one row per step: learning rate, training loss; the validation loss every --eval-every steps) —
// and writes model.json: the settings, the corpus split, the baselines and each twin's test
// perplexity in every encoding, as the training driver printed them. Deterministic: the same run
// gives the same files. tests/js/model-assets.test.mjs holds the curves' first steps to a rerun.
//   node scripts/model/ship-model.mjs [--from build/model] [--to web/assets/model]
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const from = option('--from', 'build/model');
const to = option('--to', 'web/assets/model');
const VARIANTS = ['scaled', 'unscaled'];

function fail(message) {
  console.error(`ship-model: ${message}`);
  process.exit(1);
}

const read = (name) => {
  try {
    return readFileSync(join(from, name), 'utf8');
  } catch {
    return fail(`${join(from, name)} is missing: run npm run train:model first`);
  }
};

// "| Kneser-Ney bigram | 218.27 | 220.27 |" → { name, validation, test }
const baselines = read('baselines.md').split('\n').slice(2).filter((line) => line.startsWith('|')).map((line) => {
  const [name, validation, test] = line.split('|').slice(1, 4).map((cell) => cell.trim());
  return { name, validationPerplexity: Number(validation), testPerplexity: Number(test) };
});

const corpus = JSON.parse(read('corpus.json'));
const twins = {};
let settings = null;
for (const variant of VARIANTS) {
  const log = read(`${variant}.log`);
  // "[scaled] 1940992 parameters; L 2, H 4, C 128, T 64, V 12000, batch 16, 5000 steps"
  const shape = /(\d+) parameters; L (\d+), H (\d+), C (\d+), T (\d+), V (\d+), batch (\d+), (\d+) steps/.exec(log);
  if (!shape) fail(`${variant}.log does not name the model's settings`);
  const [parameters, layers, heads, dModel, context, vocab, batch, steps] = shape.slice(1).map(Number);
  settings ??= { parameters, layers, heads, dModel, dHead: dModel / heads, context, vocab, batch, steps };
  const encodings = {};
  for (const [, encoding, bytes, perplexity] of log.matchAll(/-(f32|f16|q8)\.weights: (\d+) bytes, test perplexity ([\d.]+)/g))
    encodings[encoding] = { bytes: Number(bytes), testPerplexity: Number(perplexity) };
  if (!encodings.q8) fail(`${variant}.log has no test perplexity: the run has not finished`);
  const rows = read(`${variant}-curve.tsv`).trim().split('\n').slice(1).map((line) => line.split('\t'));
  if (rows.length !== steps) fail(`${variant}-curve.tsv has ${rows.length} steps of ${steps}`);
  const validation = rows.filter((r) => r[3] !== '').map((r) => [Number(r[0]), Number(r[3])]);
  twins[variant] = { scale: variant === 'scaled' ? `1/√${dModel / heads}` : '1', encodings, validation, shipped: 'q8' };
  mkdirSync(to, { recursive: true });
  copyFileSync(join(from, `${variant}-q8.weights`), join(to, `${variant}.weights`));
  copyFileSync(join(from, `${variant}-curve.tsv`), join(to, `${variant}-curve.tsv`));
}
copyFileSync(join(from, 'vocab.txt'), join(to, 'vocab.txt'));

// each id's count in the training split (line i = id i): the unigram the API and page compare with
let train;
try {
  train = readFileSync(join(from, 'train.bin'));
} catch {
  fail(`${join(from, 'train.bin')} is missing: run npm run train:model first`);
}
const ids = new Uint16Array(train.buffer, train.byteOffset, train.byteLength / 2);
const counts = new Array(settings.vocab).fill(0);
for (const id of ids) counts[id]++;
writeFileSync(join(to, 'unigram.txt'), `${counts.join('\n')}\n`);

const split = Object.fromEntries(Object.entries(corpus.splits).map(([name, s]) => [name, { documents: s.documents, tokens: s.tokens, unknownRate: s.unknownRate, sha256: s.sha256 }]));
// the options train-model.sh gave both twins, and what the page says of them
const options = readFileSync('scripts/model/twins.options', 'utf8').replace(/#.*/g, '').trim().split(/\s+/);
const value = (name) => (options.includes(name) ? Number(options[options.indexOf(name) + 1]) : 0);
const training = {
  options,
  repeatShare: value('--repeat-share'), repeatMin: value('--repeat-min'), repeatMax: value('--repeat-max'),
  repeatRandom: options.includes('--repeat-random'), attentionOnly: options.includes('--attention-only'),
};
const model = { source: corpus.source, split, settings, training, baselines, twins };
writeFileSync(join(to, 'model.json'), `${JSON.stringify(model, null, 1)}\n`);
console.log(`ship-model: ${VARIANTS.map((v) => `${v} ${twins[v].encodings.q8.testPerplexity}`).join(', ')} (test perplexity, int8) → ${to}`);
