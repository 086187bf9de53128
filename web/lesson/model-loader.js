// What <model-view> shows, loaded for it: the element draws, this module fetches. Either twin of
// the trained model, each once, with how its weights' bytes arrive or which file failed; the
// twins' training curves; attention from any other model, as data or a file of attention-src
// (of this site only), read and checked by the core. web/lesson/trained-model.js (what
// attention-lab/model publishes) does the work, imported only when something is first asked for.
//
//   const loader = new ModelLoader({ changed, suppliedChanged });   // told when what they name changes
//   await loader.twin('scaled');   // its TrainedModel; null while its last load failed (until retry())
//   loader.status                  // { state: 'loading' | 'loaded' | 'failed', variant, file, loaded, total, message }
//   loader.curves                  // { scaled, unscaled } once loaded; loader.curvesStatus: { state: 'loading' | 'failed', file, message }
//   loader.supply(data);  loader.supplyFile(src);  loader.supply(null);
//   loader.supplied                // { data, file, read | error | refused | loading | reading } or null
// `changed` is called as status or the curves change (progress at most once a frame);
// `suppliedChanged` as `supplied` is replaced, except by the reading that comes before a first result.

export class ModelLoader {
  #api = null; // the import of trained-model.js, once something is asked for
  #twins = new Map(); // variant → Promise<TrainedModel>
  #curvesLoading = null;
  #supplying = 0; // the latest request: an older one that settles later is dropped
  #changed;
  #suppliedChanged;

  /** How the latest twin's load goes (null before one). */
  status = null;
  /** The twins' curves, { scaled, unscaled } (trained-model.js loadCurves), once loaded. */
  curves = null;
  /** How the curves' load goes while they are not here: { state: 'loading' | 'failed', file, message }. */
  curvesStatus = null;
  /**
   * Attention from another model: { data (as given), file, then read (attentionFromBertViz's
   * result) | error (what is wrong) | refused ({ origin, url }: a file of another site) |
   * loading (the file) | reading (the core, before the first result) }; null: none.
   */
  supplied = null;

  constructor({ changed = () => {}, suppliedChanged = () => {} } = {}) {
    this.#changed = changed;
    this.#suppliedChanged = suppliedChanged;
  }

  #module() {
    this.#api ??= import('./trained-model.js').catch((error) => {
      this.#api = null; // asked for again next time
      throw error;
    });
    return this.#api;
  }

  /**
   * The twin `variant`, its load (and the curves') started the first time it is asked for; null
   * while its last load failed, until retry(). Rejects when it cannot load (status says why).
   */
  async twin(variant) {
    let api;
    try {
      api = await this.#module();
    } catch (error) {
      this.status = { state: 'failed', variant, ...failedFile(error) };
      this.#changed();
      throw error;
    }
    this.#loadCurves(api);
    if (!this.#twins.has(variant)) {
      if (this.status?.state === 'failed' && this.status.variant === variant) return null;
      this.#load(api, variant);
    }
    return this.#twins.get(variant);
  }

  /** What failed is asked for again by the next twin(): the twin (its failed load forgotten) and the curves. */
  retry() {
    if (this.status?.state === 'failed') this.status = null;
    if (this.curvesStatus?.state === 'failed') this.curvesStatus = null;
  }

  /** Sequences of repeated random words from the vocabulary (trained-model.js repeatedSequences). */
  async repeatedSequences(vocabulary, options) {
    return (await this.#module()).repeatedSequences(vocabulary, options);
  }

  // One twin, saying how it goes: the weights' bytes as they arrive (at most once a frame), then
  // the result, or which file failed.
  #load(api, variant) {
    const file = `${variant}.weights`;
    this.status = { state: 'loading', variant, file, loaded: 0, total: 0 };
    this.#changed();
    let frame = 0;
    const onProgress = ({ loaded, total }) => {
      if (this.status?.state !== 'loading' || this.status.variant !== variant) return;
      this.status = { ...this.status, loaded, total };
      frame ||= requestAnimationFrame(() => {
        frame = 0;
        if (this.status?.state === 'loading') this.#changed();
      });
    };
    const loading = api.loadModel({ variant, onProgress });
    this.#twins.set(variant, loading);
    loading.then(
      () => {
        // said with the run that follows (the view draws once the model is here)
        if (this.status?.state === 'loading' && this.status.variant === variant) this.status = { state: 'loaded', variant, file };
      },
      (error) => {
        this.#twins.delete(variant); // asked for again when the learner says so
        this.status = { state: 'failed', variant, ...failedFile(error) };
        this.#changed();
      },
    );
  }

  // The twins' curves, once (again after a failure only after retry()).
  #loadCurves(api) {
    if (this.curves || this.#curvesLoading || this.curvesStatus?.state === 'failed') return;
    this.curvesStatus = { state: 'loading' };
    this.#curvesLoading = api.loadCurves().then(
      (curves) => {
        this.curves = curves;
        this.curvesStatus = null;
      },
      (error) => {
        this.curvesStatus = { state: 'failed', ...failedFile(error) };
      },
    ).finally(() => {
      this.#curvesLoading = null;
      this.#changed();
    });
  }

  /** Attention to show (what attentionFromBertViz reads: { tokens, attention }, JSON text, a file's bytes), read by the core; null: none. */
  supply(data) {
    if (data === null || data === undefined) {
      ++this.#supplying;
      this.supplied = null;
      this.#suppliedChanged();
      return;
    }
    this.#read(data, null);
  }

  /** The attention of a file of this site only (the page's policy allows no other), read as bytes. */
  async supplyFile(src) {
    const request = ++this.#supplying;
    const url = new URL(src, document.baseURI);
    const file = decodeURIComponent(url.pathname.split('/').pop() || src);
    if (url.origin !== location.origin) {
      this.supplied = { data: null, file, refused: { origin: location.origin, url: url.href } };
      return this.#suppliedChanged();
    }
    this.supplied = { data: null, file, loading: true };
    this.#suppliedChanged();
    let bytes;
    try {
      bytes = await (await this.#module()).readAttentionFile(url);
    } catch (error) {
      if (request === this.#supplying) {
        this.supplied = { data: null, file, error: failedFile(error).message };
        this.#suppliedChanged();
      }
      return;
    }
    if (request === this.#supplying) this.#read(bytes, file, request);
  }

  // Reads and checks `data` (attention-lab/model on the model's engine), then tells.
  async #read(data, file, request = ++this.#supplying) {
    // meanwhile the trained model is not loaded (the first read waits for an engine)
    this.supplied ??= { data, file, reading: true };
    let supplied;
    try {
      supplied = { data, file, read: await (await this.#module()).attentionFromBertViz(data) };
    } catch (error) {
      supplied = { data, file, error: error.message };
    }
    if (request !== this.#supplying) return;
    this.supplied = supplied;
    this.#suppliedChanged();
  }
}

// Which file an error of loading is about, and why: the last part of the address its message
// names (attention-lab/model's and fetch's errors start with it), or null when it names none.
function failedFile(error) {
  const message = String(error?.message ?? error);
  const address = message.match(/(?:https?|file):\/\/\S+?(?=:\s|\s|$)/)?.[0];
  if (!address) return { file: null, message };
  const file = decodeURIComponent(new URL(address).pathname.split('/').pop() || address);
  return { file, message: message.replace(`${address}: `, '') };
}
