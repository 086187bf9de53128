// What the engine holds for JavaScript — a trainer (trainer.js), a language model
// (language-model.js): an id in the core, a dispose() that gives its memory back once (the
// engine's FinalizationRegistry does it for one left to the garbage collector), and calls that
// refuse after it, since the core would reuse a disposed object's id for the next one.
const inside = new WeakMap(); // held object → { core, registry, id, what, disposed }

export class Held {
  /**
   * `core`: { call(name, named), refuse(where) } of the engine; `registry`: its
   * FinalizationRegistry for this kind; `id`: the core's; `what`: the name messages use.
   */
  constructor(core, registry, id, what) {
    inside.set(this, { core, registry, id, what, disposed: false });
    registry.register(this, id, this);
  }

  /** Gives the memory back to the engine; the object cannot be used after. */
  dispose() {
    const held = inside.get(this);
    if (held.disposed) return;
    held.disposed = true;
    held.registry.unregister(this);
    held.core.call('dispose', { id: held.id });
  }
}

/** The engine's call `name` for `held` with `named` arguments (its id added); refused once disposed. */
export function use(held, name, named) {
  const h = inside.get(held);
  if (h.disposed) h.core.refuse(`${h.what}.${name}`);
  named.id = h.id;
  return h.core.call(name, named);
}
