/**
 * Two letters of their own told by their bars (issue #17, twenty-third round): the barred H (Ħ, Maltese:
 * ĦABEL, BUĦAĠIAR) and the capital schwa (Ə, Azerbaijani: MƏMMƏDOV, ƏLƏKBƏROV). The Portuguese model cannot
 * write either and reads the nearest Latin letter, sure of it (final21: ĦABEL "HABEL" 0.91, MƏMMƏDOV
 * "MOMMODOV" 0.895, CƏFƏROV "COFOROV" 0.842). By their shape in any face:
 * - Ħ is an H with a second bar joining its stems above the crossbar: two bands of rows whose ink runs
 *   from the glyph's left stem to its right one (barRows), where an H has one;
 * - Ə is an e turned over, drawn as a capital: a bar across the whole width at mid-height, its one closed
 *   counter under that bar (an O's counter is centred, an A's lies over its crossbar), the top open to the
 *   left.
 * Pure functions on a gray page's glyphs (glyph-i.ts wordGlyphs); glyph-own.ts ownLetter calls them.
 */
import type { Blob, Gray } from './glyph-i.js';

/** A glyph's ink as rows of a mask over its box: 1 for ink. */
function mask(g: Gray, b: Blob): { w: number; h: number; m: Uint8Array } {
  const w = b.x1 - b.x0 + 1, h = b.y1 - b.y0 + 1, m = new Uint8Array(w * h);
  for (const p of b.px) {
    const x = (p % g.width) - b.x0, y = Math.floor(p / g.width) - b.y0;
    if (x >= 0 && y >= 0 && x < w && y < h) m[y * w + x] = 1;
  }
  return { w, h, m };
}

/** A bar's row: its ink runs unbroken over at least this share of the glyph's width... */
export const BAR_MIN_SPAN = 0.7;
/** ...with ink in at least this share of the columns between its leftmost and rightmost ink. */
export const BAR_MIN_FILL = 0.9;

/**
 * The bands of a glyph's rows (first, last; box rows) from `from` to `to` (shares of its height) that are
 * bars: ink over BAR_MIN_SPAN of its width, filled BAR_MIN_FILL between its ends. An H's stems leave its
 * other rows empty between them; serifs stand at the top and foot only.
 */
export function barRows(g: Gray, b: Blob, from = 0.1, to = 0.9): Array<[number, number]> {
  const { w, h, m } = mask(g, b), bands: Array<[number, number]> = [];
  for (let y = Math.round(from * h); y <= Math.min(h - 1, Math.round(to * h)); y++) {
    let l = -1, r = -1, n = 0;
    for (let x = 0; x < w; x++) if (m[y * w + x]) { if (l < 0) l = x; r = x; n++; }
    const bar = l >= 0 && r - l + 1 >= BAR_MIN_SPAN * w && n >= BAR_MIN_FILL * (r - l + 1);
    const last = bands[bands.length - 1];
    if (bar && last && last[1] === y - 1) last[1] = y; else if (bar) bands.push([y, y]);
  }
  return bands;
}

/** A barred H's two bars: the upper one's middle lies at most this share of the height down (crossbars 0.45-0.6). */
export const H_BAR_MAX_AT = 0.42;
/** One band this share of the height thick or more is two bars run together by blur: a doubt, not a letter. */
export const H_BARS_RUN = 0.28;

/**
 * What a glyph read H shows: 'Ħ' where two bars join its stems (barRows from 0.1 to 0.8 of its height), the
 * upper one's middle above H_BAR_MAX_AT of the height; 'doubt' where one band H_BARS_RUN thick starts above
 * that line (the bar and the crossbar blurred into one); undefined for an H.
 */
export function barredH(g: Gray, b: Blob): 'Ħ' | 'doubt' | undefined {
  const h = b.y1 - b.y0 + 1, bands = barRows(g, b, 0.1, 0.8);
  const mid = ([a, c]: [number, number]): number => (a + c + 1) / 2 / h;
  if (bands.length >= 2 && mid(bands[0]) <= H_BAR_MAX_AT) return 'Ħ';
  if (bands.length === 1 && (bands[0][1] - bands[0][0] + 1) >= H_BARS_RUN * h && bands[0][0] / h <= H_BAR_MAX_AT) return 'doubt';
  return undefined;
}

/** A schwa's one counter lies under its bar: its centre at least this share of the height down (an O's 0.5, an A's 0.4-0.5). */
export const SCHWA_MIN_COUNTER = 0.58;

/** The closed counters of a mask (4-connected paper not reaching the box's edge, >= 3 px): centre row and rows spanned. */
function counters({ w, h, m }: { w: number; h: number; m: Uint8Array }): Array<{ cy: number; top: number; foot: number }> {
  const seen = new Uint8Array(w * h), out: Array<{ cy: number; top: number; foot: number }> = [];
  for (let s = 0; s < w * h; s++) {
    if (m[s] || seen[s]) continue;
    const stack = [s]; seen[s] = 1;
    let n = 0, sy = 0, edge = false, top = h, foot = 0;
    while (stack.length) {
      const p = stack.pop()!, x = p % w, y = (p - x) / w;
      n++; sy += y; top = Math.min(top, y); foot = Math.max(foot, y);
      if (x === 0 || y === 0 || x === w - 1 || y === h - 1) edge = true;
      for (const q of [x > 0 ? p - 1 : -1, x < w - 1 ? p + 1 : -1, y > 0 ? p - w : -1, y < h - 1 ? p + w : -1]) {
        if (q >= 0 && !m[q] && !seen[q]) { seen[q] = 1; stack.push(q); }
      }
    }
    if (!edge && n >= 3) out.push({ cy: (sy / n + 0.5) / h, top, foot });
  }
  return out;
}

/**
 * Whether a glyph is a capital schwa (Ə): one closed counter, centred at least SCHWA_MIN_COUNTER of its
 * height down, whose top is a bar (barRows between 0.3 and 0.65 of the height, just over the counter), and
 * the rows of its upper third start right of the bar's left end (the turned e's mouth, open to the left).
 */
export function schwaShape(g: Gray, b: Blob): boolean {
  const mk = mask(g, b), { w, h, m } = mk;
  if (h < 8 || w < 5) return false;
  const holes = counters(mk);
  if (holes.length !== 1 || holes[0].cy < SCHWA_MIN_COUNTER) return false;
  const bars = barRows(g, b, 0.3, 0.65);
  const bar = bars.find(([, e]) => e >= holes[0].top - 2 && e < holes[0].top);
  if (!bar) return false;
  const leftOf = (y: number): number => { let x = 0; while (x < w && !m[y * w + x]) x++; return x; };
  let barLeft = w;
  for (let y = bar[0]; y <= bar[1]; y++) barLeft = Math.min(barLeft, leftOf(y));
  // The mouth: some row between the top fifth and the bar starts clear of the bar's left end.
  for (let y = Math.round(0.2 * h); y < bar[0]; y++) if (leftOf(y) - barLeft >= Math.max(2, 0.2 * w)) return true;
  return false;
}
