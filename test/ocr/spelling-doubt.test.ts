/**
 * A name whose only doubt is a doubled vowel (checks.ts GLUED_VOWELS) read from sure words does not
 * ask for a second reading of its page (second-read.ts spellingDoubtOnly, readingMisses).
 */
import { describe, expect, it } from 'vitest';
import { CNH_FIELD_NAMES, type CnhField, type CnhFieldName } from '../../src/ocr/engine.js';
import { POOR_READING, readingMisses, spellingDoubtOnly } from '../../src/ocr/second-read.js';

const sure = (): Record<CnhFieldName, CnhField> => Object.fromEntries(CNH_FIELD_NAMES.map((k) => [k, { valor: 'X', confianca: 0.95 }])) as Record<CnhFieldName, CnhField>;

describe('spellingDoubtOnly', () => {
  it('takes a Dutch name read from sure words, failing only for its doubled vowels', () => {
    expect(spellingDoubtOnly('nome_completo', { valor: 'GEERTJE AALTJE DA MINASSIAN RABBERS', confianca: 0.547 })).toBe(true);
    expect(spellingDoubtOnly('nome_mae', { valor: 'WILHELMINA KUIPERS KOOY SMIT', confianca: 0.56 })).toBe(true);
  });
  it('leaves a name without a doubled vowel, one read from weak words, and other fields', () => {
    expect(spellingDoubtOnly('nome_completo', { valor: 'JOSE DA SILVA', confianca: 0.55 })).toBe(false);
    expect(spellingDoubtOnly('nome_mae', { valor: 'ADRIAAN RABBERS VERSCHOOR', confianca: 0.358 })).toBe(false);
    expect(spellingDoubtOnly('nome_mae', { valor: 'ANNEKE DA BORG VAN BEEK', confianca: 0.5 })).toBe(false);
    expect(spellingDoubtOnly('nome_completo', { valor: 'GEERTJE AALTJE', confianca: 0.7 })).toBe(false);
    expect(spellingDoubtOnly('local_nascimento', { valor: 'TERRA DE AAREIA, RS', confianca: 0.55 })).toBe(false);
  });
  it('leaves a particle glued to the next word by a lost space (another reading may see the gap)', () => {
    expect(spellingDoubtOnly('nome_completo', { valor: 'SANDRA DAANDRADE DIAS', confianca: 0.557 })).toBe(false);
    expect(spellingDoubtOnly('nome_mae', { valor: 'MARIA DOOLIVEIRA', confianca: 0.55 })).toBe(false);
  });
  it('leaves a name failing another check too (a trailing particle: a surname lost)', () => {
    expect(spellingDoubtOnly('nome_completo', { valor: 'GEERTJE AALTJE DA', confianca: 0.55 })).toBe(false);
    expect(spellingDoubtOnly('nome_completo', { valor: 'AALTJE', confianca: 0.55 })).toBe(false);
  });
});

describe('readingMisses with names doubted for their spelling', () => {
  it('does not count them: two such names do not make a poor reading', () => {
    const c = sure();
    c.nome_completo = { valor: 'GEERTJE VAN DEN BERG TOROSSIAN SLOB', confianca: 0.55 };
    c.nome_mae = { valor: 'MAARTJE DE VRIES', confianca: 0.54 };
    expect(readingMisses(c)).toBe(0);
  });
  it('still counts an unsure name that is not one, and a missing field', () => {
    const c = sure();
    c.nome_completo = { valor: 'JOSE DA SILVA', confianca: 0.55 };
    c.nome_mae = { valor: 'MAARTJE DE VRIES', confianca: 0.54 };
    expect(readingMisses(c)).toBe(0.5);
    c.cpf = { valor: '', confianca: 0 };
    expect(readingMisses(c)).toBeGreaterThanOrEqual(POOR_READING);
  });
});
