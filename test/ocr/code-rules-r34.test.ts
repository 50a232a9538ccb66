/**
 * A code's region read again (second-looks.ts rereadEmptyValues) has the card's edge or a frame's line
 * whitened before it is read (cuts.ts withoutRules): a screenshot's remark "D" beside the card's left edge
 * was read "lo" at 0.48 and lost (final31 #83); a code with a speckled patch far right of it is read from
 * its first run of ink alone (cuts.ts leadingInk: final31 #78's remark "D").
 */
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { CUT_PAD, leadingInk, withoutRules } from '../../src/ocr/cuts.js';

const W = 120, REGION_H = 42, H = REGION_H + 2 * CUT_PAD, TYPE_H = 20;

/** A padded cut: white, a rule 3 px wide (columns 10-12) down the whole region when `rule`, a letter's stem 4 px wide and TYPE_H tall at columns 40-43. */
async function cut(rule: boolean): Promise<Buffer> {
  const px = new Uint8Array(W * H).fill(255);
  for (let y = CUT_PAD; y < CUT_PAD + REGION_H; y++) {
    if (rule) for (let x = 10; x <= 12; x++) px[y * W + x] = 20;
    if (y >= CUT_PAD + 11 && y < CUT_PAD + 11 + TYPE_H) for (let x = 40; x <= 43; x++) px[y * W + x] = 20;
  }
  return sharp(px, { raw: { width: W, height: H, channels: 1 } }).png().toBuffer();
}

async function inkColumns(png: Buffer): Promise<number[]> {
  const { data, info } = await sharp(png).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  const cols: number[] = [];
  for (let x = 0; x < info.width; x++) {
    let ink = false;
    for (let y = 0; y < info.height && !ink; y++) ink = data[y * info.width + x] < 128;
    if (ink) cols.push(x);
  }
  return cols;
}

describe('rules beside a code letter', () => {
  it('are whitened, the letter kept', async () => {
    expect(await inkColumns(await withoutRules(await cut(true), REGION_H, TYPE_H))).toEqual([40, 41, 42, 43]);
  });

  it('leave a cut without one as it is, a letter as tall as the type included', async () => {
    const plain = await cut(false);
    expect(await withoutRules(plain, REGION_H, TYPE_H)).toBe(plain);
  });

  it('are no rule when type is as tall as the region', async () => {
    const plain = await cut(false);
    expect(await withoutRules(plain, TYPE_H, TYPE_H)).toBe(plain);
  });
});

describe('a code\'s first run of ink', () => {
  /** White 400 x 60 px with blocks of ink at columns [a, b) (rows 20-40), and one speck pixel per column in `specks`. */
  async function strip(blocks: Array<[number, number]>, specks: number[] = []): Promise<Buffer> {
    const w = 400, h = 60, px = new Uint8Array(w * h).fill(255);
    for (const [a, b] of blocks) for (let y = 20; y < 40; y++) for (let x = a; x < b; x++) px[y * w + x] = 0;
    for (const x of specks) px[10 * w + x] = 0;
    return sharp(px, { raw: { width: w, height: h, channels: 1 } }).png().toBuffer();
  }

  it('is cut out alone when ink lies far right of it, specks between not counted', async () => {
    const lead = await leadingInk(await strip([[30, 50], [330, 390]], [150, 200]), 100);
    expect(lead).not.toBeNull();
    const meta = await sharp(lead as Buffer).metadata();
    expect(meta.width).toBe(50 + CUT_PAD);
    expect(await inkColumns(lead as Buffer)).toEqual(Array.from({ length: 20 }, (_, i) => 30 + i));
  });

  it('is no cut when the ink runs on without such a gap, or there is none', async () => {
    expect(await leadingInk(await strip([[30, 50], [120, 160], [230, 260]]), 100)).toBeNull();
    expect(await leadingInk(await strip([]), 100)).toBeNull();
  });
});
