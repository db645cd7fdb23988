// Builds small ONNX models in memory for the onnxruntime-web peer, so the benchmark ships no model
// files and needs no `onnx` Python package: a minimal protobuf writer for the few messages used
// (ModelProto, GraphProto, NodeProto, AttributeProto, TensorProto, ValueInfoProto).

// Bytes are kept as a list of parts: small fields go into a growing byte array, large raw tensors
// (GPT-2's weights, hundreds of MB) are kept as the caller's own views and copied once, into the
// final model bytes; a nested message is spliced in by its parts, never copied on its own.
class Writer {
  constructor() {
    this.parts = [];
    this.bytes = [];
    this.length = 0;
  }
  push(byte) {
    this.bytes.push(byte);
    this.length++;
  }
  flush() {
    if (this.bytes.length) this.parts.push(Uint8Array.from(this.bytes));
    this.bytes = [];
  }
  varint(value) {
    let v = BigInt(value);
    if (v < 0n) v += 1n << 64n; // a negative int64 is its 64-bit two's complement (axis = -1)
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v) byte |= 0x80;
      this.push(byte);
    } while (v);
    return this;
  }
  tag(field, wire) {
    return this.varint((field << 3) | wire);
  }
  int(field, value) {
    return this.tag(field, 0).varint(value);
  }
  float(field, value) {
    this.tag(field, 5);
    for (const b of new Uint8Array(new Float32Array([value]).buffer)) this.push(b);
    return this;
  }
  raw(field, data) {
    this.tag(field, 2).varint(data.length);
    if (data.length < 64) {
      for (let i = 0; i < data.length; i++) this.push(data[i]);
      return this;
    }
    this.flush();
    this.parts.push(data);
    this.length += data.length;
    return this;
  }
  string(field, text) {
    return this.raw(field, new TextEncoder().encode(text));
  }
  message(field, writer) {
    writer.flush();
    this.tag(field, 2).varint(writer.length);
    this.flush();
    this.parts.push(...writer.parts);
    this.length += writer.length;
    return this;
  }
  finish() {
    this.flush();
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const part of this.parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }
}

const FLOAT = 1;
const INT64 = 7;
const TYPES = { float32: FLOAT, int64: INT64 };

// A dimension is a number or, for a size given at run time, a name (dim_param).
function valueInfo(name, shape, elemType = FLOAT) {
  const dims = new Writer();
  for (const d of shape) dims.message(1, typeof d === 'string' ? new Writer().string(2, d) : new Writer().int(1, d));
  const tensorType = new Writer().int(1, elemType).message(2, dims);
  return new Writer().string(1, name).message(2, new Writer().message(1, tensorType));
}

function tensor(name, shape, data) {
  const w = new Writer();
  for (const d of shape) w.int(1, d);
  const isInt = data instanceof BigInt64Array;
  w.int(2, isInt ? INT64 : FLOAT).string(8, name);
  return w.raw(9, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
}

function attribute(name, value) {
  const w = new Writer().string(1, name);
  if (Number.isInteger(value)) return w.int(3, value).int(20, 2); // INT
  return w.float(2, value).int(20, 1); // FLOAT
}

/**
 * graph = { nodes: [{ op, domain?, inputs, outputs, attrs? }], inputs: [[name, shape, type?]],
 * outputs: [[name, shape, type?]], initializers: [[name, shape, Float32Array | BigInt64Array]] };
 * type is 'float32' (default) or 'int64'; a dimension may be a name (a size given at run time).
 */
export function buildModel(graph) {
  const g = new Writer();
  graph.nodes.forEach((node, i) => {
    const n = new Writer();
    for (const x of node.inputs) n.string(1, x);
    for (const y of node.outputs) n.string(2, y);
    n.string(3, `node${i}`).string(4, node.op);
    for (const [key, value] of Object.entries(node.attrs ?? {})) n.message(5, attribute(key, value));
    if (node.domain) n.string(7, node.domain);
    g.message(1, n);
  });
  g.string(2, 'bench');
  for (const [name, shape, data] of graph.initializers ?? []) g.message(5, tensor(name, shape, data));
  for (const [name, shape, type] of graph.inputs) g.message(11, valueInfo(name, shape, TYPES[type ?? 'float32']));
  for (const [name, shape, type] of graph.outputs) g.message(12, valueInfo(name, shape, TYPES[type ?? 'float32']));
  const model = new Writer().int(1, 8).string(2, 'attention-explorer-bench');
  model.message(8, new Writer().string(1, '').int(2, 17));
  model.message(8, new Writer().string(1, 'com.microsoft').int(2, 1));
  model.message(7, g);
  return model.finish();
}
