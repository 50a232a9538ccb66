import { describe, expect, it } from 'vitest';
import { FILL_LEVEL, paperHistogram, stretch } from '../../src/ocr/preprocess.js';

/** A dark card (paper 60-70: a sensor's noise spreads it over levels; ink 10) of w x h with white wedges at the top-right and bottom-left corners, as a skew correction fills them. */
function darkTurnedPage(w: number, h: number, wedge: number): Uint8Array {
  const page = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      page[y * w + x] = 60 + ((x * 7 + y * 13) % 11);
      if (y % 20 < 4 && x % 30 < 12) page[y * w + x] = 10; // ink
      // wedges: a triangle `wedge` px tall at the top-right, one at the bottom-left
      if (y < wedge * (x / w)) page[y * w + x] = 255;
      if (h - 1 - y < wedge * (1 - x / w)) page[y * w + x] = 255;
    }
  }
  return page;
}

describe('paperHistogram (a turn\'s white fill is no paper)', () => {
  it('leaves out white runs that touch a row\'s ends and keeps white inside a row', () => {
    const w = 10;
    const page = new Uint8Array([255, 255, 40, 255, 40, 255, 60, 60, 254, 255, /* row 2 */ 60, 60, 60, 60, 60, 60, 60, 60, 60, 60]);
    const hist = paperHistogram(page, w);
    expect(hist[255]).toBe(2); // the two inside row 1
    expect(hist[254]).toBe(0); // at the row's end, at or above FILL_LEVEL
    expect(hist[40]).toBe(2);
    expect(hist[60]).toBe(12);
    expect(FILL_LEVEL).toBeLessThanOrEqual(254);
  });

  it('keeps the whole histogram for a page that is all white', () => {
    const hist = paperHistogram(new Uint8Array(50).fill(255), 10);
    expect(hist[255]).toBe(50);
  });

  it('stretches a dark turned page to its card\'s paper, not to the fill', () => {
    const w = 400, h = 120;
    const page = darkTurnedPage(w, h, 40);
    const plain = new Uint32Array(256);
    for (const v of page) plain[v]++;
    expect(plain[255]).toBeGreaterThan(Math.max(...plain.slice(0, 255))); // the fill outnumbers the paper: the old mode
    const [a, b] = stretch(page, 0.95, w);
    expect(a * 62 + b).toBeGreaterThanOrEqual(200); // paper to (near) white
    expect(a * 68 + b).toBeGreaterThanOrEqual(255);
    expect(a * 10 + b).toBeLessThanOrEqual(5); // ink stays black
  });
});
