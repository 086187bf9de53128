import { createEngine } from './core/engine.js';

const engine = await createEngine();
document.getElementById('simd').textContent = String(engine.simd);
document.getElementById('softmax').textContent = Array.from(engine.softmax(new Float32Array([1, 2, 3])), (p) =>
  p.toFixed(4),
).join(', ');
