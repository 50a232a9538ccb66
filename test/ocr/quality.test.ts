/**
 * Image quality metrics (src/ocr/quality.ts measureQuality): its one-pass histograms against the
 * metric computed the plain way on random pages of several shapes.
 */
import { describe, expect, it } from 'vitest';
import { measureQuality } from '../../src/ocr/quality.js';

/** The metric as documented, computed directly: contrast = mode - 0.5th percentile; sharpness = mean of the top 2 % |Laplacian|. */
function reference(data: Uint8Array, w: number, h: number): { sharpness: number; contrast: number } {
  const sorted = Array.from(data).sort((a, b) => a - b);
  const counts = new Array<number>(256).fill(0);
  for (const v of data) counts[v]++;
  const mode = counts.indexOf(Math.max(...counts));
  const p005 = sorted[Math.max(0, Math.ceil(0.005 * data.length) - 1)];
  const laps: number[] = [];
  for (let y = 1; y < h - 1; y++) for (let x = 1; x < w - 1; x++) {
    const i = y * w + x;
    laps.push(Math.abs(4 * data[i] - data[i - 1] - data[i + 1] - data[i - w] - data[i + w]));
  }
  laps.sort((a, b) => b - a);
  const top = laps.slice(0, Math.max(1, Math.round(laps.length * 0.02)));
  const sharpness = laps.length ? top.reduce((s, v) => s + v, 0) / top.length : 0;
  return { sharpness: Math.round(sharpness * 10) / 10, contrast: Math.max(0, mode - p005) };
}

describe('measureQuality', () => {
  it('gives the documented contrast and sharpness', async () => {
    let seed = 7;
    const rnd = (): number => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) / 2 ** 24;
    for (const [w, h] of [[200, 120], [57, 33], [3, 90]]) {
      // Paper near 200 with ink strokes: a clear mode, and edges of varied steepness.
      const data = new Uint8Array(w * h).map(() => (rnd() < 0.1 ? Math.floor(rnd() * 80) : 190 + Math.floor(rnd() * 20)));
      const q = await measureQuality(data, w, h, 700);
      const ref = reference(data, w, h);
      expect(q.contrast).toBe(ref.contrast);
      expect(q.sharpness).toBe(ref.sharpness);
      expect(q.resolutionPx).toBe(700);
    }
  });
});
