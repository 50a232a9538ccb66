/**
 * Small helper to assemble ONNX graphs from TF.js-layout weights (NHWC/HWIO) as NCHW/OIHW ops.
 * TF 'same' padding maps to ONNX auto_pad SAME_UPPER (extra pad at the end, as TensorFlow does).
 */
import { DataType, encodeModel, type AttrValue, type NodeInit, type TensorInit } from './onnx-proto.js';
import type { WeightTensor } from './tfjs-weights.js';

export type Padding = 'same' | 'valid';

function f32raw(a: Float32Array): Uint8Array {
  const copy = new Float32Array(a);
  return new Uint8Array(copy.buffer);
}

/** HWIO (TF conv filter) -> OIHW (ONNX). */
export function hwioToOihw(w: WeightTensor): { dims: number[]; data: Float32Array } {
  const [kh, kw, ci, co] = w.shape;
  const out = new Float32Array(w.data.length);
  for (let h = 0; h < kh; h++)
    for (let x = 0; x < kw; x++)
      for (let i = 0; i < ci; i++)
        for (let o = 0; o < co; o++) out[((o * ci + i) * kh + h) * kw + x] = w.data[((h * kw + x) * ci + i) * co + o];
  return { dims: [co, ci, kh, kw], data: out };
}

/** TF depthwise filter [kh,kw,C,1] -> ONNX grouped conv weight [C,1,kh,kw]. */
export function depthwiseToOnnx(w: WeightTensor): { dims: number[]; data: Float32Array } {
  const [kh, kw, c, m] = w.shape;
  if (m !== 1) throw new Error('depth multiplier != 1 not supported');
  const out = new Float32Array(w.data.length);
  for (let h = 0; h < kh; h++) for (let x = 0; x < kw; x++) for (let i = 0; i < c; i++) out[(i * kh + h) * kw + x] = w.data[(h * kw + x) * c + i];
  return { dims: [c, 1, kh, kw], data: out };
}

export class GraphBuilder {
  readonly nodes: NodeInit[] = [];
  readonly initializers: TensorInit[] = [];
  private counter = 0;

  constructor(readonly weights: Map<string, WeightTensor>) {}

  get(name: string): WeightTensor {
    const w = this.weights.get(name);
    if (!w) throw new Error(`missing weight ${name}`);
    return w;
  }

  fresh(prefix: string): string {
    return `${prefix}_${this.counter++}`;
  }

  constFloat(name: string, dims: number[], data: Float32Array | number[]): string {
    const id = this.fresh(name);
    this.initializers.push({ name: id, dims, dataType: DataType.FLOAT, raw: f32raw(Float32Array.from(data)) });
    return id;
  }

  constInt64(name: string, values: number[]): string {
    const id = this.fresh(name);
    const raw = new Uint8Array(values.length * 8);
    const dv = new DataView(raw.buffer);
    values.forEach((v, i) => dv.setBigInt64(i * 8, BigInt(v), true));
    this.initializers.push({ name: id, dims: [values.length], dataType: DataType.INT64, raw });
    return id;
  }

  op(opType: string, inputs: string[], attrs?: Record<string, AttrValue>): string {
    const out = this.fresh(opType.toLowerCase());
    this.nodes.push({ opType, inputs, outputs: [out], name: out, attrs });
    return out;
  }

  /** (x - mean[c]) / div, on an NCHW input with 3 channels. */
  normalize(x: string, meanRgb: number[], div: number): string {
    const m = this.constFloat('mean', [1, 3, 1, 1], meanRgb);
    const d = this.constFloat('div', [1], [div]);
    return this.op('Div', [this.op('Sub', [x, m]), d]);
  }

  private padAttrs(padding: Padding | number[]): Record<string, AttrValue> {
    if (Array.isArray(padding)) return { pads: padding };
    return { auto_pad: padding === 'same' ? 'SAME_UPPER' : 'VALID' };
  }

  /**
   * Conv with HWIO filter, optional bias and optional per-channel affine (scale*y+shift) folded in.
   */
  conv(
    x: string,
    filter: WeightTensor,
    bias: Float32Array | null,
    stride: number,
    padding: Padding | number[],
    affine?: { scale: Float32Array; shift: Float32Array },
  ): string {
    const { dims, data } = hwioToOihw(filter);
    const co = dims[0];
    const per = data.length / co;
    const b = new Float32Array(co);
    for (let o = 0; o < co; o++) {
      const s = affine ? affine.scale[o] : 1;
      for (let k = 0; k < per; k++) data[o * per + k] *= s;
      b[o] = (bias ? bias[o] : 0) * s + (affine ? affine.shift[o] : 0);
    }
    const w = this.constFloat('W', dims, data);
    const bb = this.constFloat('B', [co], b);
    return this.op('Conv', [x, w, bb], {
      kernel_shape: [dims[2], dims[3]],
      strides: [stride, stride],
      ...this.padAttrs(padding),
    });
  }

  /** TF separableConv2d(depthwise, pointwise) + bias. */
  separableConv(x: string, prefix: string, stride: number, padding: Padding | number[]): string {
    const dw = depthwiseToOnnx(this.get(`${prefix}/depthwise_filter`));
    const c = dw.dims[0];
    const dwOut = this.op('Conv', [x, this.constFloat('DW', dw.dims, dw.data)], {
      kernel_shape: [dw.dims[2], dw.dims[3]],
      strides: [stride, stride],
      group: c,
      ...this.padAttrs(padding),
    });
    return this.conv(dwOut, this.get(`${prefix}/pointwise_filter`), this.get(`${prefix}/bias`).data, 1, 'valid');
  }

  pool(kind: 'MaxPool' | 'AveragePool', x: string, k: number, s: number, padding: Padding): string {
    return this.op(kind, [x], { kernel_shape: [k, k], strides: [s, s], ...this.padAttrs(padding) });
  }

  /** Serialises the graph as an ONNX model. */
  encode(opts: {
    name: string;
    input: { name: string; shape: Array<number | string> };
    outputs: Array<{ from: string; name: string; shape: Array<number | string> }>;
    metadata?: Record<string, string>;
    doc?: string;
  }): Uint8Array {
    const nodes = [...this.nodes];
    for (const o of opts.outputs) nodes.push({ opType: 'Identity', inputs: [o.from], outputs: [o.name], name: `out_${o.name}` });
    return encodeModel({
      graphName: opts.name,
      nodes,
      initializers: this.initializers,
      inputs: [{ name: opts.input.name, elemType: DataType.FLOAT, shape: opts.input.shape }],
      outputs: opts.outputs.map((o) => ({ name: o.name, elemType: DataType.FLOAT, shape: o.shape })),
      opset: 13,
      producer: 'biostation-models',
      docString: opts.doc,
      metadata: opts.metadata,
    });
  }
}
