#!/usr/bin/env node
// Summarises a trial of scripts/model/run-trials.sh over training (docs/model.md, "Trials"):
// from <dir>/<variant>-heads.tsv (train_model --watch-every) and <variant>-curve.tsv, per
// watched step: the validation loss where measured, per layer the heads' mean score standard
// deviation and mean largest weight, the best previous-token and induction heads, and the loss on
// a repeated random sequence's first and second copy.
//   node scripts/model/trial-summary.mjs build/model-trials/A scaled [--every N]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, variant = 'scaled', ...rest] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node scripts/model/trial-summary.mjs <trial folder> [scaled|unscaled] [--every N]');
  process.exit(2);
}
const every = rest[0] === '--every' ? Number(rest[1]) : 1;

const table = (file) => {
  const [head, ...rows] = readFileSync(file, 'utf8').trim().split('\n').map((l) => l.split('\t'));
  return rows.map((r) => Object.fromEntries(head.map((h, i) => [h, r[i] === '' || r[i] === undefined ? NaN : Number(r[i])])));
};
const heads = table(join(dir, `${variant}-heads.tsv`));
let curve = [];
try {
  curve = table(join(dir, `${variant}-curve.tsv`));
} catch {
  // no curve yet: step 0 only
}
const validation = new Map(curve.filter((r) => !Number.isNaN(r.validation_loss)).map((r) => [r.step, r.validation_loss]));

const steps = [...new Set(heads.map((r) => r.step))].sort((a, b) => a - b);  // a resumed run may repeat a step: its last rows count
const layers = Math.max(...heads.map((r) => r.layer));
const f = (x, d = 3) => x.toFixed(d);
const layerCols = Array.from({ length: layers }, (_, l) => `L${l + 1} score std | L${l + 1} top`).join(' | ');
console.log(`| step | validation loss | ${layerCols} | best previous (even) | best induction (even) | loss 1st / 2nd copy |`);
console.log(`|${'---|'.repeat(5 + 2 * layers)}`);
steps.forEach((step, i) => {
  if (i % every !== 0 && i !== steps.length - 1) return;
  const at = new Map();
  for (const r of heads.filter((r) => r.step === step)) at.set(`${r.layer}.${r.head}`, r);
  const rows = [...at.values()];
  const perLayer = Array.from({ length: layers }, (_, l) => {
    const mine = rows.filter((r) => r.layer === l + 1);
    const mean = (k) => mine.reduce((s, r) => s + r[k], 0) / mine.length;
    return `${f(mean('score_std'), 2)} | ${f(mean('top'))}`;
  }).join(' | ');
  const best = (k) => rows.reduce((a, b) => (b[k] > a[k] ? b : a));
  const p = best('previous'), q = best('induction');
  const v = validation.get(step);
  console.log(`| ${step} | ${v === undefined ? '' : f(v)} | ${perLayer} | ${f(p.previous)} (${p.layer}.${p.head}; ${f(p.even_text)}) | ` +
    `${f(q.induction)} (${q.layer}.${q.head}; ${f(q.even_induction)}) | ${f(p.loss_first_copy, 2)} / ${f(p.loss_second_copy, 2)} |`);
});
