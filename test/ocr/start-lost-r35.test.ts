/**
 * Thirty-fourth round: an identity number under a label that lost its DOC. lost its first digits alike
 * (label-edge.ts identityStartLost; final32 #49's "058374" at 0.952 for 692058374).
 */
import { describe, expect, it } from 'vitest';
import { DOC_REACH, identityStartLost } from '../../src/ocr/label-edge.js';
import { extractFields } from '../../src/ocr/fields.js';
import { groupPhrases, readingText, toPhrase, type OcrWord } from '../../src/ocr/words.js';

const word = (text: string, x0: number, y0: number, w: number, h = 12, conf = 0.93): OcrWord => ({ text, conf, x0, y0, x1: x0 + w, y1: y0 + h });

describe('identityStartLost', () => {
  const label = (withDoc: boolean): OcrWord[] => [...(withDoc ? [word('DOC.', 300, 200, 40)] : []), word('IDENTIDADE', 350, 200, 110), word('/', 465, 200, 5), word('ÓRG.', 475, 200, 45), word('EMISSOR', 525, 200, 80), word('/', 610, 200, 5), word('UF', 620, 200, 25)];
  it('holds for a label read from IDENTIDADE over a number starting under it', () => {
    const l = toPhrase(label(false));
    expect(identityStartLost(l, [l], { x0: 352 })).toBe(true);
  });
  it('does not hold when DOC. was read, as its own phrase or in the label', () => {
    const doc = toPhrase([word('DOC.', 300, 200, 40)]), l = toPhrase(label(false));
    expect(identityStartLost(l, [doc, l], { x0: 352 })).toBe(false);
    expect(identityStartLost(toPhrase(label(true)), [toPhrase(label(true))], { x0: 352 })).toBe(false);
  });
  it('does not hold when the number starts where DOC. is printed (its start read)', () => {
    const l = toPhrase(label(false));
    expect(identityStartLost(l, [l], { x0: 300 })).toBe(false);
  });
  it('does not count ink far left of the label (another column) as its DOC.', () => {
    const l = toPhrase(label(false)), far = toPhrase([word('ACC', 350 - DOC_REACH * 12 - 60, 200, 40)]);
    expect(identityStartLost(l, [far, l], { x0: 352 })).toBe(true);
  });
  it('leaves the number it lowers under the low-confidence line in the fields (an older front)', () => {
    type Row = [string, number, number, number, number, number];
    const page = (idRows: Row[]): OcrWord[] => ([
      ['REPÚBLICA', 0.9, 41, 32, 150, 48], ['FEDERATIVA', 0.9, 157, 32, 273, 48], ['DO', 0.9, 281, 32, 307, 48], ['BRASIL', 0.9, 314, 32, 379, 48],
      ['NOME', 0.9, 370, 150, 421, 164], ['SINESIO', 0.93, 376, 176, 478, 199], ['MAIDANA', 0.93, 490, 176, 620, 199],
      ...idRows,
      ['CPF', 0.9, 374, 306, 407, 320], ['DATA', 0.9, 719, 309, 764, 323], ['NASCIMENTO', 0.9, 771, 309, 894, 324],
      ['750.557.853-30', 0.95, 377, 335, 589, 359], ['27/09/1968', 0.95, 726, 336, 877, 361],
    ] as Row[]).map(([text, conf, x0, y0, x1, y1]) => ({ text, conf, x0, y0, x1, y1 }));
    const label: Row[] = [['IDENTIDADE', 0.9, 420, 224, 530, 239], ['/', 0.9, 537, 222, 545, 240], ['ÓRG.', 0.9, 556, 222, 596, 240], ['EMISSOR', 0.9, 603, 224, 681, 239]];
    const read = (ws: OcrWord[]) => extractFields(groupPhrases(ws), readingText(groupPhrases(ws))).campos.rg;
    // A shadow's edge over DOC. and the number's first three digits.
    const lost = read(page([...label, ['058374', 0.95, 421, 254, 521, 278], ['SSP', 0.95, 531, 255, 590, 278], ['RS', 0.95, 600, 256, 637, 279]]));
    expect(lost.valor).toBe('058374');
    expect(lost.confianca).toBeLessThan(0.8);
    const whole = read(page([['DOC.', 0.9, 371, 223, 409, 238], ...label, ['692058374', 0.95, 373, 254, 521, 278], ['SSP', 0.95, 531, 255, 590, 278], ['RS', 0.95, 600, 256, 637, 279]]));
    expect(whole.valor).toBe('692058374');
    expect(whole.confianca).toBeGreaterThanOrEqual(0.8);
  });
});
