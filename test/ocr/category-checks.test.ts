/**
 * The category label read with a letter wrong or glued to its neighbour, and a category code that lost
 * its first letter (issue #17: final2 part, "(AT, HAB." and "SCALHABR" for "CAT. HAB.", "E" at 0.97 for
 * "AE"). Word boxes are made up; no image is read.
 */
import { describe, expect, it } from 'vitest';
import { extractFields } from '../../src/ocr/fields.js';
import { findLabels, fuzzyContains } from '../../src/ocr/layout.js';
import { groupPhrases, type OcrWord } from '../../src/ocr/words.js';

const w = (text: string, x0: number, y0: number, h: number, conf = 0.95): OcrWord => ({ text, conf, x0, y0, x1: x0 + text.length * h * 0.6, y1: y0 + h });
const line = (text: string, x0: number, y0: number, h: number, conf = 0.95): OcrWord[] => {
  let x = x0;
  return text.split(' ').map((t) => { const word = w(t, x, y0, h, conf); x = word.x1 + h * 0.4; return word; });
};
const extract = (words: OcrWord[]) => extractFields(groupPhrases(words), words.map((x) => x.text).join(' '));

/** An older card's labels and, 20 px under each, its values starting `dx` px right of their labels. */
const card = (dx: number): OcrWord[] => [
  w('NOME', 100, 40, 12), ...line('MARIA DA SILVA', 100 + dx, 60, 22),
  w('CPF', 100, 120, 12), ...line('123.456.789-09', 100 + dx, 140, 22), ...line('DATA NASCIMENTO', 400, 120, 12), w('01/02/1980', 400 + dx, 140, 22),
  w('PERMISSÃO', 100, 300, 16), w('ACC', 400, 300, 12),
  ...line('1ª HABILITAÇÃO', 400, 400, 16), w('05/06/2001', 400 + dx, 420, 22), w('VALIDADE', 700, 400, 12), w('07/08/2031', 700 + dx, 420, 22),
];

describe('fuzzyContains (approximate substring, Sellers)', () => {
  it('finds a pattern within the allowed edits anywhere in the text', () => {
    expect(fuzzyContains('9CATHAB', 'CATHAB', 0)).toBe(true);
    expect(fuzzyContains('ATHAB', 'CATHAB', 1)).toBe(true);
    expect(fuzzyContains('SCALHABR', 'CATHAB', 1)).toBe(true);
    expect(fuzzyContains('SCALHABR', 'CATHAB', 0)).toBe(false);
    expect(fuzzyContains('HABILITACAO', 'CATHAB', 1)).toBe(false);
    expect(fuzzyContains('', 'CATHAB', 1)).toBe(false);
  });
});

describe('the category label misread', () => {
  const found = (text: string): string | undefined => findLabels(groupPhrases(line(text, 700, 300, 12))).get('categoria')?.phrase.text;

  it('is found with one letter wrong or glued into one word', () => {
    expect(found('CAT. HAB.')).toBe('CAT. HAB.');
    expect(found('(AT, HAB.')).toBe('(AT, HAB.');
    expect(found('SCALHABR')).toBe('SCALHABR');
  });

  it('is not found in the first licence label, in other labels or in a long line', () => {
    expect(found('1ª HABILITAÇÃO')).toBeUndefined();
    expect(found('PERMISSÃO')).toBeUndefined();
    expect(found('CARTEIRA NACIONAL DE HABILITAÇÃO')).toBeUndefined();
    expect(found('CAL HAB ITA TO ON')).toBeUndefined();
  });

  it('is never a name that holds its letters (CATHARINA), whether the real label was read or not', () => {
    for (const name of ['CATHARINA SOUZA LIMA', 'ANA CATHARINA LIMA', 'CATHARINA']) {
      const named = (words: OcrWord[]) => extract([...words.filter((x) => x.text !== 'MARIA' && x.text !== 'DA' && x.text !== 'SILVA'), ...line(name, 100, 60, 22)]);
      const withLabel = named([...card(0), ...line('CAT. HAB.', 700, 300, 12), w('AB', 700, 320, 22)]);
      expect(withLabel.campos.nome_completo.valor).toBe(name);
      expect(withLabel.campos.categoria.valor).toBe('AB');
      const unread = named([...card(0), w('AB', 700, 320, 22)]);
      expect(unread.campos.nome_completo.valor).toBe(name);
      expect(findLabels(groupPhrases(line(name, 100, 60, 22))).has('categoria')).toBe(false);
    }
  });

  it('gives the code under it', () => {
    const r = extract([...card(0), ...line('(AT, HAB.', 700, 300, 12), w('AB', 700, 320, 22)]);
    expect(r.campos.categoria.valor).toBe('AB');
  });
});

describe('a category code that lost its first letter', () => {
  const label = (): OcrWord[] => line('CAT. HAB.', 700, 300, 12);

  it('starting where the card\'s values start, keeps its confidence', () => {
    for (const dx of [0, 15]) {
      const r = extract([...card(dx), ...label(), w('E', 700 + dx + 4, 320, 22)]);
      expect(r.campos.categoria.valor).toBe('E');
      expect(r.campos.categoria.confianca).toBeGreaterThan(0.9);
      expect(r.suspects.some((s) => s.phrase.text === 'E')).toBe(false);
    }
  });

  it('starting a glyph further right, stays under the low-confidence line and is read again from where it should begin', () => {
    for (const dx of [0, 15]) {
      const r = extract([...card(dx), ...label(), w('E', 700 + dx + 26, 320, 22)]);
      expect(r.campos.categoria.valor).toBe('E');
      expect(r.campos.categoria.confianca).toBeLessThanOrEqual(0.7);
      const s = r.suspects.find((x) => x.phrase.text === 'E');
      expect(s?.phrase.x0).toBeCloseTo(700 + dx, 0);
      expect(s?.accept('AE')).toBe(true);
      expect(s?.accept('E')).toBe(false);
    }
  });
});
