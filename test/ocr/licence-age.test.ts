import { describe, expect, it } from 'vitest';
import { MIN_LICENCE_AGE_YEARS, validateDates } from '../../src/ocr/validators.js';

const TODAY = Date.UTC(2026, 10, 29);

describe('a licence holder is at least 18 (validators.ts MIN_LICENCE_AGE_YEARS)', () => {
  it('a birth date less than 18 years before the clock is invalid, the other dates are not blamed', () => {
    expect(MIN_LICENCE_AGE_YEARS).toBe(18);
    // final12 #30: the issue date read under the birth label, the card's other dates unread but its expiry.
    const v = validateDates({ data_nascimento: '29/02/2020', data_primeira_habilitacao: '', data_emissao: '', data_validade: '28/02/2030' }, TODAY);
    expect(v.data_nascimento).toBe(false);
    expect(v.data_validade).toBe(true);
    expect(validateDates({ data_nascimento: '21/07/1987', data_primeira_habilitacao: '', data_emissao: '', data_validade: '28/02/2030' }, TODAY).data_nascimento).toBe(true);
  });

  it('a first licence less than 18 years after the birth breaks the order; 18 years to the day is allowed', () => {
    const young = validateDates({ data_nascimento: '10/05/1990', data_primeira_habilitacao: '09/05/2008', data_emissao: '', data_validade: '' }, TODAY);
    expect(young.data_nascimento).toBe(false);
    expect(young.data_primeira_habilitacao).toBe(false);
    const exact = validateDates({ data_nascimento: '10/05/1990', data_primeira_habilitacao: '10/05/2008', data_emissao: '12/06/2020', data_validade: '12/06/2030' }, TODAY);
    expect(Object.values(exact).every(Boolean)).toBe(true);
  });

  it('a clock that was never set (before 2022) says nothing of the age', () => {
    expect(validateDates({ data_nascimento: '29/02/2020', data_primeira_habilitacao: '', data_emissao: '', data_validade: '' }, Date.UTC(2000, 0, 1)).data_nascimento).toBe(true);
  });
});
