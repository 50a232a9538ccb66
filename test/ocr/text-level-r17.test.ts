import { describe, expect, it } from 'vitest';
import { normalizeName } from '../../src/ocr/normalize.js';
import { confusedDigits, isValidCnhNumber, isValidCpf } from '../../src/ocr/validators.js';
import { CONFUSED_DIGIT_CAP, doubtByConfusion, type Draft } from '../../src/ocr/checks.js';
import { markedTwins } from '../../src/ocr/name-spelling.js';
import { restoreDiacritics } from '../../src/ocr/orthography.js';
import { extractFields } from '../../src/ocr/fields.js';
import { groupPhrases, type OcrWord } from '../../src/ocr/words.js';
import type { CnhFieldName } from '../../src/ocr/engine.js';

const w = (text: string, conf: number, x0: number, y0: number, x1: number, y1: number): OcrWord => ({ text, conf, x0, y0, x1, y1 });

describe("final15's text-level misses (seventeenth round)", () => {
  it('a closing bracket or parenthesis ending a word of capitals is a J (final15 "HORODETSKY]", "HRYHORI)")', () => {
    expect(normalizeName('FIORINDA MARIIA ZUCCHI HORODETSKY]')).toBe('FIORINDA MARIIA ZUCCHI HORODETSKYJ');
    expect(normalizeName('HRYHORI) KRAVCHENKO DAL MOLIN')).toBe('HRYHORIJ KRAVCHENKO DAL MOLIN');
    expect(normalizeName('HRYHORI), PIAZZA')).toBe('HRYHORIJ PIAZZA');
    // Inside a word, as before; a short token, small letters or a lone bracket are no J.
    expect(normalizeName('BAD)!')).toBe('BADJI');
    expect(normalizeName('ANA EM) SILVA')).toBe('ANA EM SILVA');
    expect(normalizeName('ANA Silva) ROSA')).toBe('ANA SILVA ROSA');
    expect(normalizeName('ANA ) ROSA')).toBe('ANA ROSA');
  });

  it('a vowel read plain and then with its mark is one letter; a marked one then plain is left (RENÉE)', () => {
    const d: Partial<Record<CnhFieldName, Draft>> = {
      nome_completo: { valor: 'GIOSUEÈ PETRO FACCHIN', conf: 0.72 },
      nome_mae: { valor: 'RENÉE ZOÉ DUPONT', conf: 0.95 },
      nome_pai: { valor: 'NOÉ AÉCIO SILVA', conf: 0.95 },
    };
    markedTwins(d);
    expect(d.nome_completo).toEqual({ valor: 'GIOSUÈ PETRO FACCHIN', conf: 0.72, cap: 0.7 });
    expect(d.nome_mae).toEqual({ valor: 'RENÉE ZOÉ DUPONT', conf: 0.95 });
    expect(d.nome_pai).toEqual({ valor: 'NOÉ AÉCIO SILVA', conf: 0.95 });
  });

  it('a name keeps the Latin letters Portuguese does not write (a text layer\'s DVOŘÁK, ŠÁRKA, SZŐKE: final16)', () => {
    expect(normalizeName('DVOŘÁK ŠÁRKA SZŐKE')).toBe('DVOŘÁK ŠÁRKA SZŐKE');
    expect(normalizeName('Růžička Nĕmec')).toBe('RŮŽIČKA NĔMEC');
    // Marks that are not letters still go.
    expect(normalizeName('JIŘÍ ¤ NOVÁK°')).toBe('JIŘÍ NOVÁK');
  });

  it('a name with a Latin Extended-A letter is foreign: no Portuguese circumflex put in (NÉMETH beside DVOŘÁK)', () => {
    expect(restoreDiacritics('ISTVÁN GÉZA DVOŘÁK NÉMETH', { person: true }).name).toBe('ISTVÁN GÉZA DVOŘÁK NÉMETH');
    // Without one the Portuguese rule still applies (a Portuguese name read with an acute for its circumflex).
    expect(restoreDiacritics('ANTÓNIO SILVA', { person: true }).name).toBe('ANTÔNIO SILVA');
  });

  it('a vowel before its own nasal twin is Portuguese and left alone (ABRAÃO: final6)', () => {
    const d: Partial<Record<CnhFieldName, Draft>> = { nome_mae: { valor: 'AUGUSTA ABRAÃO KAWASAKI', conf: 0.95 }, nome_pai: { valor: 'JOÃO SIMOÕES', conf: 0.9 } };
    markedTwins(d);
    expect(d.nome_mae).toEqual({ valor: 'AUGUSTA ABRAÃO KAWASAKI', conf: 0.95 });
    expect(d.nome_pai).toEqual({ valor: 'JOÃO SIMOÕES', conf: 0.9 });
  });

  it('the digits of a failing check number that one recogniser confusion mends', () => {
    // 699.035.234-59 read with its 0 as 9 (final15 #47).
    expect(confusedDigits('699.935.234-59', isValidCpf)).toContain('9');
    expect(confusedDigits('699.035.234-59', isValidCpf)).toBe('');
    expect(confusedDigits('96/09/2024', (t) => /^(0[1-9]|[12]\d|3[01])\//.test(t))).toBe('9');
    expect(confusedDigits('', isValidCnhNumber)).toBe('');
  });

  it('an identity number holding a digit two of its page\'s checked values show misread is doubted (final15 #47)', () => {
    const page = (): Partial<Record<CnhFieldName, Draft>> => ({
      rg: { valor: '499450251', conf: 0.92 },
      cpf: { valor: '699.935.234-59', conf: 0.75 },
      data_emissao: { valor: '96/09/2024', conf: 0.63 },
      data_validade: { valor: '18/05/2035', conf: 0.9 },
    });
    const d = page();
    doubtByConfusion(d);
    expect(d.rg?.cap).toBe(CONFUSED_DIGIT_CAP);
    // One failing value alone (a mark read 8 before the CNH number, final15 #46) is no sign of the print's.
    const one = page();
    one.data_emissao = { valor: '06/09/2024', conf: 0.9 };
    doubtByConfusion(one);
    expect(one.rg?.cap).toBeUndefined();
    // The confused digit not in the number: nothing to doubt.
    const other = page();
    other.rg = { valor: '408450251', conf: 0.92 };
    doubtByConfusion(other);
    expect(other.rg?.cap).toBeUndefined();
  });

  it('a category read in a small letter unlike its capital is under the line (final15 #11 "e" for C at 0.952)', () => {
    const page = (cat: string): OcrWord[] => [
      w('NOME', 0.94, 366, 148, 409, 162),
      w('PIERINO', 0.92, 343, 194, 439, 215), w('GHELLER', 0.91, 447, 194, 557, 215), w('ZORTEA', 0.92, 566, 194, 661, 215),
      w('DOC.', 0.86, 371, 231, 403, 245), w('IDENTIDADE', 0.93, 416, 231, 507, 245), w('/', 0.91, 513, 232, 517, 245),
      w('ÓRG.', 0.91, 523, 231, 556, 245), w('EMISSOR', 0.93, 567, 231, 634, 245), w('/', 0.92, 640, 233, 646, 245), w('UF', 0.96, 651, 231, 669, 244),
      w('7333685', 0.91, 353, 269, 456, 290), w('SSP', 0.91, 467, 269, 510, 290), w('RS', 0.96, 520, 269, 550, 290),
      w('CPF', 0.91, 366, 311, 393, 324), w('DATA', 0.91, 720, 308, 759, 321), w('NASCIMENTO', 0.95, 764, 308, 864, 321),
      w('06/10/1996', 0.96, 691, 349, 829, 372),
      w('PETRO', 0.93, 343, 425, 420, 447), w('HNATIUK', 0.91, 431, 425, 534, 447), w('BERTOLDI', 0.87, 544, 425, 660, 447),
      w('GRAZIELLA', 0.92, 347, 465, 479, 486), w('GHELLER', 0.92, 489, 465, 597, 486), w('PIAZZA', 0.92, 607, 465, 693, 486),
      w('PERMISSÃO', 0.96, 377, 527, 464, 541), w('ACC', 0.83, 713, 527, 743, 540), w('CAT,', 0.9, 996, 525, 1026, 538), w('HAB,', 0.95, 1033, 525, 1063, 538),
      w(cat, 0.92, 976, 565, 991, 586),
    ];
    const small = extractFields(groupPhrases(page('e')), '').campos.categoria;
    expect(small.valor).toBe('E');
    expect(small.confianca).toBeLessThan(0.8);
    for (const t of ['E', 'c']) {
      const sure = extractFields(groupPhrases(page(t)), '').campos.categoria;
      expect(sure.valor).toBe(t.toUpperCase());
      expect(sure.confianca).toBeGreaterThanOrEqual(0.8);
    }
  });
});
