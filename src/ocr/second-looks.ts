/**
 * Second looks at parts of a prepared page the page pass read badly (index.ts recognizeImage), each a
 * small cut of the prepared image read again with a segmentation suited to it: boxes that swallowed two
 * lines (rereadMergedLines), values missing under found labels (rereadEmptyValues), values that failed
 * their format (rereadSuspects) and unsure lone letters (rereadLoneLetters). Each costs one recognition
 * of a small cut and runs only where the page pass left something wrong, with a cap per page. Cuts
 * come from cuts.ts; doubts raised about values read sure (no value replaced) are in value-doubts.ts.
 */
import sharp from 'sharp';
import { passesOwnCheck } from './checks.js';
import { CATEGORY_ALPHABET, isCategoryReading, isRemarkReading } from './codes.js';
import { codeInk, codeInkIn, glyphsAfter } from './code-ink.js';
import { normalizeCategory } from './normalize.js';
import { extractFields } from './fields.js';
import { emptyValueRegions, findLabels, labelCapHeight, labelHeight, valueBelow } from './layout.js';
import { SEGMENTATION, type Recognizer } from './pool.js';
import type { PreparedImage } from './preprocess.js';
import { editDistance, groupPhrases, valueHeight, type OcrWord, type Phrase } from './words.js';
import { tGlyphs, wordGlyphs, type Gray } from './glyph-i.js';
import { mendMarks } from './glyph-accent.js';
import { mendTildeN } from './glyph-tilde-n.js';
import { mendInkMarks } from './glyph-below.js';
import { inkLettersLost, inkMarksOnly } from './glyph-marks.js';
import { mendDottedZeros } from './glyph-zero.js';
import { mendRemarkEF } from './glyph-e-f.js';
import { mendMiddleDots } from './glyph-middle-dot.js';
import { HAS_TEXT, enlarged, grayOf, grownBox, paddedCut, leadingInk, placed, withoutRules } from './cuts.js';
import { doubtIdentityNumber, lostLineEnds } from './value-doubts.js';

/** Words of a second look under an empty label read over this confidence are kept (rereadEmptyValues). */
const SURE_CONF = 0.75;

/** Gap (value type heights) after which ink right of a code's first run of ink is no part of it (rereadEmptyValues, cuts.ts leadingInk). */
const CODE_GAP = 3;

/** A word read in an empty region starting this close (px) to the region's left edge was cut by it. */
const CUT_EDGE_PX = 3;
/** Confidence at most of a word cut by its region's edge (rereadEmptyValues). */
const CUT_EDGE_CONF = 0.5;

/**
 * Second look, one text line at a time, under labels whose value the page pass missed: each region is
 * cut out (on its side of `splitX`), padded with 12 px of white and read as a single line; words over
 * SURE_CONF (0.75) are kept, or all the words read when only together they pass the field's own check
 * (checks.ts passesOwnCheck: check digits, a real date, a category in capitals). A region that still
 * gives none is read once more cleaned (cleanCut), and a category still unread once more with the
 * recogniser held to A-E (codes.ts CATEGORY_ALPHABET): one or two more recognitions of a small cut,
 * only for values still missing.
 */
export async function rereadEmptyValues(rec: Recognizer, png: Buffer, words: OcrWord[], widthPx: number, heightPx: number, splitX?: number): Promise<OcrWord[]> {
  const regions = emptyValueRegions(groupPhrases(words), widthPx, heightPx);
  const typeH = valueHeight(words);
  const extra: OcrWord[] = [];
  for (const r of regions) {
    // Not across the gap between two sides: a region mostly right of `splitX` starts at it (a code's
    // region reaches 3 label heights left of its label, which may be past the gap), one left of it ends before it.
    const leftSide = splitX !== undefined && r.left + r.width / 2 < splitX;
    const left = splitX !== undefined && !leftSide ? Math.max(r.left, Math.round(splitX)) : r.left;
    const right = leftSide ? Math.min(r.left + r.width, (splitX as number) - 30) : r.left + r.width;
    if (right - left < 10) continue;
    const code = r.id === 'categoria' || r.id === 'observacoes';
    // A code's lone letter is read with a rule or the card's edge beside it as one word: rules whitened (cuts.ts withoutRules).
    const padded = await paddedCut(png, { left, top: r.top, width: right - left, height: r.height });
    const cut = code ? await withoutRules(padded, r.height, typeH) : padded;
    const text = (ws: OcrWord[]): string => ws.map((w) => w.text).join(' ');
    // The words read over SURE_CONF; or every word read, when together they pass the field's own check
    // and the sure ones alone do not (a CPF read in two pieces at 0.05 each: final3 part).
    const kept = (ws: Array<OcrWord & { confirmed?: boolean }>): OcrWord[] => {
      const all = ws.filter((w) => HAS_TEXT.test(w.text)), sure = all.filter((w) => w.conf > SURE_CONF || w.confirmed);
      return !passesOwnCheck(r.id, text(sure)) && passesOwnCheck(r.id, text(all)) ? all : sure;
    };
    const lineWords = await rec.words(cut, SEGMENTATION.line);
    const codeWords = code ? await codeLetters(rec, cut, lineWords, typeH) : lineWords;
    let found = kept(codeWords).map((w) => placed(w, left, r.top));
    // Still nothing: once more cleaned (cleanCut), boxes scaled back; not when cleaning left no ink,
    // nor where a code region's only capital was too tall to be a code (the print under it was read).
    const tallOnly = codeWords.length < lineWords.length && !codeWords.some((w) => /^[A-Z]$/.test(w.text));
    const clean = found.length || tallOnly ? null : await cleanCut(cut);
    if (clean) found = kept(await rec.words(clean, SEGMENTATION.line)).map((w) => placed(w, left, r.top, CLEAN_SCALE));
    // A code still unread with ink far to its right (a stain, a glare's speckle): the cleaned cut's first run of ink alone (cuts.ts leadingInk).
    const lead = !found.length && code && clean && typeH > 0 ? await leadingInk(clean, CODE_GAP * typeH * CLEAN_SCALE) : null;
    if (lead) found = kept(await rec.words(lead, SEGMENTATION.line)).map((w) => placed(w, left, r.top, CLEAN_SCALE));
    // A category still unread (it is always printed): once more, the recogniser held to its letters.
    if (!found.length && r.id === 'categoria') {
      const ws = (await rec.words(cut, SEGMENTATION.line, CATEGORY_ALPHABET)).filter((w) => HAS_TEXT.test(w.text));
      if (passesOwnCheck(r.id, text(ws))) found = ws.map((w) => placed(w, left, r.top));
    }
    // A word starting at the cut's left edge (not the page's, nor the gap between two sides) was cut by
    // it: the value began left of the region (final26 #80: the RG 187971021 read "971021" at 0.92 from a
    // region reaching deeper on a page printing its values low). Kept, under the low-confidence line.
    // (Reading the region again from 2.5-4 value heights further left was tried on #80: the card's edge
    // beside the RG read "l187971021" at 0.19 or worse, never the number; not kept.)
    const sideEdge = splitX !== undefined && !leftSide && left === Math.round(splitX);
    const atEdge = (w: OcrWord): boolean => left > 0 && !sideEdge && w.x0 <= left + CUT_EDGE_PX;
    for (const { confirmed: _, ...w } of found as Array<OcrWord & { confirmed?: boolean }>) extra.push({ ...w, conf: atEdge(w) ? Math.min(w.conf, CUT_EDGE_CONF) : w.conf, reread: true });
  }
  return extra.length ? [...words, ...extra] : words;
}

/**
 * A code letter (a category or remark capital) boxed this many times the page's value type or more
 * is no printed code: the security print under an empty remark read as an "E" 45 px tall at 0.91
 * where the values are 20 px (final4 #35, a card without remarks); a blurred code's box grows less
 * (an "A" 34 px at 20: final4 #31).
 */
const CODE_TALL = 2;

/**
 * The words of a code's region (category, remarks) read as one line, with two corrections for lone
 * capitals: one boxed CODE_TALL x the value type or taller (valueHeight `typeH`; 0: unknown) is dropped,
 * and one read under SURE_CONF beside words all read over it is read again alone as a single word (a code letter has
 * no word around it for the language model: "EAR A" read "EAR" 0.95 and "A" 0.33 as a line, the A 0.82
 * alone: final4 #31); the single-word reading replaces it when it is one capital read over SURE_CONF.
 * One more recognition of a letter-sized cut per unsure capital, in code regions only.
 */
async function codeLetters(rec: Recognizer, cut: Buffer, ws: OcrWord[], typeH: number): Promise<Array<OcrWord & { confirmed?: boolean }>> {
  const lone = (w: OcrWord): boolean => /^[A-Z]$/.test(w.text);
  const out: Array<OcrWord & { confirmed?: boolean }> = [];
  let size: { width?: number; height?: number } | undefined;
  for (const w of ws) {
    if (lone(w) && typeH > 0 && w.y1 - w.y0 >= CODE_TALL * typeH) continue;
    // Only a letter that is the line's one doubt: with other unsure words beside it (final4 #15: "EAR"
    // 0.31, "A" 0.31), the line is left to the cleaned look as before.
    const othersSure = ws.length > 1 && ws.every((x) => x === w || x.conf > SURE_CONF);
    if (!lone(w) || w.conf > SURE_CONF || !othersSure) {
      out.push(w);
      continue;
    }
    // The cut's size only when a letter is read again (most code regions have none).
    size ??= await sharp(cut).metadata();
    const { width = 1, height = 1 } = size;
    const m = Math.round(0.3 * (w.y1 - w.y0));
    const l = Math.max(0, Math.floor(w.x0 - m)), t = Math.max(0, Math.floor(w.y0 - m));
    const box = { left: l, top: t, width: Math.min(width - l, Math.ceil(w.x1 - w.x0 + 2 * m)), height: Math.min(height - t, Math.ceil(w.y1 - w.y0 + 2 * m)) };
    if (box.width < 4 || box.height < 8) {
      out.push(w);
      continue;
    }
    const alone = await rec.words(await paddedCut(cut, box), SEGMENTATION.word);
    const again = alone.length === 1 ? alone[0] : undefined;
    // Read alone as one capital over SURE_CONF, or as the same letter (either case: the blurred A of
    // final4 #31 read "a" 0.70) at CONFIRMED_CONF or over: taken at its single-word confidence.
    if (again && lone(again) && again.conf > SURE_CONF) out.push({ ...w, text: again.text, conf: again.conf });
    else if (again && again.text.toUpperCase() === w.text && again.conf >= CONFIRMED_CONF) out.push({ ...w, conf: again.conf, confirmed: true });
    else out.push(w);
  }
  return out;
}

/**
 * A code capital read unsure in its line and read again alone as the same letter (case aside) at least
 * this sure is kept though under SURE_CONF: two readings agree, and a lone glyph reads less sure than a
 * word (the remark A after EAR reads 0.69-0.76 on the seen parts: doubts.ts valueConfidence).
 */
const CONFIRMED_CONF = 0.6;

/** Upscaling of cleanCut. */
const CLEAN_SCALE = 2;
/**
 * Fewest black pixels of a cleaned cut worth reading: a value-size capital's single stroke at twice the
 * size is ~40 x 6 px; specks the median left are a few pixels each.
 */
const CLEAN_MIN_INK = 100;

/**
 * A cut made plain for a last look: twice the size (a lone capital such as a category "C" at value
 * size is read "Cc" at 0.69 and "C" at 0.81 at twice it: final part), a 3 x 3 median (the speckle of a
 * dark, noisy corner goes; strokes stay) and black/white at mid-gray (the page is contrast-stretched:
 * ink near 0, paper near 255). A remark "F" on such a corner read as noise ("FED AAA CAES", under 0.3)
 * reads "F" at 0.82. Null when no ink is left (an empty region: no recognition).
 */
async function cleanCut(cut: Buffer): Promise<Buffer | null> {
  const { width = 1 } = await sharp(cut).metadata();
  const big = await sharp(cut).resize({ width: width * CLEAN_SCALE, kernel: 'cubic' }).png().toBuffer();
  const { data, info } = await sharp(big).median(3).threshold(128).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  let ink = 0;
  for (const v of data) if (v === 0) ink++;
  if (ink < CLEAN_MIN_INK) return null;
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } }).png().toBuffer();
}

/** Enlargement of a code's glyphs cut close (rereadSuspects, Suspect.inkCut). */
const INK_CUT_SCALE = 2;

/**
 * Values whose reading failed its format or check are read again as one line from their own box (padded
 * by 30% of its height and 12 px of white), with the recogniser held to the suspect's `whitelist` where it
 * has one (a code's letters, a number's digits), enlarged `scale` times where it says so (a name word
 * that seems to have lost its accent); the new words replace the old only when they pass (and are as
 * sure as its `minConf`).
 */
export async function rereadSuspects(rec: Recognizer, prep: PreparedImage, words: OcrWord[]): Promise<OcrWord[]> {
  const page = await grayOf(prep);
  words = mendReadT(page, words);
  // Marks are judged on value-size words only: a label's marks are a few pixels (EMISSÃO's tilde named a circumflex).
  const typeH = valueHeight(words);
  const valueSized = (w: OcrWord): boolean => typeH > 0 && w.y1 - w.y0 >= VALUE_TYPE_SHARE * typeH;
  words = lostLineEnds(page, mendMiddleDots(page, mendTildeN(page, mendInkMarks(page, mendMarks(page, mendDottedZeros(page, words, valueSized), valueSized), valueSized), valueSized), valueSized));
  // The page's words as its full text: the card's model is told by its words too (layout.ts detectModel), as
  // the final reading tells it (a 2022 front with its labels unread was read as an older one here: final29 #50).
  const { suspects } = extractFields(groupPhrases(words), words.map((w) => w.text).join(' '));
  let out = words;
  for (const s of suspects) {
    const p = s.phrase;
    const box = grownBox(p, prep);
    if (box.width < 8 || box.height < 8) continue;
    let scale = s.scale ?? 1;
    const cut = await enlarged(await paddedCut(prep.png, box), scale);
    // Accented capitals are letters too: a remark "EAR A" read "EAR À" lost its code when "À" was dropped here.
    let found = (await rec.words(cut, SEGMENTATION.line, s.whitelist)).filter((w) => HAS_TEXT.test(w.text));
    let left = box.left;
    const accepted = (ws: OcrWord[]): boolean => ws.length > 0 && s.accept(ws.map((w) => w.text).join(' ')) && (s.minConf === undefined || ws.every((w) => w.conf >= s.minConf!));
    // A code still unread: once more from its own ink, cut close and at twice the size (the label's print
    // and the card's lines above a lone "D" left the held line reading empty, the glyph alone reads "D"
    // at 0.93: final27 #24; a blurred "C" cut close reads "C" at 0.27, at twice the size at 0.87: final28 #8).
    // A place without words (a code's place, nothing read there) is searched whole for its one chain.
    const ink = !accepted(found) && s.inkCut && typeH > 0 ? (p.words.length ? codeInk(page, (p.x0 + p.x1) / 2, (p.y0 + p.y1) / 2, typeH) : codeInkIn(page, p, typeH)) : undefined;
    const inkBox = ink ? grownBox(ink, prep) : undefined;
    if (inkBox && inkBox.width >= 8 && inkBox.height >= 8) {
      found = (await rec.words(await enlarged(await paddedCut(prep.png, inkBox), INK_CUT_SCALE), SEGMENTATION.line, s.whitelist)).filter((w) => HAS_TEXT.test(w.text));
      left = inkBox.left;
      scale = INK_CUT_SCALE;
    }
    if (!accepted(found)) continue;
    // A held reading one letter away from the first (a code "FARA" 0.89 read "EARA" at 0.00 held to
    // capitals: final4 #11) keeps the first's confidence, at most the suspect's `closeCap`: a whitelist
    // leaves tesseract unsure of the letters it forced, though the ink was read clearly.
    const squeeze = (t: string): string => t.replace(/\s+/g, '');
    const oldConf = p.words.reduce((a, w) => a + w.conf, 0) / p.words.length;
    const close = s.closeCap !== undefined && editDistance(squeeze(p.text), squeeze(found.map((w) => w.text).join(''))) <= 1;
    const conf = (w: OcrWord): number => (close ? Math.max(w.conf, Math.min(oldConf, s.closeCap!)) : w.conf);
    // Same line, same place: boxes follow the old phrase so the layout reading is unchanged.
    const y0 = p.y0, y1 = p.y1;
    const replaced = inkLettersLost(p.text, mendInkMarks(page, found.map((w) => ({ ...placed(w, left, 0, scale), conf: conf(w), reread: true, y0, y1 })), valueSized));
    // A re-reading that differs only by dropping letters the ink wrote (final17 #36: SKUJIŅA at 0.6 re-read "SKUJINA" at 0.903) is no better.
    if (inkMarksOnly(p.words.map((w) => w.text).join(' '), replaced.map((w) => w.text).join(' '))) continue;
    out = [...out.filter((w) => !p.words.includes(w)), ...replaced];
  }
  const remarks = codeLineUnder('observacoes', out);
  if (remarks) out = mendRemarkEF(page, out, remarks.p);
  return doubtIdentityNumber(rec, prep, lostRemarkCodes(page, await lostCodeLetters(rec, prep, page, out)));
}

/**
 * Remarks (observacoes) whose ink holds more letters than were read: more glyphs (glyph-i.ts wordGlyphs)
 * in the words' boxes than letters, or a glyph of value type starting within a space or so after the
 * last word (code-ink.ts glyphsAfter). final9 #0's "EAR" for EAR A at 0.93, a clean card with italic
 * values: the box took the A after a narrow space, the recogniser dropped it. The remark lost a code, so
 * its words fall to LOST_LETTER_CONF. Nothing is read again (the lone-letter look had its chance): only pixels are looked at.
 */
export function lostRemarkCodes(page: Gray, words: OcrWord[]): OcrWord[] {
  const line = codeLineUnder('observacoes', words);
  if (!line || !isRemarkReading(line.p.text)) return words;
  const { p, typeH } = line;
  const last = p.words.reduce((a, w) => (w.x1 > a.x1 ? w : a));
  // More glyphs in the words' boxes than letters read (final9 #0: "EAR" boxed over E, A, R and the A
  // after the space, an italic space of 7 px), or a glyph after the last word.
  const glyphs = p.words.reduce((n, w) => n + wordGlyphs(page, w).length, 0);
  const read = p.text.replace(/[^A-Za-zÀ-ÿ]/g, '').length;
  if (glyphs <= read && !glyphsAfter(page, last.x1, (last.y0 + last.y1) / 2, typeH)) return words;
  return words.map((w) => (p.words.includes(w) ? { ...w, conf: Math.min(w.conf, LOST_LETTER_CONF) } : w));
}

/**
 * Confidence given to the words of a category whose ink holds more letters than were read and which a
 * held reading did not mend: the value then ends under the low-confidence line after its passed check
 * (0.6 x 0.5 + 0.4 = 0.7).
 */
const LOST_LETTER_CONF = 0.5;

/**
 * The one value line under a code's label (`id`: the category or the remarks) among the page's `words`,
 * and the page's value type height (words.ts valueHeight, the line's own height without enough words);
 * undefined when the label is unread or not exactly one line stands under it.
 */
function codeLineUnder(id: 'categoria' | 'observacoes', words: OcrWord[]): { p: Phrase; typeH: number } | undefined {
  const phrases = groupPhrases(words);
  const labels = findLabels(phrases);
  const label = labels.get(id);
  if (!label) return undefined;
  const labelPhrases = new Set([...labels.values()].map((l) => l.phrase));
  const ps = valueBelow(label, phrases, labelPhrases, 1, labelHeight(labels), labelCapHeight(labels));
  return ps.length === 1 ? { p: ps[0], typeH: valueHeight(words) || ps[0].h } : undefined;
}

/**
 * A category read with fewer letters than its ink holds (code-ink.ts codeInk: "A" or "E" for AE at
 * 0.97, final5 #31, #54): the chain of glyphs is read again as one line held to A-E; a category with as
 * many letters as the ink replaces the reading, otherwise the reading's words fall to LOST_LETTER_CONF.
 * One small recognition, only where letters were lost.
 */
async function lostCodeLetters(rec: Recognizer, prep: PreparedImage, page: Gray, words: OcrWord[]): Promise<OcrWord[]> {
  const line = codeLineUnder('categoria', words);
  const code = line ? normalizeCategory(line.p.text) : '';
  if (!line || !code) return words;
  const { p, typeH } = line;
  const ink = codeInk(page, (p.x0 + p.x1) / 2, (p.y0 + p.y1) / 2, typeH);
  if (!ink || ink.letters <= code.length) return words;
  const box = grownBox(ink, prep);
  const found = box.width >= 8 && box.height >= 8 ? (await rec.words(await paddedCut(prep.png, box), SEGMENTATION.line, CATEGORY_ALPHABET)).filter((w) => HAS_TEXT.test(w.text)) : [];
  const text = found.map((w) => w.text).join('');
  const rest = words.filter((w) => !p.words.includes(w));
  if (isCategoryReading(text) && normalizeCategory(text).length === ink.letters) {
    return [...rest, ...found.map((w) => ({ ...placed(w, box.left, box.top), reread: true }))];
  }
  return [...rest, ...p.words.map((w) => ({ ...w, conf: Math.min(w.conf, LOST_LETTER_CONF) }))];
}

/** A capital word of value type (letters, apostrophes, hyphens, a trailing comma) holding a T. */
const CAPITAL_T_WORD = /^(?=.*T)[A-ZÀ-ÖØ-Þ'-]{2,},?$/;
/** Value type is at least this share of valueHeight (labels are about half of it). */
const VALUE_TYPE_SHARE = 0.75;

/**
 * A capital I the recogniser read as T (glyph-i.ts): every T of a value-size capital word whose glyph
 * is as wide at its foot as at its top is an I ("TVO" for IVO: final4 #68, Liberation Mono); the word
 * keeps its confidence (its other letters were read as before). Nothing is read again: only the
 * page's pixels are looked at, for words with a T.
 */
export function mendReadT(g: Gray, words: OcrWord[]): OcrWord[] {
  const typeH = valueHeight(words);
  const cands = words.filter((w) => typeH > 0 && CAPITAL_T_WORD.test(w.text) && w.y1 - w.y0 >= VALUE_TYPE_SHARE * typeH);
  if (!cands.length) return words;
  const mended = new Map<OcrWord, OcrWord>();
  for (const w of cands) {
    const chars = [...w.text];
    let changed = false;
    for (const [i, v] of tGlyphs(g, w)) if (v === 'I') { chars[i] = 'I'; changed = true; }
    // "TIVANI" for IVANI: the I's top serif read as a T before the I itself; no word starts with two I's.
    if (changed) mended.set(w, { ...w, text: chars.join('').replace(/^II(?=[^I])/, 'I') });
  }
  return mended.size ? words.map((w) => mended.get(w) ?? w) : words;
}

/** A lone letter read with less confidence than this is looked at again as a single word. */
const LONE_LETTER_CONF = 0.9;
/**
 * At most this many lone letters are re-read per page, the least confident first: a card prints a few
 * (category, remark codes), and a crafted page full of lone letters must not hold a recogniser for one
 * recognition per letter (recognition has no time budget of its own; decoding has).
 */
export const MAX_LONE_LETTER_REREADS = 8;

/**
 * Third look, at lone capital letters (remark and category codes such as "F" are printed alone): the
 * sparse page pass and single-line reading of tessdata_fast take a lone F for E, the Portuguese word
 * "e" (tuning part: 3 of 44 remarks, read at confidence 0.62-0.84; F at 0.84-0.87 as a single word).
 * Each lone letter under LONE_LETTER_CONF is cut out (padded by 30% of its height and 12 px of white)
 * and read as a single word; a single letter read more confidently replaces it, in the same box. At
 * most MAX_LONE_LETTER_REREADS letters, the least confident first.
 */
export async function rereadLoneLetters(rec: Recognizer, prep: PreparedImage, words: OcrWord[]): Promise<OcrWord[]> {
  const out = [...words];
  const lone = groupPhrases(words)
    .filter((p) => p.words.length === 1 && /^[A-Z]$/.test(p.words[0].text) && p.words[0].conf < LONE_LETTER_CONF)
    .map((p) => p.words[0])
    .sort((a, b) => a.conf - b.conf)
    .slice(0, MAX_LONE_LETTER_REREADS);
  for (const w of lone) {
    const box = grownBox(w, prep);
    if (box.width < 4 || box.height < 8) continue;
    const cut = await paddedCut(prep.png, box);
    const found = await rec.words(cut, SEGMENTATION.word);
    if (found.length !== 1 || !/^[A-Z]$/.test(found[0].text) || found[0].conf <= w.conf) continue;
    out[out.indexOf(w)] = { ...w, text: found[0].text, conf: found[0].conf };
  }
  return out;
}

/** A phrase this many times the value type's height or more was read over two lines (rereadMergedLines). */
const MERGED_HEIGHT = 1.6;
/** Such a phrase is re-read only when one of its words is this unsure (a clean tall box is a real word). */
const MERGED_CONF = 0.6;
/** At most this many merged phrases are re-read per page, the least confident first. */
export const MAX_MERGED_REREADS = 4;

/**
 * Boxes that swallowed two text lines: the sparse page pass sometimes takes a label and the value
 * under it (or a value and the glare next to it) for one word, a box twice the value type tall read
 * with next to no confidence ("4d CPF" over "554.724.510-00" read " S54.724.510-00" at 0; FILIAÇÃO
 * over a father's name read "Ffáno"), and both the label and the value are lost. Each phrase at least
 * MERGED_HEIGHT x the value type (valueHeight) with a word under MERGED_CONF is cut out (its own box,
 * grown sideways by half the value type, padded with 12 px of white) and read as a block of lines.
 * Its words give way to the new ones (their own boxes) when these are surer on the whole and either
 * split it into lower lines or read it clearly better (by 0.2). At most MAX_MERGED_REREADS phrases,
 * the least confident first.
 */
export async function rereadMergedLines(rec: Recognizer, prep: PreparedImage, words: OcrWord[]): Promise<OcrWord[]> {
  const ref = valueHeight(words);
  if (!ref) return words;
  const mean = (ws: OcrWord[]): number => ws.reduce((s, w) => s + w.conf, 0) / Math.max(1, ws.length);
  const merged = groupPhrases(words)
    .filter((p) => p.h >= MERGED_HEIGHT * ref && p.words.some((w) => w.conf < MERGED_CONF) && /[A-Za-z0-9]/.test(p.text))
    .sort((a, b) => mean(a.words) - mean(b.words))
    .slice(0, MAX_MERGED_REREADS);
  let out = words;
  for (const p of merged) {
    // The box already spans the lines it swallowed: grown sideways only (by half the value type), so
    // that no part of the lines above and below is read into it.
    const left = Math.max(0, Math.floor(p.x0 - ref / 2)), top = Math.max(0, Math.floor(p.y0));
    const box = { left, top, width: Math.min(prep.width - left, Math.ceil(p.x1 - p.x0 + ref)), height: Math.min(prep.height - top, Math.ceil(p.y1 - p.y0)) };
    if (box.width < 8 || box.height < 8) continue;
    const cut = await paddedCut(prep.png, box);
    const read = (await rec.words(cut, SEGMENTATION.block)).filter((w) => HAS_TEXT.test(w.text));
    // Surer on the whole than the first reading, or kept: a label read well beside a value read worse
    // ("CPF" 0.92, "802" 0.08, ".961.881-66" 0.08 against "802.961.881-66" 0.54) would lose the value.
    if (!read.length || mean(read) <= mean(p.words)) continue;
    const found = read.filter((w) => w.conf >= 0.3).map((w) => placed(w, box.left, box.top));
    if (!found.length) continue;
    const tallest = Math.max(...found.map((w) => w.y1 - w.y0));
    if (tallest >= 0.75 * p.h && mean(found) < mean(p.words) + 0.2) continue;
    out = [...out.filter((w) => !p.words.includes(w)), ...found];
  }
  return out;
}
