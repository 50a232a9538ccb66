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

function score(steps: Float64Array, n: number, sign: number): number {
  let c = 0;
  for (let i = 0; i < n; i++) {
    const d = steps[i] * sign;
    if (d >= MIN_LIFT && d <= MAX_LIFT) c++;
  }
  return c;
}

function searchVertical(L: Float64Array, w: number, h: number): ShadowStep | null {
  const rowStep = Math.max(1, Math.round(h / 150));
  const steps = new Float64Array(Math.ceil(h / rowStep) + 1);
  const rows = Math.ceil(h / rowStep);
  let best: { u: number; v: number; sign: number; c: number } | null = null;
  const coarse = Math.max(2, Math.round(w / 90));
  const consider = (u: number, v: number): void => {
    if (u < REACH + 1 || v < REACH + 1 || u >= w - REACH - 1 || v >= w - REACH - 1) return;
    const n = stepsAlong(L, w, h, u, v, rowStep, steps);
    for (const sign of [1, -1]) {
      const c = score(steps, n, sign);
      if (!best || c > best.c) best = { u, v, sign, c };
    }
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
  // Exactly parallel to the frame's side: a screenshot's bar or a scanner's edge, not a cast shadow
  // (whose edge is at an angle; a phone screenshot's status bar read as one lost a field on tuning #17).
  if (b.u === b.v) return null;
  // The lit side must cross both card and table (a shadow darkens both); a card's own edge has card
  // only on its bright side.
  if (litRange(L, w, h, b.u, b.v, rowStep, b.sign) < MIN_LIT_RANGE) return null;
  return { dir: 'v', u: b.u, v: b.v, lift: med, darkBefore: b.sign > 0, agree: agree / rows };
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
  const vert = searchVertical(L, hw, hh);
  const horiz = searchVertical(T, hh, hw);
  const hs = horiz ? { ...horiz, dir: 'h' as const } : null;
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
