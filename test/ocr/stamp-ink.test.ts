import { describe, expect, it } from 'vitest';
import { blueInk, greenWithoutBlueInk, hasBlueInk } from '../../src/ocr/stamp-ink.js';

const W = 240, H = 120;
const PAPER: [number, number, number] = [227, 239, 220];
const BLACK: [number, number, number] = [20, 20, 20];
const RED: [number, number, number] = [179, 20, 30];

/** Ink of `colour` at `opacity` over `under`. */
const over = (under: number[], colour: number[], opacity: number): [number, number, number] =>
  [0, 1, 2].map((c) => Math.round(under[c] * (1 - opacity) + colour[c] * opacity)) as [number, number, number];

/**
 * A card patch: green paper, three rows of black type (x 10-229), a red block, and (when `ink` is given)
 * a stamp's strokes: vertical bars of that ink over paper at x 100-139 and a bar over the black type.
 */
function card(ink?: number[], opacity = 0.6): Buffer {
  const px = Buffer.alloc(W * H * 3);
  const set = (x: number, y: number, v: number[]): void => { px[(y * W + x) * 3] = v[0]; px[(y * W + x) * 3 + 1] = v[1]; px[(y * W + x) * 3 + 2] = v[2]; };
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) set(x, y, PAPER);
  for (const y0 of [10, 30, 50]) for (let y = y0; y < y0 + 6; y++) for (let x = 10; x < 230; x++) if (x % 6 < 3) set(x, y, BLACK);
  for (let y = 70; y < 80; y++) for (let x = 10; x < 60; x++) set(x, y, RED);
  if (ink) {
    for (let y = 64; y < 116; y++) for (let x = 100; x < 140; x++) if (x % 5 < 3) set(x, y, over(PAPER, ink, opacity));
    // Ink over a black stroke: stays type.
    for (let y = 10; y < 16; y++) set(12, y, over(BLACK, ink, opacity));
  }
  return px;
}

const green = (px: Buffer, x: number, y: number): number => px[(y * W + x) * 3 + 1];

describe('stamp-ink: blue and violet ink read as paper', () => {
  it('lifts violet and blue stamp ink over paper to about the paper, leaves black and red type dark', () => {
    for (const ink of [[0x5b, 0x2a, 0x86], [0x1f, 0x3c, 0x88], [0x3a, 0x2f, 0x9e]]) {
      const px = card(ink);
      expect(hasBlueInk(px, 3, W, 1)).toBe(true);
      const { gray, share } = greenWithoutBlueInk(px, 3, W, 1);
      expect(share).toBeGreaterThan(0.01);
      // The green channel has the stamp dark; the page has it near the paper.
      expect(green(px, 101, 90)).toBeLessThan(150);
      expect(gray[90 * W + 101]).toBeGreaterThan(0.9 * PAPER[1]);
      // Black type (also where the ink lies over it) and red type keep their dark.
      expect(gray[12 * W + 13]).toBe(BLACK[1]);
      expect(gray[12 * W + 12]).toBeLessThan(80);
      expect(gray[75 * W + 20]).toBe(RED[1]);
      // Paper stays paper.
      expect(gray[100 * W + 5]).toBe(PAPER[1]);
    }
  });

  it('leaves the green channel when a blue surface, not ink, would be lifted (a checked cloth left in the crop)', () => {
    const px = card();
    // A blue gingham over the lower half of the patch: far more "ink" than a stamp covers.
    for (let y = 60; y < H; y++) for (let x = 0; x < W; x++) if ((Math.floor(x / 12) + Math.floor(y / 12)) % 2 === 0) px.set([70, 110, 190], (y * W + x) * 3);
    const { gray, share, q } = greenWithoutBlueInk(px, 3, W, 1);
    expect(share).toBe(0);
    expect(q).toBeNull();
    for (let i = 0; i < W * H; i++) expect(gray[i]).toBe(px[i * 3 + 1]);
  });

  it('finds no ink on a card without it, under a cool or a warm cast, in grey, or with colour noise', () => {
    const plain = card();
    expect(hasBlueInk(plain, 3, W, 1)).toBe(false);
    const cast = (k: number[]): Buffer => { const b = Buffer.from(plain); for (let i = 0; i < b.length; i++) b[i] = Math.min(255, Math.round(b[i] * k[i % 3])); return b; };
    expect(hasBlueInk(cast([0.8, 1.02, 1.12]), 3, W, 1)).toBe(false);
    expect(hasBlueInk(cast([1.15, 1, 0.7]), 3, W, 1)).toBe(false);
    const grey = Buffer.from(plain);
    for (let i = 0; i < grey.length; i += 3) grey[i] = grey[i + 2] = grey[i + 1];
    expect(hasBlueInk(grey, 3, W, 1)).toBe(false);
    const { gray } = greenWithoutBlueInk(grey, 3, W, 1);
    for (let i = 0; i < W * H; i++) expect(gray[i]).toBe(grey[i * 3 + 1]);
    // Pixel-by-pixel colour noise (a scanner's, sd ~10 a channel) is no ink.
    let seed = 7;
    const rand = (): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
    const noisy = Buffer.from(plain);
    for (let i = 0; i < noisy.length; i++) noisy[i] = Math.max(0, Math.min(255, Math.round(noisy[i] + 17 * (rand() + rand() - 1))));
    expect(hasBlueInk(noisy, 3, W, 1)).toBe(false);
  });

  it('leaves a blue fringe along black type as it is (a lens), but lifts the stamp', () => {
    const px = card([0x1f, 0x3c, 0x88]);
    // A blue fringe one pixel right of each black stroke of the first row.
    for (let y = 10; y < 16; y++) for (let x = 15; x < 230; x += 6) { const i = (y * W + x) * 3; px[i] = 120; px[i + 1] = 130; px[i + 2] = 200; }
    const { gray } = greenWithoutBlueInk(px, 3, W, 2);
    expect(gray[12 * W + 15]).toBe(130);
    expect(gray[90 * W + 101]).toBeGreaterThan(0.9 * PAPER[1]);
  });

  it('gives the ink its own q (blue gained over green lost)', () => {
    const pale = blueInk(card([0x5b, 0x2a, 0x86], 0.45), 3, W, 1);
    const dense = blueInk(card([0x1f, 0x3c, 0x88], 0.75), 3, W, 1);
    expect(pale).not.toBeNull();
    expect(dense).not.toBeNull();
    expect(pale!).toBeGreaterThan(0.15);
  });
});
