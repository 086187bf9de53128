// The notebook side as a user installs it: python/ built into a wheel offline with Debian's pip and
// setuptools (as scripts/build-python.sh does, but from a copy of python/ beside a link to web/, so
// parallel test files never share a build folder), installed with `pip install --no-index` into a
// fresh virtual environment. The environment sees Debian's own packages (torch, traitlets,
// ipykernel, nbclient) and nothing of this repository but the wheel.
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PYTHON = '/usr/bin/python3';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** false, or why the wheel cannot be built and installed here (a test's `skip`). */
export function wheelSkip(modules = []) {
  const probe = spawnSync(PYTHON, ['-c', ['import venv, ensurepip, setuptools, pip, wheel', ...modules.map((m) => `import ${m}`)].join('; ')], { encoding: 'utf8' });
  return probe.status === 0 ? false
    : `${PYTHON} cannot build and install the wheel (${(probe.stderr || probe.error?.message || '').trim().split('\n').at(-1)}): run scripts/setup.sh`;
}

function run(file, args, options = {}) {
  const r = spawnSync(file, args, { encoding: 'utf8', timeout: 300000, ...options });
  if (r.status !== 0) throw new Error(`${file} ${args.join(' ')}: ${r.stderr || r.error?.message}`);
  return r.stdout;
}

/** Builds the wheel and installs it into a virtual environment in `dir`; returns { python, wheel, venv }. */
export function installWheel(dir) {
  const source = join(dir, 'source');
  cpSync(join(ROOT, 'python'), join(source, 'python'), { recursive: true, filter: (path) => !/__pycache__|\.egg-info|[/\\]build$/.test(path) });
  symlinkSync(join(ROOT, 'web'), join(source, 'web'));
  const wheels = join(dir, 'wheels');
  run(PYTHON, ['-m', 'pip', 'wheel', '--quiet', '--no-index', '--no-deps', '--no-build-isolation', '--wheel-dir', wheels, join(source, 'python')]);
  const wheel = join(wheels, readdirSync(wheels).find((name) => name.endsWith('.whl')));
  const venv = join(dir, 'venv');
  run(PYTHON, ['-m', 'venv', '--system-site-packages', venv]);
  const python = join(venv, 'bin', 'python');
  run(python, ['-m', 'pip', 'install', '--quiet', '--no-index', wheel]);
  return { python, wheel, venv };
}
