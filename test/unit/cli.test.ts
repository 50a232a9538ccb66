import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openApplications } from '../../src/station.js';

const run = promisify(execFile);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'biostation-cli-'));
const cli = async (...args: string[]) => {
  try {
    const { stdout } = await run('node', ['src/bin/biostation.mjs', ...args], { env: { ...process.env, BIOSTATION_DATA_DIR: dataDir } });
    return { code: 0, stdout };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
};

describe('biostation apps CLI', () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('create --json prints one object with the secret, which then authenticates', async () => {
    const res = await cli('apps', 'create', '--name', 'kiosk-1', '--json');
    expect(res.code).toBe(0);
    const created = JSON.parse(res.stdout);
    expect(created).toEqual({ name: 'kiosk-1', key: expect.stringMatching(/^bs_/), secret: expect.any(String) });
    const registry = await openApplications({ store: 'sqlite', dataDir });
    try {
      expect(await registry.applications.authenticate(created.key, created.secret)).toBeDefined();
    } finally {
      await registry.close();
    }
    expect(statSync(path.join(dataDir, 'station.db')).isFile()).toBe(true);
  });

  it('list --json, rotate-secret --json and disable --json', async () => {
    const created = JSON.parse((await cli('apps', 'create', '--name', 'second', '--json')).stdout);
    const list = JSON.parse((await cli('apps', 'list', '--json')).stdout);
    expect(list.applications.map((a: { name: string }) => a.name)).toEqual(['kiosk-1', 'second']);
    expect(list.applications[0]).toMatchObject({ faceThreshold: null, fingerThreshold: null });
    expect(JSON.stringify(list)).not.toContain(created.secret);
    const rotated = JSON.parse((await cli('apps', 'rotate-secret', created.key, '--json')).stdout);
    expect(rotated.secret).not.toBe(created.secret);
    expect(JSON.parse((await cli('apps', 'disable', created.key, '--json')).stdout)).toEqual({ key: created.key, disabled: true });
    const after = JSON.parse((await cli('apps', 'list', '--json')).stdout);
    expect(after.applications[1].disabledAt).toEqual(expect.any(String));
  });

  it('set-threshold sets and restores per-application thresholds', async () => {
    const created = JSON.parse((await cli('apps', 'create', '--name', 'thresholds', '--json')).stdout);
    const set = JSON.parse((await cli('apps', 'set-threshold', created.key, '--face', '0.72', '--json')).stdout);
    expect(set).toEqual({ key: created.key, faceThreshold: 0.72, fingerThreshold: null, livenessThreshold: null });
    const reset = JSON.parse((await cli('apps', 'set-threshold', created.key, '--face', 'default', '--finger', '40', '--json')).stdout);
    expect(reset).toEqual({ key: created.key, faceThreshold: null, fingerThreshold: 40, livenessThreshold: null });
    const live = JSON.parse((await cli('apps', 'set-threshold', created.key, '--liveness', '0.7', '--json')).stdout);
    expect(live).toEqual({ key: created.key, faceThreshold: null, fingerThreshold: 40, livenessThreshold: 0.7 });
    expect((await cli('apps', 'set-threshold', created.key, '--liveness', '1.5', '--json')).code).toBe(1);
    expect((await cli('apps', 'set-threshold', created.key, '--face', 'high', '--json')).code).toBe(1);
  });

  it('set-dedup sets the de-duplication policy (default warn) and refuses anything but off, warn, block', async () => {
    const created = JSON.parse((await cli('apps', 'create', '--name', 'dedup', '--json')).stdout);
    const mine = async () => JSON.parse((await cli('apps', 'list', '--json')).stdout).applications.find((a: { key: string }) => a.key === created.key);
    expect((await mine()).dedupPolicy).toBe('warn');
    expect(JSON.parse((await cli('apps', 'set-dedup', created.key, 'block', '--json')).stdout)).toEqual({ key: created.key, dedupPolicy: 'block' });
    expect((await mine()).dedupPolicy).toBe('block');
    const bad = await cli('apps', 'set-dedup', created.key, 'sometimes', '--json');
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({ error: 'INVALID_DEDUP_POLICY' });
  }, 120_000);

  it('an unknown key exits 1 with a JSON error', async () => {
    const res = await cli('apps', 'disable', 'bs_missing', '--json');
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout)).toEqual({ error: 'APPLICATION_NOT_FOUND', message: expect.any(String) });
  });
});
