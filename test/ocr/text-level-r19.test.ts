import { describe, expect, it } from 'vitest';
import { extractFields } from '../../src/ocr/fields.js';
import { categoryUnderCpf, PLACED_CODE_CAP } from '../../src/ocr/near-labels.js';
import { groupPhrases, toPhrase, type OcrWord } from '../../src/ocr/words.js';

const w = (text: string, conf: number, x0: number, y0: number, x1: number, y1: number): OcrWord => ({ text, conf, x0, y0, x1, y1 });

// A 2022 front read well down to the CPF's row (final16 #26's first reading, as in text-level-r18), then
// final17 #24's category row as its first reading read it: "9 CAT. HAB." read "vet a\"", "1ª HABILITAÇÃO"
// read "13º WssLSTAÇÃO" at 0.00, the values AB (0.78) and 23/10/1987 (0.84) read plainly.
const front = (row: OcrWord[]): OcrWord[] => [
  w('2€', 0.86, 371, 135, 393, 148), w('1', 0.93, 400, 136, 407, 148), w('NOME', 0.93, 414, 135, 463, 148), w('E', 0.96, 470, 135, 479, 148),
  w('SOBRENOME', 0.96, 486, 135, 594, 148), w('RUTE', 0.91, 380, 189, 460, 209), w('MARIA', 0.91, 473, 189, 574, 209), w('SOUZA', 0.92, 587, 189, 664, 209),
  w('3', 0.95, 370, 222, 379, 234), w('DATA,', 0.95, 384, 221, 430, 235), w('LOCAL', 0.95, 437, 221, 490, 234),
  w('E', 0.95, 497, 222, 506, 234), w('UF', 0.96, 513, 221, 534, 234), w('DE', 0.96, 540, 221, 561, 234), w('NASCIMENTO', 0.96, 569, 222, 680, 234),
  w('12/09/1999,', 0.93, 357, 268, 510, 291), w('TIMBÓ,', 0.92, 524, 268, 624, 291), w('SC', 0.96, 638, 268, 674, 288),
  w('4a', 0.92, 373, 296, 391, 308), w('DATA', 0.87, 397, 295, 439, 308), w('EMISSÃO', 0.87, 444, 292, 520, 308), w('4b', 0.90, 721, 299, 739, 312),
  w('VALIDADE', 0.96, 744, 300, 826, 313), w('25/05/2021', 0.96, 346, 341, 491, 362), w('25/05/2031', 0.96, 700, 346, 850, 366),
  w('4d', 0.59, 373, 461, 390, 473), w('CPF', 0.59, 396, 461, 429, 474), w('Nº', 0.95, 731, 459, 749, 471), w('REGISTRO', 0.95, 754, 458, 841, 471),
  w('618.781.028-77', 0.93, 384, 482, 609, 505), w('87675531049', 0.93, 737, 485, 913, 506),
  ...row,
];
const garbledRow = [
  w('vet', 0.75, 363, 537, 410, 551), w('a"', 0.58, 433, 539, 463, 551), w('13º', 0.59, 721, 539, 739, 551), w('WssLSTAÇÃO', 0, 750, 536, 863, 553),
  w('AB', 0.78, 386, 560, 419, 581), w('23/10/1987', 0.84, 733, 562, 891, 585),
];

describe("final17's text-level misses (nineteenth round)", () => {
  it('the category under the CPF\'s column when its label went unread (final17 #24)', () => {
    const c = extractFields(groupPhrases(front(garbledRow)), '').campos;
    expect(c.categoria.valor).toBe('AB');
    // Placed by the layout, not by its label: under the low-confidence line.
    expect(c.categoria.confianca).toBeLessThanOrEqual(PLACED_CODE_CAP);
    // The same row with its labels read: the category at its own confidence, as before.
    const read = extractFields(groupPhrases(front([
      w('9', 0.9, 363, 537, 372, 551), w('CAT.', 0.9, 380, 537, 420, 551), w('HAB.', 0.9, 428, 537, 470, 551), w('1ª', 0.9, 721, 539, 739, 551), w('HABILITAÇÃO', 0.9, 750, 536, 863, 553),
      w('AB', 0.95, 386, 560, 419, 581), w('23/10/1987', 0.95, 733, 562, 891, 585),
    ])), '').campos;
    expect(read.categoria.valor).toBe('AB');
    expect(read.categoria.confianca).toBeGreaterThan(PLACED_CODE_CAP);
  });

  it('categoryUnderCpf: one code of value type in the column; none for two, for label type or for an unsure read', () => {
    const cpf = toPhrase([w('618.781.028-77', 0.93, 384, 482, 609, 505)]);
    const code = (t: string, y0: number, h = 21, conf = 0.9): ReturnType<typeof toPhrase> => toPhrase([w(t, conf, 386, y0, 386 + 16 * t.length, y0 + h)]);
    expect(categoryUnderCpf(cpf, [cpf, code('AB', 560)], new Set())?.text).toBe('AB');
    expect(categoryUnderCpf(cpf, [cpf, code('AB', 560), code('D', 600)], new Set())).toBeUndefined();
    expect(categoryUnderCpf(cpf, [cpf, code('E', 540, 12)], new Set())).toBeUndefined();
    expect(categoryUnderCpf(cpf, [cpf, code('E', 560, 21, 0.3)], new Set())).toBeUndefined();
    // Not a code: a parent's name in the column.
    expect(categoryUnderCpf(cpf, [cpf, code('EDITE', 560)], new Set())).toBeUndefined();
    // Too far under the CPF (the parents' block).
    expect(categoryUnderCpf(cpf, [cpf, code('A', 700)], new Set())).toBeUndefined();
    expect(categoryUnderCpf(undefined, [code('A', 560)], new Set())).toBeUndefined();
  });
});
