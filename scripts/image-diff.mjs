// Pixel differences between two PNG screenshots, compared in headless Chromium: how many pixels
// differ, by how much at most (0–255 in any channel), and where. With OUT, writes the differing
// pixels in red over a faded copy of A.
//   node scripts/image-diff.mjs A.png B.png [OUT.png]
// npm run screenshots -- --compare DIR uses diffImages on every picture it takes.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

import { launchChromium } from './chromium.mjs';

/**
 * { size, differing, maxLevel, box } for two PNG files (or { sizes } when their sizes differ),
 * compared on `page` (any page of a launched Chromium); writes the marked picture to `out` if given.
 */
export async function diffImages(page, a, b, out = null) {
  const dataUrl = async (file) => `data:image/png;base64,${(await readFile(file)).toString('base64')}`;
  const result = await page.evaluate(async ([urlA, urlB, wantImage]) => {
    const load = (src) => new Promise((resolve, reject) => Object.assign(new Image(), { onload() { resolve(this); }, onerror: reject, src }));
    const pixels = (image) => {
      const ctx = new OffscreenCanvas(image.width, image.height).getContext('2d');
      ctx.drawImage(image, 0, 0);
      return ctx.getImageData(0, 0, image.width, image.height);
    };
    const [imageA, imageB] = await Promise.all([load(urlA), load(urlB)]);
    if (imageA.width !== imageB.width || imageA.height !== imageB.height)
      return { sizes: [[imageA.width, imageA.height], [imageB.width, imageB.height]] };
    const A = pixels(imageA).data;
    const B = pixels(imageB).data;
    const marked = new ImageData(imageA.width, imageA.height);
    let differing = 0;
    let maxLevel = 0;
    const box = [Infinity, Infinity, -1, -1];
    for (let p = 0; p < A.length; p += 4) {
      let d = 0;
      for (let c = 0; c < 4; c++) d = Math.max(d, Math.abs(A[p + c] - B[p + c]));
      const grey = 178 + 0.3 * (0.3 * A[p] + 0.59 * A[p + 1] + 0.11 * A[p + 2]);
      marked.data.set(d ? [255, 0, 0, 255] : [grey, grey, grey, 255], p);
      if (!d) continue;
      differing++;
      maxLevel = Math.max(maxLevel, d);
      const x = (p / 4) % imageA.width;
      const y = Math.floor(p / 4 / imageA.width);
      box[0] = Math.min(box[0], x);
      box[1] = Math.min(box[1], y);
      box[2] = Math.max(box[2], x);
      box[3] = Math.max(box[3], y);
    }
    let png = null;
    if (wantImage && differing) {
      const canvas = new OffscreenCanvas(imageA.width, imageA.height);
      canvas.getContext('2d').putImageData(marked, 0, 0);
      const bytes = new Uint8Array(await (await canvas.convertToBlob()).arrayBuffer());
      let text = '';
      for (let k = 0; k < bytes.length; k += 8192) text += String.fromCharCode(...bytes.subarray(k, k + 8192));
      png = btoa(text);
    }
    return { size: [imageA.width, imageA.height], differing, maxLevel, box: differing ? box : null, png };
  }, [await dataUrl(a), await dataUrl(b), Boolean(out)]);
  if (result.png) await writeFile(out, Buffer.from(result.png, 'base64'));
  delete result.png;
  return result;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [a, b, out] = process.argv.slice(2);
  if (!a || !b) throw new Error('usage: node scripts/image-diff.mjs A.png B.png [OUT.png]');
  const chromium = await launchChromium();
  try {
    console.log(`${b}: ${JSON.stringify(await diffImages(await chromium.context.newPage(), a, b, out))}`);
  } finally {
    await chromium.close();
  }
}
