/**
 * The parents' block (src/ocr/parents.ts): lines under FILIAÇÃO that the value-size test lost (label boxes
 * grown by a scanner's halo or blur as tall as the parents' lines), a lone line given to the father or the
 * mother by where it stands, a line that lost its first word kept under the low line, and the label read
 * closer (FLIAÇÃO) preferred to the heading's broken HABILITAÇÃO ("ILITAÇÃO"). The pages are the page
 * pass's words of two final9 cards (text, confidence, box), as the reader returned them.
 */
import { describe, expect, it } from 'vitest';
import { extractFields } from '../../src/ocr/fields.js';
import { findLabels } from '../../src/ocr/layout.js';
import { loneParent, parentLines, startLost } from '../../src/ocr/parents.js';
import { groupPhrases, toPhrase, type OcrWord } from '../../src/ocr/words.js';

type Row = [string, number, number, number, number, number];
const words = (rows: Row[]): OcrWord[] => rows.map(([text, conf, x0, y0, x1, y1]) => ({ text, conf, x0, y0, x1, y1 }));
const extract = (ws: OcrWord[]) => extractFields(groupPhrases(ws), groupPhrases(ws).map((p) => p.text).join('\n'));

/** final9 #59 (older card, scanner): FILIAÇÃO boxed 33 px tall, PERMISSÃO 39, the parents' lines 19-28 px. */
const SCANNED: Row[] = [
  ["NOME", 0.57, 376, 166, 424, 178], ["ARLETE", 0.96, 374, 190, 471, 218], ["MONÇÃO", 0.92, 481, 186, 594, 221], ["ASSAD", 0.95, 601, 190, 687, 217], ["'DOC.", 0.78, 367, 242, 401, 254], ["IDENTIDADE", 0.92, 413, 242, 507, 254],
  ["/", 0.88, 514, 243, 517, 252], ["ÓRG.", 0.88, 523, 241, 559, 254], ["EMISSOR", 0.93, 569, 242, 640, 254], ["/", 0.92, 646, 242, 650, 253], ["UF", 0.91, 656, 242, 676, 254], ["3477609", 0.96, 370, 261, 473, 295],
  ["DETRAN", 0.96, 483, 265, 584, 308], ["CE", 0.95, 593, 265, 627, 284], ["CPF", 0.93, 377, 315, 407, 327], ["DATANASCIMENTO", 0.9, 700, 310, 849, 329], ["642.", 0.94, 373, 338, 426, 373], ["167.125-06", 0.87, 430, 337, 560, 380],
  ["FILIAÇÃO", 0.68, 373, 379, 446, 412], ["JANDIR", 0.92, 380, 418, 469, 437], ["CIRILO", 0.96, 480, 418, 563, 445], ["MONÇÃO", 0.91, 573, 413, 684, 441], ["NAHAS", 0.92, 694, 417, 780, 436], ["FLORA", 0.96, 379, 456, 463, 475],
  ["DE", 0.93, 470, 456, 503, 474], ["SANSÃO", 0.92, 511, 451, 617, 475], ["PERMISSÃO", 0.88, 370, 501, 464, 540], ["ACC", 0.9, 709, 521, 740, 533], ["AE", 0.96, 974, 545, 1007, 564], ["Nº", 0.31, 61, 600, 77, 611],
  ["REGISTRO", 0.31, 83, 599, 167, 617], ["VALIDADE", 0.96, 420, 586, 497, 611], ["1º", 0.95, 707, 595, 720, 607], ["HABILITAÇÃO", 0.93, 724, 592, 829, 610], ["13/10/1988", 0.96, 714, 625, 840, 645], ["19/07/2023", 0.94, 424, 628, 549, 647],
  ["OBSERVAÇÕES", 0.87, 57, 694, 179, 711], ["A", 0.82, 70, 722, 87, 740], ["REPÚBLICA", 0.9, 60, 50, 157, 63], ["FEDERATIVA", 0.9, 163, 50, 267, 63], ["DO", 0.9, 274, 50, 297, 63], ["BRASIL", 0.9, 304, 50, 366, 63],
  ["MINISTÉRIO", 0.9, 67, 77, 164, 92], ["DAS", 0.9, 171, 77, 206, 92], ["CIDADES", 0.9, 211, 77, 287, 92], ["NACIONAL", 0.9, 216, 101, 304, 117], ["DE", 0.9, 310, 101, 331, 117], ["TRÂNSITO", 0.9, 339, 101, 423, 117],
  ["CARTEIRA", 0.9, 69, 118, 174, 137], ["NACIONAL", 0.9, 181, 118, 289, 137], ["DE", 0.9, 296, 118, 323, 137], ["HABILITAÇÃO", 0.9, 330, 118, 470, 137], ["72300446639", 0.91, 67, 623, 221, 642], ["30/03/1969", 0.96, 705, 339, 831, 358],
  ["19/07/2028", 0.73, 424, 628, 561, 671], ["13/10/1988", 0.8, 715, 625, 840, 653],
];

/** final9 #3 (older card, photo): the heading's HABILITAÇÃO broken, "ILITAÇÃO" above the label read "FLIAÇÃO". */
const HEADING: Row[] = [
  ["ARACELI", 0.92, 351, 190, 469, 211], ["JABOUR", 0.95, 476, 190, 581, 211], ["DIB", 0.96, 590, 192, 636, 212], ["DOC.", 0.94, 356, 225, 394, 238], ["IDENTIDADE", 0.93, 400, 223, 557, 239], ["/", 0.9, 507, 219, 517, 249],
  ["ÓRG.", 0.69, 521, 219, 560, 249], ["EMISSOR", 0.83, 563, 226, 636, 240], ["/", 0.83, 641, 228, 646, 238], ["UF", 0.95, 651, 228, 671, 240], ["08931733", 0.87, 351, 271, 460, 292], ["SJS", 0.74, 467, 272, 507, 292],
  ["MG", 0.96, 516, 272, 559, 292], ["CPF", 0.87, 351, 308, 381, 322], ["DATA", 0.96, 717, 306, 759, 319], ["NASCIMENTO", 0.93, 764, 306, 876, 321], ["k", 0.38, 3, 355, 11, 376], ["751.740.593-40", 0.87, 351, 350, 523, 372],
  ["31/03/1985", 0.96, 701, 360, 826, 381], ["FLIAÇÃO", 0.38, 356, 382, 434, 401], ["|", 0.52, 3, 409, 9, 427], ["|", 0.81, 10, 386, 34, 443], ["INOCÊNCIO", 0.96, 346, 431, 494, 457], ["DA", 0.93, 504, 437, 539, 458],
  ["ABIB", 0.93, 549, 427, 610, 468], ["TAINÁ", 0.91, 344, 464, 426, 490], ["DORA", 0.96, 434, 470, 510, 491], ["JAGUARIBE", 0.93, 516, 471, 667, 492], ["FAKHOURI", 0.82, 676, 473, 813, 494], ["]", 0.59, 306, 485, 313, 504],
  ["PERMISSÃO", 0.93, 356, 529, 451, 545], ["ACC", 0.87, 710, 531, 744, 544], ["x", 0.38, 29, 588, 70, 603], ["VALIDADE", 0.96, 410, 610, 496, 624], ["1", 0.62, 706, 614, 716, 626], ["HABILITAÇÃO", 0.9, 721, 611, 837, 630],
  ["26/05/2019", 0.96, 390, 658, 514, 680], ["03/02/2012", 0.96, 696, 660, 819, 680], ["REPÚBLICA", 0.9, 39, 44, 136, 61], ["FEDERATIVA", 0.9, 141, 44, 250, 61], ["DO", 0.9, 256, 44, 280, 61], ["BRASIL", 0.9, 286, 44, 344, 61],
  ["MINISTÉRIO", 0.9, 37, 77, 141, 92], ["DAS", 0.9, 147, 77, 180, 92], ["CIDADES", 0.9, 186, 77, 261, 92], ["NACIONAL", 0.9, 181, 97, 269, 113], ["DE", 0.9, 280, 97, 297, 113], ["TRÂNSITO", 0.9, 309, 97, 400, 113],
  ["ILITAÇÃO", 0.89, 349, 108, 455, 136], ["NOME", 0.96, 367, 145, 412, 157], ["B", 0.93, 989, 585, 996, 599],
];

/** final9 #35's second reading (older card, low light) around FILIAÇÃO: the border read "|" under the label. */
const BORDER: Row[] = [
  ["E", 0.34, 10, 392, 64, 406], ["mm", 0.16, 41, 379, 61, 391], ["|", 0.61, 287, 381, 290, 392], ["FILIAÇÃO", 0.83, 323, 389, 394, 403], ["|", 0.83, 287, 401, 290, 435],
  ["ELIÉZER", 0.45, 296, 426, 396, 449], ["JANDIR", 0.92, 413, 430, 499, 448], ["NASSIF", 0.93, 514, 430, 600, 449], ["HELOU", 0.93, 619, 430, 691, 449], ["|", 0.84, 287, 436, 290, 460],
  ["|ARACELT", 0, 287, 465, 397, 489], ["JUSSARA", 0.96, 416, 471, 517, 489], ["PIRAJÁ", 0.96, 533, 467, 621, 489], ["aca", 0.14, 117, 480, 163, 516], ["tio", 0.5, 174, 480, 211, 516],
  ["EA", 0.34, 153, 485, 290, 506], ["PERMISSÃO", 0.7, 326, 521, 407, 535], ["Ne", 0.75, 639, 523, 666, 534], ["CAT.", 0.79, 896, 521, 939, 545], ["HAB", 0.84, 949, 521, 981, 545],
];

const without = (rows: Row[], texts: string[]): Row[] => rows.filter((r) => !texts.includes(r[0]) || r[3] < 400);

describe('the parents under a label box grown by a scanner (parents.ts)', () => {
  it('reads both lines where the label sizes lost them', () => {
    const f = extract(words(SCANNED)).campos;
    expect(f.nome_pai.valor).toBe('JANDIR CIRILO MONÇÃO NAHAS');
    expect(f.nome_mae.valor).toBe('FLORA DE SANSÃO');
    // Found by the looser search only: 0.9 x.
    expect(f.nome_pai.confianca).toBeLessThan(0.93);
  });

  it('gives a lone first line with unread ink words under it to the father, a lone second line to the mother, under the low line', () => {
    const father = extract([...words(without(SCANNED, ['FLORA', 'DE', 'SANSÃO'])), { text: 'Il', conf: 0.2, x0: 379, y0: 456, x1: 400, y1: 475 }]).campos;
    expect(father.nome_pai.valor).toBe('JANDIR CIRILO MONÇÃO NAHAS');
    expect(father.nome_pai.confianca).toBeLessThan(0.8);
    expect(father.nome_mae.valor).toBe('');
    const alone = extract(words(without(SCANNED, ['FLORA', 'DE', 'SANSÃO']))).campos;
    expect(alone.nome_pai.valor).toBe('');
    expect(alone.nome_mae.valor).toBe('JANDIR CIRILO MONÇÃO NAHAS');
    const mother = extract(words(without(SCANNED, ['JANDIR', 'CIRILO', 'MONÇÃO', 'NAHAS']))).campos;
    expect(mother.nome_mae.valor).toBe('FLORA DE SANSÃO');
    expect(mother.nome_mae.confianca).toBeLessThan(0.8);
    expect(mother.nome_pai.valor).toBe('');
  });

  it('keeps a line that starts far right of the label (its first word lost) under the low line', () => {
    // The father's first word unread: the line starts where CIRILO does.
    const f = extract(words(without(SCANNED, ['JANDIR']))).campos;
    expect(f.nome_pai.valor).toBe('CIRILO MONÇÃO NAHAS');
    expect(f.nome_pai.confianca).toBeLessThanOrEqual(0.5);
    expect(f.nome_mae.valor).toBe('FLORA DE SANSÃO');
  });

  it('takes no line without a name (final9 #35: the card\'s border read "|" under the label, the father taken for the mother)', () => {
    const f = extract(words(BORDER)).campos;
    expect(f.nome_pai.valor).toBe('ELIÉZER JANDIR NASSIF HELOU');
    expect(f.nome_mae.valor).toBe('ARACELT JUSSARA PIRAJÁ');
  });

  it('takes no line under the next label, nor a number or running text', () => {
    const ws = words(SCANNED).filter((w) => w.y0 < 400 || w.y0 > 480);
    ws.push({ text: '12345678', conf: 0.95, x0: 380, y0: 418, x1: 480, y1: 437 }, { text: 'Assinatura', conf: 0.9, x0: 380, y0: 456, x1: 500, y1: 475 });
    const f = extract(ws).campos;
    expect(f.nome_pai.valor).toBe('');
    expect(f.nome_mae.valor).toBe('');
  });
});

describe('where a lone parent line stands (parents.ts loneParent)', () => {
  const label = { id: 'filiacao' as const, phrase: toPhrase([{ text: 'FILIAÇÃO', conf: 0.9, x0: 100, y0: 100, x1: 180, y1: 113 }]) };
  const line = (y0: number, h = 18): ReturnType<typeof toPhrase> => toPhrase([{ text: 'MARIA', conf: 0.9, x0: 100, y0, x1: 170, y1: y0 + h }, { text: 'SILVA', conf: 0.9, x0: 180, y0, x1: 250, y1: y0 + h }]);
  it('is the mother a line further down, or alone on the first line; the father when something was read under it', () => {
    const none = new Set([label.phrase]);
    expect(loneParent(label, line(160), [], none)).toBe('mother');
    expect(loneParent(label, line(140), [], none)).toBe('mother');
    // First line, nothing read under it: a mother alone (no father on record).
    expect(loneParent(label, line(118), [], none)).toBe('mother');
    // First line with unsure words where the second line stands: the father, the mother's line unread.
    const under = toPhrase([{ text: 'ARACELT', conf: 0.2, x0: 100, y0: 150, x1: 190, y1: 168 }]);
    expect(loneParent(label, line(118), [under], none)).toBe('father');
    // Words under it but out of its columns (another field) do not count.
    const aside = toPhrase([{ text: 'DETRAN', conf: 0.9, x0: 600, y0: 150, x1: 690, y1: 168 }]);
    expect(loneParent(label, line(118), [aside], none)).toBe('mother');
  });
  it('measures a start lost right of the label', () => {
    expect(startLost(label, line(118), 13)).toBe(false);
    expect(startLost(label, toPhrase([{ text: 'SILVA', conf: 0.9, x0: 180, y0: 118, x1: 250, y1: 136 }]), 13)).toBe(true);
  });
  it('adds nothing when the value-size test found two lines', () => {
    const a = line(118), b = line(150);
    const { lines, extra } = parentLines(label, [a, b], [a, b], new Set([label.phrase]), 13);
    expect(lines).toEqual([a, b]);
    expect(extra.size).toBe(0);
  });
});

describe('a label read closer than an earlier reading (layout.ts findLabels)', () => {
  it('takes FLIAÇÃO over the heading\'s "ILITAÇÃO", and the parents under it', () => {
    const ws = words(HEADING);
    expect(findLabels(groupPhrases(ws)).get('filiacao')?.phrase.text).toBe('FLIAÇÃO');
    const f = extract(ws).campos;
    expect(f.nome_pai.valor).toBe('INOCÊNCIO DA ABIB');
    expect(f.nome_mae.valor).toBe('TAINÁ DORA JAGUARIBE FAKHOURI');
  });
});
