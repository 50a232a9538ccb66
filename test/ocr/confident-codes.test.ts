/**
 * Codes read sure though their ink says otherwise (eleventh round, final9): a remark whose ink holds a
 * letter more than was read ("EAR" for EAR A at 0.93, second-looks.ts lostRemarkCodes: glyphs drawn on a
 * page), and a category boxed far taller than the value type ("E" for B at 0.892 on a blurred card,
 * fields.ts: word boxes made up).
 */
import { describe, expect, it } from 'vitest';
import { extractFields } from '../../src/ocr/fields.js';
import type { Gray } from '../../src/ocr/glyph-i.js';
import { lostRemarkCodes } from '../../src/ocr/second-looks.js';
import { groupPhrases, type OcrWord } from '../../src/ocr/words.js';

const w = (text: string, x0: number, y0: number, h: number, conf = 0.95): OcrWord => ({ text, conf, x0, y0, x1: x0 + text.length * h * 0.6, y1: y0 + h });
const line = (text: string, x0: number, y0: number, h: number, conf = 0.95): OcrWord[] => {
  let x = x0;
  return text.split(' ').map((t) => { const word = w(t, x, y0, h, conf); x = word.x1 + h * 0.4; return word; });
};

/** A white page with black glyph boxes (x0, y0, width, height). */
function page(boxes: Array<[number, number, number, number]>): Gray {
  const width = 400, height = 200;
  const data = new Uint8Array(width * height).fill(255);
  for (const [x0, y0, bw, bh] of boxes) for (let y = y0; y < y0 + bh; y++) for (let x = x0; x < x0 + bw; x++) data[y * width + x] = 0;
  return { data, width, height } as Gray;
}

describe('a remark whose ink holds more letters than were read (second-looks.ts lostRemarkCodes)', () => {
  const label = w('OBSERVAÇÕES', 20, 20, 12);
  const remark = (text: string, x1: number): OcrWord => ({ text, conf: 0.93, x0: 25, y0: 45, x1, y1: 65 });
  const glyph = (x: number): [number, number, number, number] => [x, 45, 14, 20];
  const conf = (g: Gray, v: OcrWord): number => lostRemarkCodes(g, [label, v]).find((x) => x.text === v.text)!.conf;

  it('falls when the box holds a glyph more than its letters (the A after a narrow space)', () => {
    expect(conf(page([glyph(25), glyph(45), glyph(65), glyph(85)]), remark('EAR', 100))).toBeLessThanOrEqual(0.5);
  });
  it('falls when a glyph of value type starts a space after the last word', () => {
    expect(conf(page([glyph(25), glyph(45), glyph(65), glyph(92)]), remark('EAR', 80))).toBeLessThanOrEqual(0.5);
  });
  it('keeps its confidence when every glyph was read, and ignores specks and far ink', () => {
    expect(conf(page([glyph(25), glyph(45), glyph(65)]), remark('EAR', 80))).toBe(0.93);
    expect(conf(page([glyph(25), glyph(45), glyph(65), [90, 55, 3, 3], glyph(200)]), remark('EAR', 80))).toBe(0.93);
  });
});

describe('a category boxed far taller than the value type (fields.ts)', () => {
  /** An older card: labels, values 22 px tall, the category under CAT. HAB. boxed `h` px tall. */
  const card = (h: number): OcrWord[] => [
    w('NOME', 100, 40, 12), ...line('MARIA DA SILVA', 100, 60, 22),
    w('CPF', 100, 120, 12), ...line('123.456.789-09', 100, 140, 22), ...line('DATA NASCIMENTO', 400, 120, 12), w('01/02/1980', 400, 140, 22),
    w('PERMISSÃO', 100, 300, 16), w('ACC', 400, 300, 12), ...line('CAT. HAB.', 700, 300, 12), { text: 'E', conf: 0.95, x0: 700, y0: 318, x1: 714, y1: 318 + h },
    ...line('1ª HABILITAÇÃO', 400, 400, 16), w('05/06/2001', 400, 420, 22), w('VALIDADE', 700, 400, 12), w('07/08/2031', 700, 420, 22),
    ...line('JOSÉ DA SILVA', 100, 200, 22), ...line('ANA MARIA SOUZA', 100, 240, 22),
  ];
  const cat = (h: number) => extractFields(groupPhrases(card(h)), card(h).map((x) => x.text).join(' ')).campos.categoria;

  it('is kept under the low line', () => {
    expect(cat(40).valor).toBe('E');
    expect(cat(40).confianca).toBeLessThanOrEqual(0.7);
  });
  it('is not doubted at the value type\'s size', () => {
    expect(cat(22).valor).toBe('E');
    expect(cat(22).confianca).toBeGreaterThan(0.8);
  });
});
