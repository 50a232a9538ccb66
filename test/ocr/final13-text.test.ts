import { describe, expect, it } from 'vitest';
import { normalizeName, parseIdentity } from '../../src/ocr/normalize.js';
import { restoreDiacritics } from '../../src/ocr/orthography.js';
import { FLAT_CODE_CAP, doubtFlatCodes } from '../../src/ocr/near-labels.js';
import { placeIdentityLine } from '../../src/ocr/unlabelled.js';
import type { Draft } from '../../src/ocr/checks.js';
import type { CnhFieldName } from '../../src/ocr/engine.js';
import { toPhrase, type OcrWord } from '../../src/ocr/words.js';

const w = (text: string, conf: number, x0: number, y0: number, x1: number, y1: number): OcrWord => ({ text, conf, x0, y0, x1, y1 });

describe("final13's values lost or read sure and wrong by the text level (fifteenth round)", () => {
  it('a ")" inside a word is a J (BADJI read "BAD)!")', () => {
    expect(normalizeName('MAMADOU DÉSIR BAD)!')).toBe('MAMADOU DÉSIR BADJI');
    expect(normalizeName('ANA BAD)I')).toBe('ANA BADJI');
    // A parenthesis alone, or after fewer than three capitals, is a mark; one ending a longer word is
    // the same J at a word's end (seventeenth round, normalize.ts J_AS_CLOSING: final15 "HRYHORI)").
    expect(normalizeName('ANA LIMA)')).toBe('ANA LIMAJ');
    expect(normalizeName('ANA ) LIMA')).toBe('ANA LIMA');
    expect(normalizeName('ANA LI) MELO')).toBe('ANA LI MELO');
  });

  it('an identity line with a speck before its number and a quote mark after its state (final13 #26)', () => {
    expect(parseIdentity('e] 240323122 SESP PR”')).toEqual({ rg: '240323122', orgao: 'SESP', uf: 'PR' });
    expect(parseIdentity('240323122 SESP PR')).toEqual({ rg: '240323122', orgao: 'SESP', uf: 'PR' });
    // A word of three letters or more before the number is left as read (no number taken).
    expect(parseIdentity('SESP 240323122 PR').rg).toBe('');
  });

  it('an acute or circumflex E before consonants and a final E is a French grave (FRENCH_GRAVE)', () => {
    expect(restoreDiacritics('NADÉGE ILUNGA SAINT-FLEUR', { person: true }).name).toBe('NADÈGE ILUNGA SAINT-FLEUR');
    expect(restoreDiacritics('FATOU MARIÊME NDIAYE', { person: true }).name).toBe('FATOU MARIÈME NDIAYE');
    expect(restoreDiacritics('FATOU MARIÉME', { person: true }).restored[0].rules).toEqual(['FRENCH_GRAVE']);
    expect(restoreDiacritics('HÉLÉNE', { person: true }).name).toBe('HÉLÈNE');
    // Portuguese spellings keep their marks: the old differential Ê in -o, a final É, É before a vowel.
    for (const n of ['JOSÉ RÊGO MACÊDO', 'DAPHNÉE', 'HÉLIO', 'ESTIMÉ DÉSIR', 'IRENE', 'GÊMEO']) expect(restoreDiacritics(n, { person: true }).name).toBe(n);
    // Towns are not French names.
    expect(restoreDiacritics('NADÉGE').name).toBe('NADÉGE');
  });

  it('a remark letter boxed far flatter than the labels\' capitals is doubted, a flat dash dropped (final13 #22)', () => {
    const flat = toPhrase([w('E', 0.91, 1322, 97, 1336, 100)]);
    expect(doubtFlatCodes(flat, 13)?.text).toBe('E');
    expect(doubtFlatCodes(flat, 13)?.words[0].conf).toBe(FLAT_CODE_CAP);
    expect(FLAT_CODE_CAP).toBeLessThan(0.8);
    expect(doubtFlatCodes(toPhrase([w('-', 0.5, 1390, 99, 1396, 101)]), 13)).toBeUndefined();
    const code = toPhrase([w('EAR', 0.9, 1322, 90, 1380, 110), w('-', 0.5, 1390, 99, 1396, 101)]);
    expect(doubtFlatCodes(code, 13)?.text).toBe('EAR');
    expect(doubtFlatCodes(code, 13)?.words[0].conf).toBe(0.9);
    expect(doubtFlatCodes(code, 0)).toBe(code);
  });

  it("the identity line taken by its shape when only its label went unread (final13 #25)", () => {
    const d: Partial<Record<CnhFieldName, Draft>> = {};
    const line = toPhrase([w('957192407', 0.93, 361, 273, 500, 295), w('PC', 0.94, 514, 269, 541, 306), w('SC', 0.96, 557, 269, 591, 306)]);
    const town = toPhrase([w('POMERODE,', 0.91, 1381, 277, 1540, 302), w('SC', 0.96, 1561, 273, 1597, 311)]);
    placeIdentityLine(d, [line, town]);
    expect(d.rg?.valor).toBe('957192407');
    expect(d.orgao_expedidor?.valor).toBe('PC');
    expect(d.rg?.cap).toBeLessThan(0.8);
    // Two such lines: none taken.
    const e: Partial<Record<CnhFieldName, Draft>> = {};
    placeIdentityLine(e, [line, toPhrase([w('123456789', 0.9, 361, 400, 500, 420), w('SSP', 0.9, 514, 400, 560, 420), w('SP', 0.9, 570, 400, 600, 420)])]);
    expect(e.rg).toBeUndefined();
  });
});
