/**
 * `npm run bench:load`: the station under sustained load over loopback HTTP (issue #18). One
 * station process (`biostation serve`, every engine, encryption at rest and audit on) is driven by
 * autocannon at a fixed concurrency for a fixed time per operation: face verify, finger verify,
 * face identify (gallery of `--gallery` persons), CNH OCR (a synthetic 2022 CNH PNG). Prints
 * requests, req/s, p50/p99 latency, errors (transport errors, time-outs and non-2xx answers) and
 * the station's resident memory at the start and end of each run and its peak.
 * Options: --seconds N (default 60), --concurrency N (default 8), --gallery N (default 50),
 * --only face-verify,finger-verify,identify,ocr.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { generateCnh } from '../test/fixtures/cnh/index.js';
import { recordSummary } from './lib/summary.js';
import { multipartFile, startStationProcess, type StationProcess } from './lib/station-process.js';

const datasets = process.env.BIOSTATION_DATASETS ?? path.resolve('../shared/datasets');
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const seconds = Number(arg('seconds', '60'));
const concurrency = Number(arg('concurrency', '8'));
const gallerySize = Number(arg('gallery', '50'));
const only = arg('only', 'face-verify,finger-verify,identify,ocr').split(',');

if (!existsSync(datasets)) {
  console.log(`bench:load skipped: datasets not found at ${datasets} (set BIOSTATION_DATASETS)`);
  process.exit(0);
}
const file = (p: string) => readFileSync(path.join(datasets, p));
const json = (body: unknown) => ({ body: JSON.stringify(body), contentType: 'application/json' });

interface LoadCase {
  name: string;
  key: string;
  path: string;
  request: () => Promise<{ body: string | Buffer; contentType: string }>;
}

const cases: LoadCase[] = [
  {
    name: 'face verify (250x250 JPEG)', key: 'face-verify', path: '/api/v1/services/face/bench-face/verify',
    request: async () => json({ Images: [{ imageData: file('lfw-dev/images/Tony_Blair_0032.jpg').toString('base64') }] }),
  },
  {
    name: 'finger verify (FVC2002 DB1 PNG)', key: 'finger-verify', path: '/api/v1/services/finger/bench-finger/verify',
    request: async () => json({ imageData: file('fvc/fvc2002/DB1_B/101_2.png').toString('base64') }),
  },
  {
    name: `face identify (gallery ${gallerySize})`, key: 'identify', path: '/api/v1/services/face/identify',
    request: async () => json({ Images: [{ imageData: file('lfw-dev/images/Tony_Blair_0032.jpg').toString('base64') }] }),
  },
  {
    name: 'OCR CNH (2022 model, PNG)', key: 'ocr', path: '/api/v1/services/ocr/process-cnh',
    request: async () => {
      const cnh = await generateCnh(1, { model: '2022', format: 'image' });
      return multipartFile('file', 'cnh.png', cnh.mime, cnh.bytes);
    },
  },
];

async function post(station: StationProcess, p: string, body: unknown): Promise<void> {
  const res = await fetch(`${station.url}${p}`, {
    method: 'POST', headers: { authorization: `Bearer ${station.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`${p} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
}

/** The gallery: Tony Blair (the probe's person) and the first photo of gallerySize - 1 other people. */
async function enrol(station: StationProcess): Promise<void> {
  await post(station, '/api/v1/services/face/enroll/bench-face', { Images: [{ imageData: file('lfw-dev/images/Tony_Blair_0086.jpg').toString('base64') }] });
  await post(station, '/api/v1/services/finger/enroll/bench-finger', { imageData: file('fvc/fvc2002/DB1_B/101_1.png').toString('base64') });
  const others = readdirSync(path.join(datasets, 'lfw-dev/images')).filter((f) => f.endsWith('_0001.jpg') && !f.startsWith('Tony_Blair'));
  let enrolled = 1;
  for (const f of others) {
    if (enrolled >= gallerySize) break;
    try {
      await post(station, `/api/v1/services/face/enroll/g-${f.replace(/_0001\.jpg$/, '')}`, { Images: [{ imageData: file(`lfw-dev/images/${f}`).toString('base64') }] });
      enrolled++;
    } catch {
      /* a photo the engine refuses (no face, quality): take the next */
    }
  }
}

interface Row {
  name: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  rssStart: number;
  rssEnd: number;
  rssPeak: number;
}

const station = await startStationProcess();
const rows: Row[] = [];
try {
  await enrol(station);
  for (const c of cases.filter((c) => only.includes(c.key))) {
    const { body, contentType } = await c.request();
    const options = {
      url: `${station.url}${c.path}`, method: 'POST', body, timeout: 60,
      headers: { authorization: `Bearer ${station.token}`, 'content-type': contentType },
    };
    await autocannon({ ...options, connections: concurrency, amount: concurrency * 2 }); // warm-up
    const rssStart = station.rssMiB();
    let rssPeak = rssStart;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, station.rssMiB())), 1000);
    const r = await autocannon({ ...options, connections: concurrency, duration: seconds });
    clearInterval(sampler);
    const rssEnd = station.rssMiB();
    rows.push({
      name: c.name, requests: r.requests.total, rps: r.requests.total / r.duration, p50: r.latency.p50, p99: r.latency.p99,
      errors: r.errors + r.timeouts + r.non2xx, rssStart, rssEnd, rssPeak: Math.max(rssPeak, rssEnd),
    });
  }
} finally {
  await station.stop();
}

console.log(`\nLoad: concurrency ${concurrency}, ${seconds} s per operation, one station process (every engine, encryption at rest, audit), loopback, autocannon\n`);
console.log('| operation | requests | req/s | p50 ms | p99 ms | errors | RSS start MiB | RSS end MiB | RSS peak MiB |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(`| ${r.name} | ${r.requests} | ${r.rps.toFixed(1)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.rssStart.toFixed(0)} | ${r.rssEnd.toFixed(0)} | ${r.rssPeak.toFixed(0)} |`);
  recordSummary('load', `${r.name} req/s @${concurrency} (p99 ms, errors)`, `${r.rps.toFixed(1)} (${r.p99}, ${r.errors})`);
}
