// mulberry32: a small seeded stream of 32-bit unsigned integers, the same on every machine — for
// what JavaScript draws itself (the model's repeated word sequences, web/lesson/trained-model.js; the tests'
// inputs, tests/support/reference.mjs). The core's own draws use its generator (attn::Rng, cpp/core/random.hpp).
//
//   const next = mulberry32(1);  next() → an integer in [0, 2^32)
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}
