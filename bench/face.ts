/**
 * Face benchmark (`npm run bench:face [-- --quick] [-- --no-cache] [-- --lfw-only]`), prints tables:
 *  1. LFW View-2 on lfw-dev/pairs.txt (5 folds x 600 pairs): accuracy mean +- std (threshold chosen on
 *     the other folds), TAR at FAR 1e-3 / 1e-4 over all pairs, detection failures; each recogniser
 *     alone and fused (fusion.ts), with and without test-time flip, float vs int8 (the 1:N scan) vs
 *     int16 (the engine's decision score); all-pairs thresholds used as the engine's defaults.
 *  2. Time per image for detect + align + embed (extract, probe mode), one onnxruntime thread.
 *  3. Identify latency over 10k / 100k / 1M random unit templates, and memory per template.
 *  4. API throughput: measured by the service benchmark (lead), not here.
 * Embeddings of LFW images are cached in .cache/face-bench/ (gitignored), keyed by model build.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { buildModels, readManifest } from '../models/convert.js';
import { createFaceEngine, type OnnxFaceEngine } from '../src/face/index.js';
import { DLIB_DIM, fuseEmbeddings, MOBILEFACENET_DIM, pooled } from '../src/face/embed/fusion.js';
import { foldAccuracy, percentile, tarAtFar, type ScoredPair } from './lib/face-metrics.js';
import { quantize, quantize16, quantizedSimilarity, similarity16 } from '../src/face/template/quantize.js';
import { RESIDUAL_DIMS } from '../src/face/template/template-space.js';
import { cosine } from '../src/face/template/template.js';
import { recordSummary } from './lib/summary.js';

const quick = process.argv.includes('--quick');
const noCache = process.argv.includes('--no-cache');
const lfwOnly = process.argv.includes('--lfw-only');
const DATASETS = process.env.BIOSTATION_DATASETS ?? path.resolve('../shared/datasets');
const LFW = path.join(DATASETS, 'lfw-dev');
const CACHE_DIR = path.resolve('.cache/face-bench');
const PIPELINE_VERSION = 'lm68x2mirror-chip150-arc112-scales-unless-clear-gray-support-v7';

const table = (rows: Array<Record<string, string | number>>): void => console.table(rows);
const pct = (x: number, d = 2): string => `${(100 * x).toFixed(d)} %`;

interface Pair {
  a: string;
  b: string;
  same: boolean;
  fold: number;
}

function readPairs(): Pair[] {
  const lines = readFileSync(path.join(LFW, 'pairs.txt'), 'utf8').trim().split('\n');
  const [folds, n] = lines[0].trim().split(/\s+/).map(Number);
  const img = (name: string, i: string): string => `${name}_${i.padStart(4, '0')}.jpg`;
  const pairs: Pair[] = [];
  let li = 1;
  for (let f = 0; f < folds; f++) {
    for (let k = 0; k < 2 * n; k++) {
      const p = lines[li++].trim().split(/\s+/);
      if (p.length === 3) pairs.push({ a: img(p[0], p[1]), b: img(p[0], p[2]), same: true, fold: f });
      else pairs.push({ a: img(p[0], p[1]), b: img(p[2], p[3]), same: false, fold: f });
    }
  }
  return pairs;
}

/** Unit vectors of one image: fused (as the engine, chip only or chip + mirror) and each recogniser alone (chip + mirror). */
type Embedded = { plain: Float32Array; flip: Float32Array; dlib: Float32Array; mobileFaceNet: Float32Array } | null;
type Variant = keyof NonNullable<Embedded>;

function normalise(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  return v.map((x) => x / n);
}

async function embedAll(engine: OnnxFaceEngine, files: string[]): Promise<Map<string, Embedded>> {
  const manifest = readManifest();
  const key = `${engine.modelId}|${PIPELINE_VERSION}|${manifest?.models.map((m) => m.sha256).join(',')}`;
  const cacheFile = path.join(CACHE_DIR, 'lfw-embeddings.json');
  const cache: { key: string; items: Record<string, { dlib: number[]; mobileFaceNet: number[] } | null> } =
    !noCache && existsSync(cacheFile) ? JSON.parse(readFileSync(cacheFile, 'utf8')) : { key, items: {} };
  if (cache.key !== key) {
    // another model or pipeline: start afresh under the new key
    cache.key = key;
    cache.items = {};
  }
  const out = new Map<string, Embedded>();
  let done = 0;
  const t0 = Date.now();
  for (const f of files) {
    if (!(f in cache.items)) {
      try {
        const face = await engine.analyzeDominant(readFileSync(path.join(LFW, 'images', f)), 'probe');
        cache.items[f] = { dlib: Array.from(face.rawDescriptors.dlib), mobileFaceNet: Array.from(face.rawDescriptors.mobileFaceNet) };
      } catch {
        cache.items[f] = null;
      }
      if (++done % 250 === 0) {
        process.stderr.write(`  embedded ${done} new images (${((Date.now() - t0) / done).toFixed(0)} ms each)\n`);
        mkdirSync(CACHE_DIR, { recursive: true });
        writeFileSync(cacheFile, JSON.stringify(cache));
      }
    }
    const raw = cache.items[f];
    if (!raw) out.set(f, null);
    else {
      if (raw.dlib.length !== 2 * DLIB_DIM) throw new Error('bench embeddings need the engine with flip on (chip + mirror descriptors)');
      const d = Float32Array.from(raw.dlib);
      const m = Float32Array.from(raw.mobileFaceNet);
      out.set(f, { plain: fuseEmbeddings(d, m, 1), flip: fuseEmbeddings(d, m, 2), dlib: pooled(d, DLIB_DIM, 2), mobileFaceNet: pooled(m, MOBILEFACENET_DIM, 2) });
    }
  }
  mkdirSync(CACHE_DIR, { recursive: true });
  writeFileSync(cacheFile, JSON.stringify(cache));
  return out;
}

async function lfwSection(engine: OnnxFaceEngine): Promise<void> {
  if (!existsSync(path.join(LFW, 'pairs.txt'))) {
    console.log(`LFW: skipped, ${LFW} not found (set BIOSTATION_DATASETS)`);
    return;
  }
  let pairs = readPairs();
  if (quick) pairs = pairs.filter((p) => p.fold < 2);
  const files = [...new Set(pairs.flatMap((p) => [p.a, p.b]))];
  console.log(`\n## LFW View-2 (lfw-dev, ${pairs.length} pairs, ${files.length} images${quick ? ', QUICK: folds 1-2 only' : ''})`);
  const emb = await embedAll(engine, files);
  const failures = files.filter((f) => emb.get(f) === null);
  const rows: Array<Record<string, string | number>> = [];
  let calibrated = NaN;
  const label: Record<Variant, string> = { dlib: 'dlib ResNet-34 alone, chip + mirror', mobileFaceNet: 'MobileFaceNet alone, chip + mirror', plain: 'fused, chip only', flip: 'fused, chip + mirror (TTA)' };
  for (const variant of ['dlib', 'mobileFaceNet', 'plain', 'flip'] as const) {
    const single = variant === 'dlib' || variant === 'mobileFaceNet';
    for (const scoring of single ? (['float'] as const) : (['float', 'int8', 'int16'] as const)) {
      const scored: ScoredPair[] = pairs.map((p) => {
        const a = emb.get(p.a);
        const b = emb.get(p.b);
        let score = -1; // a detection failure counts as a rejected pair
        if (a && b) {
          if (scoring === 'float') score = cosine(a[variant], b[variant]);
          else if (scoring === 'int8') score = quantizedSimilarity(quantize(a[variant]), quantize(b[variant]));
          else score = similarity16(quantize16(a[variant], RESIDUAL_DIMS), quantize16(b[variant], RESIDUAL_DIMS));
        }
        return { score, same: p.same, fold: p.fold };
      });
      const acc = foldAccuracy(scored);
      const f3 = tarAtFar(scored, 1e-3);
      const f4 = tarAtFar(scored, 1e-4);
      if (scoring === 'int16' && (variant === 'flip') === engine.tuning.flip) {
        calibrated = f3.threshold;
        recordSummary('face', 'LFW accuracy (engine variant)', `${pct(acc.mean)} ± ${pct(acc.std)}`, '>= 99.38 %');
        recordSummary('face', 'LFW TAR @ FAR 1e-3', pct(f3.tar), '>= 97 %');
      }
      rows.push({
        embedding: label[variant],
        scores: scoring === 'int16' ? 'int16 (engine)' : scoring,
        'accuracy mean': pct(acc.mean),
        'std': pct(acc.std),
        'TAR@FAR1e-3': pct(f3.tar),
        'thr@1e-3': f3.threshold.toFixed(4),
        'TAR@FAR1e-4': pct(f4.tar),
        'detection failures': `${failures.length} / ${files.length}`,
      });
    }
  }
  table(rows);
  allPairsSection(emb, engine.tuning.flip ? 'flip' : 'plain');
  console.log(`pairs.txt FAR 1e-3 threshold (engine variant, int16): ${calibrated.toFixed(4)}; engine uses defaultThreshold ${engine.defaultThreshold} and identifyThreshold ${engine.identifyThreshold} (all-pairs FAR 1e-3 and 1e-4 above)`);
  if (failures.length) console.log(`no face found in: ${failures.slice(0, 10).join(', ')}${failures.length > 10 ? ' ...' : ''}`);
}

/**
 * Calibration on every image pair of lfw-dev (not only pairs.txt): all same-person pairs are genuine,
 * all cross-person pairs impostors (~7M), int16 scores as the engine computes them. Gives thresholds for
 * FAR 1e-3 .. 1e-5 with enough impostors to be meaningful.
 */
function allPairsSection(emb: Map<string, Embedded>, variant: 'plain' | 'flip'): void {
  const items = [...emb].filter(([, e]) => e !== null).map(([f, e]) => ({ who: f.replace(/_\d{4}\.jpg$/, ''), q: quantize16(e![variant], RESIDUAL_DIMS) }));
  const n = items.length;
  const imp = new Float32Array((n * (n - 1)) / 2);
  const gen: number[] = [];
  let k = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const s = similarity16(items[i].q, items[j].q);
      if (items[i].who === items[j].who) gen.push(s);
      else imp[k++] = s;
    }
  }
  const sorted = imp.subarray(0, k).sort().reverse();
  const rows = [1e-3, 1e-4, 1e-5, 1e-6].map((far) => {
    const a = Math.max(1, Math.floor(far * k));
    const thr = (sorted[a - 1] + sorted[a]) / 2;
    return { FAR: far, threshold: thr.toFixed(4), TAR: pct(gen.filter((s) => s >= thr).length / gen.length), 'impostors accepted': `${sorted.filter((s) => s >= thr).length} / ${k}` };
  });
  console.log(`\nAll-pairs calibration on lfw-dev (${variant}, int16): ${gen.length} genuine, ${k} impostor pairs`);
  table(rows);
}

async function timingSection(): Promise<void> {
  const engine = await createFaceEngine({ intraOpNumThreads: 1 });
  const lfwImg = path.join(LFW, 'images', 'Aaron_Sorkin_0001.jpg');
  const bbt = path.join(DATASETS, 'faces-misc', 'bbt-cast', 'bbt1.jpg');
  const inputs: Array<[string, Uint8Array]> = [];
  if (existsSync(lfwImg)) inputs.push(['250x250 (LFW)', readFileSync(lfwImg)]);
  if (existsSync(bbt)) inputs.push(['1280x720 (bbt1, 6 faces)', await sharp(bbt).resize(1280, 720, { fit: 'fill' }).jpeg({ quality: 90 }).toBuffer()]);
  const runs = quick ? 15 : 60;
  const rows: Array<Record<string, string | number>> = [];
  for (const [label, bytes] of inputs) {
    for (let i = 0; i < 3; i++) await engine.extract(bytes, 'probe');
    const ts: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      await engine.extract(bytes, 'probe');
      ts.push(performance.now() - t);
    }
    rows.push({ image: label, runs, 'median ms': percentile(ts, 50).toFixed(1), 'p95 ms': percentile(ts, 95).toFixed(1), flip: String(engine.tuning.flip) });
  }
  console.log('\n## Time per image: decode + detect (3 scales) + landmarks (2 passes, crop and mirror) + align + embed (dlib ResNet-34 and MobileFaceNet, chip and mirror each) (onnxruntime intraOpNumThreads=1)');
  table(rows);
}

function randomUnit(dim: number): Float32Array {
  const v = new Float32Array(dim);
  for (let i = 0; i < dim; i++) {
    const u = Math.random() || 1e-9;
    v[i] = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * Math.random());
  }
  return normalise(v);
}

/** A random fused vector (each recogniser's part a random unit vector, weighted as fusion.ts does). */
const randomFused = (): Float32Array => fuseEmbeddings(randomUnit(DLIB_DIM), randomUnit(MOBILEFACENET_DIM), 1);

async function identifySection(engine: OnnxFaceEngine): Promise<void> {
  const sizes = quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000];
  const rows: Array<Record<string, string | number>> = [];
  for (const n of sizes) {
    const gallery = engine.createGallery();
    gallery.reserve(n);
    const before = process.memoryUsage();
    for (let i = 0; i < n; i++) gallery.upsertVectors(`p${i}`, [randomFused()]);
    const after = process.memoryUsage();
    const queries = n >= 1_000_000 ? 30 : 60;
    const probes = Array.from({ length: queries }, () => engine.templateOf(randomFused()));
    const tSync: number[] = [];
    const tAsync: number[] = [];
    for (const p of probes) {
      let t = performance.now();
      const a = gallery.search(p, 5);
      tSync.push(performance.now() - t);
      t = performance.now();
      const b = await gallery.searchAsync(p, 5);
      tAsync.push(performance.now() - t);
      if (a[0].extId !== b[0].extId) throw new Error('sync and async search disagree');
    }
    const heapPerTemplate = (after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers) / n;
    rows.push({
      templates: n,
      'search() p50 ms': percentile(tSync, 50).toFixed(1),
      'search() p99 ms': percentile(tSync, 99).toFixed(1),
      'searchAsync() p50 ms': percentile(tAsync, 50).toFixed(1),
      'searchAsync() p99 ms': percentile(tAsync, 99).toFixed(1),
      'index bytes/template': gallery.bytesPerTemplate.toFixed(0),
      'heap+buffers bytes/template (incl. ext_id, maps)': heapPerTemplate > 0 ? heapPerTemplate.toFixed(0) : 'n/a (GC during fill)',
    });
  }
  console.log(`\n## Identify (exact search: int8 scan + 16-bit rescoring, 1 template per person, random ${DLIB_DIM}+${MOBILEFACENET_DIM}-d fused vectors, top-5)`);
  table(rows);
}

buildModels(); // the station only loads models/build; the benchmark builds it first when missing or stale
const engine = await createFaceEngine();
console.log(`face engine ${engine.modelId}, threshold ${engine.defaultThreshold}, models: ${readManifest()?.models.map((m) => `${m.id} (${m.source.package}@${m.source.version})`).join(', ')}`);
await lfwSection(engine);
if (!lfwOnly) {
  await timingSection();
  await identifySection(engine);
}
console.log('\n## API throughput (verify, concurrency 8): see `npm run bench:api`.');
