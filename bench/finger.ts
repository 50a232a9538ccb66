/**
 * Fingerprint benchmark: `npm run bench:finger [-- --db fvc2002/DB1_B] [--quick] [--no-interop]`.
 * Datasets from $BIOSTATION_DATASETS (default ../shared/datasets). Prints per FVC B-set: EER, FMR100,
 * FMR1000, ZeroFMR (%) under the FVC protocol (280 genuine, 45 impostor pairs) and over all impostor
 * pairs (2,880), failures to extract, median extraction ms (decode + extract + encode), matches/s on
 * one core (one prepared probe against prepared candidates); then interoperability EER per template
 * source, and the threshold check (highest impostor score over all databases).
 * A failure to extract counts as score 0 in every pair it takes part in.
 * Times are CPU time of this process (user + system, `process.cpuUsage`), not wall time, so that the
 * figures stay meaningful on a shared, loaded machine; on an idle machine wall time is about the same.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { createFingerEngine, DEFAULT_THRESHOLD, prepareRecord, ProbeMatcher } from '../src/finger/index.js';
import type { PreparedTemplate } from '../src/finger/matcher/prepared-template.js';
import { recordSummary } from './lib/summary.js';

const root = process.env.BIOSTATION_DATASETS ?? path.resolve('../shared/datasets');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const dbArgs = args.flatMap((a, i) => (a === '--db' && args[i + 1] ? args[i + 1].split(',') : []));
const allDbs = ['fvc2002/DB1_B', 'fvc2002/DB2_B', 'fvc2002/DB3_B', 'fvc2002/DB4_B', 'fvc2004/DB1_B', 'fvc2004/DB3_B'];
const dbs = dbArgs.length ? dbArgs : quick ? ['fvc2002/DB1_B'] : allDbs;
const interop = !args.includes('--no-interop') && !quick;
const identifyAt = args.indexOf('--identify');
const identifySize = identifyAt >= 0 ? Number(args[identifyAt + 1] ?? 100_000) : 0;

interface Rates {
  eer: number;
  fmr100: number;
  fmr1000: number;
  zeroFmr: number;
}

/** EER and FNMR at FMR <= 1 %, 0.1 %, 0 (all in %), FVC style (ties count against the system). */
function rates(genuine: number[], impostor: number[]): Rates {
  const g = [...genuine].sort((a, b) => a - b);
  const im = [...impostor].sort((a, b) => a - b);
  const fnmrAt = (t: number) => lowerCount(g, t) / g.length; // genuine < t rejected
  const fmrAt = (t: number) => (im.length - lowerCount(im, t)) / im.length; // impostor >= t accepted
  const thresholds = [...new Set([...g, ...im, Infinity])].sort((a, b) => a - b);
  let eer = 1;
  let bestGap = Infinity;
  for (const t of thresholds) {
    const fmr = fmrAt(t);
    const fnmr = fnmrAt(t);
    if (Math.abs(fmr - fnmr) < bestGap || (Math.abs(fmr - fnmr) === bestGap && (fmr + fnmr) / 2 < eer)) {
      bestGap = Math.abs(fmr - fnmr);
      eer = (fmr + fnmr) / 2;
    }
  }
  const fnmrAtFmr = (limit: number) => {
    let best = 1;
    for (const t of thresholds) if (fmrAt(t) <= limit) best = Math.min(best, fnmrAt(t));
    return best;
  };
  return { eer: eer * 100, fmr100: fnmrAtFmr(0.01) * 100, fmr1000: fnmrAtFmr(0.001) * 100, zeroFmr: fnmrAtFmr(0) * 100 };
}

function lowerCount(sorted: number[], t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const fmt = (r: Rates) => [r.eer, r.fmr100, r.fmr1000, r.zeroFmr].map((v) => v.toFixed(2)).join(' / ');
const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length ? s[s.length >> 1] : NaN;
};

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const engine = await createFingerEngine();
const names: string[] = [];
for (let f = 101; f <= 110; f++) for (let i = 1; i <= 8; i++) names.push(`${f}_${i}`);

interface DbResult {
  db: string;
  fvc: Rates;
  all: Rates;
  failures: number;
  medianMs: number;
  /** Extraction CPU ms of every image (for the median over all databases). */
  times: number[];
  matchesPerSecond: number;
  maxImpostor: number;
  genuine: number[];
  impostor: number[];
  templates: Map<string, Uint8Array>;
  sizes: Map<string, { width: number; height: number }>;
}

async function runDb(db: string): Promise<DbResult | undefined> {
  const dir = path.join(root, 'fvc', db);
  if (!existsSync(dir)) {
    console.log(`skip ${db}: ${dir} not found`);
    return undefined;
  }
  const templates = new Map<string, Uint8Array>();
  const sizes = new Map<string, { width: number; height: number }>();
  const prepared = new Map<string, PreparedTemplate>();
  const times: number[] = [];
  let failures = 0;
  for (const name of names) {
    const bytes = readFileSync(path.join(dir, `${name}.png`));
    const meta = await sharp(bytes).metadata();
    sizes.set(name, { width: meta.width ?? 0, height: meta.height ?? 0 });
    const t0 = cpuMs();
    try {
      const result = await engine.extract(bytes, { dpi: 500 });
      times.push(cpuMs() - t0);
      templates.set(name, result.template);
      prepared.set(name, prepareRecord(result.template).views[0]);
    } catch (e) {
      times.push(cpuMs() - t0);
      failures++;
      console.log(`  ${db} ${name}: ${(e as Error).message}`);
    }
  }
  const matchers = new Map<string, ProbeMatcher>();
  const score = (a: string, b: string) => {
    const pa = prepared.get(a);
    const pb = prepared.get(b);
    if (!pa || !pb) return 0;
    let m = matchers.get(a);
    if (!m) matchers.set(a, (m = new ProbeMatcher(pa)));
    return m.match(pb);
  };
  const genuine: number[] = [];
  const fvcImpostor: number[] = [];
  const allImpostor: number[] = [];
  for (let f = 101; f <= 110; f++) {
    for (let i = 1; i <= 8; i++) for (let j = i + 1; j <= 8; j++) genuine.push(score(`${f}_${i}`, `${f}_${j}`));
    for (let g = f + 1; g <= 110; g++) {
      fvcImpostor.push(score(`${f}_1`, `${g}_1`));
      for (let i = 1; i <= 8; i++) for (let j = 1; j <= 8; j++) allImpostor.push(score(`${f}_${i}`, `${g}_${j}`));
    }
  }
  const candidates = [...prepared.values()];
  const probe = new ProbeMatcher(candidates[0]);
  let count = 0;
  const start = cpuMs();
  while (cpuMs() - start < (quick ? 300 : 1000)) {
    for (const c of candidates) probe.match(c);
    count += candidates.length;
  }
  const matchesPerSecond = (count * 1000) / (cpuMs() - start);
  return {
    db,
    fvc: rates(genuine, fvcImpostor),
    all: rates(genuine, allImpostor),
    failures,
    medianMs: median(times),
    times,
    matchesPerSecond,
    maxImpostor: Math.max(...allImpostor),
    genuine,
    impostor: allImpostor,
    templates,
    sizes,
  };
}

const results: DbResult[] = [];
for (const db of dbs) {
  const r = await runDb(db);
  if (r) results.push(r);
}
console.log('\nFVC B-sets (EER / FMR100 / FMR1000 / ZeroFMR in %)');
console.log('| database | FVC protocol (280 gen / 45 imp) | all impostor pairs (280 / 2,880) | FTE | median extract CPU ms | matches/s (1 core, CPU time) |');
console.log('|---|---|---|---|---|---|');
for (const r of results) {
  console.log(`| ${r.db} | ${fmt(r.fvc)} | ${fmt(r.all)} | ${r.failures} | ${r.medianMs.toFixed(1)} | ${Math.round(r.matchesPerSecond)} |`);
}
if (results.length) {
  const mean = (k: (r: DbResult) => number) => results.reduce((a, r) => a + k(r), 0) / results.length;
  console.log(`| mean | EER ${mean((r) => r.fvc.eer).toFixed(2)} | EER ${mean((r) => r.all.eer).toFixed(2)} | | ${mean((r) => r.medianMs).toFixed(1)} | ${Math.round(mean((r) => r.matchesPerSecond))} |`);
  const allTimes = results.flatMap((r) => r.times);
  console.log(`median extraction CPU ms over all ${allTimes.length} images: ${median(allTimes).toFixed(1)}`);
  recordSummary('finger', 'mean EER, FVC protocol (%)', mean((r) => r.fvc.eer).toFixed(2), `< 6.06 (SourceAFIS), ${results.length} DBs`);
  recordSummary('finger', 'median extraction CPU ms (mean of DBs)', mean((r) => r.medianMs).toFixed(1), '<= 30');
  recordSummary('finger', 'matches/s, 1 core (mean of DBs)', Math.round(mean((r) => r.matchesPerSecond)), '>= 20,000');
  const maxImpostor = Math.max(...results.map((r) => r.maxImpostor));
  console.log('\nAt the default threshold, per database: genuine accepted (FVC pairs), false matches (all impostor pairs), highest impostor score');
  for (const r of results) {
    const acc = r.genuine.filter((s) => s >= DEFAULT_THRESHOLD).length;
    const fm = r.impostor.filter((s) => s >= DEFAULT_THRESHOLD).length;
    console.log(`  ${r.db}: ${acc}/${r.genuine.length} (${((100 * acc) / r.genuine.length).toFixed(1)} %), ${fm}/${r.impostor.length}, ${r.maxImpostor.toFixed(2)}`);
  }
  const impostorsDesc = results.flatMap((r) => r.impostor).sort((a, b) => b - a);
  console.log(`  impostor score quantiles (all DBs, ${impostorsDesc.length} pairs): top ${impostorsDesc.slice(0, 5).map((v) => v.toFixed(2)).join(', ')}`);
  const genuineAll = results.flatMap((r) => r.genuine);
  const accepted = genuineAll.filter((s) => s >= DEFAULT_THRESHOLD).length;
  console.log(
    `\nThreshold: default ${DEFAULT_THRESHOLD}; highest impostor score over all impostor pairs of these DBs ${maxImpostor.toFixed(2)}; ` +
      `genuine accepted at default ${accepted}/${genuineAll.length} (${((100 * accepted) / genuineAll.length).toFixed(1)} %)`,
  );
}

/**
 * Interoperability: a foreign template of impression i (matched as the probe) against our template of
 * impression j. Genuine: same finger, i != j; impostor: every impression of every other finger.
 * SecuGen templates are in a 300x400 frame of the resized image: scaled back to the image size.
 */
function interopRow(source: string, pairs: Array<{ foreign: Uint8Array; frame?: { scaleX: number; scaleY: number }; finger: string; name: string }>, ours: Map<string, { finger: string; template: PreparedTemplate }>) {
  const genuine: number[] = [];
  const impostor: number[] = [];
  let unreadable = 0;
  for (const p of pairs) {
    let matcher: ProbeMatcher;
    try {
      matcher = new ProbeMatcher(prepareRecord(p.foreign, p.frame).views[0]);
    } catch {
      unreadable++;
      continue;
    }
    for (const [name, o] of ours) {
      if (name === p.name) continue;
      (o.finger === p.finger ? genuine : impostor).push(matcher.match(o.template));
    }
  }
  const r = rates(genuine, impostor);
  console.log(`| ${source} | ${pairs.length - unreadable} | ${genuine.length} / ${impostor.length} | ${fmt(r)} |`);
}

/**
 * 1:N timing (`--identify N`): a gallery of N persons, one template each, cycling through our FVC
 * templates (so N/480 copies of each), searched with the engine's worker-thread gallery. Reports the
 * wall time of one search after the workers have prepared the templates.
 */
if (identifySize > 0 && results.length) {
  const pool = results.flatMap((r) => [...r.templates.values()]);
  const gallery = engine.createGallery();
  const t0 = performance.now();
  for (let i = 0; i < identifySize; i++) gallery.upsert(`person-${i}`, [pool[i % pool.length]]);
  await gallery.search(pool[0], 5);
  const loadS = (performance.now() - t0) / 1000;
  const walls: number[] = [];
  let correct = 0;
  for (let k = 1; k <= 5; k++) {
    const probe = pool[(k * 37) % pool.length];
    const start = performance.now();
    const hits = await gallery.search(probe, 5);
    walls.push(performance.now() - start);
    if (hits[0] && Number(hits[0].extId.split('-')[1]) % pool.length === (k * 37) % pool.length) correct++;
  }
  await gallery.close?.();
  console.log(`\nIdentify: ${identifySize} templates, ${os.availableParallelism()} cores: load + prepare ${loadS.toFixed(1)} s; search median ${median(walls).toFixed(0)} ms (wall, ${walls.map((w) => w.toFixed(0)).join(' / ')}); self-match found first ${correct}/5; load average ${os.loadavg()[0].toFixed(1)}`);
  recordSummary('finger', `identify ${identifySize} templates, median wall ms (${os.availableParallelism()} cores)`, median(walls).toFixed(0), '< 3000 at 100k');
}

if (interop) {
  console.log('\nInteroperability: foreign template (probe) vs our template of another impression (EER / FMR100 / FMR1000 / ZeroFMR in %)');
  console.log('| source | templates read | genuine / impostor pairs | rates |');
  console.log('|---|---|---|---|');
  const ours = new Map<string, { finger: string; template: PreparedTemplate }>();
  const sourceAfis: Record<string, Array<{ foreign: Uint8Array; finger: string; name: string }>> = { iso2005: [], ansi2004: [], iso2011: [] };
  const secugen: Array<{ foreign: Uint8Array; frame: { scaleX: number; scaleY: number }; finger: string; name: string }> = [];
  for (const r of results) {
    for (const [name, template] of r.templates) ours.set(`${r.db}/${name}`, { finger: `${r.db}/${name.split('_')[0]}`, template: prepareRecord(template).views[0] });
    for (const name of names) {
      const key = `${r.db}/${name}`;
      const finger = `${r.db}/${name.split('_')[0]}`;
      for (const kind of Object.keys(sourceAfis)) {
        const file = path.join(root, 'fingerprint-templates', 'sourceafis-3.18.1', r.db, `${name}.${kind}.fmr`);
        if (existsSync(file)) sourceAfis[kind].push({ foreign: readFileSync(file), finger, name: key });
      }
      const sg = path.join(root, 'fingerprint-templates', 'secugen-sdk', r.db, `${name}.iso`);
      const size = r.sizes.get(name)!;
      if (existsSync(sg)) secugen.push({ foreign: readFileSync(sg), frame: { scaleX: size.width / 300, scaleY: size.height / 400 }, finger, name: key });
    }
  }
  for (const [kind, pairs] of Object.entries(sourceAfis)) if (pairs.length) interopRow(`SourceAFIS 3.18.1 ${kind}`, pairs, ours);
  if (secugen.length) interopRow('SecuGen SDK ISO 2005 (300x400 frame)', secugen, ours);
  const fj = path.join(root, 'fingerprint-templates', 'fingerjet-fx-ose-samples');
  if (existsSync(fj)) {
    const fjOurs = new Map<string, { finger: string; template: PreparedTemplate }>();
    // MINEX names: set letter, subject, finger position, p(lain): a001_04p and b001_04p are one finger
    const fjPairs: Array<{ foreign: Uint8Array; finger: string; name: string }> = [];
    for (const file of readdirSync(path.join(fj, 'images-pgm'))) {
      const name = file.replace(/\.pgm$/, '');
      try {
        const t = await engine.extract(readFileSync(path.join(fj, 'images-pgm', file)), { dpi: 500 });
        fjOurs.set(name, { finger: name.slice(1), template: prepareRecord(t.template).views[0] });
      } catch (e) {
        console.log(`  fingerjet ${name}: ${(e as Error).message}`);
      }
      const ist = path.join(fj, 'templates-iso', `${name}.ist`);
      if (existsSync(ist)) fjPairs.push({ foreign: readFileSync(ist), finger: name.slice(1), name });
    }
    interopRow('FingerJet FX OSE ISO 2005 (MINEX prints)', fjPairs, fjOurs);
  }
}
