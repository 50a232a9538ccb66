/**
 * A name held exactly at the cap of a mark read plain (name-spelling.ts LOST_DIACRITIC_CAP) does not
 * ask for a second reading of its page (second-read.ts heldAtMarkCap, readingMisses): the same ink
 * reads the same plain letter under the same cap. A name read under the cap still does.
 */
import { describe, expect, it } from 'vitest';
import { CNH_FIELD_NAMES, type CnhField, type CnhFieldName } from '../../src/ocr/engine.js';
import { LOST_DIACRITIC_CAP } from '../../src/ocr/name-spelling.js';
import { heldAtMarkCap, POOR_READING, readingMisses, secondRead } from '../../src/ocr/second-read.js';
import type { QualityMetrics } from '../../src/ocr/quality.js';

const sure = (): Record<CnhFieldName, CnhField> => Object.fromEntries(CNH_FIELD_NAMES.map((k) => [k, { valor: 'X', confianca: 0.95 }])) as Record<CnhFieldName, CnhField>;
const clean = { contrast: 200, resolutionPx: 820, sharpness: 200 } as unknown as QualityMetrics;

describe('heldAtMarkCap', () => {
  it('takes a name held at the cap', () => {
    expect(heldAtMarkCap('nome_completo', { valor: 'SARKA JELINEK HORVATH', confianca: LOST_DIACRITIC_CAP })).toBe(true);
    expect(heldAtMarkCap('nome_mae', { valor: 'JAROSLAVA KOLAR NOVOTNY', confianca: 0.7 })).toBe(true);
  });
  it('leaves a name under or over the cap, an empty name, and other fields at the same confidence', () => {
    expect(heldAtMarkCap('nome_completo', { valor: 'SARKA JELINEK', confianca: 0.69 })).toBe(false);
    expect(heldAtMarkCap('nome_completo', { valor: 'SARKA JELINEK', confianca: 0.72 })).toBe(false);
    expect(heldAtMarkCap('nome_mae', { valor: '', confianca: 0.7 })).toBe(false);
    expect(heldAtMarkCap('cpf', { valor: '110.639.230-26', confianca: 0.7 })).toBe(false);
    expect(heldAtMarkCap('rg', { valor: '1234567', confianca: 0.7 })).toBe(false);
  });
});

describe('readingMisses with names held at the cap', () => {
  it('does not count them: a held name beside one unsure CPF is no poor reading (final16 #0, #32)', () => {
    const c = sure();
    c.nome_completo = { valor: 'PIROSKA LIBUSE NEMETH VESELY', confianca: 0.7 };
    c.cpf = { valor: '147.952.221-00', confianca: 0.688 };
    expect(readingMisses(c)).toBe(0.5);
    expect(secondRead(clean, readingMisses(c), 10)).toBeNull();
  });
  it('two held names alone make no poor reading', () => {
    const c = sure();
    c.nome_completo = { valor: 'JAROSLAVA JIRINA NEMETH KOLAR', confianca: 0.7 };
    c.nome_mae = { valor: 'ORSOLYA ZDENKA CERNY KOLAR', confianca: 0.7 };
    expect(readingMisses(c)).toBe(0);
  });
  it('still counts a name read under the cap, other unsure fields and a missing field', () => {
    const c = sure();
    c.nome_completo = { valor: 'JIRI SANDOR', confianca: 0.55 };
    c.cpf = { valor: '147.952.221-00', confianca: 0.688 };
    expect(readingMisses(c)).toBeGreaterThanOrEqual(POOR_READING);
    const d = sure();
    d.nome_mae = { valor: 'JAROSLAVA KOLAR', confianca: 0.7 };
    d.categoria = { valor: '', confianca: 0 };
    expect(readingMisses(d)).toBe(1);
    expect(secondRead(clean, readingMisses(d), 10)).not.toBeNull();
  });
});
