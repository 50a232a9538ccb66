/**
 * Coarse colour noise (colour-noise.ts): a low-end phone's false colour in blotches, kept on 4 x 2 px blocks
 * by its encoder, is told from a scanner's noise, independent from pixel to pixel, and from a clean frame;
 * the luma of such a frame keeps the type clean where green carries the blotches (final31's low-end phone
 * frames, 71.6 % of their fields read from green).
 */
import { describe, expect, it } from 'vitest';
import { colourNoise, hasCoarseColourNoise, lumaPlane } from '../../src/ocr/colour-noise.js';

const W = 480, H = 320;

/** A deterministic generator of uniforms in [0, 1) (a 32-bit LCG). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** Luma of the test card: a pale ground (234) with dark bars 3 px tall every 12 rows, as lines of type (40). */
const cardLuma = (x: number, y: number): number => (y % 12 < 3 && x % 40 < 30 ? 40 : 234);

/** A smooth field of standard deviation about `sd` on a grid of `cell` px, interpolated bilinearly. */
function blotches(r: () => number, cell: number, sd: number): Float32Array {
  const gw = Math.ceil(W / cell) + 2, gh = Math.ceil(H / cell) + 2;
  const grid = Float32Array.from({ length: gw * gh }, () => (r() + r() + r() - 1.5) * 2 * sd);
  const out = new Float32Array(W * H);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const gx = x / cell, gy = y / cell, x0 = Math.floor(gx), y0 = Math.floor(gy), fx = gx - x0, fy = gy - y0;
      const at = (i: number, j: number): number => grid[j * gw + i];
      out[y * W + x] = (at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx) * (1 - fy) + (at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx) * fy;
    }
  }
  return out;
}

/** `plane` averaged over blocks of `bx` x `by` px (an encoder keeping one colour per block). */
function blocked(plane: Float32Array, bx: number, by: number): Float32Array {
  for (let y0 = 0; y0 < H; y0 += by) {
    for (let x0 = 0; x0 < W; x0 += bx) {
      let s = 0;
      for (let y = y0; y < y0 + by; y++) for (let x = x0; x < x0 + bx; x++) s += plane[y * W + x];
      for (let y = y0; y < y0 + by; y++) for (let x = x0; x < x0 + bx; x++) plane[y * W + x] = s / (bx * by);
    }
  }
  return plane;
}

const clamp = (v: number): number => Math.max(0, Math.min(255, Math.round(v)));

/** RGB of the card with chroma `cb`, `cr` (BT.601) added, and `grain` levels of independent noise per band. */
function frame(cb?: Float32Array, cr?: Float32Array, grain = 0, r = lcg(7)): Uint8Array {
  const out = new Uint8Array(W * H * 3);
  for (let i = 0; i < W * H; i++) {
    const y = cardLuma(i % W, Math.floor(i / W)), b = cb ? cb[i] : 0, c = cr ? cr[i] : 0;
    const n = (): number => (grain ? (r() + r() + r() - 1.5) * 2 * grain : 0);
    out[i * 3] = clamp(y + 1.402 * c + n());
    out[i * 3 + 1] = clamp(y - 0.344 * b - 0.714 * c + n());
    out[i * 3 + 2] = clamp(y + 1.772 * b + n());
  }
  return out;
}

/** Mean absolute difference (levels) of a band or plane from the card's luma. */
function offCard(plane: (i: number) => number): number {
  let s = 0;
  for (let i = 0; i < W * H; i++) s += Math.abs(plane(i) - cardLuma(i % W, Math.floor(i / W)));
  return s / (W * H);
}

describe('coarse colour noise', () => {
  const r = lcg(3);
  const noisy = frame(blocked(blotches(r, 5, 12), 4, 2), blocked(blotches(r, 5, 12), 4, 2));

  it('is found in a frame whose colour is noisy in blotches kept on blocks', () => {
    const n = colourNoise(noisy, 3, W, H);
    expect(hasCoarseColourNoise(n)).toBe(true);
    expect(n.coarse).toBeGreaterThan(1.5 * n.fine);
  });

  it('is not found in a clean frame, nor in a scanner\'s noise, independent from pixel to pixel', () => {
    expect(hasCoarseColourNoise(colourNoise(frame(), 3, W, H))).toBe(false);
    const scanned = colourNoise(frame(undefined, undefined, 10), 3, W, H);
    expect(scanned.coarse).toBeGreaterThan(0.45);
    expect(hasCoarseColourNoise(scanned)).toBe(false);
  });

  it('leaves the luma clean where the green channel carries the blotches', () => {
    const luma = lumaPlane(noisy, 3, W * H);
    const lumaOff = offCard((i) => luma[i]), greenOff = offCard((i) => noisy[i * 3 + 1]);
    expect(lumaOff).toBeLessThan(1.5);
    expect(greenOff).toBeGreaterThan(4 * lumaOff);
  });
});
