/**
 * The class of a mark above a capital, told by the shape of its ink alone, for any alphabet written in
 * Latin letters (issue #17, eighteenth round). The Portuguese model writes only Á À Â Ã Ç É Ê Í Ó Ô Õ Ú;
 * Czech, Slovak, Hungarian, Polish, Romanian, Baltic, Turkish and Nordic names carry other marks, and the
 * recogniser reads each as its plain twin, sure of it (final16: DOLEŽAL read "DOLEZAL", ČERNÝ "CERNY",
 * KŐRÖSI "KÓRÖSI", at 0.81-0.93). A mark's class is a matter of its shape, whatever the letter:
 * - one stroke rising to the right: an acute (markSlant >= SLANT_CLEAR); falling: a grave;
 * - a v opening up (its ink's height per column falls to the middle and rises again: the roof's profile
 *   reversed, glyph-accent.ts markShape's circumflex fit <= -V_MIN_FIT): a caron (háček), or a breve
 *   where the letter takes no caron (Ă Ğ Ŭ; the two differ only in a sharp or round foot, which a few
 *   pixels do not tell, and no Latin letter of Latin-1 or Extended-A takes both but E: Ě is taken);
 * - a roof opening down: a circumflex (Ĉ Ŝ Ŷ...; the model's own Â Ê Ô are glyph-accent.ts's);
 * - a small round blob with a hole: a ring (Å Ů);
 * - one small round blob, level: a dot (Ż Ė İ Ġ Ċ);
 * - one flat bar, wide and at most 3 px tall, its ink's height the same across: a macron (Ē Ī Ū);
 * - two small blobs side by side, each a stroke leaning right (binarySlant >= DOUBLE_MIN_SLANT): a double
 *   acute (Ő Ű); each level and round: two dots (glyph-foreign.ts).
 * Measured on capitals drawn in DejaVu and Liberation (Sans, Serif, Mono) at 22 and 28 px, clean and
 * blurred 0.8 px at JPEG 40: carons' circumflex fit -0.79..-1.00 (breves the same), roofs +0.66..+0.98;
 * double acutes' strokes binarySlant 0.43..0.88 each, dots -0.33..+0.33. The letter with a mark is
 * composed by Unicode (NFC) and kept only in Latin-1 and Latin Extended-A (U+00C0-U+017F), the letters
 * normalize.ts NAME_LETTERS keeps in a name: a class the letter does not take gives no letter. Pure functions.
 */
import { ACUTE_MAX_ASPECT, ACUTE_MAX_WIDTH, INK_LETTER_CAP, MARK_MAX_HEIGHT, MARK_MAX_WIDTH, SLANT_CLEAR, SLANT_FLAT, markShape, markSlant } from './glyph-accent.js';
import { inkCentres, type Blob, type Gray } from './glyph-i.js';
import { barWave } from './glyph-tilde.js';

export { barWave };
import { fold } from './words.js';

export type MarkClass = 'acute' | 'grave' | 'circumflex' | 'caron' | 'breve' | 'ring' | 'dot' | 'macron' | 'doubleAcute' | 'diaeresis';

/** The combining mark (U+03xx) of each class. */
const COMBINING: Record<MarkClass, string> = {
  acute: '\u0301', grave: '\u0300', circumflex: '\u0302', caron: '\u030C', breve: '\u0306', ring: '\u030A',
  dot: '\u0307', macron: '\u0304', doubleAcute: '\u030B', diaeresis: '\u0308',
};

/**
 * The capital `base` with the mark `m` as one letter (NFC), or undefined when Unicode has no such letter
 * in Latin-1 or Latin Extended-A (U+00C0-U+017F: among the letters a name keeps, normalize.ts).
 */
export function withMark(base: string, m: MarkClass): string | undefined {
  const c = (base + COMBINING[m]).normalize('NFC');
  if ([...c].length !== 1) return undefined;
  const code = c.codePointAt(0)!;
  return code >= 0xc0 && code <= 0x17f ? c : undefined;
}

/**
 * The letter a v opening up over `base` makes: its caron's, or its breve's where it takes no caron. A
 * breve (the 'breve' class, cupDepth) and a caron are one shape to a few pixels: both make this letter.
 */
export function vLetter(base: string): string | undefined {
  return withMark(base, 'caron') ?? withMark(base, 'breve');
}

/**
 * The slant of a blob's own thresholded pixels: the correlation of their column with their height (rows
 * counted upwards), +1 for a stroke rising to the right. Unlike markSlant it looks at no pixel outside
 * the blob, so the other stroke of a pair does not flatten it (a double acute's strokes 3-5 px apart
 * read 0.03-0.19 by markSlant, 0.43-0.88 here).
 */
export function binarySlant(b: Blob, width: number): number {
  let n = 0, sx = 0, sy = 0;
  for (const p of b.px) { n++; sx += p % width; sy += Math.floor(p / width); }
  if (!n) return 0;
  const mx = sx / n, my = sy / n;
  let sxy = 0, sxx = 0, syy = 0;
  for (const p of b.px) {
    const dx = (p % width) - mx, dy = Math.floor(p / width) - my;
    sxy += dx * dy; sxx += dx * dx; syy += dy * dy;
  }
  return sxx > 0 && syy > 0 ? -sxy / Math.sqrt(sxx * syy) : 0;
}

/** A v (caron) or a roof fits markShape's circumflex profile at least this far from 0 (measured 0.79-1.00). */
export const V_MIN_FIT = 0.6;
/** A v or a roof is at least this share of its letter's height wide (measured: 5-9 px over 15-21 px capitals)... */
const V_MIN_WIDTH = 0.25;
/**
 * ...and at most this share (carons measured up to 9 px over 18 px capitals; print over a low-light page's
 * first letter, 11 x 3 px over 19 px capitals, fits a roof: final16 #35's SVOBODA made "ŜVOBODA").
 */
const V_MAX_WIDTH = 0.5;
/** Each stroke of a double acute leans right at least this much (binarySlant); two dots lean under it. */
export const DOUBLE_MIN_SLANT = 0.45;
/** A dot is at most this share of its letter's height wide and tall (measured 2-4 px over 15-21 px). */
const DOT_MAX_SIZE = 0.25;
/**
 * A lone dot, or ink whose class is not told, lies at most this share of the letters' height above their
 * top (marks measured 1-4 px over 16-21 px capitals); a 2 x 2 px speck 7 px above 18 px capitals is a
 * photo's noise (final6 #47: KOWALSKI doubted, its line then lost to the father's).
 */
export const NEAR = 0.3;
/** A macron is at least this share of its letter's height wide, at least MACRON_MIN_ASPECT times as wide as tall... */
const MACRON_MIN_WIDTH = 0.3;
const MACRON_MIN_ASPECT = 3;
/** ...and its columns' ink centres lie within this many pixels of each other in height. */
const MACRON_MAX_RISE = 1;
/** A ring is at most this share of its letter's height wide or tall (glyph-foreign.ts's too). */
export const RING_MAX_SIZE = 0.45;
/** Whether ink `w` x `h` px over letters `letterH` px high is of a ring's size: within RING_MAX_SIZE, neither side over 1.6 times the other. */
export function ringSized(w: number, h: number, letterH: number): boolean {
  return w <= RING_MAX_SIZE * letterH && h <= RING_MAX_SIZE * letterH && w <= 1.6 * h && h <= 1.6 * w;
}
/**
 * A flat bar's columns' ink centres, weighed by the gray levels, lie this close (px, root mean square)
 * to one straight line. Measured on words drawn in eight DejaVu and Liberation faces at 24-32 px, plain
 * and bold, clean and blurred 0.8-1.2 px at JPEG 40: macrons over A, E, I, U 0.00-0.06 (median 0.02),
 * tildes over A and O 0.02-0.72 (median 0.27); with the bar's box at least 3 times as wide as tall and
 * MACRON_MIN_WIDTH of the height wide, no tilde of 707 (over A and O) and 77 of 144 macrons over A passed.
 */
export const BAR_MAX_WAVE = 0.05;

/** Whether a blob's box holds paper closed off by its ink (a ring's eye), 4-connected from the box's edge. */
export function holed(g: Gray, b: Blob): boolean {
  const w = b.x1 - b.x0 + 1, h = b.y1 - b.y0 + 1;
  const ink = new Uint8Array(w * h);
  for (const p of b.px) ink[(Math.floor(p / g.width) - b.y0) * w + (p % g.width) - b.x0] = 1;
  const seen = new Uint8Array(w * h), stack: number[] = [];
  for (let k = 0; k < w * h; k++) {
    const x = k % w, y = Math.floor(k / w);
    if ((x === 0 || y === 0 || x === w - 1 || y === h - 1) && !ink[k]) { seen[k] = 1; stack.push(k); }
  }
  while (stack.length) {
    const k = stack.pop()!, x = k % w, y = Math.floor(k / w);
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const nx = x + dx, ny = y + dy, n = ny * w + nx;
      if (nx >= 0 && ny >= 0 && nx < w && ny < h && !ink[n] && !seen[n]) { seen[n] = 1; stack.push(n); }
    }
  }
  for (let k = 0; k < w * h; k++) if (!ink[k] && !seen[k]) return true;
  return false;
}

/**
 * Whether a blob's gray levels show a closed eye (a ring whose eye the threshold filled: Ů in DejaVu Sans
 * at 19-22 px, a 7 x 5 px blob): the lightest pixel inside its box (not on its edge) is lighter than its
 * darkest ink by at least EYE_MIN_CONTRAST of the ink's depth under the paper, and ink at least half as
 * dark as that contrast lies on each of its four sides (a v or a roof, light above or below, is open);
 * downwards it is looked for 2 px under the blob, whose foot markInk cuts at the letters' top.
 */
export function grayEye(g: Gray, b: Blob): boolean {
  if (b.x1 - b.x0 < 2 || b.y1 - b.y0 < 2) return false;
  let ink = 255, paper = 0;
  for (const p of b.px) ink = Math.min(ink, g.data[p]);
  for (let y = Math.max(0, b.y0 - 1); y <= Math.min(g.height - 1, b.y1 + 1); y++) {
    for (let x = Math.max(0, b.x0 - 1); x <= Math.min(g.width - 1, b.x1 + 1); x++) paper = Math.max(paper, g.data[y * g.width + x]);
  }
  let cx = -1, cy = -1, light = -1;
  for (let y = b.y0 + 1; y < b.y1; y++) for (let x = b.x0 + 1; x < b.x1; x++) {
    const v = g.data[y * g.width + x];
    if (v > light) { light = v; cx = x; cy = y; }
  }
  if (cx < 0 || light - ink < EYE_MIN_CONTRAST * (paper - ink)) return false;
  const dark = ink + 0.5 * (light - ink);
  const side = (dx: number, dy: number): boolean => {
    for (let x = cx + dx, y = cy + dy; x >= b.x0 && x <= b.x1 && y >= b.y0 && y <= Math.min(g.height - 1, b.y1 + 2); x += dx, y += dy) if (g.data[y * g.width + x] <= dark) return true;
    return false;
  };
  return side(1, 0) && side(-1, 0) && side(0, 1) && side(0, -1);
}
/** A ring's eye is lighter than its ink by at least this share of the ink's depth under the paper. */
const EYE_MIN_CONTRAST = 0.3;

/** The spread (px) of a blob's columns' ink centres in height: 0 for a level bar. */
function rise(b: Blob, width: number): number {
  const sum = new Map<number, [number, number]>();
  for (const p of b.px) { const x = p % width, s = sum.get(x) ?? [0, 0]; s[0] += Math.floor(p / width); s[1]++; sum.set(x, s); }
  const c = [...sum.values()].map(([s, n]) => s / n);
  return Math.max(...c) - Math.min(...c);
}

/**
 * Whether one blob over letters `letterH` px high is a flat bar, a macron told from a tilde: at least
 * MACRON_MIN_WIDTH of the height wide, MACRON_MIN_ASPECT times as wide as tall, mark-sized, and its
 * gray levels' centres on one line within BAR_MAX_WAVE (barWave). A 2-row tilde's threshold reads level,
 * its gray levels still wave (ABRAÃO, JOÃO drawn: none passed).
 */
export function flatBar(g: Gray, m: Blob, letterH: number): boolean {
  const w = m.x1 - m.x0 + 1, h = m.y1 - m.y0 + 1;
  return markSized(m, letterH) && w >= MACRON_MIN_WIDTH * letterH && w >= MACRON_MIN_ASPECT * h && w >= 5 && barWave(g, m) <= BAR_MAX_WAVE;
}

/** Whether a blob is of a mark's size over letters `letterH` px high: 2 px tall or more, within MARK_MAX_HEIGHT, at most MARK_MAX_WIDTH (0.65) of the height wide. */
export function markSized(b: Blob, letterH: number): boolean {
  const w = b.x1 - b.x0 + 1, h = b.y1 - b.y0 + 1;
  return h >= 2 && w >= 2 && h <= MARK_MAX_HEIGHT * letterH && w <= MARK_MAX_WIDTH * letterH;
}

/**
 * A v's ink is a breve's cup, not a wave, when its ends stand at least this many pixels above its middle
 * (cupDepth). Measured on words drawn in eight DejaVu and Liberation faces at 24-32 px, plain and bold,
 * clean and blurred 0.8-1.2 px at JPEG 40 (letters 16-23 px): breves over A in BĂLAN, DRĂGHICI 0.4-2.8
 * (median 1.4, 79 % at 1.2 or more); tildes over A and O (JOÃO, ABRAÃO, CONCEIÇÃO, SIMÕES) -0.4..1.3,
 * those whose profile fits a v (32 of 576) 0.1-1.2; macrons blurred (MĀRA, LĀCIS, ARŪNAS at 24-32 px)
 * up to 1.28 (one of 36 at 26 px over 1.2); acutes (BÁRBARA) at most 0.0; roofs (CÂNDIDO) at most 0.6.
 * A tilde or a macron over 1.2 lies over a letter already read wrong ("Á" for Ã or Ā): the breve
 * written there is no right value lost, and it is capped. On final18 1.3 instead of 1.2 left four
 * breves unread (#79's BĂLAN read "BÁLAN" at 0.865 among them). A caron's v is as deep (ČERNÝ, HČEH:
 * 0.3-2.6): the depth tells a breve only over a letter that takes no caron, an A.
 */
export const BREVE_MIN_DEPTH = 1.2;
/** A cup's two ends lie within this many pixels of each other in height (a wave's ends do not). */
const CUP_MAX_TILT = 0.6;

/**
 * How deep (px) a blob's ink is a level cup: the lower of its two ends' heights (the mean gray-weighted
 * ink centre of its first and last fifths of columns, at least one each) above the lowest centre of its
 * middle half of columns; 0 when its ends differ by over CUP_MAX_TILT px (a wave: one end low, the other
 * high) or it has under 4 columns. A breve (Ă Ğ Ŭ) is a round cup whose ends stand highest; a tilde is a
 * wave whose trough lies off the middle; an acute or a roof is highest inside (depth <= 0).
 */
export function cupDepth(g: Gray, m: Blob): number {
  // Heights upwards: the row index negated.
  const cs = inkCentres(g, m).map((p) => -p.c);
  const n = cs.length;
  if (n < 4) return 0;
  const k = Math.max(1, Math.round(n / 5)), mean = (v: number[]): number => v.reduce((a, b) => a + b, 0) / v.length;
  const left = mean(cs.slice(0, k)), right = mean(cs.slice(-k));
  if (Math.abs(left - right) > CUP_MAX_TILT) return 0;
  return Math.min(left, right) - Math.min(...cs.slice(Math.floor(n / 4), Math.ceil((3 * n) / 4)));
}

/**
 * The class of the mark whose ink is `mine` (the blobs over one glyph, left to right) over capitals
 * `letterH` px high whose top is row `top`, by shape alone (the rules of this file's head); undefined
 * when the ink is no mark or its shape does not tell.
 */
export function markClass(g: Gray, mine: Blob[], letterH: number, top: number): MarkClass | undefined {
  const size = (b: Blob): [number, number] => [b.x1 - b.x0 + 1, b.y1 - b.y0 + 1];
  if (!mine.length || !mine.every((b) => markSized(b, letterH))) return undefined;
  if (mine.length === 2) {
    const [a, b] = mine;
    const level = Math.abs((a.y0 + a.y1) / 2 - (b.y0 + b.y1) / 2) <= 0.15 * letterH && a.x1 < b.x0;
    const small = (m: Blob): boolean => { const [w, h] = size(m); return w <= 0.3 * letterH && h <= 0.3 * letterH && w <= 2 * h && h <= 2 * w; };
    if (!level || !small(a) || !small(b)) return undefined;
    const sa = binarySlant(a, g.width), sb = binarySlant(b, g.width);
    if (sa >= DOUBLE_MIN_SLANT && sb >= DOUBLE_MIN_SLANT) return 'doubleAcute';
    if (Math.abs(sa) < DOUBLE_MIN_SLANT && Math.abs(sb) < DOUBLE_MIN_SLANT) return 'diaeresis';
    return undefined;
  }
  if (mine.length !== 1) return undefined;
  const m = mine[0], [w, h] = size(m);
  if (ringSized(w, h, letterH) && h >= 4 && (holed(g, m) || grayEye(g, m))) return 'ring';
  const slant = markSlant(g, m, top);
  if (w <= ACUTE_MAX_WIDTH * letterH && w <= ACUTE_MAX_ASPECT * h) {
    if (slant >= SLANT_CLEAR) return 'acute';
    if (slant <= -SLANT_CLEAR) return 'grave';
  }
  if (w <= DOT_MAX_SIZE * letterH && h <= DOT_MAX_SIZE * letterH && w <= 2 * h && h <= 2 * w && Math.abs(slant) < SLANT_FLAT && top - m.y1 <= NEAR * letterH
    && Math.abs(binarySlant(m, g.width)) < DOUBLE_MIN_SLANT) return 'dot';
  if (w >= MACRON_MIN_WIDTH * letterH && w >= MACRON_MIN_ASPECT * h && h <= 3 && Math.abs(slant) < SLANT_FLAT && rise(m, g.width) <= MACRON_MAX_RISE) return 'macron';
  // A bar 3-4 px tall after a blur, whose thresholded profile can fit a v: level in its gray levels.
  if (Math.abs(slant) < SLANT_FLAT && flatBar(g, m, letterH)) return 'macron';
  if (w >= V_MIN_WIDTH * letterH && w <= V_MAX_WIDTH * letterH && w >= 5 && Math.abs(slant) < SLANT_CLEAR) {
    const fit = markShape(m.px, g.width, letterH).fits;
    if (fit.circumflex <= -V_MIN_FIT) return 'caron';
    if (fit.circumflex >= V_MIN_FIT && fit.circumflex - fit.tilde >= 0.25 && Math.abs(slant) < SLANT_FLAT) return 'circumflex';
  }
  return undefined;
}

/**
 * The letter a capital `base` (read plain or with a mark) takes under a mark of class `m`: its caron's
 * or breve's for a v (vLetter), else withMark's; undefined where Unicode has none in Latin-1 or
 * Extended-A.
 */
export function markedLetter(base: string, m: MarkClass): string | undefined {
  return m === 'caron' || m === 'breve' ? vLetter(base) : withMark(base, m);
}

/** A letter's columns within a word: the glyph it lies in (index) and whether it has that glyph alone. */
export interface LetterSpan { x0: number; x1: number; glyph: number; whole: boolean }

/**
 * The columns of each of a word's `n` letters from its glyphs (left to right): one glyph a letter where
 * there are as many; else each glyph holds as many letters as its width is median glyph widths (rounded,
 * at least one: two capitals touching, "KA" in DejaVu Sans or "ŘÁ" in a squeezed line, are one blob twice
 * as wide), split evenly, when that accounts for exactly `n`; undefined otherwise.
 */
export function letterSpans(glyphs: Blob[], n: number): LetterSpan[] | undefined {
  if (glyphs.length === n) return glyphs.map((b, k) => ({ x0: b.x0, x1: b.x1, glyph: k, whole: true }));
  if (glyphs.length > n || !glyphs.length) return undefined;
  const widths = glyphs.map((b) => b.x1 - b.x0 + 1), med = [...widths].sort((a, b) => a - b)[Math.floor(widths.length / 2)];
  const count = widths.map((w) => Math.max(1, Math.round(w / med)));
  if (count.reduce((a, b) => a + b, 0) !== n) return undefined;
  return glyphs.flatMap((b, k) => Array.from({ length: count[k] }, (_, j) => ({
    x0: b.x0 + Math.round((j * widths[k]) / count[k]), x1: b.x0 + Math.round(((j + 1) * widths[k]) / count[k]) - 1, glyph: k, whole: count[k] === 1,
  })));
}

/**
 * The letters' columns where most of a word's capitals run together (a serif face's HAM one blob: final20
 * #78's PHẠM, read "PHAM" at 0.895, its dot below under no glyph of its own): each glyph holds as many
 * letters as its width is the mean letter width (the glyphs' widths summed over `n`), rounded, at least
 * one, split evenly, when that accounts for exactly `n`; undefined otherwise. letterSpans
 * divides by the median glyph, which is itself a run of letters there. Its letters of a run are only
 * placed, not looked at (`whole` false): a narrow I beside a wide M is split a few pixels off.
 */
export function meanSpans(glyphs: Blob[], n: number): LetterSpan[] | undefined {
  if (!glyphs.length || glyphs.length > n) return undefined;
  const widths = glyphs.map((b) => b.x1 - b.x0 + 1), mean = widths.reduce((a, b) => a + b, 0) / n;
  const count = widths.map((w) => Math.max(1, Math.round(w / mean)));
  if (count.reduce((a, b) => a + b, 0) !== n) return undefined;
  return glyphs.flatMap((b, k) => Array.from({ length: count[k] }, (_, j) => ({
    x0: b.x0 + Math.round((j * widths[k]) / count[k]), x1: b.x0 + Math.round(((j + 1) * widths[k]) / count[k]) - 1, glyph: k, whole: count[k] === 1,
  })));
}

/**
 * The letters past Latin-1 the ink readers write (Latin Extended-A from this file's marks, Ș Ț from
 * glyph-below.ts's comma below, the hooked Ɓ Ɗ Ƙ from glyph-body.ts, the open Ɔ Ɛ from glyph-open.ts; since the
 * twenty-eighth round the barred Ɨ from glyph-barred-i.ts and Pinyin's Ǎ Ǐ Ǒ Ǔ Ǚ from glyph-caron.ts), as a
 * character-class body: letters the model cannot write.
 */
export const INK_WRITTEN = '\u0100-\u017f\u0181\u0186\u018a\u018f\u0190\u0197\u0198\u01a0\u01af\u01cd-\u01dc\u0218-\u021b\u1ea0-\u1ef9';
/**
 * The ink readers' letters that Unicode gives no decomposition, by the Latin letter the recogniser reads
 * for them (a stroke, bar, tail or hook drawn into the letter's body: Đ Ħ Ł Ŋ Ŧ Ɓ Ɗ Ƙ Ɨ; the open Ɔ Ɛ): folded to
 * it, so a reading that only lacks them is known as such (inkMarksOnly), as fold's NFD does for a mark.
 */
const BODY_TWIN: Record<string, string> = { Đ: 'D', Ħ: 'H', Ł: 'L', Ŋ: 'N', Ŧ: 'T', Ɓ: 'B', Ɗ: 'D', Ƙ: 'K', Ɔ: 'O', Ɛ: 'E', Ɨ: 'I' };
const BODY_TWIN_RE = new RegExp(`[${Object.keys(BODY_TWIN).join('')}]`, 'g');
const INK_LETTER = new RegExp(`[${INK_WRITTEN}]`);
/** A character the ink readers write that the recogniser cannot: INK_WRITTEN's letters and Catalan's middle dot (glyph-middle-dot.ts). */
const INK_CHAR = new RegExp(`[${INK_WRITTEN}\u00b7]`);
/** fold, with a middle dot, a hyphen or a space between two L's one character: the recogniser reads the dot as either. */
const dotFold = (s: string): string => fold(s.replace(BODY_TWIN_RE, (c) => BODY_TWIN[c])).replace(/(?<=L)[\u00b7 -](?=L)/g, '-');

/** A capital of a word the ink readers judge (glyph-foreign, glyph-below, glyph-own): Latin-1's, or one they write (INK_WRITTEN). */
export const JUDGED_LETTER = new RegExp(`[A-ZÀ-ÖØ-Þ${INK_WRITTEN}]`);

/**
 * Whether a value `a` holds letters with a mark the model cannot write (Latin Extended-A: given from the
 * ink here, or by a text layer) that `b` reads plain or with the model's marks, their letters otherwise
 * the same (fold): the two readings differ only in marks the recogniser could not have seen, so `b`'s
 * confidence says nothing against `a` (final16 #35: a second page reading "JAROSLAVA BENES POSPÍSIL" at
 * 0.903 over the first's BENEŠ at 0.6, the mended word capped by INK_LETTER_CAP). Since the twenty-fifth
 * round the middle dot counts as such a letter, a hyphen or a space between two L's as its plain twin
 * (PETRONEL·LA from the ink, "PETRONEL-LA" at 0.9 from another reading). Since the twenty-seventh round
 * a reading that lacks an Ɔ at a word's start the ink put there (glyph-open.ts) counts as one too.
 */
export function inkMarksOnly(a: string, b: string): boolean {
  if (a === b || !INK_CHAR.test(a) || INK_CHAR.test(b)) return false;
  // An Ɔ the ink put before a word is one the recogniser dropped there (final25: "FORI" for ƆFORI).
  return dotFold(a) === dotFold(b) || dotFold(a.replace(/(^|[\s'-])Ɔ/g, '$1')) === dotFold(b);
}

/**
 * A re-reading's words (`words`) of a phrase first read as `old`, kept at most INK_LETTER_CAP where `old`
 * holds letters the ink wrote (INK_WRITTEN) and the re-reading none: the recogniser cannot write them, so
 * its re-reading's confidence says nothing of those letters (final20 #47: ĐURĐEVIĆ ŠARIĆ, written from the
 * ink at 0.6, re-read "DURBDEVIÉ SARIÉ" at 0.817).
 */
export function inkLettersLost<W extends { text: string; conf: number }>(old: string, words: W[]): W[] {
  if (!INK_CHAR.test(old) || words.some((w) => INK_CHAR.test(w.text))) return words;
  return words.map((w) => ({ ...w, conf: Math.min(w.conf, INK_LETTER_CAP) }));
}
