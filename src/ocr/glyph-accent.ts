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
import { blobs, otsu, wordGlyphs, type Blob, type Gray } from './glyph-i.js';
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
const ACUTE_MAX_WIDTH = 0.4;
/** ...and at most this many times as wide as it is tall (acutes 0.6-1.7, tildes 1.75-3.3, circumflexes 1.4-2.3). */
const ACUTE_MAX_ASPECT = 2;
/** A tilde or a circumflex is at least this share of its letter's height wide... */
const WIDE_MIN_WIDTH = 0.3;
/** ...and at least this many times as wide as tall. */
const WIDE_MIN_ASPECT = 1.4;
/**
 * A mark is at most this share of its letter's height tall (measured: 0.1-0.28)... Ink above a word that
 * is taller or wider is no mark: the security print's wave passing over the word, or a glare's edge,
 * read as a tilde (APOLINÁRIO read APOLINÃRIO at 0.857 from a 20 x 8 px wave, final6 #51, before this).
 */
const MARK_MAX_HEIGHT = 0.32;
/** ...and at most this share wide (measured: tildes up to 0.58). */
const MARK_MAX_WIDTH = 0.65;
/**
 * Under this letter height (px) a mark is a few pixels: its shape is not judged (measured values: 18-27
 * px; labels 12-15; the bold heading HABILITAÇÃO's 16-17 px capitals, whose 3-row tilde is all stroke and
 * was named a circumflex or an acute).
 */
const MIN_LETTER_HEIGHT = 18;

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

/** Pearson correlation of two equal-length series (0 when either is flat). */
function correlation(a: number[], b: number[]): number {
  const n = a.length;
  const ma = a.reduce((s, v) => s + v, 0) / n, mb = b.reduce((s, v) => s + v, 0) / n;
  let ab = 0, aa = 0, bb = 0;
  for (let k = 0; k < n; k++) { ab += (a[k] - ma) * (b[k] - mb); aa += (a[k] - ma) ** 2; bb += (b[k] - mb) ** 2; }
  return aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0;
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
const BASE_OF: Record<string, { base: string; mark: Mark }> = Object.fromEntries(
  Object.entries(MARKED).flatMap(([base, ms]) => Object.entries(ms).map(([m, c]) => [c, { base, mark: m as Mark }])),
);

/** How far above its letter (x the letter's height) a mark is looked for. */
export const MARK_REACH = 0.7;
/** A mark's foot is at most this far (x the letter's height) above its letter's top. */
export const MARK_GAP = 0.4;

/**
 * The mark over each marked capital (Á, Ã, Â, É, Ê, Ó, Õ, Ô, Í, Ú) of a capital word, by its ink: keys
 * are indices into `w.text`. The marks are the blobs of ink just above the word's letters (within
 * MARK_GAP of their top), taken left to right; they are paired with the marked capitals in order only
 * when there are as many of them as marked capitals (letters may touch: "KA" in DejaVu Sans is one blob,
 * its marks are still apart). A mark whose shape does not tell is kept with no `mark`.
 */
export function marksOf(g: Gray, w: OcrWord): Map<number, MarkFit> {
  const out = new Map<number, MarkFit>();
  // A trailing comma (a town before its state) is no glyph of the word's height: wordGlyphs leaves it out.
  const chars = [...w.text.replace(/,$/, '')];
  const marked = chars.map((c, i) => (c in BASE_OF ? i : -1)).filter((i) => i >= 0);
  if (!marked.length || chars.some((c) => !/[A-ZÀ-ÖØ-Þ]/.test(c))) return out;
  const glyphs = wordGlyphs(g, w);
  if (!glyphs.length) return out;
  const heights = glyphs.map((b) => b.y1 - b.y0 + 1).sort((a, b) => a - b);
  const letterH = heights[Math.floor(heights.length / 2)];
  const top = Math.min(...glyphs.map((b) => b.y0));
  const x0 = glyphs[0].x0, x1 = glyphs[glyphs.length - 1].x1;
  const y0 = Math.max(0, Math.floor(top - MARK_REACH * letterH)), y1 = top - 1;
  if (y1 - y0 < 2) return out;
  // The split of the letters and the space above them together: the marks' ink against the paper.
  const t = otsu(g, x0, y0, x1, Math.max(...glyphs.map((b) => b.y1)));
  const marks = blobs(g, x0, y0, x1, y1, t)
    .filter((b: Blob) => top - b.y1 <= MARK_GAP * letterH && b.px.length >= 4)
    .sort((a, b) => a.x0 - b.x0);
  if (marks.length !== marked.length) return out;
  marked.forEach((i, k) => out.set(i, markShape(marks[k].px, g.width, letterH)));
  return out;
}

/**
 * Words with each marked capital's mark set to the one its ink shows (KAUÃ for a "KAUÁ" whose mark is a
 * wave) among the words `judged` accepts (the caller's: value-size words); a word keeps its confidence
 * (its letters were read as before) and is unchanged where the ink does not tell. Nothing is read
 * again: only the page's pixels over words with a marked capital are looked at.
 */
export function mendMarks(g: Gray, words: OcrWord[], judged: (w: OcrWord) => boolean = () => true): OcrWord[] {
  return words.map((w) => {
    if (!/[ÁÃÂÉÊÓÕÔÍÚ]/.test(w.text) || !judged(w)) return w;
    const chars = [...w.text];
    for (const [i, fit] of marksOf(g, w)) {
      const seen = fit.mark && MARKED[BASE_OF[chars[i]].base][fit.mark];
      if (seen) chars[i] = seen;
    }
    const text = chars.join('');
    return text === w.text ? w : { ...w, text };
  });
}
