import { describe, expect, it } from 'vitest';
import { glyphShape, tGlyphs, tOrI, wordGlyphs, type Gray } from '../../src/ocr/glyph-i.js';

/** A white page with black rectangles [x0, y0, x1, y1] (inclusive). */
function page(width: number, height: number, rects: Array<[number, number, number, number]>): Gray {
  const data = new Uint8Array(width * height).fill(255);
  for (const [x0, y0, x1, y1] of rects) for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) data[y * width + x] = 0;
  return { data, width, height };
}

// Glyphs 20 px tall (rows 10..29), drawn at `x`.
const serifI = (x: number): Array<[number, number, number, number]> => [[x, 10, x + 7, 12], [x + 3, 10, x + 4, 29], [x, 27, x + 7, 29]];
const sansI = (x: number): Array<[number, number, number, number]> => [[x, 10, x + 2, 29]];
const serifT = (x: number): Array<[number, number, number, number]> => [[x, 10, x + 13, 12], [x + 6, 10, x + 7, 29], [x + 4, 27, x + 9, 29]];
const sansT = (x: number): Array<[number, number, number, number]> => [[x, 10, x + 13, 12], [x + 6, 10, x + 8, 29]];
const box = (x: number): Array<[number, number, number, number]> => [[x, 10, x + 2, 29], [x + 9, 10, x + 11, 29], [x, 10, x + 11, 12], [x, 27, x + 11, 29]];

describe('a capital I read as T (glyph-i.ts)', () => {
  it('tells a serifed or bare I from a serifed or bare T by its ends', () => {
    const g = page(120, 40, [...serifI(5), ...sansI(25), ...serifT(40), ...sansT(65)]);
    const shapes = wordGlyphs(g, { x0: 0, y0: 5, x1: 119, y1: 34 }).map((b) => tOrI(glyphShape(g, b)));
    expect(shapes).toEqual(['I', 'I', 'T', 'T']);
  });

  it('finds the T of a word one glyph to a letter and says what it is', () => {
    // "TVO" read for I V O: the first glyph is a serifed I.
    const g = page(80, 40, [...serifI(5), ...box(20), ...box(40)]);
    const w = { text: 'TVO', conf: 0.9, x0: 3, y0: 8, x1: 55, y1: 31 };
    expect([...tGlyphs(g, w)]).toEqual([[0, 'I']]);
    const t = page(80, 40, [...serifT(5), ...box(25), ...box(45)]);
    expect([...tGlyphs(t, { ...w, x1: 60 })]).toEqual([[0, 'T']]);
  });

  it('does not guess inside a word whose glyphs are not one to a letter', () => {
    // Four letters read, three glyphs: the second letter's T cannot be placed.
    const g = page(80, 40, [...box(5), ...serifI(25), ...box(40)]);
    expect([...tGlyphs(g, { text: 'OTAO', conf: 0.9, x0: 3, y0: 8, x1: 55, y1: 31 })]).toEqual([[1, '?']]);
  });

  it('does not call two touching letters an I', () => {
    // A T touching the next letter: one wide blob, as wide at its foot as at its top.
    const g = page(80, 40, [...serifT(5), [18, 10, 30, 12], [18, 27, 30, 29], [28, 10, 30, 29], ...box(40)]);
    const r = tGlyphs(g, { text: 'TOO', conf: 0.9, x0: 3, y0: 8, x1: 55, y1: 31 });
    expect(r.get(0)).not.toBe('I');
  });

  it('finds a first I whose foot serif touches the next letter', () => {
    // "TVANI" for IVANI (final5 #11): the I and the next glyph are one blob, joined at the foot.
    const g = page(80, 40, [...serifI(5), [12, 27, 15, 29], [15, 10, 17, 29], [24, 10, 26, 29], [15, 27, 26, 29], ...box(35)]);
    const r = tGlyphs(g, { text: 'TVO', conf: 0.9, x0: 3, y0: 8, x1: 50, y1: 31 });
    expect(r.get(0)).toBe('I');
    const t = page(80, 40, [...serifT(5), [19, 10, 21, 29], [28, 10, 30, 29], [19, 27, 30, 29], [18, 10, 19, 12], ...box(40)]);
    expect(tGlyphs(t, { text: 'TUO', conf: 0.9, x0: 3, y0: 8, x1: 55, y1: 31 }).get(0)).toBe('T');
  });
});
