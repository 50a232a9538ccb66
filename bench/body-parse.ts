/**
 * `npx tsx bench/body-parse.ts`: main-thread cost of one large base64 image body (issue #18: /health
 * under 4 large PNG bodies), step by step: a 2000 x 2000 FVC print as PNG (~2.2 MB, ~2.9 MB of JSON),
 * JSON parsing, a code-point length loop like Ajv's minLength/maxLength (the check the image schemas
 * no longer make), the former character-class check and the station's base64 decoding
 * (src/runtime/base64.ts); then what the station does since issue #18's body worker (src/http/json-body.ts):
 * Fastify's default parser on the Buffer as it ran on the main thread before (secure-json-parse: UTF-8
 * decoding, its two prototype-poisoning regexps over the text, JSON.parse), and the body worker's round
 * trip: its wall time and the main thread's busy time in it (event-loop utilisation, active ms), which
 * is what other requests (/health) wait for. Mean ms over --runs (default 30) after one warm-up. Needs BIOSTATION_DATASETS.
 */
import { existsSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import sharp from 'sharp';
import sjson from 'secure-json-parse';
import { decodeBase64Field } from '../src/runtime/base64.js';
import { WorkerPool } from '../src/runtime/worker-pool.js';
import type { JsonBodyReply, JsonBodyRequest } from '../src/http/json-body.js';

const datasets = process.env.BIOSTATION_DATASETS ?? path.resolve('../shared/datasets');
const print = path.join(datasets, 'fvc/fvc2002/DB1_B/101_1.png');
if (!existsSync(print)) {
  console.log(`bench/body-parse skipped: no ${print} (set BIOSTATION_DATASETS)`);
  process.exit(0);
}
const i = process.argv.indexOf('--runs');
const runs = i > 0 ? Number(process.argv[i + 1]) : 30;

const png = await sharp(readFileSync(print)).resize(2000, 2000, { fit: 'fill' }).png().toBuffer();
const body = Buffer.from(JSON.stringify({ position: 'UNKNOWN', dpi: '2000', imageData: png.toString('base64') }));
const parsed = JSON.parse(body.toString()) as { imageData: string };
/** Ajv's ucs2length: code points, one JavaScript step per UTF-16 unit. */
function codePoints(s: string): number {
  let n = 0;
  for (let k = 0; k < s.length; k++, n++) {
    const c = s.charCodeAt(k);
    if (c >= 0xd800 && c <= 0xdbff && k + 1 < s.length && (s.charCodeAt(k + 1) & 0xfc00) === 0xdc00) k++;
  }
  return n;
}

function time(name: string, f: () => unknown): void {
  f();
  const t0 = performance.now();
  for (let r = 0; r < runs; r++) f();
  console.log(`| ${name} | ${((performance.now() - t0) / runs).toFixed(2)} |`);
}

console.log(`PNG ${(png.length / 2 ** 20).toFixed(2)} MiB, JSON body ${(body.length / 2 ** 20).toFixed(2)} MiB, ${runs} runs\n`);
console.log('| step | ms |\n|---|---|');
time('JSON.parse of the body', () => JSON.parse(body.toString()));
time('code-point length of imageData (Ajv minLength/maxLength, no longer in the schema)', () => codePoints(parsed.imageData));
time('character-class regexp over imageData (the former check)', () => /^[A-Za-z0-9+/]*={0,2}$/.test(parsed.imageData));
time('decodeBase64Field (native check and decode)', () => decodeBase64Field(parsed.imageData, 'imageData', 20 * 2 ** 20));
time('Fastify default JSON parser on the Buffer (main thread before the body worker)', () => sjson.parse(body, { protoAction: 'error', constructorAction: 'error' }));

const pool = new WorkerPool<JsonBodyRequest, JsonBodyReply>({
  module: new URL('../src/http/json-body-worker.js', import.meta.url),
  size: 1,
  respawn: false,
  label: 'JSON body worker',
  unavailable: (m) => new Error(m),
  revive: (e) => new Error(e.message),
});
await pool.ready();
/** One body through the worker as json-body.ts sends it (moved, not copied); checks the decoded image. */
async function roundTrip(): Promise<void> {
  const bytes = new Uint8Array(body); // the station moves Fastify's own Buffer; a copy here, outside the timing below
  const started = performance.now();
  const elu = performance.eventLoopUtilization();
  const reply = await pool.run({ bytes, maxChars: 28_000_000, maxBytes: 20 * 2 ** 20 }, { transfer: [bytes.buffer] });
  const used = performance.eventLoopUtilization(elu);
  wall.push(performance.now() - started);
  active.push(used.active);
  if (!reply.parsed || reply.images[0]?.bytes.length !== png.length) throw new Error('the body worker did not decode the image');
}
let wall: number[] = [];
let active: number[] = [];
await roundTrip();
wall = [];
active = [];
for (let r = 0; r < runs; r++) await roundTrip();
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(`| body worker round trip (parse + decode on the worker), wall | ${mean(wall).toFixed(2)} |`);
console.log(`| body worker round trip, main thread busy (event-loop active time) | ${mean(active).toFixed(2)} |`);
await pool.close();
