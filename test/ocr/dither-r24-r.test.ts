import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { MAX_SMOOTHING_BOX, boxMean, ditherPattern, undither } from '../../src/ocr/dither.js';
import { findCard } from '../../src/ocr/frame.js';
import { rng as rand } from '../fixtures/cnh/people.js';

/** The 2^n x 2^n Bayer matrix's thresholds (index + 0.5) / 4^n (Bayer 1973), built recursively. */
function bayer(n: number): Float64Array {
  let m = [[0]];
  for (let k = 0; k < n; k++) {
    const s = m.length, next: number[][] = Array.from({ length: 2 * s }, () => new Array(2 * s).fill(0));
    for (let y = 0; y < s; y++) for (let x = 0; x < s; x++) {
      const v = 4 * m[y][x];
      next[y][x] = v; next[y][x + s] = v + 2; next[y + s][x] = v + 3; next[y + s][x + s] = v + 1;
    }
    m = next;
  }
  const size = m.length, out = new Float64Array(size * size);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) out[y * size + x] = (m[y][x] + 0.5) / (size * size);
  return out;
}

/** A card-like page (w x h, 3 bands): light paper with a soft gradient, dark strokes of type at irregular places, a grey photo block. */
function page(w: number, h: number): Uint8Array {
  const out = new Uint8Array(w * h * 3);
  // Strokes of "type": 2-4 px wide, 5-12 px apart, on lines 20 px tall every 40 px.
  const r = rand(3), ink = new Uint8Array(w);
  for (let x = 24; x < w - 200;) { const sw = 2 + Math.floor(3 * r()); ink.fill(1, x, x + sw); x += sw + 5 + Math.floor(8 * r()); }
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    let v = 215 + Math.round(25 * (x / w)) - Math.round(10 * (y / h));
    if (y % 40 >= 10 && y % 40 < 30 && ink[(x + 7 * Math.floor(y / 40)) % w]) v = 40;
    if (x >= w - 180 && x < w - 30 && y >= 20 && y < h - 20) v = 120 + Math.round(60 * Math.sin(x / 17) * Math.cos(y / 23));
    const i = (y * w + x) * 3;
    out[i] = Math.min(255, v + 6); out[i + 1] = v; out[i + 2] = Math.max(0, v - 8);
  }
  return out;
}

/** `src` posterised to `levels` per band with the 2^n x 2^n Bayer matrix at `cell` px per cell (optionally grey first). */
function ordered(src: Uint8Array, w: number, h: number, levels: number, n: number, cell: number, grey: boolean): Uint8Array {
  const t = bayer(n), size = 2 ** n;
  const out = new Uint8Array(src.length);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const i = (y * w + x) * 3, th = t[(Math.floor(y / cell) % size) * size + (Math.floor(x / cell) % size)];
    const luma = 0.299 * src[i] + 0.587 * src[i + 1] + 0.114 * src[i + 2];
    for (let c = 0; c < 3; c++) {
      const v = grey ? luma : src[i + c];
      out[i + c] = Math.min(255, Math.round((Math.floor((v * (levels - 1)) / 255 + th) * 255) / (levels - 1)));
    }
  }
  return out;
}

const W = 640, H = 400;

describe('ditherPattern / undither (dither.ts)', () => {
  it('finds an ordered dither of any matrix, cell, level count, grey or colour, with its period dividing the pattern', () => {
    const src = page(W, H);
    for (const n of [1, 2, 3]) for (const cell of [1, 2]) for (const levels of [2, 3, 4]) for (const grey of [false, true]) {
      const d = ordered(src, W, H, levels, n, cell, grey);
      const p = ditherPattern(d, W, H, 3, 1);
      const full = 2 ** n * cell;
      expect(p, `2^${n} matrix, cell ${cell}, ${levels} levels, grey ${grey}`).not.toBeNull();
      expect(full % p!.period, `period ${p!.period} of ${full}`).toBe(0);
      expect(p!.period).toBeGreaterThanOrEqual(2);
    }
  });

  it('brings a dithered page back near its grey: the paper even, the type dark', () => {
    const src = page(W, H);
    const d = ordered(src, W, H, 2, 2, 1, true);
    // Before: the paper's pixels (rows 2-7) swing by whole steps.
    let swingBefore = 0, swingAfter = 0;
    for (let y = 2; y < 8; y++) for (let x = 20; x < 400; x++) swingBefore = Math.max(swingBefore, Math.abs(d[(y * W + x) * 3 + 1] - d[(y * W + x + 1) * 3 + 1]));
    expect(swingBefore).toBe(255);
    expect(undither(d, W, H, 3, 1)).not.toBeNull();
    for (let y = 2; y < 8; y++) for (let x = 20; x < 400; x++) swingAfter = Math.max(swingAfter, Math.abs(d[(y * W + x) * 3 + 1] - src[(y * W + x) * 3 + 1]));
    expect(swingAfter).toBeLessThan(30);
    // The type stays darker than the paper above it: the mean over a line of type against the paper's.
    let type = 0, paper = 0;
    for (let x = 24; x < W - 200; x++) { type += d[(20 * W + x) * 3 + 1]; paper += d[(4 * W + x) * 3 + 1]; }
    expect(type / (W - 224)).toBeLessThan(paper / (W - 224) - 40);
  });

  it('smooths a long pattern over a box of at most MAX_SMOOTHING_BOX, so thin type keeps its strokes apart', () => {
    // A 4 x 4 matrix of 2 px cells: period 8, longer than the box.
    const src = page(W, H);
    const d = ordered(src, W, H, 2, 2, 2, true);
    const p = undither(d, W, H, 3, 1);
    expect(p).not.toBeNull();
    expect(p!.period).toBeGreaterThan(MAX_SMOOTHING_BOX);
    // Along a line of type (strokes 2-4 px wide, 5-12 px apart), strokes and gaps still differ: the spread
    // of the smoothed row against the clean row's (a box over the whole period flattens it further).
    const spread = (a: Uint8Array, y: number): number => {
      let s = 0, s2 = 0, n = 0;
      for (let x = 24; x < W - 200; x++, n++) { const v = a[(y * W + x) * 3 + 1]; s += v; s2 += v * v; }
      return Math.sqrt(s2 / n - (s / n) ** 2);
    };
    let kept = 0;
    for (let y = 12; y < 28; y++) kept += spread(d, y) / spread(src, y);
    // Measured: 0.74 with the 4 px box, 0.37 with a box of the whole period.
    expect(kept / 16).toBeGreaterThan(0.55);
  });

  it('leaves a clean, a noisy, a JPEG-like blocky and an interlaced page alone', () => {
    const src = page(W, H);
    expect(ditherPattern(src, W, H, 3, 1)).toBeNull();
    const r = rand(7);
    const noisy = src.map((v) => Math.max(0, Math.min(255, Math.round(v + 40 * (r() + r() + r() - 1.5)))));
    expect(ditherPattern(noisy, W, H, 3, 1)).toBeNull();
    // Salt and pepper on a fifth of the pixels: large steps, but no period.
    const speckled = Uint8Array.from(src);
    for (let i = 0; i < W * H; i++) if (r() < 0.2) speckled[i * 3 + 1] = r() < 0.5 ? 0 : 255;
    expect(ditherPattern(speckled, W, H, 3, 1)).toBeNull();
    // Interlaced: every odd row shifted 3 px and brighter (a comb down only).
    const comb = Uint8Array.from(src);
    for (let y = 1; y < H; y += 2) for (let x = 3; x < W; x++) for (let c = 0; c < 3; c++) comb[(y * W + x) * 3 + c] = Math.min(255, src[(y * W + x - 3) * 3 + c] + 30);
    expect(ditherPattern(comb, W, H, 3, 1)).toBeNull();
    // A fine grating (moire) across the page, period 4 px, one direction only.
    const grating = src.map((v, i) => Math.max(0, Math.min(255, Math.round(v - 40 + 40 * Math.cos((2 * Math.PI * (Math.floor(i / 3) % W)) / 4)))));
    expect(ditherPattern(grating, W, H, 3, 1)).toBeNull();
  });

  it('boxMean keeps a flat band flat and averages a period-4 pattern to its mean', () => {
    const w = 32, h = 16, d = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) d[y * w + x] = (x + y) % 4 === 0 ? 255 : 0;
    boxMean(d, w, h, 1, 4);
    for (let y = 4; y < h - 4; y++) for (let x = 4; x < w - 4; x++) expect(Math.abs(d[y * w + x] - 64)).toBeLessThanOrEqual(1);
  });

  it('findCard hands on a dithered frame smoothed (frame.ts decodeFrame), a clean one as it was', async () => {
    const src = page(W, H);
    const meanStep = async (px: Uint8Array): Promise<number> => {
      const png = await sharp(px, { raw: { width: W, height: H, channels: 3 } }).png().toBuffer();
      const { rgb } = await findCard(png);
      let s = 0, n = 0;
      for (let y = 0; y < rgb.height; y++) for (let x = 0; x + 1 < rgb.width; x++, n++) s += Math.abs(rgb.data[(y * rgb.width + x) * rgb.channels] - rgb.data[(y * rgb.width + x + 1) * rgb.channels]);
      return s / n;
    };
    const clean = await meanStep(src);
    const dithered = await meanStep(ordered(src, W, H, 2, 3, 1, false));
    // Unsmoothed, the dithered frame's neighbours differ by ~105 levels on average (the clean frame's ~1.2);
    // smoothed over the period found (4: an 8 x 8 matrix's pixels 4 apart differ in its lowest bits only), ~10.
    expect(clean).toBeLessThan(3);
    expect(dithered).toBeLessThan(15);
  });
});
