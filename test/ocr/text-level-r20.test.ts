import { describe, expect, it } from 'vitest';
import { normalizeName } from '../../src/ocr/normalize.js';
import { foreignSpelling, restoreDiacritics } from '../../src/ocr/orthography.js';

describe("final18's text-level misses (twentieth round)", () => {
  it("a name keeps the letters of Latin Extended-B and Extended Additional (a text layer's LUMINIȚA, ȚURCANU: final18)", () => {
    // Romanian comma below (U+0218-U+021B): read "LUMINI A", "URCANU" when they were dropped.
    expect(normalizeName('LĂCRĂMIOARA LUMINIȚA ȚURCANU ȘTEFĂNESCU')).toBe('LĂCRĂMIOARA LUMINIȚA ȚURCANU ȘTEFĂNESCU');
    expect(normalizeName('Luminița Țurcanu')).toBe('LUMINIȚA ȚURCANU');
    // Azerbaijani schwa (lowercase in IPA Extensions, uppercased first), Pinyin carons, Vietnamese, Icelandic thorn.
    expect(normalizeName('Əliyev RƏŞİD')).toBe('ƏLIYEV RƏŞİD');
    expect(normalizeName('LǏ XIǍO NGUYỄN THỊ ÞÓRA')).toBe('LǏ XIǍO NGUYỄN THỊ ÞÓRA');
    // A letter and its combining mark (decomposed text) are one letter: S + U+0326 is Ș.
    expect(normalizeName('S\u0326TEFAN T\u0326ARA')).toBe('ȘTEFAN ȚARA');
    // Signs that are no letters still go.
    expect(normalizeName('ȘTEFAN × ÷ IONESCU°')).toBe('ȘTEFAN IONESCU');
  });

  it('a name with a Latin Extended-B letter is foreign: no Portuguese circumflex put in', () => {
    expect(foreignSpelling('ȘERBAN')).toBe(true);
    expect(foreignSpelling('NGUYỄN')).toBe(true);
    expect(foreignSpelling('SERBAN')).toBe(false);
    expect(restoreDiacritics('ANTÓNIO ȘERBAN', { person: true }).name).toBe('ANTÓNIO ȘERBAN');
    expect(restoreDiacritics('ANTÓNIO SERBAN', { person: true }).name).toBe('ANTÔNIO SERBAN');
  });
});
