/**
 * final30's own effect (test/fixtures/cnh/final30.ts), checked on small synthetic frames, never on the
 * part's documents (those are for its single run at the thirty-first round's end).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { areaShrunk, digitalZoomed, final30Draws } from '../fixtures/cnh/final30.js';
import { rng } from '../fixtures/cnh/people.js';

// Odd sides, so that a size kept is not a rounding's luck.
const W = 201, H = 157;

/** A `W` x `H` grey frame whose pixel (x, y) is `grey(x, y)`, as PNG or JPEG. */
async function frame(grey: (x: number, y: number) => number, mime: 'image/png' | 'image/jpeg'): Promise<{ bytes: Buffer; mime: string }> {
  const data = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) data.fill(Math.max(0, Math.min(255, Math.round(grey(x, y)))), (y * W + x) * 3, (y * W + x) * 3 + 3);
  const img = sharp(data, { raw: { width: W, height: H, channels: 3 } });
  return { bytes: await (mime === 'image/png' ? img.png() : img.jpeg({ quality: 95 })).toBuffer(), mime };
}

/** The first band of row `y`. */
async function row(bytes: Buffer, y: number): Promise<number[]> {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  return Array.from({ length: info.width }, (_, x) => data[(y * info.width + x) * info.channels]);
}

/** Mean absolute difference between neighbouring pixels of `line` from `a` to `b`. */
const ripple = (line: number[], a: number, b: number): number => {
  let s = 0;
  for (let x = a + 1; x < b; x++) s += Math.abs(line[x] - line[x - 1]);
  return s / (b - a - 1);
};

describe('final30 effects', () => {
  it('a digital zoom keeps the frame\'s kind and exact size (PNG and JPEG, odd sides)', async () => {
    for (let seed = 1; seed <= 6; seed++) {
      const png = await digitalZoomed(await frame((x, y) => 40 + ((x * 7 + y * 3) % 180), 'image/png'), rng(seed));
      expect(png.mime).toBe('image/png');
      expect((await sharp(png.bytes).metadata()).format).toBe('png');
      const meta = await sharp(png.bytes).metadata();
      expect([meta.width, meta.height]).toEqual([W, H]);
      const jpeg = await digitalZoomed(await frame((x, y) => 40 + ((x * 7 + y * 3) % 180), 'image/jpeg'), rng(seed));
      expect(jpeg.mime).toBe('image/jpeg');
      const jmeta = await sharp(jpeg.bytes).metadata();
      expect(jmeta.format).toBe('jpeg');
      expect([jmeta.width, jmeta.height]).toEqual([W, H]);
    }
  });

  it('is the same for the same draws', async () => {
    const f = await frame((x) => (x % 3 === 0 ? 30 : 220), 'image/png');
    expect((await digitalZoomed(f, rng(5))).bytes.equals((await digitalZoomed(f, rng(5))).bytes)).toBe(true);
  });

  it('averages 1 px detail away (a pattern of 1 px columns greys out) while 8 px bars keep most of their contrast', async () => {
    for (let seed = 1; seed <= 8; seed++) {
      // Alternating 1 px columns of 30 and 230: neighbours differ by 200 before.
      const fine = await row((await digitalZoomed(await frame((x) => (x % 2 ? 30 : 230), 'image/png'), rng(seed))).bytes, H >> 1);
      expect(ripple(fine, 40, 160)).toBeLessThan(40);
      expect(Math.min(...fine.slice(40, 160))).toBeGreaterThan(70);
      expect(Math.max(...fine.slice(40, 160))).toBeLessThan(190);
      // Bars 8 px wide (a period of 16 px): still 3 samples or more a bar at the sensor's crop.
      const coarse = await row((await digitalZoomed(await frame((x) => (Math.floor(x / 8) % 2 ? 30 : 230), 'image/png'), rng(seed))).bytes, H >> 1);
      const part = coarse.slice(40, 160);
      expect(Math.max(...part) - Math.min(...part)).toBeGreaterThan(140);
    }
  });

  it('spreads a sharp edge over several pixels, with an overshoot beside it, and leaves flat ground away from it as it was', async () => {
    for (let seed = 1; seed <= 8; seed++) {
      const before = await row((await frame((x) => (x < 100 ? 60 : 190), 'image/png')).bytes, H >> 1);
      const line = await row((await digitalZoomed(await frame((x) => (x < 100 ? 60 : 190), 'image/png'), rng(seed))).bytes, H >> 1);
      // Pixels near neither level: none before (a step from one pixel to the next), three or more after.
      const between = (l: number[]): number => l.filter((v) => Math.abs(v - 60) > 5 && Math.abs(v - 190) > 5).length;
      expect(between(before)).toBe(0);
      expect(between(line)).toBeGreaterThanOrEqual(3);
      // The interpolation's ringing and the sharpening's halo: past one level or the other by 3 or more.
      const edge = line.slice(90, 110);
      expect(Math.min(...edge) <= 57 || Math.max(...edge) >= 193).toBe(true);
      for (const x of [10, 80]) expect(Math.abs(line[x] - 60)).toBeLessThanOrEqual(2);
      for (const x of [120, W - 10]) expect(Math.abs(line[x] - 190)).toBeLessThanOrEqual(2);
    }
  });

  it('shrinks by an area (box) filter: each small pixel the mean of what it covers, cut pixels by their share', () => {
    // One row of 10 px valued 0, 10, ..., 90 shrunk to 4 (2.5 px each): the first covers 0, 10 and half of 20.
    const data = Buffer.from(Array.from({ length: 10 }, (_, x) => x * 10));
    const out = areaShrunk(data, 10, 1, 1, 4, 1);
    expect([...out]).toEqual([8, 32, 58, 82]);
    // A 2 x 2 checker of 0 and 200 shrunk by 2 on each side: flat 100.
    const checker = Buffer.from(Array.from({ length: 64 }, (_, i) => ((i % 8) + Math.floor(i / 8)) % 2 ? 200 : 0));
    expect([...areaShrunk(checker, 8, 8, 1, 4, 4)].every((v) => v === 100)).toBe(true);
  });

  it('is drawn only for camera frames, on about 40 % of them', () => {
    const r = rng(7);
    let camera = 0;
    for (let i = 0; i < 400; i++) if (final30Draws('photo', '2022', r).zoom) camera++;
    expect(camera).toBeGreaterThan(120);
    expect(camera).toBeLessThan(200);
    for (const c of ['perspective', 'glare', 'blur', 'jpeg-low', 'low-light']) {
      let n = 0;
      for (let i = 0; i < 200; i++) if (final30Draws(c, 'old', r).zoom) n++;
      expect(n).toBeGreaterThan(50);
      expect(n).toBeLessThan(110);
    }
    for (const c of ['clean', 'scanner', 'screenshot', 'pdf-text', 'pdf-image']) for (let i = 0; i < 50; i++) expect(final30Draws(c, 'old', r).zoom).toBe(false);
  });
});
