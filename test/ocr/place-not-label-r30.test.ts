/**
 * A birthplace is never a label, nor the card's print (issue #17, the twenty-ninth round): final27 #38 and
 * #54 lost "PROMISSÃO, SP" twice over. Its birth line "24/12/1985, PROMISSÃO, SP" was taken for the
 * PERMISSÃO label (PROMISSAO is 2 edits from PERMISSAO: a 9-letter token's tolerance), and the town alone was
 * refused as boilerplate (one vocabulary word within 2 edits). The words are final27 #38's first reading of
 * its front (a 2022 card's desktop screenshot), from the name's label to the identity label.
 */
import { describe, expect, it } from 'vitest';
import { isBoilerplate } from '../../src/ocr/boilerplate.js';
import { extractFields } from '../../src/ocr/fields.js';
import { findLabels } from '../../src/ocr/layout.js';
import { groupPhrases, toPhrase, type OcrWord } from '../../src/ocr/words.js';

const w = (text: string, conf: number, x0: number, y0: number, x1: number, y1: number): OcrWord => ({ text, conf, x0, y0, x1, y1 });

const front = [
  w('2e1NOME', 0.21, 379, 147, 473, 160),
  w('E', 0.95, 481, 147, 489, 159),
  w('SOBRENOME', 0.95, 497, 147, 596, 160),
  w('LAUDELINO', 0.91, 367, 180, 516, 201),
  w('VOLODIMIR', 0.91, 526, 180, 673, 201),
  w('KRAWCZYK', 0.92, 686, 180, 829, 201),
  w('MAZUREK', 0.91, 840, 181, 966, 201),
  w('3', 0.96, 386, 226, 391, 239),
  w('DATA,', 0.96, 400, 226, 440, 239),
  w('LOCAL', 0.96, 453, 226, 501, 239),
  w('E', 0.92, 513, 226, 514, 239),
  w('UF', 0.96, 527, 226, 546, 239),
  w('DE', 0.96, 554, 226, 570, 239),
  w('NASCIMENTO', 0.96, 583, 226, 691, 239),
  w('24/12/1985,', 0.96, 366, 263, 520, 286),
  w('PROMISSÃO,', 0.96, 534, 259, 694, 286),
  w('SP', 0.96, 707, 263, 737, 284),
  w('4a', 0.90, 380, 300, 397, 312),
  w('DATA', 0.95, 406, 300, 446, 312),
  w('EMISSÃO', 0.96, 454, 297, 526, 313),
  w('4b', 0.83, 714, 302, 733, 315),
  w('VALIDADE', 0.96, 740, 302, 820, 315),
  w('ACC', 0.96, 1029, 301, 1056, 313),
  w('12/11/2016', 0.96, 370, 338, 517, 361),
  w('12/11/2026', 0.96, 703, 336, 850, 358),
  w('4c', 0.76, 383, 381, 399, 393),
  w('DOC', 0.95, 407, 380, 437, 393),
  w('IDENTIDADE', 0.93, 456, 380, 554, 393),
  w('/', 0.91, 563, 382, 567, 391),
  w('ÓRG.', 0.90, 573, 380, 609, 393),
  w('EMISSOR', 0.91, 621, 380, 693, 393),
  w('/', 0.91, 701, 384, 704, 392),
  w('UF', 0.96, 713, 381, 729, 392),
];

describe('a birthplace is no label and no boilerplate', () => {
  it('reads the town of a birth line whose town is near a label word (final27 #38)', () => {
    const { campos } = extractFields(groupPhrases(front), front.map((x) => x.text).join(' '));
    expect(campos.local_nascimento.valor).toBe('PROMISSÃO, SP');
    expect(campos.data_nascimento.valor).toBe('24/12/1985');
    expect(campos.data_emissao.valor).toBe('12/11/2016');
  });
  it('takes no phrase holding a date or a place for a label; the label itself, misread, still is one', () => {
    const line = (text: string) => toPhrase(text.split(' ').map((t, i) => w(t, 0.96, 100 + 120 * i, 260, 200 + 120 * i, 286)));
    expect(findLabels([line('24/12/1985, PROMISSÃO, SP')]).has('permissao')).toBe(false);
    expect(findLabels([line('PROMISSÃO, SP')]).has('permissao')).toBe(false);
    expect(findLabels([line('PERMISSÃO')]).has('permissao')).toBe(true);
    expect(findLabels([line('PERMISAO')]).has('permissao')).toBe(true);
    expect(findLabels([line('3 DATA, LOCAL E UF DE NASCIMENTO')]).has('nascimento3')).toBe(true);
    // A label read together with the value beside it keeps its own word, spelt exactly.
    expect(findLabels([line('VALIDADE 16/09/2020')]).has('validade')).toBe(true);
    expect(findLabels([line('LOCAL PROMISSÃO, SP')]).has('local')).toBe(true);
  });
  it('refuses a birthplace that is the card\'s print exactly, and keeps the fuzzy rule for other fields', () => {
    expect(isBoilerplate('PROMISSÃO, SP', true)).toBe(false);
    expect(isBoilerplate('PERMISSÃO, SP', true)).toBe(true);
    expect(isBoilerplate('LOCAL, SP', true)).toBe(true);
    // Elsewhere a lone word near a label word is still the label misread (unchanged).
    expect(isBoilerplate('PROMISSÃO')).toBe(true);
    expect(isBoilerplate('PERMISAO')).toBe(true);
  });
});
