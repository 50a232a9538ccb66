/**
 * glyph-dots.ts dotsReading on a word whose glyphs pair with its letters only by width (two capitals touching):
 * the word keeps the doubt it had before the pairing (a flat run or two dots over any glyph), so a mark the
 * reading lacks over a consonant read plain is not passed as sure (final16 #69: KOLÁŘ read "KOLÁR" at 0.911).
 */
import { describe, expect, it } from 'vitest';
import { drawn, worn } from './drawn-word.js';
import { dotsReading } from '../../src/ocr/glyph-dots.js';
import { wordGlyphs } from '../../src/ocr/glyph-i.js';

describe('glyph-dots on glyphs paired by width', () => {
  it('doubts a word with a caron over a consonant read plain (KOLÁŘ read "KOLÁR", KÁŘA read "KÁRA")', async () => {
    for (const [truth, read, font, size, bold, sigma, quality] of [
      ['KOLÁŘ', 'KOLÁR', 'DejaVu Serif', 28, false, 0, 90], ['KOLÁŘ', 'KOLÁR', 'DejaVu Sans', 22, false, 0.8, 40],
      ['KOLÁŘ', 'KOLÁR', 'DejaVu Sans Condensed', 28, true, 0.8, 40], ['KÁŘA', 'KÁRA', 'DejaVu Sans', 28, true, 0, 90],
    ] as const) {
      const d = await drawn(truth, font, size, bold);
      const g = await worn(d.g, sigma, quality);
      // The glyphs do not pair one to one with the letters (a pair of capitals touching): the width pairing's case.
      expect(wordGlyphs(g, d.box).length, `${truth} ${font} ${size}`).not.toBe([...read].length);
      expect(dotsReading(g, { text: read, ...d.box }, wordGlyphs).doubt, `${truth} ${font} ${size}`).toBe(true);
    }
  }, 120_000);

  it('still writes the two dots it reads over a letter of its own (ÖZKAN read "ÓZKAN")', async () => {
    const d = await drawn('ÖZKAN', 'DejaVu Sans', 22);
    const r = dotsReading(d.g, { text: 'ÓZKAN', ...d.box }, wordGlyphs);
    expect(r.letters.get(0)).toBe('Ö');
  }, 60_000);
});
