/**
 * The barred Ɨ (U+0197) read from its ink (issue #17, twenty-eighth round). Yanomami and Sanɨma names
 * (final26: YANOMAMƗ, SANƗMA, XƗRƗANA, NAPƗMƗ) carry an I with a level bar through its middle; the
 * Portuguese model has no such letter and reads the nearest it knows: I (116 letters of final26's single
 * run), E, T, or Ł, or an Ɛ where glyph-open.ts then judged the E. Its shape is its own:
 * - a stem: the rows of its upper and lower quarters (0.15-0.3 and 0.7-0.82 of its height) each hold one
 *   run of ink, narrow (at most STEM_MAX_WIDTH of the height: a serif face's I has its serifs at the very
 *   top and foot, outside these bands; an H, a T's bar, an E's arms are not narrow there);
 * - a bar: one row of its middle (0.3-0.7) holds one run that reaches past the stem's own columns on
 *   BOTH sides, by at least BAR_MIN_REACH of the height (an E's or F's arm reaches only right, a Ł's
 *   slanted stroke lies left of the stem on lower rows and right on higher ones, never both on one row;
 *   an I has no bar).
 * Measured on words drawn in the cards' seven faces (test/ocr/drawn-word.ts CARD_FACES) at 16/20/24/28 px,
 * clean, blurred 0.8 px at JPEG 40 and 1.2 px at JPEG 50 (84 drawings a word; tools in /work/out29-r/tools):
 * NAPƗMƗ, XƗRƗANA, YANOMAMƗ, SANƗMA, TƗKƗ, HƗTƗ read with I, E or T: 50-61 of 84 right (the misses mostly
 * 16 px type and the 1.2 px blur, where the bar reaches under 1 px past the stem); 17 words with I, E, T, Ł,
 * Í (ISIDORO, FELIPE, TIAGO, IRINEU, ÍRIS, INÊS, PAWEŁ, STANISŁAW, ŁUKASZ...): 84 of 84 left as read. Before
 * the skew and foot checks PAWEŁ made "PAWEƗ" 6 times, FELIPE and IRINEU once. Pure functions on a gray page.
 */
import { INK_LETTER_CAP } from './glyph-accent.js';
import { wordGlyphs, type Blob, type Gray } from './glyph-i.js';
import { letterSpans } from './glyph-marks.js';
import { median, type OcrWord } from './words.js';

/** The letters the recogniser reads for an Ɨ (final26's single run), judged by barredI. */
export const BARRED_I_READ = 'IETƐŁÍÌ';
/** Ɨ, the barred capital I (U+0197). */
export const BARRED_I = '\u0197';
/** A stem band's run is at most this share of the letters' height wide (and 5 px). */
export const STEM_MAX_WIDTH = 0.28;
/** The bar reaches past the stem on each side by at least this share of the letters' height (and 1 px). */
export const BAR_MIN_REACH = 0.05;
/** The bar's longer side is at most this many times its shorter. */
export const BAR_MAX_SKEW = 2.5;
/** A foot's right reach past the stem exceeds its left by at most this share of the height (and 2 px). */
export const FOOT_MAX_SKEW = 0.15;
/** Letters under this height (px) are not judged: a bar of 1 px reach is a blur's edge. */
export const BARRED_MIN_LETTER_HEIGHT = 12;

/** The ink runs [x0, x1] of each row of a blob (rows from its top), from its pixels. */
function rowRuns(b: Blob, width: number): Array<Array<[number, number]>> {
  const h = b.y1 - b.y0 + 1, w = b.x1 - b.x0 + 1;
  const m = new Uint8Array(w * h);
  for (const p of b.px) m[(Math.floor(p / width) - b.y0) * w + (p % width) - b.x0] = 1;
  const out: Array<Array<[number, number]>> = [];
  for (let y = 0; y < h; y++) {
    const runs: Array<[number, number]> = [];
    for (let x = 0; x < w; x++) if (m[y * w + x] && (x === 0 || !m[y * w + x - 1])) {
      let e = x; while (e + 1 < w && m[y * w + e + 1]) e++;
      runs.push([x + b.x0, e + b.x0]);
    }
    out.push(runs);
  }
  return out;
}

/**
 * Whether a glyph (blob `b` on a page `width` px wide, letters `letterH` px high) is an Ɨ: a narrow stem
 * in its upper and lower quarters and a middle row whose one run reaches past the stem on both sides by
 * BAR_MIN_REACH (the rules of this file's head). Returns the bar's reach (px, the lesser side) or 0.
 */
export function barredI(b: Blob, width: number, letterH: number): number {
  const h = b.y1 - b.y0 + 1;
  if (h < BARRED_MIN_LETTER_HEIGHT || h < 0.8 * letterH) return 0;
  const runs = rowRuns(b, width);
  const band = (f0: number, f1: number): number[] => { const r: number[] = []; for (let y = Math.ceil(f0 * h); y <= Math.floor(f1 * h) && y < h; y++) r.push(y); return r; };
  const stemMax = Math.max(5, STEM_MAX_WIDTH * letterH);
  let sx0 = 0, sx1 = 0, n = 0;
  for (const y of [...band(0.15, 0.3), ...band(0.7, 0.82)]) {
    const r = runs[y];
    if (r.length !== 1 || r[0][1] - r[0][0] + 1 > stemMax) return 0;
    sx0 += r[0][0]; sx1 += r[0][1]; n++;
  }
  if (!n) return 0;
  const left = sx0 / n, right = sx1 / n;
  const reachMin = Math.max(1, BAR_MIN_REACH * letterH);
  // A foot reaching further right than left (Ł's, L's) is no I's: a serif face's foot is even.
  for (const y of [h - 2, h - 1]) {
    const r = runs[y];
    if (r?.length && (r[r.length - 1][1] - right) - (left - r[0][0]) > Math.max(2, FOOT_MAX_SKEW * letterH)) return 0;
  }
  let best = 0;
  for (const y of band(0.3, 0.7)) {
    const r = runs[y];
    if (r.length !== 1) continue;
    const l = left - r[0][0], rt = r[0][1] - right, reach = Math.min(l, rt);
    // The bar runs as far each side (an E's arm, a Ł's stroke reach one side further).
    if (reach >= reachMin && Math.max(l, rt) <= BAR_MAX_SKEW * reach) best = Math.max(best, reach);
  }
  return best;
}

/**
 * A capital word's letters with Ɨ written where a letter read in BARRED_I_READ has a glyph of its own that
 * barredI judges barred; undefined when its glyphs do not pair with its letters or no letter changed.
 */
export function barredReading(g: Gray, w: OcrWord): string | undefined {
  const chars = [...w.text.replace(/,$/, '')];
  if (!chars.some((c) => BARRED_I_READ.includes(c)) || chars.some((c) => !/\p{Lu}/u.test(c))) return undefined;
  const glyphs = wordGlyphs(g, w);
  if (!glyphs.length) return undefined;
  const letterH = median(glyphs.map((b) => b.y1 - b.y0 + 1));
  if (letterH < BARRED_MIN_LETTER_HEIGHT) return undefined;
  const spans = letterSpans(glyphs, chars.length);
  if (!spans) return undefined;
  let changed = false;
  const out = chars.map((c, i) => {
    const s = spans[i];
    if (!BARRED_I_READ.includes(c) || !s.whole) return c;
    if (!barredI(glyphs[s.glyph], g.width, letterH)) return c;
    changed = true;
    return BARRED_I;
  });
  return changed ? out.join('') : undefined;
}

/**
 * Words with Ɨ written over the letters its ink shows barred (barredReading: YANOMAMƗ for "YANOMAMI",
 * NAPƗMƗ for "NAPIME"), their confidence kept at most INK_LETTER_CAP (a letter the model cannot write),
 * among the words `judged` accepts; every other word as it was.
 */
export function mendBarredI(g: Gray, words: OcrWord[], judged: (w: OcrWord) => boolean = () => true): OcrWord[] {
  return words.map((w) => {
    if (!judged(w)) return w;
    const text = barredReading(g, w);
    if (!text) return w;
    return { ...w, text: text + (/,$/.test(w.text) ? ',' : ''), conf: Math.min(w.conf, INK_LETTER_CAP) };
  });
}
