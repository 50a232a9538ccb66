import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptTemplate, encryptTemplate, TEMPLATE_MAGIC } from '../../src/store/encryption/encrypting-store.js';
import { startTestStation, type TestStation } from './harness.js';
import { openStore } from '../../src/store/index.js';
import { fakeFaceEngine, fakeFingerEngine } from './fakes.js';

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

const image = (name: string) => Buffer.from(`PERSON:${name}`).toString('base64');

/**
 * Issue #18 finding 5: templates were stored in clear, database files 0644, applications/ 0755.
 * The fake engines' template of `PERSON:<name>` is the text `T:<name>`; after enrolments no file of
 * the data directory may contain any template's bytes.
 */
describe('templates encrypted at rest (issue #18 finding 5)', () => {
  let t: TestStation;
  let token: string;
  const faces = Array.from({ length: 12 }, (_, i) => `zq7face${i}plaintextmarker`);
  const fingers = Array.from({ length: 12 }, (_, i) => `zq7finger${i}plaintextmarker`);

  beforeAll(async () => {
    t = await startTestStation({ faceEngine: fakeFaceEngine, fingerEngine: fakeFingerEngine });
    token = (await t.application('at-rest')).token;
    for (const [i, name] of faces.entries()) {
      const res = await t.request('POST', `/api/v1/services/face/enroll/f${i}`, { token, json: { Images: [{ imageData: image(name) }] } });
      expect(res.status).toBe(200);
    }
    for (const [i, name] of fingers.entries()) {
      const res = await t.request('POST', `/api/v1/services/finger/enroll/g${i}`, { token, json: { imageData: image(name) } });
      expect(res.status).toBe(200);
    }
    // A replace and an append leave old pages behind in SQLite: those must not hold clear bytes either.
    expect((await t.request('PATCH', '/api/v1/services/face/f0', { token, json: { Images: [{ imageData: image(faces[0]) }] } })).status).toBe(200);
    expect((await t.request('POST', '/api/v1/services/finger/enroll/g0', { token, json: { imageData: image(fingers[1]) } })).status).toBe(200);
  });
  afterAll(() => t?.close());

  it('the API still gives the templates back and recognises persons (the gallery holds decrypted vectors)', async () => {
    const rec = await t.request('GET', '/api/v1/services/face/templates/f3', { token });
    expect(rec.status).toBe(200);
    expect(Buffer.from(rec.body.Templates[0].Data, 'base64').toString()).toBe(`T:${faces[3]}`);
    const id = await t.request('POST', '/api/v1/services/face/identify', { token, json: { Images: [{ imageData: image(faces[5]) }] } });
    expect(id.body.ExternalID).toBe('f5');
    const fid = await t.request('POST', '/api/v1/services/finger/identify', { token, json: { imageData: image(fingers[7]) } });
    expect(fid.body.ExternalID).toBe('g7');
    const dump = await t.request('GET', '/api/v1/services/finger/dump', { token });
    expect(dump.body.result.fingers.find((p: { externalId: string }) => p.externalId === 'g0').templates).toHaveLength(2);
  });

  it('no file of the data directory holds a template in clear (while running, WAL included)', () => {
    const markers = [...faces, ...fingers].map((n) => Buffer.from(`T:${n}`));
    const files = filesUnder(t.dataDir);
    expect(files.some((f) => f.endsWith('.db'))).toBe(true);
    for (const file of files) {
      const bytes = readFileSync(file);
      for (const m of markers) expect(bytes.includes(m), `${m} in ${path.relative(t.dataDir, file)}`).toBe(false);
      // Even a fragment of the shared part of every template would show a leak.
      expect(bytes.includes(Buffer.from('plaintextmarker')), path.relative(t.dataDir, file)).toBe(false);
    }
  });

  it('data files are 0600 and folders 0700', () => {
    expect(statSync(t.dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(t.dataDir, 'applications')).mode & 0o777).toBe(0o700);
    for (const file of filesUnder(t.dataDir)) expect(statSync(file).mode & 0o777, path.relative(t.dataDir, file)).toBe(0o600);
    expect(filesUnder(t.dataDir).map((f) => path.basename(f))).toContain('master.key');
  });
});

describe('template cipher', () => {
  const key = Buffer.alloc(32, 9);
  const aad = Buffer.from('app\0face\0alice');
  it('round-trips, starts with the magic, and refuses another person, a wrong key or a flipped bit', () => {
    const plain = Buffer.from('a face vector');
    const sealed = encryptTemplate(key, aad, plain);
    expect(Buffer.from(sealed.subarray(0, 4))).toEqual(TEMPLATE_MAGIC);
    expect(Buffer.from(decryptTemplate(key, aad, sealed)).toString()).toBe('a face vector');
    expect(() => decryptTemplate(key, Buffer.from('app\0face\0mallory'), sealed)).toThrow();
    expect(() => decryptTemplate(Buffer.alloc(32, 1), aad, sealed)).toThrow();
    const flipped = Uint8Array.from(sealed);
    flipped[20] ^= 1;
    expect(() => decryptTemplate(key, aad, flipped)).toThrow();
  });
  it('reads rows written before encryption (no magic) as they are', () => {
    expect(Buffer.from(decryptTemplate(key, aad, Buffer.from('FMR\0legacy'))).toString()).toBe('FMR\0legacy');
  });
});

const cli = (dataDir: string, ...args: string[]) =>
  promisify(execFile)('node', ['src/bin/biostation.mjs', ...args], { env: { ...process.env, BIOSTATION_DATA_DIR: dataDir, BIOSTATION_LOG_LEVEL: 'silent' } });

/** Files of `dir` holding any of `markers`, as relative paths. */
function filesHolding(dir: string, markers: Buffer[]): string[] {
  return filesUnder(dir).filter((f) => {
    const bytes = readFileSync(f);
    return markers.some((m) => bytes.includes(m));
  }).map((f) => path.relative(dir, f));
}

/**
 * A data directory that started before encryption at rest: rows in clear stay readable, and
 * `biostation keys migrate` encrypts them online (the station keeps running), idempotently, after
 * which no file of the data directory holds a template in clear.
 */
describe('templates stored in clear before encryption (keys migrate, issue #18)', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'biostation-plain-'));
  const plainFaces = Array.from({ length: 30 }, (_, i) => `zq8oldface${i}plainrowmarker`);
  const plainFingers = Array.from({ length: 30 }, (_, i) => `zq8oldfinger${i}plainrowmarker`);
  const markers = [...plainFaces, ...plainFingers].map((n) => Buffer.from(`T:${n}`));
  let t: TestStation;
  let token: string;
  afterAll(async () => {
    await t?.station.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('reads the old rows, and keys migrate encrypts every one of them while the station runs', async () => {
    // A station creates the application (and one encrypted enrolment), then stops.
    const first = await startTestStation({ faceEngine: fakeFaceEngine, fingerEngine: fakeFingerEngine, config: { dataDir } });
    const app = await first.application('legacy');
    expect((await first.request('POST', '/api/v1/services/face/enroll/new1', { token: app.token, json: { Images: [{ imageData: image('zq8newface') }] } })).status).toBe(200);
    await first.station.close();
    // Rows written as a station before encryption did: the plain repositories, templates in clear (one replaced: a freed old row too).
    const raw = await openStore({ kind: 'sqlite', dataDir });
    const tenant = await raw.tenants.forApplication(app.id);
    const now = new Date().toISOString();
    for (const [i, n] of plainFaces.entries()) expect(await tenant.faces.create(`old${i}`, [{ data: Buffer.from(`T:${n}`) }], now)).toBe(true);
    for (const [i, n] of plainFingers.entries()) await tenant.fingers.appendTemplates(`oldf${i}`, [{ data: Buffer.from(`T:${n}`), position: 'UNKNOWN' }], now);
    await tenant.faces.replaceTemplates('old0', [{ data: Buffer.from(`T:${plainFaces[0]}`) }], now);
    await raw.close();
    expect(filesHolding(dataDir, markers).length).toBeGreaterThan(0); // the test starts from clear bytes on disk

    t = await startTestStation({ faceEngine: fakeFaceEngine, fingerEngine: fakeFingerEngine, config: { dataDir } });
    token = (await t.request('POST', '/api/v1/app-credentials/token', { json: { key: app.key, secret: app.secret } })).body.token;
    const before = await t.request('POST', '/api/v1/services/face/identify', { token, json: { Images: [{ imageData: image(plainFaces[7]) }] } });
    expect(before.body.ExternalID).toBe('old7');

    // Online: the station keeps answering while the CLI migrates in batches of 7 rows.
    const migrating = cli(dataDir, 'keys', 'migrate', '--batch', '7', '--json');
    const during = await t.request('POST', '/api/v1/services/finger/identify', { token, json: { imageData: image(plainFingers[3]) } });
    expect(during.body.ExternalID).toBe('oldf3');
    const result = JSON.parse((await migrating).stdout);
    expect(result).toMatchObject({ applications: 1, encrypted: 60, raced: 0 });
    expect(result.scanned).toBe(61);

    expect(filesHolding(dataDir, markers)).toEqual([]);
    expect(filesHolding(dataDir, [Buffer.from('plainrowmarker')])).toEqual([]);
    // The same templates come back, and persons are still recognised (a rewrite is not a change: same revision).
    const rec = await t.request('GET', '/api/v1/services/face/templates/old5', { token });
    expect(Buffer.from(rec.body.Templates[0].Data, 'base64').toString()).toBe(`T:${plainFaces[5]}`);
    const after = await t.request('POST', '/api/v1/services/finger/identify', { token, json: { imageData: image(plainFingers[29]) } });
    expect(after.body.ExternalID).toBe('oldf29');
    // Idempotent.
    expect(JSON.parse((await cli(dataDir, 'keys', 'migrate', '--json')).stdout)).toMatchObject({ encrypted: 0, scanned: 61 });
  }, 120_000);
});
