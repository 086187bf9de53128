// PNG from the command line without a system tool: a figure's SVG rasterised by resvg's
// WebAssembly build (npm @resvg/resvg-wasm, MPL-2.0, an optional dependency: ~2.5 MB). resvg has
// no system fonts in WebAssembly, so it is given DejaVu Sans (and Sans Mono, regular and bold)
// from Debian's fonts-dejavu-core: the sans-serif that fontconfig, and so rsvg-convert, picks for
// the figures' font stack on Debian, with the Greek and maths the figures write (Σ, √, ·, →);
// its licence permits redistribution. A missing package or font is an error with a code that
// says what to install, never a stack trace.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** Where the DejaVu fonts live: Debian and Ubuntu (fonts-dejavu-core), Fedora, Arch. */
export const FONT_FOLDERS = Object.freeze(['/usr/share/fonts/truetype/dejavu', '/usr/share/fonts/dejavu-sans-fonts', '/usr/share/fonts/TTF']);
const FONT_FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf', 'DejaVuSansMono.ttf', 'DejaVuSansMono-Bold.ttf'];

/** Pixels per CSS px of a PNG unless --scale says: a 640 px figure is 1,280 px wide. */
export const DEFAULT_PNG_SCALE = 2;
/** The --scale a PNG may have: at most 8 (a 10,000 px figure is then 80,000 px wide). */
export const PNG_SCALES = Object.freeze({ min: 0.5, max: 8 });

const UNAVAILABLE = 'ATTN_PNG_UNAVAILABLE';
const unavailable = (message) => Object.assign(new Error(message), { code: UNAVAILABLE });

let ready = null; // { Resvg, fonts }: resvg's module initialised once, the fonts read once

async function resvg() {
  ready ??= (async () => {
    const require = createRequire(import.meta.url);
    let module;
    let wasm;
    try {
      module = await import('@resvg/resvg-wasm');
      wasm = await readFile(require.resolve('@resvg/resvg-wasm/index_bg.wasm'));
    } catch {
      throw unavailable('PNG needs the optional package @resvg/resvg-wasm (npm install @resvg/resvg-wasm), or write SVG and convert it');
    }
    await module.initWasm(wasm);
    return { Resvg: module.Resvg, fonts: await fonts() };
  })();
  ready.catch(() => (ready = null));
  return ready;
}

async function fonts() {
  for (const folder of FONT_FOLDERS) {
    const read = await Promise.all(FONT_FILES.map((name) => readFile(join(folder, name)).catch(() => null)));
    if (read[0]) return read.filter(Boolean).map((buffer) => new Uint8Array(buffer));
  }
  throw unavailable(`PNG needs the DejaVu fonts (Debian: apt-get install fonts-dejavu-core), looked for in ${FONT_FOLDERS.join(', ')}`);
}

/** `svg` (text) as PNG bytes at `scale` pixels per CSS px. Rejects with code ATTN_PNG_UNAVAILABLE without resvg or fonts. */
export async function svgToPng(svg, { scale = DEFAULT_PNG_SCALE } = {}) {
  const { Resvg, fonts: fontBuffers } = await resvg();
  const renderer = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: scale },
    font: { fontBuffers, defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans', monospaceFamily: 'DejaVu Sans Mono' },
  });
  try {
    const image = renderer.render();
    const png = image.asPng();
    image.free();
    return png;
  } finally {
    renderer.free();
  }
}
