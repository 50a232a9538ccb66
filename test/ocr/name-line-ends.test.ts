import { describe, expect, it } from 'vitest';
import { cutAtEnd, tallStray } from '../../src/ocr/doubts.js';
import { toPhrase, type OcrWord } from '../../src/ocr/words.js';

const w = (text: string, conf: number, x0: number, y0: number, x1: number, y1: number): OcrWord => ({ text, conf, x0, y0, x1, y1 });

describe("a name line's end (doubts.ts tallStray, cutAtEnd)", () => {
  it('final12 #47: a two-letter mark boxed twice the name\'s height, far after it, is no word of the name', () => {
    const row = [toPhrase([w('ROSARIO', 0.95, 387, 176, 517, 197), w('PARK', 0.92, 529, 176, 603, 197), w('VILLANUEVA', 0.92, 611, 176, 800, 198), w('NS', 0.65, 876, 186, 989, 225)])];
    expect(tallStray(row)?.text).toBe('NS');
    // A short name word in the name's type, a space after the last: kept.
    const xu = [toPhrase([w('FACUNDO', 0.91, 394, 410, 551, 436), w('GONZÁLEZ', 0.93, 567, 405, 744, 435), w('XU', 0.91, 756, 410, 800, 437)])];
    expect(tallStray(xu)).toBeUndefined();
    // A tall two-letter word right after the name (no gap of its own height): not taken as a mark.
    const near = [toPhrase([w('ANA', 0.9, 100, 100, 160, 120), w('LIMA', 0.9, 170, 100, 240, 120), w('DA', 0.9, 250, 95, 290, 126)])];
    expect(tallStray(near)).toBeUndefined();
  });

  it('final12 #57: a line ending in a lone capital of its type a space after the last word lost its end', () => {
    const line = toPhrase([w('YUNA', 0.91, 389, 448, 480, 474), w('MILAGROS', 0.91, 494, 448, 664, 474), w('C', 0.91, 680, 449, 699, 472)]);
    expect(cutAtEnd(line)).toBe(true);
    // The particle E, or a letter far smaller than the type (a speck), says nothing.
    expect(cutAtEnd(toPhrase([w('YUNA', 0.91, 389, 448, 480, 474), w('MILAGROS', 0.91, 494, 448, 664, 474), w('E', 0.91, 680, 449, 699, 472)]))).toBe(false);
    expect(cutAtEnd(toPhrase([w('YUNA', 0.91, 389, 448, 480, 474), w('MILAGROS', 0.91, 494, 448, 664, 474), w('C', 0.5, 680, 460, 690, 468)]))).toBe(false);
    expect(cutAtEnd(toPhrase([w('YUNA', 0.91, 389, 448, 480, 474), w('MILAGROS', 0.91, 494, 448, 664, 474)]))).toBe(false);
  });
});
