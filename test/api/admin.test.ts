import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StationAdmin } from '../../src/auth/station-admin.js';
import { startTestStation, type TestStation } from './harness.js';

/** The station-admin credential and API (issue #16): applications managed without any application token. */
describe('station-admin API', () => {
  let t: TestStation;
  let secret: string;
  let session: string;
  const admin = (method: string, p: string, json?: unknown, token = session) => t.request(method, `/api/v1/admin${p}`, { token, json });

  beforeAll(async () => {
    t = await startTestStation();
    secret = t.station.stationAdminSecret!;
  });
  afterAll(() => t.close());

  it('creates the credential at first start, shows it once and stores only its hash (0600)', async () => {
    expect(secret).toMatch(/^sa_/);
    const file = path.join(t.dataDir, 'station-admin.json');
    const stored = readFileSync(file, 'utf8');
    expect(stored).not.toContain(secret);
    expect(JSON.parse(stored).secretHash).toMatch(/^\$argon2id\$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = await StationAdmin.open(file);
    expect(again.createdSecret).toBeUndefined();
    expect(await again.admin.verify(secret)).toBe(true);
  });

  it('opens a session with the secret only; an application token is refused', async () => {
    expect((await admin('POST', '/session', { secret: 'wrong' }, '')).status).toBe(401);
    const res = await admin('POST', '/session', { secret }, '');
    expect(res.status).toBe(200);
    session = res.body.token;
    const app = await t.application('kiosk-a');
    const withAppToken = await admin('GET', '/applications', undefined, app.token);
    expect(withAppToken.status).toBe(401);
    expect(withAppToken.body.code).toBe('UNAUTHORIZED');
    expect((await admin('GET', '/applications', undefined, '')).status).toBe(401);
  });

  it('lists, creates, rotates, sets de-duplication and disables applications', async () => {
    const created = await admin('POST', '/applications', { name: 'balcão 2' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ name: 'balcão 2', key: expect.stringMatching(/^bs_/), secret: expect.any(String) });
    const { key } = created.body;
    const token = (s: string) => t.request('POST', '/api/v1/app-credentials/token', { json: { key, secret: s } });
    expect((await token(created.body.secret)).status).toBe(200);

    const list = await admin('GET', '/applications');
    expect(list.body.applications.map((a: { name: string }) => a.name)).toEqual(['kiosk-a', 'balcão 2']);
    expect(JSON.stringify(list.body)).not.toContain(created.body.secret);
    expect(list.body.applications[1]).toMatchObject({ key, disabledAt: null, dedupPolicy: 'warn' });

    const rotated = await admin('POST', `/applications/${key}/rotate`);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    expect((await token(created.body.secret)).status).toBe(401);
    expect((await token(rotated.body.secret)).status).toBe(200);

    expect((await admin('PUT', `/applications/${key}/dedup`, { policy: 'block' })).body).toEqual({ key, dedupPolicy: 'block' });
    const bad = await admin('PUT', `/applications/${key}/dedup`, { policy: 'sometimes' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('INVALID_DEDUP_POLICY');

    expect((await admin('POST', `/applications/${key}/disable`)).body).toEqual({ key, disabled: true });
    expect((await token(rotated.body.secret)).status).toBe(401);
    const missing = await admin('POST', '/applications/bs_missing/disable');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('APPLICATION_NOT_FOUND');
    expect((await admin('POST', '/applications', { name: '   ' })).body.code).toBe('INVALID_NAME');
  });

  it('ends the session on logout and on a secret rotation', async () => {
    expect((await admin('DELETE', '/session')).body).toEqual({ ended: true });
    expect((await admin('GET', '/applications')).status).toBe(401);
    const s = (await admin('POST', '/session', { secret }, '')).body.token;
    const newSecret = await t.station.services.stationAdmin!.rotate();
    expect((await admin('GET', '/applications', undefined, s)).status).toBe(401);
    expect((await admin('POST', '/session', { secret }, '')).status).toBe(401);
    expect((await admin('POST', '/session', { secret: newSecret }, '')).status).toBe(200);
  });
});
