import { describe, expect, it } from 'vitest';
import { barAtLevel, tGlyphs, wordGlyphs, type Gray } from '../../src/ocr/glyph-i.js';
import { mendedReadings } from './drawn-word.js';
import type { OcrWord } from '../../src/ocr/words.js';

/** A white page with the given rectangles (inclusive px) filled with their gray levels. */
function page(width: number, height: number, rects: Array<[number, number, number, number, number]>): Gray {
  const data = new Uint8Array(width * height).fill(255);
  for (const [x0, y0, x1, y1, v] of rects) for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) data[y * width + x] = v;
  return { width, height, data };
}

// "TU" in a sans type, the T's bar running on into the U's left stem (a heavy, blurred print): T at x 10-23, U at 24-34.
const TU: Array<[number, number, number, number, number]> = [
  [10, 10, 26, 12, 0], [15, 10, 18, 29, 0], // the T: bar and stem
  [24, 10, 26, 29, 0], [32, 10, 34, 29, 0], [24, 27, 34, 29, 0], // the U
];

describe('a T whose bar faded on one side is not taken for an I (glyph-i.ts barAtLevel; final30 #71 "IOBELEM")', () => {
  // A serif T as DejaVu Serif prints it (bar 15 px, foot serif 9 px: 0.6 of it), the bar's left third faded to 170
  // by a perspective's blur; then an O-like box.
  const fadedT: Array<[number, number, number, number, number]> = [
    [10, 10, 15, 12, 170], [16, 10, 24, 12, 0], [16, 10, 19, 29, 0], [13, 27, 21, 29, 0],
    [30, 10, 40, 12, 0], [30, 27, 40, 29, 0], [30, 10, 32, 29, 0], [38, 10, 40, 29, 0],
  ];
  it('has ends of one width at the split, and a bar 0.6 wider than its foot at a lighter level: may be a T', () => {
    const g = page(60, 40, fadedT);
    const w: OcrWord = { text: 'TO', conf: 0.92, x0: 8, y0: 8, x1: 42, y1: 31 };
    const [t] = wordGlyphs(g, w);
    expect(t.x0).toBe(13); // the faded third is not ink at the split
    expect(barAtLevel(g, t, 3, 27, 100)).toBe(false);
    expect(barAtLevel(g, t, 3, 27, 190)).toBe(true);
  });
});

describe('a T whose box left out half its bar is not taken for an I (final30 #34 "IUPIASSU")', () => {
  it('the bar outside the box is found at the lighter level', () => {
    const g = page(60, 40, TU);
    // The recogniser's box, scaled back from a squeezed page, begins at the T's stem: half its bar is outside.
    const cut: OcrWord = { text: 'TU', conf: 0.92, x0: 15, y0: 8, x1: 36, y1: 31 };
    expect(tGlyphs(g, cut).get(0)).not.toBe('I');
  });

  it('an I read as T still turns I', () => {
    // A serifed I (serifs as wide at both ends) then an O-like box.
    const g = page(60, 40, [[10, 10, 19, 12, 0], [13, 10, 16, 29, 0], [10, 27, 19, 29, 0], [26, 10, 36, 12, 0], [26, 27, 36, 29, 0], [26, 10, 28, 29, 0], [34, 10, 36, 29, 0]]);
    const w: OcrWord = { text: 'TO', conf: 0.92, x0: 9, y0: 8, x1: 38, y1: 31 };
    expect(tGlyphs(g, w).get(0)).toBe('I');
  });

  it('drawn in the cards\' faces, I\'s read as T are mended as before and no T turns I', async () => {
    const mend = (g: Gray, ws: OcrWord[]): OcrWord[] => ws.map((w) => {
      const c = [...w.text];
      for (const [i, v] of tGlyphs(g, w)) if (v === 'I') c[i] = 'I';
      return { ...w, text: c.join('') };
    });
    let mended = 0, n = 0;
    for (const [truth, read] of [['IVANI', 'TVANI'], ['OTONIEL', 'OTONTEL'], ['CAIO', 'CATO'], ['DAVI', 'DAVT']]) {
      for (const r of await mendedReadings(mend, truth, read, 22)) { n++; if (r.text === truth) mended++; }
    }
    // 56 of 56 at 22 px when this was written.
    expect(mended).toBeGreaterThanOrEqual(n - 2);
    for (const t of ['TUPIASSU', 'TOBELEM', 'PRATES', 'TITO']) {
      for (const r of await mendedReadings(mend, t, t, 22)) expect(r.text, r.at).toBe(t);
    }
  }, 60_000);
});
