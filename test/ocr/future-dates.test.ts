/**
 * Dates that cannot be right although their order holds (validators.ts validateDates, checks.ts
 * scoreFields): a birth, first licence or issue after the station's clock (final11 #4: issue 17/11/2028
 * read for 2024 at 0.844), and a date read under the low-confidence line that the order alone lifted
 * over it (final11 #12: 18/01/1992 read at 0.78 for 15/01/1992, 0.868).
 */
import { describe, expect, it } from 'vitest';
import { CLOCK_SET_FROM, validateDates } from '../../src/ocr/validators.js';
import { DATE_ORDER_CEILING, LOW_CONFIDENCE, scoreFields } from '../../src/ocr/checks.js';

const ok = { data_nascimento: '31/05/2000', data_primeira_habilitacao: '01/06/2024', data_emissao: '17/11/2024', data_validade: '17/11/2034' };
const today = Date.UTC(2026, 10, 29);

describe('validateDates: past events after the clock', () => {
  it('an issue date after today is invalid, the expiry after it is not', () => {
    expect(validateDates(ok, today)).toEqual({ data_nascimento: true, data_primeira_habilitacao: true, data_emissao: true, data_validade: true });
    const r = validateDates({ ...ok, data_emissao: '17/11/2028' }, today);
    expect(r.data_emissao).toBe(false);
    expect(r.data_validade).toBe(true);
    expect(validateDates({ ...ok, data_primeira_habilitacao: '01/06/2027', data_emissao: '17/11/2027' }, today).data_primeira_habilitacao).toBe(false);
  });

  it('a day or two after the clock is allowed (a clock behind, time zones)', () => {
    expect(validateDates({ ...ok, data_emissao: '30/11/2026', data_validade: '30/11/2036' }, today).data_emissao).toBe(true);
    expect(validateDates({ ...ok, data_emissao: '05/12/2026', data_validade: '05/12/2036' }, today).data_emissao).toBe(false);
  });

  it('a clock that was never set (before CLOCK_SET_FROM) holds no date in the future', () => {
    expect(validateDates({ ...ok, data_emissao: '17/11/2028' }, Date.UTC(2000, 0, 1)).data_emissao).toBe(true);
    expect(CLOCK_SET_FROM).toBe(Date.UTC(2022, 5, 1));
  });
});

describe('scoreFields: a passed date order lifts no unsure date over the line', () => {
  const d = (conf: number) => ({
    data_nascimento: { valor: '19/09/1970', conf: 0.95 },
    data_primeira_habilitacao: { valor: '18/01/1992', conf },
    data_emissao: { valor: '19/10/2020', conf: 0.95 },
    data_validade: { valor: '19/10/2030', conf: 0.95 },
  });
  it('0.78 stays under the line; a sure date is raised as before', () => {
    const low = scoreFields(d(0.78)).data_primeira_habilitacao;
    expect(low.valida).toBe(true);
    expect(low.confianca).toBe(DATE_ORDER_CEILING);
    expect(low.confianca).toBeLessThan(LOW_CONFIDENCE);
    expect(scoreFields(d(0.85)).data_primeira_habilitacao.confianca).toBe(0.91);
  });
  it('an issue date in the future is capped under the line whatever its confidence', () => {
    const r = scoreFields({ ...d(0.95), data_emissao: { valor: '17/11/2099', conf: 0.95 }, data_validade: { valor: '17/11/2100', conf: 0.95 } });
    expect(r.data_emissao.valida).toBe(false);
    expect(r.data_emissao.confianca).toBeLessThan(0.6);
  });
});
