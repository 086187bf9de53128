// `attention-lab scorm -o lesson.zip [--version 1.2|2004]`: the lesson (web/lesson.html) as a
// SCORM package an LMS imports without an administrator — imsmanifest.xml at the zip's root
// (Moodle rejects it anywhere else), the page and every file it may load inside (the modules,
// the WebAssembly cores, KaTeX, the word vectors, the styles), so nothing is fetched from the
// network. The package's lesson.html is the site's with two lines added: a meta naming the
// SCORM version and web/lms/scorm.js, which talks to the LMS (and does nothing without one).
// SCORM 1.2 by default; 2004 is its 4th edition. The bytes are deterministic (bin/zip.js).
// `--mastery P` (a percent) and `--no-reveal` become attributes of the page's <attention-lesson>
// (web/lms/scorm.js reads the first; the lesson obeys the second); 1.2's manifest also carries the
// mastery score (adlcp:masteryscore), which an LMS hands back as cmi.student_data.mastery_score.
// `--steps variance,saturation,quiz` becomes its `steps` attribute (web/lesson/steps.js): the
// package shows those steps, in that order, and reports them alone. `--pretest` becomes its
// `pretest` attribute: the quiz asked before the lesson too, without feedback (docs/lms.md).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { EXIT_FAILURE, EXIT_USAGE, UsageError, STDOUT_NAME, deliver, helpText, notify, parseOptions } from './command.js';
import { CORES, FOR_TEACHERS, WEB, siteFiles } from './site-files.js';
import { zip } from './zip.js';
import { SCORM_META, SCORM_VERSIONS } from '../web/lms/scorm.js';
import { LESSON_STEPS, readSteps } from '../web/lesson/steps.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export { SCORM_VERSIONS };
const LAUNCH = `lesson.html`; // (a file name, not a key of the string tables)
// the licences travel with the files they cover (KaTeX, the word vectors, the project's own)
const LICENCES = ['LICENSE', 'THIRD_PARTY_LICENSES.md'];
// the site's lesson.html loads its module here; the package's loads the LMS module after it
const ANCHOR = '<script type="module" src="./lesson.js"></script>';
const LESSON_TAG = '<attention-lesson';
// the site's lesson.html links the teacher's page, which the package leaves out (bin/site-files.js)
const TEACHER_LINK = /\n *<p class="for-teachers">.*<\/p>/;

const OPTIONS = {
  output: { type: 'string', short: 'o' },
  version: { type: 'string' },
  mastery: { type: 'string' },
  'no-reveal': { type: 'boolean' },
  steps: { type: 'string' },
  pretest: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

// --help, from this table (bin/command.js helpText); every option has a row.
const HELP = [
  ['scorm.helpOptions', [
    { option: 'output', value: 'cli.valueFile', words: 'scorm.optionOutput' },
    { option: 'version', value: 'V', words: 'scorm.optionVersion', default: SCORM_VERSIONS[0] },
    { option: 'mastery', value: 'P', words: 'scorm.optionMastery' },
    { option: 'no-reveal', words: 'scorm.optionNoReveal' },
    { option: 'steps', value: 'cli.valueList', words: 'scorm.optionSteps' },
    { option: 'pretest', words: 'scorm.optionPretest' },
    { option: 'help', words: 'cli.optionHelp' },
  ]],
];

function help(t, name) {
  const params = { name, versions: t('cli.or', { list: SCORM_VERSIONS.slice(0, -1).join(', '), last: SCORM_VERSIONS.at(-1) }), steps: LESSON_STEPS.join(',') };
  const rows = HELP.map(([heading, section]) => [heading, section.map((row) =>
    row.default === undefined ? row : { ...row, more: ` ${t('cli.default', { value: row.default })}` })]);
  return helpText({ top: [t('scorm.helpUsage', params), t('scorm.helpIntro', params)], sections: rows }, OPTIONS, t, params);
}

/** Runs `attention-lab scorm <args>`; resolves with the exit status (0, 1 or 2 as bin/command.js). */
export async function scormCommand(args, { stdout, stderr, stdoutClosed = false, fs, strings, name }) {
  const t = strings.t;
  try {
    const { values, notices } = parseOptions(args, OPTIONS, t);
    notify(stderr, name, notices);
    if (values.help) return await deliver(help(t, name), { stdout, stdoutClosed, t });
    const version = values.version ?? SCORM_VERSIONS[0];
    if (!SCORM_VERSIONS.includes(version))
      throw new UsageError(t('cli.invalid', { option: '--version', value: JSON.stringify(version), must: t('settings.mustBe', { expected: { key: 'settings.oneOf', params: { values: SCORM_VERSIONS.join(', ') } } }) }));
    let mastery = null;
    if (values.mastery !== undefined) {
      mastery = Number(values.mastery);
      if (values.mastery.trim() === '' || !Number.isInteger(mastery) || mastery < 0 || mastery > 100)
        throw new UsageError(t('cli.invalid', { option: '--mastery', value: JSON.stringify(values.mastery), must: t('settings.mustBe', { expected: { key: 'settings.wholeNumber', params: { min: '0', max: '100' } } }) }));
    }
    const steps = values.steps === undefined ? null : stepsFrom(values.steps, t);
    if (!values.output) throw new UsageError(t('scorm.noOutput', { name }));
    const entries = await packageEntries(version, strings, { mastery, reveal: !values['no-reveal'], steps, pretest: Boolean(values.pretest) });
    const bytes = zip(entries);
    // written beside the target, then renamed: a failed write never leaves half a package
    await deliver(bytes, { output: values.output, stdout, stdoutClosed, fs, t });
    if (values.output === STDOUT_NAME) return 0; // the package is the output: no words after it
    await deliver(`${t('scorm.written', { file: values.output, version, count: String(entries.length), kB: String(Math.round(bytes.length / 1000)) })}\n`, { stdout, stdoutClosed, t });
    return 0;
  } catch (error) {
    const usage = error instanceof UsageError;
    stderr.write(`${name}: ${error.message}\n${usage ? `${t('scorm.usage', { name })}\n` : ''}`);
    return usage ? EXIT_USAGE : EXIT_FAILURE;
  }
}

// --steps: the lesson's rule (web/lesson/steps.js), but strict — a package is written once, for
// a class, so a step it cannot name, a step named twice or no step at all is a usage error.
function stepsFrom(text, t) {
  const { steps, unknown, more, repeated } = readSteps(text);
  const invalid = (must) => new UsageError(t('cli.invalid', { option: '--steps', value: JSON.stringify(text), must }));
  const list = LESSON_STEPS.join(', ');
  if (unknown.length > 0) throw invalid(t('scorm.stepsUnknown', { list: [...unknown, ...(more > 0 ? [`+${more}`] : [])].join(', '), steps: list }));
  if (repeated.length > 0) throw invalid(t('scorm.stepsRepeated', { list: repeated.join(', ') }));
  if (!steps) throw invalid(t('scorm.stepsNone', { steps: list }));
  return steps;
}

/**
 * The package's files, [{ name, data }], imsmanifest.xml first; `version` '1.2' or '2004';
 * `mastery` the percent that passes (or null), `reveal` false: exercises never show their answer;
 * `steps` the steps shown, in order (null: every step); `pretest` true: the quiz asked before too.
 */
export async function packageEntries(version, strings, { mastery = null, reveal = true, steps = null, pretest = false } = {}) {
  // what the page needs: the site's files (bin/site-files.js), less the teacher's page
  const names = (await siteFiles()).filter((name) => !FOR_TEACHERS.test(name));
  for (const core of CORES)
    if (!names.includes(core)) throw new Error(strings.t('scorm.notBuilt', { file: `web/${core}` }));
  const files = [];
  for (const name of names) {
    let data = await readFile(join(WEB, name));
    if (name === LAUNCH) data = Buffer.from(launchPage(data.toString('utf8'), version, { mastery, reveal, steps, pretest }));
    files.push({ name, data });
  }
  for (const name of LICENCES) files.push({ name, data: await readFile(join(ROOT, name)) });
  const manifest = manifestXml(version, files.map((f) => f.name), strings.t('lessonPage.title'), { mastery });
  return [{ name: 'imsmanifest.xml', data: Buffer.from(manifest) }, ...files];
}

// The site's lesson.html with the SCORM version and the LMS module added, and the author's
// choices as the lesson's attributes.
function launchPage(html, version, { mastery, reveal, steps, pretest }) {
  if (!html.includes(ANCHOR)) throw new Error(`web/${LAUNCH} no longer loads ./lesson.js as "${ANCHOR}": the package cannot add its LMS module after it`);
  if (!html.includes(LESSON_TAG)) throw new Error(`web/${LAUNCH} has no "${LESSON_TAG}": the package cannot set the lesson's attributes`);
  if (!TEACHER_LINK.test(html)) throw new Error(`web/${LAUNCH} has no <p class="for-teachers"> line: the package cannot drop its link to a page it leaves out`);
  // (steps are ids of LESSON_STEPS: nothing to escape)
  const attributes = `${mastery === null ? '' : ` mastery="${mastery}"`}${reveal ? '' : ' no-reveal'}${steps ? ` steps="${steps.join(',')}"` : ''}${pretest ? ' pretest' : ''}`;
  return html.replace(TEACHER_LINK, '').replace(LESSON_TAG, `${LESSON_TAG}${attributes}`).replace(ANCHOR, `${ANCHOR}\n  <meta name="${SCORM_META}" content="${version}">\n  <script type="module" src="./lms/scorm.js"></script>`);
}

// Every file under `dir`, relative with '/' separators, sorted (the zip's order is stable).
const xmlEscape = (text) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

// What differs between the versions' manifests: the namespaces, the schema version, and the
// spelling of the SCO attribute.
const MANIFEST = {
  '1.2': {
    content: 'http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd',
    adlcp: 'http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd',
    schemaVersion: '1.2',
    scormType: 'scormtype',
  },
  2004: {
    content: 'http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd',
    adlcp: 'http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd',
    schemaVersion: '2004 4th Edition',
    scormType: 'scormType',
  },
};

/** imsmanifest.xml: one organization, one item, one SCO resource listing every file. */
export function manifestXml(version, files, title, { mastery = null } = {}) {
  const m = MANIFEST[version];
  const namespace = (location) => location.split(' ')[0];
  const fileList = files.map((name) => `      <file href="${xmlEscape(encodeURI(name))}"/>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="attention-lab-lesson" version="1.0"
  xmlns="${namespace(m.content)}"
  xmlns:adlcp="${namespace(m.adlcp)}"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="${m.content} ${m.adlcp}">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>${m.schemaVersion}</schemaversion>
  </metadata>
  <organizations default="attention-lab">
    <organization identifier="attention-lab">
      <title>${xmlEscape(title)}</title>
      <item identifier="lesson" identifierref="lesson-sco">
        <title>${xmlEscape(title)}</title>${version === '1.2' && mastery !== null ? `\n        <adlcp:masteryscore>${mastery}</adlcp:masteryscore>` : ''}
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="lesson-sco" type="webcontent" adlcp:${m.scormType}="sco" href="${LAUNCH}">
${fileList}
    </resource>
  </resources>
</manifest>
`;
}
