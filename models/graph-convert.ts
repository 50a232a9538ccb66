/**
 * TF.js graph model (TensorFlow GraphDef, NHWC) -> ONNX (opset 13, NCHW).
 *
 * The ONNX model takes one float32 input named `input` of shape [1,C,H,W] (planar, same value
 * range as the TF placeholder; no normalisation is added) and exposes the requested TF tensors
 * as named outputs, in TF layout (4-D outputs are transposed back to NHWC).
 *
 * Layout strategy: every non-constant 4-D tensor is kept NCHW in ONNX; values carry their TF
 * (NHWC) shape plus an `nchw` flag. Axis-consuming ops (Mean/Sum/Softmax/Pad/Concat/...) remap
 * axes; Reshape/Squeeze/Transpose first bring the data back to TF order; constants broadcast
 * against NCHW tensors are right-aligned to rank 4 and transposed ([C] -> [1,C,1,1]). Filters:
 * HWIO -> OIHW, depthwise [kh,kw,C,M] -> [C*M,1,kh,kw] with group C. SAME padding is written as
 * explicit pads computed from the static shapes (TF puts the odd pixel at the end). Elementwise
 * ops whose inputs are all constant are folded. Unsupported ops/attrs throw naming the node.
 */
import { GraphBuilder } from './graph-builder.js';
import type { AttrValue } from './onnx-proto.js';
import { attr, broadcastShape, foldBinary, prod, readGraphModel, transposeData, type ConstTensor, type GraphModel, type TfNode } from './tfjs-graph.js';

export interface GraphConvertOptions {
  /** ONNX output name -> TF tensor name ("node" or "node:0"), e.g. { embedding: 'global_pooling/Mean' }. */
  outputs: Record<string, string>;
  /** Input size when the placeholder's H/W are dynamic (or to check them). */
  inputSize?: { height: number; width: number };
  /** ONNX graph name and metadata (defaults: json file name). */
  name?: string;
  metadata?: Record<string, string>;
}

type Val = { kind: 'tensor'; id: string; shape: number[]; nchw: boolean } | { kind: 'const'; c: ConstTensor };
type Tensor = Extract<Val, { kind: 'tensor' }>;

const TO_NCHW = [0, 3, 1, 2];
/** TF (NHWC) axis -> position in the NCHW ONNX tensor. */
const AXIS_NCHW = [0, 2, 3, 1];
const UNARY: Record<string, string> = {
  Abs: 'Abs', Neg: 'Neg', Exp: 'Exp', Log: 'Log', Sqrt: 'Sqrt', Reciprocal: 'Reciprocal', Inv: 'Reciprocal', Floor: 'Floor',
  Ceil: 'Ceil', Sign: 'Sign', Sin: 'Sin', Cos: 'Cos', Tanh: 'Tanh', Sigmoid: 'Sigmoid', Relu: 'Relu', Elu: 'Elu', Selu: 'Selu', Softplus: 'Softplus',
};
const BINARY: Record<string, string> = { Add: 'Add', AddV2: 'Add', BiasAdd: 'Add', Sub: 'Sub', Mul: 'Mul', RealDiv: 'Div', Div: 'Div', Maximum: 'Max', Minimum: 'Min', Pow: 'Pow' };
const FOLD: Record<string, (a: number, b: number) => number> = {
  Add: (a, b) => a + b, Sub: (a, b) => a - b, Mul: (a, b) => a * b, Div: (a, b) => a / b, Max: Math.max, Min: Math.min, Pow: Math.pow,
};
const REDUCE: Record<string, string> = { Mean: 'ReduceMean', Sum: 'ReduceSum', Max: 'ReduceMax', Min: 'ReduceMin', Prod: 'ReduceProd' };
const PASS = new Set(['Identity', 'StopGradient', 'Snapshot', 'PreventGradient']);

const perm = <T>(a: T[], p: number[]): T[] => p.map((i) => a[i]);

/** True when NHWC and NCHW orders of `shape` lay out the same bytes (only size-1 axes move). */
const sameOrder = (shape: number[]): boolean =>
  [0, 1, 2, 3].filter((a) => shape[a] !== 1).join() === TO_NCHW.filter((a) => shape[a] !== 1).join();

class Converter {
  readonly g = new GraphBuilder(new Map());
  private vals = new Map<string, Val>();
  input: { name: string; shape: number[] } | null = null;

  constructor(private m: GraphModel, private inputSize?: { height: number; width: number }) {}

  private err(n: TfNode, msg: string): Error {
    return new Error(`${n.op} ${n.name}: ${msg}`);
  }

  /** Value of a TF input reference ("node", "node:0"), converting its producer on demand. */
  val(ref: string): Val {
    const [name, port = '0'] = ref.replace(/^\^/, '').split(':');
    if (port !== '0') throw new Error(`${ref}: only output 0 of a node is supported`);
    const done = this.vals.get(name);
    if (done) return done;
    const n = this.m.nodes.get(name);
    if (!n) throw new Error(`graph has no node ${name}`);
    const args = n.inputs.filter((i) => !i.startsWith('^'));
    const v = this.convert(n, args);
    this.vals.set(name, v);
    return v;
  }

  private cnst(n: TfNode, ref: string): ConstTensor {
    const v = this.val(ref);
    if (v.kind !== 'const') throw this.err(n, `input ${ref} must be a constant`);
    return v.c;
  }

  private tensor(n: TfNode, ref: string): Tensor {
    const v = this.val(ref);
    if (v.kind !== 'tensor') throw this.err(n, `input ${ref} is constant where a tensor is expected`);
    return v;
  }

  private ints(n: TfNode, ref: string): number[] {
    return Array.from(this.cnst(n, ref).data);
  }

  private out(id: string, shape: number[], nchw = shape.length === 4): Tensor {
    return { kind: 'tensor', id, shape, nchw };
  }

  /** Float initializer for a constant, in TF layout. */
  private init(c: ConstTensor, n: TfNode): string {
    if (c.dtype !== 'float32') throw this.err(n, `${c.dtype} constant used as a float tensor`);
    return this.g.constFloat('c', c.shape, c.data as Float32Array);
  }

  /** Data of `v` in TF layout with exactly its TF shape. */
  private asTf(v: Val, n: TfNode): string {
    if (v.kind === 'const') return this.init(v.c, n);
    if (!v.nchw) return v.id;
    if (sameOrder(v.shape)) return this.g.op('Reshape', [v.id, this.g.constInt64('shape', v.shape)]);
    return this.g.op('Transpose', [v.id], { perm: AXIS_NCHW });
  }

  /** `v` broadcast-ready against a 4-D NCHW tensor (right-aligned to rank 4, then NHWC -> NCHW). */
  private asNchw(v: Val, n: TfNode): string {
    if (v.kind === 'tensor' && v.nchw) return v.id;
    const shape = v.kind === 'const' ? v.c.shape : v.shape;
    if (shape.length > 4) throw this.err(n, `rank ${shape.length} operand against a 4-D tensor`);
    const s4 = [...Array(4 - shape.length).fill(1), ...shape];
    if (v.kind === 'const') {
      if (shape.length === 0 || prod(shape) === 1) return this.init(v.c, n);
      return this.g.constFloat('c', perm(s4, TO_NCHW), transposeData(v.c.data as Float32Array, s4, TO_NCHW));
    }
    const r = this.g.op('Reshape', [v.id, this.g.constInt64('shape', s4)]);
    return sameOrder(s4)
      ? this.g.op('Reshape', [r, this.g.constInt64('shape', perm(s4, TO_NCHW))])
      : this.g.op('Transpose', [r], { perm: TO_NCHW });
  }

  /** Tensor in TF layout -> value with TF shape `shape` (NCHW when rank 4). */
  private fromTf(id: string, shape: number[]): Tensor {
    if (shape.length !== 4) return this.out(id, shape, false);
    if (sameOrder(shape)) return this.out(this.g.op('Reshape', [id, this.g.constInt64('shape', perm(shape, TO_NCHW))]), shape);
    return this.out(this.g.op('Transpose', [id], { perm: TO_NCHW }), shape);
  }

  private reshape(n: TfNode, x: Val, shape: number[]): Tensor {
    const from = x.kind === 'const' ? x.c.shape : x.shape;
    const known = prod(shape.filter((d) => d !== -1));
    const resolved = shape.map((d) => (d === -1 ? prod(from) / known : d));
    if (prod(resolved) !== prod(from) || !resolved.every(Number.isInteger)) throw this.err(n, `cannot reshape [${from}] to [${shape}]`);
    return this.fromTf(this.g.op('Reshape', [this.asTf(x, n), this.g.constInt64('shape', resolved)]), resolved);
  }

  /** Static pads [top,left,bottom,right] and output H/W for a 2-D window op. */
  private window(n: TfNode, hw: number[], k: number[], s: number[], d: number[]): { pads: number[]; out: number[] } {
    const mode = attr.str(n, 'padding');
    const ek = k.map((kk, i) => (kk - 1) * d[i] + 1);
    if (mode === 'VALID') return { pads: [0, 0, 0, 0], out: hw.map((x, i) => Math.floor((x - ek[i]) / s[i]) + 1) };
    if (mode === 'SAME') {
      const out = hw.map((x, i) => Math.ceil(x / s[i]));
      const tot = hw.map((x, i) => Math.max((out[i] - 1) * s[i] + ek[i] - x, 0));
      const lo = tot.map((t) => Math.floor(t / 2));
      return { pads: [lo[0], lo[1], tot[0] - lo[0], tot[1] - lo[1]], out };
    }
    if (mode === 'EXPLICIT') {
      const e = attr.ints(n, 'explicit_paddings');
      const pads = [e[2], e[4], e[3], e[5]];
      return { pads, out: hw.map((x, i) => Math.floor((x + pads[i] + pads[i + 2] - ek[i]) / s[i]) + 1) };
    }
    throw this.err(n, `padding ${mode} not supported`);
  }

  private checkNhwc(n: TfNode): void {
    const f = attr.str(n, 'data_format', 'NHWC');
    if (f !== 'NHWC') throw this.err(n, `data_format ${f} not supported`);
  }

  /** Activation `kind` (TF op name) on tensor x; alpha = PReLU slope constant. */
  private activation(n: TfNode, kind: string, x: Tensor, alpha?: ConstTensor): Tensor {
    const g = this.g;
    let id: string;
    if (kind === 'Relu6') id = g.op('Clip', [x.id, g.constFloat('lo', [], [0]), g.constFloat('hi', [], [6])]);
    else if (kind === 'LeakyRelu') id = g.op('LeakyRelu', [x.id], { alpha: { float: attr.float(n, 'leakyrelu_alpha', attr.float(n, 'alpha', 0.2)) } });
    else if (kind === 'Prelu') {
      if (!alpha) throw this.err(n, 'Prelu without alpha');
      id = g.op('PRelu', [x.id, x.nchw ? this.asNchw({ kind: 'const', c: alpha }, n) : this.init(alpha, n)]);
    } else if (UNARY[kind]) id = g.op(UNARY[kind], [x.id]);
    else throw this.err(n, `activation ${kind} not supported`);
    return this.out(id, x.shape, x.nchw);
  }

  /** fused_ops of _FusedConv2D / FusedDepthwiseConv2dNative / _FusedMatMul -> bias + activation. */
  private fused(n: TfNode, args: string[]): { bias?: ConstTensor; act?: string; alpha?: ConstTensor } {
    const ops = attr.strs(n, 'fused_ops');
    const extra = args.slice(2).map((a) => this.cnst(n, a));
    let i = 0;
    const res: { bias?: ConstTensor; act?: string; alpha?: ConstTensor } = {};
    if (ops[0] === 'BiasAdd') (res.bias = extra[i++]), ops.shift();
    if (ops.length > 1 || ['FusedBatchNorm', 'BiasAdd'].includes(ops[0] ?? '')) throw this.err(n, `fused_ops [${attr.strs(n, 'fused_ops')}] not supported`);
    if (ops[0]) res.act = ops[0];
    if (res.act === 'Prelu') res.alpha = extra[i++];
    return res;
  }

  private conv(n: TfNode, args: string[], depthwise: boolean): Tensor {
    this.checkNhwc(n);
    const x = this.tensor(n, args[0]);
    const w = this.cnst(n, args[1]);
    if (x.shape.length !== 4 || w.shape.length !== 4) throw this.err(n, 'expects 4-D input and filter');
    const [kh, kw, ci, co] = w.shape;
    const st = attr.ints(n, 'strides', [1, 1, 1, 1]);
    const dl = attr.ints(n, 'dilations', [1, 1, 1, 1]);
    if (st[0] !== 1 || st[3] !== 1 || dl[0] !== 1 || dl[3] !== 1) throw this.err(n, 'batch/channel strides or dilations not supported');
    const c = x.shape[3];
    const group = depthwise ? ci : c / ci;
    if (!Number.isInteger(group) || (depthwise && c !== ci)) throw this.err(n, `filter [${w.shape}] does not match ${c} input channels`);
    const outC = depthwise ? ci * co : co;
    const wData = transposeData(w.data as Float32Array, w.shape, depthwise ? [2, 3, 0, 1] : [3, 2, 0, 1]);
    const wId = this.g.constFloat('W', depthwise ? [outC, 1, kh, kw] : [co, ci, kh, kw], wData);
    const { pads, out } = this.window(n, x.shape.slice(1, 3), [kh, kw], st.slice(1, 3), dl.slice(1, 3));
    const f = n.op.startsWith('Fused') || n.op.startsWith('_Fused') ? this.fused(n, args) : {};
    const inputs = [x.id, wId];
    if (f.bias) inputs.push(this.g.constFloat('B', [outC], f.bias.data as Float32Array));
    const attrs: Record<string, AttrValue> = { kernel_shape: [kh, kw], strides: st.slice(1, 3), dilations: dl.slice(1, 3), pads, group };
    const y = this.out(this.g.op('Conv', inputs, attrs), [x.shape[0], out[0], out[1], outC]);
    return f.act ? this.activation(n, f.act, y, f.alpha) : y;
  }

  private matmul(n: TfNode, args: string[]): Tensor {
    const a = this.val(args[0]);
    const b = this.val(args[1]);
    const ta = attr.bool(n, 'transpose_a', false);
    const tb = attr.bool(n, 'transpose_b', false);
    const sa = a.kind === 'const' ? a.c.shape : a.shape;
    const sb = b.kind === 'const' ? b.c.shape : b.shape;
    if (sa.length !== 2 || sb.length !== 2) throw this.err(n, 'only 2-D MatMul is supported');
    const f = n.op === '_FusedMatMul' ? this.fused(n, args) : {};
    const shape = [ta ? sa[1] : sa[0], tb ? sb[0] : sb[1]];
    const inputs = [this.asTf(a, n), this.asTf(b, n)];
    if (f.bias) inputs.push(this.init(f.bias, n));
    const y = this.out(this.g.op('Gemm', inputs, { transA: ta ? 1 : 0, transB: tb ? 1 : 0 }), shape, false);
    return f.act ? this.activation(n, f.act, y, f.alpha) : y;
  }

  private binary(n: TfNode, onnxOp: string, a: Val, b: Val): Val {
    if (a.kind === 'const' && b.kind === 'const' && FOLD[onnxOp]) return { kind: 'const', c: foldBinary(a.c, b.c, FOLD[onnxOp], n.name) };
    const shape = broadcastShape(a.kind === 'const' ? a.c.shape : a.shape, b.kind === 'const' ? b.c.shape : b.shape, `${n.op} ${n.name}`);
    if (shape.length === 4) return this.out(this.g.op(onnxOp, [this.asNchw(a, n), this.asNchw(b, n)]), shape);
    if (shape.length > 4) throw this.err(n, `rank ${shape.length} not supported`);
    return this.out(this.g.op(onnxOp, [this.asTf(a, n), this.asTf(b, n)]), shape, false);
  }

  private reduce(n: TfNode, args: string[]): Tensor {
    const x = this.tensor(n, args[0]);
    const r = x.shape.length;
    const axes = [...new Set(this.ints(n, args[1]).map((a) => (a + r) % r))].sort();
    const keep = attr.bool(n, 'keep_dims', false);
    if (axes.length === 0) return x;
    const onnxAxes = x.nchw ? axes.map((a) => AXIS_NCHW[a]) : axes;
    const op = REDUCE[n.op];
    const keepdims = keep ? 1 : 0;
    const id = op === 'ReduceSum'
      ? this.g.op(op, [x.id, this.g.constInt64('axes', onnxAxes)], { keepdims })
      : this.g.op(op, [x.id], { axes: onnxAxes, keepdims });
    const shape = keep ? x.shape.map((d, i) => (axes.includes(i) ? 1 : d)) : x.shape.filter((_, i) => !axes.includes(i));
    if (keep || !x.nchw) return this.out(id, shape, keep && x.nchw);
    const left = TO_NCHW.filter((a) => !axes.includes(a));
    const tfOrder = [...left].sort();
    if (left.join() === tfOrder.join()) return this.out(id, shape, false);
    return this.out(this.g.op('Transpose', [id], { perm: tfOrder.map((a) => left.indexOf(a)) }), shape, false);
  }

  private pad(n: TfNode, args: string[]): Tensor {
    const x = this.tensor(n, args[0]);
    const p = this.ints(n, args[1]);
    const r = x.shape.length;
    if (p.length !== 2 * r) throw this.err(n, `paddings of ${p.length / 2} dims for a rank-${r} tensor`);
    const order = x.nchw ? TO_NCHW : x.shape.map((_, i) => i);
    const pads = [...order.map((a) => p[2 * a]), ...order.map((a) => p[2 * a + 1])];
    const shape = x.shape.map((d, i) => d + p[2 * i] + p[2 * i + 1]);
    let mode = 'constant';
    if (n.op === 'MirrorPad') {
      mode = attr.str(n, 'mode').toLowerCase();
      if (mode !== 'reflect') throw this.err(n, `mode ${mode} not supported`);
    }
    const value = n.op === 'PadV2' ? this.cnst(n, args[2]).data[0] : 0;
    const inputs = [x.id, this.g.constInt64('pads', pads)];
    if (mode === 'constant') inputs.push(this.g.constFloat('pad_value', [], [value]));
    return this.out(this.g.op('Pad', inputs, { mode }), shape, x.nchw);
  }

  private pool(n: TfNode, args: string[]): Tensor {
    this.checkNhwc(n);
    const x = this.tensor(n, args[0]);
    const k = attr.ints(n, 'ksize');
    const s = attr.ints(n, 'strides');
    if (k[0] !== 1 || k[3] !== 1 || s[0] !== 1 || s[3] !== 1) throw this.err(n, 'pooling over batch/channels not supported');
    const { pads, out } = this.window(n, x.shape.slice(1, 3), k.slice(1, 3), s.slice(1, 3), [1, 1]);
    const op = n.op === 'MaxPool' ? 'MaxPool' : 'AveragePool';
    const attrs: Record<string, AttrValue> = { kernel_shape: k.slice(1, 3), strides: s.slice(1, 3), pads };
    if (op === 'AveragePool') attrs.count_include_pad = 0;
    return this.out(this.g.op(op, [x.id], attrs), [x.shape[0], out[0], out[1], x.shape[3]]);
  }

  private concat(n: TfNode, args: string[]): Tensor {
    const parts = args.slice(0, -1).map((a) => this.val(a));
    const shapes = parts.map((v) => (v.kind === 'const' ? v.c.shape : v.shape));
    const r = shapes[0].length;
    const axis = (this.ints(n, args[args.length - 1])[0] + r) % r;
    const shape = shapes[0].map((d, i) => (i === axis ? shapes.reduce((s, x) => s + x[i], 0) : d));
    const four = r === 4;
    const ids = parts.map((v) => (four ? this.asNchw(v, n) : this.asTf(v, n)));
    return this.out(this.g.op('Concat', ids, { axis: four ? AXIS_NCHW[axis] : axis }), shape, four);
  }

  private transpose(n: TfNode, args: string[]): Tensor {
    const x = this.tensor(n, args[0]);
    const p = this.ints(n, args[1]);
    const shape = perm(x.shape, p);
    if (!x.nchw || shape.length !== 4) return this.fromTf(this.g.op('Transpose', [this.asTf(x, n)], { perm: p }), shape);
    return this.out(this.g.op('Transpose', [x.id], { perm: TO_NCHW.map((i) => AXIS_NCHW[p[i]]) }), shape);
  }

  private placeholder(n: TfNode): Tensor {
    if (this.input) throw this.err(n, `second placeholder (first: ${this.input.name}); only one input is supported`);
    const s = attr.shape(n, 'shape');
    if (!s || s.length !== 4) throw this.err(n, 'only a 4-D NHWC image placeholder is supported');
    const h = this.inputSize?.height ?? s[1];
    const w = this.inputSize?.width ?? s[2];
    if (h <= 0 || w <= 0 || s[3] <= 0) throw this.err(n, 'dynamic input size: pass inputSize');
    if ((s[1] > 0 && s[1] !== h) || (s[2] > 0 && s[2] !== w)) throw this.err(n, `input size ${h}x${w} differs from the graph's ${s[1]}x${s[2]}`);
    this.input = { name: n.name, shape: [1, h, w, s[3]] };
    return this.out('input', this.input.shape);
  }

  private convert(n: TfNode, args: string[]): Val {
    const op = n.op;
    if (op === 'Const') return { kind: 'const', c: this.m.consts.get(n.name)! };
    if (op === 'Placeholder') return this.placeholder(n);
    if (PASS.has(op)) return this.val(args[0]);
    if (op === 'Conv2D' || op === '_FusedConv2D') return this.conv(n, args, false);
    if (op === 'DepthwiseConv2dNative' || op === 'FusedDepthwiseConv2dNative') return this.conv(n, args, true);
    if (op === 'MatMul' || op === '_FusedMatMul') return this.matmul(n, args);
    if (BINARY[op]) return this.binary(n, BINARY[op], this.val(args[0]), this.val(args[1]));
    if (op === 'SquaredDifference') {
      const d = this.binary(n, 'Sub', this.val(args[0]), this.val(args[1]));
      return this.binary(n, 'Mul', d, d);
    }
    if (op === 'Square') return this.binary(n, 'Mul', this.val(args[0]), this.val(args[0]));
    if (op === 'Rsqrt') {
      const x = this.tensor(n, args[0]);
      return this.out(this.g.op('Reciprocal', [this.g.op('Sqrt', [x.id])]), x.shape, x.nchw);
    }
    if (UNARY[op] || op === 'Relu6' || op === 'LeakyRelu') return this.activation(n, op, this.tensor(n, args[0]));
    if (op === 'Prelu') return this.activation(n, op, this.tensor(n, args[0]), this.cnst(n, args[1]));
    if (op === 'Softmax' || op === 'LogSoftmax') {
      const x = this.tensor(n, args[0]);
      return this.out(this.g.op(op, [x.id], { axis: x.nchw ? 1 : -1 }), x.shape, x.nchw);
    }
    if (REDUCE[op]) return this.reduce(n, args);
    if (op === 'Reshape') return this.reshape(n, this.val(args[0]), this.ints(n, args[1]));
    if (op === 'Squeeze') {
      const x = this.tensor(n, args[0]);
      const dims = attr.ints(n, 'squeeze_dims', attr.ints(n, 'axis', [])).map((a) => (a + x.shape.length) % x.shape.length);
      return this.reshape(n, x, x.shape.filter((d, i) => (dims.length ? !dims.includes(i) : d !== 1)));
    }
    if (op === 'ExpandDims') {
      const x = this.tensor(n, args[0]);
      const a = this.ints(n, args[1])[0];
      const shape = [...x.shape];
      shape.splice(a < 0 ? shape.length + 1 + a : a, 0, 1);
      return this.reshape(n, x, shape);
    }
    if (op === 'Pad' || op === 'PadV2' || op === 'MirrorPad') return this.pad(n, args);
    if (op === 'MaxPool' || op === 'AvgPool') return this.pool(n, args);
    if (op === 'ConcatV2') return this.concat(n, args);
    if (op === 'Transpose') return this.transpose(n, args);
    if (op === 'FusedBatchNorm' || op === 'FusedBatchNormV3') {
      const [scale, offset, mean, variance] = args.slice(1, 5).map((a) => this.cnst(n, a));
      const eps = attr.float(n, 'epsilon', 1e-3);
      const s = scale.data.map((v, i) => v / Math.sqrt(variance.data[i] + eps)) as Float32Array;
      const sh = offset.data.map((v, i) => v - mean.data[i] * s[i]) as Float32Array;
      const c = (d: Float32Array): Val => ({ kind: 'const', c: { shape: [d.length], dtype: 'float32', data: d } });
      return this.binary(n, 'Add', this.binary(n, 'Mul', this.val(args[0]), c(s)), c(sh));
    }
    if (op === 'Cast') {
      const to = n.attr.DstT?.type;
      if (to === 'DT_FLOAT' && n.attr.SrcT?.type === 'DT_FLOAT') return this.val(args[0]);
      throw this.err(n, `Cast to ${to} not supported`);
    }
    throw this.err(n, 'op not supported by the graph-model converter');
  }
}

/**
 * Converts an in-memory TF.js graph model to ONNX bytes.
 * @returns ModelProto bytes: input `input` [1,C,H,W] float32, outputs named by `opts.outputs` (TF shapes, batch 1).
 * @throws Error naming the TF node for unsupported ops/attributes, or when an output is constant.
 */
export function convertGraph(model: GraphModel, opts: GraphConvertOptions): Uint8Array {
  const c = new Converter(model, opts.inputSize);
  const outputs = Object.entries(opts.outputs).map(([name, ref]) => {
    const v = c.val(ref);
    if (v.kind === 'const') throw new Error(`output ${name} (${ref}) is a constant`);
    const from = v.nchw ? c.g.op('Transpose', [v.id], { perm: AXIS_NCHW }) : v.id;
    return { from, name, shape: v.shape };
  });
  if (!c.input) throw new Error('the requested outputs do not depend on the graph input');
  const [, h, w, ch] = c.input.shape;
  return c.g.encode({
    name: opts.name ?? 'tfjs-graph-model',
    input: { name: 'input', shape: [1, ch, h, w] },
    outputs,
    metadata: { tf_input: c.input.name, tf_outputs: JSON.stringify(opts.outputs), ...opts.metadata },
    doc: `Converted from a TF.js graph model (${model.convertedBy ?? model.generatedBy ?? 'unknown source'}); input NCHW [1,${ch},${h},${w}].`,
  });
}

/**
 * Reads `<jsonPath>` (+ shards beside it) and converts it; see convertGraph.
 * @example convertGraphModel('models/faceres.json', { outputs: { embedding: 'global_pooling/Mean' } })
 */
export function convertGraphModel(jsonPath: string, opts: GraphConvertOptions): Uint8Array {
  const name = opts.name ?? jsonPath.split(/[\\/]/).pop()!.replace(/\.json$/, '');
  return convertGraph(readGraphModel(jsonPath), { ...opts, name });
}
