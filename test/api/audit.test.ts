import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/runtime/config.js';
import { startStation } from '../../src/station.js';
import { createLogger } from '../../src/runtime/logger.js';
import { startTestStation, type TestStation } from './harness.js';
import { fakeFaceEngine, fakeFingerEngine } from './fakes.js';

const run = promisify(execFile);
const cli = (dataDir: string, ...args: string[]) =>
  run('node', ['src/bin/biostation.mjs', ...args], { env: { ...process.env, BIOSTATION_DATA_DIR: dataDir, BIOSTATION_LOG_LEVEL: 'silent' } });
const image = (name: string) => Buffer.from(`PERSON:${name}`).toString('base64');
const CPF = '52998224725';

/** Issue #18 finding 5: ext_ids (often a CPF) in info-level request logs; no audit trail of biometric operations. */
describe('audit trail and request logs (issue #18 finding 5)', () => {
  let t: TestStation;
  let token: string;
  const lines: string[] = [];

  beforeAll(async () => {
    const sink = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
    const logger = pino({ level: 'info' }, sink);
    t = await startTestStation({ faceEngine: fakeFaceEngine, fingerEngine: fakeFingerEngine, logger, config: { logLevel: 'info' } });
    token = (await t.application('audited')).token;
    const face = (p: string, json: unknown, method = 'POST') => t.request(method, `/api/v1/services/face${p}`, { token, json });
    expect((await face(`/enroll/${CPF}`, { Images: [{ imageData: image('ana') }] })).status).toBe(200);
    expect((await face(`/${CPF}/verify`, { Images: [{ imageData: image('ana') }] })).body.result.code).toBe(1002);
    expect((await face(`/${CPF}/verify`, { Images: [{ imageData: image('bia') }] })).body.result.code).toBe(1003);
    expect((await face('/identify', { Images: [{ imageData: image('ana') }] })).body.ExternalID).toBe(CPF);
    expect((await t.request('GET', `/api/v1/services/face/templates/${CPF}`, { token })).status).toBe(200);
    expect((await t.request('POST', '/api/v1/services/finger/enroll/other', { token, json: { imageData: image('x') } })).status).toBe(200);
    expect((await t.request('POST', `/api/v1/services/face/${CPF}/verify`, { token: 'a.b.c', json: {} })).status).toBe(401);
    expect((await t.request('GET', '/api/v1/services/face/count', { token })).status).toBe(200);
    expect((await t.request('DELETE', `/api/v1/services/face/${CPF}`, { token })).status).toBe(200);
    await t.station.services.audit!.flush();
  });
  afterAll(() => t?.close());

  it('info-level request logs name the route pattern, never the ext_id', () => {
    const completed = lines.filter((l) => l.includes('request completed'));
    expect(completed.length).toBeGreaterThanOrEqual(9);
    expect(completed.some((l) => l.includes('/api/v1/services/face/:ext_id/verify'))).toBe(true);
    for (const l of lines) expect(l, l).not.toContain(CPF);
  });

  it('`biostation audit --since 1h --json` lists every biometric operation with pseudonymous ext_ids and no biometric data', async () => {
    const { stdout } = await cli(t.dataDir, 'audit', '--since', '1h', '--json');
    const { entries } = JSON.parse(stdout) as { entries: Array<Record<string, unknown>> };
    expect(entries.map((e) => e.operation)).toEqual([
      'face.enroll', 'face.verify', 'face.verify', 'face.identify', 'face.templates', 'finger.enroll', 'face.verify', 'face.delete',
    ]);
    expect(entries.map((e) => e.resultCode)).toEqual([1000, 1002, 1003, 1008, null, 1000, 1015, 1004]);
    expect(entries[6]).toMatchObject({ httpStatus: 401, applicationId: null, extId: null });
    const pseudonym = entries[0].extId as string;
    expect(pseudonym).toMatch(/^hmac:[0-9a-f]{32}$/);
    for (const i of [1, 2, 3, 4, 7]) expect(entries[i].extId, String(i)).toBe(pseudonym);
    expect(stdout).not.toContain(CPF);
    expect(stdout).not.toContain('T:ana');
    for (const e of entries) expect(Object.keys(e).sort()).toEqual(['applicationId', 'at', 'extId', 'httpStatus', 'operation', 'requestId', 'resultCode', 'seq']);
  });

  it('the audit table is append-only', () => {
    const db = new Database(path.join(t.dataDir, 'station.db'));
    try {
      expect(() => db.prepare('UPDATE audit_log SET ext_id = NULL').run()).toThrow(/append-only/);
      expect(() => db.prepare('DELETE FROM audit_log').run()).toThrow(/append-only/);
    } finally {
      db.close();
    }
  });
});

describe('keys rotate (issue #18 finding 5)', () => {
  it('re-wraps the data keys under a new master key; the templates stay readable after a restart', async () => {
    const t = await startTestStation({ faceEngine: fakeFaceEngine });
    const { token } = await t.application('rotating');
    expect((await t.request('POST', '/api/v1/services/face/enroll/p1', { token, json: { Images: [{ imageData: image('kim') }] } })).status).toBe(200);
    const keyFile = path.join(t.dataDir, 'master.key');
    const before = readFileSync(keyFile, 'utf8');
    // While the station serves.
    const { stdout } = await cli(t.dataDir, 'keys', 'rotate', '--json');
    const result = JSON.parse(stdout);
    expect(result.rewrapped).toBe(1);
    expect(readFileSync(keyFile, 'utf8')).not.toBe(before);
    expect((await t.request('GET', '/api/v1/services/face/templates/p1', { token })).status).toBe(200);
    // A restart reads the new key.
    await t.station.close();
    const config = loadConfig({}, { dataDir: t.dataDir, port: 0, logLevel: 'silent', createDemoApplication: false, engines: { face: true, finger: false, ocr: false } });
    const again = await startStation(config, { logger: createLogger('silent'), faceEngine: fakeFaceEngine });
    try {
      const app = (await again.services.applications.list())[0];
      const store = await again.services.stores.forApplication(app.id);
      const person = await store.faces.find('p1');
      expect(Buffer.from(person!.templates[0].data).toString()).toBe('T:kim');
    } finally {
      await again.close();
      await t.close().catch(() => undefined);
    }
  });
});
