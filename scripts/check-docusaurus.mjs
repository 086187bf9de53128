// docs/sites.md's Docusaurus snippet on a real Docusaurus 3 site: this package packed (npm pack), a
// site made in a temporary folder with docs/sites.md's config and MDX page, `docusaurus build`, the
// built site served and opened in Chromium, where the lab must draw its sentence's bars with no
// page error. Not part of npm test: installing Docusaurus takes ~1,300 packages, ~2 min and
// ~270 MB (from npm's configured registry). Exits 1 if any step fails.
//
//   npm run check:docusaurus            # [-- --keep] leaves the site's folder for a look
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { launchChromium } from './chromium.mjs';
import { startServer } from './serve.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const keep = process.argv.includes('--keep');
const readme = readFileSync(join(ROOT, 'docs/sites.md'), 'utf8');
const section = readme.slice(readme.indexOf('**Docusaurus**'));
const block = (lang) => section.match(new RegExp('```' + lang + '\\n([\\s\\S]*?)\\n```'))?.[1];
const page = block('mdx');
const scripts = block('js')?.match(/scripts: (\[.*\]),/)?.[1];
if (!page || !scripts) throw new Error('docs/sites.md: the Docusaurus section has no ```mdx page or no scripts line in its ```js config');

const site = mkdtempSync(join(tmpdir(), 'attention-lab-docusaurus-'));
const step = (what) => console.log(`[docusaurus] ${what}`);
const sh = (file, args, cwd = site) => execFileSync(file, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
let failed = false;
try {
  step(`site in ${site}`);
  writeFileSync(join(site, 'package.json'), JSON.stringify({
    name: 'attention-lab-docusaurus-check', private: true,
    dependencies: { '@docusaurus/core': '^3', '@docusaurus/preset-classic': '^3', react: '^19', 'react-dom': '^19' },
  }, null, 2));
  writeFileSync(join(site, 'docusaurus.config.js'), `export default {
  title: 'Attention Lab on Docusaurus', url: 'http://127.0.0.1', baseUrl: '/', onBrokenLinks: 'throw',
  scripts: ${scripts},
  presets: [['classic', { docs: { routeBasePath: '/', sidebarPath: false }, blog: false, theme: {} }]],
};\n`);
  mkdirSync(join(site, 'docs'));
  writeFileSync(join(site, 'docs', 'index.mdx'), `---\ntitle: The lab\n---\n\n# The lab\n\n${page}\n`);

  step('npm pack (this package), npm install (Docusaurus and the package)');
  sh('npm', ['pack', '--ignore-scripts', '--pack-destination', site], ROOT);
  const tarball = readdirSync(site).find((name) => name.endsWith('.tgz'));
  sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error']);
  sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--no-save', `./${tarball}`]);
  // the page's copy step
  cpSync(join(site, 'node_modules', 'attention-lab', 'web'), join(site, 'static', 'attention-lab'), { recursive: true });

  step('docusaurus build');
  sh('npx', ['docusaurus', 'build']);

  step('the built site in Chromium');
  // Docusaurus writes inline scripts and styles: the site's own policy, not the lab's strict one
  const server = await startServer({ port: 0, root: join(site, 'build'), policy: "default-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'" });
  const chromium = await launchChromium();
  try {
    const tab = await chromium.context.newPage();
    const errors = [];
    tab.on('pageerror', (error) => errors.push(String(error)));
    await tab.goto(`http://127.0.0.1:${server.address().port}/`);
    await tab.waitForFunction(() => customElements.get('attention-lab') && document.querySelector('attention-lab')?.shadowRoot, null, { timeout: 60000 });
    const seen = await tab.evaluate(async () => {
      const lab = document.querySelector('attention-lab');
      await lab.ready;
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const meters = lab.shadowRoot.querySelector('#bars')?.shadowRoot?.querySelectorAll('[role=meter]').length ?? null;
      return { tokens: lab.state?.tokens?.length, projection: lab.state?.settings?.projection, meters };
    });
    console.log(`[docusaurus] the lab on the built page: ${JSON.stringify(seen)}; page errors: ${errors.length ? errors.join(' | ') : 'none'}`);
    const sentence = page.match(/sentence="([^"]*)"/)?.[1] ?? '';
    const words = sentence.trim().split(/\s+/).length;
    if (seen.tokens !== words || seen.meters !== words || errors.length) failed = true;
  } finally {
    await chromium.close();
    server.close();
  }
} catch (error) {
  console.error(`[docusaurus] ${error.message}`);
  failed = true;
} finally {
  if (!keep) rmSync(site, { recursive: true, force: true });
}
console.log(failed ? '[docusaurus] FAILED' : '[docusaurus] docs/sites.md\'s snippet works on a real Docusaurus build');
process.exit(failed ? 1 : 0);
