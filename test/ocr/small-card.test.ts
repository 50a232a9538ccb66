/**
 * Issue #17, seventh round: cards photographed from further away (small in the frame). Their label type
 * is too small for the page pass at 0.7 x width; a page that read poorly with few labels is read a
 * second time from a larger preparation at full width (second-read.ts SMALL_CARD_PX), and such a page
 * is read again even when its first reading did not show a CNH (no label read) but found core fields.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { recognizeImage } from '../../src/ocr/index.js';
import type { Recognizer } from '../../src/ocr/pool.js';
import { CARD_HEIGHT_PX, prepareImage, type PrepareOptions, type PreparedImage } from '../../src/ocr/preprocess.js';
import type { QualityMetrics } from '../../src/ocr/quality.js';
import { POOR_READING, secondRead, SMALL_CARD_HEIGHT_PX, SMALL_CARD_LABELS, SMALL_CARD_PX } from '../../src/ocr/second-read.js';
import type { OcrWord } from '../../src/ocr/words.js';

const quality = (resolutionPx: number, sharpness = 60, contrast = 170): QualityMetrics => ({ grade: 'regular', resolutionPx, sharpness, contrast });

/** A light card `cw` x `ch` px with rows of dark letter-like blocks, on a dark table of `fw` x `fh` px (JPEG). */
async function cardInFrame(fw: number, fh: number, cw: number, ch: number): Promise<Buffer> {
  const d = Buffer.alloc(fw * fh * 3);
  const x0 = Math.round((fw - cw) / 2), y0 = Math.round((fh - ch) / 2);
  for (let y = 0; y < fh; y++) for (let x = 0; x < fw; x++) {
    const cx = x - x0, cy = y - y0;
    let v = 80;
    if (cx >= 0 && cx < cw && cy >= 0 && cy < ch) {
      const row = Math.floor(cy / (ch / 10));
      const inRow = (cy % (ch / 10)) / (ch / 10);
      v = row > 0 && row < 9 && inRow > 0.3 && inRow < 0.7 && cx > 0.1 * cw && cx < 0.9 * cw && cx % 14 < 9 ? 25 : 225;
    }
    d.fill(v, 3 * (y * fw + x), 3 * (y * fw + x) + 3);
  }
  return sharp(d, { raw: { width: fw, height: fh, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
}

describe('second reading of a small card (second-read.ts)', () => {
  it('reads a small card with few labels again larger and at full width; a larger card or a well-labelled one as before', () => {
    const larger = { prepare: { cardHeightPx: SMALL_CARD_HEIGHT_PX }, fullWidth: true };
    expect(SMALL_CARD_HEIGHT_PX).toBeGreaterThan(CARD_HEIGHT_PX);
    expect(secondRead(quality(SMALL_CARD_PX - 50), POOR_READING, 0)).toEqual(larger);
    expect(secondRead(quality(SMALL_CARD_PX - 50), POOR_READING, SMALL_CARD_LABELS - 1)).toEqual(larger);
    // Labels read: the small type was legible; the usual second reading (here a sharp page: local contrast).
    expect(secondRead(quality(SMALL_CARD_PX - 50), POOR_READING, SMALL_CARD_LABELS)).toEqual({ prepare: { localContrast: true }, fullWidth: false });
    // A card of the usual size with no label read: not this rule.
    expect(secondRead(quality(SMALL_CARD_PX + 100), POOR_READING, 0)).toEqual({ prepare: { localContrast: true }, fullWidth: false });
    // A dark small card is denoised first (the speckle is what the stretch would multiply).
    expect(secondRead(quality(SMALL_CARD_PX - 50, 60, 60), POOR_READING, 0)).toEqual({ prepare: { denoise: true }, fullWidth: false });
    // A reading that is not poor is never read again.
    expect(secondRead(quality(SMALL_CARD_PX - 50), 0, 0)).toBeNull();
  });
});

describe('a small card in a big frame (preprocess.ts)', () => {
  it('is found and cropped (its own height measured, under SMALL_CARD_PX), and prepared larger at the same aspect on request', async () => {
    const bytes = await cardInFrame(1400, 1000, 760, 480);
    const usual = await prepareImage(bytes);
    // The crop is the card, not the frame: the frame's short side is 1000 px, the card's 480.
    expect(usual.quality.resolutionPx).toBeGreaterThan(440);
    expect(usual.quality.resolutionPx).toBeLessThan(SMALL_CARD_PX);
    expect(usual.height).toBe(CARD_HEIGHT_PX);
    expect(usual.width / usual.height).toBeCloseTo(760 / 480, 1);
    const larger = await prepareImage(bytes, { cardHeightPx: SMALL_CARD_HEIGHT_PX });
    expect(larger.height).toBe(SMALL_CARD_HEIGHT_PX);
    expect(Math.abs(larger.width / larger.height - usual.width / usual.height)).toBeLessThan(0.01);
  });

  it('a card filling a frame of the usual size measures over SMALL_CARD_PX', async () => {
    const prep = await prepareImage(await cardInFrame(1500, 1000, 1200, 760));
    expect(prep.quality.resolutionPx).toBeGreaterThan(SMALL_CARD_PX);
  });
});

describe('recognizeImage on a small card whose labels were not read (index.ts)', () => {
  /** A white page PNG of `w` x `h` px standing for a prepared card. */
  const page = async (w: number, h: number): Promise<Buffer> => sharp({ create: { width: w, height: h, channels: 3, background: { r: 255, g: 255, b: 255 } } }).toColourspace('b-w').png().toBuffer();
  /** A recogniser that reads, on every page pass, a CPF and a registration number (valid check digits) and no label. */
  function valuesOnly(): Recognizer & { widths: number[] } {
    const widths: number[] = [];
    const rec = {
      model: { id: 'npm', langPath: '', gzip: true, pageSqueeze: 0.7 },
      widths,
      async words(img: Buffer): Promise<OcrWord[]> {
        // Page passes come as PGM (P5 width height 255), cuts of second looks as PNG.
        const m = img.subarray(0, 2).toString() === 'P5' ? (([w, h]) => ({ width: w, height: h }))(img.subarray(0, 40).toString('latin1').split(/\s+/).slice(1, 3).map(Number)) : await sharp(img).metadata();
        widths.push(m.width ?? 0);
        const k = (m.height ?? CARD_HEIGHT_PX) / CARD_HEIGHT_PX;
        return [
          { text: '683.561.945-71', conf: 0.9, x0: 360 * k, y0: 350 * k, x1: 540 * k, y1: 372 * k },
          { text: '05608987642', conf: 0.9, x0: 30 * k, y0: 640 * k, x1: 190 * k, y1: 662 * k },
        ];
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
        return { png: await page(w, h), width: w, height: h, quality: quality(resolutionPx), rotationDeg: 0, light: { unevenness: 0, flattened: false } };
      },
    };
  }

  it('prepares a small card again at SMALL_CARD_HEIGHT_PX, reads it at full width, and hands back its words at the first page\'s scale', async () => {
    const rec = valuesOnly();
    const p = preparer(SMALL_CARD_PX - 60);
    const out = await recognizeImage([rec], new Uint8Array(8), p.prepare);
    expect(p.calls.some((o) => o.cardHeightPx === SMALL_CARD_HEIGHT_PX)).toBe(true);
    // The larger page read unsqueezed: 1.5 x the card height at full width.
    expect(rec.widths).toContain(Math.round(SMALL_CARD_HEIGHT_PX * 1.54));
    expect(out.second).toBeDefined();
    const cpf = out.second?.find((w) => w.text === '683.561.945-71');
    expect(cpf?.y0).toBeCloseTo(350, 0);
    expect(out.heightPx).toBe(CARD_HEIGHT_PX);
  });

  it('does not read a card of the usual size again when its page did not show a CNH', async () => {
    const rec = valuesOnly();
    const p = preparer(SMALL_CARD_PX + 200);
    const out = await recognizeImage([rec], new Uint8Array(8), p.prepare);
    expect(p.calls.every((o) => o.cardHeightPx === undefined)).toBe(true);
    expect(out.second).toBeUndefined();
  });
});
