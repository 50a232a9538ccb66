/**
 * A name word too long for one name is two words whose space was lost (doubts.ts joinedWords; final10
 * #69: "KRYSTYNA WYSOCKIBOHATCHUK" read at 0.85 once the stamp over it was lifted): the name comes back
 * as read, under the low-confidence line.
 */
import { describe, expect, it } from 'vitest';
import { joinedWords, JOINED_WORD_LETTERS } from '../../src/ocr/doubts.js';
import { extractFields } from '../../src/ocr/fields.js';
import { groupPhrases, readingText, type OcrWord } from '../../src/ocr/words.js';

type Row = [string, number, number, number, number, number];
const words = (rows: Row[]): OcrWord[] => rows.map(([text, conf, x0, y0, x1, y1]) => ({ text, conf, x0, y0, x1, y1 }));
const extract = (ws: OcrWord[]) => extractFields(groupPhrases(ws), readingText(groupPhrases(ws)));

/** An older card's front, its name line holding `name` (each word 17 px a letter), its other labels and values. */
function page(name: string[]): OcrWord[] {
  let x = 376;
  const nameRow: Row[] = name.map((w) => { const r: Row = [w, 0.93, x, 176, x + 17 * w.length, 199]; x += 17 * w.length + 12; return r; });
  return words([
    ['REPÚBLICA', 0.9, 41, 32, 150, 48], ['FEDERATIVA', 0.9, 157, 32, 273, 48], ['DO', 0.9, 281, 32, 307, 48], ['BRASIL', 0.9, 314, 32, 379, 48],
    ['NOME', 0.9, 370, 150, 421, 164], ...nameRow,
    ['DOC.', 0.9, 371, 223, 409, 238], ['IDENTIDADE', 0.9, 420, 224, 530, 239], ['/', 0.9, 537, 222, 545, 240], ['ÓRG.', 0.9, 556, 222, 596, 240], ['EMISSOR', 0.9, 603, 224, 681, 239],
    ['102959350', 0.95, 373, 254, 521, 278], ['SSP', 0.95, 531, 255, 590, 278], ['RS', 0.95, 600, 256, 637, 279],
    ['CPF', 0.9, 374, 306, 407, 320], ['DATA', 0.9, 719, 309, 764, 323], ['NASCIMENTO', 0.9, 771, 309, 894, 324],
    ['750.557.853-30', 0.95, 377, 335, 589, 359], ['27/09/1968', 0.95, 726, 336, 877, 361],
  ]);
}

describe('joinedWords: a name word too long for one name', () => {
  it('finds words of JOINED_WORD_LETTERS letters or more, marks and hyphens not counted', () => {
    expect(JOINED_WORD_LETTERS).toBe(16);
    expect(joinedWords('KRYSTYNA WYSOCKIBOHATCHUK')).toEqual(['WYSOCKIBOHATCHUK']);
    expect(joinedWords('ARAXI DA KHATCHADOURIAN VAN DER MEER')).toEqual([]);
    expect(joinedWords('JOÃO DA CONCEIÇÃOALBUQUERQUE')).toEqual(['CONCEIÇÃOALBUQUERQUE']);
    expect(joinedWords('ANNA-LUIZA MARIA-EDUARDA')).toEqual([]);
  });

  it('a name read with such a word is under the low-confidence line; the same name read with its space is not', () => {
    const joined = extract(page(['KRYSTYNA', 'WYSOCKIBOHATCHUK'])).campos.nome_completo;
    expect(joined.valor).toBe('KRYSTYNA WYSOCKIBOHATCHUK');
    expect(joined.confianca).toBeLessThan(0.8);
    const spaced = extract(page(['KRYSTYNA', 'WYSOCKI', 'BOHATCHUK'])).campos.nome_completo;
    expect(spaced.valor).toBe('KRYSTYNA WYSOCKI BOHATCHUK');
    expect(spaced.confianca).toBeGreaterThanOrEqual(0.8);
  });
});
