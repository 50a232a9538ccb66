/**
 * The mark over a capital, told by its ink (issue #17, tenth round). The recogniser confuses the marks
 * Portuguese prints over capitals: a tilde read as an acute ("KAUÁ" for KAUÃ at 0.81 and 0.74: final7
 * #0 and #12), an acute as a circumflex. Where spelling leaves the choice open (KAUÃ and KAUÁ are both
 * names; orthography.ts fixes only what spelling decides), the mark's own shape decides:
 * - an acute (´) is one stroke that rises to the right: its ink's height climbs steadily across it;
 * - a tilde (~) is a wave: up over its left half, down over its right, wider than it is tall;
 * - a circumflex (^) is a roof: up to its middle, then down.
 * The mark's size says which shapes it can be (an acute is narrow; ink taller or wider than any mark is
 * none). Each column's ink centre gives its profile (its height per column), compared with the three
 * shapes' (Pearson correlation): a shape the size allows is named only when it is the best fit of the
 * three, fits well, and clearly better than the next allowed one. Pure functions on a gray page.
 */
import { blobs, correlation, otsu, wordGlyphs, type Blob, type Gray } from './glyph-i.js';
import { levelBar, risesLikeStack, tildeLetter, waveClass } from './glyph-tilde.js';
import type { OcrWord } from './words.js';

export type Mark = 'acute' | 'tilde' | 'circumflex';

/** A shape is named when its profile's correlation is at least this... */
export const MARK_MIN_FIT = 0.4;
/** ...and at least this much above the next shape's that the mark's size allows. */
export const MARK_MARGIN = 0.25;
/** Marks narrower than this (px) have too few columns for a profile... */
const MARK_MIN_WIDTH = 5;
/** ...and marks shorter than this (px) too few rows (a 2-row tilde's profile is a step). */
const MARK_MIN_HEIGHT = 3;
/**
 * An acute is narrow: at most this share of its letter's height wide (measured: 0.12-0.37, tildes
 * 0.35-0.55, circumflexes 0.30-0.58 of capitals 18-21 px high; final6 and final8 parts)...
 */
export const ACUTE_MAX_WIDTH = 0.4;
/** ...and at most this many times as wide as it is tall (acutes 0.6-1.7, tildes 1.75-3.3, circumflexes 1.4-2.3). */
export const ACUTE_MAX_ASPECT = 2;
/** A tilde or a circumflex is at least this share of its letter's height wide... */
const WIDE_MIN_WIDTH = 0.3;
/** ...and at least this many times as wide as tall. */
const WIDE_MIN_ASPECT = 1.4;
/**
 * A mark is at most this share of its letter's height tall (measured: 0.1-0.28)... Ink above a word that
 * is taller or wider is no mark: the security print's wave passing over the word, or a glare's edge,
 * read as a tilde (APOLINÁRIO read APOLINÃRIO at 0.857 from a 20 x 8 px wave, final6 #51, before this).
 */
export const MARK_MAX_HEIGHT = 0.32;
/** ...and at most this share wide (measured: tildes up to 0.58). */
export const MARK_MAX_WIDTH = 0.65;
/**
 * Under this letter height (px) a mark is a few pixels: its shape is not judged (measured values: 18-27
 * px; labels 12-15; the bold heading HABILITAÇÃO's 16-17 px capitals, whose 3-row tilde is all stroke and
 * was named a circumflex or an acute).
 */
export const MIN_LETTER_HEIGHT = 18;

/** The three shapes' profiles at n columns (height of the ink centre, arbitrary units). */
function templates(n: number): Record<Mark, number[]> {
  const t = (k: number): number => (n === 1 ? 0.5 : k / (n - 1));
  const cols = Array.from({ length: n }, (_, k) => t(k));
  return {
    acute: cols.map((u) => u),
    tilde: cols.map((u) => Math.sin(2 * Math.PI * u)),
    circumflex: cols.map((u) => 1 - Math.abs(2 * u - 1)),
  };
}

/** How well a mark's ink fits each shape, its box (px), and the shape named (undefined: it does not tell). */
export interface MarkFit { fits: Record<Mark, number>; mark?: Mark; width: number; height: number }

/**
 * The shape of a mark over a letter `letterHeight` px high, from its ink (`px`: indices into a page
 * `width` pixels wide). Its size says which shapes it can be (an acute is narrow, a tilde or circumflex
 * wide: ACUTE_MAX_WIDTH, WIDE_MIN_WIDTH); its profile (the height, upwards, of each column's ink centre)
 * says which of those it is, when the best fits at least MARK_MIN_FIT and MARK_MARGIN above the next.
 * A mark too small for a profile (under MARK_MIN_WIDTH columns) is not named: a circumflex that lost a
 * leg to the threshold is as narrow as an acute (TRÊS, final5).
 */
export function markShape(px: number[], width: number, letterHeight: number): MarkFit {
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  for (const p of px) {
    const x = p % width, y = Math.floor(p / width);
    x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
  }
  const w = x1 - x0 + 1, h = y1 - y0 + 1;
  const fits: Record<Mark, number> = { acute: 0, tilde: 0, circumflex: 0 };
  if (!px.length) return { fits, width: 0, height: 0 };
  if (w >= MARK_MIN_WIDTH) {
    const sum = new Float64Array(w), count = new Uint32Array(w);
    for (const p of px) { const k = (p % width) - x0; sum[k] += Math.floor(p / width); count[k]++; }
    const cols: number[] = [], profile: number[] = [];
    for (let k = 0; k < w; k++) if (count[k]) { cols.push(k); profile.push(-(sum[k] / count[k])); }
    const t = templates(w);
    for (const m of Object.keys(fits) as Mark[]) fits[m] = correlation(profile, cols.map((k) => t[m][k]));
  }
  const mark = nameMark(fits, w, h, letterHeight);
  return { fits, width: w, height: h, ...(mark ? { mark } : {}) };
}

/**
 * The shape named from a mark's profile fits and its box (`w` x `h` px) over a letter `letterHeight` px
 * high (markShape's rules); undefined when it does not tell.
 */
export function nameMark(fits: Record<Mark, number>, w: number, h: number, letterHeight: number): Mark | undefined {
  if (letterHeight < MIN_LETTER_HEIGHT || h < MARK_MIN_HEIGHT || h > MARK_MAX_HEIGHT * letterHeight || w > MARK_MAX_WIDTH * letterHeight) return undefined;
  const acuteSized = w <= ACUTE_MAX_WIDTH * letterHeight && w <= ACUTE_MAX_ASPECT * h;
  const wideSized = w >= WIDE_MIN_WIDTH * letterHeight && w >= WIDE_MIN_ASPECT * h;
  if (w < MARK_MIN_WIDTH) return undefined;
  const allowed = (Object.keys(fits) as Mark[]).filter((m) => (m === 'acute' ? acuteSized : wideSized)).sort((a, b) => fits[b] - fits[a]);
  const [best, next] = allowed;
  // The shape the size allows must also be the best fit of the three: a 2-row tilde whose profile climbs
  // like an acute's (0.61) and half fits a roof (0.51) is not named a circumflex (HABILITAÇÃO, tuning part).
  const bestOfAll = best !== undefined && (Object.keys(fits) as Mark[]).every((m) => fits[m] <= fits[best]);
  return bestOfAll && fits[best] >= MARK_MIN_FIT && (next === undefined || fits[best] - fits[next] >= MARK_MARGIN) ? best : undefined;
}

/** Capitals with a mark above, by base letter and mark. */
const MARKED: Record<string, Partial<Record<Mark, string>>> = {
  A: { acute: 'Á', tilde: 'Ã', circumflex: 'Â' },
  E: { acute: 'É', circumflex: 'Ê' },
  O: { acute: 'Ó', tilde: 'Õ', circumflex: 'Ô' },
  I: { acute: 'Í' },
  U: { acute: 'Ú' },
};
export const BASE_OF: Record<string, { base: string; mark: Mark }> = Object.fromEntries(
  Object.entries(MARKED).flatMap(([base, ms]) => Object.entries(ms).map(([m, c]) => [c, { base, mark: m as Mark }])),
);

/** How far above its letter (x the letter's height) a mark is looked for. */
export const MARK_REACH = 0.7;
/** A mark's foot is at most this far (x the letter's height) above its letter's top. */
export const MARK_GAP = 0.4;

/** A mark joined to its letter stands at least this share of the letters' height (and 3 px) above their top. */
export const JOINED_RISE = 0.15;

/** The marks' ink over a word of capitals: its glyphs, their median height and top, and the blobs above. */
export interface MarkInk { glyphs: Blob[]; letterH: number; top: number; marks: Blob[] }

/**
 * The blobs of ink just above a word's letters (within MARK_GAP of their median top, MARK_REACH high at
 * most, and the part of a glyph rising JOINED_RISE above that top: a mark joined to its letter), left to
 * right, split from the paper by the letters' and that space's own threshold; undefined when the word has
 * no glyphs or no room above.
 */
export function markInk(g: Gray, w: Pick<OcrWord, 'x0' | 'y0' | 'x1' | 'y1'>): MarkInk | undefined {
  const glyphs = wordGlyphs(g, w);
  if (!glyphs.length) return undefined;
  const heights = glyphs.map((b) => b.y1 - b.y0 + 1).sort((a, b) => a - b);
  const letterH = heights[Math.floor(heights.length / 2)];
  // The capitals' top: their glyphs' median top, not the highest, so a mark joined to its letter (bold
  // type, a squeezed page: final13 #48's MARIÊME, its grave one blob with the E) stands above it.
  const tops = glyphs.map((b) => b.y0).sort((a, b) => a - b), top = tops[Math.floor(tops.length / 2)];
  const x0 = glyphs[0].x0, x1 = glyphs[glyphs.length - 1].x1;
  const y0 = Math.max(0, Math.floor(Math.min(tops[0], top - MARK_REACH * letterH))), y1 = top - 1;
  if (y1 - y0 < 2) return undefined;
  // The split of the letters and the space above them together: the marks' ink against the paper.
  const t = otsu(g, x0, y0, x1, Math.max(...glyphs.map((b) => b.y1)));
  // Ink reaching down to the capitals' top is a joined mark only where it rises JOINED_RISE above it (a
  // word's tops lean by a pixel or two on a tilted page).
  const joinedRise = Math.max(3, JOINED_RISE * letterH);
  const marks = blobs(g, x0, y0, x1, y1, t)
    .filter((b: Blob) => top - b.y1 <= MARK_GAP * letterH && b.px.length >= 4 && (b.y1 < top - 1 || top - b.y0 >= joinedRise))
    .sort((a, b) => a.x0 - b.x0);
  return { glyphs, letterH, top, marks };
}

/** A mark's shape (markShape), its slant (markSlant) and its letters' height (px). */
export interface InkFit extends MarkFit { slant: number; letterH: number; joined?: boolean; wave?: 'wave' | 'leaning'; level?: boolean }

/**
 * The mark over each marked capital (Á, Ã, Â, É, Ê, Ó, Õ, Ô, Í, Ú) of a capital word, by its ink: keys
 * are indices into `w.text`. The marks are the blobs of ink just above the word's letters (markInk),
 * taken left to right; they are paired with the marked capitals in order only
 * when there are as many of them as marked capitals (letters may touch: "KA" in DejaVu Sans is one blob,
 * its marks are still apart). A mark whose shape does not tell is kept with no `mark`; each fit carries
 * its stroke's slant (markSlant).
 */
export function marksOf(g: Gray, w: OcrWord): Map<number, InkFit> {
  const out = new Map<number, InkFit>();
  // A trailing comma (a town before its state) is no glyph of the word's height: wordGlyphs leaves it out.
  const chars = [...w.text.replace(/,$/, '')];
  const marked = chars.map((c, i) => (c in BASE_OF || c in GRAVE_BASE ? i : -1)).filter((i) => i >= 0);
  if (!marked.length || chars.some((c) => !/[A-ZÀ-ÖØ-Þ]/.test(c))) return out;
  const ink = markInk(g, w);
  if (!ink || ink.marks.length !== marked.length) return out;
  marked.forEach((i, k) => out.set(i, { ...markShape(ink.marks[k].px, g.width, ink.letterH), slant: markSlant(g, ink.marks[k], ink.top), letterH: ink.letterH, joined: ink.marks[k].y1 >= ink.top - 1, wave: risesLikeStack(g, ink.marks[k]) ? undefined : waveClass(g, ink.marks[k], ink.letterH), ...(levelBar(g, ink.marks[k], ink.letterH) ? { level: true } : {}) }));
  return out;
}

/**
 * A mark's slant: the correlation, over its box grown by 2 px each side and 1 px up and down (never
 * within 2 px of its letter's top), of each pixel's column with its height, each pixel weighted by how
 * much darker it is than the box's paper (its lightest level) less 20 levels. A stroke rising to the
 * right (an acute) is near +1, one falling to the right (a grave) near -1, a roof or a wave (circumflex,
 * tilde, two dots) near 0. Weighted by gray levels, not by the threshold's pixels, it holds for marks
 * 3 or 4 px wide, too narrow for markShape's profile, and for a circumflex whose leg fell under the
 * threshold. Measured on words drawn in DejaVu and Liberation (Sans, Serif, Mono) at 24-34 px, blurred
 * 0-1.2 px, JPEG quality 90 and 40: graves -0.81..-0.23 (median -0.63), acutes 0.31..0.82 (0.63),
 * circumflexes -0.10..0.07.
 */
export function markSlant(g: Gray, m: Pick<Blob, 'x0' | 'y0' | 'x1' | 'y1'>, letterTop: number): number {
  const X0 = Math.max(0, m.x0 - 2), X1 = Math.min(g.width - 1, m.x1 + 2);
  const Y0 = Math.max(0, m.y0 - 1), Y1 = Math.min(m.y1 + 1, letterTop - 2);
  let paper = 0;
  for (let y = Y0; y <= Y1; y++) for (let x = X0; x <= X1; x++) paper = Math.max(paper, g.data[y * g.width + x]);
  let sw = 0, sx = 0, sy = 0;
  for (let y = Y0; y <= Y1; y++) for (let x = X0; x <= X1; x++) {
    const v = Math.max(0, paper - g.data[y * g.width + x] - 20);
    sw += v; sx += v * x; sy += v * y;
  }
  if (!sw) return 0;
  const mx = sx / sw, my = sy / sw;
  let sxy = 0, sxx = 0, syy = 0;
  for (let y = Y0; y <= Y1; y++) for (let x = X0; x <= X1; x++) {
    const v = Math.max(0, paper - g.data[y * g.width + x] - 20);
    sxy += v * (x - mx) * (y - my); sxx += v * (x - mx) ** 2; syy += v * (y - my) ** 2;
  }
  // Rows count downwards on the page: a stroke rising to the right has x and y falling together.
  return sxx > 0 && syy > 0 ? -sxy / Math.sqrt(sxx * syy) : 0;
}

/**
 * A stroke falling to the right over an A or O read with a roof or a wave (inkLetter) is looked at down
 * to capitals this tall (px): the values' capitals on the cards are 13-21 px high.
 */
export const FALL_MIN_LETTER_HEIGHT = 13;
/** Under MIN_LETTER_HEIGHT such a stroke must fall at least this clearly (markSlant <= -0.45). */
export const FALL_SMALL_SLANT = 0.45;

/** A slant at least this far from 0 is a single slanted stroke: an acute (> 0) or a grave (< 0)... */
export const SLANT_CLEAR = 0.3;
/** ...one under this far from 0 is no slanted stroke (a roof, a wave); in between the ink does not tell. */
export const SLANT_FLAT = 0.15;
/** A mark read as an acute over capitals under MIN_LETTER_HEIGHT that slants less than this either way does not lean (inkLetter): no acute. */
export const LEVEL_SLANT = 0.1;
/** ...when it is at least this wide, px (a speck of 2-3 px has no slant to speak of): the word is doubted... */
export const LEVEL_MIN_PX = 4;
/**
 * ...and over an E it is written Ê when at least this share of the capitals' height wide: roofs read as acutes
 * were 6-8 px wide over 21 px capitals (final30 #14, final29 #3); an acute a phone's zoom or night-mode denoiser
 * smoothed into a level blob 4-5 px (final30 #3's ALCIDÉIA, 4 x 2 and 5 x 2 px; #78's CLÉIA, 4 x 3), as was
 * final30 #26's roof (5 x 3).
 */
export const LEVEL_MIN_WIDTH = 0.27;

/**
 * The capitals with a grave accent, by base letter: French and Italian names carry them (MARIÈME,
 * NADÈGE, YOLÈNE), the Portuguese model cannot write any but À (its unicharset's capitals with a mark
 * are Á À Â Ã Ç É Ê Í Ó Ô Õ Ú: no È Ì Ò Ù, no Ë Ï Ö Ü, no Ñ, no Å).
 */
export const GRAVE: Record<string, string> = { A: 'À', E: 'È', I: 'Ì', O: 'Ò', U: 'Ù' };
const GRAVE_BASE: Record<string, string> = Object.fromEntries(Object.entries(GRAVE).map(([b, c]) => [c, b]));
/** The capitals with a mark that the Portuguese model (tessdata 4.0.0 por, LSTM unicharset) can write. */
export const MODEL_MARKED = 'ÁÀÂÃÉÊÍÓÔÕÚ';
/**
 * A word given a letter the recogniser cannot write (È from a grave's ink) keeps at most this confidence,
 * as an Ñ does (glyph-tilde-n.ts TILDE_N_CAP): the ink's word alone does not make such a letter sure; and
 * so does a word whose mark the ink contradicts without telling which it is. A value's confidence is about
 * the mean of its words' and its weakest's: (1 + 0.6) / 2 = 0.8 stays under the low-confidence line.
 */
export const INK_LETTER_CAP = 0.6;

/**
 * The letter the ink shows for a capital `c` read with a mark (Á, Ê, À...) whose mark's shape is `fit`
 * and slant `slant` over a letter `letterH` px high, and whether the ink contradicts the read mark without
 * telling which it is (`doubt`):
 * - a profile named another mark that the base letter takes (markShape): that letter, unless a clear
 *   slant says a single stroke (a grave's falling profile half fits a wave);
 * - a narrow mark (acute-sized: at most 0.4 of the letter's height wide) slanting clearly (SLANT_CLEAR)
 *   the other way than the read mark, or slanting clearly where a roof or a wave was read: the acute or
 *   grave letter (É for "Ê", È for "Ê" or "É");
 * - a narrow mark slanting less clearly against the read mark: doubt.
 */
export function inkLetter(c: string, fit: MarkFit & { joined?: boolean; wave?: 'wave' | 'leaning'; level?: boolean }, slant: number, letterH: number): { letter?: string; doubt?: boolean } {
  const read: { base: string; mark: string } | undefined = BASE_OF[c] ?? (GRAVE_BASE[c] ? { base: GRAVE_BASE[c], mark: 'grave' } : undefined);
  if (!read || letterH < FALL_MIN_LETTER_HEIGHT) return {};
  // A wave by its gray levels (glyph-tilde.ts waveClass: no roof, acute, grave, macron, caron or breve drawn
  // passed) over a letter read with a roof, not rising like a roof with a tone stacked on it
  // (risesLikeStack, in marksOf): its base with a tilde, doubted (twenty-fifth round: Guarani's ARAJẼ
  // read "ARAJÊ" at 0.81-0.88; Ẽ is no letter the model writes). Over an A or O only where the profile
  // named nothing (the profile's own rules below keep their letters there). Under an acute or a grave
  // read only over a letter that takes no double acute (not O, U): a double acute run into one blob
  // (KŐRÖSI read "KÓRÖSI", blurred) leaves a wave too; ARAJẼ read "ARAJÉ" (final23 #6, #51, #56) is taken.
  const waved = fit.wave === 'wave' && (read.mark === 'circumflex' || (read.mark !== 'tilde' && !'OU'.includes(read.base))) && (!'AO'.includes(read.base) || !fit.mark) ? tildeLetter(read.base) : undefined;
  if (waved) return { letter: waved, doubt: true };
  // A level bar (glyph-tilde.ts levelBar: no roof, no wave, no slanted stroke) over a letter read with a
  // roof, an acute or a grave: a macron, which the model cannot write (twenty-sixth round: Hawaiian's
  // kahakō, PŌHAKU read "PÔHAKU", PŪKUI "PÚKUI" at 0.8-0.9 on final24): its letter written (Ā Ē Ī Ō Ū),
  // doubted. No roof, acute or grave is level, so the reading was wrong whatever the bar is. Over a letter
  // read with a tilde it only doubts the word: a tilde whose wave the pixels flattened is as level, and a
  // Portuguese Ã Õ read right must not be rewritten.
  if (fit.level) {
    const macron = (read.base + '\u0304').normalize('NFC');
    return read.mark !== 'tilde' && [...macron].length === 1 ? { letter: macron, doubt: true } : { doubt: true };
  }
  // A tilde is a wave that rises overall to the right: blurred or a few pixels wide, it slants like an
  // acute. The slant is taken only where no tilde can be: over an E, I or U, or between an acute and a
  // grave read over an A or O (Ã, Õ and their circumflexes are left to the profile).
  const slanted = !'AO'.includes(read.base) || read.mark === 'acute' || read.mark === 'grave';
  const acuteSized = acuteSizedMark(fit, letterH);
  const narrow = slanted && acuteSized;
  // A narrow stroke falling clearly to the right is no roof (level) and no wave (a tilde rises overall):
  // over an A or O read with either it is a grave (final15 #80, #86: NICOLÒ read "NICOLÔ" at 0.86 and
  // 0.88, the mark 4-5 px wide over 19-20 px capitals, slant -0.44 and -0.65). The read mark is overruled
  // by the slant alone, so the word is doubted; on type under MIN_LETTER_HEIGHT it is only doubted, no
  // letter given, and only for a slant of FALL_SMALL_SLANT or more (6 x 3 and 6 x 4 px tildes in
  // Liberation Serif at 16 px, JPEG 40, slanted -0.39 and -0.32).
  const roofFalls = !slanted && acuteSized && slant <= -SLANT_CLEAR;
  // An acute read over a mark that does not lean is no acute (slant under LEVEL_SLANT on capitals under
  // MIN_LETTER_HEIGHT, where an acute's is 0.15-0.42; under SLANT_FLAT from it, where an acute's is 0.31 or
  // more): where no profile is judged (small capitals) or where the profile named nothing (a roof narrower
  // than its height's 0.3, blurred, fits neither shape). Over an E, as wide as a roof, it is one (the
  // Portuguese Ê; nothing else level sits on an E that the model writes), doubted; narrower, or over another
  // letter, the word is doubted only: a phone's zoom or night-mode denoiser smooths an acute into a level blob
  // as wide. (Thirty-second round: CAMPÊLO read "CAMPÉLO" at 0.91-0.92 on final30 #14, #26, #77, #14's roof
  // 6 x 5 px over 21 px capitals, joined to it, slant 0.03, profile circumflex 0.82 acute 0.29.) A mark whose
  // profile named a shape is left to the rules below: joined acutes whose profile named a roof were as level
  // (final29 #3's ÉLMA 9 x 3 px, slant 0.08, circumflex 0.92; #53's MÉRCIA 10 x 4, 0.06, 0.84) as the joined
  // roof of #3's CANÊDO (8 x 4, 0.08, 0.88), which stays read "CANÉDO".
  const level = Math.abs(slant) < (letterH < MIN_LETTER_HEIGHT ? LEVEL_SLANT : SLANT_FLAT);
  if (read.mark === 'acute' && level && fit.width >= LEVEL_MIN_PX && (letterH < MIN_LETTER_HEIGHT || !fit.mark)) {
    return read.base === 'E' && fit.width >= LEVEL_MIN_WIDTH * letterH ? { letter: 'Ê', doubt: true } : { doubt: true };
  }
  if (letterH < MIN_LETTER_HEIGHT) return roofFalls && slant <= -FALL_SMALL_SLANT ? { doubt: true } : {};
  const stroke: 'acute' | 'grave' | undefined = roofFalls ? 'grave' : !narrow ? undefined : slant >= SLANT_CLEAR ? 'acute' : slant <= -SLANT_CLEAR ? 'grave' : undefined;
  // A clear falling stroke is a grave whatever the profile says (a profile has no grave; a falling one
  // half fits a wave's first half); a clear rising one over a letter read with another mark is an acute,
  // and over one read with an acute the profile may still say a wave (KAUÃ read "KAUÁ").
  if (stroke === 'grave' || (stroke === 'acute' && read.mark !== 'acute')) {
    if (stroke === read.mark) return {};
    const letter = stroke === 'grave' ? GRAVE[read.base] : MARKED[read.base]?.acute;
    return letter ? { letter, ...(roofFalls ? { doubt: true } : {}) } : { doubt: true };
  }
  // A joined mark's profile is cut at the capitals' top (its legs' feet lost), and a clear acute is no
  // roof: the profile then names no circumflex (final13 #30, #52, #55: CISSÉ, THÉLUSMA made "CISSÊ",
  // "THÊLUSMA", one at 0.877, before this).
  if (fit.mark && fit.mark !== read.mark && !(fit.mark === 'circumflex' && (fit.joined || stroke === 'acute'))) {
    const letter = MARKED[read.base]?.[fit.mark];
    // A roof or a wave read, an acute named by the profile alone: a roof that lost a leg or a wave cut
    // short leaves an acute's profile too (final5 #15: UCHÔA made "UCHÓA" at 0.932, #14 TRÊS made
    // "TRÉS", final6 #56 ABRAÃO made "ABRAÁO"), so the swap is made but doubted.
    if (letter) return fit.mark === 'acute' && (read.mark === 'circumflex' || read.mark === 'tilde') ? { letter, doubt: true } : { letter };
  }
  // A narrow mark leaning against the read one: an acute read over a stroke falling to the right, a grave
  // over one rising, a roof or wave over a stroke that leans but not clearly.
  if (narrow && Math.abs(slant) >= SLANT_FLAT) {
    const leans = slant > 0 ? 'acute' : 'grave';
    if (leans !== read.mark && (read.mark === 'acute' || read.mark === 'grave' || !fit.mark)) return { doubt: true };
  }
  // Ink leaning to a wave (glyph-tilde.ts waveClass 'leaning': it fits the wave better than the roof, by
  // under the margin) under a roof read: no clear roof, so the word is doubted, no letter given.
  if (fit.wave === 'leaning' && read.mark === 'circumflex') return { doubt: true };
  return {};
}

/**
 * Words with each marked capital's mark set to the one its ink shows (KAUÃ for a "KAUÁ" whose mark is a
 * wave; MARIÈME for a "MARIÊME" whose mark is one stroke falling to the right: inkLetter), and plain
 * among the words
 * `judged` accepts (the caller's: value-size words). A word keeps its confidence where the ink only
 * changed a mark for another the model writes (its letters were read as before); it keeps at most
 * INK_LETTER_CAP where the ink gave a letter the model cannot write, or contradicts the read mark without
 * telling which it is; it is unchanged where the ink does not tell. Nothing is read again: only the
 * page's pixels over words with a marked capital are looked at (plain letters under a mark the model
 * cannot write: glyph-foreign.ts).
 */
export function mendMarks(g: Gray, words: OcrWord[], judged: (w: OcrWord) => boolean = () => true): OcrWord[] {
  return words.map((w) => {
    if (!/[ÁÀÃÂÉÊÓÕÔÍÚ]/.test(w.text) || !judged(w)) return w;
    const comma = /,$/.test(w.text) ? ',' : '';
    const chars = [...w.text.replace(/,$/, '')];
    let doubt = false;
    const fits = marksOf(g, w);
    for (const [i, fit] of fits) {
      const seen = inkLetter(chars[i], fit, fit.slant, fit.letterH);
      if (seen.letter) chars[i] = seen.letter;
      doubt ||= seen.doubt === true;
    }
    const text = chars.join('') + comma;
    const foreign = [...text].some((c) => /[À-ÖØ-Þ]/.test(c) && !MODEL_MARKED.includes(c) && c !== 'Ç' && !w.text.includes(c));
    // Every acute of the word seen clearly in its ink (clearAcute): spelling's circumflex may not overrule it.
    const acutes = chars.map((c, i) => ('ÁÉÓ'.includes(c) ? i : -1)).filter((i) => i >= 0);
    const acuteInk = !doubt && acutes.length > 0 && acutes.every((i) => fits.has(i) && clearAcute(fits.get(i)!));
    if (text === w.text && !doubt && !acuteInk) return w;
    return { ...w, text, ...(foreign || doubt ? { conf: Math.min(w.conf, INK_LETTER_CAP) } : {}), ...(acuteInk ? { acuteInk } : {}) };
  });
}

/**
 * Whether a mark's ink (marksOf) is clearly an acute: over capitals of FALL_MIN_LETTER_HEIGHT or more (the
 * slant holds on marks 3-4 px wide, too small for a profile: markSlant), sized as an acute (ACUTE_MAX_WIDTH,
 * ACUTE_MAX_ASPECT, MARK_MAX_HEIGHT), one stroke rising clearly to the right (markSlant at SLANT_CLEAR or
 * more), its profile naming no roof or wave (markShape) and no wave or level bar by its gray levels. A
 * circumflex is wider than an acute and has no slant (-0.10..0.07 measured). (Thirty-first round: ÉMERSON's
 * acute, 0.98 on its profile, turned into "ÊMERSON" by spelling's circumflex on final29 #12, #61, #66.)
 */
export function clearAcute(fit: InkFit): boolean {
  return fit.letterH >= FALL_MIN_LETTER_HEIGHT && acuteSizedMark(fit, fit.letterH) && fit.slant >= SLANT_CLEAR
    && (fit.mark === undefined || fit.mark === 'acute') && fit.wave !== 'wave' && !fit.level;
}

/** A mark `fit` (its box, px) sized as an acute over capitals `letterH` px high: ACUTE_MAX_WIDTH, ACUTE_MAX_ASPECT, MARK_MAX_HEIGHT. */
function acuteSizedMark(fit: Pick<MarkFit, 'width' | 'height'>, letterH: number): boolean {
  return fit.width > 0 && fit.width <= ACUTE_MAX_WIDTH * letterH && fit.width <= ACUTE_MAX_ASPECT * fit.height && fit.height <= MARK_MAX_HEIGHT * letterH;
}
