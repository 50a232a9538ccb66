import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** `npm start` = `biostation serve`: first start creates the demo application and tells how to get a token. */
describe('biostation serve', () => {
  it('starts, prints the demo credential and a token command, serves it, and stops cleanly on SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bs-serve-'));
    const child = spawn('node', ['src/bin/biostation.mjs', 'serve', '--port', '0'], {
      env: { ...process.env, BIOSTATION_DATA_DIR: dataDir, BIOSTATION_ENGINES: 'none', BIOSTATION_LOG_LEVEL: 'warn' },
    });
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner: ${stderr}`)), 30_000);
      child.stderr.on('data', (d) => {
        stderr += d;
        const m = /listening on (http:\/\/\S+)/.exec(stderr);
        if (m && stderr.includes('Get a token')) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
    const file = path.join(dataDir, 'demo-credentials.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dataDir, 'station-key.jwk')).mode & 0o777).toBe(0o600);
    const demo = JSON.parse(readFileSync(file, 'utf8'));
    expect(stderr).toContain(demo.secret);
    const res = await fetch(`${url}/api/v1/app-credentials/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: demo.key, secret: demo.secret }),
    });
    expect(res.status).toBe(200);
    const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });
});
