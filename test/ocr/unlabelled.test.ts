/**
 * Issue #17, eighth round (final5's fax-like 1-bit scans): a card whose labels did not survive the
 * capture but whose values did is read by the values' own shape and order (unlabelled.ts), every such
 * value under the low-confidence line; a card whose labels were read is untouched; a page without the
 * card's own words gets nothing. A CPF read with look-alike digits is taken only by its check digits.
 * Synthetic word lists (no recognition), shaped like final5 #58's reading (labels read as dots).
 */
import { describe, expect, it } from 'vitest';
import { extractFields, LOW_CONFIDENCE } from '../../src/ocr/fields.js';
import { placeDatesInOrder, UNLABELLED_CAP } from '../../src/ocr/unlabelled.js';
import type { Draft } from '../../src/ocr/checks.js';
import { groupPhrases, type OcrWord } from '../../src/ocr/words.js';

const w = (text: string, x0: number, y0: number, h: number, conf = 0.92): OcrWord => ({ text, conf, x0, y0, x1: x0 + text.length * h * 0.6, y1: y0 + h });
const line = (text: string, x0: number, y0: number, h: number, conf = 0.92): OcrWord[] => {
  let x = x0;
  return text.split(' ').map((t) => { const word = w(t, x, y0, h, conf); x = word.x1 + h * 0.4; return word; });
};
const extract = (words: OcrWord[]) => extractFields(groupPhrases(words), words.map((x) => x.text).join(' '));

/** A 2022 card's front read without any label: header, values in their order, label dots as noise. */
const fax = (header = 'CARTEIRA NACIONAL DE HABILITAÇÃO'): OcrWord[] => [
  ...line(header, 24, 57, 17, 0.8), ...line('DETRAN MT', 1057, 31, 18, 0.9),
  ...line('SSL seria o', 397, 128, 10, 0.4),
  ...line('DAMIANA LINDALVA DOS EIRAS FONTENELE', 374, 156, 21, 0.88),
  ...line('A dia NL', 411, 209, 10, 0.45),
  ...line('06/06/1970, BARRA DO GARÇAS, MT', 369, 239, 19, 0.9),
  ...line('382236546 SSP MT', 373, 411, 19, 0.3),
  ...line('ET BT', 743, 494, 19, 0.2),
  w('AC', 371, 585, 19, 0.93), w('16/03/2000', 756, 581, 19, 0.9),
  ...line('DAMIANA DA SABINO BULHÕES', 371, 666, 21, 0.85),
];

describe('a card read without its labels (unlabelled.ts)', () => {
  it('places the birth line, name, mother and category by shape and order, all under the low-confidence line', () => {
    const { campos, labelsFound } = extract(fax());
    expect(labelsFound).toBe(0);
    expect(campos.nome_completo.valor).toBe('DAMIANA LINDALVA DOS EIRAS FONTENELE');
    expect(campos.local_nascimento.valor).toBe('BARRA DO GARÇAS, MT');
    expect(campos.data_nascimento.valor).toBe('06/06/1970');
    expect(campos.categoria.valor).toBe('AC');
    expect(campos.nome_mae.valor).toBe('DAMIANA DA SABINO BULHÕES');
    expect(campos.nome_pai.valor).toBe('');
    for (const k of ['nome_completo', 'local_nascimento', 'data_nascimento', 'categoria', 'nome_mae'] as const) {
      expect(campos[k].confianca).toBeLessThan(LOW_CONFIDENCE);
      expect(campos[k].confianca).toBeLessThanOrEqual(UNLABELLED_CAP);
    }
  });

  it('takes two name lines under the holder as father and mother', () => {
    const words = [...fax(), ...line('JOSE CARLOS FONTENELE', 371, 700, 21, 0.85)];
    const { campos } = extract(words);
    expect(campos.nome_pai.valor).toBe('DAMIANA DA SABINO BULHÕES');
    expect(campos.nome_mae.valor).toBe('JOSE CARLOS FONTENELE');
  });

  it('reads a birth line whose comma before the state was read as a full stop', () => {
    const words = fax().filter((x) => x.y0 !== 239).concat(line('11/09/1964, AÇU. RN', 369, 239, 19, 0.9));
    expect(extract(words).campos.local_nascimento.valor).toBe('AÇU, RN');
  });

  it('gives nothing on a page without the card\'s own words', () => {
    const words = fax('RELATÓRIO MENSAL DE VENDAS').filter((x) => !/DETRAN/.test(x.text));
    const { campos } = extract(words);
    expect(campos.nome_completo.valor).toBe('');
    expect(campos.categoria.valor).toBe('');
    expect(campos.nome_mae.valor).toBe('');
    expect(campos.local_nascimento.valor).toBe('');
  });

  it('leaves a card whose labels were read to its labels', () => {
    const labelled = [
      ...line('2 e 1 NOME E SOBRENOME', 374, 130, 10), ...line('DAMIANA LINDALVA DOS EIRAS FONTENELE', 374, 156, 21, 0.88),
      ...line('3 DATA, LOCAL E UF DE NASCIMENTO', 369, 215, 10), ...line('06/06/1970, BARRA DO GARÇAS, MT', 369, 239, 19, 0.9),
      ...line('4d CPF', 373, 470, 10), ...line('5 Nº REGISTRO', 743, 470, 10),
      ...line('CARTEIRA NACIONAL DE HABILITAÇÃO', 24, 57, 17, 0.8),
      ...line('JOÃO PEDRO ALVES', 371, 666, 21, 0.85),
    ];
    const { campos, labelsFound } = extract(labelled);
    expect(labelsFound).toBeGreaterThan(1);
    expect(campos.nome_completo.confianca).toBeGreaterThan(UNLABELLED_CAP);
    // The lone name line is not taken for a parent without the FILIAÇÃO label or the category row.
    expect(campos.nome_mae.valor).toBe('');
  });

  it('does not take a state (AC) inside a line for a category, nor an issuer line for a name', () => {
    const words = fax().filter((x) => x.text !== 'AC').concat(line('RIO BRANCO, AC', 1450, 227, 21, 0.95));
    const { campos } = extract(words);
    expect(campos.categoria.valor).toBe('');
    expect(campos.nome_completo.valor).toBe('DAMIANA LINDALVA DOS EIRAS FONTENELE');
  });
});

describe('dates of an unlabelled card by the calendar order (placeDatesInOrder)', () => {
  it('places the first licence and the issue date when exactly those two are left', () => {
    const d: Record<string, Draft> = { data_nascimento: { valor: '11/09/1964', conf: 0.7 }, data_validade: { valor: '07/02/2030', conf: 0.9 } };
    placeDatesInOrder(d, ['07/02/2020', '25/02/1985', '11/09/1964'], false, true, 0.6);
    expect(d.data_primeira_habilitacao?.valor).toBe('25/02/1985');
    expect(d.data_emissao?.valor).toBe('07/02/2020');
    expect(d.data_emissao?.cap).toBe(UNLABELLED_CAP);
  });

  it('guesses nothing when the dates left are fewer than the fields', () => {
    const d: Record<string, Draft> = {};
    placeDatesInOrder(d, ['16/03/2000', '10/08/2020'], true, false, 0.6);
    expect(Object.keys(d)).toEqual([]);
  });

  it('guesses nothing when the order would break against a date already placed', () => {
    const d: Record<string, Draft> = { data_validade: { valor: '07/02/2010', conf: 0.9 } };
    placeDatesInOrder(d, ['01/01/1960', '25/02/1985', '07/02/2020'], false, false, 0.6);
    expect(d.data_nascimento).toBeUndefined();
  });
});

describe('a CPF read with look-alike digits (fallbacks.ts applyFallbacks)', () => {
  const page = (cpf: string): OcrWord[] => [...line('CARTEIRA NACIONAL DE HABILITAÇÃO', 24, 57, 17, 0.8), ...line(`——— ${cpf}`, 371, 503, 25, 0.5)];
  it('is taken when its check digits pass', () => {
    expect(extract(page('657.905,101-9]')).campos.cpf.valor).toBe('657.905.101-91');
  });
  it('is not taken when they fail', () => {
    expect(extract(page('657.905,101-8]')).campos.cpf.valor).toBe('');
  });
});

describe('the identity line of an unlabelled card', () => {
  it('gives the number and the issuing body when read as digits, a known body and a state', () => {
    const words = fax().filter((x) => x.y0 !== 411).concat(line('877321665 SSP RN', 365, 411, 25, 0.87));
    const { campos } = extract(words);
    expect(campos.rg.valor).toBe('877321665');
    expect(campos.orgao_expedidor.valor).toBe('SSP');
    expect(campos.rg.confianca).toBeLessThanOrEqual(UNLABELLED_CAP);
  });
  it('guesses nothing from a broken number or an unknown body', () => {
    for (const text of ['08098&55 PC MS', '877321665 XYZ RN']) {
      const words = fax().filter((x) => x.y0 !== 411).concat(line(text, 365, 411, 25, 0.87));
      const { campos } = extract(words);
      expect(campos.rg.valor).toBe('');
      expect(campos.orgao_expedidor.valor).toBe('');
    }
  });
});
