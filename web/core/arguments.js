// The argument types of the engine's calls (web/core/engine.js): what JavaScript must check
// before a value can cross into C++. Every range, length and value is the core's to check
// (cpp/core/check.hpp); these say only that a value is of a kind the binding can take.
import { describe, rangeError, typeError } from './errors.js';


// The argument object of a method: an object (not null, not an array).
export function objectOf(where, value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw typeError(`${where} takes one object of named arguments, got ${describe(value)}`);
  return value;
}

// An optional options object: undefined means all defaults.
export function optionsOf(where, value) {
  return value === undefined ? {} : objectOf(where, value);
}

export function number(name, value) {
  if (typeof value !== 'number') throw typeError(`${name} must be a number, got ${describe(value)}`);
}

export function boolean(name, value) {
  if (typeof value !== 'boolean') throw typeError(`${name} must be true or false, got ${describe(value)}`);
}

// An integer the binding takes as a C++ int (32 bits); its range is the core's to check.
export function int32(name, value) {
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw typeError(`${name} must be an integer, got ${describe(value)}`);
  if ((value | 0) !== value) throw rangeError(`${name} must be a 32-bit integer, got ${value}`, 'ATTN_INVALID_SHAPE');
}

// A seed: an unsigned 32-bit integer, which a JS number carries exactly.
export function uint32(name, value) {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0xffffffff)
    throw typeError(`${name} must be an integer from 0 to 4294967295 (32 bits), got ${describe(value)}`);
}

export function scaleOption(scale) {
  if (scale !== 'sqrt' && scale !== 'none' && typeof scale !== 'number')
    throw typeError(`scale must be 'sqrt', 'none' or a positive number, got ${describe(scale)}`);
}

// [lo, hi]: two numbers (the core checks that they make a range).
export function pair(name, value) {
  if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== 'number' || typeof value[1] !== 'number')
    throw typeError(`${name} must be [lo, hi], two numbers, got ${describe(value)}`);
  return value;
}

// A list of key widths: integers (the core checks how many and their range).
export function widthList(dims) {
  if (!Array.isArray(dims) && typedArrayKind.call(dims) === undefined)
    throw typeError(`dims must be an array of widths, got ${describe(dims)}`);
  const widths = Array.from(dims);
  widths.forEach((d, i) => int32(`dims[${i}]`, d));
  return widths;
}

// The internal slots of a typed array, read with the intrinsic getters: a typed array's own
// `length` can be redefined and a Proxy can pretend to be one, but neither fools these
// (they return undefined, or throw, for anything that is not a typed array).
const TypedArrayPrototype = Object.getPrototypeOf(Int8Array.prototype);
export const typedArrayKind = Object.getOwnPropertyDescriptor(TypedArrayPrototype, Symbol.toStringTag).get;
const typedArrayLength = Object.getOwnPropertyDescriptor(TypedArrayPrototype, 'length').get;

// A file's bytes as the binding takes them: a Uint8Array over the same memory.
export function bytesOf(name, value) {
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  throw typeError(`${name} must be an ArrayBuffer or a view of one (the file's bytes), got ${describe(value)}`);
}

// The true length of a Float32Array, or -1 for null (the binding reads a negative length as "not given").
export function lengthOf(array) {
  return array === null ? -1 : typedArrayLength.call(array);
}

// A Float32Array as is; any other typed array or array of numbers as a float32 copy.
export function floatArray(name, value) {
  const kind = typedArrayKind.call(value);
  if (kind === 'Float32Array') return value; // its length is read with the intrinsic getter (#place)
  if (kind === 'BigInt64Array' || kind === 'BigUint64Array') throw typeError(`${name} must hold numbers, got a ${kind}`);
  if (kind !== undefined) return new Float32Array(value); // reads the source's own slots, not its properties
  let isArray;
  try {
    isArray = Array.isArray(value);
  } catch {
    isArray = false; // a revoked Proxy
  }
  if (!isArray) throw typeError(`${name} must be a Float32Array (or an array of numbers), got ${describe(value)}`);
  try {
    const length = value.length;
    const copy = new Float32Array(length);
    for (let i = 0; i < length; i++) {
      const x = value[i];
      if (typeof x === 'number') copy[i] = x;
      else if (Array.isArray(x))
        throw typeError(`${name}[${i}] is an array: pass ${name} as one flat array of numbers, row-major (${name}.flat() of its rows)`);
      else throw typeError(`${name}[${i}] must be a number, got ${describe(x)}`);
    }
    return copy;
  } catch (error) {
    if (error.code) throw error;
    throw typeError(`${name} could not be read as an array of numbers: ${error.message}`); // e.g. a Proxy's trap threw
  }
}
