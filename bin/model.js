// `attention-lab model --sentence TEXT [--layer L --head H] [--format svg|csv|json]`: the trained
// language model of docs/model.md (attention-lab/model) on a sentence, as the page's model view
// shows it — one head's rows and the next word as an SVG figure (web/views/model.js), every
// head's rows (or one head's) as CSV, or everything as JSON.
import { VARIANTS, loadModel, modelDescription } from '../web/api/model.js';
import { THEMES } from '../web/api/lab.js';
import { toMarkup } from '../web/views/h.js';
import { FORMATS } from '../web/views/export.js';
import { modelFigure } from '../web/views/model.js';
import { csvText, float32Text } from '../web/views/numbers.js';
import { DEFAULT_PNG_SCALE, PNG_SCALES, svgToPng } from './png.js';
import { EXIT_FAILURE, EXIT_USAGE, UsageError, deliver, formatFor, helpText, notify, parseOptions, positionFrom } from './command.js';

// The formats of the export table (web/views/export.js), each written here by the model's own
// writers below (PNG: the SVG rasterised by resvg, bin/png.js).
export const MODEL_FORMATS = Object.keys(FORMATS);
const TEMPERATURE = { min: 0.05, max: 10 };

const OPTIONS = {
  sentence: { type: 'string' },
  variant: { type: 'string' },
  layer: { type: 'string' },
  head: { type: 'string' },
  'no-scale': { type: 'boolean' },
  temperature: { type: 'string' },
  format: { type: 'string' },
  theme: { type: 'string' },
  'png-scale': { type: 'string' },
  output: { type: 'string', short: 'o' },
  help: { type: 'boolean', short: 'h' },
};

// --help, from this table (bin/command.js helpText); every option has a row.
const HELP = [
  ['modelCli.helpOptions', [
    { option: 'sentence', value: 'cli.valueText', words: 'modelCli.optionSentence' },
    { option: 'variant', value: 'cli.valueName', words: 'modelCli.optionVariant', default: 'scaled' },
    { names: ['--layer L --head H'], covers: ['layer', 'head'], words: 'modelCli.optionLayerHead' },
    { option: 'no-scale', words: 'modelCli.optionNoScale' },
    { option: 'temperature', value: 'T', words: 'modelCli.optionTemperature', default: 1 },
    { option: 'format', value: 'cli.valueName', words: 'modelCli.optionFormat' },
    { option: 'theme', value: 'cli.valueName', words: 'modelCli.optionTheme', default: 'light' },
    { option: 'png-scale', value: 'N', words: 'cli.optionPngScale' },
    { option: 'output', value: 'cli.valueFile', words: 'cli.optionOutput' },
    { option: 'help', words: 'cli.optionHelp' },
  ]],
];

async function help(t, name) {
  const { settings } = await modelDescription();
  const or = (values) => t('cli.or', { list: values.slice(0, -1).join(', '), last: values.at(-1) });
  const params = { name, ...settings, ...TEMPERATURE, formats: or(MODEL_FORMATS), themes: or(Object.keys(THEMES)),
    scale: String(DEFAULT_PNG_SCALE), scaleMin: String(PNG_SCALES.min), scaleMax: String(PNG_SCALES.max) };
  const rows = HELP.map(([heading, section]) => [heading, section.map((row) =>
    row.default === undefined ? row : { ...row, more: ` ${t('cli.default', { value: String(row.default) })}` })]);
  return helpText({ top: [t('modelCli.helpUsage', params), t('modelCli.helpIntro', params)], sections: rows, bottom: [t('modelCli.helpExamples', params)] }, OPTIONS, t, params);
}

/** Runs `attention-lab model <args>`; resolves with the exit status (0, 1 or 2 as bin/command.js). */
export async function modelCommand(args, { stdout, stderr, stdoutClosed = false, fs, strings, name }) {
  const t = strings.t;
  const invalid = (option, value, expected) => new UsageError(t('cli.invalid', { option, value: JSON.stringify(value), must: t('settings.mustBe', { expected }) }));
  const oneOf = (values) => ({ key: 'settings.oneOf', params: { values: values.join(', ') } });
  try {
    const { values, notices } = parseOptions(args, OPTIONS, t);
    notify(stderr, name, notices);
    if (values.help) return await deliver(await help(t, name), { stdout, stdoutClosed, t });
    if (values.sentence === undefined) throw new UsageError(t('modelCli.noSentence', { name }));
    const variant = values.variant ?? 'scaled';
    if (!VARIANTS.includes(variant)) throw invalid('--variant', variant, oneOf(VARIANTS));
    const format = formatFor(values, MODEL_FORMATS, {
      invalid: (value, known) => invalid('--format', value, oneOf(known)).message,
      mismatch: (given, file) => t('cli.formatMismatch', { format: given, file }),
      unsupported: (value) => invalid('--format', value, oneOf(MODEL_FORMATS)).message,
    });
    let pngScale = DEFAULT_PNG_SCALE;
    if (values['png-scale'] !== undefined) {
      if (format !== 'png') throw new UsageError(t('cli.pngScaleNeedsPng'));
      pngScale = /^\s*\d+(\.\d+)?\s*$/.test(values['png-scale']) ? Number(values['png-scale']) : NaN;
      if (!(pngScale >= PNG_SCALES.min && pngScale <= PNG_SCALES.max))
        throw invalid('--png-scale', values['png-scale'], { key: 'settings.number', params: { min: String(PNG_SCALES.min), max: String(PNG_SCALES.max) } });
    }
    const theme = values.theme ?? 'light';
    if (!Object.hasOwn(THEMES, theme)) throw invalid('--theme', theme, oneOf(Object.keys(THEMES)));
    const temperature = values.temperature === undefined ? 1 : Number(values.temperature);
    if (!(temperature >= TEMPERATURE.min && temperature <= TEMPERATURE.max))
      throw invalid('--temperature', values.temperature, { key: 'modelCli.temperatureRange', params: TEMPERATURE });

    const model = await loadModel({ variant });
    let text;
    try {
      const { layers, heads } = model.info;
      const index = (option, value, most) => {
        if (value === undefined) return undefined;
        const n = positionFrom(value, most);
        if (n === null) throw invalid(option, value, { key: 'modelCli.countRange', params: { most } });
        return n;
      };
      const layer = index('--layer', values.layer, layers), head = index('--head', values.head, heads);
      if ((layer === undefined) !== (head === undefined)) throw new UsageError(t('modelCli.layerAndHead'));
      const run = model.run(values.sentence, { scaleAtInference: !values['no-scale'], temperature });
      if (run.message) notify(stderr, name, [t('modelView.truncated', { context: model.info.context, count: run.truncated })]);
      text = format === 'svg' || format === 'png'
        ? `${toMarkup(modelFigure(run, { info: model.info, layer: layer ?? 1, head: head ?? 1, theme: THEMES[theme], strings }))}\n`
        : format === 'csv' ? attentionCsv(run, layer, head) : `${JSON.stringify(json(run, model, layer, head), null, 1)}\n`;
    } finally {
      model.dispose(); // its memory back to the engine, whatever happened (main() may run again in-process)
    }
    if (format === 'png') text = await svgToPng(text, { scale: pngScale });
    return await deliver(text, { output: values.output, stdout, stdoutClosed, fs, t });
  } catch (error) {
    const usage = error instanceof UsageError || error.code === 'ATTN_INVALID_ARGUMENT';
    stderr.write(`${name}: ${error.message}\n${usage ? `${t('modelCli.usage', { name })}\n` : ''}`);
    return usage ? EXIT_USAGE : EXIT_FAILURE;
  }
}

/**
 * One head: its n×n rows under the tokens; every head: one line per (layer, head, query, key) of
 * the causal rows. `run` is a model's run or attention supplied from another model (one head).
 */
export function attentionCsv(run, layer, head) {
  const n = run.tokens.length;
  // tokens as safe text cells (RFC 4180, no formulas), weights as their shortest float32 text
  const cells = (row) => row.map((x) => (typeof x === 'number' ? float32Text(x) : csvText(x))).join(',');
  if (layer !== undefined) {
    const w = run.attention[layer - 1][head - 1];
    return [cells(['query', ...run.tokens]), ...run.tokens.map((token, i) => cells([token, ...Array.from(w.subarray(i * n, (i + 1) * n))]))].join('\n') + '\n';
  }
  const lines = [cells(['layer', 'head', 'query_position', 'query', 'key_position', 'key', 'weight'])];
  run.attention.forEach((layerHeads, l) => layerHeads.forEach((w, h) => {
    for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) lines.push(cells([l + 1, h + 1, i + 1, run.tokens[i], j + 1, run.tokens[j], w[i * n + j]]));
  }));
  return `${lines.join('\n')}\n`;
}

function json(run, model, layer, head) {
  const rows = (w) => Array.from({ length: run.tokens.length }, (_, i) => Array.from(w.subarray(i * run.tokens.length, (i + 1) * run.tokens.length)));
  return {
    model: { variant: model.variant, layers: model.info.layers, heads: model.info.heads, dK: model.info.dK, heldOutPerplexity: model.info.heldOutPerplexity },
    tokens: run.tokens, known: run.known, truncated: run.truncated,
    scaleAtInference: run.scaleAtInference, temperature: run.temperature,
    attention: layer !== undefined ? { layer, head, rows: rows(run.attention[layer - 1][head - 1]) } : run.attention.map((hs) => hs.map(rows)),
    heads: run.heads,
    next: { after: run.tokens[run.position], top: run.next.top, unknown: run.next.unknown, entropy: run.next.entropy },
  };
}
