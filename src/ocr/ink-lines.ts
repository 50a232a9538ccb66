/**
 * Text lines of a gray page from its ink alone (issue #17, speed; used by printed-lines.ts): pixels
 * under INK_LEVEL, their 8-connected components, the glyph-sized ones chained into lines left to right,
 * each gap between glyphs measured as its clear columns (no faint ink) in the type's body, and a line
 * cut into words at its widest gaps. Pure functions on pixel buffers; bounded on any page (MAX_GLYPHS).
 */
import type { GrayImage } from './regions.js';
import { median } from './words.js';

/** Level under which a pixel is ink (the prepared page is contrast-stretched: type ~0-80, security print ~215). */
export const INK_LEVEL = 128;

/** A text line of the page: its box (px) and its words' horizontal extents (px), left to right. */
export interface InkLine {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Median height of its glyph components, px (the type's cap height for capitals). */
  h: number;
  /** Horizontal extents (px) of its glyphs, left to right, merged where they overlap (accents, touching letters). */
  glyphs: Array<{ x0: number; x1: number }>;
  /** Clear width (px) of each gap between consecutive glyphs: its columns with no faint ink in the type's body (one fewer than glyphs). */
  gaps: number[];
}

/** A box, inclusive px. */
export interface InkBox { x0: number; y0: number; x1: number; y1: number }
type Box = InkBox;
/** A connected component of ink: its box and, when asked for, its pixels' indices in the page (row-major, raster order). */
export interface InkComponent extends InkBox { px?: number[] }

/**
 * The 8-connected components of pixels darker than `level` inside `region` (default: the whole page),
 * in one raster pass with a union-find over provisional labels (typed arrays: ~2 ms for a 0.75 MP
 * side). Components come in the raster order of their first pixel; `withPixels` adds each one's pixel
 * indices (glyph-i.ts reads a glyph's shape from them).
 */
export function inkComponents(img: GrayImage, level = INK_LEVEL, region?: InkBox, withPixels = false): InkComponent[] {
  const { data, width: pw } = img;
  const rx0 = region?.x0 ?? 0, ry0 = region?.y0 ?? 0;
  const w = (region ? region.x1 + 1 : pw) - rx0, h = (region ? region.y1 + 1 : img.height) - ry0;
  if (w <= 0 || h <= 0) return [];
  const labels = new Int32Array(w * h);
  let parent = new Int32Array(1024);
  let next = 1;
  const find = (a: number): number => {
    let r = a;
    while (parent[r] !== r) r = parent[r];
    while (parent[a] !== r) { const up = parent[a]; parent[a] = r; a = up; }
    return r;
  };
  const union = (a: number, b: number): number => {
    if (a === b) return a;
    const ra = find(a), rb = find(b);
    if (ra < rb) { parent[rb] = ra; return ra; }
    parent[ra] = rb;
    return rb;
  };
  for (let y = 0; y < h; y++) {
    const row = y * w, src = (y + ry0) * pw + rx0;
    for (let x = 0; x < w; x++) {
      if (data[src + x] >= level) continue;
      const i = row + x;
      let l = x > 0 ? labels[i - 1] : 0;
      if (y > 0) {
        const up = i - w;
        if (x > 0 && labels[up - 1]) l = l ? union(l, labels[up - 1]) : labels[up - 1];
        if (labels[up]) l = l ? union(l, labels[up]) : labels[up];
        if (x < w - 1 && labels[up + 1]) l = l ? union(l, labels[up + 1]) : labels[up + 1];
      }
      if (!l) {
        if (next === parent.length) { const grown = new Int32Array(2 * next); grown.set(parent); parent = grown; }
        l = next;
        parent[next] = next;
        next++;
      }
      labels[i] = l;
    }
  }
  const x0 = new Int32Array(next).fill(w), y0 = new Int32Array(next).fill(h), x1 = new Int32Array(next).fill(-1), y1 = new Int32Array(next).fill(-1);
  const root = new Int32Array(next);
  for (let l = 1; l < next; l++) root[l] = find(l);
  const px: number[][] | undefined = withPixels ? [] : undefined;
  if (px) for (let l = 1; l < next; l++) if (root[l] === l) px[l] = [];
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      const l = labels[row + x];
      if (!l) continue;
      const r = root[l];
      if (x < x0[r]) x0[r] = x;
      if (x > x1[r]) x1[r] = x;
      if (y < y0[r]) y0[r] = y;
      y1[r] = y;
      if (px) px[r].push((y + ry0) * pw + x + rx0);
    }
  }
  const out: InkComponent[] = [];
  for (let l = 1; l < next; l++) {
    if (root[l] !== l) continue;
    const c: InkComponent = { x0: x0[l] + rx0, y0: y0[l] + ry0, x1: x1[l] + rx0, y1: y1[l] + ry0 };
    if (px) c.px = px[l];
    out.push(c);
  }
  return out;
}

/** Tallest glyph component, px (cap heights on the 820 px card: labels ~13, values ~20). */
const MAX_GLYPH_PX = 60;
/** Glyph components are 8 to MAX_GLYPH_PX tall and not rules. */
const isGlyph = (b: Box): boolean => {
  const h = b.y1 - b.y0 + 1, w = b.x1 - b.x0 + 1;
  return h >= 8 && h <= MAX_GLYPH_PX && w <= 25 * h;
};

/**
 * Most glyph components a page may have for its lines to be looked for: card sides have 333 (median)
 * to 554 (405 sides of the five seen parts); a page crafted with tens of thousands of dashes (review:
 * 80,730 in a 4.2 MP page took 25 s here) is read by the recogniser as it is, nothing whitened, so
 * this main-thread step stays bounded (~0.1 s at the cap) on any page.
 */
const MAX_GLYPHS = 4_000;

/**
 * Text lines of a page: glyph components chained left to right when their vertical centres lie within
 * 0.45 of the taller one's height and the gap is under 1.5 of it (as words.ts groupPhrases chains
 * words).
 */
export function inkLines(img: GrayImage, level = INK_LEVEL, faint = FAINT_LEVEL): InkLine[] {
  const glyphs = inkComponents(img, level).filter(isGlyph).sort((a, b) => a.x0 - b.x0);
  if (glyphs.length > MAX_GLYPHS) return [];
  // Runs still open to the next glyph: those whose last glyph ends within 1.5 of the tallest glyph
  // height before it (glyphs come left to right), so each glyph is tried against nearby runs only.
  let open: Box[][] = [];
  const done: Box[][] = [];
  for (const g of glyphs) {
    if (open.length > 64) {
      const still: Box[][] = [];
      for (const run of open) (g.x0 - run[run.length - 1].x1 >= 1.5 * MAX_GLYPH_PX ? done : still).push(run);
      open = still;
    }
    const gh = g.y1 - g.y0 + 1, cy = (g.y0 + g.y1) / 2;
    let best = -1, bestGap = Infinity;
    open.forEach((run, i) => {
      const last = run[run.length - 1];
      const lh = Math.max(gh, last.y1 - last.y0 + 1);
      const gap = g.x0 - last.x1;
      if (Math.abs(cy - (last.y0 + last.y1) / 2) < 0.45 * lh && gap < 1.5 * lh && gap < bestGap) { best = i; bestGap = gap; }
    });
    if (best >= 0) open[best].push(g);
    else open.push([g]);
  }
  return [...done, ...open].map((run) => {
    const h = median(run.map((b) => b.y1 - b.y0 + 1));
    const glyphs: Array<{ x0: number; x1: number }> = [];
    for (const b of run) {
      const last = glyphs[glyphs.length - 1];
      if (last && b.x0 <= last.x1 + 1) last.x1 = Math.max(last.x1, b.x1);
      else glyphs.push({ x0: b.x0, x1: b.x1 });
    }
    const y0 = Math.min(...run.map((b) => b.y0)), y1 = Math.max(...run.map((b) => b.y1));
    // The gaps are looked at in the type's body only (its glyphs' median top to median bottom): not
    // in the rows of accents, cedillas or a rule under the line, which would bridge them.
    const band0 = median(run.map((b) => b.y0)), band1 = median(run.map((b) => b.y1));
    return {
      x0: Math.min(...run.map((b) => b.x0)), y0, x1: Math.max(...run.map((b) => b.x1)), y1, h, glyphs,
      gaps: glyphs.slice(1).map((g, i) => clearColumns(img, glyphs[i].x1 + 1, g.x0 - 1, band0, band1, faint)),
    };
  }).sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
}

/**
 * Level under which a pixel is faint ink for the word gaps. Serif type's hairlines and feet fade to
 * 128-190 under blur, glare or low light and break its letters into pieces with gaps as wide as a
 * word's; counted with the faint ink they bridge those gaps, while a word gap stays clear (paper and
 * security print, ~215, above it).
 */
export const FAINT_LEVEL = 190;

/** Columns x0..x1 of `img` with no pixel under `faint` in rows y0..y1. */
function clearColumns(img: GrayImage, x0: number, x1: number, y0: number, y1: number, faint: number): number {
  let clear = 0;
  for (let x = x0; x <= x1; x++) {
    let y = y0;
    while (y <= y1 && img.data[y * img.width + x] >= faint) y++;
    if (y > y1) clear++;
  }
  return clear;
}

/**
 * The line cut into `k` words at its k - 1 widest gaps: the words' extents and how clearly those gaps
 * stand out (the narrowest of them over the widest of the others, Infinity when there are no others;
 * 0 when the line has fewer than k glyphs).
 */
export function wordsOf(l: InkLine, k: number): { words: Array<{ x0: number; x1: number }>; clarity: number } {
  const gs = l.gaps;
  if (gs.length < k - 1) return { words: [], clarity: 0 };
  const order = gs.map((g, i) => i).sort((a, b) => gs[b] - gs[a]);
  const cuts = order.slice(0, k - 1).sort((a, b) => a - b);
  const narrowestCut = k > 1 ? Math.min(...cuts.map((i) => gs[i])) : Infinity;
  const widestOther = gs.length > k - 1 ? gs[order[k - 1]] : 0;
  const words: Array<{ x0: number; x1: number }> = [];
  let start = 0;
  for (const c of [...cuts, gs.length]) {
    words.push({ x0: l.glyphs[start].x0, x1: l.glyphs[c].x1 });
    start = c + 1;
  }
  return { words, clarity: widestOther > 0 ? narrowestCut / widestOther : Infinity };
}
