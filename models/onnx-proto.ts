/**
 * Minimal ONNX ModelProto serialiser (protobuf wire format written by hand).
 * Field numbers follow onnx/onnx.proto (IR version 8). Only what our converters need:
 * float/int64 tensors, attributes of type FLOAT, INT, INTS, STRING, and static input/output shapes.
 */

/** Growable byte buffer with protobuf primitives. */
class Writer {
  private buf = new Uint8Array(1024);
  private len = 0;

  private ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.len + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }

  varint(v: number | bigint): void {
    let x = BigInt.asUintN(64, BigInt(v));
    this.ensure(10);
    while (x >= 0x80n) {
      this.buf[this.len++] = Number(x & 0x7fn) | 0x80;
      x >>= 7n;
    }
    this.buf[this.len++] = Number(x);
  }

  tag(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  bytes(field: number, data: Uint8Array): void {
    this.tag(field, 2);
    this.varint(data.length);
    this.ensure(data.length);
    this.buf.set(data, this.len);
    this.len += data.length;
  }

  string(field: number, s: string): void {
    this.bytes(field, new TextEncoder().encode(s));
  }

  int(field: number, v: number): void {
    this.tag(field, 0);
    this.varint(v);
  }

  float(field: number, v: number): void {
    this.tag(field, 5);
    this.ensure(4);
    new DataView(this.buf.buffer, this.buf.byteOffset + this.len, 4).setFloat32(0, v, true);
    this.len += 4;
  }

  message(field: number, m: Writer): void {
    this.bytes(field, m.finish());
  }

  finish(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }
}

export const DataType = { FLOAT: 1, INT32: 6, INT64: 7 } as const;

export interface TensorInit {
  name: string;
  dims: number[];
  dataType: number;
  /** Little-endian raw bytes of the tensor. */
  raw: Uint8Array;
}

export type AttrValue = number | number[] | string | { float: number };

export interface NodeInit {
  opType: string;
  inputs: string[];
  outputs: string[];
  name?: string;
  attrs?: Record<string, AttrValue>;
}

export interface ValueInit {
  name: string;
  elemType: number;
  /** A number is a fixed dimension, a string a symbolic one (e.g. "batch"). */
  shape: Array<number | string>;
}

export interface ModelInit {
  graphName: string;
  nodes: NodeInit[];
  initializers: TensorInit[];
  inputs: ValueInit[];
  outputs: ValueInit[];
  opset: number;
  producer: string;
  docString?: string;
  metadata?: Record<string, string>;
}

function tensor(t: TensorInit): Writer {
  const w = new Writer();
  for (const d of t.dims) w.int(1, d);
  w.int(2, t.dataType);
  w.string(8, t.name);
  w.bytes(9, t.raw);
  return w;
}

function attribute(name: string, v: AttrValue): Writer {
  const w = new Writer();
  w.string(1, name);
  if (typeof v === 'string') {
    w.bytes(4, new TextEncoder().encode(v));
    w.int(20, 3);
  } else if (Array.isArray(v)) {
    for (const x of v) w.int(8, x);
    w.int(20, 7);
  } else if (typeof v === 'object') {
    w.float(2, v.float);
    w.int(20, 1);
  } else {
    w.int(3, v);
    w.int(20, 2);
  }
  return w;
}

function node(n: NodeInit): Writer {
  const w = new Writer();
  for (const i of n.inputs) w.string(1, i);
  for (const o of n.outputs) w.string(2, o);
  if (n.name) w.string(3, n.name);
  w.string(4, n.opType);
  for (const [k, v] of Object.entries(n.attrs ?? {})) w.message(5, attribute(k, v));
  return w;
}

function valueInfo(v: ValueInit): Writer {
  const shape = new Writer();
  for (const d of v.shape) {
    const dim = new Writer();
    if (typeof d === 'number') dim.int(1, d);
    else dim.string(2, d);
    shape.message(1, dim);
  }
  const tt = new Writer();
  tt.int(1, v.elemType);
  tt.message(2, shape);
  const type = new Writer();
  type.message(1, tt);
  const w = new Writer();
  w.string(1, v.name);
  w.message(2, type);
  return w;
}

/** Serialises a complete ModelProto (IR version 8, default domain opset `opset`). */
export function encodeModel(m: ModelInit): Uint8Array {
  const g = new Writer();
  for (const n of m.nodes) g.message(1, node(n));
  g.string(2, m.graphName);
  for (const t of m.initializers) g.message(5, tensor(t));
  for (const i of m.inputs) g.message(11, valueInfo(i));
  for (const o of m.outputs) g.message(12, valueInfo(o));

  const w = new Writer();
  w.int(1, 8);
  w.string(2, m.producer);
  w.string(3, '1');
  if (m.docString) w.string(6, m.docString);
  w.message(7, g);
  const opset = new Writer();
  opset.string(1, '');
  opset.int(2, m.opset);
  w.message(8, opset);
  for (const [k, v] of Object.entries(m.metadata ?? {})) {
    const e = new Writer();
    e.string(1, k);
    e.string(2, v);
    w.message(14, e);
  }
  return w.finish();
}
