/**
 * Name and town lines whose words' boxes say the value was misread though its words read sure
 * (thirteenth round, final11): a word's two pieces closer than a printed space (doubts.ts tightGap:
 * "KI UIPERS", "AÍ REIA,"), a hole that held a word (lineHole: "HO" ... VRIJMOED), a word boxed far
 * taller than its line and read unsure (tallNameWords: "MULE" for MULDER), and a word read inside the
 * spare tail of the box before it, which now joins its line (words.ts groupPhrases: the mother's VAN
 * inside MARGRIET's box, final11 #80).
 */
import { describe, expect, it } from 'vitest';
import { lineHole, tallNameWords, tightGap } from '../../src/ocr/doubts.js';
import { extractFields } from '../../src/ocr/fields.js';
import { groupPhrases, readingText, toPhrase, type OcrWord } from '../../src/ocr/words.js';

type Row = [string, number, number, number, number, number];
const words = (rows: Row[]): OcrWord[] => rows.map(([text, conf, x0, y0, x1, y1]) => ({ text, conf, x0, y0, x1, y1 }));
const extract = (ws: OcrWord[]) => extractFields(groupPhrases(ws), readingText(groupPhrases(ws)));

/** An older card's front with its name line `nameRow`. */
function page(nameRow: Row[]): OcrWord[] {
  return words([
    ['REPÚBLICA', 0.9, 41, 32, 150, 48], ['FEDERATIVA', 0.9, 157, 32, 273, 48], ['DO', 0.9, 281, 32, 307, 48], ['BRASIL', 0.9, 314, 32, 379, 48],
    ['NOME', 0.9, 370, 150, 421, 164], ...nameRow,
    ['DOC.', 0.9, 371, 223, 409, 238], ['IDENTIDADE', 0.9, 420, 224, 530, 239], ['/', 0.9, 537, 222, 545, 240], ['ÓRG.', 0.9, 556, 222, 596, 240], ['EMISSOR', 0.9, 603, 224, 681, 239],
    ['102959350', 0.95, 373, 254, 521, 278], ['SSP', 0.95, 531, 255, 590, 278], ['RS', 0.95, 600, 256, 637, 279],
    ['CPF', 0.9, 374, 306, 407, 320], ['DATA', 0.9, 719, 309, 764, 323], ['NASCIMENTO', 0.9, 771, 309, 894, 324],
    ['750.557.853-30', 0.95, 377, 335, 589, 359], ['27/09/1968', 0.95, 726, 336, 877, 361],
  ]);
}

describe('tightGap: a word broken in two', () => {
  it('final11 #36: KI and UIPERS 3 px apart on a line spaced 14-15 px', () => {
    const ws = words([['KALLIOPI', 0.73, 387, 160, 510, 201], ['GROENWOLD', 0.85, 524, 161, 714, 201], ['KI', 0.65, 729, 170, 743, 192], ['UIPERS', 0.81, 746, 155, 846, 211]]);
    expect(tightGap([toPhrase(ws)])).toBe(true);
  });
  it('the same line with printed spaces, and a mark overlapping the next word, are not', () => {
    expect(tightGap([toPhrase(words([['KALLIOPI', 0.9, 387, 160, 510, 201], ['GROENWOLD', 0.9, 524, 161, 714, 201], ['KUIPERS', 0.9, 729, 160, 846, 201], ['BOS', 0.9, 860, 160, 910, 201]]))])).toBe(false);
    expect(tightGap([toPhrase(words([['GERRIT|', 0.82, 348, 637, 458, 657], ['HENDRIK', 0.92, 454, 637, 573, 657], ['DOS', 0.93, 581, 636, 637, 657], ['KHATCHADOURIAN', 0.91, 646, 636, 890, 657], ['BOGHOSSIAN', 0.91, 900, 635, 1076, 657]]))])).toBe(false);
  });
  it('a name read with a broken word comes under the low line (0.55), the whole word does not', () => {
    const broken = extract(page([['ANNEKE', 0.93, 376, 176, 478, 199], ['GROENWOLD', 0.93, 490, 176, 643, 199], ['KI', 0.93, 655, 176, 672, 199], ['UIPERS', 0.93, 674, 176, 776, 199]])).campos.nome_completo;
    expect(broken.valor).toBe('ANNEKE GROENWOLD KI UIPERS');
    expect(broken.confianca).toBeLessThanOrEqual(0.55);
    const whole = extract(page([['ANNEKE', 0.93, 376, 176, 478, 199], ['GROENWOLD', 0.93, 490, 176, 643, 199], ['KUIPERS', 0.93, 655, 176, 774, 199]])).campos.nome_completo;
    expect(whole.valor).toBe('ANNEKE GROENWOLD KUIPERS');
    expect(whole.confianca).toBeGreaterThanOrEqual(0.8);
  });
});

describe('lineHole: a gap that held a word', () => {
  it('final11 #57: 108 px after HO at a 26 px type, the line spaced 7-13 px', () => {
    const ws = words([['VARTAN', 0.92, 367, 407, 473, 432], ['KRIKOR', 0.9, 480, 411, 583, 434], ['DOS', 0.96, 593, 401, 640, 440], ['HO', 0.93, 653, 414, 689, 440], ['VRIJMOED', 0.87, 797, 401, 933, 445]]);
    expect(lineHole(toPhrase(ws))).toBe(true);
    const whole = words([['VARTAN', 0.92, 369, 412, 473, 432], ['KRIKOR', 0.9, 480, 411, 581, 433], ['DOS', 0.96, 590, 407, 641, 433], ['HOEKSTRA', 0.88, 650, 414, 792, 434], ['VRIJMOED', 0.91, 798, 415, 932, 435]]);
    expect(lineHole(toPhrase(whole))).toBe(false);
  });
});

describe('tallNameWords: a word boxed far taller than its line, read unsure', () => {
  it('final11 #79: MULE, 36 px on a line of 21-23 px words, at 0.78', () => {
    const ws = words([['VARTAN', 0.92, 374, 416, 484, 437], ['DOS', 0.93, 500, 417, 559, 438], ['KYRIAKIDIS', 0.9, 574, 416, 735, 439], ['MULE', 0.78, 758, 409, 827, 445]]);
    expect(tallNameWords([toPhrase(ws)]).map((w) => w.text)).toEqual(['MULE']);
  });
  it('a tall word read sure (a shadow under it) is not taken for one', () => {
    const ws = words([['BERENDINA', 0.92, 363, 438, 516, 483], ['SARKISSIAN', 0.9, 523, 442, 680, 467], ['TCHAKERIAN', 0.9, 686, 447, 860, 468]]);
    expect(tallNameWords([toPhrase(ws)])).toEqual([]);
  });
});

describe('groupPhrases: a word read inside the spare tail of the box before it', () => {
  it('final11 #80: VAN read inside MARGRIET\'s box (175 px for 8 letters) joins the mother\'s line', () => {
    const ws = words([['JANNA', 0.91, 370, 691, 449, 719], ['MARGRIET', 0.92, 456, 690, 631, 713], ['VAN', 0.96, 590, 685, 630, 724], ['DER', 0.93, 643, 685, 686, 724], ['VINNE', 0.92, 699, 685, 769, 724], ['TCHAKERIAN', 0.9, 776, 689, 930, 712]]);
    const ps = groupPhrases(ws);
    expect(ps.map((p) => p.text)).toEqual(['JANNA MARGRIET VAN DER VINNE TCHAKERIAN']);
  });
  it('a word starting where the box before it still needs the room for its letters stays apart', () => {
    const ws = words([['JANNA', 0.91, 370, 691, 449, 719], ['MARGRIET', 0.92, 456, 690, 580, 713], ['VAN', 0.96, 530, 685, 570, 724]]);
    expect(groupPhrases(ws).length).toBe(2);
  });
});

describe('orphanDer: a DER whose VAN was lost', () => {
  it('DER alone is a lost word; VAN DER, VON DER and DEN alone are names', async () => {
    const { orphanDer } = await import('../../src/ocr/doubts.js');
    expect(orphanDer('JANNA MARGRIET DER VINNE TCHAKERIAN')).toBe(true);
    expect(orphanDer('DER MEER JANSEN')).toBe(true);
    expect(orphanDer('JANNA MARGRIET VAN DER VINNE TCHAKERIAN')).toBe(false);
    expect(orphanDer('URSULA VON DER LEYEN')).toBe(false);
    expect(orphanDer('JOOP DEN UYL')).toBe(false);
    expect(orphanDer('ANDERSON DERMEVAL')).toBe(false);
  });
  it('a name read with it is under the low line', () => {
    const n = extract(page([['JANNA', 0.93, 376, 176, 461, 199], ['DER', 0.93, 473, 176, 524, 199], ['VINNE', 0.93, 536, 176, 621, 199]])).campos.nome_completo;
    expect(n.valor).toBe('JANNA DER VINNE');
    expect(n.confianca).toBeLessThan(0.8);
  });
});
