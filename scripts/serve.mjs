// Serves the static site in web/ on 127.0.0.1 (port from PORT, default 8080) and prints its URL.
// The site is plain static files: any static host works the same. Every response carries the
// strict Content-Security-Policy docs/embed.md promises, exactly — the one a lesson page may
// impose: nothing from another origin, no eval, no inline script or style, WebAssembly allowed.
// So every page runs under it here, and every browser test with it. The files may be used by
// other sites (Access-Control-Allow-Origin: *): a lesson page elsewhere may load <attention-lab>
// from here, as it would from any static host that allows it. Text and WebAssembly go out
// gzip-compressed when the browser accepts it, as any production host sends them: at a lesson
// platform's bandwidth the bytes of the first view decide how soon the first result shows.
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SITE_ROOT = fileURLToPath(new URL('../web/', import.meta.url));

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.bin': 'application/octet-stream',
  '.wasm': 'application/wasm',
  '.ts': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
};

// What is worth compressing (the word vectors' .bin files are packed already).
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.wasm', '.ts', '.md']);
const gzip = promisify(gzipCallback);
const compressed = new Map(); // path → { mtimeMs, size, body }: each file compressed once per version

async function gzipped(path, info) {
  const cached = compressed.get(path);
  if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached.body;
  const body = await gzip(await readFile(path), { level: 9 });
  compressed.set(path, { mtimeMs: info.mtimeMs, size: info.size, body });
  return body;
}

// A request's head may be as long as the longest address a browser sends (Chromium: 2 MB), so
// that a long link opens the page — Node's default, 16 KB, answered such a link with 431. The
// pages keep the links they write short (web/lab/url.js: at most the 128 tokens the lab uses);
// this is for links written by hand or by older pages.
export const MAX_HEADER_BYTES = 2 * 1024 * 1024 + 64 * 1024;

export const CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";

/**
 * A static file server for `root`; resolves to the listening http.Server. `compress`: gzip what
 * is worth it for a browser that accepts it (false: every file as it is). `policy`: the
 * Content-Security-Policy of every response, or a function of the request's path that returns
 * it (tests serve host pages of their own with other policies).
 */
export function startServer({ port = 8080, host = '127.0.0.1', root = SITE_ROOT, policy = CONTENT_SECURITY_POLICY, compress = true } = {}) {
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, async (req, res) => {
    try {
      const url = new URL(req.url, 'http://localhost');
      let path = normalize(join(root, decodeURIComponent(url.pathname)));
      if (!path.startsWith(normalize(root)) && path + sep !== normalize(root)) return send(res, 403, 'forbidden');
      let info = await stat(path).catch(() => null);
      if (info?.isDirectory()) {
        path = join(path, 'index.html');
        info = await stat(path).catch(() => null);
      }
      if (!info?.isFile()) return send(res, 404, 'not found');
      const headers = {
        'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream',
        'Content-Security-Policy': typeof policy === 'function' ? policy(url.pathname) : policy,
        'Access-Control-Allow-Origin': '*',
        'Cache-Control': 'no-cache',
      };
      const compressible = compress && COMPRESSIBLE.has(extname(path));
      if (compressible) headers.Vary = 'Accept-Encoding';
      if (compressible && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
        const body = await gzipped(path, info);
        res.writeHead(200, { ...headers, 'Content-Encoding': 'gzip', 'Content-Length': body.length });
        return res.end(req.method === 'HEAD' ? undefined : body);
      }
      res.writeHead(200, { ...headers, 'Content-Length': info.size });
      if (req.method === 'HEAD') return res.end();
      createReadStream(path).pipe(res);
    } catch {
      send(res, 400, 'bad request');
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

function send(res, status, text) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(text);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const port = Number(process.env.PORT ?? 8080);
  const server = await startServer({ port }).catch((error) => {
    console.error(`Cannot serve on 127.0.0.1:${port}: ${error.message} (set PORT to another port)`);
    process.exit(1);
  });
  console.log(`Attention Lab is served at http://127.0.0.1:${server.address().port}/  (Ctrl+C stops)`);
}
