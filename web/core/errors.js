// The errors the package throws for a wrong argument, and the words they use for the value that
// was given: one home for the engine (engine.js), the vocabulary (vocab.js), the lab API
// (api/lab.js) and the testing helper (testing.js), so that a message reads the same whichever
// entry point a caller used.
//
//   throw typeError(`q must be a Float32Array, got ${describe(q)}`);   // "… got an array"
//   throw rangeError(`dk ${literal(dk)} is not valid: …`);              // "dk 0 is not valid: …"
//
// Every such error carries error.code: ATTN_INVALID_ARGUMENT for a value of the wrong type or
// out of range, or the core's status name (cpp/core/check.hpp, Status) where the engine passes one on.

/** Code of an error in the arguments (the core's name for the same thing). */
export const INVALID_ARGUMENT = 'ATTN_INVALID_ARGUMENT';

/** `error` with `error.code` set (ATTN_INVALID_ARGUMENT unless another code is given). */
export function coded(error, code = INVALID_ARGUMENT) {
  error.code = code;
  return error;
}

/** A TypeError with a code: a value of the wrong type. */
export function typeError(message, code = INVALID_ARGUMENT) {
  return coded(new TypeError(message), code);
}

/** A RangeError with a code: a value of the right type out of its range. */
export function rangeError(message, code = INVALID_ARGUMENT) {
  return coded(new RangeError(message), code);
}

// The kind of a typed array (its intrinsic toStringTag getter: a Proxy cannot pretend to be one).
const typedArrayKind = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Int8Array.prototype), Symbol.toStringTag).get;

const MAX_QUOTED = 40; // characters of a string quoted in a message

const quote = (text) => JSON.stringify(text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text);

/**
 * A short description of any value for a message, its kind and value ("number 7", "the string
 * \"cat\"", "an array", "a Float32Array", "null"); never throws (a Proxy, an object without a
 * prototype or a throwing getter included).
 */
export function describe(value) {
  try {
    if (value === null) return 'null';
    switch (typeof value) {
      case 'undefined': return 'undefined';
      case 'string': return `the string ${quote(value)}`;
      case 'number': case 'boolean': return `${typeof value} ${String(value)}`;
      case 'bigint': return `the BigInt ${String(value)}n`;
      case 'symbol': return 'a symbol';
      case 'function': return 'a function';
    }
    const kind = typedArrayKind.call(value);
    if (kind !== undefined) return `a ${kind}`;
    if (Array.isArray(value)) return 'an array';
    const tag = Object.prototype.toString.call(value).slice(8, -1); // "Object", "Map", "DataView"...
    return tag === 'Object' ? 'an object' : `a ${tag}`;
  } catch {
    return `an ${typeof value} that cannot be inspected`;
  }
}

/**
 * A value as it is written in a sentence about it ("dk 0 is not valid", "view \"pie\" is not
 * valid"): a string quoted, a number, boolean, null or undefined as itself, anything else as
 * describe() says it.
 */
export function literal(value) {
  if (typeof value === 'string') return quote(value);
  if (value === null || ['undefined', 'number', 'boolean'].includes(typeof value)) return String(value);
  return describe(value);
}
