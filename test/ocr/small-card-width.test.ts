/**
 * Issue #17, ninth round: a card small in the frame (the kiosk's webcam: both sides in a 1280 px
 * frame, ~345 px of card height) has its second reading read at full width whatever that reading's
 * preparation (index.ts secondFullWidth): a dark one's denoised second reading was read squeezed to
 * the model's 0.7, with the page an upscale of ~2.4 and no pixels to spare. A small card in a soft
 * frame is read a third time with the clipped stretch (SMALL_CARD_CLIP).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { recognizeImage } from '../../src/ocr/index.js';
import type { Recognizer } from '../../src/ocr/pool.js';
import { CARD_HEIGHT_PX, type PrepareOptions, type PreparedImage } from '../../src/ocr/preprocess.js';
import type { QualityMetrics } from '../../src/ocr/quality.js';
import { BLURRED, DARK_CONTRAST, POOR_READING, secondFullWidth, secondRead, SMALL_CARD_CLIP, SMALL_CARD_PX, softSmallCard } from '../../src/ocr/second-read.js';
import type { OcrWord } from '../../src/ocr/words.js';

const quality = (resolutionPx: number, contrast: number, sharpness = 20): QualityMetrics => ({ grade: 'ruim', resolutionPx, sharpness, contrast });

describe('secondFullWidth (index.ts)', () => {
  it('reads a small card\'s second reading at full width, a usual card\'s as its preparation asks', () => {
    const dark = (px: number) => secondRead(quality(px, DARK_CONTRAST - 40), POOR_READING, 0);
    expect(dark(SMALL_CARD_PX - 200)).toEqual({ prepare: { denoise: true }, fullWidth: false });
    expect(secondFullWidth(dark(SMALL_CARD_PX - 200)!, quality(SMALL_CARD_PX - 200, DARK_CONTRAST - 40))).toBe(true);
    expect(secondFullWidth(dark(SMALL_CARD_PX + 100)!, quality(SMALL_CARD_PX + 100, DARK_CONTRAST - 40))).toBe(false);
    // A glare page's local contrast on a card of the usual size stays squeezed; asked for, full width.
    expect(secondFullWidth({ prepare: { localContrast: true }, fullWidth: false }, quality(SMALL_CARD_PX + 100, 150))).toBe(false);
    expect(secondFullWidth({ prepare: { sharpenSigma: 2 }, fullWidth: true }, quality(SMALL_CARD_PX + 100, 150))).toBe(true);
  });
});

describe('softSmallCard (index.ts)', () => {
  it('is a small card in a soft frame: not a sharp small scan, not a soft card of the usual size', () => {
    expect(softSmallCard(quality(SMALL_CARD_PX - 200, 60, BLURRED - 30))).toBe(true);
    expect(softSmallCard(quality(SMALL_CARD_PX - 200, 250, BLURRED + 50))).toBe(false);
    expect(softSmallCard(quality(SMALL_CARD_PX + 100, 60, BLURRED - 30))).toBe(false);
  });
});

describe('recognizeImage on a dark card (index.ts)', () => {
  const page = async (w: number, h: number): Promise<Buffer> => sharp({ create: { width: w, height: h, channels: 3, background: { r: 255, g: 255, b: 255 } } }).toColourspace('b-w').png().toBuffer();
  /** A recogniser that reads a CPF and no label on every page pass, and notes the widths of the page passes (PGM). */
  function valuesOnly(): Recognizer & { widths: number[] } {
    const widths: number[] = [];
    const rec = {
      model: { id: 'npm', langPath: '', gzip: true, pageSqueeze: 0.7 },
      widths,
      async words(img: Buffer): Promise<OcrWord[]> {
        if (img.subarray(0, 2).toString() === 'P5') widths.push(Number(img.subarray(0, 40).toString('latin1').split(/\s+/)[1]));
        return [{ text: '683.561.945-71', conf: 0.9, x0: 360, y0: 350, x1: 540, y1: 372 }, { text: 'HABILITAÇÃO', conf: 0.9, x0: 30, y0: 40, x1: 300, y1: 60 }];
      },
    };
    return rec as unknown as Recognizer & { widths: number[] };
  }
  function preparer(resolutionPx: number): { prepare: (b: Uint8Array, o?: PrepareOptions) => Promise<PreparedImage>; calls: PrepareOptions[] } {
    const calls: PrepareOptions[] = [];
    return {
      calls,
      async prepare(_b: Uint8Array, o: PrepareOptions = {}): Promise<PreparedImage> {
        calls.push(o);
        const h = o.cardHeightPx ?? CARD_HEIGHT_PX, w = Math.round(h * 1.54);
        return { png: await page(w, h), width: w, height: h, quality: quality(resolutionPx, DARK_CONTRAST - 40), rotationDeg: 0, light: { unevenness: 0, flattened: false } };
      },
    };
  }
  const W = Math.round(CARD_HEIGHT_PX * 1.54);

  it('a small dark card: the denoised second reading is read at full width', async () => {
    const rec = valuesOnly();
    const p = preparer(SMALL_CARD_PX - 200);
    const out = await recognizeImage([rec], new Uint8Array(8), p.prepare);
    // The second reading with the usual stretch, a third with the clip (a small card in a soft frame).
    expect(p.calls.some((o) => o.denoise && o.clip === undefined)).toBe(true);
    expect(p.calls.some((o) => o.denoise && o.clip === SMALL_CARD_CLIP)).toBe(true);
    expect(out.second).toBeDefined();
    expect(out.third).toBeDefined();
    // First pass (and its 180 degree retry) squeezed, the second reading at full width.
    expect(rec.widths[0]).toBe(Math.round(W * 0.7));
    expect(rec.widths[rec.widths.length - 1]).toBe(W);
  });

  it('a dark card of the usual size: every page pass squeezed, as before', async () => {
    const rec = valuesOnly();
    const p = preparer(SMALL_CARD_PX + 200);
    const out = await recognizeImage([rec], new Uint8Array(8), p.prepare);
    expect(p.calls.some((o) => o.denoise)).toBe(true);
    // The usual stretch (preprocess.ts PAPER_CLIP) on every preparation.
    expect(p.calls.every((o) => o.clip === undefined)).toBe(true);
    expect(out.second).toBeDefined();
    expect(out.third).toBeUndefined();
    expect(rec.widths.every((w) => w === Math.round(W * 0.7))).toBe(true);
  });
});
