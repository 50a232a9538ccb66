// Throwaway scan (issue #20 idea 3; README "Why bona fide captures fail"; `npx tsx bench/liveness/noise-scan.mts`): sensor noise of the face (Immerkær 1996 fast noise variance estimate on
// a native luma patch at the face centre, half the box width, 16-64 px) against the network's verdict,
// per set. Writes .cache/liveness-bench/noise-v1.json; `--eval` prints, per set, the sigma percentiles
// and, for each maximum sigma, the images refused and the error rate among the rest (needs the
// tta-scan.ts cache for the network's single-view logits).
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
async function scan(): Promise<void> {
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
}

function evaluate(): void {
const noise = JSON.parse(readFileSync('.cache/liveness-bench/noise-v1.json', 'utf8'));
const { variants, items } = JSON.parse(readFileSync('.cache/liveness-bench/tta-v1.json', 'utf8'));
const b = variants.findIndex((v: any) => v.scale === 2.7 && v.dx === 0 && v.dy === 0 && !v.flip);
const P = (z: number[]) => { const m = Math.max(...z); const e = z.map((v) => Math.exp(v - m)); return e[0] / (e[0] + e[1] + e[2]); };
const ok = items.filter((it: any) => it.status === 'ok' && noise[it.id]);
const groups: Record<string, any[]> = {};
for (const it of ok) {
  const g = it.set === 'nuaa' ? (it.bonaFide ? 'nuaa-client' : 'nuaa-imp') : `${it.split === 'tune' ? 't' : 'h'}:${it.set}`;
  (groups[g] ??= []).push({ p: P(it.logits[b]), s: noise[it.id].sigma, bona: it.bonaFide, r: noise[it.id] });
}
// sigma distribution per group
const q = (xs: number[], f: number) => xs.sort((a, c) => a - c)[Math.floor(f * (xs.length - 1))].toFixed(2);
for (const [g, xs] of Object.entries(groups)) console.log(g.padEnd(20), 'n', xs.length, 'sigma p10/50/90', q(xs.map((x) => x.s), 0.1), q(xs.map((x) => x.s), 0.5), q(xs.map((x) => x.s), 0.9), ' err among sigma<1.5 / >=1.5:', ['lo', 'hi'].map((k) => { const ys = xs.filter((x) => (k === 'lo' ? x.s < 1.5 : x.s >= 1.5)); const e = ys.filter((x) => (x.bona ? x.p < 0.5 : x.p >= 0.5)).length; return `${e}/${ys.length}`; }).join('  '));
for (const T of [1.5, 2, 2.5, 3, 4, 99]) {
  const row = Object.entries(groups).filter(([g]) => !g.includes('spoof') && !g.includes('public')).map(([g, xs]) => { const kept = xs.filter((x) => x.s < T); const e = kept.filter((x) => (x.bona ? x.p < 0.5 : x.p >= 0.5)).length; return `${g.replace('closeup', 'cl')} gate ${xs.length - kept.length} err ${(100 * e / kept.length).toFixed(1)}`; });
  console.log(`maxSigma ${T}:\n   ` + row.join('\n   '));
}
// live-camera: recipe noise vs sigma
const lc = [...(groups['t:live-camera'] ?? []), ...(groups['h:live-camera'] ?? [])];
console.log('live-camera recipe noise vs measured sigma:', lc.slice(0, 25).map((x) => `${x.r.noise.toFixed(1)}${x.r.lowLight ? 'L' : ''}:${x.s.toFixed(2)}`).join(' '));
}

if (process.argv.includes('--eval')) evaluate();
else await scan();
