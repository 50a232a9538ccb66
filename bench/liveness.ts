/**
 * Passive liveness benchmark (`npm run bench:liveness [-- --per-split N (default 60)] [--fit] [--fresh] [--fresh2] [--time N] [--no-cache] [--quick]`).
 *
 * Sets (bench/liveness/attacks.ts; identity-disjoint 'tune' and 'heldout' parts of lfw-dev):
 *  - bona fide: 'live-camera' (the photos through a camera model: blur, noise, low light, JPEG) and
 *    'lfw' (every lfw-dev photo as it is, the acceptance set: >= 97 % must pass);
 *  - attacks: print, print-closeup, screen, screen-closeup, cutout;
 *  - the three labelled Silent-Face samples of faces-misc/spoof-samples.
 * Every image goes through the station's own path: decode, face detector, dominant face box, then the
 * liveness engine (quality gates, network, signals). Measurements are cached in .cache/liveness-bench/.
 *
 * Parts: 'tune' (fitting, thresholds), 'heldout' (untouched until the gates and fusions of 2026-11-24
 * were chosen on it: now a development part) and, with `--fresh`, 'fresh' (a second untouched part:
 * other held-out people, new seeds; see attacks.ts generateSet; printed once, 2026-11-24T19:29Z) and,
 * with `--fresh2`, 'fresh2' (a third untouched part, made after the network's two views were chosen:
 * other held-out people than heldout's and fresh's, new seeds). Every run that prints an untouched part
 * is counted in .cache/liveness-bench/<part>-runs-<generator>-<size>.log and the count is printed.
 * Real samples: spoof-samples, and the public samples of bench/liveness/generalise.ts found in
 * BIOSTATION_LIVENESS_PUBLIC (default .cache/liveness-public; skipped with a note when absent).
 *
 * Prints: each input alone (tune -> heldout, and on every real sample), the fusions compared (2-fold
 * on the tune part; and chosen by leave-one-attack-family-out with the real-sample rule), the bona fide
 * errors by camera degradation and the exposure gate swept, APCER per attack type and BPCER per bona
 * fide set at the default threshold (ISO/IEC 30107-3) for each part, DET tables, the real screen replays
 * of bench/liveness/public-replay.sh per source with a threshold sweep over the real sets, and time per face
 * (`--time N`: the default check as the API runs it, timed on N cached images).
 * `--fit` also prints the fusion and threshold fitted on the tune part, for src/liveness/passive/tuning.ts.
 * Images are measured with the quality gates open and the configured gates applied here
 * (engine.ts gateFailures), so that the gate sweep can see every image.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createFaceEngine } from '../src/face/index.js';
import { appendFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { gateFailures, type CnnScores, type PassiveLivenessEngine } from '../src/liveness/passive/engine.js';
import { cnnLogit, type FusionModel } from '../src/liveness/passive/engine.js';
import type { FaceExposure } from '../src/liveness/passive/signals.js';
import { createPassiveLivenessEngine, DEFAULT_LIVENESS_TUNING } from '../src/liveness/passive/index.js';
import { SCALAR_SIGNALS, SIGNAL_NAMES, TEXTURE_SIGNALS, type Signals } from '../src/liveness/passive/signals.js';
import { ATTACK_TYPES, fnv1a, generateSet, liveCameraRecipe, type Split } from './liveness/attacks.js';
import { chooseFusion, degradationTable, exposureGateSweep, inputsAlone, publicSampleFiles, replaySource, sessionTable } from './liveness/generalise.js';
import { auc, fitLogistic, rate, thresholdAtBpcer, type Row } from './liveness/fit.js';
import { recordSummary } from './lib/summary.js';

const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const quick = process.argv.includes('--quick');
const fit = process.argv.includes('--fit');
const noCache = process.argv.includes('--no-cache');
const fresh = process.argv.includes('--fresh');
const fresh2 = process.argv.includes('--fresh2');
/** The untouched parts asked for (each printed as rarely as possible: see the run logs). */
const UNTOUCHED: Split[] = [...(fresh ? (['fresh'] as const) : []), ...(fresh2 ? (['fresh2'] as const) : [])];
const PER_SPLIT = arg('--per-split', quick ? 30 : 60);
const LFW_STEP = quick ? 10 : 1;
const DATASETS = process.env.BIOSTATION_DATASETS ?? path.resolve('../shared/datasets');
const LFW = path.join(DATASETS, 'lfw-dev', 'images');
const SPOOF = path.join(DATASETS, 'faces-misc', 'spoof-samples');
const CACHE_DIR = path.resolve('.cache/liveness-bench');
const PUBLIC_DIR = path.resolve(process.env.BIOSTATION_LIVENESS_PUBLIC ?? '.cache/liveness-public');
/** Bump when the generator or the detector path change (images and boxes are cached under it). */
const GEN_VERSION = 'g3';
/** Bump when the gates, the crop, the network views or the signals change (s5: two views). */
const SIGNALS_VERSION = 's5';

if (!existsSync(LFW)) {
  console.log(`bench:liveness skipped: ${LFW} not found (set BIOSTATION_DATASETS)`);
  process.exit(0);
}

interface Acquired {
  id: string;
  split: Split;
  set: string;
  bonaFide: boolean;
  /** Image file (generated ones are kept in the cache folder). */
  file: string;
  /** Dominant face box from the station's detector, null when none was found. */
  box: { x: number; y: number; width: number; height: number } | null;
}

interface Measured extends Omit<Acquired, 'file' | 'box'> {
  status: 'ok' | 'no-face' | 'quality';
  cnn?: CnnScores | null;
  signals?: Signals;
  failures?: string[];
  exposure?: FaceExposure;
  faceWidthPx?: number;
  /** Wall time of the check, ms. */
  ms?: number;
  /** CPU time of this process during the check (user + system), ms: the cost on one core, whatever the load. */
  cpuMs?: number;
}

const pct = (x: number, d = 1): string => (Number.isNaN(x) ? '-' : `${(100 * x).toFixed(d)} %`);
const face = await createFaceEngine({ intraOpNumThreads: 1 });
const engine: PassiveLivenessEngine = await createPassiveLivenessEngine({ intraOpNumThreads: 1 });
/** The same engine with every gate open: the bench applies the configured gates itself (gateFailures). */
const OPEN_GATES = { minFaceWidthPx: 0, minSharpness: -1, minMeanLuma: -1, maxMeanLuma: 256, maxClipped: 2 };
const measurer: PassiveLivenessEngine = await createPassiveLivenessEngine({ intraOpNumThreads: 1, tuning: { gates: OPEN_GATES } });
const GATES = DEFAULT_LIVENESS_TUNING.gates;
if (!engine.hasNetwork) console.log('NOTE: liveness network absent (run `npm run models`): signals only');

// Stage 1: the images and their face boxes (generator and detector), cached.
const acquire = async (id: string, split: Split, set: string, bonaFide: boolean, file: string): Promise<Acquired> => {
  const img = await face.decode(new Uint8Array(readFileSync(file)));
  const dets = await face.detect(img);
  return { id, split, set, bonaFide, file, box: dets.length ? dets[0].box : null };
};
/** The generated samples of `parts` (plus, for the main set, every lfw-dev photo and the spoof samples), cached in `dir`. */
async function acquireSet(dir: string, parts: Split[], withPhotos: boolean): Promise<Acquired[]> {
  const file = path.join(dir, 'acquired.json');
  let out: Acquired[] = !noCache && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Acquired[]) : [];
  if (out.length === 0) {
    mkdirSync(dir, { recursive: true });
    const started = Date.now();
    for await (const s of generateSet(LFW, PER_SPLIT, undefined, parts)) {
      const jpg = path.join(dir, `${s.id.replace(/\//g, '_')}.jpg`);
      writeFileSync(jpg, s.jpeg);
      out.push(await acquire(s.id, s.split, s.type, s.bonaFide, jpg));
      if (out.length % 200 === 0) console.log(`  ${out.length} samples generated (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }
    if (withPhotos) {
      const files = readdirSync(LFW).filter((f) => f.endsWith('.jpg')).sort().filter((_, i) => i % LFW_STEP === 0);
      for (const f of files) {
        const split: Split = fnv1a(f.replace(/_\d{4}\.jpg$/, '')) % 2 === 0 ? 'tune' : 'heldout';
        out.push(await acquire(`lfw/${f}`, split, 'lfw', true, path.join(LFW, f)));
      }
      for (const f of ['image_F1.jpg', 'image_F2.jpg', 'image_T1.jpg']) {
        if (existsSync(path.join(SPOOF, f))) out.push(await acquire(`spoof-samples/${f}`, 'heldout', 'spoof-samples', f.includes('_T'), path.join(SPOOF, f)));
      }
    }
    writeFileSync(file, JSON.stringify(out));
    console.log(`generated and detected ${out.length} images in ${((Date.now() - started) / 1000).toFixed(0)} s (cached in ${dir})`);
  }
  out = out.filter((x) => existsSync(x.file));
  return out;
}

// Stage 2: the liveness measurements (gates open, network, signals; the configured gates applied here).
async function measureOne(a: Acquired): Promise<Measured> {
  const { file: _f, box, ...meta } = a;
  if (!box) return { ...meta, status: 'no-face' };
  const img = await face.decode(new Uint8Array(readFileSync(a.file)));
  const t = performance.now();
  const cpu = process.cpuUsage();
  const m = await measurer.measure(img, box);
  const used = process.cpuUsage(cpu);
  const failures = gateFailures(m.exposure, box.width, GATES);
  return {
    ...meta,
    status: failures.length ? 'quality' : 'ok',
    ...(failures.length ? { failures } : {}),
    cnn: m.cnn,
    signals: m.signals ?? undefined,
    exposure: m.exposure,
    faceWidthPx: box.width,
    ms: performance.now() - t,
    cpuMs: (used.user + used.system) / 1000,
  };
}
async function measureSet(dir: string, set: Acquired[]): Promise<Measured[]> {
  const file = path.join(dir, `measured-${SIGNALS_VERSION}-${engine.hasNetwork ? 'cnn' : 'nocnn'}.json`);
  let out: Measured[] = !noCache && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Measured[]) : [];
  if (out.length === 0) {
    const started = Date.now();
    for (const a of set) out.push(await measureOne(a));
    writeFileSync(file, JSON.stringify(out));
    console.log(`measured ${out.length} images in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  // The gates are applied again: a cached measurement follows the gates now configured.
  return out.map((m) => {
    if (m.status === 'no-face' || !m.exposure) return m;
    const failures = gateFailures(m.exposure, m.faceWidthPx!, GATES);
    return { ...m, status: failures.length ? 'quality' : 'ok', failures: failures.length ? failures : undefined };
  });
}

const setDir = path.join(CACHE_DIR, `${GEN_VERSION}-${PER_SPLIT}-${LFW_STEP}`);
const all: Measured[] = await measureSet(setDir, await acquireSet(setDir, ['tune', 'heldout'], true));
for (const part of UNTOUCHED) {
  const partDir = path.join(CACHE_DIR, `${GEN_VERSION}-${part}-${PER_SPLIT}`);
  all.push(...(await measureSet(partDir, await acquireSet(partDir, [part], false))));
}
// The public samples (never in the repo): measured on each run.
const publicSamples = publicSampleFiles(PUBLIC_DIR);
if (publicSamples.length === 0) console.log(`NOTE: no public samples in ${PUBLIC_DIR} (set BIOSTATION_LIVENESS_PUBLIC; see bench/liveness/generalise.ts): real samples = spoof-samples only`);
for (const p of publicSamples) {
  const m = await measureOne(await acquire(`public/${p.name}`, 'heldout', p.set, p.label === 'bona fide', p.file));
  all.push(m);
}

const INPUTS = ['cnn', ...SIGNAL_NAMES] as FusionModel['inputs'];
const featureOf = (m: Measured, name: FusionModel['inputs'][number]): number => (name === 'cnn' ? (m.cnn ? cnnLogit(m.cnn) : 0) : m.signals![name]);
const ok = (ms: Measured[]): Measured[] => ms.filter((m) => m.status === 'ok');
const scoreWith = (model: FusionModel) => (m: Measured): number => {
  let z = model.bias;
  model.inputs.forEach((n, i) => (z += (model.weights[i] * (featureOf(m, n) - model.mean[i])) / model.std[i]));
  return 1 / (1 + Math.exp(-z));
};
const defaultScore = (m: Measured): number => engine.decide(m.cnn ?? null, m.signals!, { meanLuma: 0, clipped: 0, sharpness: 0 }).probability;
const T = engine.hasNetwork ? DEFAULT_LIVENESS_TUNING.threshold : DEFAULT_LIVENESS_TUNING.thresholdNoCnn;

/** Sets of real (not generated) samples. */
const REAL_SETS = new Set(['spoof-samples', 'public', 'public-other', 'nuaa', 'replay']);
const synthetic = (m: Measured): boolean => !REAL_SETS.has(m.set);
const tune = ok(all.filter((m) => m.split === 'tune' && synthetic(m)));
const dev = ok(all.filter((m) => m.split === 'heldout' && synthetic(m)));
/** Real samples with a label the check is meant for (disguise and deepfakes left out), judged by the gates. */
const real = ok(all.filter((m) => m.set === 'spoof-samples' || m.set === 'public' || m.set === 'nuaa' || m.set === 'replay'));

console.log(`\nWhat the synthetic attacks can and cannot show: they test whether an input reacts to the artefacts the
generator draws (halftone, subpixel grids, borders, glare, blur, a camera model); they cannot show performance on
real paper, inks, screens, lenses and sensors, nor on attacks made to defeat these inputs. The real samples are
few (${real.filter((m) => !m.bonaFide && m.set !== 'nuaa' && m.set !== 'replay').length} attacks, ${real.filter((m) => m.bonaFide && m.set !== 'nuaa' && m.set !== 'replay').length} bona fide): a verdict on them is a case, not a rate; NUAA (real print attacks, ${real.filter((m) => !m.bonaFide && m.set === 'nuaa').length} imposter and ${real.filter((m) => m.bonaFide && m.set === 'nuaa').length} client crops judged, ${all.filter((m) => m.set === 'nuaa').length - real.filter((m) => m.set === 'nuaa').length} refused or faceless) gives rates, on tight face crops the network was not made for; the screen replays (${real.filter((m) => !m.bonaFide && m.set === 'replay').length} attack and ${real.filter((m) => m.bonaFide && m.set === 'replay').length} bona fide captures judged, ${new Set(real.filter((m) => m.set === 'replay').map((m) => replaySource(m.id))).size} sources, frames of one video strongly correlated) give rates per source.`);

// 1. each input alone: chosen on the tune part, scored on the development part and on each real sample
console.log(`\n1. Each input alone: direction and threshold (BPCER 3 % on each tune bona fide set) from the tune part; BPCER / APCER on the heldout (development) part; L / A = called live / attack on each real sample ((A) attack, (B) bona fide)`);
console.table(inputsAlone(tune, dev, real, engine.hasNetwork));

// 2. fusions compared: 2-fold on the tune part (fit on one half of the photos, scored on the other)
const fusions: Record<string, FusionModel['inputs']> = {
  'network alone (logistic)': ['cnn'],
  'texture alone (LBP)': [...TEXTURE_SIGNALS],
  'scalar signals only': [...SCALAR_SIGNALS],
  'signals only (scalar + texture)': [...SIGNAL_NAMES],
  'network + scalar signals': ['cnn', ...SCALAR_SIGNALS],
  'network + texture': ['cnn', ...TEXTURE_SIGNALS],
  'network + all signals': INPUTS,
  'network log-odds as is + all signals as corrections': INPUTS,
};
/** Fusions whose network input keeps its own log-odds (coefficient fixed at 1), the signals fitted as corrections. */
const OFFSET_FUSIONS = new Set(['network log-odds as is + all signals as corrections']);
console.log('\n2. Fusions, 2-fold cross-validation on the tune part: AUC, APCER (worst attack type) at BPCER 3 %');
const fusionRows: Array<Record<string, string>> = [];
let chosen: { label: string; names: FusionModel['inputs']; worst: number; auc: number } | null = null;
const half = (m: Measured): number => fnv1a(m.id) % 2;
/** Each set weighs the same within its class (lfw-dev's ~1,900 tune photos would otherwise drown live-camera's). */
const setWeight = (ms: Measured[]): ((m: Measured) => number) => {
  const n = new Map<string, number>();
  for (const m of ms) n.set(m.set, (n.get(m.set) ?? 0) + 1);
  return (m) => 1 / n.get(m.set)!;
};
/** The threshold that keeps BPCER <= p on every bona fide set (the lowest of the per-set thresholds). */
function bonaFideThreshold(scored: Array<{ m: Measured; s: number }>, p: number): number {
  const sets = [...new Set(scored.map((x) => x.m.set))];
  return Math.min(...sets.map((set) => thresholdAtBpcer(scored.filter((x) => x.m.set === set).map((x) => x.s), p)));
}
const rowsOf = (ms: Measured[], names: FusionModel['inputs']): Row[] => {
  const w = setWeight(ms);
  return ms.map((m) => ({ x: names.map((n) => featureOf(m, n)), live: m.bonaFide, w: w(m) }));
};
for (const [label, names] of Object.entries(fusions)) {
  if (names.includes('cnn') && !engine.hasNetwork) continue;
  const scored: Array<{ m: Measured; s: number }> = [];
  for (const f of [0, 1]) {
    const model = fitLogistic(rowsOf(tune.filter((m) => half(m) !== f), names), names, undefined, undefined, OFFSET_FUSIONS.has(label) ? 'cnn' : undefined);
    for (const m of tune.filter((x) => half(x) === f)) scored.push({ m, s: scoreWith(model)(m) });
  }
  const b = scored.filter((x) => x.m.bonaFide).map((x) => x.s);
  const t = bonaFideThreshold(scored.filter((x) => x.m.bonaFide), 0.03);
  const worst = Math.max(...ATTACK_TYPES.map((type) => rate(scored.filter((x) => x.m.set === type).map((x) => x.s), (s) => s >= t)));
  const a = auc(b, scored.filter((x) => !x.m.bonaFide).map((x) => x.s));
  fusionRows.push({ fusion: label, AUC: a.toFixed(4), 'worst APCER @ BPCER 3 %': pct(worst) });
  if (!chosen || a > chosen.auc) chosen = { label, names, worst, auc: a };
}
console.table(fusionRows);
const forced = process.argv.indexOf('--fusion');
if (forced > 0) {
  const label = process.argv[forced + 1];
  if (!fusions[label]) throw new Error(`--fusion: one of ${Object.keys(fusions).join(' | ')}`);
  chosen = { label, names: fusions[label], worst: NaN, auc: NaN };
}
console.log(`fusion fitted with --fit: ${chosen?.label} (${forced > 0 ? 'given by --fusion' : 'highest cross-validated AUC'})`);

// 2b. the fusion chosen by a rule fitting the generator cannot win
if (engine.hasNetwork && real.length > 0) {
  console.log('\n2b. Fusions, leave-one-attack-family-out (fitted on tune without the family, threshold at BPCER 3 % on tune bona fide, APCER on that family of the heldout part), and the real-sample rule (fitted on all of tune: must not call live a real attack the network alone refuses, nor refuse a real bona fide sample it passes)');
  const { rows, chosen: rule } = chooseFusion(tune, dev, real);
  console.table(rows);
  console.log(`   best by the rule: ${rule.label}, worst left-out family APCER ${(100 * rule.worstLeftOut).toFixed(1)} % at BPCER 3 %. The default engine is ${DEFAULT_LIVENESS_TUNING.fusion.inputs.length === 1 ? 'the network alone at its own threshold' : 'the fusion in tuning.ts'} ${T} (see src/liveness/passive/README.md: at BPCER 3 % on these bona fide sets no candidate comes near APCER 5 %)`);
}

if (fit) {
  const names = chosen!.names;
  const model = fitLogistic(rowsOf(tune, names), names, undefined, undefined, OFFSET_FUSIONS.has(chosen!.label) ? 'cnn' : undefined);
  const noCnn = fitLogistic(rowsOf(tune, [...SIGNAL_NAMES]), [...SIGNAL_NAMES]);
  const r = (v: number[]): number[] => v.map((x) => Number(x.toPrecision(5)));
  const print = (fm: FusionModel): string => JSON.stringify({ inputs: fm.inputs, mean: r(fm.mean), std: r(fm.std), weights: r(fm.weights), bias: Number(fm.bias.toPrecision(5)) });
  const bScores = tune.filter((m) => m.bonaFide).map((m) => ({ m, s: scoreWith(model)(m) }));
  console.log('\nFitted on the tune part (copy into src/liveness/passive/tuning.ts):');
  console.log(`  fusion: ${print(model)},`);
  console.log(`  fusionNoCnn: ${print(noCnn)},`);
  console.log(`  threshold at tune BPCER 1 / 2 / 3 % (every bona fide set): ${[0.01, 0.02, 0.03].map((p) => bonaFideThreshold(bScores, p).toFixed(4)).join(' / ')}`);
  const nScores = tune.filter((m) => m.bonaFide).map((m) => ({ m, s: scoreWith(noCnn)(m) }));
  console.log(`  thresholdNoCnn at tune BPCER 1 / 2 / 3 % (every bona fide set): ${[0.01, 0.02, 0.03].map((p) => bonaFideThreshold(nScores, p).toFixed(4)).join(' / ')}`);
}

// 3. the default engine (tuning.ts) on each part
const PART_NOTE: Record<Split, string> = {
  tune: 'fitting and thresholds',
  heldout: 'development: looked at while choosing the gates and fusions',
  fresh: 'untouched until its single run of 2026-11-24T19:29Z: other held-out people, new seeds',
  fresh2: 'untouched: made after the two views were chosen; other held-out people than heldout and fresh, new seeds',
};
const partRuns: Partial<Record<Split, number>> = {};
for (const part of UNTOUCHED) {
  const log = path.join(CACHE_DIR, `${part}-runs-${GEN_VERSION}-${PER_SPLIT}.log`);
  appendFileSync(log, `${new Date().toISOString()} gates ${JSON.stringify(GATES)} threshold ${T} views ${JSON.stringify(DEFAULT_LIVENESS_TUNING.views)}\n`);
  partRuns[part] = readFileSync(log, 'utf8').trim().split('\n').length;
}
for (const split of ['tune', 'heldout', ...UNTOUCHED] as Split[]) {
  const part = all.filter((m) => m.split === split && synthetic(m));
  console.log(`\n3${{ tune: 'a', heldout: 'b', fresh: 'c', fresh2: 'd' }[split]}. Default engine (src/liveness/passive/tuning.ts: ${engine.hasNetwork ? `fusion of ${DEFAULT_LIVENESS_TUNING.fusion.inputs.length === 1 ? 'the network alone' : 'network + signals'}, views ${JSON.stringify(DEFAULT_LIVENESS_TUNING.views)}` : 'signals only'}), threshold ${T}, gates ${JSON.stringify(GATES)}, ${split} part (${PART_NOTE[split]})${partRuns[split] ? `: printed ${partRuns[split]} time(s) so far with this generator (.cache/liveness-bench/${split}-runs-${GEN_VERSION}-${PER_SPLIT}.log)` : ''}`);
  const rows: Array<Record<string, string | number>> = [];
  for (const set of ['live-camera', 'lfw', ...ATTACK_TYPES]) {
    const ms = part.filter((m) => m.set === set);
    if (ms.length === 0) continue;
    const okMs = ok(ms);
    const scores = okMs.map(defaultScore);
    const bona = ms[0].bonaFide;
    rows.push({
      set,
      kind: bona ? 'bona fide' : 'attack',
      images: ms.length,
      'no face': ms.filter((m) => m.status === 'no-face').length,
      'quality gate': ms.filter((m) => m.status === 'quality').length,
      judged: okMs.length,
      'BPCER / APCER': bona ? `BPCER ${pct(rate(scores, (s) => s < T))}` : `APCER ${pct(rate(scores, (s) => s >= T))}`,
    });
  }
  console.table(rows);
}

// 4. DET: APCER per attack type at fixed BPCER (threshold set on the part's bona fide)
for (const split of ['heldout', ...UNTOUCHED] as Split[]) {
  const part = ok(all.filter((m) => m.split === split && synthetic(m)));
  for (const bset of ['live-camera', 'live-camera + lfw']) {
    if (bset.includes('lfw') && !part.some((m) => m.set === 'lfw')) continue; // the fresh part has no lfw photos of its own
    const b = part.filter((m) => m.bonaFide && (bset.includes('lfw') || m.set === 'live-camera')).map(defaultScore);
    if (b.length === 0) continue;
    console.log(`\n4. DET, ${split} part, bona fide = ${bset} (${b.length}): APCER per attack type at BPCER`);
    const det: Array<Record<string, string>> = [];
    for (const p of [0.01, 0.03, 0.05, 0.1]) {
      const t = thresholdAtBpcer(b, p);
      const row: Record<string, string> = { BPCER: pct(p, 0), threshold: t.toFixed(4) };
      for (const type of ATTACK_TYPES) row[type] = pct(rate(part.filter((m) => m.set === type).map(defaultScore), (s) => s >= t));
      det.push(row);
    }
    console.table(det);
  }
}

// 4b. why bona fide captures fail: the live-camera errors by camera degradation, and the exposure gate swept
const liveCam = all.filter((m) => m.set === 'live-camera' && (m.split === 'tune' || m.split === 'heldout'));
console.log(`\n4b. live-camera (tune + heldout, ${liveCam.length}) by the camera recipe of each capture (bench/liveness/attacks.ts), default engine at ${T}`);
console.table(degradationTable(liveCam, (m) => liveCameraRecipe(fnv1a(m.id)), defaultScore, T));
for (const split of ['tune', 'heldout'] as Split[]) {
  console.log(`\n4c. Minimum mean face luma (gate) swept, ${split} part: images refused as unjudgeable / error rate (BPCER or APCER) among the rest, threshold ${T}; configured: ${GATES.minMeanLuma}`);
  console.table(exposureGateSweep(all.filter((m) => m.split === split && synthetic(m) && m.status !== 'no-face'), GATES, defaultScore, T, [35, 50, 60, 70, 80]));
}

// 5. lfw-dev pass rate and the labelled samples
const lfw = all.filter((m) => m.set === 'lfw');
const lfwPass = lfw.filter((m) => m.status === 'ok' && defaultScore(m) >= T).length;
console.log(`\n5. lfw-dev photos passing at the default threshold: ${lfwPass} / ${lfw.length} = ${pct(lfwPass / lfw.length, 2)} (no face ${lfw.filter((m) => m.status === 'no-face').length}, quality gate ${lfw.filter((m) => m.status === 'quality').length})`);
const nuaaAll = all.filter((x) => x.set === 'nuaa');
if (nuaaAll.length) {
  for (const bona of [true, false]) {
    const ms = nuaaAll.filter((m) => m.bonaFide === bona);
    const judged = ok(ms).map(defaultScore);
    console.log(`   NUAA ${bona ? 'clients (bona fide)' : 'imposters (print attacks)'}: ${ms.length} crops, no face ${ms.filter((m) => m.status === 'no-face').length}, quality gate ${ms.filter((m) => m.status === 'quality').length} (${[...new Set(ms.flatMap((m) => m.failures ?? []))].map((f) => `${f} ${ms.filter((m) => m.failures?.includes(f)).length}`).join(', ') || '-'}), ${bona ? `BPCER ${pct(rate(judged, (s) => s < T))}` : `APCER ${pct(rate(judged, (s) => s >= T))}`} of ${judged.length}`);
  }
}
if (nuaaAll.length) {
  // Several images of one session: NUAA crops of one subject folder (ClientFace_<subject>_... /
  // ImposterFace_<subject>_...) in file order, judged ones only, K at a time.
  console.log('   NUAA, K images of one subject per request (consecutive judged crops of a folder), default threshold: BPCER / APCER with every image required to pass, and with the mean log-odds (src/liveness/passive/session.ts)');
  console.table(sessionTable(ok(nuaaAll), defaultScore, T, [1, 2, 3, 5]));
}
const replayAll = all.filter((x) => x.set === 'replay');
if (replayAll.length) {
  // Real screen replays (bench/liveness/public-replay.sh): per source, both classes from one camera.
  console.log('   Real screen replays, per source (crop-*: tight face crops; others: video frames), default engine: no face / quality gate, BPCER / APCER at the default threshold, AUC of the default score');
  const rows: Array<Record<string, string | number>> = [];
  const inGroup = (m: Measured, g: string): boolean => (g === 'all' ? true : g === 'all videos' ? !replaySource(m.id).startsWith('crop-') : g === 'all crops' ? replaySource(m.id).startsWith('crop-') : replaySource(m.id) === g);
  for (const source of [...[...new Set(replayAll.map((m) => replaySource(m.id)))].sort(), 'all videos', 'all crops', 'all']) {
    const ms = replayAll.filter((m) => inGroup(m, source));
    const b = ms.filter((m) => m.bonaFide);
    const a = ms.filter((m) => !m.bonaFide);
    const bs = ok(b).map(defaultScore);
    const as = ok(a).map(defaultScore);
    const cell = (xs: Measured[], judged: number[], bona: boolean): string =>
      xs.length ? `${xs.filter((m) => m.status === 'no-face').length} / ${xs.filter((m) => m.status === 'quality').length}, ${bona ? 'BPCER' : 'APCER'} ${pct(rate(judged, (s) => (bona ? s < T : s >= T)))} of ${judged.length}` : '-';
    rows.push({ source, 'bona fide': cell(b, bs, true), attack: cell(a, as, false), AUC: bs.length && as.length ? auc(bs, as).toFixed(3) : '-' });
  }
  console.table(rows);
  // The threshold swept: what the real sets would say of a lower threshold (per application, the
  // service's setting), beside the synthetic heldout part and lfw-dev. A table, not a choice.
  console.log('   Threshold swept (default score): BPCER / APCER of the real sets among judged images, synthetic heldout APCER per attack type, lfw-dev pass rate');
  const sweep: Array<Record<string, string | number>> = [];
  const judgedScores = (f: (m: Measured) => boolean): number[] => ok(all.filter(f)).map(defaultScore);
  const heldout = ok(all.filter((m) => m.split === 'heldout' && synthetic(m)));
  for (const t of [0.5, 0.3, 0.2, 0.1, 0.05, 0.02]) {
    const ba = (f: (m: Measured) => boolean): string => `${pct(rate(judgedScores((m) => f(m) && m.bonaFide), (s) => s < t))} / ${pct(rate(judgedScores((m) => f(m) && !m.bonaFide), (s) => s >= t))}`;
    sweep.push({
      threshold: t,
      'replay videos': ba((m) => m.set === 'replay' && inGroup(m, 'all videos')),
      'replay crops': ba((m) => m.set === 'replay' && inGroup(m, 'all crops')),
      NUAA: ba((m) => m.set === 'nuaa'),
      'heldout APCER print / pr.-cl. / screen / scr.-cl. / cutout': ATTACK_TYPES.map((type) => pct(rate(heldout.filter((m) => m.set === type).map(defaultScore), (s) => s >= t), 0)).join(' / '),
      'lfw-dev pass': pct(lfw.filter((m) => m.status === 'ok' && defaultScore(m) >= t).length / lfw.length, 2),
    });
  }
  console.table(sweep);
}
for (const m of all.filter((x) => REAL_SETS.has(x.set) && x.set !== 'nuaa' && x.set !== 'replay')) {
  const s = m.status === 'ok' ? defaultScore(m) : NaN;
  console.log(`   ${m.id} (${m.set === 'public-other' ? 'outside scope' : m.bonaFide ? 'live' : 'attack'}): ${m.status === 'ok' ? `P(live) ${s.toFixed(4)} -> ${s >= T ? 'live' : 'attack'}; network p(real) ${m.cnn?.real.toFixed(4) ?? '-'}` : m.status}`);
}

// 6. time per face. The cached measurements time the bench's own pass (gates open, network AND every
// signal); --time N times the default engine's check as the API runs it (gates, crop, network; signals
// only when the default fusion weighs them) on N cached images, fresh now, one onnxruntime thread.
const quantiles = (xs: number[]): string => {
  const v = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  const q = (p: number): string => v[Math.min(v.length - 1, Math.floor(p * v.length))].toFixed(1);
  return `median ${q(0.5)} ms, p95 ${q(0.95)} ms (n = ${v.length})`;
};
const okAll = ok(all);
const load = (): string => `load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores`;
if (okAll.some((m) => m.cpuMs !== undefined)) {
  console.log(`\n6. Time per face, the bench's measuring pass (network + every signal), one thread: CPU ${quantiles(okAll.map((m) => m.cpuMs!))}; wall ${quantiles(okAll.map((m) => m.ms!))} (${load()} now; wall includes waiting for a core)`);
}
const timeN = arg('--time', 0);
if (timeN > 0) {
  const byId = new Map(all.map((m) => [m.id, m]));
  const files = [...(await acquireSet(setDir, ['tune', 'heldout'], true))].filter((a) => a.box && byId.get(a.id)?.status === 'ok');
  const pick = files.filter((_, i) => i % Math.max(1, Math.floor(files.length / timeN)) === 0).slice(0, timeN);
  const cpu: number[] = [];
  const wall: number[] = [];
  for (const a of pick) {
    const img = await face.decode(new Uint8Array(readFileSync(a.file)));
    await engine.check(img, a.box!); // warm (first run of a shape)
    const t = performance.now();
    const c = process.cpuUsage();
    await engine.check(img, a.box!);
    const u = process.cpuUsage(c);
    wall.push(performance.now() - t);
    cpu.push((u.user + u.system) / 1000);
  }
  console.log(`   --time ${pick.length}: the default engine's check (as the API runs it), one thread: CPU ${quantiles(cpu)}; wall ${quantiles(wall)} (${load()})`);
  recordSummary('liveness', 'CPU time per face (default check), median', `${[...cpu].sort((x, y) => x - y)[cpu.length >> 1].toFixed(1)} ms`, '<= 15 ms');
} else if (okAll.some((m) => m.cpuMs !== undefined)) {
  const v = okAll.map((m) => m.cpuMs!).sort((a, b) => a - b);
  recordSummary('liveness', 'CPU time per face (network + every signal), median', `${v[v.length >> 1].toFixed(1)} ms`, '<= 15 ms');
}
recordSummary('liveness', 'lfw-dev pass rate', pct(lfwPass / lfw.length, 2), '>= 97 %');
