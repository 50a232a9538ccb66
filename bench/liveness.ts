/**
 * Passive liveness benchmark (`npm run bench:liveness [-- --per-split N] [--fit] [--no-cache] [--quick]`).
 *
 * Sets (bench/liveness/attacks.ts; identity-disjoint 'tune' and 'heldout' parts of lfw-dev):
 *  - bona fide: 'live-camera' (the photos through a camera model: blur, noise, low light, JPEG) and
 *    'lfw' (every lfw-dev photo as it is, the acceptance set: >= 97 % must pass);
 *  - attacks: print, print-closeup, screen, screen-closeup, cutout;
 *  - the three labelled Silent-Face samples of faces-misc/spoof-samples.
 * Every image goes through the station's own path: decode, face detector, dominant face box, then the
 * liveness engine (quality gates, network, signals). Measurements are cached in .cache/liveness-bench/.
 *
 * Prints: each signal alone (tune part), the fusions compared (2-fold on the tune part), APCER per
 * attack type and BPCER per bona fide set at the default threshold (ISO/IEC 30107-3), for the tune and
 * the held-out part, a DET table for the held-out part, and time per face. `--fit` also prints the
 * fusion and threshold fitted on the tune part, for src/liveness/passive/tuning.ts.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createFaceEngine } from '../src/face/index.js';
import { PassiveLivenessQualityError, type CnnScores, type PassiveLivenessEngine } from '../src/liveness/passive/engine.js';
import { cnnLogit, type FusionModel } from '../src/liveness/passive/engine.js';
import { createPassiveLivenessEngine, DEFAULT_LIVENESS_TUNING } from '../src/liveness/passive/index.js';
import { SCALAR_SIGNALS, SIGNAL_NAMES, TEXTURE_SIGNALS, type Signals } from '../src/liveness/passive/signals.js';
import { ATTACK_TYPES, fnv1a, generateSet, type Split } from './liveness/attacks.js';
import { auc, fitLogistic, rate, thresholdAtBpcer, type Row } from './liveness/fit.js';
import { recordSummary } from './lib/summary.js';

const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const quick = process.argv.includes('--quick');
const fit = process.argv.includes('--fit');
const noCache = process.argv.includes('--no-cache');
const PER_SPLIT = arg('--per-split', quick ? 30 : 100);
const LFW_STEP = quick ? 10 : 1;
const DATASETS = process.env.BIOSTATION_DATASETS ?? path.resolve('../shared/datasets');
const LFW = path.join(DATASETS, 'lfw-dev', 'images');
const SPOOF = path.join(DATASETS, 'faces-misc', 'spoof-samples');
const CACHE_DIR = path.resolve('.cache/liveness-bench');
/** Bump when the generator or the detector path change (images and boxes are cached under it). */
const GEN_VERSION = 'g2';
/** Bump when the gates, the crop or the signals change. */
const SIGNALS_VERSION = 's3';

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
  /** Wall time of the check, ms. */
  ms?: number;
  /** CPU time of this process during the check (user + system), ms: the cost on one core, whatever the load. */
  cpuMs?: number;
}

const pct = (x: number, d = 1): string => (Number.isNaN(x) ? '-' : `${(100 * x).toFixed(d)} %`);
const face = await createFaceEngine({ intraOpNumThreads: 1 });
const engine: PassiveLivenessEngine = await createPassiveLivenessEngine({ intraOpNumThreads: 1 });
if (!engine.hasNetwork) console.log('NOTE: liveness network absent (run `npm run models`): signals only');

// Stage 1: the images and their face boxes (generator and detector), cached.
const setDir = path.join(CACHE_DIR, `${GEN_VERSION}-${PER_SPLIT}-${LFW_STEP}`);
const acquiredFile = path.join(setDir, 'acquired.json');
let acquired: Acquired[] = !noCache && existsSync(acquiredFile) ? (JSON.parse(readFileSync(acquiredFile, 'utf8')) as Acquired[]) : [];
if (acquired.length === 0) {
  mkdirSync(setDir, { recursive: true });
  const started = Date.now();
  const acquire = async (id: string, split: Split, set: string, bonaFide: boolean, file: string): Promise<void> => {
    const img = await face.decode(new Uint8Array(readFileSync(file)));
    const dets = await face.detect(img);
    acquired.push({ id, split, set, bonaFide, file, box: dets.length ? dets[0].box : null });
  };
  for await (const s of generateSet(LFW, PER_SPLIT)) {
    const file = path.join(setDir, `${s.id.replace(/\//g, '_')}.jpg`);
    writeFileSync(file, s.jpeg);
    await acquire(s.id, s.split, s.type, s.bonaFide, file);
    if (acquired.length % 200 === 0) console.log(`  ${acquired.length} samples generated (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }
  const files = readdirSync(LFW).filter((f) => f.endsWith('.jpg')).sort().filter((_, i) => i % LFW_STEP === 0);
  for (const f of files) {
    const split: Split = fnv1a(f.replace(/_\d{4}\.jpg$/, '')) % 2 === 0 ? 'tune' : 'heldout';
    await acquire(`lfw/${f}`, split, 'lfw', true, path.join(LFW, f));
  }
  for (const f of ['image_F1.jpg', 'image_F2.jpg', 'image_T1.jpg']) {
    if (existsSync(path.join(SPOOF, f))) await acquire(`spoof-samples/${f}`, 'heldout', 'spoof-samples', f.includes('_T'), path.join(SPOOF, f));
  }
  writeFileSync(acquiredFile, JSON.stringify(acquired));
  console.log(`generated and detected ${acquired.length} images in ${((Date.now() - started) / 1000).toFixed(0)} s (cached in ${setDir})`);
}
acquired = acquired.filter((a) => existsSync(a.file));

// Stage 2: the liveness measurements (gates, network, signals), cached per engine version.
const measuredFile = path.join(setDir, `measured-${SIGNALS_VERSION}-${engine.hasNetwork ? 'cnn' : 'nocnn'}.json`);
let all: Measured[] = !noCache && existsSync(measuredFile) ? (JSON.parse(readFileSync(measuredFile, 'utf8')) as Measured[]) : [];
if (all.length === 0) {
  const started = Date.now();
  for (const a of acquired) {
    const { file: _f, box, ...meta } = a;
    if (!box) {
      all.push({ ...meta, status: 'no-face' });
      continue;
    }
    const img = await face.decode(new Uint8Array(readFileSync(a.file)));
    const t = performance.now();
    const cpu = process.cpuUsage();
    try {
      const m = await engine.measure(img, box);
      const used = process.cpuUsage(cpu);
      all.push({ ...meta, status: 'ok', cnn: m.cnn, signals: m.signals ?? undefined, ms: performance.now() - t, cpuMs: (used.user + used.system) / 1000 });
    } catch (e) {
      if (!(e instanceof PassiveLivenessQualityError)) throw e;
      all.push({ ...meta, status: 'quality', failures: e.failures });
    }
  }
  writeFileSync(measuredFile, JSON.stringify(all));
  console.log(`measured ${all.length} images in ${((Date.now() - started) / 1000).toFixed(0)} s`);
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

const tune = ok(all.filter((m) => m.split === 'tune' && m.set !== 'spoof-samples'));
const generated = (ms: Measured[]): Measured[] => ms.filter((m) => m.set !== 'lfw' && m.set !== 'spoof-samples');

// 1. each signal alone (tune part; direction chosen there)
console.log(`\n1. Each input alone, tune part (${tune.filter((m) => m.bonaFide).length} bona fide, ${tune.filter((m) => !m.bonaFide).length} attacks): AUC and APCER at BPCER 3 %`);
const alone: Array<Record<string, string | number>> = [];
for (const name of ['cnn', ...SCALAR_SIGNALS] as FusionModel['inputs']) {
  if (name === 'cnn' && !engine.hasNetwork) continue;
  const b = tune.filter((m) => m.bonaFide).map((m) => featureOf(m, name));
  const aAll = tune.filter((m) => !m.bonaFide).map((m) => featureOf(m, name));
  const sign = auc(b, aAll) >= 0.5 ? 1 : -1;
  const row: Record<string, string | number> = { input: name, direction: sign > 0 ? 'high = live' : 'low = live', AUC: (auc(b.map((v) => sign * v), aAll.map((v) => sign * v))).toFixed(3) };
  const t = thresholdAtBpcer(b.map((v) => sign * v), 0.03);
  for (const type of ATTACK_TYPES) row[type] = pct(rate(tune.filter((m) => m.set === type).map((m) => sign * featureOf(m, name)), (s) => s >= t));
  alone.push(row);
}
console.table(alone);

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
for (const split of ['tune', 'heldout'] as Split[]) {
  const part = all.filter((m) => m.split === split && m.set !== 'spoof-samples');
  console.log(`\n3${split === 'tune' ? 'a' : 'b'}. Default engine (src/liveness/passive/tuning.ts: ${engine.hasNetwork ? `fusion of ${DEFAULT_LIVENESS_TUNING.fusion.inputs.length === 1 ? 'the network alone' : 'network + signals'}` : 'signals only'}), threshold ${T}, ${split} part${split === 'heldout' ? ' (untouched by tuning)' : ''}`);
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

// 4. DET on the held-out part: APCER per attack type at fixed BPCER (threshold set on the held-out bona fide)
const held = ok(all.filter((m) => m.split === 'heldout' && m.set !== 'spoof-samples'));
for (const bset of ['live-camera', 'live-camera + lfw']) {
  const b = held.filter((m) => m.bonaFide && (bset.includes('lfw') || m.set === 'live-camera')).map(defaultScore);
  console.log(`\n4. DET, held-out part, bona fide = ${bset} (${b.length}): APCER per attack type at BPCER`);
  const det: Array<Record<string, string>> = [];
  for (const p of [0.01, 0.03, 0.05, 0.1]) {
    const t = thresholdAtBpcer(b, p);
    const row: Record<string, string> = { BPCER: pct(p, 0), threshold: t.toFixed(4) };
    for (const type of ATTACK_TYPES) row[type] = pct(rate(held.filter((m) => m.set === type).map(defaultScore), (s) => s >= t));
    det.push(row);
  }
  console.table(det);
}

// 5. lfw-dev pass rate and the labelled samples
const lfw = all.filter((m) => m.set === 'lfw');
const lfwPass = lfw.filter((m) => m.status === 'ok' && defaultScore(m) >= T).length;
console.log(`\n5. lfw-dev photos passing at the default threshold: ${lfwPass} / ${lfw.length} = ${pct(lfwPass / lfw.length, 2)} (no face ${lfw.filter((m) => m.status === 'no-face').length}, quality gate ${lfw.filter((m) => m.status === 'quality').length})`);
for (const m of all.filter((x) => x.set === 'spoof-samples')) {
  const s = m.status === 'ok' ? defaultScore(m) : NaN;
  console.log(`   ${m.id} (${m.bonaFide ? 'live' : 'attack'}): ${m.status === 'ok' ? `P(live) ${s.toFixed(4)} -> ${s >= T ? 'live' : 'attack'}; network p(real) ${m.cnn?.real.toFixed(4) ?? '-'}` : m.status}`);
}

// 6. time per face (gates + crop + network + signals + fusion inputs, one onnxruntime thread)
const quantiles = (xs: number[]): string => {
  const v = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  const q = (p: number): string => v[Math.min(v.length - 1, Math.floor(p * v.length))].toFixed(1);
  return `median ${q(0.5)} ms, p95 ${q(0.95)} ms (n = ${v.length})`;
};
const okAll = ok(all);
if (okAll.some((m) => m.cpuMs !== undefined)) {
  console.log(`\n6. Time per face, liveness only, one thread: CPU ${quantiles(okAll.map((m) => m.cpuMs!))}; wall ${quantiles(okAll.map((m) => m.ms!))}`);
  console.log(`   (wall time on this shared machine includes waiting for a core; load average ${(await import('node:os')).loadavg()[0].toFixed(1)} now)`);
  const v = okAll.map((m) => m.cpuMs!).sort((a, b) => a - b);
  recordSummary('liveness', 'CPU time per face, median', `${v[v.length >> 1].toFixed(1)} ms`, '<= 15 ms');
}
recordSummary('liveness', 'lfw-dev pass rate', pct(lfwPass / lfw.length, 2), '>= 97 %');
