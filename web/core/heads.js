// Attention from a model, trained or supplied, in one shape: the core's flat layers×heads×n×n
// weights as [layer][head] rows, and its measurements of every head (layers·heads entries, layer
// by layer: cpp/model/heads.hpp) as one record per head. The language model (language-model.js)
// and attention from any model (web/lesson/supplied.js) both read the core's results through here;
// every number is the core's, under the core's names.

/** Flat weights (layers·heads·n·n) → [layer][head] → Float32Array n×n, row = query (views, no copy). */
export function byHead(flat, layers, heads, n) {
  const size = n * n;
  return Array.from({ length: layers }, (_, l) =>
    Array.from({ length: heads }, (_, h) => flat.subarray((l * heads + h) * size, (l * heads + h + 1) * size)));
}

/**
 * The core's per-head arrays (previous, first, self, spread, role, and induction when measured)
 * → [{ layer, head (both from 1), role (its name, by `roles`), previous, first, self, spread,
 * induction? }], layer by layer.
 */
export function headRecords(measured, layers, heads, roles) {
  const records = [];
  for (let l = 0; l < layers; l++)
    for (let h = 0; h < heads; h++) {
      const i = l * heads + h;
      const record = { layer: l + 1, head: h + 1, role: roles[measured.role[i]],
        previous: measured.previous[i], first: measured.first[i], self: measured.self[i], spread: measured.spread[i] };
      if (measured.induction) record.induction = measured.induction[i];
      records.push(record);
    }
  return records;
}
