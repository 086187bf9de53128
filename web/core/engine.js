// The one module that owns the WebAssembly core. Everything else (the page, Node users,
// tests) calls the core through the engine this module creates; nothing here computes
// attention — it checks argument types, copies arrays into the wasm heap, calls the core
// and builds the result the core describes (cpp/core/boundary.hpp) from one JS-owned copy. The
// core checks every range, length and value; its limits, status names, call flags and the
// descriptor's layout are read from it.
//
// Every call is described once, as a row of the table of calls (web/core/calls.js: its adapter in
// cpp/binding/*.cpp, its input arrays in slot order, its other arguments in the adapter's order
// with their types and defaults); one generic path here checks, places, calls and builds the
// result for all of them.
//
// Loads unchanged in browsers and in Node 18+: the two wasm builds (SIMD and scalar) are each
// an ES module (the Emscripten loader) and its .wasm in ../build/, loaded lazily so only one
// build is ever fetched.

import { describe, rangeError, typeError } from './errors.js';
import { boolean, bytesOf, floatArray, int32, lengthOf, number, objectOf, optionsOf, pair, scaleOption, typedArrayKind, uint32, widthList } from './arguments.js';
import {
  ARGS, BOOL, BYTES, CAUSAL, CHECK, CHOICE, COMPILED, F32, F32_OR_NULL, INT, MODEL, NUMBER, OUT, RANGE, RECORD, SCALE, SEED, STRING, TRAIN,
  WIDTHS,
} from './calls.js';
import { Trainer } from './trainer.js';

// Smallest module that uses a SIMD128 instruction (i32x4.splat): validates only where
// WebAssembly SIMD is supported. WebAssembly has no runtime dispatch, so the fallback is a
// second, scalar build of the same C++ source.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 17, 11,
]);

/** True when this JavaScript engine runs WebAssembly SIMD128. */
export function simdSupported() {
  return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
}

/**
 * Creates an engine. `simd: 'auto'` (default) uses the SIMD build where supported and the
 * scalar build elsewhere; `true`/`false` force one (true fails where SIMD is unsupported).
 * `wasm`: that build's .wasm given instead of read from ../build/ — its bytes (a BufferSource) or
 * the file compiled (a WebAssembly.Module) — for code that cannot reach the package's files, such
 * as one bundled module loaded from a blob: URL (the notebook widget, web/widget/).
 */
export async function createEngine({ simd = 'auto', wasm } = {}) {
  const useSimd = simd === 'auto' ? simdSupported() : Boolean(simd);
  if (useSimd && !simdSupported())
    throw Object.assign(new Error('createEngine: this JavaScript engine has no WebAssembly SIMD'), { code: 'ATTN_UNSUPPORTED' });
  const loading = useSimd ? import('../build/attention-simd.mjs') : import('../build/attention-scalar.mjs');
  if (IN_NODE && wasm === undefined) return new Engine(await (await loading).default(), useSimd); // the loader reads its .wasm file (cpp/binding/wasm-pre.js)
  // In a browser the .wasm is fetched and compiled while its loader module is imported (not
  // after it), and handed to the loader compiled.
  // Two literal URLs, not one template: bundlers (Vite's dependency optimizer among them) rewrite
  // new URL('<literal>', import.meta.url) to where the file is served, and cannot follow a template.
  const compiling = wasm !== undefined ? compileGiven(wasm)
    : compileWasm(useSimd ? new URL('../build/attention-simd.wasm', import.meta.url) : new URL('../build/attention-scalar.wasm', import.meta.url));
  const [loader, module] = await Promise.all([loading, compiling]);
  let failed;
  const failure = new Promise((_, reject) => (failed = reject));
  const instantiateWasm = (imports, receiveInstance) => {
    WebAssembly.instantiate(module, imports).then((instance) => receiveInstance(instance, module), failed);
    return {}; // the exports follow, through receiveInstance
  };
  // locateFile: the loader then names its .wasm without resolving it against import.meta.url,
  // which throws where that is a blob: URL (the file is not read: instantiateWasm has it)
  const options = wasm === undefined ? { instantiateWasm } : { instantiateWasm, locateFile: (name) => name };
  const loaded = await Promise.race([loader.default(options), failure]).catch((error) => {
    if (wasm === undefined) throw error;
    throw Object.assign(new Error(`createEngine: the wasm given could not be instantiated by the ${useSimd ? 'SIMD' : 'scalar'} build's loader: ${error.message}`), { code: 'ATTN_LOAD_FAILED' });
  });
  return new Engine(loaded, useSimd);
}

const IN_NODE = typeof process === 'object' && typeof process.versions?.node === 'string';

// From the whole file, not WebAssembly.compileStreaming: for this small module the streaming
// path cost more main-thread time (docs/performance.md, "Measurements that the code's comments
// point to"). It also works whatever Content-Type the host sends.
// The .wasm given to createEngine: compiled already, or its bytes.
async function compileGiven(wasm) {
  if (wasm instanceof WebAssembly.Module) return wasm;
  if (!ArrayBuffer.isView(wasm) && !(wasm instanceof ArrayBuffer))
    throw Object.assign(new TypeError(`createEngine: wasm must be the bytes of a .wasm file (an ArrayBuffer or a typed array) or a WebAssembly.Module, got ${describe(wasm)}`), { code: 'ATTN_INVALID_ARGUMENT' });
  try {
    return await WebAssembly.compile(wasm);
  } catch (error) {
    throw Object.assign(new Error(`createEngine: the wasm given does not compile: ${error.message}`), { code: 'ATTN_LOAD_FAILED' });
  }
}

async function compileWasm(url) {
  const response = await fetch(url);
  if (!response.ok) throw Object.assign(new Error(`createEngine: ${url}: HTTP ${response.status}`), { code: 'ATTN_LOAD_FAILED' });
  return WebAssembly.compile(await response.arrayBuffer());
}

class Engine {
  #wasm;
  #codes; // status number → error code, from the core's Status enum
  #descriptor; // word index of the descriptor the core publishes after each call (cpp/core/boundary.hpp)
  #words; // the descriptor's layout and field kinds, as the core publishes them (cpp/binding/binding.cpp)
  #flags; // the call flags of the attention adapters (cpp/binding/attention.cpp)
  #inputLengths; // index in HEAPF64 of the lengths of the inputs of the next call, by slot (cpp/binding/binding.cpp)
  #paths = new Map(); // name address in the descriptor → the result path it names (["mean", "entropy"])
  // per call (row index): the adapter, and the name addresses and paths of its last result's
  // fields — the same call describes the same fields in the same order (one comparison per field)
  #adapters = [];
  #layouts = [];
  #choices = new Map(); // a CHOICE argument → its names and what each crosses as
  // what #arguments leaves for #run: the checked values (rows that keep them), the caller's `out`
  #values = null;
  #into = null;
  // views of the wasm memory, taken again once growth has detached them (their length is then 0)
  #f32;
  #f64;
  #u32;
  // one reused heap block per input slot (cpp/binding/binding.cpp reserve_input): float index, and the lengths it serves
  #inputAt;
  #inputCapacity;
  #inputKeepFrom;

  constructor(wasm, simd) {
    this.#wasm = wasm;
    /** True when the SIMD build runs. */
    this.simd = simd;
    /** Instruction set the kernels were compiled for ("wasm" or "emulated"). */
    this.arch = wasm.simdArch();
    this.#codes = [];
    for (const [name, status] of Object.entries(wasm.Status)) if (typeof status?.value === 'number') this.#codes[status.value] = name;
    this.#descriptor = wasm.descriptor() >>> 2;
    this.#words = {
      block: wasm.descriptorBlockWord, floats: wasm.descriptorFloatsWord, count: wasm.descriptorCountWord,
      fields: wasm.descriptorFieldsWord, perField: wasm.descriptorWordsPerField, name: wasm.fieldNameWord,
      offset: wasm.fieldOffsetWord, length: wasm.fieldLengthWord, kind: wasm.fieldKindWord,
      array: wasm.fieldArray, number: wasm.fieldNumber, flag: wasm.fieldFlag, float64: wasm.fieldFloat64,
    };
    this.#flags = { scaleBySqrtD: wasm.callScaleBySqrtD, causal: wasm.callCausal };
    this.#inputLengths = wasm.inputLengths() >>> 3;
    this.#inputAt = new Array(wasm.inputSlots).fill(0);
    this.#inputCapacity = new Array(wasm.inputSlots).fill(-1); // -1: no block yet
    this.#inputKeepFrom = new Array(wasm.inputSlots).fill(0);
    this.#views();
  }

  // Every row of CALLS is a method of the engine, under its name.
  static {
    for (const [method, row] of Object.entries(COMPILED))
      Object.defineProperty(Engine.prototype, method, {
        value: { [method](...params) { return this.#call(row, params); } }[method],
        writable: true,
        configurable: true,
      });
  }

  // The current views of the wasm memory (reading them from the module object costs more).
  #views() {
    if (this.#f32?.length) return;
    this.#f32 = this.#wasm.HEAPF32;
    this.#f64 = this.#wasm.HEAPF64;
    this.#u32 = this.#wasm.HEAPU32;
  }

  /**
   * The limits the core checks every call against (cpp/core/check.hpp, attention.hpp, lesson.hpp):
   * a call beyond them fails with a RangeError whose code says which kind.
   */
  get limits() {
    const w = this.#wasm;
    return {
      maxDim: w.maxDim,
      memoryBudgetBytes: w.memoryBudgetBytes,
      maxSigma: w.maxSigma,
      maxInductionWindow: w.maxInductionWindow,
      lesson: {
        maxTokens: w.lessonMaxTokens,
        maxWidth: w.lessonMaxWidth,
        maxSamples: w.lessonMaxSamples,
        maxWidths: w.lessonMaxWidths,
        maxDraws: w.lessonMaxDraws,
        maxHeads: w.lessonMaxHeads,
        maxBins: w.lessonMaxBins,
      },
      train: {
        maxLetters: w.trainMaxLetters,
        maxDk: w.trainMaxDk,
        maxWidth: w.trainMaxWidth,
        maxBatch: w.trainMaxBatch,
        maxHeldout: w.trainMaxHeldout,
        maxSteps: w.trainMaxSteps,
        maxBytes: w.trainMaxBytes,
        maxTrainers: w.trainMaxTrainers,
      },
      model: { maxModels: w.modelMaxModels, maxTop: w.modelMaxTop },
      supplied: { maxLayers: w.suppliedMaxLayers, maxHeads: w.suppliedMaxHeads, maxTokens: w.suppliedMaxTokens, rowSumTolerance: w.suppliedRowSumTolerance },
    };
  }

  /**
   * Thresholds the lesson uses, as the core defines them: a row is "peaked" when its max weight
   * exceeds peakedMaxWeight, "flat" when its entropy exceeds flatEntropyFraction·ln m; a float32
   * exp overflows above expOverflowThreshold (= ln FLT_MAX).
   */
  get lessonConstants() {
    return {
      peakedMaxWeight: this.#wasm.lessonPeakedMaxWeight,
      flatEntropyFraction: this.#wasm.lessonFlatEntropyFraction,
      expOverflowThreshold: this.#wasm.lessonExpOverflowThreshold,
    };
  }

  /** Current size of the wasm heap in bytes (it grows on demand and never shrinks). */
  heapBytes() {
    return this.#wasm.HEAPU8.length;
  }

  // ---- training (cpp/experiment/train.hpp): one attention model trained twice, scaled and unscaled ----

  #trainDefaults = null;
  #trainers = null; // disposes the experiment of a trainer that was dropped without dispose()

  /**
   * The default experiment (cpp/experiment/train.hpp, Config): every field of TrainConfig. Float32 fields
   * are given as the shortest decimal that is the same float32 (learningRate 0.002, not
   * 0.0020000000949949026).
   */
  get trainDefaults() {
    if (!this.#trainDefaults) {
      const raw = this.#wasm.trainDefaults();
      for (const [name, value] of Object.entries(raw)) if (typeof value === 'number') raw[name] = shortestFloat32(value);
      this.#trainDefaults = Object.freeze(raw);
    }
    return this.#trainDefaults;
  }

  /** The `accuracyGoal` a run's reachedAt counts to: held-out accuracy 0.9. */
  get trainAccuracyGoal() {
    return shortestFloat32(this.#wasm.trainAccuracyGoal);
  }

  /**
   * A trainer of the experiment `config` (fields left out take trainDefaults): two runs from the
   * same seed, data and initialisation, one with scores q·k/√d_k and one with q·k. Holds memory
   * in the engine until dispose() (at most limits.train.maxTrainers at once).
   */
  createTrainer(config) {
    const args = this.#arguments(TRAIN.createTrainer, [config]);
    const created = this.#run(TRAIN.createTrainer, args);
    this.#trainers ??= new FinalizationRegistry((id) => this.#wasm.trainDispose(id));
    const core = {
      call: (name, named) => this.#call(TRAIN[name], [named]),
      refuse: (where) => {
        throw rangeError(`${where}: this trainer was disposed`, 'ATTN_INVALID_ARGUMENT');
      },
    };
    const runs = this.#choicesOf(TRAIN.read.args[1]).names;
    return new Trainer(core, this.#trainers, runs, Object.freeze(args[0]), created);
  }

  /** Runs the whole experiment `config` and returns its curves (a trainer made and disposed). */
  train(config) {
    const trainer = this.createTrainer(config);
    try {
      trainer.step(trainer.config.steps);
      return trainer.curves();
    } finally {
      trainer.dispose();
    }
  }

  // ---- the trained language model (cpp/model/model.hpp): a weights file, then one sentence at a time ----

  #models = null; // disposes the model of a LanguageModel dropped without dispose()

  /**
   * A trained language model from its weights file (cpp/model/model_file.hpp: the bytes, checked whole
   * before use) and its vocabulary (one token per line, line i = id i, line 0 `<unk>`). Holds
   * memory in the engine until dispose() (at most limits.model.maxModels at once). Async so that a
   * page which never shows a model never fetches its module.
   */
  async loadModel(bytes, vocabulary) {
    if (typeof vocabulary !== 'string') throw typeError(`loadModel: vocabulary must be the text of the vocabulary file, got ${describe(vocabulary)}`);
    const words = vocabulary.replace(/\n$/, '').split('\n');
    const loaded = this.#call(MODEL.loadModel, [bytes]);
    if (words.length !== loaded.vocab) {
      this.#wasm.modelDispose(loaded.id);
      throw rangeError(`loadModel: the vocabulary has ${words.length} tokens, the weights ${loaded.vocab}`, 'ATTN_INVALID_SHAPE');
    }
    this.#models ??= new FinalizationRegistry((id) => this.#wasm.modelDispose(id));
    const core = {
      call: (name, named) => this.#call(MODEL[name], [named]),
      refuse: (where) => {
        throw rangeError(`${where}: this model was disposed`, 'ATTN_INVALID_ARGUMENT');
      },
      roles: this.headRoles,
      thresholds: { share: shortestFloat32(this.#wasm.modelRoleShare), spread: shortestFloat32(this.#wasm.modelBroadSpread) },
    };
    const { LanguageModel } = await import('./language-model.js');
    return new LanguageModel(core, this.#models, loaded, words);
  }

  /** A head's role by the number the core gives it (cpp/model/model.hpp, HeadRole): its name. */
  get headRoles() {
    return Object.entries(this.#wasm.HeadRole).filter(([, e]) => typeof e?.value === 'number').sort(([, a], [, b]) => a.value - b.value).map(([name]) => name);
  }

  // ---- the one call path: check the arguments, place the inputs, call, read the result the core describes ----

  #call(row, params) {
    return this.#run(row, this.#arguments(row, params));
  }

  // The adapter's arguments for the method's parameters `params`, each checked in the row's
  // order; the arrays are placed in their input slots once every argument has passed.
  #arguments(row, params) {
    const param = params[row.object];
    const object = row.object < 0 ? null : row.objectKind === ARGS ? objectOf(row.where, param) : optionsOf(row.where, param);
    if (row.closed)
      for (const name of Object.keys(object))
        if (!row.names.includes(name))
          throw typeError(`${row.where}: unknown field ${JSON.stringify(name)}; the fields are ${row.names.join(', ')}`);
    const defaults = row.defaults === null ? null : this[row.defaults];
    const values = row.keep ? [] : null;
    const args = [], arrays = [];
    const given = row.read === null ? null : row.read(object);
    let flags = 0, into = null;
    for (let i = 0; i < row.args.length; i++) {
      const a = row.args[i];
      let value = given !== null ? given[i] : a.key === null ? params[a.param] : a.key2 === null ? object[a.key] : object[a.key]?.[a.key2];
      if (value === undefined) value = a.defFrom >= 0 ? values[a.defFrom] : defaults !== null ? defaults[a.name] : a.def;
      switch (a.kind) {
        case F32: arrays.push(floatArray(a.name, value)); break;
        case F32_OR_NULL: arrays.push(value === null ? null : floatArray(a.name, value)); break;
        case INT: int32(a.name, value); args.push(value); break;
        case SEED: uint32(a.name, value); args.push(value); break;
        case NUMBER: number(a.name, value); args.push(value); break;
        case BOOL: boolean(a.name, value); args.push(value); break;
        case STRING:
          if (typeof value !== 'string') throw typeError(`${a.name} must be a string, got ${describe(value)}`);
          args.push(value);
          break;
        case WIDTHS: value = widthList(value); args.push(value); break;
        case BYTES: args.push(bytesOf(a.name, value)); break;
        case CAUSAL:
          boolean(a.name, value);
          if (value) flags |= this.#flags.causal;
          break;
        case SCALE:
          scaleOption(value);
          args.push(value === 'sqrt' ? flags | this.#flags.scaleBySqrtD : flags, typeof value === 'number' ? value : 1);
          break;
        case OUT:
          if (value !== null && typedArrayKind.call(value) !== 'Float32Array') throw typeError(`${a.name} must be a Float32Array, got ${describe(value)}`);
          args.push(lengthOf(value));
          into = value;
          break;
        case RANGE:
          if (value !== undefined) pair(a.name, value);
          args.push(value);
          break;
        case RECORD:
          if (value === null || typeof value !== 'object') throw typeError(`${a.name} must be ${a.extra.what}, got ${describe(value)}`);
          break;
        case CHOICE: {
          const choices = this.#choicesOf(a);
          if (typeof value !== 'string' || !choices.map.has(value))
            throw typeError(`${a.extra.where}: ${a.name} must be ${a.extra.phrase(choices.names)}, got ${describe(value)}`);
          args.push(choices.map.get(value));
          break;
        }
        case CHECK: { // two arguments, as given (or their defaults): not yet checked themselves
          const [first, second] = a.of, b = row.args[first], c = row.args[second];
          const x = given !== null ? given[first] : b.key === null ? params[b.param] : object[b.key];
          const y = given !== null ? given[second] : c.key === null ? params[c.param] : object[c.key];
          const wrong = a.extra.check(x === undefined ? b.def : x, y === undefined ? c.def : y);
          if (wrong !== null) throw typeError(wrong);
          break;
        }
      }
      if (values !== null) values[i] = value;
    }
    for (let slot = 0; slot < arrays.length; slot++) this.#place(slot, row.arrays[slot], arrays[slot]);
    this.#values = values;
    this.#into = into;
    if (!row.options) return args;
    const options = {}; // one object of the arguments that cross, by name
    for (let i = 0; i < row.args.length; i++) {
      const kind = row.args[i].kind;
      if (kind !== F32 && kind !== F32_OR_NULL && kind !== RECORD && kind !== CHECK) options[row.args[i].name] = values[i];
    }
    return [options];
  }

  // Calls the row's adapter with `args` and builds its result.
  #run(row, args) {
    const values = this.#values, into = this.#into;
    const adapter = (this.#adapters[row.index] ??= this.#wasm[row.core]);
    this.#check(invoke(adapter, args), row.where);
    const result = this.#result(row.index, into === null ? null : row.into, into);
    if (row.pick !== null) return result[row.pick];
    if (row.echo === null && row.extra === null) return result;
    const shaped = { ...row.extra };
    for (const i of row.echo ?? []) shaped[row.args[i].name] = values[i];
    return Object.assign(shaped, result);
  }

  // The names of a CHOICE argument and what each crosses as (an Embind enum's values, read once).
  #choicesOf(arg) {
    let choices = this.#choices.get(arg);
    if (choices === undefined) {
      const source = arg.extra.values;
      const entries = typeof source === 'string'
        ? Object.entries(this.#wasm[source]).filter(([, e]) => typeof e?.value === 'number').map(([name, e]) => [name, e.value])
        : Object.entries(source);
      choices = { names: entries.map(([name]) => name), map: new Map(entries) };
      this.#choices.set(arg, choices);
    }
    return choices;
  }

  // Input `slot` of the next call: copies `array` into the slot's block and writes its length
  // where the core reads it (-1 for null: not given). The block is reserved by the core (which
  // checks its size) only when the cached one is too small or far too large; that may grow the
  // heap, which detaches HEAPF32 and HEAPF64: they are read after it.
  #place(slot, name, array) {
    const length = lengthOf(array); // not array.length: a typed array's own `length` can lie
    if (length > this.#inputCapacity[slot] || (length < this.#inputKeepFrom[slot] && length >= 0)) {
      const at = this.#wasm.reserveInput(slot, length, name);
      this.#inputCapacity[slot] = at ? this.#wasm.inputCapacity(slot) : -1;
      this.#inputKeepFrom[slot] = at ? this.#wasm.inputKeepFrom(slot) : 0;
      this.#inputAt[slot] = at >>> 2;
      if (!at) this.#check(this.#wasm.Status.ATTN_TOO_LARGE.value);
    }
    this.#views();
    if (length >= 0) this.#f32.set(array, this.#inputAt[slot]);
    this.#f64[this.#inputLengths + slot] = length;
  }

  // Throws the core's error for a failed call: a RangeError with the core's message and code.
  #check(status, where) {
    if (status === 0) return;
    const error = new RangeError(where ? `${where}: ${this.#wasm.lastError()}` : this.#wasm.lastError());
    error.code = this.#codes[status] ?? 'ATTN_INTERNAL';
    throw error;
  }

  // The result of the call (row `call`) that just succeeded, from the descriptor the core
  // published, read with the layout the core publishes: arrays as subarrays of one JS-owned copy
  // of the output block (a HEAPF32 view would be overwritten by the next call, or detached by
  // growth; one slice and subarrays cost less than a slice each; a lone array is its own slice),
  // scalars as numbers, flags as
  // booleans, absent arrays as null. The array named `intoName` is copied into the caller's
  // `into` instead (no new buffer when nothing else needs one).
  #result(call, intoName, into) {
    this.#views();
    const words = this.#u32, heap = this.#f32, at = this.#descriptor, L = this.#words;
    const base = words[at + L.block] >>> 2, floats = words[at + L.floats], count = words[at + L.count];
    // `single`: the call's last result had one array, so it is sliced alone (a subarray of a
    // copy of the block would cost one more typed array per call)
    // `template`: the last result's fields, all top-level, set to null: when this call names the
    // same fields, its result starts as a copy (one allocation of the right shape, rather than
    // a property added at a time)
    const layout = (this.#layouts[call] ??= { names: [], paths: [], single: false, template: null });
    const names = layout.names, paths = layout.paths, single = layout.single;
    let arrays = 0;
    const nameWord = L.name, offsetWord = L.offset, lengthWord = L.length, kindWord = L.kind, perField = L.perField;
    let same = layout.template !== null && names.length === count;
    for (let f = 0, w = at + L.fields; same && f < count; f++, w += perField) same = names[f] === words[w + nameWord];
    const result = same ? { ...layout.template } : {};
    let block = null, flat = true;
    for (let f = 0, w = at + L.fields; f < count; f++, w += perField) {
      const name = words[w + nameWord];
      if (names[f] !== name) {
        names[f] = name;
        paths[f] = this.#path(name);
      }
      const path = paths[f];
      const offset = base + words[w + offsetWord], kind = words[w + kindWord];
      let value;
      if (kind === L.array) {
        const length = words[w + lengthWord];
        arrays++;
        if (into !== null && path[0] === intoName) {
          value = into; // of the right length: the core checked it
          into.set(heap.subarray(offset, offset + length));
        } else if (single) {
          value = heap.slice(offset, offset + length);
        } else {
          block ??= heap.slice(base, base + floats);
          value = block.subarray(offset - base, offset - base + length);
        }
      } else if (kind === L.number) value = heap[offset];
      else if (kind === L.flag) value = heap[offset] !== 0;
      else if (kind === L.float64) value = this.#f64[offset >>> 1]; // at an 8-byte boundary (cpp/core/boundary.hpp)
      else value = null;
      if (path.length === 1) {
        result[path[0]] = value;
      } else {
        (result[path[0]] ??= {})[path[1]] = value;
        flat = false;
      }
    }
    layout.single = arrays === 1;
    if (!same) {
      names.length = count;
      layout.template = flat ? Object.fromEntries(paths.slice(0, count).map(([name]) => [name, null])) : null;
    }
    return result;
  }

  // A field name (a C string literal of the binding, so its address never changes) as a path.
  #path(address) {
    let path = this.#paths.get(address);
    if (path === undefined) {
      const bytes = this.#wasm.HEAPU8;
      let end = address;
      while (bytes[end] !== 0) end++;
      path = String.fromCharCode(...bytes.subarray(address, end)).split('.');
      this.#paths.set(address, path);
    }
    return path;
  }
}

// adapter(...args), with the arguments spelled out up to eight (every adapter has at most seven):
// V8 calls a function with a known argument count faster than one with a spread array.
function invoke(adapter, a) {
  switch (a.length) {
    case 0: return adapter();
    case 1: return adapter(a[0]);
    case 2: return adapter(a[0], a[1]);
    case 3: return adapter(a[0], a[1], a[2]);
    case 4: return adapter(a[0], a[1], a[2], a[3]);
    case 5: return adapter(a[0], a[1], a[2], a[3], a[4]);
    case 6: return adapter(a[0], a[1], a[2], a[3], a[4], a[5]);
    case 7: return adapter(a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
    case 8: return adapter(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
    default: return adapter(...a);
  }
}

// The shortest decimal that reads back as the same float32 (a default as its source wrote it).
function shortestFloat32(x) {
  if (!Number.isFinite(x) || Number.isInteger(x)) return x;
  for (let digits = 1; digits <= 9; digits++) {
    const y = Number(x.toPrecision(digits));
    if (Math.fround(y) === x) return y;
  }
  return x;
}
