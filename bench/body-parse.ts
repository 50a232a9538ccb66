/**
 * `npx tsx bench/body-parse.ts`: main-thread cost of one large base64 image body (issue #18: /health
 * under 4 large PNG bodies), step by step: a 2000 x 2000 FVC print as PNG (~2.2 MB, ~2.9 MB of JSON),
 * JSON parsing, a code-point length loop like Ajv's minLength/maxLength (the check the image schemas
 * no longer make), the former character-class check and the station's base64 decoding
 * (src/runtime/base64.ts). Mean ms over --runs (default 30) after one warm-up. Needs BIOSTATION_DATASETS.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { decodeBase64Field } from '../src/runtime/base64.js';

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
