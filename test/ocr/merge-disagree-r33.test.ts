/**
 * Two readings of one document that read a number or a date as another of its length (second-read.ts
 * mergeReadings, NUMBER_FIELDS), or a name with a mark more or less: a digit or a mark read two ways, so the
 * value taken is unsure (issue #17, final30 #47: RG 556403613 at 0.844, the other reading's 558403613 at 0.7;
 * #71: "HELDER BARATA MONTORIL" at 0.915, the other's HÉLDER at 0.71).
 */
import { describe, expect, it } from 'vitest';
import { CNH_FIELD_NAMES, type CnhField, type CnhFieldName } from '../../src/ocr/engine.js';
import { DISAGREE_CAP, mergeReadings } from '../../src/ocr/second-read.js';

function campos(changes: Partial<Record<CnhFieldName, CnhField>>): Record<CnhFieldName, CnhField> {
  const out = Object.fromEntries(CNH_FIELD_NAMES.map((k) => [k, { valor: '', confianca: 0 }])) as Record<CnhFieldName, CnhField>;
  return { ...out, ...changes };
}

describe('a number or date the two readings read differently', () => {
  it('is kept as the surer reading gave it, under the low-confidence line', () => {
    const m = mergeReadings(campos({ rg: { valor: '556403613', confianca: 0.844 } }), campos({ rg: { valor: '558403613', confianca: 0.7 } }));
    expect(m.rg).toEqual({ valor: '556403613', confianca: DISAGREE_CAP });
    const d = mergeReadings(
      campos({ data_validade: { valor: '19/12/2033', confianca: 0.9, valida: true } }),
      campos({ data_validade: { valor: '10/12/2033', confianca: 0.65, valida: true } }),
    );
    expect(d.data_validade.valor).toBe('19/12/2033');
    expect(d.data_validade.confianca).toBe(DISAGREE_CAP);
  });

  it('stays sure when the other reading is unsure of it (under 0.65), of another length, or agrees', () => {
    const first = campos({ rg: { valor: '556403613', confianca: 0.844 } });
    expect(mergeReadings(first, campos({ rg: { valor: '558403613', confianca: 0.6 } })).rg.confianca).toBe(0.844);
    expect(mergeReadings(first, campos({ rg: { valor: '5564036131', confianca: 0.7 } })).rg.confianca).toBe(0.844);
    expect(mergeReadings(first, campos({ rg: { valor: '556403613', confianca: 0.7 } })).rg.confianca).toBe(0.844);
  });
});

describe('a name the two readings read with a mark more or less', () => {
  it('is unsure whichever is taken, the other reading at 0.6 or more', () => {
    const m = mergeReadings(campos({ nome_completo: { valor: 'HELDER BARATA MONTORIL', confianca: 0.915 } }), campos({ nome_completo: { valor: 'HÉLDER BARATA MONTORIL', confianca: 0.71 } }));
    expect(m.nome_completo).toEqual({ valor: 'HELDER BARATA MONTORIL', confianca: DISAGREE_CAP });
  });

  it('stays sure against a weak other reading, or one with other letters', () => {
    const first = campos({ nome_completo: { valor: 'HÉLDER BARATA MONTORIL', confianca: 0.915 } });
    expect(mergeReadings(first, campos({ nome_completo: { valor: 'HELDER BARATA MONTORIL', confianca: 0.5 } })).nome_completo.confianca).toBe(0.915);
    expect(mergeReadings(first, campos({ nome_completo: { valor: 'HÉLDER BARATA MONTORIO', confianca: 0.7 } })).nome_completo.confianca).toBe(0.915);
  });
});
