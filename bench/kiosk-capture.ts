/**
 * bench:kiosk-capture — how fast the kiosk's guided face capture (renderer/capture/face-guide.ts
 * `runFaceGuide`, the loop the Enroll screen runs) takes the photo once a person holds a good pose,
 * in Debian's Chromium (headless, no GPU, WebAssembly backend) with a fake camera at 640x480.
 *
 * The fake camera (test/e2e/y4m.ts) loops a grey wall (`--empty` s) then an lfw-dev face that fills
 * the oval (`--face` s). Each run starts the guide during the wall; the page notes when the face
 * first shows in the video (requestVideoFrameCallback + the spread of a 32x24 thumbnail: the wall is
 * flat), when the guide first says "good", and when it captures. Printed over `--runs` runs (median
 * and max): pose -> capture (the figure of issue #16: within 3 s of a good pose), first good frame ->
 * capture (the countdown, GUIDE.holdMs, plus the last detection), pose -> first good frame; and the
 * detector's speed at 640x480: detection + landmarks + measures per frame on the live video (median
 * ms over 40 calls, and the frames per second it allows; issue #16 asks >= 10), and the guide loop's
 * own rate while the face is in view.
 *   npx tsx bench/kiosk-capture.ts [--runs 10] [--empty 1.5] [--face 8]
 * Needs /usr/bin/chromium (BIOSTATION_CHROMIUM) and the datasets (BIOSTATION_DATASETS). Timings
 * depend on the machine's load: take them on an idle machine (the load average is printed).
 */
import http from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { writeY4m } from '../test/e2e/y4m.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.BIOSTATION_CHROMIUM ?? '/usr/bin/chromium';
const DATASETS = process.env.BIOSTATION_DATASETS ?? path.resolve(ROOT, '../shared/datasets');
const { values } = parseArgs({ options: { runs: { type: 'string', default: '10' }, empty: { type: 'string', default: '1.5' }, face: { type: 'string', default: '8' } } });
const RUNS = Number(values.runs);
const EMPTY_FRAMES = Math.round(Number(values.empty) * 10);
const FACE_FRAMES = Math.round(Number(values.face) * 10);
const PHOTO = path.join(DATASETS, 'lfw-dev/images/Tony_Blair_0086.jpg');

const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-capture-'));
const vite = await import('vite');
await vite.build({ configFile: path.join(ROOT, 'renderer/vite.config.ts'), logLevel: 'warn', build: { outDir: dir, emptyOutDir: true } });
await vite.build({ configFile: path.join(ROOT, 'renderer/capture/vite.config.ts'), logLevel: 'warn', build: { outDir: path.join(dir, 'capture'), emptyOutDir: true } });
const y4m = path.join(dir, 'camera.y4m');
await writeY4m(y4m, [{ photo: PHOTO, frames: EMPTY_FRAMES, kind: 'empty' }, { photo: PHOTO, frames: FACE_FRAMES }]);

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.json': 'application/json', '.html': 'text/html', '.wasm': 'application/wasm' };
const server = http.createServer((req, res) => {
  const p = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  if (p === '/bench.html') return res.setHeader('Content-Type', 'text/html').end('<!doctype html><video id="v" muted playsinline></video>');
  const file = path.join(dir, p);
  readFile(file).then(
    (body) => res.setHeader('Content-Type', TYPES[path.extname(file)] ?? 'application/octet-stream').end(body),
    () => res.writeHead(404).end(),
  );
}).listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/bench.html`;

interface Run { poseToCapture: number; goodToCapture: number; poseToGood: number; loopFps: number }
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${y4m}`],
});
let out: { backend: string; width: number; height: number; detectMs: number[]; runs: Array<Run | { failed: string }> };
try {
  const page = await (await browser.newContext()).newPage();
  page.on('pageerror', (e) => console.warn('[page error]', e.message));
  await page.goto(url);
  out = (await page.evaluate(`(async () => {
    const lib = await import(location.origin + '/capture/biostation-capture.js');
    const video = document.getElementById('v');
    await lib.startCamera(video, { width: 640, height: 480 });
    const det = await lib.createFaceDetector(location.origin + '/models', { backends: ['wasm'] });
    const c = document.createElement('canvas'); c.width = 32; c.height = 24;
    const ctx = c.getContext('2d', { willReadFrequently: true });
    const spread = () => {
      ctx.drawImage(video, 0, 0, 32, 24);
      const d = ctx.getImageData(0, 0, 32, 24).data; let lo = 255, hi = 0;
      for (let i = 0; i < d.length; i += 4) { lo = Math.min(lo, d[i + 1]); hi = Math.max(hi, d[i + 1]); }
      return hi - lo;
    };
    const faceShows = () => spread() > 40;
    const nextFrame = () => new Promise((r) => video.requestVideoFrameCallback(() => r(performance.now())));
    const until = async (want, limitMs) => { const t0 = performance.now(); for (;;) { const t = await nextFrame(); if (faceShows() === want) return t; if (t - t0 > limitMs) throw new Error('timeout'); } };
    // Detector speed on the live 640x480 video: detection + landmarks + measures, as the guide calls it.
    await until(true, 30000);
    for (let i = 0; i < 3; i++) await lib.detectWithZoomOut(det, video);
    const detectMs = [];
    for (let i = 0; i < 40; i++) { const t0 = performance.now(); await lib.detectWithZoomOut(det, video); detectMs.push(performance.now() - t0); }
    const runs = [];
    for (let r = 0; r < ${RUNS}; r++) {
      try {
        await until(false, 30000);
        let pose = null, good = null, ticks = 0, captured = null;
        const done = new Promise((resolve) => {
          const stop = lib.runFaceGuide({
            video, detector: det,
            onFeedback: (f) => { if (pose !== null) ticks++; if (f === 'good' && good === null && pose !== null) good = performance.now(); },
            onCapture: () => { captured = performance.now(); stop(); resolve(); },
          });
          (async () => { pose = await until(true, 30000); })();
          setTimeout(() => { stop(); resolve(); }, ${(EMPTY_FRAMES + FACE_FRAMES) * 100 + 5000});
        });
        await done;
        if (captured === null || pose === null || good === null) { runs.push({ failed: 'no capture while the face was in view' }); continue; }
        runs.push({ poseToCapture: captured - pose, goodToCapture: captured - good, poseToGood: good - pose, loopFps: ticks / ((captured - pose) / 1000) });
      } catch (e) { runs.push({ failed: String(e) }); }
    }
    return { backend: det.backend, width: video.videoWidth, height: video.videoHeight, detectMs, runs };
  })()`)) as typeof out;
} finally {
  await browser.close();
  server.close();
  await rm(dir, { recursive: true, force: true });
}

const stat = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)] ?? NaN, max: s[s.length - 1] ?? NaN };
};
const ok = out.runs.filter((r): r is Run => 'poseToCapture' in r);
const det = stat(out.detectMs);
console.log(`kiosk guided capture, Chromium headless --disable-gpu, ${out.backend} backend, video ${out.width}x${out.height}, load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`);
console.log(`detector (detection + 68 landmarks + measures) on the live video: median ${det.median.toFixed(1)} ms (${(1000 / det.median).toFixed(1)} fps), max ${det.max.toFixed(1)} ms over ${out.detectMs.length} calls`);
console.log(`${ok.length}/${out.runs.length} runs captured while the face was in view${ok.length < out.runs.length ? ` (failures: ${out.runs.filter((r) => 'failed' in r).map((r) => (r as { failed: string }).failed).join('; ')})` : ''}`);
const row = (label: string, xs: number[]) => ({ measure: label, 'median ms': stat(xs).median.toFixed(0), 'max ms': stat(xs).max.toFixed(0) });
console.table([
  row('pose -> capture', ok.map((r) => r.poseToCapture)),
  row('pose -> first good frame', ok.map((r) => r.poseToGood)),
  row('first good frame -> capture', ok.map((r) => r.goodToCapture)),
]);
console.log(`guide loop while the face is in view: median ${stat(ok.map((r) => r.loopFps)).median.toFixed(1)} frames analysed per second`);
