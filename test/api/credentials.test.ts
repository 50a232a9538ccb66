import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SignJWT, importJWK, UnsecuredJWT } from 'jose';
import { TokenService } from '../../src/auth/tokens.js';
import { startTestStation, type TestStation } from './harness.js';

describe('credentials and tokens', () => {
  let t: TestStation;
  let app: Awaited<ReturnType<TestStation['application']>>;

  beforeAll(async () => {
    t = await startTestStation();
    app = await t.application('alpha');
  });
  afterAll(() => t.close());

  it('validate accepts a good key and secret', async () => {
    const res = await t.request('POST', '/api/v1/app-credentials/validate', { json: { key: app.key, secret: app.secret } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ valid: true, application: 'alpha' });
  });

  it('token returns a JWT naming the application', async () => {
    const res = await t.request('POST', '/api/v1/app-credentials/token', { json: { key: app.key, secret: app.secret } });
    expect(res.status).toBe(200);
    expect(res.body.token.split('.')).toHaveLength(3);
    expect(res.body.expires_in).toBe(3600);
    const payload = JSON.parse(Buffer.from(res.body.token.split('.')[1], 'base64url').toString());
    expect(payload.sub).toBe(app.id);
    expect(payload.jti).toBeTruthy();
    expect(payload.exp - payload.iat).toBe(3600);
  });

  for (const route of ['validate', 'token']) {
    it(`${route}: wrong key or wrong secret gives 401`, async () => {
      for (const body of [{ key: 'bs_nope', secret: app.secret }, { key: app.key, secret: 'wrong' }]) {
        const res = await t.request('POST', `/api/v1/app-credentials/${route}`, { json: body });
        expect(res.status).toBe(401);
        expect(res.body.code).toBe('UNAUTHORIZED');
      }
    });

    it(`${route}: a missing field or a wrong type gives 400, never 500`, async () => {
      for (const body of [{ key: app.key }, { key: 1, secret: 'x' }, { key: 'x'.repeat(500), secret: 'y' }, []]) {
        const res = await t.request('POST', `/api/v1/app-credentials/${route}`, { json: body });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('INVALID_REQUEST');
      }
      const raw = await t.request('POST', `/api/v1/app-credentials/${route}`, { body: '{"key": ', headers: { 'content-type': 'application/json' } });
      expect(raw.status).toBe(400);
      expect(raw.body.code).toBe('INVALID_REQUEST');
    });
  }

  describe('bad tokens give 401 on protected routes', () => {
    const count = (token?: string, header?: string) =>
      t.request('GET', '/api/v1/services/face/count', header ? { headers: { authorization: header } } : { token });

    it('accepts the good token (control)', async () => {
      expect((await count(app.token)).status).toBe(200);
    });

    it('missing and malformed headers', async () => {
      expect((await count()).status).toBe(401);
      for (const h of ['Bearer', 'Bearer ', 'Basic abc', `Token ${app.token}`, 'Bearer not-a-jwt', `Bearer ${app.token} extra`]) {
        const res = await count(undefined, h);
        expect(res.status, h).toBe(401);
        expect(res.body.result).toEqual({ code: 1015, message: 'UNAUTHORIZED', detail: expect.any(String) });
      }
    });

    it('tampered payload and tampered signature', async () => {
      const [h, p, s] = app.token.split('.');
      const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
      const forged = Buffer.from(JSON.stringify({ ...payload, exp: payload.exp + 1e6 })).toString('base64url');
      expect((await count(`${h}.${forged}.${s}`)).status).toBe(401);
      const flipped = s.slice(0, -2) + (s.endsWith('AA') ? 'BB' : 'AA');
      expect((await count(`${h}.${p}.${flipped}`)).status).toBe(401);
    });

    it('alg none', async () => {
      const payload = JSON.parse(Buffer.from(app.token.split('.')[1], 'base64url').toString());
      const unsecured = new UnsecuredJWT(payload).encode();
      expect((await count(unsecured)).status).toBe(401);
    });

    it('expired token signed by this station', async () => {
      const jwk = JSON.parse(readFileSync(path.join(t.dataDir, 'station-key.jwk'), 'utf8'));
      const key = await importJWK(jwk, 'EdDSA');
      const now = Math.floor(Date.now() / 1000);
      const expired = await new SignJWT({})
        .setProtectedHeader({ alg: 'EdDSA', kid: jwk.kid })
        .setIssuer('biostation').setAudience(jwk.kid).setSubject(app.id).setJti('x')
        .setIssuedAt(now - 7200).setExpirationTime(now - 3600)
        .sign(key);
      expect((await count(expired)).status).toBe(401);
    });

    it("another station's token", async () => {
      const other = await TokenService.open(path.join(t.dataDir, 'other-station.jwk'), 3600);
      const { token } = await other.issue(app.id);
      expect((await count(token)).status).toBe(401);
    });

    it("a disabled application's token, and its credential", async () => {
      const victim = await t.application('to-disable');
      expect((await count(victim.token)).status).toBe(200);
      await t.station.services.applications.disable(victim.key);
      expect((await count(victim.token)).status).toBe(401);
      const res = await t.request('POST', '/api/v1/app-credentials/token', { json: { key: victim.key, secret: victim.secret } });
      expect(res.status).toBe(401);
    });

    it('a rotated secret stops working at once', async () => {
      const app2 = await t.application('rotating');
      const rotated = await t.station.services.applications.rotateSecret(app2.key);
      const old = await t.request('POST', '/api/v1/app-credentials/validate', { json: { key: app2.key, secret: app2.secret } });
      expect(old.status).toBe(401);
      const fresh = await t.request('POST', '/api/v1/app-credentials/validate', { json: { key: app2.key, secret: rotated.secret } });
      expect(fresh.status).toBe(200);
    });

    it('each group answers 401 in its own error shape', async () => {
      const live = await t.request('POST', '/api/v1/services/liveness/check', { body: 'x', headers: { 'content-type': 'application/octet-stream' } });
      expect(live.status).toBe(401);
      expect(live.body).toMatchObject({ status: 401, error: 'Unauthorized', message: 'Unauthorized', path: '/api/v1/services/liveness/check' });
      expect(live.body.error_code).toBeUndefined();
      const ocr = await t.request('POST', '/api/v1/services/ocr/process-cnh', { body: new FormData() });
      expect(ocr.status).toBe(401);
      expect(ocr.body).toEqual({ statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' });
      const finger = await t.request('GET', '/api/v1/services/finger/list');
      expect(finger.status).toBe(401);
      expect(finger.body.result.code).toBe(1015);
    });
  });
});

describe('credential attempts are rate limited per client', () => {
  it('answers 429 RATE_LIMITED past the configured attempts per minute', async () => {
    const t = await startTestStation({ config: { credentialAttemptsPerMinute: 3 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push((await t.request('POST', '/api/v1/app-credentials/validate', { json: { key: 'bs_guess', secret: `s${i}` } })).status);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
      const limited = await t.request('POST', '/api/v1/app-credentials/token', { json: { key: 'bs_guess', secret: 'x' } });
      expect(limited.status).toBe(401); // each route counts on its own
      expect((await t.request('POST', '/api/v1/app-credentials/validate', { json: { key: 'bs_guess', secret: 'y' } })).body).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
    } finally {
      await t.close();
    }
  });
});
