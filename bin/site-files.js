// The site: which files of web/ a page may load. One list for everything that ships the pages
// (the SCORM package, bin/scorm.js; `npm run site`, scripts/build-site.mjs); `npm start` serves
// web/ itself. Left out: type declarations and notes (read by editors and people, not pages), and
// the notebook widget (web/widget/ and its bundle web/build/attention-widget.js: a Python
// package's, never loaded by a page).
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const WEB = fileURLToPath(new URL('../web/', import.meta.url));
export const NOT_FOR_PAGES = /\.d\.ts$|\.md$|^widget\/|^build\/attention-widget\.js$/;
// the teacher's page (web/teacher.html, its module and styles): in the site, not in the SCORM
// package, which learners open — its answer key stays out of their reach
export const FOR_TEACHERS = /^teacher\.(html|js|css)$/;
// the two cores: without them no page computes anything
export const CORES = ['build/attention-simd.wasm', 'build/attention-scalar.wasm'];

/** Every file of web/ a page may load, as sorted '/'-separated paths relative to web/. */
export async function siteFiles(web = WEB) {
  const found = [];
  for (const entry of await readdir(web, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const name = relative(web, join(entry.parentPath ?? entry.path, entry.name)).split(sep).join('/');
    if (!NOT_FOR_PAGES.test(name)) found.push(name);
  }
  return found.sort();
}
