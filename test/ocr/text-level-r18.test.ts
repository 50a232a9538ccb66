import { describe, expect, it } from 'vitest';
import { extractFields } from '../../src/ocr/fields.js';
import { unsureCpf, UNSURE_CPF_CONF } from '../../src/ocr/fallbacks.js';
import { townGap } from '../../src/ocr/field-lines.js';
import { wordLeftOut } from '../../src/ocr/name-tails.js';
import { findLabels } from '../../src/ocr/layout.js';
import { headlessWords } from '../../src/ocr/doubts.js';
import { oddTerm } from '../../src/ocr/validators.js';
import { ODD_TERM_CAP, scoreFields } from '../../src/ocr/checks.js';
import { groupPhrases, toPhrase, type OcrWord } from '../../src/ocr/words.js';

const w = (text: string, conf: number, x0: number, y0: number, x1: number, y1: number): OcrWord => ({ text, conf, x0, y0, x1, y1 });

// final16 #26's first reading (2022 model, perspective, Liberation Sans): SCHROEDER read "SCHRO" and "R,"
// 64 px apart (the EDE under a pen mark), the line's spaces 14-15 px.
const birthPage = (city: OcrWord[]): OcrWord[] => [
  w('2€', 0.86, 371, 135, 393, 148), w('1', 0.93, 400, 136, 407, 148), w('NOME', 0.93, 414, 135, 463, 148), w('E', 0.96, 470, 135, 479, 148),
  w('SOBRENOME', 0.96, 486, 135, 594, 148), w('RUTE', 0.91, 380, 189, 460, 209), w('MARIA', 0.91, 473, 189, 574, 209), w('SOUZA', 0.92, 587, 189, 664, 209),
  w('LIMA', 0.92, 677, 189, 756, 209), w('3', 0.95, 370, 222, 379, 234), w('DATA,', 0.95, 384, 221, 430, 235), w('LOCAL', 0.95, 437, 221, 490, 234),
  w('E', 0.95, 497, 222, 506, 234), w('UF', 0.96, 513, 221, 534, 234), w('DE', 0.96, 540, 221, 561, 234), w('NASCIMENTO', 0.96, 569, 222, 680, 234),
  w('12/09/1999,', 0.93, 357, 268, 510, 291), ...city,
  w('4a', 0.92, 373, 296, 391, 308), w('DATA', 0.87, 397, 295, 439, 308), w('EMISSÃO', 0.87, 444, 292, 520, 308), w('4b', 0.90, 721, 299, 739, 312),
  w('VALIDADE', 0.96, 744, 300, 826, 313), w('ACC', 0.94, 1036, 299, 1071, 312), w('25/05/2021', 0.96, 346, 341, 491, 362), w('25/05/2024', 0.96, 700, 346, 850, 366),
  w('4', 0.54, 374, 376, 391, 388), w('DOC.', 0.83, 397, 375, 433, 388), w('IDENTIDADE', 0.93, 444, 375, 546, 388), w('/', 0.92, 551, 375, 556, 387),
  w('ÓRG.', 0.91, 561, 375, 599, 388), w('EMISSOR', 0.92, 610, 375, 686, 388), w('/', 0.91, 691, 376, 696, 387), w('UF', 0.96, 701, 375, 723, 388),
  w('420026026', 0.93, 354, 428, 499, 449), w('SSP', 0.93, 511, 428, 566, 449), w('SC', 0.96, 579, 428, 614, 449), w('4d', 0.59, 373, 461, 390, 473),
  w('CPF', 0.59, 396, 461, 429, 474), w('Nº', 0.95, 731, 459, 749, 471), w('REGISTRO', 0.95, 754, 458, 841, 471),
];

// final16 #17's first reading (old model, screenshot, Liberation Mono): the CPF label read "ec", the
// number read "772.099" and ".541-47" at 0.00 each.
const cpfPage = (cpf: OcrWord[]): OcrWord[] => [
  w('NOME', 0.47, 255, 361, 281, 369), w('MARKÉTA', 0.92, 262, 376, 339, 392), w('BOZENA', 0.92, 351, 376, 417, 392), w('POSPÍSIL', 0.88, 430, 376, 517, 392),
  w('DOLEZAL', 0.92, 531, 376, 607, 392), w('DOC.', 0.83, 254, 416, 274, 424),
  w('IDENTIDADE', 0.83, 290, 416, 359, 424), w('/', 0.85, 367, 415, 373, 423), w('ÓRG.', 0.46, 381, 415, 401, 424), w('EMISSOR', 0.93, 417, 415, 464, 424),
  w('/', 0.92, 473, 415, 479, 423), w('UF', 0.96, 487, 416, 500, 424), w('2630270', 0.93, 260, 431, 336, 444), w('SJS', 0.92, 349, 431, 381, 444),
  w('SP', 0.96, 394, 431, 414, 444), w('ec', 0.47, 260, 470, 280, 478), w('DATA', 0.78, 501, 471, 529, 479), w('NASCIHENTO', 0.43, 536, 471, 606, 480),
  ...cpf, w('16/04/1988', 0.96, 504, 487, 614, 501), w('FILIAÇÃO', 0.62, 260, 521, 316, 531),
  w('ZDENEK', 0.90, 256, 541, 323, 557), w('VESELY', 0.91, 334, 541, 400, 557), w('SVOBODA', 0.91, 413, 544, 491, 557), w('DAGMAR', 0.92, 261, 573, 327, 586),
  w('RUTE', 0.89, 340, 570, 407, 586), w('KRAL', 0.88, 419, 570, 463, 585), w('KUCERA', 0.91, 476, 570, 541, 586),
];

describe("final16's text-level misses (eighteenth round)", () => {
  it('a birth line with a gap that held letters leaves its town under the line (final16 #26 "SCHRO, SC" at 0.958)', () => {
    const cut = extractFields(groupPhrases(birthPage([w('SCHRO', 0.92, 524, 268, 624, 288), w('R,', 0.87, 689, 268, 713, 291), w('SC', 0.96, 727, 268, 763, 288)])), '').campos;
    expect(cut.local_nascimento.valor).toBe('SCHRO, SC');
    expect(cut.local_nascimento.confianca).toBeLessThan(0.8);
    // The same line read whole: sure, as before.
    const whole = extractFields(groupPhrases(birthPage([w('SCHROEDER,', 0.92, 524, 268, 713, 291), w('SC', 0.96, 727, 268, 763, 288)])), '').campos;
    expect(whole.local_nascimento.valor).toBe('SCHROEDER, SC');
    expect(whole.local_nascimento.confianca).toBeGreaterThanOrEqual(0.8);
  });

  it('townGap: a gap over twice the line\'s median space and 0.6 of its type; three gaps needed', () => {
    const line = (xs: Array<[string, number, number]>) => [toPhrase(xs.map(([t, a, b]) => w(t, 0.9, a, 268, b, 290)))];
    expect(townGap(line([['12/09/1999,', 357, 510], ['SCHRO', 524, 624], ['R,', 689, 713], ['SC', 727, 763]]))).toBe(true);
    expect(townGap(line([['12/09/1999,', 357, 510], ['SÃO', 524, 584], ['JOSÉ,', 598, 680], ['SC', 694, 730]]))).toBe(false);
    // Two gaps: nothing to measure the line by.
    expect(townGap(line([['12/09/1999,', 357, 510], ['SCHRO,', 580, 700], ['SC', 714, 750]]))).toBe(false);
  });

  it('a CPF read in its shape with passing check digits is taken from unsure words, under the line (final16 #17)', () => {
    const campos = extractFields(groupPhrases(cpfPage([w('772.099', 0, 261, 491, 337, 504), w('.541-47', 0, 343, 491, 416, 504)])), '').campos;
    expect(campos.cpf.valor).toBe('772.099.541-47');
    expect(campos.cpf.confianca).toBeLessThan(0.8);
    // Check digits that fail: nothing taken.
    const bad = extractFields(groupPhrases(cpfPage([w('772.099', 0, 261, 491, 337, 504), w('.541-48', 0, 343, 491, 416, 504)])), '').campos;
    expect(bad.cpf.valor).toBe('');
    // Two different passing CPFs on the page: none chosen.
    expect(unsureCpf(groupPhrases([w('772.099.541-47', 0, 0, 0, 100, 12), w('147.345.514-64', 0, 0, 100, 100, 112)]))).toBeUndefined();
    expect(unsureCpf(groupPhrases([w('147.345.514-64', 0, 0, 100, 100, 112)]))).toEqual({ valor: '147.345.514-64', conf: UNSURE_CPF_CONF });
  });

  it('a word of a name\'s type on its row just after it, left out of the value, doubts the name (final16 #25)', () => {
    const line = toPhrase([w('ORSOLYA', 0.91, 356, 461, 484, 484), w('LIBUSE', 0.92, 493, 455, 595, 483)]);
    const after = (text: string, x0: number, y0 = 452, y1 = 479) => [line, toPhrase([w(text, 0.5, x0, y0, x0 + 110, y1)])];
    expect(wordLeftOut(line, after('TAKÁCS', 716))).toBe(true);
    // The next column's print, 20 type heights away; a word in small letters; a word of another size.
    expect(wordLeftOut(line, after('DETRAN', 1316))).toBe(false);
    expect(wordLeftOut(line, after('Takács', 716))).toBe(false);
    expect(wordLeftOut(line, after('TAKÁCS', 716, 440, 500))).toBe(false);
    expect(wordLeftOut(line, [line])).toBe(false);
  });

  it('a label read glued and cut at its end is found by its start (final16 #57: "DATAEMI", "DATAEM" for DATA EMISSÃO)', () => {
    const ps = (t: string) => groupPhrases([w('LOCAL', 0.95, 1360, 245, 1418, 258), w(t, 0.88, 2077, 245, 2151, 258), w('10/04/2024', 0.96, 2097, 293, 2218, 313)]);
    expect(findLabels(ps('DATAEMI')).get('emissao')?.phrase.text).toBe('DATAEMI');
    expect(findLabels(ps('DATAEM')).get('emissao')?.phrase.text).toBe('DATAEM');
    // DATA alone or DATAE is any date's label; DATAN is the birth's.
    expect(findLabels(ps('DATAE')).get('emissao')).toBeUndefined();
    expect(findLabels(ps('DATANAS')).get('emissao')).toBeUndefined();
  });

  it('an expiry on the issue\'s day and month but no licence term after it doubts the less sure of the two (final16 #57)', () => {
    expect(oddTerm('10/04/2024', '10/04/2028')).toBe(true);
    expect(oddTerm('10/04/2024', '10/04/2024')).toBe(true);
    for (const y of ['2025', '2027', '2029', '2034']) expect(oddTerm('10/04/2024', `10/04/${y}`)).toBe(false);
    // Another day (the expiry counted from the medical exam), or no date: nothing said.
    expect(oddTerm('10/04/2024', '02/04/2028')).toBe(false);
    expect(oddTerm('', '10/04/2028')).toBe(false);
    const f = scoreFields({ data_emissao: { valor: '10/04/2024', conf: 0.96 }, data_validade: { valor: '10/04/2028', conf: 0.83 }, data_nascimento: { valor: '22/06/1997', conf: 0.96 } });
    expect(f.data_validade.confianca).toBe(ODD_TERM_CAP);
    expect(f.data_emissao.confianca).toBeGreaterThanOrEqual(0.8);
    const g = scoreFields({ data_emissao: { valor: '10/04/2024', conf: 0.96 }, data_validade: { valor: '10/04/2029', conf: 0.83 }, data_nascimento: { valor: '22/06/1997', conf: 0.96 } });
    expect(g.data_validade.confianca).toBeGreaterThanOrEqual(0.8);
  });

  it('a name word opening with L or R before a consonant lost its first letter (final16 #38 "LDIKÓ" at 0.908)', () => {
    expect(headlessWords('LDIKÓ POSPÍSIL BENES CERNY')).toEqual(['LDIKÓ']);
    expect(headlessWords('ANA RTUR SILVA')).toEqual(['RTUR']);
    // Openings that names do have: a vowel, LL, LH, LJ, LV, RH; and M or N before a consonant (NDIAYE, MBAYE).
    expect(headlessWords('LLOYD LJUBICA LVOV RHODES LUÍSA RUTE NDIAYE MBAYE NGOZI')).toEqual([]);
    const f = extractFields(groupPhrases(birthPage([w('SCHROEDER,', 0.92, 524, 268, 713, 291), w('SC', 0.96, 727, 268, 763, 288)]).map((x) => (x.text === 'RUTE' ? { ...x, text: 'LRUTE' } : x))), '').campos;
    expect(f.nome_completo.valor).toBe('LRUTE MARIA SOUZA LIMA');
    expect(f.nome_completo.confianca).toBeLessThan(0.8);
    const g = extractFields(groupPhrases(birthPage([w('SCHROEDER,', 0.92, 524, 268, 713, 291), w('SC', 0.96, 727, 268, 763, 288)])), '').campos;
    expect(g.nome_completo.valor).toBe('RUTE MARIA SOUZA LIMA');
    expect(g.nome_completo.confianca).toBeGreaterThanOrEqual(0.8);
  });
});
