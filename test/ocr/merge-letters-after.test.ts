/**
 * The merge of two readings (second-read.ts mergeReadings): a name the first reading cut at its end comes
 * back whole from the other reading when that one is at least as sure (issue #17: final11 #28, "JACOBUS DOS
 * STAAL WIERS" at 0.4 against JACOBUS DOS STAAL WIERSMA at 0.489); two sure readings still disagree.
 */
import { describe, expect, it } from 'vitest';
import { CNH_FIELD_NAMES, type CnhField, type CnhFieldName } from '../../src/ocr/engine.js';
import { DISAGREE_CAP, mergeReadings } from '../../src/ocr/second-read.js';

function campos(changes: Partial<Record<CnhFieldName, CnhField>>): Record<CnhFieldName, CnhField> {
  const out = Object.fromEntries(CNH_FIELD_NAMES.map((k) => [k, { valor: '', confianca: 0 }])) as Record<CnhFieldName, CnhField>;
  return { ...out, ...changes };
}

describe('a name cut at its end, merged with a whole one', () => {
  it('takes the other reading\'s longer name that starts with the first, at least as sure', () => {
    const first = campos({ nome_pai: { valor: 'JACOBUS DOS STAAL WIERS', confianca: 0.4 } });
    const second = campos({ nome_pai: { valor: 'JACOBUS DOS STAAL WIERSMA', confianca: 0.489 } });
    expect(mergeReadings(first, second).nome_pai.valor).toBe('JACOBUS DOS STAAL WIERSMA');
    const third = campos({ nome_pai: { valor: 'JACOBUS DOS STAAL WIERSMA BOS', confianca: 0.45 } });
    expect(mergeReadings(first, third).nome_pai.valor).toBe('JACOBUS DOS STAAL WIERSMA BOS');
  });

  it('keeps the first name against a longer one less sure, and against one that does not start with it', () => {
    const first = campos({ nome_mae: { valor: 'ANA LIMA', confianca: 0.6 } });
    expect(mergeReadings(first, campos({ nome_mae: { valor: 'ANA LIMAS', confianca: 0.55 } })).nome_mae.valor).toBe('ANA LIMA');
    expect(mergeReadings(first, campos({ nome_mae: { valor: 'ANNA LIMAS', confianca: 0.65 } })).nome_mae.valor).toBe('ANA LIMA');
  });

  it('only for names: a number with a digit more is not taken so', () => {
    const first = campos({ rg: { valor: '12345678', confianca: 0.6 } });
    expect(mergeReadings(first, campos({ rg: { valor: '123456789', confianca: 0.62 } })).rg.valor).toBe('12345678');
  });

  it('two sure readings that differ so still disagree: the value taken falls under the line', () => {
    const first = campos({ nome_completo: { valor: 'MARIA SILVA', confianca: 0.9 } });
    const merged = mergeReadings(first, campos({ nome_completo: { valor: 'MARIA SILVAS', confianca: 0.92 } })).nome_completo;
    expect(merged.valor).toBe('MARIA SILVAS');
    expect(merged.confianca).toBe(DISAGREE_CAP);
  });
});

describe('two readings that disagree', () => {
  it('put the value taken under the line when the other reading is at least at the cap, not when it is weaker', () => {
    const first = campos({ data_emissao: { valor: '06/08/2021', confianca: 0.898 } });
    const merged = mergeReadings(first, campos({ data_emissao: { valor: '06/09/2021', confianca: 0.79 } })).data_emissao;
    expect(merged.valor).toBe('06/08/2021');
    expect(merged.confianca).toBe(DISAGREE_CAP);
    expect(mergeReadings(first, campos({ data_emissao: { valor: '06/09/2021', confianca: 0.6 } })).data_emissao.confianca).toBe(0.898);
  });
});
