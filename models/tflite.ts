/**
 * Reader for TensorFlow Lite model files (the FlatBuffers schema of tensorflow/lite/schema/schema.fbs).
 * Only what a float32 inference graph needs: the first subgraph's tensors (shape, type, constant
 * data), its operators (builtin code, inputs, outputs, builtin options table) and its input/output
 * tensor indices. Quantised tensors, custom ops and more than one subgraph are refused by the
 * converter (tflite-convert.ts), not here.
 *
 * FlatBuffers layout, in short: a table starts with an int32 offset back to its vtable; the vtable
 * holds uint16 byte offsets of each field (0 = absent, default applies); references (tables,
 * vectors, strings) are uint32 offsets relative to where they are stored; vectors start with a
 * uint32 length.
 */

/** A FlatBuffers table at `pos`; field ids are the schema's field order (0-based). */
export class FbTable {
  constructor(
    private readonly view: DataView,
    readonly pos: number,
  ) {}

  private field(id: number): number {
    const vtable = this.pos - this.view.getInt32(this.pos, true);
    const vtableLen = this.view.getUint16(vtable, true);
    const at = 4 + 2 * id;
    return at < vtableLen ? this.view.getUint16(vtable + at, true) : 0;
  }

  private ref(id: number): number {
    const o = this.field(id);
    if (!o) return 0;
    const p = this.pos + o;
    return p + this.view.getUint32(p, true);
  }

  u8(id: number, dflt = 0): number {
    const o = this.field(id);
    return o ? this.view.getUint8(this.pos + o) : dflt;
  }

  i32(id: number, dflt = 0): number {
    const o = this.field(id);
    return o ? this.view.getInt32(this.pos + o, true) : dflt;
  }

  u32(id: number, dflt = 0): number {
    const o = this.field(id);
    return o ? this.view.getUint32(this.pos + o, true) : dflt;
  }

  table(id: number): FbTable | null {
    const p = this.ref(id);
    return p ? new FbTable(this.view, p) : null;
  }

  string(id: number): string {
    const p = this.ref(id);
    if (!p) return '';
    const n = this.view.getUint32(p, true);
    return Buffer.from(this.view.buffer, this.view.byteOffset + p + 4, n).toString('utf8');
  }

  int32s(id: number): number[] {
    const p = this.ref(id);
    if (!p) return [];
    const n = this.view.getUint32(p, true);
    return Array.from({ length: n }, (_, i) => this.view.getInt32(p + 4 + 4 * i, true));
  }

  bytes(id: number): Uint8Array {
    const p = this.ref(id);
    if (!p) return new Uint8Array(0);
    const n = this.view.getUint32(p, true);
    return new Uint8Array(this.view.buffer, this.view.byteOffset + p + 4, n);
  }

  tables(id: number): FbTable[] {
    const p = this.ref(id);
    if (!p) return [];
    const n = this.view.getUint32(p, true);
    return Array.from({ length: n }, (_, i) => {
      const q = p + 4 + 4 * i;
      return new FbTable(this.view, q + this.view.getUint32(q, true));
    });
  }
}

/** TensorType values of schema.fbs used here. */
export const TfliteType = { FLOAT32: 0, INT32: 2 } as const;

/** BuiltinOperator names by code (the ones a float CNN uses; others read as "op<code>"). */
const BUILTIN: Record<number, string> = {
  0: 'ADD', 1: 'AVERAGE_POOL_2D', 2: 'CONCATENATION', 3: 'CONV_2D', 4: 'DEPTHWISE_CONV_2D', 9: 'FULLY_CONNECTED',
  11: 'L2_NORMALIZATION', 17: 'MAX_POOL_2D', 18: 'MUL', 19: 'RELU', 21: 'RELU6', 22: 'RESHAPE', 25: 'SOFTMAX',
  28: 'TANH', 34: 'PAD', 40: 'MEAN', 41: 'SUB', 54: 'PRELU', 101: 'ABS',
};

export interface TfliteTensor {
  shape: number[];
  type: number;
  name: string;
  /** Constant contents (little-endian), or null for activations. */
  data: Uint8Array | null;
  quantized: boolean;
}

export interface TfliteOperator {
  /** Builtin operator name, e.g. "CONV_2D"; "custom:<name>" for custom ops. */
  op: string;
  /** Tensor indices; -1 marks an omitted optional input. */
  inputs: number[];
  outputs: number[];
  /** The builtin options table (Conv2DOptions, AddOptions, ...), or null. */
  options: FbTable | null;
}

export interface TfliteModel {
  version: number;
  description: string;
  tensors: TfliteTensor[];
  operators: TfliteOperator[];
  inputs: number[];
  outputs: number[];
}

/**
 * Parses a .tflite file.
 * @throws Error when the buffer is not a TFLite model ("TFL3" identifier) or has no subgraph.
 */
export function readTflite(bytes: Uint8Array): TfliteModel {
  if (bytes.length < 8 || Buffer.from(bytes.subarray(4, 8)).toString('latin1') !== 'TFL3') throw new Error('not a TFLite model (no TFL3 identifier)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const model = new FbTable(view, view.getUint32(0, true));
  const codes = model.tables(1).map((c) => ({ code: Math.max(c.u8(0), c.i32(3)), custom: c.string(1) }));
  const buffers = model.tables(4).map((b) => b.bytes(0));
  const subgraph = model.tables(2)[0];
  if (!subgraph) throw new Error('TFLite model has no subgraph');
  const tensors = subgraph.tables(0).map((t): TfliteTensor => {
    const data = buffers[t.u32(2)];
    const q = t.table(4);
    return { shape: t.int32s(0), type: t.u8(1), name: t.string(3), data: data && data.length ? data : null, quantized: !!q && q.bytes(2).length > 0 };
  });
  const operators = subgraph.tables(3).map((o): TfliteOperator => {
    const c = codes[o.u32(0)];
    return { op: c.custom ? `custom:${c.custom}` : BUILTIN[c.code] ?? `op${c.code}`, inputs: o.int32s(1), outputs: o.int32s(2), options: o.table(4) };
  });
  return { version: model.u32(0), description: model.string(3), tensors, operators, inputs: subgraph.int32s(1), outputs: subgraph.int32s(2) };
}
