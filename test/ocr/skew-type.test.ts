import { describe, expect, it } from 'vitest';
import { SKEW_DISAGREE, estimateSkew } from '../../src/ocr/skew.js';

/**
 * A 700 x 250 card page (paper 240) with level lines of type (bars at 110, 3 px tall, every 60 px)
 * and, when asked, a pale print of parallel lines slanted by `paleDeg` over it all (every 10 px: 2 px at
 * 185 between 1 px edges at 210, ~40 % of the page): the security print's waves of final13 #77, which
 * pass the page's threshold and outvote its type (without the type-only search: 8 degrees).
 */
function page(paleDeg: number | null): { data: Uint8Array; w: number; h: number } {
  const w = 700, h = 250, data = new Uint8Array(w * h).fill(240);
  const tan = paleDeg === null ? 0 : Math.tan((paleDeg * Math.PI) / 180);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const m = (((y - x * tan) % 10) + 10) % 10;
    if (paleDeg !== null && m < 4) data[y * w + x] = m >= 1 && m < 3 ? 185 : 210;
    if (y % 60 >= 12 && y % 60 < 15 && x >= 40 && x < 660 && x % 20 < 14) data[y * w + x] = 110;
  }
  return { data, w, h };
}

describe('estimateSkew: the type outvoted by pale print (fifteenth round)', () => {
  it('reads level type as level under a pale print slanted 8 degrees', () => {
    expect(Math.abs(estimateSkew(page(8), 12).deg)).toBeLessThanOrEqual(0.25);
  });

  it('takes the type alone only past SKEW_DISAGREE degrees of disagreement', () => {
    expect(SKEW_DISAGREE).toBe(2);
  });

  it('reads a plain page as before', () => {
    expect(estimateSkew(page(null), 12).deg).toBe(0);
  });
});
