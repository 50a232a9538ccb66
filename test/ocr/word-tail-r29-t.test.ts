import { describe, expect, it } from 'vitest';
import { inkPastWord, mendShortWords } from '../../src/ocr/word-tail-ink.js';
import { INK_LETTER_CAP } from '../../src/ocr/glyph-accent.js';
import type { Gray } from '../../src/ocr/glyph-i.js';
import type { OcrWord } from '../../src/ocr/words.js';

const w = (text: string, conf: number, x0: number, y0: number, x1: number, y1: number): OcrWord => ({ text, conf, x0, y0, x1, y1 });

// final27 #7's mother's line (old model, glare, Liberation Mono, 12 px capitals): KOWALCZYK read "KO!"
// at 0.74, boxed over K, O and the W's first stroke, WALCZYK printed on with no word over it.
// Letters drawn as bars 12 px tall from y 20, 8 px wide, `gap` px apart, the word boxed over the first `boxed`.
const page = (letters: number, gap: number): Gray => {
  const width = 200, height = 50, data = new Uint8Array(width * height).fill(235);
  for (let k = 0; k < letters; k++) for (let y = 20; y < 32; y++) for (let x = 10 + k * (8 + gap); x < 18 + k * (8 + gap); x++) data[y * width + x] = 60;
  return { width, height, data } as Gray;
};
const ko = w('KO!', 0.74, 10, 20, 40, 31);

describe('print running on past a word\'s box (twenty-eighth round, engineer T)', () => {
  it('doubts a word whose letters continue unboxed after it, closer than a space (final27 #7: "KO!" for KOWALCZYK)', () => {
    const g = page(9, 3);
    expect(inkPastWord(g, ko, [ko])).toBe(true);
    expect(mendShortWords(g, [ko])[0].conf).toBe(INK_LETTER_CAP);
  });
  it('leaves a word alone when it ends its print, when the next word boxes the ink or stands a space away', () => {
    expect(inkPastWord(page(3, 3), ko, [ko])).toBe(false);
    const next = w('WALCZYK', 0.9, 43, 20, 120, 31);
    expect(inkPastWord(page(9, 3), ko, [ko, next])).toBe(false);
    // The word's box ends at its last letter and the next letter stands 8 px (0.7 of the height) away.
    const kos = w('KOS', 0.9, 10, 20, 53, 31);
    expect(inkPastWord(page(3, 10), w('KO', 0.9, 10, 20, 35, 31), [])).toBe(false);
    expect(inkPastWord(page(3, 10), kos, [kos])).toBe(false);
    expect(mendShortWords(page(3, 3), [ko])[0].conf).toBe(0.74);
  });
});
