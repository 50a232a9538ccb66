/**
 * final29's own effect (test/fixtures/cnh/final29.ts), checked on small synthetic frames, never on the
 * part's documents (those are for its single run at the thirtieth round's end).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { final29Draws, nightDenoised } from '../fixtures/cnh/final29.js';
import { rng } from '../fixtures/cnh/people.js';

const W = 200, H = 160;

/** A `W` x `H` grey frame whose pixel (x, y) is `grey(x, y)`, as PNG or JPEG. */
async function frame(grey: (x: number, y: number) => number, mime: 'image/png' | 'image/jpeg'): Promise<{ bytes: Buffer; mime: string }> {
  const data = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) data.fill(Math.max(0, Math.min(255, Math.round(grey(x, y)))), (y * W + x) * 3, (y * W + x) * 3 + 3);
  const img = sharp(data, { raw: { width: W, height: H, channels: 3 } });
  return { bytes: await (mime === 'image/png' ? img.png() : img.jpeg({ quality: 95 })).toBuffer(), mime };
}

/** A flat grey 128 with uniform noise of +-24 (a dim room's sensor noise), from its own generator. */
const noisy = (mime: 'image/png' | 'image/jpeg'): Promise<{ bytes: Buffer; mime: string }> => {
  const n = rng(99);
  return frame(() => 128 + 48 * (n() - 0.5), mime);
};

/** The first band's standard deviation over the frame. */
const spread = async (bytes: Buffer): Promise<number> => (await sharp(bytes).stats()).channels[0].stdev;

/** The first band of row `y`. */
async function row(bytes: Buffer, y: number): Promise<number[]> {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  return Array.from({ length: info.width }, (_, x) => data[(y * info.width + x) * info.channels]);
}

describe('final29 effects', () => {
  it('a night-mode denoiser smooths a noisy flat frame (its spread falls by a third at least) and keeps the frame\'s kind and size', async () => {
    for (let seed = 1; seed <= 6; seed++) {
      const before = await noisy('image/png');
      const png = await nightDenoised(before, rng(seed));
      expect(png.mime).toBe('image/png');
      const meta = await sharp(png.bytes).metadata();
      expect([meta.width, meta.height]).toEqual([W, H]);
      expect(await spread(png.bytes)).toBeLessThan((2 / 3) * (await spread(before.bytes)));
      const jpeg = await nightDenoised(await noisy('image/jpeg'), rng(seed));
      expect(jpeg.mime).toBe('image/jpeg');
      const jmeta = await sharp(jpeg.bytes).metadata();
      expect([jmeta.width, jmeta.height]).toEqual([W, H]);
    }
  });

  it('its sharpening leaves a dark halo on an edge\'s dark side and a bright one on its light side, the flat areas away from it untouched', async () => {
    for (let seed = 1; seed <= 6; seed++) {
      const out = await nightDenoised(await frame((x) => (x < W / 2 ? 60 : 190), 'image/png'), rng(seed));
      const line = await row(out.bytes, H / 2);
      const dark = line.slice(W / 2 - 8, W / 2), light = line.slice(W / 2, W / 2 + 8);
      expect(Math.min(...dark)).toBeLessThan(50);
      expect(Math.max(...light)).toBeGreaterThan(200);
      for (const x of [10, W / 2 - 20]) expect(Math.abs(line[x] - 60)).toBeLessThanOrEqual(2);
      for (const x of [W / 2 + 20, W - 10]) expect(Math.abs(line[x] - 190)).toBeLessThanOrEqual(2);
    }
  });

  it('its median runs a stroke thinner than its window into the flat ground (fine print smeared away)', async () => {
    for (let seed = 1; seed <= 6; seed++) {
      // A 1 px dark line across a light ground: a median of 3 or 5 px removes it.
      const out = await nightDenoised(await frame((x) => (x === W / 2 ? 40 : 200), 'image/png'), rng(seed));
      const line = await row(out.bytes, H / 2);
      expect(Math.min(...line)).toBeGreaterThan(180);
    }
  });

  it('is drawn only for camera frames, on about 40 % of them', () => {
    const r = rng(7);
    let camera = 0;
    for (let i = 0; i < 400; i++) if (final29Draws('photo', '2022', r).denoise) camera++;
    expect(camera).toBeGreaterThan(120);
    expect(camera).toBeLessThan(200);
    for (const c of ['clean', 'scanner', 'screenshot', 'pdf-text', 'pdf-image']) for (let i = 0; i < 50; i++) expect(final29Draws(c, 'old', r).denoise).toBe(false);
  });
});
