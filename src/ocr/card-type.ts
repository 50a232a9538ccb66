/**
 * The card's type in a frame's grey analysis copy (frame.ts Gray), as a mask: the black top-hat of the
 * grey page (a morphological closing minus the page: Serra, "Image analysis and mathematical
 * morphology", 1982; Gonzalez and Woods, "Digital image processing", the top-hat for dark detail on an
 * uneven ground) keeps what is dark, thin and on a lighter ground (strokes of type, a few px wide in the
 * analysis copy) and leaves out what is large (a dark desk, the shadow beside a card, the card's own
 * light and dark halves in uneven light). frame.ts asks it whether a crop of the card keeps the card's
 * type (a crop found by the card's bright region alone can cut a line of type off where the card's edge
 * is smeared or lit unevenly), and skew.ts typeSkew turns by it.
 */
import type { Gray } from './frame.js';
import { AXIS_CHECK_DEG, typeSkew } from './skew.js';

/**
 * Side (px of the analysis copy, at most 700 px on its longer side) of the closing's square: a stroke
 * up to SIDE - 1 px wide is filled, so its ink counts. A card 700 px wide prints its values' strokes
 * 1-3 px wide and its labels' 1-2 px; 7 leaves room for bold type, blur and a phone's smear.
 */
export const TYPE_CLOSE_PX = 7;

/**
 * A pixel is a type mark when its top-hat is at least this share of the frame's 99.5th percentile
 * top-hat (the darkest strokes' contrast on their ground: black type on the card's page in any light),
 * and at least TYPE_MIN_LEVEL: the card's pale security print and sensor noise stay under it.
 */
export const TYPE_MARK_SHARE = 0.4;
/** The least top-hat (grey levels) a type mark has, whatever the frame's contrast. */
export const TYPE_MIN_LEVEL = 16;

/** A frame's type marks: `mask` 1 on a mark (g's w x h), `count` of them. */
export interface TypeMarks { mask: Uint8Array; w: number; h: number; count: number }

/** Running max (`max` true) or min of `src` along rows (`dx` 1) or columns over a window of `k` px centred. */
function slide(src: Uint8Array, w: number, h: number, k: number, horizontal: boolean, max: boolean): Uint8Array {
  const out = new Uint8Array(src.length), r = k >> 1;
  const n = horizontal ? w : h, lines = horizontal ? h : w;
  for (let l = 0; l < lines; l++) {
    for (let i = 0; i < n; i++) {
      let v = max ? 0 : 255;
      const lo = Math.max(0, i - r), hi = Math.min(n - 1, i + r);
      for (let j = lo; j <= hi; j++) {
        const p = src[horizontal ? l * w + j : j * w + l];
        if (max ? p > v : p < v) v = p;
      }
      out[horizontal ? l * w + i : i * w + l] = v;
    }
  }
  return out;
}

/**
 * The type marks of `g` (module comment): closing by a TYPE_CLOSE_PX square (max then min, separable),
 * minus `g`, over TYPE_MARK_SHARE of its 99.5th percentile and TYPE_MIN_LEVEL. A frame without contrast
 * has no marks (count 0).
 */
export function typeMarks(g: Gray): TypeMarks {
  const { w, h } = g, k = TYPE_CLOSE_PX;
  const closed = slide(slide(slide(slide(g.data, w, h, k, true, true), w, h, k, false, true), w, h, k, true, false), w, h, k, false, false);
  const hist = new Uint32Array(256), top = new Uint8Array(w * h);
  for (let i = 0; i < top.length; i++) { top[i] = closed[i] - g.data[i]; hist[top[i]]++; }
  let acc = 0, p995 = 255;
  for (let v = 255; v >= 0; v--) { acc += hist[v]; if (acc >= 0.005 * top.length) { p995 = v; break; } }
  const t = Math.max(TYPE_MIN_LEVEL, Math.round(TYPE_MARK_SHARE * p995));
  const mask = new Uint8Array(w * h);
  let count = 0;
  for (let i = 0; i < top.length; i++) if (top[i] >= t) { mask[i] = 1; count++; }
  return { mask, w, h, count };
}

/** A box (px of the marks' copy): left, top, width, height. */
export interface Box { left: number; top: number; width: number; height: number }

/** The least box holding both `a` and `b`. */
export function unionBox(a: Box, b: Box): Box {
  const left = Math.min(a.left, b.left), top = Math.min(a.top, b.top);
  return { left, top, width: Math.max(a.left + a.width, b.left + b.width) - left, height: Math.max(a.top + a.height, b.top + b.height) - top };
}

/** Share of the marks let go at each end of each axis by pointsBox (a speck of the background's texture far off does not stretch the box). */
export const TYPE_BOX_TAIL = 0.002;

/**
 * The marks of `m` carried into a copy of the frame turned by `deg` degrees clockwise about its centre
 * (sharp's rotate: the canvas grown to hold the whole frame): `src` and `dst` are the two copies'
 * sizes in frame px (w x h) and `srcScale`, `dstScale` their copies' px per frame px. Interleaved x, y
 * in the turned copy's px. The turned copy's own top-hat would count the turn's filled corners (a
 * closing fills their acute tips) as type; carried marks are the frame's own.
 */
export function turnedMarks(m: TypeMarks, deg: number, src: { w: number; h: number; scale: number }, dst: { w: number; h: number; scale: number }): Float64Array {
  const r = (deg * Math.PI) / 180, c = Math.cos(r), s = Math.sin(r);
  const out = new Float64Array(2 * m.count);
  let k = 0;
  for (let y = 0; y < m.h; y++) for (let x = 0; x < m.w; x++) {
    if (!m.mask[y * m.w + x]) continue;
    const X = (x + 0.5) / src.scale - src.w / 2, Y = (y + 0.5) / src.scale - src.h / 2;
    out[k++] = (X * c - Y * s + dst.w / 2) * dst.scale;
    out[k++] = (X * s + Y * c + dst.h / 2) * dst.scale;
  }
  return out;
}

/** Share (0-1) of the points `p` (interleaved x, y) inside `box`; 1 when there are none. */
export function pointsInBox(p: Float64Array, box: Box): number {
  if (p.length === 0) return 1;
  let n = 0;
  for (let i = 0; i < p.length; i += 2) if (p[i] >= box.left && p[i] < box.left + box.width && p[i + 1] >= box.top && p[i + 1] < box.top + box.height) n++;
  return (2 * n) / p.length;
}

/**
 * The box (px, inside w x h) of the points `p` (interleaved x, y): TYPE_BOX_TAIL of them let go at each
 * end of each axis, then widened by TYPE_BOX_PAD of its own size on each side (the card's margin
 * around its type). Null with no points.
 */
export function pointsBox(p: Float64Array, w: number, h: number): Box | null {
  const n = p.length / 2;
  if (n === 0) return null;
  const xs = new Float64Array(n), ys = new Float64Array(n);
  for (let i = 0; i < n; i++) { xs[i] = p[2 * i]; ys[i] = p[2 * i + 1]; }
  xs.sort(); ys.sort();
  const lo = Math.floor(TYPE_BOX_TAIL * n), hi = Math.max(lo, n - 1 - lo);
  const px = TYPE_BOX_PAD * (xs[hi] - xs[lo]), py = TYPE_BOX_PAD * (ys[hi] - ys[lo]);
  const left = Math.max(0, Math.floor(xs[lo] - px)), top = Math.max(0, Math.floor(ys[lo] - py));
  return { left, top, width: Math.min(w, Math.ceil(xs[hi] + px) + 1) - left, height: Math.min(h, Math.ceil(ys[hi] + py) + 1) - top };
}

/**
 * Share of the marks outside a crop that each of two opposite sides of it (above and below, or left and
 * right) must hold for the marks to be a pattern over the whole frame rather than type the crop cut off.
 */
export const OPPOSITE_SHARE = 0.25;

/**
 * Whether the points `p` (interleaved x, y) outside `box` lie on two opposite sides of it, each side
 * (above, below, or left, right, taken in that order for a point beyond a corner) holding at least
 * OPPOSITE_SHARE of them. Type that a crop by the card's bright region cut off lies on one side of it (a
 * shadow or a reflection's edge across the card: final20 #11, every mark outside below the lit upper two
 * thirds); text written over the whole picture (a sharing watermark in white, bright letters over a dark
 * desk, their counters and gaps dark and thin like type: final32 #2 and #68, 35 % and 45 %, 45 % and 36 %
 * of the marks outside above and below two card sides that held under half of all marks) lies all round it.
 * False with no point outside.
 */
export function marksOnOppositeSides(p: Float64Array, box: Box): boolean {
  const sides = [0, 0, 0, 0];
  for (let i = 0; i < p.length; i += 2) {
    const x = p[i], y = p[i + 1];
    if (y < box.top) sides[0]++;
    else if (y >= box.top + box.height) sides[1]++;
    else if (x < box.left) sides[2]++;
    else if (x >= box.left + box.width) sides[3]++;
  }
  const n = sides[0] + sides[1] + sides[2] + sides[3];
  if (n === 0) return false;
  const held = (k: number): boolean => sides[k] >= OPPOSITE_SHARE * n;
  return (held(0) && held(1)) || (held(2) && held(3));
}

/** Share of its own width (height) by which pointsBox widens the type's box on each side: a card's margin beyond its outermost type. */
export const TYPE_BOX_PAD = 0.06;

/**
 * Share of the type marks a crop of the card must keep (frame.ts): a crop by the card's bright region
 * that cuts more off has lost lines of type (a window's reflection or a shadow moved the region off
 * the card), and the crop is widened to hold the type's box (pointsBox), the bright region's box kept
 * within it (final20 #11: the lit upper two thirds kept 74 % of the type; the type's box alone, with
 * its last marks at each end let go, cut the narrow CAT. HAB. column off the card's right). Marks
 * outside a good crop are a background's texture or a reflection's frame bars: a few percent (final24's
 * photos: 0-16 %).
 */
export const TYPE_KEEP = 0.75;

/**
 * Degrees (clockwise positive) to turn a frame whose card's bright region has its long axis at `axisDeg`
 * (no card outline found): `axisDeg` itself up to AXIS_CHECK_DEG; beyond it, 0 (the turn not taken:
 * the residual skew search, which covers AXIS_CHECK_DEG, straightens the type) when the type marks `m`
 * line up TYPE_TURN_RATIO times better at their best angle within AXIS_CHECK_DEG of the frame's rows
 * than at the axis (skew.ts typeSkew), that angle more than TYPE_TURN_TOL off the axis. A window's reflection or a lamp's glare across the card adds a
 * bright band of its own slant to the card's region (final24 #35: the region's axis at 14 degrees, the
 * card's type at about 1); the type's lines are the card's. skew.ts typeRefusesAxis asks the same of
 * every dark pixel, 1.5 times better: dark pixels count the frame's shadows and background, which
 * side with no angle, where the top-hat's marks are the type alone.
 */
export function typeTurn(m: TypeMarks, axisDeg: number): number {
  if (Math.abs(axisDeg) <= AXIS_CHECK_DEG) return axisDeg;
  const ts = typeSkew(m, AXIS_CHECK_DEG, axisDeg);
  if (process.env.OCR_FRAME_DEBUG) process.stderr.write(`[frame] ${JSON.stringify({ step: 'typeTurn', axisDeg, ts })}\n`);
  return ts && Math.abs(ts.deg - axisDeg) > TYPE_TURN_TOL && ts.ratio >= TYPE_TURN_RATIO ? 0 : axisDeg;
}

/** Degrees within which the type's best angle agrees with the bright region's axis (the skew search's grain is 0.25). */
export const TYPE_TURN_TOL = 1;
/** How much better (projection-profile energy of the type marks) the type must line up near the frame's rows than at the bright region's axis for the axis's turn to be left. */
export const TYPE_TURN_RATIO = 1.05;
