import { mkdtempSync, readFileSync, statSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyIdOf, LivenessKeyStore } from '../../../src/liveness/advanced/keys.js';

describe('station liveness key', () => {
  it('is created once with mode 0600 and reopened unchanged', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'lk-')), 'liveness-key.json');
    const a = LivenessKeyStore.open(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const b = LivenessKeyStore.open(file);
    expect(b.current.kid).toBe(a.current.kid);
    expect(a.current.kid).toBe(keyIdOf(a.current.publicPoint));
    expect(a.current.publicPoint.length).toBe(65);
  });

  it('a rotation by another process (the CLI) is picked up by the running store; the previous key is kept', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'lk-')), 'liveness-key.json');
    const station = LivenessKeyStore.open(file);
    const before = station.current;
    const cli = LivenessKeyStore.open(file);
    const after = cli.rotate();
    // Same-millisecond writes keep the mtime: move it so the change is visible.
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(station.current.kid).toBe(after.kid);
    expect(station.find(Buffer.from(before.kid, 'hex'))?.kid).toBe(before.kid);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).previous).toHaveLength(1);
    cli.rotate();
    utimesSync(file, new Date(), new Date(Date.now() + 10_000));
    expect(station.find(Buffer.from(before.kid, 'hex'))).toBeUndefined();
  });
});
