import { describe, expect, it } from 'vitest';
import { scoreFields } from '../../src/ocr/checks.js';
import { CUT_CODE_CAP, cutRemarkCode } from '../../src/ocr/codes.js';
import { applyFallbacks, datesInOrder, firstLicenceBeside } from '../../src/ocr/fallbacks.js';
import { extractFields } from '../../src/ocr/fields.js';
import { groupPhrases, type OcrWord } from '../../src/ocr/words.js';

const w = (text: string, conf: number, x0: number, y0: number, x1: number, y1: number): OcrWord => ({ text, conf, x0, y0, x1, y1 });

// final21 #84's text layer (a 2022 front, boxes at 300 dpi, cap-height boxes), from its identity label down.
const layer = (idTop: number): OcrWord[] => [
  w('2', 1, 845, 459, 859, 477), w('e', 1, 867, 459, 881, 477), w('1', 1, 888, 459, 902, 477), w('NOME', 1, 909, 459, 985, 477),
  w('E', 1, 992, 459, 1009, 477), w('SOBRENOME', 1, 1017, 459, 1182, 477),
  w('JOSE', 1, 829, 526, 930, 554), w('SILVA', 1, 940, 526, 1060, 554),
  w('4a', 1, 827, 695, 856, 713), w('DATA', 1, 863, 695, 931, 713), w('EMISSÃO', 1, 938, 695, 1054, 713),
  w('31/07/2024', 1, 821, 774, 1023, 802),
  w('4b', 1, 1358, 691, 1386, 708), w('VALIDADE', 1, 1393, 691, 1519, 708), w('28/07/2027', 1, 1359, 764, 1562, 792),
  w('4c', 1, 844, 812, 871, 830), w('DOC.', 1, 878, 812, 942, 830), w('IDENTIDADE', 1, 949, 812, 1103, 830), w('/', 1, 1110, 812, 1117, 830),
  w('ÓRG.', 1, 1125, 812, 1190, 830), w('EMISSOR', 1, 1197, 812, 1314, 830), w('/', 1, 1321, 812, 1328, 830), w('UF', 1, 1335, 812, 1369, 830),
  ...(idTop ? [w('164900253', 1, 823, idTop, 1025, idTop + 29), w('SSP', 1, 1036, idTop, 1117, idTop + 29), w('ES', 1, 1128, idTop, 1182, idTop + 29)] : []),
  w('4d', 1, 838, 938, 867, 956), w('CPF', 1, 874, 938, 925, 956), w('540.000.498-95', 1, 829, 1011, 1112, 1039),
  w('5', 1, 1355, 939, 1369, 957), w('Nº', 1, 1376, 939, 1404, 957), w('REGISTRO', 1, 1411, 939, 1544, 957), w('14415985601', 1, 1354, 1007, 1601, 1035),
];

describe('value lines a little farther under their label (layout.ts valueBelow; twenty-third round)', () => {
  it('the identity line 3.55 label heights under its label is read (final21 #84, a text-layer PDF)', () => {
    const c = extractFields(groupPhrases(layer(894)), '', true).campos;
    expect(c.rg.valor).toBe('164900253');
    expect(c.orgao_expedidor.valor).toBe('SSP');
  });
  it('never past the next label: with the identity line missing, the CPF line under its own label is not taken', () => {
    const c = extractFields(groupPhrases(layer(0)), '', true).campos;
    expect(c.rg.valor).toBe('');
    expect(c.cpf.valor).toBe('540.000.498-95');
  });
});

describe('remarks of a lone letter that begins a longer code (codes.ts cutRemarkCode)', () => {
  it('E (of EAR, one stroke from F) is doubted on a recognised page; F, A, EAR are not; a text layer is exact', () => {
    expect(cutRemarkCode('E')).toBe(true);
    expect(cutRemarkCode('A E')).toBe(true);
    for (const r of ['F', 'A', 'EAR', 'EAR A', 'D']) expect(cutRemarkCode(r)).toBe(false);
    expect(scoreFields({ observacoes: { valor: 'E', conf: 0.92 } }).observacoes.confianca).toBe(CUT_CODE_CAP);
    expect(scoreFields({ observacoes: { valor: 'F', conf: 0.92 } }).observacoes.confianca).toBeGreaterThanOrEqual(0.8);
    expect(scoreFields({ observacoes: { valor: 'E', conf: 1 } }, true).observacoes.confianca).toBe(1);
  });
});

describe('dates placed where labels went unread (fallbacks.ts; twenty-third round)', () => {
  it('as many dates left as fields missing are placed in the card\'s order when it holds (final21 #68)', () => {
    const d = { data_nascimento: { valor: '09/06/2004', conf: 0.9 }, data_validade: { valor: '28/03/2030', conf: 0.9 } };
    expect(datesInOrder(d, ['data_primeira_habilitacao', 'data_emissao'], ['01/06/2024', '29/03/2025']))
      .toEqual([['data_primeira_habilitacao', '01/06/2024'], ['data_emissao', '29/03/2025']]);
    // An order that cannot hold (a first licence before the holder is 18) places nothing.
    expect(datesInOrder(d, ['data_primeira_habilitacao', 'data_emissao'], ['01/06/2010', '29/03/2025'])).toBeUndefined();
    expect(datesInOrder(d, ['data_primeira_habilitacao', 'data_emissao'], ['29/03/2025'])).toBeUndefined();
  });
  it('the older card\'s first-licence date beside its expiry (final21 #11), not one on another line', () => {
    const row = groupPhrases([w('35358967839', 0.95, 100, 500, 300, 520), w('14/04/2035', 0.96, 340, 500, 520, 520), w('11/03/1986', 0.9, 560, 500, 740, 520)]);
    expect(firstLicenceBeside('14/04/2035', row)).toBe('11/03/1986');
    const lower = groupPhrases([w('14/04/2035', 0.96, 340, 500, 520, 520), w('11/03/1986', 0.9, 560, 560, 740, 580)]);
    expect(firstLicenceBeside('14/04/2035', lower)).toBe('');
  });
  it('a CPF whose stops or hyphen were read as colons is taken when its check digits pass (final21 #55)', () => {
    const d: Parameters<typeof applyFallbacks>[0] = {};
    applyFallbacks(d, 'DATA NASCIMENTO\n—026:617.533:38  =  —\n', 'old', new Map(), []);
    expect(d.cpf?.valor).toBe('026.617.533-38');
    const bad: Parameters<typeof applyFallbacks>[0] = {};
    applyFallbacks(bad, 'DATA NASCIMENTO\n—026:617.533:39  =  —\n', 'old', new Map(), []);
    expect(bad.cpf?.valor ?? '').toBe('');
  });
});
