/**
 * Anchors found when a card's usual ones are lost (fields.ts extractFields): the issuing state read alone
 * where the DETRAN line stands, a category's line without the security print's tall blobs, the FILIAÇÃO
 * label read a few letters off, the category placed under the CPF's column (categoryUnderCpf), remarks
 * holding EAR told by their shape where their label went unread (remarksWithoutLabel).
 */
import type { Draft } from './checks.js';
import type { FoundLabel, LabelId } from './layout.js';
import { normalizeRemarks, REMARK_CODES } from './codes.js';
import { CATEGORY_SET, UFS } from './normalize.js';
import { editDistance, fold, toPhrase, type OcrWord, type Phrase } from './words.js';

/** Confidence cap of a state read alone where the DETRAN line stands (loneHeaderUf): its DETRAN was not read. */
const LONE_UF_CAP = 0.7;

/**
 * The issuing state read alone above every label found, where the front prints "DETRAN - UF" beside
 * the header (final8 #48: a stain over DETRAN, "PR" read at 0.96 on its own, uf left empty): exactly one
 * such phrase, one word that is one of the 27 states, read at 0.9 or over; kept under the low-confidence
 * line (LONE_UF_CAP), as its DETRAN was not read. Undefined otherwise.
 */
export function loneHeaderUf(phrases: Phrase[], labels: Map<LabelId, FoundLabel>): Draft | undefined {
  if (!labels.size) return undefined;
  const top = Math.min(...[...labels.values()].map((l) => l.phrase.y0));
  const lone = phrases.filter((p) => p.words.length === 1 && p.y1 < top && UFS.has(p.text) && p.words[0].conf >= 0.9);
  return lone.length === 1 ? { valor: lone[0].text, conf: lone[0].words[0].conf, cap: LONE_UF_CAP } : undefined;
}

/** A word of a code's line this many times as tall as its shortest word or more is no code letter (withoutTallCodes). */
const TALL_CODE = 2;

/**
 * A category's line without the words TALL_CODE x as tall as its shortest word or more: the security
 * print's wave beside a category read as a capital boxed 61 px tall beside an "R" of 14 ("R A", whose
 * A became the category at 0.933 for a B: final8 #23, a second reading). Codes on one line are one size.
 */
export function withoutTallCodes(p: Phrase): Phrase {
  const letters = p.words.filter((w) => /[A-Za-z]/.test(w.text));
  if (letters.length < 2) return p;
  // Measured among words with letters (a speck read "." is no measure of the type).
  const low = Math.min(...letters.map((w) => w.y1 - w.y0));
  const keep = p.words.filter((w) => !letters.includes(w) || w.y1 - w.y0 < TALL_CODE * low);
  return keep.length === p.words.length || !keep.length ? p : toPhrase(keep);
}

/** A code's word boxed less than this share of the labels' cap height is doubted (doubtFlatCodes). */
export const FLAT_CODE = 0.5;
/** The confidence a flat code letter keeps at most (under the low-confidence line: it may be a mark). */
export const FLAT_CODE_CAP = 0.5;

/**
 * A code line (remarks, category) with the words boxed under FLAT_CODE x `capH` (px, the labels' cap
 * height, layout.ts labelCapHeight; value type is printed ~1.6 x label type) doubted: such a word without
 * a letter (a dash, a rule's piece) is dropped, a letter keeps at most FLAT_CODE_CAP. A flat box is what
 * a dead printer element's edge or a dash read as a letter has (final13 #22: "E" at 0.91 boxed 3 px high,
 * the card has no remark, its labels' capitals 13 px), but also what the recogniser gives a real remark
 * letter on some readings (final6 #17, #68, final8 #74: "A" boxed 4-6 px for 13 px labels, 0.31-0.46), so
 * it lowers confidence rather than deleting. The phrase unchanged when none is that flat or `capH` is
 * unknown (0); undefined when no word is left.
 */
export function doubtFlatCodes(p: Phrase, capH: number): Phrase | undefined {
  if (!(capH > 0)) return p;
  const flat = (w: Phrase['words'][number]): boolean => w.y1 - w.y0 < FLAT_CODE * capH;
  if (!p.words.some(flat)) return p;
  const keep = p.words.filter((w) => !flat(w) || /\p{L}/u.test(w.text)).map((w) => (flat(w) ? { ...w, conf: Math.min(w.conf, FLAT_CODE_CAP) } : w));
  return keep.length ? toPhrase(keep) : undefined;
}

/** Most edits FILIAÇÃO may be read off by and still stand for the label (nearFiliacao). */
const FILIACAO_EDITS = 3;

/**
 * A phrase that is the FILIAÇÃO label read a few letters off (at most FILIACAO_EDITS, accents and
 * marks aside: "FUAÇÃO" for FILIAÇÃO on a blurred card, the blurred LI read as U), one word of six
 * letters or more alone on its line, no label already: as a FoundLabel, or undefined. A parent's line
 * is two words or more (a lone word fails the name check); a surname the recogniser broke off its line
 * (FALCÃO, 3 edits away) has the rest of the line beside it.
 */
export function nearFiliacao(phrases: Phrase[], labelPhrases: Set<Phrase>): FoundLabel | undefined {
  // Alone: nothing on its line near it (noise read at the card's far edge is not the rest of a name's line).
  const near = (o: Phrase, q: Phrase): boolean => Math.max(o.x0 - q.x1, q.x0 - o.x1) < ALONE_REACH * q.h;
  const alone = (q: Phrase): boolean => !phrases.some((o) => o !== q && near(o, q) && Math.min(o.y1, q.y1) - Math.max(o.y0, q.y0) > 0.5 * Math.min(o.y1 - o.y0, q.y1 - q.y0));
  // In the labels' left column: starting within a few of its heights of a found label's start.
  const inColumn = (q: Phrase): boolean => [...labelPhrases].some((l) => Math.abs(l.x0 - q.x0) < COLUMN_REACH * q.h);
  const p = phrases.find((q) => {
    if (labelPhrases.has(q) || q.words.length !== 1) return false;
    const t = fold(q.text).replace(/[^A-Z]/g, '');
    if (t.length >= 6 && editDistance(t, 'FILIACAO') <= FILIACAO_EDITS && alone(q)) return true;
    // A short word ending in -AÇÃO (at most FILIAÇÃO's 8 letters: final6 #79's heading read "PLANTAÇÃO"
    // is not it): of a CNH's labels only FILIAÇÃO and HABILITAÇÃO end so, and
    // HABILITAÇÃO is longer ("MAÇÃO" for FILIAÇÃO, final10 #35; "ALAÇÃO", #79).
    return /ACAO$/.test(t) && t.length >= 5 && t.length <= 8 && editDistance(t, 'FILIACAO') < editDistance(t, 'HABILITACAO') && alone(q) && inColumn(q);
  });
  return p ? { id: 'filiacao', phrase: p } : undefined;
}
/** How far (in the word's heights) another phrase on its line counts as beside it (nearFiliacao). */
const ALONE_REACH = 10;
/** How far (in the word's heights) from a found label's start a short -AÇÃO word counts as in the labels' column. */
const COLUMN_REACH = 3;

/** Confidence cap of a category placed under the CPF's column with its label unread (categoryUnderCpf): its role is the layout's word, not a label's. */
export const PLACED_CODE_CAP = 0.75;
/** How far under the CPF's value (its heights) the category's value may start: one label row between them (4.0-4.3 measured on final17's 2022 fronts). */
const CODE_BELOW_CPF = 6;
/** A placed category's box at least this share of the CPF value's height (labels print ~0.6 of a value's type). */
const CODE_TYPE_SHARE = 0.8;
/** Least confidence of a placed category's every word. */
export const PLACED_CODE_CONF = 0.5;

/**
 * The category on a 2022 card's front whose "9 CAT. HAB." label went unread (read "=, “e.", "vet a\"":
 * final17 #6, #24): the front prints it in the CPF's column, one label row under the CPF's value (4d CPF,
 * then 9 CAT. HAB., then FILIAÇÃO with the parents' full lines). The one phrase, under `cpf` (the CPF's
 * value phrase) by at most CODE_BELOW_CPF of its heights and starting within one of them of its start,
 * whose text is a category exactly (normalize.ts CATEGORY_SET, no other mark), boxed as tall as value
 * type (CODE_TYPE_SHARE) and read at PLACED_CODE_CONF or over; undefined when none or two such. Phrases
 * taken by a label are skipped.
 */
export function categoryUnderCpf(cpf: Phrase | undefined, phrases: Phrase[], labelPhrases: Set<Phrase>, typeH = 0): Phrase | undefined {
  const found = underCpf(cpf, phrases, labelPhrases, typeH).filter((p) => CATEGORY_SET.has(p.text.trim()) && p.words.every((w) => w.conf >= PLACED_CODE_CONF));
  return found.length === 1 ? found[0] : undefined;
}

/**
 * Phrases placed where categoryUnderCpf looks, boxed as tall as value type: CODE_TYPE_SHARE of the CPF's
 * box, or of the page's value type `typeH` (words.ts valueHeight, 0: unknown) where that is less (a
 * blurred CPF boxed 40 px for 22 px type: final28 #8).
 */
function underCpf(cpf: Phrase | undefined, phrases: Phrase[], labelPhrases: Set<Phrase>, typeH: number): Phrase[] {
  if (!cpf) return [];
  const h = cpf.y1 - cpf.y0, type = typeH > 0 ? Math.min(h, typeH) : h;
  return phrases.filter((p) => !labelPhrases.has(p) && p !== cpf && p.y0 >= cpf.y1 && p.y0 - cpf.y1 <= CODE_BELOW_CPF * h && Math.abs(p.x0 - cpf.x0) <= h
    && p.y1 - p.y0 >= CODE_TYPE_SHARE * type);
}

/** A date as the card prints it, one word (the licence row's validity and first-licence dates). */
const DATE_WORD = /^\d{2}\/\d{2}\/\d{4}$/;
/** Two dates are on one row when their tops differ by less than this share of the page's value type. */
const SAME_ROW = 0.6;
/**
 * How far above the licence dates' row (value type heights, from the code's foot to the dates' tops) the
 * older card's category may stand: one row of labels between them (2.2-2.9 measured on final29's older fronts).
 */
const CODE_ABOVE_DATES = 4;

/**
 * The older front's licence row (Nº REGISTRO, VALIDADE, 1ª HABILITAÇÃO): the one row of two or more date
 * words side by side (tops within SAME_ROW of value type `typeH`; the birth date's row holds one, the back's
 * issue date is alone): its top and its right date (the first licence's); undefined when no such row or two,
 * or `typeH` unknown (0).
 */
function licenceRow(phrases: Phrase[], typeH: number): { top: number; right: OcrWord } | undefined {
  if (typeH <= 0) return undefined;
  const dates = phrases.flatMap((p) => p.words).filter((w) => DATE_WORD.test(w.text));
  const rows: OcrWord[][] = [];
  for (const d of dates) {
    const row = rows.find((r) => Math.abs(r[0].y0 - d.y0) < SAME_ROW * typeH);
    if (row) row.push(d);
    else rows.push([d]);
  }
  const paired = rows.filter((r) => r.length >= 2);
  if (paired.length !== 1) return undefined;
  const row = paired[0];
  return { top: Math.min(...row.map((d) => d.y0)), right: row.reduce((a, d) => (d.x0 > a.x0 ? d : a)) };
}

/**
 * The older card's category with its "CAT. HAB." label unread (final29 #3, #15: "CA mas", "es imo"; the
 * code "AB", "AD" read at 0.96): that front prints PERMISSÃO, ACC and CAT. HAB. on one row, over the row of
 * Nº REGISTRO, VALIDADE and 1ª HABILITAÇÃO (licenceRow), the category at its right end, right of where the
 * first licence's date starts (PERMISSÃO and ACC are blank on a licence). So the one phrase, not a label's,
 * that is a category (CATEGORY_SET), every word read at PLACED_CODE_CONF or over, boxed as tall as value
 * type (CODE_TYPE_SHARE of `typeH`, words.ts valueHeight), whose foot is at most CODE_ABOVE_DATES type
 * heights over the licence row's top and which starts a type height or more right of the row's right
 * date. Undefined when there is no such row, or none or two such phrases. The caller caps it under the
 * low-confidence line (PLACED_CODE_CAP).
 */
export function categoryAboveDates(phrases: Phrase[], labelPhrases: Set<Phrase>, typeH: number): Phrase | undefined {
  const row = licenceRow(phrases, typeH);
  if (!row) return undefined;
  const { top, right } = row;
  const found = phrases.filter((p) => !labelPhrases.has(p) && CATEGORY_SET.has(p.text.trim()) && p.words.every((w) => w.conf >= PLACED_CODE_CONF)
    && p.y1 - p.y0 >= CODE_TYPE_SHARE * typeH && p.y1 <= top && top - p.y1 <= CODE_ABOVE_DATES * typeH && p.x0 >= right.x0 + typeH);
  return found.length === 1 ? found[0] : undefined;
}

/** The place categoryPlace reads spans this many value type heights right of the first licence's date... */
const CODE_PLACE_WIDTH = 10;
/** ...and from this many over the licence row's top down to CODE_PLACE_FOOT over it (the row's labels between). */
const CODE_PLACE_TOP = 4.2;
const CODE_PLACE_FOOT = 1;

/**
 * Where categoryAboveDates found nothing on an older front (its label and its code both unread: final29 #33,
 * #55, "(AT as", "Utas" for CAT. HAB. and no word under it): the place the code stands in, to be read
 * again held to the categories' letters (fields.ts suspects). A box from a type height right of the
 * licence row's right date (its "1ª HABILITAÇÃO" label ends about where the date does) CODE_PLACE_WIDTH
 * type heights wide, from CODE_PLACE_TOP to CODE_PLACE_FOOT type heights over the row; as a phrase
 * without words. Undefined without a licence row.
 */
export function categoryPlace(phrases: Phrase[], typeH: number): Phrase | undefined {
  const row = licenceRow(phrases, typeH);
  if (!row) return undefined;
  const { top, right } = row;
  const x0 = right.x1 + typeH, y0 = top - CODE_PLACE_TOP * typeH, y1 = top - CODE_PLACE_FOOT * typeH;
  return { words: [], text: '', x0, y0, x1: x0 + CODE_PLACE_WIDTH * typeH, y1, h: y1 - y0 };
}

/** A code misread: one word of one to three letters, no category ("Cc" for C, "p" for D). */
const MISREAD_CODE = /^[A-Za-z]{1,3}$/;

/**
 * Where categoryUnderCpf found nothing: the one phrase in its place that has a misread code's shape
 * (MISREAD_CODE) but is no category, to be read again held to the categories' letters (fields.ts
 * suspects; final28 #8, a blurred 2022 front: "9 CAT. HAB." unread, its C read "Cc" at 0.67). The new
 * reading is then one categoryUnderCpf can take (placed, capped under the low-confidence line).
 * Undefined when none or two such.
 */
export function misreadCategoryUnderCpf(cpf: Phrase | undefined, phrases: Phrase[], labelPhrases: Set<Phrase>, typeH = 0): Phrase | undefined {
  const found = underCpf(cpf, phrases, labelPhrases, typeH).filter((p) => MISREAD_CODE.test(p.text.trim()) && !CATEGORY_SET.has(p.text.trim()));
  return found.length === 1 ? found[0] : undefined;
}

/** Least confidence of every word of remarks placed without their label (remarksWithoutLabel). */
const LONE_REMARK_CONF = 0.9;

/**
 * Remarks whose "OBSERVAÇÕES" label went unread, told by their own shape: the one phrase on the page
 * (not a label's) that is remark codes only (codes.ts REMARK_CODES after normalizeRemarks) holding EAR,
 * every word read at LONE_REMARK_CONF or over. EAR is no Portuguese word and nothing else on a CNH
 * prints it; a lone capital is not taken (single letters are too common in noise and on the card's
 * print). The 2022 back under glare or blur (final27 #50, #52: "12 OBSERVAÇÕES" unread, "EAR" read at
 * 0.93-0.96 above LOCAL). Undefined when none or two such phrases. The caller caps it under the
 * low-confidence line (PLACED_CODE_CAP): its role is its shape's word, not a label's.
 */
export function remarksWithoutLabel(phrases: Phrase[], labelPhrases: Set<Phrase>): Phrase | undefined {
  const found = phrases.filter((p) => {
    if (labelPhrases.has(p) || !p.words.every((w) => w.conf >= LONE_REMARK_CONF)) return false;
    const codes = normalizeRemarks(p.text);
    return REMARK_CODES.test(codes) && codes.split(' ').includes('EAR');
  });
  return found.length === 1 ? found[0] : undefined;
}
