// A heatmap too large for one element (or one canvas pixel) per cell, as one picture: its colour
// levels max-pooled to the pixels a reader can see, and that picture as a PNG written here, with
// no zlib and no CompressionStream, so the page, a worker and Node write the same bytes.
//
//   const image = pooledLevels(levels, masked, n, m, width, height);  // Uint8Array height×width
//   const uri = pngDataUri(image, width, height, palette);          // 'data:image/png;base64,…'
//
// A pixel covering several cells shows the largest weight among them (a peaked row stays
// visible however small its cells), or, when every cell it covers is masked, the masked colour.

/** Index of the masked colour in a pooled image; levels above it are drawn as MASKED − 1. */
export const MASKED = 255;

/**
 * The n×m `levels` (0…255) and `masked` (1 = masked) as a `height`×`width` image of palette
 * indices (0…254 a level, MASKED a masked pixel), each pixel the largest unmasked level of the
 * cells it covers. Cost: one visit per cell.
 */
export function pooledLevels(levels, masked, n, m, width, height) {
  const image = new Uint8Array(width * height).fill(MASKED);
  const columnOf = new Uint32Array(m);
  for (let j = 0; j < m; j++) columnOf[j] = Math.min(width - 1, Math.floor((j * width) / m));
  for (let i = 0; i < n; i++) {
    const row = Math.min(height - 1, Math.floor((i * height) / n)) * width;
    for (let j = 0, at = i * m; j < m; j++, at++) {
      if (masked[at]) continue;
      const level = Math.min(MASKED - 1, levels[at]);
      const p = row + columnOf[j];
      if (image[p] === MASKED || level > image[p]) image[p] = level;
    }
  }
  return image;
}

/**
 * A `width`×`height` image of palette indices as an 8-bit indexed PNG, `palette` the colours
 * ([r, g, b] each, at most 256), as a data: URI. Deflate's stored blocks (no compression): the
 * image is at most the pixels a reader sees, a few hundred kB.
 */
export function pngDataUri(image, width, height, palette) {
  return `data:image/png;base64,${base64(pngBytes(image, width, height, palette))}`;
}

/** The PNG file's bytes (see pngDataUri). */
export function pngBytes(image, width, height, palette) {
  // the scanlines: a filter byte (0, none) before each row
  const raw = new Uint8Array((width + 1) * height);
  for (let y = 0; y < height; y++) raw.set(image.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 3, 0, 0, 0], 8); // 8 bits, indexed colour, deflate, adaptive filtering, no interlace
  const colours = new Uint8Array(palette.length * 3);
  palette.forEach(([r, g, b], i) => colours.set([r, g, b], 3 * i));
  return concat([
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('PLTE', colours),
    chunk('IDAT', zlibStored(raw)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

// A zlib stream of `data` in stored (uncompressed) deflate blocks of at most 65,535 bytes.
function zlibStored(data) {
  const BLOCK = 65535;
  const blocks = Math.max(1, Math.ceil(data.length / BLOCK));
  const out = new Uint8Array(2 + data.length + blocks * 5 + 4);
  out.set([0x78, 0x01]); // deflate, 32 kB window, no dictionary (0x7801 % 31 === 0)
  let at = 2;
  for (let b = 0; b < blocks; b++) {
    const part = data.subarray(b * BLOCK, Math.min(data.length, (b + 1) * BLOCK));
    const last = b === blocks - 1 ? 1 : 0;
    out.set([last, part.length & 0xff, part.length >> 8, ~part.length & 0xff, (~part.length >> 8) & 0xff], at);
    out.set(part, at + 5);
    at += 5 + part.length;
  }
  new DataView(out.buffer).setUint32(at, adler32(data));
  return out;
}

function adler32(data) {
  let a = 1;
  let b = 0;
  for (let i = 0; i < data.length; ) {
    const end = Math.min(data.length, i + 5552); // the most bytes before the sums must be reduced
    for (; i < end; i++) {
      a += data[i];
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

let crcTable = null;
function crc32(bytes) {
  crcTable ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = crcTable[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// A PNG chunk: length, type, data, CRC of type and data.
function chunk(type, data) {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

// RFC 4648 base64, built in pieces (one string per 24 kB: no argument-count limit is reached).
function base64(bytes) {
  const pieces = [];
  for (let start = 0; start < bytes.length; start += 24576) {
    const end = Math.min(bytes.length, start + 24576);
    let text = '';
    for (let i = start; i < end; i += 3) {
      const a = bytes[i];
      const b = i + 1 < end ? bytes[i + 1] : 0;
      const c = i + 2 < end ? bytes[i + 2] : 0;
      text += ALPHABET[a >> 2] + ALPHABET[((a & 3) << 4) | (b >> 4)] +
        (i + 1 < end ? ALPHABET[((b & 15) << 2) | (c >> 6)] : '=') + (i + 2 < end ? ALPHABET[c & 63] : '=');
    }
    pieces.push(text);
  }
  return pieces.join('');
}
