/**
 * How many letters a short code's ink holds (issue #17, eighth round): a category AE read "A" or "E" at
 * 0.97 (final5 #31, blurred serif type, the page pass's "A" boxed 2 x 3 px inside the A; #54, JPEG, the
 * A left of where the other values start and the label's "9" unread, so layout.ts excessIndent saw no
 * excess). The letters of a code stand together on the card, one value-type glyph each; the recogniser
 * drops one, the ink keeps it. Pure functions on a gray page (glyph-i.ts Gray).
 */
import { blobs, otsu, type Blob, type Gray } from './glyph-i.js';

/** A capital's advance in its type's height (DejaVu's A ~0.95, its E ~0.8): a blob counts one letter per this much width (0.72 counted a sans AE touching as 3 letters: tuning #9, #24). */
export const LETTER_WIDTH = 0.9;
/** Letters of one code are at most this many type heights apart (the gap to a label is more than 1). */
export const CODE_GAP = 0.5;
/** A letter's glyph is this share of the value type's height or more, and at most CODE_MAX_HEIGHT of it. */
const CODE_MIN_HEIGHT = 0.6;
const CODE_MAX_HEIGHT = 1.6;

/** The ink of a code read at (cx, cy) on a page with value type `typeH` px tall: its glyphs' chain and box. */
export interface CodeInk { letters: number; x0: number; y0: number; x1: number; y1: number }

/**
 * The glyphs standing together around (`cx`, `cy`) (a point inside the code as read) on `g`: blobs of
 * value-type height crossing the row `cy`, within 3 type heights, chained while CODE_GAP x `typeH` or
 * less apart, from the one nearest `cx` (within half a type height). `letters` counts a blob as
 * round(width / (LETTER_WIDTH x its height)), at least 1 (two serifed capitals touch when blurred).
 * Undefined when no glyph is there.
 */
export function codeInk(g: Gray, cx: number, cy: number, typeH: number): CodeInk | undefined {
  const x0 = Math.max(0, Math.floor(cx - 3 * typeH)), x1 = Math.min(g.width - 1, Math.ceil(cx + 3 * typeH));
  const y0 = Math.max(0, Math.floor(cy - CODE_MAX_HEIGHT * typeH)), y1 = Math.min(g.height - 1, Math.ceil(cy + CODE_MAX_HEIGHT * typeH));
  if (x1 - x0 < 4 || y1 - y0 < 4) return undefined;
  const t = otsu(g, x0, y0, x1, y1);
  const hOf = (b: Blob): number => b.y1 - b.y0 + 1;
  const glyphs = blobs(g, x0, y0, x1, y1, t)
    .filter((b) => b.y0 <= cy && b.y1 >= cy && hOf(b) >= CODE_MIN_HEIGHT * typeH && hOf(b) <= CODE_MAX_HEIGHT * typeH)
    .sort((a, b) => a.x0 - b.x0);
  const dist = (b: Blob): number => (cx < b.x0 ? b.x0 - cx : cx > b.x1 ? cx - b.x1 : 0);
  let k = -1;
  for (let i = 0; i < glyphs.length; i++) if (dist(glyphs[i]) <= 0.5 * typeH && (k < 0 || dist(glyphs[i]) < dist(glyphs[k]))) k = i;
  if (k < 0) return undefined;
  let a = k, b = k;
  while (a > 0 && glyphs[a].x0 - glyphs[a - 1].x1 <= CODE_GAP * typeH) a--;
  while (b < glyphs.length - 1 && glyphs[b + 1].x0 - glyphs[b].x1 <= CODE_GAP * typeH) b++;
  return chainInk(glyphs.slice(a, b + 1));
}

/**
 * A chain of glyphs (left to right, at least one) as a code's ink: its box, and its letters, a blob counted as
 * round(width / (LETTER_WIDTH x its height)), at least 1.
 */
function chainInk(chain: Blob[]): CodeInk {
  const letters = chain.reduce((n, x) => n + Math.max(1, Math.round((x.x1 - x.x0 + 1) / (LETTER_WIDTH * (x.y1 - x.y0 + 1)))), 0);
  return { letters, x0: chain[0].x0, y0: Math.min(...chain.map((x) => x.y0)), x1: chain[chain.length - 1].x1, y1: Math.max(...chain.map((x) => x.y1)) };
}

/**
 * The one code standing in a place (`box`, page px) where nothing was read (second-looks.ts rereadSuspects
 * for a place without words: fields.ts, an older front's category with its label unread): blobs of value-type
 * height (CODE_MIN_HEIGHT to CODE_MAX_HEIGHT x `typeH`) wholly inside the box, chained while CODE_GAP x
 * `typeH` or less apart. Undefined when there is no glyph, or more than one chain (the place holds other
 * print, and which is the code is not told).
 */
export function codeInkIn(g: Gray, box: { x0: number; y0: number; x1: number; y1: number }, typeH: number): CodeInk | undefined {
  const x0 = Math.max(0, Math.floor(box.x0)), x1 = Math.min(g.width - 1, Math.ceil(box.x1));
  const y0 = Math.max(0, Math.floor(box.y0)), y1 = Math.min(g.height - 1, Math.ceil(box.y1));
  if (x1 - x0 < 4 || y1 - y0 < 4 || typeH <= 0) return undefined;
  const t = otsu(g, x0, y0, x1, y1);
  const hOf = (b: Blob): number => b.y1 - b.y0 + 1;
  const glyphs = blobs(g, x0, y0, x1, y1, t)
    .filter((b) => b.x0 > x0 && b.x1 < x1 && b.y0 > y0 && b.y1 < y1 && hOf(b) >= CODE_MIN_HEIGHT * typeH && hOf(b) <= CODE_MAX_HEIGHT * typeH)
    .sort((a, b) => a.x0 - b.x0);
  if (!glyphs.length) return undefined;
  for (let i = 1; i < glyphs.length; i++) if (glyphs[i].x0 - glyphs[i - 1].x1 > CODE_GAP * typeH) return undefined;
  return chainInk(glyphs);
}

/**
 * How far after a remark's last glyph (type heights) the next code's first glyph may start: codes are
 * printed one space apart (a space is 0.3-0.9 of the type's height in the value fonts, monospaced the widest).
 */
export const NEXT_CODE_REACH = 1.5;

/**
 * Glyphs of value type (CODE_MIN_HEIGHT to CODE_MAX_HEIGHT x `typeH`, crossing the row `cy`) that start
 * after `x` (a value's last glyph's right edge) and at most NEXT_CODE_REACH type heights after it: ink of
 * a code the page pass did not read (final9 #0: remarks EAR A read "EAR" at 0.93, the lone A dropped).
 * The threshold is the split of the box from the value's last letters to the reach's end.
 */
export function glyphsAfter(g: Gray, x: number, cy: number, typeH: number): number {
  const x0 = Math.max(0, Math.floor(x - 1.5 * typeH)), x1 = Math.min(g.width - 1, Math.ceil(x + (NEXT_CODE_REACH + 1.2) * typeH));
  const y0 = Math.max(0, Math.floor(cy - CODE_MAX_HEIGHT * typeH)), y1 = Math.min(g.height - 1, Math.ceil(cy + CODE_MAX_HEIGHT * typeH));
  if (x1 - x0 < 4 || y1 - y0 < 4 || x >= g.width - 2) return 0;
  const t = otsu(g, x0, y0, x1, y1);
  const hOf = (b: Blob): number => b.y1 - b.y0 + 1;
  return blobs(g, x0, y0, x1, y1, t)
    .filter((b) => b.x0 > x + 1 && b.x0 <= x + NEXT_CODE_REACH * typeH && b.y0 <= cy && b.y1 >= cy && hOf(b) >= CODE_MIN_HEIGHT * typeH && hOf(b) <= CODE_MAX_HEIGHT * typeH)
    .length;
}
