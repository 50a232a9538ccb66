/**
 * final31's own effect (test/fixtures/cnh/final31.ts), checked on small synthetic frames, never on the
 * part's documents (those are for its single run at the thirty-second round's end).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { CASTS, CHROMA_BLOCKS, blockAveraged, blotchField, final31Draws, lowEndPhone } from '../fixtures/cnh/final31.js';
import { rng } from '../fixtures/cnh/people.js';

// Odd sides, so that a size kept is not a rounding's luck (and the colour blocks are cut by the edges).
const W = 201, H = 157;

/** A `W` x `H` frame whose pixel (x, y) is `rgb(x, y)`, as PNG or JPEG. */
async function frame(rgb: (x: number, y: number) => [number, number, number], mime: 'image/png' | 'image/jpeg'): Promise<{ bytes: Buffer; mime: string }> {
  const data = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) rgb(x, y).forEach((v, c) => { data[(y * W + x) * 3 + c] = v; });
  const img = sharp(data, { raw: { width: W, height: H, channels: 3 } });
  return { bytes: await (mime === 'image/png' ? img.png() : img.jpeg({ quality: 95 })).toBuffer(), mime };
}
const grey = (v: number) => (): [number, number, number] => [v, v, v];

/** The frame's Y, Cb and Cr (JPEG's, full range) per pixel. */
async function ycc(bytes: Buffer): Promise<{ w: number; h: number; Y: number[]; Cb: number[]; Cr: number[]; rgb: number[][] }> {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  const Y: number[] = [], Cb: number[] = [], Cr: number[] = [], rgb: number[][] = [];
  for (let k = 0; k < info.width * info.height; k++) {
    const [R, G, B] = [data[k * info.channels], data[k * info.channels + 1], data[k * info.channels + 2]];
    Y.push(0.299 * R + 0.587 * G + 0.114 * B);
    Cb.push(-0.168736 * R - 0.331264 * G + 0.5 * B);
    Cr.push(0.5 * R - 0.418688 * G - 0.081312 * B);
    rgb.push([R, G, B]);
  }
  return { w: info.width, h: info.height, Y, Cb, Cr, rgb };
}

/** The values of `plane` (`W` wide) in the box from (x0, y0) to (x1, y1), ends excluded. */
const box = (plane: number[], x0: number, y0: number, x1: number, y1: number): number[] => {
  const out: number[] = [];
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) out.push(plane[y * W + x]);
  return out;
};
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs: number[]): number => {
  const m = mean(xs);
  return Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
};

describe('final31 effects', () => {
  it('a low-end phone\'s frame keeps the frame\'s kind and exact size (PNG and JPEG, odd sides), in three bands', async () => {
    for (let seed = 1; seed <= 6; seed++) {
      const png = await lowEndPhone(await frame((x, y) => [40 + ((x * 7 + y * 3) % 180), 90, 200 - (x % 50)], 'image/png'), rng(seed));
      expect(png.mime).toBe('image/png');
      const meta = await sharp(png.bytes).metadata();
      expect([meta.format, meta.width, meta.height, meta.channels]).toEqual(['png', W, H, 3]);
      const jpeg = await lowEndPhone(await frame((x, y) => [40 + ((x * 7 + y * 3) % 180), 90, 200 - (x % 50)], 'image/jpeg'), rng(seed));
      expect(jpeg.mime).toBe('image/jpeg');
      const jmeta = await sharp(jpeg.bytes).metadata();
      expect([jmeta.format, jmeta.width, jmeta.height, jmeta.channels]).toEqual(['jpeg', W, H, 3]);
    }
    // A greyscale frame (one band) comes back in colour, as a phone's camera gives it.
    const one = await sharp(Buffer.alloc(W * H, 150), { raw: { width: W, height: H, channels: 1 } }).png().toBuffer();
    expect((await sharp((await lowEndPhone({ bytes: one, mime: 'image/png' }, rng(3))).bytes).metadata()).channels).toBe(3);
  });

  it('is the same for the same draws', async () => {
    const f = await frame((x) => (x % 3 === 0 ? [30, 30, 30] : [220, 225, 200]), 'image/jpeg');
    expect((await lowEndPhone(f, rng(5))).bytes.equals((await lowEndPhone(f, rng(5))).bytes)).toBe(true);
  });

  it('casts a grey frame (white balance), darkens its corners (vignetting), and leaves its lightness otherwise close', async () => {
    for (let seed = 1; seed <= 8; seed++) {
      const { Y, rgb } = await ycc((await lowEndPhone(await frame(grey(160), 'image/png'), rng(seed))).bytes);
      const centre = (c: number): number => mean(box(rgb.map((p) => p[c]), 60, 40, 140, 118));
      const means = [centre(0), centre(1), centre(2)];
      // s >= 0.04: 0.04 x 160 = 6.4 between two channels even for a green or magenta cast, give or take the colour noise.
      expect(Math.max(...means) - Math.min(...means)).toBeGreaterThan(3);
      const mid = mean(box(Y, 90, 68, 110, 88));
      expect(Math.abs(mid - 160)).toBeLessThan(12);
      // v >= 0.1 and each corner at least 0.8 of the way out: 160 x 0.1 x 0.64 = 10 darker or more.
      for (const [x0, y0] of [[0, 0], [W - 12, 0], [0, H - 12], [W - 12, H - 12]]) expect(mean(box(Y, x0, y0, x0 + 12, y0 + 12))).toBeLessThan(mid - 7);
    }
  });

  it('adds colour noise, stronger in the dark print than on the light ground, and far weaker noise in the lightness', async () => {
    let darkVar = 0, lightVar = 0;
    for (let seed = 1; seed <= 8; seed++) {
      // Dark on the left half, light on the right (no channel clips either way).
      const { Y, Cb, Cr } = await ycc((await lowEndPhone(await frame((x) => (x < 100 ? [50, 50, 50] : [190, 190, 190]), 'image/png'), rng(seed))).bytes);
      const dark = [...box(Cb, 40, 30, 90, 127), ...box(Cr, 40, 30, 90, 127)];
      const light = [...box(Cb, 110, 30, 160, 127), ...box(Cr, 110, 30, 160, 127)];
      // sd 8-18 levels, 1.24 of it at 50, 0.80 at 190, times the blotches' spread (about 0.6).
      expect(sd(dark)).toBeGreaterThan(5);
      darkVar += sd(dark) ** 2;
      lightVar += sd(light) ** 2;
      // The lightness: 1-3 levels of fine noise (mean step between neighbours, which the vignetting's slow slope barely moves).
      let step = 0;
      for (let y = 30; y < 127; y++) for (let x = 111; x < 160; x++) step += Math.abs(Y[y * W + x] - Y[y * W + x - 1]);
      expect(step / (97 * 49)).toBeLessThan(4.5);
    }
    // Over the eight frames (one frame's blotches are too few to weigh it alone): 1.55 expected.
    expect(Math.sqrt(darkVar / lightVar)).toBeGreaterThan(1.25);
  });

  it('keeps the colour on blocks of 2 x 2, 4 x 1 or 4 x 2 px: constant over each block but not from block to block', async () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 12; seed++) {
      const { Cb, Cr } = await ycc((await lowEndPhone(await frame(grey(128), 'image/png'), rng(seed))).bytes);
      // The one block shape over whose every block Cb and Cr stay put (to the RGB's rounding).
      const spread = (bx: number, by: number): number => {
        let worst = 0;
        for (let y0 = 0; y0 + by <= H; y0 += by) {
          for (let x0 = 0; x0 + bx <= W; x0 += bx) {
            for (const plane of [Cb, Cr]) {
              const v = box(plane, x0, y0, x0 + bx, y0 + by);
              worst = Math.max(worst, Math.max(...v) - Math.min(...v));
            }
          }
        }
        return worst;
      };
      const fits = CHROMA_BLOCKS.filter(([bx, by]) => spread(bx, by) <= 1.5);
      expect(fits.length).toBeGreaterThanOrEqual(1);
      // 4 x 2 blocks hold 2 x 2 and 4 x 1 ones: the largest shape that fits is the one drawn.
      const [bx, by] = fits[fits.length - 1];
      seen.add(`${bx}x${by}`);
      expect(spread(bx * 2, by * 2)).toBeGreaterThan(3);
    }
    expect(seen.size).toBe(3);
  });

  it('averages a plane over blocks, cut blocks by what they hold (blockAveraged)', () => {
    // 5 x 3 px, blocks of 2 x 2: the right column and the bottom row are cut.
    const p = Float32Array.from([0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28]);
    expect([...blockAveraged(p, 5, 3, 2, 2)]).toEqual([6, 6, 10, 10, 13, 6, 6, 10, 10, 13, 21, 21, 25, 25, 28]);
  });

  it('draws blotches: a smooth field of standard deviation about 0.5-1 whose neighbours differ little (blotchField)', () => {
    for (const cell of [3, 5, 8]) {
      const f = Array.from(blotchField(300, 200, cell, rng(cell)));
      expect(sd(f)).toBeGreaterThan(0.45);
      expect(sd(f)).toBeLessThan(1.05);
      let step = 0;
      for (let y = 0; y < 200; y++) for (let x = 1; x < 300; x++) step += Math.abs(f[y * 300 + x] - f[y * 300 + x - 1]);
      expect(step / (200 * 299)).toBeLessThan(0.45 * sd(f));
    }
  });

  it('casts by gains that keep green for a warm or cool cast and red and blue together for a green or magenta one', () => {
    expect(CASTS.warm(0.1)).toEqual([1.1, 1, 0.9]);
    expect(CASTS.cool(0.1)).toEqual([0.9, 1, 1.1]);
    expect(CASTS.green(0.1)).toEqual([0.95, 1.05, 0.95]);
    expect(CASTS.magenta(0.1)).toEqual([1.05, 0.95, 1.05]);
  });

  it('is drawn only for camera frames, on about 40 % of them', () => {
    const r = rng(7);
    let camera = 0;
    for (let i = 0; i < 400; i++) if (final31Draws('photo', '2022', r).lowEnd) camera++;
    expect(camera).toBeGreaterThan(120);
    expect(camera).toBeLessThan(200);
    for (const c of ['perspective', 'glare', 'blur', 'jpeg-low', 'low-light']) {
      let n = 0;
      for (let i = 0; i < 200; i++) if (final31Draws(c, 'old', r).lowEnd) n++;
      expect(n).toBeGreaterThan(50);
      expect(n).toBeLessThan(110);
    }
    for (const c of ['clean', 'scanner', 'screenshot', 'pdf-text', 'pdf-image']) for (let i = 0; i < 50; i++) expect(final31Draws(c, 'old', r).lowEnd).toBe(false);
  });
});
