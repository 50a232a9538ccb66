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

  it('a folder without a recording fails with exit status 1 and a typed error', async () => {
    const res = await cli('readers', 'replay', tmp, '--out', path.join(tmp, 'x.png'), '--json');
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout)).toMatchObject({ error: 'RecordingFormatError', message: expect.stringMatching(/no 'device' file/) });
  });
});
