/**
 * A name whose last word lies on a stain (issue #17, the twenty-ninth round; final28 #13, a low-light photo:
 * "ELIZETE EDILENE COLARES" read at 0.927, TROVÃO printed after it on a dark stain, unread). lostLineEnds
 * looked for the line's ink past its last word at a level lighter than the line's ink split, where the stain
 * is ink too and joins the letters into one blob too large for a glyph; it now also looks at the line's own
 * ink (value-doubts.ts darkerLevel).
 */
import { describe, expect, it } from 'vitest';
import type { Gray } from '../../src/ocr/glyph-i.js';
import { lostLineEnds } from '../../src/ocr/value-doubts.js';
import type { OcrWord } from '../../src/ocr/words.js';

const W = 640, H = 160;
/** A page of paper (240) with `rects` filled at their levels, in order. */
function page(rects: Array<[number, number, number, number, number]>): Gray {
  const data = new Uint8Array(W * H).fill(240);
  for (const [x0, y0, x1, y1, v] of rects) for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) data[y * W + x] = v;
  return { data, width: W, height: H };
}
/** Letters as strokes 7 px wide, 20 px tall, every 14 px from `x0` to `x1`, at level `v`. */
const letters = (x0: number, x1: number, v = 5): Array<[number, number, number, number, number]> =>
  Array.from({ length: Math.floor((x1 - x0) / 14) }, (_, i) => [x0 + 14 * i, 60, x0 + 14 * i + 7, 80, v]);
const w = (text: string, conf: number, x0: number, y0: number, x1: number, y1: number): OcrWord => ({ text, conf, x0, y0, x1, y1 });
const words = [w('NOME', 0.95, 20, 30, 62, 42), w('ELIZETE', 0.92, 20, 60, 118, 80), w('COLARES', 0.93, 130, 60, 228, 80)];
const stain: [number, number, number, number, number] = [236, 40, 460, 110, 110];
const lastConf = (g: Gray): number | undefined => lostLineEnds(g, words).find((x) => x.text === 'COLARES')?.conf;

describe('a name\'s last word with letters printed on after it on a stain', () => {
  it('is doubted when letters lie on the stain after it', () => {
    expect(lastConf(page([...letters(20, 118), ...letters(130, 228), stain, ...letters(244, 330)]))).toBeLessThan(0.8);
  });
  it('is doubted on clean paper too (as before)', () => {
    expect(lastConf(page([...letters(20, 118), ...letters(130, 228), ...letters(244, 330)]))).toBeLessThan(0.8);
  });
  it('keeps its confidence where the stain holds no letter, or nothing follows', () => {
    expect(lastConf(page([...letters(20, 118), ...letters(130, 228), stain]))).toBe(0.93);
    expect(lastConf(page([...letters(20, 118), ...letters(130, 228)]))).toBe(0.93);
  });
});
