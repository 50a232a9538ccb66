import { describe, expect, it } from 'vitest';
import { extractFields } from '../../src/ocr/fields.js';
import { groupPhrases, joinSplitWords, toPhrase, type OcrWord } from '../../src/ocr/words.js';

/** Words of one line, each [text, x0, x1], 21 px capitals at y 412-433. */
const line = (...ws: Array<[string, number, number]>): OcrWord[] => ws.map(([text, x0, x1]) => ({ text, conf: 0.93, x0, y0: 412, x1, y1: 433 }));

describe('a capital word the recogniser split inside is joined back (words.ts joinSplitWords)', () => {
  it('GE + NTIL 3.3 px apart on a line whose spaces are 7-8 px is GENTIL (final30 #17)', () => {
    const p = toPhrase(line(['GE', 394.3, 425.7], ['NTIL', 429, 480], ['ODENILDO', 487.1, 612.9], ['BENOLIEL', 620.5, 745], ['DOLZANE', 752.4, 870]));
    expect(joinSplitWords(p).words.map((w) => w.text)).toEqual(['GENTIL', 'ODENILDO', 'BENOLIEL', 'DOLZANE']);
  });

  it('keeps words printed with a space, particles, and a line with too few gaps to compare', () => {
    const spaced = toPhrase(line(['GE', 394, 425], ['NTIL', 432, 480], ['ODENILDO', 487, 612], ['BENOLIEL', 620, 745]));
    expect(joinSplitWords(spaced)).toBe(spaced);
    const particle = toPhrase(line(['MARIA', 300, 380], ['DA', 383, 410], ['SILVA', 417, 480], ['COSTA', 487, 560]));
    expect(joinSplitWords(particle)).toBe(particle);
    // final30 #26: ALCIDÉIA and JATENE 4 px apart (a tilted line's boxes), the other gaps 9-10: both are words.
    const tilted = toPhrase(line(['ALCIDÉIA', 381, 509], ['JATENE', 513, 614], ['CAMPÊLO', 623, 753], ['MUTRAN', 763, 880]));
    expect(joinSplitWords(tilted)).toBe(tilted);
    // final11 #36: KUIPERS read "KI" + "UIPERS" 3 px apart: UIPERS could begin a word, and KI is misread; left
    // apart (and doubted: line-gaps.ts tightGap), not joined into a sure "KIUIPERS".
    const misread = toPhrase(line(['ANNEKE', 376, 478], ['GROENWOLD', 490, 643], ['KI', 655, 672], ['UIPERS', 674, 776]));
    expect(joinSplitWords(misread)).toBe(misread);
    const short = toPhrase(line(['GE', 394, 425], ['NTIL', 428, 480], ['ODENILDO', 487, 612]));
    expect(joinSplitWords(short)).toBe(short);
  });

  it('gives the whole name to the field, and leaves a text layer as it is', () => {
    // An older card's labels (13-16 px type), the father's line split as on final30 #17 (20 px capitals, 8 px spaces).
    const w = (text: string, x0: number, y0: number, h: number, conf = 0.95): OcrWord => ({ text, conf, x0, y0, x1: x0 + text.length * h * 0.6, y1: y0 + h });
    const at = (text: string, x0: number, x1: number, y0: number): OcrWord => ({ text, conf: 0.93, x0, y0, x1, y1: y0 + 20 });
    const words: OcrWord[] = [
      w('NOME', 100, 40, 13), w('CPF', 100, 120, 13), w('DATA', 400, 120, 13), w('NASCIMENTO', 440, 120, 13),
      w('FILIAÇÃO', 100, 200, 16), w('PERMISSÃO', 100, 320, 16), w('ACC', 400, 320, 13),
      at('GE', 100, 130, 220), at('NTIL', 133, 183, 220), at('ODENILDO', 191, 311, 220), at('BENOLIEL', 319, 439, 220), at('DOLZANE', 447, 552, 220),
      at('OLGA', 100, 160, 250), at('PEDROSA', 168, 273, 250),
    ];
    const text = words.map((x) => x.text).join(' ');
    expect(extractFields(groupPhrases(words), text).campos.nome_pai.valor).toBe('GENTIL ODENILDO BENOLIEL DOLZANE');
    expect(extractFields(groupPhrases(words), text, true).campos.nome_pai.valor).toBe('GE NTIL ODENILDO BENOLIEL DOLZANE');
  });
});
