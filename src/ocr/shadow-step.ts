/**
 * A hard-edged shadow across a photographed frame (a phone's or a hand's, held between the lamp and the
 * card): a region bounded by a straight, sharp edge from one side of the frame to the opposite one,
 * darker by a constant factor on both card and table. light.ts's planes are smooth surfaces; such a
 * step is not one, so the card finder's single threshold (Otsu) separates lit from shadowed and crops
 * the lit part of the card only.
 *
 * findShadowStep looks, on the small analysis copy, for a straight line from the top edge to the bottom
 * one (or from the left to the right) along which the log level steps by the same amount, in the same
 * direction, on nearly every row (card and table alike: a shadow multiplies both); a card's own edge
 * steps only where the card is, and by a different amount on card and table. liftShadowStep multiplies
 * the dark side back up by the measured factor, with a ramp across the edge's softness. Frames without
 * such a line are left as they are.
 */

export interface ShadowStep {
  /** 'v': the line runs from (u, 0) to (v, h - 1); 'h': from (0, u) to (w - 1, v). Analysis px. */
  dir: 'v' | 'h';
  u: number;
  v: number;
  /** Log of lit over shadowed level (> 0). */
  lift: number;
  /** The shadowed side: the one of smaller x ('v') or smaller y ('h'). */
  darkBefore: boolean;
  /** Share of rows (columns) whose step agrees. */
  agree: number;
}

/** Half-width of the step measured across the line, analysis px (the edge's softness at ~700 px). */
const REACH = 2;
/** Log-step range of a shadow: 22-73 % darker (final7 draws 35-55 %; real shadows vary). */
const MIN_LIFT = 0.25, MAX_LIFT = 1.3;
/** A row agrees when its step is within this of the line's median step. */
const AGREE_WITHIN = 0.2;
/** Share of rows that must agree. */
const MIN_AGREE = 0.86;
/** Least log-level spread of the lit side along the line (table and card: ~0.6 and more). */
const MIN_LIT_RANGE = 0.5;

function logTable(): Float64Array {
  const t = new Float64Array(256);
  for (let i = 0; i < 256; i++) t[i] = Math.log(i + 4);
  return t;
}
const LOG = logTable();

/** Steps across the line (u at row 0 to v at the last row) on sampled rows of a w x h log image. */
function stepsAlong(L: Float64Array, w: number, h: number, u: number, v: number, rowStep: number, out: Float64Array): number {
  let n = 0;
  for (let y = 0; y < h; y += rowStep) {
    const x = Math.round(u + ((v - u) * y) / Math.max(1, h - 1));
    if (x - REACH - 1 < 0 || x + REACH + 1 >= w) continue;
    const row = y * w;
    const a = (L[row + x - REACH] + L[row + x - REACH - 1]) / 2, b = (L[row + x + REACH] + L[row + x + REACH + 1]) / 2;
    out[n++] = b - a;
  }
  return n;
}

/** Log-level spread (90th minus 10th percentile) of the lit side just beside the line. */
function litRange(L: Float64Array, w: number, h: number, u: number, v: number, rowStep: number, sign: number): number {
  const lit: number[] = [];
  for (let y = 0; y < h; y += rowStep) {
    const x = Math.round(u + ((v - u) * y) / Math.max(1, h - 1)) + sign * (REACH + 1);
    if (x >= 0 && x < w) lit.push(L[y * w + x]);
  }
  lit.sort((p, q) => p - q);
  return lit.length ? lit[Math.floor(0.9 * (lit.length - 1))] - lit[Math.floor(0.1 * (lit.length - 1))] : 0;
}

/**
 * Each sampled row's step across every column (stepsAlong's measure at that column), classed once:
 * 1 when it is a shadow's step with the dark side before it (MIN_LIFT to MAX_LIFT), -1 with the dark side
 * after it, 0 otherwise. Scoring a line is then counting its rows' classes (the search tries ~7,700 lines).
 */
function stepClasses(L: Float64Array, w: number, h: number, rowStep: number): Int8Array {
  const rows = Math.ceil(h / rowStep);
  const cls = new Int8Array(rows * w);
  for (let r = 0; r < rows; r++) {
    const row = r * rowStep * w;
    for (let x = REACH + 1; x + REACH + 1 < w; x++) {
      const a = (L[row + x - REACH] + L[row + x - REACH - 1]) / 2, b = (L[row + x + REACH] + L[row + x + REACH + 1]) / 2;
      const d = b - a;
      cls[r * w + x] = d >= MIN_LIFT && d <= MAX_LIFT ? 1 : -d >= MIN_LIFT && -d <= MAX_LIFT ? -1 : 0;
    }
  }
  return cls;
}

/** The best line of a search, before the guards: its ends, the side its steps darken and its share of agreeing rows. */
interface Candidate { u: number; v: number; lift: number; sign: number; agree: number; rowStep: number }

function searchVertical(L: Float64Array, w: number, h: number): Candidate | null {
  const rowStep = Math.max(1, Math.round(h / 150));
  const steps = new Float64Array(Math.ceil(h / rowStep) + 1);
  const rows = Math.ceil(h / rowStep);
  const cls = stepClasses(L, w, h, rowStep);
  // Column offset of the line at each sampled row for each slant v - u (the same rounding as
  // stepsAlong: round(u + q) = u + round(q) for an integer u).
  const offset = (dv: number, r: number): number => Math.round((dv * r * rowStep) / Math.max(1, h - 1));
  const offsets = new Int32Array((2 * w + 1) * rows);
  for (let dv = -w; dv <= w; dv++) for (let r = 0; r < rows; r++) offsets[(dv + w) * rows + r] = offset(dv, r);
  let best: { u: number; v: number; sign: number; c: number } | null = null;
  const coarse = Math.max(2, Math.round(w / 90));
  const consider = (u: number, v: number): void => {
    if (u < REACH + 1 || v < REACH + 1 || u >= w - REACH - 1 || v >= w - REACH - 1) return;
    const base = (v - u + w) * rows;
    let pos = 0, neg = 0;
    for (let r = 0; r < rows; r++) {
      const k = cls[r * w + u + offsets[base + r]];
      if (k > 0) pos++;
      else if (k < 0) neg++;
    }
    if (!best || pos > best.c) best = { u, v, sign: 1, c: pos };
    if (neg > best.c) best = { u, v, sign: -1, c: neg };
  };
  for (let u = 0; u < w; u += coarse) for (let v = 0; v < w; v += coarse) consider(u, v);
  const found = best as { u: number; v: number; sign: number; c: number } | null;
  if (!found || found.c < 0.6 * rows) return null;
  const cu = found.u, cv = found.v;
  for (let u = cu - coarse; u <= cu + coarse; u++) for (let v = cv - coarse; v <= cv + coarse; v++) consider(u, v);
  const b = best as unknown as { u: number; v: number; sign: number; c: number };
  const n = stepsAlong(L, w, h, b.u, b.v, rowStep, steps);
  const sorted = Array.from(steps.subarray(0, n), (d) => d * b.sign).sort((p, q) => p - q);
  const med = sorted[Math.floor(n / 2)];
  let agree = 0;
  for (const d of sorted) if (Math.abs(d - med) <= AGREE_WITHIN) agree++;
  if (med < MIN_LIFT || med > MAX_LIFT || agree < MIN_AGREE * rows) return null;
  return { u: b.u, v: b.v, lift: med, sign: b.sign, agree: agree / rows, rowStep };
}

/**
 * Least slant of a cast shadow's edge: its two ends (where it meets the frame's opposite sides) at
 * least this many px apart along those sides, at the search's half size, its finest step. A step whose
 * ends lie in the same column (or row) at that resolution runs parallel to the frame's side: it is drawn
 * by the frame itself, a phone screenshot's status or navigation bar (pixel-aligned with the screen),
 * not cast by a hand or a phone held over the card, which no one lines up with the camera's frame.
 * Measured (findShadowStep without this rule, on every image of tuning, final5, final6, final7 and
 * final8): the steps found along the frame (screenshot bars: tuning #17 and #38, final5 #38, final6
 * #83, final7 #17, final8 #16 and #61; a band along a blurred frame's top edge: final5 #31) slant by
 * 0 px; final7's hard shadows found (9 of its 10 on a plain analysis copy) by 4 to 43 px (final7 #31:
 * 4 px, 0.65 degrees). There is no margin for a wider rule: a level line agrees on final7 #31's rows
 * as well as its own line does. (Lifting tuning #17's bar lost its uf.)
 */
export const MIN_SLANT_PX = 1;

/** Whether a line from (u, 0) to (v, h - 1) of the search runs parallel to the frame's side (MIN_SLANT_PX). */
export const parallelToFrame = (u: number, v: number): boolean => Math.abs(v - u) < MIN_SLANT_PX;

/** Whether a found step is a cast shadow's edge and not the frame's or a card's own (the guards). */
function castShadow(c: Candidate, L: Float64Array, w: number, h: number): boolean {
  if (parallelToFrame(c.u, c.v)) return false;
  // The lit side must cross both card and table (a shadow darkens both); a card's own edge has card
  // only on its bright side.
  return litRange(L, w, h, c.u, c.v, c.rowStep, c.sign) >= MIN_LIT_RANGE;
}

/** The search in one direction with its guards: the step, or null. */
function stepAcross(L: Float64Array, w: number, h: number): Omit<ShadowStep, 'dir'> | null {
  const c = searchVertical(L, w, h);
  if (!c || !castShadow(c, L, w, h)) return null;
  return { u: c.u, v: c.v, lift: c.lift, darkBefore: c.sign > 0, agree: c.agree };
}

/**
 * The hard shadow's edge in an 8-bit grayscale frame (w x h px, best the ~700 px analysis copy), or null.
 * Of the two directions, the one whose line agrees on more of its rows.
 */
export function findShadowStep(data: Uint8Array, w: number, h: number): ShadowStep | null {
  if (w < 64 || h < 64) return null;
  // Searched at half the size (2 x 2 means of the log level): a quarter of the lines to try.
  const hw = w >> 1, hh = h >> 1;
  const L = new Float64Array(hw * hh);
  for (let y = 0; y < hh; y++) for (let x = 0; x < hw; x++) {
    const i = 2 * y * w + 2 * x;
    L[y * hw + x] = (LOG[data[i]] + LOG[data[i + 1]] + LOG[data[i + w]] + LOG[data[i + w + 1]]) / 4;
  }
  const T = new Float64Array(hw * hh);
  for (let y = 0; y < hh; y++) for (let x = 0; x < hw; x++) T[x * hh + y] = L[y * hw + x];
  const v = stepAcross(L, hw, hh), hz = stepAcross(T, hh, hw);
  const vert = v ? { ...v, dir: 'v' as const } : null;
  const hs = hz ? { ...hz, dir: 'h' as const } : null;
  const best = vert && hs ? (vert.agree >= hs.agree ? vert : hs) : vert ?? hs;
  return best ? { ...best, u: 2 * best.u + 0.5, v: 2 * best.v + 0.5 } : null;
}

/**
 * Lifts the shadowed side of `data` (in place; `channels` interleaved 8-bit bands, `width` x `height`)
 * by exp(step.lift), ramped across the edge; `scale`: analysis px per full px.
 */
export function liftShadowStep(data: Uint8Array, width: number, height: number, channels: number, step: ShadowStep, scale: number): void {
  const k = Math.exp(step.lift);
  const ramp = (2 * (REACH + 1)) / scale;
  // Line in full px: position along the line's axis at each row (column for 'h').
  const lines = step.dir === 'v' ? height : width;
  const across = step.dir === 'v' ? width : height;
  const u = step.u / scale, v = step.v / scale;
  const gain = new Float64Array(across);
  for (let t = 0; t < lines; t++) {
    const edge = u + ((v - u) * t) / Math.max(1, lines - 1);
    for (let s = 0; s < across; s++) {
      // Signed distance into the dark side, in px across the line.
      const d = step.darkBefore ? edge - s : s - edge;
      const f = d >= ramp ? 1 : d <= -ramp ? 0 : (d + ramp) / (2 * ramp);
      gain[s] = 1 + (k - 1) * f;
    }
    for (let s = 0; s < across; s++) {
      if (gain[s] === 1) continue;
      const base = (step.dir === 'v' ? t * width + s : s * width + t) * channels;
      for (let c = 0; c < channels; c++) {
        const val = Math.round(data[base + c] * gain[s]);
        data[base + c] = val > 255 ? 255 : val;
      }
    }
  }
}
