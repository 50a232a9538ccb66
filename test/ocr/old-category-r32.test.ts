/**
 * An older front's category with its "CAT. HAB." label unread (issue #17, the thirty-first round). final29
 * #3 and #15: the label read "CA mas" and "es imo", the code "AB", "AD" read at 0.96 and left out; #33 and
 * #55: the label read "(AT as", "Utas" and nothing read under it, though a lone "A", "AB" stands there.
 * The older front prints its category at the right end of the PERMISSÃO / ACC / CAT. HAB. row, over the
 * row of the registration number and the validity and first-licence dates (near-labels.ts
 * categoryAboveDates, categoryPlace; code-ink.ts codeInkIn).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { extractFields } from '../../src/ocr/fields.js';
import { categoryAboveDates, categoryPlace } from '../../src/ocr/near-labels.js';
import { CATEGORY_ALPHABET } from '../../src/ocr/codes.js';
import type { Recognizer } from '../../src/ocr/pool.js';
import type { PreparedImage } from '../../src/ocr/preprocess.js';
import { rereadSuspects } from '../../src/ocr/second-looks.js';
import { groupPhrases, toPhrase, type OcrWord } from '../../src/ocr/words.js';

const w = (text: string, conf: number, x0: number, y0: number, x1: number, y1: number): OcrWord => ({ text, conf, x0, y0, x1, y1 });
const fields = (words: OcrWord[]) => extractFields(groupPhrases(words), words.map((x) => x.text).join(' ')).campos;

/** final29 #3's reading of an older front (a photo, DejaVu Sans), its category "AB" left out. */
const front = (): OcrWord[] => [
  w('nom', 0.43, 364, 144, 410, 157), w('ĒLMA', 0.60, 381, 180, 451, 203), w('VEIGA', 0.91, 460, 182, 540, 203), w('PURIFICAÇÃO', 0.96, 550, 179, 723, 208), w('DOC', 0.73, 370, 227, 403, 239),
  w('TANTIDADE', 0.33, 423, 228, 516, 240), w('/', 0.69, 526, 223, 537, 249), w('ORG', 0.51, 540, 227, 574, 240), w('EMISSOR', 0.72, 587, 228, 661, 241), w('|', 0.17, 670, 223, 676, 249),
  w('UI', 0.48, 681, 228, 699, 240), w('2034668', 0.95, 389, 259, 501, 281), w('DETRAN', 0.96, 513, 260, 617, 281), w('GO', 0.96, 629, 260, 667, 281), w('os', 0.83, 371, 302, 397, 315),
  w('DATA', 0.91, 714, 305, 754, 317), w('NASCIMENTO', 0.65, 763, 305, 874, 319), w('476.290.526-77', 0.85, 383, 341, 590, 362), w('09/04/2002', 0.96, 734, 342, 883, 364), w('IUAÇÃO', 0.00, 366, 384, 437, 397),
  w('GEDEÃO', 0.91, 383, 416, 493, 442), w('CASTANHEIRA', 0.93, 503, 421, 686, 442), w('CANÉDO', 0.91, 694, 418, 807, 443), w('NATÉRCIA', 0.91, 383, 456, 510, 477), w('ÉLCIA', 0.90, 520, 453, 593, 478),
  w('AZEREDO', 0.93, 603, 457, 729, 478), w('VEIGA', 0.92, 739, 457, 819, 479), w('DAS', 0.34, 49, 504, 316, 507), w('PMAMSSÃO', 0.30, 369, 525, 464, 537), w('x', 0.76, 713, 528, 727, 538),
  w('CA', 0.61, 991, 526, 1019, 537), w('mas', 0.23, 1033, 526, 1064, 537), w('NT', 0.33, 37, 599, 54, 610), w('REG', 0.02, 63, 599, 133, 610), w('TRO', 0.50, 143, 599, 149, 609),
  w('VALIOADA', 0.51, 421, 603, 497, 615), w('VENABAITAÇÃO', 0.00, 723, 607, 854, 622), w('11208072850', 0.91, 49, 633, 227, 655), w('19/02/2035', 0.96, 437, 635, 581, 657), w('01/06/2024', 0.96, 733, 635, 881, 657),
  w('OBSLAVAÇÕES', 0.09, 41, 699, 164, 715), w('REPÚBLICA', 0.90, 56, 31, 166, 46), w('FEDERATIVA', 0.90, 174, 31, 296, 46), w('DO', 0.90, 304, 31, 331, 46), w('BRASIL', 0.90, 340, 31, 409, 46),
  w('MINISTÉRIO', 0.90, 53, 56, 170, 71), w('DAS', 0.90, 179, 56, 217, 71), w('CIDADES', 0.90, 226, 56, 311, 71), w('NACIONAL', 0.90, 220, 85, 321, 100), w('DE', 0.90, 331, 85, 353, 100),
  w('TRÂNSITO', 0.90, 364, 85, 464, 100), w('CARTEIRA', 0.90, 57, 105, 176, 126), w('NACIONAL', 0.90, 187, 105, 310, 126), w('DE', 0.90, 321, 105, 350, 126), w('HABILITAÇÃO', 0.90, 363, 105, 524, 126),
];
/** The code as #3's page pass read it: at the row's right end, over the first licence's date. */
const code = (t = 'AB', conf = 0.96, x0 = 1011): OcrWord => w(t, conf, x0, 565, x0 + 35, 585);

describe("an older front's category read, its label not", () => {
  it('is placed from the licence row under it, capped under the low-confidence line', () => {
    expect(fields(front()).categoria.valor).toBe('');
    const c = fields([...front(), code()]).categoria;
    expect(c.valor).toBe('AB');
    expect(c.confianca).toBeLessThan(0.8);
    expect(c.confianca).toBeGreaterThan(0.5);
  });
  it('is not placed left of the first licence\'s date (ACC\'s place) or when two codes stand there', () => {
    expect(fields([...front(), code('A', 0.96, 713)]).categoria.valor).toBe('');
    expect(fields([...front(), code(), code('B', 0.96, 1100)]).categoria.valor).toBe('');
    const ps = [toPhrase([code()])];
    expect(categoryAboveDates(ps, new Set(), 22)).toBeUndefined();
    const row = [toPhrase([w('19/02/2035', 0.96, 437, 635, 581, 657)]), toPhrase([w('01/06/2024', 0.96, 733, 635, 881, 657)])];
    expect(categoryAboveDates([...ps, ...row], new Set(), 22)?.text).toBe('AB');
    // The birth date's row holds one date: no licence row, nothing placed.
    expect(categoryAboveDates([...ps, row[1]], new Set(), 22)).toBeUndefined();
    // Too far over the row (past one label row between).
    expect(categoryAboveDates([toPhrase([w('AB', 0.96, 1011, 465, 1046, 485)]), ...row], new Set(), 22)).toBeUndefined();
  });
});

/** A recogniser that reads the category's place as nothing and the glyphs cut close as `ink`; other calls: nothing. */
function holdingCodes(ink: OcrWord[]): Recognizer & { held: number } {
  const rec = {
    held: 0,
    model: { id: 'npm', langPath: '', gzip: true, pageSqueeze: 0.7 },
    async words(_img: Buffer, _psm?: unknown, whitelist?: string): Promise<OcrWord[]> {
      if (whitelist !== CATEGORY_ALPHABET) return [];
      return rec.held++ === 0 ? [] : ink;
    },
  };
  return rec as Recognizer & { held: number };
}

/** A white page (1300 x 720) with an A-like glyph (16 x 22 px) at the category's place when `glyph`. */
async function page(glyph: boolean): Promise<PreparedImage> {
  const a = '<path d="M1011 585 L1019 563 L1027 585" fill="none" stroke="black" stroke-width="4"/><rect x="1014" y="577" width="10" height="3"/>';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1300" height="720"><rect width="1300" height="720" fill="white"/>${glyph ? a : ''}</svg>`;
  const png = await sharp(Buffer.from(svg)).greyscale().png().toBuffer();
  return { png, width: 1300, height: 720, quality: {} as PreparedImage['quality'], rotationDeg: 0, light: { unevenness: 0, flattened: false } };
}

describe("an older front's category unread with its label", () => {
  it('has its place found over the licence row, right of the first licence\'s date', () => {
    const place = categoryPlace(groupPhrases(front()), 22);
    expect(place).toBeDefined();
    expect(place!.x0).toBeGreaterThan(881);
    expect(place!.y1).toBeLessThan(635);
    expect(place!.x0).toBeLessThan(1011);
    expect(place!.y0).toBeLessThan(565);
  });
  it('reads the lone glyph there, cut close, when the place read whole gives nothing', async () => {
    const rec = holdingCodes([w('A', 0.88, 10, 10, 40, 54)]);
    const out = await rereadSuspects(rec, await page(true), front());
    expect(rec.held).toBe(2);
    const c = fields(out).categoria;
    expect(c.valor).toBe('A');
    expect(c.confianca).toBeLessThan(0.8);
  });
  it('reads nothing more where no glyph is there', async () => {
    const rec = holdingCodes([w('A', 0.88, 10, 10, 40, 54)]);
    const out = await rereadSuspects(rec, await page(false), front());
    expect(rec.held).toBe(1);
    expect(fields(out).categoria.valor).toBe('');
  });
});
