/**
 * The card's bright region in a frame's grey analysis copy (frame.ts Gray): a light card over a darker
 * background, its long axis (the turn a photo's card is straightened by when no outline is found) and its
 * box (the crop). Split from frame.ts (behaviour unchanged); card-type.ts checks both against the type.
 */
import type { Gray } from './frame.js';

/** Principal-axis angle (degrees, image coordinates) of the pixels above `t`, and their share. */
export function brightAxis(g: Gray, t: number): { angleDeg: number; share: number } {
  let n = 0, sx = 0, sy = 0;
  for (let y = 0; y < g.h; y++) for (let x = 0; x < g.w; x++) if (g.data[y * g.w + x] > t) { n++; sx += x; sy += y; }
  const mx = sx / n, my = sy / n;
  let m20 = 0, m02 = 0, m11 = 0;
  for (let y = 0; y < g.h; y++) for (let x = 0; x < g.w; x++) if (g.data[y * g.w + x] > t) {
    const dx = x - mx, dy = y - my;
    m20 += dx * dx; m02 += dy * dy; m11 += dx * dy;
  }
  let a = (0.5 * Math.atan2(2 * m11, m20 - m02) * 180) / Math.PI;
  if (a > 45) a -= 90;
  if (a < -45) a += 90;
  return { angleDeg: a, share: n / (g.w * g.h) };
}

/**
 * Bounding box of the card: the span of rows where more than 35% of pixels are above `t`, then, within
 * those rows only, the span of columns where more than 35% are (a card in a tall phone screenshot
 * covers too few of the whole image's rows for its columns to pass over the full height).
 */
export function brightBox(g: Gray, t: number): { left: number; top: number; width: number; height: number } {
  const span = (a: Float64Array, len: number): [number, number] => {
    let lo = 0, hi = a.length - 1;
    while (lo < hi && a[lo] < 0.35 * len) lo++;
    while (hi > lo && a[hi] < 0.35 * len) hi--;
    return [lo, hi];
  };
  const rows = new Float64Array(g.h);
  for (let y = 0; y < g.h; y++) for (let x = 0; x < g.w; x++) if (g.data[y * g.w + x] > t) rows[y]++;
  const [y0, y1] = span(rows, g.w);
  const cols = new Float64Array(g.w);
  for (let y = y0; y <= y1; y++) for (let x = 0; x < g.w; x++) if (g.data[y * g.w + x] > t) cols[x]++;
  const [x0, x1] = span(cols, y1 - y0 + 1);
  return { left: x0, top: y0, width: Math.max(1, x1 - x0 + 1), height: Math.max(1, y1 - y0 + 1) };
}
