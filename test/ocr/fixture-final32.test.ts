/**
 * final32's own effect (test/fixtures/cnh/final32.ts), checked on small synthetic frames, never on the
 * part's documents (those are for its single run at the thirty-third round's end).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MARKED, WATERMARK_INKS, WATERMARK_TEXTS, final32Draws, watermarkText, watermarked } from '../fixtures/cnh/final32.js';
import { rng } from '../fixtures/cnh/people.js';

// Odd sides, so that a size kept is not a rounding's luck.
const W = 301, H = 197;

/** A `W` x `H` frame whose pixel (x, y) is `rgb(x, y)`, as PNG or JPEG. */
async function frame(rgb: (x: number, y: number) => [number, number, number], mime: 'image/png' | 'image/jpeg'): Promise<{ bytes: Buffer; mime: string }> {
  const data = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) rgb(x, y).forEach((v, c) => { data[(y * W + x) * 3 + c] = v; });
  const img = sharp(data, { raw: { width: W, height: H, channels: 3 } });
  return { bytes: await (mime === 'image/png' ? img.png() : img.jpeg({ quality: 95 })).toBuffer(), mime };
}
const grey = (v: number) => (): [number, number, number] => [v, v, v];

/** The frame's lightness (Rec. 601 luma) per pixel, row by row. */
async function luma(bytes: Buffer): Promise<number[]> {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  return Array.from({ length: info.width * info.height }, (_, k) => {
    const i = k * info.channels;
    return 0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2];
  });
}

/** The pixels of a `W` x `H` frame that `after` shows more than `by` levels away from `before` (per channel). */
async function marked(before: Buffer, after: Buffer, by: number): Promise<boolean[]> {
  const a = await sharp(before).raw().toBuffer({ resolveWithObject: true });
  const b = await sharp(after).raw().toBuffer({ resolveWithObject: true });
  return Array.from({ length: W * H }, (_, k) => [0, 1, 2].some((c) => Math.abs(a.data[k * a.info.channels + c] - b.data[k * b.info.channels + c]) > by));
}

describe('final32 effects', () => {
  it('a watermark keeps the frame\'s kind and exact size (PNG and JPEG, odd sides), in three bands', async () => {
    for (let seed = 1; seed <= 6; seed++) {
      const png = await watermarked(await frame((x, y) => [40 + ((x * 7 + y * 3) % 180), 90, 200 - (x % 50)], 'image/png'), rng(seed));
      expect(png.mime).toBe('image/png');
      const meta = await sharp(png.bytes).metadata();
      expect([meta.format, meta.width, meta.height, meta.channels]).toEqual(['png', W, H, 3]);
      const jpeg = await watermarked(await frame((x, y) => [40 + ((x * 7 + y * 3) % 180), 90, 200 - (x % 50)], 'image/jpeg'), rng(seed));
      expect(jpeg.mime).toBe('image/jpeg');
      const jmeta = await sharp(jpeg.bytes).metadata();
      expect([jmeta.format, jmeta.width, jmeta.height, jmeta.channels]).toEqual(['jpeg', W, H, 3]);
    }
    // A greyscale frame (one band) comes back in colour, as the watermark app saves it.
    const one = await sharp(Buffer.alloc(W * H, 150), { raw: { width: W, height: H, channels: 1 } }).png().toBuffer();
    expect((await sharp((await watermarked({ bytes: one, mime: 'image/png' }, rng(3))).bytes).metadata()).channels).toBe(3);
  });

  it('is the same for the same draws', async () => {
    const f = await frame((x) => (x % 3 === 0 ? [30, 30, 30] : [220, 225, 200]), 'image/jpeg');
    expect((await watermarked(f, rng(5))).bytes.equals((await watermarked(f, rng(5))).bytes)).toBe(true);
  });

  it('covers the whole picture in turned rows: every part of a plain frame carries marks, a share of its pixels, not all of them', async () => {
    for (let seed = 1; seed <= 10; seed++) {
      // A light grey, on which every ink shows (the grey ink by 14 levels or more, white by 16 or more).
      const f = await frame(grey(200), 'image/png');
      const m = await marked(f.bytes, (await watermarked(f, rng(seed))).bytes, 6);
      const share = m.filter(Boolean).length / m.length;
      expect(share).toBeGreaterThan(0.03);
      expect(share).toBeLessThan(0.5);
      // Each third of the frame across and down (nine cells) holds marks.
      for (let i = 0; i < 3; i++) {
        for (let j = 0; j < 3; j++) {
          let n = 0;
          for (let y = Math.floor((j * H) / 3); y < Math.floor(((j + 1) * H) / 3); y++) for (let x = Math.floor((i * W) / 3); x < Math.floor(((i + 1) * W) / 3); x++) if (m[y * W + x]) n++;
          expect(n).toBeGreaterThan(0);
        }
      }
      // The rows are turned: most of the frame's pixel rows and columns cross marks (level rows of capitals
      // 2.4-3.8 of their size apart would leave two thirds of the pixel rows bare, upright ones the columns).
      const rowsHit = Array.from({ length: H }, (_, y) => m.slice(y * W, (y + 1) * W).some(Boolean)).filter(Boolean).length;
      const colsHit = Array.from({ length: W }, (_, x) => Array.from({ length: H }, (_, y) => m[y * W + x]).some(Boolean)).filter(Boolean).length;
      expect(rowsHit / H).toBeGreaterThan(0.6);
      expect(colsHit / W).toBeGreaterThan(0.6);
    }
  });

  it('leaves the print readable: a dark stroke stays at least 100 levels darker than the ground beside it, under the watermark or not', async () => {
    let under = 0;
    for (let seed = 1; seed <= 12; seed++) {
      // Black strokes 3 px wide every 10 px on a white ground.
      const f = await frame((x) => (x % 10 < 3 ? [0, 0, 0] : [255, 255, 255]), 'image/png');
      const after = await watermarked(f, rng(seed));
      const Y = await luma(after.bytes);
      const m = await marked(f.bytes, after.bytes, 6);
      for (let y = 0; y < H; y++) {
        for (let x0 = 0; x0 + 7 < W; x0 += 10) {
          // The stroke's middle column against the middle of the ground after it.
          expect(Y[y * W + x0 + 6] - Y[y * W + x0 + 1]).toBeGreaterThan(100);
          if (m[y * W + x0 + 1] || m[y * W + x0 + 6]) under++;
        }
      }
    }
    // The watermark did lie over strokes and ground here (the check is not idle).
    expect(under).toBeGreaterThan(1000);
  });

  it('writes a phrase from WATERMARK_TEXTS, half of them dated dd/mm/yyyy (2024-2026)', () => {
    const r = rng(11);
    let dated = 0;
    const seen = new Set<string>();
    for (let i = 0; i < 400; i++) {
      const t = watermarkText(r);
      const m = /^(.*) - (\d{2})\/(\d{2})\/(\d{4})$/.exec(t);
      const phrase = m ? m[1] : t;
      expect(WATERMARK_TEXTS).toContain(phrase);
      seen.add(phrase);
      if (m) {
        dated++;
        expect(Number(m[2])).toBeGreaterThanOrEqual(1);
        expect(Number(m[2])).toBeLessThanOrEqual(28);
        expect(Number(m[3])).toBeGreaterThanOrEqual(1);
        expect(Number(m[3])).toBeLessThanOrEqual(12);
        expect([2024, 2025, 2026]).toContain(Number(m[4]));
      }
    }
    expect(seen.size).toBe(WATERMARK_TEXTS.length);
    expect(dated).toBeGreaterThan(150);
    expect(dated).toBeLessThan(250);
  });

  it('lays its inks translucent, at most half strength (white, to show on a light card, the strongest)', () => {
    for (const ink of WATERMARK_INKS) {
      expect(ink.min).toBeGreaterThan(0.1);
      expect(ink.max).toBeGreaterThan(ink.min);
      expect(ink.max).toBeLessThanOrEqual(0.5);
    }
  });

  it('is drawn only for camera frames, scans and screenshots, on about 40 % of them', () => {
    const r = rng(7);
    let n = 0;
    for (let i = 0; i < 400; i++) if (final32Draws('photo', '2022', r).watermark) n++;
    expect(n).toBeGreaterThan(120);
    expect(n).toBeLessThan(200);
    for (const c of MARKED.filter((c) => c !== 'photo')) {
      let k = 0;
      for (let i = 0; i < 200; i++) if (final32Draws(c, 'old', r).watermark) k++;
      expect(k).toBeGreaterThan(50);
      expect(k).toBeLessThan(110);
    }
    for (const c of ['clean', 'pdf-text', 'pdf-image']) for (let i = 0; i < 50; i++) expect(final32Draws(c, 'old', r).watermark).toBe(false);
  });
});
