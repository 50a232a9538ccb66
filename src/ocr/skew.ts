/**
 * Skew from the text lines' projection profiles (the rows of type line up when the angle is right: Postl's
 * projection-profile method, as surveyed in Bloomberg, Kopec and Dasari, "Measuring document image skew
 * and orientation", 1995): estimateSkew for the residual skew and a quarter turn, typeRefusesAxis for a
 * large turn by a bright region's axis taken without a card outline, typeSkew for the type marks' own angle
 * (card-type.ts). Pure functions on a gray analysis
 * copy (frame.ts Gray); split from frame.ts, behaviour unchanged.
 */
import type { Gray } from './frame.js';
import { otsu } from './light.js';

/**
 * Sum of squared row counts of dark pixels projected at `deg` (higher: text lines aligned). `bins` is
 * scratch space (zeroed on return) indexed by the projected row plus `offset`, which must cover
 * every point's |row| (the image's width plus height does).
 */
function profileScore(pts: Int32Array, deg: number, bins: Int32Array, offset: number, transpose = false): number {
  const r = (deg * Math.PI) / 180, c = Math.cos(r), s = Math.sin(r);
  let lo = bins.length, hi = -1;
  for (let i = 0; i < pts.length; i += 2) {
    const x = transpose ? pts[i + 1] : pts[i], y = transpose ? pts[i] : pts[i + 1];
    const b = Math.round(-x * s + y * c) + offset;
    bins[b]++;
    if (b < lo) lo = b;
    if (b > hi) hi = b;
  }
  let e = 0;
  for (let b = lo; b <= hi; b++) {
    e += bins[b] * bins[b];
    bins[b] = 0;
  }
  return e;
}

/**
 * Skew (degrees, clockwise positive) of text lines by projection profiles over [-range, range];
 * `quarter` is true when text runs vertically (the page is turned a quarter).
 */
export function estimateSkew(g: Gray, range: number): { deg: number; quarter: boolean } {
  const t = otsu(g.data);
  const all = skewPoints(g, t, t - 10);
  if (all.length < 50) return { deg: 0, quarter: false };
  const offset = g.w + g.h, bins = new Int32Array(2 * offset + 1);
  const { deg, score } = bestAngle(all, range, bins, offset);
  const vertical = profileScore(all, 0, bins, offset, true);
  const quarter = vertical > score * 1.25;
  // The same search over the type alone (darker than halfway from the page's darkest percentile to
  // the threshold): kept when the two disagree by more than SKEW_DISAGREE degrees (pale print voted).
  const dark = skewPoints(g, t, Math.round((darkestPercentile(g.data) + t) / 2));
  if (dark.length < 50) return { deg, quarter };
  const typeOnly = bestAngle(dark, range, bins, offset).deg;
  return { deg: Math.abs(typeOnly - deg) > SKEW_DISAGREE ? typeOnly : deg, quarter };
}

/**
 * Degrees by which the skew of the type alone may differ from the skew of every dark pixel before the
 * type's is taken. On a card whose pale security print (a wave guilloche, green, ~200 of 255 in the
 * analysis copy) and grey stains pass the card's threshold, the print outvotes the type: final13 #77
 * (two sides, no card edge found: the frame's light divided out made the table as light as the card)
 * was turned 8.75 degrees by the waves, where its type lies at -1.75, and lost every field. Where the
 * two agree within this, the page is turned exactly as before.
 */
export const SKEW_DISAGREE = 2;

/** Interleaved x, y of the pixels darker than `ink` between each row's first and last pixel lighter than `t` (dark background corners of a rotated photo do not vote). */
function skewPoints(g: Gray, t: number, ink: number): Int32Array {
  const pts: number[] = [];
  for (let y = 0; y < g.h; y++) {
    let lo = 0, hi = g.w - 1;
    while (lo < g.w && g.data[y * g.w + lo] <= t) lo++;
    while (hi > lo && g.data[y * g.w + hi] <= t) hi--;
    for (let x = lo + 2; x < hi - 2; x++) if (g.data[y * g.w + x] < ink) pts.push(x, y);
  }
  return Int32Array.from(pts);
}

/**
 * Degrees of the bright region's long axis (brightAxis) beyond which a turn by it, taken without a card
 * outline (findCardQuad found none), is checked against the type: the residual skew search covers 3.
 */
export const AXIS_CHECK_DEG = 3;
/**
 * How much better (projection-profile energy of the type alone) the type must line up with the frame's
 * own axes than with the bright region's axis for that axis to be refused. A card half in a hard
 * shadow (final18 #50, glare: the lit part a trapezoid cut by the shadow's slanted edge, the edge not
 * lifted: shadow-step.ts needs a straight step across the whole frame) has a lit region whose axis
 * lies 41 degrees off the card's: turned by it, every line ran at 41 degrees and the page lost every
 * field. Its type scores 3.0 x higher unturned; on final18's other frames turned by their axis without
 * an outline the two agree within a factor 1.2 either way.
 */
export const TYPE_AXIS_RATIO = 1.5;

/**
 * Whether the type (pixels darker than halfway from the darkest percentile to `t`, as estimateSkew's
 * second search) lines up TYPE_AXIS_RATIO times better along the frame's own rows (best within 1 degree
 * of 0) than along the rows turned `deg` (best within 1 degree of it): the bright region's axis is
 * then no card's.
 */
export function typeRefusesAxis(g: Gray, t: number, deg: number): boolean {
  const dark = skewPoints(g, t, Math.round((darkestPercentile(g.data) + t) / 2));
  if (dark.length < 50) return false;
  const offset = g.w + g.h, bins = new Int32Array(2 * offset + 1);
  let atAxis = 0, atZero = 0;
  for (let d = -1; d <= 1; d += 0.25) {
    atAxis = Math.max(atAxis, profileScore(dark, deg + d, bins, offset));
    atZero = Math.max(atZero, profileScore(dark, d, bins, offset));
  }
  return atZero > TYPE_AXIS_RATIO * atAxis;
}

/** The level under which 1 % of the pixels lie (the type's ink on a card page). */
function darkestPercentile(data: Uint8Array): number {
  const hist = new Uint32Array(256);
  for (let i = 0; i < data.length; i++) hist[data[i]]++;
  let acc = 0, v = 0;
  while (v < 255 && (acc += hist[v]) < 0.01 * data.length) v++;
  return v;
}

/** The angle in [-range, range] (0.25 degree steps) whose projection profile of `p` scores highest (the first of equals). */
function bestAngle(p: Int32Array, range: number, bins: Int32Array, offset: number): { deg: number; score: number } {
  let best = 0, bestScore = -1;
  for (let d = -range; d <= range + 1e-9; d += 0.25) {
    const sc = profileScore(p, d, bins, offset);
    if (sc > bestScore) { bestScore = sc; best = d; }
  }
  return { deg: best, score: bestScore };
}

/**
 * The type's own skew (degrees, clockwise positive, 0.25 degree steps over [-range, range]): the angle
 * whose projection profile of the type marks (card-type.ts typeMarks: dark thin strokes only, not the
 * card's edges, its shadow or a dark desk) scores highest, and `ratio`, that score over the score at
 * `versus` degrees (best within 0.5 degree of it): how much better the type lines up at its own angle
 * than at the one a crop would turn by. Null with fewer than 50 marks.
 */
export function typeSkew(m: { mask: Uint8Array; w: number; h: number }, range: number, versus = 0): { deg: number; ratio: number } | null {
  const pts: number[] = [];
  for (let y = 0; y < m.h; y++) for (let x = 0; x < m.w; x++) if (m.mask[y * m.w + x]) pts.push(x, y);
  if (pts.length < 100) return null;
  const p = Int32Array.from(pts), offset = m.w + m.h, bins = new Int32Array(2 * offset + 1);
  const best = bestAngle(p, range, bins, offset);
  let at = 0;
  for (let d = -0.5; d <= 0.5; d += 0.25) at = Math.max(at, profileScore(p, versus + d, bins, offset));
  return { deg: best.deg, ratio: at > 0 ? best.score / at : Infinity };
}
