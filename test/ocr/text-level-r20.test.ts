import { describe, expect, it } from 'vitest';
import { normalizeName } from '../../src/ocr/normalize.js';
import { foreignSpelling, restoreDiacritics } from '../../src/ocr/orthography.js';
import { nearKnownIssuer, normalizeCategory } from '../../src/ocr/normalize.js';
import { fieldCheck } from '../../src/ocr/checks.js';
import { wordLeftOut } from '../../src/ocr/name-tails.js';
import { mergeReadings } from '../../src/ocr/second-read.js';
import { CNH_FIELD_NAMES, type CnhField, type CnhFieldName } from '../../src/ocr/engine.js';
import { groupPhrases, toPhrase, type OcrWord } from '../../src/ocr/words.js';
import { extractFields } from '../../src/ocr/fields.js';

const w = (text: string, conf: number, x0: number, y0: number, x1: number, y1: number): OcrWord => ({ text, conf, x0, y0, x1, y1 });
function campos(changes: Partial<Record<CnhFieldName, CnhField>>): Record<CnhFieldName, CnhField> {
  const out = Object.fromEntries(CNH_FIELD_NAMES.map((k) => [k, { valor: '', confianca: 0 }])) as Record<CnhFieldName, CnhField>;
  return { ...out, ...changes };
}

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

  it('an issuing body one letter off a known one fails its check (final18 #78: SESP read "SESF" at 0.923)', () => {
    expect(nearKnownIssuer('SESF')).toBe(true);
    expect(nearKnownIssuer('SSPP')).toBe(true);
    expect(fieldCheck('orgao_expedidor', 'SESF')).toBe(false);
    // Known bodies pass; a body far from every known one is left without an opinion.
    expect(nearKnownIssuer('SESP')).toBe(false);
    expect(fieldCheck('orgao_expedidor', 'SESP')).toBe(true);
    expect(fieldCheck('orgao_expedidor', 'CGPIMG')).toBeUndefined();
  });

  it('a word of four letters or more under the category label is no category reading (final18 #74: KEMAL read "E")', () => {
    expect(normalizeCategory('KEMAL')).toBe('');
    expect(normalizeCategory('KEMAL B')).toBe('B');
    // Codes as read before: a stray mark, glued punctuation, ACC.
    expect(normalizeCategory('AB')).toBe('AB');
    expect(normalizeCategory('R A')).toBe('A');
    expect(normalizeCategory('ACC')).toBe('ACC');
    expect(normalizeCategory('AB.')).toBe('AB');
  });

  it("a name's left-out end: a shorter word inside the line's band, or small letters after it (final18 #55, #74)", () => {
    // #55: LUMINITA NEAGU boxed 68 px tall (ink bled), DUMITRESCU 28 px inside their band.
    const tall = toPhrase([w('LUMINITA', 0.88, 359, 131, 493, 199), w('NEAGU', 0.92, 507, 131, 593, 199)]);
    expect(wordLeftOut(tall, [tall, toPhrase([w('DUMITRESCU', 0.91, 610, 170, 786, 198)])])).toBe(true);
    // Out of the band (a line under it) or far shorter (a speck): nothing said.
    expect(wordLeftOut(tall, [tall, toPhrase([w('DUMITRESCU', 0.91, 610, 190, 786, 218)])])).toBe(false);
    expect(wordLeftOut(tall, [tall, toPhrase([w('DU', 0.91, 610, 170, 630, 180)])])).toBe(false);
    // #74: ANGHELESCU read "ANGHELE", its end an "a" half the type's height, on the line.
    const cut = toPhrase([w('KEMAL', 0.92, 356, 639, 457, 662), w('KOÇ', 0.91, 603, 637, 662, 664), w('ANGHELE', 0.91, 672, 639, 809, 661), w('a', 0.78, 864, 644, 871, 656)]);
    expect(wordLeftOut(cut, [cut])).toBe(true);
    const whole = toPhrase([w('KEMAL', 0.92, 356, 639, 457, 662), w('KOÇ', 0.91, 603, 637, 662, 664), w('ANGHELESCU', 0.91, 672, 639, 871, 661)]);
    expect(wordLeftOut(whole, [whole])).toBe(false);
  });

  it('two readings of a category that differ leave the one taken under the line (final18 #73: AB at 0.73, "AD" at 0.934)', () => {
    const m = mergeReadings(campos({ categoria: { valor: 'AB', confianca: 0.73 } }), campos({ categoria: { valor: 'AD', confianca: 0.934 } }));
    expect(m.categoria.valor).toBe('AD');
    expect(m.categoria.confianca).toBeLessThan(0.8);
    // The same code twice, or an other reading too unsure to count: kept sure.
    expect(mergeReadings(campos({ categoria: { valor: 'AB', confianca: 0.73 } }), campos({ categoria: { valor: 'AB', confianca: 0.934 } })).categoria.confianca).toBe(0.934);
    expect(mergeReadings(campos({ categoria: { valor: 'E', confianca: 0.3 } }), campos({ categoria: { valor: 'AD', confianca: 0.934 } })).categoria.confianca).toBe(0.934);
  });

  it("the birth line under the name's label, the name's own line lost, is no name (final18 #74: 'JATAIZINHO PR' at 0.7)", () => {
    // final18 #74's second reading (2022 model, blur, DejaVu Sans Bold), the card's top: the name's line
    // read under a word boxed 56 px tall over it, the birth line taken for it.
    const page = [
    w('CARTEIRA', 0.96, 53, 74, 500, 101),
    w('NACIONAL', 0.96, 179, 70, 289, 108),
    w('DE', 0.94, 304, 70, 333, 108),
    w('HABILITAÇÃO', 0.29, 349, 74, 500, 101),
    w('DETRAN', 0.95, 981, 56, 1144, 79),
    w('201', 0.63, 359, 144, 401, 158),
    w('NOME', 0.91, 413, 139, 463, 167),
    w('E', 0.91, 473, 144, 481, 158),
    w('SOBRENOME', 0.93, 489, 144, 606, 158),
    w('ERKAN', 0.91, 354, 170, 453, 192),
    w('HOSEYIN', 0.79, 464, 166, 594, 193),
    w('TÂNASE', 0.55, 604, 166, 724, 194),
    w('CELIK', 0.47, 734, 167, 820, 199),
    w('=', 0.54, 921, 176, 933, 178),
    w('3', 0.93, 351, 223, 361, 237),
    w('DATA,', 0.93, 370, 219, 424, 247),
    w('LOCAL', 0.96, 433, 219, 484, 247),
    w('E', 0.76, 494, 223, 504, 237),
    w('UF', 0.78, 513, 219, 536, 247),
    w('DE', 0.96, 546, 219, 569, 247),
    w('NASCIMENTO', 0.95, 574, 223, 699, 238),
    w('13/04/1956,', 0.93, 363, 247, 537, 273),
    w('JATAIZINHO,', 0.92, 544, 248, 727, 275),
    w('PR', 0.96, 740, 249, 779, 271),
    w('4b', 0.84, 699, 292, 727, 320),
    w('VALIDADE', 0.96, 734, 296, 827, 311),
    w('REPÚBLICA', 0.9, 54, 30, 159, 50),
    w('FEDERATIVA', 0.9, 164, 30, 280, 50),
    w('DO', 0.9, 287, 30, 316, 50),
    w('BRASIL', 0.9, 321, 30, 391, 50),
    w('MINISTÉRIO', 0.9, 56, 58, 166, 77),
    w('DOS', 0.9, 171, 58, 211, 77),
    w('TRANSPORTES', 0.9, 217, 58, 359, 77),
    w('ERKAN', 0.89, 355, 142, 465, 198),
    ];
    const f = extractFields(groupPhrases(page), '').campos;
    expect(f.nome_completo.valor).not.toContain('JATAIZINHO');
    expect(f.local_nascimento.valor).toBe('JATAIZINHO, PR');
  });

  it('a name with a word of one letter (no connector) fails its check (final18 #2: OĞUZ read "O UZ" at 0.923)', () => {
    expect(fieldCheck('nome_completo', 'O UZ KURT KILIÇ')).toBe(false);
    expect(fieldCheck('nome_mae', 'ANA M SILVA')).toBe(false);
    // The connectors E and Y are words of names.
    expect(fieldCheck('nome_completo', 'MARIA E SILVA')).toBeUndefined();
    expect(fieldCheck('nome_pai', 'JUAN GARCÍA Y LÓPEZ')).toBeUndefined();
    expect(fieldCheck('nome_pai', 'OĞUZ KURT KILIÇ'.replace('Ğ', 'G'))).toBeUndefined();
  });
});
