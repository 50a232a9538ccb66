/**
 * A C's body told from an E's or an O's (issue #17, twenty-second round; moved out of glyph-foreign.ts in
 * the twenty-fourth, unchanged): the Portuguese model reads Ć and Č as the nearest letter it has under a
 * mark ("É", "Ó"), and the body's shape says C. Pure functions on a gray page.
 */
import type { Blob, Gray } from './glyph-i.js';

/** A C's mouth: its middle rows' ink ends at least this share of its width short of its right edge. */
const MOUTH_MIN = 0.3;

/**
 * Whether a glyph's body is open on the right (a C, not an O): over its middle fifth of rows (the
 * rows 0.4-0.6 of its height down), the rightmost ink of each row lies at least MOUTH_MIN of its
 * width short of its right edge, in most of those rows. An O, a Q, a G (its bar) close there.
 * The recogniser reads Č as "Ó" (final17: MATULEVIČIUS "MATULEVIÓIUS", the caron taken for an acute
 * over a round letter); its body's mouth says C.
 */
export function openRight(g: Gray, b: Blob): boolean {
  const h = b.y1 - b.y0 + 1, w = b.x1 - b.x0 + 1;
  if (w < 5 || h < 8) return false;
  const lo = b.y0 + Math.round(0.4 * h), hi = b.y0 + Math.round(0.6 * h);
  const right = new Map<number, number>();
  for (const p of b.px) { const y = Math.floor(p / g.width); if (y >= lo && y <= hi) right.set(y, Math.max(right.get(y) ?? -1, p % g.width)); }
  let open = 0, rows = 0;
  for (let y = lo; y <= hi; y++) { rows++; if (b.x1 - (right.get(y) ?? b.x0) >= MOUTH_MIN * w) open++; }
  return rows > 0 && open > rows / 2;
}


/** A C's side is round: its leftmost ink at 0.1 and 0.9 of its body's height lies on average at least this share of its width right of its middle rows' (an E's stem is straight). */
const C_ROUND = 0.08;
/** A C has no middle arm: its middle rows' ink ends within this share of its width from its left (an E's arm reaches 0.7-0.9). */
const C_ARM_MAX = 0.55;

/**
 * Whether a glyph read as an E with a mark is a C's body (Ć, Č read "É", "Ê": final20's JOVANOVIĆ read
 * "JOVANOVIÉ" at 0.853, the Portuguese model writing the nearest letter it has under an acute): open on
 * the right (openRight), no middle arm (no row of the middle fifth reaching past C_ARM_MAX of the width)
 * and a round side (rows 0.15 and 0.85 down start C_ROUND of the width right of the middle rows'
 * leftmost ink). An E has a straight stem and a middle arm in every face; serifs stick out at the top and
 * foot rows only.
 */
export function cBody(g: Gray, b: Blob, top = b.y0): boolean {
  // The letter's body from the capitals' top down (an acute blurred on to the C is the glyph's top).
  const y0 = Math.max(b.y0, top), h = b.y1 - y0 + 1, w = b.x1 - b.x0 + 1;
  if (w < 5 || h < 8) return false;
  const left = new Array<number>(h).fill(w), right = new Array<number>(h).fill(-1);
  for (const p of b.px) {
    const y = Math.floor(p / g.width) - y0, x = (p % g.width) - b.x0;
    if (y < 0 || y >= h) continue;
    left[y] = Math.min(left[y], x); right[y] = Math.max(right[y], x);
  }
  const lo = Math.round(0.4 * h), hi = Math.round(0.6 * h);
  let midLeft = w;
  for (let y = lo; y <= hi; y++) {
    if (right[y] > C_ARM_MAX * w) return false;
    midLeft = Math.min(midLeft, left[y]);
  }
  const at = (u: number): number => left[Math.min(h - 1, Math.round(u * h))];
  return (at(0.1) + at(0.9)) / 2 - midLeft >= C_ROUND * w;
}
