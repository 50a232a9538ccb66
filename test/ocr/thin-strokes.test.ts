/**
 * Issue #17, seventh round: thin type (a light weight: final4's DejaVu Sans Light) breaks up under blur,
 * noise and JPEG. A second reading (second-read.ts) asks its preparation to measure the stretched
 * page's strokes (preprocess.ts medianInkRun) and to thicken thin ones by a pixel (thicken).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { CARD_HEIGHT_PX, medianInkRun, prepareImage, thicken, THIN_STROKE_PX } from '../../src/ocr/preprocess.js';
import type { QualityMetrics } from '../../src/ocr/quality.js';
import { BLURRED, DARK_CONTRAST, POOR_READING, secondRead, SMALL_CARD_PX } from '../../src/ocr/second-read.js';

/** A white page `w` x `h` with short vertical ink bars `bar` px wide (every `pitch` px) in rows. */
function bars(w: number, h: number, bar: number, pitch = 9): Uint8Array {
  const page = new Uint8Array(w * h).fill(255);
  for (let y = 0; y < h; y++) {
    if (y % 60 < 20 || y % 60 > 40) continue;
    for (let x = 20; x < w - 20; x++) if (x % pitch < bar) page[y * w + x] = 0;
  }
  return page;
}

/** The same bars as a light card filling a JPEG, CARD_HEIGHT_PX tall (prepared at its own scale). */
async function barsCard(bar: number): Promise<Buffer> {
  const w = 1300, h = CARD_HEIGHT_PX;
  const page = bars(w, h, bar);
  for (let i = 0; i < page.length; i++) page[i] = page[i] ? 225 : 30;
  return sharp(Buffer.from(page), { raw: { width: w, height: h, channels: 1 } }).png().toBuffer();
}

const quality = (sharpness: number, contrast: number, resolutionPx = 800): QualityMetrics => ({ grade: 'regular', resolutionPx, sharpness, contrast });

describe('stroke width of a page (preprocess.ts medianInkRun)', () => {
  it('is the median horizontal ink run: the width of vertical strokes', () => {
    expect(medianInkRun(bars(200, 120, 2), 200, 120)).toBe(2);
    expect(medianInkRun(bars(200, 120, 4), 200, 120)).toBe(4);
    expect(medianInkRun(new Uint8Array(200 * 120).fill(255), 200, 120)).toBe(0);
  });

  it('does not count long runs (a photo, a filled box) as strokes', () => {
    const page = bars(200, 120, 2);
    for (let y = 0; y < 120; y++) for (let x = 0; x < 100; x++) page[y * 200 + x] = 0;
    expect(medianInkRun(page, 200, 120)).toBe(2);
  });
});

describe('thicken (preprocess.ts)', () => {
  it('widens ink by one pixel left and up and keeps the paper elsewhere', () => {
    const w = 6, h = 4;
    const page = new Uint8Array(w * h).fill(255);
    page[1 * w + 2] = 0;
    const out = thicken(page, w, h);
    const dark = [...out].map((v, i) => (v === 0 ? i : -1)).filter((i) => i >= 0);
    expect(dark.sort((a, b) => a - b)).toEqual([1, 2, w + 1, w + 2]);
    expect(medianInkRun(thicken(bars(200, 120, 2), 200, 120), 200, 120)).toBe(3);
  });
});

describe('a second reading thickens thin strokes only (preprocess.ts thickenThin)', () => {
  it('thickens a page of 2 px strokes and leaves a page of 4 px strokes', async () => {
    const thin = await prepareImage(await barsCard(THIN_STROKE_PX), { thickenThin: true });
    expect(thin.thickened).toBe(true);
    const regular = await prepareImage(await barsCard(4), { thickenThin: true });
    expect(regular.thickened).toBeUndefined();
    // Without the request nothing is measured or changed (the first reading).
    const plain = await prepareImage(await barsCard(THIN_STROKE_PX));
    expect(plain.thickened).toBeUndefined();
    const runOf = async (png: Buffer): Promise<number> => { const { data, info } = await sharp(png).extractChannel(0).raw().toBuffer({ resolveWithObject: true }); return medianInkRun(new Uint8Array(data), info.width, info.height); };
    expect(await runOf(thin.png)).toBeGreaterThan(await runOf(plain.png));
  });

  it('a blurred page\'s second reading asks for it; the other second readings and a reading that is not poor do not', () => {
    expect(secondRead(quality(BLURRED - 20, 170), POOR_READING)).toEqual({ prepare: { sharpenSigma: 2, thickenThin: true }, fullWidth: true });
    for (const q of [quality(60, DARK_CONTRAST - 30), quality(BLURRED + 20, 170), quality(60, 170, SMALL_CARD_PX - 50)]) {
      expect(secondRead(q, POOR_READING, 0)?.prepare.thickenThin).toBeUndefined();
    }
    expect(secondRead(quality(BLURRED - 20, 170), 0)).toBeNull();
  });
});
