// Throwaway (issue #20 idea 3): sensor noise of the face (Immerkær 1996 fast noise variance estimate on
// a native 64x64 luma patch at the face centre) against the network's verdict, per set.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createFaceEngine } from '../../src/face/index.js';
import { nativeGreyPatch } from '../../src/liveness/passive/crop.js';
import { publicSampleFiles } from './generalise.js';
import { fnv1a, liveCameraRecipe } from './attacks.js';

export function immerkaerSigma(p: Float32Array, n: number): number {
  let s = 0;
  for (let y = 1; y < n - 1; y++)
    for (let x = 1; x < n - 1; x++) {
      const c = (dx: number, dy: number): number => p[(y + dy) * n + x + dx];
      s += Math.abs(c(-1, -1) - 2 * c(0, -1) + c(1, -1) - 2 * c(-1, 0) + 4 * c(0, 0) - 2 * c(1, 0) + c(-1, 1) - 2 * c(0, 1) + c(1, 1));
    }
  return (Math.sqrt(Math.PI / 2) * s) / (6 * (n - 2) * (n - 2));
}
const face = await createFaceEngine({ intraOpNumThreads: 1 });
const acquired = JSON.parse(readFileSync('.cache/liveness-bench/g3-60-1/acquired.json', 'utf8'));
let lfwI = 0;
const inputs = acquired.filter((a: any) => a.set !== 'lfw' || lfwI++ % 4 === 0);
for (const p of publicSampleFiles(path.resolve('.cache/liveness-public'))) {
  const img = await face.decode(new Uint8Array(readFileSync(p.file)));
  const d = await face.detect(img);
  inputs.push({ id: `public/${p.name}`, set: p.set, file: p.file, box: d.length ? d[0].box : null });
}
const out: Record<string, { sigma: number; noise?: number; lowLight?: boolean }> = {};
for (const a of inputs) {
  if (!a.box) continue;
  const img = await face.decode(new Uint8Array(readFileSync(a.file)));
  const n = Math.max(16, Math.min(64, Math.floor(a.box.width * 0.5)));
  const p = nativeGreyPatch(img, a.box.x + a.box.width / 2, a.box.y + a.box.height / 2, n);
  const r = a.set === 'live-camera' ? liveCameraRecipe(fnv1a(a.id)) : undefined;
  out[a.id] = { sigma: immerkaerSigma(p, n), ...(r ? { noise: r.noise, lowLight: r.lowLight } : {}) };
}
writeFileSync('.cache/liveness-bench/noise-v1.json', JSON.stringify(out));
console.log('done', Object.keys(out).length);
