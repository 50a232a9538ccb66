/**
 * bench:kiosk-face-hints — what the kiosk's face guide (renderer/capture/face-guide.ts) measures on
 * real faces, in Debian's Chromium (headless, WebAssembly backend): for N lfw-dev photos composed
 * like the e2e fake camera (photo upscaled to 480 px, centred on a 640x480 grey frame), the
 * distribution of yaw (degrees), eye aspect ratio and face sharpness, the share of photos each hint
 * (head turned / eyes closed / blurred) fires on, the same photos blurred (Gaussian, `--blur` px)
 * and how many of those the blur hint catches, and the photos with the most extreme measures (to
 * look at: genuinely turned heads, closed eyes).
 *   npx tsx bench/kiosk-face-hints.ts [--photos 400] [--blur 3] [--extremes 8] [--show Name_0001.jpg,...]
 * Needs /usr/bin/chromium (BIOSTATION_CHROMIUM) and the datasets (BIOSTATION_DATASETS).
 */
import http from 'node:http';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.BIOSTATION_CHROMIUM ?? '/usr/bin/chromium';
const DATASETS = process.env.BIOSTATION_DATASETS ?? path.resolve(ROOT, '../shared/datasets');
const { values } = parseArgs({ options: { photos: { type: 'string', default: '400' }, blur: { type: 'string', default: '3' }, extremes: { type: 'string', default: '8' }, show: { type: 'string', default: '' } } });
const PHOTOS = Number(values.photos);
const BLUR = Number(values.blur);
const EXTREMES = Number(values.extremes);
const LFW = path.join(DATASETS, 'lfw-dev/images');

const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-face-hints-'));
const vite = await import('vite');
await vite.build({ configFile: path.join(ROOT, 'renderer/vite.config.ts'), logLevel: 'warn', build: { outDir: dir, emptyOutDir: true } });
await vite.build({ configFile: path.join(ROOT, 'renderer/capture/vite.config.ts'), logLevel: 'warn', build: { outDir: path.join(dir, 'capture'), emptyOutDir: true } });

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.json': 'application/json', '.html': 'text/html', '.wasm': 'application/wasm', '.jpg': 'image/jpeg' };
const server = http.createServer((req, res) => {
  const p = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  const file = p.startsWith('/lfw/') ? path.join(LFW, path.basename(p)) : path.join(dir, p.endsWith('/') ? `${p}index.html` : p);
  readFile(file).then(
    (body) => res.setHeader('Content-Type', TYPES[path.extname(file)] ?? 'application/octet-stream').end(body),
    () => res.writeHead(404).end(),
  );
}).listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;

// Every k-th photo of the sorted list: a spread over people, reproducible.
const all = (await readdir(LFW)).filter((f) => f.endsWith('.jpg')).sort();
const step = Math.max(1, Math.floor(all.length / PHOTOS));
const shown = values.show ? values.show.split(',') : [];
const names = [...new Set([...shown, ...all.filter((_, i) => i % step === 0).slice(0, PHOTOS)])];

interface Row { name: string; found: boolean; yaw?: number; ear?: number; sharp?: number; blurSharp?: number; feedback: string; blurFeedback: string }
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
let rows: Row[];
let guide: { maxYawDeg: number; minEyeAspect: number; minSharpness: number };
try {
  const page = await (await browser.newContext()).newPage();
  await page.goto(url);
  const out = (await page.evaluate(`(async () => {
    const lib = await import(location.origin + '/capture/biostation-capture.js');
    const det = await lib.createFaceDetector(location.origin + '/models', { backends: ['wasm'] });
    const c = document.createElement('canvas'); c.width = 640; c.height = 480;
    const ctx = c.getContext('2d', { willReadFrequently: true });
    const frameOf = (img, blur) => {
      ctx.filter = 'none'; ctx.fillStyle = '#8c8c8c'; ctx.fillRect(0, 0, 640, 480);
      ctx.filter = blur ? 'blur(' + blur + 'px)' : 'none';
      ctx.drawImage(img, 80, 0, 480, 480); ctx.filter = 'none';
    };
    const rows = [];
    for (const name of ${JSON.stringify(names)}) {
      const img = new Image(); img.src = location.origin + '/lfw/' + name; await img.decode();
      frameOf(img, 0);
      const faces = await lib.detectWithZoomOut(det, c);
      const luma = lib.meanLuma(c, 640, 480);
      const f = faces.sort((a, b) => b.width * b.height - a.width * a.height)[0];
      const row = { name, found: !!f, yaw: f?.yawDeg, ear: f?.eyeAspect, sharp: f?.sharpness, feedback: lib.assessFace(faces, { widthPx: 640, heightPx: 480 }, luma) };
      frameOf(img, ${BLUR});
      const bf = await lib.detectWithZoomOut(det, c);
      row.blurSharp = bf[0]?.sharpness;
      row.blurFeedback = lib.assessFace(bf, { widthPx: 640, heightPx: 480 }, lib.meanLuma(c, 640, 480));
      rows.push(row);
    }
    return { rows, guide: lib.GUIDE };
  })()`)) as { rows: Row[]; guide: typeof guide };
  rows = out.rows;
  guide = out.guide;
} finally {
  await browser.close();
  server.close();
  await rm(dir, { recursive: true, force: true });
}

const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : NaN;
};
const found = rows.filter((r) => r.found && r.yaw !== undefined);
const dist = (label: string, xs: number[]) => ({ measure: label, p1: pct(xs, 0.01).toFixed(2), p5: pct(xs, 0.05).toFixed(2), median: pct(xs, 0.5).toFixed(2), p95: pct(xs, 0.95).toFixed(2), p99: pct(xs, 0.99).toFixed(2) });
console.log(`face guide measures on ${rows.length} lfw-dev photos as fake-camera frames (${found.length} with a face and landmarks); GUIDE maxYawDeg ${guide.maxYawDeg}, minEyeAspect ${guide.minEyeAspect}, minSharpness ${guide.minSharpness}`);
console.table([
  dist('|yaw| deg', found.map((r) => Math.abs(r.yaw!))),
  dist('eye aspect ratio', found.map((r) => r.ear!)),
  dist('sharpness', found.map((r) => r.sharp!)),
  dist(`sharpness, blurred ${BLUR} px`, rows.filter((r) => r.blurSharp !== undefined).map((r) => r.blurSharp!)),
]);
const count = (xs: Row[], key: 'feedback' | 'blurFeedback') => xs.reduce<Record<string, number>>((m, r) => ({ ...m, [r[key]]: (m[r[key]] ?? 0) + 1 }), {});
console.log('verdicts on the photos:', count(rows, 'feedback'));
console.log(`verdicts on the same photos blurred ${BLUR} px:`, count(rows, 'blurFeedback'));
const show = (label: string, xs: Row[]) => console.log(`${label}:\n${xs.map((r) => `  ${r.name} yaw ${r.yaw?.toFixed(1)} ear ${r.ear?.toFixed(3)} sharp ${r.sharp?.toFixed(0)} -> ${r.feedback}`).join('\n')}`);
show(`${EXTREMES} largest |yaw|`, [...found].sort((a, b) => Math.abs(b.yaw!) - Math.abs(a.yaw!)).slice(0, EXTREMES));
show(`${EXTREMES} smallest eye aspect ratio`, [...found].sort((a, b) => a.ear! - b.ear!).slice(0, EXTREMES));
show(`${EXTREMES} least sharp`, [...found].sort((a, b) => a.sharp! - b.sharp!).slice(0, EXTREMES));
if (shown.length) show('asked for', rows.filter((r) => shown.includes(r.name)));
