/**
 * `npm run bench:soak`: a bounded soak (issue #18). One station process (every engine but OCR
 * unless --ocr, encryption at rest, audit) serves a steady mix for --minutes (default 5): face
 * enrol/verify/identify/delete, finger enrol/verify/delete, and hostile inputs (a PNG header
 * declaring 100000x100000, a PGM header of the same size, a 4 MiB image, a cut multipart body,
 * an over-limit body) from --clients loops (default 4). Every --sample-s (default 10) it samples
 * the station's resident memory. Prints the samples, the error count (5xx and transport errors;
 * hostile inputs must get their 4xx) and the memory growth from the first sample after the first
 * minute to the last; exits 1 when any request failed or memory grew more than 10 %.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { HUGE_PGM, pngDeclaring } from '../test/api/hostile-images.js';
import { startStationProcess } from './lib/station-process.js';

const datasets = process.env.BIOSTATION_DATASETS ?? path.resolve('../shared/datasets');
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const minutes = Number(arg('minutes', '5'));
const clients = Number(arg('clients', '4'));
const sampleSeconds = Number(arg('sample-s', '10'));

if (!existsSync(datasets)) {
  console.log(`bench:soak skipped: datasets not found at ${datasets} (set BIOSTATION_DATASETS)`);
  process.exit(0);
}
const b64 = (p: string) => readFileSync(path.join(datasets, p)).toString('base64');
const lfw = readdirSync(path.join(datasets, 'lfw-dev/images')).sort();
const faces = ['Tony_Blair_', 'Colin_Powell_', 'Silvio_Berlusconi_'].flatMap((p) => lfw.filter((f) => f.startsWith(p)).slice(0, 2)).map((f) => b64(`lfw-dev/images/${f}`));
const fingers = ['101_1', '101_2', '102_1', '102_2', '103_1', '103_2'].map((n) => b64(`fvc/fvc2002/DB1_B/${n}.png`));

const station = await startStationProcess({ BIOSTATION_ENGINES: process.argv.includes('--ocr') ? 'face,finger,ocr' : 'face,finger' });
const auth = { authorization: `Bearer ${station.token}` };
const counts = { requests: 0, failures: 0, byStatus: new Map<number, number>() };
const failures: string[] = [];

/** Sends one request; a status outside `expect` (or a transport error) counts as a failure. */
async function send(method: string, p: string, body: Uint8Array | string | undefined, contentType: string | undefined, expect: (s: number) => boolean): Promise<void> {
  counts.requests++;
  try {
    const res = await fetch(`${station.url}${p}`, { method, headers: { ...auth, ...(contentType ? { 'content-type': contentType } : {}) }, body: body as BodyInit | undefined });
    await res.arrayBuffer();
    counts.byStatus.set(res.status, (counts.byStatus.get(res.status) ?? 0) + 1);
    if (!expect(res.status)) {
      counts.failures++;
      if (failures.length < 20) failures.push(`${method} ${p} -> ${res.status}`);
    }
  } catch (e) {
    counts.failures++;
    if (failures.length < 20) failures.push(`${method} ${p} -> ${(e as Error).message}`);
  }
}
const json = (v: unknown) => JSON.stringify(v);
const ok = (s: number) => s === 200;
const clientError = (s: number) => s >= 400 && s < 500;

async function client(c: number, deadline: number): Promise<void> {
  for (let i = 0; Date.now() < deadline; i++) {
    const id = `soak-${c}-${i}`;
    const f = faces[i % faces.length];
    const g = fingers[i % fingers.length];
    await send('POST', `/api/v1/services/face/enroll/${id}`, json({ Images: [{ imageData: f }] }), 'application/json', (s) => s === 200 || s === 400);
    await send('POST', `/api/v1/services/face/${id}/verify`, json({ Images: [{ imageData: faces[(i + 1) % faces.length] }] }), 'application/json', (s) => s === 200 || s === 404);
    await send('POST', '/api/v1/services/face/identify', json({ Images: [{ imageData: f }] }), 'application/json', ok);
    await send('DELETE', `/api/v1/services/face/${id}`, undefined, undefined, (s) => s === 200 || s === 404);
    await send('POST', `/api/v1/services/finger/enroll/${id}`, json({ imageData: g }), 'application/json', ok);
    await send('POST', `/api/v1/services/finger/${id}/verify`, json({ imageData: fingers[(i + 1) % fingers.length] }), 'application/json', ok);
    await send('DELETE', `/api/v1/services/finger/${id}`, undefined, undefined, ok);
    switch (i % 5) {
      case 0: await send('POST', '/api/v1/services/face/identify', json({ Images: [{ imageData: pngDeclaring(100_000, 100_000).toString('base64') }] }), 'application/json', clientError); break;
      case 1: await send('POST', '/api/v1/services/finger/identify', json({ imageData: HUGE_PGM.toString('base64') }), 'application/json', clientError); break;
      case 2: await send('POST', '/api/v1/services/finger/identify', json({ imageData: Buffer.alloc(4 * 1024 * 1024, 7).toString('base64') }), 'application/json', clientError); break;
      case 3: await send('POST', '/api/v1/services/ocr/process-cnh', '--XB\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n\x89PNG', 'multipart/form-data; boundary=XB', (s) => s === 400 || s === 503); break;
      default: await send('POST', '/api/v1/services/face/identify', new Uint8Array(40 * 1024 * 1024).fill(0x61), 'application/json', (s) => s === 413);
    }
  }
}

const samples: Array<{ t: number; rss: number }> = [];
const started = Date.now();
const sampler = setInterval(() => samples.push({ t: Math.round((Date.now() - started) / 1000), rss: station.rssMiB() }), sampleSeconds * 1000);
try {
  await Promise.all(Array.from({ length: clients }, (_, c) => client(c, started + minutes * 60_000)));
} finally {
  clearInterval(sampler);
  samples.push({ t: Math.round((Date.now() - started) / 1000), rss: station.rssMiB() });
  await station.stop();
}

const settled = samples.filter((s) => s.t >= Math.min(60, (minutes * 60) / 2));
const base = settled[0] ?? samples[0];
const last = samples[samples.length - 1];
const growth = (last.rss - base.rss) / base.rss;
console.log(`\nSoak: ${minutes} min, ${clients} clients, ${counts.requests} requests, ${counts.failures} failures`);
console.log(`status counts: ${[...counts.byStatus].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}: ${n}`).join(', ')}`);
for (const f of failures) console.log(`  failure: ${f}`);
console.log(`RSS MiB every ${sampleSeconds} s: ${samples.map((s) => s.rss.toFixed(0)).join(' ')}`);
console.log(`RSS from t=${base.t}s ${base.rss.toFixed(0)} MiB to t=${last.t}s ${last.rss.toFixed(0)} MiB: ${(growth * 100).toFixed(1)} % (limit 10 %), peak ${Math.max(...samples.map((s) => s.rss)).toFixed(0)} MiB`);
process.exit(counts.failures > 0 || growth > 0.1 ? 1 : 0);
