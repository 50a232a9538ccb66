import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue #19's acceptance on loopback: two stations, two processes, two data directories, real
 * engines; faces from lfw-dev, fingerprints from FVC2002 DB1_B. The `sync` CLI runs as its own
 * process on the data directory of a station that is running.
 */
const datasets = process.env.BIOSTATION_DATASETS ?? path.resolve('../shared/datasets');
const lfwDir = path.join(datasets, 'lfw-dev/images');
const fvcDir = path.join(datasets, 'fvc/fvc2002/DB1_B');
const haveData = existsSync(lfwDir) && existsSync(fvcDir);
if (!haveData) console.warn(`two-station sync acceptance skipped: no lfw-dev / fvc datasets at ${datasets} (set BIOSTATION_DATASETS)`);

const PEOPLE = ['Tony_Blair', 'Wen_Jiabao', 'Jiang_Zemin', 'David_Beckham', 'Tiger_Woods', 'Pete_Sampras', 'Hugo_Chavez', 'George_HW_Bush'];
const photos = (person: string) => (haveData ? readdirSync(lfwDir).filter((f) => f.startsWith(`${person}_0`)).sort() : []);
const photo = (person: string, i: number) => readFileSync(path.join(lfwDir, photos(person)[i])).toString('base64');
const faceBody = (person: string, i: number) => ({ Images: [{ imageType: 'frontal', imageData: photo(person, i) }] });
const finger = (id: number, impression: number) => ({ imageData: readFileSync(path.join(fvcDir, `${id}_${impression}.png`)).toString('base64'), dpi: 500 });

interface Running {
  url: string;
  dataDir: string;
  key: string;
  secret: string;
  token: string;
  child: ChildProcess;
}

const cli = ['src/bin/biostation.mjs'];
const env = (dataDir: string) => ({ ...process.env, BIOSTATION_DATA_DIR: dataDir, BIOSTATION_ENGINES: 'face,finger', BIOSTATION_FACE_WORKERS: '1', BIOSTATION_LOG_LEVEL: 'warn' });

async function startStation(): Promise<Running> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bs-sync-'));
  const child = spawn('node', [...cli, 'serve', '--port', '0'], { env: env(dataDir) });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner: ${stderr}`)), 60_000);
    child.stderr!.on('data', (d) => {
      stderr += d;
      const m = /listening on (http:\/\/\S+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  const demo = JSON.parse(readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as { key: string; secret: string };
  const res = await fetch(`${url}/api/v1/app-credentials/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(demo) });
  const { token } = (await res.json()) as { token: string };
  for (let i = 0; i < 600; i++) {
    const ready = await fetch(`${url}/ready`).then((r) => r.status, () => 0);
    if (ready === 200) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, dataDir, ...demo, token, child };
}

/** Asserts a 200, showing the answer otherwise. */
async function ok(p: Promise<{ status: number; body: any }>) {
  const r = await p;
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r;
}

/**
 * Enrolls (POST) or updates (PATCH) a face from the person's photos, from the `from`-th on, skipping
 * photos the engine refuses (several faces, too small): LFW photos are news pictures.
 */
async function writeFace(s: Running, method: 'POST' | 'PATCH', person: string, from: number): Promise<number> {
  for (let i = from; i < photos(person).length; i++) {
    const r = await api(s, method, method === 'POST' ? `/api/v1/services/face/enroll/${person}` : `/api/v1/services/face/${person}`, faceBody(person, i));
    if (r.status === 200) return i;
    expect(r.status, JSON.stringify(r.body)).toBe(400);
  }
  throw new Error(`no usable photo of ${person}`);
}

async function api(s: Running, method: string, p: string, json?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${s.url}${p}`, {
    method,
    headers: { authorization: `Bearer ${s.token}`, ...(json ? { 'content-type': 'application/json' } : {}) },
    body: json ? JSON.stringify(json) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Runs `biostation sync <direction>` on `local`'s data directory against `peer` (or a URL standing for it). */
function runSync(direction: 'pull' | 'push', local: Running, peer: Running, extra: string[] = [], url = peer.url): { child: ChildProcess; done: Promise<{ code: number | null; out: string; err: string }> } {
  const child = spawn('node', [...cli, 'sync', direction, direction === 'pull' ? '--from' : '--to', url, '--key', peer.key, '--secret', peer.secret, '--json', ...extra], { env: env(local.dataDir) });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  return { child, done: new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err }))) };
}

async function sync(direction: 'pull' | 'push', local: Running, peer: Running, extra: string[] = []) {
  const r = await runSync(direction, local, peer, extra).done;
  expect(r.code, r.err + r.out).toBe(0);
  return JSON.parse(r.out);
}

/** Everything a client can see of an application, comparable between stations. */
async function snapshot(s: Running) {
  const faces = (await api(s, 'GET', '/api/v1/services/face/list')).body.faces.map((f: { ExternalID: string; CreatedAt: string }) => `${f.ExternalID}@${f.CreatedAt}`).sort();
  const fingers = (await api(s, 'GET', '/api/v1/services/finger/list')).body.map((f: { externalId: string; createdAt: string }) => `${f.externalId}@${f.createdAt}`).sort();
  const faceDump = (await api(s, 'GET', '/api/v1/services/face/dump?limit=1000')).body.result.faces
    .map((f: { ExternalID: string; Templates: unknown; UpdatedAt: string; Version: string; Document?: unknown }) => JSON.stringify([f.ExternalID, f.Templates, f.UpdatedAt, f.Version, f.Document ?? null])).sort();
  const fingerDump = (await api(s, 'GET', '/api/v1/services/finger/dump?limit=1000')).body.result.fingers
    .map((f: { externalId: string; templates: unknown; updatedAt: string; version: string; document?: unknown }) => JSON.stringify([f.externalId, f.templates, f.updatedAt, f.version, f.document ?? null])).sort();
  return {
    counts: [(await api(s, 'GET', '/api/v1/services/face/count')).body.count, (await api(s, 'GET', '/api/v1/services/finger/count')).body.count],
    faces, fingers, faceDump, fingerDump,
  };
}

async function identities(s: Running, probes: { faces: string[]; fingers: number[] }) {
  const out: unknown[] = [];
  for (const person of probes.faces) {
    const r = (await api(s, 'POST', '/api/v1/services/face/identify', faceBody(person, photos(person).length - 1))).body;
    out.push([person, r.ExternalID, r.result?.code ?? r.code]);
  }
  for (const id of probes.fingers) {
    const r = (await api(s, 'POST', '/api/v1/services/finger/identify', finger(id, 3))).body;
    out.push([id, r.ExternalID, r.result?.code]);
  }
  return out;
}

describe.skipIf(!haveData)('two stations on loopback (issue #19 acceptance)', () => {
  let a: Running;
  let b: Running;
  const probes = { faces: PEOPLE, fingers: [101, 102, 103, 104, 105, 106] };

  beforeAll(async () => {
    [a, b] = await Promise.all([startStation(), startStation()]);
  }, 180_000);
  afterAll(async () => {
    for (const s of [a, b]) {
      if (!s) continue;
      const exit = new Promise((r) => s.child.on('exit', r));
      s.child.kill('SIGTERM');
      await exit;
      rmSync(s.dataDir, { recursive: true, force: true });
    }
  });

  it('enroll, update and delete faces and fingers on A, documents too; pull on B: counts, lists, dumps (documents included) and identify equal, deleted persons gone', async () => {
    for (const person of PEOPLE.slice(0, 6)) await writeFace(a, 'POST', person, 0);
    for (const id of [101, 102, 103, 104]) {
      await ok(api(a, 'POST', `/api/v1/services/finger/enroll/f${id}`, finger(id, 1)));
      await ok(api(a, 'POST', `/api/v1/services/finger/enroll/f${id}`, finger(id, 2)));
    }
    await writeFace(a, 'PATCH', 'Tony_Blair', 1);
    await ok(api(a, 'PATCH', '/api/v1/services/finger/f101', finger(101, 4)));
    await ok(api(a, 'DELETE', '/api/v1/services/face/Wen_Jiabao'));
    await ok(api(a, 'DELETE', '/api/v1/services/finger/f102'));
    // document records (issue #16) travel with the persons; the dumps carry them, so the snapshots compare them
    const cnh = (name: string) => ({ kind: 'CNH', fields: { nome_completo: name, numero_cnh: '01234567890' }, photoCheck: { found: true, matched: true, score: 0.9, threshold: 0.85 } });
    await ok(api(a, 'PUT', '/api/v1/persons/Tony_Blair/document', cnh('ANTHONY CHARLES LYNTON BLAIR')));
    await ok(api(a, 'PUT', '/api/v1/persons/f101/document', cnh('F101')));
    await api(b, 'POST', '/api/v1/services/face/identify', faceBody('Wen_Jiabao', 2)); // B's gallery is loaded before the pull
    const first = await sync('pull', b, a);
    expect(first).toMatchObject({ error: null, direction: 'pull', created: 10 }); // 8 persons, 2 documents
    expect((await api(b, 'GET', '/api/v1/persons/Tony_Blair/document')).body).toEqual((await api(a, 'GET', '/api/v1/persons/Tony_Blair/document')).body);

    const [sa, sb] = [await snapshot(a), await snapshot(b)];
    expect(sb).toEqual(sa);
    expect(sa.counts).toEqual([5, 3]);
    expect(sb.faces.some((f: string) => f.startsWith('Wen_Jiabao@'))).toBe(false);
    expect(await identities(b, probes)).toEqual(await identities(a, probes));
  }, 300_000);

  it('deletions on A after B synced travel too; and the same with push from B to A', async () => {
    await ok(api(a, 'DELETE', '/api/v1/services/face/Jiang_Zemin'));
    expect((await sync('pull', b, a))).toMatchObject({ deleted: 1, error: null });
    expect((await api(b, 'GET', '/api/v1/services/face/templates/count/Jiang_Zemin')).status).toBe(404);

    await writeFace(b, 'POST', 'Hugo_Chavez', 0);
    await ok(api(b, 'POST', '/api/v1/services/finger/enroll/f105', finger(105, 1)));
    await writeFace(b, 'PATCH', 'Tiger_Woods', 1);
    await ok(api(b, 'DELETE', '/api/v1/services/face/David_Beckham'));
    await ok(api(b, 'DELETE', '/api/v1/services/finger/f103'));
    expect(await sync('push', b, a)).toMatchObject({ direction: 'push', created: 2, updated: 1, deleted: 2, error: null });
    expect(await snapshot(a)).toEqual(await snapshot(b));
    expect(await identities(a, probes)).toEqual(await identities(b, probes));
    // idempotent both ways
    expect(await sync('push', b, a)).toMatchObject({ pulled: 0 });
    expect(await sync('pull', b, a)).toMatchObject({ created: 0, updated: 0, deleted: 0 });
    expect(await snapshot(a)).toEqual(await snapshot(b));
  }, 300_000);

  it('a pull killed midway resumes from its checkpoint: no duplicates, nothing missing', async () => {
    // the link to A goes through a proxy that can stall (a dropped link); the puller is then killed
    let pages = 0;
    let stallAfter = Infinity;
    const proxy = http.createServer((req, res) => {
      if (req.url?.includes('/dump') && ++pages > stallAfter) return; // never answers
      const upstream = http.request(`${a.url}${req.url}`, { method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const viaProxy = ['--page-size', '1'];
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const pullViaProxy = () => runSync('pull', b, a, viaProxy, proxyUrl);
    try {
      expect((await pullViaProxy().done).code).toBe(0); // catch up through this link: its checkpoint is at A's head
      for (const id of [106, 107, 108, 109, 110]) await ok(api(a, 'POST', `/api/v1/services/finger/enroll/f${id}`, finger(id, 1)));
      await writeFace(a, 'POST', 'George_HW_Bush', 0);
      // pages of one change: face George, face end, finger f106; the 4th request stalls
      pages = 0;
      stallAfter = 3;
      const run = pullViaProxy();
      for (let i = 0; i < 1200 && pages <= 3; i++) await new Promise((r) => setTimeout(r, 50));
      expect(pages).toBeGreaterThan(3);
      run.child.kill('SIGKILL');
      await run.done;
      const partial = await snapshot(b);
      expect(partial.faces.some((f: string) => f.startsWith('George_HW_Bush@'))).toBe(true);
      expect(partial.fingers.some((f: string) => f.startsWith('f106@'))).toBe(true);
      expect(partial.fingers.some((f: string) => f.startsWith('f110@'))).toBe(false);
      // resume over the same link: only what was missing is read
      stallAfter = Infinity;
      const resumed = pullViaProxy();
      const r = await resumed.done;
      expect(r.code, r.err).toBe(0);
      expect(JSON.parse(r.out)).toMatchObject({ pulled: 4, created: 4, error: null });
    } finally {
      proxy.closeAllConnections();
      await new Promise((r) => proxy.close(r));
    }
    const [sa, sb] = [await snapshot(a), await snapshot(b)];
    expect(sb).toEqual(sa);
    expect(new Set(sb.faces).size).toBe(sb.faces.length);
    expect(new Set(sb.fingers).size).toBe(sb.fingers.length);
  }, 300_000);

  it('a conflict (the same person changed on both while apart) resolves to the newest change, on both sides', async () => {
    await writeFace(a, 'PATCH', 'Pete_Sampras', 1);
    await new Promise((r) => setTimeout(r, 20));
    await writeFace(b, 'PATCH', 'Pete_Sampras', 2); // later: wins
    const pulled = await sync('pull', b, a);
    expect(pulled).toMatchObject({ updated: 0, error: null }); // A's older change is stale on B
    await sync('push', b, a);
    const [sa, sb] = [await snapshot(a), await snapshot(b)];
    expect(sa).toEqual(sb);
    const row = sa.faceDump.map((r: string) => JSON.parse(r)).find((r: string[]) => r[0] === 'Pete_Sampras');
    const own = (await api(b, 'GET', '/api/v1/services/face/templates/Pete_Sampras')).body;
    expect(row[1]).toEqual(own.Templates);
  }, 300_000);
});
