import { describe, expect, it } from 'vitest';
import { wordLeftOut } from '../../src/ocr/name-tails.js';
import { toPhrase, type OcrWord } from '../../src/ocr/words.js';

const w = (text: string, conf: number, x0: number, y0: number, x1: number, y1: number): OcrWord => ({ text, conf, x0, y0, x1, y1 });

describe('name ends (twenty-eighth round, engineer T)', () => {
  // final27 #29's father's line (old model, glare, DejaVu Serif Condensed): YOSHIO MATSUMOTO YOSHIMURA
  // NISHIMURA read "YOSHIO MAISUMOTO" at 0.91, YOSHIMURA read "Y05!" at 0.00 10 px after it.
  const line = (tail: OcrWord[]) => toPhrase([w('YOSHIO', 0.91, 364, 421, 467, 444), w('MAISUMOTO', 0.91, 476, 422, 648, 444), ...tail]);
  it('a word of capitals misread into digits just after a name, at its type, doubts it (final27 #29)', () => {
    const l = line([w('Y05!', 0, 658, 423, 717, 443)]);
    expect(wordLeftOut(l, [l])).toBe(true);
  });
  it('a short mark, a speck, a word of another size or the next column leave the name sure', () => {
    for (const tail of [w('!', 0, 658, 423, 664, 443), w('Y0', 0, 658, 423, 680, 443), w('Y05!', 0, 658, 430, 700, 440), w('Y05!', 0, 1300, 423, 1359, 443), w('Y05', 0, 658, 423, 670, 443)]) {
      const l = line([tail]);
      expect(wordLeftOut(l, [l])).toBe(false);
    }
    const l = line([]);
    expect(wordLeftOut(l, [l])).toBe(false);
  });
});

