import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCnhReader, type CnhReader } from '../../src/ocr/index.js';
import { fieldCheck, scoreFields } from '../../src/ocr/checks.js';
import { generateWidened } from '../fixtures/cnh/widened.js';

let reader: CnhReader;
beforeAll(async () => {
  reader = await createCnhReader({ poolSize: 1, maxQueue: 4 });
});
afterAll(async () => {
  await reader?.close();
});

describe('a name in a PDF text layer is exact (twenty-first round)', () => {
  it('a name with a letter past Latin-1 passes its check from a text layer only', () => {
    // The recogniser's Portuguese model writes Latin-1 letters only: past it, an image's letter is an ink reader's guess.
    expect(fieldCheck('nome_completo', 'LUMINIȚA ȚURCANU')).toBe(false);
    expect(fieldCheck('nome_completo', 'LUMINIȚA ȚURCANU', true)).toBeUndefined();
    expect(fieldCheck('nome_completo', 'JØRGEN ŁUKASZ', true)).toBeUndefined();
    // A doubled vowel or a Q without U is a space or a letter the recogniser lost in an image, spelling in a text layer.
    expect(fieldCheck('nome_mae', 'AALTJE VAN LEEUWEN MULDER')).toBe(false);
    expect(fieldCheck('nome_mae', 'AALTJE VAN LEEUWEN MULDER', true)).toBeUndefined();
    expect(fieldCheck('nome_pai', 'HELMUT EGON QURESHI')).toBe(false);
    expect(fieldCheck('nome_pai', 'HELMUT EGON QURESHI', true)).toBeUndefined();
    // The other checks still hold on a text layer: a lone letter, a trailing particle, digits.
    expect(fieldCheck('nome_completo', 'O UZ KURT', true)).toBe(false);
    expect(fieldCheck('nome_completo', 'MARIA DA', true)).toBe(false);
    expect(fieldCheck('nome_completo', 'MARIA 8ILVA', true)).toBe(false);
    const image = scoreFields({ nome_completo: { valor: 'GUNTA EGLĖ ZARIŅŠ', conf: 1 } });
    const text = scoreFields({ nome_completo: { valor: 'GUNTA EGLĖ ZARIŅŠ', conf: 1 } }, true);
    expect(image.nome_completo.confianca).toBeLessThan(0.8);
    expect(text.nome_completo.confianca).toBe(1);
  });

  it.each([
    ['final17', 18, 'Latvian and Lithuanian: Ā Ņ Š Ž, 0.6 before'],
    ['final19', 18, 'Norwegian and Polish: Ø Ł, PRZYBYŁ without a vowel AEIOU, 0.7 before'],
    ['final24', 41, 'Hawaiian: the ʻokina (U+02BB), a letter of the name since the twenty-sixth round (normalize.ts NAME_LETTERS), written as a space at 0.7 before'],
  ] as const)("a CNH-e's names read from its text layer are sure (%s #%i: %s)", async (part, index, _letters) => {
    const doc = await generateWidened(part, index);
    expect(doc.condition).toBe('pdf-text');
    const res = await reader.read(doc.bytes);
    expect(res.origem_texto).toBe('pdf_texto');
    for (const k of ['nome_completo', 'nome_pai', 'nome_mae'] as const) {
      expect(res.campos[k].valor, k).toBe(doc.truth[k]);
      expect(res.campos[k].confianca, k).toBeGreaterThanOrEqual(0.8);
    }
  }, 60_000);
});
