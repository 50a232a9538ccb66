/**
 * `npm run bench:scale`: the sync and scaled-out figures of issue #19, printed as tables.
 *
 * 1. Export and import of N persons (default 100,000): a station's face change feed read page by
 *    page and encoded as on the wire (export), then decoded, validated and applied to an empty
 *    station's store (import); wall time and peak resident memory of each phase. Templates are
 *    synthetic 320-d face templates of this build's model (real size, encrypted at rest as the
 *    station stores them).
 * 2. Sync of M changes (default 10,000) between two stations over loopback HTTP (`SyncService.pull`,
 *    the CLI's path): time and changes per second.
 * 3. Enroll on node A until node B identifies the person, two API nodes over PostgreSQL
 *    (BIOSTATION_BENCH_DATABASE_URL or BIOSTATION_TEST_DATABASE_URL; skipped without): the store,
 *    NOTIFY and gallery path with a stand-in engine (template = image bytes), median and max of
 *    `--trials` (default 20) enrollments.
 * Options: `--persons N`, `--changes M`, `--trials K`. The export keeps every page in memory to time
 * the import apart from it, so its peak RSS is the bench's, not a sync's (a sync holds one page).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FaceEngine, FaceGallery } from '../src/face/engine.js';
import { DEFAULT_TUNING } from '../src/face/index.js';
import { EMBEDDING_DIM, faceModelId } from '../src/face/template/template-space.js';
import { encodeTemplate } from '../src/face/template/template.js';
import { loadConfig } from '../src/runtime/config.js';
import { createLogger } from '../src/runtime/logger.js';
import { startStation, storeSettings, type Station } from '../src/station.js';
import { openStore } from '../src/store/index.js';
import type { TenantStore } from '../src/store/types.js';
import { formatHlc } from '../src/sync/hlc.js';
import { assertComparable } from '../src/sync/checks.js';
import { SyncService } from '../src/sync/service.js';
import { decodePage, encodeFeedPage } from '../src/sync/wire.js';
import { recordSummary } from './lib/summary.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const PERSONS = arg('persons', 100_000);
const CHANGES = arg('changes', 10_000);
const TRIALS = arg('trials', 20);
const PAGE = 1000;
const silent = createLogger('silent');
const mib = (b: number) => (b / 1024 / 1024).toFixed(0);

/** Peak resident memory while `work` runs (sampled every 20 ms). */
async function measured<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number; peakRssMiB: string }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, seconds: (performance.now() - started) / 1000, peakRssMiB: mib(peak) };
  } finally {
    clearInterval(timer);
  }
}

function faceTemplate(): Uint8Array {
  const v = new Float32Array(EMBEDDING_DIM);
  let n = 0;
  for (let i = 0; i < v.length; i++) n += (v[i] = Math.random() - 0.5) ** 2;
  for (let i = 0; i < v.length; i++) v[i] /= Math.sqrt(n);
  return encodeTemplate(faceModelId(DEFAULT_TUNING.flip), v);
}

const stationConfig = (dataDir: string, extra: Record<string, unknown> = {}) =>
  loadConfig({}, { dataDir, port: 0, logLevel: 'silent', createDemoApplication: false, engines: { face: false, finger: false, ocr: false }, ...extra });

/** Seeds `n` face persons through the change-apply path, 1,000 per transaction (as a sync page is written). */
async function seed(store: TenantStore, n: number, stationId: string): Promise<void> {
  const now = Date.now();
  for (let from = 0; from < n; from += PAGE) {
    const batch = [];
    for (let i = from; i < Math.min(n, from + PAGE); i++) {
      const at = new Date(now - (n - i)).toISOString();
      batch.push({ kind: 'upsert' as const, extId: `p${i}`, version: formatHlc({ ms: now - (n - i), counter: 0, stationId }), createdAt: at, updatedAt: at, templates: [{ data: faceTemplate() }] });
    }
    await store.faces.applyChanges(batch);
  }
}

async function exportImport(): Promise<string[]> {
  const dirA = mkdtempSync(path.join(os.tmpdir(), 'bs-scale-a-'));
  const dirB = mkdtempSync(path.join(os.tmpdir(), 'bs-scale-b-'));
  const a = await openStore(storeSettings(stationConfig(dirA)));
  const b = await openStore(storeSettings(stationConfig(dirB)));
  try {
    const app = '11111111-2222-3333-4444-555555555555';
    const [ta, tb] = [await a.tenants.forApplication(app), await b.tenants.forApplication(app)];
    const seeding = await measured(() => seed(ta, PERSONS, 'bench-seed'));
    const pages: string[] = [];
    const exp = await measured(async () => {
      let since = 0;
      let bytes = 0;
      for (;;) {
        const changes = await ta.faces.changes(since, PAGE);
        if (changes.length === 0) break;
        const json = JSON.stringify({ result: encodeFeedPage('face', changes, 0, since) });
        bytes += json.length;
        pages.push(json);
        since = changes[changes.length - 1].seq;
      }
      return bytes;
    });
    const imp = await measured(async () => {
      for (const json of pages) {
        const page = decodePage('face', JSON.parse(json), { maxItems: PAGE });
        for (const c of page.changes) for (const t of c.kind === 'upsert' ? c.templates : []) assertComparable('face', t.data);
        await tb.faces.applyChanges(page.changes);
      }
      return tb.faces.count();
    });
    recordSummary('scale', `export ${PERSONS} persons`, `${exp.seconds.toFixed(1)} s`);
    recordSummary('scale', `import ${imp.result} persons (peak RSS)`, `${imp.seconds.toFixed(1)} s (${imp.peakRssMiB} MiB)`);
    return [
      `| seed ${PERSONS} persons (applyChanges, ${PAGE} per transaction) | ${seeding.seconds.toFixed(1)} s | ${seeding.peakRssMiB} MiB |`,
      `| export: change feed, ${PAGE}/page, wire JSON (${mib(exp.result)} MiB) | ${exp.seconds.toFixed(1)} s | ${exp.peakRssMiB} MiB |`,
      `| import: decode, validate, apply ${imp.result} persons (a transaction per page) | ${imp.seconds.toFixed(1)} s | ${imp.peakRssMiB} MiB |`,
    ];
  } finally {
    await a.close();
    await b.close();
    rmSync(dirA, { recursive: true, force: true });
    rmSync(dirB, { recursive: true, force: true });
  }
}

async function syncTwoStations(): Promise<string[]> {
  const dirs = [mkdtempSync(path.join(os.tmpdir(), 'bs-scale-s1-')), mkdtempSync(path.join(os.tmpdir(), 'bs-scale-s2-'))];
  const stations: Station[] = [];
  try {
    for (const d of dirs) stations.push(await startStation(stationConfig(d), { logger: silent }));
    const [peer, local] = stations;
    const credential = await peer.services.applications.create('hq');
    const peerApp = (await peer.services.applications.list()).find((x) => x.key === credential.key)!;
    await local.services.applications.create('field');
    const localApp = (await local.services.applications.list()).find((x) => x.name === 'field')!;
    await seed(await peer.services.stores.forApplication(peerApp.id), CHANGES, 'bench-peer');
    const service = new SyncService(async (m) => (t) => assertComparable(m, t));
    const target = await local.services.stores.forApplication(localApp.id);
    const run = await measured(() => service.pull(target, { url: peer.url, key: credential.key, secret: credential.secret }));
    const again = await measured(() => service.pull(target, { url: peer.url, key: credential.key, secret: credential.secret }));
    recordSummary('scale', `pull ${run.result.pulled} changes between two stations`, `${run.seconds.toFixed(1)} s`);
    return [
      `| pull ${run.result.pulled} changes over loopback HTTP (created ${run.result.created}) | ${run.seconds.toFixed(1)} s | ${(run.result.pulled / run.seconds).toFixed(0)} changes/s | ${run.peakRssMiB} MiB |`,
      `| the same pull again (checkpoint: nothing to read) | ${(again.seconds * 1000).toFixed(0)} ms | - | ${again.peakRssMiB} MiB |`,
    ];
  } finally {
    for (const s of stations) await s.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

/** A stand-in face engine: the template is the image's bytes; two templates match when equal. */
const bytesEngine = async (): Promise<FaceEngine> => {
  const same = (a: Uint8Array, b: Uint8Array) => (Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0 ? 1 : 0);
  return {
    modelId: 'bench-bytes@1', defaultThreshold: 0.5, identifyThreshold: 0.5,
    async extract(image: Uint8Array) {
      return { template: image, box: { x: 0, y: 0, width: 1, height: 1 }, quality: { interOcularPx: 40, faceWidthPx: 100, sharpness: 100, yawDeg: 0, pitchDeg: 0, rollDeg: 0, meanLuma: 120, detectionScore: 1 } };
    },
    similarity: same,
    assertCompatible() {},
    createGallery(): FaceGallery {
      const people = new Map<string, Uint8Array[]>();
      const search = (probe: Uint8Array, k: number) =>
        [...people].map(([extId, ts]) => ({ extId, score: Math.max(...ts.map((t) => same(probe, t))) })).sort((x, y) => y.score - x.score).slice(0, k);
      return {
        upsert: (id: string, t: Uint8Array[]) => void people.set(id, t),
        remove: (id: string) => void people.delete(id),
        get size() { return people.size; },
        search,
        searchAsync: async (probe: Uint8Array, k: number) => search(probe, k),
      } as FaceGallery;
    },
  } as unknown as FaceEngine;
};

async function twoNodes(): Promise<string[]> {
  const base = process.env.BIOSTATION_BENCH_DATABASE_URL ?? process.env.BIOSTATION_TEST_DATABASE_URL;
  if (!base) return ['| enroll on node A -> identified on node B | skipped: set BIOSTATION_BENCH_DATABASE_URL | | |'];
  if (TRIALS < 1) return ['| enroll on node A -> identified on node B | skipped: --trials 0 | | |'];
  const name = `biostation_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bs-scale-pg-'));
  const nodes: Station[] = [];
  try {
    const config = stationConfig(dataDir, { store: 'postgres', databaseUrl: url.toString(), engines: { face: true, finger: false, ocr: false } });
    for (let i = 0; i < 2; i++) nodes.push(await startStation(config, { logger: silent, faceEngine: bytesEngine }));
    const credential = await nodes[0].services.applications.create('bench');
    const token = (await (await fetch(`${nodes[0].url}/api/v1/app-credentials/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credential) })).json()).token as string;
    const call = async (node: Station, p: string, image: string) =>
      (await (await fetch(`${node.url}${p}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ Images: [{ imageData: Buffer.from(image).toString('base64') }] }) })).json()) as { ExternalID?: string | null };
    await call(nodes[1], '/api/v1/services/face/identify', 'warm-up');
    const times: number[] = [];
    for (let i = 0; i < TRIALS; i++) {
      await call(nodes[0], `/api/v1/services/face/enroll/p${i}`, `person-${i}`);
      const started = performance.now();
      while ((await call(nodes[1], '/api/v1/services/face/identify', `person-${i}`)).ExternalID !== `p${i}`) {
        if (performance.now() - started > 10_000) throw new Error('not identified within 10 s');
      }
      times.push(performance.now() - started);
    }
    times.sort((x, y) => x - y);
    recordSummary('scale', 'enroll on node A -> identified on node B (median)', `${times[Math.floor(times.length / 2)].toFixed(1)} ms`, '< 1000 ms');
    return [`| enroll on node A -> identified on node B (${TRIALS} trials, stand-in engine) | median ${times[Math.floor(times.length / 2)].toFixed(1)} ms | max ${times[times.length - 1].toFixed(1)} ms | |`];
  } finally {
    for (const n of nodes) await n.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`bench:scale on ${os.cpus().length} cores, Node ${process.version}\n`);
console.log('| export / import | time | peak RSS |\n|---|---|---|');
for (const row of await exportImport()) console.log(row);
console.log('\n| sync between two stations | time | rate | peak RSS |\n|---|---|---|---|');
for (const row of await syncTwoStations()) console.log(row);
console.log('\n| scaled out (PostgreSQL, LISTEN/NOTIFY) | median | max | |\n|---|---|---|---|');
for (const row of await twoNodes()) console.log(row);
process.exit(0);
