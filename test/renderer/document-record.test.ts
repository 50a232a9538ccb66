import { describe, expect, it } from 'vitest';
import { documentRecordOf, isExpired } from '../../renderer/src/document-record.js';

describe('kiosk: the document record kept with an enrollment', () => {
  const face = { found: true, comparison: { matched: true, score: 0.93, threshold: 0.85 } };
  it('keeps the filled fields (trimmed) and the photo check made with the enrolled face', () => {
    expect(documentRecordOf({ nome_completo: ' ANA SOUZA ', cpf: '123', rg: '' }, face, 'SELFIE', 'SELFIE')).toEqual({
      kind: 'CNH', fields: { nome_completo: 'ANA SOUZA', cpf: '123' }, photoCheck: { found: true, matched: true, score: 0.93, threshold: 0.85 },
    });
  });
  it('keeps only "found" when the comparison was made with another face, failed, or was not made', () => {
    expect(documentRecordOf({ cpf: '1' }, face, 'OLD', 'NEW')!.photoCheck).toEqual({ found: true });
    expect(documentRecordOf({ cpf: '1' }, { found: true, comparison: { error: 'NO_FACE' } }, 'S', 'S')!.photoCheck).toEqual({ found: true });
    expect(documentRecordOf({ cpf: '1' }, { found: false }, null, 'S')!.photoCheck).toEqual({ found: false });
    expect(documentRecordOf({ cpf: '1' }, undefined, null, 'S')!.photoCheck).toBeUndefined();
  });
  it('keeps nothing when no field is filled', () => {
    expect(documentRecordOf({ cpf: '  ', nome_completo: '' }, face, 'S', 'S')).toBeNull();
  });
  it('says a CNH is expired after its last valid day, not on it; other text is not a date', () => {
    const today = new Date(2026, 10, 24);
    expect(isExpired('08/04/2023', today)).toBe(true);
    expect(isExpired('23/11/2026', today)).toBe(true);
    expect(isExpired('24/11/2026', today)).toBe(false);
    expect(isExpired('01/01/2030', today)).toBe(false);
    expect(isExpired('31/02/2020', today)).toBe(false);
    expect(isExpired('2020-01-01', today)).toBe(false);
    expect(isExpired(undefined, today)).toBe(false);
  });
});
