// The command line in the language of its environment (LC_ALL, else LC_MESSAGES, else LANG):
// bokmål for nb_NO.UTF-8 — its messages, help and figures, with decimal commas — and English
// for C, POSIX or a language without a table.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { EXIT_OK, EXIT_USAGE, main } from '../../bin/cli.js';

async function run(env, ...args) {
  let out = '';
  let err = '';
  const status = await main(args, { stdout: { write: (text) => (out += text) }, stderr: { write: (text) => (err += text) }, env });
  return { status, out, err };
}

const texts = (svg) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);

test('LANG=nb_NO.UTF-8: messages in bokmål, the expected range from the settings table', async () => {
  const { status, err } = await run({ LANG: 'nb_NO.UTF-8' }, 'render', '--dk', '3000');
  assert.equal(status, EXIT_USAGE);
  assert.equal(err, 'attention-lab: --dk "3000" er ikke gyldig: den må være et heltall fra 1 til 1024\nKjør «attention-lab --help» for å se valgene.\n');
  const unknown = await run({ LANG: 'nb_NO.UTF-8' }, 'render', '--sentense', 'x');
  assert.match(unknown.err, /^attention-lab: ukjent valg --sentense \(mente du --sentence\?\)\n/);
  const help = await run({ LANG: 'nb_NO.UTF-8' }, '--help');
  assert.equal(help.status, EXIT_OK);
  assert.match(help.out, /^Bruk: attention-lab render \[valg\] > figur\.svg\n/);
  assert.match(help.out, /--dk N {16}d_k for den tilfeldige projeksjonen: et heltall fra 1 til 1024 \(standard 64\)/);
});

test('LANG=nb_NO.UTF-8: the figure in bokmål, numbers with a decimal comma', async () => {
  const { status, out } = await run({ LANG: 'nb_NO.UTF-8' }, 'render', '--view', 'bars');
  assert.equal(status, EXIT_OK);
  const shown = texts(out);
  assert.ok(shown.includes('Hva «cat» retter oppmerksomheten mot'), shown.join(' | '));
  assert.ok(shown.includes('q = k = x (GloVe, 100 dimensjoner) · skalert med 1/√100'));
  assert.ok(shown.some((text) => /^0,\d{3}$/.test(text)), 'weights with a decimal comma');
  assert.ok(!shown.some((text) => /^0\.\d{3}$/.test(text)), 'no decimal point in a weight');
  // CSV and JSON are for software: numbers as software reads them, in any language
  const csv = await run({ LANG: 'nb_NO.UTF-8' }, 'render', '--format', 'csv', '--view', 'bars');
  assert.match(csv.out, /\b0\.\d+/);
});

test('the environment: LC_ALL before LC_MESSAGES before LANG; C, POSIX and other languages are English', async () => {
  const message = async (env) => (await run(env, 'render', '--dk', '0')).err.split('\n')[0];
  const english = 'attention-lab: --dk "0" is not valid: it must be a whole number from 1 to 1024';
  const bokmal = 'attention-lab: --dk "0" er ikke gyldig: den må være et heltall fra 1 til 1024';
  assert.equal(await message({}), english);
  assert.equal(await message({ LANG: 'C' }), english);
  assert.equal(await message({ LANG: 'de_DE.UTF-8' }), english);
  assert.equal(await message({ LANG: 'nb_NO.UTF-8' }), bokmal);
  assert.equal(await message({ LANG: 'no_NO' }), bokmal);
  assert.equal(await message({ LANG: 'en_GB.UTF-8', LC_MESSAGES: 'nb_NO.UTF-8' }), bokmal);
  assert.equal(await message({ LANG: 'nb_NO.UTF-8', LC_ALL: 'C' }), english);
  assert.equal(await message({ LANG: 'nb_NO.UTF-8', LC_ALL: 'POSIX' }), english);
});
