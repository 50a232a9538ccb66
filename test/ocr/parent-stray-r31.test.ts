/**
 * A mark read as a short word after a parent's name (issue #17, the thirtieth round; final28 #50, glare on a
 * 2022 front: the mother "JOSILENE IVONEIDE LIMAVERDE ARRAIS EN" at 0.55, the "EN" read at 0.42 in a box
 * 41 px tall after ARRAIS's 21, 112 px right of it). The holder's name already dropped such a word
 * (doubts.ts tallStray); the parents' lines now do too, the name kept under the low-confidence line.
 */
import { describe, expect, it } from 'vitest';
import { extractFields } from '../../src/ocr/fields.js';
import { groupPhrases, type OcrWord } from '../../src/ocr/words.js';

const w = (text: string, conf: number, x0: number, y0: number, x1: number, y1: number): OcrWord => ({ text, conf, x0, y0, x1, y1 });
/** A 2022 front read well (final16 #26's reading), then FILIAÇÃO and the parents' two lines, `tail` after the mother's. */
const front = (tail: OcrWord[]): OcrWord[] => [
  w('2€', 0.86, 371, 135, 393, 148), w('1', 0.93, 400, 136, 407, 148), w('NOME', 0.93, 414, 135, 463, 148), w('E', 0.96, 470, 135, 479, 148),
  w('SOBRENOME', 0.96, 486, 135, 594, 148), w('RUTE', 0.91, 380, 189, 460, 209), w('MARIA', 0.91, 473, 189, 574, 209), w('SOUZA', 0.92, 587, 189, 664, 209),
  w('3', 0.95, 370, 222, 379, 234), w('DATA,', 0.95, 384, 221, 430, 235), w('LOCAL', 0.95, 437, 221, 490, 234), w('E', 0.95, 497, 222, 506, 234),
  w('UF', 0.96, 513, 221, 534, 234), w('DE', 0.96, 540, 221, 561, 234), w('NASCIMENTO', 0.96, 569, 222, 680, 234),
  w('12/09/1999,', 0.93, 357, 268, 510, 291), w('TIMBÓ,', 0.92, 524, 268, 624, 291), w('SC', 0.96, 638, 268, 674, 288),
  w('4d', 0.59, 373, 461, 390, 473), w('CPF', 0.59, 396, 461, 429, 474), w('Nº', 0.95, 731, 459, 749, 471), w('REGISTRO', 0.95, 754, 458, 841, 471),
  w('618.781.028-77', 0.93, 384, 482, 609, 505), w('87675531049', 0.93, 737, 485, 913, 506),
  w('9', 0.9, 363, 537, 372, 551), w('CAT.', 0.9, 380, 537, 420, 551), w('HAB.', 0.9, 428, 537, 470, 551),
  w('AB', 0.95, 386, 560, 419, 581),
  w('FILIAÇÃO', 0.93, 376, 622, 451, 638),
  w('GERSIVAL', 0.92, 380, 666, 511, 687), w('LEITÃO', 0.96, 521, 661, 612, 687), w('AVELINO', 0.96, 622, 666, 737, 687),
  w('JOSILENE', 0.92, 380, 706, 507, 727), w('IVONEIDE', 0.92, 517, 706, 642, 727), w('ARRAIS', 0.96, 652, 706, 750, 727),
  ...tail,
];

describe("a parent's line ending in a mark read as letters", () => {
  it('drops a short word boxed twice as tall as the line, apart from it, and keeps the name under 0.8', () => {
    const c = extractFields(groupPhrases(front([w('EN', 0.42, 862, 696, 1107, 737)])), '').campos;
    expect(c.nome_mae.valor).toBe('JOSILENE IVONEIDE ARRAIS');
    expect(c.nome_mae.confianca).toBeLessThan(0.8);
    expect(c.nome_pai.valor).toBe('GERSIVAL LEITÃO AVELINO');
  });
  it('keeps a short word of the line\'s own type (a name\'s XU, LI) and the line as read without one', () => {
    expect(extractFields(groupPhrases(front([w('LI', 0.9, 762, 706, 790, 727)])), '').campos.nome_mae.valor).toBe('JOSILENE IVONEIDE ARRAIS LI');
    const plain = extractFields(groupPhrases(front([])), '').campos.nome_mae;
    expect(plain.valor).toBe('JOSILENE IVONEIDE ARRAIS');
    expect(plain.confianca).toBeGreaterThan(0.8);
  });
});
