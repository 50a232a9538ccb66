import { describe, expect, it } from 'vitest';
import { CNH_FIELD_NAMES, type CnhField, type CnhFieldName } from '../../src/ocr/engine.js';
import { fieldRow, joinBands, scaleBands, spliceBands, unsureBands, whitenOutside } from '../../src/ocr/field-bands.js';
import type { OcrWord } from '../../src/ocr/words.js';

const w = (text: string, x0: number, y0: number, y1: number, conf = 0.9): OcrWord => ({ text, conf, x0, x1: x0 + 10 * text.length, y0, y1 });

/** A card's rows: labels (12 px type) over values (20 px type), 60 px apart. */
const words: OcrWord[] = [
  w('NOME', 10, 100, 112), w('MARIA', 10, 120, 140), w('DA', 70, 120, 140), w('SILVA', 100, 120, 140),
  w('CPF', 10, 160, 172), w('123.456.789-09', 10, 180, 200),
  w('VALIDADE', 10, 220, 232), w('10/10/2030', 10, 240, 260),
  w('FILIAÇÃO', 10, 280, 292), w('ANA', 10, 300, 320), w('SOUZA', 60, 300, 320),
  w('UF', 10, 340, 352), w('SP', 10, 360, 380),
];

function campos(over: Partial<Record<CnhFieldName, CnhField>>): Record<CnhFieldName, CnhField> {
  const base = Object.fromEntries(CNH_FIELD_NAMES.map((k) => [k, { valor: 'X', confianca: 0.95 }])) as Record<CnhFieldName, CnhField>;
  base.observacoes = { valor: '', confianca: 0 };
  return { ...base, ...over };
}

describe('fieldRow: the row a value was read from', () => {
  it('finds a name by its words and a CPF by its digits, accents and punctuation aside', () => {
    expect(fieldRow(words, 'MARIA DA SILVA')).toEqual({ y0: 120, y1: 140, h: 20 });
    expect(fieldRow(words, '123.456.789-09')).toEqual({ y0: 180, y1: 200, h: 20 });
    expect(fieldRow([w('MARÍA', 0, 10, 30)], 'MARIA')).toEqual({ y0: 10, y1: 30, h: 20 });
  });
  it('finds a number read with look-alike letters, and a name word with one letter in four read otherwise', () => {
    expect(fieldRow([w('NOME', 0, 0, 12), w('8111457O557', 0, 20, 40)], '81114570557')).toEqual({ y0: 20, y1: 40, h: 20 });
    expect(fieldRow([w('CRISTOBAI', 0, 50, 70), w('WEI', 100, 50, 70)], 'CRISTÓBAL WEI')).toEqual({ y0: 50, y1: 70, h: 20 });
    expect(fieldRow([w('SILVA', 0, 50, 70)], 'SOUZA')).toBeNull();
  });
  it('is null when the words hold under half the value, or only noise holds it', () => {
    expect(fieldRow(words, 'JOSEFINA DA COSTA')).toBeNull();
    expect(fieldRow([w('MARIA', 0, 10, 30, 0.1)], 'MARIA')).toBeNull();
    expect(fieldRow(words, '')).toBeNull();
  });
});

describe('unsureBands: the rows read a second time', () => {
  it('reads the whole page again (null) when a field is missing, core or not, but for an empty remark', () => {
    expect(unsureBands(words, campos({ cpf: { valor: '', confianca: 0 } }), 400)).toBeNull();
    const noIssueDate = campos({ cpf: { valor: '123.456.789-09', confianca: 0.7 }, data_emissao: { valor: '', confianca: 0 } });
    expect(unsureBands(words, noIssueDate, 400)).toBeNull();
    expect(unsureBands(words, { ...noIssueDate, data_emissao: { valor: 'X', confianca: 0.95 } }, 400)).toHaveLength(1);
  });
  it('takes a missing birthplace as printed nowhere on a card of the model before 2022, not on a 2022 card', () => {
    const noBirthplace = campos({ cpf: { valor: '123.456.789-09', confianca: 0.7 }, local_nascimento: { valor: '', confianca: 0 } });
    expect(unsureBands(words, noBirthplace, 400, 'old')).toHaveLength(1);
    expect(unsureBands(words, noBirthplace, 400, '2022')).toBeNull();
    expect(unsureBands(words, { ...noBirthplace, data_emissao: { valor: '', confianca: 0 } }, 400, 'old')).toBeNull();
  });
  it('reads the whole page again when an unsure value is not found among the words', () => {
    expect(unsureBands(words, campos({ nome_completo: { valor: 'JOSEFINA COSTA', confianca: 0.6 } }), 400)).toBeNull();
  });
  it('gives an unsure field its label and value rows, its edges off the rows around it', () => {
    const bands = unsureBands(words, campos({ cpf: { valor: '123.456.789-09', confianca: 0.7 } }), 400);
    expect(bands).toHaveLength(1);
    const [b] = bands!;
    expect(b.y0).toBeLessThanOrEqual(160); // the CPF label
    expect(b.y0).toBeGreaterThanOrEqual(140); // not the name above
    expect(b.y1).toBeGreaterThanOrEqual(200);
    expect(b.y1).toBeLessThanOrEqual(220); // not the next label
  });
  it('takes unsure fields outside the core too, and none for sure ones', () => {
    const bands = unsureBands(words, campos({ nome_pai: { valor: 'ANA SOUZA', confianca: 0.5 } }), 400);
    expect(bands).toHaveLength(1);
    expect(bands![0].y0).toBeLessThanOrEqual(280);
    expect(unsureBands(words, campos({}), 400)).toEqual([]);
  });
});

describe('bands on the page', () => {
  it('joins overlapping bands and scales them', () => {
    expect(joinBands([{ y0: 50, y1: 80 }, { y0: 10, y1: 40 }, { y0: 30, y1: 60 }])).toEqual([{ y0: 10, y1: 80 }]);
    expect(scaleBands([{ y0: 10, y1: 21 }], 1.5)).toEqual([{ y0: 15, y1: 32 }]);
  });
  it('whitens every row outside the bands and keeps the rows inside', () => {
    const page = { data: new Uint8Array(4 * 10).fill(0), width: 4, height: 10 };
    whitenOutside(page, [{ y0: 2, y1: 4 }, { y0: 7, y1: 8 }]);
    const rows = Array.from({ length: 10 }, (_, y) => page.data[y * 4]);
    expect(rows).toEqual([255, 255, 0, 0, 255, 255, 255, 0, 255, 255]);
  });
  it('splices the second reading inside the bands into the first reading', () => {
    const second = [w('MARIA', 10, 121, 141, 0.97), w('NOISE', 10, 300, 320)];
    const out = spliceBands(words, second, [{ y0: 95, y1: 145 }]);
    expect(out.filter((x) => x.y0 >= 95 && x.y1 <= 145).map((x) => x.text)).toEqual(['MARIA']);
    expect(out.map((x) => x.text)).toContain('SOUZA');
    expect(out.map((x) => x.text)).not.toContain('NOISE');
  });
});
