import { describe, expect, it } from 'vitest';
import { codeInk } from '../../src/ocr/code-ink.js';
import type { Gray } from '../../src/ocr/glyph-i.js';

function page(width: number, height: number, rects: Array<[number, number, number, number]>): Gray {
  const data = new Uint8Array(width * height).fill(255);
  for (const [x0, y0, x1, y1] of rects) for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) data[y * width + x] = 0;
  return { data, width, height };
}

// Capitals 20 px tall (rows 20..39): an A-like and an E-like glyph, 18 and 15 px wide (DejaVu's A is
// ~0.95 of its cap height, its E ~0.8).
const A = (x: number): Array<[number, number, number, number]> => [[x, 20, x + 2, 39], [x + 15, 20, x + 17, 39], [x, 20, x + 17, 22], [x, 29, x + 17, 31]];
const E = (x: number): Array<[number, number, number, number]> => [[x, 20, x + 2, 39], [x, 20, x + 14, 22], [x, 29, x + 12, 31], [x, 37, x + 14, 39]];

describe('letters in a code\'s ink (code-ink.ts)', () => {
  it('counts both letters of AE when the recogniser read one', () => {
    const g = page(200, 60, [...A(60), ...E(82)]);
    expect(codeInk(g, 69, 30, 20)?.letters).toBe(2); // read "A" at the A
    expect(codeInk(g, 89, 30, 20)?.letters).toBe(2); // read "E" at the E
  });

  it('counts two touching serifed capitals as two by their width', () => {
    const g = page(200, 60, [...A(60), ...E(78), [77, 37, 78, 39]]);
    expect(codeInk(g, 69, 30, 20)?.letters).toBe(2);
    // One wide A alone is one letter.
    expect(codeInk(page(200, 60, A(60)), 69, 30, 20)?.letters).toBe(1);
  });

  it('counts one letter alone, and leaves out a label beyond the code\'s gap and small type', () => {
    // B alone; a label 2 type heights to its right; a small mark above.
    const g = page(200, 60, [...E(60), ...A(110), [64, 5, 70, 12]]);
    expect(codeInk(g, 66, 30, 20)?.letters).toBe(1);
  });

  it('finds nothing where no glyph is', () => {
    expect(codeInk(page(200, 60, []), 66, 30, 20)).toBeUndefined();
  });
});
