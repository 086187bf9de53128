// tfjs autodiff in Node with tfjs-core alone: its Node bundle (dist/tf-core.node.js) registers no
// gradient functions. They ship as tfjs-core's own ES module tree, dist/register_all_gradients.js
// (what the union package @tensorflow/tfjs bundles in), whose imports name files without their
// extension and which Node would read as CommonJS. The hooks below resolve those imports and load
// that tree as ES modules; its gradients go into tfjs's global registry, which the Node bundle
// (and the wasm backend on it) use. Bench-only: `npm run bench` imports this, nothing else does.
import { register } from 'node:module';

const HOOKS = `
const DIST = '/@tensorflow/tfjs-core/dist/';
export async function resolve(specifier, context, next) {
  if (context.parentURL?.includes(DIST) && specifier.startsWith('.') && !specifier.endsWith('.js')) {
    try { return await next(specifier + '.js', context); } catch { return next(specifier + '/index.js', context); }
  }
  return next(specifier, context);
}
export async function load(url, context, next) {
  if (url.includes(DIST) && !url.endsWith('/tf-core.node.js')) return next(url, { ...context, format: 'module' });
  return next(url, context);
}`;

/** Registers every gradient of tfjs-core (call once, after importing @tensorflow/tfjs-core). */
export async function registerTfjsGradients() {
  register(`data:text/javascript,${encodeURIComponent(HOOKS)}`);
  await import('@tensorflow/tfjs-core/dist/register_all_gradients.js');
}
