/**
 * grating.ts removeGrating: a moiré's fine grating (final20.ts moire: each pixel times 1 + a sin(phi),
 * a period of 4-12 px bent by a chirp) notched out of drawn type, the type kept; a page without one
 * left as it was and not taken for one.
 */
import { describe, expect, it } from 'vitest';
import { GRATING_PEAK, removeGrating } from '../../src/ocr/grating.js';
import { drawn } from './drawn-word.js';
import { prepareImage } from '../../src/ocr/preprocess.js';
import sharp from 'sharp';
import type { Gray } from '../../src/ocr/glyph-i.js';

/** `g` times 1 + amp sin(phi), phi the final20 fixture's chirped grating of `period` px at `angle` rad. */
function grated(g: Gray, period: number, angle: number, amp: number, chirp: number): Gray {
  const out = new Uint8Array(g.data.length), cs = Math.cos(angle), sn = Math.sin(angle);
  const cx = g.width * 0.3, cy = g.height * 0.8;
  for (let y = 0; y < g.height; y++) {
    for (let x = 0; x < g.width; x++) {
      const phi = 2 * Math.PI * ((x * cs + y * sn) / period + (chirp * ((x - cx) ** 2 + (y - cy) ** 2)) / (g.width * 4 * period));
      const i = y * g.width + x;
      out[i] = Math.max(0, Math.min(255, Math.round(g.data[i] * (1 + amp * Math.sin(phi)))));
    }
  }
  return { data: out, width: g.width, height: g.height };
}

/** Standard deviation of the levels of `g` in rows y0..y1 (exclusive), every column. */
function spread(g: Uint8Array, w: number, y0: number, y1: number): number {
  let s = 0, s2 = 0, n = 0;
  for (let y = y0; y < y1; y++) for (let x = 0; x < w; x++) { const v = g[y * w + x]; s += v; s2 += v * v; n++; }
  return Math.sqrt(s2 / n - (s / n) ** 2);
}

/** A page of type like a card's: the word three times, one line under the other, with blank paper below them (most of a card is paper). */
async function page(): Promise<Gray> {
  const { g } = await drawn('KOVACEVIC 172.431.645-10', 'DejaVu Sans', 30);
  const h = g.height * 10, data = new Uint8Array(g.width * h).fill(255);
  for (let k = 0; k < 3; k++) data.set(g.data, k * g.data.length);
  return { data, width: g.width, height: h };
}

describe('removeGrating (moiré notched out tile by tile)', () => {
  it('takes a chirped grating off blank paper and keeps the type dark', async () => {
    const clean = await page();
    const noisy = grated(clean, 6, 0.7, 0.15, 1.5);
    const w = clean.width, lineH = clean.height / 10;
    const paperBefore = spread(noisy.data, w, 3 * lineH + 8, clean.height - 8);
    const out = removeGrating(noisy.data, w, clean.height);
    expect(out.peak).toBeGreaterThanOrEqual(GRATING_PEAK);
    const paperAfter = spread(out.data, w, 3 * lineH + 8, clean.height - 8);
    expect(paperBefore).toBeGreaterThan(10);
    expect(paperAfter).toBeLessThan(paperBefore / 3);
    // The type survives: the ink (dark in the clean page) stays dark, the paper between letters light.
    let inkSum = 0, inkN = 0, diff = 0;
    for (let i = 0; i < w * 3 * lineH; i++) {
      if (clean.data[i] < 80) { inkSum += out.data[i]; inkN++; }
      diff += Math.abs(out.data[i] - clean.data[i]);
    }
    expect(inkSum / inkN).toBeLessThan(110);
    expect(diff / (w * 3 * lineH)).toBeLessThan(spread(noisy.data, w, 0, 3 * lineH) / 2 + 10);
  });

  it('leaves a page of type without a grating as it was, under GRATING_PEAK', async () => {
    const clean = await page();
    const out = removeGrating(clean.data, clean.width, clean.height);
    expect(out.peak).toBeLessThan(GRATING_PEAK);
    let diff = 0;
    for (let i = 0; i < clean.data.length; i++) diff += Math.abs(out.data[i] - clean.data[i]);
    expect(diff / clean.data.length).toBeLessThan(3);
  });

  it('prepareImage notches only when asked (degrate), surveys when asked (surveyGrating) and reports how strongly a grating stood out', async () => {
    const clean = await page();
    const png = async (g: Gray): Promise<Buffer> => sharp(Buffer.from(g.data), { raw: { width: g.width, height: g.height, channels: 1 } }).png().toBuffer();
    const withGrating = await png(grated(clean, 7, 1.1, 0.15, 1));
    const plain = await prepareImage(withGrating);
    expect(plain.grating).toBeUndefined();
    const notched = await prepareImage(withGrating, { degrate: true });
    expect(notched.grating).toBeGreaterThanOrEqual(GRATING_PEAK);
    expect((await prepareImage(withGrating, { surveyGrating: true })).grating).toBeGreaterThanOrEqual(GRATING_PEAK);
    const none = await prepareImage(await png(clean), { degrate: true });
    expect(none.grating).toBeLessThan(GRATING_PEAK);
  });
});
