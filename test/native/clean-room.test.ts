import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { distinctOuts, renderModule } from '../../native/tools/extract-commands.js';
import { assembleSwipeLines, estimateFrameShifts, selectChangedLines, stitchFrames, stretchContrast, swipeSpeeds } from '../../native/drivers/swipe-assembly.js';
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

  it('stitching with edge rows cut, the latest frame on top and a fixed canvas width centred on the first frame', () => {
    const W = 60;
    const big = texture(W, 120);
    const frame = (top: number, left: number) => {
      const f = new Uint8Array(40 * 20);
      for (let y = 0; y < 20; y++) for (let x = 0; x < 40; x++) f[y * 40 + x] = big[(top + y) * W + left + x]!;
      return f;
    };
    const frames = [frame(0, 10), frame(7, 12), frame(13, 11)];
    const image = stitchFrames(frames, 40, 20, { maxDx: 4, minOverlapRows: 5, background: 255, overlap: 'latest', edgeRows: 3, canvasWidthPx: 60 });
    // 13 rows of travel + 20 - 2 x 3 rows per frame; 60 wide, the first frame at columns 10..49.
    expect(image).toMatchObject({ widthPx: 60, heightPx: 27 });
    expect(Array.from(image.pixels.subarray(10, 50))).toEqual(Array.from(big.subarray(3 * W + 10, 3 * W + 50)));
    // The last frame (placed 13 rows down, 1 column right) shows over the others on its rows.
    expect(Array.from(image.pixels.subarray(26 * 60 + 11, 26 * 60 + 51))).toEqual(Array.from(big.subarray((13 + 16) * W + 11, (13 + 16) * W + 51)));
    expect(image.pixels[0]).toBe(255);
    expect(() => stitchFrames(frames, 40, 20, { maxDx: 4, minOverlapRows: 5, background: 255, edgeRows: 10 })).toThrow(RangeError);
  });

  it('line-scan assembly: speeds follow the finger (twice as fast -> twice the advance, resting -> none)', () => {
    const w = 40;
    const src = texture(w, 400);
    const row = (y: number) => {
      const y0 = Math.floor(y);
      const t = y - y0;
      return Uint8Array.from({ length: w }, (_, x) => Math.round(src[y0 * w + x]! * (1 - t) + src[(y0 + 1) * w + x]! * t));
    };
    // 200 rows at 0.2 px per row, 100 rows resting, 200 rows at 0.4 px per row.
    const ys = [...Array.from({ length: 200 }, (_, i) => 10 + 0.2 * i), ...new Array(100).fill(50), ...Array.from({ length: 200 }, (_, i) => 50 + 0.4 * i)];
    const opts = { widthPx: w, noiseQuantile: 0, smoothingLines: 3, speedGain: 1 };
    const v = swipeSpeeds(ys.map(row), opts);
    const median = (a: number[]) => a.slice().sort((p, q) => p - q)[a.length >> 1]!;
    const slow = median(v.slice(20, 180));
    const fast = median(v.slice(320, 480));
    expect(fast / slow).toBeGreaterThan(1.7);
    expect(fast / slow).toBeLessThan(2.3);
    expect(median(v.slice(210, 290))).toBe(0);
    const image = assembleSwipeLines(ys.map(row), opts);
    expect(image.widthPx).toBe(w);
    expect(image.heightPx).toBe(Math.floor(v.reduce((a, b) => a + b, 0)) + 1);
    // speedExponent 0.5 compresses the range: twice as fast -> about sqrt(2) the advance.
    const vs = swipeSpeeds(ys.map(row), { ...opts, speedExponent: 0.5 });
    const ratio = median(vs.slice(320, 480)) / median(vs.slice(20, 180));
    expect(ratio).toBeGreaterThan(1.2);
    expect(ratio).toBeLessThan(1.6);
  });

  it('line selection keeps a row each time the picture has changed by minChange, none while the finger rests', () => {
    const w = 40;
    const src = texture(w, 400);
    const row = (y: number) => src.slice(y * w, (y + 1) * w);
    // 60 rows one pixel apart, then 50 repeats of the last one (finger resting), then 60 more.
    const ys = [...Array.from({ length: 60 }, (_, i) => i), ...new Array(50).fill(59), ...Array.from({ length: 60 }, (_, i) => 60 + i)];
    const all = selectChangedLines(ys.map(row), { widthPx: w, minChange: 1 });
    expect(all.heightPx).toBe(120);
    expect(all.kept.slice(58, 62)).toEqual([58, 59, 110, 111]);
    expect(all.pixels.subarray(0, w)).toEqual(row(0));
    // A larger threshold keeps fewer rows, each differing from the previous kept one by at least it.
    const some = selectChangedLines(ys.map(row), { widthPx: w, minChange: 40 });
    expect(some.heightPx).toBeLessThan(120);
    expect(some.heightPx).toBeGreaterThan(1);
    expect(() => selectChangedLines([], { widthPx: w, minChange: 1 })).toThrow(RangeError);
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
