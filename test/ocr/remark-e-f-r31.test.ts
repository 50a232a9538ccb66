/**
 * A remark's E read as F, or its F read as E (issue #17, the thirtieth round; final28 #59, a scanned serif
 * card: remarks F read "E" at 0.7; final25 #29, glare: EAR read "FAR"). Both are remark codes, so only the
 * glyph tells them apart (glyph-e-f.ts): an E's bottom arm is as long as its top, an F's foot is its stem.
 */
import { describe, expect, it } from 'vitest';
import { eOrF, mendRemarkEF } from '../../src/ocr/glyph-e-f.js';
import type { Gray } from '../../src/ocr/glyph-i.js';
import { toPhrase, type OcrWord } from '../../src/ocr/words.js';

const W = 400, H = 100;
type Rect = [number, number, number, number];
/** A page of paper (240) with `rects` inked (10). */
function page(rects: Rect[]): Gray {
  const data = new Uint8Array(W * H).fill(240);
  for (const [x0, y0, x1, y1] of rects) for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) data[y * W + x] = 10;
  return { data, width: W, height: H };
}
/** Glyphs 16 px wide, 22 px tall, with strokes 4 px thick, their left edge at `x`, top at 40. */
const E = (x: number): Rect[] => [[x, 40, x + 4, 62], [x, 40, x + 16, 44], [x, 49, x + 13, 53], [x, 58, x + 16, 62]];
const F = (x: number): Rect[] => [[x, 40, x + 4, 62], [x, 40, x + 16, 44], [x, 49, x + 13, 53]];
/** A serifed F: a foot serif 3 px each side of its stem. */
const serifF = (x: number): Rect[] => [...F(x + 3), [x, 59, x + 10, 62]];
const A = (x: number): Rect[] => [[x, 40, x + 4, 62], [x + 12, 40, x + 16, 62], [x, 40, x + 16, 44], [x, 50, x + 16, 54]];
const R = (x: number): Rect[] => [[x, 40, x + 4, 62], [x, 40, x + 16, 44], [x + 12, 40, x + 16, 52], [x, 49, x + 16, 53], [x + 10, 53, x + 14, 62]];
const w = (text: string, conf: number, x0: number, x1: number): OcrWord => ({ text, conf, x0, y0: 38, x1, y1: 64 });
const mended = (g: Gray, ws: OcrWord[]): string => mendRemarkEF(g, ws, toPhrase(ws)).map((x) => `${x.text}:${x.conf}`).join(' ');

describe('E or F from the glyph', () => {
  it('tells them by the foot against the top', () => {
    expect(eOrF({ top: 16, foot: 16 })).toBe('E');
    expect(eOrF({ top: 16, foot: 4 })).toBe('F');
    expect(eOrF({ top: 16, foot: 8 })).toBe('F');
    expect(eOrF({ top: 16, foot: 11 })).toBe('?');
    expect(eOrF({ top: 0, foot: 4 })).toBe('?');
  });
});

describe('a remark letter E or F set by its ink', () => {
  it('reads a lone F read as E as F, sans or serif, keeping its confidence', () => {
    expect(mended(page(F(100)), [w('E', 0.7, 98, 118)])).toBe('F:0.7');
    expect(mended(page(serifF(100)), [w('E', 0.7, 98, 121)])).toBe('F:0.7');
  });
  it('reads EAR read as FAR as EAR, and leaves EAR and a true F alone', () => {
    const ear = page([...E(100), ...A(122), ...R(144)]);
    expect(mended(ear, [w('FAR', 0.56, 98, 162)])).toBe('EAR:0.56');
    expect(mended(ear, [w('EAR', 0.95, 98, 162)])).toBe('EAR:0.95');
    expect(mended(page(F(100)), [w('F', 0.9, 98, 118)])).toBe('F:0.9');
  });
  it('leaves a word whose glyphs do not number its letters, and other codes', () => {
    // E and A touching: one blob for two letters.
    expect(mended(page([...E(100), ...A(116), ...R(144)]), [w('FAR', 0.56, 98, 162)])).toBe('FAR:0.56');
    expect(mended(page(F(100)), [w('D', 0.7, 98, 118)])).toBe('D:0.7');
  });
});
