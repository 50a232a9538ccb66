/**
 * Names as a text layer writes them (twenty-seventh round, after final26's single run): the modifier apostrophe
 * ʼ kept where it is a letter (Guarani's puso), folded to "'" after an elided word, and a combining mark that
 * has no precomposed letter with its base (Guarani's G̃) kept after its letter.
 */
import { describe, expect, it } from 'vitest';
import { innerMarkRuns, normalizeName } from '../../src/ocr/normalize.js';

describe('text-layer names: the puso and a letter written as a pair', () => {
  it.each([
    // The puso after a vowel, after Guarani's vowel Y, inside a long word: a letter, kept.
    ['KOʼẼTI TUPÃʼI', 'KOʼẼTI TUPÃʼI'],
    ['KUARAHYʼI TEMBIʼUPORÃ', 'KUARAHYʼI TEMBIʼUPORÃ'],
    ['jasyʼĩ', 'JASYʼĨ'],
    // G̃ has no precomposed form: G + U+0303 stays a pair after NFC, and is kept.
    ['KOʼÁG\u0303A', 'KOʼÁG\u0303A'],
    ['YVAG\u0303A AG\u0303UI', 'YVAG\u0303A AG\u0303UI'],
    // A combining mark that composes is composed (NFC): Ã as one letter.
    ['TUPA\u0303', 'TUPÃ'],
  ])('normalizeName(%s) = %s', (raw, want) => {
    expect(normalizeName(raw)).toBe(want);
  });

  it('an elided word before ʼ is an apostrophe, written "\'"', () => {
    expect(normalizeName('DʼÁVILA SANTʼANNA DELLʼACQUA')).toBe("D'ÁVILA SANT'ANNA DELL'ACQUA");
  });

  it('a combining mark with no letter before it is dropped', () => {
    expect(normalizeName('\u0303ABC DE \u0301SOUZA')).toBe('ABC DE SOUZA');
  });

  it('a kept pair is no mark lost inside a word', () => {
    expect(innerMarkRuns('KOʼÁG\u0303A')).toEqual([]);
    expect(innerMarkRuns('ANNE/MARIE')).toEqual(['ANNE', 'MARIE']);
  });
});
