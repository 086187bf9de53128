// The peer implementations of `npm run bench`: onnxruntime-web (wasm backend) and
// @tensorflow/tfjs-backend-wasm (XNNPACK), each on one thread, plus a plain JavaScript version.
// All compute output = softmax(scale · q kᵀ) v for q, k, v (N×d), with k given pre-transposed
// (d×N) to the libraries so that their matmul takes its fast path.
import { readFileSync } from 'node:fs';

// installed version of a peer package (their package.json is not in their "exports")
const version = (name) =>
  JSON.parse(readFileSync(new URL(`./node_modules/${name}/package.json`, import.meta.url), 'utf8')).version;

// ---- a hand-written ONNX model: MatMul → Mul(scale) → Softmax → MatMul, N symbolic ----------
// Minimal protobuf encoding (wire types 0 = varint, 2 = bytes, 5 = 32-bit) of onnx.proto's
// ModelProto, enough for this graph; avoids a protobuf/onnx dependency.
function varint(value) {
  const bytes = [];
  let v = BigInt(value);
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    bytes.push(byte);
  } while (v > 0n);
  return bytes;
}
const field = (number, wire) => varint((number << 3) | wire);
const int = (number, value) => [...field(number, 0), ...varint(value)];
const bytes = (number, content) => [...field(number, 2), ...varint(content.length), ...content];
const str = (number, text) => bytes(number, [...Buffer.from(text, 'utf8')]);
const float32 = (number, value) => {
  const b = Buffer.alloc(4);
  b.writeFloatLE(value);
  return [...field(number, 5), ...b];
};

const FLOAT = 1; // TensorProto.DataType.FLOAT
function tensorInfo(name, dims) {
  // ValueInfoProto{name, type: TypeProto{tensor_type{elem_type, shape{dim...}}}}
  const shape = dims.flatMap((dim) => bytes(1, typeof dim === 'string' ? str(2, dim) : int(1, dim)));
  return [...str(1, name), ...bytes(2, bytes(1, [...int(1, FLOAT), ...bytes(2, shape)]))];
}
function node(op, inputs, outputs, attributes = []) {
  return [...inputs.flatMap((i) => str(1, i)), ...outputs.flatMap((o) => str(2, o)), ...str(3, `${op}_${outputs[0]}`),
    ...str(4, op), ...attributes.flatMap((a) => bytes(5, a))];
}

/** ONNX model bytes: O = softmax(scale · Q·KT) V with Q, V (N×d), KT (d×N). */
export function attentionModel(d, scale) {
  const scaleTensor = [...int(2, FLOAT), ...float32(4, scale), ...str(8, 'scale')]; // scalar initializer
  // AttributeProto{name, i = -1, type = INT (2)}; a negative int64 is its 64-bit two's complement
  const axisAttr = [...str(1, 'axis'), ...field(3, 0), ...varint((1n << 64n) - 1n), ...int(20, 2)];
  const graph = [
    ...bytes(1, node('MatMul', ['Q', 'KT'], ['S'])),
    ...bytes(1, node('Mul', ['S', 'scale'], ['Z'])),
    ...bytes(1, node('Softmax', ['Z'], ['P'], [axisAttr])),
    ...bytes(1, node('MatMul', ['P', 'V'], ['O'])),
    ...str(2, 'attention'),
    ...bytes(5, scaleTensor),
    ...bytes(11, tensorInfo('Q', ['N', d])),
    ...bytes(11, tensorInfo('KT', [d, 'N'])),
    ...bytes(11, tensorInfo('V', ['N', d])),
    ...bytes(12, tensorInfo('O', ['N', d])),
  ];
  const model = [...int(1, 8), ...str(2, 'attention-lab-bench'), ...bytes(7, graph), ...bytes(8, int(2, 13))];
  return Uint8Array.from(model);
}

/** onnxruntime-web, wasm execution provider, one thread. */
export async function createOnnx(d, scale) {
  const ort = await import('onnxruntime-web');
  ort.env.wasm.numThreads = 1;
  ort.env.logLevel = 'error';
  const session = await ort.InferenceSession.create(attentionModel(d, scale), {
    executionProviders: ['wasm'],
    graphOptimizationLevel: 'all',
  });
  return {
    name: `onnxruntime-web ${version('onnxruntime-web')} (wasm, 1 thread)`,
    async run(q, kT, v, n) {
      const feeds = {
        Q: new ort.Tensor('float32', q, [n, d]),
        KT: new ort.Tensor('float32', kT, [d, n]),
        V: new ort.Tensor('float32', v, [n, d]),
      };
      const { O } = await session.run(feeds);
      const out = O.data.slice();
      O.dispose?.();
      return out;
    },
  };
}

/** @tensorflow/tfjs-backend-wasm (XNNPACK), one thread. */
export async function createTfjs(d, scale) {
  const tf = await import('@tensorflow/tfjs-core');
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  wasm.setThreadsCount(1);
  await tf.setBackend('wasm');
  await tf.ready();
  return {
    name: `@tensorflow/tfjs-backend-wasm ${version('@tensorflow/tfjs-backend-wasm')} (XNNPACK, 1 thread)`,
    async run(q, kT, v, n) {
      const out = tf.tidy(() => {
        const scores = tf.mul(tf.matMul(tf.tensor2d(q, [n, d]), tf.tensor2d(kT, [d, n])), tf.scalar(scale));
        return tf.matMul(tf.softmax(scores), tf.tensor2d(v, [n, d]));
      });
      const data = out.dataSync();
      out.dispose();
      return data;
    },
  };
}

/** Plain JavaScript: one query row at a time, float32 storage, float64 arithmetic. */
export function createPlainJs(d, scale) {
  return {
    name: 'plain JavaScript',
    run(q, k, v, n) {
      const out = new Float32Array(n * d);
      const scores = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        let max = -Infinity;
        for (let j = 0; j < n; j++) {
          let dot = 0;
          for (let c = 0; c < d; c++) dot += q[i * d + c] * k[j * d + c];
          scores[j] = dot * scale;
          if (scores[j] > max) max = scores[j];
        }
        let sum = 0;
        for (let j = 0; j < n; j++) sum += scores[j] = Math.exp(scores[j] - max);
        for (let j = 0; j < n; j++) {
          const p = scores[j] / sum;
          for (let c = 0; c < d; c++) out[i * d + c] += p * v[j * d + c];
        }
      }
      return out;
    },
  };
}
