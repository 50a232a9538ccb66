import { describe, expect, it } from 'vitest';
import { lineHole, misreadNameWords } from '../../src/ocr/doubts.js';
import { extractFields } from '../../src/ocr/fields.js';
import { firstPiece, withContinuations } from '../../src/ocr/value-place.js';
import { groupPhrases, toPhrase, type OcrWord } from '../../src/ocr/words.js';

const w = (text: string, conf: number, x0: number, y0: number, x1: number, y1: number): OcrWord => ({ text, conf, x0, y0, x1, y1 });

// final22 #36 (a scanner's halo, 2022 front), the parents' block as the recogniser boxed it: the mother's
// line boxed 45 px tall but for SEPP (23 px), which words.ts groupPhrases therefore put on a line of its own.
const parents = (withSepp: boolean): OcrWord[] => [
  w('5', 0.78, 724, 442, 736, 456), w('Nº', 0.78, 740, 442, 764, 456), w('REGISTRO', 0.96, 771, 441, 870, 457),
  w('4d', 0.72, 350, 444, 371, 461), w('CPF', 0.85, 377, 445, 414, 460),
  w('9CAT', 0.28, 350, 524, 406, 539), w('HAB.', 0.77, 413, 523, 459, 539),
  w('FILIAÇÃO', 0.95, 359, 609, 449, 630),
  w('MART', 0.46, 383, 637, 471, 665), w('IFAN', 0.46, 479, 641, 550, 664), w('OYELÁRAN', 0.88, 561, 635, 729, 669), w('LAANEMETS', 0.92, 737, 638, 927, 662),
  w('SIRJE', 0.92, 373, 676, 454, 721), w('CERIDWEN', 0.91, 474, 676, 629, 721), ...(withSepp ? [w('SEPP', 0.92, 644, 680, 721, 703)] : []), w('AKINDÉLÉ', 0.84, 724, 669, 889, 714),
];

describe('a word of a value line put on a line of its own inside the line (value-place.ts withInsets; twenty-fourth round)', () => {
  it('final22 #36: the mother\'s SEPP, boxed half as tall as its neighbours, is read in its place', () => {
    const ps = groupPhrases(parents(true));
    // The recogniser's line finding as the reader sees it: SEPP apart.
    expect(ps.some((p) => p.text === 'SEPP')).toBe(true);
    const c = extractFields(ps, '').campos;
    expect(c.nome_mae.valor).toBe('SIRJE CERIDWEN SEPP AKINDÉLÉ');
    expect(c.nome_pai.valor).toBe('MART IFAN OYELÁRAN LAANEMETS');
  });
  it('only a phrase wholly inside a gap between two words and on the line\'s centre', () => {
    const line = toPhrase([w('SIRJE', 0.9, 100, 100, 180, 130), w('CERIDWEN', 0.9, 200, 100, 350, 130), w('AKINDÉLÉ', 0.9, 450, 100, 600, 130)]);
    const inGap = toPhrase([w('SEPP', 0.9, 362, 104, 438, 126)]);
    const below = toPhrase([w('SEPP', 0.9, 362, 140, 438, 162)]);
    const across = toPhrase([w('SEPP', 0.9, 330, 104, 406, 126)]);
    expect(withContinuations(line, [line, inGap], new Set(), 14).text).toBe('SIRJE CERIDWEN SEPP AKINDÉLÉ');
    expect(withContinuations(line, [line, below], new Set(), 14).text).toBe('SIRJE CERIDWEN AKINDÉLÉ');
    expect(withContinuations(line, [line, across], new Set(), 14).text).toBe('SIRJE CERIDWEN AKINDÉLÉ');
    // A label's phrase or one of the label's type (under 1.2 x labelH) is not the line's.
    expect(withContinuations(line, [line, inGap], new Set([inGap]), 14).text).toBe('SIRJE CERIDWEN AKINDÉLÉ');
    expect(withContinuations(line, [line, inGap], new Set(), 20).text).toBe('SIRJE CERIDWEN AKINDÉLÉ');
  });
});

describe('a hole that held a word on a name of three words (doubts.ts lineHole; twenty-fourth round)', () => {
  it('the narrower gap stands for the line\'s space: final22 #36\'s mother without SEPP is a loss, under the line', () => {
    const ws = parents(false).slice(12);
    expect(lineHole(toPhrase(ws))).toBe(true);
    const c = extractFields(groupPhrases(parents(false)), '').campos;
    expect(c.nome_mae.valor).toBe('SIRJE CERIDWEN AKINDÉLÉ');
    expect(c.nome_mae.confianca).toBeLessThan(0.8);
  });
  it('three words with printed spaces, or a gap under 1.5 type heights, are no hole', () => {
    expect(lineHole(toPhrase([w('ANA', 0.9, 100, 100, 160, 130), w('MARIA', 0.9, 172, 100, 270, 130), w('SOUZA', 0.9, 282, 100, 380, 130)]))).toBe(false);
    expect(lineHole(toPhrase([w('ANA', 0.9, 100, 100, 160, 130), w('MARIA', 0.9, 172, 100, 270, 130), w('SOUZA', 0.9, 310, 100, 408, 130)]))).toBe(false);
    expect(lineHole(toPhrase([w('ANA', 0.9, 100, 100, 160, 130), w('MARIA', 0.9, 172, 100, 270, 130), w('SOUZA', 0.9, 330, 100, 428, 130)]))).toBe(true);
  });
});

// final22 #4 (a 2022 front in perspective): the CPF's row as the recogniser boxed it, the CPF boxed 41 px
// tall for a 23 px type, so that withContinuations' reach (3 of its heights) took the registration number.
const cpfRow = (cpfText: string): OcrWord[] => [
  w('437723320', 0.93, 386, 407, 553, 430), w('SSP', 0.91, 564, 407, 619, 429), w('BA', 0.96, 630, 408, 670, 429),
  w('4d', 0.96, 370, 460, 391, 473), w('CPF', 0.95, 399, 460, 433, 473),
  w('S', 0.74, 711, 460, 721, 473), w('Nº', 0.95, 729, 460, 751, 473), w('REGISTRO', 0.95, 759, 460, 853, 474),
  w(cpfText, 0.31, 384, 478, 619, 519), w('59294143954', 0.91, 723, 484, 926, 507),
  w('9', 0.93, 373, 538, 383, 551), w('CAT.', 0.91, 390, 538, 427, 551), w('HAB.', 0.69, 436, 538, 480, 551),
];

describe('a number joined with the next field\'s value on its row (value-place.ts firstPiece; twenty-fourth round)', () => {
  it('final22 #4\'s CPF line, joined with the registration number (22 digits), is read from its own piece', () => {
    const c = extractFields(groupPhrases(cpfRow('431.788.346-56.')), '').campos;
    expect(c.cpf.valor).toBe('431.788.346-56');
    expect(c.numero_cnh.valor).toBe('59294143954');
    // Read with a digit wrong (the page's 3 read 8), it is kept and fails its check digits: under the line.
    const bad = extractFields(groupPhrases(cpfRow('431.788:846-56.')), '').campos;
    expect(bad.cpf.valor).toBe('431.788.846-56');
    expect(bad.cpf.valido).toBe(false);
    expect(bad.cpf.confianca).toBeLessThan(0.8);
  });
  it('the piece a joined line began with; the line itself when nothing was joined', () => {
    const a = toPhrase([w('431.788.346-56', 0.9, 384, 478, 619, 519)]), b = toPhrase([w('59294143954', 0.9, 723, 484, 926, 507)]);
    const joined = toPhrase([...a.words, ...b.words]);
    expect(firstPiece(joined, [a, b])).toBe(a);
    expect(firstPiece(a, [a, b])).toBe(a);
  });
});

describe('a digit between a name word\'s letters (doubts.ts misreadNameWords; twenty-fourth round)', () => {
  // final21 #25 (an older card photographed): the father's line, the schwa of MƏMMƏDOV read 9.
  const fatherLine = (middle: string): OcrWord[] => [
    w('FILIAÇÃO', 0.96, 370, 384, 449, 402),
    w('ERMAL', 0.91, 373, 432, 464, 451), w(middle, 0.42, 473, 432, 639, 451), w('HALITI', 0.92, 649, 433, 736, 452),
  ];
  it('final21 #25\'s "MOMM9DOV" puts the father under the line (it was 0.913 on his other words)', () => {
    const c = extractFields(groupPhrases(fatherLine('MOMM9DOV')), '').campos;
    expect(c.nome_mae.valor || c.nome_pai.valor).toBe('ERMAL MOMM DOV HALITI');
    expect(Math.max(c.nome_mae.confianca, c.nome_pai.confianca)).toBeLessThan(0.8);
    expect(misreadNameWords([toPhrase(fatherLine('S9FOROV').slice(1))]).map((x) => x.text)).toEqual(['S9FOROV']);
  });
  it('a digit before or after the letters (a label\'s number, a stray) is not such a word', () => {
    for (const t of ['1º', '9CAT', 'PA402943302', 'B2']) expect(misreadNameWords([toPhrase([w(t, 0.9, 100, 100, 200, 120)])])).toEqual([]);
  });
});
