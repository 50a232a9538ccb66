/**
 * Letters the recogniser reads as the nearest Latin letter though their ink shows otherwise (issue #17,
 * twenty-seventh round): Akan names carry the open Ɛ (U+0190) and the open Ɔ (U+0186), whole letters of
 * their own, and Slovak ones the caron of Ľ (U+013D) written as a small stroke right of the L's top, not
 * over it. The Portuguese model reads them E, O (or drops the Ɔ at a word's start) and L, sure of it
 * (final25: "BOATENG" for BOATƐNG, "FORI" for ƆFORI, "LUBINA" for ĽUBINA at 0.8-0.93). What the ink shows
 * in the cards' faces (test/ocr/drawn-word.ts CARD_FACES, 20-28 px, clean and blurred 0.5-1.2 px at JPEG
 * 40-90, upright and italic):
 * - Ɔ: a C mirrored, its opening on the left: the rows of its middle (0.3-0.7 of the height) hold one
 *   run of ink, in the glyph's right part (openRight); an O's middle rows hold two (its two sides), a C's
 *   one in its left part. Measured: Ɔ 0.8-1.0 of the middle rows, O and C 0 in every face and wear.
 * - Ɛ: an E without its stem, two bowls meeting at a waist on the left: its left edge (set upright)
 *   stands right of the straight line an E's stem draws, at the waist (0.35-0.65 of the height) and at
 *   the top and foot, where an E's corners are square (epsilonShape). Measured: Ɛ waist 0.06-0.22 of the
 *   height, area right of the stem line 0.3-0.95 (x 10 / h^2); E and F waist 0-0.07, area 0-0.56 (the
 *   high ones 20 px blurred 1.2 px).
 * - Ľ: a stroke (an apostrophe's size) standing right of the L's stem in the top half of the capitals'
 *   height, where an L's top is its bare stem (caronStroke). A mark above the cap line is not this (the
 *   acute of a next letter); nor one reaching under the middle.
 * - Ɔ dropped at a word's start: a glyph of Ɔ's shape in the word's box before its first letter's, or
 *   just left of the box, no further from the first letter than the word's own letters stand apart.
 * Where the shape is clear the letter is written (one the model cannot write: the word kept at most
 * glyph-accent.ts INK_LETTER_CAP); where it half shows, the word is doubted (at most INK_LETTER_CAP, no
 * letter given). Pure functions on a gray page, called by glyph-below.ts mendInkMarks after glyph-body.ts.
 */
import { INK_LETTER_CAP } from './glyph-accent.js';
import { maskOf, otsu, wordGlyphs, type Blob, type Gray } from './glyph-i.js';
import { JUDGED_LETTER, letterSpans, meanSpans } from './glyph-marks.js';
import { columns, runsOf, upright } from './glyph-body.js';
import { median, type OcrWord } from './words.js';

/**
 * Capitals under this height (px) are not looked at: Ɔ's opening and Ɛ's waist still show at 10-12 px
 * (drawn at 16-18 px: E's waist never 2 px), but an italic O blurred 1.2 px at 12 px opened on the
 * left once; a caron stroke is a few pixels under STROKE_MIN_LETTER_HEIGHT.
 */
export const OPEN_MIN_LETTER_HEIGHT = 13;
export const STROKE_MIN_LETTER_HEIGHT = 12;
/** Fewest letters of a word judged: shorter ones are codes and particles (glyph-body.ts BODY_MIN_LETTERS). */
export const OPEN_MIN_LETTERS = 3;

/** An Ɔ's middle rows hold one run in the glyph's right part: at least this share of them... */
export const OPEN_RIGHT_MIN = 0.6;
/** ...between OPEN_RIGHT_HALF and OPEN_RIGHT_MIN the word is only doubted. */
export const OPEN_RIGHT_HALF = 0.35;

/**
 * The share of a glyph's middle rows (0.3-0.7 of its height) whose ink is one run lying in its right
 * part (starting right of 0.45 of its width): 1 for Ɔ (a C mirrored, open on the left), 0 for O (two
 * sides), C and G (open on the right).
 */
export function openRight(g: Gray, b: Blob): number {
  const mk = maskOf(g, b), { w, h } = mk;
  if (h < 8 || w < 4) return 0;
  let n = 0, right = 0;
  for (let y = Math.round(0.3 * h); y <= Math.round(0.7 * h); y++) {
    n++;
    const r = runsOf(mk, y);
    if (r.length === 1 && r[0][0] > 0.45 * w) right++;
  }
  return n ? right / n : 0;
}

/** An Ɛ's waist stands right of the stem line at least this share of the height (and EPS_MIN_PX)... */
export const EPS_WAIST = 0.1;
/** ...and the left edge's area right of that line is at least this (x 10 / h^2: the bowls' curves). */
export const EPS_AREA = 0.3;
/**
 * Measured (E in HELENA, ESTEVES, TEREZA, CELESTE, ODETE, OLIVEIRA; Ɛ in BOATƐNG, ƐNNINFUL, KWAMƐ, AGYƐMAN;
 * the seven faces at 18-28 px, clean and blurred 0.5-1.2 px): an E's waist is 0 px (1213 of 1376 glyphs),
 * 1 px (162) or 2 px (1: DejaVu Serif Bold 20 px blurred 1.2); Ɛ's 2-5 px in 364 of 425, 1 px in 60.
 */
export const EPS_MIN_PX = 3;
/** A waist of EPS_HALF_PX with EPS_HALF_AREA only doubts the word. */
export const EPS_HALF_PX = 2;
export const EPS_HALF_AREA = 0.25;

/**
 * The left edge of a glyph read E, set upright (an italic's lean taken out): `waist`, how far (share of
 * the height) the leftmost ink of its rows 0.35-0.65 stands right of the stem line (the leftmost ink of
 * rows 0.2-0.8), `px` the same in pixels, and `area`, the sum over all rows of how far their leftmost ink
 * stands right of that line, x 10 / h^2. An E's stem is a straight left edge (0, a blur's rounded corner
 * a little); Ɛ's two bowls meet at a waist and round off at the top and foot.
 */
export function epsilonShape(g: Gray, b: Blob): { waist: number; px: number; area: number } {
  const mk = upright(maskOf(g, b), 0.2, 0.8), { w, h, m } = mk;
  if (h < 8 || w < 4) return { waist: 0, px: 0, area: 0 };
  const left = Array.from({ length: h }, (_, y) => { let x = 0; while (x < w && !m[y * w + x]) x++; return x; });
  // The stem line the second furthest row left: one row's speck out of a photo's noisy edge does not
  // push it left of the stem.
  const second = (v: number[], dir: 1 | -1): number => { const s = [...v].sort((a, c) => dir * (a - c)); return s[Math.min(1, s.length - 1)]; };
  const stem = second(left.slice(Math.round(0.2 * h), Math.round(0.8 * h) + 1), 1);
  let area = 0;
  const px = Math.max(0, ...left.slice(Math.round(0.35 * h), Math.round(0.65 * h) + 1).map((x) => Math.min(w, x) - stem));
  for (let y = 0; y < h; y++) area += Math.max(0, Math.min(w, left[y]) - stem);
  return { waist: px / h, px, area: (10 * area) / (h * h) };
}

/** A caron stroke is at least this share of the capitals' height tall (and 3 px)... */
export const STROKE_MIN_HEIGHT = 0.15;
/** ...ends above this share of it (under the cap line: an apostrophe's size, not a letter's)... */
export const STROKE_MAX_FOOT = 0.55;
/** ...starts within this share of the cap line (above or below it)... */
export const STROKE_TOP_NEAR = 0.15;
/** ...and is at most this share of the height wide. */
export const STROKE_MAX_WIDTH = 0.35;

/**
 * Whether a glyph read L (`b`, the word's glyph `k` of `glyphs`) has a stroke right of its stem in the
 * top half of the capitals' height (`top`: their cap line, `letterH` their height, `t` the word's ink
 * threshold): Ľ's caron as Slovak type draws it. The stroke is looked for as its own blob between the
 * stem and the next glyph, or joined to the L (rows of its top half holding a second run right of the
 * stem, its rows under the middle none). `run`: the whole glyph where `b` is the L's columns of capitals
 * run together (only a stroke apart from the run's ink is looked for then).
 */
export function caronStroke(g: Gray, glyphs: Blob[], k: number, top: number, letterH: number, t: number, run?: Blob): boolean {
  const b = glyphs[k], mk = upright(maskOf(g, b), 0.2, 0.8), { h } = mk;
  if (h < 8) return false;
  // The stem's right edge: the median end of the first run of rows 0.2-0.7 (under the top, over the foot).
  const ends: number[] = [];
  for (let y = Math.round(0.2 * h); y <= Math.round(0.7 * h); y++) { const r = runsOf(mk, y)[0]; if (r) ends.push(r[1]); }
  if (!ends.length) return false;
  ends.sort((a, c) => a - c);
  const stemR = ends[Math.floor(ends.length / 2)];
  // Joined: two or more rows of the top 0.45 with a run starting past the stem, none in rows 0.55-0.8.
  const past = (y: number): boolean => runsOf(mk, y).some(([a]) => a > stemR + 1);
  let topRows = 0;
  for (let y = 0; y <= Math.round(0.45 * h); y++) if (past(y)) topRows++;
  let lowRows = 0;
  for (let y = Math.round(0.55 * h); y <= Math.round(0.8 * h); y++) if (past(y)) lowRows++;
  if (!run && topRows >= 2 && lowRows === 0 && !mk.leaned) return true;
  // Apart (its own blob, or joined to the next letter's serif): the ink over the L's foot, right of its
  // stem, that is not the L's: a band of rows from the cap line down to at most STROKE_MAX_FOOT, with
  // paper under it in its own columns (a next letter's leg or stem reaching into the L's columns runs on
  // down; a serif is under STROKE_MIN_HEIGHT).
  const x0 = b.x0 + stemR + 2, x1 = Math.min(b.x1, g.width - 2);
  const y0 = Math.max(0, Math.round(top - STROKE_TOP_NEAR * letterH)), y1 = Math.min(g.height - 1, Math.round(top + 0.8 * letterH));
  if (x1 - x0 < 1) return false;
  const mine = new Set((run ?? b).px);
  const ink = (x: number, y: number): boolean => g.data[y * g.width + x] <= t && !mine.has(y * g.width + x);
  let first = -1, last = -1;
  const cols = new Set<number>();
  for (let y = y0; y <= y1; y++) {
    const row: number[] = [];
    for (let x = x0; x <= x1; x++) if (ink(x, y)) row.push(x);
    if (row.length && first < 0) first = y;
    if (first < 0) continue;
    if (!row.length) break;
    last = y; for (const x of row) cols.add(x);
  }
  if (first <= y0 || last - first + 1 < Math.max(3, STROKE_MIN_HEIGHT * letterH) || last - top > STROKE_MAX_FOOT * letterH) return false;
  for (let y = last + 1; y <= y1; y++) for (const x of cols) if (ink(x, y)) return false;
  // Nor ink running on right past the L's foot in the band's rows (a T's bar, a V's or A's arm over it).
  if (x1 + 1 < g.width) for (let y = first; y <= last; y++) if (ink(x1, y) && ink(x1 + 1, y)) return false;
  return true;
}


/** An Ɔ is at least this share of the capitals' height wide (0.6-0.8 drawn). */
export const OPEN_MIN_WIDTH = 0.5;

/**
 * The letters the recogniser reads for Ɔ that are judged: O and C. final25 also read it D ("KDFI") and I
 * ("IWUSU"), but over a D or I read on a photo (final25 #68, DejaVu Sans Condensed: "KƆFƆ", "MÓCƆK") the
 * glyph paired with the letter was a broken one's part, of Ɔ's shape: those readings are left.
 */
const OPEN_O_READ = 'OC';

/** Characters the recogniser gives for an Ɔ at a word's start that are no letter (a 9, a closing bracket). */
const OPEN_O_MISREAD = '9)';

/** What one glyph read as `c` shows: the letter of its own shape (Ɔ, Ɛ), a doubt, or nothing. */
export function openLetter(g: Gray, b: Blob, c: string): { letter?: string; doubt?: boolean } {
  if (OPEN_O_READ.includes(c)) {
    const r = openRight(g, b);
    return r >= OPEN_RIGHT_MIN ? { letter: 'Ɔ' } : r >= OPEN_RIGHT_HALF ? { doubt: true } : {};
  }
  if (c === 'E') {
    const e = epsilonShape(g, b);
    if (e.waist >= EPS_WAIST && e.px >= EPS_MIN_PX && e.area >= EPS_AREA) return { letter: 'Ɛ' };
    return e.px >= EPS_HALF_PX && e.area >= EPS_HALF_AREA ? { doubt: true } : {};
  }
  return {};
}

/** A glyph whose top stands this share of the letters' height above their median top has a mark joined: not judged (glyph-body.ts). */
const JOINED_ABOVE = 0.12;

/**
 * A capital word's letters (a trailing comma left out) with the letters of their own shape its glyphs
 * show (openLetter: Ɔ for O or C, Ɛ for E; Ľ for L with caronStroke), an Ɔ put before them where a glyph
 * of its shape stands before the first letter's (in the box, or just left of it: `lead`, the columns it
 * adds), and whether a glyph doubts it; undefined when its glyphs do not pair with its letters, its type
 * is under OPEN_MIN_LETTER_HEIGHT or it has under OPEN_MIN_LETTERS letters.
 */
export function openReading(g: Gray, w: OcrWord): { text: string; doubt: boolean; lead?: number } | undefined {
  const chars = [...w.text.replace(/,$/, '')];
  // An Ɔ read as a digit or a bracket at the word's start (final25 #43: "9FORI" for ƆFORI; normalizeName
  // drops the 9): judged as a letter O, so its glyph's shape decides.
  const misread = chars.length > OPEN_MIN_LETTERS && OPEN_O_MISREAD.includes(chars[0]);
  if (misread) chars[0] = 'O';
  if (chars.length < OPEN_MIN_LETTERS || chars.some((c) => !JUDGED_LETTER.test(c))) return undefined;
  let glyphs = wordGlyphs(g, w);
  if (!glyphs.length) return undefined;
  const letterH = median(glyphs.map((b) => b.y1 - b.y0 + 1));
  if (letterH < OPEN_MIN_LETTER_HEIGHT) return undefined;
  const top = median(glyphs.map((b) => b.y0)), base = median(glyphs.map((b) => b.y1));
  const fullHeight = (b: Blob): boolean => Math.abs(b.y0 - top) <= 0.15 * letterH && Math.abs(b.y1 - base) <= 0.15 * letterH;
  const gaps = glyphs.slice(1).map((b, k) => b.x0 - glyphs[k].x1 - 1);
  const nearGap = Math.max(2, Math.min(0.3 * letterH, (gaps.length ? Math.max(...gaps) : 0) + 1));
  // An Ɔ the reading dropped: the box's first glyph, one more glyph than letters...
  let lead: number | undefined;
  if (glyphs.length === chars.length + 1 && fullHeight(glyphs[0]) && glyphs[0].x1 - glyphs[0].x0 + 1 >= OPEN_MIN_WIDTH * letterH && openRight(g, glyphs[0]) >= OPEN_RIGHT_MIN && glyphs[1].x0 - glyphs[0].x1 - 1 <= nearGap) {
    glyphs = glyphs.slice(1); lead = 0;
  } else if (glyphs.length <= chars.length) {
    // ...or a glyph just left of the box, whole (not cut by the wider box), as near as the word's letters.
    const reach = Math.round(1.2 * letterH), X0 = Math.max(0, Math.floor(w.x0) - reach);
    const wide = wordGlyphs(g, { ...w, x0: X0 });
    const before = wide.filter((b) => b.x1 < glyphs[0].x0);
    const c = before[before.length - 1];
    if (c && c.x0 > X0 + 1 && fullHeight(c) && c.x1 - c.x0 + 1 >= OPEN_MIN_WIDTH * letterH && glyphs[0].x0 - c.x1 - 1 <= nearGap && openRight(g, c) >= OPEN_RIGHT_MIN) lead = Math.max(0, Math.floor(w.x0) - c.x0);
  }
  // Capitals run together (a blur joins ĽA): placed by the mean letter width, only the L's stroke looked for.
  const spans = letterSpans(glyphs, chars.length) ?? meanSpans(glyphs, chars.length);
  const X0 = Math.max(0, Math.floor(w.x0)), Y0 = Math.max(0, Math.floor(w.y0));
  const t = otsu(g, X0, Y0, Math.min(g.width - 1, Math.ceil(w.x1)), Math.min(g.height - 1, Math.ceil(w.y1)));
  let doubt = false;
  const out = chars.map((c, i) => {
    const s = spans?.[i];
    if (!s || !`${OPEN_O_READ}EL`.includes(c)) return c;
    // An L run together with its neighbour (LA kerned, or joined by a blur) is looked at in its own
    // columns: its stroke stands apart from the run's ink.
    if (c === 'L' && letterH < STROKE_MIN_LETTER_HEIGHT) return c;
    if (c === 'L' && !s.whole) return caronStroke(g, [columns(g, glyphs[s.glyph], s.x0, s.x1)], 0, top, letterH, t, glyphs[s.glyph]) ? 'Ľ' : c;
    if (!s.whole) return c;
    const b = glyphs[s.glyph];
    if (top - b.y0 > JOINED_ABOVE * letterH) return c;
    if (c === 'L') return caronStroke(g, glyphs, s.glyph, top, letterH, t) ? 'Ľ' : c;
    // A glyph of Ɔ's shape narrower than OPEN_MIN_WIDTH is an O's right half (a blur broke its thin sides).
    if (OPEN_O_READ.includes(c) && b.x1 - b.x0 + 1 < OPEN_MIN_WIDTH * letterH) return c;
    const seen = openLetter(g, b, c);
    if (seen.doubt) doubt = true;
    return seen.letter ?? c;
  });
  if (!spans && lead === undefined) return undefined;
  // A misread first character that is no Ɔ is left to the reading.
  if (misread && out[0] !== 'Ɔ') return undefined;
  return { text: (lead !== undefined ? 'Ɔ' : '') + out.join(''), doubt, lead };
}

/**
 * Words with each letter of its own shape the ink shows written (BOATƐNG for "BOATENG", ƆPƆKU for
 * "OPOKU", ĽUBINA for "LUBINA", ƆFORI for "FORI": openReading) and words a glyph doubts, their confidence
 * kept at most INK_LETTER_CAP, among the words `judged` accepts (the caller's: value-size words); a word
 * given a leading Ɔ from left of its box has its box widened to it. Every other word as it was.
 */
export function mendOpenLetters(g: Gray, words: OcrWord[], judged: (w: OcrWord) => boolean = () => true): OcrWord[] {
  return words.map((w) => {
    if (!/[A-Z]/.test(w.text) || !judged(w)) return w;
    const r = openReading(g, w);
    const plain = w.text.replace(/,$/, '');
    if (!r || (r.text === plain && !r.doubt)) return w;
    const comma = /,$/.test(w.text) ? ',' : '';
    return { ...w, text: r.text + comma, conf: Math.min(w.conf, INK_LETTER_CAP), x0: w.x0 - (r.lead ?? 0) };
  });
}
