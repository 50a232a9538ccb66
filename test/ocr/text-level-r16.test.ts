import { describe, expect, it } from 'vitest';
import { mendDate } from '../../src/ocr/validators.js';
import { parseIdentity } from '../../src/ocr/normalize.js';
import { isPlaceLine } from '../../src/ocr/codes.js';
import { edgeMarkedNumber, markOverName } from '../../src/ocr/doubts.js';
import { extractFields } from '../../src/ocr/fields.js';
import { isBoilerplate } from '../../src/ocr/boilerplate.js';
import { applyFallbacks } from '../../src/ocr/fallbacks.js';
import { groupPhrases, joinGluedI, toPhrase, type OcrWord } from '../../src/ocr/words.js';

const w = (text: string, conf: number, x0: number, y0: number, x1: number, y1: number): OcrWord => ({ text, conf, x0, y0, x1, y1 });

describe("final14's text-level misses (sixteenth round)", () => {
  it('a date that is none for a digit the calendar forbids at its place is mended through digit confusions', () => {
    expect(mendDate('89/09/2009')).toBe('09/09/2009');
    expect(mendDate('84/05/2838')).toBe('04/05/2038');
    expect(mendDate('15/41/2024')).toBe('15/11/2024');
    expect(mendDate('30/05/1885')).toBe('30/05/1985');
    expect(mendDate('63/07/2031')).toBe('03/07/2031');
    // A real date, a date wrong at a place any digit may hold, two ways of mending: nothing guessed.
    for (const s of ['12/05/2020', '31/02/2020', '15/13/2020', '04/05/7030', '11/12/2073', '']) expect(mendDate(s)).toBe('');
  });

  it("the identity line's own label words are no issuing body; a D read as O is snapped to a known body", () => {
    expect(parseIdentity('6086801 SDS / ORG, [UF')).toEqual({ rg: '6086801', orgao: 'SDS', uf: '' });
    expect(parseIdentity('6086801 SDS ÓRG. SC')).toEqual({ rg: '6086801', orgao: 'SDS', uf: 'SC' });
    expect(parseIdentity('123456 SOS SC').orgao).toBe('SDS');
    expect(parseIdentity('123456 SSP SC').orgao).toBe('SSP');
  });

  it('a place "CITY, UF" under the remarks is no remark', () => {
    expect(isPlaceLine('IARMONIA, RS')).toBe(true);
    expect(isPlaceLine('TIMBÓ,SC.')).toBe(true);
    for (const t of ['EAR A', 'D', 'A, B', 'FARA', 'IARMONIA, XY']) expect(isPlaceLine(t)).toBe(false);
  });

  it("a bar or bracket glued before the identity number: dropped when boxed far over the line's type, doubted otherwise", () => {
    const tall = [toPhrase([w('[446131280', 0.73, 325, 249, 476, 301), w('SSP', 0.74, 493, 263, 540, 285), w('SC', 0.95, 550, 263, 582, 285)])];
    expect(edgeMarkedNumber(tall)).toBe('tall');
    const typeSized = [toPhrase([w('|446131280', 0.73, 325, 262, 476, 285), w('SSP', 0.74, 493, 263, 540, 285), w('SC', 0.95, 550, 263, 582, 285)])];
    expect(edgeMarkedNumber(typeSized)).toBe('type');
    expect(edgeMarkedNumber([toPhrase([w('446131280', 0.8, 325, 262, 476, 285), w('SSP', 0.9, 493, 263, 540, 285)])])).toBeUndefined();
  });

  it("a tall unsure mark spanning a name line's middle right after its last word puts the name in doubt", () => {
    const line = toPhrase([w('RANIA', 0.92, 385, 172, 480, 194), w('KHADIJA', 0.89, 490, 172, 600, 194), w('KNA', 0.92, 606, 172, 661, 194)]);
    const mark = toPhrase([w('sic', 0.16, 646, 132, 801, 220)]);
    expect(markOverName(line, [line, mark])).toBe(true);
    // A sure word there, or a mark off the line, says nothing.
    expect(markOverName(line, [line, toPhrase([w('sic', 0.9, 646, 132, 801, 220)])])).toBe(false);
    expect(markOverName(line, [line, toPhrase([w('sic', 0.16, 646, 200, 801, 290)])])).toBe(false);
  });

  it('an old card whose identity state is read in small letters keeps its uf under the line (final14 #25 "se." for SC)', () => {
    const page = (uf: string): OcrWord[] => [
      w('NOME', 0.96, 377, 152, 427, 163),
      w('RANIA', 0.92, 385, 172, 480, 194), w('KHADIJA', 0.92, 490, 172, 600, 194), w('LIMA', 0.92, 606, 172, 661, 194),
      w('DOC.', 0.9, 367, 236, 400, 247), w('IDENTIDADE', 0.93, 405, 236, 500, 247), w('/', 0.92, 505, 236, 508, 247), w('ÓRG.', 0.9, 512, 236, 540, 247), w('EMISSOR', 0.9, 545, 236, 610, 247),
      w('091766192', 0.96, 374, 262, 500, 284), w('SDS', 0.9, 507, 262, 554, 284), w(uf, 0.96, 563, 262, 600, 284),
      w('CPF', 0.9, 369, 314, 395, 325), w('709.314.970-78', 0.91, 389, 334, 556, 353),
      w('DATA', 0.9, 717, 310, 760, 322), w('NASCIMENTO', 0.9, 765, 310, 880, 322), w('26/03/2002', 0.96, 727, 337, 847, 356),
      w('FILIAÇÃO', 0.9, 369, 386, 451, 404),
    ];
    const lower = extractFields(groupPhrases(page('se.')), '').campos.uf;
    expect(lower.valor).toBe('SE');
    expect(lower.confianca).toBeLessThan(0.8);
    const upper = extractFields(groupPhrases(page('SC')), '').campos.uf;
    expect(upper.valor).toBe('SC');
    expect(upper.confianca).toBeGreaterThanOrEqual(0.8);
  });

  it("a word's final I read apart and touching it is joined back (final14 #36 \"AHMADZA l\")", () => {
    const p = toPhrase([w('KUHNERT', 0.9, 475, 164, 588, 185), w('AHMADZA', 0.46, 604, 163, 718, 186), w('l', 0, 718, 163, 731, 185), w('AL-KHATIB', 0.79, 751, 165, 897, 186)]);
    const j = joinGluedI(p);
    expect(j.text).toBe('KUHNERT AHMADZAI AL-KHATIB');
    expect(j.words[1].conf).toBe(0);
    // A stroke a space apart, or one far shorter than the word, stays as read.
    expect(joinGluedI(toPhrase([w('AHMADZA', 0.46, 604, 163, 718, 186), w('l', 0, 726, 163, 739, 185)])).text).toBe('AHMADZA l');
    expect(joinGluedI(toPhrase([w('AHMADZA', 0.46, 604, 163, 718, 186), w('|', 0.3, 719, 178, 722, 186)])).text).toBe('AHMADZA |');
  });

  it('a 2022 birth line ends with its state: marks read after it are dropped (final14 #36)', () => {
    const page: OcrWord[] = [
      w('1', 0.8, 351, 137, 360, 151), w('NOME', 0.9, 380, 137, 430, 151), w('E', 0.96, 436, 137, 446, 151), w('SOBRENOME', 0.96, 452, 137, 574, 151),
      w('SUHAILA', 0.9, 347, 163, 458, 185), w('KUHNERT', 0.9, 475, 164, 588, 185),
      w('3', 0.93, 361, 214, 370, 229), w('DATA,', 0.93, 376, 214, 430, 229), w('LOCAL', 0.96, 436, 214, 500, 229), w('E', 0.94, 506, 214, 516, 229), w('UF', 0.96, 522, 214, 545, 229), w('DE', 0.96, 551, 214, 575, 229), w('NASCIMENTO', 0.95, 581, 214, 686, 229),
      w('03/07/1966,', 0.85, 349, 240, 500, 265), w('TIMBÓ,', 0.96, 512, 238, 600, 267), w('SC', 0.96, 612, 240, 650, 265), w('Nf', 0.69, 680, 238, 720, 266), w('VIR', 0.48, 730, 238, 790, 266),
    ];
    expect(extractFields(groupPhrases(page), '').campos.local_nascimento.valor).toBe('TIMBÓ, SC');
  });

  it("a label cut at the reading's end and an application form's labels are no values", () => {
    expect(isBoilerplate('ORGÃO EMIS')).toBe(true);
    expect(isBoilerplate('TELEFONE')).toBe(true);
    expect(isBoilerplate('MUNICÍPIO O')).toBe(true);
    // A name keeps a short word that begins like a label word.
    for (const n of ['MARIA CIDA', 'ANA NACI', 'PEDRO PORT', 'JOSÉ DA SILVA']) expect(isBoilerplate(n)).toBe(false);
  });

  it('a date placed by its order is no birth when the holder would be under 18 today (final14 #47, #56)', () => {
    const young = new Date().getUTCFullYear() - 2;
    const d: Parameters<typeof applyFallbacks>[0] = { data_validade: { valor: `11/02/${young + 12}`, conf: 0.9 } };
    applyFallbacks(d, `12/02/${young}`, 'old', new Map(), []);
    expect(d.data_nascimento?.valor ?? '').toBe('');
    const e: Parameters<typeof applyFallbacks>[0] = { data_validade: { valor: `11/02/${young + 12}`, conf: 0.9 } };
    applyFallbacks(e, '31/05/1984', 'old', new Map(), []);
    expect(e.data_nascimento?.valor).toBe('31/05/1984');
  });
});
