import { describe, expect, it } from 'vitest';
import { faintMarkAbove, mendFaintMarks } from '../../src/ocr/glyph-faint-mark.js';
import { INK_LETTER_CAP } from '../../src/ocr/glyph-accent.js';
import type { Gray } from '../../src/ocr/glyph-i.js';
import type { OcrWord } from '../../src/ocr/words.js';

const w = (text: string, conf: number, x0: number, y0: number, x1: number, y1: number): OcrWord => ({ text, conf, x0, y0, x1, y1 });

// A page of plain paper (255) with capitals drawn as solid bars 14 px tall (x0, width) from y 40, as final27
// #4's MARCILIO on a squeezed page (DejaVu Sans Condensed, perspective), its I's 2 px wide.
const LETTERS: Array<[number, number]> = [[10, 12], [25, 10], [38, 9], [50, 10], [63, 2], [68, 8], [79, 2], [84, 12]];
const page = (specks: Array<[number, number, number]>): Gray => {
  const width = 120, height = 70, data = new Uint8Array(width * height).fill(255);
  for (const [x0, wd] of LETTERS) for (let y = 40; y < 54; y++) for (let x = x0; x < x0 + wd; x++) data[y * width + x] = 20;
  for (const [x, y, v] of specks) data[y * width + x] = v;
  return { width, height, data } as Gray;
};
const word = (text: string): OcrWord => w(text, 0.92, 9, 38, 97, 55);
// A 2 x 2 px stroke 60-85 levels under the paper, 3 px above the capitals' top, over a column.
const faint = (x: number): Array<[number, number, number]> => [[x, 36, 185], [x + 1, 36, 170], [x, 37, 175], [x + 1, 37, 190]];

describe('a mark too faint for the threshold over a plain vowel (twenty-eighth round, engineer T)', () => {
  it('doubts the word when one vowel alone has such ink over it (final27 #4: MARCÍLIO read "MARCILIO" at 0.92)', () => {
    const g = page(faint(63));
    expect(faintMarkAbove(g, word('MARCILIO'))).toBe(4);
    const [mended] = mendFaintMarks(g, [word('MARCILIO')]);
    expect(mended.text).toBe('MARCILIO');
    expect(mended.conf).toBeLessThanOrEqual(INK_LETTER_CAP);
  });
  it('leaves a plain name sure: no ink above, ink over a consonant, ink over the whole band, a word read with a mark', () => {
    expect(faintMarkAbove(page([]), word('MARCILIO'))).toBe(-1);
    expect(mendFaintMarks(page([]), [word('MARCILIO')])[0].conf).toBe(0.92);
    expect(faintMarkAbove(page(faint(52)), word('MARCILIO'))).toBe(-1);
    const band = Array.from({ length: 80 }, (_, k) => [12 + k, 36, 200] as [number, number, number]);
    expect(faintMarkAbove(page([...band, ...faint(63)]), word('MARCILIO'))).toBe(-1);
    expect(faintMarkAbove(page(faint(63)), word('MARCÍLIO'))).toBe(-1);
  });
});
