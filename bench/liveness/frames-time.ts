/**
 * Time of the passive liveness check with K livenessFrames (issue #20), K = 0..4, as the face service runs
 * it for one request: the main image's face extraction (probe mode), then for K = 0 the single-image check
 * (`gate.require`), for K > 0 each frame's face extraction + similarity + box check
 * (`frameInconsistency`) and the session check (`requireSession`: the main image and every frame through
 * the passive engine). HTTP, JSON and base64 are not included. One thread for each engine.
 *
 *   npx tsx bench/liveness/frames-time.ts [--reps 30] [--image path.jpg]
 *
 * Default image: faces-misc/spoof-samples/image_T1.jpg (640x480, a live capture); its frames are shifted,
 * noised JPEG copies (as in test/api/face-liveness-frames.test.ts). Prints per K the median and p95 of
 * wall and CPU time per request, and the added cost over K = 0. Take it on an idle machine.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { createFaceEngine } from '../../src/face/index.js';
import { createPassiveLivenessEngine } from '../../src/liveness/passive/index.js';
import { PassiveLivenessGate } from '../../src/liveness/passive/gate.js';
import { frameInconsistency, requireSession, MAX_LIVENESS_FRAMES } from '../../src/liveness/passive/frames.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const reps = Number(arg('reps') ?? 30);
const datasets = process.env.BIOSTATION_DATASETS ?? path.resolve('../shared/datasets');
const imagePath = arg('image') ?? path.join(datasets, 'faces-misc/spoof-samples/image_T1.jpg');

/** `jpeg` (oriented) shifted by (dx, dy) px with +-noise grey levels, JPEG 92. */
async function frameOf(jpeg: Buffer, dx: number, dy: number, noise: number, seed: number): Promise<Buffer> {
  const { data, info } = await sharp(jpeg).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width: w, height: h, channels: c } = info;
  const out = Buffer.alloc(data.length);
  let s = seed >>> 0;
  for (let y = 0; y < h; y++) {
    const sy = Math.min(h - 1, Math.max(0, y - dy));
    for (let x = 0; x < w; x++) {
      const sx = Math.min(w - 1, Math.max(0, x - dx));
      for (let k = 0; k < c; k++) {
        s = (s * 1664525 + 1013904223) >>> 0;
        out[(y * w + x) * c + k] = Math.max(0, Math.min(255, Math.round(data[(sy * w + sx) * c + k] + ((s / 2 ** 32) * 2 - 1) * noise)));
      }
    }
  }
  return sharp(out, { raw: { width: w, height: h, channels: c } }).jpeg({ quality: 92 }).toBuffer();
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

const main = readFileSync(imagePath);
const frames = await Promise.all(Array.from({ length: MAX_LIVENESS_FRAMES }, (_, i) => frameOf(main, [3, -2, 1, -1][i]!, [1, 2, -3, 0][i]!, 4, i + 1)));
const face = await createFaceEngine({ intraOpNumThreads: 1 });
const gate = new PassiveLivenessGate(() => createPassiveLivenessEngine());

async function request(k: number): Promise<void> {
  const m = await face.extract(main, 'probe');
  if (k === 0) {
    await gate.require(main, m.box);
    return;
  }
  const faces = [];
  for (const image of frames.slice(0, k)) {
    const f = await face.extract(image, 'probe');
    const why = frameInconsistency(m.box, { box: f.box, similarity: face.similarity(m.template, f.template) }, face.defaultThreshold);
    if (why) throw new Error(`frame inconsistent: ${why}`);
    faces.push({ image, box: f.box });
  }
  await requireSession(gate, { image: main, box: m.box }, faces);
}

console.log(`image ${imagePath}, ${reps} requests per K, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ${os.cpus().length} cores`);
for (let k = 0; k <= MAX_LIVENESS_FRAMES; k++) await request(k); // warm-up
let base = 0;
for (let k = 0; k <= MAX_LIVENESS_FRAMES; k++) {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < reps; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await request(k);
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  if (k === 0) base = pct(wall, 0.5);
  console.log(`K=${k}: wall median ${pct(wall, 0.5).toFixed(1)} ms, p95 ${pct(wall, 0.95).toFixed(1)} ms; CPU median ${pct(cpu, 0.5).toFixed(1)} ms, p95 ${pct(cpu, 0.95).toFixed(1)} ms; added over K=0 (wall median) ${(pct(wall, 0.5) - base).toFixed(1)} ms`);
}
process.exit(0);
