/**
 * The parts of `npm run bench:liveness` that ask whether an input generalises beyond our attack
 * generator: each input alone on synthetic and on real samples, fusions chosen by leaving a whole
 * attack family out of the fit, the bona fide errors broken down by camera degradation, and the
 * exposure gate's effect. Pure functions over the bench's measurements (printing aside).
 *
 * Real samples: faces-misc/spoof-samples (Silent-Face's image_F1/F2 attacks, image_T1 live) and the
 * public samples of `publicSamples` when present (never in the repo).
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { cnnLogit, gateFailures, type CnnScores, type FusionModel, type LivenessGates } from '../../src/liveness/passive/engine.js';
import { SCALAR_SIGNALS, TEXTURE_SIGNALS, SIGNAL_NAMES, type Signals } from '../../src/liveness/passive/signals.js';
import type { FaceExposure } from '../../src/liveness/passive/signals.js';
import { ATTACK_TYPES, type CameraRecipe } from './attacks.js';
import { fitLogistic, rate, thresholdAtBpcer, auc, type Row } from './fit.js';
import { sessionDecision } from '../../src/liveness/passive/session.js';

/** One measured image as the bench keeps it (only what these sections read). */
export interface Judged {
  id: string;
  split: string;
  set: string;
  bonaFide: boolean;
  status: 'ok' | 'no-face' | 'quality';
  cnn?: CnnScores | null;
  signals?: Signals;
  exposure?: FaceExposure;
  faceWidthPx?: number;
}

type Input = FusionModel['inputs'][number];

/**
 * Public samples looked for in `dir` (BIOSTATION_LIVENESS_PUBLIC, default .cache/liveness-public), by the
 * file name they are saved under, with their label. Sources: DoubangoTelecom/FaceLivenessDetection-SDK
 * at 607afe9, assets/images/<name>.jpg (no licence file in that repository: local test cases only, never
 * committed), and the one named below. 'other' = outside what a passive 2-D check can see (disguise, deepfake): shown, not counted.
 */
export const PUBLIC_SAMPLES: Record<string, 'attack' | 'bona fide' | 'other'> = {
  'doubango-spoof.jpg': 'attack',
  'doubango-genuine.jpg': 'bona fide',
  'doubango-disguise.jpg': 'other',
  'doubango-deepfake.jpg': 'other',
  // minivision-ai/Silent-Face-Anti-Spoofing@c3e2048 images/sample/image_T2.jpg (Apache-2.0; removed from
  // the repository later): a bona fide phone photo beside faces-misc's image_T1 (bench/liveness/public-replay.sh).
  'silentface-image_T2.jpg': 'bona fide',
  // vietmoney/face-anti-spoofing@82b8ce8 data/test/ (Apache-2.0), labelled by that repository: a printed
  // photo held by hand (fake_002), a recapture of true_003 (fake_003), a recaptured selfie (fake_001).
  'vietmoney-fake_001.jpg': 'attack',
  'vietmoney-fake_002.jpg': 'attack',
  'vietmoney-fake_003.jpg': 'attack',
  'vietmoney-true_001.jpg': 'bona fide',
  'vietmoney-true_002.jpg': 'bona fide',
  'vietmoney-true_003.png': 'bona fide',
};

/**
 * A real print-attack set: NUAA Photograph Imposter Database face crops (203 x 203 webcam frames, cropped
 * around the face: clients = live people, imposters = their printed photos held to the webcam), as
 * redistributed in nvlong21/face_anti_spoofing@9f6ff86 `data/{ClientFace,ImposterFace}/<subject>/*.jpg`
 * (repository Apache-2.0; the database's own terms are research use: local measurement only, never
 * committed). Looked for as `<dir>/nuaa/client/*.jpg` and `<dir>/nuaa/imposter/*.jpg` (the bench used every
 * 40th file of each folder listing: 128 client and 188 imposter crops of 15 + 15 subjects).
 */
export const NUAA_DIR = 'nuaa';

/**
 * Real screen replays with bona fide captures of the same camera and session (README "Real screen
 * replays"): `<dir>/replay/<source>/{live,attack}/*.{jpg,png}`, written by bench/liveness/public-replay.sh
 * from public repositories pinned by commit (no licence files: local measurement only, never committed).
 * Sources named `crop-*` are tight face crops; the others full video frames.
 */
export const REPLAY_DIR = 'replay';

/** Sets of real samples that are many enough to give rates (AUC, BPCER / APCER): NUAA prints and the screen replays. */
export const REAL_RATE_SETS = ['nuaa', 'replay'] as const;

/** The replay source of a sample id (`.../replay-<source>-<live|attack>/<file>`), '' for other samples. */
export const replaySource = (id: string): string => /replay-(.+)-(?:live|attack)\//.exec(id)?.[1] ?? '';

/** The groups the real rates are printed for: NUAA, every replay, and the replays' full video frames alone. */
const REAL_RATE_GROUPS: Array<[string, (m: Judged) => boolean]> = [
  ['NUAA', (m) => m.set === 'nuaa'],
  ['replay', (m) => m.set === 'replay'],
  ['replay videos', (m) => m.set === 'replay' && !replaySource(m.id).startsWith('crop-')],
];

export function publicSampleFiles(dir: string): Array<{ file: string; name: string; label: 'attack' | 'bona fide' | 'other'; set: string }> {
  const named = Object.entries(PUBLIC_SAMPLES)
    .filter(([name]) => existsSync(path.join(dir, name)))
    .map(([name, label]) => ({ file: path.join(dir, name), name, label, set: label === 'other' ? 'public-other' : 'public' }));
  const nuaa = (['client', 'imposter'] as const).flatMap((k) => {
    const d = path.join(dir, NUAA_DIR, k);
    if (!existsSync(d)) return [];
    return readdirSync(d)
      .filter((f) => f.endsWith('.jpg'))
      .sort()
      .map((f) => ({ file: path.join(d, f), name: `nuaa-${k}/${f}`, label: (k === 'client' ? 'bona fide' : 'attack') as 'attack' | 'bona fide', set: 'nuaa' }));
  });
  const replayRoot = path.join(dir, REPLAY_DIR);
  const replay = (existsSync(replayRoot) ? readdirSync(replayRoot).sort() : []).flatMap((source) =>
    (['live', 'attack'] as const).flatMap((k) => {
      const d = path.join(replayRoot, source, k);
      if (!existsSync(d)) return [];
      return readdirSync(d)
        .filter((f) => /\.(jpg|png)$/.test(f))
        .sort()
        .map((f) => ({ file: path.join(d, f), name: `replay-${source}-${k}/${f}`, label: (k === 'live' ? 'bona fide' : 'attack') as 'attack' | 'bona fide', set: REPLAY_DIR }));
    }),
  );
  return [...named, ...nuaa, ...replay];
}

const pct = (x: number, d = 1): string => (Number.isNaN(x) ? '-' : `${(100 * x).toFixed(d)} %`);
const featureOf = (m: Judged, name: Input): number => (name === 'cnn' ? cnnLogit(m.cnn!) : m.signals![name]);
const BONA_SETS = ['live-camera', 'lfw'];

/** The threshold that keeps BPCER <= p on every bona fide set present (the lowest of the per-set thresholds). */
export function bonaFideThreshold(scored: Array<{ m: Judged; s: number }>, p: number): number {
  const sets = [...new Set(scored.map((x) => x.m.set))];
  return Math.min(...sets.map((set) => thresholdAtBpcer(scored.filter((x) => x.m.set === set).map((x) => x.s), p)));
}

const setWeight = (ms: Judged[]): ((m: Judged) => number) => {
  const n = new Map<string, number>();
  for (const m of ms) n.set(m.set, (n.get(m.set) ?? 0) + 1);
  return (m) => 1 / n.get(m.set)!;
};
const rowsOf = (ms: Judged[], names: Input[]): Row[] => {
  const w = setWeight(ms);
  return ms.map((m) => ({ x: names.map((n) => featureOf(m, n)), live: m.bonaFide, w: w(m) }));
};
const scoreWith = (model: FusionModel) => (m: Judged): number => {
  let z = model.bias;
  model.inputs.forEach((n, i) => (z += (model.weights[i] * (featureOf(m, n) - model.mean[i])) / model.std[i]));
  return z;
};
/** Named real samples by name, the NUAA crops and the replay captures counted. */
const lost = (names: string[]): string => {
  const n = names.filter((x) => x.startsWith('nuaa-')).length;
  const r = names.filter((x) => x.startsWith('replay-')).length;
  const named = names.filter((x) => !x.startsWith('nuaa-') && !x.startsWith('replay-'));
  return [...named, ...(n ? [`NUAA x${n}`] : []), ...(r ? [`replay x${r}`] : [])].join(' ') || '-';
};
const short = (id: string): string => (id.includes('/nuaa-') ? 'nuaa-' : id.includes('/replay-') ? 'replay-' : '') + path.basename(id).replace(/^doubango-/, 'db-').replace(/^vietmoney-/, 'vm-').replace(/\.(jpg|png)$/, '');

/**
 * Each input alone: direction and threshold (BPCER 3 % on every tune bona fide set) chosen on `tune`,
 * then BPCER per bona fide set and APCER per attack type on `evalPart`, and the verdict on every real
 * sample (L = called live, A = attack; the value after it is the input, sign-adjusted).
 */
export function inputsAlone(tune: Judged[], evalPart: Judged[], real: Judged[], withCnn: boolean): Array<Record<string, string>> {
  const rows: Array<Record<string, string>> = [];
  for (const name of [...(withCnn ? ['cnn'] : []), ...SCALAR_SIGNALS] as Input[]) {
    const b = tune.filter((m) => m.bonaFide).map((m) => featureOf(m, name));
    const a = tune.filter((m) => !m.bonaFide).map((m) => featureOf(m, name));
    const sign = auc(b, a) >= 0.5 ? 1 : -1;
    const t = bonaFideThreshold(tune.filter((m) => m.bonaFide).map((m) => ({ m, s: sign * featureOf(m, name) })), 0.03);
    const row: Record<string, string> = { input: name, 'AUC tune': auc(b.map((v) => sign * v), a.map((v) => sign * v)).toFixed(3) };
    for (const set of BONA_SETS) row[`BPCER ${set}`] = pct(rate(evalPart.filter((m) => m.set === set).map((m) => sign * featureOf(m, name)), (s) => s < t));
    for (const type of ATTACK_TYPES) row[type] = pct(rate(evalPart.filter((m) => m.set === type).map((m) => sign * featureOf(m, name)), (s) => s >= t), 0);
    for (const r of real.filter((x) => !(REAL_RATE_SETS as readonly string[]).includes(x.set))) row[`${short(r.id)}${r.bonaFide ? '(B)' : '(A)'}`] = sign * featureOf(r, name) >= t ? 'L' : 'A';
    for (const [label, inGroup] of REAL_RATE_GROUPS) {
      const ms = real.filter(inGroup);
      if (!ms.length) continue;
      const nb = ms.filter((x) => x.bonaFide).map((x) => sign * featureOf(x, name));
      const na = ms.filter((x) => !x.bonaFide).map((x) => sign * featureOf(x, name));
      row[`${label} AUC`] = auc(nb, na).toFixed(3);
      row[`${label} BPCER`] = pct(rate(nb, (v) => v < t), 0);
      row[`${label} APCER`] = pct(rate(na, (v) => v >= t), 0);
    }
    rows.push(row);
  }
  return rows;
}

export const FAMILIES: Record<string, readonly string[]> = {
  print: ['print', 'print-closeup'],
  screen: ['screen', 'screen-closeup'],
  cutout: ['cutout'],
};

export interface FusionVerdict {
  label: string;
  names: Input[];
  /** Worst APCER over the left-out families (each family's types scored by a model fitted without that family). */
  worstLeftOut: number;
  perFamily: Record<string, number>;
  /** Real attacks the network alone catches but this fusion calls live (both fitted on all of tune, each at BPCER 3 % on every tune bona fide set). */
  realAttacksLost: string[];
  /** Real bona fide samples the network alone passes but this fusion refuses. */
  realBonaFideLost: string[];
  /** BPCER / APCER on each real rate group present (NUAA prints, screen replays, their video frames) at this operating point. */
  realRates: Record<string, { bpcer: number; apcer: number }>;
  eligible: boolean;
}

/**
 * Fusions chosen by a rule the generator cannot win: (1) leave-one-attack-family-out: fitted on the
 * tune part without one family (print / screen / cutout), threshold at BPCER 3 % on every tune bona
 * fide set, APCER on that family's types of `evalPart`; the score is the worst family; (2) at the
 * same operating point (fitted on the whole tune part, BPCER 3 % on every tune bona fide set) the
 * fusion must not call live any real attack that the network alone refuses, nor refuse a real bona
 * fide sample it passes. The network alone stays unless an eligible fusion has a lower worst
 * left-out APCER.
 */
export function chooseFusion(tune: Judged[], evalPart: Judged[], real: Judged[]): { rows: Array<Record<string, string>>; chosen: FusionVerdict } {
  const candidates: Record<string, Input[]> = { 'network alone': ['cnn'] };
  for (const s of SCALAR_SIGNALS) candidates[`network + ${s}`] = ['cnn', s];
  candidates['network + texture (LBP)'] = ['cnn', ...TEXTURE_SIGNALS];
  candidates['network + all signals'] = ['cnn', ...SIGNAL_NAMES];
  const verdicts: FusionVerdict[] = [];
  const operate = (names: Input[]): ((m: Judged) => boolean) => {
    const score = scoreWith(fitLogistic(rowsOf(tune, names), names));
    const t = bonaFideThreshold(tune.filter((m) => m.bonaFide).map((m) => ({ m, s: score(m) })), 0.03);
    return (m) => score(m) >= t;
  };
  const netLive = operate(['cnn']);
  for (const [label, names] of Object.entries(candidates)) {
    const perFamily: Record<string, number> = {};
    for (const [family, types] of Object.entries(FAMILIES)) {
      const train = tune.filter((m) => !types.includes(m.set));
      const model = fitLogistic(rowsOf(train, names), names);
      const score = scoreWith(model);
      const t = bonaFideThreshold(train.filter((m) => m.bonaFide).map((m) => ({ m, s: score(m) })), 0.03);
      perFamily[family] = rate(evalPart.filter((m) => types.includes(m.set)).map(score), (s) => s >= t);
    }
    const live = operate(names);
    const realAttacksLost = real.filter((r) => !r.bonaFide && !netLive(r) && live(r)).map((r) => short(r.id));
    const realBonaFideLost = real.filter((r) => r.bonaFide && netLive(r) && !live(r)).map((r) => short(r.id));
    const realRates: FusionVerdict['realRates'] = {};
    for (const [label, inGroup] of REAL_RATE_GROUPS) {
      const ms = real.filter(inGroup);
      if (ms.length) realRates[label] = { bpcer: rate(ms.filter((r) => r.bonaFide).map((r) => (live(r) ? 1 : 0)), (v) => v === 0), apcer: rate(ms.filter((r) => !r.bonaFide).map((r) => (live(r) ? 1 : 0)), (v) => v === 1) };
    }
    verdicts.push({ label, names, perFamily, worstLeftOut: Math.max(...Object.values(perFamily)), realAttacksLost, realBonaFideLost, realRates, eligible: realAttacksLost.length === 0 && realBonaFideLost.length === 0 });
  }
  let chosen = verdicts[0];
  for (const v of verdicts.slice(1)) if (v.eligible && v.worstLeftOut < chosen.worstLeftOut) chosen = v;
  const rows = verdicts.map((v) => ({
    fusion: v.label,
    ...Object.fromEntries(Object.entries(v.perFamily).map(([f, x]) => [`APCER ${f} left out`, pct(x)])),
    worst: pct(v.worstLeftOut),
    'real attacks lost': lost(v.realAttacksLost),
    'real bona fide lost': lost(v.realBonaFideLost),
    ...Object.fromEntries(Object.entries(v.realRates).flatMap(([label, r]) => [[`${label} BPCER`, pct(r.bpcer)], [`${label} APCER`, pct(r.apcer)]])),
    rule: v.eligible ? 'ok' : 'refused',
  }));
  return { rows, chosen };
}

/**
 * Bona fide errors of the 'live-camera' set by camera degradation (the generator's recipe of each
 * capture): share refused by the quality gates and BPCER among the judged at `threshold`.
 */
export function degradationTable<M extends Judged>(live: M[], recipe: (m: M) => CameraRecipe, score: (m: M) => number, threshold: number): Array<Record<string, string | number>> {
  const groups: Array<[string, (r: CameraRecipe) => boolean]> = [
    ['low light (gain 0.35-0.6, noise 4-10)', (r) => r.lowLight],
    ['normal light, all', (r) => !r.lowLight],
    ['normal, noise < 2', (r) => !r.lowLight && r.noise < 2],
    ['normal, noise 2-4', (r) => !r.lowLight && r.noise >= 2],
    ['normal, no blur', (r) => !r.lowLight && r.blurSigma < 0.3],
    ['normal, blur sigma 0.4-1.0', (r) => !r.lowLight && r.blurSigma >= 0.3 && r.blurSigma < 1],
    ['normal, blur sigma 1.0-1.6', (r) => !r.lowLight && r.blurSigma >= 1],
    ['normal, JPEG q 35-60', (r) => !r.lowLight && r.quality < 60],
    ['normal, JPEG q 60-90', (r) => !r.lowLight && r.quality >= 60],
  ];
  return groups.map(([label, keep]) => {
    const ms = live.filter((m) => keep(recipe(m)));
    const judged = ms.filter((m) => m.status === 'ok');
    return { captures: label, images: ms.length, 'quality gate': ms.filter((m) => m.status === 'quality').length, judged: judged.length, BPCER: pct(rate(judged.map(score), (s) => s < threshold)) };
  });
}

/**
 * The minimum mean face luma gate swept (the other gates as configured): per set, images refused as
 * unjudgeable and the error rate (BPCER / APCER) among the rest at `threshold`, and the worst
 * attack type's APCER at the threshold giving BPCER 3 % on each of the part's bona fide sets. Needs every image
 * measured with the gates open (the bench does).
 */
export function exposureGateSweep<M extends Judged>(part: M[], gates: LivenessGates, score: (m: M) => number, threshold: number, values: number[]): Array<Record<string, string | number>> {
  return values.map((v) => {
    const g = { ...gates, minMeanLuma: v };
    const row: Record<string, string | number> = { minMeanLuma: v };
    const kept = part.filter((m) => m.exposure && gateFailures(m.exposure, m.faceWidthPx!, g).length === 0);
    const t3 = bonaFideThreshold(kept.filter((m) => m.bonaFide).map((m) => ({ m, s: score(m) })), 0.03);
    for (const set of [...BONA_SETS, ...ATTACK_TYPES]) {
      const ms = part.filter((m) => m.set === set && m.exposure);
      const judged = ms.filter((m) => gateFailures(m.exposure!, m.faceWidthPx!, g).length === 0);
      const bona = set === 'live-camera' || set === 'lfw';
      const err = rate(judged.map(score), (s) => (bona ? s < threshold : s >= threshold));
      row[set] = `${ms.length - judged.length} / ${pct(err)}`;
    }
    row['worst APCER @ BPCER 3 %'] = pct(Math.max(...ATTACK_TYPES.map((type) => rate(kept.filter((m) => m.set === type).map(score), (s) => s >= t3))));
    return row;
  });
}

/**
 * Several images of one session per request: the judged NUAA crops of one subject folder (file names
 * `<Client|Imposter>Face_<subject>_...`) in file order, K at a time; BPCER / APCER at `threshold` with
 * every image required to pass and with the mean log-odds (src/liveness/passive/session.ts).
 */
export function sessionTable<M extends Judged>(judged: M[], score: (m: M) => number, threshold: number, sizes: number[]): Array<Record<string, string | number>> {
  const bySubject = new Map<string, M[]>();
  for (const m of judged) {
    const key = `${m.bonaFide}/${path.basename(m.id).split('_')[1]}`;
    bySubject.set(key, [...(bySubject.get(key) ?? []), m]);
  }
  return sizes.map((K) => {
    const n = [0, 0];
    const every = [0, 0];
    const mean = [0, 0];
    for (const [key, ms] of bySubject) {
      const j = key.startsWith('true') ? 0 : 1;
      for (let i = 0; i + K <= ms.length; i += K) {
        const ps = ms.slice(i, i + K).map(score);
        n[j]++;
        if (sessionDecision(ps, threshold, 'every').live) every[j]++;
        if (sessionDecision(ps, threshold, 'mean').live) mean[j]++;
      }
    }
    return {
      K,
      'requests (client / imposter)': `${n[0]} / ${n[1]}`,
      'every: BPCER': pct(1 - every[0] / n[0]),
      'every: APCER': pct(every[1] / n[1]),
      'mean: BPCER': pct(1 - mean[0] / n[0]),
      'mean: APCER': pct(mean[1] / n[1]),
    };
  });
}
