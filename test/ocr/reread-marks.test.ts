import { describe, expect, it } from 'vitest';
import { lostMarkWords } from '../../src/ocr/doubts.js';
import { toPhrase, type OcrWord } from '../../src/ocr/words.js';

const w = (text: string, x0: number, y0: number, x1: number, y1: number, reread = true): OcrWord => ({ text, conf: 0.91, x0, y0, x1, y1, reread });

describe('a lost mark over a word of a second look (doubts.ts lostMarkWords)', () => {
  it('final12 #35: ACUNA read again with its line, boxed higher than the words read with it (its tilde unread)', () => {
    const line = [w('FELICITAS', 381, 453, 517, 473), w('PAOLA', 534, 452, 610, 471), w('ACUNA', 625, 447, 702, 470), w('YUPANQUI', 718, 450, 837, 473)];
    expect(lostMarkWords([toPhrase(line)]).map((x) => x.text)).toEqual(['ACUNA']);
  });

  it('a second look box grown down as well (final10 #6 ZUBKO) or level with another word (final10 #86 DANUTA) is no mark', () => {
    const zubko = [w('VLADIMIR', 359, 653, 492, 674), w('KRUPA', 500, 653, 586, 674), w('ZUBKO', 595, 645, 684, 682)];
    expect(lostMarkWords([toPhrase(zubko)])).toEqual([]);
    const danuta = [w('IRENA', 352, 137, 430, 165), w('DANUTA', 451, 136, 546, 165), w('WOJCIK', 562, 136, 657, 165), w('MARCHUK', 675, 144, 787, 165), w('MAZUR', 805, 145, 884, 165)];
    expect(lostMarkWords([toPhrase(danuta)])).toEqual([]);
  });

  it('words of a second look are not measured against the page pass, nor the other way round', () => {
    const mixed = [w('FELICITAS', 381, 453, 517, 473, false), w('PAOLA', 534, 452, 610, 471, false), w('ACUNA', 625, 447, 702, 470, true), w('YUPANQUI', 718, 450, 837, 473, false)];
    expect(lostMarkWords([toPhrase(mixed)])).toEqual([]);
    // The page pass's own measure is unchanged: a word 1.2 x taller, the extra above.
    const page = [w('HELOISA', 100, 90, 200, 114, false), w('MARIA', 210, 95, 280, 115, false), w('SOUZA', 290, 95, 360, 115, false)];
    expect(lostMarkWords([toPhrase(page)]).map((x) => x.text)).toEqual(['HELOISA']);
  });
});
