import { describe, expect, it } from 'vitest';
import { CNH_FIELD_NAMES, type CnhField, type CnhFieldName } from '../../src/ocr/engine.js';
import { extractFields } from '../../src/ocr/fields.js';
import { mergeReadings } from '../../src/ocr/second-read.js';
import { unspeltWords } from '../../src/ocr/orthography.js';
import { groupPhrases, type OcrWord } from '../../src/ocr/words.js';

const w = (text: string, conf: number, x0: number, y0: number, x1: number, y1: number): OcrWord => ({ text, conf, x0, y0, x1, y1 });

// A 2022 front read well (final16 #26's first reading, as in text-level-r19), its name line given.
const front = (name: string[]): OcrWord[] => {
  let x = 380;
  const nameWords = name.map((t) => { const o = w(t, 0.93, x, 189, x + 20 * t.length, 209); x += 20 * t.length + 14; return o; });
  return [
    w('2€', 0.86, 371, 135, 393, 148), w('1', 0.93, 400, 136, 407, 148), w('NOME', 0.93, 414, 135, 463, 148), w('E', 0.96, 470, 135, 479, 148),
    w('SOBRENOME', 0.96, 486, 135, 594, 148), ...nameWords,
    w('3', 0.95, 370, 222, 379, 234), w('DATA,', 0.95, 384, 221, 430, 235), w('LOCAL', 0.95, 437, 221, 490, 234),
    w('E', 0.95, 497, 222, 506, 234), w('UF', 0.96, 513, 221, 534, 234), w('DE', 0.96, 540, 221, 561, 234), w('NASCIMENTO', 0.96, 569, 222, 680, 234),
    w('12/09/1999,', 0.93, 357, 268, 510, 291), w('TIMBÓ,', 0.92, 524, 268, 624, 291), w('SC', 0.96, 638, 268, 674, 288),
    w('4a', 0.92, 373, 296, 391, 308), w('DATA', 0.87, 397, 295, 439, 308), w('EMISSÃO', 0.87, 444, 292, 520, 308), w('4b', 0.90, 721, 299, 739, 312),
    w('VALIDADE', 0.96, 744, 300, 826, 313), w('25/05/2021', 0.96, 346, 341, 491, 362), w('25/05/2031', 0.96, 700, 346, 850, 366),
    w('4d', 0.59, 373, 461, 390, 473), w('CPF', 0.59, 396, 461, 429, 474), w('Nº', 0.95, 731, 459, 749, 471), w('REGISTRO', 0.95, 754, 458, 841, 471),
    w('618.781.028-77', 0.93, 384, 482, 609, 505), w('87675531049', 0.93, 737, 485, 913, 506),
  ];
};
const nameOf = (name: string[]): { valor: string; confianca: number } => extractFields(groupPhrases(front(name)), '').campos.nome_completo;

describe('name words no orthography spells (orthography.ts unspeltWords; twenty-second round)', () => {
  it('a final IÉ, a bare UO before a Vietnamese final, a word opening with Icelandic Ð', () => {
    expect(unspeltWords('XUÂN VÕ JOVANOVIÉ')).toEqual(['JOVANOVIÉ']);
    expect(unspeltWords('ZLATKO TRÂN TRUONG')).toEqual(['TRUONG']);
    expect(unspeltWords('QUANG PHUÓC CUÒNG')).toEqual(['PHUÓC', 'CUÒNG']);
    expect(unspeltWords('ÐORÐE MARIĆ')).toEqual(['ÐORÐE']);
    // Spelt by some orthography: Portuguese -É after a consonant, Vietnamese uô/ươ, Lithuanian UO, pinyin -UO, Đ.
    expect(unspeltWords('JOSÉ ANDRÉ NOÉ ELIÉZER')).toEqual([]);
    expect(unspeltWords('TRƯƠNG PHƯỚC CƯỜNG LUÔNG QUỐC')).toEqual([]);
    expect(unspeltWords('JUOZAS GUO ZUO ĐORĐE ĐURĐEVIĆ JOVANOVIĆ')).toEqual([]);
  });

  it('a name read sure with such a word goes under the low-confidence line (final20 #0, #69); the same line without it keeps its confidence', () => {
    expect(nameOf(['XUÂN', 'VÕ', 'JOVANOVIÉ']).confianca).toBeLessThan(0.8);
    expect(nameOf(['ZLATKO', 'TRÂN', 'TRUONG']).confianca).toBeLessThan(0.8);
    const plain = nameOf(['XUÂN', 'VÕ', 'JOVANOVIC']);
    expect(plain.valor).toBe('XUÂN VÕ JOVANOVIC');
    expect(plain.confianca).toBeGreaterThanOrEqual(0.8);
    expect(nameOf(['ZLATKO', 'TRÂN', 'TRUNG']).confianca).toBeGreaterThanOrEqual(0.8);
    expect(nameOf(['ANDRÉ', 'JOSÉ', 'NOÉ']).confianca).toBeGreaterThanOrEqual(0.8);
  });
});

function campos(changes: Partial<Record<CnhFieldName, CnhField>>): Record<CnhFieldName, CnhField> {
  const out = Object.fromEntries(CNH_FIELD_NAMES.map((k) => [k, { valor: '', confianca: 0 }])) as Record<CnhFieldName, CnhField>;
  return { ...out, ...changes };
}

describe('remarks (twenty-second round)', () => {
  it('a remark read only at its end is taken whole from the other reading, at least as sure (final20 #8: "R" at 0.9, EAR at 0.95)', () => {
    const cut = campos({ observacoes: { valor: 'R', confianca: 0.9 } });
    const whole = mergeReadings(cut, campos({ observacoes: { valor: 'EAR', confianca: 0.95 } })).observacoes;
    expect(whole).toEqual({ valor: 'EAR', confianca: 0.95 });
    expect(mergeReadings(campos({ observacoes: { valor: 'A', confianca: 0.9 } }), campos({ observacoes: { valor: 'EAR A', confianca: 0.9 } })).observacoes.valor).toBe('EAR A');
    // Less sure, or not codes, or not ending so: the first stays (disagreeing readings fall under the line as before).
    expect(mergeReadings(cut, campos({ observacoes: { valor: 'EAR', confianca: 0.85 } })).observacoes.valor).toBe('R');
    expect(mergeReadings(cut, campos({ observacoes: { valor: 'FAR', confianca: 0.95 } })).observacoes.confianca).toBeLessThan(0.8);
    expect(mergeReadings(campos({ observacoes: { valor: 'A', confianca: 0.9 } }), campos({ observacoes: { valor: 'AEA', confianca: 0.95 } })).observacoes.valor).toBe('A');
  });

  it('two readings of remarks with no code in common are neither sure (final20 #86: "E" at 0.65, then "A" at 0.94 for EAR A)', () => {
    const merged = mergeReadings(campos({ observacoes: { valor: 'E', confianca: 0.65 } }), campos({ observacoes: { valor: 'A', confianca: 0.94 } })).observacoes;
    expect(merged.valor).toBe('A');
    expect(merged.confianca).toBeLessThan(0.8);
    // One stemmed capital read two ways (P for D, final12 #51), a code in common, or an unsure other reading: as before.
    expect(mergeReadings(campos({ observacoes: { valor: 'P', confianca: 0.63 } }), campos({ observacoes: { valor: 'D', confianca: 0.93 } })).observacoes).toEqual({ valor: 'D', confianca: 0.93 });
    expect(mergeReadings(campos({ observacoes: { valor: 'EAR', confianca: 0.7 } }), campos({ observacoes: { valor: 'EAR A', confianca: 0.93 } })).observacoes.confianca).toBe(0.93);
    expect(mergeReadings(campos({ observacoes: { valor: 'E', confianca: 0.4 } }), campos({ observacoes: { valor: 'A', confianca: 0.94 } })).observacoes.confianca).toBe(0.94);
  });

  it('an unsure word wholly left of the label beside a sure code is no remark (final20 #10: "E" at 0.37, then EARA at 0.87)', () => {
    const back = (extra: OcrWord[]): OcrWord[] => [
      ...front(['MARIA', 'SILVA']),
      w('12-0BSERVAÇÕES.', 0.9, 1359, 600, 1493, 618),
      ...extra,
    ];
    const read = (extra: OcrWord[]): { valor: string; confianca: number } => extractFields(groupPhrases(back(extra)), '').campos.observacoes;
    expect(read([w('E', 0.37, 1270, 633, 1316, 674), w('EARA', 0.87, 1339, 633, 1409, 674)]).valor).toBe('EAR A');
    // Under the label's start, or read sure: kept.
    expect(read([w('E', 0.37, 1362, 633, 1378, 674), w('EARA', 0.87, 1400, 633, 1470, 674)]).valor).toBe('E EAR A');
    expect(read([w('E', 0.85, 1300, 633, 1316, 674), w('EARA', 0.87, 1339, 633, 1409, 674)]).valor).toBe('E EAR A');
  });
});
