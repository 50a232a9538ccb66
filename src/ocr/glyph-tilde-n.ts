/**
 * The tilde over an N that the recogniser read plain (issue #17, thirteenth round). The Portuguese model
 * has no Ñ: a Spanish name printed with one (ACUÑA, MUÑOZ, NÚÑEZ, IBÁÑEZ; final12's names) comes back with
 * a plain N, read sure (NÚNEZ at 0.927, ACUNA at 0.913: 10 of final12's 17 sure-wrong values). glyph-accent.ts
 * judges the marks over capitals read with one; this looks over the N's read without: the word's glyphs
 * (glyph-i.ts wordGlyphs) are paired with its letters when there are as many of each, and a blob of ink
 * just above an N's glyph (within MARK_GAP of the letters' top) whose shape is named a tilde (glyph-accent.ts
 * markShape: a wave, wider than tall, of a mark's size over type at least 18 px high) makes it Ñ.
 * Ñ is no Portuguese letter, so on a Brazilian card it is rare and the ink's word alone does not make it
 * sure: the word's confidence is kept at most TILDE_N_CAP, so its value falls under the low-confidence line. Pure functions on
 * a gray page.
 */
import { MARK_GAP, MARK_REACH, markShape, type MarkFit } from './glyph-accent.js';
import { blobs, otsu, wordGlyphs, type Blob, type Gray } from './glyph-i.js';
import type { OcrWord } from './words.js';
/**
 * A word mended to Ñ keeps at most this confidence. A value's confidence is about the mean of its words'
 * and its weakest's (doubts.ts valueConfidence), so with every other word at 1 the name stays under
 * (1 + 0.6) / 2 = 0.8, the low line; 0.75 left final12 #0's "NÓÑEZ" (its Ú read Ó) at 0.8.
 */
export const TILDE_N_CAP = 0.6;

/**
 * Indices into `w.text` of the N's with a tilde above their glyph, in a word of capitals (a trailing comma
 * left out) whose glyphs pair one to one with its letters; [] when they do not (touching letters) or no N
 * carries one.
 */
export function tildesOverN(g: Gray, w: OcrWord): number[] {
  const chars = [...w.text.replace(/,$/, '')];
  if (!chars.includes('N') || chars.some((c) => !/[A-ZÀ-ÖØ-Þ]/.test(c))) return [];
  const glyphs = wordGlyphs(g, w);
  if (glyphs.length !== chars.length) return [];
  return tildedGlyphs(g, glyphs, true).filter((i) => chars[i] === 'N');
}

/**
 * Indices of the glyphs (wordGlyphs, left to right) with a tilde-shaped blob of ink just above them
 * (markShape names it a tilde); with `flat`, also those whose mark only flatTilde allows, when the glyph
 * is drawn as an N (nShaped).
 */
function tildedGlyphs(g: Gray, glyphs: Blob[], flat = false): number[] {
  if (!glyphs.length) return [];
  const heights = glyphs.map((b) => b.y1 - b.y0 + 1).sort((a, b) => a - b);
  const letterH = heights[Math.floor(heights.length / 2)];
  const top = Math.min(...glyphs.map((b) => b.y0));
  const x0 = glyphs[0].x0, x1 = glyphs[glyphs.length - 1].x1;
  const y0 = Math.max(0, Math.floor(top - MARK_REACH * letterH)), y1 = top - 1;
  if (y1 - y0 < 2) return [];
  const t = otsu(g, x0, y0, x1, Math.max(...glyphs.map((b) => b.y1)));
  const out: number[] = [];
  for (const m of blobs(g, x0, y0, x1, y1, t)) {
    if (top - m.y1 > MARK_GAP * letterH || m.px.length < 4) continue;
    const centre = (m.x0 + m.x1) / 2;
    const i = glyphs.findIndex((b) => b.x0 <= centre && centre <= b.x1);
    if (i < 0) continue;
    const fit = markShape(m.px, g.width, letterH);
    if (fit.mark === 'tilde' || (flat && fit.mark === undefined && flatTilde(fit, letterH) && nShaped(g, glyphs[i]))) out.push(i);
  }
  return out;
}

/** A flat mark's tilde fit at least this (markShape names a tilde from MARK_MIN_FIT, 0.4)... */
export const FLAT_TILDE_FIT = 0.25;
/** ...and this much above its roof's (glyph-accent.ts MARK_MARGIN). */
const FLAT_TILDE_MARGIN = 0.25;

/**
 * A mark over an N's glyph that markShape leaves unnamed but that can only be a tilde: of a mark's size
 * (at most 0.32 of the letter's height tall and 0.65 wide, over letters at least 18 px high, as
 * glyph-accent.ts), too wide for an acute (over 0.4 of the letter's height, or over twice as wide as
 * tall) and wide enough for a tilde (0.3 of the height, 1.4 times as wide as tall), fitting a wave
 * (FLAT_TILDE_FIT) clearly better than a roof. A 3-row tilde's profile is a few steps that half fits a
 * rising stroke: final12 #35's ACUÑA (Liberation Mono, low light; a 10 x 3 px tilde over 18 px capitals:
 * acute 0.49, tilde 0.33, roof -0.06) was read ACUNA at 0.913. No Portuguese or Spanish capital N
 * carries another mark.
 */
export function flatTilde(fit: MarkFit, letterH: number): boolean {
  const { width: w, height: h, fits } = fit;
  if (letterH < 18 || h < 3 || h > 0.32 * letterH || w > 0.65 * letterH || w < 5) return false;
  const acuteSized = w <= 0.4 * letterH && w <= 2 * h;
  const wideSized = w >= 0.3 * letterH && w >= 1.4 * h;
  return !acuteSized && wideSized && fits.tilde >= FLAT_TILDE_FIT && fits.tilde - fits.circumflex >= FLAT_TILDE_MARGIN;
}

/** A glyph's stems: at least this share of its rows have ink in its outer columns on each side... */
export const N_STEM_ROWS = 0.8;
/** ...the outer columns being this share of its width on each side... */
const N_STEM_BAND = 0.3;
/** ...it is at least this share of its height wide (an I is a stem; an N is about as wide as tall)... */
const N_MIN_WIDTH = 0.45;
/** ...and the ink between its stems falls from its top left to its foot right (correlation at least this). */
export const N_DIAGONAL_FIT = 0.6;

/**
 * Whether a glyph is drawn as an N: two stems at its sides, each over most of its height (an A's sides
 * lean and meet at its apex; an I is one narrow stem), joined by a stroke that falls from the top left to
 * the foot right (an H's bar is level, an M's middle falls then rises, a U's bowl lies at its foot): the
 * ink's mean row of each middle column, correlated with the column, and ink in the upper half over the
 * middle's left quarter and none in the top third over its right quarter (under the serifs).
 */
export function nShaped(g: Gray, b: Blob): boolean {
  const w = b.x1 - b.x0 + 1, h = b.y1 - b.y0 + 1;
  if (w < N_MIN_WIDTH * h || w < 5 || h < 8) return false;
  const band = Math.max(1, Math.round(N_STEM_BAND * w));
  const leftRows = new Set<number>(), rightRows = new Set<number>();
  const colSum = new Float64Array(w), colN = new Uint32Array(w);
  for (const p of b.px) {
    const y = Math.floor(p / g.width), x = p % g.width;
    if (x < b.x0 + band) leftRows.add(y);
    if (x > b.x1 - band) rightRows.add(y);
    colSum[x - b.x0] += y; colN[x - b.x0]++;
  }
  if (leftRows.size < N_STEM_ROWS * h || rightRows.size < N_STEM_ROWS * h) return false;
  const xs: number[] = [], ys: number[] = [];
  for (let c = band; c < w - band; c++) if (colN[c]) { xs.push(c); ys.push(colSum[c] / colN[c]); }
  if (xs.length < 2) return false;
  const mx = xs.reduce((s, v) => s + v, 0) / xs.length, my = ys.reduce((s, v) => s + v, 0) / ys.length;
  let sxy = 0, sxx = 0, syy = 0;
  for (let k = 0; k < xs.length; k++) { sxy += (xs[k] - mx) * (ys[k] - my); sxx += (xs[k] - mx) ** 2; syy += (ys[k] - my) ** 2; }
  if (sxx <= 0 || syy <= 0 || sxy / Math.sqrt(sxx * syy) < N_DIAGONAL_FIT) return false;
  // The stroke starts at the top and ends at the foot: the middle's left quarter has ink in the glyph's
  // upper half, its right quarter none in its top third (a U's bowl lies at its foot; an H's bar in its middle;
  // an M's middle rises again to its top at the right).
  // Rows under the top 15 % only: serifs reach in there (a serifed U's, a serifed N's top right one).
  const serif = b.y0 + Math.ceil(0.15 * h), third = b.y0 + Math.floor(h / 3), half = b.y0 + Math.floor(h / 2);
  const m0 = b.x0 + band, m1 = b.x1 - band, q = Math.max(1, Math.floor((m1 - m0 + 1) / 4));
  let topLeft = false, topRight = false;
  for (const p of b.px) {
    const y = Math.floor(p / g.width), x = p % g.width;
    if (y < serif || y > half) continue;
    if (x >= m0 && x < m0 + q) topLeft = true;
    if (x > m1 - q && x <= m1 && y <= third) topRight = true;
  }
  return topLeft && !topRight;
}

/** Letters the recogniser gives for an Ñ's glyph (its tilde taken for an accent over a vowel or an I). */
const READ_FOR_N = /^[ÍÌÎÏIÁÀÂÃ]$/;
/** Two letters it gives for one Ñ glyph ("MUÍNOZ" for MUÑOZ: the tilde an I's acute, the N read too). */
const READ_AS_TWO = /[ÍÌÎÏ]N/g;

/**
 * The word's text with each Ñ its ink shows (an N-shaped glyph under a tilde) written Ñ: an N read plain
 * (tildesOverN); a glyph read as an accented vowel or I ("ACUÍA") whose ink is an N (nShaped); the two
 * letters Í and N read for one such glyph ("MUÍNOZ"). Undefined when the ink shows none.
 */
export function tildeNText(g: Gray, w: OcrWord): string | undefined {
  const comma = /,$/.test(w.text) ? ',' : '';
  const chars = [...w.text.replace(/,$/, '')];
  if (chars.some((c) => !/[A-ZÀ-ÖØ-Þ]/.test(c))) return undefined;
  if (!chars.some((c) => c === 'N' || READ_FOR_N.test(c))) return undefined;
  const glyphs = wordGlyphs(g, w);
  if (glyphs.length === chars.length) {
    let changed = false;
    for (const i of tildedGlyphs(g, glyphs, true)) {
      if (chars[i] === 'N' || (READ_FOR_N.test(chars[i]) && nShaped(g, glyphs[i]))) { chars[i] = 'Ñ'; changed = true; }
    }
    return changed ? chars.join('') + comma : undefined;
  }
  const pairs = [...chars.join('').matchAll(READ_AS_TWO)];
  if (pairs.length !== 1 || glyphs.length !== chars.length - 1) return undefined;
  const at = pairs[0].index!;
  const one = [...chars.slice(0, at), 'N', ...chars.slice(at + 2)];
  if (!tildedGlyphs(g, glyphs, true).includes(at) || !nShaped(g, glyphs[at])) return undefined;
  one[at] = 'Ñ';
  return one.join('') + comma;
}

/**
 * Words with each Ñ their ink shows (tildeNText) written Ñ, their confidence kept at most TILDE_N_CAP,
 * among the words `judged` accepts (the caller's: value-size words); every other word as it was. Nothing
 * is read again: only the page's pixels over words with an N, an accented vowel or an I are looked at.
 */
export function mendTildeN(g: Gray, words: OcrWord[], judged: (w: OcrWord) => boolean = () => true): OcrWord[] {
  return words.map((w) => {
    if (!/[NÍÌÎÏIÁÀÂÃ]/.test(w.text) || !judged(w)) return w;
    const text = tildeNText(g, w);
    if (text === undefined || text === w.text) return w;
    return { ...w, text, conf: Math.min(w.conf, TILDE_N_CAP) };
  });
}
