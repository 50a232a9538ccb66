import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApplications } from '../../src/station.js';
import { startTestStation, type TestStation } from './harness.js';

/** Issue #18 finding 6: tokens outlived `apps rotate-secret` (valid up to an hour); the demo secret was printed at every start. */
describe('token revocation (issue #18 finding 6)', () => {
  let t: TestStation;
  beforeAll(async () => {
    t = await startTestStation();
  });
  afterAll(() => t?.close());

  const count = (token: string) => t.request('GET', '/api/v1/services/face/count', { token });

  it('rotating the secret revokes every token issued before, at once', async () => {
    const app = await t.application('rotate');
    const second = (await t.request('POST', '/api/v1/app-credentials/token', { json: { key: app.key, secret: app.secret } })).body.token;
    expect((await count(app.token)).status).toBe(200);
    const rotated = await t.station.services.applications.rotateSecret(app.key);
    for (const old of [app.token, second]) {
      const res = await count(old);
      expect(res.status).toBe(401);
      expect(res.body.result.message).toBe('UNAUTHORIZED');
    }
    const fresh = await t.request('POST', '/api/v1/app-credentials/token', { json: { key: app.key, secret: rotated.secret } });
    expect(fresh.status).toBe(200);
    expect((await count(fresh.body.token)).status).toBe(200);
  });

  it('a rotation made by another process on the same registry (the CLI) revokes on the next request', async () => {
    const app = await t.application('cli-rotate');
    const other = await openApplications(t.station.services.config);
    try {
      await other.applications.rotateSecret(app.key);
    } finally {
      await other.close();
    }
    expect((await count(app.token)).status).toBe(401);
  });

  it('disabling revokes the tokens and they stay revoked', async () => {
    const app = await t.application('disable');
    await t.station.services.applications.disable(app.key);
    expect((await count(app.token)).status).toBe(401);
  });

  it('rotating one application leaves the tokens of another valid', async () => {
    const a = await t.application('a');
    const b = await t.application('b');
    await t.station.services.applications.rotateSecret(a.key);
    expect((await count(a.token)).status).toBe(401);
    expect((await count(b.token)).status).toBe(200);
  });
});

describe('demo secret shown once (issue #18 finding 5)', () => {
  const serve = (dataDir: string) =>
    new Promise<string>((resolve, reject) => {
      const child = spawn('node', ['src/bin/biostation.mjs', 'serve', '--port', '0'], {
        env: { ...process.env, BIOSTATION_DATA_DIR: dataDir, BIOSTATION_ENGINES: 'none', BIOSTATION_LOG_LEVEL: 'warn' },
      });
      let stderr = '';
      let stopping = false;
      const timer = setTimeout(() => reject(new Error(`no banner: ${stderr}`)), 30_000);
      child.stderr.on('data', (d) => {
        stderr += d;
        if (/listening on/.test(stderr) && /Demo application|demo application/.test(stderr)) {
          clearTimeout(timer);
          stopping = true;
          child.kill('SIGTERM');
        }
      });
      child.on('exit', (code) => (stopping ? resolve(stderr) : reject(new Error(`exited ${code}: ${stderr}`))));
    });

  it('the first start prints the secret; later starts print only the key and where the secret is', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bs-demo-'));
    try {
      const first = await serve(dataDir);
      const demo = JSON.parse(readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8'));
      expect(first).toContain(demo.secret);
      const second = await serve(dataDir);
      expect(second).toContain(demo.key);
      expect(second).not.toContain(demo.secret);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
