/**
 * A category the held reading of its widened box left unread (issue #17, the thirtieth round): final27 #24,
 * a lone "D" under "9 CAT. HAB." read "p" at 0.46 and, held to A-E in a cut holding the label's print and
 * the card's lines, read as nothing; cut close round its own glyphs it reads "D" at 0.93. final28 #8, a
 * blurred 2022 front: its category label unread, its "C" read "Cc" at 0.67 under a CPF boxed 40 px for
 * 22 px type. final28 #20: the value layer printed low, the category under its label's empty region.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { extractFields } from '../../src/ocr/fields.js';
import { emptyValueRegions } from '../../src/ocr/layout.js';
import { categoryUnderCpf, misreadCategoryUnderCpf } from '../../src/ocr/near-labels.js';
import type { Recognizer } from '../../src/ocr/pool.js';
import type { PreparedImage } from '../../src/ocr/preprocess.js';
import { rereadEmptyValues, rereadSuspects } from '../../src/ocr/second-looks.js';
import { groupPhrases, toPhrase, type OcrWord } from '../../src/ocr/words.js';

const w = (text: string, conf: number, x0: number, y0: number, x1: number, y1: number): OcrWord => ({ text, conf, x0, y0, x1, y1 });
const fields = (words: OcrWord[]) => extractFields(groupPhrases(words), words.map((x) => x.text).join(' ')).campos;

/** A recogniser answering its calls from `answers` in turn (nothing once they run out), counting them. */
function scripted(answers: OcrWord[][]): Recognizer & { calls: number } {
  const rec = {
    calls: 0,
    model: { id: 'npm', langPath: '', gzip: true, pageSqueeze: 0.7 },
    async words(): Promise<OcrWord[]> {
      return answers[rec.calls++] ?? [];
    },
  };
  return rec as Recognizer & { calls: number };
}

/** A white page (900 x 500) with a D-like glyph (a 15 x 22 px ring, 4 px strokes) at (104, 280) when `glyph`. */
async function page(glyph: boolean): Promise<PreparedImage> {
  const ring = '<rect x="106" y="282" width="11" height="18" fill="none" stroke="black" stroke-width="4"/>';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="500"><rect width="900" height="500" fill="white"/>${glyph ? ring : ''}</svg>`;
  const png = await sharp(Buffer.from(svg)).greyscale().png().toBuffer();
  return { png, width: 900, height: 500, quality: {} as PreparedImage['quality'], rotationDeg: 0, light: { unevenness: 0, flattened: false } };
}

/** An older card's labels (13 px) and values (22 px) read well, then its category label and an unsure "p" under it. */
const card = (): OcrWord[] => [
  w('NOME', 0.95, 100, 40, 150, 53), w('ANA', 0.95, 100, 60, 140, 82), w('MARIA', 0.95, 150, 60, 216, 82), w('SOUZA', 0.95, 226, 60, 292, 82),
  w('DOC.', 0.95, 100, 110, 131, 123), w('IDENTIDADE', 0.95, 136, 110, 214, 123),
  w('1234567', 0.95, 100, 130, 192, 152), w('SSP', 0.95, 202, 130, 242, 152), w('SP', 0.95, 252, 130, 278, 152),
  w('DATA', 0.95, 500, 190, 531, 203), w('NASCIMENTO', 0.95, 536, 190, 614, 203), w('01/02/1980', 0.95, 500, 210, 632, 232),
  w('CAT.', 0.95, 100, 260, 131, 273), w('HAB.', 0.95, 136, 260, 167, 273),
  w('p', 0.46, 104, 280, 117, 302),
];

describe('a category read again from its own glyphs, cut close (rereadSuspects, Suspect.inkCut)', () => {
  it('reads the glyph alone when the held reading of the widened box gives nothing', async () => {
    expect(fields(card()).categoria.valor).toBe('');
    // The widened box: nothing. The glyph cut close (twice the size): "D".
    const rec = scripted([[], [w('D', 0.93, 30, 30, 60, 74)]]);
    const out = await rereadSuspects(rec, await page(true), card());
    expect(rec.calls).toBeGreaterThanOrEqual(2);
    expect(fields(out).categoria.valor).toBe('D');
  });
  it('reads nothing more where no glyph of value type is there', async () => {
    const rec = scripted([[], [w('D', 0.93, 30, 30, 60, 74)]]);
    const out = await rereadSuspects(rec, await page(false), card());
    // One held reading of the widened box; no ink, so no second cut: the "D" meant for it is never asked for.
    expect(fields(out).categoria.valor).toBe('');
  });
});

describe("a 2022 front's category without its label, under a blurred CPF", () => {
  // The CPF boxed 40 px tall (a blur's halo) for 22 px value type; the code 22 px.
  const cpf = toPhrase([w('838.485.097-68', 0.9, 343, 508, 556, 548)]);
  const code = (t: string, conf = 0.9): ReturnType<typeof toPhrase> => toPhrase([w(t, conf, 340, 585, 340 + 16 * t.length, 607)]);
  it('is placed when its box is value type against the page\'s type, not the CPF\'s grown box', () => {
    expect(categoryUnderCpf(cpf, [cpf, code('C')], new Set())).toBeUndefined();
    expect(categoryUnderCpf(cpf, [cpf, code('C')], new Set(), 22)?.text).toBe('C');
  });
  it('a misread code in its place ("Cc") is found to be read again; a category or a name is not', () => {
    expect(misreadCategoryUnderCpf(cpf, [cpf, code('Cc', 0.67)], new Set(), 22)?.text).toBe('Cc');
    expect(misreadCategoryUnderCpf(cpf, [cpf, code('C')], new Set(), 22)).toBeUndefined();
    expect(misreadCategoryUnderCpf(cpf, [cpf, code('EDITE')], new Set(), 22)).toBeUndefined();
    expect(misreadCategoryUnderCpf(cpf, [cpf, code('Cc'), code('AB')], new Set(), 22)).toBeDefined();
    expect(misreadCategoryUnderCpf(cpf, [cpf, code('Cc'), code('pB')], new Set(), 22)).toBeUndefined();
  });
});

describe('empty value regions on a page whose values are printed low (emptyValueRegions)', () => {
  // A 2022 front (final16 #26's reading), its values moved down by `dy` px, the category unread under its label.
  const front = (dy: number): OcrWord[] => [
    w('2€', 0.86, 371, 135, 393, 148), w('1', 0.93, 400, 136, 407, 148), w('NOME', 0.93, 414, 135, 463, 148), w('E', 0.96, 470, 135, 479, 148),
    w('SOBRENOME', 0.96, 486, 135, 594, 148), w('RUTE', 0.91, 380, 189 + dy, 460, 209 + dy), w('MARIA', 0.91, 473, 189 + dy, 574, 209 + dy),
    w('3', 0.95, 370, 222, 379, 234), w('DATA,', 0.95, 384, 221, 430, 235), w('LOCAL', 0.95, 437, 221, 490, 234), w('E', 0.95, 497, 222, 506, 234),
    w('UF', 0.96, 513, 221, 534, 234), w('DE', 0.96, 540, 221, 561, 234), w('NASCIMENTO', 0.96, 569, 222, 680, 234),
    w('12/09/1999,', 0.93, 357, 268 + dy, 510, 291 + dy), w('TIMBÓ,', 0.92, 524, 268 + dy, 624, 291 + dy), w('SC', 0.96, 638, 268 + dy, 674, 288 + dy),
    w('4a', 0.92, 373, 296, 391, 308), w('DATA', 0.87, 397, 295, 439, 308), w('EMISSÃO', 0.87, 444, 292, 520, 308), w('4b', 0.90, 721, 299, 739, 312),
    w('VALIDADE', 0.96, 744, 300, 826, 313), w('25/05/2021', 0.96, 346, 341 + dy, 491, 362 + dy), w('25/05/2031', 0.96, 700, 346 + dy, 850, 366 + dy),
    w('4d', 0.59, 373, 461, 390, 473), w('CPF', 0.59, 396, 461, 429, 474), w('Nº', 0.95, 731, 459, 749, 471), w('REGISTRO', 0.95, 754, 458, 841, 471),
    w('618.781.028-77', 0.93, 384, 482 + dy, 609, 505 + dy), w('87675531049', 0.93, 737, 485 + dy, 913, 506 + dy),
    w('9', 0.9, 363, 537, 372, 551), w('CAT.', 0.9, 380, 537, 420, 551), w('HAB.', 0.9, 428, 537, 470, 551),
    w('1ª', 0.9, 721, 539, 739, 551), w('HABILITAÇÃO', 0.9, 750, 536, 863, 553), w('23/10/1987', 0.95, 733, 562 + dy, 891, 585 + dy),
    w('FILIAÇÃO', 0.9, 380, 620, 460, 634),
  ];
  const region = (dy: number) => emptyValueRegions(groupPhrases(front(dy)), 1280, 820).find((r) => r.id === 'categoria');
  it('reaches deeper by the page\'s excess gap, from the same top, and stops before the next label', () => {
    const usual = region(-25)!, low = region(20)!;
    expect(low.top).toBe(usual.top);
    // A category printed 20 px lower than the others' row (as low as this page's values): inside.
    expect(low.top + low.height).toBeGreaterThanOrEqual(560 + 20 + 22);
    expect(low.top + low.height).toBeLessThan(620);
    // As designed (values where the card puts them): the fixed 3.2 label heights, as before.
    expect(usual.height).toBe(Math.round(3.2 * 13));
  });
});

describe('a value read in an empty region, cut by the region\'s left edge (rereadEmptyValues)', () => {
  // An older card read well, its identity label found and nothing under it.
  const words = (): OcrWord[] => card().slice(0, 6).concat(card().slice(9, 12));
  it('keeps a word starting at the cut\'s edge under the low-confidence line, and one clear of it as read', async () => {
    expect(fields(words()).rg.valor).toBe('');
    const cut = await rereadEmptyValues(scripted([[w('971021', 0.92, 14, 20, 100, 42)]]), (await page(false)).png, words(), 900, 500);
    expect(cut.find((x) => x.text === '971021')?.conf).toBe(0.5);
    const clear = await rereadEmptyValues(scripted([[w('187971021', 0.92, 40, 20, 170, 42)]]), (await page(false)).png, words(), 900, 500);
    expect(clear.find((x) => x.text === '187971021')?.conf).toBe(0.92);
  });
});
