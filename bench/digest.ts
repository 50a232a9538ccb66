/**
 * Behaviour digest (`npm run bench:digest [-- --finger-only | --face-only] [-- --quick]`): a SHA-256 over every
 * template and score the engines produce on the shared datasets, one digest per part, so that a refactor
 * can prove it changed no output (run before and after, compare the printed lines).
 *  - fingerprint: the 480 FVC B-set images (6 databases x 10 fingers x 8 impressions) at 500 dpi; per image
 *    the extracted template bytes, its quality and minutia count (or the error code when extraction fails);
 *    then the engine's similarity of every FVC genuine pair (280 per database) and every FVC impostor pair
 *    (45 per database), written as float64.
 *  - face: every image named in lfw-dev/pairs.txt (probe mode, the station's default engine); per image the
 *    template bytes and quality values (or the error code); then the engine's similarity of all pairs of
 *    pairs.txt as float64 (a pair with a failed image scores NaN).
 * Order is fixed (databases, names, pairs.txt order), so the digest depends only on the outputs.
 * `--quick` limits face to the first fold (600 pairs): faster, but not the acceptance run.
 * `--finger-workers N` extracts the fingerprints on N worker threads (createPooledFingerEngine, as the station
 * does) instead of in this thread: the digest must not change.
 * Datasets from $BIOSTATION_DATASETS (default ../shared/datasets).
 */
import { createHash, type Hash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { buildModels } from '../models/convert.js';
import { createFaceEngine } from '../src/face/index.js';
import { createFingerEngine, createPooledFingerEngine } from '../src/finger/index.js';

const root = process.env.BIOSTATION_DATASETS ?? path.resolve('../shared/datasets');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const doFinger = !args.includes('--face-only');
const doFace = !args.includes('--finger-only');
const fingerWorkersAt = args.indexOf('--finger-workers');
const fingerWorkers = fingerWorkersAt >= 0 ? Number(args[fingerWorkersAt + 1]) : 0;
if (!Number.isInteger(fingerWorkers) || fingerWorkers < 0) throw new Error('--finger-workers takes a whole number (0: in this thread)');
const DBS = ['fvc2002/DB1_B', 'fvc2002/DB2_B', 'fvc2002/DB3_B', 'fvc2002/DB4_B', 'fvc2004/DB1_B', 'fvc2004/DB3_B'];

function f64(h: Hash, x: number): void {
  const b = Buffer.alloc(8);
  b.writeDoubleLE(x);
  h.update(b);
}

function str(h: Hash, s: string): void {
  const b = Buffer.from(s, 'utf8');
  f64(h, b.length);
  h.update(b);
}

function bytes(h: Hash, v: Uint8Array): void {
  f64(h, v.length);
  h.update(v);
}

const errorCode = (e: unknown): string => {
  const err = e as { code?: string; message?: string };
  return `${err.code ?? 'ERROR'}: ${err.message ?? String(e)}`;
};

async function fingerDigest(): Promise<void> {
  const engine = fingerWorkers > 0 ? await createPooledFingerEngine(fingerWorkers) : await createFingerEngine();
  const templates = createHash('sha256');
  const scores = createHash('sha256');
  let images = 0;
  let failures = 0;
  let genuine = 0;
  let impostor = 0;
  const t0 = Date.now();
  for (const db of DBS) {
    const dir = path.join(root, 'fvc', db);
    if (!existsSync(dir)) {
      console.log(`finger: skip ${db}, ${dir} not found`);
      continue;
    }
    const byName = new Map<string, Uint8Array>();
    for (let f = 101; f <= 110; f++) {
      for (let i = 1; i <= 8; i++) {
        const name = `${f}_${i}`;
        str(templates, `${db}/${name}`);
        images++;
        try {
          const r = await engine.extract(readFileSync(path.join(dir, `${name}.png`)), { dpi: 500 });
          bytes(templates, r.template);
          f64(templates, r.quality);
          f64(templates, r.minutiaCount);
          byName.set(name, r.template);
        } catch (e) {
          failures++;
          str(templates, errorCode(e));
        }
      }
    }
    const score = (a: string, b: string): number => {
      const ta = byName.get(a);
      const tb = byName.get(b);
      return ta && tb ? engine.similarity(ta, tb) : NaN;
    };
    for (let f = 101; f <= 110; f++) {
      for (let i = 1; i <= 8; i++) {
        for (let j = i + 1; j <= 8; j++) {
          f64(scores, score(`${f}_${i}`, `${f}_${j}`));
          genuine++;
        }
      }
    }
    for (let f = 101; f <= 110; f++) {
      for (let g = f + 1; g <= 110; g++) {
        f64(scores, score(`${f}_1`, `${g}_1`));
        impostor++;
      }
    }
  }
  console.log(`finger templates: ${templates.digest('hex')} (${images} images, ${failures} failures to extract)`);
  console.log(`finger scores:    ${scores.digest('hex')} (${genuine} genuine + ${impostor} impostor FVC pairs)`);
  console.error(`finger: ${((Date.now() - t0) / 1000).toFixed(0)} s (${fingerWorkers > 0 ? `${fingerWorkers} extraction workers` : 'extraction in this thread'})`);
  await engine.close?.();
}

interface Pair {
  a: string;
  b: string;
}

function readPairs(file: string): Pair[] {
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  const [folds, n] = lines[0].trim().split(/\s+/).map(Number);
  const img = (name: string, i: string): string => `${name}_${i.padStart(4, '0')}.jpg`;
  const pairs: Pair[] = [];
  let li = 1;
  for (let f = 0; f < (quick ? 1 : folds); f++) {
    for (let k = 0; k < 2 * n; k++) {
      const p = lines[li++].trim().split(/\s+/);
      pairs.push(p.length === 3 ? { a: img(p[0], p[1]), b: img(p[0], p[2]) } : { a: img(p[0], p[1]), b: img(p[2], p[3]) });
    }
  }
  return pairs;
}

async function faceDigest(): Promise<void> {
  const lfw = path.join(root, 'lfw-dev');
  if (!existsSync(path.join(lfw, 'pairs.txt'))) {
    console.log(`face: skipped, ${lfw}/pairs.txt not found`);
    return;
  }
  buildModels(); // the station only loads models/build; a benchmark may build it first
  const engine = await createFaceEngine({ intraOpNumThreads: 1 });
  const pairs = readPairs(path.join(lfw, 'pairs.txt'));
  const files = [...new Set(pairs.flatMap((p) => [p.a, p.b]))].sort();
  const templates = createHash('sha256');
  const scores = createHash('sha256');
  const byName = new Map<string, Uint8Array>();
  let failures = 0;
  const t0 = Date.now();
  for (const [k, f] of files.entries()) {
    str(templates, f);
    try {
      const r = await engine.extract(readFileSync(path.join(lfw, 'images', f)), 'probe');
      bytes(templates, r.template);
      const q = r.quality;
      for (const v of [q.interOcularPx, q.faceWidthPx, q.sharpness, q.yawDeg, q.pitchDeg, q.rollDeg, q.meanLuma, q.detectionScore]) f64(templates, v);
      for (const v of [r.box.x, r.box.y, r.box.width, r.box.height]) f64(templates, v);
      byName.set(f, r.template);
    } catch (e) {
      failures++;
      str(templates, errorCode(e));
    }
    if ((k + 1) % 500 === 0) console.error(`  face: ${k + 1} / ${files.length} images, ${((Date.now() - t0) / (k + 1)).toFixed(0)} ms each`);
  }
  for (const p of pairs) {
    const a = byName.get(p.a);
    const b = byName.get(p.b);
    f64(scores, a && b ? engine.similarity(a, b) : NaN);
  }
  await engine.close?.();
  console.log(`face templates:   ${templates.digest('hex')} (${files.length} lfw-dev images, ${failures} failures)`);
  console.log(`face scores:      ${scores.digest('hex')} (${pairs.length} pairs.txt pairs${quick ? ', QUICK: fold 1 only' : ''})`);
  console.error(`face: ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

if (doFinger) await fingerDigest();
if (doFace) await faceDigest();
