/**
 * bench:kiosk-detector — the kiosk's in-browser face detector (renderer/capture/face-guide.ts) in
 * Debian's Chromium, headless, no GPU: milliseconds per detection on a 640x480 frame (an LFW photo
 * composed like the e2e fake camera) for each TF.js backend, 40 timed runs after 3 warm-ups, and
 * the frames per second that the median allows. Issue #16's target: >= 10 fps at 640x480.
 *   npx tsx bench/kiosk-detector.ts [--runs 40]
 * Needs /usr/bin/chromium (BIOSTATION_CHROMIUM) and the datasets (BIOSTATION_DATASETS).
 */
import http from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import sharp from 'sharp';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.BIOSTATION_CHROMIUM ?? '/usr/bin/chromium';
const DATASETS = process.env.BIOSTATION_DATASETS ?? path.resolve(ROOT, '../shared/datasets');
const { values } = parseArgs({ options: { runs: { type: 'string', default: '40' } } });
const RUNS = Number(values.runs);

const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-detector-'));
const vite = await import('vite');
await vite.build({ configFile: path.join(ROOT, 'renderer/vite.config.ts'), logLevel: 'warn', build: { outDir: dir, emptyOutDir: true } });
await vite.build({ configFile: path.join(ROOT, 'renderer/capture/vite.config.ts'), logLevel: 'warn', build: { outDir: path.join(dir, 'capture'), emptyOutDir: true } });

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.json': 'application/json', '.html': 'text/html', '.wasm': 'application/wasm' };
const server = http.createServer((req, res) => {
  const asked = path.join(dir, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
  const file = asked.endsWith('/') ? `${asked}index.html` : asked;
  readFile(file).then(
    (body) => res.setHeader('Content-Type', TYPES[path.extname(file)] ?? 'application/octet-stream').end(body),
    () => res.writeHead(404).end(),
  );
}).listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;

const W = 640;
const H = 480;
const photo = path.join(DATASETS, 'lfw-dev/images/Tony_Blair_0086.jpg');
const background = await sharp(photo).resize(W, H, { fit: 'cover' }).blur(20).toBuffer();
const frame = `data:image/png;base64,${(await sharp(background).composite([{ input: await sharp(photo).resize(H, H).toBuffer(), left: (W - H) / 2, top: 0 }]).png().toBuffer()).toString('base64')}`;

const rows: Array<Record<string, string | number>> = [];
for (const backend of ['cpu', 'webgl', 'wasm']) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const page = await (await browser.newContext()).newPage();
    await page.goto(url);
    // A string: the page imports the built library (not rewritten by tsx).
    const r = (await page.evaluate(`(async () => {
      const lib = await import(location.origin + '/capture/biostation-capture.js');
      const det = await lib.createFaceDetector(location.origin + '/models', { backends: [${JSON.stringify(backend)}] });
      const img = new Image(); img.src = ${JSON.stringify(frame)}; await img.decode();
      const c = document.createElement('canvas'); c.width = ${W}; c.height = ${H}; c.getContext('2d').drawImage(img, 0, 0);
      for (let i = 0; i < 3; i++) await det.detect(c);
      const t = [];
      for (let i = 0; i < ${RUNS}; i++) { const t0 = performance.now(); await det.detect(c); t.push(performance.now() - t0); }
      t.sort((a, b) => a - b);
      return { backend: det.backend, median: t[Math.floor(t.length / 2)], p90: t[Math.floor(t.length * 0.9)], faces: (await det.detect(c)).length };
    })()`)) as { backend: string; median: number; p90: number; faces: number };
    rows.push({ asked: backend, used: r.backend, 'median ms': r.median.toFixed(1), 'p90 ms': r.p90.toFixed(1), 'fps (median)': (1000 / r.median).toFixed(1), faces: r.faces });
  } finally {
    await browser.close();
  }
}
server.close();
await rm(dir, { recursive: true, force: true });
console.log(`face detector, 640x480, ${RUNS} runs, Chromium headless --disable-gpu, load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`);
console.table(rows);
