/**
 * Reader for TensorFlow.js graph models: a `model.json` with `format: "graph-model"` whose
 * `modelTopology.node` holds TensorFlow GraphDef nodes (NodeDef as JSON: name, op, input, attr)
 * and whose `weightsManifest` lists binary shards holding every Const node's value.
 * Weights are decoded by tfjs-weights.ts (decodeWeightGroups), shared with the layers-model reader.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { decodeWeightGroups, type ConstTensor, type WeightGroup } from './tfjs-weights.js';

export type { ConstTensor } from './tfjs-weights.js';

/** One attribute of a NodeDef in tfjs JSON form (AttrValue proto; int64 values arrive as strings). */
export interface TfAttr {
  s?: string;
  i?: string | number;
  f?: number;
  b?: boolean;
  type?: string;
  list?: { s?: string[]; i?: Array<string | number>; f?: number[]; b?: boolean[] };
  shape?: { dim?: Array<{ size?: string | number }>; unknownRank?: boolean };
  tensor?: unknown;
}

/** A GraphDef node. `inputs` keep TF syntax: "node", "node:1" (output index), "^node" (control). */
export interface TfNode {
  name: string;
  op: string;
  inputs: string[];
  attr: Record<string, TfAttr>;
}

export interface GraphModel {
  /** Nodes by name (the json order is not guaranteed topological). */
  nodes: Map<string, TfNode>;
  /** Const node values by node name. */
  consts: Map<string, ConstTensor>;
  /** Shard paths relative to the model.json folder, in manifest order. */
  shards: string[];
  /** `signature` (or `userDefinedMetadata.signature`) of the json, when present. */
  signature?: unknown;
  generatedBy?: string;
  convertedBy?: string;
}

interface GraphModelJson {
  format?: string;
  generatedBy?: string;
  convertedBy?: string;
  signature?: unknown;
  userDefinedMetadata?: { signature?: unknown };
  modelTopology: { node: Array<{ name: string; op: string; input?: string[]; attr?: Record<string, TfAttr> }> };
  weightsManifest: WeightGroup[];
}

/**
 * Loads a TF.js graph model from disk.
 * @param jsonPath path of model.json; shards are resolved beside it.
 * @throws Error when the json is not a graph model, a shard is missing/short, or a Const has no value.
 */
export function readGraphModel(jsonPath: string): GraphModel {
  const dir = path.dirname(jsonPath);
  const json = JSON.parse(readFileSync(jsonPath, 'utf8')) as GraphModelJson;
  if (!json.modelTopology?.node) throw new Error(`${jsonPath}: no modelTopology.node (not a graph model)`);
  if (json.format && json.format !== 'graph-model') throw new Error(`${jsonPath}: format ${json.format} is not graph-model`);
  const consts = decodeWeightGroups(json.weightsManifest ?? [], dir);
  const shards = (json.weightsManifest ?? []).flatMap((grp) => grp.paths);
  const nodes = new Map<string, TfNode>();
  for (const n of json.modelTopology.node) {
    nodes.set(n.name, { name: n.name, op: n.op, inputs: n.input ?? [], attr: n.attr ?? {} });
    if (n.op === 'Const' && !consts.has(n.name)) throw new Error(`${jsonPath}: Const ${n.name} has no value in weightsManifest`);
  }
  return {
    nodes,
    consts,
    shards,
    signature: json.signature ?? json.userDefinedMetadata?.signature,
    generatedBy: json.generatedBy,
    convertedBy: json.convertedBy,
  };
}

const b64 = (s: string): string => Buffer.from(s, 'base64').toString('utf8');

/** Typed accessors for NodeDef attributes (strings are base64 in tfjs JSON). */
export const attr = {
  str(n: TfNode, key: string, dflt?: string): string {
    const v = n.attr[key]?.s;
    if (v === undefined) {
      if (dflt === undefined) throw new Error(`${n.op} ${n.name}: missing attr ${key}`);
      return dflt;
    }
    return b64(v);
  },
  strs(n: TfNode, key: string): string[] {
    return (n.attr[key]?.list?.s ?? []).map(b64);
  },
  int(n: TfNode, key: string, dflt?: number): number {
    const v = n.attr[key]?.i;
    if (v === undefined) {
      if (dflt === undefined) throw new Error(`${n.op} ${n.name}: missing attr ${key}`);
      return dflt;
    }
    return Number(v);
  },
  ints(n: TfNode, key: string, dflt?: number[]): number[] {
    const v = n.attr[key]?.list?.i;
    if (!v || v.length === 0) {
      if (dflt === undefined) throw new Error(`${n.op} ${n.name}: missing attr ${key}`);
      return dflt;
    }
    return v.map(Number);
  },
  float(n: TfNode, key: string, dflt: number): number {
    return n.attr[key]?.f ?? dflt;
  },
  bool(n: TfNode, key: string, dflt: boolean): boolean {
    return n.attr[key]?.b ?? dflt;
  },
  /** Static shape attr (-1 for unknown dims), or null when absent/unknown rank. */
  shape(n: TfNode, key: string): number[] | null {
    const s = n.attr[key]?.shape;
    if (!s || s.unknownRank) return null;
    return (s.dim ?? []).map((d) => Number(d.size ?? -1));
  },
};

// ---- constant-tensor helpers (row-major, TF layout) used by graph-convert.ts for folding ----

/** Product of dims (1 for a scalar). */
export const prod = (s: number[]): number => s.reduce((a, b) => a * b, 1);
const strides = (s: number[]): number[] => s.map((_, i) => prod(s.slice(i + 1)));

/** Transposes row-major `data` of `shape` by `p` (out axis i = in axis p[i]). */
export function transposeData<T extends Float32Array | Int32Array>(data: T, shape: number[], p: number[]): T {
  const outShape = p.map((a) => shape[a]);
  const inStr = strides(shape);
  const srcStr = p.map((a) => inStr[a]);
  const out = new (data.constructor as new (n: number) => T)(data.length);
  const idx = new Array<number>(shape.length).fill(0);
  for (let o = 0; o < data.length; o++) {
    let src = 0;
    for (let k = 0; k < idx.length; k++) src += idx[k] * srcStr[k];
    out[o] = data[src];
    for (let k = idx.length - 1; k >= 0 && ++idx[k] === outShape[k]; k--) idx[k] = 0;
  }
  return out;
}

/** NumPy broadcast of two shapes; throws when incompatible. */
export function broadcastShape(a: number[], b: number[], where: string): number[] {
  const r = Math.max(a.length, b.length);
  const pa = [...Array(r - a.length).fill(1), ...a];
  const pb = [...Array(r - b.length).fill(1), ...b];
  return pa.map((x, i) => {
    if (x !== pb[i] && x !== 1 && pb[i] !== 1) throw new Error(`${where}: shapes [${a}] and [${b}] do not broadcast`);
    return x === 1 ? pb[i] : x;
  });
}

/** Elementwise fn over two broadcast constants (float32 result). */
export function foldBinary(a: ConstTensor, b: ConstTensor, fn: (x: number, y: number) => number, where: string): ConstTensor {
  const shape = broadcastShape(a.shape, b.shape, where);
  const idxOf = (s: number[]): ((o: number) => number) => {
    const padded = [...Array(shape.length - s.length).fill(1), ...s];
    const st = strides(padded).map((v, i) => (padded[i] === 1 ? 0 : v));
    const ost = strides(shape);
    return (o) => shape.reduce((acc, _, k) => acc + (Math.floor(o / ost[k]) % shape[k]) * st[k], 0);
  };
  const ia = idxOf(a.shape);
  const ib = idxOf(b.shape);
  const data = new Float32Array(prod(shape));
  for (let o = 0; o < data.length; o++) data[o] = fn(a.data[ia(o)], b.data[ib(o)]);
  return { shape, dtype: 'float32', data };
}
