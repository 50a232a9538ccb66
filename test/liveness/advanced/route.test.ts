import { statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBase64Url } from '../../../renderer/capture/liveness/payload.js';
import { LIVENESS_KEY_FILE } from '../../../src/liveness/advanced/index.js';
import { startTestStation, type TestStation } from '../../api/harness.js';
import { BUILD_HASH, FakeInspector, sealCapture } from './fixtures.js';

describe('advanced liveness over HTTP', () => {
  let t: TestStation;
  let token: string;
  const inspector = new FakeInspector();
  const check = (body: Uint8Array, auth = token) =>
    t.request('POST', '/api/v1/services/liveness/check', { token: auth, body: Buffer.from(body), headers: { 'content-type': 'application/octet-stream' } });
  const challenge = async () => {
    const res = await t.request('POST', '/api/v1/services/liveness/challenge', { token });
    expect(res.status).toBe(200);
    return res.body as { nonce: string; expires_at: string; colours: Array<{ rgb: [number, number, number]; duration_ms: number }>; key: { kid: string; public_key: string } };
  };
  const fromView = (v: Awaited<ReturnType<typeof challenge>>) => ({
    challenge: { nonce: v.nonce, applicationId: '', issuedAt: Date.now(), expiresAt: Date.parse(v.expires_at), colours: v.colours.map((c, index) => ({ index, rgb: c.rgb, durationMs: c.duration_ms })) },
    key: { publicPoint: fromBase64Url(v.key.public_key), kid: v.key.kid },
  });

  beforeAll(async () => {
    t = await startTestStation({ advancedLiveness: { faces: inspector, extraBuilds: [BUILD_HASH], passive: null } });
    token = (await t.application('live')).token;
  });
  afterAll(() => t.close());

  it('the liveness key pair is created at first start beside the signing key, mode 0600', () => {
    const dir = t.station.services.config.dataDir;
    expect(statSync(path.join(dir, LIVENESS_KEY_FILE)).mode & 0o777).toBe(0o600);
  });

  it('challenge: one-time nonce, 4-6 colours of 300-500 ms, the public key', async () => {
    const a = await challenge();
    const b = await challenge();
    expect(a.nonce).not.toBe(b.nonce);
    expect(a.colours.length).toBeGreaterThanOrEqual(4);
    expect(a.colours.length).toBeLessThanOrEqual(6);
    for (const c of a.colours) expect(c.duration_ms).toBeGreaterThanOrEqual(300);
    for (const c of a.colours) expect(c.duration_ms).toBeLessThanOrEqual(500);
    expect(fromBase64Url(a.key.public_key).length).toBe(65);
    expect(Date.parse(a.expires_at)).toBeGreaterThan(Date.now());
  });

  it('a capture sealed to the served key is decrypted and scored (200, empty rejection); its replay is SUSPICIOUS_ACTIVITY', async () => {
    const { challenge: c, key } = fromView(await challenge());
    const { payload, totalMs } = await sealCapture(c, key);
    await new Promise((r) => setTimeout(r, totalMs));
    const res = await check(payload);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.capture_liveness.rejection).toEqual([]);
    expect(res.body.data.capture_liveness.probability).toBeGreaterThanOrEqual(0.5);
    const again = await check(payload);
    expect(again.body.data.capture_liveness.rejection).toEqual(['SUSPICIOUS_ACTIVITY']);
  });

  it('400 bodies have the spec shape; a face failure carries its error_code', async () => {
    const res = await check(new Uint8Array(500).fill(7));
    expect(res.body).toEqual({ timestamp: expect.any(String), status: 400, error: 'Bad Request', message: 'Failed to parse file', path: '/api/v1/services/liveness/check', error_code: 'UNKNOWN' });
    inspector.faces = [];
    try {
      const { challenge: c, key } = fromView(await challenge());
      const { payload, totalMs } = await sealCapture(c, key);
      await new Promise((r) => setTimeout(r, totalMs));
      const face = await check(payload);
      expect(face.body).toEqual({ timestamp: expect.any(String), status: 400, error: 'Bad Request', message: 'Face not found', path: '/api/v1/services/liveness/check', error_code: 'FACE_NOT_FOUND' });
    } finally {
      inspector.faces = new FakeInspector().faces;
    }
  });

  it('the OpenAPI description of the check carries the decision table; the challenge route is documented', async () => {
    const res = await t.request('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = typeof res.body === 'string' ? JSON.parse(res.body) : res.body;
    const check = doc.paths['/api/v1/services/liveness/check'].post;
    expect(check.description).toContain('docs/liveness-payload.md');
    for (const reason of ['UNTRUSTED_CORRUPTED_PAYLOAD', 'SUSPICIOUS_ACTIVITY', 'Failed to decrypt message', 'Failed to read metadata', 'Failed to parse file']) expect(check.description).toContain(reason);
    expect(doc.paths['/api/v1/services/liveness/challenge'].post).toBeTruthy();
  });

  it('401 without a token, for the challenge and the check', async () => {
    const res = await t.request('POST', '/api/v1/services/liveness/challenge', {});
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ status: 401, message: 'Unauthorized' });
    expect(res.body.error_code).toBeUndefined();
  });
});
