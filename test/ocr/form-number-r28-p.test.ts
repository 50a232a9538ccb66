/**
 * Twenty-seventh round, engineer P: values checked against another printed number of the card
 * (src/ocr/form-number.ts): the RENACH form number's state, a registration number read with a
 * look-alike character whose check digits pass.
 */
import { describe, expect, it } from 'vitest';
import { extractFields, LOW_CONFIDENCE } from '../../src/ocr/fields.js';
import { lookAlikeCnhNumber, renachUf } from '../../src/ocr/form-number.js';
import { cnhCheckDigits } from '../../src/ocr/validators.js';
import { groupPhrases, type OcrWord } from '../../src/ocr/words.js';

/** Words of `text` on one line from `x`, `h` px type (0.6 h per character, 0.4 h spaces), at `conf`. */
function line(text: string, x: number, y0: number, h: number, conf = 0.95): OcrWord[] {
  return text.split(' ').map((t) => {
    const w = { text: t, conf, x0: x, y0, x1: x + t.length * h * 0.6, y1: y0 + h };
    x = w.x1 + h * 0.4;
    return w;
  });
}
const read = (words: OcrWord[]) => extractFields(groupPhrases(words), words.map((x) => x.text).join(' ')).campos;

/** A 2022 front's name, birth line and CPF (labels at 12 px, values at 20 px), with `header` as the DETRAN line's words. */
const front = (header: OcrWord[], more: OcrWord[] = []): OcrWord[] => [
  ...line('REPÚBLICA FEDERATIVA DO BRASIL', 40, 20, 14), ...header,
  ...line('2 e 1 NOME E SOBRENOME', 370, 130, 12), ...line('MARIA SOUZA LIMA', 380, 160, 20),
  ...line('3 DATA, LOCAL E UF DE NASCIMENTO', 370, 210, 12), ...line('28/06/1972, TERESINA, PI', 380, 240, 20),
  ...line('4d CPF', 370, 450, 12), ...line('264.720.271-02', 380, 478, 20), ...more,
];

describe('the RENACH form number\'s state (form-number.ts renachUf)', () => {
  it('reads the state from the word after RENACH, or from a lone exact form number', () => {
    const ps = (ws: OcrWord[]) => groupPhrases(ws);
    expect(renachUf(ps(line('RENACH PI334767634', 40, 780, 14, 0.82)))).toEqual({ uf: 'PI', conf: 0.82 });
    // A digit read as a look-alike, one digit lost: still the form number.
    expect(renachUf(ps(line('RENACH SP3347676]4', 40, 780, 14)))?.uf).toBe('SP');
    expect(renachUf(ps(line('RENACH RS33476763', 40, 780, 14)))?.uf).toBe('RS');
    expect(renachUf(ps(line('SC123456789', 40, 780, 14)))?.uf).toBe('SC');
    // No state (P1), no RENACH before a number of another shape, or two readings that disagree: none.
    expect(renachUf(ps(line('RENACH P1334767634', 40, 780, 14)))).toBeUndefined();
    expect(renachUf(ps(line('TOTAL PI33476763', 40, 780, 14)))).toBeUndefined();
    expect(renachUf(ps([...line('RENACH PI334767634', 40, 780, 14), ...line('SP123456789', 40, 900, 14)]))).toBeUndefined();
  });

  it('gives the state, under the low-confidence line, when the DETRAN line lost it ("DETRAN P -")', () => {
    const c = read(front(line('DETRAN P -', 1020, 45, 24), line('RENACH PI334767634', 40, 780, 14, 0.9)));
    expect(c.uf.valor).toBe('PI');
    expect(c.uf.confianca).toBeLessThan(LOW_CONFIDENCE);
    expect(c.uf.confianca).toBeGreaterThan(0.5);
  });

  it('doubts a DETRAN state that the form number contradicts, and leaves one it agrees with sure', () => {
    const wrong = read(front(line('DETRAN - PE', 1020, 45, 24), line('RENACH PI334767634', 40, 780, 14, 0.9)));
    expect(wrong.uf.valor).toBe('PE');
    expect(wrong.uf.confianca).toBeLessThan(LOW_CONFIDENCE);
    const right = read(front(line('DETRAN - PI', 1020, 45, 24), line('RENACH PI334767634', 40, 780, 14, 0.9)));
    expect(right.uf.valor).toBe('PI');
    expect(right.uf.confianca).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
  });
});

describe('a registration number read with a look-alike (form-number.ts lookAlikeCnhNumber)', () => {
  const base = '104520369';
  const number = base + cnhCheckDigits(base);
  // The number as a blurred print reads it: its 1 a bracket, its 0 an O.
  const misread = number.replace('1', ']').replace('0', 'O');

  it('is taken, under the low-confidence line, when its check digits pass and its label was unread', () => {
    expect(number).toMatch(/^\d{11}$/);
    expect(lookAlikeCnhNumber(`x ${misread} y`, '')).toBe(number);
    const c = read(front(line('DETRAN - PI', 1020, 45, 24), line(misread, 720, 478, 20, 0.68)));
    expect(c.numero_cnh.valor).toBe(number);
    expect(c.numero_cnh.confianca).toBeLessThan(LOW_CONFIDENCE);
  });

  it('is not taken when its check digits fail, when it is the CPF, or when two differ', () => {
    const bad = misread.slice(0, 10) + String((Number(number[10]) + 1) % 10);
    expect(lookAlikeCnhNumber(bad, '')).toBe('');
    expect(lookAlikeCnhNumber(misread, number)).toBe('');
    const base2 = '204520369', other = (base2 + cnhCheckDigits(base2)).replace('0', 'O');
    expect(lookAlikeCnhNumber(`${misread} ${other}`, '')).toBe('');
    // Fewer than 9 true digits: letters, not a number.
    expect(lookAlikeCnhNumber('OOlIOOlIO]]', '')).toBe('');
    expect(read(front(line('DETRAN - PI', 1020, 45, 24), line(bad, 720, 478, 20, 0.68))).numero_cnh.valor).toBe('');
  });
});
