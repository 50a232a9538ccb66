import { describe, expect, it } from 'vitest';
import { documentRecordOf } from '../../renderer/src/document-record.js';

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
});
