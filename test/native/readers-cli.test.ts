import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { comparePixels, decodeGray } from '../../native/replay.js';
import { captureDir, haveCaptures } from './usb-datasets.js';

const run = promisify(execFile);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'readers-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('node', ['src/bin/biostation.mjs', ...args]);
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe.skipIf(!haveCaptures)('biostation readers replay', () => {
  for (const dev of ['nb1010', 'aes3500', 'elan', 'upektc_img', 'vfs301', 'vfs5011']) {
    it(`${dev}: writes the image, equal to the recording's capture.png`, async () => {
      const out = path.join(tmp, `${dev}.png`);
      const res = await cli('readers', 'replay', captureDir(dev), '--out', out, '--json');
      expect(res.code).toBe(0);
      expect(JSON.parse(res.stdout)).toMatchObject({ driver: dev, out });
      const diff = comparePixels(await decodeGray(readFileSync(out)), await decodeGray(readFileSync(path.join(captureDir(dev), 'capture.png'))));
      expect(diff.meanAbsDiff).toBe(0);
    });
  }

  it("compare: pixel difference and the engine's score, or the engine's refusal, per recording", async () => {
    const res = await cli('readers', 'compare', captureDir('nb1010'), captureDir('vfs301'), '--json');
    expect(res.code).toBe(0);
    const { rows } = JSON.parse(res.stdout);
    expect(rows[0]).toMatchObject({ recording: 'nb1010', equalPixels: 46080, totalPixels: 46080, meanAbsDiff: 0, minutiae: expect.any(Number) });
    expect(rows[0].score).toBeGreaterThan(rows[0].threshold);
    expect(rows[1]).toMatchObject({ recording: 'vfs301', meanAbsDiff: 0, engineError: expect.stringMatching(/^NO_FINGERPRINT/) });
  });

  it('a folder without a recording fails with exit status 1 and a typed error', async () => {
    const res = await cli('readers', 'replay', tmp, '--out', path.join(tmp, 'x.png'), '--json');
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout)).toMatchObject({ error: 'RecordingFormatError', message: expect.stringMatching(/no 'device' file/) });
  });
});
