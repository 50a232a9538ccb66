import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { distinctOuts, renderModule } from '../../native/tools/extract-commands.js';
import { assembleTwoRowSwipe, estimateFrameShifts, stretchContrast } from '../../native/drivers/swipe-assembly.js';
import { loadRecording } from '../../native/usb/recording.js';
import { dpiFromRidgePeriod, ridgePeriodPx } from '../../native/ridge-period.js';
import { captureDir, haveCaptures } from './usb-datasets.js';

describe.skipIf(!haveCaptures)('observed command modules', () => {
  for (const dev of ['vfs301', 'vfs5011', 'aes3500', 'upektc_img']) {
    it(`drivers/observed/${dev}-out.ts is what tools/extract-commands.ts prints for the recording`, async () => {
      const rec = await loadRecording(captureDir(dev));
      const expected = renderModule(`usb-captures/${dev}/${rec.file}`, distinctOuts(rec.urbs));
      expect(await readFile(new URL(`../../native/drivers/observed/${dev}-out.ts`, import.meta.url), 'utf8')).toBe(expected);
    });
  }
});

/** A smooth synthetic "fingerprint": oblique ridges with a period of 9 pixels. */
function texture(w: number, h: number): Uint8Array {
  const p = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) p[y * w + x] = Math.round(127 + 100 * Math.sin((2 * Math.PI * (x + 0.6 * y + 0.002 * x * y)) / 9));
  return p;
}

describe('swipe assembly (synthetic)', () => {
  it('block matching recovers the shift between two overlapping frames', () => {
    const W = 60;
    const big = texture(W, 120);
    const frame = (top: number, left: number) => {
      const f = new Uint8Array(40 * 20);
      for (let y = 0; y < 20; y++) for (let x = 0; x < 40; x++) f[y * 40 + x] = big[(top + y) * W + left + x]!;
      return f;
    };
    const shifts = estimateFrameShifts([frame(0, 10), frame(7, 12), frame(13, 11)], 40, 20, { maxDx: 4, minOverlapRows: 5, background: 255 });
    expect(shifts.map(({ dx, dy }) => [dx, dy])).toEqual([[2, 7], [-1, 6]]);
  });

  it('two-row assembly: a second row 3 px downstream at 1/4 px per line gives lag 12 and 1 output row per 4 lines', () => {
    const w = 40;
    const src = texture(w, 200);
    // Line i sees source row i/4 (primary) and row i/4 - 3 (second row, inverted, pixels 10..25).
    const row = (y: number) => {
      const y0 = Math.floor(y);
      const t = y - y0;
      return Uint8Array.from({ length: w }, (_, x) => Math.round(src[y0 * w + x]! * (1 - t) + src[(y0 + 1) * w + x]! * t));
    };
    const primary = Array.from({ length: 400 }, (_, i) => row(20 + i / 4));
    const windows = Array.from({ length: 400 }, (_, i) => row(20 + i / 4 - 3).subarray(10, 26).map((v) => 255 - v));
    const out = assembleTwoRowSwipe(primary, windows, { widthPx: w, windowOffsetPx: 10, windowInverted: true, maxLag: 30, rowDistancePx: 3, medianWindow: 5, minCorrelation: 0.3 });
    expect(out.lags.slice(20)).toEqual(new Array(380).fill(12));
    // 399 steps of 1/4 px = 100 rows; the first 12 lines cannot see a lag of 12 yet and move a little faster.
    expect(out.heightPx).toBeGreaterThanOrEqual(100);
    expect(out.heightPx).toBeLessThanOrEqual(105);
  });

  it('the contrast stretch maps the 1st..99th percentile to 0..255', () => {
    const v = Array.from({ length: 101 }, (_, i) => 1000 + i);
    const g = stretchContrast(v);
    expect([g[0], g[1], g[50], g[99], g[100]]).toEqual([0, 0, 128, 255, 255]);
  });
});

describe('ridge period', () => {
  it('finds the period of oblique ridges and converts it to dpi against the FVC median (8.9 px at 500 dpi)', () => {
    for (const period of [7, 9, 14]) {
      const w = 200;
      const h = 150;
      const pixels = new Uint8Array(w * h);
      for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) pixels[y * w + x] = Math.round(127 + 100 * Math.sin((2 * Math.PI * (0.8 * x + 0.6 * y)) / period));
      expect(Math.abs(ridgePeriodPx({ widthPx: w, heightPx: h, pixels }) - period)).toBeLessThan(0.05 * period);
    }
    expect(dpiFromRidgePeriod(8.9)).toBe(500);
    expect(() => ridgePeriodPx({ widthPx: 8, heightPx: 8, pixels: new Uint8Array(64) })).toThrow(RangeError);
  });
});
