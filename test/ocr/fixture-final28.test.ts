/**
 * final28's own effect (test/fixtures/cnh/final28.ts), checked on small synthetic frames, never on the
 * part's documents (those are for its single run at the twenty-ninth round's end).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { final28Draws, flickerBanded } from '../fixtures/cnh/final28.js';
import { rng } from '../fixtures/cnh/people.js';

/** A flat frame of grey `v`, `w` x `h`, as PNG or JPEG. */
const flat = async (v: number, w: number, h: number, mime: 'image/png' | 'image/jpeg'): Promise<{ bytes: Buffer; mime: string }> => {
  const img = sharp({ create: { width: w, height: h, channels: 3, background: { r: v, g: v, b: v } } });
  return { bytes: await (mime === 'image/png' ? img.png() : img.jpeg({ quality: 95 })).toBuffer(), mime };
};

/** Mean of the first band along each row. */
async function rowMeans(bytes: Buffer): Promise<number[]> {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  return Array.from({ length: info.height }, (_, y) => {
    let s = 0;
    for (let x = 0; x < info.width; x++) s += data[(y * info.width + x) * info.channels];
    return s / info.width;
  });
}

describe('final28 effects', () => {
  it('a rolling shutter\'s flicker bands darken rows by 12-35 % at most, periodically down the frame, and keep the frame\'s kind and size', async () => {
    for (let seed = 1; seed <= 6; seed++) {
      const png = await flickerBanded(await flat(200, 300, 400, 'image/png'), rng(seed));
      expect(png.mime).toBe('image/png');
      const meta = await sharp(png.bytes).metadata();
      expect([meta.width, meta.height]).toEqual([300, 400]);
      const rows = await rowMeans(png.bytes);
      const lo = Math.min(...rows), hi = Math.max(...rows);
      // Never brighter than the frame; the darkest row (a tilted band averages over a row) 10-36 % down.
      expect(hi).toBeLessThanOrEqual(200.5);
      expect(1 - lo / 200).toBeGreaterThan(0.05);
      expect(1 - lo / 200).toBeLessThan(0.36);
      // Periodic: more than one dark band over 400 rows (a period of 6-18 % of the height).
      const mid = (lo + hi) / 2;
      let crossings = 0;
      for (let y = 1; y < rows.length; y++) if ((rows[y - 1] - mid) * (rows[y] - mid) < 0) crossings++;
      expect(crossings).toBeGreaterThanOrEqual(8);
      const jpeg = await flickerBanded(await flat(200, 300, 400, 'image/jpeg'), rng(seed));
      expect(jpeg.mime).toBe('image/jpeg');
    }
  });
  it('is drawn only for camera frames, on about 40 % of them', () => {
    const r = rng(7);
    let camera = 0;
    for (let i = 0; i < 400; i++) if (final28Draws('photo', '2022', r).flicker) camera++;
    expect(camera).toBeGreaterThan(120);
    expect(camera).toBeLessThan(200);
    for (const c of ['clean', 'scanner', 'screenshot', 'pdf-text', 'pdf-image']) for (let i = 0; i < 50; i++) expect(final28Draws(c, 'old', r).flicker).toBe(false);
  });
});
