/**
 * Warm-up page for a new recogniser (pool.ts): tesseract's WebAssembly runs its first page ~2x slower
 * (measured with tessdata_fast on a card page: 1.15-1.38 CPU s for the first recognition, 0.51-0.56
 * for the next; V8 compiles the hot functions to optimised code only once they have run), so each
 * worker reads this page once when the pool starts and the station's first document does not pay
 * for it (first card page after it: ~0.60 s). Block capitals drawn from rectangles in three sizes,
 * so no font is needed.
 */
import type { GrayImage } from './regions.js';

/** Strokes of each letter, [x0, y0, x1, y1) in a 5 x 7 grid. */
const LETTERS: Record<string, Array<[number, number, number, number]>> = {
  E: [[0, 0, 1, 7], [0, 0, 5, 1], [0, 3, 4, 4], [0, 6, 5, 7]],
  F: [[0, 0, 1, 7], [0, 0, 5, 1], [0, 3, 4, 4]],
  H: [[0, 0, 1, 7], [4, 0, 5, 7], [0, 3, 5, 4]],
  I: [[2, 0, 3, 7], [1, 0, 4, 1], [1, 6, 4, 7]],
  L: [[0, 0, 1, 7], [0, 6, 5, 7]],
  T: [[0, 0, 5, 1], [2, 0, 3, 7]],
  O: [[0, 0, 1, 7], [4, 0, 5, 7], [0, 0, 5, 1], [0, 6, 5, 7]],
  '1': [[2, 0, 3, 7], [1, 1, 2, 2], [1, 6, 4, 7]],
  '7': [[0, 0, 5, 1], [4, 0, 5, 7]],
};

const WORDS = ['HELLO', 'TITLE', 'FILE', 'LOFT', 'HOTEL', '1717', 'ELITE', 'FOOT', 'HILL', 'TOIL'];

/** A 1200 x 600 white page with eight lines of block-capital words (letters 14 to 28 px tall). */
export function warmupPage(): GrayImage {
  const width = 1200, height = 600;
  const data = new Uint8Array(width * height).fill(255);
  let y = 30;
  for (const unit of [2, 4, 2, 3, 4, 2, 3, 4]) {
    let x = 30;
    for (let k = 0; k < 6 && x <= width - 60 * unit; k++) {
      for (const ch of WORDS[(y + k) % WORDS.length]) {
        for (const [a, b, c, d] of LETTERS[ch]) {
          for (let yy = y + b * unit; yy < y + d * unit; yy++) data.fill(0, yy * width + x + a * unit, yy * width + x + c * unit);
        }
        x += 7 * unit;
      }
      x += 5 * unit;
    }
    y += 14 * unit;
  }
  return { data, width, height };
}
