import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { PeerCertificate, TLSSocket } from 'node:tls';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autoTlsPaths, fingerprintOf, generateSelfSigned, loadTls } from '../../src/http/tls.js';
import { startTestStation, type TestStation } from './harness.js';

/** GET over HTTPS trusting only `ca`; returns status, headers and the server certificate. */
function httpsGet(url: string, ca: string): Promise<{ status: number; headers: Record<string, unknown>; cert: PeerCertificate }> {
  return new Promise((resolve, reject) => {
    const req = https.get(url, { ca }, (res) => {
      const cert = (res.socket as TLSSocket).getPeerCertificate();
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, cert }));
    });
    req.on('error', reject);
  });
}

/** Issue #18 finding 7: no security headers, no TLS, /metrics and /api/docs open to anyone who reaches the port. */
describe('security headers, CORS and loopback-only operations (issue #18 finding 7)', () => {
  let t: TestStation;
  let token: string;
  beforeAll(async () => {
    t = await startTestStation();
    token = (await t.application('transport')).token;
  });
  afterAll(() => t?.close());

  it('every answer carries the security headers (API, errors, docs); no HSTS over plain HTTP', async () => {
    for (const [p, auth] of [['/health', false], ['/api/v1/services/face/count', true], ['/api/v1/nothing', false], ['/api/docs/', false]] as const) {
      const res = await t.request('GET', p, auth ? { token } : {});
      const h = res.headers;
      expect(h.get('x-content-type-options'), p).toBe('nosniff');
      expect(h.get('x-frame-options'), p).toBe('DENY');
      expect(h.get('referrer-policy'), p).toBe('no-referrer');
      expect(h.get('content-security-policy'), p).toContain("frame-ancestors 'none'");
      expect(h.get('content-security-policy'), p).toContain("object-src 'none'");
      expect(h.get('cross-origin-opener-policy'), p).toBe('same-origin');
      expect(h.get('strict-transport-security'), p).toBeNull();
    }
  });

  it('CORS is closed: no Access-Control-Allow-* for a foreign origin, and a preflight gets no grant', async () => {
    const get = await t.request('GET', '/api/v1/services/face/count', { token, headers: { origin: 'http://evil.example' } });
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await t.request('OPTIONS', '/api/v1/services/face/count', {
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-headers')).toBeNull();
  });

  it('/metrics, /api/docs and /api/openapi.json answer loopback clients and, elsewhere, only a station-admin session', async () => {
    for (const p of ['/metrics', '/api/docs/', '/api/openapi.json']) {
      expect((await t.request('GET', p)).status, p).toBe(200);
      for (const remoteAddress of ['10.1.2.3', '192.168.0.20', '::ffff:10.0.0.9', 'fe80::1']) {
        const res = await t.station.server.inject({ method: 'GET', url: p, remoteAddress });
        expect(res.statusCode, `${p} from ${remoteAddress}`).toBe(404);
      }
      expect((await t.station.server.inject({ method: 'GET', url: p, remoteAddress: '::ffff:127.0.0.1' })).statusCode, p).toBe(200);
    }
    // Elsewhere, a live station-admin session opens them (src/auth/station-admin.ts).
    const session = await t.station.services.stationAdmin!.openSession(t.station.stationAdminSecret!);
    const withSession = await t.station.server.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.1.2.3', headers: { authorization: `Bearer ${session!.token}` } });
    expect(withSession.statusCode).toBe(200);
    const withAppToken = await t.station.server.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.1.2.3', headers: { authorization: `Bearer ${token}` } });
    expect(withAppToken.statusCode).toBe(404);
    const health = await t.station.server.inject({ method: 'GET', url: '/health', remoteAddress: '10.1.2.3' });
    expect(health.statusCode).toBe(200);
  });
});

describe('TLS (issue #18 finding 7)', () => {
  it('BIOSTATION_TLS=auto serves HTTPS with a generated self-signed certificate (key 0600), HSTS, and reuses it', async () => {
    const t = await startTestStation({ config: { tls: 'auto' } });
    try {
      expect(t.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const paths = autoTlsPaths(t.dataDir);
      expect(statSync(paths.key).mode & 0o777).toBe(0o600);
      const pem = readFileSync(paths.cert, 'utf8');
      const res = await httpsGet(`${t.url}/health`, pem);
      expect(res.status).toBe(200);
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(res.cert.fingerprint256).toBe(fingerprintOf(pem));
      // A client that pins nothing refuses the self-signed certificate.
      await expect(fetch(`${t.url}/health`)).rejects.toThrow();
      // Later starts reuse the certificate, so pins stay valid.
      const again = await loadTls({ tls: 'auto', dataDir: t.dataDir });
      expect(again?.fingerprint256).toBe(fingerprintOf(pem));
    } finally {
      await t.close();
    }
  });

  it('BIOSTATION_TLS=files serves the supplied certificate and key', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bs-tls-'));
    try {
      const { cert, key } = await generateSelfSigned();
      writeFileSync(path.join(dir, 'cert.pem'), cert);
      writeFileSync(path.join(dir, 'key.pem'), key, { mode: 0o600 });
      const t = await startTestStation({ config: { tls: 'files', tlsCertFile: path.join(dir, 'cert.pem'), tlsKeyFile: path.join(dir, 'key.pem') } });
      try {
        const res = await httpsGet(`${t.url}/health`, cert);
        expect(res.status).toBe(200);
        expect(res.cert.fingerprint256).toBe(fingerprintOf(cert));
      } finally {
        await t.close();
      }
      await expect(loadTls({ tls: 'files', dataDir: dir })).rejects.toThrow(/BIOSTATION_TLS_CERT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
