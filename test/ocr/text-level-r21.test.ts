import { describe, expect, it } from 'vitest';
import { scoreFields } from '../../src/ocr/checks.js';
import { monthSlip, oddTerm } from '../../src/ocr/validators.js';

describe('an issue and an expiry on the same day of different months (validators.ts monthSlip; twenty-first round)', () => {
  it('an issue and an expiry on the same day of different months: a month misread (final12 #12: "10/08/2017" beside 10/04/2027)', () => {
    expect(monthSlip('10/08/2017', '10/04/2027')).toBe(true);
    expect(monthSlip('22/08/2023', '22/04/2026')).toBe(true);
    // Counted from the issue (same day and month), or from the medical exam (another day): no slip.
    expect(monthSlip('10/04/2017', '10/04/2027')).toBe(false);
    expect(monthSlip('31/01/2017', '28/01/2027')).toBe(false);
    expect(monthSlip('02/05/2019', '28/04/2029')).toBe(false);
    // Not dates: nothing to compare.
    expect(monthSlip('', '10/04/2027')).toBe(false);
    expect(monthSlip('10/13/2017', '10/04/2027')).toBe(false);
    // The same day and month with an odd term is oddTerm's, not a slip.
    expect(monthSlip('10/04/2024', '10/04/2028')).toBe(false);
    expect(oddTerm('10/04/2024', '10/04/2028')).toBe(true);
  });

  it('both dates of a month slip go under the low-confidence line; a pair counted from the issue keeps its confidence', () => {
    const slip = scoreFields({ data_nascimento: { valor: '12/02/1959', conf: 0.95 }, data_emissao: { valor: '10/08/2017', conf: 0.86 }, data_validade: { valor: '10/04/2027', conf: 0.95 } });
    expect(slip.data_emissao.confianca).toBeLessThan(0.8);
    expect(slip.data_validade.confianca).toBeLessThan(0.8);
    expect(slip.data_nascimento.confianca).toBeGreaterThanOrEqual(0.8);
    const fine = scoreFields({ data_nascimento: { valor: '12/02/1959', conf: 0.95 }, data_emissao: { valor: '10/04/2017', conf: 0.86 }, data_validade: { valor: '10/04/2027', conf: 0.95 } });
    expect(fine.data_emissao.confianca).toBeGreaterThanOrEqual(0.8);
    expect(fine.data_validade.confianca).toBeGreaterThanOrEqual(0.8);
  });
});
