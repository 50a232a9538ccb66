/**
 * Readers for TensorFlow.js weights: a manifest of groups of binary shards (the `*-weights_manifest.json`
 * of @vladmandic/face-api's layers models, and the `weightsManifest` of graph models' model.json).
 *
 * Decoding follows tfjs-core io.decodeWeights: groups are read in order, each group's shards are
 * concatenated and its entries laid out back to back. Supported entry layouts:
 *  - dtype float32 / int32 (4 bytes LE) and bool (1 byte);
 *  - quantization.dtype 'float16' (IEEE half, original float32) -> exact float32;
 *  - quantization.dtype 'uint8' / 'uint16' -> q * scale + min (rounded when the original dtype is int32).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface WeightTensor {
  shape: number[];
  data: Float32Array;
}

/** A decoded Const value, shape in TF layout (e.g. HWIO conv filters, [kh,kw,C,M] depthwise). */
export interface ConstTensor {
  shape: number[];
  dtype: 'float32' | 'int32' | 'bool';
  data: Float32Array | Int32Array;
}

export interface WeightEntry {
  name: string;
  shape: number[];
  dtype: string;
  quantization?: { dtype: 'float16' | 'uint8' | 'uint16'; scale?: number; min?: number; original_dtype?: string };
}

/** One manifest group: shard files (relative to the manifest's folder) and the entries they hold. */
export interface WeightGroup {
  paths: string[];
  weights: WeightEntry[];
}

const F16_POW = Array.from({ length: 31 }, (_, e) => Math.pow(2, e - 15));

/** IEEE 754 binary16 bits -> number (exact in float32, subnormals/Inf/NaN included). */
export function float16ToNumber(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * Math.pow(2, -24);
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * F16_POW[exp];
}

/** Decodes one manifest entry from `buf` at `off`; returns the tensor and the bytes consumed. */
function decodeEntry(w: WeightEntry, buf: Buffer, off: number): { t: ConstTensor; bytes: number } {
  const n = w.shape.reduce((a, b) => a * b, 1);
  const q = w.quantization;
  const dtype = w.dtype as ConstTensor['dtype'];
  if (dtype !== 'float32' && dtype !== 'int32' && dtype !== 'bool') throw new Error(`weight ${w.name}: dtype ${w.dtype} not supported`);
  const data = dtype === 'float32' ? new Float32Array(n) : new Int32Array(n);
  const size = q ? (q.dtype === 'uint8' ? 1 : 2) : dtype === 'bool' ? 1 : 4;
  if (off + n * size > buf.length) throw new Error(`weight ${w.name}: shards too short (${buf.length} bytes, need ${off + n * size})`);
  if (q?.dtype === 'float16') {
    if (dtype !== 'float32') throw new Error(`weight ${w.name}: float16 quantization of ${dtype}`);
    for (let i = 0; i < n; i++) data[i] = float16ToNumber(buf.readUInt16LE(off + 2 * i));
  } else if (q) {
    if (q.dtype !== 'uint8' && q.dtype !== 'uint16') throw new Error(`weight ${w.name}: quantization ${q.dtype} not supported`);
    if (typeof q.scale !== 'number' || typeof q.min !== 'number') throw new Error(`weight ${w.name}: quantization without scale/min`);
    for (let i = 0; i < n; i++) {
      const v = (size === 1 ? buf[off + i] : buf.readUInt16LE(off + 2 * i)) * q.scale + q.min;
      data[i] = dtype === 'float32' ? v : Math.round(v);
    }
  } else if (dtype === 'bool') {
    for (let i = 0; i < n; i++) data[i] = buf[off + i] ? 1 : 0;
  } else {
    for (let i = 0; i < n; i++) data[i] = dtype === 'int32' ? buf.readInt32LE(off + 4 * i) : buf.readFloatLE(off + 4 * i);
  }
  return { t: { shape: [...w.shape], dtype, data }, bytes: n * size };
}

/**
 * Decodes every entry of the manifest groups.
 * @param dir folder the shard paths are relative to.
 * @returns map entry name -> tensor (shape in TF layout).
 * @throws Error for a missing or short shard, or an unsupported dtype / quantization.
 */
export function decodeWeightGroups(groups: WeightGroup[], dir: string): Map<string, ConstTensor> {
  const out = new Map<string, ConstTensor>();
  for (const g of groups) {
    const buf = Buffer.concat(g.paths.map((p) => readFileSync(path.join(dir, p))));
    let off = 0;
    for (const w of g.weights) {
      const { t, bytes } = decodeEntry(w, buf, off);
      out.set(w.name, t);
      off += bytes;
    }
  }
  return out;
}

/**
 * Loads every tensor of a TF.js weights manifest as float32.
 * @param manifestPath path of `<name>-weights_manifest.json`; shards are resolved beside it.
 * @returns map name -> {shape (TF.js layout, e.g. HWIO for conv filters), float32 data}.
 * @throws Error when a shard is shorter than the manifest says.
 */
export function readTfjsWeights(manifestPath: string): Map<string, WeightTensor> {
  const groups = JSON.parse(readFileSync(manifestPath, 'utf8')) as WeightGroup[];
  const out = new Map<string, WeightTensor>();
  for (const [name, t] of decodeWeightGroups(groups, path.dirname(manifestPath))) {
    out.set(name, { shape: t.shape, data: t.data instanceof Float32Array ? t.data : Float32Array.from(t.data) });
  }
  return out;
}
