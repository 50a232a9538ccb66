import { describe, expect, it } from 'vitest';
import { alignPasses, passShiftOf } from '../../src/ocr/passes.js';

const W = 1100, H = 420;

/** A page of fake type: lines of strokes (vertical 3 px stems, a few slanted and horizontal bars), ink 30 on paper 230. */
function typePage(seed = 7): Uint8Array {
  let s = seed;
  const rnd = (): number => ((s = (s * 16807) % 2147483647) / 2147483647);
  const page = new Uint8Array(W * H).fill(230);
  for (let top = 20; top + 30 < H; top += 45) {
    for (let x = 20; x < W - 30;) {
      const tall = 18 + Math.floor(8 * rnd()), slant = rnd() < 0.2 ? 0.25 : 0;
      for (let y = top; y < top + tall; y++) for (let d = 0; d < 3; d++) page[y * W + Math.round(x + d + slant * (y - top))] = 30;
      if (rnd() < 0.4) for (let d = 0; d < 9; d++) for (let k = 0; k < 3; k++) page[(top + Math.floor(tall / 2) + k) * W + x + d] = 30;
      x += 6 + Math.floor(10 * rnd());
    }
  }
  return page;
}

/** `page` printed with every other band of `pass` px shifted right by `shift` px (whole px). */
function misprinted(page: Uint8Array, pass: number, shift: number): Uint8Array {
  const out = new Uint8Array(page.length).fill(230);
  for (let y = 0; y < H; y++) {
    const dx = Math.floor(y / pass) % 2 === 1 ? shift : 0;
    for (let x = 0; x < W; x++) out[y * W + x] = page[y * W + Math.min(W - 1, Math.max(0, x - dx))];
  }
  return out;
}

/** Mean absolute level difference between `a` and `b` away from the page's sides. */
function meanDiff(a: Uint8Array, b: Uint8Array): number {
  let s = 0, n = 0;
  for (let y = 0; y < H; y++) for (let x = 10; x < W - 10; x++, n++) s += Math.abs(a[y * W + x] - b[y * W + x]);
  return s / n;
}

describe('an inkjet\'s passes out of line (passes.ts)', () => {
  it('finds every other band of type shifted sideways, its pass height and shift', () => {
    const found = passShiftOf(misprinted(typePage(), 8, 2), W, H);
    expect(found).not.toBeNull();
    expect(Math.abs(found!.pass - 8)).toBeLessThan(0.3);
    expect(Math.abs(found!.shift - 2)).toBeLessThan(0.6);
  });

  it('moves the shifted bands back into line', () => {
    const clean = typePage(11), bad = misprinted(clean, 10, 3);
    const before = meanDiff(bad, clean);
    const found = passShiftOf(bad, W, H);
    expect(found).not.toBeNull();
    alignPasses(bad, W, H, found!);
    // The mended page is the clean one up to a whole band's shift (the cycle's phase): compare with the
    // clean page and with the clean page moved as a whole, and take the nearer.
    const movedRight = clean.map((v, i) => (i % W >= 3 ? clean[i - 3] : v));
    const after = Math.min(meanDiff(bad, clean), meanDiff(bad, movedRight));
    expect(after).toBeLessThan(0.35 * before);
  });

  it('finds nothing on type printed in line, nor on a blank page', () => {
    expect(passShiftOf(typePage(3), W, H)).toBeNull();
    expect(passShiftOf(new Uint8Array(W * H).fill(230), W, H)).toBeNull();
  });
});
