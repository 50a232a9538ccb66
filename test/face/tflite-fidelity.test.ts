/**
 * Fidelity of the MobileFaceNet ONNX model (converted from TFLite by models/tflite-convert.ts)
 * against the TFLite graph itself, executed op by op in plain JavaScript with TFLite's semantics
 * (NHWC, OHWI filters, SAME/VALID padding, fused activations). No TFLite runtime runs in Node on
 * our stack, so this reference is written here, independently of the converter: it does not use
 * graph-convert.ts, the NCHW layout or the PReLU fusion. 20 real LFW faces in, 192-d out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { MODEL_SPECS, MODELS_BUILD_DIR, buildModels, type TfliteModelSpec } from '../../models/convert.js';
import { cachedPath } from '../../models/npm-source.js';
import { readTflite, type TfliteModel } from '../../models/tflite.js';
import { HAVE_LFW, LFW_IMAGES } from './datasets.js';

interface Nhwc {
  shape: number[];
  data: Float32Array;
}

const floats = (b: Uint8Array): Float32Array => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));

function activate(x: Float32Array, fn: number): Float32Array {
  if (fn === 1) return x.map((v) => Math.max(0, v));
  if (fn === 3) return x.map((v) => Math.min(6, Math.max(0, v)));
  if (fn !== 0) throw new Error(`activation ${fn}`);
  return x;
}

function convolve(x: Nhwc, w: Nhwc, bias: Float32Array | null, opts: { stride: [number, number]; same: boolean; depthwise: boolean }): Nhwc {
  const [, H, W, C] = x.shape;
  const [, KH, KW, last] = w.shape;
  const OC = opts.depthwise ? last : w.shape[0];
  const [sh, sw] = opts.stride;
  const OH = opts.same ? Math.ceil(H / sh) : Math.floor((H - KH) / sh) + 1;
  const OW = opts.same ? Math.ceil(W / sw) : Math.floor((W - KW) / sw) + 1;
  const padT = opts.same ? Math.floor(Math.max(0, (OH - 1) * sh + KH - H) / 2) : 0;
  const padL = opts.same ? Math.floor(Math.max(0, (OW - 1) * sw + KW - W) / 2) : 0;
  const mult = opts.depthwise ? OC / C : 1;
  const out = new Float32Array(OH * OW * OC);
  for (let oy = 0; oy < OH; oy++)
    for (let ox = 0; ox < OW; ox++)
      for (let oc = 0; oc < OC; oc++) {
        let s = bias ? bias[oc] : 0;
        for (let ky = 0; ky < KH; ky++) {
          const iy = oy * sh + ky - padT;
          if (iy < 0 || iy >= H) continue;
          for (let kx = 0; kx < KW; kx++) {
            const ix = ox * sw + kx - padL;
            if (ix < 0 || ix >= W) continue;
            const xi = (iy * W + ix) * C;
            if (opts.depthwise) s += x.data[xi + Math.floor(oc / mult)] * w.data[(ky * KW + kx) * OC + oc];
            else {
              const wi = ((oc * KH + ky) * KW + kx) * C;
              for (let ic = 0; ic < C; ic++) s += x.data[xi + ic] * w.data[wi + ic];
            }
          }
        }
        out[(oy * OW + ox) * OC + oc] = s;
      }
  return { shape: [1, OH, OW, OC], data: out };
}

function elementwise(a: Nhwc, b: Nhwc, f: (x: number, y: number) => number): Nhwc {
  const [big, small, swap] = a.data.length >= b.data.length ? [a, b, false] : [b, a, true];
  const n = small.data.length;
  if (big.data.length % n !== 0) throw new Error('broadcast');
  const out = big.data.map((v, i) => (swap ? f(small.data[i % n], v) : f(v, small.data[i % n])));
  return { shape: big.shape, data: out };
}

/** Runs the TFLite graph (batch 1) on one NHWC input. */
function runReference(m: TfliteModel, input: Float32Array): Float32Array {
  const vals = new Map<number, Nhwc>();
  const get = (i: number): Nhwc => {
    const v = vals.get(i);
    if (v) return v;
    const t = m.tensors[i];
    if (!t.data) throw new Error(`tensor ${t.name} not computed`);
    return { shape: t.shape, data: floats(t.data) };
  };
  vals.set(m.inputs[0], { shape: [1, ...m.tensors[m.inputs[0]].shape.slice(1)], data: input });
  for (const o of m.operators) {
    const opt = o.options;
    let y: Nhwc;
    switch (o.op) {
      case 'CONV_2D':
      case 'DEPTHWISE_CONV_2D': {
        const dw = o.op === 'DEPTHWISE_CONV_2D';
        const bias = o.inputs[2] >= 0 ? get(o.inputs[2]).data : null;
        y = convolve(get(o.inputs[0]), get(o.inputs[1]), bias, { stride: [opt!.i32(2, 1), opt!.i32(1, 1)], same: opt!.u8(0) === 0, depthwise: dw });
        y.data = activate(y.data, opt!.u8(dw ? 4 : 3));
        break;
      }
      case 'ADD':
      case 'SUB':
      case 'MUL': {
        const f = { ADD: (p: number, q: number) => p + q, SUB: (p: number, q: number) => p - q, MUL: (p: number, q: number) => p * q }[o.op];
        y = elementwise(get(o.inputs[0]), get(o.inputs[1]), f);
        y.data = activate(y.data, opt?.u8(0) ?? 0);
        break;
      }
      case 'RELU':
        y = { ...get(o.inputs[0]), data: get(o.inputs[0]).data.map((v) => Math.max(0, v)) };
        break;
      case 'ABS':
        y = { ...get(o.inputs[0]), data: get(o.inputs[0]).data.map(Math.abs) };
        break;
      case 'RESHAPE':
        y = { shape: [1, ...m.tensors[o.outputs[0]].shape.slice(1)], data: get(o.inputs[0]).data };
        break;
      default:
        throw new Error(`reference: ${o.op}`);
    }
    vals.set(o.outputs[0], y);
  }
  return get(m.outputs[0]).data;
}

describe.skipIf(!HAVE_LFW)('MobileFaceNet ONNX vs its TFLite graph (20 LFW faces)', () => {
  let model: TfliteModel;
  let session: ort.InferenceSession;
  let files: string[];
  const spec = MODEL_SPECS.find((s) => 'kind' in s && s.kind === 'tflite') as TfliteModelSpec;

  beforeAll(async () => {
    buildModels();
    model = readTflite(readFileSync(cachedPath(spec.source)));
    session = await ort.InferenceSession.create(path.join(MODELS_BUILD_DIR, spec.file), { intraOpNumThreads: 1 });
    files = readdirSync(LFW_IMAGES).filter((f) => f.endsWith('.jpg')).sort().filter((_, i) => i % 97 === 0).slice(0, 20);
  }, 120_000);

  it('gives the same 192-d embeddings, element by element', async () => {
    expect(files.length).toBe(20);
    let worstCos = 1;
    let worstAbs = 0;
    for (const f of files) {
      // Centre 112x112 of the LFW photo: a face, roughly ArcFace-framed.
      const rgb = await sharp(path.join(LFW_IMAGES, f)).extract({ left: 69, top: 69, width: 112, height: 112 }).removeAlpha().raw().toBuffer();
      const nhwc = Float32Array.from(rgb, (v) => (v - 127.5) / 128);
      const nchw = new Float32Array(nhwc.length);
      for (let i = 0; i < 112 * 112; i++) for (let c = 0; c < 3; c++) nchw[c * 112 * 112 + i] = nhwc[i * 3 + c];
      const want = runReference(model, nhwc);
      const got = (await session.run({ input: new ort.Tensor('float32', nchw, [1, 3, 112, 112]) }))[spec.output].data as Float32Array;
      expect(got.length).toBe(192);
      let dot = 0;
      let na = 0;
      let nb = 0;
      for (let i = 0; i < 192; i++) {
        worstAbs = Math.max(worstAbs, Math.abs(got[i] - want[i]));
        dot += got[i] * want[i];
        na += got[i] * got[i];
        nb += want[i] * want[i];
      }
      worstCos = Math.min(worstCos, dot / Math.sqrt(na * nb));
    }
    expect(worstCos).toBeGreaterThan(0.99999);
    expect(worstAbs).toBeLessThan(1e-3);
  }, 300_000);

  it('fuses the TOCO PReLU pattern (relu(x) + c * (x - |x|)) into one PRelu per activation', () => {
    const abs = model.operators.filter((o) => o.op === 'ABS').length;
    expect(abs).toBeGreaterThan(0);
    const onnx = readFileSync(path.join(MODELS_BUILD_DIR, spec.file));
    const count = (needle: string): number => onnx.toString('latin1').split(needle).length - 1;
    expect(count('PRelu')).toBeGreaterThanOrEqual(abs);
    expect(count('Abs')).toBe(0);
  });
});
