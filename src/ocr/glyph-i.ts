/**
 * A capital I read as T (issue #17, eighth round): in serifed and monospaced type the recogniser reads
 * the I's top serif or slab as a T's bar ("TVANI" for IVANI, "OTONTEL" for OTONIEL, "CATO" for CAIO:
 * final5 part, four of seven at confianca >= 0.8, every symbol at 98-99 %). The glyph's own ink tells
 * them apart in any type: a T's top is its bar, far wider than its foot (the stem alone, or the stem's
 * short serif), while an I is as wide at its foot as at its top (a sans I is a bare stem; a serifed or
 * monospaced I has a serif or slab of the same width at both ends). Pure functions on a gray page.
 */
import { inkComponents } from './ink-lines.js';
import { otsuOfHistogram } from './light.js';
import type { GrayImage } from './regions.js';
import type { OcrWord } from './words.js';

/** An 8-bit gray image, one byte a pixel, row-major (regions.ts GrayImage). */
export type Gray = GrayImage;

/** A connected blob of ink: its box (inclusive px) and its pixels' indices in the page. */
export interface Blob { x0: number; y0: number; x1: number; y1: number; px: number[] }

/** A glyph's ink as a mask over its box (`w` x `h`, row-major): 1 for ink. */
export interface Mask { w: number; h: number; m: Uint8Array }

/** Blob `b` of page `g` -> its ink as a mask over its box (glyph-own.ts's letters, glyph-body.ts's hooks). */
export function maskOf(g: Gray, b: Blob): Mask {
  const w = b.x1 - b.x0 + 1, h = b.y1 - b.y0 + 1, m = new Uint8Array(w * h);
  for (const p of b.px) {
    const x = (p % g.width) - b.x0, y = Math.floor(p / g.width) - b.y0;
    if (x >= 0 && y >= 0 && x < w && y < h) m[y * w + x] = 1;
  }
  return { w, h, m };
}

/**
 * Otsu's threshold of the pixels of a box: ink is at or under it. The box's own split, not the page's,
 * so a dark or low-contrast corner of the page splits its ink from its paper as well as a clean one.
 */
export function otsu(g: Gray, x0: number, y0: number, x1: number, y1: number): number {
  const hist = new Uint32Array(256);
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) hist[g.data[y * g.width + x]]++;
  return otsuOfHistogram(hist);
}

/**
 * 8-connected blobs of ink (<= `t`) inside a box (inclusive px), with their pixels: ink-lines.ts
 * inkComponents on that box (ink under floor(t) + 1: the page's levels are whole numbers).
 */
export function blobs(g: Gray, x0: number, y0: number, x1: number, y1: number, t: number): Blob[] {
  return inkComponents(g, Math.floor(t) + 1, { x0, y0, x1, y1 }, true) as Blob[];
}

/**
 * The letters' glyphs of a word's box, left to right: blobs at least GLYPH_MIN_HEIGHT of the tallest
 * (marks above, specks and commas fall out); a blob lying mostly over another's columns is part of it
 * (a letter broken by the threshold). Boxes only (pixels kept for the shape test).
 */
const GLYPH_MIN_HEIGHT = 0.6;
export function wordGlyphs(g: Gray, w: Pick<OcrWord, 'x0' | 'y0' | 'x1' | 'y1'>): Blob[] {
  const x0 = Math.max(0, Math.floor(w.x0)), y0 = Math.max(0, Math.floor(w.y0));
  const x1 = Math.min(g.width - 1, Math.ceil(w.x1)), y1 = Math.min(g.height - 1, Math.ceil(w.y1));
  if (x1 - x0 < 3 || y1 - y0 < 6) return [];
  const t = otsu(g, x0, y0, x1, y1);
  const all = blobs(g, x0, y0, x1, y1, t);
  const tallest = Math.max(0, ...all.map((b) => b.y1 - b.y0 + 1));
  const tall = all.filter((b) => b.y1 - b.y0 + 1 >= GLYPH_MIN_HEIGHT * tallest).sort((a, b) => a.x0 - b.x0);
  const out: Blob[] = [];
  for (const b of tall) {
    const last = out[out.length - 1];
    const overlap = last ? Math.min(last.x1, b.x1) - Math.max(last.x0, b.x0) + 1 : 0;
    if (last && overlap > 0.5 * Math.min(last.x1 - last.x0 + 1, b.x1 - b.x0 + 1)) {
      last.x0 = Math.min(last.x0, b.x0); last.x1 = Math.max(last.x1, b.x1);
      last.y0 = Math.min(last.y0, b.y0); last.y1 = Math.max(last.y1, b.y1);
      last.px.push(...b.px);
    } else out.push({ ...b, px: [...b.px] });
  }
  return out;
}

/** Pearson correlation of two equal-length series (0 when either is flat). */
export function correlation(a: number[], b: number[]): number {
  const n = a.length;
  const ma = a.reduce((s, v) => s + v, 0) / n, mb = b.reduce((s, v) => s + v, 0) / n;
  let ab = 0, aa = 0, bb = 0;
  for (let k = 0; k < n; k++) { ab += (a[k] - ma) * (b[k] - mb); aa += (a[k] - ma) ** 2; bb += (b[k] - mb) ** 2; }
  return aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0;
}

/**
 * The gray-weighted ink centre (row, px, counted downwards) of each column of blob `m` on page `g` from
 * column `from` to `to` (the blob's own by default), over the blob's rows grown 1 px up and down: each pixel
 * weighed by how much darker than the box's lightest level (its paper) it is, less 20 levels, so a blur or a
 * threshold's stray pixel barely moves it. Columns without such ink are left out. Used by the mark readers
 * that judge a mark's profile (glyph-marks.ts barWave, cupDepth; glyph-tilde.ts waveFit).
 */
export function inkCentres(g: Gray, m: Pick<Blob, 'x0' | 'y0' | 'x1' | 'y1'>, from = m.x0, to = m.x1): Array<{ x: number; c: number }> {
  const Y0 = Math.max(0, m.y0 - 1), Y1 = Math.min(g.height - 1, m.y1 + 1);
  let paper = 0;
  for (let y = Y0; y <= Y1; y++) for (let x = m.x0; x <= m.x1; x++) paper = Math.max(paper, g.data[y * g.width + x]);
  const out: Array<{ x: number; c: number }> = [];
  for (let x = from; x <= to; x++) {
    let sw = 0, sy = 0;
    for (let y = Y0; y <= Y1; y++) { const v = Math.max(0, paper - g.data[y * g.width + x] - 20); sw += v; sy += v * y; }
    if (sw > 0) out.push({ x, c: sy / sw });
  }
  return out;
}

/** The shape of one glyph: its ink's width at its top and at its foot, and its box, in px. */
export interface GlyphShape { top: number; foot: number; width: number; height: number }

/**
 * Width of a glyph's ink in its top and bottom bands (each BAND of its height, at least 2 rows): the
 * widest row's extent in each band, so a bar or a serif counts whole.
 */
const BAND = 0.15;
export function glyphShape(g: Gray, b: Blob, cols?: [number, number]): GlyphShape {
  const h = b.y1 - b.y0 + 1;
  const band = Math.max(2, Math.round(BAND * h));
  const lo = new Map<number, number>(), hi = new Map<number, number>();
  for (const p of b.px) {
    const y = Math.floor(p / g.width), x = p % g.width;
    if (cols && (x < cols[0] || x > cols[1])) continue;
    lo.set(y, Math.min(lo.get(y) ?? Infinity, x));
    hi.set(y, Math.max(hi.get(y) ?? -Infinity, x));
  }
  const widest = (from: number, to: number): number => {
    let m = 0;
    for (let y = from; y <= to; y++) if (lo.has(y)) m = Math.max(m, hi.get(y)! - lo.get(y)! + 1);
    return m;
  };
  const width = cols ? Math.min(b.x1, cols[1]) - Math.max(b.x0, cols[0]) + 1 : b.x1 - b.x0 + 1;
  return { top: widest(b.y0, b.y0 + band - 1), foot: widest(b.y1 - band + 1, b.y1), width, height: h };
}

/**
 * The columns of a blob's first letter when it touches the next one (an I's foot serif joined to a V's
 * in blurred or compressed serif type: final5 #11): its first stem (the first run of columns with ink
 * in the middle fifth of the blob's height) and as much on its right as the blob reaches left of it.
 * I and T are symmetric about their stem, so this holds the whole of either and little of the next
 * letter. Undefined when the blob has no such stem.
 */
export function firstStemColumns(g: Gray, b: Blob): [number, number] | undefined {
  const h = b.y1 - b.y0 + 1;
  const m0 = b.y0 + Math.floor(0.4 * h), m1 = b.y0 + Math.ceil(0.6 * h);
  const mid = new Set<number>();
  for (const p of b.px) {
    const y = Math.floor(p / g.width);
    if (y >= m0 && y <= m1) mid.add(p % g.width);
  }
  let s = b.x0;
  while (s <= b.x1 && !mid.has(s)) s++;
  if (s > b.x1) return undefined;
  let e = s;
  while (e + 1 <= b.x1 && mid.has(e + 1)) e++;
  return [b.x0, Math.min(b.x1, e + (s - b.x0))];
}

/**
 * A glyph read as T whose foot is at least this share of its top is no T: a T's bar is 3-5 times its
 * stem and about twice a serifed stem's foot; an I's ends are one width.
 */
export const I_FOOT_SHARE = 0.75;
/**
 * An I is at most this wide for its height (a sans I is a stem, a serifed one ~0.4, a monospaced slab
 * I ~0.5-0.6): a wider blob is two letters touching, whose ends say nothing.
 */
export const I_MAX_WIDTH = 0.75;
/** Under this share the glyph is a T; between it and I_FOOT_SHARE it cannot be told. */
export const T_FOOT_SHARE = 0.6;

export type TOrI = 'T' | 'I' | '?';

/** What a glyph read as T is by its ends' widths (I_FOOT_SHARE, T_FOOT_SHARE). */
export function tOrI(s: GlyphShape): TOrI {
  if (s.top < 2 || s.height < 8) return '?';
  const share = s.foot / s.top;
  if (share < T_FOOT_SHARE) return 'T';
  return share >= I_FOOT_SHARE && s.width <= I_MAX_WIDTH * s.height ? 'I' : '?';
}

/** A first glyph taller than this x the word's median glyph is not one letter. */
const FIRST_MAX_HEIGHT = 1.25;

/** Letters of a name word that each print as one glyph (marks above ride on their letter). */
const LETTER = /[A-ZÀ-ÖØ-Þ]/;

/**
 * For each T of a capital word `w` (read on page `g`), what its glyph is: 'I' where the glyph's ends
 * are one width, 'T' where its top is clearly the wider, '?' where its glyph cannot be found (the
 * word's glyphs do not fall one to a letter and the T is not its first letter) or its shape does not
 * tell. An I by the word's ink split that has a T's bar at a lighter level (barAtLevel, half-way to the
 * paper: a blurred T's thin bar fades under the split while its stem stays dark; PRATES read right and
 * turned "PRAIES", final6 #74) is '?'. Keys are the T's indices in `w.text`.
 */
export function tGlyphs(g: Gray, w: OcrWord): Map<number, TOrI> {
  const out = new Map<number, TOrI>();
  let lighter: number | undefined;
  const letters = [...w.text].map((c, i) => ({ c, i })).filter((x) => LETTER.test(x.c));
  if (!letters.some((x) => x.c === 'T')) return out;
  const glyphs = wordGlyphs(g, w);
  const oneEach = glyphs.length === letters.length && letters.length === [...w.text].filter((c) => /\S/.test(c) && !/[,.'-]/.test(c)).length;
  letters.forEach((x, k) => {
    if (x.c !== 'T') return;
    // Glyphs not one to a letter (two letters touching, one broken): only a first letter is found, as
    // the first glyph, and only when that glyph is no taller than the word's (not a blob of two lines).
    const h = (b: Blob): number => b.y1 - b.y0 + 1;
    const midH = glyphs.map(h).sort((a, b) => a - b)[Math.floor(glyphs.length / 2)] ?? 0;
    const first = k === 0 && glyphs.length >= 2 && h(glyphs[0]) <= FIRST_MAX_HEIGHT * midH ? glyphs[0] : undefined;
    const glyph = oneEach ? glyphs[k] : first;
    if (!glyph) return out.set(x.i, '?') && undefined;
    // A first glyph too wide for one I is cut to its first stem (an I touching the next letter).
    const wide = !oneEach && glyph.x1 - glyph.x0 + 1 > I_MAX_WIDTH * (glyph.y1 - glyph.y0 + 1);
    const cols = wide ? firstStemColumns(g, glyph) : undefined;
    const v: TOrI = wide && !cols ? '?' : tOrI(glyphShape(g, glyph, cols));
    if (v !== 'I') return out.set(x.i, v) && undefined;
    // An I by the word's split: is it still one at a lighter level (a blurred T's bar fades under the split)?
    const gi = glyphs.indexOf(glyph), hh = h(glyph);
    const left = gi > 0 ? (glyphs[gi - 1].x1 + glyph.x0) / 2 : glyph.x0 - 0.5 * hh;
    const end = cols ? cols[1] : glyph.x1;
    const right = cols ? end : gi < glyphs.length - 1 ? (end + glyphs[gi + 1].x0) / 2 : end + 0.5 * hh;
    out.set(x.i, barAtLevel(g, glyph, left, right, lighter ??= lighterLevel(g, w)) ? '?' : 'I');
  });
  return out;
}

/**
 * The word's box (clamped to the page), its Otsu split `t`, and the median of its pixels over the split
 * (`above`) or at or under it; `empty` for the median when that side holds no pixel.
 */
function splitAndMedian(g: Gray, w: Pick<OcrWord, 'x0' | 'y0' | 'x1' | 'y1'>, above: boolean, empty: number): { t: number; median: number } {
  const x0 = Math.max(0, Math.floor(w.x0)), y0 = Math.max(0, Math.floor(w.y0));
  const x1 = Math.min(g.width - 1, Math.ceil(w.x1)), y1 = Math.min(g.height - 1, Math.ceil(w.y1));
  const t = otsu(g, x0, y0, x1, y1);
  const hist = new Uint32Array(256);
  let n = 0;
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) { const v = g.data[y * g.width + x]; if (v > t === above) { hist[v]++; n++; } }
  let median = empty;
  for (let v = 0, c = 0; v < 256; v++) { c += hist[v]; if (c * 2 >= n && n > 0) { median = v; break; } }
  return { t, median };
}

/**
 * A level half-way from the word's Otsu split to its paper (the median of the pixels over the split):
 * strokes the blur thinned to mid-gray are ink at it.
 */
export function lighterLevel(g: Gray, w: Pick<OcrWord, 'x0' | 'y0' | 'x1' | 'y1'>): number {
  const { t, median: paper } = splitAndMedian(g, w, true, 255);
  return (t + paper) / 2;
}

/**
 * A level half-way from the word's ink (the median of its pixels at or under its Otsu split) to that split:
 * its letters' cores are ink at it, a stain or a shadow lighter than them is not (final28 #13: the letters
 * of TROVÃO at 0-10 on a stain of 80-130 after a line whose split is near 120).
 */
export function darkerLevel(g: Gray, w: Pick<OcrWord, 'x0' | 'y0' | 'x1' | 'y1'>): number {
  const { t, median: ink } = splitAndMedian(g, w, false, 0);
  return (ink + t) / 2;
}

/**
 * True when a glyph may have a T's bar at level `t` (endsAtLevel between `left` and `right`): a top at least
 * T_BAR_SHARE of its height and a foot under I_FOOT_SHARE of that top, so its ends are not the one width an
 * I's are. A foot between T_FOOT_SHARE and I_FOOT_SHARE of the top tells nothing, at this level as at the
 * split: DejaVu Serif's T has a foot of 0.6 of its bar (final30 #34 and #71: TUPIASSU's and TOBELEM's T, their
 * bars' left halves left out of the recogniser's box or faded by a perspective's blur, so their ends were one
 * width at the split; 15 and 9 px at the lighter level: they were turned into I's, "IUPIASSU", "IOBELEM").
 */
export function barAtLevel(g: Gray, b: Blob, left: number, right: number, t: number): boolean {
  const h = b.y1 - b.y0 + 1;
  const e = endsAtLevel(g, b, left, right, t);
  return e.top >= T_BAR_SHARE * h && e.foot < I_FOOT_SHARE * e.top;
}

/**
 * A T's bar is at least this share of its glyph's height (0.6-0.8 in the seen types); an I's top
 * serif or slab is narrower in serif type, and as wide as its foot in every type.
 */
export const T_BAR_SHARE = 0.5;

/**
 * The widest ink at a glyph's top and foot (BAND of its height each) measured at a lighter level
 * `t` than the one that found it: each row's run of pixels at or under `t` that reaches the glyph's
 * own columns, held between `left` and `right` (half-way to the neighbouring glyphs). The glyph's rows
 * are those it has at `t`: up to a band more over and under the rows found at the split, where its
 * columns hold ink at `t` (a serif fainter than the split). A blurred T's bar
 * is a thin stroke and fades to mid-gray while its stem stays dark (final6 #74: stem 0-50, bar
 * 120-175): at the word's Otsu split only the stem is ink, at the lighter level the bar is whole.
 */
export function endsAtLevel(g: Gray, b: Blob, left: number, right: number, t: number): { top: number; foot: number } {
  const h = b.y1 - b.y0 + 1;
  const band = Math.max(2, Math.round(BAND * h));
  const lo = Math.max(0, Math.ceil(left)), hi = Math.min(g.width - 1, Math.floor(right));
  const widest = (from: number, to: number): number => {
    let m = 0;
    for (let y = from; y <= to; y++) {
      let run = 0, touches = false;
      for (let x = lo; x <= hi + 1; x++) {
        if (x <= hi && g.data[y * g.width + x] <= t) {
          run++;
          if (x >= b.x0 && x <= b.x1) touches = true;
        } else {
          if (touches) m = Math.max(m, run);
          run = 0;
          touches = false;
        }
      }
    }
    return m;
  };
  // The glyph's rows at level `t`: a serif fainter than the split lies over or under the rows it found.
  const inkRow = (y: number): boolean => {
    if (y < 0 || y >= g.height) return false;
    for (let x = b.x0; x <= b.x1; x++) if (g.data[y * g.width + x] <= t) return true;
    return false;
  };
  let y0 = b.y0, y1 = b.y1;
  while (y0 > b.y0 - band && inkRow(y0 - 1)) y0--;
  while (y1 < b.y1 + band && inkRow(y1 + 1)) y1++;
  return { top: widest(y0, y0 + band - 1), foot: widest(y1 - band + 1, y1) };
}
