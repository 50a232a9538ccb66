/**
 * Fingerprint extraction on worker threads (src/finger/extract-pool.ts): the same templates as
 * in-process extraction, the engine's typed errors intact across the thread (code, message,
 * details), and a worker that dies fails only its request (ENGINE_UNAVAILABLE) and is replaced.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FingerError } from '../../src/finger/errors.js';
import { createPooledFingerEngine, MinutiaeFingerEngine, type PooledFingerEngine } from '../../src/finger/index.js';
import { pngDeclaring } from '../fixtures/cnh/hostile.js';
import { fvcDir, hasFvc } from './datasets.js';

const fvc = (db: string, name: string) => readFileSync(path.join(fvcDir(db), `${name}.png`));

async function failure(p: Promise<unknown>): Promise<FingerError> {
  const e = await p.then(() => null, (x: unknown) => x);
  expect(e).toBeInstanceOf(FingerError);
  return e as FingerError;
}

describe('pooled fingerprint extraction', () => {
  let pooled: PooledFingerEngine;
  let strict: PooledFingerEngine;
  const local = new MinutiaeFingerEngine();
  beforeAll(async () => {
    [pooled, strict] = await Promise.all([createPooledFingerEngine(2), createPooledFingerEngine(1, { minImageQuality: 50 })]);
  });
  afterAll(async () => {
    await Promise.all([pooled?.close(), strict?.close()]);
  });

  it('keeps the codes, messages and details of input errors', async () => {
    const wsq = new Uint8Array([0xff, 0xa0, 0xff, 0xa8, 0, 0, 0, 0]);
    const cases: Array<[Uint8Array, number | undefined]> = [
      [new Uint8Array(0), undefined],
      [new Uint8Array(64).fill(7), undefined],
      [wsq, undefined],
      [new Uint8Array(pngDeclaring(100_000, 100_000)), undefined],
      [new Uint8Array(16), 50],
    ];
    for (const [bytes, dpi] of cases) {
      const options = dpi === undefined ? undefined : { dpi };
      const [there, here] = await Promise.all([failure(pooled.extract(bytes, options)), failure(local.extract(bytes, options))]);
      expect({ code: there.code, message: there.message, details: there.details }).toEqual({ code: here.code, message: here.message, details: here.details });
      expect(there.code).not.toBe('ENGINE_UNAVAILABLE');
    }
  });

  it.skipIf(!hasFvc)('gives the in-process template bytes, and FINGERPRINT_QUALITY_TOO_LOW with its details', async () => {
    const image = fvc('fvc2002/DB1_B', '101_1');
    const [there, here] = await Promise.all([pooled.extract(image, { dpi: 500 }), local.extract(image, { dpi: 500 })]);
    expect(Buffer.from(there.template).equals(Buffer.from(here.template))).toBe(true);
    expect([there.quality, there.minutiaCount]).toEqual([here.quality, here.minutiaCount]);
    const low = await failure(strict.extract(fvc('fvc2002/DB3_B', '108_4')));
    expect(low.code).toBe('FINGERPRINT_QUALITY_TOO_LOW');
    expect(low.details).toMatchObject({ minQuality: 50, quality: expect.any(Number) });
  });

  it('fails the request of a worker that dies with ENGINE_UNAVAILABLE, then serves again', async () => {
    const bytes = new Uint8Array(64).fill(7);
    const running = Array.from({ length: 4 }, () => pooled.extract(bytes).then(() => 'ok', (e: FingerError) => e.code));
    await pooled.pool.crashOne();
    const codes = await Promise.all(running);
    for (const code of codes) expect(['INVALID_IMAGE', 'ENGINE_UNAVAILABLE']).toContain(code);
    expect((await failure(pooled.extract(bytes))).code).toBe('INVALID_IMAGE');
  });
});
