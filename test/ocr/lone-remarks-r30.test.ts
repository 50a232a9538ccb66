/**
 * Remarks whose "OBSERVAÇÕES" label went unread (issue #17, the twenty-ninth round): remarks holding EAR told
 * by their shape (near-labels.ts remarksWithoutLabel) and the label read by its end (layout.ts LabelDef.tail).
 * The words are final27 #50's first reading (a 2022 card under glare: "12 OBSERVAÇÕES" on the back unread,
 * EAR read at 0.96), its front's labels and values from the name to the category, and its whole back.
 */
import { describe, expect, it } from 'vitest';
import { extractFields } from '../../src/ocr/fields.js';
import { findLabels } from '../../src/ocr/layout.js';
import { remarksWithoutLabel } from '../../src/ocr/near-labels.js';
import { groupPhrases, toPhrase, type OcrWord } from '../../src/ocr/words.js';

const w = (text: string, conf: number, x0: number, y0: number, x1: number, y1: number): OcrWord => ({ text, conf, x0, y0, x1, y1 });

const front = [
  w('2', 0.70, 373, 138, 380, 151),
  w('6', 0.70, 390, 141, 397, 151),
  w('1', 0.89, 406, 138, 411, 151),
  w('NOME', 0.96, 421, 138, 469, 151),
  w('E', 0.96, 479, 138, 484, 151),
  w('SOBRENOME', 0.96, 494, 138, 600, 151),
  w('CELESTINA', 0.92, 384, 163, 530, 185),
  w('YOSHIMURA', 0.92, 540, 163, 700, 185),
  w('ÁLVARES', 0.93, 710, 159, 827, 185),
  w('KIKUCHI', 0.89, 841, 164, 944, 185),
  w('3', 0.95, 370, 213, 377, 226),
  w('DATA,', 0.95, 386, 214, 427, 226),
  w('LOCAL', 0.95, 441, 213, 493, 226),
  w('E', 0.95, 501, 214, 509, 227),
  w('UF', 0.96, 517, 213, 536, 226),
  w('DE', 0.95, 546, 214, 564, 227),
  w('NASCIMENTO', 0.75, 574, 213, 686, 227),
  w('05/09/1957,', 0.96, 379, 244, 539, 268),
  w('PACAEMBU,', 0.95, 553, 245, 704, 268),
  w('SP', 0.96, 717, 245, 747, 266),
  w('4a', 0.69, 370, 299, 389, 312),
  w('DATA', 0.95, 397, 299, 439, 312),
  w('EMISSÃO', 0.96, 447, 296, 521, 312),
  w('4b', 0.89, 720, 295, 740, 308),
  w('VALIDADE', 0.96, 747, 294, 829, 308),
  w('ACC', 0.93, 1046, 295, 1079, 308),
  w('16/09/2017', 0.96, 386, 326, 537, 349),
  w('16/09/2020', 0.96, 739, 327, 889, 350),
  w('4c€', 0.27, 373, 380, 390, 393),
  w('DOC,', 0.92, 399, 379, 434, 393),
  w('IDENTIDADE', 0.93, 449, 380, 550, 393),
  w('/', 0.93, 559, 381, 563, 393),
  w('ORG.', 0.78, 570, 379, 606, 393),
  w('EMISSOR', 0.93, 620, 380, 694, 393),
  w('/', 0.93, 701, 381, 706, 393),
  w('UF', 0.96, 713, 380, 731, 393),
  w('590961330', 0.93, 377, 404, 527, 426),
  w('SSP', 0.91, 540, 404, 587, 426),
  w('SP', 0.96, 599, 404, 629, 426),
  w('46', 0.54, 377, 457, 396, 470),
  w('CPF', 0.95, 404, 457, 433, 470),
  w('Nº', 0.96, 737, 460, 756, 473),
  w('REGISTRO', 0.96, 763, 460, 849, 473),
  w('813.937.', 0.00, 380, 483, 496, 505),
  w('422-97', 0.00, 503, 483, 591, 505),
  w('07220021793', 0.91, 727, 486, 911, 508),
  w('9', 0.74, 373, 538, 381, 551),
  w('CAT', 0.74, 390, 538, 420, 552),
  w('HAB.', 0.65, 431, 538, 464, 552),
  w('1º', 0.96, 729, 535, 743, 548),
  w('HABILITAÇÃO', 0.96, 751, 532, 861, 551),
  w('C', 0.73, 377, 567, 393, 589),
  w('02/03/1984', 0.96, 727, 569, 879, 593),
];
const back = [
  w('EAR', 0.96, 1370, 74, 1416, 94),
  w('SUZANO,', 0.96, 1367, 204, 1477, 238),
  w('SP', 0.96, 1499, 218, 1529, 239),
  w('DETRAN', 0.92, 1364, 316, 1459, 335),
  w('-', 0.92, 1470, 326, 1477, 329),
  w('SP', 0.96, 1487, 316, 1514, 336),
  w('ASSINATURA', 0.96, 1369, 344, 1473, 358),
  w('DO', 0.96, 1481, 344, 1506, 357),
  w('EMISSOR', 0.96, 1514, 344, 1587, 357),
  w('7178666260', 0.96, 1369, 687, 1504, 705),
  w('VÁLIDA', 0.90, 1371, 744, 1436, 762),
  w('EM', 0.90, 1443, 744, 1466, 762),
  w('TODO', 0.90, 1474, 744, 1527, 762),
  w('O', 0.90, 1534, 744, 1547, 762),
  w('TERRITÓRIO', 0.90, 1554, 744, 1663, 762),
  w('NACIONAL', 0.90, 1670, 744, 1761, 762),
];
const fieldsOf = (words: OcrWord[]) => extractFields(groupPhrases(words), words.map((x) => x.text).join(' ')).campos;

describe('remarks holding EAR placed without their label', () => {
  it('takes EAR read sure on a page whose remarks label is unread, under the low-confidence line (final27 #50)', () => {
    const campos = fieldsOf([...front, ...back]);
    expect(campos.observacoes.valor).toBe('EAR');
    expect(campos.observacoes.confianca).toBeGreaterThan(0.5);
    expect(campos.observacoes.confianca).toBeLessThan(0.8);
    // The rest of the page reads as before.
    expect(campos.nome_completo.valor).toBe('CELESTINA YOSHIMURA ÁLVARES KIKUCHI');
  });
  it('takes nothing without EAR, read unsure, or twice', () => {
    const withoutEar = back.filter((x) => x.text !== 'EAR');
    expect(fieldsOf([...front, ...withoutEar]).observacoes.valor).toBe('');
    // A lone capital is not taken: single letters are noise as often as codes.
    expect(fieldsOf([...front, ...withoutEar, w('A', 0.96, 1370, 74, 1386, 94)]).observacoes.valor).toBe('');
    expect(fieldsOf([...front, ...withoutEar, w('EAR', 0.85, 1370, 74, 1416, 94)]).observacoes.valor).toBe('');
    const twice = [toPhrase([w('EAR', 0.96, 1370, 74, 1416, 94)]), toPhrase([w('EAR', 0.96, 1370, 600, 1416, 620)])];
    expect(remarksWithoutLabel(twice, new Set())).toBeUndefined();
    // A name line holding the letters is no remark.
    expect(remarksWithoutLabel([toPhrase([w('EAR', 0.96, 10, 10, 50, 30), w('SOUZA', 0.96, 60, 10, 130, 30)])], new Set())).toBeUndefined();
  });
  it('takes EAR with a code after it (EAR A)', () => {
    const p = toPhrase([w('EAR', 0.96, 1370, 74, 1416, 94), w('A', 0.93, 1430, 74, 1446, 94)]);
    expect(remarksWithoutLabel([p], new Set())?.text).toBe('EAR A');
  });
  it('leaves the labelled reading alone: a remarks label read keeps its own value', () => {
    const label = [w('12', 0.9, 1364, 50, 1380, 62), w('OBSERVAÇÕES', 0.9, 1386, 50, 1500, 62)];
    const campos = fieldsOf([...front, ...back.filter((x) => x.text !== 'EAR'), ...label, w('A', 0.95, 1370, 74, 1386, 94), w('EAR', 0.96, 1370, 600, 1416, 620)]);
    expect(campos.observacoes.valor).toBe('A');
  });
});

describe('the remarks label read by its end', () => {
  const label = (text: string) => findLabels([toPhrase([w(text, 0.5, 51, 766, 133, 780)])]).get('observacoes');
  it('takes a word that is OBSERVAÇÕES\' end within one edit ("RAÇÕES", "AVAÇÕES": final27 #35, #47)', () => {
    expect(label('RAÇÕES')).toBeDefined();
    expect(label('AVAÇÕES')).toBeDefined();
    expect(label('ERVAÇÕES')).toBeDefined();
  });
  it('takes no shorter end, no other word, nor a word beside others', () => {
    expect(label('AÇÕES')).toBeUndefined();
    expect(label('SOARES')).toBeUndefined();
    expect(label('PERMISSÃO')).toBeUndefined();
    expect(findLabels([toPhrase([w('RAÇÕES', 0.5, 51, 766, 133, 780), w('SOUZA', 0.9, 140, 766, 200, 780)])]).get('observacoes')).toBeUndefined();
  });
  it('prefers the whole label where both are read', () => {
    const whole = toPhrase([w('OBSERVAÇÕES', 0.9, 51, 700, 180, 714)]);
    const end = toPhrase([w('RAÇÕES', 0.5, 51, 766, 133, 780)]);
    expect(findLabels([end, whole]).get('observacoes')?.phrase).toBe(whole);
  });
  it('reads the code under a label read by its end (final27 #35: "RAÇÕES" at 0.32, then D)', () => {
    const campos = fieldsOf([w('RAÇÕES', 0.32, 51, 766, 133, 780), w('D', 0.92, 40, 792, 60, 814)]);
    expect(campos.observacoes.valor).toBe('D');
  });
});
