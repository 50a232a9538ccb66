/**
 * Thirty-fourth round: type marks all round a crop by the card's bright region are no type it cut off but
 * text over the whole picture (card-type.ts marksOnOppositeSides; final32 #2 and #68, a white sharing
 * watermark over a dark desk, had widened the crop to the whole frame).
 */
import { describe, expect, it } from 'vitest';
import { marksOnOppositeSides } from '../../src/ocr/card-type.js';

describe('marksOnOppositeSides', () => {
  const box = { left: 100, top: 100, width: 400, height: 150 };
  const pts = (xy: Array<[number, number, number]>): Float64Array => new Float64Array(xy.flatMap(([x, y, n]) => Array.from({ length: n }, () => [x, y]).flat()));
  it('holds for marks above and below the crop (a watermark over the whole picture)', () => {
    expect(marksOnOppositeSides(pts([[300, 50, 35], [300, 300, 45], [50, 150, 10], [550, 150, 10]]), box)).toBe(true);
  });
  it('holds for marks left and right of it', () => {
    expect(marksOnOppositeSides(pts([[50, 150, 40], [550, 150, 40], [300, 50, 20]]), box)).toBe(true);
  });
  it('does not hold for type cut off on one side (a shadow across the card)', () => {
    expect(marksOnOppositeSides(pts([[300, 300, 100]]), box)).toBe(false);
    expect(marksOnOppositeSides(pts([[300, 50, 66], [300, 300, 16], [50, 150, 17], [550, 150, 1]]), box)).toBe(false);
  });
  it('does not hold with no mark outside', () => {
    expect(marksOnOppositeSides(pts([[300, 150, 50]]), box)).toBe(false);
  });
});
