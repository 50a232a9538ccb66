/**
 * `npm run bench:api`: request throughput of the station over real HTTP on this machine.
 * Face verify and fingerprint verify at concurrency 8 (the measure), each against a
 * person enrolled from a real image of the shared datasets, probe = another image of that person.
 * Options: `--seconds N` (default 20), `--concurrency N` (default 8).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { measureThroughput, startBenchStation, type ThroughputResult } from './lib/api-throughput.js';
import { recordSummary } from './lib/summary.js';

const datasets = process.env.BIOSTATION_DATASETS ?? path.resolve('../shared/datasets');
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const seconds = arg('seconds', 20);
const concurrency = arg('concurrency', 8);

if (!existsSync(datasets)) {
  console.log(`bench:api skipped: datasets not found at ${datasets} (set BIOSTATION_DATASETS)`);
  process.exit(0);
}

const b64 = (file: string) => readFileSync(path.join(datasets, file)).toString('base64');

interface Case { name: string; engine: 'face' | 'finger'; enrollPath: string; enrollBody: unknown; verifyPath: string; verifyBody: unknown }
const cases: Case[] = [
  {
    name: 'face verify (250x250 JPEG)',
    engine: 'face',
    enrollPath: '/api/v1/services/face/enroll/bench-person',
    enrollBody: { Images: [{ imageType: 'frontal', imageData: b64('lfw-dev/images/Tony_Blair_0086.jpg') }] },
    verifyPath: '/api/v1/services/face/bench-person/verify',
    verifyBody: { Images: [{ imageType: 'frontal', imageData: b64('lfw-dev/images/Tony_Blair_0032.jpg') }] },
  },
  {
    name: 'finger verify (FVC2002 DB1 PNG)',
    engine: 'finger',
    enrollPath: '/api/v1/services/finger/enroll/bench-person',
    enrollBody: { position: 'UNKNOWN', dpi: '500', imageData: b64('fvc/fvc2002/DB1_B/101_1.png') },
    verifyPath: '/api/v1/services/finger/bench-person/verify',
    verifyBody: { imageData: b64('fvc/fvc2002/DB1_B/101_2.png') },
  },
];

const rows: Array<{ name: string; r?: ThroughputResult; error?: string }> = [];
for (const c of cases) {
  const bench = await startBenchStation({ [c.engine]: true });
  try {
    const enroll = await fetch(`${bench.station.url}${c.enrollPath}`, {
      method: 'POST', headers: { authorization: `Bearer ${bench.token}`, 'content-type': 'application/json' }, body: JSON.stringify(c.enrollBody),
    });
    if (enroll.status !== 200) throw new Error(`enroll answered ${enroll.status}: ${await enroll.text()}`);
    rows.push({ name: c.name, r: await measureThroughput(`${bench.station.url}${c.verifyPath}`, bench.token, c.verifyBody, concurrency, seconds) });
  } catch (e) {
    rows.push({ name: c.name, error: (e as Error).message.slice(0, 120) });
  } finally {
    await bench.close();
  }
}

console.log(`\nAPI throughput, concurrency ${concurrency}, ${seconds} s per case, one station process on this machine\n`);
console.log('| operation | requests | req/s | p50 ms | p99 ms | errors |');
console.log('|---|---|---|---|---|---|');
for (const { name, r, error } of rows) {
  if (!r) console.log(`| ${name} | failed: ${error} | | | | |`);
  else console.log(`| ${name} | ${r.requests} | ${r.requestsPerSecond.toFixed(1)} | ${r.p50Ms.toFixed(1)} | ${r.p99Ms.toFixed(1)} | ${r.errors} |`);
}
for (const { name, r, error } of rows) recordSummary('api', `${name} req/s @${concurrency}`, r ? r.requestsPerSecond.toFixed(1) : `failed: ${error}`);
