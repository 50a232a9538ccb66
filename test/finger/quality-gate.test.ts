/**
 * The fingerprint quality gate (Parameters.minImageQuality): refuses images under the documented
 * quality with FINGERPRINT_QUALITY_TOO_LOW, and with its default refuses no FVC image (the lowest FVC
 * quality, fvc2002/DB3_B 108_4, is accepted). bench:digest checks all 480 images.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FingerError } from '../../src/finger/errors.js';
import { MinutiaeFingerEngine } from '../../src/finger/index.js';
import { Parameters } from '../../src/finger/parameters.js';
import { fvcDir, hasFvc } from './datasets.js';

const fvc = (db: string, name: string) => readFileSync(path.join(fvcDir(db), `${name}.png`));

describe.skipIf(!hasFvc)('fingerprint quality gate', () => {
  it('accepts the poorest FVC image with the default gate', async () => {
    const r = await new MinutiaeFingerEngine().extract(fvc('fvc2002/DB3_B', '108_4'));
    expect(r.quality).toBeGreaterThanOrEqual(Parameters.minImageQuality);
    expect(r.quality).toBeLessThan(10);
  });

  it('refuses an image under the gate with FINGERPRINT_QUALITY_TOO_LOW and says why', async () => {
    const strict = new MinutiaeFingerEngine({ minImageQuality: 50 });
    const error = await strict.extract(fvc('fvc2002/DB3_B', '108_4')).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FingerError);
    expect((error as FingerError).code).toBe('FINGERPRINT_QUALITY_TOO_LOW');
    expect((error as FingerError).details).toMatchObject({ minQuality: 50 });
    // a good print passes the same strict gate
    expect((await strict.extract(fvc('fvc2002/DB1_B', '101_1'))).quality).toBeGreaterThanOrEqual(50);
  });
});
