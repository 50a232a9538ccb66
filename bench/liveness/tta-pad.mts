// Throwaway scan (issue #20; README "Two views of the face"; `npx tsx bench/liveness/tta-pad.mts`, then
// `npx tsx bench/liveness/tta-scan.ts --eval --short --pad`): the Silent-Face crop without the cap (2.7x the box even past the image edge,
// the outside filled by edge replication, mirror or black), to see whether the missing context matters.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { createFaceEngine } from '../../src/face/index.js';
import { builtModelPath } from '../../src/runtime/onnx-models.js';
import { faceExposure, faceSample } from '../../src/liveness/passive/signals.js';
import { gateFailures } from '../../src/liveness/passive/engine.js';
import { DEFAULT_LIVENESS_TUNING } from '../../src/liveness/passive/tuning.js';
import { publicSampleFiles } from './generalise.js';

type Fill = 'replicate' | 'mirror' | 'black';
function padCrop(img: { width: number; height: number; data: Uint8Array }, box: { x: number; y: number; width: number; height: number }, scale: number, fill: Fill, size = 128): Float32Array {
  const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
  const w = box.width * scale, h = box.height * scale;
  const x0 = cx - w / 2, y0 = cy - h / 2;
  const out = new Float32Array(3 * size * size);
  const W = img.width, H = img.height;
  const fix = (v: number, n: number): number => {
    if (fill === 'replicate') return Math.min(n - 1, Math.max(0, v));
    if (fill === 'mirror') { let u = v; while (u < 0 || u >= n) u = u < 0 ? -u - 1 : 2 * n - u - 1; return u; }
    return v;
  };
  const px = (x: number, y: number, k: number): number => {
    const xx = fix(x, W), yy = fix(y, H);
    if (xx < 0 || yy < 0 || xx >= W || yy >= H) return 0;
    return img.data[(yy * W + xx) * 3 + k];
  };
  for (let oy = 0; oy < size; oy++) {
    const sy = y0 + ((oy + 0.5) * h) / size - 0.5;
    const j = Math.floor(sy), wy = sy - j;
    for (let ox = 0; ox < size; ox++) {
      const sx = x0 + ((ox + 0.5) * w) / size - 0.5;
      const i = Math.floor(sx), wx = sx - i;
      for (let k = 0; k < 3; k++) {
        const v = (1 - wy) * ((1 - wx) * px(i, j, k) + wx * px(i + 1, j, k)) + wy * ((1 - wx) * px(i, j + 1, k) + wx * px(i + 1, j + 1, k));
        out[(2 - k) * size * size + oy * size + ox] = v; // BGR planes
      }
    }
  }
  return out;
}
const VARIANTS: Array<{ fill: Fill; scale: number }> = [
  { fill: 'replicate', scale: 2.7 }, { fill: 'mirror', scale: 2.7 }, { fill: 'black', scale: 2.7 }, { fill: 'replicate', scale: 2.2 }, { fill: 'replicate', scale: 2.0 },
];
const face = await createFaceEngine({ intraOpNumThreads: 1 });
const session = await ort.InferenceSession.create(builtModelPath('liveness_minifasnet_128.onnx', { manifest: 'liveness-manifest.json' })!, { interOpNumThreads: 1, intraOpNumThreads: 1 });
const acquired = JSON.parse(readFileSync('.cache/liveness-bench/g3-60-1/acquired.json', 'utf8'));
let lfwI = 0;
const inputs = acquired.filter((a: any) => a.set !== 'lfw' || lfwI++ % 4 === 0);
for (const p of publicSampleFiles(path.resolve('.cache/liveness-public'))) {
  const img = await face.decode(new Uint8Array(readFileSync(p.file)));
  const d = await face.detect(img);
  inputs.push({ id: `public/${p.name}`, split: 'heldout', set: p.set, bonaFide: p.label === 'bona fide', file: p.file, box: d.length ? d[0].box : null });
}
const out: any[] = [];
for (const a of inputs) {
  if (!a.box) { out.push({ id: a.id, status: 'no-face' }); continue; }
  const img = await face.decode(new Uint8Array(readFileSync(a.file)));
  if (gateFailures(faceExposure(faceSample(img, a.box)), a.box.width, DEFAULT_LIVENESS_TUNING.gates).length) { out.push({ id: a.id, status: 'quality' }); continue; }
  const logits: number[][] = [];
  for (const v of VARIANTS) {
    const r = await session.run({ input: new ort.Tensor('float32', padCrop(img, a.box, v.scale, v.fill), [1, 3, 128, 128]) });
    logits.push(Array.from(r.output.data as Float32Array));
  }
  out.push({ id: a.id, status: 'ok', logits });
  if (out.length % 250 === 0) console.log(out.length, '/', inputs.length);
}
writeFileSync('.cache/liveness-bench/tta-pad-v1.json', JSON.stringify({ variants: VARIANTS, items: out }));
console.log('done');
